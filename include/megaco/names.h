/*
 * Transcoding between the two name forms of a message (see docs/model.md and
 * docs/transcoding.md): termination-ID layouts, the package/item registry,
 * and the in-place conversion of a whole message.
 *
 * The binary encodings (BER, PER) carry termination IDs as octets plus
 * wildcard octets and package items as numbers; the text encodings carry
 * words. megaco_encode() converts on the way when a message's names are in
 * the other form, so most applications only need these functions to
 * configure a non-default layout or to register vendor packages.
 */
#ifndef MEGACO_NAMES_H
#define MEGACO_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "megaco/error.h"
#include "megaco/export.h"
#include "megaco/message.h"
#include "megaco/options.h"
#include "megaco/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Termination-ID layouts                                                    */
/* ------------------------------------------------------------------------ */

/** Longest binary termination ID (RFC 3525 A.1): 8 octets. */
#define MEGACO_TID_MAX_OCTETS 8
/** Most levels a layout may have (one bit each). */
#define MEGACO_TID_MAX_LEVELS 64

/**
 * Creates a layout: nlevels levels of bits[i] bits each, written in text as
 * '0'/'1' strings separated by '/', most significant level first. Each level
 * has 1..64 bits; the total must be a multiple of 8 between 8 and 64 (the
 * binary ID is total/8 octets). The default layout (options.tid_layout NULL)
 * is {8, 8, 8}, as in Erlang megaco. The layout is allocated from al (NULL:
 * malloc/free), which must outlive it; release it with
 * megaco_tid_layout_free() once no options refer to it.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT (NULL pointer, bad level
 * sizes) or MEGACO_ERR_NOMEM; *out is untouched on failure.
 */
MEGACO_API int megaco_tid_layout_new(const unsigned *bits, size_t nlevels,
                                     const megaco_allocator *al, megaco_tid_layout **out);

/** Releases a layout. NULL is a no-op. */
MEGACO_API void megaco_tid_layout_free(megaco_tid_layout *layout);

/**
 * Maps a text termination ID ("11111111/00000000/$", "ROOT", "*") to binary:
 * id receives *id_len octets (at most MEGACO_TID_MAX_OCTETS), wild receives
 * *nwild wildcard octets (RFC 3525 A.1; at most wild_cap). layout NULL means
 * the default layout.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_UNKNOWN_NAME
 * (the text does not fit the layout: not '0'/'1' digits, wrong level width,
 * too many levels, or more wildcards than wild_cap).
 */
MEGACO_API int megaco_tid_to_binary(const megaco_tid_layout *layout, const char *text,
                                    size_t len, uint8_t id[MEGACO_TID_MAX_OCTETS],
                                    size_t *id_len, uint8_t *wild, size_t wild_cap,
                                    size_t *nwild);

/**
 * Maps a binary termination ID back to text. Writes at most cap bytes and a
 * NUL when there is room; *out_len receives the text length (without NUL).
 * Only IDs that map back to exactly the same octets are accepted (id length
 * equal to the layout's, wildcarded bits zero, wildcards in canonical order).
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT, MEGACO_ERR_UNKNOWN_NAME or
 * MEGACO_ERR_BUFFER_TOO_SMALL (*out_len tells the need).
 */
