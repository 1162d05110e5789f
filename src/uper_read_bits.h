/*
 * The UPER reader's bit loads (uper_reader.c and its generated decoders):
 * uper_bits.h's uper_in, read through always-inlined helpers so that
 * constant widths fold. Internal.
 */
#ifndef MEGACO_UPER_READ_BITS_H
#define MEGACO_UPER_READ_BITS_H

#include "uper_bits.h"

#define RD_INLINE inline __attribute__((always_inline))

/*
 * Every uper_in the reader makes has RD_SLACK readable bytes after the last
 * byte its end can reach: uper_read() decodes from a copy of the input with
 * that slack (and the gathered fragments of an open type get it too), so a
 * load never needs a bounds check. Bits past end are loaded but shifted out.
 */
#define RD_SLACK 8

/* The 8 bytes from byte on (byte < (end + 7) / 8), big-endian. */
static RD_INLINE uint64_t rd_load(const uper_in *in, size_t byte)
{
	return be64_load(in->buf + byte);
}

/* n <= 32 bits at pos, no bounds check against end (the caller made it). */
static RD_INLINE uint32_t rd_peek(const uper_in *in, unsigned n)
{
	if (n == 0)
		return 0;
	return (uint32_t)((rd_load(in, in->pos >> 3) << (in->pos & 7)) >> (64 - n));
}

/* n <= 32 bits, or -1 when fewer are left (asn1c per_get_few_bits). */
static RD_INLINE int64_t rd_get(uper_in *in, unsigned n)
{
	if (n > uin_left(in))
		return -1;
	uint32_t v = rd_peek(in, n);
	in->pos += n;
	return v;
}

#endif
