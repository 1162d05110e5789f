/*
 * megaco-dump's own state (options, filters, outputs), shared by
 * megaco_dump.c, filter.c, output.c, json.c, stats.c and msglog.c.
 */
#ifndef MEGACO_DUMP_APP_H
#define MEGACO_DUMP_APP_H

#include <stdint.h>
#include <stdio.h>

#include "dump.h"
#include "facts.h"

#define FILTER_MAX 16

typedef struct filter {
	uint32_t tid[FILTER_MAX];
	size_t ntid;
	uint32_t ctx[FILTER_MAX];
	size_t nctx;
	const char *term[FILTER_MAX]; /* fnmatch patterns */
	size_t nterm;
	int command[FILTER_MAX];
	size_t ncommand;
	const char *mid[FILTER_MAX];
	size_t nmid;
	megaco_encoding enc[FILTER_MAX]; /* "text" adds pretty and compact */
	size_t nenc;
	int version[FILTER_MAX];
	size_t nversion;
	int errors; /* only messages with an ErrorDescriptor */
} filter;

typedef enum output_mode { OUT_SUMMARY, OUT_COMPACT, OUT_PRETTY, OUT_JSON, OUT_NONE } output_mode;

typedef struct stats stats;
typedef struct msglog_writer msglog_writer;

typedef struct dump_app {
	megaco_options opts;
	output_mode output;
	filter filt;
	int filtering;         /* filter_active(&filt), asked once per message */
	stats *st;             /* --stats, else NULL */
	msglog_writer *log;    /* --write-log, else NULL */
	FILE *out;
	int last_only;         /* --last: print only the last match */
	int progress;          /* stderr is a terminal: show progress */
	/* Written for every message by the reading thread, on cache lines of
	 * their own: the decoding threads read the fields above for every
	 * message, and a counter on their line made it move between the CPUs
	 * each time. */
	DUMP_OWN_LINE uint64_t messages; /* messages found */
	uint64_t failed;       /* messages that did not decode */
	uint64_t matched;      /* decoded messages that passed the filters */
	char *last_line;       /* --last: the last match's output */
	size_t last_len, last_cap;
	double progress_at;    /* monotonic time of the last progress line */
} dump_app;

/* filter.c: parse one option value into f; 0 or -1 (message printed) */
int filter_add(filter *f, const char *opt, const char *val);
static inline int filter_active(const filter *f)
{
	return f->ntid || f->nctx || f->nterm || f->ncommand || f->nmid || f->nenc || f->nversion ||
	       f->errors;
}
int filter_match(const filter *f, const megaco_message *m, megaco_encoding enc,
                 const megaco_options *opts);

/* output.c */
/* Writes a whole output record for m to the buffer b (growing) */
typedef struct strbuf {
	char *p;
	size_t len, cap;
} strbuf;
int sb_reserve(strbuf *b, size_t n); /* room for n more bytes; 0 or -1 */
void sb_put(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(strbuf *b);
void output_origin(dump_ctx *ctx, strbuf *b, const dump_origin *o);
void output_summary(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding enc);
/* --to compact|pretty: the message re-encoded; 0 or -1 with an error line */
int output_encoded(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding to);
/* Appends m encoded as `to`; MEGACO_OK or the status (err set but for NOMEM). */
int output_encode(strbuf *b, const megaco_message *m, megaco_encoding to,
                  const megaco_options *opts, megaco_error *err);

/* json.c: one JSON object (no newline) for the message and where it came from */
void json_message(dump_ctx *ctx, strbuf *b, const dump_origin *o, const megaco_message *m,
                  megaco_encoding enc);

/* stats.c */
/* The counts of --stats that do not depend on the order of the messages:
 * kept per batch by the decoding thread, added up by stats_merge(). */
typedef struct stats_counts {
	uint64_t by_enc[MEGACO_ENC_APER + 1]; /* by megaco_encoding; [0] unused */
	uint64_t by_version[100];
	uint64_t tx[TX_KINDS];
	uint64_t commands[2][COMMANDS];
} stats_counts;
/* What --stats takes in capture order, a message's in message order: the
 * requests, pendings and replies it matches up (kind a tx_kind, value the
 * transaction ID) and the error codes it counts (kind STATS_ERROR). */
enum { STATS_ERROR = TX_KINDS };
typedef struct stats_event {
	uint32_t value;
	uint8_t kind;
} stats_event;
typedef struct stats_events {
	stats_event *p;
	size_t len, cap;
} stats_events;
stats *stats_new(void);
/* One decoded message, on a decoding thread: counts it into c and appends
 * its events to ev; 0, or -1 out of memory (its events cut short). */
int stats_collect(stats_counts *c, stats_events *ev, const struct MegacoMessage *m,
                  megaco_encoding enc);
/* A message's events, in capture order. */
void stats_count(stats *s, const dump_origin *o, const stats_event *ev, size_t n);
/* Adds c to s and zeroes it. */
void stats_merge(stats *s, stats_counts *c);
void stats_failure(stats *s, int code);
void stats_report(stats *s, dump_ctx *ctx, FILE *to);
void stats_free(stats *s);

/* msglog.c */
typedef enum log_format { LOG_TEXT, LOG_BER } log_format;
msglog_writer *msglog_open(const char *path, log_format fmt);
log_format msglog_format(const msglog_writer *w);
/* The message in the log's encoding, appended to b (on a decoding thread);
 * 0, or -1 with why it cannot be written appended to why. */
int msglog_encode(log_format fmt, const megaco_options *opts, const megaco_message *m, strbuf *b,
                  strbuf *why);
/* Appends one record: where it came from and the message msglog_encode made. */
void msglog_put(msglog_writer *w, const dump_origin *o, const char *msg, size_t n);
int msglog_close(msglog_writer *w); /* 0, or -1 on a write error */
/* Reads a log (either format, detected) and hands every record to
 * dump_message(). scan_tid >= 0: the fast scan, which hands over only
 * records carrying that transaction ID, found without decoding. */
int msglog_read(dump_ctx *ctx, const char *path, long long scan_tid);

/* megaco_dump.c: one message, in two halves. dump_render() runs on a
 * decoding thread: it decodes, applies the filters and makes the output,
 * the log record and the facts for --stats, appending them to a batch's
 * rendered buffers (the model is freed there, while it is in that CPU's
 * cache); dump_apply() runs on the reading thread, in capture order: it
 * counts, writes and keeps the statistics. */
typedef struct dump_result dump_result;
typedef struct rendered {
	strbuf out, log;
	stats_events events; /* --stats */
	stats_counts counts;
	dump_result *res; /* one per message */
	size_t nres, capres;
} rendered;
struct dump_result {
	const dump_origin *o; /* where it came from (dump_render's o) */
	megaco_encoding enc;
	int rc;            /* the decode's status */
	int passed;        /* decoded and passed the filters */
	int log_failed;    /* [log_off, +log_len) says why instead */
	size_t out_off, out_len;
	size_t log_off, log_len;
	size_t ev_off, nev;
};
/* Appends a result per message to rb->res (text messages one after the
 * other are split here), each pointing to o; 0, or -1 out of memory. */
int dump_render(dump_ctx *ctx, rendered *rb, const dump_origin *o, const uint8_t *msg, size_t len);
void dump_apply(dump_ctx *ctx, const rendered *rb, const dump_result *r);
/* After a batch's last dump_apply(): adds what it counted to --stats, and
 * empties rb for the next batch (memory kept, up to a bound). */
void dump_apply_done(dump_ctx *ctx, rendered *rb);
void rendered_free(rendered *rb);

#endif
