/*
 * dump-mkpcap: writes a packet capture of Megaco messages for megaco-dump's
 * tests and benchmark: the given message files, in turn, between a
 * controller (10.0.0.1) and a gateway (10.0.0.2), alternating direction,
 * text on port 2944 and BER on 2945. Headers are built byte by byte, so the
 * capture is the same on any host.
 *
 *   dump-mkpcap [OPTIONS] -o OUT|- FILE...
 *   --transport udp|tcp|sctp   (default udp)
 *   --link en10mb|vlan|sll|sll2|raw   (default en10mb)
 *   --ipv6                     IPv6 instead of IPv4
 *   --pcapng                   pcapng instead of pcap
 *   --count N                  N messages, cycling through the files
 *   --per-datagram K           K messages per datagram (UDP, all from the
 *                              controller), per burst of TCP segments, or
 *                              K DATA chunks per SCTP packet
 *   --segment N                TCP: segments of at most N bytes of the stream;
 *                              SCTP: user messages in fragments of N bytes
 *   --retransmit               TCP: every 3rd segment sent twice, every 5th
 *                              followed by an overlapping copy; SCTP: every
 *                              3rd packet sent twice
 *   --reorder                  TCP, SCTP: every 2 packets of a direction swapped
 *   --fragment N               IPv4: datagrams cut into N-byte fragments (N % 8 == 0)
 *   --truncate N               drop the last N bytes of the file
 *   --garbage                  add one UDP datagram that is not a message
 *   --tids FILE                also write one line per message: its file name
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { T_UDP, T_TCP, T_SCTP };
enum { L_EN10MB, L_VLAN, L_SLL, L_SLL2, L_RAW };

typedef struct buf {
	uint8_t *p;
	size_t len, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			perror("dump-mkpcap");
			exit(2);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void put8(buf *b, unsigned v) { uint8_t c = (uint8_t)v; put(b, &c, 1); }
static void put16(buf *b, unsigned v) { put8(b, v >> 8); put8(b, v); }
static void put32(buf *b, uint32_t v) { put16(b, v >> 16); put16(b, v & 0xffff); }
/* pcap/pcapng headers in little-endian, whatever the host */
static void le16(buf *b, unsigned v) { put8(b, v); put8(b, v >> 8); }
static void le32(buf *b, uint32_t v) { le16(b, v & 0xffff); le16(b, v >> 16); }

static struct {
	int transport, link, ipv6, pcapng, per_datagram, reorder, retransmit, garbage;
	size_t count, segment, fragment, truncate;
} opt = { T_UDP, L_EN10MB, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };

static FILE *out;
static uint64_t now_us = 1700000000ull * 1000000;
static unsigned ip_id = 1;

static void write_record(const buf *frame)
{
	buf h = { 0 };
	if (opt.pcapng) {
		size_t pad = (4 - frame->len % 4) % 4, total = 32 + frame->len + pad;
		le32(&h, 6), le32(&h, (uint32_t)total), le32(&h, 0);
		le32(&h, (uint32_t)(now_us >> 32)), le32(&h, (uint32_t)now_us);
		le32(&h, (uint32_t)frame->len), le32(&h, (uint32_t)frame->len);
		put(&h, frame->p, frame->len);
		for (size_t i = 0; i < pad; i++)
			put8(&h, 0);
		le32(&h, (uint32_t)total);
	} else {
		le32(&h, (uint32_t)(now_us / 1000000)), le32(&h, (uint32_t)(now_us % 1000000));
		le32(&h, (uint32_t)frame->len), le32(&h, (uint32_t)frame->len);
		put(&h, frame->p, frame->len);
	}
	fwrite(h.p, 1, h.len, out);
	free(h.p);
	now_us += 100;
}

static unsigned linktype(void)
{
	switch (opt.link) {
	case L_SLL: return 113;
	case L_SLL2: return 276;
	case L_RAW: return 101;
	default: return 1;
	}
}

