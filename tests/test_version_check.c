/*
 * The encode-side protocol-version gate (src/version_check.c): every corpus
 * message passes at its own version and any later one (no false positives),
 * and models that carry an element their version lacks are refused, both by
 * version_check_model and by megaco_encode to every encoding, naming the
 * element. Violations come from relabelling real v2/v3 corpus messages to an
 * older version and from small edits to v1/v2 models (the exceptions that are
 * not extension members).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "AmmDescriptor.h"
#include "AmmRequest.h"
#include "AuditDescriptor.h"
#include "BIT_STRING.h"
#include "DigitMapValue.h"
#include "EventsDescriptor.h"
#include "MegacoMessage.h"
#include "MuxType.h"
#include "NotifyCompletion.h"
#include "SecondEventsDescriptor.h"
#include "ServiceChangeParm.h"
#include "Signal.h"
#include "megaco_schema.h"
#include "schema.h"
#include "testutil.h"
#include "version_check.h"

static corpus *C;

static megaco_message *load(const char *name)
{
	return decode_file(corpus_find(C, name)->path[MEGACO_ENC_BER - 1], MEGACO_ENC_BER, NULL, NULL);
}

/*
 * Expects version_check_model and every encoder to refuse m naming `what`
 * (binary_only: the binary encoders; text's ABNF has what the ASN.1 module
 * of that version lacks).
 */
static void expect_refused_in(const char *label, megaco_message *m, const char *what,
                              int binary_only)
{
	megaco_error err;
	int v = megaco_message_version(m);
	int rc = version_check_model(megaco_message_model(m), v, 1, &err);
	if (rc != MEGACO_ERR_VERSION_MISMATCH)
		fail_msg("%s as v%d: %s, expected a version mismatch", label, v, megaco_strerror(rc));
	if (!strstr(err.message, what))
		fail_msg("%s as v%d: \"%s\" does not name %s", label, v, err.message, what);
	assert_int_equal(version_check_model(megaco_message_model(m), v, 0, &err),
	                 binary_only ? MEGACO_OK : MEGACO_ERR_VERSION_MISMATCH);
	for (megaco_encoding enc = binary_only ? MEGACO_ENC_BER : MEGACO_ENC_PRETTY;
	     enc <= MEGACO_ENC_APER; enc++) {
		unsigned char buf[4096];
		size_t n = 12345;
		memset(&err, 0, sizeof err);
		rc = megaco_encode(m, enc, NULL, buf, sizeof buf, &n, &err);
		if (rc != MEGACO_ERR_VERSION_MISMATCH || err.code != rc || !strstr(err.message, what))
			fail_msg("%s as v%d to %s: %s (%s)", label, v, megaco_encoding_name(enc),
			         megaco_strerror(rc), err.message);
		void *out = &out;
		rc = megaco_encode_alloc(m, enc, NULL, &out, &n, NULL);
		assert_int_equal(rc, MEGACO_ERR_VERSION_MISMATCH);
		assert_ptr_equal(out, &out);
	}
}

static void expect_refused(const char *label, megaco_message *m, const char *what)
{
	expect_refused_in(label, m, what, 0);
}

/* Expects the binary encoders to accept m (text may refuse what it cannot spell). */
static void expect_accepted(const char *label, megaco_message *m)
{
	megaco_error err;
	int v = megaco_message_version(m);
	int rc = version_check_model(megaco_message_model(m), v, 1, &err);
	if (rc != MEGACO_OK)
		fail_msg("%s as v%d: %s", label, v, err.message);
	for (megaco_encoding enc = MEGACO_ENC_BER; enc <= MEGACO_ENC_APER; enc++) {
		void *out = NULL;
		size_t n;
		rc = megaco_encode_alloc(m, enc, NULL, &out, &n, &err);
		if (rc != MEGACO_OK)
			fail_msg("%s as v%d to %s: %s", label, v, megaco_encoding_name(enc), err.message);
		megaco_buffer_free(out, NULL);
	}
}

static void set_version(megaco_message *m, long v) { megaco_message_model(m)->mess.version = v; }

/* m refused (naming what) at its version, then accepted when labelled version since. */
static void expect_refused_until(const char *label, megaco_message *m, const char *what,
                                 int binary_only, long since)
{
	expect_refused_in(label, m, what, binary_only);
	set_version(m, since);
	expect_accepted(label, m);
}

/* ---- no false positives ----------------------------------------------------- */

static void test_corpus_passes(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		for (int v = e->version; v <= 3; v++) {
			megaco_error err;
			int rc = version_check_model(megaco_message_model(w.m), v, 1, &err);
			if (rc != MEGACO_OK)
				fail_msg("%s (v%d) checked as v%d: %s", e->name, e->version, v, err.message);
		}
	}
	assert_int_equal(w.files, 149);
}

