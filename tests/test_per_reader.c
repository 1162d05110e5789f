/*
 * The PER reader in its ALIGNED variant (X.691 ALIGNED, Erlang's "per"):
 * every corpus/aper vector (Erlang/OTP's encoding) decodes, to its last
 * octet, into the model its BER vector decodes to; and every truncation and
 * every single-bit flip of those vectors gets a verdict (under the
 * sanitizers: no overread, no leak). The UNALIGNED variant is held to
 * asn1c's decoder in test_uper.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "arena.h"
#include "internal.h"
#include "per_reader.h"

static corpus *C;

/* asn1c's DER of a model: equal bytes, equal models. */
static byte_sink der_of(const void *model)
{
	byte_sink g = { 0 };
	asn_enc_rval_t r = der_encode(&asn_DEF_MegacoMessage, (void *)model, byte_sink_write, &g);
	assert_true(r.encoded >= 0);
	return g;
}

/* corpus/aper/NAME, or NULL when the entry has none. */
static unsigned char *read_aper(const corpus_entry *e, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/aper/%s", C->dir, e->name);
	return read_file(path, len);
}

static int read_aligned(const unsigned char *b, size_t n, unsigned max_depth, byte_sink *model,
                        size_t *consumed)
{
	megaco_arena a;
	arena_init(&a, NULL, 4096);
	void *m = NULL;
	int rc = per_read(&m, b, n, 1, &a, max_depth, consumed);
	if (rc == PER_OK && model)
		*model = der_of(m);
	arena_reset_blocks(&a);
	return rc;
}

static void test_corpus_equals_ber(void **state)
{
	(void)state;
	size_t done = 0;
	for (size_t i = 0; i < C->count; i++) {
		const corpus_entry *e = &C->entries[i];
		if (!e->path[MEGACO_ENC_BER - 1] || !e->valid)
			continue;
		size_t n, used = 0;
		unsigned char *b = read_aper(e, &n);
		if (!b)
			continue;
		byte_sink got = { 0 };
		int rc = read_aligned(b, n, MEGACO_DEPTH_CEILING, &got, &used);
		if (rc != PER_OK || used != n)
			fail_msg("%s: aligned PER gives %d, %zu of %zu bytes", e->name, rc, used, n);
		megaco_message *m = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, NULL, NULL);
		byte_sink want = der_of(megaco_message_model_const(m));
		assert_bytes_equal(e->name, got.p, got.len, want.p, want.len);
		megaco_message_free(m);
		free(got.p);
		free(want.p);
		free(b);
		done++;
	}
	print_message("%zu aligned PER vectors decode to their BER vector's model\n", done);
	assert_true(done >= 149);
}

/* Cut short at every byte: starved or malformed, never accepted as another message's end. */
static void test_truncations_and_flips(void **state)
{
	(void)state;
	size_t cuts = 0, flips = 0;
	for (size_t i = 0; i < C->count; i++) {
		const corpus_entry *e = &C->entries[i];
		size_t n, used;
		unsigned char *b = read_aper(e, &n);
		if (!b)
			continue;
		for (size_t k = 0; k < n; k++) {
			/* A copy of exactly k bytes, so a sanitizer sees any read past it. */
			unsigned char *cut = malloc(k ? k : 1);
			memcpy(cut, b, k);
			int rc = read_aligned(cut, k, MEGACO_DEPTH_CEILING, NULL, &used);
			assert_true(rc == PER_STARVED || rc == PER_FAIL || (rc == PER_OK && used <= k));
			free(cut);
			cuts++;
		}
		for (size_t bit = 0; bit < 8 * n; bit++) {
			b[bit >> 3] ^= (unsigned char)(0x80 >> (bit & 7));
			int rc = read_aligned(b, n, 64, NULL, &used);
			assert_true(rc == PER_OK || rc == PER_STARVED || rc == PER_FAIL || rc == PER_DEEP ||
			            rc == PER_VERSION);
			if (rc == PER_OK)
				assert_true(used <= n);
			b[bit >> 3] ^= (unsigned char)(0x80 >> (bit & 7));
			flips++;
		}
		free(b);
	}
	print_message("%zu truncations, %zu bit flips\n", cuts, flips);
	assert_true(cuts > 0);
}

/* max_depth: each vector decodes at its own depth d and is too deep at d - 1. */
static void test_depth(void **state)
{
	(void)state;
	for (size_t i = 0; i < C->count; i++) {
		size_t n, used;
		unsigned char *b = read_aper(&C->entries[i], &n);
		if (!b)
			continue;
		unsigned d = 1;
		int rc;
		while ((rc = read_aligned(b, n, d, NULL, &used)) == PER_DEEP && d < 64)
			d++;
		assert_int_equal(rc, PER_OK);
		assert_true(d > 1);
		free(b);
	}
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_equals_ber),
		cmocka_unit_test(test_truncations_and_flips),
		cmocka_unit_test(test_depth),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
