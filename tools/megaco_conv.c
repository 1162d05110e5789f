/*
 * megaco-conv: transcode Megaco messages between encodings, one message from
 * a file or stdin, or many files into a directory in one process (the test
 * suite converts the whole corpus that way). man/megaco-conv.1 documents it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "MegacoMessage.h"
#include "cli_args.h"
#include "megaco/megaco.h"
#include "read_file.h"

#define PROG "megaco-conv"

enum { EXIT_CODEC = 1, EXIT_USAGE = 2 }; /* also I/O errors: 2 */

static void usage(FILE *to)
{
	fprintf(to,
	        "usage: megaco-conv [OPTIONS] [IN [OUT]]\n"
	        "       megaco-conv [OPTIONS] -o DIR FILE...\n"
	        "Converts one message from IN (default stdin) to OUT (default stdout), or each\n"
	        "FILE to DIR/<its name>.\n"
	        "\n"
	        "  --from ENC             pretty, compact, ber, per, aper or auto (default: detect)\n"
	        "  --to ENC               pretty (default), compact, ber, per, aper, or xer (asn1c's\n"
	        "                         XML dump of the decoded model); per is X.691 UNALIGNED,\n"
	        "                         aper ALIGNED (Erlang/OTP megaco's per)\n"
	        "  -o, --output-dir DIR   convert every FILE into DIR (which must exist)\n"
	        "  -f, --force            write BER or PER to stdout even when it is a terminal\n"
	        "  --engine fast|asn1c    binary codecs: libmegaco's (default) or asn1c's own\n"
	        "  --scanner reentrant|non-reentrant\n"
	        "                         text scanner (default reentrant)\n"
	        "  --max-size BYTES       refuse longer input (default 1048576)\n"
	        "  --layout BITS/BITS/... termination-ID bits per level for text <-> binary\n"
	        "                         (default 8/8/8)\n"
	        "  --packages FILE.yaml   vendor packages (format of data/packages.yaml) added to\n"
	        "                         the built-in registry for text <-> binary names\n"
	        "  -h, --help             this text\n"
	        "  -V, --version          the library version\n"
	        "\n"
	        "Exit status: 0 every message converted; 1 a message could not be decoded or\n"
	        "encoded (the others are still converted); 2 usage or I/O error.\n");
}

/* The spellings of --engine and --scanner, indexed by the option's value. */
static const char *const engine_names[] = { [MEGACO_ENGINE_FAST] = "fast",
	                                    [MEGACO_ENGINE_ASN1C] = "asn1c", NULL };
static const char *const scanner_names[] = { [MEGACO_SCANNER_REENTRANT] = "reentrant",
	                                     [MEGACO_SCANNER_NON_REENTRANT] = "non-reentrant", NULL };

/* Everything a conversion needs, set up once from the options. */
typedef struct conv {
	megaco_encoding from, to;
	int to_xer;
	megaco_options opts;
} conv;

/* "8/8/16" -> a layout; NULL (after a message) when malformed. */
static megaco_tid_layout *parse_layout(const char *spec)
{
	unsigned bits[MEGACO_TID_MAX_LEVELS];
	size_t n = 0;
	const char *p = spec;
	while (*p && n < MEGACO_TID_MAX_LEVELS) {
		unsigned long long v;
		char num[8];
		size_t k = strcspn(p, "/");
		if (k >= sizeof num)
			break;
		memcpy(num, p, k);
		num[k] = '\0';
		if (cli_parse_number(num, 1, 64, &v) < 0)
			break;
		bits[n++] = (unsigned)v;
		p += k;
		if (*p == '/')
			p++;
	}
	megaco_tid_layout *layout = NULL;
	size_t n_spec = strlen(spec);
	if (*p || (n_spec && spec[n_spec - 1] == '/') || megaco_tid_layout_new(bits, n, NULL, &layout) != MEGACO_OK) {
		fprintf(stderr, PROG ": bad layout '%s' (bits per level, e.g. 8/8/8; total a multiple of 8, at most 64)\n", spec);
		return NULL;
	}
	return layout;
}

static void report(const char *name, const char *what, const megaco_error *err)
{
	if (err->line)
		fprintf(stderr, PROG ": %s: %s: %s at line %u, column %u: %s\n", name, what,
		        megaco_strerror(err->code), err->line, err->column, err->message);
	else
		fprintf(stderr, PROG ": %s: %s: %s at byte %zu: %s\n", name, what,
		        megaco_strerror(err->code), err->offset, err->message);
}

static int is_binary(const conv *c)
{
	return !c->to_xer && (c->to == MEGACO_ENC_BER || c->to == MEGACO_ENC_PER ||
	                      c->to == MEGACO_ENC_APER);
}

