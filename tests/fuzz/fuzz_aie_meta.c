/* SPDX-License-Identifier: MIT */
/*
 * fuzz_aie_meta.c - libFuzzer target for the aie_control_config.json
 * reader (aieth_aie_meta_parse), the PLIO checks against two boards and
 * the check of the nodes XRT's edge parser reads.
 *
 * Invariants: a failure names the file; on success every PLIO belongs to
 * no graph or to one that exists, every problem line is non-empty, and
 * each line of the XRT-node check names the JSON path (one per count).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "xclbin/xclbin_object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static aieth_board *boards[2];

static void line_ok(void *ctx, const char *line)
{
	(void)ctx;
	CHECK(line && *line);
}

static size_t xrt_lines;
static void xrt_line(void *ctx, const char *line)
{
	(void)ctx;
	CHECK(strncmp(line, "fuzz.json: aie_metadata", 23) == 0);
	xrt_lines++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[2] = {"vck190", "vek280"};
	aieth_aie_meta *m = NULL;
	aieth_aie_plio p;
	aieth_aie_graph g;
	size_t i;
	int rc, b;
	for (b = 0; b < 2; b++)
		if (!boards[b] &&
		    aieth_board_load(&boards[b], names[b], getenv("AIETH_DATA_DIR"))) {
			fprintf(stderr, "fuzz_aie_meta: %s\n", aieth_error_message());
			abort();
		}
	rc = aieth_aie_meta_parse(&m, "fuzz.json", (const char *)data, size);
	if (rc) {
		CHECK(rc < 0 && m == NULL);
		CHECK(strstr(aieth_error_message(), "fuzz.json") != NULL);
		return 0;
	}
	for (i = 0; i < aieth_aie_meta_num_graphs(m); i++)
		CHECK(aieth_aie_meta_graph(m, i, &g) == 0 && g.name && *g.name);
	for (i = 0; i < aieth_aie_meta_num_plios(m); i++) {
		CHECK(aieth_aie_meta_plio(m, i, &p) == 0);
		CHECK(p.graph >= -1 && p.graph < (int)aieth_aie_meta_num_graphs(m));
		CHECK(p.name && p.logical_name);
	}
	for (b = 0; b < 2; b++)
		aieth_aie_meta_check(m, boards[b], line_ok, NULL);
	xrt_lines = 0;
	CHECK(aieth__aie_meta_xrt_check(m, "fuzz.json", xrt_line, NULL) == xrt_lines);
	aieth_aie_meta_free(m);
	return 0;
}
