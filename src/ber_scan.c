/*
 * Structural pass over BER input before asn1c decodes it: every tag and
 * length is read once, without allocating, so that truncation, impossible
 * lengths, bad tags, excessive nesting and trailing bytes get their own error
 * code and the byte offset where they occur. asn1c alone reports most of
 * these as a bare "failed" or "want more".
 */
#include "internal.h"

typedef struct {
	size_t end;      /* definite: offset just past the contents; else the parent's */
	int indefinite;  /* closed by 00 00 rather than by reaching end */
	/*
	 * end was fixed by a definite length (this value's or an ancestor's):
	 * everything up to end is present, so overrunning it is a length error,
	 * not truncation, even when end happens to be the end of the input.
	 */
	int bounded;
} frame;

/* Reads one identifier octet sequence; returns 0 or an error code. */
static int read_tag(const unsigned char *buf, size_t limit, size_t *pos, int *constructed,
                    int *eoc, megaco_error *err)
{
	size_t p = *pos;
	if (p >= limit)
		return set_error(err, MEGACO_ERR_TRUNCATED, p, "input ends where a tag was expected");
	unsigned char first = buf[p++];
	*constructed = (first & 0x20) != 0;
	*eoc = first == 0;
	if ((first & 0x1f) == 0x1f) {
		/* High tag number: base-128, at most 4 octets (28 bits) here. */
		for (int n = 0;; n++) {
			if (p >= limit)
				return set_error(err, MEGACO_ERR_TRUNCATED, p, "input ends inside a tag");
			unsigned char b = buf[p++];
			if (n == 0 && b == 0x80)
				return set_error(err, MEGACO_ERR_BAD_TAG, p - 1,
				                 "tag number with a leading zero octet");
			if (!(b & 0x80))
				break;
			if (n == 3)
				return set_error(err, MEGACO_ERR_BAD_TAG, *pos, "tag number too large");
		}
	}
	*pos = p;
	return MEGACO_OK;
}

static int read_length(const unsigned char *buf, size_t limit, size_t *pos, size_t *len,
                       int *indefinite, megaco_error *err)
{
	size_t p = *pos;
	if (p >= limit)
		return set_error(err, MEGACO_ERR_TRUNCATED, p, "input ends where a length was expected");
	unsigned char b = buf[p++];
	*indefinite = 0;
	if (b < 0x80) {
		*len = b;
	} else if (b == 0x80) {
		*indefinite = 1;
		*len = 0;
	} else if (b == 0xff) {
		return set_error(err, MEGACO_ERR_BAD_LENGTH, p - 1, "reserved length octet 0xFF");
	} else {
		unsigned n = b & 0x7f;
		if (n > 4)
			return set_error(err, MEGACO_ERR_BAD_LENGTH, p - 1,
			                 "length in %u octets: more than any message can need", n);
		size_t v = 0;
		for (unsigned i = 0; i < n; i++) {
			if (p >= limit)
				return set_error(err, MEGACO_ERR_TRUNCATED, p, "input ends inside a length");
			v = (v << 8) | buf[p++];
		}
		*len = v;
	}
	*pos = p;
	return MEGACO_OK;
}

int ber_scan(const unsigned char *buf, size_t len, unsigned max_depth, size_t max_size,
             megaco_error *err)
{
	frame stack[MEGACO_DEPTH_CEILING];
	unsigned depth = 0;
	size_t pos = 0;
	if (max_depth > MEGACO_DEPTH_CEILING)
		max_depth = MEGACO_DEPTH_CEILING;

	if (len == 0)
		return set_error(err, MEGACO_ERR_TRUNCATED, 0, "empty input");
	for (;;) {
		/* Close finished containers. */
		while (depth > 0) {
			frame *f = &stack[depth - 1];
			if (f->indefinite) {
				if (pos + 1 < f->end && buf[pos] == 0 && buf[pos + 1] == 0) {
					pos += 2;
					depth--;
					continue;
				}
				if (pos >= f->end) {
					if (f->bounded)
						return set_error(err, MEGACO_ERR_BAD_LENGTH, pos,
						                 "indefinite-length value runs past its container");
					return set_error(err, MEGACO_ERR_TRUNCATED, pos,
					                 "input ends inside an indefinite-length value");
				}
			} else if (pos == f->end) {
				depth--;
				continue;
			}
			break;
		}
		if (depth == 0 && pos > 0) {
			if (pos < len)
				return set_error(err, MEGACO_ERR_TRAILING_DATA, pos,
				                 "%zu bytes after the end of the message", len - pos);
			return MEGACO_OK;
		}

		size_t limit = depth ? stack[depth - 1].end : len;
		int bounded = depth && stack[depth - 1].bounded;
		size_t start = pos;
		int constructed = 0, eoc = 0, indefinite = 0;
		size_t vlen = 0;
		int rc = read_tag(buf, limit, &pos, &constructed, &eoc, err);
		if (rc == MEGACO_OK)
			rc = read_length(buf, limit, &pos, &vlen, &indefinite, err);
		if (rc != MEGACO_OK) {
			/* Running out inside a definite container is its length's fault. */
			if (rc == MEGACO_ERR_TRUNCATED && bounded)
				return set_error(err, MEGACO_ERR_BAD_LENGTH, start,
				                 "value runs past the end of its container");
			return rc;
		}
		if (eoc)
			return set_error(err, MEGACO_ERR_BAD_TAG, start,
			                 "end-of-contents outside an indefinite-length value");
		if (indefinite && !constructed)
			return set_error(err, MEGACO_ERR_BAD_LENGTH, start,
			                 "indefinite length on a primitive value");
		if (!indefinite) {
			if (depth == 0 && vlen > max_size)
				return set_error(err, MEGACO_ERR_BAD_LENGTH, start,
				                 "length %zu exceeds the maximum message size %zu", vlen,
				                 max_size);
			if (vlen > limit - pos) {
				if (bounded)
					return set_error(err, MEGACO_ERR_BAD_LENGTH, start,
					                 "length %zu runs past the end of its container", vlen);
				return set_error(err, MEGACO_ERR_TRUNCATED, len,
				                 "input ends %zu bytes before the value that starts at %zu",
				                 vlen - (limit - pos), start);
			}
		}
		if (constructed) {
			if (depth >= max_depth)
				return set_error(err, MEGACO_ERR_TOO_DEEP, start,
				                 "nesting deeper than %u levels", max_depth);
			stack[depth].indefinite = indefinite;
			stack[depth].end = indefinite ? limit : pos + vlen;
			stack[depth].bounded = !indefinite || bounded;
			depth++;
		} else {
			pos += vlen;
		}
	}
}
