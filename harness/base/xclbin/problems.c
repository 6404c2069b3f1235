/* SPDX-License-Identifier: MIT */
/*
 * problems.c - one problem line of an xclbin check, to the caller's
 * callback (problems.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "xclbin/problems.h"

void aieth__problem(aieth_problems *p, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n = p->what ? snprintf(line, sizeof line, "%s: ", p->what) : 0;
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	p->count++;
	if (p->report)
		p->report(p->ctx, line);
}
