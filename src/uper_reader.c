/*
 * UPER reader: X.691 UNALIGNED bytes -> the asn1c model, in the message
 * arena. Walks the same descriptors and per_constraints as asn1c's
 * uper_decode_complete() and reproduces its results: the same model, the
 * same accept/reject decision and the same starved-versus-malformed verdict,
 * quirks included (marked "asn1c:"). Also home of uper_ready(), which checks
 * once that every type of the module is a form both walkers reproduce.
 *
 * Two ways to walk: the table walk below, driven by the node graph, and one
 * decoder per node generated at build time from the same graph
 * (tools/gen/uper_read_gen.c, #included at the end), which bakes each node's
 * numbers in. Both are made of the same building blocks (list_c, octets_c
 * and so on), which take a node's numbers as arguments and are forced
 * inline, so a generated decoder passing constants gets a folded copy.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "arena.h"
#include "uper_read_bits.h"

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "MegacoMessage.h"
#include "NULL.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"

/* --- the node graph --------------------------------------------------------- */

#define IN_EXT_GROUP(s, i) ((i) > (s)->ext_after && (i) < (s)->ext_before)

/* asn1c's defaults for an OCTET STRING without PER-visible constraints. */
static const asn_per_constraints_t octets_default = {
	{ APC_CONSTRAINED, 8, 8, 0, 255 },
	{ APC_SEMI_CONSTRAINED, -1, -1, 0, 0 },
	0, 0
};

#define MAX_NODES 1024
#define MAX_FIELDS 4096
static uper_node nodes[MAX_NODES];
static struct {
	const asn_TYPE_descriptor_t *td;
	const asn_per_constraints_t *pc;
} keys[MAX_NODES];
static int nnodes;
static uper_field fields[MAX_FIELDS];
static int nfields_used;
static const uper_node *module_root;
/* module_root once prepare() has finished (release): lets uper_root() skip
 * pthread_once() on every message. Written once, then read-only. */
static _Atomic(const uper_node *) root_ready;
static pthread_once_t root_once = PTHREAD_ONCE_INIT;

typedef struct uper_reader reader;

#define ALWAYS_INLINE RD_INLINE
static uper_dec_f dec_sequence, dec_choice, dec_list, dec_octets, dec_native_enum, dec_boolean,
	dec_null;
static inline int dec_native_int(reader *r, const uper_node *n, void **sptr, uper_in *in);

static int is_constructed(const uper_node *n)
{
	return n->kind == UK_SEQUENCE || n->kind == UK_CHOICE || n->kind == UK_LIST;
}

static const uper_node *build(asn_TYPE_descriptor_t *td, const asn_per_constraints_t *mpc);

/* The member's node, and the leaf check asn_check_constraints() would make on it. */
static int build_field(uper_field *f, const asn_TYPE_member_t *m)
{
	if (m->default_value)
		return 0;
	f->node = build(m->type, m->per_constraints);
	if (!f->node)
		return 0;
	f->td = m->type;
	f->offset = (unsigned)m->memb_offset;
	f->ptr = (m->flags & ATF_POINTER) != 0;
	asn_constr_check_f *c = m->memb_constraints ? m->memb_constraints : m->type->check_constraints;
	if (is_constructed(f->node)) {
		/* The walk itself visits what SEQUENCE/CHOICE/SET_OF_constraint would. */
		if (c != m->type->check_constraints)
			return 0;
		c = NULL;
	}
	f->check = c == asn_generic_no_constraint ? NULL : c;
	return 1;
}

static uper_field *take_fields(int n)
{
	if (n < 0 || n > MAX_FIELDS - nfields_used)
		return NULL;
	uper_field *f = &fields[nfields_used];
	nfields_used += n;
	return f;
}

