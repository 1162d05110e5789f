/*
 * Questions about the const schema (schema.h) that more than one binary
 * codec asks: which type a member belongs to, for error messages.
 */
#include "schema.h"

#include "megaco_schema.h"

int schema_parent_of(const schema_member *m)
{
	uintptr_t at = (uintptr_t)m, base = (uintptr_t)schema_members;
	if (at < base || at >= base + SCHEMA_NMEMBERS * sizeof *m)
		return -1;
	unsigned k = (unsigned)((at - base) / sizeof *m);
	for (int i = 0; i < SCHEMA_NTYPES; i++)
		if (schema_types[i].count && k >= schema_types[i].first &&
		    k < (unsigned)schema_types[i].first + schema_types[i].count)
			return i;
	return -1;
}
