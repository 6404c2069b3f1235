/* SPDX-License-Identifier: MIT */
/*
 * validate_verdict.c - the running validate test's verdict and reason
 * (PASSED, PASSED WITH WARNINGS, FAILED, SKIPPED), set by the tests of
 * validate_board.c, validate_chan.c and validate_lat.c.
 */
#include <stdarg.h>
#include <stdio.h>

#include "report/report_model.h"
#include "runner/validate_internal.h"

static void vsay(char *dst, size_t n, const char *fmt, va_list ap) { vsnprintf(dst, n, fmt, ap); }

void aieth__vd_pass(vd_ctx *c)
{
	c->verdict = AIETH_VALIDATE_PASSED;
	c->exit_code = AIETH_EXIT_PASS;
}

void aieth__vd_warn(vd_ctx *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsay(msg, sizeof msg, fmt, ap);
	va_end(ap);
	aieth__rj_push_str(c->warnings, msg);
	if (c->verdict == AIETH_VALIDATE_PASSED)
		c->verdict = AIETH_VALIDATE_WARNINGS;
	if (!c->reason[0])
		snprintf(c->reason, sizeof c->reason, "%s", msg);
}

void aieth__vd_fail(vd_ctx *c, int exit_code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(c->reason, sizeof c->reason, fmt, ap);
	va_end(ap);
	c->verdict = AIETH_VALIDATE_FAILED;
	c->exit_code = exit_code;
}

void aieth__vd_skip(vd_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(c->reason, sizeof c->reason, fmt, ap);
	va_end(ap);
	c->verdict = AIETH_VALIDATE_SKIPPED;
	c->exit_code = AIETH_EXIT_SKIP;
}
