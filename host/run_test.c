/*
 * run_test - run AIE test descriptions on a board (emulated by default) and
 * report per-channel counters, throughput, data checks and verdicts.
 * A thin layer over libaieth: options in, aieth_report_run per description,
 * writers out, exit code by the contract in docs/user-guide.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "cli_common.h"

static const char *usage_text =
	"usage: run_test [options] TEST.json...\n"
	"\n"
	"Run AIE test descriptions (docs/test-spec.md) on a board and report\n"
	"per-channel cycle counters, throughput, data checks and verdicts.\n"
	"Several descriptions give one report with one test each.\n"
	"\n"
	"options:\n"
	"  -b, --board NAME|FILE  board to run on: vck190, vek280, vek385 or a board\n"
	"                         JSON file (overrides the description's \"board\")\n"
	"      --backend NAME     device backend: emu (the emulated board, the default\n"
	"                         unless the description names one) or xrt (a board\n"
	"                         through XRT, docs/on-board.md)\n"
	"      --xclbin FILE      the design's AIE xclbin (overrides \"xclbin\")\n"
	"      --pl-xclbin FILE   xrt: the PL DMA kernel's xclbin (overrides\n"
	"                         \"pl_xclbin\"; default: the board's)\n"
	"  -o, --out DIR          output directory, created if missing (default: .):\n"
	"                         report.json, junit.xml, and relative \"save\" files\n"
	"      --report FILE      report.json path (default: OUT/report.json)\n"
	"      --junit FILE       JUnit XML path (default: OUT/junit.xml; \"none\": off)\n"
	"  -t, --timeout MS       timeout of every transaction in ms (default: each\n"
	"                         transaction's timeout_ms, else 10000)\n"
	"      --data-dir DIR     board files (default: $AIETH_DATA_DIR, or next to\n"
	"                         the program)\n"
	"      --reference        emulated board: beat-by-beat reference mode (slow,\n"
	"                         same results)\n"
	"  -q, --quiet            print only the RUN_TEST marker lines\n"
	"  -v, --verbose          also print each phase as it starts\n"
	"  -h, --help             this help\n"
	"  -V, --version          the version\n"
	"\n"
	"exit codes: 0 all passed, 1 a test failed (data mismatch, threshold missed),\n"
	"2 usage or input error, 3 infrastructure error (device, xclbin, backend),\n"
	"4 skipped/unsupported, 5 hang or timeout (the board may need a reset).\n"
	"With several descriptions the most severe wins: 5, 3, 2, 1, 4, 0.\n";

typedef struct {
	int verbose, tty;
	double start;
	int shown;
} progress_state;

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A progress line on a terminal once a run takes longer than a second. */
static void progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
	progress_state *p = ctx;
	if (p->verbose)
		fprintf(stderr, "run_test: %s\n", phase);
	else if (p->tty && mono() - p->start > 1.0) {
		fprintf(stderr, "\rrun_test: %s (%llu of %llu done)   ", phase,
			(unsigned long long)done, (unsigned long long)total);
		p->shown = 1;
	}
}

static void progress_clear(progress_state *p)
{
	if (p->shown) {
		fprintf(stderr, "\r%60s\r", "");
		p->shown = 0;
	}
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "run_test: %s%s%s\nTry 'run_test --help'.\n", msg, arg ? " " : "",
		arg ? arg : "");
	return AIETH_EXIT_INPUT;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"board", required_argument, NULL, 'b'},
		{"backend", required_argument, NULL, 1},
		{"out", required_argument, NULL, 'o'},
		{"report", required_argument, NULL, 2},
		{"junit", required_argument, NULL, 3},
		{"timeout", required_argument, NULL, 't'},
		{"data-dir", required_argument, NULL, 4},
		{"reference", no_argument, NULL, 5},
		{"xclbin", required_argument, NULL, 6},
		{"pl-xclbin", required_argument, NULL, 7},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *out = ".", *report_path = NULL, *junit_path = NULL, *data_dir = NULL;
	char rpath[4200], jpath[4200], err[512];
	aieth_run_opts o;
	aieth_report *r = NULL;
	progress_state ps;
	int c, i, quiet = 0, rc, code;
	char *txt;

	memset(&o, 0, sizeof o);
	memset(&ps, 0, sizeof ps);
	while ((c = getopt_long(argc, argv, "b:o:t:qvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.board = optarg; break;
		case 1: o.backend = optarg; break;
		case 'o': out = optarg; break;
		case 2: report_path = optarg; break;
		case 3: junit_path = optarg; break;
		case 't': {
			char *end;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-' || v == 0 || v > 4294967295ull)
				return usage_error("--timeout: expected milliseconds 1..4294967295, got",
						   optarg);
			o.timeout_ms = (uint32_t)v;
			break;
		}
		case 4: data_dir = optarg; break;
		case 5: o.emu_reference = 1; break;
		case 6: o.xclbin = optarg; break;
		case 7: o.pl_xclbin = optarg; break;
		case 'q': quiet = 1; break;
		case 'v': ps.verbose = 1; break;
		case 'h': fputs(usage_text, stdout); return AIETH_EXIT_PASS;
		case 'V': printf("run_test (aieth) %s\n", aieth_version()); return AIETH_EXIT_PASS;
		default: return usage_error("bad option", NULL);
		}
	}
	if (optind >= argc)
		return usage_error("no test description given", NULL);
	if (cli_ensure_dir(out, err, sizeof err)) {
		fprintf(stderr, "run_test: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	if (!report_path) {
		snprintf(rpath, sizeof rpath, "%s/report.json", out);
		report_path = rpath;
	}
	if (!junit_path) {
		snprintf(jpath, sizeof jpath, "%s/junit.xml", out);
		junit_path = jpath;
	}
	o.data_dir = cli_data_dir(data_dir);
	o.out_dir = out;
	ps.tty = isatty(2);
	ps.start = mono();
	o.progress = progress;
	o.progress_ctx = &ps;

	if (aieth_report_new(&r, "run_test", argc, argv)) {
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	for (i = optind; i < argc; i++) {
		if (ps.verbose)
			fprintf(stderr, "run_test: %s\n", argv[i]);
		if (aieth_report_run(r, argv[i], &o)) {
			progress_clear(&ps);
			fprintf(stderr, "run_test: %s\n", aieth_error_message());
			aieth_report_free(r);
			return AIETH_EXIT_INFRA;
		}
		progress_clear(&ps);
		if (!quiet && (txt = aieth_report_text(r, (int)aieth_report_num_tests(r) - 1))) {
			fputs(txt, stdout);
			free(txt);
			fflush(stdout);
		}
	}
	aieth_report_finish(r);
	code = aieth_report_exit_code(r);
	/* the report is written whatever happened, and must exist for a pass */
	rc = aieth_report_write_json(r, report_path);
	if (rc) {
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
		code = AIETH_EXIT_INPUT;
	}
	if (strcmp(junit_path, "none") && aieth_report_write_junit(r, junit_path)) {
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
		code = AIETH_EXIT_INPUT;
	}
	if ((txt = aieth_report_markers(r))) {
		fputs(txt, stdout);
		free(txt);
	}
	if (!quiet)
		printf("report: %s%s%s\n", report_path, strcmp(junit_path, "none") ? ", junit: " : "",
		       strcmp(junit_path, "none") ? junit_path : "");
	aieth_report_free(r);
	return code;
}
