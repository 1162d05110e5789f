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
 */
#include "der_writer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "IA5String.h"
#include "INTEGER.h"
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

/*
 * Stack the recursion may use: ~100 bytes a nesting level in an optimised
 * build, so over a thousand levels; H.248 messages nest about 20 deep.
 */
#define DER_STACK_BUDGET ((uintptr_t)128 << 10)

enum { W_OK = 0, W_SPACE = -1, W_CONSTRAINT = -2, W_ENCODE = -3, W_NOMEM = -4, W_DEEP = -5 };

typedef struct writer {
	unsigned char *lo;  /* lowest byte we may write */
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
		spans = malloc((size_t)list->count * sizeof *spans);
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
		} else if (!(copy = heap = malloc(total))) {
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
	free(heap);
	if (spans != local)
		free(spans);
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
               unsigned char *buf, size_t cap, size_t *len)
{
	char top;
	uintptr_t here = (uintptr_t)&top;
	*w = (writer){ .lo = buf, .check = flags & DER_WRITE_CHECK,
		           .stack_floor = here > DER_STACK_BUDGET ? here - DER_STACK_BUDGET : 0 };
	/* The root as a member of nothing: no tag, no constraints of its own. */
	asn_TYPE_member_t root = { .type = td };
	unsigned char *p = put_value(w, buf + cap, ptr, 0, &root);
	if (!p)
		return w->error;
	*len = (size_t)(buf + cap - p);
	return W_OK;
}

/* Encodes into cap bytes of scratch only to learn the size. */
static int measure(writer *w, asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags,
                   size_t cap, size_t *len)
{
	unsigned char *s = malloc(cap);
	if (!s)
		return fail(w, W_NOMEM, td, NULL, "out of memory");
	int rc = run(w, td, ptr, flags, s, cap, len);
	free(s);
	return rc;
}

int der_write(asn_TYPE_descriptor_t *td, const void *ptr, unsigned flags, unsigned char *buf,
              size_t cap, size_t *out_len, megaco_error *err)
{
	writer w;
	size_t len = 0;
	int rc;
	if (cap) {
		rc = run(&w, td, ptr, flags, buf, cap, &len);
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
	while ((rc = measure(&w, td, ptr, flags, scap, &len)) == W_SPACE) {
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
