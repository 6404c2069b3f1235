/* SPDX-License-Identifier: MIT */
/*
 * xrt_child.c - the child process of the xrt backend: it alone loads XRT
 * and owns the device, kernel, graph and buffer handles, and serves the
 * parent's requests (xrt_proto.h). XRT's waits may ignore their timeout and
 * its C API aborts the process on some errors; here that only takes this
 * process down, and the parent's watchdog reports it.
 *
 * The call sequence follows AMD's host code (fastXM, test_harness_fastxm.hpp): open
 * the device, load the PL xclbin then the AIE xclbin, open the PL kernel
 * (exclusive: its registers are needed for the soft reset) and the graphs,
 * reset the graphs, soft-reset the kernel (CTRL bit 8, polled until clear).
 * A transaction allocates one buffer per kernel argument in the argument's
 * memory group, writes and syncs it, sets the four arguments, starts the
 * run, waits, and syncs the perf words and the RX image back. Unlike AMD's
 * code (defect 8) an empty argument gets a zeroed one-page buffer, so no
 * argument register keeps the address of an earlier, freed buffer. Buffer
 * sizes are rounded up to whole 4 KiB pages: XRT allocates them with
 * aligned_alloc(4096, size), which C11 (and AddressSanitizer) requires to be
 * a multiple of the alignment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "backends/xrt/xrt_api.h"
#include "backends/xrt/xrt_child.h"
#include "backends/xrt/xrt_proto.h"

#define CTRL_SOFT_RESET 0x100u
#define PAGE 4096u

typedef struct {
	aieth_xrt_api api;
	int loaded;
	void *dev;
	void *kernel;
	void *graph[XRTP_MAX_GRAPHS];
	uint32_t ngraphs;
	int32_t group[4];
	xrtp_open_req req;
	xrtp_open_rep rep;
	xrtp_chan ch;
} child;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void reply(child *c, int code, const void *payload, size_t len)
{
	if (aieth__xrtp_send(&c->ch, XRTP_REPLY, code, payload, len, -1))
		_exit(0); /* the parent is gone */
}

static void reply_msg(child *c, int code, const char *fmt, ...) AIETH_CHILD_PRINTF(3, 4);
static void reply_msg(child *c, int code, const char *fmt, ...)
{
	char msg[1024];
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	aieth__xrtp_put_str(&b, msg);
	reply(c, code, b.u, b.n);
	aieth__sb_free(&b);
}

static const char *errno_text(void) { return errno ? strerror(errno) : "no detail"; }

static int load_api(child *c, char *msg, size_t n)
{
	if (c->loaded)
		return AIETH_OK;
	if (aieth__xrt_api_load(&c->api, c->req.lib) != AIETH_OK) {
		snprintf(msg, n, "%s", aieth_error_message());
		return AIETH_EUNSUPPORTED;
	}
	c->loaded = 1;
	return AIETH_OK;
}

/* CTRL[8] soft reset, polled until the bit reads 0. 1 done, 0 registers
 * not accessible, -1 the bit never cleared. */
static int soft_reset(child *c, void *kernel)
{
	uint32_t v = 0;
	int i;
	if (c->api.kernel_read_register(kernel, 0, &v) ||
	    c->api.kernel_write_register(kernel, 0, v | CTRL_SOFT_RESET))
		return 0;
	for (i = 0; i < 1000; i++) {
		if (c->api.kernel_read_register(kernel, 0, &v))
			return 0;
		if (!(v & CTRL_SOFT_RESET))
			return 1;
		sleep_ms(1);
	}
	return -1;
}

