/*
 * Writes the PER writer's per-type functions (megaco_per_write.inc,
 * #included by src/per_writer.c) from the schema model: for each
 * constructed type one function (t_N) that writes its preamble and
 * members in order, with offsets as offsetof() expressions and bounds, bit
 * counts and presence bits as constants; one open-type function per
 * extension member (o_K); and write_root(), the entry by type. The variant
 * (UNALIGNED or ALIGNED) is a run-time value, w->aligned, that only the bit
 * primitives consult: one copy of this code serves both (half the size of
 * one copy per variant, for about 1 % more instructions). The encoding rules themselves are
 * per_writer.c's; this only unrolls the walk over the schema, and refuses
 * (fails the build on) any shape the writer does not encode.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gen_lit.h"
#include "schema_emit.h"

/* per_writer.c's ST_* */
enum { ST_OCTETS, ST_IA5, ST_BITS, ST_OID };

static FILE *out;
static const gen_schema *S;
#define refuse(type, member, why) gen_refuse("per_write_emit", type, member, why)

/*
 * Cut types: recursive types such that every cycle of the schema passes
 * through one (a feedback vertex set, found greedily). Only they count
 * their nesting while writing; between two of them a path is acyclic.
 */
static unsigned char cut[GEN_MAX_TYPES];

/* The variant, as the generated code reads it: a local that each function
 * loads once (AL_LOCAL), which the stores into the buffer cannot change,
 * so it stays in a register. */
#define AL "A"
#define AL_LOCAL "\tconst int A = w->aligned;\n\t(void)A;\n"

/* Bits for range values (X.691 10.5.3's ceil(log2(range))). */
static int bits_for(unsigned long long range)
{
	int n = 0;
	while (n < 64 && (range - 1) >> n)
		n++;
	return n;
}

