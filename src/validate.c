/*
 * Model validation: the structural check every encoder and the name
 * conversion rely on, and megaco_message_validate(), which adds what each
 * encoder checks on top. A model built or edited by hand can hold anything
 * its C types allow: a CHOICE's `present` of 0 or past its alternatives, a
 * buffer pointer of NULL with a size, a NULL list element, a required
 * pointer left NULL, a cycle. The walk below, driven by the generated type
 * descriptors, refuses each with a status and the element's path before any
 * writer or converter follows a pointer; those may then assume a sound tree.
 */
#include <stdio.h>
#include <string.h>

#include "MegacoMessage.h"
#include "asn1_settle.h"
#include "internal.h"
#include "schema.h"
#include "validate.h"

#include "BIT_STRING.h"
#include "INTEGER.h"
#include "OCTET_STRING.h"
#include "asn_SEQUENCE_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"

/* The alternative (1-based) a CHOICE of descriptor td holds; 0 for none. */
static int choice_alt(const asn_TYPE_descriptor_t *td, const void *ptr)
{
	const asn_CHOICE_specifics_t *s = td->specifics;
	return schema_present_get((const char *)ptr + s->pres_offset, s->pres_size);
}

/* One level of the walk, linked to its parent for the error's path. */
typedef struct frame {
	const struct frame *up;
	const char *name; /* member name, NULL for a list element */
	int index;        /* list index, for a list element */
} frame;

typedef struct check {
	megaco_error *err;
	unsigned max_depth;
} check;

