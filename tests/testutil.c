/* Test helpers: manifest loading with libyaml, corpus walks, byte compares. */
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "MegacoMessage.h"

char *model_dump(const megaco_message *m)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	assert_non_null(f);
	asn_fprint(f, &asn_DEF_MegacoMessage, megaco_message_model_const(m));
	fclose(f);
	return s;
}

const char *corpus_dir_from_args(int argc, char **argv)
{
	static char path[512];
	if (argc > 1)
		return argv[1];
	const char *src = getenv("MEGACO_SOURCE_DIR");
	snprintf(path, sizeof path, "%s/corpus", src ? src : ".");
	return path;
}

static int enc_index(const char *name)
{
	megaco_encoding e;
	if (megaco_encoding_from_name(name, &e) != MEGACO_OK || e == MEGACO_ENC_AUTO)
		return -1;
	return (int)e - 1;
}

/*
 * A small walk over libyaml events that knows the manifest's shape:
 * sets -> [ {name, dirs: {enc: dir}, messages: [ {name, version, encodings, valid} ]} ].
 */
typedef struct {
	corpus *c;
	size_t cap;
	char set[32];
	char dirs[CORPUS_MAX_ENC][64];
} loader;

static void die(const char *what)
{
	fprintf(stderr, "corpus manifest: %s\n", what);
	exit(2);
}

static corpus_entry *add_entry(loader *l)
{
	corpus *c = l->c;
	if (c->count == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		c->entries = realloc(c->entries, l->cap * sizeof *c->entries);
		if (!c->entries)
			die("out of memory");
	}
	corpus_entry *e = &c->entries[c->count++];
	memset(e, 0, sizeof *e);
	snprintf(e->set, sizeof e->set, "%s", l->set);
	e->valid = 1;
	return e;
}

static int next(yaml_parser_t *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(p, ev))
		die(p->problem ? p->problem : "parse error");
	return ev->type;
}

static void skip_value(yaml_parser_t *p, yaml_event_t *ev)
{
	/* ev is the first event of the value: skip to its end. */
	int depth = 0;
	for (;;) {
		int t = ev->type;
		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
			depth++;
		else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
			depth--;
		yaml_event_delete(ev);
		if (depth <= 0)
			return;
		next(p, ev);
	}
}

static char *scalar(yaml_event_t *ev) { return (char *)ev->data.scalar.value; }

/*
 * In a mapping: its next key into key and the first event of that key's
 * value into *ev; 0 at the mapping's end (whose event is deleted).
 */
static int next_key(yaml_parser_t *p, yaml_event_t *ev, char *key, size_t cap)
{
	if (next(p, ev) != YAML_SCALAR_EVENT) {
		yaml_event_delete(ev);
		return 0;
	}
	snprintf(key, cap, "%s", scalar(ev));
	yaml_event_delete(ev);
	next(p, ev);
	return 1;
}

static void parse_message(loader *l, yaml_parser_t *p)
{
	yaml_event_t ev;
	corpus_entry *e = add_entry(l);
	char encs[CORPUS_MAX_ENC] = { 0 }, key[32];
	while (next_key(p, &ev, key, sizeof key)) {
		if (!strcmp(key, "name") && ev.type == YAML_SCALAR_EVENT) {
			snprintf(e->name, sizeof e->name, "%s", scalar(&ev));
		} else if (!strcmp(key, "version") && ev.type == YAML_SCALAR_EVENT) {
			e->version = atoi(scalar(&ev));
		} else if (!strcmp(key, "valid") && ev.type == YAML_SCALAR_EVENT) {
			e->valid = strcmp(scalar(&ev), "false") != 0;
		} else if (!strcmp(key, "encodings") && ev.type == YAML_SEQUENCE_START_EVENT) {
			yaml_event_delete(&ev);
			while (next(p, &ev) == YAML_SCALAR_EVENT) {
				int i = enc_index(scalar(&ev));
				if (i >= 0)
					encs[i] = 1;
				yaml_event_delete(&ev);
			}
		} else {
			skip_value(p, &ev);
			continue;
		}
		yaml_event_delete(&ev);
	}
	for (int i = 0; i < CORPUS_MAX_ENC; i++) {
		if (!encs[i])
			continue;
		const char *d = l->dirs[i][0] ? l->dirs[i] : megaco_encoding_name((megaco_encoding)(i + 1));
		size_t n = strlen(l->c->dir) + strlen(d) + strlen(e->name) + 3;
		e->path[i] = malloc(n);
		snprintf(e->path[i], n, "%s/%s/%s", l->c->dir, d, e->name);
	}
}

