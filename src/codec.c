/*
 * Public decode/encode entry points: argument checks, input limits, and
 * dispatch to the per-encoding modules.
 */
#include <string.h>
#include <strings.h>

#include "megaco/version.h"
#include "MegacoMessage.h"
#include "internal.h"
#include "name_convert.h"
#include "validate.h"
#include "version_check.h"

static const char *const enc_names[] = {
	[MEGACO_ENC_AUTO] = "auto",
	[MEGACO_ENC_PRETTY] = "pretty",
	[MEGACO_ENC_COMPACT] = "compact",
	[MEGACO_ENC_BER] = "ber",
	[MEGACO_ENC_PER] = "per",
	[MEGACO_ENC_APER] = "aper",
};

const char *megaco_encoding_name(megaco_encoding enc)
{
	if ((unsigned)enc >= sizeof enc_names / sizeof enc_names[0])
		return NULL;
	return enc_names[enc];
}

int megaco_encoding_from_name(const char *name, megaco_encoding *out)
{
	if (!name || !out)
		return MEGACO_ERR_INVALID_ARGUMENT;
	for (unsigned i = 0; i < sizeof enc_names / sizeof enc_names[0]; i++) {
		if (strcasecmp(name, enc_names[i]) == 0) {
			*out = (megaco_encoding)i;
			return MEGACO_OK;
		}
	}
	return MEGACO_ERR_INVALID_ARGUMENT;
}

const char *megaco_version(void) { return MEGACO_VERSION_STRING; }

int out_sink_write(const void *data, size_t size, void *key)
{
	out_sink *s = key;
	/* size 0 comes with data == NULL (an empty OCTET STRING): memcpy must not see it. */
	if (size && s->len <= s->cap && size <= s->cap - s->len)
		memcpy(s->buf + s->len, data, size);
	s->len += size;
	return 0;
}

int megaco_decode(megaco_encoding enc, const void *buf, size_t len, const megaco_options *opts,
                  megaco_message **out, megaco_error *err)
{
	megaco_options store;
	const megaco_options *o = options_resolve(opts, &store);
	clear_error(err);
	if (!o)
		return options_bad_version(opts, err);
	if (!out || (!buf && len))
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL buffer or output pointer");
	if (len > o->max_message_size)
		return set_error(err, MEGACO_ERR_TOO_LARGE, o->max_message_size,
		                 "message of %zu bytes exceeds the limit of %zu", len,
		                 o->max_message_size);
	if (enc == MEGACO_ENC_AUTO) {
		int rc = megaco_detect(buf, len, &enc, NULL);
		if (rc != MEGACO_OK)
			return set_error(err, rc, 0, "%s",
			                 rc == MEGACO_ERR_NOT_MEGACO
			                         ? "neither text nor a BER or PER Megaco message"
			                         : "empty input");
	}
	int rc;
	arena_limit_clear();
	switch (enc) {
	case MEGACO_ENC_BER:
		rc = ber_decode_message(buf, len, o, out, err);
		break;
	case MEGACO_ENC_PER:
		rc = per_decode_message(buf, len, o, out, err);
		break;
	case MEGACO_ENC_APER:
		rc = aper_decode_message(buf, len, o, out, err);
		break;
	case MEGACO_ENC_PRETTY:
	case MEGACO_ENC_COMPACT:
		rc = text_decode_message(buf, len, o, out, err);
		break;
	default:
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "unknown encoding %d", (int)enc);
	}
	if (rc == MEGACO_OK) {
		/* decoders build sound models (encoders skip model_check()) but of what they skipped */
		(*out)->sound = !(*out)->unknown_extension;
		(*out)->arena.limit = 0; /* the cap is on decoding */
	} else if (rc == MEGACO_ERR_NOMEM && arena_limit_hit()) {
		rc = set_error(err, MEGACO_ERR_TOO_LARGE, 0,
		               "the decoded model would take more than max_model_memory (%zu bytes)",
		               o->max_model_memory);
	}
	return rc;
}

int encode_size_check(int rc, size_t len, const megaco_options *o, megaco_error *err)
{
	if ((rc == MEGACO_OK || rc == MEGACO_ERR_BUFFER_TOO_SMALL) && len > o->max_message_size)
		return set_error(err, MEGACO_ERR_TOO_LARGE, 0,
		                 "the encoding of %zu bytes exceeds max_message_size (%zu bytes)", len,
		                 o->max_message_size);
	return rc;
}

/* Out of line: megaco_encode's common case hands its call on without it. */
static __attribute__((noinline)) int encode_into(const megaco_message *msg, megaco_encoding enc,
                                                 const megaco_options *o, unsigned char *buf,
                                                 size_t cap, size_t *out_len, megaco_error *err)
{
	/* A hand-built or edited model can hold anything; the encoders assume a sound tree. */
	if (!msg->sound) {
		int rc = model_check(msg->model, err);
		if (rc != MEGACO_OK)
			return rc;
	}
	int text = enc_name_form(enc) == MEGACO_NAMES_TEXT;
	if (!text && enc != MEGACO_ENC_BER && enc != MEGACO_ENC_PER && enc != MEGACO_ENC_APER)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "cannot encode to encoding %d",
		                 (int)enc);
	/* The v3 model can hold what a v1/v2 message must not carry; one gate for every encoding. */
	int rc = version_check_model(msg->model, msg->model->mess.version, !text, err);
	if (rc != MEGACO_OK)
		return rc;
	if (msg->form != enc_name_form(enc))
		return names_encode_converted(msg, enc, o, buf, cap, out_len, err); /* on a copy */
	if (text)
		return text_encode_message(msg, enc == MEGACO_ENC_COMPACT, o, buf, cap, out_len, err);
	return enc == MEGACO_ENC_BER
	               ? ber_encode_message(msg, o, buf, cap, out_len, err)
	               : per_encode_message(msg, o, enc == MEGACO_ENC_APER, buf, cap, out_len, err);
}

