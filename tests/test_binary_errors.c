/*
 * Bad binary input: a table of inputs (literal bytes, or a corpus message
 * with one mutation) and the exact error each must give, plus sweeps over the
 * whole corpus (truncation at every byte, every single-bit flip, the depth
 * limit). Every failing decode must fill megaco_error consistently and leave
 * *out untouched; run under ASan (MEGACO_SANITIZE) for the "never a crash or
 * leak" half of the bit-flip sweep.
 *
 * What holds for truncation:
 * - BER: any strict prefix of a message is MEGACO_ERR_TRUNCATED. The outer
 *   SEQUENCE's definite length no longer fits, and ber_scan reports that
 *   before looking inside.
 * - PER (UNALIGNED): also always MEGACO_ERR_TRUNCATED, for a reason worth
 *   writing down since UPER carries no outer length: decoding is
 *   deterministic, so on a prefix the decoder reads exactly the bits it read
 *   on the whole message until it wants one past the end; and a canonical
 *   UPER encoding is the minimum number of octets, so its last octet holds at
 *   least one significant bit. Hence every strict prefix runs out of bits
 *   (asn1c's RC_WMORE) and can never decode as some other, shorter message.
 *   The sweep asserts this for all 149 vectors.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static corpus *C;

#define BER MEGACO_ENC_BER
#define PER MEGACO_ENC_PER
#define AUTO MEGACO_ENC_AUTO
#define ANY_OFFSET ((size_t)-1)
#define END_OFFSET ((size_t)-2) /* the length of the (mutated) input */
#define TAIL_OFFSET ((size_t)-3) /* where MUT_APPEND's bytes start */

/* ---- a small BER walker, the test's own oracle ----------------------------- */

typedef struct {
	size_t start, hdr, len; /* TLV at start, contents at start+hdr, len octets */
	int constructed;
} tlv;

/* Definite lengths only (the corpus is DER). Returns 0 on success. */
static int tlv_at(const unsigned char *b, size_t n, size_t pos, tlv *t)
{
	size_t p = pos;
	if (p >= n)
		return -1;
	t->start = pos;
	t->constructed = (b[p] & 0x20) != 0;
	if ((b[p++] & 0x1f) == 0x1f)
		while (p < n && (b[p++] & 0x80))
			;
	if (p >= n)
		return -1;
	size_t len = b[p++];
	if (len & 0x80) {
		unsigned k = len & 0x7f;
		if (k == 0 || k > 4)
			return -1;
		len = 0;
		while (k--) {
			if (p >= n)
				return -1;
			len = (len << 8) | b[p++];
		}
	}
	t->hdr = p - pos;
	t->len = len;
	return p + len <= n ? 0 : -1;
}

/* Deepest nesting of constructed TLVs (the outer SEQUENCE is 1). */
static unsigned ber_depth(const unsigned char *b, size_t from, size_t to)
{
	unsigned best = 0;
	tlv t;
	for (size_t p = from; p < to && tlv_at(b, to, p, &t) == 0; p = t.start + t.hdr + t.len) {
		if (t.constructed) {
			unsigned d = 1 + ber_depth(b, t.start + t.hdr, t.start + t.hdr + t.len);
			if (d > best)
				best = d;
		}
	}
	return best;
}

/* The innermost last TLV of the message (it ends where every container ends). */
static int last_value(const unsigned char *b, size_t from, size_t to, tlv *out)
{
	tlv t, last = { 0, 0, 0, 0 };
	int found = 0;
	for (size_t p = from; p < to && tlv_at(b, to, p, &t) == 0; p = t.start + t.hdr + t.len) {
		last = t;
		found = 1;
	}
	if (!found)
		return -1;
	if (!last.constructed || last.len == 0 ||
	    last_value(b, last.start + last.hdr, last.start + last.hdr + last.len, out) != 0)
		*out = last;
	return 0;
}

/* Offset of Message.version's content octet: 30 L [A0 auth] A1 L 80 01 v. */
static size_t ber_version_offset(const unsigned char *b, size_t n)
{
	tlv top, t;
	assert_int_equal(tlv_at(b, n, 0, &top), 0);
	size_t p = top.hdr;
	assert_int_equal(tlv_at(b, n, p, &t), 0);
	if (b[p] == 0xA0) {
		p += t.hdr + t.len;
		assert_int_equal(tlv_at(b, n, p, &t), 0);
	}
	assert_int_equal(b[p], 0xA1);
	p += t.hdr;
	assert_int_equal(b[p], 0x80);
	assert_int_equal(b[p + 1], 0x01);
	return p + 2;
}

