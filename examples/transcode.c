/*
 * transcode: convert one Megaco message to another encoding.
 *   transcode pretty|compact|ber|per FILE > OUT
 * The input's encoding is detected; names (termination IDs, packages) are
 * converted between their text and binary forms on the way.
 */
#include <stdio.h>
#include <stdlib.h>

#include <megaco/megaco.h>

int main(int argc, char **argv)
{
	megaco_encoding to;
	if (argc != 3 || megaco_encoding_from_name(argv[1], &to) != MEGACO_OK) {
		fprintf(stderr, "usage: transcode pretty|compact|ber|per FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	static unsigned char in[1 << 20];
	size_t len = fread(in, 1, sizeof in, f);
	int whole = feof(f) && !ferror(f);
	fclose(f);
	if (!whole) {
		fprintf(stderr, "%s: unreadable or over 1 MiB\n", argv[2]);
		return 2;
	}

	megaco_message *msg = NULL;
	megaco_error err;
	if (megaco_decode(MEGACO_ENC_AUTO, in, len, NULL, &msg, &err) != MEGACO_OK) {
		/* err.line is 0 for binary input, where err.offset says where */
		fprintf(stderr, "%s: %s (line %u, column %u, byte %zu): %s\n", argv[2],
		        megaco_strerror(err.code), err.line, err.column, err.offset, err.message);
		return 1;
	}
	void *out = NULL;
	size_t out_len = 0;
	int rc = megaco_encode_alloc(msg, to, NULL, &out, &out_len, &err);
	if (rc == MEGACO_OK) {
		fwrite(out, 1, out_len, stdout);
		megaco_buffer_free(out, NULL);
	} else {
		fprintf(stderr, "encode: %s: %s\n", megaco_strerror(rc), err.message);
	}
	megaco_message_free(msg);
	return rc == MEGACO_OK ? 0 : 1;
}
