/*
 * Walks asn1c's descriptors of MegacoMessage into the schema model
 * (schema_model.h), naming each struct and member as asn1c's
 * -fcompound-names output does: a type of the module is Name_t, a type
 * defined inline in a member is struct Parent__member, a CHOICE's
 * alternatives live in choice.alt beside present, a list's items in list.
 * The names are checked by compiling the emitted tables on the host and
 * comparing every offset and size with the descriptors (schema_check.c).
 */
#include "schema_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "IA5String.h"
#include "MegacoMessage.h"
#include "NULL.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OBJECT_IDENTIFIER.h"
#include "OCTET_STRING.h"
#include "asn_codecs_prim.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"
#include "schema_facts.h"
#define MEGACO_VERSION_TABLE_DATA
#include "version_table.h"

static int complain(const char *what, const char *name)
{
	fprintf(stderr, "schema: %s: %s\n", name ? name : "?", what);
	return -1;
}

/* An ASN.1 name as asn1c spells it in C ('-' becomes '_'). */
static void mangle(char *out, size_t cap, const char *name)
{
	size_t i = 0;
	for (; name[i] && i + 1 < cap; i++)
		out[i] = isalnum((unsigned char)name[i]) ? name[i] : '_';
	out[i] = 0;
}

/* out = a b c; a name too long for the model stops the generator. */
static void join(char *out, size_t cap, const char *a, const char *b, const char *c)
{
	char tmp[GEN_NAME]; /* out may be a field beside a, b or c; every cap is GEN_NAME */
	if ((size_t)snprintf(tmp, sizeof tmp, "%s%s%s", a, b, c) >= cap) {
		fprintf(stderr, "schema: name too long: %s%s%s\n", a, b, c);
		exit(1);
	}
	memcpy(out, tmp, strlen(tmp) + 1);
}

/* asn1c's own free functions: a descriptor pointing at one is resolved to its base. */
static int runtime_free(asn_struct_free_f *f)
{
	return f == SEQUENCE_free || f == CHOICE_free || f == SET_OF_free || f == OCTET_STRING_free ||
	       f == NativeInteger_free || f == BOOLEAN_free || f == ASN__PRIMITIVE_TYPE_free;
}

static int kind_of(asn_TYPE_descriptor_t *td)
{
	/*
	 * A derived type (PkgdName ::= OCTET STRING (SIZE(4))) points at
	 * generated wrappers until asn1c first uses it; its free wrapper called
	 * on NULL copies the base type's functions in and frees nothing.
	 */
	for (int i = 0; i < 4 && !runtime_free(td->free_struct); i++)
		td->free_struct(td, NULL, 0);
	der_type_encoder_f *k = td->der_encoder;
	if (k == SEQUENCE_encode_der)
		return SK_SEQUENCE;
	if (k == CHOICE_encode_der)
		return SK_CHOICE;
	if (k == SEQUENCE_OF_encode_der)
		return SK_SEQUENCE_OF;
	if (k == SET_OF_encode_der)
		return SK_SET_OF;
	if (k == NativeInteger_encode_der)
		return td->uper_encoder == NativeEnumerated_encode_uper ? SK_ENUM : SK_INT;
	if (k == BOOLEAN_encode_der)
		return SK_BOOL;
	if (k == NULL_encode_der)
		return SK_NULL;
	if (k == OCTET_STRING_encode_der) {
		const asn_OCTET_STRING_specifics_t *os = td->specifics;
		if (os && os->subvariant == ASN_OSUBV_BIT)
			return SK_BITS;
		if (os && os->subvariant != ASN_OSUBV_STR)
			return -1;
		return td->check_constraints == IA5String_constraint ? SK_IA5 : SK_OCTETS;
	}
	if (k == der_encode_primitive && td->print_struct == OBJECT_IDENTIFIER_print)
		return SK_OID;
	return -1;
}

static const char *const primitive_ctype[] = {
	[SK_INT] = "long", [SK_ENUM] = "long", [SK_BOOL] = "BOOLEAN_t", [SK_NULL] = "NULL_t",
	[SK_OCTETS] = "OCTET_STRING_t", [SK_IA5] = "IA5String_t", [SK_BITS] = "BIT_STRING_t",
	[SK_OID] = "OBJECT_IDENTIFIER_t",
};

