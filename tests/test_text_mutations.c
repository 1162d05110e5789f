/*
 * The text encoders never write another message: every BER corpus model,
 * changed in one place at a time the way a binary peer or an application may
 * send it (an absent optional element made present and empty, a present one
 * dropped, a list emptied, a CHOICE set to each other alternative, zeroed),
 * is written as pretty and compact text for versions 1 to 3. Each write is a
 * refusal, or text that our decoder reads back to the same model (the same
 * DER, or, where DER refuses the model, the same text again).
 *
 * Each kind of change (type, member or alternative, mutation) is tried at its
 * first few places in the corpus, which keeps the test to a second or two.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "schema.h"

static corpus *C;

typedef enum { MUT_ADD_EMPTY, MUT_DROP, MUT_EMPTY_LIST, MUT_ALT } mut_kind;
static const char *const mut_name[] = { "made present and empty", "dropped", "emptied",
	                                "set to alternative" };

typedef struct site {
	mut_kind kind;
	const asn_TYPE_descriptor_t *td; /* the SEQUENCE, list or CHOICE changed */
	int member;                      /* member index, or the alternative (1-based) */
	void *node;                      /* the SEQUENCE/CHOICE, or the list */
} site;

typedef struct sites {
	site *s;
	size_t n, cap;
} sites;

static void add_site(sites *ss, mut_kind k, const asn_TYPE_descriptor_t *td, int member,
                     void *node)
{
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 256;
		ss->s = realloc(ss->s, ss->cap * sizeof *ss->s);
		assert_non_null(ss->s);
	}
	ss->s[ss->n++] = (site){ k, td, member, node };
}

/* Every place of the model one mutation can change, in pre-order. */
static void find_sites(sites *ss, const asn_TYPE_descriptor_t *td, void *ptr, unsigned depth)
{
	if (depth > 64)
		return;
	if (td->free_struct == SEQUENCE_free) {
		for (int i = 0; i < td->elements_count; i++) {
			const asn_TYPE_member_t *m = &td->elements[i];
			void *p = (char *)ptr + m->memb_offset;
			if (m->flags & ATF_POINTER) {
				p = *(void **)p;
				if (!p) {
					/* A zeroed CHOICE is no alternative at all: model_check's business. */
					if (m->optional && m->type->free_struct != CHOICE_free)
						add_site(ss, MUT_ADD_EMPTY, td, i, ptr);
					continue;
				}
				if (m->optional)
					add_site(ss, MUT_DROP, td, i, ptr);
			}
			find_sites(ss, m->type, p, depth + 1);
		}
	} else if (td->free_struct == CHOICE_free) {
		const asn_CHOICE_specifics_t *cs = td->specifics;
		int present = schema_present_get((const char *)ptr + cs->pres_offset, cs->pres_size);
		for (int a = 1; a <= td->elements_count; a++)
			if (a != present)
				add_site(ss, MUT_ALT, td, a, ptr);
		if (present > 0 && present <= td->elements_count) {
			const asn_TYPE_member_t *m = &td->elements[present - 1];
			void *p = (char *)ptr + m->memb_offset;
			if (m->flags & ATF_POINTER)
				p = *(void **)p;
			if (p)
				find_sites(ss, m->type, p, depth + 1);
		}
	} else if (td->free_struct == SEQUENCE_OF_free) { /* the module has no SET OF */
		asn_anonymous_set_ *list = _A_SET_FROM_VOID(ptr);
		if (list->count > 0)
			add_site(ss, MUT_EMPTY_LIST, td, 0, ptr);
		for (int i = 0; i < list->count; i++)
			find_sites(ss, td->elements[0].type, list->array[i], depth + 1);
	}
}

/* What a mutation replaced, to put it back. */
typedef struct undo {
	unsigned char bytes[1024];
	size_t size;
	void *where;
} undo;

