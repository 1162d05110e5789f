/*
 * BER decode (definite and indefinite lengths) and DER encode of a whole
 * MegacoMessage, by the engine the options pick: ours (ber_reader.c,
 * der_writer.c) or asn1c's own (ber_decode(), der_encode()). Decoding
 * allocates every node from the new message's arena.
 */
#include <string.h>

#include "MegacoMessage.h"
#include "ber_reader.h"
#include "der_writer.h"
#include "internal.h"
#include "megaco_schema.h"

#define ASN1C_STACK_LIMIT (256u << 10)

/* MEGACO_ENGINE_ASN1C: asn1c's ber_decode() into the message's arena. */
static int asn1c_decode(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err)
{
	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	if (!msg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	asn_codec_ctx_t ctx = { ASN1C_STACK_LIMIT };
	void *model = msg->model;
	megaco_arena *prev = arena_set_current(&msg->arena);
	asn_dec_rval_t r = ber_decode(&ctx, &asn_DEF_MegacoMessage, &model, buf, len);
	arena_set_current(prev);
	int rc;
	if (r.code == RC_WMORE)
		rc = set_error(err, MEGACO_ERR_TRUNCATED, len, "input ends inside the message");
	else if (r.code != RC_OK && msg->arena.failed)
		rc = set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	else if (r.code != RC_OK)
		rc = set_error(err, MEGACO_ERR_MALFORMED, r.consumed,
		               "BER does not match the H.248.1 module near byte %zu", r.consumed);
	else if (r.consumed != len)
		rc = set_error(err, MEGACO_ERR_TRAILING_DATA, r.consumed,
		               "%zu bytes after the end of the message", len - r.consumed);
	else
		rc = check_version(msg->model->mess.version, 0, err);
	if (rc != MEGACO_OK) {
		megaco_message_free(msg);
		return rc;
	}
	*out = msg;
	return MEGACO_OK;
}

int ber_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	if (o->engine == MEGACO_ENGINE_ASN1C)
		return asn1c_decode(buf, len, o, out, err);
	/*
	 * One pass over the bytes into asn1c's structures (ber_reader.c), which
	 * checks the TLV structure on the way and classifies every error itself.
	 */
	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	if (!msg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	void *model = msg->model;
	unsigned flags = 0;
	int rc = ber_read(SCHEMA_ROOT, &model, buf, len, &msg->arena, o->max_depth,
	                  o->max_message_size, &flags, err);
	if (rc == MEGACO_OK)
		rc = check_version(msg->model->mess.version, 0, err);
	if (rc != MEGACO_OK) {
		megaco_message_free(msg);
		return rc;
	}
	/* What the model cannot hold, no encoder may write: see ber_reader.h. */
	msg->unknown_extension = (flags & BER_READ_UNKNOWN_ALTERNATIVE) != 0;
	*out = msg;
	return MEGACO_OK;
}

/* MEGACO_ENGINE_ASN1C: asn_check_constraints(), then der_encode(). */
static int asn1c_encode(const megaco_message *msg, unsigned char *buf, size_t cap,
                        size_t *out_len, megaco_error *err)
{
	char why[128];
	size_t whylen = sizeof why;
	if (asn_check_constraints(&asn_DEF_MegacoMessage, msg->model, why, &whylen) != 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "%s", why);
	out_sink s = { buf, cap, 0 };
	asn_enc_rval_t r = der_encode(&asn_DEF_MegacoMessage, msg->model, out_sink_write, &s);
	if (r.encoded < 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "cannot encode %s as BER",
		                 r.failed_type ? r.failed_type->name : "message");
	*out_len = s.len;
	if (s.len > cap)
		return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "BER needs %zu bytes, buffer has %zu",
		                 s.len, cap);
	return MEGACO_OK;
}

int ber_encode_message(const megaco_message *msg, const megaco_options *o, unsigned char *buf,
                       size_t cap, size_t *out_len, megaco_error *err)
{
	if (o->engine == MEGACO_ENGINE_ASN1C)
		return asn1c_encode(msg, buf, cap, out_len, err);
	/*
	 * One back-to-front pass with the constraints checked on the way
	 * (der_writer.c): asn1c's der_encode() after asn_check_constraints(),
	 * in canonical DER, for ~1/40 of the instructions.
	 */
	const megaco_allocator *al = o && o->allocator ? o->allocator : &megaco_default_allocator;
	return der_write(SCHEMA_ROOT, msg->model, DER_WRITE_CHECK, o->max_depth, al, buf, cap, out_len,
	                 err);
}
