/*
 * Keyword lookup for the text scanner: the long and short spellings of
 * keywords.def in one open-addressing hash table, built once per process.
 * The scanner matches every identifier-like word with one rule and asks here
 * whether it is a keyword (case-insensitively).
 *
 * This runs for every word of every message, so it is cheap by construction:
 * the hash reads three characters and the length (not the whole word), the
 * table is 1024 four-byte slots (222 spellings: 1.2 probes on average, at
 * most 4), and case folding is `| 0x20`. Folding that way is exact here: the
 * scanner only passes SafeChar words, and a keyword character either is a
 * letter (whose two cases are the only SafeChars that fold to it) or is one
 * of 0-9 / ! & (which fold to themselves, and whose bit-5-clear twins are
 * control characters, never in a word).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "text_scan.h"

#define KW_TABLE_SIZE 1024u /* power of two; see the probe counts above */
#define KW_MAX_LEN 24u      /* longest spelling, with the alias below */
#define KW_POOL_SIZE 2048u  /* folded spellings, back to back */

typedef struct kw_slot {
	uint16_t at;  /* spelling's offset in pool */
	uint8_t len;  /* 0: empty slot */
	uint8_t kw;
} kw_slot;

static const struct {
	const char *l, *s;
} spellings[TEXT_KW_COUNT] = {
#define MEGACO_KW(id, l, s) [TEXT_KW_##id] = {l, s},
#include "keywords.def"
#undef MEGACO_KW
};

_Static_assert(TEXT_KW_COUNT <= 255, "kw_slot.kw is a byte");

static kw_slot table[KW_TABLE_SIZE];
static unsigned char pool[KW_POOL_SIZE];
static size_t pool_used;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static inline unsigned hash(const unsigned char *s, size_t n)
{
	uint32_t x = (uint32_t)(s[0] | 0x20) * 0x9E3779B1u ^ (uint32_t)(s[n - 1] | 0x20) * 0x85EBCA77u ^
	             (uint32_t)(s[n >> 1] | 0x20) * 0xC2B2AE3Du ^ (uint32_t)n * 0x27D4EB2Fu;
	return (x >> 20) & (KW_TABLE_SIZE - 1);
}

static inline int same(const unsigned char *folded, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (folded[i] != (s[i] | 0x20))
			return 0;
	return 1;
}

static void insert(const char *sp, int kw)
{
	size_t n = strlen(sp);
	unsigned i = hash((const unsigned char *)sp, n);
	while (table[i].len) {
		if (table[i].len == n && same(pool + table[i].at, (const unsigned char *)sp, n))
			return; /* single-form keyword: long == short */
		i = (i + 1) & (KW_TABLE_SIZE - 1);
	}
	if (pool_used + n > KW_POOL_SIZE)
		return; /* cannot happen: keywords.def spells 1.3 KB */
	for (size_t k = 0; k < n; k++)
		pool[pool_used + k] = (unsigned char)(sp[k] | 0x20);
	table[i].at = (uint16_t)pool_used;
	table[i].len = (uint8_t)n;
	table[i].kw = (uint8_t)kw;
	pool_used += n;
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

void text_keyword_init(void)
{
	pthread_once(&table_once, build);
}

int text_keyword_lookup_built(const char *word, size_t n)
{
	const unsigned char *s = (const unsigned char *)word;
	if (n - 1 >= KW_MAX_LEN) /* n == 0 wraps */
		return -1;
	unsigned i = hash(s, n);
	for (;;) {
		const kw_slot *e = &table[i];
		if (!e->len)
			return -1;
		if (e->len == n && same(pool + e->at, s, n))
			return e->kw;
		i = (i + 1) & (KW_TABLE_SIZE - 1);
	}
}

int text_keyword_lookup(const char *s, size_t n)
{
	text_keyword_init();
	return text_keyword_lookup_built(s, n);
}

const char *text_keyword_long(int kw)
{
	return kw >= 0 && kw < TEXT_KW_COUNT ? spellings[kw].l : "";
}
