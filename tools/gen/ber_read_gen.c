/*
 * Build-time generator of the BER reader's type-specialised readers.
 *
 * It compiles src/ber_reader.c itself, compiles the module's tables exactly
 * as the library does at run time, and writes one C function per SEQUENCE,
 * SEQUENCE OF / SET OF and CHOICE with its members' identifier octets,
 * offsets, node sizes and kinds as constants: a SEQUENCE's members as
 * straight-line code (an absent optional member is a jump), a CHOICE as a
 * switch on the alternative's identifier octet, the common primitives in
 * line. They take only the definite-length one-octet-tag forms, each value
 * at its identifier octet of the usual form (constructed or primitive, see
 * natural()), and hand anything else (indefinite lengths, long tags, unknown
 * members or alternatives, the other form, errors) to the table walk's function
 * for that point, which decides as before. The output is #included back
 * into ber_reader.c, which uses it only when its tables, at run time, have
 * the fingerprint written here, so a stale or foreign output can only cost
 * speed, never change a result.
 *
 * Usage: ber_read_gen OUTPUT
 */
#define BER_READ_GENERATOR 1
#include "ber_reader.c"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_lit.h"

static FILE *out;

static long ti(const rtype *t) { return (long)(t - types); }
static long mi(const rmember *m) { return (long)(m - members); }

/* The identifier octet of a one-octet tag, constructed bit set; 0 if it takes more. */
static unsigned idc_of(ber_tlv_tag_t tag)
{
	if (tag == (ber_tlv_tag_t)-1 || BER_TAG_VALUE(tag) >= 31)
		return 0;
	return (unsigned)(BER_TAG_CLASS(tag) << 6 | 0x20 | BER_TAG_VALUE(tag));
}

/*
 * Whether a CHOICE gets its switch: an untagged CHOICE whose alternatives'
 * tags are distinct (then the table walk's map and bsearch() find the same
 * one the switch does).
 */
static int choice_ok(const rtype *t)
{
	if (t->kind != K_CHOICE || !t->no_tags || !t->map || t->map_count < 1)
		return 0;
	for (int i = 0; i < t->map_count; i++)
		for (int j = 0; j < i; j++)
			if (t->map[i].el_tag == t->map[j].el_tag)
				return 0;
	return 1;
}

static const char *type_name(const rtype *t) { return t->td->name ? t->td->name : "?"; }

/*
 * The generated reader ("gs", "gl" or "gc1", of m's type) that reads member
 * m found with the one-octet tag tag, or NULL where the table walk does.
 */
static const char *callee(const rmember *m, ber_tlv_tag_t tag)
{
	int matched = tag == m->tag;
	if (m->fast == F_SEQUENCE && m->plain && matched)
		return "gs";
	if (m->fast == F_LIST && m->plain && matched)
		return "gl";
	if (m->fast == F_CHOICE && choice_ok(m->type) && m->tag_mode == 1 && matched)
		return "gc1";
	return NULL;
}

/*
 * The one identifier octet (of the two forms of id, m's one-octet tag with
 * the constructed bit set) at which the generated code reads member m in
 * line: constructed for a generated reader, primitive for g_string(),
 * g_int() and g_bool(), which thus need not test the bit; the other form
 * goes to the table walk, which decides. 0 where the member is read by
 * the walk's member readers, which take either form.
 */
static unsigned natural(const rmember *m, ber_tlv_tag_t tag, unsigned id)
{
	if (callee(m, tag))
		return id;
	if (m->fast == F_STRING || m->fast == F_INT || m->fast == F_BOOL)
		return id & ~0x20u;
	return 0;
}

/* "case X:" for the octets at which member m, found by its tag, is read in line. */
static void emit_case(const rmember *m, ber_tlv_tag_t tag, unsigned id, const char *ind)
{
	unsigned nat = natural(m, tag, id);
	if (nat)
		fprintf(out, "%scase 0x%02x:\n", ind, nat);
	else
		fprintf(out, "%scase 0x%02x:\n%scase 0x%02x:\n", ind, id, ind, id & ~0x20u);
}

/* The untagged CHOICE a list's items are read by (gc0_), or NULL. */
static const rtype *item_choice(const rmember *e)
{
	if (!e->idc && e->tag == (ber_tlv_tag_t)-1 && e->fast == F_CHOICE && e->tag_mode == 0 &&
	    choice_ok(e->type))
		return e->type;
	return NULL;
}

