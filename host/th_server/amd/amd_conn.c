/* SPDX-License-Identifier: MIT */
/*
 * amd_conn.c - one connection of AMD's protocol (amd_conn.h), decoded by
 * amd_proto.c: the requests, the manager that becomes a session in the
 * shared queue, graph calls, the file return, the end. Transactions are
 * amd_txn.c's, socket I/O amd_io.c's. Where AMD's server fails
 * (docs/amd-protocol.md, "Where we differ") this does better, and a
 * correct client sees the same bytes:
 * - replies go in one sendmsg each (MSG_NOSIGNAL, TCP_NODELAY); bulk data
 *   is received straight into place (the TX image into its srv_txn; the
 *   xclbin is written to a scratch file as it comes, amd_xclbin.c);
 * - the idle watchdog counts every request and every wait in progress;
 *   getTimeOut never answers 0;
 * - every phase has a deadline; a malformed frame closes this connection
 *   only, with a log line.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "th_server/amd/amd_conn_internal.h"
#include "th_server/srv_names.h"
#include "util/path.h"

/* ------------------------------------------------------------ graphs */

static int on_run_graph(amd_conn *c, uint32_t g, uint32_t it)
{
	char q[AMD_LOG_Q];
	int rc;
	if (g >= c->x->req.ngraphs) {
		snprintf(c->why, sizeof c->why,
			 "runAIEGraph: graph index %u, the manager has %zu "
			 "graphs",
			 g, c->x->req.ngraphs);
		return -1;
	}
	pthread_mutex_lock(&c->x->call);
	/* XRT runs a graph for 0 iterations until it is ended */
	rc = aieth_graph_run(c->x->dev, c->x->req.graphs[g].name,
			     it ? (int64_t)it : AIETH_ITERATIONS_FOREVER);
	pthread_mutex_unlock(&c->x->call);
	if (rc)
		aieth__srv_log(c->s, "amd %s: session %s: runAIEGraph %u: %s", c->peer, c->x->id, g,
			       aieth_error_message());
	if (rc)
		aieth__amd_log(c, "WARNING", "request runAIEGraph: graph %u %s, %u iterations: %s",
			       g, aieth__amd_log_q(c->x->req.graphs[g].name, q), it,
			       aieth_error_message());
	else
		aieth__amd_log(c, "INFO", "request runAIEGraph: graph %u %s, %u iterations%s", g,
			       aieth__amd_log_q(c->x->req.graphs[g].name, q), it,
			       it ? "" : " (until ended)");
	/* AMD's client asserts [g] = 1 */
	c->started[g] = 1;
	aieth__amdp_enc_graphs(&c->out, c->started, (uint32_t)c->x->req.ngraphs);
	return aieth__amd_io_flush(c);
}

static int on_wait_graph(amd_conn *c, uint32_t tmo)
{
	char q[AMD_LOG_Q], first[AMD_LOG_LINE_MAX / 2] = "";
	unsigned waited = 0, failed = 0;
	uint32_t asked = tmo;
	size_t g;
	if (!tmo)
		tmo = aieth__amd_txn_limit_ms(c);
	for (g = 0; g < c->x->req.ngraphs; g++) {
		int rc;
		if (!c->started[g])
			continue;
		pthread_mutex_lock(&c->x->call);
		rc = aieth_graph_wait(c->x->dev, c->x->req.graphs[g].name, tmo);
		pthread_mutex_unlock(&c->x->call);
		if (rc)
			aieth__srv_log(c->s, "amd %s: session %s: waitForGraph %s: %s", c->peer,
				       c->x->id, c->x->req.graphs[g].name, aieth_error_message());
		if (rc && !failed++)
			snprintf(first, sizeof first, ": graph %s: %s",
				 aieth__amd_log_q(c->x->req.graphs[g].name, q),
				 aieth_error_message());
		waited++;
		c->started[g] = 0;
	}
	aieth__amd_log(c, failed ? "WARNING" : "INFO",
		       "request waitForGraph: timeout %u ms: graphs "
		       "waited for %u, not ended %u%s",
		       asked, waited, failed, first);
	c->last_ms = srv_now_ms();
	aieth__amdp_enc_graphs(&c->out, c->started, (uint32_t)c->x->req.ngraphs);
	return aieth__amd_io_flush(c);
}

