/*
 * The single-pass DER writer (src/der_writer.c) against asn1c's der_encode()
 * (the asn1c engine) and the corpus: every BER vector re-encodes
 * byte-identically from BER- and PER-decoded models, and tables of
 * hand-built values of the schema's types (integers, lengths, primitives,
 * recursion) match both hand-written DER and asn1c. Then canonical DER
 * (named bits), buffer sizing and the inline constraint checks.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "MegacoMessage.h"
#include "NULL.h"
#include "NativeInteger.h"
#include "NonStandardData.h"
#include "OCTET_STRING.h"
#include "TerminationIDList.h"
#include "TransactionId.h"
#include "NotifyBehaviour.h"
#include "RegulatedEmbeddedDescriptor.h"
#include "SecondEventsDescriptor.h"
#include "SecondRequestedActions.h"
#include "SecondRequestedEvent.h"
#include "der_writer.h"
#include "internal.h"
#include "megaco_schema.h"
#include "schema.h"

/* der_write's scratch: the C heap, as megaco_encode uses by default. */
#define HEAP (&megaco_default_allocator)

static corpus *C;

/* ---- helpers ------------------------------------------------------------------------------ */

/* asn1c's der_encode() output, malloc'd. */
static unsigned char *asn1c_der(asn_TYPE_descriptor_t *td, void *ptr, size_t *len)
{
	byte_sink g = { 0 };
	asn_enc_rval_t r = der_encode(td, ptr, byte_sink_write, &g);
	assert_true(r.encoded >= 0);
	assert_int_equal((size_t)r.encoded, g.len);
	*len = g.len;
	return g.p;
}

/* der_write() output through an exactly sized buffer, malloc'd; also checks the size query. */
static unsigned char *ours(unsigned type, const void *ptr, unsigned flags, size_t *len)
{
	size_t need = 0;
	megaco_error err;
	assert_int_equal(der_write(type, ptr, flags, MEGACO_DEPTH_CEILING, HEAP, NULL, 0, &need, &err),
	                 MEGACO_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(err.code, MEGACO_ERR_BUFFER_TOO_SMALL);
	unsigned char *buf = malloc(need ? need : 1);
	assert_non_null(buf);
	size_t got = 0;
	int rc = der_write(type, ptr, flags, MEGACO_DEPTH_CEILING, HEAP, buf, need, &got, &err);
	if (rc != MEGACO_OK)
		fail_msg("der_write %u: %s", type, err.message);
	assert_int_equal(got, need);
	*len = got;
	return buf;
}

/* Ours equals want_hex, DER written out by hand. */
static void is_hex(const char *what, const unsigned char *o, size_t olen, const char *want_hex)
{
	{
		unsigned char want[64];
		size_t n = 0;
		for (const char *h = want_hex; *h; h++) {
			if (*h == ' ')
				continue;
			unsigned v;
			assert_int_equal(sscanf(h, "%2x", &v), 1);
			want[n++] = (unsigned char)v;
			h++;
		}
		assert_bytes_equal(what, o, olen, want, n);
	}
}

/* Ours (schema type) equals asn1c's (its descriptor) and, when want_hex is given, that. */
static void same_as_asn1c(const char *what, unsigned type, asn_TYPE_descriptor_t *td, void *ptr,
                          const char *want_hex)
{
	size_t alen, olen;
	unsigned char *a = asn1c_der(td, ptr, &alen);
	unsigned char *o = ours(type, ptr, 0, &olen);
	assert_bytes_equal(what, o, olen, a, alen);
	if (want_hex)
		is_hex(what, o, olen, want_hex);
	free(a);
	free(o);
}

/* ---- the corpus -------------------------------------------------------------------------- */

static void test_corpus_byte_identical(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		size_t alen, olen;
		unsigned char *o = ours(SCHEMA_ROOT, w.m->model, DER_WRITE_CHECK, &olen);
		assert_bytes_equal(e->name, o, olen, w.bytes, w.len);
		unsigned char *a = asn1c_der(&asn_DEF_MegacoMessage, w.m->model, &alen);
		/* asn1c 0.9.28 writes unsigned values over 2^31-1 in a 32-bit long as negative. */
		if (LONG_MAX > 0x7fffffffL || olen == alen)
			assert_bytes_equal(e->name, o, olen, a, alen);
		free(a);
		free(o);

		/* The same from a PER-decoded model (other allocation, other order of asn1c use). */
		if (e->path[MEGACO_ENC_PER - 1]) {
			megaco_message *m = decode_file(e->path[MEGACO_ENC_PER - 1], MEGACO_ENC_PER, NULL, NULL);
			o = ours(SCHEMA_ROOT, m->model, DER_WRITE_CHECK, &olen);
			assert_bytes_equal(e->name, o, olen, w.bytes, w.len);
			free(o);
			megaco_message_free(m);
		}
	}
	assert_int_equal(w.files, 149);
}

