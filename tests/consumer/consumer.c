/* An application of libmegaco, built against an installed copy: decodes a
 * BER file, reads a model field through the installed megaco/model.h and
 * encodes the message as compact text. */
#include <stdio.h>
#include <stdlib.h>

#include <megaco/model.h>
#include <megaco/megaco.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	unsigned char buf[65536];
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	megaco_message *msg = NULL;
	megaco_error err;
	if (megaco_decode(MEGACO_ENC_BER, buf, len, NULL, &msg, &err) != MEGACO_OK) {
		fprintf(stderr, "decode: %s\n", err.message);
		return 1;
	}
	const megaco_MegacoMessage_t *m = megaco_message_model_const(msg);
	void *out = NULL;
	size_t out_len = 0;
	int rc = megaco_encode_alloc(msg, MEGACO_ENC_COMPACT, NULL, &out, &out_len, &err);
	if (rc == MEGACO_OK)
		printf("v%ld %.*s\n", m->mess.version, (int)out_len, (const char *)out);
	else
		fprintf(stderr, "encode: %s\n", err.message);
	megaco_buffer_free(out, NULL);
	megaco_message_free(msg);
	return rc == MEGACO_OK ? 0 : 1;
}
