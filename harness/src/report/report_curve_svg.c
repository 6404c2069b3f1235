/* SPDX-License-Identifier: MIT */
/*
 * report_curve_svg.c - a sweep's curve as SVG (in report.html and as
 * files): the lines report_curve.c collects on axes (log x for geometric
 * values), the thresholds dashed, failed points ringed, the knees
 * (report.run.sweeps[].knees) marked, a legend and what a bound left out.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_curve.h"
#include "report/report_model.h"

const char *aieth__rv_fig_name(int fig)
{
	return fig == RV_FIG_THROUGHPUT ? "throughput"
	       : fig == RV_FIG_LATENCY  ? "latency"
					: "cycles";
}

static const char *fig_title(int fig)
{
	return fig == RV_FIG_THROUGHPUT ? "throughput (MB/s)"
	       : fig == RV_FIG_LATENCY  ? "latency (cycles)"
					: "cycles";
}

#define W 820
#define PL 80
#define PT 44
#define PW 560
#define PH 240

static const char *const palette[] = {"#1e88e5", "#e53935", "#43a047", "#fb8c00", "#8e24aa",
				      "#00acc1", "#6d4c41", "#3949ab", "#c0ca33", "#d81b60"};
#define NPAL (sizeof palette / sizeof *palette)

typedef struct {
	double x0, x1, y0, y1;
	int logx;
} frame;

static double px(const frame *f, double x)
{
	double a = f->logx ? log(x) : x, lo = f->logx ? log(f->x0) : f->x0,
	       hi = f->logx ? log(f->x1) : f->x1;
	return PL + (hi > lo ? (a - lo) / (hi - lo) : 0.5) * PW;
}

static double py(const frame *f, double y)
{
	return PT + PH - (f->y1 > f->y0 ? (y - f->y0) / (f->y1 - f->y0) : 0) * PH;
}

/* a step of 1, 2 or 5 x 10^k giving about n ticks over r */
static double nice_step(double r, int n)
{
	double raw = r / n, m = pow(10, floor(log10(raw)));
	if (!(raw > 0) || !isfinite(m))
		return 1;
	return raw <= m ? m : raw <= 2 * m ? 2 * m : raw <= 5 * m ? 5 * m : 10 * m;
}

static void make_frame(const curves *c, frame *f)
{
	size_t i, j;
	int any = 0;
	f->logx = c->logx;
	f->y0 = 0;
	f->y1 = 0;
	for (i = 0; i < c->nl; i++)
		for (j = 0; j < c->l[i].n; j++) {
			const cpt *p = &c->l[i].p[j];
			double lo = p->band && p->lo < p->y ? p->lo : p->y;
			double hi = p->band && p->hi > p->y ? p->hi : p->y;
			if (p->has_thr) {
				lo = p->thr < lo ? p->thr : lo;
				hi = p->thr > hi ? p->thr : hi;
			}
			if (!any || p->x < f->x0)
				f->x0 = p->x;
			if (!any || p->x > f->x1)
				f->x1 = p->x;
			f->y0 = lo < f->y0 ? lo : f->y0;
			f->y1 = hi > f->y1 ? hi : f->y1;
			any = 1;
		}
	if (c->cat) {
		f->x0 = -0.5;
		f->x1 = aieth__rv_len(c->values) ? (double)aieth__rv_len(c->values) - 0.5 : 0.5;
	} else if (f->x1 <= f->x0) {
		f->x0 = f->logx ? f->x0 / 2 : f->x0 - 1;
		f->x1 = f->logx ? f->x1 * 2 : f->x1 + 1;
	}
	if (f->y1 <= f->y0)
		f->y1 = f->y0 + 1;
	else {
		double st = nice_step(f->y1 - f->y0, 5);
		f->y1 = ceil(f->y1 / st) * st;
		f->y0 = floor(f->y0 / st) * st;
	}
}