static const uper_node *build(asn_TYPE_descriptor_t *td, const asn_per_constraints_t *mpc)
{
	for (int i = 0; i < nnodes; i++)
		if (keys[i].td == td && keys[i].pc == mpc)
			return &nodes[i];
	if (nnodes == MAX_NODES)
		return NULL;
	/* A typedef's descriptor takes its base's operations on first use. */
	td->free_struct(td, NULL, 0);
	uper_node *n = &nodes[nnodes];
	keys[nnodes].td = td;
	keys[nnodes].pc = mpc;
	nnodes++;
	const asn_per_constraints_t *pc = mpc ? mpc : td->per_constraints;
	per_type_decoder_f *d = td->uper_decoder;
	per_type_encoder_f *e = td->uper_encoder;
	n->nbits = -1;
	if (d == SEQUENCE_decode_uper && e == SEQUENCE_encode_uper) {
		const asn_SEQUENCE_specifics_t *s = td->specifics;
		uper_field *f = take_fields(td->elements_count);
		if (!f)
			return NULL;
		n->kind = UK_SEQUENCE;
		n->extensible = s->ext_before >= 0;
		n->struct_size = s->struct_size;
		n->nfields = td->elements_count;
		n->fields = f;
		n->roms = s->roms_count;
		int stop = s->ext_after < 0 ? td->elements_count : s->ext_before - 1;
		int opt = 0;
		for (int i = 0; i < td->elements_count; i++) {
			const asn_TYPE_member_t *m = &td->elements[i];
			if (!build_field(&f[i], m))
				return NULL;
			f[i].ext = IN_EXT_GROUP(s, i);
			f[i].in_root = !f[i].ext && i < stop;
			f[i].optional = m->optional && !f[i].ext;
			if (f[i].optional && (opt >= s->roms_count || s->oms[opt++] != i))
				return NULL;
			if (f[i].ext && !(f[i].ptr && m->optional))
				return NULL;
		}
		if (opt != s->roms_count)
			return NULL;
	} else if (d == CHOICE_decode_uper && e == CHOICE_encode_uper) {
		const asn_CHOICE_specifics_t *s = td->specifics;
		uper_field *f = take_fields(td->elements_count);
		if (!f || s->canonical_order)
			return NULL;
		n->kind = UK_CHOICE;
		if (pc) {
			n->extensible = (pc->value.flags & APC_EXTENSIBLE) != 0;
			n->nbits = pc->value.range_bits;
			n->lb = pc->value.lower_bound;
			n->ub = pc->value.upper_bound;
		}
		n->ext_start = s->ext_start;
		n->pres_offset = s->pres_offset;
		n->pres_size = s->pres_size;
		n->struct_size = s->struct_size;
		n->nfields = td->elements_count;
		n->fields = f;
		for (int i = 0; i < td->elements_count; i++)
			if (!build_field(&f[i], &td->elements[i]))
				return NULL;
	} else if (d == SET_OF_decode_uper && e == SEQUENCE_OF_encode_uper) {
		const asn_SET_OF_specifics_t *s = td->specifics;
		uper_field *f = take_fields(1);
		if (!f || td->elements_count != 1)
			return NULL;
		n->kind = UK_LIST;
		if (pc) {
			n->extensible = (pc->size.flags & APC_EXTENSIBLE) != 0;
			n->nbits = pc->size.effective_bits;
			n->lb = pc->size.lower_bound;
			n->ub = pc->size.upper_bound;
		}
		n->struct_size = s->struct_size;
		n->nfields = 1;
		n->fields = f;
		if (!build_field(f, td->elements))
			return NULL;
	} else if (d == OCTET_STRING_decode_uper && e == OCTET_STRING_encode_uper) {
		const asn_OCTET_STRING_specifics_t *s = td->specifics;
		int bits = s && s->subvariant == ASN_OSUBV_BIT;
		if (s && !bits && s->subvariant != ASN_OSUBV_STR)
			return NULL;
		if (!pc)
			pc = &octets_default;
		if (pc->value2code || pc->code2value)
			return NULL;
		n->kind = bits ? UK_BITS : UK_OCTETS;
		n->extensible = (pc->size.flags & APC_EXTENSIBLE) != 0;
		n->nbits = pc->size.effective_bits;
		n->lb = pc->size.lower_bound;
		n->ub = pc->size.upper_bound;
		n->unit_bits = bits ? 1 : 8;
		if (!bits && (pc->value.flags & APC_CONSTRAINED)) {
			if (pc->value.range_bits < 1 || pc->value.range_bits > 8)
				return NULL;
			n->unit_bits = (unsigned)pc->value.range_bits;
		}
		n->clb = pc->value.lower_bound;
		n->cub = pc->value.upper_bound;
		if ((unsigned long)n->cub <= ((unsigned long)2 << (n->unit_bits - 1)))
			n->clb = 0;
		n->raw = n->clb == 0 && n->unit_bits == 8;
		n->struct_size = s ? (size_t)s->struct_size : sizeof(OCTET_STRING_t);
	} else if (d == NativeInteger_decode_uper && e == NativeInteger_encode_uper) {
		const asn_INTEGER_specifics_t *s = td->specifics;
		/* Only constrained whole numbers: asn1c's other INTEGER forms go
		 * through INTEGER_t arithmetic this module never needs. */
		if (!pc || pc->value.flags != APC_CONSTRAINED || pc->value.range_bits < 0 ||
		    pc->value.range_bits > 63)
			return NULL;
		n->kind = UK_NATIVE_INT;
		n->unsigned_int = s && s->field_unsigned;
		n->nbits = pc->value.range_bits;
		n->lb = pc->value.lower_bound;
		n->ub = pc->value.upper_bound;
	} else if (d == NativeEnumerated_decode_uper && e == NativeEnumerated_encode_uper) {
		if (!pc || !td->specifics)
			return NULL;
		n->kind = UK_NATIVE_ENUM;
		n->extensible = (pc->value.flags & APC_EXTENSIBLE) != 0;
		n->nbits = pc->value.range_bits;
		n->enums = td->specifics;
	} else if (d == BOOLEAN_decode_uper && e == BOOLEAN_encode_uper) {
		n->kind = UK_BOOLEAN;
	} else if (d == NULL_decode_uper && e == NULL_encode_uper) {
		n->kind = UK_NULL;
	} else {
		return NULL;
	}
	static uper_dec_f *const decoders[] = {
		[UK_SEQUENCE] = dec_sequence, [UK_CHOICE] = dec_choice, [UK_LIST] = dec_list,
		[UK_OCTETS] = dec_octets, [UK_BITS] = dec_octets, [UK_NATIVE_INT] = dec_native_int,
		[UK_NATIVE_ENUM] = dec_native_enum, [UK_BOOLEAN] = dec_boolean, [UK_NULL] = dec_null,
	};
	n->dec = decoders[n->kind];
	n->enc = uper_encoder_for((enum uper_kind)n->kind);
	return n;
}