static int same_range(const schema_range *a, const schema_range *b)
{
	return a->flags == b->flags && a->range_bits == b->range_bits &&
	       a->effective_bits == b->effective_bits && a->lower == b->lower && a->upper == b->upper;
}

static schema_range range_of(const asn_per_constraint_t *c)
{
	schema_range r;
	r.flags = (unsigned char)c->flags;
	r.range_bits = (signed char)c->range_bits;
	r.effective_bits = (signed char)c->effective_bits;
	r.lower = c->lower_bound;
	r.upper = c->upper_bound;
	return r;
}

/* The index of pc in the constraint table (0: none), adding it if new. */
static int per_index(gen_schema *s, const asn_per_constraints_t *pc)
{
	if (!pc)
		return 0;
	if (pc->value2code || pc->code2value)
		return complain("PER constraint with a character map", "?");
	schema_per p;
	p.value = range_of(&pc->value);
	p.size = range_of(&pc->size);
	for (int i = 0; i < s->npers; i++)
		if (same_range(&s->pers[i].value, &p.value) && same_range(&s->pers[i].size, &p.size))
			return i;
	if (s->npers == GEN_MAX_PERS)
		return complain("too many PER constraints", "?");
	s->pers[s->npers] = p;
	return s->npers++;
}

static int named_type(const asn_TYPE_descriptor_t *td)
{
	return td->name && isupper((unsigned char)td->name[0]);
}

static int add_type(gen_schema *s, asn_TYPE_descriptor_t *td, const char *inline_tag);

/*
 * The version table's entry (version_table.h, generated from the v1, v2 and
 * v3 modules by cmake/VersionTable.cmake) of member, value or named bit
 * `member` of the type whose C name is ctag: the version that introduced it
 * and, for an OPTIONAL member, the first whose module makes it OPTIONAL.
 * An entry of zeros when the table does not have it.
 */
static const megaco_version_entry *since(const char *ctag, const char *member)
{
	const megaco_version_entry *e = megaco_version_table;
	while (e->type && (strcmp(e->type, ctag) || strcmp(e->member, member)))
		e++;
	return e;
}

/* Does the version table list named bits of the BIT STRING whose C name is ctag? */
static int has_bits(const char *ctag)
{
	const megaco_version_entry *e = megaco_version_table;
	while (e->type && (e->value < 0 || strcmp(e->type, ctag)))
		e++;
	return e->type != NULL;
}

