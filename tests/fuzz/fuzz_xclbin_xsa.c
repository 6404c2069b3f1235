/* SPDX-License-Identifier: MIT */
/*
 * fuzz_xclbin_xsa.c - libFuzzer target for the XSA (zip) reader of the
 * packager (aieth__xsa_read_mem: libarchive, xsa.json, the PDI's IDCODE).
 *
 * Invariants: a failure names the archive; on success the VBNV is at most
 * 63 characters.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "th_package/xsa.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_xsa_info x;
	int rc = aieth__xsa_read_mem(&x, "fuzz.xsa", data, size);
	if (rc) {
		CHECK(rc < 0);
		CHECK(strstr(aieth_error_message(), "fuzz.xsa") != NULL);
		return 0;
	}
	CHECK(strlen(x.vbnv) <= 63);
	return 0;
}
