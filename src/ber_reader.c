/*
 * BER decode stage (BER bytes -> model), driven by asn1c's type descriptors.
 * asn1c 0.9.28's ber_decode() is written to resume on partial input: every
 * node keeps a decoding context, every member goes through an indirect
 * decoder call, tag lookups bsearch(), lists and strings grow by realloc.
 * Here the whole message is in memory, so each value is read in one
 * recursive pass over tables compiled once from the descriptors, and its
 * nodes come from a bump region of the message arena. The rules below
 * mirror asn1c's *_decode_ber functions (named at each) so that the inputs
 * accepted and the structures built are the same. On the way it checks the
 * TLV structure as ber_scan() does, so that the caller needs that separate
 * pass only for the rare forms flagged in needs_scan and to classify errors.
 * Every read is bounded by its container; nothing relies on ber_scan().
 * The common forms (definite lengths in up to three octets, one-octet
 * tags, members in order) take fast paths that check only what they need;
 * anything else falls back, unchanged, to the general code of its kind.
 * For MegacoMessage, the same fast paths also exist as one generated
 * function per SEQUENCE, list and CHOICE, with the member layout as
 * constants (tools/gen/ber_read_gen.c, used only if these tables match
 * the ones it was made from); they hand everything else to this code.
 *
 * Every read_* takes the position p of a value and the end lim of what its
 * container leaves it, and returns the position after the value or NULL.
 */
#include "ber_reader.h"
#include "internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "BIT_STRING.h"
#include "MegacoMessage.h"
#include "BOOLEAN.h"
#include "INTEGER.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "asn_codecs_prim.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"

#define NOINLINE __attribute__((noinline))
#define COLD __attribute__((noinline, cold))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* asn1c checks its recursion against this much stack (bytes), as ber_codec.c gives it. */
#define ASN1C_STACK_LIMIT (256u << 10)

/* Nodes come from regions (then doubling, up to MAX_REGION); see ber_read(). */
#ifndef REGION_PER_BYTE
#define REGION_PER_BYTE 16u
#endif
#ifndef MIN_REGION
#define MIN_REGION 256u
#endif
#ifndef FIRST_REGION
#define FIRST_REGION 6144u
#endif
#define MAX_REGION ((size_t)64 << 10)
/*
 * The table walk's nodes are zeroed this far ahead of need: a typical
 * message's model in one or two memset() calls, each short enough for its
 * vector loop (glibc switches to rep stosb at 2 KiB). The generated
 * readers' nodes, of constant sizes, zero themselves in line (new_node()).
 */
#ifndef ZERO_AHEAD
#define ZERO_AHEAD 1024u
#endif

typedef struct reader {
	megaco_arena *arena;
	unsigned char *cur, *end; /* bump region for nodes and string contents */
	unsigned char *zend;      /* [cur, zend) is zeroed (nothing is when zend <= cur) */
	size_t next_region;
	unsigned depth;     /* constructed TLVs open (as ber_scan() counts them) */
	unsigned max_depth; /* ber_scan()'s limit, whose error the caller then reports */
	int nomem;
	int needs_scan;     /* met a form whose structure ber_scan() checks and this file does not */
	const unsigned char *fail_at; /* first position a read_* gave up at */
	const unsigned char *in_end;  /* the end of the message: what may be read ahead to */
} reader;

typedef const unsigned char *pos;

static COLD pos fail(reader *r, pos p)
{
	if (!r->fail_at)
		r->fail_at = p;
	return NULL;
}

/* ---- memory ----------------------------------------------------------------------------- */

static NOINLINE int new_region(reader *r, size_t need)
{
	size_t size = r->next_region > need ? r->next_region : need;
	size = (size + 7) & ~(size_t)7; /* its end 8-aligned too: see node() */
	/* arena_realloc(NULL) is the arena's allocation without zeroing. */
	unsigned char *b = arena_realloc(r->arena, NULL, size);
	if (!b) {
		r->nomem = 1;
		return -1;
	}
	r->cur = r->zend = b;
	r->end = b + size;
	if (r->next_region < MAX_REGION)
		r->next_region *= 2;
	return 0;
}

/*
 * The node [c, cur) zeroed, and the region a little past it: one memset()
 * for several nodes. What lies below c is in use, whatever zend says.
 */
static NOINLINE void zero_ahead(reader *r, unsigned char *c)
{
	unsigned char *from = r->zend > c ? r->zend : c, *to = r->cur + ZERO_AHEAD;
	if (to > r->end)
		to = r->end;
	memset(from, 0, (size_t)(to - from));
	r->zend = to;
}

/*
 * A zeroed node (asn1c: CALLOC(1, struct_size)); 8-byte aligned is all
 * asn1c's types need. A region's start, end and cur stay 8-aligned (bytes()
 * rounds up), so that a node needs no aligning and one comparison. It is
 * zeroed in line (arena_zero(): a few stores when size is a constant, as in
 * the generated readers) or by zero_ahead()'s memset(), which then starts
 * past it (zend left behind).
 */
static ALWAYS_INLINE void *new_node(reader *r, size_t size, int in_line)
{
	size = (size + 7) & ~(size_t)7;
	if (UNLIKELY((size_t)(r->end - r->cur) < size) && new_region(r, size) != 0)
		return NULL;
	unsigned char *c = r->cur;
	r->cur += size;
	if (in_line)
		arena_zero(c, size);
	else if (UNLIKELY(r->cur > r->zend))
		zero_ahead(r, c);
	return c;
}

static inline void *node(reader *r, size_t size) { return new_node(r, size, 0); }

/* Raw bytes for string contents (then cur rounded up to 8, see node()). */
static inline unsigned char *bytes(reader *r, size_t size)
{
	if (UNLIKELY((size_t)(r->end - r->cur) < size) && new_region(r, size) != 0)
		return NULL;
	unsigned char *b = r->cur;
	r->cur += (size + 7) & ~(size_t)7; /* contents are written over: zend may stay behind */
	return b;
}

/* ---- identifier and length octets (ber_fetch_tag, ber_fetch_length) ---------------------- */

static NOINLINE pos get_tag_long(reader *r, pos p, pos lim, ber_tlv_tag_t *tag)
{
	r->needs_scan = 1; /* ber_scan() limits the form (no leading 0x80, 4 octets at most) */
	ber_tlv_tag_t val = 0, cls = (ber_tlv_tag_t)(p[0] >> 6);
	for (pos q = p + 1; q < lim; q++) {
		unsigned oct = *q;
		val = (val << 7) | (oct & 0x7f);
		if (!(oct & 0x80)) {
			*tag = (val << 2) | cls;
			return q + 1;
		}
		if (val >> (8 * sizeof(val) - 9))
			return NULL; /* more bits than asn1c keeps */
	}
	return NULL;
}

/* A tag in asn1c's form: number << 2 | class. */
static inline pos get_tag(reader *r, pos p, pos lim, ber_tlv_tag_t *tag)
{
	if (UNLIKELY(p >= lim))
		return NULL;
	unsigned b = *p;
	if (LIKELY((b & 0x1f) != 0x1f)) {
		*tag = (ber_tlv_tag_t)((b & 0x1f) << 2 | b >> 6);
		return p + 1;
	}
	return get_tag_long(r, p, lim, tag);
}

static NOINLINE pos get_len_long(reader *r, pos p, pos lim, int constructed, ssize_t *len)
{
	unsigned oct = *p;
	/* One or two length octets: what a long definite length nearly always has. */
	if (oct == 0x81 && lim - p > 1) {
		*len = p[1];
		return p + 2;
	}
	if (oct == 0x82 && lim - p > 2) {
		*len = (ssize_t)((unsigned)p[1] << 8 | p[2]);
		return p + 3;
	}
	if (oct > 0x84 || (!constructed && oct == 0x80))
		r->needs_scan = 1; /* ber_scan() rejects both */
	if (constructed && oct == 0x80) {
		*len = -1;
		return p + 1;
	}
	if (oct == 0xff)
		return NULL; /* reserved */
	/* A primitive 0x80 is a long form with no octets: length 0, as asn1c reads it. */
	size_t v = 0;
	for (oct &= 0x7f, p++; oct; oct--, p++) {
		if (p >= lim)
			return NULL;
		v = (v << 8) | *p;
		if (v > (size_t)SSIZE_MAX || ((v >> (8 * sizeof(v) - 8)) && oct > 1))
			return NULL;
	}
	if (v + 1024 > (size_t)SSIZE_MAX)
		return NULL;
	*len = (ssize_t)v;
	return p;
}

/* A length; -1 for the indefinite form (constructed values only). */
static inline pos get_len(reader *r, pos p, pos lim, int constructed, ssize_t *len)
{
	if (UNLIKELY(p >= lim))
		return NULL;
	if (LIKELY(*p < 0x80)) {
		*len = *p;
		return p + 1;
	}
	return get_len_long(r, p, lim, constructed, len);
}

