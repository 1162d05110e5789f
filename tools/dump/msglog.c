/*
 * Message logs, in two formats that carry the same records (time, source,
 * destination, message):
 *   text: per record a comment line ";<record> <sec>.<usec> <src> <dst>"
 *         and the message in compact text (RFC 3525 B), then a newline.
 *         Our encoder never starts a line of a message with ';', so a
 *         line that does starts a record.
 *   ber:  a stream of self-delimiting BER records,
 *         LogRecord ::= [APPLICATION 1] IMPLICIT SEQUENCE {
 *             time [0] IMPLICIT INTEGER,      -- µs since the epoch
 *             src  [1] IMPLICIT OCTET STRING, -- address (4 or 16) + port (2)
 *             dst  [2] IMPLICIT OCTET STRING,
 *             message MegacoMessage }         -- as megaco_encode writes BER
 * The reader takes either (told apart by the first byte) and hands each
 * record to dump_message(). The fast scan (--scan) finds the records that
 * carry a transaction ID without building a model: in BER by walking TLV
 * lengths down to the transaction IDs, in text by looking at the numbers
 * after the compact transaction keywords; it may let through a record that
 * does not match (the decode and the filter then drop it), never the
 * other way round.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define LOG_CHUNK (1u << 20)
#define BER_LOG_TAG 0x61 /* [APPLICATION 1] constructed */

struct msglog_writer {
	FILE *f;
	log_format fmt;
	uint64_t records;
};

msglog_writer *msglog_open(const char *path, log_format fmt)
{
	msglog_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	if (!(w->f = fopen(path, "wb"))) {
		perror(path);
		free(w);
		return NULL;
	}
	w->fmt = fmt;
	return w;
}

int msglog_close(msglog_writer *w)
{
	int rc = ferror(w->f) ? -1 : 0;
	if (fclose(w->f))
		rc = -1;
	free(w);
	return rc;
}

int msglog_encode(log_format fmt, const megaco_options *opts, const megaco_message *m, strbuf *b,
                  strbuf *why)
{
	megaco_encoding enc = fmt == LOG_TEXT ? MEGACO_ENC_COMPACT : MEGACO_ENC_BER;
	megaco_error err;
	int rc = output_encode(b, m, enc, opts, &err);
	if (rc == MEGACO_OK)
		return 0;
	sb_printf(why, "not written to the log: cannot encode as %s: %s%s%s", megaco_encoding_name(enc),
	          megaco_strerror(rc), rc == MEGACO_ERR_NOMEM ? "" : ": ",
	          rc == MEGACO_ERR_NOMEM ? "" : err.message);
	return -1;
}

log_format msglog_format(const msglog_writer *w)
{
	return w->fmt;
}

static size_t ber_len(uint8_t *p, size_t n)
{
	if (n < 0x80) {
		p[0] = (uint8_t)n;
		return 1;
	}
	size_t k = 0;
	for (size_t v = n; v; v >>= 8)
		k++;
	p[0] = (uint8_t)(0x80 | k);
	for (size_t i = 0; i < k; i++)
		p[1 + i] = (uint8_t)(n >> (8 * (k - 1 - i)));
	return 1 + k;
}

static size_t ep_bytes(const dump_endpoint *ep, uint8_t *p)
{
	size_t a = ep->family == 4 ? 4 : ep->family == 6 ? 16 : 0;
	if (!a)
		return 0;
	memcpy(p, ep->addr, a);
	p[a] = (uint8_t)(ep->port >> 8), p[a + 1] = (uint8_t)ep->port;
	return a + 2;
}

