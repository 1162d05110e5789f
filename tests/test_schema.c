/*
 * The generated schema (src/schema.h, BUILD/gen/megaco_schema.c) against
 * asn1c's descriptors as this build's compiler laid them out: the build
 * checked the offsetof()/sizeof() expressions on the build machine, this
 * checks them on the target (under qemu for a cross build). The types are
 * visited in the generator's order (depth first, members in order), so
 * schema index i must be the i-th descriptor met.
 */
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "asn1_settle.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SET_OF.h"
#include "megaco_schema.h"
#include "schema.h"

static const asn_TYPE_descriptor_t *seen[SCHEMA_NTYPES];
static int nseen, checked_members;

static int visit(const asn_TYPE_descriptor_t *td)
{
	for (int i = 0; i < nseen; i++)
		if (seen[i] == td)
			return i;
	assert_true(nseen < SCHEMA_NTYPES);
	int ti = nseen++;
	seen[ti] = td;
	const schema_type *t = &schema_types[ti];
	if (t->name && td->name)
		assert_string_equal(t->name, td->name);
	assert_int_equal(t->tag_count, td->tags_count);
	for (int i = 0; i < td->tags_count; i++)
		assert_int_equal(schema_tags[t->tags + i], td->tags[i]);
	switch (t->kind) {
	case SK_SEQUENCE:
		assert_int_equal(t->size, ((const asn_SEQUENCE_specifics_t *)td->specifics)->struct_size);
		break;
	case SK_CHOICE: {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		assert_int_equal(t->size, cs->struct_size);
		assert_int_equal(t->pres_offset, cs->pres_offset);
		assert_int_equal(t->pres_size, cs->pres_size);
		break;
	}
	case SK_SEQUENCE_OF:
	case SK_SET_OF:
		assert_int_equal(t->size, ((const asn_SET_OF_specifics_t *)td->specifics)->struct_size);
		break;
	default:
		break;
	}
	if (t->kind > SK_SET_OF)
		return ti;
	assert_int_equal(t->count, td->elements_count);
	for (int i = 0; i < td->elements_count; i++) {
		const asn_TYPE_member_t *el = &td->elements[i];
		const schema_member *m = &schema_members[t->first + i];
		assert_int_equal(m->offset, (unsigned)el->memb_offset);
		assert_int_equal((m->flags & SM_POINTER) != 0, (el->flags & ATF_POINTER) != 0);
		assert_int_equal((m->flags & SM_OPTIONAL) != 0, el->optional != 0);
		if (m->tag_mode)
			assert_int_equal(m->tag, el->tag);
		int ci = visit(el->type);
		assert_int_equal(m->type, ci);
		checked_members++;
	}
	return ti;
}

static void test_schema_matches_descriptors(void **state)
{
	(void)state;
	asn1_descriptors_settle();
	assert_int_equal(visit(&asn_DEF_MegacoMessage), SCHEMA_ROOT);
	assert_int_equal(nseen, SCHEMA_NTYPES);
	assert_int_equal(checked_members, SCHEMA_NMEMBERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_matches_descriptors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
