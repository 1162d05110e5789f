/*
 * The package registry's data layout, shared by src/registry.c (lookups,
 * additions) and the built-in tables tools/registry_tables.py generates
 * from data/packages.yaml at build time. Packages, items and parameters each
 * sit in two sorted vectors (by case-insensitive name and by ID) so a lookup
 * is a binary search that never allocates.
 *
 * The built-in entries and vectors are const. A registry starts with vectors
 * that point at them and copies on write: adding to a built-in package first
 * gives the registry its own copy of that package (and of the vectors on the
 * way), so the tables stay read-only and shared.
 */
#ifndef MEGACO_REGISTRY_TABLE_H
#define MEGACO_REGISTRY_TABLE_H

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

typedef struct reg_item reg_item; /* also in registry.h; C11 allows both */

struct reg_item {
	reg_named hd;
	reg_vec params_by_name, params_by_id; /* reg_named */
};

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

#endif
