/*
 * UPER reader and writer against asn1c's own uper_decode_complete() and
 * uper_encode(), the reference: byte-identical encodings (and equal to
 * corpus/per), identical models (DER and XER of both), and the same verdict
 * (ok / starved / malformed, bytes consumed) on every truncation and every
 * single-bit flip of every corpus message; the writer also refuses exactly
 * what asn1c refuses when model nodes are bent out of their constraints.
 * asn1c's descriptors are the v3 module's; for a message of a version whose
 * module differs in PER (the v1 module's mandatory requestID) the reference
 * is asn1c with those descriptors as that module has them (module_for()).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "EventsDescriptor.h"
#include "MegacoMessage.h"
#include "SecondEventsDescriptor.h"
#include "arena.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SEQUENCE_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "internal.h"
#include "megaco_schema.h"
#include "per_reader.h"
#include "per_writer.h"
#include "schema.h"

static corpus *the_corpus;

/*
 * The corpus entry at *i or after it that has a PER file (and is valid,
 * with valid_only): *i and *e moved to it, its bytes returned (malloc'd,
 * length *n); NULL when no entry is left.
 */
static unsigned char *next_per(size_t *i, int valid_only, const corpus_entry **e, size_t *n)
{
	for (; *i < the_corpus->count; ++*i) {
		*e = &the_corpus->entries[*i];
		if (!(*e)->path[MEGACO_ENC_PER - 1] || (valid_only && !(*e)->valid))
			continue;
		unsigned char *b = read_file((*e)->path[MEGACO_ENC_PER - 1], n);
		assert_non_null(b);
		return b;
	}
	return NULL;
}

/* --- the reference by the module of the message's version ----------------- */

/*
 * A SEQUENCE with members that an older module has as mandatory (schema
 * opt_since > 1): asn1c's descriptor as the v3 module has it, and as the
 * older module does (those members not optional, no presence bit). asn1c's
 * descriptors are writable data; module_for() swaps in the ones a version's
 * module has, which is how the test asks asn1c about that module.
 */
typedef struct module_swap {
	asn_TYPE_descriptor_t *td;
	asn_TYPE_member_t *v3_elements, older_elements[16];
	const void *v3_specifics;
	struct asn_SEQUENCE_specifics_s older_specifics; /* (asn1c's typedef is const) */
	int older_oms[16];
	long since; /* the older layout below this version */
} module_swap;

static module_swap swaps[8];
static int nswaps;

static void find_swaps(asn_TYPE_descriptor_t *td, asn_TYPE_descriptor_t **seen, int *nseen)
{
	for (int i = 0; i < *nseen; i++)
		if (seen[i] == td)
			return;
	assert_true(*nseen < 1024);
	seen[(*nseen)++] = td;
	for (int i = 0; i < td->elements_count; i++)
		find_swaps(td->elements[i].type, seen, nseen);
	if (td->free_struct != SEQUENCE_free || !td->name)
		return;
	for (unsigned t = 0; t < SCHEMA_NTYPES; t++) {
		const schema_type *ty = &schema_types[t];
		if (ty->kind != SK_SEQUENCE || !ty->name || strcmp(ty->name, td->name))
			continue;
		module_swap *w = &swaps[nswaps];
		const asn_SEQUENCE_specifics_t *v3 = td->specifics;
		assert_true(td->elements_count <= 16 && v3->roms_count + v3->aoms_count <= 16);
		memcpy(w->older_elements, td->elements, (size_t)td->elements_count * sizeof *td->elements);
		w->older_specifics = *v3;
		w->older_specifics.roms_count = 0;
		w->older_specifics.oms = w->older_oms;
		w->since = 0;
		for (int r = 0; r < v3->roms_count; r++) {
			const schema_member *m = &schema_members[ty->first + v3->oms[r]];
			if (m->opt_since > 1) {
				w->older_elements[v3->oms[r]].optional = 0;
				w->since = m->opt_since;
			} else {
				w->older_oms[w->older_specifics.roms_count++] = v3->oms[r];
			}
		}
		for (int r = 0; r < v3->aoms_count; r++) /* the additions' own, after the root's */
			w->older_oms[w->older_specifics.roms_count + r] = v3->oms[v3->roms_count + r];
		if (!w->since)
			continue;
		assert_true(nswaps + 1 < (int)(sizeof swaps / sizeof swaps[0]));
		w->td = td;
		w->v3_elements = td->elements;
		w->v3_specifics = td->specifics;
		nswaps++;
	}
}

