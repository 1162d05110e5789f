/*
 * Writes the PER reader's per-type functions (megaco_per_read.inc,
 * #included by src/per_reader.c)
 * from the schema model: one function per constructed type (under its own
 * constraint: a member under another is refused), with member offsets, struct sizes and
 * constraint bounds as constants, calling per_reader.c's building blocks
 * for the leaves, lengths and open types. The decoding rules are
 * per_reader.c's; this only unrolls the walk over the schema. The variant
 * (UNALIGNED or ALIGNED) is the reader's run-time r->aligned, which only
 * the building blocks consult: one copy serves both. Each function reads
 * it once into a local (al), which the stores into the model cannot
 * change, so it stays in a register.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gen_lit.h"
#include "schema_emit.h"

static FILE *out;
static const gen_schema *S;
#define fail(what, name) gen_refuse("per_read_emit", name, NULL, what)

/* The variant, read once at the top of each generated function. */
#define AL_LOCAL "\tconst int al = r->aligned;\n\t(void)al;\n"

/*
 * "rc = <decode the value of member k at slot>;", slot a void ** expression,
 * at depth `depth` (the count of constructed values around it).
 */
static void emit_decode(int k, const char *slot, const char *depth, const char *ind)
{
	const schema_member *m = &S->members[k].m;
	const gen_type *g = &S->types[m->type];
	const schema_type *t = &g->t;
	const schema_per *pc = &S->pers[m->per];
	char size[2 * GEN_NAME + 16];
	gen_size_expr(g, size, sizeof size);
	if (schema_constructed(t->kind)) {
		/* One function per type: as the PER writer, under the type's own constraint only. */
		if (m->per != t->per)
			fail("a constructed type under another member constraint", m->name);
		fprintf(out, "%src = d_%d(r, %s, in, %s);\n", ind, m->type, slot, depth);
		return;
	}
	switch (t->kind) {
	case SK_INT:
		if (!m->per || pc->value.flags != SR_CONSTRAINED || pc->value.range_bits < 0 ||
		    pc->value.range_bits > 32)
			fail("INTEGER without a constrained range of up to 2^32", m->name);
		fprintf(out, "%src = int_c(r, %s, in, al, %d, %s, %s);\n", ind, slot,
		        pc->value.range_bits, lit(pc->value.lower), lit(pc->value.upper));
		return;
	case SK_ENUM:
		if (!m->per)
			fail("ENUMERATED without a PER constraint", m->name);
		fprintf(out, "%src = enum_c(r, %s, in, al, %d, %d, %s, %d, %u, %u, &schema_enums[%u]);\n",
		        ind, slot, (pc->value.flags & SR_EXTENSIBLE) != 0, pc->value.range_bits,
		        lit(pc->value.upper - pc->value.lower),
		        (t->flags & SF_EXTENSIBLE) != 0, t->enum_root, t->enum_count, t->enum_first);
		return;
	case SK_BOOL:
		fprintf(out, "%src = bool_c(r, %s, in);\n", ind, slot);
		return;
	case SK_NULL:
		fprintf(out, "%src = null_c(r, %s);\n", ind, slot);
		return;
	default: { /* strings, OID as asn1c reads it (an OCTET STRING) */
		/* Without a constraint asn1c's default: any length, any octets. */
		const schema_range *sz = &pc->size, *a = &pc->value;
		int ia5 = t->kind == SK_IA5, nbits = m->per ? sz->effective_bits : -1;
		int alphabet = m->per && t->kind != SK_BITS && (a->flags & SR_CONSTRAINED);
		if (m->per && (sz->flags & SR_EXTENSIBLE)) /* X.691 16.6 would read the size otherwise */
			fail("an extensible SIZE on a string is not in the module", m->name);
		/* The alphabets per_reader.c's get_chars() reads: IA5String's, any octet. */
		if (ia5 ? !alphabet || a->lower != 0 || a->upper != 127 || a->range_bits != 7
		        : alphabet && (a->lower != 0 || a->upper != 255))
			fail("an alphabet other than IA5String's 0..127 or any octet", m->name);
		fprintf(out, "%src = octets_c(r, %s, in, al, %d, %d, %d, %s, %s, %s);\n", ind, slot,
		        t->kind == SK_BITS, ia5, nbits, lit(nbits >= 0 ? sz->lower : 0),
		        lit(nbits >= 0 ? sz->upper : 0), size);
		return;
	}
	}
}

