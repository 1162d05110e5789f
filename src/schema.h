/*
 * The H.248.1 v3 schema as const tables, for every binary codec (BER/DER,
 * UPER) and the version and name checks. megaco-gen (tools/gen/schema_emit.c)
 * generates the tables (BUILD/gen/megaco_schema.{c,h}) at build time on the host from
 * asn1c's descriptors of the module; nothing here is computed at run time.
 *
 * For codec writers:
 * - One schema_type per asn1c descriptor reachable from MegacoMessage
 *   (aliases included: PkgdName is its own type of kind SK_OCTETS).
 *   megaco_schema.h names each by index (SCHEMA_T_<CName>) and gives
 *   SCHEMA_ROOT, the MegacoMessage type.
 * - Members of a SEQUENCE/CHOICE are schema_members[first .. first+count);
 *   a SEQUENCE OF/SET OF has exactly one, its item (offset 0, SM_POINTER,
 *   tag_mode 0: items carry their type's own tags, as in asn1c).
 * - offset, size, pres_offset and pres_size are offsetof()/sizeof()
 *   expressions on asn1c's structs evaluated by the target compiler (the
 *   host build checks every one against the descriptors), so they hold on
 *   any ABI. Values of kind SK_INT/SK_ENUM are a C long, SK_BOOL a
 *   BOOLEAN_t, SK_NULL a NULL_t, strings an OCTET_STRING_t/BIT_STRING_t,
 *   lists an asn_anonymous_set_.
 * - BER: a type's own tags are schema_tags[tags .. tags+tag_count),
 *   outermost first (ber_tlv_tag_t form: number << 2 | class). A member's
 *   tag_mode is -1 (IMPLICIT: its tag replaces the type's outermost), 0
 *   (the type's own) or +1 (EXPLICIT: wraps them). An untagged CHOICE has
 *   no tags of its own; tag2member (SEQUENCE/CHOICE) maps an outermost tag
 *   to a member, sorted by tag, as asn1c's tag2el.
 * - PER: schema_per[per] of a member is the effective constraint (the
 *   member's if asn1c gives it one, else its type's); index 0 is
 *   "unconstrained". For strings, value is the character range (the
 *   alphabet), size the SIZE; for lists size is the item count; for
 *   CHOICE, value is the alternative index range of the root.
 * - Extensions: a member after the "..." has SM_EXTENSION; a SEQUENCE's
 *   root_count counts the members before it; a CHOICE's root_count is its
 *   ext_start (count when not extensible). SF_EXTENSIBLE on the type.
 * - Names and versions: name says which names a field carries (SN_*), for
 *   name conversion; version is the H.248 version that introduced the
 *   member, ENUMERATED value or named bit, from the one version table
 *   (version_table.h); a type's newest is the latest version of anything a
 *   value of it can hold at any depth (or where a member it can hold becomes
 *   OPTIONAL), so a walk for an older message can skip a value whose type's
 *   newest is not above the message's version.
 *   opt_since is, for an OPTIONAL member, the first version whose module
 *   makes it OPTIONAL (1: every module; 2: the v1 module has it mandatory,
 *   as EventsDescriptor.requestID), 0 for a mandatory member. SM_VERSION
 *   marks the member holding the message's version (Message.version),
 *   which PER meets before any member whose opt_since is above 1.
 */
#ifndef MEGACO_SCHEMA_H
#define MEGACO_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/* What a type is, by the C representation asn1c gives it; constructed kinds first. */
enum schema_kind {
	SK_SEQUENCE,
	SK_CHOICE,
	SK_SEQUENCE_OF,
	SK_SET_OF,
	SK_INT,     /* INTEGER as a C long (unsigned when SF_UNSIGNED) */
	SK_ENUM,    /* ENUMERATED as a C long; its values are enum_first/enum_count */
	SK_BOOL,
	SK_NULL,
	SK_OCTETS,  /* OCTET STRING */
	SK_IA5,     /* IA5String: an OCTET_STRING_t that must have a buffer */
	SK_BITS,    /* BIT STRING (SF_NAMED_BITS: a named-bit list, its bits enum_first/enum_count) */
	SK_OID,     /* OBJECT IDENTIFIER: contents as stored */
};

