/* SPDX-License-Identifier: MIT */
/*
 * history_html.c - the trend page (run_test history html): one
 * self-contained HTML file, an inline SVG per test, board, backend and
 * figure: the value over the last runs, the gate's band around it, the
 * thresholds, failed runs and regressions marked, each point a link to its
 * report. No script, nothing fetched. Its size is bounded: at most
 * max_points runs per series and MAX_SERIES series are drawn (said on the
 * page).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "report/report_visual.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/sbuf.h"

#define MAX_SERIES 2000
#define W 760
#define H 230
#define ML 78
#define MR 12
#define MT 14
#define MB 44

typedef struct {
	double v, t, thr_min, thr_max, tol, mad;
	int has, pass;
	char *label, *key, *path, *started;
} pt;

typedef struct {
	pt *p;
	size_t n, cap;
} series;

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#212121;background:#fafafa}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #cfd8dc}"
	"h3{font-size:1em;margin:.8em 0 .2em}.note{color:#546e7a}"
	"svg{display:block;border:1px solid #cfd8dc;background:#fff;max-width:100%;height:auto}"
	".leg span{margin-right:1.2em}";

static void series_clear(series *s)
{
	size_t i;
	for (i = 0; i < s->n; i++) {
		free(s->p[i].label);
		free(s->p[i].key);
		free(s->p[i].path);
		free(s->p[i].started);
	}
	s->n = 0;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	return s ? s : "";
}

static double dcol(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int add_pt(series *s, sqlite3_stmt *st)
{
	pt *p;
	if (AIETH__GROW(s->p, s->cap, s->n + 1, 64, 0))
		return aieth__fail(AIETH_ENOMEM, "history html: out of memory");
	p = &s->p[s->n];
	memset(p, 0, sizeof *p);
	p->v = dcol(st, 9);
	p->has = isfinite(p->v);
	p->thr_min = dcol(st, 10);
	p->thr_max = dcol(st, 11);
	p->tol = dcol(st, 12);
	p->mad = dcol(st, 13);
	p->pass = !strcmp(col(st, 14), "pass");
	p->t = dcol(st, 15);
	p->label = strdup(col(st, 16));
	p->key = strdup(col(st, 17));
	p->path = strdup(col(st, 18));
	p->started = strdup(col(st, 19));
	s->n++;
	if (!p->label || !p->key || !p->path || !p->started)
		return aieth__fail(AIETH_ENOMEM, "history html: out of memory");
	return 0;
}

/* The gate a point would have met: the band of the last K passing points
 * before it (0 when there are too few). */
static int band_at(const series *s, size_t j, double def_pct, hist_band *b)
{
	double v[AIETH_HISTORY_GATE_LAST_DEFAULT], m[AIETH_HISTORY_GATE_LAST_DEFAULT];
	size_t n = 0, i = j;
	while (i-- > 0 && n < AIETH_HISTORY_GATE_LAST_DEFAULT) {
		if (!s->p[i].pass || !s->p[i].has)
			continue;
		v[n] = s->p[i].v;
		m[n] = isfinite(s->p[i].mad) ? s->p[i].mad : 0;
		n++;
	}
	if (n < AIETH_HISTORY_GATE_MIN_RUNS)
		return 0;
	aieth__hist_band_of(b, v, m, n, isfinite(s->p[j].tol) ? s->p[j].tol : def_pct);
	return isfinite(b->allowed);
}

/* A link to a run's report, relative to the page's folder: report.html
 * beside the recorded report.json when it is there, else the report
 * itself. Only absolute recorded paths are linked; every byte outside a
 * plain set is percent-encoded, and the link starts with "./" or "../",
 * never a scheme. */
