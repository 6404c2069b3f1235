/* SPDX-License-Identifier: MIT */
/*
 * session.c - opening a device session and controlling its graphs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handles.h"
#include "core/session_internal.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/path.h"

static void graphs_free(aieth_session *s)
{
	size_t i;
	for (i = 0; i < s->ngraphs; i++) {
		free(s->graphs[i].name);
		free(s->graphs[i].model);
		free(s->graphs[i].params);
		free(s->graphs[i].base_dir);
	}
	free(s->graphs);
}

/* Everything the session owns but its device state and transactions. */
static void session_free(aieth_session *s)
{
	graphs_free(s);
	free(s->xclbin);
	free(s->data_dir);
	aieth_board_free(s->board);
	free(s);
}

/* The versions of aieth_session_opts this library reads (a new version:
 * raise the newest accepted here; aieth_session_open copies the struct
 * whole, so it must then copy only the fields of the caller's version,
 * and opts_keep_hooks clear the new pointers read at open only). The
 * backends' structs in it are each checked by their backend
 * (backends/backend.c). */
static int session_opts_check(const aieth_session_opts *o)
{
	return aieth__opts_version("aieth_session_opts", "aieth_session_opts", o->version,
				   AIETH_SESSION_OPTS_VERSION);
}

/* After open the backends keep the caller's hooks only: what its other
 * pointers name is the caller's, valid while aieth_session_open runs (the
 * session holds its own copies of the board, design and graphs). */
static void opts_keep_hooks(aieth_session_opts *o)
{
	o->board = o->data_dir = o->xclbin = o->model_base_dir = o->backend = NULL;
	o->graphs = NULL;
	o->num_graphs = 0;
	o->emu = NULL;
	o->xrt = NULL;
	o->remote = NULL;
}

AIETH__OPTS_INIT_FN(aieth_session_opts, AIETH_SESSION_OPTS_INIT, AIETH_SESSION_OPTS_VERSION);

int aieth_session_open(aieth_session **out, const aieth_session_opts *o)
{
	aieth_session *s;
	const aieth_backend_ops *ops;
	size_t i, j;
	int rc;

	aieth__error_clear();
	if (!out || !o)
		return aieth__fail(AIETH_EINVAL, "aieth_session_open: NULL argument");
	*out = NULL;
	if ((rc = session_opts_check(o)))
		return rc;
	if (!o->board || !*o->board)
		return aieth__fail(AIETH_EINVAL, "session: no board given (vck190, vek280, vek385 "
						 "or a board JSON path)");
	if (o->num_graphs && !o->graphs)
		return aieth__fail(AIETH_EINVAL, "session: num_graphs is %zu but graphs is NULL",
				   o->num_graphs);
	for (i = 0; i < o->num_graphs; i++) {
		if (!o->graphs[i].name || !*o->graphs[i].name)
			return aieth__fail(AIETH_EINVAL, "session: graph %zu has no name", i);
		for (j = 0; j < i; j++)
			if (!strcmp(o->graphs[i].name, o->graphs[j].name))
				return aieth__fail(AIETH_EINVAL,
						   "session: graph \"%s\" is listed twice",
						   o->graphs[i].name);
	}
	if (!(ops = aieth__backend_find(o->backend)))
		return AIETH_EUNSUPPORTED;
	s = calloc(1, sizeof *s);
	if (!s)
		return aieth__fail(AIETH_ENOMEM, "session: out of memory");
	s->ops = ops;
	rc = aieth_board_load(&s->board, o->board, o->data_dir);
	if (rc) {
		free(s);
		return rc;
	}
	s->info = aieth_board_get_info(s->board);
	s->graphs = calloc(o->num_graphs ? o->num_graphs : 1, sizeof *s->graphs);
	if (!s->graphs)
		goto oom;
	s->ngraphs = o->num_graphs;
	for (i = 0; i < o->num_graphs; i++) {
		aieth_graph_state *g = &s->graphs[i];
		g->name = aieth__strdup(o->graphs[i].name);
		g->model = aieth__strdup(o->graphs[i].model ? o->graphs[i].model : "loopback");
		g->params =
			o->graphs[i].model_params ? aieth__strdup(o->graphs[i].model_params) : NULL;
		g->base_dir = o->model_base_dir ? aieth__strdup(o->model_base_dir) : NULL;
		if (!g->name || !g->model || (o->graphs[i].model_params && !g->params) ||
		    (o->model_base_dir && !g->base_dir))
			goto oom;
	}
	if (o->xclbin && !(s->xclbin = aieth__strdup(o->xclbin)))
		goto oom;
	if (o->data_dir && !(s->data_dir = aieth__strdup(o->data_dir)))
		goto oom;
	s->dev.board = s->board;
	s->dev.info = s->info;
	s->dev.xclbin = s->xclbin;
	s->dev.data_dir = s->data_dir;
	s->dev.ngraphs = s->ngraphs;
	s->dev.graphs = s->graphs;
	s->dev.server_info = s->server_info;
	s->dev.server_info_size = sizeof s->server_info;
	/* the caller's options, whole: the hooks for the session's life, the
	 * rest (the backends' own options among it) during check and open
	 * only: each backend checks its struct and copies what it keeps */
	s->dev.opts = *o;
	rc = aieth__backend_check(&s->dev, s->ops);
	if (!rc)
		rc = s->ops->open(&s->dev, &s->bstate);
	opts_keep_hooks(&s->dev.opts);
	if (!rc && (rc = aieth__handle_add(s, AIETH_HANDLE_SESSION)))
		s->ops->close(s->bstate);
	if (rc) {
		session_free(s);
		return rc;
	}
	*out = s;
	return AIETH_OK;
oom:
	session_free(s);
	return aieth__fail(AIETH_ENOMEM, "session: out of memory");
}

