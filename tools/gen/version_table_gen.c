/*
 * The one version table (a build-time generator, compiled and run on the
 * build machine, also in a cross build): reads the H.248.1 ASN.1 modules of
 * versions 1, 2 and 3 (asn1/MEDIA-GATEWAY-CONTROL-v{1,2,3}.asn, the
 * standard's) and writes, for every member of every constructed type of the
 * v3 module, every ENUMERATED value and every named bit, the first version
 * whose module has it:
 *
 *   #define MEGACO_SINCE_<Type>_<member> n      (for the text codec's own checks)
 *   megaco_version_table[]                      (all of them, as data for tools/gen)
 *
 * and, for a member OPTIONAL in the v3 module, the first version from which
 * every module that has it makes it OPTIONAL too (PER gives an OPTIONAL
 * member a presence bit, so where an older module has it mandatory, the
 * versions encode it differently): in the table, and for those above 1 as
 *
 *   #define MEGACO_OPTIONAL_SINCE_<Type>_<member> n
 *
 * <Type> is asn1c's C name (an inline type of member m of T is T__m). The
 * schema generator (tools/gen/schema_model.c) puts each version into the
 * const schema, where the binary version gate reads it.
 *
 * The reader knows the subset of X.680 these modules use: type assignments,
 * SEQUENCE / SET / CHOICE / ENUMERATED / BIT STRING / INTEGER with braces,
 * SEQUENCE OF, tags, constraints, OPTIONAL / DEFAULT, extension markers and
 * comments. Usage: version_table_gen v1.asn v2.asn v3.asn out.h
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "read_file.h"

enum { MAX_TOKENS = 40000, MAX_ITEMS = 4000, NAME = 128 };

typedef struct {
	char owner[NAME];   /* C type name: Type or Type__member */
	char member[NAME];
	long value;         /* a named value's or bit's number; -1 for a member */
	int optional;       /* a member marked OPTIONAL or DEFAULT */
} item;

typedef struct {
	char *tok[MAX_TOKENS];
	int ntok, pos;
	item items[MAX_ITEMS];
	int nitems;
	const char *path;
} module;

static void die(const module *m, const char *what)
{
	fprintf(stderr, "version_table_gen: %s: %s (token %d)\n", m ? m->path : "", what,
	        m ? m->pos : 0);
	exit(1);
}

