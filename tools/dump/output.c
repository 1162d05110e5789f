/*
 * Text output: the origin of a message (frame, time, addresses), the
 * one-line summary of what it carries, and the whole message re-encoded.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "app.h"

int sb_reserve(strbuf *b, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p, b->cap = cap;
	}
	return 0;
}

void sb_put(strbuf *b, const char *s, size_t n)
{
	if (sb_reserve(b, n))
		return; /* the record is cut short; nothing else to do */
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		sb_put(b, tmp, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		return;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_put(b, big, (size_t)n);
	free(big);
}

void sb_free(strbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void output_origin(dump_ctx *ctx, strbuf *b, const dump_origin *o)
{
	char src[64], dst[64];
	endpoint_format(&o->src, src, sizeof src);
	endpoint_format(&o->dst, dst, sizeof dst);
	/* time relative to the first frame, as tshark shows it */
	int64_t us = (o->sec - ctx->first_sec) * 1000000 + ((int64_t)o->usec - ctx->first_usec);
	const char *sign = us < 0 ? "-" : "";
	if (us < 0)
		us = -us;
	sb_printf(b, "%llu %s%lld.%06lld %s -> %s ", (unsigned long long)o->frame, sign,
	          (long long)(us / 1000000), (long long)(us % 1000000), src, dst);
}

typedef struct summary_state {
	dump_app *app;
	strbuf *b;
	megaco_name_form form;
	int in_terms; /* inside a command's "(...)" */
	int nterms;
	int ntx;
} summary_state;

static void close_terms(summary_state *s)
{
	if (s->in_terms) {
		sb_put(s->b, ")", 1);
		s->in_terms = 0;
	}
}

static int summary_visit(const fact *f, void *user)
{
	summary_state *s = user;
	char buf[256];
	if (f->kind != FACT_TERMINATION)
		close_terms(s);
	switch (f->kind) {
	case FACT_TRANSACTION:
		if (s->ntx++)
			sb_put(s->b, " |", 2);
		if (f->tx == TX_ACK && f->tid_last != f->tid)
			sb_printf(s->b, " %s %lu-%lu", tx_kind_names[f->tx], (unsigned long)f->tid,
			          (unsigned long)f->tid_last);
		else
			sb_printf(s->b, " %s %lu", tx_kind_names[f->tx], (unsigned long)f->tid);
		break;
	case FACT_CONTEXT:
		format_context(f->ctx, buf, sizeof buf);
		sb_printf(s->b, " C=%s", buf);
		break;
	case FACT_COMMAND:
		sb_printf(s->b, " %s(", command_names[f->command]);
		s->in_terms = 1;
		s->nterms = 0;
		break;
	case FACT_TERMINATION: {
		size_t n = format_tid(f->term, s->form, &s->app->opts, buf, sizeof buf);
		if (s->nterms++)
			sb_put(s->b, ",", 1);
		sb_put(s->b, buf, n);
		break;
	}
	case FACT_ERROR:
		sb_printf(s->b, " E=%ld", f->error_code);
		break;
	}
	return 0;
}

void output_summary(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding enc)
{
	const MegacoMessage_t *mm = megaco_message_model_const(m);
	char mid[256];
	format_mid(&mm->mess.mId, mid, sizeof mid);
	sb_printf(b, "%s v%ld %s", megaco_encoding_name(enc), mm->mess.version, mid);
	if (mm->mess.messageBody.present == Message__messageBody_PR_messageError)
		sb_put(b, " message-error", 14);
	summary_state s = { app, b, megaco_message_name_form(m), 0, 0, 0 };
	facts_walk(mm, FACTS_ALL, summary_visit, &s);
	close_terms(&s);
}

int output_encode(strbuf *b, const megaco_message *m, megaco_encoding to,
                  const megaco_options *opts, megaco_error *err)
{
	size_t want = 4096, n = 0;
	for (;;) {
		if (sb_reserve(b, want))
			return MEGACO_ERR_NOMEM;
		int rc = megaco_encode(m, to, opts, b->p + b->len, b->cap - b->len - 1, &n, err);
		if (rc == MEGACO_OK)
			break;
		if (rc != MEGACO_ERR_BUFFER_TOO_SMALL)
			return rc;
		want = n > want ? n : want * 2;
	}
	b->len += n;
	b->p[b->len] = 0;
	return MEGACO_OK;
}

int output_encoded(dump_app *app, strbuf *b, const megaco_message *m, megaco_encoding to)
{
	megaco_error err;
	int rc = output_encode(b, m, to, &app->opts, &err);
	if (rc == MEGACO_OK)
		return 0;
	sb_printf(b, "; cannot encode as %s: %s: %s\n", megaco_encoding_name(to), megaco_strerror(rc),
	          rc == MEGACO_ERR_NOMEM ? "" : err.message);
	return -1;
}