static int fill_members(gen_schema *s, int ti)
{
	gen_type *t = &s->types[ti];
	asn_TYPE_descriptor_t *td = t->td;
	int n = td->elements_count, list = t->t.kind == SK_SEQUENCE_OF || t->t.kind == SK_SET_OF;
	if (n < 0 || n > GEN_MAX_MEMBERS - s->nmembers || (list && n != 1))
		return complain("bad member count", td->name);
	int first = s->nmembers;
	s->nmembers += n;
	t->t.first = (uint16_t)first;
	t->t.count = (uint16_t)n;
	t->t.root_count = (uint16_t)n;
	const asn_SEQUENCE_specifics_t *ss = t->t.kind == SK_SEQUENCE ? td->specifics : NULL;
	const asn_CHOICE_specifics_t *cs = t->t.kind == SK_CHOICE ? td->specifics : NULL;
	int opt = 0, seen_ext = 0;
	for (int i = 0; i < n; i++) {
		const asn_TYPE_member_t *el = &td->elements[i];
		gen_member *m = &s->members[first + i];
		char inl[GEN_NAME], mn[GEN_NAME];
		mangle(mn, sizeof mn, el->name ? el->name : "");
		join(inl, sizeof inl, s->types[ti].ctag, "__", list ? "Member" : mn);
		m->el = el;
		m->parent = ti;
		if (list)
			m->path[0] = 0;
		else
			join(m->path, sizeof m->path, cs ? "choice." : "", mn, "");
		int ci = add_type(s, el->type, inl);
		if (ci < 0)
			return -1;
		schema_member *sm = &m->m;
		sm->name = el->name;
		sm->offset = (uint32_t)el->memb_offset;
		sm->tag = el->tag;
		sm->type = (uint16_t)ci;
		int per = per_index(s, el->per_constraints ? el->per_constraints
		                                           : el->type->per_constraints);
		if (per < 0)
			return -1;
		sm->per = (uint16_t)per;
		sm->tag_mode = (signed char)(list ? 0 : el->tag_mode);
		sm->flags = (el->flags & ATF_POINTER ? SM_POINTER : 0) |
		            (el->flags & ATF_OPEN_TYPE ? SM_OPEN_TYPE : 0) |
		            (el->optional ? SM_OPTIONAL : 0) | (el->default_value ? SM_DEFAULT : 0);
		sm->optional = (uint16_t)el->optional;
		const megaco_version_entry *v = since(t->ctag, el->name ? el->name : "");
		sm->version = list ? 1 : v->since;
		if (!sm->version)
			return complain("member not in the version table", el->name);
		if (el->optional) {
			sm->opt_since = list ? 1 : v->optional_since;
			if (!sm->opt_since)
				return complain("OPTIONAL here, not in the version table", el->name);
		}
		if (!list && el->name && !strcmp(td->name, gen_version_type) &&
		    !strcmp(el->name, gen_version_member))
			sm->flags |= SM_VERSION;
		if ((ss && i > ss->ext_after && i < ss->ext_before) ||
		    (cs && cs->ext_start >= 0 && i >= cs->ext_start))
			sm->flags |= SM_EXTENSION;
		if (sm->flags & SM_EXTENSION) {
			if (!seen_ext)
				t->t.root_count = (uint16_t)i;
			seen_ext = 1;
			/* The v1 module has no extension additions. */
			if (sm->version < 2)
				return complain("extension addition not in the version table", el->name);
		} else if (seen_ext) {
			return complain("root member after the extension additions", td->name);
		}
		if (ss && (sm->flags & SM_OPTIONAL) && !(sm->flags & SM_EXTENSION)) {
			if (opt >= ss->roms_count || ss->oms[opt] != i)
				return complain("optional members out of PER order", td->name);
			opt++;
		}
		/* Named bits of its type, or of the member itself (the table's owner is inl). */
		if (s->types[ci].t.kind == SK_BITS &&
		    ((s->types[ci].t.flags & SF_NAMED_BITS) || has_bits(inl)))
			sm->flags |= SM_NAMED_BITS;
		if (s->types[ci].td->name && !strcmp(s->types[ci].td->name, "TerminationID"))
			sm->name_kind = SN_TERMINATION_ID;
		for (const gen_name_fact *f = gen_name_facts; f->type; f++)
			if (!strcmp(f->type, td->name) && el->name && !strcmp(f->member, el->name))
				sm->name_kind = (unsigned char)f->kind;
	}
	if (ss && opt != ss->roms_count)
		return complain("optional member count differs from asn1c's", td->name);
	return 0;
}

