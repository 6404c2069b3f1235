/* SPDX-License-Identifier: MIT */
/*
 * xrt_backend.c - a real board through XRT's C API (docs/on-board.md).
 *
 * This side never loads XRT: a child process (xrt_child.c) owns every XRT
 * handle and serves requests over a socket (xrt_proto.h); here every call
 * has a deadline. When the child does not answer in time (XRT's waits can
 * ignore their timeout) or reports a run that did not complete, it is
 * killed, a fresh child resets the graphs, the AIE array and the PL kernel,
 * and the transaction is TIMEOUT (run_test: exit 5). When the child dies
 * (XRT aborts the process on some errors) the call fails with
 * AIETH_EDEVICE and what XRT printed (exit 3).
 *
 * Environment: AIETH_XRT_LIB (the library, xrt_api.h), AIETH_XRT_DEVICE
 * (device index, default 0), AIETH_XRT_GRACE_MS (how long past a run's
 * timeout the child may take to answer, default 2000),
 * AIETH_XRT_OPEN_TIMEOUT_MS (default 60000), AIETH_XRT_RESET_TIMEOUT_MS
 * (default 10000), AIETH_AIE_STATE_TIMEOUT_MS (the array's state read on a
 * hang, default 2000; 0: not read).
 *
 * With an xrt.ini (cfg->xrt_ini) the child works in a session folder where
 * XRT reads it and writes its trace and status files; after the child has
 * exited they become the session's artifacts (xrt_rundir.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aie/aie_state.h"
#include "backends/backend.h"
#include "backends/xrt/xrt_api.h"
#include "backends/xrt/xrt_child.h"
#include "backends/xrt/xrt_preflight.h"
#include "backends/xrt/xrt_rundir.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/path.h"

#define CMD_TIMEOUT_MS 10000
/* how long a child with a session folder may take to exit after CLOSE:
 * XRT's profiling plugins write their files then (xrt_child.h) */
#define FLUSH_TIMEOUT_MS 60000
#define CHUNK (1u << 20)

typedef struct {
	const aieth_dev_config *cfg; /* the session's, outlives this state */
	aieth_xrt_proc proc;
	xrtp_open_req req;
	xrtp_open_rep rep;
	int gone; /* the child is gone: after a hang or a crash */
	char gone_msg[1024];
	int *complete;          /* per graph: the bounded run finished */
	char *run_dir;          /* XRT's session folder (xrt_rundir.c), or NULL */
	char *artifacts_dir;    /* where its files go at close (with run_dir) */
	uint64_t artifacts_max; /* their bytes together (0: the default) */
	char *state_dir;        /* where a hang's aie_state.json goes, or NULL */
	long long opened_at;    /* the session's start (s since the epoch, less 1) */
} xrt_state;

static int64_t env_ms(const char *name, int64_t def)
{
	const char *v = getenv(name);
	char *end;
	long long x;
	if (!v || !*v)
		return def;
	x = strtoll(v, &end, 10);
	return *end || x < 0 ? def : (int64_t)x;
}

static int64_t deadline(int64_t ms) { return aieth__xrtp_now_ms() + ms; }

/* dst = a b c d, truncated to size (no format-truncation games). */
static void join(char *dst, size_t size, const char *a, const char *b, const char *c, const char *d)
{
	const char *part[4] = {a, b, c, d};
	size_t n = 0, i;
	for (i = 0; i < 4; i++) {
		const char *x = part[i];
		while (x && *x && n + 1 < size)
			dst[n++] = *x++;
	}
	if (size)
		dst[n] = '\0';
}

/* The child failed a call: it timed out or died. Describe, end it. */
static int lost(xrt_state *st, const char *what, int timed_out)
{
	char d[1024];
	if (timed_out) {
		aieth__xrt_proc_kill(&st->proc, 500);
	} else if (!aieth__xrt_proc_reap(&st->proc, 2000)) {
		aieth__xrt_proc_kill(&st->proc, 500);
	}
	aieth__xrt_proc_describe(&st->proc, d, sizeof d);
	st->gone = 1;
	join(st->gone_msg, sizeof st->gone_msg, "xrt: ", what,
	     timed_out ? ": no answer in time; " : ": ", d);
	return aieth__fail(timed_out ? AIETH_ETIMEOUT : AIETH_EDEVICE, "%s", st->gone_msg);
}

static int check_alive(xrt_state *st)
{
	if (st->gone)
		return aieth__fail(AIETH_ESTATE, "xrt: the device session has ended (%s)",
				   st->gone_msg);
	return AIETH_OK;
}

