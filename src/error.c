/* Error strings and the detail record. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *megaco_strerror(int code)
{
	switch ((megaco_status)code) {
	case MEGACO_OK: return "success";
	case MEGACO_ERR_INVALID_ARGUMENT: return "invalid argument";
	case MEGACO_ERR_NOMEM: return "out of memory";
	case MEGACO_ERR_UNSUPPORTED: return "not supported";
	case MEGACO_ERR_TOO_LARGE: return "message too large";
	case MEGACO_ERR_TOO_DEEP: return "message nested too deeply";
	case MEGACO_ERR_TRUNCATED: return "message truncated";
	case MEGACO_ERR_TRAILING_DATA: return "data after the end of the message";
	case MEGACO_ERR_BAD_LENGTH: return "invalid length";
	case MEGACO_ERR_BAD_TAG: return "invalid tag";
	case MEGACO_ERR_MALFORMED: return "malformed message";
	case MEGACO_ERR_VERSION: return "unsupported protocol version";
	case MEGACO_ERR_SYNTAX: return "syntax error";
	case MEGACO_ERR_TOKEN_TOO_LONG: return "token too long";
	case MEGACO_ERR_UNTERMINATED: return "unterminated string";
	case MEGACO_ERR_BAD_CHARACTER: return "invalid character";
	case MEGACO_ERR_NUMBER_RANGE: return "number out of range";
	case MEGACO_ERR_CONSTRAINT: return "value violates a constraint";
	case MEGACO_ERR_VERSION_MISMATCH: return "element not allowed in this protocol version";
	case MEGACO_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
	case MEGACO_ERR_UNKNOWN_NAME: return "name has no mapping";
	case MEGACO_ERR_INTERNAL: return "internal error";
	case MEGACO_ERR_NOT_MEGACO: return "not a Megaco message";
	}
	return "unknown error";
}

static int fill(megaco_error *err, int code, size_t offset, unsigned line, unsigned column,
                const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->offset = offset;
	err->line = line;
	err->column = column;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	return code;
}

int set_error(megaco_error *err, int code, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fill(err, code, offset, 0, 0, fmt, ap);
	va_end(ap);
	return code;
}

int set_error_text(megaco_error *err, int code, size_t offset, unsigned line, unsigned column,
                   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fill(err, code, offset, line, column, fmt, ap);
	va_end(ap);
	return code;
}

void error_prefix(megaco_error *err, const char *prefix)
{
	if (!err)
		return;
	char was[sizeof err->message];
	memcpy(was, err->message, sizeof was);
	was[sizeof was - 1] = 0;
	if (snprintf(err->message, sizeof err->message, "%s: %s", prefix, was) < 0)
		memcpy(err->message, was, sizeof was);
}

int check_version(long version, size_t offset, megaco_error *err)
{
	if (version < 1 || version > 3)
		return set_error(err, MEGACO_ERR_VERSION, offset,
		                 "protocol version %ld: only 1, 2 and 3 are supported", version);
	return MEGACO_OK;
}