static int graphs_open(child *c, const unsigned char *uuid, char *msg, size_t n)
{
	uint32_t i;
	for (i = 0; i < c->req.ngraphs; i++) {
		errno = 0;
		c->graph[i] = c->api.graph_open(c->dev, uuid, c->req.graphs[i]);
		if (!c->graph[i]) {
			int e = errno;
			c->ngraphs = i;
			snprintf(msg, n, "xrtGraphOpen(\"%s\") failed (%s)%s", c->req.graphs[i],
				 e ? strerror(e) : "no detail",
				 e == EOPNOTSUPP ? ": this XRT has no AIE support (Debian's x86 "
						   "XRT and XRT's noop mode have none); graphs "
						   "run only on the board"
						 : "");
			return e == EOPNOTSUPP ? AIETH_EUNSUPPORTED : AIETH_EDEVICE;
		}
	}
	c->ngraphs = c->req.ngraphs;
	return AIETH_OK;
}

static void copy_str(char *d, size_t n, const char *s)
{
	size_t k = strlen(s);
	if (k >= n)
		k = n - 1;
	memcpy(d, s, k);
	d[k] = '\0';
}

static void do_open(child *c)
{
	char msg[2600] = "";
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	unsigned char uuid[16];
	int rc, a, r;

	memset(&c->rep, 0, sizeof c->rep);
	if ((rc = load_api(c, msg, sizeof msg)))
		goto fail;
	errno = 0;
	c->dev = c->api.device_open(c->req.device);
	if (!c->dev) {
		rc = AIETH_EDEVICE;
		snprintf(msg, sizeof msg, "xrtDeviceOpen(%u) failed: no device %u (%s)",
			 c->req.device, c->req.device, errno_text());
		goto fail;
	}
	if (c->req.pl_xclbin[0]) {
		if (c->api.device_load_xclbin_file(c->dev, c->req.pl_xclbin)) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg, "xrtDeviceLoadXclbinFile(%s) failed (%s)",
				 c->req.pl_xclbin, errno_text());
			goto fail;
		}
		if (c->api.device_get_xclbin_uuid(c->dev, c->rep.pl_uuid)) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg, "xrtDeviceGetXclbinUUID after loading %s failed",
				 c->req.pl_xclbin);
			goto fail;
		}
		errno = 0;
		c->kernel = c->api.pl_kernel_open_exclusive(c->dev, c->rep.pl_uuid, c->req.kernel);
		if (!c->kernel) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg,
				 "xrtPLKernelOpenExclusive(\"%s\") failed (%s): %s does not hold "
				 "the board's PL DMA kernel",
				 c->req.kernel, errno_text(), c->req.pl_xclbin);
			goto fail;
		}
		for (a = 0; a < 4; a++) {
			c->group[a] = c->api.kernel_arg_group_id(c->kernel, a);
			c->rep.group[a] = c->group[a];
			if (c->group[a] < 0) {
				rc = AIETH_EDEVICE;
				snprintf(msg, sizeof msg,
					 "xrtKernelArgGroupId(%s, %d) failed: the xclbin has no "
					 "memory connection for argument %d",
					 c->req.kernel, a, a);
				goto fail;
			}
		}
	}
	memcpy(uuid, c->rep.pl_uuid, 16);
	if (c->req.aie_xclbin[0]) {
		if (c->api.device_load_xclbin_file(c->dev, c->req.aie_xclbin)) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg, "xrtDeviceLoadXclbinFile(%s) failed (%s)",
				 c->req.aie_xclbin, errno_text());
			goto fail;
		}
		if (c->api.device_get_xclbin_uuid(c->dev, uuid)) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg, "xrtDeviceGetXclbinUUID after loading %s failed",
				 c->req.aie_xclbin);
			goto fail;
		}
	}
	memcpy(c->rep.aie_uuid, uuid, 16);
	if ((rc = graphs_open(c, uuid, msg, sizeof msg)))
		goto fail;
	for (a = 0; a < (int)c->ngraphs; a++)
		if (c->api.graph_reset(c->graph[a])) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg, "xrtGraphReset(\"%s\") failed", c->req.graphs[a]);
			goto fail;
		}
	if (c->kernel) {
		r = soft_reset(c, c->kernel);
		if (r < 0) {
			rc = AIETH_EDEVICE;
			snprintf(msg, sizeof msg,
				 "soft reset of %s: CTRL bit 8 still set after 1000 polls (1 s)",
				 c->req.kernel);
			goto fail;
		}
		c->rep.soft_reset = (uint32_t)r;
	}
	aieth__xrtp_encode_open_rep(&b, &c->rep);
	reply(c, AIETH_OK, b.u, b.n);
	aieth__sb_free(&b);
	return;