static void axes_draw(sbuf *b, const curves *c, const frame *f)
{
	double st = nice_step(f->y1 - f->y0, 5), y;
	size_t i, n = aieth__rv_len(c->values), every = n > 10 ? (n + 9) / 10 : 1;
	aieth__sb_printf(b,
			 "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
			 "stroke=\"#90a4ae\"/>\n",
			 PL, PT, PW, PH);
	for (y = f->y0; y <= f->y1 + st / 2; y += st)
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eceff1\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.6g"
			"</text>\n",
			PL, py(f, y), PL + PW, py(f, y), PL - 6, py(f, y) + 4, y);
	if (c->cat || c->logx) { /* ticks at the axis's own values */
		for (i = 0; i < n; i += every) {
			jobj *v = json_object_array_get_idx(c->values, i);
			double x;
			if (!aieth__rv_x_of(c, v, &x) || x < f->x0 || x > f->x1)
				continue;
			aieth__sb_printf(b,
					 "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
					 "stroke=\"#455a64\"/><text x=\"%.1f\" y=\"%d\" "
					 "text-anchor=\"middle\" font-size=\"11\">",
					 px(f, x), PT + PH, px(f, x), PT + PH + 4, px(f, x),
					 PT + PH + 16);
			{
				sbuf t = SB_INIT(SB_LINE_MAX);
				aieth__rv_val_text(&t, v);
				aieth__rv_esc_cut(b, t.p ? t.p : "", 14);
				aieth__sb_free(&t);
			}
			sb_lit(b, "</text>\n");
		}
	} else {
		double xs = nice_step(f->x1 - f->x0, 6), x;
		for (x = ceil(f->x0 / xs) * xs; x <= f->x1 + xs / 1e6; x += xs)
			aieth__sb_printf(b,
					 "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
					 "stroke=\"#455a64\"/><text x=\"%.1f\" y=\"%d\" "
					 "text-anchor=\"middle\" font-size=\"11\">%.6g</text>\n",
					 px(f, x), PT + PH, px(f, x), PT + PH + 4, px(f, x),
					 PT + PH + 16, x);
	}
	aieth__sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
			 PL + PW / 2, PT + PH + 32);
	aieth__rv_esc_cut(b, c->axis, 60);
	aieth__sb_printf(b, "%s</text>\n",
			 c->logx  ? " (log scale)"
			 : c->cat ? " (values in order)"
				  : "");
}

static void line_label(sbuf *b, const curves *c, const cline *l, int one_txn, size_t max)
{
	sbuf t = SB_INIT(SB_LINE_MAX);
	if (!one_txn)
		aieth__sb_printf(&t, "%s: ", l->txn);
	aieth__sb_printf(&t, "%s", l->item);
	if (l->combo[0])
		aieth__sb_printf(&t, " @ %s", l->combo);
	(void)c;
	aieth__rv_esc_cut(b, t.p && !t.oom ? t.p : "?", max);
	aieth__sb_free(&t);
}

