/* SPDX-License-Identifier: MIT */
/*
 * calibrate_run.c - one candidate of run_test calibrate: the base board
 * file with the candidate values, and one emulated run of a description on
 * it. Used by the pairs' checks and by the fit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "runner/calibrate_impl.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

/* The fitted parameters, their board-file place and validation bounds
 * (docs/boards.md). burst_words and fifo_depth_words are the kernel's
 * constants and stay. */
const cal_param aieth__cal_params[CAL_NPARAM] = {
	{"func_memory", "read_latency_cycles", 0, 100000},
	{"func_memory", "write_latency_cycles", 0, 100000},
	{"func_memory", "loop_overhead_cycles", 1, 1000},
	{"counter_edges", "tx_first_cycles", 0, 1000},
	{"counter_edges", "tx_last_cycles", 0, 1000},
	{"counter_edges", "rx_first_cycles", 0, 1000},
	{"counter_edges", "rx_last_cycles", 0, 1000},
	{NULL, "preload_latency_cycles", 0, 100000},
};

/* The base board's JSON with the values x (missing objects created). */
static char *board_text(aieth_calib *c, const int64_t *x, size_t *len)
{
	size_t i;
	const char *s;
	for (i = 0; i < CAL_NPARAM; i++) {
		struct json_object *o = c->base, *v;
		if (aieth__cal_params[i].obj) {
			if (!json_object_object_get_ex(c->base, aieth__cal_params[i].obj, &o) ||
			    !json_object_is_type(o, json_type_object)) {
				o = json_object_new_object();
				if (!o ||
				    json_object_object_add(c->base, aieth__cal_params[i].obj, o))
					return NULL;
			}
		}
		v = json_object_new_int64(x[i]);
		if (!v || json_object_object_add(o, aieth__cal_params[i].key, v))
			return NULL;
	}
	s = json_object_to_json_string_ext(c->base, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		return NULL;
	*len = strlen(s);
	return aieth__strdup(s);
}

int aieth__cal_write_board(aieth_calib *c, const int64_t *x, const char *path)
{
	size_t len = 0;
	char *t = board_text(c, x, &len);
	int rc;
	if (!t)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	t[len] = '\0';
	rc = aieth__write_atomic(path, t, len);
	free(t);
	return rc;
}

int aieth__cal_run(aieth_calib *c, const char *spec, aieth_report **out)
{
	aieth_run_opts o;
	aieth_report *r = NULL;
	int rc;
	*out = NULL;
	aieth_run_opts_init(&o, AIETH_RUN_OPTS_VERSION);
	o.board = c->tmpboard;
	o.backend = "emu";
	o.data_dir = c->data_dir;
	o.out_dir = c->tmpdir;
	if ((rc = aieth_report_new(&r, "run_test calibrate", 0, NULL)))
		return rc;
	rc = aieth_report_run(r, spec, &o);
	if (rc || !r->tests || json_object_array_length(r->tests) < 1) {
		aieth_report_free(r);
		return rc ? rc : aieth__fail(AIETH_EINVAL, "%s: no test was run", spec);
	}
	*out = r;
	return AIETH_OK;
}
