/*
 * The text decoder (grammar/megaco.l + grammar/megaco.y): every corpus message
 * in pretty and compact text decodes with both scanners to the same model;
 * that model equals the one from Erlang's BER of the same message except for
 * the name fields (text vs binary form, docs/model.md); the RFC 3525 examples
 * decode or fail where the manifest says; tables of lexical edge cases and of
 * invalid inputs with their error code and line:column; every byte value
 * inside a word (the scanner's byte table against flex's SafeChar class); a
 * decode nested in a decode's allocator call; every message cut short at
 * every byte (a clean error at the right line:column); both scanners from
 * four threads at once, with failing decodes in between.
 *
 * Models are compared through asn1c's asn_fprint dump, which shows every field.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "testutil.h"

static corpus *C;

static int decode(megaco_encoding enc, const void *buf, size_t len, megaco_scanner sc,
                  megaco_message **m, megaco_error *err)
{
	megaco_options o;
	megaco_options_init(&o);
	o.scanner = sc;
	return megaco_decode(enc, buf, len, &o, m, err);
}

/* Decodes a corpus file and returns its dump (malloc'd); fails the test on error. */
static char *decode_dump(const char *path, megaco_encoding enc, megaco_scanner sc)
{
	size_t len;
	unsigned char *b = read_file(path, &len);
	assert_non_null(b);
	megaco_message *m = NULL;
	megaco_error err;
	int rc = decode(enc, b, len, sc, &m, &err);
	if (rc != MEGACO_OK)
		fail_msg("%s: %s: %s", path, megaco_strerror(rc), err.message);
	char *d = model_dump(m);
	megaco_message_free(m);
	free(b);
	return d;
}

static int is_hex_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n)
		return 0;
	for (; i < n; i++)
		if (!strchr("0123456789ABCDEF ", s[i]))
			return 0;
	return 1;
}

/*
 * The dump with name fields masked (termination IDs and their wildcard lists,
 * package/item names, parameter names, digit map names): what must agree
 * between a text-form and a binary-form model of one message.
 */
static char *mask_names(const char *d)
{
	static const char *const names[] = {"id", "name", "pkgdName", "eventName", "signalName",
	                                    "statName", "eventParameterName", "sigParameterName",
	                                    "digitMapName", "packageName", "eventDM"};
	size_t cap = strlen(d) + 1, o = 0;
	char *out = malloc(cap);
	int masking = 0, wildcard = 0;
	for (const char *l = d; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		const char *next = e ? e + 1 : l + n;
		const char *t = l;
		while (t < l + n && *t == ' ')
			t++;
		size_t tn = (size_t)(l + n - t);
		if (wildcard) {
			if (tn == 1 && *t == '}') {
				wildcard = 0;
				memcpy(out + o, l, n), o += n, out[o++] = '\n';
			}
			l = next;
			continue;
		}
		if (masking && is_hex_line(l, n)) {
			l = next;
			continue;
		}
		masking = 0;
		if (tn > 9 && !strncmp(t, "wildcard:", 9) && t[tn - 1] == '{')
			wildcard = 1;
		const char *colon = memchr(t, ':', tn);
		int masked = 0;
		for (size_t k = 0; colon && k < sizeof names / sizeof *names; k++) {
			size_t kl = strlen(names[k]);
			if ((size_t)(colon - t) == kl && !strncmp(t, names[k], kl) && t[tn - 1] != '{') {
				size_t pre = (size_t)(colon - l) + 1;
				memcpy(out + o, l, pre), o += pre;
				memcpy(out + o, " <name>\n", 8), o += 8;
				masked = masking = 1;
				break;
			}
		}
		if (!masked)
			memcpy(out + o, l, n), o += n, out[o++] = '\n';
		l = next;
	}
	out[o] = 0;
	return out;
}

static void assert_same(const char *what, const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return;
	size_t i = 0, line = 1;
	while (a[i] && a[i] == b[i])
		line += a[i++] == '\n';
	fail_msg("%s: models differ at dump line %zu:\n  %.80s\n  %.80s", what, line, a + i, b + i);
}

/* ---- corpus ------------------------------------------------------------------------ */

static void test_corpus_both_scanners_pretty_compact_ber(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (strcmp(e->set, "time_test") != 0)
			continue;
		char *ber = decode_dump(e->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER,
		                        MEGACO_SCANNER_REENTRANT);
		char *ber_masked = mask_names(ber);
		char *first = NULL;
		for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_COMPACT; enc++) {
			for (int sc = 0; sc < 2; sc++) {
				char what[128];
				snprintf(what, sizeof what, "%s %s %s", e->name, megaco_encoding_name(enc),
				         sc ? "non-reentrant" : "reentrant");
				char *d = decode_dump(e->path[enc - 1], enc, (megaco_scanner)sc);
				if (!first) {
					first = d;
					char *masked = mask_names(d);
					assert_same(what, ber_masked, masked); /* text == BER but for names */
					free(masked);
				} else {
					assert_same(what, first, d); /* scanners agree; pretty == compact */
					free(d);
				}
				n++;
			}
		}
		free(first);
		free(ber_masked);
		free(ber);
	}
	assert_int_equal(n, 149 * 4);
}

/* Where each RFC 3525 example the manifest calls invalid must fail. */
static const struct {
	const char *name;
	unsigned line, column;
} rfc_invalid[] = {
	{"a1_01", 4, 13},  /* ServiceChange without Reason: reported at its first parameter */
	{"a1_03", 11, 18}, /* empty list element before '}' */
	{"a1_05", 4, 38},  /* al/of(init=false): '=' after a parenthesised word */
	{"a1_07", 5, 29},
	{"a1_13", 6, 31},
	{"a1_17", 5, 38},
	{"a1_19", 4, 37},
	{"a1_25", 4, 39},
};

static void test_rfc3525_examples(void **state)
{
	(void)state;
	size_t valid = 0, invalid = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (strcmp(e->set, "rfc3525") != 0)
			continue;
		for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_COMPACT; enc++) {
			if (!e->path[enc - 1])
				continue;
			size_t len;
			unsigned char *b = read_file(e->path[enc - 1], &len);
			assert_non_null(b);
			for (int sc = 0; sc < 2; sc++) {
				megaco_message *m = NULL;
				megaco_error err;
				int rc = decode(enc, b, len, (megaco_scanner)sc, &m, &err);
				if (e->valid) {
					if (rc != MEGACO_OK)
						fail_msg("%s: %s", e->path[enc - 1], err.message);
					megaco_message_free(m);
					valid++;
					continue;
				}
				size_t k = 0;
				while (k < sizeof rfc_invalid / sizeof *rfc_invalid && strcmp(rfc_invalid[k].name, e->name))
					k++;
				assert_true(k < sizeof rfc_invalid / sizeof *rfc_invalid);
				if (rc != MEGACO_ERR_SYNTAX || err.line != rfc_invalid[k].line ||
				    err.column != rfc_invalid[k].column)
					fail_msg("%s: got %s at %u:%u (%s), want syntax error at %u:%u", e->name,
					         megaco_strerror(rc), err.line, err.column, err.message,
					         rfc_invalid[k].line, rfc_invalid[k].column);
				invalid++;
			}
			free(b);
		}
	}
	assert_int_equal(invalid, 8 * 2);
	assert_int_equal(valid, (20 + 15) * 2);
}

