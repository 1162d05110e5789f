/* Descriptor-driven model walk; see model_walk.h. */
#include "model_walk.h"

#include "asn_SEQUENCE_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"

int td_is_sequence(const asn_TYPE_descriptor_t *td) { return td->free_struct == SEQUENCE_free; }
int td_is_choice(const asn_TYPE_descriptor_t *td) { return td->free_struct == CHOICE_free; }
int td_is_list(const asn_TYPE_descriptor_t *td)
{
	return td->free_struct == SEQUENCE_OF_free || td->free_struct == SET_OF_free;
}

int choice_present(const asn_TYPE_descriptor_t *td, const void *ptr)
{
	const asn_CHOICE_specifics_t *s = td->specifics;
	const char *p = (const char *)ptr + s->pres_offset;
	switch (s->pres_size) {
	case sizeof(int): return *(const int *)p;
	case sizeof(short): return *(const short *)p;
	case sizeof(char): return *(const signed char *)p;
	default: return 0;
	}
}

void choice_set_present(const asn_TYPE_descriptor_t *td, void *ptr, int present)
{
	const asn_CHOICE_specifics_t *s = td->specifics;
	char *p = (char *)ptr + s->pres_offset;
	switch (s->pres_size) {
	case sizeof(int): *(int *)p = present; break;
	case sizeof(short): *(short *)p = (short)present; break;
	case sizeof(char): *(signed char *)p = (signed char)present; break;
	default: break;
	}
}

static int walk(walk_node *node, walk_visitor visit, void *ctx);

static int visit_member(walk_node *parent, int i, walk_visitor visit, void *ctx)
{
	asn_TYPE_member_t *m = &parent->td->elements[i];
	void *p = (char *)parent->ptr + m->memb_offset;
	if (m->flags & ATF_POINTER) {
		p = *(void **)p;
		if (!p)
			return WALK_CONTINUE;
	}
	int ext = 0;
	if (td_is_sequence(parent->td)) {
		const asn_SEQUENCE_specifics_t *s = parent->td->specifics;
		ext = s->ext_after >= 0 && i > s->ext_after && i < s->ext_before;
	} else if (td_is_choice(parent->td)) {
		const asn_CHOICE_specifics_t *s = parent->td->specifics;
		ext = s->ext_start >= 0 && i >= s->ext_start;
	}
	walk_node child = { m->type, p, parent->td, i, ext, parent->depth + 1 };
	return walk(&child, visit, ctx);
}

static int walk(walk_node *node, walk_visitor visit, void *ctx)
{
	int rc = visit(node, ctx);
	if (rc != WALK_CONTINUE)
		return rc < 0 ? rc : WALK_CONTINUE;
	asn_TYPE_descriptor_t *td = node->td;
	if (td_is_sequence(td)) {
		for (int i = 0; i < td->elements_count; i++)
			if ((rc = visit_member(node, i, visit, ctx)) < 0)
				return rc;
	} else if (td_is_choice(td)) {
		int present = choice_present(td, node->ptr);
		if (present > 0 && present <= td->elements_count)
			return visit_member(node, present - 1, visit, ctx);
	} else if (td_is_list(td)) {
		const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(node->ptr);
		for (int i = 0; i < list->count; i++) {
			if (!list->array[i])
				continue;
			walk_node child = { td->elements[0].type, list->array[i], td, -1, 0, node->depth + 1 };
			if ((rc = walk(&child, visit, ctx)) < 0)
				return rc;
		}
	}
	return WALK_CONTINUE;
}

int model_walk(asn_TYPE_descriptor_t *td, void *ptr, walk_visitor visit, void *ctx)
{
	walk_node root = { td, ptr, NULL, -1, 0, 0 };
	return walk(&root, visit, ctx);
}
