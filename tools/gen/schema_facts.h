/* Module facts the descriptors lack (schema_facts.c), for the schema generator. */
#ifndef MEGACO_GEN_SCHEMA_FACTS_H
#define MEGACO_GEN_SCHEMA_FACTS_H

#include "schema.h"

typedef struct gen_member_ref {
	const char *type, *member; /* ASN.1 names */
} gen_member_ref;

typedef struct gen_name_fact {
	const char *type, *member;
	enum schema_name kind;
} gen_name_fact;

/* Both end with a NULL type. */
extern const gen_name_fact gen_name_facts[];
extern const gen_member_ref gen_v3_additions[];

#endif
