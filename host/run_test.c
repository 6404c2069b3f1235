/* SPDX-License-Identifier: MIT */
/*
 * run_test - run AIE test descriptions on a board (emulated by default) and
 * report per-channel counters, throughput, data checks and verdicts.
 * A thin layer over libaieth: options in, aieth_report_run per description,
 * writers out, exit code by the contract in docs/user-guide.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "upload/upload.h"
#include "cli_common.h"
#include "cli_compare.h"
#include "cli_calibrate.h"
#include "cli_bisect.h"
#include "cli_history.h"
#include "cli_validate.h"

static const char *const usage_head =
	"usage: run_test [options] TEST.json...\n"
	"       run_test compare BASELINE.json NEW.json [--max-regression PCT]\n"
	"       run_test calibrate --board NAME|FILE -o FITTED.json DESC.json=REPORT.json...\n"
	"       run_test history add|show|html|gate DB ...  (run_test history --help)\n"
	"       run_test validate [--board B] [--level 1|2|3] ...  (run_test validate --help)\n"
	"\n"
	"Run AIE test descriptions (docs/test-spec.md) on a board and report\n"
	"per-channel cycle counters, throughput, data checks and verdicts.\n"
	"Several descriptions give one report with one test each.\n";

static const char *const usage_tail =
	"\n"
	"exit codes: 0 all passed, 1 a test failed (data mismatch, threshold missed),\n"
	"2 usage or input error, 3 infrastructure error (device, xclbin, backend),\n"
	"4 skipped/unsupported, 5 hang or timeout (the board may need a reset),\n"
	"128+N interrupted by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129): the\n"
	"running transaction is stopped, the reports are written first; a second\n"
	"signal ends the program at once.\n"
	"With several descriptions the most severe wins: 128+N, 5, 3, 2, 1, 4, 0.\n";

/* run_test's options, named (the table below gives each its letter, long
 * name and help). */
enum {
	OPT_BOARD,
	OPT_BACKEND,
	OPT_SERVER,
	OPT_QUEUE_TIMEOUT,
	OPT_MAX_ARTIFACTS,
	OPT_TOKEN_FILE,
	OPT_CACERT,
	OPT_PINNED_KEY,
	OPT_XRT_INI,
	OPT_XCLBIN,
	OPT_XCLBIN_WARN_ONLY,
	OPT_PL_XCLBIN,
	OPT_OUT,
	OPT_REPORT,
	OPT_JUNIT,
	OPT_HTML,
	OPT_CHARTS,
	OPT_TRACE,
	OPT_TIMEOUT,
	OPT_DATA_DIR,
	OPT_REFERENCE,
	OPT_WAIT_LOCK,
	OPT_PROGRESS,
	OPT_UPLOAD,
	OPT_UPLOAD_CREDENTIALS,
	OPT_UPLOAD_CACERT,
	OPT_UPLOAD_TIMEOUT,
	OPT_SPOOL,
	OPT_FLUSH_SPOOL,
	OPT_QUIET,
	OPT_VERBOSE,
	OPT_LAVA,
	OPT_TAP,
	OPT_BASELINE,
	OPT_MAX_REGRESSION,
	OPT_BISECT,
	OPT_HISTORY,
	OPT_GATE_HISTORY,
	OPT_GATE_LAST,
	OPT_LABEL,
	OPT_SWEEP,
	OPT_SWEEP_ZIP,
	OPT_SWEEP_STOP_ON_FAIL,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_SENSOR_PERIOD,
	OPT_NO_SENSORS,
	OPT_HELP,
	OPT_VERSION,
};

/* The options in --help's order: --help prints this table between
 * usage_head and usage_tail. */