static int put_link(sbuf *b, const char *page_dir, const char *path)
{
	char target[PATH_MAX + 16], rel[2 * PATH_MAX];
	const char *p, *q, *slash;
	size_t n, common = 0, r = 0;
	struct stat st;
	if (!path || path[0] != '/' || strlen(path) >= PATH_MAX)
		return 0;
	snprintf(target, sizeof target, "%s", path);
	slash = strrchr(target, '/');
	if (slash && !strcmp(slash + 1, "report.json")) {
		snprintf(target + (slash + 1 - target),
			 sizeof target - (size_t)(slash + 1 - target), "report.html");
		if (stat(target, &st) || !S_ISREG(st.st_mode))
			snprintf(target, sizeof target, "%s", path);
	}
	/* the common leading folders of page_dir and target */
	for (p = page_dir, q = target; *p && *p == *q; p++, q++)
		if (*p == '/')
			common = (size_t)(p - page_dir);
	if (!*p && *q == '/')
		common = (size_t)(p - page_dir);
	r += (size_t)snprintf(rel, sizeof rel, "./");
	for (p = page_dir + common; *p; p++)
		if (*p == '/' && r + 3 < sizeof rel)
			r += (size_t)snprintf(rel + r, sizeof rel - r, "../");
	q = target + common + (target[common] == '/');
	n = strlen(q);
	if (r + 3 * n + 1 > sizeof rel)
		return 0;
	for (; *q; q++) {
		unsigned char c = (unsigned char)*q;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/._-~", c))
			rel[r++] = (char)c;
		else
			r += (size_t)snprintf(rel + r, sizeof rel - r, "%%%02X", c);
	}
	rel[r] = '\0';
	aieth__sb_printf(b, "<a href=\"%s\">", rel);
	return 1;
}

static void x_label(sbuf *b, const pt *p, double x, const char *anchor)
{
	aieth__sb_printf(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"%s\">", x,
			 H - 24, anchor);
	aieth__rv_esc(b, *p->label ? p->label : p->started);
	sb_lit(b, "</text>");
}

