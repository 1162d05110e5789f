/*
 * Heap discipline of the decoders: a decode costs a small constant
 * number of allocations (its arena's blocks), all of them through the
 * caller's megaco_allocator, and megaco_message_free gives every one back.
 *
 * Two counters: the custom allocator passed in the options, and the C heap
 * itself, seen through `-Wl,--wrap=malloc` (and calloc, realloc, free, ...;
 * see tests/CMakeLists.txt) so that a stray malloc anywhere in libmegaco or
 * the asn1c runtime linked into this binary is caught too.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "arena.h"

/* The bound the arena design promises for corpus-sized messages. */
#define MAX_DECODE_ALLOCS 3

static corpus *C;

/* ---- the wrapped C heap ----------------------------------------------------- */

/*
 * volatile: GCC assumes the malloc family touches no user-visible memory, so
 * it may move plain stores to these counters across the very calls they count.
 */
static volatile struct {
	int on;
	long mallocs, frees;
} heap;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

void *__wrap_malloc(size_t n)
{
	if (heap.on)
		heap.mallocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t k)
{
	if (heap.on)
		heap.mallocs++;
	return __real_calloc(n, k);
}

void *__wrap_realloc(void *p, size_t n)
{
	if (heap.on) {
		/* A realloc is a new allocation and a free of the old one. */
		heap.mallocs++;
		if (p)
			heap.frees++;
	}
	return __real_realloc(p, n);
}

void __wrap_free(void *p)
{
	if (heap.on && p)
		heap.frees++;
	__real_free(p);
}

/* ---- the caller's allocator ----------------------------------------------- */

typedef struct {
	long allocs, frees;
	size_t bytes;
} counter;

static void *count_alloc(void *ud, size_t n)
{
	counter *c = ud;
	c->allocs++;
	c->bytes += n;
	return __real_malloc(n);
}

static void count_free(void *ud, void *p)
{
	counter *c = ud;
	c->frees++;
	__real_free(p);
}

/* Proves the wrapping is in effect: otherwise every heap count below is 0 by accident. */
static void test_wrap_is_live(void **state)
{
	(void)state;
	heap.on = 1;
	heap.mallocs = heap.frees = 0;
	void *volatile p = malloc(10); /* volatile: keep the pair from being optimised out */
	p = realloc(p, 20);
	free(p);
	heap.on = 0;
	assert_int_equal(heap.mallocs, 2);
	assert_int_equal(heap.frees, 2);

	/* And it sees the library: a default-allocator decode takes its arena from
	 * malloc. Two messages at once, as the thread keeps at most one spare
	 * block (src/arena.c) and the first may come from it. */
	size_t len;
	megaco_message *m = NULL;
	unsigned char *b = read_file(C->entries[0].path[MEGACO_ENC_BER - 1], &len);
	megaco_message *m2 = NULL;
	heap.mallocs = heap.frees = 0;
	heap.on = 1;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m, NULL), MEGACO_OK);
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m2, NULL), MEGACO_OK);
	long during = heap.mallocs;
	megaco_message_free(m);
	megaco_message_free(m2);
	heap.on = 0;
	assert_true(during >= 1);
	assert_true(heap.frees >= 1);
	free(b);
}

/*
 * arena_init_first (src/arena.c), which every message handle starts from:
 * the arena lives at the start of its own first allocation, later blocks
 * come from the same allocator, and arena_release gives every block back
 * without touching the arena once its block has gone (ASan would see it). A
 * first size of 0 means arena_init's default, so blocks still double.
 */