/* The value of member k (type, per, flags) at m, a const char * that is not NULL. */
static void emit_value(int k, const char *ind)
{
	const schema_member *sm = &S->members[k].m;
	const schema_type *t = &S->types[sm->type].t;
	const schema_per *pc = &S->pers[sm->per];
	const char *tn = t->name, *mn = sm->name;
	if (schema_constructed(t->kind)) {
		if (sm->per != t->per)
			refuse(tn, mn, "a constructed type under another member constraint");
		if (t->kind == SK_SEQUENCE_OF)
			/* An empty list (a wildcard-free TerminationID's, most
			 * often) is its zero length: no call. */
			fprintf(out, "%sif (_A_CSET_FROM_VOID(m)->count <= 0)\n%s\tput_length(w, %s, 0);\n%selse ",
			        ind, ind, AL, ind);
		else
			fputs(ind, out);
		fprintf(out, "if (t_%d(w, m))\n%s\treturn -1;\n", sm->type, ind);
		return;
	}
	char ref[48];
	snprintf(ref, sizeof ref, "&schema_members[%d]", k);
	switch (t->kind) {
	case SK_INT: {
		const schema_range *r = &pc->value;
		if (!sm->per || r->flags != SR_CONSTRAINED || r->range_bits < 0 || r->range_bits > 32 ||
		    r->upper < r->lower || bits_for((unsigned long long)(r->upper - r->lower) + 1) != r->range_bits)
			refuse(tn, mn, "an INTEGER that is not a constrained whole number of up to 32 bits");
		int uns = (t->flags & SF_UNSIGNED) != 0;
		if (uns && r->lower < 0)
			refuse(tn, mn, "unsigned INTEGER with a negative bound");
		fprintf(out, "%sif (w_int(w, %s, m, %s, %d, %s, %s, %d))\n%s\treturn -1;\n", ind, AL, ref,
		        uns, lit(r->lower), lit(r->upper), r->range_bits, ind);
		if (sm->flags & SM_VERSION) /* the module of what follows */
			fprintf(out, "%sw->version = *(const long *)(const void *)m;\n", ind);
		return;
	}
	case SK_ENUM: {
		const schema_range *r = &pc->value;
		int ext = (r->flags & SR_EXTENSIBLE) != 0, root = t->enum_root, count = t->enum_count;
		int direct = 1;
		for (int i = 0; i < count; i++)
			if (S->enums[t->enum_first + i].value != i)
				direct = 0;
		if (!sm->per || !(r->flags & SR_CONSTRAINED) || r->lower != 0 || r->upper != root - 1 ||
		    r->range_bits != bits_for((unsigned long long)root) || ext != !!(t->flags & SF_EXTENSIBLE) ||
		    count - root > 64 || root < 1)
			refuse(tn, mn, "an ENUMERATED whose constraint is not its root");
		fprintf(out, "%sif (w_enum(w, m, %s, %d, %d, %d, %d, %d, %d))\n%s\treturn -1;\n", ind, ref,
		        direct, t->enum_first, count, root, ext, r->range_bits, ind);
		return;
	}
	case SK_BOOL:
		fprintf(out, "%sw_bool(w, m);\n", ind);
		return;
	case SK_NULL:
		fprintf(out, "%s(void)w, (void)m; /* NULL: no bits */\n", ind);
		return;
	case SK_OCTETS:
	case SK_IA5:
	case SK_BITS:
	case SK_OID: {
		/* Without a constraint asn1c's default: any length, any octets. */
		const schema_range *sz = &pc->size, *a = &pc->value;
		int st = t->kind == SK_OCTETS ? ST_OCTETS : t->kind == SK_IA5 ? ST_IA5
		         : t->kind == SK_BITS ? ST_BITS : ST_OID;
		int nbits = sm->per ? sz->effective_bits : -1;
		long long lo = nbits >= 0 ? sz->lower : 0, hi = nbits >= 0 ? sz->upper : 0;
		if (nbits >= 0 && (nbits > 16 || lo < 0 || hi < lo || hi >= 65536))
			refuse(tn, mn, "a SIZE the writer does not take");
		if (sm->per && (sz->flags & SR_EXTENSIBLE))
			refuse(tn, mn, "an extensible SIZE is not in the module");
		/* The alphabets per_writer.c's put_units() writes: IA5String's, any octet. */
		int alphabet = sm->per && st != ST_BITS && (a->flags & SR_CONSTRAINED);
		if (st == ST_IA5 ? !alphabet || a->lower != 0 || a->upper != 127 || a->range_bits != 7
		                 : alphabet && (a->lower != 0 || a->upper != 255))
			refuse(tn, mn, "an alphabet other than IA5String's 0..127 or any octet");
		fprintf(out, "%sif (w_string(w, %s, m, %s, %d, %d, %d, %s, %s))\n%s\treturn -1;\n", ind, AL,
		        ref, st, (sm->flags & SM_NAMED_BITS) != 0, nbits, lit(lo), lit(hi), ind);
		return;
	}
	default:
		refuse(tn, mn, "a kind of type the writer does not encode");
	}
}

/* m = the member's value in v; a pointer member may be NULL. */
static void load(int k, const char *ind)
{
	char off[2 * GEN_NAME + 64];
	gen_offset_expr(S, &S->members[k], off, sizeof off);
	if (S->members[k].m.flags & SM_POINTER)
		fprintf(out, "%sm = *(const char *const *)(const void *)(v + %s); /* %s */\n", ind, off,
		        S->members[k].m.name);
	else
		fprintf(out, "%sm = v + %s; /* %s */\n", ind, off, S->members[k].m.name);
}

/* "(pointer member k present)", as an expression. */
static void presence(int k)
{
	char off[2 * GEN_NAME + 64];
	gen_offset_expr(S, &S->members[k], off, sizeof off);
	fprintf(out, "(uint32_t)(*(const void *const *)(const void *)(v + %s) != NULL)", off);
}

/* Bits as puts of at most 32: n expressions (presence of members ks, or x first when lead). */
static void emit_bits(const int *ks, int n, int lead, const char *ind)
{
	int total = n + lead, done = 0;
	while (done < total) {
		int take = total - done > 32 ? 32 : total - done;
		fprintf(out, "%sput(w, 0", ind);
		for (int i = 0; i < take; i++) {
			int at = done + i;
			fprintf(out, "\n%s\t| ", ind);
			if (lead && at == 0)
				fputs("(uint32_t)x", out);
			else
				presence(ks[at - lead]);
			fprintf(out, " << %d", take - 1 - i);
		}
		fprintf(out, ", %d);\n", take);
		done += take;
	}
}

