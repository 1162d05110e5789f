/*
 * Name-form conversion of whole models (name_convert.c): used by
 * megaco_message_convert_names() and by codec.c when a message is encoded
 * to an encoding whose name form differs from the message's.
 */
#ifndef MEGACO_NAME_CONVERT_H
#define MEGACO_NAME_CONVERT_H

#include "internal.h"

/*
 * Encodes msg (names in the other form than enc needs) by converting a
 * structural copy in a scratch arena; msg itself is never modified.
 */
int names_encode_converted(const megaco_message *msg, megaco_encoding enc,
                           const megaco_options *o, unsigned char *buf, size_t cap,
                           size_t *out_len, megaco_error *err);

#endif
