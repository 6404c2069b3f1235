/* SPDX-License-Identifier: MIT */
/*
 * test_report_visual.c - the writers of the pages a person looks at:
 * escaping (HTML/SVG and JSON, invalid UTF-8), safe chart file names, a
 * failed test and a test with no transaction, and trace.json's event times
 * computed from cycles at the PL clock on a report whose figures are known.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "tu.h"
#include "util/fileio.h"

/* One test at 250 MHz: a finished channel (cycles 100..1100, delay 100), a
 * stalled one (delay 20, stalled at 420), a latency of 100 cycles. */
static const char known_test[] =
	"{\"name\": \"<b>t&1</b>\", \"board\": \"vck190\", \"backend\": \"emu\","
	" \"pl_clock_MHz\": 250, \"status\": \"timeout\", \"exit_code\": 5,"
	" \"description\": \"'quoted' \\\"desc\\\" \\u0001\", \"error\": null,"
	" \"transactions\": [{\"index\": 0, \"name\": \"x</svg><script>\", \"mode\": \"perf\","
	"  \"status\": \"timeout\", \"valid\": false, \"message\": \"stalled <here>\","
	"  \"total_cycles\": 2000,"
	"  \"channels\": ["
	"   {\"plio\": \"IN\\\"<>\", \"direction\": \"to_aie\", \"finished\": true, \"delay_cycles\": 0,"
	"    \"first_cycle\": 0, \"last_cycle\": 1000, \"cycles\": 1000, \"bytes_moved\": 16000,"
	"    \"bytes_expected\": 16000, \"throughput_MBps\": 4000, \"theoretical_MBps\": 4000,"
	"    \"utilisation_pct\": 100, \"verdict\": \"pass\"},"
	"   {\"plio\": \"OUT\", \"direction\": \"from_aie\", \"finished\": true, \"delay_cycles\": 100,"
	"    \"first_cycle\": 100, \"last_cycle\": 1100, \"cycles\": 1000, \"bytes_moved\": 16000,"
	"    \"bytes_expected\": 16000, \"throughput_MBps\": 4000, \"theoretical_MBps\": 4000,"
	"    \"utilisation_pct\": 100, \"verdict\": \"fail\"},"
	"   {\"plio\": \"STUCK\", \"direction\": \"from_aie\", \"finished\": false, \"delay_cycles\": 20,"
	"    \"first_cycle\": null, \"stalled_since_cycle\": 420, \"bytes_moved\": 64,"
	"    \"bytes_expected\": 4096, \"theoretical_MBps\": 4000, \"verdict\": \"timeout\"}],"
	"  \"latencies\": [{\"from\": \"IN\\\"<>\", \"to\": \"OUT\", \"cycles\": 100,"
	"    \"max_cycles\": 50, \"passed\": false}]}]}";

static char dir[64];

static aieth_report *known_report(void)
{
	aieth_report *r = NULL;
	struct json_object *t = json_tokener_parse(known_test);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "run_test", 0, NULL), AIETH_OK);
	json_object_array_add(r->tests, t);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	return r;
}

static char *slurp(const char *name)
{
	char path[128], *txt = NULL;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CU_ASSERT_EQUAL(aieth__read_file(path, 1u << 24, &txt, NULL), AIETH_OK);
	return txt ? txt : calloc(1, 1);
}

static const char *at(const char *name)
{
	static char buf[4][128];
	static int slot;
	char *b = buf[slot++ % 4];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static void test_escape(void)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	char part[16];
	aieth__rv_esc(&b,
		      "<a href=\"x\">'&'</a>\x01\x7f\xff\xc3\xa9\xed\xa0\x80\xef\xbf\xbe\xc0\xaf");
	CU_ASSERT_STRING_EQUAL(b.p, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;???"
				    "\xc3\xa9????"
				    "????");
	free(b.p);
	aieth__sb_init(&b, SB_DOC_MAX);
	aieth__rv_json(&b, "q\"b\\\n\x02\xc3\xa9\xff");
	CU_ASSERT_STRING_EQUAL(b.p, "\"q\\\"b\\\\\\u000a\\u0002\xc3\xa9?\"");
	free(b.p);
	aieth__rv_file_part(part, sizeof part, "../<x> y.z/\xc3\xa9-long-name");
	CU_ASSERT_STRING_EQUAL(part, "_.__x__y.z___-l");
	aieth__rv_file_part(part, sizeof part, "");
	CU_ASSERT_STRING_EQUAL(part, "_");
	aieth__rv_file_part(part, sizeof part, ".hidden");
	CU_ASSERT_STRING_EQUAL(part, "_hidden");
}