/*
 * UPER: MegacoMessage's authHeader presence bit (0 in the corpus), then
 * Message's extension bit, then version as INTEGER(0..99) in 7 bits.
 */
static void per_set_version(unsigned char *b, unsigned v)
{
	assert_int_equal(b[0] & 0x80, 0);
	unsigned bits = ((unsigned)b[0] << 8 | b[1]) & ~(0x7fu << 7);
	bits |= (v & 0x7f) << 7;
	b[0] = (unsigned char)(bits >> 8);
	b[1] = (unsigned char)bits;
}

static unsigned per_get_version(const unsigned char *b)
{
	return (((unsigned)b[0] << 8 | b[1]) >> 7) & 0x7f;
}

/* ---- the decode every case goes through --------------------------------- */

static megaco_message *const SENTINEL = (megaco_message *)&C;

/*
 * Decodes and checks the error contract: same code returned and recorded, a
 * non-empty message, an offset within the input, *out untouched; the same
 * call with err == NULL gives the same code. Returns the status; on success
 * *out_msg gets the message (or it is freed when out_msg is NULL).
 */
static int decode_checked(const char *what, megaco_encoding enc, const unsigned char *buf,
                          size_t len, const megaco_options *o, megaco_message **out_msg,
                          megaco_error *err_out)
{
	megaco_message *m = SENTINEL;
	megaco_error err;
	memset(&err, 0x5a, sizeof err);
	int rc = megaco_decode(enc, buf, len, o, &m, &err);
	if (rc == MEGACO_OK) {
		if (m == SENTINEL || m == NULL)
			fail_msg("%s: success without a message", what);
		if (err.code != MEGACO_OK)
			fail_msg("%s: success but err.code %d", what, err.code);
		if (out_msg)
			*out_msg = m;
		else
			megaco_message_free(m);
	} else {
		if (rc > 0 || rc < MEGACO_ERR_NOT_MEGACO)
			fail_msg("%s: status %d is not a megaco_status", what, rc);
		if (rc == MEGACO_ERR_INTERNAL || rc == MEGACO_ERR_INVALID_ARGUMENT)
			fail_msg("%s: %s: %s", what, megaco_strerror(rc), err.message);
		if (m != SENTINEL)
			fail_msg("%s: *out changed on failure (%s)", what, megaco_strerror(rc));
		if (err.code != rc)
			fail_msg("%s: returned %d but err.code is %d", what, rc, err.code);
		if (err.message[0] == '\0' || !memchr(err.message, '\0', sizeof err.message))
			fail_msg("%s: empty or unterminated error message", what);
		if (err.offset > len && !(rc == MEGACO_ERR_TOO_LARGE && o))
			fail_msg("%s: error offset %zu beyond the %zu-byte input", what, err.offset, len);
		/* Auto-detection takes printable input for text, whose errors have a position. */
		megaco_encoding det = MEGACO_ENC_BER;
		int text = enc == AUTO && megaco_detect(buf, len, &det, NULL) == MEGACO_OK &&
		           (det == MEGACO_ENC_PRETTY || det == MEGACO_ENC_COMPACT);
		if (!text && (err.line != 0 || err.column != 0))
			fail_msg("%s: binary error with line/column %u:%u", what, err.line, err.column);
		if (text && (err.line == 0 || err.column == 0))
			fail_msg("%s: text error without line/column", what);
		int again = megaco_decode(enc, buf, len, o, &m, NULL);
		if (again != rc || m != SENTINEL)
			fail_msg("%s: with err == NULL got %d, not %d", what, again, rc);
	}
	if (err_out)
		*err_out = err;
	return rc;
}

/* ---- the table ----------------------------------------------------------- */

typedef enum {
	MUT_NONE,          /* the input as given */
	MUT_APPEND,        /* append bytes */
	MUT_PATCH,         /* bytes replace the input at offset arg */
	MUT_VERSION,       /* Message.version := arg */
	MUT_MESSAGE_TAG,   /* BER: the tag of MegacoMessage.mess := bytes */
	MUT_VERSION_TAG,   /* BER: the tag of Message.version := bytes */
	MUT_LAST_LEN,      /* the innermost last TLV's (short) length += arg */
	MUT_TOP_LEN,       /* the outer SEQUENCE's length += arg (same number of octets) */
	MUT_NEST_INDEF,    /* arg levels of 30 80 ... 00 00 */
	MUT_NEST_DEF,      /* arg levels of 30 len ..., innermost 30 00 */
} mutation;

