/*
 * facts_walk(): the transaction/action/command skeleton of a message, read
 * from the asn1c model (the v3 module; v1/v2 messages use a subset), and the
 * text forms of its IDs.
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


typedef struct walker {
	fact_visitor visit;
	void *user;
	unsigned kinds;
	fact f;
} walker;

static int emit(walker *w, fact_kind k)
{
	if (!(w->kinds & FACT_BIT(k)))
		return 0;
	w->f.kind = k;
	return w->visit(&w->f, w->user);
}

static int error_desc(walker *w, const ErrorDescriptor_t *e)
{
	if (!e)
		return 0;
	w->f.error_code = e->errorCode;
	return emit(w, FACT_ERROR);
}

static int term(walker *w, const TerminationID_t *t)
{
	w->f.term = t;
	return emit(w, FACT_TERMINATION);
}

static int term_list(walker *w, const TerminationIDList_t *l)
{
	if (!(w->kinds & FACT_BIT(FACT_TERMINATION)))
		return 0;
	for (int i = 0; l && i < l->list.count; i++) {
		int rc = term(w, l->list.array[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int term_audit(walker *w, const TerminationAudit_t *a)
{
	if (!(w->kinds & FACT_BIT(FACT_ERROR)))
		return 0;
	for (int i = 0; a && i < a->list.count; i++) {
		const AuditReturnParameter_t *p = a->list.array[i];
		if (p->present == AuditReturnParameter_PR_errorDescriptor) {
			int rc = error_desc(w, &p->choice.errorDescriptor);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The command fact of command k (a CHOICE index from the first command):
 * 1 if the walk goes on into the command, else 0 with *rc what to return. */
static int command(walker *w, int k, int reply, int *rc)
{
	*rc = 0;
	if (k < 0 || k >= COMMANDS)
		return 0;
	w->f.command = k;
	w->f.reply = reply;
	return !(*rc = emit(w, FACT_COMMAND));
}

static int command_request(walker *w, const Command_t *c)
{
	int rc;
	if (!command(w, (int)c->present - (int)Command_PR_addReq, 0, &rc))
		return rc;
	switch (c->present) {
	case Command_PR_addReq: return term_list(w, &c->choice.addReq.terminationID);
	case Command_PR_moveReq: return term_list(w, &c->choice.moveReq.terminationID);
	case Command_PR_modReq: return term_list(w, &c->choice.modReq.terminationID);
	case Command_PR_subtractReq: return term_list(w, &c->choice.subtractReq.terminationID);
	case Command_PR_auditCapRequest:
	case Command_PR_auditValueRequest: {
		const AuditRequest_t *a = c->present == Command_PR_auditCapRequest
		                              ? &c->choice.auditCapRequest
		                              : &c->choice.auditValueRequest;
		return (rc = term(w, &a->terminationID)) ? rc : term_list(w, a->terminationIDList);
	}
	case Command_PR_notifyReq:
		return (rc = term_list(w, &c->choice.notifyReq.terminationID))
		           ? rc
		           : error_desc(w, c->choice.notifyReq.errorDescriptor);
	case Command_PR_serviceChangeReq:
		return term_list(w, &c->choice.serviceChangeReq.terminationID);
	default:
		return 0;
	}
}

static int amms_reply(walker *w, const AmmsReply_t *r)
{
	int rc = term_list(w, &r->terminationID);
	return rc ? rc : term_audit(w, r->terminationAudit);
}

static int command_reply(walker *w, const CommandReply_t *c)
{
	int rc;
	if (!command(w, (int)c->present - (int)CommandReply_PR_addReply, 1, &rc))
		return rc;
	switch (c->present) {
	case CommandReply_PR_addReply: return amms_reply(w, &c->choice.addReply);
	case CommandReply_PR_moveReply: return amms_reply(w, &c->choice.moveReply);
	case CommandReply_PR_modReply: return amms_reply(w, &c->choice.modReply);
	case CommandReply_PR_subtractReply: return amms_reply(w, &c->choice.subtractReply);
	case CommandReply_PR_auditCapReply:
	case CommandReply_PR_auditValueReply: {
		const AuditReply_t *a = c->present == CommandReply_PR_auditCapReply
		                            ? &c->choice.auditCapReply
		                            : &c->choice.auditValueReply;
		switch (a->present) {
		case AuditReply_PR_contextAuditResult: return term_list(w, &a->choice.contextAuditResult);
		case AuditReply_PR_error: return error_desc(w, &a->choice.error);
		case AuditReply_PR_auditResult:
			return (rc = term(w, &a->choice.auditResult.terminationID))
			           ? rc
			           : term_audit(w, &a->choice.auditResult.terminationAuditResult);
		case AuditReply_PR_auditResultTermList:
			return (rc = term_list(w, &a->choice.auditResultTermList.terminationIDList))
			           ? rc
			           : term_audit(w, &a->choice.auditResultTermList.terminationAuditResult);
		default: return 0;
		}
	}
	case CommandReply_PR_notifyReply:
		return (rc = term_list(w, &c->choice.notifyReply.terminationID))
		           ? rc
		           : error_desc(w, c->choice.notifyReply.errorDescriptor);
	case CommandReply_PR_serviceChangeReply: {
		const ServiceChangeReply_t *r = &c->choice.serviceChangeReply;
		if ((rc = term_list(w, &r->terminationID)))
			return rc;
		return r->serviceChangeResult.present == ServiceChangeResult_PR_errorDescriptor
		           ? error_desc(w, &r->serviceChangeResult.choice.errorDescriptor)
		           : 0;
	}
	default:
		return 0;
	}
}

