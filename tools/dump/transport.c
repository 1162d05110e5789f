/*
 * UDP (RFC 3525 Annex D.1): pick the datagrams on Megaco ports, and split
 * a payload (a datagram's, a TPKT's or an SCTP user message's) that holds
 * more than one message. BER messages are
 * split by their outer TLV length; text messages where the decoder, having
 * read one message, meets the next one's header (MEGACO/ or !/).
 */
#include <string.h>
#include <strings.h>

#include "dump.h"

int transport_port_wanted(const dump_ctx *ctx, unsigned port)
{
	for (size_t i = 0; i < ctx->nports; i++)
		if (ctx->ports[i] == port)
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

static int text_header_at(const uint8_t *p, size_t len)
{
	return (len >= 7 && !strncasecmp((const char *)p, "MEGACO/", 7)) ||
	       (len >= 2 && p[0] == '!' && p[1] == '/');
}

/* Could a second text message start after the first byte? Looks at each
 * '/' for a "!" or "MEGACO" before it; false alarms only cost a decode. */
static int another_header(const uint8_t *p, size_t len)
{
	for (size_t i = 2; i < len; i++) {
		const uint8_t *s = memchr(p + i, '/', len - i);
		if (!s)
			return 0;
		i = (size_t)(s - p);
		/* most '/' are inside termination IDs: one byte rules them out */
		if (s[-1] == '!' ||
		    (i >= 7 && (s[-1] | 0x20) == 'o' && !strncasecmp((const char *)s - 6, "MEGACO", 6)))
			return 1;
	}
	return 0;
}

void transport_payload(dump_ctx *ctx, const dump_origin *o, const uint8_t *p, size_t len)
{
	while (len) {
		/* leading white space between text messages */
		while (len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++, len--;
		if (!len)
			return;
		size_t n = len;
		if (p[0] == 0x30) {
			size_t tlv = ber_tlv_size(p, len);
			if (tlv)
				n = tlv;
		} else if (text_header_at(p, len) && another_header(p, len)) {
			/* Where does the message end? The text decoder knows: it
			 * stops at the next header with a syntax error there. */
			megaco_message *m = NULL;
			megaco_error err;
			int rc = megaco_decode(MEGACO_ENC_AUTO, p, len, NULL, &m, &err);
			megaco_message_free(m);
			if (rc != MEGACO_OK && err.offset > 0 && err.offset < len &&
			    text_header_at(p + err.offset, len - err.offset))
				n = err.offset;
		}
		dump_message(ctx, o, p, n);
		p += n, len -= n;
	}
}

void transport_udp(dump_ctx *ctx, dump_origin *o, const uint8_t *p, size_t len)
{
	if (len < 8)
		return;
	o->src.port = (uint16_t)rd16(p);
	o->dst.port = (uint16_t)rd16(p + 2);
	if (!transport_port_wanted(ctx, o->src.port) && !transport_port_wanted(ctx, o->dst.port))
		return;
	size_t ulen = rd16(p + 4);
	if (ulen < 8 || ulen > len) /* cut by the snapshot length: what there is */
		ulen = len;
	o->transport = DUMP_UDP;
	transport_payload(ctx, o, p + 8, ulen - 8);
}