/* ---- hand-written edge cases --------------------------------------------------------- */

#define HDR "MEGACO/3 [1.2.3.4]:2944\n"
#define REQ(body) HDR "Transaction = 1 { Context = 1 { " body " } }"
#define NTFY "Notify = t1 { ObservedEvents = 1 { al/on } }"

/* Each input decodes; every '|'-separated string appears in the model dump. */
static const struct {
	const char *what, *in, *want;
} edge[] = {
	{"lower case keywords", "megaco/1 [1.2.3.4] transaction=1{context=-{modify=t1{media{"
	 "stream=1{localcontrol{mode=sendonly}}}}}}", "version: 1|streamMode: 0|contextId: 0"},
	{"upper case keywords", "MEGACO/2 [1.2.3.4] TRANSACTION=1{CONTEXT=${ADD=$}}",
	 "version: 2|contextId: 4294967294|id: 24"},
	{"compact forms", "!/3 [1.2.3.4]\nT=1{C=*{MF=t1{M{O{MO=LB}}},AV=t2{AT{M,E,SG}}}}",
	 "contextId: 4294967295|streamMode: 4|auditToken: 38"},
	{"comments and blank lines", "MEGACO/1 ; a comment\n[1.2.3.4] ;another\n\n"
	 "Transaction = 1 { ; here\r\n Context = - { Notify = t1 { ObservedEvents = 1 {\n;x\n al/on } } } }",
	 "requestId: 1"},
	{"CR line ends", "MEGACO/1 [1.2.3.4]\rT=1{C=-{N=t1{OE=1{al/on}}}}", "transactionId: 1"},
	{"largest transaction id", HDR "T=4294967295{C=-{" NTFY "}}", "transactionId: 4294967295"},
	{"mId IPv4 with port", REQ(NTFY), "portNumber: 2944"},
	{"mId IPv6", "MEGACO/3 [2001:db8::1]:2944 T=1{C=-{" NTFY "}}",
	 "IP6Address|address: 20 01 0D B8 00 00 00 00 00 00 00 00 00 00 00 01"},
	{"mId IPv6 with IPv4 tail", "MEGACO/3 [::ffff:10.0.0.1] T=1{C=-{" NTFY "}}",
	 "00 00 FF FF 0A 00 00 01"},
	{"mId domain name", "MEGACO/3 <mg1.example.net>:55555 T=1{C=-{" NTFY "}}",
	 "DomainName|portNumber: 55555"},
	{"mId device name", "MEGACO/3 mg/rack1@host T=1{C=-{" NTFY "}}", "mId: mg/rack1@host"},
	{"mId MTP", "MEGACO/3 MTP{0a0B} T=1{C=-{" NTFY "}}", "mId: 0A 0B"},
	{"authentication header", "Authentication = 0x01020304:0x0000000A:0x000102030405060708090A0B\n"
	 "MEGACO/1 [1.2.3.4] T=1{C=-{" NTFY "}}", "secParmIndex: 01 02 03 04|seqNum: 00 00 00 0A"},
	{"message error body", HDR "Error = 400 {\"Syntax error in message\"}",
	 "errorCode: 400|errorText: Syntax error in message"},
	{"reply with segment and immAck", HDR "Reply = 5/2/END { ImmAckRequired, Context = 1 {"
	 " Add = t1 } }", "segmentNumber: 2|segmentationComplete: <present>|immAckRequired: <present>"},
	{"compact segment END", HDR "P=5/1/&{C=1{A=t1}}", "segmentationComplete: <present>"},
	{"segment reply", HDR "Segment = 7/3", "SegmentReply|segmentNumber: 3"},
	{"pending", HDR "Pending = 7 { }", "TransactionPending|transactionId: 7"},
	{"response ack", HDR "TransactionResponseAck { 1, 3-5 }", "firstAck: 3|lastAck: 5"},
	{"reply error", HDR "P=9{ER=504{\"x\"}}", "transactionResult: ErrorDescriptor|errorCode: 504"},
	{"action reply without body", HDR "P=9{C=5}", "contextId: 5"},
	{"O- and W- prefixes", REQ("O-W-Add = t1, W-Subtract = t2, O-Modify = t3"),
	 "optional: <present>|wildcardReturn: <present>"},
	{"termination id list", REQ("Move = [t1, t2/*, *]"), "id: 74 32 2F 2A|id: 2A"},
	{"ROOT upper-cased", REQ("AuditValue = root { Audit { } }"), "id: 52 4F 4F 54"},
	{"context properties", REQ("Priority = 7, Emergency, IEPSCall = ON, " NTFY),
	 "priority: 7|emergency: TRUE|iepscallind: TRUE"},
	{"emergency off", REQ("EmergencyOff, " NTFY), "emergency: FALSE"},
	{"topology", REQ("Topology { t1, t2, Isolate, t3, t4, OnewayExternal, Stream = 2 }, " NTFY),
	 "topologyDirection: 1|topologyDirectionExtension: 0|streamID: 2"},
	{"context attr properties", REQ("ContextAttr { a/b = 1, a/c > 2 }, " NTFY), "contextProp"},
	{"context list", REQ("ContextAttr { ContextList = { 1, 2, $ } }, " NTFY),
	 "contextList|4294967294"},
	{"context audit", REQ("ContextAudit { Topology, Emergency, Priority, IEPSCall, a/b, ORLgc }, " NTFY),
	 "topology: <present>|selectLogic: <present>"},
	{"context audit selectors", REQ("ContextAudit { Priority = 3, EmergencyValue = EmergencyOff, "
	 "IEPSCall = OFF, ANDLgc }, " NTFY), "selectpriority: 3|selectemergency: FALSE|selectLogic: <present>"},
	{"property operators", REQ("Modify = t1 { Media { LocalControl { a/gt > 5, a/lt < 6, "
	 "a/ne # 7, a/rng = [1:9], a/and = [1, 2], a/or = {3, 4} } } }"),
	 "extraInfo: 0|extraInfo: 1|extraInfo: 2|extraInfo: TRUE|extraInfo: FALSE"},
	{"quoted value", REQ("Modify = t1 { Media { LocalControl { a/b = \"x y, {z}\" } } }"),
	 "78 20 79 2C 20 7B 7A 7D"},
	{"keyword as value", REQ("Modify = t1 { Media { LocalControl { a/b = Add } } }"), "41 64 64"},
	{"reserved value and group", REQ("Modify = t1 { Media { LocalControl { ReservedValue = ON, "
	 "ReservedGroup = off } } }"), "reserveValue: TRUE|reserveGroup: FALSE"},
	{"SDP lines and groups", REQ("Add = t1 { Media { Stream = 2 { Local {\nv=0\r\nc=IN IP4 $ \n"
	 "a=x\\}y\nv=0\nm=audio 0\n} } } }"),
	 "streamID: 2|49 4E 20 49 50 34 20 24 20|78 7D 79|PropertyGroup ::= {"},
	{"empty Local", REQ("Add = t1 { Media { Local { }, Remote {v=0} } }"), "remoteDescriptor"},
	{"termination state", REQ("Modify = t1 { Media { TerminationState { ServiceStates = Test,"
	 " Buffer = LockStep, a/b = 1 } } }"), "serviceState: 0|eventBufferControl: 1"},
	{"buffer off", REQ("Modify = t1 { Media { TerminationState { Buffer = OFF } } }"),
	 "eventBufferControl: 0"},
	{"statistics in stream", REQ("Modify = t1 { Media { Statistics { nt/os = 4, nt/dur, "
	 "a/b [1, 2] } } }"), "StatisticsDescriptor ::= {|statValue"},
	{"modem", REQ("Modify = t1 { Modem [V18, V32b] { a/b = 1 } }"), "ModemDescriptor"},
	{"modem single", REQ("Modify = t1 { Modem = SynchISDN }"), "ModemDescriptor|8"},
	{"mux", REQ("Modify = t1 { Mux = H223 { t2, t3 } }"), "muxType: 1"},
	{"events full", REQ("Modify = t1 { Events = 7 { al/on { KeepActive, Stream = 3, "
	 "DigitMap = dm1, ResetEventsDescriptor, NeverNotify, x = 1 }, "
	 "dd/ce { DigitMap = { T:3, (1|2x) }, Embed { Signals { cg/rt }, Events = 8 { al/of "
	 "{ ImmediateNotify } } } }, al/fl { RegulatedNotify { Embed { Signals { a/b } } } } } }"),
	 "requestID: 7|keepActive: TRUE|resetEventsDescriptor: <present>|notifyBehaviour: <present>|"
	 "startTimer: 3|digitMapBody: (1|2x)|secondEvent|notifyBehaviour: RegulatedEmbeddedDescriptor"},
	{"events bare", REQ("Modify = t1 { Events }"), "EventsDescriptor ::= {"},
	{"signals full", REQ("Modify = t1 { Signals { cg/rt { Stream = 1, SignalType = TimeOut, "
	 "Duration = 500, NotifyCompletion = { TimeOut, IntByEvent, Iteration }, KeepActive, "
	 "SPADirection = External, SPARequestID = 9, Intersignal = 10, x = y }, "
	 "SignalList = 3 { a/b { SignalType = OnOff }, a/c { SignalType = Brief } } } }"),
	 "sigType: 2|duration: 500|notifyCompletion: C8|direction: 1|requestID: 9|intersigDelay: 10|"
	 "SeqSigList ::= {|id: 3"},
	{"signals empty", "MEGACO/1 [1.2.3.4] T=1{C=1{MF=t1{SG{}}}}", "SignalsDescriptor ::= {"},
	{"event buffer", REQ("Modify = t1 { EventBuffer { al/on { Stream = 2 }, al/of } }"),
	 "EventBufferDescriptor ::= {|streamID: 2"},
	{"digit map with all timers", REQ("Modify = t1 { DigitMap = dm { T:1, S:2, L:3, Z:4, "
	 "(0s| 00s|[1-7]xlxx|8lxxxxxxx|#xxxxxxx|*xx|9l1xxxxxxxxxx|9l011x.s) } }"),
	 "startTimer: 1|shortTimer: 2|longTimer: 3|durationTimer: 4|digitMapBody: (0s| 00s|"},
	{"digit map without name", REQ("Modify = t1 { DigitMap = { 12x } }"), "digitMapBody: 12x"},
	{"audit descriptor indAud", REQ("AuditValue = t1 { Audit { Media { Stream = 1 { LocalControl {"
	 " Mode, ReservedValue, a/b, a/b = 2 } }, TerminationState { ServiceStates = InService } },"
	 " Events = 3 { al/on }, Signals { cg/rt { Stream = 1 } }, DigitMap = dm1, "
	 "EventBuffer { al/of }, Statistics { nt/os }, Packages { nt-1 } } }"),
	 "IndAudMediaDescriptor ::= {|streamMode: <present>|serviceStateSel: 2|IndAudEventsDescriptor|"
	 "IndAudSignal ::= {|IndAudDigitMapDescriptor|IndAudEventBufferDescriptor|"
	 "IndAudStatisticsDescriptor|packageVersion: 1"},
	{"audit signal list", REQ("AuditCapability = t1 { Audit { Signals { SignalList = 4 { a/b } } } }"),
	 "IndAudSeqSigList ::= {|id: 4"},
	{"audit without descriptor", REQ("AuditValue = t1"), "AuditRequest ::= {"},
	{"service change all parms", REQ("ServiceChange = ROOT { Services { Method = Graceful, "
	 "Reason = 905, Delay = 10, MgcIdToTry = <mgc2>, "
	 "Profile = ResGW/1, Version = 2, 20260101T12000000, ServiceChangeInc, Signals } }"),
	 "serviceChangeMethod: 2|39 30 35|serviceChangeDelay: 10|"
	 "DomainName|profileName: ResGW/1|serviceChangeVersion: 2|date: 20260101|time: 12000000|"
	 "serviceChangeIncompleteFlag: <present>"},
	{"service change address port only", REQ("SC = ROOT { SV { MT = RS, RE = \"901\", AD = 55555 } }"),
	 "serviceChangeAddress: 55555|serviceChangeMethod: 3"},
	{"notify with error", REQ("Notify = t1 { ObservedEvents = 1 { 20260101T00000000:al/on "
	 "{ Stream = 1, init = false } }, Error = 500 { } }"), "timeNotation|errorCode: 500"},
	{"replies", HDR "Reply = 2 { Context = 1 { Priority = 3, Add = t1 { Media { Stream = 1 {"
	 " Local { v=0 } } } }, Subtract = t2 { Statistics { nt/os = 1 } }, Notify = t3 { "
	 "Error = 401 { } }, ServiceChange = ROOT { Services { ServiceChangeAddress = <a>, "
	 "Profile = p/1 } }, AuditValue = [t4, t5] { Packages { nt-1, al-2 }, Media }, "
	 "AuditCapability = Context { t6, t7 }, Error = 402 { } } }",
	 "contextReply: ContextRequest|AmmsReply ::= {|NotifyReply ::= {|ServiceChangeResParm ::= {|"
	 "TermListAuditResult ::= {|packageVersion: 2|errorCode: 402"},
	{"service change reply error", HDR "P=2{C=-{SC=ROOT{ER=505{}}}}", "errorCode: 505"},
	{"audit reply context error", HDR "P=2{C=-{AV=C{ER=411{}}}}", "errorCode: 411"},
	{"observed events reply", HDR "P=2{C=1{AV=t1{OE=5{al/on},SG,EB{al/of}}}}",
	 "requestId: 5|SignalsDescriptor ::= {"},
	{"v1 EmergencyOffToken (Erlang spelling)", "MEGACO/2 [1.2.3.4] T=1{C=1{EmergencyOffToken,"
	 "N=t1{OE=1{al/on}}}}", "emergency: FALSE"},
	/* "keyword = name {" is one token in the first pass (megaco.y, keyword joins) */
	{"joined keyword forms with prefixes", HDR "T=1{C=2{O-MF=t1{M{O{MO=SO}}},W-AV=t2{AT{M}},"
	 "W-N=t3{OE=4{al/on},ER=400{}},MV=t4{E}}}", "optional: <present>|wildcardReturn: <present>|"
	 "AuditRequest ::= {|requestId: 4|errorCode: 400|id: 74 34"},
	{"joins broken by comments", HDR "T ;c\n=1{C=2;c\n{N ;c\n= t1 ;c\n{OE ;c\n= 1 {al/on}},"
	 "A;c\n=t2{M{O{MO=SO}}}}}", "transactionId: 1|contextId: 2|requestId: 1|id: 74 32|streamMode: 0"},
	{"joined reply commands", HDR "P=2{C=1{MF=t1{M{O{MO=SO}}},N=t2{ER=402{}},AC=t3{OE=3{al/on}},"
	 "MV=t4{ER=401{}}}}", "AmmsReply ::= {|NotifyReply ::= {|errorCode: 402|requestId: 3|"
	 "errorCode: 401"},
	/* "name : name" is one token in the first pass (SAFE_PAIR), blanks and all */
	{"joined name pairs", REQ("Notify = t1 { ObservedEvents = 2 { al/of, 20260101T00000000 : "
	 "al/on { a/b = 2 }, 20260102T01000000:al/fl } }, Modify = t2 { Media { LocalControl { "
	 "a/b = [1:10], a/c = [ x : y ] } } }"),
	 "date: 20260101|time: 00000000|date: 20260102|time: 01000000|"
	 "31|31 30|extraInfo: TRUE|78|79"},
	/* "Media {", "Signals {", "Topology {", "Audit {", "Stream = n {", "Events = n {" too */
	{"joined descriptor openers", HDR "T=1{C=1{TP{t1,t2,OW},MF=t1{M{ST=2{O{MO=SO}}},"
	 "E=3{al/on{EM{SG{cg/rt},E=4{al/of}}}},SG{cg/dt}},AV=t2{AT{M{ST=5{O{MO}}},E=6{al/on},"
	 "SG{SL=7{a/b}}}},AV=t3{AT{}},AC=t4{AT{SG{}}}}}",
	 "topologyDirection: 2|streamID: 2|requestID: 3|requestID: 4|SignalsDescriptor ::= {|"
	 "IndAudMediaDescriptor ::= {|streamID: 5|requestID: 6|IndAudSeqSigList ::= {|id: 7|"
	 "auditToken: 08"},
	/* "MEGACO/n mId" is one token in the first pass (VERSION_MID), comments between and all */
	{"joined version and mId", "MEGACO/2 ; a comment\n  <mgc.example.net>:2944 T=1{C=1{N=t1{"
	 "OE=1{a/b}}}}", "version: 2|name: mgc.example.net|portNumber: 2944"},
	{"non-ASCII in a value", REQ("Modify = t1 { Media { LocalControl { a/b = \xC3\xA9t\xC3\xA9 } } }"),
	 "C3 A9 74 C3 A9"},
};

