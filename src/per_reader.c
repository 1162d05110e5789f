/*
 * PER decode stage: X.691 bytes -> the asn1c model, in the message arena,
 * in either variant: UNALIGNED (MEGACO_ENC_PER) or ALIGNED (the aligned
 * variant, Erlang's "per"). The variant is an argument (al) of every
 * building block below; the generated walk passes the reader's run-time
 * `aligned`, so one copy of it serves both variants (a copy per variant,
 * with al a constant, took twice the code for about 1 % fewer
 * instructions).
 *
 * The walk over the schema is unrolled at build time: tools/gen/per_read_emit.c
 * writes megaco_per_read.inc, one function per constructed type (under its
 * own constraint, the module's only one), which calls the blocks below with its offsets,
 * sizes and bounds as constants. The decoding rules live here only.
 *
 * UNALIGNED reproduces asn1c's uper_decode_complete() (the differential
 * oracle of the tests): the same model, the same accept/reject decision and
 * the same starved-versus-malformed verdict, quirks included (marked
 * "asn1c:"). ALIGNED follows X.691 where the two differ (marked "X.691").
 *
 * Both read a message by the module of its version: the generated code
 * keeps Message.version, which comes before the body, stops at a version
 * the schema has no module for, and reads a SEQUENCE with a member that an
 * older module has as mandatory (schema opt_since) without that member's
 * presence bit in such a message. asn1c's code is the v3 module's; the
 * tests compare with it under the message's module (tests/test_uper.c).
 */
#include "per_reader.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "NULL.h"
#include "OCTET_STRING.h"
#include "arena.h"
#include "asn_SET_OF.h"
#include "byte_order.h"
#include "megaco_schema.h"
#include "schema.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))

/* --- bits ------------------------------------------------------------------ */

typedef struct per_in {
	const uint8_t *buf; /* RD_SLACK readable bytes after the byte holding end */
	size_t pos, end;    /* bit position and end */
} per_in;

/*
 * Every per_in has RD_SLACK readable bytes after the last byte its end can
 * reach: per_read() decodes from a copy of the input with that slack (and
 * the gathered fragments of an open type get it too), so a load never needs
 * a bounds check. Bits past end are loaded but shifted out.
 */
#define RD_SLACK 8

static ALWAYS_INLINE size_t in_left(const per_in *in) { return in->end - in->pos; }

/* n <= 32 bits at pos, no bounds check against end (the caller made it). */
static ALWAYS_INLINE uint32_t rd_peek(const per_in *in, unsigned n)
{
	if (n == 0)
		return 0;
	return (uint32_t)((be64_load(in->buf + (in->pos >> 3)) << (in->pos & 7)) >> (64 - n));
}

/* n <= 32 bits, or -1 when fewer are left (asn1c per_get_few_bits). */
static ALWAYS_INLINE int64_t rd_get(per_in *in, unsigned n)
{
	if (n > in_left(in))
		return -1;
	uint32_t v = rd_peek(in, n);
	in->pos += n;
	return v;
}

/*
 * ALIGNED: on to the next octet boundary of the encoding (X.691 3.7.1;
 * ends are octet boundaries there, the clamp keeps pos <= end anyway).
 */
static ALWAYS_INLINE void align(per_in *in, int al)
{
	if (al) {
		size_t p = (in->pos + 7) & ~(size_t)7;
		in->pos = p < in->end ? p : in->end;
	}
}

/*
 * A constrained whole number, value - lb, of range r1 + 1 <= 2^32 (X.691
 * 10.5; per_read_emit.c refuses a wider one): nbits bits in UNALIGNED;
 * ALIGNED takes a bit-field up to a range of 255, one aligned octet for
 * 256, two up to 64K, and above that a length in octets (a bit-field) and
 * that many aligned octets. -1 when starved.
 */
