/* Helpers shared by the codec generators in tools/gen/ (build-time programs). */
#ifndef MEGACO_GEN_LIT_H
#define MEGACO_GEN_LIT_H

#include <limits.h>
#include <stdio.h>

/* Not every generator prints longs: lit() may go unused. */
static const char *lit(long v) __attribute__((unused));

/*
 * A long as a C constant expression (LONG_MIN has no literal). Returns one
 * of four rotating buffers, so up to four results can share one printf().
 */
static const char *lit(long v)
{
	static char buf[4][32];
	static int k;
	char *b = buf[k++ & 3];
	if (v == LONG_MIN)
		snprintf(b, sizeof buf[0], "(-%ldL - 1)", LONG_MAX);
	else
		snprintf(b, sizeof buf[0], "%ldL", v);
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