/* Every string of the known report is escaped: the page has no tag that
 * came from a name; the figures and verdicts are there. */
static void test_html_known(void)
{
	aieth_report *r = known_report();
	char *h;
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("r.html")), AIETH_OK);
	h = slurp("r.html");
	CU_ASSERT_PTR_NULL(strstr(h, "<script"));
	CU_ASSERT_PTR_NULL(strstr(h, "<b>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "&lt;b&gt;t&amp;1&lt;/b&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "x&lt;/svg&gt;&lt;script&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "IN&quot;&lt;&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "&#39;quoted&#39; &quot;desc&quot; ?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "stalled since cycle 420"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "<td>16000</td><td>100</td><td>1100</td><td>1000</td>"
					 "<td>4000.0</td><td>100.0</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "8.000 &micro;s")); /* 2000 cycles at 250 MHz */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "stalled at 420 (delay 20)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "100..1100 (delay 100)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "Content-Security-Policy"));
	free(h);
	aieth_report_free(r);
}

/* A test that never ran (no board, no transactions) and an empty report. */
static void test_html_empty(void)
{
	aieth_report *r = NULL;
	char *h;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "run_test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("e.html")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_write_trace(r, at("e.json")), AIETH_OK);
	h = slurp("e.json");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\"traceEvents\":[\n]"));
	free(h);
	CU_ASSERT_EQUAL(aieth_report_add_error(r, "<i>bad.json", "load", AIETH_EIO,
					       "bad.json: cannot open <x>", "a & b",
					       AIETH_EXIT_INPUT),
			AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("f.html")), AIETH_OK);
	h = slurp("f.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "no transaction ran"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "bad.json: cannot open &lt;x&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "hint: a &amp; b"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "class=\"b error\""));
	CU_ASSERT_PTR_NULL(strstr(h, "<i>"));
	free(h);
	CU_ASSERT_EQUAL(mkdir(at("svgs"), 0755), 0);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("svgs")), AIETH_OK);
	CU_ASSERT_EQUAL(rmdir(at("svgs")), 0); /* no chart: still empty */
	CU_ASSERT_EQUAL(aieth_report_write_trace(r, at("f.json")), AIETH_OK);
	h = slurp("f.json");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\"name\":\"<i>bad.json\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\"ph\":\"i\""));
	free(h);
	/* a directory is never replaced */
	CU_ASSERT_EQUAL(mkdir(at("adir"), 0755), 0);
	CU_ASSERT_NOT_EQUAL(aieth_report_write_html(r, at("adir")), AIETH_OK);
	CU_ASSERT_NOT_EQUAL(aieth_report_write_trace(r, at("adir")), AIETH_OK);
	CU_ASSERT_EQUAL(rmdir(at("adir")), 0);
	CU_ASSERT_NOT_EQUAL(aieth_report_write_html(NULL, at("x")), AIETH_OK);
	aieth_report_free(r);
}

static struct json_object *event(struct json_object *evs, const char *ph, const char *name, int tid)
{
	size_t i;
	for (i = 0; i < json_object_array_length(evs); i++) {
		struct json_object *e = json_object_array_get_idx(evs, i);
		if (!strcmp(aieth__rj_gets(e, "ph"), ph) &&
		    !strcmp(aieth__rj_gets(e, "name"), name) && aieth__rj_geti(e, "tid") == tid)
			return e;
	}
	return NULL;
}

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

