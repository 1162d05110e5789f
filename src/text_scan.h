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

/* Byte offsets, [first, last). */
typedef struct text_loc {
	size_t first, last;
} text_loc;

/* Scanner state: yyextra of the reentrant scanner, a global of the other. */
typedef struct text_scan_state {
	const unsigned char *in;     /* the caller's input */
	size_t len;
	const char *base;            /* start of flex's copy of the input */
	const megaco_allocator *al;  /* flex's own buffers come from here */
	size_t max_token;
	size_t start;                /* start offset of a multi-rule token */
	unsigned pending;            /* PEND_* set by keywords, consumed by '{' or '=' */
	int version_seen;
	int err;                     /* a megaco_status set by the scanner, 0 if none */
	size_t err_off;
	const char *err_what;
	unsigned char *copy;         /* input + two NULs, as yy_scan_buffer wants */
	size_t pool_used;
	_Alignas(16) unsigned char pool[1024]; /* flex's small allocations */
} text_scan_state;

#define PEND_LR 1u     /* Local/Remote: the next '{' opens an octet string */
#define PEND_DM 2u     /* DigitMap: the next '{' opens a digit map body */
#define PEND_MID 4u    /* ServiceChangeAddress/MgcIdToTry: after '=' comes an mId */

union TEXT_YYSTYPE;
struct text_parse;

/* One scanner generation: open on the input, pull tokens, close. */
int text_scan_re_open(text_scan_state *st, void **scanner);
int text_scan_re_next(union TEXT_YYSTYPE *lval, text_loc *lloc, void *scanner);
void text_scan_re_close(void *scanner);
int text_scan_nr_open(text_scan_state *st, void **scanner);
int text_scan_nr_next(union TEXT_YYSTYPE *lval, text_loc *lloc, void *scanner);
void text_scan_nr_close(void *scanner);

#endif
