/*
 * TCP (RFC 3525 Annex D.2): per-direction stream reassembly and TPKT framing
 * (RFC 1006: version 3, reserved 0, a 16-bit length that counts the 4-byte
 * header). Segments that repeat bytes already seen (retransmissions,
 * overlaps) give only their new bytes; segments from the future wait in a
 * sorted list until the gap is filled. A stream holds only the bytes of the
 * message it is in plus waiting segments, so memory follows the longest
 * open stream, not the capture.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define BUCKETS 4096
/* Bytes a direction may hold waiting for a gap to fill before it gives up
 * on the gap (a capture that lost a segment). */
#define OOO_LIMIT (4u << 20)

typedef struct segment {
	struct segment *next;
	uint32_t seq;
	size_t len;
	uint8_t data[];
} segment;

typedef struct stream {
	struct stream *next;
	dump_endpoint src, dst;
	uint32_t next_seq;
	uint8_t *buf; /* bytes in order, not yet framed */
	size_t len, cap;
	segment *ooo; /* sorted by seq */
	size_t ooo_bytes;
	int lost_sync;
} stream;

struct tcp_table {
	stream *bucket[BUCKETS];
	size_t bytes;
};

tcp_table *tcp_table_new(void)
{
	return calloc(1, sizeof(tcp_table));
}

size_t tcp_table_bytes(const tcp_table *t)
{
	return t->bytes;
}

static unsigned ep_hash(const dump_endpoint *a, const dump_endpoint *b)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < 16; i++)
		h = (h ^ a->addr[i]) * 16777619u, h = (h ^ b->addr[i]) * 16777619u;
	h = (h ^ a->port) * 16777619u;
	h = (h ^ b->port) * 16777619u;
	return h % BUCKETS;
}

static void clear_ooo(tcp_table *t, stream *s)
{
	while (s->ooo) {
		segment *g = s->ooo;
		s->ooo = g->next;
		t->bytes -= g->len;
		free(g);
	}
	s->ooo_bytes = 0;
}

static void remove_stream(tcp_table *t, stream *s)
{
	stream **pp = &t->bucket[ep_hash(&s->src, &s->dst)];
	while (*pp != s)
		pp = &(*pp)->next;
	*pp = s->next;
	clear_ooo(t, s);
	t->bytes -= s->cap;
	free(s->buf);
	free(s);
}

static void report_leftover(dump_ctx *ctx, const dump_origin *o, const stream *s, const char *why)
{
	if (s->len || s->ooo)
		dump_warn(ctx, o, "TCP stream %s with %zu bytes of an unfinished message%s", why, s->len,
		          s->ooo ? " and segments after a gap" : "");
}

void tcp_table_free(dump_ctx *ctx, tcp_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < BUCKETS; i++)
		while (t->bucket[i]) {
			stream *s = t->bucket[i];
			dump_origin o = { .frame = ctx->frames, .src = s->src, .dst = s->dst,
			                  .transport = DUMP_TCP };
			report_leftover(ctx, &o, s, "ends (end of capture)");
			remove_stream(t, s);
		}
	free(t);
}

static int append(tcp_table *t, stream *s, const uint8_t *p, size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 2048;
		while (cap < s->len + n)
			cap *= 2;
		uint8_t *b = realloc(s->buf, cap);
		if (!b)
			return -1;
		t->bytes += cap - s->cap;
		s->buf = b, s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->next_seq += (uint32_t)n;
	return 0;
}

/* Takes the part of [seq, seq+n) at or after next_seq; 1 if it was all old. */
static int take(tcp_table *t, stream *s, uint32_t seq, const uint8_t *p, size_t n)
{
	uint32_t behind = s->next_seq - seq; /* bytes already seen, modulo 2^32 */
	if (behind >= n)
		return 1;
	return append(t, s, p + behind, n - behind) ? -1 : 0;
}

static void wait_for_gap(dump_ctx *ctx, const dump_origin *o, stream *s, uint32_t seq,
                         const uint8_t *p, size_t n)
{
	tcp_table *t = ctx->tcp;
	if (s->ooo_bytes + n > OOO_LIMIT) {
		dump_warn(ctx, o, "TCP gap never filled (more than %u bytes waiting): skipping it",
		          OOO_LIMIT);
		/* Resume at the first waiting segment; the message in progress is lost. */
		t->bytes -= s->cap;
		free(s->buf);
		s->buf = NULL, s->len = s->cap = 0;
		s->next_seq = s->ooo ? s->ooo->seq : seq;
		s->lost_sync = 1;
		return;
	}
	segment **pp = &s->ooo;
	while (*pp && (int32_t)((*pp)->seq - seq) < 0)
		pp = &(*pp)->next;
	if (*pp && (*pp)->seq == seq && (*pp)->len >= n)
		return; /* the same future segment again */
	segment *g = malloc(sizeof *g + n);
	if (!g)
		return;
	g->seq = seq, g->len = n;
	memcpy(g->data, p, n);
	g->next = *pp;
	*pp = g;
	s->ooo_bytes += n;
	t->bytes += n;
}

