/*
 * Writes the DER writer's per-type functions (megaco_der.inc, #included by
 * src/der_writer.c) from the schema model: one function per constructed
 * type that writes its contents back to front, members' offsets as
 * offsetof() expressions, and at each member the leaf writer or the
 * constructed type's function with the member's identifier octet and
 * constraint bounds as constants. The encoding rules themselves (lengths,
 * tags, strings, integers, checks) are der_writer.c's; this only unrolls
 * the walk over the schema. Also one root writer per type (the value with
 * its type's own tags), for der_write().
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "BIT_STRING.h"
#include "IA5String.h"
#include "OBJECT_IDENTIFIER.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SET_OF.h"
#include "gen_lit.h"
#include "schema_emit.h"

/* What der_writer.c's leaf writers check (its CK_* values). */
enum { CK_NONE, CK_RANGE, CK_URANGE, CK_IA5 };

/* A value as some member (or the root) holds it. */
typedef struct dval {
	int type;
	int tag_mode;
	uint32_t tag;
	int per;
	unsigned flags;
	int root;     /* a root: leaves through the out-of-line writers */
	char ref[64]; /* C expression: the schema_member for errors and long forms */
} dval;

static FILE *out;
static const gen_schema *S;
#define refuse(name, why) gen_refuse("der_emit", name, NULL, why)

/*
 * Bounds of a PER range: what the check lets through. Extensible
 * constraints are not checked, as asn1c's checks do not check them.
 */
static void bounds(const schema_range *r, long long *lo, long long *hi)
{
	*lo = LLONG_MIN;
	*hi = LLONG_MAX;
	if (r->flags == SR_CONSTRAINED || r->flags == SR_SEMI)
		*lo = r->lower;
	if (r->flags == SR_CONSTRAINED)
		*hi = r->upper;
}

/*
 * The one identifier octet of the value's header when it has exactly one
 * tag below 31; 0 when it has none (an untagged CHOICE) or needs the
 * general form (der_writer.c's put_tags from the schema); -1 for none.
 */
static int header_id(const dval *d)
{
	const schema_type *t = &S->types[d->type].t;
	for (int i = 0; i <= t->tag_count; i++) {
		uint32_t tag = i < t->tag_count ? S->tags[t->tags + i] : d->tag_mode ? d->tag : 0;
		if ((tag >> 2) > 30) /* none in the module; der_writer.c writes one-octet tags only */
			refuse(t->name, "a tag number that needs a multi-octet tag");
	}
	int cons = schema_constructed(t->kind);
	if (t->kind == SK_CHOICE && !(d->tag_mode == 1 || t->tag_count))
		return -1;
	if ((t->tag_count == 1 && d->tag_mode <= 0) || (t->tag_count == 0 && d->tag_mode)) {
		uint32_t tag = d->tag_mode ? d->tag : S->tags[t->tags];
		if ((tag >> 2) <= 30)
			return (int)((tag & 3) << 6 | (cons ? 0x20u : 0) | tag >> 2);
	}
	return 0;
}