/*
 * The generated readers as a graph: node 2 * type + 1 is the type's gs_,
 * gl_ or gc1_ (which opens the value's header), 2 * type its gc0_; an edge
 * goes to each reader a reader calls, as the emitters below call them
 * (through callee() and item_choice()).
 */
#define MAX_NODES (2 * MAX_TYPES)
#define MAX_CALLS (4 * MAX_MEMBERS)
static int first_call[MAX_NODES + 1], calls[MAX_CALLS], ncalls;

static void add_call(int v)
{
	if (ncalls == MAX_CALLS) {
		fputs("ber_read_gen: MAX_CALLS too small\n", stderr);
		exit(1);
	}
	calls[ncalls++] = v;
}

static void add_calls(const rtype *t)
{
	for (int j = 0; j < t->count; j++) {
		const rmember *m = &t->m[j];
		const rtype *alt;
		if ((t->kind == K_SEQUENCE || t->kind == K_LIST) && m->idc) {
			if (callee(m, m->tag))
				add_call((int)(2 * ti(m->type) + 1));
		} else if (t->kind == K_LIST && (alt = item_choice(m)) != NULL) {
			add_call((int)(2 * ti(alt)));
		}
	}
	for (int j = 0; t->kind == K_CHOICE && j < t->map_count; j++) {
		const asn_TYPE_tag2member_t *e = &t->map[j];
		if (idc_of(e->el_tag) && callee(&t->m[e->el_no], e->el_tag))
			add_call((int)(2 * ti(t->m[e->el_no].type) + 1));
	}
}

static void build_calls(void)
{
	for (unsigned v = 0; v < 2 * module_ntypes; v++) {
		first_call[v] = ncalls;
		add_calls(&types[v / 2]);
	}
	first_call[2 * module_ntypes] = ncalls;
}

/* Marks in seen[] every node reached from v by one call or more. */
static void reach(int v, unsigned char *seen)
{
	for (int k = first_call[v]; k < first_call[v + 1]; k++)
		if (!seen[calls[k]]) {
			seen[calls[k]] = 1;
			reach(calls[k], seen);
		}
}

/*
 * checked[v]: reader v may run at any depth, being in a recursion or
 * called, at some remove, from one: it checks the depth against max_depth.
 * The others run only above every recursion, so that their depth is
 * bounded: levels_of() them.
 */
static unsigned char checked[MAX_NODES];

static void find_checked(void)
{
	static unsigned char seen[MAX_NODES], cyclic[MAX_NODES];
	for (unsigned v = 0; v < 2 * module_ntypes; v++) {
		memset(seen, 0, sizeof seen);
		reach((int)v, seen);
		cyclic[v] = seen[v];
	}
	for (unsigned v = 0; v < 2 * module_ntypes; v++)
		if (cyclic[v] && !checked[v]) {
			checked[v] = 1;
			reach((int)v, checked);
		}
}

/* The most levels opened, nested, by unchecked readers from v on (v's own included). */
static int levels_of(int v)
{
	static int memo[MAX_NODES];
	if (checked[v])
		return 0;
	if (memo[v])
		return memo[v] - 1;
	int most = 0;
	for (int k = first_call[v]; k < first_call[v + 1]; k++) {
		int n = levels_of(calls[k]);
		most = n > most ? n : most;
	}
	most += v & 1;
	memo[v] = most + 1;
	return most;
}

/* g_open()'s flag for the reader that opens t's header. */
static const char *depth_check(const rtype *t) { return checked[2 * ti(t) + 1] ? "1" : "0"; }

/*
 * "p = <member K's value at p, whose one-octet tag is tag, before lim>;"
 * then the return on failure. slot is the expression for its void **.
 */
