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

static const char *usage_text =
	"usage: run_test [options] TEST.json...\n"
	"       run_test compare BASELINE.json NEW.json [--max-regression PCT]\n"
	"       run_test calibrate --board NAME|FILE -o FITTED.json DESC.json=REPORT.json...\n"
	"       run_test history add|show|html|gate DB ...  (run_test history --help)\n"
	"       run_test validate [--board B] [--level 1|2|3] ...  (run_test validate --help)\n"
	"\n"
	"Run AIE test descriptions (docs/test-spec.md) on a board and report\n"
	"per-channel cycle counters, throughput, data checks and verdicts.\n"
	"Several descriptions give one report with one test each.\n"
	"\n"
	"options:\n"
	"  -b, --board NAME|FILE  board to run on: vck190, vek280, vek385 or a board\n"
	"                         JSON file (overrides the description's \"board\")\n"
	"%s" /* --backend: from the library's backend table */
	"      --server URL       remote: th_server's URL, http://HOST:PORT (default:\n"
	"                         $AIETH_SERVER); a user:password@ part is refused\n"
	"                         (use --token-file)\n"
	"      --queue-timeout S  remote: the longest wait in th_server's queue, in\n"
	"                         seconds (default 600), whatever the server says;\n"
	"                         the place in the queue shows on the progress line.\n"
	"                         $AIETH_REMOTE_STALL_S: seconds a request may move\n"
	"                         no byte (default 60); a transaction's wait has no\n"
	"                         such limit, its timeout bounds it\n"
	"      --max-artifacts MIB  remote, xrt: the session's files put into\n"
	"                         OUT/artifacts/, all together (default 1024); a\n"
	"                         file past it is not kept (report.json says why)\n"
	"      --token-file FILE  remote: a file holding the bearer token (default:\n"
	"                         $AIETH_TOKEN)\n"
	"      --cacert FILE      remote: CA bundle for https (default:\n"
	"                         $AIETH_CACERT, else $CURL_CA_BUNDLE, else\n"
	"                         $SSL_CERT_FILE, else the system's; one that cannot\n"
	"                         be read is refused before any connection)\n"
	"      --xrt-ini FILE     xrt, remote: an xrt.ini (at most 1 MiB) for each\n"
	"                         session. xrt: XRT reads it in a session folder\n"
	"                         (its [Debug], [AIE_trace_settings],\n"
	"                         [AIE_profile_settings], [AIE_debug_settings]\n"
	"                         keys, no paths) and the files XRT writes there\n"
	"                         (aie_trace_*.txt, aie_status_*.json, ...) land\n"
	"                         in OUT/artifacts/. remote: sent to th_server,\n"
	"                         which keeps it with the session's files; remote\n"
	"                         runs fetch those files at the end into\n"
	"                         OUT/artifacts/ (run_summary.json, the xrt.ini,\n"
	"                         what the device run wrote). Either way listed in\n"
	"                         report.json; the design xclbin is sent only when\n"
	"                         the server does not have it yet\n"
	"      --xclbin FILE      the design's AIE xclbin (overrides \"xclbin\"); one\n"
	"                         that cannot be read or that th_package check\n"
	"                         refuses is an input error (exit 2) on every\n"
	"                         backend, its problems listed\n"
	"      --xclbin-warn-only such an xclbin is a warning instead and the run\n"
	"                         goes on (the emulated board never loads it)\n"
	"      --pl-xclbin FILE   xrt: the PL DMA kernel's xclbin (overrides\n"
	"                         \"pl_xclbin\"; default: the board's)\n"
	"  -o, --out DIR          output directory, created if missing (default: .):\n"
	"                         report.json, junit.xml, and relative \"save\" files\n"
	"      --report FILE      report.json path (default: OUT/report.json)\n"
	"      --junit FILE       JUnit XML path (default: OUT/junit.xml; \"none\": off)\n"
	"      --html FILE        the page a person reads: summary, tables, charts\n"
	"                         (default: OUT/report.html; \"none\": off)\n"
	"      --charts DIR       the charts as SVG files (default: OUT/charts;\n"
	"                         \"none\": off)\n"
	"      --trace FILE       Chrome trace events for Perfetto (default:\n"
	"                         OUT/trace.json; \"none\": off)\n"
	"  -t, --timeout MS       timeout of every transaction in ms, 0 for no limit\n"
	"                         (default: each transaction's timeout_ms, else\n"
	"                         10000)\n"
	"      --data-dir DIR     board files (default: $AIETH_DATA_DIR, or next to\n"
	"                         the program)\n"
	"      --reference        emulated board: beat-by-beat reference mode (slow,\n"
	"                         same results)\n"
	"      --wait-lock        wait while another run uses the output directory\n"
	"                         (default: fail at once, exit 2, naming its PID)\n"
	"      --progress         print progress lines on stderr even when it is not\n"
	"                         a terminal (default: on a terminal, after 1 s)\n"
	"      --upload URL       after the reports are written, send the results to\n"
	"                         URL (repeatable, docs/farm.md): SQUAD\n"
	"                         (squad+https://HOST/TEAM/PROJECT/BUILD/ENV), InfluxDB\n"
	"                         v1 (influx+http://HOST:8086/DB) or a JSON webhook\n"
	"                         (https://...: report.json POSTed). What cannot be\n"
	"                         delivered is spooled and retried by the next run;\n"
	"                         the exit code never changes, report.json lists\n"
	"                         each outcome (\"uploads\"); a signal during the\n"
	"                         uploads stops them, spooling what was not sent\n"
	"      --upload-credentials FILE  tokens per URL prefix (\"PREFIX token TOKEN\"\n"
	"                         or \"PREFIX basic USER:PASSWORD\" lines, mode 600;\n"
	"                         default: $AIETH_UPLOAD_CREDENTIALS), else\n"
	"                         $AIETH_SQUAD_TOKEN, $AIETH_INFLUX_TOKEN,\n"
	"                         $AIETH_WEBHOOK_TOKEN, $AIETH_UPLOAD_TOKEN\n"
	"      --upload-cacert FILE  CA bundle for https uploads (default: as for\n"
	"                         --cacert: $AIETH_CACERT, $CURL_CA_BUNDLE,\n"
	"                         $SSL_CERT_FILE, the system's)\n"
	"      --upload-timeout S each upload's time limit in seconds (default 60;\n"
	"                         connecting: at most 10)\n"
	"      --spool DIR        payloads not delivered yet (default:\n"
	"                         $XDG_STATE_HOME/aieth/spool, else\n"
	"                         ~/.local/state/aieth/spool; rejected ones in\n"
	"                         DIR/failed/; at most 100 MiB)\n"
	"      --flush-spool      retry the spool (oldest first) and exit: 0 when it\n"
	"                         is empty afterwards, 3 when entries remain or were\n"
	"                         rejected (no TEST.json needed)\n"
	"  -q, --quiet            print only the RUN_TEST marker lines (no progress)\n"
	"  -v, --verbose          also print each phase as it starts\n"
	"      --lava             also print LAVA test shell signals (docs/farm.md):\n"
	"                         a test set per test, a test case per channel\n"
	"                         (MB/s), latency check, transaction and test\n"
	"      --tap FILE         write TAP version 13 of the same cases (\"-\":\n"
	"                         stdout, after the markers)\n"
	"      --baseline FILE    compare with an earlier report.json after the run:\n"
	"                         each channel's throughput, cycles and last cycle,\n"
	"                         each transaction's total cycles and each latency;\n"
	"                         a regression beyond tolerance or a missing value\n"
	"                         fails the test (exit 1); a baseline from another\n"
	"                         board, PL clock or backend kind is refused (exit 2).\n"
	"                         The table of what moved is printed and recorded in\n"
	"                         report.json (\"baseline\", docs/farm.md)\n"
	"      --max-regression PCT  tolerance in percent (default 5); a description's\n"
	"                         \"regression\" object overrides it per metric\n"
	"      --bisect           exit as `git bisect run` reads it (docs/farm.md):\n"
	"                         0 passed; 1 a test failed or regressed, or hung\n"
	"                         on the emulated board (board time: the commit's\n"
	"                         own result); 125 (skip the commit) a usage or\n"
	"                         input error, an infrastructure error (device or\n"
	"                         server unreachable), a skip, a hang on a board;\n"
	"                         128+N after signal N stays, which stops the\n"
	"                         bisection. The mapping is printed (\"bisect: exit\n"
	"                         125 (skip): ...\")\n"
	"      --history DB       after the reports are written, record the run in the\n"
	"                         run history DB (SQLite, created when missing;\n"
	"                         run_test history --help); a run that cannot be\n"
	"                         recorded makes the exit code 3\n"
	"      --gate-history DB  gate the run against DB: each figure against the\n"
	"                         median of the same test's last passing runs on the\n"
	"                         same board and backend, within the tolerance (as\n"
	"                         --max-regression) plus 3 x 1.4826 x their MAD; a\n"
	"                         regression fails the test (exit 1), fewer than 3\n"
	"                         runs is \"no baseline\"; recorded in report.json\n"
	"                         (\"history_gate\"); a DB that cannot be opened: exit\n"
	"                         3 before the run\n"
	"      --gate-last K      baseline runs of --gate-history (default 10)\n"
	"      --label TEXT       kept with the run in the history (a commit, a build)\n"
	"      --sweep AXIS=LIST  run each point of a sweep as a test (repeatable: a\n"
	"                         grid of the axes; replaces the description's\n"
	"                         \"sweep\"): AXIS size, delay, replay, channels, mode,\n"
	"                         PLIO.size|delay|replay or GRAPH.PARAM; LIST values\n"
	"                         a,b,c or ranges FROM..TO*TIMES, FROM..TO+STEP\n"
	"                         (size=4096..65536*2); writes OUT/sweep.csv\n"
	"      --sweep-zip        pair the --sweep lists (one length) instead of a grid\n"
	"      --sweep-stop-on-fail  stop a sweep at its first point that does not pass\n"
	"      --repeat N         run each transaction N times in one session (1..100000;\n"
	"                         default: the description's \"repeat\", else once):\n"
	"                         report.json keeps every run's figures and their\n"
	"                         median, min, max, mean, stddev, mad; the table\n"
	"                         shows the median run's and the spread; thresholds\n"
	"                         and --baseline use the median (or the description's\n"
	"                         \"statistic\"); every run's data is checked. All\n"
	"                         runs of a transaction move at most 64 GiB\n"
	"      --warmup W         with --repeat: W runs first that are not measured\n"
	"                         (default 0; at most 100000 runs in all)\n"
	"      --sensor-period MS sample the board's power and temperature sensors\n"
	"                         (Versal SysMon, hwmon rails such as INA226) every\n"
	"                         MS milliseconds while each test runs (100..60000;\n"
	"                         default 1000): min/max/mean per sensor in\n"
	"                         report.json (\"sensors\"), the series in the HTML\n"
	"                         and trace; a device temperature above 100 C is a\n"
	"                         warning (docs/on-board.md)\n"
	"      --no-sensors       read no sensors\n"
	"  -h, --help             this help\n"
	"  -V, --version          the version\n"
	"\n"
	"exit codes: 0 all passed, 1 a test failed (data mismatch, threshold missed),\n"
	"2 usage or input error, 3 infrastructure error (device, xclbin, backend),\n"
	"4 skipped/unsupported, 5 hang or timeout (the board may need a reset),\n"
	"128+N interrupted by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129): the\n"
	"running transaction is stopped, the reports are written first; a second\n"
	"signal ends the program at once.\n"
	"With several descriptions the most severe wins: 128+N, 5, 3, 2, 1, 4, 0.\n";

