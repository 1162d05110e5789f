/*
 * --stats: counts by encoding, version, transaction kind, command and error
 * code, decode failures by status, and transaction response times. A
 * request is matched to its reply by the requester's address and port and
 * the transaction ID (RFC 3525 D.1.2.1: IDs are unique per sender); the
 * time is from the first copy of the request to the first reply, so
 * retransmissions do not shorten it, and pendings in between are counted.
 * Requests still open REPLY_TIMEOUT seconds (capture time) after they were
 * sent count as unanswered and are dropped, which keeps the table to the
 * transactions in flight.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "app.h"

#define REPLY_TIMEOUT 60     /* seconds: well past LONG-TIMER's usual 30-40 s */
#define HIST_SUB 8           /* log-scale buckets per power of two */
#define HIST_BUCKETS (40 * HIST_SUB)
#define ERROR_CODES 65536    /* ErrorCode ::= INTEGER(0..65535) */

typedef struct open_tx {
	dump_endpoint requester;
	uint32_t tid;
	uint8_t state;           /* 0 empty, 1 in use, 2 deleted */
	uint16_t pendings;
	int64_t sent_us;
} open_tx;

struct stats {
	stats_counts c;
	uint64_t *errors;        /* ERROR_CODES counters */
	size_t errors_end;       /* past the highest code counted */
	uint64_t failures[32];   /* by -status */
	uint64_t failed;
	/* transactions in flight */
	open_tx *tab;
	size_t cap, used, deleted;
	uint64_t retransmitted, replies_unmatched, answered, answered_after_pending, pendings,
		unanswered;
	uint64_t hist[HIST_BUCKETS];
	int64_t max_us, min_us;
	double sum_us;
};

stats *stats_new(void)
{
	stats *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->errors = calloc(ERROR_CODES, sizeof *s->errors);
	s->cap = 1024;
	s->tab = calloc(s->cap, sizeof *s->tab);
	if (!s->errors || !s->tab) {
		stats_free(s);
		return NULL;
	}
	s->min_us = INT64_MAX;
	return s;
}

void stats_free(stats *s)
{
	if (!s)
		return;
	free(s->errors);
	free(s->tab);
	free(s);
}

static int64_t origin_us(const dump_origin *o)
{
	return o->sec * 1000000 + o->usec;
}

static size_t tx_hash(const dump_endpoint *ep, uint32_t tid, size_t cap)
{
	/* two multiplies, 64 bits of the address each (one per byte cost 3 %
	 * of --stats, one per 32 bits 13 instructions a message more than
	 * this); an IPv4 address's last 12 bytes are 0 */
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t hi = (uint64_t)rd32(ep->addr) << 32 | rd32(ep->addr + 4);
	uint64_t lo = (uint64_t)rd32(ep->addr + 8) << 32 | rd32(ep->addr + 12);
	uint64_t h = (((uint64_t)tid << 16 | ep->port) ^ hi) * k;
	h = (h ^ lo) * k;
	return (size_t)(h >> 32 ^ h) & (cap - 1);
}

static open_tx *tx_find(stats *s, const dump_endpoint *ep, uint32_t tid)
{
	for (size_t i = tx_hash(ep, tid, s->cap);; i = (i + 1) & (s->cap - 1)) {
		open_tx *e = &s->tab[i];
		if (e->state == 0)
			return NULL;
		if (e->state == 1 && e->tid == tid && endpoint_eq(&e->requester, ep))
			return e;
	}
}

/* Rebuilds the table (doubled when more than half of it is live), dropping
 * deleted slots and requests past the timeout. */
static int tx_rebuild(stats *s, int64_t now_us)
{
	size_t live = 0;
	for (size_t i = 0; i < s->cap; i++)
		if (s->tab[i].state == 1) {
			if (now_us - s->tab[i].sent_us > (int64_t)REPLY_TIMEOUT * 1000000) {
				s->tab[i].state = 2;
				s->unanswered++;
			} else {
				live++;
			}
		}
	size_t cap = s->cap;
	while (live * 2 > cap)
		cap *= 2;
	open_tx *t = calloc(cap, sizeof *t);
	if (!t)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->tab[i].state == 1) {
			size_t j = tx_hash(&s->tab[i].requester, s->tab[i].tid, cap);
			while (t[j].state)
				j = (j + 1) & (cap - 1);
			t[j] = s->tab[i];
		}
	free(s->tab);
	s->tab = t, s->cap = cap, s->used = live, s->deleted = 0;
	return 0;
}