/* A reply's message: the first string of its payload. */
static void reply_text(const uint8_t *p, size_t len, char *out, size_t size)
{
	xrtp_rd r = {p, p ? len : 0, 0, 0};
	aieth__xrtp_get_str(&r, out, size);
	if (r.err)
		snprintf(out, size, "malformed reply");
}

/* Append what XRT printed to a failure message. */
static int fail_with_output(xrt_state *st, int code, const char *msg)
{
	char said[700];
	aieth__xrt_proc_said(&st->proc, said, sizeof said);
	return aieth__fail(code, "xrt: %s%s", msg, said);
}

/* A simple request whose reply carries a message only. */
static int simple_call(xrt_state *st, uint32_t type, sbuf *b, int64_t ms, const char *what)
{
	xrtp_hdr h;
	uint8_t *p = NULL;
	char msg[1024];
	int rc;
	if ((rc = check_alive(st)))
		return rc;
	if ((rc = aieth__sb_check(b, "xrt: a request")))
		return rc;
	if (aieth__xrt_proc_call(&st->proc, type, b->u, b->n, ms < 0 ? -1 : deadline(ms), &h, &p))
		return lost(st, what, errno == ETIMEDOUT || errno == EINTR); /* EINTR: ended now */
	reply_text(p, (size_t)h.len, msg, sizeof msg);
	free(p);
	if (h.code)
		return fail_with_output(st, h.code, msg);
	return AIETH_OK;
}

/* XRT's own aie_status file (an xrt.ini with [Debug] aie_status=true),
 * written during this session: in the session folder where XRT works, or
 * in the artifacts folder. When the driver's sysfs files gave no tile, s
 * becomes what that file says (source "xrt-aie-status"), the sysfs notes
 * kept; when both are there, the sysfs state stays and a note says so. */
static void xrt_status_fallback(xrt_state *st, aie_state *s)
{
	const char *dirs[2] = {st->run_dir, st->state_dir}, *dir = NULL;
	char name[256], *path;
	int i, core_row0 = -1;
	for (i = 0; i < 2 && !dir; i++)
		if (dirs[i] &&
		    aieth__aie_xrt_status_find(dirs[i], st->opened_at, name, sizeof name) == 0)
			dir = dirs[i];
	if (!dir)
		return;
	if (s->ntiles > 0) {
		aieth__aie_state_note(
			s,
			"XRT's %s is there too: not used (the driver's sysfs files come "
			"first)",
			name);
		return;
	}
	if (!(path = aieth__path_join(dir, name)))
		return;
	{
		/* the sysfs notes say why it gave nothing: they stay */
		char graph_[sizeof s->graph], (*notes)[AIE_NOTE_LEN] = malloc(sizeof s->notes);
		int n, nn = s->nnotes;
		memcpy(graph_, s->graph, sizeof graph_);
		if (notes)
			memcpy(notes, s->notes, sizeof s->notes);
		aieth__aie_state_init(s, "xrt-aie-status");
		memcpy(s->graph, graph_, sizeof s->graph);
		for (n = 0; notes && n < nn; n++)
			aieth__aie_state_note(s, "%s", notes[n]);
		free(notes);
	}
	/* AIE: row 0 is the shim row, the AI Engine tiles start at row 1
	 * (linux-xlnx ai-engine-aie.c, aie_get_tile_type); AIE-ML's rows
	 * depend on the device and are not in XRT's file */
	if (st->cfg->info && st->cfg->info->aie_generation &&
	    !strcmp(st->cfg->info->aie_generation, "AIE"))
		core_row0 = 1;
	aieth__aie_state_note(s, "the driver's sysfs files gave no tile: XRT's %s read instead",
			      name);
	aieth__aie_state_read_xrt_status(s, path, core_row0, core_row0 == 1 ? 0 : -1);
	free(path);
}

/* On a hang, before the reset clears it: the AI Engine array's state from
 * the driver's sysfs files (aie/aie_state.h, read in a process of its own
 * under its own deadline), written to the artifacts folder as
 * aie_state.json (run_test puts it in report.json) and said in words in
 * out ("" when nothing is stuck or it was not read). */
