/*
 * BER decode stage (BER bytes -> model): one walk over the const schema
 * (schema.h) that builds asn1c's structures from the message arena. The
 * walk is unrolled at build time: tools/gen/ber_emit.c writes
 * megaco_ber.inc, one function per SEQUENCE, list and CHOICE with member
 * tags, offsets and sizes as constants, which calls the helpers here for
 * headers, leaves and every step off the in-order path. The decoding rules
 * live here only, and mirror asn1c's *_decode_ber functions (named at
 * each) so that the values accepted and the structures built are theirs;
 * where asn1c and X.690 disagree, X.690 wins (see ber_reader.h).
 *
 * The same walk checks the TLV structure (X.690 8.1) and classifies its
 * errors: every identifier and length octet is read by header() or
 * plain_len(), and any form they do not take by header_slow(), which knows
 * the class and offset of each error. A value that does not fit the schema
 * is a mismatch: the first one is recorded, and the walk goes on over the
 * rest of the structure (pass_over()), so that a structural error anywhere
 * wins over it, whatever comes first. The schema carries one tag per value
 * (ber_emit.c refuses more; an untagged CHOICE has none), so each value is
 * one TLV, or an EXPLICIT tag around its alternative's TLV.
 *
 * Every reader takes the value's node (allocated by its container), its
 * position p, the end lim of what its container leaves it, its header h
 * (already read: its identifier found the member) and the levels open
 * around it (depth, an argument rather than reader state so that it stays
 * in a register), and returns the position after the value, or NULL:
 * r->code says a structural error or NOMEM (everything stops), else the
 * value did not fit the schema and the container passes over it
 * (pass_over()).
 */
#include "ber_reader.h"
#include "internal.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "byte_order.h"
#include "megaco_schema.h"
#include "schema.h"

#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define NO_TAG UINT32_MAX /* schema_member.tag of an untagged CHOICE */

typedef const unsigned char *pos;

typedef struct reader {
	megaco_arena *arena;
	unsigned char *cur, *end; /* the arena's newest block's tail, taken for nodes and strings */
	pos buf, in_end;
	int top_definite;  /* the message's own length is definite: every value is bounded */
	unsigned max_depth;
	size_t max_size;
	megaco_error *err;
	int code;          /* a structural error or NOMEM, err filled in: the walk stops */
	pos mismatch;      /* the first value that does not fit the schema */
	unsigned mismatch_type;
	unsigned flags;    /* BER_READ_* */
} reader;

/* A value's identifier and length octets. */
typedef struct hdr {
	uint32_t tag; /* number << 2 | class, as schema_tags */
	int cons;     /* constructed */
	pos c;        /* the contents */
	pos e;        /* their end; NULL for the indefinite form */
} hdr;

/* Records a structural error (or NOMEM) whose error the caller has set; NULL. */
static COLD pos stopped(reader *r, int code)
{
	r->code = code;
	return NULL;
}

#define STOP(r, code_, at, ...) \
	stopped((r), set_error((r)->err, (code_), (size_t)((at) - (r)->buf), __VA_ARGS__))

/* Records a value at `at` of schema type `type` that does not fit; NULL. */
static COLD pos mismatch(reader *r, pos at, unsigned type)
{
	if (!r->mismatch) {
		r->mismatch = at;
		r->mismatch_type = type;
	}
	return NULL;
}

/* ---- memory ----------------------------------------------------------------------------- */

/*
 * The region: the free tail of the arena's newest block (arena.h), at
 * first what the message's handle leaves of its first block; when that is
 * short, of a new block. What the walk does not use goes back in ber_read().
 */
static NOINLINE int new_region(reader *r, size_t need)
{
	char *lim;
	arena_tail_return(r->arena, (char *)r->cur);
	unsigned char *b = (unsigned char *)arena_tail_take(r->arena, need, &lim);
	if (!b) {
		r->cur = r->end = NULL;
		STOP(r, MEGACO_ERR_NOMEM, r->buf, "out of memory");
		return -1;
	}
	r->cur = b;
	r->end = (unsigned char *)lim;
	return 0;
}

/*
 * A zeroed node (asn1c: CALLOC(1, struct_size)); 8-byte aligned is all
 * asn1c's types need. A region's start, end and cur stay 8-aligned (bytes()
 * rounds up), so that a node needs no aligning and one comparison. The
 * generated walk gives every size as a constant: the zeroing is a few
 * stores in line, only what the node needs.
 */
static ALWAYS_INLINE void *node(reader *r, size_t size)
{
	size = (size + 7) & ~(size_t)7;
	if (UNLIKELY((size_t)(r->end - r->cur) < size) && new_region(r, size) != 0)
		return NULL;
	unsigned char *c = r->cur;
	r->cur += size;
	arena_zero(c, size);
	return c;
}