static ALWAYS_INLINE int64_t cwn_get(per_in *in, int al, int nbits, unsigned long long r1)
{
	if (!al || r1 < 255)
		return rd_get(in, (unsigned)nbits);
	if (r1 < 65536) {
		align(in, al);
		return rd_get(in, r1 == 255 ? 8 : 16);
	}
	/* The value's octets less one, in the bits that hold those of r1 less one (10.5.7.4). */
	unsigned octets = (unsigned)(64 - __builtin_clzll(r1) + 7) / 8; /* 3 or more */
	int64_t len = rd_get(in, 32 - (unsigned)__builtin_clz(octets - 1));
	if (len < 0)
		return -1;
	align(in, al);
	return rd_get(in, 8 * ((unsigned)len + 1));
}

/*
 * A CHOICE's index among its root alternatives, after the extension bit
 * when ext: -1 when starved, -2 for an alternative after "...". The bit
 * and a bit-field index are read at once.
 */
static ALWAYS_INLINE int64_t choice_index(per_in *in, int al, int ext, int nbits,
                                          unsigned long long r1)
{
	if (!ext)
		return cwn_get(in, al, nbits, r1);
	if ((!al || r1 < 255) && nbits < 32) {
		unsigned n = (unsigned)nbits + 1;
		if (n > in_left(in))
			return rd_get(in, 1) > 0 ? -2 : -1; /* only the extension bit can be there */
		uint32_t w = rd_peek(in, n);
		if (w >> nbits) {
			in->pos += 1;
			return -2;
		}
		in->pos += n;
		return w;
	}
	int64_t b = rd_get(in, 1);
	if (b < 0)
		return -1;
	return b ? -2 : cwn_get(in, al, nbits, r1);
}

/*
 * An unconstrained length determinant (X.691 10.9.3.5-8; octet-aligned in
 * ALIGNED): -1 when starved or malformed (asn1c uper_get_length does not
 * tell them apart). *repeat: a fragment of 16K units times 1..4, another
 * length follows.
 */
static ALWAYS_INLINE long get_length(per_in *in, int al, int *repeat)
{
	*repeat = 0;
	align(in, al);
	int64_t v = rd_get(in, 8);
	if (v < 0)
		return -1;
	if (!(v & 128))
		return (long)v;
	if (!(v & 64)) {
		int64_t lo = rd_get(in, 8);
		if (lo < 0)
			return -1;
		return (long)(((v & 63) << 8) | lo);
	}
	v &= 63;
	if (v < 1 || v > 4)
		return -1;
	*repeat = 1;
	return (long)(16384 * v);
}

/*
 * A normally small non-negative whole number (X.691 10.6): a 0 bit and 6
 * bits, or a 1 bit and a semi-constrained whole number (a length octet,
 * aligned in ALIGNED, and that many octets). -1 when starved or malformed.
 * asn1c uper_get_nsnnwn reads 7 bits first, then 2 more for the length.
 */
static NOINLINE long nsnnwn_get(per_in *in, int al)
{
	int64_t b = rd_get(in, 1);
	if (b <= 0)
		return b < 0 ? -1 : (long)rd_get(in, 6);
	align(in, al);
	int64_t len = rd_get(in, 8);
	if (len < 0 || (len & 128))
		return -1;
	if (len == 0)
		return 0;
	if (len >= 3)
		return -1;
	return (long)rd_get(in, 8 * (unsigned)len);
}

/* A normally small length (X.691 10.9.3.4; asn1c uper_get_nslength). */
static long nslength_get(per_in *in, int al)
{
	int64_t b = rd_get(in, 1);
	if (b < 0)
		return -1;
	if (b == 0) {
		int64_t n = rd_get(in, 6);
		return n < 0 ? -1 : (long)n + 1;
	}
	int repeat;
	long n = get_length(in, al, &repeat);
	return n >= 0 && !repeat ? n : -1;
}

/* --- the reader and its nodes ------------------------------------------------ */

typedef struct reader {
	megaco_arena *arena;
	unsigned max_depth;
	char *cur, *lim; /* carving space for nodes, see carve() */
	long version;    /* the message's (Message.version) once read; before, LONG_MAX: v3 */
	int aligned;     /* ALIGNED (1) or UNALIGNED (0) */
} reader;