static void capture_aie_state(xrt_state *st, const char *graph, char *out, size_t size)
{
	int64_t ms = env_ms("AIETH_AIE_STATE_TIMEOUT_MS", 2000);
	const char *dir = st->state_dir;
	aie_state *s;
	out[0] = '\0';
	if (ms <= 0 || !(s = malloc(sizeof *s)))
		return;
	aieth__aie_state_init(s, "sysfs");
	if (graph)
		snprintf(s->graph, sizeof s->graph, "%s", graph);
	aieth__aie_state_capture(s, ms > 60000 ? 60000 : (int)ms);
	xrt_status_fallback(st, s);
	if (aieth__aie_state_words_join(s, out, size, 4) == 0 && s->nnotes)
		aieth__aie_words_add(out, size, s->notes[0]);
	if (dir && aieth__aie_state_write(s, dir, "aie_state.json") != AIETH_OK)
		aieth__aie_words_add(out, size, "aie_state.json not written");
	free(s);
}

/* After a hang: end the child, reset the device from a fresh one. */
static void reset_device(xrt_state *st, char *out, size_t size)
{
	aieth_xrt_proc rp;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	xrtp_hdr h;
	uint8_t *p = NULL;
	char msg[1024] = "";

	aieth__xrt_proc_kill(&st->proc, 500);
	st->gone = 1;
	snprintf(st->gone_msg, sizeof st->gone_msg, "reset after a hang");
	memcpy(st->req.pl_uuid, st->rep.pl_uuid, 16);
	aieth__xrtp_encode_open(&b, &st->req);
	if (b.oom || aieth__xrt_proc_start(&rp, st->run_dir)) {
		snprintf(out, size, "the device could not be reset (no process): reset the board");
		aieth__sb_free(&b);
		return;
	}
	if (aieth__xrt_proc_call(&rp, XRTP_RESET, b.u, b.n,
				 deadline(env_ms("AIETH_XRT_RESET_TIMEOUT_MS", 10000)), &h, &p)) {
		int to = errno == ETIMEDOUT;
		aieth__xrt_proc_kill(&rp, 500);
		aieth__xrt_proc_describe(&rp, msg, sizeof msg);
		snprintf(out, size, "the reset %s (%s): reset the board",
			 to ? "did not finish in time" : "failed", msg);
	} else {
		reply_text(p, (size_t)h.len, msg, sizeof msg);
		if (h.code)
			snprintf(out, size, "the reset was incomplete: %s: reset the board", msg);
		else
			snprintf(out, size,
				 "the graphs, the AIE array and the PL kernel were reset");
		aieth__xrtp_send(&rp.ch, XRTP_CLOSE, 0, NULL, 0, deadline(1000));
		if (!aieth__xrt_proc_reap(&rp, 2000))
			aieth__xrt_proc_kill(&rp, 500);
	}
	free(p);
	aieth__sb_free(&b);
}

static void xrt_close(void *state)
{
	xrt_state *st = state;
	if (!st)
		return;
	if (!st->gone && st->proc.pid) {
		aieth__xrtp_send(&st->proc.ch, XRTP_CLOSE, 0, NULL, 0, deadline(1000));
		{
			xrtp_hdr h;
			uint8_t *p = NULL;
			if (aieth__xrtp_recv(&st->proc.ch, &h, &p, deadline(CMD_TIMEOUT_MS)) == 0)
				free(p);
		}
		if (!aieth__xrt_proc_reap(&st->proc, st->run_dir ? FLUSH_TIMEOUT_MS : 2000))
			aieth__xrt_proc_kill(&st->proc, 500);
	} else if (st->proc.pid) {
		aieth__xrt_proc_kill(&st->proc, 500);
	}
	/* the child is gone: what XRT wrote is complete */
	if (st->run_dir)
		aieth__xrt_rundir_collect(st->cfg, st->artifacts_dir, st->artifacts_max,
					  st->run_dir);
	free(st->run_dir);
	free(st->artifacts_dir);
	free(st->state_dir);
	free(st->complete);
	free(st);
}

