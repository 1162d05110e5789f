/*
 * Failure injection: for every N, the Nth call of the caller's allocator
 * during a decode, an encode or a name conversion returns NULL. The call
 * must then return MEGACO_ERR_NOMEM, give back everything it took (counted
 * here; the test command also runs this under ASan), leave its output
 * untouched, and the same call must succeed right after. Inputs: corpus
 * messages in each encoding and both text scanners, and a large message
 * (tests/testutil.c big_message) whose arena grows over several blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static corpus *C;

typedef struct failing {
	long calls;   /* allocations asked for since the last arm() */
	long fail_at; /* this one returns NULL; 0: none does */
	long live;    /* allocations not yet freed */
} failing;

static void *fail_alloc(void *ud, size_t n)
{
	failing *f = ud;
	if (++f->calls == f->fail_at)
		return NULL;
	void *p = malloc(n);
	if (p)
		f->live++;
	return p;
}

static void fail_free(void *ud, void *p)
{
	failing *f = ud;
	f->live--;
	free(p);
}

static failing F;
static const megaco_allocator failing_al = { fail_alloc, fail_free, &F };

static void arm(long n)
{
	F.calls = 0;
	F.fail_at = n;
}

static megaco_options opts(megaco_scanner sc)
{
	megaco_options o;
	megaco_options_init(&o);
	o.allocator = &failing_al;
	o.scanner = sc;
	return o;
}

/* Each N up to the first success; returns how many allocations that took. */
static long inject_decode(const char *what, megaco_encoding enc, const unsigned char *b, size_t len,
                          megaco_scanner sc)
{
	megaco_options o = opts(sc);
	for (long n = 1;; n++) {
		megaco_message *m = (megaco_message *)&F; /* must stay as it is on failure */
		megaco_error err;
		arm(n);
		int rc = megaco_decode(enc, b, len, &o, &m, &err);
		long calls = F.calls;
		arm(0);
		if (rc == MEGACO_OK) {
			assert_true(n > calls); /* no allocation failed */
			megaco_message_free(m);
			assert_int_equal(F.live, 0);
			return calls;
		}
		if (rc != MEGACO_ERR_NOMEM)
			fail_msg("%s: decode with allocation %ld failing: %s (%s)", what, n,
			         megaco_strerror(rc), err.message);
		assert_ptr_equal(m, &F);
		if (F.live)
			fail_msg("%s: decode with allocation %ld failing kept %ld allocations", what, n,
			         F.live);
		/* And the next call succeeds. */
		assert_int_equal(megaco_decode(enc, b, len, &o, &m, NULL), MEGACO_OK);
		megaco_message_free(m);
		assert_int_equal(F.live, 0);
	}
}

/*
 * Encodes m to enc three ways (megaco_encode_alloc; megaco_encode into a
 * buffer too small, the size query; and into one large enough) failing
 * each allocation in turn. Returns the allocations of the largest.
 */
static long inject_encode(const char *what, const megaco_message *m, megaco_encoding enc)
{
	static unsigned char out[1 << 20];
	megaco_options o = opts(MEGACO_SCANNER_REENTRANT);
	long most = 0;
	for (int way = 0; way < 3; way++) {
		for (long n = 1;; n++) {
			void *buf = &F; /* must stay as it is on failure */
			size_t len = 0, cap = way == 1 ? 8 : sizeof out;
			megaco_error err;
			arm(n);
			int rc = way == 0 ? megaco_encode_alloc(m, enc, &o, &buf, &len, &err)
			                  : megaco_encode(m, enc, &o, out, cap, &len, &err);
			long calls = F.calls;
			arm(0);
			if (rc == MEGACO_OK || (way == 1 && rc == MEGACO_ERR_BUFFER_TOO_SMALL)) {
				assert_true(n > calls);
				if (way == 0)
					megaco_buffer_free(buf, &o);
				assert_int_equal(F.live, 0);
				if (calls > most)
					most = calls;
				break;
			}
			if (rc != MEGACO_ERR_NOMEM)
				fail_msg("%s to %s (way %d) with allocation %ld failing: %s (%s)", what,
				         megaco_encoding_name(enc), way, n, megaco_strerror(rc), err.message);
			if (way == 0)
				assert_ptr_equal(buf, &F);
			if (F.live)
				fail_msg("%s to %s (way %d) with allocation %ld failing kept %ld allocations",
				         what, megaco_encoding_name(enc), way, n, F.live);
			rc = way == 0 ? megaco_encode_alloc(m, enc, &o, &buf, &len, NULL)
			              : megaco_encode(m, enc, &o, out, cap, &len, NULL);
			assert_true(rc == MEGACO_OK || (way == 1 && rc == MEGACO_ERR_BUFFER_TOO_SMALL));
			if (way == 0)
				megaco_buffer_free(buf, &o);
			assert_int_equal(F.live, 0);
		}
	}
	return most;
}

