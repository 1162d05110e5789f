/*
 * Text decoder internals shared by the flex scanners (grammar/megaco.l, built
 * twice: reentrant and classic global-state), the bison parser
 * (grammar/megaco.y) and the driver (text_decode.c). Tokens never copy their
 * text: they are byte ranges of the caller's input, which outlives the parse.
 */
#ifndef MEGACO_TEXT_SCAN_H
#define MEGACO_TEXT_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "megaco/options.h"

#include "text_kw_hash.h"

/* Returns the keyword index of s[0..n) (case-insensitive, long or short form), or -1. */
int text_keyword_lookup(const char *s, size_t n);

/*
 * text_keyword_lookup for the scanner's per-word call, over the table
 * generated at build time (text_kw_hash.h). Reads s in 8-byte words: s[0 ..
 * n rounded up to 8) must be readable (the scanner's input copy is padded
 * for it). Always inlined: GCC's size
 * heuristics drop it out of line as the scanner's word rule grows, and the
 * call then costs a word more than the lookup (measured: +220 instructions a
 * compact decode).
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int text_keyword_lookup_built(const char *s, size_t n)
{
	if (n - 1 >= TEXT_KW_MAX_LEN) /* n == 0 wraps */
		return -1;
	if (n <= 8) {
		/*
		 * Most words: one word to fold, hash (as text_kw_fold, whose other
		 * two words are 0) and compare. An entry with the same first word
		 * is this spelling if it has no second word; a longer one would
		 * differ in byte n, or (n == 8) have one.
		 */
		uint64_t a = text_kw_low(text_kw_load((const unsigned char *)s) | 0x2020202020202020ull, n);
		for (unsigned i = text_kw_slot_of(a);; i = (i + 1) & (TEXT_KW_SLOTS - 1)) {
			unsigned k = text_kw_table.slot[i];
			if (!k)
				return -1;
			const text_kw_entry *e = &text_kw_table.entry[k];
			if (e->w[0] == a && e->w[1] == 0)
				return e->kw;
		}
	}
	uint64_t w[3];
	unsigned i = text_kw_fold((const unsigned char *)s, n, w);
	for (;;) {
		unsigned k = text_kw_table.slot[i];
		if (!k)
			return -1;
		const text_kw_entry *e = &text_kw_table.entry[k];
		/*
		 * Equal words mean equal lengths: a folded byte is never 0 (| 0x20),
		 * and both sides are zero past their ends.
		 */
		if (e->w[0] == w[0] && e->w[1] == w[1] && e->w[2] == w[2])
			return e->kw;
		i = (i + 1) & (TEXT_KW_SLOTS - 1);
	}
}
/* The long (pretty) spelling of keyword index kw. */
const char *text_keyword_long(int kw);

/* Token flags. */
#define TOK_OPTIONAL 1u /* "O-" prefix on a command keyword */
#define TOK_WILDCARD 2u /* "W-" prefix on a command keyword */

typedef struct text_tok {
	uint32_t off, len; /* bytes of the input */
	int kw;            /* keyword index or -1 */
	unsigned flags;
} text_tok;

/*
 * Sets *t with one 16-byte store where the compiler allows: the parser copies
 * the token with wide loads right after the scanner returns, and a wide load
 * of several narrow stores waits for them to reach the cache (a store
 * forwarding stall, measured at ~10% of a decode).
 */
static inline void text_tok_set(text_tok *t, uint32_t off, uint32_t len, int kw, unsigned flags)
{
#if defined(__GNUC__) && defined(__SSE2__)
	typedef uint32_t v4u __attribute__((vector_size(16)));
	v4u v = {off, len, (uint32_t)kw, flags};
	memcpy(t, &v, sizeof v);
#else
	*t = (text_tok){off, len, kw, flags};
#endif
}

/*
 * The scanner makes tokens in batches of up to this many (a corpus message
 * is ~30): one call into flex per batch, not per token. A call costs ~40
 * instructions (flex's entry, register saves, state reloads): at 8 rather
 * than 4, pretty decode 10 033 -> 9 830 and compact 9 271 -> 9 064
 * instructions a message (callgrind), by time the same within noise
 * (megaco-ab, 21 rounds, both orders: 0.97-1.03). Bigger batches timed
 * slower in earlier megaco-ab runs (16 by ~2 %, 32 more), though they take
 * fewer instructions still.
 */
#ifndef TEXT_SCAN_BATCH /* CI also builds the text tests with 1: every token a batch edge */
#define TEXT_SCAN_BATCH 8
#endif
#define TEXT_SCAN_ERROR_TOKEN 1 /* bison's YYerror (megaco.y checks) */

