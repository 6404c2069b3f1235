/* SPDX-License-Identifier: MIT */
/*
 * report_dist.c - the distribution of a repeated transaction's throughput
 * (run_test --repeat N): per channel a strip plot of its measured runs
 * (warm-up runs are not in stats.runs) on one axis, the deviation from the
 * channel's own median in percent, so channels of different speeds and a
 * spread of 0.2 % are both visible: each run a dot, the min-max whisker,
 * the median +- MAD band and the median.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_model.h"
#include "report/report_visual.h"

#define ROW 24
#define TOP 44
#define LBL 190
#define PLOT 440

int aieth__rv_has_dist(struct json_object *txn)
{
	struct json_object *chs = aieth__rv_arr(txn, "channels");
	size_t k;
	for (k = 0; k < aieth__rv_len(chs); k++)
		if (aieth__rv_stat(json_object_array_get_idx(chs, k), "throughput_MBps"))
			return 1;
	return 0;
}

/* v as percent off med (0 when med is 0: nothing to scale by) */
static double dev(double v, double med) { return med != 0 ? (v - med) / fabs(med) * 100 : 0; }

/* The smallest of 1, 2, 5 x 10^k (k >= -2) at least r: the axis's half. */
static double nice_half(double r)
{
	double m = 0.01;
	if (!(r > 0.01))
		return r > 0 ? 0.01 : 1;
	while (m * 10 < r && m < 1e12)
		m *= 10;
	if (m >= r)
		return m;
	return 2 * m >= r ? 2 * m : 5 * m >= r ? 5 * m : 10 * m;
}

static void one_row(sbuf *b, struct json_object *ch, int y, double half)
{
	struct json_object *s = aieth__rv_stat(ch, "throughput_MBps"),
			   *runs = aieth__rv_arr(s, "runs");
	double med = 0, mn = 0, mx = 0, cx = LBL + PLOT / 2.0, sc = PLOT / 2.0 / half, pm;
	size_t i, n = aieth__rv_len(runs),
		  step = n > RV_DIST_DOTS ? (n + RV_DIST_DOTS - 1) / RV_DIST_DOTS : 1;
	int cy = y + 12;
	aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LBL - 8, cy + 4);
	aieth__rv_esc_cut(b, aieth__rj_gets(ch, "plio"), 28);
	sb_lit(b, "<title>");
	aieth__rv_esc(b, aieth__rj_gets(ch, "plio"));
	sb_lit(b, "</title></text>\n");
	if (!s) {
		aieth__sb_printf(
			b, "<text x=\"%d\" y=\"%d\" fill=\"#546e7a\">no repeated figure%s</text>\n",
			LBL, cy + 4,
			json_object_get_boolean(aieth__rj_get(ch, "finished")) ? ""
									       : " (unfinished)");
		return;
	}
	aieth__rv_num(s, "median", &med);
	aieth__rv_num(s, "min", &mn);
	aieth__rv_num(s, "max", &mx);
	pm = aieth__rv_spread_pct(s);
#define X(d) (cx + (d)*sc)
	aieth__sb_printf(b,
			 "<line class=\"whisker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			 "stroke=\"#546e7a\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			 "stroke=\"#546e7a\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			 "stroke=\"#546e7a\"/>\n",
			 X(dev(mn, med)), cy, X(dev(mx, med)), cy, X(dev(mn, med)), cy - 5,
			 X(dev(mn, med)), cy + 5, X(dev(mx, med)), cy - 5, X(dev(mx, med)), cy + 5);
	aieth__sb_printf(b,
			 "<rect class=\"mad\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" "
			 "fill=\"#90caf9\" fill-opacity=\"0.6\"/>\n",
			 X(-pm), cy - 7, pm * 2 * sc < 1 ? 1 : pm * 2 * sc);
	for (i = 0; i < n; i += step) {
		struct json_object *v = json_object_array_get_idx(runs, i);
		double x;
		if (!v ||
		    !(json_object_is_type(v, json_type_int) ||
		      json_object_is_type(v, json_type_double)) ||
		    !isfinite(x = json_object_get_double(v)))
			continue;
		aieth__sb_printf(
			b,
			"<circle class=\"run\" cx=\"%.1f\" cy=\"%d\" r=\"2.5\" fill=\"#1565c0\" "
			"fill-opacity=\"0.7\"><title>run %zu: %.1f MB/s</title></circle>\n",
			X(dev(x, med)), cy + (int)(i % 5) * 2 - 4, i, x);
	}
	aieth__sb_printf(b,
			 "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			 "stroke=\"#0d47a1\" stroke-width=\"2\"/>\n",
			 cx, cy - 9, cx, cy + 9);
