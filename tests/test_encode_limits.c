/*
 * What an encoder writes under given options, the decoder reads under the
 * same options: one row per limit (max_message_size, max_token_length,
 * max_depth) and encoding. A model just past the limit is refused by the
 * encoder with the limit's status, or (where the encoding has no such limit)
 * written and read back under the same options; the same model under a limit
 * it fits is written and read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

enum limit { L_SIZE, L_TOKEN, L_DEPTH };
static const char *const limit_name[] = { "max_message_size", "max_token_length", "max_depth" };

/* A v3 Modify whose one property value is n octets long. */
static char *long_value(size_t n)
{
	char *s = malloc(n + 128);
	int k = sprintf(s, "MEGACO/3 [1.2.3.4]\nT=1{C=1{MF=11111111/00000000/00000000{M{O{tdmc/ec=");
	memset(s + k, 'x', n);
	strcpy(s + k + n, "}}}}}");
	return s;
}

/* Embedded events nested `levels` deep (NotifyRegulated { Embed { Events ... } }). */
static char *deep_events(int levels)
{
	size_t cap = 64 + (size_t)levels * 48;
	char *s = malloc(cap);
	size_t k = (size_t)sprintf(s, "MEGACO/3 [1.2.3.4]\nT=1{C=1{MF=11111111/00000000/00000000{E=1{al/on");
	for (int i = 0; i < levels; i++)
		k += (size_t)sprintf(s + k, "{NBRN{EM{E=%d{al/of", i + 2);
	for (int i = 0; i < levels; i++)
		k += (size_t)sprintf(s + k, "}}}}");
	strcpy(s + k, "}}}}");
	return s;
}

static megaco_message *decode_text(const char *in)
{
	megaco_options o;
	megaco_options_init(&o);
	o.max_depth = 0; /* the ceiling */
	o.max_token_length = 0;
	megaco_message *m = NULL;
	megaco_error err;
	int rc = megaco_decode(MEGACO_ENC_AUTO, in, strlen(in), &o, &m, &err);
	if (rc != MEGACO_OK)
		fail_msg("input does not decode: %s", err.message);
	return m;
}

/*
 * Encodes m as enc under o: a refusal must be `refusal`; what is written
 * must decode under o. Returns the status.
 */
static int write_and_read(const char *what, const megaco_message *m, megaco_encoding enc,
                          const megaco_options *o, int refusal)
{
	void *out = NULL;
	size_t len = 0;
	megaco_error err;
	int rc = megaco_encode_alloc(m, enc, o, &out, &len, &err);
	if (rc != MEGACO_OK) {
		if (rc != refusal || err.code != rc || !err.message[0])
			fail_msg("%s, %s: encode gave %s (%s), want OK or %s", what,
			         megaco_encoding_name(enc), megaco_strerror(rc), err.message,
			         megaco_strerror(refusal));
		return rc;
	}
	megaco_message *back = NULL;
	int drc = megaco_decode(enc, out, len, o, &back, &err);
	if (drc != MEGACO_OK)
		fail_msg("%s, %s: %zu bytes written under these options do not decode under them: %s",
		         what, megaco_encoding_name(enc), len, err.message);
	megaco_message_free(back);
	megaco_buffer_free(out, o);
	return rc;
}

static const struct {
	enum limit limit;
	megaco_encoding enc;
	int refused; /* the encoder refuses the model past the limit (else: no such limit) */
	const char *skip; /* why the row is not run yet */
} rows[] = {
	{ L_SIZE, MEGACO_ENC_PRETTY, 1, NULL },  { L_SIZE, MEGACO_ENC_COMPACT, 1, NULL },
	{ L_SIZE, MEGACO_ENC_BER, 1, NULL },     { L_SIZE, MEGACO_ENC_PER, 1, NULL },
	{ L_TOKEN, MEGACO_ENC_PRETTY, 1, NULL }, { L_TOKEN, MEGACO_ENC_COMPACT, 1, NULL },
	{ L_TOKEN, MEGACO_ENC_BER, 0, NULL },    { L_TOKEN, MEGACO_ENC_PER, 0, NULL },
	{ L_DEPTH, MEGACO_ENC_PRETTY, 1, NULL }, { L_DEPTH, MEGACO_ENC_COMPACT, 1, NULL },
	{ L_DEPTH, MEGACO_ENC_BER, 1, NULL },
	{ L_DEPTH, MEGACO_ENC_PER, 1, NULL },
};

static void test_rows(void **state)
{
	(void)state;
	char *big = long_value(300), *deep = deep_events(20);
	megaco_message *mbig = decode_text(big), *mdeep = decode_text(deep);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		megaco_encoding enc = rows[i].enc;
		if (rows[i].skip) {
			print_message("row %zu (%s, %s) skipped: %s\n", i, limit_name[rows[i].limit],
			              megaco_encoding_name(enc), rows[i].skip);
			continue;
		}
		megaco_options past, fits;
		megaco_options_init(&past);
		megaco_options_init(&fits);
		const megaco_message *m = rows[i].limit == L_DEPTH ? mdeep : mbig;
		int status = MEGACO_ERR_TOO_LARGE;
		if (rows[i].limit == L_SIZE) {
			void *out = NULL;
			size_t len = 0;
			megaco_error err;
			assert_int_equal(megaco_encode_alloc(m, enc, NULL, &out, &len, &err), MEGACO_OK);
			megaco_buffer_free(out, NULL);
			past.max_message_size = len - 1;
			fits.max_message_size = len;
		} else if (rows[i].limit == L_TOKEN) {
			status = MEGACO_ERR_TOKEN_TOO_LONG;
			past.max_token_length = 299;
			fits.max_token_length = 300;
		} else {
			status = MEGACO_ERR_TOO_DEEP;
			past.max_depth = 64;
			fits.max_depth = 0; /* the ceiling */
		}
		char what[96];
		snprintf(what, sizeof what, "row %zu (%s)", i, limit_name[rows[i].limit]);
		int rc = write_and_read(what, m, enc, &past, status);
		if ((rc != MEGACO_OK) != rows[i].refused)
			fail_msg("%s, %s: past the limit the encoder gave %s", what,
			         megaco_encoding_name(enc), megaco_strerror(rc));
		assert_int_equal(write_and_read(what, m, enc, &fits, status), MEGACO_OK);
	}
	megaco_message_free(mbig);
	megaco_message_free(mdeep);
	free(big);
	free(deep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