/* asn1c as the module of version v has it (LONG_MAX: the v3 module). */
static void module_for(long v)
{
	static int found;
	if (!found) {
		static asn_TYPE_descriptor_t *seen[1024];
		int nseen = 0;
		find_swaps(&asn_DEF_MegacoMessage, seen, &nseen);
		found = 1;
		assert_true(nswaps > 0); /* the schema has such members: the v1 module's requestID */
	}
	for (int i = 0; i < nswaps; i++) {
		module_swap *w = &swaps[i];
		int older = v < w->since;
		w->td->elements = older ? w->older_elements : w->v3_elements;
		w->td->specifics = older ? (const void *)&w->older_specifics : w->v3_specifics;
	}
}

/* DER and canonical XER of a model, concatenated: what "identical model" means here. */
static byte_sink dump(void *model)
{
	byte_sink g = { 0 };
	asn_enc_rval_t r = der_encode(&asn_DEF_MegacoMessage, model, byte_sink_write, &g);
	byte_sink_write(r.encoded < 0 ? "DER-FAIL|" : "|", r.encoded < 0 ? 9 : 1, &g);
	r = xer_encode(&asn_DEF_MegacoMessage, model, XER_F_CANONICAL, byte_sink_write, &g);
	if (r.encoded < 0)
		byte_sink_write("XER-FAIL", 8, &g);
	return g;
}

typedef struct verdict {
	int code;        /* PER_OK / PER_STARVED / PER_FAIL / PER_VERSION */
	size_t consumed; /* bytes, when ok */
	byte_sink model;  /* dump, when ok */
	long version;    /* asn1c: Message.version as far as it got (0 if not that far) */
	int or_code;     /* the reference: a second verdict code also right, or -1 */
} verdict;

/* asn1c under the module module_for() last chose. */
static verdict by_asn1c_now(const unsigned char *b, size_t n, void **keep)
{
	verdict v = { 0 };
	v.or_code = -1;
	asn_codec_ctx_t ctx = { 256u << 10 };
	MegacoMessage_t *model = NULL;
	asn_dec_rval_t r = uper_decode_complete(&ctx, &asn_DEF_MegacoMessage, (void **)&model, b, n);
	v.code = r.code == RC_OK ? PER_OK : r.code == RC_WMORE ? PER_STARVED : PER_FAIL;
	v.version = model ? model->mess.version : 0;
	if (v.code == PER_OK) {
		v.consumed = r.consumed;
		v.model = dump(model);
	}
	if (keep && v.code == PER_OK)
		*keep = model;
	else
		ASN_STRUCT_FREE(asn_DEF_MegacoMessage, model);
	return v;
}

/* Whether version v's module differs from the v3 one in asn1c's descriptors. */
static int older_module(long v)
{
	int older = 0;
	for (int i = 0; i < nswaps; i++)
		older |= v < swaps[i].since;
	return older;
}

/*
 * The reference verdict: asn1c by the module of the version it reads, first
 * tried with the version where a message without authHeader has it (7 bits
 * after two), again by the other module if the version read needs it. A
 * version outside 1..3 is PER_VERSION once read (a version asn1c leaves at
 * 0 may not have been read: then its own verdict is right too).
 */
static verdict by_asn1c(const unsigned char *b, size_t n, void **keep)
{
	long guess = n >= 2 && !(b[0] & 0x80) ? (((long)b[0] << 8 | b[1]) >> 7) & 0x7f : LONG_MAX;
	module_for(guess);
	verdict v = by_asn1c_now(b, n, keep);
	if (v.version >= 1 && v.version <= 3 && older_module(v.version) != older_module(guess)) {
		free(v.model.p);
		if (keep && v.code == PER_OK)
			ASN_STRUCT_FREE(asn_DEF_MegacoMessage, *keep);
		module_for(v.version);
		v = by_asn1c_now(b, n, keep);
	}
	module_for(LONG_MAX);
	if (v.version < 0 || v.version > 3 || (v.version == 0 && v.code == PER_OK)) {
		free(v.model.p);
		if (keep && v.code == PER_OK)
			ASN_STRUCT_FREE(asn_DEF_MegacoMessage, *keep);
		verdict x = { PER_VERSION, 0, { 0 }, v.version, -1 };
		return x;
	}
	if (v.version == 0)
		v.or_code = PER_VERSION;
	return v;
}

