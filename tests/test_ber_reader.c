/*
 * The single-pass BER reader (src/ber_reader.c) against asn1c's ber_decode():
 * the same verdict and the same model (compared node by node through the
 * descriptors, and as XER and DER) on every corpus BER vector, on their
 * indefinite-length, long-form-length and constructed-string re-encodings,
 * on every one-byte corruption of a few messages, and on a table of
 * hand-made edge cases. Its error classes and offsets against the test's
 * own structural walker (scan() below), whose verdict wins over asn1c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "MegacoMessage.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_codecs_prim.h"
#include "ber_reader.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

static corpus *C;

/* ---- the two decoders ------------------------------------------------------------------- */

typedef struct decoded {
	megaco_arena arena;
	void *model;
	int ok;          /* the whole input is one value: asn1c RC_OK, the reader MEGACO_OK */
	int wmore;       /* asn1c RC_WMORE */
	size_t consumed; /* when ok */
} decoded;

static void by_asn1c(decoded *d, asn_TYPE_descriptor_t *td, const unsigned char *b, size_t len)
{
	arena_init(&d->arena, NULL, 0);
	d->model = NULL;
	asn_codec_ctx_t ctx = { 256u << 10 };
	megaco_arena *prev = arena_set_current(&d->arena);
	asn_dec_rval_t r = ber_decode(&ctx, td, &d->model, b, len);
	arena_set_current(prev);
	d->ok = r.code == RC_OK && r.consumed == len; /* the reader takes whole values only */
	d->wmore = r.code == RC_WMORE;
	d->consumed = r.consumed;
}

/* The schema type of a module type descriptor (by its ASN.1 name). */
static unsigned type_of(const asn_TYPE_descriptor_t *td)
{
	for (unsigned i = 0; i < SCHEMA_NTYPES; i++)
		if (!strcmp(schema_types[i].name, td->name))
			return i;
	fail_msg("%s is not in the schema", td->name);
	return 0;
}

static int reader_rc; /* the last by_reader()'s status */

static void by_reader(decoded *d, asn_TYPE_descriptor_t *td, const unsigned char *b, size_t len)
{
	arena_init(&d->arena, NULL, 0);
	d->model = NULL;
	d->wmore = 0;
	/* A copy exactly len long, so that ASan sees any read past the end. */
	unsigned char *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, b, len);
	megaco_error err;
	int rc = ber_read(type_of(td), &d->model, copy, len, &d->arena, 64, (size_t)1 << 20, NULL, &err);
	if (rc != MEGACO_OK && err.offset > len)
		fail_msg("error offset %zu past the %zu bytes", err.offset, len);
	free(copy);
	reader_rc = rc;
	d->ok = rc == MEGACO_OK;
	d->consumed = d->ok ? len : 0;
}

static void drop(decoded *d) { arena_reset_blocks(&d->arena); }

/* ---- the test's structural walker ------------------------------------------------------ */

/*
 * X.690 8.1 structure alone, with an explicit stack: what class of error
 * each malformed TLV gets and where. The reader must give the same, since
 * structural errors win over its schema's verdict wherever they are.
 */
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

