/* SPDX-License-Identifier: MIT */
/*
 * amd_client - a client of AMD's AI-Engine-Test-Harness TCP protocol,
 * written from the specification (docs/amd-protocol.md) with the
 * codec's client side (server/amd/amd_proto.h), to drive th_server
 * --amd-listen in tests. Each scenario checks itself: exit 0 when every
 * check passed, 1 with a message naming the check otherwise.
 *
 *   amd_client full PORT MODEL [BYTES] [DIR]  sessions as AMD's clients
 *                                    run them; results compared with the
 *                                    same transactions on a local emulated
 *                                    board (graph "gr" with MODEL,
 *                                    "name:json"); BYTES per channel
 *                                    (default 4096); the returned files
 *                                    written into DIR
 *   amd_client files PORT DIR [N]    the session files returned after destroy:
 *                                    the session log's lines counted against
 *                                    the requests sent (N more getTimeOut
 *                                    requests: the log's cap), the files
 *                                    written into DIR
 *   amd_client mismatch PORT DEVICE  a device the server does not have
 *   amd_client memory PORT           accepted = 0 past --max-memory
 *   amd_client malformed PORT        a broken frame: the server closes
 *   amd_client hold PORT FILE        hold the device until FILE exists
 *   amd_client stuck PORT WHAT       stop mid-upload, mid-transaction or
 *                                    mid-download (WHAT: upload, txn,
 *                                    download) and wait to be killed
 *   amd_client latency PORT N        mean round trip of N status queries
 *   amd_client slowwait PORT         a wait that ends before the device
 *                                    (graph "other" on a slow model): TIMEOUT
 *   amd_client xclbin PORT BYTES     a manager with an xclbin of BYTES bytes
 *                                    the server refuses: it closes with no
 *                                    reply (sending may break off)
 *   amd_client zeros PORT MIB        a transaction the server's checks refuse,
 *                                    with a from_aie of MIB MiB: its TIMEOUT
 *                                    reply read (and dropped) as it streams
 *   amd_client idle PORT             setTimeOut(86400) and getTimeOut every
 *                                    100 ms, never a manager: the server
 *                                    closes (printed with the seconds taken)
 *   amd_client example PORT NAME     the data path of AMD's example NAME
 *                                    (testcase_dmafifo_opt, normalization_v2,
 *                                    channelizer, python_adder) as its
 *                                    client drives it: its device, graph,
 *                                    channels and sizes; the RX data checked
 *                                    against what the example computes
 *                                    (the server runs the preset: --graph-model
 *                                    GRAPH=@NAME)
 *
 *   amd_client xrtfiles PORT DIR      a session with an xrt.ini, a graph
 *                                    run, destroy: the returned files
 *                                    written into DIR
 *
 * $AMD_CLIENT_INI and $AMD_CLIENT_XCLBIN: files sent instead of the
 * built-in xrt.ini and 113-byte xclbin (a server on --backend xrt loads
 * the xclbin, and its XRT reads the xrt.ini).
 *
 * Every read has a 20 s deadline; every loop is bounded.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "pld/protocol.h"
#include "th_server/amd/amd_proto.h"

#define N36 36u
#define D4K 4096u
/* bytes per channel in each transaction: 4096, or full's BYTES (AMD's own
 * adder example moves 16384: 4096 int32 per iteration) */
static uint32_t win = 4096u;
/* the xrt.ini sent and the manager's xclbin: these, or the files
 * $AMD_CLIENT_INI and $AMD_CLIENT_XCLBIN name (a server on the xrt backend
 * needs a real design, and an xrt.ini asking XRT for files) */
static const char *INI = "[Debug]\nxrt_trace=true\n";
static const uint8_t XCL0[113] = {'x', 'c', 'l', 'b', 'i', 'n', '2'};
static const uint8_t *XCL = XCL0;
static size_t XCL_LEN = sizeof XCL0;

static int checks;
/* requests sent and transactions accepted, counted against the returned
 * test_harness_session.log (one line each) */
static unsigned nreq, ntxn;

static void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "amd_client: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

#define CHECK(cond, ...)                  \
	do {                              \
		checks++;                 \
		if (!(cond))              \
			die(__VA_ARGS__); \
	} while (0)

/* ------------------------------------------------------ the connection */

typedef struct {
	int fd;
	amdp_dec dec;
	sbuf b;
	uint8_t in[65536];
	size_t in_len, in_pos;
	/* bulk payloads of the last reply */
	uint8_t *from_aie;
	uint64_t from_len;
	uint32_t nfiles;
	uint8_t *file[AMDP_MAX_FILES];
	int discard; /* from_aie is read and dropped (its length kept) */
} conn;