fail:
	copy_str(c->rep.msg, sizeof c->rep.msg, msg);
	aieth__xrtp_encode_open_rep(&b, &c->rep);
	reply(c, rc, b.u, b.n);
	aieth__sb_free(&b);
}

/* A fresh child after a hang: reset what can be reset, report each step. */
static void do_reset(child *c)
{
	char msg[1024] = "";
	size_t n = 0;
	unsigned char uuid[16];
	uint32_t i;
	int rc = AIETH_OK;
	void *aie;

#define NOTE(...) (n += (size_t)snprintf(msg + n, n < sizeof msg ? sizeof msg - n : 0, __VA_ARGS__))
	if ((rc = load_api(c, msg, sizeof msg))) {
		reply_msg(c, rc, "%s", msg);
		return;
	}
	c->dev = c->api.device_open(c->req.device);
	if (!c->dev) {
		reply_msg(c, AIETH_EDEVICE, "xrtDeviceOpen(%u) failed", c->req.device);
		return;
	}
	if (c->api.device_get_xclbin_uuid(c->dev, uuid) == 0) {
		for (i = 0; i < c->req.ngraphs; i++) {
			void *g = c->api.graph_open(c->dev, uuid, c->req.graphs[i]);
			if (!g || c->api.graph_reset(g)) {
				NOTE("graph \"%s\" not reset; ", c->req.graphs[i]);
				rc = AIETH_EDEVICE;
			}
			if (g)
				c->api.graph_close(g);
		}
	} else {
		NOTE("no xclbin uuid: graphs not reset; ");
		rc = AIETH_EDEVICE;
	}
	aie = c->api.aie_device_open(c->req.device);
	if (!aie || c->api.aie_reset_array(aie)) {
		NOTE("AIE array not reset; ");
		rc = AIETH_EDEVICE;
	}
	if (c->req.kernel[0]) {
		void *k = c->api.pl_kernel_open_exclusive(c->dev, c->req.pl_uuid, c->req.kernel);
		if (!k || soft_reset(c, k) != 1) {
			NOTE("PL kernel %s not soft-reset; ", c->req.kernel);
			rc = AIETH_EDEVICE;
		}
	}
#undef NOTE
	while (n > 0 && n < sizeof msg && (msg[n - 1] == ' ' || msg[n - 1] == ';'))
		msg[--n] = '\0';
	reply_msg(c, rc, "%s", msg);
}

static int graph_index(child *c, xrtp_rd *r, uint32_t *g)
{
	*g = aieth__xrtp_get_u32(r);
	if (r->err || *g >= c->ngraphs) {
		reply_msg(c, AIETH_EINVAL, "graph index %u outside 0..%u", *g, c->ngraphs);
		return -1;
	}
	return 0;
}

