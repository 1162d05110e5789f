/*
 * Transcoding whole messages between the binary and text name forms.
 * Corpus: every Erlang BER vector decodes, converts to text form (whose
 * names must be those the pretty text of the same message uses), converts
 * back, and encodes to the very same BER; encoding the text-form message
 * straight to BER/PER/APER gives the corpus bytes and leaves the message as
 * it was. Then: unknown names and the path in the error (its end kept),
 * a non-default termination-ID layout, a vendor registry, and (once the
 * text parser exists) pretty text -> BER/PER/APER byte-identical to the
 * corpus.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "MegacoMessage.h"
#include "EventParameter.h"
#include "RequestedEvent.h"
#include "TerminationID.h"
#include "megaco_schema.h"
#include "schema.h"
#include "testutil.h"

static corpus *C;

static void expect_encoding(const char *name, const megaco_message *m, megaco_encoding enc,
                            const megaco_options *o, const char *path)
{
	size_t want_len;
	unsigned char *want = read_file(path, &want_len);
	assert_non_null(want);
	assert_encodes_to(name, m, enc, o, want, want_len);
	free(want);
}

/* --- text names must be those the pretty text uses ----------------------------- */

typedef struct name_check {
	const char *text; /* the pretty message, NUL-terminated */
	const char *msg;
	size_t checked;
} name_check;

static int contains_ci(const char *hay, const unsigned char *needle, size_t n)
{
	if (n == 0)
		return 0;
	for (const char *p = hay; *p; p++)
		if (strncasecmp(p, (const char *)needle, n) == 0)
			return 1;
	return 0;
}

static int check_names(const schema_node *n, void *vctx)
{
	name_check *c = vctx;
	const OCTET_STRING_t *os = NULL;
	if (n->type == SCHEMA_T_TerminationID) {
		const TerminationID_t *t = n->ptr;
		assert_int_equal(t->wildcard.list.count, 0);
		os = &t->id;
	} else if (n->type == SCHEMA_T_PkgdName || n->type == SCHEMA_T_EventName ||
	           n->type == SCHEMA_T_SignalName || n->type == SCHEMA_T_Name ||
	           n->type == SCHEMA_T_DigitMapName) {
		os = n->ptr;
	}
	if (os) {
		if (!contains_ci(c->text, os->buf, (size_t)os->size))
			fail_msg("%s: text-form name \"%.*s\" does not occur in the pretty text", c->msg,
			         os->size, (const char *)os->buf);
		c->checked++;
	}
	return WALK_CONTINUE;
}

/*
 * BER -> pretty -> model is the model decoded from the original text, with
 * each scanner: the names mapped back from binary are the ones the text had.
 */
static void test_ber_pretty_model(void **state)
{
	(void)state;
	static const megaco_scanner scanners[] = { MEGACO_SCANNER_REENTRANT,
		                                   MEGACO_SCANNER_NON_REENTRANT };
	size_t n = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		if (!e->path[MEGACO_ENC_BER - 1])
			continue;
		megaco_message *from_ber = decode_file(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, NULL, NULL);
		void *text = NULL;
		size_t text_len = 0;
		megaco_error err;
		if (megaco_encode_alloc(from_ber, MEGACO_ENC_PRETTY, NULL, &text, &text_len, &err))
			fail_msg("%s: BER -> pretty: %s", e->name, err.message);
		for (size_t k = 0; k < 2; k++) {
			megaco_options o;
			megaco_options_init(&o);
			o.scanner = scanners[k];
			megaco_message *a = NULL, *b = NULL;
			if (megaco_decode(MEGACO_ENC_PRETTY, text, text_len, &o, &a, &err))
				fail_msg("%s: our pretty does not decode: %s", e->name, err.message);
			if (megaco_decode(MEGACO_ENC_PRETTY, w.bytes, w.len, &o, &b, &err))
				fail_msg("%s: the original does not decode: %s", e->name, err.message);
			char *da = model_dump(a), *db = model_dump(b);
			if (strcmp(da, db))
				fail_msg("%s (scanner %zu): BER -> pretty -> model differs from the original's model",
				         e->name, k);
			free(da);
			free(db);
			megaco_message_free(a);
			megaco_message_free(b);
		}
		megaco_buffer_free(text, NULL);
		megaco_message_free(from_ber);
		n++;
	}
	assert_int_equal(n, 149);
}