static int scan(const unsigned char *buf, size_t len, unsigned max_depth, size_t max_size,
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

/* ---- model comparison, node by node ----------------------------------------------------- */

static char where[4096];

static int differ(const char *path, const char *what)
{
	snprintf(where, sizeof where, "%s: %s", path, what);
	return 1;
}

/* Descriptors of derived types point at generated wrappers until first used. */
static void resolve(asn_TYPE_descriptor_t *td)
{
	asn_struct_free_f *f = td->free_struct;
	if (f != SEQUENCE_free && f != CHOICE_free && f != SET_OF_free && f != OCTET_STRING_free &&
	    f != NativeInteger_free && f != BOOLEAN_free && f != ASN__PRIMITIVE_TYPE_free)
		f(td, NULL, 0);
}

static int same(asn_TYPE_descriptor_t *td, const void *a, const void *b, const char *path);

static int same_member(asn_TYPE_member_t *m, const void *sa, const void *sb, const char *path)
{
	char sub[1024];
	snprintf(sub, sizeof sub, "%.900s.%s", path, m->name);
	const void *a = (const char *)sa + m->memb_offset, *b = (const char *)sb + m->memb_offset;
	if (m->flags & ATF_POINTER) {
		a = *(const void *const *)a;
		b = *(const void *const *)b;
		if (!a || !b)
			return a == b ? 0 : differ(sub, a ? "absent in the reader's" : "absent in asn1c's");
	}
	return same(m->type, a, b, sub);
}

static int same(asn_TYPE_descriptor_t *td, const void *a, const void *b, const char *path)
{
	resolve(td);
	asn_struct_free_f *f = td->free_struct;
	if (f == SEQUENCE_free) {
		for (int i = 0; i < td->elements_count; i++)
			if (same_member(&td->elements[i], a, b, path))
				return 1;
		return 0;
	}
	if (f == CHOICE_free) {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		int pa = schema_present_get((const char *)a + cs->pres_offset, cs->pres_size);
		int pb = schema_present_get((const char *)b + cs->pres_offset, cs->pres_size);
		if (pa != pb)
			return differ(path, "different CHOICE alternatives");
		if (pa <= 0 || pa > td->elements_count)
			return 0;
		return same_member(&td->elements[pa - 1], a, b, path);
	}
	if (f == SET_OF_free) {
		const asn_anonymous_set_ *la = _A_CSET_FROM_VOID(a), *lb = _A_CSET_FROM_VOID(b);
		if (la->count != lb->count)
			return differ(path, "different item counts");
		if (la->count && (la->size < la->count || lb->size < lb->count))
			return differ(path, "array size below count");
		for (int i = 0; i < la->count; i++) {
			char sub[1024];
			snprintf(sub, sizeof sub, "%.900s[%d]", path, i);
			if (!la->array[i] || !lb->array[i])
				return differ(sub, "NULL item");
			if (same(td->elements[0].type, la->array[i], lb->array[i], sub))
				return 1;
		}
		return 0;
	}
	if (f == OCTET_STRING_free || f == ASN__PRIMITIVE_TYPE_free) {
		const OCTET_STRING_t *x = a, *y = b;
		if (x->size != y->size)
			return differ(path, "different sizes");
		if (!x->buf != !y->buf)
			return differ(path, "buffer present in one only");
		/* asn1c NUL-terminates every buffer it fills: compare that octet too. */
		if (x->buf && memcmp(x->buf, y->buf, (size_t)x->size + 1))
			return differ(path, "different contents");
		const asn_OCTET_STRING_specifics_t *s = td->specifics;
		if (f == OCTET_STRING_free && s && s->subvariant == ASN_OSUBV_BIT &&
		    ((const BIT_STRING_t *)a)->bits_unused != ((const BIT_STRING_t *)b)->bits_unused)
			return differ(path, "different unused bits");
		return 0;
	}
	if (f == NativeInteger_free)
		return *(const long *)a == *(const long *)b ? 0 : differ(path, "different values");
	if (f == BOOLEAN_free)
		return *(const int *)a == *(const int *)b ? 0 : differ(path, "different values");
	return differ(path, "kind the test does not know");
}

typedef struct growbuf {
	unsigned char *buf;
	size_t len, cap;
} growbuf;

static int grow_write(const void *data, size_t size, void *key)
{
	growbuf *g = key;
	if (g->len + size > g->cap) {
		g->cap = (g->len + size) * 2 + 64;
		g->buf = realloc(g->buf, g->cap);
		assert_non_null(g->buf);
	}
	if (size)
		memcpy(g->buf + g->len, data, size);
	g->len += size;
	return 0;
}

/* Same verdict, same size read, same model; for full messages also the same XER and DER. */
static void check_same(asn_TYPE_descriptor_t *td, const unsigned char *b, size_t len,
                       const char *what)
{
	decoded x, y;
	by_asn1c(&x, td, b, len);
	by_reader(&y, td, b, len);
	if (x.ok != y.ok)
		fail_msg("%s: asn1c %s, the reader %s", what, x.ok ? "accepts" : "rejects",
		         y.ok ? "accepts" : "rejects");
	if (x.ok) {
		if (x.consumed != y.consumed)
			fail_msg("%s: asn1c read %zu bytes, the reader %zu", what, x.consumed, y.consumed);
		if (same(td, x.model, y.model, td->name))
			fail_msg("%s: models differ at %s", what, where);
		growbuf gx = { 0 }, gy = { 0 };
		asn_enc_rval_t ex = xer_encode(td, x.model, XER_F_BASIC, grow_write, &gx);
		asn_enc_rval_t ey = xer_encode(td, y.model, XER_F_BASIC, grow_write, &gy);
		assert_int_equal(ex.encoded < 0, ey.encoded < 0);
		assert_bytes_equal("XER", gx.buf, gx.len, gy.buf, gy.len);
		gx.len = gy.len = 0;
		ex = der_encode(td, x.model, grow_write, &gx);
		ey = der_encode(td, y.model, grow_write, &gy);
		assert_int_equal(ex.encoded < 0, ey.encoded < 0);
		if (ex.encoded >= 0)
			assert_bytes_equal("DER", gx.buf, gx.len, gy.buf, gy.len);
		free(gx.buf);
		free(gy.buf);
	}
	drop(&x);
	drop(&y);
}

/* ---- re-encodings ----------------------------------------------------------------------- */

typedef struct tlv {
	size_t hdr, len; /* header octets, content octets */
	int constructed;
} tlv;

static int parse_tlv(const unsigned char *b, size_t n, tlv *t)
{
	size_t p = 1;
	if (n < 2)
		return -1;
	t->constructed = (b[0] & 0x20) != 0;
	if ((b[0] & 0x1f) == 0x1f)
		while (p < n && (b[p++] & 0x80))
			;
	if (p >= n)
		return -1;
	unsigned l = b[p++];
	if (l < 0x80) {
		t->len = l;
	} else {
		t->len = 0;
		for (unsigned i = 0; i < (l & 0x7f); i++) {
			if (p >= n)
				return -1;
			t->len = t->len << 8 | b[p++];
		}
	}
	t->hdr = p;
	return p + t->len <= n ? 0 : -1;
}

/*
 * DER to BER: constructed values at the depths mask selects (bit d for depth
 * d, from the top) take the indefinite form, closed by 00 00.
 */
static void to_indefinite(const unsigned char *b, size_t n, unsigned depth, unsigned mask,
                          growbuf *out)
{
	while (n) {
		tlv t;
		assert_int_equal(parse_tlv(b, n, &t), 0);
		if (t.constructed && (mask >> (depth % 32) & 1)) {
			size_t tag_len = 1;
			if ((b[0] & 0x1f) == 0x1f)
				while (b[tag_len++] & 0x80)
					;
			grow_write(b, tag_len, out);
			grow_write("\x80", 1, out);
			to_indefinite(b + t.hdr, t.len, depth + 1, mask, out);
			grow_write("\0\0", 2, out);
		} else if (t.constructed) {
			/* Definite: re-measure the converted contents. */
			growbuf inner = { 0 };
			to_indefinite(b + t.hdr, t.len, depth + 1, mask, &inner);
			size_t tag_len = 1;
			if ((b[0] & 0x1f) == 0x1f)
				while (b[tag_len++] & 0x80)
					;
			grow_write(b, tag_len, out);
			unsigned char l[5];
			size_t ln = 0;
			if (inner.len < 128) {
				l[ln++] = (unsigned char)inner.len;
			} else {
				unsigned char tmp[4];
				size_t k = 0;
				for (size_t v = inner.len; v; v >>= 8)
					tmp[k++] = (unsigned char)v;
				l[ln++] = (unsigned char)(0x80 | k);
				while (k)
					l[ln++] = tmp[--k];
			}
			grow_write(l, ln, out);
			grow_write(inner.buf, inner.len, out);
			free(inner.buf);
		} else {
			grow_write(b, t.hdr + t.len, out);
		}
		b += t.hdr + t.len;
		n -= t.hdr + t.len;
	}
}

/* The primitive value the rewrite below turns into segments (offset in the input). */
static const unsigned char *seg_at;
static unsigned char seg_tag;
static int seg_indef, seg_done;

/* Constructed form of the primitive value at seg_at: two segments, the second nested when seg_indef. */
static int put_segments(const unsigned char *b, const tlv *t, growbuf *out)
{
	size_t half = t->len / 2, rest = t->len - half;
	if (t->len < 2 || rest > 127 || (b[0] & 0x1f) == 0x1f)
		return 0;
	unsigned char h[2] = { (unsigned char)(b[0] | 0x20), 0x80 };
	grow_write(h, 2, out);
	h[0] = seg_tag;
	h[1] = (unsigned char)half;
	grow_write(h, 2, out);
	grow_write(b + t->hdr, half, out);
	if (seg_indef) {
		unsigned char c[2] = { (unsigned char)(seg_tag | 0x20), 0x80 };
		grow_write(c, 2, out);
	}
	h[1] = (unsigned char)rest;
	grow_write(h, 2, out);
	grow_write(b + t->hdr + half, rest, out);
	if (seg_indef)
		grow_write("\0\0", 2, out);
	grow_write("\0\0", 2, out);
	return 1;
}

/* Every constructed value indefinite; the primitive at seg_at as segments. */
static void rewrite(const unsigned char *b, size_t n, growbuf *out)
{
	while (n) {
		tlv t;
		assert_int_equal(parse_tlv(b, n, &t), 0);
		if (t.constructed) {
			size_t tag_len = 1;
			if ((b[0] & 0x1f) == 0x1f)
				while (b[tag_len++] & 0x80)
					;
			grow_write(b, tag_len, out);
			grow_write("\x80", 1, out);
			rewrite(b + t.hdr, t.len, out);
			grow_write("\0\0", 2, out);
		} else if (b == seg_at && put_segments(b, &t, out)) {
			seg_done = 1;
		} else {
			grow_write(b, t.hdr + t.len, out);
		}
		b += t.hdr + t.len;
		n -= t.hdr + t.len;
	}
}

/*
 * The message with the primitive value at offset at in constructed form
 * (segments tagged tag), every container indefinite. 0 if at does not start
 * a primitive value of 2+ octets.
 */
static int to_segments(const unsigned char *b, size_t n, size_t at, unsigned char tag, int indef,
                       growbuf *out)
{
	seg_at = b + at;
	seg_tag = tag;
	seg_indef = indef;
	seg_done = 0;
	rewrite(b, n, out);
	if (!seg_done) {
		free(out->buf);
		out->buf = NULL;
		out->len = out->cap = 0;
	}
	return seg_done;
}

/* ---- tests ------------------------------------------------------------------------------ */

/*
 * What the library must answer: the structural walker's error, else asn1c's
 * verdict, else the version's; the same code, and the walker's offset. But
 * where X.690 forbids what asn1c takes (x690_only), MALFORMED.
 */
static int bad_unused_bits(const schema_node *n, void *ctx)
{
	(void)ctx;
	if (schema_types[n->type].kind != SK_BITS)
		return WALK_CONTINUE;
	const BIT_STRING_t *bs = n->ptr;
	return bs->bits_unused < 0 || bs->bits_unused > 7 || (!bs->size && bs->bits_unused) ? -1
	                                                                                      : WALK_SKIP;
}

static int x690_only; /* the input has a form X.690 forbids and asn1c takes */

static void check_library(const unsigned char *b, size_t len, const char *what)
{
	megaco_error want = { 0 }, got = { 0 };
	int want_rc = scan(b, len, 64, (size_t)1 << 20, &want);
	if (want_rc == MEGACO_OK) {
		decoded x;
		by_asn1c(&x, &asn_DEF_MegacoMessage, b, len);
		if (!x.ok) /* the old ber_decode_message() called RC_WMORE truncation */
			want_rc = x.wmore ? MEGACO_ERR_TRUNCATED : MEGACO_ERR_MALFORMED;
		else if (x.consumed != len)
			want_rc = MEGACO_ERR_TRAILING_DATA;
		else if (schema_walk(SCHEMA_ROOT, x.model, bad_unused_bits, NULL) < 0)
			want_rc = MEGACO_ERR_MALFORMED; /* X.690 8.6.2.2, which asn1c does not check */
		else if (x690_only)
			want_rc = MEGACO_ERR_MALFORMED;
		else
			want_rc = check_version(((MegacoMessage_t *)x.model)->mess.version, 0, NULL);
		drop(&x);
	}
	megaco_message *m = NULL;
	int rc = megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m, &got);
	megaco_message_free(m);
	if (rc != want_rc && !(x690_only && rc == MEGACO_ERR_MALFORMED && want_rc == MEGACO_OK))
		fail_msg("%s: the library says %d (%s), the walker+asn1c %d", what, rc, got.message,
		         want_rc);
	if (rc != MEGACO_OK && rc != MEGACO_ERR_MALFORMED && got.offset != want.offset &&
	    want_rc != MEGACO_ERR_VERSION)
		fail_msg("%s: error at %zu, the walker says %zu", what, got.offset, want.offset);
}