static void do_graph(child *c, uint32_t type, const uint8_t *p, size_t len)
{
	xrtp_rd r = {p, p ? len : 0, 0, 0};
	uint32_t g;
	char port[XRTP_MAX_STR + 1];
	const char *name;
	int rc;

	if (graph_index(c, &r, &g))
		return;
	name = c->req.graphs[g];
	if (type == XRTP_GRAPH_RUN) {
		int64_t it = (int64_t)aieth__xrtp_get_u64(&r);
		rc = c->api.graph_run(c->graph[g], (int)it);
		if (rc)
			reply_msg(c, AIETH_EDEVICE, "xrtGraphRun(\"%s\", %d) returned %d", name,
				  (int)it, rc);
		else
			reply_msg(c, AIETH_OK, "%s", "");
	} else if (type == XRTP_GRAPH_WAIT) {
		uint32_t ms = aieth__xrtp_get_u32(&r);
		rc = c->api.graph_wait_done(c->graph[g],
					    (int)(ms > 0x7fffffffu ? 0x7fffffffu : ms));
		if (rc == 0)
			reply_msg(c, AIETH_OK, "%s", "");
		else if (rc == -ETIME || rc == ETIME)
			reply_msg(c, AIETH_ETIMEOUT, "graph \"%s\" not done after %u ms", name, ms);
		else
			reply_msg(c, AIETH_EDEVICE, "xrtGraphWaitDone(\"%s\") returned %d", name,
				  rc);
	} else if (type == XRTP_GRAPH_END) {
		rc = c->api.graph_end(c->graph[g], 1);
		if (rc)
			reply_msg(c, AIETH_EDEVICE, "xrtGraphEnd(\"%s\") returned %d", name, rc);
		else
			reply_msg(c, AIETH_OK, "%s", "");
	} else if (type == XRTP_RTP_UPDATE) {
		size_t n;
		const uint8_t *d;
		aieth__xrtp_get_str(&r, port, sizeof port);
		d = aieth__xrtp_get_blob(&r, XRTP_MAX_RTP, &n);
		if (r.err) {
			reply_msg(c, AIETH_EINVAL, "malformed RTP request");
			return;
		}
		rc = c->api.graph_update_rtp(c->graph[g], port, (const char *)d, n);
		if (rc)
			reply_msg(c, AIETH_EDEVICE,
				  "xrtGraphUpdateRTP(\"%s\", \"%s\", %zu bytes) "
				  "returned %d",
				  name, port, n, rc);
		else
			reply_msg(c, AIETH_OK, "%s", "");
	} else {
		uint64_t n;
		char *buf;
		aieth__xrtp_get_str(&r, port, sizeof port);
		n = aieth__xrtp_get_u64(&r);
		if (r.err || n > XRTP_MAX_RTP) {
			reply_msg(c, AIETH_EINVAL, "malformed RTP request");
			return;
		}
		buf = calloc(1, n ? (size_t)n : 1);
		if (!buf) {
			reply_msg(c, AIETH_ENOMEM, "out of memory");
			return;
		}
		rc = c->api.graph_read_rtp(c->graph[g], port, buf, (size_t)n);
		if (rc) {
			reply_msg(c, AIETH_EDEVICE,
				  "xrtGraphReadRTP(\"%s\", \"%s\", %llu bytes) "
				  "returned %d",
				  name, port, (unsigned long long)n, rc);
		} else {
			sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
			aieth__xrtp_put_str(&b, "");
			aieth__xrtp_put_blob(&b, buf, (size_t)n);
			reply(c, AIETH_OK, b.u, b.n);
			aieth__sb_free(&b);
		}
		free(buf);
	}
}

static const char *state_name(unsigned s)
{
	static const char *const n[] = {"?",     "NEW",   "QUEUED",    "RUNNING", "COMPLETED",
					"ERROR", "ABORT", "SUBMITTED", "TIMEOUT", "NORESPONSE"};
	return s < sizeof n / sizeof n[0] ? n[s] : "?";
}

static void txn_reply(child *c, int code, xrtp_txn_rep *rep)
{
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	aieth__xrtp_encode_txn_rep(&b, rep);
	reply(c, code, b.u, b.n);
	aieth__sb_free(&b);
}

