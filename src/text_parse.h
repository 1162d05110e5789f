/*
 * Parser context and model builders for the text decoder. The bison actions
 * in grammar/megaco.y stay one line long; the building happens here
 * (text_build.c), where every node comes from the message arena.
 */
#ifndef MEGACO_TEXT_PARSE_H
#define MEGACO_TEXT_PARSE_H

#include <stddef.h>
#include <string.h>

#include "asn_SEQUENCE_OF.h"
#include "internal.h"
#include "text_scan.h"

/* A list before it lands in its ASN.1 parent: same layout as any A_SEQUENCE_OF. */
typedef struct tb_list {
	A_SEQUENCE_OF(void) list;
	void *aux; /* builder state while the list grows */
} tb_list;

/* One member of a flat, mixed comma list, merged into its structure later. */
typedef struct text_item {
	int kind;     /* TI_* */
	int n2;       /* secondary kind (service change audit items) */
	long n;       /* number, keyword index or flag */
	void *p;      /* model node or list */
	size_t off;   /* input offset, for error messages */
	text_tok tok;
} text_item;

enum text_item_kind {
	TI_NONE,
	/* context properties, commands, replies */
	TI_TOPOLOGY, TI_PRIORITY, TI_EMERGENCY, TI_IEPS, TI_CTX_LIST, TI_CTX_PROPS, TI_CTX_AUDIT,
	TI_COMMAND, TI_ERROR,
	/* context audit */
	TI_A_TOPOLOGY, TI_A_EMERGENCY, TI_A_PRIORITY, TI_A_IEPS, TI_A_PKGD, TI_A_PROP,
	TI_A_SEL_PRIORITY, TI_A_SEL_EMERGENCY, TI_A_SEL_IEPS, TI_A_LOGIC, TI_A_NESTED,
	TI_TOPO_TID, TI_TOPO_DIR, TI_TOPO_STREAM,
	/* descriptors */
	TI_MEDIA, TI_MODEM, TI_MUX, TI_EVENTS, TI_SIGNALS, TI_DIGITMAP, TI_EVENTBUFFER, TI_AUDIT,
	TI_STATS, TI_OBSEVENTS, TI_PACKAGES, TI_AUDIT_TOKEN,
	/* media */
	TI_STREAM, TI_TERMSTATE, TI_LOCAL, TI_REMOTE, TI_LOCALCONTROL, TI_MODE, TI_PROP,
	TI_RESERVED_VALUE, TI_RESERVED_GROUP, TI_SERVICE_STATE, TI_BUFFER,
	/* property operators */
	TI_REL_GT, TI_REL_LT, TI_REL_NE, TI_SUBLIST_AND, TI_SUBLIST_OR, TI_RANGE,
	/* events and signals */
	TI_EMBED, TI_KEEP_ACTIVE, TI_EVENT_DM, TI_STREAM_ID, TI_NEVER_NOTIFY, TI_NOTIFY_IMMEDIATE,
	TI_NOTIFY_REGULATED, TI_RESET_EVENTS, TI_SIGNAL_TYPE, TI_DURATION, TI_NOTIFY_COMPLETION,
	TI_DIRECTION, TI_REQUEST_ID, TI_INTSIG_DELAY,
	/* individual audit */
	TI_IA_MEDIA, TI_IA_EVENTS, TI_IA_SIGNALS, TI_IA_DIGITMAP, TI_IA_EVENTBUFFER, TI_IA_STATS,
	TI_IA_PACKAGES,
	/* service change */
	TI_SC_METHOD, TI_SC_REASON, TI_SC_DELAY, TI_SC_ADDRESS, TI_SC_MGCID, TI_SC_PROFILE,
	TI_SC_VERSION, TI_SC_EXTENSION, TI_SC_TIMESTAMP, TI_SC_INCOMPLETE, TI_SC_AUDIT
};

#define TEXT_ITEM_POOL 128

