/*
 * Region allocator behind every decoded message: a handful of growing blocks,
 * released together. Allocations remember their size so asn1c's REALLOC of
 * SEQUENCE OF arrays can copy (or grow the newest allocation in place).
 */
#ifndef MEGACO_ARENA_H
#define MEGACO_ARENA_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "megaco/options.h"

typedef struct arena_block arena_block;

/* In the header so that arena_alloc's fast path inlines (see below). */
struct arena_block {
	arena_block *next;
	size_t size;  /* usable bytes in data[] */
	size_t used;
	max_align_t data[];
};

/* Every allocation is preceded by a header of this size holding its size. */
#define ARENA_ALIGN sizeof(max_align_t)
#define ARENA_HDR ARENA_ALIGN

typedef struct megaco_arena {
	arena_block *head;          /* newest block, allocations come from here */
	const megaco_allocator *al; /* never NULL */
	size_t next_size;           /* size of the next block to request */
	size_t total;               /* bytes obtained from the allocator */
	unsigned nblocks;
	int failed;                 /* an allocation failed since init */
	void *last;                 /* newest allocation, for in-place realloc */
} megaco_arena;

void arena_init(megaco_arena *a, const megaco_allocator *al, size_t first_size);
void arena_reset_blocks(megaco_arena *a);
void *arena_alloc_slow(megaco_arena *a, size_t size); /* zeroed; a new block when needed */
void *arena_realloc(megaco_arena *a, void *ptr, size_t size);
char *arena_memdup(megaco_arena *a, const void *src, size_t len); /* NUL-terminated */

/*
 * A zeroed allocation. The text builder makes dozens of small nodes per
 * message; inlined, the common case is a bounds check and a bump, and the
 * memset of a constant-size node compiles to a few stores.
 */
static inline void *arena_alloc(megaco_arena *a, size_t size)
{
	arena_block *b = a->head;
	size_t need = ARENA_HDR + ((size + (size == 0) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1));
	if (__builtin_expect(!b || size > SIZE_MAX / 2 || b->size - b->used < need, 0))
		return arena_alloc_slow(a, size);
	unsigned char *p = (unsigned char *)b->data + b->used;
	b->used += need;
	memcpy(p, &size, sizeof size);
	a->last = p + ARENA_HDR;
	memset(p + ARENA_HDR, 0, size);
	return p + ARENA_HDR;
}

/*
 * The arena asn1c's allocation macros use on this thread; NULL means the C
 * heap. Thread-local, so concurrent decodes on different threads never share
 * one. Returns the previous value so scopes nest.
 */
megaco_arena *arena_set_current(megaco_arena *a);
megaco_arena *arena_current(void);

extern const megaco_allocator megaco_default_allocator;

#endif
