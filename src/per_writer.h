/*
 * PER encoder of asn1c 0.9.28 models, X.691 UNALIGNED or ALIGNED, driven
 * by the const schema (schema.h). Not installed.
 */
#ifndef MEGACO_PER_WRITER_H
#define MEGACO_PER_WRITER_H

#include <stddef.h>

#include "megaco/megaco.h"

/*
 * Encodes the value ptr of the constructed schema type `type` (SCHEMA_T_*,
 * SCHEMA_ROOT in megaco_schema.h) as PER into buf[0..cap); aligned 0 is
 * X.691 UNALIGNED (byte for byte what asn1c's uper_encode() writes), 1 is
 * ALIGNED. buf may be NULL when cap is 0. On success *out_len is the
 * encoding's size. Too small a buffer gives MEGACO_ERR_BUFFER_TOO_SMALL with
 * *out_len set to the size needed and buf[0..cap) holding the start of the
 * encoding. The constraints are checked as asn_check_constraints() would,
 * and the nesting as the PER reader checks it: a constructed value at
 * level max_depth or deeper (the root's level is 0) is refused.
 * No allocation unless an extension addition or alternative encodes to
 * more than 256 octets: scratch for it from al (not NULL), given back
 * before the return.
 *
 * The value is written by the module of the message's version (its
 * Message.version; a value without its message by the v3 module).
 *
 * Returns MEGACO_OK; MEGACO_ERR_BUFFER_TOO_SMALL, MEGACO_ERR_CONSTRAINT (a
 * violated constraint or a model that cannot be encoded: missing mandatory
 * member, also one only the module of the message's version makes
 * mandatory, no CHOICE alternative), MEGACO_ERR_TOO_DEEP (past max_depth,
 * or a model nested so deep its recursion would pass WRITER_STACK_BUDGET,
 * internal.h;
 * only recursive types can), MEGACO_ERR_INVALID_ARGUMENT (no such constructed type, NULL ptr) or
 * MEGACO_ERR_NOMEM, each with err filled.
 */
int per_write(unsigned type, const void *ptr, int aligned, unsigned max_depth,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err);

#endif
