/*
 * megaco-bench: shared types of the benchmark tool. The stages are one file
 * each: bench_yaml.c (libyaml -> small tree, for the manifest and Erlang's
 * JSON), bench_corpus.c (manifest -> messages), read_file.c (whole files,
 * shared with the other tools and the tests), bench_measure.c (the timing
 * method), bench_host.c (host details), bench_report.c (table/csv/json/yaml),
 * bench_svg.c (bar chart), bench_together.c/.h (N threads timed together),
 * bench_scaling.c (what N threads get on this host),
 * bench_erlang.c (the Erlang side), bench_run.c (the
 * order of the rows, ours and Erlang's), megaco_bench.c (options,
 * then the run and its report; its option helpers, cli_args.c, are
 * shared with the other tools).
 */
#ifndef MEGACO_BENCH_H
#define MEGACO_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "megaco/megaco.h"
#include "read_file.h"

#define BENCH_MAX_ENC 5 /* pretty, compact, ber, per, aper: index MEGACO_ENC_x - 1 */

/* ---- bench_yaml.c: a YAML (or JSON, which libyaml reads) document as a tree */
typedef enum { YNODE_SCALAR, YNODE_MAP, YNODE_SEQ } ynode_kind;
typedef struct ynode {
	ynode_kind kind;
	char *str;            /* scalar value */
	struct ynode **kids;  /* map: key, value, key, value...; seq: items */
	size_t n;
} ynode;

/* Parses a whole document; NULL with why filled on error. */
ynode *ynode_parse(const char *text, size_t len, char *why, size_t whycap);
void ynode_free(ynode *n);
/* Value of key in a map, or NULL (also when map is not a map). */
const ynode *ynode_get(const ynode *map, const char *key);
/* Scalar value of key, or def. */
const char *ynode_str(const ynode *map, const char *key, const char *def);
double ynode_num(const ynode *map, const char *key, double def);

/* ---- bench_corpus.c */
typedef struct bench_msg {
	char name[64];
	int version;
	unsigned char *data[BENCH_MAX_ENC]; /* file contents; NULL where absent */
	size_t len[BENCH_MAX_ENC];
} bench_msg;

typedef struct bench_corpus {
	char dir[1024];
	char set[64];
	bench_msg *msgs;
	size_t count;
} bench_corpus;

/*
 * Finds the default corpus directory (one holding manifest.yaml):
 * $MEGACO_SOURCE_DIR/corpus, <exe dir>/../../corpus (a build tree), the
 * installed data directory seen from the binary (<exe dir>/../share/megaco,
 * an installed tree wherever it is), the source tree it was built from, then
 * the installed data directory as configured. Returns buf, or NULL when none
 * exists.
 */
const char *bench_corpus_default_dir(const char *argv0, char *buf, size_t cap);
/*
 * The same search for anything shipped with the sources: src_rel under a
 * source tree, data_rel under an installed data directory. Returns buf once
 * ok(buf) holds, or NULL.
 */
const char *bench_find_shipped(const char *argv0, const char *src_rel, const char *data_rel,
                               int (*ok)(const char *path), char *buf, size_t cap);
/*
 * Loads the messages of one set whose names match glob (fnmatch; NULL = all)
 * and reads their files in every encoding the manifest lists.
 * Returns 0, or -1 with why filled.
 */
int bench_corpus_load(const char *dir, const char *set, const char *glob, bench_corpus *out,
                      char *why, size_t whycap);
void bench_corpus_free(bench_corpus *c);
/* Number of messages present in encoding enc. */
size_t bench_corpus_count(const bench_corpus *c, megaco_encoding enc);

/* ---- bench_measure.c */
typedef enum { ROW_OK = 0, ROW_FAILED, ROW_UNAVAILABLE } row_status;

/* One row of the table: a codec in one configuration, measured or read back. */
typedef struct bench_row {
	char impl[16];   /* "libmegaco" or "erlang" */
	char codec[16];  /* pretty, compact, ber, per, erl_dist */
	char config[32]; /* "reentrant", "non-reentrant", "scanner-only", "asn1c", "flex", "" */
	row_status status;
	char error[320];
	size_t messages;
	double size;       /* mean encoded size, bytes */
	double encode_ns;  /* mean time per call, averaged over messages */
	double decode_ns;
	double total_ns;   /* encode + decode */
	/*
	 * Scanner-only rows: the full decode (same encoding, same scanner), timed
	 * in turn with the scan on every message, so that decode / scanner alone
	 * is a ratio of two times taken milliseconds apart. 0 elsewhere.
	 */
	double paired_decode_ns;
	/*
	 * Non-reentrant rows: this row's decode and the same decode with the
	 * reentrant scanner, timed in turn on every message as above, for the
	 * reentrant / non-reentrant ratio. 0 elsewhere.
	 */
	double paired_nr_ns;
	double paired_re_ns;
	double msgs_per_s; /* 1e9 / total_ns */
	unsigned threads;  /* > 1: the threaded run below was made */
	double mt_msgs_per_s; /* aggregate over all threads */
	/*
	 * One thread alone, timed in turn with all threads together on every
	 * message (8 slices each), so that the speed-up is a ratio of two
	 * times taken milliseconds apart. mt_msgs_per_s counts all threads'
	 * calls over the wall time from their start to the last one's end.
	 */
	double mt_one_msgs_per_s;
	double speedup;       /* mt_msgs_per_s / mt_one_msgs_per_s */
	/*
	 * What the host gave N threads of plain integer code meanwhile (the
	 * independent-operations loop of bench_scaling.c, one slice alone and one
	 * all together after each message's): what speedup is read against.
	 */
	double host_speedup;
} bench_row;

