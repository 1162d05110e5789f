/*
 * Region allocator (see arena.h). Every allocation is preceded by one
 * max_align_t-sized header holding its size; freeing is a no-op until the
 * whole arena goes, which is what a decoded message wants: dozens of small
 * nodes, one lifetime.
 */
#include "arena.h"
#include "megaco_asn_hooks.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN ARENA_ALIGN
#define HDR ARENA_HDR /* per-allocation size header, keeps payloads aligned */
#define MAX_BLOCK ((size_t)1 << 20)
#define DEFAULT_FIRST_BLOCK 4096 /* when the caller gives 0 */

static void *heap_alloc(void *ud, size_t n) { (void)ud; return malloc(n); }
static void heap_free(void *ud, void *p) { (void)ud; free(p); }

const megaco_allocator megaco_default_allocator = { heap_alloc, heap_free, NULL };

_Thread_local megaco_arena *arena_current;
_Thread_local int arena_limit_flag;

void arena_init(megaco_arena *a, const megaco_allocator *al, size_t first_size)
{
	memset(a, 0, sizeof *a);
	a->al = al ? al : &megaco_default_allocator;
	a->next_size = first_size ? first_size : DEFAULT_FIRST_BLOCK;
}

/*
 * One spare block per thread, of the size every message starts with, for
 * the default allocator only. A gateway decodes, handles and frees a message
 * per receive, on the same thread: keeping the freed first block for the next
 * message saves a round trip through malloc's large-chunk path (callgrind:
 * ~230 instructions a decode, 7 % of a BER decode). Blocks of any other size,
 * and every block of a caller's allocator, go back as before. The spare is
 * freed when its thread exits (a pthread key whose value only marks that the
 * thread holds one); at process exit it is still reachable from the thread's
 * storage, like the reentrant scanner's.
 */
static _Thread_local arena_block *spare;
static _Thread_local int spare_registered;
static pthread_key_t spare_key;
static int spare_key_ok;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spare_release(void *marker)
{
	(void)marker;
	free(spare);
	spare = NULL;
	spare_registered = 0;
}

static void spare_key_create(void) { spare_key_ok = pthread_key_create(&spare_key, spare_release) == 0; }

/* Keeps b as this thread's spare if it fits the rule above; 0: the caller frees it. */
static int spare_keep(const megaco_allocator *al, arena_block *b)
{
	if (al != &megaco_default_allocator || b->size != ARENA_FIRST_BLOCK || spare)
		return 0;
	if (!spare_registered) {
		pthread_once(&spare_once, spare_key_create);
		if (!spare_key_ok || pthread_setspecific(spare_key, &spare_key) != 0)
			return 0;
		spare_registered = 1;
	}
	spare = b;
	return 1;
}

static __attribute__((noinline)) void free_blocks(arena_block *b, const megaco_allocator *al)
{
	while (b) {
		arena_block *next = b->next;
		if (!spare_keep(al, b))
			al->free(al->user_data, b);
		b = next;
	}
}

void arena_reset_blocks(megaco_arena *a)
{
	free_blocks(a->head, a->al);
	a->head = NULL;
	a->last = NULL;
	a->total = 0;
	a->nblocks = 0;
}

void arena_release(megaco_arena *a)
{
	/* Two loads of the fields themselves: a copy of the whole struct would
	 * be read with wide loads right behind the allocations' narrow stores
	 * to it (see arena_init_first in arena.h). */
	arena_block *b = a->head;
	const megaco_allocator *al = a->al;
	/* Most messages: one first block that becomes the spare, with no registration to do. */
	if (b && !b->next && spare_registered && spare_keep(al, b))
		return;
	free_blocks(b, al);
}

static size_t round_up(size_t n) { return (n + ALIGN - 1) & ~(ALIGN - 1); }

/* A block of size usable bytes: this thread's spare when the rule above allows. */
static arena_block *block_obtain(const megaco_allocator *al, size_t size)
{
	if (size > SIZE_MAX - sizeof(arena_block))
		return NULL;
	if (size == ARENA_FIRST_BLOCK && spare && al == &megaco_default_allocator) {
		arena_block *b = spare;
		spare = NULL;
		return b;
	}
	return al->alloc(al->user_data, sizeof(arena_block) + size);
}

/* b, of size usable bytes, becomes a's newest block (empty). */
static void link_block(megaco_arena *a, arena_block *b, size_t size)
{
	b->next = a->head;
	b->size = size;
	b->used = 0;
	a->head = b;
	a->total += size;
	a->nblocks++;
	if (a->next_size < MAX_BLOCK)
		a->next_size *= 2;
}

static arena_block *new_block(megaco_arena *a, size_t need)
{
	size_t size = a->next_size;
	if (size < need)
		size = round_up(need);
	if (a->limit) {
		/* The last block is what the limit leaves, if that is enough. */
		size_t room = a->total < a->limit ? a->limit - a->total : 0;
		if (size > room) {
			size = room & ~(ALIGN - 1);
			if (size < need) {
				arena_limit_flag = 1;
				return NULL;
			}
		}
	}
	arena_block *b = block_obtain(a->al, size);
	if (b)
		link_block(a, b, size);
	return b;
}

