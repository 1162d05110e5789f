/*
 * PER decode stage (PER bytes -> the asn1c model, in the message arena),
 * X.691 UNALIGNED or ALIGNED, driven by the const schema. Internal.
 */
#ifndef MEGACO_PER_READER_H
#define MEGACO_PER_READER_H

#include <stddef.h>

struct megaco_arena;

/* per_read() results. */
enum {
	PER_OK = 0,
	PER_STARVED = 1, /* the input ends inside the message */
	PER_FAIL = 2,    /* not a value of the module (or the arena failed: arena->failed) */
	PER_DEEP = 3,    /* constructed values nest deeper than max_depth */
	PER_VERSION = 4, /* Message.version names no module the schema has (1..3) */
};

/*
 * Decodes one complete MegacoMessage into *sptr (allocated from arena when
 * NULL), nesting at most max_depth constructed values. aligned: 0 for the
 * UNALIGNED variant, which gives asn1c's uper_decode_complete() results
 * (model, verdict, starved versus malformed) for messages whose version's
 * module encodes as the v3 one, 1 for ALIGNED. The body is read by the module
 * of the message's version (Message.version, which comes before it): a
 * member that an older module has as mandatory (schema opt_since) has no
 * presence bit there. A version outside 1..3 stops the decode there
 * (PER_VERSION, the version in *sptr). Returns a PER_* result; *consumed
 * (bytes, the last one padded) on PER_OK.
 */
int per_read(void **sptr, const unsigned char *buf, size_t len, int aligned,
             struct megaco_arena *arena, unsigned max_depth, size_t *consumed);

#endif