static void test_edge_cases(void **state)
{
	(void)state;
	int failures = 0;
	for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
		for (int sc = 0; sc < 2; sc++) {
			megaco_message *m = NULL;
			megaco_error err;
			int rc = decode(MEGACO_ENC_PRETTY, edge[i].in, strlen(edge[i].in), (megaco_scanner)sc,
			                &m, &err);
			if (rc != MEGACO_OK) {
				print_message("edge '%s': %s\n", edge[i].what, err.message);
				failures++;
				continue;
			}
			char *d = model_dump(m);
			char want[512];
			snprintf(want, sizeof want, "%s", edge[i].want);
			for (char *w = strtok(want, "|"); w; w = strtok(NULL, "|")) {
				if (!strstr(d, w)) {
					print_message("edge '%s': '%s' not in the model:\n%s\n", edge[i].what, w, d);
					failures++;
				}
			}
			free(d);
			megaco_message_free(m);
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * A statistics parameter's value list: the ABNF's "name [a, b]" (what we
 * write) and Erlang megaco's "name = [a, b]" (the only list form its parser
 * takes) decode to the same model, which encodes back in the ABNF's form.
 */
static void test_statistics_lists(void **state)
{
	(void)state;
	static const char *const in[] = {
		REQ("Modify = t1 { Media { Stream = 1 { Statistics { a/b [ 1, 2 ], a/c [3,4], a/d = 5 } } } }"),
		REQ("Modify = t1 { Media { Stream = 1 { Statistics { a/b = [ 1, 2 ], a/c=[3,4], a/d = 5 } } } }"),
	};
	static const char want[] = "!/3 [1.2.3.4]:2944\nT=1{C=1{MF=t1{M{ST=1{SA{a/b[1,2],a/c[3,4],a/d=5}}}}}}";
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		for (int sc = 0; sc < 2; sc++) {
			megaco_message *m = NULL;
			megaco_error err;
			int rc = decode(MEGACO_ENC_PRETTY, in[i], strlen(in[i]), (megaco_scanner)sc, &m, &err);
			if (rc != MEGACO_OK)
				fail_msg("statistics form %zu: %s", i, err.message);
			char out[256];
			size_t n = 0;
			assert_int_equal(megaco_encode(m, MEGACO_ENC_COMPACT, NULL, out, sizeof out, &n, &err),
			                 MEGACO_OK);
			megaco_message_free(m);
			assert_int_equal(n, strlen(want));
			assert_memory_equal(out, want, n);
		}
	}
}

