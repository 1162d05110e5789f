/*
 * Termination-ID layouts: a table of text IDs and the octets and wildcard
 * octets they map to (checked both ways), text that does not fit a layout,
 * binary IDs that have no text form, and layout construction limits.
 * Every row's octets were checked against Erlang megaco 4.4.2's
 * megaco_binary_term_id:encode/2 (see docs/transcoding.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct tid_case {
	unsigned bits[8];
	unsigned nlevels; /* 0: the default layout */
	const char *text;
	const char *id;   /* hex octets */
	const char *wild; /* hex octets, "" for none */
} tid_case;

static const tid_case cases[] = {
	{ {0}, 0, "11111111/00000000/00000000", "FF0000", "" },
	{ {0}, 0, "00000001/00000010/00000011", "010203", "" },
	{ {0}, 0, "ROOT", "FFFFFFFFFFFFFFFF", "" },
	{ {0}, 0, "*", "000000", "D7" },
	{ {0}, 0, "$", "000000", "57" },
	{ {0}, 0, "11111111/*", "FF0000", "CF" },
	{ {0}, 0, "11111111/$", "FF0000", "4F" },
	{ {0}, 0, "11111111/00000000/*", "FF0000", "87" },
	{ {0}, 0, "11111111/00000000/$", "FF0000", "07" },
	{ {0}, 0, "11111111/*/00000000", "FF0000", "8F" },
	{ {0}, 0, "11111111/$/00001111", "FF000F", "0F" },
	{ {0}, 0, "*/00000000/00000001", "000001", "97" },
	{ {0}, 0, "*/*/*", "000000", "978F87" },
	{ {0}, 0, "1111*", "F00000", "D3" },
	{ {0}, 0, "11111111/0000111$", "FF0E00", "48" },
	{ {0}, 0, "11111111/00001111/0000$", "FF0F00", "03" },
	{ {0}, 0, "11111111/00001111/1111111*", "FF0FFE", "80" },
	{ {8, 16}, 2, "11111111/0000000000000001", "FF0001", "" },
	{ {8, 16}, 2, "11111111/*", "FF0000", "8F" },
	{ {8, 16}, 2, "*", "000000", "D7" },
	{ {4, 4}, 2, "1010/0101", "A5", "" },
	{ {4, 4}, 2, "1010/*", "A0", "83" },
	{ {4, 4}, 2, "$", "00", "47" },
	{ {1, 7}, 2, "1/0000001", "81", "" },
	{ {16, 16, 16, 16}, 4, "0000000000000001/0000000000000010/0000000000000011/0000000000000100",
	  "0001000200030004", "" },
	{ {16, 16, 16, 16}, 4, "0000000000000001/*", "0001000000000000", "EF" },
	{ {8, 8, 8, 8, 8, 8, 8, 8}, 8, "ROOT", "FFFFFFFFFFFFFFFF", "" },
};

/* Text that does not fit the default layout (or the given one). */
typedef struct bad_text {
	unsigned bits[4];
	unsigned nlevels;
	const char *text;
} bad_text;

static const bad_text bad_texts[] = {
	{ {0}, 0, "A4444" },
	{ {0}, 0, "" },
	{ {0}, 0, "1111111/00000000/00000000" },   /* 7 bits */
	{ {0}, 0, "111111111/00000000/00000000" }, /* 9 bits */
	{ {0}, 0, "11111111/00000000/00000000/00000000" },
	{ {0}, 0, "11111111/00000000" },           /* levels left out, no wildcard */
	{ {0}, 0, "11111111/" },
	{ {0}, 0, "11111111//00000000" },
	{ {0}, 0, "11111111/*x" },
	{ {0}, 0, "11111111/**" },
	{ {0}, 0, "11111111*" },                    /* wildcard after all 8 bits */
	{ {0}, 0, "11111111/00000000/0000000*/1" },
	{ {0}, 0, "ROOTS" },
	{ {0}, 0, "root/1" },
	{ {4, 4}, 2, "11111111" },
};

static size_t unhex(const char *h, uint8_t *out)
{
	size_t n = 0;
	for (; h[0] && h[1]; h += 2) {
		unsigned v;
		sscanf(h, "%2x", &v);
		out[n++] = (uint8_t)v;
	}
	return n;
}

static megaco_tid_layout *make_layout(const unsigned *bits, unsigned n)
{
	if (!n)
		return NULL;
	megaco_tid_layout *l = NULL;
	assert_int_equal(megaco_tid_layout_new(bits, n, NULL, &l), MEGACO_OK);
	return l;
}

