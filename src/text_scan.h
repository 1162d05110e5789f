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

/* Keyword indexes, in keywords.def order. */
enum text_kw {
#define MEGACO_KW(id, l, s) TEXT_KW_##id,
#include "keywords.def"
#undef MEGACO_KW
	TEXT_KW_COUNT
};

/* Returns the keyword index of s[0..n) (case-insensitive, long or short form), or -1. */
int text_keyword_lookup(const char *s, size_t n);
/* Builds the keyword table once per process; the scanners' open functions call it. */
void text_keyword_init(void);
/* text_keyword_lookup once text_keyword_init has run (the scanner's per-word call). */
int text_keyword_lookup_built(const char *s, size_t n);
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

/* Byte offsets, [first, last): 32 bits, as text_tok's (bison copies one per symbol). */
typedef struct text_loc {
	uint32_t first, last;
} text_loc;

/* Sets *l with one 8-byte store, for the same reason as text_tok_set. */
static inline void text_loc_set(text_loc *l, uint32_t first, uint32_t last)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v = (uint64_t)first | (uint64_t)last << 32;
	memcpy(l, &v, sizeof v);
#else
	*l = (text_loc){first, last};
#endif
}

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
	int version_seen;
	int err;                     /* a megaco_status set by the scanner, 0 if none */
	size_t err_off;
	const char *err_what;
	unsigned char *copy;         /* allocated input copy, or NULL (the cached buffer) */
	text_scan_pool *pool;        /* flex's small allocations */
	void *scanner;               /* the reentrant scanner (yyscan_t), NULL for the other */
	int cached;                  /* scanner is the thread's cached one */
	text_scan_pool own;          /* pool of a non-cached reentrant scanner (not zeroed) */
} text_scan_state;

#define PEND_LR 1u     /* Local/Remote: the next '{' opens an octet string */
#define PEND_DM 2u     /* DigitMap: the next '{' opens a digit map body */
#define PEND_MID 4u    /* ServiceChangeAddress/MgcIdToTry: after '=' comes an mId */

union TEXT_YYSTYPE;

/*
 * One scanner generation each: open on st->in/len (copies the input), pull
 * tokens, close. The global-state pair must be used under text_decode.c's
 * mutex. Open returns 0 or a megaco_status; close is needed only after a
 * successful open.
 */
int text_scan_re_open(text_scan_state *st);
int text_re_lex(union TEXT_YYSTYPE *lval, text_loc *lloc, void *scanner);
void text_scan_re_close(text_scan_state *st);
int text_scan_nr_open(text_scan_state *st);
int text_nr_lex(union TEXT_YYSTYPE *lval, text_loc *lloc);
void text_scan_nr_close(text_scan_state *st);

#endif
