/* SPDX-License-Identifier: MIT */
/*
 * fuzz_spec.c - libFuzzer target for the test-description parser: any
 * input either parses into a description or fails with a message that
 * names the input; never a crash, leak or undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_spec *sp = NULL;
	int rc;
	if (size > (1u << 20))
		return 0;
	rc = aieth_spec_parse(&sp, "fuzz.json", (const char *)data, size, "/nonexistent");
	if (rc) {
		/* a failure always explains itself and names the input */
		if (sp || !strstr(aieth_error_message(), "fuzz.json"))
			abort();
		return 0;
	}
	if (!sp || !aieth_spec_name(sp)[0])
		abort();
	aieth_spec_free(sp);
	return 0;
}
