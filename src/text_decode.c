/*
 * Text decoding entry point (pretty and compact share one scanner and one
 * parser): copies the input where flex can scan it, runs the bison parser
 * (grammar/megaco.y) over the chosen scanner (grammar/megaco.l, reentrant or
 * global-state), and turns the first error into a megaco_error with line and
 * column.
 *
 * The global-state scanner keeps its state in flex's static variables, so
 * every use of it runs under nr_lock: one non-reentrant decode at a time in
 * the whole process, whatever the thread. The reentrant scanner needs no lock.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "MegacoMessage.h"
#include "megaco_parse.h"
#include "text_parse.h"

static pthread_mutex_t nr_lock = PTHREAD_MUTEX_INITIALIZER;

int text_next_token(text_parse *px, union TEXT_YYSTYPE *lval, text_loc *lloc)
{
	int t = px->next(lval, lloc, px->scanner);
	if (t == LBRKT || t == LSBRKT) {
		if (++px->depth > px->max_depth) {
			tb_fail(px, MEGACO_ERR_TOO_DEEP, lloc->first, "nesting deeper than %u", px->max_depth);
			return TEXT_YYerror;
		}
		/* Name the construct: "al/of {" in a list, else the last keyword (Media {). */
		if (px->depth <= TEXT_CONTEXTS)
			px->open[px->depth - 1] = (px->prev_kind == SAFE &&
			                           (px->prev2_kind == LBRKT || px->prev2_kind == COMMA))
			                              ? px->prev_tok : px->last_kw;
	}
	px->closed = (t == RBRKT || t == RSBRKT) && px->depth;
	if (px->closed)
		px->depth--;
	px->prev2_kind = px->prev_kind;
	px->prev_kind = t;
	if (t > 0 && t != TEXT_YYerror) {
		px->prev_tok = lval->tok;
		if (lval->tok.kw >= 0 && t != SAFE && t != QSTRING)
			px->last_kw = lval->tok;
	}
	return t;
}

/* "while parsing Media (line 4, column 9): " for the innermost open brace, or "". */
static void context_prefix(const text_parse *px, char *out, size_t cap);

/* 1-based line and byte column of offset off; LF, CR LF and lone CR end lines. */
static void line_col(const unsigned char *in, size_t len, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1;
	size_t start = 0;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (in[i] == '\n' || (in[i] == '\r' && (i + 1 >= len || in[i + 1] != '\n'))) {
			l++;
			start = i + 1;
		}
	}
	*line = l;
	*col = (unsigned)(off - start + 1);
}

static void context_prefix(const text_parse *px, char *out, size_t cap)
{
	out[0] = 0;
	unsigned d = px->err_depth;
	if (!d)
		return;
	const text_tok *c = &px->open[(d > TEXT_CONTEXTS ? TEXT_CONTEXTS : d) - 1];
	if (!c->len)
		return;
	unsigned line, col;
	line_col(px->in, px->len, c->off, &line, &col);
	if (c->kw >= 0)
		snprintf(out, cap, "while parsing %s (line %u, column %u): ", text_keyword_long(c->kw),
		         line, col);
	else
		snprintf(out, cap, "while parsing %.*s (line %u, column %u): ",
		         (int)(c->len > 32 ? 32 : c->len), (const char *)px->in + c->off, line, col);
}

static int run(text_parse *px, int reentrant)
{
	int rc;
	if (reentrant) {
		rc = text_scan_re_open(px->scan, &px->scanner);
		if (rc)
			return rc;
		px->next = text_scan_re_next;
		rc = text_yyparse(px);
		text_scan_re_close(px->scanner);
		return rc;
	}
	pthread_mutex_lock(&nr_lock);
	rc = text_scan_nr_open(px->scan, &px->scanner);
	if (!rc) {
		px->next = text_scan_nr_next;
		rc = text_yyparse(px);
		text_scan_nr_close(px->scanner);
	}
	pthread_mutex_unlock(&nr_lock);
	return rc;
}

int text_decode_message(const unsigned char *buf, size_t len, const megaco_options *opts,
                        megaco_message **out, megaco_error *err)
{
	megaco_options store;
	const megaco_options *o = options_or_default(opts, &store);
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	/* Token offsets are 32-bit (text_tok). */
	if (len > UINT32_MAX - 2)
		return set_error(err, MEGACO_ERR_TOO_LARGE, 0, "text messages are limited to 4 GiB");
	text_scan_state st;
	memset(&st, 0, offsetof(text_scan_state, pool));
	st.in = buf;
	st.len = len;
	st.al = al;
	st.max_token = o->max_token_length ? o->max_token_length : (size_t)-1;

	/* flex scans in place from a buffer that ends in two NULs. */
	st.copy = al->alloc(al->user_data, len + 2);
	if (!st.copy)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	memcpy(st.copy, buf, len);
	st.copy[len] = st.copy[len + 1] = 0;

	megaco_message *msg = message_create(MEGACO_NAMES_TEXT, o);
	if (!msg) {
		al->free(al->user_data, st.copy);
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	}
	text_parse px;
	memset(&px, 0, sizeof px);
	px.msg = msg;
	px.A = &msg->arena;
	px.in = buf;
	px.len = len;
	px.scan = &st;
	px.max_depth = o->max_depth ? o->max_depth : MEGACO_DEPTH_CEILING;
	if (px.max_depth > MEGACO_DEPTH_CEILING)
		px.max_depth = MEGACO_DEPTH_CEILING;

	megaco_arena *prev = arena_set_current(&msg->arena);
	int rc = run(&px, o->scanner != MEGACO_SCANNER_NON_REENTRANT);
	arena_set_current(prev);
	al->free(al->user_data, st.copy);

	if (rc == 0 && !px.err && !st.err && !msg->arena.failed) {
		*out = msg;
		clear_error(err);
		return MEGACO_OK;
	}
	int code;
	size_t off;
	char text[256]; /* context + builder text; megaco_error.message truncates */
	if (st.err) {
		code = st.err;
		off = st.err_off;
		snprintf(text, sizeof text, "found %s", st.err_what);
	} else if (px.err) {
		code = px.err;
		off = px.err_off;
		char ctx[80];
		context_prefix(&px, ctx, sizeof ctx);
		snprintf(text, sizeof text, "%s%s", ctx, px.err_text);
	} else if (rc == 2 || msg->arena.failed) {
		code = MEGACO_ERR_NOMEM;
		off = 0;
		snprintf(text, sizeof text, "out of memory");
	} else if (rc < 0) {
		code = rc;
		off = 0;
		snprintf(text, sizeof text, "%s", megaco_strerror(rc));
	} else {
		code = MEGACO_ERR_SYNTAX;
		off = 0;
		snprintf(text, sizeof text, "syntax error");
	}
	megaco_message_free(msg);
	unsigned line, col;
	line_col(buf, len, off, &line, &col);
	return set_error_text(err, code, off, line, col, "%s (line %u, column %u)", text, line, col);
}