static void draw(sbuf *b, const series *s, size_t first, double def_pct, const char *page_dir,
		 int metric, size_t *regress)
{
	size_t i, n = s->n - first, k;
	double lo = INFINITY, hi = -INFINITY, y0, y1, pw = W - ML - MR, ph = H - MT - MB;
	hist_band *bands = calloc(n ? n : 1, sizeof *bands);
	char *has_band = calloc(n ? n : 1, 1);
	const pt *last = &s->p[s->n - 1];
	int dec = metric == HM_THROUGHPUT ? 2 : 0;
	if (!bands || !has_band) {
		free(bands);
		free(has_band);
		aieth__sb_put(b, NULL, SB_DOC_MAX); /* the page fails as out of memory */
		return;
	}
	for (i = 0; i < n; i++) {
		const pt *p = &s->p[first + i];
		if (p->has) {
			lo = fmin(lo, p->v);
			hi = fmax(hi, p->v);
		}
		if ((has_band[i] = (char)band_at(s, first + i, def_pct, &bands[i]))) {
			lo = fmin(lo, bands[i].median - bands[i].allowed);
			hi = fmax(hi, bands[i].median + bands[i].allowed);
		}
	}
	if (isfinite(last->thr_min))
		lo = fmin(lo, last->thr_min), hi = fmax(hi, last->thr_min);
	if (isfinite(last->thr_max))
		lo = fmin(lo, last->thr_max), hi = fmax(hi, last->thr_max);
	if (!isfinite(lo))
		lo = 0, hi = 1;
	if (hi - lo < 1e-9 * fmax(1, fabs(hi)))
		lo -= fmax(1, fabs(lo) * 0.05), hi += fmax(1, fabs(hi) * 0.05);
	y0 = lo - (hi - lo) * 0.08;
	y1 = hi + (hi - lo) * 0.08;
#define XS(i) (ML + (n > 1 ? pw * (double)(i) / (double)(n - 1) : pw / 2))
#define YS(v) (MT + ph * (1 - ((v)-y0) / (y1 - y0)))
	aieth__sb_printf(b,
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" role=\"img\">",
			 W, H, W, H);
	aieth__sb_printf(b,
			 "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#90a4ae\"/>"
			 "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#90a4ae\"/>",
			 ML, MT, ML, H - MB, ML, H - MB, W - MR, H - MB);
	for (k = 0; k <= 4; k++) {
		double v = y0 + (y1 - y0) * (double)k / 4;
		aieth__sb_printf(
			b,
			"<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.*f</text>"
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eceff1\"/>",
			ML - 4, YS(v) + 3, dec, v, ML + 1, YS(v), W - MR, YS(v));
	}
	/* the band: one polygon per stretch of points that had a baseline */
	for (i = 0; i < n;) {
		size_t j = i, e;
		if (!has_band[i]) {
			i++;
			continue;
		}
		while (j < n && has_band[j])
			j++;
		sb_lit(b, "<polygon fill=\"#c8e6c9\" fill-opacity=\"0.7\" points=\"");
		for (e = i; e < j; e++)
			aieth__sb_printf(b, "%.1f,%.1f ", XS(e),
					 YS(bands[e].median + bands[e].allowed));
		for (e = j; e-- > i;)
			aieth__sb_printf(b, "%.1f,%.1f ", XS(e),
					 YS(bands[e].median - bands[e].allowed));
		sb_lit(b, "\"><title>the gate's band: median of the last passing runs ± "
			  "tolerance and noise</title></polygon>");
		i = j;
	}
	if (isfinite(last->thr_min))
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#8e24aa\" "
			"stroke-dasharray=\"6,4\"><title>threshold: min %.*f</title></line>",
			ML, YS(last->thr_min), W - MR, YS(last->thr_min), dec, last->thr_min);
	if (isfinite(last->thr_max))
		aieth__sb_printf(
			b,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#8e24aa\" "
			"stroke-dasharray=\"6,4\"><title>threshold: max %.*f</title></line>",
			ML, YS(last->thr_max), W - MR, YS(last->thr_max), dec, last->thr_max);
	sb_lit(b, "<polyline fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"");
	for (i = 0; i < n; i++)
		if (s->p[first + i].has)
			aieth__sb_printf(b, "%.1f,%.1f ", XS(i), YS(s->p[first + i].v));
	sb_lit(b, "\"/>");
	for (i = 0; i < n; i++) {
		const pt *p = &s->p[first + i];
		int reg = 0, linked;
		double x = XS(i), y;
		if (!p->has)
			continue;
		y = YS(p->v);
		if (has_band[i]) {
			double d = p->v - bands[i].median;
			reg = aieth__hist_higher_better(metric) ? d < -bands[i].allowed
								: d > bands[i].allowed;
		}
		*regress += (size_t)reg;
		linked = put_link(b, page_dir, p->path);
		if (!p->pass) /* a cross, with a hit area that holds the title */
			aieth__sb_printf(
				b,
				"<g><path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#ff6d00\" "
				"stroke-width=\"2.5\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
				"fill-opacity=\"0\"/>",
				x - 4, y - 4, x, y);
		else
			aieth__sb_printf(b,
					 "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" "
					 "stroke=\"%s\" stroke-width=\"%d\">",
					 x, y, reg ? 5 : 3, reg ? "#d50000" : "#1565c0",
					 reg ? "#000" : "none", reg ? 1 : 0);
		sb_lit(b, "<title>");
		aieth__rv_esc(b, p->started);
		if (*p->label) {
			sb_lit(b, " ");
			aieth__rv_esc(b, p->label);
		}
		aieth__sb_printf(b, ": %.*f%s%s, run ", dec, p->v, p->pass ? "" : " (test failed)",
				 reg ? " (regression)" : "");
		aieth__rv_esc(b, p->key);
		sb_lit(b, "</title>");
		if (p->pass)
			sb_lit(b, "</circle>");
		else
			sb_lit(b, "</g>");
		if (linked)
			sb_lit(b, "</a>");
	}
	x_label(b, &s->p[first], XS(0), n > 1 ? "start" : "middle");
	if (n > 2)
		x_label(b, &s->p[first + n / 2], XS(n / 2), "middle");
	if (n > 1)
		x_label(b, last, XS(n - 1), "end");
	aieth__sb_printf(b,
			 "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" "
			 "fill=\"#546e7a\">runs in order of their start (label, else time); %zu "
			 "drawn</text></svg>\n",
			 ML + (W - ML - MR) / 2, H - 8, n);
#undef XS
#undef YS
	free(bands);
	free(has_band);
}

