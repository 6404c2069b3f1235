/* SPDX-License-Identifier: MIT */
/*
 * runner/run_inputs.h - the input-mistake rule (run_inputs.c): a test's
 * channels against what its graph models read and write per iteration,
 * checked before the run (not installed; the unit tests call the rule).
 */
#ifndef AIETH_RUNNER_RUN_INPUTS_H
#define AIETH_RUNNER_RUN_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

/* A graph: its ports as its model says (known 0: the model was not asked
 * or could not say, and then nothing is refused). iterations per run (-1:
 * until ended). */
typedef struct {
	const char *name, *model;
	int64_t iterations;
	int known;
	const aieth_graph_port *ports;
	size_t nports;
} rn_in_graph;

/* A channel of one of the test's transactions: its PLIO, direction, the
 * bytes it moves in one run (size times repetition, both kept for the
 * message), where it is in the
 * description (file_desc: the description's path, where: its JSON path,
 * file: its data or golden file as written, NULL: none). */
typedef struct {
	const char *plio;
	int to_aie;
	uint64_t bytes, size, repetition; /* bytes = size x repetition */
	const char *file_desc, *where, *file;
} rn_in_chan;

/* The rules, in order: each channel's PLIO is a port of a graph model (an
 * RX PLIO some model writes, a TX PLIO some model reads); on each port the
 * bytes of all channels are a whole number of iterations; a bounded
 * graph's ports carry exactly iterations x bytes per iteration; the ports
 * of a kernel carry the same number of iterations (a port without a
 * channel carries 0). A graph not known: no rule applies. Returns 0 (no
 * mistake), or 1 with msg (cap bytes) naming the description, the channel
 * and its file, the PLIO, the sizes and the rule. */
int aieth__rn_inputs_rule(const rn_in_graph *g, size_t ng, const rn_in_chan *ch, size_t nc,
			  char *msg, size_t cap);

#endif
