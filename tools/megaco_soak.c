/*
 * megaco-soak: decode + encode cycles on several threads for a long time,
 * with the process's resident memory (VmRSS) sampled at fixed cycle counts.
 * A benchmark, not a test (scripts/soak.sh runs it): a leak, or a cache that
 * keeps growing, shows as resident memory that climbs from sample to sample.
 *
 *   megaco-soak CORPUS_DIR CYCLES THREADS SAMPLE_EVERY
 *
 * The inputs are every file of CORPUS_DIR/{pretty,compact,ber,per} that
 * decodes. Cycle i decodes input i (round robin), text with the reentrant
 * and the non-reentrant scanner in turn, and encodes the message into each
 * of the four encodings in turn (so name conversion runs too). Prints one
 * line per sample, then the error count; exit status 1 on any decode error
 * or an encode error other than a name with no mapping.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "megaco/megaco.h"

typedef struct input {
	megaco_encoding enc;
	unsigned char *bytes;
	size_t len;
} input;

static input *inputs;
static size_t ninputs;
static unsigned long long cycles;
static unsigned nthreads;
static atomic_ullong done;
static atomic_ulong errors;

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	while (b && (n += fread(b + n, 1, cap - n, f)) == cap) {
		unsigned char *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	fclose(f);
	*len = n;
	return b;
}

/* Every file of dir/sub that decodes as enc joins the inputs. */
static void load(const char *dir, const char *sub, megaco_encoding enc)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/%s", dir, sub, e->d_name);
		size_t len;
		unsigned char *b = slurp(path, &len);
		megaco_message *m = NULL;
		if (!b || megaco_decode(enc, b, len, NULL, &m, NULL) != MEGACO_OK) {
			free(b);
			continue;
		}
		megaco_message_free(m);
		input *ni = realloc(inputs, (ninputs + 1) * sizeof *inputs);
		if (!ni) {
			free(b);
			break;
		}
		inputs = ni;
		inputs[ninputs++] = (input){ enc, b, len };
	}
	closedir(d);
}

static void *work(void *arg)
{
	unsigned t = (unsigned)(size_t)arg;
	unsigned long long mine = cycles / nthreads + (t < cycles % nthreads);
	static _Thread_local unsigned char out[1 << 16];
	megaco_options o[2];
	for (int s = 0; s < 2; s++) {
		megaco_options_init(&o[s]);
		o[s].scanner = s ? MEGACO_SCANNER_NON_REENTRANT : MEGACO_SCANNER_REENTRANT;
	}
	unsigned long long batch = 0;
	for (unsigned long long i = 0; i < mine; i++) {
		/* Threads start apart in the inputs; the scanner flips each round. */
		unsigned long long k = i + (unsigned long long)t * (ninputs / nthreads + 1);
		const input *in = &inputs[k % ninputs];
		const megaco_options *op = &o[(k / ninputs) & 1];
		megaco_message *m = NULL;
		if (megaco_decode(in->enc, in->bytes, in->len, op, &m, NULL) != MEGACO_OK) {
			atomic_fetch_add(&errors, 1);
		} else {
			size_t len;
			megaco_encoding to = (megaco_encoding)(MEGACO_ENC_PRETTY + k % 4);
			int rc = megaco_encode(m, to, op, out, sizeof out, &len, NULL);
			if (rc != MEGACO_OK && rc != MEGACO_ERR_UNKNOWN_NAME)
				atomic_fetch_add(&errors, 1);
			megaco_message_free(m);
		}
		if (++batch == 1000) {
			atomic_fetch_add(&done, batch);
			batch = 0;
		}
	}
	atomic_fetch_add(&done, batch);
	return NULL;
}

static long vmrss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: megaco-soak CORPUS_DIR CYCLES THREADS SAMPLE_EVERY\n");
		return 2;
	}
	cycles = strtoull(argv[2], NULL, 10);
	nthreads = (unsigned)strtoul(argv[3], NULL, 10);
	unsigned long long every = strtoull(argv[4], NULL, 10);
	if (!cycles || !nthreads || nthreads > 64 || !every) {
		fprintf(stderr, "megaco-soak: CYCLES, THREADS (1..64) and SAMPLE_EVERY must be > 0\n");
		return 2;
	}
	static const char *const dirs[] = { "pretty", "compact", "ber", "per" };
	for (int e = 0; e < 4; e++)
		load(argv[1], dirs[e], (megaco_encoding)(MEGACO_ENC_PRETTY + e));
	if (!ninputs) {
		fprintf(stderr, "megaco-soak: no decodable input under %s\n", argv[1]);
		return 2;
	}
	printf("inputs %zu, cycles %llu, threads %u, sample every %llu\n", ninputs, cycles, nthreads,
	       every);
	printf("%14s %10s %9s\n", "cycles", "VmRSS_kB", "seconds");
	printf("%14llu %10ld %9.1f\n", 0ULL, vmrss_kb(), 0.0);
	fflush(stdout);
	pthread_t th[64];
	double t0 = now();
	for (unsigned t = 0; t < nthreads; t++)
		if (pthread_create(&th[t], NULL, work, (void *)(size_t)t)) {
			fprintf(stderr, "megaco-soak: cannot start thread %u\n", t);
			return 2;
		}
	unsigned long long next = every;
	for (;;) {
		unsigned long long d = atomic_load(&done);
		if (d >= next) {
			printf("%14llu %10ld %9.1f\n", next, vmrss_kb(), now() - t0);
			fflush(stdout);
			next += every;
		}
		if (d >= cycles || next > cycles)
			break;
		struct timespec nap = { 0, 20 * 1000 * 1000 };
		nanosleep(&nap, NULL);
	}
	for (unsigned t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);
	printf("errors %lu\n", atomic_load(&errors));
	for (size_t i = 0; i < ninputs; i++)
		free(inputs[i].bytes);
	free(inputs);
	return atomic_load(&errors) ? 1 : 0;
}