/*
 * A whole message: the reader agrees with asn1c, except that it refuses a
 * BIT STRING whose unused-bit count X.690 8.6.2.2 forbids (asn1c keeps it).
 */
static void check_message(const unsigned char *b, size_t len, const char *what)
{
	decoded x;
	by_asn1c(&x, &asn_DEF_MegacoMessage, b, len);
	int forbidden = x.ok && schema_walk(SCHEMA_ROOT, x.model, bad_unused_bits, NULL) < 0;
	drop(&x);
	if (!forbidden && !x690_only) {
		check_same(&asn_DEF_MegacoMessage, b, len, what);
		return;
	}
	decoded y;
	by_reader(&y, &asn_DEF_MegacoMessage, b, len);
	int ok = y.ok;
	drop(&y);
	if (ok && forbidden)
		fail_msg("%s: a forbidden BIT STRING unused-bit count was accepted", what);
}


static unsigned char *ber_vector(size_t i, size_t *len)
{
	const char *path = C->entries[i].path[MEGACO_ENC_BER - 1];
	if (!path || strcmp(C->entries[i].set, "time_test"))
		return NULL;
	unsigned char *b = read_file(path, len);
	assert_non_null(b);
	return b;
}

static void test_corpus_same_as_asn1c(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		check_same(&asn_DEF_MegacoMessage, b, len, C->entries[i].name);
		/* ...and through the library: same DER back. */
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m, NULL), MEGACO_OK);
		unsigned char out[8192];
		size_t olen = 0;
		assert_int_equal(megaco_encode(m, MEGACO_ENC_BER, NULL, out, sizeof out, &olen, NULL),
		                 MEGACO_OK);
		assert_bytes_equal(C->entries[i].name, b, len, out, olen);
		megaco_message_free(m);
		free(b);
		n++;
	}
	assert_int_equal(n, 149);
}

