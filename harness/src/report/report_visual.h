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
void rv_esc(sbuf *b, const char *s);

/* A JSON string literal (quotes included): " and \ escaped, control
 * characters as \u00XX, invalid UTF-8 as '?' (the file stays valid JSON). */
void rv_json(sbuf *b, const char *s);

/* A file-name part: [A-Za-z0-9._-] kept, everything else '_', at most n-1
 * bytes, never empty, never starting with '.'. */
void rv_file_part(char *dst, size_t n, const char *s);

/* The test's PL clock in MHz (0: unknown, no board was loaded). */
double rv_clock_mhz(struct json_object *test);

/* One channel as drawn: start and end cycles of its bar (finished: first
 * and last cycle; unfinished: its delay up to where it stalled). */
typedef struct {
	int finished;
	long long start, end;
	long long delay;
} rv_span;
void rv_channel_span(struct json_object *ch, rv_span *sp);

/* The transaction's last cycle worth drawing (>= 1). */
long long rv_txn_end(struct json_object *txn);

/* The charts of one transaction: per-channel throughput against the
 * channel's peak, and the timeline of its channels' first..last cycles
 * (axis in cycles and in microseconds at clock_mhz when known).
 * standalone: an XML declaration first (a file of its own). */
void rv_svg_throughput(sbuf *b, struct json_object *test, struct json_object *txn, int standalone);
void rv_svg_timeline(sbuf *b, struct json_object *test, struct json_object *txn, int standalone);

#endif
