/*
 * Shared checks for the fuzz targets: the error contract every failing
 * decode must keep, and the round trip a successful binary decode must
 * survive. A broken property aborts, which libFuzzer (and the corpus replay
 * driver, under ASan) reports as a crash with the input that caused it.
 */
#ifndef MEGACO_FUZZ_COMMON_H
#define MEGACO_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "megaco/megaco.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                        \
	do {                                                                             \
		if (!(cond)) {                                                               \
			fprintf(stderr, "fuzz property broken: %s: ", #cond);                    \
			fprintf(stderr, __VA_ARGS__);                                            \
			fputc('\n', stderr);                                                     \
			abort();                                                                 \
		}                                                                            \
	} while (0)

/*
 * Options the targets decode with, from MEGACO_FUZZ_OPTIONS (read once): a
 * comma-separated list of "nonreentrant" (flex's global scanner), "alloc" (a
 * counting allocator that must see every block freed) and "tight" (small
 * limits). Unset: the defaults. Our own output is always read back with the
 * defaults: what tight limits refuse to decode says nothing of the encoder.
 */
static size_t fuzz_live_blocks;
static void *fuzz_alloc(void *ud, size_t n)
{
	(void)ud;
	void *p = malloc(n ? n : 1);
	if (p)
		fuzz_live_blocks++;
	return p;
}
static void fuzz_free(void *ud, void *p)
{
	(void)ud;
	if (p) {
		FUZZ_CHECK(fuzz_live_blocks > 0, "free of a block the allocator did not give");
		fuzz_live_blocks--;
	}
	free(p);
}
static const megaco_allocator fuzz_allocator = { fuzz_alloc, fuzz_free, NULL };

static inline const megaco_options *fuzz_options(void)
{
	static megaco_options o;
	static int ready;
	if (!ready) {
		megaco_options_init(&o);
		const char *e = getenv("MEGACO_FUZZ_OPTIONS");
		if (e && strstr(e, "nonreentrant"))
			o.scanner = MEGACO_SCANNER_NON_REENTRANT;
		if (e && strstr(e, "alloc"))
			o.allocator = &fuzz_allocator;
		if (e && strstr(e, "tight")) {
			o.max_depth = 12;
			o.max_token_length = 64;
			o.max_message_size = 2048;
		}
		ready = 1;
	}
	return &o;
}

/* Decodes and checks the error contract; returns the message or NULL. */
static inline megaco_message *fuzz_decode(megaco_encoding enc, const uint8_t *data, size_t size)
{
	static char sentinel;
	megaco_message *m = (megaco_message *)&sentinel;
	megaco_error err;
	const megaco_options *o = fuzz_options();
	size_t live = fuzz_live_blocks;
	int rc = megaco_decode(enc, data, size, o, &m, &err);
	if (rc != MEGACO_OK)
		FUZZ_CHECK(fuzz_live_blocks == live, "failed decode kept %zu blocks",
		           fuzz_live_blocks - live);
	if (rc == MEGACO_OK) {
		FUZZ_CHECK(m && m != (megaco_message *)&sentinel, "success without a message");
		return m;
	}
	FUZZ_CHECK(rc < 0 && rc >= MEGACO_ERR_NOT_MEGACO && rc != MEGACO_ERR_INTERNAL, "status %d (%s): %s", rc, megaco_strerror(rc),
	           err.message);
	FUZZ_CHECK(m == (megaco_message *)&sentinel, "*out changed on failure");
	FUZZ_CHECK(err.code == rc, "err.code %d vs %d", err.code, rc);
	FUZZ_CHECK(err.message[0] != '\0', "empty error message for %s", megaco_strerror(rc));
	FUZZ_CHECK(err.offset <= size || rc == MEGACO_ERR_TOO_LARGE, "error offset %zu beyond %zu bytes",
	           err.offset, size);
	return NULL;
}

/* Releases a message from fuzz_decode; with the counting allocator, all of it. */
static inline void fuzz_free_message(megaco_message *m)
{
	megaco_message_free(m);
	if (fuzz_options()->allocator)
		FUZZ_CHECK(fuzz_live_blocks == 0, "%zu blocks still live after the message's free",
		           fuzz_live_blocks);
}

/* Encode failures that a decoded-but-odd model may legitimately give. */
static inline int fuzz_encode_refusal(int rc)
{
	return rc == MEGACO_ERR_CONSTRAINT || rc == MEGACO_ERR_VERSION_MISMATCH ||
	       rc == MEGACO_ERR_VERSION || rc == MEGACO_ERR_UNKNOWN_NAME ||
	       rc == MEGACO_ERR_UNSUPPORTED;
}

/* Encodes m as enc (default options); NULL with *rc set on a refusal. */
static inline void *fuzz_encode(const megaco_message *m, megaco_encoding enc, size_t *len,
                                int *rc)
{
	void *out = NULL;
	megaco_error err;
	*rc = megaco_encode_alloc(m, enc, NULL, &out, len, &err);
	if (*rc != MEGACO_OK) {
		FUZZ_CHECK(fuzz_encode_refusal(*rc), "encode to %s: %s: %s",
		           megaco_encoding_name(enc), megaco_strerror(*rc), err.message);
		FUZZ_CHECK(err.code == *rc && err.message[0], "encode error record");
		return NULL;
	}
	return out;
}

/* Our own output in enc decodes (default options); aborts if it does not. */
static inline megaco_message *fuzz_read_back(const void *buf, size_t len, megaco_encoding enc)
{
	megaco_message *m = NULL;
	megaco_error err;
	int rc = megaco_decode(enc, buf, len, NULL, &m, &err);
	if (rc != MEGACO_OK && enc <= MEGACO_ENC_COMPACT)
		FUZZ_CHECK(0, "our own %s does not decode: %s at %u:%u:\n%.*s",
		           megaco_encoding_name(enc), err.message, err.line, err.column, (int)len,
		           (const char *)buf);
	FUZZ_CHECK(rc == MEGACO_OK, "our own %s (%zu bytes) does not decode: %s",
	           megaco_encoding_name(enc), len, err.message);
	return m;
}

/*
 * A decoded message: whatever we encode from it we must decode again, and
 * re-encoding that gives the same bytes (DER and both PERs are canonical,
 * and the text encoders write one spelling).
 */
static inline void fuzz_round_trip(const megaco_message *m, megaco_encoding enc)
{
	size_t alen = 0, blen = 0;
	int rc;
	void *a = fuzz_encode(m, enc, &alen, &rc);
	if (!a)
		return;
	megaco_message *again = fuzz_read_back(a, alen, enc);
	void *b = fuzz_encode(again, enc, &blen, &rc);
	FUZZ_CHECK(rc == MEGACO_OK, "re-encode to %s: %s", megaco_encoding_name(enc),
	           megaco_strerror(rc));
	int text = enc <= MEGACO_ENC_COMPACT;
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0, "%s not stable: %zu then %zu bytes%s%.*s%s%.*s",
	           megaco_encoding_name(enc), alen, blen, text ? ":\n" : "", text ? (int)alen : 0,
	           (const char *)a, text ? "\n---\n" : "", text ? (int)blen : 0, (const char *)b);
	megaco_buffer_free(a, NULL);
	megaco_buffer_free(b, NULL);
	megaco_message_free(again);
}

