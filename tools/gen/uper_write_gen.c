/*
 * Build-time generator of the UPER writer's type-specialised encoders.
 *
 * It compiles src/uper_writer.c itself (and the reader, for the node graph,
 * through uper_write_reader.c), builds the same writer plan the library
 * builds at run time, and writes one C function per SEQUENCE, CHOICE and
 * SEQUENCE OF of the shapes the plan handles with enc_seq_plain,
 * enc_choice_int and enc_list_semi: member offsets, bounds and presence bits
 * become constants, members are visited without a loop, and children are
 * called directly. The output is #included back into uper_writer.c, which
 * installs the functions only when every node's signature matches (see
 * install_generated()). Leaf values go through the writer's own helpers
 * (int_c, raw_c, ...), so each encoding rule stays written once.
 *
 * Usage: uper_write_gen OUTPUT
 */
#define UPER_WRITE_GENERATOR 1
#include "uper_writer.c"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "OCTET_STRING.h"

#include "gen_lit.h"

static FILE *out;

static int index_of(const wnode *n) { return (int)(n - wnodes); }

static int generated(const wnode *n)
{
	return n->enc == enc_seq_plain || n->enc == enc_seq_ext || n->enc == enc_choice_int ||
	       n->enc == enc_list_semi;
}

/* The plan's routine for a node written out by name. */
static const char *routine(wenc_f *f)
{
	static const struct {
		wenc_f *f;
		const char *name;
	} names[] = {
		{ enc_sequence, "enc_sequence" },
		{ enc_seq_plain, "enc_seq_plain" },
		{ enc_seq_ext, "enc_seq_ext" },
		{ enc_choice, "enc_choice" },
		{ enc_choice_int, "enc_choice_int" },
		{ enc_list, "enc_list" },
		{ enc_list_semi, "enc_list_semi" },
		{ enc_octets, "enc_octets" },
		{ enc_ia5, "enc_ia5" },
		{ enc_native_int_call, "enc_native_int_call" },
		{ enc_native_enum, "enc_native_enum" },
		{ enc_boolean, "enc_boolean" },
		{ enc_null, "enc_null" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].f == f)
			return names[i].name;
	abort();
}


/* f's leaf check on a string of size bytes ch (ch < 0: a NULL buffer). */
static int check_string(const wfield *f, long size, int ch)
{
	uint8_t buf[4096];
	OCTET_STRING_t os;
	memset(&os, 0, sizeof os);
	memset(buf, ch, (size_t)size);
	os.buf = ch < 0 ? NULL : buf;
	os.size = (int)size;
	return f->check(f->td, &os, NULL, NULL);
}

/*
 * Whether member f's leaf check refuses nothing that the writer's own
 * bound checks let through, so a generated writer can leave the call out.
 * The checks are asn1c's: a value range for an INTEGER, a size range and a
 * per-character alphabet for a string. Tried here on every value the writer
 * would accept (every integer of the range; every size with every accepted
 * character); ranges too wide to try keep the call.
 */
static int check_implied(const wfield *f)
{
	const wnode *c = f->node;
	if (c->wk == WK_INT && !c->unsigned_int && c->nbits <= 32 && c->ub - c->lb <= (1L << 20)) {
		for (long v = c->lb;; v++) {
			if (f->check(f->td, &v, NULL, NULL))
				return 0;
			if (v == c->ub)
				return 1;
		}
	}
	/* Sizes lb..ub (a fixed-size form), each character the writer takes. */
	int maxch = c->wk == WK_RAW ? 255 : c->wk == WK_CHARS7 && c->nbits >= 0 ? 127 : -1;
	if (maxch < 0 || c->lb < 0 || c->ub > 4096 || c->ub - c->lb > 256)
		return 0;
	for (long size = c->lb; size <= c->ub; size++) {
		/* An empty value: the writer wants no buffer (but enc_ia5 does). */
		if (size == 0 && (check_string(f, 0, 0) || (c->enc != enc_ia5 && check_string(f, 0, -1))))
			return 0;
		for (int ch = 0; size && ch <= maxch; ch++)
			if (check_string(f, size, ch))
				return 0;
	}
	return 1;
}

/*
 * The value of member f (C expression fexpr names it at run time) at p,
 * which is not NULL: enc_field() with everything known written out.
 */
