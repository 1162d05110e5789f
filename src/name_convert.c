/*
 * Transcoding layer: converts every name of a model between the binary form
 * (BER/PER: octets and numbers) and the text form (pretty/compact: words),
 * see docs/model.md and docs/transcoding.md. A walk over the const schema
 * (schema.h) finds the members that carry names (schema_member.name_kind);
 * termination IDs go through tid_layout.c, package items and parameters
 * through registry.c.
 *
 * Conversion never writes into existing buffers: it gives the owning struct
 * new ones from the arena. The walk converts a structural copy that it makes
 * as it goes (constructed nodes and the names it converts are copied, other
 * primitives shared), so the original is never touched. That is how
 * both the public in-place conversion (atomic: the message is unchanged on
 * failure) and encoding a message in the other form (the caller's message
 * is never modified) work, in one pass over the model.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "MegacoMessage.h"
#include "TerminationID.h"
#include "asn_SET_OF.h"

#include "megaco_schema.h"
#include "name_convert.h"
#include "registry.h"
#include "schema.h"
#include "tid_layout.h"
#include "validate.h"

typedef struct conv {
	megaco_arena *arena;
	const megaco_tid_layout *layout;
	const megaco_registry *reg;
	int to_binary;
	megaco_error *err;
	const MegacoMessage_t *root; /* the copy being converted */
	const void *at;              /* the name being converted, of schema type at_type */
	unsigned at_type;
} conv;

/* --- errors ------------------------------------------------------------------ */

static int fail(conv *c, int code, const char *what, const OCTET_STRING_t *os)
{
	if (code == MEGACO_ERR_NOMEM || !c->err) /* (no record: no message to write) */
		return set_error(c->err, code, 0, "out of memory");
	char shown[48];
	size_t n = 0;
	for (int i = 0; os && i < os->size && n + 4 < sizeof shown; i++) {
		unsigned char ch = os->buf[i];
		if (c->to_binary && ch >= 0x20 && ch < 0x7F)
			shown[n++] = (char)ch;
		else
			n += (size_t)snprintf(shown + n, sizeof shown - n, "%s%02X", n ? " " : "", ch);
	}
	shown[n] = '\0';
	const char *q = c->to_binary ? "\"" : "", *form = c->to_binary ? "binary" : "text";
	/* The path gets the room the rest leaves (model_path_named() cuts its front). */
	char path[sizeof c->err->message];
	int head = snprintf(NULL, 0, "%s %s%s%s has no %s form, at ", what, q, shown, q, form);
	model_path_named(c->root, schema_types[c->at_type].name, c->at, path,
	                 sizeof path - (size_t)head);
	return set_error(c->err, code, 0, "%s %s%s%s has no %s form, at %s", what, q, shown, q, form,
	                 path);
}

/* Gives os a copy of the n octets at bytes: MEGACO_OK, or NOMEM having said so. */
static int set_octets(conv *c, OCTET_STRING_t *os, const void *bytes, size_t n)
{
	char *p = arena_memdup(c->arena, bytes, n);
	if (!p)
		return fail(c, MEGACO_ERR_NOMEM, NULL, NULL);
	os->buf = (uint8_t *)p;
	os->size = (int)n;
	return MEGACO_OK;
}

/* --- the fields ---------------------------------------------------------------- */

static int conv_tid(conv *c, TerminationID_t *t)
{
	if (c->to_binary) {
		uint8_t id[MEGACO_TID_MAX_OCTETS], wild[MEGACO_TID_MAX_LEVELS];
		size_t id_len, nwild;
		if (t->wildcard.list.count != 0 ||
		    tid_text_to_binary(c->layout, (const char *)t->id.buf, (size_t)t->id.size, id, &id_len,
		                       wild, sizeof wild, &nwild) != MEGACO_OK)
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, "termination ID", &t->id);
		WildcardField_t *fields = NULL;
		WildcardField_t **arr = NULL;
		if (nwild) {
			fields = arena_alloc(c->arena, nwild * sizeof *fields);
			arr = arena_alloc(c->arena, nwild * sizeof *arr);
			if (!fields || !arr)
				return fail(c, MEGACO_ERR_NOMEM, NULL, NULL);
			for (size_t i = 0; i < nwild; i++) {
				if (set_octets(c, &fields[i], &wild[i], 1))
					return MEGACO_ERR_NOMEM;
				arr[i] = &fields[i];
			}
		}
		if (set_octets(c, &t->id, id, id_len))
			return MEGACO_ERR_NOMEM;
		t->wildcard.list.array = arr;
		t->wildcard.list.count = t->wildcard.list.size = (int)nwild;
		return MEGACO_OK;
	}
	uint8_t wild[MEGACO_TID_MAX_LEVELS];
	size_t nwild = (size_t)t->wildcard.list.count;
	char text[TID_TEXT_MAX];
	size_t len;
	int ok = nwild <= MEGACO_TID_MAX_LEVELS;
	for (size_t i = 0; ok && i < nwild; i++) {
		const WildcardField_t *w = t->wildcard.list.array[i];
		ok = w && w->size == 1;
		if (ok)
			wild[i] = w->buf[0];
	}
	if (!ok || tid_binary_to_text(c->layout, t->id.buf, (size_t)t->id.size, wild, nwild, text,
	                              &len) != MEGACO_OK)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, "termination ID", &t->id);
	if (set_octets(c, &t->id, text, len))
		return MEGACO_ERR_NOMEM;
	t->wildcard.list.array = NULL;
	t->wildcard.list.count = t->wildcard.list.size = 0;
	return MEGACO_OK;
}

