/* SPDX-License-Identifier: MIT */
/*
 * run_ctx.c - a run's test record: its error (the first one wins) and its
 * exit code by the contract (docs/user-guide.md).
 */
#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "util/error.h"

/* Record the test's error and exit code (first error wins). */
void aieth__rn_test_error(run_ctx *c, const char *phase, int code, const char *hint, int exit_code)
{
	if (!aieth__rj_get(c->test, "error"))
		aieth__rj_set(c->test, "error",
			      aieth__rj_error(phase, code, aieth_error_message(), hint));
	c->exit_code = aieth__exit_worst(c->exit_code, exit_code);
}

/* Exit code for an input/device error code of the library. */
int aieth__rn_exit_for(int code)
{
	switch (code) {
	case AIETH_ENOMEM:
	case AIETH_EDEVICE: return AIETH_EXIT_INFRA;
	case AIETH_EUNSUPPORTED: return AIETH_EXIT_SKIP;
	case AIETH_ETIMEOUT: return AIETH_EXIT_TIMEOUT;
	default: return AIETH_EXIT_INPUT;
	}
}
