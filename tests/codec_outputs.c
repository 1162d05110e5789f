/*
 * codec_outputs CORPUS OUT: every corpus message, decoded from each encoding
 * it has and encoded again to every encoding, written to OUT as one line per
 * operation (status, error position and text, output bytes in hex). The
 * listing depends only on the library's behaviour, so the same corpus gives
 * the same file on every CPU: the cross builds' ctest cross_outputs compares
 * the file an s390x or armhf build writes under qemu with the native one
 * (tests/cross_outputs.sh). The default engine only: asn1c's own DER writes
 * unsigned values over 2^31-1 as negative where long has 32 bits (0.9.28's
 * NativeInteger_encode_der), so its armhf bytes differ by design.
 * Exit status 0 when OUT was written, 2 on a usage or I/O error; codec
 * errors are listed, not fatal.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* Every encoding the corpus has: MEGACO_ENC_PRETTY (1) up to CORPUS_MAX_ENC. */
#define NENC CORPUS_MAX_ENC
static megaco_encoding encoding(size_t k) { return (megaco_encoding)(k + 1); }

static void put_error(FILE *out, int rc, const megaco_error *err)
{
	fprintf(out, " %d @%zu %u:%u %s\n", rc, err->offset, err->line, err->column,
	        err->message);
}

static void put_bytes(FILE *out, const unsigned char *b, size_t n)
{
	fprintf(out, " 0 %zu ", n);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%02x", b[i]);
	fputc('\n', out);
}

/* One corpus file: its decode, then its encodes to every encoding. */
static int list_file(FILE *out, const corpus_entry *e, megaco_encoding from)
{
	size_t len;
	unsigned char *in = read_file(e->path[from - 1], &len);
	if (!in) {
		fprintf(stderr, "codec_outputs: cannot read %s\n", e->path[from - 1]);
		return -1;
	}
	megaco_message *m = NULL;
	megaco_error err = {0};
	int rc = megaco_decode(from, in, len, NULL, &m, &err);
	fprintf(out, "%s/%s %s", e->set, e->name, megaco_encoding_name(from));
	free(in);
	if (rc != MEGACO_OK) {
		put_error(out, rc, &err);
		return 0;
	}
	fputs(" 0\n", out);
	for (size_t k = 0; k < NENC; k++) {
		void *buf = NULL;
		size_t n = 0;
		megaco_error eerr = {0};
		rc = megaco_encode_alloc(m, encoding(k), NULL, &buf, &n, &eerr);
		fprintf(out, "%s/%s %s>%s", e->set, e->name, megaco_encoding_name(from),
		        megaco_encoding_name(encoding(k)));
		if (rc == MEGACO_OK)
			put_bytes(out, buf, n);
		else
			put_error(out, rc, &eerr);
		megaco_buffer_free(buf, NULL);
	}
	megaco_message_free(m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s CORPUS_DIR OUT\n", argv[0]);
		return 2;
	}
	corpus *c = corpus_load(argv[1]);
	FILE *out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 2;
	}
	size_t files = 0;
	int rc = 0;
	for (size_t i = 0; i < c->count && rc == 0; i++)
		for (size_t k = 0; k < NENC && rc == 0; k++)
			if (c->entries[i].path[encoding(k) - 1]) {
				rc = list_file(out, &c->entries[i], encoding(k));
				files++;
			}
	corpus_free(c);
	if (fclose(out) != 0 || rc != 0 || files == 0) {
		fprintf(stderr, "codec_outputs: %s not written (%zu corpus files)\n", argv[2], files);
		return 2;
	}
	printf("codec_outputs: %zu corpus files, %zu encodes each, listed in %s\n", files,
	       (size_t)NENC, argv[2]);
	return 0;
}
