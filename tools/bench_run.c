/*
 * megaco-bench: the order in which rows are measured.
 *
 * On our own, row after row, each with its --repeat runs back to back
 * (bench_measure_row takes the medians). Side by side with Erlang, the
 * ratios are what matter, and a shared host can slow down for a minute or
 * more: if all our rows ran first and all of Erlang's after, one slow phase
 * could land on one side only and skew every ratio. So the run goes codec by
 * codec, and for each codec run by run: our rows of that codec, then one
 * escript run for the same codec (or the other way round on every second
 * run, so a steady drift favours neither side). Each column is then the
 * median over the runs, on each side. erl_dist, which only Erlang has, goes
 * last in one escript run.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "megaco_bench.h"

/*
 * *out = the median row of runs[0..n) (the same row measured n times): a
 * failed run makes the row failed. Totals and msgs/s come from the medians,
 * so the columns always agree.
 */
static void row_median(const bench_row *runs, unsigned n, double *scratch, bench_row *out)
{
	*out = runs[0];
	for (unsigned i = 0; i < n; i++)
		if (runs[i].status != ROW_OK) {
			*out = runs[i];
			return;
		}
	static const size_t cols[] = {
		offsetof(bench_row, size), offsetof(bench_row, encode_ns),
		offsetof(bench_row, decode_ns), offsetof(bench_row, mt_msgs_per_s),
		offsetof(bench_row, paired_decode_ns), offsetof(bench_row, paired_nr_ns),
		offsetof(bench_row, paired_re_ns), offsetof(bench_row, mt_one_msgs_per_s),
		offsetof(bench_row, host_speedup),
	};
	for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
		for (unsigned i = 0; i < n; i++)
			scratch[i] = *(const double *)(const void *)((const char *)&runs[i] + cols[c]);
		*(double *)(void *)((char *)out + cols[c]) = bench_median(scratch, n);
	}
	out->total_ns = out->encode_ns + out->decode_ns;
	out->msgs_per_s = out->total_ns > 0 ? 1e9 / out->total_ns : 0;
	if (out->threads > 1)
		out->speedup = out->mt_one_msgs_per_s > 0 ? out->mt_msgs_per_s / out->mt_one_msgs_per_s : 0;
}

static int append_rows(bench_report *rep, const bench_row *rows, size_t n)
{
	bench_row *grown = realloc(rep->erl_rows, (rep->n_erl + n) * sizeof *grown);
	if (!grown)
		return -1;
	memcpy(grown + rep->n_erl, rows, n * sizeof *rows);
	rep->erl_rows = grown;
	rep->n_erl += n;
	return 0;
}

typedef struct side_by_side {
	const char *script;
	bench_report *rep;
	int progress;
	int failed; /* Erlang could not be run or read: no more attempts */
	char *why;
	size_t whycap;
} side_by_side;

/* One escript run for codec; 0 and *out filled, or -1 (s->failed, s->why set). */
static int erlang_once(side_by_side *s, const char *codec, unsigned repeat, bench_erlang_out *out)
{
	memset(out, 0, sizeof *out);
	if (s->failed)
		return -1;
	if (bench_erlang_run(s->script, s->rep, codec, repeat, s->progress, out, s->why,
	                     s->whycap) < 0) {
		s->failed = 1;
		free(out->rows);
		out->rows = NULL;
		return -1;
	}
	if (!s->rep->compare) {
		s->rep->erl_host = out->host;
		s->rep->compare = 1;
	}
	return 0;
}

/*
 * One codec: our k configs cfgs[0..k) into rows[0..k), and Erlang's rows
 * for the same codec, run by run; the medians.
 */
