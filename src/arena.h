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

/*
 * The first block of a message (src/message.c): 130 of the 149 corpus
 * messages decode into one of this size (4096: 62). With the default
 * allocator a freed block of this size is kept as its thread's spare (arena.c).
 */
#define ARENA_FIRST_BLOCK 8192

/* Every allocation is preceded by a header of this size holding its size. */
#define ARENA_ALIGN sizeof(max_align_t)
#define ARENA_HDR ARENA_ALIGN

typedef struct megaco_arena {
	arena_block *head;          /* newest block, allocations come from here */
	const megaco_allocator *al; /* never NULL */
	size_t next_size;           /* size of the next block to request */
	size_t total;               /* bytes obtained from the allocator */
	size_t limit;               /* total may not pass this; 0: no limit */
	unsigned nblocks;
	int failed;                 /* an allocation failed since init */
	void *last;                 /* newest allocation, for in-place realloc */
} megaco_arena;

void arena_init(megaco_arena *a, const megaco_allocator *al, size_t first_size);
void arena_reset_blocks(megaco_arena *a);
/* Frees every block; a may live in one of them (a message handle), and is
 * not touched once the first block has gone. */
void arena_release(megaco_arena *a);
void *arena_alloc_slow(megaco_arena *a, size_t size); /* zeroed; a new block when needed */
void *arena_realloc(megaco_arena *a, void *ptr, size_t size);
char *arena_memdup(megaco_arena *a, const void *src, size_t len); /* NUL-terminated */

/*
 * An arena whose first block (first_size bytes, or more for size) holds, as
 * its first allocation, size bytes that start with the arena itself: a
 * message handle that owns the arena it lives in. The rest of the size bytes
 * is NOT zeroed. NULL when the allocator fails (or size cannot hold the
 * arena). The arena is set up in place: built on the stack and copied, it
 * was read back with 16-byte loads right behind the narrower stores that
 * had just written it, which the CPU cannot forward from (perf: half of
 * message_create's samples on that copy).
 */
megaco_arena *arena_init_first(const megaco_allocator *al, size_t first_size, size_t size);

/*
 * memset(p, 0, size) for a size constant at the call, with 16-byte stores:
 * GCC turns a constant memset of 64 bytes or more into `rep stos`, slow to
 * start for a node of a hundred bytes. may_alias: the memory is then read as
 * its own type; aligned(8): arena memory is only as aligned as the caller's
 * allocator makes it.
 */
typedef uint64_t arena_zero_vec __attribute__((vector_size(16), may_alias, aligned(8)));

static inline __attribute__((always_inline)) void arena_zero(void *p, size_t size)
{
	unsigned char *q = p;
	size_t bulk = size & ~(size_t)15;
#pragma GCC unroll 32
	for (size_t i = 0; i < bulk; i += 16)
		*(arena_zero_vec *)(void *)(q + i) = (arena_zero_vec){ 0, 0 };
	memset(q + bulk, 0, size - bulk);
}

/*
 * For a decoder that bump-allocates many small nodes itself (the UPER
 * reader): the free tail of the newest block, at least min bytes (a new
 * block when it is shorter), as [returned pointer, *lim). The memory is not
 * zeroed and carved pieces have no size header, so one that may be passed to
 * arena_realloc() must carry its own. Until arena_tail_return() gives the
 * unused rest back (cur: the first byte not carved; NULL: nothing was
 * taken), the caller makes no other call on the arena. NULL, with
 * a->failed set, when a needed block cannot be had.
 */
char *arena_tail_take_slow(megaco_arena *a, size_t min, char **lim);

static inline char *arena_tail_take(megaco_arena *a, size_t min, char **lim)
{
	arena_block *b = a->head;
	if (__builtin_expect(!b || b->size - b->used < min, 0))
		return arena_tail_take_slow(a, min, lim);
	/* What the caller carves lies after the newest allocation, which can
	 * therefore no longer grow in place. */
	a->last = NULL;
	*lim = (char *)b->data + b->size;
	return (char *)b->data + b->used;
}

static inline void arena_tail_return(megaco_arena *a, char *cur)
{
	arena_block *b = a->head;
	if (!cur || !b)
		return;
	size_t used = ((size_t)(cur - (char *)b->data) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	b->used = used < b->size ? used : b->size;
}

/*
 * A zeroed allocation. The text builder makes dozens of small nodes per
 * message; inlined, the common case is a bounds check and a bump, and the
 * zeroing of a constant-size node is a few stores (arena_zero: a memset
 * would be `rep stos` wherever gcc guesses the block cold, as it does for
 * most of the parser's actions).
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
	arena_zero(p + ARENA_HDR, size);
	return p + ARENA_HDR;
}

/*
 * Whether an arena of this thread refused a block for its limit since the
 * last arena_limit_clear(): how megaco_decode tells a model over
 * max_model_memory (the decoders report any failed allocation as NOMEM)
 * from an allocator that said no. In line (as arena_set_current): once or
 * twice a decode each, a call costs more than the access.
 */
extern _Thread_local int arena_limit_flag;
static inline void arena_limit_clear(void) { arena_limit_flag = 0; }
static inline int arena_limit_hit(void) { return arena_limit_flag; }

/*
 * The arena asn1c's allocation macros use on this thread; NULL means the C
 * heap. Thread-local, so concurrent decodes on different threads never share
 * one. Returns the previous value so scopes nest.
 */
extern _Thread_local megaco_arena *arena_current;
static inline megaco_arena *arena_set_current(megaco_arena *a)
{
	megaco_arena *prev = arena_current;
	arena_current = a;
	return prev;
}

extern const megaco_allocator megaco_default_allocator;

#endif