static void conn_open(conn *c, int port)
{
	struct sockaddr_in a;
	struct timeval tv = {20, 0};
	int one = 1;
	int tries;
	memset(c, 0, sizeof *c);
	aieth__sb_init(&c->b, AMDP_MAX_MSG);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* a server started just before (in the background) may not listen
	 * yet: refused connections are retried for 10 s */
	for (tries = 0;; tries++) {
		struct timespec pause = {0, 100 * 1000000L};
		c->fd = socket(AF_INET, SOCK_STREAM, 0);
		if (c->fd < 0)
			die("socket: %s", strerror(errno));
		if (!connect(c->fd, (struct sockaddr *)&a, sizeof a))
			break;
		if (errno != ECONNREFUSED || tries == 100)
			die("connect to 127.0.0.1:%d: %s", port, strerror(errno));
		close(c->fd);
		nanosleep(&pause, NULL);
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	aieth__amdp_dec_init(&c->dec, AMDP_CLIENT, NULL);
}

static void conn_send(conn *c)
{
	size_t off = 0;
	if (c->b.oom)
		die("out of memory building a request");
	while (off < c->b.n) {
		ssize_t n = send(c->fd, c->b.u + off, c->b.n - off, MSG_NOSIGNAL);
		if (n <= 0)
			die("send: %s", n ? strerror(errno) : "closed");
		off += (size_t)n;
	}
	aieth__sb_reset(&c->b);
}

static void free_bulk(conn *c)
{
	uint32_t i;
	free(c->from_aie);
	c->from_aie = NULL;
	for (i = 0; i < c->nfiles; i++)
		free(c->file[i]);
	c->nfiles = 0;
}

/* Read the reply of the given kind into c->dec.msg (bulk into c). */
static amdp_msg *reply(conn *c, amdp_kind kind)
{
	free_bulk(c);
	if (aieth__amdp_dec_expect(&c->dec, kind))
		die("expect: %s", aieth_error_message());
	for (;;) {
		int ev;
		size_t used = 0;
		if (c->in_pos == c->in_len) {
			ssize_t n = recv(c->fd, c->in, sizeof c->in, 0);
			if (n <= 0)
				die("waiting for reply %d: %s", (int)kind,
				    n ? strerror(errno) : "the server closed the connection");
			c->in_len = (size_t)n;
			c->in_pos = 0;
		}
		ev = aieth__amdp_dec_feed(&c->dec, c->in + c->in_pos, c->in_len - c->in_pos, &used);
		c->in_pos += used;
		if (ev < 0)
			die("reply %d: %s", (int)kind, aieth_error_message());
		if (ev == AMDP_EV_BULK) {
			uint8_t *p;
			if (c->discard && c->dec.bulk == AMDP_BULK_FROM_AIE) {
				c->from_len = c->dec.bulk_len;
				aieth__amdp_dec_sink(&c->dec, NULL);
				continue;
			}
			p = malloc(c->dec.bulk_len ? (size_t)c->dec.bulk_len : 1);
			if (!p)
				die("out of memory");
			if (c->dec.bulk == AMDP_BULK_FROM_AIE) {
				c->from_aie = p;
				c->from_len = c->dec.bulk_len;
			} else {
				c->file[c->nfiles++] = p;
			}
			aieth__amdp_dec_sink(&c->dec, p);
		} else if (ev == AMDP_EV_MSG) {
			return &c->dec.msg;
		}
	}
}

/* The server closes: recv gives 0 within the read deadline. */
static void expect_close(conn *c, const char *what)
{
	uint8_t b[256];
	int i;
	for (i = 0; i < 1000; i++) {
		ssize_t n = recv(c->fd, b, sizeof b, 0);
		if (n == 0)
			break;
		if (n < 0)
			die("%s: no close: %s", what, strerror(errno));
	}
	checks++;
	close(c->fd);
	free_bulk(c);
	aieth__sb_free(&c->b);
}

static void hello(conn *c, int with_ini)
{
	const char *nm[1] = {"xrt.ini"};
	const uint8_t *dt[1] = {(const uint8_t *)INI};
	uint64_t ln[1] = {strlen(INI)};
	CHECK(reply(c, AMDP_R_AVAILABLE)->flag == 1, "available is not 1");
	aieth__amdp_enc_hello(&c->b, 1, with_ini ? 1 : 0, nm, dt, ln);
	conn_send(c);
}

static void manager_g(conn *c, const char *device, uint32_t ngraphs, const char *const *gr)
{
	const char *kn[1] = {"vck190_test_harness"};
	amdp_msg *m;
	aieth__amdp_enc_req_mgr_device(&c->b, device);
	conn_send(c);
	nreq++;
	m = reply(c, AMDP_R_MGR_DEVICE);
	CHECK(m->flag == 1, "device %s refused: <%s>", device, m->device);
	CHECK(m->n == N36 && m->w == 16 && m->d == D4K && m->m == 16,
	      "geometry N=%u W=%u D=%u M=%u, VCK190 is 36 16 4096 16", m->n, m->w, m->d, m->m);
	aieth__amdp_enc_req_mgr(&c->b, 0, ngraphs, gr, NULL, 1, kn, "vck190_test_harness.xclbin",
				XCL, XCL_LEN);
	conn_send(c);
	m = reply(c, AMDP_R_MAX_MEM);
	CHECK(m->value > 0, "max memory is 0");
}

static void manager(conn *c, const char *device, uint32_t ngraphs)
{
	static const char *const gr[1] = {"gr"};
	manager_g(c, device, ngraphs, gr);
}

/* -------------------------------------------------- transactions */

typedef struct {
	pld_txn w;
	uint8_t *tx, *rx; /* flat images as AMD's protocol carries them */
	uint8_t *data[3]; /* in0, in1, out */
	uint64_t *perf;
} txn;

/* The adder test of AMD's capture: PLIO_01 and PLIO_03 in, PLIO_02 out. */
static void txn_make(txn *t, int mode, uint32_t seed)
{
	pld_arg a[3];
	char err[256];
	uint32_t i, k;
	memset(t, 0, sizeof *t);
	memset(a, 0, sizeof a);
	for (k = 0; k < 3; k++) {
		t->data[k] = calloc(1, win);
		if (!t->data[k])
			die("out of memory");
		if (k < 2)
			for (i = 0; i < win / 4; i++) {
				int32_t v = (int32_t)(seed * 7919u + i * (k + 3u) + k);
				memcpy(t->data[k] + 4 * i, &v, 4);
			}
		a[k].dir = k == 2;
		a[k].index = k == 0 ? 0 : k == 1 ? 2 : 1;
		a[k].size = win;
		a[k].reps = 1;
		a[k].data = t->data[k];
	}
	if (aieth__pld_txn_encode(&t->w, N36, D4K, (uint64_t)mode, a, 3, err, sizeof err))
		die("pld_txn_encode: %s", err);
	t->tx = calloc(1, t->w.tx.size);
	t->rx = calloc(1, t->w.rx.size ? t->w.rx.size : 1);
	if (!t->tx || !t->rx)
		die("out of memory");
	aieth__pld_image_read(&t->w.tx, 0, t->tx, t->w.tx.size);
}

static void txn_free(txn *t)
{
	int k;
	aieth__pld_txn_release(&t->w);
	free(t->tx);
	free(t->rx);
	for (k = 0; k < 3; k++)
		free(t->data[k]);
}

/* The same transaction on the local emulated board: RX image and perf. */
static void txn_local(aieth_session *s, txn *t)
{
	aieth_dev_txn_opts o = AIETH_DEV_TXN_OPTS_INIT;
	aieth_dev_txn *d = NULL;
	const uint64_t *perf;
	size_t n = 0;
	o.cfg = t->w.cfg;
	o.cfg_words = pld_cfg_count(N36);
	o.depth = D4K;
	o.tx = t->tx;
	o.tx_size = t->w.tx.size;
	o.rx = t->rx;
	o.rx_size = t->w.rx.size;
	if (aieth_dev_txn_start(s, &o, &d) || aieth_dev_txn_wait(d, 0))
		die("local transaction: %s", aieth_error_message());
	CHECK(aieth_dev_txn_status(d) == AIETH_TXN_DONE, "local transaction: status %d: %s",
	      (int)aieth_dev_txn_status(d), aieth_dev_txn_message(d));
	perf = aieth_dev_txn_perf(d, &n);
	CHECK(perf && n == pld_perf_count(N36), "local transaction: %zu perf words", n);
	if (perf && n == pld_perf_count(N36))
		memcpy(t->w.perf, perf, n * sizeof *perf);
	aieth_dev_txn_free(d);
}

static void send_run(conn *c, txn *t, uint32_t id, int expect_accepted)
{
	uint64_t bytes = aieth__amdp_txn_bytes(N36, t->w.tx.size, t->w.rx.size);
	aieth__amdp_enc_req_run_bytes(&c->b, bytes);
	conn_send(c);
	nreq++;
	CHECK(reply(c, AMDP_R_ACCEPTED)->flag == expect_accepted,
	      "transaction %u: accepted is %d, expected %d", id, !expect_accepted, expect_accepted);
	if (!expect_accepted)
		return;
	ntxn++;
	aieth__amdp_enc_req_run(&c->b, (uint8_t)t->w.cfg[0], id, 0, t->w.cfg, 8 * N36 + 1, t->tx,
				t->w.tx.size, t->w.rx.size);
	conn_send(c);
}

static uint8_t query(conn *c, uint32_t id)
{
	aieth__amdp_enc_req_query(&c->b, id);
	conn_send(c);
	nreq++;
	return reply(c, AMDP_R_STATUS)->status;
}

/* Fetch id as AMD's client thread does (polls, then waits); compare. */
static void fetch(conn *c, txn *t, uint32_t id, int poll_first)
{
	amdp_msg *m;
	int i;
	for (i = 0; poll_first && i < 200; i++) {
		uint8_t st = query(c, id);
		if (st == AMDP_ST_DONE || st == AMDP_ST_TIMEOUT)
			break;
		usleep(10000);
	}
	aieth__amdp_enc_req_wait_th(&c->b, id, 0);
	conn_send(c);
	nreq++;
	m = reply(c, AMDP_R_WAIT_TH);
	CHECK(m->status == AMDP_ST_DONE, "transaction %u: status %u, expected DONE (4)", id,
	      m->status);
	CHECK(c->from_len == t->w.rx.size, "transaction %u: from_aie %llu bytes, expected %llu", id,
	      (unsigned long long)c->from_len, (unsigned long long)t->w.rx.size);
	CHECK(memcmp(c->from_aie, t->rx, (size_t)c->from_len) == 0,
	      "transaction %u: from_aie differs from the local run", id);
	CHECK(m->nperf == 4 * N36, "transaction %u: %u perf words", id, m->nperf);
	CHECK(memcmp(m->perf, t->w.perf, 4 * N36 * sizeof(uint64_t)) == 0,
	      "transaction %u: perf words differ from the local run", id);
	CHECK(query(c, id) == AMDP_ST_DONE, "transaction %u: a fetched id must query DONE", id);
}

static void run_graph(conn *c, aieth_session *s, uint32_t it)
{
	amdp_msg *m;
	aieth__amdp_enc_req_run_graph(&c->b, 0, it);
	conn_send(c);
	nreq++;
	m = reply(c, AMDP_R_GRAPHS);
	CHECK(m->started[0] == 1, "runAIEGraph: started[0] = %u, AMD's client asserts 1",
	      m->started[0]);
	if (s && aieth_graph_run(s, "gr", it))
		die("local graph run: %s", aieth_error_message());
}

static void wait_graph(conn *c, aieth_session *s)
{
	amdp_msg *m;
	uint32_t i;
	aieth__amdp_enc_req_wait_graph(&c->b, 0);
	conn_send(c);
	nreq++;
	m = reply(c, AMDP_R_GRAPHS);
	for (i = 0; i < m->ngraphs; i++)
		CHECK(m->started[i] == 0, "waitForGraph: started[%u] = 1", i);
	if (s)
		aieth_graph_wait(s, "gr", 0);
}

static uint64_t get_timeout(conn *c)
{
	aieth__amdp_enc_req_get_timeout(&c->b);
	conn_send(c);
	nreq++;
	return reply(c, AMDP_R_TIMEOUT)->value;
}

/* ------------------------------------------------------ scenarios */

static aieth_session *local_open(const char *model)
{
	aieth_session *s;
	aieth_session_opts o;
	aieth_graph_spec g;
	char name[256];
	const char *colon = strchr(model, ':');
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - model) : (int)strlen(model),
		 model);
	g.name = "gr";
	g.model = name;
	g.model_params = colon ? colon + 1 : NULL;
	o.board = "vck190";
	o.backend = "emu";
	o.graphs = &g;
	o.num_graphs = 1;
	if (aieth_session_open(&s, &o))
		die("local session: %s", aieth_error_message());
	return s;
}