static void test_arena_in_first_block(void **state)
{
	(void)state;
	counter c = {0, 0, 0};
	const megaco_allocator al = {count_alloc, count_free, &c};
	megaco_arena *a = arena_init_first(&al, 0, 200);
	assert_non_null(a);
	assert_int_equal(c.allocs, 1);
	assert_int_equal((uintptr_t)a % _Alignof(megaco_arena), 0);
	assert_ptr_equal(a->al, &al);
	assert_int_equal(a->nblocks, 1);
	assert_int_equal(a->head->size, 4096);
	assert_ptr_equal(a->last, a); /* the handle is the newest allocation */
	assert_true((unsigned char *)a >= (unsigned char *)a->head->data &&
	            (unsigned char *)a + 200 <= (unsigned char *)a->head->data + a->head->used);
	/* More than the first block holds: a second block, twice the first. */
	unsigned char *big = arena_alloc(a, 5000);
	assert_non_null(big);
	memset(big, 0xa5, 5000);
	assert_int_equal(a->nblocks, 2);
	assert_int_equal(c.allocs, 2);
	assert_int_equal(a->head->size, 8192);
	arena_release(a);
	assert_int_equal(c.frees, 2);

	/* Too small to hold the arena itself: refused, nothing allocated. */
	assert_null(arena_init_first(&al, 4096, sizeof(megaco_arena) - 1));
	assert_int_equal(c.allocs, 2);
}

/*
 * The spare block a thread keeps (src/arena.c) is freed when the thread
 * exits: counted from the thread's first allocation to after its end, the
 * heap is balanced.
 */
typedef struct {
	const unsigned char *buf;
	size_t len;
} input;

static void *decode_and_exit(void *arg)
{
	const input *in = arg;
	megaco_message *m = NULL;
	heap.on = 1;
	int rc = megaco_decode(MEGACO_ENC_BER, in->buf, in->len, NULL, &m, NULL);
	megaco_message_free(m);
	return (void *)(intptr_t)rc;
}

static void test_spare_freed_at_thread_exit(void **state)
{
	(void)state;
	pthread_t t;
	void *rc;
	input in;
	unsigned char *b = read_file(C->entries[0].path[MEGACO_ENC_BER - 1], &in.len);
	in.buf = b;
	heap.mallocs = heap.frees = 0;
	assert_int_equal(pthread_create(&t, NULL, decode_and_exit, &in), 0);
	assert_int_equal(pthread_join(t, &rc), 0);
	heap.on = 0;
	free(b);
	assert_int_equal((intptr_t)rc, MEGACO_OK);
	assert_true(heap.mallocs >= 1);
	if (heap.mallocs != heap.frees)
		fail_msg("%ld mallocs, %ld frees after the decoding thread ended", heap.mallocs,
		         heap.frees);
}

static void count_decodes(megaco_encoding enc)
{
	long worst = 0;
	/* The time_test set: the one in every encoding, and valid throughout. */
	corpus_walk w = { .c = C, .first = enc, .set = "time_test" };
	while (corpus_next(&w)) {
		const char *path = w.path;
		const unsigned char *b = w.bytes;
		size_t len = w.len;

		/* 1. Through the caller's allocator: a few blocks, no C heap at all. */
		counter cnt = { 0, 0, 0 };
		megaco_allocator al = { count_alloc, count_free, &cnt };
		megaco_options o;
		megaco_options_init(&o);
		o.allocator = &al;
		megaco_message *m = NULL;
		heap.mallocs = heap.frees = 0;
		heap.on = 1;
		int rc = megaco_decode(enc, b, len, &o, &m, NULL);
		long stray = heap.mallocs;
		heap.on = 0;
		assert_int_equal(rc, MEGACO_OK);
		if (cnt.allocs < 1 || cnt.allocs > MAX_DECODE_ALLOCS)
			fail_msg("%s: %ld allocator calls for one decode (bound %d)", path, cnt.allocs,
			         MAX_DECODE_ALLOCS);
		if (stray)
			fail_msg("%s: %ld C-heap allocations besides the allocator's", path, stray);
		if (cnt.allocs > worst)
			worst = cnt.allocs;
		assert_int_equal(cnt.frees, 0);
		assert_true(megaco_message_memory(m) >= len);
		heap.on = 1;
		megaco_message_free(m);
		heap.on = 0;
		assert_int_equal(cnt.frees, cnt.allocs);
		assert_int_equal(heap.frees, 0);

		/* 2. With the default allocator the same blocks come from malloc and go
		 * back, but for one: the thread keeps a freed first block for its next
		 * message (src/arena.c), so a decode may take one fewer and a free
		 * may keep one. */
		heap.mallocs = heap.frees = 0;
		heap.on = 1;
		rc = megaco_decode(enc, b, len, NULL, &m, NULL);
		long from_heap = heap.mallocs;
		megaco_message_free(m);
		heap.on = 0;
		assert_int_equal(rc, MEGACO_OK);
		assert_true(from_heap == cnt.allocs || from_heap == cnt.allocs - 1);
		assert_true(heap.frees - heap.mallocs <= 1 && heap.mallocs - heap.frees <= 1);

		/* 3. A failing decode returns everything it took. (A text message
		 * cut short by its last byte may still be whole: a line end.) */
		cnt.allocs = cnt.frees = 0;
		heap.mallocs = heap.frees = 0;
		heap.on = 1;
		m = NULL;
		rc = megaco_decode(enc, b, len - 1, &o, &m, NULL);
		heap.on = 0;
		if (enc >= MEGACO_ENC_BER)
			assert_int_equal(rc, MEGACO_ERR_TRUNCATED);
		if (rc == MEGACO_OK)
			megaco_message_free(m);
		else
			assert_null(m);
		assert_int_equal(cnt.frees, cnt.allocs);
		assert_int_equal(heap.mallocs, 0);
	}
	assert_int_equal(w.files, 149);
	printf("# %s: at most %ld allocation(s) per decode\n", megaco_encoding_name(enc), worst);
}

