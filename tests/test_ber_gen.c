/*
 * The BER reader's generated readers (tools/gen/ber_read_gen.c) against its
 * table walk: the generated ones are in use, and both give the same verdict,
 * consumed size, needs_scan, failure offset and (re-encoded as DER) model on
 * every corpus BER vector, on its lengths rewritten in the long forms, at
 * every depth limit, and on every truncation and several corruptions of
 * each byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "ber_reader.h"
#include "der_writer.h"
#include "megaco_schema.h"
#include "internal.h"

#define HEAP (&megaco_default_allocator) /* der_write's scratch */

static corpus *C;

typedef struct outcome {
	int rc, needs_scan;
	size_t consumed, fail_at;
	unsigned char der[8192];
	size_t der_len;
} outcome;

typedef int read_f(asn_TYPE_descriptor_t *, void **, const unsigned char *, size_t,
                   megaco_arena *, unsigned, size_t *, size_t *, int *);

static void run(read_f *f, const unsigned char *b, size_t len, unsigned max_depth, outcome *o)
{
	megaco_arena arena;
	arena_init(&arena, NULL, 0);
	void *model = NULL;
	/* A copy exactly len long, so that ASan sees any read past the end. */
	unsigned char *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, b, len);
	memset(o, 0, sizeof *o);
	o->rc = f(&asn_DEF_MegacoMessage, &model, copy, len, &arena, max_depth, &o->consumed,
	          &o->fail_at, &o->needs_scan);
	if (o->rc == BER_READ_OK) {
		o->fail_at = 0;
		if (der_write(SCHEMA_ROOT, model, 0, HEAP, o->der, sizeof o->der, &o->der_len,
		              NULL) != MEGACO_OK)
			o->der_len = (size_t)-1; /* compared as such */
	} else {
		o->consumed = 0;
	}
	free(copy);
	arena_reset_blocks(&arena);
}

static unsigned long compared, succeeded;

/* Both readers on b; fails the test unless they agree on everything. */
static void same(const char *what, const unsigned char *b, size_t len, unsigned max_depth)
{
	static outcome g, t;
	run(ber_read, b, len, max_depth, &g);
	run(ber_read_tables, b, len, max_depth, &t);
	compared++;
	if (g.rc != t.rc || g.needs_scan != t.needs_scan || g.consumed != t.consumed ||
	    g.fail_at != t.fail_at || g.der_len != t.der_len ||
	    (g.der_len != (size_t)-1 && memcmp(g.der, t.der, g.der_len) != 0))
		fail_msg("%s (%zu bytes, depth %u): generated rc %d scan %d consumed %zu at %zu der %zu; "
		         "tables rc %d scan %d consumed %zu at %zu der %zu",
		         what, len, max_depth, g.rc, g.needs_scan, g.consumed, g.fail_at, g.der_len, t.rc,
		         t.needs_scan, t.consumed, t.fail_at, t.der_len);
	succeeded += g.rc == BER_READ_OK;
}

static void test_generated_in_use(void **state)
{
	(void)state;
	int mode = ber_read_mode();
	if (mode != BER_READ_MODE_GENERATED)
		fail_msg("ber_read_mode() is %d: %s", mode,
		         mode == BER_READ_MODE_STALE ? "ber_read_gen.inc does not match the tables"
		                                     : "built without the generated readers");
}

/*
 * b's TLVs (definite lengths) written again with every length of a
 * constructed value (all: of every value) in the 0x81 / 0x82 long forms;
 * 0 if b is not such a structure or out is too small.
 */
static size_t relength(const unsigned char *b, size_t len, unsigned char *out, size_t cap,
                       int all)
{
	size_t i = 0, o = 0;
	while (i < len) {
		size_t t = i;
		int c = (b[i] & 0x20) != 0;
		if ((b[i++] & 0x1f) == 0x1f)
			while (i < len && (b[i++] & 0x80))
				;
		size_t tag_end = i;
		if (i >= len || b[i] == 0x80)
			return 0;
		size_t n = 0;
		if (b[i] < 0x80) {
			n = b[i++];
		} else {
			unsigned k = b[i++] & 0x7f;
			if (k > 2)
				return 0;
			for (; k; k--)
				n = n << 8 | (i < len ? b[i++] : 0);
		}
		if (n > len - i || o + (tag_end - t) + 3 > cap)
			return 0;
		/* The identifier octets, then the length, then the contents. */
		memcpy(out + o, b + t, tag_end - t);
		o += tag_end - t;
		unsigned char *lp = out + o;
		size_t body;
		if (c) {
			o += 3;
			body = relength(b + i, n, out + o, cap - o, all);
			if (n && !body)
				return 0;
		} else {
			o += 3;
			if (n > cap - o)
				return 0;
			memcpy(out + o, b + i, n);
			body = n;
		}
		if (body > 0xffff)
			return 0;
		if (c || all) {
			if (body < 256) {
				lp[0] = 0x81;
				lp[1] = (unsigned char)body;
				memmove(lp + 2, lp + 3, body);
				o -= 1;
			} else {
				lp[0] = 0x82;
				lp[1] = (unsigned char)(body >> 8);
				lp[2] = (unsigned char)body;
			}
		} else {
			lp[0] = (unsigned char)body;
			memmove(lp + 1, lp + 3, body);
			o -= 2;
		}
		o += body;
		i += n;
	}
	return o;
}

/* The corpus entry's BER vector, read (the caller frees it); NULL if it has none. */
static unsigned char *ber_vector(const corpus_entry *e, size_t *len)
{
	if (!e->path[MEGACO_ENC_BER - 1])
		return NULL;
	unsigned char *b = read_file(e->path[MEGACO_ENC_BER - 1], len);
	assert_non_null(b);
	return b;
}

static void test_corpus_same(void **state)
{
	(void)state;
	static unsigned char alt[16384];
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		size_t len;
		unsigned char *b = ber_vector(e, &len);
		if (!b)
			continue;
		unsigned long ok = succeeded;
		same(e->name, b, len, 64);
		assert_int_equal(succeeded, ok + 1); /* every vector decodes */
		for (unsigned d = 0; d <= 16; d++)
			same(e->name, b, len, d);
		for (int all = 0; all <= 1; all++) {
			size_t alen = relength(b, len, alt, sizeof alt, all);
			assert_true(alen > len);
			ok = succeeded;
			same(e->name, alt, alen, 64);
			assert_int_equal(succeeded, ok + 1);
		}
		free(b);
		n++;
	}
	assert_int_equal(n, 149);
}

static void test_damaged_same(void **state)
{
	(void)state;
	static const unsigned char flips[] = { 0x01, 0x20, 0x7f, 0x80, 0xff };
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		size_t len;
		unsigned char *b = ber_vector(e, &len);
		if (!b)
			continue;
		for (size_t cut = 0; cut < len; cut++)
			same(e->name, b, cut, 64);
		for (size_t at = 0; at < len; at++) {
			unsigned char keep = b[at];
			for (size_t f = 0; f < sizeof flips; f++) {
				b[at] = keep ^ flips[f];
				same(e->name, b, len, 64);
			}
			b[at] = 0; /* an end-of-contents or a zero length */
			same(e->name, b, len, 64);
			b[at] = keep;
		}
		free(b);
	}
	fprintf(stderr, "compared %lu decodes, %lu decoded\n", compared, succeeded);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_in_use),
		cmocka_unit_test(test_corpus_same),
		cmocka_unit_test(test_damaged_same),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
