/* Emitters of the generated sources (tools/gen), each from the schema model. */
#ifndef MEGACO_GEN_SCHEMA_EMIT_H
#define MEGACO_GEN_SCHEMA_EMIT_H

#include <stdio.h>

#include "schema_model.h"

/* The #includes that declare every struct of the schema. */
void emit_includes(const gen_schema *s, FILE *f);

/* Each returns 0, or -1 when writing failed. */
int emit_schema_h(const gen_schema *s, FILE *f);
int emit_schema_c(const gen_schema *s, FILE *f);
int emit_der_writers(const gen_schema *s, FILE *f);
int emit_per_readers(const gen_schema *s, FILE *f);
int emit_per_writers(const gen_schema *s, FILE *f);
int emit_ber_readers(const gen_schema *s, FILE *f);
int emit_version_checks(const gen_schema *s, FILE *f);

#endif
