/*
 * The 149 corpus messages through the binary codecs: every BER vector (from
 * Erlang/OTP megaco), every PER vector (UPER, agreed by two of three
 * implementations) and every APER vector (Erlang/OTP megaco's per) decodes
 * and re-encodes byte-identically, BER -> PER and BER -> APER give the
 * vectors, and BER -> model -> (A)PER -> model -> BER is identity; an encode
 * into any buffer too small is BUFFER_TOO_SMALL with the size it needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static corpus *C;

static void test_ber_vectors_round_trip(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		assert_int_equal(megaco_message_version(w.m), e->version);
		assert_int_equal(megaco_message_name_form(w.m), MEGACO_NAMES_BINARY);
		assert_encodes_to(e->name, w.m, MEGACO_ENC_BER, NULL, w.bytes, w.len);
		for (megaco_encoding enc = MEGACO_ENC_PER; enc <= MEGACO_ENC_APER; enc++) {
			if (!e->path[enc - 1])
				continue;
			size_t per_len;
			unsigned char *per = read_file(e->path[enc - 1], &per_len);
			assert_non_null(per);
			assert_encodes_to(e->name, w.m, enc, NULL, per, per_len);
			free(per);
		}
	}
	assert_int_equal(w.files, 149);
}

/* enc: MEGACO_ENC_PER or MEGACO_ENC_APER, whose corpus vectors are read. */
static void per_vectors_round_trip(megaco_encoding enc)
{
	corpus_walk w = { .c = C, .first = enc, .decode = 1 };
	while (corpus_next(&w)) {
		const char *name = w.e->name;
		unsigned char *ber;
		size_t ber_len;
		assert_encodes_to(name, w.m, enc, NULL, w.bytes, w.len);
		/* Decode -> BER gives the BER vector. */
		megaco_message *from_ber = decode_file(w.e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, &ber,
		                                       &ber_len);
		assert_encodes_to(name, w.m, MEGACO_ENC_BER, NULL, ber, ber_len);

		/* BER -> model -> PER -> model -> BER is identity. */
		void *p = NULL;
		size_t plen = 0;
		assert_int_equal(megaco_encode_alloc(from_ber, enc, NULL, &p, &plen, NULL), MEGACO_OK);
		megaco_message *again = NULL;
		assert_int_equal(megaco_decode(enc, p, plen, NULL, &again, NULL), MEGACO_OK);
		assert_encodes_to(name, again, MEGACO_ENC_BER, NULL, ber, ber_len);

		megaco_buffer_free(p, NULL);
		megaco_message_free(again);
		megaco_message_free(from_ber);
		free(ber);
	}
	assert_int_equal(w.files, 149);
}

static void test_per_vectors_round_trip(void **state)
{
	(void)state;
	per_vectors_round_trip(MEGACO_ENC_PER);
}

static void test_aper_vectors_round_trip(void **state)
{
	(void)state;
	per_vectors_round_trip(MEGACO_ENC_APER);
}

static void test_detect_binary(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .last = MEGACO_ENC_APER };
	while (corpus_next(&w)) {
		megaco_encoding got;
		int v;
		assert_int_equal(megaco_detect(w.bytes, w.len, &got, &v), MEGACO_OK);
		if (got != w.enc || v != w.e->version)
			fail_msg("%s: detected %s v%d, expected %s v%d", w.path, megaco_encoding_name(got), v,
			         megaco_encoding_name(w.enc), w.e->version);
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(MEGACO_ENC_AUTO, w.bytes, w.len, NULL, &m, NULL), MEGACO_OK);
		megaco_message_free(m);
	}
}

/*
 * Every BER message encoded to BER, PER and APER into a heap buffer of every size
 * short of the message (cap 0 with a NULL buffer): BUFFER_TOO_SMALL each
 * time, the same size needed each time, and (under ASan, a buffer of exactly
 * cap bytes) no write past cap. Then the exact size succeeds with the bytes
 * of an unconstrained encode.
 */
static void test_caller_buffer_too_small(void **state)
{
	(void)state;
	int failures = 0;
	size_t tried = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (failures < 10 && corpus_next(&w)) {
		for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
			void *full = NULL;
			size_t need = 0;
			assert_int_equal(megaco_encode_alloc(w.m, enc, NULL, &full, &need, NULL), MEGACO_OK);
			for (size_t cap = 0; cap < need; cap++) {
				unsigned char *buf = cap ? malloc(cap) : NULL;
				size_t said = 0;
				megaco_error err;
				int rc = megaco_encode(w.m, enc, NULL, buf, cap, &said, &err);
				if (rc != MEGACO_ERR_BUFFER_TOO_SMALL || err.code != rc || said != need) {
					print_message("%s to %s into %zu bytes: %s, needs %zu (not %zu)\n", w.e->name,
					              megaco_encoding_name(enc), cap, megaco_strerror(rc), said, need);
					failures++;
				}
				free(buf);
				tried++;
			}
			unsigned char *exact = malloc(need);
			size_t got = 0;
			assert_int_equal(megaco_encode(w.m, enc, NULL, exact, need, &got, NULL), MEGACO_OK);
			assert_int_equal(got, need);
			assert_memory_equal(exact, full, need);
			free(exact);
			megaco_buffer_free(full, NULL);
		}
	}
	corpus_stop(&w);
	assert_int_equal(failures, 0);
	assert_true(tried > 0);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ber_vectors_round_trip),
		cmocka_unit_test(test_per_vectors_round_trip),
		cmocka_unit_test(test_aper_vectors_round_trip),
		cmocka_unit_test(test_detect_binary),
		cmocka_unit_test(test_caller_buffer_too_small),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