static void emit_sequence(int ti)
{
	const schema_type *t = &S->types[ti].t;
	int opt[GEN_MAX_MEMBERS], ext[GEN_MAX_MEMBERS], nopt = 0, next = 0;
	int older[GEN_MAX_MEMBERS], nolder = 0; /* opt[] less those mandatory in older versions */
	int since = 0; /* > 1: the version from which some members are OPTIONAL */
	int extensible = (t->flags & SF_EXTENSIBLE) != 0;
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		if (m->flags & (SM_DEFAULT | SM_OPEN_TYPE))
			refuse(t->name, m->name, "DEFAULT and open-type members are not in the schema");
		if (m->flags & SM_EXTENSION) {
			if ((m->flags & (SM_POINTER | SM_OPTIONAL)) != (SM_POINTER | SM_OPTIONAL))
				refuse(t->name, m->name, "an extension addition that is not an optional pointer");
			ext[next++] = k;
		} else if (m->flags & SM_OPTIONAL) {
			if (!(m->flags & SM_POINTER))
				refuse(t->name, m->name, "an optional member that is not a pointer");
			opt[nopt++] = k;
			if (m->opt_since > 1) {
				if (since && since != m->opt_since)
					refuse(t->name, m->name, "members optional since different versions");
				since = m->opt_since;
			} else {
				older[nolder++] = k;
			}
		}
	}
	if (nopt != t->opt_count || (next && !extensible) || next > 64)
		refuse(t->name, NULL, "presence bits or additions the writer does not take");
	if (extensible) {
		fputs("\tuint32_t x = 0", out);
		for (int i = 0; i < next; i++) {
			fputs("\n\t\t| ", out);
			presence(ext[i]);
		}
		fputs(";\n", out);
	}
	if (since) {
		/* X.691 18.2 by the message's module: a member mandatory in it has
		 * no presence bit (the v1 module's EventsDescriptor.requestID). */
		fprintf(out, "\tif (UNLIKELY(w->version < %d)) {\n", since);
		emit_bits(older, nolder, extensible, "\t\t");
		fputs("\t} else {\n", out);
		emit_bits(opt, nopt, extensible, "\t\t");
		fputs("\t}\n", out);
	} else {
		emit_bits(opt, nopt, extensible, "\t");
	}
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		if (m->flags & SM_EXTENSION)
			continue;
		load(k, "\t");
		if (!(m->flags & SM_POINTER)) {
			emit_value(k, "\t");
		} else if (m->flags & SM_OPTIONAL) {
			fputs("\tif (m) {\n", out);
			emit_value(k, "\t\t");
			if (m->opt_since > 1)
				fprintf(out, "\t} else if (UNLIKELY(w->version < %d)) {\n\t\treturn stop(w, "
				             "W_CONSTRAINT, &schema_members[%d], \"absent, but mandatory in the "
				             "module of a version %s%d message\");\n", m->opt_since, k,
				        m->opt_since > 2 ? "1 to " : "", m->opt_since - 1);
			fputs("\t}\n", out);
		} else {
			fprintf(out, "\tif (!m)\n\t\treturn stop(w, W_ENCODE, &schema_members[%d], "
			             "\"mandatory member absent\");\n", k);
			emit_value(k, "\t");
		}
	}
	if (next) {
		/* X.691 18.7-18.8: the count of additions less one (normally
		 * small, 7 bits), all their presence bits, the present ones as
		 * open types. */
		fprintf(out, "\tif (x) {\n\t\tput(w, %d, 7);\n", next - 1);
		emit_bits(ext, next, 0, "\t\t");
		for (int i = 0; i < next; i++) {
			load(ext[i], "\t\t");
			fprintf(out, "\t\tif (m && put_open(w, %s, m, o_%d))\n\t\t\treturn -1;\n", AL, ext[i]);
		}
		fputs("\t}\n", out);
	}
}