static void codec_side_by_side(side_by_side *s, const bench_config *cfgs, size_t k,
                               const bench_corpus *c, const bench_params *p, bench_row *rows)
{
	const char *codec = cfgs[0].codec;
	unsigned reps = p->repeat ? p->repeat : 1;
	bench_params once = *p;
	once.repeat = 1;
	bench_row *ours = calloc(k * reps, sizeof *ours);
	bench_row *theirs = NULL;
	size_t n_theirs = 0;
	unsigned theirs_runs = 0;
	double *scratch = calloc(reps, sizeof *scratch);
	if (!ours || !scratch) {
		snprintf(s->why, s->whycap, "out of memory");
		s->failed = 1;
		goto done;
	}
	for (unsigned r = 0; r < reps; r++) {
		for (int half = 0; half < 2; half++) {
			if (half == (int)(r % 2)) { /* our rows first on even runs */
				for (size_t j = 0; j < k; j++)
					bench_measure_row(&cfgs[j], c, &once, &ours[j * reps + r]);
				continue;
			}
			bench_erlang_out e;
			if (erlang_once(s, codec, 1, &e) < 0)
				continue;
			if (!theirs) {
				n_theirs = e.n;
				theirs = calloc(n_theirs * reps + 1, sizeof *theirs);
			}
			if (theirs && e.n == n_theirs) {
				for (size_t j = 0; j < e.n; j++)
					theirs[j * reps + theirs_runs] = e.rows[j];
				theirs_runs++;
			} else {
				snprintf(s->why, s->whycap, "the escript's %s rows changed between runs",
				         codec);
				s->failed = 1;
			}
			free(e.rows);
		}
	}
	for (size_t j = 0; j < k; j++)
		row_median(&ours[j * reps], reps, scratch, &rows[j]);
	if (theirs && theirs_runs == reps) {
		for (size_t j = 0; j < n_theirs; j++) {
			bench_row m;
			row_median(&theirs[j * reps], reps, scratch, &m);
			if (append_rows(s->rep, &m, 1) < 0) {
				snprintf(s->why, s->whycap, "out of memory");
				s->failed = 1;
				break;
			}
		}
	}
done:
	free(ours);
	free(theirs);
	free(scratch);
}

int bench_codec_selected(const char *list, const char *codec)
{
	if (!list)
		return 1;
	size_t n = strlen(codec);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, codec, n))
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int bench_run(const bench_config *cfgs, size_t ncfg, const bench_corpus *c,
              const bench_params *p, const char *script, bench_report *rep, char *why,
              size_t whycap)
{
	bench_config *sel = calloc(ncfg ? ncfg : 1, sizeof *sel);
	if (!sel) {
		snprintf(why, whycap, "out of memory");
		return -1;
	}
	size_t nsel = 0;
	for (size_t i = 0; i < ncfg; i++)
		if (bench_codec_selected(rep->codecs, cfgs[i].codec))
			sel[nsel++] = cfgs[i];
	rep->nrows = nsel;
	side_by_side s = { script, rep, p->progress, 0, why, whycap };
	/* A codec's configs are consecutive in cfgs[], so sel[i..i+k) is one codec. */
	for (size_t i = 0, k; i < nsel; i += k) {
		for (k = 1; i + k < nsel && !strcmp(sel[i + k].codec, sel[i].codec); k++)
			;
		/* Erlang/OTP megaco has no unaligned PER: uper runs alone. */
		if (!script || !strcmp(sel[i].codec, "uper")) {
			for (size_t j = i; j < i + k; j++)
				bench_measure_row(&sel[j], c, p, &rep->rows[j]);
			continue;
		}
		codec_side_by_side(&s, sel + i, k, c, p, rep->rows + i);
	}
	if (script && bench_codec_selected(rep->codecs, "erl_dist")) {
		bench_erlang_out e;
		if (erlang_once(&s, "erl_dist", p->repeat ? p->repeat : 1, &e) == 0) {
			if (append_rows(rep, e.rows, e.n) < 0) {
				snprintf(why, whycap, "out of memory");
				s.failed = 1;
			}
			free(e.rows);
		}
	}
	free(sel);
	return s.failed ? -1 : 0;
}
