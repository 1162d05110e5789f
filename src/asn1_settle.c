/*
 * asn1c 0.9.28 finishes the descriptor of a type defined as another type
 * (EventName ::= PkgdName, TransactionId ::= INTEGER (...)) lazily: each of
 * its codec functions first copies the base type's function pointers into
 * the descriptor. Two threads making that first call at once write the same
 * shared words concurrently, a data race by C11's rules. So before any codec
 * runs, we make every such first call once, under pthread_once, by calling
 * each reachable descriptor's free function on NULL (a no-op after the copy).
 * From then on the descriptors are only read.
 */
#include "asn1_settle.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "MegacoMessage.h"

#define MAX_TYPES 1024 /* the v3 module has ~450 descriptors */

typedef struct {
	const asn_TYPE_descriptor_t *seen[MAX_TYPES];
	size_t n;
} visited;

static int mark(visited *v, const asn_TYPE_descriptor_t *td)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->seen[i] == td)
			return 0;
	if (v->n < MAX_TYPES)
		v->seen[v->n++] = td;
	return 1;
}

static void settle(visited *v, asn_TYPE_descriptor_t *td)
{
	if (!td || !mark(v, td))
		return;
	/* A derived type's wrapper may copy another wrapper (a type derived from
	 * a derived type); repeat until the pointer stops changing. */
	for (int i = 0; i < 8; i++) {
		asn_struct_free_f *before = td->free_struct;
		before(td, NULL, 0);
		if (td->free_struct == before)
			break;
	}
	for (int i = 0; i < td->elements_count; i++)
		settle(v, td->elements[i].type);
}

static void settle_all(void)
{
	visited v; /* 8 KiB of stack, once */
	v.n = 0;
	settle(&v, &asn_DEF_MegacoMessage);
}

void asn1_descriptors_settle(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	/* Every decode passes here: a load, not a call into libc, once settled. */
	static atomic_int settled;
	if (atomic_load_explicit(&settled, memory_order_acquire))
		return;
	pthread_once(&once, settle_all);
	atomic_store_explicit(&settled, 1, memory_order_release);
}