void msglog_put(msglog_writer *w, const dump_origin *o, const char *msg, size_t n)
{
	w->records++;
	if (w->fmt == LOG_TEXT) {
		char src[64], dst[64];
		endpoint_format(&o->src, src, sizeof src);
		endpoint_format(&o->dst, dst, sizeof dst);
		fprintf(w->f, ";%llu %lld.%06u %s %s\n", (unsigned long long)w->records,
		        (long long)o->sec, (unsigned)o->usec, src, dst);
		fwrite(msg, 1, n, w->f);
		fputc('\n', w->f);
		return;
	}
	/* the fields before the message */
	uint8_t head[96], fields[80];
	size_t f = 0;
	int64_t us = o->sec * 1000000 + o->usec;
	uint8_t tb[8];
	size_t tl = 8;
	for (int i = 0; i < 8; i++)
		tb[i] = (uint8_t)((uint64_t)us >> (56 - 8 * i));
	size_t skip = 0; /* minimal two's complement */
	while (skip < 7 && ((tb[skip] == 0 && !(tb[skip + 1] & 0x80)) ||
	                    (tb[skip] == 0xff && (tb[skip + 1] & 0x80))))
		skip++;
	tl -= skip;
	fields[f++] = 0x80, fields[f++] = (uint8_t)tl;
	memcpy(fields + f, tb + skip, tl), f += tl;
	for (int k = 0; k < 2; k++) {
		uint8_t eb[18];
		size_t el = ep_bytes(k ? &o->dst : &o->src, eb);
		fields[f++] = (uint8_t)(0x81 + k), fields[f++] = (uint8_t)el;
		memcpy(fields + f, eb, el), f += el;
	}
	size_t h = 0;
	head[h++] = BER_LOG_TAG;
	h += ber_len(head + h, f + n);
	memcpy(head + h, fields, f), h += f;
	fwrite(head, 1, h, w->f);
	fwrite(msg, 1, n, w->f);
}

/* --- reading ------------------------------------------------------------- */

/* A TLV at p: sets *hdr (tag + length octets) and *clen and returns 1;
 * 0 when it does not fit in n bytes, -1 when it is not one we write
 * (multi-octet tag, indefinite or over-long length). */
static int tlv(const uint8_t *p, size_t n, size_t *hdr, size_t *clen)
{
	if (n >= 1 && (p[0] & 0x1f) == 0x1f)
		return -1;
	if (n < 2)
		return 0;
	size_t i = 1, len = p[i++];
	if (len & 0x80) {
		size_t k = len & 0x7f;
		if (!k || k > 4)
			return -1;
		if (i + k > n)
			return 0;
		len = 0;
		while (k--)
			len = len << 8 | p[i++];
	}
	if (len > n - i)
		return 0;
	*hdr = i, *clen = len;
	return 1;
}

static int tlv_ok(const uint8_t *p, size_t n, size_t *hdr, size_t *clen)
{
	return tlv(p, n, hdr, clen) == 1;
}