/* Write the returned file name (a plain name: the decoder checked it)
 * into dir. */
static void save_file(const char *dir, const char *name, const uint8_t *p, uint64_t n)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")) || fwrite(p, 1, (size_t)n, f) != (size_t)n || fclose(f))
		die("cannot write %s", path);
}

/* The returned test_harness_session.log: every line in AMD's form
 * "[YYYY-MM-DD HH:MM:SS] [LEVEL] text" (include/ps/test_harness_logging.hpp
 * in Xilinx/AI-Engine-Test-Harness), one "request" line per request sent,
 * one "transaction" line per transaction accepted, one "session" line for
 * the handshake; past the cap the last line says how many were not kept
 * (dropped: the lines expected to be missing). */
static void check_log(const uint8_t *p, uint64_t n, unsigned want_req, unsigned want_txn,
		      uint64_t dropped)
{
	unsigned req = 0, tl = 0, sess = 0, lines = 0;
	unsigned long long more = 0;
	uint64_t i = 0;
	while (i < n) {
		const char *l = (const char *)p + i, *t;
		const uint8_t *e = memchr(p + i, '\n', (size_t)(n - i));
		size_t len;
		int y, mo, d, h, mi, se, k = 0;
		char lv[16];
		CHECK(e != NULL, "session log: line %u has no newline", lines + 1);
		len = (size_t)(e - (p + i));
		for (k = 0; k < (int)len; k++)
			CHECK(l[k] >= 0x20 && l[k] < 0x7f, "session log: line %u has byte 0x%02x",
			      lines + 1, (unsigned char)l[k]);
		k = 0;
		CHECK(sscanf(l, "[%4d-%2d-%2d %2d:%2d:%2d] [%15[A-Z]] %n", &y, &mo, &d, &h, &mi,
			     &se, lv, &k) == 7 &&
			      k > 0 && l[20] == ']' &&
			      (!strcmp(lv, "INFO") || !strcmp(lv, "WARNING") ||
			       !strcmp(lv, "ERROR")),
		      "session log: line %u is not in AMD's form: %.*s", lines + 1, (int)len, l);
		t = l + k;
		lines++;
		if (!strncmp(t, "request ", 8))
			req++;
		else if (!strncmp(t, "transaction ", 12))
			tl++;
		else if (!strncmp(t, "session: ", 9))
			sess++;
		else if (sscanf(t, "... %llu more lines not kept", &more) == 1)
			CHECK(e + 1 == p + n,
			      "session log: the \"more lines\" line is not the last");
		else
			CHECK(0,
			      "session log: line %u is neither a request, a transaction nor the "
			      "session: %.*s",
			      lines, (int)len, l);
		i = (uint64_t)(e - p) + 1;
	}
	CHECK(sess == 1, "session log: %u session lines, expected 1 (the handshake)", sess);
	CHECK(more == dropped, "session log: %llu lines not kept, expected %llu", more,
	      (unsigned long long)dropped);
	if (!dropped) {
		CHECK(req == want_req, "session log: %u request lines, the client sent %u requests",
		      req, want_req);
		CHECK(tl == want_txn,
		      "session log: %u transaction lines, the server "
		      "accepted %u transactions",
		      tl, want_txn);
	} else {
		CHECK(req + tl + sess + dropped == 1ull + want_req + want_txn,
		      "session log: %u kept + %llu not kept lines, expected %u", req + tl + sess,
		      (unsigned long long)dropped, 1 + want_req + want_txn);
	}
	printf("amd_client: session log: %u lines: %u requests, %u transactions%s\n", lines, req,
	       tl, dropped ? ", the rest not kept" : "");
}