/* Raw bytes for string contents (then cur rounded up to 8, see node()). */
static inline unsigned char *bytes(reader *r, size_t size)
{
	if (UNLIKELY((size_t)(r->end - r->cur) < size) && new_region(r, size) != 0)
		return NULL;
	unsigned char *b = r->cur;
	/* Every caller asks for bytes, which no empty region (cur NULL, end NULL) holds. */
	if (!b)
		__builtin_unreachable();
	r->cur += (size + 7) & ~(size_t)7;
	return b;
}

/* ---- structure (X.690 8.1) -------------------------------------------------------------- */

/*
 * Whether a value ending past lim overruns a definite length (BAD_LENGTH)
 * rather than the input (TRUNCATED). lim is the input's end only for the
 * message and values in indefinite-length ones, unless the message itself
 * is definite. (A definite value that ends exactly at the input's end
 * inside an indefinite message counts as unbounded: such a message lacks
 * its end-of-contents octets and fails as truncated in any case.)
 */
static inline int bounded(const reader *r, pos lim)
{
	return lim != r->in_end || r->top_definite;
}

/* The two end-of-contents octets of an indefinite-length value at p? */
static inline int is_eoc(pos p, pos lim)
{
	return lim - p >= 2 && p[0] == 0 && p[1] == 0;
}

/* Contents over at *p: lim reached, or when indefinite its end-of-contents octets (*p past them). */
static inline int at_end(pos *p, pos lim, int indefinite)
{
	if (!indefinite)
		return *p >= lim;
	if (!is_eoc(*p, lim))
		return 0;
	*p += 2;
	return 1;
}

/* The input ended at p inside the header at start: past a bounded container, or truncated. */
static COLD pos ended(reader *r, pos start, pos p, int bnd, const char *inside)
{
	if (bnd)
		return STOP(r, MEGACO_ERR_BAD_LENGTH, start, "value runs past the end of its container");
	return STOP(r, MEGACO_ERR_TRUNCATED, p, "input ends %s", inside);
}

/*
 * header() for every form: long tags and lengths, and every error, with
 * its class and offset. p >= lim only where an indefinite-length value
 * lacks its end-of-contents octets (or the input is empty).
 */
static NOINLINE pos header_slow(reader *r, pos p, pos lim, unsigned depth, hdr *h)
{
	int bnd = bounded(r, lim);
	pos start = p;
	if (p >= lim) {
		if (bnd)
			return STOP(r, MEGACO_ERR_BAD_LENGTH, p,
			            "indefinite-length value runs past its container");
		return STOP(r, MEGACO_ERR_TRUNCATED, p, "input ends inside an indefinite-length value");
	}
	unsigned first = *p++;
	uint32_t num = first & 0x1f;
	if (num == 0x1f) {
		/* High tag number: base-128, at most 4 octets (28 bits). */
		num = 0;
		for (int n = 0;; n++) {
			if (p >= lim)
				return ended(r, start, p, bnd, "inside a tag");
			unsigned b = *p++;
			if (n == 0 && b == 0x80)
				return STOP(r, MEGACO_ERR_BAD_TAG, p - 1, "tag number with a leading zero octet");
			num = num << 7 | (b & 0x7f);
			if (!(b & 0x80))
				break;
			if (n == 3)
				return STOP(r, MEGACO_ERR_BAD_TAG, start, "tag number too large");
		}
	}
	if (p >= lim)
		return ended(r, start, p, bnd, "where a length was expected");
	unsigned b = *p++;
	size_t len = 0;
	int indefinite = 0;
	if (b < 0x80) {
		len = b;
	} else if (b == 0x80) {
		indefinite = 1;
	} else if (b == 0xff) {
		return STOP(r, MEGACO_ERR_BAD_LENGTH, p - 1, "reserved length octet 0xFF");
	} else {
		unsigned n = b & 0x7f;
		if (n > 4)
			return STOP(r, MEGACO_ERR_BAD_LENGTH, p - 1,
			            "length in %u octets: more than any message can need", n);
		for (; n; n--) {
			if (p >= lim)
				return ended(r, start, p, bnd, "inside a length");
			len = len << 8 | *p++;
		}
	}
	if (first == 0)
		return STOP(r, MEGACO_ERR_BAD_TAG, start,
		            "end-of-contents outside an indefinite-length value");
	int cons = (first & 0x20) != 0;
	if (indefinite && !cons)
		return STOP(r, MEGACO_ERR_BAD_LENGTH, start, "indefinite length on a primitive value");
	if (!indefinite) {
		if (start == r->buf && len > r->max_size)
			return STOP(r, MEGACO_ERR_BAD_LENGTH, start,
			            "length %zu exceeds the maximum message size %zu", len, r->max_size);
		if (len > (size_t)(lim - p)) {
			if (bnd)
				return STOP(r, MEGACO_ERR_BAD_LENGTH, start,
				            "length %zu runs past the end of its container", len);
			return STOP(r, MEGACO_ERR_TRUNCATED, r->in_end,
			            "input ends %zu bytes before the value that starts at %zu",
			            len - (size_t)(lim - p), (size_t)(start - r->buf));
		}
	}
	if (cons && depth >= r->max_depth)
		return STOP(r, MEGACO_ERR_TOO_DEEP, start, "nesting deeper than %u levels", r->max_depth);
	h->tag = num << 2 | first >> 6;
	h->cons = cons;
	h->c = p;
	h->e = indefinite ? NULL : p + len;
	return p;
}

