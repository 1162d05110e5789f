/*
 * Capture reading: libpcap hands over frames (pcap or pcapng, file or
 * stdin); this file peels the link layer (Ethernet with VLAN tags, Linux
 * cooked SLL/SLL2, raw IP, BSD loopback) and the IP header, reassembles
 * fragments, and passes UDP, TCP and SCTP payloads on to transport.c and
 * tcp_stream.c. Every header is read from bytes, so the host's byte order
 * and alignment never matter.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#if defined(__has_include)
#if __has_include(<stdio_ext.h>)
#include <stdio_ext.h> /* __fsetlocking: glibc, musl */
#define HAVE_FSETLOCKING 1
#endif
#endif

#include "dump.h"

/* Link-layer types (the LINKTYPE_ values libpcap reports as DLT_ values). */
enum {
	LT_NULL = 0, LT_EN10MB = 1, LT_RAW_OLD = 12, LT_RAW_OLD2 = 14, LT_RAW = 101,
	LT_LINUX_SLL = 113, LT_IPV4 = 228, LT_IPV6 = 229, LT_LINUX_SLL2 = 276
};
enum { ETH_IPV4 = 0x0800, ETH_IPV6 = 0x86dd };
enum { READ_BUFFER = 1 << 20 };
enum { IPP_TCP = 6, IPP_UDP = 17, IPP_SCTP = 132 };

static void transport_dispatch(dump_ctx *ctx, dump_origin *o, unsigned proto,
                               const uint8_t *p, size_t len)
{
	switch (proto) {
	case IPP_UDP: transport_udp(ctx, o, p, len); break;
	case IPP_TCP: transport_tcp(ctx, o, p, len); break;
	case IPP_SCTP: transport_sctp(ctx, o, p, len); break;
	default: break;
	}
}

/* key for ip_frag: family, src, dst, id (4 bytes), protocol */
static size_t frag_key(uint8_t *key, const dump_origin *o, uint32_t id, unsigned proto)
{
	size_t alen = o->src.family == 4 ? 4 : 16, n = 0;
	key[n++] = o->src.family;
	memcpy(key + n, o->src.addr, alen), n += alen;
	memcpy(key + n, o->dst.addr, alen), n += alen;
	key[n++] = (uint8_t)(id >> 24), key[n++] = (uint8_t)(id >> 16);
	key[n++] = (uint8_t)(id >> 8), key[n++] = (uint8_t)id;
	key[n++] = (uint8_t)proto;
	return n;
}

/* The IP layers return the transport's payload (NULL: none, or a fragment
 * kept) and set its protocol and length. */
static const uint8_t *ipv4(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len,
                           unsigned *proto, size_t *plen)
{
	if (len < 20 || p[0] >> 4 != 4)
		return NULL;
	size_t ihl = (size_t)(p[0] & 15) * 4, total = rd16(p + 2);
	if (ihl < 20 || total < ihl || ihl > len)
		return NULL;
	if (total > len) /* cut by the snapshot length: use what there is */
		total = len;
	/* total < len: Ethernet padding after the datagram, dropped */
	unsigned frag = rd16(p + 6);
	*proto = p[9];
	o->src.family = o->dst.family = 4;
	memcpy(o->src.addr, p + 12, 4);
	memcpy(o->dst.addr, p + 16, 4);
	*plen = total - ihl;
	if (!(frag & 0x3fff)) /* neither MF set nor a non-zero offset */
		return p + ihl;
	uint8_t key[64];
	size_t klen = frag_key(key, o, rd16(p + 4), *proto);
	return ip_frag_add(ctx->frags, key, klen, o->sec, (size_t)(frag & 0x1fff) * 8,
	                   (frag & 0x2000) != 0, p + ihl, *plen, plen);
}

static const uint8_t *ipv6(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len,
                           unsigned *proto, size_t *plen_out)
{
	if (len < 40 || p[0] >> 4 != 6)
		return NULL;
	size_t plen = rd16(p + 4);
	if (plen > len - 40)
		plen = len - 40;
	o->src.family = o->dst.family = 6;
	memcpy(o->src.addr, p + 8, 16);
	memcpy(o->dst.addr, p + 24, 16);
	unsigned next = p[6];
	const uint8_t *q = p + 40;
	/* Extension headers: hop-by-hop, routing, destination options, fragment. */
	for (;;) {
		if (next == 0 || next == 43 || next == 60) {
			if (plen < 8 || (size_t)(q[1] + 1) * 8 > plen)
				return NULL;
			size_t hl = (size_t)(q[1] + 1) * 8;
			next = q[0], q += hl, plen -= hl;
		} else if (next == 44) {
			if (plen < 8)
				return NULL;
			unsigned off = rd16(q + 2);
			uint8_t key[64];
			size_t klen = frag_key(key, o, rd32(q + 4), q[0]);
			next = q[0], q += 8, plen -= 8;
			q = ip_frag_add(ctx->frags, key, klen, o->sec, off & 0xfff8, off & 1, q, plen, &plen);
			if (!q)
				return NULL;
		} else {
			break;
		}
	}
	*proto = next, *plen_out = plen;
	return q;
}

