/*
 * Command-line helpers shared by the tools (see cli_args.h).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* stat, access, PATH_MAX: whichever tool compiles this */
#endif
#include "cli_args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "megaco/megaco.h"

void cli_option_error(const char *prog, int c, const char *arg, int opt)
{
	/*
	 * getopt_long leaves optopt 0 for an unknown long option and the
	 * character for an unknown short one; a known option with a value it
	 * does not take has its own code in optopt and a '=' in arg.
	 */
	if (c == ':')
		fprintf(stderr, "%s: option '%s' needs a value\n", prog, arg);
	else if (opt > 0 && opt < 256 && !(arg[0] == '-' && arg[1] == '-'))
		fprintf(stderr, "%s: unknown option '-%c'\n", prog, opt);
	else if (opt && strchr(arg, '='))
		fprintf(stderr, "%s: option '%.*s' takes no value\n", prog,
		        (int)(strchr(arg, '=') - arg), arg);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", prog, arg);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
}

int cli_next_option(const cli_spec *spec, int argc, char **argv, int *status)
{
	*status = -1;
	opterr = 0; /* cli_option_error() words the errors */
	int opt = getopt_long(argc, argv, spec->shortopts, spec->longopts, NULL);
	switch (opt) {
	case 'h':
		spec->usage(stdout);
		*status = 0;
		return -1;
	case 'V':
		cli_print_version(spec->prog);
		*status = 0;
		return -1;
	case '?':
	case ':':
		cli_option_error(spec->prog, opt, argv[optind - 1], optopt);
		*status = 2;
		return -1;
	default:
		return opt;
	}
}

int cli_number_arg(const char *prog, const char *what, const char *s, unsigned long long min,
                   unsigned long long max, unsigned long long *out)
{
	if (cli_parse_number(s, min, max, out) == 0)
		return 0;
	fprintf(stderr, "%s: %s wants a whole number %llu..%llu: '%s'\n", prog, what, min, max, s);
	return -1;
}

int cli_parse_choice(const char *prog, const char *what, const char *s, const char *const *names)
{
	size_t n = 0;
	for (; names[n]; n++)
		if (!strcmp(s, names[n]))
			return (int)n;
	fprintf(stderr, "%s: %s is ", prog, what);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%s", names[i], i + 2 < n ? ", " : i + 2 == n ? " or " : "");
	fprintf(stderr, ", not '%s'\n", s);
	return -1;
}

int cli_parse_number(const char *s, unsigned long long min, unsigned long long max,
                     unsigned long long *out)
{
	/* strtoull takes blanks, a sign (and negates "-5" into a huge value): refuse them */
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_check_writable(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		return access(path, W_OK);
	}
	if (errno != ENOENT)
		return -1;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash) {
		strcpy(dir, ".");
	} else {
		size_t n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof dir) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	if (stat(dir, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(dir, W_OK | X_OK);
}

void cli_print_version(const char *prog)
{
	printf("%s (libmegaco) %s\n", prog, MEGACO_VERSION_STRING);
}