static void tx_request(stats *s, const dump_endpoint *ep, uint32_t tid, int64_t now)
{
	if (tx_find(s, ep, tid)) {
		s->retransmitted++;
		return;
	}
	if ((s->used + s->deleted + 1) * 4 > s->cap * 3 && tx_rebuild(s, now))
		return;
	size_t i = tx_hash(ep, tid, s->cap);
	while (s->tab[i].state == 1)
		i = (i + 1) & (s->cap - 1);
	if (s->tab[i].state == 2)
		s->deleted--;
	open_tx *e = &s->tab[i];
	e->requester = *ep, e->tid = tid, e->state = 1, e->pendings = 0, e->sent_us = now;
	s->used++;
}

static void record_time(stats *s, int64_t us)
{
	if (us < 0)
		us = 0;
	/* bucket: HIST_SUB per power of two of the time in µs */
	size_t b = 0;
	if (us >= 1) {
		double l = log2((double)us) * HIST_SUB;
		b = (size_t)l + 1;
		if (b >= HIST_BUCKETS)
			b = HIST_BUCKETS - 1;
	}
	s->hist[b]++;
	s->sum_us += (double)us;
	if (us > s->max_us)
		s->max_us = us;
	if (us < s->min_us)
		s->min_us = us;
}

/* --- on the decoding thread ------------------------------------------------ */

static inline int collect_visit(const fact *f, void *user);
#define FACTS_VISIT(w) collect_visit(&(w)->f, (w)->user)
#define FACTS_KINDS(w) (FACT_BIT(FACT_TRANSACTION) | FACT_BIT(FACT_COMMAND) | FACT_BIT(FACT_ERROR))
#include "facts_walk.h"

typedef struct collector {
	stats_counts *c;
	stats_events *ev;
} collector;

static int event(stats_events *ev, unsigned kind, uint32_t value)
{
	if (ev->len == ev->cap) {
		size_t cap = ev->cap ? ev->cap * 2 : 1024;
		stats_event *p = realloc(ev->p, cap * sizeof *p);
		if (!p)
			return 1;
		ev->p = p, ev->cap = cap;
	}
	ev->p[ev->len].kind = (uint8_t)kind;
	ev->p[ev->len++].value = value;
	return 0;
}

/* inline: at each fact of the walk, whose kind is then a constant */
static inline int collect_visit(const fact *f, void *user)
{
	collector *k = user;
	switch (f->kind) {
	case FACT_TRANSACTION:
		k->c->tx[f->tx]++;
		if (f->tx == TX_REQUEST || f->tx == TX_PENDING || f->tx == TX_REPLY)
			return event(k->ev, f->tx, f->tid);
		return 0;
	case FACT_COMMAND:
		k->c->commands[f->reply][f->command]++;
		return 0;
	case FACT_ERROR:
		if (f->error_code >= 0 && f->error_code < ERROR_CODES)
			return event(k->ev, STATS_ERROR, (uint32_t)f->error_code);
		return 0;
	default:
		return 0;
	}
}

int stats_collect(stats_counts *c, stats_events *ev, const MegacoMessage_t *m, megaco_encoding enc)
{
	c->by_enc[enc <= MEGACO_ENC_APER ? enc : 0]++;
	long version = m->mess.version;
	if (version >= 0 && version < 100)
		c->by_version[version]++;
	collector k = { c, ev };
	/* (not zeroed: collect_visit() reads only what the walk set for the
	 * fact it visits) */
	walker w;
	w.user = &k;
	return walk_message(&w, m) ? -1 : 0;
}

/* --- in capture order -------------------------------------------------------- */