/* ber_skip_length: past one whole TLV whose tag ends at p. */
static pos skip_value(reader *r, pos tlv, pos p, pos lim)
{
	ssize_t len;
	int constructed = (*tlv & 0x20) != 0;
	r->needs_scan = 1; /* what is skipped is not looked at as closely as ber_scan() does */
	if (!(p = get_len(r, p, lim, constructed, &len)))
		return NULL;
	if (len >= 0)
		return len <= lim - p ? p + len : NULL;
	if (++r->depth > r->max_depth)
		return NULL;
	for (;;) {
		ber_tlv_tag_t tag;
		pos at = p;
		if (!(p = get_tag(r, p, lim, &tag)) || !(p = skip_value(r, at, p, lim)))
			return NULL;
		if (at[0] == 0 && at[1] == 0) { /* end-of-contents, after reading it as a TLV */
			r->depth--;
			return p;
		}
	}
}

/* ---- compiled types --------------------------------------------------------------------- */

/*
 * What the hot path needs of a descriptor, gathered once per process: the
 * kind, first tag, node size and the members at 32 bytes each, so that a
 * value costs a cache line or two of metadata rather than a walk through
 * asn1c's descriptor, specifics, tag and member tables (64 bytes a member).
 * The descriptors stay the reference for the rest (tag2el maps, extension
 * bounds, tag lists).
 */
enum { K_OTHER, K_SEQUENCE, K_LIST, K_CHOICE, K_STRING, K_INT, K_BOOL, K_PRIM };

typedef struct rtype rtype;

typedef struct rmember {
	const rtype *type;
	ber_tlv_tag_t tag;     /* outermost tag; (ber_tlv_tag_t)-1 for an untagged CHOICE */
	int offset;
	int optional;          /* asn1c: this and the following optional members */
	signed char tag_mode;
	unsigned char pointer; /* ATF_POINTER */
	unsigned char kind;    /* type->kind, here to pick the reader one load sooner */
	unsigned char fast;    /* F_*: how read_member() reads it */
	unsigned char special; /* untagged CHOICE or open type: find_member() decides */
	unsigned char may_end; /* a SEQUENCE may end before this member (may_end()) */
	unsigned char empty_ok; /* may be empty, read in line: see empty_ok() */
	unsigned char idc;     /* tag as one identifier octet, constructed bit set; 0 if none */
	unsigned char plain;   /* one tag in all, its type's own (checked) or an IMPLICIT one */
} rmember;

/*
 * What read_member() does with a member: the common primitives are read in
 * line (bailing out to read_value() on any but the plainest form), the
 * constructed kinds are called directly.
 */
enum { F_GENERIC, F_STRING, F_INT, F_BOOL, F_SEQUENCE, F_LIST, F_CHOICE };

struct rtype {
	unsigned char kind;
	unsigned char one_tag;     /* exactly one tag of its own: tag0 */
	unsigned char bit;         /* BIT STRING */
	unsigned char is_unsigned; /* NativeInteger kept unsigned */
	unsigned char no_tags;     /* none of its own (an untagged CHOICE) */
	ber_tlv_tag_t tag0;
	int size;                  /* node size */
	int count;                 /* members (the item for a list) */
	const rmember *m;
	asn_TYPE_descriptor_t *td;
	/* CHOICE: where the alternative's number goes, and the tag map */
	int pres_offset;
	unsigned char pres_size;
	unsigned char direct_map;  /* map[i] has tag number i, all distinct: index by it */
	const asn_TYPE_tag2member_t *map;
	int map_count;
};

/* Room for ten times the H.248 v3 module; a root past it is decoded by asn1c. */
#define MAX_TYPES 2048
#define MAX_MEMBERS 8192
#define MAP_SIZE 4096 /* a power of 2, well above MAX_TYPES */

static rtype types[MAX_TYPES];
static rmember members[MAX_MEMBERS];
static unsigned ntypes, nmembers;
static rtype *type_map[MAP_SIZE]; /* by descriptor address, open addressing */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;
static const rtype *_Atomic last_root;

static int runtime_free(asn_struct_free_f *f);
static int may_end(const asn_TYPE_descriptor_t *td, int edx);

static rtype **map_slot(const asn_TYPE_descriptor_t *td)
{
	size_t h = (size_t)(((uintptr_t)td >> 4) * 0x9E3779B97F4A7C15u >> 20);
	for (;; h++) {
		rtype **e = &type_map[h & (MAP_SIZE - 1)];
		if (!*e || (*e)->td == td)
			return e;
	}
}

/*
 * The member's F_* kind. A primitive is read in line only where read_tags()
 * would take its one-tag path and check the tag against the member's own.
 */
static unsigned char fast_kind(const rmember *m)
{
	const rtype *t = m->type;
	switch (t->kind) {
	case K_SEQUENCE: return F_SEQUENCE;
	case K_LIST: return F_LIST;
	case K_CHOICE: return F_CHOICE;
	default: break;
	}
	if (!t->one_tag || m->tag_mode == 1 || (m->tag_mode == 0 && m->tag != t->tag0))
		return F_GENERIC;
	if (t->kind == K_STRING && !t->bit)
		return F_STRING;
	if (t->kind == K_INT)
		return F_INT;
	if (t->kind == K_BOOL)
		return F_BOOL;
	return F_GENERIC;
}

/* Whether read_tags() takes m's tag in one step: rmember.plain. */
static unsigned char plain_tag(const rmember *m)
{
	const rtype *t = m->type;
	return t->one_tag && (m->tag_mode == -1 || (m->tag_mode == 0 && m->tag == t->tag0));
}

/*
 * Whether read_member() may take an empty value of m's type (a short tag of
 * its own or an IMPLICIT one, contents of length 0) without read_sequence()
 * or read_list(): a list, or a SEQUENCE whose members are all optional.
 * A type still being compiled (a recursion) shows no optional first member
 * yet, and is merely read the longer way.
 */
static unsigned char empty_ok(const rmember *m)
{
	const rtype *t = m->type;
	if (!t->one_tag || m->tag_mode == 1 || (m->tag_mode == 0 && m->tag != t->tag0))
		return 0;
	if (t->kind == K_LIST)
		return 1;
	return t->kind == K_SEQUENCE && t->m && (t->count == 0 || t->m[0].may_end);
}

/* The compiled form of td and everything below it; NULL when the tables are full. */
static rtype *compile(asn_TYPE_descriptor_t *td)
{
	rtype **e = map_slot(td);
	if (*e)
		return *e;
	if (ntypes == MAX_TYPES)
		return NULL;
	/*
	 * A derived type (PkgdName ::= OCTET STRING (SIZE(4)), ...) points at
	 * generated wrappers until asn1c first uses it; each wrapper copies the
	 * base type's functions into the descriptor and calls through. Calling
	 * the free wrapper on NULL does just the copy (every base free ignores
	 * NULL), as asn1c's first use would.
	 */
	for (int i = 0; i < 4 && !runtime_free(td->free_struct); i++)
		td->free_struct(td, NULL, 0);
	rtype *t = &types[ntypes++];
	*e = t;
	t->td = td;
	t->one_tag = td->tags_count == 1;
	t->no_tags = td->tags_count == 0;
	t->tag0 = td->tags_count ? td->tags[0] : 0;
	ber_type_decoder_f *k = td->ber_decoder;
	const asn_OCTET_STRING_specifics_t *os = td->specifics;
	if (k == SEQUENCE_decode_ber) {
		t->kind = K_SEQUENCE;
		t->size = ((const asn_SEQUENCE_specifics_t *)td->specifics)->struct_size;
	} else if (k == SET_OF_decode_ber) {
		t->kind = K_LIST;
		t->size = ((const asn_SET_OF_specifics_t *)td->specifics)->struct_size;
	} else if (k == CHOICE_decode_ber) {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		t->kind = K_CHOICE;
		t->size = cs->struct_size;
		t->pres_offset = cs->pres_offset;
		t->pres_size = (unsigned char)cs->pres_size;
		t->map = cs->tag2el;
		t->map_count = cs->tag2el_count;
		t->direct_map = 1;
		for (int i = 0; i < cs->tag2el_count; i++)
			if (BER_TAG_VALUE(cs->tag2el[i].el_tag) != (ber_tlv_tag_t)i ||
			    (i && cs->tag2el[i].el_tag == cs->tag2el[i - 1].el_tag))
				t->direct_map = 0;
	} else if (k == OCTET_STRING_decode_ber && !(os && os->subvariant == ASN_OSUBV_ANY)) {
		t->kind = K_STRING;
		t->bit = os && os->subvariant == ASN_OSUBV_BIT;
		t->size = os ? os->struct_size : (int)sizeof(OCTET_STRING_t);
	} else if (k == NativeInteger_decode_ber) {
		const asn_INTEGER_specifics_t *is = td->specifics;
		t->kind = K_INT;
		t->is_unsigned = is && is->field_unsigned;
		t->size = sizeof(long);
	} else if (k == BOOLEAN_decode_ber) {
		t->kind = K_BOOL; /* NULL too */
		t->size = sizeof(BOOLEAN_t);
	} else if (k == ber_decode_primitive) {
		t->kind = K_PRIM;
		t->size = sizeof(ASN__PRIMITIVE_TYPE_t);
	} else {
		t->kind = K_OTHER; /* asn1c decodes these */
		return t;
	}
	if (t->kind != K_SEQUENCE && t->kind != K_LIST && t->kind != K_CHOICE)
		return t;
	int n = td->elements_count;
	if (n < 0 || (unsigned)n > MAX_MEMBERS - nmembers)
		return NULL;
	rmember *m = &members[nmembers];
	nmembers += (unsigned)n;
	t->m = m;
	t->count = n;
	for (int i = 0; i < n; i++) {
		const asn_TYPE_member_t *el = &td->elements[i];
		m[i].tag = el->tag;
		m[i].offset = el->memb_offset;
		m[i].optional = el->optional;
		m[i].tag_mode = (signed char)el->tag_mode;
		m[i].pointer = (el->flags & ATF_POINTER) != 0;
		if (!(m[i].type = compile(el->type)))
			return NULL;
		m[i].kind = m[i].type->kind;
		m[i].fast = fast_kind(&m[i]);
		m[i].empty_ok = empty_ok(&m[i]);
		m[i].plain = plain_tag(&m[i]);
		m[i].special = el->tag == (ber_tlv_tag_t)-1 || (el->flags & ATF_OPEN_TYPE);
		m[i].may_end = t->kind == K_SEQUENCE && may_end(td, i);
		if (el->tag != (ber_tlv_tag_t)-1 && BER_TAG_VALUE(el->tag) < 31)
			m[i].idc = (unsigned char)(BER_TAG_CLASS(el->tag) << 6 | 0x20 |
			                           BER_TAG_VALUE(el->tag));
	}
	return t;
}

