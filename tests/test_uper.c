/*
 * UPER reader and writer against asn1c's own uper_decode_complete() and
 * uper_encode(), the reference: byte-identical encodings (and equal to
 * corpus/per), identical models (DER and XER of both), and the same verdict
 * (ok / starved / malformed, bytes consumed) on every truncation and every
 * single-bit flip of every corpus message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "arena.h"
#include "internal.h"
#include "uper_bits.h"

static corpus *the_corpus;

typedef struct grow_buf {
	unsigned char *p;
	size_t len, cap;
} grow_buf;

static int grow_write(const void *data, size_t size, void *key)
{
	grow_buf *g = key;
	if (g->len + size > g->cap) {
		size_t cap = g->cap ? g->cap : 256;
		while (cap < g->len + size)
			cap *= 2;
		g->p = realloc(g->p, cap);
		if (!g->p)
			return -1;
		g->cap = cap;
	}
	memcpy(g->p + g->len, data, size);
	g->len += size;
	return 0;
}

/* DER and canonical XER of a model, concatenated: what "identical model" means here. */
static grow_buf dump(void *model)
{
	grow_buf g = { 0 };
	asn_enc_rval_t r = der_encode(&asn_DEF_MegacoMessage, model, grow_write, &g);
	grow_write(r.encoded < 0 ? "DER-FAIL|" : "|", r.encoded < 0 ? 9 : 1, &g);
	r = xer_encode(&asn_DEF_MegacoMessage, model, XER_F_CANONICAL, grow_write, &g);
	if (r.encoded < 0)
		grow_write("XER-FAIL", 8, &g);
	return g;
}

typedef struct verdict {
	int code;        /* UPER_OK / UPER_STARVED / UPER_FAIL */
	size_t consumed; /* bytes, when ok */
	grow_buf model;  /* dump, when ok */
} verdict;

static verdict by_asn1c(const unsigned char *b, size_t n, void **keep)
{
	verdict v = { 0 };
	asn_codec_ctx_t ctx = { 256u << 10 };
	void *model = NULL;
	asn_dec_rval_t r = uper_decode_complete(&ctx, &asn_DEF_MegacoMessage, &model, b, n);
	v.code = r.code == RC_OK ? UPER_OK : r.code == RC_WMORE ? UPER_STARVED : UPER_FAIL;
	if (v.code == UPER_OK) {
		v.consumed = r.consumed;
		v.model = dump(model);
	}
	if (keep && v.code == UPER_OK)
		*keep = model;
	else
		ASN_STRUCT_FREE(asn_DEF_MegacoMessage, model);
	return v;
}

static verdict by_reader(const unsigned char *b, size_t n)
{
	verdict v = { 0 };
	megaco_arena a;
	arena_init(&a, NULL, 4096);
	void *model = NULL;
	v.code = uper_read(uper_root(), &model, b, n, &a, MEGACO_DEPTH_CEILING, &v.consumed);
	if (v.code == UPER_OK)
		v.model = dump(model);
	arena_reset_blocks(&a);
	return v;
}

static int same(const verdict *x, const verdict *y)
{
	if (x->code != y->code)
		return 0;
	if (x->code != UPER_OK)
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
	assert_non_null(uper_root());
	size_t done = 0;
	for (size_t i = 0; i < the_corpus->count; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1] || !e->valid)
			continue;
		size_t n;
		unsigned char *b = read_file(e->path[MEGACO_ENC_PER - 1], &n);
		assert_non_null(b);
		void *model = NULL;
		verdict v = by_asn1c(b, n, &model);
		assert_int_equal(v.code, UPER_OK);
		grow_buf ref = { 0 };
		asn_enc_rval_t r = uper_encode(&asn_DEF_MegacoMessage, model, grow_write, &ref);
		assert_true(r.encoded > 0);
		assert_bytes_equal(e->name, ref.p, ref.len, b, n);
		unsigned char *out = malloc(n + 16);
		size_t len = 0;
		assert_int_equal(uper_write(uper_root(), model, out, n + 16, &len), 0);
		assert_bytes_equal(e->name, out, len, b, n);
		/* Too small: the size needed still comes back, the prefix is right. */
		for (size_t cap = 0; cap < n; cap += 1 + cap / 2) {
			memset(out, 0xAA, n + 16);
			assert_int_equal(uper_write(uper_root(), model, out, cap, &len), 0);
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

static void test_corpus_decode(void **state)
{
	(void)state;
	size_t done = 0;
	for (size_t i = 0; i < the_corpus->count; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1] || !e->valid)
			continue;
		size_t n;
		unsigned char *b = read_file(e->path[MEGACO_ENC_PER - 1], &n);
		verdict x = by_asn1c(b, n, NULL), y = by_reader(b, n);
		assert_int_equal(x.code, UPER_OK);
		assert_int_equal(y.code, UPER_OK);
		assert_int_equal(x.consumed, y.consumed);
		assert_bytes_equal(e->name, y.model.p, y.model.len, x.model.p, x.model.len);
		free(x.model.p);
		free(y.model.p);
		free(b);
		done++;
	}
	assert_int_equal(done, 149);
}

/* Every truncation, every single-bit flip, every byte set to 00 and FF. */
static void test_mutations(void **state)
{
	(void)state;
	for (size_t i = 0; i < the_corpus->count; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1])
			continue;
		size_t n;
		unsigned char *b = read_file(e->path[MEGACO_ENC_PER - 1], &n);
		unsigned char *m = malloc(n + 2);
		for (size_t cut = 0; cut <= n + 1; cut++) {
			memcpy(m, b, n);
			m[n] = 0;
			check_same(e->name, "truncated", m, cut);
		}
		for (size_t bit = 0; bit < 8 * n; bit++) {
			memcpy(m, b, n);
			m[bit >> 3] ^= (unsigned char)(0x80 >> (bit & 7));
			check_same(e->name, "bit flip", m, n);
		}
		for (size_t k = 0; k < n; k++) {
			memcpy(m, b, n);
			m[k] = 0;
			check_same(e->name, "byte 00", m, n);
			m[k] = 0xFF;
			check_same(e->name, "byte FF", m, n);
		}
		free(m);
		free(b);
	}
}

/* The depth bound: every corpus message needs some depth d <= 64 (the
 * default max_depth), and d - 1 is a clean failure. */
static void test_depth_bound(void **state)
{
	(void)state;
	unsigned deepest = 0;
	for (size_t i = 0; i < the_corpus->count; i++) {
		const corpus_entry *e = &the_corpus->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1] || !e->valid)
			continue;
		size_t n, used;
		unsigned char *b = read_file(e->path[MEGACO_ENC_PER - 1], &n);
		unsigned d = 0;
		int rc;
		do {
			megaco_arena a;
			arena_init(&a, NULL, 4096);
			void *model = NULL;
			rc = uper_read(uper_root(), &model, b, n, &a, ++d, &used);
			arena_reset_blocks(&a);
			if (rc != UPER_OK)
				assert_int_equal(rc, UPER_FAIL);
		} while (rc != UPER_OK && d < 64);
		assert_int_equal(rc, UPER_OK);
		if (d > deepest)
			deepest = d;
		free(b);
	}
	print_message("deepest corpus message: %u levels\n", deepest);
}

int main(int argc, char **argv)
{
	the_corpus = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_encode),
		cmocka_unit_test(test_corpus_decode),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_depth_bound),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(the_corpus);
	return rc;
}
