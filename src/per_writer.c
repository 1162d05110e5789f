/*
 * PER encode stage (model -> X.691 bytes), UNALIGNED or ALIGNED, driven by
 * the const schema (schema.h). UNALIGNED output is byte for byte asn1c's
 * uper_encode() (corpus/per and the asn1c engine agree with it); ALIGNED
 * follows X.691 and matches Erlang/OTP's "per" (corpus/aper).
 *
 * The walk over the schema is unrolled at build time: tools/gen/
 * per_write_emit.c writes megaco_per_write.inc, one function per
 * constructed type, with offsets, bounds and presence bits as constants,
 * which calls the writers below for the leaves, lengths and open types.
 * The encoding rules live here only; the generated code only orders the
 * calls. Each rule takes the variant as an argument `A` (1: ALIGNED); the
 * generated code passes the writer's run-time w->aligned, so one copy of
 * it serves both variants.
 *
 * A message is written by the module of its version: Message.version,
 * written before the body, is kept in the writer, and the generated code of
 * a SEQUENCE with a member that an older module has as mandatory (schema
 * opt_since, the v1 module's EventsDescriptor.requestID) writes no presence
 * bit for it in such a message and refuses its absence.
 *
 * Bits go MSB first through a 64-bit accumulator whose whole octets are
 * stored once 32 bits are pending. Past cap nothing is stored but
 * everything is counted, so a too small buffer still learns the size
 * needed in one pass. Writers return 0,
 * or -1 after recording in the writer why they stopped.
 */
#include "per_writer.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "byte_order.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)


enum { W_OK = 0, W_CONSTRAINT = SW_CONSTRAINT, W_ENCODE = SW_ENCODE, W_NOMEM = SW_NOMEM,
       W_DEEP = SW_DEEP, W_LEVELS = SW_LEVELS };

/* How a string's units go out (the generator passes these). */
enum { ST_OCTETS, ST_IA5, ST_BITS, ST_OID };

typedef struct pw {
	uint64_t acc;          /* pending bits, right-aligned */
	unsigned nacc;         /* how many (< 32 between calls) */
	uint8_t *buf;          /* bytes past cap are counted, not stored */
	size_t cap, len;       /* len: whole bytes produced so far */
	const megaco_allocator *al;
	uintptr_t stack_floor; /* recursion stops when the stack reaches down to here */
	unsigned rec, rec_max; /* recursive types around the value written, and the most */
	long version;          /* the message's (Message.version) once written; before, LONG_MAX: v3 */
	int aligned;           /* ALIGNED (1) or UNALIGNED (0): what the bit primitives consult */
	int error;             /* W_* once a writer returned -1 */
	const schema_member *fail_member;
	int fail_type;
	const char *fail_why;
} pw;

static COLD int stop(pw *w, int code, const schema_member *m, const char *why)
{
	w->error = code;
	w->fail_member = m;
	w->fail_type = -1;
	w->fail_why = why;
	return -1;
}

static COLD int stop_type(pw *w, int code, int type, const char *why)
{
	stop(w, code, NULL, why);
	w->fail_type = type;
	return -1;
}

/* ---- bit output ----------------------------------------------------------------------- */

/* The whole octets of the pending bits, one at a time near or past cap:
 * the bytes that fit, the rest counted. */
static NOINLINE void spill(pw *w)
{
	while (w->nacc >= 8) {
		w->nacc -= 8;
		if (w->len < w->cap)
			w->buf[w->len] = (uint8_t)(w->acc >> w->nacc);
		w->len++;
	}
}

/*
 * The whole octets of the 32..63 pending bits to the buffer in one 8-byte
 * store (what follows the last whole octet is scratch the next store
 * overwrites; buf[0..cap) is the caller's scratch space), leaving at most
 * 7 bits pending.
 */
static void flush(pw *w)
{
	if (LIKELY(w->len + 8 <= w->cap)) {
		be64_store(w->buf + w->len, w->acc << (64 - w->nacc));
		w->len += w->nacc >> 3;
		w->nacc &= 7;
	} else {
		spill(w);
	}
}

/* n <= 32 bits, v < 2^n: no masking, the store out of line so that the
 * many inlined copies stay small. */
static ALWAYS_INLINE void put(pw *w, uint32_t v, unsigned n)
{
	w->acc = (w->acc << n) | v;
	w->nacc += n;
	if (w->nacc >= 32)
		flush(w);
}

static inline size_t bit_pos(const pw *w) { return w->len * 8 + w->nacc; }

