/*
 * Protocol-version gate for encoding: the model is the H.248.1 v3 module, so
 * it can hold elements a v1 or v2 message must not carry. Every encoder's
 * caller (codec.c) runs this before writing anything.
 */
#ifndef MEGACO_VERSION_CHECK_H
#define MEGACO_VERSION_CHECK_H

#include "megaco/error.h"

struct MegacoMessage;

/*
 * Checks that m (a sound model: model_check()'s, no NULL list element) uses
 * only elements that exist in protocol version `version`
 * (normally m's own Message.version) and, when binary, has every member that
 * version's ASN.1 module makes mandatory (v1: EventsDescriptor.requestID;
 * text follows the version's ABNF there, which does not). Returns MEGACO_OK;
 * MEGACO_ERR_VERSION_MISMATCH naming the first offending element (as
 * "Type.member") in err; or MEGACO_ERR_VERSION for a version outside 1..3.
 */
int version_check_walk(const struct MegacoMessage *m, long version, int binary, megaco_error *err);

/* v3, the model's own version, holds nothing newer: answered without a call. */
static inline int version_check_needed(long version) { return version != 3; }
static inline int version_check_model(const struct MegacoMessage *m, long version, int binary,
                                      megaco_error *err)
{
	return version_check_needed(version) ? version_check_walk(m, version, binary, err) : MEGACO_OK;
}

#endif
