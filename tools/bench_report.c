/*
 * megaco-bench: writes the results as an aligned table, CSV, JSON or YAML.
 * The JSON is also what tools/erl/megaco-bench.escript emits, so both sides
 * read each other's output (bench_erlang.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "megaco_bench.h"

const char *bench_status_name(row_status s)
{
	switch (s) {
	case ROW_OK:
		return "ok";
	case ROW_FAILED:
		return "failed";
	default:
		return "unavailable";
	}
}

void bench_row_label(const bench_row *row, char *buf, size_t cap)
{
	if (row->config[0])
		snprintf(buf, cap, "%s [%s]", row->codec, row->config);
	else
		snprintf(buf, cap, "%s", row->codec);
}

/* Scanner-only rows tokenise the input: no encode, and "size" is the input's. */
static int scan_only(const bench_row *r) { return !strcmp(r->config, "scanner-only"); }

/* A scanner-only row's paired decode, and decode / scan; NAN where there is none. */
static double paired_us(const bench_row *r)
{
	return r->status == ROW_OK && scan_only(r) && r->paired_decode_ns > 0
	           ? r->paired_decode_ns / 1e3 : NAN;
}

static double decode_per_scan(const bench_row *r)
{
	return !isnan(paired_us(r)) && r->decode_ns > 0 ? r->paired_decode_ns / r->decode_ns : NAN;
}

/* A non-reentrant row's paired decodes, and reentrant / non-reentrant; NAN where there are none. */
static double paired_nr_us(const bench_row *r)
{
	return r->status == ROW_OK && r->paired_nr_ns > 0 && r->paired_re_ns > 0
	           ? r->paired_nr_ns / 1e3 : NAN;
}

static double paired_re_us(const bench_row *r)
{
	return !isnan(paired_nr_us(r)) ? r->paired_re_ns / 1e3 : NAN;
}

static double re_per_nr(const bench_row *r)
{
	return !isnan(paired_nr_us(r)) ? r->paired_re_ns / r->paired_nr_ns : NAN;
}

static double ratio(double num, double den)
{
	return den > 0 && num > 0 ? num / den : NAN;
}

size_t bench_ratios(const bench_report *r, bench_ratio *out, size_t cap)
{
	size_t n = 0;
	for (size_t e = 0; e < r->n_erl && n < cap; e++) {
		const bench_row *t = &r->erl_rows[e], *o = NULL;
		/* our primary row: the first full codec row (reentrant for text) */
		for (size_t i = 0; i < r->nrows && !o; i++)
			if (!strcmp(r->rows[i].codec, t->codec) && strcmp(r->rows[i].config, "scanner-only"))
				o = &r->rows[i];
		if (!o)
			continue;
		bench_ratio *q = &out[n++];
		q->ours = o;
		q->theirs = t;
		int ok = o->status == ROW_OK && t->status == ROW_OK;
		q->size = ok ? ratio(t->size, o->size) : NAN;
		q->encode = ok ? ratio(t->encode_ns, o->encode_ns) : NAN;
		q->decode = ok ? ratio(t->decode_ns, o->decode_ns) : NAN;
		q->total = ok ? ratio(t->total_ns, o->total_ns) : NAN;
		q->msgs_per_s = ok ? ratio(o->msgs_per_s, t->msgs_per_s) : NAN;
	}
	return n;
}

/* ---- JSON and YAML share string quoting (YAML double quotes take JSON escapes) */

static void quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void number(FILE *f, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, v);
}

typedef struct emitter {
	FILE *f;
	int json;
	int indent;
	int first;  /* JSON: no comma yet at this level */
	int inline_key; /* YAML: the next key follows a sequence item's "- " */
} emitter;

/* Key of the next member, at the current level (JSON: comma handling). */
static void key(emitter *e, const char *k)
{
	if (e->json) {
		fprintf(e->f, "%s\n%*s", e->first ? "" : ",", e->indent * 2, "");
		quoted(e->f, k);
		fputs(": ", e->f);
	} else if (e->inline_key) {
		fprintf(e->f, "%s: ", k);
		e->inline_key = 0;
	} else {
		fprintf(e->f, "%*s%s: ", e->indent * 2, "", k);
	}
	e->first = 0;
}