/* A plausible TPKT header at p: version 3, reserved 0, a length that holds
 * at least one byte, followed by what starts a message. */
static int tpkt_plausible(const uint8_t *p, size_t len)
{
	if (len < 5 || p[0] != 3 || p[1] != 0 || rd16(p + 2) < 5)
		return 0;
	unsigned c = p[4];
	return c == 0x30 || c == '!' || c == 'M' || c == 'm' || c == ' ' || c == '\r' ||
	       c == '\n' || c == '\t' || c == ';';
}

static void frame_tpkt(dump_ctx *ctx, const dump_origin *o, stream *s)
{
	size_t off = 0;
	while (s->len - off >= 4) {
		const uint8_t *p = s->buf + off;
		if (s->lost_sync || p[0] != 3 || p[1] != 0 || rd16(p + 2) < 4) {
			if (!s->lost_sync)
				dump_warn(ctx, o, "TCP stream: no TPKT header here: looking for the next one");
			size_t k = off;
			while (k < s->len && !tpkt_plausible(s->buf + k, s->len - k))
				k++;
			if (k + 5 > s->len) { /* need more bytes to decide */
				off = k < s->len ? k : s->len;
				s->lost_sync = 1;
				break;
			}
			off = k;
			s->lost_sync = 0;
			continue;
		}
		size_t plen = rd16(p + 2);
		if (s->len - off < plen)
			break;
		if (plen > 4)
			transport_payload(ctx, o, p + 4, plen - 4);
		off += plen;
	}
	if (off) {
		memmove(s->buf, s->buf + off, s->len - off);
		s->len -= off;
	}
}

void transport_tcp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len)
{
	if (len < 20)
		return;
	if (!transport_ports(ctx, o, p))
		return;
	o->transport = DUMP_TCP;
	uint32_t seq = rd32(p + 4);
	size_t hl = (size_t)(p[12] >> 4) * 4;
	unsigned flags = p[13];
	if (hl < 20 || hl > len)
		return;
	const uint8_t *data = p + hl;
	size_t n = len - hl;

	tcp_table *t = ctx->tcp;
	unsigned h = ep_hash(&o->src, &o->dst);
	stream *s = t->bucket[h];
	while (s && !(endpoint_eq(&s->src, &o->src) && endpoint_eq(&s->dst, &o->dst)))
		s = s->next;
	if (flags & TCP_SYN) {
		if (s) {
			report_leftover(ctx, o, s, "restarts (SYN)");
			remove_stream(t, s);
			s = NULL;
		}
		seq++;
	}
	if (!s) {
		if (!n && !(flags & TCP_SYN))
			return;
		if (!(s = calloc(1, sizeof *s)))
			return;
		s->src = o->src, s->dst = o->dst;
		/* Joined mid-stream: start here, and find the next TPKT header
		 * if this segment does not start with one. */
		s->next_seq = seq;
		s->next = t->bucket[h];
		t->bucket[h] = s;
	}
	if (n) {
		if ((int32_t)(seq - s->next_seq) > 0) {
			wait_for_gap(ctx, o, s, seq, data, n);
		} else {
			take(t, s, seq, data, n);
			/* waiting segments the new bytes reach */
			while (s->ooo && (int32_t)(s->ooo->seq - s->next_seq) <= 0) {
				segment *g = s->ooo;
				s->ooo = g->next;
				s->ooo_bytes -= g->len;
				t->bytes -= g->len;
				take(t, s, g->seq, g->data, g->len);
				free(g);
			}
		}
		frame_tpkt(ctx, o, s);
	}
	/* A FIN with a gap before it waits for the gap (a retransmission may
	 * fill it); the stream is then reported at the end of the capture. */
	if ((flags & TCP_RST) || ((flags & TCP_FIN) && !s->ooo)) {
		report_leftover(ctx, o, s, flags & TCP_RST ? "reset" : "closed");
		remove_stream(t, s);
	}
}
