/*
 * facts_walk(): the transaction/action/command skeleton of a message (the
 * walk is facts_walk.h's, here with the visitor called through a pointer),
 * and the text forms of its IDs.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "MegacoMessage.h"
#include "facts.h"

const char *const command_names[COMMANDS] = {
	"Add", "Move", "Modify", "Subtract", "AuditCapability", "AuditValue", "Notify",
	"ServiceChange"
};
/* The compact keywords of the same commands (RFC 3525 B.2). */
static const char *const command_short[COMMANDS] = { "A", "MV", "MF", "S", "AC", "AV", "N", "SC" };

const char *const tx_kind_names[TX_KINDS] = { "request", "pending", "reply", "ack", "segment-reply" };

int command_from_name(const char *s)
{
	for (int i = 0; i < COMMANDS; i++)
		if (!strcasecmp(s, command_names[i]) || !strcasecmp(s, command_short[i]))
			return i;
	if (!strcasecmp(s, "AuditCapabilities"))
		return COMMAND_AUDIT_CAP;
	return -1;
}

#define FACTS_VISIT(w) ((w)->visit(&(w)->f, (w)->user))
#define FACTS_KINDS(w) ((w)->kinds)
#include "facts_walk.h"

int facts_walk(const MegacoMessage_t *m, unsigned kinds, fact_visitor visit, void *user)
{
	walker w;
	memset(&w, 0, sizeof w);
	w.visit = visit, w.user = user, w.kinds = kinds;
	return walk_message(&w, m);
}

/* --- text forms --------------------------------------------------------- */

typedef struct out {
	char *buf;
	size_t cap, len;
} out;

static void put(out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, o->len++)
		if (o->len + 1 < o->cap)
			o->buf[o->len] = s[i];
	if (o->cap)
		o->buf[o->len < o->cap ? o->len : o->cap - 1] = 0;
}

static void putf(out *o, const char *fmt, unsigned long v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof tmp, fmt, v);
	put(o, tmp, (size_t)n);
}

/* Bytes as written when printable, otherwise \xHH. */
static void put_bytes(out *o, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] > 0x20 && p[i] < 0x7f && p[i] != '\\')
			put(o, (const char *)p + i, 1);
		else
			putf(o, "\\x%02lx", p[i]);
	}
}

size_t format_tid(const TerminationID_t *t, megaco_name_form form, const megaco_options *opts,
                  char *buf, size_t cap)
{
	out o = { buf, cap, 0 };
	put(&o, "", 0);
	if (form == MEGACO_NAMES_TEXT) {
		put_bytes(&o, t->id.buf, t->id.size);
		return o.len;
	}
	uint8_t wild[16];
	size_t nwild = 0;
	for (int i = 0; i < t->wildcard.list.count && nwild < sizeof wild; i++)
		if (t->wildcard.list.array[i]->size == 1)
			wild[nwild++] = t->wildcard.list.array[i]->buf[0];
	size_t n = 0;
	if (megaco_tid_to_text(opts ? opts->tid_layout : NULL, t->id.buf, t->id.size, wild, nwild,
	                       buf, cap, &n) == MEGACO_OK && n < cap)
		return n;
	/* Not in the layout: the octets in hex, then the wildcard octets. */
	o.len = 0;
	put(&o, "0x", 2);
	for (size_t i = 0; i < (size_t)t->id.size; i++)
		putf(&o, "%02lx", t->id.buf[i]);
	for (size_t i = 0; i < nwild; i++)
		putf(&o, i ? ",%02lx" : "/w=%02lx", wild[i]);
	return o.len;
}

size_t format_mid(const MId_t *mid, char *buf, size_t cap)
{
	out o = { buf, cap, 0 };
	put(&o, "", 0);
	const long *port = NULL;
	switch (mid->present) {
	case MId_PR_ip4Address: {
		const OCTET_STRING_t *a = &mid->choice.ip4Address.address;
		put(&o, "[", 1);
		for (size_t i = 0; i < (size_t)a->size; i++)
			putf(&o, i ? ".%lu" : "%lu", a->buf[i]);
		put(&o, "]", 1);
		port = mid->choice.ip4Address.portNumber;
		break;
	}
	case MId_PR_ip6Address: {
		const OCTET_STRING_t *a = &mid->choice.ip6Address.address;
		put(&o, "[", 1);
		for (size_t i = 0; i + 1 < (size_t)a->size; i += 2)
			putf(&o, i ? ":%lx" : "%lx", (unsigned long)a->buf[i] << 8 | a->buf[i + 1]);
		put(&o, "]", 1);
		port = mid->choice.ip6Address.portNumber;
		break;
	}
	case MId_PR_domainName:
		put(&o, "<", 1);
		put_bytes(&o, mid->choice.domainName.name.buf, mid->choice.domainName.name.size);
		put(&o, ">", 1);
		port = mid->choice.domainName.portNumber;
		break;
	case MId_PR_deviceName:
		put_bytes(&o, mid->choice.deviceName.buf, mid->choice.deviceName.size);
		break;
	case MId_PR_mtpAddress:
		put(&o, "MTP{", 4);
		for (size_t i = 0; i < (size_t)mid->choice.mtpAddress.size; i++)
			putf(&o, "%02lx", mid->choice.mtpAddress.buf[i]);
		put(&o, "}", 1);
		break;
	default:
		put(&o, "?", 1);
		break;
	}
	if (port)
		putf(&o, ":%lu", (unsigned long)*port);
	return o.len;
}

size_t format_context(uint32_t ctx, char *buf, size_t cap)
{
	out o = { buf, cap, 0 };
	put(&o, "", 0);
	if (ctx == 0xFFFFFFFEu)
		put(&o, "$", 1);
	else if (ctx == 0xFFFFFFFFu)
		put(&o, "*", 1);
	else if (ctx == 0)
		put(&o, "-", 1);
	else
		putf(&o, "%lu", ctx);
	return o.len;
}