static void kv_str(emitter *e, const char *k, const char *v)
{
	key(e, k);
	quoted(e->f, v);
	if (!e->json)
		fputc('\n', e->f);
}

static void kv_num(emitter *e, const char *k, double v, int decimals)
{
	key(e, k);
	number(e->f, v, decimals);
	if (!e->json)
		fputc('\n', e->f);
}

static void open_map(emitter *e, const char *k)
{
	if (k)
		key(e, k);
	if (e->json)
		fputc('{', e->f);
	else if (k)
		fputc('\n', e->f);
	e->indent++;
	e->first = 1;
}

static void close_map(emitter *e)
{
	e->indent--;
	if (e->json)
		fprintf(e->f, "\n%*s}", e->indent * 2, "");
	e->first = 0;
}

static void open_seq(emitter *e, const char *k)
{
	key(e, k);
	fputs(e->json ? "[" : "\n", e->f);
	e->first = 1;
}

static void close_seq(emitter *e)
{
	if (e->json)
		fprintf(e->f, "\n%*s]", e->indent * 2, "");
	e->first = 0;
}

/* A map that is an item of the sequence just opened. */
static void open_item(emitter *e)
{
	if (e->json) {
		fprintf(e->f, "%s\n%*s{", e->first ? "" : ",", (e->indent + 1) * 2, "");
		e->indent += 2;
	} else {
		fprintf(e->f, "%*s- ", (e->indent + 1) * 2, "");
		e->indent += 2;
		e->inline_key = 1;
	}
	e->first = 1;
}

static void close_item(emitter *e)
{
	e->indent -= 2;
	if (e->json)
		fprintf(e->f, "\n%*s}", (e->indent + 1) * 2, "");
	e->first = 0;
}

static void emit_host(emitter *e, const char *k, const bench_host *h)
{
	open_map(e, k);
	for (size_t i = 0; i < h->n; i++)
		kv_str(e, h->kv[i].key, h->kv[i].value);
	close_map(e);
}

static void emit_row(emitter *e, const bench_row *r)
{
	open_item(e);
	kv_str(e, "impl", r->impl);
	kv_str(e, "codec", r->codec);
	kv_str(e, "config", r->config);
	kv_str(e, "status", bench_status_name(r->status));
	kv_str(e, "error", r->error);
	kv_num(e, "messages", (double)r->messages, 0);
	int ok = r->status == ROW_OK;
	kv_num(e, "size", ok ? r->size : NAN, 2);
	kv_num(e, "encode_us", ok && !scan_only(r) ? r->encode_ns / 1e3 : NAN, 3);
	kv_num(e, "decode_us", ok ? r->decode_ns / 1e3 : NAN, 3);
	kv_num(e, "total_us", ok ? r->total_ns / 1e3 : NAN, 3);
	kv_num(e, "msgs_per_s", ok ? r->msgs_per_s : NAN, 0);
	kv_num(e, "threads", r->threads, 0);
	kv_num(e, "mt_msgs_per_s", ok && r->threads > 1 ? r->mt_msgs_per_s : NAN, 0);
	kv_num(e, "mt_one_thread_msgs_per_s", ok && r->threads > 1 ? r->mt_one_msgs_per_s : NAN, 0);
	kv_num(e, "speedup", ok && r->threads > 1 ? r->speedup : NAN, 2);
	kv_num(e, "host_speedup", ok && r->threads > 1 && r->host_speedup > 0 ? r->host_speedup : NAN, 2);
	kv_num(e, "paired_decode_us", paired_us(r), 3);
	kv_num(e, "decode_per_scan", decode_per_scan(r), 3);
	kv_num(e, "paired_non_reentrant_us", paired_nr_us(r), 3);
	kv_num(e, "paired_reentrant_us", paired_re_us(r), 3);
	kv_num(e, "reentrant_per_non_reentrant", re_per_nr(r), 3);
	close_item(e);
}