static void apply(megaco_message *msg, const site *s, undo *u)
{
	switch (s->kind) {
	case MUT_ADD_EMPTY:
	case MUT_DROP: {
		void **pp = (void **)((char *)s->node + s->td->elements[s->member].memb_offset);
		u->where = pp;
		u->size = sizeof *pp;
		memcpy(u->bytes, pp, sizeof *pp);
		/* Zeroed is what every empty asn1c type looks like; 512 covers the largest. */
		*pp = s->kind == MUT_DROP ? NULL : megaco_message_alloc(msg, 512);
		assert_true(s->kind == MUT_DROP || *pp);
		break;
	}
	case MUT_EMPTY_LIST: {
		asn_anonymous_set_ *list = _A_SET_FROM_VOID(s->node);
		u->where = &list->count;
		u->size = sizeof list->count;
		memcpy(u->bytes, &list->count, sizeof list->count);
		list->count = 0;
		break;
	}
	case MUT_ALT: {
		const asn_CHOICE_specifics_t *cs = s->td->specifics;
		u->where = s->node;
		u->size = (size_t)cs->struct_size;
		assert_true(u->size <= sizeof u->bytes);
		memcpy(u->bytes, s->node, u->size);
		memset(s->node, 0, u->size);
		schema_present_set((char *)s->node + cs->pres_offset, cs->pres_size, s->member);
		break;
	}
	}
}

static void revert(const undo *u) { memcpy(u->where, u->bytes, u->size); }

static int refusal(int rc)
{
	return rc == MEGACO_ERR_CONSTRAINT || rc == MEGACO_ERR_VERSION_MISMATCH ||
	       rc == MEGACO_ERR_UNSUPPORTED || rc == MEGACO_ERR_UNKNOWN_NAME ||
	       rc == MEGACO_ERR_TOO_DEEP;
}

/* Failures: one line per kind (key), with the first example's details. */
typedef struct report {
	char **key, **line;
	size_t n;
} report;

static void note(report *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(report *r, const char *key, const char *fmt, ...)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->key[i], key))
			return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	r->key = realloc(r->key, (r->n + 1) * sizeof *r->key);
	r->line = realloc(r->line, (r->n + 1) * sizeof *r->line);
	r->key[r->n] = strdup(key);
	r->line[r->n++] = strdup(buf);
}

/* Encodes to enc with the default options: status, and the bytes when OK. */
static int encode(const megaco_message *m, megaco_encoding enc, void **out, size_t *len,
                  megaco_error *err)
{
	*out = NULL;
	*len = 0;
	return megaco_encode_alloc(m, enc, NULL, out, len, err);
}

/* One model, one text encoding: a refusal or a faithful round trip. */
static int check_text(report *r, const char *kind, const char *what, const megaco_message *m,
                      megaco_encoding enc)
{
	void *text, *a, *b;
	size_t tlen, alen, blen;
	megaco_error err;
	int rc = encode(m, enc, &text, &tlen, &err);
	if (rc != MEGACO_OK) {
		if (!refusal(rc) || err.code != rc || !err.message[0])
			note(r, kind, "%s: %s: encode gave %s: %s", what, megaco_encoding_name(enc),
			     megaco_strerror(rc), err.message);
		return 0;
	}
	megaco_message *back = NULL;
	rc = megaco_decode(enc, text, tlen, NULL, &back, &err);
	if (rc != MEGACO_OK) {
		note(r, kind, "%s: %s: our text does not decode: %s (%u:%u): %.*s", what,
		     megaco_encoding_name(enc), err.message, err.line, err.column,
		     (int)(tlen < 600 ? tlen : 600), (const char *)text);
		megaco_buffer_free(text, NULL);
		return 1;
	}
	int arc = encode(m, MEGACO_ENC_BER, &a, &alen, &err);
	int brc = encode(back, MEGACO_ENC_BER, &b, &blen, &err);
	if (arc == MEGACO_ERR_VERSION_MISMATCH || brc == MEGACO_ERR_VERSION_MISMATCH) {
		/* BER's version gate is not the question here: compare as version 3. */
		MegacoMessage_t *mm = (MegacoMessage_t *)megaco_message_model_const(m);
		long v = mm->mess.version;
		mm->mess.version = 3;
		megaco_message_model(back)->mess.version = 3;
		megaco_buffer_free(a, NULL);
		megaco_buffer_free(b, NULL);
		arc = encode(m, MEGACO_ENC_BER, &a, &alen, &err);
		brc = encode(back, MEGACO_ENC_BER, &b, &blen, &err);
		mm->mess.version = v;
	}
	int bad = 0;
	if (arc == MEGACO_OK) {
		bad = brc != MEGACO_OK || alen != blen || memcmp(a, b, alen);
	} else { /* DER refuses the model: the text written again must be the same */
		megaco_buffer_free(b, NULL);
		megaco_message_model(back)->mess.version = megaco_message_version(m);
		brc = encode(back, enc, &b, &blen, &err);
		bad = brc != MEGACO_OK || blen != tlen || memcmp(b, text, tlen);
	}
	if (bad)
		note(r, kind, "%s: %s: reads back as another message (DER %d/%zu, again %d/%zu): %.*s",
		     what, megaco_encoding_name(enc), arc, alen, brc, blen,
		     (int)(tlen < 400 ? tlen : 400), (const char *)text);
	megaco_buffer_free(a, NULL);
	megaco_buffer_free(b, NULL);
	megaco_buffer_free(text, NULL);
	megaco_message_free(back);
	return bad;
}

