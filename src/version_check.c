/*
 * Version gate (see version_check.h): one model walk over the elements that
 * are newer than version 1. Which those are, and since when, is the one
 * version table (version_table.h, generated from the v1, v2 and v3 ASN.1
 * modules by tools/gen/version_table_gen.c): every member, ENUMERATED value
 * and named bit of the v3 module with the first version that has it. The
 * text decoder checks the same table's constants as it builds.
 *
 * Besides members, the walk checks values of two types (MuxType nx64k, a v2
 * ENUMERATED value; NotifyCompletion onIteration, a v3 bit of a type every
 * version has), and one rule the table cannot hold: EventsDescriptor and
 * SecondEventsDescriptor requestID are OPTIONAL since v2 but mandatory in v1
 * (IG 6.82 was withdrawn for v1), so a v1 message needs them.
 */
#include "version_check.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "BIT_STRING.h"
#include "EventsDescriptor.h"
#include "MegacoMessage.h"
#include "MuxType.h"
#include "NotifyCompletion.h"
#include "SecondEventsDescriptor.h"
#include "asn1_settle.h"
#include "asn_SET_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "internal.h"
#include "model_walk.h"
#include "version_table.h"

/*
 * The check is compiled once into a table per reachable type that keeps only
 * the members that can matter: extension members, and members whose type can
 * (transitively) hold one or is one of the special types above. Everything
 * else (names, octet strings, numbers, whole subtrees such as
 * LocalRemoteDescriptor) is never visited, which is most of a message. The
 * walk stays pre-order over what is left, so the first element reported is
 * the one a full walk would report.
 */
enum { SPECIAL_NONE, SPECIAL_MUX, SPECIAL_NOTIFY_COMPLETION, SPECIAL_EVENTS_REQUEST_ID };
enum { KIND_LEAF, KIND_SEQUENCE, KIND_CHOICE, KIND_LIST };

typedef struct vc_member {
	int offset;
	unsigned char pointer;  /* ATF_POINTER: absent when NULL */
	unsigned char since;    /* 2 or 3 for a member newer than v1, else 0 */
	short index;            /* member number (CHOICE: present - 1) */
	int type;               /* index in types[] */
} vc_member;

typedef struct vc_type {
	const asn_TYPE_descriptor_t *td;
	unsigned char kind, special, relevant;
	int first, count;       /* its members in members[] (a list: one, the item) */
} vc_type;

/* The v3 module has 300-odd types; these bounds leave room and are checked. */
#define MAX_TYPES 1024
#define MAX_MEMBERS 4096

static struct {
	vc_type types[MAX_TYPES];
	vc_member members[MAX_MEMBERS];
	int ntypes, nmembers, ok;
} tab; /* written once under pthread_once, read-only afterwards */

/* The version table's first version of member of the type asn1c calls type (C name). */
static int since_of(const char *type, const char *member)
{
	for (int i = 0; i < MEGACO_VERSION_TABLE_SIZE; i++)
		if (!strcmp(megaco_version_table[i].type, type) &&
		    !strcmp(megaco_version_table[i].member, member))
			return megaco_version_table[i].since;
	return 0;
}

/*
 * Index of td in the table, adding it (and, depth first, its members'
 * types). cname is the type's C name, as the version table has it: an
 * inline type (asn1c names its descriptor after the member, lower case
 * first) is Parent__member.
 */
static int add_type(const asn_TYPE_descriptor_t *td, const char *cname)
{
	for (int i = 0; i < tab.ntypes; i++)
		if (tab.types[i].td == td)
			return i;
	if (tab.ntypes == MAX_TYPES)
		return -1;
	int t = tab.ntypes++;
	vc_type *vt = &tab.types[t];
	vt->td = td;
	vt->special = td == &asn_DEF_MuxType                   ? SPECIAL_MUX
	              : td == &asn_DEF_NotifyCompletion        ? SPECIAL_NOTIFY_COMPLETION
	              : td == &asn_DEF_EventsDescriptor ||
	                        td == &asn_DEF_SecondEventsDescriptor
	                  ? SPECIAL_EVENTS_REQUEST_ID
	                  : SPECIAL_NONE;
	vt->kind = td_is_sequence(td) ? KIND_SEQUENCE
	           : td_is_choice(td) ? KIND_CHOICE
	           : td_is_list(td)   ? KIND_LIST
	                              : KIND_LEAF;
	if (vt->kind == KIND_LEAF)
		return t;
	int count = vt->kind == KIND_LIST ? 1 : td->elements_count;
	if (tab.nmembers + count > MAX_MEMBERS)
		return -1;
	vt->first = tab.nmembers;
	vt->count = count;
	tab.nmembers += count;
	for (int i = 0; i < count; i++) {
		const asn_TYPE_member_t *m = &td->elements[i];
		char sub_name[128];
		int n = islower((unsigned char)m->type->name[0])
		                ? snprintf(sub_name, sizeof sub_name, "%s__%s", cname, m->name)
		                : snprintf(sub_name, sizeof sub_name, "%s", m->type->name);
		if (n < 0 || (size_t)n >= sizeof sub_name)
			return -1; /* compile() reports it: the tables say "too small" */
		int sub = add_type(m->type, sub_name);
		if (sub < 0)
			return -1;
		vc_member *vm = &tab.members[tab.types[t].first + i];
		vm->offset = m->memb_offset;
		vm->pointer = (m->flags & ATF_POINTER) != 0;
		vm->index = (short)i;
		vm->type = sub;
		if (tab.types[t].kind != KIND_LIST)
			vm->since = (unsigned char)since_of(cname, m->name);
	}
	return t;
}