/*
 * The length octets of the value at p (lim - p >= 2), whose one identifier
 * octet (of tag, constructed when cons) the caller has matched: a definite
 * length in at most two octets after the first that fits, and for a
 * constructed value room for one more level than the depth open around it.
 * 0 for any other form, which header() then reads.
 */
static ALWAYS_INLINE int plain_len(reader *r, pos p, pos lim, unsigned depth, uint32_t tag,
                                   int cons, hdr *h)
{
	size_t room = (size_t)(lim - p), n;
	pos c;
	if (LIKELY(p[1] < 0x80)) {
		n = p[1];
		c = p + 2;
	} else if (room >= 3 && p[1] == 0x81) {
		n = p[2];
		c = p + 3;
	} else if (room >= 4 && p[1] == 0x82) {
		n = (size_t)p[2] << 8 | p[3];
		c = p + 4;
	} else {
		return 0;
	}
	if (UNLIKELY(n > (size_t)(lim - c)))
		return 0;
	if (cons && UNLIKELY(depth >= r->max_depth))
		return 0;
	h->tag = tag;
	h->cons = cons;
	h->c = c;
	h->e = c + n;
	return 1;
}

/*
 * The header of the value at p (< lim or not) with depth levels open
 * around it: one identifier octet and a definite length in at most three
 * octets that fits take this path; anything else, valid or not,
 * header_slow().
 */
static ALWAYS_INLINE pos header(reader *r, pos p, pos lim, unsigned depth, hdr *h)
{
	if (LIKELY(lim - p >= 2)) {
		unsigned b = p[0];
		if (LIKELY((b & 0x1f) != 0x1f && b != 0 &&
		           plain_len(r, p, lim, depth, (b & 0x1f) << 2 | b >> 6, b & 0x20, h)))
			return h->c;
	}
	return header_slow(r, p, lim, depth, h);
}

/*
 * Past the whole TLV at p (depth levels open around it), its structure
 * checked; NULL (r->code) at an error.
 */
static NOINLINE pos skip_tlv(reader *r, pos p, pos lim, unsigned depth)
{
	/* The frames open below the TLV at p: each one's container end and form. */
	struct {
		pos lim;
		int indefinite;
	} f[MEGACO_DEPTH_CEILING];
	unsigned n = 0;
	for (;;) {
		hdr h;
		if (!header(r, p, lim, depth + n, &h))
			return NULL;
		if (h.cons) {
			f[n].lim = lim;
			f[n].indefinite = !h.e;
			n++;
			if (h.e)
				lim = h.e;
			p = h.c;
		} else {
			p = h.e;
		}
		/* Close the frames that end here. */
		while (n) {
			if (f[n - 1].indefinite) {
				if (!is_eoc(p, lim)) {
					if (p >= lim)
						return header_slow(r, p, lim, depth + n, &h); /* the error */
					break;
				}
				p += 2;
			} else if (p != lim) {
				break;
			}
			lim = f[--n].lim;
		}
		if (!n)
			return p;
	}
}

/*
 * The rest of a constructed value's contents from p, as structure only:
 * up to lim, or to the end-of-contents octets when indefinite; depth
 * levels are open, the value's own included. Returns the value's end;
 * NULL (r->code) at an error.
 */
static NOINLINE pos pass_over(reader *r, pos p, pos lim, int indefinite, unsigned depth)
{
	while (!at_end(&p, lim, indefinite))
		if (!(p = skip_tlv(r, p, lim, depth)))
			return NULL;
	return p;
}

/* The value whose header h is read (depth levels open around it), passed over. */
static pos skip_value(reader *r, const hdr *h, pos lim, unsigned depth)
{
	if (!h->cons)
		return h->e;
	return pass_over(r, h->c, h->e ? h->e : lim, !h->e, depth + 1);
}

/* ---- values ----------------------------------------------------------------------------- */

/*
 * The generated walk (megaco_ber.inc) calls the helpers below: leaf
 * readers for each kind, lists' item arrays, and after it the general
 * path. ti is always the schema type of the value being read, for the
 * mismatch's message and the general path's tables.
 */

