/*
 * An application with two asn1c-generated libraries: libmegaco and its own
 * module (Other.asn, a type called Message, built with asn1c's runtime of
 * global names). One file includes both models, libmegaco's megaco/model.h
 * and the module's own Message.h (in the order MODEL_HEADER_FIRST says),
 * and uses both: encodes and decodes with each library, and reads and edits
 * libmegaco's model, and fails unless each result is right. Linked with a
 * static libmegaco that leaked asn1c's names, whichever library came second
 * on the link line would run the other's code (docs/abi.md). Built as C and
 * as C++. usage: app CORPUS_BER_FILE
 */
#include <stdio.h>
#include <string.h>

#ifdef MODEL_HEADER_FIRST
#include <megaco/megaco.h>
#include <megaco/model.h>
#include "Message.h" /* the application's own asn1c type */
#else
#include "Message.h"
#include <megaco/megaco.h>
#include <megaco/model.h>
#endif

static int other_roundtrip(void)
{
	Message_t m;
	memset(&m, 0, sizeof m);
	m.id = 4242; /* asn1c's default: INTEGER as a native long */
	if (OCTET_STRING_fromString(&m.note, "note") != 0)
		return fprintf(stderr, "other: cannot fill Message\n"), 1;
	unsigned char buf[64];
	asn_enc_rval_t er = der_encode_to_buffer(&asn_DEF_Message, &m, buf, sizeof buf);
	ASN_STRUCT_FREE_CONTENTS_ONLY(asn_DEF_Message, &m);
	/* SEQUENCE { [0] 4242, [1] "note" } (automatic tags) */
	static const unsigned char want[] = { 0x30, 0x0a, 0x80, 0x02, 0x10, 0x92,
	                                      0x81, 0x04, 'n', 'o', 't', 'e' };
	if (er.encoded != (ssize_t)sizeof want || memcmp(buf, want, sizeof want) != 0)
		return fprintf(stderr, "other: der_encode gave %zd bytes, not the expected %zu\n",
		               er.encoded, sizeof want), 1;
	Message_t *back = NULL;
	asn_dec_rval_t dr = ber_decode(NULL, &asn_DEF_Message, (void **)&back, buf, sizeof want);
	int ok = dr.code == RC_OK && back && back->id == 4242 &&
	         back->note.size == 4 && memcmp(back->note.buf, "note", 4) == 0;
	ASN_STRUCT_FREE(asn_DEF_Message, back);
	if (!ok)
		return fprintf(stderr, "other: ber_decode did not give the Message back\n"), 1;
	return 0;
}

static int contains(const char *text, size_t len, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(text + i, s, n) == 0)
			return 1;
	return 0;
}

/* The first transaction request of a decoded message, or NULL. */
static megaco_TransactionRequest_t *first_request(megaco_message *msg)
{
	megaco_Message_t *mess = &megaco_message_model(msg)->mess;
	if (mess->messageBody.present != megaco_Message__messageBody_PR_transactions ||
	    mess->messageBody.choice.transactions.list.count < 1)
		return NULL;
	megaco_Transaction_t *t = mess->messageBody.choice.transactions.list.array[0];
	return t->present == megaco_Transaction_PR_transactionRequest ? &t->choice.transactionRequest
	                                                             : NULL;
}

static int megaco_roundtrip(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return fprintf(stderr, "cannot open %s\n", path), 1;
	static unsigned char in[65536];
	size_t len = fread(in, 1, sizeof in, f);
	fclose(f);
	megaco_message *msg = NULL;
	megaco_error err;
	if (megaco_decode(MEGACO_ENC_BER, in, len, NULL, &msg, &err) != MEGACO_OK)
		return fprintf(stderr, "megaco: decode: %s\n", err.message), 1;
	void *out = NULL;
	size_t out_len = 0;
	int rc = megaco_encode_alloc(msg, MEGACO_ENC_BER, NULL, &out, &out_len, &err);
	int bad = rc != MEGACO_OK || out_len != len || memcmp(out, in, len) != 0;
	if (rc != MEGACO_OK)
		fprintf(stderr, "megaco: encode: %s\n", err.message);
	else if (bad)
		fprintf(stderr, "megaco: BER out (%zu bytes) differs from BER in (%zu)\n", out_len, len);
	megaco_buffer_free(out, NULL);

	/* Through the model: the version the API reports, then an edit that the
	 * text encoder must show. */
	megaco_TransactionRequest_t *tr = first_request(msg);
	if (!bad && (megaco_message_model_const(msg)->mess.version != megaco_message_version(msg) ||
	             !tr)) {
		fprintf(stderr, "megaco: the model disagrees with the API (or %s has no request)\n", path);
		bad = 1;
	}
	if (!bad) {
		tr->transactionId += 4242;
		char want[32];
		snprintf(want, sizeof want, "T=%lu{", (unsigned long)tr->transactionId);
		rc = megaco_encode_alloc(msg, MEGACO_ENC_COMPACT, NULL, &out, &out_len, &err);
		if (rc != MEGACO_OK || !contains((const char *)out, out_len, want)) {
			fprintf(stderr, "megaco: the edited transaction ID (%s) is not in the text\n", want);
			bad = 1;
		}
		megaco_buffer_free(out, NULL);
	}
	megaco_message_free(msg);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	/* Both orders of first use, so neither library's state comes first. */
	int bad = other_roundtrip() | megaco_roundtrip(argv[1]) | other_roundtrip();
	if (!bad)
		printf("both libraries encode and decode correctly\n");
	return bad;
}
