/*
 * libFuzzer target: APER (X.691 ALIGNED) decode, then APER, UPER and DER
 * round trips of what decoded, and the cross-encoding properties
 * (fuzz_cross: text included).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const megaco_encoding trips[] = { MEGACO_ENC_APER, MEGACO_ENC_PER, MEGACO_ENC_BER };
	return fuzz_target(MEGACO_ENC_APER, data, size, trips, sizeof trips / sizeof trips[0]);
}
