/*
 * The UPER reader as a part of tools/gen/uper_write_gen: it builds the node
 * graph the writer's plan is compiled from. A file of its own so that build
 * settings given to src/uper_reader.c for the library do not apply here.
 */
#include "uper_reader.c"