static const cli_opt run_opts[] = {
	{OPT_BOARD, "board", 'b', "NAME|FILE", "options:",
	 "board to run on: vck190, vek280, vek385 or a board\n"
	 "JSON file (overrides the description's \"board\")"},
	{OPT_BACKEND, "backend", 0, "NAME", NULL, NULL}, /* help_of */
	{OPT_SERVER, "server", 0, "URL", NULL,
	 "remote: th_server's URL, http://HOST:PORT (default:\n"
	 "$AIETH_SERVER); a user:password@ part is refused\n"
	 "(use --token-file)"},
	{OPT_QUEUE_TIMEOUT, "queue-timeout", 0, "S", NULL,
	 "remote: the longest wait in th_server's queue, in\n"
	 "seconds (default 600), whatever the server says;\n"
	 "the place in the queue shows on the progress line.\n"
	 "$AIETH_REMOTE_STALL_S: seconds a request may move\n"
	 "no byte (default 60); a transaction's wait has no\n"
	 "such limit, its timeout bounds it"},
	{OPT_MAX_ARTIFACTS, "max-artifacts", 0, "MIB", NULL,
	 "remote, xrt: the session's files put into\n"
	 "OUT/artifacts/, all together (default 1024); a\n"
	 "file past it is not kept (report.json says why)"},
	{OPT_TOKEN_FILE, "token-file", 0, "FILE", NULL,
	 "remote: a file holding the bearer token (default:\n"
	 "$AIETH_TOKEN)"},
	{OPT_CACERT, "cacert", 0, "FILE", NULL,
	 "remote: CA bundle for https (default:\n"
	 "$AIETH_CACERT, else $CURL_CA_BUNDLE, else\n"
	 "$SSL_CERT_FILE, else the system's; one that cannot\n"
	 "be read is refused before any connection)"},
	{OPT_PINNED_KEY, "pinned-key", 0, "KEY", NULL,
	 "remote: trust the https server by its public key\n"
	 "instead of a CA and its name: sha256// and the\n"
	 "base64 of the SHA-256 of its key (docs/server.md,\n"
	 "\"A pinned key\")"},
	{OPT_XRT_INI, "xrt-ini", 0, "FILE", NULL,
	 "xrt, remote: an xrt.ini (at most 1 MiB) for each\n"
	 "session. xrt: XRT reads it in a session folder\n"
	 "(its [Debug], [AIE_trace_settings],\n"
	 "[AIE_profile_settings], [AIE_debug_settings]\n"
	 "keys, no paths) and the files XRT writes there\n"
	 "(aie_trace_*.txt, aie_status_*.json, ...) land\n"
	 "in OUT/artifacts/. remote: sent to th_server,\n"
	 "which keeps it with the session's files; remote\n"
	 "runs fetch those files at the end into\n"
	 "OUT/artifacts/ (run_summary.json, the xrt.ini,\n"
	 "what the device run wrote). Either way listed in\n"
	 "report.json; the design xclbin is sent only when\n"
	 "the server does not have it yet"},
	{OPT_XCLBIN, "xclbin", 0, "FILE", NULL,
	 "the design's AIE xclbin (overrides \"xclbin\"); one\n"
	 "that cannot be read or that th_package check\n"
	 "refuses is an input error (exit 2) on every\n"
	 "backend, its problems listed"},
	{OPT_XCLBIN_WARN_ONLY, "xclbin-warn-only", 0, NULL, NULL,
	 "such an xclbin is a warning instead and the run\n"
	 "goes on (the emulated board never loads it)"},
	{OPT_PL_XCLBIN, "pl-xclbin", 0, "FILE", NULL,
	 "xrt: the PL DMA kernel's xclbin (overrides\n"
	 "\"pl_xclbin\"; default: the board's)"},
	{OPT_OUT, "out", 'o', "DIR", NULL,
	 "output directory, created if missing (default: .):\n"
	 "report.json, junit.xml, and relative \"save\" files"},
	{OPT_REPORT, "report", 0, "FILE", NULL, "report.json path (default: OUT/report.json)"},
	{OPT_JUNIT, "junit", 0, "FILE", NULL,
	 "JUnit XML path (default: OUT/junit.xml; \"none\": off)"},
	{OPT_HTML, "html", 0, "FILE", NULL,
	 "the page a person reads: summary, tables, charts\n"
	 "(default: OUT/report.html; \"none\": off)"},
	{OPT_CHARTS, "charts", 0, "DIR", NULL,
	 "the charts as SVG files (default: OUT/charts;\n"
	 "\"none\": off)"},
	{OPT_TRACE, "trace", 0, "FILE", NULL,
	 "Chrome trace events for Perfetto (default:\n"
	 "OUT/trace.json; \"none\": off)"},
	{OPT_TIMEOUT, "timeout", 't', "MS", NULL,
	 "timeout of every transaction in ms, 0 for no limit\n"
	 "(default: each transaction's timeout_ms, else\n"
	 "10000)"},
	{OPT_DATA_DIR, "data-dir", 0, "DIR", NULL,
	 "board files (default: $AIETH_DATA_DIR, or next to\n"
	 "the program)"},
	{OPT_REFERENCE, "reference", 0, NULL, NULL,
	 "emulated board: beat-by-beat reference mode (slow,\n"
	 "same results)"},
	{OPT_WAIT_LOCK, "wait-lock", 0, NULL, NULL,
	 "wait while another run uses the output directory\n"
	 "(default: fail at once, exit 2, naming its PID)"},
	{OPT_PROGRESS, "progress", 0, NULL, NULL,
	 "print progress lines on stderr even when it is not\n"
	 "a terminal (default: on a terminal, after 1 s)"},
	{OPT_UPLOAD, "upload", 0, "URL", NULL,
	 "after the reports are written, send the results to\n"
	 "URL (repeatable, docs/farm.md): SQUAD\n"
	 "(squad+https://HOST/TEAM/PROJECT/BUILD/ENV), InfluxDB\n"
	 "v1 (influx+http://HOST:8086/DB) or a JSON webhook\n"
	 "(https://...: report.json POSTed). What cannot be\n"
	 "delivered is spooled and retried by the next run;\n"
	 "the exit code never changes, report.json lists\n"
	 "each outcome (\"uploads\"); a signal during the\n"
	 "uploads stops them, spooling what was not sent"},
	{OPT_UPLOAD_CREDENTIALS, "upload-credentials", 0, "FILE", NULL,
	 "tokens per URL prefix (\"PREFIX token TOKEN\"\n"
	 "or \"PREFIX basic USER:PASSWORD\" lines, mode 600;\n"
	 "default: $AIETH_UPLOAD_CREDENTIALS), else\n"
	 "$AIETH_SQUAD_TOKEN, $AIETH_INFLUX_TOKEN,\n"
	 "$AIETH_WEBHOOK_TOKEN, $AIETH_UPLOAD_TOKEN"},
	{OPT_UPLOAD_CACERT, "upload-cacert", 0, "FILE", NULL,
	 "CA bundle for https uploads (default: as for\n"
	 "--cacert: $AIETH_CACERT, $CURL_CA_BUNDLE,\n"
	 "$SSL_CERT_FILE, the system's)"},
	{OPT_UPLOAD_TIMEOUT, "upload-timeout", 0, "S", NULL,
	 "each upload's time limit in seconds (default 60;\n"
	 "connecting: at most 10)"},
	{OPT_SPOOL, "spool", 0, "DIR", NULL,
	 "payloads not delivered yet (default:\n"
	 "$XDG_STATE_HOME/aieth/spool, else\n"
	 "~/.local/state/aieth/spool; rejected ones in\n"
	 "DIR/failed/; at most 100 MiB)"},
	{OPT_FLUSH_SPOOL, "flush-spool", 0, NULL, NULL,
	 "retry the spool (oldest first) and exit: 0 when it\n"
	 "is empty afterwards, 3 when entries remain or were\n"
	 "rejected (no TEST.json needed)"},
	{OPT_QUIET, "quiet", 'q', NULL, NULL, "print only the RUN_TEST marker lines (no progress)"},
	{OPT_VERBOSE, "verbose", 'v', NULL, NULL, "also print each phase as it starts"},
	{OPT_LAVA, "lava", 0, NULL, NULL,
	 "also print LAVA test shell signals (docs/farm.md):\n"
	 "a test set per test, a test case per channel\n"
	 "(MB/s), latency check, transaction and test"},
	{OPT_TAP, "tap", 0, "FILE", NULL,
	 "write TAP version 13 of the same cases (\"-\":\n"
	 "stdout, after the markers)"},
	{OPT_BASELINE, "baseline", 0, "FILE", NULL,
	 "compare with an earlier report.json after the run:\n"
	 "each channel's throughput, cycles and last cycle,\n"
	 "each transaction's total cycles and each latency;\n"
	 "a regression beyond tolerance or a missing value\n"
	 "fails the test (exit 1); a baseline from another\n"
	 "board, PL clock or backend kind is refused (exit 2).\n"
	 "The table of what moved is printed and recorded in\n"
	 "report.json (\"baseline\", docs/farm.md)"},
	{OPT_MAX_REGRESSION, "max-regression", 0, "PCT", NULL,
	 "tolerance in percent (default 5); a description's\n"
	 "\"regression\" object overrides it per metric"},
	{OPT_BISECT, "bisect", 0, NULL, NULL,
	 "exit as `git bisect run` reads it (docs/farm.md):\n"
	 "0 passed; 1 a test failed or regressed, or hung\n"
	 "on the emulated board (board time: the commit's\n"
	 "own result); 125 (skip the commit) a usage or\n"
	 "input error, an infrastructure error (device or\n"
	 "server unreachable), a skip, a hang on a board;\n"
	 "128+N after signal N stays, which stops the\n"
	 "bisection. The mapping is printed (\"bisect: exit\n"
	 "125 (skip): ...\")"},
	{OPT_HISTORY, "history", 0, "DB", NULL,
	 "after the reports are written, record the run in the\n"
	 "run history DB (SQLite, created when missing;\n"
	 "run_test history --help); a run that cannot be\n"
	 "recorded makes the exit code 3"},
	{OPT_GATE_HISTORY, "gate-history", 0, "DB", NULL,
	 "gate the run against DB: each figure against the\n"
	 "median of the same test's last passing runs on the\n"
	 "same board and backend, within the tolerance (as\n"
	 "--max-regression) plus 3 x 1.4826 x their MAD; a\n"
	 "regression fails the test (exit 1), fewer than 3\n"
	 "runs is \"no baseline\"; recorded in report.json\n"
	 "(\"history_gate\"); a DB that cannot be opened: exit\n"
	 "3 before the run"},
	{OPT_GATE_LAST, "gate-last", 0, "K", NULL, "baseline runs of --gate-history (default 10)"},
	{OPT_LABEL, "label", 0, "TEXT", NULL,
	 "kept with the run in the history (a commit, a build)"},
	{OPT_SWEEP, "sweep", 0, "AXIS=LIST", NULL,
	 "run each point of a sweep as a test (repeatable: a\n"
	 "grid of the axes; replaces the description's\n"
	 "\"sweep\"): AXIS size, delay, replay, channels, mode,\n"
	 "PLIO.size|delay|replay or GRAPH.PARAM; LIST values\n"
	 "a,b,c or ranges FROM..TO*TIMES, FROM..TO+STEP\n"
	 "(size=4096..65536*2); writes OUT/sweep.csv"},
	{OPT_SWEEP_ZIP, "sweep-zip", 0, NULL, NULL,
	 "pair the --sweep lists (one length) instead of a grid"},
	{OPT_SWEEP_STOP_ON_FAIL, "sweep-stop-on-fail", 0, NULL, NULL,
	 "stop a sweep at its first point that does not pass"},
	{OPT_REPEAT, "repeat", 0, "N", NULL,
	 "run each transaction N times in one session (1..100000; default: "
	 "the description's \"repeat\", else once): report.json keeps every "
	 "run's figures and their median, min, max, mean, stddev, mad; the "
	 "table shows the median run's and the spread; thresholds and "
	 "--baseline use the median (or the description's \"statistic\"); "
	 "every run's data is checked. All runs of a transaction move at "
	 "most 64 GiB"},
	{OPT_WARMUP, "warmup", 0, "W", NULL,
	 "with --repeat: W runs first that are not measured\n"
	 "(default 0; at most 100000 runs in all)"},
	{OPT_SENSOR_PERIOD, "sensor-period", 0, "MS", NULL,
	 "sample the board's power and temperature sensors\n"
	 "(Versal SysMon, hwmon rails such as INA226) every\n"
	 "MS milliseconds while each test runs (100..60000;\n"
	 "default 1000): min/max/mean per sensor in\n"
	 "report.json (\"sensors\"), the series in the HTML\n"
	 "and trace; a device temperature above 100 C is a\n"
	 "warning (docs/on-board.md)"},
	{OPT_NO_SENSORS, "no-sensors", 0, NULL, NULL, "read no sensors"},
	{OPT_HELP, "help", 'h', NULL, NULL, "this help"},
	{OPT_VERSION, "version", 'V', NULL, NULL, "the version"},
};

