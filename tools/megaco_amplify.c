/*
 * megaco-amplify: the model memory a decode takes per input byte, for
 * crafted messages of the shapes that amplify most (docs/memory.md).
 *
 *   megaco-amplify [INPUT_BYTES [SHAPE]]   (default 1048576, the default
 *                                           max_message_size; every shape)
 *
 * Each shape is written as compact text with a repeat count N, decoded, and
 * encoded into each encoding; N is then chosen so that the encoding is as
 * large as it can be within INPUT_BYTES. That input is decoded with
 * max_model_memory 0 (no cap) and megaco_message_memory() gives the model's
 * bytes (every arena block, the handle included). One shape has no text
 * form: transactions whose TransactionResponseAck lists are empty, made by
 * emptying the lists of the "acks" model before encoding it in BER and PER.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "MegacoMessage.h"
#include "megaco/megaco.h"

typedef struct shape {
	const char *name, *what;
	const char *head, *unit, *sep, *tail; /* head unit (sep unit)* tail */
	int empty_acks;                       /* binary only: empty every ack list */
} shape;

static const shape shapes[] = {
	{ "acks", "transactions, each a TransactionResponseAck of one ack", "!/1 [1.1.1.1]:1\n", "K{1}", "",
	  "", 0 },
	{ "empty-acks", "transactions, each an empty TransactionResponseAck (binary only)",
	  "!/1 [1.1.1.1]:1\n", "K{1}", "", "", 1 },
	{ "ack-list", "one TransactionResponseAck of many acks", "!/1 [1.1.1.1]:1\nK{", "1", ",", "}", 0 },
	{ "commands", "one action of many Subtract=* commands", "!/1 [1.1.1.1]:1\nT=1{C=-{", "S=*", ",",
	  "}}", 0 },
	{ "actions", "one transaction of many actions, each one Subtract=*", "!/1 [1.1.1.1]:1\nT=1{",
	  "C=-{S=*}", ",", "}", 0 },
	{ "requests", "transactions, each a request of one Subtract=*", "!/1 [1.1.1.1]:1\n",
	  "T=1{C=-{S=*}}", "", "", 0 },
	/* Not crafted: what real traffic looks like, for comparison. */
	{ "msg01a", "transactions, each corpus msg01a's (Modify: media, SDP, events)",
	  "!/1 [123.123.123.4]:55555\n",
	  "T=9999{C=-{MF=11111111/00000000/00000000{M{ST=1{O{MO=SR,tdmc/gain=2,tdmc/ec=g165},L{\n"
	  "v=0\nc=IN IP4 $ \nm=audio $ RTP/AVP 0\na=fmtp:PCMU VAD=X-NNVAD\n}}},E=2222{al/of}}}}",
	  "", "", 0 },
};

static char *text_of(const shape *s, size_t n, size_t *len)
{
	size_t cap = strlen(s->head) + n * (strlen(s->unit) + strlen(s->sep)) + strlen(s->tail) + 1;
	char *b = malloc(cap), *p = b;
	if (!b)
		return NULL;
	p += sprintf(p, "%s", s->head);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? s->sep : "", s->unit);
	p += sprintf(p, "%s", s->tail);
	*len = (size_t)(p - b);
	return b;
}

static megaco_options unlimited(void)
{
	megaco_options o;
	megaco_options_init(&o);
	o.max_message_size = (size_t)1 << 30;
	o.max_model_memory = 0;
	return o;
}

/* The shape with n units, encoded as enc (malloc'd); NULL if it cannot be. */
static void *encoded(const shape *s, size_t n, megaco_encoding enc, size_t *len)
{
	megaco_options o = unlimited();
	size_t tlen;
	char *t = text_of(s, n, &tlen);
	megaco_message *m = NULL;
	void *out = NULL;
	if (t && megaco_decode(MEGACO_ENC_COMPACT, t, tlen, &o, &m, NULL) == MEGACO_OK) {
		if (s->empty_acks) {
			MegacoMessage_t *mm = megaco_message_model(m);
			for (int i = 0; i < mm->mess.messageBody.choice.transactions.list.count; i++)
				mm->mess.messageBody.choice.transactions.list.array[i]
					->choice.transactionResponseAck.list.count = 0;
		}
		if (megaco_encode_alloc(m, enc, &o, &out, len, NULL) != MEGACO_OK)
			out = NULL;
	}
	megaco_message_free(m);
	free(t);
	return out;
}

int main(int argc, char **argv)
{
	size_t limit = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)1 << 20;
	printf("%-11s %-8s %9s %11s %7s %8s  %s\n", "shape", "encoding", "units", "input_B", "model_MB",
	       "ratio", "what");
	for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
		const shape *s = &shapes[si];
		if (argc > 2 && strcmp(argv[2], s->name))
			continue;
		for (megaco_encoding enc = MEGACO_ENC_PRETTY; enc <= MEGACO_ENC_PER; enc++) {
			if (s->empty_acks && enc < MEGACO_ENC_BER)
				continue;
			/* Bytes per unit from two sizes, then down from the estimate until it fits. */
			size_t l1, l2;
			void *a = encoded(s, 1000, enc, &l1), *b = encoded(s, 2000, enc, &l2);
			free(a);
			free(b);
			if (!a || !b || l2 <= l1) {
				printf("%-11s %-8s cannot be encoded\n", s->name, megaco_encoding_name(enc));
				continue;
			}
			double per = (double)(l2 - l1) / 1000;
			size_t n = (size_t)((double)(limit - (l1 - per * 1000)) / per) + 2;
			void *in = NULL;
			size_t len = 0;
			for (;; n -= n / 1000 + 1) {
				free(in);
				in = encoded(s, n, enc, &len);
				if (!in || len <= limit)
					break;
			}
			megaco_options o = unlimited();
			o.max_message_size = limit;
			megaco_message *m = NULL;
			megaco_error err;
			int rc = in ? megaco_decode(enc, in, len, &o, &m, &err) : MEGACO_ERR_NOMEM;
			if (rc != MEGACO_OK) {
				printf("%-11s %-8s decode: %s\n", s->name, megaco_encoding_name(enc),
				       in ? err.message : "cannot be encoded");
			} else {
				size_t mem = megaco_message_memory(m);
				printf("%-11s %-8s %9zu %11zu %8.1f %7.1fx  %s\n", s->name,
				       megaco_encoding_name(enc), n, len, (double)mem / 1e6, (double)mem / (double)len,
				       s->what);
			}
			fflush(stdout);
			megaco_message_free(m);
			free(in);
		}
	}
	return 0;
}
