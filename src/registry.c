/*
 * Package registry: text package/item/parameter names <-> their binary IDs
 * (RFC 3525 Annex E, Annex C). The built-in packages are const tables
 * generated from data/packages.yaml at build time (src/registry.h);
 * vendor packages are added through the API or, with MEGACO_HAVE_YAML, from
 * YAML. Every table is kept sorted twice, by name and by ID, so a lookup is
 * a binary search.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "megaco/version.h"
#if MEGACO_HAVE_YAML
#include <yaml.h>
#endif

#include "internal.h"
#include "registry.h"

#define NAME_MAX_LEN 64
#define EXTENDS_MAX_DEPTH 16
#define NKINDS REG_NKINDS

typedef reg_named named;
typedef reg_vec vec;

/* --- helpers --------------------------------------------------------------- */

static void *ralloc(const megaco_registry *r, size_t n)
{
	void *p = r->al->alloc(r->al->user_data, n);
	if (p)
		memset(p, 0, n);
	return p;
}

static void rfree(const megaco_registry *r, const void *p)
{
	/* Only what the registry allocated comes here; the const is the vectors'. */
	if (p)
		r->al->free(r->al->user_data, (void *)(uintptr_t)p);
}

static char *rstrdup(const megaco_registry *r, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = ralloc(r, n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Case-insensitive compare of (s, len) with the NUL-terminated t. */
static int name_cmp(const char *s, size_t len, const char *t)
{
	for (size_t i = 0; i < len; i++) {
		int a = (unsigned char)s[i], b = (unsigned char)t[i];
		if (!b)
			return 1;
		if (a >= 'A' && a <= 'Z')
			a += 'a' - 'A';
		if (b >= 'A' && b <= 'Z')
			b += 'a' - 'A';
		if (a != b)
			return a - b;
	}
	return t[len] ? -1 : 0;
}

/* Lower bound: the first index whose element is not below the key, the name (s, len) or, s NULL, the id. */
static size_t lower_bound(const vec *v, const char *s, size_t len, unsigned id)
{
	size_t lo = 0, hi = v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s ? name_cmp(s, len, v->v[mid]->name) > 0 : v->v[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const named *find(const vec *v, const char *s, size_t len, unsigned id)
{
	size_t i = lower_bound(v, s, len, id);
	return i < v->n && (s ? !name_cmp(s, len, v->v[i]->name) : v->v[i]->id == id) ? v->v[i] : NULL;
}

/* The writable slots of v with room for need, copying a built-in array first (cap 0). */
static const named **vec_own(const megaco_registry *r, vec *v, size_t need)
{
	if (v->cap >= need && v->cap)
		return (const named **)(uintptr_t)v->v;
	size_t cap = v->cap ? v->cap : 8;
	while (cap < need)
		cap *= 2;
	const named **nv = ralloc(r, cap * sizeof *nv);
	if (!nv)
		return NULL;
	if (v->n)
		memcpy(nv, v->v, v->n * sizeof *nv);
	if (v->cap)
		rfree(r, v->v);
	v->v = nv;
	v->cap = cap;
	return nv;
}

/*
 * Puts e into both vectors: in old's place (old has e's name and ID), or
 * (old NULL) as a new element, the caller having checked for duplicates.
 * Both get their room first, so a failure leaves them as they were.
 */
static int vec_put2(const megaco_registry *r, vec *by_name, vec *by_id, const named *old,
                    const named *e)
{
	vec *vs[2] = { by_name, by_id };
	size_t at[2] = { lower_bound(by_name, e->name, strlen(e->name), 0),
		         lower_bound(by_id, NULL, 0, e->id) };
	const named **slots[2];
	for (int i = 0; i < 2; i++)
		if (!(slots[i] = vec_own(r, vs[i], vs[i]->n + !old)))
			return MEGACO_ERR_NOMEM;
	for (int i = 0; i < 2; i++) {
		if (!old) {
			memmove(slots[i] + at[i] + 1, slots[i] + at[i], (vs[i]->n - at[i]) * sizeof *slots[i]);
			vs[i]->n++;
		}
		slots[i][at[i]] = e;
	}
	return MEGACO_OK;
}

long reg_fallback_value(const char *s, size_t len)
{
	char hex[5] = { 0 };
	if (len != 5 || (s[0] != 'x' && s[0] != 'X'))
		return -1;
	for (size_t i = 1; i < 5; i++)
		if (!isxdigit((unsigned char)(hex[i - 1] = s[i])))
			return -1;
	return strtol(hex, NULL, 16);
}

/* ALPHA *(ALPHA / DIGIT / "_"), at most 64 chars, not the fallback form. */
static int valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > NAME_MAX_LEN || reg_fallback_value(s, n) >= 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		if (!alpha && (i == 0 || !((c >= '0' && c <= '9') || c == '_')))
			return 0;
	}
	return 1;
}

static int valid_kind(megaco_item_kind k) { return (unsigned)k < NKINDS; }

/* --- lookups --------------------------------------------------------------- */

/* The package called (s, len), or (s NULL) the one whose ID is id. */
static const reg_package *pkg_find(const megaco_registry *r, const char *s, size_t len, unsigned id)
{
	return (const reg_package *)find(s ? &r->by_name : &r->by_id, s, len, id);
}

/*
 * The item of kind k called (s, len), or (s NULL) whose ID is id, of p or a
 * package p extends (looked up by ID, so it is the registry's current copy).
 */
static const reg_item *item_find(const megaco_registry *r, const reg_package *p,
                                 megaco_item_kind k, const char *s, size_t len, unsigned id)
{
	for (int d = 0; p && d < EXTENDS_MAX_DEPTH; d++) {
		const named *e = find(s ? &p->by_name[k] : &p->by_id[k], s, len, id);
		if (e)
			return (const reg_item *)e;
		p = p->base >= 0 ? pkg_find(r, NULL, 0, (unsigned)p->base) : NULL;
	}
	return NULL;
}

static size_t put_hex(char *buf, unsigned v) { return (size_t)sprintf(buf, "x%04x", v & 0xFFFFu); }

static size_t put_str(char *buf, const char *s)
{
	size_t n = strlen(s);
	memcpy(buf, s, n + 1);
	return n;
}

/* A 2-octet ID: the fallback "xHHHH", else the ID of the entry called name in v (NULL: none). */
static int id2(const vec *v, const char *name, size_t len, uint8_t out[2])
{
	long id = reg_fallback_value(name, len);
	const named *e = id < 0 && v && len ? find(v, name, len, 0) : NULL;
	if (id < 0 && !e)
		return MEGACO_ERR_UNKNOWN_NAME;
	id = e ? e->id : id;
	out[0] = (uint8_t)(id >> 8);
	out[1] = (uint8_t)id;
	return MEGACO_OK;
}

/* The name of the entry of v (NULL: none) with the 2-octet ID, else the fallback. */
static size_t name2(const vec *v, const uint8_t id[2], char *buf)
{
	unsigned n = (unsigned)id[0] << 8 | id[1];
	const named *e = v ? find(v, NULL, 0, n) : NULL;
	return e && e->name[0] ? put_str(buf, e->name) : put_hex(buf, n);
}

int reg_package_to_id(const megaco_registry *reg, const char *name, size_t len, uint8_t out[2])
{
	return id2(&reg->by_name, name, len, out);
}

size_t reg_package_to_name(const megaco_registry *reg, const uint8_t id[2], char *buf)
{
	return name2(&reg->by_id, id, buf);
}

int reg_name_to_id(const megaco_registry *reg, megaco_item_kind kind, const char *name,
                   size_t len, uint8_t out[4], const reg_item **item)
{
	/* An empty name may come with a NULL buffer (a hand-built model). */
	const char *slash = len ? memchr(name, '/', len) : NULL;
	const reg_package *p = NULL;
	long pid, iid;
	const char *iname;
	size_t ilen;
	*item = NULL;
	if (!slash) { /* native pseudo-package 0x0000 */
		if (len == 1 && name[0] == '*')
			return MEGACO_ERR_UNKNOWN_NAME;
		pid = 0;
		p = pkg_find(reg, NULL, 0, 0);
		iname = name;
		ilen = len;
	} else {
		size_t plen = (size_t)(slash - name);
		iname = slash + 1;
		ilen = len - plen - 1;
		if (plen == 1 && name[0] == '*') {
			if (ilen != 1 || iname[0] != '*')
				return MEGACO_ERR_UNKNOWN_NAME;
			memset(out, 0xFF, 4);
			return MEGACO_OK;
		}
		pid = reg_fallback_value(name, plen);
		if (pid >= 0) {
			p = pkg_find(reg, NULL, 0, (unsigned)pid);
		} else {
			p = plen ? pkg_find(reg, name, plen, 0) : NULL;
			if (!p || !p->hd.name[0])
				return MEGACO_ERR_UNKNOWN_NAME;
			pid = p->hd.id;
		}
	}
	if (ilen == 1 && iname[0] == '*') {
		iid = 0xFFFF;
	} else if ((iid = reg_fallback_value(iname, ilen)) >= 0) {
		*item = p ? item_find(reg, p, kind, NULL, 0, (unsigned)iid) : NULL;
	} else {
		const reg_item *it = ilen && p ? item_find(reg, p, kind, iname, ilen, 0) : NULL;
		if (!it)
			return MEGACO_ERR_UNKNOWN_NAME;
		iid = it->hd.id;
		*item = it;
	}
	out[0] = (uint8_t)(pid >> 8);
	out[1] = (uint8_t)pid;
	out[2] = (uint8_t)(iid >> 8);
	out[3] = (uint8_t)iid;
	return MEGACO_OK;
}

size_t reg_id_to_name(const megaco_registry *reg, megaco_item_kind kind, const uint8_t id[4],
                      char *buf, const reg_item **item)
{
	unsigned pid = (unsigned)id[0] << 8 | id[1], iid = (unsigned)id[2] << 8 | id[3];
	const reg_package *p = pkg_find(reg, NULL, 0, pid);
	const reg_item *it = p && iid != 0xFFFF ? item_find(reg, p, kind, NULL, 0, iid) : NULL;
	*item = it;
	if (pid == 0xFFFF && iid == 0xFFFF)
		return put_str(buf, "*/*");
	if (pid == 0 && it) /* native items print without a package */
		return put_str(buf, it->hd.name);
	size_t n = p && p->hd.name[0] ? put_str(buf, p->hd.name) : put_hex(buf, pid);
	buf[n++] = '/';
	if (iid == 0xFFFF)
		n += put_str(buf + n, "*");
	else if (it)
		n += put_str(buf + n, it->hd.name);
	else
		n += put_hex(buf + n, iid);
	return n;
}

int reg_param_to_id(const reg_item *item, const char *name, size_t len, uint8_t out[2])
{
	return id2(item ? &item->params_by_name : NULL, name, len, out);
}

size_t reg_param_to_name(const reg_item *item, const uint8_t id[2], char *buf)
{
	return name2(item ? &item->params_by_id : NULL, id, buf);
}

/* --- building -------------------------------------------------------------- */

/*
 * A registry-owned entry (a package, item or parameter: size bytes, its
 * reg_named head first) called name with ID id, put into both vectors: a
 * copy of old that takes its place, or (old NULL) a new one. NULL when out
 * of memory.
 */
static void *put_entry(megaco_registry *r, vec *by_name, vec *by_id, const named *old,
                       size_t size, const char *name, uint16_t id)
{
	named *e = ralloc(r, size);
	char *ename = e ? rstrdup(r, name) : NULL;
	if (ename) {
		if (old)
			memcpy(e, old, size);
		e->name = ename;
		e->id = id;
		e->owned = 1;
		if (vec_put2(r, by_name, by_id, old, e) == MEGACO_OK)
			return e;
	}
	rfree(r, ename);
	rfree(r, e);
	return NULL;
}

/*
 * The registry's own, writable copy of entry e of the vectors: a built-in
 * entry is copied (its own vectors still pointing at the built-in arrays).
 */
static void *own_copy(megaco_registry *r, vec *by_name, vec *by_id, const named *e, size_t size)
{
	return e->owned ? (void *)(uintptr_t)e : put_entry(r, by_name, by_id, e, size, e->name, e->id);
}

int megaco_registry_add_package(megaco_registry *reg, const char *name, uint16_t id,
                                unsigned version, const char *extends)
{
	if (!reg || !reg->al || !name || id == 0xFFFF || (name[0] ? !valid_name(name) : id != 0))
		return MEGACO_ERR_INVALID_ARGUMENT;
	const reg_package *base = NULL;
	if (extends && extends[0]) {
		base = pkg_find(reg, extends, strlen(extends), 0);
		if (!base)
			return MEGACO_ERR_INVALID_ARGUMENT;
	}
	const reg_package *same_name = pkg_find(reg, name, strlen(name), 0);
	const reg_package *same_id = pkg_find(reg, NULL, 0, id);
	if (same_name || same_id) {
		/* Re-registering the same package extends it; anything else clashes. */
		if (same_name != same_id || (base && same_name->base != base->hd.id))
			return MEGACO_ERR_INVALID_ARGUMENT;
		return MEGACO_OK;
	}
	reg_package *p = put_entry(reg, &reg->by_name, &reg->by_id, NULL, sizeof *p, name, id);
	if (!p)
		return MEGACO_ERR_NOMEM;
	p->version = version;
	p->base = base ? base->hd.id : -1;
	return MEGACO_OK;
}

int megaco_registry_add_item(megaco_registry *reg, const char *package, megaco_item_kind kind,
                             const char *name, uint16_t id)
{
	if (!reg || !reg->al || !package || !name || !valid_kind(kind) || !valid_name(name) ||
	    id == 0xFFFF)
		return MEGACO_ERR_INVALID_ARGUMENT;
	const reg_package *cp = pkg_find(reg, package, strlen(package), 0);
	if (!cp)
		return MEGACO_ERR_INVALID_ARGUMENT;
	const named *a = find(&cp->by_name[kind], name, strlen(name), 0);
	const named *b = find(&cp->by_id[kind], NULL, 0, id);
	if (a || b)
		return a == b ? MEGACO_OK : MEGACO_ERR_INVALID_ARGUMENT;
	reg_package *p = own_copy(reg, &reg->by_name, &reg->by_id, &cp->hd, sizeof *p);
	return p && put_entry(reg, &p->by_name[kind], &p->by_id[kind], NULL, sizeof(reg_item), name, id)
	           ? MEGACO_OK : MEGACO_ERR_NOMEM;
}

int megaco_registry_add_parameter(megaco_registry *reg, const char *package,
                                  megaco_item_kind kind, const char *item, const char *name,
                                  uint16_t id)
{
	if (!reg || !reg->al || !package || !item || !name || !valid_name(name) || id == 0xFFFF ||
	    (kind != MEGACO_ITEM_EVENT && kind != MEGACO_ITEM_SIGNAL))
		return MEGACO_ERR_INVALID_ARGUMENT;
	const reg_package *cp = pkg_find(reg, package, strlen(package), 0);
	const reg_item *cit = cp ? (const reg_item *)find(&cp->by_name[kind], item, strlen(item), 0)
	                         : NULL;
	if (!cit)
		return MEGACO_ERR_INVALID_ARGUMENT;
	const named *a = find(&cit->params_by_name, name, strlen(name), 0);
	const named *b = find(&cit->params_by_id, NULL, 0, id);
	if (a || b)
		return a == b ? MEGACO_OK : MEGACO_ERR_INVALID_ARGUMENT;
	reg_package *p = own_copy(reg, &reg->by_name, &reg->by_id, &cp->hd, sizeof *p);
	reg_item *it = p ? own_copy(reg, &p->by_name[kind], &p->by_id[kind], &cit->hd, sizeof *it)
	                 : NULL;
	return it && put_entry(reg, &it->params_by_name, &it->params_by_id, NULL, sizeof(named), name, id)
	           ? MEGACO_OK : MEGACO_ERR_NOMEM;
}

/* --- YAML (MEGACO_YAML builds only) ----------------------------------------- */

#if MEGACO_HAVE_YAML

typedef struct yctx {
	megaco_registry *reg;
	yaml_document_t *doc;
	megaco_error *err;
} yctx;

static int yerr(yctx *c, const yaml_node_t *n, int code, const char *what)
{
	unsigned line = n ? (unsigned)n->start_mark.line + 1 : 0;
	unsigned col = n ? (unsigned)n->start_mark.column + 1 : 0;
	size_t off = n ? n->start_mark.index : 0;
	return set_error_text(c->err, code, off, line, col, "package registry: %s", what);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int to_u16(const yaml_node_t *n, uint16_t *out)
{
	const char *s = scalar(n);
	if (!s || !*s)
		return 0;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end || v > 0xFFFF || s[0] == '-')
		return 0;
	*out = (uint16_t)v;
	return 1;
}

/* Fields of one {name, id, ...} mapping; unknown keys are errors. */
typedef struct yentry {
	const char *name;
	uint16_t id;
	unsigned version;
	int has_id;
	const char *extends;
	yaml_node_t *lists[NKINDS]; /* package: properties, events, signals, statistics */
	yaml_node_t *params;        /* item: parameters */
} yentry;

static const char *const kind_keys[NKINDS] = { "properties", "events", "signals", "statistics" };

static int read_entry(yctx *c, yaml_node_t *n, int level, yentry *e)
{
	memset(e, 0, sizeof *e);
	if (n->type != YAML_MAPPING_NODE)
		return yerr(c, n, MEGACO_ERR_SYNTAX, "expected a mapping");
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, pr->value);
		const char *key = scalar(k);
		if (!key)
			return yerr(c, k, MEGACO_ERR_SYNTAX, "expected a key");
		if (!strcmp(key, "name")) {
			if (!(e->name = scalar(v)))
				return yerr(c, v, MEGACO_ERR_SYNTAX, "name must be a string");
		} else if (!strcmp(key, "id")) {
			if (!to_u16(v, &e->id))
				return yerr(c, v, MEGACO_ERR_SYNTAX, "id must be an integer 0..0xFFFF");
			e->has_id = 1;
		} else if (!strcmp(key, "description") || !strcmp(key, "values")) {
			/* documentation only */
		} else if (level == 0 && !strcmp(key, "version")) {
			uint16_t ver;
			if (!to_u16(v, &ver))
				return yerr(c, v, MEGACO_ERR_SYNTAX, "version must be an integer");
			e->version = ver;
		} else if (level == 0 && !strcmp(key, "extends")) {
			if (!(e->extends = scalar(v)))
				return yerr(c, v, MEGACO_ERR_SYNTAX, "extends must be a package name");
		} else if (level == 1 && !strcmp(key, "parameters")) {
			e->params = v;
		} else {
			int i = 0;
			while (level == 0 && i < NKINDS && strcmp(key, kind_keys[i]))
				i++;
			if (level != 0 || i == NKINDS)
				return yerr(c, k, MEGACO_ERR_SYNTAX, "unknown key");
			e->lists[i] = v;
		}
	}
	if (!e->name || !e->has_id)
		return yerr(c, n, MEGACO_ERR_SYNTAX, "entry needs a name and an id");
	return MEGACO_OK;
}