/*
 * The depth limit: at every max_depth up to past each message's depth, the
 * reader passes the message exactly when the structural walker does, and
 * otherwise gives its TOO_DEEP at the same offset; both length forms.
 */
static void check_depths(const unsigned char *b, size_t len, const char *what)
{
	for (unsigned d = 1; d <= 48; d++) {
		megaco_arena a;
		arena_init(&a, NULL, 0);
		void *model = NULL;
		megaco_error got = { 0 }, want = { 0 };
		int rc = ber_read(SCHEMA_ROOT, &model, b, len, &a, d, len, NULL, &got);
		int want_rc = scan(b, len, d, len, &want);
		if (rc != want_rc || (rc != MEGACO_OK && got.offset != want.offset))
			fail_msg("%s at max_depth %u: reader %d at %zu, the walker %d at %zu", what, d, rc,
			         got.offset, want_rc, want.offset);
		arena_reset_blocks(&a);
	}
}

static void test_depth_limits(void **state)
{
	(void)state;
	for (size_t i = 0; i < C->count; i++) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		check_depths(b, len, C->entries[i].name);
		static const unsigned masks[] = { ~0u, 0x55555555u };
		for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
			growbuf g = { 0 };
			to_indefinite(b, len, 0, masks[k], &g);
			char what[128];
			snprintf(what, sizeof what, "%s indefinite mask %x", C->entries[i].name, masks[k]);
			check_depths(g.buf, g.len, what);
			free(g.buf);
		}
		free(b);
	}
}