/* The member's slot: its pointer in the parent, or tmp pointing at it. */
static void slot_of(int k, char *slot, size_t cap, const char *ind)
{
	char off[2 * GEN_NAME + 64];
	gen_offset_expr(S, &S->members[k], off, sizeof off);
	if (S->members[k].m.flags & SM_POINTER) {
		snprintf(slot, cap, "(void **)(st + %s)", off);
	} else {
		fprintf(out, "%stmp = st + %s;\n", ind, off);
		snprintf(slot, cap, "&tmp");
	}
}

static void emit_member(int k, const char *ind)
{
	char slot[2 * GEN_NAME + 96];
	slot_of(k, slot, sizeof slot, ind);
	emit_decode(k, slot, "depth + 1", ind);
}

/* A value decoder for member k, for a function pointer (open types, list items). */
static void emit_value_func(int k)
{
	fprintf(out, "\n/* %s */\nstatic inline int v_%d(reader *r, void **sptr, per_in *in, "
	             "unsigned depth)\n{\n\tint rc;\n\t(void)in;\n\t(void)depth;\n" AL_LOCAL,
	        S->members[k].m.name ? S->members[k].m.name : "item", k);
	emit_decode(k, "sptr", "depth", "\t");
	fputs("\treturn rc;\n}\n", out);
}

static void emit_head(const gen_type *g)
{
	char size[2 * GEN_NAME + 16];
	gen_size_expr(g, size, sizeof size);
	fprintf(out, "\tif (depth >= r->max_depth)\n\t\treturn PER_DEEP;\n"
	             "\tchar *st = *sptr;\n\tif (!st && !(st = *sptr = alloc_zero(r, %s)))\n"
	             "\t\treturn PER_FAIL;\n", size);
}

/*
 * The head as the v3 module has it from the head of a message whose module
 * has the members optional since `since` as mandatory (no presence bit,
 * always present): "head = <old's bits spread, theirs set>;".
 */
static void emit_head_older(const schema_type *t, int ext, int since, unsigned nold)
{
	unsigned to = (unsigned)t->opt_count, from = nold; /* bit positions, the ext bit's first */
	fputs("\t\thead = 0", out);
	if (ext)
		fprintf(out, " | (old >> %u & 1u) << %u", --from, to);
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &S->members[t->first + i].m;
		if ((m->flags & SM_EXTENSION) || !(m->flags & SM_OPTIONAL))
			continue;
		to--;
		if (m->opt_since >= since)
			fprintf(out, " | 1u << %u", to);
		else
			fprintf(out, " | (old >> %u & 1u) << %u", --from, to);
	}
	fputs(";\n", out);
}