#define UPLOADS_MAX 16
#define SWEEP_OPT 0x5e00 /* --sweep, --sweep-zip, --sweep-stop-on-fail */
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

/* A whole decimal number min..max (no sign, no blanks). */
static int parse_count(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out)
{
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*s || *end || s[0] == '-' || s[0] == '+' || s[0] == ' ' || errno || *out < min ||
	       *out > max;
}

/* The URL's authority (after "scheme://", up to / ? #) holds an '@'. */
static int url_has_userinfo(const char *url)
{
	const char *a = strstr(url, "://");
	a = a ? a + 3 : url;
	return memchr(a, '@', strcspn(a, "/?#")) != NULL;
}

/* Append word to the help text at *col, wrapped at 79 columns with a
 * 25-column hanging indent, as the rest of the option list. */
static void help_word(char *out, size_t size, size_t *len, int *col, const char *word)
{
	int w = (int)strlen(word);
	if (*len >= size)
		return;
	if (*col + 1 + w > 79) {
		*len += (size_t)snprintf(out + *len, size - *len, "\n%25s%s", "", word);
		*col = 25 + w;
	} else {
		*len += (size_t)snprintf(out + *len, size - *len, " %s", word);
		*col += 1 + w;
	}
	if (*len > size)
		*len = size;
}

