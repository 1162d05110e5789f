/*
 * Output side of the text encoder: appends bytes to the caller's buffer and
 * keeps counting once it is full, so a too-small buffer still learns the size
 * it needs (the out_sink contract of internal.h). Everything on the fast path
 * is inline: the encoder writes a few bytes at a time and a call per token
 * would dominate.
 *
 * Fast paths check the room once per token and may store a fixed number of
 * bytes (TW_PAD) past the token's end, inside the caller's buffer; the next
 * token overwrites them, and bytes past the final length are unspecified in
 * the encode API. Near the end of the buffer every write is exact. Such
 * scratch bytes always lie in [p, end), so the piece that first does not fit
 * is written as far as it goes: a too-small buffer ends up holding the first
 * cap bytes of the output and nothing else.
 */
#ifndef MEGACO_TEXT_ENC_WRITER_H
#define MEGACO_TEXT_ENC_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TW_INLINE static inline __attribute__((always_inline))
#define TW_COLD static __attribute__((noinline, cold))
#define TW_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TW_INLINE static inline
#define TW_COLD static
#define TW_LIKELY(x) (x)
#endif

/* Bytes a padded fast-path store may cover (the longest keyword is 22 + " = "). */
#define TW_PAD 32

typedef struct text_writer {
	unsigned char *p;   /* next output byte */
	unsigned char *end; /* buf + cap; p reaches it on the first overflow */
	unsigned char *buf;
	size_t over;        /* bytes produced that did not fit */
} text_writer;

/* buf must not be NULL (a zero-capacity caller passes some valid address). */
static inline void tw_init(text_writer *w, unsigned char *buf, size_t cap)
{
	w->buf = w->p = buf;
	w->end = buf + cap;
	w->over = 0;
}

/* Bytes produced so far; exceeds the capacity once something did not fit. */
static inline size_t tw_len(const text_writer *w)
{
	return (size_t)(w->p - w->buf) + w->over;
}

TW_INLINE size_t tw_room(const text_writer *w)
{
	return (size_t)(w->end - w->p);
}

/*
 * A piece that does not fit (n > room): its head fills the buffer, overwriting
 * any scratch bytes, and the rest is only counted. From then on the room is
 * 0, so later pieces are only counted.
 */
TW_COLD void tw_overflow(text_writer *w, const void *s, size_t n)
{
	size_t room = tw_room(w);
	memcpy(w->p, s, room);
	w->p += room;
	w->over += n - room;
}

/*
 * Most pieces are a few bytes long: copy them with fixed-size moves, since a
 * variable-length memcpy is a library call that costs more than the copy.
 */
TW_INLINE void tw_copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
	/* Overlapping fixed-size moves: every access stays inside [0, n). */
	if (n >= 16) {
		memcpy(d, s, 8);
		memcpy(d + 8, s + 8, 8);
		memcpy(d + n - 16, s + n - 16, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/* Exact append of any length, inline: for call sites that are hot and short. */
TW_INLINE void tw_put_inl(text_writer *w, const void *s, size_t n)
{
	if (TW_LIKELY(n <= tw_room(w))) {
		if (n <= 32)
			tw_copy_small(w->p, s, n);
		else
			memcpy(w->p, s, n);
		w->p += n;
	} else {
		tw_overflow(w, s, n);
	}
}

/* tw_put_inl as a call: the slow path of the padded writers too. */
static void tw_put(text_writer *w, const void *s, size_t n)
{
	tw_put_inl(w, s, n);
}

/* tw_put_inl for pieces known to be at most 32 bytes long (n <= 32 is the caller's duty). */
TW_INLINE void tw_put_small(text_writer *w, const void *s, size_t n)
{
	if (TW_LIKELY(n <= tw_room(w))) {
		tw_copy_small(w->p, s, n);
		w->p += n;
	} else {
		tw_overflow(w, s, n);
	}
}

/*
 * n (at most TW_PAD) bytes from s, which is readable for TW_PAD bytes: with
 * room to spare this is one fixed-size copy.
 */
TW_INLINE void tw_put_padded(text_writer *w, const void *s, size_t n)
{
	if (TW_LIKELY(tw_room(w) >= TW_PAD)) {
		memcpy(w->p, s, TW_PAD);
		w->p += n;
	} else {
		tw_put(w, s, n);
	}
}

TW_INLINE void tw_putc(text_writer *w, unsigned char c)
{
	if (TW_LIKELY(w->p < w->end))
		*w->p++ = c;
	else
		w->over++; /* no room at all: nothing to fill */
}

/* A string literal, length known at compile time. */
#define TW_LIT(w, lit) tw_put_inl((w), (lit), sizeof(lit) - 1)

/*
 * A line break and indentation, "\n" and then tabs: pretty output's most
 * frequent piece, one padded copy from here while the depth allows.
 */
#define TW_NL_TABS "\n" "\t\t\t\t\t\t\t\t" "\t\t\t\t\t\t\t\t" "\t\t\t\t\t\t\t\t" "\t\t\t\t\t\t\t"
_Static_assert(sizeof(TW_NL_TABS) == TW_PAD + 1, "a newline and TW_PAD - 1 tabs");
static const char tw_nl_tabs[TW_PAD + 1] = TW_NL_TABS;

static void tw_tabs(text_writer *w, unsigned n)
{
	while (n > TW_PAD - 1) {
		tw_put(w, tw_nl_tabs + 1, TW_PAD - 1);
		n -= TW_PAD - 1;
	}
	tw_put(w, tw_nl_tabs + 1, n);
}

/* "\n" and n tabs. */
TW_INLINE void tw_nl_indent(text_writer *w, unsigned n)
{
	if (TW_LIKELY(n < TW_PAD && tw_room(w) >= TW_PAD)) {
		memcpy(w->p, tw_nl_tabs, TW_PAD);
		w->p += n + 1;
	} else {
		tw_putc(w, '\n');
		tw_tabs(w, n);
	}
}

static const char tw_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * Decimal digits of a 32-bit value: digit count by comparisons, then two
 * digits per division from a pair table (32-bit division is a multiply).
 */
TW_INLINE void tw_u32(text_writer *w, uint32_t v)
{
	if (v < 10) {
		tw_putc(w, (unsigned char)('0' + v));
		return;
	}
	unsigned n = v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5
	           : v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8
	           : v < 1000000000 ? 9 : 10;
	/* Checked once: the digit stores may alias *w, so it would be reloaded. */
	int fits = n <= tw_room(w);
	unsigned char t[10];
	unsigned char *d = (fits ? w->p : t) + n;
	while (v >= 100) {
		uint32_t q = v / 100;
		d -= 2;
		memcpy(d, tw_digit_pairs + 2 * (v - 100 * q), 2);
		v = q;
	}
	if (v >= 10)
		memcpy(d - 2, tw_digit_pairs + 2 * v, 2);
	else
		d[-1] = (unsigned char)('0' + v);
	if (TW_LIKELY(fits))
		w->p += n;
	else
		tw_overflow(w, t, n);
}

/* Upper-case hex of one octet, always two digits. */
static inline void tw_hex2(text_writer *w, unsigned char b)
{
	static const char hex[] = "0123456789ABCDEF";
	char t[2] = { hex[b >> 4], hex[b & 15] };
	tw_put_inl(w, t, 2);
}

#endif
