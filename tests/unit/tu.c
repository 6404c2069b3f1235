/* SPDX-License-Identifier: MIT */
/* tu.c - shared runner and file helpers for the unit tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"

aieth_session *tu_session(const char *board, const char *model, const char *params, int reference)
{
	aieth_graph_spec g = {"gr", model, params};
	aieth_session_opts o;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	aieth_session *s = NULL;
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.board = board;
	o.graphs = &g;
	o.num_graphs = 1;
	emu.reference = reference;
	o.emu = &emu;
	if (aieth_session_open(&s, &o) != AIETH_OK)
		printf("\nopen failed: %s\n", aieth_error_message());
	return s;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);
	return v && *v ? v : dflt;
}

const char *tu_src(const char *rel)
{
	static char buf[8][4096];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", env_or("AIETH_SRC", "."), rel);
	return b;
}

const char *tu_build(const char *rel)
{
	static char buf[8][4096];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", env_or("AIETH_BUILD", "build"), rel);
	return b;
}

/* The files tu_tmpfile made, removed when the suite has run. */
static char **made;
static size_t nmade;

const char *tu_tmpfile(const char *text)
{
	static char buf[8][64];
	static int slot;
	char *b = buf[slot++ % 8];
	int fd;
	size_t n = strlen(text);
	snprintf(b, sizeof buf[0], "/tmp/aieth-tu-XXXXXX");
	fd = mkstemp(b);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n) {
		perror("tu_tmpfile");
		exit(2);
	}
	close(fd);
	{
		char **m = realloc(made, (nmade + 1) * sizeof *made);
		if (!m || !(m[nmade] = strdup(b))) {
			perror("tu_tmpfile");
			exit(2);
		}
		made = m;
		nmade++;
	}
	return b;
}

int tu_run(const char *suite, const tu_test *tests)
{
	CU_pSuite s;
	unsigned failed;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite(suite, NULL, NULL);
	if (!s)
		return 2;
	for (; tests->name; tests++)
		if (!CU_add_test(s, tests->name, tests->fn))
			return 2;
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	while (nmade) {
		unlink(made[--nmade]);
		free(made[nmade]);
	}
	free(made);
	made = NULL;
	return failed ? 1 : 0;
}

void tu_put(const char *root, const char *rel, const char *text)
{
	char p[4096];
	FILE *f;
	snprintf(p, sizeof p, "%s/%s", root, rel);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	CU_ASSERT_EQUAL(fclose(f), 0);
}

void tu_mkdir(const char *root, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0755), 0);
}

char tu_said[TU_SAID_MAX][512];
int tu_nsaid;

void tu_say(void *ctx, const char *line)
{
	(void)ctx;
	if (tu_nsaid < TU_SAID_MAX)
		snprintf(tu_said[tu_nsaid], sizeof tu_said[0], "%s", line);
	tu_nsaid++;
}