static void *alloc_raw(megaco_arena *a, size_t size)
{
	if (size > SIZE_MAX / 2) {
		a->failed = 1;
		return NULL;
	}
	size_t need = HDR + round_up(size ? size : 1);
	arena_block *b = a->head;
	if (!b || b->size - b->used < need) {
		b = new_block(a, need);
		if (!b) {
			a->failed = 1;
			return NULL;
		}
	}
	unsigned char *p = (unsigned char *)b->data + b->used;
	b->used += need;
	memcpy(p, &size, sizeof size);
	a->last = p + HDR;
	return p + HDR;
}

/* The arena in place as its first block's first allocation (size bytes, need with the header):
 * field by field where it stays (see arena.h), each once (link_block's work too). */
static inline megaco_arena *first_in(arena_block *b, const megaco_allocator *al,
                                     size_t first_size, size_t bsize, size_t size, size_t need)
{
	unsigned char *p = (unsigned char *)b->data;
	megaco_arena *a = (megaco_arena *)(void *)(p + HDR);
	b->next = NULL;
	b->size = bsize;
	b->used = need;
	memcpy(p, &size, sizeof size);
	a->head = b;
	a->al = al;
	a->next_size = first_size < MAX_BLOCK ? first_size * 2 : first_size;
	a->total = bsize;
	a->limit = 0;
	a->nblocks = 1;
	a->failed = 0;
	a->last = a;
	return a;
}

/* arena_init_first() from the allocator: out of line, so the spare's path stays short. */
static __attribute__((noinline)) megaco_arena *first_alloc(const megaco_allocator *al,
                                                           size_t first_size, size_t size)
{
	if (size < sizeof(megaco_arena) || size > SIZE_MAX / 2)
		return NULL;
	if (!al)
		al = &megaco_default_allocator;
	if (!first_size)
		first_size = DEFAULT_FIRST_BLOCK;
	size_t need = HDR + round_up(size);
	size_t bsize = first_size < need ? need : first_size; /* need is already rounded */
	arena_block *b = block_obtain(al, bsize);
	return b ? first_in(b, al, first_size, bsize, size, need) : NULL;
}

megaco_arena *arena_init_first(const megaco_allocator *al, size_t first_size, size_t size)
{
	arena_block *b = spare; /* block_obtain's rule, checked first */
	if (b && (!al || al == &megaco_default_allocator) && first_size == ARENA_FIRST_BLOCK &&
	    size >= sizeof(megaco_arena) && size <= ARENA_FIRST_BLOCK - HDR) {
		spare = NULL;
		return first_in(b, &megaco_default_allocator, first_size, first_size, size,
		                HDR + round_up(size));
	}
	return first_alloc(al, first_size, size);
}

void *arena_alloc_slow(megaco_arena *a, size_t size)
{
	void *p = alloc_raw(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

/* arena_tail_take() when the newest block's tail is too short: a new block. */
char *arena_tail_take_slow(megaco_arena *a, size_t min, char **lim)
{
	arena_block *b;
	if (min > SIZE_MAX / 2 || !(b = new_block(a, min))) {
		a->failed = 1;
		return NULL;
	}
	a->last = NULL;
	*lim = (char *)b->data + b->size;
	return (char *)b->data + b->used;
}

static size_t alloc_size(const void *p)
{
	size_t n;
	memcpy(&n, (const unsigned char *)p - HDR, sizeof n);
	return n;
}

void *arena_realloc(megaco_arena *a, void *ptr, size_t size)
{
	if (!ptr)
		return alloc_raw(a, size);
	size_t old = alloc_size(ptr);
	if (size <= old) {
		memcpy((unsigned char *)ptr - HDR, &size, sizeof size);
		return ptr;
	}
	/* The newest allocation can usually grow where it stands. */
	arena_block *b = a->head;
	if (ptr == a->last && b) {
		size_t start = (size_t)((unsigned char *)ptr - HDR - (unsigned char *)b->data);
		size_t need = HDR + round_up(size);
		if (size <= SIZE_MAX / 2 && b->size - start >= need) {
			b->used = start + need;
			memcpy((unsigned char *)ptr - HDR, &size, sizeof size);
			return ptr;
		}
	}
	void *n = alloc_raw(a, size);
	if (n)
		memcpy(n, ptr, old);
	return n;
}

char *arena_memdup(megaco_arena *a, const void *src, size_t len)
{
	if (len == SIZE_MAX)
		return NULL;
	char *p = alloc_raw(a, len + 1);
	if (!p)
		return NULL;
	if (len)
		memcpy(p, src, len);
	p[len] = '\0';
	return p;
}

/* Hooks named by the patched asn_internal.h. */

void *megaco_asn_calloc(size_t nmemb, size_t size)
{
	megaco_arena *a = arena_current;
	if (!a)
		return calloc(nmemb, size);
	if (size && nmemb > SIZE_MAX / size)
		return NULL;
	return arena_alloc(a, nmemb * size);
}

void *megaco_asn_malloc(size_t size)
{
	megaco_arena *a = arena_current;
	return a ? alloc_raw(a, size) : malloc(size);
}

void *megaco_asn_realloc(void *ptr, size_t size)
{
	megaco_arena *a = arena_current;
	return a ? arena_realloc(a, ptr, size) : realloc(ptr, size);
}

void megaco_asn_free(void *ptr)
{
	/* Arena memory is released with the arena as a whole. */
	if (!arena_current)
		free(ptr);
}
