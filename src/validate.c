/*
 * Model validation: the structural check every encoder and the name
 * conversion rely on, and megaco_message_validate(), which adds what each
 * encoder checks on top. A model built or edited by hand can hold anything
 * its C types allow: a CHOICE's `present` of 0 or past its alternatives, a
 * buffer pointer of NULL with a size, a NULL list element, a required
 * pointer left NULL, a cycle. A visitor of schema_walk() refuses each
 * with a status and the element's path before any writer or converter
 * follows a pointer; those may then assume a sound tree. The same walk
 * finds the path of a node for an encoder's or the conversion's message.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "BIT_STRING.h"
#include "MegacoMessage.h"
#include "OBJECT_IDENTIFIER.h"
#include "asn_SET_OF.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"
#include "validate.h"

typedef struct check {
	megaco_error *err;
	/* model_path(): the node sought (a value of the type called want_name), its path's buffer */
	const void *want;
	const char *want_name;
	char *buf;
	size_t cap;
} check;

enum { FOUND = INT_MIN }; /* the walk reached c->want */

/* "transactions[0]...": the tail when it does not fit; every path's "mess.messageBody." left out. */
static void path_text(const schema_node *n, char *buf, size_t cap)
{
	char tmp[512];
	size_t end = sizeof tmp - 1;
	tmp[end] = 0;
	int cut = 0;
	for (; n && n->member; n = n->up) { /* the root has no member */
		char seg[64];
		int w = n->index < 0 ? snprintf(seg, sizeof seg, ".%s", n->member->name)
		                     : snprintf(seg, sizeof seg, "[%d]", n->index);
		if (w < 0 || (size_t)w >= sizeof seg || (size_t)w > end) {
			cut = 1;
			break;
		}
		end -= (size_t)w;
		memcpy(tmp + end, seg, (size_t)w);
	}
	const char *p = tmp + end;
	if (*p == '.')
		p++;
	if (!strncmp(p, "mess.messageBody.", 17))
		p += 17;
	size_t len = strlen(p), at = 0;
	if (len + 1 > cap) {
		p += len + 1 - (cap - 3);
		len = cap - 4;
		cut = 1;
	}
	if (cut) {
		memcpy(buf, "...", 3);
		at = 3;
	}
	memcpy(buf + at, p, len + 1);
}

static int bad(check *c, const schema_node *n, int code, const char *what)
{
	char path[128];
	path_text(n, path, sizeof path);
	return set_error(c->err, code, 0, "%s: %s", path[0] ? path : "message", what);
}

/* Member m of the value n (item index of a list, else -1), which holds nothing there. */
static int bad_child(check *c, const schema_node *n, const schema_member *m, int index,
                     const char *what)
{
	schema_node child = { m->type, NULL, m, index, n->depth + 1, n };
	return bad(c, &child, MEGACO_ERR_CONSTRAINT, what);
}

/*
 * The value n, before the walk follows any of its pointers: its own
 * buffers, counts and `present`, and that what it holds is there.
 */