/* (one call of transport_dispatch(), so that it is inlined here) */
static void network(dump_ctx *ctx, dump_origin *o, unsigned ethertype, const uint8_t *p, size_t len)
{
	unsigned proto = 0;
	size_t plen = 0;
	const uint8_t *payload = ethertype == ETH_IPV4   ? ipv4(ctx, o, p, len, &proto, &plen)
	                         : ethertype == ETH_IPV6 ? ipv6(ctx, o, p, len, &proto, &plen)
	                                                 : NULL;
	if (payload)
		transport_dispatch(ctx, o, proto, payload, plen);
}

/* The link layer: the network layer's type and where it starts (one call
 * of network() for all link types, so that it is inlined here). */
static void frame(dump_ctx *ctx, int linktype, dump_origin *o, const uint8_t *p, size_t len)
{
	unsigned type;
	size_t off;
	switch (linktype) {
	case LT_EN10MB:
		if (len < 14)
			return;
		off = 12;
		type = rd16(p + off);
		/* 802.1Q, 802.1ad and the old QinQ tags, any number deep */
		while ((type == 0x8100 || type == 0x88a8 || type == 0x9100) && len >= off + 6) {
			off += 4;
			type = rd16(p + off);
		}
		off += 2;
		break;
	case LT_LINUX_SLL:
		if (len < 16)
			return;
		type = rd16(p + 14), off = 16;
		break;
	case LT_LINUX_SLL2:
		if (len < 20)
			return;
		type = rd16(p), off = 20;
		break;
	case LT_RAW: case LT_RAW_OLD: case LT_RAW_OLD2: case LT_IPV4: case LT_IPV6:
		if (len < 1)
			return;
		type = p[0] >> 4 == 6 ? ETH_IPV6 : ETH_IPV4, off = 0;
		break;
	case LT_NULL: {
		/* The address family in the capturing host's byte order: 2 is
		 * AF_INET everywhere; AF_INET6 differs by OS (10, 24, 28, 30). */
		if (len < 4)
			return;
		uint32_t af = p[0] ? p[0] : p[3];
		type = af == 2 ? ETH_IPV4 : ETH_IPV6, off = 4;
		break;
	}
	default:
		return;
	}
	network(ctx, o, type, p + off, len - off);
}

static int linktype_known(int lt)
{
	switch (lt) {
	case LT_NULL: case LT_EN10MB: case LT_RAW_OLD: case LT_RAW_OLD2: case LT_RAW:
	case LT_LINUX_SLL: case LT_IPV4: case LT_IPV6: case LT_LINUX_SLL2:
		return 1;
	default:
		return 0;
	}
}

const char *capture_library(void)
{
	return pcap_lib_version();
}

/* What the callback of pcap_loop() needs. */
typedef struct reader {
	dump_ctx *ctx;
	int linktype;
	const char *path;
} reader;

/* One record from libpcap (its bytes valid during the call only). */
static void on_record(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	reader *rd = (reader *)user;
	dump_ctx *ctx = rd->ctx;
	int lt = rd->linktype;
	dump_origin o;
	memset(&o, 0, sizeof o);
	o.frame = ++ctx->frames;
	o.sec = (int64_t)h->ts.tv_sec;
	o.usec = (uint32_t)h->ts.tv_usec;
	if (!ctx->have_first) {
		ctx->have_first = 1;
		ctx->first_sec = o.sec;
		ctx->first_usec = o.usec;
		if (!linktype_known(lt))
			fprintf(stderr, "megaco-dump: %s: link type %d (%s) is not supported\n", rd->path,
			        lt, pcap_datalink_val_to_name(lt) ? pcap_datalink_val_to_name(lt) : "?");
	}
	frame(ctx, lt, &o, data, h->caplen);
}

int capture_run(dump_ctx *ctx, const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "megaco-dump: %s: %s\n", path, strerror(errno));
		return 2;
	}
	/* libpcap reads records with fread(); stdio's default buffer (the
	 * file system's block, 4 KiB) makes that a read() per dozen frames,
	 * which cost a tenth of a --stats run. The buffer is ours: given NULL,
	 * glibc ignores the size and takes the block size again. Static: stdin
	 * keeps it after pcap_close(), and a run reads one capture. */
	static char buffer[READ_BUFFER];
	setvbuf(f, buffer, _IOFBF, sizeof buffer);
#ifdef HAVE_FSETLOCKING
	/* Only this thread reads f: libpcap's two fread()s a frame need not
	 * take the stream's lock, an atomic operation once decoding threads
	 * exist. */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
#endif
	pcap_t *pc = pcap_fopen_offline(f, errbuf);
	if (!pc) {
		fprintf(stderr, "megaco-dump: %s: %s\n", path, errbuf);
		if (f != stdin)
			fclose(f);
		return 2;
	}
	/* All records in one call, each handed to on_record(): pcap_next_ex()
	 * a record at a time went through the same loop inside libpcap once
	 * per record, and a callback of its own that copied the header. */
	/* One link type for the file: pcapng allows one per interface, but
	 * libpcap's API has none per record (pcap_datalink() is the file's) and
	 * refuses a pcapng file whose interfaces differ in it. */
	reader rd = { ctx, pcap_datalink(pc), path };
	int rc = 0;
	if (pcap_loop(pc, -1, on_record, (u_char *)&rd) == PCAP_ERROR) {
		/* A capture cut short (a partial record at the end, or a writer
		 * killed mid-file): keep what was read. */
		dump_note(ctx, "%s: after frame %llu: %s", path, (unsigned long long)ctx->frames,
		          pcap_geterr(pc));
		rc = 1;
	}
	pcap_close(pc);
	return rc;
}
