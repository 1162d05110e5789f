/*
 * service_change: build a ServiceChange request from nothing through the
 * model, as a media gateway sends it when it restarts (RFC 3525 A.1.1), and
 * encode it as pretty text and as BER.
 *   service_change            prints the text, then the BER in hex
 *   service_change OUT.txt OUT.ber   writes the two encodings to files
 * Every node of the model comes from the message's own arena, so one
 * megaco_message_free() releases it all.
 */
#include <stdio.h>
#include <string.h>

#include <megaco/megaco.h>

#include <megaco/model.h>

/* Allocates a zeroed node in msg's arena; NULL only when out of memory. */
#define NEW(msg, type) ((type *)megaco_message_alloc((msg), sizeof(type)))

static int set_string(megaco_message *msg, megaco_OCTET_STRING_t *field, const char *s)
{
	return megaco_message_set_octets(msg, field, s, strlen(s));
}

/*
 * MEGACO/1 [124.124.124.222]
 * Transaction = 9998 { Context = - { ServiceChange = ROOT { Services {
 *     Method = Restart, ServiceChangeAddress = 55555, Profile = ResGW/1,
 *     Reason = "901 mg col boot" } } } }
 * Names are given in their text form (the termination ID as text); the BER
 * encoder converts them to the binary form itself.
 */
static megaco_message *build(void)
{
	megaco_message *msg = megaco_message_new(MEGACO_NAMES_TEXT, NULL);
	if (!msg)
		return NULL;
	megaco_MegacoMessage_t *m = megaco_message_model(msg);
	m->mess.version = 1;
	m->mess.mId.present = megaco_MId_PR_ip4Address;
	static const unsigned char mg_address[4] = { 124, 124, 124, 222 };
	int rc = megaco_message_set_octets(msg, &m->mess.mId.choice.ip4Address.address, mg_address,
	                                   sizeof mg_address);

	megaco_Transaction_t *t = NEW(msg, megaco_Transaction_t);
	megaco_ActionRequest_t *action = NEW(msg, megaco_ActionRequest_t);
	megaco_CommandRequest_t *cr = NEW(msg, megaco_CommandRequest_t);
	megaco_TerminationID_t *root = NEW(msg, megaco_TerminationID_t);
	megaco_ServiceChangeAddress_t *address = NEW(msg, megaco_ServiceChangeAddress_t);
	megaco_ServiceChangeProfile_t *profile = NEW(msg, megaco_ServiceChangeProfile_t);
	megaco_OCTET_STRING_t *reason = NEW(msg, megaco_OCTET_STRING_t);
	if (rc != MEGACO_OK || !t || !action || !cr || !root || !address || !profile || !reason)
		goto fail;

	m->mess.messageBody.present = megaco_Message__messageBody_PR_transactions;
	t->present = megaco_Transaction_PR_transactionRequest;
	t->choice.transactionRequest.transactionId = 9998;
	action->contextId = 0; /* "-", the null context */

	cr->command.present = megaco_Command_PR_serviceChangeReq;
	megaco_ServiceChangeRequest_t *sc = &cr->command.choice.serviceChangeReq;
	megaco_ServiceChangeParm_t *parm = &sc->serviceChangeParms;
	parm->serviceChangeMethod = megaco_ServiceChangeMethod_restart;
	address->present = megaco_ServiceChangeAddress_PR_portNumber;
	address->choice.portNumber = 55555;
	parm->serviceChangeAddress = address;
	parm->serviceChangeProfile = profile;

	if (set_string(msg, &root->id, "ROOT") != MEGACO_OK ||
	    set_string(msg, &profile->profileName, "ResGW/1") != MEGACO_OK ||
	    set_string(msg, reason, "901 mg col boot") != MEGACO_OK ||
	    megaco_message_append(msg, &parm->serviceChangeReason.list, reason) != MEGACO_OK ||
	    megaco_message_append(msg, &sc->terminationID.list, root) != MEGACO_OK ||
	    megaco_message_append(msg, &action->commandRequests.list, cr) != MEGACO_OK ||
	    megaco_message_append(msg, &t->choice.transactionRequest.actions.list, action) != MEGACO_OK ||
	    megaco_message_append(msg, &m->mess.messageBody.choice.transactions.list, t) != MEGACO_OK)
		goto fail;
	return msg;
fail:
	megaco_message_free(msg);
	return NULL;
}

/* Writes buf to path, or to stdout (BER as hex) when path is NULL. */
static int put(const char *path, const unsigned char *buf, size_t len, int hex)
{
	if (!path) {
		if (!hex)
			return fwrite(buf, 1, len, stdout) == len ? 0 : -1;
		for (size_t i = 0; i < len; i++)
			printf("%02x%c", buf[i], i + 1 == len || i % 16 == 15 ? '\n' : ' ');
		return 0;
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 1 && argc != 3) {
		fprintf(stderr, "usage: service_change [OUT.txt OUT.ber]\n");
		return 2;
	}
	megaco_message *msg = build();
	if (!msg) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	int status = 0;
	const megaco_encoding encs[2] = { MEGACO_ENC_PRETTY, MEGACO_ENC_BER };
	for (int i = 0; i < 2 && !status; i++) {
		unsigned char buf[1024];
		size_t len;
		megaco_error err;
		int rc = megaco_encode(msg, encs[i], NULL, buf, sizeof buf, &len, &err);
		if (rc != MEGACO_OK) {
			fprintf(stderr, "%s: %s: %s\n", megaco_encoding_name(encs[i]), megaco_strerror(rc),
			        err.message);
			status = 1;
		} else if (put(argc == 3 ? argv[1 + i] : NULL, buf, len, i == 1) < 0) {
			status = 2;
		}
		if (argc == 1 && i == 0)
			printf("\n");
	}
	megaco_message_free(msg);
	return status;
}