/* --- reader --------------------------------------------------------------- */

struct uper_reader {
	megaco_arena *arena;
	unsigned depth, max_depth;
	char *cur, *lim; /* carving space for nodes, see alloc_zero() */
};



/* asn1c uper_get_length: -1 when starved or malformed (asn1c does not tell). */
static ALWAYS_INLINE long get_length(uper_in *in, int ebits, int *repeat)
{
	*repeat = 0;
	if (ebits >= 0)
		return (long)rd_get(in, (unsigned)ebits);
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

/* asn1c uper_get_nsnnwn, which reads 7 bits first (not X.691's 1 + 6). */
static long get_nsnnwn(uper_in *in)
{
	long v = (long)rd_get(in, 7);
	if (v & 64) {
		v &= 63;
		v <<= 2;
		v |= (long)rd_get(in, 2);
		if (v & 128)
			return -1;
		if (v == 0)
			return 0;
		if (v >= 3)
			return -1;
		return (long)rd_get(in, 8 * (unsigned)v);
	}
	return v;
}

/* asn1c uper_get_nslength. */
static long get_nslength(uper_in *in)
{
	if (rd_get(in, 1) == 0) {
		long n = (long)rd_get(in, 6) + 1;
		return n <= 0 ? -1 : n;
	}
	int repeat;
	long n = get_length(in, -1, &repeat);
	return n >= 0 && !repeat ? n : -1;
}

static inline int dec_native_int(reader *r, const uper_node *n, void **sptr, uper_in *in);

static inline int dec(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	if (n->kind == UK_NATIVE_INT) /* the most frequent leaf: no call */
		return dec_native_int(r, n, sptr, in);
	return n->dec(r, n, sptr, in);
}

/*
 * Nodes and strings are carved from the free tail of the arena's newest
 * block, which the reader holds as [cur, lim) for the whole decode
 * (arena_tail_take()): a bump per node, no size headers (asn1c never
 * reallocates them; SEQUENCE OF arrays, which asn_set_add() does grow, get
 * one of their own, see carve_array()). The tail is not zeroed: a node is
 * zeroed as it is carved (alloc_zero(), a few stores for a generated
 * decoder's constant size), and what the decoder writes in full anyway
 * (strings, integers) is not zeroed at all. The rare paths that call the
 * arena itself give the tail back around the call (arena_call_begin/end).
 */
#define CARVE_ALIGN 16 /* sizes are rounded to this, and pieces start aligned as the block */

/* A new tail of at least size bytes: out of line, it may take a new block. */
__attribute__((noinline)) static void *carve_refill(reader *r, size_t size)
{
	arena_tail_return(r->arena, r->cur);
	char *p = arena_tail_take(r->arena, size, &r->lim);
	if (!p) {
		r->cur = r->lim = NULL;
		return NULL;
	}
	r->cur = p + size;
	return p;
}

/*
 * size bytes, not zeroed. In the fast path p cannot be NULL (cur < lim);
 * saying so lets the callers' NULL checks fold away.
 */
static ALWAYS_INLINE void *carve(reader *r, size_t size)
{
	size = (size + (size == 0) + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1);
	if (__builtin_expect((size_t)(r->lim - r->cur) < size, 0))
		return carve_refill(r, size);
	char *p = r->cur;
	if (!p)
		__builtin_unreachable();
	r->cur = p + size;
	return p;
}

static ALWAYS_INLINE void *alloc_zero(reader *r, size_t size)
{
	char *p;
	size = (size + (size == 0) + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1);
	if (__builtin_expect((size_t)(r->lim - r->cur) < size, 0)) {
		if (!(p = carve_refill(r, size)))
			return NULL;
	} else {
		p = r->cur;
		if (!p)
			__builtin_unreachable();
		r->cur = p + size;
	}
	if (__builtin_constant_p(size))
		arena_zero(p, size);
	else
		memset(p, 0, size);
	return p;
}

/* Around a call on the arena itself: the tail goes back, and is taken again. */
static void arena_call_begin(reader *r)
{
	arena_tail_return(r->arena, r->cur);
	r->cur = r->lim = NULL;
}

static void arena_call_end(reader *r)
{
	char *p = arena_tail_take(r->arena, 0, &r->lim);
	r->cur = p;
	if (!p)
		r->lim = NULL;
}

static void *reader_realloc(reader *r, void *ptr, size_t size)
{
	arena_call_begin(r);
	void *p = arena_realloc(r->arena, ptr, size);
	arena_call_end(r);
	return p;
}

/*
 * asn1c uper_open_type_get_simple: length-prefixed chunks, the value decoded
 * from them alone, then at most 7 zero padding bits (or the single zero
 * octet of an empty encoding). Starved while reading the chunks; any failure
 * inside is a failure. n NULL: an unknown extension, skipped as
 * asn1c's uper_sot_suck does (whole 24-bit groups).
 */
__attribute__((noinline)) static int get_open_type(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	int repeat;
	uper_in sub;
	long chunk = get_length(in, -1, &repeat);
	if (chunk < 0 || (size_t)chunk * 8 > uin_left(in))
		return UPER_STARVED;
	if (!repeat) {
		sub = (uper_in){ in->buf, in->size, in->pos, in->pos + (size_t)chunk * 8 };
		in->pos += (size_t)chunk * 8;
	} else {
		/* Fragmented (16K and more): gather the chunks. */
		uint8_t *buf = NULL;
		size_t len = 0;
		for (;;) {
			uint8_t *p = reader_realloc(r, buf, len + (size_t)chunk + RD_SLACK);
			if (!p)
				return UPER_FAIL;
			buf = p;
			for (long i = 0; i < chunk; i++)
				buf[len++] = (uint8_t)rd_get(in, 8);
			if (!repeat)
				break;
			chunk = get_length(in, -1, &repeat);
			if (chunk < 0 || (size_t)chunk * 8 > uin_left(in))
				return UPER_STARVED;
		}
		memset(buf + len, 0, RD_SLACK);
		sub = (uper_in){ buf, len + RD_SLACK, 0, len * 8 };
	}
	size_t start = sub.pos;
	if (n) {
		if (dec(r, n, sptr, &sub) != UPER_OK)
			return UPER_FAIL;
	} else {
		sub.pos += uin_left(&sub) / 24 * 24;
	}
	size_t padding = uin_left(&sub);
	if ((padding < 8 || (sub.pos == start && sub.end - start == 8)) &&
	    rd_get(&sub, (unsigned)padding) == 0)
		return UPER_OK;
	return UPER_FAIL;
}

static inline void **slot(const uper_field *f, void *st, void **tmp)
{
	char *p = (char *)st + f->offset;
	if (f->ptr)
		return (void **)p;
	*tmp = p;
	return tmp;
}

/* A SEQUENCE's extension presence bitmap, into *epmd; in moves past it. */
static inline int ext_bitmap(uper_in *in, uper_in *epmd)
{
	long bmlength = get_nslength(in);
	if (bmlength < 0 || (size_t)bmlength > uin_left(in))
		return UPER_STARVED;
	*epmd = (uper_in){ in->buf, in->size, in->pos, in->pos + (size_t)bmlength };
	in->pos += (size_t)bmlength;
	return UPER_OK;
}

/* After the known extensions: asn1c skips the first unknown one present, and only that one. */
static int skip_unknown_extension(reader *r, uper_in *epmd, uper_in *in)
{
	for (;;) {
		int64_t b = rd_get(epmd, 1);
		if (b == 0)
			continue;
		if (b > 0 && get_open_type(r, NULL, NULL, in) != UPER_OK)
			return UPER_STARVED;
		return UPER_OK;
	}
}

/*
 * A SEQUENCE's extension additions, once its extension bit said there are
 * some (the table walk's; generated readers write theirs out).
 */
static int seq_extensions(reader *r, const uper_node *n, void *st, uper_in *in)
{
	uper_in epmd;
	int rc = ext_bitmap(in, &epmd);
	if (rc != UPER_OK)
		return rc;
	const uper_field *f, *end = n->fields + n->nfields;
	for (f = n->fields; f < end; f++) {
		if (!f->ext)
			continue;
		int64_t present = rd_get(&epmd, 1);
		if (present < 0)
			return UPER_OK; /* and no unknown ones either */
		if (!present)
			continue;
		void *tmp;
		if ((rc = get_open_type(r, f->node, slot(f, st, &tmp), in)) != UPER_OK)
			return rc;
	}
	return skip_unknown_extension(r, &epmd, in);
}

typedef int gen_dec_f(reader *r, void **sptr, uper_in *in, unsigned depth);

/*
 * get_open_type() for a value with a generated decoder gdec (called with
 * gdepth), unfragmented; a fragmented one goes the general way, as node n.
 */
static ALWAYS_INLINE int open_type_c(reader *r, uper_in *in, gen_dec_f *gdec, unsigned gdepth,
                                     void **sptr, const uper_node *n)
{
	size_t at = in->pos;
	int repeat;
	long chunk = get_length(in, -1, &repeat);
	if (chunk < 0 || (size_t)chunk * 8 > uin_left(in))
		return UPER_STARVED;
	if (__builtin_expect(repeat, 0)) {
		in->pos = at;
		r->depth = gdepth;
		return get_open_type(r, n, sptr, in);
	}
	uper_in sub = { in->buf, in->size, in->pos, in->pos + (size_t)chunk * 8 };
	size_t start = sub.pos;
	in->pos += (size_t)chunk * 8;
	if (gdec(r, sptr, &sub, gdepth) != UPER_OK)
		return UPER_FAIL;
	/* At most 7 zero padding bits, or the single zero octet of an empty value. */
	size_t padding = uin_left(&sub);
	if ((padding < 8 || (sub.pos == start && sub.end - start == 8)) &&
	    rd_get(&sub, (unsigned)padding) == 0)
		return UPER_OK;
	return UPER_FAIL;
}

static inline int dec_sequence_body(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	void *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, n->struct_size)))
		return UPER_FAIL;
	int extpresent = 0;
	if (n->extensible) {
		if (!uin_left(in))
			return UPER_STARVED;
		extpresent = (int)rd_peek(in, 1);
		in->pos++;
	}
	/* The presence bitmap, read in place (build() matched it to the members). */
	if ((size_t)n->roms > uin_left(in))
		return UPER_STARVED;
	size_t opres = in->pos;
	in->pos += (size_t)n->roms;
	int rc;
	const uper_field *f = n->fields, *end = f + n->nfields;
	for (; f < end; f++) {
		if (f->ext)
			continue;
		if (f->optional) {
			uper_in bit = { in->buf, in->size, opres++, 0 };
			if (!rd_peek(&bit, 1))
				continue;
		}
		void *tmp;
		if ((rc = dec(r, f->node, slot(f, st, &tmp), in)) != UPER_OK)
			return rc;
	}
	if (!extpresent)
		return UPER_OK;
	return seq_extensions(r, n, st, in);
}

