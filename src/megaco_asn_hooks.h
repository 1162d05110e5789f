/*
 * Included by the patched asn_internal.h of the generated asn1c runtime
 * (see cmake/Asn1Generate.cmake): every allocation the runtime makes goes
 * through these hooks, which use the calling thread's current arena when one
 * is installed (during a decode) and the C heap otherwise.
 */
#ifndef MEGACO_ASN_HOOKS_H
#define MEGACO_ASN_HOOKS_H

#include <stddef.h>

void *megaco_asn_calloc(size_t nmemb, size_t size);
void *megaco_asn_malloc(size_t size);
void *megaco_asn_realloc(void *ptr, size_t size);
void megaco_asn_free(void *ptr);

/*
 * A type descriptor's printer and XER entries (cmake/Asn1Generate.cmake):
 * none in libmegaco.so and libmegaco.a, which never print a model or read
 * or write XER; the tests' and tools' copy of the runtime keeps them.
 */
#ifdef MEGACO_ASN1_NO_XER
#define MEGACO_ASN1_XER(f) 0
#else
#define MEGACO_ASN1_XER(f) f
#endif

/* A real no-op macro: the stock empty function still evaluates arguments. */
#define ASN_DEBUG(...) ((void)0)
#define MEGACO_ASN_DEBUG_DISABLED 1

#endif
