/*
 * libFuzzer target: BER decode, then DER and PER round trips of what decoded,
 * and the cross-encoding properties (fuzz_cross: text included).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const megaco_encoding trips[] = { MEGACO_ENC_BER, MEGACO_ENC_PER };
	return fuzz_target(MEGACO_ENC_BER, data, size, trips, sizeof trips / sizeof trips[0]);
}
