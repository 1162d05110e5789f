/*
 * Text encoder: the model (names in text form, docs/model.md) -> pretty or
 * compact H.248.1 text (../shared/spec/h248v3.abnf). One recursive pass over
 * the asn1c structures writes straight into the caller's buffer through the
 * inline writer of text_enc_writer.h; keyword spellings come from keywords.def.
 *
 * Layout is Erlang/OTP megaco's: the corpus's pretty texts were written by its
 * pretty printer (one construct per line, tab indentation, " = ", " {"), and
 * compact is that layout without optional blanks, with the short keywords. A
 * level argument `l` is the indentation of the construct being written; its
 * contents go at l + 1. Where Erlang's output would not re-parse under the ABNF
 * (a stream in a topology triple, a digit map value in an event) the ABNF wins;
 * so it does for a statistic's value list, "name [a, b]", which Erlang's
 * encoder cannot write and its parser reads only as "name = [a, b]" (our
 * decoder takes both).
 *
 * The model is sound (model_check(): every CHOICE has an alternative, so no
 * switch below has a case for none), and a model element newer than the
 * message's version never gets here: every encoder's caller runs the one
 * version gate first (version_check.c, over the schema's versions), so this
 * file checks only what v1/v2 text lacks beyond the model (TEXT_SINCE_*,
 * MEGACO_ERR_VERSION_MISMATCH). Model content the text
 * encoding cannot carry (nonStandardData, an audited event's stream) is
 * MEGACO_ERR_UNSUPPORTED, a value no quoting can hold MEGACO_ERR_CONSTRAINT,
 * a name not in text form MEGACO_ERR_UNKNOWN_NAME. Dropped quietly are only
 * things text spells as absence: a FALSE keepActive, empty optional lists, and
 * the request ID of an Events descriptor without events (bare "Events").
 */
#include <stdarg.h>
#include <stdio.h>

#include "MegacoMessage.h"
#include "internal.h"
#include "schema.h"
#include "text_enc_writer.h"
#include "text_model_rules.h"
#include "text_scan.h"
#include "validate.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---------------------------------------------------------------- keywords */

enum {
#define MEGACO_KW(id, l, s) KW_##id,
#include "keywords.def"
#undef MEGACO_KW
	KW__COUNT
};

/*
 * Spellings padded to TW_PAD bytes, so writing one is a fixed-size copy
 * (tw_put_padded). The _eq tables hold the keyword with its " = " / "="
 * already appended: a keyword followed by an equals sign is the commonest
 * pair in the output.
 */
typedef struct kw_spelling {
	char s[TW_PAD - 1];
	unsigned char n;
} kw_spelling;
_Static_assert(sizeof(kw_spelling) == TW_PAD, "one padded copy per keyword");

static const kw_spelling kw_long[KW__COUNT] = {
#define MEGACO_KW(id, l, s) { l, sizeof(l) - 1 },
#include "keywords.def"
#undef MEGACO_KW
};
static const kw_spelling kw_short[KW__COUNT] = {
#define MEGACO_KW(id, l, s) { s, sizeof(s) - 1 },
#include "keywords.def"
#undef MEGACO_KW
};
static const kw_spelling kw_long_eq[KW__COUNT] = {
#define MEGACO_KW(id, l, s) { l " = ", sizeof(l) + 2 },
#include "keywords.def"
#undef MEGACO_KW
};
static const kw_spelling kw_short_eq[KW__COUNT] = {
#define MEGACO_KW(id, l, s) { s "=", sizeof(s) },
#include "keywords.def"
#undef MEGACO_KW
};

/* ------------------------------------------------------------ characters */

/*
 * Octet classes: TOK may appear in an unquoted VALUE or a name (SafeChar and
 * %x80-FF), QUO only inside a quoted string (RestChar, blanks, line ends);
 * 0 nowhere (the double quote, other control characters, DEL). The ABNF's
 * NAME is narrower than TOK, but the parser takes any VALUE-like token for a
 * name, and what it reads we write back; control octets are what a name
 * still in binary form gives away. Tables are built by the preprocessor.
 */
enum { TOK = 1, QUO = 2 };
#define SAFE_CH(c)                                                                                 \
	(((c) >= '0' && (c) <= '9') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z') || \
	 (c) >= 0x80 || (c) == '+' || (c) == '-' || (c) == '&' || (c) == '!' || (c) == '_' ||      \
	 (c) == '/' || (c) == '\'' || (c) == '?' || (c) == '@' || (c) == '^' || (c) == '`' ||      \
	 (c) == '~' || (c) == '*' || (c) == '$' || (c) == '\\' || (c) == '(' || (c) == ')' ||      \
	 (c) == '%' || (c) == '|' || (c) == '.')
#define REST_CH(c)                                                                                 \
	((c) == ';' || (c) == '[' || (c) == ']' || (c) == '{' || (c) == '}' || (c) == ':' ||        \
	 (c) == ',' || (c) == '#' || (c) == '<' || (c) == '>' || (c) == '=' || (c) == ' ' ||        \
	 (c) == '\t' || (c) == '\r' || (c) == '\n')
#define TABLE4(f, c) f(c), f((c) + 1), f((c) + 2), f((c) + 3)
#define TABLE16(f, c) TABLE4(f, c), TABLE4(f, (c) + 4), TABLE4(f, (c) + 8), TABLE4(f, (c) + 12)
#define TABLE64(f, c)                                                                              \
	TABLE16(f, c), TABLE16(f, (c) + 16), TABLE16(f, (c) + 32), TABLE16(f, (c) + 48)
#define TABLE256(f) { TABLE64(f, 0), TABLE64(f, 64), TABLE64(f, 128), TABLE64(f, 192) }

#define CLS(c) (SAFE_CH(c) ? TOK : REST_CH(c) ? QUO : 0)
static const unsigned char cls[256] = TABLE256(CLS);
/*
 * Version 1's (RFC 3525): VALUE and quotedString are ASCII, and quotedString
 * has no line ends. The encoder reads the table of its message's version, so
 * the per-octet loop is the same one.
 */
#define CLS_V1(c) ((c) >= 0x80 || (c) == '\r' || (c) == '\n' ? 0 : CLS(c))
static const unsigned char cls_v1[256] = TABLE256(CLS_V1);

/* 1 for octets a name cannot hold (one load per octet in the hot loop). */
#define NOT_NAME(c) (!SAFE_CH(c))
static const unsigned char not_name[256] = TABLE256(NOT_NAME);

/* SDP octets that need attention: NUL, CR, LF (refused) and '}' (escaped). */
#define SDP_SPECIAL(c) ((c) == 0 || (c) == '\r' || (c) == '\n' || (c) == '}')
static const unsigned char sdp_special[256] = TABLE256(SDP_SPECIAL);

/* Octets a digit map body cannot hold: braces, '"', control octets but HTAB, CR, LF. */
#define DM_BAD(c)                                                                                  \
	((c) == '{' || (c) == '}' || (c) == '"' ||                                                 \
	 ((c) < 0x20 && (c) != '\t' && (c) != '\r' && (c) != '\n'))
static const unsigned char dm_bad[256] = TABLE256(DM_BAD);

/* ---------------------------------------------------------------- context */

/*
 * Embedded events can nest without end in the model (RegulatedNotify inside
 * an embedded event); decoders stop far earlier (options.max_depth), so this
 * only bounds our stack for hand-built models.
 */
#define EMBED_DEPTH_LIMIT 128u

typedef struct enc {
	text_writer w;
	const kw_spelling *kw;
	const kw_spelling *kweq; /* kw followed by eq() */
	const unsigned char *cls; /* octet classes of the message's version: cls or cls_v1 */
	int compact;
	long version;
	int rc;           /* first error, sticky; later writes are harmless */
	megaco_error *err;
	unsigned depth;   /* embedded-descriptor nesting (the model allows cycles) */
	unsigned depth_max; /* the deepest it got: bounds the brace nesting written */
	/* the node a fail_at() names; its path is found after the fact */
	const asn_TYPE_descriptor_t *at_td;
	const void *at;
} enc;

/*
 * The first error, with the node (of type td; NULL for none) whose path the
 * message gets.
 */
TW_COLD void fail_at(enc *e, const asn_TYPE_descriptor_t *td, const void *node, int code,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
TW_COLD void fail_at(enc *e, const asn_TYPE_descriptor_t *td, const void *node, int code,
                     const char *fmt, ...)
{
	if (e->rc)
		return;
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	e->at_td = td;
	e->at = node;
	e->rc = set_error(e->err, code, tw_len(&e->w), "%s", msg);
}
#define fail(e, code, ...) fail_at(e, NULL, NULL, code, __VA_ARGS__)

/* Returns 1 when the message's version's text has `what`, else records the mismatch. */
static int need(enc *e, long v, const char *what)
{
	if (e->version >= v)
		return 1;
	fail(e, MEGACO_ERR_VERSION_MISMATCH, "%s needs H.248.1 version %ld; the message is version %ld",
	     what, v, e->version);
	return 0;
}

/*
 * A part of the model that is present but that text spells as its absence
 * (an empty optional list or SEQUENCE, a FALSE flag): refused, since the text
 * would read back as another message.
 */
TW_COLD void no_form(enc *e, const asn_TYPE_descriptor_t *td, const void *node, const char *what)
{
	fail_at(e, td, node, MEGACO_ERR_CONSTRAINT, "%s has no text form", what);
}

/* Braces the ABNF wants something inside of; the model can leave them empty. */
static void nonempty(enc *e, int n, const char *what)
{
	if (!n)
		fail(e, MEGACO_ERR_CONSTRAINT, "empty %s has no text form", what);
}

/* ------------------------------------------------------- layout primitives */

TW_INLINE void kw(enc *e, int id) { tw_put_padded(&e->w, e->kw[id].s, e->kw[id].n); }
/* kw(e, id) and then eq(e). */
TW_INLINE void kw_eq(enc *e, int id) { tw_put_padded(&e->w, e->kweq[id].s, e->kweq[id].n); }
TW_INLINE void ch(enc *e, char c) { tw_putc(&e->w, (unsigned char)c); }

TW_COLD void range_fail(enc *e, long long v, long long max, const char *what)
{
	fail(e, MEGACO_ERR_CONSTRAINT, "%s %lld is outside 0..%lld", what, v, max);
}

/*
 * A number the module bounds (asn1c's BER decoder does not check ranges, so
 * a model can hold what the text grammar cannot read back). Every bound is
 * at most 2^32 - 1.
 */
static inline void num_max(enc *e, long long v, long long max, const char *what)
{
	if (v < 0 || v > max)
		range_fail(e, v, max, what);
	else
		tw_u32(&e->w, (uint32_t)v);
}
#define U16 65535LL
#define U32 4294967295LL

static inline void eq(enc *e)
{
	if (e->compact)
		ch(e, '=');
	else
		TW_LIT(&e->w, " = ");
}

/* Pretty " {" and the next line's indentation: one padded copy when there is room. */
TW_INLINE void open_at(enc *e, char c, unsigned l)
{
	text_writer *w = &e->w;
	if (e->compact) {
		ch(e, c);
	} else if (TW_LIKELY(l + 1 < TW_PAD && tw_room(w) >= TW_PAD + 2)) {
		unsigned char *d = w->p;
		d[0] = ' ';
		d[1] = (unsigned char)c;
		memcpy(d + 2, tw_nl_tabs, TW_PAD);
		w->p = d + l + 4;
	} else {
		ch(e, ' ');
		ch(e, c);
		tw_nl_indent(w, l + 1);
	}
}

TW_INLINE void close_at(enc *e, char c, unsigned l)
{
	text_writer *w = &e->w;
	if (e->compact) {
		ch(e, c);
	} else if (TW_LIKELY(l + 1 < TW_PAD && tw_room(w) >= TW_PAD)) {
		unsigned char *d = w->p;
		memcpy(d, tw_nl_tabs, TW_PAD);
		d[l + 1] = (unsigned char)c;
		w->p = d + l + 2;
	} else {
		tw_nl_indent(w, l);
		ch(e, c);
	}
}

TW_INLINE void lb(enc *e, unsigned l) { open_at(e, '{', l); }
TW_INLINE void rb(enc *e, unsigned l) { close_at(e, '}', l); }
TW_INLINE void lsb(enc *e, unsigned l) { open_at(e, '[', l); }
TW_INLINE void rsb(enc *e, unsigned l) { close_at(e, ']', l); }
/* A keyword and " {": a descriptor's start. */
TW_INLINE void kw_lb(enc *e, int id, unsigned l)
{
	kw(e, id);
	lb(e, l);
}

/* Separator before an item at indentation l. */
TW_INLINE void cm(enc *e, unsigned l)
{
	text_writer *w = &e->w;
	if (e->compact) {
		ch(e, ',');
	} else if (TW_LIKELY(l < TW_PAD && tw_room(w) >= TW_PAD + 1)) {
		unsigned char *d = w->p;
		d[0] = ',';
		memcpy(d + 1, tw_nl_tabs, TW_PAD);
		w->p = d + l + 2;
	} else {
		ch(e, ',');
		tw_nl_indent(w, l);
	}
}

/* The same brackets and comma without a line break (" { ", ", "). */
static inline void inline_tok(enc *e, char c)
{
	if (e->compact) {
		ch(e, c);
	} else {
		char t[3] = { ' ', c, ' ' };
		tw_put(&e->w, t, 3);
	}
}
static inline void cm0(enc *e)
{
	if (e->compact)
		ch(e, ',');
	else
		TW_LIT(&e->w, ", ");
}

/* Writes the separator unless this is the first item of a list. */
#define SEP(e, n, l)                                                                               \
	do {                                                                                       \
		if ((n)++)                                                                         \
			cm((e), (l));                                                              \
	} while (0)

/*
 * Each element of the SEQUENCE OF at list as the next item of the list n at
 * indentation l, written by item(e, element, l); and the same in braces of
 * their own, a descriptor's body.
 */
#define EACH_ITEM(e, list, n, l, item)                                                             \
	for (int i_ = 0; i_ < (list)->count; i_++) {                                               \
		SEP(e, n, l);                                                                      \
		item(e, (list)->array[i_], l);                                                     \
	}
/* x, when present, as the next item of the list n at l, written by item(e, x, l). */
#define OPT_ITEM(e, n, l, item, x)                                                                 \
	do {                                                                                       \
		if (x) {                                                                           \
			SEP(e, n, l);                                                              \
			item(e, x, l);                                                             \
		}                                                                                  \
	} while (0)
#define BRACED_ITEMS(e, list, l, item)                                                             \
	do {                                                                                       \
		int n_ = 0;                                                                        \
		lb(e, l);                                                                          \
		EACH_ITEM(e, list, n_, (l) + 1, item)                                              \
		rb(e, l);                                                                          \
	} while (0)

/* Keyword id, when present, as the next item of the list n (at indentation l). */
static inline void list_kw(enc *e, int *n, int l, int id, int present)
{
	if (present) {
		SEP(e, *n, l);
		kw(e, id);
	}
}

/*
 * The items below are written only when v is present, as the next item of
 * the list n (at indentation l) or, with n NULL, without a separator.
 */

/*
 * "key = " (unless key is -1) and ENUMERATED value *v's keyword, kws[*v]: kws
 * is one of text_model_rules.h's tables (text_kw_*), which end in -1 and hold
 * -2 for a value without a keyword.
 */
TW_INLINE void enum_item(enc *e, int *n, unsigned l, int key, const long *v, const short *kws,
                         long count, const char *what)
{
	if (!v)
		return;
	if (n)
		SEP(e, *n, l);
	if (key >= 0)
		kw_eq(e, key);
	if (*v < 0 || *v >= count || kws[*v] < 0)
		fail(e, MEGACO_ERR_CONSTRAINT, "%s %ld", what, *v);
	else
		kw(e, kws[*v]);
}
/* A text_kw_* table and its number of values (its -1 end left out). */
#define KWS(t) t, (long)(sizeof t / sizeof t[0] - 1)

/* "key = " and *v, at most max. */
TW_INLINE void num_item(enc *e, int *n, unsigned l, int key, const long *v, long long max,
                        const char *what)
{
	if (!v)
		return;
	if (n)
		SEP(e, *n, l);
	kw_eq(e, key);
	num_max(e, *v, max, what);
}

/* "key = ON" or "key = OFF". */
TW_INLINE void on_off_item(enc *e, int *n, unsigned l, int key, const BOOLEAN_t *v)
{
	if (!v)
		return;
	if (n)
		SEP(e, *n, l);
	kw_eq(e, key);
	if (*v)
		TW_LIT(&e->w, "ON");
	else
		TW_LIT(&e->w, "OFF");
}

/* -------------------------------------------------------- names and values */

/*
 * A name (termination ID, pkg/item, parameter, digit map, package, profile):
 * written as the model holds it. Anything outside SafeChar cannot be a text
 * name, which is what a binary-form name that slipped through looks like.
 */
#if defined(__SSE2__)
/*
 * Bit k set when octet k of x is not a name octet (not_name[] for 16 octets
 * at once), or when high is all ones and octet k is above 0x7F (a termination
 * ID's pathNAME is ASCII). Each range is moved to the bottom of the signed
 * octet range by one addition, so one signed compare tests it: 0x00-0x20 and
 * DEL (plus one; this also catches every octet above 0x7F, which the sign
 * bits of x then let through unless high), 0x22-0x23, 0x3A-0x3E; then the
 * brackets and braces ("[]" are "{}" without bit 5) and ','.
 */
static inline int not_name16_hi(__m128i x, int high)
{
	__m128i m = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(1)), _mm_set1_epi8(0x22));
	m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x5E)),
	                                   _mm_set1_epi8(-128 + 2)));
	m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x46)),
	                                   _mm_set1_epi8(-128 + 5)));
	__m128i y = _mm_or_si128(x, _mm_set1_epi8(0x20));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(y, _mm_set1_epi8(0x7B)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(y, _mm_set1_epi8(0x7D)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x2C)));
	return _mm_movemask_epi8(m) & (high | ~_mm_movemask_epi8(x));
}
#endif

