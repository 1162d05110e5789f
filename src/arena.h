/*
 * Region allocator behind every decoded message: a handful of growing blocks,
 * released together. Allocations remember their size so asn1c's REALLOC of
 * SEQUENCE OF arrays can copy (or grow the newest allocation in place).
 */
#ifndef MEGACO_ARENA_H
#define MEGACO_ARENA_H

#include <stddef.h>

#include "megaco/options.h"

typedef struct arena_block arena_block;

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
void *arena_alloc(megaco_arena *a, size_t size);   /* zeroed */
void *arena_realloc(megaco_arena *a, void *ptr, size_t size);
char *arena_memdup(megaco_arena *a, const void *src, size_t len); /* NUL-terminated */

/*
 * The arena asn1c's allocation macros use on this thread; NULL means the C
 * heap. Thread-local, so concurrent decodes on different threads never share
 * one. Returns the previous value so scopes nest.
 */
megaco_arena *arena_set_current(megaco_arena *a);
megaco_arena *arena_current(void);

extern const megaco_allocator megaco_default_allocator;

#endif