static int fill_req(const aieth_dev_config *cfg, xrtp_open_req *r, char **default_pl)
{
	char lib[512];
	const char *dev = getenv("AIETH_XRT_DEVICE");
	const char *pl = cfg->opts.xrt ? cfg->opts.xrt->pl_xclbin : NULL;
	size_t i;

	memset(r, 0, sizeof *r);
	if (!pl) {
		/* the board default: <data dir>/xclbin/<kernel>.xclbin */
		char rel[160];
		snprintf(rel, sizeof rel, "xclbin/%s.xclbin", cfg->info->pl_kernel);
		*default_pl = aieth__path_join(aieth__data_dir(cfg->data_dir), rel);
		if (!*default_pl)
			return aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
		pl = *default_pl;
	}
	if (cfg->ngraphs > XRTP_MAX_GRAPHS)
		return aieth__fail(AIETH_EINVAL, "xrt: %zu graphs, at most %u", cfg->ngraphs,
				   XRTP_MAX_GRAPHS);
	if (strlen(pl) >= sizeof r->pl_xclbin ||
	    (cfg->xclbin && strlen(cfg->xclbin) >= sizeof r->aie_xclbin))
		return aieth__fail(AIETH_EINVAL, "xrt: xclbin path longer than %zu characters",
				   sizeof r->pl_xclbin - 1);
	snprintf(r->lib, sizeof r->lib, "%s", aieth__xrt_lib_path(lib, sizeof lib));
	snprintf(r->pl_xclbin, sizeof r->pl_xclbin, "%s", pl);
	snprintf(r->aie_xclbin, sizeof r->aie_xclbin, "%s", cfg->xclbin ? cfg->xclbin : "");
	snprintf(r->kernel, sizeof r->kernel, "%s", cfg->info->pl_kernel);
	r->device = dev && *dev ? (uint32_t)strtoul(dev, NULL, 10) : 0;
	r->ngraphs = (uint32_t)cfg->ngraphs;
	for (i = 0; i < cfg->ngraphs; i++) {
		if (strlen(cfg->graphs[i].name) >= sizeof r->graphs[i])
			return aieth__fail(AIETH_EINVAL, "xrt: graph name \"%s\" longer than %zu",
					   cfg->graphs[i].name, sizeof r->graphs[i] - 1);
		snprintf(r->graphs[i], sizeof r->graphs[i], "%s", cfg->graphs[i].name);
	}
	return AIETH_OK;
}

/* The child of a session folder works there: a relative path of the
 * caller's (an xclbin, a library named by a path) is made absolute. A
 * bare library name stays: dlopen searches for it. */
static int absolute(char *path, size_t size, int bare_ok)
{
	char cwd[4096], tmp[4096];
	if (!path[0] || path[0] == '/' || (bare_ok && !strchr(path, '/')))
		return AIETH_OK;
	if (!getcwd(cwd, sizeof cwd))
		return aieth__fail(AIETH_EIO, "xrt: %s: the current folder is unknown (%s)", path,
				   strerror(errno));
	if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", cwd, path) >= size)
		return aieth__fail(AIETH_EINVAL, "xrt: %s/%s: path longer than %zu characters", cwd,
				   path, size - 1);
	memcpy(path, tmp, strlen(tmp) + 1);
	return AIETH_OK;
}

