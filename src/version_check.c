/*
 * Version gate (see version_check.h): a pre-order walk over the model that
 * stops at the first element the message's version lacks. The versions come
 * from the one version table (version_table.h, generated from the v1, v2 and
 * v3 ASN.1 modules), which the schema generator put into the schema: each
 * member's, ENUMERATED value's and named bit's version, the version from
 * which an OPTIONAL member may be absent (EventsDescriptor.requestID is
 * mandatory in v1's ASN.1 module, not in its ABNF: binary encodings only),
 * and each type's newest (the latest version of anything a value of it can
 * hold). The walk itself is generated from the schema (tools/gen/
 * version_emit.c, megaco_version.inc): per type, only the members that can
 * matter, entered only when the message is older than their type's newest,
 * so names, octet strings, numbers and whole subtrees such as
 * LocalRemoteDescriptor (most of a message) are never read, and the first
 * element reported is the one a full walk would find.
 */
#include "version_check.h"

#include "BIT_STRING.h"
#include "asn_SET_OF.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

typedef struct {
	int version;
	int binary; /* the version's ASN.1 module's mandatory members too */
	megaco_error *err;
} vc_ctx;

/* Member mi of type ti is newer than the message. */
static int vc_element(const vc_ctx *c, unsigned ti, unsigned mi)
{
	return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
	                 "%s.%s is a v%d element; the message is version %d", schema_types[ti].name,
	                 schema_members[mi].name, schema_members[mi].version, c->version);
}

/* Member mi of type ti is absent, and the message's module has it mandatory. */
static int vc_missing(const vc_ctx *c, unsigned ti, unsigned mi)
{
	return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
	                 "%s.%s is missing: it is mandatory in version %d", schema_types[ti].name,
	                 schema_members[mi].name, c->version);
}

/* ENUMERATED value or named bit ei of type ti is newer than the message. */
static int vc_value(const vc_ctx *c, unsigned ti, unsigned ei)
{
	return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
	                 "%s %s is a v%d %s; the message is version %d", schema_types[ti].name,
	                 schema_enums[ei].name, schema_enums[ei].version,
	                 schema_types[ti].kind == SK_BITS ? "bit" : "value", c->version);
}

/* Is bit n of the BIT STRING at p set? */
static int vc_bit(const void *p, long long n)
{
	const BIT_STRING_t *bs = p;
	return (size_t)bs->size > (size_t)n / 8 && (bs->buf[n / 8] & (0x80 >> (n % 8)));
}

#include "megaco_version.inc"

int version_check_walk(const struct MegacoMessage *m, long version, int binary, megaco_error *err)
{
	/* Out of 1..3, or nothing is newer: the walk's checks assume an older message. */
	if (version < 1 || version >= schema_types[SCHEMA_ROOT].newest)
		return check_version(version, 0, err);
	vc_ctx c = { (int)version, binary, err };
	return vc_MegacoMessage(&c, m);
}
