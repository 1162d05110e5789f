/*
 * Writes the BER reader's walk over the schema (megaco_ber.inc, #included
 * by src/ber_reader.c): one function per constructed type that reads its
 * contents in the common form (definite lengths, one identifier octet,
 * members in order), with member tags, offsets and sizes as constants
 * (offsetof() and sizeof() for the target compiler), calling at each member
 * the leaf reader or the constructed type's function; and a table of the
 * SEQUENCE and list functions by type. Everything else (other forms and
 * orders, unknown extensions, errors) is ber_reader.c's general path,
 * which reads the schema tables and calls back into the table. The
 * decoding rules are ber_reader.c's helpers; this only unrolls the walk,
 * with the one BER fact the schema tables leave out: the tag that asn1c
 * wants on a constructed string's segments below the first level.
 * It checks that the schema has the shape the walk relies on, refusing
 * the build otherwise:
 *   - each value carries exactly one tag (its member's IMPLICIT tag or its
 *     type's own), but an untagged CHOICE (none) under an EXPLICIT tag or
 *     none, so that every value is one TLV or an EXPLICIT tag around one;
 *   - no open types and no DEFAULT values;
 *   - a SEQUENCE's extension additions come last (asn1c's ext_after and
 *     ext_before follow from root_count and count);
 *   - a CHOICE's tag map is strictly sorted by class, then number (no tag
 *     twice).
 */
#include <stdio.h>
#include <string.h>

#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "gen_lit.h"
#include "schema_emit.h"

#define refuse(type, member, why) gen_refuse("ber_emit", type, member, why)

static int is_string(int kind)
{
	return kind == SK_OCTETS || kind == SK_IA5 || kind == SK_BITS;
}

static void check_type(const gen_schema *s, int ti)
{
	const gen_type *g = &s->types[ti];
	const schema_type *t = &g->t;
	if (t->kind == SK_CHOICE ? t->tag_count != 0 : t->tag_count != 1)
		refuse(t->name, NULL, "a type with other than one tag (none for a CHOICE)");
	if (is_string(t->kind)) {
		const asn_TYPE_descriptor_t *td = g->td;
		if (td->all_tags_count < 1 || td->all_tags_count > 2 || td->all_tags[0] != td->tags[0])
			refuse(t->name, NULL, "a string whose segment tags the reader does not know");
	}
	if (t->kind == SK_SEQUENCE) {
		const asn_SEQUENCE_specifics_t *ss = g->td->specifics;
		int ext = (t->flags & SF_EXTENSIBLE) != 0;
		if (ext ? ss->ext_after + 1 != t->root_count || ss->ext_before != t->count + 1
		        : ss->ext_after != -1 || ss->ext_before != -1)
			refuse(t->name, NULL, "extension additions other than last");
	}
	if (t->kind == SK_CHOICE) {
		for (unsigned i = 1; i < t->tag_map_count; i++) {
			uint32_t a = s->maps[t->tag_map + i - 1].tag, b = s->maps[t->tag_map + i].tag;
			if (((a & 3) << 30 | a >> 2) >= ((b & 3) << 30 | b >> 2))
				refuse(t->name, NULL, "a tag map not strictly sorted");
		}
	}
	for (int i = 0; i < (t->kind <= SK_SET_OF ? t->count : 0); i++) {
		const schema_member *m = &s->members[t->first + i].m;
		const schema_type *mt = &s->types[m->type].t;
		if (m->flags & (SM_OPEN_TYPE | SM_DEFAULT))
			refuse(t->name, m->name, "an open type or a DEFAULT value");
		if (mt->kind == SK_CHOICE && mt->tag_count == 0) {
			if (m->tag_mode == -1)
				refuse(t->name, m->name, "an IMPLICIT tag on an untagged CHOICE");
			if ((m->tag_mode == 1) != (m->tag != UINT32_MAX))
				refuse(t->name, m->name, "a CHOICE's tag unlike its tagging");
		} else if (m->tag_mode == 1) {
			refuse(t->name, m->name, "an EXPLICIT tag on a tagged type");
		}
	}
}

static FILE *out;
static const gen_schema *S;
static int refs[GEN_MAX_TYPES]; /* members of that type */

/*
 * A type's function is offered for inlining into its only user, unless a
 * value of it can hold another: one call less per value. Such a SEQUENCE or
 * list is not in walkers[] (the general path reads it by the schema tables,
 * seq_general() or list_general()), so that no copy is kept out of line.
 */
static const char *linkage(int ti)
{
	return refs[ti] == 1 && !(S->types[ti].t.flags & SF_RECURSIVE) ? "static inline" : "static";
}