static void test_indefinite_forms(void **state)
{
	(void)state;
	static const unsigned masks[] = { ~0u, 0x55555555u, 0xaaaaaaaau, 1u, 0xfffffffeu };
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		decoded ref;
		by_reader(&ref, &asn_DEF_MegacoMessage, b, len);
		assert_true(ref.ok);
		for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
			growbuf g = { 0 };
			to_indefinite(b, len, 0, masks[k], &g);
			char what[128];
			snprintf(what, sizeof what, "%s indefinite mask %x", C->entries[i].name, masks[k]);
			check_same(&asn_DEF_MegacoMessage, g.buf, g.len, what);
			/* The same model as the DER vector gives. */
			decoded y;
			by_reader(&y, &asn_DEF_MegacoMessage, g.buf, g.len);
			assert_true(y.ok);
			if (same(&asn_DEF_MegacoMessage, ref.model, y.model, "MegacoMessage"))
				fail_msg("%s: differs from the DER model at %s", what, where);
			/* And the library takes it. */
			megaco_message *m = NULL;
			assert_int_equal(megaco_decode(MEGACO_ENC_BER, g.buf, g.len, NULL, &m, NULL),
			                 MEGACO_OK);
			megaco_message_free(m);
			drop(&y);
			free(g.buf);
		}
		drop(&ref);
		free(b);
		n++;
	}
	assert_int_equal(n, 149);
}

/* Every primitive value of a few messages in constructed form: strings pass, others fail alike. */
static void test_constructed_strings(void **state)
{
	(void)state;
	static const unsigned char tags[] = { 0x04, 0x16, 0x03, 0x02 };
	size_t done = 0, accepted = 0;
	for (size_t i = 0; i < C->count; i += 7) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		for (size_t at = 0; at < len; at++) {
			for (size_t k = 0; k < sizeof tags; k++) {
				for (int indef = 0; indef < 2; indef++) {
					growbuf g = { 0 };
					if (!to_segments(b, len, at, tags[k], indef, &g))
						continue;
					char what[128];
					snprintf(what, sizeof what, "%s segments at %zu tag %02x%s",
					         C->entries[i].name, at, tags[k], indef ? " nested" : "");
					check_message(g.buf, g.len, what);
					check_library(g.buf, g.len, what);
					decoded y;
					by_reader(&y, &asn_DEF_MegacoMessage, g.buf, g.len);
					accepted += y.ok;
					drop(&y);
					free(g.buf);
					done++;
				}
			}
		}
		free(b);
	}
	printf("# %zu constructed-string rewrites, %zu accepted by both\n", done, accepted);
	assert_true(accepted > 50);
}

/* Does a TLV of the (definite-length) structure b start at offset at? */
static int is_identifier(const unsigned char *b, size_t n, size_t at)
{
	size_t off = 0;
	while (off < n) {
		tlv t;
		if (parse_tlv(b + off, n - off, &t) != 0)
			return 0;
		if (off == at)
			return 1;
		if (t.constructed && at > off && at < off + t.hdr + t.len)
			return is_identifier(b + off + t.hdr, t.len, at - off - t.hdr);
		off += t.hdr + t.len;
	}
	return 0;
}

/* Every single-octet change (a few values each) and every truncation of some messages. */
static void test_corruptions(void **state)
{
	(void)state;
	static const unsigned char vals[] = { 0x00, 0x01, 0x80, 0xff, 0x30, 0xa0, 0x1f, 0x05 };
	size_t done = 0, accepted = 0;
	megaco_options o;
	megaco_options_init(&o);
	for (size_t i = 0; i < C->count; i += 5) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		unsigned char *m = malloc(len);
		for (size_t at = 0; at < len; at++) {
			for (size_t k = 0; k <= sizeof vals; k++) {
				memcpy(m, b, len);
				m[at] = k < sizeof vals ? vals[k] : (unsigned char)(b[at] ^ 0x20);
				char what[128];
				snprintf(what, sizeof what, "%s octet %zu := %02x", C->entries[i].name, at,
				         m[at]);
				/*
				 * An EXPLICIT tag made primitive: asn1c reads into it, X.690
				 * 8.14.3 says constructed, and so does the reader.
				 */
				x690_only = (m[at] | 0x20) == b[at] && m[at] != b[at] &&
				            is_identifier(b, len, at);
				check_library(m, len, what);
				/* asn1c itself only sees sound structures (it can loop on the rest). */
				if (scan(m, len, o.max_depth, o.max_message_size, NULL) != MEGACO_OK) {
					x690_only = 0;
					continue;
				}
				check_message(m, len, what);
				x690_only = 0;
				decoded y;
				by_reader(&y, &asn_DEF_MegacoMessage, m, len);
				accepted += y.ok;
				drop(&y);
				done++;
			}
			check_library(b, at, "truncated");
		}
		free(m);
		free(b);
	}
	printf("# %zu structurally sound corruptions, %zu accepted by both\n", done, accepted);
}

#define B(s) (const unsigned char *)(s), sizeof(s) - 1

