/*
 * Model building for the text parser (stage 2 of text decoding): the bison
 * actions of grammar/megaco.y call these to turn tokens into asn1c
 * MegacoMessage_t nodes. Everything is allocated from the message arena,
 * lists grown here too (add()): no asn1c code runs in a text decode. Names
 * stay in text form (docs/model.md); everything else is filled the way
 * Erlang megaco's BER encoder shows the same message.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "MegacoMessage.h"
#include "text_model_rules.h"
#include "text_parse.h"
#include "version_table.h"

#define NEW(px, T) ((T *)tb_new((px), sizeof(T)))
#define TXT(px, t) ((const char *)(px)->in + (t)->off)
/* A tb_list and any A_SEQUENCE_OF(T) share their layout. */
#define LIST_INTO(dst, src)                                                         \
	do {                                                                            \
		if (src)                                                                    \
			memcpy(&(dst), &(src)->list, sizeof(dst));                              \
	} while (0)

/* Parser-side wrappers: the ASN.1 struct first, bookkeeping after. */
typedef struct sc_build {
	ServiceChangeParm_t p;
	int have_method;
	size_t off;
} sc_build;

typedef struct event_raw {
	text_tok name;
	tb_list *params;
} event_raw;

typedef struct embed_raw {
	tb_list *signals;
	SecondEventsDescriptor_t *events;
} embed_raw;

