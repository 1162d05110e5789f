/*
 * The public API's contracts outside the codecs proper: options defaults,
 * argument checks, status strings, encoding names, building a message by
 * hand and round-tripping it through BER and both PERs, megaco_detect on all
 * five encodings, and the caller's allocator being the one actually used, also
 * when it refuses (every decode and encode of the corpus).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "testutil.h"

static corpus *C;

/* ---- a counting allocator ------------------------------------------------ */

typedef struct {
	long allocs, frees, live;
	long fail_after; /* fail every allocation once allocs reaches this; -1 never */
} counter;

static void *count_alloc(void *ud, size_t n)
{
	counter *c = ud;
	if (c->fail_after >= 0 && c->allocs >= c->fail_after)
		return NULL;
	c->allocs++;
	c->live++;
	return malloc(n);
}

static void count_free(void *ud, void *p)
{
	counter *c = ud;
	if (!p)
		return;
	c->frees++;
	c->live--;
	free(p);
}

static counter cnt;
static const megaco_allocator counting = { count_alloc, count_free, &cnt };

/* Default options but for the counting allocator, its counts reset. */
static megaco_options counted_options(void)
{
	cnt = (counter){ 0, 0, 0, -1 };
	megaco_options o;
	megaco_options_init(&o);
	o.allocator = &counting;
	return o;
}

static const char *first_path(megaco_encoding enc, const char *name)
{
	for (size_t i = 0; i < C->count; i++)
		if (C->entries[i].path[enc - 1] && (!name || !strcmp(C->entries[i].name, name)))
			return C->entries[i].path[enc - 1];
	fail_msg("no corpus file for %s", megaco_encoding_name(enc));
	return NULL;
}

/* ---- options, strings, names --------------------------------------------- */

static void test_options_defaults(void **state)
{
	(void)state;
	megaco_options o;
	memset(&o, 0xa5, sizeof o);
	megaco_options_init(&o);
	assert_int_equal(o.version, MEGACO_OPTIONS_VERSION);
	assert_int_equal(o.max_message_size, 1u << 20);
	assert_int_equal(o.max_depth, 64);
	assert_int_equal(o.max_token_length, 64u << 10);
	assert_int_equal(o.scanner, MEGACO_SCANNER_REENTRANT);
	assert_null(o.tid_layout);
	assert_null(o.registry);
	assert_null(o.allocator);
	megaco_options_init(NULL); /* a no-op, not a crash */

	/* Options with a wrong version are refused, not trusted; 0 limits mean none. */
	size_t len;
	unsigned char *ber = read_file(first_path(MEGACO_ENC_BER, NULL), &len);
	megaco_options bogus;
	memset(&bogus, 0, sizeof bogus); /* version 0 */
	megaco_message *m = NULL;
	megaco_error err;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, ber, len, &bogus, &m, &err),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_string_equal(err.message, "options version 0, expected 1");
	assert_null(m);
	assert_null(megaco_message_new(MEGACO_NAMES_BINARY, &bogus));
	bogus.version = MEGACO_OPTIONS_VERSION; /* every limit 0 */
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, ber, len, &bogus, &m, NULL), MEGACO_OK);
	size_t out_len;
	void *out = NULL;
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_PER, &bogus, &out, &out_len, NULL), MEGACO_OK);
	megaco_buffer_free(out, &bogus);
	bogus.max_message_size = 8; /* an encoder writes no more than a decoder reads */
	assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, &bogus, &out, &out_len, &err),
	                 MEGACO_ERR_TOO_LARGE);
	megaco_message_free(m);
	free(ber);
}

static void test_strerror_all_codes(void **state)
{
	(void)state;
	const char *seen[32] = { 0 };
	for (int code = MEGACO_OK; code >= MEGACO_ERR_NOT_MEGACO; code--) {
		const char *s = megaco_strerror(code);
		assert_non_null(s);
		assert_true(strlen(s) > 3);
		assert_string_not_equal(s, "unknown error");
		for (int k = 0; k < -code; k++)
			if (!strcmp(seen[k], s))
				fail_msg("codes %d and %d share the text \"%s\"", -k, code, s);
		seen[-code] = s;
	}
	const int unknown[] = { 1, 42, MEGACO_ERR_NOT_MEGACO - 1, -1000, INT_MIN, INT_MAX };
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
		assert_string_equal(megaco_strerror(unknown[i]), "unknown error");
}

