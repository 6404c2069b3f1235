/* SPDX-License-Identifier: MIT */
/*
 * cli_bisect.c - run_test --bisect: a run's outcome as `git bisect run`
 * reads it. Only what says something about the commit is good or bad: a
 * pass is good; a failed test, a regression and a hang on the emulated
 * board (its timeout is board time, so the hang is the commit's own,
 * every run) are bad; an input error, an infrastructure error, a skip and
 * a hang on a real board (the board, not the commit, may be at fault) are
 * 125, which makes git skip the commit. A signal keeps 128+N, which makes
 * git bisect run stop (what Ctrl-C should do).
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "cli_bisect.h"

int cli_bisect_requested(int argc, char *const *argv)
{
	int i;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--bisect"))
			return 1;
	return 0;
}

/* What an exit code of one test (or of the run) says about the commit;
 * why: a few words for the line. emu: the test ran on the emulated board
 * (-1: not known). */
static int judge(int code, int emu, const char **why)
{
	switch (code) {
	case AIETH_EXIT_PASS: *why = "passed"; return CLI_BISECT_GOOD;
	case AIETH_EXIT_FAIL:
		*why = "failed (exit 1: data, threshold or regression)";
		return CLI_BISECT_BAD;
	case AIETH_EXIT_INPUT:
		*why = "usage or input error (exit 2): says nothing about the commit";
		return CLI_BISECT_SKIP;
	case AIETH_EXIT_INFRA:
		*why = "infrastructure error (exit 3: device, backend, server unreachable): "
		       "says nothing about the commit";
		return CLI_BISECT_SKIP;
	case AIETH_EXIT_SKIP:
		*why = "skipped (exit 4): says nothing about the commit";
		return CLI_BISECT_SKIP;
	case AIETH_EXIT_TIMEOUT:
		if (emu == 1) {
			*why = "hung on the emulated board (exit 5: board time, the same "
			       "every run: the commit's own result)";
			return CLI_BISECT_BAD;
		}
		*why = emu == 0 ? "hung on a board (exit 5: the board may be at fault)"
				: "hung (exit 5), backend not known";
		return CLI_BISECT_SKIP;
	default: *why = "an exit code run_test does not give"; return CLI_BISECT_SKIP;
	}
}

/* report.json read back (a regular file of at most AIETH_REPORT_MAX_FILE
 * bytes), or NULL. */
static struct json_object *load_report(const char *path)
{
	struct json_object *j = NULL;
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd;
	if (!path || (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (unsigned long long)st.st_size > AIETH_REPORT_MAX_FILE ||
	    !(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	if (got == (size_t)st.st_size)
		j = json_tokener_parse(buf);
	free(buf);
	if (j && !json_object_is_type(j, json_type_object)) {
		json_object_put(j);
		j = NULL;
	}
	return j;
}

static const char *word(int b)
{
	return b == CLI_BISECT_GOOD ? "good" : b == CLI_BISECT_BAD ? "bad" : "skip";
}

int cli_bisect_code(int code, const char *report_path, char *line, size_t size)
{
	struct json_object *rep, *tests = NULL, *t, *v;
	const char *why, *name, *first_why = NULL;
	char first[200] = "";
	size_t i, n = 0;
	int b, bad = 0, skip = 0, firstb = -1;
	if (code >= AIETH_EXIT_SIGNAL) {
		snprintf(line, size,
			 "bisect: exit %d (abort): interrupted by signal %d: git bisect run "
			 "stops\n",
			 code, code - AIETH_EXIT_SIGNAL);
		return code;
	}
	rep = load_report(report_path);
	if (rep && json_object_object_get_ex(rep, "tests", &tests) &&
	    json_object_is_type(tests, json_type_array))
		n = json_object_array_length(tests);
	/* bad wins (a failed test is evidence, whatever else did not run);
	 * then skip (a test that said nothing may be the one that broke) */
	for (i = 0; i < n; i++) {
		int tc, emu = -1;
		t = json_object_array_get_idx(tests, i);
		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_object_get_ex(t, "exit_code", &v) ||
		    !json_object_is_type(v, json_type_int))
			continue;
		tc = json_object_get_int(v);
		if (json_object_object_get_ex(t, "backend", &v) &&
		    json_object_is_type(v, json_type_string))
			emu = !!(aieth_backend_flags(json_object_get_string(v)) &
				 AIETH_BACKEND_EMULATED);
		name = json_object_object_get_ex(t, "name", &v) &&
				       json_object_is_type(v, json_type_string)
			       ? json_object_get_string(v)
			       : "?";
		b = judge(tc, emu, &why);
		bad += b == CLI_BISECT_BAD;
		skip += b == CLI_BISECT_SKIP;
		/* the line names the first test of the verdict that decides */
		if (b != CLI_BISECT_GOOD &&
		    (firstb < 0 || (b == CLI_BISECT_BAD && firstb != CLI_BISECT_BAD))) {
			firstb = b;
			first_why = why;
			snprintf(first, sizeof first, "%.120s", name);
			/* the name goes to a terminal: no control characters */
			for (char *q = first; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					*q = '?';
		}
	}
	if (!n || (!bad && !skip && code != AIETH_EXIT_PASS)) {
		/* nothing to read per test: the run's code decides */
		b = judge(code, -1, &why);
		snprintf(line, size, "bisect: exit %d (%s): the run: %s\n", b, word(b), why);
	} else if (bad || skip) {
		b = bad ? CLI_BISECT_BAD : CLI_BISECT_SKIP;
		snprintf(line, size, "bisect: exit %d (%s): test %s: %s (%zu of %zu test%s %s)\n",
			 b, word(b), first, first_why, bad ? (size_t)bad : (size_t)skip, n,
			 n == 1 ? "" : "s", bad ? "bad" : "said nothing about the commit");
	} else {
		b = CLI_BISECT_GOOD;
		snprintf(line, size, "bisect: exit 0 (good): %zu test%s passed\n", n,
			 n == 1 ? "" : "s");
	}
	json_object_put(rep);
	return b;
}
