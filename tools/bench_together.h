/*
 * megaco-bench: windows in which N threads work together, for the
 * speed-ups of --threads (bench_together.c says how they are timed).
 * Needs POSIX barriers: include after a feature macro such as _DEFAULT_SOURCE.
 */
#ifndef MEGACO_BENCH_TOGETHER_H
#define MEGACO_BENCH_TOGETHER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct bench_together {
	pthread_barrier_t barrier;
	atomic_uint arrived, gen; /* the spin barrier that opens a window */
	unsigned n;
	uint64_t *stamps; /* per thread: start, end, work done in the current window */
	/* Set once a window's time is up; read after every call, on a line of its own. */
	_Alignas(64) atomic_int stop;
} bench_together;

/* CLOCK_MONOTONIC in ns: what the windows are timed by, one clock for all threads. */
uint64_t bench_mono_ns(void);

int bench_together_init(bench_together *t, unsigned n); /* 0 or -1 */
void bench_together_destroy(bench_together *t);
/* A sleeping barrier of the n threads. */
void bench_together_wait(bench_together *t);
/* Thread idx (0..n-1) enters the window; all n leave this call within about a microsecond. */
void bench_together_open(bench_together *t, unsigned idx);
/*
 * Ends the open window's work for every thread: each thread of a window that
 * loops until bench_together_stopped() stops within a call of the others.
 */
static inline void bench_together_stop(bench_together *t)
{
	atomic_store_explicit(&t->stop, 1, memory_order_relaxed);
}
static inline int bench_together_stopped(bench_together *t)
{
	return atomic_load_explicit(&t->stop, memory_order_relaxed);
}
/*
 * Thread idx closes the window, having done done units of work (calls,
 * rounds). Returns, for idx 0 only, all threads' work per second from the
 * first start to the last end; 0 for the others.
 */
double bench_together_close(bench_together *t, unsigned idx, uint64_t done);

#endif