/* megaco_message_convert_names with each allocation of the copy failing. */
static void inject_convert(const char *what, megaco_encoding enc, const unsigned char *b,
                           size_t len)
{
	megaco_options o = opts(MEGACO_SCANNER_REENTRANT);
	for (long n = 1;; n++) {
		megaco_message *m = NULL;
		megaco_error err;
		arm(0);
		int drc = megaco_decode(enc, b, len, &o, &m, &err);
		if (drc != MEGACO_OK)
			fail_msg("%s: decode: %s (%s)", what, megaco_strerror(drc), err.message);
		megaco_name_form from = megaco_message_name_form(m);
		megaco_name_form to = from == MEGACO_NAMES_TEXT ? MEGACO_NAMES_BINARY : MEGACO_NAMES_TEXT;
		arm(n);
		int rc = megaco_message_convert_names(m, to, &o, NULL);
		long calls = F.calls;
		arm(0);
		if (rc == MEGACO_OK) {
			assert_true(n > calls);
			megaco_message_free(m);
			assert_int_equal(F.live, 0);
			return;
		}
		if (rc != MEGACO_ERR_NOMEM)
			fail_msg("%s: conversion with allocation %ld failing: %s", what, n,
			         megaco_strerror(rc));
		assert_int_equal(megaco_message_name_form(m), from); /* unchanged */
		assert_int_equal(megaco_message_convert_names(m, to, &o, NULL), MEGACO_OK);
		megaco_message_free(m);
		assert_int_equal(F.live, 0);
	}
}

/* All of the above for one input. */
static void inject_all(const char *what, megaco_encoding enc, const unsigned char *b, size_t len,
                       long *dec_most, long *enc_most)
{
	long n = inject_decode(what, enc, b, len, MEGACO_SCANNER_REENTRANT);
	if (enc == MEGACO_ENC_PRETTY || enc == MEGACO_ENC_COMPACT) {
		long k = inject_decode(what, enc, b, len, MEGACO_SCANNER_NON_REENTRANT);
		n = k > n ? k : n;
	}
	if (n > *dec_most)
		*dec_most = n;
	megaco_message *m = NULL;
	assert_int_equal(megaco_decode(enc, b, len, NULL, &m, NULL), MEGACO_OK);
	for (megaco_encoding to = MEGACO_ENC_PRETTY; to <= MEGACO_ENC_APER; to++) {
		long k = inject_encode(what, m, to);
		if (k > *enc_most)
			*enc_most = k;
	}
	megaco_message_free(m);
	inject_convert(what, enc, b, len);
}

/* A few corpus messages (the first, the largest BER ones, one with SDP) in each encoding. */
static void test_corpus_messages(void **state)
{
	(void)state;
	static const char *const names[] = { "msg01a", "msg10", "msg22a", "msg30d" };
	long dec_most = 0, enc_most = 0;
	int done = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_APER,
		          .set = "time_test" };
	while (corpus_next(&w)) {
		int want = 0;
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			want |= strcmp(w.e->name, names[k]) == 0;
		if (!want)
			continue;
		inject_all(w.path, w.enc, w.bytes, w.len, &dec_most, &enc_most);
		done++;
	}
	assert_int_equal(done, 20);
	printf("# corpus: up to %ld allocations per decode, %ld per encode, each failed in turn\n",
	       dec_most, enc_most);
}

/* A message of 40 transactions, about 45 KB of text, in each encoding. */
static void test_large_message(void **state)
{
	(void)state;
	size_t len;
	unsigned char *text = big_message(40, &len);
	assert_non_null(text);
	megaco_message *m = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_PRETTY, text, len, NULL, &m, NULL), MEGACO_OK);
	long dec_most = 0, enc_most = 0;
	for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_APER; enc++) {
		void *b = NULL;
		size_t blen;
		assert_int_equal(megaco_encode_alloc(m, enc, NULL, &b, &blen, NULL), MEGACO_OK);
		inject_all("large message", enc, b, blen, &dec_most, &enc_most);
		megaco_buffer_free(b, NULL);
	}
	megaco_message_free(m);
	free(text);
	assert_true(dec_most > 3); /* the arena did grow */
	printf("# large message: up to %ld allocations per decode, %ld per encode\n", dec_most,
	       enc_most);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_messages),
		cmocka_unit_test(test_large_message),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