static void test_encoding_names(void **state)
{
	(void)state;
	static const struct {
		megaco_encoding enc;
		const char *name, *shouted;
	} names[] = {
		{ MEGACO_ENC_AUTO, "auto", "AUTO" },       { MEGACO_ENC_PRETTY, "pretty", "Pretty" },
		{ MEGACO_ENC_COMPACT, "compact", "COMPACT" }, { MEGACO_ENC_BER, "ber", "BER" },
		{ MEGACO_ENC_PER, "per", "pEr" },           { MEGACO_ENC_APER, "aper", "APER" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		assert_string_equal(megaco_encoding_name(names[i].enc), names[i].name);
		megaco_encoding e = (megaco_encoding)99;
		assert_int_equal(megaco_encoding_from_name(names[i].name, &e), MEGACO_OK);
		assert_int_equal(e, names[i].enc);
		e = (megaco_encoding)99;
		assert_int_equal(megaco_encoding_from_name(names[i].shouted, &e), MEGACO_OK);
		assert_int_equal(e, names[i].enc);
	}
	assert_null(megaco_encoding_name((megaco_encoding)6));
	assert_null(megaco_encoding_name((megaco_encoding)-1));
	megaco_encoding e = MEGACO_ENC_BER;
	const char *bad[] = { "", "xer", "ber ", "be", "perx" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(megaco_encoding_from_name(bad[i], &e), MEGACO_ERR_INVALID_ARGUMENT);
		assert_int_equal(e, MEGACO_ENC_BER); /* untouched */
	}
	assert_int_equal(megaco_encoding_from_name(NULL, &e), MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_encoding_from_name("ber", NULL), MEGACO_ERR_INVALID_ARGUMENT);

	const char *v = megaco_version();
	assert_non_null(v);
	assert_true(isdigit((unsigned char)v[0]) && strchr(v, '.'));
}

/* ---- argument checks ------------------------------------------------------- */

static void expect_invalid(const char *what, int rc, const megaco_error *err)
{
	if (rc != MEGACO_ERR_INVALID_ARGUMENT)
		fail_msg("%s: got %s, expected invalid argument", what, megaco_strerror(rc));
	if (err && (err->code != rc || !err->message[0]))
		fail_msg("%s: error record not filled", what);
}

static void test_null_arguments(void **state)
{
	(void)state;
	size_t len;
	unsigned char *ber = read_file(first_path(MEGACO_ENC_BER, NULL), &len);
	megaco_message *m = NULL, *keep = (megaco_message *)&m;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, ber, len, NULL, &m, NULL), MEGACO_OK);
	megaco_error err;
	unsigned char buf[16];
	size_t out_len = 7;
	void *out = &out;

	megaco_message *o = keep;
	expect_invalid("decode out NULL", megaco_decode(MEGACO_ENC_BER, ber, len, NULL, NULL, &err),
	               &err);
	expect_invalid("decode buf NULL", megaco_decode(MEGACO_ENC_BER, NULL, 5, NULL, &o, &err), &err);
	assert_ptr_equal(o, keep);
	expect_invalid("decode enc 42", megaco_decode((megaco_encoding)42, ber, len, NULL, &o, &err),
	               &err);
	assert_ptr_equal(o, keep);
	expect_invalid("decode enc -1", megaco_decode((megaco_encoding)-1, ber, len, NULL, &o, &err),
	               &err);
	/* NULL with length 0 is an empty buffer, not a bad argument. */
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, NULL, 0, NULL, &o, &err), MEGACO_ERR_TRUNCATED);
	assert_ptr_equal(o, keep);

	expect_invalid("encode msg NULL",
	               megaco_encode(NULL, MEGACO_ENC_BER, NULL, buf, sizeof buf, &out_len, &err), &err);
	expect_invalid("encode out_len NULL",
	               megaco_encode(m, MEGACO_ENC_BER, NULL, buf, sizeof buf, NULL, &err), &err);
	expect_invalid("encode buf NULL",
	               megaco_encode(m, MEGACO_ENC_BER, NULL, NULL, 16, &out_len, &err), &err);
	expect_invalid("encode to auto",
	               megaco_encode(m, MEGACO_ENC_AUTO, NULL, buf, sizeof buf, &out_len, &err), &err);
	expect_invalid("encode to 42",
	               megaco_encode(m, (megaco_encoding)42, NULL, buf, sizeof buf, &out_len, &err),
	               &err);
	/* NULL buffer with capacity 0 is a size query. */
	assert_int_equal(megaco_encode(m, MEGACO_ENC_BER, NULL, NULL, 0, &out_len, &err),
	                 MEGACO_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(out_len, len);

	expect_invalid("encode_alloc msg NULL",
	               megaco_encode_alloc(NULL, MEGACO_ENC_BER, NULL, &out, &out_len, &err), &err);
	expect_invalid("encode_alloc out NULL",
	               megaco_encode_alloc(m, MEGACO_ENC_BER, NULL, NULL, &out_len, &err), &err);
	expect_invalid("encode_alloc out_len NULL",
	               megaco_encode_alloc(m, MEGACO_ENC_BER, NULL, &out, NULL, &err), &err);
	expect_invalid("encode_alloc to auto",
	               megaco_encode_alloc(m, MEGACO_ENC_AUTO, NULL, &out, &out_len, &err), &err);
	assert_ptr_equal(out, &out);

	expect_invalid("detect NULL", megaco_detect(NULL, 3, NULL, NULL), NULL);
	expect_invalid("set_octets msg NULL", megaco_message_set_octets(NULL, NULL, "x", 1), NULL);
	OCTET_STRING_t os = { 0 };
	expect_invalid("set_octets field NULL", megaco_message_set_octets(m, NULL, "x", 1), NULL);
	expect_invalid("set_octets bytes NULL", megaco_message_set_octets(m, &os, NULL, 1), NULL);
	expect_invalid("append list NULL", megaco_message_append(m, NULL, &os), NULL);
	expect_invalid("append element NULL", megaco_message_append(m, &os, NULL), NULL);
	expect_invalid("append msg NULL", megaco_message_append(NULL, &os, &os), NULL);

	/* NULL handles are harmless everywhere else. */
	megaco_message_free(NULL);
	megaco_buffer_free(NULL, NULL);
	assert_null(megaco_message_model(NULL));
	assert_null(megaco_message_model_const(NULL));
	assert_null(megaco_message_alloc(NULL, 8));
	assert_int_equal(megaco_message_version(NULL), 0);
	assert_int_equal(megaco_message_memory(NULL), 0);
	assert_null(megaco_message_new((megaco_name_form)7, NULL));

	/* Decoding without an error record works the same. */
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, ber, len - 1, NULL, &o, NULL),
	                 MEGACO_ERR_TRUNCATED);
	megaco_message_free(m);
	free(ber);
}