static void file_header(void)
{
	buf h = { 0 };
	if (opt.pcapng) {
		/* Section Header Block, Interface Description Block (µs resolution) */
		le32(&h, 0x0a0d0d0a), le32(&h, 28), le32(&h, 0x1a2b3c4d), le16(&h, 1), le16(&h, 0);
		le32(&h, 0xffffffff), le32(&h, 0xffffffff), le32(&h, 28);
		le32(&h, 1), le32(&h, 20), le16(&h, linktype()), le16(&h, 0), le32(&h, 262144),
			le32(&h, 20);
	} else {
		le32(&h, 0xa1b2c3d4), le16(&h, 2), le16(&h, 4), le32(&h, 0), le32(&h, 0);
		le32(&h, 262144), le32(&h, linktype());
	}
	fwrite(h.p, 1, h.len, out);
	free(h.p);
}

static void link_header(buf *f)
{
	unsigned type = opt.ipv6 ? 0x86dd : 0x0800;
	static const uint8_t mac_a[6] = { 2, 0, 0, 0, 0, 1 }, mac_b[6] = { 2, 0, 0, 0, 0, 2 };
	switch (opt.link) {
	case L_EN10MB:
	case L_VLAN:
		put(f, mac_a, 6), put(f, mac_b, 6);
		if (opt.link == L_VLAN) /* two tags: 802.1ad outer, 802.1Q inner */
			put16(f, 0x88a8), put16(f, 100), put16(f, 0x8100), put16(f, 200);
		put16(f, type);
		break;
	case L_SLL:
		put16(f, 0), put16(f, 1), put16(f, 6), put(f, mac_a, 6), put16(f, 0), put16(f, type);
		break;
	case L_SLL2:
		put16(f, type), put16(f, 0), put32(f, 1), put16(f, 1), put8(f, 0), put8(f, 6);
		put(f, mac_a, 6), put16(f, 0);
		break;
	default:
		break;
	}
}

static void addr(buf *f, int host)
{
	if (opt.ipv6) {
		static const uint8_t pre[14] = { 0x20, 0x01, 0x0d, 0xb8 };
		put(f, pre, 14), put16(f, (unsigned)host);
	} else {
		put8(f, 10), put8(f, 0), put8(f, 0), put8(f, (unsigned)host);
	}
}

/* One IP datagram (fragmented when asked) in one or more frames. */
static void ip_send(int from, int to, unsigned proto, const buf *payload)
{
	if (opt.ipv6) {
		buf f = { 0 };
		link_header(&f);
		put32(&f, 0x60000000), put16(&f, (unsigned)payload->len), put8(&f, proto), put8(&f, 64);
		addr(&f, from), addr(&f, to);
		put(&f, payload->p, payload->len);
		write_record(&f);
		free(f.p);
		return;
	}
	size_t step = opt.fragment ? opt.fragment : payload->len;
	unsigned id = ip_id++;
	for (size_t off = 0; off < payload->len || off == 0; off += step) {
		size_t n = payload->len - off < step ? payload->len - off : step;
		int more = off + n < payload->len;
		buf f = { 0 };
		link_header(&f);
		put8(&f, 0x45), put8(&f, 0), put16(&f, (unsigned)(20 + n)), put16(&f, id);
		put16(&f, (more ? 0x2000u : 0) | (unsigned)(off / 8));
		put8(&f, 64), put8(&f, proto), put16(&f, 0);
		addr(&f, from), addr(&f, to);
		put(&f, payload->p + off, n);
		if (opt.link == L_EN10MB && f.len < 60) /* Ethernet padding */
			while (f.len < 60)
				put8(&f, 0);
		write_record(&f);
		free(f.p);
		if (!payload->len)
			break;
	}
}

static void udp_send(int from, int to, unsigned port, const buf *data)
{
	buf u = { 0 };
	put16(&u, port), put16(&u, port), put16(&u, (unsigned)(8 + data->len)), put16(&u, 0);
	put(&u, data->p, data->len);
	ip_send(from, to, 17, &u);
	free(u.p);
}

/* SCTP: one association per (sender, port); every message is a user
 * message of its own (PPID 7, stream 0 for text, 1 for BER), cut into
 * fragments of --segment bytes, with --per-datagram DATA chunks bundled per
 * packet; the gateway's packets start with a SACK chunk. --reorder swaps
 * every two packets of an association, --retransmit sends every 3rd twice. */
typedef struct sassoc {
	int from;
	unsigned port;
	uint32_t tsn, vtag;
	uint16_t ssn;
	buf chunks, held;
	size_t nchunks;
	int has_held;
} sassoc;

