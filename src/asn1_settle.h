/*
 * One-time completion of the asn1c descriptors (see asn1_settle.c). Every
 * entry point that touches the model calls this first.
 */
#ifndef MEGACO_ASN1_SETTLE_H
#define MEGACO_ASN1_SETTLE_H

void asn1_descriptors_settle(void);

#endif
