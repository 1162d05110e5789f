/*
 * Text parser for H.248.1 pretty and compact text: tokens from
 * grammar/megaco.l -> the asn1c MegacoMessage_t model, every node in the
 * message arena (text_build.c does the building). One grammar covers v1
 * (RFC 3525 Annex B) to v3 (H.248.1 v3 ABNF); see grammar/README.md for the
 * rule-by-rule coverage.
 *
 * Lists whose members may come in any order (stream parameters, service
 * change parameters, context properties and commands, signal and event
 * parameters, ...) are parsed as flat comma lists of tagged items
 * (text_item) and merged into their ASN.1 structure one item at a time,
 * which keeps the grammar LALR(1) with no conflicts.
 *
 * The grammar, in outline (LBRKT = '{', LSBRKT = '[', ...):
 *   message      : [AuthToken = spi:seq:data] MEGACO/v mId (errorDescriptor | transaction+)
 *   transaction  : Transaction = id { actionRequest, ... }
 *                | Reply = id[/seg[/END]] { [ImmAckRequired,] (errorDescriptor | actionReply, ...) }
 *                | Pending = id { } | TransactionResponseAck { ack, ... } | Segment = id/seg[/END]
 *   actionRequest: Context = id { (contextProperty | contextAudit | command), ... }
 *   actionReply  : Context = id [{ (contextProperty | commandReply | errorDescriptor), ... }]
 *   descriptors  : Media, Modem, Mux, Events, EventBuffer, Signals, DigitMap, Audit,
 *                  Statistics, Packages, ObservedEvents, ServiceChange, Topology, Error, ...
 */
%code requires {
#include "text_parse.h"
/*
 * No locations (%locations would copy one per shift and compute one per
 * reduction, and the scanner would store one per token): a token's bytes
 * are in its value ($n.off, $n.len), and the last token's value is still in
 * the scanner's batch (text_scan_last), which is all an error needs.
 */
}

%code {
#include <stdio.h>
#include <string.h>

/*
 * Should the parser's stacks outgrow the 200 entries they start with on the
 * C stack (deep nesting), the bigger ones come from the message's arena:
 * the caller's allocator, given back with the message.
 */
#define YYSTACK_ALLOC(Size) arena_alloc(px->A, (Size))

/*
 * Bison calls this only when its stacks cannot grow ("memory exhausted"):
 * either the allocator said no, or they would pass YYMAXDEPTH entries.
 */
static void yyerror(text_parse *px, const char *msg)
{
	(void)msg;
	const text_tok *last = text_scan_last(px->scan);
	size_t off = last ? last->off : 0;
	if (px->A->failed)
		tb_fail(px, MEGACO_ERR_NOMEM, off, "out of memory");
	else
		tb_fail(px, MEGACO_ERR_TOO_DEEP, off, "nesting too deep for the parser's stack");
}

/*
 * The joined tokens are consecutive, EQ_SAFE_LB to VERSION_MID: the expected
 * token list of a syntax error leaves them out with one range test, so a
 * joined token declared among them can never be offered as expected.
 */
_Static_assert(TRANS_LB == EQ_SAFE_LB + 1 && AUDIT_LB == EQ_SAFE_LB + 7 &&
               STREAM_LB == EQ_SAFE_LB + 8 && AUDIT_D_LB == EQ_SAFE_LB + 13 &&
               EQ_SAFE == EQ_SAFE_LB + 14 && SAFE_PAIR == EQ_SAFE_LB + 15 &&
               VERSION_MID == EQ_SAFE_LB + 16 && COMMA == EQ_SAFE_LB + 17,
               "joined token numbers");

/*
 * The token pull: the next token of the scanner's batch (text_scan_next; the
 * scanner also keeps the brace depth limit, megaco.l OPEN_LEVEL). Nothing is
 * recorded per token (an error finds the last token in the batch,
 * text_scan_last, so the parser's lookahead value never needs an address
 * and stays in registers); the context of an error message is worked out
 * afterwards (text_error_context).
 */
static inline int yylex(YYSTYPE *lval, text_parse *px)
{
	return text_scan_next(px->scan, &lval->tok);
}

_Static_assert(TEXT_SCAN_ERROR_TOKEN == TEXT_YYerror, "the batch's error token");

/*
 * Checks the version of a VERSION_MID token (version_mid below) and leaves
 * *t as the plain mId. Out of line: the parser's loop is one big function,
 * and code added to its actions can cost every step a register.
 */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int version_of_mid(text_parse *px, text_tok *t)
{
	text_tok v = {t->off - (uint32_t)t->kw, t->flags, -1, 0};
	t->kw = -1;
	t->flags = 0;
	return tb_version(px, &v);
}

/* The message once its body is built (NULL: out of memory, already reported). */
static int message_end(text_parse *px, const text_tok *mid, void *body)
{
	return body ? tb_message(px, mid, body) : -1;
}

/* Appends a built member (NULL: its builder failed) to l, a new list if l is NULL. */
static tb_list *list_push(text_parse *px, tb_list *l, void *member)
{
	if (!member)
		return NULL;
	if (!l)
		return tb_list_new(px, member);
	return tb_list_add(px, l, member) ? NULL : l;
}

/* Adds a built command (NULL: its builder failed) to ar, a new action request if NULL. */
static void *ctx_command(text_parse *px, void *ar, void *cmd)
{
	if (!cmd || (!ar && !(ar = tb_action_request(px))))
		return NULL;
	return tb_action_request_cmd(px, ar, cmd) ? NULL : ar;
}

/*
 * The name of a joined "keyword = name {" token (TRANS_LB ... EVENTS_LB) as
 * the plain word token it stands for; the token itself carries the keyword's
 * index and flags, and is the command keyword for tb_command and the like.
 */
#define LB_NAME(t) (&(text_tok){(t).off, (t).len, -1, 0})

/*
 * The two names of a joined "name : name" token (SAFE_PAIR): the token is
 * the first (its own bytes as a plain word, as LB_NAME gives them), with the
 * second's offset from it in kw and its length in flags.
 */
#define PAIR_FIRST(t) LB_NAME(t)
#define PAIR_SECOND(t) (&(text_tok){(t).off + (uint32_t)(t).kw, (t).flags, -1, 0})

/* A command request from a joined "Add/Move/Modify/AuditValue/... = tid {". */
static void *command_lb(text_parse *px, void *ar, const text_tok *kw, void *body)
{
	tb_list *tids = tb_tid_list(px, NULL, LB_NAME(*kw));
	return tids ? ctx_command(px, ar, tb_command(px, kw, tids, body)) : NULL;
}

/* A Notify request from "Notify = tid {ObservedEvents = id {events}[, error]}", joined. */
static void *notify_lb(text_parse *px, void *ar, const text_tok *kw, const text_tok *rid,
                       tb_list *events, void *err)
{
	void *oed = tb_observed_events(px, LB_NAME(*rid), events);
	tb_list *tids = oed ? tb_tid_list(px, NULL, LB_NAME(*kw)) : NULL;
	return tids ? ctx_command(px, ar, tb_notify_request(px, kw, tids, oed, err)) : NULL;
}

/* A command reply from a joined "Add/Move/Modify/Notify/AuditValue/... = tid {". */
static void *reply_lb(text_parse *px, const text_tok *kw, tb_list *audit)
{
	tb_list *tids = tb_tid_list(px, NULL, LB_NAME(*kw));
	return tids ? tb_command_reply(px, kw, tids, audit) : NULL;
}

/* An item for a builder that takes one, on the stack. */
#define ITEM_OF(k, pv, nv, at) ((text_item){.kind = (k), .p = (pv), .n = (nv), .off = (at)})

#define CK(expr)                                                                    \
	do {                                                                            \
		if ((expr) != 0)                                                            \
			YYABORT;                                                                \
	} while (0)
#define NN(ptr)                                                                     \
	do {                                                                            \
		if (!(ptr))                                                                 \
			YYABORT;                                                                \
	} while (0)
/* A new item (text_item_make: the parse's item pool), filled in; at: its input offset. */
#define ITEM(res, k, pv, nv, at)                                                   \
	do {                                                                            \
		if (!((res) = text_item_make(px, (k), (pv), (nv), (at))))                   \
			YYABORT;                                                                \
	} while (0)
}

%define api.pure full
%define api.token.raw
%define api.prefix {text_yy}
%define parse.error custom
%expect 0
%param {text_parse *px}

/*
 * 16 bytes: the parse loop copies a value on every shift and reduce (yacc.c
 * twice on a reduce), so list items (48 bytes) are pointers into the
 * parse's item pool instead.
 */
%union {
	text_tok tok;
	long num;
	void *ptr;
	text_item *item;
}