static uint32_t ber_uint(const uint8_t *p, size_t n)
{
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Does a BER MegacoMessage carry transaction ID tid? Walks
 * MegacoMessage > mess [1] > messageBody [2] > transactions [1] >
 * Transaction > its transactionId [0] (or, in a TransactionResponseAck [3],
 * each TransactionAck's firstAck [0] .. lastAck [1]). */
static int ber_has_tid(const uint8_t *p, size_t n, uint32_t tid)
{
	size_t h, l;
	if (!tlv_ok(p, n, &h, &l) || p[0] != 0x30)
		return 1; /* not what we expect: let the decoder decide */
	p += h, n = l;
	/* skip authHeader [0], find mess [1] */
	while (n && tlv_ok(p, n, &h, &l) && p[0] != 0xa1)
		p += h + l, n -= h + l;
	if (!n || !tlv_ok(p, n, &h, &l))
		return 1;
	p += h, n = l;
	while (n && tlv_ok(p, n, &h, &l) && p[0] != 0xa2) /* version, mId */
		p += h + l, n -= h + l;
	if (!n || !tlv_ok(p, n, &h, &l))
		return 1;
	p += h, n = l;
	if (!tlv_ok(p, n, &h, &l) || p[0] != 0xa1) /* messageError: no transactions */
		return 0;
	p += h, n = l;
	while (n && tlv_ok(p, n, &h, &l)) {
		const uint8_t *t = p + h;
		size_t tn = l, th, tlen;
		unsigned kind = p[0];
		p += h + l, n -= h + l;
		if (kind == 0xa3) { /* TransactionResponseAck: SEQUENCE OF TransactionAck */
			while (tn && tlv_ok(t, tn, &th, &tlen)) {
				const uint8_t *a = t + th;
				size_t an = tlen, ah, al;
				uint32_t first = 0, last = 0;
				int have_last = 0;
				while (an && tlv_ok(a, an, &ah, &al)) {
					if (a[0] == 0x80)
						first = ber_uint(a + ah, al);
					else if (a[0] == 0x81)
						last = ber_uint(a + ah, al), have_last = 1;
					a += ah + al, an -= ah + al;
				}
				if (tid >= first && tid <= (have_last ? last : first))
					return 1;
				t += th + tlen, tn -= th + tlen;
			}
		} else if (tlv_ok(t, tn, &th, &tlen) && t[0] == 0x80 && ber_uint(t + th, tlen) == tid) {
			return 1;
		}
	}
	return 0;
}

static int digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

static int word_char(uint8_t c)
{
	return digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '/';
}

static uint32_t read_num(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	while (p < end && digit(*p) && v <= 0xFFFFFFFFu)
		v = v * 10 + (unsigned)(*p++ - '0');
	*pp = p;
	return (uint32_t)v;
}

/* Does a compact text message carry transaction ID tid? Looks at the
 * number after each T=, P=, PN=, SM= that starts a word, and the ranges
 * of K{...}. */
static int text_has_tid(const uint8_t *p, size_t n, uint32_t tid)
{
	const uint8_t *end = p + n;
	for (const uint8_t *q = p; q < end; q++) {
		if (*q != '=' && *q != '{')
			continue;
		const uint8_t *k = q;
		while (k > p && (k[-1] >= 'A' && k[-1] <= 'Z'))
			k--;
		size_t kl = (size_t)(q - k);
		if (k > p && word_char(k[-1]))
			continue;
		const uint8_t *v = q + 1;
		if (*q == '=' && ((kl == 1 && (*k == 'T' || *k == 'P')) ||
		                  (kl == 2 && (!memcmp(k, "PN", 2) || !memcmp(k, "SM", 2))))) {
			if (v < end && digit(*v) && read_num(&v, end) == tid && (v == end || !digit(*v)))
				return 1;
		} else if (*q == '{' && kl == 1 && *k == 'K') {
			while (v < end && *v != '}') {
				if (!digit(*v)) {
					v++;
					continue;
				}
				uint32_t a = read_num(&v, end), b = a;
				if (v < end && *v == '-' && v + 1 < end && digit(v[1]))
					v++, b = read_num(&v, end);
				if (tid >= a && tid <= b)
					return 1;
			}
		}
	}
	return 0;
}

static int parse_endpoint(const char *s, dump_endpoint *ep)
{
	memset(ep, 0, sizeof *ep);
	char host[64];
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof host)
		return -1;
	if (s[0] == '[') {
		if (colon[-1] != ']')
			return -1;
		memcpy(host, s + 1, (size_t)(colon - s - 2));
		host[colon - s - 2] = 0;
		if (inet_pton(AF_INET6, host, ep->addr) != 1)
			return -1;
		ep->family = 6;
	} else {
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = 0;
		if (inet_pton(AF_INET, host, ep->addr) != 1)
			return -1;
		ep->family = 4;
	}
	ep->port = (uint16_t)strtoul(colon + 1, NULL, 10);
	return 0;
}

/* The comment line of a text record: ";N sec.usec src dst". */
static void text_header(const uint8_t *p, size_t n, dump_origin *o)
{
	char line[256];
	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, p, n);
	line[n] = 0;
	long long sec = 0;
	unsigned usec = 0;
	char src[80], dst[80];
	if (sscanf(line, ";%*u %lld.%u %79s %79s", &sec, &usec, src, dst) == 4) {
		o->sec = sec, o->usec = usec;
		parse_endpoint(src, &o->src);
		parse_endpoint(dst, &o->dst);
	}
}

typedef struct reader {
	dump_ctx *ctx;
	long long scan_tid;
	uint64_t records;
	int bad; /* the log was cut short or damaged */
} reader;

/* Relative times count from the first record, delivered or not. */
static void note_first(reader *r, const dump_origin *o)
{
	dump_ctx *ctx = r->ctx;
	if (!ctx->have_first) {
		ctx->have_first = 1;
		ctx->first_sec = o->sec, ctx->first_usec = o->usec;
	}
}

static void deliver(reader *r, dump_origin *o, const uint8_t *msg, size_t n)
{
	dump_ctx *ctx = r->ctx;
	o->frame = ++r->records;
	ctx->frames = r->records;
	o->transport = DUMP_LOG;
	note_first(r, o);
	dump_message(ctx, o, msg, n);
}

