/* SPDX-License-Identifier: MIT */
/*
 * report_html.c - report.html: one self-contained page a person reads
 * (inline CSS and SVG; no script, no network: its Content-Security-Policy
 * forbids both). A summary of the run, per test and per transaction the
 * figures of the text table, and the two charts of each transaction.
 * Every string from the report is escaped (names and paths are user input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "report/report_why.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/sbuf.h"

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#212121;background:#fafafa}"
	"h1{font-size:1.5em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #cfd8dc}"
	"h3{font-size:1.05em}table{border-collapse:collapse;margin:.4em 0}"
	"td,th{border:1px solid #cfd8dc;padding:2px 8px;text-align:right;font-size:.9em}"
	"th{background:#eceff1}td.l,th.l{text-align:left}table.kv td{text-align:left}"
	".b{display:inline-block;padding:1px 8px;border-radius:4px;color:#fff;font-size:.85em}"
	".pass{background:#2e7d32}.fail{background:#c62828}.timeout{background:#ef6c00}"
	".error{background:#6d4c41}.skip{background:#757575}.interrupted{background:#6a1b9a}"
	".err{border-left:4px solid #c62828;background:#ffebee;padding:.4em .8em}"
	".note{color:#546e7a}.charts svg{display:block;margin:.6em 0;max-width:100%;height:auto;"
	"border:1px solid #cfd8dc}td.bad{color:#c62828;font-weight:bold}"
	"td code{overflow-wrap:anywhere}table.aie td,table.aie th{text-align:left}"
	"table.aie tr.stuck td{background:#ffcdd2}";

static void kv(sbuf *b, const char *key, const char *val)
{
	aieth__sb_printf(b, "<tr><th class=\"l\">%s</th><td>", key);
	aieth__rv_esc(b, val);
	sb_lit(b, "</td></tr>\n");
}

static void kv_num(sbuf *b, const char *key, const char *fmt, double v)
{
	char tmp[64];
	snprintf(tmp, sizeof tmp, fmt, v);
	kv(b, key, tmp);
}

static void run_summary(sbuf *b, const aieth_report *r)
{
	struct json_object *sum = aieth__rj_get(r->root, "summary"),
			   *argv = aieth__rv_arr(r->run, "argv");
	static const char *const counts[] = {"tests",   "passed",   "failed",     "errors",
					     "skipped", "timeouts", "interrupted"};
	size_t i;
	sb_lit(b, "<h1>run_test report ");
	aieth__rv_badge(b, aieth__rj_gets(r->run, "status"));
	sb_lit(b, "</h1>\n<table class=\"kv\">\n");
	kv(b, "run", aieth__rj_gets(r->run, "id"));
	kv(b, "started", aieth__rj_gets(r->run, "started_at"));
	kv_num(b, "duration", "%.3f s", aieth__rj_getd(r->run, "duration_s"));
	kv_num(b, "exit code", "%.0f", (double)aieth__rj_geti(r->run, "exit_code"));
	kv(b, "board", aieth__rj_gets(r->env, "board"));
	kv(b, "backend", aieth__rj_gets(r->env, "backend"));
	if (aieth__rj_getd(r->env, "pl_clock_MHz") > 0)
		kv_num(b, "PL clock", "%.3f MHz", aieth__rj_getd(r->env, "pl_clock_MHz"));
	kv(b, "host", aieth__rj_gets(r->env, "hostname"));
	{
		char ver[160];
		snprintf(ver, sizeof ver, "%s %s", aieth__rj_gets(r->run, "tool"),
			 aieth__rj_gets(r->run, "tool_version"));
		kv(b, "tool", ver);
	}
	sb_lit(b, "<tr><th class=\"l\">command</th><td><code>");
	for (i = 0; argv && i < json_object_array_length(argv) && i < 256; i++) {
		if (i)
			sb_lit(b, " ");
		aieth__rv_esc(b, json_object_get_string(json_object_array_get_idx(argv, i)));
	}
	sb_lit(b, "</code></td></tr>\n</table>\n<table><tr>");
	for (i = 0; i < sizeof counts / sizeof *counts; i++)
		aieth__sb_printf(b, "<th>%s</th>", counts[i]);
	sb_lit(b, "</tr><tr>");
	for (i = 0; i < sizeof counts / sizeof *counts; i++)
		aieth__sb_printf(b, "<td>%lld</td>", (long long)aieth__rj_geti(sum, counts[i]));
	sb_lit(b, "</tr></table>\n");
}

/* The tests that get a place on the page: the first cap, and up to cap
 * more that did not pass (a 100,000-point sweep gives a bounded page with
 * its failures on it). NULL: out of memory. */