%token <tok> LBRKT "'{'" RBRKT "'}'" LSBRKT "'['" RSBRKT "']'"
/* '=', a name and '{' as one token (see eq_tids below) */
%token <tok> EQ_SAFE_LB "'=', a name and '{'"
/* A keyword, '=', a name and '{' as one token (see "keyword joins" below) */
%token <tok> TRANS_LB "Transaction = name {"
%token <tok> REPLY_LB "Reply = name {"
%token <tok> CTX_LB "Context = name {"
%token <tok> NOTIFY_LB "Notify = name {"
%token <tok> OE_LB "ObservedEvents = name {"
%token <tok> AMM_LB "Add/Move/Modify = name {"
%token <tok> AUDIT_LB "AuditValue/AuditCapability = name {"
%token <tok> STREAM_LB "Stream = name {"
%token <tok> EVENTS_LB "Events = name {"
/* A descriptor keyword and '{' as one token (see "keyword joins" below) */
%token <tok> MEDIA_LB "Media {"
%token <tok> SIGNALS_LB "Signals {"
%token <tok> TOPOLOGY_LB "Topology {"
%token <tok> AUDIT_D_LB "Audit {"
/* '=' and a name as one token (see eq_tids below) */
%token <tok> EQ_SAFE "'=' and a name"
/* A name, ':' and a name as one token (an observed event's timestamp and name, a range) */
%token <tok> SAFE_PAIR "a name, ':' and a name"
/* The version and the mId as one token (a decode's first pass; see version_mid) */
%token <tok> VERSION_MID "MEGACO/version and an mId"
/* (Joined tokens go above, with the others: yyreport_syntax_error leaves that range out.) */
%token <tok> COMMA "','" EQUAL "'='"
%token <tok> COLON "':'" GT "'>'" LT "'<'" NEQ "'#'"
%token <tok> SAFE "a name or value" QSTRING "a quoted string" VERSION "MEGACO/version"
%token <tok> MID "an mId" OCTETS_BODY "an octet string" DIGITMAP_BODY "a digit map"
%token <tok> KW_ADD "Add/A"
%token <tok> KW_AND_AUDITSELECT "ANDLgc"
%token <tok> KW_AUDIT "Audit/AT"
%token <tok> KW_AUDIT_CAP "AuditCapability/AC"
%token <tok> KW_AUDIT_VALUE "AuditValue/AV"
%token <tok> KW_AUTH "Authentication/AU"
%token <tok> KW_BOTH "Both/B"
%token <tok> KW_BOTHWAY "Bothway/BW"
%token <tok> KW_BRIEF "Brief/BR"
%token <tok> KW_BUFFER "Buffer/BF"
%token <tok> KW_CONTEXT_ATTR "ContextAttr/CT"
%token <tok> KW_CONTEXT_AUDIT "ContextAudit/CA"
%token <tok> KW_CONTEXT_LIST "ContextList/CLT"
%token <tok> KW_CTX "Context/C"
%token <tok> KW_DELAY "Delay/DL"
%token <tok> KW_DIGIT_MAP "DigitMap/DM"
%token <tok> KW_DIRECTION "SPADirection/SPADI"
%token <tok> KW_DISCONNECTED "Disconnected/DC"
%token <tok> KW_DURATION "Duration/DR"
%token <tok> KW_EMBED "Embed/EM"
%token <tok> KW_EMERGENCY "Emergency/EG"
%token <tok> KW_EMERGENCY_OFF "EmergencyOff/EGO"
%token <tok> KW_EMERGENCY_VALUE "EmergencyValue/EGV"
%token <tok> KW_ERROR "Error/ER"
%token <tok> KW_EVENTS "Events/E"
%token <tok> KW_EVENT_BUFFER "EventBuffer/EB"
%token <tok> KW_EXTERNAL "External/EX"
%token <tok> KW_FAILOVER "Failover/FL"
%token <tok> KW_FORCED "Forced/FO"
%token <tok> KW_GRACEFUL "Graceful/GR"
%token <tok> KW_H221 "H221"
%token <tok> KW_H223 "H223"
%token <tok> KW_H226 "H226"
%token <tok> KW_HAND_OFF "HandOff/HO"
%token <tok> KW_IEPS "IEPSCall/IEPS"
%token <tok> KW_IMM_ACK_REQUIRED "ImmAckRequired/IA"
%token <tok> KW_INACTIVE "Inactive/IN"
%token <tok> KW_INTERNAL "Internal/IT"
%token <tok> KW_INTERRUPT_BY_EVENT "IntByEvent/IBE"
%token <tok> KW_INTERRUPT_BY_NEW_SIGNALS_DESCR "IntBySigDescr/IBS"
%token <tok> KW_INTSIG_DELAY "Intersignal/SPAIS"
%token <tok> KW_IN_SVC "InService/IV"
%token <tok> KW_ISOLATE "Isolate/IS"
%token <tok> KW_ITERATION "Iteration/IR"
%token <tok> KW_KEEP_ACTIVE "KeepActive/KA"
%token <tok> KW_LOCAL "Local/L"
%token <tok> KW_LOCAL_CONTROL "LocalControl/O"
%token <tok> KW_LOCK_STEP "LockStep/SP"
%token <tok> KW_LOOPBACK "Loopback/LB"
%token <tok> KW_MEDIA "Media/M"
%token <tok> KW_MEGACOP "MEGACO/!"
%token <tok> KW_MESSAGE_SEGMENT "Segment/SM"
%token <tok> KW_METHOD "Method/MT"
%token <tok> KW_MGC_ID "MgcIdToTry/MG"
%token <tok> KW_MODE "Mode/MO"
%token <tok> KW_MODEM "Modem/MD"
%token <tok> KW_MODIFY "Modify/MF"
%token <tok> KW_MOVE "Move/MV"
%token <tok> KW_MTP "MTP"
%token <tok> KW_MUX "Mux/MX"
%token <tok> KW_NEVER_NOTIFY "NeverNotify/NBNN"
%token <tok> KW_NOTIFY "Notify/N"
%token <tok> KW_NOTIFY_COMPLETION "NotifyCompletion/NC"
%token <tok> KW_NOTIFY_IMMEDIATE "ImmediateNotify/NBIN"
%token <tok> KW_NOTIFY_REGULATED "RegulatedNotify/NBRN"
%token <tok> KW_NX64K "Nx64Kservice/N64"
%token <tok> KW_OBSERVED_EVENTS "ObservedEvents/OE"
%token <tok> KW_ONEWAY "Oneway/OW"
%token <tok> KW_ONEWAY_BOTH "OnewayBoth/OWB"
%token <tok> KW_ONEWAY_EXTERNAL "OnewayExternal/OWE"
%token <tok> KW_ON_OFF "OnOff/OO"
%token <tok> KW_OR_AUDITSELECT "ORLgc"
%token <tok> KW_OTHER_REASON "OtherReason/OR"
%token <tok> KW_OUT_OF_SVC "OutOfService/OS"
%token <tok> KW_PACKAGES "Packages/PG"
%token <tok> KW_PENDING "Pending/PN"
%token <tok> KW_PRIORITY "Priority/PR"
%token <tok> KW_PROFILE "Profile/PF"
%token <tok> KW_REASON "Reason/RE"
%token <tok> KW_RECVONLY "ReceiveOnly/RC"
%token <tok> KW_REMOTE "Remote/R"
%token <tok> KW_REPLY "Reply/P"
%token <tok> KW_REQUEST_ID "SPARequestID/SPARQ"
%token <tok> KW_RESERVED_GROUP "ReservedGroup/RG"
%token <tok> KW_RESERVED_VALUE "ReservedValue/RV"
%token <tok> KW_RESET_EVENTS_DESCRIPTOR "ResetEventsDescriptor/RSE"
%token <tok> KW_RESPONSE_ACK "TransactionResponseAck/K"
%token <tok> KW_RESTART "Restart/RS"
%token <tok> KW_SEGMENTATION_COMPLETE "END/&"
%token <tok> KW_SENDONLY "SendOnly/SO"
%token <tok> KW_SENDRECV "SendReceive/SR"
%token <tok> KW_SERVICES "Services/SV"
%token <tok> KW_SERVICE_CHANGE "ServiceChange/SC"
%token <tok> KW_SERVICE_CHANGE_ADDRESS "ServiceChangeAddress/AD"
%token <tok> KW_SERVICE_CHANGE_INCOMPLETE "ServiceChangeInc/SIC"
%token <tok> KW_SERVICE_STATES "ServiceStates/SI"
%token <tok> KW_SIGNALS "Signals/SG"
%token <tok> KW_SIGNAL_LIST "SignalList/SL"
%token <tok> KW_SIGNAL_TYPE "SignalType/SY"
%token <tok> KW_STATS "Statistics/SA"
%token <tok> KW_STREAM "Stream/ST"
%token <tok> KW_SUBTRACT "Subtract/S"
%token <tok> KW_SYNCH_ISDN "SynchISDN/SN"
%token <tok> KW_TERMINATION_STATE "TerminationState/TS"
%token <tok> KW_TEST "Test/TE"
%token <tok> KW_TIME_OUT "TimeOut/TO"
%token <tok> KW_TOPOLOGY "Topology/TP"
%token <tok> KW_TRANS "Transaction/T"
%token <tok> KW_V18 "V18"
%token <tok> KW_V22 "V22"
%token <tok> KW_V22BIS "V22b"
%token <tok> KW_V32 "V32"
%token <tok> KW_V32BIS "V32b"
%token <tok> KW_V34 "V34"
%token <tok> KW_V76 "V76"
%token <tok> KW_V90 "V90"
%token <tok> KW_V91 "V91"
%token <tok> KW_VERSION "Version/V"

%type <ptr> transaction_list action_request_list
%type <ptr> action_reply_list ack_list error_descriptor term_id_list tid_list
%type <ptr> termination_id_braced amm_params command_reply
%type <ptr> media_descriptor media_parms stream_parms local_parms ts_parms
%type <ptr> modem_descriptor modem_types mux_descriptor events_descriptor requested_events
%type <ptr> requested_event event_params embed embed_first signals_descriptor signal_parms
%type <ptr> signal_request list_signals list_signal sig_params reasons observed_events_descriptor
%type <ptr> observed_events oe_params event_buffer_descriptor event_specs
%type <ptr> event_spec digit_map_descriptor statistics_descriptor stat_params stat_param
%type <ptr> packages_descriptor packages_items audit_descriptor audit_items
%type <ptr> services_descriptor sc_parms termination_audit reply_items context_items
%type <ptr> value_list property_parm parm_value ctxid_list topology_elems
%type <ptr> ia_media_parms ia_stream_parms ia_local_parms ia_ts_parms ia_signal_request
%type <ptr> ia_sig_params ctx_audit_items opt_error_text reply_body amm_param_list
%type <ptr> audit_return_list property_parms_list
%type <tok> value word cmd_kw amm_kw audit_kw stream_mode_kw service_state_kw mux_type
%type <tok> modem_type sc_method_kw signal_type_kw direction_kw reason_kw
%type <tok> audit_token_kw tid_kw kw_word signals_open version_mid
%type <tok> eq_value eq_sc_method eq_modem_type eq_mux_type
%type <ptr> eq_tids eq_tids_lb
%type <item> media_parm stream_parm local_parm ts_parm event_param sig_param signal_parm
%type <item> oe_param audit_item sc_parm context_property
%type <item> ia_media_parm ia_stream_parm ia_local_parm ia_ts_parm ia_sig_param
%type <item> ctx_audit_item amm_param audit_return_one

%start megaco_message

%%

/*
 * Lists are written out flat where it saves the parser a reduction per
 * member: "list: first-member-forms | list , member-forms" instead of a
 * member nonterminal reduced first (a reduction is ~50 instructions). Only
 * chains that reduce back to back are merged, so every builder still runs
 * at the same token as in the textbook grammar and errors stay the same.
 */
megaco_message
	: version MID error_descriptor
		{ CK(message_end(px, &$2, tb_body_error(px, $3))); }
	| version MID transaction_list
		{ CK(message_end(px, &$2, tb_body_transactions(px, $3))); }
	| version_mid error_descriptor
		{ CK(message_end(px, &$1, tb_body_error(px, $2))); }
	| version_mid transaction_list
		{ CK(message_end(px, &$1, tb_body_transactions(px, $2))); }
	| KW_AUTH EQUAL SAFE COLON SAFE COLON SAFE version MID error_descriptor
		{ CK(message_end(px, &$9, tb_body_error(px, $10))); CK(tb_auth_header(px, &$3, &$5, &$7)); }
	| KW_AUTH EQUAL SAFE COLON SAFE COLON SAFE version MID transaction_list
		{ CK(message_end(px, &$9, tb_body_transactions(px, $10))); CK(tb_auth_header(px, &$3, &$5, &$7)); }
	;

/* Checked before the rest is read: a bad version is the error, whatever follows. */
version
	: VERSION                   { CK(tb_version(px, &$1)); }
	;

/*
 * The first pass's "MEGACO/n mId" token: the mId's bytes, the version's
 * distance back from it in kw and its length in flags. Checked here, as
 * version is, before the rest is read; the value is the mId.
 */
version_mid
	: VERSION_MID               { $$ = $1; CK(version_of_mid(px, &$$)); }
	;

transaction_list
	: KW_TRANS EQUAL SAFE LBRKT action_request_list RBRKT
		{ $$ = list_push(px, NULL, tb_trans_request(px, &$3, $5)); NN($$); }
	| KW_TRANS EQ_SAFE LBRKT action_request_list RBRKT
		{ $$ = list_push(px, NULL, tb_trans_request(px, &$2, $4)); NN($$); }
	| KW_TRANS EQ_SAFE_LB action_request_list RBRKT
		{ $$ = list_push(px, NULL, tb_trans_request(px, &$2, $3)); NN($$); }
	| KW_REPLY EQUAL SAFE LBRKT reply_body RBRKT
		{ $$ = list_push(px, NULL, tb_trans_reply(px, &$3, $5)); NN($$); }
	| KW_REPLY EQ_SAFE LBRKT reply_body RBRKT
		{ $$ = list_push(px, NULL, tb_trans_reply(px, &$2, $4)); NN($$); }
	| KW_REPLY EQ_SAFE_LB reply_body RBRKT
		{ $$ = list_push(px, NULL, tb_trans_reply(px, &$2, $3)); NN($$); }
	| TRANS_LB action_request_list RBRKT
		{ $$ = list_push(px, NULL, tb_trans_request(px, LB_NAME($1), $2)); NN($$); }
	| REPLY_LB reply_body RBRKT
		{ $$ = list_push(px, NULL, tb_trans_reply(px, LB_NAME($1), $2)); NN($$); }
	| KW_PENDING EQUAL SAFE LBRKT RBRKT
		{ $$ = list_push(px, NULL, tb_trans_pending(px, &$3)); NN($$); }
	| KW_PENDING EQ_SAFE LBRKT RBRKT
		{ $$ = list_push(px, NULL, tb_trans_pending(px, &$2)); NN($$); }
	| KW_PENDING EQ_SAFE_LB RBRKT
		{ $$ = list_push(px, NULL, tb_trans_pending(px, &$2)); NN($$); }
	| KW_RESPONSE_ACK LBRKT ack_list RBRKT
		{ $$ = list_push(px, NULL, tb_trans_ack(px, $3)); NN($$); }
	| KW_MESSAGE_SEGMENT EQUAL SAFE
		{ $$ = list_push(px, NULL, tb_segment_reply(px, &$3)); NN($$); }
	| KW_MESSAGE_SEGMENT EQ_SAFE
		{ $$ = list_push(px, NULL, tb_segment_reply(px, &$2)); NN($$); }
	| transaction_list KW_TRANS EQUAL SAFE LBRKT action_request_list RBRKT
		{ $$ = list_push(px, $1, tb_trans_request(px, &$4, $6)); NN($$); }
	| transaction_list KW_TRANS EQ_SAFE LBRKT action_request_list RBRKT
		{ $$ = list_push(px, $1, tb_trans_request(px, &$3, $5)); NN($$); }
	| transaction_list KW_TRANS EQ_SAFE_LB action_request_list RBRKT
		{ $$ = list_push(px, $1, tb_trans_request(px, &$3, $4)); NN($$); }
	| transaction_list KW_REPLY EQUAL SAFE LBRKT reply_body RBRKT
		{ $$ = list_push(px, $1, tb_trans_reply(px, &$4, $6)); NN($$); }
	| transaction_list KW_REPLY EQ_SAFE LBRKT reply_body RBRKT
		{ $$ = list_push(px, $1, tb_trans_reply(px, &$3, $5)); NN($$); }
	| transaction_list KW_REPLY EQ_SAFE_LB reply_body RBRKT
		{ $$ = list_push(px, $1, tb_trans_reply(px, &$3, $4)); NN($$); }
	| transaction_list TRANS_LB action_request_list RBRKT
		{ $$ = list_push(px, $1, tb_trans_request(px, LB_NAME($2), $3)); NN($$); }
	| transaction_list REPLY_LB reply_body RBRKT
		{ $$ = list_push(px, $1, tb_trans_reply(px, LB_NAME($2), $3)); NN($$); }
	| transaction_list KW_PENDING EQUAL SAFE LBRKT RBRKT
		{ $$ = list_push(px, $1, tb_trans_pending(px, &$4)); NN($$); }
	| transaction_list KW_PENDING EQ_SAFE LBRKT RBRKT
		{ $$ = list_push(px, $1, tb_trans_pending(px, &$3)); NN($$); }
	| transaction_list KW_PENDING EQ_SAFE_LB RBRKT
		{ $$ = list_push(px, $1, tb_trans_pending(px, &$3)); NN($$); }
	| transaction_list KW_RESPONSE_ACK LBRKT ack_list RBRKT
		{ $$ = list_push(px, $1, tb_trans_ack(px, $4)); NN($$); }
	| transaction_list KW_MESSAGE_SEGMENT EQUAL SAFE
		{ $$ = list_push(px, $1, tb_segment_reply(px, &$4)); NN($$); }
	| transaction_list KW_MESSAGE_SEGMENT EQ_SAFE
		{ $$ = list_push(px, $1, tb_segment_reply(px, &$3)); NN($$); }
	;