/* SEQUENCE, CHOICE, SEQUENCE OF, SET OF: a type with members. */
static inline int schema_constructed(int kind)
{
	return kind <= SK_SET_OF;
}

/* schema_type.flags */
enum {
	SF_EXTENSIBLE = 1 << 0,  /* SEQUENCE/CHOICE/ENUMERATED with "..." */
	SF_UNSIGNED = 1 << 1,    /* SK_INT kept as an unsigned long */
	SF_NAMED_BITS = 1 << 2,  /* SK_BITS with named bits: DER drops trailing zeros */
	SF_RECURSIVE = 1 << 3,   /* a value of it can contain one of the same type */
};

/* schema_member.flags */
enum {
	SM_POINTER = 1 << 0,   /* the struct holds a pointer to the value */
	SM_OPTIONAL = 1 << 1,  /* OPTIONAL (absent: NULL pointer) */
	SM_DEFAULT = 1 << 2,   /* has a DEFAULT value (none in the v3 module) */
	SM_EXTENSION = 1 << 3, /* after the extension marker */
	SM_OPEN_TYPE = 1 << 4, /* open type (none in the v3 module) */
	SM_NAMED_BITS = 1 << 5, /* a BIT STRING with named bits (its type's or inline) */
	SM_VERSION = 1 << 6,   /* the message's H.248 version (Message.version) */
};

/* Which names a member's value carries (for name_convert.c and validation). */
enum schema_name {
	SN_NONE,
	SN_TERMINATION_ID, /* a TerminationID */
	SN_PACKAGE,        /* a package name (PackagesItem, IndAudPackagesDescriptor) */
	SN_PROPERTY,       /* a package property name (PkgdName) */
	SN_EVENT,          /* an event name */
	SN_SIGNAL,         /* a signal name */
	SN_STATISTIC,      /* a statistic name */
	SN_EVENT_PARAM,    /* an event parameter name (of the event beside it) */
	SN_SIGNAL_PARAM,   /* a signal parameter name */
	SN_DIGIT_MAP,      /* a digit map name */
	SN_SDP,            /* a local/remote descriptor's property groups (SDP) */
};

/* asn_per_constraint_t, with bounds that fit any long on the host. */
typedef struct schema_range {
	unsigned char flags; /* SR_* */
	signed char range_bits, effective_bits;
	long long lower, upper;
} schema_range;

enum { SR_UNCONSTRAINED = 0, SR_SEMI = 1, SR_CONSTRAINED = 2, SR_EXTENSIBLE = 4 };

typedef struct schema_per {
	schema_range value, size;
} schema_per;

typedef struct schema_tag2member {
	uint32_t tag;
	uint16_t member;       /* index within the type's members */
} schema_tag2member;

typedef struct schema_enum {
	long long value;       /* ENUMERATED: the value; named bit: its number */
	const char *name;
	unsigned char version; /* H.248 version that introduced it */
} schema_enum;

typedef struct schema_type {
	const char *name;      /* ASN.1 name (an inline type: its member's) */
	unsigned char kind;    /* SK_* */
	unsigned char flags;   /* SF_* */
	unsigned char tag_count;
	unsigned char pres_size; /* CHOICE: sizeof the present field */
	unsigned char newest;  /* latest version of anything a value can hold */
	uint32_t size;         /* sizeof the C value */
	uint32_t pres_offset;  /* CHOICE: offsetof the present field */
	uint16_t tags;         /* index into schema_tags */
	uint16_t per;          /* index into schema_per: the type's own */
	uint16_t first;        /* index into schema_members */
	uint16_t count;
	uint16_t root_count;   /* SEQUENCE, CHOICE: members before the extension marker */
	uint16_t tag_map;      /* index into schema_tag2members */
	uint16_t tag_map_count;
	uint16_t enum_first;   /* ENUM, named bits: index into schema_enums, sorted by value */
	uint16_t enum_count;
	uint16_t enum_root;    /* ENUM: values in the root (before "...") */
	uint16_t opt_count;    /* SEQUENCE: OPTIONAL root members (PER presence bits) */
} schema_type;