/* A node for the pointer *slot, which is NULL (r->code set) when it fails. */
static ALWAYS_INLINE void *put_node(reader *r, void **slot, size_t size)
{
	return *slot = node(r, size);
}

/*
 * SEQUENCE_decode_ber's member search: the member in edx..edx+optional
 * whose tag (or, for an untagged CHOICE, one of whose tags) is tag; -1 if
 * none. Past 8 candidates, or at an untagged CHOICE, asn1c looks in the
 * tag map: the last member in range with the tag.
 */
static int find_member(const schema_type *t, const schema_member *el, int edx, uint32_t tag)
{
	int count = t->count, use_map = 0, end = edx + el[edx].optional + 1;
	if (end > count) {
		end = count;
	} else if (end - edx > 8) {
		end = edx + 8;
		use_map = 1;
	}
	for (int n = edx; n < end; n++) {
		if (el[n].tag == tag)
			return n;
		if (el[n].tag == NO_TAG) {
			use_map = 1;
			break;
		}
	}
	if (!use_map)
		return -1;
	int best = -1, last = edx + el[edx].optional;
	const schema_tag2member *map = &schema_tag2members[t->tag_map];
	for (unsigned i = 0; i < t->tag_map_count; i++)
		if (map[i].tag == tag && map[i].member >= edx && map[i].member <= last)
			best = map[i].member;
	return best;
}

/*
 * A list's items go straight into an array in the region, made as the list
 * starts for LIST_FIRST and doubled (copied) when full; behind the size
 * header arena.h puts before every allocation, so that arena_realloc()
 * (asn_set_add() on the model later) can grow it.
 */
#define LIST_FIRST 4

typedef struct list_items {
	void **items;
	size_t n, cap;
} list_items;

static ALWAYS_INLINE void list_start(reader *r, list_items *li)
{
	size_t size = LIST_FIRST * sizeof *li->items;
	li->n = 0;
	li->cap = 0; /* no room: the first item's list_grow() makes it */
	li->items = NULL;
	if (LIKELY((size_t)(r->end - r->cur) >= ARENA_HDR + size)) {
		memcpy(r->cur, &size, sizeof size);
		li->items = (void **)(void *)(r->cur + ARENA_HDR);
		li->cap = LIST_FIRST;
		r->cur += ARENA_HDR + size;
	}
}

/* The array of n items moved to one of cap; NULL (r->code) when that fails. */
static NOINLINE void **list_grow(reader *r, void **items, size_t n, size_t cap)
{
	size_t size = cap * sizeof *items;
	unsigned char *b;
	if (cap > INT_MAX) {
		STOP(r, MEGACO_ERR_NOMEM, r->buf, "out of memory");
		return NULL;
	}
	if (!(b = bytes(r, ARENA_HDR + size)))
		return NULL;
	memcpy(b, &size, sizeof size);
	if (n)
		memcpy(b + ARENA_HDR, items, n * sizeof *items);
	return (void **)(void *)(b + ARENA_HDR);
}

static ALWAYS_INLINE int list_add(reader *r, list_items *li, void *item)
{
	if (UNLIKELY(li->n == li->cap)) {
		size_t cap = li->cap ? 2 * li->cap : LIST_FIRST;
		if (!(li->items = list_grow(r, li->items, li->n, cap)))
			return 0;
		li->cap = cap;
	}
	li->items[li->n++] = item;
	return 1;
}

/* The items collected into the list st (none: left empty); p is where the list ended. */
static ALWAYS_INLINE pos list_end(void *st, const list_items *li, pos p)
{
	if (li->n) {
		asn_anonymous_set_ *list = _A_SET_FROM_VOID(st);
		list->array = li->items;
		list->count = (int)li->n;
		list->size = (int)li->cap;
	}
	return p;
}

/* asn_INTEGER2long / asn_INTEGER2ulong on n content octets. */
static int to_long(pos b, size_t n, int is_unsigned, long *out)
{
	pos end = b + n;
	if (is_unsigned) {
		for (; n > sizeof(unsigned long); b++, n--)
			if (*b)
				return -1;
		unsigned long l = 0;
		for (; b < end; b++)
			l = (l << 8) | *b;
		*out = (long)l;
		return 0;
	}
	if (n > sizeof(long)) {
		/* Octets that only repeat the sign may go. */
		for (; b < end - 1; b++)
			if (!((*b == 0x00 && !(b[1] & 0x80)) || (*b == 0xff && (b[1] & 0x80))))
				break;
		if ((size_t)(end - b) > sizeof(long))
			return -1;
	}
	if (b == end) {
		*out = 0;
		return 0;
	}
	unsigned long l = (*b >> 7) ? ~0ul : 0;
	for (; b < end; b++)
		l = (l << 8) | *b;
	*out = (long)l;
	return 0;
}