static int xrt_open(const aieth_dev_config *cfg, void **state)
{
	xrt_state *st = calloc(1, sizeof *st);
	const char *ini = cfg->opts.xrt ? cfg->opts.xrt->xrt_ini : NULL;
	aieth_preflight_in pin;
	const char **names = NULL;
	char *default_pl = NULL;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	xrtp_hdr h;
	uint8_t *p = NULL;
	size_t i;
	int rc;

	if (!st)
		return aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
	/* the option pointers live during open only: what close needs is kept */
	if (ini && !(st->artifacts_dir = aieth__strdup(cfg->opts.xrt->artifacts_dir))) {
		free(st);
		return aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
	}
	st->artifacts_max = ini ? cfg->opts.xrt->artifacts_max_bytes : 0;
	if (cfg->opts.xrt && cfg->opts.xrt->artifacts_dir &&
	    !(st->state_dir = aieth__strdup(cfg->opts.xrt->artifacts_dir))) {
		free(st->artifacts_dir);
		free(st->state_dir);
		free(st);
		return aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
	}
	st->cfg = cfg;
	st->opened_at = (long long)time(NULL) - 1; /* file systems with coarse times */
	st->complete = calloc(cfg->ngraphs ? cfg->ngraphs : 1, sizeof *st->complete);
	names = calloc(cfg->ngraphs ? cfg->ngraphs : 1, sizeof *names);
	if (!st->complete || !names) {
		rc = aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
		goto fail;
	}
	if ((rc = fill_req(cfg, &st->req, &default_pl)))
		goto fail;
	for (i = 0; i < cfg->ngraphs; i++)
		names[i] = cfg->graphs[i].name;
	memset(&pin, 0, sizeof pin);
	pin.board = cfg->board;
	pin.pl_xclbin = st->req.pl_xclbin;
	pin.aie_xclbin = cfg->xclbin;
	pin.graphs = names;
	pin.ngraphs = cfg->ngraphs;
	if ((rc = aieth__xrt_preflight(&pin))) {
		if (default_pl && rc == AIETH_EIO) {
			char m[1024];
			snprintf(m, sizeof m, "%s", aieth_error_message());
			rc = aieth__fail(AIETH_EIO,
					 "%s (the board default; give \"pl_xclbin\" in the "
					 "description or --pl-xclbin, or install it there; see "
					 "docs/on-board.md)",
					 m);
		}
		goto fail;
	}
	if (ini && ((rc = absolute(st->req.lib, sizeof st->req.lib, 1)) ||
		    (rc = absolute(st->req.pl_xclbin, sizeof st->req.pl_xclbin, 0)) ||
		    (rc = absolute(st->req.aie_xclbin, sizeof st->req.aie_xclbin, 0)) ||
		    (rc = aieth__xrt_rundir_open(ini, st->artifacts_dir, &st->run_dir))))
		goto fail;
	if ((rc = aieth__xrt_proc_start(&st->proc, st->run_dir)))
		goto fail;
	aieth__xrtp_encode_open(&b, &st->req);
	if ((rc = aieth__sb_check(&b, "xrt: a request"))) {
		goto fail;
	}
	if (aieth__xrt_proc_call(&st->proc, XRTP_OPEN, b.u, b.n,
				 deadline(env_ms("AIETH_XRT_OPEN_TIMEOUT_MS", 60000)), &h, &p)) {
		rc = lost(st, "opening the device", errno == ETIMEDOUT);
		if (rc == AIETH_ETIMEOUT)
			rc = aieth__fail(AIETH_EDEVICE, "%s", aieth_error_message());
		goto fail;
	}
	if (aieth__xrtp_decode_open_rep(p, (size_t)h.len, &st->rep)) {
		rc = aieth__fail(AIETH_EDEVICE, "xrt: malformed reply to open");
		goto fail;
	}
	if (h.code) {
		rc = fail_with_output(st, h.code, st->rep.msg);
		goto fail;
	}
	free(p);
	free(names);
	free(default_pl);
	aieth__sb_free(&b);
	*state = st;
	return AIETH_OK;
fail:
	free(p);
	free(names);
	free(default_pl);
	aieth__sb_free(&b);
	xrt_close(st);
	return rc;
}

static int xrt_graph_run(void *state, uint32_t graph, int64_t iterations)
{
	xrt_state *st = state;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	int rc;
	if (iterations > INT_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "graph \"%s\": %lld iterations, XRT takes at most %d",
				   st->cfg->graphs[graph].name, (long long)iterations, INT_MAX);
	st->complete[graph] = iterations == 0;
	if (iterations == 0)
		return AIETH_OK; /* XRT's 0 means "as before": nothing to run */
	sb_le32(&b, graph);
	sb_le64(&b, (uint64_t)(iterations < 0 ? -1 : iterations));
	rc = simple_call(st, XRTP_GRAPH_RUN, &b, CMD_TIMEOUT_MS, "graph run");
	aieth__sb_free(&b);
	return rc;
}

static int graph_wait_ms(xrt_state *st, uint32_t graph, uint32_t timeout_ms)
{
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	int64_t ms = timeout_ms ? (int64_t)timeout_ms + env_ms("AIETH_XRT_GRACE_MS", 2000) : -1;
	int rc;
	sb_le32(&b, graph);
	sb_le32(&b, timeout_ms ? timeout_ms : 0x7fffffffu);
	rc = simple_call(st, XRTP_GRAPH_WAIT, &b, ms, "graph wait");
	aieth__sb_free(&b);
	if (rc == AIETH_OK)
		st->complete[graph] = 1;
	return rc;
}

static int xrt_graph_wait(void *state, uint32_t graph, uint32_t timeout_ms)
{
	xrt_state *st = state;
	int rc;
	if (st->complete[graph])
		return AIETH_OK;
	if ((rc = check_alive(st)))
		return rc;
	st->proc.ch.intr = st->cfg->opts.interrupt; /* a signal ends the wait (not the graph) */
	rc = graph_wait_ms(st, graph, timeout_ms);
	st->proc.ch.intr = NULL;
	if (rc != AIETH_OK && st->gone && st->cfg->opts.interrupt && *st->cfg->opts.interrupt) {
		/* the child was left in XRT's wait: ended; the device reset */
		char r[512];
		reset_device(st, r, sizeof r);
		return aieth__fail(AIETH_EDEVICE, "graph \"%s\": wait interrupted; %s",
				   st->cfg->graphs[graph].name, r);
	}
	if (rc == AIETH_ETIMEOUT && st->gone) {
		char r[512], a[400];
		char m[1024];
		snprintf(m, sizeof m, "%s", aieth_error_message());
		capture_aie_state(st, st->cfg->graphs[graph].name, a, sizeof a);
		reset_device(st, r, sizeof r);
		return aieth__fail(AIETH_ETIMEOUT, "%s; %s%s%s", m, r, a[0] ? "; AI Engine: " : "",
				   a);
	}
	return rc;
}

