/*
 * Single-pass DER encoder of asn1c 0.9.28 models, driven by the const
 * schema (schema.h). It writes back to front, so each constructed value's
 * length is known when its header is written. Not installed.
 */
#ifndef MEGACO_DER_WRITER_H
#define MEGACO_DER_WRITER_H

#include <stddef.h>

#include "megaco/megaco.h"

/* Flags for der_write(). */
enum {
	/*
	 * Check constraints while encoding, as asn_check_constraints() would:
	 * INTEGER ranges, string SIZE (no list of the module has one; the
	 * generator refuses one), IA5String alphabets, BIT STRING padding,
	 * present mandatory members and CHOICE alternatives.
	 */
	DER_WRITE_CHECK = 1u << 0,
};

/*
 * Encodes the value ptr of schema type `type` (SCHEMA_T_*, SCHEMA_ROOT in
 * megaco_schema.h) as DER into buf[0..cap); buf may be NULL when cap is 0.
 * Refuses what the BER reader refuses under the same max_depth (more than
 * max_depth constructed values nested, the outermost counted).
 * On success *out_len is the encoding's size, which starts at buf[0]. Too
 * small a buffer gives MEGACO_ERR_BUFFER_TOO_SMALL with *out_len set to the
 * size needed (buf's contents are then unspecified). No allocation unless
 * the buffer is too small: scratch to learn the size, from al (not NULL),
 * given back before the return.
 *
 * Returns MEGACO_OK; MEGACO_ERR_BUFFER_TOO_SMALL, MEGACO_ERR_CONSTRAINT (a
 * violated constraint or a model that cannot be encoded: missing mandatory
 * member, no CHOICE alternative), MEGACO_ERR_TOO_DEEP (nested deeper
 * than max_depth, or so deep its recursion would pass WRITER_STACK_BUDGET,
 * internal.h), MEGACO_ERR_INVALID_ARGUMENT (no such type) or
 * MEGACO_ERR_NOMEM, each with err filled.
 */
int der_write(unsigned type, const void *ptr, unsigned flags, unsigned max_depth,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err);

#endif
