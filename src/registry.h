/*
 * Package registry internals: packages, their items and the items'
 * parameters, each kept in two sorted vectors (by case-insensitive name and
 * by ID) so lookups are binary searches that never allocate. name_convert.c
 * uses the reg_* calls below; the public megaco_registry_* API wraps them.
 *
 * The built-in entries and vectors are const tables that
 * tools/registry_tables.py generates from data/packages.yaml at build time.
 * A registry starts with vectors that point at them and copies on write:
 * adding to a built-in package first gives the registry its own copy of that
 * package (and of the vectors on the way), so the tables stay read-only and
 * shared.
 */
#ifndef MEGACO_REGISTRY_H
#define MEGACO_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "megaco/names.h"

#define REG_NKINDS 4 /* megaco_item_kind */

/* Common head of packages, items and parameters. */
typedef struct reg_named {
	const char *name;
	uint16_t id;
	uint8_t owned; /* 1: allocated by the registry (with its name); 0: built-in */
} reg_named;

/* cap 0: v is a built-in const array (or NULL), to be copied before a change. */
typedef struct reg_vec {
	const reg_named *const *v;
	size_t n, cap;
} reg_vec;

typedef struct reg_item {
	reg_named hd;
	reg_vec params_by_name, params_by_id; /* reg_named */
} reg_item;

typedef struct reg_package {
	reg_named hd;
	unsigned version;
	int32_t base; /* ID of the package it extends, or -1 */
	reg_vec by_name[REG_NKINDS], by_id[REG_NKINDS]; /* reg_item */
} reg_package;

struct megaco_registry {
	const megaco_allocator *al; /* NULL only for the built-in registry */
	reg_vec by_name, by_id;     /* reg_package */
};

/* data/packages.yaml, generated (BUILD/generated/registry_builtin.c). */
extern const struct megaco_registry reg_builtin;

/* Longest text a name conversion produces: "xHHHH/" + a 64-char NAME. */
#define REG_NAME_MAX 160

/*
 * Text item name -> 4 octets. *item receives the registered item when there
 * is one (for its parameters), else NULL (wildcards, fallback IDs).
 */
int reg_name_to_id(const megaco_registry *reg, megaco_item_kind kind, const char *name,
                   size_t len, uint8_t out[4], const reg_item **item);
/* 4 octets -> text; buf holds REG_NAME_MAX bytes; returns the length. */
size_t reg_id_to_name(const megaco_registry *reg, megaco_item_kind kind, const uint8_t id[4],
                      char *buf, const reg_item **item);

/* Parameter names, scoped by their item (NULL: only the fallback form maps). */
int reg_param_to_id(const reg_item *item, const char *name, size_t len, uint8_t out[2]);
size_t reg_param_to_name(const reg_item *item, const uint8_t id[2], char *buf);

/* Package names alone (PackagesItem.packageName). */
int reg_package_to_id(const megaco_registry *reg, const char *name, size_t len, uint8_t out[2]);
size_t reg_package_to_name(const megaco_registry *reg, const uint8_t id[2], char *buf);

/* "xHHHH" (either case) -> 0..0xFFFF, or -1. */
long reg_fallback_value(const char *s, size_t len);

/* The registry options point to, or the built-in one. */
const megaco_registry *reg_or_default(const megaco_registry *reg);

/*
 * A converted name of n chars at tmp into the caller's buf of cap bytes (with
 * its NUL when there is room), *out_len (if not NULL) its length: MEGACO_OK,
 * or BUFFER_TOO_SMALL. For the public megaco_registry_* and megaco_tid_* calls.
 */
int name_copy_out(const char *tmp, size_t n, char *buf, size_t cap, size_t *out_len);

#endif