static void test_trace_math(void)
{
	aieth_report *r = known_report();
	struct json_object *root, *evs, *e;
	char *txt;
	CU_ASSERT_EQUAL(aieth_report_write_trace(r, at("t.json")), AIETH_OK);
	txt = slurp("t.json");
	root = json_tokener_parse(txt);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	evs = aieth__rj_get(root, "traceEvents");
	CU_ASSERT_PTR_NOT_NULL_FATAL(evs);
	e = event(evs, "M", "process_name", 0);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(aieth__rj_get(e, "args"), "name"),
			       "<b>t&1</b> / x</svg><script>");
	e = event(evs, "M", "thread_name", 1);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(aieth__rj_get(e, "args"), "name"), "IN\"<>");
	/* the transaction: 2000 cycles at 250 MHz = 8 us */
	e = event(evs, "X", "x</svg><script>", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(aieth__rj_getd(e, "ts"), 0);
	NEAR(aieth__rj_getd(e, "dur"), 8.0);
	/* OUT: first 100 -> 0.4 us, 1000 cycles -> 4 us; its delay 0..0.4 */
	e = event(evs, "X", "OUT", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(aieth__rj_getd(e, "ts"), 0.4);
	NEAR(aieth__rj_getd(e, "dur"), 4.0);
	CU_ASSERT_EQUAL(aieth__rj_geti(e, "pid"), 1);
	e = event(evs, "X", "delay", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(aieth__rj_getd(e, "dur"), 0.4);
	/* the latency IN -> OUT on OUT's track: 0..0.4 us */
	e = event(evs, "X", "latency from IN\"<>", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(aieth__rj_getd(e, "ts"), 0);
	NEAR(aieth__rj_getd(e, "dur"), 0.4);
	CU_ASSERT_FALSE(json_object_get_boolean(aieth__rj_get(aieth__rj_get(e, "args"), "passed")));
	/* STUCK: from its delay (20 -> 0.08 us) to the stall (420 -> 1.68 us) */
	e = event(evs, "X", "STUCK", 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(aieth__rj_getd(e, "ts"), 0.08);
	NEAR(aieth__rj_getd(e, "dur"), 1.6);
	CU_ASSERT_EQUAL(aieth__rj_geti(aieth__rj_get(e, "args"), "stalled_since_cycle"), 420);
	json_object_put(root);
	free(txt);
	aieth_report_free(r);
}

/* Names of any length that fits the document go into trace.json whole (a
 * 100000-byte test name was "out of memory" once). */
static void test_trace_long_names(void)
{
	aieth_report *r = known_report();
	struct json_object *t = json_object_array_get_idx(r->tests, 0), *tx, *ch, *root, *evs, *e;
	size_t n = 100000;
	char *a = malloc(n + 1), *b = malloc(n + 1), *want = malloc(2 * n + 4), *txt;
	CU_ASSERT_FATAL(a && b && want);
	memset(a, 'n', n);
	a[n] = '\0';
	memset(b, 'x', n);
	b[n] = '\0';
	snprintf(want, 2 * n + 4, "%s / %s", a, b);
	tx = json_object_array_get_idx(aieth__rj_get(t, "transactions"), 0);
	ch = json_object_array_get_idx(aieth__rj_get(tx, "channels"), 0);
	json_object_object_add(t, "name", json_object_new_string(a));
	json_object_object_add(tx, "name", json_object_new_string(b));
	json_object_object_add(ch, "plio", json_object_new_string(a));
	json_object_object_add(json_object_array_get_idx(aieth__rj_get(tx, "latencies"), 0), "from",
			       json_object_new_string(a));
	CU_ASSERT_EQUAL(aieth_report_write_trace(r, at("l.json")), AIETH_OK);
	txt = slurp("l.json");
	root = json_tokener_parse(txt);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	evs = aieth__rj_get(root, "traceEvents");
	e = event(evs, "M", "process_name", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(aieth__rj_get(e, "args"), "name"), want);
	CU_ASSERT_PTR_NOT_NULL(event(evs, "X", b, 0));
	CU_ASSERT_PTR_NOT_NULL(event(evs, "X", a, 1));
	memcpy(want, "latency from ", 13);
	memcpy(want + 13, a, n + 1);
	CU_ASSERT_PTR_NOT_NULL(event(evs, "X", want, 2));
	json_object_put(root);
	free(txt);
	free(a);
	free(b);
	free(want);
	aieth_report_free(r);
}

/* The standalone SVGs: names reduced, a repeated name told apart. */
static void test_svg_files(void)
{
	aieth_report *r = known_report();
	struct json_object *again = json_tokener_parse(known_test);
	char *s;
	json_object_array_add(r->tests, again);
	CU_ASSERT_EQUAL(mkdir(at("c"), 0755), 0);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("c")), AIETH_OK);
	s = slurp("c/_b_t_1__b_-x__svg__script_-timeline.svg");
	CU_ASSERT_EQUAL(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=", 50),
			0);
	CU_ASSERT_PTR_NULL(strstr(s, "<script"));
	free(s);
	s = slurp("c/_b_t_1__b_-x__svg__script_+1.0-throughput.svg");
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "4000.0 / 4000 MB/s (100.0%) pass"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "stalled: 64 of 4096 bytes"));
	free(s);
	unlink(at("c/_b_t_1__b_-x__svg__script_-timeline.svg"));
	unlink(at("c/_b_t_1__b_-x__svg__script_-throughput.svg"));
	unlink(at("c/_b_t_1__b_-x__svg__script_+1.0-timeline.svg"));
	unlink(at("c/_b_t_1__b_-x__svg__script_+1.0-throughput.svg"));
	CU_ASSERT_EQUAL(rmdir(at("c")), 0);
	aieth_report_free(r);
}

