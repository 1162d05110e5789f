/*
 * The structural model check (validate.c) that runs before every binary
 * writer and the name conversion: after it returns MEGACO_OK they may follow
 * every pointer, take every `present` as one of its alternatives and recurse
 * without bound checks of their own.
 */
#ifndef MEGACO_VALIDATE_H
#define MEGACO_VALIDATE_H

#include "megaco/error.h"

struct MegacoMessage;

/*
 * Returns MEGACO_OK, or CONSTRAINT (a CHOICE without a valid alternative, a
 * NULL list element or buffer with a size, a required element missing) or
 * TOO_DEEP (nesting past MEGACO_DEPTH_CEILING levels, which is what a cycle
 * gives), with the element's path in err.
 */
int model_check(const struct MegacoMessage *model, megaco_error *err);

/*
 * Writes the path of the node of type td (the schema type of td's name) at
 * address node ("mess.mId", "...commandRequests[0].command"; "mess.messageBody."
 * left out) into buf;
 * returns 0 when the model does not reach it. For error messages of
 * encoders that do not track paths.
 */
struct asn_TYPE_descriptor_s;
int model_path(const struct MegacoMessage *model, const struct asn_TYPE_descriptor_s *td,
               const void *node, char *buf, size_t cap);
/* The same for a node of the schema type called type_name (schema_type.name). */
int model_path_named(const struct MegacoMessage *model, const char *type_name, const void *node,
                     char *buf, size_t cap);

#endif