static void line_draw(sbuf *b, const curves *c, const frame *f, size_t i, int one_txn)
{
	const cline *l = &c->l[i];
	const char *col = palette[i % NPAL], *dash = i >= NPAL ? " stroke-dasharray=\"2,2\"" : "";
	size_t j, thr_n = 0;
	int thr_const = 1;
	double thr0 = 0;
	if (!l->n)
		return;
	for (j = 0; j < l->n; j++)
		if (l->p[j].band)
			break;
	if (j < l->n) { /* the min-max band of repeated points */
		aieth__sb_printf(
			b, "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.15\" points=\"",
			col);
		for (j = 0; j < l->n; j++)
			aieth__sb_printf(b, "%.1f,%.1f ", px(f, l->p[j].x),
					 py(f, l->p[j].band ? l->p[j].lo : l->p[j].y));
		for (j = l->n; j-- > 0;)
			aieth__sb_printf(b, "%.1f,%.1f ", px(f, l->p[j].x),
					 py(f, l->p[j].band ? l->p[j].hi : l->p[j].y));
		sb_lit(b, "\"/>\n");
	}
	for (j = 0; j < l->n; j++)
		if (l->p[j].has_thr) {
			if (thr_n++ && l->p[j].thr != thr0)
				thr_const = 0;
			thr0 = l->p[j].thr;
		}
	if (thr_n && thr_const) /* one threshold: across the plot */
		aieth__sb_printf(
			b,
			"<line class=\"threshold\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-dasharray=\"6,4\"/>\n",
			PL, py(f, thr0), PL + PW, py(f, thr0), col);
	else if (thr_n) {
		aieth__sb_printf(b,
				 "<polyline class=\"threshold\" fill=\"none\" stroke=\"%s\" "
				 "stroke-dasharray=\"6,4\" points=\"",
				 col);
		for (j = 0; j < l->n; j++)
			if (l->p[j].has_thr)
				aieth__sb_printf(b, "%.1f,%.1f ", px(f, l->p[j].x),
						 py(f, l->p[j].thr));
		sb_lit(b, "\"/>\n");
	}
	/* earlier lines wider: a line hidden under an equal one shows as a rim */
	aieth__sb_printf(
		b,
		"<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s "
		"points=\"",
		col, c->nl > 1 ? 1.5 + 2.0 * (double)(c->nl - 1 - i) / (double)(c->nl - 1) : 2.0,
		dash);
	for (j = 0; j < l->n; j++)
		aieth__sb_printf(b, "%.1f,%.1f ", px(f, l->p[j].x), py(f, l->p[j].y));
	sb_lit(b, "\"/>\n");
	for (j = 0; j < l->n; j++) {
		const cpt *p = &l->p[j];
		if (p->bad) /* a failed point: a red ring */
			aieth__sb_printf(b,
					 "<circle class=\"failed\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
					 "fill=\"none\" stroke=\"#c62828\" stroke-width=\"2\"/>\n",
					 px(f, p->x), py(f, p->y));
		if (l->n > 60)
			continue;
		aieth__sb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
				 px(f, p->x), py(f, p->y), col);
		line_label(b, c, l, one_txn, 200);
		aieth__sb_printf(b, ", point %zu: %.6g", p->pt, p->y);
		if (p->band)
			aieth__sb_printf(b, " (min %.6g, max %.6g)", p->lo, p->hi);
		aieth__sb_printf(b, "%s</title></circle>\n", p->bad ? ", failed" : "");
	}
}

/* The knees of the throughput chart: a dashed vertical at the knee's
 * value on its channel's line, labelled. */
static void knees_draw(sbuf *b, const curves *c, const frame *f, jobj *s, size_t ax)
{
	jobj *knees = aieth__rv_arr(s, "knees");
	size_t k, i, drawn = 0;
	for (k = 0; k < aieth__rv_len(knees) && drawn < RV_CURVE_LINES; k++) {
		jobj *kn = json_object_array_get_idx(knees, k), *v = aieth__rj_get(kn, "value");
		sbuf combo = SB_INIT(SB_LINE_MAX);
		double x;
		if (strcmp(aieth__rj_gets(kn, "axis"), c->axis) || !v || !aieth__rv_x_of(c, v, &x))
			continue;
		aieth__rv_combo_key(&combo, s, ax, aieth__rj_get(kn, "at"));
		for (i = 0; i < c->nl && !combo.oom; i++) {
			const cline *l = &c->l[i];
			size_t j;
			if (strcmp(l->item, aieth__rj_gets(kn, "plio")) ||
			    strcmp(l->combo, combo.p ? combo.p : ""))
				continue;
			aieth__sb_printf(
				b,
				"<line class=\"knee\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				"stroke=\"%s\" stroke-dasharray=\"2,3\" stroke-width=\"1.5\"/>\n",
				px(f, x), PT, px(f, x), PT + PH, palette[i % NPAL]);
			for (j = 0; j < l->n && l->p[j].x != x; j++)
				;
			if (j < l->n)
				aieth__sb_printf(
					b,
					"<circle class=\"knee\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
					"fill=\"none\" stroke=\"#212121\" stroke-width=\"2\"/>\n",
					px(f, x), py(f, l->p[j].y));
			aieth__sb_printf(
				b, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\">knee ",
				px(f, x) + 3, PT + 12 + (int)(drawn % 4) * 12, palette[i % NPAL]);
			{
				sbuf t = SB_INIT(SB_LINE_MAX);
				aieth__rv_val_text(&t, v);
				aieth__rv_esc_cut(b, t.p ? t.p : "", 20);
				aieth__sb_free(&t);
			}
			sb_lit(b, "</text>\n");
			drawn++;
			break;
		}
		aieth__sb_free(&combo);
	}
}

