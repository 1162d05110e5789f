/*
 * DER encode stage (model -> BER bytes), driven by the const schema
 * (schema.h). The encoding is written back to front (last member first,
 * contents before header) so every length is known when its header goes
 * out: one pass, each byte written once (asn1c's der_encode() sizes every
 * constructed value by encoding it once more, at every level).
 *
 * The walk over the schema is unrolled at build time: tools/gen/der_emit.c
 * writes megaco_der.inc, one function per constructed type with member
 * offsets, identifier octets and constraint bounds as constants, which
 * calls the writers below for the leaves and headers. The encoding rules
 * live here only; the generated code only orders the calls.
 *
 * Output is canonical DER (X.690 clause 11): a BIT STRING with named bits
 * loses its trailing zero bits (11.2.2). The module has no DEFAULT values
 * (the generator refuses one), so 11.5 has nothing to omit.
 *
 * Every writer takes the write position p (the first byte written so far;
 * writing moves it down) and returns the new one, or NULL after recording
 * in the writer why it stopped.
 */
#include "der_writer.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "OBJECT_IDENTIFIER.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)


enum { W_OK = 0, W_SPACE = -1, W_CONSTRAINT = SW_CONSTRAINT, W_ENCODE = SW_ENCODE,
       W_NOMEM = SW_NOMEM, W_DEEP = SW_DEEP, W_LEVELS = SW_LEVELS };

/* What the leaf writers check (tools/gen/der_emit.c passes these). */
enum { CK_NONE, CK_RANGE, CK_URANGE, CK_IA5 };

typedef struct writer {
	unsigned char *lo;     /* lowest byte we may write */
	unsigned check;        /* DER_WRITE_CHECK */
	uintptr_t stack_floor; /* recursion stops when the stack reaches down to here */
	int recursive;         /* a value of a recursive type was written */
	int error;             /* W_* once a writer returned NULL */
	/* what failed, for the error message */
	const schema_member *fail_member;
	int fail_type;
	const char *fail_why;
} writer;

static COLD unsigned char *stop(writer *w, int code, const schema_member *m, const char *why)
{
	w->error = code;
	w->fail_member = m;
	w->fail_type = -1;
	w->fail_why = why;
	return NULL;
}

static COLD unsigned char *stop_type(writer *w, int code, int type, const char *why)
{
	stop(w, code, NULL, why);
	w->fail_type = type;
	return NULL;
}

static COLD unsigned char *no_space(writer *w)
{
	w->error = W_SPACE;
	return NULL;
}

/* Room for n more bytes below p? */
static inline int room(const writer *w, const unsigned char *p, size_t n)
{
	return (size_t)(p - w->lo) >= n;
}

/* ---- tag and length octets ------------------------------------------------------------ */

/*
 * Tags are one octet (numbers up to 30): the generator refuses a schema
 * with longer ones. Lengths take the long form past 127 (X.690 10.1).
 */
static NOINLINE unsigned char *put_tl_long(writer *w, unsigned char *p, uint32_t tag, size_t len,
                                           int constructed)
{
	size_t ln = 1;
	for (size_t l = len; len > 127 && l; l >>= 8)
		ln++;
	if (!room(w, p, ln + 1))
		return no_space(w);
	if (len > 127) {
		for (size_t l = len; l; l >>= 8)
			*--p = (unsigned char)l;
		*--p = (unsigned char)(0x80 | (ln - 1));
	} else {
		*--p = (unsigned char)len;
	}
	*--p = (unsigned char)((tag & 3) << 6 | (constructed ? 0x20 : 0) | tag >> 2);
	return p;
}

/* One tag and length in front of the len bytes at p. */
static inline unsigned char *put_tl(writer *w, unsigned char *p, uint32_t tag, size_t len,
                                    int constructed)
{
	if (len > 127 || !room(w, p, 2))
		return put_tl_long(w, p, tag, len, constructed);
	p -= 2;
	p[0] = (unsigned char)((tag & 3) << 6 | (constructed ? 0x20 : 0) | tag >> 2);
	p[1] = (unsigned char)len;
	return p;
}

