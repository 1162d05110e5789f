/*
 * megaco-dump: Megaco/H.248 messages out of packet captures and message logs.
 * The pipeline, one file per stage:
 *   capture.c  pcap/pcapng through libpcap, link layers, IPv4/IPv6
 *              (capture_nopcap.c instead in a build without libpcap)
 *   ip_frag.c  IP fragment reassembly
 *   transport.c UDP, and splitting a payload into messages
 *   sctp_data.c SCTP DATA chunks, fragmented user messages reassembled
 *   tcp_stream.c TCP reassembly per direction and TPKT framing
 *   msglog.c   message logs (text and BER) written and read
 *   facts.c    what a decoded message says, at transaction/command level
 *   filter.c   --tid, --ctx, --term, ... over those facts
 *   output.c   summary lines, whole messages, JSON Lines (json.c)
 *   pipeline.c the messages decoded in batches on worker threads, handed
 *              on in capture order
 *   facts.c    what a decoded message says, at transaction/command level
 *   filter.c   --tid, --ctx, --term, ... over those facts
 *   output.c   summary lines, whole messages, JSON Lines (json.c)
 *   stats.c    --stats counters and transaction response times
 * megaco_dump.c holds the options, and what happens to each message:
 * dump_render() on a decoding thread, dump_apply() in capture order.
 */
#ifndef MEGACO_DUMP_H
#define MEGACO_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "megaco/megaco.h"

/* Multi-byte fields of packet headers, read from bytes (network order). */
static inline unsigned rd16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

typedef struct dump_endpoint {
	uint8_t family; /* 4 or 6; 0 for a message from a log */
	uint8_t addr[16];
	uint16_t port;
} dump_endpoint;

typedef enum dump_transport { DUMP_UDP, DUMP_TCP, DUMP_SCTP, DUMP_LOG } dump_transport;

/* Where a message came from. */
typedef struct dump_origin {
	uint64_t frame;  /* 1-based frame (or log record) number */
	int64_t sec;     /* capture time */
	uint32_t usec;
	dump_endpoint src, dst;
	dump_transport transport;
} dump_origin;

static inline int endpoint_eq(const dump_endpoint *a, const dump_endpoint *b)
{
	return a->family == b->family && a->port == b->port && !memcmp(a->addr, b->addr, 16);
}

/* Formats "1.2.3.4:2944" or "[::1]:2944" into buf (at least 64 bytes). */
void endpoint_format(const dump_endpoint *ep, char *buf, size_t cap);

typedef struct ip_frag_table ip_frag_table;
typedef struct tcp_table tcp_table;
typedef struct sctp_table sctp_table;
typedef struct pipeline pipeline;
struct dump_app;

/* Starts a struct member on a cache line of its own (two lines: CPUs fetch
 * lines in pairs), so that what one thread writes often does not share a
 * line with what another reads. */
#define DUMP_OWN_LINE _Alignas(128)

/* The pipeline's state; the tool's own (options, outputs) is behind app. */
typedef struct dump_ctx {
	/* read by the decoding threads */
	struct dump_app *app;
	int64_t first_sec; /* time of the first frame, for relative times */
	uint32_t first_usec;
	int have_first;
	unsigned ports[64]; /* UDP/TCP/SCTP ports that carry Megaco */
	size_t nports;
	pipeline *pipe;
	/* the reading thread's alone, frames written for every frame */
	DUMP_OWN_LINE uint64_t frames; /* frames read */
	uint64_t warnings; /* input problems reported by dump_warn() */
	ip_frag_table *frags;
	tcp_table *tcp;
	sctp_table *sctp;
} dump_ctx;

/* --- capture.c ------------------------------------------------------- */
/* Reads a capture file ("-" for stdin). Returns 0, 1 when the capture was
 * cut short (reported, what was read is kept) or 2 when it cannot be read. */
int capture_run(dump_ctx *ctx, const char *path);
/* What reads captures: libpcap's version, or none (capture_nopcap.c). */
const char *capture_library(void);

/* --- ip_frag.c ------------------------------------------------------- */
ip_frag_table *ip_frag_new(void);
void ip_frag_free(ip_frag_table *t);
/* Adds one fragment (offset in bytes, more = more fragments follow). When
 * the datagram is complete, returns its payload (valid until the next call)
 * and sets *len; otherwise NULL. key: family, addresses, id, protocol. */
const uint8_t *ip_frag_add(ip_frag_table *t, const uint8_t *key, size_t key_len,
                           int64_t now_sec, size_t offset, int more, const uint8_t *data,
                           size_t len, size_t *out_len);
size_t ip_frag_pending(const ip_frag_table *t);

/* --- transport.c ----------------------------------------------------- */
/* A UDP payload, an SCTP user message or one TPKT's contents: one or more
 * messages. */
void transport_payload(dump_ctx *ctx, const dump_origin *o, const uint8_t *p, size_t len);
void transport_udp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len);
/* Does a text message header (MEGACO/ or !/, any case) start at p? */
int text_header_at(const uint8_t *p, size_t len);
/* Reads a UDP, TCP or SCTP header's source and destination ports (the
 * first four bytes at p) into o; 1 if either is one of ctx's ports. */
int transport_ports(const dump_ctx *ctx, dump_origin *o, const uint8_t *p);

/* --- sctp_data.c ----------------------------------------------------- */
sctp_table *sctp_table_new(void);
/* Reports user messages left incomplete, then frees. */
void sctp_table_free(dump_ctx *ctx, sctp_table *t);
void transport_sctp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len);

/* --- tcp_stream.c ---------------------------------------------------- */
tcp_table *tcp_table_new(void);
/* Reports streams left with bytes of an unfinished message, then frees. */
void tcp_table_free(dump_ctx *ctx, tcp_table *t);
void transport_tcp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len);
size_t tcp_table_bytes(const tcp_table *t); /* bytes held, for the memory test */

/* --- pipeline.c ------------------------------------------------------ */
/* threads: decoding threads besides the reading one (0: it decodes). */
pipeline *pipeline_new(dump_ctx *ctx, unsigned threads);
/* One complete message, or text messages one after the other (bytes valid
 * during the call only): queued, and decoded, rendered and handed on in
 * order, later. */
void dump_message(dump_ctx *ctx, const dump_origin *o, const uint8_t *msg, size_t len);
/* Hands on every message queued so far (a no-op inside dump_apply()). */
void pipeline_drain(dump_ctx *ctx);
void pipeline_free(dump_ctx *ctx);

/* --- megaco_dump.c --------------------------------------------------- */
/* A problem with the input as a whole ("megaco-dump: " and a newline
 * added), after the output of every message before it. */
void dump_note(dump_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A problem with the input that is not a decode failure (reported, counted,
 * after the output of every message before it). */
void dump_warn(dump_ctx *ctx, const dump_origin *o, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
