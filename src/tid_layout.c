/*
 * Termination IDs between the text and binary forms (RFC 3525 A.1), after
 * the convention of Erlang megaco that the reference vectors follow: a text
 * ID is one '0'/'1' string per layout level, joined by '/', most significant
 * level first; "ROOT" is eight 0xFF octets. A level may end in a wildcard
 * ('*' ALL, '$' CHOOSE) after some of its bits; levels after a wildcarded
 * last level may be left out. Each wildcard becomes one octet:
 *   bit 7: 1 = ALL, 0 = CHOOSE
 *   bit 6: 1 = the wildcard also covers every bit after it (recursive)
 *   bits 5..0: position of the first wildcarded bit, counted from the
 *              least significant bit of the id octets.
 * The wildcard in the last level written is recursive when layout levels
 * follow it and plain when it sits in the layout's last level; a wildcard
 * in an earlier level covers only the rest of that level. Wildcarded and
 * left-out bits are zero in the id octets.
 */
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "registry.h"
#include "tid_layout.h"

static const megaco_tid_layout default_layout = { .nlevels = 3, .total_bits = 24,
                                                  .bits = { 8, 8, 8 } };

const megaco_tid_layout *tid_layout_or_default(const megaco_tid_layout *l)
{
	return l ? l : &default_layout;
}

int megaco_tid_layout_new(const unsigned *bits, size_t nlevels, const megaco_allocator *al,
                          megaco_tid_layout **out)
{
	if (!bits || !out || nlevels == 0 || nlevels > MEGACO_TID_MAX_LEVELS)
		return MEGACO_ERR_INVALID_ARGUMENT;
	unsigned total = 0;
	for (size_t i = 0; i < nlevels; i++) {
		if (bits[i] == 0 || bits[i] > 64)
			return MEGACO_ERR_INVALID_ARGUMENT;
		total += bits[i];
	}
	if (total % 8 || total > 64)
		return MEGACO_ERR_INVALID_ARGUMENT;
	if (!al)
		al = &megaco_default_allocator;
	megaco_tid_layout *l = al->alloc(al->user_data, sizeof *l);
	if (!l)
		return MEGACO_ERR_NOMEM;
	*l = (megaco_tid_layout){ .al = al, .nlevels = (unsigned)nlevels, .total_bits = total };
	for (size_t i = 0; i < nlevels; i++)
		l->bits[i] = (uint8_t)bits[i];
	*out = l;
	return MEGACO_OK;
}

void megaco_tid_layout_free(megaco_tid_layout *layout)
{
	if (layout)
		layout->al->free(layout->al->user_data, layout);
}