static void chart(sbuf *b, const curves *c, jobj *s, size_t ax, int fig, int standalone)
{
	frame f;
	size_t i, rows = (c->nl + 1) / 2;
	int one_txn = 1, h = PT + PH + 44 + (int)rows * 16 + 50;
	for (i = 1; i < c->nl; i++)
		if (strcmp(c->l[i].txn, c->l[0].txn))
			one_txn = 0;
	make_frame(c, &f);
	if (standalone)
		sb_lit(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	aieth__sb_printf(b,
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" "
			 "font-size=\"12\" class=\"chart curve %s\">\n<title>",
			 W, h, W, h, aieth__rv_fig_name(fig));
	aieth__rv_esc(b, aieth__rj_gets(s, "name"));
	aieth__sb_printf(b, ": %s vs ", fig_title(fig));
	aieth__rv_esc(b, c->axis);
	aieth__sb_printf(
		b,
		"</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
		"<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">",
		W, h);
	aieth__rv_esc_cut(b, aieth__rj_gets(s, "name"), 60);
	aieth__sb_printf(b, ": %s vs ", fig_title(fig));
	aieth__rv_esc_cut(b, c->axis, 60);
	sb_lit(b, "</text>\n");
	axes_draw(b, c, &f);
	for (i = 0; i < c->nl; i++)
		line_draw(b, c, &f, i, one_txn);
	if (fig == RV_FIG_THROUGHPUT)
		knees_draw(b, c, &f, s, ax);
	for (i = 0; i < c->nl; i++) { /* the legend, two columns */
		int x = 8 + (int)(i % 2) * (W / 2), y = PT + PH + 50 + (int)(i / 2) * 16;
		aieth__sb_printf(b,
				 "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
				 "stroke-width=\"2\"%s/><text x=\"%d\" y=\"%d\" font-size=\"11\">",
				 x, y - 4, x + 20, y - 4, palette[i % NPAL],
				 i >= NPAL ? " stroke-dasharray=\"2,2\"" : "", x + 26, y);
		line_label(b, c, &c->l[i], one_txn, 56);
		sb_lit(b, "</text>\n");
	}
	aieth__sb_printf(b, "<text x=\"8\" y=\"%d\" font-size=\"10\" fill=\"#546e7a\">",
			 PT + PH + 50 + (int)rows * 16 + 4);
	aieth__sb_printf(b, "%sdashed: threshold; red ring: failed point%s</text>\n",
			 fig == RV_FIG_THROUGHPUT ? "band: min..max over runs; " : "",
			 fig == RV_FIG_THROUGHPUT ? "; dotted vertical: knee" : "");
	aieth__sb_printf(b, "<text x=\"8\" y=\"%d\" font-size=\"10\" fill=\"#546e7a\">",
			 PT + PH + 50 + (int)rows * 16 + 18);
	if (c->more)
		aieth__sb_printf(
			b, "%s%zu more lines not drawn (channels or value combinations past %d); ",
			c->more >= MORE_MAX ? "at least " : "", c->more, RV_CURVE_LINES);
	if (c->sampled)
		aieth__sb_printf(
			b,
			"lines of more than %d points drawn with %d evenly chosen and their "
			"failed points; ",
			RV_CURVE_POINTS, RV_CURVE_POINTS);
	sb_lit(b, "</text>\n</svg>\n");
}

int aieth__rv_svg_curve(sbuf *b, jobj *tests, jobj *s, size_t ax, int fig, int standalone)
{
	curves c;
	int rc = 0;
	memset(&c, 0, sizeof c);
	if (!aieth__rv_axis_varies(s, ax) || fig < 0 || fig >= RV_NUM_FIGS)
		return 0;
	aieth__rv_curves_build(&c, tests, s, ax, fig);
	if (c.oom)
		rc = -1;
	else if (c.nl) {
		chart(b, &c, s, ax, fig, standalone);
		rc = 1;
	}
	aieth__rv_curves_free(&c);
	return rc;
}