/*
 * Nonzero when p[0..n) holds an octet a name cannot: the check of names off
 * name_as()'s fast path (shorter than 4 or longer than 32 octets, or near the
 * end of the buffer), and of the error message.
 */
static unsigned not_name_any(const uint8_t *p, size_t n)
{
	unsigned bad = 0;
	for (size_t i = 0; i < n; i++)
		bad |= not_name[p[i]];
	return bad;
}

/* The octet classes find_class() looks for. */
enum { FIND_SDP, FIND_DM };

#if defined(__SSE2__)
/* Bit k set when octet k of p[0..16) is in class which (sdp_special or dm_bad). */
static inline unsigned class16(int which, const uint8_t *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), m;
	if (which == FIND_SDP) {
		m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_setzero_si128()),
		                              _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))),
		                 _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')),
		                              _mm_cmpeq_epi8(x, _mm_set1_epi8('}'))));
	} else {
		__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
		__m128i ok = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\t')),
		                                       _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))),
		                          _mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
		m = _mm_or_si128(_mm_andnot_si128(ok, ctl),
		                 _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('{')),
		                                           _mm_cmpeq_epi8(x, _mm_set1_epi8('}'))),
		                              _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))));
	}
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* Index of the first octet of p[i..n) in class which, or n. */
TW_INLINE size_t find_class(int which, const uint8_t *p, size_t i, size_t n)
{
#if defined(__SSE2__)
	if (n >= 16) {
		for (; i + 16 <= n; i += 16) {
			unsigned bits = class16(which, p + i);
			if (bits)
				return i + (size_t)__builtin_ctz(bits);
		}
		if (i < n) {
			/* The last 16 octets, ignoring those before i (already seen). */
			unsigned bits = class16(which, p + n - 16) >> (i - (n - 16));
			return bits ? i + (size_t)__builtin_ctz(bits) : n;
		}
		return n;
	}
#endif
	const unsigned char *table = which == FIND_SDP ? sdp_special : dm_bad;
	for (; i < n; i++)
		if (table[p[i]])
			return i;
	return n;
}

/* tid: the termination ID whose name this is (pathNAME: ASCII only), else NULL. */
TW_COLD void name_fail(enc *e, const OCTET_STRING_t *s, const TerminationID_t *tid,
                       const char *what)
{
	const uint8_t *p = s->buf;
	if (!p || s->size <= 0) {
		fail(e, MEGACO_ERR_UNKNOWN_NAME, "empty %s", what);
		return;
	}
	if (tid && !not_name_any(p, (size_t)s->size)) {
		fail_at(e, &asn_DEF_TerminationID, tid, MEGACO_ERR_CONSTRAINT,
		        "termination ID with a non-ASCII octet has no text form");
		return;
	}
	int i = 0;
	while (!not_name[p[i]])
		i++;
	fail(e, MEGACO_ERR_UNKNOWN_NAME,
	     "%s has octet 0x%02X, not text form (names must be mapped first)", what, p[i]);
}

/* name_as() past its fast path: any length, any room; the same result. */
static int name_slow(enc *e, const OCTET_STRING_t *s, const TerminationID_t *tid, const char *what)
{
	const uint8_t *p = s->buf;
	size_t n = s->size > 0 ? (size_t)s->size : 0;
	if (!p || !n || not_name_any(p, n) || (tid && !schema_ascii(p, n))) {
		name_fail(e, s, tid, what);
		return 1;
	}
	tw_put(&e->w, p, n);
	return memchr(p, '/', n) != NULL;
}

/*
 * A name written as the model holds it; with tid set (a termination ID's
 * pathNAME) octets above 0x7F are refused too, in the same checks: high is
 * then all ones, and not_name16_hi keeps those octets in its mask. Returns
 * nonzero when the name holds a '/' (or was refused). The fast path makes
 * no call but a tail call, so it needs no registers saved.
 */
TW_INLINE int name_as(enc *e, const OCTET_STRING_t *s, const TerminationID_t *tid,
                      const char *what)
{
#if defined(__SSE2__)
	const uint8_t *p = s->buf;
	size_t k = (unsigned)s->size; /* a negative size is huge here: the slow path's */
	const int high = tid ? 0xFFFF : 0;
	const __m128i slash = _mm_set1_epi8('/');
	/*
	 * The usual name (4 to 32 octets) with room to spare: the vectors that
	 * are checked are also what gets stored, at the same overlapping offsets.
	 */
	text_writer *w = &e->w;
	if (TW_LIKELY(p && k - 4 <= 28 && tw_room(w) >= 32)) {
		unsigned char *d = w->p;
		__m128i a, b;
		int bad;
		if (k >= 16) {
			a = _mm_loadu_si128((const __m128i *)(const void *)p);
			b = _mm_loadu_si128((const __m128i *)(const void *)(p + k - 16));
			bad = not_name16_hi(a, high) | not_name16_hi(b, high);
			_mm_storeu_si128((__m128i *)(void *)d, a);
			_mm_storeu_si128((__m128i *)(void *)(d + k - 16), b);
		} else if (k >= 8) {
			__m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)p);
			__m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(p + k - 8));
			a = b = _mm_unpacklo_epi64(lo, hi);
			bad = not_name16_hi(a, high);
			_mm_storel_epi64((__m128i *)(void *)d, lo);
			_mm_storel_epi64((__m128i *)(void *)(d + k - 8), hi);
		} else {
			uint32_t x, y;
			memcpy(&x, p, 4);
			memcpy(&y, p + k - 4, 4);
			a = b = _mm_set_epi32((int)x, (int)y, (int)x, (int)y);
			bad = not_name16_hi(a, high);
			memcpy(d, &x, 4);
			memcpy(d + k - 4, &y, 4);
		}
		if (bad) {
			name_fail(e, s, tid, what);
			return 1;
		}
		w->p += k;
		return _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(a, slash), _mm_cmpeq_epi8(b, slash)));
	}
#endif
	return name_slow(e, s, tid, what);
}

static void name(enc *e, const OCTET_STRING_t *s, const char *what)
{
	name_as(e, s, NULL, what);
}

/*
 * Lists whose items may not share a name (statistics, signal and observed
 * event parameters; each item starts with its name): the reader compares
 * names without case. Refused on the item that repeats one.
 */
static void names_once(enc *e, const void *list, const asn_TYPE_descriptor_t *item_td,
                       const char *what)
{
	const A_SEQUENCE_OF(OCTET_STRING_t) *l = list;
	for (int i = 1; i < l->count; i++)
		for (int k = 0; k < i; k++)
			if (text_same_name(l->array[k], l->array[i])) {
				fail_at(e, item_td, l->array[i], MEGACO_ERR_CONSTRAINT,
				        "%s given twice has no text form", what);
				return;
			}
}

TW_COLD void quoted_fail(enc *e, uint8_t c, const char *what)
{
	fail(e, MEGACO_ERR_CONSTRAINT, "%s has octet 0x%02X, which a %squoted string cannot hold", what,
	     c, cls[c] ? "version 1 " : "");
}

/* p[0..n) quoted; p[0..i) are known to be TOK octets, which a quoted string holds too. */
static void quoted_from(enc *e, const uint8_t *p, size_t n, size_t i, const char *what)
{
	const unsigned char *c = e->cls;
	for (; i < n; i++) {
		if (!c[p[i]]) {
			quoted_fail(e, p[i], what);
			return;
		}
	}
	ch(e, '"');
	tw_put(&e->w, p, n);
	ch(e, '"');
}

/* VALUE: a plain token when every octet allows it, else a quoted string. */
static void value(enc *e, const OCTET_STRING_t *v)
{
	const uint8_t *p = v->buf;
	size_t n = v->size > 0 ? (size_t)v->size : 0;
	const unsigned char *c = e->cls;
	size_t i = 0;
	while (i < n && c[p[i]] == TOK)
		i++;
	if (n && i == n)
		tw_put(&e->w, p, n);
	else
		quoted_from(e, p, n, i, "value");
}

/* ------------------------------------------------------ addresses and IDs */

static void port_opt(enc *e, const long *port)
{
	if (port) {
		ch(e, ':');
		num_max(e, *port, U16, "port number");
	}
}

/* Decimal spelling of each octet value, digits first, padded to 4 bytes. */
typedef struct dec_octet {
	char d[3];
	unsigned char n;
} dec_octet;
#define DEC_OCTET(c)                                                                           \
	{ { (char)((c) >= 100 ? '0' + (c) / 100 : (c) >= 10 ? '0' + (c) / 10 : '0' + (c)),       \
	    (char)((c) >= 100 ? '0' + (c) / 10 % 10 : (c) >= 10 ? '0' + (c) % 10 : 0),          \
	    (char)((c) >= 100 ? '0' + (c) % 10 : 0) },                                          \
	  (unsigned char)((c) >= 100 ? 3 : (c) >= 10 ? 2 : 1) }
static const dec_octet dec_octets[256] = TABLE256(DEC_OCTET);

static void ip4(enc *e, const IP4Address_t *a)
{
	if (a->address.size != 4) {
		fail(e, MEGACO_ERR_CONSTRAINT, "IPv4 address of %d octets", a->address.size);
		return;
	}
	/*
	 * Built from the octet table with 4-byte copies, straight into the
	 * output when there is room for the scratch bytes, else in t.
	 */
	unsigned char t[24]; /* 17 used, 20 touched */
	text_writer *w = &e->w;
	int direct = tw_room(w) >= 24;
	unsigned char *o = direct ? w->p : t;
	size_t n = 1;
	o[0] = '[';
	for (int i = 0; i < 4; i++) {
		const dec_octet *d = &dec_octets[a->address.buf[i]];
		memcpy(o + n, d, 4);
		n += d->n;
		o[n++] = i < 3 ? '.' : ']';
	}
	if (direct)
		w->p += n;
	else
		tw_put_small(w, t, n);
	port_opt(e, a->portNumber);
}

static void hex4(enc *e, unsigned v)
{
	static const char hex[] = "0123456789ABCDEF";
	for (int shift = 12; shift >= 0; shift -= 4)
		if (v >> shift || !shift) /* no leading zeros */
			ch(e, hex[(v >> shift) & 15]);
}