static int check_value(const schema_node *n, void *ctx)
{
	check *c = ctx;
	const schema_type *t = &schema_types[n->type];
	const schema_member *m = &schema_members[t->first];
	const char *p = n->ptr;
	if (p == c->want && t->name && !strcmp(t->name, c->want_name)) {
		path_text(n, c->buf, c->cap);
		return FOUND;
	}
	if (schema_constructed(t->kind) && n->depth > MEGACO_DEPTH_CEILING)
		return bad(c, n, MEGACO_ERR_TOO_DEEP, "nested deeper than the limit (a cycle?)");
	switch (t->kind) {
	case SK_OCTETS:
	case SK_IA5:
	case SK_BITS: {
		const BIT_STRING_t *bs = (const void *)p; /* an OCTET_STRING_t up to its size */
		if (bs->size < 0 || (bs->size > 0 && !bs->buf))
			return bad(c, n, MEGACO_ERR_CONSTRAINT, "octet string with a NULL buffer or bad size");
		if (t->kind == SK_BITS &&
		    (bs->bits_unused < 0 || bs->bits_unused > 7 || (bs->size == 0 && bs->bits_unused != 0)))
			return bad(c, n, MEGACO_ERR_CONSTRAINT, "bit string with bad bits_unused");
		return WALK_CONTINUE;
	}
	case SK_OID: {
		const OBJECT_IDENTIFIER_t *v = (const void *)p;
		if (v->size < 0 || (v->size > 0 && !v->buf))
			return bad(c, n, MEGACO_ERR_CONSTRAINT, "value with a NULL buffer or bad size");
		return WALK_CONTINUE;
	}
	case SK_SEQUENCE:
	case SK_CHOICE: {
		int from = 0, to = t->count;
		if (t->kind == SK_CHOICE) {
			int present = schema_present_get(p + t->pres_offset, t->pres_size);
			if (present <= 0 || present > t->count) {
				char what[64];
				snprintf(what, sizeof what, "%s has no alternative (present = %d)", t->name,
				         present);
				return bad(c, n, MEGACO_ERR_CONSTRAINT, what);
			}
			from = present - 1;
			to = present;
		}
		for (int i = from; i < to; i++)
			if (!(m[i].flags & SM_OPTIONAL) && !schema_member_value(&m[i], p))
				return bad_child(c, n, &m[i], -1, "required element missing");
		return WALK_CONTINUE;
	}
	case SK_SEQUENCE_OF:
	case SK_SET_OF: {
		const asn_anonymous_set_ *list = (const void *)p;
		if (list->count < 0 || (list->count > 0 && !list->array))
			return bad(c, n, MEGACO_ERR_CONSTRAINT, "list with a bad count or no array");
		for (int i = 0; i < list->count; i++)
			if (!list->array[i])
				return bad_child(c, n, m, i, "NULL list element");
		return WALK_CONTINUE;
	}
	default: /* native integers, enumerations, BOOLEAN and NULL hold no pointer */
		return WALK_CONTINUE;
	}
}

int model_path_named(const struct MegacoMessage *model, const char *type_name, const void *node,
                     char *buf, size_t cap)
{
	check c = { NULL, node, type_name, buf, cap };
	if (cap)
		buf[0] = 0;
	return cap && schema_walk(SCHEMA_ROOT, (void *)(uintptr_t)model, check_value, &c) == FOUND;
}

int model_path(const struct MegacoMessage *model, const struct asn_TYPE_descriptor_s *td,
               const void *node, char *buf, size_t cap)
{
	return model_path_named(model, td ? td->name : "", node, buf, cap);
}

int model_check(const struct MegacoMessage *model, megaco_error *err)
{
	check c = { err, NULL, "", NULL, 0 };
	if (!model)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no model");
	return schema_walk(SCHEMA_ROOT, (void *)(uintptr_t)model, check_value, &c);
}

int megaco_message_validate(const megaco_message *msg, int version, const megaco_options *opts,
                            megaco_error *err)
{
	clear_error(err);
	if (!msg || !msg->model)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "NULL message");
	if (version == 0)
		version = megaco_message_version(msg);
	int rc = check_version(version, 0, err);
	if (rc != MEGACO_OK)
		return rc;
	/*
	 * As the encoders do (encode_into): a model a decoder built is sound (it
	 * may still hold a CHOICE of an unknown extension, present = 0, which
	 * each encoder refuses in its own turn); any other is checked first.
	 */
	if (!msg->sound && (rc = model_check(msg->model, err)) != MEGACO_OK)
		return rc;
	/* The message as if it carried `version`: a shallow copy of the top. */
	MegacoMessage_t top = *msg->model;
	top.mess.version = version;
	megaco_message as = *msg;
	as.model = &top;
	as.sound = 1; /* checked above, or built by a decoder */
	static const megaco_encoding all[] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT,
		                               MEGACO_ENC_BER, MEGACO_ENC_PER };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		unsigned char none;
		size_t len = 0;
		/* A zero-capacity buffer: every check runs, nothing is written. */
		rc = megaco_encode(&as, all[i], opts, &none, 0, &len, err);
		if (rc != MEGACO_OK && rc != MEGACO_ERR_BUFFER_TOO_SMALL) {
			error_prefix(err, megaco_encoding_name(all[i]));
			return rc;
		}
	}
	clear_error(err);
	return MEGACO_OK;
}
