/*
 * libFuzzer target: APER (X.691 ALIGNED) decode, then APER, UPER and DER
 * round trips of what decoded, and the cross-encoding properties
 * (fuzz_cross: text included).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	megaco_message *m = fuzz_decode(MEGACO_ENC_APER, data, size);
	if (m) {
		fuzz_binary_round_trip(m, MEGACO_ENC_APER);
		fuzz_binary_round_trip(m, MEGACO_ENC_PER);
		fuzz_binary_round_trip(m, MEGACO_ENC_BER);
		fuzz_cross(m);
		fuzz_free_message(m);
	}
	return 0;
}
