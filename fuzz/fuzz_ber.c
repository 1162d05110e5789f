/*
 * libFuzzer target: BER decode, then DER and PER round trips of what decoded,
 * and the cross-encoding properties (fuzz_cross: text included).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	megaco_message *m = fuzz_decode(MEGACO_ENC_BER, data, size);
	if (m) {
		fuzz_binary_round_trip(m, MEGACO_ENC_BER);
		fuzz_binary_round_trip(m, MEGACO_ENC_PER);
		fuzz_cross(m);
		fuzz_free_message(m);
	}
	return 0;
}