/*
 * The tags of a value of member m whose contents are [p, end): its type's
 * own tags, the outermost replaced by an IMPLICIT tag (tag_mode -1) or
 * wrapped by an EXPLICIT one (+1). Only the innermost may be primitive
 * (constructed says whether it is).
 */
static NOINLINE unsigned char *put_tags(writer *w, unsigned char *p, const unsigned char *end,
                                        const schema_member *m, int constructed)
{
	const schema_type *t = &schema_types[m->type];
	int n = t->tag_count, first = (m->tag_mode == -1 && n) ? 1 : 0;
	for (int i = n - 1; i >= first; i--) {
		if (!(p = put_tl(w, p, schema_tags[t->tags + i], (size_t)(end - p), constructed)))
			return NULL;
		constructed = 1;
	}
	return m->tag_mode ? put_tl(w, p, m->tag, (size_t)(end - p), constructed) : p;
}

/* hdr() past the short form: the outer levels of most messages take 0x81. */
static NOINLINE unsigned char *hdr_long(writer *w, unsigned char *p, const unsigned char *end,
                                        unsigned char id, const schema_member *m, int constructed)
{
	size_t len = (size_t)(end - p);
	if (LIKELY(id && len <= 0xff && room(w, p, 3))) {
		p -= 3;
		p[0] = id;
		p[1] = 0x81;
		p[2] = (unsigned char)len;
		return p;
	}
	return put_tags(w, p, end, m, constructed);
}

/*
 * A value's header: with its one identifier octet id (0: it has none, the
 * schema's tags go out) the short form in line at the ~220 generated
 * members, the rest a call.
 */
static inline __attribute__((always_inline)) unsigned char *
hdr(writer *w, unsigned char *p, const unsigned char *end, unsigned char id,
    const schema_member *m, int constructed)
{
	size_t len = (size_t)(end - p);
	if (LIKELY(id && len <= 127 && room(w, p, 2))) {
		p -= 2;
		p[0] = id;
		p[1] = (unsigned char)len;
		return p;
	}
	return hdr_long(w, p, end, id, m, constructed);
}

static inline unsigned char *put_bytes(writer *w, unsigned char *p, const void *src, size_t n)
{
	if (!room(w, p, n))
		return no_space(w);
	p -= n;
	const unsigned char *s = src;
	if (n - 4 <= 4) { /* 4..8 octets, most names and IDs here: two overlapping moves, no call */
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n) {
		memcpy(p, s, n);
	}
	return p;
}

/* ---- structure ---------------------------------------------------------------------------- */

/*
 * Bound the recursion of recursive types by the stack it takes, as asn1c's
 * decoders do: a compare, where a depth count costs a load and store on
 * the way in and out. Only a value with a recursive type in it can nest
 * deeper than DER_PLAIN_LEVELS, so that is noted for levels_ok().
 */
static inline int too_deep(writer *w, int type)
{
	char probe;
	w->recursive = 1;
	if (UNLIKELY((uintptr_t)&probe < w->stack_floor)) {
		stop_type(w, W_DEEP, type, "nested too deeply");
		return 1;
	}
	return 0;
}

/* ---- leaves ------------------------------------------------------------------------------ */

/*
 * INTEGER/ENUMERATED in a long: minimal two's complement (X.690 8.3). An
 * unsigned type (uns) holds its value as an unsigned long: with the top bit
 * set (0..4294967295 in a 32-bit long) it takes a leading 00 octet.
 */