struct text_parse;
int tb_fail(struct text_parse *px, int code, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

typedef struct text_parse {
	megaco_message *msg;
	megaco_arena *A;
	const unsigned char *in;
	size_t len;
	text_scan_state *scan;
	int err_replay;          /* a grammar error: replay up to err_last, 1 without it, 2 with it */
	text_tok err_last;       /* the last token the parser read when it found the error */
	int err;                 /* first error seen by the parser or a builder */
	size_t err_off;
	int version;             /* MEGACO/n, once read (0 before) */
	/*
	 * err is an item given twice (or one of two exclusive items): the
	 * report names the first, found by text_first_item after the parse.
	 * twice_kw: the keyword to look for, -1 for the one at err_off;
	 * twice_eq: only items followed by '=' as the second is, or not.
	 */
	int twice, twice_kw, twice_eq;
	unsigned nitems;         /* items[] used */
	unsigned char *carve, *carve_end; /* arena chunk the builders carve nodes from */
	char err_text[160];      /* from here on: not zeroed per decode */
	text_item items[TEXT_ITEM_POOL];
} text_parse;

/*
 * A list item for a grammar action, with its fields set (the rest zero):
 * from px->items while they last (a corpus message uses fewer than 60), then
 * from the message arena. NULL, with px->err set, when out of memory.
 */
static inline text_item *text_item_make(text_parse *px, int kind, void *p, long n, size_t off)
{
	text_item *it;
	if (px->nitems < TEXT_ITEM_POOL)
		it = &px->items[px->nitems++];
	else if (!(it = arena_alloc(px->A, sizeof *it)))
		return tb_fail(px, MEGACO_ERR_NOMEM, 0, "out of memory"), NULL;
	*it = (text_item){.kind = kind, .n = n, .p = p, .off = off};
	return it;
}

/*
 * "while parsing X (line l, column c): " naming the construct that owns the
 * innermost brace open before a grammar error's token (err_replay), or "". Worked out only
 * when an error is reported, by scanning the input again (as PostgreSQL turns
 * byte offsets into lines only for the message): the token pull stays cheap.
 */
void text_error_context(const text_parse *px, char *out, size_t cap);

/*
 * ", first at line l, column c" for an error of an item given twice (or one
 * of two exclusive items, twice_kw), set by text_build.c: the first item
 * of the same kind in the same braces before err_off, found by scanning the
 * input again (only when the error is reported); "" if there is none.
 */
void text_first_item(const text_parse *px, char *out, size_t cap);

/* Builders; NULL or nonzero means failure with px->err set. */
int tb_uint(text_parse *px, const text_tok *t, unsigned long max, long *out);
/* Version = 1*2(DIGIT) (serviceChangeVersion). */
int tb_version_num(text_parse *px, const text_tok *t, long *out);
int tb_on_off(text_parse *px, const text_tok *t, long *out);
int tb_buffer_off(text_parse *px, const text_tok *t);
int tb_request_id(text_parse *px, const text_tok *t, long *out);

/* The rest of the carve chunk back to the arena, if nothing was allocated after it. */
static inline void tb_carve_give_back(text_parse *px)
{
	arena_block *b = px->A->head;
	if (px->carve && b && px->carve_end == (unsigned char *)b->data + b->used)
		arena_tail_return(px->A, (char *)px->carve);
}
tb_list *tb_list_new(text_parse *px, void *first);
int tb_list_add(text_parse *px, tb_list *l, void *item);
int tb_item_push(text_parse *px, tb_list *l, const text_item *it);

int tb_auth_header(text_parse *px, const text_tok *spi, const text_tok *seq, const text_tok *ad);
int tb_version(text_parse *px, const text_tok *version);
int tb_message(text_parse *px, const text_tok *mid, void *body);
void *tb_body_error(text_parse *px, void *err);
void *tb_body_transactions(text_parse *px, tb_list *transactions);
void *tb_trans_request(text_parse *px, const text_tok *id, tb_list *actions);
void *tb_trans_reply(text_parse *px, const text_tok *id, void *result);
void *tb_trans_pending(text_parse *px, const text_tok *id);
void *tb_trans_ack(text_parse *px, tb_list *acks);
void *tb_segment_reply(text_parse *px, const text_tok *id);
tb_list *tb_ack_list(text_parse *px, tb_list *l, const text_tok *t);
void *tb_reply_result(text_parse *px, int imm_ack, void *err, tb_list *replies);

void *tb_action_request(text_parse *px);
int tb_action_request_add(text_parse *px, void *ar, const text_item *it);
int tb_action_request_cmd(text_parse *px, void *ar, void *cmd);
int tb_action_request_id(text_parse *px, void *ar, const text_tok *id);
void *tb_action_reply(text_parse *px);
int tb_action_reply_add(text_parse *px, void *ar, const text_item *it);
int tb_action_reply_cmd(text_parse *px, void *ar, void *cmd);
int tb_action_reply_error(text_parse *px, void *ar, void *err, size_t off);
void *tb_action_reply_ctx(text_parse *px, void *ar, const text_tok *id);
tb_list *tb_ctxid_list(text_parse *px, tb_list *l, const text_tok *t);
void *tb_ctx_audit(text_parse *px, void *caar, const text_item *it);
void *tb_ind_prop(text_parse *px, const text_tok *name, void *prop);
tb_list *tb_topology(text_parse *px, tb_list *l, const text_item *it);
tb_list *tb_topology_tid(text_parse *px, tb_list *l, const text_tok *t);
tb_list *tb_topology_stream(text_parse *px, tb_list *l, const text_tok *kw, const text_tok *t);
int tb_topology_done(text_parse *px, tb_list *l, size_t off);

void *tb_command(text_parse *px, const text_tok *kw, tb_list *tids, void *body);
void *tb_notify_request(text_parse *px, const text_tok *kw, tb_list *tids, void *oed, void *err);
int tb_tid_brackets(text_parse *px, const text_tok *lsb);
tb_list *tb_tid_list(text_parse *px, tb_list *l, const text_tok *t);
tb_list *tb_amm_list(text_parse *px, tb_list *l, const text_item *it, size_t comma);
void *tb_command_reply(text_parse *px, const text_tok *kw, tb_list *tids, tb_list *audit);
void *tb_sc_reply(text_parse *px, const text_tok *kw, tb_list *tids, void *scparm);
void *tb_audit_ctx_reply(text_parse *px, const text_tok *kw, tb_list *tids, void *err);
tb_list *tb_arp_list(text_parse *px, tb_list *l, const text_item *it);
int tb_arp_done(text_parse *px, tb_list *l);
void *tb_error(text_parse *px, const text_tok *code, const text_tok *text);

void *tb_media(text_parse *px, void *md, const text_item *it);
void *tb_stream_parms(text_parse *px, void *sp, const text_item *it);
void *tb_sdp(text_parse *px, const text_tok *body);
void *tb_local_control(text_parse *px, void *lcd, const text_item *it);
void *tb_term_state(text_parse *px, void *tsd, const text_item *it);
int tb_prop_name(text_parse *px, void *pp, const text_tok *name);
void *tb_prop_value(text_parse *px, int rel, const text_tok *v);
int tb_prop_more(text_parse *px, void *pp, const text_tok *v);
int tb_prop_extra(text_parse *px, void *pp, int kind);

void *tb_modem(text_parse *px, void *md, const text_tok *type);
int tb_modem_props(text_parse *px, void *md, tb_list *props);
void *tb_mux(text_parse *px, const text_tok *type, tb_list *tids);
void *tb_events(text_parse *px, const text_tok *rid, tb_list *events, int second);
void *tb_req_event(text_parse *px, const text_tok *name, tb_list *params);
void *tb_event_dm(text_parse *px, const text_tok *name, const text_tok *body);
void *tb_embed(text_parse *px, tb_list *signals, void *events);
void *tb_signal_request(text_parse *px, void *sig);
void *tb_seq_sig_list(text_parse *px, const text_tok *id, tb_list *sigs);
void *tb_signal(text_parse *px, const text_tok *name);
int tb_signal_name(text_parse *px, void *sig, const text_tok *name);
int tb_list_signal(text_parse *px, const void *sig, const text_tok *name);
int tb_signal_add(text_parse *px, void *sig, const text_item *it);
void *tb_bits(text_parse *px, void *bs, int kw);
void *tb_observed_events(text_parse *px, const text_tok *rid, tb_list *events);
void *tb_observed_event(text_parse *px, const text_tok *ts, const text_tok *name, tb_list *params);
void *tb_event_spec(text_parse *px, const text_tok *name, tb_list *params);
void *tb_digit_map(text_parse *px, const text_tok *name, const text_tok *body);
void *tb_stat(text_parse *px, const text_tok *name, void *values);
int tb_stat_add(text_parse *px, tb_list *l, void *stat, size_t comma);
tb_list *tb_packages(text_parse *px, tb_list *l, const text_tok *t);

void *tb_audit(text_parse *px, void *ad, const text_item *it);
void *tb_ia_media(text_parse *px, void *md, const text_item *it);
void *tb_ia_stream_parms(text_parse *px, void *sp, const text_item *it);
void *tb_ia_local_control(text_parse *px, void *lcd, const text_item *it);
void *tb_ia_term_state(text_parse *px, const text_item *it);
void *tb_ia_sdp(text_parse *px, const text_tok *body);
void *tb_ia_events(text_parse *px, const text_tok *rid, const text_tok *name);
void *tb_ia_signal(text_parse *px, void *sig, const text_tok *name);
int tb_ia_signal_name(text_parse *px, void *sig, const text_tok *name);
int tb_ia_signal_add(text_parse *px, void *sig, const text_item *it);
void *tb_ia_seq_sig(text_parse *px, const text_tok *id, void *sig);
void *tb_ia_digit_map(text_parse *px, const text_tok *name);
void *tb_ia_event_buffer(text_parse *px, const text_tok *name, const text_tok *stream);
void *tb_ia_stats(text_parse *px, const text_tok *name);
void *tb_ia_packages(text_parse *px, const text_tok *item);

void *tb_sc(text_parse *px, void *scp, const text_item *it);

#endif
