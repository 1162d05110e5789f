/*
 * DER encode stage (model -> BER bytes), driven by asn1c's type descriptors.
 * asn1c 0.9.28's der_encode() sizes every constructed value by encoding it
 * once, then encodes it again, at every level: the cost doubles per nesting
 * level. Here the encoding is written back to front (last member first,
 * contents before header) so every length is known when its header goes out:
 * one pass, each byte written once. The rules below mirror asn1c's
 * *_encode_der functions (cited by name) so the output stays byte-identical.
 *
 * Every put_* takes the write position p (the first byte written so far;
 * writing moves it down) and returns the new one, or NULL after recording in
 * the writer why it stopped, so p stays in a register across the recursion.
 * About 110 instructions per TLV on the corpus (asn1c: ~5000).
 *
 * That descriptor walk writes any type. For the H.248 root there are two
 * faster ways over the same rules (see "compiled tables" below): a walk
 * over per-member records compiled once from the descriptors (~75 per
 * TLV), and writers generated from those records at build time
 * (tools/gen/der_gen.c, ~45 per TLV), which it uses when they match. Both
 * hand every uncommon value to the descriptor walk.
 */
#include "der_writer.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "IA5String.h"
#include "INTEGER.h"
#include "MegacoMessage.h"
#include "NULL.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "asn_codecs_prim.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"
#include "internal.h"

/* Kind handlers stay out of line so the recursive dispatcher keeps a small frame. */
#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/*
 * Stack the recursion may use: ~100 bytes a nesting level in an optimised
 * build, so over a thousand levels; H.248 messages nest about 20 deep.
 */
#define DER_STACK_BUDGET ((uintptr_t)128 << 10)

enum { W_OK = 0, W_SPACE = -1, W_CONSTRAINT = -2, W_ENCODE = -3, W_NOMEM = -4, W_DEEP = -5 };

typedef struct writer {
	unsigned char *lo;  /* lowest byte we may write */
	const megaco_allocator *al; /* scratch: SET OF sorting, size measuring */
	unsigned check;     /* DER_WRITE_CHECK */
	uintptr_t stack_floor; /* recursion stops when the stack reaches down to here */
	int error;          /* W_* once a put_* returned NULL */
	/* what failed, for the error message */
	const asn_TYPE_descriptor_t *fail_td;
	const char *fail_member;
	const char *fail_why;
} writer;

static COLD int fail(writer *w, int code, const asn_TYPE_descriptor_t *td,
                     const asn_TYPE_member_t *m, const char *why)
{
	w->error = code;
	w->fail_td = td;
	w->fail_member = m ? m->name : NULL; /* the root's pseudo-member has none */
	w->fail_why = why;
	return code;
}

