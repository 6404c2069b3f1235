/* SPDX-License-Identifier: MIT */
/*
 * run_report.c - aieth_report_run: load a description and its board, run
 * it (runner.c) or each point of its sweep (sweep.c) as tests of the
 * report, and close each test; the run options' versions.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/opts.h"

static void free_ctx(run_ctx *c)
{
	aieth__rn_free_data(c);
	aieth__rn_texts_free(c->texts);
	aieth_spec_free(c->sp);
	aieth_board_free(c->own_board);
}

/* The versions of aieth_run_opts and of the backends' structs it points at
 * that this library reads (a new version: raise the newest accepted here;
 * run_spec copies the xrt struct). The backends check their own structs
 * again as the session gets them. */
static int run_opts_check(const aieth_run_opts *o)
{
	int rc;
	if ((rc = aieth__opts_version("aieth_run_opts", "aieth_run_opts", o->version,
				      AIETH_RUN_OPTS_VERSION)) ||
	    (o->emu && (rc = aieth__opts_version("aieth_run_opts.emu", "aieth_emu_opts",
						 o->emu->version, AIETH_EMU_OPTS_VERSION))) ||
	    (o->xrt && (rc = aieth__opts_version("aieth_run_opts.xrt", "aieth_xrt_opts",
						 o->xrt->version, AIETH_XRT_OPTS_VERSION))) ||
	    (o->remote &&
	     (rc = aieth__opts_version("aieth_run_opts.remote", "aieth_remote_opts",
				       o->remote->version, AIETH_REMOTE_OPTS_VERSION))))
		return rc;
	if (o->version >= 4 && o->sensor_period_ms &&
	    (o->sensor_period_ms < SENS_PERIOD_MIN_MS || o->sensor_period_ms > SENS_PERIOD_MAX_MS))
		return aieth__fail(AIETH_EINVAL,
				   "aieth_run_opts.sensor_period_ms: %u: expected %u..%u (0: %u)",
				   o->sensor_period_ms, SENS_PERIOD_MIN_MS, SENS_PERIOD_MAX_MS,
				   SENS_PERIOD_DEFAULT_MS);
	return AIETH_OK;
}

/* Version 1 ends before xclbin_warn_only, version 2 before repeat_runs,
 * version 3 before sensor_period_ms: a caller of an older version gets
 * the bytes of its struct only. */
int aieth_run_opts_init(aieth_run_opts *opts, unsigned int version)
{
	static const aieth_run_opts init = AIETH_RUN_OPTS_INIT;
	size_t size = version == 1   ? offsetof(aieth_run_opts, xclbin_warn_only)
		      : version == 2 ? offsetof(aieth_run_opts, repeat_runs)
		      : version == 3 ? offsetof(aieth_run_opts, sensor_period_ms)
				     : sizeof init;
	int rc = aieth__opts_init("aieth_run_opts_init", opts, &init, size, version,
				  AIETH_RUN_OPTS_VERSION);
	if (!rc)
		opts->version = version;
	return rc;
}

int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *o)
{
	run_ctx c;
	double t0 = aieth__now();
	const char *board;
	int rc;

	if (!r || !spec_path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_run: NULL argument");
	if (o && (rc = run_opts_check(o)))
		return rc;
	memset(&c, 0, sizeof c);
	c.r = r;
	c.o = o;
	c.test = aieth__rj_obj();
	c.exit_code = AIETH_EXIT_PASS;
	aieth__rj_push(r->tests, c.test);
	aieth__rj_str(c.test, "spec", spec_path);
	aieth__rj_str(c.test, "name", spec_path);

	if (o && o->progress)
		o->progress(o->progress_ctx, "load the description", 0, 0);
	rc = aieth_spec_load(&c.sp, spec_path);
	if (rc) {
		aieth__rn_test_error(&c, "load", rc, "see docs/test-spec.md",
				     rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA : AIETH_EXIT_INPUT);
		goto done;
	}
	aieth__rj_str(c.test, "name", c.sp->name);
	if (c.sp->description)
		aieth__rj_str(c.test, "description", c.sp->description);
	board = o && o->board ? o->board : c.sp->board;
	if (!board) {
		aieth__fail(AIETH_EINVAL,
			    "%s: board: missing: name the board in the description or "
			    "give --board",
			    spec_path);
		aieth__rn_test_error(&c, "load", AIETH_EINVAL, NULL, AIETH_EXIT_INPUT);
		goto done;
	}
	rc = aieth_board_load(&c.own_board, board, o ? o->data_dir : NULL);
	if (rc) {
		aieth__rn_test_error(&c, "load", rc,
				     "boards: vck190, vek280, vek385 (platforms/*.json)",
				     rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA : AIETH_EXIT_INPUT);
		goto done;
	}
	c.board = c.own_board;
	if (!aieth__rn_sweep(&c, t0)) /* a sweep: each point a test (sweep.c) */
		aieth__rn_run_spec(&c);
done:
	aieth__rn_test_finish(&c, t0);
	free_ctx(&c);
	return aieth__rj_oom() ? aieth__fail(AIETH_ENOMEM, "report: out of memory") : AIETH_OK;
}