#undef X
	aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\">", LBL + PLOT + 8, cy + 4);
	aieth__rv_pm(b, s, 1);
	aieth__sb_printf(b, " MB/s [%.1f .. %.1f], %zu run%s</text>\n", mn, mx, n,
			 n == 1 ? "" : "s");
	if (step > 1)
		aieth__sb_printf(
			b,
			"<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#546e7a\">dots: every "
			"%zu. run of %zu</text>\n",
			LBL + PLOT + 8, cy + 15, step, n);
}

void aieth__rv_svg_distribution(sbuf *b, struct json_object *test, struct json_object *txn,
				int standalone)
{
	struct json_object *chs = aieth__rv_arr(txn, "channels"),
			   *rep = aieth__rj_get(test, "repeat");
	size_t k, n = aieth__rv_len(chs);
	const int w = LBL + PLOT + 360;
	int axis = TOP + (int)n * ROW + 4, h = axis + 40, t;
	double r = 0, half, runs = 0, warm = 0;

	for (k = 0; k < n; k++) {
		struct json_object *s =
			aieth__rv_stat(json_object_array_get_idx(chs, k), "throughput_MBps");
		double med = 0, mn = 0, mx = 0;
		if (!s)
			continue;
		aieth__rv_num(s, "median", &med);
		aieth__rv_num(s, "min", &mn);
		aieth__rv_num(s, "max", &mx);
		if (fabs(dev(mn, med)) > r)
			r = fabs(dev(mn, med));
		if (fabs(dev(mx, med)) > r)
			r = fabs(dev(mx, med));
		if (aieth__rv_spread_pct(s) > r)
			r = aieth__rv_spread_pct(s);
	}
	half = nice_half(r);
	aieth__rv_num(rep, "runs", &runs);
	aieth__rv_num(rep, "warmup", &warm);
	if (standalone)
		sb_lit(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	aieth__sb_printf(b,
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" "
			 "font-size=\"12\" class=\"chart distribution\">\n<title>",
			 w, h, w, h);
	aieth__rv_esc(b, aieth__rj_gets(test, "name"));
	sb_lit(b, " / ");
	aieth__rv_esc(b, aieth__rj_gets(txn, "name"));
	aieth__sb_printf(b,
			 ": distribution</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
			 "fill=\"#ffffff\"/>\n<text x=\"8\" y=\"18\" font-size=\"14\" "
			 "font-weight=\"bold\">",
			 w, h);
	aieth__rv_esc_cut(b, aieth__rj_gets(test, "name"), 60);
	sb_lit(b, " / ");
	aieth__rv_esc_cut(b, aieth__rj_gets(txn, "name"), 40);
	sb_lit(b, ": throughput over the runs</text>\n");
	aieth__sb_printf(
		b,
		"<text x=\"8\" y=\"34\" font-size=\"11\" fill=\"#546e7a\">%.0f measured runs "
		"(%.0f warm-up not shown); dot: a run, whisker: min..max, band: median "
		"\xc2\xb1 MAD, bar: median; axis: %% off each channel's median</text>\n",
		runs, warm);
	for (k = 0; k < n; k++)
		one_row(b, json_object_array_get_idx(chs, k), TOP + (int)k * ROW, half);
	aieth__sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>\n",
			 LBL, axis, LBL + PLOT, axis);
	for (t = -2; t <= 2; t++) { /* "+0 %" reads oddly: 0 without its sign */
		int x = LBL + PLOT / 2 + PLOT / 4 * t;
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#455a64\"/>"
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s%.3g "
			"%%</text>\n",
			x, axis, x, axis + 4, x, axis + 16, t > 0 ? "+" : "", half * t / 2);
	}
	if (!n)
		aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\">no channels</text>\n", LBL, TOP + 12);
	sb_lit(b, "</svg>\n");
}
