/*
 * Command-line helpers shared by the tools: the getopt_long loop's common
 * part (--help, --version, option errors), the wording of option errors,
 * whole-number and choice parsing that refuse what strtoul and friends let
 * through (signs, blanks, trailing junk), and checking an output path before
 * a long run rather than after it.
 */
#ifndef MEGACO_CLI_ARGS_H
#define MEGACO_CLI_ARGS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* The end of every tool's long options: --help (-h) and --version (-V). */
#define CLI_STANDARD_OPTIONS                                                       \
	{ "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/* A tool's command line, as cli_next_option() reads it. */
typedef struct cli_spec {
	const char *prog;
	/* getopt_long's short options: starting with ':', holding "hV" */
	const char *shortopts;
	/* its long options, ending with CLI_STANDARD_OPTIONS */
	const struct option *longopts;
	/* prints the tool's usage, for --help */
	void (*usage)(FILE *out);
} cli_spec;

/*
 * getopt_long's next option, with what every tool does alike done here:
 * --help prints the usage on stdout, --version the version, and an unknown
 * option or a missing or unwanted value is reported (cli_option_error).
 * Returns the tool's next own option; or -1 when the options end, with
 * *status set to -1 if the tool goes on, or to its exit status (0 after
 * --help or --version, 2 after an error) if it must stop.
 */
int cli_next_option(const cli_spec *spec, int argc, char **argv, int *status);

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
 * cli_parse_number() for an option or argument named what ("--repeat",
 * "ROUNDS"), which on failure prints "PROG: WHAT wants a whole number
 * MIN..MAX: 'S'" on stderr. Returns 0 or -1.
 */
int cli_number_arg(const char *prog, const char *what, const char *s, unsigned long long min,
                   unsigned long long max, unsigned long long *out);

/*
 * Which of names (NULL-terminated) s is. Returns its index, or -1 after
 * printing "PROG: WHAT is A, B or C, not 'S'" on stderr.
 */
int cli_parse_choice(const char *prog, const char *what, const char *s, const char *const *names);

/*
 * Whether path can be written: an existing file that is writable, or a new
 * name in an existing writable directory. Nothing is created. Returns 0, or
 * -1 with errno set (ENOENT: no such directory; EISDIR: path is a directory).
 */
int cli_check_writable(const char *path);

/* Prints "PROG (libmegaco) MEGACO_VERSION_STRING" on stdout, for --version. */
void cli_print_version(const char *prog);

#endif