/*
 * encode_into with a scratch arena on o's allocator as asn1c's current one,
 * so that whatever asn1c code an encoder reaches allocates from the caller's
 * allocator too; nothing is taken unless asn1c allocates, and all of it goes
 * back before the return. Out of line: text from text names, the common
 * case, reaches no asn1c code and skips it (megaco_encode).
 */
static __attribute__((noinline)) int encode_scoped(const megaco_message *msg, megaco_encoding enc,
                                                   const megaco_options *o, unsigned char *buf,
                                                   size_t cap, size_t *out_len, megaco_error *err)
{
	megaco_arena scratch, *prev;
	arena_init(&scratch, o->allocator, 0);
	prev = arena_set_current(&scratch);
	int rc = encode_into(msg, enc, o, buf, cap, out_len, err);
	arena_set_current(prev);
	if (scratch.head)
		arena_reset_blocks(&scratch);
	if (scratch.failed && rc != MEGACO_OK && rc != MEGACO_ERR_NOMEM)
		rc = set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	return encode_size_check(rc, *out_len, o, err); /* text_encode_message checks its own */
}

/* megaco_encode's text from text names of a sound v1/v2 model: the gate, then the encoder. */
static __attribute__((noinline)) int text_gated(const megaco_message *msg, megaco_encoding enc,
                                                const megaco_options *o, void *buf, size_t cap,
                                                size_t *out_len, megaco_error *err)
{
	int rc = version_check_walk(msg->model, msg->model->mess.version, 0, err);
	if (rc != MEGACO_OK)
		return rc;
	return text_encode_message(msg, enc == MEGACO_ENC_COMPACT, o, buf, cap, out_len, err);
}

/* megaco_encode with options to resolve first, into a copy that this frame keeps. */
static __attribute__((noinline)) int encode_resolved(const megaco_message *msg,
                                                     megaco_encoding enc,
                                                     const megaco_options *opts, void *buf,
                                                     size_t cap, size_t *out_len,
                                                     megaco_error *err)
{
	megaco_options store;
	const megaco_options *o = options_resolve_copy(opts, &store);
	if (o)
		return megaco_encode(msg, enc, o, buf, cap, out_len, err);
	clear_error(err);
	return options_bad_version(opts, err);
}

int megaco_encode(const megaco_message *msg, megaco_encoding enc, const megaco_options *opts,
                  void *buf, size_t cap, size_t *out_len, megaco_error *err)
{
	if (!options_ready(opts))
		return encode_resolved(msg, enc, opts, buf, cap, out_len, err);
	clear_error(err); /* asn1c's descriptors: message_create() settled them for msg */
	if (!msg || !out_len || (!buf && cap))
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL message or output pointer");
	*out_len = 0;
	if (msg->form != MEGACO_NAMES_TEXT || enc_name_form(enc) != MEGACO_NAMES_TEXT)
		return encode_scoped(msg, enc, opts, buf, cap, out_len, err);
	/*
	 * Text from text names reaches no asn1c code (no scratch arena) and, from
	 * a sound model, has only the version gate of encode_into to pass: none
	 * for v3, the common case, which goes straight on (a tail call).
	 */
	if (!msg->sound)
		return encode_into(msg, enc, opts, buf, cap, out_len, err);
	if (version_check_needed(msg->model->mess.version))
		return text_gated(msg, enc, opts, buf, cap, out_len, err);
	return text_encode_message(msg, enc == MEGACO_ENC_COMPACT, opts, buf, cap, out_len, err);
}

int megaco_encode_alloc(const megaco_message *msg, megaco_encoding enc, const megaco_options *opts,
                        void **out, size_t *out_len, megaco_error *err)
{
	megaco_options store; /* megaco_encode() does the rest; every return here sets err */
	const megaco_options *o = options_resolve(opts, &store);
	if (!o)
		return options_bad_version(opts, err);
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	if (!msg || !out || !out_len)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL message or output pointer");
	size_t cap = 1024, len = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		unsigned char *buf = al->alloc(al->user_data, cap);
		if (!buf)
			return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
		int rc = megaco_encode(msg, enc, o, buf, cap, &len, err);
		if (rc == MEGACO_OK) {
			clear_error(err);
			*out = buf;
			*out_len = len;
			return MEGACO_OK;
		}
		al->free(al->user_data, buf);
		if (rc != MEGACO_ERR_BUFFER_TOO_SMALL || len <= cap)
			return rc;
		cap = len; /* the encoder told us the exact size */
	}
	return set_error(err, MEGACO_ERR_INTERNAL, 0, "encoded size changed between passes");
}

void megaco_buffer_free(void *buf, const megaco_options *opts)
{
	megaco_options store;
	const megaco_options *o = options_resolve(opts, &store);
	/* Options of another version: which allocator is unknown, so none frees. */
	if (!o || !buf)
		return;
	const megaco_allocator *al = o->allocator ? o->allocator : &megaco_default_allocator;
	al->free(al->user_data, buf);
}
