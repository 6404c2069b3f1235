/* SPDX-License-Identifier: MIT */
/*
 * test_run_interrupt.c - a signal that lands while a transaction ends: the
 * flag is raised by the last progress call of the emulated board's data
 * phase, after which nothing polls it, so the transaction completes and the
 * runner records the interruption itself. Its message is complete (it used
 * to end in "ran: " with nothing after the colon).
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "aieth.h"
#include "tu.h"

static volatile sig_atomic_t flag;
static int raised;

/* The flag goes up when the transaction reports all its bytes moved. */
static void at_the_end(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
	(void)ctx;
	if (!strncmp(phase, "transaction", 11) && total && done == total && !raised) {
		flag = SIGINT;
		raised = 1;
	}
}

static void test_message_complete(void)
{
	const char *spec = tu_tmpfile(
		"{\"schema\": \"aieth-test/1\", \"name\": \"edge\", \"board\": \"vck190\",\n"
		" \"graphs\": [{\"name\": \"gr\", \"model\": \"loopback\","
		" \"params\": {\"channels\": [1], \"window_bytes\": 128}}],\n"
		" \"transactions\": [{\"name\": \"t\", \"mode\": \"func\", \"channels\": [\n"
		"  {\"plio\": \"PLIO_01_TO_AIE\", \"size\": 65536, \"data\": {\"pattern\": \"ramp\","
		" \"type\": \"uint32\", \"start\": 0, \"step\": 1}},\n"
		"  {\"plio\": \"PLIO_01_FROM_AIE\", \"size\": 65536}]}]}\n");
	aieth_report *r = NULL;
	aieth_run_opts o;
	char *txt, *line, *end;
	aieth_run_opts_init(&o, AIETH_RUN_OPTS_VERSION);
	o.interrupt = &flag;
	o.progress = at_the_end;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_run(r, spec, &o), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_TRUE(raised);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_SIGNAL + SIGINT);
	txt = aieth_report_text(r, -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
	line = strstr(txt, "error (interrupted");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	end = strchr(line, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(end);
	*end = '\0';
	/* "... while transactions[0] ran", no colon left dangling */
	CU_ASSERT_TRUE(end - line > 2 && end[-1] != ':' && !(end[-1] == ' ' && end[-2] == ':'));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "ran"));
	if (end[-1] == ' ' || end[-1] == ':')
		printf("\nmessage: %s\n", line);
	free(txt);
	aieth_report_free(r);
	remove(spec);
}

TU_MAIN("run_interrupt",
	{"a signal as the transaction ends: a complete message", test_message_complete})
