/*
 * BER (definite and indefinite lengths in, DER out) and PER (X.691
 * UNALIGNED, and ALIGNED: Erlang megaco's "per") of a whole MegacoMessage,
 * by the engine the options pick: ours (ber_reader.c, der_writer.c,
 * per_reader.c, per_writer.c) or asn1c's own (ber_decode(), der_encode(),
 * uper_decode_complete(), uper_encode()). asn1c 0.9.28 has no ALIGNED, and
 * the v3 module only: ours reads and writes a message by the module of its
 * version, asn1c's refuses a PER message where the two differ (docs/aper.md,
 * "Version 1"). Decoding allocates every node from the new message's arena.
 */
#include "MegacoMessage.h"
#include "ber_reader.h"
#include "der_writer.h"
#include "internal.h"
#include "megaco_schema.h"
#include "per_reader.h"
#include "per_writer.h"
#include "schema.h"

#define ASN1C_STACK_LIMIT (256u << 10)

enum { BER, UPER, APER };

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

/* A decode that failed at byte `at`: for the arena's want of memory, or the input's fault. */
static int not_module(const megaco_message *msg, int enc, size_t at, megaco_error *err)
{
	if (msg->arena.failed)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	if (enc != BER)
		return set_error(err, MEGACO_ERR_MALFORMED, at, "PER does not match the H.248.1 module");
	return set_error(err, MEGACO_ERR_MALFORMED, at,
	                 "BER does not match the H.248.1 module near byte %zu", at);
}

static int trailing(size_t consumed, size_t len, megaco_error *err)
{
	if (consumed < len)
		return set_error(err, MEGACO_ERR_TRAILING_DATA, consumed,
		                 "%zu bytes after the end of the message", len - consumed);
	return MEGACO_OK;
}

/* MEGACO_ENGINE_ASN1C: asn1c's ber_decode() or uper_decode_complete() into msg's arena. */
static int asn1c_read(megaco_message *msg, int enc, const unsigned char *buf, size_t len,
                      megaco_error *err)
{
	asn_codec_ctx_t ctx = { ASN1C_STACK_LIMIT };
	void *model = msg->model;
	megaco_arena *prev = arena_set_current(&msg->arena);
	asn_dec_rval_t r = (enc == BER ? ber_decode : uper_decode_complete)(
		&ctx, &asn_DEF_MegacoMessage, &model, buf, len);
	arena_set_current(prev);
	if (r.code == RC_WMORE)
		return set_error(err, MEGACO_ERR_TRUNCATED, len, "input ends inside the message");
	if (r.code != RC_OK)
		return not_module(msg, enc, r.consumed, err);
	/* Before the length: v1 bytes read by the v3 module end elsewhere. */
	int rc = enc == BER ? MEGACO_OK : asn1c_module_differs(msg->model, err);
	return rc == MEGACO_OK ? trailing(r.consumed, len, err) : rc;
}

/* Our PER reader into msg: its verdict as a status. */
static int per_read_message(megaco_message *msg, int enc, const unsigned char *buf, size_t len,
                            const megaco_options *o, megaco_error *err)
{
	/* Bounded by max_depth (resolved: at most MEGACO_DEPTH_CEILING) instead of stack use. */
	unsigned depth = o->max_depth;
	void *model = msg->model;
	size_t consumed = 0;
	int rc;
	switch (per_read(&model, buf, len, enc == APER, &msg->arena, depth, &consumed)) {
	case PER_OK:
		return trailing(consumed, len, err);
	case PER_STARVED:
		return set_error(err, MEGACO_ERR_TRUNCATED, len, "input ends inside the message");
	case PER_VERSION: /* the reader stopped at it: no module to read the body by */
		rc = check_version(msg->model->mess.version, 0, err);
		if (rc == MEGACO_OK) /* the schema's versions are check_version()'s */
			rc = set_error(err, MEGACO_ERR_INTERNAL, 0, "no module for version %ld",
			               msg->model->mess.version);
		return rc;
	case PER_DEEP:
		return set_error(err, MEGACO_ERR_TOO_DEEP, 0, "values nest deeper than max_depth (%u)",
		                 depth);
	default:
		return not_module(msg, enc, 0, err);
	}
}

