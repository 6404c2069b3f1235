/* SPDX-License-Identifier: MIT */
/*
 * fuzz_report_html.c - libFuzzer target for the pages drawn from a
 * report.json read back (harness/src/report/report_{html,curve,dist,sweep,
 * stats}.c): the campaign fields ("stats", "sweep", report.run.sweeps) are
 * not checked by the reader, so the writers check every type themselves.
 *
 * Checked invariants, for any input the reader accepts:
 *  - every sweep's curves, the sweep sections and every transaction's
 *    distribution are drawn without a crash, as valid UTF-8 with no
 *    "<script" (every string from the report is escaped);
 *  - the whole page is written (to /dev/null) without an error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "util/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void drawn(sbuf *b)
{
	CHECK(!b->oom);
	CHECK(!b->p || aieth__utf8_valid(b->p));
	CHECK(!b->p || !strstr(b->p, "<script"));
	aieth__sb_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_report *r = NULL;
	struct json_object *sw;
	size_t i, j, a;
	int fig;
	if (aieth_report_parse(&r, "r.json", (const char *)data, size) != AIETH_OK)
		return 0;
	sw = aieth__rv_arr(r->run, "sweeps");
	for (i = 0; i < aieth__rv_num_sweeps(r->run); i++)
		for (a = 0; a < 4; a++)
			for (fig = 0; fig < RV_NUM_FIGS; fig++) {
				sbuf b = SB_INIT(SB_DOC_MAX);
				CHECK(aieth__rv_svg_curve(&b, r->tests,
							  json_object_array_get_idx(sw, i), a, fig,
							  1) >= 0);
				drawn(&b);
			}
	{
		sbuf b = SB_INIT(SB_DOC_MAX);
		aieth__rv_html_sweeps(&b, r, NULL);
		drawn(&b);
	}
	for (i = 0; i < json_object_array_length(r->tests) && i < 64; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rv_arr(t, "transactions");
		for (j = 0; j < aieth__rv_len(txns) && j < 16; j++) {
			sbuf b = SB_INIT(SB_DOC_MAX);
			aieth__rv_svg_distribution(&b, t, json_object_array_get_idx(txns, j), 0);
			drawn(&b);
		}
	}
	CHECK(aieth_report_write_html(r, "/dev/null") == AIETH_OK);
	aieth_report_free(r);
	return 0;
}
