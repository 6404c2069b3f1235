/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - run_test calibrate: fit the emulated board's timing
 * parameters to the counters a board reported for the same descriptions.
 * Each candidate is a temporary board file (the base one with the values
 * replaced) and one emulated run of every description; the search itself is
 * calibrate_search.c, the inputs' checks calibrate_check.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_model.h"
#include "runner/calibrate_impl.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"

static void start_values(const aieth_board_info *bi, int64_t *x)
{
	x[0] = bi->func_memory.read_latency_cycles;
	x[1] = bi->func_memory.write_latency_cycles;
	x[2] = bi->func_memory.loop_overhead_cycles;
	x[3] = bi->counter_edges.tx_first_cycles;
	x[4] = bi->counter_edges.tx_last_cycles;
	x[5] = bi->counter_edges.rx_first_cycles;
	x[6] = bi->counter_edges.rx_last_cycles;
	x[7] = bi->preload_latency_cycles;
}

int aieth_calib_new(aieth_calib **out, const char *board, const char *data_dir)
{
	aieth_calib *c;
	aieth_board *b = NULL;
	const char *tmp = getenv("TMPDIR");
	char *path = NULL, *text = NULL;
	size_t len = 0, nl;
	int rc;
	aieth__error_clear();
	if (!out || !board || !*board)
		return aieth__fail(AIETH_EINVAL, "aieth_calib_new: NULL argument");
	*out = NULL;
	if ((rc = aieth_board_load(&b, board, data_dir)))
		return rc;
	c = calloc(1, sizeof *c);
	if (!c) {
		aieth_board_free(b);
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	start_values(aieth_board_get_info(b), c->x0);
	memcpy(c->x, c->x0, sizeof c->x);
	c->board_name = aieth__strdup(aieth_board_get_info(b)->name);
	c->pl_clock_MHz = (double)aieth_board_get_info(b)->pl_clock_hz / 1e6;
	aieth_board_free(b);
	/* The loader's rule: a path, or a name under DATA_DIR/platforms. */
	nl = strlen(board);
	if (strchr(board, '/') || (nl >= 5 && !strcmp(board + nl - 5, ".json"))) {
		path = aieth__strdup(board);
	} else {
		char *pdir = aieth__path_join(aieth__data_dir(data_dir), "platforms");
		path = pdir ? malloc(strlen(pdir) + nl + 7) : NULL;
		if (path)
			sprintf(path, "%s/%s.json", pdir, board);
		free(pdir);
	}
	c->data_dir = data_dir ? aieth__strdup(data_dir) : NULL;
	if (!path || !c->board_name || (data_dir && !c->data_dir)) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto fail;
	}
	if ((rc = aieth__read_file(path, CAL_BOARD_MAX_FILE, &text, &len)) ||
	    (rc = aieth__jstrict_parse_object(path, text, len, CAL_BOARD_MAX_FILE, &c->base)))
		goto fail;
	/* A folder of our own for the candidate board file and "save" files. */
	if (!tmp || !*tmp)
		tmp = "/tmp";
	c->tmpdir = malloc(strlen(tmp) + 32);
	if (!c->tmpdir) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto fail;
	}
	sprintf(c->tmpdir, "%s/aieth-calib-XXXXXX", tmp);
	if (!mkdtemp(c->tmpdir)) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot create a temporary folder: %s", c->tmpdir,
				 strerror(errno));
		free(c->tmpdir);
		c->tmpdir = NULL;
		goto fail;
	}
	c->tmpboard = aieth__path_join(c->tmpdir, "board.json");
	if (!c->tmpboard) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto fail;
	}
	free(path);
	free(text);
	*out = c;
	return AIETH_OK;
fail:
	free(path);
	free(text);
	aieth_calib_free(c);
	return rc;
}

void aieth_calib_free(aieth_calib *c)
{
	size_t i;
	if (!c)
		return;
	/* the board file and whatever the runs saved to relative paths */
	if (c->tmpdir)
		aieth__remove_tree(c->tmpdir);
	for (i = 0; i < c->npairs; i++) {
		free(c->pairs[i].spec);
		free(c->pairs[i].report);
	}
	for (i = 0; i < c->nvals; i++)
		free(c->vals[i].label);
	free(c->pairs);
	free(c->vals);
	free(c->tmpboard);
	free(c->tmpdir);
	free(c->board_name);
	free(c->data_dir);
	if (c->base)
		json_object_put(c->base);
	free(c);
}