static int full(int port, const char *model, const char *dir)
{
	aieth_session *s = local_open(model);
	conn c;
	txn t[6];
	amdp_msg *m;
	uint64_t g, i;
	uint32_t k;
	static const uint32_t order[3] = {4, 2, 3};

	conn_open(&c, port);
	hello(&c, 1);
	/* requests a session may make before its manager */
	g = get_timeout(&c);
	CHECK(g > 0, "getTimeOut is 0");
	manager(&c, "vck190", 1);

	/* FUNC, then PERF, as AMD's adder example */
	run_graph(&c, s, 1);
	txn_make(&t[0], 0, 1);
	send_run(&c, &t[0], 0, 1);
	txn_local(s, &t[0]);
	fetch(&c, &t[0], 0, 1);
	wait_graph(&c, s);
	run_graph(&c, s, 1);
	txn_make(&t[1], 1, 2);
	send_run(&c, &t[1], 1, 1);
	txn_local(s, &t[1]);
	fetch(&c, &t[1], 1, 1);
	wait_graph(&c, s);
	printf("amd_client: FUNC and PERF transactions match the local emulated board\n");

	/* three pipelined, fetched out of order */
	run_graph(&c, s, 3);
	for (k = 2; k < 5; k++) {
		txn_make(&t[k], 0, k + 1);
		send_run(&c, &t[k], k, 1);
		txn_local(s, &t[k]);
	}
	for (k = 0; k < 3; k++)
		fetch(&c, &t[order[k]], order[k], k == 1);
	wait_graph(&c, s);
	printf("amd_client: 3 pipelined transactions fetched as 4, 2, 3 match\n");

	/* getTimeOut / setTimeOut as waitForRes uses them */
	g = get_timeout(&c);
	aieth__amdp_enc_req_set_timeout(&c.b, g + 5);
	conn_send(&c);
	nreq++;
	CHECK(get_timeout(&c) == g + 5, "setTimeOut(%llu) then getTimeOut gave another value",
	      (unsigned long long)(g + 5));
	aieth__amdp_enc_req_set_timeout(&c.b, g);
	conn_send(&c);
	nreq++;
	CHECK(get_timeout(&c) == g, "setTimeOut back to %llu failed", (unsigned long long)g);

	/* no graph runs now: the transaction stalls, the wait ends in TIMEOUT
	 * with a zero-filled image and zero perf words */
	txn_make(&t[5], 0, 9);
	send_run(&c, &t[5], 5, 1);
	aieth__amdp_enc_req_wait_th(&c.b, 5, 500);
	conn_send(&c);
	nreq++;
	m = reply(&c, AMDP_R_WAIT_TH);
	CHECK(m->status == AMDP_ST_TIMEOUT, "stalled transaction: status %u, expected TIMEOUT (3)",
	      m->status);
	CHECK(c.from_len == t[5].w.rx.size, "TIMEOUT: from_aie of %llu bytes",
	      (unsigned long long)c.from_len);
	for (i = 0; i < c.from_len && c.from_aie[i] == 0; i++)
		;
	CHECK(i == c.from_len, "TIMEOUT: from_aie byte %llu is not 0", (unsigned long long)i);
	for (k = 0; k < m->nperf && m->perf[k] == 0; k++)
		;
	CHECK(k == m->nperf, "TIMEOUT: perf word %u is not 0", k);
	printf("amd_client: a stalled transaction's wait ends in TIMEOUT with zeros\n");

	/* update port: consumed, the session goes on */
	{
		uint8_t raw[AMDP_RTP_RAW] = {0};
		aieth__amdp_enc_req_update_port(&c.b, 0, "gr.k.in[1]", raw);
		conn_send(&c);
		nreq++;
		CHECK(get_timeout(&c) == g, "after update port the session broke");
	}

	/* destroy: the file return holds the xrt.ini sent, the session log
	 * (a line per request and per transaction) and run_summary.json */
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	nreq++;
	m = reply(&c, AMDP_R_FILES);
	{
		int found = 0, summary = 0, log = 0;
		for (k = 0; k < m->nfiles; k++) {
			if (!strcmp(m->file[k], "run_summary.json"))
				summary = m->file_len[k] > 2 && c.file[k][0] == '{';
			if (!strcmp(m->file[k], "test_harness_session.log")) {
				check_log(c.file[k], m->file_len[k], nreq, ntxn, 0);
				log = 1;
			}
			printf("amd_client: returned file %s (%llu bytes)\n", m->file[k],
			       (unsigned long long)m->file_len[k]);
			if (dir)
				save_file(dir, m->file[k], c.file[k], m->file_len[k]);
			if (!strcmp(m->file[k], "xrt.ini")) {
				CHECK(m->file_len[k] == strlen(INI) &&
					      !memcmp(c.file[k], INI, strlen(INI)),
				      "the returned xrt.ini differs from the one sent");
				found = 1;
			}
		}
		CHECK(found, "the file return lacks xrt.ini (%u files)", m->nfiles);
		CHECK(summary, "the file return lacks the server's run_summary.json (%u files)",
		      m->nfiles);
		CHECK(log, "the file return lacks test_harness_session.log (%u files)", m->nfiles);
	}
	expect_close(&c, "after destroy");
	for (k = 0; k < 6; k++)
		txn_free(&t[k]);
	aieth_session_close(s);
	return 0;
}

/* Wait for id (T ms, 0: until done): its status. */
static uint8_t wait_th(conn *c, uint32_t id, uint32_t tmo)
{
	aieth__amdp_enc_req_wait_th(&c->b, id, tmo);
	conn_send(c);
	nreq++;
	return reply(c, AMDP_R_WAIT_TH)->status;
}

/* The session files AMD's clients get back after destroy: a transaction
 * DONE, one the server's checks refuse (answered TIMEOUT with zeros), one
 * left unfetched (DONE) at destroy, then CHATTY getTimeOut requests; the
 * session log counted against what was sent (past its cap of 10000 lines,
 * the lines not kept), the files written into DIR for the caller's checks
 * (run_summary.json). */
