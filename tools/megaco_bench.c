/*
 * megaco-bench: times every libmegaco codec over the message corpus with the
 * method of Erlang/OTP megaco's published codec table, optionally side by
 * side with Erlang itself (--compare-erlang). This file: options and the run;
 * the stages are listed in megaco_bench.h.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "megaco_bench.h"

#define PROG "megaco-bench"

#define DEFAULT_MIN_TIME 0.01 /* 11 rows x 149 messages x 2 ops x 11 ms: about 36 s */

static const char method_text[] =
	"per message: read its file in the row's encoding, decode it into the model and encode "
	"that model to the same encoding; warm up each operation for min-time/10, then loop it "
	"for at least min-time; mean time per call (decode includes freeing the decoded "
	"message); average over messages; every call is checked (decode OK, encode OK with the "
	"first call's size)";

static void usage(FILE *to)
{
	fprintf(to,
	        "usage: megaco-bench [OPTIONS]\n"
	        "Times libmegaco's codecs over the Megaco message corpus.\n"
	        "\n"
	        "Method (as Erlang/OTP megaco's published codec comparison): for each message,\n"
	        "read its file for the row's encoding, decode it into the model and encode that\n"
	        "model (same encoding); warm up each operation (min-time/10); loop it for at\n"
	        "least --min-time; take the mean time per call; average over the messages.\n"
	        "Decode time includes freeing the decoded message. Every iteration is checked\n"
	        "(decode OK; encode OK and the same size as the first): a failure stops that row\n"
	        "and names the message. Times are microseconds per message, shown to the\n"
	        "nanosecond; msgs/s = 1e6 / total. Rows: pretty and compact with each flex\n"
	        "scanner (reentrant, non-reentrant), ber (DER out), per (X.691 ALIGNED, the bytes\n"
	        "of Erlang's per: corpus aper/), uper (X.691 UNALIGNED: corpus per/), ber and\n"
	        "uper also with the stock asn1c engine (rows ber [asn1c], uper [asn1c]:\n"
	        "MEGACO_ENGINE_ASN1C; they come with ber and uper), and scanner-only rows (text\n"
	        "tokenised, not parsed; size is the input's) when the library has a tokenise-only\n"
	        "entry. A\n"
	        "scanner-only row also times the full decode (reentrant scanner), in turn with\n"
	        "the scan in 8 slices per message, and prints decode / scanner-only from those:\n"
	        "two times taken milliseconds apart, which a drifting host cannot split. A\n"
	        "non-reentrant row likewise times its decode and the reentrant scanner's in turn\n"
	        "and prints reentrant / non-reentrant decode from those.\n"
	        "\n"
	        "  --corpus DIR          corpus with manifest.yaml (default: $MEGACO_SOURCE_DIR/corpus,\n"
	        "                        <exe dir>/../../corpus, <exe dir>/../share/megaco/corpus,\n"
	        "                        the source tree's, then the installed corpus)\n"
	        "  --set NAME            manifest set (default time_test)\n"
	        "  --messages GLOB       only messages whose name matches (fnmatch), e.g. 'msg1*'\n"
	        "  --codecs LIST         only these codecs, comma-separated (pretty,compact,ber,per,\n"
	        "                        uper; erl_dist too for the Erlang side); a codec brings all\n"
	        "                        its rows (ber: ber and ber [asn1c])\n"
	        "  --min-time SECONDS    loop time per operation and message (default %g)\n"
	        "  --repeat N            run N times, report the median of each column (default 1)\n"
	        "  --threads N           also run the same work on N threads at once (each its own\n"
	        "                        copies and buffers): aggregate msgs/s and the speed-up\n"
	        "                        over one thread, which is timed in turn with the N (per\n"
	        "                        message, 8 slices: one thread alone, then all N from\n"
	        "                        the first start to the last end); and what the host gave\n"
	        "                        N threads of plain integer code meanwhile, timed the same\n"
	        "                        way, to read the row's speed-up against\n"
	        "  --clock wall|cpu      wall (default, as the published method) or the thread's\n"
	        "                        CPU time, which leaves out time other processes take on\n"
	        "                        a busy host (not with --threads; Erlang is always timed\n"
	        "                        by the wall clock)\n"
	        "  --format FMT          table (default), csv, json or yaml\n"
	        "  --output FILE         write the report to FILE instead of stdout\n"
	        "  --svg FILE            also draw the results as an SVG bar chart\n"
	        "  --compare-erlang      also run tools/erl/megaco-bench.escript (Erlang/OTP megaco,\n"
	        "                        same files, same method, same --min-time) and show both\n"
	        "                        with ratios Erlang/libmegaco per column. Codec by codec:\n"
	        "                        our rows of a codec, then Erlang's (the other way round on\n"
	        "                        every second --repeat run), so both sides of a ratio are\n"
	        "                        timed close together on a host whose speed drifts\n"
	        "  --erlang-script PATH  the escript to use with --compare-erlang\n"
	        "  --require-all         rows whose codec is not built yet (unavailable) are errors\n"
	        "  -h, --help            this text\n"
	        "  -V, --version         the library version\n"
	        "\n"
	        "A row is ok, failed (a check failed: message and error shown) or unavailable (the\n"
	        "library returns MEGACO_ERR_UNSUPPORTED for it). Exit status: 0 all rows ok or\n"
	        "unavailable; 1 a row failed (or was unavailable with --require-all); 2 usage,\n"
	        "corpus or Erlang set-up error. Progress goes to stderr when it is a terminal.\n",
	        DEFAULT_MIN_TIME);
}