/* The reader of constructed type ti: its declaration, or (def) its definition's start. */
static void signature(int ti, int def)
{
	const char *end = def ? "\n{\n" : ";\n";
	if (def)
		fprintf(out, "\n/* %s */\n", S->types[ti].t.name);
	if (S->types[ti].t.kind == SK_CHOICE)
		fprintf(out, "%s pos c_%d(reader *r, char *st, int tagged, pos p, pos lim, const hdr *hp, "
		             "unsigned depth)%s", linkage(ti), ti, end);
	else
		fprintf(out, "%s pos %c_%d(reader *r, char *st, pos p, pos lim, int indef, unsigned depth)%s",
		        linkage(ti), S->types[ti].t.kind == SK_SEQUENCE ? 's' : 'l', ti, end);
}

/* May a SEQUENCE's contents be empty (as seq_general() lets it end before its first member)? */
static int may_be_empty(const schema_type *t)
{
	return t->count == 0 || S->members[t->first].m.optional == t->count ||
	       ((t->flags & SF_EXTENSIBLE) && t->root_count == 0);
}

/*
 * The value of member-like (type, tag_mode) in place at tgt (a char *
 * expression), whose header is at hx (a const hdr * expression: its
 * type's plain form, constructed or not as the type, of a definite length)
 * and position p, in container lim, with the levels open around it at d;
 * the result into e.
 */
static void emit_value(const char *ind, int type, int tag_mode, const char *tgt, const char *hx,
                       const char *p, const char *lim, const char *d)
{
	const gen_type *g = &S->types[type];
	switch (g->t.kind) {
	case SK_SEQUENCE:
	case SK_SEQUENCE_OF:
	case SK_SET_OF: {
		char fn = g->t.kind == SK_SEQUENCE ? 's' : 'l';
		if (fn == 'l' || may_be_empty(&g->t))
			/* Empty contents, which the type allows: nothing to read. */
			fprintf(out, "%se = (%s)->c == (%s)->e ? (%s)->e : %c_%d(r, %s, (%s)->c, (%s)->e, 0, %s + 1);\n",
			        ind, hx, hx, hx, fn, type, tgt, hx, hx, d);
		else
			fprintf(out, "%se = %c_%d(r, %s, (%s)->c, (%s)->e, 0, %s + 1);\n", ind, fn, type, tgt, hx,
			        hx, d);
		break;
	}
	case SK_CHOICE:
		fprintf(out, "%se = c_%d(r, %s, %d, %s, %s, %s, %s);\n", ind, type, tgt, tag_mode == 1, p,
		        lim, hx, d);
		break;
	case SK_INT:
	case SK_ENUM:
		fprintf(out, "%se = r_int(r, (long *)(void *)(%s), %s, %s, %d, %d);\n", ind, tgt, p, hx,
		        (g->t.flags & SF_UNSIGNED) != 0, type);
		break;
	case SK_BOOL:
	case SK_NULL:
		fprintf(out, "%se = r_bool(r, (BOOLEAN_t *)(void *)(%s), %s, %s, %d);\n", ind, tgt, p, hx,
		        type);
		break;
	case SK_OID:
		fprintf(out, "%se = r_oid(r, (OCTET_STRING_t *)(void *)(%s), %s, %s, %d);\n", ind, tgt, p,
		        hx, type);
		break;
	default: /* SK_OCTETS, SK_IA5, SK_BITS */
		fprintf(out, "%se = r_string(r, (OCTET_STRING_t *)(void *)(%s), %s, %s, %s, %s, %d, %d);\n",
		        ind, tgt, p, lim, hx, d, g->t.kind == SK_BITS, type);
		break;
	}
}

/* The identifier octet of tag in the given form; -1 when it needs more than one. */
static int ident(uint32_t tag, int cons)
{
	if (tag == UINT32_MAX || (tag >> 2) > 30)
		return -1;
	return (int)((tag & 3) << 6 | (cons ? 0x20u : 0) | tag >> 2);
}

/*
 * Where member k of the struct at st goes: x set to its node (a pointer
 * member's, allocated and linked) or its place in st; "x" into tgt.
 */
static void place(const char *ind, int k)
{
	char off[2 * GEN_NAME + 64], size[2 * GEN_NAME + 32];
	gen_offset_expr(S, &S->members[k], off, sizeof off);
	if (S->members[k].m.flags & SM_POINTER) {
		gen_size_expr(&S->types[S->members[k].m.type], size, sizeof size);
		fprintf(out, "%sif (!(x = put_node(r, (void **)(void *)(st + %s), %s)))\n%s\treturn NULL;\n",
		        ind, off, size, ind);
	} else {
		fprintf(out, "%sx = st + %s;\n", ind, off);
	}
}