static void do_txn(child *c, const uint8_t *p, size_t len)
{
	static const char *const argname[4] = {"cfg", "perf", "to_aie_mem", "from_aie_mem"};
	xrtp_txn_req *t = malloc(sizeof *t);
	xrtp_txn_rep *rep = calloc(1, sizeof *rep);
	void *bo[4] = {NULL, NULL, NULL, NULL}, *run = NULL;
	uint8_t *map[4] = {NULL, NULL, NULL, NULL};
	uint64_t size[4], bytes[4];
	unsigned st;
	int a, code = AIETH_OK;

	if (!t || !rep) {
		free(t);
		free(rep);
		reply_msg(c, AIETH_ENOMEM, "out of memory");
		return;
	}
	if (aieth__xrtp_decode_txn(p, len, t)) {
		free(t);
		free(rep);
		reply_msg(c, AIETH_EINVAL, "malformed transaction request");
		_exit(2); /* the bulk data that follows cannot be skipped reliably */
	}
	if (!c->kernel) {
		free(t);
		free(rep);
		reply_msg(c, AIETH_ESTATE, "no PL kernel open (no PL xclbin)");
		_exit(2);
	}
	bytes[0] = (uint64_t)t->ncfg * 8u;
	bytes[1] = 4ull * t->channels * 8u;
	bytes[2] = t->tx_bytes;
	bytes[3] = t->rx_bytes;
	rep->nperf = 4u * t->channels;
	for (a = 0; a < 4; a++) {
		size[a] = bytes[a] ? (bytes[a] + PAGE - 1) / PAGE * PAGE : PAGE;
		errno = 0;
		bo[a] = c->api.bo_alloc(c->dev, (size_t)size[a], 0, (uint32_t)c->group[a]);
		map[a] = bo[a] ? c->api.bo_map(bo[a]) : NULL;
		if (!map[a]) {
			snprintf(
				rep->msg, sizeof rep->msg,
				"cannot allocate the %llu-byte buffer of kernel argument %d (%s) in "
				"memory group %d (%s)",
				(unsigned long long)size[a], a, argname[a], c->group[a],
				errno_text());
			code = AIETH_EDEVICE;
			break;
		}
	}
	/* the TX bulk data follows the request in every case */
	if (code == AIETH_OK) {
		memset(map[0], 0, (size_t)size[0]);
		memcpy(map[0], t->cfg, (size_t)bytes[0]);
		memset(map[1], 0, (size_t)size[1]);
		if (bytes[2] && aieth__xrtp_recv_raw(&c->ch, map[2], (size_t)bytes[2], -1))
			_exit(0);
		memset(map[2] + bytes[2], 0, (size_t)(size[2] - bytes[2]));
		memset(map[3], 0, (size_t)size[3]);
	} else {
		uint8_t sink[65536];
		uint64_t left = t->tx_bytes;
		while (left) {
			size_t k = left > sizeof sink ? sizeof sink : (size_t)left;
			if (aieth__xrtp_recv_raw(&c->ch, sink, k, -1))
				_exit(0);
			left -= k;
		}
		rep->status = AIETH_TXN_FAILED;
		goto out;
	}
	for (a = 0; a < 4; a++)
		if (c->api.bo_sync(bo[a], AIETH_XCL_BO_SYNC_TO_DEVICE, (size_t)size[a], 0)) {
			snprintf(rep->msg, sizeof rep->msg,
				 "xrtBOSync of argument %d (%s) to the "
				 "device failed",
				 a, argname[a]);
			code = AIETH_EDEVICE;
			rep->status = AIETH_TXN_FAILED;
			goto out;
		}
	run = c->api.run_open(c->kernel);
	for (a = 0; run && a < 4; a++)
		if (c->api.run_set_arg(run, a, bo[a])) {
			snprintf(rep->msg, sizeof rep->msg, "xrtRunSetArg(%d, %s) failed", a,
				 argname[a]);
			break;
		}
	if (!run || a < 4 || c->api.run_start(run)) {
		if (!rep->msg[0])
			snprintf(rep->msg, sizeof rep->msg, "%s of %s failed",
				 run ? "xrtRunStart" : "xrtRunOpen", c->req.kernel);
		code = AIETH_EDEVICE;
		rep->status = AIETH_TXN_FAILED;
		goto out;
	}
	st = c->api.run_wait_for(run, t->timeout_ms);
	if (st != AIETH_ERT_COMPLETED)
		st = c->api.run_state(run);
	rep->run_state = st;
	if (st == AIETH_ERT_COMPLETED) {
		if (c->api.bo_sync(bo[1], AIETH_XCL_BO_SYNC_FROM_DEVICE, (size_t)size[1], 0) ||
		    c->api.bo_sync(bo[3], AIETH_XCL_BO_SYNC_FROM_DEVICE, (size_t)size[3], 0)) {
			snprintf(rep->msg, sizeof rep->msg, "xrtBOSync from the device failed");
			code = AIETH_EDEVICE;
			rep->status = AIETH_TXN_FAILED;
			goto out;
		}
		rep->status = AIETH_TXN_DONE;
		memcpy(rep->perf, map[1], (size_t)bytes[1]);
		rep->rx_bytes = bytes[3];
		txn_reply(c, AIETH_OK, rep);
		if (bytes[3] && aieth__xrtp_send_raw(&c->ch, map[3], (size_t)bytes[3], -1))
			_exit(0);
		c->api.run_close(run);
		for (a = 0; a < 4; a++)
			c->api.bo_free(bo[a]);
		free(t);
		free(rep);
		return;
	}
	if (st == AIETH_ERT_ERROR || st == AIETH_ERT_ABORT) {
		rep->status = AIETH_TXN_FAILED;
		snprintf(rep->msg, sizeof rep->msg, "the run of %s ended in state %s",
			 c->req.kernel, state_name(st));
		goto out;
	}
	/* not complete: read what the board offers; the parent then kills this
	 * process and resets the device, so nothing is freed here */
	rep->status = AIETH_TXN_TIMEOUT;
	rep->have_ctrl = c->api.kernel_read_register(c->kernel, 0, &rep->ctrl) == 0;
	if (c->api.bo_sync(bo[1], AIETH_XCL_BO_SYNC_FROM_DEVICE, (size_t)size[1], 0) == 0)
		memcpy(rep->perf, map[1], (size_t)bytes[1]);
	snprintf(rep->msg, sizeof rep->msg, "the run of %s is %s after the %u ms timeout",
		 c->req.kernel, state_name(st), t->timeout_ms);
	txn_reply(c, AIETH_OK, rep);
	free(t);
	free(rep);
	return;
out:
	txn_reply(c, code, rep);
	if (run)
		c->api.run_close(run);
	for (a = 0; a < 4; a++)
		if (bo[a])
			c->api.bo_free(bo[a]);
	free(t);
	free(rep);
}

