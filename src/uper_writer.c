/*
 * UPER writer: model -> X.691 UNALIGNED bytes, emitting exactly what asn1c's
 * uper_encode() does (asn1c is the reference; corpus/per agrees with it)
 * through a word-buffered bit writer instead of asn1c's per-call flushes,
 * temporary INTEGER_t conversions and malloc'd open-type buffers.
 *
 * The shared uper_node graph is compiled once into a writer plan (wnode):
 * each node gets a routine for its exact shape, and a SEQUENCE's members come
 * pre-sorted into root, presence-bit and extension lists, so the per-message
 * walk makes no classification decisions and no passes over absent kinds.
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "IA5String.h"
#include "NativeEnumerated.h"
#include "arena.h"
#include "asn_SEQUENCE_OF.h"
#include "uper_bits.h"

/* --- bit output ------------------------------------------------------------- */

void uout_spill(uper_out *o, uint32_t word)
{
	for (int i = 3; i >= 0; i--, o->len++)
		if (o->len < o->cap)
			o->buf[o->len] = (uint8_t)(word >> (8 * i));
}

void uout_flush32(uper_out *o) { uout_store32(o); }

/* uout_finish() near or past cap: a byte at a time. */
static __attribute__((noinline)) size_t uout_finish_bytes(uper_out *o)
{
	while (o->nacc >= 8) {
		o->nacc -= 8;
		uint8_t b = (uint8_t)(o->acc >> o->nacc);
		if (o->len < o->cap)
			o->buf[o->len] = b;
		o->len++;
	}
	if (o->nacc) {
		uint8_t b = (uint8_t)(o->acc << (8 - o->nacc));
		if (o->len < o->cap)
			o->buf[o->len] = b;
		o->len++;
		o->nacc = 0;
	}
	return o->len;
}

/* Pads the last partial byte with zeros; returns the byte count. */
static inline size_t uout_finish(uper_out *o)
{
	if (o->len + 4 > o->cap)
		return uout_finish_bytes(o);
	/* The < 32 pending bits, left-aligned; nothing stored past the end. */
	uint32_t word = (uint32_t)(o->acc << (32 - o->nacc));
	uint8_t *d = o->buf + o->len;
	switch ((o->nacc + 7) / 8) {
	case 4: d[3] = (uint8_t)word; /* fall through */
	case 3: d[2] = (uint8_t)(word >> 8); /* fall through */
	case 2: d[1] = (uint8_t)(word >> 16); /* fall through */
	case 1: d[0] = (uint8_t)(word >> 24); break;
	default: break;
	}
	o->len += (o->nacc + 7) / 8;
	o->nacc = 0;
	return o->len;
}

/* nbytes whole octets from src (asn1c per_put_many_bits on a multiple of 8). */
static inline __attribute__((always_inline)) void put_bytes(uper_out *o, const uint8_t *src,
                                                           size_t nbytes)
{
	/* 8 octets per step straight to the buffer while it has room: the
	 * pending bits, then the octets' first 64 - nacc bits; their last nacc
	 * bits stay pending (acc's bits above nacc are never read). */
	for (; nbytes >= 8 && o->len + 8 <= o->cap; src += 8, nbytes -= 8) {
		uint64_t w = be64_load(src);
		be64_store(o->buf + o->len, ((o->acc << 1) << (63 - o->nacc)) | (w >> o->nacc));
		o->len += 8;
		o->acc = w;
	}
	for (; nbytes >= 4; src += 4, nbytes -= 4)
		uout_put_fit(o, be32_load(src), 32);
	/* The tail as one put; never reads past src + nbytes. */
	switch (nbytes) {
	case 3: uout_put_fit(o, (uint32_t)src[0] << 16 | (uint32_t)src[1] << 8 | src[2], 24); break;
	case 2: uout_put_fit(o, (uint32_t)src[0] << 8 | src[1], 16); break;
	case 1: uout_put_fit(o, src[0], 8); break;
	default: break;
	}
}

/* asn1c per_put_many_bits: nbits from src, MSB first. */
static void put_bits(uper_out *o, const uint8_t *src, size_t nbits)
{
	put_bytes(o, src, nbits >> 3);
	if (nbits & 7)
		uout_put_fit(o, (uint32_t)(src[nbits >> 3] >> (8 - (nbits & 7))), (unsigned)(nbits & 7));
}

/* put_length() past the one-octet form. */
static __attribute__((noinline)) size_t put_length_long(uper_out *o, size_t length)
{
	if (length < 16384) {
		uout_put_fit(o, (uint32_t)length | 0x8000, 16);
		return length;
	}
	length >>= 14;
	if (length > 4)
		length = 4;
	uout_put_fit(o, 0xC0 | (uint32_t)length, 8);
	return length << 14;
}

/* asn1c uper_put_length: returns how many units may follow, -1 never here.
 * Inline for the usual one-octet form (short strings and lists). */
static inline __attribute__((always_inline)) size_t put_length(uper_out *o, size_t length)
{
	if (length <= 127) {
		uout_put_fit(o, (uint32_t)length, 8);
		return length;
	}
	return put_length_long(o, length);
}

