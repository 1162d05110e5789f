/* Helpers shared by the codec generators in tools/gen/ (build-time programs). */
#ifndef MEGACO_GEN_LIT_H
#define MEGACO_GEN_LIT_H

#include <limits.h>
#include <stdio.h>

/* Not every generator prints numbers: lit() may go unused. */
static const char *lit(long long v) __attribute__((unused));

/*
 * A number as a C constant expression of type long long, so generated code
 * means the same on every target whatever the host's long is (32 bits on
 * armhf; the host's LONG_MAX is no constant there), and LLONG_MIN, which
 * has no literal, as an expression. Returns one of four rotating buffers,
 * so up to four results can share one printf().
 */
static const char *lit(long long v)
{
	static char buf[4][32];
	static int k;
	char *b = buf[k++ & 3];
	if (v == LLONG_MIN)
		snprintf(b, sizeof buf[0], "(-%lldLL - 1)", LLONG_MAX);
	else
		snprintf(b, sizeof buf[0], "%lldLL", v);
	return b;
}

/*
 * The generator's output file, named by its one argument ("NAME OUTPUT");
 * NULL, having said why on stderr, if there is none or it cannot be opened.
 */
static inline FILE *gen_open_output(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
		return NULL;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f)
		perror(argv[1]);
	return f;
}

/* Closes the output file name: the generator's exit status (0, or 1 if it failed). */
static inline int gen_close_output(FILE *f, const char *name)
{
	if (fclose(f) != 0) {
		perror(name);
		return 1;
	}
	return 0;
}

#endif
