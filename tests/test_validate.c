/*
 * megaco_message_validate and the structural check behind every encoder:
 * corpus models validate exactly when all four encoders take them; every
 * CHOICE of every corpus model, set to every `present` value (its
 * alternative zeroed, as a hand-built model would have it), gets OK or a
 * status from every encoder, the name conversion and the validator, never a
 * crash; and a table of misuse cases (NULL buffers with sizes, NULL list
 * elements, required pointers missing, cycles) gets the expected status with
 * the element's path in the message.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "MegacoMessage.h"
#include "megaco_schema.h"
#include "schema.h"

static corpus *C;

static const megaco_encoding all_enc[] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT, MEGACO_ENC_BER,
	                                   MEGACO_ENC_PER };

/* An encode that fails keeps the error contract; returns the status. */
static int encode_checked(const char *what, const megaco_message *m, megaco_encoding enc,
                          megaco_error *err)
{
	void *out = NULL;
	size_t len = 0;
	int rc = megaco_encode_alloc(m, enc, NULL, &out, &len, err);
	if (rc == MEGACO_OK) {
		megaco_buffer_free(out, NULL);
		return rc;
	}
	if (rc >= 0 || rc < MEGACO_ERR_NOT_MEGACO || rc == MEGACO_ERR_INTERNAL ||
	    rc == MEGACO_ERR_INVALID_ARGUMENT)
		fail_msg("%s: encode to %s gave %d (%s): %s", what, megaco_encoding_name(enc), rc,
		         megaco_strerror(rc), err->message);
	if (err->code != rc || !err->message[0])
		fail_msg("%s: error record %d \"%s\" for %d", what, err->code, err->message, rc);
	return rc;
}

/* ---- corpus: validate agrees with the encoders -------------------------- */

static void test_corpus_validates_as_encoders_encode(void **state)
{
	(void)state;
	size_t refused = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_PRETTY, .last = MEGACO_ENC_PER, .decode = 1,
		          .valid_only = 1 };
	while (corpus_next(&w)) {
		int first = MEGACO_OK;
		megaco_error err;
		for (size_t k = 0; k < 4 && first == MEGACO_OK; k++)
			first = encode_checked(w.path, w.m, all_enc[k], &err);
		int rc = megaco_message_validate(w.m, 0, NULL, &err);
		if (rc != first)
			fail_msg("%s: validate %s (%s), encoders %s", w.path, megaco_strerror(rc), err.message,
			         megaco_strerror(first));
		refused += rc != MEGACO_OK;
	}
	assert_true(w.files >= 4 * 149);
	print_message("%zu corpus models, %zu refused by some encoder\n", w.files, refused);
}

/* ---- every CHOICE through every present value --------------------------- */

typedef struct choices {
	const schema_type *td[4096];
	void *ptr[4096];
	size_t n;
} choices;

static int collect(const schema_node *node, void *ctx)
{
	choices *c = ctx;
	if (schema_types[node->type].kind == SK_CHOICE && c->n < sizeof c->td / sizeof c->td[0]) {
		c->td[c->n] = &schema_types[node->type];
		c->ptr[c->n++] = node->ptr;
	}
	return WALK_CONTINUE;
}

/* Every encoder, the validator and the name conversion on one model. */
static void all_paths(const char *what, megaco_message *m, size_t *refusals)
{
	megaco_error err;
	for (size_t k = 0; k < 4; k++)
		*refusals += encode_checked(what, m, all_enc[k], &err) != MEGACO_OK;
	int rc = megaco_message_validate(m, 0, NULL, &err);
	if (rc > 0 || rc < MEGACO_ERR_NOT_MEGACO || rc == MEGACO_ERR_INTERNAL)
		fail_msg("%s: validate gave %d", what, rc);
	for (int v = 1; v <= 3; v++)
		(void)megaco_message_validate(m, v, NULL, &err);
}