static sassoc sassocs[4];
static size_t nsassocs;

/* CRC32c (RFC 9260 Appendix A), bit by bit: the capture's size is small. */
static uint32_t crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0x82f63b78u : c >> 1;
	}
	return ~c;
}

static void sctp_packet(sassoc *a, const buf *pkt)
{
	static unsigned counter;
	if (opt.reorder && !a->has_held) {
		a->held.len = 0;
		put(&a->held, pkt->p, pkt->len);
		a->has_held = 1;
		return;
	}
	for (int k = 0; k < 2; k++) {
		const buf *b = k ? &a->held : pkt;
		if (k && !a->has_held)
			break;
		ip_send(a->from, 3 - a->from, 132, b);
		if (opt.retransmit && ++counter % 3 == 0)
			ip_send(a->from, 3 - a->from, 132, b);
	}
	a->has_held = 0;
}

static void sctp_flush(sassoc *a)
{
	if (!a->nchunks)
		return;
	buf s = { 0 };
	put16(&s, a->port), put16(&s, a->port), put32(&s, a->vtag), put32(&s, 0);
	if (a->from == 2) /* SACK: cumulative TSN ack, a_rwnd, no gaps, no duplicates */
		put8(&s, 3), put8(&s, 0), put16(&s, 16), put32(&s, 0), put32(&s, 65536), put32(&s, 0);
	put(&s, a->chunks.p, a->chunks.len);
	uint32_t crc = crc32c(s.p, s.len); /* stored least significant byte first */
	s.p[8] = (uint8_t)crc, s.p[9] = (uint8_t)(crc >> 8);
	s.p[10] = (uint8_t)(crc >> 16), s.p[11] = (uint8_t)(crc >> 24);
	sctp_packet(a, &s);
	free(s.p);
	a->chunks.len = 0, a->nchunks = 0;
}

static void sctp_send(int from, unsigned port, const buf *m)
{
	sassoc *a = NULL;
	for (size_t i = 0; i < nsassocs && !a; i++)
		if (sassocs[i].from == from && sassocs[i].port == port)
			a = &sassocs[i];
	if (!a) {
		/* TSN spaces far apart, the first one wrapping past 2^32 soon */
		a = &sassocs[nsassocs];
		a->from = from, a->port = port, a->tsn = 0xfffffff0u + 0x40000000u * (uint32_t)nsassocs;
		a->vtag = (uint32_t)++nsassocs;
	}
	size_t seg = opt.segment && opt.segment < m->len ? opt.segment : m->len;
	for (size_t off = 0; off < m->len; off += seg) {
		size_t n = m->len - off < seg ? m->len - off : seg;
		unsigned flags = (off == 0 ? 2u : 0u) | (off + n == m->len ? 1u : 0u);
		put8(&a->chunks, 0), put8(&a->chunks, flags), put16(&a->chunks, (unsigned)(16 + n));
		put32(&a->chunks, a->tsn++), put16(&a->chunks, port == 2945), put16(&a->chunks, a->ssn);
		put32(&a->chunks, 7);
		put(&a->chunks, m->p + off, n);
		while (a->chunks.len % 4)
			put8(&a->chunks, 0);
		if (++a->nchunks == (size_t)opt.per_datagram)
			sctp_flush(a);
	}
	a->ssn++;
}

/* TCP: one connection per (direction, port); segments are queued per
 * connection and sent when a message is complete, so the edge cases
 * (reordering, retransmission) stay within a connection. */
typedef struct conn {
	int from, to;
	unsigned port;
	uint32_t seq;
	int open, queued;
	buf pending; /* stream bytes not yet sent */
} conn;

static conn conns[4];

static void tcp_segment(conn *c, uint32_t seq, unsigned flags, const uint8_t *p, size_t n);

static conn *get_conn(int from, int to, unsigned port)
{
	for (size_t i = 0; i < 4; i++)
		if (conns[i].open && conns[i].from == from && conns[i].port == port)
			return &conns[i];
	for (size_t i = 0; i < 4; i++)
		if (!conns[i].open) {
			conn *c = &conns[i];
			c->open = 1, c->from = from, c->to = to, c->port = port;
			c->seq = 1000u * (unsigned)(i + 1) + 0xfffff000u; /* wraps past 2^32 soon */
			/* the controller (host 1) connects; the gateway answers SYN-ACK */
			tcp_segment(c, c->seq - 1, from == 1 ? 0x02 : 0x12, NULL, 0);
			return c;
		}
	return NULL;
}

