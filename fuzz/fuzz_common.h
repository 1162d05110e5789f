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

/* Decodes and checks the error contract; returns the message or NULL. */
static inline megaco_message *fuzz_decode(megaco_encoding enc, const uint8_t *data, size_t size)
{
	static char sentinel;
	megaco_message *m = (megaco_message *)&sentinel;
	megaco_error err;
	int rc = megaco_decode(enc, data, size, NULL, &m, &err);
	if (rc == MEGACO_OK) {
		FUZZ_CHECK(m && m != (megaco_message *)&sentinel, "success without a message");
		return m;
	}
	FUZZ_CHECK(rc < 0 && rc >= MEGACO_ERR_NOT_MEGACO && rc != MEGACO_ERR_INTERNAL, "status %d (%s): %s", rc, megaco_strerror(rc),
	           err.message);
	FUZZ_CHECK(m == (megaco_message *)&sentinel, "*out changed on failure");
	FUZZ_CHECK(err.code == rc, "err.code %d vs %d", err.code, rc);
	FUZZ_CHECK(err.message[0] != '\0', "empty error message for %s", megaco_strerror(rc));
	FUZZ_CHECK(err.offset <= size, "error offset %zu beyond %zu bytes", err.offset, size);
	return NULL;
}

/* Encode failures that a decoded-but-odd model may legitimately give. */
static inline int fuzz_encode_refusal(int rc)
{
	return rc == MEGACO_ERR_CONSTRAINT || rc == MEGACO_ERR_VERSION_MISMATCH ||
	       rc == MEGACO_ERR_VERSION || rc == MEGACO_ERR_UNKNOWN_NAME ||
	       rc == MEGACO_ERR_UNSUPPORTED;
}

/*
 * A decoded binary message: whatever we encode from it we must decode again,
 * and re-encoding that gives the same bytes (DER and UPER are canonical).
 */
static inline void fuzz_binary_round_trip(megaco_message *m, megaco_encoding enc)
{
	void *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	megaco_error err;
	int rc = megaco_encode_alloc(m, enc, NULL, &a, &alen, &err);
	if (rc != MEGACO_OK) {
		FUZZ_CHECK(fuzz_encode_refusal(rc), "encode to %s: %s: %s", megaco_encoding_name(enc),
		           megaco_strerror(rc), err.message);
		FUZZ_CHECK(err.code == rc && err.message[0], "encode error record");
		return;
	}
	megaco_message *again = NULL;
	rc = megaco_decode(enc, a, alen, NULL, &again, &err);
	FUZZ_CHECK(rc == MEGACO_OK, "our own %s (%zu bytes) does not decode: %s",
	           megaco_encoding_name(enc), alen, err.message);
	rc = megaco_encode_alloc(again, enc, NULL, &b, &blen, &err);
	FUZZ_CHECK(rc == MEGACO_OK, "re-encode to %s: %s", megaco_encoding_name(enc), err.message);
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0, "%s not stable: %zu then %zu bytes",
	           megaco_encoding_name(enc), alen, blen);
	megaco_buffer_free(a, NULL);
	megaco_buffer_free(b, NULL);
	megaco_message_free(again);
}

#endif