/* td and everything below it compiled, or nothing at all (the tables full). Under compile_lock. */
static rtype *compile_root(asn_TYPE_descriptor_t *td)
{
	unsigned nt = ntypes, nm = nmembers;
	rtype *t = compile(td);
	if (!t) {
		/* Drop the partial tables (the map's entries for them first). */
		for (unsigned i = nt; i < ntypes; i++)
			*map_slot(types[i].td) = NULL;
		ntypes = nt;
		nmembers = nm;
	}
	return t;
}

/*
 * The module's own tables: MegacoMessage is compiled before any other root,
 * so that its types and members sit at the same indices in every process,
 * those the generated readers were made from. Written under compile_lock
 * before the first store to last_root, read after compiled() (which loads
 * last_root with acquire, or takes the lock): no further ordering needed.
 */
static unsigned module_ntypes, module_nmembers;
static int gen_ready; /* the generated readers match the tables (HAVE_BER_GEN) */

static int generated_matches(void);

/* td compiled, once per process and root type; NULL if it does not fit the tables. */
static const rtype *compiled(asn_TYPE_descriptor_t *td)
{
	const rtype *t = atomic_load_explicit(&last_root, memory_order_acquire);
	if (LIKELY(t && t->td == td))
		return t;
	pthread_mutex_lock(&compile_lock);
	if (!module_ntypes && compile_root(&asn_DEF_MegacoMessage)) {
		module_ntypes = ntypes;
		module_nmembers = nmembers;
		gen_ready = generated_matches();
	}
	t = compile_root(td);
	if (t)
		atomic_store_explicit(&last_root, t, memory_order_release);
	pthread_mutex_unlock(&compile_lock);
	return t;
}

/* ---- tags of a value (ber_check_tags) ---------------------------------------------------- */

/*
 * Every read_* gets its value's first identifier octets already read by the
 * container, which needed them to pick the member: p is the value, q the
 * position after its first tag, tag that tag.
 */
#define HEAD pos p, pos q, ber_tlv_tag_t tag

/*
 * The TLV headers of td's own tags, the outermost replaced by an IMPLICIT tag
 * (tag_mode -1) or preceded by an EXPLICIT one (+1); that first tag is the
 * caller's to have matched. last_form: the innermost must be primitive (0),
 * constructed (1) or either (-1). Returns the position of the contents, with
 * *left their length (checked to fit before lim) or minus the number of
 * indefinite levels (asn1c allows no mix), *constr the innermost form and
 * *nc the number of constructed headers read. Contents longer than what is
 * left fail, as they do in the end in asn1c, but when lenient (a CHOICE:
 * asn1c's ends early after an unknown extension, never finding out).
 */
static NOINLINE pos read_tags_slow(reader *r, const asn_TYPE_descriptor_t *td, pos p, pos lim,
                                   int tag_mode, int last_form, int lenient, ssize_t *left,
                                   int *constr, unsigned *nc)
{
	int n = td->tags_count, tagno = tag_mode == 1 ? -1 : 0, indef = 0, c = 0;
	ssize_t limit_len = -1, len = 0;
	pos outer_lim = lim;
	*nc = 0;
	if (tag_mode == 0 && n == 0)
		return NULL; /* untagged ANY: not read here */
	for (int step = 0; tagno < n; tagno++, step++) {
		ber_tlv_tag_t t;
		pos q = get_tag(r, p, lim, &t);
		if (!q)
			return NULL;
		c = (*p & 0x20) != 0;
		if (!(tag_mode != 0 && step == 0) && t != td->tags[tagno])
			return NULL;
		if (tagno < n - 1) {
			if (!c)
				return NULL;
		} else if (last_form != -1 && last_form != c) {
			return NULL;
		}
		if (!(q = get_len(r, q, lim, c, &len)))
			return NULL;
		*nc += (unsigned)c;
		ssize_t hl = q - p;
		p = q;
		if (len == -1) {
			if (limit_len != -1)
				return NULL; /* indefinite inside definite */
			indef++;
			continue;
		}
		if (indef)
			return NULL; /* definite inside indefinite */
		if (limit_len == -1)
			limit_len = len + hl;
		else if (limit_len != len + hl)
			return NULL; /* inner length disagrees with the outer one */
		limit_len -= hl;
		if (lim - p > limit_len)
			lim = p + limit_len;
	}
	if (indef) {
		*left = -indef;
	} else {
		if (len > outer_lim - p && !lenient)
			return NULL;
		*left = len;
	}
	*constr = c;
	return p;
}

static inline pos read_tags(reader *r, const rtype *t, HEAD, pos lim, int tag_mode,
                            int last_form, int lenient, ssize_t *left, int *constr, unsigned *nc)
{
	/* Nearly every value: one tag, its own (checked) or an IMPLICIT one (matched already). */
	if (LIKELY(t->one_tag && tag_mode != 1)) {
		if (tag_mode == 0 && tag != t->tag0)
			return NULL;
		int c = (*p & 0x20) != 0;
		if (last_form != -1 && last_form != c)
			return NULL;
		ssize_t len;
		if (!(q = get_len(r, q, lim, c, &len)))
			return NULL;
		if (len > lim - q && !lenient)
			return NULL;
		*left = len; /* -1 when indefinite */
		*constr = c;
		*nc = (unsigned)c;
		return q;
	}
	/* An EXPLICIT tag on an untagged CHOICE: the wrapper alone, matched already. */
	if (t->no_tags && tag_mode == 1 && t->kind == K_CHOICE) {
		int c = (*p & 0x20) != 0;
		ssize_t len;
		if (!(q = get_len(r, q, lim, c, &len)) || (len > lim - q && !lenient))
			return NULL;
		*left = len;
		*constr = c;
		*nc = (unsigned)c;
		return q;
	}
	return read_tags_slow(r, t->td, p, lim, tag_mode, last_form, lenient, left, constr, nc);
}

/*
 * A definite length in at most two octets after the first (the forms a
 * message's lengths take, that get_len() reads without more checks) that
 * fits before lim; NULL for any other. q < lim.
 */
static ALWAYS_INLINE pos get_short_len(pos q, pos lim, size_t *len)
{
	size_t n;
	unsigned oct = *q;
	if (LIKELY(oct < 0x80)) {
		n = oct;
		q += 1;
	} else if (oct == 0x81 && lim - q > 1) {
		n = q[1];
		q += 2;
	} else if (oct == 0x82 && lim - q > 2) {
		n = (size_t)q[1] << 8 | q[2];
		q += 3;
	} else {
		return NULL;
	}
	if (n > (size_t)(lim - q))
		return NULL;
	*len = n;
	return q;
}

/*
 * The usual header of a SEQUENCE or list: one tag (its own, or an IMPLICIT
 * one the caller matched), constructed, a short definite length that fits,
 * one level more allowed. Returns the contents (*len long), with that
 * level opened; NULL, having changed nothing, for anything else, which
 * read_tags() then decides.
 */
static ALWAYS_INLINE pos plain_header(reader *r, const rmember *m, HEAD, pos lim, size_t *len)
{
	if (!(m->plain && tag == m->tag && (*p & 0x20) && q < lim && r->depth < r->max_depth))
		return NULL;
	pos c = get_short_len(q, lim, len);
	if (!c)
		return NULL;
	r->depth++;
	return c;
}

/*
 * nc more constructed levels open. Past max_depth, where ber_scan() stops
 * too, the read fails; this also bounds the recursion (one level of it
 * opens at least one TLV, but for an untagged CHOICE, which the module's
 * types bound).
 */
static inline int open_levels(reader *r, unsigned nc)
{
	r->depth += nc;
	return UNLIKELY(r->depth > r->max_depth) ? -1 : 0;
}

/* ---- values ----------------------------------------------------------------------------- */

static inline pos read_value(reader *r, const rmember *m, void **slot, HEAD, pos lim);
static inline pos read_member(reader *r, const rmember *m, void **mslot, HEAD, pos lim);
static inline pos read_choice_member(reader *r, const rmember *m, void **mslot, HEAD, pos lim);
static NOINLINE pos read_sequence(reader *r, const rmember *m, void **slot, HEAD, pos lim);
static NOINLINE pos read_list(reader *r, const rmember *m, void **slot, HEAD, pos lim);
static NOINLINE pos read_choice(reader *r, const rtype *t, void **slot, HEAD, pos lim,
                                int tag_mode);

