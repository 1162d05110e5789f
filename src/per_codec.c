/*
 * PER codec, X.691 UNALIGNED (the only variant asn1c 0.9.28 generates) and
 * ALIGNED (Erlang megaco's "per"). The options pick the engine: ours
 * (per_reader.c, per_writer.c) or asn1c's own (uper_decode_complete(),
 * uper_encode()), which has no ALIGNED. Ours reads and writes a message by
 * the module of its version; asn1c's has the v3 module only, so it refuses
 * a message where the two differ (docs/aper.md, "Version 1").
 */

#include "MegacoMessage.h"
#include "internal.h"
#include "megaco_schema.h"
#include "per_reader.h"
#include "per_writer.h"
#include "schema.h"

#define ASN1C_STACK_LIMIT (256u << 10)

typedef struct older_ctx {
	long version;
	const char *type; /* the first value found whose PER differs in that version's module */
} older_ctx;

/* A SEQUENCE with a member mandatory in the module of the message's version stops the walk. */
static int older_visit(const schema_node *n, void *ctx)
{
	older_ctx *c = ctx;
	const schema_type *t = &schema_types[n->type];
	for (unsigned k = t->first; t->kind == SK_SEQUENCE && k < (unsigned)t->first + t->count; k++)
		if (schema_members[k].opt_since > c->version) {
			c->type = t->name;
			return -1;
		}
	return WALK_CONTINUE;
}

/*
 * MEGACO_ENGINE_ASN1C: MEGACO_ERR_UNSUPPORTED when the message holds a value
 * that the module of its version encodes otherwise than the v3 module (a
 * version 1 Events descriptor: no presence bit for requestID).
 */
static int asn1c_module_differs(const MegacoMessage_t *m, megaco_error *err)
{
	older_ctx c = { m->mess.version, NULL };
	int older = 0;
	for (unsigned k = 0; k < SCHEMA_NMEMBERS && !older; k++)
		older = schema_members[k].opt_since > c.version;
	if (!older) /* no member's optionality differs: not worth a walk */
		return MEGACO_OK;
	schema_walk(SCHEMA_ROOT, (void *)(uintptr_t)m, older_visit, &c);
	if (!c.type)
		return MEGACO_OK;
	return set_error(err, MEGACO_ERR_UNSUPPORTED, 0,
	                 "asn1c's engine has the v3 module only: a version %ld message's %s is "
	                 "PER of the v%ld module", c.version, c.type, c.version);
}

/*
 * Decodes PER in the variant aligned says (0 UNALIGNED, 1 ALIGNED). asn1c's
 * engine reads UNALIGNED only.
 */
