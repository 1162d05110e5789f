/*
 * Thread safety from a cold start: several threads, released together before
 * any of them has touched a codec, transcode every corpus message through
 * every encoding (half of them with the non-reentrant scanner) and check the
 * results against the reference vectors. Meant to run under ThreadSanitizer
 * too (-DMEGACO_TSAN=ON); without it, it still checks results.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define THREADS 4
#define ROUNDS 2

typedef struct {
	const corpus_entry *entry;
	unsigned char *data[CORPUS_MAX_ENC];
	size_t len[CORPUS_MAX_ENC];
} message_files;

static corpus *C;
static message_files *files;
static size_t nfiles;
static pthread_barrier_t start;

typedef struct {
	int id;
	int failures;
	char first[512];
} worker;

static void failed(worker *w, const char *name, const char *what, const megaco_error *err)
{
	if (!w->failures++)
		snprintf(w->first, sizeof w->first, "thread %d, %s: %s%s%s", w->id, name, what,
		         err ? ": " : "", err ? err->message : "");
}

/* Decodes from enc, encodes to BER, compares with the BER vector. */
static void check_one(worker *w, size_t i, megaco_encoding enc, megaco_scanner scanner)
{
	message_files *f = &files[i];
	const corpus_entry *e = f->entry;
	megaco_options o;
	megaco_options_init(&o);
	o.scanner = scanner;
	megaco_message *m = NULL;
	megaco_error err;
	if (megaco_decode(enc, f->data[enc - 1], f->len[enc - 1], &o, &m, &err) != MEGACO_OK) {
		failed(w, e->name, "decode", &err);
		return;
	}
	unsigned char out[4096];
	size_t len = 0;
	if (megaco_encode(m, MEGACO_ENC_BER, &o, out, sizeof out, &len, &err) != MEGACO_OK)
		failed(w, e->name, "encode BER", &err);
	else if (len != f->len[MEGACO_ENC_BER - 1] || memcmp(out, f->data[MEGACO_ENC_BER - 1], len))
		failed(w, e->name, "BER differs from the vector", NULL);
	/* And back out as text, which must decode again. */
	megaco_encoding text = enc == MEGACO_ENC_PRETTY ? MEGACO_ENC_COMPACT : MEGACO_ENC_PRETTY;
	megaco_message *again = NULL;
	if (megaco_encode(m, text, &o, out, sizeof out, &len, &err) != MEGACO_OK)
		failed(w, e->name, "encode text", &err);
	else if (megaco_decode(text, out, len, &o, &again, &err) != MEGACO_OK)
		failed(w, e->name, "decode own text", &err);
	megaco_message_free(again);
	megaco_message_free(m);
}

static void *run(void *arg)
{
	worker *w = arg;
	pthread_barrier_wait(&start);
	megaco_scanner scanner = (w->id & 1) ? MEGACO_SCANNER_NON_REENTRANT : MEGACO_SCANNER_REENTRANT;
	for (int r = 0; r < ROUNDS; r++)
		for (size_t k = 0; k < nfiles; k++) {
			size_t i = (k + (size_t)w->id * 37) % nfiles; /* threads start apart */
			for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_PER; enc++)
				check_one(w, i, enc, scanner);
		}
	return NULL;
}

static void test_cold_start_threads(void **state)
{
	(void)state;
	assert_int_equal(nfiles, 149);
	pthread_t t[THREADS];
	worker w[THREADS];
	pthread_barrier_init(&start, NULL, THREADS);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (worker){ .id = i };
		assert_int_equal(pthread_create(&t[i], NULL, run, &w[i]), 0);
	}
	int failures = 0;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		if (w[i].failures)
			print_error("%s (%d failures)\n", w[i].first, w[i].failures);
		failures += w[i].failures;
	}
	pthread_barrier_destroy(&start);
	assert_int_equal(failures, 0);
}

int main(int argc, char **argv)
{
	/* Only file reading here: no codec may run before the threads do. */
	C = corpus_load(corpus_dir_from_args(argc, argv));
	files = calloc(C->count, sizeof *files);
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (strcmp(e->set, "time_test"))
			continue;
		files[nfiles].entry = e;
		for (int k = 0; k < CORPUS_MAX_ENC; k++)
			files[nfiles].data[k] = read_file(e->path[k], &files[nfiles].len[k]);
		nfiles++;
	}
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_cold_start_threads) };
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (size_t i = 0; i < nfiles; i++)
		for (int k = 0; k < CORPUS_MAX_ENC; k++)
			free(files[i].data[k]);
	free(files);
	corpus_free(C);
	return rc;
}