/*
 * Nodes and strings are carved from the free tail of the arena's newest
 * block, which the reader holds as [cur, lim) for the whole decode
 * (arena_tail_take()): a bump per node, no size headers (asn1c never
 * reallocates them; SEQUENCE OF arrays, which asn_set_add() does grow, get
 * one of their own, see carve_array()). Nodes are 8-aligned (the model
 * holds nothing wider than a long or a pointer) and strings take their
 * length and NUL rounded to 8. The tail is not zeroed: a node is zeroed as
 * it is carved (alloc_zero()), and what the decoder writes in full anyway
 * (strings, integers) is not zeroed at all. The rare paths that call the
 * arena itself give the tail back around the call.
 */
#define CARVE_ALIGN 8

/* A new tail of at least room bytes, size of them taken: out of line, it may take a new block. */
static NOINLINE void *carve_refill(reader *r, size_t size, size_t room)
{
	arena_tail_return(r->arena, r->cur);
	char *p = arena_tail_take(r->arena, room, &r->lim);
	if (!p) {
		r->cur = r->lim = NULL;
		return NULL;
	}
	r->cur = p + size;
	return p;
}

/*
 * size bytes (rounded up to CARVE_ALIGN), not zeroed, with at least room
 * bytes writable from the start (room >= size). In the fast path p cannot
 * be NULL (cur < lim); saying so lets the callers' NULL checks fold away.
 */
static ALWAYS_INLINE void *carve_room(reader *r, size_t size, size_t room)
{
	size = (size + (size == 0) + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1);
	if (room < size)
		room = size;
	if (__builtin_expect((size_t)(r->lim - r->cur) < room, 0))
		return carve_refill(r, size, room);
	char *p = r->cur;
	if (!p)
		__builtin_unreachable();
	r->cur = p + size;
	return p;
}

static ALWAYS_INLINE void *carve(reader *r, size_t size) { return carve_room(r, size, size); }

static ALWAYS_INLINE void *alloc_zero(reader *r, size_t size)
{
	char *p = carve(r, size);
	if (!p)
		return NULL;
	if (__builtin_constant_p(size))
		arena_zero(p, size);
	else
		memset(p, 0, size);
	return p;
}

static void *reader_realloc(reader *r, void *ptr, size_t size)
{
	arena_tail_return(r->arena, r->cur);
	void *p = arena_realloc(r->arena, ptr, size);
	char *c = arena_tail_take(r->arena, 0, &r->lim);
	r->cur = c;
	if (!c)
		r->lim = NULL;
	return p;
}

typedef int value_f(reader *r, void **sptr, per_in *in, unsigned depth);

/* --- open types and extensions ----------------------------------------------- */

/*
 * The value in an open type's octets, sub (X.691 11.2; asn1c
 * uper_open_type_get_simple), by fn, then at most 7 zero padding bits (or
 * the single zero octet of an empty encoding); any failure inside is a
 * failure, too deep stays too deep. fn NULL: an unknown extension, skipped
 * as asn1c's uper_sot_suck does (whole 24-bit groups).
 */
static ALWAYS_INLINE int open_value(reader *r, per_in *sub, value_f *fn, void **sptr,
                                    unsigned depth)
{
	size_t start = sub->pos;
	if (fn) {
		int rc = fn(r, sptr, sub, depth);
		if (rc != PER_OK)
			return rc == PER_DEEP ? rc : PER_FAIL;
	} else {
		sub->pos += in_left(sub) / 24 * 24;
	}
	size_t padding = in_left(sub);
	if ((padding < 8 || (sub->pos == start && sub->end - start == 8)) &&
	    rd_get(sub, (unsigned)padding) == 0)
		return PER_OK;
	return PER_FAIL;
}

