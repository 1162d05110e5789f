/*
 * options.max_model_memory: a decode whose model would pass the cap stops
 * with MEGACO_ERR_TOO_LARGE (and gives back everything it took), in every
 * encoding; a cap of exactly what a decode takes is enough; every corpus
 * message decodes under the default; the cap is lifted once the message is
 * decoded. The inputs are crafted as tools/megaco_amplify.c crafts them
 * (docs/memory.md), smaller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"

static corpus *C;

typedef struct counter {
	long live;
} counter;

static void *count_alloc(void *ud, size_t n)
{
	((counter *)ud)->live++;
	return malloc(n);
}

static void count_free(void *ud, void *p)
{
	((counter *)ud)->live--;
	free(p);
}

/* "!/1 [1.1.1.1]:1\nK{1}K{1}...": n transactions of one ack each, compact text. */
static char *acks_text(size_t n, size_t *len)
{
	static const char head[] = "!/1 [1.1.1.1]:1\n";
	char *b = malloc(sizeof head + 4 * n);
	assert_non_null(b);
	memcpy(b, head, sizeof head - 1);
	for (size_t i = 0; i < n; i++)
		memcpy(b + sizeof head - 1 + 4 * i, "K{1}", 4);
	*len = sizeof head - 1 + 4 * n;
	return b;
}

/* The acks message of n transactions in enc (malloc'd), made with no cap; empty: each ack list emptied (binary only). */
static void *acks_in(megaco_encoding enc, size_t n, int empty, size_t *len)
{
	megaco_options o;
	megaco_options_init(&o);
	o.max_model_memory = 0;
	o.max_message_size = (size_t)1 << 30;
	size_t tlen;
	char *t = acks_text(n, &tlen);
	megaco_message *m = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_COMPACT, t, tlen, &o, &m, NULL), MEGACO_OK);
	free(t);
	if (empty) {
		MegacoMessage_t *mm = megaco_message_model(m);
		for (int i = 0; i < mm->mess.messageBody.choice.transactions.list.count; i++)
			mm->mess.messageBody.choice.transactions.list.array[i]
				->choice.transactionResponseAck.list.count = 0;
	}
	void *out = NULL;
	assert_int_equal(megaco_encode_alloc(m, enc, NULL, &out, len, NULL), MEGACO_OK);
	megaco_message_free(m);
	return out;
}

/* In each encoding: over a 64 KiB cap, TOO_LARGE and nothing kept; the exact cap, OK. */
static void test_cap_in_every_encoding(void **state)
{
	(void)state;
	for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_PER; enc++) {
		size_t len;
		void *in = acks_in(enc, 2000, 0, &len);
		counter cnt = { 0 };
		megaco_allocator al = { count_alloc, count_free, &cnt };
		megaco_options o;
		megaco_options_init(&o);
		o.allocator = &al;

		/* What the decode takes with no cap. */
		o.max_model_memory = 0;
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, NULL), MEGACO_OK);
		size_t need = megaco_message_memory(m);
		megaco_message_free(m);
		assert_true(need > (size_t)64 << 10);

		o.max_model_memory = (size_t)64 << 10;
		megaco_error err;
		m = (megaco_message *)&cnt;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, &err), MEGACO_ERR_TOO_LARGE);
		assert_int_equal(err.code, MEGACO_ERR_TOO_LARGE);
		assert_non_null(strstr(err.message, "max_model_memory (65536 bytes)"));
		assert_ptr_equal(m, &cnt);
		assert_int_equal(cnt.live, 0);

		/* Exactly enough, and once decoded the message may grow past it. */
		o.max_model_memory = need;
		m = NULL;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, &err), MEGACO_OK);
		assert_true(megaco_message_memory(m) <= need);
		assert_non_null(megaco_message_alloc(m, need));
		megaco_message_free(m);
		assert_int_equal(cnt.live, 0);

		/* A cap smaller than the first block. */
		o.max_model_memory = 100;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, NULL), MEGACO_ERR_TOO_LARGE);
		assert_int_equal(cnt.live, 0);
		printf("# %s: %zu input bytes, %zu model bytes uncapped\n", megaco_encoding_name(enc), len,
		       need);
		megaco_buffer_free(in, NULL);
	}
}

/* The default cap stops the worst shape (docs/memory.md) long before its ~150x. */
static void test_default_cap_stops_amplification(void **state)
{
	(void)state;
	/* Nodes are mostly pointers: on a 32-bit CPU the same acks take about
	 * half the memory, and twice as many pass the cap. */
	size_t scale = 8 / sizeof(void *);
	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_PER; enc++) {
		size_t len;
		void *in = acks_in(enc, (enc == MEGACO_ENC_PER ? 120000 : 90000) * scale, 1, &len);
		megaco_message *m = NULL;
		megaco_error err;
		assert_int_equal(megaco_decode(enc, in, len, NULL, &m, &err), MEGACO_ERR_TOO_LARGE);
		assert_null(m);
		megaco_options o;
		megaco_options_init(&o);
		o.max_model_memory = 0;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, &err), MEGACO_OK);
		printf("# %s: %zu bytes of empty acks make %zu model bytes uncapped (%.0fx)\n",
		       megaco_encoding_name(enc), len, megaco_message_memory(m),
		       (double)megaco_message_memory(m) / (double)len);
		assert_true(megaco_message_memory(m) > ((size_t)16 << 20));
		megaco_message_free(m);
		megaco_buffer_free(in, NULL);
	}
}

/* Every corpus file that decodes without a cap decodes under the default one. */
static void test_corpus_under_default(void **state)
{
	(void)state;
	megaco_options none;
	megaco_options_init(&none);
	none.max_model_memory = 0;
	size_t n = 0, most = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_PER };
	while (corpus_next(&w)) {
		megaco_message *m = NULL;
		if (megaco_decode(w.enc, w.bytes, w.len, &none, &m, NULL) == MEGACO_OK) {
			if (megaco_message_memory(m) > most)
				most = megaco_message_memory(m);
			megaco_message_free(m);
			assert_int_equal(megaco_decode(w.enc, w.bytes, w.len, NULL, &m, NULL), MEGACO_OK);
			megaco_message_free(m);
			n++;
		}
	}
	assert_true(n > 500);
	printf("# %zu corpus decodes under the default cap, the largest model %zu bytes\n", n, most);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_in_every_encoding),
		cmocka_unit_test(test_default_cap_stops_amplification),
		cmocka_unit_test(test_corpus_under_default),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
