/*
 * Build-time generator of the UPER reader's type-specialised decoders.
 *
 * It compiles src/uper_reader.c itself, builds the same node graph the
 * library builds at run time, and writes one C function per node with that
 * node's numbers (sizes, bounds, offsets, presence bits) as constants. The
 * output is #included back into uper_reader.c, which installs the functions
 * as the nodes' decoders only when every node's signature matches, so a
 * stale or foreign output can only cost speed, never change a result. The
 * functions reuse the reader's own building blocks (forced inline), so the
 * decoding rules stay written once.
 *
 * Usage: uper_read_gen OUTPUT
 */
#define UPER_READ_GENERATOR 1
#include "uper_reader.c"

#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>

#include "gen_lit.h"

/* The writer is not linked in: building the graph only stores its entry points. */
uper_enc_f *uper_encoder_for(enum uper_kind kind)
{
	(void)kind;
	return NULL;
}

static FILE *out;
static unsigned char generated[MAX_NODES];

static int index_of(const uper_node *n) { return (int)(n - nodes); }


/* The table walk's function for node i (a node without a generated one). */
static const char *table_decoder(int i)
{
	static const char *const table[] = {
		[UK_SEQUENCE] = "dec_sequence", [UK_CHOICE] = "dec_choice", [UK_LIST] = "dec_list",
		[UK_OCTETS] = "dec_octets", [UK_BITS] = "dec_octets", [UK_NATIVE_INT] = "dec_native_int",
		[UK_NATIVE_ENUM] = "dec_native_enum", [UK_BOOLEAN] = "dec_boolean", [UK_NULL] = "dec_null",
	};
	return table[nodes[i].kind];
}

/*
 * "rc = <decode member f of st>;". Generated decoders pass the count of
 * constructed values around them as an argument; the table walk keeps it in
 * r->depth, so that is set before calling into it.
 */
static void emit_member_call(const uper_field *f, const char *indent)
{
	int c = index_of(f->node);
	char slot[64];
	if (f->ptr) {
		snprintf(slot, sizeof slot, "(void **)(st + %u)", f->offset);
	} else {
		fprintf(out, "%stmp = st + %u;\n", indent, f->offset);
		snprintf(slot, sizeof slot, "&tmp");
	}
	if (generated[c])
		fprintf(out, "%src = gi_%d(r, %s, in, depth + 1);\n", indent, c, slot);
	else
		fprintf(out, "%sr->depth = depth + 1;\n%src = %s(r, &nodes[%d], %s, in);\n", indent, indent,
		        table_decoder(c), c, slot);
}

/* Which nodes get a function: the shapes written out below. */
static int can_generate(const uper_node *n)
{
	switch (n->kind) {
	case UK_SEQUENCE:
		for (int j = 0; j < n->nfields; j++)
			if (n->fields[j].ext && !n->fields[j].ptr)
				return 0;
		return n->extensible + n->roms <= 32;
	case UK_CHOICE:
		/* asn1c trusts the range to stay within the alternatives. */
		return n->nbits < 0 || n->ub < n->nfields;
	case UK_LIST:
	case UK_OCTETS:
	case UK_BITS:
	case UK_NATIVE_INT:
	case UK_NATIVE_ENUM:
	case UK_BOOLEAN:
	case UK_NULL:
		return 1;
	default:
		return 0;
	}
}

/* The start of a constructed value's decoder: the depth bound, the structure. */
static void emit_constructed_head(const uper_node *n)
{
	fprintf(out, "\tint rc;\n\tvoid *tmp;\n\t(void)rc;\n\t(void)tmp;\n");
	fprintf(out, "\tif (depth >= r->max_depth)\n\t\treturn UPER_FAIL;\n");
	fprintf(out, "\tchar *st = *sptr;\n\tif (!st && !(st = *sptr = alloc_zero(r, %zu)))\n"
	             "\t\treturn UPER_FAIL;\n", n->struct_size);
}

/* seq_extensions() written out for n: its known additions, then unknown ones. */
static void emit_extensions(const uper_node *n)
{
	fprintf(out, "\tif (head >> %d) {\n\t\tuper_in epmd;\n\t\tint64_t present;\n"
	             "\t\t(void)present;\n"
	             "\t\tif ((rc = ext_bitmap(in, &epmd)) != UPER_OK)\n\t\t\treturn rc;\n", n->roms);
	for (int j = 0; j < n->nfields; j++) {
		const uper_field *f = &n->fields[j];
		if (!f->ext)
			continue;
		int c = index_of(f->node);
		/* Extension additions are pointers (build() insists). */
		fprintf(out, "\t\tif ((present = rd_get(&epmd, 1)) < 0)\n\t\t\treturn UPER_OK;\n");
		fprintf(out, "\t\tif (present) {\n");
		if (generated[c])
			fprintf(out, "\t\t\trc = open_type_c(r, in, gi_%d, depth + 1, (void **)(st + %u), &nodes[%d]);\n",
			        c, f->offset, c);
		else
			fprintf(out, "\t\t\tr->depth = depth + 1;\n"
			             "\t\t\trc = get_open_type(r, &nodes[%d], (void **)(st + %u), in);\n", c, f->offset);
		fprintf(out, "\t\t\tif (rc != UPER_OK)\n\t\t\t\treturn rc;\n\t\t}\n");
	}
	fprintf(out, "\t\treturn skip_unknown_extension(r, &epmd, in);\n\t}\n");
}

