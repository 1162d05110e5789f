/*
 * Encoding and version sniffing from the first bytes of a buffer, without
 * decoding: text starts with a MEGACO/ or !/ header (after white space and
 * comments), BER with a SEQUENCE whose length fits, aligned PER with a header
 * that reads as such up to its first transaction, unaligned PER with the bits
 * of a version 1..3 header. What is none of these but starts with printable
 * octets is text with a bad header (the text decoder then says where); the
 * rest is not a Megaco message at all.
 */
#include <string.h>

#include "internal.h"

static size_t skip_lwsp(const unsigned char *p, size_t len, size_t i)
{
	while (i < len) {
		if (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n') {
			i++;
		} else if (p[i] == ';') {
			while (i < len && p[i] != '\r' && p[i] != '\n')
				i++;
		} else {
			break;
		}
	}
	return i;
}

/*
 * Whether p[i..] starts with word (upper-case ASCII), in any case. Not
 * strncasecmp or toupper(), calls into libc, and in line: this runs for
 * every message, and with the word a constant each byte is a compare or two.
 */
static inline __attribute__((always_inline)) int prefix_ci(const unsigned char *p, size_t len,
                                                           size_t i, const char *word)
{
	size_t n = strlen(word);
	if (len - i < n)
		return 0;
	for (size_t k = 0; k < n; k++) {
		unsigned char w = (unsigned char)word[k], c = p[i + k];
		if (w >= 'A' && w <= 'Z' ? (c | 0x20) != (w | 0x20) : c != w)
			return 0;
	}
	return 1;
}

static int read_text_version(const unsigned char *p, size_t len, size_t i)
{
	int v = 0;
	for (int n = 0; n < 3 && i < len && (unsigned)(p[i] - '0') < 10; n++, i++)
		v = v * 10 + (p[i] - '0');
	return v;
}

/* Finds the MEGACO/ or !/ token, skipping an authentication header. */
static int detect_text(const unsigned char *p, size_t len, megaco_encoding *enc, int *version)
{
	size_t i = skip_lwsp(p, len, 0);
	if (prefix_ci(p, len, i, "AU")) { /* AuthToken: "Authentication" or its short form */
		/* AuthenticationHeader = AuthToken EQUAL SecurityParmIndex COLON ... LWSP */
		size_t j = i;
		while (j < len && p[j] != '\n' && !prefix_ci(p, len, j, "MEGACO/") && p[j] != '!')
			j++;
		i = skip_lwsp(p, len, j);
	}
	int compact = prefix_ci(p, len, i, "!/");
	if (!compact && !prefix_ci(p, len, i, "MEGACO/"))
		return 0;
	*enc = compact ? MEGACO_ENC_COMPACT : MEGACO_ENC_PRETTY;
	*version = read_text_version(p, len, i + (compact ? 2 : 7));
	return 1;
}

/* BER: 30 len [A0 auth] A1 len 80 01 version ... */
static int detect_ber(const unsigned char *p, size_t len, int *version)
{
	if (p[0] != 0x30)
		return 0;
	*version = 0;
	if (len < 2)
		return 1; /* a lone SEQUENCE tag: the decoder says truncated */
	size_t i = 1, body;
	if (p[i] < 0x80) {
		body = p[i++];
	} else if (p[i] == 0x80) {
		body = len - 2; /* indefinite: accept, trust the decoder */
		i++;
	} else {
		unsigned n = p[i++] & 0x7f;
		if (n > 4 || len - i < n)
			return 0;
		body = 0;
		while (n--)
			body = (body << 8) | p[i++];
	}
	/*
	 * Fits, not equals: BER followed by stray bytes is still BER, and its
	 * decoder reports TRAILING_DATA at the right offset. Valid PER cannot
	 * start with 0x30 (that would be version 96+ without authHeader).
	 */
	if (body > len - i)
		return 0;
	/* Best effort: step over the optional [0] authHeader to read the version. */
	if (i + 1 < len && p[i] == 0xA0 && p[i + 1] < 0x80)
		i += 2 + p[i + 1];
	if (i + 1 < len && p[i] == 0xA1) {
		i += (p[i + 1] < 0x80) ? 2 : 2 + (p[i + 1] & 0x7f);
		if (i + 2 < len && p[i] == 0x80 && p[i + 1] == 0x01)
			*version = p[i + 2];
	}
	return 1;
}

/* Bits of the buffer, most significant first; a read past its end clears ok. */
typedef struct {
	const unsigned char *p;
	size_t len, bit;
	int ok;
} bitcur;

static unsigned take(bitcur *c, unsigned n)
{
	unsigned v = 0;
	for (unsigned k = 0; k < n; k++, c->bit++) {
		if (c->bit / 8 >= c->len) {
			c->ok = 0;
			return 0;
		}
		v = (v << 1) | ((c->p[c->bit / 8] >> (7 - c->bit % 8)) & 1u);
	}
	return v;
}

/*
 * Plausible UPER: the presence bit of authHeader (then its fixed 4+4
 * octets, a 5-bit length 12..32 and the data), Message's extension bit and
 * the version as 7 bits. Without an authHeader the first octet holds the
 * presence bit, the extension bit and the top six bits of the version, so
 * it is 0x00 or 0x01 for versions up to 3 (a bad version is left to the
 * decoder to name). With one it starts with a 1 bit; then the version must
 * be 1..3, or the buffer must end before it (the decoder says truncated).
 */
