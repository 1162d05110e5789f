/*
 * Package registry: every entry of data/packages.yaml (read here with
 * libyaml, independently of the library's loader) maps both ways, package
 * inheritance, wildcards, the xHHHH fallback for unknown IDs, unknown
 * names, vendor packages from YAML and through the API (added to built-in
 * packages too), and loader errors.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "registry.h"
#include "testutil.h"

static const char *corpus_dir; /* data/ is its sibling */
static const char *const kind_keys[] = { "properties", "events", "signals", "statistics" };
static const char *const erl_scopes[] = { "property", "event", "signal", "statistics" };

/* Every entry as a line for the Erlang cross-check (test_against_erlang). */
static char peer_lines[32768];

static void peer_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void peer_line(const char *fmt, ...)
{
	size_t n = strlen(peer_lines);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(peer_lines + n, sizeof peer_lines - n, fmt, ap);
	va_end(ap);
}

static const char *scalar(yaml_document_t *d, int id)
{
	yaml_node_t *n = yaml_document_get_node(d, id);
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(d, p->key);
		if (k && !strcmp(k, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static unsigned num(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = get(d, map, key);
	assert_non_null(n);
	return (unsigned)strtoul((const char *)n->data.scalar.value, NULL, 0);
}

static const char *str(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = get(d, map, key);
	assert_non_null(n);
	return (const char *)n->data.scalar.value;
}

static void check_item(const megaco_registry *reg, megaco_item_kind kind, const char *text,
                       const uint8_t want[4], size_t *count)
{
	uint8_t id[4];
	int rc = megaco_registry_name_to_id(reg, kind, text, strlen(text), id);
	if (rc != MEGACO_OK)
		fail_msg("%s (kind %d): %s", text, kind, megaco_strerror(rc));
	assert_bytes_equal(text, id, 4, want, 4);
	char back[REG_NAME_MAX];
	size_t len;
	assert_int_equal(megaco_registry_id_to_name(reg, kind, want, back, sizeof back, &len), MEGACO_OK);
	if (strcmp(back, text))
		fail_msg("%02X%02X%02X%02X printed as %s, expected %s", want[0], want[1], want[2],
		         want[3], back, text);
	(*count)++;
}

static void test_every_yaml_entry_both_ways(void **state)
{
	(void)state;
	char path[1024];
	snprintf(path, sizeof path, "%s/../data/packages.yaml", corpus_dir);
	size_t len;
	unsigned char *text = read_file(path, &len);
	assert_non_null(text);
	yaml_parser_t p;
	yaml_document_t d;
	assert_true(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, text, len);
	assert_true(yaml_parser_load(&p, &d));
	yaml_node_t *pkgs = get(&d, yaml_document_get_root_node(&d), "packages");
	assert_non_null(pkgs);
	const megaco_registry *reg = megaco_registry_default();
	assert_non_null(reg);
	size_t items = 0, params = 0, npkgs = 0;
	for (yaml_node_item_t *pi = pkgs->data.sequence.items.start; pi < pkgs->data.sequence.items.top;
	     pi++) {
		yaml_node_t *pk = yaml_document_get_node(&d, *pi);
		const char *pname = str(&d, pk, "name");
		unsigned pid = num(&d, pk, "id");
		npkgs++;
		if (pname[0]) {
			uint8_t pb[2], want[2] = { (uint8_t)(pid >> 8), (uint8_t)pid };
			char back[REG_NAME_MAX];
			assert_int_equal(reg_package_to_id(reg, pname, strlen(pname), pb), MEGACO_OK);
			assert_memory_equal(pb, want, 2);
			reg_package_to_name(reg, want, back);
			assert_string_equal(back, pname);
		}
		for (int k = 0; k < 4; k++) {
			yaml_node_t *list = get(&d, pk, kind_keys[k]);
			if (!list)
				continue;
			for (yaml_node_item_t *ii = list->data.sequence.items.start;
			     ii < list->data.sequence.items.top; ii++) {
				yaml_node_t *in = yaml_document_get_node(&d, *ii);
				const char *iname = str(&d, in, "name");
				unsigned iid = num(&d, in, "id");
				char full[REG_NAME_MAX];
				if (pname[0])
					snprintf(full, sizeof full, "%s/%s", pname, iname);
				else
					snprintf(full, sizeof full, "%s", iname);
				uint8_t want[4] = { (uint8_t)(pid >> 8), (uint8_t)pid, (uint8_t)(iid >> 8),
				                    (uint8_t)iid };
				check_item(reg, (megaco_item_kind)k, full, want, &items);
				peer_line("item %s %s %04X%04X\n", erl_scopes[k], full, pid, iid);

				yaml_node_t *plist = get(&d, in, "parameters");
				if (!plist)
					continue;
				const reg_item *item;
				uint8_t tmp[4];
				assert_int_equal(reg_name_to_id(reg, (megaco_item_kind)k, full, strlen(full), tmp,
				                                &item), MEGACO_OK);
				assert_non_null(item);
				for (yaml_node_item_t *qi = plist->data.sequence.items.start;
				     qi < plist->data.sequence.items.top; qi++) {
					yaml_node_t *qn = yaml_document_get_node(&d, *qi);
					const char *qname = str(&d, qn, "name");
					unsigned qid = num(&d, qn, "id");
					uint8_t pb[2], pw[2] = { (uint8_t)(qid >> 8), (uint8_t)qid };
					if (reg_param_to_id(item, qname, strlen(qname), pb) != MEGACO_OK)
						fail_msg("%s parameter %s unknown", full, qname);
					assert_memory_equal(pb, pw, 2);
					char back[REG_NAME_MAX];
					reg_param_to_name(item, pw, back);
					assert_string_equal(back, qname);
					params++;
					peer_line("param %s_parameter %s %s %04X\n", k == 1 ? "event" : "signal", full,
					          qname, qid);
				}
			}
		}
	}
	/* 14 packages; 19 native + Annex E items; the Annex E parameters. */
	assert_int_equal(npkgs, 14);
	assert_true(items >= 100);
	assert_true(params >= 40);
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	free(text);
}

typedef struct name_case {
	megaco_item_kind kind;
	const char *text;  /* canonical text */
	uint8_t id[4];
} name_case;

/* Inherited items, wildcards and the fallback form, both ways. */
static const name_case special[] = {
	{ MEGACO_ITEM_EVENT, "dd/std", { 0x00, 0x06, 0x00, 0x01 } },      /* dd extends tonedet */
	{ MEGACO_ITEM_SIGNAL, "cg/pt", { 0x00, 0x07, 0x00, 0x01 } },       /* cg extends tonegen */
	{ MEGACO_ITEM_PROPERTY, "rtp/jit", { 0x00, 0x0C, 0x00, 0x07 } },   /* from nt */
	{ MEGACO_ITEM_STATISTIC, "rtp/jit", { 0x00, 0x0C, 0x00, 0x07 } },  /* rtp's own */
	{ MEGACO_ITEM_STATISTIC, "tdmc/os", { 0x00, 0x0D, 0x00, 0x02 } },
	{ MEGACO_ITEM_EVENT, "al/*", { 0x00, 0x09, 0xFF, 0xFF } },
	{ MEGACO_ITEM_EVENT, "*/*", { 0xFF, 0xFF, 0xFF, 0xFF } },
	{ MEGACO_ITEM_PROPERTY, "xffff/x0001", { 0xFF, 0xFF, 0x00, 0x01 } },
	{ MEGACO_ITEM_EVENT, "al/x1234", { 0x00, 0x09, 0x12, 0x34 } },
	{ MEGACO_ITEM_SIGNAL, "al/x0004", { 0x00, 0x09, 0x00, 0x04 } },    /* on is an event */
	{ MEGACO_ITEM_EVENT, "x1234/x0004", { 0x12, 0x34, 0x00, 0x04 } },
	{ MEGACO_ITEM_EVENT, "x1234/*", { 0x12, 0x34, 0xFF, 0xFF } },
	{ MEGACO_ITEM_PROPERTY, "x0000/xb0ff", { 0x00, 0x00, 0xB0, 0xFF } },
	{ MEGACO_ITEM_PROPERTY, "x0000/*", { 0x00, 0x00, 0xFF, 0xFF } },
	{ MEGACO_ITEM_PROPERTY, "v", { 0x00, 0x00, 0xB0, 0x01 } },
	{ MEGACO_ITEM_PROPERTY, "IPv4", { 0x00, 0x00, 0x60, 0x01 } },
};

/* Other spellings that map to the same IDs (not printed back this way). */
static const name_case accepted[] = {
	{ MEGACO_ITEM_PROPERTY, "TDMC/GAIN", { 0x00, 0x0D, 0x00, 0x0A } },
	{ MEGACO_ITEM_PROPERTY, "x000D/x000A", { 0x00, 0x0D, 0x00, 0x0A } },
	{ MEGACO_ITEM_PROPERTY, "tdmc/x000a", { 0x00, 0x0D, 0x00, 0x0A } },
	{ MEGACO_ITEM_PROPERTY, "X000d/gain", { 0x00, 0x0D, 0x00, 0x0A } },
	{ MEGACO_ITEM_PROPERTY, "xb001", { 0x00, 0x00, 0xB0, 0x01 } },
	{ MEGACO_ITEM_PROPERTY, "V", { 0x00, 0x00, 0xB0, 0x01 } },
};

static const struct { megaco_item_kind kind; const char *text; } unknown[] = {
	{ MEGACO_ITEM_EVENT, "zz/top" },
	{ MEGACO_ITEM_EVENT, "al/zz" },
	{ MEGACO_ITEM_SIGNAL, "al/on" },      /* wrong kind */
	{ MEGACO_ITEM_PROPERTY, "al" },       /* no such native item */
	{ MEGACO_ITEM_EVENT, "/on" },
	{ MEGACO_ITEM_EVENT, "al/" },
	{ MEGACO_ITEM_EVENT, "*/on" },
	{ MEGACO_ITEM_EVENT, "*" },
	{ MEGACO_ITEM_EVENT, "" },
	{ MEGACO_ITEM_EVENT, "al/on/x" },
	{ MEGACO_ITEM_PROPERTY, "x12345/x0001" },
	{ MEGACO_ITEM_PROPERTY, "xg000/x0001" },
	{ MEGACO_ITEM_PROPERTY, "y" },        /* SDP letter Annex C does not have */
};

static void test_special_and_unknown_names(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		check_item(NULL, special[i].kind, special[i].text, special[i].id, &n);
	for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		uint8_t id[4];
		const char *t = accepted[i].text;
		assert_int_equal(megaco_registry_name_to_id(NULL, accepted[i].kind, t, strlen(t), id),
		                 MEGACO_OK);
		assert_bytes_equal(t, id, 4, accepted[i].id, 4);
	}
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		uint8_t id[4];
		const char *t = unknown[i].text;
		int rc = megaco_registry_name_to_id(NULL, unknown[i].kind, t, strlen(t), id);
		if (rc != MEGACO_ERR_UNKNOWN_NAME)
			fail_msg("\"%s\" gave %s", t, megaco_strerror(rc));
	}
	/* Parameters: scoped by item; fallback always maps; unknown item has none. */
	const reg_item *al_on, *al_fl;
	uint8_t id[4], pb[2];
	assert_int_equal(reg_name_to_id(megaco_registry_default(), MEGACO_ITEM_EVENT, "al/on", 5, id,
	                                &al_on), MEGACO_OK);
	assert_int_equal(reg_name_to_id(megaco_registry_default(), MEGACO_ITEM_EVENT, "al/fl", 5, id,
	                                &al_fl), MEGACO_OK);
	assert_int_equal(reg_param_to_id(al_on, "strict", 6, pb), MEGACO_OK);
	assert_int_equal(reg_param_to_id(al_fl, "strict", 6, pb), MEGACO_ERR_UNKNOWN_NAME);
	assert_int_equal(reg_param_to_id(al_fl, "mindur", 6, pb), MEGACO_OK);
	assert_int_equal(pb[1], 4);
	assert_int_equal(reg_param_to_id(NULL, "strict", 6, pb), MEGACO_ERR_UNKNOWN_NAME);
	assert_int_equal(reg_param_to_id(NULL, "x0102", 5, pb), MEGACO_OK);
	assert_int_equal(pb[0] << 8 | pb[1], 0x0102);
	char back[REG_NAME_MAX];
	uint8_t unk[2] = { 0x00, 0x99 };
	reg_param_to_name(al_on, unk, back);
	assert_string_equal(back, "x0099");
	/* A wildcard event has no parameters by name. */
	const reg_item *none;
	assert_int_equal(reg_name_to_id(megaco_registry_default(), MEGACO_ITEM_EVENT, "al/*", 4, id,
	                                &none), MEGACO_OK);
	assert_null(none);
}

static void test_output_buffer(void **state)
{
	(void)state;
	const uint8_t id[4] = { 0x00, 0x0D, 0x00, 0x0A };
	char buf[9];
	size_t len = 0;
	assert_int_equal(megaco_registry_id_to_name(NULL, MEGACO_ITEM_PROPERTY, id, buf, 4, &len),
	                 MEGACO_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(len, 9);
	assert_int_equal(megaco_registry_id_to_name(NULL, MEGACO_ITEM_PROPERTY, id, buf, 9, &len),
	                 MEGACO_OK);
	assert_memory_equal(buf, "tdmc/gain", 9);
	assert_int_equal(megaco_registry_id_to_name(NULL, (megaco_item_kind)7, id, buf, 9, &len),
	                 MEGACO_ERR_INVALID_ARGUMENT);
}

#if MEGACO_HAVE_YAML
static const char vendor_yaml[] =
	"# a vendor package\n"
	"packages:\n"
	"  - name: vend\n"
	"    id: 0xFE01\n"
	"    version: 2\n"
	"    extends: al\n"
	"    description: test vendor package\n"
	"    properties:\n"
	"      - {name: mode, id: 1}\n"
	"    events:\n"
	"      - name: hook\n"
	"        id: 0x0010\n"
	"        parameters:\n"
	"          - {name: side, id: 0x0001, values: {left: 1, right: 2}}\n"
	"    signals:\n"
	"      - {name: buzz, id: 0x0020, parameters: [{name: len, id: 3}]}\n"
	"    statistics:\n";

static void test_vendor_package_from_yaml(void **state)
{
	(void)state;
	megaco_registry *reg = NULL;
	assert_int_equal(megaco_registry_new(0, NULL, &reg), MEGACO_OK);
	char path[] = "/tmp/megaco-vendor-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(vendor_yaml, f);
	fclose(f);
	megaco_error err;
	int rc = megaco_registry_load_yaml(reg, path, &err);
	remove(path);
	if (rc != MEGACO_OK)
		fail_msg("load: %s (line %u)", err.message, err.line);
	size_t n = 0;
	check_item(reg, MEGACO_ITEM_PROPERTY, "vend/mode", (const uint8_t[]){ 0xFE, 0x01, 0, 1 }, &n);
	check_item(reg, MEGACO_ITEM_EVENT, "vend/hook", (const uint8_t[]){ 0xFE, 0x01, 0, 0x10 }, &n);
	check_item(reg, MEGACO_ITEM_EVENT, "vend/on", (const uint8_t[]){ 0xFE, 0x01, 0, 4 }, &n);
	check_item(reg, MEGACO_ITEM_SIGNAL, "vend/buzz", (const uint8_t[]){ 0xFE, 0x01, 0, 0x20 }, &n);
	check_item(reg, MEGACO_ITEM_PROPERTY, "tdmc/gain", (const uint8_t[]){ 0, 0x0D, 0, 0x0A }, &n);
	/* The default registry does not know it: fallback form. */
	check_item(NULL, MEGACO_ITEM_EVENT, "xfe01/x0010", (const uint8_t[]){ 0xFE, 0x01, 0, 0x10 }, &n);
	const reg_item *it;
	uint8_t id[4], pb[2];
	assert_int_equal(reg_name_to_id(reg, MEGACO_ITEM_SIGNAL, "vend/buzz", 9, id, &it), MEGACO_OK);
	assert_int_equal(reg_param_to_id(it, "len", 3, pb), MEGACO_OK);
	assert_int_equal(pb[1], 3);
	/* Loading the same file again extends nothing and clashes with nothing. */
	assert_int_equal(megaco_registry_load_yaml_buffer(reg, vendor_yaml, strlen(vendor_yaml), &err),
	                 MEGACO_OK);
	megaco_registry_free(reg);
}

#endif

static void test_api_and_empty_registry(void **state)
{
	(void)state;
	megaco_registry *reg = NULL;
	assert_int_equal(megaco_registry_new(MEGACO_REGISTRY_EMPTY, NULL, &reg), MEGACO_OK);
	uint8_t id[4];
	assert_int_equal(megaco_registry_name_to_id(reg, MEGACO_ITEM_PROPERTY, "tdmc/gain", 9, id),
	                 MEGACO_ERR_UNKNOWN_NAME);
	size_t n = 0;
	check_item(reg, MEGACO_ITEM_PROPERTY, "x000d/x000a", (const uint8_t[]){ 0, 0x0D, 0, 0x0A }, &n);
	check_item(reg, MEGACO_ITEM_PROPERTY, "x0000/xb001", (const uint8_t[]){ 0, 0, 0xB0, 1 }, &n);

	assert_int_equal(megaco_registry_add_package(reg, "acme", 0x8001, 1, NULL), MEGACO_OK);
	assert_int_equal(megaco_registry_add_package(reg, "acme", 0x8001, 1, NULL), MEGACO_OK);
	assert_int_equal(megaco_registry_add_package(reg, "acme", 0x8002, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "acme2", 0x8001, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "bad", 0xFFFF, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "x8003", 0x8003, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "1abc", 0x8003, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "", 0x8003, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "kid", 0x8004, 1, "nosuch"),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_item(reg, "acme", MEGACO_ITEM_EVENT, "ping", 1), MEGACO_OK);
	assert_int_equal(megaco_registry_add_item(reg, "acme", MEGACO_ITEM_EVENT, "pong", 1),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_item(reg, "acme", MEGACO_ITEM_SIGNAL, "pong", 1), MEGACO_OK);
	assert_int_equal(megaco_registry_add_item(reg, "nosuch", MEGACO_ITEM_EVENT, "ping", 1),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_parameter(reg, "acme", MEGACO_ITEM_EVENT, "ping", "n", 1),
	                 MEGACO_OK);
	assert_int_equal(megaco_registry_add_parameter(reg, "acme", MEGACO_ITEM_PROPERTY, "ping", "n",
	                                               1), MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "kid", 0x8004, 1, "acme"), MEGACO_OK);
	/* Many items keep the tables sorted. */
	for (unsigned i = 0; i < 300; i++) {
		char name[16];
		snprintf(name, sizeof name, "p%u", (i * 7919u) % 300u);
		assert_int_equal(megaco_registry_add_item(reg, "acme", MEGACO_ITEM_PROPERTY, name,
		                                          (uint16_t)(0x100 + (i * 7919u) % 300u)),
		                 MEGACO_OK);
	}
	for (unsigned i = 0; i < 300; i++) {
		char name[16];
		snprintf(name, sizeof name, "kid/p%u", i);
		uint8_t want[4] = { 0x80, 0x04, (uint8_t)((0x100 + i) >> 8), (uint8_t)(0x100 + i) };
		check_item(reg, MEGACO_ITEM_PROPERTY, name, want, &n);
	}
	check_item(reg, MEGACO_ITEM_EVENT, "kid/ping", (const uint8_t[]){ 0x80, 0x04, 0, 1 }, &n);
	megaco_registry_free(reg);
	megaco_registry_free(NULL);
	assert_int_equal(megaco_registry_new(8, NULL, &reg), MEGACO_ERR_INVALID_ARGUMENT);
}

/* Counts the registry's allocations; every one must be given back. */
static long live_blocks;
static long allocs_left = -1; /* >= 0: that many succeed, then each fails */
static void *count_alloc(void *ud, size_t n)
{
	(void)ud;
	if (allocs_left == 0)
		return NULL;
	if (allocs_left > 0)
		allocs_left--;
	void *p = malloc(n);
	live_blocks += p != NULL;
	return p;
}
static void count_free(void *ud, void *p)
{
	(void)ud;
	live_blocks -= p != NULL;
	free(p);
}

/*
 * A registry starts on the built-in const tables: creating it takes one
 * block, adding to a built-in package or item copies that one, extending a
 * built-in package sees items added to it later, the built-in registry
 * itself never changes, and freeing gives every block back.
 */
static void test_add_to_builtin_packages(void **state)
{
	(void)state;
	const megaco_allocator al = { count_alloc, count_free, NULL };
	megaco_registry *reg = NULL;
	live_blocks = 0;
	assert_int_equal(megaco_registry_new(0, &al, &reg), MEGACO_OK);
	assert_int_equal(live_blocks, 1);
	size_t n = 0;
	check_item(reg, MEGACO_ITEM_PROPERTY, "tdmc/gain", (const uint8_t[]){ 0, 0x0D, 0, 0x0A }, &n);
	assert_int_equal(live_blocks, 1); /* lookups never allocate */
	/* rtp and tdmc extend nt: an item added to nt later shows through both. */
	assert_int_equal(megaco_registry_add_item(reg, "nt", MEGACO_ITEM_EVENT, "vendev", 0x0F01),
	                 MEGACO_OK);
	check_item(reg, MEGACO_ITEM_EVENT, "rtp/vendev", (const uint8_t[]){ 0, 0x0C, 0x0F, 0x01 }, &n);
	check_item(reg, MEGACO_ITEM_EVENT, "tdmc/vendev", (const uint8_t[]){ 0, 0x0D, 0x0F, 0x01 }, &n);
	check_item(reg, MEGACO_ITEM_EVENT, "rtp/pltrans", (const uint8_t[]){ 0, 0x0C, 0, 1 }, &n);
	/* A parameter on a built-in event copies the event, not its siblings' data. */
	assert_int_equal(megaco_registry_add_parameter(reg, "g", MEGACO_ITEM_EVENT, "cause", "vp",
	                                               0x0F02), MEGACO_OK);
	const reg_item *it;
	uint8_t id[4], pb[2];
	assert_int_equal(reg_name_to_id(reg, MEGACO_ITEM_EVENT, "g/cause", 7, id, &it), MEGACO_OK);
	assert_int_equal(reg_param_to_id(it, "vp", 2, pb), MEGACO_OK);
	assert_int_equal(pb[0] << 8 | pb[1], 0x0F02);
	assert_int_equal(reg_param_to_id(it, "Generalcause", 12, pb), MEGACO_OK);
	assert_int_equal(pb[1], 1);
	/* Clashes with built-in entries are refused, re-adding one is a no-op. */
	assert_int_equal(megaco_registry_add_item(reg, "tdmc", MEGACO_ITEM_PROPERTY, "gain", 0x000A),
	                 MEGACO_OK);
	assert_int_equal(megaco_registry_add_item(reg, "tdmc", MEGACO_ITEM_PROPERTY, "gain", 0x0F0A),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "acme", 0x0001, 1, NULL),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_add_package(reg, "acme", 0x8001, 1, "tonegen"), MEGACO_OK);
	check_item(reg, MEGACO_ITEM_SIGNAL, "acme/pt", (const uint8_t[]){ 0x80, 0x01, 0, 1 }, &n);
	/* The built-in registry is untouched and cannot be changed. */
	assert_int_equal(megaco_registry_name_to_id(NULL, MEGACO_ITEM_EVENT, "nt/vendev", 9, id),
	                 MEGACO_ERR_UNKNOWN_NAME);
	assert_int_equal(megaco_registry_add_item((megaco_registry *)(uintptr_t)megaco_registry_default(),
	                                          "nt", MEGACO_ITEM_EVENT, "x", 1),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	megaco_registry_free(reg);
	assert_int_equal(live_blocks, 0);
	/* Each allocation failing in turn: NOMEM, the built-ins still found, no leak. */
	for (long k = 0;; k++) {
		live_blocks = 0;
		allocs_left = k;
		reg = NULL;
		int rc = megaco_registry_new(0, &al, &reg), nomem = rc == MEGACO_ERR_NOMEM;
		if (rc == MEGACO_OK) {
			int rcs[3] = {
				megaco_registry_add_item(reg, "nt", MEGACO_ITEM_EVENT, "vendev", 0x0F01),
				megaco_registry_add_parameter(reg, "g", MEGACO_ITEM_EVENT, "cause", "vp", 0x0F02),
				megaco_registry_add_package(reg, "acme", 0x8001, 1, "tonegen"),
			};
			for (int i = 0; i < 3; i++) {
				assert_true(rcs[i] == MEGACO_OK || rcs[i] == MEGACO_ERR_NOMEM);
				nomem |= rcs[i] == MEGACO_ERR_NOMEM;
			}
			check_item(reg, MEGACO_ITEM_PROPERTY, "tdmc/gain",
			           (const uint8_t[]){ 0, 0x0D, 0, 0x0A }, &n);
			check_item(reg, MEGACO_ITEM_EVENT, "rtp/pltrans", (const uint8_t[]){ 0, 0x0C, 0, 1 },
			           &n);
			megaco_registry_free(reg);
		}
		assert_int_equal(live_blocks, 0);
		if (!nomem)
			break;
		assert_true(k < 100);
	}
	allocs_left = -1;
}

#if MEGACO_HAVE_YAML
static void test_yaml_errors(void **state)
{
	(void)state;
	static const struct { const char *yaml; int code; unsigned line; } rows[] = {
		{ "packages: [", MEGACO_ERR_SYNTAX, 2 }, /* reported at the end of input */
		{ "pkgs: []\n", MEGACO_ERR_SYNTAX, 1 },
		{ "- a\n", MEGACO_ERR_SYNTAX, 1 },
		{ "packages:\n  - {name: a, id: 0x10000}\n", MEGACO_ERR_SYNTAX, 2 },
		{ "packages:\n  - {name: a}\n", MEGACO_ERR_SYNTAX, 2 },
		{ "packages:\n  - {name: a, id: 1, colour: red}\n", MEGACO_ERR_SYNTAX, 2 },
		{ "packages:\n  - {name: a, id: 0xFFFF}\n", MEGACO_ERR_INVALID_ARGUMENT, 2 },
		{ "packages:\n  - {name: x0001, id: 1}\n", MEGACO_ERR_INVALID_ARGUMENT, 2 },
		{ "packages:\n  - {name: al, id: 0x7000}\n", MEGACO_ERR_INVALID_ARGUMENT, 2 },
		{ "packages:\n  - {name: a, id: 0x7000, extends: nosuch}\n", MEGACO_ERR_INVALID_ARGUMENT, 2 },
		{ "packages:\n  - name: a\n    id: 0x7000\n    properties:\n      - {name: p, id: 1, "
		  "parameters: []}\n", MEGACO_ERR_SYNTAX, 5 },
		{ "packages:\n  - name: a\n    id: 0x7000\n    events:\n      - {name: e, id: 1}\n"
		  "      - {name: f, id: 1}\n", MEGACO_ERR_INVALID_ARGUMENT, 6 },
		{ "packages:\n  - name: a\n    id: 0x7000\n    events: 3\n", MEGACO_ERR_SYNTAX, 4 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		megaco_registry *reg = NULL;
		assert_int_equal(megaco_registry_new(0, NULL, &reg), MEGACO_OK);
		megaco_error err;
		int rc = megaco_registry_load_yaml_buffer(reg, rows[i].yaml, strlen(rows[i].yaml), &err);
		if (rc != rows[i].code || err.line != rows[i].line)
			fail_msg("row %zu: %s at line %u (%s), expected %s at line %u", i,
			         megaco_strerror(rc), err.line, err.message, megaco_strerror(rows[i].code),
			         rows[i].line);
		megaco_registry_free(reg);
	}
	megaco_registry *reg = NULL;
	assert_int_equal(megaco_registry_new(0, NULL, &reg), MEGACO_OK);
	megaco_error err;
	assert_int_equal(megaco_registry_load_yaml(reg, "/nonexistent/x.yaml", &err),
	                 MEGACO_ERR_INVALID_ARGUMENT);
	assert_int_equal(megaco_registry_load_yaml_buffer(reg, "", 0, &err), MEGACO_OK);
	megaco_registry_free(reg);
}
#endif

/* Erlang megaco's v3 binary name resolver, the origin of the corpus BER. */
static const char peer_script[] =
	"%% escript ignores this first line\n"
	"main([File]) ->\n"
	"    {ok, B} = file:read_file(File),\n"
	"    M = megaco_binary_name_resolver_v3,\n"
	"    Lines = [string:tokens(L, \" \") || L <- string:tokens(binary_to_list(B), \"\\n\")],\n"
	"    Hex = fun(L) -> lists:flatten([io_lib:format(\"~2.16.0B\", [V]) || V <- L]) end,\n"
	"    Enc = fun(S, N) -> case catch M:encode_name([8,8,8], S, N) of\n"
	"                           X when is_list(X) -> Hex(X); _ -> \"unknown\" end end,\n"
	"    Bad1 = [io:format(\"DIFF ~s ~s ours=~s erlang=~s~n\", [S, N, H, G])\n"
	"            || [\"item\", S, N, H] <- Lines, (G = Enc(list_to_atom(S), N)) =/= H],\n"
	"    Bad2 = [io:format(\"DIFF ~s ~s ~s ours=~s erlang=~s~n\", [S, I, P, H, G])\n"
	"            || [\"param\", S, I, P, H] <- Lines,\n"
	"               (G = Enc({list_to_atom(S), I}, P)) =/= H],\n"
	"    Ours = [{S, N} || [\"item\", S, N, _] <- Lines],\n"
	"    %% swb (0xfefe) is Erlang's proprietary package, deliberately left out.\n"
	"    Bad3 = [io:format(\"MISSING ~s ~s~n\", [S, N])\n"
	"            || P <- M:packages(), P =/= \"swb\", {Sc, I} <- M:capabilities(P),\n"
	"               S <- [atom_to_list(Sc)], N <- [case P of \"\" -> I; _ -> P ++ \"/\" ++ I end],\n"
	"               not lists:member({S, N}, Ours)],\n"
	"    io:format(\"~w entries agree with Erlang megaco~n\", [length(Lines)]),\n"
	"    halt(case Bad1 ++ Bad2 ++ Bad3 of [] -> 0; _ -> 1 end).\n";

/* Every item and parameter, both ways, against Erlang; skipped without escript. */
static void test_against_erlang(void **state)
{
	(void)state;
	assert_true(peer_lines[0]); /* filled by test_every_yaml_entry_both_ways */
	assert_int_equal(escript_run(peer_script, peer_lines), 0);
}

int main(int argc, char **argv)
{
	corpus_dir = corpus_dir_from_args(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_yaml_entry_both_ways),
		cmocka_unit_test(test_against_erlang),
		cmocka_unit_test(test_special_and_unknown_names),
		cmocka_unit_test(test_output_buffer),
#if MEGACO_HAVE_YAML
		cmocka_unit_test(test_vendor_package_from_yaml),
		cmocka_unit_test(test_yaml_errors),
#endif
		cmocka_unit_test(test_api_and_empty_registry),
		cmocka_unit_test(test_add_to_builtin_packages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