static void emit_sequence(const uper_node *n)
{
	unsigned head = (unsigned)(n->extensible + n->roms);
	emit_constructed_head(n);
	if (head) {
		/* The extension bit and the presence bitmap in one read. */
		fprintf(out, "\tif (%u > uin_left(in))\n\t\treturn UPER_STARVED;\n", head);
		fprintf(out, "\tuint32_t head = rd_peek(in, %u);\n\tin->pos += %u;\n", head, head);
	}
	int k = 0;
	for (int j = 0; j < n->nfields; j++) {
		const uper_field *f = &n->fields[j];
		if (f->ext)
			continue;
		if (f->optional) {
			fprintf(out, "\tif (head & 0x%xu) {\n", 1u << (n->roms - 1 - k++));
			emit_member_call(f, "\t\t");
			fprintf(out, "\t\tif (rc != UPER_OK)\n\t\t\treturn rc;\n\t}\n");
		} else {
			emit_member_call(f, "\t");
			fprintf(out, "\tif (rc != UPER_OK)\n\t\treturn rc;\n");
		}
	}
	if (n->extensible)
		emit_extensions(n);
	fprintf(out, "\treturn UPER_OK;\n");
}

static void emit_choice(int i, const uper_node *n)
{
	emit_constructed_head(n);
	if (n->nbits >= 0) {
		if (n->extensible && n->nbits < 32) {
			/* The extension bit and the index in one read; short of both,
			 * only the extension bit can still be there. */
			fprintf(out, "\tint64_t v;\n\tif (%d > uin_left(in)) {\n"
			             "\t\tif (rd_get(in, 1) > 0)\n\t\t\tgoto extension;\n"
			             "\t\treturn UPER_STARVED;\n\t}\n", n->nbits + 1);
			fprintf(out, "\tv = rd_peek(in, %d);\n\tif (v >> %d) {\n\t\tin->pos += 1;\n"
			             "\t\tgoto extension;\n\t}\n\tin->pos += %d;\n",
			        n->nbits + 1, n->nbits, n->nbits + 1);
		} else {
			if (n->extensible)
				fprintf(out, "\tint64_t b = rd_get(in, 1);\n\tif (b < 0)\n\t\treturn UPER_STARVED;\n"
				             "\tif (b)\n\t\tgoto extension;\n");
			fprintf(out, "\tint64_t v = rd_get(in, %d);\n\tif (v < 0)\n\t\treturn UPER_STARVED;\n",
			        n->nbits);
		}
		fprintf(out, "\tif (v > %s)\n\t\treturn UPER_FAIL;\n", lit(n->ub));
		fprintf(out, "\tset_present(st, %u, %u, (long)v);\n", n->pres_offset, n->pres_size);
		fprintf(out, "\tswitch (v) {\n");
		for (int j = 0; j < n->nfields && j <= n->ub; j++) {
			fprintf(out, "\tcase %d:\n", j);
			emit_member_call(&n->fields[j], "\t\t");
			fprintf(out, "\t\treturn rc;\n");
		}
		fprintf(out, "\tdefault:\n\t\treturn UPER_FAIL;\n\t}\n");
		if (!n->extensible)
			return;
		fprintf(out, "extension:\n");
	}
	fprintf(out, "\tr->depth = depth + 1;\n\treturn choice_extension(r, &nodes[%d], st, in);\n", i);
}

/* A SEQUENCE OF's elements, in a function of their own that the compiler
 * may or may not inline into the head (measured: left to it is best). */
static void emit_list_elems(int i, const uper_node *n)
{
	int e = index_of(n->fields->node);
	fprintf(out, "\nstatic int gl_%d(reader *r, asn_anonymous_set_ *list, "
	             "uper_in *in, unsigned depth, int nbits, long nelems, int repeat)\n{\n", i);
	if (generated[e])
		fprintf(out, "\treturn list_elems_c(r, list, in, NULL, NULL, gi_%d, depth + 1, nbits, nelems, repeat);\n",
		        e);
	else
		fprintf(out, "\tr->depth = depth + 1;\n"
		             "\treturn list_elems_c(r, list, in, %s, &nodes[%d], NULL, 0, nbits, nelems, repeat);\n",
		        table_decoder(e), e);
	fprintf(out, "}\n");
}