/* ---- a message built by hand ------------------------------------------------ */

static megaco_message *build_pending(const megaco_options *o, long version, int ntrans)
{
	megaco_message *msg = megaco_message_new(MEGACO_NAMES_BINARY, o);
	assert_non_null(msg);
	MegacoMessage_t *mm = megaco_message_model(msg);
	assert_non_null(mm);
	assert_ptr_equal(megaco_message_model_const(msg), mm);
	assert_null(mm->authHeader);
	mm->mess.version = version;
	mm->mess.mId.present = MId_PR_domainName;
	assert_int_equal(megaco_message_set_octets(msg, &mm->mess.mId.choice.domainName.name,
	                                           "mgc.example.net", 15),
	                 MEGACO_OK);
	long *port = megaco_message_alloc(msg, sizeof *port);
	assert_non_null(port);
	*port = 2944;
	mm->mess.mId.choice.domainName.portNumber = port;
	mm->mess.messageBody.present = Message__messageBody_PR_transactions;
	for (int i = 0; i < ntrans; i++) {
		Transaction_t *t = megaco_message_alloc(msg, sizeof *t);
		assert_non_null(t);
		t->present = Transaction_PR_transactionPending;
		t->choice.transactionPending.transactionId = 1000u + (unsigned)i;
		assert_int_equal(megaco_message_append(msg, &mm->mess.messageBody.choice.transactions.list,
		                                       t),
		                 MEGACO_OK);
	}
	return msg;
}