typedef struct edge {
	const char *name;
	asn_TYPE_descriptor_t *td;
	const unsigned char *bytes;
	size_t len;
	int ok; /* expected verdict (both decoders); 2: only that they agree */
} edge;

/* edge.ok: 0 rejected, 1 accepted, 2 either (as asn1c), or: */
#define REJECT_UNLIKE_ASN1C 3 /* rejected on purpose where asn1c accepts */

extern asn_TYPE_descriptor_t asn_DEF_TransactionId, asn_DEF_NotifyCompletion, asn_DEF_ErrorText,
	asn_DEF_ErrorDescriptor, asn_DEF_Command, asn_DEF_TerminationIDList, asn_DEF_PkgdName,
	asn_DEF_ServiceChangeMethod, asn_DEF_Message, asn_DEF_CommandRequest;

static void test_edge_cases(void **state)
{
	(void)state;
	const edge table[] = {
		/* INTEGER (unsigned 32-bit TransactionId) */
		{ "int 0", &asn_DEF_TransactionId, B("\x02\x01\x00"), 1 },
		{ "int empty", &asn_DEF_TransactionId, B("\x02\x00"), 1 },
		{ "int ff (unsigned)", &asn_DEF_TransactionId, B("\x02\x01\xff"), 1 },
		{ "int 9 octets, zero-led", &asn_DEF_TransactionId, B("\x02\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01"), 1 },
		{ "int 9 octets", &asn_DEF_TransactionId, B("\x02\x09\x01\x00\x00\x00\x00\x00\x00\x00\x01"), 0 },
		{ "int constructed", &asn_DEF_TransactionId, B("\x22\x03\x02\x01\x01"), 0 },
		{ "int wrong tag", &asn_DEF_TransactionId, B("\x04\x01\x01"), 0 },
		{ "int long-form length", &asn_DEF_TransactionId, B("\x02\x81\x01\x05"), 1 },
		{ "int length past end", &asn_DEF_TransactionId, B("\x02\x02\x05"), 0 },
		{ "int high-tag form", &asn_DEF_TransactionId, B("\x1f\x02\x01\x05"), 1 },
		/* ENUMERATED */
		{ "enum -1", &asn_DEF_ServiceChangeMethod, B("\x0a\x01\xff"), 1 },
		{ "enum 9 octets ff-led", &asn_DEF_ServiceChangeMethod, B("\x0a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x80"), 1 },
		/* BIT STRING */
		{ "bits", &asn_DEF_NotifyCompletion, B("\x03\x02\x04\xff"), 1 },
		{ "bits empty", &asn_DEF_NotifyCompletion, B("\x03\x00"), 1 },
		{ "bits only unused octet", &asn_DEF_NotifyCompletion, B("\x03\x01\x00"), 1 },
		/* X.690 8.6.2.2 allows 0..7 unused bits (0 when empty); asn1c takes any. */
		{ "bits unused 9", &asn_DEF_NotifyCompletion, B("\x03\x02\x09\xff"), REJECT_UNLIKE_ASN1C },
		{ "bits unused 33", &asn_DEF_NotifyCompletion, B("\x03\x02\x21\xff"), REJECT_UNLIKE_ASN1C },
		{ "bits empty, 5 unused", &asn_DEF_NotifyCompletion, B("\x03\x01\x05"), REJECT_UNLIKE_ASN1C },
		{ "bits constructed", &asn_DEF_NotifyCompletion, B("\x23\x08\x03\x02\x00\xf0\x03\x02\x03\xff"), 1 },
		{ "bits constructed empty segs", &asn_DEF_NotifyCompletion, B("\x23\x06\x03\x00\x03\x01\x02\x03\x00"), 0 },
		{ "bits constructed, empty", &asn_DEF_NotifyCompletion, B("\x23\x00"), 1 },
		{ "bits constructed indefinite", &asn_DEF_NotifyCompletion, B("\x23\x80\x03\x02\x00\xf0\x23\x80\x03\x02\x01\xff\x00\x00\x00\x00"), 1 },
		{ "bits segment tagged 04", &asn_DEF_NotifyCompletion, B("\x23\x04\x04\x02\x00\xf0"), 0 },
		/* IA5String */
		{ "ia5", &asn_DEF_ErrorText, B("\x16\x03" "abc"), 1 },
		{ "ia5 constructed", &asn_DEF_ErrorText, B("\x36\x09\x16\x01" "a\x16\x00\x16\x02" "bc"), 1 },
		{ "ia5 constructed, 04 segment", &asn_DEF_ErrorText, B("\x36\x03\x04\x01" "a"), 0 },
		{ "ia5 constructed in constructed", &asn_DEF_ErrorText, B("\x36\x07\x36\x05\x16\x03" "abc"), 1 },
		{ "ia5 constructed, empty segment only", &asn_DEF_ErrorText, B("\x36\x02\x16\x00"), 1 },
		/* X.690 8.1.3.2: indefinite lengths are for constructed values only */
		{ "ia5 indefinite primitive", &asn_DEF_ErrorText, B("\x16\x80"), REJECT_UNLIKE_ASN1C },
		/* OCTET STRING (SIZE(4)) derived type */
		{ "pkgdname", &asn_DEF_PkgdName, B("\x04\x04\x00\x01\x00\x02"), 1 },
		{ "pkgdname constructed", &asn_DEF_PkgdName, B("\x24\x80\x04\x02\x00\x01\x04\x02\x00\x02\x00\x00"), 1 },
		/* SEQUENCE: ErrorDescriptor { errorCode [0] ErrorCode, errorText [1] ErrorText OPTIONAL } */
		{ "seq", &asn_DEF_ErrorDescriptor, B("\x30\x07\x80\x01\x05\x81\x02" "ab"), 1 },
		{ "seq no optional", &asn_DEF_ErrorDescriptor, B("\x30\x03\x80\x01\x05"), 1 },
		{ "seq missing mandatory", &asn_DEF_ErrorDescriptor, B("\x30\x04\x81\x02" "ab"), 0 },
		{ "seq indefinite", &asn_DEF_ErrorDescriptor, B("\x30\x80\x80\x01\x05\x00\x00"), 1 },
		{ "seq indefinite, no EOC", &asn_DEF_ErrorDescriptor, B("\x30\x80\x80\x01\x05"), 0 },
		{ "seq unknown after last", &asn_DEF_ErrorDescriptor, B("\x30\x06\x80\x01\x05\x82\x01\x00"), 0 },
		{ "seq duplicate", &asn_DEF_ErrorDescriptor, B("\x30\x06\x80\x01\x05\x80\x01\x05"), 0 },
		{ "seq implicit tag constructed int", &asn_DEF_ErrorDescriptor, B("\x30\x05\xa0\x03\x02\x01\x05"), 0 },
		{ "seq empty", &asn_DEF_ErrorDescriptor, B("\x30\x00"), 0 },
		{ "seq trailing inside", &asn_DEF_ErrorDescriptor, B("\x30\x05\x80\x01\x05\x00\x00"), 0 },
		/* CHOICE Command (extensible): unknown [20] is skipped with nothing present */
		{ "choice unknown ext", &asn_DEF_Command, B("\xb4\x02\x04\x00"), 1 },
		{ "choice unknown ext indefinite", &asn_DEF_Command, B("\xb4\x80\x00\x00"), 1 },
		{ "choice universal tag", &asn_DEF_Command, B("\x30\x00"), 1 },
		/* an EXPLICIT tag longer than its container: asn1c never notices when the
		 * CHOICE inside ends early on an unknown extension (found by fuzzing);
		 * X.690 8.1.3 does, and so does the reader */
		{ "choice overrun, unknown ext", &asn_DEF_CommandRequest, B("\x30\x04\xa0\x7f\xb4\x00"), REJECT_UNLIKE_ASN1C },
		{ "choice overrun, primitive tag", &asn_DEF_CommandRequest, B("\x30\x04\x80\x7f\xb4\x00"), REJECT_UNLIKE_ASN1C },
		{ "choice overrun, known alt", &asn_DEF_CommandRequest, B("\x30\x04\xa0\x7f\xa0\x00"), 0 },
		/* SEQUENCE OF */
		{ "list empty", &asn_DEF_TerminationIDList, B("\x30\x00"), 1 },
		{ "list empty indefinite", &asn_DEF_TerminationIDList, B("\x30\x80\x00\x00"), 1 },
		{ "list wrong item tag", &asn_DEF_TerminationIDList, B("\x30\x02\x04\x00"), 0 },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		const edge *e = &table[i];
		if (e->ok != REJECT_UNLIKE_ASN1C)
			check_same(e->td, e->bytes, e->len, e->name);
		decoded y;
		by_reader(&y, e->td, e->bytes, e->len);
		if (e->ok == REJECT_UNLIKE_ASN1C && y.ok)
			fail_msg("%s: accepted, expected rejected (asn1c accepts it)", e->name);
		else if (e->ok < 2 && y.ok != e->ok)
			fail_msg("%s: %s, expected %s", e->name, y.ok ? "accepted" : "rejected",
			         e->ok ? "accepted" : "rejected");
		drop(&y);
	}
	/* Lists longer than the reader's local buffer, and bigger messages. */
	growbuf g = { 0 };
	grow_write("\x30\x82\x00\x00", 4, &g);
	for (int i = 0; i < 300; i++) {
		/* TerminationID ::= SEQUENCE { wildcard [0] SEQUENCE OF WildcardField, id [1] OCTET STRING } */
		grow_write("\x30\x07\xa0\x00\x81\x03" "abc", 9, &g);
	}
	g.buf[2] = (unsigned char)((g.len - 4) >> 8);
	g.buf[3] = (unsigned char)(g.len - 4);
	check_same(&asn_DEF_TerminationIDList, g.buf, g.len, "300 items");
	free(g.buf);
}