/*
 * A name of the registry: a PkgdName of kind SN_PROPERTY..SN_STATISTIC (4
 * octets; *item gets the registry's item, for the parameters below it), a
 * package name or a parameter name of *item (2 octets).
 */
static int conv_reg(conv *c, OCTET_STRING_t *os, unsigned sn, const reg_item **item)
{
	static const char *const what[] = { [SN_PACKAGE] = "package", [SN_PROPERTY] = "property",
		[SN_EVENT] = "event", [SN_SIGNAL] = "signal", [SN_STATISTIC] = "statistic",
		[SN_EVENT_PARAM] = "parameter", [SN_SIGNAL_PARAM] = "parameter" };
	_Static_assert(SN_EVENT - SN_PROPERTY == MEGACO_ITEM_EVENT && SN_SIGNAL - SN_PROPERTY ==
	               MEGACO_ITEM_SIGNAL && SN_STATISTIC - SN_PROPERTY == MEGACO_ITEM_STATISTIC,
	               "SN_PROPERTY.. in megaco_item_kind's order");
	megaco_item_kind kind = (megaco_item_kind)(sn - SN_PROPERTY);
	int pkgd = sn >= SN_PROPERTY && sn <= SN_STATISTIC, param = !pkgd && sn != SN_PACKAGE;
	const char *name = (const char *)os->buf;
	size_t n = (size_t)os->size, len = pkgd ? 4 : 2;
	if (c->to_binary) {
		uint8_t id[4];
		if (pkgd    ? reg_name_to_id(c->reg, kind, name, n, id, item)
		    : param ? reg_param_to_id(*item, name, n, id)
		            : reg_package_to_id(c->reg, name, n, id))
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, what[sn], os);
		return set_octets(c, os, id, len);
	}
	if (n != len)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, what[sn], os);
	char text[REG_NAME_MAX];
	n = pkgd    ? reg_id_to_name(c->reg, kind, os->buf, text, item)
	    : param ? reg_param_to_name(*item, os->buf, text)
	            : reg_package_to_name(c->reg, os->buf, text);
	return set_octets(c, os, text, n);
}

/*
 * Digit map names: binary octets A, B (each 0..9) <-> "dialplanAB", as
 * Erlang megaco; other values <-> the fallback "xHHHH". Text "dialplanB"
 * and "dialplan" are read as 0, B and 0, 0 too.
 */
static int conv_dialplan(conv *c, OCTET_STRING_t *os)
{
	if (c->to_binary) {
		const char *s = (const char *)os->buf;
		size_t n = (size_t)os->size;
		long v = reg_fallback_value(s, n);
		if (v < 0 && n >= 8 && n <= 10 && strncasecmp(s, "dialplan", 8) == 0) {
			v = 0;
			for (size_t i = 8; i < n && v >= 0; i++)
				v = s[i] >= '0' && s[i] <= '9' ? v * 256 + (s[i] - '0') : -1;
		}
		if (v < 0)
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, "digit map name", os);
		uint8_t id[2] = { (uint8_t)(v >> 8), (uint8_t)v };
		return set_octets(c, os, id, 2);
	}
	if (os->size != 2)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, "digit map name", os);
	char text[16];
	int n = os->buf[0] <= 9 && os->buf[1] <= 9
	            ? snprintf(text, sizeof text, "dialplan%u%u", os->buf[0], os->buf[1])
	            : snprintf(text, sizeof text, "x%02x%02x", os->buf[0], os->buf[1]);
	return set_octets(c, os, text, (size_t)n);
}

static int walk(conv *c, unsigned type, char *p, const reg_item *item);

/*
 * Member m of a node, at parent + m->offset: converts the name it carries,
 * or walks into it. A pointee either may write is copied first. *item is
 * the registry's event or signal named in the node so far, for the
 * parameters below it.
 */