void stats_count(stats *s, const dump_origin *o, const stats_event *ev, size_t n)
{
	int64_t now = origin_us(o);
	for (size_t i = 0; i < n; i++) {
		uint32_t tid = ev[i].value;
		switch (ev[i].kind) {
		case TX_REQUEST:
			tx_request(s, &o->src, tid, now);
			break;
		case TX_PENDING: {
			/* the answer goes to the requester */
			s->pendings++;
			open_tx *e = tx_find(s, &o->dst, tid);
			if (e && e->pendings < UINT16_MAX)
				e->pendings++;
			break;
		}
		case TX_REPLY: {
			open_tx *e = tx_find(s, &o->dst, tid);
			if (!e) {
				s->replies_unmatched++;
			} else {
				s->answered++;
				s->answered_after_pending += e->pendings != 0;
				record_time(s, now - e->sent_us);
				e->state = 2;
				s->used--, s->deleted++;
			}
			break;
		}
		case STATS_ERROR:
			s->errors[tid]++;
			if (tid >= s->errors_end)
				s->errors_end = (size_t)tid + 1;
			break;
		default:
			break;
		}
	}
}

static void add(uint64_t *to, uint64_t *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] += from[i], from[i] = 0;
}

void stats_merge(stats *s, stats_counts *c)
{
	add(s->c.by_enc, c->by_enc, MEGACO_ENC_APER + 1);
	add(s->c.by_version, c->by_version, 100);
	add(s->c.tx, c->tx, TX_KINDS);
	add(s->c.commands[0], c->commands[0], COMMANDS);
	add(s->c.commands[1], c->commands[1], COMMANDS);
}

void stats_failure(stats *s, int code)
{
	s->failed++;
	if (code < 0 && code > -32)
		s->failures[-code]++;
}

/* The bucket's upper edge in µs. */
static double bucket_top(size_t b)
{
	return b == 0 ? 1 : exp2((double)b / HIST_SUB);
}

static double percentile(const stats *s, double p)
{
	uint64_t total = s->answered, want = (uint64_t)ceil(p * (double)total), seen = 0;
	if (!want)
		want = 1;
	for (size_t b = 0; b < HIST_BUCKETS; b++) {
		seen += s->hist[b];
		if (seen >= want) {
			double top = bucket_top(b);
			return top > (double)s->max_us ? (double)s->max_us : top;
		}
	}
	return (double)s->max_us;
}

static void print_time(FILE *to, double us)
{
	if (us < 1000)
		fprintf(to, "%.0f us", us);
	else if (us < 1e6)
		fprintf(to, "%.3g ms", us / 1000);
	else
		fprintf(to, "%.3g s", us / 1e6);
}

