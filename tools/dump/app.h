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
	stats *st;             /* --stats, else NULL */
	msglog_writer *log;    /* --write-log, else NULL */
	FILE *out;
	int last_only;         /* --last: print only the last match */
	uint64_t messages;     /* messages found */
	uint64_t failed;       /* messages that did not decode */
	uint64_t matched;      /* decoded messages that passed the filters */
	char *last_line;       /* --last: the last match's output */
	size_t last_len, last_cap;
	int progress;          /* stderr is a terminal: show progress */
	double progress_at;    /* monotonic time of the last progress line */
	char *encbuf;          /* encode buffer for --to */
	size_t enccap;
} dump_app;

/* filter.c: parse one option value into f; 0 or -1 (message printed) */
int filter_add(filter *f, const char *opt, const char *val);
int filter_active(const filter *f);
int filter_match(const filter *f, const megaco_message *m, megaco_encoding enc,
                 const megaco_options *opts);

/* output.c */
/* Writes a whole output record for m to the buffer b (growing) */
typedef struct strbuf {
	char *p;
	size_t len, cap;
} strbuf;
void sb_put(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(strbuf *b);
void output_origin(dump_ctx *ctx, strbuf *b, const dump_origin *o);
void output_summary(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding enc);
/* --to compact|pretty: the message re-encoded; 0 or -1 with an error line */
int output_encoded(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding to);

/* json.c: one JSON object (no newline) for the message and where it came from */
void json_message(dump_ctx *ctx, strbuf *b, const dump_origin *o, const megaco_message *m,
                  megaco_encoding enc);

/* stats.c */
stats *stats_new(void);
void stats_message(stats *s, const dump_origin *o, const megaco_message *m, megaco_encoding enc);
void stats_failure(stats *s, int code);
void stats_report(stats *s, dump_ctx *ctx, FILE *to);
void stats_free(stats *s);

/* msglog.c */
typedef enum log_format { LOG_TEXT, LOG_BER } log_format;
msglog_writer *msglog_open(const char *path, log_format fmt);
/* Appends one record; 0, or -1 when the message cannot be written in the
 * log's encoding (reported). */
int msglog_write(msglog_writer *w, dump_ctx *ctx, const dump_origin *o, const megaco_message *m);
int msglog_close(msglog_writer *w); /* 0, or -1 on a write error */
/* Reads a log (either format, detected) and hands every record to
 * dump_message(). scan_tid >= 0: the fast scan, which hands over only
 * records carrying that transaction ID, found without decoding. */
int msglog_read(dump_ctx *ctx, const char *path, long long scan_tid);

#endif
