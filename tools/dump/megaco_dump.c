/*
 * megaco-dump: decode the Megaco/H.248 messages of a packet capture (pcap,
 * pcapng) or a message log, filter them, and print a line per message, the
 * whole message, JSON Lines, statistics, or a new log. See dump.h for the
 * pipeline and docs/megaco-dump.md for the usage.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "MegacoMessage.h"
#include "dump.h"

#define MAX_THREADS 64

static void usage(FILE *to)
{
	fprintf(to,
	        "usage: megaco-dump [OPTIONS] [CAPTURE]     (pcap or pcapng; default or '-': stdin)\n"
	        "       megaco-dump [OPTIONS] --log FILE    (a log written by --write-log)\n"
	        "Output (default: one summary line per message):\n"
	        "  --to compact|pretty   the whole message, after a ';' summary line\n"
	        "  --json                JSON Lines: every field of each message\n"
	        "  --stats               counts, decode failures, transaction response times\n"
	        "  --count               only the number of matching messages\n"
	        "  --last                only the last matching message\n"
	        "  --write-log FILE      write the matching messages as a log\n"
	        "  --log-format text|ber the log's format (default text)\n"
	        "Input:\n"
	        "  --port N              UDP/TCP/SCTP port carrying Megaco (added to 2944 and 2945)\n"
	        "  --log FILE            read a message log instead of a capture\n"
	        "  --scan                with --log and one --tid: find records by a scan of the\n"
	        "                        bytes, decoding only those that match\n"
	        "  --layout BITS/BITS/.. termination-ID layout for binary IDs (default 8/8/8)\n"
	        "  --threads N           decoding threads besides the reading one, which decodes\n"
	        "                        too (default: one less than the CPUs; 0: it alone)\n"
	        "Filters (each may repeat: any value matches; different filters all apply):\n"
	        "  --tid N  --ctx N|$|*|-  --term PATTERN (* wildcard)  --command NAME\n"
	        "  --mid PATTERN  --encoding pretty|compact|text|ber|per|aper\n"
	        "  --msg-version N  --errors\n"
	        "  --help, --version\n"
	        "Exit status: 0; 1 when a message did not decode or the input was cut short;\n"
	        "2 on a usage or I/O error.\n");
}

/* --- helpers shared by the stages ---------------------------------------- */

void endpoint_format(const dump_endpoint *ep, char *buf, size_t cap)
{
	if (ep->family == 4) {
		snprintf(buf, cap, "%u.%u.%u.%u:%u", ep->addr[0], ep->addr[1], ep->addr[2],
		         ep->addr[3], ep->port);
	} else if (ep->family == 6) {
		/* RFC 5952: lower case, the longest run of zero groups as "::" */
		unsigned g[8];
		for (int i = 0; i < 8; i++)
			g[i] = (unsigned)ep->addr[2 * i] << 8 | ep->addr[2 * i + 1];
		int best = -1, bestlen = 1;
		for (int i = 0; i < 8;) {
			int j = i;
			while (j < 8 && g[j] == 0)
				j++;
			if (j - i > bestlen)
				best = i, bestlen = j - i;
			i = j > i ? j : i + 1;
		}
		size_t n = 0;
		n += (size_t)snprintf(buf + n, cap - n, "[");
		for (int i = 0; i < 8 && n < cap; i++) {
			if (i == best) {
				n += (size_t)snprintf(buf + n, cap - n, "::");
				i += bestlen - 1;
				continue;
			}
			n += (size_t)snprintf(buf + n, cap - n, "%s%x",
			                      i && i != best + bestlen ? ":" : "", g[i]);
		}
		if (n < cap)
			snprintf(buf + n, cap - n, "]:%u", ep->port);
	} else {
		snprintf(buf, cap, "-");
	}
}