/* What one of our rows measures. */
typedef struct bench_config {
	const char *codec;
	const char *config;
	megaco_encoding enc;
	megaco_scanner scanner;
	int scan_only; /* tokenise only (text), no parse, no encode */
	/*
	 * Binary codecs: MEGACO_ENGINE_ASN1C makes the "asn1c" rows, which come
	 * with ber and per (no --codecs name of their own), so that stock asn1c
	 * is timed in the same run as our engine.
	 */
	megaco_engine engine;
} bench_config;

typedef struct bench_params {
	double min_time;   /* seconds each operation loops per message */
	unsigned repeat;   /* runs; each column is the median */
	unsigned threads;  /* > 1: also run the same work on this many threads */
	int progress;      /* report progress on stderr */
	int cpu_clock;     /* time with the thread's CPU clock, not the wall clock */
} bench_params;

/* The median of v[0..n) (n > 0; sorts v). */
double bench_median(double *v, unsigned n);
/* Measures one row; fills row (status, error and numbers). */
void bench_measure_row(const bench_config *cfg, const bench_corpus *c, const bench_params *p,
                       bench_row *row);

/* ---- bench_host.c */
#define BENCH_HOST_MAX 20
typedef struct bench_kv {
	char key[32];
	char value[256];
} bench_kv;

typedef struct bench_host {
	bench_kv kv[BENCH_HOST_MAX];
	size_t n;
} bench_host;

void bench_host_fill(bench_host *h);
/*
 * bench_scaling.c: N threads of plain integer code over one thread, timed in
 * turn as the rows' speed-ups are: a dependent chain and independent
 * operations (0 where the threads could not be made).
 */
void bench_host_scaling(unsigned n, double *chain, double *independent);
/* Rounds of the independent-operations loop made in at least ns (*sink keeps it live). */
uint64_t bench_int_ops(uint64_t ns, volatile uint64_t *sink);
/* The same loop's rounds/s on this thread alone, run for at least ns. */
double bench_int_ops_alone(uint64_t ns);
void bench_host_add(bench_host *h, const char *key, const char *value);

/* ---- bench_report.c */
typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_YAML } bench_format;

typedef struct bench_report {
	bench_host host;
	const char *method;
	const char *corpus_dir, *set, *glob;
	const char *codecs; /* --codecs list, NULL = all */
	size_t messages;
	double min_time;
	unsigned repeat, threads;
	const char *clock; /* "wall" or "thread-cpu" */
	bench_row *rows;
	size_t nrows;
	/* --compare-erlang: Erlang's rows and host, as its script reported them */
	int compare;
	bench_host erl_host;
	bench_row *erl_rows;
	size_t n_erl;
} bench_report;

void bench_report_write(FILE *f, const bench_report *r, bench_format fmt);
/* Ratio Erlang / ours for size and times, ours / Erlang for msgs/s (>1: we win). */
typedef struct bench_ratio {
	const bench_row *ours, *theirs;
	double size, encode, decode, total, msgs_per_s;
} bench_ratio;
/* Pairs each Erlang row with our primary row of the same encoding; returns count. */
size_t bench_ratios(const bench_report *r, bench_ratio *out, size_t cap);
/* "pretty [reentrant]" style label. */
void bench_row_label(const bench_row *row, char *buf, size_t cap);

/* ---- bench_svg.c */
int bench_svg_write(const char *path, const bench_report *r);

/* ---- bench_erlang.c */
/*
 * Finds the escript (explicit path, or tools/erl/megaco-bench.escript next to
 * the corpus's source tree, the build tree's source, or the install).
 */
const char *bench_erlang_script(const char *explicit_path, const char *corpus_dir,
                                const char *argv0, char *buf, size_t cap);
/* What one run of the escript reported. */
typedef struct bench_erlang_out {
	bench_host host;
	bench_row *rows; /* malloc'd */
	size_t n;
} bench_erlang_out;
/*
 * Runs the escript over r's corpus, set, glob and min-time, for codecs (a
 * --codecs list; NULL: all) and repeat runs, and reads back its JSON rows
 * and host details into *out; progress: the script names each row on stderr.
 * Returns 0, or -1 with why.
 */
int bench_erlang_run(const char *script, const bench_report *r, const char *codecs,
                     unsigned repeat, int progress, bench_erlang_out *out, char *why,
                     size_t whycap);
/* Reads a megaco-bench JSON document's host and rows. Returns 0 or -1 with why. */
int bench_json_read(const char *text, size_t len, bench_host *host, bench_row **rows,
                    size_t *nrows, char *why, size_t whycap);

/* ---- bench_run.c */
/*
 * Measures the configs that rep->codecs selects into rep->rows (which has
 * room for ncfg), in the configs' order; a codec's configs are consecutive
 * in cfgs[]. With script (--compare-erlang), codec by codec side by side
 * with Erlang's rows, which go to rep->erl_rows (bench_run.c says in which
 * order, and how the medians are taken). Returns 0, or -1 with why when
 * Erlang could not be run or read (our rows are measured regardless).
 */
int bench_run(const bench_config *cfgs, size_t ncfg, const bench_corpus *c,
              const bench_params *p, const char *script, bench_report *rep, char *why,
              size_t whycap);
/* Whether codec is in the comma-separated list (NULL: every codec). */
int bench_codec_selected(const char *list, const char *codec);

/* ---- small helpers (bench_report.c) */
const char *bench_status_name(row_status s);

#endif