static void do_close(child *c)
{
	uint32_t i;
	for (i = 0; i < c->ngraphs; i++)
		if (c->graph[i])
			c->api.graph_close(c->graph[i]);
	if (c->kernel)
		c->api.kernel_close(c->kernel);
	if (c->dev)
		c->api.device_close(c->dev);
	reply_msg(c, AIETH_OK, "%s", "");
}

void aieth__xrt_child_main(int fd, int clean_exit)
{
	child *c = calloc(1, sizeof *c);
	if (!c)
		_exit(3);
	c->ch.fd = fd;
	c->ch.side_fd = -1;
	for (;;) {
		xrtp_hdr h;
		uint8_t *p = NULL;
		if (aieth__xrtp_recv(&c->ch, &h, &p, -1))
			_exit(0);
		switch (h.type) {
		case XRTP_OPEN:
		case XRTP_RESET:
			if (aieth__xrtp_decode_open(p, (size_t)h.len, &c->req)) {
				reply_msg(c, AIETH_EINVAL, "malformed open request");
				break;
			}
			if (h.type == XRTP_OPEN)
				do_open(c);
			else
				do_reset(c);
			break;
		case XRTP_GRAPH_RUN:
		case XRTP_GRAPH_WAIT:
		case XRTP_GRAPH_END:
		case XRTP_RTP_UPDATE:
		case XRTP_RTP_READ: do_graph(c, h.type, p, (size_t)h.len); break;
		case XRTP_TXN: do_txn(c, p, (size_t)h.len); break;
		case XRTP_CLOSE:
			do_close(c);
			free(p);
			if (clean_exit) {
				fflush(NULL);
				exit(0);
			}
			_exit(0);
		default: reply_msg(c, AIETH_EINVAL, "unknown request %u", h.type); break;
		}
		free(p);
	}
}