/* --- campaigns: repeats and sweeps -------------------------- */

/* Every file of folder d, then d. */
static void rm_tree(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	char p[512];
	while (dp && (e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", d, e->d_name);
			CU_ASSERT_EQUAL(unlink(p), 0);
		}
	if (dp)
		closedir(dp);
	CU_ASSERT_EQUAL(rmdir(d), 0);
}

static aieth_report *fixture(const char *name)
{
	aieth_report *r = NULL;
	char rel[128];
	snprintf(rel, sizeof rel, "tests/data/campaign/%s", name);
	CU_ASSERT_EQUAL(aieth_report_load(&r, tu_src(rel)), AIETH_OK);
	if (!r)
		fprintf(stderr, "%s: %s\n", rel, aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

static size_t count(const char *h, const char *what)
{
	size_t n = 0;
	for (; h && (h = strstr(h, what)); h += strlen(what))
		n++;
	return n;
}

/* The spread: MAD relative to the median, in percent, one decimal; no
 * statistics for one run. */
static void test_spread(void)
{
	struct json_object *o = json_tokener_parse(
		"{\"stats\": {\"throughput_MBps\": {\"median\": 5000, \"min\": 4990, \"max\": 5020,"
		" \"mean\": 5001, \"stddev\": 9, \"mad\": 10, \"runs\": [5000, 4990, 5020]},"
		" \"cycles\": {\"median\": 0, \"min\": 0, \"max\": 0, \"mad\": 0, \"runs\": [0, 0]},"
		" \"one\": {\"median\": 3, \"min\": 3, \"max\": 3, \"mad\": 0, \"runs\": [3]},"
		" \"bad\": {\"median\": \"5000\", \"min\": 1, \"max\": 2}}}");
	sbuf b = SB_INIT(SB_LINE_MAX);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	aieth__rv_pm(&b, aieth__rv_stat(o, "throughput_MBps"), 1);
	CU_ASSERT_STRING_EQUAL(b.p, "5000.0 \xc2\xb1"
				    "0.2 %");
	aieth__sb_reset(&b);
	aieth__rv_pm(&b, aieth__rv_stat(o, "cycles"), 0);
	CU_ASSERT_STRING_EQUAL(b.p, "0 \xc2\xb1"
				    "0.0 %");
	CU_ASSERT_PTR_NULL(aieth__rv_stat(o, "one")); /* N = 1: no statistics */
	CU_ASSERT_PTR_NULL(aieth__rv_stat(o, "bad"));
	CU_ASSERT_PTR_NULL(aieth__rv_stat(o, "missing"));
	CU_ASSERT_PTR_NULL(aieth__rv_stat(NULL, "cycles"));
	aieth__sb_free(&b);
	json_object_put(o);
}

/* A repeated test (10 runs after 2 warm-up): the table's median +- spread
 * from the stats, a distribution chart with every run a dot. */
static void test_repeat_distribution(void)
{
	aieth_report *r = fixture("repeat.json");
	struct json_object *t = json_object_array_get_idx(r->tests, 0);
	struct json_object *tx = json_object_array_get_idx(aieth__rj_get(t, "transactions"), 0);
	struct json_object *ch = json_object_array_get_idx(aieth__rj_get(tx, "channels"), 1);
	struct json_object *s = aieth__rj_get(aieth__rj_get(ch, "stats"), "throughput_MBps");
	char want[96], *h, *d;
	snprintf(want, sizeof want, "%.1f \xc2\xb1%.1f %%", aieth__rj_getd(s, "median"),
		 aieth__rj_getd(s, "mad") / aieth__rj_getd(s, "median") * 100);
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/repeat.html")), AIETH_OK);
	h = slurp("camp/repeat.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "10 measured runs after 2 warm-up"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "class=\"chart distribution\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "10 measured runs (2 warm-up not shown)"));
	CU_ASSERT_EQUAL(count(h, "class=\"run\""), 20); /* 2 channels x 10 runs */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "the figures below from run"));
	free(h);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("camp/c1")), AIETH_OK);
	d = slurp("camp/c1/adder_perf-t0-distribution.svg");
	CU_ASSERT_EQUAL(strncmp(d, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg", 43), 0);
	CU_ASSERT_EQUAL(count(d, "class=\"run\""), 20);
	CU_ASSERT_EQUAL(count(d, "class=\"mad\""), 2);
	CU_ASSERT_EQUAL(count(d, "class=\"whisker\""), 2);
	free(d);
	/* 2000 runs: 500 dots (every 4th), the whisker from all */
	{
		struct json_object *runs = json_object_new_array();
		int i;
		for (i = 0; i < 2000; i++)
			json_object_array_add(runs, json_object_new_double(3000 + i % 7));
		json_object_object_add(s, "runs", runs);
	}
	{
		sbuf b = SB_INIT(SB_DOC_MAX);
		aieth__rv_svg_distribution(&b, t, tx, 0);
		CU_ASSERT_EQUAL(count(b.p, "class=\"run\""), 500 + 10);
		CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "dots: every 4. run of 2000"));
		aieth__sb_free(&b);
	}
	rm_tree(at("camp/c1"));
	aieth_report_free(r);
}

