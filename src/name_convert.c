/*
 * Transcoding layer: converts every name of a model between the binary form
 * (BER/PER: octets and numbers) and the text form (pretty/compact: words),
 * see docs/model.md and docs/transcoding.md. The descriptor-driven walker
 * (model_walk.h) finds the nodes that own names; termination IDs go through
 * tid_layout.c, package items and parameters through registry.c.
 *
 * Conversion never writes into existing buffers: it gives the owning struct
 * new ones from the arena. The walk converts a structural copy that it makes
 * as it goes (constructed nodes it visits are copied, primitive buffers and
 * skipped subtrees shared), so the original is never touched. That is how
 * both the public in-place conversion (atomic: the message is unchanged on
 * failure) and encoding a message in the other form (the caller's message
 * is never modified) work, in one pass over the model.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "DigitMapDescriptor.h"
#include "EventDM.h"
#include "EventParameter.h"
#include "EventSpec.h"
#include "IndAudDigitMapDescriptor.h"
#include "IndAudEventBufferDescriptor.h"
#include "IndAudEventsDescriptor.h"
#include "IndAudPackagesDescriptor.h"
#include "IndAudPropertyParm.h"
#include "IndAudSignal.h"
#include "IndAudStatisticsDescriptor.h"
#include "MegacoMessage.h"
#include "ObservedEvent.h"
#include "PackagesItem.h"
#include "PropertyParm.h"
#include "RequestedEvent.h"
#include "SigParameter.h"
#include "SecondRequestedEvent.h"
#include "Signal.h"
#include "StatisticsParameter.h"
#include "TerminationID.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SET_OF.h"

#include "model_walk.h"
#include "name_convert.h"
#include "registry.h"
#include "tid_layout.h"
#include "validate.h"

#define PATH_DEPTH 96

typedef struct conv {
	megaco_arena *arena;
	const megaco_tid_layout *layout;
	const megaco_registry *reg;
	int to_binary;
	megaco_error *err;
	/* where the walk is, for error messages */
	const char *seg[PATH_DEPTH];
	int idx[PATH_DEPTH];
	int counter[PATH_DEPTH];
	unsigned depth;
} conv;

static const char *const kind_names[] = { "property", "event", "signal", "statistic" };

/* --- structural copy, one level per visited node ------------------------------- */

/*
 * The walk copies as it goes: the root is copied before the walk, and each
 * visited constructed node gets copies of its constructed pointees and of
 * its list arrays and constructed list elements before the walker descends
 * into them. So every node the walk reaches, and may change, is a copy;
 * subtrees the walk skips stay shared with the original and are never
 * written. Inline constructed members live inside their (copied) parent.
 */
static int constructed(const asn_TYPE_descriptor_t *td)
{
	return td_is_sequence(td) || td_is_choice(td) || td_is_list(td);
}

static size_t struct_size(const asn_TYPE_descriptor_t *td)
{
	if (td_is_sequence(td))
		return (size_t)((const asn_SEQUENCE_specifics_t *)td->specifics)->struct_size;
	if (td_is_choice(td))
		return (size_t)((const asn_CHOICE_specifics_t *)td->specifics)->struct_size;
	return (size_t)((const asn_SET_OF_specifics_t *)td->specifics)->struct_size;
}

static int copy_pointee(megaco_arena *a, asn_TYPE_descriptor_t *td, void **slot)
{
	if (!*slot || !constructed(td))
		return 0; /* primitives are never written in place: share them */
	size_t n = struct_size(td);
	void *p = arena_alloc(a, n);
	if (!p)
		return -1;
	memcpy(p, *slot, n);
	*slot = p;
	return 0;
}

/* A list's own array, with copies of constructed elements. */
static int copy_list(megaco_arena *a, asn_TYPE_descriptor_t *elem_td, void *list_ptr)
{
	asn_anonymous_set_ *list = _A_SET_FROM_VOID(list_ptr);
	if (list->count <= 0) {
		list->array = NULL;
		list->count = list->size = 0;
		return 0;
	}
	void **arr = arena_alloc(a, (size_t)list->count * sizeof *arr);
	if (!arr)
		return -1;
	memcpy(arr, list->array, (size_t)list->count * sizeof *arr);
	list->array = arr;
	list->size = list->count;
	for (int i = 0; i < list->count; i++)
		if (copy_pointee(a, elem_td, &arr[i]))
			return -1;
	return 0;
}

