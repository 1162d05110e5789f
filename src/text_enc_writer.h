/*
 * Output side of the text encoder: appends bytes to the caller's buffer and
 * keeps counting once it is full, so a too-small buffer still learns the size
 * it needs (the out_sink contract of internal.h). Everything is inline: the
 * encoder writes a few bytes at a time and a call per token would dominate.
 */
#ifndef MEGACO_TEXT_ENC_WRITER_H
#define MEGACO_TEXT_ENC_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct text_writer {
	unsigned char *buf;
	size_t cap;
	size_t len; /* bytes produced so far; may exceed cap */
} text_writer;

/*
 * Most pieces are a few bytes long: copy them with fixed-size moves, since a
 * variable-length memcpy is a library call that costs more than the copy.
 */
static inline void tw_copy_small(unsigned char *d, const unsigned char *s, size_t n)
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

static inline void tw_put(text_writer *w, const void *s, size_t n)
{
	if (w->len <= w->cap && n <= w->cap - w->len) {
		if (n <= 32)
			tw_copy_small(w->buf + w->len, s, n);
		else
			memcpy(w->buf + w->len, s, n);
	}
	w->len += n;
}

/* tw_put for pieces known to be at most 32 bytes long. */
static inline void tw_put_small(text_writer *w, const void *s, size_t n)
{
	if (w->len <= w->cap && n <= w->cap - w->len && n <= 32)
		tw_copy_small(w->buf + w->len, s, n);
	w->len += n;
}

static inline void tw_putc(text_writer *w, unsigned char c)
{
	if (w->len < w->cap)
		w->buf[w->len] = c;
	w->len++;
}

/* A string literal, length known at compile time. */
#define TW_LIT(w, lit) tw_put((w), (lit), sizeof(lit) - 1)

static inline void tw_tabs(text_writer *w, unsigned n)
{
	static const char tabs[16] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	while (n > sizeof tabs) {
		tw_put(w, tabs, sizeof tabs);
		n -= (unsigned)sizeof tabs;
	}
	tw_put(w, tabs, n);
}

/* Decimal digits of v, written by hand (no snprintf on the hot path). */
static inline void tw_u64(text_writer *w, uint64_t v)
{
	unsigned n = 1;
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	if (w->len <= w->cap && n <= w->cap - w->len) {
		unsigned char *d = w->buf + w->len + n;
		do {
			*--d = (unsigned char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	w->len += n;
}

/* Upper-case hex of one octet, always two digits. */
static inline void tw_hex2(text_writer *w, unsigned char b)
{
	static const char hex[] = "0123456789ABCDEF";
	char t[2] = { hex[b >> 4], hex[b & 15] };
	tw_put(w, t, 2);
}

#endif
