/*
 * The decode stage: messages found by the capture and log readers are queued
 * in batches; worker threads decode each message (libmegaco is thread-safe)
 * and render it (dump_render: filters, output, log record, the facts for
 * --stats), freeing the model while it is still in that CPU's cache; the
 * reading thread hands the results on (dump_apply) in the order the messages
 * were found, so output, --stats and logs are exactly what one thread makes.
 * Memory is bounded: a fixed ring of batches, each at most BATCH_MESSAGES
 * messages, copies of their bytes and what was rendered from them.
 * With 0 threads the reading thread decodes each batch itself, through the
 * same code.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "dump.h"

#define BATCH_MESSAGES 256
#define BATCH_BYTES (64u << 10)     /* a batch is handed over at this many input bytes */
#define WORKER_STACK (1u << 20)

typedef struct job {
	dump_origin o;
	size_t off, len;
} job;

enum { B_FREE, B_FILLING, B_READY, B_WORKING, B_DONE };

/* Each on cache lines of its own: a decoding thread writes its batch's
 * results while the reading thread fills the next batch. */
typedef struct batch {
	DUMP_OWN_LINE int state;
	uint64_t seq;
	size_t n;
	uint8_t *bytes;
	size_t len, cap;
	rendered out;
	int oom;
	job jobs[BATCH_MESSAGES]; /* last: the rest is zeroed at the start */
} batch;

struct pipeline {
	dump_ctx *ctx;
	pthread_mutex_t mu;
	pthread_cond_t work; /* a batch is ready, or stop */
	pthread_cond_t done; /* a batch is done */
	batch *slots;
	size_t nslots;
	uint64_t next_fill, next_work, next_consume; /* batch sequence numbers */
	batch *fill; /* slots[next_fill % nslots], kept: dump_message() divided for it */
	int stop;
	int consuming; /* inside dump_apply(): a warning must not drain */
	pthread_t *threads;
	size_t nthreads;
};

/* --- decoding ------------------------------------------------------------ */

static void decode_batch(pipeline *p, batch *b)
{
	dump_ctx *ctx = p->ctx;
	for (size_t i = 0; i < b->n; i++) {
		const job *j = &b->jobs[i];
		if (dump_render(ctx, &b->out, &j->o, b->bytes + j->off, j->len))
			b->oom = 1; /* reported when handed on */
	}
}

/* The oldest batch ready to decode (a worker's), or the newest (the reading
 * thread's) while more than `keep` are ready; NULL if none is. next_work,
 * the oldest that may be, passes those taken. */
static batch *ready_batch(pipeline *p, int newest, size_t keep)
{
	for (; p->next_work < p->next_fill; p->next_work++)
		if (p->slots[p->next_work % p->nslots].state == B_READY)
			break;
	batch *found = NULL;
	size_t ready = 0;
	for (uint64_t seq = newest ? p->next_fill : p->next_work + 1; seq-- > p->next_work;) {
		batch *b = &p->slots[seq % p->nslots];
		if (b->state != B_READY)
			continue;
		if (!newest)
			return b;
		if (!found)
			found = b;
		if (++ready > keep)
			return found;
	}
	return NULL;
}

/* Decodes a batch if one is ready (the workers the oldest; the reading
 * thread the newest, so that while it decodes, the batches it must hand on
 * first are the workers' to finish); with mu held (released meanwhile).
 * 1 if it did. */
static int decode_next(pipeline *p, int newest, size_t keep)
{
	batch *b = ready_batch(p, newest, keep);
	if (!b)
		return 0;
	b->state = B_WORKING;
	pthread_mutex_unlock(&p->mu);
	decode_batch(p, b);
	pthread_mutex_lock(&p->mu);
	b->state = B_DONE;
	pthread_cond_signal(&p->done);
	return 1;
}

