/*
 * megaco-conv: transcode one Megaco message between encodings.
 *   megaco-conv --from ENC --to ENC [IN [OUT]]
 * ENC is pretty, compact, ber, per (and auto for --from, xer for --to).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "megaco/megaco.h"

static void usage(FILE *to)
{
	fprintf(to,
	        "usage: megaco-conv [--from ENC] [--to ENC] [--scanner reentrant|non-reentrant]\n"
	        "                   [--max-size BYTES] [IN [OUT]]\n"
	        "  Reads one message from IN (default stdin), writes it to OUT (default stdout).\n"
	        "  --from  pretty|compact|ber|per|auto   (default auto: detect)\n"
	        "  --to    pretty|compact|ber|per|xer    (default pretty; xer is asn1c's XML dump)\n"
	        "  Exit status 0 on success, 1 on a codec error, 2 on a usage or I/O error.\n");
}

static unsigned char *read_all(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		unsigned char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			return NULL;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static void report(const char *what, const megaco_error *err)
{
	if (err->line)
		fprintf(stderr, "megaco-conv: %s: %s at line %u, column %u: %s\n", what,
		        megaco_strerror(err->code), err->line, err->column, err->message);
	else
		fprintf(stderr, "megaco-conv: %s: %s at byte %zu: %s\n", what,
		        megaco_strerror(err->code), err->offset, err->message);
}

int main(int argc, char **argv)
{
	megaco_encoding from = MEGACO_ENC_AUTO, to = MEGACO_ENC_PRETTY;
	int to_xer = 0;
	const char *in_path = NULL, *out_path = NULL;
	megaco_options opts;
	megaco_options_init(&opts);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--from") && val) {
			if (megaco_encoding_from_name(val, &from) != MEGACO_OK) {
				fprintf(stderr, "megaco-conv: unknown encoding '%s'\n", val);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--to") && val) {
			if (!strcmp(val, "xer"))
				to_xer = 1;
			else if (megaco_encoding_from_name(val, &to) != MEGACO_OK || to == MEGACO_ENC_AUTO) {
				fprintf(stderr, "megaco-conv: unknown output encoding '%s'\n", val);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--scanner") && val) {
			if (!strcmp(val, "reentrant"))
				opts.scanner = MEGACO_SCANNER_REENTRANT;
			else if (!strcmp(val, "non-reentrant"))
				opts.scanner = MEGACO_SCANNER_NON_REENTRANT;
			else {
				fprintf(stderr, "megaco-conv: unknown scanner '%s'\n", val);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--max-size") && val) {
			opts.max_message_size = strtoul(val, NULL, 10);
			i++;
		} else if (a[0] == '-' && a[1]) {
			usage(stderr);
			return 2;
		} else if (!in_path) {
			in_path = a;
		} else if (!out_path) {
			out_path = a;
		} else {
			usage(stderr);
			return 2;
		}
	}

	FILE *in = stdin;
	if (in_path && strcmp(in_path, "-") && !(in = fopen(in_path, "rb"))) {
		fprintf(stderr, "megaco-conv: %s: %s\n", in_path, strerror(errno));
		return 2;
	}
	size_t len = 0;
	unsigned char *data = read_all(in, &len);
	if (in != stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, "megaco-conv: cannot read input\n");
		return 2;
	}

	int status = 1;
	megaco_error err;
	megaco_message *msg = NULL;
	void *out_buf = NULL;
	size_t out_len = 0;
	FILE *out = NULL;
	if (megaco_decode(from, data, len, &opts, &msg, &err) != MEGACO_OK) {
		report("decode", &err);
		goto done;
	}
	if (!to_xer && megaco_encode_alloc(msg, to, &opts, &out_buf, &out_len, &err) != MEGACO_OK) {
		report("encode", &err);
		goto done;
	}
	out = stdout;
	if (out_path && strcmp(out_path, "-") && !(out = fopen(out_path, "wb"))) {
		fprintf(stderr, "megaco-conv: %s: %s\n", out_path, strerror(errno));
		status = 2;
		goto done;
	}
	if (to_xer)
		status = xer_fprint(out, &asn_DEF_MegacoMessage, megaco_message_model(msg)) ? 1 : 0;
	else
		status = fwrite(out_buf, 1, out_len, out) == out_len ? 0 : 2;
	if ((out != stdout ? fclose(out) : fflush(out)) != 0)
		status = 2;
done:
	megaco_buffer_free(out_buf, &opts);
	megaco_message_free(msg);
	free(data);
	return status;
}
