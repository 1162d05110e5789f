/*
 * Version gate (see version_check.h): one model walk, driven by two facts
 * about the three H.248.1 ASN.1 modules (../shared/spec/MEDIA-GATEWAY-CONTROL-v1,2,3.asn):
 *
 * 1. The v1 module has no member after any extension marker, and v2 and v3
 *    only ever add members after one. So in the v3 module every extension
 *    addition is a v2-or-later element: none may appear in a v1 message.
 *    model_walk marks those nodes (walk_node.is_extension).
 * 2. Which additions are v3-only comes from diffing the v2 and v3 modules:
 *    the table below. Everything else after a marker is a v2 addition
 *    (TopologyRequest.streamID, AuditDescriptor.auditPropertyToken,
 *    DigitMapValue.durationTimer, ServiceChangeParm.serviceChangeInfo), and
 *    v2-only types such as IndAud* are reachable only through those.
 *
 * Exceptions to the "extension member" rule, i.e. version differences that
 * are not members, handled one by one below:
 * - MuxType's extension value nx64k(4) is v2+ (an ENUMERATED value).
 * - NotifyCompletion's named bit onIteration(4) is v3-only (a BIT STRING
 *   bit; the type itself is in every version).
 * - EventsDescriptor.requestID and SecondEventsDescriptor.requestID are
 *   OPTIONAL since v2 but mandatory in v1 (IG 6.82 was withdrawn for v1), so
 *   a v1 message needs them.
 * - TopologyRequest.topologyDirectionExtension is v3-only in Erlang's module
 *   (ours) and absent from the standard; it is in the table like the rest.
 */
#include "version_check.h"

#include <string.h>

#include "BIT_STRING.h"
#include "EventsDescriptor.h"
#include "MegacoMessage.h"
#include "MuxType.h"
#include "NotifyCompletion.h"
#include "SecondEventsDescriptor.h"
#include "internal.h"
#include "model_walk.h"

/* (type, member) pairs after an extension marker in v3 that v2 does not have. */
static const struct {
	const char *type, *member;
} v3_only[] = {
	{ "Transaction", "segmentReply" },
	{ "TransactionReply", "segmentNumber" },
	{ "TransactionReply", "segmentationComplete" },
	{ "ContextRequest", "iepscallind" },
	{ "ContextRequest", "contextProp" },
	{ "ContextRequest", "contextList" },
	{ "ContextAttrAuditRequest", "iepscallind" },
	{ "ContextAttrAuditRequest", "contextPropAud" },
	{ "ContextAttrAuditRequest", "selectpriority" },
	{ "ContextAttrAuditRequest", "selectemergency" },
	{ "ContextAttrAuditRequest", "selectiepscallind" },
	{ "ContextAttrAuditRequest", "selectLogic" },
	{ "TopologyRequest", "topologyDirectionExtension" },
	{ "AmmDescriptor", "statisticsDescriptor" },
	{ "AuditRequest", "terminationIDList" },
	{ "AuditReply", "auditResultTermList" },
	{ "IndAudStreamParms", "statisticsDescriptor" },
	{ "IndAudLocalControlDescriptor", "streamModeSel" },
	{ "IndAudPropertyParm", "propertyParms" },
	{ "IndAudTerminationStateDescriptor", "serviceStateSel" },
	{ "IndAudSignal", "signalRequestID" },
	{ "StreamParms", "statisticsDescriptor" },
	{ "RequestedActions", "notifyBehaviour" },
	{ "RequestedActions", "resetEventsDescriptor" },
	{ "SecondRequestedActions", "notifyBehaviour" },
	{ "SecondRequestedActions", "resetEventsDescriptor" },
	{ "Signal", "direction" },
	{ "Signal", "requestID" },
	{ "Signal", "intersigDelay" },
	{ "ServiceChangeParm", "serviceChangeIncompleteFlag" },
};

typedef struct {
	int version;
	megaco_error *err;
} check_ctx;

static const char *member_name(const walk_node *n)
{
	return n->member >= 0 ? n->parent->elements[n->member].name : "(item)";
}

static int mismatch(check_ctx *c, const char *type, const char *member, int since)
{
	return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
	                 "%s.%s is a v%d element; the message is version %d", type, member, since,
	                 c->version);
}

static int is_v3_only(const walk_node *n)
{
	const char *type = n->parent->name, *member = member_name(n);
	for (size_t i = 0; i < sizeof v3_only / sizeof v3_only[0]; i++)
		if (!strcmp(v3_only[i].type, type) && !strcmp(v3_only[i].member, member))
			return 1;
	return 0;
}

static int visit(const walk_node *n, void *vctx)
{
	check_ctx *c = vctx;
	if (n->is_extension) {
		if (c->version < 3 && is_v3_only(n))
			return mismatch(c, n->parent->name, member_name(n), 3);
		if (c->version < 2)
			return mismatch(c, n->parent->name, member_name(n), 2);
	}
	if (n->td == &asn_DEF_MuxType && c->version < 2 && *(const long *)n->ptr == MuxType_nx64k)
		return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
		                 "MuxType nx64k is a v2 value; the message is version %d", c->version);
	if (n->td == &asn_DEF_NotifyCompletion && c->version < 3) {
		const BIT_STRING_t *bs = n->ptr;
		int bit = NotifyCompletion_onIteration;
		if (bs->size > bit / 8 && (bs->buf[bit / 8] & (0x80 >> (bit % 8))))
			return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
			                 "NotifyCompletion onIteration is a v3 bit; the message is version %d",
			                 c->version);
	}
	if (c->version == 1) {
		int missing = (n->td == &asn_DEF_EventsDescriptor &&
		               !((const EventsDescriptor_t *)n->ptr)->requestID) ||
		              (n->td == &asn_DEF_SecondEventsDescriptor &&
		               !((const SecondEventsDescriptor_t *)n->ptr)->requestID);
		if (missing)
			return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
			                 "%s.requestID is missing: it is mandatory in version 1",
			                 n->td->name);
	}
	return WALK_CONTINUE;
}

int version_check_model(const struct MegacoMessage *m, int version, megaco_error *err)
{
	if (version < 1 || version > 3)
		return set_error(err, MEGACO_ERR_VERSION, 0,
		                 "protocol version %d: only 1, 2 and 3 are supported", version);
	if (version == 3)
		return MEGACO_OK;
	check_ctx c = { version, err };
	int rc = model_walk(&asn_DEF_MegacoMessage, (void *)m, visit, &c);
	return rc < 0 ? rc : MEGACO_OK;
}