static void tcp_segment(conn *c, uint32_t seq, unsigned flags, const uint8_t *p, size_t n)
{
	buf t = { 0 };
	put16(&t, c->from == 1 ? 40000 + c->port % 100 : c->port);
	put16(&t, c->from == 1 ? c->port : 40000 + c->port % 100);
	/* acknowledge what the other direction has sent */
	uint32_t ack = 0;
	for (size_t i = 0; i < 4; i++)
		if (conns[i].open && conns[i].port == c->port && conns[i].from != c->from)
			ack = conns[i].seq;
	put32(&t, seq), put32(&t, ack), put8(&t, 0x50), put8(&t, flags), put16(&t, 65535);
	put16(&t, 0), put16(&t, 0);
	if (n)
		put(&t, p, n);
	ip_send(c->from, c->to, 6, &t);
	free(t.p);
}

static void tcp_flush(conn *c)
{
	if (!c->pending.len)
		return;
	size_t seg = opt.segment ? opt.segment : c->pending.len;
	size_t nseg = (c->pending.len + seg - 1) / seg;
	static unsigned counter;
	for (size_t i = 0; i < nseg; i++) {
		size_t k = i;
		if (opt.reorder && nseg > 1) /* send 1,0,3,2,... */
			k = (i % 2 == 0) ? (i + 1 < nseg ? i + 1 : i) : i - 1;
		size_t off = k * seg, n = c->pending.len - off < seg ? c->pending.len - off : seg;
		tcp_segment(c, c->seq + (uint32_t)off, 0x18, c->pending.p + off, n);
		counter++;
		if (opt.retransmit && counter % 3 == 0)
			tcp_segment(c, c->seq + (uint32_t)off, 0x18, c->pending.p + off, n);
		if (opt.retransmit && counter % 5 == 0 && off + n < c->pending.len) {
			/* overlap: the second half of this segment and some new bytes */
			size_t from = off + n / 2, m = n;
			if (from + m > c->pending.len)
				m = c->pending.len - from;
			tcp_segment(c, c->seq + (uint32_t)from, 0x18, c->pending.p + from, m);
		}
	}
	c->seq += (uint32_t)c->pending.len;
	c->pending.len = 0;
}

static unsigned port_for(const buf *m)
{
	return m->len && m->p[0] == 0x30 ? 2945 : 2944;
}