/* An open type in fragments (16K octets and more), the first chunk's length read: gathered. */
static NOINLINE int open_fragments(reader *r, per_in *in, int al, value_f *fn, void **sptr,
                                   unsigned depth, long chunk)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	for (int repeat = 1;;) {
		uint8_t *p = reader_realloc(r, buf, len + (size_t)chunk + RD_SLACK);
		if (!p)
			return PER_FAIL;
		buf = p;
		for (long i = 0; i < chunk; i++)
			buf[len++] = (uint8_t)rd_get(in, 8);
		if (!repeat)
			break;
		chunk = get_length(in, al, &repeat);
		if (chunk < 0 || (size_t)chunk * 8 > in_left(in))
			return PER_STARVED;
	}
	memset(buf + len, 0, RD_SLACK);
	per_in sub = { buf, 0, len * 8 };
	return open_value(r, &sub, fn, sptr, depth);
}

/* An open type: its length, then open_value() (starved while reading the octets). */
static ALWAYS_INLINE int open_type(reader *r, per_in *in, int al, value_f *fn, void **sptr,
                                   unsigned depth)
{
	int repeat;
	long chunk = get_length(in, al, &repeat);
	if (chunk < 0 || (size_t)chunk * 8 > in_left(in))
		return PER_STARVED;
	if (__builtin_expect(repeat, 0))
		return open_fragments(r, in, al, fn, sptr, depth, chunk);
	per_in sub = { in->buf, in->pos, in->pos + (size_t)chunk * 8 };
	in->pos += (size_t)chunk * 8;
	return open_value(r, &sub, fn, sptr, depth);
}

/* A SEQUENCE's extension presence bitmap, into *epmd; in moves past it. */
static int ext_bitmap(per_in *in, int al, per_in *epmd)
{
	long bmlength = nslength_get(in, al);
	if (bmlength < 0 || (size_t)bmlength > in_left(in))
		return PER_STARVED;
	*epmd = (per_in){ in->buf, in->pos, in->pos + (size_t)bmlength };
	in->pos += (size_t)bmlength;
	return PER_OK;
}

/*
 * After the known extensions, those the schema does not know. asn1c skips
 * the first one present, and only that one (what follows is then trailing
 * data); X.691 18.9 has every one present skipped (ALIGNED does that).
 */
static NOINLINE int skip_unknown_extension(reader *r, per_in *epmd, per_in *in, int al)
{
	for (;;) {
		int64_t b = rd_get(epmd, 1);
		if (b < 0)
			return PER_OK;
		if (b == 0)
			continue;
		if (open_type(r, in, al, NULL, NULL, 0) != PER_OK)
			return PER_STARVED;
		if (!al)
			return PER_OK;
	}
}

/* --- SEQUENCE OF --------------------------------------------------------------- */

/*
 * A SEQUENCE OF's first array, of n pointers, carved like the nodes instead
 * of a call to arena_alloc(). It carries the size header arena.h puts
 * before every allocation, so arena_realloc() (list_grow(), or
 * asn_set_add() on the model later) copies it correctly when it grows.
 * Not zeroed: slots at count and above are never read.
 */
static ALWAYS_INLINE void **carve_array(reader *r, size_t n)
{
	size_t bytes = n * sizeof(void *);
	char *p = carve(r, ARENA_HDR + bytes);
	if (!p)
		return NULL;
	memcpy(p, &bytes, sizeof bytes);
	return (void **)(void *)(p + ARENA_HDR);
}

/*
 * Room for more elements, remaining still to come in this run (a count or
 * a 16K fragment of one). The first array holds all of them as long as the
 * input could (each takes a bit or more, or the list is short): a count
 * alone never buys much memory. A full array at least doubles, so a list
 * in many fragments leaves less behind than its final array.
 */
static NOINLINE int list_grow(reader *r, asn_anonymous_set_ *list, long remaining, size_t left)
{
	size_t size = list->size ? (size_t)list->size << 1 : 4;
	size_t all = (size_t)list->count + (size_t)remaining;
	if ((size_t)remaining <= left + 64 && (size < all || !list->size))
		size = all;
	if (size > INT32_MAX)
		return PER_FAIL;
	void **a;
	if (!list->array) {
		if (!(a = carve_array(r, size)))
			return PER_FAIL;
	} else if (!(a = reader_realloc(r, list->array, size * sizeof(void *)))) {
		return PER_FAIL;
	}
	list->array = a;
	list->size = (int)size;
	return PER_OK;
}