/* Stores a CHOICE's presence (index + 1) in the integer asn1c gave it. */
static inline void set_present(void *st, unsigned pres_offset, unsigned pres_size, long value)
{
	char *pres = (char *)st + pres_offset;
	switch (pres_size) {
	case sizeof(int): *(int *)pres = (int)value + 1; break;
	case sizeof(short): *(short *)pres = (short)(value + 1); break;
	case sizeof(char): *(signed char *)pres = (signed char)(value + 1); break;
	default: break;
	}
}

/* A CHOICE alternative outside the root (or of a root without a range). */
static int choice_extension(reader *r, const uper_node *n, void *st, uper_in *in)
{
	if (n->ext_start == -1)
		return UPER_FAIL;
	long value = get_nsnnwn(in);
	if (value < 0)
		return UPER_STARVED;
	value += n->ext_start;
	if (value >= n->nfields)
		return UPER_FAIL;
	set_present(st, n->pres_offset, n->pres_size, value);
	const uper_field *f = &n->fields[value];
	void *tmp;
	return get_open_type(r, f->node, slot(f, st, &tmp), in);
}

static inline int dec_choice_body(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	void *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, n->struct_size)))
		return UPER_FAIL;
	int root = n->nbits >= 0;
	if (n->extensible) {
		int64_t b = rd_get(in, 1);
		if (b < 0)
			return UPER_STARVED;
		if (b)
			root = 0;
	}
	if (!root)
		return choice_extension(r, n, st, in);
	int64_t v = rd_get(in, (unsigned)n->nbits);
	if (v < 0)
		return UPER_STARVED;
	if (v > n->ub)
		return UPER_FAIL;
	set_present(st, n->pres_offset, n->pres_size, (long)v);
	const uper_field *f = &n->fields[v];
	void *tmp;
	return dec(r, f->node, slot(f, st, &tmp), in);
}