/* The grid sweep: a curve per figure and axis, a line per channel and
 * delay, the knee at its value, the threshold dashed, log x for sizes
 * that double, the points table; the curves as files. */
static void test_sweep_curves(void)
{
	aieth_report *r = fixture("sweep.json");
	char *h, *c;
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/sweep.html")), AIETH_OK);
	h = slurp("camp/sweep.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "sweep &ldquo;adder_perf&rdquo;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "sweep &ldquo;adder_zip&rdquo;"));
	/* 2 sweeps x 2 axes x 3 figures, but adder_zip's mode has one value */
	CU_ASSERT_EQUAL(count(h, "class=\"chart curve "), 9);
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "axis mode: one value, no curve"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "size (log scale)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "PLIO_01_FROM_AIE @ delay=1000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "PLIO_01_TO_AIE \xe2\x86\x92 PLIO_01_FROM_AIE @ delay=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">knee 32768</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">knee 65536</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "throughput falls with delay: no plateau"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "<a href=\"#t4\">adder_perf[size=4096,delay=0]</a>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "adder_zip[size=8192,mode=perf]"));
	free(h);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("camp/c2")), AIETH_OK);
	c = slurp("camp/c2/sweep-adder_perf-size-throughput.svg");
	CU_ASSERT_EQUAL(strncmp(c, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg", 43), 0);
	CU_ASSERT_EQUAL(count(c, "class=\"curve\""), 4); /* 2 channels x 2 delays */
	/* min 3000 MB/s on the FROM channel, both delays: the same level */
	CU_ASSERT_EQUAL(count(c, "class=\"threshold\""), 2);
	CU_ASSERT_EQUAL(count(c, "<line class=\"knee\""), 2);
	/* failed points ringed: FROM below 3000 MB/s (sizes to 16384 at
	 * delay 0, to 32768 at delay 1000) */
	CU_ASSERT_EQUAL(count(c, "class=\"failed\""), 4 + 6);
	free(c);
	c = slurp("camp/c2/sweep-adder_perf-delay-cycles.svg");
	CU_ASSERT_PTR_NULL(strstr(c, "log scale")); /* 0, 1000: linear */
	/* 3 lines (total, 2 channels) x 7 sizes: 16 drawn */
	CU_ASSERT_PTR_NOT_NULL(strstr(c, "total @ size=1024"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c, "5 more lines not drawn"));
	free(c);
	c = slurp("camp/c2/sweep-adder_zip-size-throughput.svg");
	CU_ASSERT_PTR_NOT_NULL(strstr(c, "class=\"band\"")); /* repeated: min-max band */
	CU_ASSERT_PTR_NULL(strstr(c, " @ "));                /* zip: one line per channel */
	free(c);
	rm_tree(at("camp/c2"));
	aieth_report_free(r);
}

/* Hostile names in a sweep (test, channel, axis, values) and hostile
 * types are text, never markup; nothing crashes. */
static void test_sweep_hostile(void)
{
	aieth_report *r = fixture("hostile.json");
	struct json_object *sw, *t;
	char *h;
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/hostile.html")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("camp/c3")), AIETH_OK);
	h = slurp("camp/hostile.html");
	CU_ASSERT_PTR_NULL(strstr(h, "<script"));
	CU_ASSERT_PTR_NULL(strstr(h, "<b>"));
	CU_ASSERT_PTR_NULL(strstr(h, "<i>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "&lt;/svg&gt;&lt;script&gt;alert(2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "PLIO_01_TO_AIE.&quot;delay&#39;&lt;i&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "&lt;b&gt;0&lt;/b&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "(values in order)")); /* words: categories */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;x"
					 "[size=4096,"));
	free(h);
	h = slurp("camp/c3/sweep-_script_alert_1___script____x-size-throughput.svg");
	CU_ASSERT_PTR_NULL(strstr(h, "<script"));
	free(h);
	rm_tree(at("camp/c3"));
	/* wrong types everywhere the pages read a campaign (what the loader
	 * does not check: it checks channels and latencies are arrays) */
	sw = json_object_array_get_idx(aieth__rj_get(r->run, "sweeps"), 0);
	json_object_object_add(json_object_array_get_idx(aieth__rj_get(sw, "axes"), 0), "values",
			       json_tokener_parse("[{\"a\": 1}, null, [2], \"x\"]"));
	json_object_object_add(sw, "knees",
			       json_tokener_parse("[1, {\"axis\": 2, \"at\": []},"
						  " {\"axis\": \"size\", \"value\": {}}]"));
	t = json_object_array_get_idx(r->tests, 0);
	json_object_object_add(aieth__rj_get(t, "sweep"), "values", json_tokener_parse("[1]"));
	t = json_object_array_get_idx(r->tests, 1);
	json_object_object_add(
		json_object_array_get_idx(aieth__rj_get(t, "transactions"), 0), "channels",
		json_tokener_parse("[{\"plio\": \"P\", \"finished\": true, \"stats\": "
				   "{\"throughput_MBps\": {\"median\": 1, \"min\": 0, "
				   "\"max\": 2, \"runs\": {}}, \"cycles\": 3}}]"));
	json_object_get(sw); /* kept: the sweeps it is in are replaced */
	json_object_object_add(r->run, "sweeps",
			       json_tokener_parse("[7, {\"axes\": 3}, {\"axes\": [7, {}]}]"));
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/types.html")), AIETH_OK);
	json_object_array_add(aieth__rj_get(r->run, "sweeps"), sw);
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/types.html")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_write_svgs(r, at("camp/c4")), AIETH_OK);
	rm_tree(at("camp/c4"));
	aieth_report_free(r);
}

