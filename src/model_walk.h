/*
 * Generic pre-order walk over an asn1c model, driven by the generated type
 * descriptors. The transcoding layer (names) and the version check use it to
 * find the fields they care about without hand-written code per type.
 */
#ifndef MEGACO_MODEL_WALK_H
#define MEGACO_MODEL_WALK_H

#include "asn_application.h"
#include "constr_TYPE.h"

typedef struct walk_node {
	asn_TYPE_descriptor_t *td;         /* type of this node */
	void *ptr;                         /* the node's C structure, never NULL */
	asn_TYPE_descriptor_t *parent;     /* NULL at the root */
	int member;                        /* index in parent->elements; -1 for a list item */
	int is_extension;                  /* member sits after the parent's "..." marker */
	unsigned depth;                    /* root is 0 */
} walk_node;

/* What a visitor returns: keep going, skip this node's children, or stop. */
enum { WALK_CONTINUE = 0, WALK_SKIP = 1 };

/* A negative return from the visitor stops the walk and is returned. */
typedef int (*walk_visitor)(const walk_node *node, void *ctx);

int model_walk(asn_TYPE_descriptor_t *td, void *ptr, walk_visitor visit, void *ctx);

/* Kind tests on descriptors, by the runtime functions they point to. */
int td_is_sequence(const asn_TYPE_descriptor_t *td);
int td_is_choice(const asn_TYPE_descriptor_t *td);
int td_is_list(const asn_TYPE_descriptor_t *td); /* SEQUENCE OF / SET OF */
/* The CHOICE alternative present (1-based), 0 for none. */
int choice_present(const asn_TYPE_descriptor_t *td, const void *ptr);
/* Sets the CHOICE's `present` (any value, as a hand-built model may: tests). */
void choice_set_present(const asn_TYPE_descriptor_t *td, void *ptr, int present);

#endif
