/* Helpers shared by the codec generators in tools/gen/ (build-time programs). */
#ifndef MEGACO_GEN_LIT_H
#define MEGACO_GEN_LIT_H

#include <limits.h>
#include <stdio.h>

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

#endif
