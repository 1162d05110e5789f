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
};

/*
 * Decodes one complete MegacoMessage into *sptr (allocated from arena when
 * NULL), nesting at most max_depth constructed values. aligned: 0 for the
 * UNALIGNED variant, which gives asn1c's uper_decode_complete() results
 * (model, verdict, starved versus malformed), 1 for ALIGNED. Returns a PER_*
 * result; *consumed (bytes, the last one padded) on PER_OK.
 */
int per_read(void **sptr, const unsigned char *buf, size_t len, int aligned,
             struct megaco_arena *arena, unsigned max_depth, size_t *consumed);

#endif