/* "mess.messageBody.transactions[0]...": the tail when it does not fit. */
static void path_text(const frame *f, char *buf, size_t cap)
{
	char tmp[512];
	size_t end = sizeof tmp - 1;
	tmp[end] = 0;
	int cut = 0;
	for (; f && f->up; f = f->up) { /* the root frame has no name */
		char seg[64];
		int n = f->name ? snprintf(seg, sizeof seg, ".%s", f->name)
		                : snprintf(seg, sizeof seg, "[%d]", f->index);
		if (n < 0 || (size_t)n >= sizeof seg || (size_t)n > end) {
			cut = 1;
			break;
		}
		end -= (size_t)n;
		memcpy(tmp + end, seg, (size_t)n);
	}
	const char *p = tmp + end;
	if (*p == '.')
		p++;
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

static int bad(check *c, const frame *f, int code, const char *what)
{
	char path[128];
	path_text(f, path, sizeof path);
	return set_error(c->err, code, 0, "%s: %s", path[0] ? path : "message", what);
}

static int check_node(check *c, const asn_TYPE_descriptor_t *td, const void *ptr,
                      const frame *f, unsigned depth);

/* A primitive: only buffers with a size can be wrong. */
static int check_leaf(check *c, const asn_TYPE_descriptor_t *td, const void *ptr,
                      const frame *f)
{
	if (td->free_struct == OCTET_STRING_free) {
		const OCTET_STRING_t *os = ptr;
		if (os->size < 0 || (os->size > 0 && !os->buf))
			return bad(c, f, MEGACO_ERR_CONSTRAINT, "octet string with a NULL buffer or bad size");
		const asn_OCTET_STRING_specifics_t *s = td->specifics;
		if (s && s->subvariant == ASN_OSUBV_BIT) {
			const BIT_STRING_t *bs = ptr;
			if (bs->bits_unused < 0 || bs->bits_unused > 7 ||
			    (bs->size == 0 && bs->bits_unused != 0))
				return bad(c, f, MEGACO_ERR_CONSTRAINT, "bit string with bad bits_unused");
		}
	} else if (td->free_struct == ASN__PRIMITIVE_TYPE_free) { /* INTEGER, OBJECT IDENTIFIER */
		const INTEGER_t *v = ptr;
		if (v->size < 0 || (v->size > 0 && !v->buf))
			return bad(c, f, MEGACO_ERR_CONSTRAINT, "value with a NULL buffer or bad size");
	}
	return MEGACO_OK;
}

/* Member i of td (at ptr): absent, a leaf, or a subtree. */
static inline int check_member(check *c, const asn_TYPE_descriptor_t *td, const void *ptr,
                               int i, const frame *f, unsigned depth)
{
	const asn_TYPE_member_t *m = &td->elements[i];
	const void *p = (const char *)ptr + m->memb_offset;
	if (m->flags & ATF_POINTER) {
		p = *(const void *const *)p;
		if (!p) {
			if (m->optional)
				return MEGACO_OK;
			frame child = { f, m->name, 0 };
			return bad(c, &child, MEGACO_ERR_CONSTRAINT, "required element missing");
		}
	}
	const asn_TYPE_descriptor_t *sub = m->type;
	/* Native integers, enumerations, BOOLEAN and NULL hold no pointer. */
	if (!sub->elements_count && sub->free_struct != OCTET_STRING_free &&
	    sub->free_struct != ASN__PRIMITIVE_TYPE_free)
		return MEGACO_OK;
	frame child = { f, m->name, 0 };
	return sub->elements_count ? check_node(c, sub, p, &child, depth + 1)
	                           : check_leaf(c, sub, p, &child);
}

/* A constructed node (elements_count > 0): SEQUENCE, CHOICE or list. */
static int check_node(check *c, const asn_TYPE_descriptor_t *td, const void *ptr,
                      const frame *f, unsigned depth)
{
	int rc;
	if (depth > c->max_depth)
		return bad(c, f, MEGACO_ERR_TOO_DEEP, "nested deeper than the limit (a cycle?)");
	if (td->free_struct == SEQUENCE_free) {
		for (int i = 0; i < td->elements_count; i++)
			if ((rc = check_member(c, td, ptr, i, f, depth)) != MEGACO_OK)
				return rc;
	} else if (td->free_struct == CHOICE_free) {
		int present = choice_alt(td, ptr);
		if (present <= 0 || present > td->elements_count) {
			char what[64];
			snprintf(what, sizeof what, "%s has no alternative (present = %d)", td->name,
			         present);
			return bad(c, f, MEGACO_ERR_CONSTRAINT, what);
		}
		return check_member(c, td, ptr, present - 1, f, depth);
	} else if (td->free_struct == SEQUENCE_OF_free /* the module has no SET OF */) {
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(ptr);
		if (list->count < 0 || (list->count > 0 && !list->array))
			return bad(c, f, MEGACO_ERR_CONSTRAINT, "list with a bad count or no array");
		const asn_TYPE_descriptor_t *item = td->elements[0].type;
		int sub = item->elements_count != 0;
		for (int i = 0; i < list->count; i++) {
			frame child = { f, NULL, i };
			if (!list->array[i])
				return bad(c, &child, MEGACO_ERR_CONSTRAINT, "NULL list element");
			rc = sub ? check_node(c, item, list->array[i], &child, depth + 1)
			         : check_leaf(c, item, list->array[i], &child);
			if (rc != MEGACO_OK)
				return rc;
		}
	}
	return MEGACO_OK;
}

/* ---- the path of one node, for encoders that fail without tracking it ---- */

typedef struct find {
	const asn_TYPE_descriptor_t *td;
	const void *ptr;
	char *buf;
	size_t cap;
	int found;
} find;

static void find_node(find *fd, const asn_TYPE_descriptor_t *td, const void *ptr,
                      const frame *f, unsigned depth);

static void find_member(find *fd, const asn_TYPE_descriptor_t *td, const void *ptr, int i,
                        const frame *f, unsigned depth)
{
	const asn_TYPE_member_t *m = &td->elements[i];
	const void *p = (const char *)ptr + m->memb_offset;
	if ((m->flags & ATF_POINTER) && !(p = *(const void *const *)p))
		return;
	frame child = { f, m->name, 0 };
	find_node(fd, m->type, p, &child, depth + 1);
}

/* Runs only on models model_check() accepted. */
static void find_node(find *fd, const asn_TYPE_descriptor_t *td, const void *ptr,
                      const frame *f, unsigned depth)
{
	if (fd->found || depth > MODEL_DEPTH_LIMIT)
		return;
	if (td == fd->td && ptr == fd->ptr) {
		path_text(f, fd->buf, fd->cap);
		fd->found = 1;
		return;
	}
	if (td->free_struct == SEQUENCE_free) {
		for (int i = 0; i < td->elements_count && !fd->found; i++)
			find_member(fd, td, ptr, i, f, depth);
	} else if (td->free_struct == CHOICE_free) {
		int present = choice_alt(td, ptr);
		if (present > 0 && present <= td->elements_count)
			find_member(fd, td, ptr, present - 1, f, depth);
	} else if (td->free_struct == SEQUENCE_OF_free /* the module has no SET OF */) {
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(ptr);
		for (int i = 0; i < list->count && !fd->found; i++) {
			frame child = { f, NULL, i };
			if (list->array[i])
				find_node(fd, td->elements[0].type, list->array[i], &child, depth + 1);
		}
	}
}

int model_path(const struct MegacoMessage *model, const struct asn_TYPE_descriptor_s *td,
               const void *node, char *buf, size_t cap)
{
	frame root = { NULL, NULL, 0 };
	find fd = { td, node, buf, cap, 0 };
	if (cap)
		buf[0] = 0;
	find_node(&fd, &asn_DEF_MegacoMessage, model, &root, 0);
	return fd.found;
}

int model_check(const struct MegacoMessage *model, megaco_error *err)
{
	asn1_descriptors_settle();
	check c = { err, MODEL_DEPTH_LIMIT };
	frame root = { NULL, NULL, 0 };
	if (!model)
		return set_error(err, MEGACO_ERR_INVALID_ARGUMENT, 0, "no model");
	return check_node(&c, &asn_DEF_MegacoMessage, model, &root, 0);
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
