/*
 * UDP (RFC 3525 Annex D.1): pick the datagrams on Megaco ports, and split
 * a payload (a datagram's, a TPKT's or an SCTP user message's) that holds
 * more than one message: BER messages by their outer TLV length here, text
 * messages where the decoder, having read one, meets the next one's header
 * (MEGACO/ or !/), on the decoding thread (dump_render).
 */
#include <string.h>
#include <strings.h>

#include "dump.h"

int transport_ports(const dump_ctx *ctx, dump_origin *o, const uint8_t *p)
{
	o->src.port = (uint16_t)rd16(p);
	o->dst.port = (uint16_t)rd16(p + 2);
	for (size_t i = 0; i < ctx->nports; i++)
		if (ctx->ports[i] == o->src.port || ctx->ports[i] == o->dst.port)
			return 1;
	return 0;
}

/* Length of the BER TLV at p (header + contents), 0 when it does not fit
 * or is indefinite (then the rest of the payload is taken as one message). */
static size_t ber_tlv_size(const uint8_t *p, size_t len)
{
	size_t i = 1;
	if (len < 2)
		return 0;
	if ((p[0] & 0x1f) == 0x1f) /* multi-octet tag */
		while (i < len && p[i++] & 0x80) {}
	if (i >= len)
		return 0;
	size_t n = p[i++];
	if (n & 0x80) {
		size_t k = n & 0x7f;
		if (k == 0 || k > sizeof(size_t) || i + k > len)
			return 0;
		n = 0;
		while (k--)
			n = n << 8 | p[i++];
	}
	return n <= len - i ? i + n : 0;
}

int text_header_at(const uint8_t *p, size_t len)
{
	return (len >= 7 && !strncasecmp((const char *)p, "MEGACO/", 7)) ||
	       (len >= 2 && p[0] == '!' && p[1] == '/');
}

/* inline: transport_udp()'s, for every datagram */
static inline void payload(dump_ctx *ctx, const dump_origin *o, const uint8_t *p, size_t len)
{
	while (len) {
		/* leading white space between text messages */
		while (len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++, len--;
		if (!len)
			return;
		size_t n = len;
		/* Text: where a message ends only the decoder knows (it stops at
		 * the next one's header), so the rest goes whole to the decoding
		 * thread, which splits it (dump_render). */
		if (p[0] == 0x30) {
			size_t tlv = ber_tlv_size(p, len);
			if (tlv)
				n = tlv;
		}
		dump_message(ctx, o, p, n);
		p += n, len -= n;
	}
}

void transport_payload(dump_ctx *ctx, const dump_origin *o, const uint8_t *p, size_t len)
{
	payload(ctx, o, p, len);
}

void transport_udp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len)
{
	if (len < 8)
		return;
	if (!transport_ports(ctx, o, p))
		return;
	size_t ulen = rd16(p + 4);
	if (ulen < 8 || ulen > len) /* cut by the snapshot length: what there is */
		ulen = len;
	o->transport = DUMP_UDP;
	payload(ctx, o, p + 8, ulen - 8);
}
