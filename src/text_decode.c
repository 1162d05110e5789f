/* Text decoding entry point (pretty and compact share one parser). */
#include "internal.h"

int text_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err)
{
	(void)buf, (void)len, (void)o, (void)out;
	return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "text decoding is not built yet");
}
