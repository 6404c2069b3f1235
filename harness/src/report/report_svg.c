/* SPDX-License-Identifier: MIT */
/*
 * report_svg.c - the charts of a transaction as SVG (inline in report.html
 * and standalone files), the drawn span of a channel, and the chart files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "util/error.h"
#include "util/fileio.h"

double aieth__rv_clock_mhz(struct json_object *test)
{
	double c = aieth__rj_getd(test, "pl_clock_MHz");
	return c > 0 && c < 1e6 ? c : 0;
}

void aieth__rv_channel_span(struct json_object *ch, rv_span *sp)
{
	sp->finished = json_object_get_boolean(aieth__rj_get(ch, "finished"));
	sp->delay = aieth__rj_geti(ch, "delay_cycles");
	if (sp->delay < 0)
		sp->delay = 0;
	if (sp->finished) {
		sp->start = aieth__rj_geti(ch, "first_cycle");
		sp->end = aieth__rj_geti(ch, "last_cycle");
	} else {
		sp->start = sp->delay;
		sp->end = aieth__rj_geti(ch, "stalled_since_cycle");
	}
	if (sp->start < 0)
		sp->start = 0;
	if (sp->end < sp->start)
		sp->end = sp->start;
}

long long aieth__rv_txn_end(struct json_object *txn)
{
	struct json_object *chs = aieth__rj_get(txn, "channels");
	long long end = aieth__rj_geti(txn, "total_cycles");
	size_t k;
	for (k = 0; chs && k < json_object_array_length(chs); k++) {
		rv_span sp;
		aieth__rv_channel_span(json_object_array_get_idx(chs, k), &sp);
		if (sp.end > end)
			end = sp.end;
	}
	return end > 0 ? end : 1;
}

static const char *verdict_colour(const char *v)
{
	if (!strcmp(v, "pass"))
		return "#2e7d32";
	if (!strcmp(v, "fail"))
		return "#c62828";
	if (!strcmp(v, "timeout"))
		return "#ef6c00";
	if (!strcmp(v, "interrupted"))
		return "#6a1b9a";
	return "#6d4c41";
}

#define ROW 20
#define TOP 40
#define LBL 190

static void svg_open(sbuf *b, int standalone, int w, int h, const char *kind,
		     struct json_object *test, struct json_object *txn)
{
	if (standalone)
		sb_lit(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	aieth__sb_printf(b,
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" "
			 "font-size=\"12\" class=\"chart %s\">\n",
			 w, h, w, h, kind);
	sb_lit(b, "<title>");
	aieth__rv_esc(b, aieth__rj_gets(test, "name"));
	sb_lit(b, " / ");
	aieth__rv_esc(b, aieth__rj_gets(txn, "name"));
	aieth__sb_printf(b, ": %s</title>\n", kind);
	aieth__sb_printf(b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
			 w, h);
	sb_lit(b, "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">");
	aieth__rv_esc_cut(b, aieth__rj_gets(test, "name"), 60);
	sb_lit(b, " / ");
	aieth__rv_esc_cut(b, aieth__rj_gets(txn, "name"), 40);
	aieth__sb_printf(b, ": %s</text>\n",
			 !strcmp(kind, "throughput")
				 ? "throughput per channel against its peak (MB/s)"
				 : "channel timeline (first..last cycle)");
}

static void row_label(sbuf *b, struct json_object *ch, int y)
{
	aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LBL - 8, y + 14);
	aieth__rv_esc_cut(b, aieth__rj_gets(ch, "plio"), 28);
	sb_lit(b, "<title>");
	aieth__rv_esc(b, aieth__rj_gets(ch, "plio"));
	sb_lit(b, "</title></text>\n");
}

/* Whether one of the channel's thresholds failed. */
static int threshold_failed(struct json_object *ch)
{
	struct json_object *th = aieth__rj_get(ch, "thresholds");
	size_t k;
	for (k = 0;
	     th && json_object_is_type(th, json_type_array) && k < json_object_array_length(th);
	     k++) {
		struct json_object *p = aieth__rj_get(json_object_array_get_idx(th, k), "passed");
		if (p && !json_object_get_boolean(p))
			return 1;
	}
	return 0;
}