ack_list
	: SAFE                      { $$ = tb_ack_list(px, NULL, &$1); NN($$); }
	| ack_list COMMA SAFE       { $$ = tb_ack_list(px, $1, &$3); NN($$); }
	;

reply_body
	: error_descriptor          { $$ = tb_reply_result(px, 0, $1, NULL); NN($$); }
	| action_reply_list         { $$ = tb_reply_result(px, 0, NULL, $1); NN($$); }
	| KW_IMM_ACK_REQUIRED COMMA error_descriptor
		{ $$ = tb_reply_result(px, 1, $3, NULL); NN($$); }
	| KW_IMM_ACK_REQUIRED COMMA action_reply_list
		{ $$ = tb_reply_result(px, 1, NULL, $3); NN($$); }
	;

action_request_list
	: KW_CTX EQUAL SAFE LBRKT context_items RBRKT
		{ CK(tb_action_request_id(px, $5, &$3)); $$ = list_push(px, NULL, $5); NN($$); }
	| KW_CTX EQ_SAFE LBRKT context_items RBRKT
		{ CK(tb_action_request_id(px, $4, &$2)); $$ = list_push(px, NULL, $4); NN($$); }
	| KW_CTX EQ_SAFE_LB context_items RBRKT
		{ CK(tb_action_request_id(px, $3, &$2)); $$ = list_push(px, NULL, $3); NN($$); }
	| CTX_LB context_items RBRKT
		{ CK(tb_action_request_id(px, $2, LB_NAME($1))); $$ = list_push(px, NULL, $2); NN($$); }
	| action_request_list COMMA CTX_LB context_items RBRKT
		{ CK(tb_action_request_id(px, $4, LB_NAME($3))); $$ = list_push(px, $1, $4); NN($$); }
	| action_request_list COMMA KW_CTX EQUAL SAFE LBRKT context_items RBRKT
		{ CK(tb_action_request_id(px, $7, &$5)); $$ = list_push(px, $1, $7); NN($$); }
	| action_request_list COMMA KW_CTX EQ_SAFE LBRKT context_items RBRKT
		{ CK(tb_action_request_id(px, $6, &$4)); $$ = list_push(px, $1, $6); NN($$); }
	| action_request_list COMMA KW_CTX EQ_SAFE_LB context_items RBRKT
		{ CK(tb_action_request_id(px, $5, &$4)); $$ = list_push(px, $1, $5); NN($$); }
	;

context_items
	: context_property          { $$ = tb_action_request(px); NN($$); CK(tb_action_request_add(px, $$, $1)); }
	| KW_CONTEXT_AUDIT LBRKT ctx_audit_items RBRKT
		{ $$ = tb_action_request(px); NN($$); CK(tb_action_request_add(px, $$, &ITEM_OF(TI_CTX_AUDIT, $3, 0, $1.off))); }
	| amm_kw eq_tids amm_params
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $3)); NN($$); }
	| amm_kw eq_tids_lb amm_param_list RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $3)); NN($$); }
	| AMM_LB amm_param_list RBRKT  { $$ = command_lb(px, NULL, &$1, $2); NN($$); }
	| AUDIT_LB audit_descriptor RBRKT { $$ = command_lb(px, NULL, &$1, $2); NN($$); }
	| NOTIFY_LB OE_LB observed_events RBRKT RBRKT
		{ $$ = notify_lb(px, NULL, &$1, &$2, $3, NULL); NN($$); }
	| NOTIFY_LB OE_LB observed_events RBRKT COMMA error_descriptor RBRKT
		{ $$ = notify_lb(px, NULL, &$1, &$2, $3, $6); NN($$); }
	| KW_SUBTRACT eq_tids
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, NULL)); NN($$); }
	| KW_SUBTRACT eq_tids LBRKT audit_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $4)); NN($$); }
	| KW_SUBTRACT eq_tids_lb audit_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $3)); NN($$); }
	| audit_kw eq_tids LBRKT audit_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $4)); NN($$); }
	| audit_kw eq_tids_lb audit_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $3)); NN($$); }
	| audit_kw eq_tids
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, NULL)); NN($$); }
	| KW_NOTIFY eq_tids LBRKT observed_events_descriptor opt_error_text RBRKT
		{ $$ = ctx_command(px, NULL, tb_notify_request(px, &$1, $2, $4, $5)); NN($$); }
	| KW_NOTIFY eq_tids_lb observed_events_descriptor opt_error_text RBRKT
		{ $$ = ctx_command(px, NULL, tb_notify_request(px, &$1, $2, $3, $4)); NN($$); }
	| KW_SERVICE_CHANGE eq_tids LBRKT services_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $4)); NN($$); }
	| KW_SERVICE_CHANGE eq_tids_lb services_descriptor RBRKT
		{ $$ = ctx_command(px, NULL, tb_command(px, &$1, $2, $3)); NN($$); }
	| context_items COMMA context_property { $$ = $1; CK(tb_action_request_add(px, $$, $3)); }
	| context_items COMMA KW_CONTEXT_AUDIT LBRKT ctx_audit_items RBRKT
		{ $$ = $1; CK(tb_action_request_add(px, $$, &ITEM_OF(TI_CTX_AUDIT, $5, 0, $3.off))); }
	| context_items COMMA amm_kw eq_tids amm_params
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $5)); NN($$); }
	| context_items COMMA amm_kw eq_tids_lb amm_param_list RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $5)); NN($$); }
	| context_items COMMA AMM_LB amm_param_list RBRKT { $$ = command_lb(px, $1, &$3, $4); NN($$); }
	| context_items COMMA AUDIT_LB audit_descriptor RBRKT { $$ = command_lb(px, $1, &$3, $4); NN($$); }
	| context_items COMMA NOTIFY_LB OE_LB observed_events RBRKT RBRKT
		{ $$ = notify_lb(px, $1, &$3, &$4, $5, NULL); NN($$); }
	| context_items COMMA NOTIFY_LB OE_LB observed_events RBRKT COMMA error_descriptor RBRKT
		{ $$ = notify_lb(px, $1, &$3, &$4, $5, $8); NN($$); }
	| context_items COMMA KW_SUBTRACT eq_tids
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, NULL)); NN($$); }
	| context_items COMMA KW_SUBTRACT eq_tids LBRKT audit_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $6)); NN($$); }
	| context_items COMMA KW_SUBTRACT eq_tids_lb audit_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $5)); NN($$); }
	| context_items COMMA audit_kw eq_tids LBRKT audit_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $6)); NN($$); }
	| context_items COMMA audit_kw eq_tids_lb audit_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $5)); NN($$); }
	| context_items COMMA audit_kw eq_tids
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, NULL)); NN($$); }
	| context_items COMMA KW_NOTIFY eq_tids LBRKT observed_events_descriptor opt_error_text RBRKT
		{ $$ = ctx_command(px, $1, tb_notify_request(px, &$3, $4, $6, $7)); NN($$); }
	| context_items COMMA KW_NOTIFY eq_tids_lb observed_events_descriptor opt_error_text RBRKT
		{ $$ = ctx_command(px, $1, tb_notify_request(px, &$3, $4, $5, $6)); NN($$); }
	| context_items COMMA KW_SERVICE_CHANGE eq_tids LBRKT services_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $6)); NN($$); }
	| context_items COMMA KW_SERVICE_CHANGE eq_tids_lb services_descriptor RBRKT
		{ $$ = ctx_command(px, $1, tb_command(px, &$3, $4, $5)); NN($$); }
	;

context_property
	: KW_TOPOLOGY LBRKT topology_elems RBRKT
		{ ITEM($$, TI_TOPOLOGY, $3, 0, $1.off); CK(tb_topology_done(px, $3, $4.off)); }
	| TOPOLOGY_LB topology_elems RBRKT
		{ ITEM($$, TI_TOPOLOGY, $2, 0, $1.off); CK(tb_topology_done(px, $2, $3.off)); }
	| KW_PRIORITY EQUAL SAFE    { ITEM($$, TI_PRIORITY, NULL, 0, $1.off); CK(tb_uint(px, &$3, 15, &$$->n)); }
	| KW_PRIORITY EQ_SAFE    { ITEM($$, TI_PRIORITY, NULL, 0, $1.off); CK(tb_uint(px, &$2, 15, &$$->n)); }
	| KW_EMERGENCY              { ITEM($$, TI_EMERGENCY, NULL, 1, $1.off); }
	| KW_EMERGENCY_OFF          { ITEM($$, TI_EMERGENCY, NULL, 0, $1.off); }
	| KW_IEPS EQUAL SAFE        { ITEM($$, TI_IEPS, NULL, 0, $1.off); CK(tb_on_off(px, &$3, &$$->n)); }
	| KW_IEPS EQ_SAFE        { ITEM($$, TI_IEPS, NULL, 0, $1.off); CK(tb_on_off(px, &$2, &$$->n)); }
	| KW_CONTEXT_ATTR LBRKT KW_CONTEXT_LIST EQUAL LBRKT ctxid_list RBRKT RBRKT
		{ ITEM($$, TI_CTX_LIST, $6, 0, $1.off); }
	| KW_CONTEXT_ATTR LBRKT property_parms_list RBRKT
		{ ITEM($$, TI_CTX_PROPS, $3, 0, $1.off); }
	;

property_parms_list
	: property_parm             { $$ = tb_list_new(px, $1); NN($$); }
	| property_parms_list COMMA property_parm { CK(tb_list_add(px, $1, $3)); $$ = $1; }
	;

ctxid_list
	: SAFE                      { $$ = tb_ctxid_list(px, NULL, &$1); NN($$); }
	| ctxid_list COMMA SAFE     { $$ = tb_ctxid_list(px, $1, &$3); NN($$); }
	;

ctx_audit_items
	: ctx_audit_item            { $$ = tb_ctx_audit(px, NULL, $1); NN($$); }
	| ctx_audit_items COMMA ctx_audit_item { $$ = tb_ctx_audit(px, $1, $3); NN($$); }
	;

ctx_audit_item
	: KW_TOPOLOGY               { ITEM($$, TI_A_TOPOLOGY, NULL, 0, $1.off); }
	| KW_EMERGENCY              { ITEM($$, TI_A_EMERGENCY, NULL, 0, $1.off); }
	| KW_PRIORITY               { ITEM($$, TI_A_PRIORITY, NULL, 0, $1.off); }
	| KW_IEPS                   { ITEM($$, TI_A_IEPS, NULL, 0, $1.off); }
	| SAFE                      { ITEM($$, TI_A_PKGD, NULL, 0, $1.off); $$->p = tb_ind_prop(px, &$1, NULL); NN($$->p); }
	| SAFE parm_value           { ITEM($$, TI_A_PROP, $2, 0, $1.off); CK(tb_prop_name(px, $2, &$1)); }
	| KW_PRIORITY EQUAL SAFE    { ITEM($$, TI_A_SEL_PRIORITY, NULL, 0, $1.off); CK(tb_uint(px, &$3, 15, &$$->n)); }
	| KW_PRIORITY EQ_SAFE    { ITEM($$, TI_A_SEL_PRIORITY, NULL, 0, $1.off); CK(tb_uint(px, &$2, 15, &$$->n)); }
	| KW_EMERGENCY_VALUE EQUAL KW_EMERGENCY     { ITEM($$, TI_A_SEL_EMERGENCY, NULL, 1, $1.off); }
	| KW_EMERGENCY_VALUE EQUAL KW_EMERGENCY_OFF { ITEM($$, TI_A_SEL_EMERGENCY, NULL, 0, $1.off); }
	| KW_IEPS EQUAL SAFE        { ITEM($$, TI_A_SEL_IEPS, NULL, 0, $1.off); CK(tb_on_off(px, &$3, &$$->n)); }
	| KW_IEPS EQ_SAFE        { ITEM($$, TI_A_SEL_IEPS, NULL, 0, $1.off); CK(tb_on_off(px, &$2, &$$->n)); }
	| KW_AND_AUDITSELECT        { ITEM($$, TI_A_LOGIC, NULL, 0, $1.off); }
	| KW_OR_AUDITSELECT         { ITEM($$, TI_A_LOGIC, NULL, 1, $1.off); }
	| KW_CONTEXT_ATTR LBRKT ctx_audit_items RBRKT { ITEM($$, TI_A_NESTED, $3, 0, $1.off); }
	;