static void emit_read(const rmember *m, ber_tlv_tag_t tag, const char *slot, const char *d,
                      const char *ind)
{
	const rtype *t = m->type;
	long k = mi(m);
	const char *g = callee(m, tag);
	switch (m->fast) {
	case F_SEQUENCE:
	case F_LIST:
	case F_CHOICE:
		if (g)
			fprintf(out, "%sp = %s_%ld(r, &members[%ld], %s, p, lim, %s); /* %s */\n", ind, g, ti(t),
			        k, slot, d, type_name(t));
		else
			fprintf(out, "%sr->depth = %s;\n%sp = read_member_call(r, &members[%ld], %s, p, p + 1, "
			             "%#lxu, lim);\n", ind, d, ind, k, slot, (unsigned long)tag);
		break;
	case F_STRING:
		fprintf(out, "%sp = g_string(r, &members[%ld], %s, p, lim, %s, %#lxu, %d); /* %s */\n", ind,
		        k, slot, d, (unsigned long)tag, t->size, type_name(t));
		break;
	case F_INT:
		fprintf(out, "%sp = g_int(r, &members[%ld], %s, p, lim, %s, %#lxu, %d); /* %s */\n", ind, k,
		        slot, d, (unsigned long)tag, t->is_unsigned, type_name(t));
		break;
	case F_BOOL:
		fprintf(out, "%sp = g_bool(r, &members[%ld], %s, p, lim, %s, %#lxu); /* %s */\n", ind, k,
		        slot, d, (unsigned long)tag, type_name(t));
		break;
	default:
		fprintf(out, "%sr->depth = %s;\n%sp = read_member_slow(r, &members[%ld], %s, p, p + 1, "
		             "%#lxu, lim);\n", ind, d, ind, k, slot, (unsigned long)tag);
		break;
	}
	fprintf(out, "%sif (!p)\n%s\treturn NULL;\n", ind, ind);
}

/* The slot of member m of the node st, as emit_read() takes it. */
static const char *slot_of(const rmember *m)
{
	static char buf[96];
	if (m->pointer)
		snprintf(buf, sizeof buf, "(void **)(st + %d)", m->offset);
	else
		snprintf(buf, sizeof buf, "(tmp = st + %d, &tmp)", m->offset);
	return buf;
}

/*
 * What read_sequence()'s fast loop does at member j, by identifier octet:
 * member j itself, or (its search) a later one in j's range of optional
 * members, up to the first untagged CHOICE or open type and only if the
 * range is 8 at most; the first of equal octets wins. Returns how many,
 * the members in k[] and their octets in id[]; every other octet is
 * read_members()'s.
 */
static int cases_at(const rtype *t, int j, int *k, unsigned *id)
{
	const rmember *m = &t->m[j];
	int n = 0, end = j + m->optional + 1;
	if (m->idc) {
		k[n] = j;
		id[n++] = m->idc;
	}
	if (end > t->count)
		end = t->count;
	if (end - j > 8)
		return n;
	for (int i = j; i < end && !t->m[i].special; i++) {
		unsigned c = t->m[i].idc;
		int dup = !c;
		for (int x = 0; x < n; x++)
			dup |= id[x] == c;
		if (!dup) {
			k[n] = i;
			id[n++] = c;
		}
	}
	return n;
}

/*
 * The opening of gs_ (prefix 's') or gl_ ('l'): the node, then the usual
 * header, anything else handed to the table walk's reader of the kind.
 */
static void emit_opening(const rtype *t, char prefix, const char *walk)
{
	fprintf(out, "\n/* %s */\n", type_name(t));
	fprintf(out, "static pos g%c_%ld(G_PARAMS)\n{\n", prefix, ti(t));
	fprintf(out, "\tchar *st = g_node(r, slot, %d);\n\tif (!st)\n\t\treturn NULL;\n", t->size);
	fprintf(out, "\tsize_t len;\n\tpos c = g_open(r, p, lim, &len, depth, %s);\n"
	             "\tif (UNLIKELY(!c)) {\n\t\tr->depth = depth;\n"
	             "\t\treturn %s(r, mt, slot, p, p + 1, mt->tag, lim);\n\t}\n"
	             "\tp = c;\n\tlim = c + len;\n", depth_check(t), walk);
}

/*
 * read_sequence()'s fast loop, unrolled: at each member the switch of
 * cases_at(), a later member reached by a jump (the optional ones between
 * absent), anything else handed to read_members() at that member, which
 * is where the loop would stop.
 */
