/*
 * Text decoding entry point (pretty and compact share one scanner and one
 * parser): copies the input where flex can scan it, runs the bison parser
 * (grammar/megaco.y) over the chosen scanner (grammar/megaco.l, reentrant or
 * global-state), and turns the first error into a megaco_error with line and
 * column.
 *
 * Per token, the parse keeps nothing (the scanner keeps the brace depth); an
 * error's context ("while parsing Media ...") comes from scanning the input
 * again once it has failed.
 * A decode is tried first with the scanner joining the most frequent token
 * runs ("= name {", "keyword = name {", "name : name", ...; grammar/README.md)
 * into one token each (fewer tokens for most messages); if that fails for
 * any reason but memory, it is decoded again token by token, and that pass
 * says what the error is (grammar/megaco.y, eq_tids).
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

static void scan_init(text_scan_state *st, const unsigned char *buf, size_t len,
                      const megaco_options *o)
{
	/* arena_zero, not memset: ~160 bytes would be a `rep stos`, once per decode. */
	arena_zero(st, offsetof(text_scan_state, own));
	st->in = buf;
	st->len = len;
	st->al = o->allocator ? o->allocator : &megaco_default_allocator;
	/* o is resolved (internal.h): its limits are never 0, its depth within the ceiling. */
	st->max_token = o->max_token_length;
	st->max_depth = o->max_depth;
}

/*
 * Replays the tokens before a grammar error's token, keeping what the parse
 * itself no longer keeps: for each open brace, the construct it belongs to
 * ("al/of {" in a list, else the last keyword, as in Media {). The replay
 * stops at err_last, the last token the parser read (found again by its
 * bytes: no two tokens have the same offset and length), before it or after
 * it as err_replay says.
 */