static void emit_choice(int ti)
{
	const gen_type *g = &S->types[ti];
	const schema_type *t = &g->t;
	const schema_range *r = &S->pers[t->per].value;
	int ext = (t->flags & SF_EXTENSIBLE) != 0, root = t->root_count;
	if (!t->per || !(r->flags & SR_CONSTRAINED) || r->lower != 0 || r->upper != root - 1 ||
	    ext != !!(r->flags & SR_EXTENSIBLE) || r->range_bits != bits_for((unsigned long long)root) ||
	    t->count - root > 64 || root < 1)
		refuse(t->name, NULL, "a CHOICE whose constraint is not its root");
	char off[2 * GEN_NAME + 64], ps[2 * GEN_NAME + 64];
	gen_pres_offset_expr(g, off, sizeof off);
	gen_pres_size_expr(g, ps, sizeof ps);
	fprintf(out, "\tswitch (schema_present_get(v + %s, %s)) {\n", off, ps);
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		fprintf(out, "\tcase %d:\n", i + 1);
		load(k, "\t\t");
		if (m->flags & SM_POINTER)
			fprintf(out, "\t\tif (!m)\n\t\t\treturn stop(w, W_ENCODE, &schema_members[%d], "
			             "\"CHOICE alternative absent\");\n", k);
		if (i < root) {
			/* X.691 22.6-22.7: a 0 extension bit, the index in the root. */
			if (r->range_bits + ext)
				fprintf(out, "\t\tput(w, %d, %d);\n", i, r->range_bits + ext);
			emit_value(k, "\t\t");
			fputs("\t\tbreak;\n", out);
		} else {
			/* 22.8: a 1 bit, the index past the root as a normally small
			 * number (below 64: 0 and 6 bits), the value as an open type. */
			fprintf(out, "\t\tput(w, 0x%x, 8);\n", 0x80 | (i - root));
			fprintf(out, "\t\treturn put_open(w, %s, m, o_%d);\n", AL, k);
		}
	}
	fprintf(out, "\tdefault:\n\t\treturn stop_type(w, W_ENCODE, %d, \"no CHOICE alternative present\");\n\t}\n", ti);
}

static void emit_list(int ti)
{
	const schema_type *t = &S->types[ti].t;
	int k = t->first;
	if (t->kind != SK_SEQUENCE_OF)
		refuse(t->name, NULL, "SET OF is not in the module; the writer would need its order");
	const schema_range *r = &S->pers[t->per].size;
	if (t->per && (r->effective_bits >= 0 || (r->flags & SR_EXTENSIBLE)))
		refuse(t->name, NULL, "a SIZE on a list is not in the module; the writer would need its count");
	/* 10.9.3.5-8, 20.6: length determinants, each followed by its items. */
	fprintf(out, "\tconst asn_anonymous_set_ *l = _A_CSET_FROM_VOID(v);\n"
	             "\tint n = l->count > 0 ? l->count : 0, i = 0;\n"
	             "\tdo {\n\t\tint end = i + (int)put_length(w, %s, (size_t)(n - i));\n"
	             "\t\tfor (; i < end; i++) {\n\t\t\tif (!(m = (const char *)l->array[i]))\n"
	             "\t\t\t\treturn stop(w, W_ENCODE, &schema_members[%d], \"NULL list item\");\n", AL, k);
	emit_value(k, "\t\t\t");
	fputs("\t\t}\n\t} while (i < n);\n", out);
}