/* asn1c uper_put_nsnnwn (its own, non-X.691, form for n > 63). */
static int put_nsnnwn(uper_out *o, long n)
{
	if (n <= 63) {
		if (n < 0)
			return -1;
		uout_put(o, (uint32_t)n, 7);
		return 0;
	}
	unsigned bytes = n < 256 ? 1 : n < 65536 ? 2 : n < 256 * 65536 ? 3 : 0;
	if (!bytes)
		return -1;
	uout_put(o, bytes, 8);
	uout_put(o, (uint32_t)n, 8 * bytes);
	return 0;
}

/* asn1c uper_put_constrained_whole_number_u. */
static void put_whole(uper_out *o, unsigned long v, int nbits)
{
	if (nbits <= 31) {
		uout_put(o, (uint32_t)v, (unsigned)nbits);
		return;
	}
	put_whole(o, v >> 31, nbits - 31);
	uout_put(o, (uint32_t)v, 31);
}

/* --- the plan --------------------------------------------------------------- */

typedef struct wnode wnode;
typedef int wenc_f(const wnode *n, const void *sptr, uper_out *o);

/* A member (or list element) as the writer needs it. */
typedef struct wfield {
	const wnode *node;
	asn_constr_check_f *check; /* asn_check_constraints()'s leaf check; NULL: none needed */
	asn_TYPE_descriptor_t *td;
	unsigned offset;
	unsigned char ptr;      /* ATF_POINTER */
	unsigned char optional; /* root member with a presence bit */
} wfield;

/* Shapes enc_field() writes inline instead of calling wnode.enc. */
enum { WK_CALL, WK_INT, WK_RAW, WK_RAW_SEMI, WK_CHARS7 };

struct wnode {
	wenc_f *enc;
	unsigned char wk, kind, extensible, unsigned_int;
	int nbits;
	long lb, ub;
	/* SEQUENCE: root members in order, members with presence bits in bit
	 * order, extension additions. CHOICE: alternatives. LIST: the element. */
	const wfield *root, *opt, *ext;
	int nroot, nopt, next;
	int ext_start;
	unsigned pres_offset, pres_size;
	/* OCTETS/BITS */
	unsigned unit_bits;
	long clb, cub;
	const asn_INTEGER_specifics_t *enums;
	const uper_node *src;
};

static inline const void *field_ptr(const wfield *f, const void *st)
{
	const char *p = (const char *)st + f->offset;
	return f->ptr ? *(const void *const *)p : (const void *)p;
}

/* A constrained whole number in a long (the generated writers pass constants). */
static inline __attribute__((always_inline)) int int_c(const void *sptr, uper_out *o, long lb,
                                                        long ub, int nbits, int is_unsigned)
{
	long value = *(const long *)sptr;
	if (is_unsigned) {
		unsigned long u = (unsigned long)value;
		if (u < (unsigned long)lb || u > (unsigned long)ub)
			return -1;
	} else if (value < lb || value > ub) {
		return -1;
	}
	unsigned long v = (unsigned long)value - (unsigned long)lb;
	if (nbits <= 32) /* asn1c's 31 + 1 bits in two puts are these 32 bits */
		uout_put_fit(o, (uint32_t)v, (unsigned)nbits);
	else
		put_whole(o, v, nbits);
	return 0;
}

static inline __attribute__((always_inline)) int enc_native_int(const wnode *n, const void *sptr, uper_out *o)
{
	return int_c(sptr, o, n->lb, n->ub, n->nbits, n->unsigned_int);
}

/* An inextensible OCTET STRING of SIZE(lb..ub), 8-bit units as they are. */
static inline __attribute__((always_inline)) int raw_c(const void *sptr, uper_out *o, long lb,
                                                        long ub, int nbits)
{
	const OCTET_STRING_t *st = sptr;
	int units = st->size;
	if ((!st->buf && units) || units < lb || units > ub)
		return -1;
	uout_put_fit(o, (uint32_t)(units - lb), (unsigned)nbits);
	put_bytes(o, st->buf, (size_t)units);
	return 0;
}

static inline __attribute__((always_inline)) int enc_raw(const wnode *n, const void *sptr, uper_out *o)
{
	return raw_c(sptr, o, n->lb, n->ub, n->nbits);
}

/* An inextensible OCTET STRING without a size constraint: length, then the octets. */
static int enc_octets(const wnode *n, const void *sptr, uper_out *o);
static int enc_ia5(const wnode *n, const void *sptr, uper_out *o);
static inline __attribute__((always_inline)) int enc_raw_semi(const wnode *n, const void *sptr,
                                                               uper_out *o)
{
	const OCTET_STRING_t *st = sptr;
	int units = st->size;
	if (units < 0 || units >= 16384)
		return enc_octets(n, sptr, o); /* fragments, or refused */
	if (!st->buf && units)
		return -1;
	put_length(o, (size_t)units);
	put_bytes(o, st->buf, (size_t)units);
	return 0;
}