static NOINLINE unsigned char *w_int_any(writer *w, unsigned char *p, const char *at,
                                         const schema_member *m, unsigned char id, unsigned ck,
                                         int uns, long long lo, long long hi)
{
	long v = *(const long *)(const void *)at;
	if (w->check && ck != CK_NONE &&
	    !(ck == CK_RANGE ? (long long)v >= lo && (long long)v <= hi
	                     : (unsigned long long)(unsigned long)v >= (unsigned long long)lo &&
	                           (unsigned long long)(unsigned long)v <= (unsigned long long)hi))
		return stop(w, W_CONSTRAINT, m, "value out of range");
	unsigned char *end = p;
	unsigned long u = (unsigned long)v, mag = v < 0 ? ~u : u;
	/* Bytes for the magnitude's bits plus a sign bit. */
	unsigned n = mag ? (unsigned)(sizeof(long) * CHAR_BIT - (unsigned)__builtin_clzl(mag)) / 8 + 1 : 1;
	if (n > sizeof(long))
		n = sizeof(long);
	int zero = uns && v < 0;
	if (zero)
		n = sizeof(long);
	if (!room(w, p, n + (unsigned)zero))
		return no_space(w);
	for (unsigned i = 0; i < n; i++, u >>= 8)
		*--p = (unsigned char)u;
	if (zero)
		*--p = 0;
	return hdr(w, p, end, id, m, 0);
}

/* w_int_any() in line: a one-octet value within the constant bounds. */
static inline __attribute__((always_inline)) unsigned char *
w_int(writer *w, unsigned char *p, const char *at, const schema_member *m, unsigned char id,
      unsigned ck, int uns, long long lo, long long hi)
{
	long v = *(const long *)(const void *)at;
	long long flo = ck != CK_NONE && lo > -128 ? lo : uns ? 0 : -128;
	long long fhi = ck != CK_NONE && hi < 127 ? hi : 127;
	if (LIKELY(id && v >= flo && v <= fhi && room(w, p, 3))) {
		p -= 3;
		p[0] = id;
		p[1] = 1;
		p[2] = (unsigned char)v;
		return p;
	}
	return w_int_any(w, p, at, m, id, ck, uns, lo, hi);
}

static inline __attribute__((always_inline)) unsigned char *
w_bool(writer *w, unsigned char *p, const char *at, const schema_member *m, unsigned char id)
{
	if (UNLIKELY(!room(w, p, 1)))
		return no_space(w);
	unsigned char *end = p;
	*--p = *(const BOOLEAN_t *)(const void *)at ? 0xff : 0; /* DER: true is FF (11.1) */
	return hdr(w, p, end, id, m, 0);
}

static inline __attribute__((always_inline)) unsigned char *
w_null(writer *w, unsigned char *p, const char *at, const schema_member *m, unsigned char id)
{
	(void)at;
	return hdr(w, p, p, id, m, 0);
}

/* OCTET STRING and IA5String: SIZE within [lo, hi], and for CK_IA5 octets within 0..127. */
static NOINLINE unsigned char *w_octets_any(writer *w, unsigned char *p, const char *at,
                                            const schema_member *m, unsigned char id, unsigned ck,
                                            int ia5, long long lo, long long hi)
{
	const OCTET_STRING_t *st = (const OCTET_STRING_t *)(const void *)at;
	size_t n = (size_t)st->size;
	if (UNLIKELY(!st->buf)) {
		if (w->check && ia5)
			return stop(w, W_CONSTRAINT, m, "value not given");
		if (n)
			return stop(w, W_ENCODE, m, "string without contents");
	}
	if (w->check && ck != CK_NONE) {
		if (st->size < lo || st->size > hi)
			return stop(w, W_CONSTRAINT, m, "size out of range");
		if (ck == CK_IA5 && st->buf && !schema_ascii(st->buf, n))
			return stop(w, W_CONSTRAINT, m, "character outside the alphabet");
	}
	unsigned char *end = p;
	if (!(p = put_bytes(w, p, st->buf, n)))
		return NULL;
	return hdr(w, p, end, id, m, 0);
}