topology_elems
	: SAFE                      { $$ = tb_topology_tid(px, NULL, &$1); NN($$); }
	| KW_BOTHWAY                { $$ = tb_topology(px, NULL, &ITEM_OF(TI_TOPO_DIR, NULL, $1.kw, $1.off)); NN($$); }
	| KW_ISOLATE                { $$ = tb_topology(px, NULL, &ITEM_OF(TI_TOPO_DIR, NULL, $1.kw, $1.off)); NN($$); }
	| KW_ONEWAY                 { $$ = tb_topology(px, NULL, &ITEM_OF(TI_TOPO_DIR, NULL, $1.kw, $1.off)); NN($$); }
	| KW_ONEWAY_EXTERNAL        { $$ = tb_topology(px, NULL, &ITEM_OF(TI_TOPO_DIR, NULL, $1.kw, $1.off)); NN($$); }
	| KW_ONEWAY_BOTH            { $$ = tb_topology(px, NULL, &ITEM_OF(TI_TOPO_DIR, NULL, $1.kw, $1.off)); NN($$); }
	| KW_STREAM EQUAL SAFE      { $$ = tb_topology_stream(px, NULL, &$1, &$3); NN($$); }
	| KW_STREAM EQ_SAFE      { $$ = tb_topology_stream(px, NULL, &$1, &$2); NN($$); }
	| topology_elems COMMA SAFE { $$ = tb_topology_tid(px, $1, &$3); NN($$); }
	| topology_elems COMMA KW_BOTHWAY
		{ $$ = tb_topology(px, $1, &ITEM_OF(TI_TOPO_DIR, NULL, $3.kw, $3.off)); NN($$); }
	| topology_elems COMMA KW_ISOLATE
		{ $$ = tb_topology(px, $1, &ITEM_OF(TI_TOPO_DIR, NULL, $3.kw, $3.off)); NN($$); }
	| topology_elems COMMA KW_ONEWAY
		{ $$ = tb_topology(px, $1, &ITEM_OF(TI_TOPO_DIR, NULL, $3.kw, $3.off)); NN($$); }
	| topology_elems COMMA KW_ONEWAY_EXTERNAL
		{ $$ = tb_topology(px, $1, &ITEM_OF(TI_TOPO_DIR, NULL, $3.kw, $3.off)); NN($$); }
	| topology_elems COMMA KW_ONEWAY_BOTH
		{ $$ = tb_topology(px, $1, &ITEM_OF(TI_TOPO_DIR, NULL, $3.kw, $3.off)); NN($$); }
	| topology_elems COMMA KW_STREAM EQUAL SAFE { $$ = tb_topology_stream(px, $1, &$3, &$5); NN($$); }
	| topology_elems COMMA KW_STREAM EQ_SAFE { $$ = tb_topology_stream(px, $1, &$3, &$4); NN($$); }
	;

/* ---- commands (written out in context_items above) ----------------------- */


/*
 * Not written out as two Notify rules: the empty reduction is what makes a
 * syntax error after the ObservedEvents descriptor expect just '}'.
 */
opt_error_text
	: %empty                    { $$ = NULL; }
	| COMMA error_descriptor    { $$ = $2; }
	;

amm_kw : KW_ADD | KW_MOVE | KW_MODIFY ;
audit_kw : KW_AUDIT_VALUE | KW_AUDIT_CAP ;

amm_params
	: %empty                    { $$ = tb_list_new(px, NULL); NN($$); }
	| LBRKT amm_param_list RBRKT { $$ = $2; }
	;

amm_param_list
	: amm_param                 { $$ = tb_amm_list(px, NULL, $1, 0); NN($$); }
	| amm_param_list COMMA amm_param { $$ = tb_amm_list(px, $1, $3, $2.off); NN($$); }
	;

amm_param
	: media_descriptor          { ITEM($$, TI_MEDIA, $1, 0, 0); }
	| modem_descriptor          { ITEM($$, TI_MODEM, $1, 0, 0); }
	| mux_descriptor            { ITEM($$, TI_MUX, $1, 0, 0); }
	| events_descriptor         { ITEM($$, TI_EVENTS, $1, 0, 0); }
	| signals_descriptor        { ITEM($$, TI_SIGNALS, $1, 0, 0); }
	| digit_map_descriptor      { ITEM($$, TI_DIGITMAP, $1, 0, 0); }
	| event_buffer_descriptor   { ITEM($$, TI_EVENTBUFFER, $1, 0, 0); }
	| audit_descriptor          { ITEM($$, TI_AUDIT, $1, 0, 0); }
	| statistics_descriptor     { ITEM($$, TI_STATS, $1, 0, (size_t)(uintptr_t)((tb_list *)$1)->aux); }
	;

term_id_list
	: SAFE                      { $$ = tb_tid_list(px, NULL, &$1); NN($$); }
	| tid_kw                    { $$ = tb_tid_list(px, NULL, &$1); NN($$); }
	| LSBRKT tid_list RSBRKT    { $$ = $2; CK(tb_tid_brackets(px, &$1)); }
	;

tid_list
	: word                      { $$ = tb_tid_list(px, NULL, &$1); NN($$); }
	| tid_list COMMA word       { $$ = tb_tid_list(px, $1, &$3); NN($$); }
	;

/* A termination ID may look like a keyword ("A", "t"), except C right after
   AuditValue = / AuditCapability =, where it starts a context audit reply. */
tid_kw
	: KW_ADD
	| KW_AND_AUDITSELECT
	| KW_AUDIT
	| KW_AUDIT_CAP
	| KW_AUDIT_VALUE
	| KW_AUTH
	| KW_BOTH
	| KW_BOTHWAY
	| KW_BRIEF
	| KW_BUFFER
	| KW_CONTEXT_ATTR
	| KW_CONTEXT_AUDIT
	| KW_CONTEXT_LIST
	| KW_DELAY
	| KW_DIGIT_MAP
	| KW_DIRECTION
	| KW_DISCONNECTED
	| KW_DURATION
	| KW_EMBED
	| KW_EMERGENCY
	| KW_EMERGENCY_OFF
	| KW_EMERGENCY_VALUE
	| KW_ERROR
	| KW_EVENTS
	| KW_EVENT_BUFFER
	| KW_EXTERNAL
	| KW_FAILOVER
	| KW_FORCED
	| KW_GRACEFUL
	| KW_H221
	| KW_H223
	| KW_H226
	| KW_HAND_OFF
	| KW_IEPS
	| KW_IMM_ACK_REQUIRED
	| KW_INACTIVE
	| KW_INTERNAL
	| KW_INTERRUPT_BY_EVENT
	| KW_INTERRUPT_BY_NEW_SIGNALS_DESCR
	| KW_INTSIG_DELAY
	| KW_IN_SVC
	| KW_ISOLATE
	| KW_ITERATION
	| KW_KEEP_ACTIVE
	| KW_LOCAL
	| KW_LOCAL_CONTROL
	| KW_LOCK_STEP
	| KW_LOOPBACK
	| KW_MEDIA
	| KW_MEGACOP
	| KW_MESSAGE_SEGMENT
	| KW_METHOD
	| KW_MGC_ID
	| KW_MODE
	| KW_MODEM
	| KW_MODIFY
	| KW_MOVE
	| KW_MTP
	| KW_MUX
	| KW_NEVER_NOTIFY
	| KW_NOTIFY
	| KW_NOTIFY_COMPLETION
	| KW_NOTIFY_IMMEDIATE
	| KW_NOTIFY_REGULATED
	| KW_NX64K
	| KW_OBSERVED_EVENTS
	| KW_ONEWAY
	| KW_ONEWAY_BOTH
	| KW_ONEWAY_EXTERNAL
	| KW_ON_OFF
	| KW_OR_AUDITSELECT
	| KW_OTHER_REASON
	| KW_OUT_OF_SVC
	| KW_PACKAGES
	| KW_PENDING
	| KW_PRIORITY
	| KW_PROFILE
	| KW_REASON
	| KW_RECVONLY
	| KW_REMOTE
	| KW_REPLY
	| KW_REQUEST_ID
	| KW_RESERVED_GROUP
	| KW_RESERVED_VALUE
	| KW_RESET_EVENTS_DESCRIPTOR
	| KW_RESPONSE_ACK
	| KW_RESTART
	| KW_SEGMENTATION_COMPLETE
	| KW_SENDONLY
	| KW_SENDRECV
	| KW_SERVICES
	| KW_SERVICE_CHANGE
	| KW_SERVICE_CHANGE_ADDRESS
	| KW_SERVICE_CHANGE_INCOMPLETE
	| KW_SERVICE_STATES
	| KW_SIGNALS
	| KW_SIGNAL_LIST
	| KW_SIGNAL_TYPE
	| KW_STATS
	| KW_STREAM
	| KW_SUBTRACT
	| KW_SYNCH_ISDN
	| KW_TERMINATION_STATE
	| KW_TEST
	| KW_TIME_OUT
	| KW_TOPOLOGY
	| KW_TRANS
	| KW_V18
	| KW_V22
	| KW_V22BIS
	| KW_V32
	| KW_V32BIS
	| KW_V34
	| KW_V76
	| KW_V90
	| KW_V91
	| KW_VERSION
	;

termination_id_braced
	: LBRKT tid_list RBRKT      { $$ = $2; }
	;

/* ---- replies ----------------------------------------------------------- */

action_reply_list
	: KW_CTX EQUAL SAFE         { $$ = list_push(px, NULL, tb_action_reply_ctx(px, NULL, &$3)); NN($$); }
	| KW_CTX EQ_SAFE         { $$ = list_push(px, NULL, tb_action_reply_ctx(px, NULL, &$2)); NN($$); }
	| KW_CTX EQUAL SAFE LBRKT reply_items RBRKT
		{ $$ = list_push(px, NULL, tb_action_reply_ctx(px, $5, &$3)); NN($$); }
	| KW_CTX EQ_SAFE LBRKT reply_items RBRKT
		{ $$ = list_push(px, NULL, tb_action_reply_ctx(px, $4, &$2)); NN($$); }
	| KW_CTX EQ_SAFE_LB reply_items RBRKT
		{ $$ = list_push(px, NULL, tb_action_reply_ctx(px, $3, &$2)); NN($$); }
	| CTX_LB reply_items RBRKT
		{ $$ = list_push(px, NULL, tb_action_reply_ctx(px, $2, LB_NAME($1))); NN($$); }
	| action_reply_list COMMA CTX_LB reply_items RBRKT
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, $4, LB_NAME($3))); NN($$); }
	| action_reply_list COMMA KW_CTX EQUAL SAFE
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, NULL, &$5)); NN($$); }
	| action_reply_list COMMA KW_CTX EQ_SAFE
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, NULL, &$4)); NN($$); }
	| action_reply_list COMMA KW_CTX EQUAL SAFE LBRKT reply_items RBRKT
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, $7, &$5)); NN($$); }
	| action_reply_list COMMA KW_CTX EQ_SAFE LBRKT reply_items RBRKT
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, $6, &$4)); NN($$); }
	| action_reply_list COMMA KW_CTX EQ_SAFE_LB reply_items RBRKT
		{ $$ = list_push(px, $1, tb_action_reply_ctx(px, $5, &$4)); NN($$); }
	;

reply_items
	: context_property          { $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_add(px, $$, $1)); }
	| KW_ERROR EQUAL SAFE LBRKT RBRKT
		{ void *e = tb_error(px, &$3, NULL); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| KW_ERROR EQ_SAFE LBRKT RBRKT
		{ void *e = tb_error(px, &$2, NULL); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| KW_ERROR EQ_SAFE_LB RBRKT
		{ void *e = tb_error(px, &$2, NULL); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| KW_ERROR EQUAL SAFE LBRKT value RBRKT
		{ void *e = tb_error(px, &$3, &$5); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| KW_ERROR EQ_SAFE LBRKT value RBRKT
		{ void *e = tb_error(px, &$2, &$4); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| KW_ERROR EQ_SAFE_LB value RBRKT
		{ void *e = tb_error(px, &$2, &$3); NN(e); $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_error(px, $$, e, $1.off)); }
	| command_reply             { $$ = tb_action_reply(px); NN($$); CK(tb_action_reply_cmd(px, $$, $1)); }
	| reply_items COMMA context_property { $$ = $1; CK(tb_action_reply_add(px, $$, $3)); }
	| reply_items COMMA KW_ERROR EQUAL SAFE LBRKT RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$5, NULL), $3.off)); }
	| reply_items COMMA KW_ERROR EQ_SAFE LBRKT RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$4, NULL), $3.off)); }
	| reply_items COMMA KW_ERROR EQ_SAFE_LB RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$4, NULL), $3.off)); }
	| reply_items COMMA KW_ERROR EQUAL SAFE LBRKT value RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$5, &$7), $3.off)); }
	| reply_items COMMA KW_ERROR EQ_SAFE LBRKT value RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$4, &$6), $3.off)); }
	| reply_items COMMA KW_ERROR EQ_SAFE_LB value RBRKT
		{ $$ = $1; CK(tb_action_reply_error(px, $$, tb_error(px, &$4, &$5), $3.off)); }
	| reply_items COMMA command_reply { $$ = $1; CK(tb_action_reply_cmd(px, $$, $3)); }
	;