/*
 * An inextensible string of 7-bit units 0..127 (IA5String's alphabet), of
 * SIZE(lb..ub) when nbits >= 0, else with a length (< 16384; longer ones go
 * to the general routine). need_buf: also refuse a missing buffer, as the
 * IA5String_constraint() call the plan dropped would.
 */
static inline __attribute__((always_inline)) int chars7_c(const wnode *n, const void *sptr,
                                                          uper_out *o, int need_buf, int nbits,
                                                          long lb, long ub)
{
	const OCTET_STRING_t *st = sptr;
	int units = st->size;
	const uint8_t *buf = st->buf;
	if (!buf && (units || need_buf))
		return -1;
	if (nbits >= 0) {
		if (units < lb || units > ub)
			return -1;
		uout_put_fit(o, (uint32_t)(units - lb), (unsigned)nbits);
	} else if (units >= 0 && units < 16384) {
		put_length(o, (size_t)units);
	} else {
		return need_buf ? enc_ia5(n, sptr, o) : enc_octets(n, sptr, o);
	}
	/* Four characters per put, each checked <= 127 (the top bits of w). */
	int i = 0;
	for (; i + 4 <= units; i += 4) {
		uint32_t w = be32_load(buf + i);
		if (w & 0x80808080u)
			return -1;
		uout_put_fit(o, (w >> 3 & 0xFE00000u) | (w >> 2 & 0x1FC000u) | (w >> 1 & 0x3F80u) | (w & 0x7Fu), 28);
	}
	for (; i < units; i++) {
		if (buf[i] > 127)
			return -1;
		uout_put_fit(o, buf[i], 7);
	}
	return 0;
}

/* One member: asn_check_constraints()'s leaf check, then the value (p != NULL). */
static inline __attribute__((always_inline)) int enc_field(const wfield *f, const void *p,
                                                            uper_out *o)
{
	if (f->check && f->check(f->td, p, NULL, NULL))
		return -1;
	const wnode *n = f->node;
	switch (n->wk) { /* the most frequent leaves: no call */
	case WK_INT: return enc_native_int(n, p, o);
	case WK_RAW: return enc_raw(n, p, o);
	case WK_RAW_SEMI: return enc_raw_semi(n, p, o);
	case WK_CHARS7: return chars7_c(n, p, o, n->enc == enc_ia5, n->nbits, n->lb, n->ub);
	default: return n->enc(n, p, o);
	}
}

/* asn1c uper_open_type_put through a buffer of its own: the value as a
 * complete encoding, then length + octets. For values of 128 octets or more. */
static __attribute__((noinline, cold)) int put_open_type_buffered(const wfield *f,
                                                                   const void *sptr, uper_out *o)
{
	uint8_t stack[256], *heap = NULL;
	uper_out t = { 0, 0, stack, sizeof stack, 0, o->al, 0 };
	int rc = enc_field(f, sptr, &t);
	size_t bits = uout_bits(&t);
	size_t size = uout_finish(&t);
	if (rc == 0 && size > sizeof stack) {
		/* Did not fit the stack buffer, which counted the size: again, into
		 * exactly that much of the caller's allocator. */
		heap = o->al->alloc(o->al->user_data, size);
		if (!heap) {
			t.nomem = 1;
		} else {
			t = (uper_out){ 0, 0, heap, size, 0, o->al, 0 };
			rc = enc_field(f, sptr, &t);
			uout_finish(&t);
		}
	}
	if (t.nomem) {
		o->nomem = 1;
		rc = -1;
	}
	if (rc == 0) {
		if (bits == 0) {
			/* X.691 10.1.3: an empty encoding is one zero octet. */
			uout_put_fit(o, 1 << 8, 16);
		} else {
			const uint8_t *p = t.buf;
			for (size_t go = size; go;) {
				size_t may = put_length(o, go);
				put_bytes(o, p, may);
				p += may;
				go -= may;
			}
		}
	}
	if (heap)
		o->al->free(o->al->user_data, heap);
	return rc;
}

/* ORs the 8 bits v into the stream at bit position at, which holds zeros and
 * lies in the stored bytes, the pending bits or across both. Bytes past cap
 * are only counted, so they take nothing. */
static void uout_patch8(uper_out *o, size_t at, uint32_t v)
{
	size_t flushed = o->len * 8, end = flushed + o->nacc;
	if (at >= flushed) {
		o->acc |= (uint64_t)v << (end - at - 8);
		return;
	}
	size_t byte = at >> 3;
	unsigned sh = at & 7;
	if (byte < o->cap)
		o->buf[byte] |= (uint8_t)(v >> sh);
	if (!sh)
		return;
	uint32_t low = v & ((1u << sh) - 1); /* the last sh bits, in the next byte */
	if (byte + 1 >= o->len)
		o->acc |= (uint64_t)low << (end - at - 8);
	else if (byte + 1 < o->cap)
		o->buf[byte + 1] |= (uint8_t)(low << (8 - sh));
}

/*
 * asn1c uper_open_type_put: the value as a complete encoding (padded to
 * octets), after its length in octets. Written in place after a zero
 * length octet that is patched once the size is known, instead of encoding
 * into a buffer and copying; a value that needs a longer length form is
 * rewound and goes through put_open_type_buffered().
 */
