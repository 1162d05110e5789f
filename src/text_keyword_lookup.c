/*
 * Keyword lookup for the text scanner: the long and short spellings of
 * keywords.def in one open-addressing hash table, built once per process.
 * The scanner matches every identifier-like word with one rule and asks here
 * whether it is a keyword (case-insensitively).
 *
 * This runs for every word of every message, so it works a word at a time
 * (the lookup itself is inline in text_scan.h, for the scanner's loop):
 * a spelling (at most 24 bytes) is kept folded and zero-padded as three
 * 64-bit little-endian words, and a candidate is loaded the same way (8 bytes
 * per load, bytes past its end masked off), so hashing and comparing take a
 * few word operations instead of a loop per byte. The table is 1024 one-byte
 * slots indexing the entries (222 spellings: 1.1 probes on average, at most
 * 3). Case folding is `| 0x20` on every byte. Folding that way is exact: the
 * scanner only passes SafeChar words, and a keyword character either is a
 * letter (whose two cases are the only SafeChars that fold to it) or is one
 * of 0-9 ! & (which fold to themselves, and whose bit-5-clear twins are
 * control characters, never in a word).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "text_scan.h"

static const struct {
	const char *l, *s;
} spellings[TEXT_KW_COUNT] = {
#define MEGACO_KW(id, l, s) [TEXT_KW_##id] = {l, s},
#include "keywords.def"
#undef MEGACO_KW
};

_Static_assert(TEXT_KW_COUNT <= 255, "text_kw_entry.kw is a byte");
_Static_assert(2 * TEXT_KW_COUNT + 2 <= 256, "table slots are bytes");

/* Written once, by build() under table_once; read-only afterwards. */
text_kw_hash text_kw_table;
static unsigned n_entries = 1; /* entry 0 unused: slot value 0 marks an empty slot */
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void insert(const char *sp, int kw)
{
	text_kw_hash *h = &text_kw_table;
	size_t n = strlen(sp);
	unsigned char buf[TEXT_KW_MAX_LEN + 8] = {0};
	if (n == 0 || n > TEXT_KW_MAX_LEN)
		return; /* cannot happen: keywords.def spells 1 to 22 bytes */
	memcpy(buf, sp, n);
	uint64_t w[3];
	unsigned i = text_kw_fold(buf, n, w);
	while (h->slot[i]) {
		const text_kw_entry *e = &h->entry[h->slot[i]];
		if (e->w[0] == w[0] && e->w[1] == w[1] && e->w[2] == w[2])
			return; /* single-form keyword: long == short */
		i = (i + 1) & (TEXT_KW_SLOTS - 1);
	}
	text_kw_entry *e = &h->entry[n_entries];
	memcpy(e->w, w, sizeof e->w);
	e->kw = (uint8_t)kw;
	h->slot[i] = (uint8_t)n_entries++;
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

int text_keyword_lookup(const char *s, size_t n)
{
	/* Any caller's bytes: copied where the word-wide reads stay inside. */
	unsigned char buf[TEXT_KW_MAX_LEN + 8] = {0};
	if (n - 1 >= TEXT_KW_MAX_LEN)
		return -1;
	memcpy(buf, s, n);
	text_keyword_init();
	return text_keyword_lookup_built((const char *)buf, n);
}

const char *text_keyword_long(int kw)
{
	return kw >= 0 && kw < TEXT_KW_COUNT ? spellings[kw].l : "";
}