/* The end-of-contents octets closing n indefinite levels. */
static inline pos read_eocs(pos p, pos lim, ssize_t n)
{
	for (; n > 0; n--) {
		if (lim - p < 2 || p[0] != 0 || p[1] != 0)
			return NULL;
		p += 2;
	}
	return p;
}

#define IN_EXTENSION_GROUP(s, i) ((i) > (s)->ext_after && (i) < (s)->ext_before)

/*
 * SEQUENCE_decode_ber's member search: the member in edx..edx+optional
 * whose tag (or, for an untagged CHOICE, one of whose tags) is tag; -1 if none.
 */
static NOINLINE int find_member(reader *r, const asn_TYPE_descriptor_t *td, int edx,
                                ber_tlv_tag_t tag)
{
	const asn_SEQUENCE_specifics_t *s = td->specifics;
	const asn_TYPE_member_t *el = td->elements;
	int count = td->elements_count, n, use_bsearch = 0;
	int opt_end = edx + el[edx].optional + 1;
	if (opt_end > count) {
		opt_end = count;
	} else if (opt_end - edx > 8) {
		opt_end = edx + 8;
		use_bsearch = 1;
	}
	for (n = edx; n < opt_end; n++) {
		if (el[n].tag == tag)
			return n;
		if (el[n].flags & ATF_OPEN_TYPE) {
			r->needs_scan = 1; /* any tag goes */
			return n;
		}
		if (el[n].tag == (ber_tlv_tag_t)-1) {
			use_bsearch = 1;
			break;
		}
	}
	if (use_bsearch) {
		/* The last member in range with this tag (asn1c's t2m_f..t2m_l walk). */
		int best = -1, edx_max = edx + el[edx].optional;
		for (int i = 0; i < s->tag2el_count; i++) {
			const asn_TYPE_tag2member_t *t = &s->tag2el[i];
			if (t->el_tag == tag && t->el_no >= edx && t->el_no <= edx_max)
				best = t->el_no;
		}
		return best;
	}
	return -1;
}

/* The legitimate end of a SEQUENCE before member edx: the rest is optional or extensions. */
static NOINLINE int may_end(const asn_TYPE_descriptor_t *td, int edx)
{
	const asn_SEQUENCE_specifics_t *s = td->specifics;
	int count = td->elements_count;
	return edx + td->elements[edx].optional == count ||
	       (IN_EXTENSION_GROUP(s, edx) && s->ext_before > count);
}

/*
 * SEQUENCE_decode_ber's member loop and what follows the last member, for
 * both length forms: the contents start at p, lim is their end when
 * definite (left >= 0), else the container's and -left indefinite levels
 * are open; nc constructed levels to close.
 */
static NOINLINE pos read_members(reader *r, const rtype *t, char *st, pos p, pos lim,
                                 ssize_t left, unsigned nc, int edx)
{
	const asn_TYPE_descriptor_t *td = t->td;
	int definite = left >= 0;
	const rmember *el = t->m;
	int count = t->count;
	ber_tlv_tag_t tag;
	pos q;
	for (; edx < count; edx++) {
		if (definite && p == lim) {
			if (may_end(td, edx))
				goto done;
			return fail(r, p);
		}
		if (!(q = get_tag(r, p, lim, &tag)))
			return fail(r, p);
		if (!definite && p[0] == 0) {
			if (lim - p < 2)
				return fail(r, p);
			if (p[1] == 0 && may_end(td, edx))
				goto tail;
		}
		int n = el[edx].tag == tag ? edx : find_member(r, td, edx, tag);
		if (n < 0) {
			/* Unknown: an extension to skip, or an error. */
			const asn_SEQUENCE_specifics_t *s = td->specifics;
			if (!IN_EXTENSION_GROUP(s, edx + el[edx].optional))
				return fail(r, p);
			if (!(p = skip_value(r, p, q, lim)))
				return fail(r, q);
			edx += el[edx].optional - 1; /* as asn1c: the optional ones before are passed */
			continue;
		}
		edx = n;
		const rmember *m = &el[edx];
		void *mp = st + m->offset;
		void **mslot = m->pointer ? (void **)mp : &mp;
		if (!(p = read_member(r, m, mslot, p, q, tag, lim)))
			return NULL;
	}
tail:
	/* After the last member: extensions to skip, then the end-of-contents octets. */
	{
		ssize_t eocs = definite ? 0 : -left;
		int only_eocs = 0;
		while (definite ? p < lim : eocs > 0) {
			if (!(q = get_tag(r, p, lim, &tag)))
				return fail(r, p);
			if (!definite && p[0] == 0) {
				if (lim - p < 2)
					return fail(r, p);
				if (p[1] == 0) {
					p += 2;
					eocs--;
					only_eocs = 1;
					continue;
				}
			}
			if (!IN_EXTENSION_GROUP((const asn_SEQUENCE_specifics_t *)td->specifics, count) ||
			    only_eocs)
				return fail(r, p);
			if (!(p = skip_value(r, p, q, lim)))
				return fail(r, q);
		}
	}
done:
	r->depth -= nc;
	return p;
}

/*
 * SEQUENCE_decode_ber. The definite form's members with one-octet tags,
 * in order, absent optional ones passed, are read here; at anything else
 * (an unknown member, one that find_member() must search a tag map for, a
 * long tag, a missing mandatory member) read_members() takes over where
 * this stopped, and decides.
 */
static NOINLINE pos read_sequence(reader *r, const rmember *mt, void **slot, HEAD, pos lim)
{
	const rtype *t = mt->type;
	char *st = *slot;
	if (!st && !(st = *slot = node(r, (size_t)t->size)))
		return NULL;
	unsigned nc = 1;
	size_t len;
	pos at = plain_header(r, mt, p, q, tag, lim, &len);
	if (LIKELY(at)) {
		lim = at + len;
	} else {
		ssize_t left;
		int c;
		unsigned n;
		at = read_tags(r, t, p, q, tag, lim, mt->tag_mode, 1, 0, &left, &c, &n);
		if (!at || open_levels(r, n))
			return fail(r, p);
		nc = n;
		if (left < 0)
			return read_members(r, t, st, at, lim, left, nc, 0);
		lim = at + left;
	}
	p = at;
	const rmember *m = t->m;
	int count = t->count, edx = 0;
	for (; edx < count && p < lim; edx++, m++) {
		/* The next member's identifier octet, either form: its tag, read no further. */
		unsigned b = *p;
		if (LIKELY((b | 0x20) == m->idc)) {
			void *mp = st + m->offset;
			void **mslot = m->pointer ? (void **)mp : &mp;
			if (!(p = read_member(r, m, mslot, p, p + 1, m->tag, lim)))
				return NULL;
			continue;
		}
		tag = (ber_tlv_tag_t)((b & 0x1f) << 2 | b >> 6);
		if ((b & 0x1f) == 0x1f)
			break;
		if (m->tag != tag) {
			/* find_member() where it would only compare the tags of plain members */
			int n = edx, end = edx + m->optional + 1;
			if (end > count)
				end = count;
			if (end - edx > 8)
				break;
			while (n < end && t->m[n].tag != tag && !t->m[n].special)
				n++;
			if (n == end || t->m[n].special)
				break;
			m += n - edx;
			edx = n;
		}
		void *mp = st + m->offset;
		void **mslot = m->pointer ? (void **)mp : &mp;
		if (!(p = read_member(r, m, mslot, p, p + 1, tag, lim)))
			return NULL;
	}
	if (LIKELY(p == lim && (edx == count || m->may_end))) {
		r->depth -= nc;
		return p;
	}
	return read_members(r, t, st, p, lim, lim - p, nc, edx);
}

static inline void set_present(const rtype *t, void *st, int present)
{
	char *pp = (char *)st + t->pres_offset;
	switch (t->pres_size) {
	case sizeof(int): *(int *)pp = present; break;
	case sizeof(short): *(short *)pp = (short)present; break;
	case sizeof(char): *(char *)pp = (char)present; break;
	default: break;
	}
}

static int search4tag(const void *ap, const void *bp)
{
	const asn_TYPE_tag2member_t *a = ap, *b = bp;
	unsigned ac = BER_TAG_CLASS(a->el_tag), bc = BER_TAG_CLASS(b->el_tag);
	if (ac != bc)
		return ac < bc ? -1 : 1;
	ber_tlv_tag_t av = BER_TAG_VALUE(a->el_tag), bv = BER_TAG_VALUE(b->el_tag);
	return av == bv ? 0 : av < bv ? -1 : 1;
}

/* The CHOICE alternative for tag (CHOICE_decode_ber's bsearch()); -1 if none. */
static inline int find_alternative(const rtype *t, ber_tlv_tag_t tag)
{
	const asn_TYPE_tag2member_t *map = t->map;
	int n = t->map_count;
	/* Automatic tags [0], [1], ... sit at their own index (bsearch() would find that one). */
	unsigned i = BER_TAG_VALUE(tag);
	if (LIKELY(t->direct_map && i < (unsigned)n)) {
		if (map[i].el_tag == tag)
			return map[i].el_no;
	}
	asn_TYPE_tag2member_t key = { tag, 0, 0, 0 };
	const asn_TYPE_tag2member_t *hit = bsearch(&key, map, (size_t)n, sizeof *map, search4tag);
	return hit ? hit->el_no : -1;
}