static int decode(const unsigned char *buf, size_t len, int aligned, const megaco_options *o,
                  megaco_message **out, megaco_error *err)
{
	if (len == 0)
		return set_error(err, MEGACO_ERR_TRUNCATED, 0, "empty input");
	int asn1c = o->engine == MEGACO_ENGINE_ASN1C;
	if (asn1c && aligned)
		return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "asn1c's engine has no aligned PER");
	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	if (!msg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	int rc;
	if (!asn1c) {
		/* Our reader: asn1c's results (UNALIGNED), bounded by max_depth instead of stack use. */
		unsigned depth = o->max_depth < MEGACO_DEPTH_CEILING ? o->max_depth : MEGACO_DEPTH_CEILING;
		void *model = msg->model;
		size_t consumed = 0;
		int r = per_read(&model, buf, len, aligned, &msg->arena, depth, &consumed);
		if (r == PER_STARVED) {
			rc = set_error(err, MEGACO_ERR_TRUNCATED, len, "input ends inside the message");
			goto fail;
		}
		if (r == PER_VERSION) { /* the reader stopped at it: no module to read the body by */
			rc = check_version(msg->model->mess.version, 0, err);
			if (rc == MEGACO_OK) /* the schema's versions are check_version()'s */
				rc = set_error(err, MEGACO_ERR_INTERNAL, 0, "no module for version %ld",
				               msg->model->mess.version);
			goto fail;
		}
		if (r == PER_DEEP) {
			rc = set_error(err, MEGACO_ERR_TOO_DEEP, 0,
			               "values nest deeper than max_depth (%u)", depth);
			goto fail;
		}
		if (r != PER_OK) {
			if (msg->arena.failed)
				rc = set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
			else
				rc = set_error(err, MEGACO_ERR_MALFORMED, 0,
				               "PER does not match the H.248.1 module");
			goto fail;
		}
		if (consumed < len) {
			rc = set_error(err, MEGACO_ERR_TRAILING_DATA, consumed,
			               "%zu bytes after the end of the message", len - consumed);
			goto fail;
		}
	} else {
		asn_codec_ctx_t ctx = { ASN1C_STACK_LIMIT };
		void *model = msg->model;
		megaco_arena *prev = arena_set_current(&msg->arena);
		asn_dec_rval_t r = uper_decode_complete(&ctx, &asn_DEF_MegacoMessage, &model, buf, len);
		arena_set_current(prev);
		if (r.code == RC_WMORE) {
			rc = set_error(err, MEGACO_ERR_TRUNCATED, len, "input ends inside the message");
			goto fail;
		}
		if (r.code != RC_OK) {
			if (msg->arena.failed)
				rc = set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
			else
				rc = set_error(err, MEGACO_ERR_MALFORMED, r.consumed,
				               "PER does not match the H.248.1 module");
			goto fail;
		}
		/* Before the length: v1 bytes read by the v3 module end elsewhere. */
		if ((rc = asn1c_module_differs(msg->model, err)) != MEGACO_OK)
			goto fail;
		if (r.consumed < len) {
			rc = set_error(err, MEGACO_ERR_TRAILING_DATA, r.consumed,
			               "%zu bytes after the end of the message", len - r.consumed);
			goto fail;
		}
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

int per_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	return decode(buf, len, 0, o, out, err);
}

int aper_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err)
{
	return decode(buf, len, 1, o, out, err);
}

/* MEGACO_ENGINE_ASN1C: asn_check_constraints(), then uper_encode(). */
static int asn1c_encode_message(const megaco_message *msg, unsigned char *buf, size_t cap,
                                size_t *len, megaco_error *err)
{
	char why[128];
	size_t whylen = sizeof why;
	int rc = asn1c_module_differs(msg->model, err);
	if (rc != MEGACO_OK)
		return rc;
	if (asn_check_constraints(&asn_DEF_MegacoMessage, msg->model, why, &whylen) != 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "%s", why);
	out_sink s = { buf, cap, 0 };
	asn_enc_rval_t r = uper_encode(&asn_DEF_MegacoMessage, msg->model, out_sink_write, &s);
	if (r.encoded < 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "cannot encode %s as PER",
		                 r.failed_type ? r.failed_type->name : "message");
	*len = s.len;
	if (s.len > cap)
		return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "PER needs %zu bytes, buffer has %zu",
		                 s.len, cap);
	return MEGACO_OK;
}

int per_encode_message(const megaco_message *msg, const megaco_options *o, int aligned,
                       unsigned char *buf, size_t cap, size_t *out_len, megaco_error *err)
{
	if (o->engine == MEGACO_ENGINE_ASN1C) {
		if (aligned) /* asn1c 0.9.28 has no ALIGNED encoder */
			return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "asn1c's engine has no aligned PER");
		return asn1c_encode_message(msg, buf, cap, out_len, err);
	}
	/* One pass over the schema with the constraints checked on the way
	 * (per_writer.c); scratch, if any, from the caller's allocator. */
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	unsigned depth = o->max_depth < MEGACO_DEPTH_CEILING ? o->max_depth : MEGACO_DEPTH_CEILING;
	return per_write(SCHEMA_ROOT, msg->model, aligned, depth, al, buf, cap, out_len, err);
}