static void test_version_out_of_range(void **state)
{
	(void)state;
	megaco_message *m = load("msg01a");
	const int bad[] = { 0, 4, 99, -1 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		megaco_error err;
		assert_int_equal(version_check_model(megaco_message_model(m), bad[i], 1, &err),
		                 MEGACO_ERR_VERSION);
		assert_int_equal(err.code, MEGACO_ERR_VERSION);
		set_version(m, bad[i]);
		unsigned char buf[1024];
		size_t n;
		assert_int_equal(megaco_encode(m, MEGACO_ENC_BER, NULL, buf, sizeof buf, &n, NULL),
		                 MEGACO_ERR_VERSION);
	}
	megaco_message_free(m);
}

/* ---- corpus messages relabelled to an older version ---------------------------- */

static const struct {
	const char *msg;
	int as_version;
	const char *element; /* what the error must name; NULL: accepted */
} relabelled[] = {
	/* v2 additions in a v1 message */
	{ "msg51a", 1, "AuditDescriptor.auditPropertyToken" },
	{ "msg73b01", 1, "AuditDescriptor.auditPropertyToken" },
	/* v3 additions in v2 (and so in v1) messages */
	{ "msg71b10", 2, "TopologyRequest.topologyDirectionExtension" },
	{ "msg71b12", 2, "ContextRequest.iepscallind" },
	{ "msg71b14", 2, "ContextRequest.contextProp" },
	{ "msg71c08", 2, "ContextAttrAuditRequest.iepscallind" },
	{ "msg73a", 2, "AmmDescriptor.statisticsDescriptor" },
	{ "msg73b01", 2, "IndAudStreamParms.statisticsDescriptor" },
	{ "msg73c01", 2, "StreamParms.statisticsDescriptor" },
	{ "msg74a01", 2, "Signal.direction" },
	{ "msg75a02", 2, "ServiceChangeParm.serviceChangeIncompleteFlag" },
	{ "msg76a01", 2, "IndAudLocalControlDescriptor.streamModeSel" },
	{ "msg76a02", 2, "IndAudPropertyParm.propertyParms" },
	{ "msg76b01", 2, "IndAudTerminationStateDescriptor.serviceStateSel" },
	{ "msg77a01", 2, "IndAudSignal.signalRequestID" },
	{ "msg78a01", 2, "RequestedActions.notifyBehaviour" },
	{ "msg79a01", 2, "AuditReply.auditResultTermList" },
	{ "msg80a01", 2, "TransactionReply.segmentNumber" },
	{ "msg81a01", 2, "Transaction.segmentReply" },
	{ "msg81a01", 1, "Transaction.segmentReply" },
	{ "msg80a01", 1, "TransactionReply.segmentNumber" },
	/* and what stays legal */
	{ "msg51a", 2, NULL },
	{ "msg01a", 1, NULL },
	{ "msg81a01", 3, NULL },
};

static void test_relabelled_corpus(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof relabelled / sizeof relabelled[0]; i++) {
		megaco_message *m = load(relabelled[i].msg);
		set_version(m, relabelled[i].as_version);
		if (relabelled[i].element)
			expect_refused(relabelled[i].msg, m, relabelled[i].element);
		else
			expect_accepted(relabelled[i].msg, m);
		megaco_message_free(m);
	}
}

/* ---- the exceptions: version differences that are not extension members -------- */

typedef struct {
	unsigned type;
	void *found;
} find_ctx;

static int find_visit(const schema_node *n, void *vctx)
{
	find_ctx *f = vctx;
	if (n->type != f->type)
		return WALK_CONTINUE;
	f->found = n->ptr;
	return -1000; /* stop */
}

static void *find_first(megaco_message *m, unsigned type)
{
	find_ctx f = { type, NULL };
	schema_walk(SCHEMA_ROOT, megaco_message_model(m), find_visit, &f);
	if (!f.found)
		fail_msg("no %s in the message", schema_types[type].name);
	return f.found;
}

static void test_v1_events_need_request_id(void **state)
{
	(void)state;
	megaco_message *m = load("msg01a");
	EventsDescriptor_t *ev = find_first(m, SCHEMA_T_EventsDescriptor);
	assert_non_null(ev->requestID);
	ev->requestID = NULL;
	/* Text's v1 ABNF has it optional (rfc3525 a1_24 is a bare "Events" in v1). */
	expect_refused_until("msg01a without requestID", m, "EventsDescriptor.requestID", 1, 2);
	megaco_message_free(m);
}

static void test_v2_members_in_v1(void **state)
{
	(void)state;
	/* DigitMapValue.durationTimer */
	megaco_message *m = load("msg08a");
	DigitMapValue_t *dm = find_first(m, SCHEMA_T_DigitMapValue);
	long *timer = megaco_message_alloc(m, sizeof *timer);
	*timer = 50;
	dm->durationTimer = timer;
	expect_refused_until("msg08a with durationTimer", m, "DigitMapValue.durationTimer", 0, 2);
	megaco_message_free(m);

	/* ServiceChangeParm.serviceChangeInfo */
	m = load("msg04");
	ServiceChangeParm_t *sc = find_first(m, SCHEMA_T_ServiceChangeParm);
	sc->serviceChangeInfo = megaco_message_alloc(m, sizeof(AuditDescriptor_t));
	expect_refused_until("msg04 with serviceChangeInfo", m, "ServiceChangeParm.serviceChangeInfo",
	                     0, 2);
	megaco_message_free(m);
}

