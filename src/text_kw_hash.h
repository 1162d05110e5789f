/*
 * The keyword hash table's layout and hash: the text scanner's per-word
 * lookup (text_scan.h) reads the table, tools/gen/keyword_table_gen.c, run at
 * build time, fills it from keywords.def with these same functions.
 *
 * A spelling (at most 24 bytes) is kept folded (| 0x20 on every byte) and
 * zero-padded as three 64-bit little-endian words, and a candidate word is
 * loaded the same way (8 bytes per load, bytes past its end masked off), so
 * hashing and comparing take a few word operations instead of a loop per
 * byte. 1024 one-byte slots index the entries (about 220 spellings: 1.1
 * probes on average, at most 3). Folding that way is exact: the scanner only
 * passes SafeChar words, and a keyword character either is a letter (whose
 * two cases are the only SafeChars that fold to it) or is one of 0-9 ! &
 * (which fold to themselves, and whose bit-5-clear twins are control
 * characters, never in a word). The words are values, assembled in
 * little-endian order on any host, so the generated table is the same for
 * every target.
 */
#ifndef MEGACO_TEXT_KW_HASH_H
#define MEGACO_TEXT_KW_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Keyword indexes, in keywords.def order. */
enum text_kw {
#define MEGACO_KW(id, l, s) TEXT_KW_##id,
#include "keywords.def"
#undef MEGACO_KW
	TEXT_KW_COUNT
};

#define TEXT_KW_MAX_LEN 24u /* longest spelling (22) fits three words */
#define TEXT_KW_SLOTS 1024u /* power of two */
#define TEXT_KW_SLOT_BITS 10

typedef struct text_kw_entry {
	uint64_t w[3];
	uint8_t kw;
} text_kw_entry;

typedef struct text_kw_hash {
	uint8_t slot[TEXT_KW_SLOTS];          /* entry index, 0 for an empty slot */
	text_kw_entry entry[2 * TEXT_KW_COUNT + 2];
} text_kw_hash;

/* Generated at build time (text_kw_table.c, from keywords.def). */
extern const text_kw_hash text_kw_table;

static inline uint64_t text_kw_load(const unsigned char *s)
{
	uint64_t v;
	memcpy(&v, s, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/*
 * The low n (1..8) bytes of a little-endian word: one masking load (the
 * mask built from n took five instructions and a branch, in each lookup).
 */
static inline uint64_t text_kw_low(uint64_t v, size_t n)
{
	static const uint64_t low[9] = {
		0, 0xffull, 0xffffull, 0xffffffull, 0xffffffffull, 0xffffffffffull,
		0xffffffffffffull, 0xffffffffffffffull, 0xffffffffffffffffull,
	};
	return v & low[n];
}

/* The slot of a folded spelling, from its three words mixed into one. */
static inline unsigned text_kw_slot_of(uint64_t x)
{
	return (unsigned)(((x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull) >> (64 - TEXT_KW_SLOT_BITS));
}

/*
 * Folds s[0..n) (1 <= n <= TEXT_KW_MAX_LEN) into w[3] and returns its slot.
 * Reads s in whole 8-byte words: up to 7 bytes past s + n.
 */
static inline unsigned text_kw_fold(const unsigned char *s, size_t n, uint64_t w[3])
{
	const uint64_t fold = 0x2020202020202020ull;
	uint64_t a = text_kw_load(s) | fold, b = 0, c = 0;
	if (n <= 8) {
		a = text_kw_low(a, n);
	} else {
		b = text_kw_load(s + 8) | fold;
		if (n <= 16)
			b = text_kw_low(b, n - 8);
		else
			c = text_kw_low(text_kw_load(s + 16) | fold, n - 16);
	}
	w[0] = a;
	w[1] = b;
	w[2] = c;
	return text_kw_slot_of(a ^ (b * 0x9E3779B97F4A7C15ull) ^ (c * 0xC2B2AE3D27D4EB4Full));
}

#endif
