/*
 * SCTP (RFC 9260; H.248 over SCTP: payload protocol identifier 7): the DATA
 * chunks of a packet, any number of them and bundled with other chunks, and
 * user messages fragmented over several DATA chunks put back together.
 * A fragmented message's chunks carry consecutive TSNs from the one with
 * the B(eginning) flag to the one with the E(nd) flag, on one stream, and
 * with DATA chunks (not I-DATA) no other message's fragments come between
 * them; so each direction of an association keeps the fragments it holds
 * sorted by TSN, and a message is complete when a B..E run has no gap.
 * Chunks may come out of order or twice (retransmissions): a DATA chunk
 * whose TSN is held, or was among the last SEEN handed on, is a copy and
 * is dropped, whole messages as fragments. Each direction holds at most
 * FRAG_LIMIT bytes of fragments: beyond that the oldest are given up, with
 * a warning, so memory stays bounded whatever the capture.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define SCTP_PPID_H248 7
#define BUCKETS 256
#define FRAG_LIMIT (1u << 20)
#define FLAG_E 1
#define FLAG_B 2
#define SEEN 128

typedef struct fragment {
	struct fragment *next; /* by TSN (serial number order, RFC 1982) */
	uint32_t tsn;
	uint16_t stream;
	uint8_t flags;
	size_t len;
	uint8_t data[];
} fragment;

typedef struct direction {
	struct direction *next;
	dump_endpoint src, dst;
	fragment *frags;
	size_t bytes;
	uint32_t seen[SEEN]; /* TSNs handed on lately, a ring */
	unsigned nseen, seen_at;
} direction;

struct sctp_table {
	direction *bucket[BUCKETS];
};

sctp_table *sctp_table_new(void)
{
	return calloc(1, sizeof(sctp_table));
}

static unsigned ep_hash(const dump_endpoint *a, const dump_endpoint *b)
{
	uint32_t h = (uint32_t)a->port * 31 + b->port;
	for (size_t i = 0; i < 16; i += 4)
		h = (h ^ rd32(a->addr + i) ^ rd32(b->addr + i) * 7) * 0x9e3779b1u;
	return h >> 24 & (BUCKETS - 1);
}

static void drop_first(direction *d)
{
	fragment *f = d->frags;
	d->frags = f->next;
	d->bytes -= f->len;
	free(f);
}

void sctp_table_free(dump_ctx *ctx, sctp_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < BUCKETS; i++)
		while (t->bucket[i]) {
			direction *d = t->bucket[i];
			if (d->frags) {
				dump_origin o = { .frame = ctx->frames, .src = d->src, .dst = d->dst,
				                  .transport = DUMP_SCTP };
				dump_warn(ctx, &o, "SCTP: %zu bytes of fragments of a user message never completed",
				          d->bytes);
			}
			while (d->frags)
				drop_first(d);
			t->bucket[i] = d->next;
			free(d);
		}
	free(t);
}

static direction *direction_get(sctp_table *t, const dump_origin *o)
{
	unsigned h = ep_hash(&o->src, &o->dst);
	direction *d = t->bucket[h];
	while (d && !(endpoint_eq(&d->src, &o->src) && endpoint_eq(&d->dst, &o->dst)))
		d = d->next;
	if (!d && (d = calloc(1, sizeof *d))) {
		d->src = o->src, d->dst = o->dst;
		d->next = t->bucket[h];
		t->bucket[h] = d;
	}
	return d;
}

static int seen(const direction *d, uint32_t tsn)
{
	for (unsigned i = 0; i < d->nseen; i++)
		if (d->seen[i] == tsn)
			return 1;
	return 0;
}

static void remember(direction *d, uint32_t tsn)
{
	d->seen[d->seen_at] = tsn;
	d->seen_at = (d->seen_at + 1) % SEEN;
	if (d->nseen < SEEN)
		d->nseen++;
}

/* Hands on each message whose fragments are all there. */
static void try_complete(dump_ctx *ctx, const dump_origin *o, direction *d)
{
	/* the runs B..E with consecutive TSNs, in TSN order */
	fragment **start = &d->frags;
	while (*start) {
		fragment *b = *start;
		if (!(b->flags & FLAG_B)) {
			start = &b->next;
			continue;
		}
		size_t total = b->len;
		fragment *e = b;
		while (!(e->flags & FLAG_E) && e->next && e->next->tsn == e->tsn + 1 &&
		       !(e->next->flags & FLAG_B) && e->next->stream == b->stream) {
			e = e->next;
			total += e->len;
		}
		if (!(e->flags & FLAG_E)) {
			start = &e->next;
			continue;
		}
		uint8_t *msg = malloc(total ? total : 1);
		if (!msg)
			return;
		size_t n = 0;
		fragment *stop = e->next;
		while (*start != stop) {
			fragment *f = *start;
			memcpy(msg + n, f->data, f->len);
			n += f->len;
			*start = f->next;
			d->bytes -= f->len;
			remember(d, f->tsn);
			free(f);
		}
		transport_payload(ctx, o, msg, n);
		free(msg);
	}
}

static void fragment_add(dump_ctx *ctx, const dump_origin *o, direction *d, uint32_t tsn,
                         unsigned stream, unsigned flags, const uint8_t *p, size_t len)
{
	fragment **pp = &d->frags;
	while (*pp && (int32_t)((*pp)->tsn - tsn) < 0)
		pp = &(*pp)->next;
	if (*pp && (*pp)->tsn == tsn)
		return; /* a retransmission of one held */
	if (len > FRAG_LIMIT)
		return;
	while (d->bytes + len > FRAG_LIMIT && d->frags) {
		dump_warn(ctx, o, "SCTP: more than %u bytes of fragments waiting: giving up TSN %lu",
		          FRAG_LIMIT, (unsigned long)d->frags->tsn);
		drop_first(d);
		pp = &d->frags;
		while (*pp && (int32_t)((*pp)->tsn - tsn) < 0)
			pp = &(*pp)->next;
	}
	fragment *f = malloc(sizeof *f + len);
	if (!f)
		return;
	f->tsn = tsn, f->stream = (uint16_t)stream, f->flags = (uint8_t)flags, f->len = len;
	memcpy(f->data, p, len);
	f->next = *pp;
	*pp = f;
	d->bytes += len;
	try_complete(ctx, o, d);
}

void transport_sctp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len)
{
	if (len < 12)
		return;
	int port_ok = transport_ports(ctx, o, p);
	o->transport = DUMP_SCTP;
	size_t off = 12;
	while (off + 4 <= len) {
		unsigned type = p[off], flags = p[off + 1];
		size_t clen = rd16(p + off + 2);
		if (clen < 4 || clen > len - off)
			break;
		if (type == 0 && clen >= 16) {
			uint32_t ppid = rd32(p + off + 12);
			if (ppid == SCTP_PPID_H248 || (ppid == 0 && port_ok)) {
				const uint8_t *data = p + off + 16;
				uint32_t tsn = rd32(p + off + 4);
				direction *d = direction_get(ctx->sctp, o);
				if (!d || seen(d, tsn)) {
					/* a retransmission (or no memory) */
				} else if ((flags & (FLAG_B | FLAG_E)) == (FLAG_B | FLAG_E)) {
					remember(d, tsn);
					transport_payload(ctx, o, data, clen - 16);
				} else {
					fragment_add(ctx, o, d, tsn, rd16(p + off + 8), flags & (FLAG_B | FLAG_E),
					             data, clen - 16);
				}
			}
		}
		off += (clen + 3) & ~(size_t)3;
	}
}
