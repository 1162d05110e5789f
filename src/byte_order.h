/*
 * Big-endian 32- and 64-bit words at any address, for the PER bit reader
 * and writer and the BER reader's integers: a memcpy (no alignment assumed) and a byte swap only on a
 * little-endian CPU, so each is one load or store on either. Internal.
 */
#ifndef MEGACO_BYTE_ORDER_H
#define MEGACO_BYTE_ORDER_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BE_SWAP32(x) (x)
#define BE_SWAP64(x) (x)
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BE_SWAP32(x) __builtin_bswap32(x)
#define BE_SWAP64(x) __builtin_bswap64(x)
#else
#error "unknown byte order: __BYTE_ORDER__ must be big- or little-endian"
#endif

static inline __attribute__((always_inline)) uint32_t be32_load(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return BE_SWAP32(v);
}

static inline __attribute__((always_inline)) uint64_t be64_load(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return BE_SWAP64(v);
}

static inline __attribute__((always_inline)) void be32_store(void *p, uint32_t v)
{
	v = BE_SWAP32(v);
	memcpy(p, &v, sizeof v);
}

static inline __attribute__((always_inline)) void be64_store(void *p, uint64_t v)
{
	v = BE_SWAP64(v);
	memcpy(p, &v, sizeof v);
}

#endif
