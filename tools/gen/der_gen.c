/*
 * Build-time generator of the DER writer's type-specialised writers.
 *
 * It compiles src/der_writer.c itself, compiles the same per-member tables
 * the library compiles at run time from the asn1c descriptors, and writes
 * one C function per constructed type with each member's offset, presence,
 * kind, identifier octet and constraint bounds as constants. The output is
 * #included back into der_writer.c, which calls it only when the tables it
 * builds at run time have the fingerprint written here, so a stale or
 * foreign output can only cost speed. The leaves use the writer's own
 * helpers (g_octets, g_int, ...) and every uncommon case goes to its
 * descriptor walk, so the encoding rules stay written once.
 *
 * Usage: der_gen OUTPUT
 */
#define DER_WRITER_GENERATOR 1
#include "der_writer.c"

#include <inttypes.h>
#include <stdio.h>

#include "gen_lit.h"
#include "megaco_asn_hooks.h"

/* The library's error module is not linked in: the generator never reports. */
int set_error(megaco_error *err, int code, size_t offset, const char *fmt, ...)
{
	(void)err;
	(void)offset;
	(void)fmt;
	return code;
}

/* asn1c's runtime allocates through these hooks (see megaco_asn_hooks.h). */
void *megaco_asn_calloc(size_t nmemb, size_t size) { return calloc(nmemb, size); }
void *megaco_asn_malloc(size_t size) { return malloc(size); }
void *megaco_asn_realloc(void *ptr, size_t size) { return realloc(ptr, size); }
void megaco_asn_free(void *ptr) { free(ptr); }

static FILE *out;

/* A long as a C constant expression (LONG_MIN has no literal). */
static void put_long(long v)
{
	if (v == LONG_MIN)
		fputs("LONG_MIN", out);
	else if (v == LONG_MAX)
		fputs("LONG_MAX", out);
	else
		fprintf(out, "%ldL", v);
}

static const char *ck_name(unsigned ck)
{
	switch (ck) {
	case CK_NONE: return "CK_NONE";
	case CK_RANGE: return "CK_RANGE";
	case CK_URANGE: return "CK_URANGE";
	case CK_IA5: return "CK_IA5";
	default: return "CK_SLOW";
	}
}

static long type_index(const ctype *t) { return (long)(t - ctab.types); }
static long member_index(const cmember *m) { return (long)(m - ctab.members); }

static int constructed(unsigned kind)
{
	return kind == C_SEQUENCE || kind == C_LIST || kind == C_CHOICE;
}

/* Does a value of type from contain, at any depth, one of type target? */
static int reaches(const ctype *from, const ctype *target, unsigned char *seen)
{
	for (int i = 0; i < from->count; i++) {
		const ctype *c = from->m[i].type;
		if (!constructed(c->kind))
			continue;
		if (c == target)
			return 1;
		if (seen[type_index(c)])
			continue;
		seen[type_index(c)] = 1;
		if (reaches(c, target, seen))
			return 1;
	}
	return 0;
}

/*
 * Only a type that can contain itself can nest without bound; the others
 * nest no deeper than the module's types do, so their writers skip the
 * stack probe (the descriptor walk, where they hand a value to it, probes
 * on its own).
 */
static int recursive(const ctype *t)
{
	static unsigned char seen[C_MAX_TYPES];
	memset(seen, 0, sizeof seen);
	return reaches(t, t, seen);
}

/* Writes the value at m (not NULL) of member e in front of p; ind is the indent. */
static void emit_value(const cmember *e, const char *ind)
{
	long k = member_index(e);
	const char *td = e->td->name ? e->td->name : "?";
	if (constructed(e->kind)) {
		fprintf(out, "%sif (!(p = g_%ld(w, p, m, &ctab.members[%ld]))) /* %s */\n", ind,
		        type_index(e->type), k, td);
		fprintf(out, "%s\treturn NULL;\n", ind);
		return;
	}
	if (e->hdr == H_SHORT && (e->kind == C_OCTETS || e->kind == C_INT)) {
		fprintf(out, "%sp = %s(w, lo, check, p, m, &ctab.members[%ld], 0x%02x, %s, ", ind,
		        e->kind == C_OCTETS ? "g_octets" : "g_int", k, e->id, ck_name(e->ck));
		put_long(e->lo);
		fputs(", ", out);
		put_long(e->hi);
		fprintf(out, "); /* %s */\n", td);
	} else if (e->hdr == H_SHORT && (e->kind == C_NULL || e->kind == C_BOOL)) {
		fprintf(out, "%sp = %s(w, lo, p, m, &ctab.members[%ld], 0x%02x); /* %s */\n", ind,
		        e->kind == C_NULL ? "g_null" : "g_bool", k, e->id, td);
	} else {
		fprintf(out, "%sp = c_generic(w, p, m, &ctab.members[%ld]); /* %s */\n", ind, k, td);
	}
	fprintf(out, "%sif (!p)\n%s\treturn NULL;\n", ind, ind);
}

static void emit_prologue(const ctype *t)
{
	fprintf(out, "\n/* %s */\n", t->td->name ? t->td->name : "?");
	fprintf(out, "static unsigned char *g_%ld(writer *w, unsigned char *p, const char *v, "
	             "const cmember *cm)\n{\n", type_index(t));
	fputs("\tconst unsigned char *const lo = w->lo;\n"
	      "\tconst unsigned check = w->check;\n"
	      "\tunsigned char *const end = p;\n"
	      "\t(void)lo;\n"
	      "\t(void)check;\n", out);
}

