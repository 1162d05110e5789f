/*
 * BER decode stage (BER bytes -> asn1c's structures), one walk over the
 * const schema (schema.h). Not installed.
 */
#ifndef MEGACO_BER_READER_H
#define MEGACO_BER_READER_H

#include <stddef.h>

#include "arena.h"
#include "megaco/error.h"

/* ber_read()'s *flags */
enum {
	/*
	 * An extensible CHOICE carried an alternative this module does not
	 * know; it was skipped and the CHOICE left with none present.
	 *
	 * X.680 (extensibility) and X.690 8.13 let a decoder accept such a
	 * value: it is how an H.248 version 4 peer's message stays readable
	 * here, so the message decodes and its other parts are usable. But the
	 * model cannot hold the unknown alternative, so no encoder can write
	 * the message back: the caller marks the model as not sound, and every
	 * encoder then validates it and refuses it with MEGACO_ERR_CONSTRAINT
	 * naming the CHOICE (never writing another message in its place).
	 */
	BER_READ_UNKNOWN_ALTERNATIVE = 1 << 0,
};

/*
 * Decodes one value of schema type `type` that must fill buf[0..len), into
 * *slot (allocated from arena when NULL, as is every node below it).
 * Returns MEGACO_OK, or the error with err filled in:
 *   MEGACO_ERR_TRUNCATED    the input ends inside a value (offset: where)
 *   MEGACO_ERR_BAD_LENGTH   a length octet form X.690 forbids, or a value
 *                           running past its container, or a top-level
 *                           length over max_size
 *   MEGACO_ERR_BAD_TAG      a malformed identifier, or end-of-contents
 *                           where none may be
 *   MEGACO_ERR_TOO_DEEP     more than max_depth constructed values open
 *   MEGACO_ERR_TRAILING_DATA bytes after the value
 *   MEGACO_ERR_MALFORMED    well-formed TLVs that are not a value of the type
 *   MEGACO_ERR_NOMEM        the arena failed
 * The first four classes describe the TLV structure and win over
 * MALFORMED wherever they occur (the reader walks the rest of the
 * structure after a mismatch). The values accepted and the model built are
 * those of asn1c's ber_decode(), but where X.690 forbids what asn1c takes
 * (a BIT STRING's unused-bit count over 7, a primitive EXPLICIT tag) and
 * for an unknown CHOICE alternative (see BER_READ_UNKNOWN_ALTERNATIVE).
 * On failure the partial model stays in the arena, to be dropped with it.
 */
int ber_read(unsigned type, void **slot, const unsigned char *buf, size_t len,
             megaco_arena *arena, unsigned max_depth, size_t max_size, unsigned *flags,
             megaco_error *err);

#endif
