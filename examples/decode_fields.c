/*
 * decode_fields: decode Megaco messages in any encoding and print a few of
 * each one's fields (version, mId, transactions, contexts, commands and
 * their termination IDs) by walking the model.
 *   decode_fields FILE...
 * The names are converted to their text form first, so a termination ID
 * prints the same ("11111111/00000000/00000000", "ROOT") whether the
 * message came as text, BER or PER.
 */
#include <stdio.h>

#include <megaco/megaco.h>

#include <megaco/model.h> /* the model: asn1c's types of the H.248.1 module, prefixed megaco_ */

static const char *const command_names[] = {
	[megaco_Command_PR_addReq] = "Add",
	[megaco_Command_PR_moveReq] = "Move",
	[megaco_Command_PR_modReq] = "Modify",
	[megaco_Command_PR_subtractReq] = "Subtract",
	[megaco_Command_PR_auditCapRequest] = "AuditCapability",
	[megaco_Command_PR_auditValueRequest] = "AuditValue",
	[megaco_Command_PR_notifyReq] = "Notify",
	[megaco_Command_PR_serviceChangeReq] = "ServiceChange",
};

/* Termination IDs of a command (the model keeps them per command kind). */
static const megaco_TerminationIDList_t *command_terminations(const megaco_Command_t *c)
{
	switch (c->present) {
	case megaco_Command_PR_addReq: return &c->choice.addReq.terminationID;
	case megaco_Command_PR_moveReq: return &c->choice.moveReq.terminationID;
	case megaco_Command_PR_modReq: return &c->choice.modReq.terminationID;
	case megaco_Command_PR_subtractReq: return &c->choice.subtractReq.terminationID;
	case megaco_Command_PR_notifyReq: return &c->choice.notifyReq.terminationID;
	case megaco_Command_PR_serviceChangeReq: return &c->choice.serviceChangeReq.terminationID;
	default: return NULL; /* audits name one ID, not a list */
	}
}

static void print_context(unsigned long id)
{
	/* the three special context IDs as text writes them */
	if (id == 0)
		printf("-");
	else if (id == 0xFFFFFFFEul)
		printf("$");
	else if (id == 0xFFFFFFFFul)
		printf("*");
	else
		printf("%lu", id);
}

static void print_mid(const megaco_MId_t *mid)
{
	switch (mid->present) {
	case megaco_MId_PR_ip4Address: {
		const megaco_IP4Address_t *a = &mid->choice.ip4Address;
		printf("[");
		for (int i = 0; i < a->address.size; i++)
			printf(i ? ".%u" : "%u", a->address.buf[i]);
		printf("]");
		if (a->portNumber)
			printf(":%ld", *a->portNumber);
		break;
	}
	case megaco_MId_PR_domainName: {
		const megaco_DomainName_t *d = &mid->choice.domainName;
		printf("<%.*s>", (int)d->name.size, (const char *)d->name.buf);
		if (d->portNumber)
			printf(":%ld", *d->portNumber);
		break;
	}
	case megaco_MId_PR_deviceName:
		printf("%.*s", (int)mid->choice.deviceName.size, (const char *)mid->choice.deviceName.buf);
		break;
	default:
		printf("(another kind of mId)");
	}
}

static void print_request(const megaco_TransactionRequest_t *tr)
{
	printf("transaction %lu: request\n", tr->transactionId);
	for (int a = 0; a < tr->actions.list.count; a++) {
		const megaco_ActionRequest_t *act = tr->actions.list.array[a];
		printf("  context ");
		print_context(act->contextId);
		printf("\n");
		for (int c = 0; c < act->commandRequests.list.count; c++) {
			const megaco_Command_t *cmd = &act->commandRequests.list.array[c]->command;
			printf("    %s", command_names[cmd->present] ? command_names[cmd->present] : "?");
			const megaco_TerminationIDList_t *tids = command_terminations(cmd);
			for (int t = 0; tids && t < tids->list.count; t++) {
				const megaco_TerminationID_t *tid = tids->list.array[t];
				printf(" %.*s", (int)tid->id.size, (const char *)tid->id.buf);
			}
			printf("\n");
		}
	}
}

/* Decodes the message in path and prints its fields; returns the exit status. */
static int print_fields(const char *path)
{
	static unsigned char in[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t len = f ? fread(in, 1, sizeof in, f) : 0;
	int whole = f && feof(f) && !ferror(f);
	if (f)
		fclose(f);
	if (!whole) {
		fprintf(stderr, "%s: unreadable or over 1 MiB\n", path);
		return 2;
	}

	megaco_encoding enc;
	int rc = megaco_detect(in, len, &enc, NULL);
	if (rc != MEGACO_OK) {
		fprintf(stderr, "%s: %s\n", path, megaco_strerror(rc));
		return 1;
	}
	megaco_message *msg = NULL;
	megaco_error err;
	if (megaco_decode(enc, in, len, NULL, &msg, &err) != MEGACO_OK ||
	    megaco_message_convert_names(msg, MEGACO_NAMES_TEXT, NULL, &err) != MEGACO_OK) {
		fprintf(stderr, "%s: %s: %s\n", path, megaco_strerror(err.code), err.message);
		megaco_message_free(msg);
		return 1;
	}

	const megaco_MegacoMessage_t *m = megaco_message_model_const(msg);
	printf("encoding %s, version %d\n", megaco_encoding_name(enc), megaco_message_version(msg));
	printf("mId ");
	print_mid(&m->mess.mId);
	printf("\n");
	if (m->mess.messageBody.present == megaco_Message__messageBody_PR_transactions) {
		const struct megaco_Message__messageBody__transactions *ts = &m->mess.messageBody.choice.transactions;
		for (int i = 0; i < ts->list.count; i++) {
			const megaco_Transaction_t *t = ts->list.array[i];
			switch (t->present) {
			case megaco_Transaction_PR_transactionRequest:
				print_request(&t->choice.transactionRequest);
				break;
			case megaco_Transaction_PR_transactionReply:
				printf("transaction %lu: reply\n", t->choice.transactionReply.transactionId);
				break;
			case megaco_Transaction_PR_transactionPending:
				printf("transaction %lu: pending\n", t->choice.transactionPending.transactionId);
				break;
			default:
				printf("transaction: another kind\n");
			}
		}
	} else {
		printf("message error\n");
	}
	megaco_message_free(msg);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: decode_fields FILE...\n");
		return 2;
	}
	int status = 0;
	for (int i = 1; i < argc; i++) {
		int rc = print_fields(argv[i]);
		if (rc > status)
			status = rc;
	}
	return status;
}