static COLD unsigned char *stop(writer *w, int code, const asn_TYPE_descriptor_t *td,
                                const asn_TYPE_member_t *m, const char *why)
{
	fail(w, code, td, m, why);
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

/* ---- tag and length octets (ber_tlv_tag_serialize, der_tlv_length_serialize) ---- */

static NOINLINE unsigned char *put_tl_long(writer *w, unsigned char *p, ber_tlv_tag_t tag,
                                           size_t len, int constructed)
{
	ber_tlv_tag_t tval = BER_TAG_VALUE(tag);
	unsigned char first = (unsigned char)(BER_TAG_CLASS(tag) << 6 | (constructed ? 0x20 : 0));
	if (tval <= 30 && len > 127 && len <= 0xffff && room(w, p, 4)) {
		/* The outer levels of most messages: 81 xx or 82 xx xx. */
		*--p = (unsigned char)len;
		if (len > 0xff)
			*--p = (unsigned char)(len >> 8);
		*--p = len > 0xff ? 0x82 : 0x81;
		*--p = first | (unsigned char)tval;
		return p;
	}
	size_t ln = 1, tn = 1;
	for (size_t l = len; len > 127 && l; l >>= 8)
		ln++;
	for (ber_tlv_tag_t t = tval; tval > 30 && t; t >>= 7)
		tn++;
	if (!room(w, p, ln + tn))
		return no_space(w);
	if (len > 127) {
		for (size_t l = len; l; l >>= 8)
			*--p = (unsigned char)l;
		*--p = (unsigned char)(0x80 | (ln - 1));
	} else {
		*--p = (unsigned char)len;
	}
	if (tval <= 30) {
		*--p = first | (unsigned char)tval;
	} else {
		*--p = (unsigned char)(tval & 0x7f);
		for (tval >>= 7; tval; tval >>= 7)
			*--p = (unsigned char)(0x80 | (tval & 0x7f));
		*--p = first | 0x1f;
	}
	return p;
}

/* One tag and length in front of the len bytes at p. */
static inline unsigned char *put_tl(writer *w, unsigned char *p, ber_tlv_tag_t tag, size_t len,
                                    int constructed)
{
	ber_tlv_tag_t tval = BER_TAG_VALUE(tag);
	if (tval > 30 || len > 127 || !room(w, p, 2))
		return put_tl_long(w, p, tag, len, constructed);
	p -= 2;
	p[0] = (unsigned char)(BER_TAG_CLASS(tag) << 6 | (constructed ? 0x20 : 0) | tval);
	p[1] = (unsigned char)len;
	return p;
}

/*
 * The tags of a value whose contents are [p, end), as der_write_tags()
 * orders them: the type's own tags, the outermost replaced by an IMPLICIT
 * tag (tag_mode -1) or wrapped by an EXPLICIT one (+1). Only the innermost
 * may be primitive (constructed says whether it is).
 */
static NOINLINE unsigned char *put_tags_slow(writer *w, unsigned char *p,
                                             const asn_TYPE_descriptor_t *td,
                                             const unsigned char *end, int tag_mode,
                                             const asn_TYPE_member_t *m, int constructed)
{
	int n = td->tags_count, first = (tag_mode == -1 && n) ? 1 : 0;
	for (int i = n - 1; i >= first; i--) {
		if (!(p = put_tl(w, p, td->tags[i], (size_t)(end - p), constructed)))
			return NULL;
		constructed = 1;
	}
	return tag_mode ? put_tl(w, p, m->tag, (size_t)(end - p), constructed) : p;
}

static inline unsigned char *put_tags(writer *w, unsigned char *p, const asn_TYPE_descriptor_t *td,
                                      const unsigned char *end, int tag_mode,
                                      const asn_TYPE_member_t *m, int constructed)
{
	/* Nearly every value: one tag of its own, kept or replaced (IMPLICIT)... */
	if (td->tags_count == 1 && tag_mode <= 0)
		return put_tl(w, p, tag_mode ? m->tag : td->tags[0], (size_t)(end - p), constructed);
	/* ...or a CHOICE, which has none, EXPLICITly tagged. */
	if (td->tags_count == 0 && tag_mode)
		return put_tl(w, p, m->tag, (size_t)(end - p), constructed);
	return put_tags_slow(w, p, td, end, tag_mode, m, constructed);
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

/* ---- inline constraint checks ----------------------------------------------------------- */

/*
 * asn_check_constraints() walks the whole model a second time through the
 * generated check functions. Here the walk is folded into the encode, and
 * the bounds come from the PER constraints next to each member and type:
 * every constraint in the H.248 module is PER-visible (SIZE and value ranges,
 * IA5String's 0..127 alphabet). The PER tables are also the steadier source:
 * asn1c's descriptor inheritance overwrites a derived type's check_constraints
 * with its base type's (PkgdName's SIZE(4) check becomes OCTET STRING's
 * no-op) once the type has been used, while per_constraints is kept.
 * Checked, as asn1c's checks do:
 *   INTEGER (native)  value within the range (as unsigned for unsigned types);
 *                     ENUMERATED values are not checked, as asn1c does not
 *   strings           SIZE; for character strings each byte in the alphabet
 *                     range; a plain IA5String must have a buffer
 *   BIT STRING        SIZE in bits; 0..7 unused bits, none when empty
 *   SEQUENCE OF/SET OF  SIZE (number of items)
 *   SEQUENCE, CHOICE  mandatory members present, one alternative chosen
 * Extensible constraints are not checked (asn1c checks them neither). Other
 * constraint functions (none in the module) are called as they are.
 * Stricter than asn_check_constraints() in two ways, both real violations:
 * the range of unsigned 32-bit types (TransactionId, ContextID, ...), which
 * asn1c's generated checks skip, and SIZE of derived string types (PkgdName,
 * Name, ...), which asn1c stops checking once inheritance has run (after the
 * first decode: a 5-octet PkgdName passed it in all 112 corpus messages
 * that have one).
 */
static const asn_per_constraints_t *per_of(const asn_TYPE_descriptor_t *td,
                                           const asn_TYPE_member_t *m)
{
	return m->per_constraints ? m->per_constraints : td->per_constraints;
}

static asn_constr_check_f *check_of(const asn_TYPE_descriptor_t *td, const asn_TYPE_member_t *m)
{
	return m->memb_constraints ? m->memb_constraints : td->check_constraints;
}

static int in_range(const asn_per_constraint_t *c, long v)
{
	if (c->flags == APC_CONSTRAINED)
		return v >= c->lower_bound && v <= c->upper_bound;
	if (c->flags == APC_SEMI_CONSTRAINED)
		return v >= c->lower_bound;
	return 1; /* unconstrained or extensible */
}

static int in_urange(const asn_per_constraint_t *c, unsigned long v)
{
	if (c->flags == APC_CONSTRAINED)
		return c->lower_bound >= 0 && v >= (unsigned long)c->lower_bound &&
		       c->upper_bound >= 0 && v <= (unsigned long)c->upper_bound;
	if (c->flags == APC_SEMI_CONSTRAINED)
		return c->lower_bound < 0 || v >= (unsigned long)c->lower_bound;
	return 1;
}

/* A module-specific check function rather than one of the runtime's? */
static int generated_check(asn_constr_check_f *ctf)
{
	return ctf != asn_generic_no_constraint && ctf != asn_generic_unknown_constraint &&
	       ctf != IA5String_constraint && ctf != BIT_STRING_constraint &&
	       ctf != SEQUENCE_constraint && ctf != CHOICE_constraint && ctf != SET_OF_constraint;
}

static COLD int call_check(writer *w, asn_constr_check_f *ctf, asn_TYPE_descriptor_t *td,
                           const void *ptr, const asn_TYPE_member_t *m)
{
	if (ctf(td, ptr, NULL, NULL) != 0)
		return fail(w, W_CONSTRAINT, td, m, "constraint failed");
	return W_OK;
}

static inline int check_integer(writer *w, asn_TYPE_descriptor_t *td,
                                const asn_TYPE_member_t *m, const void *ptr, long v)
{
	if (td->uper_encoder == NativeEnumerated_encode_uper)
		return W_OK;
	const asn_per_constraints_t *pc = per_of(td, m);
	if (!pc) {
		asn_constr_check_f *ctf = check_of(td, m);
		return generated_check(ctf) ? call_check(w, ctf, td, ptr, m) : W_OK;
	}
	const asn_INTEGER_specifics_t *spec = td->specifics;
	int ok = spec && spec->field_unsigned ? in_urange(&pc->value, (unsigned long)v)
	                                      : in_range(&pc->value, v);
	return ok ? W_OK : fail(w, W_CONSTRAINT, td, m, "value out of range");
}

/* Does a string's PER value range restrict its octets (an alphabet)? */
static inline int alphabet_bound(const asn_per_constraint_t *c)
{
	return c->flags == APC_CONSTRAINED && (c->lower_bound > 0 || c->upper_bound < 255);
}

static NOINLINE int check_string(writer *w, asn_TYPE_descriptor_t *td,
                                 const asn_TYPE_member_t *m, const BIT_STRING_t *st, int bits)
{
	const asn_per_constraints_t *pc = per_of(td, m);
	asn_constr_check_f *ctf = check_of(td, m);
	long size = (long)st->size;
	if (bits) {
		if (!st->buf || (st->size == 0 && st->bits_unused) || st->bits_unused < 0 ||
		    st->bits_unused > 7)
			return fail(w, W_CONSTRAINT, td, m, "invalid BIT STRING padding");
		size = st->size ? size * 8 - st->bits_unused : 0;
	} else if (ctf == IA5String_constraint && !st->buf) {
		return fail(w, W_CONSTRAINT, td, m, "value not given");
	}
	if (!pc)
		return generated_check(ctf) ? call_check(w, ctf, td, st, m) : W_OK;
	if (!in_range(&pc->size, size))
		return fail(w, W_CONSTRAINT, td, m, "size out of range");
	/* Character strings carry their alphabet as a PER value range. */
	if (!bits && st->buf && alphabet_bound(&pc->value)) {
		if (pc->value.lower_bound == 0 && pc->value.upper_bound == 127) {
			/* IA5String and kin: no octet with the top bit set, 8 at a time. */
			uint64_t acc = 0, word;
			int i = 0;
			for (; i + 8 <= st->size; i += 8) {
				memcpy(&word, st->buf + i, 8);
				acc |= word;
			}
			for (; i < st->size; i++)
				acc |= st->buf[i];
			if (acc & 0x8080808080808080u)
				return fail(w, W_CONSTRAINT, td, m, "character outside the alphabet");
			return W_OK;
		}
		for (int i = 0; i < st->size; i++)
			if (st->buf[i] < pc->value.lower_bound || st->buf[i] > pc->value.upper_bound)
				return fail(w, W_CONSTRAINT, td, m, "character outside the alphabet");
	}
	return W_OK;
}

/* SIZE of a list (from PER, or its generated check when it has no PER bounds). */
static COLD int check_list(writer *w, asn_TYPE_descriptor_t *td, const asn_TYPE_member_t *m,
                           const void *ptr)
{
	const asn_per_constraints_t *pc = per_of(td, m);
	if (pc)
		return in_range(&pc->size, _A_CSET_FROM_VOID(ptr)->count)
		           ? W_OK
		           : fail(w, W_CONSTRAINT, td, m, "number of items out of range");
	asn_constr_check_f *ctf = check_of(td, m);
	return generated_check(ctf) ? call_check(w, ctf, td, ptr, m) : W_OK;
}

/* ---- values --------------------------------------------------------------------------- */

static inline __attribute__((always_inline)) unsigned char *
put_value(writer *w, unsigned char *p, const void *ptr, int tag_mode, const asn_TYPE_member_t *m);

/*
 * Entering a constructed value: its SIZE if it is a list, and the stack
 * bound. asn1c 0.9.28 generates no checks of its own for SEQUENCE and CHOICE
 * types (WITH COMPONENTS and the like are not supported), so theirs are the
 * structural ones done as the walk goes.
 */
static inline int enter(writer *w, asn_TYPE_descriptor_t *td, const asn_TYPE_member_t *m,
                        const void *ptr, int is_list)
{
	if (is_list && w->check) {
		int plain = !per_of(td, m) && check_of(td, m) == SET_OF_constraint;
		if (!plain && check_list(w, td, m, ptr) != W_OK)
			return 0;
	}
	/*
	 * Bound the recursion by the stack it takes, as asn1c's decoders do: a
	 * compare, where a depth count costs a load and store on the way in and
	 * out.
	 */
	char probe;
	if ((uintptr_t)&probe < w->stack_floor) {
		fail(w, W_DEEP, td, m, "nested too deeply");
		return 0;
	}
	return 1;
}

/* The member's value, or NULL when an optional pointer member is absent. */
static inline const void *member_ptr(const void *ptr, const asn_TYPE_member_t *e)
{
	const char *p = (const char *)ptr + e->memb_offset;
	return (e->flags & ATF_POINTER) ? *(const void *const *)p : p;
}

/* SEQUENCE_encode_der: members in order; absent OPTIONALs omitted, DEFAULTs encoded. */
static NOINLINE unsigned char *put_sequence(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                            const void *ptr, int tag_mode,
                                            const asn_TYPE_member_t *m)
{
	if (!enter(w, td, m, ptr, 0))
		return NULL;
	unsigned char *end = p;
	for (const asn_TYPE_member_t *e = td->elements + td->elements_count; e-- > td->elements;) {
		const void *mp = member_ptr(ptr, e);
		if (!mp) {
			if (e->optional)
				continue;
			return stop(w, W_ENCODE, td, e, "mandatory member absent");
		}
		if (!(p = put_value(w, p, mp, e->tag_mode, e)))
			return NULL;
	}
	return put_tags(w, p, td, end, tag_mode, m, 1);
}

/*
 * CHOICE_encode_der: the alternative with its own tag; the CHOICE's tags
 * only when it is EXPLICITly tagged or has tags of its own (an IMPLICIT tag
 * on an untagged CHOICE is dropped, as asn1c does).
 */
static NOINLINE unsigned char *put_choice(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                          const void *ptr, int tag_mode,
                                          const asn_TYPE_member_t *m)
{
	if (!enter(w, td, m, ptr, 0))
		return NULL;
	const asn_CHOICE_specifics_t *s = td->specifics;
	const char *pp = (const char *)ptr + s->pres_offset;
	int present;
	switch (s->pres_size) {
	case sizeof(int): present = *(const int *)pp; break;
	case sizeof(short): present = *(const short *)pp; break;
	case sizeof(char): present = *(const signed char *)pp; break;
	default: return stop(w, W_ENCODE, td, NULL, "bad CHOICE layout");
	}
	if (present <= 0 || present > td->elements_count) {
		if (present == 0 && td->elements_count == 0) {
			return p; /* an empty CHOICE encodes as nothing */
		}
		return stop(w, W_ENCODE, td, NULL, "no CHOICE alternative present");
	}
	const asn_TYPE_member_t *e = &td->elements[present - 1];
	const void *mp = member_ptr(ptr, e);
	if (!mp) {
		if (!e->optional)
			return stop(w, W_ENCODE, td, e, "CHOICE alternative absent");
		return p; /* asn1c writes nothing, not even the CHOICE's tags */
	}
	unsigned char *end = p;
	if (!(p = put_value(w, p, mp, e->tag_mode, e)))
		return NULL;
	if (tag_mode == 1 || td->tags_count)
		return put_tags(w, p, td, end, tag_mode, m, 1);
	return p;
}

/* SEQUENCE_OF_encode_der: items in order, each with its type's own tags (tag_mode 0). */
static NOINLINE unsigned char *put_sequence_of(writer *w, unsigned char *p,
                                               asn_TYPE_descriptor_t *td, const void *ptr,
                                               int tag_mode,
                                               const asn_TYPE_member_t *m)
{
	if (!enter(w, td, m, ptr, 1))
		return NULL;
	const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(ptr);
	const asn_TYPE_member_t *e = td->elements;
	unsigned char *end = p;
	for (int i = list->count - 1; i >= 0; i--) {
		if (!list->array[i])
			continue;
		if (!(p = put_value(w, p, list->array[i], 0, e)))
			return NULL;
	}
	return put_tags(w, p, td, end, tag_mode, m, 1);
}

typedef struct span {
	const unsigned char *at;
	size_t len;
} span;

/* SET_OF_encode_der's _el_buf_cmp: bytewise, then the shorter first. */
static int span_cmp(const void *a, const void *b)
{
	const span *x = a, *y = b;
	int c = memcmp(x->at, y->at, x->len < y->len ? x->len : y->len);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/*
 * SET_OF_encode_der: DER orders the items by their encodings. Items are
 * written as for SEQUENCE OF, then sorted through a copy kept below p (free
 * space at that point) or, when that is short, on the heap.
 */
static COLD unsigned char *put_set_of(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                      const void *ptr, int tag_mode,
                                      const asn_TYPE_member_t *m)
{
	if (!enter(w, td, m, ptr, 1))
		return NULL;
	const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(ptr);
	const asn_TYPE_member_t *e = td->elements;
	unsigned char *end = p, *heap = NULL;
	span local[16], *spans = local;
	int n = 0;
	if (list->count > (int)(sizeof local / sizeof local[0])) {
		spans = w->al->alloc(w->al->user_data, (size_t)list->count * sizeof *spans);
		if (!spans)
			return stop(w, W_NOMEM, td, NULL, "out of memory");
	}
	for (int i = list->count - 1; i >= 0; i--) {
		if (!list->array[i])
			continue;
		unsigned char *item_end = p;
		if (!(p = put_value(w, p, list->array[i], 0, e)))
			goto out;
		spans[n++] = (span){ p, (size_t)(item_end - p) };
	}
	if (n > 1) {
		qsort(spans, (size_t)n, sizeof *spans, span_cmp);
		size_t total = (size_t)(end - p);
		unsigned char *copy;
		if (room(w, p, total)) {
			copy = p - total;
		} else if (!(copy = heap = w->al->alloc(w->al->user_data, total))) {
			p = stop(w, W_NOMEM, td, NULL, "out of memory");
			goto out;
		}
		memcpy(copy, p, total);
		unsigned char *dst = p;
		for (int i = 0; i < n; i++) {
			memcpy(dst, copy + (spans[i].at - p), spans[i].len);
			dst += spans[i].len;
		}
	}
	p = put_tags(w, p, td, end, tag_mode, m, 1);
out:
	if (heap)
		w->al->free(w->al->user_data, heap);
	if (spans != local)
		w->al->free(w->al->user_data, spans);
	return p;
}

/* NativeInteger_encode_der -> INTEGER_encode_der: minimal two's complement of the long. */
static NOINLINE unsigned char *put_native_integer(writer *w, unsigned char *p,
                                                  asn_TYPE_descriptor_t *td, const void *ptr,
                                                  int tag_mode,
                                                  const asn_TYPE_member_t *m)
{
	long v = *(const long *)ptr;
	if (w->check && check_integer(w, td, m, ptr, v) != W_OK)
		return NULL;
	if (v >= -128 && v <= 127 && room(w, p, 1)) { /* the usual: versions, IDs, small counts */
		unsigned char *end = p;
		*--p = (unsigned char)v;
		return put_tags(w, p, td, end, tag_mode, m, 0);
	}
	unsigned long u = (unsigned long)v, mag = v < 0 ? ~u : u;
	/* Bytes for the magnitude's bits plus a sign bit. */
	unsigned n = mag ? (unsigned)(sizeof(long) * 8 - (unsigned)__builtin_clzl(mag)) / 8 + 1 : 1;
	if (n > sizeof(long))
		n = sizeof(long);
	if (!room(w, p, n))
		return no_space(w);
	unsigned char *end = p;
	for (unsigned i = 0; i < n; i++, u >>= 8)
		*--p = (unsigned char)u;
	return put_tags(w, p, td, end, tag_mode, m, 0);
}

/* INTEGER_encode_der on INTEGER_t: the stored bytes minus redundant leading 00/FF. */
static COLD unsigned char *put_integer(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                       const void *ptr, int tag_mode,
                                       const asn_TYPE_member_t *m)
{
	const INTEGER_t *st = ptr;
	if (w->check) {
		asn_constr_check_f *ctf = check_of(td, m);
		if (ctf != asn_generic_no_constraint && call_check(w, ctf, td, ptr, m) != W_OK)
			return NULL;
	}
	const uint8_t *b = st->buf;
	size_t size = b ? (size_t)st->size : 0;
	if (!b && st->size)
		return stop(w, W_ENCODE, td, m, "INTEGER without contents");
	while (size > 1 && ((b[0] == 0x00 && !(b[1] & 0x80)) || (b[0] == 0xff && (b[1] & 0x80)))) {
		b++;
		size--;
	}
	unsigned char *end = p;
	if (!(p = put_bytes(w, p, b, size)))
		return NULL;
	return put_tags(w, p, td, end, tag_mode, m, 0);
}

/* OCTET_STRING_encode_der: OCTET STRING, the character strings, BIT STRING, ANY. */
static NOINLINE unsigned char *put_octet_string(writer *w, unsigned char *p,
                                                asn_TYPE_descriptor_t *td, const void *ptr,
                                                int tag_mode,
                                                const asn_TYPE_member_t *m)
{
	const asn_OCTET_STRING_specifics_t *spec = td->specifics;
	enum asn_OS_Subvariant variant = spec ? spec->subvariant : ASN_OSUBV_STR;
	const BIT_STRING_t *st = ptr;
	if (w->check) {
		/* The usual OCTET STRING (a name, an ID) settles with its SIZE bounds alone. */
		const asn_per_constraints_t *pc = per_of(td, m);
		int settled = variant != ASN_OSUBV_BIT && pc && st->buf &&
		              in_range(&pc->size, st->size) && !alphabet_bound(&pc->value);
		if (!settled && check_string(w, td, m, st, variant == ASN_OSUBV_BIT) != W_OK)
			return NULL;
	}
	size_t size = (size_t)st->size;
	if (!st->buf && size)
		return stop(w, W_ENCODE, td, m, "string without contents");
	unsigned char *end = p;
	if (variant == ASN_OSUBV_BIT) {
		/*
		 * Unused-bits octet, then the bits with the unused ones cleared (asn1c
		 * shifts by the raw count: same bytes for the valid 0..7, which the
		 * check enforces).
		 */
		if (!room(w, p, size + 1))
			return no_space(w);
		p -= size + 1;
		p[0] = (unsigned char)(st->bits_unused & 7);
		if (size) {
			memcpy(p + 1, st->buf, size);
			if (st->bits_unused & 7)
				p[size] &= (unsigned char)(0xff << (st->bits_unused & 7));
		}
	} else if (!(p = put_bytes(w, p, st->buf, size))) {
		return NULL;
	}
	if (variant != ASN_OSUBV_ANY || tag_mode == 1)
		return put_tags(w, p, td, end, tag_mode, m, variant == ASN_OSUBV_ANY);
	return p;
}

/* der_encode_primitive: OBJECT IDENTIFIER, RELATIVE-OID and other buf/size types. */
static COLD unsigned char *put_primitive(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                         const void *ptr, int tag_mode,
                                         const asn_TYPE_member_t *m)
{
	const ASN__PRIMITIVE_TYPE_t *st = ptr;
	if (w->check) {
		asn_constr_check_f *ctf = check_of(td, m);
		if (ctf != asn_generic_no_constraint && call_check(w, ctf, td, ptr, m) != W_OK)
			return NULL;
	}
	if (!st->buf && st->size)
		return stop(w, W_ENCODE, td, m, "value without contents");
	unsigned char *end = p;
	if (!(p = put_bytes(w, p, st->buf, (size_t)st->size)))
		return NULL;
	return put_tags(w, p, td, end, tag_mode, m, 0);
}

/* Sink for asn1c's encoder writing forward into a range we reserved. */
typedef struct fwd_sink {
	unsigned char *at, *end;
} fwd_sink;

static int fwd_write(const void *data, size_t size, void *key)
{
	fwd_sink *s = key;
	if ((size_t)(s->end - s->at) < size)
		return -1;
	memcpy(s->at, data, size);
	s->at += size;
	return 0;
}

/*
 * A kind this file does not know, or a derived type asn1c has not yet
 * resolved to its base (its descriptor still points at the generated
 * wrappers until asn1c first uses it): asn1c encodes this subtree, sizing it
 * first, and checks it with its own constraint function.
 */
static COLD unsigned char *put_by_asn1c(writer *w, unsigned char *p, asn_TYPE_descriptor_t *td,
                                        const void *ptr, int tag_mode,
                                        const asn_TYPE_member_t *m)
{
	if (w->check && call_check(w, check_of(td, m), td, ptr, m) != W_OK)
		return NULL;
	asn_enc_rval_t r = td->der_encoder(td, (void *)ptr, tag_mode, tag_mode ? m->tag : 0, NULL, NULL);
	if (r.encoded < 0)
		return stop(w, W_ENCODE, r.failed_type ? r.failed_type : td, m, "asn1c cannot encode it");
	if (!room(w, p, (size_t)r.encoded))
		return no_space(w);
	fwd_sink s = { p - r.encoded, p };
	r = td->der_encoder(td, (void *)ptr, tag_mode, tag_mode ? m->tag : 0, fwd_write, &s);
	if (r.encoded < 0 || s.at != s.end)
		return stop(w, W_ENCODE, td, m, "asn1c encoded a different size");
	return p - r.encoded;
}

/*
 * One value with its tags: m is the member (or list element) it sits in, for
 * its type, tag (tag_mode: 0 none, -1 IMPLICIT, +1 EXPLICIT; list items get
 * none, as in asn1c) and constraints. Kinds by descriptor, most frequent
 * first (per H.248 message: ~17 SEQUENCE, 11 SEQUENCE OF, 9 strings,
 * 7 integers, 6 CHOICE).
 */
static inline __attribute__((always_inline)) unsigned char *
put_value(writer *w, unsigned char *p, const void *ptr, int tag_mode, const asn_TYPE_member_t *m)
{
	asn_TYPE_descriptor_t *td = m->type;
	der_type_encoder_f *kind = td->der_encoder;
	if (kind == SEQUENCE_encode_der)
		return put_sequence(w, p, td, ptr, tag_mode, m);
	if (kind == SEQUENCE_OF_encode_der)
		return put_sequence_of(w, p, td, ptr, tag_mode, m);
	if (kind == OCTET_STRING_encode_der)
		return put_octet_string(w, p, td, ptr, tag_mode, m);
	if (kind == NativeInteger_encode_der)
		return put_native_integer(w, p, td, ptr, tag_mode, m);
	if (kind == CHOICE_encode_der)
		return put_choice(w, p, td, ptr, tag_mode, m);
	if (kind == NULL_encode_der)
		return put_tags(w, p, td, p, tag_mode, m, 0);
	if (kind == BOOLEAN_encode_der) {
		if (!room(w, p, 1))
			return no_space(w);
		unsigned char *end = p;
		*--p = *(const BOOLEAN_t *)ptr ? 0xff : 0; /* DER: true is FF */
		return put_tags(w, p, td, end, tag_mode, m, 0);
	}
	if (kind == INTEGER_encode_der)
		return put_integer(w, p, td, ptr, tag_mode, m);
	if (kind == der_encode_primitive)
		return put_primitive(w, p, td, ptr, tag_mode, m);
	if (kind == SET_OF_encode_der)
		return put_set_of(w, p, td, ptr, tag_mode, m);
	return put_by_asn1c(w, p, td, ptr, tag_mode, m);
}

/* ---- compiled tables for the H.248 module ----------------------------------------------- */

/*
 * The walk above reads asn1c's descriptors at every node: the kind through
 * a chain of encoder compares, tags, PER bounds and specifics through three
 * or four pointers each. For the module's own root, whose descriptors are
 * all static, that is gathered once per process into one record per member
 * (kind, offset, identifier octet, constraint bounds), and the common
 * values (short tags, lengths below 256, constraints met) are written
 * straight from it. Anything else about a value (a long length, a failed
 * check, a rare kind, a missing member) sends that value back to the
 * descriptor-driven functions above, which decide it exactly as before, so
 * output and errors stay theirs. Ad-hoc descriptors (other roots) never
 * come here: a cache keyed by their address could outlive them.
 */
/* Kinds; the leaves from C_OCTETS on. */
enum { C_SEQUENCE, C_LIST, C_CHOICE, C_OCTETS, C_INT, C_NULL, C_BOOL, C_OTHER };
enum { H_SHORT, H_NONE, H_TAGS }; /* one TL with a one-octet tag; none; put_tags() */
enum { CK_NONE, CK_RANGE, CK_URANGE, CK_IA5, CK_SLOW };

typedef struct ctype ctype;

typedef struct cmember {
	const ctype *type;
	unsigned char kind;      /* type->kind, one load sooner */
	unsigned char pointer;   /* ATF_POINTER */
	unsigned char optional;
	unsigned char hdr;       /* H_* */
	unsigned char id;        /* the identifier octet for H_SHORT */
	unsigned char cons;      /* the innermost tag is constructed */
	unsigned char ck;        /* CK_*: what passes without the descriptor-driven check */
	signed char tag_mode;    /* as put_value() gets it (0 for list items) */
	int offset;
	long lo, hi;             /* value, SIZE or item-count bounds for CK_RANGE/URANGE/IA5 */
	asn_TYPE_descriptor_t *td;
	const asn_TYPE_member_t *el; /* for the descriptor-driven functions and errors */
} cmember;

struct ctype {
	unsigned char kind;
	unsigned char pres_size; /* CHOICE: size and place of the alternative's number */
	int pres_offset;
	int count;               /* members (the item for a list) */
	const cmember *m;
	const asn_TYPE_descriptor_t *td;
};

/* Room for several times the H.248 v3 module; past it, the descriptor walk does it all. */
#define C_MAX_TYPES 1024
#define C_MAX_MEMBERS 4096
#define C_MAP_SIZE 2048 /* a power of 2 above C_MAX_TYPES */

static struct {
	ctype types[C_MAX_TYPES];
	cmember members[C_MAX_MEMBERS];
	ctype *map[C_MAP_SIZE];
	unsigned ntypes, nmembers;
	cmember root;
	int ok;
	int generated; /* der_writer_gen.inc was made from these very tables */
} ctab;
static pthread_once_t ctab_once = PTHREAD_ONCE_INIT;

/* The root as put_value() sees it in run(): a member of nothing, no tag. */
static const asn_TYPE_member_t module_root = { .type = &asn_DEF_MegacoMessage };

/* asn1c's own free functions: a descriptor pointing at one is resolved to its base. */
static int runtime_free(asn_struct_free_f *f)
{
	return f == SEQUENCE_free || f == CHOICE_free || f == SET_OF_free || f == OCTET_STRING_free ||
	       f == NativeInteger_free || f == BOOLEAN_free || f == ASN__PRIMITIVE_TYPE_free;
}

static const ctype *compile_type(asn_TYPE_descriptor_t *td);

/* Bounds of a PER range as lo..hi; what in_range() lets through. */
static void range_of(const asn_per_constraint_t *c, long *lo, long *hi)
{
	*lo = LONG_MIN;
	*hi = LONG_MAX;
	if (c->flags == APC_CONSTRAINED || c->flags == APC_SEMI_CONSTRAINED)
		*lo = c->lower_bound;
	if (c->flags == APC_CONSTRAINED)
		*hi = c->upper_bound;
}

/* Fills in the member record for el (the list item when tag_mode is forced to 0). */
static int compile_member(cmember *cm, const asn_TYPE_member_t *el, int tag_mode)
{
	asn_TYPE_descriptor_t *td = el->type;
	const ctype *t = compile_type(td);
	if (!t)
		return -1;
	cm->type = t;
	cm->kind = t->kind;
	cm->td = td;
	cm->el = el;
	cm->offset = el->memb_offset;
	cm->pointer = (el->flags & ATF_POINTER) != 0;
	cm->optional = el->optional != 0;
	cm->tag_mode = (signed char)tag_mode;

	/* The header, as put_tags() would write it. */
	const asn_OCTET_STRING_specifics_t *os = td->specifics;
	int any = td->der_encoder == OCTET_STRING_encode_der && os && os->subvariant == ASN_OSUBV_ANY;
	cm->cons = t->kind == C_SEQUENCE || t->kind == C_LIST || t->kind == C_CHOICE || any ||
	           td->der_encoder == SET_OF_encode_der;
	cm->hdr = H_TAGS;
	if ((t->kind == C_CHOICE && !(tag_mode == 1 || td->tags_count)) || (any && tag_mode != 1)) {
		cm->hdr = H_NONE;
	} else if ((td->tags_count == 1 && tag_mode <= 0) || (td->tags_count == 0 && tag_mode)) {
		ber_tlv_tag_t tag = tag_mode ? el->tag : td->tags[0];
		if (BER_TAG_VALUE(tag) <= 30) {
			cm->hdr = H_SHORT;
			cm->id = (unsigned char)(BER_TAG_CLASS(tag) << 6 | (cm->cons ? 0x20 : 0) |
			                         BER_TAG_VALUE(tag));
		}
	}

	/* What check_integer(), check_string() and enter() would pass without a look. */
	const asn_per_constraints_t *pc = per_of(td, el);
	asn_constr_check_f *ctf = check_of(td, el);
	cm->ck = CK_SLOW;
	cm->lo = LONG_MIN;
	cm->hi = LONG_MAX;
	if (t->kind == C_INT) {
		const asn_INTEGER_specifics_t *spec = td->specifics;
		if (td->uper_encoder == NativeEnumerated_encode_uper) {
			cm->ck = CK_NONE;
		} else if (!pc) {
			cm->ck = generated_check(ctf) ? CK_SLOW : CK_NONE;
		} else if (!(spec && spec->field_unsigned)) {
			cm->ck = CK_RANGE;
			range_of(&pc->value, &cm->lo, &cm->hi);
		} else if (pc->value.flags == APC_CONSTRAINED && pc->value.lower_bound >= 0 &&
		           pc->value.upper_bound >= 0) {
			cm->ck = CK_URANGE;
			cm->lo = pc->value.lower_bound;
			cm->hi = pc->value.upper_bound;
		} else if (pc->value.flags != APC_CONSTRAINED && pc->value.flags != APC_SEMI_CONSTRAINED) {
			cm->ck = CK_NONE;
		}
	} else if (t->kind == C_OCTETS) {
		/* Only with a buffer (the fast path wants one): then just SIZE and alphabet. */
		if (!pc) {
			cm->ck = generated_check(ctf) ? CK_SLOW : CK_NONE;
		} else if (!alphabet_bound(&pc->value)) {
			cm->ck = CK_RANGE;
			range_of(&pc->size, &cm->lo, &cm->hi);
		} else if (pc->value.lower_bound == 0 && pc->value.upper_bound == 127) {
			cm->ck = CK_IA5;
			range_of(&pc->size, &cm->lo, &cm->hi);
		}
	} else if (t->kind == C_LIST) {
		if (pc) {
			cm->ck = CK_RANGE;
			range_of(&pc->size, &cm->lo, &cm->hi);
		} else if (!generated_check(ctf)) {
			cm->ck = CK_NONE;
		}
	} else {
		cm->ck = CK_NONE; /* SEQUENCE, CHOICE: structural checks only; NULL, BOOLEAN: none */
	}
	return 0;
}

/* The slot for td in the map by descriptor address (open addressing). */
static ctype **type_slot(const asn_TYPE_descriptor_t *td)
{
	size_t h = (size_t)(((uintptr_t)td >> 4) * 0x9E3779B97F4A7C15u >> 20);
	for (;; h++) {
		ctype **e = &ctab.map[h & (C_MAP_SIZE - 1)];
		if (!*e || (*e)->td == td)
			return e;
	}
}

/* The compiled form of td and everything below it; NULL when the tables are full. */
static const ctype *compile_type(asn_TYPE_descriptor_t *td)
{
	ctype **slot = type_slot(td);
	if (*slot)
		return *slot;
	if (ctab.ntypes == C_MAX_TYPES)
		return NULL;
	/*
	 * A derived type (PkgdName ::= OCTET STRING (SIZE(4)), ...) points at
	 * generated wrappers until asn1c first uses it; its free wrapper called
	 * on NULL copies the base type's functions in and frees nothing, as
	 * ber_reader.c does too.
	 */
	for (int i = 0; i < 4 && !runtime_free(td->free_struct); i++)
		td->free_struct(td, NULL, 0);
	ctype *t = *slot = &ctab.types[ctab.ntypes++];
	t->td = td;
	der_type_encoder_f *k = td->der_encoder;
	const asn_OCTET_STRING_specifics_t *os = td->specifics;
	if (k == SEQUENCE_encode_der) {
		t->kind = C_SEQUENCE;
	} else if (k == SEQUENCE_OF_encode_der) {
		t->kind = C_LIST;
	} else if (k == CHOICE_encode_der) {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		t->pres_offset = cs->pres_offset;
		t->pres_size = (unsigned char)cs->pres_size;
		int known = cs->pres_size == sizeof(int) || cs->pres_size == sizeof(short) ||
		            cs->pres_size == sizeof(char);
		t->kind = known && td->elements_count > 0 ? C_CHOICE : C_OTHER;
	} else if (k == OCTET_STRING_encode_der) {
		t->kind = os && os->subvariant != ASN_OSUBV_STR ? C_OTHER : C_OCTETS;
	} else if (k == NativeInteger_encode_der) {
		t->kind = C_INT;
	} else if (k == NULL_encode_der) {
		t->kind = C_NULL;
	} else if (k == BOOLEAN_encode_der) {
		t->kind = C_BOOL;
	} else {
		t->kind = C_OTHER; /* the descriptor walk does these */
	}
	if (t->kind != C_SEQUENCE && t->kind != C_LIST && t->kind != C_CHOICE)
		return t;
	int n = td->elements_count;
	if (n < 0 || (unsigned)n > C_MAX_MEMBERS - ctab.nmembers)
		return NULL;
	cmember *m = &ctab.members[ctab.nmembers];
	ctab.nmembers += (unsigned)n;
	t->m = m;
	t->count = n;
	for (int i = 0; i < n; i++)
		if (compile_member(&m[i], &td->elements[i], t->kind == C_LIST ? 0 : td->elements[i].tag_mode))
			return NULL;
	return t;
}

#if defined(MEGACO_DER_GEN) && !defined(DER_WRITER_GENERATOR)
#define HAVE_DER_GEN 1
static int generated_matches(void);
#endif

#if defined(HAVE_DER_GEN) || defined(DER_WRITER_GENERATOR)
/* A multiplicative hash over what the generated writers take as constants. */
static uint64_t mix(uint64_t h, long v)
{
	h = (h ^ (uint64_t)v) * 0x100000001b3u;
	return h ^ h >> 29;
}

static uint64_t member_print(uint64_t h, const cmember *m)
{
	h = mix(h, m->type - ctab.types);
	h = mix(h, m->kind);
	h = mix(h, m->pointer);
	h = mix(h, m->optional);
	h = mix(h, m->hdr);
	h = mix(h, m->id);
	h = mix(h, m->cons);
	h = mix(h, m->ck);
	h = mix(h, m->tag_mode);
	h = mix(h, m->offset);
	h = mix(h, m->lo);
	return mix(h, m->hi);
}

/*
 * The tables' fingerprint: the generator writes it next to the writers it
 * makes from them, and those writers are used only when the tables built
 * at run time give the same one (same module, same layouts), so a stale
 * or foreign output can only cost speed.
 */
static uint64_t tables_print(void)
{
	uint64_t h = 0xcbf29ce484222325u;
	h = mix(h, ctab.ntypes);
	h = mix(h, ctab.nmembers);
	for (unsigned i = 0; i < ctab.ntypes; i++) {
		const ctype *t = &ctab.types[i];
		h = mix(h, t->kind);
		h = mix(h, t->pres_size);
		h = mix(h, t->pres_offset);
		h = mix(h, t->count);
		h = mix(h, t->m ? t->m - ctab.members : -1);
	}
	for (unsigned i = 0; i < ctab.nmembers; i++)
		h = member_print(h, &ctab.members[i]);
	return member_print(h, &ctab.root);
}
#endif

static void compile_module(void)
{
	ctab.ok = compile_member(&ctab.root, &module_root, 0) == 0;
#ifdef HAVE_DER_GEN
	ctab.generated = ctab.ok && generated_matches();
#endif
}

/* The value as the descriptor walk writes it (rare forms, errors). */
static NOINLINE unsigned char *c_generic(writer *w, unsigned char *p, const void *ptr,
                                         const cmember *cm)
{
	return put_value(w, p, ptr, cm->tag_mode, cm->el);
}

/* The header of a constructed value whose contents are [p, end), by put_tags(). */
static NOINLINE unsigned char *c_header_slow(writer *w, unsigned char *p, const cmember *cm,
                                             const unsigned char *end)
{
	if (cm->hdr == H_NONE)
		return p;
	return put_tags(w, p, cm->td, end, cm->tag_mode, cm->el, cm->cons);
}

/* The header of a constructed value whose contents are [p, end). */
static inline __attribute__((always_inline)) unsigned char *
c_header(writer *w, const unsigned char *lo, unsigned char *p, const cmember *cm,
         const unsigned char *end)
{
	size_t len = (size_t)(end - p);
	if (LIKELY(cm->hdr == H_SHORT && p - lo >= 3)) {
		if (len <= 127) {
			p -= 2;
			p[0] = cm->id;
			p[1] = (unsigned char)len;
			return p;
		}
		if (len <= 0xff) { /* the outer levels of most messages */
			p -= 3;
			p[0] = cm->id;
			p[1] = 0x81;
			p[2] = (unsigned char)len;
			return p;
		}
	}
	if (cm->hdr == H_NONE)
		return p;
	return c_header_slow(w, p, cm, end);
}

/*
 * Leaves in their common forms, the record's fields as arguments so that
 * the generated writers (der_writer_gen.inc) can pass them as constants;
 * anything else goes to the descriptor walk. lo and check are w's, in
 * registers.
 */
static inline __attribute__((always_inline)) unsigned char *
g_octets(writer *w, const unsigned char *lo, unsigned check, unsigned char *p, const void *ptr,
         const cmember *cm, unsigned char id, unsigned ck, long min, long max)
{
	const OCTET_STRING_t *st = ptr;
	size_t n = (size_t)st->size;
	if (UNLIKELY(!st->buf || n > 127 || (size_t)(p - lo) < n + 2))
		return c_generic(w, p, ptr, cm);
	if (check && ck != CK_NONE) {
		if (ck == CK_SLOW || st->size < min || st->size > max)
			return c_generic(w, p, ptr, cm);
		if (ck == CK_IA5) {
			unsigned acc = 0;
			for (size_t i = 0; i < n; i++)
				acc |= st->buf[i];
			if (acc & 0x80)
				return c_generic(w, p, ptr, cm);
		}
	}
	p -= n;
	if (n - 4 <= 4) { /* 4..8 octets: two overlapping moves, no call */
		memcpy(p, st->buf, 4);
		memcpy(p + n - 4, st->buf + n - 4, 4);
	} else if (n) {
		memcpy(p, st->buf, n);
	}
	p -= 2;
	p[0] = id;
	p[1] = (unsigned char)n;
	return p;
}

static inline __attribute__((always_inline)) unsigned char *
g_int(writer *w, const unsigned char *lo, unsigned check, unsigned char *p, const void *ptr,
      const cmember *cm, unsigned char id, unsigned ck, long min, long max)
{
	long v = *(const long *)ptr;
	if (check && ck != CK_NONE &&
	    !(ck == CK_RANGE    ? v >= min && v <= max
	      : ck == CK_URANGE ? (unsigned long)v >= (unsigned long)min &&
	                              (unsigned long)v <= (unsigned long)max
	                        : 0))
		return c_generic(w, p, ptr, cm);
	if (UNLIKELY((size_t)(p - lo) < 2 + sizeof(long)))
		return c_generic(w, p, ptr, cm);
	if (v >= -128 && v <= 127) {
		p -= 3;
		p[0] = id;
		p[1] = 1;
		p[2] = (unsigned char)v;
		return p;
	}
	unsigned long u = (unsigned long)v, mag = v < 0 ? ~u : u;
	/* Bytes for the magnitude's bits plus a sign bit (mag is not 0 here). */
	unsigned n = (unsigned)(sizeof(long) * 8 - (unsigned)__builtin_clzl(mag)) / 8 + 1;
	if (n > sizeof(long))
		n = sizeof(long);
	for (unsigned i = 0; i < n; i++, u >>= 8)
		*--p = (unsigned char)u;
	p -= 2;
	p[0] = id;
	p[1] = (unsigned char)n;
	return p;
}

static inline __attribute__((always_inline)) unsigned char *
g_null(writer *w, const unsigned char *lo, unsigned char *p, const void *ptr, const cmember *cm,
       unsigned char id)
{
	if (UNLIKELY((size_t)(p - lo) < 2))
		return c_generic(w, p, ptr, cm);
	p -= 2;
	p[0] = id;
	p[1] = 0;
	return p;
}

static inline __attribute__((always_inline)) unsigned char *
g_bool(writer *w, const unsigned char *lo, unsigned char *p, const void *ptr, const cmember *cm,
       unsigned char id)
{
	if (UNLIKELY((size_t)(p - lo) < 3))
		return c_generic(w, p, ptr, cm);
	p -= 3;
	p[0] = id;
	p[1] = 1;
	p[2] = *(const BOOLEAN_t *)ptr ? 0xff : 0; /* DER: true is FF */
	return p;
}

/* A leaf value by its record. */
static inline unsigned char *c_leaf(writer *w, const unsigned char *lo, unsigned check,
                                    unsigned char *p, const void *ptr, const cmember *cm)
{
	if (LIKELY(cm->hdr == H_SHORT)) {
		switch (cm->kind) {
		case C_OCTETS: return g_octets(w, lo, check, p, ptr, cm, cm->id, cm->ck, cm->lo, cm->hi);
		case C_INT: return g_int(w, lo, check, p, ptr, cm, cm->id, cm->ck, cm->lo, cm->hi);
		case C_NULL: return g_null(w, lo, p, ptr, cm, cm->id);
		case C_BOOL: return g_bool(w, lo, p, ptr, cm, cm->id);
		default: break;
		}
	}
	return c_generic(w, p, ptr, cm);
}

/*
 * A constructed value being written: its member cursor (SEQUENCE), item
 * index (list) or nothing more (CHOICE, whose one alternative is written).
 */
typedef struct cframe {
	const cmember *cm;
	unsigned char kind;   /* cm->kind */
	const cmember *e;     /* SEQUENCE: the member last started; list: the item's record */
	const cmember *first; /* SEQUENCE: its first member */
	const void *ptr;      /* the value */
	unsigned char *end;   /* where its contents end */
	int i;                /* list: the item last started */
} cframe;

/*
 * Deeper than any H.248 message (about 20 levels); a value below this goes
 * to the descriptor walk, which bounds its recursion by the stack.
 */
#define C_DEPTH 48

/*
 * The walk as a loop over an explicit stack of open constructed values:
 * no call, prologue or stack probe per node, only the value's own work.
 */
static NOINLINE unsigned char *c_walk(writer *w, unsigned char *p, const void *ptr,
                                      const cmember *cm)
{
	cframe st[C_DEPTH];
	cframe *f = st - 1; /* the innermost open value */
	/* Copies the byte stores cannot be taken to change. */
	const unsigned char *const lo = w->lo;
	const unsigned check = w->check;
	const void *mp;
descend: /* write the value ptr of member cm in front of p */
	if (cm->kind == C_SEQUENCE) {
		if (UNLIKELY(f == st + C_DEPTH - 1))
			goto generic;
		++f;
		f->cm = cm;
		f->kind = C_SEQUENCE;
		f->first = cm->type->m;
		f->e = f->first + cm->type->count;
		f->ptr = ptr;
		f->end = p;
		goto sequence;
	}
	if (cm->kind == C_LIST) {
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(ptr);
		if (UNLIKELY(f == st + C_DEPTH - 1))
			goto generic;
		if (check && cm->ck != CK_NONE &&
		    !(cm->ck == CK_RANGE && list->count >= cm->lo && list->count <= cm->hi) &&
		    check_list(w, cm->td, cm->el, ptr) != W_OK)
			return NULL;
		++f;
		f->cm = cm;
		f->kind = C_LIST;
		f->e = cm->type->m;
		f->ptr = list;
		f->end = p;
		f->i = list->count;
		goto list;
	}
	if (cm->kind == C_CHOICE) {
		const ctype *t = cm->type;
		const char *pp = (const char *)ptr + t->pres_offset;
		int present = t->pres_size == sizeof(int)     ? *(const int *)pp
		              : t->pres_size == sizeof(short) ? *(const short *)pp
		                                              : *(const signed char *)pp;
		if (UNLIKELY(present <= 0 || present > t->count || f == st + C_DEPTH - 1))
			goto generic; /* the error, as put_choice() gives it */
		const cmember *e = &t->m[present - 1];
		mp = (const char *)ptr + e->offset;
		if (e->pointer && !(mp = *(const void *const *)mp))
			goto generic;
		++f;
		f->cm = cm;
		f->kind = C_CHOICE;
		f->end = p;
		ptr = mp;
		cm = e;
		goto descend;
	}
	if (!(p = c_leaf(w, lo, check, p, ptr, cm)))
		return NULL;
	goto next;
generic:
	if (!(p = c_generic(w, p, ptr, cm)))
		return NULL;
next: /* the value is written: carry on with the innermost open one */
	if (f < st)
		return p;
	if (f->kind == C_SEQUENCE) {
	sequence:;
		const cmember *e = f->e;
		while (e-- > f->first) {
			mp = (const char *)f->ptr + e->offset;
			if (e->pointer && !(mp = *(const void *const *)mp)) {
				if (e->optional)
					continue;
				return stop(w, W_ENCODE, f->cm->td, e->el, "mandatory member absent");
			}
			f->e = e;
			ptr = mp;
			cm = e;
			goto descend;
		}
	} else if (f->kind == C_LIST) {
	list:
		while (f->i-- > 0) {
			const void *item = _A_CSET_FROM_VOID(f->ptr)->array[f->i];
			if (!item)
				continue;
			ptr = item;
			cm = f->e;
			goto descend;
		}
	} /* else a CHOICE, whose alternative is written */
	if (!(p = c_header(w, lo, p, f->cm, f->end)))
		return NULL;
	f--;
	goto next;
}

#ifdef HAVE_DER_GEN
/* Stack bound for the generated writers, as enter() does. */
static inline int g_deep(writer *w, const cmember *cm)
{
	char probe;
	if (UNLIKELY((uintptr_t)&probe < w->stack_floor)) {
		fail(w, W_DEEP, cm->td, cm->el, "nested too deeply");
		return 1;
	}
	return 0;
}

/* SIZE of a list, as in c_walk(). */
static inline int g_list_ok(writer *w, const cmember *cm, const void *ptr)
{
	int n = _A_CSET_FROM_VOID(ptr)->count;
	return !w->check || cm->ck == CK_NONE || (cm->ck == CK_RANGE && n >= cm->lo && n <= cm->hi) ||
	       check_list(w, cm->td, cm->el, ptr) == W_OK;
}

#include "der_writer_gen.inc"

static int generated_matches(void)
{
	return tables_print() == DER_GEN_FINGERPRINT;
}
#endif

/* ---- entry point ------------------------------------------------------------------------ */

static int report(const writer *w, megaco_error *err)
{
	const char *name = w->fail_td ? w->fail_td->name : "value";
	const char *dot = w->fail_member ? "." : "";
	const char *member = w->fail_member ? w->fail_member : "";
	switch (w->error) {
	case W_NOMEM: return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	case W_DEEP:
		return set_error(err, MEGACO_ERR_TOO_DEEP, 0,
		                 "%s%s%s: model nested too deeply (over %u KiB of stack)", name, dot,
		                 member, (unsigned)(DER_STACK_BUDGET >> 10));
	case W_CONSTRAINT:
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "%s%s%s: %s", name, dot, member,
		                 w->fail_why);
	default:
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "cannot encode %s%s%s as BER: %s", name,
		                 dot, member, w->fail_why);
	}
}

/* Encodes into buf[0..cap) back to front; *len is the size when it returns W_OK. */
static int run(writer *w, asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags,
               const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *len)
{
	char top;
	uintptr_t here = (uintptr_t)&top;
	*w = (writer){ .lo = buf, .al = al, .check = flags & DER_WRITE_CHECK,
		           .stack_floor = here > DER_STACK_BUDGET ? here - DER_STACK_BUDGET : 0 };
	/* The root as a member of nothing: no tag, no constraints of its own. */
	asn_TYPE_member_t root = { .type = td };
	unsigned char *p;
	if (td == &asn_DEF_MegacoMessage && !(flags & DER_WRITE_DESCRIPTOR_WALK) &&
	    pthread_once(&ctab_once, compile_module) == 0 && ctab.ok) {
#ifdef HAVE_DER_GEN
		if (ctab.generated && !(flags & DER_WRITE_TABLE_WALK))
			p = DER_GEN_ROOT(w, buf + cap, ptr, &ctab.root);
		else
#endif
			p = c_walk(w, buf + cap, ptr, &ctab.root);
	} else {
		p = put_value(w, buf + cap, ptr, 0, &root);
	}
	if (!p)
		return w->error;
	*len = (size_t)(buf + cap - p);
	return W_OK;
}

/* Encodes into cap bytes of scratch only to learn the size. */
static int measure(writer *w, asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags,
                   const megaco_allocator *al, size_t cap, size_t *len)
{
	unsigned char *s = al->alloc(al->user_data, cap);
	if (!s)
		return fail(w, W_NOMEM, td, NULL, "out of memory");
	int rc = run(w, td, ptr, flags, al, s, cap, len);
	al->free(al->user_data, s);
	return rc;
}

int der_write_mode(void)
{
	if (pthread_once(&ctab_once, compile_module) != 0 || !ctab.ok)
		return DER_MODE_DESCRIPTORS;
#ifdef HAVE_DER_GEN
	return ctab.generated ? DER_MODE_GENERATED : DER_MODE_STALE;
#else
	return DER_MODE_TABLES;
#endif
}

int der_write(asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags,
              const megaco_allocator *al, unsigned char *buf, size_t cap, size_t *out_len,
              megaco_error *err)
{
	writer w;
	size_t len = 0;
	int rc;
	if (cap) {
		rc = run(&w, td, ptr, flags, al, buf, cap, &len);
		if (rc == W_OK) {
			memmove(buf, buf + cap - len, len);
			*out_len = len;
			return MEGACO_OK;
		}
		if (rc != W_SPACE)
			return report(&w, err);
	}
	/* Too small: learn the exact size in scratch space grown geometrically. */
	size_t scap = cap < 2048 ? 4096 : cap * 2;
	while ((rc = measure(&w, td, ptr, flags, al, scap, &len)) == W_SPACE) {
		if (scap > SIZE_MAX / 4)
			return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
		scap *= 2;
	}
	if (rc != W_OK)
		return report(&w, err);
	*out_len = len;
	return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "BER needs %zu bytes, buffer has %zu",
	                 len, cap);
}
