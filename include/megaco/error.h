/*
 * libmegaco error codes and the detail record every codec call can fill.
 */
#ifndef MEGACO_ERROR_H
#define MEGACO_ERROR_H

#include <stddef.h>

#include "megaco/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes: 0 is success, every error is negative. */
typedef enum megaco_status {
	MEGACO_OK = 0,
	MEGACO_ERR_INVALID_ARGUMENT = -1, /**< NULL pointer, unknown enum value */
	MEGACO_ERR_NOMEM = -2,            /**< the allocator returned NULL */
	MEGACO_ERR_UNSUPPORTED = -3,      /**< codec or feature not available in this build */
	MEGACO_ERR_TOO_LARGE = -4,        /**< input longer than options.max_message_size, or its model over options.max_model_memory */
	MEGACO_ERR_TOO_DEEP = -5,         /**< nesting deeper than options.max_depth */
	MEGACO_ERR_TRUNCATED = -6,        /**< input ends inside the message */
	MEGACO_ERR_TRAILING_DATA = -7,    /**< bytes after a complete message */
	MEGACO_ERR_BAD_LENGTH = -8,       /**< a BER length that cannot be right (overflows its container, too many octets) */
	MEGACO_ERR_BAD_TAG = -9,          /**< a BER tag that is malformed */
	MEGACO_ERR_MALFORMED = -10,       /**< binary input that does not fit the H.248.1 ASN.1 module */
	MEGACO_ERR_VERSION = -11,         /**< protocol version outside 1..3 */
	MEGACO_ERR_SYNTAX = -12,          /**< text that does not fit the ABNF (line and column are set) */
	MEGACO_ERR_TOKEN_TOO_LONG = -13,  /**< a text token longer than options.max_token_length */
	MEGACO_ERR_UNTERMINATED = -14,    /**< text quoted string or octet string not closed */
	MEGACO_ERR_BAD_CHARACTER = -15,   /**< NUL or other byte the text encoding forbids here */
	MEGACO_ERR_NUMBER_RANGE = -16,    /**< a number outside its range (transaction ID > 2^32-1, ...) */
	MEGACO_ERR_CONSTRAINT = -17,      /**< the model breaks a constraint of the module (encode) */
	MEGACO_ERR_VERSION_MISMATCH = -18,/**< element not allowed in the message's protocol version */
	MEGACO_ERR_BUFFER_TOO_SMALL = -19,/**< caller's output buffer too small; *out_len tells the need */
	MEGACO_ERR_UNKNOWN_NAME = -20,    /**< a name with no mapping to the target form (package, ID) */
	MEGACO_ERR_INTERNAL = -21,        /**< a bug in libmegaco: please report */
	MEGACO_ERR_NOT_MEGACO = -22       /**< bytes that are neither text nor a plausible BER/PER message (auto-detection) */
} megaco_status;

/**
 * Detail of the last error of one call; fill-in only, never allocated. A
 * call that succeeds leaves code MEGACO_OK, offset, line and column 0 and an
 * empty message (the bytes after its NUL are unspecified).
 */
typedef struct megaco_error {
	int code;           /**< a megaco_status */
	size_t offset;      /**< byte offset in the input (decode) where the error was seen */
	unsigned line;      /**< text input: 1-based line, 0 for binary */
	unsigned column;    /**< text input: 1-based column in bytes, 0 for binary */
	char message[192];  /**< short human-readable text, NUL-terminated, no trailing newline */
} megaco_error;

/**
 * Describes a status code.
 * Returns a static string; unknown codes give "unknown error".
 */
MEGACO_API const char *megaco_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