/* Run every description with x; the values land in vals[].emu. Returns the
 * cost (sum of relative errors), HUGE_VAL when a run did not finish. */
static double evaluate(aieth_calib *c, const int64_t *x, int *stop)
{
	size_t p;
	double cost = 0;
	int rc;
	if ((rc = aieth__cal_write_board(c, x, c->tmpboard))) {
		*stop = rc;
		return HUGE_VAL;
	}
	c->runs++;
	for (p = 0; p < c->npairs; p++) {
		aieth_report *r = NULL;
		if ((rc = aieth__cal_run(c, c->pairs[p].spec, &r))) {
			*stop = rc;
			return HUGE_VAL;
		}
		if (aieth__cal_read_values(c, p, json_object_array_get_idx(r->tests, 0)))
			cost = HUGE_VAL;
		aieth_report_free(r);
	}
	if (cost == 0) {
		size_t i;
		for (i = 0; i < c->nvals; i++)
			cost += aieth__cal_rel_err(c->vals[i].emu, c->vals[i].board);
	}
	return cost;
}

static double cost_fn(void *ctx, const int64_t *x, int *stop) { return evaluate(ctx, x, stop); }

static void progress_fn(void *ctx, unsigned evals, double cost, const int64_t *x)
{
	aieth_calib *c = ctx;
	char line[400];
	int n;
	size_t i;
	if (!c->progress)
		return;
	n = snprintf(line, sizeof line, "calibrate: run %u: error %.3f %% at", evals,
		     c->nvals ? 100 * cost / (double)c->nvals : 0.0);
	for (i = 0; i < CAL_NPARAM && n > 0 && (size_t)n < sizeof line; i++)
		n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lld",
			      aieth__cal_params[i].key, (long long)x[i]);
	c->progress(c->progress_ctx, line);
}

int aieth_calib_fit(aieth_calib *c, unsigned max_runs,
		    void (*progress)(void *ctx, const char *line), void *ctx)
{
	cal_search_cfg cfg;
	int stop = 0;
	size_t i;
	aieth__error_clear();
	if (!c || !max_runs)
		return aieth__fail(AIETH_EINVAL, "aieth_calib_fit: %s",
				   c ? "max_runs is 0" : "NULL argument");
	if (!c->npairs)
		return aieth__fail(AIETH_EINVAL, "calibrate: no description and report pair");
	c->progress = progress;
	c->progress_ctx = ctx;
	/* Before: the base values. */
	c->cost_before = evaluate(c, c->x0, &stop);
	if (stop)
		return stop;
	for (i = 0; i < c->nvals; i++)
		c->vals[i].before = c->vals[i].emu;
	memset(&cfg, 0, sizeof cfg);
	cfg.n = CAL_NPARAM;
	for (i = 0; i < CAL_NPARAM; i++) {
		cfg.lo[i] = aieth__cal_params[i].lo;
		cfg.hi[i] = aieth__cal_params[i].hi;
	}
	cfg.max_evals = max_runs;
	cfg.progress = progress_fn;
	memcpy(c->x, c->x0, sizeof c->x);
	aieth__cal_search(&cfg, c->x, cost_fn, c, &c->evals);
	/* After: run the fitted values once more for the table. */
	c->cost_after = evaluate(c, c->x, &stop);
	if (stop)
		return stop;
	for (i = 0; i < c->nvals; i++)
		c->vals[i].after = c->vals[i].emu;
	c->fitted = 1;
	return AIETH_OK;
}

int aieth_calib_write_board(const aieth_calib *c, const char *path)
{
	aieth_calib *m = (aieth_calib *)c; /* the base tree is reused as scratch */
	struct stat st;
	if (!c || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_calib_write_board: NULL argument");
	if (!c->fitted)
		return aieth__fail(AIETH_ESTATE, "aieth_calib_write_board: nothing fitted yet");
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return aieth__fail(AIETH_EINVAL,
				   "%s: exists and is not a regular file; the fitted "
				   "board file is never written over one",
				   path);
	return aieth__cal_write_board(m, c->x, path);
}