static int files(int port, const char *dir, unsigned long chatty)
{
	const uint64_t cap = 10000;
	conn c;
	txn t[3];
	amdp_msg *m;
	unsigned long i;
	uint32_t k;
	int log = 0;
	conn_open(&c, port);
	hello(&c, 1);
	manager(&c, "vck190", 1);
	run_graph(&c, NULL, 2);
	txn_make(&t[0], 0, 1);
	send_run(&c, &t[0], 10, 1);
	CHECK(wait_th(&c, 10, 0) == AMDP_ST_DONE, "transaction 10 is not DONE");
	/* cfg[0] says PERF, the mode FUNC: the server's checks refuse it */
	txn_make(&t[1], 0, 2);
	aieth__amdp_enc_req_run_bytes(&c.b,
				      aieth__amdp_txn_bytes(N36, t[1].w.tx.size, t[1].w.rx.size));
	conn_send(&c);
	nreq++;
	CHECK(reply(&c, AMDP_R_ACCEPTED)->flag == 1, "transaction 11 was not accepted");
	ntxn++;
	t[1].w.cfg[0] = 1;
	aieth__amdp_enc_req_run(&c.b, 0, 11, 0, t[1].w.cfg, 8 * N36 + 1, t[1].tx, t[1].w.tx.size,
				t[1].w.rx.size);
	conn_send(&c);
	CHECK(wait_th(&c, 11, 0) == AMDP_ST_TIMEOUT, "refused transaction 11 is not TIMEOUT");
	/* one left for destroy, finished first (polled as AMD's client does) */
	txn_make(&t[2], 0, 3);
	send_run(&c, &t[2], 12, 1);
	for (i = 0; i < 2000 && query(&c, 12) != AMDP_ST_DONE; i++)
		usleep(10000);
	CHECK(i < 2000, "transaction 12 never became DONE");
	/* a client's string with a quote and a backslash: quoted in the log */
	{
		uint8_t raw[AMDP_RTP_RAW] = {0};
		aieth__amdp_enc_req_update_port(&c.b, 0, "gr.k\"in\\[1]", raw);
		conn_send(&c);
		nreq++;
	}
	for (i = 0; i < chatty; i++)
		get_timeout(&c);
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	nreq++;
	m = reply(&c, AMDP_R_FILES);
	for (k = 0; k < m->nfiles; k++) {
		printf("amd_client: returned file %s (%llu bytes)\n", m->file[k],
		       (unsigned long long)m->file_len[k]);
		save_file(dir, m->file[k], c.file[k], m->file_len[k]);
		if (!strcmp(m->file[k], "test_harness_session.log")) {
			uint64_t total = 1ull + nreq + ntxn;
			check_log(c.file[k], m->file_len[k], nreq, ntxn,
				  total > cap ? total - cap : 0);
			log = 1;
		}
	}
	CHECK(log, "the file return lacks test_harness_session.log (%u files)", m->nfiles);
	printf("amd_client: %u requests and %u transactions sent\n", nreq, ntxn);
	expect_close(&c, "after destroy");
	for (k = 0; k < 3; k++)
		txn_free(&t[k]);
	return 0;
}

static int mismatch(int port, const char *device)
{
	conn c;
	amdp_msg *m;
	conn_open(&c, port);
	hello(&c, 0);
	aieth__amdp_enc_req_mgr_device(&c.b, device);
	conn_send(&c);
	m = reply(&c, AMDP_R_MGR_DEVICE);
	CHECK(m->flag == 0, "device %s was accepted", device);
	CHECK(m->device[0] != 0, "the mismatch reply names no server device");
	printf("amd_client: device %s refused: <%s>\n", device, m->device);
	expect_close(&c, "after a device mismatch");
	return 0;
}

static int memory(int port)
{
	conn c;
	txn big, small;
	conn_open(&c, port);
	hello(&c, 0);
	manager(&c, "vck190", 1);
	txn_make(&big, 1, 1); /* PERF: 2 x 2.25 MiB of images */
	send_run(&c, &big, 0, 0);
	printf("amd_client: a PERF transaction past --max-memory: accepted = 0\n");
	/* the session goes on: a small one runs */
	run_graph(&c, NULL, 1);
	txn_make(&small, 0, 2);
	send_run(&c, &small, 1, 1);
	aieth__amdp_enc_req_wait_th(&c.b, 1, 0);
	conn_send(&c);
	CHECK(reply(&c, AMDP_R_WAIT_TH)->status == AMDP_ST_DONE,
	      "the transaction after accepted = 0 did not finish");
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	expect_close(&c, "after destroy without xrt.ini");
	txn_free(&big);
	txn_free(&small);
	return 0;
}

/* A session with an xrt.ini and a graph run of 4 iterations, then
 * destroy: the returned files written into dir, their names printed. */
static int xrt_files(int port, const char *dir)
{
	amdp_msg *m;
	uint32_t k;
	conn c;
	conn_open(&c, port);
	hello(&c, 1);
	manager(&c, "vck190", 1);
	run_graph(&c, NULL, 4);
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	m = reply(&c, AMDP_R_FILES);
	for (k = 0; k < m->nfiles; k++) {
		printf("amd_client: returned file %s (%llu bytes)\n", m->file[k],
		       (unsigned long long)m->file_len[k]);
		save_file(dir, m->file[k], c.file[k], m->file_len[k]);
	}
	expect_close(&c, "after destroy");
	return 0;
}

static int malformed(int port)
{
	conn c;
	static const uint8_t bad[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'x'};
	conn_open(&c, port);
	hello(&c, 0);
	if (send(c.fd, bad, sizeof bad, MSG_NOSIGNAL) != (ssize_t)sizeof bad)
		die("send: %s", strerror(errno));
	expect_close(&c, "after a malformed request");
	printf("amd_client: the server closed the connection after a malformed frame\n");
	return 0;
}

static int hold(int port, const char *file)
{
	conn c;
	int i;
	conn_open(&c, port);
	hello(&c, 0);
	manager(&c, "vck190", 1);
	printf("amd_client: holding the device\n");
	fflush(stdout);
	for (i = 0; i < 300 && access(file, F_OK); i++) {
		get_timeout(&c); /* a request now and then keeps the session */
		usleep(100000);
	}
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	expect_close(&c, "after destroy");
	return 0;
}

static int stuck(int port, const char *what)
{
	conn c;
	txn t;
	int i;
	conn_open(&c, port);
	hello(&c, 1);
	manager(&c, "vck190", 1);
	run_graph(&c, NULL, 1);
	txn_make(&t, 0, 1);
	if (!strcmp(what, "upload")) {
		aieth__amdp_enc_req_run_bytes(&c.b,
					      aieth__amdp_txn_bytes(N36, t.w.tx.size, t.w.rx.size));
		conn_send(&c);
		CHECK(reply(&c, AMDP_R_ACCEPTED)->flag == 1, "not accepted");
		aieth__amdp_enc_req_run(&c.b, 0, 0, 0, t.w.cfg, 8 * N36 + 1, t.tx, t.w.tx.size,
					t.w.rx.size);
		c.b.n /= 2; /* half of the TX image */
		conn_send(&c);
	} else if (!strcmp(what, "download")) {
		/* a PERF result (2.25 MiB) asked for and never read */
		txn_free(&t);
		txn_make(&t, 1, 1);
		send_run(&c, &t, 0, 1);
		aieth__amdp_enc_req_wait_th(&c.b, 0, 0);
		conn_send(&c);
	} else {
		send_run(&c, &t, 0, 1);
	}
	printf("amd_client: stuck (%s)\n", what);
	fflush(stdout);
	for (i = 0; i < 600; i++)
		usleep(100000);
	return 1;
}

/* Graph "other" runs a model that takes 1.5 s per call: a 200 ms
 * wait ends first with TIMEOUT and zeros; the late result is dropped and
 * the next transaction comes back right. */