static void test_ber_decode_allocs(void **state)
{
	(void)state;
	count_decodes(MEGACO_ENC_BER);
}

static void test_per_decode_allocs(void **state)
{
	(void)state;
	count_decodes(MEGACO_ENC_PER);
}

static void test_aper_decode_allocs(void **state)
{
	(void)state;
	count_decodes(MEGACO_ENC_APER);
}

/* The text decoder carves its model from the arena's first block, which
 * holds all but the largest corpus messages. */
static void test_text_decode_allocs(void **state)
{
	(void)state;
	count_decodes(MEGACO_ENC_PRETTY);
	count_decodes(MEGACO_ENC_COMPACT);
}

/*
 * Encoding takes its scratch from the caller's allocator and gives it all
 * back; megaco_encode_alloc's output is the one allocation left.
 */
static void test_encode_balanced(void **state)
{
	(void)state;
	long scratch = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const char *path = w.path;
		const megaco_message *m = w.m;
		counter cnt = { 0, 0, 0 };
		megaco_allocator al = { count_alloc, count_free, &cnt };
		megaco_options o;
		megaco_options_init(&o);
		o.allocator = &al;
		for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
			void *out = NULL;
			size_t out_len;
			cnt.allocs = cnt.frees = 0;
			heap.mallocs = heap.frees = 0;
			heap.on = 1;
			int rc = megaco_encode_alloc(m, enc, &o, &out, &out_len, NULL);
			heap.on = 0;
			assert_int_equal(rc, MEGACO_OK);
			assert_int_equal(cnt.allocs - cnt.frees, 1);
			if (heap.mallocs || heap.frees)
				fail_msg("%s to %s: %ld mallocs, %ld frees", path, megaco_encoding_name(enc),
				         heap.mallocs, heap.frees);
			scratch += cnt.allocs - 1;
			megaco_buffer_free(out, &o);
			assert_int_equal(cnt.allocs, cnt.frees);
		}
	}
	printf("# encoding the corpus to BER and PER took %ld scratch allocations\n", scratch);
}

/*
 * Every codec call, of every corpus message, in every encoding and name
 * form, with either text scanner: with an allocator in the options the C
 * heap is not touched at all (scratch included), whatever the call returns.
 * Large messages (big_message) make the arena grow, the text scanner copy
 * its input and the DER writer measure in scratch.
 */
static long strict_calls;
static int strict_warm; /* 0: the first sweep, which may build what is built once per process */

static void no_heap(const char *what, const char *path, megaco_encoding enc)
{
	long stray = heap.mallocs + heap.frees;
	heap.on = 0;
	strict_calls++;
	if (stray && strict_warm)
		fail_msg("%s (%s, %s): %ld C-heap calls besides the allocator's", what, path,
		         megaco_encoding_name(enc), stray);
}

static void heap_watch(void)
{
	heap.mallocs = heap.frees = 0;
	heap.on = 1;
}