#define UPLOADS_MAX 16
#define SWEEP_AXES_MAX 16

typedef struct {
	int verbose, quiet, tty, force;
	double start, last;
	int shown;
	char phase[160];
} progress_state;

static int stdout_dead; /* EPIPE on stdout: stop printing, keep running */

/* The stop signals: cli_common.h (the first one ends the run with its
 * report written; run_test's uploads are what cli_cancel cancels). */
static void install_signals(void)
{
	cli_catch_signals(1);
	signal(SIGPIPE, SIG_IGN);
}

/* Print to stdout unless a reader went away (EPIPE: stop printing). */
static void emit(const char *s)
{
	if (stdout_dead || !s)
		return;
	if (fputs(s, stdout) == EOF || fflush(stdout) == EOF) {
		if (errno == EPIPE)
			stdout_dead = 1;
		clearerr(stdout);
	}
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Phases (total 0) with -v or --progress, and on a terminal once a run
 * takes longer than a second (a remote run waiting in th_server's queue
 * names its place there, a phase a second); bytes moved within a
 * transaction on a terminal once a run takes longer than a second, or
 * always with --progress (a line each, at most four a second). Nothing
 * with -q. */
static void progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
	progress_state *p = ctx;
	double now;
	if (p->quiet)
		return;
	if (strcmp(phase, p->phase)) {
		snprintf(p->phase, sizeof p->phase, "%s", phase);
		if (p->verbose || p->force) {
			if (p->shown)
				fputc('\n', stderr);
			p->shown = 0;
			fprintf(stderr, "run_test: %s\n", phase);
		} else if (p->tty && mono() - p->start > 1.0) {
			fprintf(stderr, "\rrun_test: %.90s%*s", phase,
				(int)(strlen(phase) < 90 ? 90 - strlen(phase) : 0), "");
			p->shown = 1;
		}
		p->last = 0;
	}
	if (!total)
		return;
	now = mono();
	if (p->force) {
		if (p->last && now - p->last < 0.25)
			return;
		fprintf(stderr, "run_test: %s: %llu of %llu bytes moved (%.1f%%)\n", phase,
			(unsigned long long)done, (unsigned long long)total,
			(double)done * 100.0 / (double)total);
		p->last = now;
	} else if (p->tty && now - p->start > 1.0 && (!p->last || now - p->last >= 0.1)) {
		fprintf(stderr, "\rrun_test: %s: %llu of %llu bytes (%.1f%%)   ", phase,
			(unsigned long long)done, (unsigned long long)total,
			(double)done * 100.0 / (double)total);
		p->shown = 1;
		p->last = now;
	}
}