/* flex's small allocations (scanner, buffer state, buffer stack): a bump pool. */
typedef struct text_scan_pool {
	size_t used;
	_Alignas(16) unsigned char mem[1024];
} text_scan_pool;

/* Scanner state: yyextra of the reentrant scanner, a global of the other. */
typedef struct text_scan_state {
	const unsigned char *in;     /* the caller's input */
	size_t len;
	const char *base;            /* start of the copy flex scans (input + two NULs) */
	const megaco_allocator *al;  /* for an input copy too big for the cached buffer */
	size_t max_token;
	size_t start;                /* start offset of a multi-rule token */
	unsigned pending;            /* PEND_* set by keywords, consumed by '{' or '=' */
	size_t word_max;             /* 0 until the version is seen, then max_token: a longer word takes the slow way */
	int join_ok;                 /* join_eq, once the version is seen */
	int version_held;            /* first pass: the version waits for the mId (VERSION_MID) */
	size_t version_off, version_len;
	unsigned depth, max_depth;   /* open braces and brackets; more than max_depth: MEGACO_ERR_TOO_DEEP */
	int join_eq;                 /* first pass: joined tokens ("= name {", "name : name", ...; grammar/README.md) */
	int err;                     /* a megaco_status the reader has reached, 0 if none */
	size_t err_off;
	const char *err_what;
	unsigned qn, qi;             /* tokens in the batch, and the next one to hand out */
	int q_err;                   /* the error behind the batch's TEXT_SCAN_ERROR token */
	size_t q_err_off;
	const char *q_err_what;
	unsigned char *copy;         /* allocated input copy, or NULL (the cached buffer) */
	text_scan_pool *pool;        /* flex's small allocations */
	void *scanner;               /* the reentrant scanner (yyscan_t), NULL for the other */
	int cached;                  /* scanner is the thread's cached one */
	text_scan_pool own;          /* pool of a non-cached reentrant scanner (not zeroed) */
	/* The batch: tokens the scanner has made and the reader not taken yet (not zeroed). */
	text_tok qtok[TEXT_SCAN_BATCH];
	unsigned char qtype[TEXT_SCAN_BATCH];
} text_scan_state;

#define PEND_LR 1u     /* Local/Remote: the next '{' opens an octet string */
#define PEND_DM 2u     /* DigitMap: the next '{' opens a digit map body */
#define PEND_MID 4u    /* ServiceChangeAddress/MgcIdToTry: after '=' comes an mId */

union TEXT_YYSTYPE;

/*
 * One scanner generation each: open on st->in/len (copies the input), pull
 * tokens (each token's bytes are in lval->tok, the end of input's too),
 * close. The global-state pair must be used under text_decode.c's
 * mutex. Open returns 0 or a megaco_status; close is needed only after a
 * successful open.
 */
int text_scan_re_open(text_scan_state *st);
int text_re_lex(union TEXT_YYSTYPE *lval, void *scanner);
void text_scan_re_close(text_scan_state *st);
int text_scan_nr_open(text_scan_state *st);
int text_nr_lex(union TEXT_YYSTYPE *lval);
void text_scan_nr_close(text_scan_state *st);

/*
 * The next token (its bytes in *tok): from the batch, which the chosen
 * scanner (st->scanner, or the global one when NULL) refills when it runs
 * out. The scanner runs ahead of the reader only over tokens: what it
 * decides never depends on the parser. A scanner error is queued as
 * TEXT_SCAN_ERROR_TOKEN, and a reader that stops on that token calls
 * text_scan_took_error: the error becomes the scan's only then, so an error
 * the parser finds first is still the one reported. (Every reader tests for
 * the token anyway; the hand-out itself does not.)
 */
static inline int text_scan_next(text_scan_state *st, text_tok *tok)
{
	if (st->qi == st->qn) {
		st->qi = st->qn = 0;
		if (st->scanner)
			text_re_lex(NULL, st->scanner);
		else
			text_nr_lex(NULL);
	}
	unsigned i = st->qi++;
	*tok = st->qtok[i];
	return st->qtype[i];
}

/*
 * The last token handed out (as text_scan_next set it), or NULL before the
 * first: the batch keeps it until the next call refills the batch.
 */
static inline const text_tok *text_scan_last(const text_scan_state *st)
{
	return st->qi ? &st->qtok[st->qi - 1] : NULL;
}

/* If the last token handed out was the scanner's error token, its error is the scan's now. */
static inline void text_scan_took_error(text_scan_state *st)
{
	if (st->qi && st->qtype[st->qi - 1] == TEXT_SCAN_ERROR_TOKEN) {
		st->err = st->q_err;
		st->err_off = st->q_err_off;
		st->err_what = st->q_err_what;
	}
}

#endif
