/*
 * UPER writer: model -> X.691 UNALIGNED bytes, driven by the asn1c
 * descriptors and per_constraints, emitting exactly what asn1c's
 * uper_encode() does (asn1c is the reference; corpus/per agrees with it)
 * through a word-buffered bit writer instead of asn1c's per-call flushes,
 * temporary INTEGER_t conversions and malloc'd open-type buffers.
 */
#include <stdlib.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "NativeEnumerated.h"
#include "asn_SEQUENCE_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "uper_bits.h"

static int grow(uper_out *o, size_t need)
{
	size_t cap = o->cap ? o->cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	uint8_t *n = realloc(o->buf, cap);
	if (!n) {
		o->nomem = 1;
		return -1;
	}
	o->buf = n;
	o->cap = cap;
	return 0;
}

void uout_spill(uper_out *o, uint32_t word)
{
	if (o->grow && o->len + 4 > o->cap && grow(o, o->len + 4) == 0) {
		word = __builtin_bswap32(word);
		memcpy(o->buf + o->len, &word, 4);
		o->len += 4;
		return;
	}
	for (int i = 3; i >= 0; i--, o->len++)
		if (o->len < o->cap)
			o->buf[o->len] = (uint8_t)(word >> (8 * i));
}

/* Pads the last partial byte with zeros; returns the byte count. */
static size_t uout_finish(uper_out *o)
{
	while (o->nacc >= 8) {
		o->nacc -= 8;
		uint8_t b = (uint8_t)(o->acc >> o->nacc);
		if (o->grow && o->len >= o->cap)
			grow(o, o->len + 1);
		if (o->len < o->cap)
			o->buf[o->len] = b;
		o->len++;
	}
	if (o->nacc) {
		uint8_t b = (uint8_t)(o->acc << (8 - o->nacc));
		if (o->grow && o->len >= o->cap)
			grow(o, o->len + 1);
		if (o->len < o->cap)
			o->buf[o->len] = b;
		o->len++;
		o->nacc = 0;
	}
	return o->len;
}

/* asn1c per_put_many_bits: nbits from src, MSB first. */
static void put_bits(uper_out *o, const uint8_t *src, size_t nbits)
{
	while (nbits >= 32) {
		uint32_t w;
		memcpy(&w, src, 4);
		uout_put(o, __builtin_bswap32(w), 32);
		src += 4;
		nbits -= 32;
	}
	while (nbits >= 8) {
		uout_put(o, *src++, 8);
		nbits -= 8;
	}
	if (nbits)
		uout_put(o, (uint32_t)(*src >> (8 - nbits)), (unsigned)nbits);
}

/* asn1c uper_put_length: returns how many units may follow, -1 never here. */
static size_t put_length(uper_out *o, size_t length)
{
	if (length <= 127) {
		uout_put(o, (uint32_t)length, 8);
		return length;
	}
	if (length < 16384) {
		uout_put(o, (uint32_t)length | 0x8000, 16);
		return length;
	}
	length >>= 14;
	if (length > 4)
		length = 4;
	uout_put(o, 0xC0 | (uint32_t)length, 8);
	return length << 14;
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

static inline int enc_native_int(const uper_node *n, const void *sptr, uper_out *o);

static inline int enc(const uper_node *n, const void *sptr, uper_out *o)
{
	if (n->kind == UK_NATIVE_INT) /* the most frequent leaf: no call */
		return enc_native_int(n, sptr, o);
	return n->enc(n, sptr, o);
}

/* One member: asn_check_constraints()'s leaf check, then the value. */
static inline int enc_field(const uper_field *f, const void *p, uper_out *o)
{
	if (f->check && f->check(f->td, p, NULL, NULL))
		return -1;
	return enc(f->node, p, o);
}

/* asn1c uper_open_type_put: the value as a complete encoding, then length + octets. */
static int put_open_type(const uper_field *f, const void *sptr, uper_out *o)
{
	uint8_t stack[256];
	uper_out t = { 0, 0, stack, sizeof stack, 0, 0, 0 };
	int rc = enc_field(f, sptr, &t);
	if (rc == 0 && t.len + 8 > t.cap) {
		/* Did not fit the stack buffer: again, on the heap. */
		t = (uper_out){ 0, 0, NULL, 0, 0, 1, 0 };
		rc = enc_field(f, sptr, &t);
	}
	if (rc == 0 && !t.nomem) {
		size_t bits = uout_bits(&t);
		size_t size = uout_finish(&t);
		if (t.nomem) {
			rc = -1;
		} else if (bits == 0) {
			/* X.691 10.1.3: an empty encoding is one zero octet. */
			uout_put(o, 1 << 8, 16);
		} else {
			const uint8_t *p = t.buf;
			for (size_t go = size; go;) {
				size_t may = put_length(o, go);
				put_bits(o, p, may * 8);
				p += may;
				go -= may;
			}
		}
	} else {
		rc = -1;
	}
	if (t.grow)
		free(t.buf);
	return rc;
}

static inline const void *field_ptr(const uper_field *f, const void *st)
{
	const char *p = (const char *)st + f->offset;
	return f->ptr ? *(const void *const *)p : (const void *)p;
}

static int enc_sequence(const uper_node *n, const void *st, uper_out *o)
{
	const uper_field *f, *end = n->fields + n->nfields;
	int n_ext = 0;
	if (!st)
		return -1;
	if (n->extensible) {
		int count = 0, present = 0;
		for (f = n->fields; f < end; f++) {
			if (f->ext) {
				count++;
				present += field_ptr(f, st) != NULL;
			}
		}
		n_ext = present ? count : 0;
		uout_put(o, n_ext ? 1 : 0, 1);
	}
	if (n->roms) {
		uint32_t map = 0;
		for (f = n->fields; f < end; f++)
			if (f->optional)
				map = map << 1 | (field_ptr(f, st) != NULL);
		if (n->roms <= 32) {
			uout_put(o, map, (unsigned)n->roms);
		} else {
			for (f = n->fields; f < end; f++)
				if (f->optional)
					uout_put(o, field_ptr(f, st) != NULL, 1);
		}
	}
	for (f = n->fields; f < end; f++) {
		if (!f->in_root)
			continue;
		const void *p = field_ptr(f, st);
		if (!p) {
			if (f->optional)
				continue;
			return -1;
		}
		if (enc_field(f, p, o))
			return -1;
	}
	/* asn_check_constraints() also looks at the additions when they are all absent. */
	if (!n_ext)
		return 0;
	/* asn1c uper_put_nslength */
	if (n_ext <= 64)
		uout_put(o, (uint32_t)n_ext - 1, 7);
	else if (put_length(o, (size_t)n_ext) != (size_t)n_ext)
		return -1;
	for (f = n->fields; f < end; f++)
		if (f->ext)
			uout_put(o, field_ptr(f, st) != NULL, 1);
	for (f = n->fields; f < end; f++) {
		const void *p;
		if (f->ext && (p = field_ptr(f, st)) && put_open_type(f, p, o))
			return -1;
	}
	return 0;
}

static int enc_choice(const uper_node *n, const void *st, uper_out *o)
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
	if (present <= 0 || present > n->nfields)
		return -1;
	present--;
	int root = n->nbits >= 0, ext = n->extensible;
	if (root && (present < n->lb || present > n->ub)) {
		if (!ext)
			return -1;
		uout_put(o, 1, 1);
		root = ext = 0;
	}
	if (ext)
		uout_put(o, 0, 1);
	const uper_field *f = &n->fields[present];
	const void *p = field_ptr(f, st);
	if (!p)
		return -1;
	if (root) {
		uout_put(o, (uint32_t)present, (unsigned)n->nbits);
		return enc_field(f, p, o);
	}
	if (n->ext_start == -1 || put_nsnnwn(o, present - n->ext_start))
		return -1;
	return put_open_type(f, p, o);
}