/* ALIGNED: zero bits up to the next octet boundary of the encoding. */
static ALWAYS_INLINE void align(pw *w, int A)
{
	if (A)
		put(w, 0, (0u - w->nacc) & 7);
}

/* Pads the last partial octet with zeros; returns the byte count. */
static size_t finish(pw *w)
{
	put(w, 0, (0u - w->nacc) & 7);
	if (w->nacc)
		flush(w);
	return w->len;
}

/* n whole octets from src. */
static ALWAYS_INLINE void put_bytes(pw *w, const uint8_t *src, size_t n)
{
	/* 8 octets per step straight to the buffer while it has room: the
	 * pending bits, then the octets' first 64 - nacc bits; their last nacc
	 * bits stay pending (acc's bits above nacc are never read). */
	for (; n >= 8 && w->len + 8 <= w->cap; src += 8, n -= 8) {
		uint64_t x = be64_load(src);
		be64_store(w->buf + w->len, ((w->acc << 1) << (63 - w->nacc)) | (x >> w->nacc));
		w->len += 8;
		w->acc = x;
	}
	for (; n >= 4; src += 4, n -= 4)
		put(w, be32_load(src), 32);
	switch (n) { /* the tail as one put; never reads past src + n */
	case 3: put(w, (uint32_t)src[0] << 16 | (uint32_t)src[1] << 8 | src[2], 24); break;
	case 2: put(w, (uint32_t)src[0] << 8 | src[1], 16); break;
	case 1: put(w, src[0], 8); break;
	default: break;
	}
}

/* nbits from src, MSB first. */
static void put_bits(pw *w, const uint8_t *src, size_t nbits)
{
	put_bytes(w, src, nbits >> 3);
	if (nbits & 7)
		put(w, (uint32_t)(src[nbits >> 3] >> (8 - (nbits & 7))), (unsigned)(nbits & 7));
}

/* An unconstrained length determinant past the one-octet form (X.691
 * 10.9.3.7-8): returns how many units may follow, as asn1c's
 * uper_put_length (fragments of 16K units up to 64K). */
static NOINLINE size_t put_length_long(pw *w, size_t n)
{
	if (n < 16384) {
		put(w, (uint32_t)n | 0x8000, 16);
		return n;
	}
	n >>= 14;
	if (n > 4)
		n = 4;
	put(w, 0xC0 | (uint32_t)n, 8);
	return n << 14;
}

/* An unconstrained length determinant (aligned in ALIGNED, 10.9.3.5). */
static ALWAYS_INLINE size_t put_length(pw *w, int A, size_t n)
{
	align(w, A);
	if (LIKELY(n <= 127)) {
		put(w, (uint32_t)n, 8);
		return n;
	}
	return put_length_long(w, n);
}

/* Octets needed for d (at least one). */
static inline unsigned octets_of(uint64_t d)
{
	return (unsigned)(64 - __builtin_clzll(d | 1) + 7) >> 3;
}

/*
 * A constrained whole number d = value - lb (X.691 10.5.7), range = ub -
 * lb + 1, nbits its bit-field width (<= 32). UNALIGNED: the bit-field.
 * ALIGNED: a bit-field up to range 255, an aligned octet at 256, two up to
 * 64K, beyond that the octet count - 1 in a bit-field then the minimum
 * octets, aligned (10.5.7.4).
 */
static ALWAYS_INLINE void put_whole(pw *w, int A, uint64_t d, int nbits, unsigned long long range)
{
	if (nbits <= 0)
		return;
	if (!A || range <= 255) {
		put(w, (uint32_t)d, (unsigned)nbits);
	} else if (range == 256) {
		align(w, A);
		put(w, (uint32_t)d, 8);
	} else if (range <= 65536) {
		align(w, A);
		put(w, (uint32_t)d, 16);
	} else {
		/* The octets less one, in the bits that hold those of range - 1 less one (3 or more). */
		unsigned n = octets_of(d);
		put(w, n - 1, 32 - (unsigned)__builtin_clz(octets_of(range - 1) - 1));
		align(w, A);
		put(w, (uint32_t)d, 8 * n);
	}
}

/* ORs the 8 bits v into the stream at bit position at, which holds zeros
 * and lies in the stored bytes, the pending bits or across both. Bytes
 * past cap are only counted, so they take nothing. */