command_reply
	: cmd_kw eq_tids
		{ $$ = tb_command_reply(px, &$1, $2, NULL); NN($$); }
	| cmd_kw eq_tids LBRKT termination_audit RBRKT
		{ $$ = tb_command_reply(px, &$1, $2, $4); NN($$); }
	| cmd_kw eq_tids_lb termination_audit RBRKT
		{ $$ = tb_command_reply(px, &$1, $2, $3); NN($$); }
	| cmd_kw eq_tids LBRKT services_descriptor RBRKT
		{ $$ = tb_sc_reply(px, &$1, $2, $4); NN($$); }
	| cmd_kw eq_tids_lb services_descriptor RBRKT
		{ $$ = tb_sc_reply(px, &$1, $2, $3); NN($$); }
	| AMM_LB termination_audit RBRKT    { $$ = reply_lb(px, &$1, $2); NN($$); }
	| NOTIFY_LB termination_audit RBRKT { $$ = reply_lb(px, &$1, $2); NN($$); }
	| AUDIT_LB termination_audit RBRKT  { $$ = reply_lb(px, &$1, $2); NN($$); }
	| audit_kw eq_tids
		{ $$ = tb_command_reply(px, &$1, $2, NULL); NN($$); }
	| audit_kw eq_tids LBRKT termination_audit RBRKT
		{ $$ = tb_command_reply(px, &$1, $2, $4); NN($$); }
	| audit_kw eq_tids_lb termination_audit RBRKT
		{ $$ = tb_command_reply(px, &$1, $2, $3); NN($$); }
	| audit_kw EQUAL KW_CTX termination_id_braced
		{ $$ = tb_audit_ctx_reply(px, &$1, $4, NULL); NN($$); }
	| audit_kw EQUAL KW_CTX LBRKT error_descriptor RBRKT
		{ $$ = tb_audit_ctx_reply(px, &$1, NULL, $5); NN($$); }
	;

cmd_kw : KW_ADD | KW_MOVE | KW_MODIFY | KW_SUBTRACT | KW_NOTIFY | KW_SERVICE_CHANGE ;

termination_audit
	: audit_return_list         { $$ = $1; CK(tb_arp_done(px, $$)); }
	;

audit_return_list
	: audit_return_one          { $$ = tb_arp_list(px, NULL, $1); NN($$); }
	| audit_return_list COMMA audit_return_one { $$ = tb_arp_list(px, $1, $3); NN($$); }
	;

audit_return_one
	: media_descriptor          { ITEM($$, TI_MEDIA, $1, 0, 0); }
	| modem_descriptor          { ITEM($$, TI_MODEM, $1, 0, 0); }
	| mux_descriptor            { ITEM($$, TI_MUX, $1, 0, 0); }
	| events_descriptor         { ITEM($$, TI_EVENTS, $1, 0, 0); }
	| signals_descriptor        { ITEM($$, TI_SIGNALS, $1, 0, 0); }
	| digit_map_descriptor      { ITEM($$, TI_DIGITMAP, $1, 0, 0); }
	| observed_events_descriptor { ITEM($$, TI_OBSEVENTS, $1, 0, 0); }
	| event_buffer_descriptor   { ITEM($$, TI_EVENTBUFFER, $1, 0, 0); }
	| statistics_descriptor     { ITEM($$, TI_STATS, $1, 0, 0); }
	| packages_descriptor       { ITEM($$, TI_PACKAGES, $1, 0, 0); }
	| error_descriptor          { ITEM($$, TI_ERROR, $1, 0, 0); }
	| audit_token_kw            { ITEM($$, TI_AUDIT_TOKEN, NULL, $1.kw, $1.off); }
	;

audit_token_kw : KW_MUX | KW_MODEM | KW_MEDIA | KW_DIGIT_MAP | KW_STATS | KW_OBSERVED_EVENTS
	| KW_PACKAGES ;

error_descriptor
	: KW_ERROR EQUAL SAFE LBRKT RBRKT       { $$ = tb_error(px, &$3, NULL); NN($$); }
	| KW_ERROR EQ_SAFE LBRKT RBRKT       { $$ = tb_error(px, &$2, NULL); NN($$); }
	| KW_ERROR EQ_SAFE_LB RBRKT       { $$ = tb_error(px, &$2, NULL); NN($$); }
	| KW_ERROR EQUAL SAFE LBRKT value RBRKT { $$ = tb_error(px, &$3, &$5); NN($$); }
	| KW_ERROR EQ_SAFE LBRKT value RBRKT { $$ = tb_error(px, &$2, &$4); NN($$); }
	| KW_ERROR EQ_SAFE_LB value RBRKT { $$ = tb_error(px, &$2, &$3); NN($$); }
	;

/* ---- media ------------------------------------------------------------- */

media_descriptor
	: KW_MEDIA LBRKT media_parms RBRKT { $$ = $3; }
	| MEDIA_LB media_parms RBRKT { $$ = $2; }
	;

media_parms
	: media_parm                { $$ = tb_media(px, NULL, $1); NN($$); }
	| media_parms COMMA media_parm { $$ = tb_media(px, $1, $3); NN($$); }
	;

media_parm
	: stream_parm               { $$ = $1; }
	| KW_STREAM EQUAL SAFE LBRKT stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $5, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE LBRKT stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $4, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE_LB stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $3, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| STREAM_LB stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $2, 0, $1.off); CK(tb_uint(px, LB_NAME($1), 65535, &$$->n)); }
	| KW_TERMINATION_STATE LBRKT ts_parms RBRKT { ITEM($$, TI_TERMSTATE, $3, 0, $1.off); }
	;

stream_parms
	: stream_parm               { $$ = tb_stream_parms(px, NULL, $1); NN($$); }
	| stream_parms COMMA stream_parm { $$ = tb_stream_parms(px, $1, $3); NN($$); }
	;

stream_parm
	: KW_LOCAL LBRKT OCTETS_BODY RBRKT  { ITEM($$, TI_LOCAL, NULL, 0, $1.off); $$->p = tb_sdp(px, &$3); NN($$->p); }
	| KW_REMOTE LBRKT OCTETS_BODY RBRKT { ITEM($$, TI_REMOTE, NULL, 0, $1.off); $$->p = tb_sdp(px, &$3); NN($$->p); }
	| KW_LOCAL_CONTROL LBRKT local_parms RBRKT { ITEM($$, TI_LOCALCONTROL, $3, 0, $1.off); }
	| KW_STATS LBRKT stat_params RBRKT { ITEM($$, TI_STATS, $3, 0, $1.off); }
	;

local_parms
	: local_parm                { $$ = tb_local_control(px, NULL, $1); NN($$); }
	| local_parms COMMA local_parm { $$ = tb_local_control(px, $1, $3); NN($$); }
	;

local_parm
	: KW_MODE EQUAL stream_mode_kw { ITEM($$, TI_MODE, NULL, $3.kw, $1.off); }
	| property_parm             { ITEM($$, TI_PROP, $1, 0, 0); }
	| KW_RESERVED_VALUE EQUAL SAFE { ITEM($$, TI_RESERVED_VALUE, NULL, 0, $1.off); CK(tb_on_off(px, &$3, &$$->n)); }
	| KW_RESERVED_VALUE EQ_SAFE { ITEM($$, TI_RESERVED_VALUE, NULL, 0, $1.off); CK(tb_on_off(px, &$2, &$$->n)); }
	| KW_RESERVED_GROUP EQUAL SAFE { ITEM($$, TI_RESERVED_GROUP, NULL, 0, $1.off); CK(tb_on_off(px, &$3, &$$->n)); }
	| KW_RESERVED_GROUP EQ_SAFE { ITEM($$, TI_RESERVED_GROUP, NULL, 0, $1.off); CK(tb_on_off(px, &$2, &$$->n)); }
	;

stream_mode_kw : KW_SENDONLY | KW_RECVONLY | KW_SENDRECV | KW_INACTIVE | KW_LOOPBACK ;

ts_parms
	: ts_parm                   { $$ = tb_term_state(px, NULL, $1); NN($$); }
	| ts_parms COMMA ts_parm    { $$ = tb_term_state(px, $1, $3); NN($$); }
	;

ts_parm
	: property_parm             { ITEM($$, TI_PROP, $1, 0, 0); }
	| KW_SERVICE_STATES EQUAL service_state_kw { ITEM($$, TI_SERVICE_STATE, NULL, $3.kw, $1.off); }
	| KW_BUFFER EQUAL SAFE      { ITEM($$, TI_BUFFER, NULL, 0, $1.off); CK(tb_buffer_off(px, &$3)); }
	| KW_BUFFER EQ_SAFE      { ITEM($$, TI_BUFFER, NULL, 0, $1.off); CK(tb_buffer_off(px, &$2)); }
	| KW_BUFFER EQUAL KW_LOCK_STEP { ITEM($$, TI_BUFFER, NULL, 1, $1.off); }
	;

service_state_kw : KW_TEST | KW_OUT_OF_SVC | KW_IN_SVC ;

property_parm
	: SAFE parm_value           { $$ = $2; CK(tb_prop_name(px, $$, &$1)); }
	;

/* "= value" written out per kind of value: a plain name skips two unit reductions. */
parm_value
	: EQUAL SAFE                { $$ = tb_prop_value(px, 0, &$2); NN($$); }
	| EQ_SAFE                { $$ = tb_prop_value(px, 0, &$1); NN($$); }
	| EQUAL QSTRING             { $$ = tb_prop_value(px, 0, &$2); NN($$); }
	| EQUAL kw_word             { $$ = tb_prop_value(px, 0, &$2); NN($$); }
	| EQUAL LSBRKT value_list RSBRKT { $$ = $3; CK(tb_prop_extra(px, $$, TI_SUBLIST_AND)); }
	| EQUAL LBRKT value_list RBRKT { $$ = $3; CK(tb_prop_extra(px, $$, TI_SUBLIST_OR)); }
	| EQUAL LSBRKT value COLON value RSBRKT
		{ $$ = tb_prop_value(px, 0, &$3); NN($$); CK(tb_prop_more(px, $$, &$5)); CK(tb_prop_extra(px, $$, TI_RANGE)); }
	| EQUAL LSBRKT SAFE_PAIR RSBRKT
		{ $$ = tb_prop_value(px, 0, PAIR_FIRST($3)); NN($$); CK(tb_prop_more(px, $$, PAIR_SECOND($3))); CK(tb_prop_extra(px, $$, TI_RANGE)); }
	| GT value                  { $$ = tb_prop_value(px, TI_REL_GT, &$2); NN($$); }
	| LT value                  { $$ = tb_prop_value(px, TI_REL_LT, &$2); NN($$); }
	| NEQ value                 { $$ = tb_prop_value(px, TI_REL_NE, &$2); NN($$); }
	;

value_list
	: value                     { $$ = tb_prop_value(px, 0, &$1); NN($$); }
	| value_list COMMA value    { $$ = $1; CK(tb_prop_more(px, $$, &$3)); }
	;

/*
 * "= name" and "= name {", where the name is a plain word (no keyword), come
 * as two or three tokens, or as one when the scanner joins them: EQ_SAFE or
 * EQ_SAFE_LB, with the name's value and position. It does in a decode's
 * first pass (st->join_eq, text_decode.c): most '=' of a message are
 * followed by a name, most of those by '{', and each token joined is a
 * scanner call and a shift saved. So every "EQUAL SAFE" of the grammar has
 * twin alternatives with EQ_SAFE and EQ_SAFE_LB and the same action
 * (written out rather than through nonterminals, which would cost a
 * reduction back), and a termination ID list after '=' goes through eq_tids
 * or eq_tids_lb. A decode that fails is run again without joining, and that
 * pass finds and reports the error on the separate tokens, exactly as
 * without the twins; the joined forms only ever parse input that the
 * separate tokens parse the same way. After DigitMap, ServiceChangeAddress
 * and MgcIdToTry (the scanner's PEND_*) nothing is joined.
 */
