/* SPDX-License-Identifier: MIT */
/*
 * runner/sweep.h - parameter sweeps (docs/test-spec.md, "sweep"), not
 * installed. sweep_axes.c reads the axes (a description's "sweep" or
 * run_test's --sweep AXIS=LIST texts) and counts and names the points;
 * sweep.c checks them against the description and the board, runs every
 * point as one test of the report and records report.run.sweeps.
 */
#ifndef AIETH_RUNNER_SWEEP_H
#define AIETH_RUNNER_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define SWEEP_MAX_POINTS 100000u /* points of one sweep */
#define SWEEP_MAX_AXES 16u
#define SWEEP_AXIS_NAME_MAX 96u /* "<PLIO or graph>.<field or parameter>" */
#define SWEEP_WORD_MAX 64u      /* a word value ("perf", a PLIO name) */

/* One value of an axis, as written (text, for point names) and as a
 * number when it is one. */
typedef struct {
	char text[SWEEP_WORD_MAX + 8];
	int is_num;  /* a JSON number / a decimal number on the command line */
	int is_uint; /* ... a whole number >= 0 (u holds it) */
	uint64_t u;
	double num;
} sweep_val;

typedef enum {
	SWX_UNRESOLVED = 0,
	SWX_SIZE,     /* every channel's size */
	SWX_DELAY,    /* every channel's delay */
	SWX_REPLAY,   /* every channel's repetition */
	SWX_CHANNELS, /* each transaction keeps its first K channels per direction */
	SWX_MODE,     /* every transaction's mode */
	SWX_PLIO,     /* one PLIO's size, delay or replay (field) */
	SWX_GRAPH     /* a graph model's parameter */
} sweep_kind;

typedef struct {
	char name[SWEEP_AXIS_NAME_MAX + 1];
	sweep_kind kind;   /* set by sweep_resolve (sweep.c) */
	sweep_kind field;  /* SWX_PLIO: SWX_SIZE, SWX_DELAY or SWX_REPLAY */
	size_t target;     /* SWX_GRAPH: the graph's index */
	const char *param; /* SWX_GRAPH: the parameter (inside name) */
	sweep_val *v;
	size_t nv;
} sweep_axis;

typedef struct sweep_def_s {
	int zip;          /* 0: grid (every combination), 1: zip (paired) */
	char origin[320]; /* where it was written, for messages */
	sweep_axis ax[SWEEP_MAX_AXES];
	size_t nax;
} sweep_def;

/* sweep_axes.c */
/* A description's "sweep" value (what: the file, for messages). */
int aieth__rn_sweep_parse_json(const char *what, struct json_object *o, sweep_def **out);
/* run_test's --sweep texts: each "AXIS=LIST" is one axis of a grid, or
 * with zip of a zip (run_test --sweep-zip, aieth_run_opts.sweep_zip). */
int aieth__rn_sweep_parse_args(const char *const *items, size_t n, int zip, sweep_def **out);
/* "FROM..TO*TIMES", "FROM..TO+STEP", a number or a word, comma-separated,
 * appended to the axis (where: for messages). */
int aieth__rn_sweep_parse_list(const char *where, const char *list, sweep_axis *ax);
void aieth__rn_sweep_free(sweep_def *d);
/* The number of points, or an error naming the count when it is more than
 * SWEEP_MAX_POINTS (grid), or when a zip's axes differ in length. */
int aieth__rn_sweep_count(const sweep_def *d, size_t *points);
/* Point p's value index on each axis (idx: nax entries). Grid order: the
 * first axis varies slowest, the last fastest (nested loops in axis order). */
void aieth__rn_sweep_point(const sweep_def *d, size_t p, size_t *idx);
/* "base[axis=value,...]" into buf; the length it has (may be >= n). */
size_t aieth__rn_sweep_point_name(const sweep_def *d, const size_t *idx, const char *base,
				  char *buf, size_t n);

#endif