static void emit_value(const wfield *f, const char *fexpr, const char *ind)
{
	if (f->check && !check_implied(f))
		fprintf(out, "%sif (%s.check(%s.td, p, NULL, NULL))\n%s\treturn -1;\n", ind, fexpr, fexpr,
		        ind);
	const wnode *c = f->node;
	int k = index_of(c);
	switch (c->wk) {
	case WK_INT:
		fprintf(out, "%sif (int_c(p, o, %s, %s, %d, %d))\n", ind, lit(c->lb), lit(c->ub), c->nbits,
		        c->unsigned_int);
		break;
	case WK_RAW:
		fprintf(out, "%sif (raw_c(p, o, %s, %s, %d))\n", ind, lit(c->lb), lit(c->ub), c->nbits);
		break;
	case WK_RAW_SEMI:
		fprintf(out, "%sif (enc_raw_semi(&wnodes[%d], p, o))\n", ind, k);
		break;
	case WK_CHARS7:
		fprintf(out, "%sif (chars7_c(&wnodes[%d], p, o, %d, %d, %s, %s))\n", ind, k, c->enc == enc_ia5,
		        c->nbits, lit(c->lb), lit(c->ub));
		break;
	default:
		if (c->enc == enc_boolean) {
			fprintf(out, "%suout_put_fit(o, *(const BOOLEAN_t *)p != 0, 1);\n", ind);
			return;
		}
		if (c->enc == enc_null) {
			fprintf(out, "%s(void)p;\n", ind);
			return;
		}
		if (c->enc == enc_list_semi)
			/* An empty list (most are) is its zero length octet: no call. */
			fprintf(out, "%sif (_A_CSEQUENCE_FROM_VOID(p)->count <= 0)\n%s\tuout_put_fit(o, 0, 8);\n"
			             "%selse if (gw_%d(&wnodes[%d], p, o))\n", ind, ind, ind, k, k);
		else if (generated(c))
			fprintf(out, "%sif (gw_%d(&wnodes[%d], p, o))\n", ind, k, k);
		else
			fprintf(out, "%sif (%s(&wnodes[%d], p, o))\n", ind, routine(c->enc), k);
		break;
	}
	fprintf(out, "%s\treturn -1;\n", ind);
}

static void emit_sequence(int i, const wnode *n)
{
	char fexpr[64];
	fprintf(out, "\tconst void *p;\n");
	if (n->next) {
		/* Whether any extension addition is present. */
		fprintf(out, "\tint n_ext = 0");
		for (int j = 0; j < n->next; j++)
			fprintf(out, "\n\t\t| (*(const void *const *)(st + %u) != NULL)", n->ext[j].offset);
		fprintf(out, ";\n");
	}
	if (n->nopt + n->extensible) {
		/* The extension bit and the presence bitmap in one put. */
		fprintf(out, "\tuout_put_fit(o, %s", n->next ? "(uint32_t)n_ext << " : "0");
		if (n->next)
			fprintf(out, "%d", n->nopt);
		for (int j = 0; j < n->nopt; j++)
			fprintf(out, "\n\t\t| (uint32_t)(*(const void *const *)(st + %u) != NULL) << %d",
			        n->opt[j].offset, n->nopt - 1 - j);
		fprintf(out, ", %d);\n", n->nopt + n->extensible);
	}
	for (int j = 0; j < n->nroot; j++) {
		const wfield *f = &n->root[j];
		snprintf(fexpr, sizeof fexpr, "wnodes[%d].root[%d]", i, j);
		if (!f->ptr) {
			fprintf(out, "\tp = st + %u;\n", f->offset);
			emit_value(f, fexpr, "\t");
		} else if (f->optional) {
			fprintf(out, "\tp = *(const void *const *)(st + %u);\n\tif (p) {\n", f->offset);
			emit_value(f, fexpr, "\t\t");
			fprintf(out, "\t}\n");
		} else {
			fprintf(out, "\tp = *(const void *const *)(st + %u);\n\tif (!p)\n\t\treturn -1;\n",
			        f->offset);
			emit_value(f, fexpr, "\t");
		}
	}
	if (n->next)
		fprintf(out, "\treturn n_ext ? seq_additions(&wnodes[%d], st, o, %d) : 0;\n", i, n->next);
	else
		fprintf(out, "\treturn 0;\n");
}