/* Decodes enc into a new message by the engine o picks; its version is checked. */
static int decode(int enc, const unsigned char *buf, size_t len, const megaco_options *o,
                  megaco_message **out, megaco_error *err)
{
	int asn1c = o->engine == MEGACO_ENGINE_ASN1C;
	if (len == 0)
		return set_error(err, MEGACO_ERR_TRUNCATED, 0, "empty input");
	if (asn1c && enc == APER)
		return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "asn1c's engine has no aligned PER");
	megaco_message *msg = message_create(MEGACO_NAMES_BINARY, o);
	if (!msg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	void *model = msg->model;
	unsigned flags = 0;
	/* Ours reads BER in one pass (ber_reader.c), which checks the TLV
	 * structure on the way and classifies every error itself. */
	int rc = asn1c        ? asn1c_read(msg, enc, buf, len, err)
	         : enc == BER ? ber_read(SCHEMA_ROOT, &model, buf, len, &msg->arena, o->max_depth,
	                                 o->max_message_size, &flags, err)
	                      : per_read_message(msg, enc, buf, len, o, err);
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

int ber_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	return decode(BER, buf, len, o, out, err);
}

int per_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err)
{
	return decode(UPER, buf, len, o, out, err);
}

int aper_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err)
{
	return decode(APER, buf, len, o, out, err);
}

/* MEGACO_ENGINE_ASN1C: asn_check_constraints(), then der_encode() or uper_encode(). */
static int asn1c_encode(const megaco_message *msg, int enc, unsigned char *buf, size_t cap,
                        size_t *out_len, megaco_error *err)
{
	const char *name = enc == BER ? "BER" : "PER";
	char why[128];
	size_t whylen = sizeof why;
	if (enc == APER) /* asn1c 0.9.28 has no ALIGNED encoder */
		return set_error(err, MEGACO_ERR_UNSUPPORTED, 0, "asn1c's engine has no aligned PER");
	int rc = enc == BER ? MEGACO_OK : asn1c_module_differs(msg->model, err);
	if (rc != MEGACO_OK)
		return rc;
	if (asn_check_constraints(&asn_DEF_MegacoMessage, msg->model, why, &whylen) != 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "%s", why);
	out_sink s = { buf, cap, 0 };
	asn_enc_rval_t r = (enc == BER ? der_encode : uper_encode)(&asn_DEF_MegacoMessage, msg->model,
	                                                           out_sink_write, &s);
	if (r.encoded < 0)
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "cannot encode %s as %s",
		                 r.failed_type ? r.failed_type->name : "message", name);
	*out_len = s.len;
	if (s.len > cap)
		return set_error(err, MEGACO_ERR_BUFFER_TOO_SMALL, 0, "%s needs %zu bytes, buffer has %zu",
		                 name, s.len, cap);
	return MEGACO_OK;
}

int ber_encode_message(const megaco_message *msg, const megaco_options *o, unsigned char *buf,
                       size_t cap, size_t *out_len, megaco_error *err)
{
	if (o->engine == MEGACO_ENGINE_ASN1C)
		return asn1c_encode(msg, BER, buf, cap, out_len, err);
	/*
	 * One back-to-front pass with the constraints checked on the way
	 * (der_writer.c): asn1c's der_encode() after asn_check_constraints(),
	 * in canonical DER, for ~1/40 of the instructions.
	 */
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	return der_write(SCHEMA_ROOT, msg->model, DER_WRITE_CHECK, o->max_depth, al, buf, cap, out_len,
	                 err);
}

int per_encode_message(const megaco_message *msg, const megaco_options *o, int aligned,
                       unsigned char *buf, size_t cap, size_t *out_len, megaco_error *err)
{
	if (o->engine == MEGACO_ENGINE_ASN1C)
		return asn1c_encode(msg, aligned ? APER : UPER, buf, cap, out_len, err);
	/* One pass over the schema with the constraints checked on the way
	 * (per_writer.c); scratch, if any, from the caller's allocator. */
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	return per_write(SCHEMA_ROOT, msg->model, aligned, o->max_depth, al, buf, cap, out_len, err);
}
