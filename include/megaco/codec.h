/*
 * Decoding bytes into a megaco_message and encoding one into bytes, in any of
 * the five encodings. Transcoding is decode + encode.
 */
#ifndef MEGACO_CODEC_H
#define MEGACO_CODEC_H

#include <stddef.h>

#include "megaco/error.h"
#include "megaco/export.h"
#include "megaco/message.h"
#include "megaco/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum megaco_encoding {
	MEGACO_ENC_AUTO = 0,  /**< decode only: detect with megaco_detect() */
	MEGACO_ENC_PRETTY,    /**< text, long keywords, indented (RFC 3525 Annex B) */
	MEGACO_ENC_COMPACT,   /**< text, short keywords, no optional white space */
	MEGACO_ENC_BER,       /**< ASN.1 BER (Annex A); encoder emits DER */
	MEGACO_ENC_PER,       /**< ASN.1 PER, X.691 UNALIGNED */
	MEGACO_ENC_APER       /**< ASN.1 PER, X.691 ALIGNED: Erlang/OTP megaco's "per" (docs/aper.md) */
} megaco_encoding;

/** "pretty", "compact", "ber", "per", "aper" or "auto"; NULL for unknown values. */
MEGACO_API const char *megaco_encoding_name(megaco_encoding enc);
/** Parses the names above (case-insensitive). Returns MEGACO_OK or MEGACO_ERR_INVALID_ARGUMENT. */
MEGACO_API int megaco_encoding_from_name(const char *name, megaco_encoding *out);

/**
 * Guesses the encoding and protocol version of a buffer without decoding
 * it: text starts (after white space and comments) with MEGACO/ or !/ (or an
 * authentication header); BER with a SEQUENCE tag whose length fits the
 * buffer; PER with the header bits of a message (first octet 0x00 or 0x01,
 * or an authHeader followed by version 1..3). The two PER variants share
 * those bits: a header that reads, up to its first transaction, as ALIGNED
 * PER (padding bits zero, lengths on octet boundaries, octets inside the
 * buffer) is reported as MEGACO_ENC_APER, any other as MEGACO_ENC_PER; a
 * guess, as some UNALIGNED headers read that way too. Text with a long "MEGACO"
 * keyword is reported as pretty, with "!" as compact (one parser reads
 * both). Anything else whose first octets (up to 8) are printable ASCII or
 * line white space is reported as pretty text with version 0, so that the
 * text decoder reports its bad header with line and column.
 * *version is set when it can be read (0 otherwise); either out-pointer may
 * be NULL, and both are left untouched on failure.
 * Returns MEGACO_OK, MEGACO_ERR_INVALID_ARGUMENT, MEGACO_ERR_TRUNCATED for
 * an empty buffer, or MEGACO_ERR_NOT_MEGACO for bytes that are none of these.
 */
MEGACO_API int megaco_detect(const void *buf, size_t len, megaco_encoding *enc, int *version);

/**
 * Decodes one complete message. On success *out receives a new message
 * (release with megaco_message_free); on failure *out is left untouched and
 * err (if not NULL) says what and where.
 * Returns MEGACO_OK or a negative megaco_status: INVALID_ARGUMENT, NOMEM,
 * UNSUPPORTED, TOO_LARGE, TOO_DEEP, TRUNCATED, TRAILING_DATA, BAD_LENGTH,
 * BAD_TAG, MALFORMED, VERSION, and for text SYNTAX, TOKEN_TOO_LONG,
 * UNTERMINATED, BAD_CHARACTER, NUMBER_RANGE; with MEGACO_ENC_AUTO also
 * NOT_MEGACO (see megaco_detect).
 */
MEGACO_API int megaco_decode(megaco_encoding enc, const void *buf, size_t len,
                             const megaco_options *opts, megaco_message **out,
                             megaco_error *err);

/**
 * Encodes msg into the caller's buffer. *out_len receives the encoded size,
 * or, with MEGACO_ERR_BUFFER_TOO_SMALL, the size needed when it is known
 * (0 otherwise). Output is not NUL-terminated. The encoders use all of
 * buf[0..cap) as scratch space: after the call, bytes past the encoded
 * output (past cap: never touched) hold unspecified values.
 * Returns MEGACO_OK or INVALID_ARGUMENT, NOMEM, UNSUPPORTED, CONSTRAINT,
 * VERSION, VERSION_MISMATCH, UNKNOWN_NAME, BUFFER_TOO_SMALL.
 */
MEGACO_API int megaco_encode(const megaco_message *msg, megaco_encoding enc,
                             const megaco_options *opts, void *buf, size_t cap,
                             size_t *out_len, megaco_error *err);

/**
 * Encodes msg into a new buffer from the options' allocator (release with
 * megaco_buffer_free and the same options). Errors as megaco_encode, minus
 * BUFFER_TOO_SMALL.
 */
MEGACO_API int megaco_encode_alloc(const megaco_message *msg, megaco_encoding enc,
                                   const megaco_options *opts, void **out,
                                   size_t *out_len, megaco_error *err);

/** Releases a buffer from megaco_encode_alloc. NULL is a no-op. */
MEGACO_API void megaco_buffer_free(void *buf, const megaco_options *opts);

/**
 * Checks a model built or edited by the application against everything the
 * encoders check, without writing anything: the model's structure (every
 * CHOICE holds one of its alternatives, no NULL list elements, no NULL
 * buffer with a nonzero size, every required element present, no nesting
 * deeper than 1024 levels, so no cycles), what the message's version allows,
 * and what each encoding can express (PER's two variants express the same) (names mappable with the
 * options' registry and termination-ID layout included). version is the
 * protocol version to check for, or 0 for the message's own (a check for
 * another version does not change the message). Every encoder and
 * megaco_message_convert_names make the same structural checks, so no model
 * crashes them, however it was built.
 * Returns MEGACO_OK or INVALID_ARGUMENT (NULL message), VERSION, CONSTRAINT,
 * TOO_DEEP, VERSION_MISMATCH, UNKNOWN_NAME, UNSUPPORTED, NOMEM; err's message
 * names the encoding that refuses and the element's path.
 */
MEGACO_API int megaco_message_validate(const megaco_message *msg, int version,
                                       const megaco_options *opts, megaco_error *err);

/**
 * The version string of the library the program runs with, e.g. "0.1.0";
 * MEGACO_VERSION_STRING (megaco/version.h) is the one it was compiled
 * against. Returns a static string.
 */
MEGACO_API const char *megaco_version(void);

#ifdef __cplusplus
}
#endif

#endif
