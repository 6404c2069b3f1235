/* SPDX-License-Identifier: MIT */
/*
 * validate.c - run_test validate: the numbered tests of each level, run in
 * turn, each recorded as a test of the report with its verdict. A test that
 * leaves the board unusable (it cannot be opened, it hung) skips the rest
 * with the reason, so a farm reads one verdict per test.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_model.h"
#include "runner/validate_internal.h"
#include "util/error.h"
#include "util/opts.h"

typedef struct {
	unsigned level;
	const char *name;
	void (*fn)(vd_ctx *c);
} vd_test;

static const vd_test tests[] = {
	{1, "board files", aieth__vd_board_files},
	{1, "clocks", aieth__vd_clocks},
	{1, "XRT", aieth__vd_xrt},
	{1, "PL kernel xclbin", aieth__vd_pl_xclbin},
	{1, "loopback design", aieth__vd_design},
	{1, "AI Engine driver", aieth__vd_aie_driver},
	{1, "AI Engine array state", aieth__vd_aie_array},
	{1, "device", aieth__vd_device},
	{2, "FUNC data check", aieth__vd_func},
	{2, "PERF all channels", aieth__vd_perf},
	{2, "counters", aieth__vd_counters},
	{2, "throughput", aieth__vd_rate},
	{2, "channel-to-channel delay", aieth__vd_delay},
	{3, "FUNC soak", aieth__vd_soak},
	{3, "memory read latency", aieth__vd_latency},
};

const char *aieth_validate_verdict_name(aieth_validate_verdict v)
{
	switch (v) {
	case AIETH_VALIDATE_PASSED: return "PASSED";
	case AIETH_VALIDATE_WARNINGS: return "PASSED WITH WARNINGS";
	case AIETH_VALIDATE_FAILED: return "FAILED";
	case AIETH_VALIDATE_SKIPPED: return "SKIPPED";
	}
	return "unknown";
}

AIETH__OPTS_INIT_FN(aieth_validate_opts, AIETH_VALIDATE_OPTS_INIT, AIETH_VALIDATE_OPTS_VERSION);

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One test into the report: "validate NN name" with its verdict. */
static void record(vd_ctx *c, const vd_test *t, double secs)
{
	struct json_object *j = aieth__rj_obj(), *v = aieth__rj_obj();
	char name[96];
	const char *status = c->verdict == AIETH_VALIDATE_SKIPPED ? "skip"
			     : c->verdict == AIETH_VALIDATE_FAILED
				     ? aieth__exit_status(c->exit_code)
				     : "pass";
	snprintf(name, sizeof name, "validate %02u %s", c->num, t->name);
	aieth__rj_str(j, "name", name);
	aieth__rj_null(j, "spec");
	aieth__rj_str(j, "board", c->info ? c->info->name : c->board_name);
	aieth__rj_str(j, "backend", c->backend);
	aieth__rj_str(j, "status", status);
	aieth__rj_int(j, "exit_code", c->exit_code);
	aieth__rj_num(j, "duration_s", secs);
	aieth__rj_set(j, "graphs", aieth__rj_arr());
	aieth__rj_set(j, "transactions", aieth__rj_arr());
	aieth__rj_int(v, "number", c->num);
	aieth__rj_int(v, "level", t->level);
	aieth__rj_str(v, "test", t->name);
	aieth__rj_str(v, "verdict",
		      aieth_validate_verdict_name((aieth_validate_verdict)c->verdict));
	if (c->reason[0])
		aieth__rj_str(v, "reason", c->reason);
	else
		aieth__rj_null(v, "reason");
	aieth__rj_set(v, "figures", c->fig);
	aieth__rj_set(j, "validate", v);
	if (json_object_array_length(c->warnings))
		aieth__rj_set(j, "warnings", c->warnings);
	else
		json_object_put(c->warnings);
	if (c->verdict == AIETH_VALIDATE_FAILED)
		aieth__rj_set(j, "error",
			      aieth__rj_error("validate",
					      c->exit_code == AIETH_EXIT_TIMEOUT ? AIETH_ETIMEOUT
										 : AIETH_EDEVICE,
					      c->reason, NULL));
	else
		aieth__rj_null(j, "error");
	{
		/* a validate test runs once (report schema /2: always there) */
		struct json_object *rp = aieth__rj_obj();
		aieth__rj_int(rp, "runs", 1);
		aieth__rj_int(rp, "warmup", 0);
		aieth__rj_str(rp, "statistic", "median");
		aieth__rj_set(j, "repeat", rp);
	}
	aieth__rj_push(c->r->tests, j);
	c->fig = NULL;
	c->warnings = NULL;
}