/* The value at m (a const char *, not NULL) written in front of p. */
static void emit_value(const dval *d, const char *ind)
{
	const gen_type *g = &S->types[d->type];
	const schema_type *t = &g->t;
	const schema_per *pc = &S->pers[d->per];
	int id = header_id(d);
	long long lo, hi;
	const char *sfx = d->root ? "_any" : "";
	if (schema_constructed(t->kind)) {
		if (t->kind == SK_SET_OF)
			refuse(t->name, "SET OF is not in the module; the writer would need its sort");
		bounds(&pc->size, &lo, &hi);
		if (t->kind == SK_SEQUENCE_OF && (lo != LLONG_MIN || hi != LLONG_MAX))
			refuse(t->name, "a SIZE on a list is not in the module; the writer would need its check");
		fprintf(out, id >= 0 ? "%s{\n%s\tunsigned char *end = p;\n" : "%s{\n", ind, ind);
		fprintf(out, "%s\tif (!(p = g_%d(w, p, m)))\n%s\t\treturn NULL;\n", ind, d->type, ind);
		if (id > 0)
			fprintf(out, "%s\tif (!(p = hdr(w, p, end, 0x%02x, %s, 1)))\n%s\t\treturn NULL;\n", ind, id,
			        d->ref, ind);
		else if (id == 0)
			fprintf(out, "%s\tif (!(p = put_tags(w, p, end, %s, 1)))\n%s\t\treturn NULL;\n", ind,
			        d->ref, ind);
		fprintf(out, "%s}\n", ind);
		return;
	}
	if (id < 0)
		refuse(t->name, "a leaf without tags");
	int ck = CK_NONE;
	switch (t->kind) {
	case SK_INT:
		bounds(&pc->value, &lo, &hi);
		if (d->per && (lo != LLONG_MIN || hi != LLONG_MAX))
			ck = (t->flags & SF_UNSIGNED) ? CK_URANGE : CK_RANGE;
		if (ck == CK_URANGE && lo < 0)
			refuse(t->name, "unsigned INTEGER with a negative bound");
		fprintf(out, "%sif (!(p = w_int%s(w, p, m, %s, 0x%02x, %d, %d, %s, %s)))\n%s\treturn NULL;\n",
		        ind, sfx, d->ref, id, ck, (t->flags & SF_UNSIGNED) != 0, lit(lo), lit(hi), ind);
		return;
	case SK_ENUM:
		fprintf(out, "%sif (!(p = w_int%s(w, p, m, %s, 0x%02x, CK_NONE, 0, 0, 0)))\n%s\treturn NULL;\n",
		        ind, sfx, d->ref, id, ind);
		return;
	case SK_BOOL:
	case SK_NULL:
		fprintf(out, "%sif (!(p = w_%s(w, p, m, %s, 0x%02x)))\n%s\treturn NULL;\n", ind,
		        t->kind == SK_BOOL ? "bool" : "null", d->ref, id, ind);
		return;
	case SK_OID:
		fprintf(out, "%sif (!(p = w_oid(w, p, m, %s, 0x%02x)))\n%s\treturn NULL;\n", ind, d->ref,
		        id, ind);
		return;
	case SK_BITS:
		bounds(&pc->size, &lo, &hi);
		if (lo != LLONG_MIN || hi != LLONG_MAX)
			refuse(t->name, "a SIZE on a BIT STRING is not in the module; the writer would need its check");
		fprintf(out, "%sif (!(p = w_bits(w, p, m, %s, 0x%02x, %d)))\n%s\treturn NULL;\n", ind, d->ref,
		        id, (d->flags & SM_NAMED_BITS) != 0, ind);
		return;
	default: /* SK_OCTETS, SK_IA5 */
		bounds(&pc->size, &lo, &hi);
		if (d->per) {
			ck = CK_RANGE;
			if (pc->value.flags == SR_CONSTRAINED && (pc->value.lower > 0 || pc->value.upper < 255))
				ck = CK_IA5;
			if (ck == CK_IA5 && (pc->value.lower != 0 || pc->value.upper != 127))
				refuse(t->name, "an alphabet other than IA5String's is not in the module");
		}
		fprintf(out, "%sif (!(p = w_octets%s(w, p, m, %s, 0x%02x, %d, %d, %s, %s)))\n%s\treturn NULL;\n",
		        ind, sfx, d->ref, id, ck, t->kind == SK_IA5, lit(lo), lit(hi), ind);
		return;
	}
}

/* One of the runtime's checks, which the schema's PER bounds stand for? */
static int runtime_check(asn_constr_check_f *f)
{
	return f == asn_generic_no_constraint || f == asn_generic_unknown_constraint ||
	       f == IA5String_constraint || f == BIT_STRING_constraint || f == SEQUENCE_constraint ||
	       f == CHOICE_constraint || f == SET_OF_constraint || f == OBJECT_IDENTIFIER_constraint;
}

