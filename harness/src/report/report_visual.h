/* SPDX-License-Identifier: MIT */
/*
 * report_visual.h - what the writers of the pages a person looks at share
 * (report_html.c, report_svg.c, report_trace.c): escaping, safe file names,
 * the figures of a channel as drawn, and the two charts of a transaction.
 */
#ifndef AIETH_REPORT_VISUAL_H
#define AIETH_REPORT_VISUAL_H

#include <json-c/json.h>
#include <stddef.h>

#include "aieth.h"
#include "util/sbuf.h"

/* Bounds of report.html: charts for the first RV_MAX_CHARTS transactions
 * of a run, table rows for the first RV_MAX_ROWS channels; the rest is
 * named in a note (report.json has everything). Standalone SVG files
 * follow the same chart bound. */
#define RV_MAX_CHARTS 64
#define RV_MAX_ROWS 4096

/* Text for HTML and XML, in content and in quoted attributes: & < > " '
 * become references; control characters, invalid UTF-8 and the
 * non-characters XML forbids become '?'. */
void aieth__rv_esc(sbuf *b, const char *s);

/* A JSON string literal (quotes included): " and \ escaped, control
 * characters as \u00XX, invalid UTF-8 as '?' (the file stays valid JSON). */
void aieth__rv_json(sbuf *b, const char *s);

/* s escaped as aieth__rv_esc, cut to at most max (< 256) bytes on a character
 * boundary ("..." marks the cut): long names keep a chart's layout. */
void aieth__rv_esc_cut(sbuf *b, const char *s, size_t max);

/* A file-name part: [A-Za-z0-9._-] kept, everything else '_', at most n-1
 * bytes, never empty, never starting with '.'. */
void aieth__rv_file_part(char *dst, size_t n, const char *s);

/* The test's PL clock in MHz (0: unknown, no board was loaded). */
double aieth__rv_clock_mhz(struct json_object *test);

/* One channel as drawn: start and end cycles of its bar (finished: first
 * and last cycle; unfinished: its delay up to where it stalled). */
typedef struct {
	int finished;
	long long start, end;
	long long delay;
} rv_span;
void aieth__rv_channel_span(struct json_object *ch, rv_span *sp);

/* The transaction's last cycle worth drawing (>= 1). */
long long aieth__rv_txn_end(struct json_object *txn);

/* The charts of one transaction: per-channel throughput against the
 * channel's peak, and the timeline of its channels' first..last cycles
 * (axis in cycles and in microseconds at clock_mhz when known).
 * standalone: an XML declaration first (a file of its own). */
void aieth__rv_svg_throughput(sbuf *b, struct json_object *test, struct json_object *txn,
			      int standalone);
void aieth__rv_svg_timeline(sbuf *b, struct json_object *test, struct json_object *txn,
			    int standalone);

/* A test's sensors (report_sensors.c): a table row and a line chart of
 * at most RV_SENSOR_POINTS points for each of its first RV_SENSOR_ROWS
 * sensors, and the notes. */
#define RV_SENSOR_ROWS 64
#define RV_SENSOR_POINTS 120
void aieth__rv_html_sensors(sbuf *b, struct json_object *test);

/* --- repeats and sweeps (campaigns): report_stats.c, report_dist.c,
 * report_curve.c, report_curve_svg.c, report_sweep_html.c------------ */

/* Bounds: the page has a section for the first RV_MAX_SECTIONS tests and
 * for up to RV_MAX_SECTIONS more that did not pass; the test index lists
 * RV_MAX_INDEX (+ as many not passing). A sweep's points table lists its
 * first RV_SWEEP_ROWS points. Charts: RV_MAX_SWEEPS sweeps, RV_MAX_AXES
 * axes each; a curve chart draws RV_CURVE_LINES lines and each line at
 * most RV_CURVE_POINTS points (evenly down-sampled, the first and last
 * kept); a distribution draws RV_DIST_DOTS runs of a channel as dots. */