static int check_opts(const aieth_validate_opts *o)
{
	int rc;
	if ((rc = aieth__opts_version("aieth_validate_opts", "aieth_validate_opts", o->version,
				      AIETH_VALIDATE_OPTS_VERSION)) ||
	    (o->emu && (rc = aieth__opts_version("aieth_validate_opts.emu", "aieth_emu_opts",
						 o->emu->version, AIETH_EMU_OPTS_VERSION))) ||
	    (o->xrt && (rc = aieth__opts_version("aieth_validate_opts.xrt", "aieth_xrt_opts",
						 o->xrt->version, AIETH_XRT_OPTS_VERSION))) ||
	    (o->remote &&
	     (rc = aieth__opts_version("aieth_validate_opts.remote", "aieth_remote_opts",
				       o->remote->version, AIETH_REMOTE_OPTS_VERSION))))
		return rc;
	if (o->level > 3)
		return aieth__fail(AIETH_EINVAL, "validate: level %u: the levels are 1, 2 and 3",
				   o->level);
	if (o->soak_s > AIETH_VALIDATE_MAX_SOAK_S)
		return aieth__fail(AIETH_EINVAL, "validate: soak_s %u is over the limit of %u s",
				   (unsigned)o->soak_s, AIETH_VALIDATE_MAX_SOAK_S);
	if (aieth_backend_local(o->backend) < 0)
		return aieth__fail(AIETH_EINVAL, "validate: backend: %s", aieth_error_message());
	return AIETH_OK;
}

int aieth_report_validate(aieth_report *r, const aieth_validate_opts *opts)
{
	aieth_validate_opts def = AIETH_VALIDATE_OPTS_INIT;
	const aieth_validate_opts *o = opts ? opts : &def;
	vd_ctx c;
	unsigned level, i;
	unsigned int flags;
	int rc;

	aieth__error_clear();
	if (!r || !r->tests)
		return aieth__fail(AIETH_EINVAL, "aieth_report_validate: NULL or read-only report");
	if ((rc = check_opts(o)))
		return rc;
	memset(&c, 0, sizeof c);
	c.r = r;
	c.o = o;
	c.board_name = o->board ? o->board : "vck190";
	c.backend = o->backend ? o->backend : "emu";
	c.data_dir = o->data_dir;
	flags = aieth_backend_flags(c.backend); /* known: checked above */
	c.emu = !!(flags & AIETH_BACKEND_EMULATED);
	c.remote = !!(flags & AIETH_BACKEND_NETWORKED);
	c.soak_s = o->soak_s ? o->soak_s : c.emu ? 2 : 300;
	level = o->level ? o->level : 1;
	for (i = 0; i < sizeof tests / sizeof *tests; i++)
		c.total += tests[i].level <= level;
	for (i = 0; i < sizeof tests / sizeof *tests; i++) {
		const vd_test *t = &tests[i];
		double t0;
		if (t->level > level)
			continue;
		c.num++;
		c.fig = aieth__rj_obj();
		c.warnings = aieth__rj_arr();
		c.reason[0] = '\0';
		aieth__vd_pass(&c);
		if (o->progress)
			o->progress(o->progress_ctx, c.num, c.total, t->name, -1, "");
		t0 = mono();
		if (o->interrupt && *o->interrupt) {
			c.verdict = AIETH_VALIDATE_FAILED;
			c.exit_code = AIETH_EXIT_SIGNAL + (int)*o->interrupt;
			snprintf(c.reason, sizeof c.reason, "interrupted by signal %d",
				 (int)*o->interrupt);
		} else if (c.stop_exit) {
			aieth__vd_skip(&c, "%s", c.stop_why);
		} else {
			t->fn(&c);
		}
		record(&c, t, mono() - t0);
		if (o->progress)
			o->progress(o->progress_ctx, c.num, c.total, t->name, c.verdict, c.reason);
		if (aieth__rj_oom())
			break;
	}
	{
		struct json_object *v = aieth__rj_obj();
		aieth__rj_int(v, "level", level);
		aieth__rj_int(v, "tests", c.total);
		aieth__rj_int(v, "soak_s", c.soak_s);
		aieth__rj_num(v, "rate_pass_fraction", VD_RATE_PASS);
		aieth__rj_num(v, "rate_warn_fraction", VD_RATE_WARN);
		if (c.design[0])
			aieth__rj_str(v, "design", c.design);
		aieth__rj_set(r->run, "validate", v);
	}
	if (c.s)
		aieth_session_close(c.s);
	aieth_board_free(c.board);
	free(c.perf);
	return aieth__rj_oom() ? aieth__fail(AIETH_ENOMEM, "validate: out of memory") : AIETH_OK;
}

int aieth_validate_exit_code(const aieth_report *r)
{
	int code = aieth_report_exit_code(r);
	/* the run's contract, read for a board: a device or backend error (3)
	 * and all skipped (4) both say "the board cannot be used" */
	if (code == AIETH_EXIT_INFRA)
		return AIETH_EXIT_SKIP;
	return code;
}