static void check_pending(const megaco_message *msg, long version, int ntrans)
{
	const MegacoMessage_t *mm = megaco_message_model_const(msg);
	assert_int_equal(megaco_message_version(msg), version);
	assert_int_equal(mm->mess.mId.present, MId_PR_domainName);
	const DomainName_t *dn = &mm->mess.mId.choice.domainName;
	assert_int_equal(dn->name.size, 15);
	assert_memory_equal(dn->name.buf, "mgc.example.net", 15);
	assert_non_null(dn->portNumber);
	assert_int_equal(*dn->portNumber, 2944);
	assert_int_equal(mm->mess.messageBody.present, Message__messageBody_PR_transactions);
	const struct Message__messageBody__transactions *tl = &mm->mess.messageBody.choice.transactions;
	assert_int_equal(tl->list.count, ntrans);
	for (int i = 0; i < ntrans; i++) {
		assert_int_equal(tl->list.array[i]->present, Transaction_PR_transactionPending);
		assert_int_equal(tl->list.array[i]->choice.transactionPending.transactionId, 1000 + i);
	}
}

static void test_build_by_hand(void **state)
{
	(void)state;
	/* 300 transactions: the list grows many times inside the arena. */
	const int ntrans = 300;
	for (long version = 1; version <= 3; version++) {
		megaco_message *msg = build_pending(NULL, version, ntrans);
		assert_int_equal(megaco_message_name_form(msg), MEGACO_NAMES_BINARY);
		check_pending(msg, version, ntrans);
		assert_true(megaco_message_memory(msg) > 0);
		for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
			void *out = NULL;
			size_t out_len = 0;
			megaco_error err;
			int rc = megaco_encode_alloc(msg, enc, NULL, &out, &out_len, &err);
			if (rc != MEGACO_OK)
				fail_msg("v%ld %s: %s", version, megaco_encoding_name(enc), err.message);
			megaco_encoding det;
			int v;
			assert_int_equal(megaco_detect(out, out_len, &det, &v), MEGACO_OK);
			assert_int_equal(det, enc);
			assert_int_equal(v, version);
			megaco_message *back = NULL;
			rc = megaco_decode(MEGACO_ENC_AUTO, out, out_len, NULL, &back, &err);
			if (rc != MEGACO_OK)
				fail_msg("v%ld %s: decode: %s", version, megaco_encoding_name(enc), err.message);
			check_pending(back, version, ntrans);
			/* Re-encoding the decoded copy gives the same bytes. */
			void *again = NULL;
			size_t again_len = 0;
			assert_int_equal(megaco_encode_alloc(back, enc, NULL, &again, &again_len, NULL),
			                 MEGACO_OK);
			assert_bytes_equal("re-encoded", again, again_len, out, out_len);
			megaco_buffer_free(again, NULL);
			megaco_message_free(back);
			megaco_buffer_free(out, NULL);
		}
		megaco_message_free(msg);
	}

	/* A message in text name form cannot go to BER/PER without the mapping. */
	megaco_message *t = megaco_message_new(MEGACO_NAMES_TEXT, NULL);
	assert_int_equal(megaco_message_name_form(t), MEGACO_NAMES_TEXT);
	unsigned char buf[64];
	size_t n;
	megaco_error err;
	assert_int_not_equal(megaco_encode(t, MEGACO_ENC_BER, NULL, buf, sizeof buf, &n, &err),
	                     MEGACO_OK);
	megaco_message_free(t);

	/* An empty model breaks the module's constraints (no mId chosen). */
	megaco_message *empty = megaco_message_new(MEGACO_NAMES_BINARY, NULL);
	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
		int rc = megaco_encode(empty, enc, NULL, buf, sizeof buf, &n, &err);
		assert_int_not_equal(rc, MEGACO_OK);
		assert_int_equal(err.code, rc);
		assert_true(err.message[0] != '\0');
	}
	megaco_message_free(empty);
}

