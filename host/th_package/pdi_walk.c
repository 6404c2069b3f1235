/* SPDX-License-Identifier: MIT */
/*
 * pdi_walk.c - the --pdi CDO command walk beside the copy (pdi_walk.h).
 * The walker's problem lines are kept, not reported: the report callback
 * is the caller's (a CLI's printer, a server's session log) and is
 * called from the caller's thread only, as every other line of the run,
 * so it needs no lock and its lines keep their order. They are replayed
 * after the join, once the written file's table confirms the walked
 * range; bounded, and a walk with more lines is done again serially.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "th_package/pdi_walk.h"
#include "xclbin/pdi_format.h"

/* Lines kept (bytes); the walk's own problem count is far smaller. */
#define WALK_MAX_LINES (256u * 1024u)

static void keep_line(void *ctx, const char *line)
{
	aieth_pdi_walker *w = ctx;
	size_t n = strlen(line) + 1, cap;
	char *grown;
	if (w->overflow)
		return;
	if (w->len + n > WALK_MAX_LINES) {
		w->overflow = 1;
		return;
	}
	if (w->len + n > w->cap) {
		cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n)
			cap *= 2;
		if (!(grown = realloc(w->lines, cap))) {
			w->overflow = 1;
			return;
		}
		w->lines = grown, w->cap = cap;
	}
	memcpy(w->lines + w->len, line, n);
	w->len += n;
}

static void *walk_thread(void *arg)
{
	aieth_pdi_walker *w = arg;
	uint64_t size;
	if (aieth__copy_gate_size(w->gate, &size))
		return NULL; /* no copy: the caller walks, or writes nothing */
	/* reads come from mappings of the output: small reads (READ_MEM), as
	 * the serial walk on the written file reads */
	w->count = aieth__pdi_check(aieth__copy_gate_read, w->gate, size, w->what, w->board,
				    keep_line, w, AIETH_PDI_READ_MEM);
	w->walked = 1;
	return NULL;
}

int aieth__pdi_walk_start(aieth_pdi_walker *w, const char *what, const aieth_board *board)
{
	sigset_t all, old;
	int rc;
	memset(w, 0, sizeof *w);
	w->what = what, w->board = board;
	if (!(w->gate = aieth__copy_gate_new()))
		return -1;
	/* every signal blocked in the walker: they stay with the caller */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->th, NULL, walk_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		aieth__copy_gate_free(w->gate);
		w->gate = NULL;
		return -1;
	}
	return 0;
}

void aieth__pdi_walk_join(aieth_pdi_walker *w)
{
	aieth__copy_gate_end(w->gate);
	pthread_join(w->th, NULL);
}

int aieth__pdi_walk_result(const aieth_pdi_walker *w, uint64_t base, uint64_t size, size_t *count)
{
	uint64_t b, n;
	if (!w->walked || w->overflow || aieth__copy_gate_result(w->gate, &b, &n) || b != base ||
	    n != size)
		return -1;
	*count = w->count;
	return 0;
}

void aieth__pdi_walk_replay(const aieth_pdi_walker *w, aieth_problem_fn report, void *ctx)
{
	size_t at = 0;
	while (at < w->len) {
		report(ctx, w->lines + at);
		at += strlen(w->lines + at) + 1;
	}
}

void aieth__pdi_walk_free(aieth_pdi_walker *w)
{
	aieth__copy_gate_free(w->gate);
	free(w->lines);
	memset(w, 0, sizeof *w);
}
