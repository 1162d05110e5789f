/*
 * The message handle: an arena whose first allocation is the handle itself,
 * followed by the asn1c model. One allocator call for a small message.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "MegacoMessage.h"
#include "asn1_settle.h"
#include "internal.h"

void megaco_options_init(megaco_options *opts)
{
	if (!opts)
		return;
	memset(opts, 0, sizeof *opts);
	opts->version = MEGACO_OPTIONS_VERSION;
	opts->max_message_size = (size_t)1 << 20;
	opts->max_depth = 64;
	opts->max_token_length = (size_t)64 << 10;
	opts->scanner = MEGACO_SCANNER_REENTRANT;
	opts->max_model_memory = (size_t)16 << 20;
}

const megaco_options *options_resolve_copy(const megaco_options *opts, megaco_options *store)
{
	if (!opts)
		megaco_options_init(store);
	else if (opts->version != MEGACO_OPTIONS_VERSION)
		return NULL;
	else
		*store = *opts;
	/* Each limit's 0, here and nowhere else (options.h says what it means). */
	if (!store->max_message_size)
		store->max_message_size = SIZE_MAX;
	if (!store->max_token_length)
		store->max_token_length = SIZE_MAX;
	if (!store->max_depth || store->max_depth > MEGACO_DEPTH_CEILING)
		store->max_depth = MEGACO_DEPTH_CEILING;
	return store;
}

const megaco_options *options_or_default(const megaco_options *opts, megaco_options *store)
{
	const megaco_options *o = options_resolve(opts, store);
	return o ? o : options_resolve(NULL, store);
}

int options_bad_version(const megaco_options *opts, megaco_error *err)
{
	return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "options version %u, expected %u",
	                 opts->version, (unsigned)MEGACO_OPTIONS_VERSION);
}

megaco_message *message_create(megaco_name_form form, const megaco_options *opts)
{
	asn1_descriptors_settle();
	/* The handle and the model in one allocation, the one that makes the
	 * first block, which starts with the arena (the handle's first member).
	 * The handle's other fields are set below; the model must start zeroed. */
	struct handle_and_model {
		megaco_message msg;
		MegacoMessage_t model;
	} *both;
	_Static_assert(offsetof(struct handle_and_model, msg.arena) == 0,
	               "the arena starts the handle, as arena_init_first() places it");
	size_t limit = opts ? opts->max_model_memory : 0, first = ARENA_FIRST_BLOCK;
	if (limit && limit < first)
		first = limit;
	both = (struct handle_and_model *)(void *)arena_init_first(
		opts ? opts->allocator : NULL, first, sizeof *both);
	if (!both)
		return NULL;
	both->msg.arena.limit = limit;
	arena_zero(&both->model, sizeof both->model);
	megaco_message *msg = &both->msg;
	msg->model = &both->model;
	msg->form = form;
	msg->sound = 0;
	msg->unknown_extension = 0;
	return msg;
}

megaco_message *megaco_message_new(megaco_name_form form, const megaco_options *opts)
{
	if (form != MEGACO_NAMES_BINARY && form != MEGACO_NAMES_TEXT)
		return NULL;
	megaco_options store;
	const megaco_options *o = options_resolve(opts, &store);
	if (!o)
		return NULL;
	megaco_message *msg = message_create(form, o);
	if (msg)
		msg->arena.limit = 0; /* the cap is on decoding */
	return msg;
}

void megaco_message_free(megaco_message *msg)
{
	if (!msg)
		return;
	/* The handle lives in its own arena: arena_release() reads what it
	 * needs of it before the first block goes. */
	arena_release(&msg->arena);
}

struct MegacoMessage *megaco_message_model(megaco_message *msg)
{
	if (!msg)
		return NULL;
	msg->sound = 0; /* the caller may edit it: encoders check it from now on */
	return msg->model;
}

const struct MegacoMessage *megaco_message_model_const(const megaco_message *msg)
{
	return msg ? msg->model : NULL;
}

int megaco_message_version(const megaco_message *msg)
{
	return msg ? (int)msg->model->mess.version : 0;
}

megaco_name_form megaco_message_name_form(const megaco_message *msg)
{
	return msg ? msg->form : MEGACO_NAMES_BINARY;
}

void *megaco_message_alloc(megaco_message *msg, size_t size)
{
	return msg ? arena_alloc(&msg->arena, size) : NULL;
}

int megaco_message_set_octets(megaco_message *msg, struct OCTET_STRING *field, const void *bytes,
                              size_t len)
{
	if (!msg || !field || (!bytes && len) || len > INT_MAX)
		return MEGACO_ERR_INVALID_ARGUMENT;
	char *copy = arena_memdup(&msg->arena, bytes, len);
	if (!copy)
		return MEGACO_ERR_NOMEM;
	field->buf = (uint8_t *)copy;
	field->size = (int)len;
	return MEGACO_OK;
}

int megaco_message_append(megaco_message *msg, void *list, void *element)
{
	if (!msg || !list || !element)
		return MEGACO_ERR_INVALID_ARGUMENT;
	/* asn_sequence_add grows the array with REALLOC: aim it at our arena. */
	megaco_arena *prev = arena_set_current(&msg->arena);
	int rc = asn_sequence_add(list, element);
	arena_set_current(prev);
	return rc == 0 ? MEGACO_OK : MEGACO_ERR_NOMEM;
}

size_t megaco_message_memory(const megaco_message *msg)
{
	return msg ? msg->arena.total : 0;
}
