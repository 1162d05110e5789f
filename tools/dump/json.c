/*
 * --json: every field of the model as JSON, written by a walk over the
 * asn1c type descriptors (src/model_walk.c), so no type of the module needs
 * code of its own. SEQUENCEs and CHOICEs become objects keyed by the ASN.1
 * member names, SEQUENCE OFs arrays; INTEGERs numbers, ENUMERATEDs their
 * names, BOOLEAN true/false, NULL null; an OCTET STRING a string when all its
 * bytes are printable ASCII, otherwise {"hex": "..."}; a BIT STRING
 * {"hex": "...", "unused": N}.
 */
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "IA5String.h"
#include "MegacoMessage.h"
#include "NULL.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "app.h"
#include "model_walk.h"

#define JSON_DEPTH 128

typedef struct json_state {
	strbuf *b;
	unsigned open;             /* containers open */
	unsigned count[JSON_DEPTH]; /* members written in each */
	char close[JSON_DEPTH];    /* '}' or ']' */
} json_state;

static void json_string(strbuf *b, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	sb_put(b, "\"", 1);
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f)
			continue;
		sb_put(b, (const char *)p + run, i - run);
		run = i + 1;
		char esc[7] = { '\\', 0 };
		size_t elen = 2;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4], esc[5] = hex[c & 15];
			elen = 6;
		}
		sb_put(b, esc, elen);
	}
	sb_put(b, (const char *)p + run, n - run);
	sb_put(b, "\"", 1);
}

static void json_hex(strbuf *b, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	sb_put(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		char h[2] = { hex[p[i] >> 4], hex[p[i] & 15] };
		sb_put(b, h, 2);
	}
	sb_put(b, "\"", 1);
}

static int printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\r' && p[i] != '\n') || p[i] >= 0x7f)
			return 0;
	return 1;
}

static void primitive(strbuf *b, const asn_TYPE_descriptor_t *td, const void *ptr)
{
	asn_struct_print_f *pr = td->print_struct;
	if (pr == asn_DEF_NativeEnumerated.print_struct) {
		long v = *(const long *)ptr;
		const asn_INTEGER_enum_map_t *e = INTEGER_map_value2enum(td->specifics, v);
		if (e)
			json_string(b, (const uint8_t *)e->enum_name, e->enum_len);
		else
			sb_printf(b, "%ld", v);
	} else if (pr == asn_DEF_NativeInteger.print_struct) {
		const asn_INTEGER_specifics_t *s = td->specifics;
		if (s && s->field_unsigned)
			sb_printf(b, "%lu", *(const unsigned long *)ptr);
		else
			sb_printf(b, "%ld", *(const long *)ptr);
	} else if (pr == asn_DEF_BIT_STRING.print_struct) {
		const BIT_STRING_t *bs = ptr;
		sb_put(b, "{\"hex\":", 7);
		json_hex(b, bs->buf, (size_t)bs->size);
		sb_printf(b, ",\"unused\":%d}", bs->bits_unused);
	} else if (pr == asn_DEF_OCTET_STRING.print_struct || pr == asn_DEF_IA5String.print_struct) {
		const OCTET_STRING_t *os = ptr;
		if (printable(os->buf, (size_t)os->size)) {
			json_string(b, os->buf, (size_t)os->size);
		} else {
			sb_put(b, "{\"hex\":", 7);
			json_hex(b, os->buf, (size_t)os->size);
			sb_put(b, "}", 1);
		}
	} else if (pr == asn_DEF_BOOLEAN.print_struct) {
		sb_put(b, *(const BOOLEAN_t *)ptr ? "true" : "false", *(const BOOLEAN_t *)ptr ? 4 : 5);
	} else if (pr == asn_DEF_NULL.print_struct) {
		sb_put(b, "null", 4);
	} else {
		/* A type this walk does not know: say so rather than guess. */
		sb_printf(b, "{\"unknown_type\":\"%s\"}", td->name);
	}
}

static int visit(const walk_node *n, void *user)
{
	json_state *s = user;
	while (s->open > n->depth) {
		s->open--;
		sb_put(s->b, &s->close[s->open], 1);
	}
	if (n->depth > 0) {
		unsigned k = n->depth - 1;
		if (s->count[k]++)
			sb_put(s->b, ",", 1);
		if (n->member >= 0) {
			const char *name = n->parent->elements[n->member].name;
			json_string(s->b, (const uint8_t *)name, strlen(name));
			sb_put(s->b, ":", 1);
		}
	}
	const asn_TYPE_descriptor_t *td = n->td;
	char open = td_is_sequence(td) || td_is_choice(td) ? '{' : td_is_list(td) ? '[' : 0;
	if (!open) {
		primitive(s->b, td, n->ptr);
		return WALK_CONTINUE;
	}
	if (s->open >= JSON_DEPTH) /* deeper than any valid message nests */
		return -1;
	sb_put(s->b, &open, 1);
	s->close[s->open] = open == '{' ? '}' : ']';
	s->count[s->open] = 0;
	s->open++;
	return WALK_CONTINUE;
}

void json_message(dump_ctx *ctx, strbuf *b, const dump_origin *o, const megaco_message *m,
                  megaco_encoding enc)
{
	char src[64], dst[64];
	endpoint_format(&o->src, src, sizeof src);
	endpoint_format(&o->dst, dst, sizeof dst);
	static const char *const transports[] = { "udp", "tcp", "sctp", "log" };
	int64_t us = (o->sec - ctx->first_sec) * 1000000 + ((int64_t)o->usec - ctx->first_usec);
	sb_printf(b,
	          "{\"frame\":%llu,\"time\":%lld.%06u,\"relative_us\":%lld,\"transport\":\"%s\","
	          "\"src\":\"%s\",\"dst\":\"%s\",\"encoding\":\"%s\",\"names\":\"%s\",\"message\":",
	          (unsigned long long)o->frame, (long long)o->sec, (unsigned)o->usec, (long long)us,
	          transports[o->transport], src, dst, megaco_encoding_name(enc),
	          megaco_message_name_form(m) == MEGACO_NAMES_TEXT ? "text" : "binary");
	json_state s;
	s.b = b;
	s.open = 0;
	if (model_walk(&asn_DEF_MegacoMessage, (void *)megaco_message_model_const(m), visit, &s) < 0) {
		b->len = 0;
		sb_printf(b, "{\"frame\":%llu,\"error\":\"nesting too deep for --json\"}",
		          (unsigned long long)o->frame);
		return;
	}
	while (s.open) {
		s.open--;
		sb_put(b, &s.close[s.open], 1);
	}
	sb_put(b, "}", 1);
}