static void test_table_both_ways(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const tid_case *t = &cases[i];
		megaco_tid_layout *l = make_layout(t->bits, t->nlevels);
		uint8_t want_id[8], want_wild[8], id[8], wild[8];
		size_t want_id_len = unhex(t->id, want_id), want_nwild = unhex(t->wild, want_wild);
		size_t id_len = 0, nwild = 0;
		int rc = megaco_tid_to_binary(l, t->text, strlen(t->text), id, &id_len, wild, sizeof wild,
		                              &nwild);
		if (rc != MEGACO_OK)
			fail_msg("case %zu %s: to binary: %s", i, t->text, megaco_strerror(rc));
		assert_bytes_equal(t->text, id, id_len, want_id, want_id_len);
		assert_bytes_equal(t->text, wild, nwild, want_wild, want_nwild);

		char text[200];
		size_t len = 0;
		rc = megaco_tid_to_text(l, want_id, want_id_len, want_wild, want_nwild, text, sizeof text,
		                        &len);
		if (rc != MEGACO_OK)
			fail_msg("case %zu %s: to text: %s", i, t->text, megaco_strerror(rc));
		assert_int_equal(len, strlen(t->text));
		assert_string_equal(text, t->text);
		megaco_tid_layout_free(l);
	}
}

static void test_text_that_does_not_fit(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_texts / sizeof bad_texts[0]; i++) {
		const bad_text *t = &bad_texts[i];
		megaco_tid_layout *l = make_layout(t->bits, t->nlevels);
		uint8_t id[8], wild[8];
		size_t id_len, nwild;
		int rc = megaco_tid_to_binary(l, t->text, strlen(t->text), id, &id_len, wild, sizeof wild,
		                              &nwild);
		if (rc != MEGACO_ERR_UNKNOWN_NAME)
			fail_msg("\"%s\" gave %s, expected UNKNOWN_NAME", t->text, megaco_strerror(rc));
		megaco_tid_layout_free(l);
	}
	/* Too little room for the wildcards is the caller's limit, not ours. */
	uint8_t id[8], wild[2];
	size_t id_len, nwild;
	assert_int_equal(megaco_tid_to_binary(NULL, "*/*/*", 5, id, &id_len, wild, 2, &nwild),
	                 MEGACO_ERR_UNKNOWN_NAME);
}

/* Binary IDs whose text would map back to other octets are refused. */
static void test_binary_without_text_form(void **state)
{
	(void)state;
	static const struct { const char *id, *wild; } bad[] = {
		{ "FF00", "" },               /* 2 octets, layout has 3 */
		{ "FF000000", "" },           /* 4 octets */
		{ "FFFF01", "87" },           /* wildcarded bits not zero */
		{ "FF0100", "CF" },           /* bits under a recursive wildcard */
		{ "FF0000", "C7" },           /* recursive flag in the last level */
		{ "FF0000", "8787" },         /* two wildcards in one level */
		{ "FF0000", "878F" },         /* wildcards out of level order */
		{ "FF0000", "98" },           /* position beyond the 24 bits */
		{ "FFFFFFFFFFFFFFFF", "87" }, /* ROOT octets with a wildcard */
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint8_t id[8], wild[8];
		size_t id_len = unhex(bad[i].id, id), nwild = unhex(bad[i].wild, wild), len;
		char text[200];
		int rc = megaco_tid_to_text(NULL, id, id_len, wild, nwild, text, sizeof text, &len);
		if (rc != MEGACO_ERR_UNKNOWN_NAME)
			fail_msg("%s/%s gave %s, expected UNKNOWN_NAME", bad[i].id, bad[i].wild,
			         megaco_strerror(rc));
	}
}

