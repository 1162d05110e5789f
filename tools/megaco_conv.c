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
	        "                   [--max-size BYTES] [--layout BITS/BITS/...] [--packages FILE.yaml]\n"
	        "                   [IN [OUT]]\n"
	        "  Reads one message from IN (default stdin), writes it to OUT (default stdout).\n"
	        "  --from  pretty|compact|ber|per|auto   (default auto: detect)\n"
	        "  --to    pretty|compact|ber|per|xer    (default pretty; xer is asn1c's XML dump)\n"
	        "  --layout    termination-ID bits per level for text <-> binary (default 8/8/8)\n"
	        "  --packages  vendor packages (YAML, format of data/packages.yaml) added to the\n"
	        "              built-in registry for text <-> binary names\n"
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

/* "8/8/16" -> a layout; NULL (after a message) when malformed. */
static megaco_tid_layout *parse_layout(const char *spec)
{
	unsigned bits[16];
	size_t n = 0;
	const char *p = spec;
	while (*p && n < 16) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || v == 0 || v > 64 || (*end && *end != '/'))
			break;
		bits[n++] = (unsigned)v;
		p = *end ? end + 1 : end;
	}
	megaco_tid_layout *layout = NULL;
	if (*p || megaco_tid_layout_new(bits, n, &layout) != MEGACO_OK) {
		fprintf(stderr, "megaco-conv: bad layout '%s' (bits per level, e.g. 8/8/8; total a multiple of 8, at most 64)\n", spec);
		return NULL;
	}
	return layout;
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
	megaco_tid_layout *layout = NULL;
	megaco_registry *registry = NULL;
	int status = 2;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			status = 0;
			goto cleanup;
		} else if (!strcmp(a, "--from") && val) {
			if (megaco_encoding_from_name(val, &from) != MEGACO_OK) {
				fprintf(stderr, "megaco-conv: unknown encoding '%s'\n", val);
				goto cleanup;
			}
			i++;
		} else if (!strcmp(a, "--to") && val) {
			if (!strcmp(val, "xer"))
				to_xer = 1;
			else if (megaco_encoding_from_name(val, &to) != MEGACO_OK || to == MEGACO_ENC_AUTO) {
				fprintf(stderr, "megaco-conv: unknown output encoding '%s'\n", val);
				goto cleanup;
			}
			i++;
		} else if (!strcmp(a, "--scanner") && val) {
			if (!strcmp(val, "reentrant"))
				opts.scanner = MEGACO_SCANNER_REENTRANT;
			else if (!strcmp(val, "non-reentrant"))
				opts.scanner = MEGACO_SCANNER_NON_REENTRANT;
			else {
				fprintf(stderr, "megaco-conv: unknown scanner '%s'\n", val);
				goto cleanup;
			}
			i++;
		} else if (!strcmp(a, "--max-size") && val) {
			opts.max_message_size = strtoul(val, NULL, 10);
			i++;
		} else if (!strcmp(a, "--layout") && val) {
			megaco_tid_layout_free(layout);
			if (!(layout = parse_layout(val)))
				goto cleanup;
			opts.tid_layout = layout;
			i++;
		} else if (!strcmp(a, "--packages") && val) {
			megaco_error yerr;
			if (!registry && megaco_registry_new(0, NULL, &registry) != MEGACO_OK) {
				fprintf(stderr, "megaco-conv: out of memory\n");
				goto cleanup;
			}
			if (megaco_registry_load_yaml(registry, val, &yerr) != MEGACO_OK) {
				fprintf(stderr, "megaco-conv: %s:%u:%u: %s\n", val, yerr.line, yerr.column,
				        yerr.message);
				goto cleanup;
			}
			opts.registry = registry;
			i++;
		} else if (a[0] == '-' && a[1]) {
			usage(stderr);
			goto cleanup;
		} else if (!in_path) {
			in_path = a;
		} else if (!out_path) {
			out_path = a;
		} else {
			usage(stderr);
			goto cleanup;
		}
	}

	FILE *in = stdin;
	if (in_path && strcmp(in_path, "-") && !(in = fopen(in_path, "rb"))) {
		fprintf(stderr, "megaco-conv: %s: %s\n", in_path, strerror(errno));
		goto cleanup;
	}
	size_t len = 0;
	unsigned char *data = read_all(in, &len);
	if (in != stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, "megaco-conv: cannot read input\n");
		goto cleanup;
	}

	status = 1;
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
cleanup:
	megaco_registry_free(registry);
	megaco_tid_layout_free(layout);
	return status;
}