void aieth__rv_svg_throughput(sbuf *b, struct json_object *test, struct json_object *txn,
			      int standalone)
{
	struct json_object *chs = aieth__rj_get(txn, "channels");
	size_t k, n = chs ? json_object_array_length(chs) : 0;
	const int bar = 440, w = LBL + bar + 250;
	int h = TOP + (int)n * ROW + 40, t;
	double maxv = 0;

	for (k = 0; k < n; k++) {
		struct json_object *ch = json_object_array_get_idx(chs, k);
		double p = aieth__rj_getd(ch, "theoretical_MBps"),
		       m = aieth__rj_getd(ch, "throughput_MBps");
		if (p > maxv)
			maxv = p;
		if (m > maxv)
			maxv = m;
	}
	if (!(maxv > 0))
		maxv = 1;
	svg_open(b, standalone, w, h, "throughput", test, txn);
	for (k = 0; k < n; k++) {
		struct json_object *ch = json_object_array_get_idx(chs, k);
		double p = aieth__rj_getd(ch, "theoretical_MBps"),
		       m = aieth__rj_getd(ch, "throughput_MBps");
		int y = TOP + (int)k * ROW;
		const char *v = aieth__rj_gets(ch, "verdict");
		/* the bar is the throughput's: red for a missed threshold, not for
		 * a data mismatch (said in the text beside it) */
		const char *bv = !strcmp(v, "fail") && !threshold_failed(ch) ? "pass" : v;
		row_label(b, ch, y);
		aieth__sb_printf(
			b,
			"<rect class=\"peak\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"14\" "
			"fill=\"#eceff1\" stroke=\"#90a4ae\"/>\n",
			LBL, y + 3, p / maxv * bar);
		if (json_object_get_boolean(aieth__rj_get(ch, "finished"))) {
			aieth__sb_printf(
				b,
				"<rect class=\"measured\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
				"height=\"10\" fill=\"%s\"><title>",
				LBL, y + 5, m / maxv * bar, verdict_colour(bv));
			aieth__rv_esc(b, aieth__rj_gets(ch, "plio"));
			aieth__sb_printf(b, ": %.1f MB/s of %.1f (%.1f%%), %s</title></rect>\n", m,
					 p, aieth__rj_getd(ch, "utilisation_pct"), v);
			aieth__sb_printf(
				b, "<text x=\"%d\" y=\"%d\">%.1f / %.0f MB/s (%.1f%%) %s</text>\n",
				LBL + bar + 8, y + 14, m, p, aieth__rj_getd(ch, "utilisation_pct"),
				v);
		} else {
			aieth__sb_printf(
				b,
				"<text x=\"%d\" y=\"%d\" fill=\"%s\">%s: %lld of %lld bytes</text>\n",
				LBL + bar + 8, y + 14, verdict_colour(v),
				!strcmp(v, "timeout") ? "stalled" : "unfinished",
				(long long)aieth__rj_geti(ch, "bytes_moved"),
				(long long)aieth__rj_geti(ch, "bytes_expected"));
		}
	}
	/* the axis: 0, 25, 50, 75, 100% of the largest value */
	aieth__sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>\n",
			 LBL, TOP + (int)n * ROW + 2, LBL + bar, TOP + (int)n * ROW + 2);
	for (t = 0; t <= 4; t++) {
		int x = LBL + bar * t / 4, y = TOP + (int)n * ROW + 2;
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>"
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.0f</text>\n",
			x, y, x, y + 4, x, y + 16, maxv * t / 4);
	}
	if (!n)
		aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\">no channels</text>\n", LBL, TOP + 12);
	sb_lit(b, "</svg>\n");
}

/* The channel named plio in chs, or NULL. */
static struct json_object *find_channel(struct json_object *chs, const char *plio)
{
	size_t k;
	for (k = 0; chs && k < json_object_array_length(chs); k++)
		if (!strcmp(aieth__rj_gets(json_object_array_get_idx(chs, k), "plio"), plio))
			return json_object_array_get_idx(chs, k);
	return NULL;
}