void aieth_session_close(aieth_session *s)
{
	aieth_txn *t;
	/* closed already, never opened, or in use by another thread: a void
	 * call cannot say so, and freeing would break the other call */
	if (aieth__session_enter(s, "aieth_session_close"))
		return;
	aieth__handle_remove(s);
	/* transactions never waited for are dropped, not run */
	for (t = s->head; t; t = t->next)
		if (t->status == AIETH_TXN_PENDING) {
			t->status = AIETH_TXN_FAILED;
			snprintf(t->msg, sizeof t->msg, "session closed before the wait");
		}
	while (s->head)
		aieth__txn_release(s->head);
	if (s->ops && s->bstate)
		s->ops->close(s->bstate);
	session_free(s);
}

const aieth_board *aieth_session_board(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) ? s->board : NULL;
}

const char *aieth_session_backend(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) ? s->ops->name : "";
}

const char *aieth_session_server(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) ? s->server_info : "";
}

static int find_graph(aieth_session *s, const char *name, uint32_t *idx)
{
	size_t i, n = 0;
	char list[512];
	if (!s || !name)
		return aieth__fail(AIETH_EINVAL, "graph: NULL session or name");
	for (i = 0; i < s->ngraphs; i++)
		if (!strcmp(s->graphs[i].name, name)) {
			*idx = (uint32_t)i;
			return AIETH_OK;
		}
	list[0] = '\0';
	for (i = 0; i < s->ngraphs && n + 1 < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? ", " : "",
				      s->graphs[i].name);
	return aieth__fail(AIETH_ENOTFOUND, "graph \"%s\" is not part of this session (graphs: %s)",
			   name, s->ngraphs ? list : "none");
}