static int plausible_per(const unsigned char *p, size_t len, int *version)
{
	bitcur c = { p, len, 0, 1 };
	if (take(&c, 1)) {
		c.bit += 64;
		size_t adlen = take(&c, 5) + 12;
		c.bit += 8 * adlen;
	}
	c.bit++; /* Message's extension bit */
	unsigned v = take(&c, 7);
	*version = c.ok ? (int)v : 0;
	if (p[0] <= 0x01)
		return 1;
	if (!(p[0] & 0x80))
		return 0;
	return (*version >= 1 && *version <= 3) || !c.ok;
}

/*
 * X.691 ALIGNED reading of the header, up to the first transaction. The
 * first bits are those of UPER; what tells the variants apart is the
 * padding: APER pads to an octet boundary before the MId's octets, before
 * lengths and before octet-aligned numbers, and pads with zeros. Every
 * padding bit must be zero and every field inside the buffer; a header cut
 * short is not claimed (the UPER guess then stands).
 */
static void pad(bitcur *c)
{
	if (c->bit % 8 && take(c, 8 - (unsigned)(c->bit % 8)) != 0)
		c->ok = 0;
}

/* n whole octets from an octet boundary; IA5 text (ia5) has no octet above 0x7F. */
static void octets(bitcur *c, size_t n, int ia5)
{
	pad(c);
	if (!c->ok || n > c->len - c->bit / 8) {
		c->ok = 0;
		return;
	}
	for (size_t i = 0; ia5 && i < n; i++)
		if (c->p[c->bit / 8 + i] > 0x7F)
			c->ok = 0;
	c->bit += 8 * n;
}

/* An unconstrained length determinant (10.9.3.5-7); fragments are not expected here. */
static size_t length(bitcur *c)
{
	pad(c);
	unsigned first = take(c, 8);
	if (first < 0x80)
		return first;
	if (first >= 0xC0) {
		c->ok = 0;
		return 0;
	}
	return ((size_t)(first & 0x3F) << 8) | take(c, 8);
}

static int aper_header(const unsigned char *p, size_t len, int *version)
{
	bitcur c = { p, len, 0, 1 };
	int auth = (int)take(&c, 1);
	if (auth) {                 /* authHeader: SIZE(4), SIZE(4), SIZE(12..32) */
		octets(&c, 8, 0);
		size_t adlen = take(&c, 5) + 12;
		octets(&c, adlen, 0);
	}
	take(&c, 1);                /* Message's extension bit */
	unsigned v = take(&c, 7);
	/* As for UPER: past an authHeader only a known version makes it Megaco. */
	if ((auth && (v < 1 || v > 3)) || take(&c, 1)) /* MId from a later version */
		return 0;
	unsigned mid = take(&c, 3), alt;
	switch (mid) {
	case 0:                     /* ip4Address, ip6Address, domainName: port?, address, port */
	case 1:
	case 2: {
		int port = (int)take(&c, 1);
		if (mid == 2)
			octets(&c, length(&c), 1); /* an IA5String */
		else
			octets(&c, mid ? 16 : 4, 0);
		if (port)
			octets(&c, 2, 0);
		break;
	}
	case 3:                     /* deviceName: IA5String (SIZE(1..64)) */
		octets(&c, take(&c, 6) + 1, 1);
		break;
	case 4:                     /* mtpAddress: OCTET STRING (SIZE(2..4)) */
		octets(&c, take(&c, 2) + 2, 0);
		break;
	default:
		return 0;
	}
	if (take(&c, 1)) {          /* transactions: count, then the first one's header */
		if (length(&c) > 0) {
			if (take(&c, 1))    /* an extension alternative: its normally small index */
				take(&c, 7);
			else if ((alt = take(&c, 2)) < 3) /* request, pending, reply: extension */
				take(&c, alt == 2 ? 4 : 3); /* bit, immAckRequired?, ID length */
			pad(&c);            /* responseAck's count, an ID or an open type next */
		}
	} else {                    /* messageError: errorText?, errorCode */
		take(&c, 1);
		octets(&c, 2, 0);
	}
	if (!c.ok)
		return 0;
	*version = (int)v;
	return 1;
}

/* Text-like: the first octets (up to 8) are printable ASCII or line space. */
static int looks_like_text(const unsigned char *p, size_t len)
{
	size_t n = len < 8 ? len : 8;
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= 0x20 && p[i] < 0x7F) || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
			return 0;
	return 1;
}

/* Neither text nor BER: a PER variant, or text with a bad header; out of line (rare). */
static __attribute__((noinline)) int detect_other(const unsigned char *p, size_t len,
                                                  megaco_encoding *e, int *v)
{
	if (aper_header(p, len, v))
		*e = MEGACO_ENC_APER;
	else if (plausible_per(p, len, v))
		*e = MEGACO_ENC_PER;
	else if (looks_like_text(p, len))
		*e = MEGACO_ENC_PRETTY, *v = 0; /* a mistyped header: the text decoder says where */
	else
		return MEGACO_ERR_NOT_MEGACO;
	return MEGACO_OK;
}

int megaco_detect(const void *buf, size_t len, megaco_encoding *enc, int *version)
{
	megaco_encoding e = MEGACO_ENC_BER;
	int v = 0;
	if (!buf && len)
		return MEGACO_ERR_INVALID_ARGUMENT;
	if (len == 0)
		return MEGACO_ERR_TRUNCATED;
	const unsigned char *p = buf;
	/* Text cannot start with BER's 0x30 ('0': no header, space or comment starts so). */
	if (p[0] == 0x30 ? !detect_ber(p, len, &v) : !detect_text(p, len, &e, &v)) {
		int rc = detect_other(p, len, &e, &v);
		if (rc != MEGACO_OK)
			return rc;
	}
	if (enc)
		*enc = e;
	if (version)
		*version = v;
	return MEGACO_OK;
}