/* --backend's lines: every backend of the library's table, so a new
 * backend shows here without a change to this program. */
static void backends_help(char *out, size_t size)
{
	char word[128], text[1024];
	const char *name, *tok;
	size_t len = 0, i, n = 0, tl = 0;
	int col;
	while (aieth_backend_name(n))
		n++;
	for (i = 0; i < n && tl < sizeof text; i++) {
		name = aieth_backend_name(i);
		tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%s (%s%s)",
				       !i           ? ""
				       : i + 1 == n ? " or "
						    : ", ",
				       name, aieth_backend_description(i),
				       i ? "" : ", the default unless the description names one");
	}
	if (tl >= sizeof text)
		tl = sizeof text - 1;
	len = (size_t)snprintf(out, size, "      --backend NAME     device backend:");
	col = (int)len;
	for (tok = text; *tok;) {
		size_t w = strcspn(tok, " ");
		snprintf(word, sizeof word, "%.*s", (int)(w < sizeof word ? w : sizeof word - 1),
			 tok);
		help_word(out, size, &len, &col, word);
		tok += w;
		tok += strspn(tok, " ");
	}
	if (len + 1 < size)
		snprintf(out + len, size - len, "\n");
}

static void print_usage(void)
{
	char b[1024];
	backends_help(b, sizeof b);
	printf(usage_text, b);
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
enum { FARM_OPT_LAVA = 0x1a70, FARM_OPT_TAP };
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
static int flush_only(const aieth_upload_opts *uo)
{
	char *log = NULL;
	size_t left = 0;
	int rc;
	install_signals();
	cli_cancel_armed = 1;
	rc = aieth_upload_flush(uo, &log, &left);
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
			   const aieth_upload_opts *uo, const char *report_path)
{
	char *log = NULL;
	int rc;
	cli_cancel_armed = 1;
	rc = aieth_upload_report(r, urls, n, uo, &log);
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

static int run_main(int argc, char **argv)
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
		{"xclbin-warn-only", no_argument, NULL, 22},
		{"wait-lock", no_argument, NULL, 8},
		{"progress", no_argument, NULL, 9},
		{"server", required_argument, NULL, 10},
		{"token-file", required_argument, NULL, 11},
		{"cacert", required_argument, NULL, 12},
		{"xrt-ini", required_argument, NULL, 13},
		{"queue-timeout", required_argument, NULL, 20},
		{"max-artifacts", required_argument, NULL, 21},
		{"lava", no_argument, NULL, FARM_OPT_LAVA},
		{"tap", required_argument, NULL, FARM_OPT_TAP},
		{"html", required_argument, NULL, 301},
		{"charts", required_argument, NULL, 302},
		{"trace", required_argument, NULL, 303},
		{"upload", required_argument, NULL, 14},
		{"upload-credentials", required_argument, NULL, 15},
		{"upload-cacert", required_argument, NULL, 16},
		{"upload-timeout", required_argument, NULL, 17},
		{"spool", required_argument, NULL, 18},
		{"flush-spool", no_argument, NULL, 19},
		{"baseline", required_argument, NULL, 40},
		{"max-regression", required_argument, NULL, 41},
		{"bisect", no_argument, NULL, 470},
		{"history", required_argument, NULL, 50},
		{"gate-history", required_argument, NULL, 51},
		{"gate-last", required_argument, NULL, 52},
		{"label", required_argument, NULL, 53},
		{"sweep", required_argument, NULL, SWEEP_OPT},
		{"sweep-zip", no_argument, NULL, SWEEP_OPT + 1},
		{"sweep-stop-on-fail", no_argument, NULL, SWEEP_OPT + 2},
		/* repeat */
		{"repeat", required_argument, NULL, 60},
		{"warmup", required_argument, NULL, 61},
		{"sensor-period", required_argument, NULL, 0x7200},
		{"no-sensors", no_argument, NULL, 0x7201},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *out = ".", *report_path = NULL, *junit_path = NULL, *data_dir = NULL;
	char rpath[4200], jpath[4200], apath[4200], err[1200], token[300];
	const char *token_file = NULL;
	aieth_run_opts o;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	aieth_xrt_opts xrt = AIETH_XRT_OPTS_INIT;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	visual_paths vis;
	aieth_report *r = NULL, *base = NULL;
	const char *baseline = NULL;
	const char *history_db = NULL, *gate_db = NULL, *label = NULL;
	unsigned gate_last = 0;
	aieth_history *hist = NULL, *gate_hist = NULL;
	double max_reg = -1;
	char *gate = NULL, *hgate = NULL;
	progress_state ps;
	int c, i, quiet = 0, code, wait_lock = 0, ntests;
	char *txt;
	const char *uploads[UPLOADS_MAX];
	size_t nuploads = 0, warned = 0;
	int flush_spool = 0, have_warmup = 0;
	aieth_upload_opts uo;
	const char *sweep_items[SWEEP_AXES_MAX];
	size_t nsweep = 0;
	int sweep_zip = 0;
	char spath[4200];

	aieth_upload_opts_init(&uo, AIETH_UPLOAD_OPTS_VERSION);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cli_compare_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "history"))
		return cli_history_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate"))
		return cli_validate_main("run_test", argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return cli_calibrate_main("run_test", argc - 1, argv + 1);
	bisect_on = cli_bisect_requested(argc, argv);
	aieth_run_opts_init(&o, AIETH_RUN_OPTS_VERSION);
	o.emu = &emu; /* each backend's options: the ones below */
	o.xrt = &xrt;
	o.remote = &remote;
	/* the runner's data sources and checkers keep one channel's state
	 * each: safe from two threads (docs/api.md, "Callbacks from two
	 * threads") */
	remote.concurrent_io = 1;
	memset(&ps, 0, sizeof ps);
	memset(&vis, 0, sizeof vis);
	while ((c = getopt_long(argc, argv, "b:o:t:qvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.board = optarg; break;
		case 1: o.backend = optarg; break;
		case 'o': out = optarg; break;
		case 2: report_path = optarg; break;
		case 3: junit_path = optarg; break;
		case 't': {
			char *end;
			unsigned long long v;
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-' || optarg[0] == '+' || errno ||
			    v > 4294967295ull)
				return usage_error(
					"--timeout: expected milliseconds 0..4294967295 (0: "
					"no limit), got",
					optarg);
			o.timeout_ms = (uint32_t)v;
			o.no_timeout = v == 0;
			break;
		}
		case 4: data_dir = optarg; break;
		case 5: emu.reference = 1; break;
		case 6: o.xclbin = optarg; break;
		case 7: xrt.pl_xclbin = optarg; break;
		case 22: o.xclbin_warn_only = 1; break;
		case 8: wait_lock = 1; break;
		case 9: ps.force = 1; break;
		case 10: remote.server = optarg; break;
		case 11: token_file = optarg; break;
		case 12: remote.cacert = optarg; break;
		case 13: remote.xrt_ini = xrt.xrt_ini = optarg; break;
		case FARM_OPT_LAVA: farm_lava = 1; break;
		case FARM_OPT_TAP: farm_tap = optarg; break;
		case 301: vis.html = optarg; break;
		case 302: vis.charts = optarg; break;
		case 303: vis.trace = optarg; break;
		case 14:
			if (nuploads == UPLOADS_MAX)
				return usage_error("--upload: at most 16 URLs, one more:", optarg);
			if (aieth_upload_check_url(optarg))
				return usage_error(aieth_error_message(), NULL);
			uploads[nuploads++] = optarg;
			break;
		case 15: uo.credentials = optarg; break;
		case 16: uo.cacert = optarg; break;
		case 17: {
			char *end;
			unsigned long v;
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-' || optarg[0] == '+' || errno ||
			    v < 1 || v > 3600)
				return usage_error(
					"--upload-timeout: expected seconds 1..3600, got", optarg);
			uo.timeout_s = (uint32_t)v;
			break;
		}
		case 18: uo.spool_dir = optarg; break;
		case 20: {
			unsigned long long v;
			if (parse_count(optarg, 1, 86400, &v))
				return usage_error(
					"--queue-timeout: expected seconds 1..86400, got", optarg);
			remote.queue_timeout_s = (uint32_t)v;
			break;
		}
		case 21: {
			unsigned long long v;
			if (parse_count(optarg, 1, 1048576, &v))
				return usage_error("--max-artifacts: expected MiB 1..1048576, got",
						   optarg);
			remote.artifacts_max_bytes = xrt.artifacts_max_bytes = (uint64_t)v << 20;
			break;
		}
		case 19: flush_spool = 1; break;
		case 40: baseline = optarg; break;
		case 41:
			if (cli_parse_pct(optarg, &max_reg))
				return usage_error("--max-regression: expected percent 0..1000000, "
						   "got",
						   optarg);
			break;
		case 470: bisect_on = 1; break;
		case 50: history_db = optarg; break;
		case 51: gate_db = optarg; break;
		case 52:
			if (cli_parse_last(optarg, &gate_last))
				return usage_error("--gate-last: expected runs 1..100000, got",
						   optarg);
			break;
		case 53: label = optarg; break;
		case SWEEP_OPT:
			if (nsweep == SWEEP_AXES_MAX)
				return usage_error("--sweep: at most 16 axes, one more:", optarg);
			sweep_items[nsweep++] = optarg;
			break;
		case SWEEP_OPT + 1: sweep_zip = 1; break;
		case SWEEP_OPT + 2: o.sweep_stop_on_fail = 1; break;
		/* repeat: --repeat N, --warmup W (the runner checks runs x data) */
		case 60:
		case 61: {
			unsigned long long v;
			if (parse_count(optarg, c == 60 ? 1 : 0, 100000, &v))
				return usage_error(
					c == 60 ? "--repeat: expected runs 1..100000, got"
						: "--warmup: expected runs 0..100000, got",
					optarg);
			if (c == 60)
				o.repeat_runs = (uint32_t)v;
			else
				o.repeat_warmup = (uint32_t)v;
			have_warmup |= c == 61;
			break;
		}
		/* sensors: --sensor-period MS, --no-sensors (run_sensors.c) */
		case 0x7200: {
			unsigned long long v;
			if (parse_count(optarg, 100, 60000, &v))
				return usage_error("--sensor-period: expected milliseconds "
						   "100..60000, got",
						   optarg);
			o.sensor_period_ms = (uint32_t)v;
			break;
		}
		case 0x7201: o.no_sensors = 1; break;
		case 'q': quiet = 1; break;
		case 'v': ps.verbose = 1; break;
		case 'h': print_usage(); return AIETH_EXIT_PASS;
		case 'V': printf("run_test (aieth) %s\n", aieth_version()); return AIETH_EXIT_PASS;
		default: return usage_error("bad option", NULL);
		}
	}
	if (sweep_zip && !nsweep)
		return usage_error("--sweep-zip needs --sweep AXIS=LIST", NULL);
	if (nsweep) {
		o.sweep = sweep_items;
		o.num_sweep = nsweep;
		o.sweep_zip = sweep_zip;
	}
	uo.cancel = &cli_cancel;
	if (!uo.credentials)
		uo.credentials = getenv("AIETH_UPLOAD_CREDENTIALS");
	if (uo.timeout_s && uo.timeout_s < 10)
		uo.connect_timeout_s = uo.timeout_s;
	if (flush_spool && optind >= argc)
		return flush_only(&uo);
	if (optind >= argc)
		return usage_error("no test description given", NULL);
	if (max_reg >= 0 && !baseline && !gate_db)
		return usage_error("--max-regression needs --baseline or --gate-history", NULL);
	if (gate_last && !gate_db)
		return usage_error("--gate-last needs --gate-history", NULL);
	if (label && !history_db)
		return usage_error("--label needs --history", NULL);
	if ((history_db && !*history_db) || (gate_db && !*gate_db))
		return usage_error("--history, --gate-history: a database path is needed", NULL);
	if (have_warmup && !o.repeat_runs)
		return usage_error("--warmup needs --repeat", NULL);
	if ((uint64_t)o.repeat_runs + o.repeat_warmup > 100000)
		return usage_error("--repeat and --warmup: more than 100000 runs in all", NULL);
	if (!remote.server)
		remote.server = getenv("AIETH_SERVER");
	/* never recorded, never sent: a password in the URL would land in
	 * report.json, report.html and the uploads */
	if (remote.server && url_has_userinfo(remote.server)) {
		fprintf(stderr,
			"run_test: %s: a URL with user:password@ (not repeated here) is "
			"refused: it would land in the reports and uploads; th_server takes a "
			"bearer token (--token-file FILE, or $AIETH_TOKEN)\n",
			remote.server == getenv("AIETH_SERVER") ? "$AIETH_SERVER" : "--server");
		return AIETH_EXIT_INPUT;
	}
	if (token_file) {
		/* the file holds just the token (surrounding white space ignored) */
		FILE *f = fopen(token_file, "r");
		size_t n, b = 0;
		if (!f) {
			fprintf(stderr, "run_test: --token-file %s: %s\n", token_file,
				strerror(errno));
			return AIETH_EXIT_INPUT;
		}
		n = fread(token, 1, sizeof token - 1, f);
		fclose(f);
		token[n] = '\0';
		while (n && (token[n - 1] == '\n' || token[n - 1] == '\r' || token[n - 1] == ' ' ||
			     token[n - 1] == '\t'))
			token[--n] = '\0';
		while (token[b] == ' ' || token[b] == '\t')
			b++;
		if (n == b || n == sizeof token - 1 || strpbrk(token + b, " \t\r\n")) {
			fprintf(stderr,
				"run_test: --token-file %s: one token of 1..256 bytes without "
				"spaces is needed\n",
				token_file);
			return AIETH_EXIT_INPUT;
		}
		remote.token = token + b;
	} else {
		remote.token = getenv("AIETH_TOKEN");
	}
	install_signals();
	if (cli_ensure_dir(out, err, sizeof err)) {
		fprintf(stderr, "run_test: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	/* one run per output folder (the descriptor stays open until exit) */
	if (cli_lock_dir(out, wait_lock, err, sizeof err) < 0) {
		if (cli_signal)
			return AIETH_EXIT_SIGNAL + cli_signal;
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
	/* every destination is checked before anything runs */
	if (cli_check_output("--report", report_path, err, sizeof err) ||
	    (strcmp(junit_path, "none") &&
	     cli_check_output("--junit", junit_path, err, sizeof err)) ||
	    (farm_tap && strcmp(farm_tap, "-") &&
	     cli_check_output("--tap", farm_tap, err, sizeof err))) {
		fprintf(stderr, "run_test: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	snprintf(spath, sizeof spath, "%s/sweep.csv", out);
	if (cli_check_output("sweep.csv", spath, err, sizeof err)) {
		fprintf(stderr, "run_test: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	if (visual_check(&vis, out, err, sizeof err)) {
		fprintf(stderr, "run_test: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	/* the baseline is read before anything runs: a bad one costs no board time */
	if (baseline && aieth_report_load(&base, baseline)) {
		fprintf(stderr, "run_test: --baseline: %s\n", aieth_error_message());
		return AIETH_EXIT_INPUT;
	}
	/* the histories are opened before anything runs: a bad one costs no
	 * board time; one named twice is one connection, made for writing */
	if (history_db && (code = cli_history_open(&hist, history_db, 0, "--history"))) {
		aieth_report_free(base);
		return code;
	}
	if (gate_db && hist && !strcmp(gate_db, history_db))
		gate_hist = hist;
	else if (gate_db && (code = cli_history_open(&gate_hist, gate_db, 1, "--gate-history"))) {
		aieth_history_close(hist);
		aieth_report_free(base);
		return code;
	}
	o.data_dir = data_dir;
	o.out_dir = out;
	/* a remote session's files (the local backends have none to fetch) */
	snprintf(apath, sizeof apath, "%s/artifacts", out);
	remote.artifacts_dir = xrt.artifacts_dir = apath;
	emu.artifacts_dir = apath; /* a stall's aie_state.json, as on a board */
	o.interrupt = &cli_signal;
	ps.quiet = quiet;
	ps.tty = isatty(2);
	ps.start = mono();
	o.progress = progress;
	o.progress_ctx = &ps;

	if (aieth_report_new(&r, "run_test", argc, argv)) {
		fprintf(stderr, "run_test: %s\n", aieth_error_message());
		return AIETH_EXIT_INFRA;
	}
	for (i = optind; i < argc; i++) {
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
		if (ps.verbose && !quiet)
			fprintf(stderr, "run_test: %s\n", argv[i]);
		if (aieth_report_run(r, argv[i], &o)) {
			progress_clear(&ps);
			fprintf(stderr, "run_test: %s\n", aieth_error_message());
			aieth_report_free(r);
			aieth_report_free(base);
			return AIETH_EXIT_INFRA;
		}
		progress_clear(&ps);
		/* what the run went on with, shown where a person looks */
		for (; warned < aieth_report_num_warnings(r); warned++)
			fprintf(stderr, "run_test: warning: %s: %s\n", argv[i],
				aieth_report_warning(r, warned));
	}
	if (ps.verbose && !quiet)
		fprintf(stderr, "run_test: write %s%s%s\n", report_path,
			strcmp(junit_path, "none") ? " and " : "",
			strcmp(junit_path, "none") ? junit_path : "");
	if (base)
		gate = cli_baseline_gate(r, base, baseline, max_reg);
	if (gate_hist)
		hgate = cli_history_gate(r, gate_hist, gate_last, max_reg);
	/* the files first: what is printed afterwards is what they say */
	write_outputs(r, report_path, junit_path);
	if (!write_visual(r, &vis)) /* the error recorded in report.json too */
		write_outputs(r, report_path, junit_path);
	write_farm(r, report_path, junit_path);
	/* a run with a sweep: its points and channels for spreadsheets */
	if (aieth_report_write_sweep_csv(r, spath) != AIETH_OK) {
		write_failed(r, "sweep.csv could not be written: check the disk and --out");
		write_outputs(r, report_path, junit_path);
	}
	code = aieth_report_exit_code(r);
	ntests = (int)aieth_report_num_tests(r);
	if (!quiet)
		for (i = 0; i < ntests; i++)
			if ((txt = aieth_report_text(r, i))) {
				emit(txt);
				free(txt);
			}
	if (gate && !quiet)
		emit(gate);
	free(gate);
	if (hgate && !quiet)
		emit(hgate);
	free(hgate);
	if ((txt = aieth_report_markers(r))) {
		emit(txt);
		free(txt);
	}
	emit_farm(r);
	if (!quiet) {
		char line[9000];
		snprintf(line, sizeof line, "report: %s%s%s\n", report_path,
			 strcmp(junit_path, "none") ? ", junit: " : "",
			 strcmp(junit_path, "none") ? junit_path : "");
		emit(line);
		visual_line(&vis);
	}
	if (nuploads || flush_spool)
		upload_results(r, uploads, nuploads, &uo, report_path);
	/* not recorded: 3, unless something worse (5, a signal) happened */
	if (hist && cli_history_record(r, hist, report_path, label, quiet) &&
	    (code == AIETH_EXIT_PASS || code == AIETH_EXIT_FAIL || code == AIETH_EXIT_INPUT ||
	     code == AIETH_EXIT_SKIP))
		code = AIETH_EXIT_INFRA;
	if (gate_hist != hist)
		aieth_history_close(gate_hist);
	aieth_history_close(hist);
	if (code > AIETH_EXIT_SIGNAL)
		fprintf(stderr, "run_test: interrupted by %s: exit %d\n", signame(code - 128),
			code);
	if (bisect_on)
		code = bisect_finish(code, report_path, quiet);
	aieth_report_free(r);
	aieth_report_free(base);
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
