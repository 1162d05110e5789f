/*
 * An application with two asn1c-generated libraries: libmegaco and its own
 * module (Other.asn, a type called Message, built with asn1c's runtime of
 * global names). Encodes and decodes with both and fails unless each
 * library's result is right: with a static libmegaco that leaks asn1c's
 * names, whichever library comes second on the link line runs the other's
 * code (docs/abi.md). usage: app CORPUS_BER_FILE
 */
#include <stdio.h>
#include <string.h>

#include "Message.h" /* the application's own asn1c type */
#include <megaco/megaco.h>

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
