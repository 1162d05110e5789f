/*
 * Command-line helpers shared by megaco-conv and megaco-bench: the wording
 * of option errors, whole-number parsing that refuses what strtoul lets
 * through (signs, blanks, trailing junk), and checking an output path before
 * a long run rather than after it.
 */
#ifndef MEGACO_CLI_ARGS_H
#define MEGACO_CLI_ARGS_H

#include <stddef.h>

/*
 * Reports what getopt_long (optstring starting with ':') stopped at: c is
 * its return ('?' or ':'), arg the argument it was reading (argv[optind - 1])
 * and opt its optopt. Prints "PROG: unknown option '--x'" or "PROG: option
 * '--x' needs a value" and a pointer to --help on stderr.
 */
void cli_option_error(const char *prog, int c, const char *arg, int opt);

/*
 * Parses s as a decimal whole number in [min, max]: digits only, no sign,
 * no blanks. Returns 0 with *out set, or -1 (*out untouched).
 */
int cli_parse_number(const char *s, unsigned long long min, unsigned long long max,
                     unsigned long long *out);

/*
 * Whether path can be written: an existing file that is writable, or a new
 * name in an existing writable directory. Nothing is created. Returns 0, or
 * -1 with errno set (ENOENT: no such directory; EISDIR: path is a directory).
 */
int cli_check_writable(const char *path);

/* Prints "PROG (libmegaco) MEGACO_VERSION_STRING" on stdout, for --version. */
void cli_print_version(const char *prog);

#endif
