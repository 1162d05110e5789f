/*
 * libFuzzer target: text decode (one parser reads pretty and compact), then
 * both text encoders on what decoded: whatever we write we must read back,
 * and writing that again gives the same text; then the cross-encoding
 * properties (fuzz_cross: BER and PER included).
 */
#include "fuzz_common.h"

static void text_round_trip(megaco_message *m, megaco_encoding enc)
{
	void *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	megaco_error err;
	int rc = megaco_encode_alloc(m, enc, NULL, &a, &alen, &err);
	if (rc != MEGACO_OK) {
		FUZZ_CHECK(fuzz_encode_refusal(rc), "encode to %s: %s: %s", megaco_encoding_name(enc),
		           megaco_strerror(rc), err.message);
		return;
	}
	megaco_message *again = NULL;
	rc = megaco_decode(MEGACO_ENC_AUTO, a, alen, NULL, &again, &err);
	FUZZ_CHECK(rc == MEGACO_OK, "our own %s does not decode: %s at %u:%u: %.*s",
	           megaco_encoding_name(enc), err.message, err.line, err.column, (int)alen,
	           (const char *)a);
	rc = megaco_encode_alloc(again, enc, NULL, &b, &blen, &err);
	FUZZ_CHECK(rc == MEGACO_OK, "re-encode to %s: %s", megaco_encoding_name(enc), err.message);
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0, "%s not stable:\n%.*s\n---\n%.*s",
	           megaco_encoding_name(enc), (int)alen, (const char *)a, (int)blen,
	           (const char *)b);
	megaco_buffer_free(a, NULL);
	megaco_buffer_free(b, NULL);
	megaco_message_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	megaco_message *m = fuzz_decode(MEGACO_ENC_PRETTY, data, size);
	if (m) {
		text_round_trip(m, MEGACO_ENC_PRETTY);
		text_round_trip(m, MEGACO_ENC_COMPACT);
		fuzz_cross(m);
		fuzz_free_message(m);
	}
	return 0;
}