typedef struct {
	const char *name;
	megaco_encoding enc;
	const char *msg;        /* corpus message (encoding enc, or BER for AUTO); NULL: literal */
	const char *bytes;      /* literal input, or the mutation's bytes */
	size_t nbytes;
	mutation mut;
	long arg;
	size_t max_size;        /* 0: default; SIZE_MAX-1: input length - 1 */
	unsigned max_depth;     /* 0: default */
	int expect;
	size_t offset;          /* ANY_OFFSET, END_OFFSET or exact */
} bad_input;

#define B(s) s, sizeof(s) - 1
#define NOB NULL, 0
#define LEN_MINUS_1 (SIZE_MAX - 1)

static const bad_input cases[] = {
	/* empty */
	{ "ber empty", BER, NULL, B(""), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED, 0 },
	{ "per empty", PER, NULL, B(""), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED, 0 },
	{ "auto empty", AUTO, NULL, B(""), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED, 0 },
	/* neither text nor BER nor PER (megaco_detect) */
	{ "auto control octets", AUTO, NULL, B("\x07\x08\x09\x0a"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_NOT_MEGACO, 0 },
	{ "auto not a SEQUENCE", AUTO, NULL, B("\x31\x05\xa1\x03\x80\x01\x02"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_NOT_MEGACO, 0 },
	{ "auto PER auth, version 9", AUTO, NULL,
	  B("\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	    "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	    "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"),
	  MUT_NONE, 0, 0, 0, MEGACO_ERR_NOT_MEGACO, 0 },
	{ "auto ELF header", AUTO, NULL, B("\x7f" "ELF\x02\x01\x01"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_NOT_MEGACO, 0 },
	/* text with a bad header is text: a syntax error, not PER */
	{ "auto mistyped MEGACO", AUTO, NULL, B("MEGCAO/1 [1.2.3.4]:55 T=1{C=-{}}"), MUT_NONE, 0, 0,
	  0, MEGACO_ERR_SYNTAX, ANY_OFFSET },
	{ "auto lower-case garbage", AUTO, NULL, B("hello"), MUT_NONE, 0, 0, 0, MEGACO_ERR_SYNTAX,
	  ANY_OFFSET },
	/* truncated headers */
	{ "ber tag only", BER, NULL, B("\x30"), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED, 1 },
	{ "ber inside long length", BER, NULL, B("\x30\x82\x01"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_TRUNCATED, 3 },
	{ "ber inside high tag", BER, NULL, B("\x3f\x81"), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED, 2 },
	{ "ber outer length +1", BER, "msg01a", NOB, MUT_TOP_LEN, 1, 0, 0, MEGACO_ERR_TRUNCATED,
	  END_OFFSET },
	{ "ber indefinite never closed", BER, NULL, B("\x30\x80\x04\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_TRUNCATED, 4 },
	/* BIT STRING initial octet (X.690 8.6.2.2): msg79a01 ends with auditToken 80 03 07 26 80 */
	{ "ber bit string 9 unused bits", BER, "msg79a01", B("\x09"), MUT_PATCH, 107, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	/* impossible lengths */
	{ "ber length 84 FFFFFFFF", BER, NULL, B("\x30\x84\xff\xff\xff\xff\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, 0 },
	{ "ber length 84 7FFFFFFF", BER, NULL, B("\x30\x84\x7f\xff\xff\xff\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, 0 },
	{ "ber length in 8 octets", BER, NULL, B("\x30\x88\x00\x00\x00\x00\x00\x00\x00\x01\x00"),
	  MUT_NONE, 0, 0, 0, MEGACO_ERR_BAD_LENGTH, 1 },
	{ "ber length octet FF", BER, NULL, B("\x30\xff\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, 1 },
	{ "ber inner 84 7FFFFFFF", BER, NULL, B("\x30\x06\x30\x84\x7f\xff\xff\xff"), MUT_NONE, 0, 0,
	  0, MEGACO_ERR_BAD_LENGTH, 2 },
	{ "ber inner length past container", BER, NULL, B("\x30\x03\x04\x05\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, 2 },
	{ "ber inner length past definite, in indefinite", BER, NULL,
	  B("\x30\x05\x30\x80\x04\x05\x00"), MUT_NONE, 0, 0, 0, MEGACO_ERR_BAD_LENGTH, 4 },
	{ "ber indefinite past definite container", BER, NULL, B("\x30\x04\x30\x80\x04\x00"),
	  MUT_NONE, 0, 0, 0, MEGACO_ERR_BAD_LENGTH, 6 },
	{ "ber last value's length +1", BER, "msg01a", NOB, MUT_LAST_LEN, 1, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, ANY_OFFSET },
	{ "ber last value's length +1 (v3)", BER, "msg81b03", NOB, MUT_LAST_LEN, 1, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, ANY_OFFSET },
	{ "ber outer length -1", BER, "msg01a", NOB, MUT_TOP_LEN, -1, 0, 0, MEGACO_ERR_BAD_LENGTH,
	  ANY_OFFSET },
	{ "ber indefinite primitive", BER, NULL, B("\x30\x80\x04\x80\x00\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_LENGTH, 2 },
	/* tags */
	{ "ber high tag, leading zero", BER, NULL, B("\x3f\x80\x01\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_TAG, 1 },
	{ "ber high tag over 28 bits", BER, NULL, B("\x3f\xff\xff\xff\xff\x01\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_TAG, 0 },
	{ "ber end-of-contents at top", BER, NULL, B("\x00\x00"), MUT_NONE, 0, 0, 0, MEGACO_ERR_BAD_TAG,
	  0 },
	{ "ber end-of-contents in definite", BER, NULL, B("\x30\x02\x00\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_BAD_TAG, 2 },
	/* well-formed TLVs that are not a MegacoMessage: asn1c's verdict */
	{ "ber SET instead of SEQUENCE", BER, "msg01a", B("\x31"), MUT_PATCH, 0, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "ber OCTET STRING at top", BER, NULL, B("\x04\x01\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "ber empty SEQUENCE", BER, NULL, B("\x30\x00"), MUT_NONE, 0, 0, 0, MEGACO_ERR_MALFORMED,
	  ANY_OFFSET },
	{ "ber Message tagged [2]", BER, "msg01a", B("\xa2"), MUT_MESSAGE_TAG, 0, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "ber version tagged [1]", BER, "msg01a", B("\x81"), MUT_VERSION_TAG, 0, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "per all ones", PER, NULL, B("\xff\xff\xff\xff"), MUT_NONE, 0, 0, 0, MEGACO_ERR_TRUNCATED,
	  4 },
	/* trailing data */
	{ "ber + 00", BER, "msg01a", B("\x00"), MUT_APPEND, 0, 0, 0, MEGACO_ERR_TRAILING_DATA,
	  TAIL_OFFSET },
	{ "ber + empty SEQUENCE", BER, "msg81b03", B("\x30\x00"), MUT_APPEND, 0, 0, 0,
	  MEGACO_ERR_TRAILING_DATA, TAIL_OFFSET },
	{ "per + FF", PER, "msg01a", B("\xff"), MUT_APPEND, 0, 0, 0, MEGACO_ERR_TRAILING_DATA,
	  TAIL_OFFSET },
	{ "per + 00 00", PER, "msg81b03", B("\x00\x00"), MUT_APPEND, 0, 0, 0, MEGACO_ERR_TRAILING_DATA,
	  TAIL_OFFSET },
	{ "auto ber + 00", AUTO, "msg01a", B("\x00"), MUT_APPEND, 0, 0, 0, MEGACO_ERR_TRAILING_DATA,
	  TAIL_OFFSET },
	/* nesting */
	{ "ber 10000 indefinite levels", BER, NULL, NOB, MUT_NEST_INDEF, 10000, 0, 0,
	  MEGACO_ERR_TOO_DEEP, 128 },
	{ "ber 10000 definite levels", BER, NULL, NOB, MUT_NEST_DEF, 10000, 0, 0, MEGACO_ERR_TOO_DEEP,
	  ANY_OFFSET },
	{ "ber 10000 levels, max_depth 10", BER, NULL, NOB, MUT_NEST_INDEF, 10000, 0, 10,
	  MEGACO_ERR_TOO_DEEP, 20 },
	{ "ber 10000 levels, max_depth UINT_MAX (ceiling)", BER, NULL, NOB, MUT_NEST_INDEF, 10000, 0,
	  UINT_MAX, MEGACO_ERR_TOO_DEEP, 2048 },
	{ "ber 500 levels within max_depth 600", BER, NULL, NOB, MUT_NEST_INDEF, 500, 0, 600,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "auto 10000 indefinite levels", AUTO, NULL, NOB, MUT_NEST_INDEF, 10000, 0, 0,
	  MEGACO_ERR_TOO_DEEP, 128 },
	/* protocol versions */
	{ "ber v4", BER, "msg01a", NOB, MUT_VERSION, 4, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "ber v99", BER, "msg81b03", NOB, MUT_VERSION, 99, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "ber v0", BER, "msg81b03", NOB, MUT_VERSION, 0, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "ber v-1", BER, "msg81b03", NOB, MUT_VERSION, 0xff, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "auto ber v4", AUTO, "msg81b03", NOB, MUT_VERSION, 4, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "per v4", PER, "msg01a", NOB, MUT_VERSION, 4, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "per v99", PER, "msg81b03", NOB, MUT_VERSION, 99, 0, 0, MEGACO_ERR_VERSION, 0 },
	{ "per v0", PER, "msg81b03", NOB, MUT_VERSION, 0, 0, 0, MEGACO_ERR_VERSION, 0 },
	/* asn1c does not check INTEGER(0..99) while decoding; the version gate does. */
	{ "per v127 (outside 0..99)", PER, "msg81b03", NOB, MUT_VERSION, 127, 0, 0, MEGACO_ERR_VERSION,
	  0 },
	/* mId (an extensible CHOICE) holding extension alternative 0, which the
	 * module does not have: refused, never a model with no alternative present. */
	{ "per unknown CHOICE extension", PER, NULL, B("\x01\xc0\x00\x80\x00"), MUT_NONE, 0, 0, 0,
	  MEGACO_ERR_MALFORMED, ANY_OFFSET },
	{ "per max_depth 3", PER, "msg01a", NOB, MUT_NONE, 0, 0, 3, MEGACO_ERR_TOO_DEEP, ANY_OFFSET },
	/* size limit */
	{ "ber over max_message_size", BER, "msg81b03", NOB, MUT_NONE, 0, LEN_MINUS_1, 0,
	  MEGACO_ERR_TOO_LARGE, ANY_OFFSET },
	{ "per over max_message_size", PER, "msg81b03", NOB, MUT_NONE, 0, LEN_MINUS_1, 0,
	  MEGACO_ERR_TOO_LARGE, ANY_OFFSET },
	{ "auto over max_message_size", AUTO, "msg81b03", NOB, MUT_NONE, 0, LEN_MINUS_1, 0,
	  MEGACO_ERR_TOO_LARGE, ANY_OFFSET },
	{ "ber 2 MiB default limit", BER, NULL, NOB, MUT_NEST_INDEF, 1 << 20, 0, 0,
	  MEGACO_ERR_TOO_LARGE, ANY_OFFSET },
	/* controls: the unmutated vectors decode */
	{ "ber as is", BER, "msg01a", NOB, MUT_NONE, 0, 0, 0, MEGACO_OK, 0 },
	{ "per as is", PER, "msg81b03", NOB, MUT_NONE, 0, 0, 0, MEGACO_OK, 0 },
	{ "ber at exactly max_message_size", BER, "msg81b03", NOB, MUT_NONE, 0, SIZE_MAX, 0, MEGACO_OK, 0 },
};

/* Builds the case's input into malloc'd memory. */
static unsigned char *build_input(const bad_input *c, size_t *len)
{
	unsigned char *b;
	size_t n = 0;
	megaco_encoding file_enc = c->enc == AUTO ? BER : c->enc;
	if (c->mut == MUT_NEST_INDEF) {
		n = 4 * (size_t)c->arg;
		b = malloc(n);
		for (long i = 0; i < c->arg; i++) {
			b[2 * i] = 0x30;
			b[2 * i + 1] = 0x80;
		}
		memset(b + 2 * c->arg, 0, 2 * (size_t)c->arg);
		*len = n;
		return b;
	}
	if (c->mut == MUT_NEST_DEF) {
		/* Built from the inside out, at the end of a generous buffer. */
		size_t cap = 8 * (size_t)c->arg + 2, start = cap - 2;
		b = malloc(cap);
		b[start] = 0x30;
		b[start + 1] = 0x00;
		for (long i = 1; i < c->arg; i++) {
			size_t inner = cap - start;
			unsigned char hdr[5];
			size_t h = 0;
			hdr[h++] = 0x30;
			if (inner < 0x80) {
				hdr[h++] = (unsigned char)inner;
			} else if (inner < 0x100) {
				hdr[h++] = 0x81;
				hdr[h++] = (unsigned char)inner;
			} else if (inner < 0x10000) {
				hdr[h++] = 0x82;
				hdr[h++] = (unsigned char)(inner >> 8);
				hdr[h++] = (unsigned char)inner;
			} else {
				hdr[h++] = 0x83;
				hdr[h++] = (unsigned char)(inner >> 16);
				hdr[h++] = (unsigned char)(inner >> 8);
				hdr[h++] = (unsigned char)inner;
			}
			start -= h;
			memcpy(b + start, hdr, h);
		}
		n = cap - start;
		memmove(b, b + start, n);
		*len = n;
		return b;
	}
	if (c->msg) {
		b = read_file(corpus_find(C, c->msg)->path[file_enc - 1], &n);
		assert_non_null(b);
	} else {
		b = malloc(c->nbytes + 1);
		memcpy(b, c->bytes, c->nbytes);
		n = c->nbytes;
	}
	switch (c->mut) {
	case MUT_APPEND:
		b = realloc(b, n + c->nbytes);
		memcpy(b + n, c->bytes, c->nbytes);
		n += c->nbytes;
		break;
	case MUT_PATCH:
		assert_true((size_t)c->arg + c->nbytes <= n);
		memcpy(b + c->arg, c->bytes, c->nbytes);
		break;
	case MUT_VERSION:
		if (file_enc == BER) {
			b[ber_version_offset(b, n)] = (unsigned char)c->arg;
		} else {
			per_set_version(b, (unsigned)c->arg);
			assert_int_equal(per_get_version(b), (unsigned)c->arg);
		}
		break;
	case MUT_MESSAGE_TAG: {
		tlv top;
		assert_int_equal(tlv_at(b, n, 0, &top), 0);
		assert_int_equal(b[top.hdr], 0xA1);
		b[top.hdr] = (unsigned char)c->bytes[0];
		break;
	}
	case MUT_VERSION_TAG:
		b[ber_version_offset(b, n) - 2] = (unsigned char)c->bytes[0];
		break;
	case MUT_LAST_LEN: {
		tlv top, last = { 0, 0, 0, 0 };
		assert_int_equal(tlv_at(b, n, 0, &top), 0);
		assert_int_equal(last_value(b, top.hdr, n, &last), 0);
		assert_true(last.hdr == 2 && last.len + (size_t)c->arg < 0x80);
		b[last.start + 1] = (unsigned char)(b[last.start + 1] + c->arg);
		break;
	}
	case MUT_TOP_LEN: {
		tlv top;
		assert_int_equal(tlv_at(b, n, 0, &top), 0);
		/* The long form's last octet; the corpus messages are over 127 bytes. */
		assert_true(top.hdr >= 3);
		b[top.hdr - 1] = (unsigned char)(b[top.hdr - 1] + c->arg);
		break;
	}
	default:
		break;
	}
	*len = n;
	return b;
}

static void test_bad_input_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const bad_input *c = &cases[i];
		size_t len;
		unsigned char *in = build_input(c, &len);
		megaco_options o;
		megaco_options_init(&o);
		if (c->max_size == LEN_MINUS_1)
			o.max_message_size = len - 1;
		else if (c->max_size == SIZE_MAX)
			o.max_message_size = len;
		else if (c->max_size)
			o.max_message_size = c->max_size;
		if (c->max_depth)
			o.max_depth = c->max_depth;
		megaco_error err;
		int rc = decode_checked(c->name, c->enc, in, len, &o, NULL, &err);
		if (rc != c->expect)
			fail_msg("%s: got %s (%s at %zu), expected %s", c->name, megaco_strerror(rc),
			         err.message, err.offset, megaco_strerror(c->expect));
		size_t want = c->offset == END_OFFSET    ? len
		              : c->offset == TAIL_OFFSET ? len - c->nbytes
		                                         : c->offset;
		if (rc != MEGACO_OK && c->offset != ANY_OFFSET && err.offset != want)
			fail_msg("%s: error at offset %zu, expected %zu (%s)", c->name, err.offset, want,
			         err.message);
		free(in);
	}
}

/* ---- corpus sweeps ------------------------------------------------------- */

static void test_truncation_every_byte(void **state)
{
	(void)state;
	size_t cuts = 0;
	corpus_walk w = { .c = C, .first = BER, .last = PER };
	while (corpus_next(&w)) {
		for (size_t k = 0; k < w.len; k++) {
			/* An exact-size copy, so ASan sees any read past the cut. */
			unsigned char *cut = malloc(k ? k : 1);
			memcpy(cut, w.bytes, k);
			char what[600];
			snprintf(what, sizeof what, "%s cut to %zu of %zu bytes", w.path, k, w.len);
			megaco_error err;
			int rc = decode_checked(what, w.enc, cut, k, NULL, NULL, &err);
			if (rc != MEGACO_ERR_TRUNCATED)
				fail_msg("%s: %s (%s), expected truncated", what, megaco_strerror(rc),
				         err.message);
			/* Auto-detection may take a BER prefix for PER: any error will do. */
			if (decode_checked(what, AUTO, cut, k, NULL, NULL, NULL) == MEGACO_OK)
				fail_msg("%s: auto-detected decode succeeded", what);
			free(cut);
			cuts++;
		}
	}
	assert_int_equal(w.files, 2 * 149);
	printf("# %zu truncations of %zu vectors\n", cuts, w.files);
}

/*
 * Every single-bit flip of every BER and PER vector: any status is fine as
 * long as the contract holds; what decodes must also survive re-encoding.
 */
static void test_bit_flips(void **state)
{
	(void)state;
	size_t flips = 0, decoded = 0;
	const char *stride_env = getenv("MEGACO_FLIP_STRIDE");
	size_t stride = stride_env ? strtoul(stride_env, NULL, 10) : 1;
	if (stride == 0)
		stride = 1;
	corpus_walk w = { .c = C, .first = BER, .last = PER };
	while (corpus_next(&w)) {
		if ((size_t)(w.e - C->entries) % stride)
			continue;
		const char *path = w.path;
		megaco_encoding enc = w.enc;
		unsigned char *b = w.bytes;
		size_t len = w.len;
		for (size_t bit = 0; bit < 8 * len; bit++) {
			b[bit / 8] ^= (unsigned char)(0x80u >> bit % 8);
			char what[600];
			snprintf(what, sizeof what, "%s with bit %zu flipped", path, bit);
			megaco_message *m = NULL;
			if (decode_checked(what, enc, b, len, NULL, &m, NULL) == MEGACO_OK) {
				decoded++;
				for (megaco_encoding to = BER; to <= PER; to++) {
					void *out = NULL;
					size_t out_len = 0;
					megaco_error err;
					int rc = megaco_encode_alloc(m, to, NULL, &out, &out_len, &err);
					if (rc == MEGACO_OK)
						megaco_buffer_free(out, NULL);
					else if (rc == MEGACO_ERR_INTERNAL || err.code != rc)
						fail_msg("%s: re-encode: %s", what, err.message);
				}
				megaco_message_free(m);
			}
			b[bit / 8] ^= (unsigned char)(0x80u >> bit % 8);
			flips++;
		}
	}
	printf("# %zu bit flips, %zu still decoded\n", flips, decoded);
}

/* max_depth is honoured exactly: each vector needs its own nesting depth. */
static void test_max_depth_exact(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = BER };
	while (corpus_next(&w)) {
		const char *path = w.path;
		const unsigned char *b = w.bytes;
		size_t len = w.len;
		unsigned d = ber_depth(b, 0, len);
		assert_true(d >= 3);
		megaco_options o;
		megaco_options_init(&o);
		o.max_depth = d;
		assert_int_equal(decode_checked(path, BER, b, len, &o, NULL, NULL), MEGACO_OK);
		o.max_depth = d - 1;
		megaco_error err;
		assert_int_equal(decode_checked(path, BER, b, len, &o, NULL, &err), MEGACO_ERR_TOO_DEEP);
	}
}

/* The corpus's versions sit where the table's version mutation expects them. */
static void test_version_offsets(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = BER, .last = PER };
	while (corpus_next(&w))
		if (w.enc == BER)
			assert_int_equal(w.bytes[ber_version_offset(w.bytes, w.len)], w.e->version);
		else
			assert_int_equal(per_get_version(w.bytes), w.e->version);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_offsets),
		cmocka_unit_test(test_bad_input_table),
		cmocka_unit_test(test_max_depth_exact),
		cmocka_unit_test(test_truncation_every_byte),
		cmocka_unit_test(test_bit_flips),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