static void test_corpus_ber_text_ber(void **state)
{
	(void)state;
	size_t names = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		const char *ber = w.path;
		megaco_message *m = w.m;
		megaco_error err;
		int rc = megaco_message_convert_names(m, MEGACO_NAMES_TEXT, NULL, &err);
		if (rc != MEGACO_OK)
			fail_msg("%s: to text: %s", e->name, err.message);
		assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_TEXT);

		if (e->path[MEGACO_ENC_PRETTY - 1]) {
			size_t len;
			unsigned char *pretty = read_file(e->path[MEGACO_ENC_PRETTY - 1], &len);
			char *z = malloc(len + 1);
			memcpy(z, pretty, len);
			z[len] = '\0';
			name_check c = { z, e->name, 0 };
			schema_walk(SCHEMA_ROOT, megaco_message_model(m), check_names, &c);
			names += c.checked;
			free(z);
			free(pretty);
		}

		/* Encoding the text form converts a copy; the message stays as it is. */
		struct MegacoMessage *before = megaco_message_model(m);
		expect_encoding(e->name, m, MEGACO_ENC_BER, NULL, ber);
		if (e->path[MEGACO_ENC_PER - 1])
			expect_encoding(e->name, m, MEGACO_ENC_PER, NULL, e->path[MEGACO_ENC_PER - 1]);
		if (e->path[MEGACO_ENC_APER - 1])
			expect_encoding(e->name, m, MEGACO_ENC_APER, NULL, e->path[MEGACO_ENC_APER - 1]);
		assert_ptr_equal(megaco_message_model(m), before);
		assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_TEXT);

		rc = megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err);
		if (rc != MEGACO_OK)
			fail_msg("%s: back to binary: %s", e->name, err.message);
		assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_BINARY);
		expect_encoding(e->name, m, MEGACO_ENC_BER, NULL, ber);
	}
	assert_int_equal(w.files, 149);
	print_message("%zu text-form names found in the pretty texts\n", names);
	assert_true(names >= 700); /* 730 with the current corpus */
}

/* --- errors --------------------------------------------------------------------- */

typedef struct finder {
	unsigned type;
	void *found;
} finder;

static int find_first(const schema_node *n, void *vctx)
{
	finder *f = vctx;
	if (!f->found && n->type == f->type)
		f->found = n->ptr;
	return WALK_CONTINUE;
}

static void *first_of(megaco_message *m, unsigned type)
{
	finder f = { type, NULL };
	schema_walk(SCHEMA_ROOT, megaco_message_model(m), find_first, &f);
	assert_non_null(f.found);
	return f.found;
}

static const char *corpus_path(const char *name, megaco_encoding enc)
{
	return corpus_find(C, name)->path[enc - 1];
}

static megaco_message *text_form(const char *name, const megaco_options *o)
{
	megaco_message *m = decode_file(corpus_path(name, MEGACO_ENC_BER), MEGACO_ENC_BER, NULL, NULL);
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_TEXT, o, NULL), MEGACO_OK);
	return m;
}

static void set_text(megaco_message *m, OCTET_STRING_t *os, const char *s)
{
	assert_int_equal(megaco_message_set_octets(m, os, s, strlen(s)), MEGACO_OK);
}