/* 100,000 points (1000 sizes x 100 delays): the page stays small (points
 * table 200 rows, 16 lines a chart, 400 points a line, 200 + 200 test
 * sections), and says what it left out. */
static void test_sweep_bounds(void)
{
	aieth_report *r = NULL;
	struct json_object *sw, *axes, *sizes = json_object_new_array(),
				       *delays = json_object_new_array();
	char name[96], *h;
	struct stat st;
	int i, j;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "run_test", 0, NULL), AIETH_OK);
	for (i = 0; i < 1000; i++)
		json_object_array_add(sizes, json_object_new_int(1024 + 16 * i));
	for (j = 0; j < 100; j++)
		json_object_array_add(delays, json_object_new_int(j));
	for (i = 0; i < 1000; i++)
		for (j = 0; j < 100; j++) {
			struct json_object *t = json_object_new_object(), *s, *v, *tx, *ch;
			int k = i * 100 + j, bad = k % 1999 == 0;
			snprintf(name, sizeof name, "big[size=%d,delay=%d]", 1024 + 16 * i, j);
			json_object_object_add(t, "name", json_object_new_string(name));
			json_object_object_add(t, "status",
					       json_object_new_string(bad ? "fail" : "pass"));
			s = json_object_new_object();
			json_object_object_add(s, "name", json_object_new_string("big"));
			json_object_object_add(s, "point", json_object_new_int(k));
			v = json_object_new_object();
			json_object_object_add(v, "size", json_object_new_int(1024 + 16 * i));
			json_object_object_add(v, "delay", json_object_new_int(j));
			json_object_object_add(s, "values", v);
			json_object_object_add(t, "sweep", s);
			ch = json_object_new_object();
			json_object_object_add(ch, "plio", json_object_new_string("OUT"));
			json_object_object_add(ch, "throughput_MBps",
					       json_object_new_double(4000.0 * i / (i + 50.0 + j)));
			json_object_object_add(ch, "verdict",
					       json_object_new_string(bad ? "fail" : "pass"));
			tx = json_object_new_object();
			json_object_object_add(tx, "name", json_object_new_string("t0"));
			json_object_object_add(tx, "channels", json_object_new_array());
			json_object_array_add(aieth__rj_get(tx, "channels"), ch);
			json_object_object_add(t, "transactions", json_object_new_array());
			json_object_array_add(aieth__rj_get(t, "transactions"), tx);
			json_object_array_add(r->tests, t);
		}
	sw = json_object_new_object();
	json_object_object_add(sw, "name", json_object_new_string("big"));
	json_object_object_add(sw, "mode", json_object_new_string("grid"));
	axes = json_tokener_parse("[{\"name\": \"size\"}, {\"name\": \"delay\"}]");
	json_object_object_add(json_object_array_get_idx(axes, 0), "values", sizes);
	json_object_object_add(json_object_array_get_idx(axes, 1), "values", delays);
	json_object_object_add(sw, "axes", axes);
	json_object_object_add(r->run, "sweeps", json_object_new_array());
	json_object_array_add(aieth__rj_get(r->run, "sweeps"), sw);
	CU_ASSERT_EQUAL(aieth_report_write_html(r, at("camp/big.html")), AIETH_OK);
	CU_ASSERT_EQUAL(stat(at("camp/big.html"), &st), 0);
	printf("\n  100,000-point sweep: report.html %lld bytes\n", (long long)st.st_size);
	CU_ASSERT(st.st_size < 8 * 1000 * 1000);
	h = slurp("camp/big.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "99800 more points: this page lists the first 200"));
	/* size axis: one line per delay, 100 of them: 16 drawn */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "84 more lines not drawn"));
	/* delay axis: 1000 sizes: 984 more */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "984 more lines not drawn"));
	/* 51 failed tests (every 1999th): each has a section, 50 of them
	 * past the first 200 */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(h, "99750 more tests (0 of them not passing) have no section"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "<h2>big[size=1328,delay=99] <span class=\"b fail\""));
	CU_ASSERT_EQUAL(count(h, "<section id=\"t"), 250);
	free(h);
	/* one axis: a line of 100,000 points is drawn with 400 and its failures */
	json_object_array_del_idx(axes, 1, 1);
	json_object_object_add(sw, "mode", json_object_new_string("zip"));
	{
		sbuf b = SB_INIT(SB_DOC_MAX);
		const char *p;
		CU_ASSERT_EQUAL(aieth__rv_svg_curve(&b, r->tests, sw, 0, RV_FIG_THROUGHPUT, 1), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "drawn with 400 evenly chosen"));
		CU_ASSERT_EQUAL(count(b.p, "class=\"failed\""), 51);
		p = strstr(b.p, "class=\"curve\"");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT(count(p, ",") >= 400 && count(p, ",") <= 460);
		aieth__sb_free(&b);
	}
	aieth_report_free(r);
}

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/aieth_visual.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	if (mkdir(at("camp"), 0755))
		abort();
}