static const bench_config all_configs[] = {
	{ "pretty", "reentrant", MEGACO_ENC_PRETTY, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "pretty", "non-reentrant", MEGACO_ENC_PRETTY, MEGACO_SCANNER_NON_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "pretty", "scanner-only", MEGACO_ENC_PRETTY, MEGACO_SCANNER_REENTRANT, 1, MEGACO_ENGINE_FAST },
	{ "compact", "reentrant", MEGACO_ENC_COMPACT, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "compact", "non-reentrant", MEGACO_ENC_COMPACT, MEGACO_SCANNER_NON_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "compact", "scanner-only", MEGACO_ENC_COMPACT, MEGACO_SCANNER_REENTRANT, 1, MEGACO_ENGINE_FAST },
	{ "ber", "", MEGACO_ENC_BER, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "ber", "asn1c", MEGACO_ENC_BER, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_ASN1C },
	{ "per", "", MEGACO_ENC_APER, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "uper", "", MEGACO_ENC_PER, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_FAST },
	{ "uper", "asn1c", MEGACO_ENC_PER, MEGACO_SCANNER_REENTRANT, 0, MEGACO_ENGINE_ASN1C },
};
#define N_CONFIGS (sizeof all_configs / sizeof all_configs[0])

/* Seconds as a plain decimal ("0.01", "2"): no sign, blanks, inf or nan. */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	if ((*s < '0' || *s > '9') && *s != '.')
		return -1;
	double v = strtod(s, &end);
	if (*end || !(v > 0 && v <= 60))
		return -1;
	*out = v;
	return 0;
}

/*
 * Every name in a --codecs list is a codec of ours or Erlang's; erl_dist
 * (Erlang only) selects nothing without --compare-erlang. Returns 0 or -1
 * (said why).
 */
static int check_codecs(const char *list, int compare)
{
	static const char *const known[] = { "pretty", "compact", "ber", "per", "uper", "erl_dist" };
	int ours = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ","), k;
		for (k = 0; k < sizeof known / sizeof known[0]; k++)
			if (strlen(known[k]) == len && !strncmp(p, known[k], len))
				break;
		if (k == sizeof known / sizeof known[0]) {
			fprintf(stderr, PROG ": --codecs: unknown codec '%.*s' (pretty, compact, ber, per, uper, erl_dist)\n",
			        (int)len, p);
			return -1;
		}
		ours += strcmp(known[k], "erl_dist") != 0;
		p += len;
		if (!*p)
			break;
	}
	if (!ours && !compare) {
		fprintf(stderr, PROG ": --codecs %s selects no row without --compare-erlang\n", list);
		return -1;
	}
	return 0;
}

enum {
	OPT_CORPUS = 256, OPT_SET, OPT_MESSAGES, OPT_CODECS, OPT_MIN_TIME, OPT_REPEAT, OPT_THREADS,
	OPT_CLOCK, OPT_FORMAT, OPT_OUTPUT, OPT_SVG, OPT_COMPARE, OPT_SCRIPT, OPT_REQUIRE_ALL
};

