/* SPDX-License-Identifier: MIT */
/*
 * fuzz_remote.h - what the targets of th_server's replies share: the body
 * after the first byte is parsed as the remote backend parses a reply (a
 * strict JSON object of at most 1 MiB); a body the parser refuses is not
 * the target's to check. A target defines fuzz_remote_one(first, o), under
 * AIETH_HAVE_CURL, and includes this header first. A build without
 * libcurl has no remote backend: its targets accept every input.
 */
#ifndef FUZZ_REMOTE_H
#define FUZZ_REMOTE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef AIETH_HAVE_CURL
#include "backends/remote/remote_reply.h"
#include "util/json_strict.h"

/* first: the input's first byte (the target's choices); o: the reply,
 * freed after the call */
static void fuzz_remote_one(uint8_t first, struct json_object *o);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *o = NULL;
	if (size < 1 ||
	    aieth__jstrict_parse_object("reply", (const char *)data + 1, size - 1, 1u << 20, &o))
		return 0;
	fuzz_remote_one(data[0], o);
	json_object_put(o);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
#endif

#endif
