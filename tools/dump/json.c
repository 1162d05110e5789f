/*
 * --json: every field of the model as JSON, written by a walk over the
 * const schema (src/schema.h), so no type of the module needs code of its
 * own. SEQUENCEs and CHOICEs become objects keyed by the ASN.1
 * member names, SEQUENCE OFs arrays; INTEGERs numbers, ENUMERATEDs their
 * names, BOOLEAN true/false, NULL null; an OCTET STRING a string when all its
 * bytes are printable ASCII, otherwise {"hex": "..."}; a BIT STRING
 * {"hex": "...", "unused": N}.
 */
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "app.h"
#include "megaco_schema.h"
#include "schema.h"

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

static void primitive(strbuf *b, const schema_type *t, const void *ptr)
{
	switch (t->kind) {
	case SK_ENUM: {
		long v = *(const long *)ptr;
		const schema_enum *e = &schema_enums[t->enum_first], *end = e + t->enum_count;
		while (e < end && e->value != v)
			e++;
		if (e < end)
			json_string(b, (const uint8_t *)e->name, strlen(e->name));
		else
			sb_printf(b, "%ld", v);
		break;
	}
	case SK_INT:
		if (t->flags & SF_UNSIGNED)
			sb_printf(b, "%lu", *(const unsigned long *)ptr);
		else
			sb_printf(b, "%ld", *(const long *)ptr);
		break;
	case SK_BITS: {
		const BIT_STRING_t *bs = ptr;
		sb_put(b, "{\"hex\":", 7);
		json_hex(b, bs->buf, (size_t)bs->size);
		sb_printf(b, ",\"unused\":%d}", bs->bits_unused);
		break;
	}
	case SK_OCTETS:
	case SK_IA5: {
		const OCTET_STRING_t *os = ptr;
		if (printable(os->buf, (size_t)os->size)) {
			json_string(b, os->buf, (size_t)os->size);
		} else {
			sb_put(b, "{\"hex\":", 7);
			json_hex(b, os->buf, (size_t)os->size);
			sb_put(b, "}", 1);
		}
		break;
	}
	case SK_BOOL:
		sb_put(b, *(const BOOLEAN_t *)ptr ? "true" : "false", *(const BOOLEAN_t *)ptr ? 4 : 5);
		break;
	case SK_NULL:
		sb_put(b, "null", 4);
		break;
	default:
		/* A type this walk does not know: say so rather than guess. */
		sb_printf(b, "{\"unknown_type\":\"%s\"}", t->name);
	}
}

static int visit(const schema_node *n, void *user)
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
		if (n->index < 0) {
			json_string(s->b, (const uint8_t *)n->member->name, strlen(n->member->name));
			sb_put(s->b, ":", 1);
		}
	}
	const schema_type *t = &schema_types[n->type];
	char open = t->kind == SK_SEQUENCE || t->kind == SK_CHOICE ? '{'
	            : schema_constructed(t->kind)                  ? '['
	                                                           : 0;
	if (!open) {
		primitive(s->b, t, n->ptr);
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
	if (schema_walk(SCHEMA_ROOT, (void *)(uintptr_t)megaco_message_model_const(m), visit, &s) < 0) {
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