static int xrt_graph_status(void *state, uint32_t graph, uint64_t *done, int *complete)
{
	xrt_state *st = state;
	const aieth_graph_state *g = &st->cfg->graphs[graph];
	if (!st->complete[graph] && g->bounded && !st->gone)
		graph_wait_ms(st, graph, 1);
	*complete = st->complete[graph];
	*done = *complete && g->iterations > 0 ? (uint64_t)g->iterations : 0;
	aieth__error_clear();
	return AIETH_OK;
}

static int xrt_graph_end(void *state, uint32_t graph)
{
	xrt_state *st = state;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	int rc;
	if (st->gone)
		return AIETH_OK; /* the graphs were reset with the device */
	sb_le32(&b, graph);
	rc = simple_call(st, XRTP_GRAPH_END, &b, CMD_TIMEOUT_MS, "graph end");
	aieth__sb_free(&b);
	return rc;
}

static int xrt_update_rtp(void *state, uint32_t graph, const char *port, const void *data,
			  size_t size)
{
	xrt_state *st = state;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	int rc;
	sb_le32(&b, graph);
	aieth__xrtp_put_str(&b, port);
	aieth__xrtp_put_blob(&b, data, size);
	rc = simple_call(st, XRTP_RTP_UPDATE, &b, CMD_TIMEOUT_MS, "RTP update");
	aieth__sb_free(&b);
	return rc;
}

static int xrt_read_rtp(void *state, uint32_t graph, const char *port, void *data, size_t size)
{
	xrt_state *st = state;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	xrtp_hdr h;
	uint8_t *p = NULL;
	char msg[1024];
	int rc;
	if ((rc = check_alive(st)))
		return rc;
	sb_le32(&b, graph);
	aieth__xrtp_put_str(&b, port);
	sb_le64(&b, size);
	if ((rc = aieth__sb_check(&b, "xrt: a request"))) {
		aieth__sb_free(&b);
		return rc;
	}
	rc = aieth__xrt_proc_call(&st->proc, XRTP_RTP_READ, b.u, b.n, deadline(CMD_TIMEOUT_MS), &h,
				  &p);
	aieth__sb_free(&b);
	if (rc)
		return lost(st, "RTP read", errno == ETIMEDOUT);
	{
		xrtp_rd r = {p, p ? (size_t)h.len : 0, 0, 0};
		const uint8_t *d;
		size_t n = 0;
		aieth__xrtp_get_str(&r, msg, sizeof msg);
		if (h.code) {
			free(p);
			return fail_with_output(st, h.code, msg);
		}
		d = aieth__xrtp_get_blob(&r, XRTP_MAX_RTP, &n);
		if (r.err || n != size) {
			free(p);
			return aieth__fail(AIETH_EDEVICE, "xrt: malformed RTP read reply");
		}
		memcpy(data, d, n);
	}
	free(p);
	return AIETH_OK;
}

static int xrt_txn_start(void *state, pld_txn *wire)
{
	(void)wire; /* sent when waited for: transactions run in order */
	return check_alive(state);
}

