/* SPDX-License-Identifier: MIT */
/*
 * pdi_walk.h - a --pdi input's CDO command walk beside its copy into the
 * xclbin: a thread walks the output's bytes as the copy writes them
 * (util/copy.h, the gate), so the walk no longer follows the copy on a
 * machine with a second core. Not installed.
 */
#ifndef AIETH_PDI_WALK_H
#define AIETH_PDI_WALK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "aieth.h"
#include "util/copy.h"

typedef struct {
	aieth_copy_gate *gate; /* hand it to the copy (xb_wsection.gate) */
	const char *what;      /* names the problems: the --pdi input */
	const aieth_board *board;
	pthread_t th;
	int walked;   /* the walk ran on the copy's bytes */
	int overflow; /* more lines than the buffer holds */
	size_t count; /* its problems */
	char *lines;  /* their lines, each ending in NUL */
	size_t len, cap;
} aieth_pdi_walker;

/* Start the walker (0); -1 when it cannot start (nothing to join or
 * free): the caller walks serially. */
int aieth__pdi_walk_start(aieth_pdi_walker *w, const char *what, const aieth_board *board);

/* End the gate (the writer returned) and join the walker. */
void aieth__pdi_walk_join(aieth_pdi_walker *w);

/* After the join: 0 when the walk ran on all the bytes copied to out
 * offset base, size bytes (the PDI section the written file's table
 * names), with every line kept; *count its problems. Else the caller
 * walks serially (a window not mapped, a copy cut short, too many
 * lines). */
int aieth__pdi_walk_result(const aieth_pdi_walker *w, uint64_t base, uint64_t size, size_t *count);

/* Report the kept lines, in order, from the caller's thread. */
void aieth__pdi_walk_replay(const aieth_pdi_walker *w, aieth_problem_fn report, void *ctx);

void aieth__pdi_walk_free(aieth_pdi_walker *w);

#endif