static int put_open_type(const wfield *f, const void *sptr, uper_out *o)
{
	uint64_t acc = o->acc;
	unsigned nacc = o->nacc;
	size_t len = o->len, at = uout_bits(o);
	uout_put_fit(o, 0, 8);
	if (enc_field(f, sptr, o))
		return -1;
	size_t bits = uout_bits(o) - at - 8;
	size_t size = (bits + 7) / 8;
	if (size > 127) {
		/* Rewinding is enough: what follows overwrites what was stored. */
		o->acc = acc, o->nacc = nacc, o->len = len;
		return put_open_type_buffered(f, sptr, o);
	}
	if (size == 0) /* X.691 10.1.3: an empty encoding is one zero octet. */
		uout_put_fit(o, 0, 8), size = 1;
	else if (bits & 7)
		uout_put_fit(o, 0, 8 - (unsigned)(bits & 7));
	uout_patch8(o, at, (uint32_t)size);
	return 0;
}

/* How many extension additions to encode: all of them if any is present
 * (asn1c writes the whole bitmap then), else none. */
static inline int additions_present(const wnode *n, const void *st)
{
	for (const wfield *f = n->ext, *end = f + n->next; f < end; f++)
		if (field_ptr(f, st))
			return n->next;
	return 0;
}

/* The extension additions of a SEQUENCE after its root, n_ext > 0. */
static __attribute__((noinline)) int seq_additions(const wnode *n, const void *st, uper_out *o,
                                                   int n_ext)
{
	const wfield *f, *end = n->ext + n->next;
	/* asn1c uper_put_nslength */
	if (n_ext <= 64)
		uout_put_fit(o, (uint32_t)n_ext - 1, 7);
	else if (put_length(o, (size_t)n_ext) != (size_t)n_ext)
		return -1;
	for (f = n->ext; f < end; f++)
		uout_put_fit(o, field_ptr(f, st) != NULL, 1);
	for (f = n->ext; f < end; f++) {
		const void *p = field_ptr(f, st);
		if (p && put_open_type(f, p, o))
			return -1;
	}
	return 0;
}

/* A SEQUENCE's root members in order: absent optional ones pass, absent others fail. */
static inline __attribute__((always_inline)) int enc_root_members(const wnode *n, const void *st,
                                                                  uper_out *o)
{
	for (const wfield *f = n->root, *end = f + n->nroot; f < end; f++) {
		const void *p = field_ptr(f, st);
		if (!p) {
			if (f->optional)
				continue;
			return -1;
		}
		if (enc_field(f, p, o))
			return -1;
	}
	return 0;
}

static int enc_sequence(const wnode *n, const void *st, uper_out *o)
{
	const wfield *f, *end;
	int n_ext = 0;
	if (!st)
		return -1;
	if (n->extensible) {
		n_ext = additions_present(n, st);
		uout_put_fit(o, n_ext ? 1 : 0, 1);
	}
	if (n->nopt) {
		uint32_t map = 0;
		int left = n->nopt;
		for (f = n->opt; left > 32; left--, f++)
			uout_put_fit(o, field_ptr(f, st) != NULL, 1);
		for (end = f + left; f < end; f++)
			map = map << 1 | (field_ptr(f, st) != NULL);
		uout_put_fit(o, map, (unsigned)left);
	}
	if (enc_root_members(n, st, o))
		return -1;
	/* asn_check_constraints() also looks at the additions when they are all absent. */
	return n_ext ? seq_additions(n, st, o, n_ext) : 0;
}

/* enc_seq_plain's shape with extension additions (pointers, as the node
 * builder requires): the extension bit says whether any is present. */
static int enc_seq_ext(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const wfield *f, *end;
	int n_ext = additions_present(n, st);
	uint32_t map = n_ext != 0;
	for (f = n->opt, end = f + n->nopt; f < end; f++)
		map = map << 1 | (*(const void *const *)((const char *)st + f->offset) != NULL);
	uout_put_fit(o, map, (unsigned)(n->nopt + 1));
	if (enc_root_members(n, st, o))
		return -1;
	/* asn_check_constraints() also looks at the additions when they are all absent. */
	return n_ext ? seq_additions(n, st, o, n_ext) : 0;
}

/* A SEQUENCE without extension additions whose presence bits all belong to
 * root pointer members: the extension bit (0) and the bitmap in one put,
 * then the root members. */
static int enc_seq_plain(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const wfield *f, *end;
	if (n->nopt + n->extensible) {
		uint32_t map = 0;
		for (f = n->opt, end = f + n->nopt; f < end; f++)
			map = map << 1 | (*(const void *const *)((const char *)st + f->offset) != NULL);
		uout_put_fit(o, map, (unsigned)(n->nopt + n->extensible));
	}
	return enc_root_members(n, st, o);
}