static int seq_check(yctx *c, yaml_node_t *n)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return MEGACO_OK;
	/* An empty value ("events:") is an empty list. */
	if (n->type == YAML_SCALAR_NODE && n->data.scalar.length == 0)
		return MEGACO_OK;
	return yerr(c, n, MEGACO_ERR_SYNTAX, "expected a list");
}

#define SEQ_FOR(c, n, it)                                                            \
	for (yaml_node_item_t *it = (n)->type == YAML_SEQUENCE_NODE                      \
	                                ? (n)->data.sequence.items.start : NULL;         \
	     it && it < (n)->data.sequence.items.top; it++)

static int add_rc(yctx *c, yaml_node_t *n, int rc, const char *what)
{
	if (rc == MEGACO_OK)
		return rc;
	if (rc == MEGACO_ERR_NOMEM)
		return yerr(c, n, rc, "out of memory");
	return yerr(c, n, rc, what);
}

static int load_package(yctx *c, yaml_node_t *n)
{
	yentry pe;
	int rc = read_entry(c, n, 0, &pe);
	if (rc)
		return rc;
	rc = megaco_registry_add_package(c->reg, pe.name, pe.id, pe.version, pe.extends);
	if ((rc = add_rc(c, n, rc, "invalid package (bad name, reserved ID, unknown base, or clash)")))
		return rc;
	for (int k = 0; k < NKINDS; k++) {
		if (!pe.lists[k])
			continue;
		if ((rc = seq_check(c, pe.lists[k])))
			return rc;
		SEQ_FOR(c, pe.lists[k], it) {
			yaml_node_t *in = yaml_document_get_node(c->doc, *it);
			yentry ie;
			if ((rc = read_entry(c, in, 1, &ie)))
				return rc;
			rc = megaco_registry_add_item(c->reg, pe.name, (megaco_item_kind)k, ie.name, ie.id);
			if ((rc = add_rc(c, in, rc, "invalid item (bad name, reserved ID, or clash)")))
				return rc;
			if (!ie.params)
				continue;
			if (k != MEGACO_ITEM_EVENT && k != MEGACO_ITEM_SIGNAL)
				return yerr(c, ie.params, MEGACO_ERR_SYNTAX,
				            "only events and signals have parameters");
			if ((rc = seq_check(c, ie.params)))
				return rc;
			SEQ_FOR(c, ie.params, jt) {
				yaml_node_t *pn = yaml_document_get_node(c->doc, *jt);
				yentry pa;
				if ((rc = read_entry(c, pn, 2, &pa)))
					return rc;
				rc = megaco_registry_add_parameter(c->reg, pe.name, (megaco_item_kind)k,
				                                   ie.name, pa.name, pa.id);
				if ((rc = add_rc(c, pn, rc, "invalid parameter (bad name, reserved ID, or clash)")))
					return rc;
			}
		}
	}
	return MEGACO_OK;
}

