/* Module facts the descriptors lack (schema_facts.c), for the schema generator. */
#ifndef MEGACO_GEN_SCHEMA_FACTS_H
#define MEGACO_GEN_SCHEMA_FACTS_H

#include "schema.h"

typedef struct gen_name_fact {
	const char *type, *member;
	enum schema_name kind;
} gen_name_fact;

/* Ends with a NULL type. */
extern const gen_name_fact gen_name_facts[];

/* The member that holds the message's H.248 version (SM_VERSION). */
extern const char gen_version_type[], gen_version_member[];

#endif