/*
 * SEQUENCE OF (no list of the module has a SIZE; per_read_emit.c refuses
 * one), in two parts, so that the first, which finishes an empty list, is
 * small enough to inline into the parent: list_head() makes the structure
 * and reads the count, list_items() decodes the items by fn.
 */
static ALWAYS_INLINE int list_head(reader *r, void **sptr, per_in *in, int al, size_t struct_size,
                                   asn_anonymous_set_ **list, long *nelems, int *repeat)
{
	void *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, struct_size)))
		return PER_FAIL;
	*list = _A_SET_FROM_VOID(st);
	if ((*nelems = get_length(in, al, repeat)) < 0)
		return PER_STARVED;
	return PER_OK;
}

static ALWAYS_INLINE int list_items(reader *r, asn_anonymous_set_ *list, per_in *in, int al,
                                    value_f *fn, unsigned depth, long nelems, int repeat)
{
	for (;;) {
		for (long i = 0; i < nelems; i++) {
			void *ptr = NULL;
			int rc = fn(r, &ptr, in, depth);
			if (rc != PER_OK)
				return rc;
			if (list->count == list->size &&
			    list_grow(r, list, nelems - i, in_left(in)) != PER_OK)
				return PER_FAIL;
			list->array[list->count++] = ptr;
		}
		if (!repeat)
			return PER_OK;
		if ((nelems = get_length(in, al, &repeat)) < 0)
			return PER_STARVED;
	}
}

/* --- strings --------------------------------------------------------------- */

/*
 * String buffers get WR_SLACK writable bytes past their last unit (besides
 * the NUL), so that get_bytes() can store whole 8-byte words.
 */
#define WR_SLACK 7

/* 8-bit units from any bit offset; the caller checked they are there. */
static ALWAYS_INLINE void get_bytes(per_in *in, uint8_t *dst, size_t count)
{
	const uint8_t *src = in->buf + (in->pos >> 3);
	unsigned sh = in->pos & 7;
	in->pos += 8 * count;
	/* 8 bytes per step, from a 64-bit load and (unaligned) the byte after
	 * it: within the input's RD_SLACK, as src + count is within the input. */
	for (size_t i = 0; i < count; i += 8) {
		if (sh)
			be64_store(dst + i, be64_load(src + i) << sh | (uint64_t)(src[i + 8] >> (8 - sh)));
		else
			memcpy(dst + i, src + i, 8);
	}
}

/*
 * units characters of unit_bits: 8, any octet (or an IA5String's in
 * ALIGNED, taken as asn1c takes them), or 7, IA5String's in UNALIGNED,
 * which cannot pass its 127, eight per 64-bit load. -1 when starved.
 */
static ALWAYS_INLINE int get_chars(per_in *in, uint8_t *buf, size_t units, unsigned unit_bits)
{
	if (units * unit_bits > in_left(in))
		return -1;
	if (unit_bits == 8) {
		get_bytes(in, buf, units);
		return 0;
	}
	for (size_t i = 0; i < units;) {
		uint64_t w = be64_load(in->buf + (in->pos >> 3)) << (in->pos & 7);
		size_t k = units - i < 8 ? units - i : 8;
		for (size_t j = 0; j < k; j++, i++, w <<= 7)
			buf[i] = (uint8_t)(w >> 57);
		in->pos += k * 7;
	}
	return 0;
}

static int get_bits(per_in *in, uint8_t *dst, size_t nbits)
{
	if (nbits > in_left(in))
		return -1;
	get_bytes(in, dst, nbits >> 3);
	if (nbits & 7) {
		dst[nbits >> 3] = (uint8_t)(rd_peek(in, nbits & 7) << (8 - (nbits & 7)));
		in->pos += nbits & 7;
	}
	return 0;
}

/*
 * The rest of a string whose length came in fragments (16K units and more,
 * raw the first fragment's): rare, so out of line. Fragments grow the
 * buffer, so it comes from arena_realloc() (which gives it a size header).
 */