/* Every capacity below the size reports exactly the size; at or above it, encodes at buf[0]. */
static void test_corpus_buffer_sizes(void **state)
{
	(void)state;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		const corpus_entry *e = w.e;
		const megaco_message *m = w.m;
		const unsigned char *ber = w.bytes;
		size_t len = w.len;
		unsigned char *buf = malloc(len + 64);
		for (size_t cap = 0; cap <= len + 64; cap += cap < len - 2 || cap >= len + 2 ? 7 : 1) {
			size_t got = 12345;
			megaco_error err;
			int rc = megaco_encode(m, MEGACO_ENC_BER, NULL, cap ? buf : NULL, cap, &got, &err);
			if (cap < len) {
				if (rc != MEGACO_ERR_BUFFER_TOO_SMALL || got != len)
					fail_msg("%s cap %zu: rc %d need %zu, expected %zu", e->name, cap, rc, got, len);
			} else {
				assert_int_equal(rc, MEGACO_OK);
				assert_bytes_equal(e->name, buf, got, ber, len);
			}
		}
		free(buf);
	}
}

/* ---- hand-built values --------------------------------------------------------------------- */

static void test_integers(void **state)
{
	(void)state;
	static const struct {
		long v;
		const char *der;
	} cases[] = {
		{ 0, "02 01 00" },
		{ 1, "02 01 01" },
		{ 127, "02 01 7f" },
		{ 128, "02 02 00 80" },
		{ 255, "02 02 00 ff" },
		{ 256, "02 02 01 00" },
		{ 32767, "02 02 7f ff" },
		{ 32768, "02 03 00 80 00" },
#if LONG_MAX > 0x7fffffffL
		{ 4294967295L, "02 05 00 ff ff ff ff" },
#endif
		{ -1, "02 01 ff" },
		{ -128, "02 01 80" },
		{ -129, "02 02 ff 7f" },
		{ -256, "02 02 ff 00" },
		{ -32769, "02 03 ff 7f ff" },
#if LONG_MAX > 0x7fffffffL
		{ LONG_MAX, "02 08 7f ff ff ff ff ff ff ff" },
		{ LONG_MIN, "02 08 80 00 00 00 00 00 00 00" },
#else
		{ LONG_MAX, "02 04 7f ff ff ff" },
		{ LONG_MIN, "02 04 80 00 00 00" },
#endif
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long v = cases[i].v;
		char what[64];
		snprintf(what, sizeof what, "INTEGER %ld", v);
		same_as_asn1c(what, SCHEMA_T_INTEGER, &asn_DEF_NativeInteger, &v, cases[i].der);
	}
}

static void test_primitives(void **state)
{
	(void)state;
	BOOLEAN_t t = 5, f = 0; /* any non-zero is TRUE, written FF as DER requires */
	same_as_asn1c("BOOLEAN true", SCHEMA_T_BOOLEAN, &asn_DEF_BOOLEAN, &t, "01 01 ff");
	same_as_asn1c("BOOLEAN false", SCHEMA_T_BOOLEAN, &asn_DEF_BOOLEAN, &f, "01 01 00");
	NULL_t nul = 0;
	same_as_asn1c("NULL", SCHEMA_T_NULL, &asn_DEF_NULL, &nul, "05 00");
	OCTET_STRING_t empty = { NULL, 0, { 0 } };
	same_as_asn1c("empty OCTET STRING", SCHEMA_T_OCTET_STRING, &asn_DEF_OCTET_STRING, &empty, "04 00");
	uint8_t bits[] = { 0xff, 0xff };
	BIT_STRING_t bs = { bits, 2, 3, { 0 } }; /* the 3 unused bits are cleared on the wire */
	same_as_asn1c("BIT STRING", SCHEMA_T_BIT_STRING, &asn_DEF_BIT_STRING, &bs, "03 03 03 ff f8");
	BIT_STRING_t nobits = { bits, 0, 0, { 0 } };
	same_as_asn1c("empty BIT STRING", SCHEMA_T_BIT_STRING, &asn_DEF_BIT_STRING, &nobits, "03 01 00");
}