/* CHOICE_decode_ber */
static NOINLINE pos read_choice(reader *r, const rtype *t, void **slot, HEAD, pos lim,
                                int tag_mode)
{
	void *st = *slot;
	if (!st && !(st = *slot = node(r, (size_t)t->size)))
		return NULL;
	int tagged = tag_mode || !t->no_tags, overrun = 0;
	ssize_t left = -1;
	unsigned nc = 0;
	if (tagged) {
		size_t len;
		pos at;
		if (LIKELY(tag_mode == 1 && t->no_tags && (*p & 0x20) && q < lim &&
		           r->depth < r->max_depth && (at = get_short_len(q, lim, &len)))) {
			/* An EXPLICIT tag on an untagged CHOICE: constructed, short, fitting. */
			r->depth++;
			nc = 1;
			left = (ssize_t)len;
			p = at;
			lim = p + len;
		} else {
			int c;
			ssize_t l;
			unsigned k;
			at = read_tags(r, t, p, q, tag, lim, tag_mode, -1, 1, &l, &c, &k);
			if (!at || open_levels(r, k))
				return fail(r, p);
			left = l;
			nc = k;
			if (!c) /* a primitive tag that asn1c reads into: ber_scan() does not */
				r->needs_scan = 1;
			p = at;
			if (left > lim - p) {
				overrun = 1; /* fails below, unless the CHOICE ends early */
				r->needs_scan = 1;
			} else if (left >= 0) {
				lim = p + left;
			}
		}
		if (!(q = get_tag(r, p, lim, &tag)))
			return fail(r, p);
	}
	int i = find_alternative(t, tag);
	if (i < 0) {
		if (((const asn_CHOICE_specifics_t *)t->td->specifics)->ext_start == -1)
			return fail(r, p);
		/* An unknown extension: skipped, nothing present, and (as asn1c) no more read. */
		if (!(p = skip_value(r, p, q, lim)))
			return fail(r, q);
		r->depth -= nc;
		return p;
	}
	const rmember *m = &t->m[i];
	set_present(t, st, i + 1);
	void *mp = (char *)st + m->offset;
	void **mslot = m->pointer ? (void **)mp : &mp;
	if (!(p = read_member(r, m, mslot, p, q, tag, lim)))
		return NULL;
	if (!tagged)
		return p;
	r->depth -= nc;
	if (left >= 0)
		return p == lim && !overrun ? p : fail(r, p);
	pos e = read_eocs(p, lim, -left);
	return e ? e : fail(r, p);
}

/*
 * A list's items are collected in the caller's local[LOCAL_ITEMS], then in
 * arena arrays doubling from there; grow_items() returns the next array
 * (NULL, with r->nomem, when the arena fails).
 */
#define LOCAL_ITEMS 16

static NOINLINE void **grow_items(reader *r, void **items, void **local, size_t cap)
{
	void **grown = NULL;
	if (cap <= (size_t)INT_MAX / 2)
		grown = arena_realloc(r->arena, items == local ? NULL : items,
		                      2 * cap * sizeof *items);
	if (!grown) {
		r->nomem = 1;
		return NULL;
	}
	if (items == local)
		memcpy(grown, local, LOCAL_ITEMS * sizeof *local);
	return grown;
}

/* The n items collected into the list st; p is where the list ended. */
static inline pos set_items(reader *r, void *st, void **items, void **local, size_t n,
                            size_t cap, pos p)
{
	asn_anonymous_set_ *list = _A_SET_FROM_VOID(st);
	if (n == 0)
		return p;
	if (items == local) {
		/*
		 * Carved from the region like a node, behind the size header arena.h
		 * puts before every allocation, so that arena_realloc() (asn_set_add()
		 * on the model later) copies it when it grows: no arena_alloc() call.
		 */
		size_t size = n * sizeof *items;
		unsigned char *b = bytes(r, ARENA_HDR + size);
		if (!b)
			return NULL;
		memcpy(b, &size, sizeof size);
		items = (void **)(void *)(b + ARENA_HDR);
		for (size_t i = 0; i < n; i++) /* a handful at most: no memcpy() call */
			items[i] = local[i];
		cap = n;
	}
	list->array = items;
	list->count = (int)n;
	list->size = (int)cap;
	return p;
}

/*
 * SET_OF_decode_ber's item loop for the indefinite form: the contents start
 * at p, -left indefinite levels are open, nc constructed levels to close.
 */
static NOINLINE pos read_items_indefinite(reader *r, const rtype *t, void *st, pos p, pos lim,
                                          ssize_t left, unsigned nc)
{
	const rmember *elm = t->m;
	void *local[LOCAL_ITEMS], **items = local;
	size_t n = 0, cap = LOCAL_ITEMS;
	for (;;) {
		ber_tlv_tag_t tag;
		pos q = get_tag(r, p, lim, &tag);
		if (!q)
			return fail(r, p);
		if (p[0] == 0) {
			if (lim - p < 2)
				return fail(r, p);
			if (p[1] == 0) {
				pos e = read_eocs(p, lim, -left);
				if (!e)
					return fail(r, p);
				p = e;
				break;
			}
		}
		if (elm->tag != (ber_tlv_tag_t)-1 && tag != elm->tag)
			return fail(r, p);
		void *item = NULL;
		if (!(p = read_member(r, elm, &item, p, q, tag, lim)))
			return NULL;
		if (UNLIKELY(n == cap)) {
			if (!(items = grow_items(r, items, local, cap)))
				return NULL;
			cap *= 2;
		}
		items[n++] = item;
	}
	r->depth -= nc;
	return set_items(r, st, items, local, n, cap, p);
}