static void progress_clear(progress_state *p)
{
	if (p->shown) {
		fprintf(stderr, "\r%100s\r", "");
		p->shown = 0;
	}
}

/* A whole decimal number min..max, no sign; a leading blank only when
 * blank_ok (strtoull's own rule, which --timeout and --upload-timeout kept). */
static int parse_number(const char *s, unsigned long long min, unsigned long long max, int blank_ok,
			unsigned long long *out)
{
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*s || *end || s[0] == '-' || s[0] == '+' || (!blank_ok && s[0] == ' ') || errno ||
	       *out < min || *out > max;
}

/* The URL's authority (after "scheme://", up to / ? #) holds an '@'. */
static int url_has_userinfo(const char *url)
{
	const char *a = strstr(url, "://");
	a = a ? a + 3 : url;
	return memchr(a, '@', strcspn(a, "/?#")) != NULL;
}

/* The texts --help makes as it prints: --backend's, from every backend of
 * the library's table, so a new backend shows here without a change to
 * this program. */
static const char *help_of(int id)
{
	static char text[1024];
	size_t i, n = 0, tl;
	if (id != OPT_BACKEND)
		return NULL;
	while (aieth_backend_name(n))
		n++;
	tl = (size_t)snprintf(text, sizeof text, "device backend: ");
	for (i = 0; i < n && tl < sizeof text; i++)
		tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%s (%s%s)",
				       !i           ? ""
				       : i + 1 == n ? " or "
						    : ", ",
				       aieth_backend_name(i), aieth_backend_description(i),
				       i ? "" : ", the default unless the description names one");
	return text;
}

static void print_usage(void)
{
	fputs(usage_head, stdout);
	cli_help_print(stdout, run_opts, CLI_NOPTS(run_opts), 25, 1, help_of);
	fputs(usage_tail, stdout);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "run_test: %s%s%s\nTry 'run_test --help'.\n", msg, arg ? " " : "",
		arg ? arg : "");
	return AIETH_EXIT_INPUT;
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "a signal";
	}
}

/* Write report.json and junit.xml; a failure becomes an error of the last
 * test (and so of the run), and the other file is written with it, so the
 * files, the markers and the exit code agree. */
static void write_failed(aieth_report *r, const char *hint)
{
	char msg[1200];
	snprintf(msg, sizeof msg, "%s", aieth_error_message());
	fprintf(stderr, "run_test: %s\n", msg);
	aieth_report_test_error(r, -1, "write", AIETH_EIO, msg, hint, AIETH_EXIT_INPUT);
	aieth_report_finish(r);
}

static void write_outputs(aieth_report *r, const char *report_path, const char *junit_path)
{
	int junit = strcmp(junit_path, "none") != 0, json_ok, junit_ok = 1;

	aieth_report_finish(r);
	json_ok = aieth_report_write_json(r, report_path) == AIETH_OK;
	if (!json_ok)
		write_failed(r, "the report could not be written: check the disk and --report");
	if (junit && aieth_report_write_junit(r, junit_path) != AIETH_OK) {
		junit_ok = 0;
		write_failed(r, "the JUnit file could not be written: check the disk and --junit");
	}
	if (json_ok && !junit_ok && aieth_report_write_json(r, report_path) != AIETH_OK)
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
}

/* --lava and --tap (docs/farm.md): the same cases as report.json says. */
static int farm_lava;
static const char *farm_tap;

/* The TAP file after the others, by their rule: a failure is the last
 * test's error, and report.json and junit.xml are written again with it. */
static void write_farm(aieth_report *r, const char *report_path, const char *junit_path)
{
	if (!farm_tap || !strcmp(farm_tap, "-") || aieth_report_write_tap(r, farm_tap) == AIETH_OK)
		return;
	write_failed(r, "the TAP file could not be written: check the disk and --tap");
	if (aieth_report_write_json(r, report_path) != AIETH_OK ||
	    (strcmp(junit_path, "none") && aieth_report_write_junit(r, junit_path) != AIETH_OK))
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
}

static void emit_farm(const aieth_report *r)
{
	char *t;
	if (farm_lava && (t = aieth_report_lava(r))) {
		emit(t);
		free(t);
	}
	if (farm_tap && !strcmp(farm_tap, "-") && (t = aieth_report_tap(r))) {
		emit(t);
		free(t);
	}
}

/* report.html, the SVG charts and trace.json: paths (NULL: default under
 * OUT; "none": off), checked before the run like report.json. */
typedef struct {
	const char *html, *charts, *trace;
	char hbuf[4200], cbuf[4200], tbuf[4200];
} visual_paths;

static int visual_check(visual_paths *v, const char *out, char *err, unsigned errlen)
{
	if (!v->html && snprintf(v->hbuf, sizeof v->hbuf, "%s/report.html", out) > 0)
		v->html = v->hbuf;
	if (!v->charts && snprintf(v->cbuf, sizeof v->cbuf, "%s/charts", out) > 0)
		v->charts = v->cbuf;
	if (!v->trace && snprintf(v->tbuf, sizeof v->tbuf, "%s/trace.json", out) > 0)
		v->trace = v->tbuf;
	if (strcmp(v->html, "none") && cli_check_output("--html", v->html, err, errlen))
		return -1;
	if (strcmp(v->trace, "none") && cli_check_output("--trace", v->trace, err, errlen))
		return -1;
	if (!strcmp(v->charts, "none"))
		return 0;
	/* the charts folder is never reached through a link at its own name
	 * (the writer refuses one: said before the run) */
	{
		struct stat st;
		if (lstat(v->charts, &st) == 0 && S_ISLNK(st.st_mode)) {
			snprintf(err, errlen,
				 "--charts %s: is a symbolic link: charts are never written "
				 "through one (name the folder itself, or remove the link)",
				 v->charts);
			return -1;
		}
	}
	return cli_ensure_dir(v->charts, err, errlen);
}

/* 1: all written; 0: one failed, recorded as the last test's error. The
 * page goes last so that it shows a chart or trace failure too. */
static int write_visual(aieth_report *r, const visual_paths *v)
{
	int ok = 1;
	if (strcmp(v->charts, "none") && aieth_report_write_svgs(r, v->charts) != AIETH_OK) {
		write_failed(r, "the SVG charts could not be written: check the disk and --charts");
		ok = 0;
	}
	if (strcmp(v->trace, "none") && aieth_report_write_trace(r, v->trace) != AIETH_OK) {
		write_failed(r, "trace.json could not be written: check the disk and --trace");
		ok = 0;
	}
	if (strcmp(v->html, "none") && aieth_report_write_html(r, v->html) != AIETH_OK) {
		write_failed(r, "report.html could not be written: check the disk and --html");
		ok = 0;
	}
	return ok;
}