void aieth__rv_svg_timeline(sbuf *b, struct json_object *test, struct json_object *txn,
			    int standalone)
{
	struct json_object *chs = aieth__rj_get(txn, "channels"),
			   *lats = aieth__rj_get(txn, "latencies");
	size_t k, n = chs ? json_object_array_length(chs) : 0;
	size_t nl = lats ? json_object_array_length(lats) : 0;
	const int plot = 480, w = LBL + plot + 260;
	int axis = TOP + (int)n * ROW + 4, h = axis + 44 + (int)nl * 16, t, nt;
	double clk = aieth__rv_clock_mhz(test), end = (double)aieth__rv_txn_end(txn);

#define X(c) (LBL + (double)(c) / end * plot)
	svg_open(b, standalone, w, h, "timeline", test, txn);
	for (k = 0; k < n; k++) {
		struct json_object *ch = json_object_array_get_idx(chs, k);
		int y = TOP + (int)k * ROW, to = !strcmp(aieth__rj_gets(ch, "direction"), "to_aie");
		rv_span sp;
		aieth__rv_channel_span(ch, &sp);
		row_label(b, ch, y);
		if (sp.start > 0) /* the delay before the first data */
			aieth__sb_printf(
				b,
				"<line class=\"delay\" x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				"stroke=\"#9e9e9e\" stroke-dasharray=\"3,3\"/>\n",
				LBL, y + 10, X(sp.start), y + 10);
		aieth__sb_printf(
			b,
			"<rect class=\"span\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" "
			"fill=\"%s\"%s><title>",
			X(sp.start), y + 3,
			X(sp.end) - X(sp.start) < 1 ? 1 : X(sp.end) - X(sp.start),
			sp.finished ? (to ? "#1e88e5" : "#00897b") : "#ef6c00",
			sp.finished ? "" : " fill-opacity=\"0.6\"");
		aieth__rv_esc(b, aieth__rj_gets(ch, "plio"));
		if (sp.finished)
			aieth__sb_printf(b, ": cycles %lld..%lld (%lld)", sp.start, sp.end,
					 sp.end - sp.start);
		else
			aieth__sb_printf(b, ": stalled at cycle %lld", sp.end);
		if (clk > 0)
			aieth__sb_printf(b, ", %.3f..%.3f \xc2\xb5s", (double)sp.start / clk,
					 (double)sp.end / clk);
		sb_lit(b, "</title></rect>\n");
		/* "(delay D)" is the channel's own delay as described, never
		 * when its first beat came (an RX's wait, a TX's cycle 1) */
		if (sp.finished)
			aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\">%lld..%lld%s", LBL + plot + 8,
					 y + 14, sp.start, sp.end, sp.delay > 0 ? " (delay " : "");
		else
			aieth__sb_printf(
				b, "<text x=\"%d\" y=\"%d\" fill=\"#ef6c00\">stalled at %lld%s",
				LBL + plot + 8, y + 14, sp.end, sp.delay > 0 ? " (delay " : "");
		if (sp.delay > 0)
			aieth__sb_printf(b, "%lld)", sp.delay);
		sb_lit(b, "</text>\n");
	}
	/* latencies: first data of `from` to first data of `to`, on to's row */
	for (k = 0; k < nl; k++) {
		struct json_object *l = json_object_array_get_idx(lats, k);
		struct json_object *a = find_channel(chs, aieth__rj_gets(l, "from"));
		struct json_object *z = find_channel(chs, aieth__rj_gets(l, "to"));
		int pass = json_object_get_boolean(aieth__rj_get(l, "passed"));
		long long cyc = aieth__rj_geti(l, "cycles");
		if (a && z && json_object_get_boolean(aieth__rj_get(a, "finished")) &&
		    json_object_get_boolean(aieth__rj_get(z, "finished"))) {
			size_t row;
			for (row = 0; row < n && json_object_array_get_idx(chs, row) != z; row++)
				;
			aieth__sb_printf(
				b,
				"<line class=\"latency\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				"y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n",
				X(aieth__rj_geti(a, "first_cycle")), TOP + (int)row * ROW + 2,
				X(aieth__rj_geti(z, "first_cycle")), TOP + (int)row * ROW + 2,
				pass ? "#d81b60" : "#c62828");
		}
		aieth__sb_printf(b, "<text x=\"8\" y=\"%d\" fill=\"%s\">latency ",
				 axis + 40 + (int)k * 16, pass ? "#000000" : "#c62828");
		aieth__rv_esc_cut(b, aieth__rj_gets(l, "from"), 40);
		sb_lit(b, " \xe2\x86\x92 ");
		aieth__rv_esc_cut(b, aieth__rj_gets(l, "to"), 40);
		aieth__sb_printf(b, ": %lld cycles", cyc);
		if (clk > 0)
			aieth__sb_printf(b, " (%.3f \xc2\xb5s)", (double)cyc / clk);
		aieth__sb_printf(b, ", max %lld: %s</text>\n",
				 (long long)aieth__rj_geti(l, "max_cycles"),
				 pass ? "pass" : "FAIL");
	}
	/* the axis: cycles, and microseconds at the PL clock */
	aieth__sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>\n",
			 LBL, axis, LBL + plot, axis);
	/* 5 steps, or only both ends when fewer cycles than steps (a hang
	 * before the first beat: no "0 0 0 1 1") */
	for (t = 0, nt = end >= 5 ? 5 : 1; t <= nt; t++) {
		double c = end * t / nt;
		int x = LBL + plot * t / nt;
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>"
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.0f</text>\n",
			x, axis, x, axis + 4, x, axis + 16, c);
		if (clk > 0)
			aieth__sb_printf(
				b,
				"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" "
				"fill=\"#546e7a\">%.3g \xc2\xb5s</text>\n",
				x, axis + 28, c / clk);
	}
	aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">cycles%s</text>\n",
			 LBL + plot + 30, axis + 16, clk > 0 ? "" : " (no clock: no \xc2\xb5s)");
	if (clk > 0)
		aieth__sb_printf(
			b,
			"<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#546e7a\">at %.1f MHz</text>\n",
			LBL + plot + 30, axis + 28, clk);
	if (!n)
		aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\">no channels</text>\n", LBL, TOP + 12);
	sb_lit(b, "</svg>\n");
