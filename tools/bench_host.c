/*
 * megaco-bench: the host details printed above every table: CPU, kernel,
 * compiler and flags, and the versions of the tools that generated the code.
 * Build facts come from CMake as compile definitions (tools/CMakeLists.txt).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "megaco_bench.h"

#ifndef MEGACO_BENCH_COMPILER
#define MEGACO_BENCH_COMPILER "unknown"
#endif
#ifndef MEGACO_BENCH_CFLAGS
#define MEGACO_BENCH_CFLAGS "unknown"
#endif
#ifndef MEGACO_BENCH_BUILD_TYPE
#define MEGACO_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef MEGACO_BENCH_ASN1C_VERSION
#define MEGACO_BENCH_ASN1C_VERSION "unknown"
#endif
#ifndef MEGACO_BENCH_FLEX_VERSION
#define MEGACO_BENCH_FLEX_VERSION "not found"
#endif
#ifndef MEGACO_BENCH_BISON_VERSION
#define MEGACO_BENCH_BISON_VERSION "not found"
#endif
#ifndef MEGACO_BENCH_PARSE_LOOP
#define MEGACO_BENCH_PARSE_LOOP "unknown"
#endif
#ifndef MEGACO_BENCH_PGO
#define MEGACO_BENCH_PGO "unknown"
#endif

void bench_host_add(bench_host *h, const char *key, const char *value)
{
	if (h->n == BENCH_HOST_MAX)
		return;
	snprintf(h->kv[h->n].key, sizeof h->kv[h->n].key, "%s", key);
	snprintf(h->kv[h->n].value, sizeof h->kv[h->n].value, "%s", value);
	h->n++;
}

static void cpu_model(char *buf, size_t cap)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	snprintf(buf, cap, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		/* x86 says "model name", some ARM kernels "Hardware" or "Model" */
		if (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5)) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(buf, cap, "%s", colon);
			break;
		}
	}
	fclose(f);
}

void bench_host_fill(bench_host *h)
{
	char buf[256];
	struct utsname u;
	memset(h, 0, sizeof *h);
	cpu_model(buf, sizeof buf);
	bench_host_add(h, "cpu", buf);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	bench_host_add(h, "cpus", buf);
	if (uname(&u) == 0) {
		snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
		bench_host_add(h, "os", buf);
	}
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		double l1, l5, l15;
		if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3) {
			snprintf(buf, sizeof buf, "%.2f %.2f %.2f (at start)", l1, l5, l15);
			bench_host_add(h, "loadavg", buf);
		}
		fclose(f);
	}
	bench_host_add(h, "libmegaco", megaco_version());
	bench_host_add(h, "compiler", MEGACO_BENCH_COMPILER);
	bench_host_add(h, "build_type", MEGACO_BENCH_BUILD_TYPE);
	bench_host_add(h, "cflags", MEGACO_BENCH_CFLAGS);
	bench_host_add(h, "asn1c", MEGACO_BENCH_ASN1C_VERSION);
	bench_host_add(h, "flex", MEGACO_BENCH_FLEX_VERSION);
	bench_host_add(h, "bison", MEGACO_BENCH_BISON_VERSION);
	/* yacc.c's or grammar/lean-lalr.m4's: the text decode rows depend on it. */
	bench_host_add(h, "parse_loop", MEGACO_BENCH_PARSE_LOOP);
	/* A profile-guided library (cmake/Pgo.cmake) is 5-18 % faster (docs/benchmarks.md). */
	bench_host_add(h, "pgo", MEGACO_BENCH_PGO);
}