static unsigned char *pick(const aieth_report *r, size_t cap)
{
	size_t i, n = json_object_array_length(r->tests), extra = 0;
	unsigned char *p = calloc(n ? n : 1, 1);
	for (i = 0; p && i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		if (i < cap)
			p[i] = 1;
		else if (strcmp(aieth__rj_gets(t, "status"), "pass") && extra < cap) {
			p[i] = 1;
			extra++;
		}
	}
	return p;
}

/* "N more tests (M of them not passing) ...": what a bound left out. */
static void left_out(sbuf *b, const aieth_report *r, const unsigned char *on, const char *what)
{
	size_t i, n = json_object_array_length(r->tests), more = 0, bad = 0;
	for (i = 0; i < n; i++)
		if (!on[i]) {
			more++;
			bad += strcmp(aieth__rj_gets(json_object_array_get_idx(r->tests, i),
						     "status"),
				      "pass") != 0;
		}
	if (more)
		aieth__sb_printf(b,
				 "<p class=\"note\">%zu more tests (%zu of them not passing) %s: "
				 "report.json has every test</p>\n",
				 more, bad, what);
}

static void test_index(sbuf *b, const aieth_report *r, const unsigned char *listed,
		       const unsigned char *shown)
{
	size_t i, n = json_object_array_length(r->tests);
	sb_lit(b, "<h2>Tests</h2>\n<table><tr><th class=\"l\">test</th><th>status</th><th>exit</th>"
		  "<th class=\"l\">board</th><th class=\"l\">backend</th><th>transactions</th>"
		  "<th>duration (s)</th></tr>\n");
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		if (!listed[i])
			continue;
		aieth__rv_test_row(b, NULL, t, i, shown[i]);
		aieth__sb_printf(b, "<td>%lld</td><td class=\"l\">",
				 (long long)aieth__rj_geti(t, "exit_code"));
		aieth__rv_esc(b, aieth__rj_gets(t, "board"));
		sb_lit(b, "</td><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(t, "backend"));
		aieth__sb_printf(b, "</td><td>%zu</td><td>%.3f</td></tr>\n",
				 txns ? json_object_array_length(txns) : 0,
				 aieth__rj_getd(t, "duration_s"));
	}
	sb_lit(b, "</table>\n");
	left_out(b, r, listed, "not listed");
}

static void data_cell(sbuf *b, struct json_object *ch)
{
	struct json_object *in = aieth__rj_get(ch, "integrity");
	if (!in || !json_object_get_boolean(aieth__rj_get(in, "checked")))
		sb_lit(b, "-");
	else if (aieth__rj_geti(in, "mismatches") == 0)
		aieth__sb_printf(b, "ok (%lld)", (long long)aieth__rj_geti(in, "elements"));
	else
		aieth__sb_printf(
			b, "%lld BAD @%lld", (long long)aieth__rj_geti(in, "mismatches"),
			(long long)aieth__rj_geti(aieth__rj_get(in, "first_mismatch"), "offset"));
}

/* After a failed check's badge: the limit and the measured value. */
static void why_text(sbuf *b, struct json_object *o, int (*why)(sbuf *, struct json_object *))
{
	sbuf w = SB_INIT(SB_LINE_MAX);
	if (why(&w, o) && w.p && !w.oom) {
		sb_lit(b, " ");
		aieth__rv_esc(b, w.p);
	}
	aieth__sb_free(&w);
}

/* A figure's cell: with repeats the median and its spread ("5000.0
 * ±0.2 %", the text table's words), min, max, mean and stddev on hover;
 * else the one run's value. */
static void stat_cell(sbuf *b, struct json_object *o, const char *key, int prec)
{
	struct json_object *s = aieth__rv_stat(o, key);
	double mn = 0, mx = 0, mean = 0, sd = 0;
	if (!s) {
		aieth__sb_printf(b, "%.*f", prec, aieth__rj_getd(o, key));
		return;
	}
	aieth__rv_num(s, "min", &mn);
	aieth__rv_num(s, "max", &mx);
	aieth__rv_num(s, "mean", &mean);
	aieth__rv_num(s, "stddev", &sd);
	aieth__sb_printf(
		b,
		"<span title=\"median of %zu runs; min %.*f, max %.*f, mean %.*f, stddev %.*f; "
		"\xc2\xb1: MAD / median\">",
		aieth__rv_len(aieth__rv_arr(s, "runs")), prec, mn, prec, mx, prec, mean, prec, sd);
	aieth__rv_pm(b, s, prec);
	sb_lit(b, "</span>");
}

