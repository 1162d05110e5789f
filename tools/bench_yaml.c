/*
 * megaco-bench: reads a YAML document with libyaml's event parser into a
 * small tree. Used for the corpus manifest and for the Erlang side's JSON
 * output (JSON as megaco-bench writes it is flow-style YAML libyaml reads).
 */
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "megaco_bench.h"

static ynode *node_new(ynode_kind kind)
{
	ynode *n = calloc(1, sizeof *n);
	if (n)
		n->kind = kind;
	return n;
}

static int node_add(ynode *parent, ynode *kid)
{
	ynode **k = realloc(parent->kids, (parent->n + 1) * sizeof *k);
	if (!k)
		return -1;
	parent->kids = k;
	k[parent->n++] = kid;
	return 0;
}

void ynode_free(ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		ynode_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

/* Builds the node whose first event is ev (consumed); NULL on error. */
static ynode *build(yaml_parser_t *p, yaml_event_t *ev, unsigned depth)
{
	ynode *n = NULL;
	if (depth > 64) {
		yaml_event_delete(ev);
		return NULL;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n = node_new(YNODE_SCALAR);
		if (n)
			n->str = strdup((const char *)ev->data.scalar.value);
		yaml_event_delete(ev);
		if (n && !n->str) {
			ynode_free(n);
			n = NULL;
		}
		return n;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		yaml_event_type_t end = ev->type == YAML_SEQUENCE_START_EVENT ? YAML_SEQUENCE_END_EVENT
		                                                              : YAML_MAPPING_END_EVENT;
		n = node_new(ev->type == YAML_SEQUENCE_START_EVENT ? YNODE_SEQ : YNODE_MAP);
		yaml_event_delete(ev);
		if (!n)
			return NULL;
		for (;;) {
			yaml_event_t kid;
			if (!yaml_parser_parse(p, &kid))
				goto fail;
			if (kid.type == end) {
				yaml_event_delete(&kid);
				return n;
			}
			ynode *k = build(p, &kid, depth + 1);
			if (!k || node_add(n, k) < 0) {
				ynode_free(k);
				goto fail;
			}
		}
	}
	default:
		yaml_event_delete(ev);
		return NULL; /* aliases and the like: not in our documents */
	}
fail:
	ynode_free(n);
	return NULL;
}

ynode *ynode_parse(const char *text, size_t len, char *why, size_t whycap)
{
	yaml_parser_t p;
	yaml_event_t ev;
	ynode *root = NULL;
	if (!yaml_parser_initialize(&p)) {
		snprintf(why, whycap, "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	/* Skip stream and document start; the first node event is the root. */
	for (;;) {
		if (!yaml_parser_parse(&p, &ev))
			goto fail;
		if (ev.type == YAML_STREAM_START_EVENT || ev.type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			snprintf(why, whycap, "empty document");
			yaml_parser_delete(&p);
			return NULL;
		}
		break;
	}
	root = build(&p, &ev, 0);
	if (!root)
		goto fail;
	yaml_parser_delete(&p);
	return root;
fail:
	if (p.problem)
		snprintf(why, whycap, "%s (line %zu, column %zu)", p.problem, p.problem_mark.line + 1,
		         p.problem_mark.column + 1);
	else
		snprintf(why, whycap, "unexpected document structure");
	yaml_parser_delete(&p);
	return NULL;
}

const ynode *ynode_get(const ynode *map, const char *key)
{
	if (!map || map->kind != YNODE_MAP)
		return NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2)
		if (map->kids[i]->kind == YNODE_SCALAR && !strcmp(map->kids[i]->str, key))
			return map->kids[i + 1];
	return NULL;
}

const char *ynode_str(const ynode *map, const char *key, const char *def)
{
	const ynode *v = ynode_get(map, key);
	return v && v->kind == YNODE_SCALAR ? v->str : def;
}

double ynode_num(const ynode *map, const char *key, double def)
{
	const char *s = ynode_str(map, key, NULL);
	char *end;
	if (!s || !*s)
		return def;
	double d = strtod(s, &end);
	return *end ? def : d;
}