static void emit_rows(emitter *e, const char *k, const bench_row *rows, size_t n)
{
	open_seq(e, k);
	for (size_t i = 0; i < n; i++)
		emit_row(e, &rows[i]);
	close_seq(e);
}

static void write_structured(FILE *f, const bench_report *r, int json)
{
	emitter e = { f, json, 0, 1, 0 };
	if (json)
		fputc('{', f);
	else
		fputs("---\n", f);
	e.indent = json ? 1 : 0;
	kv_str(&e, "tool", "megaco-bench");
	kv_str(&e, "implementation", "libmegaco");
	emit_host(&e, "host", &r->host);
	kv_str(&e, "method", r->method);
	kv_str(&e, "corpus", r->corpus_dir);
	kv_str(&e, "set", r->set);
	kv_str(&e, "messages_glob", r->glob ? r->glob : "*");
	kv_num(&e, "messages", (double)r->messages, 0);
	kv_num(&e, "min_time_s", r->min_time, 6);
	kv_num(&e, "repeat", r->repeat, 0);
	kv_num(&e, "threads", r->threads, 0);
	kv_str(&e, "clock", r->clock ? r->clock : "wall");
	emit_rows(&e, "rows", r->rows, r->nrows);
	if (r->compare) {
		open_map(&e, "erlang");
		emit_host(&e, "host", &r->erl_host);
		emit_rows(&e, "rows", r->erl_rows, r->n_erl);
		close_map(&e);
		bench_ratio q[32];
		size_t nq = bench_ratios(r, q, 32);
		open_seq(&e, "ratios");
		for (size_t i = 0; i < nq; i++) {
			char a[64], b[64];
			bench_row_label(q[i].ours, a, sizeof a);
			bench_row_label(q[i].theirs, b, sizeof b);
			open_item(&e);
			kv_str(&e, "ours", a);
			kv_str(&e, "erlang", b);
			kv_num(&e, "size", q[i].size, 3);
			kv_num(&e, "encode", q[i].encode, 3);
			kv_num(&e, "decode", q[i].decode, 3);
			kv_num(&e, "total", q[i].total, 3);
			kv_num(&e, "msgs_per_s", q[i].msgs_per_s, 3);
			close_item(&e);
		}
		close_seq(&e);
	}
	if (json)
		fputs("\n}\n", f);
}

/* ---- CSV */

static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void csv_num(FILE *f, double v, int decimals)
{
	fputc(',', f);
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.*f", decimals, v);
}

static void csv_row(FILE *f, const bench_row *r)
{
	int ok = r->status == ROW_OK;
	csv_field(f, r->impl);
	fputc(',', f);
	csv_field(f, r->codec);
	fputc(',', f);
	csv_field(f, r->config);
	fprintf(f, ",%s,%zu", bench_status_name(r->status), r->messages);
	csv_num(f, ok ? r->size : NAN, 2);
	csv_num(f, ok && !scan_only(r) ? r->encode_ns / 1e3 : NAN, 3);
	csv_num(f, ok ? r->decode_ns / 1e3 : NAN, 3);
	csv_num(f, ok ? r->total_ns / 1e3 : NAN, 3);
	csv_num(f, ok ? r->msgs_per_s : NAN, 0);
	fprintf(f, ",%u", r->threads);
	csv_num(f, ok && r->threads > 1 ? r->mt_msgs_per_s : NAN, 0);
	csv_num(f, ok && r->threads > 1 ? r->mt_one_msgs_per_s : NAN, 0);
	csv_num(f, ok && r->threads > 1 ? r->speedup : NAN, 2);
	csv_num(f, ok && r->threads > 1 && r->host_speedup > 0 ? r->host_speedup : NAN, 2);
	csv_num(f, paired_us(r), 3);
	csv_num(f, decode_per_scan(r), 3);
	csv_num(f, paired_nr_us(r), 3);
	csv_num(f, paired_re_us(r), 3);
	csv_num(f, re_per_nr(r), 3);
	fputc(',', f);
	csv_field(f, r->error);
	fputc('\n', f);
}