static verdict by_reader(const unsigned char *b, size_t n)
{
	verdict v = { 0 };
	v.or_code = -1;
	megaco_arena a;
	arena_init(&a, NULL, 4096);
	void *model = NULL;
	v.code = per_read(&model, b, n, 0, &a, MEGACO_DEPTH_CEILING, &v.consumed);
	if (v.code == PER_OK)
		v.model = dump(model);
	arena_reset_blocks(&a);
	return v;
}

static int same(const verdict *x, const verdict *y)
{
	if (y->code == x->or_code && x->or_code != PER_OK)
		return 1;
	if (x->code != y->code)
		return 0;
	if (x->code != PER_OK)
		return 1;
	return x->consumed == y->consumed && x->model.len == y->model.len &&
	       memcmp(x->model.p, y->model.p, x->model.len) == 0;
}

static void check_same(const char *name, const char *what, const unsigned char *b, size_t n)
{
	verdict x = by_asn1c(b, n, NULL), y = by_reader(b, n);
	if (!same(&x, &y))
		fail_msg("%s (%s, %zu bytes): asn1c %d/%zu, reader %d/%zu", name, what, n, x.code, x.consumed,
		         y.code, y.consumed);
	free(x.model.p);
	free(y.model.p);
}

static void test_corpus_encode(void **state)
{
	(void)state;
	size_t done = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		void *model = NULL;
		verdict v = by_asn1c(b, n, &model);
		assert_int_equal(v.code, PER_OK);
		byte_sink ref = { 0 };
		module_for(((MegacoMessage_t *)model)->mess.version);
		asn_enc_rval_t r = uper_encode(&asn_DEF_MegacoMessage, model, byte_sink_write, &ref);
		module_for(LONG_MAX);
		assert_true(r.encoded > 0);
		assert_bytes_equal(e->name, ref.p, ref.len, b, n);
		unsigned char *out = malloc(n + 16);
		size_t len = 0;
		assert_int_equal(per_write(SCHEMA_ROOT, model, 0, MEGACO_DEPTH_CEILING,
		                           &megaco_default_allocator, out, n + 16, &len, NULL),
		                 MEGACO_OK);
		assert_bytes_equal(e->name, out, len, b, n);
		/* Too small: the size needed still comes back, the prefix is right. */
		for (size_t cap = 0; cap < n; cap += 1 + cap / 2) {
			memset(out, 0xAA, n + 16);
			assert_int_equal(per_write(SCHEMA_ROOT, model, 0, MEGACO_DEPTH_CEILING,
			                           &megaco_default_allocator, out, cap, &len, NULL),
			                 MEGACO_ERR_BUFFER_TOO_SMALL);
			assert_int_equal(len, n);
			assert_memory_equal(out, b, cap);
			assert_int_equal(out[cap], 0xAA);
		}
		free(out);
		free(ref.p);
		free(v.model.p);
		ASN_STRUCT_FREE(asn_DEF_MegacoMessage, model);
		free(b);
		done++;
	}
	assert_int_equal(done, 149);
}

/* --- writer: constraint verdicts ------------------------------------------ */

typedef struct leaf_list {
	schema_node n[4096];
	size_t count;
} leaf_list;

static int collect(const schema_node *n, void *ctx)
{
	leaf_list *l = ctx;
	if (l->count < sizeof l->n / sizeof l->n[0])
		l->n[l->count++] = *n;
	return WALK_CONTINUE;
}

/* The writer's verdict and bytes against asn_check_constraints() + uper_encode(). */
static void writer_agrees(const char *name, const char *what, void *model)
{
	byte_sink ref = { 0 };
	module_for(((MegacoMessage_t *)model)->mess.version);
	int ok = asn_check_constraints(&asn_DEF_MegacoMessage, model, NULL, NULL) == 0;
	if (ok)
		ok = uper_encode(&asn_DEF_MegacoMessage, model, byte_sink_write, &ref).encoded >= 0;
	module_for(LONG_MAX);
	static unsigned char out[65536];
	size_t len = 0;
	int rc = per_write(SCHEMA_ROOT, model, 0, MEGACO_DEPTH_CEILING, &megaco_default_allocator,
	                   out, sizeof out, &len, NULL);
	if ((rc == 0) != ok)
		fail_msg("%s (%s): writer %d, asn1c %s", name, what, rc, ok ? "encodes" : "refuses");
	if (ok)
		assert_bytes_equal(name, out, len, ref.p, ref.len);
	free(ref.p);
}