static int slowwait(int port)
{
	conn c;
	pld_arg a[2];
	pld_txn w;
	uint8_t tx[16], rx[16], img[16];
	char err[256];
	amdp_msg *m;
	uint32_t id;
	int i;
	for (i = 0; i < 16; i++)
		tx[i] = (uint8_t)(0xa0 + i);
	memset(a, 0, sizeof a);
	a[0].size = a[1].size = 16;
	a[0].reps = a[1].reps = 1;
	a[0].data = tx;
	a[1].dir = 1;
	a[1].data = rx;
	if (aieth__pld_txn_encode(&w, N36, D4K, 0, a, 2, err, sizeof err))
		die("pld_txn_encode: %s", err);
	aieth__pld_image_read(&w.tx, 0, img, 16);
	conn_open(&c, port);
	hello(&c, 0);
	{
		static const char *const gr[1] = {"other"};
		manager_g(&c, "vck190", 1, gr);
	}
	aieth__amdp_enc_req_run_graph(&c.b, 0, 2);
	conn_send(&c);
	CHECK(reply(&c, AMDP_R_GRAPHS)->started[0] == 1, "runAIEGraph(0): started[0] is not 1");
	for (id = 7; id < 9; id++) {
		aieth__amdp_enc_req_run_bytes(&c.b, aieth__amdp_txn_bytes(N36, 16, 16));
		conn_send(&c);
		CHECK(reply(&c, AMDP_R_ACCEPTED)->flag == 1, "transaction %u not accepted", id);
		aieth__amdp_enc_req_run(&c.b, 0, id, 0, w.cfg, 8 * N36 + 1, img, 16, 16);
		conn_send(&c);
		aieth__amdp_enc_req_wait_th(&c.b, id, id == 7 ? 200 : 0);
		conn_send(&c);
		m = reply(&c, AMDP_R_WAIT_TH);
		if (id == 7) {
			static const uint8_t z[16];
			CHECK(m->status == AMDP_ST_TIMEOUT,
			      "a 200 ms wait on a 1.5 s transaction: "
			      "status %u, expected TIMEOUT (3)",
			      m->status);
			CHECK(c.from_len == 16 && !memcmp(c.from_aie, z, 16),
			      "TIMEOUT: from_aie is not 16 zero bytes");
			CHECK(query(&c, id) == AMDP_ST_DONE, "a fetched id must query DONE");
		} else {
			CHECK(m->status == AMDP_ST_DONE, "the next transaction: status %u",
			      m->status);
			CHECK(c.from_len == 16 && !memcmp(c.from_aie, tx, 16),
			      "the next transaction: from_aie is not the looped-back TX data");
		}
	}
	printf("amd_client: a 200 ms wait ended in TIMEOUT, the next transaction is right\n");
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	expect_close(&c, "after destroy");
	aieth__pld_txn_release(&w);
	return 0;
}

/* Send c->b; 0, or -1 when the server broke the connection (buffer
 * emptied either way). */
static int send_or_broken(conn *c)
{
	size_t off = 0, len = c->b.n;
	while (off < len) {
		ssize_t n = send(c->fd, c->b.u + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	aieth__sb_reset(&c->b);
	return off < len ? -1 : 0;
}

/* The server closed (or reset) the connection with no reply. */
static void expect_closed(conn *c, const char *what)
{
	uint8_t b[256];
	ssize_t n = recv(c->fd, b, sizeof b, 0);
	CHECK(n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE)), "%s: %s", what,
	      n > 0 ? "the server sent a reply" : strerror(errno));
	close(c->fd);
	free_bulk(c);
	aieth__sb_free(&c->b);
}

static int xclbin(int port, uint64_t bytes)
{
	const char *kn[1] = {"vck190_test_harness"};
	static const char *const gr[1] = {"gr"};
	uint8_t *x = calloc(1, bytes ? (size_t)bytes : 1);
	conn c;
	amdp_msg *m;
	if (!x)
		die("out of memory for %llu bytes", (unsigned long long)bytes);
	memcpy(x, "xclbin2", bytes < 7 ? (size_t)bytes : 7);
	conn_open(&c, port);
	hello(&c, 0);
	aieth__amdp_enc_req_mgr_device(&c.b, "vck190");
	conn_send(&c);
	m = reply(&c, AMDP_R_MGR_DEVICE);
	CHECK(m->flag == 1, "device vck190 refused: <%s>", m->device);
	aieth__amdp_enc_req_mgr(&c.b, 0, 1, gr, NULL, 1, kn, "big.xclbin", x, bytes);
	free(x);
	if (send_or_broken(&c))
		printf("amd_client: sending the xclbin broke off: %s\n", strerror(errno));
	expect_closed(&c, "a refused xclbin");
	printf("amd_client: the server closed the connection without a reply\n");
	return 0;
}

static int zeros(int port, uint64_t mib)
{
	conn c;
	txn t;
	amdp_msg *m;
	uint64_t rx = mib << 20;
	conn_open(&c, port);
	hello(&c, 0);
	manager(&c, "vck190", 1);
	txn_make(&t, 0, 1);
	aieth__amdp_enc_req_run_bytes(&c.b, aieth__amdp_txn_bytes(N36, t.w.tx.size, rx));
	conn_send(&c);
	CHECK(reply(&c, AMDP_R_ACCEPTED)->flag == 1,
	      "a from_aie of %llu MiB was not accepted "
	      "(--max-memory too small?)",
	      (unsigned long long)mib);
	/* cfg[0] says PERF, the mode FUNC: aieth__amdp_txn_check refuses it */
	t.w.cfg[0] = 1;
	aieth__amdp_enc_req_run(&c.b, 0, 0, 0, t.w.cfg, 8 * N36 + 1, t.tx, t.w.tx.size, rx);
	conn_send(&c);
	aieth__amdp_enc_req_wait_th(&c.b, 0, 0);
	conn_send(&c);
	c.discard = 1;
	m = reply(&c, AMDP_R_WAIT_TH);
	CHECK(m->status == AMDP_ST_TIMEOUT, "a refused transaction: status %u, expected TIMEOUT",
	      m->status);
	CHECK(c.from_len == rx, "TIMEOUT: from_aie of %llu bytes, expected %llu",
	      (unsigned long long)c.from_len, (unsigned long long)rx);
	CHECK(m->nperf == 4 * N36, "TIMEOUT: %u perf words", m->nperf);
	printf("amd_client: TIMEOUT with a from_aie of %llu MiB\n", (unsigned long long)mib);
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	expect_close(&c, "after destroy");
	txn_free(&t);
	return 0;
}