static int enc_choice(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const char *pp = (const char *)st + n->pres_offset;
	int present;
	switch (n->pres_size) {
	case sizeof(int): present = *(const int *)pp; break;
	case sizeof(short): present = *(const short *)pp; break;
	case sizeof(char): present = *(const signed char *)pp; break;
	default: present = 0; break;
	}
	if (present <= 0 || present > n->nroot)
		return -1;
	present--;
	int root = n->nbits >= 0, ext = n->extensible;
	if (root && (present < n->lb || present > n->ub)) {
		if (!ext)
			return -1;
		uout_put_fit(o, 1, 1);
		root = ext = 0;
	}
	const wfield *f = &n->root[present];
	const void *p = field_ptr(f, st);
	if (!p)
		return -1;
	if (ext)
		uout_put_fit(o, 0, 1);
	if (root) {
		uout_put(o, (uint32_t)present, (unsigned)n->nbits);
		return enc_field(f, p, o);
	}
	if (n->ext_start == -1 || put_nsnnwn(o, present - n->ext_start))
		return -1;
	return put_open_type(f, p, o);
}

/* A CHOICE with an int presence field and a root range 0..ub: a root
 * alternative is its index (after a 0 extension bit when extensible); the
 * rest is enc_choice's. */
static int enc_choice_int(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	unsigned present = (unsigned)*(const int *)((const char *)st + n->pres_offset) - 1;
	if (present > (unsigned long)n->ub)
		return enc_choice(n, st, o);
	const wfield *f = &n->root[present];
	const void *p = field_ptr(f, st);
	if (!p)
		return -1;
	uout_put_fit(o, present, (unsigned)(n->nbits + n->extensible));
	return enc_field(f, p, o);
}

/* SEQUENCE OF with a general length (no PER-visible size constraint). */
static int enc_list_semi(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const asn_anonymous_sequence_ *list = _A_CSEQUENCE_FROM_VOID(st);
	const wfield *f = n->root;
	/* Indexes, not pointers: an empty list may have no array at all. */
	void *const *array = list->array;
	size_t count = list->count > 0 ? (size_t)list->count : 0, i = 0;
	do {
		for (size_t stop = i + put_length(o, count - i); i < stop; i++) {
			const void *e = array[i];
			if (!e || enc_field(f, e, o))
				return -1;
		}
	} while (i < count);
	return 0;
}

static int enc_list(const wnode *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const asn_anonymous_sequence_ *list = _A_CSEQUENCE_FROM_VOID(st);
	const wfield *f = n->root;
	int nbits = n->nbits;
	int out = list->count < n->lb || list->count > n->ub;
	if (n->extensible) {
		uout_put_fit(o, (uint32_t)out, 1);
		if (out)
			nbits = -1;
	} else if (out && nbits >= 0) {
		return -1;
	}
	if (nbits >= 0) {
		uout_put(o, (uint32_t)(list->count - n->lb), (unsigned)nbits);
		for (int i = 0; i < list->count; i++)
			if (!list->array[i] || enc_field(f, list->array[i], o))
				return -1;
		return 0;
	}
	int seq = 0;
	do {
		size_t may = put_length(o, (size_t)(list->count - seq));
		while (may--) {
			const void *e = list->array[seq++];
			if (!e || enc_field(f, e, o))
				return -1;
		}
	} while (seq < list->count);
	return 0;
}

/* asn1c OCTET_STRING_per_put_characters without translation maps. */
static int put_chars(uper_out *o, const uint8_t *buf, size_t units, unsigned unit_bits, long lb,
                     long ub, int raw)
{
	if (raw) {
		put_bytes(o, buf, units);
		return 0;
	}
	size_t i = 0;
	if (lb == 0 && ub == (1L << unit_bits) - 1) {
		/* Every code is itself and fits; the check is only value <= ub. */
		unsigned per = 32 / unit_bits;
		for (; i + per <= units; i += per) {
			uint32_t w = 0;
			for (unsigned k = 0; k < per; k++) {
				uint32_t ch = buf[i + k];
				if ((long)ch > ub)
					return -1;
				w = w << unit_bits | ch;
			}
			uout_put_fit(o, w, per * unit_bits);
		}
	}
	for (; i < units; i++) {
		long ch = (long)buf[i] - lb;
		if (ch < 0 || ch > ub - lb)
			return -1;
		uout_put(o, (uint32_t)ch, unit_bits); /* masked, as asn1c's per_put_few_bits */
	}
	return 0;
}