/* w_octets_any() in line: a string of up to 127 octets within its SIZE. */
static inline __attribute__((always_inline)) unsigned char *
w_octets(writer *w, unsigned char *p, const char *at, const schema_member *m, unsigned char id,
         unsigned ck, int ia5, long long lo, long long hi)
{
	const OCTET_STRING_t *st = (const OCTET_STRING_t *)(const void *)at;
	size_t n = (size_t)st->size;
	if (LIKELY(id && st->buf && n <= 127 && room(w, p, n + 2) &&
	           (ck == CK_NONE || (st->size >= lo && st->size <= hi)) &&
	           (ck != CK_IA5 || !w->check || schema_ascii(st->buf, n)))) {
		p = put_bytes(w, p, st->buf, n) - 2;
		p[0] = id;
		p[1] = (unsigned char)n;
		return p;
	}
	return w_octets_any(w, p, at, m, id, ck, ia5, lo, hi);
}

/*
 * BIT STRING: the unused-bits octet, then the bits with the unused ones
 * cleared. With named bits, DER drops the trailing zero bits (X.690
 * 11.2.2), down to no bits at all. (No BIT STRING of the module has a
 * SIZE; the generator refuses one.)
 */
static NOINLINE unsigned char *w_bits(writer *w, unsigned char *p, const char *at,
                                      const schema_member *m, unsigned char id, int named)
{
	const BIT_STRING_t *st = (const BIT_STRING_t *)(const void *)at;
	if (w->check && (!st->buf || (st->size == 0 && st->bits_unused) || st->bits_unused < 0 ||
	                 st->bits_unused > 7))
		return stop(w, W_CONSTRAINT, m, "invalid BIT STRING padding");
	if (!st->buf && st->size)
		return stop(w, W_ENCODE, m, "string without contents");
	size_t n = st->size > 0 ? (size_t)st->size : 0;
	unsigned unused = (unsigned)st->bits_unused & 7;
	unsigned char last = n ? (unsigned char)(st->buf[n - 1] & (0xff << unused)) : 0;
	if (named) {
		while (n && !last) {
			n--;
			unused = 0;
			last = n ? st->buf[n - 1] : 0;
		}
		if (n)
			unused = (unsigned)__builtin_ctz(last);
	}
	if (!room(w, p, n + 1))
		return no_space(w);
	unsigned char *end = p;
	p -= n + 1;
	p[0] = (unsigned char)unused;
	if (n) {
		memcpy(p + 1, st->buf, n);
		p[n] = last;
	}
	return hdr(w, p, end, id, m, 0);
}

/* OBJECT IDENTIFIER: its contents octets as stored. */
static NOINLINE unsigned char *w_oid(writer *w, unsigned char *p, const char *at,
                                     const schema_member *m, unsigned char id)
{
	const OBJECT_IDENTIFIER_t *st = (const OBJECT_IDENTIFIER_t *)(const void *)at;
	if (w->check && (!st->buf || st->size < 1))
		return stop(w, W_CONSTRAINT, m, st->buf ? "empty OBJECT IDENTIFIER" : "value not given");
	if (!st->buf && st->size)
		return stop(w, W_ENCODE, m, "value without contents");
	unsigned char *end = p;
	if (!(p = put_bytes(w, p, st->buf, st->size > 0 ? (size_t)st->size : 0)))
		return NULL;
	return hdr(w, p, end, id, m, 0);
}

#include "megaco_der.inc"

/* ---- the depth bound ---------------------------------------------------------------------- */

/*
 * Whether more than max constructed values are ever open in the encoding
 * [p, end), as the BER reader counts its levels (src/ber_reader.c: one per
 * constructed header, the outermost included). Reads what this writer
 * wrote: one-octet identifiers, definite lengths.
 */
