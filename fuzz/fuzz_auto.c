/*
 * libFuzzer target: megaco_detect + decode of any encoding, then the
 * cross-encoding properties of fuzz_common.h on what decoded.
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
	if (enc == MEGACO_ENC_BER || enc == MEGACO_ENC_PER || enc == MEGACO_ENC_APER) {
		FUZZ_CHECK(megaco_message_version(m) == version || version == 0,
		           "detected v%d, decoded v%d", version, megaco_message_version(m));
		fuzz_round_trip(m, enc);
	}
	fuzz_cross(m);
	fuzz_free_message(m);
	return 0;
}
