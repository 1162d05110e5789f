/*
 * Facts about the model that both text directions apply: the decoder
 * (text_build.c) refuses what breaks them and the encoder (text_encode.c)
 * refuses to write a model that would be refused when read back. One copy
 * each, so the two cannot drift apart.
 */
#ifndef MEGACO_TEXT_MODEL_RULES_H
#define MEGACO_TEXT_MODEL_RULES_H

#include "AuditDescriptor.h"
#include "OCTET_STRING.h"

/* Text-only version rules, which no ASN.1 module shows. */
#define TEXT_SINCE_TID_LIST 3      /* termIDList in brackets: v3's ABNF */
#define TEXT_SINCE_EMERGENCY_OFF 2 /* EmergencyOffToken: v2's ABNF (v1's contextProperty lacks it) */

/* Names compare without case (the ABNF's are case-insensitive). */
static inline int text_same_name(const OCTET_STRING_t *a, const OCTET_STRING_t *b)
{
	if (a->size != b->size)
		return 0;
	for (int k = 0; k < a->size; k++) {
		unsigned x = a->buf[k], y = b->buf[k];
		x = x >= 'A' && x <= 'Z' ? x + 32 : x;
		y = y >= 'A' && y <= 'Z' ? y + 32 : y;
		if (x != y)
			return 0;
	}
	return 1;
}

/*
 * serviceChangeProfile = ProfileToken EQUAL NAME SLASH Version, with NAME =
 * ALPHA *63(ALPHA / DIGIT / "_") and Version = 1*2(DIGIT): the text the
 * ASN.1 profileName holds (its 67 octets are 64, "/" and 2). Anything else
 * has no text form; a bare word could even be read as a keyword.
 */
static inline int text_profile_ok(const uint8_t *p, size_t n)
{
	if (!n || (unsigned)((p[0] | 0x20) - 'a') > 'z' - 'a')
		return 0;
	size_t i = 1;
	for (; i < n && p[i] != '/'; i++)
		if ((unsigned)((p[i] | 0x20) - 'a') > 'z' - 'a' && (unsigned)(p[i] - '0') > 9 &&
		    p[i] != '_')
			return 0;
	if (i > 64 || n - i < 2 || n - i > 3)
		return 0;
	for (i++; i < n; i++)
		if ((unsigned)(p[i] - '0') > 9)
			return 0;
	return 1;
}

/* domainName = "<" (ALPHA / DIGIT) *63(ALPHA / DIGIT / "-" / ".") ">": p[0..n) the inside. */
static inline int text_domain_name_ok(const uint8_t *p, size_t n)
{
	if (!n || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned)((p[i] | 0x20) - 'a') > 'z' - 'a' && (unsigned)(p[i] - '0') > 9 &&
		    (!i || (p[i] != '-' && p[i] != '.')))
			return 0;
	return 1;
}

/*
 * auditItem: "DigitMapToken and PackagesToken are not allowed in
 * AuditCapabilities command" (tokens or individual descriptors).
 */
static inline int text_audits_dm_or_packages(const AuditDescriptor_t *ad)
{
	const BIT_STRING_t *bs = ad->auditToken;
	static const int bits[] = { AuditDescriptor__auditToken_digitMapToken,
		                    AuditDescriptor__auditToken_packagesToken };
	for (int i = 0; bs && i < 2; i++)
		if (bs->size > bits[i] / 8 && (bs->buf[bits[i] / 8] & (0x80 >> (bits[i] % 8))))
			return 1;
	for (int i = 0; ad->auditPropertyToken && i < ad->auditPropertyToken->list.count; i++) {
		int pr = ad->auditPropertyToken->list.array[i]->present;
		if (pr == IndAuditParameter_PR_indAudDigitMapDescriptor ||
		    pr == IndAuditParameter_PR_indAudPackagesDescriptor)
			return 1;
	}
	return 0;
}

#endif