/* Splits the module into tokens; comments (-- to the next -- or the line's end) go. */
static void tokenize(module *m, char *s)
{
	while (*s) {
		if (s[0] == '-' && s[1] == '-') {
			s += 2;
			while (*s && *s != '\n' && !(s[0] == '-' && s[1] == '-'))
				s++;
			if (*s == '-')
				s += 2;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (m->ntok == MAX_TOKENS)
			die(m, "too many tokens");
		char *start = s;
		if (isalnum((unsigned char)*s)) {
			while (isalnum((unsigned char)*s) || (*s == '-' && s[1] != '-'))
				s++;
		} else if (!strncmp(s, "::=", 3) || !strncmp(s, "...", 3)) {
			s += 3;
		} else if (!strncmp(s, "..", 2) || !strncmp(s, "[[", 2) || !strncmp(s, "]]", 2)) {
			s += 2;
		} else {
			s++;
		}
		size_t n = (size_t)(s - start);
		char *t = malloc(n + 1);
		if (!t)
			die(m, "out of memory");
		memcpy(t, start, n);
		t[n] = 0;
		m->tok[m->ntok++] = t;
	}
}

static const char *peek(const module *m, int ahead)
{
	return m->pos + ahead < m->ntok ? m->tok[m->pos + ahead] : "";
}

static int is(const module *m, const char *t)
{
	return !strcmp(peek(m, 0), t);
}

static void expect(module *m, const char *t)
{
	if (!is(m, t))
		die(m, t);
	m->pos++;
}

/* Skips a balanced (...) or {...} group starting at the current token. */
static void skip_group(module *m)
{
	const char *open = peek(m, 0);
	const char *close = !strcmp(open, "(") ? ")" : !strcmp(open, "{") ? "}" : "]";
	int depth = 0;
	do {
		if (m->pos >= m->ntok)
			die(m, "unbalanced group");
		if (is(m, open))
			depth++;
		else if (is(m, close))
			depth--;
		m->pos++;
	} while (depth);
}

static void add(module *m, const char *owner, const char *member, long value)
{
	if (m->nitems == MAX_ITEMS)
		die(m, "too many members");
	item *it = &m->items[m->nitems++];
	snprintf(it->owner, NAME, "%s", owner);
	snprintf(it->member, NAME, "%s", member);
	it->value = value;
}

static void parse_type(module *m, const char *owner);

/* name(n) items of ENUMERATED, BIT STRING and INTEGER, after the '{'. */
static void parse_named(module *m, const char *owner)
{
	expect(m, "{");
	while (!is(m, "}")) {
		if (is(m, ",") || is(m, "...")) {
			m->pos++;
			continue;
		}
		const char *name = peek(m, 0);
		m->pos++;
		if (!is(m, "(") || !isdigit((unsigned char)peek(m, 1)[0]) || strcmp(peek(m, 2), ")"))
			die(m, "name(number) expected");
		add(m, owner, name, strtol(peek(m, 1), NULL, 10));
		m->pos += 3;
	}
	m->pos++;
}

/* Members of SEQUENCE, SET and CHOICE, after the '{'. */
static void parse_members(module *m, const char *owner)
{
	expect(m, "{");
	while (!is(m, "}")) {
		if (is(m, ",") || is(m, "...") || is(m, "[[") || is(m, "]]")) {
			m->pos++;
			continue;
		}
		const char *name = peek(m, 0);
		if (!islower((unsigned char)name[0]))
			die(m, "member name expected");
		add(m, owner, name, -1);
		item *it = &m->items[m->nitems - 1];
		m->pos++;
		char inner[NAME];
		snprintf(inner, sizeof inner, "%s__%s", owner, name);
		parse_type(m, inner);
		/* OPTIONAL, DEFAULT value, up to the next member. */
		while (!is(m, ",") && !is(m, "}")) {
			if (is(m, "OPTIONAL") || is(m, "DEFAULT"))
				it->optional = 1;
			if (is(m, "(") || is(m, "{"))
				skip_group(m);
			else
				m->pos++;
		}
	}
	m->pos++;
}

static void parse_type(module *m, const char *owner)
{
	while (is(m, "[") || is(m, "IMPLICIT") || is(m, "EXPLICIT")) { /* tags */
		if (is(m, "["))
			skip_group(m);
		else
			m->pos++;
	}
	if (is(m, "SEQUENCE") || is(m, "SET")) {
		m->pos++;
		if (is(m, "{")) {
			parse_members(m, owner);
			return;
		}
		if (is(m, "SIZE")) /* SEQUENCE SIZE (..) OF */
			m->pos++;
		if (is(m, "("))
			skip_group(m);
		expect(m, "OF");
		char inner[NAME];
		snprintf(inner, sizeof inner, "%s__Member", owner);
		parse_type(m, inner);
		return;
	}
	if (is(m, "CHOICE")) {
		m->pos++;
		parse_members(m, owner);
		return;
	}
	if (is(m, "ENUMERATED")) {
		m->pos++;
		parse_named(m, owner);
		return;
	}
	if (is(m, "BIT") || is(m, "OCTET") || is(m, "OBJECT"))
		m->pos += 2; /* BIT STRING, OCTET STRING, OBJECT IDENTIFIER */
	else
		m->pos++; /* INTEGER, BOOLEAN, NULL, IA5String, a type reference, ... */
	if (is(m, "{"))
		parse_named(m, owner);
	while (is(m, "("))
		skip_group(m);
}

static void parse_module(module *m)
{
	while (m->pos < m->ntok && !is(m, "BEGIN"))
		m->pos++;
	expect(m, "BEGIN");
	while (m->pos < m->ntok && !is(m, "END")) {
		if (!strcmp(peek(m, 1), "::=") && isupper((unsigned char)peek(m, 0)[0])) {
			const char *name = peek(m, 0);
			m->pos += 2;
			parse_type(m, name);
		} else if (is(m, "{") || is(m, "(")) {
			skip_group(m); /* a value assignment's value, IMPORTS lists, ... */
		} else {
			m->pos++;
		}
	}
}

static void load(module *m, const char *path)
{
	m->path = path;
	size_t len;
	char *text = (char *)read_file(path, &len);
	if (!text)
		die(m, "cannot read");
	tokenize(m, text);
	parse_module(m);
	free(text);
}

/*
 * Member names compare without case: the v1 module spells
 * ServiceChangeResParm's timestamp "timeStamp", the same member.
 */
static const item *find(const module *m, const char *owner, const char *member)
{
	for (int i = 0; i < m->nitems; i++)
		if (!strcmp(m->items[i].owner, owner) && !strcasecmp(m->items[i].member, member))
			return &m->items[i];
	return NULL;
}

static void c_name(char *out, size_t cap, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < cap; i++)
		out[i] = s[i] == '-' ? '_' : s[i];
	out[i] = 0;
}