/*
 * b's TLVs (definite lengths) written again with every length of a
 * constructed value (all: of every value) in the 0x81 / 0x82 long forms;
 * 0 if b is not such a structure or out is too small.
 */
static size_t relength(const unsigned char *b, size_t len, unsigned char *out, size_t cap,
                       int all)
{
	size_t i = 0, o = 0;
	while (i < len) {
		size_t t = i;
		int c = (b[i] & 0x20) != 0;
		if ((b[i++] & 0x1f) == 0x1f)
			while (i < len && (b[i++] & 0x80))
				;
		size_t tag_end = i;
		if (i >= len || b[i] == 0x80)
			return 0;
		size_t n = 0;
		if (b[i] < 0x80) {
			n = b[i++];
		} else {
			unsigned k = b[i++] & 0x7f;
			if (k > 2)
				return 0;
			for (; k; k--)
				n = n << 8 | (i < len ? b[i++] : 0);
		}
		if (n > len - i || o + (tag_end - t) + 3 > cap)
			return 0;
		/* The identifier octets, then the length, then the contents. */
		memcpy(out + o, b + t, tag_end - t);
		o += tag_end - t;
		unsigned char *lp = out + o;
		size_t body;
		if (c) {
			o += 3;
			body = relength(b + i, n, out + o, cap - o, all);
			if (n && !body)
				return 0;
		} else {
			o += 3;
			if (n > cap - o)
				return 0;
			memcpy(out + o, b + i, n);
			body = n;
		}
		if (body > 0xffff)
			return 0;
		if (c || all) {
			if (body < 256) {
				lp[0] = 0x81;
				lp[1] = (unsigned char)body;
				memmove(lp + 2, lp + 3, body);
				o -= 1;
			} else {
				lp[0] = 0x82;
				lp[1] = (unsigned char)(body >> 8);
				lp[2] = (unsigned char)body;
			}
		} else {
			lp[0] = (unsigned char)body;
			memmove(lp + 1, lp + 3, body);
			o -= 2;
		}
		o += body;
		i += n;
	}
	return o;
}


