/*
 * Facts about the H.248.1 module that asn1c's descriptors do not carry, as
 * data for the schema generator: which members carry names, and which
 * extension additions came with v3 (every other addition is v2: the v1
 * module has no member after an extension marker). From the three
 * modules in ../shared/spec/MEDIA-GATEWAY-CONTROL-v1,2,3.asn.
 */
#include "schema_facts.h"

#include <stddef.h>

const gen_name_fact gen_name_facts[] = {
	{ "PropertyParm", "name", SN_PROPERTY },
	{ "IndAudPropertyParm", "name", SN_PROPERTY },
	{ "RequestedEvent", "pkgdName", SN_EVENT },
	{ "SecondRequestedEvent", "pkgdName", SN_EVENT },
	{ "ObservedEvent", "eventName", SN_EVENT },
	{ "EventSpec", "eventName", SN_EVENT },
	{ "IndAudEventsDescriptor", "pkgdName", SN_EVENT },
	{ "IndAudEventBufferDescriptor", "eventName", SN_EVENT },
	{ "EventParameter", "eventParameterName", SN_EVENT_PARAM },
	{ "Signal", "signalName", SN_SIGNAL },
	{ "IndAudSignal", "signalName", SN_SIGNAL },
	{ "SigParameter", "sigParameterName", SN_SIGNAL_PARAM },
	{ "StatisticsParameter", "statName", SN_STATISTIC },
	{ "IndAudStatisticsDescriptor", "statName", SN_STATISTIC },
	{ "PackagesItem", "packageName", SN_PACKAGE },
	{ "IndAudPackagesDescriptor", "packageName", SN_PACKAGE },
	{ "DigitMapDescriptor", "digitMapName", SN_DIGIT_MAP },
	{ "IndAudDigitMapDescriptor", "digitMapName", SN_DIGIT_MAP },
	{ "EventDM", "digitMapName", SN_DIGIT_MAP },
	{ "LocalRemoteDescriptor", "propGrps", SN_SDP },
	{ NULL, NULL, SN_NONE },
};

/* Extension additions of the v3 module that the v2 module does not have. */
const gen_member_ref gen_v3_additions[] = {
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
	{ NULL, NULL },
};