/* SET_OF_decode_ber (SEQUENCE OF too): items collected here, then one array in the arena. */
static NOINLINE pos read_list(reader *r, const rmember *mt, void **slot, HEAD, pos lim)
{
	const rtype *t = mt->type;
	void *st = *slot;
	if (!st && !(st = *slot = node(r, (size_t)t->size)))
		return NULL;
	unsigned nc = 1;
	size_t len;
	pos at = plain_header(r, mt, p, q, tag, lim, &len);
	if (LIKELY(at)) {
		lim = at + len;
	} else {
		ssize_t left;
		int c;
		unsigned k;
		at = read_tags(r, t, p, q, tag, lim, mt->tag_mode, 1, 0, &left, &c, &k);
		if (!at || open_levels(r, k))
			return fail(r, p);
		nc = k;
		if (left < 0)
			return read_items_indefinite(r, t, st, at, lim, left, nc);
		lim = at + left;
	}
	p = at;
	const rmember *elm = t->m;
	void *local[LOCAL_ITEMS], **items = local;
	size_t n = 0, cap = LOCAL_ITEMS;
	while (p < lim) {
		if (LIKELY((*p | 0x20) == elm->idc)) {
			/* The item's own tag in one octet: nothing more to check here. */
			tag = elm->tag;
			q = p + 1;
		} else {
			if (!(q = get_tag(r, p, lim, &tag)))
				return fail(r, p);
			if (elm->tag != (ber_tlv_tag_t)-1 && tag != elm->tag)
				return fail(r, p);
		}
		void *item = NULL;
		if (!(p = read_member(r, elm, &item, p, q, tag, lim)))
			return NULL;
		if (UNLIKELY(n == cap)) {
			if (!(items = grow_items(r, items, local, cap)))
				return NULL;
			cap *= 2;
		}
		items[n++] = item;
	}
	r->depth -= nc;
	return set_items(r, st, items, local, n, cap, p);
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
		for (; b < end - 1; b++) {
			if ((*b == 0x00 && !(b[1] & 0x80)) || (*b == 0xff && (b[1] & 0x80)))
				continue;
			break;
		}
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

/* NativeInteger_decode_ber (NativeEnumerated too) */

static ALWAYS_INLINE pos read_native_integer(reader *r, const rtype *t, void **slot, HEAD,
                                             pos lim, int tag_mode)
{
	long *v = *slot;
	if (!v && !(v = *slot = node(r, sizeof *v)))
		return NULL;
	ssize_t len;
	int c;
	unsigned nc;
	pos at = read_tags(r, t, p, q, tag, lim, tag_mode, 0, 0, &len, &c, &nc);
	if (!at)
		return fail(r, p);
	int is_unsigned = t->is_unsigned;
	if (LIKELY(len == 1)) {
		*v = is_unsigned ? (long)at[0] : (long)(signed char)at[0];
		return at + 1;
	}
	if (to_long(at, (size_t)len, is_unsigned, v) != 0)
		return fail(r, at);
	return at + len;
}

/* BOOLEAN_decode_ber (NULL too): the first non-zero content octet, or 0. */
static ALWAYS_INLINE pos read_boolean(reader *r, const rtype *t, void **slot, HEAD,
                                 pos lim, int tag_mode)
{
	BOOLEAN_t *v = *slot;
	if (!v && !(v = *slot = node(r, sizeof *v)))
		return NULL;
	ssize_t len;
	int c;
	unsigned nc;
	pos at = read_tags(r, t, p, q, tag, lim, tag_mode, 0, 0, &len, &c, &nc);
	if (!at)
		return fail(r, p);
	*v = 0;
	for (ssize_t i = 0; i < len && !*v; i++)
		*v = at[i];
	return at + len;
}

/* ber_decode_primitive: INTEGER_t and other buf/size types, NUL-terminated. */
static COLD pos read_primitive(reader *r, const rtype *t, void **slot, HEAD, pos lim,
                               int tag_mode)
{
	ASN__PRIMITIVE_TYPE_t *st = *slot;
	if (!st && !(st = *slot = node(r, sizeof *st)))
		return NULL;
	ssize_t len;
	int c;
	unsigned nc;
	pos at = read_tags(r, t, p, q, tag, lim, tag_mode, 0, 0, &len, &c, &nc);
	if (!at || len > INT_MAX)
		return fail(r, p);
	if (!(st->buf = bytes(r, (size_t)len + 1)))
		return NULL;
	memcpy(st->buf, at, (size_t)len);
	st->buf[len] = 0;
	st->size = (int)len;
	return at + len;
}

/* Constructed strings: their primitive segments' contents, in order. */
typedef struct segs {
	unsigned char *out; /* NULL: only count */
	size_t size;
	int appended;       /* asn1c allocated the buffer (some segment had contents) */
	int bits_unused;
} segs;

/*
 * One segment of a constructed string (OCTET_STRING_decode_ber's stack of
 * expectations, as a recursion): level 0 is the string's own TLV, whose tag
 * the caller has checked; deeper ones must carry td->all_tags[level - 1]
 * (the last one once past the end). In a BIT STRING each segment's first
 * octet is its unused-bit count; the last one read stays.
 */
static pos read_segment(reader *r, const asn_TYPE_descriptor_t *td, int bit, pos p, pos lim,
                        int level, segs *sg)
{
	ber_tlv_tag_t tag;
	ssize_t len;
	pos q = get_tag(r, p, lim, &tag);
	if (!q)
		return NULL;
	int c = (*p & 0x20) != 0;
	if (!(q = get_len(r, q, lim, c, &len)))
		return NULL;
	if (level > 0 && td->all_tags_count) {
		int i = level - 1 < td->all_tags_count ? level - 1 : td->all_tags_count - 1;
		if (tag != td->all_tags[i])
			return NULL;
	}
	if (!c) {
		if (len > lim - q)
			return NULL;
		if (len > 0) {
			pos from = q;
			size_t n = (size_t)len;
			if (bit) {
				sg->bits_unused = *from++;
				n--;
			}
			if (sg->out)
				memcpy(sg->out + sg->size, from, n);
			if (n > (size_t)INT_MAX - sg->size)
				return NULL;
			sg->size += n;
			sg->appended = 1;
		}
		return q + len;
	}
	if (open_levels(r, 1))
		return NULL;
	if (len >= 0) {
		if (len > lim - q)
			return NULL;
		pos end = q + len;
		while (q < end)
			if (!(q = read_segment(r, td, bit, q, end, level + 1, sg)))
				return NULL;
	} else {
		for (;;) {
			if (lim - q >= 2 && q[0] == 0 && q[1] == 0) {
				q += 2;
				break;
			}
			if (!(q = read_segment(r, td, bit, q, lim, level + 1, sg)))
				return NULL;
		}
	}
	r->depth--;
	return q;
}

/* The constructed form: segments counted, then copied into one buffer. */
static NOINLINE pos read_segments(reader *r, const asn_TYPE_descriptor_t *td, BIT_STRING_t *st,
                                  int bit, pos p, pos lim)
{
	/* asn1c reads the segments from the first tag on (an EXPLICIT tag is a level). */
	segs sg = { 0 };
	unsigned depth = r->depth;
	pos end = read_segment(r, td, bit, p, lim, 0, &sg);
	r->depth = depth;
	if (!end)
		return fail(r, p);
	if (sg.appended) {
		if (!(sg.out = bytes(r, sg.size + 1)))
			return NULL;
		sg.size = 0;
		read_segment(r, td, bit, p, lim, 0, &sg);
		r->depth = depth;
		sg.out[sg.size] = 0;
		st->buf = sg.out;
		st->size = (int)sg.size;
	}
	if (bit)
		st->bits_unused = sg.bits_unused;
	return end;
}

/* OCTET_STRING_decode_ber: OCTET STRING, the character strings and BIT STRING. */
static ALWAYS_INLINE pos read_string(reader *r, const rtype *t, void **slot, HEAD, pos lim,
                                     int tag_mode)
{
	int bit = t->bit;
	BIT_STRING_t *st = *slot;
	if (!st && !(st = *slot = node(r, (size_t)t->size)))
		return NULL;
	ssize_t len;
	int c;
	unsigned nc;
	pos at = read_tags(r, t, p, q, tag, lim, tag_mode, -1, 0, &len, &c, &nc);
	if (!at)
		return fail(r, p);
	if (LIKELY(!c)) {
		if (bit && len > 0) {
			st->bits_unused = *at++;
			len--;
		}
		unsigned char *b = bytes(r, (size_t)len + 1);
		if (!b)
			return NULL;
		memcpy(b, at, (size_t)len);
		b[len] = 0;
		st->buf = b;
		st->size = (int)len;
		p = at + len;
	} else if (!(p = read_segments(r, t->td, st, bit, p, lim))) {
		return NULL;
	}
	/*
	 * X.690 8.6.2.2: the initial octet of a BIT STRING counts 0..7 unused
	 * bits, and 0 when there are no bits. asn1c takes any value (and shifts
	 * by it); we refuse what cannot be re-encoded.
	 */
	if (bit && (st->bits_unused < 0 || st->bits_unused > 7 || (!st->size && st->bits_unused)))
		return fail(r, p);
	if (bit && st->size)
		st->buf[st->size - 1] &= (unsigned char)(0xffu << st->bits_unused);
	return p;
}

/* A kind not read here: asn1c decodes this subtree, allocating from the arena. */
static COLD pos read_by_asn1c(reader *r, asn_TYPE_descriptor_t *td, void **slot, pos p, pos lim,
                              int tag_mode)
{
	asn_codec_ctx_t ctx = { ASN1C_STACK_LIMIT };
	r->needs_scan = 1;
	megaco_arena *prev = arena_set_current(r->arena);
	asn_dec_rval_t rv = td->ber_decoder(&ctx, td, slot, p, (size_t)(lim - p), tag_mode);
	arena_set_current(prev);
	if (rv.code != RC_OK) {
		if (r->arena->failed)
			r->nomem = 1;
		return fail(r, p + rv.consumed);
	}
	return p + rv.consumed;
}

/* The runtime's own free functions: a descriptor with another one is a generated wrapper. */
static int runtime_free(asn_struct_free_f *f)
{
	return f == SEQUENCE_free || f == CHOICE_free || f == SET_OF_free || f == OCTET_STRING_free ||
	       f == NativeInteger_free || f == BOOLEAN_free || f == ASN__PRIMITIVE_TYPE_free;
}

/*
 * One value of type t into *slot (allocated when NULL), with tag_mode as
 * the member gives it.
 */
static ALWAYS_INLINE pos read_value(reader *r, const rmember *m, void **slot, HEAD, pos lim)
{
	unsigned kind = m->kind;
	const rtype *t = m->type;
	int tag_mode = m->tag_mode;
	/* Conditional branches, most frequent first: they predict better than one jump table. */
	if (kind == K_SEQUENCE)
		return read_sequence(r, m, slot, p, q, tag, lim);
	if (kind == K_STRING)
		return read_string(r, t, slot, p, q, tag, lim, tag_mode);
	if (kind == K_INT)
		return read_native_integer(r, t, slot, p, q, tag, lim, tag_mode);
	if (kind == K_LIST)
		return read_list(r, m, slot, p, q, tag, lim);
	if (kind == K_CHOICE)
		return read_choice(r, t, slot, p, q, tag, lim, tag_mode);
	if (kind == K_BOOL)
		return read_boolean(r, t, slot, p, q, tag, lim, tag_mode);
	if (kind == K_PRIM)
		return read_primitive(r, t, slot, p, q, tag, lim, tag_mode);
	return read_by_asn1c(r, t->td, slot, p, lim, tag_mode);
}

static NOINLINE pos read_member_slow(reader *r, const rmember *m, void **mslot, HEAD, pos lim)
{
	return read_value(r, m, mslot, p, q, tag, lim);
}

static NOINLINE pos read_member_call(reader *r, const rmember *m, void **mslot, HEAD, pos lim)
{
	return read_member(r, m, mslot, p, q, tag, lim);
}

/*
 * A CHOICE member, untagged or with the usual EXPLICIT tag (constructed,
 * a short length that fits, one level more allowed), whose alternative has
 * a one-octet tag that the direct map finds: read_choice()'s steps without
 * its call, the alternative read directly. Anything else is read_choice()'s,
 * from the start (nothing has changed until the alternative is known).
 */
static ALWAYS_INLINE pos read_choice_member(reader *r, const rmember *m, void **mslot, HEAD,
                                            pos lim)
{
	const rtype *t = m->type;
	pos c = p, e = lim;
	size_t len;
	int tagged = m->tag_mode != 0;
	if (!t->no_tags || (tagged && m->tag_mode != 1))
		goto other;
	if (tagged) {
		if (!(*p & 0x20) || q >= lim || r->depth >= r->max_depth ||
		    !(c = get_short_len(q, lim, &len)) || !len)
			goto other;
		e = c + len;
	}
	unsigned b = *c;
	if ((b & 0x1f) == 0x1f)
		goto other;
	ber_tlv_tag_t atag = (ber_tlv_tag_t)((b & 0x1f) << 2 | b >> 6);
	unsigned i = BER_TAG_VALUE(atag);
	if (!t->direct_map || i >= (unsigned)t->map_count || t->map[i].el_tag != atag)
		goto other;
	void *st = *mslot;
	if (!st && !(st = *mslot = node(r, (size_t)t->size)))
		return NULL;
	int alt = t->map[i].el_no;
	const rmember *am = &t->m[alt];
	set_present(t, st, alt + 1);
	void *mp = (char *)st + am->offset;
	void **aslot = am->pointer ? (void **)mp : &mp;
	r->depth += (unsigned)tagged;
	pos end;
	if (am->fast == F_SEQUENCE)
		end = read_sequence(r, am, aslot, c, c + 1, atag, e);
	else if (am->fast == F_LIST)
		end = read_list(r, am, aslot, c, c + 1, atag, e);
	else
		end = read_member_call(r, am, aslot, c, c + 1, atag, e);
	if (!end || !tagged)
		return end;
	r->depth--;
	return end == e ? end : fail(r, end);
other:
	return read_choice(r, t, mslot, p, q, tag, lim, m->tag_mode);
}

/* n bytes from s to d, in line for the short strings that most are. */
static ALWAYS_INLINE void copy_bytes(unsigned char *d, pos s, size_t n)
{
	if (n >= 8 && n <= 16) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else if (n) {
		memcpy(d, s, n);
	}
}

/* A primitive string's len octets at v into st, NUL-terminated; the end, or NULL. */
static ALWAYS_INLINE pos fill_octets(reader *r, OCTET_STRING_t *st, pos v, size_t len)
{
	unsigned char *b = bytes(r, len + 1);
	if (!b)
		return NULL;
	copy_bytes(b, v, len);
	b[len] = 0;
	st->buf = b;
	st->size = (int)len;
	return v + len;
}

/*
 * Member m's value (of a SEQUENCE, a list's item, a CHOICE's alternative)
 * into *mslot, as read_value() would. The plain forms of the common
 * primitives (one primitive TLV with a short length) and empty SEQUENCEs
 * and lists are read here, CHOICEs mostly by read_choice_member(); anything
 * else, valid or not, goes to the read_* function of its kind, which
 * decides as asn1c does.
 */
static ALWAYS_INLINE pos read_member(reader *r, const rmember *m, void **mslot, HEAD, pos lim)
{
	unsigned fast = m->fast;
	if (fast == F_SEQUENCE || fast == F_LIST) {
		/* An empty SEQUENCE or list: its node (if a pointer); no deeper than allowed. */
		if (m->empty_ok && tag == m->tag && (*p & 0x20) && q < lim && *q == 0 &&
		    r->depth < r->max_depth) {
			if (!*mslot && !(*mslot = node(r, (size_t)m->type->size)))
				return NULL;
			return q + 1;
		}
		if (fast == F_SEQUENCE)
			return read_sequence(r, m, mslot, p, q, tag, lim);
		return read_list(r, m, mslot, p, q, tag, lim);
	}
	if (fast == F_CHOICE)
		return read_choice_member(r, m, mslot, p, q, tag, lim);
	if (fast == F_STRING) { /* read_string() on a primitive OCTET STRING */
		if (tag == m->tag && !(*p & 0x20) && q < lim && *q < 0x80) {
			size_t len = *q;
			pos v = q + 1;
			if (len <= (size_t)(lim - v)) {
				OCTET_STRING_t *st = *mslot;
				if (!st && !(st = *mslot = node(r, (size_t)m->type->size)))
					return NULL;
				return fill_octets(r, st, v, len);
			}
		}
	} else if (fast == F_INT) { /* read_native_integer() on 1 to sizeof(long) octets */
		if (tag == m->tag && !(*p & 0x20) && q < lim) {
			size_t len = *q;
			pos v = q + 1;
			if (len - 1 < sizeof(long) && len <= (size_t)(lim - v)) {
				pos e = v + len;
				unsigned long l = m->type->is_unsigned || !(*v & 0x80) ? 0 : ~0ul;
				for (; v < e; v++)
					l = l << 8 | *v;
				long *out = *mslot;
				if (!out && !(out = *mslot = node(r, sizeof *out)))
					return NULL;
				*out = (long)l;
				return e;
			}
		}
	} else if (fast == F_BOOL) { /* read_boolean() */
		if (tag == m->tag && !(*p & 0x20) && q < lim && *q < 0x80) {
			size_t len = *q;
			pos v = q + 1;
			if (len <= (size_t)(lim - v)) {
				BOOLEAN_t *out = *mslot;
				if (!out && !(out = *mslot = node(r, sizeof *out)))
					return NULL;
				*out = 0;
				for (size_t i = 0; i < len && !*out; i++)
					*out = v[i];
				return v + len;
			}
		}
	}
	return read_member_slow(r, m, mslot, p, q, tag, lim);
}

/* ---- generated readers (tools/gen/ber_read_gen.c) ---------------------------------------- */

#if defined(MEGACO_BER_READ_GEN) && !defined(BER_READ_GENERATOR)
#define HAVE_BER_GEN 1
#endif

#if defined(HAVE_BER_GEN) || defined(BER_READ_GENERATOR)
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x100000001b3u;
	return h ^ h >> 29;
}

