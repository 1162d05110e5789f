/*
 * The text decoder against the ABNF's rules that the grammar alone does not
 * express (grammar/README.md lists them, with these rows): at-most-once and
 * either-or items, elements newer than the message's version, characters
 * per version, reserved context IDs. One row per rule and side: the input,
 * the status it must get, where (the last occurrence of `at` in the input:
 * for an item given twice that is the second, and the message must then
 * name the first occurrence's line and column too), and a fragment of the
 * message. Rows with MEGACO_OK are the valid side of a rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* A request (v, body) and a reply; the body starts on line 2, column 9 (5). */
#define Q(v, body) "MEGACO/" #v " [1.2.3.4]\nT=1{C=1{" body "}}"
#define P(v, body) "MEGACO/" #v " [1.2.3.4]\nP=1{" body "}"
#define NT "N=t1{OE=1{a/b}}"

enum { NAMES_FIRST = 1 };

static const struct {
	const char *rule; /* the ABNF rule, as grammar/README.md names it */
	const char *in;
	int code;
	const char *at;   /* error position: the last occurrence of this text */
	const char *frag; /* in the message */
	int first;        /* NAMES_FIRST: ", first at" the first occurrence of `at` */
} rows[] = {
	/* ---- at-most-once and either-or ---- */
	{"localParm", Q(3, "MF=t1{M{O{MO=SO,a/b=1,MO=SR}}}"), MEGACO_ERR_SYNTAX, "MO=",
	 "Mode given twice in LocalControl", NAMES_FIRST},
	{"localParm", Q(1, "MF=t1{M{O{RV=ON,RV=OFF}}}"), MEGACO_ERR_SYNTAX, "RV",
	 "ReservedValue given twice", NAMES_FIRST},
	{"localParm", Q(1, "MF=t1{M{O{RG=ON,MO=SO,RG=ON}}}"), MEGACO_ERR_SYNTAX, "RG",
	 "ReservedGroup given twice", NAMES_FIRST},
	{"localParm", Q(1, "MF=t1{M{ST=1{O{MO=SO}},ST=2{O{MO=SR}}}}"), MEGACO_OK, NULL, NULL, 0},
	{"localParm", Q(1, "MF=t1{M{O{a/b=1,a/b=2}}}"), MEGACO_OK, NULL, NULL, 0},
	{"streamParm", Q(1, "MF=t1{M{L{v=0},R{v=0},L{v=0}}}"), MEGACO_ERR_SYNTAX, "L{",
	 "Local given twice", NAMES_FIRST},
	{"streamParm", Q(1, "MF=t1{M{O{MO=SO},O{MO=SR}}}"), MEGACO_ERR_SYNTAX, "O{",
	 "LocalControl given twice", NAMES_FIRST},
	{"terminationStateParm", Q(1, "MF=t1{M{TS{SI=IV,a/b=1,SI=OS}}}"), MEGACO_ERR_SYNTAX, "SI",
	 "ServiceStates given twice in TerminationState", NAMES_FIRST},
	{"terminationStateParm", Q(1, "MF=t1{M{TS{BF=OFF,BF=LockStep}}}"), MEGACO_ERR_SYNTAX, "BF",
	 "Buffer given twice", NAMES_FIRST},
	{"mediaParm", Q(1, "MF=t1{M{TS{SI=IV},TS{BF=OFF}}}"), MEGACO_ERR_SYNTAX, "TS",
	 "TerminationState given twice in Media", NAMES_FIRST},
	{"mediaParm", Q(1, "MF=t1{M{L{v=0},ST=1{L{v=0}}}}"), MEGACO_ERR_SYNTAX, "ST=1",
	 "mixed with Stream", 0},
	{"contextProperty", Q(1, "PR=1,EG,PR=2," NT), MEGACO_ERR_SYNTAX, "PR",
	 "Priority given twice", NAMES_FIRST},
	{"contextProperty", Q(2, "EG,EGO," NT), MEGACO_ERR_SYNTAX, "EGO",
	 "Emergency or EmergencyOff given twice in a context's properties, first at line 2, column 9", 0},
	{"contextProperty", Q(1, "TP{t1,t2,IS},TP{t1,t3,BW}," NT), MEGACO_ERR_SYNTAX, "TP",
	 "Topology given twice", NAMES_FIRST},
	{"contextProperty", Q(3, "IEPS=ON,IEPS=OFF," NT), MEGACO_ERR_SYNTAX, "IEPS",
	 "IEPSCall given twice", NAMES_FIRST},
	{"contextAttrDescriptor", Q(3, "CT{a/b=1},CT{a/c=2}," NT), MEGACO_ERR_SYNTAX, "CT",
	 "ContextAttr given twice", NAMES_FIRST},
	{"contextAttrDescriptor", Q(3, "CT{a/b=1},CT{CLT={2,3}}," NT), MEGACO_OK, NULL, NULL, 0},
	{"contextAuditProperties", Q(1, "CA{TP,PR,TP}," NT), MEGACO_ERR_SYNTAX, "TP",
	 "Topology given twice in ContextAudit", NAMES_FIRST},
	{"contextAuditSelector", Q(3, "CA{PR=3,PR,PR}," NT), MEGACO_ERR_SYNTAX, "PR}",
	 "Priority given twice in ContextAudit", 0},
	{"contextAuditSelector", Q(3, "CA{PR,PR=3,PR=4}," NT), MEGACO_ERR_SYNTAX, "PR=",
	 "Priority = value given twice", NAMES_FIRST},
	{"contextAuditSelector", Q(3, "CA{PR,PR=3,EG,EGV=EG}," NT), MEGACO_OK, NULL, NULL, 0},
	{"auditSelectLogic", Q(3, "CA{PR=3,ANDLgc,ORLgc}," NT), MEGACO_ERR_SYNTAX, "ORLgc",
	 "ANDLgc or ORLgc given twice", 0},
	{"contextRequest", Q(1, "CA{PR},CA{EG}," NT), MEGACO_ERR_SYNTAX, "CA",
	 "ContextAudit given twice", NAMES_FIRST},
	{"ammParameter", Q(1, "MF=t1{M{O{MO=SO}},E=1{a/b},M{O{MO=SR}}}"), MEGACO_ERR_SYNTAX, "M{O",
	 "Media given twice in an Add, Move or Modify", NAMES_FIRST},
	{"ammParameter", Q(1, "MF=t1{E=1{a/b},SG{c/d},E=2{a/c}}"), MEGACO_ERR_SYNTAX, "E=",
	 "Events given twice", NAMES_FIRST},
	{"modemType", Q(1, "MF=t1{MD[V18,V32b,V18]}"), MEGACO_ERR_SYNTAX, "V18",
	 "a modem type given twice in Modem", NAMES_FIRST},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{KA,ST=1,KA}}}"), MEGACO_ERR_SYNTAX, "KA",
	 "KeepActive given twice", NAMES_FIRST},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{ST=1,ST=2}}}"), MEGACO_ERR_SYNTAX, "ST=",
	 "Stream given twice in an event", NAMES_FIRST},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{DM=d1,DM=d2}}}"), MEGACO_ERR_SYNTAX, "DM",
	 "DigitMap given twice", NAMES_FIRST},
	{"eventParameter", Q(3, "MF=t1{E=1{a/b{NBNN,NBIN}}}"), MEGACO_ERR_SYNTAX, "NBIN",
	 "a notification behaviour given twice", 0},
	{"eventParameter", Q(3, "MF=t1{E=1{a/b{RSE,RSE}}}"), MEGACO_ERR_SYNTAX, "RSE",
	 "ResetEventsDescriptor given twice", NAMES_FIRST},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{EM{SG{c/d}},EM{E=2{a/c}}}}}"), MEGACO_ERR_SYNTAX, "EM",
	 "Embed given twice", NAMES_FIRST},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{KA,EM{SG{c/d}}}}}"), MEGACO_ERR_SYNTAX, "EM",
	 "KeepActive and an Embed with signals exclude each other", 0},
	{"eventParameter", Q(1, "MF=t1{E=1{a/b{KA,EM{E=2{a/c}}}}}"), MEGACO_OK, NULL, NULL, 0},
	{"secondEventParameter", Q(1, "MF=t1{E=1{a/b{EM{E=2{a/c{KA,KA}}}}}}"), MEGACO_ERR_SYNTAX,
	 "KA}", "KeepActive given twice", 0},
	{"sigParameter", Q(1, "MF=t1{SG{c/d{DR=10,DR=20}}}"), MEGACO_ERR_SYNTAX, "DR",
	 "Duration given twice in a signal", NAMES_FIRST},
	{"sigParameter", Q(1, "MF=t1{SG{c/d{SY=BR,SY=TO}}}"), MEGACO_ERR_SYNTAX, "SY",
	 "SignalType given twice", NAMES_FIRST},
	{"sigParameter", Q(1, "MF=t1{SG{c/d{x=1,ST=1,X=2}}}"), MEGACO_ERR_SYNTAX, "X=",
	 "a parameter given twice in a signal", 0},
	{"sigParameter", Q(1, "MF=t1{SG{c/d{NC={TO},NC={IBE}}}}"), MEGACO_ERR_SYNTAX, "NC",
	 "NotifyCompletion given twice", NAMES_FIRST},
	{"sigParameter", Q(3, "MF=t1{SG{c/d{SPADI=EX,SPADI=IT}}}"), MEGACO_ERR_SYNTAX, "SPADI",
	 "SPADirection given twice", NAMES_FIRST},
	{"signalRequest", Q(1, "MF=t1{SG{c/d{x=1},c/d{x=2}}}"), MEGACO_OK, NULL, NULL, 0},
	{"observedEventParameter", Q(1, "N=t1{OE=1{a/b{ST=1,ST=2}}}"), MEGACO_ERR_SYNTAX, "ST=",
	 "Stream given twice in an observed event", NAMES_FIRST},
	{"observedEventParameter", Q(1, "N=t1{OE=1{a/b{x=1,x=2}}}"), MEGACO_ERR_SYNTAX, "x=",
	 "a parameter given twice", NAMES_FIRST},
	{"statisticsParameter", Q(3, "MF=t1{M{SA{nt/os=1,nt/dur=2,nt/os=3}}}"), MEGACO_ERR_SYNTAX,
	 "nt/os", "a statistic given twice in Statistics", NAMES_FIRST},
	{"auditItem", Q(1, "AV=t1{AT{M,E,M}}"), MEGACO_ERR_SYNTAX, "M}",
	 "an audit token given twice in Audit", 0},
	{"indAudmediaParm", Q(2, "AV=t1{AT{M{TS{SI},TS{BF}}}}"), MEGACO_ERR_SYNTAX, "TS",
	 "TerminationState given twice in Media", NAMES_FIRST},
	{"indAudstreamParm", Q(2, "AV=t1{AT{M{O{MO},O{RV}}}}"), MEGACO_ERR_SYNTAX, "O{",
	 "LocalControl given twice", NAMES_FIRST},
	{"indAudlocalParm", Q(2, "AV=t1{AT{M{O{MO,RV,MO}}}}"), MEGACO_ERR_SYNTAX, "MO",
	 "Mode given twice in LocalControl", NAMES_FIRST},
	{"indAudterminationStateDescriptor", Q(2, "AV=t1{AT{M{TS{SI,BF}}}}"), MEGACO_ERR_SYNTAX,
	 ",BF", "while parsing TerminationState (line 2, column 20): found ',' where '}'", 0},
	{"indAudterminationStateDescriptor", Q(3, "AV=t1{AT{M{TS{a/b=1,a/b}}}}"), MEGACO_ERR_SYNTAX,
	 ",a/b}", "found ','", 0},
	{"indAudterminationStateDescriptor", Q(2, "AV=t1{AT{M{TS{BF},O{MO}}}}"), MEGACO_OK, NULL,
	 NULL, 0},
	{"indAudstreamDescriptor", Q(2, "AV=t1{AT{M{ST=1{O{MO},L{v=0}}}}}"), MEGACO_ERR_SYNTAX,
	 ",L{", "while parsing Stream (line 2, column 20): found ',' where '}'", 0},
	{"indAudstreamDescriptor", Q(2, "AV=t1{AT{M{ST=1{O{MO}},ST=2{L{v=0}}}}}"), MEGACO_OK, NULL,
	 NULL, 0},
	{"signalListParm", Q(1, "MF=t1{SG{SL=3{c/d{SY=BR},c/e}}}"), MEGACO_ERR_SYNTAX, "c/e",
	 "SignalType missing in a signal of a SignalList", 0},
	{"signalListParm", Q(1, "MF=t1{SG{SL=3{c/d{DR=5,x=1}}}}"), MEGACO_ERR_SYNTAX, "c/d",
	 "SignalType missing", 0},
	{"signalListParm", Q(1, "MF=t1{SG{SL=3{c/d{SY=BR},c/e{DR=5,SY=TO}},c/f}}"), MEGACO_OK, NULL,
	 NULL, 0},
	{"signalListParm", Q(1, "MF=t1{SG{SL=3{c/d{SY=BR,SY=OO}}}}"), MEGACO_ERR_SYNTAX, "SY=OO",
	 "SignalType given twice", 0},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,MT=FO}}"), MEGACO_ERR_SYNTAX, "MT",
	 "Method given twice in Services", NAMES_FIRST},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,RE=902}}"), MEGACO_ERR_SYNTAX, "RE",
	 "Reason given twice", NAMES_FIRST},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=a/1,PF=b/1}}"), MEGACO_ERR_SYNTAX,
	 "PF", "Profile given twice", NAMES_FIRST},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,DL=1,DL=2}}"), MEGACO_ERR_SYNTAX, "DL",
	 "Delay given twice", NAMES_FIRST},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,V=1,V=2}}"), MEGACO_ERR_SYNTAX, "V=",
	 "Version given twice", NAMES_FIRST},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,AD=[1.2.3.5],MG=<m2>}}"),
	 MEGACO_ERR_SYNTAX, "MG", "MgcIdToTry and ServiceChangeAddress exclude each other, first at",
	 0},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,MG=<m2>,AD=[1.2.3.5]}}"),
	 MEGACO_ERR_SYNTAX, "AD", "ServiceChangeAddress and MgcIdToTry exclude each other", 0},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,AD=[1.2.3.5]:99,PF=a/1,V=1,DL=5}}"),
	 MEGACO_OK, NULL, NULL, 0},
	{"servChgReplyParm", P(1, "C=-{SC=ROOT{SV{AD=[1.2.3.5],MG=<m2>}}}"), MEGACO_ERR_SYNTAX, "MG",
	 "exclude each other", 0},
	{"servChgReplyParm", P(1, "C=-{SC=ROOT{SV{V=2,V=3}}}"), MEGACO_ERR_SYNTAX, "V=",
	 "Version given twice", NAMES_FIRST},
	{"serviceChangeProfile", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=resgw}}"), MEGACO_ERR_SYNTAX,
	 "resgw", "found 'resgw' where a profile name/version (serviceChangeProfile) was expected", 0},
	{"serviceChangeProfile", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=1gw/1}}"), MEGACO_ERR_SYNTAX,
	 "1gw", "serviceChangeProfile", 0},
	{"serviceChangeProfile", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=gw/123}}"), MEGACO_ERR_SYNTAX,
	 "gw/123", "serviceChangeProfile", 0},
	{"serviceChangeProfile", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=gw-1/1}}"), MEGACO_ERR_SYNTAX,
	 "gw-1", "serviceChangeProfile", 0},
	{"serviceChangeProfile", P(1, "C=-{SC=ROOT{SV{PF=gw/}}}"), MEGACO_ERR_SYNTAX, "gw/",
	 "serviceChangeProfile", 0},
	{"serviceChangeVersion", Q(1, "SC=ROOT{SV{MT=RS,RE=901,V=099}}"), MEGACO_ERR_SYNTAX, "099",
	 "found '099' where a Version of one or two digits was expected", 0},
	{"serviceChangeVersion", P(1, "C=-{SC=ROOT{SV{V=003}}}"), MEGACO_ERR_SYNTAX, "003", "Version",
	 0},
	{"serviceChangeVersion", Q(1, "SC=ROOT{SV{MT=RS,RE=901,V=09}}"), MEGACO_OK, NULL, NULL, 0},
	{"serviceChangeProfile", Q(1, "SC=ROOT{SV{MT=RS,RE=901,PF=Res_GW2/10}}"), MEGACO_OK, NULL,
	 NULL, 0},
	{"actionReply", P(1, "C=1{ER=400{},ER=401{}}"), MEGACO_ERR_SYNTAX, "ER",
	 "Error given twice", NAMES_FIRST},

	{"auditItem", Q(1, "AC=t1{AT{M,DM}}"), MEGACO_ERR_SYNTAX, "AC",
	 "DigitMap and Packages may not be audited in AuditCapability", 0},
	{"auditItem", Q(1, "AC=t1{AT{PG}}"), MEGACO_ERR_SYNTAX, "AC", "AuditCapability", 0},
	{"auditItem", Q(2, "AC=t1{AT{DM=dm1}}"), MEGACO_ERR_SYNTAX, "AC", "AuditCapability", 0},
	{"auditItem", Q(1, "AV=t1{AT{M,DM,PG}}"), MEGACO_OK, NULL, NULL, 0},
	{"auditItem", Q(1, "AC=t1{AT{M,E,SG}}"), MEGACO_OK, NULL, NULL, 0},
	{"pathNAME", Q(1, "MF=a123456789b123456789c123456789d123456789e123456789f123456789g1234"),
	 MEGACO_ERR_SYNTAX, "a1234", "a termination ID of 65 characters", 0},
	{"pathNAME", Q(1, "MF=a123456789b123456789c123456789d123456789e123456789f123456789g123"),
	 MEGACO_OK, NULL, NULL, 0},
	{"deviceName", "MEGACO/1 8a\nT=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "8a",
	 "found '8a' where a device name (pathNAME: a letter after an optional '*') was expected", 0},
	{"deviceName", "MEGACO/1 *806\nT=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "*806",
	 "pathNAME: a letter after an optional '*'", 0},
	{"deviceName", Q(1, "SC=ROOT{SV{MT=RS,RE=901,MG=9mgc@host}}"), MEGACO_ERR_SYNTAX, "9mgc",
	 "pathNAME", 0},
	{"deviceName", Q(1, "SC=ROOT{SV{MT=RS,RE=901,AD=*1x}}"), MEGACO_ERR_SYNTAX, "*1x",
	 "pathNAME", 0},
	{"domainName", "MEGACO/1 <mg_1>\nT=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "<mg_1>",
	 "found '<mg_1>' where a domain name (domainName: 1 to 64 letters, digits, '-' and '.') was "
	 "expected", 0},
	{"domainName", "MEGACO/1 <.mg>:2944\nT=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "<.mg", "domainName",
	 0},
	{"domainName", "MEGACO/3 <mg\xc3\xa9>\nT=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "<mg", "domainName",
	 0},
	{"domainName", "MEGACO/1 <a123456789b123456789c123456789d123456789e123456789f123456789g1234>\n"
	 "T=1{C=1{" NT "}}", MEGACO_ERR_SYNTAX, "<a1234", "domainName", 0},
	{"domainName", Q(1, "SC=ROOT{SV{MT=RS,RE=901,MG=<m-2.x_y>}}"), MEGACO_ERR_SYNTAX, "<m-2",
	 "domainName", 0},
	{"domainName", "MEGACO/1 <a123456789b123456789c123456789d123456789e123456789f123456789g123>\n"
	 "T=1{C=1{" NT "}}", MEGACO_OK, NULL, NULL, 0},
	{"domainName", "MEGACO/1 <9mg-1.example.NET>:2944\nT=1{C=1{" NT "}}", MEGACO_OK, NULL, NULL,
	 0},
	{"deviceName", "MEGACO/1 a8\nT=1{C=1{" NT "}}", MEGACO_OK, NULL, NULL, 0},
	{"deviceName", "MEGACO/1 *mg/rack_1$*@gw-1.example\nT=1{C=1{" NT "}}", MEGACO_OK, NULL,
	 NULL, 0},
	{"deviceName", Q(1, "SC=ROOT{SV{MT=RS,RE=901,AD=55555}}"), MEGACO_OK, NULL, NULL, 0},

	/* ---- elements newer than the message's version ---- */
	{"segmentReply", "MEGACO/2 [1.2.3.4]\nSM=1/2", MEGACO_ERR_VERSION_MISMATCH, "1/2",
	 "a segment reply is a version 3 element; the message is version 2", 0},
	{"segmentReply", "MEGACO/3 [1.2.3.4]\nSM=1/2", MEGACO_OK, NULL, NULL, 0},
	{"transactionReply", "MEGACO/2 [1.2.3.4]\nP=1/2{C=1{N=t1}}", MEGACO_ERR_VERSION_MISMATCH,
	 "2{", "a segment number", 0},
	{"transactionReply", "MEGACO/3 [1.2.3.4]\nP=1/2/END{C=1{N=t1}}", MEGACO_OK, NULL, NULL, 0},
	{"actionReply", P(2, "C=1"), MEGACO_ERR_VERSION_MISMATCH, "1",
	 "a context reply without braces", 0},
	{"actionReply", P(3, "C=1"), MEGACO_OK, NULL, NULL, 0},
	{"iepsValue", Q(2, "IEPS=ON," NT), MEGACO_ERR_VERSION_MISMATCH, "IEPS",
	 "IEPSCall is a version 3 element", 0},
	{"contextAttrDescriptor", Q(2, "CT{a/b=1}," NT), MEGACO_ERR_VERSION_MISMATCH, "CT",
	 "ContextAttr is a version 3 element", 0},
	{"contextIdList", Q(2, "CT{CLT={2,3}}," NT), MEGACO_ERR_VERSION_MISMATCH, "CT",
	 "ContextList", 0},
	{"contextAuditProperties", Q(2, "CA{TP,IEPS}," NT), MEGACO_ERR_VERSION_MISMATCH, "IEPS",
	 "IEPSCall is a version 3 element", 0},
	{"contextAuditProperties", Q(2, "CA{TP,x/y}," NT), MEGACO_ERR_VERSION_MISMATCH, "x/y",
	 "a property in ContextAudit", 0},
	{"contextAuditSelector", Q(2, "CA{PR=3}," NT), MEGACO_ERR_VERSION_MISMATCH, "PR",
	 "Priority = value", 0},
	{"auditSelectLogic", Q(2, "CA{TP,ORLgc}," NT), MEGACO_ERR_VERSION_MISMATCH, "ORLgc",
	 "ANDLgc or ORLgc", 0},
	{"indAudcontextAttrDescriptor", Q(2, "CA{CT{TP}}," NT), MEGACO_ERR_VERSION_MISMATCH, "CT",
	 "ContextAttr", 0},
	{"topologyTriple", Q(1, "TP{t1,t2,OW,ST=2}," NT), MEGACO_ERR_VERSION_MISMATCH, "ST",
	 "a topology triple's Stream is a version 2 element; the message is version 1", 0},
	{"topologyTriple", Q(2, "TP{t1,t2,OW,ST=2}," NT), MEGACO_OK, NULL, NULL, 0},
	{"topologyDirection", Q(2, "TP{t1,t2,OWE}," NT), MEGACO_ERR_VERSION_MISMATCH, "OWE",
	 "OnewayExternal or OnewayBoth is a version 3 element", 0},
	{"termIDList", Q(2, "AV=[t1,t2]{AT{M}}"), MEGACO_ERR_VERSION_MISMATCH, "[",
	 "a termination ID list in brackets is a version 3 element; the message is version 2", 0},
	{"termIDList", P(2, "C=1{AV=[t1,t2]{M{O{MO=SO}}}}"), MEGACO_ERR_VERSION_MISMATCH, "[",
	 "a termination ID list in brackets", 0},
	{"termIDList", Q(1, "MF=[t1]{M{O{MO=SO}}}"), MEGACO_ERR_VERSION_MISMATCH, "[",
	 "version 3 element; the message is version 1", 0},
	{"termIDList", Q(3, "MF=[t1,t2]{M{O{MO=SO}}},AV=[t1,t2]{AT{M}}"), MEGACO_OK, NULL, NULL, 0},
	{"contextProperty", Q(1, "EG,PR=1," NT), MEGACO_OK, NULL, NULL, 0},
	{"contextProperty", Q(1, "EGO,PR=1," NT), MEGACO_ERR_VERSION_MISMATCH, "EGO",
	 "EmergencyOff is a version 2 element; the message is version 1", 0},
	{"contextProperty", Q(2, "EGO,PR=1," NT), MEGACO_OK, NULL, NULL, 0},
	{"ammParameter", Q(2, "MF=t1{SA{nt/os}}"), MEGACO_ERR_VERSION_MISMATCH, "SA",
	 "a Statistics descriptor in a command", 0},
	{"ammParameter", Q(3, "MF=t1{SA{nt/os}}"), MEGACO_OK, NULL, NULL, 0},
	{"streamParm", Q(2, "MF=t1{M{SA{nt/os}}}"), MEGACO_ERR_VERSION_MISMATCH, "SA",
	 "a Statistics descriptor in a stream", 0},
	{"muxDescriptor", Q(1, "MF=t1{MX=N64{t2}}"), MEGACO_ERR_VERSION_MISMATCH, "N64",
	 "Nx64Kservice is a version 2 element", 0},
	{"muxDescriptor", Q(2, "MF=t1{MX=N64{t2}}"), MEGACO_OK, NULL, NULL, 0},
	{"notifyBehaviour", Q(2, "MF=t1{E=1{a/b{NBIN}}}"), MEGACO_ERR_VERSION_MISMATCH, "NBIN",
	 "a notification behaviour is a version 3 element", 0},
	{"eventParameter", Q(2, "MF=t1{E=1{a/b{RSE}}}"), MEGACO_ERR_VERSION_MISMATCH, "RSE",
	 "ResetEventsDescriptor", 0},
	{"sigDirection", Q(2, "MF=t1{SG{c/d{SPADI=EX}}}"), MEGACO_ERR_VERSION_MISMATCH, "SPADI",
	 "SPADirection is a version 3 element", 0},
	{"sigRequestID", Q(2, "MF=t1{SG{c/d{SPARQ=5}}}"), MEGACO_ERR_VERSION_MISMATCH, "SPARQ",
	 "SPARequestID", 0},
	{"sigIntsigDelay", Q(2, "MF=t1{SG{c/d{SPAIS=5}}}"), MEGACO_ERR_VERSION_MISMATCH, "SPAIS",
	 "Intersignal", 0},
	{"notificationReason", Q(2, "MF=t1{SG{c/d{NC={TO,IR}}}}"), MEGACO_ERR_VERSION_MISMATCH,
	 "NC", "NotifyCompletion Iteration", 0},
	{"digitMapValue", Q(1, "MF=t1{DM=d1{Z:3,(1x)}}"), MEGACO_ERR_VERSION_MISMATCH, "Z:",
	 "Z timer is a version 2 element", 0},
	{"digitMapValue", Q(2, "MF=t1{DM=d1{Z:3,(1x)}}"), MEGACO_OK, NULL, NULL, 0},
	{"serviceChangeParm", Q(2, "SC=ROOT{SV{MT=RS,RE=901,SIC}}"), MEGACO_ERR_VERSION_MISMATCH,
	 "SIC", "ServiceChangeInc", 0},
	{"serviceChangeParm", Q(1, "SC=ROOT{SV{MT=RS,RE=901,M}}"), MEGACO_ERR_VERSION_MISMATCH,
	 "M}", "an audit item in Services", 0},
	{"auditItem", Q(1, "AV=t1{AT{M{TS{SI}}}}"), MEGACO_ERR_VERSION_MISMATCH, "M{",
	 "an individual audit descriptor is a version 2 element", 0},
	{"auditItem", Q(2, "AV=t1{AT{M{TS{SI}}}}"), MEGACO_OK, NULL, NULL, 0},
	{"indAudlocalParm", Q(2, "AV=t1{AT{M{O{MO=SO}}}}"), MEGACO_ERR_VERSION_MISMATCH, "MO",
	 "an audit for a Mode value", 0},
	{"indAudlocalParm", Q(2, "AV=t1{AT{M{O{a/b=1}}}}"), MEGACO_ERR_VERSION_MISMATCH, "a/b",
	 "an audit for a property value", 0},
	{"indAudterminationStateParm", Q(2, "AV=t1{AT{M{TS{SI=IV}}}}"), MEGACO_ERR_VERSION_MISMATCH,
	 "SI", "an audit for a ServiceStates value", 0},
	{"indAudstreamParm", Q(2, "AV=t1{AT{M{SA{nt/os}}}}"), MEGACO_ERR_VERSION_MISMATCH, "SA",
	 "a Statistics audit in a stream", 0},
	{"indAudsignalParm", Q(2, "AV=t1{AT{SG{c/d{SPARQ=1}}}}"), MEGACO_ERR_VERSION_MISMATCH,
	 "SPARQ", "SPARequestID", 0},

	/* ---- characters per version ---- */
	{"pathNAME", Q(3, "MF=t\xc3\xa9{M{O{MO=SO}}}"), MEGACO_ERR_BAD_CHARACTER, "\xc3",
	 "byte 0xC3 in a termination ID", 0},
	{"pathNAME", Q(1, "MF=t_1/*${M{O{MO=SO}}}"), MEGACO_OK, NULL, NULL, 0},
	{"quotedString", Q(1, "MF=t1{SG{c/d{x=\"caf\xc3\xa9\"}}}"), MEGACO_ERR_BAD_CHARACTER,
	 "\xc3", "byte 0xC3 in a version 1 value", 0},
	{"quotedString", Q(1, "MF=t1{SG{c/d{x=\"a\nb\"}}}"), MEGACO_ERR_BAD_CHARACTER, "\nb",
	 "byte 0x0A in a version 1 value", 0},
	{"quotedString", Q(1, "MF=t1{SG{c/d{x=\"0123456789abcdefghij\xc3\xa9\"}}}"),
	 MEGACO_ERR_BAD_CHARACTER, "\xc3", "version 1 value", 0},
	{"quotedString", Q(1, "MF=t1{SG{c/d{x=\"0123456789abcdef\r\nx\"}}}"),
	 MEGACO_ERR_BAD_CHARACTER, "\r", "byte 0x0D", 0},
	{"quotedString", Q(1, "MF=t1{SG{c/d{x=\"0123456789 abcdef;{}[]:,#<>=\"}}}"), MEGACO_OK, NULL,
	 NULL, 0},
	{"pathNAME", Q(1, "MF=t0123456789abcdefghijklmnopqrs\xff{M{O{MO=SO}}}"),
	 MEGACO_ERR_BAD_CHARACTER, "\xff", "termination ID", 0},
	{"quotedString", Q(3, "MF=t1{SG{c/d{x=\"caf\xc3\xa9\na\"}}}"), MEGACO_OK, NULL, NULL, 0},
	{"quotedString", Q(2, "MF=t1{SG{c/d{x=\"caf\xc3\xa9\"}}}"), MEGACO_OK, NULL, NULL, 0},
	{"VALUE", Q(1, "MF=t1{M{O{x/y=caf\xc3\xa9}}}"), MEGACO_ERR_BAD_CHARACTER, "\xc3",
	 "version 1 value", 0},
	{"VALUE", Q(3, "MF=t1{M{O{x/y=caf\xc3\xa9}}}"), MEGACO_OK, NULL, NULL, 0},
	{"errorDescriptor", P(1, "C=1{ER=400{\"\xff\"}}"), MEGACO_ERR_BAD_CHARACTER, "\xff",
	 "version 1 value", 0},
	{"octetString", Q(1, "MF=t1{M{L{v=0\ns=caf\xc3\xa9\n}}}"), MEGACO_OK, NULL, NULL, 0},

	{"COMMENT", Q(1, "MF=t1 ; caf\xc3\xa9\n{}"), MEGACO_ERR_BAD_CHARACTER, "\xc3",
	 "a byte a comment may not hold", 0},
	{"COMMENT", "MEGACO/3 ;\x01\n[1.2.3.4]\nT=1{C=1{" NT "}}", MEGACO_ERR_BAD_CHARACTER, "\x01",
	 "comment", 0},
	{"COMMENT", Q(1, "MF=t1 ; \"quoted\" {braces}, [x]; ok\t\n"), MEGACO_OK, NULL, NULL, 0},

	/* ---- reserved context IDs (grammar/README.md) ---- */
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=0{" NT "}}", MEGACO_ERR_NUMBER_RANGE, "0{",
	 "context ID 0 is reserved: the NULL context is written '-'", 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=4294967294{" NT "}}", MEGACO_ERR_NUMBER_RANGE,
	 "4294967294", "CHOOSE context is written '$'", 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=4294967295{" NT "}}", MEGACO_ERR_NUMBER_RANGE,
	 "4294967295", "ALL context is written '*'", 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nP=1{C=0{N=t1}}", MEGACO_ERR_NUMBER_RANGE, "0{",
	 "reserved", 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=4294967293{" NT "}}", MEGACO_OK, NULL, NULL, 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=1{" NT "}}", MEGACO_OK, NULL, NULL, 0},
	{"ContextID", "MEGACO/1 [1.2.3.4]\nT=1{C=-{" NT "},C=${" NT "},C=*{" NT "}}", MEGACO_OK,
	 NULL, NULL, 0},
	{"contextIdList", Q(3, "CT{CLT={2,0}}," NT), MEGACO_ERR_NUMBER_RANGE, "0}", "reserved", 0},
};