static int transaction(walker *w, const Transaction_t *t)
{
	int rc;
	w->f.tid_last = 0;
	switch (t->present) {
	case Transaction_PR_transactionRequest: {
		const TransactionRequest_t *r = &t->choice.transactionRequest;
		w->f.tx = TX_REQUEST, w->f.tid = (uint32_t)r->transactionId;
		if ((rc = emit(w, FACT_TRANSACTION)))
			return rc;
		for (int i = 0; i < r->actions.list.count; i++) {
			const ActionRequest_t *a = r->actions.list.array[i];
			w->f.ctx = (uint32_t)a->contextId;
			if ((rc = emit(w, FACT_CONTEXT)))
				return rc;
			for (int j = 0; j < a->commandRequests.list.count; j++)
				if ((rc = command_request(w, &a->commandRequests.list.array[j]->command)))
					return rc;
		}
		return 0;
	}
	case Transaction_PR_transactionPending:
		w->f.tx = TX_PENDING, w->f.tid = (uint32_t)t->choice.transactionPending.transactionId;
		return emit(w, FACT_TRANSACTION);
	case Transaction_PR_transactionReply: {
		const TransactionReply_t *r = &t->choice.transactionReply;
		w->f.tx = TX_REPLY, w->f.tid = (uint32_t)r->transactionId;
		if ((rc = emit(w, FACT_TRANSACTION)))
			return rc;
		if (r->transactionResult.present == TransactionReply__transactionResult_PR_transactionError)
			return error_desc(w, &r->transactionResult.choice.transactionError);
		if (r->transactionResult.present != TransactionReply__transactionResult_PR_actionReplies)
			return 0;
		const struct TransactionReply__transactionResult__actionReplies *ar =
			&r->transactionResult.choice.actionReplies;
		for (int i = 0; i < ar->list.count; i++) {
			const ActionReply_t *a = ar->list.array[i];
			w->f.ctx = (uint32_t)a->contextId;
			if ((rc = emit(w, FACT_CONTEXT)) || (rc = error_desc(w, a->errorDescriptor)))
				return rc;
			for (int j = 0; j < a->commandReply.list.count; j++)
				if ((rc = command_reply(w, a->commandReply.list.array[j])))
					return rc;
		}
		return 0;
	}
	case Transaction_PR_transactionResponseAck: {
		const TransactionResponseAck_t *r = &t->choice.transactionResponseAck;
		for (int i = 0; i < r->list.count; i++) {
			const TransactionAck_t *a = r->list.array[i];
			w->f.tx = TX_ACK, w->f.tid = (uint32_t)a->firstAck;
			w->f.tid_last = a->lastAck ? (uint32_t)*a->lastAck : w->f.tid;
			if ((rc = emit(w, FACT_TRANSACTION)))
				return rc;
		}
		return 0;
	}
	case Transaction_PR_segmentReply:
		w->f.tx = TX_SEGMENT_REPLY, w->f.tid = (uint32_t)t->choice.segmentReply.transactionId;
		return emit(w, FACT_TRANSACTION);
	default:
		return 0;
	}
}

int facts_walk(const MegacoMessage_t *m, unsigned kinds, fact_visitor visit, void *user)
{
	walker w;
	memset(&w, 0, sizeof w);
	w.visit = visit, w.user = user, w.kinds = kinds;
	const Message_t *msg = &m->mess;
	if (msg->messageBody.present == Message__messageBody_PR_messageError)
		return error_desc(&w, &msg->messageBody.choice.messageError);
	if (msg->messageBody.present != Message__messageBody_PR_transactions)
		return 0;
	const struct Message__messageBody__transactions *ts = &msg->messageBody.choice.transactions;
	for (int i = 0; i < ts->list.count; i++) {
		int rc = transaction(&w, ts->list.array[i]);
		if (rc)
			return rc;
	}
	return 0;
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