static void test_mux_nx64k_is_v2(void **state)
{
	(void)state;
	megaco_message *m = load("msg12");
	assert_int_equal(megaco_message_version(m), 1);
	AmmRequest_t *amm = find_first(m, SCHEMA_T_AmmRequest);
	AmmDescriptor_t *d = megaco_message_alloc(m, sizeof *d);
	d->present = AmmDescriptor_PR_muxDescriptor;
	d->choice.muxDescriptor.muxType = MuxType_v76;
	TerminationID_t *tid = megaco_message_alloc(m, sizeof *tid);
	assert_int_equal(megaco_message_set_octets(m, &tid->id, "\x01\x02\x03", 3), MEGACO_OK);
	assert_int_equal(megaco_message_append(m, &d->choice.muxDescriptor.termList.list, tid),
	                 MEGACO_OK);
	assert_int_equal(megaco_message_append(m, &amm->descriptors.list, d), MEGACO_OK);
	expect_accepted("msg12 with a v76 mux", m);
	d->choice.muxDescriptor.muxType = MuxType_nx64k;
	expect_refused_until("msg12 with an nx64k mux", m, "nx64k", 0, 2);
	megaco_message_free(m);
}

static void test_notify_completion_on_iteration_is_v3(void **state)
{
	(void)state;
	megaco_message *m = load("msg12");
	set_version(m, 2);
	Signal_t *sig = find_first(m, SCHEMA_T_Signal);
	NotifyCompletion_t *nc = megaco_message_alloc(m, sizeof *nc);
	assert_int_equal(megaco_message_set_octets(m, (OCTET_STRING_t *)nc, "\x40", 1), MEGACO_OK);
	nc->bits_unused = 3; /* five named bits */
	sig->notifyCompletion = nc;
	expect_accepted("msg12 with onInterruptByEvent", m);
	nc->buf[0] |= 0x80 >> NotifyCompletion_onIteration;
	expect_refused_until("msg12 with onIteration", m, "onIteration", 0, 3);
	megaco_message_free(m);
}

/* ---- the pruned walk against a full one ------------------------------------------ */

/* The first node a full pre-order walk finds that v1 lacks: an extension member, an
 * event descriptor without requestID, an nx64k mux or an onIteration bit. */
typedef struct {
	char what[160];
} first_v1_ctx;

static int first_v1_visit(const schema_node *n, void *vctx)
{
	first_v1_ctx *f = vctx;
	if (n->member && (n->member->flags & SM_EXTENSION))
		snprintf(f->what, sizeof f->what, "%s.%s", schema_types[schema_parent_of(n->member)].name,
		         n->member->name);
	else if ((n->type == SCHEMA_T_EventsDescriptor && !((EventsDescriptor_t *)n->ptr)->requestID) ||
	         (n->type == SCHEMA_T_SecondEventsDescriptor &&
	          !((SecondEventsDescriptor_t *)n->ptr)->requestID))
		snprintf(f->what, sizeof f->what, "%s.requestID", schema_types[n->type].name);
	else if (n->type == SCHEMA_T_MuxType && *(long *)n->ptr == MuxType_nx64k)
		snprintf(f->what, sizeof f->what, "nx64k");
	else if (n->type == SCHEMA_T_NotifyCompletion && ((BIT_STRING_t *)n->ptr)->size &&
	         (((BIT_STRING_t *)n->ptr)->buf[0] & (0x80 >> NotifyCompletion_onIteration)))
		snprintf(f->what, sizeof f->what, "onIteration");
	else
		return WALK_CONTINUE;
	return -1000; /* stop at the first */
}

/* Every corpus message as v1: refused exactly when a full walk finds something, naming it. */
static void test_pruned_walk_matches_full_walk(void **state)
{
	(void)state;
	size_t refused = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		megaco_message *m = w.m;
		first_v1_ctx f = { "" };
		schema_walk(SCHEMA_ROOT, megaco_message_model(m), first_v1_visit, &f);
		megaco_error err;
		int rc = version_check_model(megaco_message_model(m), 1, 1, &err);
		if (!f.what[0] && rc != MEGACO_OK)
			fail_msg("%s as v1: refused (%s), a full walk finds nothing", e->name, err.message);
		if (f.what[0] && (rc != MEGACO_ERR_VERSION_MISMATCH || !strstr(err.message, f.what)))
			fail_msg("%s as v1: \"%s\", a full walk finds %s first", e->name,
			         rc ? err.message : "accepted", f.what);
		refused += rc != MEGACO_OK;
	}
	assert_true(refused > 10); /* the corpus has plenty of v2 and v3 elements */
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_passes),
		cmocka_unit_test(test_version_out_of_range),
		cmocka_unit_test(test_relabelled_corpus),
		cmocka_unit_test(test_v1_events_need_request_id),
		cmocka_unit_test(test_v2_members_in_v1),
		cmocka_unit_test(test_mux_nx64k_is_v2),
		cmocka_unit_test(test_notify_completion_on_iteration_is_v3),
		cmocka_unit_test(test_pruned_walk_matches_full_walk),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