/* A type is relevant if it is special or any member is an extension or relevant. */
static void mark_relevant(void)
{
	for (int t = 0; t < tab.ntypes; t++)
		tab.types[t].relevant = tab.types[t].special != SPECIAL_NONE;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int t = 0; t < tab.ntypes; t++) {
			vc_type *vt = &tab.types[t];
			for (int i = 0; i < vt->count && !vt->relevant; i++) {
				const vc_member *vm = &tab.members[vt->first + i];
				if (vm->since || tab.types[vm->type].relevant)
					vt->relevant = changed = 1;
			}
		}
	}
	/* Drop irrelevant members of SEQUENCEs; CHOICEs index members by present - 1. */
	for (int t = 0; t < tab.ntypes; t++) {
		vc_type *vt = &tab.types[t];
		if (vt->kind != KIND_SEQUENCE)
			continue;
		int kept = 0;
		for (int i = 0; i < vt->count; i++) {
			vc_member vm = tab.members[vt->first + i];
			if (vm.since || tab.types[vm.type].relevant)
				tab.members[vt->first + kept++] = vm;
		}
		vt->count = kept;
	}
}

static void compile(void)
{
	asn1_descriptors_settle();
	tab.ok = add_type(&asn_DEF_MegacoMessage, asn_DEF_MegacoMessage.name) == 0;
	if (tab.ok)
		mark_relevant();
}

typedef struct {
	int version;
	megaco_error *err;
} check_ctx;

static int mismatch(check_ctx *c, const vc_type *parent, const vc_member *vm)
{
	const char *member = parent->td->elements[vm->index].name;
	return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
	                 "%s.%s is a v%d element; the message is version %d", parent->td->name,
	                 member, vm->since, c->version);
}

static int check_special(check_ctx *c, const vc_type *vt, const void *p)
{
	switch (vt->special) {
	case SPECIAL_MUX:
		if (c->version < MEGACO_SINCE_MuxType_nx64k && *(const long *)p == MuxType_nx64k)
			return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
			                 "MuxType nx64k is a v%d value; the message is version %d",
			                 MEGACO_SINCE_MuxType_nx64k, c->version);
		break;
	case SPECIAL_NOTIFY_COMPLETION:
		if (c->version < MEGACO_SINCE_NotifyCompletion_onIteration) {
			const BIT_STRING_t *bs = p;
			int bit = NotifyCompletion_onIteration;
			if (bs->size > bit / 8 && (bs->buf[bit / 8] & (0x80 >> (bit % 8))))
				return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
				                 "NotifyCompletion onIteration is a v%d bit; the message is "
				                 "version %d",
				                 MEGACO_SINCE_NotifyCompletion_onIteration, c->version);
		}
		break;
	case SPECIAL_EVENTS_REQUEST_ID: {
		/* Both types keep requestID as their first member, a pointer. */
		const void *id = vt->td == &asn_DEF_EventsDescriptor
		                         ? (const void *)((const EventsDescriptor_t *)p)->requestID
		                         : (const void *)((const SecondEventsDescriptor_t *)p)->requestID;
		if (c->version == 1 && !id)
			return set_error(c->err, MEGACO_ERR_VERSION_MISMATCH, 0,
			                 "%s.requestID is missing: it is mandatory in version 1",
			                 vt->td->name);
		break;
	}
	default:
		break;
	}
	return MEGACO_OK;
}

static int check(check_ctx *c, const vc_type *vt, const void *p);

/* A member of vt at vm, present or not: the extension rule first, then its value. */
static int check_member(check_ctx *c, const vc_type *vt, const vc_member *vm, const void *p)
{
	const void *mp = (const char *)p + vm->offset;
	if (vm->pointer && !(mp = *(const void *const *)mp))
		return MEGACO_OK;
	if (vm->since > c->version) /* since is 0 for a member of every version */
		return mismatch(c, vt, vm);
	const vc_type *sub = &tab.types[vm->type];
	return sub->relevant ? check(c, sub, mp) : MEGACO_OK;
}

static int check(check_ctx *c, const vc_type *vt, const void *p)
{
	int rc;
	if (vt->special && (rc = check_special(c, vt, p)) != MEGACO_OK)
		return rc;
	const vc_member *m = &tab.members[vt->first];
	switch (vt->kind) {
	case KIND_SEQUENCE:
		for (int i = 0; i < vt->count; i++)
			if ((rc = check_member(c, vt, &m[i], p)) != MEGACO_OK)
				return rc;
		break;
	case KIND_CHOICE: {
		int present = choice_present(vt->td, p);
		if (present > 0 && present <= vt->count)
			return check_member(c, vt, &m[present - 1], p);
		break;
	}
	case KIND_LIST: {
		const vc_type *item = &tab.types[m->type];
		if (!item->relevant)
			break;
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(p);
		for (int i = 0; i < list->count; i++)
			if (list->array[i] && (rc = check(c, item, list->array[i])) != MEGACO_OK)
				return rc;
		break;
	}
	default:
		break;
	}
	return MEGACO_OK;
}

int version_check_model(const struct MegacoMessage *m, int version, megaco_error *err)
{
	if (version < 1 || version > 3)
		return set_error(err, MEGACO_ERR_VERSION, 0,
		                 "protocol version %d: only 1, 2 and 3 are supported", version);
	if (version == 3)
		return MEGACO_OK;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, compile);
	if (!tab.ok)
		return set_error(err, MEGACO_ERR_INTERNAL, 0, "version check tables are too small");
	check_ctx c = { version, err };
	return check(&c, &tab.types[0], m);
}