/* RFC 5952 form: the longest run of two or more zero groups becomes "::". */
static void ip6(enc *e, const IP6Address_t *a)
{
	if (a->address.size != 16) {
		fail(e, MEGACO_ERR_CONSTRAINT, "IPv6 address of %d octets", a->address.size);
		return;
	}
	unsigned g[8];
	for (int i = 0; i < 8; i++)
		g[i] = (unsigned)a->address.buf[2 * i] << 8 | a->address.buf[2 * i + 1];
	int best = -1, best_len = 1;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && g[j] == 0)
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	ch(e, '[');
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			TW_LIT(&e->w, "::");
			i += best_len - 1;
			continue;
		}
		if (i && i != best + best_len)
			ch(e, ':');
		hex4(e, g[i]);
	}
	ch(e, ']');
	port_opt(e, a->portNumber);
}

static void domain(enc *e, const DomainName_t *d)
{
	if (d->name.buf && !text_domain_name_ok(d->name.buf, d->name.size > 0 ? (size_t)d->name.size : 0)) {
		fail_at(e, &asn_DEF_DomainName, d, MEGACO_ERR_CONSTRAINT,
		        "not a domain name of 1 to 64 letters, digits, '-' and '.' (domainName)");
		return;
	}
	ch(e, '<');
	name(e, &d->name, "domain name");
	ch(e, '>');
	port_opt(e, d->portNumber);
}

static void mtp(enc *e, const OCTET_STRING_t *a)
{
	if (a->size < 2 || a->size > 4) {
		fail(e, MEGACO_ERR_CONSTRAINT, "MTP address of %d octets", a->size);
		return;
	}
	kw(e, KW_MTP);
	ch(e, '{');
	for (int i = 0; i < a->size; i++)
		tw_hex2(&e->w, a->buf[i]);
	ch(e, '}');
}

/*
 * mId's deviceName (pathNAME) as the decoder reads it: an optional "*", a
 * letter, then letters, digits and _ / * $, and an optional
 * "@" domain of letters, digits and - * . (grammar/megaco.l, MIDST).
 */
static void device_name(enc *e, const PathName_t *d)
{
	const uint8_t *p = d->buf;
	size_t n = d->size > 0 ? (size_t)d->size : 0, i = 0;
#define DN_ALNUM(c) (((c) | 0x20) >= 'a' && ((c) | 0x20) <= 'z') || ((c) >= '0' && (c) <= '9')
	if (i < n && p[i] == '*')
		i++;
	/* pathNAME's NAME starts with ALPHA (the decoder does not read all digits). */
	int ok = i < n && ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z');
	for (i++; ok && i < n && p[i] != '@'; i++)
		ok = DN_ALNUM(p[i]) || p[i] == '_' || p[i] == '/' || p[i] == '*' || p[i] == '$';
	for (i++; ok && i < n; i++)
		ok = DN_ALNUM(p[i]) || p[i] == '-' || p[i] == '*' || p[i] == '.';
#undef DN_ALNUM
	if (!ok || n > 64) {
		fail(e, MEGACO_ERR_CONSTRAINT,
		     "device name mId not of the form [*]name[@domain] in at most 64 characters");
		return;
	}
	tw_put(&e->w, p, n);
}

static void mid(enc *e, const MId_t *m)
{
	switch (m->present) {
	case MId_PR_ip4Address: ip4(e, &m->choice.ip4Address); break;
	case MId_PR_ip6Address: ip6(e, &m->choice.ip6Address); break;
	case MId_PR_domainName: domain(e, &m->choice.domainName); break;
	case MId_PR_deviceName: device_name(e, &m->choice.deviceName); break;
	case MId_PR_mtpAddress: mtp(e, &m->choice.mtpAddress); break;
	default: break;
	}
}

static void context_id(enc *e, unsigned long id)
{
	if (id == 0)
		ch(e, '-');
	else if (id == 0xFFFFFFFEul)
		ch(e, '$');
	else if (id == 0xFFFFFFFFul)
		ch(e, '*');
	else
		num_max(e, (long long)id, U32, "context ID");
}

static void request_id(enc *e, unsigned long id)
{
	if (id == 0xFFFFFFFFul)
		ch(e, '*');
	else
		num_max(e, (long long)id, U32, "request ID");
}

static void tid(enc *e, const TerminationID_t *t)
{
	if (t->wildcard.list.count) {
		fail(e, MEGACO_ERR_UNKNOWN_NAME,
		     "termination ID in binary form (wildcard octets); map names to text first");
		return;
	}
	name_as(e, &t->id, t, "termination ID");
}

/* Same octets and wildcards: one termination ID in every form. */
static int same_tid(const TerminationID_t *a, const TerminationID_t *b)
{
	if (a->id.size != b->id.size || a->wildcard.list.count != b->wildcard.list.count ||
	    (a->id.size > 0 && memcmp(a->id.buf, b->id.buf, (size_t)a->id.size)))
		return 0;
	for (int i = 0; i < a->wildcard.list.count; i++) {
		const WildcardField_t *x = a->wildcard.list.array[i], *y = b->wildcard.list.array[i];
		if (x->size != y->size || (x->size > 0 && memcmp(x->buf, y->buf, (size_t)x->size)))
			return 0;
	}
	return 1;
}

/* termIDList: one ID bare, several in square brackets. */
static void tid_list(enc *e, TerminationID_t *const *ids, int count, unsigned l)
{
	if (count <= 0) {
		fail(e, MEGACO_ERR_CONSTRAINT, "empty termination ID list");
		return;
	}
	if (count == 1) {
		tid(e, ids[0]);
		return;
	}
	/* v1 and v2 text have room for one ID per command (RFC 3525, NOTE 2 of A.2). */
	if (!need(e, TEXT_SINCE_TID_LIST, "termination ID list"))
		return;
	lsb(e, l);
	for (int i = 0, n = 0; i < count; i++) {
		SEP(e, n, l + 1);
		tid(e, ids[i]);
	}
	rsb(e, l);
}

/* terminationIDList (Mux, context audit result): always in braces. */
static void tid_braces(enc *e, TerminationID_t *const *ids, int count, unsigned l)
{
	nonempty(e, count, "termination ID list");
	lb(e, l);
	for (int i = 0, n = 0; i < count; i++) {
		SEP(e, n, l); /* Erlang's separator stays at l; kept for identical output */
		tid(e, ids[i]);
	}
	rb(e, l);
}

/* 1 when all 8 octets are ASCII digits: high nibble 3, and adding 6 keeps it 3. */
static inline int digits8(const uint8_t *s)
{
	uint64_t x;
	memcpy(&x, s, 8);
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0u, three = 0x3030303030303030u;
	return (x & hi) == three && ((x + 0x0606060606060606u) & hi) == three;
}

static void time_stamp(enc *e, const TimeNotation_t *t)
{
	if (t->date.size != 8 || t->time.size != 8 || !digits8(t->date.buf) ||
	    !digits8(t->time.buf)) {
		fail(e, MEGACO_ERR_CONSTRAINT, "time stamp is not yyyymmdd and hhmmssss digits");
		return;
	}
	unsigned char s[17];
	memcpy(s, t->date.buf, 8);
	s[8] = 'T';
	memcpy(s + 9, t->time.buf, 8);
	tw_put_inl(&e->w, s, 17);
}

static void error_descriptor(enc *e, const ErrorDescriptor_t *d)
{
	kw_eq(e, KW_ERROR);
	num_max(e, d->errorCode, U16, "error code");
	inline_tok(e, '{');
	if (d->errorText)
		quoted_from(e, d->errorText->buf, (size_t)d->errorText->size, 0, "error text");
	inline_tok(e, '}');
}

/* ------------------------------------------------------------- properties */

/*
 * parmValue of a property, event/signal parameter: "=v", ">v" "<v" "#v",
 * " = [a:b]" range, sublist (AND) in square brackets, alternatives (OR) in
 * braces. kind is the extraInfo alternative (1 relation, 2 range, 3 sublist;
 * 0 absent), flag its value.
 */
static void parm_values(enc *e, OCTET_STRING_t *const *v, int count, int kind, long flag,
                        unsigned l)
{
	if (count <= 0) {
		fail(e, MEGACO_ERR_CONSTRAINT, "property or parameter without a value");
		return;
	}
	if (kind == 1) {
		static const char rel[] = { '>', '<', '#' };
		if (count != 1 || flag < 0 || flag > 2) {
			fail(e, MEGACO_ERR_CONSTRAINT, "relation needs one value and >, < or #");
			return;
		}
		ch(e, rel[flag]);
		value(e, v[0]);
		return;
	}
	if (kind == 2 && !flag) {
		fail(e, MEGACO_ERR_CONSTRAINT, "range FALSE has no text form");
		return;
	}
	if (kind == 2) {
		if (count != 2) {
			fail(e, MEGACO_ERR_CONSTRAINT, "range needs two values, has %d", count);
			return;
		}
		eq(e);
		inline_tok(e, '[');
		value(e, v[0]);
		ch(e, ':');
		value(e, v[1]);
		inline_tok(e, ']');
		return;
	}
	if (kind == 3) {
		eq(e);
		open_at(e, flag ? '[' : '{', l);
		for (int i = 0, n = 0; i < count; i++) {
			SEP(e, n, l + 1);
			value(e, v[i]);
		}
		close_at(e, flag ? ']' : '}', l);
		return;
	}
	if (count != 1) {
		fail(e, MEGACO_ERR_CONSTRAINT, "%d values need extraInfo (sublist or range)", count);
		return;
	}
	ch(e, '=');
	value(e, v[0]);
}

/*
 * PropertyParm, EventParameter and SigParameter each have an extraInfo
 * CHOICE with the same three alternatives under their own type names: the
 * relation, or the range/sublist flag, of the one present (0 for none).
 */