static void sweep(const char *path, megaco_encoding from, size_t *tried, size_t *refusals)
{
	megaco_message *m = decode_file(path, from, NULL, NULL);
	choices *c = malloc(sizeof *c);
	c->n = 0;
	schema_walk(SCHEMA_ROOT, megaco_message_model(m), collect, c);
	unsigned char saved[1024];
	for (size_t i = 0; i < c->n; i++) {
		const schema_type *td = c->td[i];
		assert_true(td->size <= sizeof saved);
		memcpy(saved, c->ptr[i], td->size);
		for (int v = -1; v <= td->count + 1; v++) {
			/* The alternative as a hand-built model holds it: zeroed. */
			memset(c->ptr[i], 0, td->size);
			schema_present_set((char *)c->ptr[i] + td->pres_offset, td->pres_size, v);
			char what[700];
			snprintf(what, sizeof what, "%s: %s present=%d", path, td->name, v);
			all_paths(what, m, refusals);
			(*tried)++;
		}
		memcpy(c->ptr[i], saved, td->size);
	}
	free(c);
	megaco_message_free(m);
}

static void test_every_choice_every_present(void **state)
{
	(void)state;
	size_t tried = 0, refusals = 0, files = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *ce = &C->entries[i];
		if (!ce->valid)
			continue;
		/* A binary-form and a text-form model of each message. */
		if (ce->path[MEGACO_ENC_BER - 1])
			sweep(ce->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, &tried, &refusals), files++;
		if (ce->path[MEGACO_ENC_COMPACT - 1])
			sweep(ce->path[MEGACO_ENC_COMPACT - 1], MEGACO_ENC_COMPACT, &tried, &refusals),
				files++;
	}
	assert_true(files >= 2 * 149);
	print_message("%zu files, %zu CHOICE settings, %zu refusals\n", files, tried, refusals);
}

/* ---- misuse table --------------------------------------------------------- */

typedef enum {
	MIS_TID_NULL_BUF,      /* first termination ID: buf NULL, size 5 */
	MIS_TID_NEG_SIZE,      /* first termination ID: size -1 */
	MIS_NULL_COMMAND,      /* commandRequests.array[0] = NULL */
	MIS_LIST_NO_ARRAY,     /* commandRequests: array NULL, count 1 */
	MIS_PRESENT_ZERO,      /* the command CHOICE: present 0 */
	MIS_PRESENT_HUGE,      /* the command CHOICE: present 99 */
	MIS_MID_PRESENT,       /* mId: present -3 */
	MIS_REQUIRED_NULL,     /* a required pointer left NULL (embedded events) */
	MIS_CYCLE,             /* embedded events that contain themselves */
} misuse;

static const struct {
	const char *name;
	misuse what;
	int form_text;     /* build from the text-form model, else the binary one */
	int expect;
	const char *fragment;
} misuse_cases[] = {
	{ "tid NULL buf, binary", MIS_TID_NULL_BUF, 0, MEGACO_ERR_CONSTRAINT, "terminationID" },
	{ "tid NULL buf, text", MIS_TID_NULL_BUF, 1, MEGACO_ERR_CONSTRAINT, "terminationID" },
	{ "tid size -1, binary", MIS_TID_NEG_SIZE, 0, MEGACO_ERR_CONSTRAINT, "terminationID" },
	{ "tid size -1, text", MIS_TID_NEG_SIZE, 1, MEGACO_ERR_CONSTRAINT, "terminationID" },
	{ "NULL command, binary", MIS_NULL_COMMAND, 0, MEGACO_ERR_CONSTRAINT, "commandRequests[0]" },
	{ "NULL command, text", MIS_NULL_COMMAND, 1, MEGACO_ERR_CONSTRAINT, "commandRequests[0]" },
	{ "list without array, binary", MIS_LIST_NO_ARRAY, 0, MEGACO_ERR_CONSTRAINT, "commandRequests" },
	{ "list without array, text", MIS_LIST_NO_ARRAY, 1, MEGACO_ERR_CONSTRAINT, "commandRequests" },
	{ "command present 0, binary", MIS_PRESENT_ZERO, 0, MEGACO_ERR_CONSTRAINT, "command" },
	{ "command present 0, text", MIS_PRESENT_ZERO, 1, MEGACO_ERR_CONSTRAINT, "command" },
	{ "command present 99, binary", MIS_PRESENT_HUGE, 0, MEGACO_ERR_CONSTRAINT, "command" },
	{ "command present 99, text", MIS_PRESENT_HUGE, 1, MEGACO_ERR_CONSTRAINT, "command" },
	{ "mId present -3, binary", MIS_MID_PRESENT, 0, MEGACO_ERR_CONSTRAINT, "mId" },
	{ "mId present -3, text", MIS_MID_PRESENT, 1, MEGACO_ERR_CONSTRAINT, "mId" },
	{ "required NULL, binary", MIS_REQUIRED_NULL, 0, MEGACO_ERR_CONSTRAINT, "notifyRegulated" },
	{ "required NULL, text", MIS_REQUIRED_NULL, 1, MEGACO_ERR_CONSTRAINT, "notifyRegulated" },
	{ "cycle, binary", MIS_CYCLE, 0, MEGACO_ERR_TOO_DEEP, "" },
	{ "cycle, text", MIS_CYCLE, 1, MEGACO_ERR_TOO_DEEP, "" },
};

