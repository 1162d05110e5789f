/* Text encoding entry point: pretty (long keywords, indented) and compact. */
#include "internal.h"

int text_encode_message(const megaco_message *msg, int compact, unsigned char *buf, size_t cap,
                        size_t *out_len, megaco_error *err)
{
	(void)msg, (void)compact, (void)buf, (void)cap, (void)out_len;
	return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "text encoding is not built yet");
}