static void emit_sequence(const rtype *t)
{
	int n = t->count, k[MAX_MEMBERS];
	unsigned id[MAX_MEMBERS];
	static unsigned char target[MAX_MEMBERS];
	memset(target, 0, sizeof target);
	int done_used = 0;
	for (int j = 0; j < n; j++) {
		int nc = cases_at(t, j, k, id);
		for (int x = 0; x < nc; x++)
			if (k[x] != j)
				target[k[x]] = 1;
		done_used |= t->m[j].may_end;
	}
	emit_opening(t, 's', "read_sequence");
	fputs("\tvoid *tmp;\n\t(void)tmp;\n", out);
	for (int j = 0; j < n; j++) {
		const rmember *m = &t->m[j];
		fprintf(out, "\t/* %d: %s */\n", j, m->type ? type_name(m->type) : "?");
		fprintf(out, "\tif (p == lim)\n");
		if (m->may_end)
			fprintf(out, "\t\tgoto done;\n");
		else
			fprintf(out, "\t\treturn r->depth = depth + 1, read_members(r, &types[%ld], st, p, lim, "
			             "0, 1, %d);\n", ti(t), j);
		int nc = cases_at(t, j, k, id);
		fprintf(out, "\tswitch (*p) {\n");
		for (int x = 0; x < nc; x++) {
			const rmember *mk = &t->m[k[x]];
			emit_case(mk, mk->tag, id[x], "\t");
			if (k[x] == j)
				fprintf(out, "\t\tbreak;\n");
			else
				fprintf(out, "\t\tgoto m%d;\n", k[x]);
		}
		fprintf(out, "\tdefault:\n\t\tr->depth = depth + 1;\n"
		             "\t\treturn read_members(r, &types[%ld], st, p, lim, lim - p, 1, %d);\n"
		             "\t}\n", ti(t), j);
		if (!m->idc)
			continue; /* never read here: only read_members() takes it */
		if (target[j])
			fprintf(out, "m%d:\n", j);
		emit_read(m, m->tag, slot_of(m), "depth + 1", "\t");
	}
	fprintf(out, "\tif (p != lim)\n\t\treturn r->depth = depth + 1, read_members(r, &types[%ld], st, "
	             "p, lim, lim - p, 1, %d);\n", ti(t), n);
	fprintf(out, "%s\treturn p;\n}\n", done_used ? "done:\n" : "");
}

/* read_list()'s loop, the item read in line. */
static void emit_list(const rtype *t)
{
	const rmember *e = &t->m[0];
	emit_opening(t, 'l', "read_list");
	fputs("\tvoid *local[LOCAL_ITEMS], **items = local;\n\tsize_t n = 0, cap = LOCAL_ITEMS;\n"
	      "\twhile (p < lim) {\n\t\tvoid *item = NULL;\n", out);
	if (e->idc) {
		unsigned nat = natural(e, e->tag, e->idc);
		if (nat)
			fprintf(out, "\t\tif (LIKELY(*p == 0x%02x)) {\n", nat);
		else
			fprintf(out, "\t\tif (LIKELY((*p | 0x20) == 0x%02x)) {\n", e->idc);
		emit_read(e, e->tag, "&item", "depth + 1", "\t\t\t");
		fprintf(out, "\t\t} else if (!(p = g_item_slow(r, &members[%ld], &item, p, lim, depth + 1))) {\n"
		             "\t\t\treturn NULL;\n\t\t}\n", mi(e));
	} else if (item_choice(e)) {
		fprintf(out, "\t\tif (!(p = gc0_%ld(r, &members[%ld], &item, p, lim, depth + 1))) /* %s */\n"
		             "\t\t\treturn NULL;\n", ti(e->type), mi(e), type_name(e->type));
	} else {
		fprintf(out, "\t\tif (!(p = g_item_slow(r, &members[%ld], &item, p, lim, depth + 1)))\n"
		             "\t\t\treturn NULL;\n", mi(e));
	}
	fputs("\t\tif (g_add_item(r, &items, local, &n, &cap, item) != 0)\n\t\t\treturn NULL;\n\t}\n"
	      "\treturn set_items(r, st, items, local, n, cap, p);\n}\n", out);
}

/* The cases of a CHOICE's switch: head, each alternative read before lim, then tail. */
static void emit_alternatives(const rtype *t, const char *head, const char *d, const char *tail)
{
	for (int i = 0; i < t->map_count; i++) {
		const asn_TYPE_tag2member_t *e = &t->map[i];
		unsigned id = idc_of(e->el_tag);
		if (!id)
			continue;
		const rmember *m = &t->m[e->el_no];
		emit_case(m, e->el_tag, id, "\t");
		fprintf(out, "\t\tif (!(st = g_node(r, slot, %d)))\n\t\t\treturn NULL;\n", t->size);
		fprintf(out, "\t\tg_present(st, %d, %d, %d);\n", t->pres_offset, t->pres_size, e->el_no + 1);
		fputs(head, out);
		emit_read(m, e->el_tag, slot_of(m), d, "\t\t");
		fputs(tail, out);
	}
}