static void test_cleanup(void)
{
	static const char *const files[] = {"r.html", "e.html", "e.json", "f.html",
					    "f.json", "t.json", "l.json"};
	size_t i;
	for (i = 0; i < sizeof files / sizeof *files; i++)
		CU_ASSERT_EQUAL(unlink(at(files[i])), 0);
	rm_tree(at("camp"));
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

static void test_setup(void) { setup(); }

/* The timeline's "(delay D)" is the described delay only (not an RX's
 * first beat, not a TX's cycle 1); the throughput bar is red for a missed
 * threshold, not for a data mismatch. */
static void test_svg_labels(void)
{
	struct json_object *t = json_tokener_parse(
		"{\"name\": \"l\", \"pl_clock_MHz\": 312.5, \"transactions\": [{\"total_cycles\": 2000,"
		" \"channels\": ["
		"  {\"plio\": \"TX\", \"direction\": \"to_aie\", \"finished\": true, \"delay_cycles\": 0,"
		"   \"first_cycle\": 1, \"last_cycle\": 1025, \"throughput_MBps\": 5000,"
		"   \"theoretical_MBps\": 5000, \"verdict\": \"pass\"},"
		"  {\"plio\": \"RXDATA\", \"direction\": \"from_aie\", \"finished\": true, \"delay_cycles\": 0,"
		"   \"first_cycle\": 17, \"last_cycle\": 1041, \"throughput_MBps\": 5000,"
		"   \"theoretical_MBps\": 5000, \"thresholds\": [{\"passed\": true}], \"verdict\": \"fail\"},"
		"  {\"plio\": \"RXSLOW\", \"direction\": \"from_aie\", \"finished\": true, \"delay_cycles\": 300,"
		"   \"first_cycle\": 317, \"last_cycle\": 1900, \"throughput_MBps\": 3000,"
		"   \"theoretical_MBps\": 5000, \"thresholds\": [{\"passed\": false}], \"verdict\": \"fail\"}]}]}");
	struct json_object *tx;
	sbuf b = SB_INIT(SB_DOC_MAX);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	tx = json_object_array_get_idx(aieth__rj_get(t, "transactions"), 0);
	aieth__rv_svg_timeline(&b, t, tx, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.p);
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, ">1..1025</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, ">17..1041</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, ">317..1900 (delay 300)</text>"));
	CU_ASSERT_PTR_NULL(strstr(b.p, "(delay 1)"));
	CU_ASSERT_PTR_NULL(strstr(b.p, "(delay 17)"));
	free(b.p);
	b = (sbuf)SB_INIT(SB_DOC_MAX);
	aieth__rv_svg_throughput(&b, t, tx, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.p);
	/* RXDATA: data failed, throughput kept its threshold: a green bar */
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "fill=\"#2e7d32\"><title>RXDATA: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "fill=\"#c62828\"><title>RXSLOW: "));
	/* the verdict stays in the words beside the bar */
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "5000.0 / 5000 MB/s (0.0%) fail</text>"));
	free(b.p);
	json_object_put(t);
}