static void patch8(pw *w, size_t at, uint32_t v)
{
	size_t flushed = w->len * 8, end = flushed + w->nacc;
	if (at >= flushed) {
		w->acc |= (uint64_t)v << (end - at - 8);
		return;
	}
	size_t byte = at >> 3;
	unsigned sh = at & 7;
	if (byte < w->cap)
		w->buf[byte] |= (uint8_t)(v >> sh);
	if (!sh)
		return;
	uint32_t low = v & ((1u << sh) - 1); /* the last sh bits, in the next byte */
	if (byte + 1 >= w->len)
		w->acc |= (uint64_t)low << (end - at - 8);
	else if (byte + 1 < w->cap)
		w->buf[byte + 1] |= (uint8_t)(low << (8 - sh));
}

/* ---- structure ---------------------------------------------------------------------------- */

static inline int too_deep(pw *w, int type)
{
	char probe;
	if (UNLIKELY((uintptr_t)&probe < w->stack_floor))
		return stop_type(w, W_DEEP, type, "nested too deeply");
	return 0;
}

/* Writes one value (a member's, at m) as a complete encoding. */
typedef int value_writer(pw *w, const char *m);

/* put_open() for contents of 128 octets or more: encoded apart (on the
 * stack, or in exactly the size it needs from the allocator), then
 * length-prefixed fragments. */
static COLD int put_open_buffered(pw *w, int A, const char *m, value_writer *f)
{
	uint8_t stack[256], *heap = NULL;
	pw t = *w;
	t.acc = 0, t.nacc = 0, t.buf = stack, t.cap = sizeof stack, t.len = 0;
	int rc = f(&t, m);
	size_t size = finish(&t);
	if (rc == 0 && size > sizeof stack) {
		heap = w->al->alloc(w->al->user_data, size);
		if (!heap) {
			rc = stop(&t, W_NOMEM, NULL, "out of memory");
		} else {
			t.buf = heap, t.cap = size, t.len = 0;
			rc = f(&t, m);
			finish(&t);
		}
	}
	if (rc == 0) {
		const uint8_t *p = t.buf;
		for (size_t go = size; go;) {
			size_t may = put_length(w, A, go);
			put_bytes(w, p, may);
			p += may;
			go -= may;
		}
	} else {
		w->error = t.error, w->fail_member = t.fail_member, w->fail_type = t.fail_type;
		w->fail_why = t.fail_why;
	}
	if (heap)
		w->al->free(w->al->user_data, heap);
	return rc;
}

/*
 * An open type (X.691 10.2: an extension addition or alternative): the
 * value as a complete encoding, padded to octets, after its length in
 * octets (aligned in ALIGNED; the contents then start on an octet, so
 * their own alignment is the stream's). Written in place after a zero
 * length octet patched once the size is known; a value that needs the
 * longer length form is rewound and encoded apart.
 */
static NOINLINE int put_open(pw *w, int A, const char *m, value_writer *f)
{
	align(w, A);
	uint64_t acc = w->acc;
	unsigned nacc = w->nacc;
	size_t len = w->len, at = bit_pos(w);
	put(w, 0, 8);
	if (f(w, m))
		return -1;
	size_t bits = bit_pos(w) - at - 8, size = (bits + 7) / 8;
	if (size > 127) {
		/* Rewinding is enough: what follows overwrites what was stored. */
		w->acc = acc, w->nacc = nacc, w->len = len;
		return put_open_buffered(w, A, m, f);
	}
	if (size == 0) /* 10.1.3: an empty encoding is one zero octet */
		put(w, 0, 8), size = 1;
	else if (bits & 7)
		put(w, 0, 8 - (unsigned)(bits & 7));
	patch8(w, at, (uint32_t)size);
	return 0;
}

/* ---- leaves ------------------------------------------------------------------------------ */

/* INTEGER in a long within lo..hi (an unsigned type keeps an unsigned long). */
static ALWAYS_INLINE int w_int(pw *w, int A, const char *m, const schema_member *sm, int uns,
                               long long lo, long long hi, int nbits)
{
	long v = *(const long *)(const void *)m;
	uint64_t d;
	if (uns) {
		unsigned long long u = (unsigned long)v;
		if (UNLIKELY(u < (unsigned long long)lo || u > (unsigned long long)hi))
			return stop(w, W_CONSTRAINT, sm, "value out of range");
		d = u - (unsigned long long)lo;
	} else {
		if (UNLIKELY((long long)v < lo || (long long)v > hi))
			return stop(w, W_CONSTRAINT, sm, "value out of range");
		d = (uint64_t)((long long)v - lo);
	}
	put_whole(w, A, d, nbits, (unsigned long long)(hi - lo) + 1);
	return 0;
}