static int copy_children(megaco_arena *a, asn_TYPE_descriptor_t *td, void *node)
{
	if (td_is_list(td))
		return copy_list(a, td->elements[0].type, node);
	int first = 0, last = td->elements_count;
	if (td_is_choice(td)) {
		int present = choice_present(td, node);
		if (present <= 0 || present > td->elements_count)
			return 0;
		first = present - 1;
		last = present;
	} else if (!td_is_sequence(td)) {
		return 0;
	}
	for (int i = first; i < last; i++) {
		asn_TYPE_member_t *m = &td->elements[i];
		if ((m->flags & ATF_POINTER) &&
		    copy_pointee(a, m->type, (void **)((char *)node + m->memb_offset)))
			return -1;
	}
	return 0;
}

/* --- errors ------------------------------------------------------------------ */

static void path_text(const conv *c, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	unsigned d = c->depth < PATH_DEPTH ? c->depth : PATH_DEPTH - 1;
	unsigned j = 1;
	/* Every path starts mess.messageBody; leave that out to keep messages short. */
	if (d >= 2 && c->seg[1] && c->seg[2] && !strcmp(c->seg[1], "mess") &&
	    !strcmp(c->seg[2], "messageBody"))
		j = 3;
	for (; j <= d && n + 1 < cap; j++) {
		int w = c->seg[j] ? snprintf(buf + n, cap - n, "%s%s", n ? "." : "", c->seg[j])
		                  : snprintf(buf + n, cap - n, "[%d]", c->idx[j]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	if (n >= cap)
		buf[cap - 1] = '\0';
}

static int fail(conv *c, int code, const char *what, const OCTET_STRING_t *os, const char *sub)
{
	char path[160];
	path_text(c, path, sizeof path);
	if (code == MEGACO_ERR_NOMEM)
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
	const char *q = c->to_binary ? "\"" : "";
	return set_error(c->err, code, 0, "%s %s%s%s has no %s form, at %s%s", what, q, shown, q,
	                 c->to_binary ? "binary" : "text", path, sub ? sub : "");
}

static int set_octets(conv *c, OCTET_STRING_t *os, const void *bytes, size_t n)
{
	char *p = arena_memdup(c->arena, bytes, n);
	if (!p)
		return MEGACO_ERR_NOMEM;
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
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, "termination ID", &t->id, NULL);
		WildcardField_t *fields = NULL;
		WildcardField_t **arr = NULL;
		if (nwild) {
			fields = arena_alloc(c->arena, nwild * sizeof *fields);
			arr = arena_alloc(c->arena, nwild * sizeof *arr);
			if (!fields || !arr)
				return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
			for (size_t i = 0; i < nwild; i++) {
				if (set_octets(c, &fields[i], &wild[i], 1))
					return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
				arr[i] = &fields[i];
			}
		}
		if (set_octets(c, &t->id, id, id_len))
			return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
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
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, "termination ID", &t->id, NULL);
	if (set_octets(c, &t->id, text, len))
		return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
	t->wildcard.list.array = NULL;
	t->wildcard.list.count = t->wildcard.list.size = 0;
	return MEGACO_OK;
}

/* A PkgdName of the given kind; *item gets the registry item for parameters. */
static int conv_pkgd(conv *c, OCTET_STRING_t *os, megaco_item_kind kind, const reg_item **item)
{
	if (c->to_binary) {
		uint8_t id[4];
		if (reg_name_to_id(c->reg, kind, (const char *)os->buf, (size_t)os->size, id, item))
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, kind_names[kind], os, NULL);
		return set_octets(c, os, id, 4) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
	}
	if (os->size != 4)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, kind_names[kind], os, NULL);
	char text[REG_NAME_MAX];
	size_t n = reg_id_to_name(c->reg, kind, os->buf, text, item);
	return set_octets(c, os, text, n) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
}

