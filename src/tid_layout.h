/*
 * Termination-ID layouts: text IDs of '0'/'1' levels <-> binary octets plus
 * RFC 3525 A.1 wildcard octets. name_convert.c uses these on every
 * TerminationID of a message; the public megaco_tid_* API wraps them.
 */
#ifndef MEGACO_TID_LAYOUT_H
#define MEGACO_TID_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "megaco/names.h"

struct megaco_tid_layout {
	const megaco_allocator *al;              /* NULL in the default layout: never freed */
	unsigned nlevels;
	unsigned total_bits;                     /* multiple of 8, 8..64 */
	uint8_t bits[MEGACO_TID_MAX_LEVELS];
};

/* Longest text of a mappable ID: 64 bits, 63 slashes, NUL. */
#define TID_TEXT_MAX 160

/* The layout options point to, or the default 8/8/8. */
const megaco_tid_layout *tid_layout_or_default(const megaco_tid_layout *l);

int tid_text_to_binary(const megaco_tid_layout *l, const char *text, size_t len,
                       uint8_t id[MEGACO_TID_MAX_OCTETS], size_t *id_len, uint8_t *wild,
                       size_t wild_cap, size_t *nwild);
/* buf holds TID_TEXT_MAX bytes; *out_len gets the length (NUL-terminated). */
int tid_binary_to_text(const megaco_tid_layout *l, const uint8_t *id, size_t id_len,
                       const uint8_t *wild, size_t nwild, char *buf, size_t *out_len);

#endif