/* Offset of the last (last != 0) or first occurrence of needle in hay. */
static size_t find(const char *hay, const char *needle, int last)
{
	const char *p = strstr(hay, needle), *q = p;
	while (last && q && (q = strstr(q + 1, needle)))
		p = q;
	return p ? (size_t)(p - hay) : (size_t)-1;
}

static void line_col(const char *s, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	size_t start = 0;
	for (size_t i = 0; i < off; i++)
		if (s[i] == '\n') {
			++*line;
			start = i + 1;
		}
	*col = (unsigned)(off - start + 1);
}

static void test_rows(void **state)
{
	(void)state;
	int failures = 0;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const char *in = rows[i].in;
		unsigned line = 0, col = 0;
		char first[64] = "";
		if (rows[i].at) {
			size_t at = find(in, rows[i].at, 1);
			assert_true(at != (size_t)-1);
			line_col(in, at, &line, &col);
			if (rows[i].first) {
				unsigned l1, c1;
				line_col(in, find(in, rows[i].at, 0), &l1, &c1);
				snprintf(first, sizeof first, ", first at line %u, column %u", l1, c1);
			}
		}
		for (int sc = 0; sc < 2; sc++) {
			megaco_options o;
			megaco_options_init(&o);
			o.scanner = (megaco_scanner)sc;
			megaco_message *m = NULL;
			megaco_error err;
			int rc = megaco_decode(MEGACO_ENC_PRETTY, in, strlen(in), &o, &m, &err);
			int ok = rc == rows[i].code;
			if (ok && rc != MEGACO_OK)
				ok = err.line == line && err.column == col &&
				     strstr(err.message, rows[i].frag) && strstr(err.message, first);
			if (!ok) {
				failures++;
				print_message("row %zu (%s) %s: got %s at %u:%u (%s), want %s at %u:%u with '%s%s'\n",
				              i, rows[i].rule, in, megaco_strerror(rc), rc ? err.line : 0,
				              rc ? err.column : 0, rc ? err.message : "", megaco_strerror(rows[i].code),
				              line, col, rows[i].frag ? rows[i].frag : "", first);
			}
			megaco_message_free(m);
		}
	}
	print_message("%zu rows\n", sizeof rows / sizeof *rows);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