/*
 * A SEQUENCE OF's first array, of n pointers, carved like the nodes instead
 * of a call to arena_alloc(): cheaper, and most lists get one. It carries
 * the size header arena.h puts before every allocation, so arena_realloc()
 * (list_grow(), or asn_set_add() on the model later) copies it correctly
 * when it grows.
 */
static ALWAYS_INLINE void **carve_array(reader *r, size_t n)
{
	size_t bytes = n * sizeof(void *);
	/* Not zeroed: slots at count and above are never read (asn1c's own
	 * REALLOC leaves them undefined too). */
	char *p = carve(r, ARENA_HDR + bytes);
	if (!p)
		return NULL;
	memcpy(p, &bytes, sizeof bytes);
	return (void **)(void *)(p + ARENA_HDR);
}

/*
 * Room for more elements, remaining still to come in this run: asn_set_add's
 * sizes (4, 8, 16...), so the list is as asn1c leaves it; short lists get
 * their final size at once.
 */
__attribute__((noinline)) static int list_grow(reader *r, asn_anonymous_set_ *list, long remaining)
{
	int size = list->size ? list->size << 1 : 4;
	while (remaining <= 64 && size < list->count + remaining)
		size <<= 1;
	void **a = reader_realloc(r, list->array, (size_t)size * sizeof(void *));
	if (!a)
		return UPER_FAIL;
	list->array = a;
	list->size = size;
	return UPER_OK;
}

/*
 * SEQUENCE OF, with the node's numbers as arguments so that a generated
 * reader, passing constants, gets a copy specialised to its type. In two
 * parts, so that a generated reader can keep the first, which finishes an
 * empty list, small enough to inline into its parent: list_head_c() makes
 * the structure and reads the count (*nbits becomes -1 when the extension
 * bit says the count is unconstrained); list_elems_c() decodes the elements
 * by gdec (a generated decoder, given gdepth) or else by edec.
 */
static ALWAYS_INLINE int list_head_c(reader *r, void **sptr, uper_in *in, int extensible,
                                     int *nbits, long lb, size_t struct_size,
                                     asn_anonymous_set_ **list, long *nelems, int *repeat)
{
	void *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, struct_size)))
		return UPER_FAIL;
	*list = _A_SET_FROM_VOID(st);
	if (extensible) {
		int64_t b = rd_get(in, 1);
		if (b < 0)
			return UPER_STARVED;
		if (b)
			*nbits = -1;
	}
	*repeat = 0;
	if (*nbits >= 0) {
		int64_t c = rd_get(in, (unsigned)*nbits);
		if (c < 0)
			return UPER_STARVED;
		*nelems = (long)c + lb;
	} else if ((*nelems = get_length(in, *nbits, repeat)) < 0) {
		return UPER_STARVED;
	}
	return UPER_OK;
}