static int graph_run(aieth_session *s, const char *graph, int64_t iterations)
{
	uint32_t g;
	aieth_graph_state *gs;
	int rc;

	aieth__error_clear();
	if ((rc = find_graph(s, graph, &g)))
		return rc;
	gs = &s->graphs[g];
	if (iterations < 0 && iterations != AIETH_ITERATIONS_FOREVER)
		return aieth__fail(AIETH_EINVAL,
				   "graph \"%s\": iterations %lld (use a count >= 0, or -1 to run "
				   "until ended)",
				   graph, (long long)iterations);
	if (gs->ended)
		return aieth__fail(AIETH_ESTATE, "graph \"%s\" has been ended; it cannot run again",
				   graph);
	if (gs->forever)
		return aieth__fail(AIETH_ESTATE, "graph \"%s\" is already running until ended",
				   graph);
	if (gs->bounded) {
		uint64_t done;
		int complete;
		if ((rc = s->ops->graph_status(s->bstate, g, &done, &complete)))
			return rc;
		if (!complete)
			return aieth__fail(AIETH_ESTATE,
					   "graph \"%s\" is still running its previous run (%llu "
					   "iterations done); wait for it first",
					   graph, (unsigned long long)done);
	}
	if ((rc = s->ops->graph_run(s->bstate, g, iterations)))
		return rc;
	gs->bounded = iterations >= 0;
	gs->forever = iterations < 0;
	gs->iterations = iterations;
	return AIETH_OK;
}

static int graph_wait(aieth_session *s, const char *graph, uint32_t timeout_ms)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = find_graph(s, graph, &g)))
		return rc;
	if (s->graphs[g].forever)
		return aieth__fail(AIETH_ETIMEOUT,
				   "graph \"%s\" runs until ended; waiting for it never returns",
				   graph);
	if (!s->graphs[g].bounded)
		return AIETH_OK; /* nothing was started */
	rc = s->ops->graph_wait(s->bstate, g, timeout_ms);
	if (rc == AIETH_OK)
		s->graphs[g].bounded = 0;
	return rc;
}

static int graph_end(aieth_session *s, const char *graph)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = find_graph(s, graph, &g)))
		return rc;
	if ((rc = s->ops->graph_end(s->bstate, g)))
		return rc;
	s->graphs[g].ended = 1;
	s->graphs[g].bounded = s->graphs[g].forever = 0;
	return AIETH_OK;
}

static int graph_status(aieth_session *s, const char *fn, const char *graph, uint64_t *out,
			int *complete)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = find_graph(s, graph, &g)))
		return rc;
	if (!out || !complete)
		return aieth__fail(AIETH_EINVAL, "%s: NULL %s", fn, out ? "complete" : "out");
	return s->ops->graph_status(s->bstate, g, out, complete);
}

static int graph_ports(aieth_session *s, const char *graph, aieth_graph_port *ports, size_t cap,
		       size_t *n)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = find_graph(s, graph, &g)))
		return rc;
	if (!n || (cap && !ports))
		return aieth__fail(AIETH_EINVAL, "aieth_graph_ports: NULL %s", n ? "ports" : "n");
	*n = 0;
	if (!s->ops->graph_ports)
		return aieth__fail(AIETH_EUNSUPPORTED,
				   "graph \"%s\": the %s backend does not model graphs: their "
				   "ports are not known before the run",
				   graph, s->ops->name);
	return s->ops->graph_ports(s->bstate, g, ports, cap, n);
}

/* Not HELD: a sampling thread reads the sensors while the session's
 * other calls run (the backend serialises its own requests). */
int aieth_session_sensors(aieth_session *s, aieth_sensor *out, size_t cap, size_t *n, char *notes,
			  size_t notes_cap)
{
	aieth__error_clear();
	if (!aieth__handle_live(s, AIETH_HANDLE_SESSION))
		return aieth__fail(AIETH_EINVAL, "aieth_session_sensors: not an open session");
	if (!n || (cap && !out) || (notes_cap && !notes))
		return aieth__fail(AIETH_EINVAL, "aieth_session_sensors: NULL %s",
				   !n            ? "n"
				   : cap && !out ? "out"
						 : "notes");
	*n = 0;
	if (notes_cap)
		notes[0] = '\0';
	if (!s->ops->sensors)
		return aieth__fail(AIETH_EUNSUPPORTED, "backend %s: %s", s->ops->name,
				   !(s->ops->flags & AIETH_BACKEND_EMULATED)
					   ? "the board's sensors are this machine's sysfs files "
					     "(docs/on-board.md): read them there"
					   : "the emulated board has no sensors");
	return s->ops->sensors(s->bstate, out, cap, n, notes, notes_cap);
}

