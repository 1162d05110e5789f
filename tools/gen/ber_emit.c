/*
 * Writes the BER reader's walk over the schema (megaco_ber.inc, #included
 * by src/ber_reader.c): one function per constructed type that reads its
 * contents, with member tags, offsets and sizes as constants (offsetof()
 * and sizeof() for the target compiler), calling at each member the leaf
 * reader or the constructed type's function; and one root reader per type
 * (the value with its type's own tag), for ber_read(). The decoding rules
 * (structure, errors, asn1c's member search, extensions, strings) are
 * ber_reader.c's helpers; this only unrolls the walk over the schema, with
 * the one BER fact the schema tables leave out: the tag that asn1c wants
 * on a constructed string's segments below the first level. It checks that
 * the schema has the shape the walk relies on, refusing the build otherwise:
 *   - each value carries exactly one tag (its member's IMPLICIT tag or its
 *     type's own), but an untagged CHOICE (none) under an EXPLICIT tag or
 *     none, so that every value is one TLV or an EXPLICIT tag around one;
 *   - no open types and no DEFAULT values;
 *   - a SEQUENCE's extension additions come last (asn1c's ext_after and
 *     ext_before follow from root_count and count);
 *   - a CHOICE's tag map is strictly sorted by class, then number (no tag
 *     twice);
 *   - a SEQUENCE may end before member i exactly for i past some index.
 */
#include <stdio.h>
#include <string.h>

#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "schema_emit.h"

static int failed;

static void refuse(const char *type, const char *member, const char *why)
{
	fprintf(stderr, "ber_emit: %s%s%s: %s\n", type ? type : "?", member ? "." : "",
	        member ? member : "", why);
	failed = 1;
}

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
 * A CHOICE's function is offered for inlining into its only user, unless a
 * value of it can hold another: one call less per value, no code copied.
 */
static const char *linkage(int ti)
{
	return refs[ti] == 1 && !(S->types[ti].t.flags & SF_RECURSIVE) &&
	               S->types[ti].t.kind == SK_CHOICE
	           ? "static inline"
	           : "static";
}

/* The first member index before which a SEQUENCE may end (asn1c's rule, see may_end). */
static int end_threshold(const schema_type *t)
{
	int k = -1;
	for (int edx = 0; edx <= t->count; edx++) {
		int may = edx == t->count || edx + S->members[t->first + edx].m.optional == t->count ||
		          ((t->flags & SF_EXTENSIBLE) && edx >= t->root_count);
		if (may && k < 0)
			k = edx;
		if (!may && k >= 0)
			refuse(t->name, NULL, "a SEQUENCE that may end before a member but not after it");
	}
	return k;
}

/*
 * The value of member-like (type, tag_mode) in place at tgt (a char *
 * expression), whose header is at hx (a const hdr * expression) and
 * position p, in container lim, with the levels open around it at d; the
 * result into e. plain: the header is the type's plain form (plain_len()),
 * constructed or not as the type, of a definite length.
 */
