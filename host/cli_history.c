/* SPDX-License-Identifier: MIT */
/*
 * cli_history.c - the command-line side of the run history: run_test
 * history add|show|html|gate, and the --history / --gate-history steps of
 * run_test. The history itself is the library's (harness/src/history/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "cli_compare.h"
#include "cli_history.h"

static const char history_usage[] =
	"usage: %s history add DB REPORT.json... [--label TEXT]\n"
	"       %s history show DB [--test NAME] [--last K]\n"
	"       %s history html DB -o TREND.html [--points N]\n"
	"       %s history gate DB NEW.json [--gate-last K] [--max-regression PCT]\n"
	"\n"
	"The run history: run_test reports kept in an SQLite database (DB, created\n"
	"when missing; a regular file, never a symbolic link), trend pages and gates\n"
	"against the last passing runs (docs/farm.md, \"Run history\").\n"
	"\n"
	"  add   record reports (aieth-report/1 or /2), each in one transaction;\n"
	"        a run already recorded (same run id and host) is left as it is; a\n"
	"        damaged or foreign file is named and skipped (exit 2 at the end)\n"
	"        --label TEXT  a commit or build kept with each run (the trend\n"
	"                      page's x axis)\n"
	"  show  a table of the last runs, one line per test (default 20 runs)\n"
	"        --test NAME   only that test;  --last K  the last K runs\n"
	"  html  one self-contained page (inline SVG, no script): per test, board,\n"
	"        backend and figure a trend line, the thresholds, the gate's band,\n"
	"        failed runs and regressions marked, each point a link to its report\n"
	"        -o FILE       the page;  --points N  runs drawn per series (200)\n"
	"  gate  compare NEW.json's figures with the median of the last K passing\n"
	"        runs of each test, board and backend (NEW.json's own run left out):\n"
	"        a band of the tolerance (NEW.json's \"regression\" objects, else\n"
	"        --max-regression, default 5 %%) plus 3 x 1.4826 x their median\n"
	"        absolute deviation; fewer than 3 runs is \"no baseline\", never a\n"
	"        failure\n"
	"        --gate-last K  baseline runs (default 10)\n"
	"\n"
	"exit codes: 0 done (gate: no regression), 1 gate: a figure regressed or\n"
	"went missing, 2 usage error or an input file skipped, 3 the database\n"
	"cannot be opened or written (not a file, a link, not an aieth history, a\n"
	"newer schema).\n";

int cli_parse_last(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v < 1 || v > 100000)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int usage(const char *prog, const char *msg, const char *arg)
{
	fprintf(stderr, "%s history: %s%s%s\nTry '%s history --help'.\n", prog, msg, arg ? " " : "",
		arg ? arg : "", prog);
	return AIETH_EXIT_INPUT;
}

int cli_history_open(aieth_history **h, const char *db, int read_only, const char *opt)
{
	aieth_history_opts o = AIETH_HISTORY_OPTS_INIT;
	o.read_only = read_only;
	if (aieth_history_open(h, db, &o)) {
		fprintf(stderr, "run_test: %s%s%s\n", opt ? opt : "", opt ? ": " : "",
			aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	return 0;
}

/* the value of an option at argv[*i] ("--opt V" or "--opt=V"), or NULL */
static const char *opt_val(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name))
		return *i + 1 < argc ? argv[++*i] : NULL;
	return NULL;
}

static int is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

static int cmd_add(const char *prog, aieth_history *h, const char *db, int nfiles, char **files,
		   const char *label)
{
	int i, code = 0, added, rc;
	size_t n = strlen(db);
	for (i = 0; i < nfiles; i++) {
		if ((rc = aieth_history_add_file(h, files[i], label, &added))) {
			const char *m = aieth_error_message();
			/* the database failing (its messages start "history DB:")
			 * is not a file to skip: stop there */
			if (rc != AIETH_EPARSE && rc != AIETH_EINVAL &&
			    !strncmp(m, "history ", 8) && !strncmp(m + 8, db, n) &&
			    m[8 + n] == ':') {
				fprintf(stderr, "%s history add: %s: %s\n", prog, files[i], m);
				return AIETH_EXIT_INFRA;
			}
			fprintf(stderr, "%s history add: skipped %s: %s\n", prog, files[i], m);
			code = AIETH_EXIT_INPUT;
		} else {
			printf("%s %s\n", added ? "added" : "already recorded:", files[i]);
		}
	}
	return code;
}