static ALWAYS_INLINE int list_elems_c(reader *r, asn_anonymous_set_ *list, uper_in *in,
                                      uper_dec_f *edec, const uper_node *elem, gen_dec_f *gdec,
                                      unsigned gdepth, int nbits, long nelems, int repeat)
{
	for (;;) {
		for (long i = 0; i < nelems; i++) {
			void *ptr = NULL;
			int rc = gdec ? gdec(r, &ptr, in, gdepth) : edec(r, elem, &ptr, in);
			if (rc != UPER_OK)
				return rc;
			if (list->count == list->size) {
				/* Most lists are short: their first array, of 4, is carved. */
				if (!list->size && !list->array && nelems - i <= 4) {
					if (!(list->array = carve_array(r, 4)))
						return UPER_FAIL;
					list->size = 4;
				} else if (list_grow(r, list, nelems - i) != UPER_OK) {
					return UPER_FAIL;
				}
			}
			list->array[list->count++] = ptr;
		}
		if (!repeat)
			return UPER_OK;
		if ((nelems = get_length(in, nbits, &repeat)) < 0)
			return UPER_STARVED;
	}
}

static ALWAYS_INLINE int list_c(reader *r, void **sptr, uper_in *in, uper_dec_f *edec,
                                const uper_node *elem, gen_dec_f *gdec, unsigned gdepth,
                                int extensible, int nbits, long lb, size_t struct_size)
{
	asn_anonymous_set_ *list;
	long nelems;
	int repeat;
	int rc = list_head_c(r, sptr, in, extensible, &nbits, lb, struct_size, &list, &nelems, &repeat);
	if (rc != UPER_OK)
		return rc;
	return list_elems_c(r, list, in, edec, elem, gdec, gdepth, nbits, nelems, repeat);
}

static inline int dec_list_body(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	const uper_node *elem = n->fields->node;
	return list_c(r, sptr, in, elem->dec, elem, NULL, 0, n->extensible, n->nbits, n->lb,
	              n->struct_size);
}

/*
 * String buffers get WR_SLACK bytes past their last unit (besides the NUL),
 * so that get_bytes() can store whole 8-byte words.
 */
#define WR_SLACK 7

/* 8-bit units from any bit offset; the caller checked they are there. */
static ALWAYS_INLINE void get_bytes(uper_in *in, uint8_t *dst, size_t count)
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

/* n characters of ub_bits each, lb added, several per 64-bit load (the input
 * holds them all): 0, or 1 at a character above ub. */
static ALWAYS_INLINE int unpack_chars(uper_in *in, uint8_t *buf, size_t n, unsigned ub_bits,
                                      long lb, long ub)
{
	unsigned per = 57 / ub_bits; /* characters per 64-bit load */
	for (size_t i = 0; i < n;) {
		uint64_t w = rd_load(in, in->pos >> 3) << (in->pos & 7);
		size_t k = n - i < per ? n - i : per;
		for (size_t j = 0; j < k; j++, i++) {
			long ch = (long)(w >> (64 - ub_bits)) + lb;
			if (ch > ub)
				return 1;
			buf[i] = (uint8_t)ch;
			w <<= ub_bits;
		}
		in->pos += k * ub_bits;
	}
	return 0;
}

/*
 * asn1c OCTET_STRING_per_get_characters without translation maps: 0 ok,
 * -1 starved, 1 a character above the bound. asn1c goes a character at a
 * time, so a bad character before the input runs out is a failure.
 */
__attribute__((noinline)) static int get_chars_short(uper_in *in, uint8_t *buf, size_t units,
                                                     unsigned ub_bits, long lb, long ub)
{
	size_t avail = uin_left(in) / ub_bits;
	size_t have = units < avail ? units : avail;
	int rc = unpack_chars(in, buf, have, ub_bits, lb, ub);
	return rc ? rc : have < units ? -1 : 0;
}

/* get_chars_short() when all the units are there: with constant arguments
 * (a fixed size) the loops unroll and an unreachable bound check folds. */
static ALWAYS_INLINE int get_chars(uper_in *in, uint8_t *buf, size_t units, unsigned ub_bits,
                                   long lb, long ub)
{
	if (lb == 0 && ub_bits == 8) {
		if (units * 8 > uin_left(in))
			return -1;
		get_bytes(in, buf, units);
		return 0;
	}
	if (__builtin_expect(units * ub_bits > uin_left(in), 0))
		return get_chars_short(in, buf, units, ub_bits, lb, ub);
	return unpack_chars(in, buf, units, ub_bits, lb, ub);
}