static void write_csv(FILE *f, const bench_report *r)
{
	fputs("impl,codec,config,status,messages,size_bytes,encode_us,decode_us,total_us,"
	      "msgs_per_s,threads,mt_msgs_per_s,mt_one_thread_msgs_per_s,speedup,host_speedup,"
	      "paired_decode_us,decode_per_scan,"
	      "paired_non_reentrant_us,paired_reentrant_us,reentrant_per_non_reentrant,error\n",
	      f);
	for (size_t i = 0; i < r->nrows; i++)
		csv_row(f, &r->rows[i]);
	if (!r->compare)
		return;
	for (size_t i = 0; i < r->n_erl; i++)
		csv_row(f, &r->erl_rows[i]);
	bench_ratio q[32];
	size_t nq = bench_ratios(r, q, 32);
	for (size_t i = 0; i < nq; i++) {
		char a[64], b[64], cfg[140];
		bench_row_label(q[i].ours, a, sizeof a);
		bench_row_label(q[i].theirs, b, sizeof b);
		snprintf(cfg, sizeof cfg, "%s vs %s", a, b);
		fprintf(f, "ratio,%s,", q[i].ours->codec);
		csv_field(f, cfg);
		fprintf(f, ",ok,");
		csv_num(f, q[i].size, 3);
		csv_num(f, q[i].encode, 3);
		csv_num(f, q[i].decode, 3);
		csv_num(f, q[i].total, 3);
		csv_num(f, q[i].msgs_per_s, 3);
		fputs(",,,,,,,,,,,\n", f);
	}
}

/* ---- aligned table */

