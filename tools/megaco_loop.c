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

#include "cli_args.h"
#include "internal.h"
#include "megaco/megaco.h"
#include "megaco_bench.h"

#define PROG "megaco-loop"

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: " PROG " [--non-reentrant] ENCODING dec|enc|scan ROUNDS FILE...\n"
	        "Runs one codec operation over the files ROUNDS times (for callgrind:\n"
	        "scripts/count-instructions.sh). ENCODING: pretty, compact, ber, per...\n"
	        "  dec   decode and free each file\n"
	        "  enc   decode each file once, then encode it ROUNDS times\n"
	        "  scan  the text scanner alone (pretty and compact)\n"
	        "  --non-reentrant  flex's global-state scanner for text\n"
	        "  -h, --help       this text\n"
	        "  -V, --version    the version\n");
}

enum { OPT_NON_REENTRANT = 256 };

static const cli_spec cli = {
	PROG, ":hV",
	(const struct option[]){ { "non-reentrant", no_argument, NULL, OPT_NON_REENTRANT },
	                         CLI_STANDARD_OPTIONS },
	usage,
};

int main(int argc, char **argv)
{
	megaco_options o;
	megaco_options_init(&o);
	int opt, status;
	while ((opt = cli_next_option(&cli, argc, argv, &status)) != -1)
		if (opt == OPT_NON_REENTRANT)
			o.scanner = MEGACO_SCANNER_NON_REENTRANT;
	if (status >= 0)
		return status;
	int a = optind;
	if (argc - a < 4) {
		fprintf(stderr, PROG ": needs ENCODING, an operation, ROUNDS and at least one FILE\n"
		                     "Try '" PROG " --help' for more information.\n");
		return 2;
	}
	static const char *const ops[] = { "dec", "enc", "scan", NULL };
	megaco_encoding enc;
	unsigned long long rounds;
	if (megaco_encoding_from_name(argv[a], &enc) != MEGACO_OK || enc == MEGACO_ENC_AUTO) {
		fprintf(stderr, PROG ": unknown encoding '%s'\n", argv[a]);
		return 2;
	}
	int op = cli_parse_choice(PROG, "the operation", argv[a + 1], ops);
	if (op < 0 || cli_number_arg(PROG, "ROUNDS", argv[a + 2], 0, 1000000000, &rounds) < 0)
		return 2;
	if (op == 2 && enc != MEGACO_ENC_PRETTY && enc != MEGACO_ENC_COMPACT) {
		fprintf(stderr, PROG ": scan is for the text encodings (pretty, compact), not %s\n", argv[a]);
		return 2;
	}
	enum { DEC, ENC, SCAN } what = op == 0 ? DEC : op == 1 ? ENC : SCAN;
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
		if (!(in[i] = read_file(paths[i], &len[i]))) {
			fprintf(stderr, "megaco-loop: cannot read %s\n", paths[i]);
			rc = 1;
		} else if (what == ENC &&
		           megaco_decode(enc, in[i], len[i], &o, &msg[i], &err) != MEGACO_OK) {
			fprintf(stderr, "megaco-loop: %s: %s\n", paths[i], err.message);
			rc = 1;
		}
	}
	for (unsigned long long r = 0; r < rounds && !rc; r++) {
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