static module mods[3];

/* The first version whose module has it (every element of the v3 module is in v3). */
static int since(const item *it)
{
	return find(&mods[0], it->owner, it->member) ? 1 : find(&mods[1], it->owner, it->member) ? 2 : 3;
}

/*
 * For a member: 0 unless OPTIONAL in v3, else the first version from which
 * every module that has it makes it OPTIONAL (1: all do). A member whose
 * optionality goes the other way (OPTIONAL in a module, mandatory in a later
 * one) needs a rule the codecs do not have: the build stops.
 */
static int optional_since(const item *it)
{
	int from = 1, seen_optional = 0;
	for (int v = 0; v < 3; v++) {
		const item *in = find(&mods[v], it->owner, it->member);
		if (!in || in->value != -1)
			continue;
		if (in->optional)
			seen_optional = 1;
		else if (seen_optional)
			die(&mods[v], "a member OPTIONAL in an older module is mandatory here");
		else
			from = v + 2;
	}
	return seen_optional ? from : 0;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: version_table_gen v1.asn v2.asn v3.asn out.h\n");
		return 2;
	}
	for (int v = 0; v < 3; v++)
		load(&mods[v], argv[1 + v]);
	const module *v3 = &mods[2];
	/* Sanity: the modules were read (a broken reader would make everything v3). */
	if (!find(&mods[0], "Message", "mId") || !find(&mods[1], "Message", "mId") ||
	    !find(v3, "Transaction", "segmentReply") || find(&mods[1], "Transaction", "segmentReply") ||
	    !find(v3, "MegacoMessage", "authHeader")->optional ||
	    find(v3, "MegacoMessage", "mess")->optional)
		die(NULL, "the modules do not read as expected");
	FILE *out = fopen(argv[4], "w");
	if (!out)
		die(NULL, "cannot write the output");
	fprintf(out, "/* Generated by tools/gen/version_table_gen.c from the H.248.1 ASN.1 modules\n"
	             " * v1, v2 and v3 (asn1/): the first version of every element. Do not edit. */\n"
	             "#ifndef MEGACO_VERSION_TABLE_H\n#define MEGACO_VERSION_TABLE_H\n\n");
	for (int i = 0; i < v3->nitems; i++) {
		const item *it = &v3->items[i];
		char o[NAME], mb[NAME];
		c_name(o, sizeof o, it->owner);
		c_name(mb, sizeof mb, it->member);
		/* A member name repeated in one type (none in these modules) would redefine. */
		fprintf(out, "#define MEGACO_SINCE_%s_%s %d\n", o, mb, since(it));
		if (optional_since(it) > 1)
			fprintf(out, "#define MEGACO_OPTIONAL_SINCE_%s_%s %d\n", o, mb, optional_since(it));
	}
	fprintf(out, "\n/* The same as data, for the schema generator (tools/gen) only. */\n"
	             "#ifdef MEGACO_VERSION_TABLE_DATA\n"
	             "typedef struct megaco_version_entry {\n"
	             "\tconst char *type;   /* asn1c's C type name */\n"
	             "\tconst char *member; /* member, ENUMERATED value or named bit */\n"
	             "\tlong value;         /* the value's or bit's number; -1 for a member */\n"
	             "\tunsigned char since;\n"
	             "\tunsigned char optional_since; /* OPTIONAL from then on, mandatory before; 0: never */\n"
	             "} megaco_version_entry;\n\n"
	             "static const megaco_version_entry megaco_version_table[] = {\n");
	for (int i = 0; i < v3->nitems; i++) {
		const item *it = &v3->items[i];
		fprintf(out, "\t{\"%s\", \"%s\", %ld, %d, %d},\n", it->owner, it->member, it->value,
		        since(it), optional_since(it));
	}
	fprintf(out, "\t{0, 0, 0, 0, 0},\n};\n#endif\n\n#endif\n");
	if (fclose(out))
		die(NULL, "cannot write the output");
	return 0;
}
