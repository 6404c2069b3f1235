/* SPDX-License-Identifier: MIT */
/*
 * report_curve.h - the lines of a sweep's curve, shared by the file that
 * collects them (report_curve.c) and the one that draws them
 * (report_curve_svg.c); not installed.
 */
#ifndef AIETH_REPORT_CURVE_H
#define AIETH_REPORT_CURVE_H

#include "report/report_visual.h"

typedef struct json_object jobj;

typedef struct {
	double x, y, lo, hi, thr;
	size_t pt;
	int band, has_thr, bad;
} cpt;

typedef struct {
	char *txn, *item, *combo;
	cpt *p;
	size_t n, cap;
	int sampled;
} cline;

/* distinct lines past the drawn ones are counted up to this many */
#define MORE_MAX 10000

typedef struct {
	cline l[RV_CURVE_LINES];
	size_t nl, more, total_pts;
	jobj *seen; /* line key -> its index, or -1: not drawn */
	int oom, sampled;
	/* the axis */
	const char *axis;
	jobj *values;
	int cat, logx;
} curves;

/* A value as written in a point's name: numbers as numbers, words as is. */
void aieth__rv_val_text(sbuf *b, jobj *v);
int aieth__rv_val_eq(jobj *a, jobj *b);
/* "a=1,b=x": the values in vals of sweep s's axes other than ax, in the
 * axes' order ("" in a zip sweep: its axes move together). */
void aieth__rv_combo_key(sbuf *b, jobj *s, size_t ax, jobj *vals);
/* x of a value on c's axis (categories: the value's place in the list). */
int aieth__rv_x_of(const curves *c, jobj *v, double *x);
/* The lines of figure fig of sweep s over axis ax (c zeroed; c->oom when
 * memory ran out); aieth__rv_curves_free after. */
void aieth__rv_curves_build(curves *c, jobj *tests, jobj *s, size_t ax, int fig);
void aieth__rv_curves_free(curves *c);

#endif