/*
 * A SEQUENCE's definite form with its members in order, each in its plain
 * form, absent optional ones passed: straight-line code. At anything else
 * seq_general() takes over from the first member not yet passed (edx):
 * from there asn1c's search for a tag finds what passing optional members
 * one by one finds, as a SEQUENCE's optional members have distinct tags (an
 * optional member in another form is passed here, and found there).
 */
static void emit_sequence(int ti)
{
	const schema_type *t = &S->types[ti].t;
	const gen_member *el = &S->members[t->first];
	fputs("\tint edx = 0;\n", out);
	if (t->count)
		fputs("\tpos e;\n\tchar *x;\n", out);
	fputs("\tif (indef)\n\t\tgoto general;\n", out);
	int i;
	for (i = 0; i < t->count; i++) {
		const schema_member *m = &el[i].m;
		int cons = schema_constructed(S->types[m->type].t.kind), id = ident(m->tag, cons);
		if (id < 0)
			break;
		/* A header per member, which stays in registers unless that member's reader needs it in memory. */
		fprintf(out, "\t/* %s */\n\tif (lim - p >= 2 && p[0] == 0x%02x) {\n\t\thdr f;\n"
		             "\t\tif (!plain_len(r, p, lim, depth, 0x%xu, %d, &f))\n\t\t\tgoto general;\n",
		        m->name, id, (unsigned)m->tag, cons ? 0x20 : 0);
		place("\t\t", t->first + i);
		emit_value("\t\t", m->type, m->tag_mode, "x", "&f", "p", "lim", "depth");
		fprintf(out, "\t\tif (!e)\n\t\t\treturn r->code ? NULL : pass_over(r, p, lim, 0, depth);\n"
		             "\t\tp = e;\n\t\tedx = %d;\n\t}%s\n",
		        i + 1, m->flags & SM_OPTIONAL ? "" : " else {\n\t\tgoto general;\n\t}");
	}
	if (i == t->count)
		fputs("\tif (p >= lim)\n\t\treturn p;\n", out);
	fprintf(out, "general:\n\treturn seq_general(r, %d, st, p, lim, indef, depth, edx);\n}\n", ti);
}

static void emit_list(int ti)
{
	const schema_type *t = &S->types[ti].t;
	const schema_member *m = &S->members[t->first].m;
	char size[2 * GEN_NAME + 32];
	gen_size_expr(&S->types[m->type], size, sizeof size);
	int cons = schema_constructed(S->types[m->type].t.kind), id = ident(m->tag, cons);
	fprintf(out, "\tlist_items li;\n\tlist_start(r, &li);\n%s\tpos e;\n\tchar *x;\n"
	             "\tfor (;;) {\n"
	             "\t\tif (!indef) {\n\t\t\tif (p >= lim)\n\t\t\t\tbreak;\n"
	             "\t\t} else if (is_eoc(p, lim)) {\n\t\t\tp += 2;\n\t\t\tbreak;\n\t\t}\n",
	        id >= 0 ? "\thdr h;\n" : "");
	if (id >= 0) {
		/* The item's plain form, its header read here; any other, list_item(). */
		fprintf(out, "\t\tif (lim - p >= 2 && p[0] == 0x%02x && plain_len(r, p, lim, depth, 0x%xu, %d, &h)) {\n"
		             "\t\t\tif (!(x = node(r, %s)))\n\t\t\t\treturn NULL;\n",
		        id, (unsigned)m->tag, cons ? 0x20 : 0, size);
		emit_value("\t\t\t", m->type, m->tag_mode, "x", "&h", "p", "lim", "depth");
		fprintf(out, "\t\t} else {\n\t\t\te = list_item(r, %d, &x, p, lim, depth);\n\t\t}\n", ti);
	} else {
		/* An untagged CHOICE, which reads its alternative's header itself (hp NULL). */
		if (m->tag != UINT32_MAX || S->types[m->type].t.kind != SK_CHOICE)
			refuse(t->name, NULL, "an item tag of more than one octet");
		fprintf(out, "\t\tif (!(x = node(r, %s)))\n\t\t\treturn NULL;\n", size);
		emit_value("\t\t", m->type, m->tag_mode, "x", "NULL", "p", "lim", "depth");
	}
	fputs("\t\tif (!e)\n\t\t\treturn r->code ? NULL : pass_over(r, p, lim, indef, depth);\n"
	      "\t\tp = e;\n\t\tif (!list_add(r, &li, x))\n\t\t\treturn NULL;\n\t}\n"
	      "\treturn list_end(st, &li, p);\n}\n", out);
}