static int enc_octets(const wnode *n, const void *sptr, uper_out *o)
{
	const BIT_STRING_t *st = sptr;
	if (!st || (!st->buf && st->size))
		return -1;
	int bits = n->kind == UK_BITS;
	size_t units = bits ? (size_t)st->size * 8 - (size_t)(st->bits_unused & 7) : (size_t)st->size;
	int nbits = n->nbits, raw = n->src->raw;
	unsigned unit_bits = n->unit_bits;
	long lb = n->lb, clb = n->clb, cub = n->cub;
	int inext = 0;
	if (nbits >= 0 && ((int)units < n->lb || (int)units > n->ub)) {
		if (!n->extensible)
			return -1;
		nbits = -1;
		lb = 0;
		clb = 0;
		cub = 255;
		unit_bits = bits ? 1 : 8;
		raw = !bits;
		inext = 1;
	}
	if (n->extensible)
		uout_put_fit(o, (uint32_t)inext, 1);
	const uint8_t *buf = st->buf;
	if (nbits >= 0) {
		uout_put(o, (uint32_t)(units - (size_t)lb), (unsigned)nbits);
		if (bits) {
			put_bits(o, buf, units);
			return 0;
		}
		return put_chars(o, buf, units, unit_bits, clb, cub, raw);
	}
	if (units == 0) {
		uout_put_fit(o, 0, 8);
		return 0;
	}
	while (units) {
		size_t may = put_length(o, units);
		if (bits)
			put_bits(o, buf, may);
		else if (put_chars(o, buf, may, unit_bits, clb, cub, raw))
			return -1;
		buf += bits ? may >> 3 : may;
		units -= may;
	}
	return 0;
}

/* An IA5String whose IA5String_constraint() call the plan dropped: that
 * check also refuses a value without a buffer. */
static int enc_ia5(const wnode *n, const void *sptr, uper_out *o)
{
	if (!sptr || !((const OCTET_STRING_t *)sptr)->buf)
		return -1;
	return enc_octets(n, sptr, o);
}

/* A whole number whose range does not fit its bit count: asn1c's masked puts. */
static int enc_native_int_call(const wnode *n, const void *sptr, uper_out *o)
{
	if (!sptr)
		return -1;
	long value = *(const long *)sptr;
	if (n->unsigned_int) {
		unsigned long u = (unsigned long)value;
		if (u < (unsigned long)n->lb || u > (unsigned long)n->ub)
			return -1;
	} else if (value < n->lb || value > n->ub) {
		return -1;
	}
	put_whole(o, (unsigned long)value - (unsigned long)n->lb, n->nbits);
	return 0;
}

static int cmp_enum(const void *a, const void *b)
{
	long x = ((const asn_INTEGER_enum_map_t *)a)->nat_value;
	long y = ((const asn_INTEGER_enum_map_t *)b)->nat_value;
	return x < y ? -1 : x > y;
}

static int enc_native_enum(const wnode *n, const void *sptr, uper_out *o)
{
	const asn_INTEGER_specifics_t *sp = n->enums;
	if (!sptr)
		return -1;
	long native = *(const long *)sptr;
	if (native < 0)
		return -1;
	long value;
	if (native < sp->map_count && sp->value2enum[native].nat_value == native) {
		value = native;
	} else {
		asn_INTEGER_enum_map_t key = { native, 0, NULL };
		const asn_INTEGER_enum_map_t *kf =
			bsearch(&key, sp->value2enum, (size_t)sp->map_count, sizeof key, cmp_enum);
		if (!kf)
			return -1;
		value = kf - sp->value2enum;
	}
	int inext = n->nbits >= 0 && value >= (sp->extension ? sp->extension - 1 : sp->map_count);
	int root = n->nbits >= 0;
	if (n->extensible) {
		uout_put_fit(o, (uint32_t)inext, 1);
		if (inext)
			root = 0;
	} else if (inext) {
		return -1;
	}
	if (root) {
		uout_put(o, (uint32_t)value, (unsigned)n->nbits);
		return 0;
	}
	if (!sp->extension)
		return -1;
	return put_nsnnwn(o, value - (inext ? sp->extension - 1 : 0));
}

static int enc_boolean(const wnode *n, const void *sptr, uper_out *o)
{
	(void)n;
	if (!sptr)
		return -1;
	uout_put_fit(o, *(const BOOLEAN_t *)sptr ? 1 : 0, 1);
	return 0;
}

static int enc_null(const wnode *n, const void *sptr, uper_out *o)
{
	(void)n;
	(void)sptr;
	(void)o;
	return 0;
}

/* --- compiling the plan ----------------------------------------------------- */

#define MAX_WNODES 1024
#define MAX_WFIELDS 8192
static wnode wnodes[MAX_WNODES];
static struct {
	const uper_node *u;
	int ia5;
} wkeys[MAX_WNODES];
static int nwnodes;
/* (node, ia5) -> 1 + index in wnodes; open addressing, so compiling stays linear. */
#define SLOTS 4096
static unsigned short slot[SLOTS];
static wfield wfields[MAX_WFIELDS];
static int nwfields;
static const wnode *plan_root;
static const uper_node *plan_for;
static pthread_once_t plan_once = PTHREAD_ONCE_INIT;
/* plan_root once prepare() has finished (release): lets uper_write() skip
 * pthread_once() on every message. Written once, then read-only. */
static _Atomic(const wnode *) plan_ready;

static const wnode *compile(const uper_node *u, int ia5);

static wfield *take(int n)
{
	if (n < 0 || n > MAX_WFIELDS - nwfields)
		return NULL;
	wfield *f = &wfields[nwfields];
	nwfields += n;
	return f;
}

