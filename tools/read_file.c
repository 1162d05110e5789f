/*
 * Whole files and streams into memory, for the tools (megaco-conv's input,
 * megaco-bench's corpus and escript output, megaco-loop, megaco-ab) and the
 * tests (tests/testutil.c): the corpus is read before anything is timed.
 */
#include "read_file.h"

#include <stdlib.h>

unsigned char *read_stream(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap + 1);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		unsigned char *bigger = realloc(buf, cap * 2 + 1);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
	return buf;
}

unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = read_stream(f, len);
	fclose(f);
	return buf;
}