/* Loads the YAML document of f, or (f NULL) of the len bytes at buf. */
static int load(megaco_registry *reg, const void *buf, size_t len, FILE *f, megaco_error *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser))
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	if (f)
		yaml_parser_set_input_file(&parser, f);
	else
		yaml_parser_set_input_string(&parser, buf ? buf : (const void *)"", len);
	if (!yaml_parser_load(&parser, &doc)) {
		int rc = set_error_text(err, parser.error == YAML_MEMORY_ERROR ? MEGACO_ERR_NOMEM
		                                                               : MEGACO_ERR_SYNTAX,
		                        parser.problem_mark.index,
		                        (unsigned)parser.problem_mark.line + 1,
		                        (unsigned)parser.problem_mark.column + 1,
		                        "package registry: %s", parser.problem ? parser.problem : "YAML error");
		yaml_parser_delete(&parser);
		return rc;
	}
	yctx c = { reg, &doc, err };
	int rc = MEGACO_OK;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *list = NULL;
	if (root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
		     pr < root->data.mapping.pairs.top; pr++) {
			const char *key = scalar(yaml_document_get_node(&doc, pr->key));
			if (key && !strcmp(key, "packages"))
				list = yaml_document_get_node(&doc, pr->value);
			else
				rc = yerr(&c, yaml_document_get_node(&doc, pr->key), MEGACO_ERR_SYNTAX,
				          "unknown top-level key (expected \"packages\")");
		}
	} else if (root) {
		rc = yerr(&c, root, MEGACO_ERR_SYNTAX, "expected a mapping with a \"packages\" list");
	}
	if (rc == MEGACO_OK && list && (rc = seq_check(&c, list)) == MEGACO_OK) {
		SEQ_FOR(&c, list, it) {
			if ((rc = load_package(&c, yaml_document_get_node(&doc, *it))))
				break;
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

int megaco_registry_load_yaml_buffer(megaco_registry *reg, const void *buf, size_t len,
                                     megaco_error *err)
{
	clear_error(err);
	if (!reg || !reg->al || (!buf && len))
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL registry or buffer");
	return load(reg, buf, len, NULL, err);
}

int megaco_registry_load_yaml(megaco_registry *reg, const char *path, megaco_error *err)
{
	clear_error(err);
	if (!reg || !reg->al || !path)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL registry or path");
	FILE *f = fopen(path, "rb");
	if (!f)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "cannot open %s", path);
	int rc = load(reg, NULL, 0, f, err);
	/* A read error fails the document's load, before anything is added. */
	if (ferror(f))
		rc = set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "cannot read %s", path);
	fclose(f);
	return rc;
}