static void member_val(dval *d, int k)
{
	const schema_member *m = &S->members[k].m;
	const asn_TYPE_member_t *el = S->members[k].el;
	asn_constr_check_f *check = el->memb_constraints ? el->memb_constraints
	                                                 : el->type->check_constraints;
	int kind = S->types[m->type].t.kind;
	if (!m->per && !runtime_check(check) && kind != SK_ENUM && kind != SK_CHOICE &&
	    kind != SK_SEQUENCE)
		/* Every constraint of the module is PER-visible; one that is not would go unchecked. */
		refuse(m->name, "a constraint the schema does not carry");
	d->root = 0;
	d->type = m->type;
	d->tag_mode = m->tag_mode;
	d->tag = m->tag;
	d->per = m->per;
	d->flags = m->flags;
	snprintf(d->ref, sizeof d->ref, "&schema_members[%d]", k);
}

static void emit_type(int ti)
{
	const gen_type *g = &S->types[ti];
	const schema_type *t = &g->t;
	char off[2 * GEN_NAME + 64];
	fprintf(out, "\n/* %s */\nstatic unsigned char *g_%d(writer *w, unsigned char *p, const char *v)\n{\n",
	        t->name ? t->name : "?", ti);
	fputs("\tconst char *m;\n", out);
	if (t->flags & SF_RECURSIVE)
		fprintf(out, "\tif (too_deep(w, %d))\n\t\treturn NULL;\n", ti);
	dval d;
	if (t->kind == SK_SEQUENCE) {
		for (int i = t->count - 1; i >= 0; i--) {
			int k = t->first + i;
			const schema_member *m = &S->members[k].m;
			if (m->flags & SM_DEFAULT)
				refuse(m->name, "DEFAULT values are not in the schema");
			member_val(&d, k);
			gen_offset_expr(S, &S->members[k], off, sizeof off);
			if (!(m->flags & SM_POINTER)) {
				fprintf(out, "\tm = v + %s; /* %s */\n", off, m->name);
				emit_value(&d, "\t");
				continue;
			}
			fprintf(out, "\tm = *(const char *const *)(v + %s); /* %s */\n", off, m->name);
			if (m->flags & SM_OPTIONAL) {
				fputs("\tif (m) {\n", out);
				emit_value(&d, "\t\t");
				fputs("\t}\n", out);
			} else {
				fprintf(out, "\tif (!m)\n\t\treturn stop(w, W_ENCODE, &schema_members[%d], "
				             "\"mandatory member absent\");\n", k);
				emit_value(&d, "\t");
			}
		}
	} else if (t->kind == SK_SEQUENCE_OF) {
		fputs("\tconst asn_anonymous_set_ *list = _A_CSET_FROM_VOID(v);\n"
		      "\tfor (int i = list->count - 1; i >= 0; i--) {\n"
		      "\t\tif (!(m = (const char *)list->array[i]))\n"
		      "\t\t\tcontinue;\n", out);
		member_val(&d, t->first);
		emit_value(&d, "\t\t");
		fputs("\t}\n", out);
	} else if (t->kind == SK_CHOICE) {
		char ps[2 * GEN_NAME + 64];
		gen_pres_offset_expr(g, off, sizeof off);
		gen_pres_size_expr(g, ps, sizeof ps);
		fprintf(out, "\tswitch (schema_present_get(v + %s, %s)) {\n", off, ps);
		for (int i = 0; i < t->count; i++) {
			int k = t->first + i;
			const schema_member *m = &S->members[k].m;
			member_val(&d, k);
			gen_offset_expr(S, &S->members[k], off, sizeof off);
			fprintf(out, "\tcase %d: /* %s */\n", i + 1, m->name);
			if (m->flags & SM_POINTER)
				fprintf(out, "\t\tif (!(m = *(const char *const *)(v + %s)))\n"
				             "\t\t\treturn stop(w, W_ENCODE, &schema_members[%d], "
				             "\"CHOICE alternative absent\");\n", off, k);
			else
				fprintf(out, "\t\tm = v + %s;\n", off);
			emit_value(&d, "\t\t");
			fputs("\t\tbreak;\n", out);
		}
		fprintf(out, "\tdefault:\n\t\treturn stop_type(w, W_ENCODE, %d, \"no CHOICE alternative present\");\n\t}\n", ti);
	}
	fputs("\treturn p;\n}\n", out);
}