static void parse_set(loader *l, yaml_parser_t *p)
{
	yaml_event_t ev;
	memset(l->set, 0, sizeof l->set);
	memset(l->dirs, 0, sizeof l->dirs);
	char key[32];
	while (next_key(p, &ev, key, sizeof key)) {
		if (!strcmp(key, "name") && ev.type == YAML_SCALAR_EVENT) {
			snprintf(l->set, sizeof l->set, "%s", scalar(&ev));
		} else if (!strcmp(key, "dirs") && ev.type == YAML_MAPPING_START_EVENT) {
			yaml_event_delete(&ev);
			while (next_key(p, &ev, key, sizeof key)) {
				int i = enc_index(key);
				if (i >= 0)
					snprintf(l->dirs[i], sizeof l->dirs[i], "%s", scalar(&ev));
				yaml_event_delete(&ev);
			}
		} else if (!strcmp(key, "messages") && ev.type == YAML_SEQUENCE_START_EVENT) {
			yaml_event_delete(&ev);
			while (next(p, &ev) == YAML_MAPPING_START_EVENT) {
				yaml_event_delete(&ev);
				parse_message(l, p);
			}
		} else {
			skip_value(p, &ev);
			continue;
		}
		yaml_event_delete(&ev);
	}
}

corpus *corpus_load(const char *dir)
{
	char path[600];
	snprintf(path, sizeof path, "%s/manifest.yaml", dir);
	FILE *f = fopen(path, "rb");
	if (!f)
		die(path);
	loader l = { calloc(1, sizeof(corpus)), 0, "", { "" } };
	snprintf(l.c->dir, sizeof l.c->dir, "%s", dir);
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	yaml_event_t ev;
	while (next(&p, &ev) != YAML_STREAM_END_EVENT) {
		if (ev.type == YAML_SCALAR_EVENT && !strcmp(scalar(&ev), "sets")) {
			yaml_event_delete(&ev);
			next(&p, &ev); /* sequence start */
			yaml_event_delete(&ev);
			while (next(&p, &ev) == YAML_MAPPING_START_EVENT) {
				yaml_event_delete(&ev);
				parse_set(&l, &p);
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_event_delete(&ev);
	yaml_parser_delete(&p);
	fclose(f);
	return l.c;
}

void corpus_free(corpus *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->count; i++)
		for (int k = 0; k < CORPUS_MAX_ENC; k++)
			free(c->entries[i].path[k]);
	free(c->entries);
	free(c);
}

size_t corpus_count(const corpus *c, const char *set, megaco_encoding enc)
{
	size_t n = 0;
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].set, set) && c->entries[i].path[enc - 1])
			n++;
	return n;
}

const corpus_entry *corpus_find(const corpus *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	fail_msg("no corpus message %s", name);
	return NULL;
}

void corpus_stop(corpus_walk *w)
{
	free(w->bytes);
	megaco_message_free(w->m);
	w->bytes = NULL;
	w->m = NULL;
}

int corpus_next(corpus_walk *w)
{
	size_t encs = (size_t)((w->last ? w->last : w->first) - w->first) + 1;
	corpus_stop(w);
	for (;; w->pos++) {
		size_t i = w->pos / encs;
		if (i >= w->c->count)
			return 0;
		const corpus_entry *e = &w->c->entries[i];
		megaco_encoding enc = w->first + (megaco_encoding)(w->pos % encs);
		if (!e->path[enc - 1] || (w->valid_only && !e->valid) || (w->set && strcmp(e->set, w->set)))
			continue;
		w->pos++;
		w->e = e;
		w->enc = enc;
		w->path = e->path[enc - 1];
		if (w->decode) {
			w->m = decode_file(w->path, enc, &w->bytes, &w->len);
		} else {
			w->bytes = read_file(w->path, &w->len);
			if (!w->bytes)
				fail_msg("%s: cannot read", w->path);
		}
		w->files++;
		return 1;
	}
}

void assert_bytes_equal(const char *what, const unsigned char *a, size_t alen,
                        const unsigned char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	while (i < n && a[i] == b[i])
		i++;
	if (i == n && alen == blen)
		return;
	fail_msg("%s: %zu vs %zu bytes, first difference at offset %zu", what, alen, blen, i);
}