static void emit_choice(int i, const wnode *n)
{
	char fexpr[64];
	fprintf(out, "\tconst void *p;\n\tswitch (*(const int *)(st + %u)) {\n", n->pres_offset);
	for (int j = 0; j <= n->ub; j++) {
		const wfield *f = &n->root[j];
		snprintf(fexpr, sizeof fexpr, "wnodes[%d].root[%d]", i, j);
		fprintf(out, "\tcase %d:\n", j + 1);
		if (f->ptr)
			fprintf(out, "\t\tp = *(const void *const *)(st + %u);\n\t\tif (!p)\n\t\t\treturn -1;\n",
			        f->offset);
		else
			fprintf(out, "\t\tp = st + %u;\n", f->offset);
		fprintf(out, "\t\tuout_put_fit(o, %du, %d);\n", j, n->nbits + n->extensible);
		emit_value(f, fexpr, "\t\t");
		fprintf(out, "\t\treturn 0;\n");
	}
	/* Extension alternatives, and the refusals, as the plan's routine has them. */
	fprintf(out, "\tdefault:\n\t\treturn enc_choice(n, sptr, o);\n\t}\n");
}

static void emit_list(int i, const wnode *n)
{
	char fexpr[64];
	snprintf(fexpr, sizeof fexpr, "wnodes[%d].root[0]", i);
	/* Indexes, not pointers: an empty list may have no array at all. */
	fprintf(out, "\tconst asn_anonymous_sequence_ *list = _A_CSEQUENCE_FROM_VOID(st);\n"
	             "\tvoid *const *array = list->array;\n"
	             "\tsize_t count = list->count > 0 ? (size_t)list->count : 0, i = 0;\n"
	             "\tdo {\n"
	             "\t\tfor (size_t stop = i + put_length(o, count - i); i < stop; i++) {\n"
	             "\t\t\tconst void *p = array[i];\n"
	             "\t\t\tif (!p)\n\t\t\t\treturn -1;\n");
	emit_value(&n->root[0], fexpr, "\t\t\t");
	fprintf(out, "\t\t}\n\t} while (i < count);\n\treturn 0;\n");
}

static void emit_node(int i)
{
	const wnode *n = &wnodes[i];
	fprintf(out, "\n/* in place of %s */\nstatic int gw_%d(const wnode *n, const void *sptr, uper_out *o)\n{\n",
	        routine(n->enc), i);
	/* Never called with NULL: members, elements and alternatives are tested
	 * before the call, and uper_write() tests the root. */
	fprintf(out, "\tconst char *st = sptr;\n\t(void)n;\n");
	if (n->enc == enc_seq_plain || n->enc == enc_seq_ext)
		emit_sequence(i, n);
	else if (n->enc == enc_choice_int)
		emit_choice(i, n);
	else
		emit_list(i, n);
	fprintf(out, "}\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
		return 2;
	}
	pthread_once(&plan_once, prepare);
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	int count = plan_root ? nwnodes : 0;
	fprintf(out, "/* Generated by tools/gen/uper_write_gen.c from the asn1c descriptors. */\n");
	fprintf(out, "#define UPER_WGEN_NNODES %d\n", count);
	fprintf(out, "static const uint64_t uper_wgen_sig[%d] = {\n", count ? count : 1);
	for (int i = 0; i < count; i++)
		fprintf(out, "\tUINT64_C(0x%016" PRIx64 "),\n", wnode_sig(&wnodes[i]));
	fprintf(out, "};\n");
	int ngen = 0;
	for (int i = 0; i < count; i++)
		if (generated(&wnodes[i])) {
			fprintf(out, "static wenc_f gw_%d;\n", i);
			ngen++;
		}
	for (int i = 0; i < count; i++)
		if (generated(&wnodes[i]))
			emit_node(i);
	fprintf(out, "\nstatic wenc_f *const uper_wgen_enc[%d] = {\n", count ? count : 1);
	for (int i = 0; i < count; i++)
		if (generated(&wnodes[i]))
			fprintf(out, "\tgw_%d,\n", i);
		else
			fprintf(out, "\tNULL,\n");
	fprintf(out, "};\n");
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 1;
	}
	fprintf(stderr, "uper_write_gen: %d plan nodes, %d generated\n", count, ngen);
	return 0;
}