static int cmd_gate(const char *prog, aieth_history *h, const char *file, unsigned last, double pct)
{
	aieth_report *r = NULL;
	aieth_history_gate *g = NULL;
	char *txt;
	int code = AIETH_EXIT_INPUT;
	if (aieth_report_load(&r, file)) {
		fprintf(stderr, "%s history gate: %s\n", prog, aieth_error_message());
		return AIETH_EXIT_INPUT;
	}
	if (aieth_history_gate_report(&g, h, r, last, pct)) {
		fprintf(stderr, "%s history gate: %s\n", prog, aieth_error_message());
		code = AIETH_EXIT_INFRA;
	} else if (!(txt = aieth_history_gate_text(g))) {
		fprintf(stderr, "%s history gate: out of memory\n", prog);
		code = AIETH_EXIT_INFRA;
	} else {
		fputs(txt, stdout);
		free(txt);
		code = aieth_history_gate_exit(g);
	}
	aieth_history_gate_free(g);
	aieth_report_free(r);
	return code;
}

int cli_history_main(const char *prog, int argc, char **argv)
{
	const char *sub, *db = NULL, *label = NULL, *test = NULL, *out = NULL, *v;
	char **files = NULL;
	unsigned last = 0, points = 0;
	double pct = -1;
	int i, nfiles = 0, code;
	aieth_history *h = NULL;
	aieth_history_opts o = AIETH_HISTORY_OPTS_INIT;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (argc < 2)
			return usage(prog, "a subcommand is needed: add, show, html or gate", NULL);
		printf(history_usage, prog, prog, prog, prog);
		return AIETH_EXIT_PASS;
	}
	sub = argv[1];
	if (strcmp(sub, "add") && strcmp(sub, "show") && strcmp(sub, "html") && strcmp(sub, "gate"))
		return usage(prog, "unknown subcommand", sub);
	files = calloc((size_t)argc, sizeof *files);
	if (!files)
		return AIETH_EXIT_INFRA;
	code = -1;
	for (i = 2; i < argc && code < 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf(history_usage, prog, prog, prog, prog);
			code = AIETH_EXIT_PASS;
		} else if (!strcmp(sub, "add") && is_opt(a, "--label")) {
			if (!(label = opt_val(argc, argv, &i, "--label")))
				code = usage(prog, "--label: a text is needed", NULL);
		} else if (!strcmp(sub, "show") && is_opt(a, "--test")) {
			if (!(test = opt_val(argc, argv, &i, "--test")) || !*test)
				code = usage(prog, "--test: a test name is needed", NULL);
		} else if (!strcmp(sub, "show") && is_opt(a, "--last")) {
			if (cli_parse_last(v = opt_val(argc, argv, &i, "--last"), &last))
				code = usage(prog, "--last: expected runs 1..100000, got",
					     v ? v : "nothing");
		} else if (!strcmp(sub, "html") && (!strcmp(a, "-o") || is_opt(a, "--out"))) {
			out = !strcmp(a, "-o") ? (i + 1 < argc ? argv[++i] : NULL)
					       : opt_val(argc, argv, &i, "--out");
			if (!out || !*out)
				code = usage(prog, "-o: a file name is needed", NULL);
		} else if (!strcmp(sub, "html") && is_opt(a, "--points")) {
			if (cli_parse_last(v = opt_val(argc, argv, &i, "--points"), &points))
				code = usage(prog, "--points: expected runs 1..100000, got",
					     v ? v : "nothing");
		} else if (!strcmp(sub, "gate") && is_opt(a, "--gate-last")) {
			if (cli_parse_last(v = opt_val(argc, argv, &i, "--gate-last"), &last))
				code = usage(prog, "--gate-last: expected runs 1..100000, got",
					     v ? v : "nothing");
		} else if (!strcmp(sub, "gate") && is_opt(a, "--max-regression")) {
			if (cli_parse_pct(v = opt_val(argc, argv, &i, "--max-regression"), &pct))
				code = usage(prog,
					     "--max-regression: expected percent 0..1000000, got",
					     v ? v : "nothing");
		} else if (a[0] == '-' && a[1]) {
			code = usage(prog, "bad option for this subcommand:", a);
		} else if (!db) {
			db = a;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (code < 0 && !db)
		code = usage(prog, "the database (DB) is needed", NULL);
	if (code < 0 && !strcmp(sub, "add") && !nfiles)
		code = usage(prog, "add: at least one REPORT.json is needed", NULL);
	if (code < 0 && !strcmp(sub, "gate") && nfiles != 1)
		code = usage(prog, "gate: one NEW.json is needed", NULL);
	if (code < 0 && (!strcmp(sub, "show") || !strcmp(sub, "html")) && nfiles)
		code = usage(prog, "one database only, got also", files[0]);
	if (code < 0 && !strcmp(sub, "html") && !out)
		code = usage(prog, "html: -o FILE is needed", NULL);
	if (code >= 0) {
		free(files);
		return code;
	}
	o.read_only = strcmp(sub, "add") != 0;
	if (aieth_history_open(&h, db, &o)) {
		fprintf(stderr, "%s history %s: %s\n", prog, sub, aieth_error_message());
		free(files);
		return AIETH_EXIT_INFRA;
	}
	if (!strcmp(sub, "add")) {
		code = cmd_add(prog, h, db, nfiles, files, label);
	} else if (!strcmp(sub, "gate")) {
		code = cmd_gate(prog, h, files[0], last, pct);
	} else if (!strcmp(sub, "show")) {
		char *txt = NULL;
		if (aieth_history_text(h, test, last, &txt)) {
			fprintf(stderr, "%s history show: %s\n", prog, aieth_error_message());
			code = AIETH_EXIT_INFRA;
		} else {
			fputs(txt, stdout);
			free(txt);
			code = 0;
		}
	} else {
		if (aieth_history_write_html(h, out, points)) {
			fprintf(stderr, "%s history html: %s\n", prog, aieth_error_message());
			code = AIETH_EXIT_INFRA;
		} else {
			printf("trend page: %s\n", out);
			code = 0;
		}
	}
	aieth_history_close(h);
	free(files);
	if (fflush(stdout))
		code = code ? code : AIETH_EXIT_INPUT;
	return code;
}