/* r_int() off its one load: none or more than sizeof(long) octets, or the message's last 8. */
static NOINLINE pos r_int_other(reader *r, long *v, pos p, pos c, pos e, int uns, unsigned ti)
{
	if (to_long(c, (size_t)(e - c), uns, v) != 0)
		return mismatch(r, p, ti);
	return e;
}

/*
 * NativeInteger_decode_ber (NativeEnumerated too): a primitive value. Its
 * 1..sizeof(long) octets with 8 of the message from them on are read as
 * one load, shifted down.
 */
static ALWAYS_INLINE pos r_int(reader *r, long *v, pos p, const hdr *h, int uns, unsigned ti)
{
	if (UNLIKELY(h->cons))
		return mismatch(r, p, ti);
	size_t n = (size_t)(h->e - h->c);
	if (UNLIKELY(n - 1 >= sizeof(long) || r->in_end - h->c < 8))
		return r_int_other(r, v, p, h->c, h->e, uns, ti);
	uint64_t x = be64_load(h->c);
	unsigned sh = 8 * (8 - (unsigned)n);
	*v = uns ? (long)(x >> sh) : (long)((int64_t)x >> sh);
	return h->e;
}

/* BOOLEAN_decode_ber (NULL too): the first non-zero content octet, or 0. */
static ALWAYS_INLINE pos r_bool(reader *r, BOOLEAN_t *v, pos p, const hdr *h, unsigned ti)
{
	if (h->cons)
		return mismatch(r, p, ti);
	*v = 0;
	for (pos b = h->c; b < h->e && !*v; b++)
		*v = *b;
	return h->e;
}

/*
 * A primitive value's contents, NUL-terminated, into the string st. One
 * shorter than 16 octets with 16 of the message from c on is copied as 16
 * (its room rounded up to that): one load and store whatever its length.
 */
static ALWAYS_INLINE pos fill(reader *r, OCTET_STRING_t *st, pos c, size_t n)
{
	unsigned char *b;
	if (LIKELY(n < 16 && r->in_end - c >= 16)) {
		if (!(b = bytes(r, 16)))
			return NULL;
		memcpy(b, c, 16);
	} else {
		if (!(b = bytes(r, n + 1)))
			return NULL;
		memcpy(b, c, n);
	}
	b[n] = 0;
	st->buf = b;
	st->size = (int)n;
	return c + n;
}

/* ber_decode_primitive: OBJECT IDENTIFIER's contents as they are. */
static NOINLINE pos r_oid(reader *r, OCTET_STRING_t *st, pos p, const hdr *h, unsigned ti)
{
	if (h->cons || h->e - h->c > INT_MAX)
		return mismatch(r, p, ti);
	return fill(r, st, h->c, (size_t)(h->e - h->c));
}

/* A constructed string's segments, collected in one pass. */
typedef struct segs {
	unsigned char *out; /* NULL until a segment has contents (asn1c allocates then) */
	pos bound;          /* every content octet lies before it */
	size_t size;
	int bits_unused;
} segs;

/*
 * The segments in a constructed string's contents (OCTET_STRING_decode_ber's
 * stack of expectations, as a recursion): each carries, in either form, the
 * type's own (universal) tag at the first level, deeper the one asn1c
 * wants there (IA5String's segments in segments are OCTET STRINGs). In a
 * BIT STRING each primitive segment's first octet is its unused-bit count;
 * the last one read stays.
 */
static pos read_segments(reader *r, unsigned ti, int bit, pos p, pos lim, int indefinite,
                         unsigned depth, uint32_t tag, uint32_t inner, segs *sg)
{
	while (!at_end(&p, lim, indefinite)) {
		hdr h;
		pos at = p;
		if (!header(r, p, lim, depth, &h))
			return NULL;
		if (h.tag != tag)
			return mismatch(r, at, ti);
		if (h.cons) {
			if (!(p = read_segments(r, ti, bit, h.c, h.e ? h.e : lim, !h.e, depth + 1, inner, inner,
			                        sg)))
				return NULL;
			continue;
		}
		p = h.e;
		size_t n = (size_t)(h.e - h.c);
		if (!n)
			continue;
		pos from = h.c;
		if (bit) {
			sg->bits_unused = *from++;
			n--;
		}
		if (!sg->out) {
			/* Room for all that can follow; what is not used is given back. */
			if (!(sg->out = bytes(r, (size_t)(sg->bound - from) + 1)))
				return NULL;
		}
		memcpy(sg->out + sg->size, from, n);
		sg->size += n;
	}
	return p;
}

