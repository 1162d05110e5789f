/*
 * BER decode (definite and indefinite lengths) and DER encode of a whole
 * MegacoMessage through the asn1c-generated codec. Decoding allocates every
 * node from the new message's arena.
 */
#include <string.h>

#include "MegacoMessage.h"
#include "der_writer.h"
#include "internal.h"

/* asn1c checks its recursion against this much stack (bytes). */
#define ASN1C_STACK_LIMIT (256u << 10)

int ber_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	int rc = ber_scan(buf, len, o->max_depth, o->max_message_size, err);
	if (rc != MEGACO_OK)
		return rc;

	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	if (!msg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	asn_codec_ctx_t ctx = { ASN1C_STACK_LIMIT };
	void *model = msg->model;
	megaco_arena *prev = arena_set_current(&msg->arena);
	asn_dec_rval_t r = ber_decode(&ctx, &asn_DEF_MegacoMessage, &model, buf, len);
	arena_set_current(prev);

	if (r.code != RC_OK || r.consumed != len) {
		if (r.code == RC_OK)
			rc = set_error(err, MEGACO_ERR_TRAILING_DATA, r.consumed,
			               "%zu bytes after the end of the message", len - r.consumed);
		else if (r.code == RC_WMORE)
			rc = set_error(err, MEGACO_ERR_TRUNCATED, r.consumed, "message truncated");
		else if (msg->arena.failed)
			rc = set_error(err, MEGACO_ERR_NOMEM, r.consumed, "out of memory");
		else
			rc = set_error(err, MEGACO_ERR_MALFORMED, r.consumed,
			               "BER does not match the H.248.1 module near byte %zu", r.consumed);
		goto fail;
	}
	rc = check_version(msg->model->mess.version, 0, err);
	if (rc != MEGACO_OK)
		goto fail;
	*out = msg;
	return MEGACO_OK;
fail:
	megaco_message_free(msg);
	return rc;
}

int ber_encode_message(const megaco_message *msg, unsigned char *buf, size_t cap,
                       size_t *out_len, megaco_error *err)
{
	/*
	 * One back-to-front pass with the constraints checked on the way
	 * (der_writer.c), byte-identical to asn1c's der_encode() after
	 * asn_check_constraints(), which cost ~40x as much.
	 */
	return der_write(&asn_DEF_MegacoMessage, msg->model, DER_WRITE_CHECK, buf, cap, out_len, err);
}