/* The first ActionRequest of the first TransactionRequest. */
static ActionRequest_t *first_action(megaco_message *m)
{
	MegacoMessage_t *mm = megaco_message_model(m);
	assert_int_equal(mm->mess.messageBody.present, Message__messageBody_PR_transactions);
	Transaction_t *t = mm->mess.messageBody.choice.transactions.list.array[0];
	assert_int_equal(t->present, Transaction_PR_transactionRequest);
	return t->choice.transactionRequest.actions.list.array[0];
}

static TerminationID_t *first_tid(ActionRequest_t *a)
{
	Command_t *c = &a->commandRequests.list.array[0]->command;
	assert_int_equal(c->present, Command_PR_addReq);
	return c->choice.addReq.terminationID.list.array[0];
}

static void apply(megaco_message *m, misuse what)
{
	ActionRequest_t *a = first_action(m);
	MegacoMessage_t *mm = megaco_message_model(m);
	switch (what) {
	case MIS_TID_NULL_BUF: first_tid(a)->id.buf = NULL; first_tid(a)->id.size = 5; break;
	case MIS_TID_NEG_SIZE: first_tid(a)->id.size = -1; break;
	case MIS_NULL_COMMAND: a->commandRequests.list.array[0] = NULL; break;
	case MIS_LIST_NO_ARRAY: a->commandRequests.list.array = NULL; break;
	case MIS_PRESENT_ZERO: a->commandRequests.list.array[0]->command.present = 0; break;
	case MIS_PRESENT_HUGE: a->commandRequests.list.array[0]->command.present = 99; break;
	case MIS_MID_PRESENT: mm->mess.mId.present = -3; break;
	case MIS_REQUIRED_NULL:
	case MIS_CYCLE:
		break; /* break_embedded() */
	}
}

/* A message with one Add, from text. */
static const char add_text[] =
	"MEGACO/3 [124.124.124.222]:55555\n"
	"Transaction = 9998 { Context = - { Add = 11111111/00000000/00000000 { Media { Stream = 1 { "
	"LocalControl { Mode = SendReceive } } } } } }";

/*
 * Embedded events nest (SecondRequestedActions -> notifyRegulated ->
 * RegulatedEmbeddedDescriptor -> SecondEventsDescriptor): pointing the inner
 * descriptor back at the outer one makes a cycle.
 */
static const char embed_text[] =
	"MEGACO/3 [124.124.124.222]:55555\n"
	"Transaction = 9998 { Context = - { Add = 11111111/00000000/00000000 { Events = 1 { al/of { "
	"Embed { Events = 2 { al/on { RegulatedNotify { Embed { Events = 3 { al/fl } } } } } } } } } } }";

static megaco_message *from_text(const char *text, int form_text)
{
	megaco_message *m = NULL;
	megaco_error err;
	int rc = megaco_decode(MEGACO_ENC_PRETTY, text, strlen(text), NULL, &m, &err);
	if (rc != MEGACO_OK)
		fail_msg("decode: %s (%u:%u)", err.message, err.line, err.column);
	if (!form_text) {
		rc = megaco_message_convert_names(m, MEGACO_NAMES_BINARY, NULL, &err);
		if (rc != MEGACO_OK)
			fail_msg("convert: %s", err.message);
	}
	return m;
}

