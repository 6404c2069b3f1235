/* SPDX-License-Identifier: MIT */
/*
 * aieth/graph.h - graph control: run, wait, end, iterations, run-time parameters.
 */
#ifndef AIETH_PUBLIC_GRAPH_H
#define AIETH_PUBLIC_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_ITERATIONS_FOREVER (-1)

/* Run a graph for `iterations` iterations (AIETH_ITERATIONS_FOREVER: until
 * ended). Fails with AIETH_ESTATE if the graph is still running a bounded
 * run or has been ended. */
int aieth_graph_run(aieth_session *session, const char *graph, int64_t iterations);
/* Wait until the graph finished its bounded run; AIETH_ETIMEOUT if it does
 * not within timeout_ms (0 = no limit; on the emulated board a graph that
 * cannot progress any more is reported at once). */
int aieth_graph_wait(aieth_session *session, const char *graph, uint32_t timeout_ms);
/* End the graph; it cannot be run again in this session. */
int aieth_graph_end(aieth_session *session, const char *graph);
/* Iterations completed so far (emulated board: as of the last wait; xrt:
 * XRT cannot count them, so the bounded run's count once it completed,
 * else 0). */
int aieth_graph_iterations_done(aieth_session *session, const char *graph, uint64_t *out);
/* The same count into *done, and *complete 1 once the graph's bounded run
 * completed (else 0): what a relay reports of a graph it runs for a
 * client (th_server's GET .../graphs/NAME). */
int aieth_graph_status(aieth_session *session, const char *graph, uint64_t *done, int *complete);
/* One PLIO port of a graph as its model declares it, known before the
 * graph runs: its PLIO name, the direction (to_aie 1: the graph reads it)
 * the bytes one graph iteration reads or writes there, and its kernel's
 * index in the model (the ports of one kernel move the same iterations). */
typedef struct {
	char plio[32];
	int to_aie;
	uint32_t kernel;
	uint64_t bytes_per_iteration;
} aieth_graph_port;

/* The PLIO ports of a graph's model (every kernel's), at most cap of them
 * into ports (may be NULL when cap is 0), their count in *n (even when
 * more than cap; a model has at most AIETH_GRAPH_PORTS_MAX). Where the
 * graph is not modelled it cannot be known before the run:
 * AIETH_EUNSUPPORTED (the xrt backend: the board runs the graph itself;
 * the remote backend asks th_server for its own models' ports, and a
 * server on a board has none either). */
#define AIETH_GRAPH_PORTS_MAX 4096
int aieth_graph_ports(aieth_session *session, const char *graph, aieth_graph_port *ports,
		      size_t cap, size_t *n);
/* Run-time parameters: write `size` bytes to a graph's RTP port (its
 * hierarchical name, e.g. "gr.k.in[1]"), or read `size` bytes back. On a
 * board these are xrtGraphUpdateRTP / xrtGraphReadRTP. The emulated board
 * keeps the last bytes written per port (the graph models do not consume
 * them); reading a port never written is AIETH_ENOTFOUND there. size is
 * 1..65536 bytes (AIETH_EINVAL otherwise), data not NULL. */
int aieth_graph_update_rtp(aieth_session *session, const char *graph, const char *port,
			   const void *data, size_t size);
int aieth_graph_read_rtp(aieth_session *session, const char *graph, const char *port, void *data,
			 size_t size);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_GRAPH_H */
