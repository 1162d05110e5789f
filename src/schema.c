/*
 * Questions about the const schema (schema.h) that more than one binary
 * codec asks: which type a member belongs to, for error messages; and what
 * the writers share: their error report and the IA5String check.
 */
#include "schema.h"

#include <string.h>

#include "asn_SET_OF.h"
#include "internal.h"

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

int schema_write_error(megaco_error *err, int code, const schema_member *m, int type,
                       const char *why, unsigned max_depth, unsigned stack_kib, const char *codec)
{
	int parent = m ? schema_parent_of(m) : -1;
	const char *name = parent >= 0 ? schema_types[parent].name
	                   : m ? schema_types[m->type].name
	                   : type >= 0 ? schema_types[type].name
	                               : "value";
	const char *member = parent >= 0 && m->name ? m->name : "";
	const char *dot = *member ? "." : "";
	switch (code) {
	case SW_NOMEM: return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	case SW_DEEP:
		return set_error(err, MEGACO_ERR_TOO_DEEP, 0,
		                 "%s%s%s: model nested too deeply (over %u KiB of stack)", name, dot,
		                 member, stack_kib);
	case SW_LEVELS:
		return set_error(err, MEGACO_ERR_TOO_DEEP, 0,
		                 "%s: nesting deeper than %u levels, which a reader under the same "
		                 "options refuses", name, max_depth);
	case SW_CONSTRAINT:
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "%s%s%s: %s", name, dot, member, why);
	default:
		return set_error(err, MEGACO_ERR_CONSTRAINT, 0, "cannot encode %s%s%s as %s: %s", name,
		                 dot, member, codec, why);
	}
}

int schema_ascii(const unsigned char *s, size_t n)
{
	uint64_t acc = 0, word;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		memcpy(&word, s + i, 8);
		acc |= word;
	}
	for (; i < n; i++)
		acc |= s[i];
	return !(acc & UINT64_C(0x8080808080808080));
}

static int walk(const schema_node *n, int (*visit)(const schema_node *, void *), void *ctx)
{
	int rc = visit(n, ctx);
	if (rc != WALK_CONTINUE)
		return rc < 0 ? rc : WALK_CONTINUE;
	const schema_type *t = &schema_types[n->type];
	const schema_member *m = &schema_members[t->first];
	if (t->kind == SK_SEQUENCE_OF || t->kind == SK_SET_OF) {
		const asn_anonymous_set_ *l = n->ptr;
		for (int i = 0; i < l->count; i++) {
			schema_node c = { m->type, l->array[i], m, i, n->depth + 1, n };
			if (c.ptr && (rc = walk(&c, visit, ctx)) < 0)
				return rc;
		}
		return WALK_CONTINUE;
	}
	int from = 0, to = schema_constructed(t->kind) ? t->count : 0;
	if (t->kind == SK_CHOICE) {
		from = schema_present_get((const char *)n->ptr + t->pres_offset, t->pres_size) - 1;
		to = from + 1;
		if (from < 0 || to > t->count) /* none, or an unknown extension */
			return WALK_CONTINUE;
	}
	for (int i = from; i < to; i++) {
		schema_node c = { m[i].type, (void *)(uintptr_t)schema_member_value(&m[i], n->ptr), &m[i],
			              -1, n->depth + 1, n };
		if (c.ptr && (rc = walk(&c, visit, ctx)) < 0)
			return rc;
	}
	return WALK_CONTINUE;
}

int schema_walk(unsigned type, void *ptr, int (*visit)(const schema_node *n, void *ctx), void *ctx)
{
	schema_node root = { type, ptr, NULL, -1, 0, NULL };
	return walk(&root, visit, ctx);
}