/* By type, the tag of a string's segments below the first level where not its own (megaco_ber.inc). */
static const uint32_t inner_tags[SCHEMA_NTYPES];

/*
 * OCTET_STRING_decode_ber for BIT STRING and the constructed form (depth
 * levels open around it): the segments' contents in one buffer; a BIT
 * STRING's initial octet checked.
 */
static NOINLINE pos r_string_other(reader *r, OCTET_STRING_t *st, pos p, pos lim, const hdr *h,
                                   unsigned depth, unsigned ti)
{
	const schema_type *t = &schema_types[ti];
	int bit = t->kind == SK_BITS, bits_unused = 0;
	pos e;
	if (!h->cons) {
		pos c = h->c;
		if (bit && c < h->e)
			bits_unused = *c++;
		if (h->e - c > INT_MAX)
			return mismatch(r, p, ti);
		if (!(e = fill(r, st, c, (size_t)(h->e - c))))
			return NULL;
	} else {
		/* Segment tags: the type's own at the first level, asn1c's last tag deeper. */
		uint32_t tag = schema_tags[t->tags], inner = inner_tags[ti] ? inner_tags[ti] : tag;
		segs sg = { .bound = h->e ? h->e : lim };
		if (!(e = read_segments(r, ti, bit, h->c, sg.bound, !h->e, depth + 1, tag, inner, &sg)))
			return NULL;
		if (sg.out) {
			if (sg.size > INT_MAX)
				return mismatch(r, p, ti);
			sg.out[sg.size] = 0;
			st->buf = sg.out;
			st->size = (int)sg.size;
			/* The room not used goes back to the region (nothing came after it). */
			r->cur = sg.out + ((sg.size + 1 + 7) & ~(size_t)7);
		}
		bits_unused = sg.bits_unused;
	}
	if (bit) {
		/*
		 * X.690 8.6.2.2: the initial octet counts 0..7 unused bits, and 0
		 * when there are no bits. asn1c takes any value; we refuse what
		 * cannot be re-encoded.
		 */
		if (bits_unused < 0 || bits_unused > 7 || (!st->size && bits_unused))
			return mismatch(r, p, ti);
		BIT_STRING_t *bs = (BIT_STRING_t *)(void *)st;
		bs->bits_unused = bits_unused;
		if (st->size)
			st->buf[st->size - 1] &= (unsigned char)(0xffu << bits_unused);
	}
	return e;
}

/* OCTET_STRING_decode_ber: OCTET STRING, IA5String and BIT STRING, either form. */
static ALWAYS_INLINE pos r_string(reader *r, OCTET_STRING_t *st, pos p, pos lim, const hdr *h,
                                  unsigned depth, int bit, unsigned ti)
{
	if (LIKELY(!bit && !h->cons && h->e - h->c <= INT_MAX))
		return fill(r, st, h->c, (size_t)(h->e - h->c));
	hdr copy = *h; /* so that the caller's header can stay in registers */
	return r_string_other(r, st, p, lim, &copy, depth, ti);
}

/*
 * Everything off the generated walk's in-order path, read from the schema
 * tables (below the walk): a SEQUENCE's members from edx on, a CHOICE, a
 * list item and a value, each in any form and order asn1c takes.
 */
static pos seq_general(reader *r, unsigned ti, char *st, pos p, pos lim, int indef,
                       unsigned depth, int edx);
static pos choice_general(reader *r, unsigned ti, char *st, int tagged, pos p, pos lim,
                          const hdr *hp, unsigned depth);
static pos list_item(reader *r, unsigned ti, char **x, pos p, pos lim, unsigned depth);
static pos list_general(reader *r, unsigned ti, char *st, pos p, pos lim, int indef,
                        unsigned depth);

typedef pos walker(reader *r, char *st, pos p, pos lim, int indef, unsigned depth);

#include "megaco_ber.inc"

/* Where member m of the struct at st goes: its node (a pointer member's, allocated and linked) or its place in st. */
static char *place(reader *r, char *st, const schema_member *m)
{
	char *x = st + m->offset;
	if (m->flags & SM_POINTER)
		return put_node(r, (void **)(void *)x, schema_types[m->type].size);
	return x;
}

/*
 * The value of schema type ti in place at x, its header h read at p in
 * container lim (for an untagged CHOICE: its alternative's), with depth
 * levels open around it; tagged: a CHOICE's EXPLICIT tag is h.
 */