static int enc_list(const uper_node *n, const void *st, uper_out *o)
{
	if (!st)
		return -1;
	const asn_anonymous_sequence_ *list = _A_CSEQUENCE_FROM_VOID(st);
	const uper_field *f = n->fields;
	int nbits = n->nbits;
	int out = list->count < n->lb || list->count > n->ub;
	if (n->extensible) {
		uout_put(o, (uint32_t)out, 1);
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
		put_bits(o, buf, units * 8);
		return 0;
	}
	size_t i = 0;
	if (lb == 0 && ub >= (1L << unit_bits) - 1 && unit_bits <= 8) {
		/* Every code fits; asn1c's check is then only value <= ub. */
		unsigned per = 32 / unit_bits;
		for (; i + per <= units; i += per) {
			uint32_t w = 0;
			for (unsigned k = 0; k < per; k++) {
				uint32_t ch = buf[i + k];
				if ((long)ch > ub)
					return -1;
				w = w << unit_bits | ch;
			}
			uout_put(o, w, per * unit_bits);
		}
	}
	for (; i < units; i++) {
		long ch = (long)buf[i] - lb;
		if (ch < 0 || ch > ub - lb)
			return -1;
		uout_put(o, (uint32_t)ch, unit_bits);
	}
	return 0;
}

static int enc_octets(const uper_node *n, const void *sptr, uper_out *o)
{
	const BIT_STRING_t *st = sptr;
	if (!st || (!st->buf && st->size))
		return -1;
	int bits = n->kind == UK_BITS;
	size_t units = bits ? (size_t)st->size * 8 - (size_t)(st->bits_unused & 7) : (size_t)st->size;
	int nbits = n->nbits, raw = n->raw;
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
		uout_put(o, (uint32_t)inext, 1);
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
		uout_put(o, 0, 8);
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

static inline int enc_native_int(const uper_node *n, const void *sptr, uper_out *o)
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

static int enc_native_enum(const uper_node *n, const void *sptr, uper_out *o)
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
		uout_put(o, (uint32_t)inext, 1);
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

static int enc_boolean(const uper_node *n, const void *sptr, uper_out *o)
{
	(void)n;
	if (!sptr)
		return -1;
	uout_put(o, *(const BOOLEAN_t *)sptr ? 1 : 0, 1);
	return 0;
}

static int enc_null(const uper_node *n, const void *sptr, uper_out *o)
{
	(void)n;
	(void)sptr;
	(void)o;
	return 0;
}

uper_enc_f *uper_encoder_for(enum uper_kind kind)
{
	switch (kind) {
	case UK_SEQUENCE: return enc_sequence;
	case UK_CHOICE: return enc_choice;
	case UK_LIST: return enc_list;
	case UK_OCTETS:
	case UK_BITS: return enc_octets;
	case UK_NATIVE_INT: return enc_native_int;
	case UK_NATIVE_ENUM: return enc_native_enum;
	case UK_BOOLEAN: return enc_boolean;
	case UK_NULL: return enc_null;
	}
	return NULL;
}

int uper_write(const uper_node *root, const void *sptr, unsigned char *buf, size_t cap,
               size_t *out_len)
{
	uper_out o = { 0, 0, buf, cap, 0, 0, 0 };
	if (enc(root, sptr, &o))
		return -1;
	*out_len = uout_finish(&o);
	return 0;
}
