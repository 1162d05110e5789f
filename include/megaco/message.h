/*
 * A Megaco message in memory: an opaque handle around the model (asn1c's
 * types for the H.248.1 v3 module) and the arena that owns it.
 *
 * The model is the same whatever encoding a message came from. To read or
 * edit its fields, include <megaco/model.h>, generated when the library is
 * built, whose names are asn1c's with a megaco_ prefix (megaco_MegacoMessage_t;
 * docs/abi.md says what of it is stable), and use megaco_message_model().
 * Every node you add must come from the message's arena
 * (megaco_message_alloc and friends): the whole message is released by one
 * megaco_message_free().
 */
#ifndef MEGACO_MESSAGE_H
#define MEGACO_MESSAGE_H

#include <stddef.h>

#include "megaco/export.h"
#include "megaco/options.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef MEGACO_ASN1C_NAMES
/*
 * The library's own sources see the model through asn1c's headers, under
 * asn1c's names; the build checks that megaco/model.h spells the same
 * layout (tools/model_header.py).
 */
#define megaco_MegacoMessage MegacoMessage
#define megaco_OCTET_STRING OCTET_STRING
#endif
struct megaco_MegacoMessage;
struct megaco_OCTET_STRING;

typedef struct megaco_message megaco_message;

/** Which form the names in a model are in. */
typedef enum megaco_name_form {
	/**
	 * As BER/PER carry them: termination IDs as up to 8 octets plus
	 * wildcard octets, package/item names as 4 octets.
	 */
	MEGACO_NAMES_BINARY = 0,
	/**
	 * As the text encodings carry them: termination IDs like
	 * "11111111/00000000/$" or "A4444", names like "tdmc/gain", SDP as
	 * text lines.
	 */
	MEGACO_NAMES_TEXT = 1
} megaco_name_form;

/**
 * Creates an empty message (all fields zero) whose names are in the given
 * form, for building a message to encode.
 * Returns the handle, or NULL when out of memory.
 */
MEGACO_API megaco_message *megaco_message_new(megaco_name_form form, const megaco_options *opts);

/** Releases a message and everything in its arena. NULL is a no-op. */
MEGACO_API void megaco_message_free(megaco_message *msg);

/** Returns the model (megaco/model.h); never NULL for a valid handle. */
MEGACO_API struct megaco_MegacoMessage *megaco_message_model(megaco_message *msg);
/** Read-only variant of megaco_message_model(). */
MEGACO_API const struct megaco_MegacoMessage *megaco_message_model_const(const megaco_message *msg);

/** Returns the protocol version the message carries (Message.version). */
MEGACO_API int megaco_message_version(const megaco_message *msg);

/** Returns the form the message's names are in. */
MEGACO_API megaco_name_form megaco_message_name_form(const megaco_message *msg);

/**
 * Allocates size zeroed bytes from the message's arena; they live until
 * megaco_message_free(). Returns NULL when out of memory.
 */
MEGACO_API void *megaco_message_alloc(megaco_message *msg, size_t size);

/**
 * Sets an OCTET STRING field of the model (any megaco_OCTET_STRING_t, and
 * the types defined as one) to a copy of len bytes, allocated from the arena.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_message_set_octets(megaco_message *msg, struct megaco_OCTET_STRING *field,
                                         const void *bytes, size_t len);

/**
 * Appends element (allocated with megaco_message_alloc) to a list of the
 * model (a MEGACO_A_SEQUENCE_OF / MEGACO_A_SET_OF member, passed as
 * &field.list), growing the list in the arena.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_message_append(megaco_message *msg, void *list, void *element);

/** Bytes the message's arena has taken from the allocator (for tuning). */
MEGACO_API size_t megaco_message_memory(const megaco_message *msg);

#ifdef __cplusplus
}
#endif

#endif