static void emit_sequence(const gen_type *g)
{
	const schema_type *t = &g->t;
	int ext = (t->flags & SF_EXTENSIBLE) != 0;
	unsigned head = (unsigned)(ext + t->opt_count), nold = head;
	int since = 0; /* > 1: members OPTIONAL from that version on, mandatory before */
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &S->members[t->first + i].m;
		if (!(m->flags & SM_EXTENSION) && (m->flags & SM_OPTIONAL) && m->opt_since > 1) {
			if (since && since != m->opt_since)
				fail("members optional since different versions", t->name);
			since = m->opt_since;
			nold--;
		}
	}
	if (head > 32)
		fail("more than 31 OPTIONAL members", t->name);
	fputs("\tint rc;\n\tvoid *tmp;\n\t(void)rc;\n\t(void)tmp;\n", out);
	emit_head(g);
	if (since) {
		/* X.691 18.2 by the message's module: a member mandatory in it has
		 * no presence bit (the v1 module's EventsDescriptor.requestID). */
		fprintf(out, "\tuint32_t head;\n\tif (__builtin_expect(r->version < %d, 0)) {\n"
		             "\t\tif (%u > in_left(in))\n\t\t\treturn PER_STARVED;\n"
		             "\t\tuint32_t old = rd_peek(in, %u);\n\t\tin->pos += %u;\n",
		        since, nold, nold, nold);
		emit_head_older(t, ext, since, nold);
		fprintf(out, "\t} else {\n\t\tif (%u > in_left(in))\n\t\t\treturn PER_STARVED;\n"
		             "\t\thead = rd_peek(in, %u);\n\t\tin->pos += %u;\n\t}\n", head, head, head);
	} else if (head) {
		/* The extension bit and the presence bitmap in one read. */
		fprintf(out, "\tif (%u > in_left(in))\n\t\treturn PER_STARVED;\n", head);
		fprintf(out, "\tuint32_t head = rd_peek(in, %u);\n\tin->pos += %u;\n", head, head);
	}
	int k = 0;
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &S->members[t->first + i].m;
		if (m->flags & SM_EXTENSION)
			continue;
		if (m->flags & SM_DEFAULT)
			fail("DEFAULT values are not in the schema", m->name);
		if (m->flags & SM_OPTIONAL) {
			fprintf(out, "\tif (head & 0x%xu) { /* %s */\n", 1u << (t->opt_count - 1 - k++), m->name);
			emit_member(t->first + i, "\t\t");
			fputs("\t\tif (rc != PER_OK)\n\t\t\treturn rc;\n\t}\n", out);
		} else {
			fprintf(out, "\t/* %s */\n", m->name);
			emit_member(t->first + i, "\t");
			fputs("\tif (rc != PER_OK)\n\t\treturn rc;\n", out);
			if (m->flags & SM_VERSION) { /* the module of what follows */
				char off[2 * GEN_NAME + 64];
				gen_offset_expr(S, &S->members[t->first + i], off, sizeof off);
				if ((m->flags & SM_POINTER) || S->types[m->type].t.kind != SK_INT)
					fail("a version that is not an INTEGER in its parent", m->name);
				/* No module to read the body by: stop (the version stays in the model). */
				fprintf(out, "\tr->version = *(const long *)(const void *)(st + %s);\n"
				             "\tif (r->version < 1 || r->version > %d)\n\t\treturn PER_VERSION;\n",
				        off, S->types[S->root].t.newest);
			}
		}
	}
	if (k != t->opt_count)
		fail("OPTIONAL count differs from the members", t->name);
	if (!ext) {
		fputs("\treturn PER_OK;\n", out);
		return;
	}
	/* The extension additions, each an open type behind a presence bit. */
	fprintf(out, "\tif (!(head >> %u))\n\t\treturn PER_OK;\n\tper_in epmd;\n\tint64_t present;\n"
	             "\t(void)present;\n\tif ((rc = ext_bitmap(in, al, &epmd)) != PER_OK)\n\t\treturn rc;\n",
	        t->opt_count);
	for (int i = 0; i < t->count; i++) {
		int mk = t->first + i;
		const schema_member *m = &S->members[mk].m;
		if (!(m->flags & SM_EXTENSION))
			continue;
		if (!(m->flags & SM_POINTER) || !(m->flags & SM_OPTIONAL))
			fail("an extension addition that is not an OPTIONAL pointer", m->name);
		char off[2 * GEN_NAME + 64];
		gen_offset_expr(S, &S->members[mk], off, sizeof off);
		fprintf(out, "\tif ((present = rd_get(&epmd, 1)) < 0)\n\t\treturn PER_OK;\n"
		             "\tif (present && (rc = open_type(r, in, al, v_%d, (void **)(st + %s), "
		             "depth + 1)) != PER_OK)\n\t\treturn rc; /* %s */\n", mk, off, m->name);
	}
	fputs("\treturn skip_unknown_extension(r, &epmd, in, al);\n", out);
}

static void emit_choice(const gen_type *g)
{
	const schema_type *t = &g->t;
	int per = t->per;
	const schema_per *pc = &S->pers[per];
	char po[2 * GEN_NAME + 64], ps[2 * GEN_NAME + 64];
	gen_pres_offset_expr(g, po, sizeof po);
	gen_pres_size_expr(g, ps, sizeof ps);
	int type_ext = (t->flags & SF_EXTENSIBLE) != 0;
	/* asn1c: no constraint means no root index (every alternative an extension). */
	int nbits = per ? pc->value.range_bits : -1;
	int ext = per && (pc->value.flags & SR_EXTENSIBLE);
	fputs("\tint rc;\n\tvoid *tmp;\n\t(void)rc;\n\t(void)tmp;\n\tint64_t v;\n", out);
	emit_head(g);
	if (nbits >= 0) {
		fprintf(out, "\tif ((v = choice_index(in, al, %d, %d, %s)) < 0)%s\n", ext, nbits,
		        lit(pc->value.upper - pc->value.lower), ext ? " {" : "");
		fputs(ext ? "\t\tif (v == -1)\n\t\t\treturn PER_STARVED;\n\t\tgoto extension;\n\t}\n"
		          : "\t\treturn PER_STARVED;\n", out);
		fprintf(out, "\tif (v > %s)\n\t\treturn PER_FAIL;\n", lit(pc->value.upper));
		fprintf(out, "\tschema_present_set(st + %s, %s, (int)v + 1);\n\tswitch (v) {\n", po, ps);
		for (int i = 0; i < t->count && i <= pc->value.upper; i++) {
			fprintf(out, "\tcase %d: /* %s */\n", i, S->members[t->first + i].m.name);
			emit_member(t->first + i, "\t\t");
			fputs("\t\treturn rc;\n", out);
		}
		fputs("\tdefault:\n\t\treturn PER_FAIL;\n\t}\n", out);
		if (!ext)
			return;
		fputs("extension:\n", out);
	}
	if (!type_ext) {
		fputs("\treturn PER_FAIL;\n", out);
		return;
	}
	/* An alternative after "...": known ones as open types; an unknown one
	 * is refused (the model could not hold it). */
	fprintf(out, "\tif ((v = nsnnwn_get(in, al)) < 0)\n\t\treturn PER_STARVED;\n"
	             "\tv += %u;\n\tif (v >= %u)\n\t\treturn PER_FAIL;\n"
	             "\tschema_present_set(st + %s, %s, (int)v + 1);\n\tswitch (v) {\n",
	        t->root_count, t->count, po, ps);
	for (int i = t->root_count; i < t->count; i++) {
		int mk = t->first + i;
		char slot[2 * GEN_NAME + 96];
		fprintf(out, "\tcase %d: /* %s */\n", i, S->members[mk].m.name);
		slot_of(mk, slot, sizeof slot, "\t\t");
		fprintf(out, "\t\treturn open_type(r, in, al, v_%d, %s, depth + 1);\n", mk, slot);
	}
	fputs("\tdefault:\n\t\treturn PER_FAIL;\n\t}\n", out);
}