typedef struct schema_member {
	const char *name;      /* ASN.1 identifier */
	uint32_t offset;       /* offsetof the member in its parent */
	uint32_t tag;          /* outermost tag when tag_mode != 0 */
	uint16_t type;         /* index into schema_types */
	uint16_t per;          /* index into schema_per: effective constraints */
	unsigned char flags;   /* SM_* */
	signed char tag_mode;  /* -1 IMPLICIT, 0 none, +1 EXPLICIT */
	unsigned char name_kind; /* SN_* */
	unsigned char version; /* H.248 version that introduced it */
	unsigned char opt_since; /* OPTIONAL from this version on, mandatory before; 0: never */
	uint16_t optional;     /* asn1c's count: this and the following optional members */
} schema_member;

extern const schema_type schema_types[];
extern const schema_member schema_members[];
extern const uint32_t schema_tags[];
extern const schema_per schema_pers[];
extern const schema_tag2member schema_tag2members[];
extern const schema_enum schema_enums[];

/* The member's value in its parent, NULL when a pointer member is absent. */
static inline const void *schema_member_value(const schema_member *m, const void *parent)
{
	const char *p = (const char *)parent + m->offset;
	return (m->flags & SM_POINTER) ? *(const void *const *)p : p;
}

/* The type whose member m is (its index in schema_types); -1 for none (a root). */
int schema_parent_of(const schema_member *m);

/* How a binary writer (DER, PER) failed: its codes below 0. */
enum { SW_CONSTRAINT = -2, SW_ENCODE = -3, SW_NOMEM = -4, SW_DEEP = -5, SW_LEVELS = -6 };

/*
 * Fills err for a writer that failed with code (SW_*) at member m (NULL if
 * none), else at type (-1 if none), for the reason why. codec names the
 * encoding ("BER", "PER", "APER"), stack_kib the writer's stack budget.
 * Returns the status: MEGACO_ERR_NOMEM, _TOO_DEEP or _CONSTRAINT.
 */
struct megaco_error;
int schema_write_error(struct megaco_error *err, int code, const schema_member *m, int type,
                       const char *why, unsigned max_depth, unsigned stack_kib,
                       const char *codec);

/* Are the n octets at s all 0..127 (IA5String's alphabet)? */
int schema_ascii(const unsigned char *s, size_t n);

/* A value schema_walk() meets. */
typedef struct schema_node {
	unsigned type;               /* index into schema_types */
	void *ptr;                   /* the value, never NULL */
	const schema_member *member; /* how its parent holds it (the item of a list); NULL at the root */
	int index;                   /* a list item's index; -1 for anything else */
	unsigned depth;              /* the root's is 0 */
	const struct schema_node *up; /* the node of its parent; NULL at the root */
} schema_node;

/* What a visitor returns: go on, skip the node's insides; below 0 stops the walk. */
enum { WALK_CONTINUE = 0, WALK_SKIP = 1 };

/*
 * Visits the value ptr of `type` and then, in pre-order, each value inside
 * it: a SEQUENCE's present members, a CHOICE's alternative, a list's items.
 * Returns the visitor's negative return that stopped it, else 0. On a model
 * the structural check (validate.c, itself a visitor) has not passed, only
 * with a visitor that refuses what the walk would follow.
 */
int schema_walk(unsigned type, void *ptr, int (*visit)(const schema_node *n, void *ctx),
                void *ctx);

/* A CHOICE's present field (asn1c: 0 none, else alternative + 1), of the size the schema gives. */
static inline int schema_present_get(const char *at, size_t size)
{
	switch (size) {
	case sizeof(int): return *(const int *)(const void *)at;
	case sizeof(short): return *(const short *)(const void *)at;
	case sizeof(signed char): return *(const signed char *)at;
	default: return -1;
	}
}

static inline void schema_present_set(char *at, size_t size, int present)
{
	switch (size) {
	case sizeof(int): *(int *)(void *)at = present; break;
	case sizeof(short): *(short *)(void *)at = (short)present; break;
	case sizeof(signed char): *(signed char *)at = (signed char)present; break;
	default: break;
	}
}

#endif