/* Whether type td has been bent 4 times already (keeps the test quick under ASan). */
static int seen_enough(const schema_type *td)
{
	static struct {
		const schema_type *td;
		int n;
	} seen[1024];
	static size_t nseen;
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].td == td)
			return seen[i].n++ >= 4;
	if (nseen < sizeof seen / sizeof seen[0])
		seen[nseen++].td = td;
	return 0;
}

/*
 * Every string of a message made longer, its octets repeated: where it sits
 * in an open type (an extension addition), the writer must give that a
 * two-octet length, or fragments.
 */
static void lengthen(const char *name, OCTET_STRING_t *os, void *model)
{
	static uint8_t longer[20000];
	OCTET_STRING_t keep = *os;
	if (os->size <= 0)
		return;
	for (size_t j = 0; j < sizeof longer; j++)
		longer[j] = keep.buf[j % (size_t)keep.size];
	os->buf = longer;
	os->size = 200;
	writer_agrees(name, "200 octets", model);
	/* Fragments are slow to make the asn1c way: a few hundred will do. */
	static int fragmented;
	if (fragmented++ < 300) {
		os->size = (int)sizeof longer;
		writer_agrees(name, "20000 octets", model);
	}
	*os = keep;
}

/*
 * Nodes of the corpus messages (a few of each type) broken or bent one way
 * at a time: strings with a high byte, one octet shorter, or without a
 * buffer; numbers and enumerations out of range; CHOICEs with no or an
 * unknown alternative; lists emptied. The writer must refuse exactly what
 * asn1c refuses and otherwise write asn1c's bytes.
 */
static void test_encode_mutations(void **state)
{
	(void)state;
	static leaf_list l;
	size_t tried = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		void *model = NULL;
		verdict v = by_asn1c(b, n, &model);
		assert_int_equal(v.code, PER_OK);
		l.count = 0;
		schema_walk(SCHEMA_ROOT, model, collect, &l);
		for (size_t k = 0; k < l.count; k++) {
			const schema_type *td = &schema_types[l.n[k].type];
			void *p = l.n[k].ptr;
			if (td->kind >= SK_OCTETS) /* OCTET STRING, IA5String, BIT STRING, OID */
				lengthen(e->name, p, model);
			if (seen_enough(td))
				continue;
			if (td->kind >= SK_OCTETS) {
				OCTET_STRING_t *os = p, keep = *os;
				if (os->size > 0) {
					uint8_t first = os->buf[0];
					os->buf[0] |= 0x80;
					writer_agrees(e->name, "high byte", model);
					os->buf[0] = first;
					os->size--;
					writer_agrees(e->name, "one octet shorter", model);
					*os = keep;
				}
				os->buf = NULL;
				os->size = 0;
				writer_agrees(e->name, "no buffer", model);
				*os = keep;
			} else if (td->kind == SK_INT || td->kind == SK_ENUM) {
				long *num = p, keep = *num;
				static const long bent[] = { -1, 100, 65536, LONG_MAX };
				for (size_t j = 0; j < sizeof bent / sizeof bent[0]; j++) {
					*num = bent[j];
					writer_agrees(e->name, "number", model);
				}
				*num = keep;
			} else if (td->kind == SK_CHOICE) {
				if (td->pres_size != sizeof(int))
					continue;
				int *pres = (int *)((char *)p + td->pres_offset), keep = *pres;
				*pres = 0;
				writer_agrees(e->name, "no alternative", model);
				*pres = td->count + 1;
				writer_agrees(e->name, "unknown alternative", model);
				*pres = keep;
			} else if (td->kind == SK_SEQUENCE_OF || td->kind == SK_SET_OF) {
				asn_anonymous_sequence_ *list = _A_SEQUENCE_FROM_VOID(p);
				int keep = list->count;
				list->count = 0;
				writer_agrees(e->name, "empty list", model);
				list->count = keep;
			}
			tried++;
		}
		writer_agrees(e->name, "restored", model);
		free(v.model.p);
		ASN_STRUCT_FREE(asn_DEF_MegacoMessage, model);
		free(b);
	}
	print_message("writer verdicts on %zu mutated nodes\n", tried);
}

/*
 * The writer's depth bound is the reader's: under every max_depth, a corpus
 * message encodes exactly when its bytes decode (else TOO_DEEP).
 */