/*
 * The module's tables' fingerprint over everything a generated reader takes
 * as a constant: the generator writes it next to the readers it makes, and
 * they are used only when the tables built at run time give the same one,
 * so a stale or foreign output can only cost speed.
 */
static uint64_t tables_print(void)
{
	uint64_t h = 0xcbf29ce484222325u;
	h = mix(h, module_ntypes);
	h = mix(h, module_nmembers);
	for (unsigned i = 0; i < module_ntypes; i++) {
		const rtype *t = &types[i];
		h = mix(h, t->kind);
		h = mix(h, t->one_tag);
		h = mix(h, t->bit);
		h = mix(h, t->is_unsigned);
		h = mix(h, t->no_tags);
		h = mix(h, t->tag0);
		h = mix(h, (uint64_t)t->size);
		h = mix(h, (uint64_t)t->count);
		h = mix(h, t->m ? (uint64_t)(t->m - members) : ~(uint64_t)0);
		h = mix(h, (uint64_t)t->pres_offset);
		h = mix(h, t->pres_size);
		h = mix(h, t->direct_map);
		h = mix(h, (uint64_t)t->map_count);
		for (int j = 0; t->map && j < t->map_count; j++) {
			h = mix(h, t->map[j].el_tag);
			h = mix(h, (uint64_t)t->map[j].el_no);
		}
	}
	for (unsigned i = 0; i < module_nmembers; i++) {
		const rmember *m = &members[i];
		h = mix(h, (uint64_t)(m->type - types));
		h = mix(h, m->tag);
		h = mix(h, (uint64_t)m->offset);
		h = mix(h, (uint64_t)m->optional);
		h = mix(h, (uint64_t)m->tag_mode);
		h = mix(h, m->pointer);
		h = mix(h, m->kind);
		h = mix(h, m->fast);
		h = mix(h, m->special);
		h = mix(h, m->may_end);
		h = mix(h, m->empty_ok);
		h = mix(h, m->idc);
		h = mix(h, m->plain);
	}
	return h;
}
#endif

#ifdef HAVE_BER_GEN
/*
 * Building blocks of the generated readers. A generated reader is entered
 * only where the table walk would read the same member with the same
 * one-octet tag; it takes the common forms with its member layout as
 * constants, and on anything else calls the table walk's function for
 * that value or member from where it stands, having changed nothing that
 * function looks at (a node it allocated is simply found in the slot).
 * The generated readers pass the count of constructed levels open (what
 * the table walk keeps in r->depth) as an argument, kept in a register,
 * and store it into r->depth only before calling into the table walk.
 */

static ALWAYS_INLINE void *g_node(reader *r, void **slot, size_t size)
{
	void *st = *slot;
	if (!st)
		st = *slot = new_node(r, size, 1);
	return st;
}

/*
 * A generated reader's parameters: the table walk's, the tag taken as the
 * member's, and the open levels as depth (r->depth set only before calling
 * into the walk).
 */
#define G_PARAMS reader *r, const rmember *mt, void **slot, pos p, pos lim, unsigned depth

/*
 * The usual header of a SEQUENCE, list or EXPLICIT tag at p (< lim), whose
 * one identifier octet the caller matched, constructed: plain_header()
 * without the level opened. The depth is compared with max_depth only if
 * checked (a reader in or below a recursion of the module's types): the
 * others run only when max_depth is at least BER_GEN_LEVELS, the most
 * levels they can open (see read_message()).
 */
static ALWAYS_INLINE pos g_open(reader *r, pos p, pos lim, size_t *len, unsigned depth,
                                int checked)
{
	if (UNLIKELY(lim - p < 2 || (checked && depth >= r->max_depth)))
		return NULL;
	unsigned oct = p[1];
	if (LIKELY(oct < 0x80)) {
		/* The one-octet length: get_short_len()'s first case, lim - p known to be 2 or more. */
		if (oct > (size_t)(lim - p) - 2)
			return NULL;
		*len = oct;
		return p + 2;
	}
	return get_short_len(p + 1, lim, len);
}