static void cell(FILE *f, double v, int width, int decimals)
{
	if (isnan(v) || isinf(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.*f", width, decimals, v);
}

static void table_row(FILE *f, const bench_row *r, int with_impl, unsigned threads)
{
	char label[64];
	bench_row_label(r, label, sizeof label);
	fprintf(f, "%-26s", label);
	if (with_impl)
		fprintf(f, " %-9s", r->impl);
	if (r->status != ROW_OK) {
		fprintf(f, " %5zu  %s: %s\n", r->messages, r->status == ROW_FAILED ? "FAILED" : "unavailable",
		        r->error);
		return;
	}
	fprintf(f, " %5zu", r->messages);
	cell(f, r->size, 8, 1);
	cell(f, scan_only(r) ? NAN : r->encode_ns / 1e3, 10, 3);
	cell(f, r->decode_ns / 1e3, 10, 3);
	cell(f, r->total_ns / 1e3, 10, 3);
	cell(f, r->msgs_per_s, 11, 0);
	if (threads > 1) {
		cell(f, r->threads > 1 ? r->mt_msgs_per_s : NAN, 13, 0);
		cell(f, r->threads > 1 ? r->speedup : NAN, 8, 2);
	}
	fputc('\n', f);
	if (*r->error) /* an ok row's note: messages it left out */
		fprintf(f, "%-*s %s\n", with_impl ? 36 : 26, "", r->error);
	if (!isnan(decode_per_scan(r)))
		fprintf(f, "%-*s decode / scanner-only %.2f (full decode %.3f us, timed in turn with "
		           "the scan)\n", with_impl ? 36 : 26, "", decode_per_scan(r), paired_us(r));
	if (!isnan(re_per_nr(r)))
		fprintf(f, "%-*s reentrant / non-reentrant decode %.3f (%.3f / %.3f us, timed in turn)\n",
		        with_impl ? 36 : 26, "", re_per_nr(r), paired_re_us(r), paired_nr_us(r));
	if (threads > 1 && r->threads > 1)
		fprintf(f, "%-*s %u threads / one thread %.2f (%.0f / %.0f msgs/s, timed in turn); "
		           "integer code meanwhile %.2f\n",
		        with_impl ? 36 : 26, "", r->threads, r->speedup, r->mt_msgs_per_s,
		        r->mt_one_msgs_per_s, r->host_speedup);
}

static void table_header(FILE *f, int with_impl, unsigned threads)
{
	fprintf(f, "%-26s", "codec and config");
	if (with_impl)
		fprintf(f, " %-9s", "impl");
	fprintf(f, " %5s %8s %10s %10s %10s %11s", "msgs", "size B", "encode us", "decode us",
	        "total us", "msgs/s");
	if (threads > 1) {
		char h[32];
		snprintf(h, sizeof h, "msgs/s x%u", threads);
		fprintf(f, " %13s %8s", h, "speed-up");
	}
	fputc('\n', f);
}

static void write_table(FILE *f, const bench_report *r)
{
	fputs("# megaco-bench\n", f);
	for (size_t i = 0; i < r->host.n; i++)
		fprintf(f, "# %-12s %s\n", r->host.kv[i].key, r->host.kv[i].value);
	if (r->compare)
		for (size_t i = 0; i < r->erl_host.n; i++)
			fprintf(f, "# erlang %-12s %s\n", r->erl_host.kv[i].key, r->erl_host.kv[i].value);
	fprintf(f, "# corpus       %s, set %s, messages %s (%zu)\n", r->corpus_dir, r->set,
	        r->glob ? r->glob : "*", r->messages);
	fprintf(f, "# min-time     %g s per operation and message, repeat %u (median), %s clock\n",
	        r->min_time, r->repeat, r->clock ? r->clock : "wall");
	fprintf(f, "# method       %s\n", r->method);
	if (!r->compare) {
		table_header(f, 0, r->threads);
		for (size_t i = 0; i < r->nrows; i++)
			table_row(f, &r->rows[i], 0, r->threads);
		return;
	}
	fputs("# ratio        Erlang / libmegaco for size and times, libmegaco / Erlang for msgs/s:"
	      " > 1 means libmegaco is smaller or faster\n",
	      f);
	fputs("# note         per is X.691 ALIGNED on both sides (the same bytes); uper, libmegaco's\n"
	      "#              UNALIGNED PER, has no Erlang counterpart\n",
	      f);
	table_header(f, 1, r->threads);
	bench_ratio q[32];
	size_t nq = bench_ratios(r, q, 32);
	static const char *const order[] = { "pretty", "compact", "ber", "per", "uper", "erl_dist" };
	for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
		for (size_t i = 0; i < r->nrows; i++)
			if (!strcmp(r->rows[i].codec, order[o]))
				table_row(f, &r->rows[i], 1, r->threads);
		for (size_t i = 0; i < r->n_erl; i++)
			if (!strcmp(r->erl_rows[i].codec, order[o]))
				table_row(f, &r->erl_rows[i], 1, 1);
		for (size_t i = 0; i < nq; i++) {
			if (strcmp(q[i].ours->codec, order[o]))
				continue;
			char b[64], label[80];
			bench_row_label(q[i].theirs, b, sizeof b);
			snprintf(label, sizeof label, "  ratio vs %s", b);
			fprintf(f, "%-26s %-9s %5s", label, "", "");
			cell(f, q[i].size, 8, 2);
			cell(f, q[i].encode, 10, 2);
			cell(f, q[i].decode, 10, 2);
			cell(f, q[i].total, 10, 2);
			cell(f, q[i].msgs_per_s, 11, 2);
			fputc('\n', f);
		}
	}
}

void bench_report_write(FILE *f, const bench_report *r, bench_format fmt)
{
	switch (fmt) {
	case FMT_CSV:
		write_csv(f, r);
		break;
	case FMT_JSON:
		write_structured(f, r, 1);
		break;
	case FMT_YAML:
		write_structured(f, r, 0);
		break;
	default:
		write_table(f, r);
		break;
	}
}
