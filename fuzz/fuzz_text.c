/*
 * libFuzzer target: text decode (one parser reads pretty and compact), then
 * both text encoders on what decoded: whatever we write we must read back,
 * and writing that again gives the same text; then the cross-encoding
 * properties (fuzz_cross: BER and PER included).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const megaco_encoding trips[] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT };
	return fuzz_target(MEGACO_ENC_PRETTY, data, size, trips, sizeof trips / sizeof trips[0]);
}