/* The index of value v among an ENUMERATED type's values (sorted), -1 if none. */
static NOINLINE long enum_index(int first, int count, long v)
{
	int lo = 0, hi = count;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		long long x = schema_enums[first + mid].value;
		if (x == v)
			return mid;
		if (x < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * ENUMERATED: a root value as its index in nbits (after a 0 extension bit
 * when ext); an extension value as a 1 bit and its index past the root as
 * a normally small number (X.691 13.3, 10.6; the generator has checked it
 * is below 64). direct: the values are 0..count-1.
 */
static ALWAYS_INLINE int w_enum(pw *w, const char *m, const schema_member *sm, int direct,
                                int first, int count, int root, int ext, int nbits)
{
	long v = *(const long *)(const void *)m, idx;
	if (direct)
		idx = v >= 0 && v < count ? v : -1;
	else
		idx = enum_index(first, count, v);
	if (LIKELY(idx >= 0 && idx < root)) {
		put(w, (uint32_t)idx, (unsigned)(nbits + ext));
		return 0;
	}
	if (idx < 0 || !ext)
		return stop(w, W_CONSTRAINT, sm, "value not in the enumeration");
	put(w, 0x80 | (uint32_t)(idx - root), 8);
	return 0;
}

static ALWAYS_INLINE int w_bool(pw *w, const char *m)
{
	put(w, *(const BOOLEAN_t *)(const void *)m ? 1 : 0, 1);
	return 0;
}

/* Characters of 7 bits, 0..127 each (IA5String in UNALIGNED). */
static ALWAYS_INLINE int put_chars7(pw *w, const schema_member *sm, const uint8_t *buf, size_t n)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4) { /* four per put, each checked <= 127 */
		uint32_t x = be32_load(buf + i);
		if (UNLIKELY(x & 0x80808080u))
			return stop(w, W_CONSTRAINT, sm, "character outside the alphabet");
		put(w, (x >> 3 & 0xFE00000u) | (x >> 2 & 0x1FC000u) | (x >> 1 & 0x3F80u) | (x & 0x7Fu), 28);
	}
	for (; i < n; i++) {
		if (UNLIKELY(buf[i] > 127))
			return stop(w, W_CONSTRAINT, sm, "character outside the alphabet");
		put(w, buf[i], 7);
	}
	return 0;
}

/*
 * n units of a string: bits, or octets as they are, but IA5String's
 * characters (0..127, the module's only alphabet: per_write_emit.c refuses
 * another), which take 7 bits in UNALIGNED (asn1c: the alphabet's bits,
 * as ub <= 2^b) and 8 in ALIGNED (X.691 27.5.2-4).
 */
static ALWAYS_INLINE int put_units(pw *w, int A, const schema_member *sm, int st,
                                   const uint8_t *buf, size_t n)
{
	if (st == ST_BITS) {
		put_bits(w, buf, n);
		return 0;
	}
	if (st == ST_IA5 && !A)
		return put_chars7(w, sm, buf, n);
	if (st == ST_IA5 && !schema_ascii(buf, n))
		return stop(w, W_CONSTRAINT, sm, "character outside the alphabet");
	put_bytes(w, buf, n);
	return 0;
}

/* Units in length-prefixed fragments (an unconstrained length, 10.9.3.8). */
static NOINLINE int put_fragments(pw *w, int A, const schema_member *sm, int st,
                                  const uint8_t *buf, size_t units)
{
	if (units == 0) {
		put_length(w, A, 0);
		return 0;
	}
	while (units) {
		size_t may = put_length(w, A, units);
		if (put_units(w, A, sm, st, buf, may))
			return -1;
		buf += st == ST_BITS ? may >> 3 : may;
		units -= may;
	}
	return 0;
}

/*
 * OCTET STRING, IA5String, BIT STRING, OBJECT IDENTIFIER (X.691 15, 16,
 * 27): the checks asn_check_constraints() makes, the size (within
 * SIZE(lo..hi) as a constrained whole number when nbits >= 0, else a
 * length determinant; no SIZE of the module is extensible), then the
 * units. Every argument but w, A, m and sm is a constant in the generated
 * callers, so each inlines to the shape it has. In ALIGNED, named bit
 * lists lose their trailing 0 bits (16.2) and the units start on an octet
 * unless a fixed size takes at most 16 bits (16.9, 27.5.6); UNALIGNED
 * keeps asn1c's bits as they are.
 */