/*
 * Converts in_path ("-" or NULL: stdin) to out_path ("-" or NULL: stdout).
 * The output file is opened only once the message has converted, so a
 * failed conversion leaves no empty file behind.
 * Returns 0, EXIT_CODEC or EXIT_USAGE (I/O).
 */
static int convert(const conv *c, const char *in_path, const char *out_path)
{
	int use_stdin = !in_path || !strcmp(in_path, "-");
	const char *name = use_stdin ? "stdin" : in_path;
	FILE *in = use_stdin ? stdin : fopen(in_path, "rb");
	if (!in) {
		fprintf(stderr, PROG ": %s: %s\n", in_path, strerror(errno));
		return EXIT_USAGE;
	}
	size_t len = 0;
	unsigned char *data = read_stream(in, &len);
	if (!use_stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, PROG ": %s: cannot read input\n", name);
		return EXIT_USAGE;
	}

	int status = EXIT_CODEC;
	megaco_error err;
	megaco_message *msg = NULL;
	void *out_buf = NULL;
	size_t out_len = 0;
	FILE *out = NULL;
	if (megaco_decode(c->from, data, len, &c->opts, &msg, &err) != MEGACO_OK) {
		report(name, "decode", &err);
		goto done;
	}
	if (!c->to_xer &&
	    megaco_encode_alloc(msg, c->to, &c->opts, &out_buf, &out_len, &err) != MEGACO_OK) {
		report(name, "encode", &err);
		goto done;
	}
	int use_stdout = !out_path || !strcmp(out_path, "-");
	out = use_stdout ? stdout : fopen(out_path, "wb");
	if (!out) {
		fprintf(stderr, PROG ": %s: %s\n", out_path, strerror(errno));
		status = EXIT_USAGE;
		goto done;
	}
	if (c->to_xer)
		status = xer_fprint(out, &asn_DEF_MegacoMessage, megaco_message_model(msg)) ? EXIT_CODEC : 0;
	else
		status = fwrite(out_buf, 1, out_len, out) == out_len ? 0 : EXIT_USAGE;
	if ((use_stdout ? fflush(out) : fclose(out)) != 0 && !status) {
		fprintf(stderr, PROG ": %s: %s\n", use_stdout ? "stdout" : out_path, strerror(errno));
		status = EXIT_USAGE;
	}
done:
	megaco_buffer_free(out_buf, &c->opts);
	megaco_message_free(msg);
	free(data);
	return status;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int cmp_base(const void *a, const void *b)
{
	return strcmp(base_name(*(char *const *)a), base_name(*(char *const *)b));
}

/*
 * Checks a directory run before converting anything: DIR is a writable
 * directory, no FILE is stdin or names a directory, and no two FILEs share a
 * name (they would overwrite each other's output). Returns 0 or -1 (said why).
 */
static int check_dir_run(const char *dir, char **files, int n)
{
	struct stat st;
	int e = 0;
	if (stat(dir, &st) != 0)
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(dir, W_OK | X_OK) != 0)
		e = errno;
	if (e) {
		fprintf(stderr, PROG ": %s: %s\n", dir, strerror(e));
		return -1;
	}
	char **sorted = malloc((size_t)n * sizeof *sorted);
	if (!sorted) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	memcpy(sorted, files, (size_t)n * sizeof *sorted);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_base);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		const char *b = base_name(sorted[i]);
		if (!*b || !strcmp(sorted[i], "-") || !strcmp(b, ".") || !strcmp(b, "..")) {
			fprintf(stderr, PROG ": with -o, every input is a file: '%s' is not\n", sorted[i]);
			rc = -1;
		} else if (i > 0 && !strcmp(b, base_name(sorted[i - 1]))) {
			fprintf(stderr, PROG ": '%s' and '%s' would both be written to %s/%s\n",
			        sorted[i - 1], sorted[i], dir, b);
			rc = -1;
		}
	}
	free(sorted);
	return rc;
}

static int convert_into_dir(const conv *c, const char *dir, char **files, int n)
{
	int status = 0;
	for (int i = 0; i < n; i++) {
		char out[PATH_MAX];
		if ((size_t)snprintf(out, sizeof out, "%s/%s", dir, base_name(files[i])) >= sizeof out) {
			fprintf(stderr, PROG ": %s/%s: %s\n", dir, base_name(files[i]), strerror(ENAMETOOLONG));
			status = EXIT_USAGE;
			continue;
		}
		int rc = convert(c, files[i], out);
		if (rc > status)
			status = rc;
	}
	return status;
}

enum { OPT_FROM = 256, OPT_TO, OPT_SCANNER, OPT_MAX_SIZE, OPT_LAYOUT, OPT_PACKAGES, OPT_ENGINE };