static void visual_line(const visual_paths *v)
{
	char line[13000];
	int n = 0;
	if (strcmp(v->html, "none"))
		n += snprintf(line + n, sizeof line - (size_t)n, "%shtml: %s", n ? ", " : "",
			      v->html);
	if (strcmp(v->charts, "none"))
		n += snprintf(line + n, sizeof line - (size_t)n, "%scharts: %s/", n ? ", " : "",
			      v->charts);
	if (strcmp(v->trace, "none"))
		n += snprintf(line + n, sizeof line - (size_t)n, "%strace: %s", n ? ", " : "",
			      v->trace);
	if (n) {
		snprintf(line + n, sizeof line - (size_t)n, "\n");
		emit(line);
	}
}

/* Print the upload library's lines on stderr, each prefixed. */
static void print_upload_log(char *log)
{
	char *line, *save = NULL;
	for (line = log ? strtok_r(log, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "run_test: %s\n", line);
	free(log);
}

/* --flush-spool without descriptions: 0 when the spool is empty after. */
static int flush_only(const aieth__upload_opts *uo)
{
	char *log = NULL;
	size_t left = 0;
	int rc;
	install_signals();
	cli_cancel_armed = 1;
	rc = aieth__upload_flush(uo, &log, &left);
	cli_cancel_armed = 0;
	if (cli_cancel) {
		print_upload_log(log);
		fprintf(stderr, "run_test: --flush-spool stopped by %s\n", signame(cli_cancel));
		return 128 + cli_cancel;
	}
	if (rc) {
		print_upload_log(log);
		fprintf(stderr, "run_test: --flush-spool: %s\n", aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	print_upload_log(log);
	return left ? AIETH_EXIT_INFRA : AIETH_EXIT_PASS;
}

/* After the reports are written and printed: upload (the webhook gets
 * report.json as written), then write report.json again with the outcomes
 * ("uploads"). Nothing here changes the exit code. */
static void upload_results(aieth_report *r, const char *const *urls, size_t n,
			   const aieth__upload_opts *uo, const char *report_path)
{
	char *log = NULL;
	int rc;
	cli_cancel_armed = 1;
	rc = aieth__upload_report(r, urls, n, uo, &log);
	cli_cancel_armed = 0;
	if (cli_cancel)
		fprintf(stderr,
			"run_test: uploads stopped by %s: what was not sent is in the "
			"spool (run_test --flush-spool sends it)\n",
			signame(cli_cancel));
	if (rc) {
		print_upload_log(log);
		fprintf(stderr, "run_test: upload: %s\n", aieth_error_message());
		return;
	}
	print_upload_log(log);
	if (aieth_report_write_json(r, report_path))
		fprintf(stderr, "run_test: the upload outcomes are not in the report: %s\n",
			aieth_error_message());
}

/* --bisect: set before the options are read, so an error in an option
 * before it is mapped too; done once the line is printed */
static int bisect_on, bisect_done;

/* The run's code as git bisect run reads it, the mapping printed. */
static int bisect_finish(int code, const char *report_path, int quiet)
{
	char line[600];
	code = cli_bisect_code(code, report_path, line, sizeof line);
	if (quiet || !report_path)
		fprintf(stderr, "run_test: %s", line);
	else
		emit(line);
	bisect_done = 1;
	return code;
}

/* A step's result when the run goes on; otherwise a step returns the exit
 * code. */
enum { GO_ON = -1 };

/* What the options say, and what is opened and made from them before the
 * run. o points to emu, xrt and remote: a run_ctx is never moved. */
typedef struct {
	aieth_run_opts o;
	aieth_emu_opts emu;
	aieth_xrt_opts xrt;
	aieth_remote_opts remote;
	aieth__upload_opts uo;
	visual_paths vis;
	progress_state ps;
	const char *out, *report_path, *junit_path, *data_dir, *token_file;
	const char *baseline, *history_db, *gate_db, *label;
	const char *uploads[UPLOADS_MAX], *sweep_items[SWEEP_AXES_MAX];
	size_t nuploads, nsweep;
	unsigned gate_last;
	double max_reg;
	int quiet, wait_lock, flush_spool, have_warmup, sweep_zip;
	aieth_report *base;
	aieth_history *hist, *gate_hist;
	char rpath[4200], jpath[4200], apath[4200], spath[4200], token[300];
} run_ctx;

static void ctx_init(run_ctx *a)
{
	static const aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	static const aieth_xrt_opts xrt = AIETH_XRT_OPTS_INIT;
	static const aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	memset(a, 0, sizeof *a);
	a->emu = emu;
	a->xrt = xrt;
	a->remote = remote;
	aieth__upload_opts_init(&a->uo, AIETH_UPLOAD_OPTS_VERSION);
	aieth_run_opts_init(&a->o, AIETH_RUN_OPTS_VERSION);
	a->o.emu = &a->emu; /* each backend's options: the ones below */
	a->o.xrt = &a->xrt;
	a->o.remote = &a->remote;
	/* the runner's data sources and checkers keep one channel's state
	 * each: safe from two threads (docs/api.md, "Callbacks from two
	 * threads") */
	a->remote.concurrent_io = 1;
	a->out = ".";
	a->max_reg = -1;
}

/* The options of farms and campaigns: uploads, baselines, histories,
 * sweeps, repeats, sensors, the output's mode. */
static int set_farm_option(run_ctx *a, int id, char *arg)
{
	unsigned long long v;
	switch (id) {
	case OPT_UPLOAD:
		if (a->nuploads == UPLOADS_MAX)
			return usage_error("--upload: at most 16 URLs, one more:", arg);
		if (aieth__upload_check_url(arg))
			return usage_error(aieth_error_message(), NULL);
		a->uploads[a->nuploads++] = arg;
		break;
	case OPT_UPLOAD_CREDENTIALS: a->uo.credentials = arg; break;
	case OPT_UPLOAD_CACERT: a->uo.cacert = arg; break;
	case OPT_UPLOAD_TIMEOUT:
		if (parse_number(arg, 1, 3600, 1, &v))
			return usage_error("--upload-timeout: expected seconds 1..3600, got", arg);
		a->uo.timeout_s = (uint32_t)v;
		break;
	case OPT_SPOOL: a->uo.spool_dir = arg; break;
	case OPT_FLUSH_SPOOL: a->flush_spool = 1; break;
	case OPT_LAVA: farm_lava = 1; break;
	case OPT_TAP: farm_tap = arg; break;
	case OPT_BASELINE: a->baseline = arg; break;
	case OPT_MAX_REGRESSION:
		if (cli_parse_pct(arg, &a->max_reg))
			return usage_error("--max-regression: expected percent 0..1000000, got",
					   arg);
		break;
	case OPT_BISECT: bisect_on = 1; break;
	case OPT_HISTORY: a->history_db = arg; break;
	case OPT_GATE_HISTORY: a->gate_db = arg; break;
	case OPT_GATE_LAST:
		if (cli_parse_last(arg, &a->gate_last))
			return usage_error("--gate-last: expected runs 1..100000, got", arg);
		break;
	case OPT_LABEL: a->label = arg; break;
	case OPT_SWEEP:
		if (a->nsweep == SWEEP_AXES_MAX)
			return usage_error("--sweep: at most 16 axes, one more:", arg);
		a->sweep_items[a->nsweep++] = arg;
		break;
	case OPT_SWEEP_ZIP: a->sweep_zip = 1; break;
	case OPT_SWEEP_STOP_ON_FAIL: a->o.sweep_stop_on_fail = 1; break;
	/* repeat: the runner checks runs x data */
	case OPT_REPEAT:
		if (parse_number(arg, 1, 100000, 0, &v))
			return usage_error("--repeat: expected runs 1..100000, got", arg);
		a->o.repeat_runs = (uint32_t)v;
		break;
	case OPT_WARMUP:
		if (parse_number(arg, 0, 100000, 0, &v))
			return usage_error("--warmup: expected runs 0..100000, got", arg);
		a->o.repeat_warmup = (uint32_t)v;
		a->have_warmup = 1;
		break;
	/* sensors: run_sensors.c */
	case OPT_SENSOR_PERIOD:
		if (parse_number(arg, 100, 60000, 0, &v))
			return usage_error("--sensor-period: expected milliseconds 100..60000, got",
					   arg);
		a->o.sensor_period_ms = (uint32_t)v;
		break;
	case OPT_NO_SENSORS: a->o.no_sensors = 1; break;
	case OPT_HELP: print_usage(); return AIETH_EXIT_PASS;
	case OPT_VERSION: printf("run_test (aieth) %s\n", aieth_version()); return AIETH_EXIT_PASS;
	default: return usage_error("bad option", NULL); /* getopt_long said which */
	}
	return GO_ON;
}

/* The options of the run itself: its board and backends, its outputs. */
static int set_option(run_ctx *a, int id, char *arg)
{
	unsigned long long v;
	switch (id) {
	case OPT_BOARD: a->o.board = arg; break;
	case OPT_BACKEND: a->o.backend = arg; break;
	case OPT_OUT: a->out = arg; break;
	case OPT_REPORT: a->report_path = arg; break;
	case OPT_JUNIT: a->junit_path = arg; break;
	case OPT_TIMEOUT:
		if (parse_number(arg, 0, 4294967295ull, 1, &v))
			return usage_error(
				"--timeout: expected milliseconds 0..4294967295 (0: no limit), got",
				arg);
		a->o.timeout_ms = (uint32_t)v;
		a->o.no_timeout = v == 0;
		break;
	case OPT_DATA_DIR: a->data_dir = arg; break;
	case OPT_REFERENCE: a->emu.reference = 1; break;
	case OPT_XCLBIN: a->o.xclbin = arg; break;
	case OPT_PL_XCLBIN: a->xrt.pl_xclbin = arg; break;
	case OPT_XCLBIN_WARN_ONLY: a->o.xclbin_warn_only = 1; break;
	case OPT_WAIT_LOCK: a->wait_lock = 1; break;
	case OPT_PROGRESS: a->ps.force = 1; break;
	case OPT_SERVER: a->remote.server = arg; break;
	case OPT_TOKEN_FILE: a->token_file = arg; break;
	case OPT_CACERT: a->remote.cacert = arg; break;
	case OPT_PINNED_KEY: a->remote.pinned_key = arg; break;
	case OPT_XRT_INI: a->remote.xrt_ini = a->xrt.xrt_ini = arg; break;
	case OPT_QUEUE_TIMEOUT:
		if (parse_number(arg, 1, 86400, 0, &v))
			return usage_error("--queue-timeout: expected seconds 1..86400, got", arg);
		a->remote.queue_timeout_s = (uint32_t)v;
		break;
	case OPT_MAX_ARTIFACTS:
		if (parse_number(arg, 1, 1048576, 0, &v))
			return usage_error("--max-artifacts: expected MiB 1..1048576, got", arg);
		a->remote.artifacts_max_bytes = a->xrt.artifacts_max_bytes = (uint64_t)v << 20;
		break;
	case OPT_HTML: a->vis.html = arg; break;
	case OPT_CHARTS: a->vis.charts = arg; break;
	case OPT_TRACE: a->vis.trace = arg; break;
	case OPT_QUIET: a->quiet = 1; break;
	case OPT_VERBOSE: a->ps.verbose = 1; break;
	default: return set_farm_option(a, id, arg);
	}
	return GO_ON;
}

static int parse_options(run_ctx *a, int argc, char **argv)
{
	cli_parser p;
	int id, code;
	_Static_assert(CLI_NOPTS(run_opts) <= CLI_OPTS_MAX, "run_test: too many options");
	cli_parser_init(&p, run_opts, CLI_NOPTS(run_opts), "");
	while ((id = cli_getopt(&p, argc, argv)) != -1)
		if ((code = set_option(a, id, optarg)) != GO_ON)
			return code;
	return GO_ON;
}

/* What the options mean together (ndesc: the descriptions named), and
 * what they leave to the environment; --flush-spool alone runs here. */
static int check_options(run_ctx *a, int ndesc)
{
	if (a->sweep_zip && !a->nsweep)
		return usage_error("--sweep-zip needs --sweep AXIS=LIST", NULL);
	if (a->nsweep) {
		a->o.sweep = a->sweep_items;
		a->o.num_sweep = a->nsweep;
		a->o.sweep_zip = a->sweep_zip;
	}
	a->uo.cancel = &cli_cancel;
	if (!a->uo.credentials)
		a->uo.credentials = getenv("AIETH_UPLOAD_CREDENTIALS");
	if (a->uo.timeout_s && a->uo.timeout_s < 10)
		a->uo.connect_timeout_s = a->uo.timeout_s;
	if (a->flush_spool && ndesc <= 0)
		return flush_only(&a->uo);
	if (ndesc <= 0)
		return usage_error("no test description given", NULL);
	if (a->max_reg >= 0 && !a->baseline && !a->gate_db)
		return usage_error("--max-regression needs --baseline or --gate-history", NULL);
	if (a->gate_last && !a->gate_db)
		return usage_error("--gate-last needs --gate-history", NULL);
	if (a->label && !a->history_db)
		return usage_error("--label needs --history", NULL);
	if ((a->history_db && !*a->history_db) || (a->gate_db && !*a->gate_db))
		return usage_error("--history, --gate-history: a database path is needed", NULL);
	if (a->have_warmup && !a->o.repeat_runs)
		return usage_error("--warmup needs --repeat", NULL);
	if ((uint64_t)a->o.repeat_runs + a->o.repeat_warmup > 100000)
		return usage_error("--repeat and --warmup: more than 100000 runs in all", NULL);
	return GO_ON;
}

/* --token-file: the file holds just the token (surrounding white space
 * ignored); a->remote.token points into a->token. */
static int read_token_file(run_ctx *a)
{
	FILE *f = fopen(a->token_file, "r");
	char *token = a->token;
	size_t n, b = 0;
	if (!f) {
		fprintf(stderr, "run_test: --token-file %s: %s\n", a->token_file, strerror(errno));
		return AIETH_EXIT_INPUT;
	}
	n = fread(token, 1, sizeof a->token - 1, f);
	fclose(f);
	token[n] = '\0';
	while (n && (token[n - 1] == '\n' || token[n - 1] == '\r' || token[n - 1] == ' ' ||
		     token[n - 1] == '\t'))
		token[--n] = '\0';
	while (token[b] == ' ' || token[b] == '\t')
		b++;
	if (n == b || n == sizeof a->token - 1 || strpbrk(token + b, " \t\r\n")) {
		fprintf(stderr,
			"run_test: --token-file %s: one token of 1..256 bytes without "
			"spaces is needed\n",
			a->token_file);
		return AIETH_EXIT_INPUT;
	}
	a->remote.token = token + b;
	return GO_ON;
}

/* th_server's URL and token: the options, else the environment. */
static int remote_access(run_ctx *a)
{
	if (!a->remote.server)
		a->remote.server = getenv("AIETH_SERVER");
	/* never recorded, never sent: a password in the URL would land in
	 * report.json, report.html and the uploads */
	if (a->remote.server && url_has_userinfo(a->remote.server)) {
		fprintf(stderr,
			"run_test: %s: a URL with user:password@ (not repeated here) is "
			"refused: it would land in the reports and uploads; th_server takes a "
			"bearer token (--token-file FILE, or $AIETH_TOKEN)\n",
			a->remote.server == getenv("AIETH_SERVER") ? "$AIETH_SERVER" : "--server");
		return AIETH_EXIT_INPUT;
	}
	if (a->token_file)
		return read_token_file(a);
	a->remote.token = getenv("AIETH_TOKEN");
	return GO_ON;
}

static int input_error(const char *err)
{
	fprintf(stderr, "run_test: %s\n", err);
	return AIETH_EXIT_INPUT;
}

/* The output folder made and locked, every destination checked: before
 * anything runs. */
static int prepare_outputs(run_ctx *a)
{
	char err[1200];
	if (cli_ensure_dir(a->out, err, sizeof err))
		return input_error(err);
	/* one run per output folder (the descriptor stays open until exit) */
	if (cli_lock_dir(a->out, a->wait_lock, err, sizeof err) < 0) {
		if (cli_signal)
			return AIETH_EXIT_SIGNAL + cli_signal;
		return input_error(err);
	}
	if (!a->report_path) {
		snprintf(a->rpath, sizeof a->rpath, "%s/report.json", a->out);
		a->report_path = a->rpath;
	}
	if (!a->junit_path) {
		snprintf(a->jpath, sizeof a->jpath, "%s/junit.xml", a->out);
		a->junit_path = a->jpath;
	}
	if (cli_check_output("--report", a->report_path, err, sizeof err) ||
	    (strcmp(a->junit_path, "none") &&
	     cli_check_output("--junit", a->junit_path, err, sizeof err)) ||
	    (farm_tap && strcmp(farm_tap, "-") &&
	     cli_check_output("--tap", farm_tap, err, sizeof err)))
		return input_error(err);
	snprintf(a->spath, sizeof a->spath, "%s/sweep.csv", a->out);
	if (cli_check_output("sweep.csv", a->spath, err, sizeof err))
		return input_error(err);
	if (visual_check(&a->vis, a->out, err, sizeof err))
		return input_error(err);
	return GO_ON;
}

/* The baseline and the histories, opened before anything runs: a bad one
 * costs no board time; one named twice is one connection, made for
 * writing. */
static int open_inputs(run_ctx *a)
{
	int code;
	if (a->baseline && aieth_report_load(&a->base, a->baseline)) {
		fprintf(stderr, "run_test: --baseline: %s\n", aieth_error_message());
		return AIETH_EXIT_INPUT;
	}
	if (a->history_db && (code = cli_history_open(&a->hist, a->history_db, 0, "--history")))
		return code;
	if (a->gate_db && a->hist && !strcmp(a->gate_db, a->history_db))
		a->gate_hist = a->hist;
	else if (a->gate_db &&
		 (code = cli_history_open(&a->gate_hist, a->gate_db, 1, "--gate-history")))
		return code;
	return GO_ON;
}

static void close_inputs(run_ctx *a)
{
	if (a->gate_hist != a->hist)
		aieth_history_close(a->gate_hist);
	aieth_history_close(a->hist);
	aieth_report_free(a->base);
}

/* The runner's view of the folders, the stop flag and the progress. */
static void connect_run(run_ctx *a)
{
	a->o.data_dir = a->data_dir;
	a->o.out_dir = a->out;
	/* a remote session's files (the local backends have none to fetch) */
	snprintf(a->apath, sizeof a->apath, "%s/artifacts", a->out);
	a->remote.artifacts_dir = a->xrt.artifacts_dir = a->apath;
	a->emu.artifacts_dir = a->apath; /* a stall's aie_state.json, as on a board */
	a->o.interrupt = &cli_signal;
	a->ps.quiet = a->quiet;
	a->ps.tty = isatty(2);
	a->ps.start = mono();
	a->o.progress = progress;
	a->o.progress_ctx = &a->ps;
}

/* Each description argv[first..argc) into r: GO_ON, or 3 when the library
 * could not run one. */
static int run_descriptions(run_ctx *a, aieth_report *r, int first, int argc, char **argv)
{
	size_t warned = 0;
	int i;
	for (i = first; i < argc; i++) {
		if (cli_signal) { /* between descriptions: the next one is not run */
			char m[300];
			snprintf(m, sizeof m, "interrupted by signal %d (%s) before it ran",
				 (int)cli_signal, signame(cli_signal));
			aieth_report_add_error(r, argv[i], "interrupted", AIETH_ESTATE, m,
					       "the run was stopped by a signal; this description "
					       "and the ones after it did not run",
					       AIETH_EXIT_SIGNAL + cli_signal);
			break;
		}
		if (a->ps.verbose && !a->quiet)
			fprintf(stderr, "run_test: %s\n", argv[i]);
		if (aieth_report_run(r, argv[i], &a->o)) {
			progress_clear(&a->ps);
			fprintf(stderr, "run_test: %s\n", aieth_error_message());
			return AIETH_EXIT_INFRA;
		}
		progress_clear(&a->ps);
		/* what the run went on with, shown where a person looks */
		for (; warned < aieth_report_num_warnings(r); warned++)
			fprintf(stderr, "run_test: warning: %s: %s\n", argv[i],
				aieth_report_warning(r, warned));
	}
	return GO_ON;
}

/* The files first: what is printed afterwards is what they say. */
static void write_all(run_ctx *a, aieth_report *r)
{
	write_outputs(r, a->report_path, a->junit_path);
	if (!write_visual(r, &a->vis)) /* the error recorded in report.json too */
		write_outputs(r, a->report_path, a->junit_path);
	write_farm(r, a->report_path, a->junit_path);
	/* a run with a sweep: its points and channels for spreadsheets */
	if (aieth_report_write_sweep_csv(r, a->spath) != AIETH_OK) {
		write_failed(r, "sweep.csv could not be written: check the disk and --out");
		write_outputs(r, a->report_path, a->junit_path);
	}
}

/* stdout: each test's table, the gates' tables (gate, hgate: freed), the
 * markers, the farm's lines, where the files are. */
static void print_results(run_ctx *a, aieth_report *r, char *gate, char *hgate)
{
	int i, ntests = (int)aieth_report_num_tests(r);
	char *txt;
	if (!a->quiet)
		for (i = 0; i < ntests; i++)
			if ((txt = aieth_report_text(r, i))) {
				emit(txt);
				free(txt);
			}
	if (gate && !a->quiet)
		emit(gate);
	free(gate);
	if (hgate && !a->quiet)
		emit(hgate);
	free(hgate);
	if ((txt = aieth_report_markers(r))) {
		emit(txt);
		free(txt);
	}
	emit_farm(r);
	if (!a->quiet) {
		char line[9000];
		snprintf(line, sizeof line, "report: %s%s%s\n", a->report_path,
			 strcmp(a->junit_path, "none") ? ", junit: " : "",
			 strcmp(a->junit_path, "none") ? a->junit_path : "");
		emit(line);
		visual_line(&a->vis);
	}
}

/* After the run: the gates, the files, stdout, the uploads, the history;
 * the exit code. */
static int finish_run(run_ctx *a, aieth_report *r)
{
	char *gate = NULL, *hgate = NULL;
	int code;
	if (a->ps.verbose && !a->quiet)
		fprintf(stderr, "run_test: write %s%s%s\n", a->report_path,
			strcmp(a->junit_path, "none") ? " and " : "",
			strcmp(a->junit_path, "none") ? a->junit_path : "");
	if (a->base)
		gate = cli_baseline_gate(r, a->base, a->baseline, a->max_reg);
	if (a->gate_hist)
		hgate = cli_history_gate(r, a->gate_hist, a->gate_last, a->max_reg);
	write_all(a, r);
	code = aieth_report_exit_code(r);
	print_results(a, r, gate, hgate);
	if (a->nuploads || a->flush_spool)
		upload_results(r, a->uploads, a->nuploads, &a->uo, a->report_path);
	/* not recorded: 3, unless something worse (5, a signal) happened */
	if (a->hist && cli_history_record(r, a->hist, a->report_path, a->label, a->quiet) &&
	    (code == AIETH_EXIT_PASS || code == AIETH_EXIT_FAIL || code == AIETH_EXIT_INPUT ||
	     code == AIETH_EXIT_SKIP))
		code = AIETH_EXIT_INFRA;
	if (code > AIETH_EXIT_SIGNAL)
		fprintf(stderr, "run_test: interrupted by %s: exit %d\n", signame(code - 128),
			code);
	return code;
}

/* Options, checks, the outputs prepared and the inputs opened, then the
 * run; a's inputs are closed by the caller. */
static int run_all(run_ctx *a, int argc, char **argv)
{
	aieth_report *r = NULL;
	int code;
	if ((code = parse_options(a, argc, argv)) != GO_ON ||
	    (code = check_options(a, argc - optind)) != GO_ON || (code = remote_access(a)) != GO_ON)
		return code;
	install_signals();
	if ((code = prepare_outputs(a)) != GO_ON || (code = open_inputs(a)) != GO_ON)
		return code;
	connect_run(a);
	if (aieth_report_new(&r, "run_test", argc, argv)) {
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	if ((code = run_descriptions(a, r, optind, argc, argv)) == GO_ON) {
		code = finish_run(a, r);
		if (bisect_on)
			code = bisect_finish(code, a->report_path, a->quiet);
	}
	aieth_report_free(r);
	return code;
}

static int run_main(int argc, char **argv)
{
	static run_ctx ctx; /* some 40 KiB: not on the stack */
	int code;
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cli_compare_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "history"))
		return cli_history_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate"))
		return cli_validate_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return cli_calibrate_main("run_test", argc - 1, argv + 1);
	bisect_on = cli_bisect_requested(argc, argv);
	ctx_init(&ctx);
	code = run_all(&ctx, argc, argv);
	close_inputs(&ctx);
	return code;
}

int main(int argc, char **argv)
{
	int code = run_main(argc, argv);
	/* an exit before any test ran (usage, input, lock, signal) */
	if (bisect_on && !bisect_done)
		code = bisect_finish(code, NULL, 1);
	return code;
}
