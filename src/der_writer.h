/*
 * Single-pass DER encoder over asn1c 0.9.28 models. It writes back to front,
 * so each constructed value's length is known when its header is written;
 * output is byte-identical to asn1c's der_encode(). Not installed.
 */
#ifndef MEGACO_DER_WRITER_H
#define MEGACO_DER_WRITER_H

#include <stddef.h>

#include "asn_application.h"
#include "constr_TYPE.h"
#include "megaco/megaco.h"

/* Flags for der_write(). */
enum {
	/*
	 * Check constraints while encoding, as asn_check_constraints() would:
	 * INTEGER ranges, string and list SIZE, IA5String alphabets, BIT STRING
	 * padding, present mandatory members and CHOICE alternatives.
	 */
	DER_WRITE_CHECK = 1u << 0,
	/*
	 * For tests, which compare the three ways the H.248 root can be written:
	 * the walk over the compiled tables instead of the generated writers
	 * (der_writer_gen.inc), or the walk over the asn1c descriptors instead
	 * of either. Same bytes, same errors; only slower.
	 */
	DER_WRITE_TABLE_WALK = 1u << 1,
	DER_WRITE_DESCRIPTOR_WALK = 1u << 2,
};

/* What der_write() uses for asn_DEF_MegacoMessage, as der_write_mode() tells. */
enum {
	DER_MODE_DESCRIPTORS, /* the descriptor walk (the tables did not fit) */
	DER_MODE_TABLES,      /* the compiled tables; built without generated writers */
	DER_MODE_GENERATED,   /* the generated writers */
	DER_MODE_STALE,       /* generated writers built in, but from other tables: unused */
};

/* Compiles the tables if need be and says which of the DER_MODE_* is in use. */
int der_write_mode(void);

/*
 * Encodes the value ptr of type td as DER into buf[0..cap); buf may be NULL
 * when cap is 0. On success *out_len is the encoding's size, which starts at
 * buf[0]. Too small a buffer gives MEGACO_ERR_BUFFER_TOO_SMALL with *out_len
 * set to the size needed (buf's contents are then unspecified). No
 * allocation unless the buffer is too small (scratch to learn the size) or
 * a SET OF has over 16 items or no spare room in buf to sort in; scratch
 * comes from al (not NULL) and is given back before the return. Descriptor
 * kinds it does not know (none in the H.248 v3 module), and derived types
 * asn1c has not yet resolved to their base, go through asn1c's own encoder
 * for that subtree.
 *
 * Returns MEGACO_OK; MEGACO_ERR_BUFFER_TOO_SMALL, MEGACO_ERR_CONSTRAINT (a
 * violated constraint or a model asn1c could not encode either: missing
 * mandatory member, no CHOICE alternative), MEGACO_ERR_TOO_DEEP (a model
 * nested so deep its recursion would pass 128 KiB of stack, over a thousand
 * levels; only recursive types can) or MEGACO_ERR_NOMEM, each with err filled.
 */
int der_write(asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err);

#endif