static NOINLINE int octets_fragments(reader *r, BIT_STRING_t *st, per_in *in, int al, int bits,
                                     unsigned unit_bits, long raw)
{
	int repeat = 1;
	for (;;) {
		size_t len_bytes = bits ? ((size_t)raw + 7) >> 3 : (size_t)raw;
		if (bits && (raw & 7))
			st->bits_unused = 8 - (int)(raw & 7);
		uint8_t *p = reader_realloc(r, st->buf, (size_t)st->size + len_bytes + 1 + WR_SLACK);
		if (!p)
			return PER_FAIL;
		st->buf = p;
		align(in, al);
		if (bits ? get_bits(in, p + st->size, (size_t)raw)
		         : get_chars(in, p + st->size, (size_t)raw, unit_bits))
			return PER_STARVED;
		st->size += (int)len_bytes;
		p[st->size] = 0;
		if (!repeat)
			return PER_OK;
		if ((raw = get_length(in, al, &repeat)) < 0)
			return PER_STARVED;
	}
}

/*
 * OCTET STRING and its kin (IA5String, OBJECT IDENTIFIER as asn1c reads
 * it), BIT STRING: SIZE nbits/lb/ub (nbits -1: no constraint, 0: fixed),
 * characters of unit_bits, all constants from the generated caller. The
 * node is zeroed (as its container or alloc_zero() made it). ALIGNED
 * (X.691 16, 30.5.7): the contents start on an octet unless the size is
 * fixed at 16 bits or less.
 */
static ALWAYS_INLINE int octets_v(reader *r, void **sptr, per_in *in, int al, int bits, int nbits,
                                  long long lb, long long ub, unsigned unit_bits,
                                  size_t struct_size)
{
	BIT_STRING_t *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, struct_size)))
		return PER_FAIL;
	int repeat = 0;
	long raw = (long)ub; /* a fixed size has no length */
	if (nbits != 0) {
		raw = nbits > 0 ? (long)cwn_get(in, al, nbits, (unsigned long long)(ub - lb))
		                : get_length(in, al, &repeat);
		if (raw < 0)
			return PER_STARVED;
		raw += (long)lb;
	}
	if (__builtin_expect(repeat, 0))
		return octets_fragments(r, st, in, al, bits, unit_bits, raw);
	if (nbits != 0 || (size_t)raw * unit_bits > 16)
		align(in, al);
	size_t len_bytes = bits ? ((size_t)raw + 7) >> 3 : (size_t)raw;
	if (bits && (raw & 7))
		st->bits_unused = 8 - (int)(raw & 7);
	uint8_t *p = carve_room(r, len_bytes + 1, len_bytes + 1 + WR_SLACK);
	if (!p)
		return PER_FAIL;
	st->buf = p;
	if (bits ? get_bits(in, p, (size_t)raw) : get_chars(in, p, (size_t)raw, unit_bits))
		return PER_STARVED;
	st->size = (int)len_bytes;
	p[len_bytes] = 0;
	return PER_OK;
}

/*
 * IA5String's characters take 7 bits in UNALIGNED and 8 in ALIGNED (X.691
 * 30.5.3): a copy for each, as a run-time unit would unpack them a bit at
 * a time. (The module has no other alphabet: per_read_emit.c refuses one.)
 */
static ALWAYS_INLINE int octets_c(reader *r, void **sptr, per_in *in, int al, int bits, int ia5,
                                  int nbits, long long lb, long long ub, size_t struct_size)
{
	if (!ia5)
		return octets_v(r, sptr, in, al, bits, nbits, lb, ub, bits ? 1 : 8, struct_size);
	return al ? octets_v(r, sptr, in, 1, 0, nbits, lb, ub, 8, struct_size)
	          : octets_v(r, sptr, in, 0, 0, nbits, lb, ub, 7, struct_size);
}

/* --- other leaves ------------------------------------------------------------- */