static void emit_choice(int ti)
{
	const gen_type *g = &S->types[ti];
	const schema_type *t = &g->t;
	char po[2 * GEN_NAME + 64], ps[2 * GEN_NAME + 64];
	gen_pres_offset_expr(g, po, sizeof po);
	gen_pres_size_expr(g, ps, sizeof ps);
	/*
	 * hp: the header read (of the EXPLICIT tag when tagged, else of the
	 * alternative); NULL when untagged and not read. An alternative in its
	 * plain form (inside a definite tag) is found by its identifier octet
	 * and read here; anything else, choice_general().
	 */
	fputs("\tif (tagged ? hp->cons && hp->e : !hp) {\n"
	      "\t\tpos ap = tagged ? hp->c : p, alim = tagged ? hp->e : lim, e;\n"
	      "\t\tunsigned ad = tagged ? depth + 1 : depth;\n\t\tchar *x;\n"
	      "\t\tif (alim - ap >= 2) {\n\t\t\tswitch (ap[0]) {\n", out);
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		int id = ident(m->tag, schema_constructed(S->types[m->type].t.kind) || m->tag_mode == 1);
		if (id < 0)
			continue;
		fprintf(out, "\t\t\tcase 0x%02x: { /* %s */\n\t\t\t\thdr fh;\n"
		             "\t\t\t\tif (!plain_len(r, ap, alim, ad, 0x%xu, %d, &fh))\n\t\t\t\t\tbreak;\n"
		             "\t\t\t\tschema_present_set(st + %s, %s, %d);\n",
		        id, m->name, (unsigned)m->tag, id & 0x20, po, ps, i + 1);
		place("\t\t\t\t", k);
		emit_value("\t\t\t\t", m->type, m->tag_mode, "x", "&fh", "ap", "alim", "ad");
		fputs("\t\t\t\tgoto read;\n\t\t\t}\n", out);
	}
	fprintf(out, "\t\t\t}\n\t\t}\n\t\tif (0) {\n\t\tread:\n"
	             "\t\t\tif (!e)\n\t\t\t\treturn r->code || !tagged ? NULL : pass_over(r, ap, alim, 0, ad);\n"
	             "\t\t\tif (tagged && e != alim) {\n\t\t\t\tmismatch(r, e, %d); /* more than one value in the tag */\n"
	             "\t\t\t\treturn pass_over(r, e, alim, 0, ad);\n\t\t\t}\n\t\t\treturn e;\n\t\t}\n\t}\n"
	             "\treturn choice_general(r, %d, st, tagged, p, lim, hp, depth);\n}\n",
	        ti, ti);
}

int emit_ber_readers(const gen_schema *s, FILE *f)
{
	gen_failed = 0;
	out = f;
	S = s;
	memset(refs, 0, sizeof refs);
	for (int i = 0; i < s->ntypes; i++) {
		check_type(s, i);
		const schema_type *t = &s->types[i].t;
		for (int k = 0; k < (t->kind <= SK_SET_OF ? t->count : 0); k++)
			refs[s->members[t->first + k].m.type]++;
	}
	fputs("/* Generated by tools/gen (ber_emit.c) from the schema; do not edit. */\n", f);
	emit_includes(s, f);
	fputs("\n", f);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind))
			signature(i, 0);
	for (int i = 0; i < s->ntypes; i++) {
		int k = s->types[i].t.kind;
		if (schema_constructed(k))
			signature(i, 1);
		if (k == SK_SEQUENCE)
			emit_sequence(i);
		else if (k == SK_SEQUENCE_OF || k == SK_SET_OF)
			emit_list(i);
		else if (k == SK_CHOICE)
			emit_choice(i);
	}
	/* For the general path (read_value()): each SEQUENCE's and list's reader by type, but those in line. */
	fputs("\nstatic walker *const walkers[SCHEMA_NTYPES] = {\n", f);
	for (int i = 0; i < s->ntypes; i++)
		if (schema_constructed(s->types[i].t.kind) && strcmp(linkage(i), "static") == 0 &&
		    s->types[i].t.kind != SK_CHOICE)
			fprintf(f, "\t[%d] = %c_%d,\n", i, s->types[i].t.kind == SK_SEQUENCE ? 's' : 'l', i);
	fputs("};\n", f);
	/* Segment tags below a constructed string's first level, where not the type's own. */
	fputs("\nstatic const uint32_t inner_tags[SCHEMA_NTYPES] = {\n", f);
	for (int i = 0; i < s->ntypes; i++) {
		const asn_TYPE_descriptor_t *td = s->types[i].td;
		if (is_string(s->types[i].t.kind) && td->all_tags[td->all_tags_count - 1] != td->all_tags[0])
			fprintf(f, "\t[%d] = 0x%xu,\n", i, (unsigned)td->all_tags[td->all_tags_count - 1]);
	}
	fputs("};\n", f);
	return gen_failed || ferror(f) ? -1 : 0;
}
