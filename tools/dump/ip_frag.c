/*
 * IP fragment reassembly (IPv4, and IPv6 fragment headers): a small table of
 * datagrams in progress, keyed by addresses, identification and protocol.
 * Each keeps a bitmap of the 8-byte blocks received; the datagram is done
 * when the last fragment has set its length and every block is in. The
 * table is bounded (oldest entry dropped when full, entries older than
 * FRAG_TIMEOUT seconds of capture time dropped), so memory does not grow
 * with the capture.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define FRAG_SLOTS 32
#define FRAG_TIMEOUT 30
#define FRAG_MAX 65535 /* a datagram's payload never exceeds this */
#define KEY_MAX 40

typedef struct frag_entry {
	int used;
	uint8_t key[KEY_MAX];
	size_t key_len;
	int64_t started;
	size_t total; /* payload length, known once the last fragment came; 0 before */
	uint8_t *data; /* FRAG_MAX bytes */
	uint8_t blocks[(FRAG_MAX + 7) / 8 / 8 + 1]; /* one bit per 8-byte block */
} frag_entry;

struct ip_frag_table {
	frag_entry e[FRAG_SLOTS];
	uint8_t *done; /* the last completed datagram, handed to the caller */
};

ip_frag_table *ip_frag_new(void)
{
	return calloc(1, sizeof(ip_frag_table));
}

static void drop(frag_entry *e)
{
	free(e->data);
	memset(e, 0, sizeof *e);
}

void ip_frag_free(ip_frag_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < FRAG_SLOTS; i++)
		drop(&t->e[i]);
	free(t->done);
	free(t);
}

size_t ip_frag_pending(const ip_frag_table *t)
{
	size_t n = 0;
	for (size_t i = 0; i < FRAG_SLOTS; i++)
		n += t->e[i].used != 0;
	return n;
}

static int complete(const frag_entry *e)
{
	if (!e->total)
		return 0;
	size_t nblocks = (e->total + 7) / 8;
	for (size_t b = 0; b < nblocks; b++)
		if (!(e->blocks[b / 8] >> (b % 8) & 1))
			return 0;
	return 1;
}

const uint8_t *ip_frag_add(ip_frag_table *t, const uint8_t *key, size_t key_len,
                           int64_t now_sec, size_t offset, int more, const uint8_t *data,
                           size_t len, size_t *out_len)
{
	if (key_len > KEY_MAX || offset + len > FRAG_MAX || (more && len % 8))
		return NULL;
	frag_entry *e = NULL, *oldest = NULL, *free_slot = NULL;
	for (size_t i = 0; i < FRAG_SLOTS; i++) {
		frag_entry *x = &t->e[i];
		if (x->used && now_sec - x->started > FRAG_TIMEOUT)
			drop(x);
		if (!x->used) {
			if (!free_slot)
				free_slot = x;
			continue;
		}
		if (x->key_len == key_len && !memcmp(x->key, key, key_len))
			e = x;
		if (!oldest || x->started < oldest->started)
			oldest = x;
	}
	if (!e) {
		e = free_slot ? free_slot : oldest;
		if (e->used)
			drop(e);
		if (!(e->data = malloc(FRAG_MAX)))
			return NULL;
		e->used = 1;
		memcpy(e->key, key, key_len);
		e->key_len = key_len;
		e->started = now_sec;
	}
	memcpy(e->data + offset, data, len);
	for (size_t b = offset / 8; b < (offset + len + 7) / 8; b++)
		e->blocks[b / 8] |= (uint8_t)(1u << (b % 8));
	if (!more)
		e->total = offset + len;
	if (!complete(e))
		return NULL;
	free(t->done);
	t->done = e->data;
	*out_len = e->total;
	e->data = NULL;
	drop(e);
	return t->done;
}
