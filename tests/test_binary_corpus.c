/*
 * The 149 corpus messages through the binary codecs: every BER vector (from
 * Erlang/OTP megaco) and every PER vector (UPER, agreed by two of three
 * implementations) decodes and re-encodes byte-identically, BER -> PER gives
 * the PER vector, and BER -> model -> PER -> model -> BER is identity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static corpus *C;

static void test_ber_vectors_round_trip(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (!e->path[MEGACO_ENC_BER - 1])
			continue;
		unsigned char *ber;
		size_t ber_len;
		megaco_message *m = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, &ber, &ber_len);
		assert_int_equal(megaco_message_version(m), e->version);
		assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_BINARY);
		assert_encodes_to(e->name, m, MEGACO_ENC_BER, NULL, ber, ber_len);
		if (e->path[MEGACO_ENC_PER - 1]) {
			size_t per_len;
			unsigned char *per = read_file(e->path[MEGACO_ENC_PER - 1], &per_len);
			assert_non_null(per);
			assert_encodes_to(e->name, m, MEGACO_ENC_PER, NULL, per, per_len);
			free(per);
		}
		megaco_message_free(m);
		free(ber);
		n++;
	}
	assert_int_equal(n, 149);
}

static void test_per_vectors_round_trip(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (!e->path[MEGACO_ENC_PER - 1])
			continue;
		unsigned char *per, *ber;
		size_t per_len, ber_len;
		megaco_message *m = decode_file(e->path[MEGACO_ENC_PER - 1], MEGACO_ENC_PER, &per, &per_len);
		assert_encodes_to(e->name, m, MEGACO_ENC_PER, NULL, per, per_len);

		/* BER -> model -> PER -> model -> BER is identity. */
		megaco_message *from_ber = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, &ber,
		                                       &ber_len);
		void *p = NULL;
		size_t plen = 0;
		assert_int_equal(megaco_encode_alloc(from_ber, MEGACO_ENC_PER, NULL, &p, &plen, NULL),
		                 MEGACO_OK);
		megaco_message *again = NULL;
		assert_int_equal(megaco_decode(MEGACO_ENC_PER, p, plen, NULL, &again, NULL), MEGACO_OK);
		assert_encodes_to(e->name, again, MEGACO_ENC_BER, NULL, ber, ber_len);

		megaco_buffer_free(p, NULL);
		megaco_message_free(again);
		megaco_message_free(from_ber);
		megaco_message_free(m);
		free(per);
		free(ber);
		n++;
	}
	assert_int_equal(n, 149);
}

static void test_detect_binary(void **state)
{
	(void)state;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_PER; enc++) {
			if (!e->path[enc - 1])
				continue;
			size_t len;
			unsigned char *b = read_file(e->path[enc - 1], &len);
			megaco_encoding got;
			int v;
			assert_int_equal(megaco_detect(b, len, &got, &v), MEGACO_OK);
			if (got != enc || v != e->version)
				fail_msg("%s: detected %s v%d, expected %s v%d", e->path[enc - 1],
				         megaco_encoding_name(got), v, megaco_encoding_name(enc), e->version);
			megaco_message *m = NULL;
			assert_int_equal(megaco_decode(MEGACO_ENC_AUTO, b, len, NULL, &m, NULL), MEGACO_OK);
			megaco_message_free(m);
			free(b);
		}
	}
}

static void test_caller_buffer_too_small(void **state)
{
	(void)state;
	unsigned char *ber;
	size_t len;
	corpus_entry *e = &C->entries[0];
	megaco_message *m = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, &ber, &len);
	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_PER; enc++) {
		unsigned char small[8];
		size_t need = 0;
		megaco_error err;
		assert_int_equal(megaco_encode(m, enc, NULL, small, sizeof small, &need, &err),
		                 MEGACO_ERR_BUFFER_TOO_SMALL);
		assert_int_equal(err.code, MEGACO_ERR_BUFFER_TOO_SMALL);
		assert_true(need > sizeof small);
		unsigned char *big = malloc(need);
		size_t got = 0;
		assert_int_equal(megaco_encode(m, enc, NULL, big, need, &got, NULL), MEGACO_OK);
		assert_int_equal(got, need);
		free(big);
	}
	megaco_message_free(m);
	free(ber);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ber_vectors_round_trip),
		cmocka_unit_test(test_per_vectors_round_trip),
		cmocka_unit_test(test_detect_binary),
		cmocka_unit_test(test_caller_buffer_too_small),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