#endif /* MEGACO_HAVE_YAML */

/* --- lifetime -------------------------------------------------------------- */

/*
 * Frees what the registry allocated of the vectors by_name/by_id of entries
 * of the given level (0 packages, 1 items, 2 parameters): the owned entries,
 * with what they hold, and the arrays it copied.
 */
static void free_entries(megaco_registry *r, const vec *by_name, const vec *by_id, int level)
{
	for (size_t i = 0; i < by_id->n; i++) {
		const named *e = by_id->v[i];
		if (!e->owned)
			continue;
		const reg_package *p = (const reg_package *)e;
		const reg_item *it = (const reg_item *)e;
		for (int k = 0; level == 0 && k < NKINDS; k++)
			free_entries(r, &p->by_name[k], &p->by_id[k], 1);
		if (level == 1)
			free_entries(r, &it->params_by_name, &it->params_by_id, 2);
		rfree(r, e->name);
		rfree(r, e);
	}
	if (by_id->cap)
		rfree(r, by_id->v);
	if (by_name->cap)
		rfree(r, by_name->v);
}

void megaco_registry_free(megaco_registry *reg)
{
	if (!reg || !reg->al) /* NULL, or the built-in registry */
		return;
	free_entries(reg, &reg->by_name, &reg->by_id, 0);
	rfree(reg, reg);
}