/* Parameter names of an event or signal; list is an A_SEQUENCE_OF. */
static int conv_params(conv *c, void *list, asn_TYPE_descriptor_t *elem_td, size_t name_offset,
                       const reg_item *item, const char *field)
{
	/* The elements may still be the original's: copy before writing. */
	if (copy_list(c->arena, elem_td, list))
		return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
	asn_anonymous_sequence_ *l = _A_SEQUENCE_FROM_VOID(list);
	for (int i = 0; i < l->count; i++) {
		OCTET_STRING_t *os = (OCTET_STRING_t *)((char *)l->array[i] + name_offset);
		char sub[48];
		snprintf(sub, sizeof sub, ".%s[%d]", field, i);
		if (c->to_binary) {
			uint8_t id[2];
			if (reg_param_to_id(item, (const char *)os->buf, (size_t)os->size, id))
				return fail(c, MEGACO_ERR_UNKNOWN_NAME, "parameter", os, sub);
			if (set_octets(c, os, id, 2))
				return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
		} else {
			if (os->size != 2)
				return fail(c, MEGACO_ERR_UNKNOWN_NAME, "parameter", os, sub);
			char text[REG_NAME_MAX];
			size_t n = reg_param_to_name(item, os->buf, text);
			if (set_octets(c, os, text, n))
				return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
		}
	}
	return MEGACO_OK;
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
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, "digit map name", os, NULL);
		uint8_t id[2] = { (uint8_t)(v >> 8), (uint8_t)v };
		return set_octets(c, os, id, 2) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
	}
	if (os->size != 2)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, "digit map name", os, NULL);
	char text[16];
	int n = os->buf[0] <= 9 && os->buf[1] <= 9
	            ? snprintf(text, sizeof text, "dialplan%u%u", os->buf[0], os->buf[1])
	            : snprintf(text, sizeof text, "x%02x%02x", os->buf[0], os->buf[1]);
	return set_octets(c, os, text, (size_t)n) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
}

/* An OPTIONAL DigitMapName: the pointee may be shared with the original model. */
static int conv_dialplan_ptr(conv *c, DigitMapName_t **slot)
{
	if (!*slot)
		return MEGACO_OK;
	DigitMapName_t *own = arena_alloc(c->arena, sizeof *own);
	if (!own)
		return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
	*own = **slot;
	*slot = own;
	return conv_dialplan(c, own);
}

static int conv_package(conv *c, OCTET_STRING_t *os)
{
	if (c->to_binary) {
		uint8_t id[2];
		if (reg_package_to_id(c->reg, (const char *)os->buf, (size_t)os->size, id))
			return fail(c, MEGACO_ERR_UNKNOWN_NAME, "package", os, NULL);
		return set_octets(c, os, id, 2) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
	}
	if (os->size != 2)
		return fail(c, MEGACO_ERR_UNKNOWN_NAME, "package", os, NULL);
	char text[REG_NAME_MAX];
	size_t n = reg_package_to_name(c->reg, os->buf, text);
	return set_octets(c, os, text, n) ? fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL) : 0;
}

