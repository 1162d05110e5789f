/*
 * megaco-loop: runs one codec operation over message files, ROUNDS times
 * over all of them, and nothing else. It is the program behind
 * scripts/count-instructions.sh, which runs it under callgrind twice (11
 * rounds and 1) and divides the difference: instructions per message with
 * the start-up, the file reading and the one-time set-up taken out. Timing
 * is megaco-bench's job, not this one's.
 *
 *   megaco-loop [--non-reentrant] ENCODING dec|enc|scan ROUNDS FILE...
 *
 * dec: decode and free each file; enc: decode each once, then encode it
 * ROUNDS times; scan: the text scanner alone (text encodings only), as
 * megaco-bench's scanner-only rows. Exit status 1 on the first codec error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "megaco/megaco.h"
#include "megaco_bench.h"

static int usage(void)
{
	fprintf(stderr, "usage: megaco-loop [--non-reentrant] ENCODING dec|enc|scan ROUNDS FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	megaco_options o;
	megaco_options_init(&o);
	int a = 1;
	if (a < argc && !strcmp(argv[a], "--non-reentrant")) {
		o.scanner = MEGACO_SCANNER_NON_REENTRANT;
		a++;
	}
	if (argc - a < 4)
		return usage();
	megaco_encoding enc;
	const char *op = argv[a + 1];
	long rounds = strtol(argv[a + 2], NULL, 10);
	if (megaco_encoding_from_name(argv[a], &enc) || rounds < 0 ||
	    (strcmp(op, "dec") && strcmp(op, "enc") && strcmp(op, "scan")) ||
	    (!strcmp(op, "scan") && enc != MEGACO_ENC_PRETTY && enc != MEGACO_ENC_COMPACT))
		return usage();
	enum { DEC, ENC, SCAN } what = !strcmp(op, "dec") ? DEC : !strcmp(op, "enc") ? ENC : SCAN;
	int n = argc - a - 3;
	char **paths = argv + a + 3;
	unsigned char **in = calloc((size_t)n, sizeof *in);
	size_t *len = calloc((size_t)n, sizeof *len);
	megaco_message **msg = calloc((size_t)n, sizeof *msg);
	size_t cap = 1 << 20;
	unsigned char *out = malloc(cap);
	if (!in || !len || !msg || !out)
		return 1;
	megaco_error err;
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (!(in[i] = bench_read_file(paths[i], &len[i]))) {
			fprintf(stderr, "megaco-loop: cannot read %s\n", paths[i]);
			rc = 1;
		} else if (what == ENC &&
		           megaco_decode(enc, in[i], len[i], &o, &msg[i], &err) != MEGACO_OK) {
			fprintf(stderr, "megaco-loop: %s: %s\n", paths[i], err.message);
			rc = 1;
		}
	}
	for (long r = 0; r < rounds && !rc; r++) {
		for (int i = 0; i < n && !rc; i++) {
			megaco_message *m;
			size_t out_len;
			if (what == DEC) {
				rc = megaco_decode(enc, in[i], len[i], &o, &m, &err) != MEGACO_OK;
				if (!rc)
					megaco_message_free(m);
			} else if (what == SCAN) {
				rc = text_scan_only(in[i], len[i], &o, &err) != MEGACO_OK;
			} else {
				rc = megaco_encode(msg[i], enc, &o, out, cap, &out_len, &err) != MEGACO_OK;
			}
			if (rc)
				fprintf(stderr, "megaco-loop: %s: %s\n", paths[i], err.message);
		}
	}
	for (int i = 0; i < n; i++) {
		megaco_message_free(msg[i]);
		free(in[i]);
	}
	free(in);
	free(len);
	free(msg);
	free(out);
	return rc;
}
