/*
 * Per-call options shared by every libmegaco entry point. Initialise with
 * megaco_options_init(); a NULL options pointer means the defaults.
 */
#ifndef MEGACO_OPTIONS_H
#define MEGACO_OPTIONS_H

#include <stddef.h>

#include "megaco/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Memory source for message arenas and allocated output buffers. */
typedef struct megaco_allocator {
	void *(*alloc)(void *user_data, size_t size);
	void (*free)(void *user_data, void *ptr);
	void *user_data;
} megaco_allocator;

/** Which generated flex scanner the text decoder uses. */
typedef enum megaco_scanner {
	/** Reentrant scanner: no shared state, any number of threads at once. */
	MEGACO_SCANNER_REENTRANT = 0,
	/**
	 * flex's classic global-state scanner. libmegaco serialises its use with
	 * one internal mutex, so it is safe but decodes one message at a time
	 * process-wide. Kept for comparison (megaco-bench).
	 */
	MEGACO_SCANNER_NON_REENTRANT = 1
} megaco_scanner;

/**
 * Which implementation of the binary codecs (BER/DER and PER) a call uses.
 * Text is libmegaco's own either way. There is no fallback between them:
 * each engine handles every message on its own or fails it.
 */
typedef enum megaco_engine {
	/** libmegaco's codecs, generated from the schema at build time (default). */
	MEGACO_ENGINE_FAST = 0,
	/**
	 * asn1c's own generated codecs: ber_decode(), der_encode() after
	 * asn_check_constraints(), uper_decode_complete(), uper_encode(). For
	 * comparison (megaco-bench, megaco-conv --engine) and as the tests'
	 * differential oracle. Its DER is not canonical for named-bit lists
	 * (trailing zero bits are kept), and its errors carry less detail.
	 */
	MEGACO_ENGINE_ASN1C = 1
} megaco_engine;

/** Termination-ID layout for text <-> binary mapping (transcoding). */
typedef struct megaco_tid_layout megaco_tid_layout;
/** Package/item name registry for text <-> binary mapping (transcoding). */
typedef struct megaco_registry megaco_registry;

#define MEGACO_OPTIONS_VERSION 1

typedef struct megaco_options {
	/** Set by megaco_options_init: MEGACO_OPTIONS_VERSION. Any other value
	 * makes every call given these options fail with INVALID_ARGUMENT. */
	unsigned version;
	/** Longest message in bytes a decode reads and an encode writes (both
	 * MEGACO_ERR_TOO_LARGE beyond); default 1 MiB; 0: no limit. */
	size_t max_message_size;
	/** Nesting limit (BER TLVs, PER and text nesting); default 64; 0, or
	 * anything over 1024: 1024, the library's ceiling. */
	unsigned max_depth;
	/** Text token limit in bytes; default 64 KiB; 0: no limit. */
	size_t max_token_length;
	megaco_scanner scanner;        /**< default MEGACO_SCANNER_REENTRANT */
	const megaco_tid_layout *tid_layout; /**< NULL: 8/8/8 bits, as Erlang megaco */
	const megaco_registry *registry;     /**< NULL: the RFC 3525 Annex E base packages */
	const megaco_allocator *allocator;   /**< NULL: malloc/free */
	megaco_engine engine;          /**< binary codecs; default MEGACO_ENGINE_FAST */
	/**
	 * Cap on the memory one decode's model may take, in bytes (what
	 * megaco_message_memory() reports, the message handle included): a
	 * decode that would need more stops with MEGACO_ERR_TOO_LARGE, having
	 * given back all it took. Crafted input makes up to ~150 model bytes per
	 * input byte, ordinary traffic 16-31 (docs/memory.md), so without a cap
	 * a 1 MiB message can take 150 MB. Default 16 MiB: ordinary messages up
	 * to ~512 KiB in any encoding. 0: no cap (the allocator's limits only).
	 * Applies while decoding only; the message may grow past it afterwards
	 * (megaco_message_alloc, megaco_message_convert_names).
	 */
	size_t max_model_memory;
} megaco_options;

/** Fills *opts with the defaults above. */
MEGACO_API void megaco_options_init(megaco_options *opts);

#ifdef __cplusplus
}
#endif

#endif