/* A hang before the first beat (0 cycles): the axis has both ends only,
 * not five ticks rounded to "0 0 0 1 1". */
static void test_timeline_short(void)
{
	struct json_object *t = json_tokener_parse(
		"{\"name\": \"h\", \"pl_clock_MHz\": 312.5, \"transactions\": [{\"total_cycles\": 0,"
		" \"channels\": [{\"plio\": \"P\", \"direction\": \"to_aie\", \"finished\": false,"
		" \"delay_cycles\": 0, \"first_cycle\": null, \"stalled_since_cycle\": 0}]}]}");
	sbuf b = SB_INIT(SB_DOC_MAX);
	const char *p;
	int ticks = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	aieth__rv_svg_timeline(&b, t,
			       json_object_array_get_idx(aieth__rj_get(t, "transactions"), 0), 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.p);
	for (p = b.p; (p = strstr(p, "text-anchor=\"middle\" font-size=\"11\">")); p++)
		ticks++;
	CU_ASSERT_EQUAL(ticks, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "font-size=\"11\">0</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "font-size=\"11\">1</text>"));
	CU_ASSERT_PTR_NULL(strstr(b.p, "font-size=\"11\">2</text>"));
	free(b.p);
	json_object_put(t);
}

TU_MAIN("report_visual", {"setup", test_setup}, {"escape", test_escape},
	{"html of a known report", test_html_known}, {"empty and failed tests", test_html_empty},
	{"trace event math", test_trace_math},
	{"timeline of a hang at cycle 0", test_timeline_short},
	{"svg: delay labels, bar colours", test_svg_labels},
	{"trace.json: long names whole", test_trace_long_names}, {"svg files", test_svg_files},
	{"spread: MAD / median", test_spread},
	{"repeats: distribution and median +- spread", test_repeat_distribution},
	{"sweeps: curves, knees, thresholds, files", test_sweep_curves},
	{"sweeps: hostile names and types", test_sweep_hostile},
	{"sweeps: a 100,000-point sweep is bounded", test_sweep_bounds}, {"cleanup", test_cleanup})