static void test_depth_agrees(void **state)
{
	(void)state;
	unsigned refused = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(MEGACO_ENC_PER, b, n, NULL, &m, NULL), MEGACO_OK);
		for (unsigned d = 1; d <= 40; d++) {
			megaco_options o;
			megaco_options_init(&o);
			o.max_depth = d;
			megaco_message *back = NULL;
			int drc = megaco_decode(MEGACO_ENC_PER, b, n, &o, &back, NULL);
			megaco_message_free(back);
			static unsigned char out[65536];
			size_t len = 0;
			int erc = megaco_encode(m, MEGACO_ENC_PER, &o, out, sizeof out, &len, NULL);
			if ((drc == MEGACO_OK) != (erc == MEGACO_OK) ||
			    (erc != MEGACO_OK && erc != MEGACO_ERR_TOO_DEEP))
				fail_msg("%s, max_depth %u: decode %s, encode %s", e->name, d,
				         megaco_strerror(drc), megaco_strerror(erc));
			refused += erc != MEGACO_OK;
		}
		megaco_message_free(m);
		free(b);
	}
	assert_true(refused > 0);
}

static void test_corpus_decode(void **state)
{
	(void)state;
	size_t done = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		verdict x = by_asn1c(b, n, NULL), y = by_reader(b, n);
		assert_int_equal(x.code, PER_OK);
		assert_int_equal(y.code, PER_OK);
		assert_int_equal(x.consumed, y.consumed);
		assert_bytes_equal(e->name, y.model.p, y.model.len, x.model.p, x.model.len);
		free(x.model.p);
		free(y.model.p);
		free(b);
		done++;
	}
	assert_int_equal(done, 149);
}

/*
 * Every truncation, every single-bit flip, every byte set to 00 and FF.
 * Under an emulator (test_light()), each octet gets one flip, the bit
 * rotating with the octet's position, and 00 or FF in turn.
 */
static void test_mutations(void **state)
{
	(void)state;
	int light = test_light();
	if (light)
		test_light_note("test_mutations flips one bit per octet (bit = octet index mod 8) "
		                "instead of all 8, and sets each octet to 00 or FF in turn instead "
		                "of both; every truncation as before");
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 0, &e, &n)); i++) {
		unsigned char *m = malloc(n + 2);
		for (size_t cut = 0; cut <= n + 1; cut++) {
			memcpy(m, b, n);
			m[n] = 0;
			check_same(e->name, "truncated", m, cut);
		}
		for (size_t bit = 0; bit < 8 * n; bit++) {
			if (light && bit % 8 != bit / 8 % 8)
				continue;
			memcpy(m, b, n);
			m[bit >> 3] ^= (unsigned char)(0x80 >> (bit & 7));
			check_same(e->name, "bit flip", m, n);
		}
		for (size_t k = 0; k < n; k++) {
			memcpy(m, b, n);
			if (!light || k % 2 == 0) {
				m[k] = 0;
				check_same(e->name, "byte 00", m, n);
			}
			if (!light || k % 2 == 1) {
				m[k] = 0xFF;
				check_same(e->name, "byte FF", m, n);
			}
		}
		free(m);
		free(b);
	}
}

/* Inputs past the reader's stack copy (4 KB) take its heap copy; the
 * message is then followed by trailing zeros, which asn1c leaves unread. */
static void test_large_input(void **state)
{
	(void)state;
	const size_t big = 5000;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 0, &e, &n)); i++) {
		unsigned char *m = calloc(1, big);
		assert_non_null(m);
		memcpy(m, b, n < big ? n : big);
		check_same(e->name, "zero padded", m, big);
		check_same(e->name, "4 KB", m, 4096 - 8 + 1);
		free(m);
		free(b);
	}
}

/* The depth bound: every corpus message needs some depth d <= 64 (the
 * default max_depth), and d - 1 is a clean "too deep". */
static void test_depth_bound(void **state)
{
	(void)state;
	unsigned deepest = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		size_t used;
		unsigned d = 0;
		int rc;
		do {
			megaco_arena a;
			arena_init(&a, NULL, 4096);
			void *model = NULL;
			rc = per_read(&model, b, n, 0, &a, ++d, &used);
			arena_reset_blocks(&a);
			if (rc != PER_OK)
				assert_int_equal(rc, PER_DEEP);
		} while (rc != PER_OK && d < 64);
		assert_int_equal(rc, PER_OK);
		if (d > deepest)
			deepest = d;
		free(b);
	}
	print_message("deepest corpus message: %u levels\n", deepest);
}

