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
	"border:1px solid #cfd8dc}";

/* A class for a status word (the report's words only; anything else is
 * "error"): the page never puts a report string in an attribute raw. */
static const char *st_class(const char *s)
{
	static const char *const known[] = {"pass", "fail", "timeout", "skip", "interrupted"};
	size_t i;
	for (i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(s, known[i]))
			return known[i];
	if (!strcmp(s, "done"))
		return "pass";
	return "error";
}

static void badge(sbuf *b, const char *status)
{
	sb_printf(b, "<span class=\"b %s\">", st_class(status));
	rv_esc(b, status);
	sb_lit(b, "</span>");
}

static void kv(sbuf *b, const char *key, const char *val)
{
	sb_printf(b, "<tr><th class=\"l\">%s</th><td>", key);
	rv_esc(b, val);
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
	struct json_object *sum = rj_get(r->root, "summary"), *argv = rj_get(r->run, "argv");
	static const char *const counts[] = {"tests",   "passed",   "failed",     "errors",
					     "skipped", "timeouts", "interrupted"};
	size_t i;
	sb_lit(b, "<h1>run_test report ");
	badge(b, rj_gets(r->run, "status"));
	sb_lit(b, "</h1>\n<table class=\"kv\">\n");
	kv(b, "run", rj_gets(r->run, "id"));
	kv(b, "started", rj_gets(r->run, "started_at"));
	kv_num(b, "duration", "%.3f s", rj_getd(r->run, "duration_s"));
	kv_num(b, "exit code", "%.0f", (double)rj_geti(r->run, "exit_code"));
	kv(b, "board", rj_gets(r->env, "board"));
	kv(b, "backend", rj_gets(r->env, "backend"));
	if (rj_getd(r->env, "pl_clock_MHz") > 0)
		kv_num(b, "PL clock", "%.3f MHz", rj_getd(r->env, "pl_clock_MHz"));
	kv(b, "host", rj_gets(r->env, "hostname"));
	{
		char ver[160];
		snprintf(ver, sizeof ver, "%s %s", rj_gets(r->run, "tool"),
			 rj_gets(r->run, "tool_version"));
		kv(b, "tool", ver);
	}
	sb_lit(b, "<tr><th class=\"l\">command</th><td><code>");
	for (i = 0; argv && i < json_object_array_length(argv) && i < 256; i++) {
		if (i)
			sb_lit(b, " ");
		rv_esc(b, json_object_get_string(json_object_array_get_idx(argv, i)));
	}
	sb_lit(b, "</code></td></tr>\n</table>\n<table><tr>");
	for (i = 0; i < sizeof counts / sizeof *counts; i++)
		sb_printf(b, "<th>%s</th>", counts[i]);
	sb_lit(b, "</tr><tr>");
	for (i = 0; i < sizeof counts / sizeof *counts; i++)
		sb_printf(b, "<td>%lld</td>", (long long)rj_geti(sum, counts[i]));
	sb_lit(b, "</tr></table>\n");
}

static void test_index(sbuf *b, const aieth_report *r)
{
	size_t i, n = json_object_array_length(r->tests);
	sb_lit(b, "<h2>Tests</h2>\n<table><tr><th class=\"l\">test</th><th>status</th><th>exit</th>"
		  "<th class=\"l\">board</th><th class=\"l\">backend</th><th>transactions</th>"
		  "<th>duration (s)</th></tr>\n");
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = rj_get(t, "transactions");
		sb_printf(b, "<tr><td class=\"l\"><a href=\"#t%zu\">", i);
		rv_esc(b, rj_gets(t, "name"));
		sb_lit(b, "</a></td><td>");
		badge(b, rj_gets(t, "status"));
		sb_printf(b, "</td><td>%lld</td><td class=\"l\">",
			  (long long)rj_geti(t, "exit_code"));
		rv_esc(b, rj_gets(t, "board"));
		sb_lit(b, "</td><td class=\"l\">");
		rv_esc(b, rj_gets(t, "backend"));
		sb_printf(b, "</td><td>%zu</td><td>%.3f</td></tr>\n",
			  txns ? json_object_array_length(txns) : 0, rj_getd(t, "duration_s"));
	}
	sb_lit(b, "</table>\n");
}