static int idle(int port)
{
	conn c;
	struct timespec a, b;
	int i;
	conn_open(&c, port);
	clock_gettime(CLOCK_MONOTONIC, &a);
	hello(&c, 0);
	aieth__amdp_enc_req_set_timeout(&c.b, 86400);
	conn_send(&c);
	for (i = 0; i < 600; i++) {
		amdp_msg *m;
		ssize_t n;
		aieth__amdp_enc_req_get_timeout(&c.b);
		if (send_or_broken(&c))
			break;
		/* a reply, or the end */
		n = recv(c.fd, c.in, 8, MSG_PEEK);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			break;
		m = reply(&c, AMDP_R_TIMEOUT);
		CHECK(m->value == 86400, "getTimeOut %llu after setTimeOut(86400)",
		      (unsigned long long)m->value);
		usleep(100000);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK(i < 600, "the server kept a connection without a manager for 60 s");
	close(c.fd);
	aieth__sb_free(&c.b);
	printf("amd_client: closed by the server after %ld s without a manager\n",
	       (long)(b.tv_sec - a.tv_sec));
	return 0;
}

static int latency(int port, long n)
{
	conn c;
	txn t;
	struct timespec a, b;
	long i;
	double us;
	conn_open(&c, port);
	hello(&c, 0);
	manager(&c, "vck190", 1);
	run_graph(&c, NULL, 1);
	txn_make(&t, 0, 1);
	send_run(&c, &t, 0, 1);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		query(&c, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	us = ((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3) /
	     (double)n;
	printf("AMD protocol round trip: %ld requests, %.1f us per request\n", n, us);
	aieth__amdp_enc_req_wait_th(&c.b, 0, 0);
	conn_send(&c);
	reply(&c, AMDP_R_WAIT_TH);
	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	expect_close(&c, "after destroy");
	txn_free(&t);
	return 0;
}

/* ------------------------------------------------- AMD's examples */

/* An AMD example as its client drives the board (channel indexes 0-based
 * within each direction; AMD's repository, examples/<board>/<name>/client/
 * and aie/graph.h): every TX channel i of tx[] sends bytes per transaction,
 * RX channel rx[j] receives op(tx channels) of the same size. */
typedef struct {
	const char *name, *device, *graph;
	uint32_t n, ntx, nrx;
	uint32_t tx[16], rx[16];
	uint64_t bytes;      /* per channel and transaction */
	uint32_t iterations; /* graph iterations per transaction */
	int op;              /* 0 copy (rx j from tx j), 1 int32 doubled, 2 int32 tx0 + tx1 */
	int amd_mode;        /* the mode AMD's client runs (after our FUNC) */
} example;

static const example examples[] = {
	{"testcase_dmafifo_opt", "vck190", "gr", 36, 1, 1, {0}, {0}, 4096, 1, 1, 1},
	{"normalization_v2", "vek280", "gr", 16, 1, 1, {0}, {1}, 196608, 1, 0, 1},
	{"channelizer",
	 "vck190",
	 "aie_dut",
	 36,
	 16,
	 16,
	 {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30},
	 {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31},
	 65536,
	 2,
	 0,
	 1},
	{"python_adder", "vck190", "gr", 36, 2, 1, {0, 2}, {1}, 262144, 1, 2, 1},
};

static int32_t rd_i32(const uint8_t *p)
{
	int32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* One transaction of example e in mode: TX data in[], RX into out[];
 * returns the status and, with the reply's from_aie scattered into out[]
 * through the encoded image, the perf words' count. */
static uint8_t example_txn(conn *c, const example *e, uint32_t depth, int mode, uint32_t id,
			   uint8_t **in, uint8_t **out)
{
	pld_arg a[32];
	pld_txn w;
	char err[256];
	uint8_t *tx;
	amdp_msg *m;
	uint32_t k, na = 0;
	uint8_t st;

	memset(a, 0, sizeof a);
	for (k = 0; k < e->ntx; k++, na++) {
		a[na].dir = 0;
		a[na].index = e->tx[k];
		a[na].size = e->bytes;
		a[na].reps = 1;
		a[na].data = in[k];
	}
	for (k = 0; k < e->nrx; k++, na++) {
		a[na].dir = 1;
		a[na].index = e->rx[k];
		a[na].size = e->bytes;
		a[na].reps = 1;
		a[na].data = out[k];
	}
	if (aieth__pld_txn_encode(&w, e->n, depth, (uint64_t)mode, a, na, err, sizeof err))
		die("pld_txn_encode: %s", err);
	if (!(tx = malloc(w.tx.size)))
		die("out of memory");
	aieth__pld_image_read(&w.tx, 0, tx, w.tx.size);
	aieth__amdp_enc_req_run_bytes(&c->b, aieth__amdp_txn_bytes(e->n, w.tx.size, w.rx.size));
	conn_send(c);
	CHECK(reply(c, AMDP_R_ACCEPTED)->flag == 1, "%s: transaction %u not accepted", e->name, id);
	aieth__amdp_enc_req_run(&c->b, (uint8_t)w.cfg[0], id, 0, w.cfg, 8 * e->n + 1, tx, w.tx.size,
				w.rx.size);
	conn_send(c);
	free(tx);
	aieth__amdp_enc_req_wait_th(&c->b, id, 0);
	conn_send(c);
	m = reply(c, AMDP_R_WAIT_TH);
	st = m->status;
	CHECK(c->from_len == w.rx.size, "%s: transaction %u: from_aie of %llu bytes, expected %llu",
	      e->name, id, (unsigned long long)c->from_len, (unsigned long long)w.rx.size);
	CHECK(m->nperf == 4 * e->n, "%s: transaction %u: %u perf words", e->name, id, m->nperf);
	/* the image's segments point at out[]: the channels' data land there */
	aieth__pld_image_write(&w.rx, 0, c->from_aie, c->from_len);
	aieth__pld_txn_release(&w);
	return st;
}

/* Check out[] against what the example computes from in[], over bytes
 * from .. cmp-1 of each channel. */
static void example_check(const example *e, const char *what, uint8_t **in, uint8_t **out,
			  uint64_t from, uint64_t cmp)
{
	uint64_t i;
	uint32_t k;
	for (k = 0; k < e->nrx; k++)
		for (i = from; i + 4 <= cmp; i += 4) {
			int32_t got = rd_i32(out[k] + i), want;
			if (e->op == 1)
				want = (int32_t)((uint32_t)rd_i32(in[k] + i) * 2u);
			else if (e->op == 2)
				want = (int32_t)((uint32_t)rd_i32(in[0] + i) +
						 (uint32_t)rd_i32(in[1] + i));
			else
				want = rd_i32(in[k] + i);
			CHECK(got == want,
			      "%s %s: PLIO_%02u_FROM_AIE byte %llu: 0x%08x, expected 0x%08x",
			      e->name, what, e->rx[k] + 1, (unsigned long long)i, (unsigned)got,
			      (unsigned)want);
		}
}

static int run_example(int port, const char *name)
{
	const example *e = NULL;
	const char *gr[1];
	const char *kn[1];
	static const uint8_t xcl[113] = {'x', 'c', 'l', 'b', 'i', 'n', '2'};
	char kname[64];
	uint8_t *in[16], *out[16], *out2[16];
	amdp_msg *m;
	uint32_t depth, k, id = 0;
	uint64_t i, cap;
	size_t j;
	uint8_t st;
	conn c;

	for (j = 0; j < sizeof examples / sizeof examples[0]; j++)
		if (!strcmp(examples[j].name, name))
			e = &examples[j];
	if (!e)
		die("example %s: not one of testcase_dmafifo_opt, normalization_v2, channelizer, "
		    "python_adder",
		    name);
	for (k = 0; k < 16; k++) {
		in[k] = calloc(1, e->bytes);
		out[k] = calloc(1, e->bytes);
		out2[k] = calloc(1, e->bytes);
		if (!in[k] || !out[k] || !out2[k])
			die("out of memory");
		/* AMD's dmafifo client sends rand() % 100 - 50; any pattern
		 * with negative values and carries does */
		for (i = 0; i + 4 <= e->bytes; i += 4) {
			int32_t v =
				(int32_t)((k + 1) * 2654435761u + (uint32_t)i * 40503u) % 100000 -
				50000;
			memcpy(in[k] + i, &v, 4);
		}
	}
	conn_open(&c, port);
	hello(&c, 1);
	aieth__amdp_enc_req_mgr_device(&c.b, e->device);
	conn_send(&c);
	m = reply(&c, AMDP_R_MGR_DEVICE);
	CHECK(m->flag == 1, "device %s refused: <%s>", e->device, m->device);
	CHECK(m->n == e->n && m->w == 16, "%s: geometry N=%u W=%u, expected N=%u W=16", e->device,
	      m->n, m->w, e->n);
	depth = m->d;
	cap = 16ull * depth;
	gr[0] = e->graph;
	snprintf(kname, sizeof kname, "%s_test_harness", e->device);
	kn[0] = kname;
	aieth__amdp_enc_req_mgr(&c.b, 0, 1, gr, NULL, 1, kn, "test_harness.xclbin", xcl,
				sizeof xcl);
	conn_send(&c);
	CHECK(reply(&c, AMDP_R_MAX_MEM)->value > 0, "max memory is 0");

	/* FUNC: every byte of every RX channel */
	run_graph(&c, NULL, e->iterations);
	st = example_txn(&c, e, depth, 0, id++, in, out);
	CHECK(st == AMDP_ST_DONE, "%s FUNC: status %u, expected DONE (4)", e->name, st);
	example_check(e, "FUNC", in, out, 0, e->bytes);
	wait_graph(&c, NULL);
	printf("amd_client: %s FUNC: %u RX channel(s) of %llu bytes right\n", e->name, e->nrx,
	       (unsigned long long)e->bytes);

	/* the mode AMD's client runs: dmafifo feeds its output back (4x);
	 * PERF keeps the first URAM's worth (AMD: results beyond it are not
	 * valid, isResultValid) */
	run_graph(&c, NULL, e->iterations);
	if (e->op == 1) {
		st = example_txn(&c, e, depth, e->amd_mode, id++, out, out2);
		CHECK(st == AMDP_ST_DONE, "%s PERF: status %u", e->name, st);
		for (i = 0; i + 4 <= e->bytes; i += 4)
			CHECK(rd_i32(out2[0] + i) == (int32_t)((uint32_t)rd_i32(in[0] + i) * 4u),
			      "%s PERF: byte %llu is not 4x the input", e->name,
			      (unsigned long long)i);
	} else {
		st = example_txn(&c, e, depth, e->amd_mode, id++, in, out2);
		CHECK(st == AMDP_ST_DONE, "%s PERF: status %u", e->name, st);
		/* beyond one URAM the stream wraps: the RX URAM's first
		 * bytes - cap bytes hold the next pass (the board's XOR filler),
		 * bytes - cap .. cap the first one */
		if (e->bytes < 2 * cap)
			example_check(e, "PERF", in, out2, e->bytes > cap ? e->bytes - cap : 0,
				      e->bytes < cap ? e->bytes : cap);
	}
	wait_graph(&c, NULL);
	if (e->op == 1)
		printf("amd_client: %s PERF: the FUNC output doubled again (4x the input)\n",
		       e->name);
	else if (e->bytes <= cap)
		printf("amd_client: %s PERF: every RX byte right\n", e->name);
	else if (e->bytes >= 2 * cap)
		printf("amd_client: %s PERF: DONE (%llu bytes a channel, several URAMs: not "
		       "compared, AMD's isResultValid is false)\n",
		       e->name, (unsigned long long)e->bytes);
	else
		printf("amd_client: %s PERF: RX bytes %llu..%llu (the URAM's first pass) right\n",
		       e->name, (unsigned long long)(e->bytes - cap), (unsigned long long)cap);

	aieth__amdp_enc_req_destroy(&c.b);
	conn_send(&c);
	reply(&c, AMDP_R_FILES);
	expect_close(&c, "after destroy");
	for (k = 0; k < 16; k++) {
		free(in[k]);
		free(out[k]);
		free(out2[k]);
	}
	return 0;
}

/* The whole file at path (NUL-terminated), or die. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1L << 26) ||
	    fseek(f, 0, SEEK_SET) || !(p = malloc((size_t)n + 1)) ||
	    fread(p, 1, (size_t)n, f) != (size_t)n)
		die("cannot read %s", path);
	fclose(f);
	p[n] = '\0';
	*len = (size_t)n;
	return p;
}

int main(int argc, char **argv)
{
	const char *ini = getenv("AMD_CLIENT_INI"), *xcl = getenv("AMD_CLIENT_XCLBIN");
	int port, rc;
	if (argc < 3) {
		fprintf(stderr,
			"usage: amd_client full|mismatch|memory|malformed|hold|stuck|latency|slowwait|"
			"xclbin|zeros|idle|example|files|xrtfiles "
			"PORT [ARG]\n");
		return 2;
	}
	if (ini && *ini) {
		size_t n;
		INI = slurp(ini, &n);
	}
	if (xcl && *xcl) {
		XCL = (const uint8_t *)slurp(xcl, &XCL_LEN);
	}
	port = atoi(argv[2]);
	if (port <= 0 || port > 65535)
		die("port %s", argv[2]);
	if (!strcmp(argv[1], "full") && argc >= 4 && argc <= 6) {
		const char *dir = NULL;
		int a = 4;
		/* BYTES (digits) first if given, then DIR */
		if (argc > a && argv[a][0] >= '0' && argv[a][0] <= '9') {
			unsigned long w = strtoul(argv[a], NULL, 10);
			if (w == 0 || w % 16 || w > 65536)
				die("BYTES %s: a multiple of 16, at most 65536", argv[a]);
			win = (uint32_t)w;
			a++;
		}
		if (argc > a)
			dir = argv[a++];
		if (argc > a)
			die("full: too many arguments");
		rc = full(port, argv[3], dir);
	} else if (!strcmp(argv[1], "files") && (argc == 4 || argc == 5))
		rc = files(port, argv[3], argc == 5 ? strtoul(argv[4], NULL, 10) : 0);
	else if (!strcmp(argv[1], "mismatch") && argc == 4)
		rc = mismatch(port, argv[3]);
	else if (!strcmp(argv[1], "xrtfiles") && argc == 4)
		rc = xrt_files(port, argv[3]);
	else if (!strcmp(argv[1], "memory"))
		rc = memory(port);
	else if (!strcmp(argv[1], "malformed"))
		rc = malformed(port);
	else if (!strcmp(argv[1], "hold") && argc == 4)
		rc = hold(port, argv[3]);
	else if (!strcmp(argv[1], "stuck") && argc == 4)
		rc = stuck(port, argv[3]);
	else if (!strcmp(argv[1], "xclbin") && argc == 4)
		rc = xclbin(port, strtoull(argv[3], NULL, 10));
	else if (!strcmp(argv[1], "zeros") && argc == 4)
		rc = zeros(port, strtoull(argv[3], NULL, 10));
	else if (!strcmp(argv[1], "example") && argc == 4)
		rc = run_example(port, argv[3]);
	else if (!strcmp(argv[1], "idle"))
		rc = idle(port);
	else if (!strcmp(argv[1], "slowwait"))
		rc = slowwait(port);
	else if (!strcmp(argv[1], "latency") && argc == 4)
		rc = latency(port, atol(argv[3]) > 0 ? atol(argv[3]) : 1000);
	else {
		fprintf(stderr, "amd_client: unknown scenario or missing argument\n");
		return 2;
	}
	if (!rc)
		printf("amd_client %s: %d checks passed\n", argv[1], checks);
	return rc;
}