/*
 * The reader carves a list's first array out of its node space, with the
 * size header arena.h puts before allocations: asn_set_add() on a decoded
 * model (through arena_realloc) must grow it and keep the elements.
 */
static void test_list_grows_after_decode(void **state)
{
	(void)state;
	unsigned grown = 0;
	const corpus_entry *e;
	unsigned char *b;
	size_t n;
	for (size_t i = 0; (b = next_per(&i, 1, &e, &n)); i++) {
		size_t used;
		megaco_arena a;
		arena_init(&a, NULL, 4096);
		MegacoMessage_t *m = NULL;
		int rc = per_read((void **)&m, b, n, 0, &a, MEGACO_DEPTH_CEILING, &used);
		assert_int_equal(rc, PER_OK);
		if (m->mess.messageBody.present == Message__messageBody_PR_transactions) {
			asn_anonymous_set_ *list =
				_A_SET_FROM_VOID(&m->mess.messageBody.choice.transactions);
			int count = list->count;
			void *before[4];
			assert_true(count > 0);
			for (int k = 0; k < count && k < 4; k++)
				before[k] = list->array[k];
			megaco_arena *prev = arena_set_current(&a);
			for (int k = 0; k < 40; k++)
				assert_int_equal(asn_set_add(list, list->array[k % count]), 0);
			arena_set_current(prev);
			assert_int_equal(list->count, count + 40);
			for (int k = 0; k < count && k < 4; k++)
				assert_ptr_equal(list->array[k], before[k]);
			for (int k = 0; k < 40; k++)
				assert_ptr_equal(list->array[count + k], list->array[k % count]);
			grown++;
		}
		arena_reset_blocks(&a);
		free(b);
	}
	assert_true(grown > 0);
}

/* --- version 1: the v1 module's mandatory requestID ------------------------ */

static int events_visit(const schema_node *n, void *found)
{
	if (n->type == SCHEMA_T_EventsDescriptor || n->type == SCHEMA_T_SecondEventsDescriptor) {
		*(void **)found = n->ptr;
		return -1;
	}
	return WALK_CONTINUE;
}

/* The first Events or SecondEvents descriptor of a model (both keep requestID first). */
static EventsDescriptor_t *first_events(MegacoMessage_t *m)
{
	void *found = NULL;
	schema_walk(SCHEMA_ROOT, m, events_visit, &found);
	return found;
}

/* PER (aligned or not) of a model, by per_write (no version gate): malloc'd. */
static unsigned char *write_per(const void *model, int aligned, size_t *len)
{
	static unsigned char out[65536];
	assert_int_equal(per_write(SCHEMA_ROOT, model, aligned, MEGACO_DEPTH_CEILING,
	                           &megaco_default_allocator, out, sizeof out, len, NULL),
	                 MEGACO_OK);
	unsigned char *b = malloc(*len);
	memcpy(b, out, *len);
	return b;
}

/*
 * Every version 1 corpus message, in both variants, against itself as
 * version 2: the bytes differ only in the version field (7 bits after the
 * authHeader bit and Message's extension bit, none of the corpus has an
 * authHeader) exactly when it holds no Events descriptor; with one, the v1
 * module has no presence bit for requestID, so more differs. Either way the
 * reader gives back each model, the version included.
 */
