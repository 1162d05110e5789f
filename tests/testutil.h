/*
 * Shared test helpers: the corpus manifest (read with libyaml) and walks over
 * its files, model dumps, and byte compares for failure messages.
 */
#ifndef MEGACO_TESTUTIL_H
#define MEGACO_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "megaco/megaco.h"
#include "read_file.h" /* tools/: read_file(), read_stream() */

#define CORPUS_MAX_ENC 5 /* pretty, compact, ber, per, aper: MEGACO_ENC_x - 1 */

typedef struct corpus_entry {
	char set[32];
	char name[64];
	int version;
	int valid;                       /* manifest "valid" key, 1 when absent */
	char *path[CORPUS_MAX_ENC];      /* NULL where the encoding does not exist */
} corpus_entry;

typedef struct corpus {
	char dir[512];
	corpus_entry *entries;
	size_t count;
} corpus;

/* Loads DIR/manifest.yaml; aborts the test binary on error. */
corpus *corpus_load(const char *dir);
void corpus_free(corpus *c);
/* The corpus directory the test was given (argv[1]) or MEGACO_SOURCE_DIR/corpus. */
const char *corpus_dir_from_args(int argc, char **argv);
/* Counts entries of a set ("time_test", "rfc3525") having encoding enc. */
size_t corpus_count(const corpus *c, const char *set, megaco_encoding enc);
/* The entry of that name; fails the test when there is none. */
const corpus_entry *corpus_find(const corpus *c, const char *name);

/*
 * A walk over the corpus's files, entry by entry and within an entry from
 * encoding first to last (last 0: first only), skipping what does not exist:
 *
 *     corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
 *     while (corpus_next(&w))
 *             ... w.e, w.enc, w.path, w.bytes, w.len, w.m ...
 *     assert_int_equal(w.files, 149);
 *
 * Each step frees what the step before read and decoded (a test that keeps
 * w.m sets it to NULL); a walk left before its end ends with corpus_stop().
 */
typedef struct corpus_walk {
	const corpus *c;
	megaco_encoding first, last;
	int decode;       /* also decode each file into m (decode_file: fails the test on error) */
	int valid_only;   /* skip the entries the manifest marks invalid */
	const char *set;  /* with non-NULL, only this set's entries */
	const corpus_entry *e; /* the current file: its entry, encoding, path and contents */
	megaco_encoding enc;
	const char *path;
	unsigned char *bytes;
	size_t len;
	megaco_message *m;
	size_t files;     /* files visited, the current one included */
	size_t pos;       /* where the next step starts looking */
} corpus_walk;

/* Moves w to the next file: 1, or 0 at the end (with everything freed). */
int corpus_next(corpus_walk *w);
/* Frees the current file's bytes and model. */
void corpus_stop(corpus_walk *w);

/* asn1c's printout of a message's model (malloc'd): equal dumps, equal models. */
char *model_dump(const megaco_message *m);

/*
 * Decodes a file; fails the test (with code, offset and message) on error.
 * With bytes non-NULL the file's contents are handed back (caller frees).
 */
megaco_message *decode_file(const char *path, megaco_encoding enc, unsigned char **bytes,
                            size_t *len);

/*
 * 1 when the test runs under an emulator: ctest sets MEGACO_TEST_EMULATOR
 * to the emulator's name in a cross build (tests/CMakeLists.txt). The
 * exhaustive mutation loops then take a lighter pass, still over every
 * corpus message and every kind of mutation but at fewer positions, and
 * print what they reduce with test_light_note(). Setting the variable in a
 * native run gives the same pass (to compare what each covers).
 */
int test_light(void);
/* Prints "# lighter under EMULATOR: what" (a printf format). */
void test_light_note(const char *fmt, ...);

/* 1 when prog is an executable on PATH (the Erlang peer tests skip otherwise). */
int on_path(const char *prog);
/*
 * Runs escript with the script's text over a file holding data (both in
 * temporary files); returns system()'s status. Skips the test without escript.
 */
int escript_run(const char *script, const char *data);

/*
 * A valid pretty-text v3 message of ntrans transactions (each corpus
 * msg01a's Modify with media, SDP and events, plus two statistics), about
 * 700 bytes each, in malloc'd memory; NULL when malloc fails.
 */
unsigned char *big_message(unsigned ntrans, size_t *len);


/* Encodes m as enc (options o, may be NULL); fails unless the bytes equal want. */
void assert_encodes_to(const char *name, const megaco_message *m, megaco_encoding enc,
                       const megaco_options *o, const unsigned char *want, size_t want_len);

/* A growing malloc'd byte buffer; start from { 0 }, free p. */
typedef struct byte_sink {
	unsigned char *p;
	size_t len, cap;
} byte_sink;

/* asn1c's output callback appending to the byte_sink key; -1 when realloc fails. */
int byte_sink_write(const void *data, size_t size, void *key);

/* Fails the current test with a message and the first differing offset. */
void assert_bytes_equal(const char *what, const unsigned char *a, size_t alen,
                        const unsigned char *b, size_t blen);

#endif
