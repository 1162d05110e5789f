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
 * A shape of the schema that generator gen writes no code for, said on
 * stderr; gen_failed then fails the generator, and the build.
 */
static int gen_failed __attribute__((unused));
static void gen_refuse(const char *gen, const char *type, const char *member, const char *why)
	__attribute__((unused));
static void gen_refuse(const char *gen, const char *type, const char *member, const char *why)
{
	fprintf(stderr, "%s: %s%s%s: %s\n", gen, type ? type : "?", member ? "." : "",
	        member ? member : "", why);
	gen_failed = 1;
}

#endif