/* ------------------------------------------------------------ manager */

static int on_mgr_device(amd_conn *c)
{
	const char *dev = c->dec.msg.device;
	aieth_board *b = NULL;
	char why[300];
	int ok;
	if (c->have_mgr) {
		snprintf(c->why, sizeof c->why, "a second test_harness_mgr ends the session");
		return -1;
	}
	why[0] = 0;
	/* the client's name is looked up in the server's boards, never opened */
	if (c->s->board && strcmp(c->s->board, dev)) {
		snprintf(why, sizeof why, "%s", c->s->board);
	} else if ((ok = aieth__srv_board_check(c->s, dev, why, sizeof why))) {
		/* why says which boards there are; a file that does not load, the log */
		if (ok == -2)
			aieth__srv_log(c->s, "board %s: %s", dev, aieth_error_message());
	} else if (aieth_board_load(&b, dev, c->s->data_dir)) {
		snprintf(why, sizeof why, "board \"%.64s\" does not load here", dev);
	} else {
		const aieth_board_info *i = aieth_board_get_info(b);
		amdp_geom g = {i->channels, AMDP_WORD_BYTES, i->uram_depth_words, AMDP_WORD_BYTES};
		if (g.n == 0 || g.n > AMDP_MAX_CHANNELS || g.d == 0 || g.d > AMDP_MAX_DEPTH)
			snprintf(why, sizeof why,
				 "board %.64s: %u channels and a depth of %u words "
				 "are beyond AMD's protocol (1..%u, 1..%u)",
				 dev, g.n, g.d, AMDP_MAX_CHANNELS, AMDP_MAX_DEPTH);
		else
			c->dec.geom = g; /* the decoder checks cfg counts against it */
		aieth_board_free(b);
	}
	ok = !why[0];
	if (ok) {
		aieth__amdp_enc_mgr_device_ok(&c->out, &c->dec.geom);
	} else {
		/* the client prints the string: it carries the reason */
		aieth__amdp_enc_mgr_device_bad(&c->out, why);
		snprintf(c->why, sizeof c->why, "device \"%s\" refused: %s", dev, why);
	}
	if (aieth__amd_io_flush(c))
		return -1;
	aieth__amdp_dec_continue(&c->dec, ok);
	return ok ? 0 : -1;
}

static const amd_model *model_of(amd_conn *c, const char *graph)
{
	size_t i;
	for (i = 0; i < c->sh->nmodels; i++)
		if (!strcmp(c->sh->models[i].name, graph))
			return &c->sh->models[i];
	return NULL;
}

/* Wait for the device in the shared queue; 0 once active. */
static int wait_active(amd_conn *c)
{
	for (;;) {
		struct pollfd p = {c->fd, POLLIN, 0};
		srv_sess_view v;
		/* alive and waiting: a queued session's idle clock reset */
		ss_state st = aieth__srv_queue_state(c->s, c->x, 1, &v);
		if (st != SS_QUEUED && st != SS_ACTIVE)
			snprintf(c->why, sizeof c->why, "its session %s %s while queued%s%s",
				 c->x->id, aieth__srv_state_names[st], v.reason[0] ? ": " : "",
				 v.reason);
		if (st == SS_ACTIVE)
			return 0;
		if (st != SS_QUEUED)
			return -1;
		if (aieth__amd_io_dying(c)) {
			snprintf(c->why, sizeof c->why, "the server stopped");
			return -1;
		}
		/* the client sends nothing while it waits: input or a hangup
		 * here means it left (or broke the protocol) */
		if (poll(&p, 1, 100) > 0) {
			snprintf(c->why, sizeof c->why, "the client %s while queued",
				 p.revents & POLLIN ? "sent data or left" : "left");
			return -1;
		}
	}
}

