/*
 * Checks the generated tables against asn1c's descriptors on the host: the
 * emitted megaco_schema.c is compiled here with the host compiler, so every
 * offsetof()/sizeof() expression it holds is evaluated for the host ABI and
 * must give the descriptor's own number. A wrong struct tag or member path
 * fails to compile; a wrong but valid one fails here. Either fails the build.
 *
 * Usage: schema-check STAMP (written when all agree)
 */
#include <stdio.h>
#include <string.h>

#include "megaco_schema.h"
#include "schema_model.h"

static gen_schema model;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s STAMP\n", argv[0]);
		return 2;
	}
	if (gen_schema_build(&model) != 0)
		return 1;
	int bad = 0;
	if (model.ntypes != SCHEMA_NTYPES || model.nmembers != SCHEMA_NMEMBERS || model.root != SCHEMA_ROOT) {
		fprintf(stderr, "schema-check: the tables are of another schema\n");
		return 1;
	}
	for (int i = 0; i < model.ntypes; i++) {
		const schema_type *want = &model.types[i].t, *have = &schema_types[i];
		/* A primitive's size is sizeof its C type on both sides: nothing to compare. */
		if ((schema_constructed(want->kind) && want->size != have->size) ||
		    want->pres_offset != have->pres_offset ||
		    want->pres_size != have->pres_size || want->kind != have->kind ||
		    want->count != have->count || want->first != have->first) {
			fprintf(stderr, "schema-check: type %s (%s): size %u/%u, present at %u/%u size %u/%u\n",
			        model.types[i].cname, model.types[i].ctype, have->size, want->size,
			        have->pres_offset, want->pres_offset, have->pres_size, want->pres_size);
			bad++;
		}
	}
	for (int i = 0; i < model.nmembers; i++) {
		const schema_member *want = &model.members[i].m, *have = &schema_members[i];
		if (want->offset != have->offset || want->type != have->type ||
		    want->flags != have->flags || want->tag != have->tag) {
			fprintf(stderr, "schema-check: member %s.%s: offset %u, descriptor says %u\n",
			        model.types[model.members[i].parent].cname, want->name ? want->name : "item",
			        have->offset, want->offset);
			bad++;
		}
	}
	if (bad) {
		fprintf(stderr, "schema-check: %d mismatches between the tables and the descriptors\n", bad);
		return 1;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%d types, %d members agree\n", model.ntypes, model.nmembers) < 0 ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