static int member(conv *c, const schema_member *m, char *parent, const reg_item **item)
{
	const schema_type *t = &schema_types[m->type];
	char *v = parent + m->offset;
	if (!m->name_kind && !schema_constructed(t->kind))
		return MEGACO_OK; /* a primitive without a name: shared, never written */
	if (m->flags & SM_POINTER) {
		char **slot = (char **)(void *)v;
		if (!*slot)
			return MEGACO_OK;
		if (!(v = *slot = arena_memdup(c->arena, *slot, t->size)))
			return fail(c, MEGACO_ERR_NOMEM, NULL, NULL);
	}
	c->at = v;
	c->at_type = m->type;
	switch (m->name_kind) {
	case SN_NONE:
	case SN_SDP: return walk(c, m->type, v, *item);
	case SN_TERMINATION_ID: return conv_tid(c, (TerminationID_t *)(void *)v);
	case SN_DIGIT_MAP: return conv_dialplan(c, (void *)v);
	default: return conv_reg(c, (void *)v, m->name_kind, item);
	}
}

/* The constructed value of `type` at p, a copy the walk may write. */
static int walk(conv *c, unsigned type, char *p, const reg_item *item)
{
	const schema_type *t = &schema_types[type];
	const schema_member *m = &schema_members[t->first];
	int rc = MEGACO_OK;
	if (t->kind == SK_SEQUENCE_OF || t->kind == SK_SET_OF) {
		asn_anonymous_set_ *l = (asn_anonymous_set_ *)(void *)p;
		if (l->count <= 0) { /* no array shared with the original */
			l->array = NULL;
			l->count = l->size = 0;
			return MEGACO_OK;
		}
		void **arr = (void **)(void *)arena_memdup(c->arena, l->array,
		                                           (size_t)l->count * sizeof *arr);
		if (!arr)
			return fail(c, MEGACO_ERR_NOMEM, NULL, NULL);
		l->array = arr;
		l->size = l->count;
		for (int i = 0; i < l->count && rc == MEGACO_OK; i++)
			rc = member(c, m, (char *)&arr[i], &item);
	} else if (t->kind == SK_CHOICE) {
		int present = schema_present_get(p + t->pres_offset, t->pres_size);
		if (present > 0 && present <= t->count)
			rc = member(c, m + present - 1, p, &item);
	} else {
		for (unsigned i = 0; i < t->count && rc == MEGACO_OK; i++)
			rc = member(c, m + i, p, &item);
	}
	return rc;
}

/* Converts a copy of model into `to` form; *out gets the converted copy. */
static int convert_copy(megaco_arena *a, const MegacoMessage_t *model, megaco_name_form to,
                        const megaco_options *o, MegacoMessage_t **out, megaco_error *err)
{
	/* a->failed then tells of this conversion only: one that failed before
	 * (and left the message as it was) must not fail every later one. */
	a->failed = 0;
	conv *c = arena_alloc(a, sizeof *c); /* large-ish: keep it off the stack */
	MegacoMessage_t *copy = c ? arena_alloc(a, sizeof *copy) : NULL;
	if (!copy)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	memcpy(copy, model, sizeof *copy);
	c->arena = a;
	c->layout = tid_layout_or_default(o->tid_layout);
	c->reg = reg_or_default(o->registry);
	c->to_binary = to == MEGACO_NAMES_BINARY;
	c->err = err;
	c->root = copy;
	int rc = walk(c, SCHEMA_ROOT, (char *)copy, NULL);
	if (rc != MEGACO_OK)
		return rc;
	if (a->failed)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	*out = copy;
	return MEGACO_OK;
}

int megaco_message_convert_names(megaco_message *msg, megaco_name_form to,
                                 const megaco_options *opts, megaco_error *err)
{
	megaco_options store;
	const megaco_options *o = options_resolve(opts, &store);
	clear_error(err);
	if (!o)
		return options_bad_version(opts, err);
	if (!msg || (to != MEGACO_NAMES_BINARY && to != MEGACO_NAMES_TEXT))
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL message or unknown form");
	if (msg->form == to)
		return MEGACO_OK;
	MegacoMessage_t *copy;
	int rc = msg->sound ? MEGACO_OK : model_check(msg->model, err);
	if (rc != MEGACO_OK)
		return rc;
	rc = convert_copy(&msg->arena, msg->model, to, o, &copy, err);
	if (rc != MEGACO_OK)
		return rc;
	msg->model = copy;
	msg->form = to;
	return MEGACO_OK;
}

int names_encode_converted(const megaco_message *msg, megaco_encoding enc,
                           const megaco_options *o, unsigned char *buf, size_t cap,
                           size_t *out_len, megaco_error *err)
{
	megaco_message tmp;
	memset(&tmp, 0, sizeof tmp);
	arena_init(&tmp.arena, o->allocator, 4096);
	tmp.form = enc_name_form(enc);
	tmp.sound = 1; /* a copy of msg, which has passed model_check(), with new names */
	int rc = convert_copy(&tmp.arena, msg->model, tmp.form, o, &tmp.model, err);
	/* In enc's name form now: megaco_encode's own dispatch (its version gate runs again). */
	if (rc == MEGACO_OK)
		rc = megaco_encode(&tmp, enc, o, buf, cap, out_len, err);
	arena_reset_blocks(&tmp.arena);
	return rc;
}
