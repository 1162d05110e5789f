/*
 * megaco-bench: N threads timed together, for the speed-ups of --threads
 * (bench_measure.c, measure_message_mt, and bench_scaling.c).
 *
 * A window has every thread at work. It opens with a spin barrier, so the
 * threads start within about a microsecond of each other (waking a thread
 * from a sleeping barrier takes tens of microseconds, which would count as
 * time when only some of them ran), and closes when the last one has
 * finished: from the first start to the last end, by each thread's own
 * reading of the monotonic clock. A thread that starts late or ends early
 * counts against the N threads, never for them. So that none ends early,
 * the codec windows end together: the first thread whose time is up sets a
 * flag (bench_together_stop) that every thread reads after each call.
 *
 * Between windows the threads wait in a sleeping barrier, so while the lead
 * times itself alone the others take nothing from it (spinning would, on a
 * host whose CPUs share a core).
 */
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "bench_together.h"

uint64_t bench_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int bench_together_init(bench_together *t, unsigned n)
{
	t->n = n;
	atomic_init(&t->arrived, 0);
	atomic_init(&t->gen, 0);
	atomic_init(&t->stop, 0);
	t->stamps = calloc((size_t)n * 3, sizeof *t->stamps);
	if (!t->stamps)
		return -1;
	if (pthread_barrier_init(&t->barrier, NULL, n) != 0) {
		free(t->stamps);
		return -1;
	}
	return 0;
}

void bench_together_destroy(bench_together *t)
{
	pthread_barrier_destroy(&t->barrier);
	free(t->stamps);
}

void bench_together_wait(bench_together *t)
{
	pthread_barrier_wait(&t->barrier);
}

/* All n threads arrive, then all leave at once (sense by generation count). */
static void spin_barrier(bench_together *t)
{
	unsigned gen = atomic_load(&t->gen);
	if (atomic_fetch_add(&t->arrived, 1) + 1 == t->n) {
		/* Safe to clear here: the last window is closed, and the others spin until gen moves. */
		atomic_store(&t->stop, 0);
		atomic_store(&t->arrived, 0);
		atomic_fetch_add(&t->gen, 1);
		return;
	}
	for (unsigned spins = 0; atomic_load(&t->gen) == gen; spins++) {
		/* More threads than CPUs: the one awaited may need this CPU. */
		if (spins >= 4096)
			sched_yield();
#if defined(__x86_64__) || defined(__i386__)
		else
			__builtin_ia32_pause();
#endif
	}
}

void bench_together_open(bench_together *t, unsigned idx)
{
	pthread_barrier_wait(&t->barrier); /* all awake, ... */
	spin_barrier(t);                   /* ... then all go at once */
	t->stamps[idx * 3] = bench_mono_ns();
}

double bench_together_close(bench_together *t, unsigned idx, uint64_t done)
{
	t->stamps[idx * 3 + 1] = bench_mono_ns();
	t->stamps[idx * 3 + 2] = done;
	pthread_barrier_wait(&t->barrier);
	if (idx != 0)
		return 0;
	uint64_t first = UINT64_MAX, last = 0, all = 0;
	for (unsigned i = 0; i < t->n; i++) {
		if (t->stamps[i * 3] < first)
			first = t->stamps[i * 3];
		if (t->stamps[i * 3 + 1] > last)
			last = t->stamps[i * 3 + 1];
		all += t->stamps[i * 3 + 2];
	}
	return last > first ? (double)all * 1e9 / (double)(last - first) : 0;
}