static void emit_sequence(const ctype *t)
{
	emit_prologue(t);
	fputs("\tconst char *m;\n", out);
	if (recursive(t))
		fputs("\tif (g_deep(w, cm))\n\t\treturn NULL;\n", out);
	for (int i = t->count - 1; i >= 0; i--) {
		const cmember *e = &t->m[i];
		const char *name = e->el->name ? e->el->name : "?";
		if (!e->pointer) {
			fprintf(out, "\tm = v + %d; /* %s */\n", e->offset, name);
			emit_value(e, "\t");
			continue;
		}
		fprintf(out, "\tm = *(const char *const *)(v + %d); /* %s */\n", e->offset, name);
		if (e->optional) {
			fputs("\tif (m) {\n", out);
			emit_value(e, "\t\t");
			fputs("\t}\n", out);
		} else {
			fprintf(out, "\tif (!m)\n\t\treturn stop(w, W_ENCODE, cm->td, ctab.members[%ld].el, "
			             "\"mandatory member absent\");\n", member_index(e));
			emit_value(e, "\t");
		}
	}
	fputs("\treturn c_header(w, lo, p, cm, end);\n}\n", out);
}

static void emit_list(const ctype *t)
{
	emit_prologue(t);
	fprintf(out, "\tif (!g_list_ok(w, cm, v)%s)\n"
	             "\t\treturn NULL;\n", recursive(t) ? " || g_deep(w, cm)" : "");
	fputs("\tconst asn_anonymous_set_ *list = _A_CSET_FROM_VOID(v);\n"
	      "\tfor (int i = list->count - 1; i >= 0; i--) {\n"
	      "\t\tconst char *m = (const char *)list->array[i];\n"
	      "\t\tif (!m)\n"
	      "\t\t\tcontinue;\n", out);
	emit_value(&t->m[0], "\t\t");
	fputs("\t}\n\treturn c_header(w, lo, p, cm, end);\n}\n", out);
}

static void emit_choice(const ctype *t)
{
	const char *pt = t->pres_size == sizeof(int)     ? "int"
	                 : t->pres_size == sizeof(short) ? "short"
	                                                 : "signed char";
	emit_prologue(t);
	fputs("\tconst char *m;\n", out);
	if (recursive(t))
		fputs("\tif (g_deep(w, cm))\n\t\treturn NULL;\n", out);
	fprintf(out, "\tswitch (*(const %s *)(v + %d)) {\n", pt, t->pres_offset);
	for (int i = 0; i < t->count; i++) {
		const cmember *e = &t->m[i];
		fprintf(out, "\tcase %d: /* %s */\n", i + 1, e->el->name ? e->el->name : "?");
		if (e->pointer) {
			fprintf(out, "\t\tm = *(const char *const *)(v + %d);\n", e->offset);
			fputs("\t\tif (!m)\n\t\t\treturn c_generic(w, p, v, cm);\n", out);
		} else {
			fprintf(out, "\t\tm = v + %d;\n", e->offset);
		}
		emit_value(e, "\t\t");
		fputs("\t\tbreak;\n", out);
	}
	fputs("\tdefault:\n"
	      "\t\treturn c_generic(w, p, v, cm); /* its error, as put_choice() gives it */\n"
	      "\t}\n"
	      "\treturn c_header(w, lo, p, cm, end);\n}\n", out);
}

int main(int argc, char **argv)
{
	if (!(out = gen_open_output(argc, argv)))
		return argc != 2 ? 2 : 1;
	compile_module();
	fputs("/* Generated by tools/gen/der_gen.c from the asn1c descriptors; do not edit. */\n", out);
	if (!ctab.ok || !constructed(ctab.root.kind)) {
		/* Tables too small for the module: der_writer.c keeps its table walk. */
		fputs("#define DER_GEN_FINGERPRINT UINT64_C(0)\n#define DER_GEN_ROOT c_walk\n", out);
	} else {
		fprintf(out, "#define DER_GEN_FINGERPRINT UINT64_C(0x%016" PRIx64 ")\n", tables_print());
		fprintf(out, "#define DER_GEN_ROOT g_root\n\n");
		for (unsigned i = 0; i < ctab.ntypes; i++)
			if (constructed(ctab.types[i].kind))
				fprintf(out, "static unsigned char *g_%u(writer *w, unsigned char *p, "
				             "const char *v, const cmember *cm);\n", i);
		for (unsigned i = 0; i < ctab.ntypes; i++) {
			const ctype *t = &ctab.types[i];
			if (t->kind == C_SEQUENCE)
				emit_sequence(t);
			else if (t->kind == C_LIST)
				emit_list(t);
			else if (t->kind == C_CHOICE)
				emit_choice(t);
		}
		fprintf(out, "\nstatic unsigned char *g_root(writer *w, unsigned char *p, const void *ptr, "
		             "const cmember *cm)\n{\n\treturn g_%ld(w, p, ptr, cm);\n}\n",
		        type_index(ctab.root.type));
	}
	return gen_close_output(out, argv[1]);
}