static int add_type(gen_schema *s, asn_TYPE_descriptor_t *td, const char *inline_tag)
{
	for (int i = 0; i < s->ntypes; i++)
		if (s->types[i].td == td)
			return i;
	if (s->ntypes == GEN_MAX_TYPES)
		return complain("too many types", td->name);
	int ti = s->ntypes++;
	gen_type *t = &s->types[ti];
	t->td = td;
	int kind = kind_of(td);
	if (kind < 0)
		return complain("a kind of type the schema does not describe", td->name);
	t->t.name = td->name;
	t->t.kind = (unsigned char)kind;
	char mn[GEN_NAME];
	mangle(mn, sizeof mn, td->name ? td->name : "");
	if (schema_constructed(kind)) {
		if (named_type(td)) {
			join(t->ctag, sizeof t->ctag, mn, "", "");
			join(t->ctype, sizeof t->ctype, mn, "_t", "");
		} else {
			join(t->ctag, sizeof t->ctag, inline_tag, "", "");
			join(t->ctype, sizeof t->ctype, "struct ", inline_tag, "");
		}
		join(t->cname, sizeof t->cname, t->ctag, "", "");
	} else {
		join(t->ctype, sizeof t->ctype, primitive_ctype[kind], "", "");
		join(t->cname, sizeof t->cname, named_type(td) ? mn : inline_tag, "", "");
	}
	char key[GEN_NAME]; /* the version table's name for it */
	join(key, sizeof key, t->cname, "", "");
	/* Identifiers stay unique (two base descriptors could mangle alike). */
	for (int i = 0; i < ti; i++)
		if (!strcmp(s->types[i].cname, t->cname)) {
			size_t l = strlen(t->cname);
			snprintf(t->cname + l, sizeof t->cname - l, "_%d", ti);
			break;
		}
	if (td->tags_count > 0xff || td->tags_count > GEN_MAX_TAGS - s->ntags)
		return complain("too many tags", td->name);
	t->t.tags = (uint16_t)s->ntags;
	t->t.tag_count = (unsigned char)td->tags_count;
	for (int i = 0; i < td->tags_count; i++)
		s->tags[s->ntags++] = td->tags[i];
	int per = per_index(s, td->per_constraints);
	if (per < 0)
		return -1;
	t->t.per = (uint16_t)per;

	const asn_TYPE_tag2member_t *map = NULL;
	int nmap = 0;
	switch (kind) {
	case SK_SEQUENCE: {
		const asn_SEQUENCE_specifics_t *ss = td->specifics;
		t->t.size = (uint32_t)ss->struct_size;
		t->t.opt_count = (uint16_t)ss->roms_count;
		if (ss->ext_before >= 0)
			t->t.flags |= SF_EXTENSIBLE;
		map = ss->tag2el;
		nmap = ss->tag2el_count;
		break;
	}
	case SK_CHOICE: {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		if (cs->canonical_order)
			return complain("CHOICE with a canonical order", td->name);
		t->t.size = (uint32_t)cs->struct_size;
		t->t.pres_offset = (uint32_t)cs->pres_offset;
		t->t.pres_size = (unsigned char)cs->pres_size;
		if (cs->ext_start >= 0)
			t->t.flags |= SF_EXTENSIBLE;
		map = cs->tag2el;
		nmap = cs->tag2el_count;
		break;
	}
	case SK_SEQUENCE_OF:
	case SK_SET_OF: {
		const asn_SET_OF_specifics_t *ls = td->specifics;
		t->t.size = (uint32_t)ls->struct_size;
		break;
	}
	case SK_INT: {
		const asn_INTEGER_specifics_t *is = td->specifics;
		if (is && is->field_unsigned)
			t->t.flags |= SF_UNSIGNED;
		break;
	}
	case SK_ENUM: {
		const asn_INTEGER_specifics_t *is = td->specifics;
		if (!is || is->map_count > GEN_MAX_ENUMS - s->nenums)
			return complain("ENUMERATED without its values", td->name);
		t->t.enum_first = (uint16_t)s->nenums;
		t->t.enum_count = (uint16_t)is->map_count;
		t->t.enum_root = (uint16_t)(is->extension ? is->extension - 1 : is->map_count);
		if (is->extension)
			t->t.flags |= SF_EXTENSIBLE;
		for (int i = 0; i < is->map_count; i++) {
			schema_enum *e = &s->enums[s->nenums++];
			*e = (schema_enum){ is->value2enum[i].nat_value, is->value2enum[i].enum_name,
				                since(key, is->value2enum[i].enum_name)->since };
			if (!e->version)
				return complain("value not in the version table", e->name);
		}
		break;
	}
	case SK_BITS:
		/* Its named bits, as the module lists them (by number). */
		t->t.enum_first = (uint16_t)s->nenums;
		for (const megaco_version_entry *e = megaco_version_table; e->type; e++) {
			if (strcmp(e->type, key) || e->value < 0)
				continue;
			if (s->nenums == GEN_MAX_ENUMS ||
			    (t->t.enum_count && s->enums[s->nenums - 1].value >= e->value))
				return complain("named bits out of order", e->member);
			s->enums[s->nenums++] = (schema_enum){ e->value, e->member, e->since };
			t->t.enum_count++;
		}
		if (t->t.enum_count)
			t->t.flags |= SF_NAMED_BITS;
		break;
	default: break;
	}
	if (nmap > GEN_MAX_MAPS - s->nmaps)
		return complain("too many tag map entries", td->name);
	t->t.tag_map = (uint16_t)s->nmaps;
	t->t.tag_map_count = (uint16_t)nmap;
	for (int i = 0; i < nmap; i++)
		s->maps[s->nmaps++] = (schema_tag2member){ map[i].el_tag, (uint16_t)map[i].el_no };
	if (schema_constructed(kind) && fill_members(s, ti) < 0)
		return -1;
	return ti;
}