static ALWAYS_INLINE int w_string(pw *w, int A, const char *m, const schema_member *sm, int st,
                                  int named, int nbits, long long lo, long long hi)
{
	const BIT_STRING_t *s = (const BIT_STRING_t *)(const void *)m;
	const uint8_t *buf = s->buf;
	size_t units = s->size > 0 ? (size_t)s->size : 0;
	if (UNLIKELY(!buf)) {
		if (st != ST_OCTETS)
			return stop(w, W_CONSTRAINT, sm, "value not given");
		if (units)
			return stop(w, W_ENCODE, sm, "string without contents");
	}
	if (st == ST_BITS) {
		if (UNLIKELY((s->size == 0 && s->bits_unused) || s->bits_unused < 0 || s->bits_unused > 7))
			return stop(w, W_CONSTRAINT, sm, "invalid BIT STRING padding");
		units = units * 8 - (size_t)s->bits_unused;
		if (A && named) /* trailing 0 bits go (X.691 16.2) */
			while (units && !(buf[(units - 1) >> 3] & (0x80 >> ((units - 1) & 7))))
				units--;
	}
	if (st == ST_OID && UNLIKELY(units < 1))
		return stop(w, W_CONSTRAINT, sm, "empty OBJECT IDENTIFIER");
	if (nbits >= 0 && UNLIKELY((long long)units < lo || (long long)units > hi))
		return stop(w, W_CONSTRAINT, sm, "size out of range");
	if (nbits < 0) {
		if (LIKELY(units <= 127)) {
			put_length(w, A, units);
			return put_units(w, A, sm, st, buf, units);
		}
		return put_fragments(w, A, sm, st, buf, units);
	}
	put_whole(w, A, units - (uint64_t)lo, nbits, (unsigned long long)(hi - lo) + 1);
	if (!(lo == hi && hi * (st == ST_BITS ? 1 : 8) <= 16)) /* ALIGNED's units */
		align(w, A);
	return put_units(w, A, sm, st, buf, units);
}

#include "megaco_per_write.inc"

/* ---- the depth bound ---------------------------------------------------------------------- */

/*
 * A constructed value at level *max or deeper (the root's is 0), what the
 * PER reader refuses under the same max_depth, stops the walk.
 */
static int deeper(const schema_node *n, void *max)
{
	if (schema_constructed(schema_types[n->type].kind) && n->depth >= *(unsigned *)max)
		return -1;
	return WALK_CONTINUE;
}

/*
 * The written value's nesting against max_depth, exactly, but walked only
 * when the writer's count could pass it: a path through r recursive types
 * is at most r + 1 segments of PER_SEGMENT_LEVELS levels.
 */
static COLD int levels_walk(pw *w, unsigned type, const char *v, unsigned max_depth)
{
	if (schema_walk(type, (void *)(uintptr_t)v, deeper, &max_depth) == 0)
		return 1;
	stop_type(w, W_LEVELS, (int)type, "nested deeper than max_depth");
	return 0;
}

static inline int levels_ok(pw *w, unsigned type, const char *v, unsigned max_depth)
{
	if (LIKELY((uint64_t)(w->rec_max + 1) * PER_SEGMENT_LEVELS <= max_depth))
		return 1;
	return levels_walk(w, type, v, max_depth);
}

int per_write(unsigned type, const void *ptr, int aligned, unsigned max_depth,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err)
{
	char top;
	uintptr_t here = (uintptr_t)&top;
	int A = aligned != 0;
	pw w; /* the failure fields are set by stop() before anything reads them */
	w.acc = 0, w.nacc = 0, w.buf = buf, w.cap = buf ? cap : 0, w.len = 0, w.al = al;
	w.stack_floor = here > WRITER_STACK_BUDGET ? here - WRITER_STACK_BUDGET : 0;
	w.rec = 0, w.rec_max = 0;
	w.version = LONG_MAX; /* a value written without its message: the v3 module, the schema's */
	w.aligned = A;
	if (!ptr)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no value");
	int rc = type < SCHEMA_NTYPES ? write_root(&w, type, ptr) : 1;
	if (rc > 0)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no such constructed schema type");
	if (rc < 0 || !levels_ok(&w, type, ptr, max_depth))
		return schema_write_error(err, w.error, w.fail_member, w.fail_type, w.fail_why, max_depth,
		                          (unsigned)(WRITER_STACK_BUDGET >> 10), A ? "APER" : "PER");
	size_t len = finish(&w);
	*out_len = len;
	if (len > cap)
		return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "%s needs %zu bytes, buffer has %zu",
		                 A ? "APER" : "PER", len, cap);
	return MEGACO_OK;
}