/*
 * A CHOICE under an EXPLICIT tag (gc1_: read_choice_member()'s tagged fast
 * path) and untagged as a list's item (gc0_); anything else goes to the
 * table walk from the start, nothing having changed but the node.
 */
static void emit_choice(const rtype *t)
{
	fprintf(out, "\n/* %s, EXPLICIT */\n", type_name(t));
	fprintf(out, "static pos gc1_%ld(G_PARAMS)\n{\n", ti(t));
	fprintf(out, "\tsize_t len;\n\tpos c = g_open(r, p, lim, &len, depth, %s);\n\tchar *st;\n"
	             "\tvoid *tmp;\n\t(void)tmp;\n\tif (LIKELY(c && len)) {\n\t\tswitch (*c) {\n",
	        depth_check(t));
	emit_alternatives(t, "\t\tp = c;\n\t\tlim = c + len;\n", "depth + 1",
	                  "\t\treturn p == lim ? p : fail(r, p);\n");
	fprintf(out, "\t\tdefault:\n\t\t\tbreak;\n\t\t}\n\t}\n"
	             "\tr->depth = depth;\n"
	             "\treturn read_choice(r, &types[%ld], slot, p, p + 1, mt->tag, lim, 1);\n}\n",
	        ti(t));

	fprintf(out, "\n/* %s, untagged */\n", type_name(t));
	fprintf(out, "static pos gc0_%ld(G_PARAMS)\n{\n", ti(t));
	fputs("\tchar *st;\n\tvoid *tmp;\n\t(void)tmp;\n\tswitch (*p) {\n", out);
	emit_alternatives(t, "", "depth", "\t\treturn p;\n");
	fputs("\tdefault:\n\t\treturn g_item_slow(r, mt, slot, p, lim, depth);\n\t}\n}\n", out);
}

int main(int argc, char **argv)
{
	if (!(out = gen_open_output(argc, argv)))
		return argc != 2 ? 2 : 1;
	const rtype *root = compiled(&asn_DEF_MegacoMessage);
	fputs("/* Generated by tools/gen/ber_read_gen.c from the asn1c descriptors; do not edit. */\n",
	      out);
	if (!root || root->kind != K_SEQUENCE || !root->one_tag || !idc_of(root->tag0)) {
		/* Nothing to specialise: ber_reader.c keeps its table walk. */
		fputs("#define BER_GEN_FINGERPRINT UINT64_C(0)\n", out);
	} else {
		fprintf(out, "#define BER_GEN_FINGERPRINT UINT64_C(0x%016" PRIx64 ")\n", tables_print());
		/*
		 * The readers above every recursion open a bounded number of
		 * levels: ber_reader.c uses the readers only when max_depth allows
		 * that many, so that those need not count against it.
		 */
		build_calls();
		find_checked();
		int levels = levels_of((int)(2 * ti(root) + 1));
		fprintf(out, "#define BER_GEN_LEVELS %du\n", levels > 0 ? (unsigned)levels : 1u);
		fputs("#define UNUSED __attribute__((unused))\n", out);
		fprintf(out, "#define BER_GEN_ROOT gs_%ld\n#define BER_GEN_ROOT_IDC 0x%02x\n", ti(root),
		        idc_of(root->tag0));
		for (unsigned i = 0; i < module_ntypes; i++) {
			const rtype *t = &types[i];
			if (t->kind == K_SEQUENCE)
				fprintf(out, "static UNUSED pos gs_%u(G_PARAMS);\n", i);
			else if (t->kind == K_LIST)
				fprintf(out, "static UNUSED pos gl_%u(G_PARAMS);\n", i);
			else if (choice_ok(t))
				fprintf(out, "static UNUSED pos gc1_%u(G_PARAMS);\nstatic UNUSED pos gc0_%u(G_PARAMS);\n",
				        i, i);
		}
		for (unsigned i = 0; i < module_ntypes; i++) {
			const rtype *t = &types[i];
			if (t->kind == K_SEQUENCE)
				emit_sequence(t);
			else if (t->kind == K_LIST)
				emit_list(t);
			else if (choice_ok(t))
				emit_choice(t);
		}
	}
	return gen_close_output(out, argv[1]);
}
