/* SPDX-License-Identifier: MIT */
/*
 * test_report_visual.c - the writers of the pages a person looks at:
 * escaping (HTML/SVG and JSON, invalid UTF-8), safe chart file names, a
 * failed test and a test with no transaction, and trace.json's event times
 * computed from cycles at the PL clock on a report whose figures are known.
 */
#include <json-c/json.h>
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
	rv_esc(&b, "<a href=\"x\">'&'</a>\x01\x7f\xff\xc3\xa9\xed\xa0\x80\xef\xbf\xbe\xc0\xaf");
	CU_ASSERT_STRING_EQUAL(b.p, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;???"
				    "\xc3\xa9????"
				    "????");
	free(b.p);
	sb_init(&b, SB_DOC_MAX);
	rv_json(&b, "q\"b\\\n\x02\xc3\xa9\xff");
	CU_ASSERT_STRING_EQUAL(b.p, "\"q\\\"b\\\\\\u000a\\u0002\xc3\xa9?\"");
	free(b.p);
	rv_file_part(part, sizeof part, "../<x> y.z/\xc3\xa9-long-name");
	CU_ASSERT_STRING_EQUAL(part, "_.__x__y.z___-l");
	rv_file_part(part, sizeof part, "");
	CU_ASSERT_STRING_EQUAL(part, "_");
	rv_file_part(part, sizeof part, ".hidden");
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
		if (!strcmp(rj_gets(e, "ph"), ph) && !strcmp(rj_gets(e, "name"), name) &&
		    rj_geti(e, "tid") == tid)
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
	evs = rj_get(root, "traceEvents");
	CU_ASSERT_PTR_NOT_NULL_FATAL(evs);
	e = event(evs, "M", "process_name", 0);
	CU_ASSERT_STRING_EQUAL(rj_gets(rj_get(e, "args"), "name"), "<b>t&1</b> / x</svg><script>");
	e = event(evs, "M", "thread_name", 1);
	CU_ASSERT_STRING_EQUAL(rj_gets(rj_get(e, "args"), "name"), "IN\"<>");
	/* the transaction: 2000 cycles at 250 MHz = 8 us */
	e = event(evs, "X", "x</svg><script>", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(rj_getd(e, "ts"), 0);
	NEAR(rj_getd(e, "dur"), 8.0);
	/* OUT: first 100 -> 0.4 us, 1000 cycles -> 4 us; its delay 0..0.4 */
	e = event(evs, "X", "OUT", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(rj_getd(e, "ts"), 0.4);
	NEAR(rj_getd(e, "dur"), 4.0);
	CU_ASSERT_EQUAL(rj_geti(e, "pid"), 1);
	e = event(evs, "X", "delay", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(rj_getd(e, "dur"), 0.4);
	/* the latency IN -> OUT on OUT's track: 0..0.4 us */
	e = event(evs, "X", "latency from IN\"<>", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(rj_getd(e, "ts"), 0);
	NEAR(rj_getd(e, "dur"), 0.4);
	CU_ASSERT_FALSE(json_object_get_boolean(rj_get(rj_get(e, "args"), "passed")));
	/* STUCK: from its delay (20 -> 0.08 us) to the stall (420 -> 1.68 us) */
	e = event(evs, "X", "STUCK", 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	NEAR(rj_getd(e, "ts"), 0.08);
	NEAR(rj_getd(e, "dur"), 1.6);
	CU_ASSERT_EQUAL(rj_geti(rj_get(e, "args"), "stalled_since_cycle"), 420);
	json_object_put(root);
	free(txt);
	aieth_report_free(r);
}

/* Names of any length that fits the document go into trace.json whole (a
 * 100000-byte test name was "out of memory", issue 30, 8). */
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
	tx = json_object_array_get_idx(rj_get(t, "transactions"), 0);
	ch = json_object_array_get_idx(rj_get(tx, "channels"), 0);
	json_object_object_add(t, "name", json_object_new_string(a));
	json_object_object_add(tx, "name", json_object_new_string(b));
	json_object_object_add(ch, "plio", json_object_new_string(a));
	json_object_object_add(json_object_array_get_idx(rj_get(tx, "latencies"), 0), "from",
			       json_object_new_string(a));
	CU_ASSERT_EQUAL(aieth_report_write_trace(r, at("l.json")), AIETH_OK);
	txt = slurp("l.json");
	root = json_tokener_parse(txt);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	evs = rj_get(root, "traceEvents");
	e = event(evs, "M", "process_name", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(rj_gets(rj_get(e, "args"), "name"), want);
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

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/aieth_visual.XXXXXX");
	if (!mkdtemp(dir))
		abort();
}

static void test_cleanup(void)
{
	static const char *const files[] = {"r.html", "e.html", "e.json", "f.html",
					    "f.json", "t.json", "l.json"};
	size_t i;
	for (i = 0; i < sizeof files / sizeof *files; i++)
		CU_ASSERT_EQUAL(unlink(at(files[i])), 0);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

static void test_setup(void) { setup(); }

TU_MAIN("report_visual", {"setup", test_setup}, {"escape", test_escape},
	{"html of a known report", test_html_known}, {"empty and failed tests", test_html_empty},
	{"trace event math", test_trace_math},
	{"trace.json: long names whole", test_trace_long_names}, {"svg files", test_svg_files},
	{"cleanup", test_cleanup})