#define RV_MAX_SECTIONS 200
#define RV_MAX_INDEX 1000
#define RV_SWEEP_ROWS 200
#define RV_SWEEP_COLS 8
#define RV_MAX_SWEEPS 16
#define RV_MAX_AXES 8
#define RV_CURVE_LINES 16
#define RV_CURVE_POINTS 400
#define RV_DIST_DOTS 500

/* o's key when it is an array, else NULL; its length (0 for NULL). */
struct json_object *aieth__rv_arr(struct json_object *o, const char *key);
size_t aieth__rv_len(struct json_object *a);
/* A finite number at key (def when absent, null, not a number or not
 * finite); 1 when there was one. */
int aieth__rv_num(struct json_object *o, const char *key, double *out);

/* The statistics S of a figure (o.stats.<key>) when it has a numeric
 * median, min and max and not a runs list of fewer than 2, else NULL:
 * N = 1 has no stats. */
struct json_object *aieth__rv_stat(struct json_object *o, const char *key);
/* The spread of S in percent: mad / median x 100 (0 when the median is 0). */
double aieth__rv_spread_pct(struct json_object *s);
/* "5000.0 ±0.2 %": the median (prec decimals) and the spread (one
 * decimal), as the text table prints it. */
void aieth__rv_pm(sbuf *b, struct json_object *s, int prec);

/* The distribution of a repeated transaction's channels: per channel its
 * throughput over the measured runs (each run a dot, the min-max whisker,
 * the median +- MAD band, the median), as deviation from its median in
 * percent. aieth__rv_has_dist: any channel has stats. */
int aieth__rv_has_dist(struct json_object *txn);
void aieth__rv_svg_distribution(sbuf *b, struct json_object *test, struct json_object *txn,
				int standalone);

/* Sweeps: report.run.sweeps, bounded by RV_MAX_SWEEPS (0 when none). */
size_t aieth__rv_num_sweeps(struct json_object *run);
/* The figures of a curve chart. */
enum { RV_FIG_THROUGHPUT, RV_FIG_LATENCY, RV_FIG_CYCLES, RV_NUM_FIGS };
const char *aieth__rv_fig_name(int fig);
/* Axis ax of sweep s has at least 2 different values (else no curve). */
int aieth__rv_axis_varies(struct json_object *s, size_t ax);
/* One chart: figure fig of sweep s over its axis ax (tests: the report's);
 * returns 0 and nothing drawn when the sweep has no such figure (no
 * latency) or the axis one value, 1 when drawn, -1 out of memory. */
int aieth__rv_svg_curve(sbuf *b, struct json_object *tests, struct json_object *s, size_t ax,
			int fig, int standalone);
/* test's "sweep" object when it is a point of sweep s (the same name, and
 * the same spec when both say one), else NULL. */
struct json_object *aieth__rv_point_of(struct json_object *test, struct json_object *s);
/* A status word as a coloured badge (report_esc.c). */
void aieth__rv_badge(sbuf *b, const char *status);
/* The rows a table's bound left out, one row across its cols columns:
 * "N more WHAT: see WHERE" (report_esc.c). */
void aieth__rv_more_row(sbuf *b, int cols, size_t more, const char *what, const char *where);
/* A test's row opening, as the test index and the sweep points have it:
 * <tr>, first (a cell's text, raw, or NULL), the test's name (a link to
 * its section #tI when linked) and its status badge, cells left open for
 * the caller's columns. */
void aieth__rv_test_row(sbuf *b, const char *first, struct json_object *test, size_t i, int linked);
/* The standalone sweep charts in the folder dfd (dir: its path for
 * messages): sweep-<name>-<axis>-<figure>.svg. */
int aieth__rv_write_sweep_svgs(const aieth_report *r, int dfd, const char *dir);
/* The sweep sections of report.html. shown(i): the page has test i's
 * section (for links). */
void aieth__rv_html_sweeps(sbuf *b, const aieth_report *r, const unsigned char *shown);

#endif