static int copy_field(wfield *w, const uper_field *f)
{
	const uper_node *u = f->node;
	/* IA5String_constraint() refuses bytes > 127, which the character
	 * writer of an inextensible 7-bit 0..127 alphabet refuses anyway, and
	 * a missing buffer, which enc_ia5 refuses: the call can go. */
	int ia5 = f->check == IA5String_constraint && u->kind == UK_OCTETS && !u->extensible &&
	          u->unit_bits == 7 && u->clb == 0 && u->cub == 127;
	w->node = compile(u, ia5);
	if (!w->node)
		return 0;
	w->check = ia5 ? NULL : f->check;
	w->td = f->td;
	w->offset = f->offset;
	w->ptr = f->ptr;
	w->optional = f->optional;
	return 1;
}

static const wnode *compile(const uper_node *u, int ia5)
{
	unsigned h = (unsigned)(((uintptr_t)u >> 3) * 2 + (unsigned)ia5) % SLOTS;
	for (; slot[h]; h = (h + 1) % SLOTS)
		if (wkeys[slot[h] - 1].u == u && wkeys[slot[h] - 1].ia5 == ia5)
			return &wnodes[slot[h] - 1];
	if (nwnodes == MAX_WNODES)
		return NULL;
	wnode *n = &wnodes[nwnodes];
	wkeys[nwnodes].u = u;
	wkeys[nwnodes++].ia5 = ia5;
	slot[h] = (unsigned short)nwnodes;
	n->src = u;
	n->kind = u->kind;
	n->extensible = u->extensible;
	n->unsigned_int = u->unsigned_int;
	n->nbits = u->nbits;
	n->lb = u->lb;
	n->ub = u->ub;
	n->unit_bits = u->unit_bits;
	n->clb = u->clb;
	n->cub = u->cub;
	n->enums = u->enums;
	n->ext_start = u->ext_start;
	n->pres_offset = u->pres_offset;
	n->pres_size = u->pres_size;
	switch ((enum uper_kind)u->kind) {
	case UK_SEQUENCE: {
		int nroot = 0, nopt = 0, next = 0;
		for (int i = 0; i < u->nfields; i++) {
			nroot += u->fields[i].in_root;
			nopt += u->fields[i].optional;
			next += u->fields[i].ext;
		}
		wfield *root = take(nroot), *opt = take(nopt), *ext = take(next);
		if (!root || !opt || !ext)
			return NULL;
		n->root = root, n->opt = opt, n->ext = ext;
		n->nroot = nroot, n->nopt = nopt, n->next = next;
		n->enc = enc_sequence;
		int plain = nopt + u->extensible <= 32;
		for (int i = 0; i < u->nfields; i++) {
			const uper_field *f = &u->fields[i];
			if (f->in_root && !copy_field(root++, f))
				return NULL;
			if (f->optional && !copy_field(opt++, f))
				return NULL;
			if (f->ext && !copy_field(ext++, f))
				return NULL;
			if ((f->optional && !(f->in_root && f->ptr)) || (f->ext && !f->ptr))
				plain = 0;
		}
		if (plain)
			n->enc = next ? enc_seq_ext : enc_seq_plain;
		break;
	}
	case UK_CHOICE:
	case UK_LIST: {
		wfield *f = take(u->nfields);
		if (!f)
			return NULL;
		n->root = f;
		n->nroot = u->nfields;
		n->enc = u->kind == UK_CHOICE ? enc_choice
		         : !u->extensible && u->nbits < 0 ? enc_list_semi
		                                          : enc_list;
		/* The index goes out unmasked there: it must fit. */
		if (u->kind == UK_CHOICE && u->pres_size == sizeof(int) && u->nbits >= 0 && u->nbits <= 31 &&
		    u->lb == 0 && u->ub >= 0 && u->ub < u->nfields && !((unsigned long)u->ub >> u->nbits))
			n->enc = enc_choice_int;
		for (int i = 0; i < u->nfields; i++)
			if (!copy_field(&f[i], &u->fields[i]))
				return NULL;
		break;
	}
	case UK_OCTETS:
	case UK_BITS:
		n->enc = ia5 ? enc_ia5 : enc_octets;
		if (u->kind == UK_OCTETS && u->raw && !u->extensible && u->nbits >= 0 && u->nbits <= 31 &&
		    u->lb >= 0 && u->ub <= INT_MAX && !(((unsigned long)u->ub - (unsigned long)u->lb) >> u->nbits))
			n->wk = WK_RAW;
		if (u->kind == UK_OCTETS && u->raw && !u->extensible && u->nbits < 0 && !ia5)
			n->wk = WK_RAW_SEMI;
		if (u->kind == UK_OCTETS && !u->extensible && u->unit_bits == 7 && u->clb == 0 &&
		    u->cub == 127 && u->nbits <= 31 && (u->nbits < 0 || (u->lb >= 0 && u->ub <= INT_MAX &&
		    !(((unsigned long)u->ub - (unsigned long)u->lb) >> u->nbits))))
			n->wk = WK_CHARS7;
		break;
	case UK_NATIVE_INT:
		n->enc = enc_native_int_call;
		/* int_c puts v - lb unmasked: only when the range fits the bits. */
		if (u->nbits > 32 || !(((unsigned long)u->ub - (unsigned long)u->lb) >> u->nbits))
			n->wk = WK_INT;
		break;
	case UK_NATIVE_ENUM: n->enc = enc_native_enum; break;
	case UK_BOOLEAN: n->enc = enc_boolean; break;
	case UK_NULL: n->enc = enc_null; break;
	default: return NULL;
	}
	return n;
}