void dump_note(dump_ctx *ctx, const char *fmt, ...)
{
	pipeline_drain(ctx);
	fflush(ctx->app->out);
	fputs("megaco-dump: ", stderr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void dump_warn(dump_ctx *ctx, const dump_origin *o, const char *fmt, ...)
{
	char src[64], dst[64];
	pipeline_drain(ctx);
	endpoint_format(&o->src, src, sizeof src);
	endpoint_format(&o->dst, dst, sizeof dst);
	fflush(ctx->app->out);
	fprintf(stderr, "megaco-dump: frame %llu %s -> %s: ", (unsigned long long)o->frame, src, dst);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ctx->warnings++;
}

static double now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Progress on a terminal, at most twice a second. */
static void progress(dump_ctx *ctx, int final)
{
	dump_app *app = ctx->app;
	if (!app->progress)
		return;
	double t = now_mono();
	if (!final && t - app->progress_at < 0.5)
		return;
	app->progress_at = t;
	fprintf(stderr, "\r%llu frames, %llu messages, %llu matched, %llu failed%s",
	        (unsigned long long)ctx->frames, (unsigned long long)app->messages,
	        (unsigned long long)app->matched, (unsigned long long)app->failed,
	        final ? "\n" : "");
}

/* --- the message sink ---------------------------------------------------- */

static void emit(dump_app *app, const char *p, size_t n)
{
	if (app->last_only) {
		/* keep only the last record */
		if (n > app->last_cap) {
			char *q = realloc(app->last_line, n);
			if (!q)
				return;
			app->last_line = q, app->last_cap = n;
		}
		memcpy(app->last_line, p, n);
		app->last_len = n;
	} else {
		fwrite(p, 1, n, app->out);
	}
}

/* --- one message: decoded and rendered on a decoding thread ----------------- */

static void render_error(dump_ctx *ctx, strbuf *b, const dump_origin *o, megaco_encoding enc,
                         int rc, const megaco_error *e)
{
	if (ctx->app->output == OUT_JSON) {
		/* a JSON record of its own, so every line stays JSON */
		char src[64], dst[64];
		endpoint_format(&o->src, src, sizeof src);
		endpoint_format(&o->dst, dst, sizeof dst);
		sb_printf(b, "{\"frame\":%llu,\"src\":\"%s\",\"dst\":\"%s\",\"error\":\"%s\",\"offset\":%zu}\n",
		          (unsigned long long)o->frame, src, dst, megaco_strerror(rc), e->offset);
		return;
	}
	output_origin(ctx, b, o);
	sb_printf(b, "%s decode error: %s", megaco_encoding_name(enc), megaco_strerror(rc));
	if (e->line)
		sb_printf(b, " at line %u, column %u", e->line, e->column);
	else
		sb_printf(b, " at byte %zu", e->offset);
	sb_printf(b, ": %s\n", e->message);
}

/* Decodes and renders one message into r; 0. With split set, a text decode
 * that fails where the next message's header starts returns that offset
 * instead (the caller then renders [0, offset) and goes on there). */
static size_t render_one(dump_ctx *ctx, rendered *rb, const dump_origin *o, const uint8_t *msg,
                         size_t len, int split, dump_result *r)
{
	dump_app *app = ctx->app;
	strbuf *b = &rb->out;
	memset(r, 0, sizeof *r);
	r->o = o;
	r->out_off = b->len;
	r->log_off = rb->log.len;
	r->ev_off = rb->events.len;
	r->enc = MEGACO_ENC_AUTO;
	megaco_detect(msg, len, &r->enc, NULL);
	megaco_message *m = NULL;
	megaco_error err;
	r->rc = megaco_decode(r->enc, msg, len, &app->opts, &m, &err);
	if (r->rc != MEGACO_OK) {
		if (split && (r->enc == MEGACO_ENC_PRETTY || r->enc == MEGACO_ENC_COMPACT) &&
		    err.offset > 0 && err.offset < len && text_header_at(msg + err.offset, len - err.offset))
			return err.offset;
		if (app->output != OUT_NONE && !app->filtering)
			render_error(ctx, b, o, r->enc, r->rc, &err);
		r->out_len = b->len - r->out_off;
		return 0;
	}
	if (app->filtering && !filter_match(&app->filt, m, r->enc, &app->opts))
		goto done;
	r->passed = 1;
	/* (out of memory, the statistics miss the events that did not fit) */
	if (app->st)
		stats_collect(&rb->counts, &rb->events, megaco_message_model_const(m), r->enc);
	if (app->log)
		r->log_failed = msglog_encode(msglog_format(app->log), &app->opts, m, &rb->log, &rb->log);
	switch (app->output) {
	case OUT_SUMMARY:
		output_origin(ctx, b, o);
		output_summary(app, b, m, r->enc);
		sb_put(b, "\n", 1);
		break;
	case OUT_COMPACT:
	case OUT_PRETTY:
		sb_put(b, "; ", 2);
		output_origin(ctx, b, o);
		output_summary(app, b, m, r->enc);
		sb_put(b, "\n", 1);
		if (output_encoded(app, b, m, app->output == OUT_COMPACT ? MEGACO_ENC_COMPACT
		                                                          : MEGACO_ENC_PRETTY) == 0)
			sb_put(b, "\n", 1);
		break;
	case OUT_JSON:
		json_message(ctx, b, o, m, r->enc);
		sb_put(b, "\n", 1);
		break;
	case OUT_NONE:
		break;
	}
done:
	megaco_message_free(m);
	r->out_len = b->len - r->out_off;
	r->log_len = rb->log.len - r->log_off;
	r->nev = rb->events.len - r->ev_off;
	return 0;
}

int dump_render(dump_ctx *ctx, rendered *rb, const dump_origin *o, const uint8_t *msg, size_t len)
{
	/* (one call of render_one(), so that it is inlined here) */
	size_t n = len;
	int split = 1;
	for (;;) {
		if (rb->nres == rb->capres) {
			size_t cap = rb->capres ? rb->capres * 2 : 256;
			dump_result *p = realloc(rb->res, cap * sizeof *p);
			if (!p)
				return -1;
			rb->res = p, rb->capres = cap;
		}
		size_t next = render_one(ctx, rb, o, msg, n, split, &rb->res[rb->nres]);
		if (next) {
			/* The decoder stopped at another message's header: the
			 * first is what comes before it, decoded again on its own. */
			n = next, split = 0;
			continue;
		}
		rb->nres++;
		if (split)
			return 0;
		msg += n, len -= n;
		n = len, split = 1;
	}
}

/* --- ... and handed on in order on the reading thread ------------------------ */

void dump_apply(dump_ctx *ctx, const rendered *rb, const dump_result *r)
{
	const dump_origin *o = r->o;
	dump_app *app = ctx->app;
	if ((++app->messages & 0x3fff) == 0)
		progress(ctx, 0);
	if (r->rc != MEGACO_OK) {
		app->failed++;
		if (app->st)
			stats_failure(app->st, r->rc);
	} else if (r->passed) {
		app->matched++;
		if (app->st)
			stats_count(app->st, o, rb->events.p + r->ev_off, r->nev);
		if (app->log && r->log_failed)
			dump_warn(ctx, o, "%.*s", (int)r->log_len, rb->log.p + r->log_off);
		else if (app->log)
			msglog_put(app->log, o, rb->log.p + r->log_off, r->log_len);
	}
	if (r->out_len)
		emit(app, rb->out.p + r->out_off, r->out_len);
}

/* A batch's buffers keep their memory for the next one, unless a huge
 * message made them grow past this. */
#define RENDERED_KEPT (1u << 20)

void dump_apply_done(dump_ctx *ctx, rendered *rb)
{
	if (ctx->app->st)
		stats_merge(ctx->app->st, &rb->counts);
	if (rb->out.cap > RENDERED_KEPT)
		sb_free(&rb->out);
	if (rb->log.cap > RENDERED_KEPT)
		sb_free(&rb->log);
	rb->out.len = rb->log.len = rb->events.len = rb->nres = 0;
}

void rendered_free(rendered *rb)
{
	sb_free(&rb->out);
	sb_free(&rb->log);
	free(rb->events.p);
	free(rb->res);
	memset(rb, 0, sizeof *rb);
}

/* --- options ------------------------------------------------------------- */

static megaco_tid_layout *parse_layout(const char *spec)
{
	unsigned bits[16];
	size_t n = 0;
	const char *p = spec;
	while (*p && n < 16) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || v == 0 || v > 64 || (*end && *end != '/'))
			break;
		bits[n++] = (unsigned)v;
		p = *end ? end + 1 : end;
	}
	megaco_tid_layout *layout = NULL;
	if (*p || megaco_tid_layout_new(bits, n, NULL, &layout) != MEGACO_OK) {
		fprintf(stderr, "megaco-dump: bad layout '%s' (bits per level, e.g. 8/8/8)\n", spec);
		return NULL;
	}
	return layout;
}

