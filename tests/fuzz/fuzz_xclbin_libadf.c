/* SPDX-License-Identifier: MIT */
/*
 * fuzz_xclbin_libadf.c - libFuzzer target for the graph archive reader of
 * the packager: libadf.a (ar, via libarchive) with plain and ELF members
 * (aieth__graph_read_mem, nothing written), and the ELF section table walk
 * on its own when the input is an ELF object.
 *
 * Invariants: a failure names the archive; on success there is a control
 * config and at least one CDO besides the core enable; every ELF section
 * reported lies inside the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "th_package/libadf.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	const uint8_t *d;
	size_t n;
} mem;

static int rd(void *ctx, uint64_t off, void *buf, size_t n)
{
	mem *m = ctx;
	CHECK(off <= m->n && n <= m->n - off);
	memcpy(buf, m->d + off, n);
	return 0;
}

static int sec(void *ctx, const char *name, uint64_t off, uint64_t size)
{
	mem *m = ctx;
	CHECK(name != NULL);
	CHECK(off <= m->n && size <= m->n - off);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_graph_inputs g;
	mem m = {data, size};
	int rc;
	if (size >= 4 && !memcmp(data, "\177ELF", 4)) {
		rc = aieth__elf_sections("fuzz.o", size, rd, &m, sec, &m);
		CHECK(rc <= 0);
		return 0;
	}
	rc = aieth__graph_read_mem(&g, "fuzz.a", data, size, NULL);
	if (rc) {
		CHECK(rc < 0);
		CHECK(strstr(aieth_error_message(), "fuzz.a") != NULL);
		return 0;
	}
	CHECK(g.control_config != NULL);
	CHECK(g.num_cdos - (g.cdo[AIETH_CDO_ENABLE].present ? 1u : 0u) > 0);
	aieth__graph_free(&g);
	return 0;
}
