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
#include "text_kw_hash.h"

/* Text-only version rules, which no ASN.1 module shows. */
#define TEXT_SINCE_TID_LIST 3      /* termIDList in brackets: v3's ABNF */
#define TEXT_SINCE_EMERGENCY_OFF 2 /* EmergencyOffToken: v2's ABNF (v1's contextProperty lacks it) */

/*
 * The keyword (TEXT_KW_*) of each value of the ENUMERATED types and named
 * bits that text writes as keywords, indexed by the ASN.1 value (-2: a value
 * with no keyword), ending in -1: the encoders' spelling and, read backwards
 * by text_kw_value(), the decoder's value.
 */
static const short text_kw_modem_type[] = {TEXT_KW_V18, TEXT_KW_V22, TEXT_KW_V22BIS, TEXT_KW_V32,
	TEXT_KW_V32BIS, TEXT_KW_V34, TEXT_KW_V90, TEXT_KW_V91, TEXT_KW_SYNCH_ISDN, -1};
static const short text_kw_mux_type[] = {TEXT_KW_H221, TEXT_KW_H223, TEXT_KW_H226, TEXT_KW_V76,
	TEXT_KW_NX64K, -1};
static const short text_kw_stream_mode[] = {TEXT_KW_SENDONLY, TEXT_KW_RECVONLY, TEXT_KW_SENDRECV,
	TEXT_KW_INACTIVE, TEXT_KW_LOOPBACK, -1};
static const short text_kw_service_state[] = {TEXT_KW_TEST, TEXT_KW_OUT_OF_SVC, TEXT_KW_IN_SVC, -1};
static const short text_kw_signal_type[] = {TEXT_KW_BRIEF, TEXT_KW_ON_OFF, TEXT_KW_TIME_OUT, -1};
static const short text_kw_signal_direction[] = {TEXT_KW_INTERNAL, TEXT_KW_EXTERNAL, -2,
	TEXT_KW_BOTH, -1};
static const short text_kw_sc_method[] = {TEXT_KW_FAILOVER, TEXT_KW_FORCED, TEXT_KW_GRACEFUL,
	TEXT_KW_RESTART, TEXT_KW_DISCONNECTED, TEXT_KW_HAND_OFF, -1};
static const short text_kw_topology_direction[] = {TEXT_KW_BOTHWAY, TEXT_KW_ISOLATE,
	TEXT_KW_ONEWAY, -1};
static const short text_kw_topology_extension[] = {TEXT_KW_ONEWAY_EXTERNAL, TEXT_KW_ONEWAY_BOTH, -1};
static const short text_kw_notify_completion[] = {TEXT_KW_TIME_OUT, TEXT_KW_INTERRUPT_BY_EVENT,
	TEXT_KW_INTERRUPT_BY_NEW_SIGNALS_DESCR, TEXT_KW_OTHER_REASON, TEXT_KW_ITERATION, -1};
static const short text_kw_audit_token[] = {TEXT_KW_MUX, TEXT_KW_MODEM, TEXT_KW_MEDIA,
	TEXT_KW_EVENTS, TEXT_KW_SIGNALS, TEXT_KW_DIGIT_MAP, TEXT_KW_STATS, TEXT_KW_OBSERVED_EVENTS,
	TEXT_KW_PACKAGES, TEXT_KW_EVENT_BUFFER, -1};

/* The ASN.1 value whose keyword in table (above) is kw; -1 for none. */
static inline long text_kw_value(const short *table, long kw)
{
	for (long v = 0; table[v] != -1; v++)
		if (table[v] == kw)
			return v;
	return -1;
}

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

/* Whether named bit `bit` of bs (NULL: none) is set. */
static inline int text_bit_set(const BIT_STRING_t *bs, int bit)
{
	return bs && bs->size > bit / 8 && (bs->buf[bit / 8] & (0x80 >> (bit % 8)));
}

/*
 * auditItem: "DigitMapToken and PackagesToken are not allowed in
 * AuditCapabilities command" (tokens or individual descriptors).
 */
static inline int text_audits_dm_or_packages(const AuditDescriptor_t *ad)
{
	if (text_bit_set(ad->auditToken, AuditDescriptor__auditToken_digitMapToken) ||
	    text_bit_set(ad->auditToken, AuditDescriptor__auditToken_packagesToken))
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