static void data_cell(sbuf *b, struct json_object *ch)
{
	struct json_object *in = rj_get(ch, "integrity");
	if (!in || !json_object_get_boolean(rj_get(in, "checked")))
		sb_lit(b, "-");
	else if (rj_geti(in, "mismatches") == 0)
		sb_printf(b, "ok (%lld)", (long long)rj_geti(in, "elements"));
	else
		sb_printf(b, "%lld BAD @%lld", (long long)rj_geti(in, "mismatches"),
			  (long long)rj_geti(rj_get(in, "first_mismatch"), "offset"));
}

/* After a failed check's badge: the limit and the measured value. */
static void why_text(sbuf *b, struct json_object *o, int (*why)(sbuf *, struct json_object *))
{
	sbuf w = SB_INIT(SB_LINE_MAX);
	if (why(&w, o) && w.p && !w.oom) {
		sb_lit(b, " ");
		rv_esc(b, w.p);
	}
	free(w.p);
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
		struct json_object *pl = rj_get(ch, "placement");
		if (*rows >= RV_MAX_ROWS) {
			sb_printf(b,
				  "<tr><td class=\"l note\" colspan=\"11\">%zu more channels: see "
				  "report.json (this page shows %d rows at most)</td></tr>\n",
				  json_object_array_length(chs) - k, RV_MAX_ROWS);
			*rows += json_object_array_length(chs) - k;
			break;
		}
		sb_lit(b, "<tr><td class=\"l\">");
		rv_esc(b, rj_gets(ch, "plio"));
		sb_printf(b, "</td><td>%s</td><td>%lld/%lld</td>",
			  strcmp(rj_gets(ch, "direction"), "to_aie") ? "from" : "to",
			  (long long)rj_geti(pl, "shim_column"),
			  (long long)rj_geti(pl, "shim_channel"));
		if (json_object_get_boolean(rj_get(ch, "finished")))
			sb_printf(
				b,
				"<td>%lld</td><td>%lld</td><td>%lld</td><td>%lld</td><td>%.1f</td>"
				"<td>%.1f</td>",
				(long long)rj_geti(ch, "bytes_moved"),
				(long long)rj_geti(ch, "first_cycle"),
				(long long)rj_geti(ch, "last_cycle"),
				(long long)rj_geti(ch, "cycles"), rj_getd(ch, "throughput_MBps"),
				rj_getd(ch, "utilisation_pct"));
		else {
			sbuf u = SB_INIT(SB_LINE_MAX);
			rw_unfinished(&u, tx, ch);
			sb_printf(b, "<td>%lld/%lld</td><td colspan=\"5\" class=\"l\">",
				  (long long)rj_geti(ch, "bytes_moved"),
				  (long long)rj_geti(ch, "bytes_expected"));
			rv_esc(b, u.p && !u.oom ? u.p : "did not finish");
			sb_lit(b, "</td>");
			free(u.p);
		}
		sb_lit(b, "<td class=\"l\">");
		data_cell(b, ch);
		sb_lit(b, "</td><td class=\"l\">");
		badge(b, rj_gets(ch, "verdict"));
		why_text(b, ch, rw_channel_why);
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

static void transaction(sbuf *b, struct json_object *t, struct json_object *tx, size_t *rows,
			size_t *charts)
{
	struct json_object *chs = rj_get(tx, "channels"), *lats = rj_get(tx, "latencies");
	double clk = rv_clock_mhz(t);
	size_t k;
	sb_printf(b, "<h3>transaction %lld &ldquo;", (long long)rj_geti(tx, "index"));
	rv_esc(b, rj_gets(tx, "name"));
	sb_lit(b, "&rdquo; (");
	rv_esc(b, rj_gets(tx, "mode"));
	sb_lit(b, ") ");
	badge(b, rj_gets(tx, "status"));
	if (!strcmp(rj_gets(tx, "status"), "done"))
		sb_printf(b, "%s",
			  json_object_get_boolean(rj_get(tx, "valid")) ? " valid" : " NOT VALID");
	sb_printf(b, ", %lld board cycles", (long long)rj_geti(tx, "total_cycles"));
	if (clk > 0)
		sb_printf(b, " (%.3f &micro;s)", (double)rj_geti(tx, "total_cycles") / clk);
	sb_lit(b, "</h3>\n");
	if (rj_gets(tx, "message")[0]) {
		sb_lit(b, "<p class=\"note\">note: ");
		rv_esc(b, rj_gets(tx, "message"));
		sb_lit(b, "</p>\n");
	}
	channel_rows(b, tx, chs, rows);
	if (lats && json_object_array_length(lats)) {
		sb_lit(b, "<table><tr><th class=\"l\">latency from</th><th class=\"l\">to</th>"
			  "<th>cycles</th><th>max</th><th class=\"l\">verdict</th></tr>\n");
		for (k = 0; k < json_object_array_length(lats); k++) {
			struct json_object *l = json_object_array_get_idx(lats, k);
			sb_lit(b, "<tr><td class=\"l\">");
			rv_esc(b, rj_gets(l, "from"));
			sb_lit(b, "</td><td class=\"l\">");
			rv_esc(b, rj_gets(l, "to"));
			sb_printf(b, "</td><td>%lld</td><td>%lld</td><td>",
				  (long long)rj_geti(l, "cycles"),
				  (long long)rj_geti(l, "max_cycles"));
			badge(b, json_object_get_boolean(rj_get(l, "passed")) ? "pass" : "fail");
			if (!strcmp(rj_gets(tx, "status"), "done"))
				why_text(b, l, rw_latency_why);
			sb_lit(b, "</td></tr>\n");
		}
		sb_lit(b, "</table>\n");
	}
	if (*charts < RV_MAX_CHARTS) {
		sb_lit(b, "<div class=\"charts\">\n");
		rv_svg_throughput(b, t, tx, 0);
		rv_svg_timeline(b, t, tx, 0);
		sb_lit(b, "</div>\n");
	} else if (*charts == RV_MAX_CHARTS) {
		sb_printf(b,
			  "<p class=\"note\">no more charts: this page draws the first %d "
			  "transactions of the run</p>\n",
			  RV_MAX_CHARTS);
	}
	(*charts)++;
}

static void test_section(sbuf *b, struct json_object *t, size_t i, size_t *rows, size_t *charts)
{
	struct json_object *txns = rj_get(t, "transactions"), *err = rj_get(t, "error");
	size_t j;
	sb_printf(b, "<section id=\"t%zu\">\n<h2>", i);
	rv_esc(b, rj_gets(t, "name"));
	sb_lit(b, " ");
	badge(b, rj_gets(t, "status"));
	sb_lit(b, "</h2>\n<table class=\"kv\">\n");
	kv(b, "description", rj_gets(t, "description"));
	kv(b, "spec", rj_gets(t, "spec"));
	kv(b, "board", rj_gets(t, "board"));
	kv(b, "backend", rj_gets(t, "backend"));
	if (rv_clock_mhz(t) > 0)
		kv_num(b, "PL clock", "%.3f MHz", rv_clock_mhz(t));
	kv_num(b, "exit code", "%.0f", (double)rj_geti(t, "exit_code"));
	kv_num(b, "duration", "%.3f s", rj_getd(t, "duration_s"));
	sb_lit(b, "</table>\n");
	if (err) {
		sb_lit(b, "<div class=\"err\"><b>error</b> (");
		rv_esc(b, rj_gets(err, "phase"));
		sb_lit(b, ", ");
		rv_esc(b, rj_gets(err, "code"));
		sb_lit(b, "): ");
		rv_esc(b, rj_gets(err, "message"));
		if (rj_gets(err, "hint")[0]) {
			sb_lit(b, "<br>hint: ");
			rv_esc(b, rj_gets(err, "hint"));
		}
		sb_lit(b, "</div>\n");
	}
	if (!txns || !json_object_array_length(txns))
		sb_lit(b, "<p class=\"note\">no transaction ran</p>\n");
	for (j = 0; txns && j < json_object_array_length(txns); j++)
		transaction(b, t, json_object_array_get_idx(txns, j), rows, charts);
	sb_lit(b, "</section>\n");
}

static void num_cell(sbuf *b, struct json_object *v, const char *fmt)
{
	if (v && !json_object_is_type(v, json_type_null))
		sb_printf(b, fmt, json_object_get_double(v));
	else
		sb_lit(b, "-");
}

/* run_test --baseline: the table of what moved, as printed on stdout. */
static void baseline_section(sbuf *b, const aieth_report *r)
{
	struct json_object *bo = rj_get(r->root, "baseline"), *chs;
	size_t i, n;
	if (!bo)
		return;
	chs = rj_get(bo, "changes");
	n = chs ? json_object_array_length(chs) : 0;
	sb_lit(b, "<h2>Baseline ");
	badge(b, !strcmp(rj_gets(bo, "status"), "pass") ? "pass" : "fail");
	sb_lit(b, "</h2>\n<p>");
	rv_esc(b, rj_gets(bo, "path"));
	sb_lit(b, " (run ");
	rv_esc(b, rj_gets(bo, "run_id"));
	sb_lit(b, "): ");
	if (!strcmp(rj_gets(bo, "status"), "refused")) {
		sb_lit(b, "refused: ");
		rv_esc(b, rj_gets(bo, "message"));
		sb_lit(b, "</p>\n");
		return;
	}
	sb_printf(b,
		  "%lld values compared, %lld regressions, %lld missing or unfinished, %lld "
		  "improvements (default tolerance %g%%)</p>\n",
		  (long long)rj_geti(bo, "compared"), (long long)rj_geti(bo, "regressions"),
		  (long long)rj_geti(bo, "missing"), (long long)rj_geti(bo, "improvements"),
		  rj_getd(bo, "max_regression_pct"));
	if (!n) {
		sb_lit(b, "<p class=\"note\">nothing moved</p>\n");
		return;
	}
	sb_lit(b, "<table><tr><th class=\"l\">metric</th><th>baseline</th><th>now</th>"
		  "<th>change</th><th>tolerance</th><th class=\"l\">verdict</th>"
		  "<th class=\"l\">where</th></tr>\n");
	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(chs, i);
		const char *v = rj_gets(c, "verdict");
		int bad = !strcmp(v, "regression") || !strcmp(v, "missing") ||
			  !strcmp(v, "unfinished");
		if (i >= RV_MAX_ROWS) {
			sb_printf(b,
				  "<tr><td class=\"l note\" colspan=\"7\">%zu more rows: see "
				  "baseline.changes in report.json</td></tr>\n",
				  n - i);
			break;
		}
		sb_lit(b, "<tr><td class=\"l\">");
		rv_esc(b, rj_gets(c, "metric"));
		sb_lit(b, "</td><td>");
		num_cell(b, rj_get(c, "baseline"), "%.2f");
		sb_lit(b, "</td><td>");
		num_cell(b, rj_get(c, "now"), "%.2f");
		sb_lit(b, "</td><td>");
		num_cell(b, rj_get(c, "change_pct"), "%+.2f%%");
		sb_lit(b, "</td><td>");
		num_cell(b, rj_get(c, "tolerance_pct"), "%g%%");
		sb_printf(b, "</td><td class=\"l\"><span class=\"b %s\">", bad ? "fail" : "pass");
		rv_esc(b, v);
		sb_lit(b, "</span></td><td class=\"l\">");
		rv_esc(b, rj_gets(c, "test"));
		if (rj_get(c, "transaction")) {
			sb_lit(b, ".");
			rv_esc(b, rj_gets(c, "transaction"));
		}
		if (rj_get(c, "plio")) {
			sb_lit(b, ".");
			rv_esc(b, rj_gets(c, "plio"));
		}
		if (rj_get(c, "from")) {
			sb_lit(b, ".");
			rv_esc(b, rj_gets(c, "from"));
			sb_lit(b, "-&gt;");
			rv_esc(b, rj_gets(c, "to"));
		}
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

int aieth_report_write_html(const aieth_report *r, const char *path)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, n, rows = 0, charts = 0;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_html: NULL argument");
	n = json_object_array_length(r->tests);
	sb_lit(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<title>run_test report: ");
	rv_esc(&b, rj_gets(r->run, "status"));
	sb_printf(&b, ", %zu test%s</title>\n<style>%s</style>\n</head>\n<body>\n", n,
		  n == 1 ? "" : "s", css);
	run_summary(&b, r);
	test_index(&b, r);
	baseline_section(&b, r);
	for (i = 0; i < n; i++)
		test_section(&b, json_object_array_get_idx(r->tests, i), i, &rows, &charts);
	sb_lit(&b, "<p class=\"note\">Every figure is in report.json "
		   "(docs/report-schema.md); the charts are also standalone SVG files.</p>\n"
		   "</body>\n</html>\n");
	return sb_write_file(&b, path);
}
