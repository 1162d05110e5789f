/*
 * Capture reading in a megaco-dump built without libpcap (a cross build
 * whose target has no libpcap-dev): captures are refused, saying why; the
 * message logs (--log) and everything after the capture stage work as ever.
 */
#include <stdio.h>

#include "dump.h"

const char *capture_library(void)
{
	return "none (built without libpcap: message logs only)";
}

int capture_run(dump_ctx *ctx, const char *path)
{
	(void)ctx;
	fprintf(stderr,
	        "megaco-dump: %s: this megaco-dump was built without libpcap and reads message "
	        "logs (--log) only\n",
	        path);
	return 2;
}
