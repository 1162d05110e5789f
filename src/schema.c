/*
 * Questions about the const schema (schema.h) that more than one binary
 * codec asks: which type a member belongs to, for error messages, and how
 * deep a value nests as a reader of an encoding counts it, so that a
 * writer refuses what the reader under the same max_depth would.
 */
#include "schema.h"

#include "asn_SET_OF.h"
#include "megaco_schema.h"

int schema_parent_of(const schema_member *m)
{
	uintptr_t at = (uintptr_t)m, base = (uintptr_t)schema_members;
	if (at < base || at >= base + SCHEMA_NMEMBERS * sizeof *m)
		return -1;
	unsigned k = (unsigned)((at - base) / sizeof *m);
	for (int i = 0; i < SCHEMA_NTYPES; i++)
		if (schema_types[i].count && k >= schema_types[i].first &&
		    k < (unsigned)schema_types[i].first + schema_types[i].count)
			return i;
	return -1;
}

unsigned schema_levels(unsigned type, int tag_mode, enum schema_count how)
{
	const schema_type *t = &schema_types[type];
	int cons = t->kind == SK_SEQUENCE || t->kind == SK_CHOICE || t->kind == SK_SEQUENCE_OF ||
	           t->kind == SK_SET_OF;
	if (how == SCHEMA_COUNT_VALUES)
		return (unsigned)cons;
	/* The headers a DER writer puts in front (der_writer.c's put_tags()):
	 * the type's own tags, the outermost replaced by an IMPLICIT one or
	 * wrapped by an EXPLICIT one; all constructed but a primitive's last. */
	unsigned n = t->tag_count - (tag_mode == -1 && t->tag_count ? 1u : 0u) + (tag_mode != 0);
	return cons || !n ? n : n - 1;
}

/* Whether a value inside v (of type t, whose own levels end at level d) lies past level max. */
static int deeper(unsigned t, const char *v, unsigned d, unsigned max, enum schema_count how)
{
	const schema_type *ty = &schema_types[t];
	unsigned first = ty->first, end = first + ty->count;
	if (ty->kind == SK_SEQUENCE_OF || ty->kind == SK_SET_OF) {
		const asn_anonymous_set_ *l = _A_CSET_FROM_VOID(v);
		const schema_member *m = &schema_members[first];
		unsigned at = d + schema_levels(m->type, m->tag_mode, how);
		for (int i = 0; i < l->count; i++)
			if (l->array[i] && (at > max || deeper(m->type, l->array[i], at, max, how)))
				return 1;
		return 0;
	}
	if (ty->kind == SK_CHOICE) {
		int k = schema_present_get(v + ty->pres_offset, ty->pres_size);
		if (k <= 0 || k > ty->count)
			return 0;
		first += (unsigned)k - 1, end = first + 1;
	} else if (ty->kind != SK_SEQUENCE) {
		return 0;
	}
	for (unsigned k = first; k < end; k++) {
		const schema_member *m = &schema_members[k];
		const char *p = schema_member_value(m, v);
		unsigned at = d + schema_levels(m->type, m->tag_mode, how);
		if (p && (at > max || deeper(m->type, p, at, max, how)))
			return 1;
	}
	return 0;
}

int schema_nests_deeper(unsigned type, const void *v, unsigned max, enum schema_count how)
{
	unsigned d = schema_levels(type, 0, how);
	return d > max || deeper(type, v, d, max, how);
}