/* Places tried per kind of change. */
#define PER_KIND 4

typedef struct seen {
	const asn_TYPE_descriptor_t *td;
	int member;
	mut_kind kind;
	unsigned count;
} seen;

static unsigned bump(seen *tab, size_t *n, size_t cap, const site *s)
{
	for (size_t i = 0; i < *n; i++)
		if (tab[i].td == s->td && tab[i].member == s->member && tab[i].kind == s->kind)
			return ++tab[i].count;
	assert_true(*n < cap);
	tab[(*n)++] = (seen){ s->td, s->member, s->kind, 1 };
	return 1;
}

static void test_mutated_models_round_trip_through_text(void **state)
{
	(void)state;
	report r = { NULL, NULL, 0 };
	size_t cap = 8192, nseen = 0, tried = 0, writes = 0;
	seen *tab = calloc(cap, sizeof *tab);
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *ce = &C->entries[i];
		const char *path = ce->path[MEGACO_ENC_BER - 1];
		if (!ce->valid || !path)
			continue;
		megaco_message *m = decode_file(path, MEGACO_ENC_BER, NULL, NULL);
		MegacoMessage_t *model = megaco_message_model(m);
		long version = model->mess.version;
		/* The model as it is first, in each version. */
		for (long v = 1; v <= 3; v++) {
			model->mess.version = v;
			char what[300];
			snprintf(what, sizeof what, "unchanged, v%ld (%s)", v, ce->name);
			check_text(&r, what, what, m, MEGACO_ENC_PRETTY);
			check_text(&r, what, what, m, MEGACO_ENC_COMPACT);
		}
		model->mess.version = version;
		sites ss = { NULL, 0, 0 };
		find_sites(&ss, &asn_DEF_MegacoMessage, model, 0);
		for (size_t k = 0; k < ss.n; k++) {
			const site *s = &ss.s[k];
			if (bump(tab, &nseen, cap, s) > PER_KIND)
				continue;
			undo u;
			apply(m, s, &u);
			const char *mname = s->kind == MUT_ALT
			                            ? s->td->elements[s->member - 1].name
			                            : s->td->elements[s->member].name;
			for (long v = 1; v <= 3; v++) {
				model->mess.version = v;
				char what[400], kind[200];
				snprintf(kind, sizeof kind, "%s.%s %s", s->td->name, mname ? mname : "[]",
				         mut_name[s->kind]);
				snprintf(what, sizeof what, "%s, v%ld (%s)", kind, v, ce->name);
				check_text(&r, kind, what, m, MEGACO_ENC_PRETTY);
				check_text(&r, kind, what, m, MEGACO_ENC_COMPACT);
				writes += 2;
			}
			model->mess.version = version;
			revert(&u);
			tried++;
		}
		free(ss.s);
		megaco_message_free(m);
	}
	free(tab);
	print_message("%zu changes (%zu kinds), %zu text writes\n", tried, nseen, writes);
	for (size_t i = 0; i < r.n; i++) {
		print_message("%s\n", r.line[i]);
		free(r.line[i]);
		free(r.key[i]);
	}
	free(r.line);
	free(r.key);
	assert_true(tried > 500);
	if (r.n)
		fail_msg("%zu changed models do not survive text", r.n);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutated_models_round_trip_through_text),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