static void test_unknown_names(void **state)
{
	(void)state;
	megaco_message *m = text_form("msg01a", NULL);
	RequestedEvent_t *ev = first_of(m, SCHEMA_T_RequestedEvent);
	assert_memory_equal(ev->pkgdName.buf, "al/of", 5);
	set_text(m, &ev->pkgdName, "zz/top");
	void *out = NULL;
	size_t len;
	megaco_error err;
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, NULL, &out, &len, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_non_null(strstr(err.message, "\"zz/top\""));
	assert_non_null(strstr(err.message, "eventList[0]"));
	assert_non_null(strstr(err.message, "transactions[0]"));
	/* In-place conversion is all or nothing. */
	struct MegacoMessage *before = megaco_message_model(m);
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_int_equal(err.code, MEGACO_ERR_UNKNOWN_NAME);
	assert_ptr_equal(megaco_message_model(m), before);
	assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_TEXT);

	megaco_message_free(m);

	/* Parameters are scoped by their event: strict belongs to al/on, not al/fl. */
	m = text_form("msg78a01", NULL);
	ev = first_of(m, SCHEMA_T_RequestedEvent);
	assert_memory_equal(ev->pkgdName.buf, "al/on", 5);
	assert_int_equal(ev->evParList.list.count, 1);
	assert_memory_equal(ev->evParList.list.array[0]->eventParameterName.buf, "strict", 6);
	set_text(m, &ev->pkgdName, "al/fl");
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_non_null(strstr(err.message, "parameter \"strict\""));
	assert_non_null(strstr(err.message, ".evParList[0]"));
	/* The fallback form always maps. */
	set_text(m, &ev->evParList.list.array[0]->eventParameterName, "x0001");
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err), MEGACO_OK);
	ev = first_of(m, SCHEMA_T_RequestedEvent);
	assert_memory_equal(ev->pkgdName.buf, "\x00\x09\x00\x06", 4);
	assert_memory_equal(ev->evParList.list.array[0]->eventParameterName.buf, "\x00\x01", 2);
	megaco_message_free(m);

	/* A text termination ID that the layout cannot carry (RFC 3525 Appendix A style). */
	m = text_form("msg01a", NULL);
	TerminationID_t *tid = first_of(m, SCHEMA_T_TerminationID);
	assert_memory_equal(tid->id.buf, "11111111/00000000/00000000", 26);
	set_text(m, &tid->id, "A4444");
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_PER, NULL, &out, &len, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_non_null(strstr(err.message, "termination ID \"A4444\""));
	assert_non_null(strstr(err.message, "terminationID"));
	megaco_message_free(m);

	/* Binary names with no text form: a 3-octet PkgdName. */
	m = decode_file(corpus_path("msg01a", MEGACO_ENC_BER), MEGACO_ENC_BER, NULL, NULL);
	ev = first_of(m, SCHEMA_T_RequestedEvent);
	ev->pkgdName.size = 3;
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_TEXT, NULL, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_non_null(strstr(err.message, "00 09 00"));
	assert_int_equal(megaco_message_name_form(m), MEGACO_NAMES_BINARY);
	megaco_message_free(m);

	/* A deep name: the path keeps its end (the member holding the name), losing its front. */
	static const char deep[] =
		"MEGACO/3 [124.124.124.222]:55555\n"
		"Transaction = 9998 { Context = - { Add = 11111111/00000000/00000000 { Events = 1 { "
		"al/of { Embed { Events = 2 { al/on { RegulatedNotify { Embed { Events = 3 { zz/top "
		"} } } } } } } } } } }";
	assert_int_equal(megaco_decode(MEGACO_ENC_PRETTY, deep, strlen(deep), NULL, &m, &err),
	                 MEGACO_OK);
	assert_int_equal(megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	const char *tail = ".secondEvent.eventList[0].pkgdName";
	size_t len_msg = strlen(err.message);
	if (!strstr(err.message, "event \"zz/top\"") || !strstr(err.message, ", at ...") ||
	    len_msg < strlen(tail) || strcmp(err.message + len_msg - strlen(tail), tail))
		fail_msg("message: %s", err.message);
	megaco_message_free(m);

	assert_int_equal(megaco_message_convert_names(NULL, MEGACO_NAMES_TEXT, NULL, &err),
	                 MEGACO_ERR_INVALID_ARGUMENT);
}

static void test_other_layout(void **state)
{
	(void)state;
	megaco_tid_layout *l = NULL;
	assert_int_equal(megaco_tid_layout_new((const unsigned[]){ 8, 16 }, 2, NULL, &l), MEGACO_OK);
	megaco_options o;
	megaco_options_init(&o);
	o.tid_layout = l;
	megaco_message *m = text_form("msg01a", &o);
	TerminationID_t *tid = first_of(m, SCHEMA_T_TerminationID);
	assert_int_equal(tid->id.size, 25);
	assert_memory_equal(tid->id.buf, "11111111/0000000000000000", 25);
	expect_encoding("msg01a", m, MEGACO_ENC_BER, &o, corpus_path("msg01a", MEGACO_ENC_BER));
	/* The default layout cannot read it. */
	void *out = NULL;
	size_t len;
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, NULL, &out, &len, NULL),
	                 MEGACO_ERR_UNKNOWN_NAME);
	megaco_message_free(m);
	megaco_tid_layout_free(l);
}

static void test_vendor_registry(void **state)
{
	(void)state;
	/* Added through the C API, which every build has (YAML needs MEGACO_YAML). */
	megaco_registry *reg = NULL;
	assert_int_equal(megaco_registry_new(0, NULL, &reg), MEGACO_OK);
	assert_int_equal(megaco_registry_add_package(reg, "vend", 0xFE01, 1, NULL), MEGACO_OK);
	assert_int_equal(megaco_registry_add_item(reg, "vend", MEGACO_ITEM_EVENT, "hook", 0x10),
	                 MEGACO_OK);
	assert_int_equal(megaco_registry_add_parameter(reg, "vend", MEGACO_ITEM_EVENT, "hook", "side", 2),
	                 MEGACO_OK);
	megaco_options o;
	megaco_options_init(&o);
	o.registry = reg;

	megaco_message *m = text_form("msg01a", NULL);
	RequestedEvent_t *ev = first_of(m, SCHEMA_T_RequestedEvent);
	set_text(m, &ev->pkgdName, "vend/hook");
	void *vend = NULL, *again = NULL;
	size_t vend_len, again_len;
	megaco_error err;
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, NULL, &vend, &vend_len, &err),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, &o, &vend, &vend_len, &err), MEGACO_OK);
	megaco_message_free(m);

	/* Without the vendor registry the name prints in the fallback form ... */
	megaco_message *b = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, vend, vend_len, NULL, &b, NULL), MEGACO_OK);
	assert_int_equal(megaco_message_convert_names(b, MEGACO_NAMES_TEXT, NULL, NULL), MEGACO_OK);
	ev = first_of(b, SCHEMA_T_RequestedEvent);
	assert_int_equal(ev->pkgdName.size, 11);
	assert_memory_equal(ev->pkgdName.buf, "xfe01/x0010", 11);
	/* ... which maps back to the same octets. */
	assert_int_equal(megaco_encode_alloc(b, MEGACO_ENC_BER, NULL, &again, &again_len, NULL),
	                 MEGACO_OK);
	assert_bytes_equal("fallback round trip", again, again_len, vend, vend_len);
	megaco_message_free(b);

	/* With it, the vendor name. */
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, vend, vend_len, NULL, &b, NULL), MEGACO_OK);
	assert_int_equal(megaco_message_convert_names(b, MEGACO_NAMES_TEXT, &o, NULL), MEGACO_OK);
	ev = first_of(b, SCHEMA_T_RequestedEvent);
	assert_memory_equal(ev->pkgdName.buf, "vend/hook", 9);
	megaco_message_free(b);

	megaco_buffer_free(vend, NULL);
	megaco_buffer_free(again, NULL);
	megaco_registry_free(reg);
}