/* The manager's line in the session log: the client's names quoted. */
static void log_mgr(amd_conn *c)
{
	const amdp_msg *m = &c->dec.msg;
	char gl[AMD_LOG_LINE_MAX / 2], q[AMD_LOG_Q], q2[AMD_LOG_Q];
	size_t len = 0;
	uint32_t i;
	gl[0] = 0;
	for (i = 0; i < m->ngraphs && i < 4; i++) {
		const char *model = c->x->req.graphs[i].model;
		int n = snprintf(gl + len, sizeof gl - len, "%s%s (%s)", i ? ", " : "",
				 aieth__amd_log_q(m->graph[i], q), model[0] ? model : "loopback");
		if (n < 0 || (size_t)n >= sizeof gl - len)
			break;
		len += (size_t)n;
	}
	if (i < m->ngraphs)
		snprintf(gl + len, sizeof gl - len, " and %u more", m->ngraphs - i);
	aieth__amd_log(c, "INFO",
		       "request test_harness_mgr: device %s, device index %u, graphs %s; "
		       "xclbin %s (%llu bytes); session %s on the %s backend",
		       aieth__amd_log_q(m->device, q2), m->dev_index, gl,
		       aieth__amd_log_q(m->file[0], q), (unsigned long long)m->file_len[0],
		       c->x->id, c->s->backend);
}

static int on_mgr(amd_conn *c)
{
	amdp_msg *m = &c->dec.msg;
	srv_session_req req;
	char owner[SRV_TOKEN_NAME_MAX + 1], msg[512];
	uint32_t i;
	srv_sess *x;

	if (aieth__amd_xclbin_check(c))
		return -1;
	memset(&req, 0, sizeof req);
	if (aieth__srv_board_check(c->s, m->device, msg, sizeof msg)) {
		snprintf(c->why, sizeof c->why, "%s", msg); /* logged with the close */
		return -1;
	}
	snprintf(req.board, sizeof req.board, "%s", m->device);
	req.ngraphs = m->ngraphs;
	for (i = 0; i < m->ngraphs; i++) {
		const amd_model *md = model_of(c, m->graph[i]);
		snprintf(req.graphs[i].name, sizeof req.graphs[i].name, "%s", m->graph[i]);
		if (md) {
			snprintf(req.graphs[i].model, sizeof req.graphs[i].model, "%s", md->model);
			if (md->params && !(req.graphs[i].params = aieth__strdup(md->params))) {
				aieth__srv_session_req_free(&req);
				snprintf(c->why, sizeof c->why, "out of memory");
				return -1;
			}
		}
	}
	snprintf(owner, sizeof owner, "amd@%s", c->peer);
	if (!(x = aieth__srv_sess_new(owner, &req))) {
		aieth__srv_session_req_free(&req);
		snprintf(c->why, sizeof c->why, "out of memory");
		return -1;
	}
	/* the client's xrt.ini goes into the session's artifact folder, made
	 * by aieth__srv_sess_enqueue before the device opens */
	if (c->ini && c->ini_len) {
		if (!(x->xrt_ini = malloc((size_t)c->ini_len))) {
			aieth__srv_free_sess(x);
			snprintf(c->why, sizeof c->why, "out of memory");
			return -1;
		}
		memcpy(x->xrt_ini, c->ini, (size_t)c->ini_len);
		x->xrt_ini_len = (size_t)c->ini_len;
	}
	/* the emulated board takes no design xclbin: received, then ignored */
	if (c->xpath && !(aieth_backend_flags(c->s->backend) & AIETH_BACKEND_EMULATED) &&
	    !(x->xclbin = aieth__strdup(c->xpath))) {
		aieth__srv_free_sess(x);
		snprintf(c->why, sizeof c->why, "out of memory");
		return -1;
	}
	switch (aieth__srv_sess_enqueue(c->s, x, msg, sizeof msg)) {
	case SRV_Q_OK: break;
	case SRV_Q_FAILED:
		/* AMD's server sends no reply when the device cannot be opened */
		snprintf(c->why, sizeof c->why, "%s", msg);
		return -1;
	default: snprintf(c->why, sizeof c->why, "no session: %s", msg); return -1;
	}
	aieth__srv_queue_ref(c->s, x);
	c->x = x;
	aieth__srv_log(c->s, "amd %s: session %s: board %s, %u graphs, xclbin %s (%llu bytes)%s",
		       c->peer, x->id, m->device, m->ngraphs, m->file[0],
		       (unsigned long long)m->file_len[0], x->state == SS_QUEUED ? ", queued" : "");
	if (wait_active(c))
		return -1; /* as AMD's server when the device is unavailable: no reply */
	c->have_mgr = 1;
	c->last_ms = srv_now_ms();
	if (aieth__amd_txn_start(c)) {
		snprintf(c->why, sizeof c->why, "cannot start the transaction thread");
		return -1;
	}
	log_mgr(c);
	aieth__amdp_enc_max_mem(&c->out, c->s->limits.mem_max);
	return aieth__amd_io_flush(c);
}