/* 1 when a and b encode to the same bytes in enc, or both are refused alike. */
static inline int fuzz_same_in(const megaco_message *a, const megaco_message *b,
                               megaco_encoding enc, int *refused)
{
	size_t alen = 0, blen = 0;
	int arc, brc;
	void *x = fuzz_encode(a, enc, &alen, &arc);
	void *y = fuzz_encode(b, enc, &blen, &brc);
	int same = arc == brc && (arc != MEGACO_OK || (alen == blen && !memcmp(x, y, alen)));
	*refused = arc != MEGACO_OK;
	megaco_buffer_free(x, NULL);
	megaco_buffer_free(y, NULL);
	return same;
}

/*
 * The cross-encoding properties, for a decoded message m:
 * - whatever each encoder writes, our decoder reads (text included);
 * - model -> X -> model keeps the model, for every encoding X: what is read
 *   back encodes to the same DER and the same compact text as m, or both are
 *   refused alike (so BER -> text -> BER and PER -> text -> PER are identity,
 *   DER, UPER and APER being canonical, and text -> BER -> text keeps the text);
 * - megaco_message_validate(m) fails exactly when some encoder refuses m, with
 *   the first refusing encoder's status.
 */
static inline void fuzz_cross(megaco_message *m)
{
	static const megaco_encoding all[] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT, MEGACO_ENC_BER,
		                               MEGACO_ENC_PER, MEGACO_ENC_APER };
	int first = MEGACO_OK;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		size_t len = 0;
		int rc;
		void *out = fuzz_encode(m, all[i], &len, &rc);
		if (first == MEGACO_OK)
			first = rc;
		if (!out)
			continue;
		megaco_message *back = fuzz_read_back(out, len, all[i]);
		int refused;
		if (!fuzz_same_in(m, back, MEGACO_ENC_BER, &refused))
			FUZZ_CHECK(0, "%s changed the model (DER differs)%s%.*s", megaco_encoding_name(all[i]),
			           all[i] <= MEGACO_ENC_COMPACT ? ":\n" : "",
			           all[i] <= MEGACO_ENC_COMPACT ? (int)len : 0, (const char *)out);
		/*
		 * Within one name form the text must match too; across forms names
		 * go through the registry, which keeps no letter case (H.248 names
		 * have none), so the DER above is the comparison.
		 */
		if (megaco_message_name_form(m) == megaco_message_name_form(back))
			FUZZ_CHECK(fuzz_same_in(m, back, MEGACO_ENC_COMPACT, &refused),
			           "%s changed the model (compact differs)", megaco_encoding_name(all[i]));
		megaco_message_free(back);
		megaco_buffer_free(out, NULL);
	}
	megaco_error err;
	int rc = megaco_message_validate(m, 0, NULL, &err);
	FUZZ_CHECK(rc == first, "validate says %s (%s), the encoders %s", megaco_strerror(rc),
	           err.message, megaco_strerror(first));
}

/*
 * A target's whole run: decode as enc (the error contract), then on success
 * the round trip in each of the encodings trips, the cross-encoding
 * properties, and the message's free.
 */
static inline int fuzz_target(megaco_encoding enc, const uint8_t *data, size_t size,
                              const megaco_encoding *trips, size_t ntrips)
{
	megaco_message *m = fuzz_decode(enc, data, size);
	if (m) {
		for (size_t i = 0; i < ntrips; i++)
			fuzz_round_trip(m, trips[i]);
		fuzz_cross(m);
		fuzz_free_message(m);
	}
	return 0;
}

#endif
