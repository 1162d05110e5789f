/*
 * Single-pass BER decoder filling asn1c 0.9.28 models, driven by the
 * generated type descriptors. Decides exactly as asn1c's ber_decode() does
 * and builds the same structures, from the message arena. Not installed.
 */
#ifndef MEGACO_BER_READER_H
#define MEGACO_BER_READER_H

#include <stddef.h>

#include "arena.h"
#include "asn_application.h"
#include "constr_TYPE.h"

enum {
	BER_READ_OK = 0,
	BER_READ_FAIL = -1,  /* the bytes are not a value of the type (asn1c's RC_FAIL/RC_WMORE) */
	BER_READ_NOMEM = -2, /* the arena could not grow */
};

/*
 * Decodes one value of type td from buf[0..len) into *slot; a NULL *slot is
 * allocated, like every node below it, from arena. On BER_READ_OK *consumed
 * is the size of the value, which may be less than len. On failure the
 * partial model stays in the arena, to be dropped with it, and *fail_at is
 * the offset near which the reading stopped.
 *
 * The inputs accepted and the model built are those of asn1c's ber_decode()
 * on the same descriptors, quirks included: an unknown alternative of an
 * extensible CHOICE leaves it with none present and ends it there; an unknown
 * member of an extensible SEQUENCE makes the optional members before it
 * unreachable. Kinds not handled here (ANY, SET) go through asn1c's own
 * decoder for that subtree, with arena as asn1c's allocator.
 *
 * It also checks what ber_scan() checks, unless it sets *needs_scan: after
 * BER_READ_OK with *consumed == len and *needs_scan == 0, ber_scan(buf, len,
 * max_depth, len) returns MEGACO_OK. *needs_scan is set on forms it leaves
 * to ber_scan() (a high tag number, a length in over 4 octets or 0x80 on a
 * primitive, a skipped value, a primitive EXPLICIT tag, a subtree asn1c
 * read). Nesting past max_depth constructed values fails, as ber_scan() does.
 *
 * The first call for a root type compiles its descriptors into static
 * tables, under a lock (then lock-free); that settles asn1c's derived types
 * as their first use by asn1c would. Safe to call from several threads.
 */
int ber_read(asn_TYPE_descriptor_t *td, void **slot, const unsigned char *buf, size_t len,
             megaco_arena *arena, unsigned max_depth, size_t *consumed, size_t *fail_at,
             int *needs_scan);

/*
 * ber_read() that never uses the generated readers, only the table walk
 * (for tests comparing the two).
 */
int ber_read_tables(asn_TYPE_descriptor_t *td, void **slot, const unsigned char *buf, size_t len,
                    megaco_arena *arena, unsigned max_depth, size_t *consumed, size_t *fail_at,
                    int *needs_scan);

/* How ber_read() decodes MegacoMessage. */
enum {
	BER_READ_MODE_DESCRIPTORS, /* asn1c's decoder: the tables are too small for the module */
	BER_READ_MODE_TABLES,      /* the compiled tables; built without generated readers */
	BER_READ_MODE_GENERATED,   /* the generated readers (tools/gen/ber_read_gen.c) */
	BER_READ_MODE_STALE,       /* generated readers built in, but from other tables: unused */
};
int ber_read_mode(void);

#endif