char *cli_history_gate(aieth_report *r, aieth_history *h, unsigned last, double pct)
{
	aieth_history_gate *g = NULL;
	char *txt = NULL;
	int rc;
	if ((rc = aieth_history_gate_report(&g, h, r, last, pct)) ||
	    (rc = aieth_report_add_history_gate(r, g)) ||
	    (!(txt = aieth_history_gate_text(g)) && (rc = AIETH_ENOMEM))) {
		char msg[1200];
		snprintf(msg, sizeof msg, "--gate-history: %s",
			 *aieth_error_message() ? aieth_error_message() : "out of memory");
		fprintf(stderr, "run_test: %s\n", msg);
		if (aieth_report_num_tests(r))
			aieth_report_test_error(r, -1, "history_gate", rc, msg, NULL,
						AIETH_EXIT_INFRA);
		free(txt);
		txt = NULL;
	}
	aieth_history_gate_free(g);
	return txt;
}

int cli_history_record(aieth_report *r, aieth_history *h, const char *report_path,
		       const char *label, int quiet)
{
	int added = 0;
	if (aieth_history_add_report(h, r, report_path, label, &added)) {
		fprintf(stderr, "run_test: --history: the run was not recorded: %s\n",
			aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	if (!quiet)
		printf("history: run %s\n", added ? "recorded" : "already recorded");
	return 0;
}