/* ---- detection ---------------------------------------------------------------- */

static void test_detect_samples(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		megaco_encoding enc;
		int version;
		size_t len; /* 0: strlen */
	} samples[] = {
		{ "MEGACO/1 [124.124.124.222]:55555\nTransaction = 9998 {}", MEGACO_ENC_PRETTY, 1, 0 },
		{ "megaco/3 <mg1>\n", MEGACO_ENC_PRETTY, 3, 0 },
		{ "!/2 [1.2.3.4] T=1{}", MEGACO_ENC_COMPACT, 2, 0 },
		{ "  \r\n\t; a comment line\n; another\n  MEGACO/3 mg", MEGACO_ENC_PRETTY, 3, 0 },
		{ "; only a comment then compact\n!/1 mg", MEGACO_ENC_COMPACT, 1, 0 },
		{ "Authentication = 0xFEDCBA98:0x00000001:0x0123456789ABCDEF0123456789ABCDEF\n"
		  "MEGACO/2 mg", MEGACO_ENC_PRETTY, 2, 0 },
		{ "AU=0xFEDCBA98:0x00000001:0x0123456789ABCDEF0123456789ABCDEF !/3 mg",
		  MEGACO_ENC_COMPACT, 3, 0 },
		{ "\x30\x03\xa1\x01\x00", MEGACO_ENC_BER, 0, 5 },
		{ "\x30\x05\xa1\x03\x80\x01\x02", MEGACO_ENC_BER, 2, 7 },
		{ "\x30\x05\xa1\x03\x80\x01\x02\x00", MEGACO_ENC_BER, 2, 8 }, /* stray byte: still BER */
		{ "\x30\x80\xa1\x80\x80\x01\x03", MEGACO_ENC_BER, 3, 7 }, /* indefinite */
		{ "\x01\x80\x00", MEGACO_ENC_PER, 3, 3 }, /* UPER: 0 0 0000011 ... */
		{ "\x00\x80", MEGACO_ENC_PER, 1, 2 },
		{ "\x01\x05\xa1\x03\x80\x01\x02", MEGACO_ENC_PER, 2, 7 }, /* not a SEQUENCE: PER bits 0 0 0000010 */
		{ "MEGCAO/1 [1.2.3.4]", MEGACO_ENC_PRETTY, 0, 0 }, /* mistyped header: text */
		{ "\x81", MEGACO_ENC_PER, 0, 1 }, /* authHeader cut before the version */
		/* APER: msg30a (corpus/aper), whole; cut inside its address (UPER then) */
		{ "\x00\x84\x7d\x7d\x7d\x6f\xd9\x03\x80\x01\x60\x01\x00\x09", MEGACO_ENC_APER, 1, 14 },
		{ "\x00\x84\x7d\x7d\x7d", MEGACO_ENC_PER, 1, 5 },
		/* APER with an authHeader: 1+pad, 4+4 octets, 5-bit length 12 + pad, 12 octets,
		 * then version 3 on an octet boundary and msg30a's body */
		{ "\x80\x11\x11\x11\x11\x22\x22\x22\x22\x00\x33\x33\x33\x33\x33\x33\x33\x33\x33"
		  "\x33\x33\x33\x03\x08\x7d\x7d\x7d\x6f\xd9\x03\x80\x01\x60\x01\x00\x09",
		  MEGACO_ENC_APER, 3, 36 },
	};
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
		size_t len = samples[i].len ? samples[i].len : strlen(samples[i].text);
		megaco_encoding e = MEGACO_ENC_AUTO;
		int v = -1;
		assert_int_equal(megaco_detect(samples[i].text, len, &e, &v), MEGACO_OK);
		if (e != samples[i].enc || v != samples[i].version)
			fail_msg("sample %zu: got %s v%d, expected %s v%d", i, megaco_encoding_name(e), v,
			         megaco_encoding_name(samples[i].enc), samples[i].version);
		assert_int_equal(megaco_detect(samples[i].text, len, NULL, NULL), MEGACO_OK);
	}
	megaco_encoding e = MEGACO_ENC_BER;
	int v = 5;
	assert_int_equal(megaco_detect("", 0, &e, &v), MEGACO_ERR_TRUNCATED);
	assert_int_equal(megaco_detect(NULL, 0, &e, &v), MEGACO_ERR_TRUNCATED);
	assert_int_equal(megaco_detect("\x31\x05\xa1", 3, &e, &v), MEGACO_ERR_NOT_MEGACO);
	assert_int_equal(megaco_detect("\x10\x00", 2, &e, &v), MEGACO_ERR_NOT_MEGACO);
	assert_int_equal(e, MEGACO_ENC_BER);
	assert_int_equal(v, 5);

	/* Every corpus file in every encoding, with its manifest version. */
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_APER };
	while (corpus_next(&w)) {
		assert_int_equal(megaco_detect(w.bytes, w.len, &e, &v), MEGACO_OK);
		if (e != w.enc || v != w.e->version)
			fail_msg("%s: detected %s v%d", w.path, megaco_encoding_name(e), v);
	}
	assert_true(w.files >= 5 * 149);
}