/* The channel table of a transaction, as run_test prints it. */
static void channel_rows(sbuf *b, struct json_object *tx, struct json_object *chs, size_t *rows)
{
	size_t k;
	sb_lit(b, "<table><tr><th class=\"l\">PLIO</th><th>dir</th><th>shim</th><th>bytes</th>"
		  "<th>first</th><th>last</th><th>cycles</th><th>MB/s</th><th>%peak</th>"
		  "<th class=\"l\">data</th><th class=\"l\">verdict</th></tr>\n");
	for (k = 0; chs && k < json_object_array_length(chs); k++, (*rows)++) {
		struct json_object *ch = json_object_array_get_idx(chs, k);
		struct json_object *pl = aieth__rj_get(ch, "placement");
		if (*rows >= RV_MAX_ROWS) {
			char where[80];
			snprintf(where, sizeof where,
				 "report.json (this page shows %d rows at most)", RV_MAX_ROWS);
			aieth__rv_more_row(b, 11, json_object_array_length(chs) - k, "channels",
					   where);
			*rows += json_object_array_length(chs) - k;
			break;
		}
		sb_lit(b, "<tr><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(ch, "plio"));
		aieth__sb_printf(b, "</td><td>%s</td><td>%lld/%lld</td>",
				 strcmp(aieth__rj_gets(ch, "direction"), "to_aie") ? "from" : "to",
				 (long long)aieth__rj_geti(pl, "shim_column"),
				 (long long)aieth__rj_geti(pl, "shim_channel"));
		if (json_object_get_boolean(aieth__rj_get(ch, "finished"))) {
			aieth__sb_printf(b, "<td>%lld</td><td>%lld</td><td>%lld</td><td>",
					 (long long)aieth__rj_geti(ch, "bytes_moved"),
					 (long long)aieth__rj_geti(ch, "first_cycle"),
					 (long long)aieth__rj_geti(ch, "last_cycle"));
			stat_cell(b, ch, "cycles", 0);
			sb_lit(b, "</td><td>");
			stat_cell(b, ch, "throughput_MBps", 1);
			aieth__sb_printf(b, "</td><td>%.1f</td>",
					 aieth__rj_getd(ch, "utilisation_pct"));
		} else {
			sbuf u = SB_INIT(SB_LINE_MAX);
			aieth__rw_unfinished(&u, tx, ch);
			aieth__sb_printf(b, "<td>%lld/%lld</td><td colspan=\"5\" class=\"l\">",
					 (long long)aieth__rj_geti(ch, "bytes_moved"),
					 (long long)aieth__rj_geti(ch, "bytes_expected"));
			aieth__rv_esc(b, u.p && !u.oom ? u.p : "did not finish");
			sb_lit(b, "</td>");
			aieth__sb_free(&u);
		}
		sb_lit(b, "<td class=\"l\">");
		data_cell(b, ch);
		sb_lit(b, "</td><td class=\"l\">");
		aieth__rv_badge(b, aieth__rj_gets(ch, "verdict"));
		why_text(b, ch, aieth__rw_channel_why);
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

/* Runs of a repeat that failed, each named by its reason ("transactions[0]
 * run 3 of 10: PLIO_...: ..."). A test run once has its error box and its
 * channels' verdicts: the same words again would be noise. */
static void runs_failed(sbuf *b, struct json_object *t, struct json_object *rf)
{
	struct json_object *rp = aieth__rj_get(t, "repeat");
	size_t k;
	if (rp && aieth__rj_geti(rp, "runs") <= 1 && aieth__rj_geti(rp, "warmup") == 0)
		return;
	for (k = 0; k < aieth__rv_len(rf) && k < 64; k++) {
		struct json_object *f = json_object_array_get_idx(rf, k);
		sb_lit(b, "<p class=\"err\">failed: ");
		aieth__rv_esc(b, aieth__rj_gets(f, "reason"));
		sb_lit(b, "</p>\n");
	}
	if (aieth__rv_len(rf) > 64)
		aieth__sb_printf(b, "<p class=\"note\">%zu more failed runs: see report.json</p>\n",
				 aieth__rv_len(rf) - 64);
}

static void transaction(sbuf *b, struct json_object *t, struct json_object *tx, size_t *rows,
			size_t *charts)
{
	struct json_object *chs = aieth__rj_get(tx, "channels"),
			   *lats = aieth__rj_get(tx, "latencies");
	double clk = aieth__rv_clock_mhz(t);
	size_t k;
	aieth__sb_printf(b, "<h3>transaction %lld &ldquo;", (long long)aieth__rj_geti(tx, "index"));
	aieth__rv_esc(b, aieth__rj_gets(tx, "name"));
	sb_lit(b, "&rdquo; (");
	aieth__rv_esc(b, aieth__rj_gets(tx, "mode"));
	sb_lit(b, ") ");
	aieth__rv_badge(b, aieth__rj_gets(tx, "status"));
	if (!strcmp(aieth__rj_gets(tx, "status"), "done"))
		aieth__sb_printf(b, "%s",
				 json_object_get_boolean(aieth__rj_get(tx, "valid"))
					 ? " valid"
					 : " NOT VALID");
	/* 0: a board that does not count them (xrt, docs/on-board.md); no
	 * transaction takes 0 cycles */
	if (!aieth__rj_geti(tx, "total_cycles"))
		sb_lit(b, ", board cycles not known");
	else
		aieth__sb_printf(b, ", %lld board cycles",
				 (long long)aieth__rj_geti(tx, "total_cycles"));
	if (clk > 0 && aieth__rj_geti(tx, "total_cycles"))
		aieth__sb_printf(b, " (%.3f &micro;s)",
				 (double)aieth__rj_geti(tx, "total_cycles") / clk);
	if (aieth__rv_stat(tx, "total_cycles")) {
		sb_lit(b, "; over the runs ");
		aieth__rv_pm(b, aieth__rv_stat(tx, "total_cycles"), 0);
		aieth__sb_printf(b, ", the figures below from run %lld (the median)",
				 (long long)aieth__rj_geti(tx, "median_run"));
	}
	sb_lit(b, "</h3>\n");
	runs_failed(b, t, aieth__rv_arr(tx, "runs_failed"));
	if (aieth__rj_gets(tx, "message")[0]) {
		sb_lit(b, "<p class=\"note\">note: ");
		aieth__rv_esc(b, aieth__rj_gets(tx, "message"));
		sb_lit(b, "</p>\n");
	}
	channel_rows(b, tx, chs, rows);
	if (lats && json_object_array_length(lats)) {
		sb_lit(b, "<table><tr><th class=\"l\">latency from</th><th class=\"l\">to</th>"
			  "<th>cycles</th><th>max</th><th class=\"l\">verdict</th></tr>\n");
		for (k = 0; k < json_object_array_length(lats); k++) {
			struct json_object *l = json_object_array_get_idx(lats, k);
			sb_lit(b, "<tr><td class=\"l\">");
			aieth__rv_esc(b, aieth__rj_gets(l, "from"));
			sb_lit(b, "</td><td class=\"l\">");
			aieth__rv_esc(b, aieth__rj_gets(l, "to"));
			sb_lit(b, "</td><td>");
			{
				/* not measured: said so, never a 0-cycle measurement */
				sbuf u = SB_INIT(SB_LINE_MAX);
				int un = aieth__rw_latency_unmeasured(&u, tx, l);
				int done = !strcmp(aieth__rj_gets(tx, "status"), "done");
				if (un)
					aieth__rv_esc(b, u.p && !u.oom ? u.p : "not measured");
				else
					stat_cell(b, l, "cycles", 0);
				aieth__sb_printf(b, "</td><td>%lld</td><td>",
						 (long long)aieth__rj_geti(l, "max_cycles"));
				if (un && !done)
					sb_lit(b, "not checked");
				else
					aieth__rv_badge(b, json_object_get_boolean(
								   aieth__rj_get(l, "passed"))
								   ? "pass"
								   : "fail");
				if (done)
					why_text(b, l, aieth__rw_latency_why);
				aieth__sb_free(&u);
			}
			sb_lit(b, "</td></tr>\n");
		}
		sb_lit(b, "</table>\n");
	}
	if (*charts < RV_MAX_CHARTS) {
		sb_lit(b, "<div class=\"charts\">\n");
		aieth__rv_svg_throughput(b, t, tx, 0);
		if (aieth__rv_has_dist(tx))
			aieth__rv_svg_distribution(b, t, tx, 0);
		aieth__rv_svg_timeline(b, t, tx, 0);
		sb_lit(b, "</div>\n");
	} else if (*charts == RV_MAX_CHARTS) {
		aieth__sb_printf(b,
				 "<p class=\"note\">no more charts: this page draws the first %d "
				 "transactions of the run</p>\n",
				 RV_MAX_CHARTS);
	}
	(*charts)++;
}

/* A repeated test and a sweep's point say so. */
static void campaign_rows(sbuf *b, struct json_object *t)
{
	struct json_object *rep = aieth__rj_get(t, "repeat"), *sw = aieth__rj_get(t, "sweep");
	double runs = 1, warm = 0, pt = 0, pts = 0;
	aieth__rv_num(rep, "runs", &runs);
	aieth__rv_num(rep, "warmup", &warm);
	if (runs > 1 || warm > 0) {
		char tmp[160];
		snprintf(tmp, sizeof tmp,
			 "%.0f measured runs after %.0f warm-up; thresholds on the ", runs, warm);
		aieth__sb_printf(b, "<tr><th class=\"l\">repeat</th><td>%s", tmp);
		aieth__rv_esc(b, aieth__rj_gets(rep, "statistic")[0]
					 ? aieth__rj_gets(rep, "statistic")
					 : "median");
		sb_lit(b, "</td></tr>\n");
	}
	if (sw && json_object_is_type(sw, json_type_object)) {
		aieth__rv_num(sw, "point", &pt);
		aieth__rv_num(sw, "points", &pts);
		aieth__sb_printf(b, "<tr><th class=\"l\">sweep</th><td>point %.0f of %.0f of ", pt,
				 pts);
		aieth__rv_esc(b, aieth__rj_gets(sw, "name"));
		sb_lit(b, "</td></tr>\n");
	}
}

/* A run_test validate test: its number, verdict, reason and figures. */
static void validate_rows(sbuf *b, struct json_object *t)
{
	struct json_object *v = aieth__rj_get(t, "validate"), *f;
	char num[64];
	if (!v)
		return;
	snprintf(num, sizeof num, "test %lld of level %lld", (long long)aieth__rj_geti(v, "number"),
		 (long long)aieth__rj_geti(v, "level"));
	kv(b, "validate", num);
	kv(b, "verdict", aieth__rj_gets(v, "verdict"));
	if (aieth__rj_gets(v, "reason")[0])
		kv(b, "reason", aieth__rj_gets(v, "reason"));
	f = aieth__rj_get(v, "figures");
	if (!f || !json_object_is_type(f, json_type_object))
		return;
	/* one row per figure: a scalar as text, an array or object as its
	 * JSON, each cut at 2000 characters */
	json_object_object_foreach(f, key, val)
	{
		/* the board is the test's row above when it is the same */
		if (!strcmp(key, "board") && json_object_is_type(val, json_type_string) &&
		    !strcmp(json_object_get_string(val), aieth__rj_gets(t, "board")))
			continue;
		sb_lit(b, "<tr><th class=\"l\">");
		aieth__rv_esc(b, key);
		sb_lit(b, "</th><td>");
		if (json_object_is_type(val, json_type_string)) {
			aieth__rv_esc_cut(b, json_object_get_string(val), 2000);
		} else {
			sb_lit(b, "<code>");
			aieth__rv_esc_cut(b,
					  json_object_to_json_string_ext(
						  val, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE),
					  2000);
			sb_lit(b, "</code>");
		}
		sb_lit(b, "</td></tr>\n");
	}
}

/* A hang's cause (verdict_detail) in the failed test's box, as the text
 * report says it: a farm resets a board for a stall only. */
static void verdict_detail(sbuf *b, struct json_object *t)
{
	const char *v = aieth__rj_gets(t, "verdict_detail");
	if (!strcmp(v, "data_size_mismatch"))
		sb_lit(b, "<br><b>verdict: data size mismatch</b> (an input mistake, not a stall: "
			  "fix the sizes; the board needs no reset)");
	else if (!strcmp(v, "stall"))
		sb_lit(b, "<br><b>verdict: stall</b> (the graph stopped before its iterations "
			  "were done: a real hang; on a board, reset it)");
}

/* The emulated board's graph model ports (aie_state.ports, no tiles): a
 * table, the stuck ones marked. Bounded: 128 rows. */
static void aie_ports_table(sbuf *b, struct json_object *ports)
{
	size_t i, n = json_object_array_length(ports);
	sb_lit(b, "<table class=\"aie\"><tr><th>graph</th><th>kernel</th><th>port</th>"
		  "<th>PLIO</th><th>dir</th><th>state</th><th>bytes</th><th>iteration</th></tr>\n");
	for (i = 0; i < n && i < 128; i++) {
		struct json_object *p = json_object_array_get_idx(ports, i), *st, *its;
		int stuck = (st = aieth__rj_get(p, "stuck")) && json_object_get_boolean(st);
		aieth__sb_printf(b, "<tr%s><td>", stuck ? " class=\"stuck\"" : "");
		aieth__rv_esc(b, aieth__rj_gets(p, "graph"));
		sb_lit(b, "</td><td>");
		aieth__rv_esc(b, aieth__rj_gets(p, "kernel"));
		aieth__sb_printf(b, "</td><td>%s %lld</td><td>",
				 !strcmp(aieth__rj_gets(p, "direction"), "to_aie") ? "input"
										   : "output",
				 (long long)aieth__rj_geti(p, "port"));
		aieth__rv_esc(b, aieth__rj_gets(p, "plio"));
		aieth__sb_printf(b, "</td><td>%s</td><td>",
				 !strcmp(aieth__rj_gets(p, "direction"), "to_aie") ? "to" : "from");
		aieth__rv_esc(b, aieth__rj_gets(p, "state"));
		aieth__sb_printf(b, "</td><td>%lld of %lld</td><td>%lld",
				 (long long)aieth__rj_geti(p, "bytes"),
				 (long long)aieth__rj_geti(p, "expected_bytes"),
				 (long long)aieth__rj_geti(p, "iteration"));
		if ((its = aieth__rj_get(p, "iterations")) &&
		    !json_object_is_type(its, json_type_null))
			aieth__sb_printf(b, " of %lld", (long long)json_object_get_int64(its));
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

/* A hang's AI Engine array state (aie_state): the tiles read drawn as a
 * grid (row 0, the shims, at the bottom), stuck ones marked, or, from the
 * emulated board (no tiles), its graph model ports as a table; then what
 * is stuck in words. Bounded: coordinates outside 0..99 and tiles past
 * 512 are not drawn. */
static void aie_state_section(sbuf *b, struct json_object *t)
{
	struct json_object *a = aieth__rj_get(t, "aie_state"), *tiles, *words, *ports;
	size_t i, n;
	int minc = 100, maxc = -1, maxr = -1, cell = 22;
	if (!a || !(tiles = aieth__rj_get(a, "tiles")) ||
	    !json_object_is_type(tiles, json_type_array))
		return;
	ports = aieth__rj_get(a, "ports");
	if (!json_object_array_length(tiles) && ports &&
	    json_object_is_type(ports, json_type_array) && json_object_array_length(ports)) {
		sb_lit(b, "<h3>AI Engine graph models at the hang (");
		aieth__rv_esc(b, aieth__rj_gets(a, "source"));
		sb_lit(b, ")</h3>\n");
		aie_ports_table(b, ports);
		goto words;
	}
	n = json_object_array_length(tiles);
	if (n > 512)
		n = 512;
	for (i = 0; i < n; i++) {
		struct json_object *ti = json_object_array_get_idx(tiles, i);
		int c = (int)aieth__rj_geti(ti, "col"), r = (int)aieth__rj_geti(ti, "row");
		if (c < 0 || c > 99 || r < 0 || r > 99)
			continue;
		minc = c < minc ? c : minc;
		maxc = c > maxc ? c : maxc;
		maxr = r > maxr ? r : maxr;
	}
	sb_lit(b, "<h3>AI Engine array at the hang</h3>\n");
	if (maxc >= 0) {
		/* a margin for the row numbers (left) and the columns (below):
		 * a tile is found by its (col,row) as the words name it */
		int lm = 26, bm = 16, w = lm + (maxc - minc + 1) * cell, h = (maxr + 1) * cell + bm;
		int c, r;
		aieth__sb_printf(
			b,
			"<svg class=\"aie\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
			"height=\"%d\" role=\"img\" aria-label=\"AI Engine tiles read, stuck "
			"ones in red\" font-size=\"10\" font-family=\"sans-serif\">\n",
			w, h);
		for (r = 0; r <= maxr; r++)
			aieth__sb_printf(b,
					 "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
					 "fill=\"#555\">%d</text>\n",
					 lm - 4, (maxr - r) * cell + cell / 2 + 4, r);
		for (c = minc; c <= maxc; c++)
			aieth__sb_printf(b,
					 "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
					 "fill=\"#555\">%d</text>\n",
					 lm + (c - minc) * cell + cell / 2, h - 3, c);
		for (i = 0; i < n; i++) {
			struct json_object *ti = json_object_array_get_idx(tiles, i), *st;
			const char *kind = aieth__rj_gets(ti, "kind");
			int stuck =
				(st = aieth__rj_get(ti, "stuck")) && json_object_get_boolean(st);
			c = (int)aieth__rj_geti(ti, "col"), r = (int)aieth__rj_geti(ti, "row");
			if (c < 0 || c > 99 || r < 0 || r > 99)
				continue;
			aieth__sb_printf(b,
					 "<g><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
					 "fill=\"%s\" stroke=\"#555\"/><text x=\"%d\" y=\"%d\" "
					 "text-anchor=\"middle\" fill=\"%s\">%c</text><title>",
					 lm + (c - minc) * cell + 1, (maxr - r) * cell + 1,
					 cell - 2, cell - 2, stuck ? "#d33" : "#ccc",
					 lm + (c - minc) * cell + cell / 2,
					 (maxr - r) * cell + cell / 2 + 4, stuck ? "#fff" : "#333",
					 !strcmp(kind, "shim")  ? 'S'
					 : !strcmp(kind, "mem") ? 'M'
								: 'C');
			aieth__rv_esc(b, kind);
			aieth__sb_printf(b, " (%d,%d)%s</title></g>\n", c, r,
					 stuck ? " stuck" : "");
		}
		sb_lit(b, "</svg>\n<p class=\"note\">columns below, rows at the left; C core, M "
			  "memory, S shim tile; red: stuck, grey: read and not stuck, blank: not "
			  "read</p>\n");
	}
words:
	words = aieth__rj_get(a, "summary");
	sb_lit(b, "<ul class=\"aie\">\n");
	for (i = 0; words && i < json_object_array_length(words) && i < 64; i++) {
		sb_lit(b, "<li>");
		aieth__rv_esc(b, json_object_get_string(json_object_array_get_idx(words, i)));
		sb_lit(b, "</li>\n");
	}
	words = aieth__rj_get(a, "notes");
	for (i = 0; words && i < json_object_array_length(words) && i < 32; i++) {
		sb_lit(b, "<li class=\"note\">note: ");
		aieth__rv_esc(b, json_object_get_string(json_object_array_get_idx(words, i)));
		sb_lit(b, "</li>\n");
	}
	sb_lit(b, "</ul>\n");
}

static void test_section(sbuf *b, struct json_object *t, size_t i, size_t *rows, size_t *charts)
{
	struct json_object *txns = aieth__rj_get(t, "transactions"),
			   *err = aieth__rj_get(t, "error");
	size_t j;
	aieth__sb_printf(b, "<section id=\"t%zu\">\n<h2>", i);
	aieth__rv_esc(b, aieth__rj_gets(t, "name"));
	sb_lit(b, " ");
	aieth__rv_badge(b, aieth__rj_gets(t, "status"));
	sb_lit(b, "</h2>\n<table class=\"kv\">\n");
	/* a validate test has no description or spec: no empty rows */
	if (aieth__rj_gets(t, "description")[0])
		kv(b, "description", aieth__rj_gets(t, "description"));
	if (aieth__rj_gets(t, "spec")[0])
		kv(b, "spec", aieth__rj_gets(t, "spec"));
	kv(b, "board", aieth__rj_gets(t, "board"));
	kv(b, "backend", aieth__rj_gets(t, "backend"));
	if (aieth__rv_clock_mhz(t) > 0)
		kv_num(b, "PL clock", "%.3f MHz", aieth__rv_clock_mhz(t));
	kv_num(b, "exit code", "%.0f", (double)aieth__rj_geti(t, "exit_code"));
	kv_num(b, "duration", "%.3f s", aieth__rj_getd(t, "duration_s"));
	campaign_rows(b, t);
	validate_rows(b, t);
	sb_lit(b, "</table>\n");
	if (err) {
		sb_lit(b, "<div class=\"err\"><b>error</b> (");
		aieth__rv_esc(b, aieth__rj_gets(err, "phase"));
		sb_lit(b, ", ");
		aieth__rv_esc(b, aieth__rj_gets(err, "code"));
		sb_lit(b, "): ");
		aieth__rv_esc(b, aieth__rj_gets(err, "message"));
		if (aieth__rj_gets(err, "hint")[0]) {
			sb_lit(b, "<br>hint: ");
			aieth__rv_esc(b, aieth__rj_gets(err, "hint"));
		}
		verdict_detail(b, t);
		sb_lit(b, "</div>\n");
	}
	aie_state_section(b, t);
	/* a validate test's figures say what it did */
	if ((!txns || !json_object_array_length(txns)) && !aieth__rj_get(t, "validate"))
		sb_lit(b, "<p class=\"note\">no transaction ran</p>\n");
	for (j = 0; txns && j < json_object_array_length(txns); j++)
		transaction(b, t, json_object_array_get_idx(txns, j), rows, charts);
	aieth__rv_html_sensors(b, t);
	sb_lit(b, "</section>\n");
}

static void num_cell(sbuf *b, struct json_object *v, const char *fmt)
{
	if (v && !json_object_is_type(v, json_type_null))
		aieth__sb_printf(b, fmt, json_object_get_double(v));
	else
		sb_lit(b, "-");
}

/* run_test --baseline: the table of what moved, as printed on stdout. */
static void baseline_section(sbuf *b, const aieth_report *r)
{
	struct json_object *bo = aieth__rj_get(r->root, "baseline"), *chs;
	size_t i, n;
	if (!bo)
		return;
	chs = aieth__rj_get(bo, "changes");
	n = chs ? json_object_array_length(chs) : 0;
	sb_lit(b, "<h2>Baseline ");
	aieth__rv_badge(b, !strcmp(aieth__rj_gets(bo, "status"), "pass") ? "pass" : "fail");
	sb_lit(b, "</h2>\n<p>");
	aieth__rv_esc(b, aieth__rj_gets(bo, "path"));
	sb_lit(b, " (run ");
	aieth__rv_esc(b, aieth__rj_gets(bo, "run_id"));
	sb_lit(b, "): ");
	if (!strcmp(aieth__rj_gets(bo, "status"), "refused")) {
		sb_lit(b, "refused: ");
		aieth__rv_esc(b, aieth__rj_gets(bo, "message"));
		sb_lit(b, "</p>\n");
		return;
	}
	aieth__sb_printf(b,
			 "%lld values compared, %lld regressions, %lld missing or unfinished, %lld "
			 "improvements (default tolerance %g%%)</p>\n",
			 (long long)aieth__rj_geti(bo, "compared"),
			 (long long)aieth__rj_geti(bo, "regressions"),
			 (long long)aieth__rj_geti(bo, "missing"),
			 (long long)aieth__rj_geti(bo, "improvements"),
			 aieth__rj_getd(bo, "max_regression_pct"));
	if (!n) {
		sb_lit(b, "<p class=\"note\">nothing moved</p>\n");
		return;
	}
	sb_lit(b, "<table><tr><th class=\"l\">metric</th><th>baseline</th><th>now</th>"
		  "<th>change</th><th>tolerance</th><th class=\"l\">verdict</th>"
		  "<th class=\"l\">where</th></tr>\n");
	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(chs, i);
		const char *v = aieth__rj_gets(c, "verdict");
		int bad = !strcmp(v, "regression") || !strcmp(v, "missing") ||
			  !strcmp(v, "unfinished");
		if (i >= RV_MAX_ROWS) {
			aieth__rv_more_row(b, 7, n - i, "rows", "baseline.changes in report.json");
			break;
		}
		sb_lit(b, "<tr><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(c, "metric"));
		sb_lit(b, "</td><td>");
		num_cell(b, aieth__rj_get(c, "baseline"), "%.2f");
		sb_lit(b, "</td><td>");
		num_cell(b, aieth__rj_get(c, "now"), "%.2f");
		sb_lit(b, "</td><td>");
		num_cell(b, aieth__rj_get(c, "change_pct"), "%+.2f%%");
		sb_lit(b, "</td><td>");
		num_cell(b, aieth__rj_get(c, "tolerance_pct"), "%g%%");
		aieth__sb_printf(b, "</td><td class=\"l\"><span class=\"b %s\">",
				 bad ? "fail" : "pass");
		aieth__rv_esc(b, v);
		sb_lit(b, "</span></td><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(c, "test"));
		if (aieth__rj_get(c, "transaction")) {
			sb_lit(b, ".");
			aieth__rv_esc(b, aieth__rj_gets(c, "transaction"));
		}
		if (aieth__rj_get(c, "plio")) {
			sb_lit(b, ".");
			aieth__rv_esc(b, aieth__rj_gets(c, "plio"));
		}
		if (aieth__rj_get(c, "from")) {
			sb_lit(b, ".");
			aieth__rv_esc(b, aieth__rj_gets(c, "from"));
			sb_lit(b, "-&gt;");
			aieth__rv_esc(b, aieth__rj_gets(c, "to"));
		}
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

int aieth_report_write_html(const aieth_report *r, const char *path)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, n, rows = 0, charts = 0;
	unsigned char *shown, *listed;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_html: NULL argument");
	n = json_object_array_length(r->tests);
	shown = pick(r, RV_MAX_SECTIONS);
	listed = pick(r, RV_MAX_INDEX);
	if (!shown || !listed) {
		free(shown);
		free(listed);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	sb_lit(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<title>run_test report: ");
	aieth__rv_esc(&b, aieth__rj_gets(r->run, "status"));
	aieth__sb_printf(&b, ", %zu test%s</title>\n<style>%s</style>\n</head>\n<body>\n", n,
			 n == 1 ? "" : "s", css);
	run_summary(&b, r);
	baseline_section(&b, r);
	/* a sweep's curves before the list of its (many) points */
	aieth__rv_html_sweeps(&b, r, shown);
	test_index(&b, r, listed, shown);
	for (i = 0; i < n; i++)
		if (shown[i])
			test_section(&b, json_object_array_get_idx(r->tests, i), i, &rows, &charts);
	left_out(&b, r, shown, "have no section on this page");
	free(shown);
	free(listed);
	sb_lit(&b, "<p class=\"note\">Every figure is in report.json "
		   "(docs/report-schema.md); the charts are also standalone SVG files.</p>\n"
		   "</body>\n</html>\n");
	return aieth__sb_write_file(&b, path);
}