void assert_encodes_to(const char *name, const megaco_message *m, megaco_encoding enc,
                       const megaco_options *o, const unsigned char *want, size_t want_len)
{
	void *out = NULL;
	size_t out_len = 0;
	megaco_error err;
	int rc = megaco_encode_alloc(m, enc, o, &out, &out_len, &err);
	if (rc != MEGACO_OK)
		fail_msg("%s: encode %s: %s", name, megaco_encoding_name(enc), err.message);
	char what[128];
	snprintf(what, sizeof what, "%s as %s", name, megaco_encoding_name(enc));
	assert_bytes_equal(what, out, out_len, want, want_len);
	megaco_buffer_free(out, NULL);
}

megaco_message *decode_file(const char *path, megaco_encoding enc, unsigned char **bytes,
                            size_t *len)
{
	size_t n;
	unsigned char *b = read_file(path, &n);
	if (!b)
		fail_msg("%s: cannot read", path);
	megaco_message *m = NULL;
	megaco_error err;
	int rc = megaco_decode(enc, b, n, NULL, &m, &err);
	if (rc != MEGACO_OK)
		fail_msg("%s: %s at %zu: %s", path, megaco_strerror(rc), err.offset, err.message);
	if (bytes) {
		*bytes = b;
		*len = n;
	} else {
		free(b);
	}
	return m;
}

int test_light(void)
{
	const char *e = getenv("MEGACO_TEST_EMULATOR");
	return e && *e;
}

void test_light_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("# lighter under %s: ", getenv("MEGACO_TEST_EMULATOR"));
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path)
		return 0;
	char *copy = strdup(path), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char full[1024];
		snprintf(full, sizeof full, "%s/%s", *d ? d : ".", prog);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}

int escript_run(const char *script, const char *data)
{
	if (!on_path("escript"))
		skip();
	char script_path[] = "/tmp/megaco-escript-XXXXXX", data_path[] = "/tmp/megaco-data-XXXXXX";
	int fs = mkstemp(script_path), fd = mkstemp(data_path);
	assert_true(fs >= 0 && fd >= 0);
	FILE *f = fdopen(fs, "w");
	fputs(script, f);
	fclose(f);
	f = fdopen(fd, "w");
	fputs(data, f);
	fclose(f);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "escript %s %s", script_path, data_path);
	int rc = system(cmd);
	remove(script_path);
	remove(data_path);
	return rc;
}

unsigned char *big_message(unsigned ntrans, size_t *len)
{
	/*
	 * msg01a's transaction (corpus/pretty), with its own ID each time, and
	 * a v3 Statistics descriptor long enough (a 300-character value) that
	 * PER writes it, an extension addition, through a buffer of its own
	 * (per_writer.c).
	 */
	static const char head[] = "MEGACO/3 [123.123.123.4]:55555\n";
	static const char trans[] =
		"Transaction = %u {\n"
		"\tContext = - {\n"
		"\t\tModify = 11111111/00000000/00000000 {\n"
		"\t\t\tMedia {\n"
		"\t\t\t\tStream = 1 {\n"
		"\t\t\t\t\tLocalControl { Mode = SendReceive, tdmc/gain=2, tdmc/ec=g165 },\n"
		"\t\t\t\t\tLocal {\nv=0\nc=IN IP4 $\nm=audio $ RTP/AVP 0\n\t\t\t\t\t},\n"
		"\t\t\t\t\tStatistics { %s }\n"
		"\t\t\t\t}\n"
		"\t\t\t},\n"
		"\t\t\tEvents = 2222 { al/of }\n"
		"\t\t}\n"
		"\t}\n"
		"}\n";
	char stats[340];
	snprintf(stats, sizeof stats, "nt/os = \"%0300d\", nt/or = 7", 0);
	size_t sl = strlen(stats);
	size_t cap = sizeof head + (size_t)ntrans * (sizeof trans + sl + 10);
	char *b = malloc(cap);
	if (!b)
		return NULL;
	size_t n = (size_t)snprintf(b, cap, "%s", head);
	for (unsigned i = 0; i < ntrans; i++)
		n += (size_t)snprintf(b + n, cap - n, trans, i + 1, stats);
	*len = n;
	return (unsigned char *)b;
}

int byte_sink_write(const void *data, size_t size, void *key)
{
	byte_sink *g = key;
	if (g->len + size > g->cap) {
		size_t cap = g->cap ? g->cap : 256;
		while (cap < g->len + size)
			cap *= 2;
		unsigned char *p = realloc(g->p, cap);
		if (!p)
			return -1;
		g->p = p;
		g->cap = cap;
	}
	if (size) /* asn1c reports an empty string as (NULL, 0) */
		memcpy(g->p + g->len, data, size);
	g->len += size;
	return 0;
}