/*
 * Keyword joins: in the same first pass the scanner also takes "keyword =
 * name {" as one token for the most frequent openers (TRANS_LB ... EVENTS_LB,
 * kw_join_lb in megaco.l), on the same conditions as EQ_SAFE_LB; the value
 * is the name's bytes with the keyword's index and O-/W- flags (LB_NAME gives
 * the plain name). "Media {", "Signals {", "Topology {" and "Audit {"
 * (MEDIA_LB ... AUDIT_D_LB, kw_join_brace) are one token too, valued as the
 * keyword. Their alternatives build the termination ID list in the
 * command's action (command_lb, notify_lb, reply_lb) instead of reducing
 * eq_tids_lb first, and "Notify = t { ObservedEvents = id {...}[, Error] }"
 * is written out flat after NOTIFY_LB, which saves the observed events
 * descriptor and opt_error_text reductions. Any other spelling of those (a
 * comment before the '=', say) comes as EQ_SAFE_LB or separate tokens and
 * takes the rules above; the first pass may fail where separate tokens
 * parse, and is then run again without joins, as for EQ_SAFE.
 */
eq_tids
	: EQUAL term_id_list        { $$ = $2; }
	| EQ_SAFE                   { $$ = tb_tid_list(px, NULL, &$1); NN($$); }
	;

eq_tids_lb
	: EQ_SAFE_LB                { $$ = tb_tid_list(px, NULL, &$1); NN($$); }
	;

eq_value : EQUAL value { $$ = $2; } | EQ_SAFE ;
eq_sc_method : EQUAL sc_method_kw { $$ = $2; } | EQ_SAFE ;
eq_modem_type : EQUAL modem_type { $$ = $2; } | EQ_SAFE ;
eq_mux_type : EQUAL mux_type { $$ = $2; } | EQ_SAFE ;

/* A VALUE: a word, a quoted string, or a word that happens to be a keyword. */
value
	: SAFE
	| QSTRING
	| kw_word
	;

word
	: SAFE
	| kw_word
	;

kw_word
	: KW_ADD
	| KW_AND_AUDITSELECT
	| KW_AUDIT
	| KW_AUDIT_CAP
	| KW_AUDIT_VALUE
	| KW_AUTH
	| KW_BOTH
	| KW_BOTHWAY
	| KW_BRIEF
	| KW_BUFFER
	| KW_CONTEXT_ATTR
	| KW_CONTEXT_AUDIT
	| KW_CONTEXT_LIST
	| KW_CTX
	| KW_DELAY
	| KW_DIGIT_MAP
	| KW_DIRECTION
	| KW_DISCONNECTED
	| KW_DURATION
	| KW_EMBED
	| KW_EMERGENCY
	| KW_EMERGENCY_OFF
	| KW_EMERGENCY_VALUE
	| KW_ERROR
	| KW_EVENTS
	| KW_EVENT_BUFFER
	| KW_EXTERNAL
	| KW_FAILOVER
	| KW_FORCED
	| KW_GRACEFUL
	| KW_H221
	| KW_H223
	| KW_H226
	| KW_HAND_OFF
	| KW_IEPS
	| KW_IMM_ACK_REQUIRED
	| KW_INACTIVE
	| KW_INTERNAL
	| KW_INTERRUPT_BY_EVENT
	| KW_INTERRUPT_BY_NEW_SIGNALS_DESCR
	| KW_INTSIG_DELAY
	| KW_IN_SVC
	| KW_ISOLATE
	| KW_ITERATION
	| KW_KEEP_ACTIVE
	| KW_LOCAL
	| KW_LOCAL_CONTROL
	| KW_LOCK_STEP
	| KW_LOOPBACK
	| KW_MEDIA
	| KW_MEGACOP
	| KW_MESSAGE_SEGMENT
	| KW_METHOD
	| KW_MGC_ID
	| KW_MODE
	| KW_MODEM
	| KW_MODIFY
	| KW_MOVE
	| KW_MTP
	| KW_MUX
	| KW_NEVER_NOTIFY
	| KW_NOTIFY
	| KW_NOTIFY_COMPLETION
	| KW_NOTIFY_IMMEDIATE
	| KW_NOTIFY_REGULATED
	| KW_NX64K
	| KW_OBSERVED_EVENTS
	| KW_ONEWAY
	| KW_ONEWAY_BOTH
	| KW_ONEWAY_EXTERNAL
	| KW_ON_OFF
	| KW_OR_AUDITSELECT
	| KW_OTHER_REASON
	| KW_OUT_OF_SVC
	| KW_PACKAGES
	| KW_PENDING
	| KW_PRIORITY
	| KW_PROFILE
	| KW_REASON
	| KW_RECVONLY
	| KW_REMOTE
	| KW_REPLY
	| KW_REQUEST_ID
	| KW_RESERVED_GROUP
	| KW_RESERVED_VALUE
	| KW_RESET_EVENTS_DESCRIPTOR
	| KW_RESPONSE_ACK
	| KW_RESTART
	| KW_SEGMENTATION_COMPLETE
	| KW_SENDONLY
	| KW_SENDRECV
	| KW_SERVICES
	| KW_SERVICE_CHANGE
	| KW_SERVICE_CHANGE_ADDRESS
	| KW_SERVICE_CHANGE_INCOMPLETE
	| KW_SERVICE_STATES
	| KW_SIGNALS
	| KW_SIGNAL_LIST
	| KW_SIGNAL_TYPE
	| KW_STATS
	| KW_STREAM
	| KW_SUBTRACT
	| KW_SYNCH_ISDN
	| KW_TERMINATION_STATE
	| KW_TEST
	| KW_TIME_OUT
	| KW_TOPOLOGY
	| KW_TRANS
	| KW_V18
	| KW_V22
	| KW_V22BIS
	| KW_V32
	| KW_V32BIS
	| KW_V34
	| KW_V76
	| KW_V90
	| KW_V91
	| KW_VERSION
	;

/* ---- modem, mux -------------------------------------------------------- */

modem_descriptor
	: KW_MODEM eq_modem_type { $$ = tb_modem(px, NULL, &$2); NN($$); }
	| KW_MODEM LSBRKT modem_types RSBRKT { $$ = $3; }
	| KW_MODEM eq_modem_type LBRKT property_parms_list RBRKT
		{ $$ = tb_modem(px, NULL, &$2); NN($$); CK(tb_modem_props(px, $$, $4)); }
	| KW_MODEM LSBRKT modem_types RSBRKT LBRKT property_parms_list RBRKT
		{ $$ = $3; CK(tb_modem_props(px, $$, $6)); }
	;

modem_types
	: modem_type                { $$ = tb_modem(px, NULL, &$1); NN($$); }
	| modem_types COMMA modem_type { $$ = tb_modem(px, $1, &$3); NN($$); }
	;

modem_type : KW_V32BIS | KW_V22BIS | KW_V18 | KW_V22 | KW_V32 | KW_V34 | KW_V90 | KW_V91
	| KW_SYNCH_ISDN | SAFE ;

mux_descriptor
	: KW_MUX eq_mux_type termination_id_braced { $$ = tb_mux(px, &$2, $3); NN($$); }
	;

mux_type : KW_H221 | KW_H223 | KW_H226 | KW_V76 | KW_NX64K | SAFE ;

/* ---- events ------------------------------------------------------------ */

events_descriptor
	: KW_EVENTS                 { $$ = tb_events(px, NULL, NULL, 0); NN($$); }
	| KW_EVENTS EQUAL SAFE LBRKT requested_events RBRKT
		{ $$ = tb_events(px, &$3, $5, 0); NN($$); }
	| KW_EVENTS EQ_SAFE LBRKT requested_events RBRKT
		{ $$ = tb_events(px, &$2, $4, 0); NN($$); }
	| KW_EVENTS EQ_SAFE_LB requested_events RBRKT
		{ $$ = tb_events(px, &$2, $3, 0); NN($$); }
	| EVENTS_LB requested_events RBRKT
		{ $$ = tb_events(px, LB_NAME($1), $2, 0); NN($$); }
	;

requested_events
	: requested_event           { $$ = tb_list_new(px, $1); NN($$); }
	| requested_events COMMA requested_event { CK(tb_list_add(px, $1, $3)); $$ = $1; }
	;

requested_event
	: SAFE                      { $$ = tb_req_event(px, &$1, NULL); NN($$); }
	| SAFE LBRKT event_params RBRKT { $$ = tb_req_event(px, &$1, $3); NN($$); }
	;

event_params
	: event_param               { $$ = tb_list_new(px, NULL); NN($$); CK(tb_item_push(px, $$, $1)); }
	| event_params COMMA event_param { $$ = $1; CK(tb_item_push(px, $$, $3)); }
	;

event_param
	: KW_EMBED LBRKT embed RBRKT { ITEM($$, TI_EMBED, $3, 0, $1.off); }
	| KW_KEEP_ACTIVE            { ITEM($$, TI_KEEP_ACTIVE, NULL, 0, $1.off); }
	| KW_DIGIT_MAP EQUAL word   { ITEM($$, TI_EVENT_DM, NULL, 0, $1.off); $$->p = tb_event_dm(px, &$3, NULL); NN($$->p); }
	| KW_DIGIT_MAP EQUAL LBRKT DIGITMAP_BODY RBRKT
		{ ITEM($$, TI_EVENT_DM, NULL, 0, $1.off); $$->p = tb_event_dm(px, NULL, &$4); NN($$->p); }
	| KW_STREAM EQUAL SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| SAFE parm_value           { ITEM($$, TI_PROP, $2, 0, $1.off); CK(tb_prop_name(px, $2, &$1)); }
	| KW_NEVER_NOTIFY           { ITEM($$, TI_NEVER_NOTIFY, NULL, 0, $1.off); }
	| KW_NOTIFY_IMMEDIATE       { ITEM($$, TI_NOTIFY_IMMEDIATE, NULL, 0, $1.off); }
	| KW_NOTIFY_REGULATED       { ITEM($$, TI_NOTIFY_REGULATED, NULL, 0, $1.off); }
	| KW_NOTIFY_REGULATED LBRKT KW_EMBED LBRKT embed RBRKT RBRKT
		{ ITEM($$, TI_NOTIFY_REGULATED, $5, 0, $1.off); }
	| KW_RESET_EVENTS_DESCRIPTOR { ITEM($$, TI_RESET_EVENTS, NULL, 0, $1.off); }
	;

/* Embed { Signals..., Events = id {...} } */
embed
	: signals_descriptor        { $$ = tb_embed(px, $1, NULL); NN($$); }
	| signals_descriptor COMMA embed_first { $$ = tb_embed(px, $1, $3); NN($$); }
	| embed_first               { $$ = tb_embed(px, NULL, $1); NN($$); }
	;

embed_first
	: KW_EVENTS                 { $$ = tb_events(px, NULL, NULL, 1); NN($$); }
	| KW_EVENTS EQUAL SAFE LBRKT requested_events RBRKT
		{ $$ = tb_events(px, &$3, $5, 1); NN($$); }
	| KW_EVENTS EQ_SAFE LBRKT requested_events RBRKT
		{ $$ = tb_events(px, &$2, $4, 1); NN($$); }
	| KW_EVENTS EQ_SAFE_LB requested_events RBRKT
		{ $$ = tb_events(px, &$2, $3, 1); NN($$); }
	| EVENTS_LB requested_events RBRKT
		{ $$ = tb_events(px, LB_NAME($1), $2, 1); NN($$); }
	;

/* ---- signals ----------------------------------------------------------- */

signals_descriptor
	: KW_SIGNALS                { $$ = tb_list_new(px, NULL); NN($$); }
	| signals_open RBRKT        { $$ = tb_list_new(px, NULL); NN($$); }
	| signals_open signal_parms RBRKT { $$ = $2; }
	;

/*
 * "Signals {", joined or not: nine rules open with it, and twins of all nine
 * would cost more grammar than the one reduction this adds.
 */
signals_open
	: KW_SIGNALS LBRKT          { $$ = $1; }
	| SIGNALS_LB                { $$ = $1; }
	;

signal_parms
	: signal_parm               { $$ = tb_list_new(px, $1->p); NN($$); }
	| signal_parms COMMA signal_parm { CK(tb_list_add(px, $1, $3->p)); $$ = $1; }
	;

signal_parm
	: signal_request            { ITEM($$, 0, NULL, 0, 0); $$->p = tb_signal_request(px, $1); NN($$->p); }
	| KW_SIGNAL_LIST EQUAL SAFE LBRKT list_signals RBRKT
		{ ITEM($$, 0, NULL, 0, $1.off); $$->p = tb_seq_sig_list(px, &$3, $5); NN($$->p); }
	| KW_SIGNAL_LIST EQ_SAFE LBRKT list_signals RBRKT
		{ ITEM($$, 0, NULL, 0, $1.off); $$->p = tb_seq_sig_list(px, &$2, $4); NN($$->p); }
	| KW_SIGNAL_LIST EQ_SAFE_LB list_signals RBRKT
		{ ITEM($$, 0, NULL, 0, $1.off); $$->p = tb_seq_sig_list(px, &$2, $3); NN($$->p); }
	;