static const uint8_t root_id[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

int tid_text_to_binary(const megaco_tid_layout *l, const char *text, size_t len,
                       uint8_t id[MEGACO_TID_MAX_OCTETS], size_t *id_len, uint8_t *wild,
                       size_t wild_cap, size_t *nwild)
{
	*nwild = 0;
	if (len == 4 && strncasecmp(text, "ROOT", 4) == 0) {
		memcpy(id, root_id, 8);
		*id_len = 8;
		return MEGACO_OK;
	}
	struct { unsigned level, prefix; uint8_t all; } wc[MEGACO_TID_MAX_LEVELS];
	unsigned nwc = 0, level = 0, start = 0;
	uint64_t acc = 0;
	int last_wild = 0;
	size_t i = 0;
	for (;;) {
		if (level >= l->nlevels)
			return MEGACO_ERR_UNKNOWN_NAME; /* more levels than the layout */
		unsigned b = l->bits[level], p = 0;
		for (; i < len && (text[i] == '0' || text[i] == '1'); i++, p++) {
			if (p >= b)
				return MEGACO_ERR_UNKNOWN_NAME;
			if (text[i] == '1')
				acc |= (uint64_t)1 << (l->total_bits - 1 - (start + p));
		}
		last_wild = 0;
		if (i < len && (text[i] == '*' || text[i] == '$')) {
			if (p >= b)
				return MEGACO_ERR_UNKNOWN_NAME;
			wc[nwc].level = level;
			wc[nwc].prefix = p;
			wc[nwc].all = text[i] == '*';
			nwc++;
			last_wild = 1;
			i++;
		} else if (p != b) {
			return MEGACO_ERR_UNKNOWN_NAME; /* short level or a stray character */
		}
		start += b;
		level++;
		if (i == len)
			break;
		if (text[i] != '/')
			return MEGACO_ERR_UNKNOWN_NAME;
		i++;
	}
	if (level < l->nlevels && !last_wild)
		return MEGACO_ERR_UNKNOWN_NAME; /* levels left out without a wildcard */
	if (nwc > wild_cap)
		return MEGACO_ERR_UNKNOWN_NAME;
	for (unsigned w = 0; w < nwc; w++) {
		unsigned after = 0; /* bits of the layout levels after this one */
		for (unsigned j = wc[w].level + 1; j < l->nlevels; j++)
			after += l->bits[j];
		unsigned pos = l->bits[wc[w].level] - wc[w].prefix - 1 + after;
		uint8_t o = (uint8_t)((wc[w].all ? 0x80 : 0x00) | pos);
		if (wc[w].level == level - 1 && after > 0)
			o |= 0x40;
		wild[w] = o;
	}
	*nwild = nwc;
	*id_len = l->total_bits / 8;
	for (size_t k = 0; k < *id_len; k++)
		id[k] = (uint8_t)(acc >> (l->total_bits - 8 * (k + 1)));
	return MEGACO_OK;
}

int tid_binary_to_text(const megaco_tid_layout *l, const uint8_t *id, size_t id_len,
                       const uint8_t *wild, size_t nwild, char *buf, size_t *out_len)
{
	if (nwild == 0 && id_len == 8 && !memcmp(id, root_id, 8)) {
		memcpy(buf, "ROOT", 5);
		*out_len = 4;
		return MEGACO_OK;
	}
	if (id_len * 8 != l->total_bits || nwild > l->nlevels)
		return MEGACO_ERR_UNKNOWN_NAME;
	uint64_t acc = 0;
	for (size_t k = 0; k < id_len; k++)
		acc = acc << 8 | id[k];
	int cut[MEGACO_TID_MAX_LEVELS];
	char type[MEGACO_TID_MAX_LEVELS];
	unsigned keep = l->nlevels;
	for (unsigned j = 0; j < l->nlevels; j++)
		cut[j] = -1;
	for (size_t w = 0; w < nwild; w++) {
		unsigned pos = wild[w] & 0x3F;
		if (pos >= l->total_bits)
			return MEGACO_ERR_UNKNOWN_NAME;
		unsigned off = l->total_bits - 1 - pos, start = 0, j = 0;
		while (off >= start + l->bits[j])
			start += l->bits[j++];
		if (cut[j] >= 0)
			return MEGACO_ERR_UNKNOWN_NAME;
		cut[j] = (int)(off - start);
		type[j] = (wild[w] & 0x80) ? '*' : '$';
		if ((wild[w] & 0x40) && j + 1 < keep)
			keep = j + 1;
	}
	size_t n = 0;
	unsigned start = 0;
	for (unsigned j = 0; j < keep; j++) {
		if (j)
			buf[n++] = '/';
		unsigned upto = cut[j] >= 0 ? (unsigned)cut[j] : l->bits[j];
		for (unsigned q = 0; q < upto; q++)
			buf[n++] = (acc >> (l->total_bits - 1 - (start + q)) & 1) ? '1' : '0';
		if (cut[j] >= 0)
			buf[n++] = type[j];
		start += l->bits[j];
	}
	buf[n] = '\0';
	/* Accept only what maps back to the very same octets. */
	uint8_t id2[MEGACO_TID_MAX_OCTETS], wild2[MEGACO_TID_MAX_LEVELS];
	size_t id2_len, nwild2;
	if (tid_text_to_binary(l, buf, n, id2, &id2_len, wild2, sizeof wild2, &nwild2) != MEGACO_OK ||
	    id2_len != id_len || nwild2 != nwild || memcmp(id2, id, id_len) ||
	    (nwild && memcmp(wild2, wild, nwild)))
		return MEGACO_ERR_UNKNOWN_NAME;
	*out_len = n;
	return MEGACO_OK;
}

int megaco_tid_to_binary(const megaco_tid_layout *layout, const char *text, size_t len,
                         uint8_t id[MEGACO_TID_MAX_OCTETS], size_t *id_len, uint8_t *wild,
                         size_t wild_cap, size_t *nwild)
{
	if (!text || !id || !id_len || !nwild || (!wild && wild_cap))
		return MEGACO_ERR_INVALID_ARGUMENT;
	return tid_text_to_binary(tid_layout_or_default(layout), text, len, id, id_len, wild,
	                          wild_cap, nwild);
}

int megaco_tid_to_text(const megaco_tid_layout *layout, const uint8_t *id, size_t id_len,
                       const uint8_t *wild, size_t nwild, char *buf, size_t cap, size_t *out_len)
{
	if ((!id && id_len) || (!wild && nwild) || (!buf && cap) || !out_len)
		return MEGACO_ERR_INVALID_ARGUMENT;
	char tmp[TID_TEXT_MAX];
	size_t n;
	int rc = tid_binary_to_text(tid_layout_or_default(layout), id, id_len, wild, nwild, tmp, &n);
	return rc != MEGACO_OK ? rc : name_copy_out(tmp, n, buf, cap, out_len);
}
