/*
 * The schema as the host-side generators see it: asn1c's descriptors of
 * MegacoMessage walked once into types and members, each with the C names
 * (struct tags, member paths) that the emitted offsetof()/sizeof()
 * expressions use. Built on the host only (tools/gen/CMakeLists.txt); what
 * it holds goes out as src/schema.h's tables.
 */
#ifndef MEGACO_GEN_SCHEMA_MODEL_H
#define MEGACO_GEN_SCHEMA_MODEL_H

#include "asn_application.h"
#include "constr_TYPE.h"
#include "schema.h"

#define GEN_MAX_TYPES 1024
#define GEN_MAX_MEMBERS 4096
#define GEN_MAX_TAGS 4096
#define GEN_MAX_PERS 1024
#define GEN_MAX_MAPS 4096
#define GEN_MAX_ENUMS 1024
#define GEN_NAME 160

typedef struct gen_type {
	asn_TYPE_descriptor_t *td;
	schema_type t;          /* size (constructed types), pres_offset, pres_size: host values */
	char ctype[GEN_NAME];   /* the C type for sizeof/offsetof ("Transaction_t", "struct X__y", "long") */
	char cname[GEN_NAME];   /* an identifier for it (SCHEMA_T_<cname>) */
	char ctag[GEN_NAME];    /* constructed: the struct tag inline children are named after */
} gen_type;

typedef struct gen_member {
	const asn_TYPE_member_t *el;
	schema_member m;        /* offset: the host value */
	char path[GEN_NAME];    /* the member path in the parent ("choice.alt", "name"; "" for list items) */
	int parent;             /* type index */
} gen_member;

typedef struct gen_schema {
	gen_type types[GEN_MAX_TYPES];
	gen_member members[GEN_MAX_MEMBERS];
	uint32_t tags[GEN_MAX_TAGS];
	schema_per pers[GEN_MAX_PERS];
	schema_tag2member maps[GEN_MAX_MAPS];
	schema_enum enums[GEN_MAX_ENUMS];
	int ntypes, nmembers, ntags, npers, nmaps, nenums;
	int root;
} gen_schema;

/* Walks asn_DEF_MegacoMessage into s; 0, or -1 having said why on stderr. */
int gen_schema_build(gen_schema *s);

/* The C expressions for a member's offset, a type's size and a CHOICE's present field. */
void gen_offset_expr(const gen_schema *s, const gen_member *m, char *buf, size_t cap);
void gen_size_expr(const gen_type *t, char *buf, size_t cap);
void gen_pres_offset_expr(const gen_type *t, char *buf, size_t cap);
void gen_pres_size_expr(const gen_type *t, char *buf, size_t cap);

#endif