/* Length octets: short form up to 127, then 81 xx, 82 xx xx, 83 xx xx xx. */
static void test_long_lengths(void **state)
{
	(void)state;
	static const struct {
		size_t size;
		const char *header;
	} cases[] = {
		{ 127, "04 7f" },       { 128, "04 81 80" },       { 255, "04 81 ff" },
		{ 256, "04 82 01 00" }, { 65535, "04 82 ff ff" }, { 65536, "04 83 01 00 00" },
		{ 70000, "04 83 01 11 70" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		OCTET_STRING_t os = { malloc(cases[i].size), (int)cases[i].size, { 0 } };
		memset(os.buf, 0x5a, cases[i].size);
		char what[64];
		snprintf(what, sizeof what, "OCTET STRING of %zu", cases[i].size);
		same_as_asn1c(what, SCHEMA_T_OCTET_STRING, &asn_DEF_OCTET_STRING, &os, NULL);
		size_t len;
		unsigned char *o = ours(SCHEMA_T_OCTET_STRING, &os, 0, &len);
		char hex[32] = "";
		size_t hl = len - cases[i].size;
		for (size_t k = 0; k < hl; k++)
			snprintf(hex + strlen(hex), sizeof hex - strlen(hex), k ? " %02x" : "%02x", o[k]);
		assert_string_equal(hex, cases[i].header);
		free(o);
		free(os.buf);
	}

	/* A long string inside a SEQUENCE makes the SEQUENCE's length long too. */
	NonStandardData_t nsd;
	memset(&nsd, 0, sizeof nsd);
	nsd.nonStandardIdentifier.present = NonStandardIdentifier_PR_experimental;
	OCTET_STRING_fromString(&nsd.nonStandardIdentifier.choice.experimental, "X-abcdef");
	nsd.data.size = 300;
	nsd.data.buf = calloc(1, 300);
	same_as_asn1c("NonStandardData with 300 octets", SCHEMA_T_NonStandardData, &asn_DEF_NonStandardData, &nsd, NULL);
	size_t len;
	unsigned char *o = ours(SCHEMA_T_NonStandardData, &nsd, DER_WRITE_CHECK, &len);
	assert_int_equal(o[0], 0x30);
	assert_int_equal(o[1], 0x82); /* 300 + identifier: two length octets */
	free(o);
	ASN_STRUCT_FREE_CONTENTS_ONLY(asn_DEF_NonStandardData, &nsd);
}

static void test_empty_sequence_of(void **state)
{
	(void)state;
	TerminationIDList_t list;
	memset(&list, 0, sizeof list);
	same_as_asn1c("empty TerminationIDList", SCHEMA_T_TerminationIDList, &asn_DEF_TerminationIDList, &list, "30 00");
}

/* ---- constraints -------------------------------------------------------------------------- */

/* Finds the first node matching pred in the model. */
typedef int (*node_pred)(const schema_node *n);
typedef struct finder {
	node_pred pred;
	schema_node found;
	int hit;
} finder;

static int find_visit(const schema_node *n, void *ctx)
{
	finder *f = ctx;
	if (!f->hit && f->pred(n)) {
		f->found = *n;
		f->hit = 1;
		return -1;
	}
	return WALK_CONTINUE;
}

/*
 * Recursion: RegulatedEmbeddedDescriptor -> SecondEventsDescriptor ->
 * SecondRequestedEvent -> SecondRequestedActions -> NotifyBehaviour ->
 * RegulatedEmbeddedDescriptor, the module's cycle. depth links of it.
 */
typedef struct link {
	RegulatedEmbeddedDescriptor_t red;
	SecondEventsDescriptor_t sed;
	SecondRequestedEvent_t sre, *item;
	SecondRequestedActions_t sra;
	NotifyBehaviour_t nb;
} link;

static link *chain(size_t depth)
{
	static uint8_t name[4] = { 0, 1, 0, 2 };
	link *l = calloc(depth, sizeof *l);
	assert_non_null(l);
	for (size_t i = 0; i < depth; i++) {
		l[i].red.secondEvent = &l[i].sed;
		l[i].item = &l[i].sre;
		l[i].sed.eventList.list.array = &l[i].item;
		l[i].sed.eventList.list.count = l[i].sed.eventList.list.size = 1;
		l[i].sre.pkgdName.buf = name;
		l[i].sre.pkgdName.size = 4;
		if (i + 1 < depth) {
			l[i].sre.eventAction = &l[i].sra;
			l[i].sra.notifyBehaviour = &l[i].nb;
			l[i].nb.present = NotifyBehaviour_PR_notifyRegulated;
			l[i].nb.choice.notifyRegulated = &l[i + 1].red;
		}
	}
	return l;
}

static void test_deep_nesting(void **state)
{
	(void)state;
	/* asn1c's cost doubles per level: keep it shallow. */
	link *l = chain(6);
	same_as_asn1c("6 nested RegulatedEmbeddedDescriptors", SCHEMA_T_RegulatedEmbeddedDescriptor,
	              &asn_DEF_RegulatedEmbeddedDescriptor, &l[0].red, NULL);
	free(l);

	/* Far past any real message: an error, not a blown stack. */
	l = chain(200000);
	size_t need = 0;
	megaco_error err;
	unsigned char buf[64];
	assert_int_equal(der_write(SCHEMA_T_RegulatedEmbeddedDescriptor, &l[0].red, DER_WRITE_CHECK,
	                           MEGACO_DEPTH_CEILING, HEAP, buf, sizeof buf, &need, &err),
	                 MEGACO_ERR_TOO_DEEP);
	assert_int_equal(err.code, MEGACO_ERR_TOO_DEEP);
	free(l);
}

/* ---- canonical DER -------------------------------------------------------------------------- */

/* X.690 11.2.2: a named-bit list loses its trailing zero bits; any other BIT STRING keeps them. */
static void test_named_bits(void **state)
{
	(void)state;
	static const struct {
		uint8_t bits[4];
		int size, unused;
		const char *named, *plain;
	} cases[] = {
		{ { 0x80, 0x00 }, 2, 0, "03 02 07 80", "03 03 00 80 00" },
		{ { 0x00, 0x00, 0x00 }, 3, 0, "03 01 00", "03 04 00 00 00 00" },
		{ { 0x0f, 0xe0 }, 2, 4, "03 03 05 0f e0", "03 03 04 0f e0" },
		{ { 0x0f, 0xef }, 2, 4, "03 03 05 0f e0", "03 03 04 0f e0" }, /* unused bits cleared */
		{ { 0x01 }, 1, 0, "03 02 00 01", "03 02 00 01" },
		{ { 0 }, 0, 0, "03 01 00", "03 01 00" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t buf[4];
		memcpy(buf, cases[i].bits, sizeof buf);
		BIT_STRING_t bs = { buf, cases[i].size, cases[i].unused, { 0 } };
		size_t len;
		unsigned char *o = ours(SCHEMA_T_NotifyCompletion, &bs, DER_WRITE_CHECK, &len);
		is_hex("NotifyCompletion", o, len, cases[i].named);
		free(o);
		o = ours(SCHEMA_T_BIT_STRING, &bs, DER_WRITE_CHECK, &len);
		is_hex("BIT STRING", o, len, cases[i].plain);
		free(o);
	}
}

static int is_notify_completion(const schema_node *n) { return n->type == SCHEMA_T_NotifyCompletion; }

/*
 * In a message: a NotifyCompletion padded with 2000 zero octets (what a
 * BER peer may send) encodes as the canonical original.
 */
static void test_named_bits_in_message(void **state)
{
	(void)state;
	size_t tried = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
	while (corpus_next(&w)) {
		finder f = { is_notify_completion, { 0 }, 0 };
		schema_walk(SCHEMA_ROOT, w.m->model, find_visit, &f);
		if (f.hit) {
			BIT_STRING_t *bs = f.found.ptr, saved = *bs;
			uint8_t *padded = calloc(1, (size_t)bs->size + 2000);
			assert_non_null(padded);
			memcpy(padded, bs->buf, (size_t)bs->size);
			if (bs->size)
				padded[bs->size - 1] &= (uint8_t)(0xff << (bs->bits_unused & 7));
			bs->buf = padded;
			bs->size += 2000;
			bs->bits_unused = 0;
			size_t olen;
			unsigned char *o = ours(SCHEMA_ROOT, w.m->model, DER_WRITE_CHECK, &olen);
			assert_bytes_equal(w.e->name, o, olen, w.bytes, w.len);
			free(o);
			*bs = saved;
			free(padded);
			tried++;
		}
	}
	if (!tried)
		fail_msg("no corpus message has a NotifyCompletion");
}

/* An OCTET STRING, IA5String or BIT STRING (a buffer and a size); its own PER constraints. */
static const schema_per *string_per(const schema_node *n)
{
	const schema_type *t = &schema_types[n->type];
	return t->kind == SK_OCTETS || t->kind == SK_IA5 || t->kind == SK_BITS ? &schema_pers[t->per]
	                                                                         : NULL;
}
static int fixed_size(const schema_node *n, long size)
{
	const schema_per *pc = string_per(n);
	return pc && pc->size.flags == SR_CONSTRAINED && pc->size.lower == size &&
	       pc->size.upper == size;
}
static int is_termination_id(const schema_node *n) { return n->type == SCHEMA_T_TerminationID; }
static int is_pkgd_name(const schema_node *n) { return fixed_size(n, 4); }
static int is_ia5(const schema_node *n)
{
	const schema_per *pc = string_per(n);
	return pc && pc->value.flags == SR_CONSTRAINED && pc->value.upper == 127 &&
	       ((const OCTET_STRING_t *)n->ptr)->size > 0;
}
static int is_message(const schema_node *n) { return n->type == SCHEMA_T_Message; }
static int is_mid(const schema_node *n) { return n->type == SCHEMA_T_MId; }

/*
 * Mutations: each makes the found node break (or just meet) a constraint. They go
 * through ber_encode_message(), the codec's BER entry (megaco_encode() would stop a
 * bad version earlier, at its version gate).
 */
static uint8_t nine[9] = "123456789", eight[8] = "12345678", five[5] = "abcde";
static void set_id(void *p, uint8_t *b, int n)
{
	((TerminationID_t *)p)->id.buf = b;
	((TerminationID_t *)p)->id.size = n;
}
static void id_9(void *p) { set_id(p, nine, 9); }
static void id_8(void *p) { set_id(p, eight, 8); }
static void name_5(void *p) { ((OCTET_STRING_t *)p)->buf = five; ((OCTET_STRING_t *)p)->size = 5; }
static void high_byte(void *p) { ((OCTET_STRING_t *)p)->buf[0] = 0xc3; }
static void version_99(void *p) { ((Message_t *)p)->version = 99; }
static void version_100(void *p) { ((Message_t *)p)->version = 100; }
static void version_neg(void *p) { ((Message_t *)p)->version = -1; }
static void no_choice(void *p) { ((MId_t *)p)->present = MId_PR_NOTHING; }

static void test_constraints(void **state)
{
	(void)state;
	megaco_options fast;
	megaco_options_init(&fast);
	static const struct {
		const char *what;
		node_pred where;
		void (*mutate)(void *);
		size_t restore_size; /* bytes of the node to save and restore */
		int want;
	} cases[] = {
		{ "TerminationID.id of 9 octets (SIZE 1..8)", is_termination_id, id_9,
		  sizeof(TerminationID_t), MEGACO_ERR_CONSTRAINT },
		{ "TerminationID.id of 8 octets", is_termination_id, id_8, sizeof(TerminationID_t),
		  MEGACO_OK },
		{ "PkgdName of 5 octets (SIZE 4)", is_pkgd_name, name_5, sizeof(OCTET_STRING_t),
		  MEGACO_ERR_CONSTRAINT },
		{ "IA5String byte 0xC3", is_ia5, high_byte, 0, MEGACO_ERR_CONSTRAINT },
		{ "version 99 (0..99)", is_message, version_99, sizeof(Message_t), MEGACO_OK },
		{ "version 100 (0..99)", is_message, version_100, sizeof(Message_t), MEGACO_ERR_CONSTRAINT },
		{ "version -1 (0..99)", is_message, version_neg, sizeof(Message_t), MEGACO_ERR_CONSTRAINT },
		{ "MId with no alternative", is_mid, no_choice, sizeof(MId_t), MEGACO_ERR_CONSTRAINT },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		size_t tried = 0;
		corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1 };
		while (corpus_next(&w)) {
			const corpus_entry *e = w.e;
			megaco_message *m = w.m;
			finder f = { cases[c].where, { 0 }, 0 };
			schema_walk(SCHEMA_ROOT, m->model, find_visit, &f);
			if (f.hit) {
				unsigned char saved[512], first = 0;
				assert_true(cases[c].restore_size <= sizeof saved);
				memcpy(saved, f.found.ptr, cases[c].restore_size);
				if (!cases[c].restore_size)
					first = ((OCTET_STRING_t *)f.found.ptr)->buf[0];
				cases[c].mutate(f.found.ptr);
				unsigned char out[4096];
				size_t got = 0;
				megaco_error err;
				int rc = ber_encode_message(m, &fast, out, sizeof out, &got, &err);
				if (rc != cases[c].want)
					fail_msg("%s in %s: got %s (%s)", cases[c].what, e->name, megaco_strerror(rc),
					         rc ? err.message : "");
				if (rc == MEGACO_ERR_CONSTRAINT)
					assert_int_equal(err.code, MEGACO_ERR_CONSTRAINT);
				/* The same verdict when the buffer is too small to hold the message. */
				rc = ber_encode_message(m, &fast, out, 3, &got, NULL);
				assert_int_equal(rc, cases[c].want ? cases[c].want : MEGACO_ERR_BUFFER_TOO_SMALL);
				memcpy(f.found.ptr, saved, cases[c].restore_size);
				if (!cases[c].restore_size)
					((OCTET_STRING_t *)f.found.ptr)->buf[0] = first;
				tried++;
			}
		}
		if (!tried)
			fail_msg("%s: no corpus message has such a node", cases[c].what);
	}
}

/* Unsigned 32-bit types: the whole range encodes; checked as unsigned, -1 is out of range. */
static void test_unsigned_range(void **state)
{
	(void)state;
	/* A 32-bit long holds it as -1 (asn1c 0.9.28 then writes FF, ours 00 FF FF FF FF). */
	long v = (long)4294967295UL;
	size_t len;
	unsigned char *o = ours(SCHEMA_T_TransactionId, &v, DER_WRITE_CHECK, &len);
	is_hex("TransactionId max", o, len, "02 05 00 ff ff ff ff");
	free(o);
	unsigned char out[16];
	size_t got;
	assert_int_equal(
	    der_write(SCHEMA_T_TransactionId, &v, DER_WRITE_CHECK, MEGACO_DEPTH_CEILING, HEAP, out,
	              sizeof out, &got, NULL),
	    MEGACO_OK);
	if (LONG_MAX <= 0xffffffffL) {
		print_message("a 32-bit long has no unsigned value out of 0..4294967295 to refuse\n");
		return;
	}
	v = -1;
	megaco_error err;
	assert_int_equal(
	    der_write(SCHEMA_T_TransactionId, &v, DER_WRITE_CHECK, MEGACO_DEPTH_CEILING, HEAP, out,
	              sizeof out, &got, &err),
	    MEGACO_ERR_CONSTRAINT);
	assert_non_null(strstr(err.message, "TransactionId"));
	/* Without the check it is written as the unsigned long it holds. */
	assert_int_equal(der_write(SCHEMA_T_TransactionId, &v, 0, MEGACO_DEPTH_CEILING, HEAP, out,
	                           sizeof out, &got, NULL),
	                 MEGACO_OK);
	assert_int_equal(got, 2 + 1 + sizeof(long));
	assert_int_equal(out[2], 0);
}

/* ---- max_depth ------------------------------------------------------------------------------ */

/* Whether what megaco_encode writes under max_depth d decodes under it, and the reverse. */
static unsigned depth_agrees(const char *name, const megaco_message *m, unsigned lo, unsigned hi)
{
	unsigned refused = 0;
	for (unsigned d = lo; d <= hi; d++) {
		megaco_options o;
		megaco_options_init(&o);
		o.max_depth = d;
		void *out = NULL;
		size_t len = 0;
		int erc = megaco_encode_alloc(m, MEGACO_ENC_BER, &o, &out, &len, NULL);
		if (erc == MEGACO_OK) {
			megaco_message *back = NULL;
			megaco_error err;
			int drc = megaco_decode(MEGACO_ENC_BER, out, len, &o, &back, &err);
			if (drc != MEGACO_OK)
				fail_msg("%s, max_depth %u: written, but its decode says %s", name, d,
				         err.message);
			megaco_message_free(back);
			megaco_buffer_free(out, &o);
			continue;
		}
		if (erc != MEGACO_ERR_TOO_DEEP)
			fail_msg("%s, max_depth %u: encode %s", name, d, megaco_strerror(erc));
		/* Refused: written under the ceiling, the reader refuses it under d. */
		megaco_options ceiling;
		megaco_options_init(&ceiling);
		ceiling.max_depth = 0;
		assert_int_equal(megaco_encode_alloc(m, MEGACO_ENC_BER, &ceiling, &out, &len, NULL),
		                 MEGACO_OK);
		megaco_message *back = NULL;
		int drc = megaco_decode(MEGACO_ENC_BER, out, len, &o, &back, NULL);
		if (drc != MEGACO_ERR_TOO_DEEP)
			fail_msg("%s, max_depth %u: refused, but the reader says %s", name, d,
			         megaco_strerror(drc));
		megaco_buffer_free(out, NULL);
		refused++;
	}
	return refused;
}

/*
 * The writer refuses under max_depth exactly what the BER reader refuses
 * under it: every corpus message at max_depth 1..40, and embedded events
 * (the recursive types) nested 1 to 30 deep around the default limit.
 */
static void test_depth_agrees(void **state)
{
	(void)state;
	unsigned refused = 0, passed = 0;
	corpus_walk w = { .c = C, .first = MEGACO_ENC_BER, .decode = 1, .valid_only = 1 };
	while (corpus_next(&w)) {
		unsigned r = depth_agrees(w.e->name, w.m, 1, 40);
		refused += r, passed += 40 - r;
	}
	for (int levels = 1; levels <= 30; levels += 7) {
		char text[2048];
		int k = sprintf(text, "MEGACO/3 [1.2.3.4]\nT=1{C=1{MF=11111111/00000000/00000000{E=1{al/on");
		for (int i = 0; i < levels; i++)
			k += sprintf(text + k, "{NBRN{EM{E=%d{al/of", i + 2);
		for (int i = 0; i < levels; i++)
			k += sprintf(text + k, "}}}}");
		strcpy(text + k, "}}}}");
		megaco_options o;
		megaco_options_init(&o);
		o.max_depth = 0; /* the ceiling */
		megaco_message *m = NULL;
		assert_int_equal(megaco_decode(MEGACO_ENC_AUTO, text, strlen(text), &o, &m, NULL), MEGACO_OK);
		unsigned r = depth_agrees("embedded events", m, 1, 200);
		refused += r, passed += 200 - r;
		megaco_message_free(m);
	}
	print_message("max_depth: %u encodings refused, %u written and read back\n", refused, passed);
	assert_true(refused > 0);
	assert_true(passed > 0);
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_byte_identical),
		cmocka_unit_test(test_corpus_buffer_sizes),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_primitives),
		cmocka_unit_test(test_long_lengths),
		cmocka_unit_test(test_empty_sequence_of),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_depth_agrees),
		cmocka_unit_test(test_named_bits),
		cmocka_unit_test(test_named_bits_in_message),
		cmocka_unit_test(test_constraints),
		cmocka_unit_test(test_unsigned_range),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	corpus_free(C);
	return rc;
}