static void *worker(void *arg)
{
	pipeline *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (decode_next(p, 0, 0))
			continue;
		if (p->stop)
			break;
		pthread_cond_wait(&p->work, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* --- the reading thread's side --------------------------------------------- */

/* Hands the oldest batch's messages on, in order, if it is done; with mu
 * held (released meanwhile). 1 if it did. */
static int consume_one(pipeline *p)
{
	batch *b = &p->slots[p->next_consume % p->nslots];
	if (b->state != B_DONE || b->seq != p->next_consume)
		return 0;
	pthread_mutex_unlock(&p->mu);
	p->consuming = 1;
	for (size_t k = 0; k < b->out.nres; k++)
		dump_apply(p->ctx, &b->out, &b->out.res[k]);
	if (b->oom) {
		dump_warn(p->ctx, &b->jobs[b->n - 1].o, "out of memory: messages of this batch lost");
		b->oom = 0;
	}
	p->consuming = 0;
	dump_apply_done(p->ctx, &b->out);
	b->n = b->len = 0;
	pthread_mutex_lock(&p->mu);
	b->state = B_FREE;
	p->next_consume++;
	return 1;
}

/* With mu held: makes progress while waiting. The oldest batch is handed on
 * if it is done; else the newest ready batch is decoded here rather than
 * idling (this is all the decoding there is with no threads); else it waits.
 * While input goes on (not draining), one ready batch is left to each worker:
 * a worker that finds none waits for this thread to decode, read and fill
 * the next, and this thread, which reads besides, ends up doing more than
 * its share (a model of the ring, in the commit that added this, put the
 * loss at 6-12 % of the wall time with one worker). */
static void step(pipeline *p, int draining)
{
	if (consume_one(p) || decode_next(p, 1, draining ? 0 : p->nthreads))
		return;
	pthread_cond_wait(&p->done, &p->mu);
}


/* Hands the batch being filled to the decoders and takes the next slot. */
static void submit(pipeline *p)
{
	pthread_mutex_lock(&p->mu);
	batch *b = p->fill;
	b->state = B_READY;
	p->next_fill++;
	pthread_cond_signal(&p->work);
	/* pass on what is done, and wait for the next slot to be free */
	while (consume_one(p)) {}
	batch *next = p->fill = &p->slots[p->next_fill % p->nslots];
	while (next->state != B_FREE)
		step(p, 0);
	next->state = B_FILLING;
	next->seq = p->next_fill;
	pthread_mutex_unlock(&p->mu);
}

void pipeline_drain(dump_ctx *ctx)
{
	pipeline *p = ctx->pipe;
	if (!p || p->consuming)
		return;
	if (p->fill->n)
		submit(p);
	pthread_mutex_lock(&p->mu);
	while (p->next_consume != p->next_fill)
		step(p, 1);
	pthread_mutex_unlock(&p->mu);
}

/* Room for len more bytes in b (the first message, or a batch of long
 * ones); 0, or -1 with the message skipped (reported). Out of line, so that
 * dump_message() needs no stack frame for it. */
static __attribute__((noinline)) int batch_grow(dump_ctx *ctx, const dump_origin *o, batch *b,
                                                size_t len)
{
	size_t cap = b->cap ? b->cap : BATCH_BYTES;
	while (cap < b->len + len)
		cap *= 2;
	uint8_t *nb = realloc(b->bytes, cap);
	if (!nb) {
		dump_warn(ctx, o, "out of memory: message of %zu bytes skipped", len);
		return -1;
	}
	b->bytes = nb, b->cap = cap;
	return 0;
}

void dump_message(dump_ctx *ctx, const dump_origin *o, const uint8_t *msg, size_t len)
{
	pipeline *p = ctx->pipe;
	batch *b = p->fill;
	if (b->len + len > b->cap && batch_grow(ctx, o, b, len))
		return;
	job *j = &b->jobs[b->n++];
	j->o = *o;
	j->off = b->len;
	j->len = len;
	b->len += len;
	if (b->n < BATCH_MESSAGES && b->len < BATCH_BYTES) {
		/* (the copy last: a tail call for nearly every message) */
		memcpy(b->bytes + j->off, msg, len);
		return;
	}
	memcpy(b->bytes + j->off, msg, len);
	submit(p);
}

pipeline *pipeline_new(dump_ctx *ctx, unsigned threads)
{
	pipeline *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->ctx = ctx;
	/* four batches in flight per decoding thread, the reading one included:
	 * room to read ahead while the oldest is still being decoded (the
	 * batches are handed on in order), so that the reading thread seldom
	 * finds the ring full with no batch left to decode; one being filled,
	 * one handed on */
	p->nslots = 4 * ((size_t)threads + 1) + 2;
	/* (sizeof (batch) is a multiple of its alignment) */
	if (!(p->slots = aligned_alloc(_Alignof(batch), p->nslots * sizeof *p->slots)) ||
	    (threads && !(p->threads = calloc(threads, sizeof *p->threads)))) {
		free(p->slots);
		free(p);
		return NULL;
	}
	for (size_t i = 0; i < p->nslots; i++)
		memset(&p->slots[i], 0, offsetof(batch, jobs));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->fill = &p->slots[0];
	p->fill->state = B_FILLING;
	ctx->pipe = p;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (unsigned i = 0; i < threads; i++) {
		/* fewer threads than asked (a tight ulimit) still work; none: the
		 * reading thread decodes */
		if (pthread_create(&p->threads[p->nthreads], &attr, worker, p))
			break;
		p->nthreads++;
	}
	pthread_attr_destroy(&attr);
	return p;
}

void pipeline_free(dump_ctx *ctx)
{
	pipeline *p = ctx->pipe;
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (size_t i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	for (size_t i = 0; i < p->nslots; i++) {
		rendered_free(&p->slots[i].out);
		free(p->slots[i].bytes);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p->slots);
	free(p->threads);
	free(p);
	ctx->pipe = NULL;
}
