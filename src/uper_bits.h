/*
 * Bit-level plumbing of the UPER reader (X.691 UNALIGNED): a bounds-checked
 * MSB-first bit reader and the classification of asn1c descriptors it
 * walks. Internal.
 *
 * The reader reproduces asn1c 0.9.28's uper_* behaviour (its
 * output is the reference), so each quirk it copies is marked "asn1c:".
 */
#ifndef MEGACO_UPER_BITS_H
#define MEGACO_UPER_BITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "asn_application.h"
#include "byte_order.h"
#include "INTEGER.h"
#include "megaco/options.h"

/* Type families the UPER walkers know. */
enum uper_kind {
	UK_SEQUENCE = 1,
	UK_CHOICE,
	UK_LIST,       /* SEQUENCE OF (asn1c's SET OF decoder, SEQUENCE OF encoder) */
	UK_OCTETS,     /* OCTET STRING, IA5String and kin, OID (as asn1c does it) */
	UK_BITS,       /* BIT STRING */
	UK_NATIVE_INT, /* constrained whole number in a long */
	UK_NATIVE_ENUM,
	UK_BOOLEAN,
	UK_NULL
};

typedef struct uper_node uper_node;
typedef struct uper_in uper_in;
typedef struct uper_out uper_out;
struct uper_reader;
/* Per-kind entry points, chosen when the node is built. */
typedef int uper_dec_f(struct uper_reader *r, const uper_node *n, void **sptr, uper_in *in);
typedef int uper_enc_f(const uper_node *n, const void *sptr, uper_out *o);

/* A member of a SEQUENCE or CHOICE, or the element of a SEQUENCE OF. */
typedef struct uper_field {
	const uper_node *node;
	asn_TYPE_descriptor_t *td;
	asn_constr_check_f *check; /* the leaf check asn_check_constraints() runs; NULL: none */
	unsigned offset;
	unsigned char ptr;      /* ATF_POINTER */
	unsigned char optional; /* root member with a presence bit */
	unsigned char ext;      /* extension addition (open type) */
	unsigned char in_root;  /* encoded by asn1c's root loop */
} uper_field;

/*
 * One type under the constraints it is used with, with what asn1c works out
 * on every call (effective constraints, kind, bounds) worked out once.
 */
struct uper_node {
	uper_dec_f *dec;
	uper_enc_f *enc;
	unsigned char kind;
	unsigned char extensible; /* SEQUENCE: has "..."; others: constraint is extensible */
	unsigned char unsigned_int;
	unsigned char raw;        /* OCTETS: 8-bit units copied as they are */
	int nbits;                /* CHOICE/ENUM/INT: value range bits; LIST/OCTETS: size bits; -1 */
	long lb, ub;              /* CHOICE/INT: value bounds; LIST/OCTETS: size bounds */
	unsigned unit_bits;       /* OCTETS: bits per character */
	long clb, cub;            /* OCTETS: character bounds as asn1c applies them */
	int nfields;
	const uper_field *fields;
	int roms;                 /* SEQUENCE: optional root members (presence bits) */
	int ext_start;            /* CHOICE */
	unsigned pres_offset, pres_size;
	size_t struct_size;
	const asn_INTEGER_specifics_t *enums; /* ENUM */
};

/*
 * Builds the node graph for MegacoMessage from the asn1c descriptors
 * (flattening asn1c's typedef wrappers on the way) and checks every type is
 * a form the walkers reproduce exactly. Runs once per process. Returns the
 * root node, or NULL when the fast codec must not be used.
 */
const uper_node *uper_root(void);

/* The node builder's encoder slot: NULL (per_codec.c), the PER writer
 * works from the schema. */
uper_enc_f *uper_encoder_for(enum uper_kind kind);

/* Decoder/encoder results, as asn1c's RC_OK / RC_WMORE / RC_FAIL. */
enum { UPER_OK = 0, UPER_STARVED = 1, UPER_FAIL = 2 };

struct megaco_arena;
/*
 * Decodes a complete encoding into *sptr (allocated from arena when NULL),
 * as uper_decode_complete() would, nesting at most max_depth constructed
 * values. Returns UPER_OK with *consumed (bytes), UPER_STARVED or UPER_FAIL.
 */
int uper_read(const uper_node *root, void **sptr, const unsigned char *buf, size_t len,
              struct megaco_arena *arena, unsigned max_depth, size_t *consumed);

/* --- reader ---------------------------------------------------------------- */

struct uper_in {
	const uint8_t *buf; /* the whole input: loads never pass buf + size */
	size_t size;        /* bytes readable at buf */
	size_t pos, end;    /* bit position and logical end (end <= 8 * size) */
};

static inline size_t uin_left(const uper_in *in) { return in->end - in->pos; }

/* n <= 32 bits at pos, no bounds check against end (caller did it). */
static inline uint32_t uin_peek(const uper_in *in, unsigned n)
{
	if (n == 0)
		return 0;
	size_t byte = in->pos >> 3;
	unsigned sh = in->pos & 7;
	uint64_t w;
	if (byte + 8 <= in->size) {
		w = be64_load(in->buf + byte);
	} else {
		w = 0;
		for (unsigned i = 0; i < 8; i++)
			w = (w << 8) | (byte + i < in->size ? in->buf[byte + i] : 0);
	}
	return (uint32_t)((w << sh) >> (64 - n));
}

/* asn1c per_get_few_bits: -1 when fewer than n bits are left (n <= 31 there; 32 ok here). */
static inline int64_t uin_get(uper_in *in, unsigned n)
{
	if (n > uin_left(in))
		return -1;
	uint32_t v = uin_peek(in, n);
	in->pos += n;
	return v;
}

#endif