int tb_fail(text_parse *px, int code, size_t off, const char *fmt, ...)
{
	if (!px->err) {
		px->err = code;
		px->err_off = off;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(px->err_text, sizeof px->err_text, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * The at-most-once and either-or rules of the ABNF: a SYNTAX error at off
 * ("Mode given twice in LocalControl"), or (first_kw, where NULL) one that
 * excludes the earlier keyword first_kw; text_first_item() adds where the
 * first one is. eq: an audit selection item, where "PR" and "PR = 3" are
 * different items.
 */
static __attribute__((cold, noinline)) int twice(text_parse *px, size_t off, int first_kw, int eq,
                                                 const char *what, const char *where)
{
	if (!px->err) {
		px->twice = 1;
		px->twice_kw = first_kw;
		px->twice_eq = eq;
	}
	if (!where)
		return tb_fail(px, MEGACO_ERR_SYNTAX, off, "%s", what);
	return tb_fail(px, MEGACO_ERR_SYNTAX, off, "%s given twice in %s", what, where);
}

#define tb_twice(px, off, what, where) twice(px, off, -1, 0, what, where)
#define tb_exclusive(px, off, first_kw, what) twice(px, off, first_kw, 0, what, NULL)

/*
 * An element of protocol version `since` in a message of an older version:
 * MEGACO_ERR_VERSION_MISMATCH at off. 0 when the version allows it.
 */
static __attribute__((cold, noinline)) int version_gate(text_parse *px, size_t off, int since,
                                                        const char *what)
{
	if (px->version >= since)
		return 0;
	return tb_fail(px, MEGACO_ERR_VERSION_MISMATCH, off,
	               "%s is a version %d element; the message is version %d", what, since,
	               px->version);
}

/* The version gate, with its test inline: most builders never need the call. */
#define GATE(px, off, since, what) ((px)->version < (since) ? version_gate(px, off, since, what) : 0)

/*
 * The at-most-once rule of the item `it` in a builder whose items are all
 * `where`'s: slot is set to val (evaluated only then) unless it is set
 * already. 0, or -1 with px->err set (val NULL: out of memory).
 * SINCE_ONCE: the item is also of protocol version `since`.
 */
#define ONCE(slot, what, val) ((slot) ? tb_twice(px, it->off, what, where) : ((slot) = (val)) ? 0 : -1)
#define SINCE_ONCE(slot, what, since, val)                                                     \
	((slot) ? tb_twice(px, it->off, what, where)                                               \
	        : GATE(px, it->off, since, what) ? -1 : ((slot) = (val)) ? 0 : -1)

/*
 * Nodes and strings are carved from a chunk of the arena, held as
 * [px->carve, px->carve_end): a bump of a pointer instead of an arena call
 * (and its size header) per node. Carved memory has no header, which nothing
 * needs: asn1c reallocates only SEQUENCE OF arrays, and those carry a header
 * of their own (add(), grow_list()).
 *
 * text_decode.c hands the parse the whole free tail of the message's first
 * block as its first chunk, which holds a corpus message: no call per
 * fixed-size chunk, and no chunk's rest left unused. Every chunk is marked
 * used in the arena when it is taken, because the parse may still call the
 * arena itself (text_item_make once its pool is used up): such an allocation
 * lands after the chunk, never on carved memory. What a chunk has left goes
 * back when nothing was allocated after it (a refill, or the end of the
 * parse in text_decode.c).
 */
#define CARVE_ALIGN 16u
#define CARVE_REFILL 4096u /* a later chunk's size */
#define CARVE_BIG 1024u    /* a bigger piece that does not fit is taken on its own */

#define CARVE_ROUND(n) (((n) + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1))

/* n bytes (rounded) of the newest block's free tail or of a new block, marked used. */
static unsigned char *take_piece(megaco_arena *a, size_t n)
{
	char *lim;
	char *p = n <= SIZE_MAX / 4 ? arena_tail_take(a, n, &lim) : NULL;
	if (!p) {
		a->failed = 1;
		return NULL;
	}
	arena_tail_return(a, p + n);
	return (unsigned char *)p;
}

/*
 * r bytes (rounded) when the chunk has not got them: a piece of their own
 * if big (the chunk stays), else the start of a new chunk. NULL (px->err
 * set) without memory.
 */
static __attribute__((cold, noinline)) unsigned char *refill(text_parse *px, size_t r)
{
	megaco_arena *a = px->A;
	unsigned char *p;
	if (r > CARVE_BIG) {
		p = take_piece(a, r);
	} else {
		/* The chunk's rest goes back if it can, and is taken again if it
		 * is long enough after all. */
		tb_carve_give_back(px);
		p = take_piece(a, CARVE_REFILL);
		px->carve = p ? p + r : NULL;
		px->carve_end = p ? p + CARVE_REFILL : NULL;
	}
	if (!p)
		tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory");
	return p;
}

/* always_inline: the carving helpers are a few instructions once a constant
 * size folds them (arena_zero's stores only then), and gcc's size estimate
 * of the unfolded body would keep them out of line. */
#define CARVE_INLINE static inline __attribute__((always_inline))

/* n bytes, not zeroed, aligned for any node. */
CARVE_INLINE void *carve(text_parse *px, size_t n)
{
	/* Both NULL if text_decode.c had no tail to give. n is at most a
	 * token's length and a little: no wrap. */
	size_t r = CARVE_ROUND(n);
	if ((uintptr_t)px->carve_end - (uintptr_t)px->carve < r)
		return refill(px, r);
	unsigned char *p = px->carve;
	px->carve = p + r;
	return p;
}

/*
 * Sixteen bytes moved as one value (GNU vector extension, gcc and clang):
 * short string copies. The element type is unsigned char, so the accesses
 * may alias any node.
 */
typedef unsigned char vec16 __attribute__((vector_size(16)));

/*
 * n zeroed bytes; a node's constant size unrolls the zeroing into a few
 * 16-byte stores (arena_zero: a memset of a node's size is `rep stos` for
 * asn1c's larger structs, slow to start for a hundred-odd bytes).
 */
CARVE_INLINE void *tb_new(text_parse *px, size_t n)
{
	unsigned char *p = carve(px, n);
	if (p)
		arena_zero(p, CARVE_ROUND(n));
	return p;
}

/* Any A_SEQUENCE_OF / A_SET_OF: they share this layout. */
typedef A_SEQUENCE_OF(void) any_list;

/*
 * A list's array of slots pointers in the carved piece p, behind the size
 * header arena.h puts before every allocation, so that arena_realloc()
 * (asn_sequence_add() on the decoded model, megaco_message_append) can copy
 * it when the list grows later.
 */
#define ARRAY_BYTES(slots) (ARENA_HDR + (slots) * sizeof(void *))

CARVE_INLINE void **init_array(unsigned char *p, size_t slots)
{
	size_t bytes = slots * sizeof(void *);
	memcpy(p, &bytes, sizeof bytes);
	return (void **)(void *)(p + ARENA_HDR);
}

CARVE_INLINE void **new_array(text_parse *px, size_t slots)
{
	unsigned char *p = carve(px, ARRAY_BYTES(slots));
	return p ? init_array(p, slots) : NULL;
}

/* asn_sequence_add's growth (4, 8, 16, ... slots), without its calls. */
static int grow_list(text_parse *px, any_list *l)
{
	void **a = l->size > (1 << 28) ? NULL : new_array(px, (size_t)l->size * 2);
	if (!a)
		return tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory");
	memcpy(a, l->array, (size_t)l->count * sizeof *a);
	l->array = a;
	l->size *= 2;
	return 0;
}

static inline int add(text_parse *px, void *list, void *item)
{
	any_list *l = list;
	if (!item)
		return tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory");
	if (l->count == l->size) {
		if (l->size) {
			if (grow_list(px, l))
				return -1;
		} else {
			/* Most lists stop at 4. */
			if (!(l->array = new_array(px, 4)))
				return -1;
			l->size = 4;
		}
	}
	l->array[l->count++] = item;
	return 0;
}

/*
 * memcpy for the short strings of a message (names, IDs, SDP lines): two
 * overlapping loads and stores instead of a library call, reading only the n
 * source bytes. Longer ones go to memcpy.
 */
CARVE_INLINE void copy_short(unsigned char *d, const char *s, size_t n)
{
	if (n >= 8) {
		if (n > 16) {
			if (n > 32) {
				memcpy(d, s, n);
				return;
			}
			vec16 a, b;
			memcpy(&a, s, 16);
			memcpy(&b, s + n - 16, 16);
			memcpy(d, &a, 16);
			memcpy(d + n - 16, &b, 16);
			return;
		}
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = (unsigned char)s[0];
		d[n / 2] = (unsigned char)s[n / 2];
		d[n - 1] = (unsigned char)s[n - 1];
	}
}

/* A NUL-terminated copy, as asn1c's own decoders leave OCTET STRINGs. */
CARVE_INLINE int set_os(text_parse *px, OCTET_STRING_t *os, const char *s, size_t n)
{
	uint8_t *b = n < SIZE_MAX - CARVE_ALIGN ? carve(px, n + 1) : NULL;
	if (!b)
		return tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory");
	copy_short(b, s, n);
	b[n] = 0;
	os->buf = b;
	os->size = n;
	return 0;
}

CARVE_INLINE int set_tok(text_parse *px, OCTET_STRING_t *os, const text_tok *t)
{
	return set_os(px, os, TXT(px, t), t->len);
}

/* A zeroed T with a NUL-terminated copy of t's bytes behind it as its member os: one piece. */
#define NEW_NAMED(px, T, os, t) ((T *)new_named(px, sizeof(T), offsetof(T, os), t))
CARVE_INLINE void *new_named(text_parse *px, size_t n, size_t at, const text_tok *t)
{
	unsigned char *p = carve(px, CARVE_ROUND(n) + t->len + 1);
	if (!p)
		return NULL;
	arena_zero(p, CARVE_ROUND(n));
	OCTET_STRING_t *os = (OCTET_STRING_t *)(void *)(p + at);
	os->buf = p + CARVE_ROUND(n);
	os->size = (int)t->len;
	copy_short(os->buf, TXT(px, t), t->len);
	os->buf[t->len] = 0;
	return p;
}

/*
 * Characters per version (MEGACO_ERR_BAD_CHARACTER at the byte). The
 * scanner takes %x80-FF in words and quoted strings, as the v3 ABNF's VALUE
 * and quotedString do; v1's (RFC 3525) are ASCII, and its quotedString has
 * no line ends. A termination ID is a pathNAME in every version: ASCII.
 * The tests read a token eight bytes at a time where it has eight, with the
 * last word overlapping the one before (never past the token), as
 * copy_short does; a byte's high bit is the answer, whatever the byte order.
 */
#define ONES 0x0101010101010101u
#define HIGHS 0x8080808080808080u

static inline uint64_t load8(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* w's bytes >= 0x80 and, with eol, its CRs and LFs (zero bytes of w ^ c: "haszero"), as high bits. */
CARVE_INLINE uint64_t bad_bytes(uint64_t w, int eol)
{
	uint64_t lf = w ^ (ONES * '\n'), cr = w ^ (ONES * '\r');
	return eol ? w | ((lf - ONES) & ~lf) | ((cr - ONES) & ~cr) : w;
}

/* Whether s[0..n) holds a byte >= 0x80 or, with eol, a CR or a LF. */
CARVE_INLINE int has_bad(const unsigned char *s, size_t n, int eol)
{
	if (n < 8) {
		unsigned acc = 0;
		for (size_t i = 0; i < n; i++)
			acc |= s[i] | (eol && (s[i] == '\r' || s[i] == '\n') ? 0x80 : 0);
		return (acc & 0x80) != 0;
	}
	uint64_t acc = bad_bytes(load8(s + n - 8), eol);
	for (size_t i = 0; i + 8 < n; i += 8)
		acc |= bad_bytes(load8(s + i), eol);
	return (acc & HIGHS) != 0;
}

/*
 * copy_short() of at most 64 bytes, and whether any of them is >= 0x80: the
 * loads of the copy are the test's too.
 */
CARVE_INLINE int copy_ascii(unsigned char *d, const char *s, size_t n)
{
	if (n >= 16) {
		vec16 a, acc = {0};
		for (size_t i = 0; i + 16 < n; i += 16) {
			memcpy(&a, s + i, 16);
			memcpy(d + i, &a, 16);
			acc |= a;
		}
		memcpy(&a, s + n - 16, 16);
		memcpy(d + n - 16, &a, 16);
		acc |= a;
		uint64_t h[2];
		memcpy(h, &acc, 16);
		return ((h[0] | h[1]) & HIGHS) != 0;
	}
	if (n >= 8) {
		uint64_t a = load8((const unsigned char *)s), b = load8((const unsigned char *)s + n - 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
		return ((a | b) & HIGHS) != 0;
	}
	copy_short(d, s, n);
	return has_bad(d, n, 0);
}

/* MEGACO_ERR_BAD_CHARACTER at the first byte of t that has_bad() finds. */
static __attribute__((cold, noinline)) int bad_byte(text_parse *px, const text_tok *t, int eol,
                                                    const char *what)
{
	const unsigned char *s = px->in + t->off;
	uint32_t i = 0;
	while (s[i] < 0x80 && !(eol && (s[i] == '\r' || s[i] == '\n')))
		i++;
	return tb_fail(px, MEGACO_ERR_BAD_CHARACTER, t->off + i, "byte 0x%02X in %s", s[i], what);
}

/* A VALUE or quotedString token's bytes are allowed in the message's version. */
#define VALUE_CHARS(px, t)                                                                     \
	((px)->version == 1 && has_bad((px)->in + (t)->off, (t)->len, 1)                            \
	     ? bad_byte(px, t, 1, "a version 1 value (RFC 3525 VALUE, quotedString)")               \
	     : 0)

static int is_lwsp(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int syntax(text_parse *px, const text_tok *t, const char *what)
{
	return tb_fail(px, MEGACO_ERR_SYNTAX, t->off, "found '%.*s' where %s was expected",
	               (int)(t->len > 40 ? 40 : t->len), TXT(px, t), what);
}

/* ---- numbers --------------------------------------------------------------- */

static int parse_uint_slow(text_parse *px, const char *s, size_t n, size_t off, unsigned long max,
                           unsigned long *out)
{
	if (n == 0)
		return tb_fail(px, MEGACO_ERR_SYNTAX, off, "a number was expected");
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return tb_fail(px, MEGACO_ERR_SYNTAX, off, "found '%.*s' where a number was expected",
			               (int)(n > 40 ? 40 : n), s);
		if (v > (max - (unsigned long)(s[i] - '0')) / 10)
			return tb_fail(px, MEGACO_ERR_NUMBER_RANGE, off, "number '%.*s' is larger than %lu",
			               (int)(n > 40 ? 40 : n), s, max);
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * Up to 9 digits cannot overflow and need no check per digit: the common
 * case. Anything else (longer, not all digits, over max) goes the careful
 * way, which also reports the error exactly as before.
 */
static inline int parse_uint(text_parse *px, const char *s, size_t n, size_t off, unsigned long max,
                             unsigned long *out)
{
	if (n - 1 < 9) {
		unsigned long v = 0;
		size_t i = 0;
		unsigned d;
		while ((d = (unsigned)(unsigned char)s[i] - '0') <= 9) {
			v = v * 10 + d;
			if (++i == n) {
				if (v > max)
					break;
				*out = v;
				return 0;
			}
		}
	}
	return parse_uint_slow(px, s, n, off, max, out);
}

int tb_uint(text_parse *px, const text_tok *t, unsigned long max, long *out)
{
	unsigned long v;
	if (parse_uint(px, TXT(px, t), t->len, t->off, max, &v))
		return -1;
	*out = (long)v;
	return 0;
}

int tb_version_num(text_parse *px, const text_tok *t, long *out)
{
	if (t->len > 2)
		return syntax(px, t, "a Version of one or two digits");
	return tb_uint(px, t, 99, out);
}

int tb_request_id(text_parse *px, const text_tok *t, long *out)
{
	if (t->len == 1 && TXT(px, t)[0] == '*') {
		*out = (long)4294967295u;
		return 0;
	}
	return tb_uint(px, t, 4294967295u, out);
}

static inline int ci_eq(const char *a, size_t n, const char *b)
{
	if (strlen(b) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = a[i];
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 32);
		if (c != b[i])
			return 0;
	}
	return 1;
}

int tb_on_off(text_parse *px, const text_tok *t, long *out)
{
	int on = ci_eq(TXT(px, t), t->len, "ON");
	if (!on && !ci_eq(TXT(px, t), t->len, "OFF"))
		return syntax(px, t, "ON or OFF");
	*out = on;
	return 0;
}

int tb_buffer_off(text_parse *px, const text_tok *t)
{
	return ci_eq(TXT(px, t), t->len, "OFF") ? 0 : syntax(px, t, "OFF or LockStep");
}

/* A new value of an OPTIONAL INTEGER, ENUMERATED, BOOLEAN or NULL member. */
#define NEW_VALUE(fn, T)                                                                       \
	CARVE_INLINE T *fn(text_parse *px, T v)                                                    \
	{                                                                                          \
		T *p = NEW(px, T);                                                                     \
		if (p)                                                                                 \
			*p = v;                                                                            \
		return p;                                                                              \
	}
NEW_VALUE(new_long, long)
NEW_VALUE(new_ulong, unsigned long)
NEW_VALUE(new_int, int)

/* ---- lists ------------------------------------------------------------------- */

/* A list holding item, and room for 3 more: one piece for both. */
static tb_list *list_first(text_parse *px, void *item)
{
	enum { HEAD = CARVE_ROUND(sizeof(tb_list)) };
	unsigned char *p = item ? carve(px, HEAD + ARRAY_BYTES(4)) : NULL;
	if (!p)
		return tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory"), NULL;
	arena_zero(p, HEAD);
	tb_list *l = (tb_list *)(void *)p;
	l->list.array = init_array(p + HEAD, 4);
	l->list.size = 4;
	l->list.count = 1;
	l->list.array[0] = item;
	return l;
}

/* item added to l, or to a new list when l is NULL; NULL when out of memory. */
static inline tb_list *push(text_parse *px, tb_list *l, void *item)
{
	if (!l)
		return list_first(px, item);
	return add(px, &l->list, item) ? NULL : l;
}

tb_list *tb_list_new(text_parse *px, void *first)
{
	return first ? list_first(px, first) : NEW(px, tb_list);
}

/*
 * A new node of type T, an ASN.1 list (A_SEQUENCE_OF first), holding l's
 * items (none for NULL).
 */
#define NEW_LIST(px, T, l) ((T *)list_node(px, sizeof(T), l))
CARVE_INLINE void *list_node(text_parse *px, size_t n, const tb_list *l)
{
	void *p = tb_new(px, n);
	if (p && l)
		memcpy(p, &l->list, sizeof l->list);
	return p;
}

int tb_list_add(text_parse *px, tb_list *l, void *item)
{
	return add(px, &l->list, item);
}

int tb_item_push(text_parse *px, tb_list *l, const text_item *it)
{
	text_item *c = NEW(px, text_item);
	if (!c)
		return -1;
	*c = *it;
	return add(px, &l->list, c);
}

/* ---- message, transactions ------------------------------------------------ */

static int hex_digit(char c)
{
	return (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
	       : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

static int hex_octets(text_parse *px, const text_tok *t, size_t min, size_t max, OCTET_STRING_t *os)
{
	const char *s = TXT(px, t);
	if (t->len < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (t->len - 2) % 2 ||
	    (t->len - 2) / 2 < min || (t->len - 2) / 2 > max)
		return syntax(px, t, "0x and hex digits");
	size_t n = (t->len - 2) / 2;
	uint8_t *b = tb_new(px, n + 1);
	if (!b)
		return -1;
	for (size_t i = 0; i < n * 2; i++) {
		int v = hex_digit(s[2 + i]);
		if (v < 0)
			return syntax(px, t, "hex digits");
		b[i / 2] = (uint8_t)(b[i / 2] << 4 | v);
	}
	os->buf = b;
	os->size = n;
	return 0;
}

int tb_auth_header(text_parse *px, const text_tok *spi, const text_tok *seq, const text_tok *ad)
{
	AuthenticationHeader_t *h = NEW(px, AuthenticationHeader_t);
	if (!h || hex_octets(px, spi, 4, 4, &h->secParmIndex) || hex_octets(px, seq, 4, 4, &h->seqNum) ||
	    hex_octets(px, ad, 12, 32, &h->ad))
		return -1;
	px->msg->model->authHeader = h;
	return 0;
}

/* The forms of an mId (and of a ServiceChangeAddress, which adds a bare port). */
enum { MID_IP4 = 1, MID_IP6, MID_DOMAIN, MID_DEVICE, MID_MTP, MID_PORT };

typedef struct mid_parts {
	int kind;
	uint8_t addr[16];
	size_t addr_len;
	const char *name;
	size_t name_len;
	long port;
	int has_port;
} mid_parts;

static int parse_port(text_parse *px, const char *s, size_t n, size_t off, mid_parts *m)
{
	unsigned long v;
	if (parse_uint(px, s, n, off, 65535, &v))
		return -1;
	m->port = (long)v;
	m->has_port = 1;
	return 0;
}

/*
 * The usual mId, [a.b.c.d] (then nothing or :port), in one pass from just
 * after the '[': the closing ']', or NULL to take the general path. Digits
 * and dots up to the ']' leave that path nothing to reject, so it would find
 * the same bytes. checked: bounds-check the reads (0: the caller knows
 * [p, p + 16) is in the token, the most a valid address reads).
 */
CARVE_INLINE const unsigned char *dotted_quad(const unsigned char *p, const unsigned char *e,
                                              int checked, uint8_t addr[4])
{
	for (int i = 0; i < 4; i++) {
		/* 1 to 3 digits and the separator */
		unsigned v, d;
		if ((checked && e - p < 2) || (v = (unsigned)p[0] - '0') > 9)
			return NULL;
		if ((d = (unsigned)p[1] - '0') <= 9) {
			v = v * 10 + d;
			if (checked && e - p < 3)
				return NULL;
			if ((d = (unsigned)p[2] - '0') <= 9) {
				v = v * 10 + d;
				if (checked && e - p < 4)
					return NULL;
				p++;
			}
			p++;
		}
		p++;
		if (v > 255 || *p != (i < 3 ? '.' : ']'))
			return NULL;
		addr[i] = (uint8_t)v;
		p++;
	}
	return p - 1;
}

static int parse_mid(text_parse *px, const text_tok *t, int allow_port, mid_parts *m)
{
	const char *s = TXT(px, t);
	size_t n = t->len;
	memset(m, 0, sizeof *m);
	if (s[0] == '[' || s[0] == '<') {
		const char *close = NULL;
		if (s[0] == '[') {
			close = (const char *)dotted_quad((const unsigned char *)s + 1,
			                                  (const unsigned char *)s + n, 1, m->addr);
			if (close) {
				m->kind = MID_IP4;
				m->addr_len = 4;
			}
		}
		if (!close)
			close = memchr(s, s[0] == '[' ? ']' : '>', n);
		if (!close)
			return syntax(px, t, "an mId");
		size_t in_len = (size_t)(close - s) - 1;
		size_t rest = n - (size_t)(close - s) - 1;
		if (rest) {
			if (close[1] != ':' || parse_port(px, close + 2, rest - 1, t->off, m))
				return rest && close[1] != ':' ? syntax(px, t, "an mId") : -1;
		}
		if (s[0] == '<') {
			m->kind = MID_DOMAIN;
			m->name = s + 1;
			m->name_len = in_len;
			if (!text_domain_name_ok((const uint8_t *)s + 1, in_len))
				return syntax(px, t, "a domain name (domainName: 1 to 64 letters, digits, '-' and '.')");
			return 0;
		}
		if (m->kind == MID_IP4)
			return 0;
		char buf[64];
		if (in_len == 0 || in_len >= sizeof buf)
			return syntax(px, t, "an IP address");
		const char *in = s + 1;
		/* dotted_quad() takes every IPv4 address: without a ':' this is none. */
		if (!memchr(in, ':', in_len))
			return syntax(px, t, "an IPv4 address");
		memcpy(buf, in, in_len);
		buf[in_len] = 0;
		m->kind = MID_IP6;
		m->addr_len = 16;
		if (inet_pton(AF_INET6, buf, m->addr) != 1)
			return syntax(px, t, "an IPv6 address");
		return 0;
	}
	if (n > 4 && ci_eq(s, 4, "MTP{")) {
		text_tok hex = {t->off + 4, t->len - 5, -1, 0};
		size_t hn = hex.len;
		if (hn < 4 || hn > 8)
			return syntax(px, t, "an MTP address of 4 to 8 hex digits");
		/* Odd digit counts are padded with a leading zero. */
		uint8_t v[4] = {0};
		size_t bytes = (hn + 1) / 2;
		for (size_t i = 0; i < hn; i++) {
			int d = hex_digit(s[4 + i]);
			if (d < 0)
				return syntax(px, &hex, "hex digits");
			size_t pos = i + (hn % 2);
			v[pos / 2] = (uint8_t)(v[pos / 2] | (pos % 2 ? d : d << 4));
		}
		m->kind = MID_MTP;
		memcpy(m->addr, v, bytes);
		m->addr_len = bytes;
		return 0;
	}
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == n) {
		if (!allow_port)
			return syntax(px, t, "an mId");
		m->kind = MID_PORT;
		return parse_port(px, s, n, t->off, m);
	}
	if (n > 64)
		return syntax(px, t, "a device name of at most 64 characters");
	/* pathNAME = ["*"] NAME ..., NAME = ALPHA ...: the scanner also takes a digit there. */
	size_t a = s[0] == '*';
	if (a >= n || (unsigned)((s[a] | 0x20) - 'a') > 'z' - 'a')
		return syntax(px, t, "a device name (pathNAME: a letter after an optional '*')");
	m->kind = MID_DEVICE;
	m->name = s;
	m->name_len = n;
	return 0;
}

/* MId and ServiceChangeAddress share the alternatives' types, not their tags. */
static inline int fill_mid(text_parse *px, const mid_parts *m, IP4Address_t *ip4,
                           IP6Address_t *ip6, DomainName_t *dn, PathName_t *dev,
                           OCTET_STRING_t *mtp)
{
	switch (m->kind) {
	case MID_IP4:
		if (m->has_port && !(ip4->portNumber = new_long(px, m->port)))
			return -1;
		return set_os(px, &ip4->address, (const char *)m->addr, 4);
	case MID_IP6:
		if (m->has_port && !(ip6->portNumber = new_long(px, m->port)))
			return -1;
		return set_os(px, &ip6->address, (const char *)m->addr, 16);
	case MID_DOMAIN:
		if (m->has_port && !(dn->portNumber = new_long(px, m->port)))
			return -1;
		return set_os(px, &dn->name, m->name, m->name_len);
	case MID_DEVICE:
		return set_os(px, dev, m->name, m->name_len);
	default:
		return set_os(px, mtp, (const char *)m->addr, m->addr_len);
	}
}

/* Fills *id (zeroed) from the mId token. */
static int set_mid(text_parse *px, const text_tok *t, MId_t *id)
{
	const char *s = TXT(px, t);
	if (s[0] == '[') {
		/*
		 * The usual mId, [a.b.c.d] and maybe :port, straight into the model
		 * (no mid_parts to fill and read back). What parse_mid() would reject
		 * or read otherwise goes its way.
		 */
		const unsigned char *p = (const unsigned char *)s + 1;
		const unsigned char *e = (const unsigned char *)s + t->len;
		uint8_t addr[4];
		const char *close = (const char *)(t->len >= 17 ? dotted_quad(p, e, 0, addr)
		                                                : dotted_quad(p, e, 1, addr));
		size_t rest = close ? t->len - (size_t)(close - s) - 1 : 0;
		if (close && (!rest || close[1] == ':')) {
			IP4Address_t *ip4 = &id->choice.ip4Address;
			unsigned long port;
			unsigned char *b; /* the port, then the address's bytes: one piece */
			id->present = MId_PR_ip4Address;
			if ((rest && parse_uint(px, close + 2, rest - 1, t->off, 65535, &port)) ||
			    !(b = carve(px, 16 + 5)))
				return -1;
			if (rest)
				*(ip4->portNumber = (long *)(void *)b) = (long)port;
			memcpy(b + 16, addr, 4);
			b[20] = 0;
			ip4->address.buf = b + 16;
			ip4->address.size = 4;
			return 0;
		}
	}
	mid_parts m;
	if (parse_mid(px, t, 0, &m))
		return -1;
	static const MId_PR pr[] = {0, MId_PR_ip4Address, MId_PR_ip6Address, MId_PR_domainName,
	                            MId_PR_deviceName, MId_PR_mtpAddress};
	id->present = pr[m.kind];
	return fill_mid(px, &m, &id->choice.ip4Address, &id->choice.ip6Address, &id->choice.domainName,
	                &id->choice.deviceName, &id->choice.mtpAddress);
}

static MId_t *build_mid(text_parse *px, const text_tok *t)
{
	MId_t *id = NEW(px, MId_t);
	return id && !set_mid(px, t, id) ? id : NULL;
}

static ServiceChangeAddress_t *build_sc_address(text_parse *px, const text_tok *t)
{
	mid_parts m;
	ServiceChangeAddress_t *a = NEW(px, ServiceChangeAddress_t);
	if (!a || parse_mid(px, t, 1, &m))
		return NULL;
	if (m.kind == MID_PORT) {
		a->present = ServiceChangeAddress_PR_portNumber;
		a->choice.portNumber = m.port;
		return a;
	}
	static const ServiceChangeAddress_PR pr[] = {
		0, ServiceChangeAddress_PR_ip4Address, ServiceChangeAddress_PR_ip6Address,
		ServiceChangeAddress_PR_domainName, ServiceChangeAddress_PR_deviceName,
		ServiceChangeAddress_PR_mtpAddress};
	a->present = pr[m.kind];
	if (fill_mid(px, &m, &a->choice.ip4Address, &a->choice.ip6Address, &a->choice.domainName,
	             &a->choice.deviceName, &a->choice.mtpAddress))
		return NULL;
	return a;
}

int tb_version(text_parse *px, const text_tok *version)
{
	const char *s = TXT(px, version);
	/* The scanner's VERSION token starts MEGACO/ or !/ (grammar/megaco.l). */
	size_t at = s[0] == '!' ? 1 : 6;
	size_t vlen = at < version->len ? version->len - at - 1 : 0;
	const char *slash = s + at;
	unsigned long v;
	if (vlen == 0 || vlen > 2)
		return tb_fail(px, vlen ? MEGACO_ERR_VERSION : MEGACO_ERR_SYNTAX, version->off,
		               "bad protocol version '%.*s'", (int)version->len, s);
	if (parse_uint(px, slash + 1, vlen, version->off, 99, &v))
		return -1;
	if (v < 1 || v > 3)
		return tb_fail(px, MEGACO_ERR_VERSION, version->off,
		               "protocol version %lu is not supported (1..3)", v);
	px->msg->model->mess.version = (long)v;
	px->version = (int)v;
	return 0;
}

/* body: the model's own, built there by tb_body_*. */
int tb_message(text_parse *px, const text_tok *mid, void *body)
{
	(void)body;
	return set_mid(px, mid, &px->msg->model->mess.mId); /* straight into the (zeroed) model */
}

/* The message body, straight into the (zeroed) model: no node to copy from. */
void *tb_body_error(text_parse *px, void *err)
{
	struct Message__messageBody *b = &px->msg->model->mess.messageBody;
	b->present = Message__messageBody_PR_messageError;
	b->choice.messageError = *(ErrorDescriptor_t *)err;
	return b;
}

void *tb_body_transactions(text_parse *px, tb_list *transactions)
{
	struct Message__messageBody *b = &px->msg->model->mess.messageBody;
	b->present = Message__messageBody_PR_transactions;
	LIST_INTO(b->choice.transactions.list, transactions);
	return b;
}

static int parse_segment(text_parse *px, const text_tok *t, unsigned long *id, long **seg,
                         int **complete, int need_seg)
{
	const char *s = TXT(px, t);
	if (!need_seg) {
		/* Mostly a plain id: digits only. A '/' (or anything else) stops the
		 * loop, and then the token goes the general way below. */
		unsigned long v = 0;
		unsigned d;
		size_t i = 0;
		while (i < t->len && i < 9 && (d = (unsigned)(unsigned char)s[i] - '0') <= 9) {
			v = v * 10 + d;
			i++;
		}
		if (i == t->len && i > 0) {
			*id = v;
			return 0;
		}
	}
	text_tok p[3]; /* id[/segment[/END]] */
	int n = 0;
	for (uint32_t i = 0, start = 0; i <= t->len; i++) {
		if (i < t->len && s[i] != '/')
			continue;
		if (n == 3)
			return syntax(px, t, "id[/segment[/END]]");
		p[n++] = (text_tok){t->off + start, i - start, -1, 0};
		start = i + 1;
	}
	if (parse_uint(px, TXT(px, &p[0]), p[0].len, p[0].off, 4294967295u, id))
		return -1;
	if (need_seg && n < 2)
		return syntax(px, t, "transaction/segment");
	if (n >= 2) {
		unsigned long sn;
		if (GATE(px, p[1].off, MEGACO_SINCE_TransactionReply_segmentNumber, "a segment number") ||
		    parse_uint(px, TXT(px, &p[1]), p[1].len, p[1].off, 65535, &sn) ||
		    !(*seg = new_long(px, (long)sn)))
			return -1;
	}
	if (n == 3) {
		if (text_keyword_lookup(TXT(px, &p[2]), p[2].len) != TEXT_KW_SEGMENTATION_COMPLETE)
			return syntax(px, &p[2], "END");
		if (!(*complete = new_int(px, 0)))
			return -1;
	}
	return 0;
}

static void *new_transaction(text_parse *px, Transaction_PR pr)
{
	Transaction_t *t = NEW(px, Transaction_t);
	if (t)
		t->present = pr;
	return t;
}

void *tb_trans_request(text_parse *px, const text_tok *id, tb_list *actions)
{
	Transaction_t *t = new_transaction(px, Transaction_PR_transactionRequest);
	if (!t || tb_uint(px, id, 4294967295u, (long *)&t->choice.transactionRequest.transactionId))
		return NULL;
	LIST_INTO(t->choice.transactionRequest.actions.list, actions);
	return t;
}

void *tb_reply_result(text_parse *px, int imm_ack, void *err, tb_list *replies)
{
	TransactionReply_t *r = NEW(px, TransactionReply_t);
	if (!r || (imm_ack && !(r->immAckRequired = new_int(px, 0))))
		return NULL;
	if (err) {
		r->transactionResult.present = TransactionReply__transactionResult_PR_transactionError;
		r->transactionResult.choice.transactionError = *(ErrorDescriptor_t *)err;
	} else {
		r->transactionResult.present = TransactionReply__transactionResult_PR_actionReplies;
		LIST_INTO(r->transactionResult.choice.actionReplies.list, replies);
	}
	return r;
}

void *tb_trans_reply(text_parse *px, const text_tok *id, void *result)
{
	Transaction_t *t = new_transaction(px, Transaction_PR_transactionReply);
	if (!t)
		return NULL;
	TransactionReply_t *r = &t->choice.transactionReply;
	*r = *(TransactionReply_t *)result;
	if (parse_segment(px, id, &r->transactionId, &r->segmentNumber, &r->segmentationComplete, 0))
		return NULL;
	return t;
}

void *tb_trans_pending(text_parse *px, const text_tok *id)
{
	Transaction_t *t = new_transaction(px, Transaction_PR_transactionPending);
	if (!t || tb_uint(px, id, 4294967295u, (long *)&t->choice.transactionPending.transactionId))
		return NULL;
	return t;
}

void *tb_trans_ack(text_parse *px, tb_list *acks)
{
	Transaction_t *t = new_transaction(px, Transaction_PR_transactionResponseAck);
	if (t)
		LIST_INTO(t->choice.transactionResponseAck.list, acks);
	return t;
}

void *tb_segment_reply(text_parse *px, const text_tok *id)
{
	if (GATE(px, id->off, MEGACO_SINCE_Transaction_segmentReply, "a segment reply"))
		return NULL;
	Transaction_t *t = new_transaction(px, Transaction_PR_segmentReply);
	if (!t)
		return NULL;
	SegmentReply_t *r = &t->choice.segmentReply;
	long *seg = NULL;
	if (parse_segment(px, id, &r->transactionId, &seg, &r->segmentationComplete, 1))
		return NULL;
	r->segmentNumber = *seg;
	return t;
}

tb_list *tb_ack_list(text_parse *px, tb_list *l, const text_tok *t)
{
	TransactionAck_t *a = NEW(px, TransactionAck_t);
	if (!a)
		return NULL;
	const char *s = TXT(px, t);
	size_t n1 = 0; /* first[-last]: a few digits, no call for memchr */
	while (n1 < t->len && s[n1] != '-')
		n1++;
	if (parse_uint(px, s, n1, t->off, 4294967295u, &a->firstAck))
		return NULL;
	if (n1 < t->len) {
		unsigned long last;
		if (parse_uint(px, s + n1 + 1, t->len - n1 - 1, t->off, 4294967295u, &last) ||
		    !(a->lastAck = new_ulong(px, last)))
			return NULL;
	}
	return push(px, l, a);
}

/* ---- actions and context properties ------------------------------------------ */

static __attribute__((cold, noinline)) int reserved_ctx(text_parse *px, const text_tok *t,
                                                         unsigned long v)
{
	return tb_fail(px, MEGACO_ERR_NUMBER_RANGE, t->off,
	               "context ID %lu is reserved: the %s context is written '%s'", v,
	               v == 0 ? "NULL" : v == 4294967294u ? "CHOOSE" : "ALL",
	               v == 0 ? "-" : v == 4294967294u ? "$" : "*");
}

static int ctx_id(text_parse *px, const text_tok *t, ContextID_t *out)
{
	if (t->len == 1) {
		switch (TXT(px, t)[0]) {
		case '$': *out = 4294967294u; return 0;
		case '*': *out = 4294967295u; return 0;
		case '-': *out = 0; return 0;
		default: break;
		}
	}
	if (parse_uint(px, TXT(px, t), t->len, t->off, 4294967295u, out))
		return -1;
	/*
	 * 0, 0xFFFFFFFE and 0xFFFFFFFF are the NULL, CHOOSE and ALL contexts,
	 * whose text is '-', '$' and '*' (grammar/README.md, "Reserved context
	 * IDs"): as numbers they are refused, not taken as those contexts.
	 */
	if (*out - 1 >= 4294967293u)
		return reserved_ctx(px, t, *out);
	return 0;
}

tb_list *tb_ctxid_list(text_parse *px, tb_list *l, const text_tok *t)
{
	ContextID_t *id = NEW(px, ContextID_t);
	if (!id || ctx_id(px, t, id))
		return NULL;
	return push(px, l, id);
}

#define TID_WHAT "a termination ID (pathNAME is ASCII)"

/* A termination ID's token longer than a pathNAME's 64 bytes: its error (a byte's first). */
static __attribute__((cold, noinline)) int tid_too_long(text_parse *px, const text_tok *t)
{
	if (has_bad(px->in + t->off, t->len, 0))
		return bad_byte(px, t, 0, TID_WHAT);
	return tb_fail(px, MEGACO_ERR_SYNTAX, t->off,
	               "a termination ID of %u characters: a pathNAME has at most 64", t->len);
}

/* tid's ID (zeroed before) from its token, its bytes (t->len + 1, len <= 64) at b. */
CARVE_INLINE int fill_term_id(text_parse *px, const text_tok *t, TerminationID_t *tid,
                              unsigned char *b)
{
	size_t n = t->len;
	if (copy_ascii(b, TXT(px, t), n))
		return bad_byte(px, t, 0, TID_WHAT);
	b[n] = 0;
	/* ROOT is stored upper case, whatever the spelling (docs/model.md). */
	if (ci_eq((const char *)b, n, "ROOT"))
		memcpy(b, "ROOT", 4);
	tid->id.buf = b;
	tid->id.size = (int)n;
	return 0;
}

/* Fills a zeroed TerminationID_t from its token. */
CARVE_INLINE int set_term_id(text_parse *px, const text_tok *t, TerminationID_t *tid)
{
	unsigned char *b;
	if (t->len > 64)
		return tid_too_long(px, t);
	if (!(b = carve(px, t->len + 1)))
		return -1;
	return fill_term_id(px, t, tid, b);
}

/* A new TerminationID_t and its ID's bytes: one piece. */
static TerminationID_t *term_id(text_parse *px, const text_tok *t)
{
	enum { NODE = CARVE_ROUND(sizeof(TerminationID_t)) };
	unsigned char *p;
	if (t->len > 64)
		return tid_too_long(px, t), NULL;
	if (!(p = carve(px, NODE + t->len + 1)))
		return NULL;
	arena_zero(p, NODE);
	TerminationID_t *tid = (TerminationID_t *)(void *)p;
	return fill_term_id(px, t, tid, p + NODE) ? NULL : tid;
}

/* The bracket gate covers the ASN.1 lists that brackets fill (audits of several IDs). */
_Static_assert(MEGACO_SINCE_AuditRequest_terminationIDList <= TEXT_SINCE_TID_LIST &&
               MEGACO_SINCE_AuditReply_auditResultTermList <= TEXT_SINCE_TID_LIST,
               "an ID list in brackets is allowed where its ASN.1 list is");

/* termIDList's brackets are v3's: v1 and v2 have one TerminationID per command. */
int tb_tid_brackets(text_parse *px, const text_tok *lsb)
{
	return GATE(px, lsb->off, TEXT_SINCE_TID_LIST, "a termination ID list in brackets");
}

tb_list *tb_tid_list(text_parse *px, tb_list *l, const text_tok *t)
{
	TerminationID_t *tid = term_id(px, t);
	return tid ? push(px, l, tid) : NULL;
}

static int ctx_prop(text_parse *px, ContextRequest_t **crp, const text_item *it)
{
	ContextRequest_t *cr = *crp;
	if (!cr && !(cr = *crp = NEW(px, ContextRequest_t)))
		return -1;
	static const char *const where = "a context's properties";
	switch (it->kind) {
	case TI_TOPOLOGY:
		return ONCE(cr->topologyReq, "Topology",
		            NEW_LIST(px, struct ContextRequest__topologyReq, it->p));
	case TI_PRIORITY:
		return ONCE(cr->priority, "Priority", new_long(px, it->n));
	case TI_EMERGENCY:
		if (!cr->emergency && !it->n && GATE(px, it->off, TEXT_SINCE_EMERGENCY_OFF, "EmergencyOff"))
			return -1;
		return ONCE(cr->emergency, "Emergency or EmergencyOff", new_int(px, (int)it->n));
	case TI_IEPS:
		return SINCE_ONCE(cr->iepscallind, "IEPSCall", MEGACO_SINCE_ContextRequest_iepscallind,
		                  new_int(px, (int)it->n));
	/*
	 * A ContextAttr holds properties or a ContextList, never both, and the
	 * model may have both: one of each is taken (Erlang megaco writes that,
	 * corpus msg71b22), two of a kind are not.
	 */
	case TI_CTX_PROPS:
		return SINCE_ONCE(cr->contextProp, "ContextAttr", MEGACO_SINCE_ContextRequest_contextProp,
		                  NEW_LIST(px, struct ContextRequest__contextProp, it->p));
	default: /* TI_CTX_LIST */
		if (!cr->contextList &&
		    GATE(px, it->off, MEGACO_SINCE_ContextRequest_contextList, "ContextAttr's ContextList"))
			return -1;
		return ONCE(cr->contextList, "ContextAttr",
		            NEW_LIST(px, struct ContextRequest__contextList, it->p));
	}
}

void *tb_action_request(text_parse *px)
{
	return NEW(px, ActionRequest_t);
}

int tb_action_request_add(text_parse *px, void *p, const text_item *it)
{
	ActionRequest_t *ar = p;
	switch (it->kind) {
	case TI_COMMAND:
		return add(px, &ar->commandRequests.list, it->p);
	case TI_CTX_AUDIT: {
		static const char *const where = "a context request";
		return ONCE(ar->contextAttrAuditReq, "ContextAudit", it->p);
	}
	default:
		return ctx_prop(px, &ar->contextRequest, it);
	}
}

int tb_action_request_cmd(text_parse *px, void *p, void *cmd)
{
	return add(px, &((ActionRequest_t *)p)->commandRequests.list, cmd);
}

int tb_action_request_id(text_parse *px, void *p, const text_tok *id)
{
	return ctx_id(px, id, &((ActionRequest_t *)p)->contextId);
}

void *tb_action_reply(text_parse *px)
{
	return NEW(px, ActionReply_t);
}

int tb_action_reply_error(text_parse *px, void *p, void *err, size_t off)
{
	ActionReply_t *ar = p;
	if (ar->errorDescriptor)
		return tb_twice(px, off, "Error", "a context reply");
	ar->errorDescriptor = err;
	return 0;
}

int tb_action_reply_add(text_parse *px, void *p, const text_item *it)
{
	ActionReply_t *ar = p;
	switch (it->kind) {
	case TI_COMMAND:
		return add(px, &ar->commandReply.list, it->p);
	case TI_ERROR:
		return tb_action_reply_error(px, ar, it->p, it->off);
	default:
		return ctx_prop(px, &ar->contextReply, it);
	}
}

int tb_action_reply_cmd(text_parse *px, void *p, void *cmd)
{
	return add(px, &((ActionReply_t *)p)->commandReply.list, cmd);
}

static int tb_action_reply_id(text_parse *px, void *p, const text_tok *id)
{
	return ctx_id(px, id, &((ActionReply_t *)p)->contextId);
}

/*
 * Context = id [{ ... }]: ar is the body's reply, NULL for none, which only
 * the v3 ABNF allows (actionReply's braces are optional there; v1 and v2
 * want an error descriptor or a command reply in them).
 */
#define SINCE_REPLY_WITHOUT_BRACES 3 /* text only: no element of the ASN.1 modules */

void *tb_action_reply_ctx(text_parse *px, void *ar, const text_tok *id)
{
	if (!ar && GATE(px, id->off, SINCE_REPLY_WITHOUT_BRACES, "a context reply without braces"))
		return NULL;
	if (!ar && !(ar = tb_action_reply(px)))
		return NULL;
	return tb_action_reply_id(px, ar, id) ? NULL : ar;
}

void *tb_ind_prop(text_parse *px, const text_tok *name, void *prop)
{
	IndAudPropertyParm_t *ip = NEW(px, IndAudPropertyParm_t);
	if (!ip)
		return NULL;
	if (name)
		return set_tok(px, &ip->name, name) ? NULL : ip;
	PropertyParm_t *pp = prop;
	ip->name = pp->name;
	ip->propertyParms = pp;
	return ip;
}

/*
 * "p/n, p/n=v" in an audit is one IndAudPropertyParm: the name being audited
 * and the value it is audited for (Erlang megaco reads it so, and its BER
 * shows it). A property with no bare name before it stands on its own.
 */
static int ind_prop_add(text_parse *px, void *list, IndAudPropertyParm_t *ip)
{
	A_SEQUENCE_OF(IndAudPropertyParm_t) *l = list;
	IndAudPropertyParm_t *last = l->count ? l->array[l->count - 1] : NULL;
	if (ip->propertyParms && last && !last->propertyParms && last->name.size == ip->name.size &&
	    memcmp(last->name.buf, ip->name.buf, ip->name.size) == 0) {
		last->propertyParms = ip->propertyParms;
		return 0;
	}
	return add(px, list, ip);
}

/* ind_prop_add() to the OPTIONAL list node `node`, made on the first. */
#define IND_PROP_ADD(px, node, ip)                                                             \
	(!(node) && !((node) = tb_new(px, sizeof *(node))) ? -1 : ind_prop_add(px, &(node)->list, ip))

void *tb_ctx_audit(text_parse *px, void *p, const text_item *it)
{
	ContextAttrAuditRequest_t *c = p;
	if (!c && !(c = NEW(px, ContextAttrAuditRequest_t)))
		return NULL;
	/* Each at most once; "PR" and "PR = 3" are different items (twice()'s eq). c or NULL. */
#define AUD_ONCE(f, what, since, val)                                                          \
	(c->f ? twice(px, it->off, -1, 1, what, "ContextAudit"), NULL                              \
	      : GATE(px, it->off, since, what) || !(c->f = (val)) ? NULL : c)
	switch (it->kind) {
	case TI_A_TOPOLOGY:
		return AUD_ONCE(topology, "Topology", 1, new_int(px, 0));
	case TI_A_EMERGENCY:
		return AUD_ONCE(emergency, "Emergency", 1, new_int(px, 0));
	case TI_A_PRIORITY:
		return AUD_ONCE(priority, "Priority", 1, new_int(px, 0));
	case TI_A_IEPS:
		return AUD_ONCE(iepscallind, "IEPSCall", MEGACO_SINCE_ContextAttrAuditRequest_iepscallind,
		                new_int(px, 0));
	case TI_A_SEL_PRIORITY:
		return AUD_ONCE(selectpriority, "Priority = value",
		                MEGACO_SINCE_ContextAttrAuditRequest_selectpriority, new_long(px, it->n));
	case TI_A_SEL_EMERGENCY:
		return AUD_ONCE(selectemergency, "EmergencyValue",
		                MEGACO_SINCE_ContextAttrAuditRequest_selectemergency, new_int(px, (int)it->n));
	case TI_A_SEL_IEPS:
		return AUD_ONCE(selectiepscallind, "IEPSCall = value",
		                MEGACO_SINCE_ContextAttrAuditRequest_selectiepscallind, new_int(px, (int)it->n));
	case TI_A_LOGIC:
		if (!AUD_ONCE(selectLogic, "ANDLgc or ORLgc", MEGACO_SINCE_ContextAttrAuditRequest_selectLogic,
		              NEW(px, SelectLogic_t)))
			return NULL;
		c->selectLogic->present = it->n ? SelectLogic_PR_orAUDITSelect : SelectLogic_PR_andAUDITSelect;
		return c;
	case TI_A_PKGD:
	case TI_A_PROP: {
		if (GATE(px, it->off, MEGACO_SINCE_ContextAttrAuditRequest_contextPropAud,
		         "a property in ContextAudit"))
			return NULL;
		void *ip = it->kind == TI_A_PKGD ? it->p : tb_ind_prop(px, NULL, it->p);
		return ip && !IND_PROP_ADD(px, c->contextPropAud, ip) ? c : NULL;
	}
	default: { /* TI_A_NESTED */
		/* ContextAttr { ... } inside ContextAudit: same fields, merged; each at most once. */
		ContextAttrAuditRequest_t *n = it->p;
		if (GATE(px, it->off, MEGACO_SINCE_ContextAttrAuditRequest_contextPropAud, "ContextAttr"))
			return NULL;
		if ((n->topology && c->topology) || (n->emergency && c->emergency) ||
		    (n->priority && c->priority) || (n->iepscallind && c->iepscallind) ||
		    (n->selectpriority && c->selectpriority) ||
		    (n->selectemergency && c->selectemergency) ||
		    (n->selectiepscallind && c->selectiepscallind) || (n->selectLogic && c->selectLogic))
			return tb_fail(px, MEGACO_ERR_SYNTAX, it->off,
			               "ContextAttr repeats an item of its ContextAudit"), NULL;
		for (int i = 0; n->contextPropAud && i < n->contextPropAud->list.count; i++)
			if (IND_PROP_ADD(px, c->contextPropAud, n->contextPropAud->list.array[i]))
				return NULL;
#define TAKE(f) if (n->f) c->f = n->f
		TAKE(topology); TAKE(emergency); TAKE(priority); TAKE(iepscallind);
		TAKE(selectpriority); TAKE(selectemergency); TAKE(selectiepscallind); TAKE(selectLogic);
#undef TAKE
		return c;
	}
	}
#undef AUD_ONCE
}

tb_list *tb_topology(text_parse *px, tb_list *l, const text_item *it)
{
	/* Flat list: from, to, direction [, Stream = n] repeated; aux = the open triple. */
	if (!l && !(l = tb_list_new(px, NULL)))
		return NULL;
	TopologyRequest_t *tr = l->list.count ? l->list.array[l->list.count - 1] : NULL;
	switch (it->kind) {
	case TI_TOPO_TID:
		/* The terminations are built in place (the request is zeroed). */
		if (l->aux) { /* second termination of the open triple */
			tr = l->aux;
			l->aux = NULL;
			if (set_term_id(px, &it->tok, &tr->terminationTo) || add(px, &l->list, tr))
				return NULL;
			tr->topologyDirection = -1;
			return l;
		}
		if (tr && tr->topologyDirection == -1)
			break;
		if (!(tr = l->aux = NEW(px, TopologyRequest_t)) ||
		    set_term_id(px, &it->tok, &tr->terminationFrom))
			return NULL;
		return l;
	case TI_TOPO_DIR: {
		/*
		 * A direction, then optionally an extension (OnewayExternal,
		 * OnewayBoth), which may also come after the Stream: Erlang megaco
		 * writes "Oneway, Stream = 4, OnewayExternal" for a request with
		 * both, and so do we (src/text_encode.c).
		 */
		int ext = it->n == TEXT_KW_ONEWAY_EXTERNAL || it->n == TEXT_KW_ONEWAY_BOTH;
		if (l->aux || !tr || (!ext && (tr->streamID || tr->topologyDirection != -1)) ||
		    (ext && tr->topologyDirectionExtension))
			break;
		if (!ext) {
			tr->topologyDirection = text_kw_value(text_kw_topology_direction, it->n);
			return l;
		}
		if (GATE(px, it->off, MEGACO_SINCE_TopologyRequest_topologyDirectionExtension,
		         "OnewayExternal or OnewayBoth"))
			return NULL;
		if (tr->topologyDirection == -1)
			tr->topologyDirection = TopologyRequest__topologyDirection_oneway;
		tr->topologyDirectionExtension = new_long(px, text_kw_value(text_kw_topology_extension, it->n));
		return tr->topologyDirectionExtension ? l : NULL;
	}
	default: /* TI_TOPO_STREAM */
		if (l->aux || !tr || tr->topologyDirection == -1 || tr->streamID)
			break;
		if (GATE(px, it->off, MEGACO_SINCE_TopologyRequest_streamID, "a topology triple's Stream"))
			return NULL;
		return (tr->streamID = new_long(px, it->n)) ? l : NULL;
	}
	return tb_fail(px, MEGACO_ERR_SYNTAX, it->off, "topology: expected termination A, "
	               "termination B, direction [, Stream] [, OnewayExternal/OnewayBoth]"), NULL;
}

tb_list *tb_topology_tid(text_parse *px, tb_list *l, const text_tok *t)
{
	text_item it = {.kind = TI_TOPO_TID, .off = t->off, .tok = *t};
	return tb_topology(px, l, &it);
}

tb_list *tb_topology_stream(text_parse *px, tb_list *l, const text_tok *kw, const text_tok *t)
{
	text_item it = {.kind = TI_TOPO_STREAM, .off = kw->off};
	if (tb_uint(px, t, 65535, &it.n))
		return NULL;
	return tb_topology(px, l, &it);
}

int tb_topology_done(text_parse *px, tb_list *l, size_t off)
{
	TopologyRequest_t *tr = l->list.count ? l->list.array[l->list.count - 1] : NULL;
	if (l->aux || !tr || tr->topologyDirection == -1)
		return tb_fail(px, MEGACO_ERR_SYNTAX, off,
		               "topology: expected termination A, termination B, direction");
	return 0;
}

/* ---- commands -------------------------------------------------------------- */

static AuditDescriptor_t empty_audit;

/* A command request with the O-/W- flags of its keyword, or NULL. */
static CommandRequest_t *command_request(text_parse *px, const text_tok *kw)
{
	CommandRequest_t *cr = NEW(px, CommandRequest_t);
	if (!cr || ((kw->flags & TOK_OPTIONAL) && !(cr->optional = new_int(px, 0))) ||
	    ((kw->flags & TOK_WILDCARD) && !(cr->wildcardReturn = new_int(px, 0))))
		return NULL;
	return cr;
}

void *tb_command(text_parse *px, const text_tok *kw, tb_list *tids, void *body)
{
	CommandRequest_t *cr = command_request(px, kw);
	if (!cr)
		return NULL;
	Command_t *c = &cr->command;
	switch (kw->kw) {
	case TEXT_KW_ADD: case TEXT_KW_MOVE: case TEXT_KW_MODIFY: {
		AmmRequest_t *a = &c->choice.addReq; /* same type in all three */
		c->present = kw->kw == TEXT_KW_ADD ? Command_PR_addReq
		             : kw->kw == TEXT_KW_MOVE ? Command_PR_moveReq : Command_PR_modReq;
		LIST_INTO(a->terminationID.list, tids);
		LIST_INTO(a->descriptors.list, (tb_list *)body);
		return cr;
	}
	case TEXT_KW_SUBTRACT:
		c->present = Command_PR_subtractReq;
		LIST_INTO(c->choice.subtractReq.terminationID.list, tids);
		c->choice.subtractReq.auditDescriptor = body;
		return cr;
	case TEXT_KW_AUDIT_VALUE: case TEXT_KW_AUDIT_CAP: {
		AuditRequest_t *a = kw->kw == TEXT_KW_AUDIT_VALUE ? &c->choice.auditValueRequest
		                                                  : &c->choice.auditCapRequest;
		if (kw->kw == TEXT_KW_AUDIT_CAP && body && text_audits_dm_or_packages(body))
			return tb_fail(px, MEGACO_ERR_SYNTAX, kw->off,
			               "DigitMap and Packages may not be audited in AuditCapability "
			               "(auditItem)"), NULL;
		c->present = kw->kw == TEXT_KW_AUDIT_VALUE ? Command_PR_auditValueRequest
		                                           : Command_PR_auditCapRequest;
		a->terminationID = *(TerminationID_t *)tids->list.array[0];
		a->auditDescriptor = body ? *(AuditDescriptor_t *)body : empty_audit;
		/* brackets: v3 (tb_tid_brackets), as the ASN.1 list */
		if (tids->list.count > 1 && !(a->terminationIDList = NEW_LIST(px, TerminationIDList_t, tids)))
			return NULL;
		return cr;
	}
	default: { /* ServiceChange */
		sc_build *sc = body;
		if (!sc->have_method || sc->p.serviceChangeReason.list.count == 0)
			return tb_fail(px, MEGACO_ERR_SYNTAX, sc->off,
			               "a ServiceChange request needs Method and Reason"), NULL;
		c->present = Command_PR_serviceChangeReq;
		LIST_INTO(c->choice.serviceChangeReq.terminationID.list, tids);
		c->choice.serviceChangeReq.serviceChangeParms = sc->p;
		return cr;
	}
	}
}

void *tb_notify_request(text_parse *px, const text_tok *kw, tb_list *tids, void *oed, void *err)
{
	CommandRequest_t *cr = command_request(px, kw);
	if (!cr)
		return NULL;
	cr->command.present = Command_PR_notifyReq;
	NotifyRequest_t *n = &cr->command.choice.notifyReq;
	LIST_INTO(n->terminationID.list, tids);
	n->observedEventsDescriptor = *(ObservedEventsDescriptor_t *)oed;
	n->errorDescriptor = err;
	return cr;
}

#define DESC_CASES(U, T)                                                            \
	case TI_MEDIA: d->present = T##_PR_mediaDescriptor; d->choice.mediaDescriptor = *(MediaDescriptor_t *)it->p; break; \
	case TI_MODEM: d->present = T##_PR_modemDescriptor; d->choice.modemDescriptor = *(ModemDescriptor_t *)it->p; break; \
	case TI_MUX: d->present = T##_PR_muxDescriptor; d->choice.muxDescriptor = *(MuxDescriptor_t *)it->p; break; \
	case TI_EVENTS: d->present = T##_PR_eventsDescriptor; d->choice.eventsDescriptor = *(EventsDescriptor_t *)it->p; break; \
	case TI_SIGNALS: d->present = T##_PR_signalsDescriptor; LIST_INTO(d->choice.signalsDescriptor.list, (tb_list *)it->p); break; \
	case TI_DIGITMAP: d->present = T##_PR_digitMapDescriptor; d->choice.digitMapDescriptor = *(DigitMapDescriptor_t *)it->p; break; \
	case TI_EVENTBUFFER: d->present = T##_PR_eventBufferDescriptor; LIST_INTO(d->choice.eventBufferDescriptor.list, (tb_list *)it->p); break; \
	case TI_STATS: d->present = T##_PR_statisticsDescriptor; LIST_INTO(d->choice.statisticsDescriptor.list, (tb_list *)it->p); break;

/*
 * The descriptor at the comma at `comma` (or the list's first, at 0): the
 * offset of its first token, for an error found after it was built.
 */
static size_t after_comma(const text_parse *px, size_t comma)
{
	size_t i = comma + 1;
	for (;;) {
		while (i < px->len && is_lwsp((char)px->in[i]))
			i++;
		if (i >= px->len || px->in[i] != ';')
			return i;
		while (i < px->len && px->in[i] != '\n' && px->in[i] != '\r')
			i++;
	}
}

/*
 * ammParameter: each descriptor at most once (l->aux holds a bit per kind
 * seen); comma: the offset of the ',' before it (0 for the first).
 */
tb_list *tb_amm_list(text_parse *px, tb_list *l, const text_item *it, size_t comma)
{
	uintptr_t bit = (uintptr_t)1 << (it->kind - TI_MEDIA), seen = l ? (uintptr_t)l->aux : 0;
	static const char *const names[] = {"Media", "Modem", "Mux", "Events", "Signals",
		"DigitMap", "EventBuffer", "Audit", "Statistics"}; /* TI_MEDIA to TI_STATS */
	if (seen & bit)
		return tb_twice(px, after_comma(px, comma), names[it->kind - TI_MEDIA],
		                "an Add, Move or Modify"), NULL;
	if (it->kind == TI_STATS && GATE(px, it->off, MEGACO_SINCE_AmmDescriptor_statisticsDescriptor,
	                                 "a Statistics descriptor in a command"))
		return NULL;
	AmmDescriptor_t *d = NEW(px, AmmDescriptor_t);
	if (!d)
		return NULL;
	switch (it->kind) {
	DESC_CASES(Amm, AmmDescriptor)
	default: /* TI_AUDIT */
		d->present = AmmDescriptor_PR_auditDescriptor;
		d->choice.auditDescriptor = *(AuditDescriptor_t *)it->p;
	}
	if (!(l = push(px, l, d)))
		return NULL;
	l->aux = (void *)(seen | bit);
	return l;
}

/* Named bit string without trailing zero bits, as BER/DER carry it. */
static int set_bit(text_parse *px, BIT_STRING_t **bsp, int bit)
{
	BIT_STRING_t *bs = *bsp;
	if (!bs && !(bs = *bsp = NEW(px, BIT_STRING_t)))
		return -1;
	int nbits = bs->size * 8 - bs->bits_unused;
	if (bit + 1 > nbits)
		nbits = bit + 1;
	int size = (nbits + 7) / 8;
	if (size > bs->size) {
		uint8_t *b = tb_new(px, (size_t)size);
		if (!b)
			return -1;
		if (bs->size)
			memcpy(b, bs->buf, (size_t)bs->size);
		bs->buf = b;
		bs->size = size;
	}
	bs->bits_unused = size * 8 - nbits;
	bs->buf[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	return 0;
}

tb_list *tb_arp_list(text_parse *px, tb_list *l, const text_item *it)
{
	if (!l && !(l = tb_list_new(px, NULL)))
		return NULL;
	if (it->kind == TI_AUDIT_TOKEN) {
		/* Bare audit tokens collect into one emptyDescriptors, appended at the end. */
		AuditDescriptor_t *ad = l->aux;
		if (!ad && !(ad = l->aux = NEW(px, AuditDescriptor_t)))
			return NULL;
		return set_bit(px, &ad->auditToken, (int)text_kw_value(text_kw_audit_token, it->n)) ? NULL : l;
	}
	AuditReturnParameter_t *d = NEW(px, AuditReturnParameter_t);
	if (!d)
		return NULL;
	switch (it->kind) {
	DESC_CASES(Arp, AuditReturnParameter)
	case TI_OBSEVENTS: d->present = AuditReturnParameter_PR_observedEventsDescriptor; d->choice.observedEventsDescriptor = *(ObservedEventsDescriptor_t *)it->p; break;
	case TI_PACKAGES: d->present = AuditReturnParameter_PR_packagesDescriptor; LIST_INTO(d->choice.packagesDescriptor.list, (tb_list *)it->p); break;
	default: /* TI_ERROR */
		d->present = AuditReturnParameter_PR_errorDescriptor;
		d->choice.errorDescriptor = *(ErrorDescriptor_t *)it->p;
	}
	return add(px, &l->list, d) ? NULL : l;
}

int tb_arp_done(text_parse *px, tb_list *l)
{
	if (!l->aux)
		return 0;
	AuditReturnParameter_t *d = NEW(px, AuditReturnParameter_t);
	if (!d)
		return -1;
	d->present = AuditReturnParameter_PR_emptyDescriptors;
	d->choice.emptyDescriptors = *(AuditDescriptor_t *)l->aux;
	l->aux = NULL;
	return add(px, &l->list, d);
}

/* A reply body that may only be one Error descriptor (Notify, ServiceChange). */
static ErrorDescriptor_t *only_error(text_parse *px, tb_list *audit, size_t off)
{
	if (audit->list.count != 1 || ((AuditReturnParameter_t *)audit->list.array[0])->present !=
	                                    AuditReturnParameter_PR_errorDescriptor)
		return tb_fail(px, MEGACO_ERR_SYNTAX, off, "only an Error descriptor may follow here"), NULL;
	return &((AuditReturnParameter_t *)audit->list.array[0])->choice.errorDescriptor;
}

void *tb_command_reply(text_parse *px, const text_tok *kw, tb_list *tids, tb_list *audit)
{
	CommandReply_t *r = NEW(px, CommandReply_t);
	if (!r)
		return NULL;
	switch (kw->kw) {
	case TEXT_KW_ADD: case TEXT_KW_MOVE: case TEXT_KW_MODIFY: case TEXT_KW_SUBTRACT: {
		r->present = kw->kw == TEXT_KW_ADD ? CommandReply_PR_addReply
		             : kw->kw == TEXT_KW_MOVE ? CommandReply_PR_moveReply
		             : kw->kw == TEXT_KW_MODIFY ? CommandReply_PR_modReply : CommandReply_PR_subtractReply;
		AmmsReply_t *a = &r->choice.addReply; /* same type in all four */
		LIST_INTO(a->terminationID.list, tids);
		if (audit && !(a->terminationAudit = NEW_LIST(px, TerminationAudit_t, audit)))
			return NULL;
		return r;
	}
	case TEXT_KW_NOTIFY:
		r->present = CommandReply_PR_notifyReply;
		LIST_INTO(r->choice.notifyReply.terminationID.list, tids);
		if (audit && !(r->choice.notifyReply.errorDescriptor = only_error(px, audit, kw->off)))
			return NULL;
		return r;
	case TEXT_KW_SERVICE_CHANGE: {
		ServiceChangeResult_t *res = &r->choice.serviceChangeReply.serviceChangeResult;
		ErrorDescriptor_t *e = audit ? only_error(px, audit, kw->off) : NULL;
		if (audit && !e)
			return NULL;
		r->present = CommandReply_PR_serviceChangeReply;
		LIST_INTO(r->choice.serviceChangeReply.terminationID.list, tids);
		res->present = e ? ServiceChangeResult_PR_errorDescriptor : ServiceChangeResult_PR_serviceChangeResParms;
		if (e)
			res->choice.errorDescriptor = *e;
		return r;
	}
	default: { /* AuditValue / AuditCapability */
		r->present = kw->kw == TEXT_KW_AUDIT_VALUE ? CommandReply_PR_auditValueReply
		                                           : CommandReply_PR_auditCapReply;
		AuditReply_t *a = &r->choice.auditValueReply;
		if (tids->list.count == 1) {
			a->present = AuditReply_PR_auditResult;
			a->choice.auditResult.terminationID = *(TerminationID_t *)tids->list.array[0];
			LIST_INTO(a->choice.auditResult.terminationAuditResult.list, audit);
		} else { /* brackets: v3 (tb_tid_brackets), as auditResultTermList */
			a->present = AuditReply_PR_auditResultTermList;
			LIST_INTO(a->choice.auditResultTermList.terminationIDList.list, tids);
			LIST_INTO(a->choice.auditResultTermList.terminationAuditResult.list, audit);
		}
		return r;
	}
	}
}

void *tb_sc_reply(text_parse *px, const text_tok *kw, tb_list *tids, void *scparm)
{
	if (kw->kw != TEXT_KW_SERVICE_CHANGE)
		return syntax(px, kw, "ServiceChange before a Services descriptor"), NULL;
	sc_build *sc = scparm;
	ServiceChangeParm_t *p = &sc->p;
	if (sc->have_method || p->serviceChangeReason.list.count || p->serviceChangeDelay ||
	    p->serviceChangeInfo || p->serviceChangeIncompleteFlag || p->nonStandardData)
		return tb_fail(px, MEGACO_ERR_SYNTAX, sc->off,
		               "a ServiceChange reply takes only address, MgcIdToTry, profile, version and time stamp"), NULL;
	CommandReply_t *r = NEW(px, CommandReply_t);
	if (!r)
		return NULL;
	r->present = CommandReply_PR_serviceChangeReply;
	ServiceChangeReply_t *s = &r->choice.serviceChangeReply;
	LIST_INTO(s->terminationID.list, tids);
	s->serviceChangeResult.present = ServiceChangeResult_PR_serviceChangeResParms;
	ServiceChangeResParm_t *rp = &s->serviceChangeResult.choice.serviceChangeResParms;
	rp->serviceChangeMgcId = p->serviceChangeMgcId;
	rp->serviceChangeAddress = p->serviceChangeAddress;
	rp->serviceChangeVersion = p->serviceChangeVersion;
	rp->serviceChangeProfile = p->serviceChangeProfile;
	rp->timestamp = p->timeStamp;
	return r;
}

void *tb_audit_ctx_reply(text_parse *px, const text_tok *kw, tb_list *tids, void *err)
{
	CommandReply_t *r = NEW(px, CommandReply_t);
	if (!r)
		return NULL;
	r->present = kw->kw == TEXT_KW_AUDIT_VALUE ? CommandReply_PR_auditValueReply
	                                           : CommandReply_PR_auditCapReply;
	AuditReply_t *a = &r->choice.auditValueReply;
	if (err) {
		a->present = AuditReply_PR_error;
		a->choice.error = *(ErrorDescriptor_t *)err;
	} else {
		a->present = AuditReply_PR_contextAuditResult;
		LIST_INTO(a->choice.contextAuditResult.list, tids);
	}
	return r;
}

void *tb_error(text_parse *px, const text_tok *code, const text_tok *text)
{
	ErrorDescriptor_t *e = NEW(px, ErrorDescriptor_t);
	if (!e || tb_uint(px, code, 65535, &e->errorCode))
		return NULL;
	if (text) {
		if (VALUE_CHARS(px, text) || !(e->errorText = NEW(px, ErrorText_t)) ||
		    set_tok(px, e->errorText, text))
			return NULL;
	}
	return e;
}

/* ---- media ------------------------------------------------------------------ */

/*
 * streamParm and indAudstreamParm: Local, Remote and LocalControl at most once
 * each, into the like-named members of a StreamParms or IndAudStreamParms
 * (the item's node is of the member's type).
 */
#define STREAM_ITEM_ONCE(sp)                                                                    \
	case TI_LOCAL: return ONCE((sp)->localDescriptor, "Local", it->p);                     \
	case TI_REMOTE: return ONCE((sp)->remoteDescriptor, "Remote", it->p);                  \
	case TI_LOCALCONTROL: return ONCE((sp)->localControlDescriptor, "LocalControl", it->p)

static int stream_parm(text_parse *px, StreamParms_t *sp, const text_item *it)
{
	static const char *const where = "a stream's parameters";
	switch (it->kind) {
	STREAM_ITEM_ONCE(sp);
	default: /* TI_STATS */
		if (!sp->statisticsDescriptor && GATE(px, it->off, MEGACO_SINCE_StreamParms_statisticsDescriptor,
		                                      "a Statistics descriptor in a stream"))
			return -1;
		return ONCE(sp->statisticsDescriptor, "Statistics",
		            NEW_LIST(px, StatisticsDescriptor_t, it->p));
	}
}

/*
 * Media and an audit's Media have the same shape: a TerminationState, and
 * stream parameters either bare (one stream) or in Stream descriptors, never
 * both. One body serves the two model types (PR: their streams' CHOICE
 * prefix; parm: the builder of one stream's parameters, and parms_fn the
 * grammar's, which makes the StreamParms on the first).
 */
#define MEDIA_BUILDER(fn, MD, PR, SD, parms_fn, SP, parm)                                      \
	void *parms_fn(text_parse *px, void *p, const text_item *it)                               \
	{                                                                                          \
		SP *sp = p;                                                                            \
		if (!sp && !(sp = NEW(px, SP)))                                                        \
			return NULL;                                                                       \
		return parm(px, sp, it) ? NULL : sp;                                                   \
	}                                                                                          \
	void *fn(text_parse *px, void *p, const text_item *it)                                     \
	{                                                                                          \
		MD *md = p;                                                                            \
		if (!md && !(md = NEW(px, MD)))                                                        \
			return NULL;                                                                       \
		if (it->kind == TI_TERMSTATE) {                                                        \
			if (md->termStateDescr)                                                            \
				return tb_twice(px, it->off, "TerminationState", "Media"), NULL;               \
			md->termStateDescr = it->p;                                                        \
			return md;                                                                         \
		}                                                                                      \
		int multi = it->kind == TI_STREAM;                                                     \
		if (!md->streams) {                                                                    \
			if (!(md->streams = tb_new(px, sizeof *md->streams)))                             \
				return NULL;                                                                   \
			md->streams->present = multi ? PR##multiStream : PR##oneStream;                    \
		} else if ((md->streams->present == PR##multiStream) != multi) {                       \
			return tb_fail(px, MEGACO_ERR_SYNTAX, it->off,                                     \
			               "stream parameters outside a Stream mixed with Stream descriptors"), \
			       NULL;                                                                       \
		}                                                                                      \
		if (!multi)                                                                            \
			return parm(px, &md->streams->choice.oneStream, it) ? NULL : md;                   \
		SD *sd = NEW(px, SD);                                                                  \
		if (!sd)                                                                               \
			return NULL;                                                                       \
		sd->streamID = it->n;                                                                  \
		sd->streamParms = *(SP *)it->p;                                                        \
		return add(px, &md->streams->choice.multiStream.list, sd) ? NULL : md;                 \
	}

MEDIA_BUILDER(tb_media, MediaDescriptor_t, MediaDescriptor__streams_PR_, StreamDescriptor_t,
              tb_stream_parms, StreamParms_t, stream_parm)

/* A zeroed PropertyParm_t, its value's node and list (`slots` slots, holding it), the value's vn
 * bytes at *vb (only its NUL written) and extra bytes after them for the caller: one piece. */
CARVE_INLINE PropertyParm_t *parm_one(text_parse *px, size_t slots, size_t vn, size_t extra,
                                      unsigned char **vb)
{
	enum { PP = CARVE_ROUND(sizeof(PropertyParm_t)), OS = CARVE_ROUND(sizeof(OCTET_STRING_t)) };
	size_t arr = CARVE_ROUND(ARRAY_BYTES(slots));
	unsigned char *q = carve(px, PP + OS + arr + vn + 1 + extra);
	if (!q)
		return NULL;
	arena_zero(q, PP + OS);
	PropertyParm_t *pp = (PropertyParm_t *)(void *)q;
	OCTET_STRING_t *v = (OCTET_STRING_t *)(void *)(q + PP);
	unsigned char *b = q + PP + OS + arr;
	pp->value.list.array = (OCTET_STRING_t **)init_array(q + PP + OS, slots);
	pp->value.list.array[0] = v;
	pp->value.list.count = 1;
	pp->value.list.size = (int)slots;
	v->buf = b;
	v->size = (int)vn;
	b[vn] = 0;
	*vb = b;
	return pp;
}

static int sdp_name_ok(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("+-&!_/'?@^`~*$\\()%|.", c) || c >= 0x80))
			return 0;
	}
	return 1;
}

/*
 * Local/Remote octet string -> property groups: one PropertyParm per line,
 * name = text before '=', value = rest of the line (CR/LF removed, trailing
 * blanks kept); a new group at each v= after the first. \} is unescaped. A
 * line that is not name=value (legal octet string, not SDP: the RFC's
 * reflowed examples) becomes a PropertyParm with an empty name.
 */
void *tb_sdp(text_parse *px, const text_tok *body)
{
	LocalRemoteDescriptor_t *lr = NEW(px, LocalRemoteDescriptor_t);
	if (!lr)
		return NULL;
	const char *s = TXT(px, body), *end = s + body->len;
	PropertyGroup_t *grp = NULL;
	/*
	 * The first CR and backslash at or after the current line, searched for
	 * again only once a line has passed them (NULL: none left): a body with
	 * LF line ends and no \} needs one search for each, not one per line.
	 */
	const char *cr_at = memchr(s, '\r', body->len);
	const char *bs_at = memchr(s, '\\', body->len);
	while (s < end) {
		while (s < end && is_lwsp(*s))
			s++;
		if (s >= end)
			break;
		/* The line ends at the first CR or LF (memchr: SDP lines are tens of bytes). */
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		if (cr_at && cr_at < s)
			cr_at = memchr(s, '\r', (size_t)(end - s));
		if (cr_at && cr_at < eol)
			eol = cr_at;
		const char *eq = s; /* SDP names are a letter or two: no call */
		while (eq < eol && *eq != '=')
			eq++;
		size_t name_len = eq < eol && sdp_name_ok(s, (size_t)(eq - s)) ? (size_t)(eq - s) : 0;
		const char *val = name_len ? eq + 1 : s;
		size_t vn = (size_t)(eol - val);
		unsigned char *vb;
		PropertyParm_t *pp = parm_one(px, 1, vn, name_len + 1, &vb); /* the name after the value */
		if (!pp)
			return NULL;
		unsigned char *nb = vb + vn + 1;
		copy_short(nb, s, name_len);
		nb[name_len] = 0;
		pp->name.buf = nb;
		pp->name.size = (int)name_len;
		/* unescape \} */
		if (bs_at && bs_at < val)
			bs_at = memchr(val, '\\', (size_t)(end - val));
		if (!bs_at || bs_at >= eol) {
			copy_short(vb, val, vn);
		} else {
			size_t o = 0;
			for (size_t i = 0; i < vn; i++) {
				if (val[i] == '\\' && i + 1 < vn && val[i + 1] == '}')
					continue;
				vb[o++] = val[i];
			}
			vb[o] = 0;
			pp->value.list.array[0]->size = (int)o;
		}
		/* A group is never empty: a v= line after the first starts the next. */
		if ((!grp || (name_len == 1 && s[0] == 'v')) &&
		    (!(grp = NEW(px, PropertyGroup_t)) || add(px, &lr->propGrps.list, grp)))
			return NULL;
		if (add(px, &grp->list, pp))
			return NULL;
		s = eol;
	}
	return lr;
}

void *tb_local_control(text_parse *px, void *p, const text_item *it)
{
	LocalControlDescriptor_t *lc = p;
	if (!lc && !(lc = NEW(px, LocalControlDescriptor_t)))
		return NULL;
	static const char *const where = "LocalControl";
	switch (it->kind) {
	case TI_MODE:
		return ONCE(lc->streamMode, "Mode",
		            new_long(px, text_kw_value(text_kw_stream_mode, it->n))) ? NULL : lc;
	case TI_RESERVED_VALUE:
		return ONCE(lc->reserveValue, "ReservedValue", new_int(px, (int)it->n)) ? NULL : lc;
	case TI_RESERVED_GROUP:
		return ONCE(lc->reserveGroup, "ReservedGroup", new_int(px, (int)it->n)) ? NULL : lc;
	default:
		return add(px, &lc->propertyParms.list, it->p) ? NULL : lc;
	}
}

void *tb_term_state(text_parse *px, void *p, const text_item *it)
{
	TerminationStateDescriptor_t *ts = p;
	if (!ts && !(ts = NEW(px, TerminationStateDescriptor_t)))
		return NULL;
	static const char *const where = "TerminationState";
	switch (it->kind) {
	case TI_SERVICE_STATE:
		return ONCE(ts->serviceState, "ServiceStates",
		            new_long(px, text_kw_value(text_kw_service_state, it->n))) ? NULL : ts;
	case TI_BUFFER:
		return ONCE(ts->eventBufferControl, "Buffer",
		            new_long(px, it->n ? EventBufferControl_lockStep : EventBufferControl_off))
		       ? NULL : ts;
	default:
		return add(px, &ts->propertyParms.list, it->p) ? NULL : ts;
	}
}

static int value_os(text_parse *px, const text_tok *v, OCTET_STRING_t **out)
{
	OCTET_STRING_t *os = NEW(px, OCTET_STRING_t);
	if (!os || VALUE_CHARS(px, v) || set_tok(px, os, v))
		return -1;
	*out = os;
	return 0;
}

void *tb_prop_value(text_parse *px, int rel, const text_tok *v)
{
	PropertyParm_t *pp;
	unsigned char *vb;
	if (VALUE_CHARS(px, v) || !(pp = parm_one(px, 4, v->len, 0, &vb)))
		return NULL;
	copy_short(vb, TXT(px, v), v->len);
	if (rel) {
		if (!(pp->extraInfo = NEW(px, struct PropertyParm__extraInfo)))
			return NULL;
		pp->extraInfo->present = PropertyParm__extraInfo_PR_relation;
		pp->extraInfo->choice.relation = rel == TI_REL_GT ? Relation_greaterThan
		                                 : rel == TI_REL_LT ? Relation_smallerThan : Relation_unequalTo;
	}
	return pp;
}

int tb_prop_more(text_parse *px, void *p, const text_tok *v)
{
	OCTET_STRING_t *os;
	return value_os(px, v, &os) || add(px, &((PropertyParm_t *)p)->value.list, os);
}

int tb_prop_extra(text_parse *px, void *p, int kind)
{
	PropertyParm_t *pp = p;
	if (!(pp->extraInfo = NEW(px, struct PropertyParm__extraInfo)))
		return -1;
	if (kind == TI_RANGE) {
		pp->extraInfo->present = PropertyParm__extraInfo_PR_range;
		pp->extraInfo->choice.range = 1;
	} else {
		pp->extraInfo->present = PropertyParm__extraInfo_PR_sublist;
		pp->extraInfo->choice.sublist = kind == TI_SUBLIST_AND;
	}
	return 0;
}

int tb_prop_name(text_parse *px, void *p, const text_tok *name)
{
	return set_tok(px, &((PropertyParm_t *)p)->name, name);
}

/* EventParameter and SigParameter: a PropertyParm under another name. */
#define PARM_FROM_PROP(fn, T, NAME, EXTRA_PR)                                                  \
	static T *fn(text_parse *px, PropertyParm_t *pp)                                           \
	{                                                                                          \
		T *x = NEW(px, T);                                                                     \
		if (!x)                                                                                \
			return NULL;                                                                       \
		x->NAME = pp->name;                                                                    \
		memcpy(&x->value.list, &pp->value.list, sizeof x->value.list);                         \
		if (pp->extraInfo) {                                                                   \
			if (!(x->extraInfo = tb_new(px, sizeof *x->extraInfo)))                            \
				return NULL;                                                                   \
			x->extraInfo->present = (EXTRA_PR)pp->extraInfo->present;                          \
			memcpy(&x->extraInfo->choice, &pp->extraInfo->choice, sizeof x->extraInfo->choice); \
		}                                                                                      \
		return x;                                                                              \
	}
PARM_FROM_PROP(event_parm, EventParameter_t, eventParameterName, EventParameter__extraInfo_PR)
PARM_FROM_PROP(sig_parm, SigParameter_t, sigParameterName, SigParameter__extraInfo_PR)

/* ---- modem, mux ----------------------------------------------------------------- */

void *tb_modem(text_parse *px, void *p, const text_tok *type)
{
	ModemDescriptor_t *md = p;
	if (!md && !(md = NEW(px, ModemDescriptor_t)))
		return NULL;
	long t = text_kw_value(text_kw_modem_type, type->kw);
	if (t < 0)
		return tb_fail(px, MEGACO_ERR_UNSUPPORTED, type->off,
		               "extension modem type '%.*s' has no ASN.1 equivalent", (int)type->len,
		               TXT(px, type)), NULL;
	for (int i = 0; i < md->mtl.list.count; i++)
		if (*md->mtl.list.array[i] == t)
			return tb_twice(px, type->off, "a modem type", "Modem"), NULL;
	return add(px, &md->mtl.list, new_long(px, t)) ? NULL : md;
}

int tb_modem_props(text_parse *px, void *p, tb_list *props)
{
	(void)px;
	LIST_INTO(((ModemDescriptor_t *)p)->mpl.list, props);
	return 0;
}

void *tb_mux(text_parse *px, const text_tok *type, tb_list *tids)
{
	MuxDescriptor_t *m = NEW(px, MuxDescriptor_t);
	if (!m)
		return NULL;
	if ((m->muxType = text_kw_value(text_kw_mux_type, type->kw)) < 0)
		return tb_fail(px, MEGACO_ERR_UNSUPPORTED, type->off,
		               "extension mux type '%.*s' has no ASN.1 equivalent", (int)type->len,
		               TXT(px, type)), NULL;
	if (m->muxType == MuxType_nx64k &&
	    GATE(px, type->off, MEGACO_SINCE_MuxType_nx64k, "Mux type Nx64Kservice"))
		return NULL;
	LIST_INTO(m->termList.list, tids);
	return m;
}

/* ---- events ------------------------------------------------------------------ */

void *tb_req_event(text_parse *px, const text_tok *name, tb_list *params)
{
	event_raw *r = NEW(px, event_raw);
	if (r) {
		r->name = *name;
		r->params = params;
	}
	return r;
}

static NotifyBehaviour_t *notify_behaviour(text_parse *px, const text_item *it)
{
	NotifyBehaviour_t *nb = NEW(px, NotifyBehaviour_t);
	if (!nb)
		return NULL;
	nb->present = it->kind == TI_NEVER_NOTIFY      ? NotifyBehaviour_PR_neverNotify
	              : it->kind == TI_NOTIFY_IMMEDIATE ? NotifyBehaviour_PR_notifyImmediate
	                                                : NotifyBehaviour_PR_notifyRegulated;
	if (it->kind != TI_NOTIFY_REGULATED)
		return nb;
	RegulatedEmbeddedDescriptor_t *red = nb->choice.notifyRegulated =
		NEW(px, RegulatedEmbeddedDescriptor_t);
	embed_raw *e = it->p;
	if (!red || (e && e->signals &&
	             !(red->signalsDescriptor = NEW_LIST(px, SignalsDescriptor_t, e->signals))))
		return NULL;
	red->secondEvent = e ? e->events : NULL;
	return nb;
}

/*
 * Fills a RequestedEvent (second == 0) or SecondRequestedEvent from its
 * parameters: -1 on error, else whether one of them is an action (the
 * event's actions are kept then).
 */
static int event_params(text_parse *px, tb_list *params, int second, StreamID_t **stream,
                        void *evpar_list, BOOLEAN_t **keep, EventDM_t **dm, SignalsDescriptor_t **sig,
                        SecondEventsDescriptor_t **sec, NotifyBehaviour_t **nb, NULL_t **rse)
{
	/* At most once each (eventParameter and secondEventParameter in the ABNF). */
	static const char *const where = "an event's parameters";
	int embedded = 0, have = 0, rc = 0;
	for (int i = 0; !rc && params && i < params->list.count; i++) {
		const text_item *it = params->list.array[i];
		switch (it->kind) {
		case TI_STREAM_ID:
			rc = ONCE(*stream, "Stream", new_long(px, it->n));
			continue;
		case TI_PROP:
			rc = add(px, evpar_list, event_parm(px, it->p));
			continue;
		case TI_KEEP_ACTIVE:
			if (!*keep && *sig)
				return tb_exclusive(px, it->off, TEXT_KW_EMBED,
				                    "KeepActive and an Embed with signals exclude each other");
			rc = ONCE(*keep, "KeepActive", new_int(px, 1));
			break;
		case TI_EVENT_DM:
			rc = ONCE(*dm, "DigitMap", it->p);
			break;
		case TI_EMBED: {
			embed_raw *e = it->p;
			if (embedded++)
				return tb_twice(px, it->off, "Embed", where);
			if (e->signals && *keep)
				return tb_exclusive(px, it->off, TEXT_KW_KEEP_ACTIVE,
				                    "KeepActive and an Embed with signals exclude each other");
			if (e->events && (second || !sec))
				return tb_fail(px, MEGACO_ERR_SYNTAX, it->off,
				               "an embedded Events descriptor may not embed events again");
			if (e->signals && !(*sig = NEW_LIST(px, SignalsDescriptor_t, e->signals)))
				return -1;
			if (e->events)
				*sec = e->events;
			break;
		}
		case TI_NEVER_NOTIFY: case TI_NOTIFY_IMMEDIATE: case TI_NOTIFY_REGULATED:
			rc = SINCE_ONCE(*nb, "a notification behaviour",
			                MEGACO_SINCE_RequestedActions_notifyBehaviour, notify_behaviour(px, it));
			break;
		default: /* TI_RESET_EVENTS */
			rc = SINCE_ONCE(*rse, "ResetEventsDescriptor",
			                MEGACO_SINCE_RequestedActions_resetEventsDescriptor, new_int(px, 0));
		}
		have = 1;
	}
	return rc ? -1 : have;
}

void *tb_events(text_parse *px, const text_tok *rid, tb_list *events, int second)
{
	long id = 0;
	if (rid && tb_request_id(px, rid, &id))
		return NULL;
	/* An Events descriptor and an embedded one: one build, their own types. */
#define EVENTS(ED, RE, RA, SECOND_EVENT)                                                       \
	do {                                                                                     \
		ED *ed = NEW(px, ED);                                                                \
		if (!ed || (rid && !(ed->requestID = new_ulong(px, (unsigned long)id))))             \
			return NULL;                                                                     \
		for (int i = 0; events && i < events->list.count; i++) {                             \
			event_raw *r = events->list.array[i];                                            \
			RE *re = NEW(px, RE);                                                            \
			RA *ra = NEW(px, RA);                                                            \
			int have = !re || !ra || set_tok(px, &re->pkgdName, &r->name) ? -1              \
			    : event_params(px, r->params, second, &re->streamID, &re->evParList.list,   \
			                   &ra->keepActive, &ra->eventDM, &ra->signalsDescriptor,       \
			                   SECOND_EVENT, &ra->notifyBehaviour, &ra->resetEventsDescriptor); \
			if (have < 0 || add(px, &ed->eventList.list, re))                                \
				return NULL;                                                                 \
			if (have)                                                                        \
				re->eventAction = ra;                                                        \
		}                                                                                    \
		return ed;                                                                           \
	} while (0)
	if (!second)
		EVENTS(EventsDescriptor_t, RequestedEvent_t, RequestedActions_t, &ra->secondEvent);
	EVENTS(SecondEventsDescriptor_t, SecondRequestedEvent_t, SecondRequestedActions_t, NULL);
#undef EVENTS
}

void *tb_embed(text_parse *px, tb_list *signals, void *events)
{
	embed_raw *e = NEW(px, embed_raw);
	if (e) {
		e->signals = signals;
		e->events = events;
	}
	return e;
}

/* "T:1, S:23, L:99, Z:5, (body)" -> timers + body (blanks around it trimmed). */
static DigitMapValue_t *digit_map_value(text_parse *px, const text_tok *t)
{
	DigitMapValue_t *v = NEW(px, DigitMapValue_t);
	if (!v)
		return NULL;
	const char *s = TXT(px, t), *end = s + t->len;
	while (s < end && is_lwsp(*s))
		s++;
	while (end > s && is_lwsp(end[-1]))
		end--;
	for (;;) {
		if (end - s < 3 || s[1] != ':')
			break;
		long **slot;
		switch (s[0]) {
		case 'T': case 't': slot = &v->startTimer; break;
		case 'S': case 's': slot = &v->shortTimer; break;
		case 'L': case 'l': slot = &v->longTimer; break;
		case 'Z': case 'z': slot = &v->durationTimer; break;
		default: slot = NULL;
		}
		if (!slot)
			break;
		if (slot == &v->durationTimer &&
		    GATE(px, (size_t)(s - (const char *)px->in), MEGACO_SINCE_DigitMapValue_durationTimer,
		         "a digit map's Z timer"))
			return NULL;
		const char *d = s + 2, *q;
		while (d < end && is_lwsp(*d))
			d++;
		q = d;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		const char *c = q;
		while (c < end && is_lwsp(*c))
			c++;
		if (q == d || c >= end || *c != ',' || *slot)
			break;
		unsigned long n = 0; /* -O3 cannot see parse_uint sets it */
		if (parse_uint(px, d, (size_t)(q - d), (size_t)(d - (const char *)px->in), 99, &n) ||
		    !(*slot = new_long(px, (long)n)))
			return NULL;
		s = c + 1;
		while (s < end && is_lwsp(*s))
			s++;
	}
	if (s == end)
		return tb_fail(px, MEGACO_ERR_SYNTAX, t->off, "a digit map body was expected"), NULL;
	return set_os(px, &v->digitMapBody, s, (size_t)(end - s)) ? NULL : v;
}

void *tb_event_dm(text_parse *px, const text_tok *name, const text_tok *body)
{
	EventDM_t *dm = NEW(px, EventDM_t);
	if (!dm)
		return NULL;
	if (name) {
		dm->present = EventDM_PR_digitMapName;
		return set_tok(px, &dm->choice.digitMapName, name) ? NULL : dm;
	}
	DigitMapValue_t *v = digit_map_value(px, body);
	if (!v)
		return NULL;
	dm->present = EventDM_PR_digitMapValue;
	dm->choice.digitMapValue = *v;
	return dm;
}

void *tb_digit_map(text_parse *px, const text_tok *name, const text_tok *body)
{
	DigitMapDescriptor_t *d = NEW(px, DigitMapDescriptor_t);
	if (!d)
		return NULL;
	if (name && (!(d->digitMapName = NEW(px, DigitMapName_t)) || set_tok(px, d->digitMapName, name)))
		return NULL;
	if (body && !(d->digitMapValue = digit_map_value(px, body)))
		return NULL;
	return d;
}

/* ---- signals -------------------------------------------------------------------- */

void *tb_signal(text_parse *px, const text_tok *name)
{
	Signal_t *s = NEW(px, Signal_t);
	if (s && name && set_tok(px, &s->signalName, name))
		return NULL;
	return s;
}

int tb_signal_name(text_parse *px, void *sig, const text_tok *name)
{
	return set_tok(px, &((Signal_t *)sig)->signalName, name);
}

/* signalListParm: "exactly once signalType" (at most once is tb_signal_add's). */
int tb_list_signal(text_parse *px, const void *sig, const text_tok *name)
{
	if (sig && ((const Signal_t *)sig)->sigType)
		return 0;
	return tb_fail(px, MEGACO_ERR_SYNTAX, name->off,
	               "SignalType missing in a signal of a SignalList (it is needed exactly once)");
}

/* Whether a list of SigParameter or EventParameter (their name first) has name already. */
static int name_in(const void *list, const OCTET_STRING_t *name)
{
	const A_SEQUENCE_OF(OCTET_STRING_t) *l = list; /* each member starts with its name */
	for (int i = 0; i < l->count; i++) {
		const OCTET_STRING_t *n = l->array[i];
		if (n->size != name->size)
			continue;
		if (text_same_name(n, name))
			return 1;
	}
	return 0;
}

/* sigParameter: at most once each, and every parameter name at most once. */
int tb_signal_add(text_parse *px, void *p, const text_item *it)
{
	Signal_t *s = p;
	static const char *const where = "a signal's parameters";
	switch (it->kind) {
	case TI_STREAM_ID:
		return ONCE(s->streamID, "Stream", new_long(px, it->n));
	case TI_SIGNAL_TYPE:
		return ONCE(s->sigType, "SignalType", new_long(px, text_kw_value(text_kw_signal_type, it->n)));
	case TI_DURATION:
		return ONCE(s->duration, "Duration", new_long(px, it->n));
	case TI_PROP:
		if (name_in(&s->sigParList.list, &((PropertyParm_t *)it->p)->name))
			return tb_twice(px, it->off, "a parameter", where);
		return add(px, &s->sigParList.list, sig_parm(px, it->p));
	case TI_NOTIFY_COMPLETION:
		/* Two would have to be merged into one bit string: a different signal. */
		if (!s->notifyCompletion && text_bit_set(it->p, NotifyCompletion_onIteration) &&
		    GATE(px, it->off, MEGACO_SINCE_NotifyCompletion_onIteration, "NotifyCompletion Iteration"))
			return -1;
		return ONCE(s->notifyCompletion, "NotifyCompletion", it->p);
	case TI_KEEP_ACTIVE:
		return (s->keepActive = new_int(px, 1)) ? 0 : -1;
	case TI_DIRECTION:
		return SINCE_ONCE(s->direction, "SPADirection", MEGACO_SINCE_Signal_direction,
		                  new_long(px, text_kw_value(text_kw_signal_direction, it->n)));
	case TI_REQUEST_ID:
		return SINCE_ONCE(s->requestID, "SPARequestID", MEGACO_SINCE_Signal_requestID,
		                  new_ulong(px, (unsigned long)it->n));
	default: /* TI_INTSIG_DELAY */
		return SINCE_ONCE(s->intersigDelay, "Intersignal", MEGACO_SINCE_Signal_intersigDelay,
		                  new_long(px, it->n));
	}
}

void *tb_bits(text_parse *px, void *bs, int kw)
{
	BIT_STRING_t *b = bs;
	return set_bit(px, &b, (int)text_kw_value(text_kw_notify_completion, kw)) ? NULL : b;
}

void *tb_signal_request(text_parse *px, void *sig)
{
	SignalRequest_t *r = NEW(px, SignalRequest_t);
	if (r) {
		r->present = SignalRequest_PR_signal;
		r->choice.signal = *(Signal_t *)sig;
	}
	return r;
}

void *tb_seq_sig_list(text_parse *px, const text_tok *id, tb_list *sigs)
{
	SignalRequest_t *r = NEW(px, SignalRequest_t);
	if (!r || tb_uint(px, id, 65535, &r->choice.seqSigList.id))
		return NULL;
	r->present = SignalRequest_PR_seqSigList;
	LIST_INTO(r->choice.seqSigList.signalList.list, sigs);
	return r;
}

/* ---- observed events, event buffer, statistics, packages -------------------------- */

/*
 * Whether s[0..7] are all ASCII digits, eight bytes at once: a digit is 0x3N
 * with N + 6 <= 15. Once every high nibble is known to be 3, adding 6 to each
 * byte carries into its own high nibble (0x3N -> 0x4N) exactly when N > 9,
 * and never out of the byte.
 */
static inline int digits8(const char *s)
{
	uint64_t x;
	memcpy(&x, s, 8);
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0u, three = 0x3030303030303030u;
	return (x & hi) == three && ((x + 0x0606060606060606u) & hi) == three;
}

static TimeNotation_t *timestamp(text_parse *px, const text_tok *t)
{
	const char *s = TXT(px, t);
	if (t->len != 17 || (s[8] != 'T' && s[8] != 't') || !digits8(s) || !digits8(s + 9))
		return syntax(px, t, "a time stamp yyyymmddThhmmssss"), NULL;
	/* The node and both strings: one piece. */
	enum { TN = CARVE_ROUND(sizeof(TimeNotation_t)) };
	unsigned char *p = carve(px, TN + 18);
	if (!p)
		return NULL;
	arena_zero(p, TN);
	TimeNotation_t *tn = (TimeNotation_t *)(void *)p;
	memcpy(p + TN, s, 8);
	memcpy(p + TN + 9, s + 9, 8);
	p[TN + 8] = p[TN + 17] = 0;
	tn->date.buf = p + TN;
	tn->time.buf = p + TN + 9;
	tn->date.size = tn->time.size = 8;
	return tn;
}

/* observedEventParameter: Stream at most once, every parameter name at most once. */
static int oe_params(text_parse *px, tb_list *params, StreamID_t **stream, void *list)
{
	static const char *const where = "an observed event's parameters";
	for (int i = 0; params && i < params->list.count; i++) {
		const text_item *it = params->list.array[i];
		int rc = it->kind == TI_STREAM_ID ? ONCE(*stream, "Stream", new_long(px, it->n))
		         : name_in(list, &((PropertyParm_t *)it->p)->name)
		             ? tb_twice(px, it->off, "a parameter", where)
		             : add(px, list, event_parm(px, it->p));
		if (rc)
			return rc;
	}
	return 0;
}

void *tb_observed_events(text_parse *px, const text_tok *rid, tb_list *events)
{
	ObservedEventsDescriptor_t *o = NEW(px, ObservedEventsDescriptor_t);
	long id;
	if (!o || tb_request_id(px, rid, &id))
		return NULL;
	o->requestId = (unsigned long)id;
	LIST_INTO(o->observedEventLst.list, events);
	return o;
}

void *tb_observed_event(text_parse *px, const text_tok *ts, const text_tok *name, tb_list *params)
{
	ObservedEvent_t *e = NEW_NAMED(px, ObservedEvent_t, eventName, name);
	if (!e || (ts && !(e->timeNotation = timestamp(px, ts))) ||
	    oe_params(px, params, &e->streamID, &e->eventParList.list))
		return NULL;
	return e;
}

void *tb_event_spec(text_parse *px, const text_tok *name, tb_list *params)
{
	EventSpec_t *e = NEW_NAMED(px, EventSpec_t, eventName, name);
	if (!e || oe_params(px, params, &e->streamID, &e->eventParList.list))
		return NULL;
	return e;
}

void *tb_stat(text_parse *px, const text_tok *name, void *values)
{
	StatisticsParameter_t *s = NEW_NAMED(px, StatisticsParameter_t, statName, name);
	if (!s)
		return NULL;
	if (values) {
		if (!(s->statValue = NEW(px, Value_t)))
			return NULL;
		memcpy(&s->statValue->list, &((PropertyParm_t *)values)->value.list, sizeof s->statValue->list);
	}
	return s;
}

/* statisticsParameter: each statistic at most once. */
int tb_stat_add(text_parse *px, tb_list *l, void *stat, size_t comma)
{
	const StatisticsParameter_t *st = stat;
	for (int i = 0; i < l->list.count; i++)
		if (text_same_name(&((const StatisticsParameter_t *)l->list.array[i])->statName, &st->statName))
			return tb_twice(px, after_comma(px, comma), "a statistic", "Statistics");
	return add(px, &l->list, stat);
}

static int package_item(text_parse *px, const text_tok *t, Name_t *name, long *version)
{
	const char *s = TXT(px, t);
	size_t i = t->len;
	while (i > 0 && s[i - 1] != '-')
		i--;
	if (i < 2)
		return syntax(px, t, "package-version");
	unsigned long v;
	if (parse_uint(px, s + i, t->len - i, t->off, 99, &v) || set_os(px, name, s, i - 1))
		return -1;
	*version = (long)v;
	return 0;
}

tb_list *tb_packages(text_parse *px, tb_list *l, const text_tok *t)
{
	PackagesItem_t *p = NEW(px, PackagesItem_t);
	if (!p || package_item(px, t, &p->packageName, &p->packageVersion))
		return NULL;
	return push(px, l, p);
}

/* ---- audit descriptor and individual audit descriptors ----------------------------- */

void *tb_audit(text_parse *px, void *p, const text_item *it)
{
	AuditDescriptor_t *ad = p;
	if (!ad && !(ad = NEW(px, AuditDescriptor_t)))
		return NULL;
	if (!it)
		return ad;
	if (it->kind == TI_AUDIT_TOKEN || (it->kind == TI_IA_SIGNALS && !it->p)) { /* Signals { } */
		int bit = it->kind == TI_AUDIT_TOKEN ? (int)text_kw_value(text_kw_audit_token, it->n)
		                                     : AuditDescriptor__auditToken_signalsToken;
		if (text_bit_set(ad->auditToken, bit))
			return tb_twice(px, it->off, "an audit token", "Audit"), NULL;
		return set_bit(px, &ad->auditToken, bit) ? NULL : ad;
	}
	if (GATE(px, it->off, MEGACO_SINCE_AuditDescriptor_auditPropertyToken,
	         "an individual audit descriptor"))
		return NULL;
	IndAuditParameter_t *ip = NEW(px, IndAuditParameter_t);
	if (!ip)
		return NULL;
	/* The item's node is of the alternative's type, named as its member. */
#define IA_CASE(KIND, m, T)                                                                    \
	case KIND: ip->present = IndAuditParameter_PR_##m; ip->choice.m = *(T *)it->p; break;
	switch (it->kind) {
	IA_CASE(TI_IA_MEDIA, indAudMediaDescriptor, IndAudMediaDescriptor_t)
	IA_CASE(TI_IA_EVENTS, indAudEventsDescriptor, IndAudEventsDescriptor_t)
	IA_CASE(TI_IA_DIGITMAP, indAudDigitMapDescriptor, IndAudDigitMapDescriptor_t)
	IA_CASE(TI_IA_EVENTBUFFER, indAudEventBufferDescriptor, IndAudEventBufferDescriptor_t)
	IA_CASE(TI_IA_STATS, indAudStatisticsDescriptor, IndAudStatisticsDescriptor_t)
	IA_CASE(TI_IA_PACKAGES, indAudPackagesDescriptor, IndAudPackagesDescriptor_t)
#undef IA_CASE
	default: /* TI_IA_SIGNALS */
		ip->present = IndAuditParameter_PR_indAudSignalsDescriptor;
		if (it->n) {
			ip->choice.indAudSignalsDescriptor.present = IndAudSignalsDescriptor_PR_seqSigList;
			ip->choice.indAudSignalsDescriptor.choice.seqSigList = *(IndAudSeqSigList_t *)it->p;
		} else {
			ip->choice.indAudSignalsDescriptor.present = IndAudSignalsDescriptor_PR_signal;
			ip->choice.indAudSignalsDescriptor.choice.signal = *(IndAudSignal_t *)it->p;
		}
	}
	if (!ad->auditPropertyToken &&
	    !(ad->auditPropertyToken = NEW(px, struct AuditDescriptor__auditPropertyToken)))
		return NULL;
	return add(px, &ad->auditPropertyToken->list, ip) ? NULL : ad;
}

/* indAudstreamParm: at most once each. */
static int ia_stream_parm(text_parse *px, IndAudStreamParms_t *sp, const text_item *it)
{
	static const char *const where = "a stream's audit";
	switch (it->kind) {
	STREAM_ITEM_ONCE(sp);
	default:
		if (!sp->statisticsDescriptor &&
		    GATE(px, it->off, MEGACO_SINCE_IndAudStreamParms_statisticsDescriptor,
		         "a Statistics audit in a stream"))
			return -1;
		return ONCE(sp->statisticsDescriptor, "Statistics", it->p);
	}
}

MEDIA_BUILDER(tb_ia_media, IndAudMediaDescriptor_t, IndAudMediaDescriptor__streams_PR_,
              IndAudStreamDescriptor_t, tb_ia_stream_parms, IndAudStreamParms_t, ia_stream_parm)

void *tb_ia_local_control(text_parse *px, void *p, const text_item *it)
{
	IndAudLocalControlDescriptor_t *lc = p;
	if (!lc && !(lc = NEW(px, IndAudLocalControlDescriptor_t)))
		return NULL;
	static const char *const where = "LocalControl";
	switch (it->kind) {
	case TI_MODE:
		if (lc->streamMode || lc->streamModeSel)
			return tb_twice(px, it->off, "Mode", where), NULL;
		if (it->n < 0)
			return (lc->streamMode = new_int(px, 0)) ? lc : NULL;
		return GATE(px, it->off, MEGACO_SINCE_IndAudLocalControlDescriptor_streamModeSel,
		            "an audit for a Mode value") ||
		       !(lc->streamModeSel = new_long(px, text_kw_value(text_kw_stream_mode, it->n))) ? NULL : lc;
	case TI_RESERVED_VALUE:
		return ONCE(lc->reserveValue, "ReservedValue", new_int(px, 0)) ? NULL : lc;
	case TI_RESERVED_GROUP:
		return ONCE(lc->reserveGroup, "ReservedGroup", new_int(px, 0)) ? NULL : lc;
	default:
		if (it->n && GATE(px, it->off, MEGACO_SINCE_IndAudPropertyParm_propertyParms,
		                  "an audit for a property value"))
			return NULL;
		return IND_PROP_ADD(px, lc->propertyParms, it->p) ? NULL : lc;
	}
}

void *tb_ia_term_state(text_parse *px, const text_item *it)
{
	IndAudTerminationStateDescriptor_t *ts = NEW(px, IndAudTerminationStateDescriptor_t);
	if (!ts)
		return NULL;
	switch (it->kind) {
	case TI_SERVICE_STATE:
		if (it->n < 0)
			return (ts->serviceState = new_int(px, 0)) ? ts : NULL;
		return GATE(px, it->off, MEGACO_SINCE_IndAudTerminationStateDescriptor_serviceStateSel,
		            "an audit for a ServiceStates value") ||
		       !(ts->serviceStateSel = new_long(px, text_kw_value(text_kw_service_state, it->n))) ? NULL
		                                                                                       : ts;
	case TI_BUFFER:
		return (ts->eventBufferControl = new_int(px, 0)) ? ts : NULL;
	default:
		if (it->n && GATE(px, it->off, MEGACO_SINCE_IndAudPropertyParm_propertyParms,
		                  "an audit for a property value"))
			return NULL;
		return add(px, &ts->propertyParms.list, it->p) ? NULL : ts;
	}
}

void *tb_ia_sdp(text_parse *px, const text_tok *body)
{
	LocalRemoteDescriptor_t *lr = tb_sdp(px, body);
	IndAudLocalRemoteDescriptor_t *ia = NEW(px, IndAudLocalRemoteDescriptor_t);
	if (!lr || !ia)
		return NULL;
	/* Audit of Local/Remote: the names of the first group's lines. */
	PropertyGroup_t *g = lr->propGrps.list.count ? lr->propGrps.list.array[0] : NULL;
	for (int i = 0; g && i < g->list.count; i++) {
		IndAudPropertyParm_t *ip = NEW(px, IndAudPropertyParm_t);
		if (!ip)
			return NULL;
		ip->name = g->list.array[i]->name;
		if (add(px, &ia->propGrps.list, ip))
			return NULL;
	}
	return ia;
}

void *tb_ia_events(text_parse *px, const text_tok *rid, const text_tok *name)
{
	IndAudEventsDescriptor_t *e = NEW_NAMED(px, IndAudEventsDescriptor_t, pkgdName, name);
	long id;
	if (!e)
		return NULL;
	if (rid && (tb_request_id(px, rid, &id) || !(e->requestID = new_ulong(px, (unsigned long)id))))
		return NULL;
	return e;
}

void *tb_ia_signal(text_parse *px, void *sig, const text_tok *name)
{
	IndAudSignal_t *s = sig;
	if (!s && !(s = NEW(px, IndAudSignal_t)))
		return NULL;
	if (name && set_tok(px, &s->signalName, name))
		return NULL;
	return s;
}

int tb_ia_signal_name(text_parse *px, void *sig, const text_tok *name)
{
	return set_tok(px, &((IndAudSignal_t *)sig)->signalName, name);
}

int tb_ia_signal_add(text_parse *px, void *sig, const text_item *it)
{
	IndAudSignal_t *s = sig;
	static const char *const where = "a signal's audit";
	if (it->kind == TI_STREAM_ID)
		return ONCE(s->streamID, "Stream", new_long(px, it->n));
	return SINCE_ONCE(s->signalRequestID, "SPARequestID", MEGACO_SINCE_IndAudSignal_signalRequestID,
	                  new_ulong(px, (unsigned long)it->n));
}

void *tb_ia_seq_sig(text_parse *px, const text_tok *id, void *sig)
{
	IndAudSeqSigList_t *l = NEW(px, IndAudSeqSigList_t);
	if (!l || tb_uint(px, id, 65535, &l->id))
		return NULL;
	l->signalList = sig;
	return l;
}

void *tb_ia_digit_map(text_parse *px, const text_tok *name)
{
	IndAudDigitMapDescriptor_t *d = NEW(px, IndAudDigitMapDescriptor_t);
	if (!d || !(d->digitMapName = NEW(px, DigitMapName_t)) || set_tok(px, d->digitMapName, name))
		return NULL;
	return d;
}

void *tb_ia_event_buffer(text_parse *px, const text_tok *name, const text_tok *stream)
{
	IndAudEventBufferDescriptor_t *e = NEW_NAMED(px, IndAudEventBufferDescriptor_t, eventName, name);
	long s;
	if (!e)
		return NULL;
	if (stream && (tb_uint(px, stream, 65535, &s) || !(e->streamID = new_long(px, s))))
		return NULL;
	return e;
}

void *tb_ia_stats(text_parse *px, const text_tok *name)
{
	return NEW_NAMED(px, IndAudStatisticsDescriptor_t, statName, name);
}

void *tb_ia_packages(text_parse *px, const text_tok *item)
{
	IndAudPackagesDescriptor_t *p = NEW(px, IndAudPackagesDescriptor_t);
	if (!p || package_item(px, item, &p->packageName, &p->packageVersion))
		return NULL;
	return p;
}

/* ---- service change parameters ------------------------------------------------------ */

void *tb_sc(text_parse *px, void *p, const text_item *it)
{
	sc_build *sc = p;
	if (!sc) {
		if (!(sc = NEW(px, sc_build)))
			return NULL;
		sc->off = it->off;
	}
	ServiceChangeParm_t *s = &sc->p;
	static const char *const where = "Services";
	switch (it->kind) {
	case TI_SC_METHOD: {
		long m = text_kw_value(text_kw_sc_method, it->n);
		if (sc->have_method)
			return tb_twice(px, it->off, "Method", where), NULL;
		if (m < 0)
			return tb_fail(px, MEGACO_ERR_UNSUPPORTED, it->tok.off,
			               "extension method '%.*s' has no ASN.1 equivalent", (int)it->tok.len,
			               TXT(px, &it->tok)), NULL;
		s->serviceChangeMethod = m;
		sc->have_method = 1;
		return sc;
	}
	case TI_SC_REASON: {
		if (s->serviceChangeReason.list.count)
			return tb_twice(px, it->off, "Reason", where), NULL;
		OCTET_STRING_t *os;
		return value_os(px, &it->tok, &os) || add(px, &s->serviceChangeReason.list, os) ? NULL : sc;
	}
	case TI_SC_DELAY:
		return ONCE(s->serviceChangeDelay, "Delay", new_ulong(px, (unsigned long)it->n)) ? NULL : sc;
	case TI_SC_ADDRESS:
		if (!s->serviceChangeAddress && s->serviceChangeMgcId)
			return tb_exclusive(px, it->off, TEXT_KW_MGC_ID,
			                    "ServiceChangeAddress and MgcIdToTry exclude each other"), NULL;
		return ONCE(s->serviceChangeAddress, "ServiceChangeAddress", build_sc_address(px, &it->tok))
		       ? NULL : sc;
	case TI_SC_MGCID:
		if (!s->serviceChangeMgcId && s->serviceChangeAddress)
			return tb_exclusive(px, it->off, TEXT_KW_SERVICE_CHANGE_ADDRESS,
			                    "MgcIdToTry and ServiceChangeAddress exclude each other"), NULL;
		return ONCE(s->serviceChangeMgcId, "MgcIdToTry", build_mid(px, &it->tok)) ? NULL : sc;
	case TI_SC_PROFILE:
		if (!s->serviceChangeProfile && !text_profile_ok((const uint8_t *)TXT(px, &it->tok), it->tok.len))
			return syntax(px, &it->tok, "a profile name/version (serviceChangeProfile)"), NULL;
		return ONCE(s->serviceChangeProfile, "Profile", NEW(px, ServiceChangeProfile_t)) ||
		       set_tok(px, &s->serviceChangeProfile->profileName, &it->tok) ? NULL : sc;
	case TI_SC_VERSION:
		return ONCE(s->serviceChangeVersion, "Version", new_long(px, it->n)) ? NULL : sc;
	case TI_SC_TIMESTAMP:
		return ONCE(s->timeStamp, "a time stamp", timestamp(px, &it->tok)) ? NULL : sc;
	case TI_SC_INCOMPLETE:
		return SINCE_ONCE(s->serviceChangeIncompleteFlag, "ServiceChangeInc",
		                  MEGACO_SINCE_ServiceChangeParm_serviceChangeIncompleteFlag, new_int(px, 0))
		       ? NULL : sc;
	case TI_SC_AUDIT: {
		if (GATE(px, it->off, MEGACO_SINCE_ServiceChangeParm_serviceChangeInfo,
		         "an audit item in Services"))
			return NULL;
		text_item a = *it;
		a.kind = it->n2;
		return (s->serviceChangeInfo = tb_audit(px, s->serviceChangeInfo, &a)) ? sc : NULL;
	}
	default: /* TI_SC_EXTENSION */
		return tb_fail(px, MEGACO_ERR_UNSUPPORTED, it->off,
		               "service change extension parameters have no ASN.1 equivalent"), NULL;
	}
}