/* --- generated writers --------------------------------------------------------
 * tools/gen/uper_write_gen.c compiles this file, builds the same plan and
 * writes one C function per SEQUENCE, CHOICE and SEQUENCE OF of the common
 * shapes, with offsets, bounds and presence bits as constants. They replace
 * the plan's routines only when every node's signature matches what the
 * generator saw, so a stale output can cost speed, never change a result. */

#if defined(MEGACO_UPER_WRITE_GEN) || defined(UPER_WRITE_GENERATOR)
static int enc_id(wenc_f *f)
{
	static wenc_f *const known[] = {
		enc_sequence, enc_seq_plain, enc_seq_ext, enc_choice, enc_choice_int, enc_list, enc_list_semi,
		enc_octets, enc_ia5, enc_native_int_call, enc_native_enum, enc_boolean, enc_null,
	};
	for (int i = 0; i < (int)(sizeof known / sizeof known[0]); i++)
		if (known[i] == f)
			return i;
	return -1;
}

/* A word at a time (multiply and fold): cheap enough to run on every start. */
static uint64_t sig_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * UINT64_C(0x9e3779b97f4a7c15);
	return h ^ (h >> 29);
}

static uint64_t fields_sig(uint64_t h, const wfield *f, int n)
{
	for (int i = 0; i < n; i++, f++) {
		h = sig_mix(h, (uint64_t)(f->node - wnodes));
		h = sig_mix(h, f->check != NULL);
		h = sig_mix(h, f->offset);
		h = sig_mix(h, (uint64_t)f->ptr << 8 | f->optional);
	}
	return h;
}

/* A hash of everything a generated writer bakes in for n (before install). */
static uint64_t wnode_sig(const wnode *n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	h = sig_mix(h, (uint64_t)(int64_t)enc_id(n->enc));
	h = sig_mix(h, (uint64_t)n->wk << 24 | (uint64_t)n->kind << 16 | (uint64_t)n->extensible << 8 |
	                   n->unsigned_int);
	h = sig_mix(h, (uint64_t)(int64_t)n->nbits);
	h = sig_mix(h, (uint64_t)n->lb);
	h = sig_mix(h, (uint64_t)n->ub);
	h = sig_mix(h, (uint64_t)n->nroot << 32 | (uint64_t)n->nopt << 16 | (uint64_t)n->next);
	h = sig_mix(h, (uint64_t)(int64_t)n->ext_start);
	h = sig_mix(h, (uint64_t)n->pres_offset << 32 | n->pres_size);
	h = sig_mix(h, n->unit_bits);
	h = sig_mix(h, (uint64_t)n->clb);
	h = sig_mix(h, (uint64_t)n->cub);
	h = fields_sig(h, n->root, n->nroot);
	h = fields_sig(h, n->opt, n->nopt);
	return fields_sig(h, n->ext, n->next);
}
#endif

#if defined(MEGACO_UPER_WRITE_GEN) && !defined(UPER_WRITE_GENERATOR)
#include "uper_write_gen.inc"

static void install_generated(void)
{
	if (nwnodes != UPER_WGEN_NNODES)
		return;
	for (int i = 0; i < nwnodes; i++)
		if (wnode_sig(&wnodes[i]) != uper_wgen_sig[i])
			return;
	for (int i = 0; i < nwnodes; i++)
		if (uper_wgen_enc[i])
			wnodes[i].enc = uper_wgen_enc[i];
}
#endif

static void prepare(void)
{
	plan_for = uper_root();
	if (plan_for)
		plan_root = compile(plan_for, 0);
#if defined(MEGACO_UPER_WRITE_GEN) && !defined(UPER_WRITE_GENERATOR)
	if (plan_root)
		install_generated();
#endif
	atomic_store_explicit(&plan_ready, plan_root, memory_order_release);
}

/* The node builder needs no per-kind entry from the writer any more: it works from its plan. */
uper_enc_f *uper_encoder_for(enum uper_kind kind)
{
	(void)kind;
	return NULL;
}

int uper_write(const uper_node *root, const void *sptr, const megaco_allocator *al,
               unsigned char *buf, size_t cap, size_t *out_len)
{
	const wnode *plan = atomic_load_explicit(&plan_ready, memory_order_acquire);
	if (!plan) {
		pthread_once(&plan_once, prepare);
		plan = plan_root;
	}
	if (!plan || root != plan_for || !sptr)
		return -1;
	uper_out o = { 0, 0, buf, cap, 0, al ? al : &megaco_default_allocator, 0 };
	if (plan->enc(plan, sptr, &o))
		return o.nomem ? UPER_WRITE_NOMEM : -1;
	*out_len = uout_finish(&o);
	return 0;
}
