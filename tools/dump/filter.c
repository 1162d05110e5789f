/*
 * Message filters. Values of one filter are alternatives; different filters
 * must all hold. Transaction, context, termination, command and error
 * filters are answered by one facts_walk() over the message.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "MegacoMessage.h"
#include "app.h"

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || *end || v > 0xFFFFFFFFull || s[0] == '-')
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int filter_add(filter *f, const char *opt, const char *val)
{
	const char *what = NULL;
#define ADD(arr, n, v)                   \
	do {                                 \
		if ((n) >= FILTER_MAX)           \
			goto too_many;               \
		(arr)[(n)++] = (v);              \
	} while (0)
	if (!strcmp(opt, "--tid")) {
		uint32_t v;
		if (parse_u32(val, &v))
			goto bad;
		ADD(f->tid, f->ntid, v);
	} else if (!strcmp(opt, "--ctx")) {
		uint32_t v;
		if (!strcmp(val, "$"))
			v = 0xFFFFFFFEu;
		else if (!strcmp(val, "*"))
			v = 0xFFFFFFFFu;
		else if (!strcmp(val, "-"))
			v = 0;
		else if (parse_u32(val, &v))
			goto bad;
		ADD(f->ctx, f->nctx, v);
	} else if (!strcmp(opt, "--term")) {
		ADD(f->term, f->nterm, val);
	} else if (!strcmp(opt, "--mid")) {
		ADD(f->mid, f->nmid, val);
	} else if (!strcmp(opt, "--command")) {
		int c = command_from_name(val);
		if (c < 0)
			goto bad;
		ADD(f->command, f->ncommand, c);
	} else if (!strcmp(opt, "--encoding")) {
		megaco_encoding e;
		if (!strcasecmp(val, "text")) {
			ADD(f->enc, f->nenc, MEGACO_ENC_PRETTY);
			ADD(f->enc, f->nenc, MEGACO_ENC_COMPACT);
		} else if (megaco_encoding_from_name(val, &e) == MEGACO_OK && e != MEGACO_ENC_AUTO) {
			ADD(f->enc, f->nenc, e);
		} else {
			goto bad;
		}
	} else if (!strcmp(opt, "--msg-version")) {
		uint32_t v;
		if (parse_u32(val, &v) || v > 99)
			goto bad;
		ADD(f->version, f->nversion, (int)v);
	} else {
		what = "unknown filter";
		goto bad;
	}
	return 0;
too_many:
	fprintf(stderr, "megaco-dump: at most %d values for %s\n", FILTER_MAX, opt);
	return -1;
bad:
	fprintf(stderr, "megaco-dump: %s: bad value '%s'%s%s\n", opt, val, what ? ": " : "",
	        what ? what : "");
	return -1;
#undef ADD
}

/* Pattern match where '*' matches any run of characters and everything
 * else matches itself, case-insensitively. Termination IDs and mIds are
 * full of characters that fnmatch() would take as syntax ('[', '$', '*'). */
static int star_match(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		if (*pat == '*') {
			star = pat++;
			resume = s;
		} else if (*pat && tolower((unsigned char)*pat) == tolower((unsigned char)*s)) {
			pat++, s++;
		} else if (star) {
			pat = star + 1;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == 0;
}

enum { HIT_TID = 1, HIT_CTX = 2, HIT_TERM = 4, HIT_COMMAND = 8, HIT_ERROR = 16 };

typedef struct match_state {
	const filter *f;
	const megaco_options *opts;
	megaco_name_form form;
	unsigned want, hit;
} match_state;

static int visit(const fact *x, void *user)
{
	match_state *s = user;
	const filter *f = s->f;
	switch (x->kind) {
	case FACT_TRANSACTION:
		for (size_t i = 0; i < f->ntid; i++)
			if (f->tid[i] >= x->tid && f->tid[i] <= (x->tx == TX_ACK ? x->tid_last : x->tid))
				s->hit |= HIT_TID;
		break;
	case FACT_CONTEXT:
		for (size_t i = 0; i < f->nctx; i++)
			if (f->ctx[i] == x->ctx)
				s->hit |= HIT_CTX;
		break;
	case FACT_COMMAND:
		for (size_t i = 0; i < f->ncommand; i++)
			if (f->command[i] == x->command)
				s->hit |= HIT_COMMAND;
		break;
	case FACT_TERMINATION:
		if (f->nterm && !(s->hit & HIT_TERM)) {
			char buf[256];
			format_tid(x->term, s->form, s->opts, buf, sizeof buf);
			for (size_t i = 0; i < f->nterm; i++)
				if (star_match(f->term[i], buf))
					s->hit |= HIT_TERM;
		}
		break;
	case FACT_ERROR:
		s->hit |= HIT_ERROR;
		break;
	}
	/* stop as soon as every filter has been met */
	return (s->hit & s->want) == s->want;
}

int filter_match(const filter *f, const megaco_message *m, megaco_encoding enc,
                 const megaco_options *opts)
{
	const MegacoMessage_t *mm = megaco_message_model_const(m);
	if (f->nenc) {
		size_t i = 0;
		while (i < f->nenc && f->enc[i] != enc)
			i++;
		if (i == f->nenc)
			return 0;
	}
	if (f->nversion) {
		size_t i = 0;
		while (i < f->nversion && f->version[i] != mm->mess.version)
			i++;
		if (i == f->nversion)
			return 0;
	}
	if (f->nmid) {
		char buf[256];
		format_mid(&mm->mess.mId, buf, sizeof buf);
		size_t i = 0;
		while (i < f->nmid && !star_match(f->mid[i], buf))
			i++;
		if (i == f->nmid)
			return 0;
	}
	match_state s = { f, opts, megaco_message_name_form(m), 0, 0 };
	s.want = (f->ntid ? HIT_TID : 0) | (f->nctx ? HIT_CTX : 0) | (f->nterm ? HIT_TERM : 0) |
	         (f->ncommand ? HIT_COMMAND : 0) | (f->errors ? HIT_ERROR : 0);
	if (!s.want)
		return 1;
	facts_walk(mm,
	           (f->ntid ? FACT_BIT(FACT_TRANSACTION) : 0) | (f->nctx ? FACT_BIT(FACT_CONTEXT) : 0) |
	               (f->nterm ? FACT_BIT(FACT_TERMINATION) : 0) |
	               (f->ncommand ? FACT_BIT(FACT_COMMAND) : 0) | (f->errors ? FACT_BIT(FACT_ERROR) : 0),
	           visit, &s);
	return (s.hit & s.want) == s.want;
}
