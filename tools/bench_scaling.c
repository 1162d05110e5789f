/*
 * megaco-bench --threads: what this host gives N threads of plain integer
 * code, timed the way the rows' speed-ups are (bench_measure.c,
 * measure_message_mt: one thread alone, then all N in one window, in turn,
 * in slices), so that a row's speed-up can be read against it.
 *
 * Two loops, neither touching memory:
 * - a dependent chain: each operation waits for the one before, so a
 *   thread uses a fraction of its core; N threads get N times as much
 *   wherever they run;
 * - independent operations: six chains side by side keep a core's ALUs
 *   busy, so two threads that share a core (a VM's CPUs that are hardware
 *   threads of one host core, or a core another guest is using) get less.
 * The codecs run several instructions a cycle, so they behave like the
 * second loop: measure_message_mt runs it after every message, and a row
 * prints what it gave next to the row's own speed-up.
 */
#include <stdlib.h>

#include "bench_together.h"
#include "megaco_bench.h"

#define SCALING_SLICES 16
#define SCALING_SLICE_NS 4000000u /* alone and together: 2 x 16 x 4 ms a loop */

typedef uint64_t (*loop_fn)(uint64_t ns, volatile uint64_t *sink);

static uint64_t chain_loop(uint64_t ns, volatile uint64_t *sink)
{
	uint64_t x = 1, rounds = 0, t0 = bench_mono_ns();
	do {
		for (int i = 0; i < 4096; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			x ^= x >> 17;
		}
		rounds += 4096;
	} while (bench_mono_ns() - t0 < ns);
	*sink = x;
	return rounds;
}

uint64_t bench_int_ops(uint64_t ns, volatile uint64_t *sink)
{
	uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, rounds = 0, t0 = bench_mono_ns();
	do {
		for (int i = 0; i < 4096; i++) {
			a += b ^ c;
			b += c ^ d;
			c += d ^ e;
			d += e ^ f;
			e += f ^ a;
			f += a ^ b;
			a ^= a >> 3;
			b ^= b >> 5;
			c ^= c >> 7;
			d ^= d >> 11;
			e ^= e >> 13;
			f ^= f >> 17;
		}
		rounds += 4096;
	} while (bench_mono_ns() - t0 < ns);
	*sink = a + b + c + d + e + f;
	return rounds;
}

/* Rounds/s of loop on this thread alone, run for at least ns. */
static double alone_rate(loop_fn loop, uint64_t ns)
{
	volatile uint64_t sink;
	uint64_t t0 = bench_mono_ns();
	uint64_t rounds = loop(ns, &sink);
	uint64_t dt = bench_mono_ns() - t0;
	return dt ? (double)rounds * 1e9 / (double)dt : 0;
}

double bench_int_ops_alone(uint64_t ns)
{
	return alone_rate(bench_int_ops, ns);
}

/* Holds the threads until all exist (go 1) or one could not be made (go -1). */
typedef struct scaling_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;
} scaling_gate;

typedef struct scaling_shared {
	scaling_gate gate;
	bench_together tg;
	loop_fn loop;
	double alone, together; /* the lead's sums of rounds/s over the slices */
} scaling_shared;

typedef struct scaling_thread {
	scaling_shared *sh;
	unsigned idx; /* 0 leads */
} scaling_thread;

static void *scaling_run(void *arg)
{
	scaling_thread *t = arg;
	scaling_shared *sh = t->sh;
	volatile uint64_t sink;
	pthread_mutex_lock(&sh->gate.lock);
	while (!sh->gate.go)
		pthread_cond_wait(&sh->gate.cond, &sh->gate.lock);
	int go = sh->gate.go;
	pthread_mutex_unlock(&sh->gate.lock);
	if (go < 0)
		return NULL;
	for (int s = 0; s < SCALING_SLICES; s++) {
		bench_together_wait(&sh->tg);
		if (t->idx == 0)
			sh->alone += alone_rate(sh->loop, SCALING_SLICE_NS);
		bench_together_open(&sh->tg, t->idx);
		double per_s = bench_together_close(&sh->tg, t->idx, sh->loop(SCALING_SLICE_NS, &sink));
		if (t->idx == 0)
			sh->together += per_s;
	}
	return NULL;
}

/* The N threads' rounds/s over one thread's, or 0 if the threads could not be set up. */
static double speedup_of(loop_fn loop, unsigned n)
{
	scaling_shared sh = { .gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 },
	                      .loop = loop };
	scaling_thread *ts = calloc(n, sizeof *ts);
	pthread_t *ids = calloc(n, sizeof *ids);
	double result = 0;
	if (!ts || !ids || bench_together_init(&sh.tg, n) != 0) {
		free(ts);
		free(ids);
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		ts[i] = (scaling_thread){ &sh, i };
	unsigned started = 1; /* the calling thread leads */
	while (started < n && pthread_create(&ids[started], NULL, scaling_run, &ts[started]) == 0)
		started++;
	pthread_mutex_lock(&sh.gate.lock);
	sh.gate.go = started == n ? 1 : -1;
	pthread_cond_broadcast(&sh.gate.cond);
	pthread_mutex_unlock(&sh.gate.lock);
	if (started == n)
		scaling_run(&ts[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(ids[i], NULL);
	if (started == n && sh.alone > 0)
		result = sh.together / sh.alone;
	bench_together_destroy(&sh.tg);
	free(ts);
	free(ids);
	return result;
}

void bench_host_scaling(unsigned n, double *chain, double *independent)
{
	*chain = speedup_of(chain_loop, n);
	*independent = speedup_of(bench_int_ops, n);
}
