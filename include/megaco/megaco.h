/*
 * libmegaco: Megaco/H.248 (RFC 3525, H.248.1 v1-v3) message codecs for
 * pretty text, compact text, BER and PER. Include this one header, and
 * <megaco/model.h> as well to read or build a message's fields.
 */
#ifndef MEGACO_MEGACO_H
#define MEGACO_MEGACO_H

#include "megaco/codec.h"
#include "megaco/error.h"
#include "megaco/message.h"
#include "megaco/names.h"
#include "megaco/options.h"
#include "megaco/version.h"

#endif
