/* SPDX-License-Identifier: MIT */
/*
 * cli_calibrate.c - the command-line side of run_test calibrate: options,
 * the DESC=REPORT pairs, progress lines and the output file's checks. The
 * fit is the library's (harness/src/runner/calibrate*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aieth.h"
#include "cli_calibrate.h"
#include "cli_common.h"

static const char calibrate_usage[] =
	"usage: %s calibrate --board NAME|FILE -o FITTED.json [options]\n"
	"           DESC.json=BOARD_REPORT.json|BOARD_LOG...\n"
	"\n"
	"Fit the emulated board's timing parameters to the counters a board\n"
	"reported (run_test --backend xrt or remote) for the same descriptions, and\n"
	"write a board file to pass with --board FITTED.json. Instead of a\n"
	"report.json, a pair may give the log of AMD's test harness for the same\n"
	"test: its printPerf lines (\"PLIO_1_TO_AIE send the first data at\n"
	"cycle[0], ends at cycle[2048], and the throughputs is 2384.19 MBps.\"),\n"
	"one block per transaction of the description, in order; other lines\n"
	"between blocks are skipped. A file starting with '{' is a report,\n"
	"anything else a log. Each description is\n"
	"run on the emulated board with candidate values; per channel first_cycle,\n"
	"last_cycle and cycles, and per transaction total_cycles (when the report\n"
	"has it), are compared with the report's. Fitted: func_memory.\n"
	"read_latency_cycles, write_latency_cycles, loop_overhead_cycles, the four\n"
	"counter_edges and preload_latency_cycles; the others stay as in the base\n"
	"board file. Prints per channel the cycles before and after the fit, the\n"
	"remaining error and the parameters that changed.\n"
	"\n"
	"  -b, --board NAME|FILE  the base board: vck190, vek280, vek385 or a board\n"
	"                         file (required); reports must come from it\n"
	"  -o, --out FILE         the fitted board file (required; written\n"
	"                         atomically, never over what is not a regular file)\n"
	"      --data-dir DIR     board files (default: $AIETH_DATA_DIR, or next to\n"
	"                         the program)\n"
	"      --max-runs N       evaluations of the search, each one emulated run of\n"
	"                         every description (default 2000, 1..100000)\n"
	"      --pair DESC REPORT a pair, for paths holding '=' (DESC=REPORT splits\n"
	"                         at the last '=')\n"
	"  -q, --quiet            no progress lines on stderr\n"
	"\n"
	"Refused (exit 2, naming the file and field): a report from another board or\n"
	"PL clock, one without a test of the description's name, with other\n"
	"transactions or PLIOs, or whose test did not finish (hang, timeout, error,\n"
	"interrupted). A report made by the emulated board itself is fitted (a note\n"
	"says so). A log (file:line and channel named) that lacks a channel of a\n"
	"transaction, has one twice, has cycles that do not fit the description's\n"
	"sizes, a timeout warning, a line not of AMD's inside a block, or more\n"
	"blocks than transactions; logs are at most 64 MiB.\n"
	"\n"
	"exit codes: 0 fitted and written, 2 bad input or a refused report, 3 the\n"
	"emulated runs or the write failed.\n";

#define MAX_PAIRS 1000

static void progress_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

int cli_calibrate_main(const char *prog, int argc, char **argv)
{
	const char *board = NULL, *out = NULL, *data_dir = NULL;
	const char *specs[MAX_PAIRS], *reports[MAX_PAIRS];
	char *owned[MAX_PAIRS];
	size_t n = 0, nowned = 0, k;
	unsigned long max_runs = 2000;
	int i, quiet = 0, code = AIETH_EXIT_INPUT;
	aieth_calib *c = NULL;
	char err[600], *txt;
	struct stat st;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf(calibrate_usage, prog);
			return AIETH_EXIT_PASS;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "-b") || !strcmp(a, "--board") || !strcmp(a, "-o") ||
			   !strcmp(a, "--out") || !strcmp(a, "--data-dir") ||
			   !strcmp(a, "--max-runs")) {
			if (!v) {
				fprintf(stderr, "%s calibrate: %s needs a value\n", prog, a);
				goto done;
			}
			i++;
			if (a[1] == 'b' || !strcmp(a, "--board"))
				board = v;
			else if (a[1] == 'o' || !strcmp(a, "--out"))
				out = v;
			else if (!strcmp(a, "--data-dir"))
				data_dir = v;
			else {
				char *end;
				errno = 0;
				max_runs = strtoul(v, &end, 10);
				if (*v < '0' || *v > '9' || *end || errno || max_runs < 1 ||
				    max_runs > 100000) {
					fprintf(stderr,
						"%s calibrate: --max-runs: expected 1..100000, "
						"got %s\n",
						prog, v);
					goto done;
				}
			}
		} else if (!strcmp(a, "--pair")) {
			if (i + 2 >= argc) {
				fprintf(stderr, "%s calibrate: --pair needs DESC and REPORT\n",
					prog);
				goto done;
			}
			if (n == MAX_PAIRS)
				goto too_many;
			specs[n] = argv[i + 1];
			reports[n++] = argv[i + 2];
			i += 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s calibrate: bad option %s\nTry '%s calibrate --help'.\n",
				prog, a, prog);
			goto done;
		} else {
			const char *eq = strrchr(a, '=');
			char *s;
			if (!eq || eq == a || !eq[1]) {
				fprintf(stderr,
					"%s calibrate: %s: expected DESC.json=REPORT.json (or "
					"=LOG)\n",
					prog, a);
				goto done;
			}
			if (n == MAX_PAIRS)
				goto too_many;
			s = malloc((size_t)(eq - a) + 1);
			if (!s) {
				fprintf(stderr, "%s calibrate: out of memory\n", prog);
				goto done;
			}
			memcpy(s, a, (size_t)(eq - a));
			s[eq - a] = '\0';
			owned[nowned++] = s;
			specs[n] = s;
			reports[n++] = eq + 1;
		}
	}
	if (!board || !out || !n) {
		fprintf(stderr, "%s calibrate: %s is needed\nTry '%s calibrate --help'.\n", prog,
			!board ? "--board"
			: !out ? "-o FITTED.json"
			       : "a DESC.json=REPORT.json pair",
			prog);
		goto done;
	}
	if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"%s calibrate: -o %s: exists and is not a regular file; the "
			"fitted board file is never written over one\n",
			prog, out);
		goto done;
	}
	if (cli_check_output("fitted board file", out, err, sizeof err)) {
		fprintf(stderr, "%s calibrate: %s\n", prog, err);
		goto done;
	}
	if (aieth_calib_new(&c, board, data_dir)) {
		fprintf(stderr, "%s calibrate: --board %s: %s\n", prog, board,
			aieth_error_message());
		goto done;
	}
	for (k = 0; k < n; k++) {
		char *note = NULL;
		if (aieth_calib_add(c, specs[k], reports[k], &note)) {
			fprintf(stderr, "%s calibrate: %s\n", prog, aieth_error_message());
			goto done;
		}
		if (note)
			printf("%s\n", note);
		free(note);
	}
	code = AIETH_EXIT_INFRA;
	if (aieth_calib_fit(c, (unsigned)max_runs, quiet ? NULL : progress_line, NULL)) {
		fprintf(stderr, "%s calibrate: %s\n", prog, aieth_error_message());
		goto done;
	}
	if (aieth_calib_write_board(c, out)) {
		fprintf(stderr, "%s calibrate: %s\n", prog, aieth_error_message());
		goto done;
	}
	if (!(txt = aieth_calib_text(c))) {
		fprintf(stderr, "%s calibrate: out of memory\n", prog);
		goto done;
	}
	fputs(txt, stdout);
	printf("fitted board file: %s (run_test --board %s)\n", out, out);
	free(txt);
	code = fflush(stdout) ? AIETH_EXIT_INFRA : AIETH_EXIT_PASS;
	goto done;
too_many:
	fprintf(stderr, "%s calibrate: more than %d pairs\n", prog, MAX_PAIRS);
done:
	aieth_calib_free(c);
	for (k = 0; k < nowned; k++)
		free(owned[k]);
	return code;
}