static const struct option long_options[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "output-dir", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "scanner", required_argument, NULL, OPT_SCANNER },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "packages", required_argument, NULL, OPT_PACKAGES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	conv c = { MEGACO_ENC_AUTO, MEGACO_ENC_PRETTY, 0, { 0 } };
	megaco_options_init(&c.opts);
	const char *out_dir = NULL;
	int force = 0;
	megaco_tid_layout *layout = NULL;
	megaco_registry *registry = NULL;
	int status = EXIT_USAGE, opt, choice;
	unsigned long long num;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:fhV", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			status = 0;
			goto cleanup;
		case 'V':
			cli_print_version(PROG);
			status = 0;
			goto cleanup;
		case OPT_FROM:
			if (megaco_encoding_from_name(optarg, &c.from) != MEGACO_OK) {
				fprintf(stderr, PROG ": unknown encoding '%s' (pretty, compact, ber, per, aper or auto)\n", optarg);
				goto cleanup;
			}
			break;
		case OPT_TO:
			if (!strcmp(optarg, "xer")) {
				c.to_xer = 1;
			} else if (megaco_encoding_from_name(optarg, &c.to) != MEGACO_OK ||
			           c.to == MEGACO_ENC_AUTO) {
				fprintf(stderr, PROG ": unknown output encoding '%s' (pretty, compact, ber, per, aper or xer)\n", optarg);
				goto cleanup;
			} else {
				c.to_xer = 0;
			}
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case OPT_ENGINE:
			if ((choice = cli_parse_choice(PROG, "--engine", optarg, engine_names)) < 0)
				goto cleanup;
			c.opts.engine = (megaco_engine)choice;
			break;
		case OPT_SCANNER:
			if ((choice = cli_parse_choice(PROG, "--scanner", optarg, scanner_names)) < 0)
				goto cleanup;
			c.opts.scanner = (megaco_scanner)choice;
			break;
		case OPT_MAX_SIZE:
			if (cli_parse_number(optarg, 1, SIZE_MAX, &num) < 0) {
				fprintf(stderr, PROG ": --max-size wants a whole number of bytes, 1 or more: '%s'\n", optarg);
				goto cleanup;
			}
			c.opts.max_message_size = (size_t)num;
			break;
		case OPT_LAYOUT:
			megaco_tid_layout_free(layout);
			if (!(layout = parse_layout(optarg)))
				goto cleanup;
			c.opts.tid_layout = layout;
			break;
		case OPT_PACKAGES: {
			megaco_error yerr;
			if (!registry && megaco_registry_new(0, NULL, &registry) != MEGACO_OK) {
				fprintf(stderr, PROG ": out of memory\n");
				goto cleanup;
			}
#if MEGACO_HAVE_YAML
			if (megaco_registry_load_yaml(registry, optarg, &yerr) != MEGACO_OK) {
				if (yerr.line)
					fprintf(stderr, PROG ": %s:%u:%u: %s\n", optarg, yerr.line, yerr.column, yerr.message);
				else
					fprintf(stderr, PROG ": %s: %s\n", optarg, yerr.message);
				goto cleanup;
			}
#else
			(void)yerr;
			fprintf(stderr, PROG ": --packages: libmegaco was built without libyaml (MEGACO_YAML=OFF)\n");
			goto cleanup;
#endif
			c.opts.registry = registry;
			break;
		}
		default:
			cli_option_error(PROG, opt, argv[optind - 1], optopt);
			goto cleanup;
		}
	}
	char **files = argv + optind;
	int nfiles = argc - optind;

	if (out_dir) {
		if (nfiles == 0) {
			fprintf(stderr, PROG ": -o DIR needs the files to convert\n");
			goto cleanup;
		}
		if (check_dir_run(out_dir, files, nfiles) < 0)
			goto cleanup;
		status = convert_into_dir(&c, out_dir, files, nfiles);
		goto cleanup;
	}
	if (nfiles > 2) {
		fprintf(stderr, PROG ": more than IN and OUT; to convert several files use -o DIR\n");
		goto cleanup;
	}
	const char *out_path = nfiles > 1 ? files[1] : NULL;
	if (out_path && strcmp(out_path, "-") && cli_check_writable(out_path) < 0) {
		fprintf(stderr, PROG ": %s: %s\n", out_path, strerror(errno));
		goto cleanup;
	}
	/* Binary on a terminal is noise that can upset it; ask for it or redirect. */
	if ((!out_path || !strcmp(out_path, "-")) && is_binary(&c) && !force &&
	    isatty(STDOUT_FILENO)) {
		fprintf(stderr, PROG ": not writing %s to a terminal; give an output file, redirect, or use --force\n",
		        megaco_encoding_name(c.to));
		goto cleanup;
	}
	status = convert(&c, nfiles > 0 ? files[0] : NULL, out_path);
cleanup:
	megaco_registry_free(registry);
	megaco_tid_layout_free(layout);
	return status;
}