#define PARAMS(c, s, listfield, type, namefield, item, label)                           \
	conv_params(c, &(s)->listfield, &asn_DEF_##type, offsetof(type##_t, namefield), item, label)

static int visit(const walk_node *n, void *vctx)
{
	conv *c = vctx;
	unsigned d = n->depth;
	c->depth = d;
	if (d < PATH_DEPTH) {
		if (n->member >= 0) {
			c->seg[d] = n->parent->elements[n->member].name;
		} else {
			c->seg[d] = NULL;
			c->idx[d] = c->counter[d]++;
		}
		if (td_is_list(n->td) && d + 1 < PATH_DEPTH)
			c->counter[d + 1] = 0;
	}
	asn_TYPE_descriptor_t *td = n->td;
	void *p = n->ptr;
	const reg_item *it = NULL;
	int rc;
	if (!constructed(td))
		return WALK_CONTINUE; /* leaves: the walker stops there anyway */
	if (copy_children(c->arena, td, p))
		return fail(c, MEGACO_ERR_NOMEM, NULL, NULL, NULL);
	if (td == &asn_DEF_TerminationID)
		return (rc = conv_tid(c, p)) ? rc : WALK_SKIP;
	if (td == &asn_DEF_PropertyParm)
		return (rc = conv_pkgd(c, &((PropertyParm_t *)p)->name, MEGACO_ITEM_PROPERTY, &it))
		           ? rc : WALK_SKIP;
	if (td == &asn_DEF_IndAudPropertyParm) /* its optional PropertyParm is visited next */
		return conv_pkgd(c, &((IndAudPropertyParm_t *)p)->name, MEGACO_ITEM_PROPERTY, &it);
	if (td == &asn_DEF_RequestedEvent) { /* embedded events and signals follow */
		RequestedEvent_t *e = p;
		if ((rc = conv_pkgd(c, &e->pkgdName, MEGACO_ITEM_EVENT, &it)))
			return rc;
		return PARAMS(c, e, evParList, EventParameter, eventParameterName, it, "evParList");
	}
	if (td == &asn_DEF_SecondRequestedEvent) {
		SecondRequestedEvent_t *e = p;
		if ((rc = conv_pkgd(c, &e->pkgdName, MEGACO_ITEM_EVENT, &it)))
			return rc;
		return PARAMS(c, e, evParList, EventParameter, eventParameterName, it, "evParList");
	}
	if (td == &asn_DEF_ObservedEvent) {
		ObservedEvent_t *e = p;
		if ((rc = conv_pkgd(c, &e->eventName, MEGACO_ITEM_EVENT, &it)) ||
		    (rc = PARAMS(c, e, eventParList, EventParameter, eventParameterName, it,
		                 "eventParList")))
			return rc;
		return WALK_SKIP;
	}
	if (td == &asn_DEF_EventSpec) {
		EventSpec_t *e = p;
		if ((rc = conv_pkgd(c, &e->eventName, MEGACO_ITEM_EVENT, &it)) ||
		    (rc = PARAMS(c, e, eventParList, EventParameter, eventParameterName, it,
		                 "eventParList")))
			return rc;
		return WALK_SKIP;
	}
	if (td == &asn_DEF_Signal) {
		Signal_t *s = p;
		if ((rc = conv_pkgd(c, &s->signalName, MEGACO_ITEM_SIGNAL, &it)) ||
		    (rc = PARAMS(c, s, sigParList, SigParameter, sigParameterName, it, "sigParList")))
			return rc;
		return WALK_SKIP;
	}
	if (td == &asn_DEF_IndAudSignal)
		rc = conv_pkgd(c, &((IndAudSignal_t *)p)->signalName, MEGACO_ITEM_SIGNAL, &it);
	else if (td == &asn_DEF_IndAudEventsDescriptor)
		rc = conv_pkgd(c, &((IndAudEventsDescriptor_t *)p)->pkgdName, MEGACO_ITEM_EVENT, &it);
	else if (td == &asn_DEF_IndAudEventBufferDescriptor)
		rc = conv_pkgd(c, &((IndAudEventBufferDescriptor_t *)p)->eventName, MEGACO_ITEM_EVENT,
		               &it);
	else if (td == &asn_DEF_StatisticsParameter)
		rc = conv_pkgd(c, &((StatisticsParameter_t *)p)->statName, MEGACO_ITEM_STATISTIC, &it);
	else if (td == &asn_DEF_IndAudStatisticsDescriptor)
		rc = conv_pkgd(c, &((IndAudStatisticsDescriptor_t *)p)->statName, MEGACO_ITEM_STATISTIC,
		               &it);
	else if (td == &asn_DEF_PackagesItem)
		rc = conv_package(c, &((PackagesItem_t *)p)->packageName);
	else if (td == &asn_DEF_IndAudPackagesDescriptor)
		rc = conv_package(c, &((IndAudPackagesDescriptor_t *)p)->packageName);
	else if (td == &asn_DEF_DigitMapDescriptor)
		rc = conv_dialplan_ptr(c, &((DigitMapDescriptor_t *)p)->digitMapName);
	else if (td == &asn_DEF_IndAudDigitMapDescriptor)
		rc = conv_dialplan_ptr(c, &((IndAudDigitMapDescriptor_t *)p)->digitMapName);
	else if (td == &asn_DEF_EventDM)
		rc = ((EventDM_t *)p)->present == EventDM_PR_digitMapName
		         ? conv_dialplan(c, &((EventDM_t *)p)->choice.digitMapName) : MEGACO_OK;
	else
		return WALK_CONTINUE;
	return rc ? rc : WALK_SKIP;
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
	if (!c->reg)
		return set_error(err, MEGACO_ERR_NOMEM, 0, "out of memory");
	int rc = model_walk(&asn_DEF_MegacoMessage, copy, visit, c);
	if (rc < 0)
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
	tmp.form = enc == MEGACO_ENC_PRETTY || enc == MEGACO_ENC_COMPACT ? MEGACO_NAMES_TEXT
	                                                                 : MEGACO_NAMES_BINARY;
	int rc = convert_copy(&tmp.arena, msg->model, tmp.form, o, &tmp.model, err);
	if (rc == MEGACO_OK) {
		switch (enc) {
		case MEGACO_ENC_BER:
			rc = ber_encode_message(&tmp, o, buf, cap, out_len, err);
			break;
		case MEGACO_ENC_PER:
		case MEGACO_ENC_APER:
			rc = per_encode_message(&tmp, o, enc == MEGACO_ENC_APER, buf, cap, out_len, err);
			break;
		default:
			rc = text_encode_message(&tmp, enc == MEGACO_ENC_COMPACT, o, buf, cap,
			                         out_len, err);
			break;
		}
	}
	arena_reset_blocks(&tmp.arena);
	return rc;
}
