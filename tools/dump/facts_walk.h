/*
 * The walk behind facts_walk(): the transaction/action/command skeleton of
 * a message, read from the asn1c model (the v3 module; v1/v2 messages use a
 * subset). facts.c includes it with a visitor called through a pointer;
 * stats.c with its own, inlined at each fact, where the kind is a constant
 * and its switch folds away (--stats takes ~3 facts a message, and the call
 * and the switch cost more than its counting). Define before including:
 *   FACTS_VISIT(w)  the visit of fact w->f (walker *w); non-zero stops.
 */
#ifndef MEGACO_DUMP_FACTS_WALK_H
#define MEGACO_DUMP_FACTS_WALK_H

#include "MegacoMessage.h"
#include "facts.h"

typedef struct walker {
	fact_visitor visit; /* FACTS_VISIT's, if it calls through a pointer */
	void *user;
	unsigned kinds;     /* FACTS_KINDS's, if it reads them here */
	fact f;
} walker;

static inline int emit(walker *w, fact_kind k)
{
	if (!(FACTS_KINDS(w) & FACT_BIT(k)))
		return 0;
	w->f.kind = k;
	return FACTS_VISIT(w);
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

static inline int term_list(walker *w, const TerminationIDList_t *l)
{
	if (!(FACTS_KINDS(w) & FACT_BIT(FACT_TERMINATION)))
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
	if (!(FACTS_KINDS(w) & FACT_BIT(FACT_ERROR)))
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

/* The facts of message m to w's visitor (w->user, w->kinds set, w->f zero). */
static int walk_message(walker *w, const MegacoMessage_t *m)
{
	const Message_t *msg = &m->mess;
	if (msg->messageBody.present == Message__messageBody_PR_messageError)
		return error_desc(w, &msg->messageBody.choice.messageError);
	if (msg->messageBody.present != Message__messageBody_PR_transactions)
		return 0;
	const struct Message__messageBody__transactions *ts = &msg->messageBody.choice.transactions;
	for (int i = 0; i < ts->list.count; i++) {
		int rc = transaction(w, ts->list.array[i]);
		if (rc)
			return rc;
	}
	return 0;
}

#endif