void text_error_context(const text_parse *px, char *out, size_t cap)
{
	enum { CONTEXTS = 32 }; /* innermost contexts; deeper ones are not recorded */
	text_tok open[CONTEXTS], prev_tok = {0}, last_kw = {0};
	int prev_kind = 0, prev2_kind = 0;
	unsigned depth = 0;
	out[0] = 0;
	if (!px->err_replay)
		return;
	megaco_options o;
	megaco_options_init(&o);
	o.max_token_length = px->scan->max_token;
	o.max_depth = px->scan->max_depth;
	o.allocator = px->scan->al;
	text_scan_state st;
	scan_init(&st, px->in, px->len, &o);
	if (text_scan_re_open(&st))
		return;
	text_tok tok;
	for (;;) {
		int t = text_scan_next(&st, &tok);
		if (t <= 0 || t == TEXT_YYerror)
			break;
		int at_last = tok.off == px->err_last.off && tok.len == px->err_last.len;
		if (at_last && px->err_replay == 1)
			break;
		if (t == LBRKT || t == LSBRKT) {
			depth++;
			if (depth <= CONTEXTS)
				open[depth - 1] = (prev_kind == SAFE && (prev2_kind == LBRKT || prev2_kind == COMMA))
				                      ? prev_tok : last_kw;
		} else if ((t == RBRKT || t == RSBRKT) && depth) {
			depth--;
		}
		prev2_kind = prev_kind;
		prev_kind = t;
		prev_tok = tok;
		if (tok.kw >= 0 && t != SAFE && t != QSTRING)
			last_kw = tok;
		if (at_last)
			break;
	}
	text_scan_re_close(&st);
	if (!depth)
		return;
	const text_tok *c = &open[(depth > CONTEXTS ? CONTEXTS : depth) - 1];
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

/*
 * Keywords that are spellings of one item for the at-most-once rules: an
 * Emergency and an EmergencyOff are both "the emergency property", and so on.
 */
static int item_class(int kw)
{
	switch (kw) {
	case TEXT_KW_EMERGENCY_OFF: return TEXT_KW_EMERGENCY;
	case TEXT_KW_OR_AUDITSELECT: return TEXT_KW_AND_AUDITSELECT;
	case TEXT_KW_NOTIFY_IMMEDIATE:
	case TEXT_KW_NOTIFY_REGULATED: return TEXT_KW_NEVER_NOTIFY;
	default: return kw;
	}
}

static int same_word(const text_parse *px, const text_tok *a, const text_tok *b)
{
	if (a->len != b->len)
		return 0;
	for (uint32_t i = 0; i < a->len; i++) {
		unsigned char x = px->in[a->off + i], y = px->in[b->off + i];
		x = x >= 'A' && x <= 'Z' ? (unsigned char)(x + 32) : x;
		y = y >= 'A' && y <= 'Z' ? (unsigned char)(y + 32) : y;
		if (x != y)
			return 0;
	}
	return 1;
}

/*
 * The item at err_off is found in a first replay (its keyword, or its bytes
 * for a name, and its depth); a second replay looks for the first item like
 * it at the start of a list member (after '{', '[' or ',') at that depth,
 * inside the braces that hold the second.
 */
void text_first_item(const text_parse *px, char *out, size_t cap)
{
	out[0] = 0;
	text_tok want = {0};
	unsigned want_depth = 0;
	int want_eq = -1, found = 0;
	size_t first = (size_t)-1;
	megaco_options o;
	megaco_options_init(&o);
	o.max_token_length = px->scan->max_token;
	o.max_depth = px->scan->max_depth;
	o.allocator = px->scan->al;
	for (int pass = 0; pass < 2 && (pass == 0 || found); pass++) {
		text_scan_state st;
		scan_init(&st, px->in, px->len, &o);
		if (text_scan_re_open(&st))
			return;
		text_tok tok;
		unsigned depth = 0;
		int prev = LBRKT, at_start = 0;
		size_t pending = (size_t)-1;
		for (;;) {
			int t = text_scan_next(&st, &tok);
			if (t <= 0 || t == TEXT_YYerror)
				break;
			if (pass == 0 && found) { /* the token after the second item */
				want_eq = px->twice_eq ? t == EQUAL : -1;
				break;
			}
			if (pending != (size_t)-1) {
				if (want_eq < 0 || want_eq == (t == EQUAL))
					first = pending;
				pending = (size_t)-1;
			}
			if (tok.off == px->err_off) {
				if (pass == 0) {
					want = tok;
					want_depth = depth;
					found = 1;
					if (px->twice_kw >= 0)
						want.kw = px->twice_kw;
					continue;
				}
				break;
			}
			at_start = prev == LBRKT || prev == LSBRKT || prev == COMMA;
			if (pass == 1 && depth == want_depth && at_start && first == (size_t)-1 &&
			    (want.kw >= 0 ? tok.kw >= 0 && t != SAFE && item_class(tok.kw) == item_class(want.kw)
			                  : t == SAFE && same_word(px, &tok, &want)))
				pending = tok.off;
			if (t == LBRKT || t == LSBRKT) {
				if (++depth == want_depth)
					first = (size_t)-1; /* a new list at that depth */
			} else if ((t == RBRKT || t == RSBRKT) && depth) {
				depth--;
			}
			prev = t;
		}
		text_scan_re_close(&st);
	}
	if (first == (size_t)-1)
		return;
	unsigned line, col;
	line_col(px->in, px->len, first, &line, &col);
	snprintf(out, cap, ", first at line %u, column %u", line, col);
}

static int run(text_parse *px, int reentrant)
{
	int rc;
	if (reentrant) {
		rc = text_scan_re_open(px->scan);
		if (rc)
			return rc;
		rc = text_yyparse(px);
		text_scan_re_close(px->scan);
		return rc;
	}
	pthread_mutex_lock(&nr_lock);
	rc = text_scan_nr_open(px->scan);
	if (!rc) {
		rc = text_yyparse(px);
		text_scan_nr_close(px->scan);
	}
	pthread_mutex_unlock(&nr_lock);
	return rc;
}

/*
 * The builders carve the model from chunks of the arena, each marked used
 * in it when taken (text_build.c says why, above refill()). The first is
 * the whole free tail of the message's first block, taken here; what is
 * left of the last goes back afterwards, for whatever is allocated in the
 * message later, if nothing was allocated after it.
 */
static void take_tail(text_parse *px)
{
	char *lim;
	char *p = arena_tail_take(px->A, 0, &lim);
	if (p) {
		arena_tail_return(px->A, lim);
		px->carve = (unsigned char *)p;
		px->carve_end = (unsigned char *)lim;
	}
}

static int scan_error(const text_scan_state *st, megaco_error *err)
{
	unsigned line, col;
	line_col(st->in, st->len, st->err_off, &line, &col);
	if (st->err == MEGACO_ERR_TOO_DEEP)
		return set_error_text(err, st->err, st->err_off, line, col,
		                      "nesting deeper than %u (line %u, column %u)", st->max_depth, line, col);
	return set_error_text(err, st->err, st->err_off, line, col, "found %s (line %u, column %u)",
	                      st->err_what, line, col);
}

int text_scan_only(const unsigned char *buf, size_t len, const megaco_options *opts,
                   megaco_error *err)
{
	megaco_options store;
	const megaco_options *o = options_or_default(opts, &store);
	if (len > UINT32_MAX - 2)
		return set_error(err, MEGACO_ERR_TOO_LARGE, 0, "text messages are limited to 4 GiB");
	text_scan_state st;
	scan_init(&st, buf, len, o);
	st.join_eq = 1; /* as a decode's first pass scans */
	text_tok tok;
	int rc, t;
	if (o->scanner != MEGACO_SCANNER_NON_REENTRANT) {
		if ((rc = text_scan_re_open(&st)) != 0)
			return set_error(err, rc, 0, "%s", megaco_strerror(rc));
		while ((t = text_scan_next(&st, &tok)) > 0 && t != TEXT_YYerror)
			;
		text_scan_took_error(&st);
		text_scan_re_close(&st);
	} else {
		pthread_mutex_lock(&nr_lock);
		if ((rc = text_scan_nr_open(&st)) == 0) {
			while ((t = text_scan_next(&st, &tok)) > 0 && t != TEXT_YYerror)
				;
			text_scan_took_error(&st);
			text_scan_nr_close(&st);
		}
		pthread_mutex_unlock(&nr_lock);
		if (rc)
			return set_error(err, rc, 0, "%s", megaco_strerror(rc));
	}
	if (st.err)
		return scan_error(&st, err);
	clear_error(err);
	return MEGACO_OK;
}

int text_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err)
{
	/* Token offsets are 32-bit (text_tok). */
	if (len > UINT32_MAX - 2)
		return set_error(err, MEGACO_ERR_TOO_LARGE, 0, "text messages are limited to 4 GiB");
	text_scan_state st;
	text_parse px;
	megaco_message *msg;
	int rc;
	/*
	 * First with the scanner joining "= name" into one token (megaco.y's
	 * eq_safe), which is what almost every message takes. Whatever makes that
	 * pass fail, except memory, is decoded again token by token, and that
	 * pass's error is the one reported: the joined form never has to find or
	 * word an error itself. A failed allocation is final (a second pass would
	 * allocate again, with an allocator that has already said no).
	 */
	for (int join = 1;; join = 0) {
		scan_init(&st, buf, len, o);
		st.join_eq = join;
		msg = message_create(MEGACO_NAMES_TEXT, o);
		if (!msg)
			return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
		memset(&px, 0, offsetof(text_parse, err_text));
		px.err_text[0] = 0;
		px.msg = msg;
		px.A = &msg->arena;
		px.in = buf;
		px.len = len;
		px.scan = &st;
		take_tail(&px);

		/* No current arena (arena_set_current): nothing here reaches asn1c's allocation. */
		rc = run(&px, o->scanner != MEGACO_SCANNER_NON_REENTRANT);
		/* The parser stops at once on the scanner's error token. */
		text_scan_took_error(&st);

		if (rc == 0 && !px.err && !st.err && !msg->arena.failed) {
			tb_carve_give_back(&px);
			*out = msg;
			clear_error(err);
			return MEGACO_OK;
		}
		if (!join || rc < 0 || msg->arena.failed || px.err == MEGACO_ERR_NOMEM ||
		    (rc == 2 && !px.err))
			break;
		megaco_message_free(msg);
	}
	int code;
	size_t off;
	char text[320]; /* context + builder text + first item; megaco_error.message truncates */
	if (st.err) {
		megaco_message_free(msg);
		return scan_error(&st, err);
	} else if (px.err) {
		code = px.err;
		off = px.err_off;
		char ctx[80], first[48] = "";
		text_error_context(&px, ctx, sizeof ctx);
		if (px.twice)
			text_first_item(&px, first, sizeof first);
		snprintf(text, sizeof text, "%s%s%s", ctx, px.err_text, first);
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