/* --- one text-form message encoded from several threads at once ----------------- */

typedef struct enc_job {
	const megaco_message *m;
	const unsigned char *want;
	size_t want_len;
	int failures;
} enc_job;

static void *encode_loop(void *arg)
{
	enc_job *j = arg;
	unsigned char out[4096];
	for (int i = 0; i < 300; i++) {
		size_t len = 0;
		if (megaco_encode(j->m, MEGACO_ENC_BER, NULL, out, sizeof out, &len, NULL) != MEGACO_OK ||
		    len != j->want_len || memcmp(out, j->want, len))
			j->failures++;
	}
	return NULL;
}

static void test_concurrent_encode_of_text_form(void **state)
{
	(void)state;
	megaco_message *m = text_form("msg08a", NULL);
	size_t want_len;
	unsigned char *want = read_file(corpus_path("msg08a", MEGACO_ENC_BER), &want_len);
	enc_job jobs[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		jobs[i] = (enc_job){ m, want, want_len, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, encode_loop, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(jobs[i].failures, 0);
	}
	free(want);
	megaco_message_free(m);
}

/* --- pretty text -> BER/PER/APER, once src/text_decode.c exists ----------------- */

static void test_pretty_to_binary(void **state)
{
	(void)state;
	size_t same[MEGACO_ENC_APER + 1] = { 0 }, total = 0;
	char diffs[4096] = "";
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .set = "time_test" };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		if (!e->path[MEGACO_ENC_BER - 1])
			continue;
		megaco_message *m = NULL;
		megaco_error err;
		int rc = megaco_decode(MEGACO_ENC_PRETTY, w.bytes, w.len, NULL, &m, &err);
		if (rc == MEGACO_ERR_UNSUPPORTED) {
			corpus_stop(&w);
			skip(); /* no text parser in this build yet */
		}
		total++;
		if (rc != MEGACO_OK) {
			snprintf(diffs + strlen(diffs), sizeof diffs - strlen(diffs), " %s(decode: %s)",
			         e->name, err.message);
			continue;
		}
		for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
			size_t want_len;
			unsigned char *want = e->path[enc - 1] ? read_file(e->path[enc - 1], &want_len) : NULL;
			if (!want)
				continue;
			void *out = NULL;
			size_t out_len = 0;
			rc = megaco_encode_alloc(m, enc, NULL, &out, &out_len, &err);
			if (rc == MEGACO_OK && out_len == want_len && !memcmp(out, want, want_len)) {
				same[enc]++;
			} else {
				snprintf(diffs + strlen(diffs), sizeof diffs - strlen(diffs), " %s/%s(%s)",
				         e->name, megaco_encoding_name(enc),
				         rc == MEGACO_OK ? "bytes differ" : err.message);
			}
			megaco_buffer_free(out, NULL);
			free(want);
		}
		megaco_message_free(m);
	}
	print_message("pretty -> BER identical: %zu/%zu, -> PER: %zu/%zu, -> APER: %zu/%zu\n",
	              same[MEGACO_ENC_BER], total, same[MEGACO_ENC_PER], total, same[MEGACO_ENC_APER],
	              total);
	if (diffs[0])
		fail_msg("differ:%s", diffs);
	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++)
		assert_int_equal(same[enc], 149);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_ber_text_ber),
		cmocka_unit_test(test_ber_pretty_model),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_other_layout),
		cmocka_unit_test(test_vendor_registry),
		cmocka_unit_test(test_concurrent_encode_of_text_form),
		cmocka_unit_test(test_pretty_to_binary),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