static ALWAYS_INLINE void g_present(char *st, int offset, int size, int present)
{
	char *pp = st + offset;
	switch (size) {
	case sizeof(int): *(int *)pp = present; break;
	case sizeof(short): *(short *)pp = (short)present; break;
	case sizeof(char): *(char *)pp = (char)present; break;
	default: break;
	}
}

/*
 * fill_octets() for the generated readers: a string shorter than 16 octets
 * with 16 of the message from v on is copied as 16 (its room rounded up to
 * that), one load and store whatever its length, no choice by length.
 */
static ALWAYS_INLINE pos g_octets(reader *r, OCTET_STRING_t *st, pos v, size_t len)
{
	if (LIKELY(len < 16 && r->in_end - v >= 16)) {
		unsigned char *b = bytes(r, 16);
		if (!b)
			return NULL;
		memcpy(b, v, 16);
		b[len] = 0;
		st->buf = b;
		st->size = (int)len;
		return v + len;
	}
	return fill_octets(r, st, v, len);
}

/* The 8 octets at v as a big-endian number. */
static ALWAYS_INLINE uint64_t load_be64(pos v)
{
	uint64_t x;
	memcpy(&x, v, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/*
 * read_member()'s F_STRING path with m's numbers as constants. This and
 * g_int() and g_bool() are called at the primitive form of the member's
 * identifier octet only: the generated code sends the other to the walk.
 */
static ALWAYS_INLINE pos g_string(reader *r, const rmember *m, void **slot, pos p, pos lim,
                                  unsigned depth, ber_tlv_tag_t tag, size_t size)
{
	pos q = p + 1;
	if (LIKELY(q < lim && *q < 0x80)) {
		size_t len = *q;
		pos v = q + 1;
		if (LIKELY(len <= (size_t)(lim - v))) {
			OCTET_STRING_t *st = g_node(r, slot, size);
			if (!st)
				return NULL;
			return g_octets(r, st, v, len);
		}
	}
	r->depth = depth;
	return read_member_slow(r, m, slot, p, q, tag, lim);
}

/* read_member()'s F_INT path. */
static ALWAYS_INLINE pos g_int(reader *r, const rmember *m, void **slot, pos p, pos lim,
                               unsigned depth, ber_tlv_tag_t tag, int is_unsigned)
{
	pos q = p + 1;
	if (LIKELY(q < lim)) {
		size_t len = *q;
		pos v = q + 1;
		if (LIKELY(len - 1 < sizeof(long) && len <= (size_t)(lim - v))) {
			pos e = v + len;
			unsigned long l;
			if (LIKELY(r->in_end - v >= 8)) {
				/* 8 octets read (all in the message), the len wanted shifted down. */
				uint64_t x = load_be64(v);
				unsigned sh = 8 * (8 - (unsigned)len);
				l = is_unsigned ? (unsigned long)(x >> sh)
				                : (unsigned long)((int64_t)x >> sh);
			} else {
				l = is_unsigned || !(*v & 0x80) ? 0 : ~0ul;
				for (; v < e; v++)
					l = l << 8 | *v;
			}
			long *out = g_node(r, slot, sizeof *out);
			if (!out)
				return NULL;
			*out = (long)l;
			return e;
		}
	}
	r->depth = depth;
	return read_member_slow(r, m, slot, p, q, tag, lim);
}

/* read_member()'s F_BOOL path. */
static ALWAYS_INLINE pos g_bool(reader *r, const rmember *m, void **slot, pos p, pos lim,
                                unsigned depth, ber_tlv_tag_t tag)
{
	pos q = p + 1;
	if (LIKELY(q < lim && *q < 0x80)) {
		size_t len = *q;
		pos v = q + 1;
		if (LIKELY(len <= (size_t)(lim - v))) {
			BOOLEAN_t *out = g_node(r, slot, sizeof *out);
			if (!out)
				return NULL;
			*out = 0;
			for (size_t i = 0; i < len && !*out; i++)
				*out = v[i];
			return v + len;
		}
	}
	r->depth = depth;
	return read_member_slow(r, m, slot, p, q, tag, lim);
}

/* A list item whose identifier octet is not the item's own: read_list()'s general step. */
static NOINLINE pos g_item_slow(reader *r, const rmember *elm, void **slot, pos p, pos lim,
                                unsigned depth)
{
	ber_tlv_tag_t tag;
	r->depth = depth;
	pos q = get_tag(r, p, lim, &tag);
	if (!q)
		return fail(r, p);
	if (elm->tag != (ber_tlv_tag_t)-1 && tag != elm->tag)
		return fail(r, p);
	return read_member_call(r, elm, slot, p, q, tag, lim);
}

/* One more item into a list being collected (read_list()'s step). */
static ALWAYS_INLINE int g_add_item(reader *r, void ***items, void **local, size_t *n,
                                    size_t *cap, void *item)
{
	if (UNLIKELY(*n == *cap)) {
		if (!(*items = grow_items(r, *items, local, *cap)))
			return -1;
		*cap *= 2;
	}
	(*items)[(*n)++] = item;
	return 0;
}

#include "ber_read_gen.inc"
#endif

static int generated_matches(void)
{
#if defined(HAVE_BER_GEN) && defined(BER_GEN_ROOT)
	return module_ntypes && tables_print() == BER_GEN_FINGERPRINT;
#else
	return 0;
#endif
}

int ber_read_mode(void)
{
	if (!compiled(&asn_DEF_MegacoMessage))
		return BER_READ_MODE_DESCRIPTORS;
#ifdef HAVE_BER_GEN
	return gen_ready ? BER_READ_MODE_GENERATED : BER_READ_MODE_STALE;
#else
	return BER_READ_MODE_TABLES;
#endif
}

static int read_message(asn_TYPE_descriptor_t *td, void **slot, const unsigned char *buf,
                        size_t len, megaco_arena *arena, unsigned max_depth, size_t *consumed,
                        size_t *fail_at, int *needs_scan, int walk)
{
	if (len == 0) { /* nothing to read (and buf may be NULL) */
		*needs_scan = 1;
		*fail_at = 0;
		return BER_READ_FAIL;
	}
	reader r = { .arena = arena, .in_end = buf + len };
	r.max_depth = max_depth < MEGACO_DEPTH_CEILING ? max_depth : MEGACO_DEPTH_CEILING;
	/*
	 * One region for the whole model and its list arrays, most of the time
	 * (REGION_PER_BYTE bytes per BER byte), small enough to share the
	 * message's first arena block (8 KiB) with the handle: one allocator call.
	 */
	r.next_region = len < FIRST_REGION / REGION_PER_BYTE ? len * REGION_PER_BYTE + MIN_REGION
	                                                      : FIRST_REGION;
	pos end = NULL;
	if (new_region(&r, 0) != 0) {
		*needs_scan = 1;
		*fail_at = 0;
		return BER_READ_NOMEM;
	}
	const rtype *t = compiled(td);
	if (!t) {
		end = read_by_asn1c(&r, td, slot, buf, buf + len, 0);
	} else {
		/* The root, as a member of nothing: untagged, its type's own tags. */
		rmember root = { .type = t, .tag = t->tag0, .kind = t->kind };
		root.plain = plain_tag(&root);
#ifdef BER_GEN_ROOT
		/*
		 * The module's root with its own one-octet tag: the generated
		 * readers, if they match and (not counting the depth) may open as
		 * many levels as they can.
		 */
		if (!walk && td == &asn_DEF_MegacoMessage && gen_ready && root.plain &&
		    buf[0] == BER_GEN_ROOT_IDC && r.max_depth >= BER_GEN_LEVELS) {
			end = BER_GEN_ROOT(&r, &root, slot, buf, buf + len, 0);
			goto done;
		}
#endif
		(void)walk;
		ber_tlv_tag_t tag;
		pos q = get_tag(&r, buf, buf + len, &tag);
		if (q)
			end = read_value(&r, &root, slot, buf, q, tag, buf + len);
	}
#ifdef BER_GEN_ROOT
done:
#endif
	*needs_scan = r.needs_scan;
	if (!end) {
		*fail_at = r.fail_at ? (size_t)(r.fail_at - buf) : 0;
		return r.nomem ? BER_READ_NOMEM : BER_READ_FAIL;
	}
	*consumed = (size_t)(end - buf);
	return BER_READ_OK;
}

int ber_read(asn_TYPE_descriptor_t *td, void **slot, const unsigned char *buf, size_t len,
             megaco_arena *arena, unsigned max_depth, size_t *consumed, size_t *fail_at,
             int *needs_scan)
{
	return read_message(td, slot, buf, len, arena, max_depth, consumed, fail_at, needs_scan, 0);
}

int ber_read_tables(asn_TYPE_descriptor_t *td, void **slot, const unsigned char *buf, size_t len,
                    megaco_arena *arena, unsigned max_depth, size_t *consumed, size_t *fail_at,
                    int *needs_scan)
{
	return read_message(td, slot, buf, len, arena, max_depth, consumed, fail_at, needs_scan, 1);
}