/* Does a value of type from contain, at any depth, one of type target? */
static int reaches(const gen_schema *s, int from, int target, unsigned char *seen)
{
	const schema_type *t = &s->types[from].t;
	if (!schema_constructed(t->kind))
		return 0;
	for (int i = 0; i < t->count; i++) {
		int c = s->members[t->first + i].m.type;
		if (c == target)
			return 1;
		if (seen[c])
			continue;
		seen[c] = 1;
		if (reaches(s, c, target, seen))
			return 1;
	}
	return 0;
}

/*
 * Each type's newest version (its own members, values and bits, the version
 * from which a member may be absent, and its member types' newest), until
 * nothing changes; and a check that every value
 * and bit added after version 1 has a type in the schema that carries it.
 */
static int check_versions(gen_schema *s)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < s->ntypes; i++) {
			schema_type *t = &s->types[i].t;
			unsigned char n = 1;
			for (int k = 0; k < t->enum_count; k++)
				if (s->enums[t->enum_first + k].version > n)
					n = s->enums[t->enum_first + k].version;
			for (int k = 0; schema_constructed(t->kind) && k < t->count; k++) {
				const schema_member *m = &s->members[t->first + k].m;
				if (m->version > n)
					n = m->version;
				if (m->opt_since > n) /* mandatory before it */
					n = m->opt_since;
				if (s->types[m->type].t.newest > n)
					n = s->types[m->type].t.newest;
			}
			if (n != t->newest)
				t->newest = n, changed = 1;
		}
	}
	for (const megaco_version_entry *e = megaco_version_table; e->type; e++) {
		int found = e->value < 0 || e->since == 1;
		for (int i = 0; i < s->ntypes && !found; i++) {
			const schema_type *t = &s->types[i].t;
			for (int k = 0; strcmp(s->types[i].cname, e->type) == 0 && k < t->enum_count; k++)
				found |= !strcmp(s->enums[t->enum_first + k].name, e->member);
		}
		if (!found)
			return complain("a value or bit added after version 1 that no type carries", e->member);
	}
	return 0;
}

int gen_schema_build(gen_schema *s)
{
	memset(s, 0, sizeof *s);
	s->npers = 1; /* index 0: unconstrained */
	s->root = add_type(s, &asn_DEF_MegacoMessage, "MegacoMessage");
	if (s->root < 0)
		return -1;
	for (const gen_name_fact *f = gen_name_facts; f->type; f++) {
		int found = 0;
		for (int i = 0; i < s->nmembers && !found; i++)
			found = s->members[i].m.name_kind == f->kind && s->members[i].el->name &&
			        !strcmp(s->members[i].el->name, f->member) &&
			        !strcmp(s->types[s->members[i].parent].td->name, f->type);
		if (!found)
			return complain("named member not in the module", f->member);
	}
	/* One version member; a member mandatory in older modules is in the root. */
	int versions = 0;
	for (int i = 0; i < s->nmembers; i++) {
		const schema_member *m = &s->members[i].m;
		versions += (m->flags & SM_VERSION) != 0;
		if (m->opt_since > 1 && (m->flags & SM_EXTENSION))
			return complain("an extension addition mandatory in an older module", m->name);
	}
	if (versions != 1)
		return complain("not exactly one member holds the message version", gen_version_member);
	static unsigned char seen[GEN_MAX_TYPES];
	for (int i = 0; i < s->ntypes; i++) {
		memset(seen, 0, sizeof seen);
		if (reaches(s, i, i, seen))
			s->types[i].t.flags |= SF_RECURSIVE;
	}
	return check_versions(s);
}

void gen_offset_expr(const gen_schema *s, const gen_member *m, char *buf, size_t cap)
{
	if (!m->path[0])
		snprintf(buf, cap, "0");
	else
		snprintf(buf, cap, "offsetof(%s, %s)", s->types[m->parent].ctype, m->path);
}

void gen_size_expr(const gen_type *t, char *buf, size_t cap)
{
	snprintf(buf, cap, "sizeof(%s)", t->ctype);
}

void gen_pres_offset_expr(const gen_type *t, char *buf, size_t cap)
{
	snprintf(buf, cap, "offsetof(%s, present)", t->ctype);
}

void gen_pres_size_expr(const gen_type *t, char *buf, size_t cap)
{
	snprintf(buf, cap, "sizeof(((%s *)0)->present)", t->ctype);
}