static void emit_node(int i)
{
	const uper_node *n = &nodes[i];
	int leaf = n->kind != UK_SEQUENCE && n->kind != UK_CHOICE;
	if (n->kind == UK_LIST)
		emit_list_elems(i, n);
	fprintf(out, "\n/* %s */\nstatic %sint gi_%d(reader *r, void **sptr, uper_in *in, unsigned depth)\n{\n",
	        keys[i].td->name, leaf ? "inline " : "", i);
	switch (n->kind) {
	case UK_SEQUENCE:
		emit_sequence(n);
		break;
	case UK_CHOICE:
		emit_choice(i, n);
		break;
	case UK_LIST:
		/* The head, which finishes an empty list, small enough to inline
		 * into the parent; the elements in gl_N (see emit_list_elems). */
		fprintf(out, "\tif (depth >= r->max_depth)\n\t\treturn UPER_FAIL;\n"
		             "\tasn_anonymous_set_ *list;\n\tlong nelems;\n\tint repeat, nbits = %d;\n"
		             "\tint rc = list_head_c(r, sptr, in, %d, &nbits, %s, %zu, &list, &nelems, &repeat);\n"
		             "\tif (rc != UPER_OK || (nelems == 0 && !repeat))\n\t\treturn rc;\n"
		             "\treturn gl_%d(r, list, in, depth, nbits, nelems, repeat);\n",
		        n->nbits, n->extensible, lit(n->lb), n->struct_size, i);
		break;
	case UK_OCTETS:
	case UK_BITS:
		fprintf(out, "\t(void)r;\n\t(void)depth;\n");
		fprintf(out, "\treturn octets_c(r, sptr, in, %d, %d, %d, %s, %s, %uu, %s, %s, %zu);\n",
		        n->kind == UK_BITS, n->extensible, n->nbits, lit(n->lb), lit(n->ub), n->unit_bits,
		        lit(n->clb), lit(n->cub), n->struct_size);
		break;
	case UK_NATIVE_INT:
		fprintf(out, "\t(void)depth;\n");
		fprintf(out, "\treturn native_int_c(r, sptr, in, %du, %s);\n", n->nbits, lit(n->lb));
		break;
	case UK_NATIVE_ENUM:
		fprintf(out, "\t(void)depth;\n");
		fprintf(out, "\treturn native_enum_c(r, nodes[%d].enums, sptr, in, %d, %d);\n", i,
		        n->extensible, n->nbits);
		break;
	case UK_BOOLEAN:
		fprintf(out, "\t(void)depth;\n\treturn boolean_c(r, sptr, in);\n");
		break;
	case UK_NULL:
		fprintf(out, "\t(void)depth;\n\t(void)in;\n\treturn null_c(r, sptr);\n");
		break;
	default:
		abort();
	}
	fprintf(out, "}\n");
	/* The entry point the node graph holds, for the table walk and open
	 * types, which see r->depth as they left it. */
	fprintf(out, "\nstatic int g_%d(reader *r, const uper_node *n, void **sptr, uper_in *in)\n{\n"
	             "\t(void)n;\n\tunsigned depth = r->depth;\n\tint rc = gi_%d(r, sptr, in, depth);\n"
	             "\tr->depth = depth;\n\treturn rc;\n}\n", i, i);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
		return 2;
	}
	const uper_node *root = uper_root();
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "/* Generated by tools/gen/uper_read_gen.c from the asn1c descriptors. */\n");
	int count = root ? nnodes : 0;
	fprintf(out, "#define UPER_GEN_NNODES %d\n", count);
	fprintf(out, "static const uint64_t uper_gen_sig[%d] = {\n", count ? count : 1);
	for (int i = 0; i < count; i++)
		fprintf(out, "\tUINT64_C(0x%016" PRIx64 "),\n", node_sig(&nodes[i]));
	fprintf(out, "};\n");
	for (int i = 0; i < count; i++)
		generated[i] = (unsigned char)can_generate(&nodes[i]);
	for (int i = 0; i < count; i++)
		if (generated[i])
			fprintf(out, "static int gi_%d(reader *r, void **sptr, uper_in *in, unsigned depth);\n", i);
	for (int i = 0; i < count; i++)
		if (generated[i])
			emit_node(i);
	fprintf(out, "\nstatic uper_dec_f *const uper_gen_dec[%d] = {\n", count ? count : 1);
	for (int i = 0; i < count; i++)
		fprintf(out, generated[i] ? "\tg_%d,\n" : "\tNULL,\n", i);
	fprintf(out, "};\n");
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 1;
	}
	int max_roms = 0, ngen = 0;
	for (int i = 0; i < count; i++) {
		if (nodes[i].kind == UK_SEQUENCE && nodes[i].roms > max_roms)
			max_roms = nodes[i].roms;
		ngen += generated[i];
	}
	fprintf(stderr, "uper_read_gen: %d nodes, %d generated, widest bitmap %d\n", count, ngen, max_roms);
	return 0;
}