/* ---- the caller's allocator ---------------------------------------------------- */

static void test_custom_allocator(void **state)
{
	(void)state;
	megaco_options o = counted_options();

	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
		size_t len;
		unsigned char *in = read_file(first_path(enc, "msg81b03"), &len);
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(enc, in, len, &o, &m, NULL), MEGACO_OK);
		assert_true(cnt.allocs > 0);
		long before = cnt.allocs;
		void *out = NULL;
		size_t out_len;
		assert_int_equal(megaco_encode_alloc(m, enc, &o, &out, &out_len, NULL), MEGACO_OK);
		assert_int_equal(cnt.allocs, before + 1); /* exactly the output buffer */
		assert_bytes_equal("encode_alloc", out, out_len, in, len);
		megaco_buffer_free(out, &o);
		megaco_message_free(m);
		assert_int_equal(cnt.live, 0);
		assert_int_equal(cnt.allocs, cnt.frees);
		free(in);
	}

	/* Messages built by hand take their arena from the allocator too. */
	long before = cnt.allocs;
	megaco_message *msg = build_pending(&o, 3, 50);
	assert_true(cnt.allocs > before);
	megaco_message_free(msg);
	assert_int_equal(cnt.live, 0);

	/* An allocator that gives nothing: NOMEM everywhere, nothing leaked or set. */
	size_t len;
	unsigned char *in = read_file(first_path(MEGACO_ENC_BER, "msg81b03"), &len);
	megaco_message *src = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, in, len, NULL, &src, NULL), MEGACO_OK);
	for (long k = 0; k < 4; k++) {
		cnt.fail_after = cnt.allocs + k;
		megaco_message *keep = (megaco_message *)&cnt, *m = keep;
		megaco_error err;
		int rc = megaco_decode(MEGACO_ENC_BER, in, len, &o, &m, &err);
		if (rc == MEGACO_OK) {
			megaco_message_free(m);
			continue;
		}
		assert_int_equal(rc, MEGACO_ERR_NOMEM);
		assert_int_equal(err.code, rc);
		assert_ptr_equal(m, keep);
		assert_int_equal(cnt.live, 0);
	}
	cnt.fail_after = cnt.allocs;
	assert_null(megaco_message_new(MEGACO_NAMES_BINARY, &o));
	void *out = &out;
	size_t out_len = 0;
	megaco_error err;
	assert_int_equal(megaco_encode_alloc(src, MEGACO_ENC_PER, &o, &out, &out_len, &err),
	                 MEGACO_ERR_NOMEM);
	assert_ptr_equal(out, &out);
	assert_int_equal(cnt.live, 0);
	megaco_message_free(src);
	free(in);
}

/*
 * Every corpus message, decoded from each of the four encodings (text with
 * each scanner) and encoded back into each with megaco_encode_alloc, under an
 * allocator that fails from its k-th call on, for k = 0, 1, ... until the call
 * succeeds: every refusal is MEGACO_ERR_NOMEM with *out untouched and nothing
 * left allocated, whichever allocation it hits (an arena block, the input's
 * copy, the output buffer, or, in CI's -DYYINITDEPTH=4 pass, the parser's
 * stacks moving off the C stack).
 */