#define EXTRA_INFO_FLAG(x, T)                                                                \
	(!(x) ? 0L                                                                               \
	      : (x)->present == T##__extraInfo_PR_relation ? (long)(x)->choice.relation          \
	      : (x)->present == T##__extraInfo_PR_range    ? (long)(x)->choice.range             \
	      : (x)->present == T##__extraInfo_PR_sublist  ? (long)(x)->choice.sublist : 0L)

/*
 * A name where the grammar reads a plain word (a property's or a parameter's
 * name): one spelled as a keyword ("v", "SI") would read back as that
 * keyword. Keywords have no '/', so a package/item name never is one.
 */
static void word_name(enc *e, const OCTET_STRING_t *s, const char *what)
{
	if (!name_as(e, s, NULL, what) &&
	    text_keyword_lookup((const char *)s->buf, (size_t)s->size) >= 0)
		fail(e, MEGACO_ERR_CONSTRAINT, "%s '%.*s' is a keyword's spelling, which it would read back as",
		     what, s->size, (const char *)s->buf);
}

static void property(enc *e, const PropertyParm_t *p, unsigned l)
{
	word_name(e, &p->name, "property name");
	int kind = p->extraInfo ? (int)p->extraInfo->present : 0;
	long flag = EXTRA_INFO_FLAG(p->extraInfo, PropertyParm);
	parm_values(e, p->value.list.array, p->value.list.count, kind, flag, l);
}

static void event_parameter(enc *e, const EventParameter_t *p, unsigned l)
{
	word_name(e, &p->eventParameterName, "event parameter name");
	int kind = p->extraInfo ? (int)p->extraInfo->present : 0;
	long flag = EXTRA_INFO_FLAG(p->extraInfo, EventParameter);
	/* dd/ce's digit string is quoted even when it is a plain token (as Erlang does). */
	if (!kind && p->value.list.count == 1 && p->eventParameterName.size == 2 &&
	    p->eventParameterName.buf[0] == 'd' && p->eventParameterName.buf[1] == 's') {
		ch(e, '=');
		const OCTET_STRING_t *v = p->value.list.array[0];
		quoted_from(e, v->buf, v->size > 0 ? (size_t)v->size : 0, 0, "digit string");
		return;
	}
	parm_values(e, p->value.list.array, p->value.list.count, kind, flag, l);
}

static void sig_parameter(enc *e, const SigParameter_t *p, unsigned l)
{
	word_name(e, &p->sigParameterName, "signal parameter name");
	int kind = p->extraInfo ? (int)p->extraInfo->present : 0;
	long flag = EXTRA_INFO_FLAG(p->extraInfo, SigParameter);
	parm_values(e, p->value.list.array, p->value.list.count, kind, flag, l);
}

/* ------------------------------------------------------ media descriptors */

/* "Local {" or "Remote {", and a line break when SDP lines follow. */
static void sdp_open(enc *e, int kwid, int lines)
{
	kw(e, kwid);
	inline_tok(e, '{');
	if (lines)
		ch(e, '\n');
}

/* An SDP line's value and its CRLF: '}' escaped; NUL, CR and LF refused. */
TW_INLINE void sdp_value(enc *e, const OCTET_STRING_t *v)
{
	size_t size = v->size > 0 ? (size_t)v->size : 0, start = 0;
	for (size_t k = find_class(FIND_SDP, v->buf, 0, size); k < size;
	     k = find_class(FIND_SDP, v->buf, k + 1, size)) {
		unsigned char c = v->buf[k];
		if (c != '}') {
			fail(e, MEGACO_ERR_CONSTRAINT, "SDP value holds octet 0x%02X", c);
			return;
		}
		tw_put_inl(&e->w, v->buf + start, k - start);
		ch(e, '\\');
		start = k;
	}
	tw_put_inl(&e->w, v->buf + start, size - start);
	TW_LIT(&e->w, "\r\n");
}

/* Local/Remote: SDP lines, one group after the other, CRLF line ends. */
static void sdp(enc *e, int kwid, const LocalRemoteDescriptor_t *d, unsigned l)
{
	sdp_open(e, kwid, d->propGrps.list.count);
	for (int g = 0; g < d->propGrps.list.count; g++) {
		const PropertyGroup_t *grp = d->propGrps.list.array[g];
		/* The reader starts a session at each v= line and nowhere else. */
		if (!grp->list.count) {
			fail_at(e, &asn_DEF_LocalRemoteDescriptor, d, MEGACO_ERR_CONSTRAINT,
			        "SDP session %d is empty (sessions are split at v=)", g + 1);
			return;
		}
		for (int i = 0; i < grp->list.count; i++) {
			const PropertyParm_t *p = grp->list.array[i];
			int vline = p->name.size == 1 && p->name.buf[0] == 'v';
			if ((g && !i && !vline) || (i && vline)) {
				fail_at(e, &asn_DEF_LocalRemoteDescriptor, d, MEGACO_ERR_CONSTRAINT,
				        "SDP session %d %s (sessions are split at v=)", g + 1,
				        vline ? "has a second v= line" : "does not start with v=");
				return;
			}
			if (p->value.list.count != 1 || p->extraInfo) {
				fail(e, MEGACO_ERR_CONSTRAINT, "SDP line needs exactly one plain value");
				return;
			}
			/* A line that is not "x=..." has no name: the text parser keeps it whole. */
			if (p->name.size == 1 && !not_name[p->name.buf[0]]) {
				/* The usual one-letter type ("v", "o", "m", "a", ...). */
				unsigned char t[2] = { p->name.buf[0], '=' };
				tw_put_small(&e->w, t, 2);
			} else if (p->name.size > 0) {
				name(e, &p->name, "SDP line type");
				ch(e, '=');
			}
			sdp_value(e, p->value.list.array[0]);
		}
	}
	close_at(e, '}', l);
}

static void stream_mode(enc *e, int *n, unsigned l, const long *m)
{
	enum_item(e, n, l, KW_MODE, m, KWS(text_kw_stream_mode), "stream mode");
}

static void local_control(enc *e, const LocalControlDescriptor_t *d, unsigned l)
{
	kw_lb(e, KW_LOCAL_CONTROL, l);
	int n = 0;
	stream_mode(e, &n, l + 1, d->streamMode);
	on_off_item(e, &n, l + 1, KW_RESERVED_GROUP, d->reserveGroup);
	on_off_item(e, &n, l + 1, KW_RESERVED_VALUE, d->reserveValue);
	EACH_ITEM(e, &d->propertyParms.list, n, l + 1, property)
	if (!n)
		no_form(e, &asn_DEF_LocalControlDescriptor, d, "an empty LocalControl descriptor");
	rb(e, l);
}

static void statistics(enc *e, const StatisticsDescriptor_t *d, unsigned l);

/* The items of a StreamParms, as members of the enclosing list. */
static void stream_parms(enc *e, const StreamParms_t *p, int *n, unsigned l)
{
	OPT_ITEM(e, *n, l, local_control, p->localControlDescriptor);
	if (p->localDescriptor) {
		SEP(e, *n, l);
		sdp(e, KW_LOCAL, p->localDescriptor, l);
	}
	if (p->remoteDescriptor) {
		SEP(e, *n, l);
		sdp(e, KW_REMOTE, p->remoteDescriptor, l);
	}
	OPT_ITEM(e, *n, l, statistics, p->statisticsDescriptor);
}

/* ServiceStates = Test, OutOfSvc or InSvc. */
static void service_state(enc *e, int *n, unsigned l, const long *s)
{
	enum_item(e, n, l, KW_SERVICE_STATES, s, KWS(text_kw_service_state), "service state");
}

static void termination_state(enc *e, const TerminationStateDescriptor_t *d, unsigned l)
{
	kw_lb(e, KW_TERMINATION_STATE, l);
	int n = 0;
	EACH_ITEM(e, &d->propertyParms.list, n, l + 1, property)
	if (d->eventBufferControl) {
		SEP(e, n, l + 1);
		kw_eq(e, KW_BUFFER);
		if (*d->eventBufferControl == EventBufferControl_lockStep)
			kw(e, KW_LOCK_STEP);
		else
			TW_LIT(&e->w, "OFF");
	}
	service_state(e, &n, l + 1, d->serviceState);
	nonempty(e, n, "TerminationState descriptor");
	rb(e, l);
}

static void media(enc *e, const MediaDescriptor_t *d, unsigned l)
{
	kw_lb(e, KW_MEDIA, l);
	int n = 0;
	OPT_ITEM(e, n, l + 1, termination_state, d->termStateDescr);
	if (d->streams && d->streams->present == MediaDescriptor__streams_PR_oneStream) {
		stream_parms(e, &d->streams->choice.oneStream, &n, l + 1);
	} else if (d->streams && d->streams->present == MediaDescriptor__streams_PR_multiStream) {
		for (int i = 0; i < d->streams->choice.multiStream.list.count; i++) {
			const StreamDescriptor_t *s = d->streams->choice.multiStream.list.array[i];
			SEP(e, n, l + 1);
			num_item(e, NULL, 0, KW_STREAM, &s->streamID, U16, "stream ID");
			lb(e, l + 1);
			int m = 0;
			stream_parms(e, &s->streamParms, &m, l + 2);
			nonempty(e, m, "Stream descriptor");
			rb(e, l + 1);
		}
	}
	nonempty(e, n, "Media descriptor");
	rb(e, l);
}

static void modem(enc *e, const ModemDescriptor_t *d, unsigned l)
{
	if (d->nonStandardData) {
		fail(e, MEGACO_ERR_UNSUPPORTED, "nonStandardData has no text encoding");
		return;
	}
	int count = d->mtl.list.count;
	if (count <= 0) {
		fail(e, MEGACO_ERR_CONSTRAINT, "Modem descriptor without a modem type");
		return;
	}
	kw(e, KW_MODEM);
	if (count == 1)
		eq(e);
	else
		inline_tok(e, '[');
	for (int i = 0; i < count; i++) {
		long t = *d->mtl.list.array[i];
		if (i)
			cm0(e);
		for (int k = 0; k < i; k++)
			if (*d->mtl.list.array[k] == t)
				fail_at(e, &asn_DEF_ModemDescriptor, d, MEGACO_ERR_CONSTRAINT,
				        "modem type %ld given twice has no text form", t);
		enum_item(e, NULL, 0, -1, &t, KWS(text_kw_modem_type), "modem type");
	}
	if (count > 1)
		inline_tok(e, ']');
	if (d->mpl.list.count)
		BRACED_ITEMS(e, &d->mpl.list, l, property);
}

static void mux(enc *e, const MuxDescriptor_t *d, unsigned l)
{
	if (d->nonStandardData) {
		fail(e, MEGACO_ERR_UNSUPPORTED, "nonStandardData has no text encoding");
		return;
	}
	enum_item(e, NULL, 0, KW_MUX, &d->muxType, KWS(text_kw_mux_type), "mux type");
	tid_braces(e, d->termList.list.array, d->termList.list.count, l);
}

/* ---------------------------------------------------- events and signals */

static void signals(enc *e, const SignalsDescriptor_t *d, unsigned l);
static void second_events(enc *e, const SecondEventsDescriptor_t *d, unsigned l);

static inline int dm_blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* "{ timers, body }", the braces at indentation l. */
static void digit_map_value(enc *e, const DigitMapValue_t *v, unsigned l)
{
	const long *timers[] = { v->startTimer, v->shortTimer, v->longTimer, v->durationTimer };
	static const char letter[] = { 'T', 'S', 'L', 'Z' };
	lb(e, l);
	for (int i = 0; i < 4; i++) {
		if (!timers[i])
			continue;
		ch(e, letter[i]);
		ch(e, ':');
		num_max(e, *timers[i], 99, "digit map timer");
		cm(e, l + 1);
	}
	nonempty(e, v->digitMapBody.size > 0, "digit map body");
	/* The body goes out as the model holds it; braces would end it early. */
	const uint8_t *b = v->digitMapBody.buf;
	size_t size = v->digitMapBody.size > 0 ? (size_t)v->digitMapBody.size : 0;
	size_t bad = find_class(FIND_DM, b, 0, size);
	if (bad < size) {
		fail(e, MEGACO_ERR_CONSTRAINT, "digit map body has octet 0x%02X", b[bad]);
		return;
	}
	/* The reader trims blanks around the body and takes a leading "T:" for a timer. */
	if (size && (dm_blank(b[0]) || dm_blank(b[size - 1]) ||
	             (size > 1 && b[1] == ':' && strchr("TtSsLlZz", b[0])))) {
		fail_at(e, &asn_DEF_DigitMapValue, v, MEGACO_ERR_CONSTRAINT,
		        "digit map body with blanks around it or a timer-like start has no text form");
		return;
	}
	tw_put(&e->w, b, size);
	rb(e, l);
}

static void event_dm(enc *e, const EventDM_t *d, unsigned l)
{
	kw_eq(e, KW_DIGIT_MAP);
	if (d->present == EventDM_PR_digitMapName)
		name(e, &d->choice.digitMapName, "digit map name");
	else
		digit_map_value(e, &d->choice.digitMapValue, l);
}

static void notify_behaviour(enc *e, const NotifyBehaviour_t *b, unsigned l);

/* Embed { Signals {...}, Events = n {...} } of a first-level event. */
static void embed(enc *e, const SecondEventsDescriptor_t *se, const SignalsDescriptor_t *sd,
                  unsigned l)
{
	kw_lb(e, KW_EMBED, l);
	if (sd) {
		signals(e, sd, l + 1);
		if (se)
			cm(e, l + 1);
	}
	if (se)
		second_events(e, se, l + 1);
	rb(e, l);
}

/* The keepActive .. resetEventsDescriptor items of both event levels' actions (td, a). */
static void event_actions(enc *e, const asn_TYPE_descriptor_t *td, const void *a,
                          const BOOLEAN_t *ka, const EventDM_t *dm,
                          const SecondEventsDescriptor_t *se, const SignalsDescriptor_t *sd,
                          const NotifyBehaviour_t *nb, const NULL_t *rse, int *n, unsigned l)
{
	if (!ka && !dm && !se && !sd && !nb && !rse)
		no_form(e, td, a, "an empty eventAction");
	if (ka && !*ka)
		no_form(e, &asn_DEF_BOOLEAN, ka, "KeepActive FALSE");
	list_kw(e, n, l, KW_KEEP_ACTIVE, ka && *ka);
	if (ka && *ka && sd)
		fail_at(e, &asn_DEF_SignalsDescriptor, sd, MEGACO_ERR_CONSTRAINT,
		        "KeepActive with an embedded Signals descriptor has no text form");
	OPT_ITEM(e, *n, l, event_dm, dm);
	if (se || sd) {
		SEP(e, *n, l);
		embed(e, se, sd, l);
	}
	OPT_ITEM(e, *n, l, notify_behaviour, nb);
	list_kw(e, n, l, KW_RESET_EVENTS_DESCRIPTOR, rse != NULL);
}

/*
 * An event's name and, when it has a stream, parameters or (more) other
 * items, "{" and the stream and parameters: returns whether braces opened.
 */
static int event_head(enc *e, const OCTET_STRING_t *nm, const StreamID_t *sid,
                      EventParameter_t *const *par, int npar, int more, int *n, unsigned l)
{
	name(e, nm, "event name");
	if (!sid && !npar && !more)
		return 0;
	lb(e, l);
	num_item(e, n, l + 1, KW_STREAM, sid, U16, "stream ID");
	for (int i = 0; i < npar; i++) {
		SEP(e, *n, l + 1);
		event_parameter(e, par[i], l + 1);
	}
	return 1;
}

/* A RequestedEvent, or with second a SecondRequestedEvent (no embedded events). */
static void requested_event(enc *e, const void *item, int second, unsigned l)
{
	const RequestedEvent_t *ev = second ? NULL : item;
	const SecondRequestedEvent_t *ev2 = second ? item : NULL;
	const RequestedActions_t *a = ev ? ev->eventAction : NULL;
	const SecondRequestedActions_t *a2 = ev2 ? ev2->eventAction : NULL;
	int n = 0;
	if (!(ev ? event_head(e, &ev->pkgdName, ev->streamID, ev->evParList.list.array,
	                      ev->evParList.list.count, a != NULL, &n, l)
	         : event_head(e, &ev2->pkgdName, ev2->streamID, ev2->evParList.list.array,
	                      ev2->evParList.list.count, a2 != NULL, &n, l)))
		return;
	if (a)
		event_actions(e, &asn_DEF_RequestedActions, a, a->keepActive, a->eventDM,
		              a->secondEvent, a->signalsDescriptor, a->notifyBehaviour,
		              a->resetEventsDescriptor, &n, l + 1);
	if (a2)
		event_actions(e, &asn_DEF_SecondRequestedActions, a2, a2->keepActive, a2->eventDM,
		              NULL, a2->signalsDescriptor, a2->notifyBehaviour,
		              a2->resetEventsDescriptor, &n, l + 1);
	rb(e, l);
}

/* Events [= id { ... }]: a descriptor without events is the bare keyword. */
static void events_list(enc *e, const RequestID_t *rid, int count, unsigned l, int second,
                        void *const *array)
{
	kw(e, KW_EVENTS);
	if (!count) {
		/* A bare "Events" has no request ID. */
		if (rid)
			fail(e, MEGACO_ERR_CONSTRAINT,
			     "Events descriptor with a request ID and no events has no text form");
		return;
	}
	if (!rid) {
		fail(e, MEGACO_ERR_CONSTRAINT, "Events descriptor with events but no request ID");
		return;
	}
	eq(e);
	request_id(e, *rid);
	lb(e, l);
	for (int i = 0, n = 0; i < count; i++) {
		SEP(e, n, l + 1);
		requested_event(e, array[i], second, l + 1);
	}
	rb(e, l);
}

static void events(enc *e, const EventsDescriptor_t *d, unsigned l)
{
	events_list(e, d->requestID, d->eventList.list.count, l, 0,
	            (void *const *)d->eventList.list.array);
}

static void second_events(enc *e, const SecondEventsDescriptor_t *d, unsigned l)
{
	if (++e->depth > EMBED_DEPTH_LIMIT) {
		fail(e, MEGACO_ERR_TOO_DEEP, "embedded events nested too deeply");
		return;
	}
	if (e->depth > e->depth_max)
		e->depth_max = e->depth;
	events_list(e, d->requestID, d->eventList.list.count, l, 1,
	            (void *const *)d->eventList.list.array);
	e->depth--;
}

static void notify_behaviour(enc *e, const NotifyBehaviour_t *b, unsigned l)
{
	switch (b->present) {
	case NotifyBehaviour_PR_notifyImmediate: kw(e, KW_NOTIFY_IMMEDIATE); break;
	case NotifyBehaviour_PR_neverNotify: kw(e, KW_NEVER_NOTIFY); break;
	case NotifyBehaviour_PR_notifyRegulated: {
		const RegulatedEmbeddedDescriptor_t *r = b->choice.notifyRegulated;
		kw(e, KW_NOTIFY_REGULATED);
		if (r && (r->secondEvent || r->signalsDescriptor)) {
			lb(e, l);
			embed(e, r->secondEvent, r->signalsDescriptor, l + 1);
			rb(e, l);
		}
		break;
	}
	default: break;
	}
}

static void event_spec(enc *e, const EventSpec_t *s, unsigned l)
{
	int n = 0;
	if (event_head(e, &s->eventName, s->streamID, s->eventParList.list.array,
	               s->eventParList.list.count, 0, &n, l))
		rb(e, l);
}

static void event_buffer(enc *e, const EventBufferDescriptor_t *d, unsigned l)
{
	kw(e, KW_EVENT_BUFFER);
	if (d->list.count)
		BRACED_ITEMS(e, &d->list, l, event_spec);
}

static int bit(const BIT_STRING_t *b, int i)
{
	return b && i / 8 < b->size && (b->buf[i / 8] & (0x80 >> (i % 8)));
}

static void signal(enc *e, const Signal_t *s, unsigned l)
{
	name(e, &s->signalName, "signal name");
	int nc = 0;
	for (int i = 0; i < 5; i++)
		nc |= bit(s->notifyCompletion, i);
	/* Text names the five reasons it knows and has no spelling for none of them. */
	if (s->notifyCompletion) {
		int past = 0;
		for (int i = 5; i < 8 * s->notifyCompletion->size; i++)
			past |= bit(s->notifyCompletion, i);
		if (past || !nc)
			no_form(e, &asn_DEF_Signal, s,
			        "NotifyCompletion with no reason or one past Iteration");
	}
	if (s->keepActive && !*s->keepActive)
		no_form(e, &asn_DEF_BOOLEAN, s->keepActive, "KeepActive FALSE");
	if (!s->streamID && !s->sigType && !s->duration && !nc && !(s->keepActive && *s->keepActive) &&
	    !s->sigParList.list.count && !s->direction && !s->requestID && !s->intersigDelay)
		return;
	lb(e, l);
	int n = 0;
	num_item(e, &n, l + 1, KW_STREAM, s->streamID, U16, "stream ID");
	enum_item(e, &n, l + 1, KW_SIGNAL_TYPE, s->sigType, KWS(text_kw_signal_type), "signal type");
	num_item(e, &n, l + 1, KW_DURATION, s->duration, U16, "signal duration");
	if (nc) {
		SEP(e, n, l + 1);
		kw_eq(e, KW_NOTIFY_COMPLETION);
		lb(e, l + 1);
		for (int i = 0, m = 0; i < 5; i++)
			list_kw(e, &m, l + 2, text_kw_notify_completion[i], bit(s->notifyCompletion, i));
		rb(e, l + 1);
	}
	list_kw(e, &n, l + 1, KW_KEEP_ACTIVE, s->keepActive && *s->keepActive);
	names_once(e, &s->sigParList.list, &asn_DEF_SigParameter, "a signal parameter");
	EACH_ITEM(e, &s->sigParList.list, n, l + 1, sig_parameter)
	enum_item(e, &n, l + 1, KW_DIRECTION, s->direction, KWS(text_kw_signal_direction),
	          "signal direction");
	if (s->requestID) {
		SEP(e, n, l + 1);
		kw_eq(e, KW_REQUEST_ID);
		request_id(e, *s->requestID);
	}
	num_item(e, &n, l + 1, KW_INTSIG_DELAY, s->intersigDelay, U16, "intersignal delay");
	rb(e, l);
}

static void signals(enc *e, const SignalsDescriptor_t *d, unsigned l)
{
	kw(e, KW_SIGNALS);
	if (!d->list.count)
		return;
	lb(e, l);
	for (int i = 0, n = 0; i < d->list.count; i++) {
		const SignalRequest_t *r = d->list.array[i];
		SEP(e, n, l + 1);
		if (r->present == SignalRequest_PR_signal) {
			signal(e, &r->choice.signal, l + 1);
		} else if (r->present == SignalRequest_PR_seqSigList) {
			const SeqSigList_t *q = &r->choice.seqSigList;
			kw_eq(e, KW_SIGNAL_LIST);
			num_max(e, q->id, U16, "signal list ID");
			lb(e, l + 1);
			nonempty(e, q->signalList.list.count, "SignalList");
			for (int k = 0, m = 0; k < q->signalList.list.count; k++) {
				const Signal_t *sg = q->signalList.list.array[k];
				/* signalListParm: "exactly once signalType". */
				if (!sg->sigType)
					fail_at(e, &asn_DEF_Signal, sg, MEGACO_ERR_CONSTRAINT,
					        "a SignalList's signal without a signal type has no text form");
				SEP(e, m, l + 2);
				signal(e, sg, l + 2);
			}
			rb(e, l + 1);
		}
	}
	rb(e, l);
}

static void observed_events(enc *e, const ObservedEventsDescriptor_t *d, unsigned l)
{
	kw_eq(e, KW_OBSERVED_EVENTS);
	request_id(e, d->requestId);
	nonempty(e, d->observedEventLst.list.count, "ObservedEvents descriptor");
	lb(e, l);
	for (int i = 0, n = 0; i < d->observedEventLst.list.count; i++) {
		const ObservedEvent_t *ev = d->observedEventLst.list.array[i];
		SEP(e, n, l + 1);
		if (ev->timeNotation) {
			time_stamp(e, ev->timeNotation);
			ch(e, ':');
		}
		names_once(e, &ev->eventParList.list, &asn_DEF_EventParameter,
		           "an observed event's parameter");
		int m = 0;
		if (event_head(e, &ev->eventName, ev->streamID, ev->eventParList.list.array,
		               ev->eventParList.list.count, 0, &m, l + 1))
			rb(e, l + 1);
	}
	rb(e, l);
}

/* ------------------------------------------ digit maps, statistics, packages */

static void digit_map(enc *e, const DigitMapDescriptor_t *d, unsigned l)
{
	kw(e, KW_DIGIT_MAP);
	if (!d->digitMapName && !d->digitMapValue) {
		/* A bare "DigitMap" is an audit token, not this descriptor. */
		fail_at(e, &asn_DEF_DigitMapDescriptor, d, MEGACO_ERR_CONSTRAINT,
		        "DigitMap descriptor with neither name nor value has no text form");
		return;
	}
	eq(e);
	if (d->digitMapName)
		name(e, d->digitMapName, "digit map name");
	if (d->digitMapValue)
		digit_map_value(e, d->digitMapValue, l);
}

static void statistics(enc *e, const StatisticsDescriptor_t *d, unsigned l)
{
	kw(e, KW_STATS);
	if (!d->list.count) {
		no_form(e, &asn_DEF_StatisticsDescriptor, d, "an empty Statistics descriptor");
		return;
	}
	names_once(e, &d->list, &asn_DEF_StatisticsParameter, "a statistic");
	lb(e, l);
	for (int i = 0, n = 0; i < d->list.count; i++) {
		const StatisticsParameter_t *p = d->list.array[i];
		SEP(e, n, l + 1);
		name(e, &p->statName, "statistic name");
		if (!p->statValue)
			continue;
		if (!p->statValue->list.count) {
			no_form(e, &asn_DEF_StatisticsParameter, p, "a statistic with an empty value list");
			return;
		}
		if (p->statValue->list.count == 1) {
			eq(e);
			value(e, p->statValue->list.array[0]);
		} else {
			/* statisticsParameter = pkgdName [EQUAL VALUE / (LSBRKT VALUE *(COMMA VALUE) RSBRKT)]:
			 * a list has no "=", unlike a property's (parmValue) */
			inline_tok(e, '[');
			for (int k = 0; k < p->statValue->list.count; k++) {
				if (k)
					cm0(e);
				value(e, p->statValue->list.array[k]);
			}
			inline_tok(e, ']');
		}
	}
	rb(e, l);
}

static void package_item(enc *e, const Name_t *pkg, long version)
{
	name(e, pkg, "package name");
	ch(e, '-');
	num_max(e, version, 99, "package version");
}

static void packages(enc *e, const PackagesDescriptor_t *d, unsigned l)
{
	kw(e, KW_PACKAGES);
	nonempty(e, d->list.count, "Packages descriptor");
	lb(e, l);
	for (int i = 0, n = 0; i < d->list.count; i++) {
		SEP(e, n, l + 1);
		package_item(e, &d->list.array[i]->packageName, d->list.array[i]->packageVersion);
	}
	rb(e, l);
}

/* ------------------------------------------------------ individual audit */

/*
 * An audited property: "p/n", or for an audit by value "p/n, p/n=v" (two
 * items, as Erlang megaco writes and reads them), or with one_item the
 * "p/n=v" alone, which reads back the same.
 */
static void ind_aud_property(enc *e, const IndAudPropertyParm_t *p, int *n, int one_item,
                             unsigned l)
{
	/* "p/n, p/n=v" reads back as one item only when both name the same property. */
	if (p->propertyParms && (p->propertyParms->name.size != p->name.size ||
	                         (p->name.size > 0 && memcmp(p->propertyParms->name.buf, p->name.buf,
	                                                     (size_t)p->name.size)))) {
		fail_at(e, &asn_DEF_IndAudPropertyParm, p, MEGACO_ERR_CONSTRAINT,
		        "audited property whose value names another property has no text form");
		return;
	}
	SEP(e, *n, l);
	if (!p->propertyParms || !one_item)
		word_name(e, &p->name, "property name");
	if (p->propertyParms) {
		if (!one_item)
			SEP(e, *n, l);
		property(e, p->propertyParms, l);
	}
}

static void ind_aud_sdp(enc *e, int kwid, const IndAudLocalRemoteDescriptor_t *d, unsigned l)
{
	if (d->propGroupID) {
		fail(e, MEGACO_ERR_UNSUPPORTED, "an audited property group ID has no text form");
		return;
	}
	sdp_open(e, kwid, d->propGrps.list.count);
	for (int i = 0; i < d->propGrps.list.count; i++) {
		const IndAudPropertyParm_t *p = d->propGrps.list.array[i];
		name(e, &p->name, "SDP line type");
		ch(e, '=');
		if (p->propertyParms && p->propertyParms->value.list.count == 1)
			sdp_value(e, p->propertyParms->value.list.array[0]);
		else
			TW_LIT(&e->w, "\r\n");
	}
	close_at(e, '}', l);
}

static void ind_aud_statistics(enc *e, const IndAudStatisticsDescriptor_t *d, unsigned l)
{
	kw_lb(e, KW_STATS, l);
	name(e, &d->statName, "statistic name");
	rb(e, l);
}

static int ind_aud_stream_parms(enc *e, const IndAudStreamParms_t *p, unsigned l)
{
	int n = 0;
	if (p->localControlDescriptor) {
		const IndAudLocalControlDescriptor_t *c = p->localControlDescriptor;
		SEP(e, n, l);
		kw_lb(e, KW_LOCAL_CONTROL, l);
		int m = 0;
		list_kw(e, &m, l + 1, KW_MODE, c->streamMode != NULL);
		list_kw(e, &m, l + 1, KW_RESERVED_VALUE, c->reserveValue != NULL);
		list_kw(e, &m, l + 1, KW_RESERVED_GROUP, c->reserveGroup != NULL);
		if (c->streamMode && c->streamModeSel)
			no_form(e, &asn_DEF_IndAudLocalControlDescriptor, c,
			        "streamMode with streamModeSel (Mode twice)");
		if (c->propertyParms && !c->propertyParms->list.count)
			no_form(e, &asn_DEF_IndAudLocalControlDescriptor, c, "an empty propertyParms");
		if (c->propertyParms)
			for (int i = 0; i < c->propertyParms->list.count; i++)
				ind_aud_property(e, c->propertyParms->list.array[i], &m, 0, l + 1);
		stream_mode(e, &m, l + 1, c->streamModeSel);
		nonempty(e, m, "audited LocalControl descriptor");
		rb(e, l);
	}
	if (p->localDescriptor) {
		SEP(e, n, l);
		ind_aud_sdp(e, KW_LOCAL, p->localDescriptor, l);
	}
	if (p->remoteDescriptor) {
		SEP(e, n, l);
		ind_aud_sdp(e, KW_REMOTE, p->remoteDescriptor, l);
	}
	OPT_ITEM(e, n, l, ind_aud_statistics, p->statisticsDescriptor);
	return n;
}

static void ind_aud_termination_state(enc *e, const IndAudTerminationStateDescriptor_t *d,
                                      unsigned l)
{
	/* indAudterminationStateDescriptor's braces hold one indAudterminationStateParm. */
	if (d->propertyParms.list.count + !!d->eventBufferControl + !!d->serviceState +
	            !!d->serviceStateSel != 1) {
		no_form(e, &asn_DEF_IndAudTerminationStateDescriptor, d,
		        "an audited TerminationState descriptor with other than one item");
		return;
	}
	kw_lb(e, KW_TERMINATION_STATE, l);
	int n = 0;
	for (int i = 0; i < d->propertyParms.list.count; i++)
		ind_aud_property(e, d->propertyParms.list.array[i], &n, 1, l + 1);
	list_kw(e, &n, l + 1, KW_BUFFER, d->eventBufferControl != NULL);
	list_kw(e, &n, l + 1, KW_SERVICE_STATES, d->serviceState != NULL);
	service_state(e, &n, l + 1, d->serviceStateSel);
	rb(e, l);
}

static void ind_aud_signal(enc *e, const IndAudSignal_t *s, unsigned l)
{
	name(e, &s->signalName, "signal name");
	if (!s->streamID && !s->signalRequestID)
		return;
	lb(e, l);
	int n = 0;
	num_item(e, &n, l + 1, KW_STREAM, s->streamID, U16, "stream ID");
	if (s->signalRequestID) {
		SEP(e, n, l + 1);
		kw_eq(e, KW_REQUEST_ID);
		request_id(e, *s->signalRequestID);
	}
	rb(e, l);
}

static void ind_audit_parameter(enc *e, const IndAuditParameter_t *p, unsigned l)
{
	switch (p->present) {
	case IndAuditParameter_PR_indAudMediaDescriptor: {
		const IndAudMediaDescriptor_t *d = &p->choice.indAudMediaDescriptor;
		kw_lb(e, KW_MEDIA, l);
		if (d->termStateDescr) {
			ind_aud_termination_state(e, d->termStateDescr, l + 1);
			if (d->streams)
				cm(e, l); /* Erlang's break here is at the descriptor's level */
		}
		/*
		 * Erlang's printer puts audited stream contents two levels in, and
		 * its v2 printer a Stream one level deeper than its v3 one does.
		 */
		nonempty(e, d->termStateDescr || d->streams, "audited Media descriptor");
		if (d->streams && d->streams->present == IndAudMediaDescriptor__streams_PR_multiStream &&
		    !d->streams->choice.multiStream.list.count)
			no_form(e, &asn_DEF_IndAudMediaDescriptor, d, "an empty multiStream");
		if (d->streams && d->streams->present == IndAudMediaDescriptor__streams_PR_oneStream) {
			nonempty(e, ind_aud_stream_parms(e, &d->streams->choice.oneStream, l + 2),
			         "audited Media descriptor");
		} else if (d->streams) {
			unsigned sl = e->version == 2 ? l + 2 : l + 1;
			for (int i = 0, n = 0; i < d->streams->choice.multiStream.list.count; i++) {
				const IndAudStreamDescriptor_t *s =
					d->streams->choice.multiStream.list.array[i];
				/* indAudstreamDescriptor's braces hold one indAudstreamParm. */
				const IndAudStreamParms_t *sp = &s->streamParms;
				if (!!sp->localControlDescriptor + !!sp->localDescriptor +
				            !!sp->remoteDescriptor + !!sp->statisticsDescriptor != 1)
					no_form(e, &asn_DEF_IndAudStreamDescriptor, s,
					        "an audited Stream descriptor with other than one item");
				SEP(e, n, sl);
				num_item(e, NULL, 0, KW_STREAM, &s->streamID, U16, "stream ID");
				lb(e, sl);
				ind_aud_stream_parms(e, sp, sl + 2);
				rb(e, sl);
			}
		}
		rb(e, l);
		break;
	}
	case IndAuditParameter_PR_indAudEventsDescriptor: {
		const IndAudEventsDescriptor_t *d = &p->choice.indAudEventsDescriptor;
		kw(e, KW_EVENTS);
		if (d->requestID) {
			eq(e);
			request_id(e, *d->requestID);
		}
		if (d->streamID) {
			fail(e, MEGACO_ERR_UNSUPPORTED, "an audited event's stream ID has no text form");
			return;
		}
		lb(e, l);
		name(e, &d->pkgdName, "event name");
		rb(e, l);
		break;
	}
	case IndAuditParameter_PR_indAudEventBufferDescriptor: {
		const IndAudEventBufferDescriptor_t *d = &p->choice.indAudEventBufferDescriptor;
		kw_lb(e, KW_EVENT_BUFFER, l);
		name(e, &d->eventName, "event name");
		if (d->streamID) {
			lb(e, l + 1);
			num_item(e, NULL, 0, KW_STREAM, d->streamID, U16, "stream ID");
			rb(e, l + 1);
		}
		rb(e, l);
		break;
	}
	case IndAuditParameter_PR_indAudSignalsDescriptor: {
		const IndAudSignalsDescriptor_t *d = &p->choice.indAudSignalsDescriptor;
		kw_lb(e, KW_SIGNALS, l);
		if (d->present == IndAudSignalsDescriptor_PR_signal) {
			ind_aud_signal(e, &d->choice.signal, l + 1);
		} else if (d->present == IndAudSignalsDescriptor_PR_seqSigList) {
			kw_eq(e, KW_SIGNAL_LIST);
			num_max(e, d->choice.seqSigList.id, U16, "signal list ID");
			if (d->choice.seqSigList.signalList) {
				lb(e, l + 1);
				ind_aud_signal(e, d->choice.seqSigList.signalList, l + 2);
				rb(e, l + 1);
			}
		} else {
			fail_at(e, &asn_DEF_IndAudSignalsDescriptor, d, MEGACO_ERR_CONSTRAINT,
			        "audited Signals descriptor holds an alternative text cannot write");
		}
		rb(e, l);
		break;
	}
	case IndAuditParameter_PR_indAudDigitMapDescriptor:
		/* indAuddigitMapDescriptor = DigitMapToken EQUAL digitMapName; a bare one is the token. */
		if (!p->choice.indAudDigitMapDescriptor.digitMapName) {
			no_form(e, &asn_DEF_IndAuditParameter, p,
			        "an audited DigitMap descriptor without a name");
			break;
		}
		kw_eq(e, KW_DIGIT_MAP);
		name(e, p->choice.indAudDigitMapDescriptor.digitMapName, "digit map name");
		break;
	case IndAuditParameter_PR_indAudStatisticsDescriptor:
		ind_aud_statistics(e, &p->choice.indAudStatisticsDescriptor, l);
		break;
	case IndAuditParameter_PR_indAudPackagesDescriptor:
		kw_lb(e, KW_PACKAGES, l);
		package_item(e, &p->choice.indAudPackagesDescriptor.packageName,
		             p->choice.indAudPackagesDescriptor.packageVersion);
		rb(e, l);
		break;
	default: break;
	}
}

/* auditItem tokens in bit order, text_kw_audit_token's: muxToken(0) .. eventBufferToken(9). */
#define AUDIT_TOKENS ((int)(sizeof text_kw_audit_token / sizeof text_kw_audit_token[0]) - 1)

static void audit_tokens(enc *e, const BIT_STRING_t *b, int *n, unsigned l)
{
	for (int i = 0; i < AUDIT_TOKENS; i++)
		list_kw(e, n, l, text_kw_audit_token[i], bit(b, i));
}

static int has_tokens(const BIT_STRING_t *b)
{
	for (int i = 0; i < AUDIT_TOKENS; i++)
		if (bit(b, i))
			return 1;
	return 0;
}

/*
 * Text writes the tokens that are set; it has no spelling for a present but
 * empty list (that is the absent one) nor for bits past the ten it knows.
 */
static int audit_tokens_writable(const BIT_STRING_t *b)
{
	if (!has_tokens(b))
		return 0;
	for (int i = AUDIT_TOKENS; i < 8 * b->size; i++)
		if (bit(b, i))
			return 0;
	return 1;
}

/*
 * An AuditDescriptor whose parts text can tell apart from their absence: an
 * auditToken with a token and none past eventBufferToken, a non-empty
 * auditPropertyToken list, and something in it.
 */
static int audit_items_writable(const AuditDescriptor_t *d)
{
	return (!d->auditToken || audit_tokens_writable(d->auditToken)) &&
	       (!d->auditPropertyToken || d->auditPropertyToken->list.count) &&
	       (d->auditToken || d->auditPropertyToken);
}

static void audit_descriptor(enc *e, const AuditDescriptor_t *d, unsigned l)
{
	int props = d->auditPropertyToken && d->auditPropertyToken->list.count;
	if ((d->auditToken || d->auditPropertyToken) && !audit_items_writable(d)) {
		fail_at(e, &asn_DEF_AuditDescriptor, d, MEGACO_ERR_CONSTRAINT,
		        "auditToken with no token or one past eventBufferToken, or an empty "
		        "auditPropertyToken, has no text form");
		return;
	}
	kw(e, KW_AUDIT);
	if (!has_tokens(d->auditToken) && !props) {
		inline_tok(e, '{');
		inline_tok(e, '}');
		return;
	}
	lb(e, l);
	int n = 0;
	audit_tokens(e, d->auditToken, &n, l + 1);
	if (props) {
		for (int i = 0; i < d->auditPropertyToken->list.count; i++) {
			if (n++)
				cm(e, i ? l + 1 : l); /* Erlang's break before the first one is at l */
			ind_audit_parameter(e, d->auditPropertyToken->list.array[i], l + 1);
		}
	}
	rb(e, l);
}

/* ---------------------------------------------------------- service change */

static void service_change_address(enc *e, const ServiceChangeAddress_t *a)
{
	kw_eq(e, KW_SERVICE_CHANGE_ADDRESS);
	switch (a->present) {
	case ServiceChangeAddress_PR_portNumber:
		num_max(e, a->choice.portNumber, U16, "port number");
		break;
	case ServiceChangeAddress_PR_ip4Address: ip4(e, &a->choice.ip4Address); break;
	case ServiceChangeAddress_PR_ip6Address: ip6(e, &a->choice.ip6Address); break;
	case ServiceChangeAddress_PR_domainName: domain(e, &a->choice.domainName); break;
	case ServiceChangeAddress_PR_deviceName: device_name(e, &a->choice.deviceName); break;
	case ServiceChangeAddress_PR_mtpAddress: mtp(e, &a->choice.mtpAddress); break;
	default: break;
	}
}

static void profile(enc *e, const ServiceChangeProfile_t *p)
{
	kw_eq(e, KW_PROFILE);
	if (p->profileName.buf && p->profileName.size > 0 &&
	    !text_profile_ok(p->profileName.buf, (size_t)p->profileName.size)) {
		fail_at(e, &asn_DEF_ServiceChangeProfile, p, MEGACO_ERR_CONSTRAINT,
		        "profile name not of the form name/version (serviceChangeProfile)");
		return;
	}
	name(e, &p->profileName, "profile");
}

/* ServiceChangeAddress, Version and Profile: items of a Services list, as they are present. */
static void sc_address_version_profile(enc *e, const ServiceChangeAddress_t *a, const long *v,
                                       const ServiceChangeProfile_t *p, int *n, unsigned l)
{
	if (a) {
		SEP(e, *n, l);
		service_change_address(e, a);
	}
	num_item(e, n, l, KW_VERSION, v, 99, "version");
	if (p) {
		SEP(e, *n, l);
		profile(e, p);
	}
}

/* MgcIdToTry and TimeStamp: items of a Services list, as they are present. */
static void sc_mgc_time(enc *e, const MId_t *m, const TimeNotation_t *t, int *n, unsigned l)
{
	if (m) {
		SEP(e, *n, l);
		kw_eq(e, KW_MGC_ID);
		mid(e, m);
	}
	if (t) {
		SEP(e, *n, l);
		time_stamp(e, t);
	}
}

static void service_change_parm(enc *e, const ServiceChangeParm_t *p, unsigned l)
{
	if (p->nonStandardData) {
		fail(e, MEGACO_ERR_UNSUPPORTED, "nonStandardData has no text encoding");
		return;
	}
	if (p->serviceChangeAddress && p->serviceChangeMgcId)
		fail_at(e, &asn_DEF_ServiceChangeParm, p, MEGACO_ERR_CONSTRAINT,
		        "ServiceChangeAddress with MgcIdToTry has no text form (the ABNF takes one)");
	kw_lb(e, KW_SERVICES, l);
	int n = 0;
	SEP(e, n, l + 1);
	enum_item(e, NULL, 0, KW_METHOD, &p->serviceChangeMethod, KWS(text_kw_sc_method),
	          "service change method");
	sc_address_version_profile(e, p->serviceChangeAddress, p->serviceChangeVersion,
	                           p->serviceChangeProfile, &n, l + 1);
	if (p->serviceChangeReason.list.count != 1) {
		fail_at(e, &asn_DEF_ServiceChangeParm, p, MEGACO_ERR_CONSTRAINT,
		        "service change reason with %d values; text has one",
		        p->serviceChangeReason.list.count);
		return;
	}
	{
		/* The ABNF wants the reason quoted, always. */
		const OCTET_STRING_t *r = p->serviceChangeReason.list.array[0];
		SEP(e, n, l + 1);
		kw_eq(e, KW_REASON);
		quoted_from(e, r->buf, r->size > 0 ? (size_t)r->size : 0, 0, "service change reason");
	}
	if (p->serviceChangeDelay) {
		SEP(e, n, l + 1);
		kw_eq(e, KW_DELAY);
		num_max(e, (long long)*p->serviceChangeDelay, U32, "service change delay");
	}
	sc_mgc_time(e, p->serviceChangeMgcId, p->timeStamp, &n, l + 1);
	if (p->serviceChangeInfo) {
		/* serviceChangeParm carries auditItems inline, not an Audit descriptor. */
		const AuditDescriptor_t *a = p->serviceChangeInfo;
		if (!audit_items_writable(a)) {
			no_form(e, &asn_DEF_AuditDescriptor, a,
			        "an empty AuditDescriptor, empty list or unknown token in Services");
			return;
		}
		audit_tokens(e, a->auditToken, &n, l + 1);
		if (a->auditPropertyToken)
			for (int i = 0; i < a->auditPropertyToken->list.count; i++) {
				SEP(e, n, l + 1);
				ind_audit_parameter(e, a->auditPropertyToken->list.array[i], l + 1);
			}
	}
	list_kw(e, &n, l + 1, KW_SERVICE_CHANGE_INCOMPLETE, p->serviceChangeIncompleteFlag != NULL);
	rb(e, l);
}

static void service_change_result(enc *e, const ServiceChangeResult_t *r, unsigned l)
{
	if (r->present == ServiceChangeResult_PR_errorDescriptor) {
		lb(e, l);
		error_descriptor(e, &r->choice.errorDescriptor);
		rb(e, l);
		return;
	}
	const ServiceChangeResParm_t *p = &r->choice.serviceChangeResParms;
	if (!p->serviceChangeAddress && !p->serviceChangeVersion && !p->serviceChangeProfile &&
	    !p->serviceChangeMgcId && !p->timestamp)
		return;
	if (p->serviceChangeAddress && p->serviceChangeMgcId)
		fail_at(e, &asn_DEF_ServiceChangeResParm, p, MEGACO_ERR_CONSTRAINT,
		        "ServiceChangeAddress with MgcIdToTry has no text form (the ABNF takes one)");
	lb(e, l);
	kw_lb(e, KW_SERVICES, l + 1);
	int n = 0;
	sc_address_version_profile(e, p->serviceChangeAddress, p->serviceChangeVersion,
	                           p->serviceChangeProfile, &n, l + 2);
	sc_mgc_time(e, p->serviceChangeMgcId, p->timestamp, &n, l + 2);
	rb(e, l + 1);
	rb(e, l);
}

/* ---------------------------------------------------------------- commands */

/*
 * The descriptors of an audit reply (AuditReturnParameter, by its alternative
 * numbers) and of a command (AmmDescriptor, mapped onto them; its Audit
 * descriptor as D_AUDIT): one dispatch for both.
 */
enum { D_AUDIT = AuditReturnParameter_PR_emptyDescriptors + 1 };

TW_INLINE void descriptor(enc *e, int kind, const void *d, unsigned l)
{
	switch (kind) {
	case AuditReturnParameter_PR_errorDescriptor: error_descriptor(e, d); break;
	case AuditReturnParameter_PR_mediaDescriptor: media(e, d, l); break;
	case AuditReturnParameter_PR_modemDescriptor: modem(e, d, l); break;
	case AuditReturnParameter_PR_muxDescriptor: mux(e, d, l); break;
	case AuditReturnParameter_PR_eventsDescriptor: events(e, d, l); break;
	case AuditReturnParameter_PR_eventBufferDescriptor: event_buffer(e, d, l); break;
	case AuditReturnParameter_PR_signalsDescriptor: signals(e, d, l); break;
	case AuditReturnParameter_PR_digitMapDescriptor: digit_map(e, d, l); break;
	case AuditReturnParameter_PR_observedEventsDescriptor: observed_events(e, d, l); break;
	case AuditReturnParameter_PR_statisticsDescriptor: statistics(e, d, l); break;
	case AuditReturnParameter_PR_packagesDescriptor: packages(e, d, l); break;
	case D_AUDIT: audit_descriptor(e, d, l); break;
	default: break;
	}
}

static void amm_descriptor(enc *e, const AmmDescriptor_t *d, unsigned l)
{
	static const unsigned char kind[] = {
		[AmmDescriptor_PR_mediaDescriptor] = AuditReturnParameter_PR_mediaDescriptor,
		[AmmDescriptor_PR_modemDescriptor] = AuditReturnParameter_PR_modemDescriptor,
		[AmmDescriptor_PR_muxDescriptor] = AuditReturnParameter_PR_muxDescriptor,
		[AmmDescriptor_PR_eventsDescriptor] = AuditReturnParameter_PR_eventsDescriptor,
		[AmmDescriptor_PR_eventBufferDescriptor] = AuditReturnParameter_PR_eventBufferDescriptor,
		[AmmDescriptor_PR_signalsDescriptor] = AuditReturnParameter_PR_signalsDescriptor,
		[AmmDescriptor_PR_digitMapDescriptor] = AuditReturnParameter_PR_digitMapDescriptor,
		[AmmDescriptor_PR_auditDescriptor] = D_AUDIT,
		[AmmDescriptor_PR_statisticsDescriptor] = AuditReturnParameter_PR_statisticsDescriptor,
	};
	/* present is one of these: model_check() saw to it */
	descriptor(e, kind[d->present], &d->choice, l);
}

/*
 * A reply's bare Events, Signals and EventBuffer are empty descriptors
 * (auditReturnParameter), not audit tokens: auditReturnItem has only Mux,
 * Modem, Media, DigitMap, Statistics, ObservedEvents and Packages.
 */
static int reply_tokens_only(const BIT_STRING_t *b)
{
	return !bit(b, AuditDescriptor__auditToken_eventsToken) &&
	       !bit(b, AuditDescriptor__auditToken_signalsToken) &&
	       !bit(b, AuditDescriptor__auditToken_eventBufferToken);
}

/*
 * terminationAudit: " { ... }", nothing for an empty one. Bare audit tokens
 * read back as one emptyDescriptors after the other items, so that is the
 * only emptyDescriptors text can write; an empty optional terminationAudit
 * (optional) is its absence.
 */
static void termination_audit(enc *e, const TerminationAudit_t *a, int optional, unsigned l)
{
	if (!a)
		return;
	for (int i = 0; i < a->list.count; i++) {
		const AuditReturnParameter_t *p = a->list.array[i];
		const AuditDescriptor_t *d = &p->choice.emptyDescriptors;
		if (p->present == AuditReturnParameter_PR_emptyDescriptors &&
		    (i != a->list.count - 1 || !d->auditToken || !audit_tokens_writable(d->auditToken) ||
		     d->auditPropertyToken || !reply_tokens_only(d->auditToken))) {
			no_form(e, &asn_DEF_AuditReturnParameter, p,
			        "emptyDescriptors other than auditReturnItem tokens after the other items");
			return;
		}
	}
	if (!a->list.count) {
		if (optional)
			no_form(e, &asn_DEF_TerminationAudit, a, "an empty terminationAudit");
		return;
	}
	lb(e, l);
	for (int i = 0, n = 0; i < a->list.count; i++) {
		const AuditReturnParameter_t *p = a->list.array[i];
		if (p->present == AuditReturnParameter_PR_emptyDescriptors) {
			audit_tokens(e, p->choice.emptyDescriptors.auditToken, &n, l + 1);
		} else {
			SEP(e, n, l + 1);
			descriptor(e, (int)p->present, &p->choice, l + 1);
		}
	}
	rb(e, l);
}

/* Each command's keyword, by its alternative (model_check() saw that it has one). */
static const unsigned char command_kw[] = {
	[Command_PR_addReq] = KW_ADD,
	[Command_PR_moveReq] = KW_MOVE,
	[Command_PR_modReq] = KW_MODIFY,
	[Command_PR_subtractReq] = KW_SUBTRACT,
	[Command_PR_auditCapRequest] = KW_AUDIT_CAP,
	[Command_PR_auditValueRequest] = KW_AUDIT_VALUE,
	[Command_PR_notifyReq] = KW_NOTIFY,
	[Command_PR_serviceChangeReq] = KW_SERVICE_CHANGE,
};

static void command(enc *e, const Command_t *c, unsigned l)
{
	kw_eq(e, command_kw[c->present]);
	switch (c->present) {
	case Command_PR_addReq:
	case Command_PR_moveReq:
	case Command_PR_modReq: {
		const AmmRequest_t *r = (const AmmRequest_t *)(const void *)&c->choice; /* all three */
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		if (r->descriptors.list.count) {
			lb(e, l);
			/* ammParameter allows each kind of descriptor once. */
			unsigned long seen = 0;
			for (int i = 0, n = 0; i < r->descriptors.list.count; i++) {
				const AmmDescriptor_t *d = r->descriptors.list.array[i];
				unsigned long bitk = d->present > 0 && d->present < 32 ? 1ul << d->present : 0;
				if (seen & bitk)
					fail_at(e, &asn_DEF_AmmDescriptor, d, MEGACO_ERR_CONSTRAINT,
					        "a second descriptor of this kind in one command has no text form");
				seen |= bitk;
				SEP(e, n, l + 1);
				amm_descriptor(e, d, l + 1);
			}
			rb(e, l);
		}
		break;
	}
	case Command_PR_subtractReq: {
		const SubtractRequest_t *r = &c->choice.subtractReq;
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		if (r->auditDescriptor) {
			lb(e, l);
			audit_descriptor(e, r->auditDescriptor, l + 1);
			rb(e, l);
		}
		break;
	}
	case Command_PR_auditCapRequest:
	case Command_PR_auditValueRequest: {
		const AuditRequest_t *r = (const AuditRequest_t *)(const void *)&c->choice; /* both */
		/* A list reads back as terminationID = its first, and a list of one as no list. */
		if (r->terminationIDList &&
		    (r->terminationIDList->list.count < 2 ||
		     !same_tid(&r->terminationID, r->terminationIDList->list.array[0])))
			no_form(e, &asn_DEF_AuditRequest, r,
			        "a terminationIDList of fewer than two, or not starting with terminationID,");
		if (r->terminationIDList) {
			tid_list(e, r->terminationIDList->list.array, r->terminationIDList->list.count, l);
		} else {
			TerminationID_t *one = (TerminationID_t *)&r->terminationID;
			tid_list(e, &one, 1, l);
		}
		if (c->present == Command_PR_auditCapRequest &&
		    text_audits_dm_or_packages(&r->auditDescriptor))
			fail_at(e, &asn_DEF_AuditDescriptor, &r->auditDescriptor, MEGACO_ERR_CONSTRAINT,
			        "DigitMap and Packages may not be audited in AuditCapability (auditItem)");
		lb(e, l);
		audit_descriptor(e, &r->auditDescriptor, l + 1);
		rb(e, l);
		break;
	}
	case Command_PR_notifyReq: {
		const NotifyRequest_t *r = &c->choice.notifyReq;
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		lb(e, l);
		observed_events(e, &r->observedEventsDescriptor, l + 1);
		if (r->errorDescriptor) {
			cm0(e);
			error_descriptor(e, r->errorDescriptor);
		}
		rb(e, l);
		break;
	}
	case Command_PR_serviceChangeReq: {
		const ServiceChangeRequest_t *r = &c->choice.serviceChangeReq;
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		lb(e, l);
		service_change_parm(e, &r->serviceChangeParms, l + 1);
		rb(e, l);
		break;
	}
	default: break;
	}
}

static void audit_reply(enc *e, const AuditReply_t *r, unsigned l)
{
	switch (r->present) {
	case AuditReply_PR_contextAuditResult:
		kw(e, KW_CTX);
		tid_braces(e, r->choice.contextAuditResult.list.array,
		           r->choice.contextAuditResult.list.count, l);
		break;
	case AuditReply_PR_error:
		kw_lb(e, KW_CTX, l);
		error_descriptor(e, &r->choice.error);
		rb(e, l);
		break;
	case AuditReply_PR_auditResult: {
		TerminationID_t *one = (TerminationID_t *)&r->choice.auditResult.terminationID;
		tid_list(e, &one, 1, l);
		termination_audit(e, &r->choice.auditResult.terminationAuditResult, 0, l);
		break;
	}
	case AuditReply_PR_auditResultTermList:
		if (r->choice.auditResultTermList.terminationIDList.list.count < 2) {
			/* One termination ID reads back as auditResult. */
			no_form(e, &asn_DEF_AuditReply, r, "an auditResultTermList of fewer than two IDs");
			break;
		}
		tid_list(e, r->choice.auditResultTermList.terminationIDList.list.array,
		         r->choice.auditResultTermList.terminationIDList.list.count, l);
		termination_audit(e, &r->choice.auditResultTermList.terminationAuditResult, 0, l);
		break;
	default: break;
	}
}

static void command_reply(enc *e, const CommandReply_t *c, unsigned l)
{
	/* A reply's keyword is its request's: the alternatives come in the same order. */
	_Static_assert((int)CommandReply_PR_addReply == (int)Command_PR_addReq &&
	                       (int)CommandReply_PR_serviceChangeReply == (int)Command_PR_serviceChangeReq,
	               "CommandReply's alternatives in Command's order");
	kw_eq(e, command_kw[c->present]);
	switch (c->present) {
	case CommandReply_PR_addReply:
	case CommandReply_PR_moveReply:
	case CommandReply_PR_modReply:
	case CommandReply_PR_subtractReply: {
		const AmmsReply_t *r = (const AmmsReply_t *)(const void *)&c->choice; /* all four */
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		termination_audit(e, r->terminationAudit, 1, l);
		break;
	}
	case CommandReply_PR_auditCapReply:
	case CommandReply_PR_auditValueReply:
		audit_reply(e, (const AuditReply_t *)(const void *)&c->choice, l); /* both */
		break;
	case CommandReply_PR_notifyReply: {
		const NotifyReply_t *r = &c->choice.notifyReply;
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		if (r->errorDescriptor) {
			lb(e, l);
			error_descriptor(e, r->errorDescriptor);
			rb(e, l);
		}
		break;
	}
	case CommandReply_PR_serviceChangeReply: {
		const ServiceChangeReply_t *r = &c->choice.serviceChangeReply;
		tid_list(e, r->terminationID.list.array, r->terminationID.list.count, l);
		service_change_result(e, &r->serviceChangeResult, l);
		break;
	}
	default: break;
	}
}

/* --------------------------------------------------------------- contexts */

static void topology(enc *e, const struct ContextRequest__topologyReq *t, unsigned l)
{
	kw_lb(e, KW_TOPOLOGY, l);
	for (int i = 0, n = 0; i < t->list.count; i++) {
		const TopologyRequest_t *r = t->list.array[i];
		SEP(e, n, l + 1);
		tid(e, &r->terminationFrom);
		cm(e, l + 1);
		tid(e, &r->terminationTo);
		cm(e, l + 1);
		enum_item(e, NULL, 0, -1, &r->topologyDirection, KWS(text_kw_topology_direction),
		          "topology direction");
		if (r->streamID) {
			cm(e, l + 1);
			num_item(e, NULL, 0, KW_STREAM, r->streamID, U16, "stream ID");
		}
		if (r->topologyDirectionExtension) {
			cm(e, l + 1);
			enum_item(e, NULL, 0, -1, r->topologyDirectionExtension,
			          KWS(text_kw_topology_extension), "topology direction extension");
		}
	}
	rb(e, l);
}

/* contextProperty items of a request or reply, as members of the enclosing list. */
static void context_request(enc *e, const ContextRequest_t *c, int *n, unsigned l)
{
	/* Text spells an empty context request, or an empty list in one, as absence. */
	if ((c->topologyReq && !c->topologyReq->list.count) ||
	    (c->contextProp && !c->contextProp->list.count) ||
	    (c->contextList && !c->contextList->list.count) ||
	    !(c->priority || c->emergency || c->topologyReq || c->iepscallind || c->contextProp ||
	      c->contextList)) {
		fail_at(e, &asn_DEF_ContextRequest, c, MEGACO_ERR_CONSTRAINT,
		        "an empty context request or empty list in one has no text form");
		return;
	}
	num_item(e, n, l, KW_PRIORITY, c->priority, 15, "priority");
	if (c->emergency) {
		if (*c->emergency) {
			SEP(e, *n, l);
			kw(e, KW_EMERGENCY);
		} else if (need(e, TEXT_SINCE_EMERGENCY_OFF, "EmergencyOff")) {
			SEP(e, *n, l);
			/*
			 * H.248.1 v2's Annex B spells the long form "EmergencyOffToken";
			 * v3 corrected it to "EmergencyOff". A v2 peer (Erlang megaco
			 * among them) accepts only the v2 spelling in a v2 message.
			 */
			if (!e->compact && e->version == 2)
				TW_LIT(&e->w, "EmergencyOffToken");
			else
				kw(e, KW_EMERGENCY_OFF);
		}
	}
	OPT_ITEM(e, *n, l, topology, c->topologyReq); /* not empty: seen above */
	on_off_item(e, n, l, KW_IEPS, c->iepscallind);
	if (c->contextProp && c->contextProp->list.count) {
		SEP(e, *n, l);
		kw_lb(e, KW_CONTEXT_ATTR, l);
		int m = 0;
		EACH_ITEM(e, &c->contextProp->list, m, l, property) /* Erlang's items here stay at l */
		rb(e, l);
	}
	if (c->contextList && c->contextList->list.count) {
		SEP(e, *n, l);
		kw_lb(e, KW_CONTEXT_ATTR, l);
		kw_eq(e, KW_CONTEXT_LIST);
		lb(e, l + 1);
		for (int i = 0, m = 0; i < c->contextList->list.count; i++) {
			SEP(e, m, l + 2);
			context_id(e, *c->contextList->list.array[i]);
		}
		rb(e, l + 1);
		rb(e, l);
	}
}

static void context_audit(enc *e, const ContextAttrAuditRequest_t *a, int *n, unsigned l)
{
	if (a->contextPropAud && !a->contextPropAud->list.count) {
		no_form(e, &asn_DEF_ContextAttrAuditRequest, a, "an empty contextPropAud");
		return;
	}
	SEP(e, *n, l);
	kw_lb(e, KW_CONTEXT_AUDIT, l);
	int m = 0;
	list_kw(e, &m, l + 1, KW_TOPOLOGY, a->topology != NULL);
	list_kw(e, &m, l + 1, KW_EMERGENCY, a->emergency != NULL);
	list_kw(e, &m, l + 1, KW_PRIORITY, a->priority != NULL);
	list_kw(e, &m, l + 1, KW_IEPS, a->iepscallind != NULL);
	if (a->contextPropAud)
		for (int i = 0; i < a->contextPropAud->list.count; i++)
			ind_aud_property(e, a->contextPropAud->list.array[i], &m, 0, l + 1);
	num_item(e, &m, l + 1, KW_PRIORITY, a->selectpriority, 15, "priority");
	if (a->selectemergency) {
		SEP(e, m, l + 1);
		kw_eq(e, KW_EMERGENCY_VALUE);
		kw(e, *a->selectemergency ? KW_EMERGENCY : KW_EMERGENCY_OFF);
	}
	on_off_item(e, &m, l + 1, KW_IEPS, a->selectiepscallind);
	if (a->selectLogic) {
		SEP(e, m, l + 1);
		if (a->selectLogic->present == SelectLogic_PR_orAUDITSelect)
			kw(e, KW_OR_AUDITSELECT);
		else if (a->selectLogic->present == SelectLogic_PR_andAUDITSelect)
			kw(e, KW_AND_AUDITSELECT);
		else
			fail_at(e, &asn_DEF_SelectLogic, a->selectLogic, MEGACO_ERR_CONSTRAINT,
			        "selectLogic holds an alternative text cannot write");
	}
	nonempty(e, m, "ContextAudit");
	rb(e, l);
}

static void action_request(enc *e, const ActionRequest_t *a, unsigned l)
{
	kw_eq(e, KW_CTX);
	context_id(e, a->contextId);
	lb(e, l);
	int n = 0;
	if (a->contextRequest)
		context_request(e, a->contextRequest, &n, l + 1);
	if (a->contextAttrAuditReq)
		context_audit(e, a->contextAttrAuditReq, &n, l + 1);
	for (int i = 0; i < a->commandRequests.list.count; i++) {
		const CommandRequest_t *c = a->commandRequests.list.array[i];
		SEP(e, n, l + 1);
		if (c->optional)
			TW_LIT(&e->w, "O-");
		if (c->wildcardReturn)
			TW_LIT(&e->w, "W-");
		command(e, &c->command, l + 1);
	}
	nonempty(e, n, "action (no context property, audit or command)");
	rb(e, l);
}

static void action_reply(enc *e, const ActionReply_t *a, unsigned l)
{
	kw_eq(e, KW_CTX);
	context_id(e, a->contextId);
	int n = 0;
	/* A reply with nothing to say is the bare "Context = id" (an empty contextReply: refused). */
	if (!a->contextReply && !a->errorDescriptor && !a->commandReply.list.count) {
		/* "Context = id" without braces is v3's (actionReplyBody is optional only there). */
		if (e->version < 3)
			fail_at(e, &asn_DEF_ActionReply, a, MEGACO_ERR_CONSTRAINT,
			        "an empty ActionReply has no version %ld text form", e->version);
		return;
	}
	lb(e, l);
	if (a->contextReply)
		context_request(e, a->contextReply, &n, l + 1);
	EACH_ITEM(e, &a->commandReply.list, n, l + 1, command_reply)
	if (a->errorDescriptor) {
		SEP(e, n, l + 1);
		error_descriptor(e, a->errorDescriptor);
	}
	rb(e, l);
}

/* ----------------------------------------------------------- transactions */

static void segment_suffix(enc *e, const SegmentNumber_t *num_, const NULL_t *complete)
{
	if (!num_) {
		if (complete)
			fail(e, MEGACO_ERR_CONSTRAINT, "segmentation complete without a segment number");
		return;
	}
	ch(e, '/');
	num_max(e, *num_, U16, "segment number");
	if (complete) {
		ch(e, '/');
		kw(e, KW_SEGMENTATION_COMPLETE);
	}
}

TW_INLINE void transaction(enc *e, const Transaction_t *t)
{
	switch (t->present) {
	case Transaction_PR_transactionRequest: {
		const TransactionRequest_t *r = &t->choice.transactionRequest;
		kw_eq(e, KW_TRANS);
		num_max(e, (long long)r->transactionId, U32, "transaction ID");
		if (!r->actions.list.count) {
			fail(e, MEGACO_ERR_CONSTRAINT, "transaction request without actions");
			return;
		}
		BRACED_ITEMS(e, &r->actions.list, 0, action_request);
		break;
	}
	case Transaction_PR_transactionPending:
		kw_eq(e, KW_PENDING);
		num_max(e, (long long)t->choice.transactionPending.transactionId, U32,
		        "transaction ID");
		lb(e, 0);
		rb(e, 0);
		break;
	case Transaction_PR_transactionReply: {
		const TransactionReply_t *r = &t->choice.transactionReply;
		kw_eq(e, KW_REPLY);
		num_max(e, (long long)r->transactionId, U32, "transaction ID");
		segment_suffix(e, r->segmentNumber, r->segmentationComplete);
		lb(e, 0);
		if (r->immAckRequired) {
			kw(e, KW_IMM_ACK_REQUIRED);
			cm(e, 1);
		}
		if (r->transactionResult.present == TransactionReply__transactionResult_PR_transactionError) {
			error_descriptor(e, &r->transactionResult.choice.transactionError);
		} else {
			const struct TransactionReply__transactionResult__actionReplies *ar =
				&r->transactionResult.choice.actionReplies;
			if (!ar->list.count)
				fail(e, MEGACO_ERR_CONSTRAINT, "transaction reply without action replies");
			int n = 0;
			EACH_ITEM(e, &ar->list, n, 1, action_reply)
		}
		rb(e, 0);
		break;
	}
	case Transaction_PR_transactionResponseAck: {
		const TransactionResponseAck_t *r = &t->choice.transactionResponseAck;
		if (!r->list.count) {
			no_form(e, &asn_DEF_Transaction, t, "an empty TransactionResponseAck");
			return;
		}
		kw_lb(e, KW_RESPONSE_ACK, 0);
		for (int i = 0, n = 0; i < r->list.count; i++) {
			SEP(e, n, 1);
			num_max(e, (long long)r->list.array[i]->firstAck, U32, "transaction ID");
			if (r->list.array[i]->lastAck) {
				ch(e, '-');
				num_max(e, (long long)*r->list.array[i]->lastAck, U32, "transaction ID");
			}
		}
		rb(e, 0);
		break;
	}
	case Transaction_PR_segmentReply: {
		const SegmentReply_t *r = &t->choice.segmentReply;
		kw_eq(e, KW_MESSAGE_SEGMENT);
		num_max(e, (long long)r->transactionId, U32, "transaction ID");
		segment_suffix(e, &r->segmentNumber, r->segmentationComplete);
		break;
	}
	default: break;
	}
}

static void hex_field(enc *e, const OCTET_STRING_t *s, int min, int max, const char *what)
{
	if (s->size < min || s->size > max) {
		fail(e, MEGACO_ERR_CONSTRAINT, "%s of %d octets", what, s->size);
		return;
	}
	TW_LIT(&e->w, "0x");
	for (int i = 0; i < s->size; i++)
		tw_hex2(&e->w, s->buf[i]);
}

TW_INLINE void message(enc *e, const MegacoMessage_t *m)
{
	const AuthenticationHeader_t *a = m->authHeader;
	if (a) {
		kw_eq(e, KW_AUTH);
		hex_field(e, &a->secParmIndex, 4, 4, "security parameter index");
		ch(e, ':');
		hex_field(e, &a->seqNum, 4, 4, "sequence number");
		ch(e, ':');
		hex_field(e, &a->ad, 12, 32, "authentication data");
		ch(e, '\n');
	}
	kw(e, KW_MEGACOP);
	/* "/3 ": the version is 1..3, the version gate saw it */
	const unsigned char v[3] = { '/', (unsigned char)('0' + m->mess.version), ' ' };
	tw_put_small(&e->w, v, 3);
	mid(e, &m->mess.mId);
	ch(e, '\n');
	if (m->mess.messageBody.present == Message__messageBody_PR_messageError) {
		error_descriptor(e, &m->mess.messageBody.choice.messageError);
	} else {
		const struct Message__messageBody__transactions *ts =
			&m->mess.messageBody.choice.transactions;
		if (!ts->list.count)
			fail(e, MEGACO_ERR_CONSTRAINT, "message without transactions");
		for (int i = 0; i < ts->list.count && !e->rc; i++) {
			/*
			 * segmentReply is the one transaction not closed by '}' (it ends
			 * in LWSP): the next keyword would otherwise run into its number.
			 */
			if (i && ts->list.array[i - 1]->present == Transaction_PR_segmentReply)
				ch(e, '\n');
			transaction(e, ts->list.array[i]);
		}
	}
}

/*
 * Brace and bracket nesting the encoder can write: at most TEXT_NEST_FIXED
 * outside embedded events (Transaction, Context, command, Events, event,
 * NotifyRegulated, Embed, Signals, SignalList, signal, NotifyCompletion or a
 * value list: 12 at the deepest, with room to spare), and each level of
 * embedded events (Events, event, NotifyRegulated, Embed, Signals ...) at most
 * TEXT_NEST_PER_EMBED more. Only a bound: when it exceeds max_depth the
 * output is scanned.
 */
#define TEXT_NEST_FIXED 16u
#define TEXT_NEST_PER_EMBED 8u

/*
 * What we write, we read under the same options: a token longer than
 * max_token_length or nesting deeper than max_depth is refused. The scanner
 * that enforces both at decode checks the output, only when the output could
 * break one (longer than the token limit, or a nesting bound past the depth
 * limit): with the default limits that is only for output over 64 KiB or
 * embedded events nested six deep.
 */
TW_COLD int limits_check(const unsigned char *buf, size_t len, const megaco_options *o,
                         megaco_error *err)
{
	int rc = text_scan_only(buf, len, o, err);
	if (rc == MEGACO_ERR_TOKEN_TOO_LONG || rc == MEGACO_ERR_TOO_DEEP) {
		error_prefix(err, "the text would not decode under the same options");
		return rc;
	}
	if (rc != MEGACO_OK && rc != MEGACO_ERR_NOMEM && rc != MEGACO_ERR_TOO_LARGE)
		return set_error(err, MEGACO_ERR_INTERNAL, 0, "our own text does not scan: %s",
		                 megaco_strerror(rc));
	return rc == MEGACO_ERR_TOO_LARGE ? MEGACO_OK : rc; /* the size limits: encode_size_check */
}

int text_encode_message(const megaco_message *msg, int compact, const megaco_options *o,
                        unsigned char *buf, size_t cap, size_t *out_len, megaco_error *err)
{
	/*
	 * Seam for the transcoding layer: binary-form names (4-octet package/item
	 * IDs, wildcard octets) must be mapped to text before they get here.
	 */
	if (msg->form != MEGACO_NAMES_TEXT)
		return set_error(err, MEGACO_ERR_UNKNOWN_NAME, 0,
		                 "names are in binary form; map them to text names first");
	const MegacoMessage_t *m = msg->model; /* its version is 1..3: the gate saw it */
	unsigned char none[1]; /* a valid address for a NULL, zero-capacity buffer */
	enc e; /* field by field: zeroing the whole of it costs more than the encoding of a line */
	e.kw = compact ? kw_short : kw_long;
	e.kweq = compact ? kw_short_eq : kw_long_eq;
	e.cls = m->mess.version == 1 ? cls_v1 : cls;
	e.compact = compact;
	e.version = m->mess.version;
	e.rc = 0;
	e.err = err;
	e.depth = e.depth_max = 0;
	e.at = NULL; /* at_td is set with it */
	tw_init(&e.w, buf ? buf : none, buf ? cap : 0);
	message(&e, m);
	if (e.rc) {
		char path[96];
		if (e.at && err && model_path(m, e.at_td, e.at, path, sizeof path))
			error_prefix(err, path);
		return e.rc;
	}
	size_t len = tw_len(&e.w);
	*out_len = len;
	int rc = MEGACO_OK;
	if (len > cap)
		rc = set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, cap,
		               "output needs %zu bytes, the buffer has %zu", len, cap);
	else if (len > o->max_token_length ||
	         TEXT_NEST_FIXED + TEXT_NEST_PER_EMBED * e.depth_max > o->max_depth)
		rc = limits_check(buf, len, o, err);
	return len > o->max_message_size ? encode_size_check(rc, len, o, err) : rc;
}