/* Handles the complete records at the start of buf; returns bytes used. */
static size_t ber_records(reader *r, const uint8_t *buf, size_t n, int at_eof)
{
	size_t used = 0;
	while (used < n) {
		const uint8_t *p = buf + used;
		size_t h, l, left = n - used;
		int t = tlv(p, left, &h, &l);
		if (t == 0 && !at_eof)
			break; /* the record goes on in the next chunk */
		if (t != 1) {
			dump_origin o;
			memset(&o, 0, sizeof o);
			o.frame = r->records + 1;
			dump_warn(r->ctx, &o, t ? "not a log record: the rest of the log (%zu bytes) is skipped"
			                        : "log ends inside a record (%zu bytes left)", left);
			r->bad = 1;
			return n;
		}
		dump_origin o;
		memset(&o, 0, sizeof o);
		const uint8_t *msg = p, *q = p + h;
		size_t mlen = h + l;
		if (p[0] == BER_LOG_TAG) {
			size_t qn = l, fh, fl;
			while (qn && tlv_ok(q, qn, &fh, &fl) && (q[0] & 0xe0) == 0x80) {
				const uint8_t *v = q + fh;
				if (q[0] == 0x80 && fl && fl <= 8) {
					int64_t us = (v[0] & 0x80) ? -1 : 0;
					for (size_t i = 0; i < fl; i++)
						us = (int64_t)((uint64_t)us << 8 | v[i]);
					o.sec = us / 1000000, o.usec = (uint32_t)(us % 1000000);
				} else if (q[0] == 0x81 || q[0] == 0x82) {
					dump_endpoint *ep = q[0] == 0x81 ? &o.src : &o.dst;
					if (fl == 6 || fl == 18) {
						ep->family = fl == 6 ? 4 : 6;
						memcpy(ep->addr, v, fl - 2);
						ep->port = (uint16_t)rd16(v + fl - 2);
					}
				}
				q += fh + fl, qn -= fh + fl;
			}
			msg = q, mlen = qn;
		}
		if (r->scan_tid < 0 || ber_has_tid(msg, mlen, (uint32_t)r->scan_tid)) {
			deliver(r, &o, msg, mlen);
		} else {
			note_first(r, &o);
			r->records++;
		}
		used += h + l;
	}
	return used;
}

/* Text records: from a line starting with ';' to the next such line. */
static size_t text_records(reader *r, const uint8_t *buf, size_t n, int at_eof)
{
	size_t used = 0;
	while (used < n) {
		const uint8_t *p = buf + used, *end = buf + n;
		const uint8_t *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			break;
		const uint8_t *body = *p == ';' ? eol + 1 : p, *next = body;
		for (;;) {
			const uint8_t *nl = memchr(next, '\n', (size_t)(end - next));
			if (!nl) {
				next = end;
				break;
			}
			if (nl + 1 < end && nl[1] == ';') {
				next = nl + 1;
				break;
			}
			next = nl + 1;
			if (next == end)
				break;
		}
		if (next == end && !at_eof)
			break; /* the record may go on in the next chunk */
		dump_origin o;
		memset(&o, 0, sizeof o);
		size_t blen = (size_t)(next - body);
		while (blen && (body[blen - 1] == '\n' || body[blen - 1] == '\r'))
			blen--;
		int want = r->scan_tid < 0 || text_has_tid(body, blen, (uint32_t)r->scan_tid);
		/* the header line is read only for records that are used */
		if (*p == ';' && (want || !r->ctx->have_first))
			text_header(p, (size_t)(eol - p), &o);
		if (want) {
			deliver(r, &o, body, blen);
		} else {
			note_first(r, &o);
			r->records++;
		}
		used = (size_t)(next - buf);
	}
	return used;
}

int msglog_read(dump_ctx *ctx, const char *path, long long scan_tid)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 2;
	}
	reader r = { ctx, scan_tid, 0, 0 };
	size_t cap = 2 * LOG_CHUNK, len = 0;
	uint8_t *buf = malloc(cap);
	int fmt = -1, rc = 0;
	if (!buf) {
		fclose(f);
		return 2;
	}
	for (;;) {
		if (cap - len < LOG_CHUNK) {
			uint8_t *b = realloc(buf, cap * 2);
			if (!b) {
				rc = 2;
				break;
			}
			buf = b, cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		int eof = got == 0;
		if (fmt < 0 && len)
			fmt = buf[0] == BER_LOG_TAG || buf[0] == 0x30 ? LOG_BER : LOG_TEXT;
		size_t used = fmt == LOG_BER ? ber_records(&r, buf, len, eof)
		                             : text_records(&r, buf, len, eof);
		memmove(buf, buf + used, len - used);
		len -= used;
		if (eof)
			break;
	}
	if (ferror(f)) {
		perror(path);
		rc = 2;
	}
	free(buf);
	fclose(f);
	return rc ? rc : r.bad;
}