static int is_filter_option(const char *a)
{
	static const char *const names[] = { "--tid", "--ctx", "--term", "--command", "--mid",
	                                      "--encoding", "--msg-version" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(a, names[i]))
			return 1;
	return 0;
}

static int parse_port(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (end == s || *end || v == 0 || v > 65535)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int main(int argc, char **argv)
{
	dump_app app;
	dump_ctx ctx;
	memset(&app, 0, sizeof app);
	memset(&ctx, 0, sizeof ctx);
	ctx.app = &app;
	app.out = stdout;
	megaco_options_init(&app.opts);
	ctx.ports[ctx.nports++] = 2944;
	ctx.ports[ctx.nports++] = 2945;
	const char *input = NULL, *log_in = NULL, *log_out = NULL;
	log_format log_fmt = LOG_TEXT;
	int want_stats = 0, count_only = 0, scan = 0, status = 2;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* One per CPU, the reading thread counted: it decodes whenever the ring
	 * of batches is full, so one thread more would make three take turns on
	 * two CPUs (and lose their caches to each other). */
	unsigned threads = ncpu > 1 ? (unsigned)(ncpu <= MAX_THREADS ? ncpu - 1 : MAX_THREADS) : 0;
	megaco_tid_layout *layout = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			status = 0;
			goto done;
		} else if (!strcmp(a, "--version")) {
			printf("megaco-dump (libmegaco) %s\ncaptures: %s\n", megaco_version(),
			       capture_library());
			status = 0;
			goto done;
		} else if (!strcmp(a, "--to") && val) {
			if (!strcmp(val, "compact"))
				app.output = OUT_COMPACT;
			else if (!strcmp(val, "pretty"))
				app.output = OUT_PRETTY;
			else {
				fprintf(stderr, "megaco-dump: --to takes compact or pretty, not '%s'\n", val);
				goto done;
			}
			i++;
		} else if (!strcmp(a, "--json")) {
			app.output = OUT_JSON;
		} else if (!strcmp(a, "--stats")) {
			want_stats = 1;
		} else if (!strcmp(a, "--count")) {
			count_only = 1;
		} else if (!strcmp(a, "--last")) {
			app.last_only = 1;
		} else if (!strcmp(a, "--scan")) {
			scan = 1;
		} else if (!strcmp(a, "--port") && val) {
			unsigned port;
			if (parse_port(val, &port) || ctx.nports >= sizeof ctx.ports / sizeof ctx.ports[0]) {
				fprintf(stderr, "megaco-dump: bad port '%s'\n", val);
				goto done;
			}
			ctx.ports[ctx.nports++] = port;
			i++;
		} else if (!strcmp(a, "--threads") && val) {
			char *end;
			unsigned long v = strtoul(val, &end, 10);
			if (end == val || *end || v > MAX_THREADS) {
				fprintf(stderr, "megaco-dump: --threads takes 0 to %d, not '%s'\n", MAX_THREADS, val);
				goto done;
			}
			threads = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--log") && val) {
			log_in = val;
			i++;
		} else if (!strcmp(a, "--write-log") && val) {
			log_out = val;
			i++;
		} else if (!strcmp(a, "--log-format") && val) {
			if (!strcmp(val, "text"))
				log_fmt = LOG_TEXT;
			else if (!strcmp(val, "ber"))
				log_fmt = LOG_BER;
			else {
				fprintf(stderr, "megaco-dump: --log-format takes text or ber, not '%s'\n", val);
				goto done;
			}
			i++;
		} else if (!strcmp(a, "--layout") && val) {
			megaco_tid_layout_free(layout);
			if (!(layout = parse_layout(val)))
				goto done;
			app.opts.tid_layout = layout;
			i++;
		} else if (!strcmp(a, "--errors")) {
			app.filt.errors = 1;
		} else if (is_filter_option(a)) {
			if (!val) {
				fprintf(stderr, "megaco-dump: %s needs a value\n", a);
				goto done;
			}
			if (filter_add(&app.filt, a, val))
				goto done;
			i++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "megaco-dump: unknown option '%s'\n", a);
			usage(stderr);
			goto done;
		} else if (!input) {
			input = a;
		} else {
			usage(stderr);
			goto done;
		}
	}
	if (scan && (!log_in || app.filt.ntid != 1)) {
		fprintf(stderr, "megaco-dump: --scan works on --log with exactly one --tid\n");
		goto done;
	}
	if (log_in && input) {
		fprintf(stderr, "megaco-dump: give either a capture or --log, not both\n");
		goto done;
	}
	app.filtering = filter_active(&app.filt);
	if (count_only || want_stats)
		app.output = app.output == OUT_SUMMARY ? OUT_NONE : app.output;
	if (want_stats && !(app.st = stats_new()))
		goto oom;
	if (log_out && !(app.log = msglog_open(log_out, log_fmt)))
		goto done;
	if (!(ctx.frags = ip_frag_new()) || !(ctx.tcp = tcp_table_new()) ||
	    !(ctx.sctp = sctp_table_new()) ||
	    !pipeline_new(&ctx, threads))
		goto oom;
	app.progress = isatty(2) && !isatty(1) ? 1 : isatty(2) && app.output == OUT_NONE;

	int rc = log_in ? msglog_read(&ctx, log_in, scan ? (long long)app.filt.tid[0] : -1)
	                : capture_run(&ctx, input ? input : "-");
	pipeline_drain(&ctx);
	tcp_table_free(&ctx, ctx.tcp);
	ctx.tcp = NULL;
	sctp_table_free(&ctx, ctx.sctp);
	ctx.sctp = NULL;
	progress(&ctx, 1);
	/* (an input that could not be opened has no count or statistics) */
	if (app.last_only && app.last_len)
		fwrite(app.last_line, 1, app.last_len, app.out);
	if (count_only && rc != 2)
		fprintf(app.out, "%llu\n", (unsigned long long)app.matched);
	if (app.st && rc != 2)
		stats_report(app.st, &ctx, app.out);
	if (app.log && msglog_close(app.log)) {
		fprintf(stderr, "megaco-dump: %s: write error\n", log_out);
		rc = 2;
	}
	app.log = NULL;
	if (fflush(app.out) || ferror(app.out)) {
		fprintf(stderr, "megaco-dump: write error on standard output\n");
		rc = 2;
	}
	status = rc == 2 ? 2 : (rc || app.failed) ? 1 : 0;
	goto done;
oom:
	fprintf(stderr, "megaco-dump: out of memory\n");
	status = 2;
done:
	pipeline_free(&ctx);
	if (app.log)
		msglog_close(app.log);
	tcp_table_free(&ctx, ctx.tcp);
	sctp_table_free(&ctx, ctx.sctp);
	ip_frag_free(ctx.frags);
	stats_free(app.st);
	free(app.last_line);
	megaco_tid_layout_free(layout);
	return status;
}