/* Stream the sparse TX image to the child. */
static int send_image(xrt_state *st, const pld_image *img, int64_t dl)
{
	uint8_t *buf = malloc(CHUNK);
	uint64_t off;
	if (!buf)
		return -1;
	for (off = 0; off < img->size; off += CHUNK) {
		uint64_t n = img->size - off < CHUNK ? img->size - off : CHUNK;
		aieth__pld_image_read(img, off, buf, n);
		if (aieth__xrtp_send_raw(&st->proc.ch, buf, (size_t)n, dl)) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

static int recv_image(xrt_state *st, pld_image *img, uint64_t size, int64_t dl)
{
	uint8_t *buf = malloc(CHUNK);
	uint64_t off;
	if (!buf)
		return -1;
	for (off = 0; off < size; off += CHUNK) {
		uint64_t n = size - off < CHUNK ? size - off : CHUNK;
		if (aieth__xrtp_recv_raw(&st->proc.ch, buf, (size_t)n, dl)) {
			free(buf);
			return -1;
		}
		aieth__pld_image_write(img, off, buf, n);
	}
	free(buf);
	return 0;
}

static void timeout_result(xrt_state *st, const xrtp_txn_rep *rep, uint32_t timeout_ms,
			   aieth_dev_result *res)
{
	char r[512], a[400], ra[1000];
	char state_text[160] = "";
	capture_aie_state(st, st->cfg->ngraphs == 1 ? st->cfg->graphs[0].name : NULL, a, sizeof a);
	reset_device(st, r, sizeof r);
	/* the reset's outcome first: a long state may be cut at the end */
	snprintf(ra, sizeof ra, "%s%s%s", r, a[0] ? "; AI Engine: " : "", a);
	if (rep && rep->have_ctrl)
		snprintf(state_text, sizeof state_text,
			 " (CTRL 0x%x: %s); per-channel progress cannot be read from the PL "
			 "kernel, whose counters are stored only when it completes",
			 rep->ctrl,
			 rep->ctrl & 2u   ? "done"
			 : rep->ctrl & 4u ? "idle"
					  : "busy");
	res->status = AIETH_TXN_TIMEOUT;
	res->have_progress = 0;
	join(res->msg, sizeof res->msg, rep ? rep->msg : "XRT did not return from the run's wait",
	     rep ? state_text : "", "; ", ra);
	(void)timeout_ms;
}

/* Interrupted by the caller: the child was ended; reset the device from a
 * fresh one (graphs, AIE array, PL kernel). */
static void interrupted_result(xrt_state *st, aieth_dev_result *res)
{
	char r[512];
	reset_device(st, r, sizeof r);
	res->status = AIETH_TXN_INTERRUPTED;
	res->have_progress = 0;
	join(res->msg, sizeof res->msg, "interrupted while the board ran the transaction; ", r,
	     NULL, NULL);
}

static int xrt_txn_wait(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res)
{
	xrt_state *st = state;
	xrtp_txn_req *req = NULL;
	xrtp_txn_rep *rep = NULL;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	xrtp_hdr h;
	uint8_t *p = NULL;
	uint64_t bulk = wire->tx.size + wire->rx.size;
	int64_t xfer = CMD_TIMEOUT_MS + (int64_t)(bulk >> 26) * 1000; /* 1 s per 64 MiB */
	int64_t grace = env_ms("AIETH_XRT_GRACE_MS", 2000), dl;
	int rc = AIETH_OK;

	if ((rc = check_alive(st)))
		return rc;
	if (wire->channels > XRTP_MAX_CHANNELS)
		return aieth__fail(AIETH_EINVAL, "xrt: %u channels, at most %u", wire->channels,
				   XRTP_MAX_CHANNELS);
	req = calloc(1, sizeof *req);
	rep = calloc(1, sizeof *rep);
	if (!req || !rep) {
		rc = aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
		goto out;
	}
	req->channels = wire->channels;
	req->timeout_ms = timeout_ms;
	req->tx_bytes = wire->tx.size;
	req->rx_bytes = wire->rx.size;
	req->ncfg = (uint32_t)pld_cfg_count(wire->channels);
	memcpy(req->cfg, wire->cfg, req->ncfg * sizeof *req->cfg);
	aieth__xrtp_encode_txn(&b, req);
	if ((rc = aieth__sb_check(&b, "xrt: a request"))) {
		goto out;
	}
	dl = deadline(xfer);
	st->proc.ch.intr = st->cfg->opts.interrupt; /* only this wait is abandoned */
	if (aieth__xrtp_send(&st->proc.ch, XRTP_TXN, 0, b.u, b.n, dl) ||
	    send_image(st, &wire->tx, dl)) {
		rc = errno == ETIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE;
		goto lost_it;
	}
	/* the child answers after the run's wait; setting up the buffers
	 * takes a moment more (1 s + 1 s per 64 MiB) */
	dl = timeout_ms ? deadline(1000 + (int64_t)(bulk >> 26) * 1000 + timeout_ms + grace) : -1;
	if (aieth__xrtp_recv(&st->proc.ch, &h, &p, dl)) {
		rc = errno == ETIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE;
		goto lost_it;
	}
	if (aieth__xrtp_decode_txn_rep(p, (size_t)h.len, rep)) {
		char msg[1024];
		reply_text(p, (size_t)h.len, msg, sizeof msg);
		rc = fail_with_output(st, h.code ? h.code : AIETH_EDEVICE, msg);
		lost(st, "transaction", 0);
		goto out;
	}
	if (rep->nperf != pld_perf_count(wire->channels) ||
	    (rep->status == AIETH_TXN_DONE && rep->rx_bytes != wire->rx.size)) {
		rc = aieth__fail(AIETH_EDEVICE, "xrt: reply does not match the transaction");
		lost(st, "transaction", 0);
		goto out;
	}
	res->total_cycles = 0; /* XRT cannot tell */
	res->have_progress = 0;
	if (rep->status == AIETH_TXN_DONE) {
		if (recv_image(st, &wire->rx, rep->rx_bytes, deadline(xfer))) {
			rc = errno == ETIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE;
			goto lost_it;
		}
		memcpy(wire->perf, rep->perf, rep->nperf * sizeof *wire->perf);
		res->status = AIETH_TXN_DONE;
	} else if (rep->status == AIETH_TXN_TIMEOUT) {
		timeout_result(st, rep, timeout_ms, res);
	} else {
		char m[1024];
		snprintf(m, sizeof m, "%s", rep->msg);
		fail_with_output(st, AIETH_EDEVICE, m);
		res->status = AIETH_TXN_FAILED;
		snprintf(res->msg, sizeof res->msg, "%s", aieth_error_message());
		aieth__error_clear();
	}
	goto out;
lost_it:
	st->proc.ch.intr = NULL;
	if (st->cfg->opts.interrupt && *st->cfg->opts.interrupt) {
		/* a signal (to the run, maybe to the child too): end the run */
		lost(st, "transaction", 1);
		interrupted_result(st, res);
		aieth__error_clear();
		rc = AIETH_OK;
	} else if (rc == AIETH_ETIMEOUT) {
		lost(st, "transaction", 1);
		timeout_result(st, NULL, timeout_ms, res);
		rc = AIETH_OK;
	} else {
		rc = lost(st, "transaction", 0);
	}
out:
	st->proc.ch.intr = NULL;
	free(p);
	free(req);
	free(rep);
	aieth__sb_free(&b);
	return rc;
}

AIETH__OPTS_INIT_FN(aieth_xrt_opts, AIETH_XRT_OPTS_INIT, AIETH_XRT_OPTS_VERSION);

/* The versions of aieth_xrt_opts this backend reads; pl_xclbin is checked
 * at open, with the board's files (xrt_preflight.c). */
static int xrt_check(const aieth_dev_config *cfg, int selected)
{
	int rc;
	const char *ini = cfg->opts.xrt ? cfg->opts.xrt->xrt_ini : NULL;
	if (selected && !ini && cfg->opts.remote && cfg->opts.remote->xrt_ini)
		return aieth__fail(
			AIETH_EINVAL,
			"backend xrt: xrt_ini %s is given for the remote "
			"backend (aieth_remote_opts): give it as aieth_xrt_opts.xrt_ini for "
			"XRT to read it here",
			cfg->opts.remote->xrt_ini);
	if (!cfg->opts.xrt)
		return AIETH_OK; /* the defaults */
	if ((rc = aieth__opts_version("aieth_session_opts.xrt", "aieth_xrt_opts",
				      cfg->opts.xrt->version, AIETH_XRT_OPTS_VERSION)))
		return rc;
	if (selected && ini && !cfg->opts.xrt->artifacts_dir)
		return aieth__fail(AIETH_EINVAL,
				   "xrt: xrt_ini %s: XRT's files need an artifacts "
				   "folder (artifacts_dir) to land in",
				   cfg->opts.xrt->xrt_ini);
	return AIETH_OK;
}

const aieth_backend_ops aieth__backend_xrt = {
	.name = "xrt",
	.flags = AIETH_BACKEND_LOCAL | AIETH_BACKEND_HOST_SYSFS,
	.description = "a board through XRT, docs/on-board.md",
	.check = xrt_check,
	.open = xrt_open,
	.close = xrt_close,
	.graph_run = xrt_graph_run,
	.graph_wait = xrt_graph_wait,
	.graph_end = xrt_graph_end,
	.graph_status = xrt_graph_status,
	.txn_start = xrt_txn_start,
	.txn_wait = xrt_txn_wait,
	.graph_update_rtp = xrt_update_rtp,
	.graph_read_rtp = xrt_read_rtp,
};