/* RTP ports: the name is checked here, the bytes by the backend. */
static int rtp_args(aieth_session *s, const char *graph, const char *port, const void *data,
		    size_t size, uint32_t *g)
{
	int rc;
	if ((rc = find_graph(s, graph, g)))
		return rc;
	if (!port || !*port || strlen(port) > 1024)
		return aieth__fail(AIETH_EINVAL, "graph \"%s\": RTP port name %s", graph,
				   port ? "longer than 1024 characters" : "missing");
	if (!data)
		return aieth__fail(AIETH_EINVAL, "graph \"%s\" RTP port \"%s\": NULL data", graph,
				   port);
	if (size == 0 || size > 65536)
		return aieth__fail(
			AIETH_EINVAL,
			"graph \"%s\" RTP port \"%s\": %zu bytes, the size must be 1..65536", graph,
			port, size);
	return AIETH_OK;
}

static int graph_update_rtp(aieth_session *s, const char *graph, const char *port, const void *data,
			    size_t size)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = rtp_args(s, graph, port, data, size, &g)))
		return rc;
	if (s->graphs[g].ended)
		return aieth__fail(AIETH_ESTATE, "graph \"%s\" has been ended", graph);
	return s->ops->graph_update_rtp(s->bstate, g, port, data, size);
}

static int graph_read_rtp(aieth_session *s, const char *graph, const char *port, void *data,
			  size_t size)
{
	uint32_t g;
	int rc;
	aieth__error_clear();
	if ((rc = rtp_args(s, graph, port, data, size, &g)))
		return rc;
	return s->ops->graph_read_rtp(s->bstate, g, port, data, size);
}

/* The public graph calls: the session is checked and held for the call
 * (core/handles.c), then the call runs. */
#define HELD(fn, call)                        \
	int rc = aieth__session_enter(s, fn); \
	if (rc)                               \
		return rc;                    \
	rc = call;                            \
	aieth__session_leave(s);              \
	return rc

int aieth_graph_run(aieth_session *s, const char *graph, int64_t iterations)
{
	HELD("aieth_graph_run", graph_run(s, graph, iterations));
}

int aieth_graph_wait(aieth_session *s, const char *graph, uint32_t timeout_ms)
{
	HELD("aieth_graph_wait", graph_wait(s, graph, timeout_ms));
}

int aieth_graph_end(aieth_session *s, const char *graph)
{
	HELD("aieth_graph_end", graph_end(s, graph));
}

int aieth_graph_iterations_done(aieth_session *s, const char *graph, uint64_t *out)
{
	int complete;
	HELD("aieth_graph_iterations_done",
	     graph_status(s, "aieth_graph_iterations_done", graph, out, &complete));
}

int aieth_graph_status(aieth_session *s, const char *graph, uint64_t *done, int *complete)
{
	HELD("aieth_graph_status", graph_status(s, "aieth_graph_status", graph, done, complete));
}

int aieth_graph_ports(aieth_session *s, const char *graph, aieth_graph_port *ports, size_t cap,
		      size_t *n)
{
	HELD("aieth_graph_ports", graph_ports(s, graph, ports, cap, n));
}

int aieth_graph_update_rtp(aieth_session *s, const char *graph, const char *port, const void *data,
			   size_t size)
{
	HELD("aieth_graph_update_rtp", graph_update_rtp(s, graph, port, data, size));
}

int aieth_graph_read_rtp(aieth_session *s, const char *graph, const char *port, void *data,
			 size_t size)
{
	HELD("aieth_graph_read_rtp", graph_read_rtp(s, graph, port, data, size));
}