/* A constrained whole number from lb up (range_bits bits in UNALIGNED). */
static ALWAYS_INLINE int int_c(reader *r, void **sptr, per_in *in, int al, int range_bits,
                               long long lb, long long ub)
{
	long *native = *sptr;
	if (!native && !(native = *sptr = carve(r, sizeof *native)))
		return PER_FAIL;
	int64_t v = cwn_get(in, al, range_bits, (unsigned long long)(ub - lb));
	if (v < 0)
		return PER_STARVED;
	/* asn1c: the value is not checked against ub (a range of 0..99 reads 7 bits). */
	*native = (long)((unsigned long)v + (unsigned long)lb);
	return PER_OK;
}

/*
 * ENUMERATED: the index among the root values (a constrained whole number
 * of range r1 + 1), or after the extension bit a normally small number
 * counting on from the root. values: the type's, sorted by value, as asn1c
 * indexes them.
 */
static ALWAYS_INLINE int enum_c(reader *r, void **sptr, per_in *in, int al, int extensible,
                                int nbits, long long r1, int type_ext, unsigned root,
                                unsigned count, const schema_enum *values)
{
	long *native = *sptr;
	if (!native && !(native = *sptr = carve(r, sizeof *native)))
		return PER_FAIL;
	int in_root = nbits >= 0;
	if (extensible) {
		int64_t b = rd_get(in, 1);
		if (b < 0)
			return PER_STARVED;
		if (b)
			in_root = 0;
	}
	long value;
	if (in_root) {
		int64_t v = cwn_get(in, al, nbits, (unsigned long long)r1);
		if (v < 0)
			return PER_STARVED;
		if (v >= root)
			return PER_FAIL;
		value = (long)v;
	} else {
		if (!type_ext)
			return PER_FAIL;
		value = nsnnwn_get(in, al);
		if (value < 0)
			return PER_STARVED;
		value += (long)root;
		if (value >= (long)count)
			return PER_FAIL;
	}
	*native = (long)values[value].value;
	return PER_OK;
}

static ALWAYS_INLINE int bool_c(reader *r, void **sptr, per_in *in)
{
	BOOLEAN_t *b = *sptr;
	if (!b && !(b = *sptr = carve(r, sizeof *b)))
		return PER_FAIL;
	int64_t v = rd_get(in, 1);
	if (v < 0)
		return PER_STARVED;
	*b = (BOOLEAN_t)v;
	return PER_OK;
}

static ALWAYS_INLINE int null_c(reader *r, void **sptr)
{
	if (!*sptr && !(*sptr = alloc_zero(r, sizeof(NULL_t))))
		return PER_FAIL;
	return PER_OK;
}

/* --- the walk, generated ------------------------------------------------------ */

#include "megaco_per_read.inc"

int per_read(void **sptr, const unsigned char *buf, size_t len, int aligned,
             struct megaco_arena *arena, unsigned max_depth, size_t *consumed)
{
	reader r = { arena, max_depth, NULL, NULL, LONG_MAX, aligned };
	/* The copy with RD_SLACK bytes of slack that the loads rely on. */
	unsigned char local[4096];
	unsigned char *copy = local;
	if (len > sizeof local - RD_SLACK) {
		/* Large inputs: a heap copy, released before returning. */
		copy = len > SIZE_MAX - RD_SLACK ? NULL
		                                 : arena->al->alloc(arena->al->user_data, len + RD_SLACK);
		if (!copy) {
			arena->failed = 1;
			return PER_FAIL;
		}
	}
	memcpy(copy, buf, len);
	memset(copy + len, 0, RD_SLACK);
	per_in in = { copy, 0, len * 8 };
	r.cur = arena_tail_take(arena, 0, &r.lim);
	int rc = !r.cur ? PER_FAIL : read_root(&r, sptr, &in);
	arena_tail_return(arena, r.cur);
	if (copy != local)
		arena->al->free(arena->al->user_data, copy);
	if (rc != PER_OK)
		return rc;
	/* asn1c uper_decode_complete: a zero-bit value must be one zero octet. */
	if (in.pos == 0) {
		if (!len)
			return PER_STARVED;
		if (buf[0] != 0)
			return PER_FAIL;
		*consumed = 1;
		return PER_OK;
	}
	*consumed = (in.pos + 7) >> 3;
	return PER_OK;
}