MEGACO_API int megaco_tid_to_text(const megaco_tid_layout *layout, const uint8_t *id,
                                  size_t id_len, const uint8_t *wild, size_t nwild, char *buf,
                                  size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------ */
/* Package registry                                                          */
/* ------------------------------------------------------------------------ */

/** What a package item is; parameters belong to events and signals. */
typedef enum megaco_item_kind {
	MEGACO_ITEM_PROPERTY = 0,
	MEGACO_ITEM_EVENT = 1,
	MEGACO_ITEM_SIGNAL = 2,
	MEGACO_ITEM_STATISTIC = 3
} megaco_item_kind;

/** megaco_registry_new() flag: start empty instead of with the base packages. */
#define MEGACO_REGISTRY_EMPTY 1u

/**
 * Creates a registry. Without MEGACO_REGISTRY_EMPTY it starts with the
 * built-in packages of data/packages.yaml (RFC 3525 Annex E base packages,
 * the Annex C IP and SDP tags of the native pseudo-package 0x0000), which
 * are const tables compiled into the library: creating a registry allocates
 * only its handle, and a built-in package is copied only when something is
 * added to it. Add vendor packages with megaco_registry_add_*() or, when
 * MEGACO_HAVE_YAML, megaco_registry_load_yaml*(). al NULL means
 * malloc/free; otherwise every byte the registry holds comes from *al,
 * which must outlive the registry. Lookups never allocate.
 * A registry must not be changed while messages are converted with it.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_registry_new(unsigned flags, const megaco_allocator *al,
                                   megaco_registry **out);

/** Releases a registry. NULL is a no-op. */
MEGACO_API void megaco_registry_free(megaco_registry *reg);

/**
 * The built-in registry used when options.registry is NULL: the const
 * tables themselves (shared, read-only, never allocated; nothing can be
 * added to it). Returns it; never NULL.
 */
MEGACO_API const megaco_registry *megaco_registry_default(void);

#if MEGACO_HAVE_YAML /* built with libyaml (CMake option MEGACO_YAML) */
/**
 * Adds the packages of a YAML document in the format of data/packages.yaml
 * (see docs/transcoding.md). A package already present with the same name
 * and ID is extended; clashing names or IDs are errors. On error the
 * packages added before the failing entry stay. err (may be NULL) gets the
 * line and column. The registry's allocator holds what is added; libyaml's
 * parser, which has no allocator hook, uses malloc while it reads and frees
 * all of it before this returns.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT, MEGACO_ERR_NOMEM or
 * MEGACO_ERR_SYNTAX (not YAML, or not the expected structure).
 */
MEGACO_API int megaco_registry_load_yaml_buffer(megaco_registry *reg, const void *buf,
                                                size_t len, megaco_error *err);

/** As megaco_registry_load_yaml_buffer() for a file; also INVALID_ARGUMENT when unreadable. */
MEGACO_API int megaco_registry_load_yaml(megaco_registry *reg, const char *path,
                                         megaco_error *err);
#endif

/**
 * Adds a package (or finds it when name and ID match an existing one).
 * name is a text NAME (ALPHA *(ALPHA / DIGIT / "_"), at most 64 chars), or
 * "" for ID 0x0000 only; 0xFFFF is the wildcard and cannot be registered;
 * names of the fallback form xHHHH are reserved. extends names a registered
 * package whose items this one inherits, or NULL.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_registry_add_package(megaco_registry *reg, const char *name, uint16_t id,
                                           unsigned version, const char *extends);

/**
 * Adds an item (property, event, signal or statistic) to a registered
 * package. Name rules and reserved IDs as for packages.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_registry_add_item(megaco_registry *reg, const char *package,
                                        megaco_item_kind kind, const char *name, uint16_t id);

/**
 * Adds a parameter to a registered event or signal (parameter IDs are
 * scoped by their item).
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or MEGACO_ERR_NOMEM.
 */
MEGACO_API int megaco_registry_add_parameter(megaco_registry *reg, const char *package,
                                             megaco_item_kind kind, const char *item,
                                             const char *name, uint16_t id);

/**
 * Maps a text item name to its 4 octets: "tdmc/gain"; a wildcard item
 * ("al" slash star) or both wildcards (star slash star); "v" for items of
 * the native package 0x0000; or the fallback form "x000d/x000a". reg NULL means
 * the default registry. Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or
 * MEGACO_ERR_UNKNOWN_NAME.
 */
MEGACO_API int megaco_registry_name_to_id(const megaco_registry *reg, megaco_item_kind kind,
                                          const char *name, size_t len, uint8_t out[4]);

/**
 * Maps 4 octets to a text item name; IDs the registry does not know print
 * in the fallback form (package "x%04x", item "x%04x") that maps back to
 * the same octets. Writes at most cap bytes plus a NUL when there is room.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT or
 * MEGACO_ERR_BUFFER_TOO_SMALL (*out_len tells the need).
 */
MEGACO_API int megaco_registry_id_to_name(const megaco_registry *reg, megaco_item_kind kind,
                                          const uint8_t id[4], char *buf, size_t cap,
                                          size_t *out_len);

/* ------------------------------------------------------------------------ */
/* Whole messages                                                            */
/* ------------------------------------------------------------------------ */

/**
 * Converts every name of msg to the form `to` and sets the message's form.
 * The work is done on a structural copy of the model in the message's arena
 * that replaces the model only on success, so on failure the message is
 * unchanged (the copy's memory is released with the message). Converting to
 * the form the message already has is a no-op. Uses opts->tid_layout and
 * opts->registry (NULL: defaults). See docs/transcoding.md for the rules.
 * Pointers into the old model stay valid until megaco_message_free() but
 * no longer belong to the message's model. err names the first name that
 * did not map, with a path such as
 * "transactions[0].transactionRequest.actions[0].commandRequests[1]...".
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT, MEGACO_ERR_NOMEM or
 * MEGACO_ERR_UNKNOWN_NAME.
 */
MEGACO_API int megaco_message_convert_names(megaco_message *msg, megaco_name_form to,
                                            const megaco_options *opts, megaco_error *err);

#ifdef __cplusplus
}
#endif

#endif