static NOINLINE pos read_value(reader *r, unsigned ti, int tagged, char *x, pos p, pos lim,
                               const hdr *h, unsigned depth)
{
	const schema_type *t = &schema_types[ti];
	switch (t->kind) {
	case SK_SEQUENCE:
	case SK_SEQUENCE_OF:
	case SK_SET_OF:
		if (!h->cons)
			return mismatch(r, p, ti);
		lim = h->e ? h->e : lim;
		if (walkers[ti])
			return walkers[ti](r, x, h->c, lim, !h->e, depth + 1);
		/* A type read in line by its one container (megaco_ber.inc): no function of its own. */
		if (t->kind == SK_SEQUENCE)
			return seq_general(r, ti, x, h->c, lim, !h->e, depth + 1, 0);
		return list_general(r, ti, x, h->c, lim, !h->e, depth + 1);
	case SK_CHOICE:
		return choice_general(r, ti, x, tagged, p, lim, h, depth);
	case SK_INT:
	case SK_ENUM:
		return r_int(r, (long *)(void *)x, p, h, (t->flags & SF_UNSIGNED) != 0, ti);
	case SK_BOOL:
	case SK_NULL:
		return r_bool(r, (BOOLEAN_t *)(void *)x, p, h, ti);
	case SK_OID:
		return r_oid(r, (OCTET_STRING_t *)(void *)x, p, h, ti);
	default: /* SK_OCTETS, SK_IA5, SK_BITS */
		return r_string_other(r, (OCTET_STRING_t *)(void *)x, p, lim, h, depth, ti);
	}
}

/*
 * SEQUENCE_decode_ber from member edx on, where the contents stop being
 * the members in order in their plain forms: any member's header, asn1c's
 * search for its tag, unknown extensions, and the end.
 */
static NOINLINE pos seq_general(reader *r, unsigned ti, char *st, pos p, pos lim, int indef,
                                unsigned depth, int edx)
{
	const schema_type *t = &schema_types[ti];
	const schema_member *el = &schema_members[t->first];
	for (;;) {
		if (!indef ? p >= lim : is_eoc(p, lim)) {
			/* asn1c lets it end before edx when every member from there on may be absent. */
			if (!(edx == t->count || edx + el[edx].optional == t->count ||
			      ((t->flags & SF_EXTENSIBLE) && edx >= t->root_count)))
				mismatch(r, p, ti);
			return indef ? p + 2 : p;
		}
		hdr h;
		if (!header(r, p, lim, depth, &h))
			return NULL;
		int i = edx < t->count ? find_member(t, el, edx, h.tag) : -1;
		int last = edx < t->count ? edx + el[edx].optional : edx;
		pos e;
		char *x;
		if (i >= 0) {
			if (!(x = place(r, st, &el[i])))
				return NULL;
			e = read_value(r, el[i].type, el[i].tag_mode == 1, x, p, lim, &h, depth);
			edx = i + 1;
		} else if (!(t->flags & SF_EXTENSIBLE) || last < t->root_count) {
			/* Not in asn1c's "extension group" (last <= count holds). */
			e = mismatch(r, p, ti);
		} else {
			/* An unknown extension, passed over; as asn1c, with the optional members from edx on. */
			e = skip_value(r, &h, lim, depth);
			edx = last;
		}
		if (!e)
			return r->code ? NULL : pass_over(r, p, lim, indef, depth);
		p = e;
	}
}

/*
 * CHOICE_decode_ber: the alternative whose header *hp is (NULL: read
 * here), or when tagged the one inside the EXPLICIT tag *hp (constructed:
 * X.690 8.14.3). One the CHOICE does not know is, in an extensible CHOICE,
 * skipped, none present (ber_reader.h); else a mismatch.
 */
static NOINLINE pos choice_general(reader *r, unsigned ti, char *st, int tagged, pos p, pos lim,
                                   const hdr *hp, unsigned depth)
{
	const schema_type *t = &schema_types[ti];
	int indef = 0;
	hdr ah;
	if (tagged) {
		if (!hp->cons)
			return mismatch(r, p, ti);
		indef = !hp->e;
		p = hp->c;
		lim = indef ? lim : hp->e;
		depth++;
		if (indef ? is_eoc(p, lim) : p >= lim) {
			mismatch(r, p, ti);
			return pass_over(r, p, lim, indef, depth);
		}
		hp = NULL;
	}
	if (!hp) {
		if (!header(r, p, lim, depth, &ah))
			return NULL;
		hp = &ah;
	}
	const schema_tag2member *map = &schema_tag2members[t->tag_map];
	unsigned i = 0;
	while (i < t->tag_map_count && map[i].tag != hp->tag)
		i++;
	pos e;
	if (i < t->tag_map_count) {
		const schema_member *m = &schema_members[t->first + map[i].member];
		char *x = place(r, st, m);
		if (!x)
			return NULL;
		schema_present_set(st + t->pres_offset, t->pres_size, map[i].member + 1);
		e = read_value(r, m->type, m->tag_mode == 1, x, p, lim, hp, depth);
	} else if (!(t->flags & SF_EXTENSIBLE)) {
		e = mismatch(r, p, ti);
	} else if ((e = skip_value(r, hp, lim, depth))) {
		r->flags |= BER_READ_UNKNOWN_ALTERNATIVE;
	}
	if (!tagged)
		return e;
	if (!e)
		return r->code ? NULL : pass_over(r, p, lim, indef, depth);
	if (indef ? !is_eoc(e, lim) : e != lim) {
		mismatch(r, e, ti); /* more than one value in the tag */
		return pass_over(r, e, lim, indef, depth);
	}
	return indef ? e + 2 : e;
}

