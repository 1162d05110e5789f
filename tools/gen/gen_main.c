/*
 * megaco-gen: the build-time code generator, compiled with the host's C
 * compiler (tools/gen/CMakeLists.txt) and run on the build machine, also
 * when cross-compiling. From asn1c's descriptors of the H.248.1 module it
 * writes, into OUTDIR:
 *   megaco_schema.h, megaco_schema.c  the const schema tables (src/schema.h)
 *   megaco_der.inc                the DER writer's per-type functions
 *   megaco_per_write.inc          the PER writer's per-type functions
 *   megaco_per_read.inc           the PER reader's per-type functions
 *   megaco_ber.inc                the BER reader's per-type functions
 *   megaco_version.inc            the version gate's per-type functions
 * A file whose contents would not change is left alone, so that an
 * unchanged schema rebuilds nothing.
 *
 * Usage: megaco-gen OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"
#include "schema_emit.h"

static gen_schema schema;

/* Writes emit()'s output to dir/name unless the file already holds it. */
static int write_file(const char *dir, const char *name,
                      int (*emit)(const gen_schema *, FILE *))
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem || emit(&schema, mem) != 0 || fclose(mem) != 0) {
		fprintf(stderr, "megaco-gen: cannot generate %s\n", name);
		return -1;
	}
	size_t have_len;
	unsigned char *have = read_file(path, &have_len);
	int same = have && have_len == len && !memcmp(have, text, len);
	free(have);
	if (same) {
		free(text);
		return 0;
	}
	FILE *out = fopen(path, "wb");
	int rc = out && fwrite(text, 1, len, out) == len ? 0 : -1;
	if (out && fclose(out) != 0)
		rc = -1;
	if (rc)
		perror(path);
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	if (gen_schema_build(&schema) != 0)
		return 1;
	if (write_file(argv[1], "megaco_schema.h", emit_schema_h) ||
	    write_file(argv[1], "megaco_schema.c", emit_schema_c) ||
	    write_file(argv[1], "megaco_der.inc", emit_der_writers) ||
	    write_file(argv[1], "megaco_per_read.inc", emit_per_readers) ||
	    write_file(argv[1], "megaco_per_write.inc", emit_per_writers) ||
	    write_file(argv[1], "megaco_ber.inc", emit_ber_readers) ||
	    write_file(argv[1], "megaco_version.inc", emit_version_checks))
		return 1;
	printf("megaco-gen: %d types, %d members, %d PER constraints\n", schema.ntypes,
	       schema.nmembers, schema.npers);
	return 0;
}