static void emit_type(int ti)
{
	const schema_type *t = &S->types[ti].t;
	int rec = cut[ti];
	if (rec)
		/* A cut type counts its nesting for the depth bound. */
		fprintf(out, "\nstatic int tb_%d(pw *w, const char *v);\n"
		             "static int t_%d(pw *w, const char *v)\n{\n"
		             "\tif (++w->rec > w->rec_max)\n\t\tw->rec_max = w->rec;\n"
		             "\tint rc = tb_%d(w, v);\n\tw->rec--;\n\treturn rc;\n}\n",
		        ti, ti, ti);
	fprintf(out, "\n/* %s */\nstatic int t%s_%d(pw *w, const char *v)\n{\n" AL_LOCAL, t->name ? t->name : "?",
	        rec ? "b" : "", ti);
	fputs(t->count ? "\tconst char *m;\n" : "\t(void)v;\n", out);
	if (t->flags & SF_RECURSIVE) /* a cyclic model must not overflow the stack */
		fprintf(out, "\tif (too_deep(w, %d))\n\t\treturn -1;\n", ti);
	if (t->kind == SK_SEQUENCE)
		emit_sequence(ti);
	else if (t->kind == SK_CHOICE)
		emit_choice(ti);
	else
		emit_list(ti);
	fputs("\treturn 0;\n}\n", out);
}

/* An extension member's value as an open type's contents. */
static void emit_open(int k)
{
	fprintf(out, "\n/* %s (extension) */\nstatic int o_%d(pw *w, const char *m)\n{\n" AL_LOCAL,
	        S->members[k].m.name, k);
	emit_value(k, "\t");
	fputs("\treturn 0;\n}\n", out);
}


/* A cycle among non-cut types reachable from ti: the type it returns to, or -1. */
static int cycle_from(int ti, unsigned char *state)
{
	const schema_type *t = &S->types[ti].t;
	if (!schema_constructed(t->kind) || cut[ti] || state[ti] == 2)
		return -1;
	if (state[ti] == 1)
		return ti;
	state[ti] = 1;
	for (int i = 0; i < t->count; i++) {
		int c = cycle_from(S->members[t->first + i].m.type, state);
		if (c >= 0)
			return c;
	}
	state[ti] = 2;
	return -1;
}

static void find_cuts(void)
{
	static unsigned char state[GEN_MAX_TYPES];
	memset(cut, 0, sizeof cut);
	for (;;) {
		int c = -1;
		memset(state, 0, sizeof state);
		for (int i = 0; i < S->ntypes && c < 0; i++)
			c = cycle_from(i, state);
		if (c < 0)
			return;
		cut[c] = 1;
	}
}

/*
 * Levels of constructed values a value of type ti spans before it reaches
 * a cut type (which starts a new segment): every path of a model is at
 * most (cut types on it + 1) such segments.
 */
static int segment(int ti, int *memo)
{
	const schema_type *t = &S->types[ti].t;
	if (!schema_constructed(t->kind))
		return 0;
	if (memo[ti])
		return memo[ti];
	int most = 0;
	for (int i = 0; i < t->count; i++) {
		int c = S->members[t->first + i].m.type;
		if (!cut[c]) {
			int d = segment(c, memo);
			if (d > most)
				most = d;
		}
	}
	return memo[ti] = 1 + most;
}

int emit_per_writers(const gen_schema *s, FILE *f)
{
	out = f;
	S = s;
	gen_failed = 0;
	fputs("/* Generated by tools/gen (per_write_emit.c) from the schema; do not edit. */\n", out);
	emit_includes(s, out);
	static int memo[GEN_MAX_TYPES];
	int seg = 0;
	find_cuts();
	memset(memo, 0, sizeof memo);
	for (int i = 0; i < s->ntypes; i++)
		if (segment(i, memo) > seg)
			seg = segment(i, memo);
	fprintf(out, "\n/* The most levels of constructed values between recursive types. */\n"
	             "#define PER_SEGMENT_LEVELS %du\n\n", seg);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			fprintf(out, "static int t_%d(pw *w, const char *v);\n", i);
	for (int k = 0; k < s->nmembers; k++)
		if (s->members[k].m.flags & SM_EXTENSION)
			emit_open(k);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			emit_type(i);
	fputs("\n/* The value v of type `type` as the root of an encoding; 1: not a constructed type. */\n"
	      "static int write_root(pw *w, unsigned type, const void *v)\n{\n\tswitch (type) {\n", out);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			fprintf(out, "\tcase %d: return t_%d(w, v);\n", i, i);
	fputs("\tdefault: return 1;\n\t}\n}\n", out);
	return gen_failed || ferror(f) ? -1 : 0;
}
