/*
 * Internal glue shared by the codec modules: the message handle's layout,
 * option defaults and error reporting. Not installed.
 */
#ifndef MEGACO_INTERNAL_H
#define MEGACO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "arena.h"
#include "megaco/megaco.h"

struct MegacoMessage;

struct megaco_message {
	megaco_arena arena;            /* owns this struct and the whole model */
	struct MegacoMessage *model;
	megaco_name_form form;
	/*
	 * 1 while the model is as a decoder built it, which is sound by
	 * construction; megaco_message_model() (the mutable accessor) clears it,
	 * and the encoders then check the structure first (validate.c).
	 */
	int sound;
	/*
	 * A decoder skipped an alternative of an extensible CHOICE that the
	 * module does not know (ber_reader.h): the model is not sound.
	 */
	int unknown_extension;
};

/* Hard ceilings the options cannot raise (they bound our own stacks). */
#define MEGACO_DEPTH_CEILING 1024u

/*
 * Stack the DER and PER writers' recursion may use (only recursive types,
 * SF_RECURSIVE, nest deeper than the schema's ~20 levels). Optimised code takes
 * ~100 bytes a nesting level, so MEGACO_DEPTH_CEILING levels fit in 128 KiB.
 * Unoptimised or address-sanitized code takes several times that (clang -O0
 * with ASan needs 256 to 512 KiB for the ceiling), so such builds get 1 MiB,
 * still well inside a thread's default stack; otherwise a value the readers
 * accept at the ceiling could not be written.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEGACO_ASAN_BUILD 1
#endif
#endif
#if !defined(__OPTIMIZE__) || defined(__SANITIZE_ADDRESS__) || defined(MEGACO_ASAN_BUILD)
#define WRITER_STACK_BUDGET ((uintptr_t)1 << 20)
#else
#define WRITER_STACK_BUDGET ((uintptr_t)128 << 10)
#endif

/*
 * The options a call works with: opts when it has no limit to resolve, else
 * a copy (the defaults when opts is NULL) in *store with each limit's 0
 * resolved: max_message_size and max_token_length 0 become SIZE_MAX,
 * max_depth 0 (and any value over MEGACO_DEPTH_CEILING) the ceiling.
 * NULL when opts has another version;
 * public entry points then fail with options_bad_version().
 */
const megaco_options *options_resolve_copy(const megaco_options *opts, megaco_options *store);
/* Options that need no copy: this version's, every limit resolved already. */
static inline int options_ready(const megaco_options *opts)
{
	return opts && opts->version == MEGACO_OPTIONS_VERSION && opts->max_message_size &&
	       opts->max_token_length && opts->max_depth && opts->max_depth <= MEGACO_DEPTH_CEILING;
}
static inline const megaco_options *options_resolve(const megaco_options *opts,
                                                    megaco_options *store)
{
	/* In line: every codec call asks, and nearly every caller's options need no copy. */
	return options_ready(opts) ? opts : options_resolve_copy(opts, store);
}
int options_bad_version(const megaco_options *opts, megaco_error *err);
/* options_resolve(), the defaults for another version: for internal callers. */
const megaco_options *options_or_default(const megaco_options *opts, megaco_options *store);

/* The name form an encoding carries: text names in pretty and compact, binary IDs in BER and PER. */
static inline megaco_name_form enc_name_form(megaco_encoding enc)
{
	return enc == MEGACO_ENC_PRETTY || enc == MEGACO_ENC_COMPACT ? MEGACO_NAMES_TEXT
	                                                             : MEGACO_NAMES_BINARY;
}

/* Creates an empty message whose model is allocated but zeroed, its arena
 * capped at opts->max_model_memory (megaco_decode lifts the cap after). */
megaco_message *message_create(megaco_name_form form, const megaco_options *opts);

/*
 * Records an error in err (may be NULL) and returns code, so callers can
 * write `return set_error(err, MEGACO_ERR_TRUNCATED, off, "...", ...)`.
 */
int set_error(megaco_error *err, int code, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int set_error_text(megaco_error *err, int code, size_t offset, unsigned line,
                   unsigned column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/*
 * In line: every decode and encode clears the record, once or twice a
 * message. The fields and an empty message, not a memset of the whole 216
 * bytes, which gcc emits as `rep stos`, slow to start (perf's cpu-clock
 * samples put 2.3-2.7% of a compact decode in the memset).
 */
static inline void clear_error(megaco_error *err)
{
	if (!err)
		return;
	err->code = MEGACO_OK;
	err->offset = 0;
	err->line = 0;
	err->column = 0;
	err->message[0] = 0;
}
/*
 * An encoder's last check, of rc and the length len it wrote or needs: what
 * we write under options o, we read under them (max_message_size).
 */
int encode_size_check(int rc, size_t len, const megaco_options *o, megaco_error *err);
/* Puts "prefix: " before err's message (a path, an encoding), cutting its end. */
void error_prefix(megaco_error *err, const char *prefix);

/*
 * asn1c output callback target: writes while there is room and keeps
 * counting past the end, so a too-small buffer still learns the size needed.
 */
typedef struct out_sink {
	unsigned char *buf;
	size_t cap, len;
} out_sink;
int out_sink_write(const void *data, size_t size, void *sink);

/* Per-encoding entry points, dispatched by codec.c. */
int ber_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err);
int ber_encode_message(const megaco_message *msg, const megaco_options *o, unsigned char *buf,
                       size_t cap, size_t *out_len, megaco_error *err);
int per_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                       megaco_message **out, megaco_error *err);
/* aligned: 0 X.691 UNALIGNED (MEGACO_ENC_PER), 1 ALIGNED. */
int per_encode_message(const megaco_message *msg, const megaco_options *o, int aligned,
                       unsigned char *buf, size_t cap, size_t *out_len, megaco_error *err);
/* X.691 ALIGNED (MEGACO_ENC_APER), binary_codec.c. */
int aper_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err);

/* Text: one parser reads pretty and compact; compact != 0 picks the encoder style. */
int text_decode_message(const unsigned char *buf, size_t len, const megaco_options *o,
                        megaco_message **out, megaco_error *err);
/* o (resolved): what it writes, text_decode_message reads under o's token and depth limits. */
int text_encode_message(const megaco_message *msg, int compact, const megaco_options *o,
                        unsigned char *buf, size_t cap, size_t *out_len, megaco_error *err);

/*
 * Text scanner alone, for megaco-bench's scanner-only rows: runs the scanner
 * o->scanner selects over all of buf and throws the tokens away. Returns
 * MEGACO_OK or the scanner's error (TOKEN_TOO_LONG, UNTERMINATED,
 * BAD_CHARACTER, SYNTAX for a bad mId, NOMEM, TOO_LARGE); grammar errors are
 * not looked for. Defined in text_decode.c.
 */
int text_scan_only(const unsigned char *buf, size_t len, const megaco_options *o, megaco_error *err);

/* Version gate shared by every decoder: 1..3 are H.248.1 v1..v3. */
int check_version(long version, size_t offset, megaco_error *err);

#endif