/* ------------------------------------------------------- file return */

/* After destroy (when xrt.ini came): the regular files of the session's
 * artifact folder, plain base names only, bounded in count and size.
 * closed: the session ended and its device closed already (run_summary.json
 * was written then, final). */
static int file_return(amd_conn *c, int closed)
{
	char *names[AMDP_MAX_FILES];
	uint64_t sizes[AMDP_MAX_FILES];
	size_t n = 0, i;
	int rc = 0;
	DIR *d;
	if (c->x && !closed) {
		/* the run summary as it stands (the runner has stopped) */
		aieth__srv_queue_summary(c->s, c->x);
	}
	d = c->x && c->x->artdir ? opendir(c->x->artdir) : NULL;
	if (d) {
		struct dirent *e;
		while (n < AMDP_MAX_FILES && (e = readdir(d))) {
			struct stat st;
			if (aieth__amdp_check_name("file", e->d_name, strlen(e->d_name)) ||
			    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISREG(st.st_mode) || (uint64_t)st.st_size > AMDP_MAX_FILE_BYTES)
				continue;
			if (!(names[n] = aieth__strdup(e->d_name)))
				break;
			sizes[n++] = (uint64_t)st.st_size;
		}
		closedir(d);
	}
	aieth__amdp_enc_files_count(&c->out, n);
	for (i = 0; i < n && !rc; i++) {
		uint8_t buf[65536];
		uint64_t left = sizes[i];
		char *path = aieth__path_join(c->x->artdir, names[i]);
		int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
		free(path);
		aieth__amdp_enc_file_head(&c->out, names[i], sizes[i]);
		rc = aieth__amd_io_flush(c);
		/* exactly the announced bytes: zeros if the file shrank */
		while (!rc && left) {
			size_t k = left < sizeof buf ? (size_t)left : sizeof buf;
			ssize_t r = fd >= 0 ? read(fd, buf, k) : 0;
			if (r <= 0) {
				memset(buf, 0, k);
				r = (ssize_t)k;
			}
			rc = aieth__amd_io_send(c, buf, (size_t)r, NULL, 0, NULL, 0);
			left -= (uint64_t)r;
		}
		if (fd >= 0)
			close(fd);
	}
	if (!n)
		rc = aieth__amd_io_flush(c);
	for (i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

/* ------------------------------------------------------------ serve */

/* AMD's name of the request a message belongs to (the session log). */
static const char *req_name(amdp_kind k)
{
	switch (k) {
	case AMDP_Q_MGR_DEVICE:
	case AMDP_Q_MGR: return "test_harness_mgr";
	case AMDP_Q_RUN_BYTES:
	case AMDP_Q_RUN: return "runTestHarness";
	case AMDP_Q_QUERY: return "queryTransactionStatus";
	case AMDP_Q_WAIT_TH: return "waitForTestHarness";
	case AMDP_Q_RUN_GRAPH: return "runAIEGraph";
	case AMDP_Q_WAIT_GRAPH: return "waitForGraph";
	case AMDP_Q_SET_TIMEOUT: return "setTimeOut";
	case AMDP_Q_GET_TIMEOUT: return "getTimeOut";
	case AMDP_Q_DESTROY: return "destroy";
	case AMDP_Q_UPDATE_PORT: return "update port";
	case AMDP_Q_READ_PORT: return "read port";
	default: return NULL;
	}
}

static int dispatch(amd_conn *c);

/* One request (an AMDP_EV_MSG). 1: go on; 0: the session ended cleanly
 * (destroy); -1: the connection ends (c->why). The handlers write the
 * request's line into the session log when it succeeds; a request that
 * ends the connection gets its line here, with the reason. */
static int on_msg(amd_conn *c)
{
	amdp_kind k = c->dec.msg.kind;
	int rc = dispatch(c);
	if (rc < 0 && k != AMDP_Q_DESTROY && req_name(k))
		aieth__amd_log(c, "ERROR", "request %s: %s", req_name(k), c->why);
	return rc;
}

static int dispatch(amd_conn *c)
{
	amdp_msg *m = &c->dec.msg;
	char q[AMD_LOG_Q];
	c->last_ms = srv_now_ms();
	if (!c->have_mgr && m->kind != AMDP_Q_HELLO && m->kind != AMDP_Q_MGR_DEVICE &&
	    m->kind != AMDP_Q_MGR && m->kind != AMDP_Q_GET_TIMEOUT &&
	    m->kind != AMDP_Q_SET_TIMEOUT && m->kind != AMDP_Q_DESTROY) {
		snprintf(c->why, sizeof c->why, "request \"%s\" before test_harness_mgr",
			 c->dec.reqname);
		return -1;
	}
	switch (m->kind) {
	case AMDP_Q_HELLO:
		/* a file return is due after destroy (even for an empty xrt.ini) */
		c->ini_sent = m->nfiles > 0;
		if (c->ini_sent)
			aieth__amd_log(c, "INFO",
				       "session: handshake from %s; config file xrt.ini (%llu "
				       "bytes): the session's files are returned after destroy",
				       c->peer, (unsigned long long)c->ini_len);
		else
			aieth__amd_log(c, "INFO",
				       "session: handshake from %s; no config file: nothing is "
				       "returned after destroy (as AMD's server)",
				       c->peer);
		return 1;
	case AMDP_Q_MGR_DEVICE: return on_mgr_device(c) ? -1 : 1;
	case AMDP_Q_MGR: return on_mgr(c) ? -1 : 1;
	case AMDP_Q_RUN_BYTES: return aieth__amd_txn_run_bytes(c) ? -1 : 1;
	case AMDP_Q_RUN: return aieth__amd_txn_run(c) ? -1 : 1;
	case AMDP_Q_QUERY: return aieth__amd_txn_query(c, m->id) ? -1 : 1;
	case AMDP_Q_WAIT_TH: return aieth__amd_txn_wait(c, m->id, m->timeout) ? -1 : 1;
	case AMDP_Q_RUN_GRAPH: return on_run_graph(c, m->graph_index, m->iterations) ? -1 : 1;
	case AMDP_Q_WAIT_GRAPH: return on_wait_graph(c, m->timeout) ? -1 : 1;
	case AMDP_Q_SET_TIMEOUT:
		c->timeout_s = m->value > AMD_TIMEOUT_MAX_S ? AMD_TIMEOUT_MAX_S : m->value;
		aieth__amd_log(c, "INFO", "request setTimeOut: %llu s%s",
			       (unsigned long long)m->value,
			       m->value > AMD_TIMEOUT_MAX_S ? " (clamped to 86400 s)" : "");
		return 1;
	case AMDP_Q_GET_TIMEOUT:
		aieth__amd_log(c, "INFO", "request getTimeOut: %llu s",
			       (unsigned long long)c->timeout_s);
		aieth__amdp_enc_timeout(&c->out, c->timeout_s);
		return aieth__amd_io_flush(c) ? -1 : 1;
	case AMDP_Q_UPDATE_PORT:
		/* 24 bytes of the client's pointers: the value cannot be known */
		aieth__srv_log(c->s,
			       "amd %s: update port \"%s\" ignored: AMD's client sends pointers, "
			       "not the value (use the HTTP API for RTP)",
			       c->peer, m->port);
		aieth__amd_log(c, "WARNING",
			       "request update port: graph %u, port %s: ignored: AMD's "
			       "client sends pointers, not the value (use the HTTP API for RTP)",
			       m->graph_index, aieth__amd_log_q(m->port, q));
		return 1;
	case AMDP_Q_READ_PORT:
		snprintf(c->why, sizeof c->why,
			 "read port \"%s\": AMD's client cannot use any "
			 "reply (use the HTTP API for RTP)",
			 m->port);
		return -1;
	case AMDP_Q_DESTROY: {
		int closed;
		/* the transactions never fetched get their lines first */
		aieth__amd_txn_stop(c);
		aieth__amd_log(c, "INFO", "request destroy: the session ends%s",
			       c->ini_sent ? "; its files are returned" : "");
		/* as AMD's server returns its folder once the session's process
		 * has exited (src/ps/test_harness_main.cpp): the device closes
		 * first, so what XRT writes at its end is there too */
		closed =
			c->x ? aieth__srv_end_close(c->s, c->x, "ended by its AMD client (destroy)")
			     : 0;
		aieth__amd_log_write(c);
		if (c->ini_sent && file_return(c, closed))
			return -1;
		snprintf(c->why, sizeof c->why, "destroy");
		return 0;
	}
	default: snprintf(c->why, sizeof c->why, "unexpected message %d", (int)m->kind); return -1;
	}
}

static int on_bulk(amd_conn *c)
{
	uint8_t *dst = NULL;
	switch (c->dec.bulk) {
	case AMDP_BULK_INI:
		free(c->ini);
		if (!(c->ini = malloc((size_t)c->dec.bulk_len))) {
			snprintf(c->why, sizeof c->why, "out of memory for xrt.ini");
			return -1;
		}
		c->ini_len = c->dec.bulk_len;
		c->ini_sent = 1;
		dst = c->ini;
		break;
	case AMDP_BULK_XCLBIN:
		/* no sink: amd_io.c hands the bytes to aieth__amd_xclbin_take */
		if (aieth__amd_xclbin_begin(c, c->dec.bulk_len))
			return -1;
		break;
	case AMDP_BULK_TO_AIE:
		if (aieth__amd_txn_begin(c, &dst))
			return -1;
		break;
	default: break; /* not sent by clients: discarded */
	}
	aieth__amdp_dec_sink(&c->dec, dst);
	return 0;
}

void aieth__amd_conn_serve(amd_shared *sh, int fd, const char *peer)
{
	amd_conn *c = calloc(1, sizeof *c);
	aieth__server *s = sh->s;
	struct timeval tv = {AMD_SEND_TIMEOUT_S, 0};
	amdp_geom g0 = {36, AMDP_WORD_BYTES, 4096, AMDP_WORD_BYTES};
	int one = 1, rc = -1;

	if (!c) {
		aieth__srv_log(s, "amd %s: out of memory", peer);
		return;
	}
	c->sh = sh;
	aieth__sb_init(&c->out, AMDP_MAX_REPLY);
	c->s = s;
	c->fd = fd;
	c->peer = peer;
	c->timeout_s = s->limits.idle_s ? s->limits.idle_s : 60;
	c->last_ms = srv_now_ms();
	c->setup_end_ms = c->last_ms + (int64_t)sh->setup_s * 1000;
	c->xfd = -1;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	/* the geometry is the board's once the client names it */
	aieth__amdp_dec_init(&c->dec, AMDP_SERVER, &g0);
	aieth__srv_log(s, "amd %s: connected", peer);
	aieth__amdp_enc_available(&c->out, 1);
	if (!aieth__amd_io_flush(c)) {
		for (;;) {
			int ev = aieth__amd_io_next_event(c);
			if (ev < 0)
				break;
			if (ev == AMDP_EV_BULK) {
				if (on_bulk(c))
					break;
				continue;
			}
			rc = on_msg(c);
			if (rc <= 0)
				break;
		}
	}
	aieth__amd_txn_stop(c);
	if (rc != 0 && c->log.lines) {
		/* the log of a session that did not end by destroy: for the HTTP
		 * API's artifact listing while the session is remembered */
		aieth__amd_log(c, "ERROR", "session: ended: %s", c->why);
		aieth__amd_log_write(c);
	}
	if (c->x) {
		/* ended when still queued or active */
		aieth__srv_queue_end(s, c->x, SS_ENDED,
				     rc == 0 ? "ended by its AMD client (destroy)" : c->why);
		aieth__srv_log(s, "amd %s: session %s ended: %s", peer, c->x->id, c->why);
		aieth__srv_release(s, c->x); /* the device closes (reset) here */
	} else {
		aieth__srv_log(s, "amd %s: closed: %s", peer, c->why);
	}
	aieth__amd_xclbin_end(c);
	aieth__amd_sesslog_free(c);
	free(c->ini);
	free(c->fetched);
	aieth__sb_free(&c->out);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}
