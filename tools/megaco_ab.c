/*
 * megaco-ab: times one codec operation of two builds of libmegaco.so against
 * each other in one process, to judge a change on a shared, noisy host.
 *
 *   megaco-ab A.so B.so ENCODING dec|enc ROUNDS FILE...
 *
 * Each build is loaded with dlmopen into a namespace of its own, so the same
 * path may be given twice (which shows the method's own noise). Per file,
 * ROUNDS rounds each time 100 calls of A and 100 of B, in turn (B first on
 * every second round); the best round of each side counts. Printed: the mean
 * over the files of each side's best time per call, and B / A. Two runs of
 * megaco-bench, even alternated (scripts/compare-builds.sh), sit seconds
 * apart, and a slow phase of the host can land on one of them; here the two
 * sides are never more than a few hundred calls apart.
 *
 * Uses only the public API; the decode's time includes freeing the message,
 * as in megaco-bench. Every call is checked. Not installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_args.h"
#include "megaco/megaco.h"
#include "read_file.h"

#define PROG "megaco-ab"
#define CALLS 100

typedef struct build {
	const char *path;
	int (*decode)(megaco_encoding, const void *, size_t, const megaco_options *,
	              megaco_message **, megaco_error *);
	int (*encode)(const megaco_message *, megaco_encoding, const megaco_options *, void *,
	              size_t, size_t *, megaco_error *);
	void (*message_free)(megaco_message *);
	void (*options_init)(megaco_options *);
	int (*encoding_from_name)(const char *, megaco_encoding *);
	megaco_options opts;
	megaco_message *model; /* enc: the file decoded once by this build */
} build;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int load(build *b, const char *path)
{
	void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "megaco-ab: %s\n", dlerror());
		return -1;
	}
	b->path = path;
	/* POSIX allows converting dlsym's object pointer to a function pointer. */
	*(void **)&b->decode = dlsym(h, "megaco_decode");
	*(void **)&b->encode = dlsym(h, "megaco_encode");
	*(void **)&b->message_free = dlsym(h, "megaco_message_free");
	*(void **)&b->options_init = dlsym(h, "megaco_options_init");
	*(void **)&b->encoding_from_name = dlsym(h, "megaco_encoding_from_name");
	if (!b->decode || !b->encode || !b->message_free || !b->options_init ||
	    !b->encoding_from_name) {
		fprintf(stderr, "megaco-ab: %s lacks the libmegaco API\n", path);
		return -1;
	}
	b->options_init(&b->opts);
	return 0;
}

/* CALLS calls of the operation; returns the mean ns per call, or -1 on a failure. */
static double round_of(build *b, megaco_encoding enc, int encode, const unsigned char *in,
                       size_t len, unsigned char *out, size_t cap)
{
	megaco_error err;
	double t0 = now_ns();
	for (int i = 0; i < CALLS; i++) {
		if (encode) {
			size_t n;
			if (b->encode(b->model, enc, &b->opts, out, cap, &n, &err) != MEGACO_OK)
				return -1;
		} else {
			megaco_message *m;
			if (b->decode(enc, in, len, &b->opts, &m, &err) != MEGACO_OK)
				return -1;
			b->message_free(m);
		}
	}
	return (now_ns() - t0) / CALLS;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: " PROG " A.so B.so ENCODING dec|enc ROUNDS FILE...\n"
	        "Times one codec operation of two builds of libmegaco.so in turn, in one\n"
	        "process: per file, ROUNDS rounds of %d calls of each; prints the mean over\n"
	        "the files of each build's best time per call, and B/A.\n"
	        "ENCODING: pretty, compact, ber, per...\n"
	        "  -h, --help     this text\n"
	        "  -V, --version  the version\n",
	        CALLS);
}

static const cli_spec cli = {
	PROG, ":hV", (const struct option[]){ CLI_STANDARD_OPTIONS }, usage,
};

int main(int argc, char **argv)
{
	int status;
	while (cli_next_option(&cli, argc, argv, &status) != -1)
		; /* no options but --help and --version */
	if (status >= 0)
		return status;
	argv += optind - 1; /* argv[1] is A.so, as before the options */
	argc -= optind - 1;
	static const char *const ops[] = { "dec", "enc", NULL };
	unsigned long long rounds;
	if (argc < 7) {
		fprintf(stderr, PROG ": needs A.so, B.so, ENCODING, an operation, ROUNDS and at "
		                     "least one FILE\nTry '" PROG " --help' for more information.\n");
		return 2;
	}
	int encode = cli_parse_choice(PROG, "the operation", argv[4], ops);
	if (encode < 0 || cli_number_arg(PROG, "ROUNDS", argv[5], 1, 1000000, &rounds) < 0)
		return 2;
	build b[2];
	megaco_encoding enc;
	if (load(&b[0], argv[1]) || load(&b[1], argv[2]))
		return 2;
	if (b[0].encoding_from_name(argv[3], &enc) != MEGACO_OK || enc == MEGACO_ENC_AUTO) {
		fprintf(stderr, PROG ": unknown encoding '%s'\n", argv[3]);
		return 2;
	}
	static unsigned char out[1 << 20];
	double sum[2] = {0, 0};
	int files = 0;
	for (int f = 6; f < argc; f++) {
		size_t len;
		unsigned char *in = read_file(argv[f], &len);
		if (!in) {
			fprintf(stderr, "megaco-ab: cannot read %s\n", argv[f]);
			return 2;
		}
		double best[2] = {-1, -1};
		for (int k = 0; k < 2; k++) {
			megaco_error err;
			b[k].model = NULL;
			if (encode && b[k].decode(enc, in, len, &b[k].opts, &b[k].model, &err) != MEGACO_OK) {
				fprintf(stderr, "megaco-ab: %s: %s does not decode it\n", argv[f], b[k].path);
				return 1;
			}
		}
		for (unsigned long long r = 0; r < rounds; r++)
			for (int i = 0; i < 2; i++) {
				int k = r % 2 ? 1 - i : i;
				double t = round_of(&b[k], enc, encode, in, len, out, sizeof out);
				if (t < 0) {
					fprintf(stderr, "megaco-ab: %s: %s failed\n", argv[f], b[k].path);
					return 1;
				}
				if (best[k] < 0 || t < best[k])
					best[k] = t;
			}
		for (int k = 0; k < 2; k++) {
			if (b[k].model)
				b[k].message_free(b[k].model);
			sum[k] += best[k];
		}
		free(in);
		files++;
	}
	printf("%s %s, %d files, best of %llu rounds of %d calls: A %.1f ns, B %.1f ns, B/A %.4f\n",
	       argv[3], argv[4], files, rounds, CALLS, sum[0] / files, sum[1] / files, sum[1] / sum[0]);
	return 0;
}