static void emit_value(const char *ind, int type, int tag_mode, const char *tgt, const char *hx,
                       const char *p, const char *lim, const char *d, int plain)
{
	const gen_type *g = &S->types[type];
	switch (g->t.kind) {
	case SK_SEQUENCE:
	case SK_SEQUENCE_OF:
	case SK_SET_OF: {
		char fn = g->t.kind == SK_SEQUENCE ? 's' : 'l';
		if (plain && (fn == 'l' || end_threshold(&g->t) == 0))
			/* Empty contents, which the type allows: nothing to read. */
			fprintf(out, "%se = (%s)->c == (%s)->e ? (%s)->e : %c_%d(r, %s, (%s)->c, (%s)->e, 0, %s + 1);\n",
			        ind, hx, hx, hx, fn, type, tgt, hx, hx, d);
		else if (plain)
			fprintf(out, "%se = %c_%d(r, %s, (%s)->c, (%s)->e, 0, %s + 1);\n", ind, fn, type, tgt, hx,
			        hx, d);
		else
			fprintf(out, "%se = (%s)->cons ? %c_%d(r, %s, (%s)->c, (%s)->e ? (%s)->e : %s, !(%s)->e, %s + 1)\n"
			        "%s             : mismatch(r, %s, %d);\n",
			        ind, hx, fn, type, tgt, hx, hx, hx, lim, hx, d, ind, p, type);
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
		/* Segment tags: the type's own at the first level, asn1c's last tag deeper. */
		fprintf(out, "%se = r_string(r, (OCTET_STRING_t *)(void *)(%s), %s, %s, %s, %s, %d, 0x%xu, "
		        "0x%xu, %d);\n", ind, tgt, p, lim, hx, d, g->t.kind == SK_BITS,
		        (unsigned)g->td->all_tags[0],
		        (unsigned)g->td->all_tags[g->td->all_tags_count - 1], type);
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

/* Is a value of this type constructed in its plain form? */
static int plain_cons(int type)
{
	int k = S->types[type].t.kind;
	return k == SK_SEQUENCE || k == SK_SEQUENCE_OF || k == SK_SET_OF || k == SK_CHOICE;
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

static void emit_sequence(int ti)
{
	const gen_type *g = &S->types[ti];
	const schema_type *t = &g->t;
	const gen_member *el = &S->members[t->first];
	fprintf(out, "\n/* %s */\n%s pos s_%d(reader *r, char *st, pos p, pos lim, int indef, "
	             "unsigned depth)\n{\n", t->name, linkage(ti), ti);
	int k = end_threshold(t);
	if (t->count == 0) {
		fprintf(out, "\tif (!indef ? p >= lim : is_eoc(p, lim))\n"
		             "\t\treturn seq_end(r, %d, 1, p, indef);\n"
		             "\treturn seq_tail(r, %d, p, lim, indef, depth);\n}\n", ti, ti);
		return;
	}
	fprintf(out, "\tint edx = 0;\n\thdr h;\n\tpos e;\n\tchar *x;\n");
	/*
	 * The definite form's members in order, each in its plain form, absent
	 * optional ones passed: straight-line code. At anything else the loop
	 * below takes over from the first member not yet passed (edx): from
	 * there asn1c's search for a tag finds what passing optional members
	 * one by one finds, as a SEQUENCE's optional members have distinct tags
	 * (an optional member in another form is passed here, and found there).
	 */
	fputs("\tif (indef)\n\t\tgoto general;\n\t{\n\t\thdr f;\n", out);
	int fast_end = 1;
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &el[i].m;
		int cons = plain_cons(m->type), id = ident(m->tag, cons);
		if (id < 0) {
			fprintf(out, "\t\tgoto fallback; /* %s: not one identifier octet */\n", m->name);
			fast_end = 0;
			break;
		}
		fprintf(out, "\t\t/* %s */\n\t\tif (lim - p >= 2 && p[0] == 0x%02x) {\n"
		             "\t\t\tif (!plain_len(r, p, lim, depth, 0x%xu, %d, &f))\n\t\t\t\tgoto fallback;\n",
		        m->name, id, (unsigned)m->tag, cons ? 0x20 : 0);
		place("\t\t\t", t->first + i);
		emit_value("\t\t\t", m->type, m->tag_mode, "x", "&f", "p", "lim", "depth", 1);
		fprintf(out, "\t\t\tif (!e)\n\t\t\t\treturn r->code ? NULL : pass_over(r, p, lim, 0, depth);\n"
		             "\t\t\tp = e;\n\t\t\tedx = %d;\n\t\t}%s\n",
		        i + 1, m->flags & SM_OPTIONAL ? "" : " else {\n\t\t\tgoto fallback;\n\t\t}");
	}
	if (fast_end)
		fputs("\t\tif (p >= lim)\n\t\t\treturn p;\n\t\tgoto fallback;\n", out);
	/* Said again, so that the argument is not kept through the reads above. */
	fputs("\t}\nfallback:\n\tindef = 0;\ngeneral:\n", out);
	fprintf(out, "\tfor (;; edx++) {\n"
	             "\t\tif (!indef ? p >= lim : is_eoc(p, lim))\n"
	             "\t\t\treturn seq_end(r, %d, edx >= %d, p, indef);\n"
	             "\t\tif (edx >= %d)\n\t\t\treturn seq_tail(r, %d, p, lim, indef, depth);\n"
	             "\t\tif (!header(r, p, lim, depth, &h))\n\t\t\treturn NULL;\n"
	             "\t\tswitch (edx) {\n",
	        ti, k, t->count, ti);
	for (int i = 0; i < t->count; i++) {
		const schema_member *m = &el[i].m;
		fprintf(out, "\t\tcase %d: /* %s */\n", i, m->name);
		if (m->tag == UINT32_MAX)
			fputs("\t\t\tbreak; /* an untagged CHOICE: seq_find() */\n", out);
		else
			fprintf(out, "\t\t\tif (h.tag != 0x%xu)\n\t\t\t\tbreak;\n", (unsigned)m->tag);
		fprintf(out, "\t\tm%d:\n", i);
		place("\t\t\t", t->first + i);
		emit_value("\t\t\t", m->type, m->tag_mode, "x", "&h", "p", "lim", "depth", 0);
		fputs("\t\t\tgoto next;\n", out);
	}
	fprintf(out, "\t\t}\n\t\t/* Not the next member in order. */\n"
	             "\t\tswitch (seq_find(%d, edx, h.tag)) {\n", ti);
	for (int i = 0; i < t->count; i++)
		fprintf(out, "\t\tcase %d:\n\t\t\tedx = %d;\n\t\t\tgoto m%d;\n", i, i, i);
	fprintf(out, "\t\tdefault:\n"
	             "\t\t\tif (!(e = seq_unknown(r, %d, edx, &h, p, lim, depth)))\n"
	             "\t\t\t\treturn r->code ? NULL : pass_over(r, p, lim, indef, depth);\n"
	             "\t\t\tp = e;\n\t\t\tedx = seq_after_unknown(%d, edx);\n\t\t\tcontinue;\n\t\t}\n"
	             "\tnext:\n\t\tif (!e)\n\t\t\treturn r->code ? NULL : pass_over(r, p, lim, indef, depth);\n"
	             "\t\tp = e;\n\t}\n}\n", ti, ti);
}

static void emit_list(int ti)
{
	const gen_type *g = &S->types[ti];
	const schema_type *t = &g->t;
	const schema_member *m = &S->members[t->first].m;
	char size[2 * GEN_NAME + 32];
	gen_size_expr(&S->types[m->type], size, sizeof size);
	int cons = plain_cons(m->type), id = ident(m->tag, cons);
	fprintf(out, "\n/* %s */\n%s pos l_%d(reader *r, char *st, pos p, pos lim, int indef, "
	             "unsigned depth)\n{\n"
	             "\tlist_items li;\n\tlist_start(r, &li);\n%s\tpos e;\n\tchar *x;\n"
	             "\tfor (;;) {\n"
	             "\t\tif (!indef) {\n\t\t\tif (p >= lim)\n\t\t\t\tbreak;\n"
	             "\t\t} else if (is_eoc(p, lim)) {\n\t\t\tp += 2;\n\t\t\tbreak;\n\t\t}\n",
	        t->name, linkage(ti), ti, id >= 0 ? "\thdr h;\n" : "");
	if (id >= 0) {
		/* The item's plain form, its header read here. */
		fprintf(out, "\t\tif (lim - p >= 2 && p[0] == 0x%02x && plain_len(r, p, lim, depth, 0x%xu, %d, &h)) {\n"
		             "\t\t\tif (!(x = node(r, %s)))\n\t\t\t\treturn NULL;\n",
		        id, (unsigned)m->tag, cons ? 0x20 : 0, size);
		emit_value("\t\t\t", m->type, m->tag_mode, "x", "&h", "p", "lim", "depth", 1);
		fprintf(out, "\t\t} else {\n\t\t\tif (!header(r, p, lim, depth, &h))\n\t\t\t\treturn NULL;\n"
		             "\t\t\tif (h.tag != 0x%xu) {\n\t\t\t\tmismatch(r, p, %d);\n"
		             "\t\t\t\treturn pass_over(r, p, lim, indef, depth);\n\t\t\t}\n",
		        (unsigned)m->tag, ti);
	} else {
		/* An untagged CHOICE, which reads its alternative's header itself (hp NULL). */
		if (m->tag != UINT32_MAX || S->types[m->type].t.kind != SK_CHOICE)
			refuse(t->name, NULL, "an item tag of more than one octet");
		fputs("\t\t{\n", out);
	}
	fprintf(out, "\t\t\tif (!(x = node(r, %s)))\n\t\t\t\treturn NULL;\n", size);
	emit_value("\t\t\t", m->type, m->tag_mode, "x", id >= 0 ? "&h" : "NULL", "p", "lim", "depth", 0);
	fputs("\t\t}\n\t\tif (!e)\n\t\t\treturn r->code ? NULL : pass_over(r, p, lim, indef, depth);\n"
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
	 * and read here; anything else takes the general path below.
	 */
	fprintf(out, "\n/* %s */\n%s pos c_%d(reader *r, char *st, int tagged, pos p, pos lim, "
	             "const hdr *hp, unsigned depth)\n{\n"
	             "\thdr ah;\n\tpos e;\n\tchar *x;\n"
	             "\tif (tagged ? hp->cons && hp->e : !hp) {\n"
	             "\t\tpos ap = tagged ? hp->c : p, alim = tagged ? hp->e : lim;\n"
	             "\t\tunsigned ad = tagged ? depth + 1 : depth;\n\t\thdr fh;\n"
	             "\t\tif (alim - ap >= 2) {\n\t\t\tswitch (ap[0]) {\n",
	        t->name, linkage(ti), ti);
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		int id = ident(m->tag, plain_cons(m->type) || m->tag_mode == 1);
		if (id < 0)
			continue;
		fprintf(out, "\t\t\tcase 0x%02x: /* %s */\n"
		             "\t\t\t\tif (!plain_len(r, ap, alim, ad, 0x%xu, %d, &fh))\n\t\t\t\t\tbreak;\n"
		             "\t\t\t\tschema_present_set(st + %s, %s, %d);\n",
		        id, m->name, (unsigned)m->tag, id & 0x20, po, ps, i + 1);
		place("\t\t\t\t", k);
		emit_value("\t\t\t\t", m->type, m->tag_mode, "x", "&fh", "ap", "alim", "ad", 1);
		fputs("\t\t\t\tgoto read;\n", out);
	}
	fprintf(out, "\t\t\t}\n\t\t}\n\t\tif (0) {\n\t\tread:\n"
	             "\t\t\tif (!e)\n\t\t\t\treturn r->code || !tagged ? NULL : pass_over(r, ap, alim, 0, ad);\n"
	             "\t\t\tif (tagged && e != alim) {\n\t\t\t\tmismatch(r, e, %d); /* more than one value in the tag */\n"
	             "\t\t\t\treturn pass_over(r, e, alim, 0, ad);\n\t\t\t}\n\t\t\treturn e;\n\t\t}\n\t}\n"
	             "\tchoice_frame f = { .ap = p, .alim = lim, .depth = depth };\n"
	             "\tif (!hp) {\n\t\tif (!header(r, p, lim, depth, &ah))\n\t\t\treturn NULL;\n"
	             "\t\thp = &ah;\n\t} else if (tagged) {\n"
	             "\t\tint k = choice_open(r, %d, p, lim, &hp, &ah, &f);\n"
	             "\t\tif (k <= 0)\n\t\t\treturn k ? pass_over(r, f.ap, f.alim, f.indef, f.depth) : NULL;\n"
	             "\t}\n"
	             "\tswitch (hp->tag) {\n",
	        ti, ti);
	for (int i = 0; i < t->count; i++) {
		int k = t->first + i;
		const schema_member *m = &S->members[k].m;
		int any = 0;
		for (unsigned j = 0; j < t->tag_map_count; j++) {
			const schema_tag2member *e = &S->maps[t->tag_map + j];
			if (e->member == i) {
				fprintf(out, "\tcase 0x%xu:\n", (unsigned)e->tag);
				any = 1;
			}
		}
		if (!any) {
			refuse(t->name, m->name, "an alternative without a tag");
			continue;
		}
		fprintf(out, "\t\t/* %s */\n\t\tschema_present_set(st + %s, %s, %d);\n", m->name, po, ps, i + 1);
		place("\t\t", k);
		emit_value("\t\t", m->type, m->tag_mode, "x", "hp", "f.ap", "f.alim", "f.depth", 0);
		fputs("\t\tbreak;\n", out);
	}
	fprintf(out, "\tdefault:\n\t\te = choice_unknown(r, %d, %d, hp, &f);\n\t}\n"
	             "\treturn tagged ? choice_close(r, %d, e, &f) : e;\n}\n",
	        ti, (t->flags & SF_EXTENSIBLE) != 0, ti);
}

int emit_ber_readers(const gen_schema *s, FILE *f)
{
	failed = 0;
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
	for (int i = 0; i < s->ntypes; i++) {
		int k = s->types[i].t.kind;
		if (k == SK_SEQUENCE)
			fprintf(f, "%s pos s_%d(reader *r, char *st, pos p, pos lim, int indef, unsigned depth);\n",
			        linkage(i), i);
		else if (k == SK_SEQUENCE_OF || k == SK_SET_OF)
			fprintf(f, "%s pos l_%d(reader *r, char *st, pos p, pos lim, int indef, unsigned depth);\n",
			        linkage(i), i);
		else if (k == SK_CHOICE)
			fprintf(f, "%s pos c_%d(reader *r, char *st, int tagged, pos p, pos lim, "
			           "const hdr *hp, unsigned depth);\n", linkage(i), i);
	}
	for (int i = 0; i < s->ntypes; i++) {
		int k = s->types[i].t.kind;
		if (k == SK_SEQUENCE)
			emit_sequence(i);
		else if (k == SK_SEQUENCE_OF || k == SK_SET_OF)
			emit_list(i);
		else if (k == SK_CHOICE)
			emit_choice(i);
	}
	/* Roots: each type as a member of nothing, with its own tag. */
	fputs("\n/* Each type as the root of a message: its own tag (an untagged CHOICE: none). */\n", f);
	for (int i = 0; i < s->ntypes; i++) {
		const schema_type *t = &s->types[i].t;
		char size[2 * GEN_NAME + 32];
		gen_size_expr(&s->types[i], size, sizeof size);
		fprintf(f, "\nstatic pos root_%d(reader *r, void **slot, pos p, pos lim, const hdr *hp)\n{\n"
		           "\tpos e;\n\tchar *x;\n\t(void)lim;\n",
		        i);
		if (t->tag_count)
			fprintf(f, "\tif (hp->tag != 0x%xu)\n\t\treturn mismatch(r, p, %d);\n",
			        (unsigned)s->tags[t->tags], i);
		fprintf(f, "\tif (!(x = *slot ? *slot : put_node(r, slot, %s)))\n\t\treturn NULL;\n", size);
		emit_value("\t", i, 0, "x", "hp", "p", "lim", "0", 0);
		fputs("\treturn e;\n}\n", f);
	}
	fputs("\ntypedef pos root_reader(reader *r, void **slot, pos p, pos lim, const hdr *hp);\n"
	      "static root_reader *const root_readers[SCHEMA_NTYPES] = {\n", f);
	for (int i = 0; i < s->ntypes; i++)
		fprintf(f, "\troot_%d,\n", i);
	fputs("};\n", f);
	return failed || ferror(f) ? -1 : 0;
}
