/* Whole files and streams into malloc'd memory (tools/read_file.c). */
#ifndef MEGACO_TOOLS_READ_FILE_H
#define MEGACO_TOOLS_READ_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The rest of f, NUL-terminated (the NUL not counted in *len); NULL on a read error or out of memory. */
unsigned char *read_stream(FILE *f, size_t *len);
/* The file at path the same way; NULL also when it cannot be opened. */
unsigned char *read_file(const char *path, size_t *len);

#endif
