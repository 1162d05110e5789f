/* Symbol visibility for libmegaco's public API. */
#ifndef MEGACO_EXPORT_H
#define MEGACO_EXPORT_H

#if defined(MEGACO_BUILDING) && defined(__GNUC__)
#define MEGACO_API __attribute__((visibility("default")))
#else
#define MEGACO_API
#endif

#endif
