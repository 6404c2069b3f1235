/* SPDX-License-Identifier: MIT */
/*
 * cli_compare.c - the command-line side of the regression gates: the
 * compare command and the --baseline step of run_test. The comparison
 * itself is the library's (harness/src/report/report_compare.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "cli_compare.h"

int cli_parse_pct(const char *s, double *out)
{
	char *end;
	double v;
	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	v = strtod(s, &end);
	if (*end || !isfinite(v) || v < 0 || v > 1e6)
		return -1;
	*out = v;
	return 0;
}

static const char compare_usage[] =
	"usage: %s compare BASELINE.json NEW.json [--max-regression PCT] [--html FILE]\n"
	"\n"
	"Compare two run_test reports without running anything: per channel\n"
	"throughput_MBps, cycles and last_cycle, per transaction total_cycles and\n"
	"per latency its cycles, matched by test name, transaction (index and name)\n"
	"and PLIO. Prints what moved; improvements are reported, not failures.\n"
	"\n"
	"  --max-regression PCT  tolerance in percent of every metric (default 5);\n"
	"                        NEW.json's \"regression\" objects (from the test\n"
	"                        descriptions) override it per metric\n"
	"  --html FILE           also write NEW.json's page (as report.html) with the\n"
	"                        baseline table and each failing test's values\n"
	"\n"
	"exit codes: 0 no regression, 1 a value regressed beyond its tolerance or a\n"
	"baseline value is missing or unfinished in NEW.json, 2 bad input or a\n"
	"baseline from another board, PL clock or backend kind (docs/farm.md).\n";

int cli_compare_main(const char *prog, int argc, char **argv)
{
	const char *files[2] = {NULL, NULL}, *html = NULL;
	aieth_report *a = NULL, *b = NULL;
	aieth_report_diff *d = NULL;
	double pct = -1;
	int i, n = 0, code = AIETH_EXIT_INPUT;
	char *txt;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf(compare_usage, prog);
			return AIETH_EXIT_PASS;
		} else if (!strcmp(argv[i], "--max-regression") ||
			   !strncmp(argv[i], "--max-regression=", 17)) {
			const char *v = argv[i][16] == '=' ? argv[i] + 17
					: i + 1 < argc     ? argv[++i]
							   : NULL;
			if (cli_parse_pct(v, &pct)) {
				fprintf(stderr,
					"%s compare: --max-regression: expected percent "
					"0..1000000, got %s\n",
					prog, v ? v : "nothing");
				return AIETH_EXIT_INPUT;
			}
		} else if (!strcmp(argv[i], "--html") || !strncmp(argv[i], "--html=", 7)) {
			html = argv[i][6] == '=' ? argv[i] + 7 : i + 1 < argc ? argv[++i] : NULL;
			if (!html || !*html) {
				fprintf(stderr, "%s compare: --html: a file name is needed\n",
					prog);
				return AIETH_EXIT_INPUT;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "%s compare: bad option %s\nTry '%s compare --help'.\n",
				prog, argv[i], prog);
			return AIETH_EXIT_INPUT;
		} else if (n < 2) {
			files[n++] = argv[i];
		} else {
			fprintf(stderr,
				"%s compare: two reports are compared, a third was given: "
				"%s\n",
				prog, argv[i]);
			return AIETH_EXIT_INPUT;
		}
	}
	if (n != 2) {
		fprintf(stderr,
			"%s compare: BASELINE.json and NEW.json are needed\nTry '%s "
			"compare --help'.\n",
			prog, prog);
		return AIETH_EXIT_INPUT;
	}
	if (aieth_report_load(&a, files[0]) || aieth_report_load(&b, files[1]) ||
	    aieth_report_compare(&d, a, files[0], b, pct)) {
		fprintf(stderr, "%s compare: %s\n", prog, aieth_error_message());
	} else if (!(txt = aieth_report_diff_text(d))) {
		fprintf(stderr, "%s compare: out of memory\n", prog);
	} else {
		fputs(txt, stdout);
		free(txt);
		code = aieth_report_diff_exit(d);
		if (code == AIETH_EXIT_INPUT)
			fprintf(stderr, "%s compare: the baseline was refused\n", prog);
		/* the page: NEW.json as run_test --baseline would have shown it */
		if (html && (aieth_report_add_baseline(b, d) || aieth_report_write_html(b, html))) {
			fprintf(stderr, "%s compare: --html %s: %s\n", prog, html,
				aieth_error_message());
			code = code ? code : AIETH_EXIT_INPUT;
		}
	}
	if (fflush(stdout))
		code = code ? code : AIETH_EXIT_INPUT;
	aieth_report_diff_free(d);
	aieth_report_free(a);
	aieth_report_free(b);
	return code;
}

char *cli_baseline_gate(aieth_report *r, const aieth_report *base, const char *base_path,
			double pct)
{
	aieth_report_diff *d = NULL;
	char *txt = NULL;
	int rc;
	if ((rc = aieth_report_compare(&d, base, base_path, r, pct)) ||
	    (rc = aieth_report_add_baseline(r, d)) ||
	    (!(txt = aieth_report_diff_text(d)) && (rc = AIETH_ENOMEM))) {
		char msg[1200];
		snprintf(msg, sizeof msg, "--baseline %s: %s", base_path,
			 txt || rc != AIETH_ENOMEM || *aieth_error_message() ? aieth_error_message()
									     : "out of memory");
		fprintf(stderr, "run_test: %s\n", msg);
		if (aieth_report_num_tests(r))
			aieth_report_test_error(r, -1, "baseline", rc, msg, NULL, AIETH_EXIT_INFRA);
		free(txt);
		txt = NULL;
	} else if (aieth_report_diff_exit(d) == AIETH_EXIT_INPUT) {
		fprintf(stderr, "run_test: --baseline %s: refused (see the table)\n", base_path);
	}
	aieth_report_diff_free(d);
	return txt;
}