/*
 * An item of the list ti in other than its plain form (one identifier
 * octet, a definite length), or when read by list_general(): its node into
 * *x; NULL (a mismatch, or r->code).
 */
static NOINLINE pos list_item(reader *r, unsigned ti, char **x, pos p, pos lim, unsigned depth)
{
	const schema_member *m = &schema_members[schema_types[ti].first];
	hdr h;
	if (m->tag == NO_TAG) { /* an untagged CHOICE, which reads its alternative's header */
		if (!(*x = node(r, schema_types[m->type].size)))
			return NULL;
		return choice_general(r, m->type, *x, 0, p, lim, NULL, depth);
	}
	if (!header(r, p, lim, depth, &h))
		return NULL;
	if (h.tag != m->tag)
		return mismatch(r, p, ti);
	if (!(*x = node(r, schema_types[m->type].size)))
		return NULL;
	return read_value(r, m->type, 0, *x, p, lim, &h, depth);
}

/* A list's items, each through list_item() (depth levels open, the list's own included). */
static NOINLINE pos list_general(reader *r, unsigned ti, char *st, pos p, pos lim, int indef,
                                 unsigned depth)
{
	list_items li;
	list_start(r, &li);
	while (!at_end(&p, lim, indef)) {
		char *x;
		pos e = list_item(r, ti, &x, p, lim, depth);
		if (!e)
			return r->code ? NULL : pass_over(r, p, lim, indef, depth);
		p = e;
		if (!list_add(r, &li, x))
			return NULL;
	}
	return list_end(st, &li, p);
}

/* ---- entry point ------------------------------------------------------------------------ */

int ber_read(unsigned type, void **slot, const unsigned char *buf, size_t len,
             megaco_arena *arena, unsigned max_depth, size_t max_size, unsigned *flags,
             megaco_error *err)
{
	if (type >= SCHEMA_NTYPES)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no such schema type");
	if (len == 0)
		return set_error(err, MEGACO_ERR_TRUNCATED, 0, "empty input");
	reader r = { .arena = arena, .buf = buf, .in_end = buf + len, .max_size = max_size,
		         .err = err };
	r.max_depth = max_depth < MEGACO_DEPTH_CEILING ? max_depth : MEGACO_DEPTH_CEILING;
	char *tail_end = NULL; /* a failure here is met again, and reported, at the first node */
	r.cur = (unsigned char *)arena_tail_take(arena, 0, &tail_end);
	r.end = (unsigned char *)tail_end;
	hdr h;
	/* (header() does not check max_size: it cannot matter when len fits it.) */
	pos e = len <= max_size ? header(&r, r.buf, r.in_end, 0, &h)
	                        : header_slow(&r, r.buf, r.in_end, 0, &h);
	if (e) {
		r.top_definite = h.e != NULL;
		/* The value with its type's own tag (an untagged CHOICE: none). */
		const schema_type *t = &schema_types[type];
		char *x;
		if (t->tag_count && h.tag != schema_tags[t->tags])
			e = mismatch(&r, r.buf, type);
		else if (!(x = *slot ? *slot : put_node(&r, slot, t->size)))
			e = NULL;
		else if (walkers[type] && h.cons) /* read_value()'s own step, without its call */
			e = walkers[type](&r, x, h.c, h.e ? h.e : r.in_end, !h.e, 1);
		else
			e = read_value(&r, type, 0, x, r.buf, r.in_end, &h, 0);
		if (!e && !r.code)
			e = skip_tlv(&r, r.buf, r.in_end, 0);
	}
	arena_tail_return(arena, (char *)r.cur);
	if (!e)
		return r.code;
	if (e != r.in_end)
		return set_error(err, MEGACO_ERR_TRAILING_DATA, (size_t)(e - buf),
		                 "%zu bytes after the end of the message", (size_t)(r.in_end - e));
	if (r.mismatch) {
		size_t at = (size_t)(r.mismatch - buf);
		return set_error(err, MEGACO_ERR_MALFORMED, at,
		                 "BER does not match the H.248.1 module near byte %zu (in %s)", at,
		                 schema_types[r.mismatch_type].name);
	}
	if (flags)
		*flags = r.flags;
	return MEGACO_OK;
}