static int read_file(const char *path, buf *b)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	uint8_t tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		put(b, tmp, n);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *names_path = NULL;
	int first = argc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
		if (!strcmp(a, "-o")) out_path = v, i++;
		else if (!strcmp(a, "--transport")) opt.transport = !strcmp(v, "tcp") ? T_TCP : !strcmp(v, "sctp") ? T_SCTP : T_UDP, i++;
		else if (!strcmp(a, "--link")) opt.link = !strcmp(v, "vlan") ? L_VLAN : !strcmp(v, "sll") ? L_SLL : !strcmp(v, "sll2") ? L_SLL2 : !strcmp(v, "raw") ? L_RAW : L_EN10MB, i++;
		else if (!strcmp(a, "--ipv6")) opt.ipv6 = 1;
		else if (!strcmp(a, "--pcapng")) opt.pcapng = 1;
		else if (!strcmp(a, "--count")) opt.count = strtoul(v, NULL, 10), i++;
		else if (!strcmp(a, "--per-datagram")) opt.per_datagram = atoi(v), i++;
		else if (!strcmp(a, "--segment")) opt.segment = strtoul(v, NULL, 10), i++;
		else if (!strcmp(a, "--retransmit")) opt.retransmit = 1;
		else if (!strcmp(a, "--reorder")) opt.reorder = 1;
		else if (!strcmp(a, "--fragment")) opt.fragment = strtoul(v, NULL, 10), i++;
		else if (!strcmp(a, "--truncate")) opt.truncate = strtoul(v, NULL, 10), i++;
		else if (!strcmp(a, "--garbage")) opt.garbage = 1;
		else if (!strcmp(a, "--tids")) names_path = v, i++;
		else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "dump-mkpcap: unknown option %s\n", a);
			return 2;
		} else {
			first = i;
			break;
		}
	}
	int nfiles = argc - first;
	if (!out_path || nfiles < 1 || opt.per_datagram < 1 || (opt.fragment && opt.fragment % 8)) {
		fprintf(stderr, "usage: dump-mkpcap [OPTIONS] -o OUT|- FILE...\n");
		return 2;
	}
	buf *msgs = calloc((size_t)nfiles, sizeof *msgs);
	for (int i = 0; i < nfiles; i++)
		if (read_file(argv[first + i], &msgs[i]))
			return 2;
	out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
	FILE *names = names_path ? fopen(names_path, "w") : NULL;
	if (!out || (names_path && !names)) {
		perror("dump-mkpcap");
		return 2;
	}
	file_header();
	size_t total = opt.count ? opt.count : (size_t)nfiles;
	buf dgram = { 0 };
	int dgram_from = 0;
	unsigned dgram_port = 0;
	size_t in_dgram = 0;
	for (size_t k = 0; k < total; k++) {
		const buf *m = &msgs[k % (size_t)nfiles];
		int from = k % 2 ? 2 : 1, to = 3 - from;
		unsigned port = port_for(m);
		if (names)
			fprintf(names, "%s\n", argv[first + (int)(k % (size_t)nfiles)]);
		if (opt.per_datagram > 1)
			from = 1, to = 2;
		if (opt.transport == T_TCP) {
			conn *c = get_conn(from, to, port);
			put16(&c->pending, 0x0300), put16(&c->pending, (unsigned)(4 + m->len));
			put(&c->pending, m->p, m->len);
			if (++c->queued == opt.per_datagram || k + 1 == total)
				tcp_flush(c), c->queued = 0;
			continue;
		}
		if (opt.transport == T_SCTP) {
			sctp_send(from, port, m);
			continue;
		}
		/* several messages in one datagram share direction and port */
		if (in_dgram && (from != dgram_from || port != dgram_port || in_dgram == (size_t)opt.per_datagram)) {
			udp_send(dgram_from, 3 - dgram_from, dgram_port, &dgram);
			dgram.len = 0, in_dgram = 0;
		}
		dgram_from = from, dgram_port = port;
		if (in_dgram && m->p[0] != 0x30)
			put(&dgram, "\r\n", 2);
		put(&dgram, m->p, m->len);
		in_dgram++;
	}
	if (in_dgram)
		udp_send(dgram_from, 3 - dgram_from, dgram_port, &dgram);
	for (size_t i = 0; i < nsassocs; i++) {
		sctp_flush(&sassocs[i]);
		if (sassocs[i].has_held) /* no packet left to swap it with */
			ip_send(sassocs[i].from, 3 - sassocs[i].from, 132, &sassocs[i].held);
	}
	if (opt.garbage) {
		buf g = { 0 };
		put(&g, "MEGACO/1 [1.2.3.4]:5 Transaction = {", 36);
		udp_send(1, 2, 2944, &g);
		free(g.p);
	}
	if (opt.transport == T_TCP)
		for (size_t i = 0; i < 4; i++)
			if (conns[i].open && (tcp_flush(&conns[i]), 1))
				tcp_segment(&conns[i], conns[i].seq, 0x11, NULL, 0); /* FIN */
	if (fflush(out) || ferror(out)) {
		perror("dump-mkpcap");
		return 2;
	}
	if (opt.truncate && out != stdout) {
		long end = ftell(out);
		fclose(out);
		if (end > (long)opt.truncate && truncate(out_path, end - (long)opt.truncate)) {
			perror(out_path);
			return 2;
		}
	} else if (out != stdout) {
		fclose(out);
	}
	if (names)
		fclose(names);
	for (int i = 0; i < nfiles; i++)
		free(msgs[i].p);
	free(msgs);
	free(dgram.p);
	for (size_t i = 0; i < 4; i++)
		free(conns[i].pending.p), free(sassocs[i].chunks.p), free(sassocs[i].held.p);
	return 0;
}