static void test_buffer_and_arguments(void **state)
{
	(void)state;
	uint8_t id[3] = { 0xFF, 0, 0 };
	char small[8];
	size_t len = 0;
	assert_int_equal(megaco_tid_to_text(NULL, id, 3, NULL, 0, small, sizeof small, &len),
	                 MEGACO_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(len, 26);
	char exact[26];
	assert_int_equal(megaco_tid_to_text(NULL, id, 3, NULL, 0, exact, sizeof exact, &len), MEGACO_OK);
	assert_memory_equal(exact, "11111111/00000000/00000000", 26);
	size_t id_len, nwild;
	uint8_t out[8];
	assert_int_equal(megaco_tid_to_binary(NULL, NULL, 0, out, &id_len, NULL, 0, &nwild),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_tid_to_text(NULL, id, 3, NULL, 0, small, sizeof small, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
}

static void test_layout_limits(void **state)
{
	(void)state;
	static const struct { unsigned bits[10]; size_t n; int ok; } rows[] = {
		{ {8, 8, 8}, 3, 1 },
		{ {64}, 1, 1 },
		{ {1, 1, 1, 1, 1, 1, 1, 1}, 8, 1 },
		{ {8, 8, 8, 8, 8, 8, 8, 8}, 8, 1 },
		{ {8, 8, 8, 8, 8, 8, 8, 8, 8}, 9, 0 }, /* 72 bits: more than 8 octets */
		{ {12}, 1, 0 },                        /* not whole octets */
		{ {8, 0, 8}, 3, 0 },
		{ {65}, 1, 0 },
		{ {0}, 0, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		megaco_tid_layout *l = NULL;
		int rc = megaco_tid_layout_new(rows[i].bits, rows[i].n, NULL, &l);
		assert_int_equal(rc, rows[i].ok ? MEGACO_OK : MEGACO_ERR_INVALID_ARGUMENT);
		assert_true(rows[i].ok ? l != NULL : l == NULL);
		megaco_tid_layout_free(l);
	}
	assert_int_equal(megaco_tid_layout_new(NULL, 3, NULL, NULL), MEGACO_ERR_INVALID_ARGUMENT);
	megaco_tid_layout_free(NULL);
}

/* A layout's memory comes from the allocator given, and goes back to it. */
static int n_alloc, n_free;
static void *count_alloc(void *ud, size_t n)
{
	(void)ud;
	n_alloc++;
	return malloc(n);
}
static void count_free(void *ud, void *p)
{
	(void)ud;
	n_free++;
	free(p);
}

static void test_layout_allocator(void **state)
{
	(void)state;
	const megaco_allocator al = { count_alloc, count_free, NULL };
	megaco_tid_layout *l = NULL;
	assert_int_equal(megaco_tid_layout_new((const unsigned[]){ 8, 8 }, 2, &al, &l), MEGACO_OK);
	assert_int_equal(n_alloc, 1);
	uint8_t id[MEGACO_TID_MAX_OCTETS], wild[4];
	size_t id_len, nwild;
	assert_int_equal(megaco_tid_to_binary(l, "00000001/00000010", 17, id, &id_len, wild, 4, &nwild),
	                 MEGACO_OK);
	assert_true(id_len == 2 && id[0] == 1 && id[1] == 2);
	megaco_tid_layout_free(l);
	assert_int_equal(n_free, 1);
	assert_int_equal(n_alloc, 1);
}

/* Erlang megaco's termination-ID encoder, the origin of the corpus BER. */
static const char peer_script[] =
	"%% escript ignores this first line\n"
	"-record(megaco_term_id, {contains_wildcards = false, id}).\n"
	"main([File]) ->\n"
	"    {ok, B} = file:read_file(File),\n"
	"    Hex = fun(L) -> lists:flatten([io_lib:format(\"~2.16.0B\", [V]) || V <- L]) end,\n"
	"    Bad = lists:filter(fun(L) ->\n"
	"        [Lay, Text, Id, W] = string:tokens(L, \" \"),\n"
	"        Layout = [list_to_integer(X) || X <- string:tokens(Lay, \",\")],\n"
	"        Wild = lists:any(fun(C) -> C == $* orelse C == $$ end, Text),\n"
	"        T = #megaco_term_id{contains_wildcards = Wild, id = string:tokens(Text, \"/\")},\n"
	"        Got = case catch megaco_binary_term_id:encode(Layout, T) of\n"
	"                  {ok, {'TerminationID', Ws, I}} -> {Hex(I), \"w\" ++ Hex(lists:append(Ws))};\n"
	"                  E -> E end,\n"
	"        case Got of {Id, W} -> false;\n"
	"            _ -> io:format(\"DIFF ~s ~s ours=~s ~s erlang=~p~n\", [Lay, Text, Id, W, Got]), true\n"
	"        end end, string:tokens(binary_to_list(B), \"\\n\")),\n"
	"    halt(case Bad of [] -> 0; _ -> 1 end).\n";

/* The table against megaco_binary_term_id:encode/2; skipped without escript. */
static void test_against_erlang(void **state)
{
	(void)state;
	static char data[16384]; /* not the heap: escript_run() may skip() */
	FILE *f = fmemopen(data, sizeof data, "w");
	assert_non_null(f);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const tid_case *t = &cases[i];
		if (!strcmp(t->text, "ROOT"))
			continue; /* a distinct record in Erlang, not a layout case */
		static const unsigned def[] = { 8, 8, 8 };
		const unsigned *bits = t->nlevels ? t->bits : def;
		unsigned n = t->nlevels ? t->nlevels : 3;
		for (unsigned j = 0; j < n; j++)
			fprintf(f, "%s%u", j ? "," : "", bits[j]);
		fprintf(f, " %s %s w%s\n", t->text, t->id, t->wild);
	}
	assert_true(ftell(f) < (long)sizeof data);
	fclose(f);
	assert_int_equal(escript_run(peer_script, data), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_both_ways),
		cmocka_unit_test(test_text_that_does_not_fit),
		cmocka_unit_test(test_binary_without_text_form),
		cmocka_unit_test(test_buffer_and_arguments),
		cmocka_unit_test(test_layout_limits),
		cmocka_unit_test(test_layout_allocator),
		cmocka_unit_test(test_against_erlang),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