static void strict_encodes(const char *path, megaco_message *m, const megaco_options *o)
{
	static unsigned char out[1 << 16];
	for (megaco_encoding to = MEGACO_ENC_PRETTY; to <= MEGACO_ENC_APER; to++) {
		size_t len;
		void *buf = NULL;
		heap_watch();
		megaco_encode(m, to, o, out, 8, &len, NULL); /* too small: the size query */
		no_heap("megaco_encode, small buffer", path, to);
		heap_watch();
		megaco_encode(m, to, o, out, sizeof out, &len, NULL);
		no_heap("megaco_encode", path, to);
		heap_watch();
		int rc = megaco_encode_alloc(m, to, o, &buf, &len, NULL);
		no_heap("megaco_encode_alloc", path, to);
		if (rc == MEGACO_OK)
			megaco_buffer_free(buf, o);
	}
}

static void strict_one(const char *path, megaco_encoding enc, const unsigned char *b, size_t len)
{
	counter cnt = { 0, 0, 0 };
	megaco_allocator al = { count_alloc, count_free, &cnt };
	for (int sc = 0; sc < 2; sc++) {
		if (sc && enc != MEGACO_ENC_PRETTY && enc != MEGACO_ENC_COMPACT)
			break;
		megaco_options o;
		megaco_options_init(&o);
		o.allocator = &al;
		o.scanner = sc ? MEGACO_SCANNER_NON_REENTRANT : MEGACO_SCANNER_REENTRANT;
		megaco_message *m = NULL;
		heap_watch();
		int rc = megaco_decode(enc, b, len, &o, &m, NULL);
		no_heap("megaco_decode", path, enc);
		if (rc != MEGACO_OK)
			continue;
		strict_encodes(path, m, &o);
		megaco_name_form other = megaco_message_name_form(m) == MEGACO_NAMES_TEXT
		                             ? MEGACO_NAMES_BINARY : MEGACO_NAMES_TEXT;
		heap_watch();
		rc = megaco_message_convert_names(m, other, &o, NULL);
		no_heap("megaco_message_convert_names", path, enc);
		if (rc == MEGACO_OK)
			strict_encodes(path, m, &o);
		heap_watch();
		megaco_message_free(m);
		no_heap("megaco_message_free", path, enc);
	}
	assert_int_equal(cnt.allocs, cnt.frees);
}

static void strict_sweep(void)
{
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_APER };
	while (corpus_next(&w))
		strict_one(w.path, w.enc, w.bytes, w.len);
	/* Large: every encoding of one big message, built as text. */
	size_t len;
	unsigned char *text = big_message(600, &len);
	megaco_message *m = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_PRETTY, text, len, NULL, &m, NULL), MEGACO_OK);
	strict_one("big message", MEGACO_ENC_PRETTY, text, len);
	for (megaco_encoding enc = MEGACO_ENC_COMPACT; enc <= MEGACO_ENC_APER; enc++) {
		void *buf = NULL;
		size_t blen;
		assert_int_equal(megaco_encode_alloc(m, enc, NULL, &buf, &blen, NULL), MEGACO_OK);
		strict_one("big message", enc, buf, blen);
		megaco_buffer_free(buf, NULL);
	}
	megaco_message_free(m);
	free(text);
}

static void test_codec_calls_use_only_the_allocator(void **state)
{
	(void)state;
	/* Once-per-process set-up (tables, the default registry) may use the
	 * heap; the first sweep gets it done. */
	strict_warm = 0;
	strict_sweep();
	strict_warm = 1;
	strict_calls = 0;
	strict_sweep();
	printf("# %ld codec calls, none used the C heap\n", strict_calls);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_is_live),
		cmocka_unit_test(test_arena_in_first_block),
		cmocka_unit_test(test_ber_decode_allocs),
		cmocka_unit_test(test_per_decode_allocs),
		cmocka_unit_test(test_aper_decode_allocs),
		cmocka_unit_test(test_text_decode_allocs),
		cmocka_unit_test(test_encode_balanced),
		cmocka_unit_test(test_spare_freed_at_thread_exit),
		cmocka_unit_test(test_codec_calls_use_only_the_allocator),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
