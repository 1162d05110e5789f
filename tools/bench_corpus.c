/*
 * megaco-bench: finds the corpus, reads manifest.yaml (sets -> dirs and
 * messages, see corpus/README.md) and loads the files of one set into memory
 * so nothing is read from disk while timing.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "megaco_bench.h"

/* Directory of the running executable (from /proc/self/exe or argv0). */
static const char *exe_dir(const char *argv0, char *buf, size_t cap)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n > 0) {
		path[n] = 0;
	} else if (!argv0 || !realpath(argv0, path)) {
		return NULL;
	}
	char *slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	snprintf(buf, cap, "%s", path);
	return buf;
}

const char *bench_find_shipped(const char *argv0, const char *src_rel, const char *data_rel,
                               int (*ok)(const char *path), char *buf, size_t cap)
{
	char exe[PATH_MAX];
	const char *exe_at = exe_dir(argv0, exe, sizeof exe);
	/* In order: a directory, what leads from it to a tree, and where in that tree. */
	const struct {
		const char *dir, *to_tree, *in_tree;
	} places[] = {
		{ getenv("MEGACO_SOURCE_DIR"), "", src_rel },
		/* <build>/tools/megaco-bench -> <source>/ for in-source-tree builds */
		{ exe_at, "../../", src_rel },
#ifdef MEGACO_BENCH_DATA_REL
		/* <prefix>/bin/megaco-bench -> <prefix>/share/megaco/: an installed
		   binary reads its own tree's, wherever it was installed or moved to */
		{ exe_at, MEGACO_BENCH_DATA_REL "/", data_rel },
#endif
#ifdef MEGACO_BENCH_SOURCE_DIR
		{ MEGACO_BENCH_SOURCE_DIR, "", src_rel },
#endif
#ifdef MEGACO_BENCH_DATA_DIR
		{ MEGACO_BENCH_DATA_DIR, "", data_rel },
#endif
	};
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
		if (!places[i].dir || !*places[i].dir)
			continue;
		snprintf(buf, cap, "%s/%s%s", places[i].dir, places[i].to_tree, places[i].in_tree);
		if (ok(buf))
			return buf;
	}
	return NULL;
}

static int has_manifest(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/manifest.yaml", dir);
	return access(path, R_OK) == 0;
}

const char *bench_corpus_default_dir(const char *argv0, char *buf, size_t cap)
{
	return bench_find_shipped(argv0, "corpus", "corpus", has_manifest, buf, cap);
}

static int enc_index(const char *name)
{
	megaco_encoding e;
	if (!name || megaco_encoding_from_name(name, &e) != MEGACO_OK || e == MEGACO_ENC_AUTO)
		return -1;
	return (int)e - 1;
}

static int load_message(const char *dir, const char dirs[BENCH_MAX_ENC][64], const ynode *m,
                        bench_msg *out, char *why, size_t whycap)
{
	const char *name = ynode_str(m, "name", NULL);
	const ynode *encs = ynode_get(m, "encodings");
	memset(out, 0, sizeof *out);
	if (!name || !encs || encs->kind != YNODE_SEQ) {
		snprintf(why, whycap, "manifest: a message without name or encodings");
		return -1;
	}
	snprintf(out->name, sizeof out->name, "%s", name);
	out->version = (int)ynode_num(m, "version", 0);
	for (size_t i = 0; i < encs->n; i++) {
		int k = enc_index(encs->kids[i]->str);
		if (k < 0)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s/%s", dir, dirs[k], name);
		out->data[k] = read_file(path, &out->len[k]);
		if (!out->data[k]) {
			snprintf(why, whycap, "cannot read %s", path);
			return -1;
		}
	}
	return 0;
}

int bench_corpus_load(const char *dir, const char *set, const char *glob, bench_corpus *out,
                      char *why, size_t whycap)
{
	char path[PATH_MAX];
	size_t len;
	memset(out, 0, sizeof *out);
	snprintf(out->dir, sizeof out->dir, "%s", dir);
	snprintf(out->set, sizeof out->set, "%s", set);
	snprintf(path, sizeof path, "%s/manifest.yaml", dir);
	char *text = (char *)read_file(path, &len);
	if (!text) {
		snprintf(why, whycap, "cannot read %s", path);
		return -1;
	}
	char ywhy[200];
	ynode *root = ynode_parse(text, len, ywhy, sizeof ywhy);
	free(text);
	if (!root) {
		snprintf(why, whycap, "%s: %s", path, ywhy);
		return -1;
	}
	const ynode *sets = ynode_get(root, "sets"), *s = NULL;
	for (size_t i = 0; sets && sets->kind == YNODE_SEQ && i < sets->n; i++)
		if (!strcmp(ynode_str(sets->kids[i], "name", ""), set))
			s = sets->kids[i];
	const ynode *msgs = ynode_get(s, "messages");
	if (!s || !msgs || msgs->kind != YNODE_SEQ) {
		snprintf(why, whycap, "%s: no set named '%s' with messages", path, set);
		goto fail;
	}
	/* encoding -> directory; the encoding's own name when the set has no dirs map */
	char dirs[BENCH_MAX_ENC][64];
	for (int k = 0; k < BENCH_MAX_ENC; k++)
		snprintf(dirs[k], sizeof dirs[k], "%s", megaco_encoding_name((megaco_encoding)(k + 1)));
	const ynode *d = ynode_get(s, "dirs");
	for (size_t i = 0; d && d->kind == YNODE_MAP && i + 1 < d->n; i += 2) {
		int k = enc_index(d->kids[i]->str);
		if (k >= 0 && d->kids[i + 1]->kind == YNODE_SCALAR)
			snprintf(dirs[k], sizeof dirs[k], "%s", d->kids[i + 1]->str);
	}
	out->msgs = calloc(msgs->n ? msgs->n : 1, sizeof *out->msgs);
	if (!out->msgs) {
		snprintf(why, whycap, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < msgs->n; i++) {
		const char *name = ynode_str(msgs->kids[i], "name", "");
		if (glob && fnmatch(glob, name, 0) != 0)
			continue;
		if (load_message(dir, (const char(*)[64])dirs, msgs->kids[i], &out->msgs[out->count],
		                 why, whycap) < 0) {
			out->count++; /* so bench_corpus_free releases what was read */
			goto fail;
		}
		out->count++;
	}
	ynode_free(root);
	if (!out->count) {
		snprintf(why, whycap, "no message of set '%s' matches '%s'", set, glob ? glob : "*");
		bench_corpus_free(out);
		return -1;
	}
	return 0;
fail:
	ynode_free(root);
	bench_corpus_free(out);
	return -1;
}

void bench_corpus_free(bench_corpus *c)
{
	for (size_t i = 0; i < c->count; i++)
		for (int k = 0; k < BENCH_MAX_ENC; k++)
			free(c->msgs[i].data[k]);
	free(c->msgs);
	c->msgs = NULL;
	c->count = 0;
}

size_t bench_corpus_count(const bench_corpus *c, megaco_encoding enc)
{
	size_t n = 0;
	for (size_t i = 0; i < c->count; i++)
		if (c->msgs[i].data[enc - 1])
			n++;
	return n;
}
