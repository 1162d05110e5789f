/*
 * What a decoded message says at the level a reader of a trace cares about:
 * transactions (kind and ID), actions (context ID), commands, termination
 * IDs and error descriptors. facts_walk() reports them in message order to a
 * visitor; the summary line, the filters and --stats are such visitors.
 */
#ifndef MEGACO_DUMP_FACTS_H
#define MEGACO_DUMP_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "megaco/megaco.h"

struct MegacoMessage;
struct TerminationID;
struct MId;

typedef enum fact_kind {
	FACT_TRANSACTION, /* tx_kind, tid (tid_last for an acknowledgement range) */
	FACT_CONTEXT,     /* ctx: one per action */
	FACT_COMMAND,     /* command, reply */
	FACT_TERMINATION, /* term */
	FACT_ERROR        /* error_code */
} fact_kind;

typedef enum tx_kind { TX_REQUEST, TX_PENDING, TX_REPLY, TX_ACK, TX_SEGMENT_REPLY, TX_KINDS } tx_kind;

typedef struct fact {
	fact_kind kind;
	tx_kind tx;
	uint32_t tid, tid_last;
	uint32_t ctx;
	int command; /* COMMAND_ADD ... */
	int reply;   /* the command is a reply */
	const struct TerminationID *term;
	long error_code;
} fact;

enum {
	COMMAND_ADD, COMMAND_MOVE, COMMAND_MODIFY, COMMAND_SUBTRACT, COMMAND_AUDIT_CAP,
	COMMAND_AUDIT_VALUE, COMMAND_NOTIFY, COMMAND_SERVICE_CHANGE, COMMANDS
};

extern const char *const command_names[COMMANDS];
extern const char *const tx_kind_names[TX_KINDS];

/* Calls visit for each fact whose kind is in `kinds` (FACT_BIT()s, FACTS_ALL);
 * a non-zero return stops the walk and is returned. Parts of the message
 * that hold only kinds not asked for (a command's termination IDs, say) are
 * not walked. */
typedef int (*fact_visitor)(const fact *f, void *user);
#define FACT_BIT(k) (1u << (k))
#define FACTS_ALL (FACT_BIT(FACT_TRANSACTION) | FACT_BIT(FACT_CONTEXT) | FACT_BIT(FACT_COMMAND) | \
                   FACT_BIT(FACT_TERMINATION) | FACT_BIT(FACT_ERROR))
int facts_walk(const struct MegacoMessage *m, unsigned kinds, fact_visitor visit, void *user);

/* Text forms. Each writes a NUL-terminated string of at most cap bytes
 * (truncated when longer) and returns its length. */
size_t format_tid(const struct TerminationID *t, megaco_name_form form,
                  const megaco_options *opts, char *buf, size_t cap);
size_t format_mid(const struct MId *mid, char *buf, size_t cap);
/* "$", "*", "-" or the number */
size_t format_context(uint32_t ctx, char *buf, size_t cap);
/* Parses a command name (long or short text keyword, any case); -1 if unknown. */
int command_from_name(const char *s);

#endif