/* the columns that name a series */
#define KEY_COLS 9

static int same_series(sqlite3_stmt *st, char **prev)
{
	int i, same = 1;
	for (i = 0; i < KEY_COLS; i++)
		if (!prev[i] || strcmp(prev[i], col(st, i)))
			same = 0;
	return same;
}

static int remember(sqlite3_stmt *st, char **prev)
{
	int i;
	for (i = 0; i < KEY_COLS; i++) {
		free(prev[i]);
		if (!(prev[i] = strdup(col(st, i))))
			return aieth__fail(AIETH_ENOMEM, "history html: out of memory");
	}
	return 0;
}

static void heading(sbuf *b, char **k, int new_test)
{
	if (new_test) {
		sb_lit(b, "<h2>");
		aieth__rv_esc(b, k[0]);
		sb_lit(b, " <span class=\"note\">");
		aieth__rv_esc(b, k[1]);
		sb_lit(b, ", ");
		aieth__rv_esc(b, k[2]);
		sb_lit(b, "</span></h2>\n");
	}
	sb_lit(b, "<h3>");
	aieth__rv_esc(b, k[5]);
	if (!strcmp(k[3], "channel") || !strcmp(k[3], "latency")) {
		sb_lit(b, " ");
		aieth__rv_esc(b, k[6]);
	}
	if (!strcmp(k[3], "latency")) {
		sb_lit(b, " &#8594; ");
		aieth__rv_esc(b, k[7]);
	}
	sb_lit(b, ": ");
	aieth__rv_esc(b, k[8]);
	sb_lit(b, "</h3>\n");
}

static int flush_series(sbuf *b, series *s, char **k, int new_test, unsigned max_points,
			const char *page_dir, size_t *nseries, size_t *regress)
{
	int metric = 0, i;
	if (!s->n)
		return 0;
	if (++*nseries <= MAX_SERIES) {
		for (i = 0; i < HM_COUNT; i++)
			if (!strcmp(k[8], aieth__hist_metric_name[i]))
				metric = i;
		heading(b, k, new_test);
		if (s->n > max_points)
			aieth__sb_printf(b, "<p class=\"note\">the last %u of %zu runs</p>",
					 max_points, s->n);
		draw(b, s, s->n > max_points ? s->n - max_points : 0, AIETH_REGRESSION_DEFAULT_PCT,
		     page_dir, metric, regress);
	}
	series_clear(s);
	return 0;
}

static void page_dir_of(const char *path, char *out, size_t n)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (!realpath(dir, out))
		snprintf(out, n, "%s", dir);
	if (!strcmp(out, "/"))
		out[0] = '\0'; /* the root: every target starts at its "/" */
}