/* Every vector with the lengths of its constructed values (all: of every value) in long forms. */
static void test_long_form_lengths(void **state)
{
	(void)state;
	static unsigned char alt[16384];
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		size_t len;
		unsigned char *b = ber_vector(i, &len);
		if (!b)
			continue;
		for (int all = 0; all <= 1; all++) {
			size_t alen = relength(b, len, alt, sizeof alt, all);
			assert_true(alen > len);
			char what[128];
			snprintf(what, sizeof what, "%s, long-form lengths%s", C->entries[i].name,
			         all ? " everywhere" : "");
			check_same(&asn_DEF_MegacoMessage, alt, alen, what);
			decoded y;
			by_reader(&y, &asn_DEF_MegacoMessage, alt, alen);
			if (!y.ok)
				fail_msg("%s: rejected", what);
			drop(&y);
		}
		free(b);
		n++;
	}
	assert_int_equal(n, 149);
}

/*
 * An extensible CHOICE carrying an alternative this module does not know
 * (X.680's extension additions of a later version): the message decodes,
 * but no encoder may write it back, as the model cannot hold that
 * alternative; each refuses it naming the CHOICE (ber_reader.h).
 */
static void test_unknown_alternative(void **state)
{
	(void)state;
	size_t len;
	unsigned char *b = NULL;
	for (size_t i = 0; i < C->count && !b; i++)
		if (!strcmp(C->entries[i].name, "msg01a"))
			b = read_file(C->entries[i].path[MEGACO_ENC_BER - 1], &len);
	assert_non_null(b);
	/* The first Transaction's alternative, transactionRequest [0], made [10]. */
	assert_int_equal(b[0x1e], 0xa0);
	b[0x1e] = 0xaa;
	megaco_message *m = NULL;
	megaco_error err;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m, &err), MEGACO_OK);
	const MegacoMessage_t *mm = megaco_message_model_const(m);
	const Transaction_t *t = mm->mess.messageBody.choice.transactions.list.array[0];
	assert_int_equal(t->present, Transaction_PR_NOTHING);
	static const megaco_encoding encs[] = { MEGACO_ENC_BER, MEGACO_ENC_PER, MEGACO_ENC_PRETTY,
		                                    MEGACO_ENC_COMPACT };
	for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
		unsigned char out[4096];
		size_t olen = 0;
		int rc = megaco_encode(m, encs[i], NULL, out, sizeof out, &olen, &err);
		if (rc != MEGACO_ERR_CONSTRAINT || !strstr(err.message, "Transaction"))
			fail_msg("encoding %d: %d (%s), expected CONSTRAINT naming the Transaction",
			         (int)encs[i], rc, err.message);
	}
	megaco_message_free(m);
	/* The same message without the change encodes as before. */
	b[0x1e] = 0xa0;
	assert_int_equal(megaco_decode(MEGACO_ENC_BER, b, len, NULL, &m, &err), MEGACO_OK);
	unsigned char out[4096];
	size_t olen = 0;
	assert_int_equal(megaco_encode(m, MEGACO_ENC_BER, NULL, out, sizeof out, &olen, &err),
	                 MEGACO_OK);
	megaco_message_free(m);
	free(b);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_same_as_asn1c),
		cmocka_unit_test(test_indefinite_forms),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_constructed_strings),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_depth_limits),
		cmocka_unit_test(test_long_form_lengths),
		cmocka_unit_test(test_unknown_alternative),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
