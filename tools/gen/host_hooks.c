/* asn1c's runtime allocates through these (megaco_asn_hooks.h); the host tools use the C library. */
#include <stdlib.h>

#include "megaco_asn_hooks.h"

void *megaco_asn_calloc(size_t nmemb, size_t size) { return calloc(nmemb, size); }
void *megaco_asn_malloc(size_t size) { return malloc(size); }
void *megaco_asn_realloc(void *ptr, size_t size) { return realloc(ptr, size); }
void megaco_asn_free(void *ptr) { free(ptr); }
