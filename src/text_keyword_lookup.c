/*
 * Keyword lookup for the text scanner: the long and short spellings of
 * keywords.def in one open-addressing hash table (text_kw_hash.h), generated
 * at build time by tools/gen/keyword_table_gen.c into read-only data. The
 * scanner matches every identifier-like word with one rule and asks, inline
 * (text_scan.h), whether it is a keyword (case-insensitively); this file
 * serves callers outside the scanner.
 */
#include <string.h>

#include "text_scan.h"

static const char *const long_spellings[TEXT_KW_COUNT] = {
#define MEGACO_KW(id, l, s) [TEXT_KW_##id] = l,
#include "keywords.def"
#undef MEGACO_KW
};

int text_keyword_lookup(const char *s, size_t n)
{
	/* Any caller's bytes: copied where the word-wide reads stay inside. */
	unsigned char buf[TEXT_KW_MAX_LEN + 8] = {0};
	if (n - 1 >= TEXT_KW_MAX_LEN)
		return -1;
	memcpy(buf, s, n);
	return text_keyword_lookup_built((const char *)buf, n);
}

const char *text_keyword_long(int kw)
{
	return kw >= 0 && kw < TEXT_KW_COUNT ? long_spellings[kw] : "";
}