void stats_report(stats *s, dump_ctx *ctx, FILE *to)
{
	dump_app *app = ctx->app;
	/* requests still open at the end of the input */
	for (size_t i = 0; i < s->cap; i++)
		if (s->tab[i].state == 1)
			s->unanswered++, s->tab[i].state = 2;
	fprintf(to, "frames %llu, messages %llu, decoded %llu, decode failures %llu\n",
	        (unsigned long long)ctx->frames, (unsigned long long)app->messages,
	        (unsigned long long)(app->messages - app->failed), (unsigned long long)s->failed);
	if (filter_active(&app->filt))
		fprintf(to, "matching the filters: %llu\n", (unsigned long long)app->matched);
	fprintf(to, "by encoding:");
	for (int e = MEGACO_ENC_PRETTY; e <= MEGACO_ENC_APER; e++)
		if (s->c.by_enc[e])
			fprintf(to, " %s %llu", megaco_encoding_name((megaco_encoding)e),
			        (unsigned long long)s->c.by_enc[e]);
	fprintf(to, "\nby version:");
	for (int v = 0; v < 100; v++)
		if (s->c.by_version[v])
			fprintf(to, " v%d %llu", v, (unsigned long long)s->c.by_version[v]);
	fprintf(to, "\ntransactions:");
	for (int k = 0; k < TX_KINDS; k++)
		fprintf(to, " %s %llu", tx_kind_names[k], (unsigned long long)s->c.tx[k]);
	fprintf(to, "\ncommands (requests / replies):\n");
	for (int c = 0; c < COMMANDS; c++)
		if (s->c.commands[0][c] || s->c.commands[1][c])
			fprintf(to, "  %-16s %10llu %10llu\n", command_names[c],
			        (unsigned long long)s->c.commands[0][c], (unsigned long long)s->c.commands[1][c]);
	fprintf(to, "error descriptors by code:");
	int any = 0;
	for (size_t e = 0; e < s->errors_end; e++)
		if (s->errors[e])
			fprintf(to, " %zu:%llu", e, (unsigned long long)s->errors[e]), any = 1;
	fprintf(to, "%s\n", any ? "" : " none");
	if (s->failed) {
		fprintf(to, "decode failures by status:");
		for (int c = 1; c < 32; c++)
			if (s->failures[c])
				fprintf(to, " \"%s\" %llu", megaco_strerror(-c), (unsigned long long)s->failures[c]);
		fprintf(to, "\n");
	}
	fprintf(to,
	        "requests answered %llu (%llu after a pending), unanswered %llu, retransmitted %llu, "
	        "replies without a request %llu, pendings %llu\n",
	        (unsigned long long)s->answered, (unsigned long long)s->answered_after_pending,
	        (unsigned long long)s->unanswered, (unsigned long long)s->retransmitted,
	        (unsigned long long)s->replies_unmatched, (unsigned long long)s->pendings);
	if (!s->answered)
		return;
	fprintf(to, "response time: min ");
	print_time(to, (double)s->min_us);
	fprintf(to, ", mean ");
	print_time(to, s->sum_us / (double)s->answered);
	static const double ps[] = { 0.5, 0.9, 0.99, 0.999 };
	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		fprintf(to, ", p%g ", ps[i] * 100);
		print_time(to, percentile(s, ps[i]));
	}
	fprintf(to, ", max ");
	print_time(to, (double)s->max_us);
	fprintf(to, "\n(percentiles are bucket edges: within 9%%)\nresponse time histogram:\n");
	/* decades of 1-2-5 steps */
	static const double edges[] = { 1e2, 2e2, 5e2, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5,
		                            1e6, 2e6, 5e6, 1e7, 3e7, 6e7 };
	size_t ne = sizeof edges / sizeof edges[0];
	uint64_t cnt[sizeof edges / sizeof edges[0] + 1] = { 0 };
	for (size_t b = 0; b < HIST_BUCKETS; b++) {
		if (!s->hist[b])
			continue;
		/* the bucket's middle decides its row */
		double mid = b == 0 ? 0.5 : exp2(((double)b - 0.5) / HIST_SUB);
		size_t r = 0;
		while (r < ne && mid >= edges[r])
			r++;
		cnt[r] += s->hist[b];
	}
	uint64_t most = 0;
	for (size_t r = 0; r <= ne; r++)
		most = cnt[r] > most ? cnt[r] : most;
	for (size_t r = 0; r <= ne; r++) {
		if (!cnt[r])
			continue;
		char lo[32] = "0", hi[32] = "inf";
		if (r) {
			double v = edges[r - 1];
			snprintf(lo, sizeof lo, v < 1e3 ? "%.0fus" : v < 1e6 ? "%.0fms" : "%.0fs",
			         v < 1e3 ? v : v < 1e6 ? v / 1e3 : v / 1e6);
		}
		if (r < ne) {
			double v = edges[r];
			snprintf(hi, sizeof hi, v < 1e3 ? "%.0fus" : v < 1e6 ? "%.0fms" : "%.0fs",
			         v < 1e3 ? v : v < 1e6 ? v / 1e3 : v / 1e6);
		}
		int bar = (int)(40.0 * (double)cnt[r] / (double)most + 0.5);
		fprintf(to, "  %6s - %-6s %10llu %.*s\n", lo, hi, (unsigned long long)cnt[r], bar,
		        "########################################");
	}
}
