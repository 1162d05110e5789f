/*
 * Keyword lookup for the text scanner: the long and short spellings of
 * keywords.def in one open-addressing hash table, built once per process.
 * The scanner matches every identifier-like word with one rule and asks here
 * whether it is a keyword (case-insensitively).
 */
#include <pthread.h>
#include <string.h>

#include "text_scan.h"

#define KW_TABLE_SIZE 512u /* power of two, well over 2 * 2 * TEXT_KW_COUNT */
#define KW_MAX_LEN 24u /* longest spelling, with the alias below */

typedef struct kw_slot {
	const char *spelling; /* NULL: empty */
	unsigned char len;
	short kw;
} kw_slot;

static const struct {
	const char *l, *s;
} spellings[TEXT_KW_COUNT] = {
#define MEGACO_KW(id, l, s) [TEXT_KW_##id] = {l, s},
#include "keywords.def"
#undef MEGACO_KW
};

static kw_slot table[KW_TABLE_SIZE];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static unsigned char lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

static unsigned hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ lower((unsigned char)s[i])) * 16777619u;
	return h;
}

static int same(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return 0;
	return 1;
}

static void insert(const char *sp, int kw)
{
	size_t n = strlen(sp);
	unsigned i = hash(sp, n) & (KW_TABLE_SIZE - 1);
	while (table[i].spelling) {
		if (table[i].len == n && same(table[i].spelling, sp, n))
			return; /* single-form keyword: long == short */
		i = (i + 1) & (KW_TABLE_SIZE - 1);
	}
	table[i].spelling = sp;
	table[i].len = (unsigned char)n;
	table[i].kw = (short)kw;
}

static void build(void)
{
	for (int k = 0; k < TEXT_KW_COUNT; k++) {
		insert(spellings[k].l, k);
		insert(spellings[k].s, k);
	}
	/*
	 * Erlang megaco's pretty encoder writes EmergencyOff as the token's own
	 * name (corpus msg61a) and its decoder accepts it; so do we. Decode only:
	 * the encoders spell it from keywords.def.
	 */
	insert("EmergencyOffToken", TEXT_KW_EMERGENCY_OFF);
}

int text_keyword_lookup(const char *s, size_t n)
{
	if (n == 0 || n > KW_MAX_LEN)
		return -1;
	pthread_once(&table_once, build);
	unsigned i = hash(s, n) & (KW_TABLE_SIZE - 1);
	while (table[i].spelling) {
		if (table[i].len == n && same(table[i].spelling, s, n))
			return table[i].kw;
		i = (i + 1) & (KW_TABLE_SIZE - 1);
	}
	return -1;
}

const char *text_keyword_long(int kw)
{
	return kw >= 0 && kw < TEXT_KW_COUNT ? spellings[kw].l : "";
}