static int get_bits(uper_in *in, uint8_t *dst, size_t nbits)
{
	if (nbits > uin_left(in))
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
__attribute__((noinline)) static int octets_fragments(reader *r, BIT_STRING_t *st, uper_in *in,
                                                      int bits, int nbits, long lb, unsigned unit_bits,
                                                      long clb, long cub, long raw)
{
	int repeat = 1;
	for (;;) {
		raw += lb;
		size_t len_bytes = bits ? ((size_t)raw + 7) >> 3 : (size_t)raw;
		if (bits && (raw & 7))
			st->bits_unused = 8 - (int)(raw & 7);
		uint8_t *p = reader_realloc(r, st->buf, (size_t)st->size + len_bytes + 1 + WR_SLACK);
		if (!p)
			return UPER_FAIL;
		st->buf = p;
		int rc = bits ? get_bits(in, p + st->size, (size_t)raw)
		              : get_chars(in, p + st->size, (size_t)raw, unit_bits, clb, cub);
		if (rc)
			return rc > 0 ? UPER_FAIL : UPER_STARVED;
		st->size += (int)len_bytes;
		p[st->size] = 0;
		if (!repeat)
			return UPER_OK;
		if ((raw = get_length(in, nbits, &repeat)) < 0)
			return UPER_STARVED;
	}
}

/* OCTET STRING and kin, BIT STRING; the node's numbers as arguments (see list_c). */
static ALWAYS_INLINE int octets_c(reader *r, void **sptr, uper_in *in, int bits, int extensible,
                                  int nbits, long lb, long ub, unsigned unit_bits, long clb,
                                  long cub, size_t struct_size)
{
	BIT_STRING_t *st = *sptr;
	if (!st && !(st = *sptr = alloc_zero(r, struct_size)))
		return UPER_FAIL;
	if (extensible) {
		int64_t b = rd_get(in, 1);
		if (b < 0)
			return UPER_STARVED;
		if (b) {
			nbits = octets_default.size.effective_bits;
			lb = octets_default.size.lower_bound;
			ub = octets_default.size.upper_bound;
			clb = 0;
			cub = octets_default.value.upper_bound;
			unit_bits = bits ? 1 : 8;
		}
	}
	if (nbits == 0) {
		size_t units = (size_t)ub;
		size_t size = bits ? (units + 7) >> 3 : units;
		if (!(st->buf = carve(r, size + 1 + WR_SLACK)))
			return UPER_FAIL;
		st->size = (int)size;
		int rc = bits ? get_bits(in, st->buf, units) : get_chars(in, st->buf, units, unit_bits, clb, cub);
		if (rc)
			return rc > 0 ? UPER_FAIL : UPER_STARVED;
		st->buf[size] = 0;
		if (bits)
			st->bits_unused = (units & 7) ? 8 - (int)(units & 7) : 0;
		return UPER_OK;
	}
	st->buf = NULL;
	st->size = 0;
	int repeat;
	long raw = get_length(in, nbits, &repeat);
	if (raw < 0)
		return UPER_STARVED;
	if (__builtin_expect(repeat, 0))
		return octets_fragments(r, st, in, bits, nbits, lb, unit_bits, clb, cub, raw);
	raw += lb;
	size_t len_bytes = bits ? ((size_t)raw + 7) >> 3 : (size_t)raw;
	if (bits && (raw & 7))
		st->bits_unused = 8 - (int)(raw & 7);
	uint8_t *p = carve(r, len_bytes + 1 + WR_SLACK);
	if (!p)
		return UPER_FAIL;
	st->buf = p;
	int rc = bits ? get_bits(in, p, (size_t)raw) : get_chars(in, p, (size_t)raw, unit_bits, clb, cub);
	if (rc)
		return rc > 0 ? UPER_FAIL : UPER_STARVED;
	st->size = (int)len_bytes;
	p[len_bytes] = 0;
	return UPER_OK;
}

static int dec_octets(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	return octets_c(r, sptr, in, n->kind == UK_BITS, n->extensible, n->nbits, n->lb, n->ub,
	                n->unit_bits, n->clb, n->cub, n->struct_size);
}

/* A constrained whole number of nbits bits from lb up (see list_c). */
static ALWAYS_INLINE int native_int_c(reader *r, void **sptr, uper_in *in, unsigned nbits, long lb)
{
	long *native = *sptr;
	if (!native && !(native = *sptr = carve(r, sizeof *native)))
		return UPER_FAIL;
	if (nbits > uin_left(in))
		return UPER_STARVED;
	/* Past 32 bits only where long has 64 (the range fits in a long). */
	uint64_t v;
	if (nbits <= 32) {
		v = rd_peek(in, nbits);
	} else {
		v = (uint64_t)rd_peek(in, nbits - 32) << 32;
		in->pos += nbits - 32;
		v |= rd_peek(in, 32);
		nbits = 32;
	}
	in->pos += nbits;
	*native = (long)((unsigned long)v + (unsigned long)lb);
	return UPER_OK;
}

static inline int dec_native_int(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	return native_int_c(r, sptr, in, (unsigned)n->nbits, n->lb);
}

static ALWAYS_INLINE int native_enum_c(reader *r, const asn_INTEGER_specifics_t *sp, void **sptr,
                                       uper_in *in, int extensible, int nbits)
{
	long *native = *sptr;
	if (!native && !(native = *sptr = carve(r, sizeof *native)))
		return UPER_FAIL;
	int root = nbits >= 0;
	if (extensible) {
		int64_t b = rd_get(in, 1);
		if (b < 0)
			return UPER_STARVED;
		if (b)
			root = 0;
	}
	long value;
	if (root) {
		int64_t v = rd_get(in, (unsigned)nbits);
		if (v < 0)
			return UPER_STARVED;
		if (v >= (sp->extension ? sp->extension - 1 : sp->map_count))
			return UPER_FAIL;
		value = (long)v;
	} else {
		if (!sp->extension)
			return UPER_FAIL;
		value = get_nsnnwn(in);
		if (value < 0)
			return UPER_STARVED;
		value += sp->extension - 1;
		if (value >= sp->map_count)
			return UPER_FAIL;
	}
	*native = sp->value2enum[value].nat_value;
	return UPER_OK;
}

static int dec_native_enum(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	return native_enum_c(r, n->enums, sptr, in, n->extensible, n->nbits);
}

/* Constructed values count towards the depth bound. */
#define DEPTH_BOUNDED(name)                                                             \
	static int name(reader *r, const uper_node *n, void **sptr, uper_in *in)        \
	{                                                                               \
		if (++r->depth > r->max_depth)                                          \
			return UPER_FAIL;                                               \
		int rc = name##_body(r, n, sptr, in);                                   \
		r->depth--;                                                             \
		return rc;                                                              \
	}
DEPTH_BOUNDED(dec_sequence)
DEPTH_BOUNDED(dec_choice)
DEPTH_BOUNDED(dec_list)

static ALWAYS_INLINE int boolean_c(reader *r, void **sptr, uper_in *in)
{
	BOOLEAN_t *b = *sptr;
	if (!b && !(b = *sptr = carve(r, sizeof *b)))
		return UPER_FAIL;
	int64_t v = rd_get(in, 1);
	if (v < 0)
		return UPER_STARVED;
	*b = (BOOLEAN_t)v;
	return UPER_OK;
}

static int dec_boolean(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	(void)n;
	return boolean_c(r, sptr, in);
}

static ALWAYS_INLINE int null_c(reader *r, void **sptr)
{
	if (!*sptr && !(*sptr = alloc_zero(r, sizeof(NULL_t))))
		return UPER_FAIL;
	return UPER_OK;
}

static int dec_null(reader *r, const uper_node *n, void **sptr, uper_in *in)
{
	(void)n;
	(void)in;
	return null_c(r, sptr);
}

int uper_read(const uper_node *rootn, void **sptr, const unsigned char *buf, size_t len,
              struct megaco_arena *arena, unsigned max_depth, size_t *consumed)
{
	reader r = { arena, 0, max_depth, NULL, NULL };
	/* The copy with RD_SLACK bytes of slack that rd_load() relies on. */
	unsigned char local[4096];
	unsigned char *copy = local;
	if (len > sizeof local - RD_SLACK) {
		/* Large inputs: a heap copy, released before returning. */
		copy = len > SIZE_MAX - RD_SLACK ? NULL
		                                 : arena->al->alloc(arena->al->user_data, len + RD_SLACK);
		if (!copy) {
			arena->failed = 1;
			return UPER_FAIL;
		}
	}
	memcpy(copy, buf, len);
	memset(copy + len, 0, RD_SLACK);
	uper_in in = { copy, len + RD_SLACK, 0, len * 8 };
	r.cur = arena_tail_take(arena, 0, &r.lim);
	int rc = r.cur ? dec(&r, rootn, sptr, &in) : UPER_FAIL;
	arena_tail_return(arena, r.cur);
	if (copy != local)
		arena->al->free(arena->al->user_data, copy);
	if (rc != UPER_OK)
		return rc;
	/* asn1c uper_decode_complete: a zero-bit value must be one zero octet. */
	if (in.pos == 0) {
		if (!len)
			return UPER_STARVED;
		if (buf[0] != 0)
			return UPER_FAIL;
		*consumed = 1;
		return UPER_OK;
	}
	*consumed = (in.pos + 7) >> 3;
	return UPER_OK;
}

#if defined(MEGACO_UPER_READ_GEN) || defined(UPER_READ_GENERATOR)
/*
 * What a generated decoder bakes in about its node (and its members' nodes),
 * hashed (FNV-1a): equal signatures mean the generator saw the same graph.
 */
static uint64_t node_sig(const uper_node *n)
{
	uint64_t h = 0xcbf29ce484222325u;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3u)
	MIX(n->kind);
	MIX(n->extensible);
	MIX(n->unsigned_int);
	MIX(n->raw);
	MIX(n->nbits);
	MIX(n->lb);
	MIX(n->ub);
	MIX(n->unit_bits);
	MIX(n->clb);
	MIX(n->cub);
	MIX(n->nfields);
	MIX(n->roms);
	MIX(n->ext_start);
	MIX(n->pres_offset);
	MIX(n->pres_size);
	MIX(n->struct_size);
	for (int i = 0; i < n->nfields; i++) {
		const uper_field *f = &n->fields[i];
		MIX(f->node - nodes);
		MIX(f->offset);
		MIX(f->ptr);
		MIX(f->optional);
		MIX(f->ext);
		MIX(f->in_root);
	}
#undef MIX
	return h;
}
#endif

#if defined(MEGACO_UPER_READ_GEN) && !defined(UPER_READ_GENERATOR)
/* One decoder per node, specialised at build time (tools/gen/uper_read_gen.c). */
#include "uper_read_gen.inc"

/* The generated decoders replace the table walk's only for the graph they were made from. */
static void install_generated(void)
{
	if (nnodes != UPER_GEN_NNODES)
		return;
	for (int i = 0; i < nnodes; i++)
		if (node_sig(&nodes[i]) != uper_gen_sig[i])
			return;
	for (int i = 0; i < nnodes; i++)
		if (uper_gen_dec[i])
			nodes[i].dec = uper_gen_dec[i];
}
#endif

static void prepare(void)
{
	module_root = build(&asn_DEF_MegacoMessage, NULL);
#if defined(MEGACO_UPER_READ_GEN) && !defined(UPER_READ_GENERATOR)
	if (module_root)
		install_generated();
#endif
	atomic_store_explicit(&root_ready, module_root, memory_order_release);
}

const uper_node *uper_root(void)
{
	const uper_node *root = atomic_load_explicit(&root_ready, memory_order_acquire);
	if (root)
		return root;
	pthread_once(&root_once, prepare);
	return module_root;
}