/* Counts an allocator's frees: a decode whose first pass failed frees that pass's message. */
static void *one_pass_alloc(void *ud, size_t n)
{
	(void)ud;
	return malloc(n);
}

static void one_pass_free(void *ud, void *p)
{
	(*(int *)ud)++;
	free(p);
}

/*
 * The joined tokens (megaco.l, join_eq) must parse in the first pass: were
 * the grammar to reject one, the decode would still succeed through the
 * second, token-by-token pass, and test_edge_cases could not tell.
 */
static void test_joins_take_one_pass(void **state)
{
	(void)state;
	int cases = 0;
	for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
		if (!strstr(edge[i].what, "join"))
			continue;
		for (int sc = 0; sc < 2; sc++) {
			int frees = 0;
			megaco_allocator al = {one_pass_alloc, one_pass_free, &frees};
			megaco_options o;
			megaco_options_init(&o);
			o.allocator = &al;
			o.scanner = (megaco_scanner)sc;
			megaco_message *m = NULL;
			assert_int_equal(megaco_decode(MEGACO_ENC_PRETTY, (const unsigned char *)edge[i].in,
			                               strlen(edge[i].in), &o, &m, NULL),
			                 MEGACO_OK);
			if (frees)
				fail_msg("edge '%s': the first pass failed (%d frees during the decode)",
				         edge[i].what, frees);
			megaco_message_free(m);
			cases++;
		}
	}
	assert_int_equal(cases, 2 * 6);
}

