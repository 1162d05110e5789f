/*
 * Facts about the H.248.1 module that asn1c's descriptors do not carry, as
 * data for the schema generator: which members carry names. (Which version
 * introduced each member comes from the version table, version_table.h,
 * generated from the three modules.)
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

const char gen_version_type[] = "Message", gen_version_member[] = "version";
