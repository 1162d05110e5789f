/*
 * Guards the asn1c runtime patch in cmake/Asn1Generate.cmake: ASN_DEBUG must
 * be a macro that discards its arguments. Stock asn1c 0.9.28 defines it as an
 * empty function, so every call still builds its arguments: measured as a 5x
 * slower BER decode. If the patch stops applying, this fails to compile.
 */
#include "asn_internal.h"

#ifndef MEGACO_ASN_DEBUG_DISABLED
#error "generated asn_internal.h lacks libmegaco's hooks: ASN_DEBUG is not a no-op"
#endif

#include <string.h>

#include "testutil.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* expands x first */

static int evaluated;

static const char *side_effect(void)
{
	evaluated++;
	return "x";
}

static void test_asn_debug_discards_arguments(void **state)
{
	(void)state;
	(void)side_effect; /* a no-op macro leaves the function otherwise unused */
	ASN_DEBUG("%s %d", side_effect(), evaluated++);
	assert_int_equal(evaluated, 0);
}

/* The allocation macros are routed to the arena hooks, not to libc. */
static void test_alloc_macros_hooked(void **state)
{
	(void)state;
	void *p = MALLOC(16);
	assert_non_null(p);
	FREEMEM(p);
	const char *m = STR(MALLOC(1));
	assert_non_null(strstr(m, "megaco_asn_malloc"));
	const char *c = STR(CALLOC(1, 1));
	assert_non_null(strstr(c, "megaco_asn_calloc"));
	const char *r = STR(REALLOC(p, 1));
	assert_non_null(strstr(r, "megaco_asn_realloc"));
	const char *f = STR(FREEMEM(p));
	assert_non_null(strstr(f, "megaco_asn_free"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asn_debug_discards_arguments),
		cmocka_unit_test(test_alloc_macros_hooked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