/* SEQUENCE OF: the head inline in the parent (an empty list ends there), the items apart. */
static void emit_list(int f, const gen_type *g)
{
	int per = g->t.per;
	const schema_range *r = &S->pers[per].size;
	char size[2 * GEN_NAME + 16];
	gen_size_expr(g, size, sizeof size);
	if (per && (r->effective_bits >= 0 || (r->flags & SR_EXTENSIBLE)))
		fail("a SIZE on a list is not in the module; the reader would need its count", g->t.name);
	fprintf(out, "\tif (depth >= r->max_depth)\n\t\treturn PER_DEEP;\n"
	             "\tasn_anonymous_set_ *list;\n\tlong nelems;\n\tint repeat;\n"
	             "\tint rc = list_head(r, sptr, in, al, %s, &list, &nelems, &repeat);\n"
	             "\tif (rc != PER_OK || (nelems == 0 && !repeat))\n\t\treturn rc;\n"
	             "\treturn l_%d(r, list, in, depth, nelems, repeat);\n",
	        size, f);
}

static void emit_func(int f)
{
	const gen_type *g = &S->types[f];
	const schema_type *t = &g->t;
	if (t->kind == SK_SET_OF)
		fail("SET OF is not in the module", t->name);
	if (t->kind == SK_SEQUENCE_OF) {
		fprintf(out, "\nstatic int l_%d(reader *r, asn_anonymous_set_ *list, per_in *in, "
		             "unsigned depth, long nelems, int repeat)\n{\n" AL_LOCAL
		             "\treturn list_items(r, list, in, al, v_%d, depth + 1, nelems, repeat);\n}\n",
		        f, t->first);
	}
	fprintf(out, "\n/* %s */\nstatic %sint d_%d(reader *r, void **sptr, per_in *in, unsigned depth)\n{\n"
	             AL_LOCAL,
	        t->name ? t->name : "?", t->kind == SK_SEQUENCE_OF ? "inline " : "", f);
	if (t->kind == SK_SEQUENCE)
		emit_sequence(g);
	else if (t->kind == SK_CHOICE)
		emit_choice(g);
	else
		emit_list(f, g);
	fputs("}\n", out);
}

int emit_per_readers(const gen_schema *s, FILE *f)
{
	out = f;
	S = s;
	gen_failed = 0;
	fputs("/* Generated by tools/gen (per_read_emit.c) from the schema; do not edit.\n"
	      " * Included by src/per_reader.c. */\n", out);
	emit_includes(s, out);
	fputs("\n", out);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			fprintf(out, "static %sint d_%d(reader *r, void **sptr, per_in *in, unsigned depth);\n",
			        s->types[i].t.kind == SK_SEQUENCE_OF ? "inline " : "", i);
	/* Value decoders for list items and extension additions. */
	for (int i = 0; i < s->nmembers; i++)
		if (s->types[s->members[i].parent].t.kind == SK_SEQUENCE_OF ||
		    (s->members[i].m.flags & SM_EXTENSION))
			emit_value_func(i);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			emit_func(i);
	fprintf(out, "\n/* The message. */\nstatic int read_root(reader *r, void **sptr, per_in *in)\n"
	             "{\n\treturn d_%d(r, sptr, in, 0);\n}\n", s->root);
	return gen_failed || ferror(f) ? -1 : 0;
}
