/*
 * megaco-bench: the timing method, as in Erlang/OTP megaco's published codec
 * table. Per message: decode the file's bytes into the model and encode that
 * model back to the same encoding; warm up; loop each operation for at least
 * min_time; take the mean time per call. A row is the average over messages.
 * Every call is checked, so a codec that breaks under repetition fails its row.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_together.h"
#include "megaco_bench.h"

/*
 * The scanner-only rows time text_scan_only(), the library's internal
 * tokenise-only entry: the floor a flex+bison decoder works against.
 */
#include "internal.h"

#define OP_SIZE_CHANGED 1 /* positive: not a megaco_status */
#define OUT_CAP_INITIAL 65536

/* CLOCK_MONOTONIC (wall, the published method) or the thread's CPU time. */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(bench_clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef struct op_ctx {
	const bench_config *cfg;
	const megaco_options *opts;
	const unsigned char *in;
	size_t in_len;
	megaco_message *model; /* decoded once, encoded in the loop */
	unsigned char *out;
	size_t out_cap, first_len, got_len;
	uint64_t calls; /* made by the last timed_loop */
	megaco_error err;
} op_ctx;

typedef int (*op_fn)(op_ctx *c);

static int op_decode(op_ctx *c)
{
	megaco_message *m = NULL;
	int rc = megaco_decode(c->cfg->enc, c->in, c->in_len, c->opts, &m, &c->err);
	if (rc == MEGACO_OK)
		megaco_message_free(m); /* part of the cost: the arena goes back */
	return rc;
}

static int op_encode(op_ctx *c)
{
	size_t n = 0;
	int rc = megaco_encode(c->model, c->cfg->enc, c->opts, c->out, c->out_cap, &n, &c->err);
	if (rc == MEGACO_OK && n != c->first_len) {
		c->got_len = n;
		return OP_SIZE_CHANGED;
	}
	return rc;
}

static int op_scan(op_ctx *c)
{
	return text_scan_only(c->in, c->in_len, c->opts, &c->err);
}

/*
 * Calls op in batches until at least min_ns have passed; batches double
 * while short so reading the clock costs nothing measurable. Returns 0 or
 * the first failing call's code.
 */
static int timed_loop(op_fn op, op_ctx *c, uint64_t min_ns, double *mean_ns)
{
	uint64_t total = 0, calls = 0, batch = 1;
	do {
		uint64_t t0 = now_ns();
		for (uint64_t i = 0; i < batch; i++) {
			int rc = op(c);
			if (rc)
				return rc;
		}
		uint64_t dt = now_ns() - t0;
		total += dt;
		calls += batch;
		if (dt < min_ns / 32 + 1)
			batch *= 2;
	} while (total < min_ns);
	if (mean_ns)
		*mean_ns = (double)total / (double)calls;
	c->calls = calls;
	return 0;
}

static row_status failure(char *why, size_t cap, const char *name, const char *what, int rc,
                          const op_ctx *c)
{
	if (rc == OP_SIZE_CHANGED) {
		snprintf(why, cap, "%s: encode gave %zu bytes, first iteration %zu", name, c->got_len,
		         c->first_len);
		return ROW_FAILED;
	}
	if (c->err.line && !strstr(c->err.message, "line "))
		snprintf(why, cap, "%s: %s: %s (line %u, column %u): %s", name, what,
		         megaco_strerror(rc), c->err.line, c->err.column, c->err.message);
	else
		snprintf(why, cap, "%s: %s: %s: %s", name, what, megaco_strerror(rc), c->err.message);
	return rc == MEGACO_ERR_UNSUPPORTED ? ROW_UNAVAILABLE : ROW_FAILED;
}

/*
 * Two operations on the same message in turn, in PAIR_SLICES slices of
 * min_ns / PAIR_SLICES each, so that both see the same state of a shared
 * host: the scanner-only rows (the scan and the full decode) and the
 * non-reentrant rows (their decode and the reentrant one). Each gets min_ns
 * in all, as any operation. *a_ns and *b_ns: the mean time of a call.
 */
#define PAIR_SLICES 8

typedef struct pair_side {
	op_fn op;
	op_ctx *c;
	const char *what; /* for a failure's message */
} pair_side;

static row_status measure_pair(pair_side a, pair_side b, const char *name, uint64_t min_ns,
                               double *a_ns, double *b_ns, char *why, size_t whycap)
{
	uint64_t slice = min_ns / PAIR_SLICES + 1;
	double a_sum = 0, b_sum = 0;
	int rc;
	if ((rc = a.op(a.c)) != 0 || (rc = timed_loop(a.op, a.c, min_ns / 10, NULL)) != 0)
		return failure(why, whycap, name, a.what, rc, a.c);
	if ((rc = b.op(b.c)) != 0 || (rc = timed_loop(b.op, b.c, min_ns / 10, NULL)) != 0)
		return failure(why, whycap, name, b.what, rc, b.c);
	for (int i = 0; i < PAIR_SLICES; i++) {
		double ta, tb;
		if ((rc = timed_loop(a.op, a.c, slice, &ta)) != 0)
			return failure(why, whycap, name, a.what, rc, a.c);
		if ((rc = timed_loop(b.op, b.c, slice, &tb)) != 0)
			return failure(why, whycap, name, b.what, rc, b.c);
		a_sum += ta;
		b_sum += tb;
	}
	*a_ns = a_sum / PAIR_SLICES;
	*b_ns = b_sum / PAIR_SLICES;
	return ROW_OK;
}

/* What one message gives a row; also their sums and means over messages. */
typedef struct msg_result {
	double size, enc, dec;
	double paired;     /* scanner-only: the full decode timed in turn with the scan */
	double pair_nr;    /* non-reentrant: this row's decode, timed in turn with ... */
	double pair_re;    /* ... the reentrant scanner's decode */
	/* Several threads (measure_message_mt, the lead's): enc and dec are all threads
	   together, solo is decode + encode by the lead alone, timed in turn with them;
	   host_alone and host_together the integer loop's rounds/s likewise. */
	double solo;
	double host_alone, host_together;
} msg_result;

/* *sum += *m / div, field by field (div 1: a sum; the count: a mean). */
static void msg_result_add(msg_result *sum, const msg_result *m, double div)
{
	sum->size += m->size / div;
	sum->enc += m->enc / div;
	sum->dec += m->dec / div;
	sum->paired += m->paired / div;
	sum->pair_nr += m->pair_nr / div;
	sum->pair_re += m->pair_re / div;
	sum->solo += m->solo / div;
	sum->host_alone += m->host_alone / div;
	sum->host_together += m->host_together / div;
}

/*
 * Decodes the message into c->model and encodes it once, growing c->out to
 * fit and noting the size every timed encode must give (c->first_len).
 */
static row_status message_prepare(op_ctx *c, const char *name, char *why, size_t whycap)
{
	int rc;
	c->model = NULL;
	rc = megaco_decode(c->cfg->enc, c->in, c->in_len, c->opts, &c->model, &c->err);
	if (rc != MEGACO_OK)
		return failure(why, whycap, name, "decode", rc, c);
	size_t n = 0;
	for (;;) {
		rc = megaco_encode(c->model, c->cfg->enc, c->opts, c->out, c->out_cap, &n, &c->err);
		if (rc != MEGACO_ERR_BUFFER_TOO_SMALL || n <= c->out_cap)
			break;
		unsigned char *bigger = realloc(c->out, n);
		if (!bigger)
			break;
		c->out = bigger;
		c->out_cap = n;
	}
	c->first_len = n;
	if (rc != MEGACO_OK) {
		megaco_message_free(c->model);
		c->model = NULL;
		return failure(why, whycap, name, "encode", rc, c);
	}
	return ROW_OK;
}

/*
 * Warms up, then times, decode and encode of the prepared message for
 * min_ns each (scanner-only rows: the scan, as *dec, and no encode).
 */
static row_status time_both(op_ctx *c, const char *name, uint64_t warm_ns, uint64_t min_ns,
                            double *dec, double *enc, char *why, size_t whycap)
{
	int rc;
	op_fn first = c->cfg->scan_only ? op_scan : op_decode;
	const char *what = c->cfg->scan_only ? "scan" : "decode";
	*enc = 0;
	if ((warm_ns && (rc = timed_loop(first, c, warm_ns, NULL)) != 0) ||
	    (rc = timed_loop(first, c, min_ns, dec)) != 0)
		return failure(why, whycap, name, what, rc, c);
	if (c->cfg->scan_only)
		return ROW_OK;
	if ((warm_ns && (rc = timed_loop(op_encode, c, warm_ns, NULL)) != 0) ||
	    (rc = timed_loop(op_encode, c, min_ns, enc)) != 0)
		return failure(why, whycap, name, "encode", rc, c);
	return ROW_OK;
}

/*
 * One message on one thread: size, mean encode and decode time
 * (scanner-only rows: the scan's time as decode and the full decode's as
 * paired; non-reentrant rows also the paired decodes with either scanner).
 */
static row_status measure_message(op_ctx *c, const char *name, uint64_t min_ns, msg_result *r,
                                  char *why, size_t whycap)
{
	memset(r, 0, sizeof *r);
	if (c->cfg->scan_only) {
		r->size = (double)c->in_len;
		return measure_pair((pair_side){op_scan, c, "scan"}, (pair_side){op_decode, c, "decode"},
		                    name, min_ns, &r->dec, &r->paired, why, whycap);
	}
	row_status st = message_prepare(c, name, why, whycap);
	if (st != ROW_OK)
		return st;
	st = time_both(c, name, min_ns / 10, min_ns, &r->dec, &r->enc, why, whycap);
	if (st == ROW_OK && c->opts->scanner == MEGACO_SCANNER_NON_REENTRANT &&
	    (c->cfg->enc == MEGACO_ENC_PRETTY || c->cfg->enc == MEGACO_ENC_COMPACT)) {
		megaco_options re = *c->opts;
		re.scanner = MEGACO_SCANNER_REENTRANT;
		op_ctx rc_ctx = *c;
		rc_ctx.opts = &re;
		st = measure_pair((pair_side){op_decode, c, "decode"},
		                  (pair_side){op_decode, &rc_ctx, "reentrant decode"}, name, min_ns,
		                  &r->pair_nr, &r->pair_re, why, whycap);
	}
	r->size = (double)c->first_len;
	megaco_message_free(c->model);
	c->model = NULL;
	return st;
}

/* What the threads of one pass share. */
typedef struct mt_shared {
	bench_together tg;
	atomic_int failed; /* a thread's work failed: the others stop working too */
} mt_shared;

/*
 * timed_loop for a window of threads working together: calls op until the
 * window is stopped, and stops it when slice has passed on this thread.
 * timed_loop's own end comes at a batch's end, up to 1/16 of the time
 * after min_ns, differently on every thread; the window lasts until the
 * last one ends, so the time the others had stopped counted against the
 * threads. Checking the window's flag after every call, all stop within a
 * call of each other. Measured over the compact and BER rows with two
 * threads: the threads' busy time was 99.2-99.4 % of the windows' with
 * timed_loop, 99.8-99.9 % with this.
 */
static int window_loop(op_fn op, op_ctx *c, bench_together *tg, uint64_t slice)
{
	uint64_t calls = 0, batch = 1, t0 = bench_mono_ns(), t = t0;
	while (!bench_together_stopped(tg)) {
		for (uint64_t i = 0; i < batch && !bench_together_stopped(tg); i++, calls++) {
			int rc = op(c);
			if (rc)
				return rc;
		}
		/* One clock reading ends this batch and starts the next. */
		uint64_t now = bench_mono_ns();
		if (now - t0 >= slice)
			bench_together_stop(tg);
		else if (now - t < slice / 32 + 1)
			batch *= 2;
		t = now;
	}
	c->calls = calls;
	return 0;
}

/*
 * One window of measure_message_mt: every thread loops op for slice (one
 * whose work has failed, or whose partner's has, only passes the barriers).
 * A failure goes to *st. Returns, for the lead, the window's ns per call of
 * all threads together; 0 for the others and when nothing was done.
 */
static double together_window(op_ctx *c, mt_shared *sh, unsigned idx, op_fn op, const char *what,
                              uint64_t slice, const char *name, row_status *st, char *why,
                              size_t whycap)
{
	int rc = 0;
	bench_together_open(&sh->tg, idx);
	int work = *st == ROW_OK && !atomic_load(&sh->failed);
	if (work && (rc = window_loop(op, c, &sh->tg, slice)) != 0)
		*st = failure(why, whycap, name, what, rc, c);
	double per_s = bench_together_close(&sh->tg, idx, work && !rc ? c->calls : 0);
	return per_s > 0 ? 1e9 / per_s : 0;
}

/*
 * One message on every thread of a pass at once, which all call this for
 * the same messages in the same order. In PAIR_SLICES slices: the first
 * thread (lead) decodes and encodes alone while the others wait, then all
 * decode together in one window and encode together in another. The
 * speed-up over one thread is then a ratio of times taken milliseconds
 * apart, as the other paired figures. Then one slice of plain integer code
 * (bench_scaling.c) alone and together: what the host gave N threads just
 * then. Every thread passes every barrier whatever happens (one whose work
 * failed only stops working), so a failure cannot leave the others waiting.
 * The lead's *r: solo (decode + encode alone), dec and enc (ns per call of
 * all threads together), host_alone and host_together (loop rounds/s).
 */
static row_status measure_message_mt(op_ctx *c, const char *name, uint64_t min_ns, unsigned idx,
                                     mt_shared *sh, msg_result *r, char *why, size_t whycap)
{
	uint64_t slice = min_ns / PAIR_SLICES + 1;
	int lead = idx == 0;
	row_status st = ROW_OK;
	int prepared = 0;
	double dec, enc;
	op_fn first = c->cfg->scan_only ? op_scan : op_decode;
	const char *what = c->cfg->scan_only ? "scan" : "decode";
	memset(r, 0, sizeof *r);
	if (!atomic_load(&sh->failed)) {
		if (!c->cfg->scan_only) {
			st = message_prepare(c, name, why, whycap);
			prepared = st == ROW_OK;
		}
		if (st == ROW_OK) /* the warm-up: its times are not kept */
			st = time_both(c, name, 0, min_ns / 10, &dec, &enc, why, whycap);
	}
	for (int i = 0; i < PAIR_SLICES; i++) {
		if (st != ROW_OK)
			atomic_store(&sh->failed, 1);
		bench_together_wait(&sh->tg);
		int work = st == ROW_OK && !atomic_load(&sh->failed);
		if (lead && work && (st = time_both(c, name, 0, slice, &dec, &enc, why, whycap)) == ROW_OK)
			r->solo += (dec + enc) / PAIR_SLICES;
		/* Together: a window for the decodes (scans), one for the encodes. */
		r->dec += together_window(c, sh, idx, first, what, slice, name, &st, why, whycap) /
		          PAIR_SLICES;
		if (!c->cfg->scan_only)
			r->enc += together_window(c, sh, idx, op_encode, "encode", slice, name, &st, why,
			                          whycap) / PAIR_SLICES;
	}
	if (st != ROW_OK)
		atomic_store(&sh->failed, 1);
	bench_together_wait(&sh->tg);
	if (lead)
		r->host_alone = bench_int_ops_alone(slice);
	bench_together_open(&sh->tg, idx);
	volatile uint64_t sink;
	r->host_together = bench_together_close(&sh->tg, idx, bench_int_ops(slice, &sink));
	r->size = c->cfg->scan_only ? (double)c->in_len : (double)c->first_len;
	if (prepared)
		megaco_message_free(c->model);
	c->model = NULL;
	return st; /* ROW_OK when another thread failed: its error is the row's */
}

/* One thread's pass over every message of the row's encoding. */
typedef struct worker {
	const bench_config *cfg;
	const bench_corpus *corpus;
	const bench_params *params;
	mt_shared *shared; /* NULL when single-threaded */
	unsigned idx;      /* several threads: this one's index; 0 leads (also times itself alone) */
	int show_progress;
	row_status status;
	char error[320];
	size_t messages, skipped; /* skipped: refused by the row's engine (see worker_run) */
	msg_result sum; /* over the messages measured */
} worker;

/*
 * Whether the row's engine refuses the message as MEGACO_ERR_UNSUPPORTED:
 * asn1c's engine, the v3 module's only, refuses the version 1 messages whose
 * PER follows the v1 module (docs/aper.md). Its row leaves them out and says
 * so, rather than being unavailable as a whole. Every thread asks the same.
 */
static int engine_refuses(const op_ctx *c, const unsigned char *in, size_t len, char *why,
                          size_t whycap, const char *name)
{
	if (c->opts->engine != MEGACO_ENGINE_ASN1C || c->cfg->scan_only)
		return 0;
	megaco_message *m = NULL;
	megaco_error err;
	int rc = megaco_decode(c->cfg->enc, in, len, c->opts, &m, &err);
	megaco_message_free(m);
	if (rc != MEGACO_ERR_UNSUPPORTED)
		return 0;
	if (!*why)
		snprintf(why, whycap, "%.60s: %.170s", name, err.message);
	return 1;
}

static void progress(const worker *w, size_t i, size_t n, const char *name)
{
	if (!w->show_progress)
		return;
	fprintf(stderr, "\r\033[K  %s%s%s%s %zu/%zu %s", w->cfg->codec, *w->cfg->config ? " [" : "",
	        w->cfg->config, *w->cfg->config ? "]" : "", i, n, name);
	fflush(stderr);
}

static void *worker_run(void *arg)
{
	worker *w = arg;
	const bench_corpus *cp = w->corpus;
	int k = (int)w->cfg->enc - 1;
	uint64_t min_ns = (uint64_t)(w->params->min_time * 1e9);
	megaco_options opts;
	megaco_options_init(&opts);
	opts.scanner = w->cfg->scanner;
	opts.engine = w->cfg->engine;
	op_ctx c = { .cfg = w->cfg, .opts = &opts };
	c.out_cap = OUT_CAP_INITIAL;
	c.out = malloc(c.out_cap);
	/* Each thread works on its own copies of the input, in its own memory. */
	unsigned char **copies = calloc(cp->count ? cp->count : 1, sizeof *copies);
	w->status = ROW_OK;
	if (!c.out || !copies) {
		w->status = ROW_FAILED;
		snprintf(w->error, sizeof w->error, "out of memory");
	}
	for (size_t i = 0; w->status == ROW_OK && i < cp->count; i++) {
		if (!cp->msgs[i].data[k])
			continue;
		copies[i] = malloc(cp->msgs[i].len[k] + 1);
		if (!copies[i]) {
			w->status = ROW_FAILED;
			snprintf(w->error, sizeof w->error, "out of memory");
			break;
		}
		memcpy(copies[i], cp->msgs[i].data[k], cp->msgs[i].len[k]);
	}
	if (w->shared) {
		if (w->status != ROW_OK)
			atomic_store(&w->shared->failed, 1);
		bench_together_wait(&w->shared->tg);
	}
	size_t total = bench_corpus_count(cp, w->cfg->enc), done = 0;
	char skip_why[240] = "";
	/* Several threads go through every message whatever happens: see measure_message_mt. */
	for (size_t i = 0; (w->shared || w->status == ROW_OK) && i < cp->count; i++) {
		if (!cp->msgs[i].data[k])
			continue;
		progress(w, ++done, total, cp->msgs[i].name);
		c.in = copies ? copies[i] : NULL;
		c.in_len = cp->msgs[i].len[k];
		if (w->status == ROW_OK && engine_refuses(&c, c.in, c.in_len, skip_why, sizeof skip_why,
		                                          cp->msgs[i].name)) {
			w->skipped++;
			continue;
		}
		msg_result m;
		row_status st;
		if (!w->shared)
			st = measure_message(&c, cp->msgs[i].name, min_ns, &m, w->error, sizeof w->error);
		else if (w->status != ROW_OK)
			st = measure_message_mt(&c, cp->msgs[i].name, min_ns, w->idx, w->shared, &m, NULL, 0);
		else
			st = measure_message_mt(&c, cp->msgs[i].name, min_ns, w->idx, w->shared, &m,
			                        w->error, sizeof w->error);
		if (w->status != ROW_OK)
			continue;
		w->status = st;
		if (st != ROW_OK)
			continue;
		w->messages++;
		msg_result_add(&w->sum, &m, 1);
	}
	if (w->show_progress)
		fprintf(stderr, "\r\033[K");
	if (w->status == ROW_OK && w->skipped) {
		if (!w->messages)
			w->status = ROW_UNAVAILABLE;
		snprintf(w->error, sizeof w->error, "%zu messages left out, which the engine refuses "
		         "(first %.240s)", w->skipped, skip_why);
	}
	for (size_t i = 0; copies && i < cp->count; i++)
		free(copies[i]);
	free(copies);
	free(c.out);
	return NULL;
}

typedef struct run_result {
	row_status status;
	char error[320];
	size_t messages;
	msg_result m; /* means over the messages (several threads: all together, the lead's) */
	double total, mps; /* several threads: all of them together */
	double solo_mps;   /* several threads: the lead alone, timed in turn with them all */
	double host_speedup; /* several threads: bench_int_ops, all together over the lead alone */
} run_result;

static void worker_result(const worker *w, run_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = w->status;
	snprintf(r->error, sizeof r->error, "%s", w->error);
	r->messages = w->messages;
	if (w->messages) {
		msg_result_add(&r->m, &w->sum, (double)w->messages);
		r->total = r->m.enc + r->m.dec;
		r->mps = r->total > 0 ? 1e9 / r->total : 0;
		r->solo_mps = r->m.solo > 0 ? 1e9 / r->m.solo : 0;
	}
}

/* One pass of the row on n threads (n == 1: the calling thread). */
static void run_once(const bench_config *cfg, const bench_corpus *cp, const bench_params *p,
                     unsigned n, run_result *out)
{
	memset(out, 0, sizeof *out);
	if (n <= 1) {
		worker w = { .cfg = cfg, .corpus = cp, .params = p, .show_progress = p->progress };
		worker_run(&w);
		worker_result(&w, out);
		return;
	}
	worker *ws = calloc(n, sizeof *ws);
	pthread_t *ts = calloc(n, sizeof *ts);
	mt_shared sh;
	atomic_init(&sh.failed, 0);
	if (!ws || !ts || bench_together_init(&sh.tg, n) != 0) {
		out->status = ROW_FAILED;
		snprintf(out->error, sizeof out->error, "cannot set up %u threads", n);
		free(ws);
		free(ts);
		return;
	}
	unsigned started = 0;
	for (unsigned i = 0; i < n; i++) {
		ws[i] = (worker){ .cfg = cfg, .corpus = cp, .params = p, .shared = &sh, .idx = i,
		                  .show_progress = p->progress && i == 0 };
		if (pthread_create(&ts[i], NULL, worker_run, &ws[i]) != 0)
			break;
		started++;
	}
	if (started < n) {
		/* The barrier would wait forever for the missing threads. */
		fprintf(stderr, "megaco-bench: could only start %u of %u threads\n", started, n);
		exit(2);
	}
	for (unsigned i = 0; i < n; i++)
		pthread_join(ts[i], NULL);
	bench_together_destroy(&sh.tg);
	/* The lead has the figures (measure_message_mt); any thread's failure is the row's. */
	worker_result(&ws[0], out);
	for (unsigned i = 0; i < n; i++) {
		if (ws[i].status != ROW_OK) {
			out->status = ws[i].status;
			snprintf(out->error, sizeof out->error, "thread %u: %.280s", i, ws[i].error);
			break;
		}
	}
	out->host_speedup = out->m.host_alone > 0 ? out->m.host_together / out->m.host_alone : 0;
	free(ws);
	free(ts);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs the row repeat times on n threads; medians per column. */
static void run_repeated(const bench_config *cfg, const bench_corpus *cp, const bench_params *p,
                         unsigned n, run_result *out)
{
	static const size_t cols[] = {
		offsetof(run_result, m.size), offsetof(run_result, m.enc), offsetof(run_result, m.dec),
		offsetof(run_result, m.paired), offsetof(run_result, m.pair_nr),
		offsetof(run_result, m.pair_re), offsetof(run_result, mps),
		offsetof(run_result, solo_mps), offsetof(run_result, host_speedup),
	};
	enum { NCOLS = sizeof cols / sizeof cols[0] };
	unsigned reps = p->repeat ? p->repeat : 1;
	double *col = calloc((size_t)reps * NCOLS, sizeof *col);
	unsigned done = 0;
	if (!col) {
		memset(out, 0, sizeof *out);
		out->status = ROW_FAILED;
		snprintf(out->error, sizeof out->error, "out of memory");
		return;
	}
	for (; done < reps; done++) {
		run_once(cfg, cp, p, n, out);
		if (out->status != ROW_OK)
			break;
		for (size_t c = 0; c < NCOLS; c++)
			col[c * reps + done] = *(const double *)(const void *)((const char *)out + cols[c]);
	}
	if (out->status == ROW_OK) {
		for (size_t c = 0; c < NCOLS; c++)
			*(double *)(void *)((char *)out + cols[c]) = bench_median(col + c * reps, reps);
		out->total = out->m.enc + out->m.dec;
	}
	free(col);
}

void bench_measure_row(const bench_config *cfg, const bench_corpus *cp, const bench_params *p,
                       bench_row *row)
{
	bench_clock = p->cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
	memset(row, 0, sizeof *row);
	snprintf(row->impl, sizeof row->impl, "libmegaco");
	snprintf(row->codec, sizeof row->codec, "%s", cfg->codec);
	snprintf(row->config, sizeof row->config, "%s", cfg->config);
	row->threads = 1;
	run_result r;
	run_repeated(cfg, cp, p, 1, &r);
	row->status = r.status;
	snprintf(row->error, sizeof row->error, "%s", r.error);
	row->messages = r.messages;
	if (r.status != ROW_OK)
		return;
	row->size = r.m.size;
	row->encode_ns = r.m.enc;
	row->decode_ns = r.m.dec;
	row->total_ns = r.total;
	row->paired_decode_ns = r.m.paired;
	row->paired_nr_ns = r.m.pair_nr;
	row->paired_re_ns = r.m.pair_re;
	/* from the medians, so msgs/s and total always agree */
	row->msgs_per_s = r.total > 0 ? 1e9 / r.total : 0;
	if (p->threads > 1) {
		run_result m;
		run_repeated(cfg, cp, p, p->threads, &m);
		if (m.status != ROW_OK) {
			row->status = m.status;
			snprintf(row->error, sizeof row->error, "%u threads: %.280s", p->threads, m.error);
			return;
		}
		row->threads = p->threads;
		row->mt_msgs_per_s = m.mps;
		row->mt_one_msgs_per_s = m.solo_mps;
		row->speedup = m.solo_mps > 0 ? m.mps / m.solo_mps : 0;
		row->host_speedup = m.host_speedup;
	}
}