static void break_embedded(megaco_message *m, int cycle)
{
	ActionRequest_t *a = first_action(m);
	Command_t *c = &a->commandRequests.list.array[0]->command;
	AmmRequest_t *add = &c->choice.addReq;
	AmmDescriptor_t *d = add->descriptors.list.array[0];
	assert_int_equal(d->present, AmmDescriptor_PR_eventsDescriptor);
	RequestedEvent_t *ev = d->choice.eventsDescriptor.eventList.list.array[0];
	SecondEventsDescriptor_t *outer = ev->eventAction->secondEvent;
	assert_non_null(outer);
	SecondRequestedEvent_t *ev2 = outer->eventList.list.array[0];
	assert_non_null(ev2->eventAction);
	assert_non_null(ev2->eventAction->notifyBehaviour);
	NotifyBehaviour_t *nb = ev2->eventAction->notifyBehaviour;
	assert_int_equal(nb->present, NotifyBehaviour_PR_notifyRegulated);
	assert_non_null(nb->choice.notifyRegulated->secondEvent);
	if (cycle)
		nb->choice.notifyRegulated->secondEvent = outer;
	else
		nb->choice.notifyRegulated = NULL; /* a required (CHOICE) pointer */
}

static void test_misuse_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof misuse_cases / sizeof misuse_cases[0]; i++) {
		megaco_message *m;
		if (misuse_cases[i].what == MIS_CYCLE || misuse_cases[i].what == MIS_REQUIRED_NULL) {
			m = from_text(embed_text, misuse_cases[i].form_text);
			break_embedded(m, misuse_cases[i].what == MIS_CYCLE);
		} else {
			m = from_text(add_text, misuse_cases[i].form_text);
			apply(m, misuse_cases[i].what);
		}
		const char *name = misuse_cases[i].name;
		megaco_error err;
		for (size_t k = 0; k < 4; k++) {
			int rc = encode_checked(name, m, all_enc[k], &err);
			if (rc != misuse_cases[i].expect || !strstr(err.message, misuse_cases[i].fragment))
				fail_msg("%s: %s gave %s \"%s\", expected %s mentioning \"%s\"", name,
				         megaco_encoding_name(all_enc[k]), megaco_strerror(rc), err.message,
				         megaco_strerror(misuse_cases[i].expect), misuse_cases[i].fragment);
		}
		int rc = megaco_message_validate(m, 0, NULL, &err);
		if (rc != misuse_cases[i].expect || !strstr(err.message, misuse_cases[i].fragment))
			fail_msg("%s: validate gave %s \"%s\"", name, megaco_strerror(rc), err.message);
		rc = megaco_message_convert_names(m, misuse_cases[i].form_text ? MEGACO_NAMES_BINARY
		                                                               : MEGACO_NAMES_TEXT,
		                                  NULL, &err);
		if (rc != misuse_cases[i].expect)
			fail_msg("%s: convert_names gave %s \"%s\"", name, megaco_strerror(rc), err.message);
		megaco_message_free(m);
	}
}

static void test_validate_arguments_and_versions(void **state)
{
	(void)state;
	megaco_error err;
	assert_int_equal(megaco_message_validate(NULL, 0, NULL, &err), MEGACO_ERR_INVALID_ARGUMENT);
	megaco_message *m = from_text(add_text, 1);
	assert_int_equal(megaco_message_validate(m, 0, NULL, &err), MEGACO_OK);
	assert_int_equal(megaco_message_validate(m, 4, NULL, &err), MEGACO_ERR_VERSION);
	assert_int_equal(megaco_message_validate(m, -1, NULL, &err), MEGACO_ERR_VERSION);
	assert_int_equal(megaco_message_validate(m, 1, NULL, NULL), MEGACO_OK);
	megaco_message_free(m);
	/* A v3-only construct (embedded NotifyRegulated) checked for v1 and v2. */
	m = from_text(embed_text, 1);
	assert_int_equal(megaco_message_validate(m, 3, NULL, &err), MEGACO_OK);
	for (int v = 1; v <= 2; v++) {
		int rc = megaco_message_validate(m, v, NULL, &err);
		if (rc != MEGACO_ERR_VERSION_MISMATCH)
			fail_msg("embedded events for v%d: %s (%s)", v, megaco_strerror(rc), err.message);
	}
	assert_int_equal(megaco_message_version(m), 3); /* unchanged */
	megaco_message_free(m);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validate_arguments_and_versions),
		cmocka_unit_test(test_misuse_table),
		cmocka_unit_test(test_corpus_validates_as_encoders_encode),
		cmocka_unit_test(test_every_choice_every_present),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