/*
 * Constructed headers (a BER reader's levels) that a value of type ti
 * written with tag_mode takes: as der_writer.c's put_tags() writes them,
 * all of them but a primitive type's innermost (der_writer.c counts them
 * in the output when this bound does not do).
 */
static int levels(int ti, int tag_mode)
{
	const schema_type *t = &S->types[ti].t;
	int n = t->tag_count - (tag_mode == -1 && t->tag_count ? 1 : 0) + (tag_mode != 0);
	return schema_constructed(t->kind) || !n ? n : n - 1;
}

/* The most levels inside a value of a non-recursive type ti, recursive members not followed. */
static int inner_levels(int ti, int *memo)
{
	const schema_type *t = &S->types[ti].t;
	if (!schema_constructed(t->kind))
		return 0;
	if (memo[ti])
		return memo[ti] - 1;
	int most = 0;
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &S->members[t->first + i].m;
		if (S->types[m->type].t.flags & SF_RECURSIVE)
			continue;
		int d = levels(m->type, m->tag_mode) + inner_levels(m->type, memo);
		if (d > most)
			most = d;
	}
	memo[ti] = most + 1;
	return most;
}

/* The most levels of a value, root included, that contains no recursive type. */
static int plain_levels(void)
{
	static int memo[GEN_MAX_TYPES];
	int most = 0;
	memset(memo, 0, sizeof memo);
	for (int i = 0; i < S->ntypes; i++) {
		if (S->types[i].t.flags & SF_RECURSIVE)
			continue;
		int d = levels(i, 0) + inner_levels(i, memo);
		if (d > most)
			most = d;
	}
	return most;
}

int emit_der_writers(const gen_schema *s, FILE *f)
{
	out = f;
	S = s;
	gen_failed = 0;
	fputs("/* Generated by tools/gen (der_emit.c) from the schema; do not edit. */\n", out);
	emit_includes(s, out);
	fputs("\n", out);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			fprintf(out, "static unsigned char *g_%d(writer *w, unsigned char *p, const char *v);\n", i);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			emit_type(i);
	/* Roots: each type as a member of nothing, with its own tags and constraints. */
	fputs("\n/* Each type as the root of an encoding: no member, its own tags. */\n"
	      "static const schema_member root_members[SCHEMA_NTYPES] = {\n", out);
	for (int i = 0; i < s->ntypes; i++)
		fprintf(out, "\t[%d] = { .name = NULL, .type = %d, .per = %u },\n", i, i, s->types[i].t.per);
	fputs("};\n", out);
	/* One function for all roots: a switch compiles to a jump table of
	 * offsets, where a table of function pointers in a shared object
	 * takes a relocation each. A constructed root's headers are written
	 * after the switch, from its root member. */
	fputs("\nstatic unsigned char *write_root(writer *w, unsigned char *p, unsigned type, const char *m)\n{\n"
	      "\tunsigned char *q;\n\tswitch (type) {\n", out);
	for (int i = 0; i < s->ntypes; i++) {
		dval d = { .type = i, .tag_mode = 0, .per = s->types[i].t.per, .root = 1 };
		const schema_type *t = &s->types[i].t;
		if (t->kind == SK_BITS && (t->flags & SF_NAMED_BITS))
			d.flags |= SM_NAMED_BITS;
		snprintf(d.ref, sizeof d.ref, "&root_members[%d]", i);
		fprintf(out, "\tcase %d:\n", i);
		if (schema_constructed(t->kind)) {
			fprintf(out, "\t\tq = g_%d(w, p, m);\n\t\tbreak;\n", i);
			continue;
		}
		emit_value(&d, "\t\t");
		fputs("\t\treturn p;\n", out);
	}
	fputs("\tdefault:\n\t\treturn NULL;\n\t}\n"
	      "\treturn q ? put_tags(w, q, p, &root_members[type], 1) : NULL;\n}\n", out);
	fprintf(out, "\n/* The most levels a value without recursive types spans (see levels_ok()). */\n"
	             "#define DER_PLAIN_LEVELS %du\n", plain_levels());
	return gen_failed || ferror(f) ? -1 : 0;
}