static COLD int scan_deeper(const unsigned char *p, const unsigned char *end, unsigned max)
{
	const unsigned char *open[MEGACO_DEPTH_CEILING]; /* where each open value ends */
	unsigned n = 0;
	while (p < end) {
		while (n && p == open[n - 1])
			n--;
		unsigned char id = *p++;
		size_t len = *p++;
		if (len & 0x80) {
			unsigned k = len & 0x7f;
			for (len = 0; k; k--)
				len = len << 8 | *p++;
		}
		if (!(id & 0x20)) {
			p += len;
		} else if (n == max) {
			return 1;
		} else {
			open[n++] = p + len;
		}
	}
	return 0;
}

/*
 * The encoding's levels against max_depth, counted only when it could be
 * deeper: without a recursive type no value spans more than
 * DER_PLAIN_LEVELS (tools/gen/der_emit.c).
 */
static inline int levels_ok(writer *w, unsigned type, const unsigned char *p,
                            const unsigned char *end, unsigned max_depth)
{
	if (LIKELY(!w->recursive && DER_PLAIN_LEVELS <= max_depth) || !scan_deeper(p, end, max_depth))
		return 1;
	stop_type(w, W_LEVELS, (int)type, "nested deeper than max_depth");
	return 0;
}

/* ---- entry point ------------------------------------------------------------------------ */

/* Encodes into buf[0..cap) back to front; *len is the size when it returns W_OK. */
static int run(writer *w, unsigned type, const void *ptr, unsigned flags, unsigned max_depth,
               unsigned char *buf, size_t cap, size_t *len)
{
	char top;
	uintptr_t here = (uintptr_t)&top;
	*w = (writer){ .lo = buf, .check = flags & DER_WRITE_CHECK,
		           .stack_floor = here > WRITER_STACK_BUDGET ? here - WRITER_STACK_BUDGET : 0 };
	unsigned char *p = write_root(w, buf + cap, type, ptr);
	if (!p)
		return w->error;
	if (!levels_ok(w, type, p, buf + cap, max_depth))
		return W_LEVELS;
	*len = (size_t)(buf + cap - p);
	return W_OK;
}

/* Encodes into cap bytes of scratch only to learn the size. */
static int measure(writer *w, unsigned type, const void *ptr, unsigned flags,
                   unsigned max_depth, const megaco_allocator *al, size_t cap, size_t *len)
{
	unsigned char *s = al->alloc(al->user_data, cap);
	if (!s) {
		w->error = W_NOMEM;
		return W_NOMEM;
	}
	int rc = run(w, type, ptr, flags, max_depth, s, cap, len);
	al->free(al->user_data, s);
	return rc;
}

int der_write(unsigned type, const void *ptr, unsigned flags, unsigned max_depth,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err)
{
	writer w;
	size_t len = 0;
	int rc;
	if (type >= SCHEMA_NTYPES)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no such schema type");
	if (max_depth > MEGACO_DEPTH_CEILING)
		max_depth = MEGACO_DEPTH_CEILING;
	if (cap) {
		rc = run(&w, type, ptr, flags, max_depth, buf, cap, &len);
		if (rc == W_OK) {
			memmove(buf, buf + cap - len, len);
			*out_len = len;
			return MEGACO_OK;
		}
		if (rc != W_SPACE)
			return schema_write_error(err, w.error, w.fail_member, w.fail_type, w.fail_why,
			                          max_depth, (unsigned)(WRITER_STACK_BUDGET >> 10), "BER");
	}
	/* Too small: learn the exact size in scratch space grown geometrically. */
	size_t scap = cap < 2048 ? 4096 : cap * 2;
	while ((rc = measure(&w, type, ptr, flags, max_depth, al, scap, &len)) == W_SPACE) {
		if (scap > SIZE_MAX / 4)
			return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
		scap *= 2;
	}
	if (rc != W_OK)
		return schema_write_error(err, w.error, w.fail_member, w.fail_type, w.fail_why,
		                          max_depth, (unsigned)(WRITER_STACK_BUDGET >> 10), "BER");
	*out_len = len;
	return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "BER needs %zu bytes, buffer has %zu",
	                 len, cap);
}