static void test_failing_allocator_everywhere(void **state)
{
	(void)state;
	int failures = 0;
	long refusals = 0;
	megaco_options o = counted_options();
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_APER, .valid_only = 1 };
	while (failures < 10 && corpus_next(&w)) {
		const char *path = w.path;
		megaco_message *src = NULL;
		/* Text with each scanner (the non-reentrant one last, so src is from it). */
		for (int sc = w.enc <= MEGACO_ENC_COMPACT ? 0 : 1; sc < 2; sc++) {
			o.scanner = sc ? MEGACO_SCANNER_NON_REENTRANT : MEGACO_SCANNER_REENTRANT;
			megaco_message_free(src);
			src = NULL;
			for (long k = 0;; k++) {
				cnt = (counter){0, 0, 0, k};
				megaco_message *keep = (megaco_message *)&cnt, *m = keep;
				megaco_error err;
				int rc = megaco_decode(w.enc, w.bytes, w.len, &o, &m, &err);
				if (rc == MEGACO_OK) {
					src = m;
					break;
				}
				refusals++;
				if (rc != MEGACO_ERR_NOMEM || err.code != rc || m != keep || cnt.live || k > 64) {
					print_message("decode %s (scanner %d), failing from call %ld: %s, %ld live\n",
					              path, sc, k, err.message, cnt.live);
					failures++;
					break;
				}
			}
		}
		for (megaco_encoding to = MEGACO_ENC_PRETTY; src && to <= MEGACO_ENC_APER; to++) {
			/*
			 * What the encode gives with memory to spare (a text name with no
			 * binary form is UNKNOWN_NAME): with less, that or NOMEM.
			 */
			void *out = NULL;
			size_t out_len = 0;
			int want = megaco_encode_alloc(src, to, &o, &out, &out_len, NULL);
			megaco_buffer_free(out, &o);
			for (long k = 0;; k++) {
				cnt.fail_after = cnt.allocs + k;
				long live = cnt.live;
				out = &out;
				megaco_error err;
				int rc = megaco_encode_alloc(src, to, &o, &out, &out_len, &err);
				if (rc == MEGACO_OK)
					megaco_buffer_free(out, &o);
				if (rc == want)
					break;
				refusals++;
				if (rc != MEGACO_ERR_NOMEM || err.code != rc || out != &out || cnt.live != live ||
				    k > 64) {
					print_message("%s to %s, failing from call %ld: %s\n", path,
					              megaco_encoding_name(to), k, err.message);
					failures++;
					break;
				}
			}
		}
		cnt.fail_after = -1;
		megaco_message_free(src);
		if (cnt.live) {
			print_message("%s: %ld allocations never given back\n", path, cnt.live);
			failures++;
		}
	}
	corpus_stop(&w);
	print_message("%ld refused allocations, each one a clean MEGACO_ERR_NOMEM\n", refusals);
	assert_int_equal(failures, 0);
	assert_true(refusals > 0);
}

/* A message bigger than the first output guess needs encode_alloc's second pass. */
static void test_encode_alloc_large(void **state)
{
	(void)state;
	megaco_options o = counted_options();
	megaco_message *msg = build_pending(NULL, 2, 2000);
	void *out = NULL;
	size_t out_len = 0;
	assert_int_equal(megaco_encode_alloc(msg, MEGACO_ENC_BER, &o, &out, &out_len, NULL), MEGACO_OK);
	assert_true(out_len > 1024);
	assert_int_equal(cnt.live, 1);
	megaco_message *back = NULL;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, out, out_len, NULL, &back, NULL), MEGACO_OK);
	check_pending(back, 2, 2000);
	megaco_message_free(back);
	megaco_buffer_free(out, &o);
	assert_int_equal(cnt.live, 0);
	megaco_message_free(msg);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_defaults),
		cmocka_unit_test(test_strerror_all_codes),
		cmocka_unit_test(test_encoding_names),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_build_by_hand),
		cmocka_unit_test(test_detect_samples),
		cmocka_unit_test(test_custom_allocator),
		cmocka_unit_test(test_encode_alloc_large),
		cmocka_unit_test(test_failing_allocator_everywhere),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