int megaco_registry_new(unsigned flags, const megaco_allocator *al, megaco_registry **out)
{
	if (!out || (flags & ~MEGACO_REGISTRY_EMPTY))
		return MEGACO_ERR_INVALID_ARGUMENT;
	if (!al)
		al = &megaco_default_allocator;
	megaco_registry *r = al->alloc(al->user_data, sizeof *r);
	if (!r)
		return MEGACO_ERR_NOMEM;
	/* Else the built-in vectors, copied on the first change. */
	*r = flags & MEGACO_REGISTRY_EMPTY ? (megaco_registry){ al, { 0 }, { 0 } } : reg_builtin;
	r->al = al;
	*out = r;
	return MEGACO_OK;
}

const megaco_registry *megaco_registry_default(void) { return &reg_builtin; }

const megaco_registry *reg_or_default(const megaco_registry *reg)
{
	return reg ? reg : &reg_builtin;
}

/* --- public lookups -------------------------------------------------------- */

int name_copy_out(const char *tmp, size_t n, char *buf, size_t cap, size_t *out_len)
{
	if (out_len)
		*out_len = n;
	if (n > cap)
		return MEGACO_ERR_BUFFER_TOO_SMALL;
	if (buf)
		memcpy(buf, tmp, n < cap ? n + 1 : n);
	return MEGACO_OK;
}

int megaco_registry_name_to_id(const megaco_registry *reg, megaco_item_kind kind,
                               const char *name, size_t len, uint8_t out[4])
{
	if (!name || !out || !valid_kind(kind))
		return MEGACO_ERR_INVALID_ARGUMENT;
	const reg_item *it;
	return reg_name_to_id(reg_or_default(reg), kind, name, len, out, &it);
}

int megaco_registry_id_to_name(const megaco_registry *reg, megaco_item_kind kind,
                               const uint8_t id[4], char *buf, size_t cap, size_t *out_len)
{
	if (!id || (!buf && cap) || !valid_kind(kind))
		return MEGACO_ERR_INVALID_ARGUMENT;
	char tmp[REG_NAME_MAX];
	const reg_item *it;
	return name_copy_out(tmp, reg_id_to_name(reg_or_default(reg), kind, id, tmp, &it), buf, cap,
	                     out_len);
}
