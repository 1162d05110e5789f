/*
 * libFuzzer target: megaco_detect + decode of any encoding, then encoding
 * what decoded to all four encodings (only crashes and leaks are checked for
 * the text ones, see fuzz_text.c).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	megaco_encoding enc = MEGACO_ENC_AUTO;
	int version = -1;
	int rc = megaco_detect(data, size, &enc, &version);
	FUZZ_CHECK(rc == MEGACO_OK || rc == MEGACO_ERR_NOT_MEGACO ||
	                   (size == 0 && rc == MEGACO_ERR_TRUNCATED),
	           "detect: %d", rc);
	megaco_message *m = fuzz_decode(MEGACO_ENC_AUTO, data, size);
	if (!m)
		return 0;
	if (enc == MEGACO_ENC_BER || enc == MEGACO_ENC_PER) {
		FUZZ_CHECK(megaco_message_version(m) == version || version == 0,
		           "detected v%d, decoded v%d", version, megaco_message_version(m));
		fuzz_binary_round_trip(m, enc);
	}
	for (megaco_encoding to = MEGACO_ENC_PRETTY; to <= MEGACO_ENC_COMPACT; to++) {
		void *out = NULL;
		size_t len = 0;
		if (megaco_encode_alloc(m, to, NULL, &out, &len, NULL) == MEGACO_OK)
			megaco_buffer_free(out, NULL);
	}
	megaco_message_free(m);
	return 0;
}