static void test_v1_module(void **state)
{
	(void)state;
	size_t v1 = 0, with_events = 0;
	for (size_t i = 0; i < the_corpus->count; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1] || !e->valid || e->version != 1)
			continue;
		megaco_message *msg = decode_file(e->path[MEGACO_ENC_PER - 1], MEGACO_ENC_PER, NULL, NULL);
		MegacoMessage_t *m = (MegacoMessage_t *)megaco_message_model(msg);
		int events = first_events(m) != NULL;
		for (int aligned = 0; aligned < 2; aligned++) {
			size_t n1, n2;
			unsigned char *b1 = write_per(m, aligned, &n1);
			m->mess.version = 2;
			unsigned char *b2 = write_per(m, aligned, &n2);
			m->mess.version = 1;
			assert_int_equal(b2[0] & 0x80, 0); /* no authHeader */
			unsigned head1 = (unsigned)b1[0] << 8 | b1[1], head2 = (unsigned)b2[0] << 8 | b2[1];
			int same_but_version = n1 == n2 && !memcmp(b1 + 2, b2 + 2, n1 - 2) &&
			                       ((head1 ^ head2) & ~(0x7fu << 7)) == 0;
			if (same_but_version == events)
				fail_msg("%s (%s): v1 and v2 bytes %s beyond the version, Events descriptor %s",
				         e->name, aligned ? "APER" : "UPER", events ? "agree" : "differ",
				         events ? "present" : "absent");
			const unsigned char *bs[2] = { b1, b2 };
			size_t ns[2] = { n1, n2 };
			for (int v = 0; v < 2; v++) {
				megaco_arena a;
				arena_init(&a, NULL, 4096);
				MegacoMessage_t *back = NULL;
				size_t used = 0;
				assert_int_equal(per_read((void **)&back, bs[v], ns[v], aligned, &a,
				                          MEGACO_DEPTH_CEILING, &used), PER_OK);
				assert_int_equal(used, ns[v]);
				assert_int_equal(back->mess.version, v + 1);
				back->mess.version = 1;
				byte_sink x = dump(back), y = dump(m);
				assert_bytes_equal(e->name, x.p, x.len, y.p, y.len);
				free(x.p);
				free(y.p);
				arena_reset_blocks(&a);
			}
			free(b1);
			free(b2);
		}
		with_events += events;
		v1++;
		megaco_message_free(msg);
	}
	print_message("%zu version 1 messages, %zu with an Events descriptor\n", v1, with_events);
	assert_true(with_events > 0 && with_events < v1);
}

/*
 * A version 1 Events descriptor without requestID: the PER writer refuses it
 * (MEGACO_ERR_CONSTRAINT naming the member), in both variants; as version 2
 * it is written, without. megaco_encode() refuses it for every binary
 * encoding before any encoder (the version gate, docs/aper.md).
 */
static void test_v1_request_id_required(void **state)
{
	(void)state;
	megaco_message *msg = NULL;
	for (size_t i = 0; i < the_corpus->count && !msg; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (e->version != 1 || !e->valid || !e->path[MEGACO_ENC_BER - 1])
			continue;
		msg = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, NULL, NULL);
		if (!first_events((MegacoMessage_t *)megaco_message_model(msg))) {
			megaco_message_free(msg);
			msg = NULL;
		}
	}
	assert_non_null(msg);
	MegacoMessage_t *m = (MegacoMessage_t *)megaco_message_model(msg);
	EventsDescriptor_t *ev = first_events(m);
	RequestID_t *id = ev->requestID;
	ev->requestID = NULL;
	static unsigned char out[65536];
	for (int aligned = 0; aligned < 2; aligned++) {
		size_t len = 0;
		megaco_error err;
		assert_int_equal(per_write(SCHEMA_ROOT, m, aligned, MEGACO_DEPTH_CEILING,
		                           &megaco_default_allocator, out, sizeof out, &len, &err),
		                 MEGACO_ERR_CONSTRAINT);
		assert_non_null(strstr(err.message, "Descriptor.requestID"));
		m->mess.version = 2;
		assert_int_equal(per_write(SCHEMA_ROOT, m, aligned, MEGACO_DEPTH_CEILING,
		                           &megaco_default_allocator, out, sizeof out, &len, NULL),
		                 MEGACO_OK);
		m->mess.version = 1;
	}
	static const megaco_encoding binary[] = { MEGACO_ENC_BER, MEGACO_ENC_PER, MEGACO_ENC_APER };
	for (size_t k = 0; k < sizeof binary / sizeof binary[0]; k++) {
		size_t len = 0;
		megaco_error err;
		assert_int_not_equal(megaco_encode(msg, binary[k], NULL, out, sizeof out, &len, &err),
		                     MEGACO_OK);
		assert_non_null(strstr(err.message, "requestID"));
	}
	ev->requestID = id;
	megaco_message_free(msg);
}

int main(int argc, char **argv)
{
	the_corpus = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_encode),
		cmocka_unit_test(test_encode_mutations),
		cmocka_unit_test(test_depth_agrees),
		cmocka_unit_test(test_corpus_decode),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_depth_bound),
		cmocka_unit_test(test_large_input),
		cmocka_unit_test(test_list_grows_after_decode),
		cmocka_unit_test(test_v1_module),
		cmocka_unit_test(test_v1_request_id_required),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(the_corpus);
	return rc;
}