/* signalListParm: a signalRequest with exactly one SignalType. */
list_signals
	: list_signal               { $$ = tb_list_new(px, $1); NN($$); }
	| list_signals COMMA list_signal { CK(tb_list_add(px, $1, $3)); $$ = $1; }
	;

list_signal
	: SAFE                      { $$ = NULL; CK(tb_list_signal(px, NULL, &$1)); }
	| SAFE LBRKT sig_params RBRKT { $$ = $3; CK(tb_signal_name(px, $$, &$1)); CK(tb_list_signal(px, $$, &$1)); }
	;

signal_request
	: SAFE                      { $$ = tb_signal(px, &$1); NN($$); }
	| SAFE LBRKT sig_params RBRKT { $$ = $3; CK(tb_signal_name(px, $$, &$1)); }
	;

sig_params
	: sig_param                 { $$ = tb_signal(px, NULL); NN($$); CK(tb_signal_add(px, $$, $1)); }
	| sig_params COMMA sig_param { $$ = $1; CK(tb_signal_add(px, $$, $3)); }
	;

sig_param
	: KW_STREAM EQUAL SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| KW_SIGNAL_TYPE EQUAL signal_type_kw { ITEM($$, TI_SIGNAL_TYPE, NULL, $3.kw, $1.off); }
	| KW_DURATION EQUAL SAFE    { ITEM($$, TI_DURATION, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_DURATION EQ_SAFE    { ITEM($$, TI_DURATION, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| SAFE parm_value           { ITEM($$, TI_PROP, $2, 0, $1.off); CK(tb_prop_name(px, $2, &$1)); }
	| KW_NOTIFY_COMPLETION EQUAL LBRKT reasons RBRKT { ITEM($$, TI_NOTIFY_COMPLETION, $4, 0, $1.off); }
	| KW_KEEP_ACTIVE            { ITEM($$, TI_KEEP_ACTIVE, NULL, 0, $1.off); }
	| KW_DIRECTION EQUAL direction_kw { ITEM($$, TI_DIRECTION, NULL, $3.kw, $1.off); }
	| KW_REQUEST_ID EQUAL SAFE  { ITEM($$, TI_REQUEST_ID, NULL, 0, $1.off); CK(tb_request_id(px, &$3, &$$->n)); }
	| KW_REQUEST_ID EQ_SAFE  { ITEM($$, TI_REQUEST_ID, NULL, 0, $1.off); CK(tb_request_id(px, &$2, &$$->n)); }
	| KW_INTSIG_DELAY EQUAL SAFE { ITEM($$, TI_INTSIG_DELAY, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_INTSIG_DELAY EQ_SAFE { ITEM($$, TI_INTSIG_DELAY, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	;

signal_type_kw : KW_ON_OFF | KW_TIME_OUT | KW_BRIEF ;
direction_kw : KW_EXTERNAL | KW_INTERNAL | KW_BOTH ;

reasons
	: reason_kw                 { $$ = tb_bits(px, NULL, $1.kw); NN($$); }
	| reasons COMMA reason_kw   { $$ = tb_bits(px, $1, $3.kw); NN($$); }
	;

reason_kw : KW_TIME_OUT | KW_INTERRUPT_BY_EVENT | KW_INTERRUPT_BY_NEW_SIGNALS_DESCR
	| KW_OTHER_REASON | KW_ITERATION ;

/* ---- observed events, event buffer -------------------------------------- */

observed_events_descriptor
	: KW_OBSERVED_EVENTS EQUAL SAFE LBRKT observed_events RBRKT
		{ $$ = tb_observed_events(px, &$3, $5); NN($$); }
	| KW_OBSERVED_EVENTS EQ_SAFE LBRKT observed_events RBRKT
		{ $$ = tb_observed_events(px, &$2, $4); NN($$); }
	| KW_OBSERVED_EVENTS EQ_SAFE_LB observed_events RBRKT
		{ $$ = tb_observed_events(px, &$2, $3); NN($$); }
	| OE_LB observed_events RBRKT { $$ = tb_observed_events(px, LB_NAME($1), $2); NN($$); }
	;

observed_events
	: SAFE                      { $$ = list_push(px, NULL, tb_observed_event(px, NULL, &$1, NULL)); NN($$); }
	| SAFE LBRKT oe_params RBRKT { $$ = list_push(px, NULL, tb_observed_event(px, NULL, &$1, $3)); NN($$); }
	| SAFE COLON SAFE           { $$ = list_push(px, NULL, tb_observed_event(px, &$1, &$3, NULL)); NN($$); }
	| SAFE_PAIR                 { $$ = list_push(px, NULL, tb_observed_event(px, PAIR_FIRST($1), PAIR_SECOND($1), NULL)); NN($$); }
	| SAFE COLON SAFE LBRKT oe_params RBRKT
		{ $$ = list_push(px, NULL, tb_observed_event(px, &$1, &$3, $5)); NN($$); }
	| SAFE_PAIR LBRKT oe_params RBRKT
		{ $$ = list_push(px, NULL, tb_observed_event(px, PAIR_FIRST($1), PAIR_SECOND($1), $3)); NN($$); }
	| observed_events COMMA SAFE
		{ $$ = list_push(px, $1, tb_observed_event(px, NULL, &$3, NULL)); NN($$); }
	| observed_events COMMA SAFE LBRKT oe_params RBRKT
		{ $$ = list_push(px, $1, tb_observed_event(px, NULL, &$3, $5)); NN($$); }
	| observed_events COMMA SAFE COLON SAFE
		{ $$ = list_push(px, $1, tb_observed_event(px, &$3, &$5, NULL)); NN($$); }
	| observed_events COMMA SAFE_PAIR
		{ $$ = list_push(px, $1, tb_observed_event(px, PAIR_FIRST($3), PAIR_SECOND($3), NULL)); NN($$); }
	| observed_events COMMA SAFE COLON SAFE LBRKT oe_params RBRKT
		{ $$ = list_push(px, $1, tb_observed_event(px, &$3, &$5, $7)); NN($$); }
	| observed_events COMMA SAFE_PAIR LBRKT oe_params RBRKT
		{ $$ = list_push(px, $1, tb_observed_event(px, PAIR_FIRST($3), PAIR_SECOND($3), $5)); NN($$); }
	;

oe_params
	: oe_param                  { $$ = tb_list_new(px, NULL); NN($$); CK(tb_item_push(px, $$, $1)); }
	| oe_params COMMA oe_param  { $$ = $1; CK(tb_item_push(px, $$, $3)); }
	;

oe_param
	: KW_STREAM EQUAL SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| SAFE parm_value           { ITEM($$, TI_PROP, $2, 0, $1.off); CK(tb_prop_name(px, $2, &$1)); }
	;

event_buffer_descriptor
	: KW_EVENT_BUFFER           { $$ = tb_list_new(px, NULL); NN($$); }
	| KW_EVENT_BUFFER LBRKT event_specs RBRKT { $$ = $3; }
	;

event_specs
	: event_spec                { $$ = tb_list_new(px, $1); NN($$); }
	| event_specs COMMA event_spec { CK(tb_list_add(px, $1, $3)); $$ = $1; }
	;

event_spec
	: SAFE                      { $$ = tb_event_spec(px, &$1, NULL); NN($$); }
	| SAFE LBRKT oe_params RBRKT { $$ = tb_event_spec(px, &$1, $3); NN($$); }
	;

/* ---- digit map, statistics, packages ------------------------------------ */

digit_map_descriptor
	: KW_DIGIT_MAP EQUAL word   { $$ = tb_digit_map(px, &$3, NULL); NN($$); }
	| KW_DIGIT_MAP EQUAL LBRKT DIGITMAP_BODY RBRKT { $$ = tb_digit_map(px, NULL, &$4); NN($$); }
	| KW_DIGIT_MAP EQUAL word LBRKT DIGITMAP_BODY RBRKT { $$ = tb_digit_map(px, &$3, &$5); NN($$); }
	;

/* The list's aux keeps the keyword's offset (a Statistics descriptor in a command is v3). */
statistics_descriptor
	: KW_STATS LBRKT stat_params RBRKT { $$ = $3; ((tb_list *)$$)->aux = (void *)(uintptr_t)$1.off; }
	;

stat_params
	: stat_param                { $$ = tb_list_new(px, $1); NN($$); }
	| stat_params COMMA stat_param { CK(tb_stat_add(px, $1, $3, $2.off)); $$ = $1; }
	;

stat_param
	: SAFE                      { $$ = tb_stat(px, &$1, NULL); NN($$); }
	| SAFE EQUAL SAFE           { $$ = tb_stat(px, &$1, tb_prop_value(px, 0, &$3)); NN($$); }
	| SAFE EQ_SAFE           { $$ = tb_stat(px, &$1, tb_prop_value(px, 0, &$2)); NN($$); }
	| SAFE EQUAL QSTRING        { $$ = tb_stat(px, &$1, tb_prop_value(px, 0, &$3)); NN($$); }
	| SAFE EQUAL kw_word        { $$ = tb_stat(px, &$1, tb_prop_value(px, 0, &$3)); NN($$); }
	| SAFE LSBRKT value_list RSBRKT { $$ = tb_stat(px, &$1, $3); NN($$); }
	/* not in the ABNF: Erlang megaco's parser takes (only) this form of a list */
	| SAFE EQUAL LSBRKT value_list RSBRKT { $$ = tb_stat(px, &$1, $4); NN($$); }
	;

packages_descriptor
	: KW_PACKAGES LBRKT packages_items RBRKT { $$ = $3; }
	;

packages_items
	: SAFE                      { $$ = tb_packages(px, NULL, &$1); NN($$); }
	| packages_items COMMA SAFE { $$ = tb_packages(px, $1, &$3); NN($$); }
	;

/* ---- audit descriptor and the individual audit (indAud) descriptors ------ */

audit_descriptor
	: KW_AUDIT LBRKT RBRKT      { $$ = tb_audit(px, NULL, NULL); NN($$); }
	| KW_AUDIT LBRKT audit_items RBRKT { $$ = $3; }
	| AUDIT_D_LB RBRKT          { $$ = tb_audit(px, NULL, NULL); NN($$); }
	| AUDIT_D_LB audit_items RBRKT { $$ = $2; }
	;

audit_items
	: audit_item                { $$ = tb_audit(px, NULL, $1); NN($$); }
	| audit_items COMMA audit_item { $$ = tb_audit(px, $1, $3); NN($$); }
	;

audit_item
	: audit_token_kw            { ITEM($$, TI_AUDIT_TOKEN, NULL, $1.kw, $1.off); }
	| KW_SIGNALS                { ITEM($$, TI_AUDIT_TOKEN, NULL, $1.kw, $1.off); }
	| KW_EVENT_BUFFER           { ITEM($$, TI_AUDIT_TOKEN, NULL, $1.kw, $1.off); }
	| KW_EVENTS                 { ITEM($$, TI_AUDIT_TOKEN, NULL, $1.kw, $1.off); }
	| KW_MEDIA LBRKT ia_media_parms RBRKT { ITEM($$, TI_IA_MEDIA, $3, 0, $1.off); }
	| MEDIA_LB ia_media_parms RBRKT { ITEM($$, TI_IA_MEDIA, $2, 0, $1.off); }
	| KW_EVENTS LBRKT SAFE RBRKT { ITEM($$, TI_IA_EVENTS, NULL, 0, $1.off); $$->p = tb_ia_events(px, NULL, &$3); NN($$->p); }
	| KW_EVENTS EQUAL SAFE LBRKT SAFE RBRKT { ITEM($$, TI_IA_EVENTS, NULL, 0, $1.off); $$->p = tb_ia_events(px, &$3, &$5); NN($$->p); }
	| KW_EVENTS EQ_SAFE LBRKT SAFE RBRKT { ITEM($$, TI_IA_EVENTS, NULL, 0, $1.off); $$->p = tb_ia_events(px, &$2, &$4); NN($$->p); }
	| KW_EVENTS EQ_SAFE_LB SAFE RBRKT { ITEM($$, TI_IA_EVENTS, NULL, 0, $1.off); $$->p = tb_ia_events(px, &$2, &$3); NN($$->p); }
	| EVENTS_LB SAFE RBRKT { ITEM($$, TI_IA_EVENTS, NULL, 0, $1.off); $$->p = tb_ia_events(px, LB_NAME($1), &$2); NN($$->p); }
	| signals_open RBRKT        { ITEM($$, TI_IA_SIGNALS, NULL, 0, $1.off); }
	| signals_open ia_signal_request RBRKT { ITEM($$, TI_IA_SIGNALS, $2, 0, $1.off); }
	| signals_open KW_SIGNAL_LIST EQUAL SAFE RBRKT
		{ ITEM($$, TI_IA_SIGNALS, NULL, 1, $1.off); $$->p = tb_ia_seq_sig(px, &$4, NULL); NN($$->p); }
	| signals_open KW_SIGNAL_LIST EQ_SAFE RBRKT
		{ ITEM($$, TI_IA_SIGNALS, NULL, 1, $1.off); $$->p = tb_ia_seq_sig(px, &$3, NULL); NN($$->p); }
	| signals_open KW_SIGNAL_LIST EQUAL SAFE LBRKT ia_signal_request RBRKT RBRKT
		{ ITEM($$, TI_IA_SIGNALS, NULL, 1, $1.off); $$->p = tb_ia_seq_sig(px, &$4, $6); NN($$->p); }
	| signals_open KW_SIGNAL_LIST EQ_SAFE LBRKT ia_signal_request RBRKT RBRKT
		{ ITEM($$, TI_IA_SIGNALS, NULL, 1, $1.off); $$->p = tb_ia_seq_sig(px, &$3, $5); NN($$->p); }
	| signals_open KW_SIGNAL_LIST EQ_SAFE_LB ia_signal_request RBRKT RBRKT
		{ ITEM($$, TI_IA_SIGNALS, NULL, 1, $1.off); $$->p = tb_ia_seq_sig(px, &$3, $4); NN($$->p); }
	| KW_DIGIT_MAP EQUAL word   { ITEM($$, TI_IA_DIGITMAP, NULL, 0, $1.off); $$->p = tb_ia_digit_map(px, &$3); NN($$->p); }
	| KW_EVENT_BUFFER LBRKT SAFE RBRKT { ITEM($$, TI_IA_EVENTBUFFER, NULL, 0, $1.off); $$->p = tb_ia_event_buffer(px, &$3, NULL); NN($$->p); }
	| KW_EVENT_BUFFER LBRKT SAFE LBRKT KW_STREAM EQUAL SAFE RBRKT RBRKT
		{ ITEM($$, TI_IA_EVENTBUFFER, NULL, 0, $1.off); $$->p = tb_ia_event_buffer(px, &$3, &$7); NN($$->p); }
	| KW_EVENT_BUFFER LBRKT SAFE LBRKT KW_STREAM EQ_SAFE RBRKT RBRKT
		{ ITEM($$, TI_IA_EVENTBUFFER, NULL, 0, $1.off); $$->p = tb_ia_event_buffer(px, &$3, &$6); NN($$->p); }
	| KW_STATS LBRKT SAFE RBRKT { ITEM($$, TI_IA_STATS, NULL, 0, $1.off); $$->p = tb_ia_stats(px, &$3); NN($$->p); }
	| KW_PACKAGES LBRKT SAFE RBRKT { ITEM($$, TI_IA_PACKAGES, NULL, 0, $1.off); $$->p = tb_ia_packages(px, &$3); NN($$->p); }
	;

ia_media_parms
	: ia_media_parm             { $$ = tb_ia_media(px, NULL, $1); NN($$); }
	| ia_media_parms COMMA ia_media_parm { $$ = tb_ia_media(px, $1, $3); NN($$); }
	;

ia_media_parm
	: ia_stream_parm            { $$ = $1; }
	| KW_STREAM EQUAL SAFE LBRKT ia_stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $5, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE LBRKT ia_stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $4, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE_LB ia_stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $3, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| STREAM_LB ia_stream_parms RBRKT
		{ ITEM($$, TI_STREAM, $2, 0, $1.off); CK(tb_uint(px, LB_NAME($1), 65535, &$$->n)); }
	| KW_TERMINATION_STATE LBRKT ia_ts_parms RBRKT { ITEM($$, TI_TERMSTATE, $3, 0, $1.off); }
	;

/* indAudstreamDescriptor's and indAudterminationStateDescriptor's braces hold one item. */
ia_stream_parms
	: ia_stream_parm            { $$ = tb_ia_stream_parms(px, NULL, $1); NN($$); }
	;

ia_stream_parm
	: KW_LOCAL_CONTROL LBRKT ia_local_parms RBRKT { ITEM($$, TI_LOCALCONTROL, $3, 0, $1.off); }
	| KW_STATS LBRKT SAFE RBRKT { ITEM($$, TI_STATS, NULL, 0, $1.off); $$->p = tb_ia_stats(px, &$3); NN($$->p); }
	| KW_LOCAL LBRKT OCTETS_BODY RBRKT  { ITEM($$, TI_LOCAL, NULL, 0, $1.off); $$->p = tb_ia_sdp(px, &$3); NN($$->p); }
	| KW_REMOTE LBRKT OCTETS_BODY RBRKT { ITEM($$, TI_REMOTE, NULL, 0, $1.off); $$->p = tb_ia_sdp(px, &$3); NN($$->p); }
	;

ia_local_parms
	: ia_local_parm             { $$ = tb_ia_local_control(px, NULL, $1); NN($$); }
	| ia_local_parms COMMA ia_local_parm { $$ = tb_ia_local_control(px, $1, $3); NN($$); }
	;

ia_local_parm
	: KW_MODE                   { ITEM($$, TI_MODE, NULL, -1, $1.off); }
	| KW_MODE EQUAL stream_mode_kw { ITEM($$, TI_MODE, NULL, $3.kw, $1.off); }
	| SAFE                      { ITEM($$, TI_PROP, NULL, 0, $1.off); $$->p = tb_ind_prop(px, &$1, NULL); NN($$->p); }
	| SAFE parm_value           { ITEM($$, TI_PROP, NULL, 1, $1.off); CK(tb_prop_name(px, $2, &$1)); $$->p = tb_ind_prop(px, NULL, $2); NN($$->p); }
	| KW_RESERVED_VALUE         { ITEM($$, TI_RESERVED_VALUE, NULL, 0, $1.off); }
	| KW_RESERVED_GROUP         { ITEM($$, TI_RESERVED_GROUP, NULL, 0, $1.off); }
	;

ia_ts_parms
	: ia_ts_parm                { $$ = tb_ia_term_state(px, $1); NN($$); }
	;

ia_ts_parm
	: SAFE                      { ITEM($$, TI_PROP, NULL, 0, $1.off); $$->p = tb_ind_prop(px, &$1, NULL); NN($$->p); }
	| SAFE parm_value           { ITEM($$, TI_PROP, NULL, 1, $1.off); CK(tb_prop_name(px, $2, &$1)); $$->p = tb_ind_prop(px, NULL, $2); NN($$->p); }
	| KW_SERVICE_STATES         { ITEM($$, TI_SERVICE_STATE, NULL, -1, $1.off); }
	| KW_SERVICE_STATES EQUAL service_state_kw { ITEM($$, TI_SERVICE_STATE, NULL, $3.kw, $1.off); }
	| KW_BUFFER                 { ITEM($$, TI_BUFFER, NULL, 0, $1.off); }
	;

ia_signal_request
	: SAFE                      { $$ = tb_ia_signal(px, NULL, &$1); NN($$); }
	| SAFE LBRKT ia_sig_params RBRKT { $$ = $3; CK(tb_ia_signal_name(px, $$, &$1)); }
	;

ia_sig_params
	: ia_sig_param              { $$ = tb_ia_signal(px, NULL, NULL); NN($$); CK(tb_ia_signal_add(px, $$, $1)); }
	| ia_sig_params COMMA ia_sig_param { $$ = $1; CK(tb_ia_signal_add(px, $$, $3)); }
	;

ia_sig_param
	: KW_STREAM EQUAL SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$3, 65535, &$$->n)); }
	| KW_STREAM EQ_SAFE      { ITEM($$, TI_STREAM_ID, NULL, 0, $1.off); CK(tb_uint(px, &$2, 65535, &$$->n)); }
	| KW_REQUEST_ID EQUAL SAFE  { ITEM($$, TI_REQUEST_ID, NULL, 0, $1.off); CK(tb_request_id(px, &$3, &$$->n)); }
	| KW_REQUEST_ID EQ_SAFE  { ITEM($$, TI_REQUEST_ID, NULL, 0, $1.off); CK(tb_request_id(px, &$2, &$$->n)); }
	;

/* ---- service change ---------------------------------------------------- */

services_descriptor
	: KW_SERVICES LBRKT sc_parms RBRKT { $$ = $3; }
	;

sc_parms
	: sc_parm                   { $$ = tb_sc(px, NULL, $1); NN($$); }
	| sc_parms COMMA sc_parm    { $$ = tb_sc(px, $1, $3); NN($$); }
	;

sc_parm
	: KW_METHOD eq_sc_method { ITEM($$, TI_SC_METHOD, NULL, $2.kw, $1.off); $$->tok = $2; }
	| KW_REASON eq_value     { ITEM($$, TI_SC_REASON, NULL, 0, $1.off); $$->tok = $2; }
	| KW_DELAY EQUAL SAFE       { ITEM($$, TI_SC_DELAY, NULL, 0, $1.off); CK(tb_uint(px, &$3, 4294967295u, &$$->n)); }
	| KW_DELAY EQ_SAFE       { ITEM($$, TI_SC_DELAY, NULL, 0, $1.off); CK(tb_uint(px, &$2, 4294967295u, &$$->n)); }
	| KW_SERVICE_CHANGE_ADDRESS EQUAL MID { ITEM($$, TI_SC_ADDRESS, NULL, 0, $1.off); $$->tok = $3; }
	| KW_MGC_ID EQUAL MID       { ITEM($$, TI_SC_MGCID, NULL, 0, $1.off); $$->tok = $3; }
	| KW_PROFILE EQUAL SAFE     { ITEM($$, TI_SC_PROFILE, NULL, 0, $1.off); $$->tok = $3; }
	| KW_PROFILE EQ_SAFE     { ITEM($$, TI_SC_PROFILE, NULL, 0, $1.off); $$->tok = $2; }
	| KW_VERSION EQUAL SAFE     { ITEM($$, TI_SC_VERSION, NULL, 0, $1.off); CK(tb_version_num(px, &$3, &$$->n)); }
	| KW_VERSION EQ_SAFE     { ITEM($$, TI_SC_VERSION, NULL, 0, $1.off); CK(tb_version_num(px, &$2, &$$->n)); }
	| SAFE parm_value           { ITEM($$, TI_SC_EXTENSION, $2, 0, $1.off); CK(tb_prop_name(px, $2, &$1)); }
	| SAFE                      { ITEM($$, TI_SC_TIMESTAMP, NULL, 0, $1.off); $$->tok = $1; }
	| KW_SERVICE_CHANGE_INCOMPLETE { ITEM($$, TI_SC_INCOMPLETE, NULL, 0, $1.off); }
	| audit_item                { $$ = $1; $$->n2 = $$->kind; $$->kind = TI_SC_AUDIT; }
	;

sc_method_kw : KW_FAILOVER | KW_FORCED | KW_GRACEFUL | KW_RESTART | KW_DISCONNECTED
	| KW_HAND_OFF | SAFE ;

%%

/*
 * "found 'X' where A, B or C was expected": the offending token's text (or
 * end of input) and up to five tokens the grammar would have taken.
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, text_parse *px)
{
	enum { MAX_EXPECTED = 4 };
	yysymbol_kind_t exp[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	/*
	 * The joined tokens (EQ_SAFE_LB ... VERSION_MID) only stand in for '='
	 * (a keyword, a name, the version) and what follows; that first token is
	 * listed wherever they are.
	 */
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (exp[i] < YYSYMBOL_EQ_SAFE_LB || exp[i] > YYSYMBOL_VERSION_MID)
			exp[kept++] = exp[i];
	if (n > 0)
		n = kept;
	const text_tok *found = text_scan_last(px->scan);
	char want[112] = "";
	size_t w = 0;
	for (int i = 0; i < n && i < MAX_EXPECTED && w < sizeof want; i++)
		w += (size_t)snprintf(want + w, sizeof want - w, "%s%s",
		                      i == 0 ? "" : (i == n - 1 ? " or " : ", "), yysymbol_name(exp[i]));
	if (n > MAX_EXPECTED && w < sizeof want)
		snprintf(want + w, sizeof want - w, " or one of %d other tokens", n - MAX_EXPECTED);
	if (n <= 0)
		snprintf(want, sizeof want, "nothing more");
	/*
	 * The offending token, so that text_error_context finds the brace it is
	 * in: the last one read, or (no lookahead) the one after it.
	 */
	yysymbol_kind_t la = yypcontext_token(ctx);
	px->err_last = *found;
	px->err_replay = la == YYSYMBOL_YYEMPTY ? 2 : 1;
	if (la == YYSYMBOL_YYEOF)
		tb_fail(px, MEGACO_ERR_SYNTAX, px->len, "found the end of the message where %s was expected",
		        want);
	else
		tb_fail(px, MEGACO_ERR_SYNTAX, found->off, "found '%.*s' where %s was expected",
		        (int)(found->len > 32 ? 32 : found->len), (const char *)px->in + found->off, want);
	return 0;
}