/*
 * The first pass's joined tokens stand in for plain ones; an error message's
 * "where ... was expected" must name only the plain ones (megaco.y filters
 * the joined ones out). Returns the joined token's name found in msg, or NULL.
 */
static const char *joined_token_named(const char *msg)
{
	static const char *const names[] = {"= name {", "and a name", "and an mId", "Media {",
	                                    "Signals {", "Topology {", "Audit {"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strstr(msg, names[i]))
			return names[i];
	return NULL;
}

/* ---- invalid inputs -------------------------------------------------------------------- */

static const struct {
	const char *what, *in;
	size_t len; /* 0: strlen(in) */
	int code;
	unsigned line, column;
	unsigned max_depth;
	size_t max_token;
} invalid[] = {
	{"empty input", "", 0, MEGACO_ERR_SYNTAX, 1, 1, 0, 0},
	{"only blanks", "  \n ", 0, MEGACO_ERR_SYNTAX, 2, 2, 0, 0},
	{"version 4", "MEGACO/4 [1.2.3.4] T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_VERSION, 1, 1, 0, 0},
	{"version 0", "!/0 [1.2.3.4] T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_VERSION, 1, 1, 0, 0},
	{"transaction id 2^32", "MEGACO/1 [1.2.3.4]\nT=4294967296{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_NUMBER_RANGE, 2, 3, 0, 0},
	{"stream id 65536", REQ("Modify = t1 { Media { Stream = 65536 { Local { } } } }"), 0,
	 MEGACO_ERR_NUMBER_RANGE, 2, 64, 0, 0},
	{"priority 16", REQ("Priority = 16, " NTFY), 0, MEGACO_ERR_NUMBER_RANGE, 2, 44, 0, 0},
	{"observed events empty", HDR "T=1{C=1{N=t1{OE=1{}}}}", 0, MEGACO_ERR_SYNTAX, 2, 19, 0, 0},
	{"observed event pair cut short", HDR "T=1{C=1{N=t1{OE=1{1:}}}}", 0, MEGACO_ERR_SYNTAX, 2, 21,
	 0, 0},
	{"media empty", HDR "T=1{C=1{MF=t1{M{}}}}", 0, MEGACO_ERR_SYNTAX, 2, 17, 0, 0},
	{"audit with a stray comma", HDR "T=1{C=1{AV=t1{AT{,}}}}", 0, MEGACO_ERR_SYNTAX, 2, 18, 0, 0},
	{"number with letters", "MEGACO/1 [1.2.3.4] T=12a{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 22, 0, 0},
	{"unterminated quoted string", REQ("SC = ROOT { SV { MT = RS, RE = \"901 } } } }"), 0,
	 MEGACO_ERR_UNTERMINATED, 2, 64, 0, 0},
	{"unterminated octet string", HDR "T=1{C=1{A=t1{M{L{v=0\n", 0,
	 MEGACO_ERR_UNTERMINATED, 2, 17, 0, 0},
	{"unterminated digit map", HDR "T=1{C=1{MF=t1{DM=dm{12x", 0,
	 MEGACO_ERR_UNTERMINATED, 2, 20, 0, 0},
	{"NUL byte", "MEGACO/1 [1.2.3.4] T=1\0{C=-{N=t{OE=1{a/b}}}}", 45, MEGACO_ERR_BAD_CHARACTER, 1, 23, 0, 0},
	{"NUL in octet string", "MEGACO/1 [1.2.3.4] T=1{C=-{A=t{M{L{v=\0}}}}}", 44,
	 MEGACO_ERR_BAD_CHARACTER, 1, 38, 0, 0},
	{"control character", "MEGACO/1 [1.2.3.4] T=1{C=-{\x01N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_BAD_CHARACTER, 1, 28, 0, 0},
	{"missing closing brace", "MEGACO/1 [1.2.3.4] T=1{C=-{N=t{OE=1{a/b}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 43, 0, 0},
	{"trailing garbage", "MEGACO/1 [1.2.3.4] T=1{C=-{N=t{OE=1{a/b}}}} }", 0,
	 MEGACO_ERR_SYNTAX, 1, 45, 0, 0},
	{"unknown command", "MEGACO/1 [1.2.3.4] T=1{C=-{Frob=t}}", 0, MEGACO_ERR_SYNTAX, 1, 28, 0, 0},
	{"missing mId (T taken as a device name)", "MEGACO/1 T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 11, 0, 0},
	{"bad IPv4", "MEGACO/1 [1.2.3.256] T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
	{"bad IPv6", "MEGACO/1 [1::2::3] T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
	{"unterminated mId", "MEGACO/1 [1.2.3.4 T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
	{"mId address cut by a line end", "MEGACO/1 [1.2.3.4\n]T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
	{"unterminated domain mId", "!/1 <mg1.example T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX, 1, 5,
	 0, 0},
	{"version without an mId", "MEGACO/1", 0, MEGACO_ERR_SYNTAX, 1, 9, 0, 0},
	/* The scanner works ahead of the parser (text_scan_next): the first error is still the one */
	{"syntax error before a bad byte", HDR "T=1{C=1{,}}}\x01", 0, MEGACO_ERR_SYNTAX, 2, 9, 0, 0},
	{"number range before a bad byte", HDR "T=4294967296{C=-{N=t{OE=1{a/b}}}}\x01", 0,
	 MEGACO_ERR_NUMBER_RANGE, 2, 3, 0, 0},
	{"syntax error before a long word", "MEGACO/3 <mg>\nT=1{C=1{,x12345678}}}", 0, MEGACO_ERR_SYNTAX, 2, 9, 0,
	 8},
	{"version, then no mId", "MEGACO/1 {", 0, MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
	{"port too large", "MEGACO/1 [1.2.3.4]:65536 T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_NUMBER_RANGE, 1, 10, 0, 0},
	{"bad time stamp", REQ("Notify = t1 { ObservedEvents = 1 { 2026T1:al/on } }"), 0,
	 MEGACO_ERR_SYNTAX, 2, 68, 0, 0},
	{"service change without reason", REQ("SC = ROOT { SV { MT = RS } }"), 0,
	 MEGACO_ERR_SYNTAX, 2, 50, 0, 0},
	{"stream parms mixed with streams", REQ("Add = t1 { Media { Local { }, Stream = 1 { Local { } } } }"),
	 0, MEGACO_ERR_SYNTAX, 2, 63, 0, 0},
	{"incomplete topology", REQ("Topology { t1, t2 }, " NTFY), 0, MEGACO_ERR_SYNTAX, 2, 51, 0, 0},
	{"braces too deep", REQ(NTFY), 0, MEGACO_ERR_TOO_DEEP, 2, 66, 3, 0},
	{"bracket too deep", HDR "T=1{C=1{MF=[t1,t2]{M{}}}}", 0, MEGACO_ERR_TOO_DEEP, 2, 12, 2, 0},
	{"joined opener too deep", HDR "T=1{C=1{MF=t1{M{O{MO=SO}}}}}", 0, MEGACO_ERR_TOO_DEEP, 2, 16,
	 3, 0},
	{"token too long", "MEGACO/1 <mg> T=1{C=-{N=abcdefghijklmnop{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_TOKEN_TOO_LONG, 1, 25, 0, 8},
	{"octet string too long", "MEGACO/1 <mg> T=1{C=-{A=t{M{L{v=0123456789}}}}}", 0,
	 MEGACO_ERR_TOKEN_TOO_LONG, 1, 31, 0, 8},
	{"mId too long", "MEGACO/1 [1.2.3.4]:2944 T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_TOKEN_TOO_LONG, 1, 10, 0, 8},
	{"domain mId too long", "MEGACO/1 <example.net> T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_TOKEN_TOO_LONG, 1, 10, 0, 8},
	/* Errors a builder reports at a member of a list (the parser merges list members). */
	{"second Error descriptor in a reply", HDR "Reply = 1 { Context = 1 { Error = 400 { }, "
	 "Error = 401 { } } }", 0, MEGACO_ERR_SYNTAX, 2, 44, 0, 0},
	{"second Statistics in a stream", REQ("Modify = t1 { Media { Statistics { a/b }, "
	 "Statistics { a/c } } }"), 0, MEGACO_ERR_SYNTAX, 2, 75, 0, 0},
	{"Statistics after a Stream", REQ("Modify = t1 { Media { Stream = 1 { Local { } }, "
	 "Statistics { a/b } } }"), 0, MEGACO_ERR_SYNTAX, 2, 81, 0, 0},
	{"topology direction twice", REQ("Topology { t1, t2, Isolate, Bothway }, " NTFY), 0,
	 MEGACO_ERR_SYNTAX, 2, 61, 0, 0},
	{"topology stream without direction", REQ("Topology { t1, Stream = 2 }, " NTFY), 0,
	 MEGACO_ERR_SYNTAX, 2, 48, 0, 0},
	{"topology stream 70000", REQ("Topology { t1, t2, Isolate, Stream = 70000 }, " NTFY), 0,
	 MEGACO_ERR_NUMBER_RANGE, 2, 70, 0, 0},
	{"second transaction id 2^32", "MEGACO/1 [1.2.3.4] T=1{C=1{N=t{OE=1{a/b}}},C=2{N=t{OE=1{a/b}}}}"
	 " T=12345678901{C=1{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_NUMBER_RANGE, 1, 67, 0, 0},
	{"second context id 2^32", "MEGACO/1 [1.2.3.4] T=1{C=1{N=t{OE=1{a/b}}},"
	 "C=99999999999{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_NUMBER_RANGE, 1, 46, 0, 0},
	{"second ContextAudit", "MEGACO/1 [1.2.3.4] T=1{C=1{CA{PR},CA{EG},N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 35, 0, 0},
	{"bad time stamp in a later event", "MEGACO/1 [1.2.3.4] T=1{C=1{N=t{OE=1{20260101T00000000:a/b,"
	 "x/y,1234T1:a/b}}}}", 0, MEGACO_ERR_SYNTAX, 1, 63, 0, 0},
	{"IPv4 of five parts", "MEGACO/1 [1.2.3.4.5] T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX,
	 1, 10, 0, 0},
	{"IPv4 with a letter", "MEGACO/1 [1.2.3.4x]:99 T=1{C=-{N=t{OE=1{a/b}}}}", 0, MEGACO_ERR_SYNTAX,
	 1, 10, 0, 0},
	{"IPv4 part of four digits", "MEGACO/1 [1.2.3.1234] T=1{C=-{N=t{OE=1{a/b}}}}", 0,
	 MEGACO_ERR_SYNTAX, 1, 10, 0, 0},
};

static void test_invalid_inputs(void **state)
{
	(void)state;
	int failures = 0;
	for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++) {
		size_t len = invalid[i].len ? invalid[i].len : strlen(invalid[i].in);
		for (int sc = 0; sc < 2; sc++) {
			megaco_options o;
			megaco_options_init(&o);
			o.scanner = (megaco_scanner)sc;
			if (invalid[i].max_depth)
				o.max_depth = invalid[i].max_depth;
			if (invalid[i].max_token)
				o.max_token_length = invalid[i].max_token;
			/* Not NUL-terminated: the decoder must not look past len. */
			char *b = malloc(len ? len : 1);
			memcpy(b, invalid[i].in, len);
			megaco_message *m = NULL;
			megaco_error err;
			int rc = megaco_decode(MEGACO_ENC_PRETTY, b, len, &o, &m, &err);
			if (rc != invalid[i].code || err.line != invalid[i].line ||
			    err.column != invalid[i].column) {
				failures++;
				print_message("invalid '%s': got %s at %u:%u (%s), want %s at %u:%u", invalid[i].what,
				         megaco_strerror(rc), err.line, err.column, err.message,
				         megaco_strerror(invalid[i].code), invalid[i].line, invalid[i].column);
			}
			const char *joined = joined_token_named(err.message);
			if (joined) {
				failures++;
				print_message("invalid '%s': the message names the joined token '%s': %s\n",
				              invalid[i].what, joined, err.message);
			}
			if (!failures)
				print_message("%-36s %s\n", invalid[i].what, err.message);
			assert_null(m);
			assert_int_equal(err.code, rc);
			free(b);
		}
	}
	assert_int_equal(failures, 0);
}

/* ---- every byte value inside a word ------------------------------------------------------ */

/*
 * The scanner matches a word's first byte with flex and the rest with a byte
 * table (grammar/megaco.l): the table must take exactly flex's SafeChar set.
 * A v3 parameter value "a<b>b" decodes to itself when b is a SafeChar (or 0x80-FF,
 * which v3 VALUE takes) and is rejected otherwise (split into two words, or a bad character).
 */
static int is_safe_char(int b)
{
	return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') ||
	       (b && strchr("-+&!_/'?@^`~*$\\()%|.", b)) || b >= 0x80;
}

static void test_word_bytes(void **state)
{
	(void)state;
	int failures = 0;
	for (int b = 1; b < 256; b++) {
		for (int sc = 0; sc < 2; sc++) {
			char in[160];
			int n = snprintf(in, sizeof in,
			                 REQ("Notify = t { ObservedEvents = 1 { al/on { pq = a%cb } } }"), b);
			megaco_message *m = NULL;
			megaco_error err;
			int rc = decode(MEGACO_ENC_PRETTY, in, (size_t)n, (megaco_scanner)sc, &m, &err);
			char want[8];
			snprintf(want, sizeof want, "a%cb", b);
			int ok = 0;
			if (rc == MEGACO_OK) {
				const MegacoMessage_t *mm = megaco_message_model_const(m);
				const Transaction_t *t = mm->mess.messageBody.choice.transactions.list.array[0];
				const ActionRequest_t *ar = t->choice.transactionRequest.actions.list.array[0];
				const CommandRequest_t *cr = ar->commandRequests.list.array[0];
				const ObservedEvent_t *oe = cr->command.choice.notifyReq.observedEventsDescriptor
				                                .observedEventLst.list.array[0];
				const OCTET_STRING_t *v = oe->eventParList.list.array[0]->value.list.array[0];
				ok = v->size == 3 && memcmp(v->buf, want, 3) == 0;
				megaco_message_free(m);
			}
			if (ok != is_safe_char(b)) {
				print_message("byte 0x%02x (scanner %d): %s\n", b, sc,
				              rc == MEGACO_OK ? "decoded differently than expected" : err.message);
				failures++;
			}
		}
	}
	assert_int_equal(failures, 0);
}

/* ---- a decode from inside a decode (the thread's cached scanner is busy) ------------------ */

static int nested_depth, nested_failures;

static void *nesting_alloc(void *ud, size_t n)
{
	(void)ud;
	if (nested_depth == 0) {
		nested_depth++;
		static const char inner[] = REQ(NTFY);
		megaco_message *m = NULL;
		if (decode(MEGACO_ENC_PRETTY, inner, sizeof inner - 1, MEGACO_SCANNER_REENTRANT, &m, NULL))
			nested_failures++;
		megaco_message_free(m);
		nested_depth--;
	}
	return malloc(n);
}

static void nesting_free(void *ud, void *p)
{
	(void)ud;
	free(p);
}

static void test_nested_decode(void **state)
{
	(void)state;
	/* Over 4 KiB, so that the input copy is allocated too (not only the arena). */
	char *in = malloc(16384);
	size_t n = (size_t)sprintf(in, HDR "Transaction = 1 { Context = 1 { Notify = t1 { "
	                                   "ObservedEvents = 1 { al/on");
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(in + n, ", al/of { x%d = %d }", i, i);
	n += (size_t)sprintf(in + n, " } } } }");
	megaco_allocator al = {nesting_alloc, nesting_free, NULL};
	megaco_options o;
	megaco_options_init(&o);
	o.allocator = &al;
	char *want = NULL;
	/* Without, then with nested decodes; each scanner (their kept buffer
	 * states aimed at an allocated copy, then at the kept one again). */
	for (int round = 0; round < 4; round++) {
		nested_depth = !(round & 1);
		o.scanner = round < 2 ? MEGACO_SCANNER_REENTRANT : MEGACO_SCANNER_NON_REENTRANT;
		megaco_message *m = NULL;
		megaco_error err;
		int rc = megaco_decode(MEGACO_ENC_PRETTY, in, n, &o, &m, &err);
		if (rc != MEGACO_OK)
			fail_msg("round %d: %s", round, err.message);
		char *d = model_dump(m);
		megaco_message_free(m);
		if (!want)
			want = d;
		else {
			assert_string_equal(want, d);
			free(d);
		}
	}
	assert_int_equal(nested_failures, 0);
	free(want);
	free(in);
}

/* ---- the scanner's next-byte dispatch agrees with flex -------------------------------- */

/*
 * The scanner sends a word's first byte and some punctuation straight to
 * their rules (megaco.l, next_match), on the grammar fact that in INITIAL
 * each is a whole match of one rule and starts no longer match. Checked
 * against flex's own tables, for each of them and every byte after it.
 */
int text_scan_one_byte_rule(unsigned c); /* grammar/megaco.l, for this test */
int text_scan_check_next_byte(void);

static void test_next_byte_dispatch(void **state)
{
	(void)state;
	int bad = text_scan_check_next_byte();
	if (bad)
		fail_msg("byte 0x%02x: flex does not match it alone with the rule next_match jumps to",
		         (unsigned)(bad - 1));
	/* The check can fail: ';' starts a comment, a longer match. */
	assert_int_equal(text_scan_one_byte_rule(';'), -1);
	assert_int_not_equal(text_scan_one_byte_rule('a'), -1);
	assert_int_equal(text_scan_one_byte_rule('a'), text_scan_one_byte_rule('Z'));
	assert_int_not_equal(text_scan_one_byte_rule('='), text_scan_one_byte_rule('a'));
}

/* ---- every message cut short ------------------------------------------------------------- */

/*
 * Every prefix of every pretty and compact corpus message, in a heap buffer
 * of exactly that many bytes (under ASan, a read past it is caught), with
 * each scanner: a decode either succeeds (only when the cut leaves whole
 * transactions, or cuts a final number short) or fails with a text error whose offset is inside
 * the prefix and whose line and column point there, *out untouched.
 */
static void test_every_prefix(void **state)
{
	(void)state;
	int failures = 0;
	size_t cuts = 0, whole = 0;
	for (size_t i = 0; i < C->count && failures < 10; i++) {
		for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_COMPACT; enc++) {
			const char *path = C->entries[i].path[enc - 1];
			if (!path || !C->entries[i].valid || strcmp(C->entries[i].set, "time_test"))
				continue;
			size_t len;
			unsigned char *b = read_file(path, &len);
			assert_non_null(b);
			for (size_t cut = 0; cut < len; cut++) {
				unsigned char *p = cut ? malloc(cut) : NULL;
				if (cut)
					memcpy(p, b, cut);
				for (int sc = 0; sc < 2; sc++) {
					megaco_message *keep = (megaco_message *)&len, *m = keep;
					megaco_error err;
					int rc = decode(enc, p, cut, (megaco_scanner)sc, &m, &err);
					cuts++;
					if (rc == MEGACO_OK) {
						megaco_message_free(m);
						whole++;
						/*
						 * Whole transactions (the prefix ends in a '}'), or a
						 * brace-less one whose last number lost digits
						 * ("SM=8101/1000" cut to "SM=8101/10").
						 */
						size_t end = cut;
						while (end && strchr(" \t\r\n", p[end - 1]))
							end--;
						if (!end || (p[end - 1] != '}' && (p[end - 1] < '0' || p[end - 1] > '9'))) {
							print_message("%s cut to %zu decodes\n", path, cut);
							failures++;
						}
						continue;
					}
					unsigned line = 1, col = 1; /* where err.offset is, counting LF */
					for (size_t k = 0; k < err.offset && k < cut; k++, col++)
						if (p[k] == '\n') {
							line++;
							col = 0;
						}
					if (m != keep || err.code != rc || err.offset > cut || err.line != line ||
					    err.column != col || !err.message[0]) {
						print_message("%s cut to %zu (scanner %d): %s at %zu, %u:%u (want %u:%u)\n",
						              path, cut, sc, err.message, err.offset, err.line, err.column,
						              line, col);
						failures++;
					}
				}
				free(p);
			}
			free(b);
		}
	}
	print_message("%zu cut-short decodes, %zu of them still whole messages\n", cuts, whole);
	assert_int_equal(failures, 0);
}

/* ---- both scanners from four threads ------------------------------------------------------ */


typedef struct thread_job {
	char **dumps; /* per corpus entry, pretty */
	megaco_scanner scanner;
	int failures;
} thread_job;

static void *thread_main(void *arg)
{
	thread_job *job = arg;
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < C->count; i++) {
			corpus_entry *e = &C->entries[i];
			if (strcmp(e->set, "time_test") != 0)
				continue;
			size_t len;
			unsigned char *b = read_file(e->path[MEGACO_ENC_PRETTY - 1], &len);
			megaco_message *m = NULL;
			/* An error in between: the next decode must not inherit the scanner's state. */
			static const char bad[] = HDR "T=1{C=1{N=t1{OE=1{al/on{x=\"unterminated";
			if (decode(MEGACO_ENC_PRETTY, bad, sizeof bad - 1, job->scanner, &m, NULL) !=
			    MEGACO_ERR_UNTERMINATED)
				job->failures++;
			if (!b || decode(MEGACO_ENC_PRETTY, b, len, job->scanner, &m, NULL)) {
				job->failures++;
			} else {
				char *d = model_dump(m);
				if (strcmp(d, job->dumps[i]) != 0)
					job->failures++;
				free(d);
			}
			megaco_message_free(m);
			free(b);
		}
	}
	return NULL;
}

static void test_scanner_threads(void **state)
{
	(void)state;
	char **dumps = calloc(C->count, sizeof *dumps);
	for (size_t i = 0; i < C->count; i++)
		if (!strcmp(C->entries[i].set, "time_test"))
			dumps[i] = decode_dump(C->entries[i].path[MEGACO_ENC_PRETTY - 1], MEGACO_ENC_PRETTY,
			                       MEGACO_SCANNER_NON_REENTRANT);
	pthread_t t[4];
	thread_job jobs[4];
	for (int i = 0; i < 4; i++) {
		/* Two threads on each scanner: the global one under its lock, per-thread reentrant ones. */
		jobs[i] = (thread_job){dumps, i & 1 ? MEGACO_SCANNER_REENTRANT : MEGACO_SCANNER_NON_REENTRANT, 0};
		assert_int_equal(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(jobs[i].failures, 0);
	}
	for (size_t i = 0; i < C->count; i++)
		free(dumps[i]);
	free(dumps);
}

/* ---- a decoded list grows with megaco_message_append ---------------------------------- */

/*
 * The builder fills SEQUENCE OF arrays itself; they must stay arena
 * allocations that asn1c's realloc can grow after the decode.
 */
static void test_append_to_decoded_list(void **state)
{
	(void)state;
	static const char in[] = REQ("Notify = [t1, t2, t3] { ObservedEvents = 1 { al/on } }");
	for (int sc = 0; sc < 2; sc++) {
		megaco_message *m = NULL;
		assert_int_equal(decode(MEGACO_ENC_PRETTY, in, sizeof in - 1, (megaco_scanner)sc, &m, NULL),
		                 MEGACO_OK);
		MegacoMessage_t *mm = megaco_message_model(m);
		Transaction_t *t = mm->mess.messageBody.choice.transactions.list.array[0];
		ActionRequest_t *ar = t->choice.transactionRequest.actions.list.array[0];
		CommandRequest_t *cr = ar->commandRequests.list.array[0];
		void *list = &cr->command.choice.notifyReq.terminationID.list;
		for (int i = 0; i < 20; i++) {
			TerminationID_t *tid = megaco_message_alloc(m, sizeof *tid);
			assert_non_null(tid);
			char name[8];
			int n = snprintf(name, sizeof name, "x%d", i);
			assert_int_equal(megaco_message_set_octets(m, &tid->id, name, (size_t)n), MEGACO_OK);
			assert_int_equal(megaco_message_append(m, list, tid), MEGACO_OK);
		}
		const struct TerminationIDList *l = &cr->command.choice.notifyReq.terminationID;
		assert_int_equal(l->list.count, 23);
		assert_memory_equal(l->list.array[2]->id.buf, "t3", 2);
		assert_memory_equal(l->list.array[22]->id.buf, "x19", 3);
		megaco_message_free(m);
	}
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_both_scanners_pretty_compact_ber),
		cmocka_unit_test(test_rfc3525_examples),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_statistics_lists),
		cmocka_unit_test(test_joins_take_one_pass),
		cmocka_unit_test(test_invalid_inputs),
		cmocka_unit_test(test_word_bytes),
		cmocka_unit_test(test_nested_decode),
		cmocka_unit_test(test_next_byte_dispatch),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_scanner_threads),
		cmocka_unit_test(test_append_to_decoded_list),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