static const struct option long_options[] = {
	{ "corpus", required_argument, NULL, OPT_CORPUS },
	{ "set", required_argument, NULL, OPT_SET },
	{ "messages", required_argument, NULL, OPT_MESSAGES },
	{ "codecs", required_argument, NULL, OPT_CODECS },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "compare-erlang", no_argument, NULL, OPT_COMPARE },
	{ "erlang-script", required_argument, NULL, OPT_SCRIPT },
	{ "require-all", no_argument, NULL, OPT_REQUIRE_ALL },
	CLI_STANDARD_OPTIONS,
};

static const cli_spec cli = { PROG, ":hV", long_options, usage };

int main(int argc, char **argv)
{
	const char *corpus_arg = NULL, *set = "time_test", *glob = NULL, *codecs = NULL;
	const char *svg = NULL, *script_arg = NULL, *output = NULL;
	int compare = 0, require_all = 0, opt;
	bench_format fmt = FMT_TABLE;
	bench_params params = { DEFAULT_MIN_TIME, 1, 1, 0, 0 };
	unsigned long long num;

	int status;
	while ((opt = cli_next_option(&cli, argc, argv, &status)) != -1) {
		switch (opt) {
		case OPT_COMPARE:
			compare = 1;
			break;
		case OPT_REQUIRE_ALL:
			require_all = 1;
			break;
		case OPT_CLOCK: {
			static const char *const clocks[] = { "wall", "cpu", NULL };
			int c = cli_parse_choice(PROG, "--clock", optarg, clocks);
			if (c < 0)
				return 2;
			params.cpu_clock = c == 1;
			break;
		}
		case OPT_CORPUS:
			corpus_arg = optarg;
			break;
		case OPT_SET:
			set = optarg;
			break;
		case OPT_MESSAGES:
			glob = optarg;
			break;
		case OPT_CODECS:
			codecs = optarg;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_OUTPUT:
			output = optarg;
			break;
		case OPT_SCRIPT:
			script_arg = optarg;
			break;
		case OPT_MIN_TIME:
			if (parse_seconds(optarg, &params.min_time) < 0) {
				fprintf(stderr, PROG ": --min-time wants seconds in (0, 60]: '%s'\n", optarg);
				return 2;
			}
			break;
		case OPT_REPEAT:
		case OPT_THREADS:
			if (cli_number_arg(PROG, opt == OPT_REPEAT ? "--repeat" : "--threads", optarg, 1,
			                   1024, &num) < 0)
				return 2;
			*(opt == OPT_REPEAT ? &params.repeat : &params.threads) = (unsigned)num;
			break;
		case OPT_FORMAT: {
			static const char *const formats[] = { "table", "csv", "json", "yaml", NULL };
			static const bench_format format_of[] = { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_YAML };
			int f = cli_parse_choice(PROG, "--format", optarg, formats);
			if (f < 0)
				return 2;
			fmt = format_of[f];
			break;
		}
		}
	}
	if (status >= 0)
		return status;
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s' (options only)\n", argv[optind]);
		return 2;
	}
	if (codecs && check_codecs(codecs, compare) < 0)
		return 2;
	/* Output paths now, not after a run of minutes. */
	const char *paths[] = { output, svg };
	for (size_t i = 0; i < 2; i++) {
		if (paths[i] && cli_check_writable(paths[i]) < 0) {
			fprintf(stderr, PROG ": %s %s: %s\n", i ? "--svg" : "--output", paths[i], strerror(errno));
			return 2;
		}
	}
	if (params.cpu_clock && params.threads > 1) {
		/* speed-up is wall-clock throughput; a CPU clock would hide lock waits */
		fprintf(stderr, "megaco-bench: --threads needs the wall clock (drop --clock cpu)\n");
		return 2;
	}
	params.progress = isatty(STDERR_FILENO);

	char dirbuf[PATH_MAX], why[512];
	const char *dir = corpus_arg ? corpus_arg : bench_corpus_default_dir(argv[0], dirbuf, sizeof dirbuf);
	if (!dir) {
		fprintf(stderr, "megaco-bench: no corpus found; use --corpus DIR or set MEGACO_SOURCE_DIR\n");
		return 2;
	}
	char realdir[PATH_MAX];
	if (realpath(dir, realdir))
		dir = realdir;
	bench_corpus corpus;
	if (bench_corpus_load(dir, set, glob, &corpus, why, sizeof why) < 0) {
		fprintf(stderr, "megaco-bench: %s\n", why);
		return 2;
	}

	/* Find the escript before the long run, so a set-up error shows at once. */
	char scriptbuf[PATH_MAX];
	const char *script = NULL;
	if (compare) {
		script = bench_erlang_script(script_arg, dir, argv[0], scriptbuf, sizeof scriptbuf);
		if (!script) {
			fprintf(stderr, "megaco-bench: %s; use --erlang-script PATH\n",
			        script_arg ? "cannot read the Erlang script"
			                   : "tools/erl/megaco-bench.escript not found");
			bench_corpus_free(&corpus);
			return 2;
		}
	}

	bench_report rep;
	memset(&rep, 0, sizeof rep);
	bench_host_fill(&rep.host);
	rep.method = method_text;
	rep.corpus_dir = dir;
	rep.set = set;
	rep.glob = glob;
	rep.codecs = codecs;
	rep.messages = corpus.count;
	rep.min_time = params.min_time;
	rep.repeat = params.repeat;
	rep.threads = params.threads;
	rep.clock = params.cpu_clock ? "thread-cpu" : "wall";
	rep.rows = calloc(N_CONFIGS, sizeof *rep.rows);
	if (!rep.rows) {
		bench_corpus_free(&corpus);
		return 2;
	}
	/*
	 * With --threads, what the host gives N threads of plain integer code,
	 * before the rows and after them (a shared host changes in between), to
	 * read the rows' speed-ups against (each row also measures it meanwhile).
	 */
	double chain0 = 0, indep0 = 0;
	if (params.threads > 1)
		bench_host_scaling(params.threads, &chain0, &indep0);
	int setup_error = 0;
	if (compare && params.progress)
		fprintf(stderr, "megaco-bench: with %s, codec by codec\n", script);
	if (bench_run(all_configs, N_CONFIGS, &corpus, &params, script, &rep, why, sizeof why) < 0) {
		fprintf(stderr, "megaco-bench: --compare-erlang: %s\n", why);
		setup_error = 1;
	}
	if (params.threads > 1) {
		double chain1, indep1;
		char buf[256];
		bench_host_scaling(params.threads, &chain1, &indep1);
		snprintf(buf, sizeof buf,
		         "%u threads / one thread, timed in turn: integer chain %.2f, independent "
		         "integer operations %.2f (before the rows); %.2f, %.2f (after)",
		         params.threads, chain0, indep0, chain1, indep1);
		bench_host_add(&rep.host, "host_scaling", buf);
	}
	int failed = 0, unavailable = 0;
	for (size_t i = 0; i < rep.nrows + rep.n_erl; i++) {
		const bench_row *row = i < rep.nrows ? &rep.rows[i] : &rep.erl_rows[i - rep.nrows];
		failed += row->status == ROW_FAILED;
		unavailable += row->status == ROW_UNAVAILABLE && i < rep.nrows;
		if (row->status == ROW_FAILED) {
			char label[64];
			bench_row_label(row, label, sizeof label);
			fprintf(stderr, "megaco-bench: %s%s FAILED: %s\n", i < rep.nrows ? "" : "Erlang ",
			        label, row->error);
		}
	}

	FILE *out = stdout;
	if (output && !(out = fopen(output, "w"))) {
		perror(output);
		setup_error = 1;
		out = stdout;
	}
	bench_report_write(out, &rep, fmt);
	if (out != stdout && fclose(out) != 0) {
		perror(output);
		setup_error = 1;
	}
	if (svg && bench_svg_write(svg, &rep) < 0) {
		perror(svg);
		setup_error = 1;
	}
	free(rep.rows);
	free(rep.erl_rows);
	bench_corpus_free(&corpus);
	if (setup_error)
		return 2;
	if (failed || (require_all && unavailable))
		return 1;
	return 0;
}