#undef X
}

/* The standalone chart files: DIR/<test>-<transaction>-throughput.svg,
 * -timeline.svg and, for a repeated transaction, -distribution.svg, names reduced to [A-Za-z0-9._-]; a name that repeats
 * (the same description twice, names equal once reduced) gets "+I.J", the
 * test's and the transaction's index ('+' never comes from a name). */
#define STEM 140

static int write_svg(int dfd, const char *dir, const char *stem, const char *kind,
		     struct json_object *t, struct json_object *tx)
{
	char path[4400], name[STEM + 48];
	sbuf b = SB_INIT(SB_DOC_MAX);
	int rc;
	snprintf(name, sizeof name, "%s-%s.svg", stem, kind);
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
		return aieth__fail(AIETH_EINVAL, "%s: chart path longer than %zu bytes", dir,
				   sizeof path - 1);
	if (!strcmp(kind, "throughput"))
		aieth__rv_svg_throughput(&b, t, tx, 1);
	else if (!strcmp(kind, "distribution"))
		aieth__rv_svg_distribution(&b, t, tx, 1);
	else
		aieth__rv_svg_timeline(&b, t, tx, 1);
	if (!(rc = aieth__sb_check(&b, path)))
		rc = aieth__write_atomicat(dfd, name, path, b.p ? b.p : "", b.n);
	aieth__sb_free(&b);
	return rc;
}

int aieth_report_write_svgs(const aieth_report *r, const char *dir)
{
	char stems[RV_MAX_CHARTS][STEM + 24];
	size_t i, j, n, charts = 0;
	int dfd, rc = AIETH_OK;
	if (!r || !dir || !*dir)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_svgs: NULL or empty argument");
	/* the folder opened once, never through a link at its own name (it is
	 * made by the run, often in a folder others may write); each chart's
	 * name in it never followed */
	if ((rc = aieth__subdir_open_path(dir, &dfd)))
		return rc;
	n = json_object_array_length(r->tests);
	for (i = 0; i < n && charts < RV_MAX_CHARTS; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		for (j = 0; txns && j < json_object_array_length(txns) && charts < RV_MAX_CHARTS;
		     j++) {
			struct json_object *tx = json_object_array_get_idx(txns, j);
			char a[STEM / 2], z[STEM / 2], *stem = stems[charts];
			size_t c;
			aieth__rv_file_part(a, sizeof a, aieth__rj_gets(t, "name"));
			aieth__rv_file_part(z, sizeof z, aieth__rj_gets(tx, "name"));
			snprintf(stem, sizeof stems[0], "%s-%s", a, z);
			for (c = 0; c < charts && strcmp(stems[c], stem); c++)
				;
			if (c < charts)
				snprintf(stem, sizeof stems[0], "%s-%s+%zu.%zu", a, z, i, j);
			charts++;
			if ((rc = write_svg(dfd, dir, stem, "throughput", t, tx)) != AIETH_OK ||
			    (rc = write_svg(dfd, dir, stem, "timeline", t, tx)) != AIETH_OK ||
			    (aieth__rv_has_dist(tx) &&
			     (rc = write_svg(dfd, dir, stem, "distribution", t, tx)) != AIETH_OK))
				break;
		}
		if (rc != AIETH_OK)
			break;
	}
	if (rc == AIETH_OK)
		rc = aieth__rv_write_sweep_svgs(r, dfd, dir);
	close(dfd);
	return rc;
}
