/*
 * Version gate (see version_check.h): one pre-order walk over the model,
 * driven by the const schema (schema.h), that stops at the first element
 * the message's version lacks. The versions come from the one version table
 * (version_table.h, generated from the v1, v2 and v3 ASN.1 modules), which
 * the schema generator put into the schema: each member's, ENUMERATED
 * value's and named bit's version, the version from which an OPTIONAL member
 * may be absent (EventsDescriptor.requestID is mandatory in v1's ASN.1 module,
 * not in its ABNF: binary encodings only), and each
 * type's newest (the latest version of anything a value of it can hold). The
 * walk skips every value whose type's newest is not above the message's
 * version (names, octet strings, numbers, whole subtrees such as
 * LocalRemoteDescriptor: most of a message), so the first element reported
 * is the one a full walk would find.
 */
#include "version_check.h"

#include "asn_SET_OF.h"
#include "BIT_STRING.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

typedef struct {
	int version;
	int binary; /* the version's ASN.1 module's mandatory members too */
	megaco_error *err;
} check_ctx;

static int check(const check_ctx *c, unsigned ti, const void *p);

/* A member of t in the value p, present or not: its own version, then its value. */
static int check_member(const check_ctx *c, const schema_type *t, const schema_member *m,
                        const void *p)
{
	if (m->version <= c->version && m->opt_since <= c->version &&
	    schema_types[m->type].newest <= c->version)
		return MEGACO_OK;
	const void *v = schema_member_value(m, p);
	if (!v)
		return m->opt_since > c->version && c->binary
		               ? set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
		                           "%s.%s is missing: it is mandatory in version %d", t->name,
		                           m->name, c->version)
		               : MEGACO_OK;
	if (m->version > c->version)
		return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
		                 "%s.%s is a v%d element; the message is version %d", t->name, m->name,
		                 m->version, c->version);
	return check(c, m->type, v);
}

static int check(const check_ctx *c, unsigned ti, const void *p)
{
	const schema_type *t = &schema_types[ti];
	const schema_enum *e = &schema_enums[t->enum_first];
	int rc;
	switch (t->kind) {
	case SK_SEQUENCE:
		for (unsigned i = 0; i < t->count; i++)
			if ((rc = check_member(c, t, &schema_members[t->first + i], p)) != MEGACO_OK)
				return rc;
		break;
	case SK_CHOICE: {
		int present = schema_present_get((const char *)p + t->pres_offset, t->pres_size);
		if (present > 0 && present <= t->count)
			return check_member(c, t, &schema_members[t->first + present - 1], p);
		break;
	}
	case SK_SEQUENCE_OF:
	case SK_SET_OF: {
		unsigned item = schema_members[t->first].type;
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(p);
		for (int i = 0; i < list->count; i++)
			if (list->array[i] && (rc = check(c, item, list->array[i])) != MEGACO_OK)
				return rc;
		break;
	}
	case SK_ENUM:
		for (unsigned i = 0; i < t->enum_count; i++)
			if (e[i].value == *(const long *)p && e[i].version > c->version)
				return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
				                 "%s %s is a v%d value; the message is version %d", t->name,
				                 e[i].name, e[i].version, c->version);
		break;
	case SK_BITS: {
		const BIT_STRING_t *bs = p;
		for (unsigned i = 0; i < t->enum_count; i++) {
			size_t bit = (size_t)e[i].value;
			if (e[i].version > c->version && (size_t)bs->size > bit / 8 &&
			    (bs->buf[bit / 8] & (0x80 >> (bit % 8))))
				return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
				                 "%s %s is a v%d bit; the message is version %d", t->name,
				                 e[i].name, e[i].version, c->version);
		}
		break;
	}
	default:
		break;
	}
	return MEGACO_OK;
}

int version_check_model(const struct MegacoMessage *m, int version, int binary, megaco_error *err)
{
	int rc = check_version(version, 0, err);
	check_ctx c = { version, binary, err };
	if (rc == MEGACO_OK && version < schema_types[SCHEMA_ROOT].newest)
		rc = check(&c, SCHEMA_ROOT, m);
	return rc;
}