int aieth_history_write_html(aieth_history *h, const char *path, unsigned int max_points)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	sqlite3_stmt *st = NULL;
	series s = {0};
	char *prev[KEY_COLS] = {0}, page_dir[PATH_MAX];
	size_t nseries = 0, regress = 0, i;
	uint64_t runs = 0;
	int rc, step, new_test = 1;
	aieth__error_clear();
	if (!h || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_history_write_html: NULL argument");
	if (!max_points)
		max_points = AIETH_HISTORY_HTML_POINTS_DEFAULT;
	if (max_points > 100000)
		return aieth__fail(AIETH_EINVAL, "history html: %u points: at most 100000",
				   max_points);
	if ((rc = aieth_history_num_runs(h, &runs)))
		return rc;
	page_dir_of(path, page_dir, sizeof page_dir);
	if (sqlite3_prepare_v2(
		    h->db,
		    "SELECT t.name, t.board, t.backend, f.kind, f.txn_index, f.txn, f.a, f.b,"
		    " f.metric, f.value, f.thr_min, f.thr_max, f.tol_pct, f.stat_mad, t.status,"
		    " r.t, r.label, r.run_key, r.report_path, r.started_at"
		    " FROM figures f JOIN tests t ON f.test=t.id JOIN runs r ON t.run=r.id"
		    " ORDER BY t.name, t.board, t.backend, f.txn_index, f.txn, f.kind, f.a, f.b,"
		    " f.metric, r.t, r.id",
		    -1, &st, NULL))
		return aieth__hist_db_fail(h, "reading its figures");
	sb_lit(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<title>aieth trends</title><style>");
	sb_lit(&b, css);
	sb_lit(&b, "</style></head><body>\n<h1>aieth trends</h1>\n<p class=\"note\">");
	aieth__rv_esc(&b, h->path);
	aieth__sb_printf(
		&b,
		": %llu runs. Each chart draws the last %u runs of its series (at most %d "
		"series on the page), in order of their start, labelled with --label (else "
		"the time).</p>\n",
		(unsigned long long)runs, max_points, MAX_SERIES);
	aieth__sb_printf(
		&b,
		"<p class=\"leg\"><span style=\"color:#1e88e5\">&#9679; passing run</span>"
		"<span style=\"color:#c62828\">&#9679; regression (outside the band)</span>"
		"<span style=\"color:#ef6c00\">&#10005; test failed</span>"
		"<span style=\"color:#2e7d32\">&#9632; the gate's band: median of the last "
		"%d passing runs &#177; (tolerance, default %g %%, + 3 &#215; 1.4826 &#215; "
		"MAD), from %d runs</span><span style=\"color:#8e24aa\">- - threshold</span>"
		"</p>\n",
		AIETH_HISTORY_GATE_LAST_DEFAULT, AIETH_REGRESSION_DEFAULT_PCT,
		AIETH_HISTORY_GATE_MIN_RUNS);
	rc = 0;
	while ((step = sqlite3_step(st)) == SQLITE_ROW && !rc) {
		if (!same_series(st, prev)) {
			int same_test = prev[0] && !strcmp(prev[0], col(st, 0)) &&
					!strcmp(prev[1], col(st, 1)) &&
					!strcmp(prev[2], col(st, 2));
			if ((rc = flush_series(&b, &s, prev, new_test, max_points, page_dir,
					       &nseries, &regress)))
				break;
			new_test = !same_test;
			if ((rc = remember(st, prev)))
				break;
		}
		rc = add_pt(&s, st);
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = aieth__hist_db_fail(h, "reading its figures");
	if (!rc)
		rc = flush_series(&b, &s, prev, new_test, max_points, page_dir, &nseries, &regress);
	sqlite3_finalize(st);
	series_clear(&s);
	free(s.p);
	for (i = 0; i < KEY_COLS; i++)
		free(prev[i]);
	if (rc) {
		aieth__sb_free(&b);
		return rc;
	}
	if (!runs)
		sb_lit(&b, "<p>No runs recorded yet.</p>\n");
	if (nseries > MAX_SERIES)
		aieth__sb_printf(
			&b, "<p class=\"note\">%zu more series are not drawn (at most %d).</p>\n",
			nseries - MAX_SERIES, MAX_SERIES);
	aieth__sb_printf(&b, "<p class=\"note\">%zu series, %zu points outside their band.</p>\n",
			 nseries, regress);
	sb_lit(&b, "</body></html>\n");
	return aieth__sb_write_file(&b, path);
}
