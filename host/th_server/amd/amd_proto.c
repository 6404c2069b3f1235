/* SPDX-License-Identifier: MIT */
/*
 * amd_proto.c - the codec of AMD's client/server wire protocol
 * (amd_proto.h; docs/amd-protocol.md; AMD's include/ps/test_harness_*.hpp).
 *
 * The decoder reads one primitive at a time (u8, u32, u64 or a run of
 * bytes); when one is complete, on_field() looks at the state (what was
 * just read), checks the value and sets up the next primitive. Nothing is
 * allocated: strings land in the message, bulk payloads where the caller
 * says.
 */
#include "th_server/amd/amd_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pld/protocol.h"
#include "util/error.h"
#include "util/sbuf.h"
#include "util/text.h"

#define PFX "AMD protocol: "

/* a string: its length (u64) and its bytes */
static void put_str(sbuf *b, const char *s)
{
	size_t n = strlen(s);
	sb_le64(b, n);
	aieth__sb_put(b, s, n);
}

static int done(sbuf *b) { return aieth__sb_check(b, PFX "building a message"); }

/* --------------------------------------------------------------- names */

/* 1..AMDP_MAX_NAME printable ASCII bytes (graph, kernel, port, device). */
static int check_text(const char *what, const char *s, size_t len)
{
	char q[AIETH_QUOTE_CAP];
	if (len == 0)
		return aieth__fail(AIETH_EINVAL, PFX "%s is empty", what);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return aieth__fail(
				AIETH_EINVAL,
				PFX "%s \"%s\" has a byte 0x%02x at %zu (printable ASCII only)",
				what, aieth__quote(q, sizeof q, s, len), (unsigned char)s[i], i);
	return 0;
}

int aieth__amdp_check_name(const char *what, const char *s, size_t len)
{
	char q[AIETH_QUOTE_CAP];
	if (len > AMDP_MAX_NAME)
		return aieth__fail(AIETH_EINVAL, PFX "%s length %zu exceeds the limit %u", what,
				   len, AMDP_MAX_NAME);
	if (check_text(what, s, len))
		return AIETH_EINVAL;
	if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.') ||
	    memchr(s, '/', len) || memchr(s, '\\', len))
		return aieth__fail(AIETH_EINVAL, PFX "%s \"%s\" is not a plain base name", what,
				   aieth__quote(q, sizeof q, s, len));
	return 0;
}

/* ----------------------------------------------------------- decoder */

enum { P_NONE, P_U8, P_U32, P_U64, P_BYTES };

enum {
	/* idle: between messages (client: until expect) */
	ST_IDLE,
	ST_WAIT_SINK, /* a bulk was announced */
	ST_WAIT_CONT, /* Q_MGR_DEVICE / Q_RUN_BYTES yielded */
	ST_ENDED,     /* destroy, or a refused device */
	/* server */
	SV_H2,
	SV_H3_COUNT,
	SV_CF_NLEN,
	SV_CF_NAME,
	SV_CF_LEN,
	SV_CF_DATA,
	SV_REQ_LEN,
	SV_REQ_NAME,
	SV_DEV_LEN,
	SV_DEV,
	SV_MGR_INDEX,
	SV_G_COUNT,
	SV_G_LEN,
	SV_G_NAME,
	SV_S_COUNT,
	SV_S_DATA,
	SV_K_COUNT,
	SV_K_LEN,
	SV_K_NAME,
	SV_X_NLEN,
	SV_X_NAME,
	SV_X_LEN,
	SV_X_DATA,
	SV_RUN_BYTES,
	SV_RUN_MODE,
	SV_RUN_ID,
	SV_RUN_TMO,
	SV_CFG_COUNT,
	SV_CFG,
	SV_TO_LEN,
	SV_TO_DATA,
	SV_FROM_LEN,
	SV_QUERY_ID,
	SV_WAIT_ID,
	SV_WAIT_TMO,
	SV_GRAPH_IDX,
	SV_GRAPH_IT,
	SV_WG_TMO,
	SV_SET_TMO,
	SV_PORT_IDX,
	SV_PORT_LEN,
	SV_PORT,
	SV_RTP_RAW,
	SV_RTP_SIZE,
	/* client */
	CL_AVAIL,
	CL_DEV_OK,
	CL_SDEV_LEN,
	CL_SDEV,
	CL_N,
	CL_W,
	CL_D,
	CL_M,
	CL_MAXMEM,
	CL_ACCEPTED,
	CL_STATUS,
	CL_WT_STATUS,
	CL_WT_LEN,
	CL_WT_DATA,
	CL_PERF_COUNT,
	CL_PERF,
	CL_GR_COUNT,
	CL_GR,
	CL_TIMEOUT,
	CL_F_COUNT,
	CL_F_NLEN,
	CL_F_NAME,
	CL_F_LEN,
	CL_F_DATA
};

/* which request is being read (server): set with the state SV_DEV etc. */
enum { RQ_MGR = 1, RQ_RUN, RQ_UPDATE, RQ_READ };

static void rd(amdp_dec *d, int prim, int state)
{
	d->prim = prim;
	d->state = state;
	d->got = 0;
	d->want = prim == P_U8 ? 1 : prim == P_U32 ? 4 : 8;
	d->dst = NULL;
}

static void rd_bytes(amdp_dec *d, void *dst, uint64_t n, int state)
{
	d->prim = P_BYTES;
	d->state = state;
	d->got = 0;
	d->want = n;
	d->dst = dst;
}

/* A bulk payload of n bytes: announced, then read into the sink. */
static int rd_bulk(amdp_dec *d, amdp_bulk kind, uint64_t n, int state)
{
	rd_bytes(d, NULL, n, state);
	if (n == 0)
		return -100; /* nothing to read: complete at once */
	d->bulk = kind;
	d->bulk_len = n;
	d->pending_event = state;
	d->state = ST_WAIT_SINK;
	return AMDP_EV_BULK;
}

static int fail(amdp_dec *d, int code, const char *fmt, ...) AIETH_PRINTF(3, 4);

static int fail(amdp_dec *d, int code, const char *fmt, ...)
{
	char m[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	d->dead = 1;
	d->prim = P_NONE;
	return aieth__fail(code, PFX "%s", m);
}

static int limit(amdp_dec *d, const char *field, uint64_t v, uint64_t lim, const char *name)
{
	return fail(d, AIETH_EINVAL, "%s %llu exceeds the limit %llu (%s)", field,
		    (unsigned long long)v, (unsigned long long)lim, name);
}

static int emit(amdp_dec *d, amdp_kind k)
{
	d->msg.kind = k;
	d->partial = 0;
	d->prim = P_NONE;
	d->state = d->side == AMDP_SERVER ? SV_REQ_LEN : ST_IDLE;
	if (d->side == AMDP_SERVER)
		rd(d, P_U64, SV_REQ_LEN);
	return AMDP_EV_MSG;
}

static void new_msg(amdp_dec *d) { memset(&d->msg, 0, sizeof d->msg); }

int aieth__amdp_dec_init(amdp_dec *d, amdp_side side, const amdp_geom *g)
{
	memset(d, 0, sizeof *d);
	d->side = side;
	if (side == AMDP_SERVER) {
		if (!g || g->n == 0 || g->n > AMDP_MAX_CHANNELS || g->w != AMDP_WORD_BYTES ||
		    g->m != AMDP_WORD_BYTES || g->d == 0 || g->d > AMDP_MAX_DEPTH)
			return aieth__fail(AIETH_EINVAL,
					   PFX "board geometry N=%u W=%u D=%u M=%u out of range "
					       "(N 1..%u, W = M = %u, D 1..%u)",
					   g ? g->n : 0, g ? g->w : 0, g ? g->d : 0, g ? g->m : 0,
					   AMDP_MAX_CHANNELS, AMDP_WORD_BYTES, AMDP_MAX_DEPTH);
		d->geom = *g;
		rd(d, P_U8, SV_H2);
	} else {
		d->state = ST_IDLE;
		d->prim = P_NONE;
	}
	return 0;
}

/* The fixed part of a transaction's bytes: cfg and perf words. */
static uint64_t txn_fixed(uint32_t n) { return 8ull * (8ull * n + 1) + 8ull * 4 * n; }

uint64_t aieth__amdp_txn_bytes(uint32_t n, uint64_t to_aie_len, uint64_t from_aie_len)
{
	return txn_fixed(n) + to_aie_len + from_aie_len;
}

/* A string's i64 length: bounded by lim before a byte is stored. */
static int str_len(amdp_dec *d, const char *field, uint64_t lim, const char *limname)
{
	uint64_t v = aieth__le64_get(d->scratch);
	if ((int64_t)v < 0)
		return fail(d, AIETH_EINVAL, "%s length %lld is negative", field, (long long)v);
	if (v > lim)
		return fail(d, AIETH_EINVAL, "%s length %llu exceeds the limit %llu (%s)", field,
			    (unsigned long long)v, (unsigned long long)lim, limname);
	return 0;
}

static int bool_ok(amdp_dec *d, const char *field, uint8_t v)
{
	if (v > 1)
		return fail(d, AIETH_EINVAL, "%s is %u, not a bool (0 or 1)", field, v);
	return 0;
}

static int match_request(amdp_dec *d, size_t len)
{
	char q[AIETH_QUOTE_CAP];
	const char *s = d->reqname;
	new_msg(d);
#define IS(lit) (len == sizeof(lit) - 1 && memcmp(s, lit, len) == 0)
	if (IS("test_harness_mgr")) {
		rd(d, P_U64, SV_DEV_LEN);
	} else if (IS("runTestHarness")) {
		rd(d, P_U64, SV_RUN_BYTES);
	} else if (IS("queryTransactionStatus")) {
		rd(d, P_U32, SV_QUERY_ID);
	} else if (IS("waitForTestHarness")) {
		rd(d, P_U32, SV_WAIT_ID);
	} else if (IS("runAIEGraph")) {
		rd(d, P_U32, SV_GRAPH_IDX);
	} else if (IS("waitForGraph")) {
		rd(d, P_U32, SV_WG_TMO);
	} else if (IS("setTimeOut")) {
		rd(d, P_U64, SV_SET_TMO);
	} else if (IS("getTimeOut")) {
		return emit(d, AMDP_Q_GET_TIMEOUT);
	} else if (IS("destroy")) {
		emit(d, AMDP_Q_DESTROY);
		d->prim = P_NONE;
		d->state = ST_ENDED;
		return AMDP_EV_MSG;
	} else if (IS("update port")) {
		d->msg.kind = AMDP_Q_UPDATE_PORT;
		rd(d, P_U32, SV_PORT_IDX);
	} else if (IS("read port")) {
		d->msg.kind = AMDP_Q_READ_PORT;
		rd(d, P_U32, SV_PORT_IDX);
	} else {
		return fail(d, AIETH_EINVAL, "unknown request \"%s\" (length %zu)",
			    aieth__quote(q, sizeof q, s, len), len);
	}
#undef IS
	return AMDP_EV_MORE;
}

/* A complete primitive: check it and set up the next. Returns an AMDP_EV_*
 * (AMDP_EV_MORE to go on reading) or a negative code. */
static int on_field(amdp_dec *d)
{
	amdp_msg *m = &d->msg;
	uint64_t v = d->prim == P_U8    ? d->scratch[0]
		     : d->prim == P_U32 ? aieth__le32_get(d->scratch)
		     : d->prim == P_U64 ? aieth__le64_get(d->scratch)
					: d->want;
	switch (d->state) {
	/* ---------------------------------------------------- handshake */
	case SV_H2:
		new_msg(d);
		if (bool_ok(d, "handshake ack", (uint8_t)v))
			return AIETH_EINVAL;
		m->flag = (int)v;
		rd(d, P_U64, SV_H3_COUNT);
		return AMDP_EV_MORE;
	case SV_H3_COUNT:
		if (v > AMDP_MAX_CONFIG_FILES)
			return limit(d, "config file count", v, AMDP_MAX_CONFIG_FILES,
				     "AMDP_MAX_CONFIG_FILES");
		d->count = v;
		d->idx = 0;
		goto next_config;
	case SV_CF_NLEN:
		if (str_len(d, "config file name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->file[m->nfiles], aieth__le64_get(d->scratch), SV_CF_NAME);
		return AMDP_EV_MORE;
	case SV_CF_NAME: {
		char q[AIETH_QUOTE_CAP];
		const char *s = m->file[m->nfiles];
		m->file[m->nfiles][v] = 0;
		if (aieth__amdp_check_name("config file name", s, v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		if (v != 7 || memcmp(s, "xrt.ini", 7) != 0)
			return fail(d, AIETH_EINVAL,
				    "config file \"%s\" refused: only xrt.ini is accepted",
				    aieth__quote(q, sizeof q, s, v));
		rd(d, P_U64, SV_CF_LEN);
		return AMDP_EV_MORE;
	}
	case SV_CF_LEN:
		if (v > AMDP_MAX_INI_BYTES)
			return limit(d, "xrt.ini length", v, AMDP_MAX_INI_BYTES,
				     "AMDP_MAX_INI_BYTES");
		m->file_len[m->nfiles] = v;
		return rd_bulk(d, AMDP_BULK_INI, v, SV_CF_DATA);
	case SV_CF_DATA:
		m->nfiles++;
		d->idx++;
	next_config:
		if (d->idx < d->count) {
			rd(d, P_U64, SV_CF_NLEN);
			return AMDP_EV_MORE;
		}
		return emit(d, AMDP_Q_HELLO);

	/* ------------------------------------------------ request names */
	case SV_REQ_LEN:
		if ((int64_t)v <= 0 || v > AMDP_MAX_REQ_NAME) {
			if ((int64_t)v < 0)
				return fail(d, AIETH_EINVAL, "request name length %lld is negative",
					    (long long)v);
			if (v == 0)
				return fail(d, AIETH_EINVAL, "request name is empty");
			return limit(d, "request name length", v, AMDP_MAX_REQ_NAME,
				     "AMDP_MAX_REQ_NAME");
		}
		rd_bytes(d, d->reqname, v, SV_REQ_NAME);
		return AMDP_EV_MORE;
	case SV_REQ_NAME: d->reqname[v] = 0; return match_request(d, (size_t)v);

	/* ---------------------------------------------- test_harness_mgr */
	case SV_DEV_LEN:
		if (str_len(d, "device name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->device, v, SV_DEV);
		return AMDP_EV_MORE;
	case SV_DEV:
		m->device[v] = 0;
		/* empty is legal: the server answers a mismatch */
		if (v && check_text("device name", m->device, v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		m->kind = AMDP_Q_MGR_DEVICE;
		d->prim = P_NONE;
		d->state = ST_WAIT_CONT;
		d->pending_event = RQ_MGR;
		return AMDP_EV_MSG;
	case SV_MGR_INDEX:
		m->dev_index = (uint32_t)v;
		rd(d, P_U64, SV_G_COUNT);
		return AMDP_EV_MORE;
	case SV_G_COUNT:
		if (v > AMDP_MAX_GRAPHS)
			return limit(d, "graph count", v, AMDP_MAX_GRAPHS, "AMDP_MAX_GRAPHS");
		d->count = v;
		d->idx = 0;
		goto next_graph;
	case SV_G_LEN:
		if (str_len(d, "graph name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->graph[d->idx], v, SV_G_NAME);
		return AMDP_EV_MORE;
	case SV_G_NAME:
		m->graph[d->idx][v] = 0;
		if (check_text("graph name", m->graph[d->idx], v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		d->idx++;
	next_graph:
		if (d->idx < d->count) {
			rd(d, P_U64, SV_G_LEN);
			return AMDP_EV_MORE;
		}
		m->ngraphs = (uint32_t)d->count;
		rd(d, P_U64, SV_S_COUNT);
		return AMDP_EV_MORE;
	case SV_S_COUNT:
		if (v != m->ngraphs)
			return fail(d, AIETH_EINVAL,
				    "graph started count %llu differs from the graph count %u",
				    (unsigned long long)v, m->ngraphs);
		rd_bytes(d, m->started, v, SV_S_DATA);
		return AMDP_EV_MORE;
	case SV_S_DATA:
		for (uint32_t i = 0; i < m->ngraphs; i++)
			if (bool_ok(d, "graph started flag", m->started[i]))
				return AIETH_EINVAL;
		rd(d, P_U64, SV_K_COUNT);
		return AMDP_EV_MORE;
	case SV_K_COUNT:
		if (v > AMDP_MAX_KERNELS)
			return limit(d, "kernel count", v, AMDP_MAX_KERNELS, "AMDP_MAX_KERNELS");
		d->count = v;
		d->idx = 0;
		goto next_kernel;
	case SV_K_LEN:
		if (str_len(d, "kernel name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->kernel[d->idx], v, SV_K_NAME);
		return AMDP_EV_MORE;
	case SV_K_NAME:
		m->kernel[d->idx][v] = 0;
		if (check_text("kernel name", m->kernel[d->idx], v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		d->idx++;
	next_kernel:
		if (d->idx < d->count) {
			rd(d, P_U64, SV_K_LEN);
			return AMDP_EV_MORE;
		}
		m->nkernels = (uint32_t)d->count;
		rd(d, P_U64, SV_X_NLEN);
		return AMDP_EV_MORE;
	case SV_X_NLEN:
		if (str_len(d, "xclbin name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->file[0], v, SV_X_NAME);
		return AMDP_EV_MORE;
	case SV_X_NAME:
		m->file[0][v] = 0;
		if (aieth__amdp_check_name("xclbin name", m->file[0], v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		m->nfiles = 1;
		rd(d, P_U64, SV_X_LEN);
		return AMDP_EV_MORE;
	case SV_X_LEN:
		if (v > AMDP_MAX_XCLBIN_BYTES)
			return limit(d, "xclbin length", v, AMDP_MAX_XCLBIN_BYTES,
				     "AMDP_MAX_XCLBIN_BYTES");
		m->file_len[0] = v;
		return rd_bulk(d, AMDP_BULK_XCLBIN, v, SV_X_DATA);
	case SV_X_DATA: return emit(d, AMDP_Q_MGR);

	/* ------------------------------------------------ runTestHarness */
	case SV_RUN_BYTES:
		if (v < txn_fixed(d->geom.n))
			return fail(d, AIETH_EINVAL,
				    "transaction bytes %llu are fewer than the %llu of the cfg and "
				    "perf words",
				    (unsigned long long)v,
				    (unsigned long long)txn_fixed(d->geom.n));
		m->txn_bytes = v;
		m->kind = AMDP_Q_RUN_BYTES;
		d->prim = P_NONE;
		d->state = ST_WAIT_CONT;
		d->pending_event = RQ_RUN;
		return AMDP_EV_MSG;
	case SV_RUN_MODE:
		if (v > 1)
			return fail(d, AIETH_EINVAL,
				    "transaction mode %u is neither 0 (FUNC) nor 1 (PERF)",
				    (unsigned)v);
		m->mode = (uint8_t)v;
		rd(d, P_U32, SV_RUN_ID);
		return AMDP_EV_MORE;
	case SV_RUN_ID:
		m->id = (uint32_t)v;
		rd(d, P_U32, SV_RUN_TMO);
		return AMDP_EV_MORE;
	case SV_RUN_TMO:
		m->timeout = (uint32_t)v;
		rd(d, P_U64, SV_CFG_COUNT);
		return AMDP_EV_MORE;
	case SV_CFG_COUNT: {
		uint64_t want = 8ull * d->geom.n + 1;
		if (v != want)
			return fail(
				d, AIETH_EINVAL,
				"cfg word count %llu, the board's N = %u channels needs 8N+1 = %llu",
				(unsigned long long)v, d->geom.n, (unsigned long long)want);
		m->ncfg = (uint32_t)v;
		rd_bytes(d, m->cfg, v * 8, SV_CFG);
		return AMDP_EV_MORE;
	}
	case SV_CFG:
		for (uint32_t i = 0; i < m->ncfg; i++)
			m->cfg[i] = aieth__le64_get((const uint8_t *)&m->cfg[i]);
		rd(d, P_U64, SV_TO_LEN);
		return AMDP_EV_MORE;
	case SV_TO_LEN: {
		uint64_t room = m->txn_bytes - txn_fixed(d->geom.n);
		if (v > room)
			return fail(
				d, AIETH_EINVAL,
				"to_aie length %llu exceeds the %llu bytes the announced transaction "
				"bytes %llu leave",
				(unsigned long long)v, (unsigned long long)room,
				(unsigned long long)m->txn_bytes);
		m->to_aie_len = v;
		return rd_bulk(d, AMDP_BULK_TO_AIE, v, SV_TO_DATA);
	}
	case SV_TO_DATA: rd(d, P_U64, SV_FROM_LEN); return AMDP_EV_MORE;
	case SV_FROM_LEN: {
		uint64_t room = m->txn_bytes - txn_fixed(d->geom.n) - m->to_aie_len;
		if (v != room)
			return fail(
				d, AIETH_EINVAL,
				"from_aie length %llu: the announced transaction bytes %llu need %llu",
				(unsigned long long)v, (unsigned long long)m->txn_bytes,
				(unsigned long long)room);
		m->from_aie_len = v;
		return emit(d, AMDP_Q_RUN);
	}

	/* ------------------------------------------------- small requests */
	case SV_QUERY_ID: m->id = (uint32_t)v; return emit(d, AMDP_Q_QUERY);
	case SV_WAIT_ID:
		m->id = (uint32_t)v;
		rd(d, P_U32, SV_WAIT_TMO);
		return AMDP_EV_MORE;
	case SV_WAIT_TMO: m->timeout = (uint32_t)v; return emit(d, AMDP_Q_WAIT_TH);
	case SV_GRAPH_IDX:
		m->graph_index = (uint32_t)v;
		rd(d, P_U32, SV_GRAPH_IT);
		return AMDP_EV_MORE;
	case SV_GRAPH_IT: m->iterations = (uint32_t)v; return emit(d, AMDP_Q_RUN_GRAPH);
	case SV_WG_TMO: m->timeout = (uint32_t)v; return emit(d, AMDP_Q_WAIT_GRAPH);
	case SV_SET_TMO:
		if (v == 0)
			return fail(d, AIETH_EINVAL,
				    "setTimeOut of 0 seconds (must be at least 1)");
		m->value = v;
		return emit(d, AMDP_Q_SET_TIMEOUT);
	case SV_PORT_IDX:
		m->graph_index = (uint32_t)v;
		rd(d, P_U64, SV_PORT_LEN);
		return AMDP_EV_MORE;
	case SV_PORT_LEN:
		if (str_len(d, "port name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->port, v, SV_PORT);
		return AMDP_EV_MORE;
	case SV_PORT:
		m->port[v] = 0;
		if (check_text("port name", m->port, v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		if (m->kind == AMDP_Q_UPDATE_PORT)
			rd_bytes(d, m->rtp_raw, AMDP_RTP_RAW, SV_RTP_RAW);
		else
			rd(d, P_U32, SV_RTP_SIZE);
		return AMDP_EV_MORE;
	case SV_RTP_RAW: return emit(d, AMDP_Q_UPDATE_PORT);
	case SV_RTP_SIZE: m->rtp_size = (uint32_t)v; return emit(d, AMDP_Q_READ_PORT);

	/* ------------------------------------------------ client: replies */
	case CL_AVAIL:
		if (bool_ok(d, "available", (uint8_t)v))
			return AIETH_EINVAL;
		m->flag = (int)v;
		return emit(d, AMDP_R_AVAILABLE);
	case CL_DEV_OK:
		if (bool_ok(d, "device ok", (uint8_t)v))
			return AIETH_EINVAL;
		m->flag = (int)v;
		rd(d, v ? P_U32 : P_U64, v ? CL_N : CL_SDEV_LEN);
		return AMDP_EV_MORE;
	case CL_SDEV_LEN:
		if (str_len(d, "server device name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->device, v, CL_SDEV);
		return AMDP_EV_MORE;
	case CL_SDEV: m->device[v] = 0; return emit(d, AMDP_R_MGR_DEVICE);
	case CL_N:
		if (v == 0 || v > AMDP_MAX_CHANNELS)
			return fail(d, AIETH_EINVAL, "channel count N = %llu out of range 1..%u",
				    (unsigned long long)v, AMDP_MAX_CHANNELS);
		m->n = (uint32_t)v;
		rd(d, P_U32, CL_W);
		return AMDP_EV_MORE;
	case CL_W:
		if (v != AMDP_WORD_BYTES)
			return fail(d, AIETH_EINVAL, "stream word W = %llu, not %u",
				    (unsigned long long)v, AMDP_WORD_BYTES);
		m->w = (uint32_t)v;
		rd(d, P_U32, CL_D);
		return AMDP_EV_MORE;
	case CL_D:
		if (v == 0 || v > AMDP_MAX_DEPTH)
			return fail(d, AIETH_EINVAL, "URAM depth D = %llu out of range 1..%u",
				    (unsigned long long)v, AMDP_MAX_DEPTH);
		m->d = (uint32_t)v;
		rd(d, P_U32, CL_M);
		return AMDP_EV_MORE;
	case CL_M:
		if (v != AMDP_WORD_BYTES)
			return fail(d, AIETH_EINVAL, "memory word M = %llu, not %u",
				    (unsigned long long)v, AMDP_WORD_BYTES);
		m->m = (uint32_t)v;
		d->geom = (amdp_geom){m->n, m->w, m->d, m->m};
		return emit(d, AMDP_R_MGR_DEVICE);
	case CL_MAXMEM: m->value = v; return emit(d, AMDP_R_MAX_MEM);
	case CL_ACCEPTED:
		if (bool_ok(d, "accepted", (uint8_t)v))
			return AIETH_EINVAL;
		m->flag = (int)v;
		return emit(d, AMDP_R_ACCEPTED);
	case CL_STATUS:
		if (v > AMDP_ST_DONE)
			return fail(d, AIETH_EINVAL, "transaction status %u out of range 0..4",
				    (unsigned)v);
		m->status = (uint8_t)v;
		return emit(d, AMDP_R_STATUS);
	case CL_WT_STATUS:
		if (v != AMDP_ST_DONE && v != AMDP_ST_TIMEOUT)
			return fail(
				d, AIETH_EINVAL,
				"waitForTestHarness status %u is neither 3 (TIMEOUT) nor 4 (DONE)",
				(unsigned)v);
		m->status = (uint8_t)v;
		rd(d, P_U64, CL_WT_LEN);
		return AMDP_EV_MORE;
	case CL_WT_LEN:
		if (v > AMDP_MAX_TXN_BYTES)
			return limit(d, "from_aie length", v, AMDP_MAX_TXN_BYTES,
				     "AMDP_MAX_TXN_BYTES");
		m->from_aie_len = v;
		return rd_bulk(d, AMDP_BULK_FROM_AIE, v, CL_WT_DATA);
	case CL_WT_DATA: rd(d, P_U64, CL_PERF_COUNT); return AMDP_EV_MORE;
	case CL_PERF_COUNT:
		if (v != 4ull * d->geom.n)
			return fail(d, AIETH_EINVAL, "perf word count %llu, N = %u needs 4N = %u",
				    (unsigned long long)v, d->geom.n, 4 * d->geom.n);
		m->nperf = (uint32_t)v;
		rd_bytes(d, m->perf, v * 8, CL_PERF);
		return AMDP_EV_MORE;
	case CL_PERF:
		for (uint32_t i = 0; i < m->nperf; i++)
			m->perf[i] = aieth__le64_get((const uint8_t *)&m->perf[i]);
		return emit(d, AMDP_R_WAIT_TH);
	case CL_GR_COUNT:
		if (v > AMDP_MAX_GRAPHS)
			return limit(d, "graph started count", v, AMDP_MAX_GRAPHS,
				     "AMDP_MAX_GRAPHS");
		m->ngraphs = (uint32_t)v;
		rd_bytes(d, m->started, v, CL_GR);
		return AMDP_EV_MORE;
	case CL_GR:
		for (uint32_t i = 0; i < m->ngraphs; i++)
			if (bool_ok(d, "graph started flag", m->started[i]))
				return AIETH_EINVAL;
		return emit(d, AMDP_R_GRAPHS);
	case CL_TIMEOUT:
		if (v == 0)
			return fail(d, AIETH_EINVAL,
				    "getTimeOut answered 0 seconds (must be at least 1)");
		m->value = v;
		return emit(d, AMDP_R_TIMEOUT);
	case CL_F_COUNT:
		if (v > AMDP_MAX_FILES)
			return limit(d, "returned file count", v, AMDP_MAX_FILES, "AMDP_MAX_FILES");
		d->count = v;
		d->idx = 0;
		goto next_file;
	case CL_F_NLEN:
		if (str_len(d, "returned file name", AMDP_MAX_NAME, "AMDP_MAX_NAME"))
			return AIETH_EINVAL;
		rd_bytes(d, m->file[m->nfiles], v, CL_F_NAME);
		return AMDP_EV_MORE;
	case CL_F_NAME:
		m->file[m->nfiles][v] = 0;
		if (aieth__amdp_check_name("returned file name", m->file[m->nfiles], v)) {
			d->dead = 1;
			return AIETH_EINVAL;
		}
		rd(d, P_U64, CL_F_LEN);
		return AMDP_EV_MORE;
	case CL_F_LEN:
		if (v > AMDP_MAX_FILE_BYTES)
			return limit(d, "returned file length", v, AMDP_MAX_FILE_BYTES,
				     "AMDP_MAX_FILE_BYTES");
		m->file_len[m->nfiles] = v;
		return rd_bulk(d, AMDP_BULK_FILE, v, CL_F_DATA);
	case CL_F_DATA:
		m->nfiles++;
		d->idx++;
	next_file:
		if (d->idx < d->count) {
			rd(d, P_U64, CL_F_NLEN);
			return AMDP_EV_MORE;
		}
		return emit(d, AMDP_R_FILES);
	default: break;
	}
	return fail(d, AIETH_ESTATE, "decoder in state %d with nothing to read", d->state);
}

/* Run on_field, completing zero-length bulks at once. */
static int complete(amdp_dec *d)
{
	int r = on_field(d);
	while (r == -100)
		r = on_field(d); /* the bulk's own state, with nothing read */
	return r;
}

static int state_error(amdp_dec *d, size_t len)
{
	if (d->dead)
		return aieth__fail(AIETH_ESTATE, PFX "the decoder stopped at an earlier error");
	if (d->state == ST_WAIT_SINK)
		return aieth__fail(AIETH_ESTATE,
				   PFX "a bulk payload was announced: call amdp_dec_sink first");
	if (d->state == ST_WAIT_CONT)
		return aieth__fail(AIETH_ESTATE,
				   PFX "reply first, then amdp_dec_continue, before more bytes");
	if (d->state == ST_ENDED)
		return fail(d, AIETH_EINVAL, "%zu bytes after the end of the session", len);
	return fail(d, AIETH_EINVAL, "%zu bytes from the server with no reply expected", len);
}

int aieth__amdp_dec_feed(amdp_dec *d, const uint8_t *p, size_t len, size_t *used)
{
	*used = 0;
	if (d->dead || d->state == ST_WAIT_SINK || d->state == ST_WAIT_CONT)
		return state_error(d, len);
	if (d->prim == P_NONE) {
		if (len == 0)
			return AMDP_EV_MORE;
		return state_error(d, len);
	}
	for (;;) {
		uint64_t need = d->want - d->got;
		if (need > 0) {
			if (len == 0)
				return AMDP_EV_MORE;
			size_t take = need < len ? (size_t)need : len;
			if (d->prim != P_BYTES)
				memcpy(d->scratch + d->got, p, take);
			else if (d->dst)
				memcpy(d->dst + d->got, p, take);
			d->got += take;
			d->partial = 1;
			p += take;
			len -= take;
			*used += take;
			if (d->got < d->want)
				return AMDP_EV_MORE;
		}
		int r = complete(d);
		if (r != AMDP_EV_MORE)
			return r;
		if (d->prim == P_NONE)
			return len ? state_error(d, len) : AMDP_EV_MORE;
	}
}

void aieth__amdp_dec_sink(amdp_dec *d, uint8_t *dst)
{
	if (d->state != ST_WAIT_SINK)
		return;
	d->dst = dst;
	d->state = d->pending_event;
}

uint8_t *aieth__amdp_dec_room(amdp_dec *d, uint64_t *n)
{
	*n = 0;
	if (d->dead || d->prim != P_BYTES || !d->dst || d->state == ST_WAIT_SINK ||
	    d->got >= d->want)
		return NULL;
	*n = d->want - d->got;
	return d->dst + d->got;
}

int aieth__amdp_dec_advance(amdp_dec *d, uint64_t n)
{
	uint64_t room;
	if (!aieth__amdp_dec_room(d, &room) || n > room)
		return aieth__fail(AIETH_ESTATE, PFX "advance by %llu bytes with %llu due",
				   (unsigned long long)n, (unsigned long long)room);
	d->got += n;
	if (d->got < d->want)
		return AMDP_EV_MORE;
	return complete(d);
}

int aieth__amdp_dec_at_boundary(const amdp_dec *d)
{
	if (d->dead || d->state == ST_WAIT_SINK || d->state == ST_WAIT_CONT)
		return 0;
	return !d->partial;
}

void aieth__amdp_dec_continue(amdp_dec *d, int go_on)
{
	if (d->state != ST_WAIT_CONT)
		return;
	if (d->pending_event == RQ_MGR) {
		if (go_on) {
			rd(d, P_U32, SV_MGR_INDEX);
		} else {
			d->prim = P_NONE;
			d->state = ST_ENDED;
			d->partial = 0;
		}
	} else {
		if (!go_on) {
			rd(d, P_U64, SV_REQ_LEN);
			d->partial = 0; /* refused: the request ends here */
		} else {
			rd(d, P_U8, SV_RUN_MODE);
		}
	}
}

int aieth__amdp_dec_expect(amdp_dec *d, amdp_kind reply)
{
	int st;
	if (d->side != AMDP_CLIENT || d->dead || d->state != ST_IDLE)
		return aieth__fail(AIETH_ESTATE, PFX "expect: the decoder is not between replies");
	switch (reply) {
	case AMDP_R_AVAILABLE: st = CL_AVAIL; break;
	case AMDP_R_MGR_DEVICE: st = CL_DEV_OK; break;
	case AMDP_R_MAX_MEM: st = CL_MAXMEM; break;
	case AMDP_R_ACCEPTED: st = CL_ACCEPTED; break;
	case AMDP_R_STATUS: st = CL_STATUS; break;
	case AMDP_R_WAIT_TH: st = CL_WT_STATUS; break;
	case AMDP_R_GRAPHS: st = CL_GR_COUNT; break;
	case AMDP_R_TIMEOUT: st = CL_TIMEOUT; break;
	case AMDP_R_FILES: st = CL_F_COUNT; break;
	default: return aieth__fail(AIETH_EINVAL, PFX "expect: %d is not a reply", (int)reply);
	}
	if (reply == AMDP_R_WAIT_TH && d->geom.n == 0)
		return aieth__fail(
			AIETH_ESTATE, PFX
			"expect: waitForTestHarness needs the board's N (test_harness_mgr first)");
	new_msg(d);
	d->expect = reply;
	rd(d,
	   st == CL_MAXMEM || st == CL_GR_COUNT || st == CL_TIMEOUT || st == CL_F_COUNT ? P_U64
											: P_U8,
	   st);
	return 0;
}

/* ------------------------------------------------- transaction facts */

int aieth__amdp_txn_check(const amdp_geom *g, const amdp_msg *r)
{
	uint32_t n = g->n;
	uint64_t full = (uint64_t)n * g->w * g->d;
	if (n == 0 || n > AMDP_MAX_CHANNELS)
		return aieth__fail(AIETH_EINVAL, PFX "channel count N = %u out of range 1..%u", n,
				   AMDP_MAX_CHANNELS);
	if (r->ncfg != 8u * n + 1)
		return aieth__fail(AIETH_EINVAL, PFX "cfg word count %u, N = %u needs %u", r->ncfg,
				   n, 8 * n + 1);
	if (r->cfg[0] != r->mode)
		return aieth__fail(AIETH_EINVAL, PFX "cfg[0] = %llu differs from the mode %u",
				   (unsigned long long)r->cfg[0], r->mode);
	if (r->mode == 1 && (r->to_aie_len != full || r->from_aie_len != full))
		return aieth__fail(AIETH_EINVAL,
				   PFX "PERF images of %llu and %llu bytes, N*W*D = %llu needed",
				   (unsigned long long)r->to_aie_len,
				   (unsigned long long)r->from_aie_len, (unsigned long long)full);
	/* frames, repetitions and offsets are 32-bit fields of the kernel */
	for (uint32_t i = 1; i < r->ncfg; i++) {
		uint32_t row = (i - 1) / n % 4, dir = (i - 1) / (4 * n);
		if (row != 0 && r->cfg[i] > UINT32_MAX)
			return aieth__fail(AIETH_EINVAL,
					   PFX "%s channel %u: %s %llu exceeds 32 bits",
					   dir ? "RX" : "TX", (i - 1) % n,
					   row == 1   ? "frames"
					   : row == 2 ? "repetitions"
						      : "offset",
					   (unsigned long long)r->cfg[i]);
	}
	pld_chan_cfg ch[2][AMDP_MAX_CHANNELS];
	uint64_t mode;
	aieth__pld_cfg_decode(n, r->cfg, &mode, ch[0], ch[1]);
	for (int dir = 0; dir < 2; dir++) {
		uint64_t img = dir ? r->from_aie_len : r->to_aie_len;
		const char *dn = dir ? "RX" : "TX";
		for (uint32_t c = 0; c < n; c++) {
			const pld_chan_cfg *k = &ch[dir][c];
			if (k->frames == 0 && k->reps == 0)
				continue;
			if (r->mode == PLD_MODE_FUNC && k->reps != 1)
				return aieth__fail(
					AIETH_EINVAL,
					PFX
					"%s channel %u: %u repetitions in FUNC mode (must be 1)",
					dn, c, k->reps);
			/* PERF: the kernel replays at most D words per channel from its URAM */
			uint64_t words =
				r->mode == PLD_MODE_PERF && k->frames > g->d ? g->d : k->frames;
			uint64_t start = (uint64_t)k->offset * g->m, len = words * g->w;
			if (start > img || len > img - start)
				return aieth__fail(
					AIETH_EINVAL,
					PFX "%s channel %u: %llu bytes at offset %llu leave the "
					    "%llu-byte image",
					dn, c, (unsigned long long)len, (unsigned long long)start,
					(unsigned long long)img);
		}
	}
	return 0;
}

/* ------------------------------------------- encoders: server replies */

int aieth__amdp_enc_available(sbuf *b, int available)
{
	sb_u8(b, available ? 1 : 0);
	return done(b);
}

int aieth__amdp_enc_mgr_device_ok(sbuf *b, const amdp_geom *g)
{
	sb_u8(b, 1);
	sb_le32(b, g->n);
	sb_le32(b, g->w);
	sb_le32(b, g->d);
	sb_le32(b, g->m);
	return done(b);
}

int aieth__amdp_enc_mgr_device_bad(sbuf *b, const char *server_device)
{
	if (strlen(server_device) > AMDP_MAX_NAME)
		return aieth__fail(AIETH_EINVAL,
				   PFX "server device length %zu exceeds the limit %u",
				   strlen(server_device), AMDP_MAX_NAME);
	sb_u8(b, 0);
	put_str(b, server_device);
	return done(b);
}

int aieth__amdp_enc_max_mem(sbuf *b, uint64_t bytes)
{
	sb_le64(b, bytes);
	return done(b);
}

int aieth__amdp_enc_accepted(sbuf *b, int accepted)
{
	sb_u8(b, accepted ? 1 : 0);
	return done(b);
}

int aieth__amdp_enc_status(sbuf *b, uint8_t status)
{
	if (status > AMDP_ST_DONE)
		return aieth__fail(AIETH_EINVAL, PFX "transaction status %u out of range 0..4",
				   status);
	sb_u8(b, status);
	return done(b);
}

int aieth__amdp_enc_wait_th_head(sbuf *b, uint8_t status, uint64_t rx_len)
{
	if (status != AMDP_ST_DONE && status != AMDP_ST_TIMEOUT)
		return aieth__fail(
			AIETH_EINVAL,
			PFX "waitForTestHarness status %u is neither 3 (TIMEOUT) nor 4 (DONE)",
			status);
	sb_u8(b, status);
	sb_le64(b, rx_len);
	return done(b);
}

int aieth__amdp_enc_wait_th_tail(sbuf *b, const uint64_t *perf, uint32_t nperf)
{
	sb_le64(b, nperf);
	for (uint32_t i = 0; i < nperf; i++)
		sb_le64(b, perf ? perf[i] : 0);
	return done(b);
}

int aieth__amdp_enc_wait_th(sbuf *b, uint8_t status, const uint8_t *rx, uint64_t rx_len,
			    const uint64_t *perf, uint32_t nperf)
{
	int r = aieth__amdp_enc_wait_th_head(b, status, rx_len);
	if (r)
		return r;
	aieth__sb_put(b, rx, rx_len);
	return aieth__amdp_enc_wait_th_tail(b, perf, nperf);
}

int aieth__amdp_enc_graphs(sbuf *b, const uint8_t *started, uint32_t n)
{
	sb_le64(b, n);
	for (uint32_t i = 0; i < n; i++)
		sb_u8(b, started[i] ? 1 : 0);
	return done(b);
}

int aieth__amdp_enc_timeout(sbuf *b, uint64_t seconds)
{
	if (seconds == 0)
		return aieth__fail(AIETH_EINVAL,
				   PFX "getTimeOut must not answer 0: AMD's client then fails");
	sb_le64(b, seconds);
	return done(b);
}

int aieth__amdp_enc_files_count(sbuf *b, uint64_t nfiles)
{
	sb_le64(b, nfiles);
	return done(b);
}

int aieth__amdp_enc_file_head(sbuf *b, const char *name, uint64_t len)
{
	if (aieth__amdp_check_name("returned file name", name, strlen(name)))
		return AIETH_EINVAL;
	put_str(b, name);
	sb_le64(b, len);
	return done(b);
}

int aieth__amdp_enc_file(sbuf *b, const char *name, const uint8_t *data, uint64_t len)
{
	int r = aieth__amdp_enc_file_head(b, name, len);
	if (r)
		return r;
	aieth__sb_put(b, data, len);
	return done(b);
}

/* ------------------------------------------ encoders: client requests */

static void put_file(sbuf *b, const char *name, const uint8_t *data, uint64_t len)
{
	put_str(b, name);
	sb_le64(b, len);
	aieth__sb_put(b, data, len);
}

int aieth__amdp_enc_hello(sbuf *b, int ack, uint32_t nfiles, const char *const *name,
			  const uint8_t *const *data, const uint64_t *len)
{
	sb_u8(b, ack ? 1 : 0);
	sb_le64(b, nfiles);
	for (uint32_t i = 0; i < nfiles; i++)
		put_file(b, name[i], data[i], len[i]);
	return done(b);
}

int aieth__amdp_enc_req_mgr_device(sbuf *b, const char *device)
{
	put_str(b, "test_harness_mgr");
	put_str(b, device);
	return done(b);
}

int aieth__amdp_enc_req_mgr(sbuf *b, uint32_t dev_index, uint32_t ngraphs,
			    const char *const *graphs, const uint8_t *started, uint32_t nkernels,
			    const char *const *kernels, const char *xclbin_name,
			    const uint8_t *xclbin, uint64_t xclbin_len)
{
	sb_le32(b, dev_index);
	sb_le64(b, ngraphs);
	for (uint32_t i = 0; i < ngraphs; i++)
		put_str(b, graphs[i]);
	sb_le64(b, ngraphs);
	for (uint32_t i = 0; i < ngraphs; i++)
		sb_u8(b, started && started[i] ? 1 : 0);
	sb_le64(b, nkernels);
	for (uint32_t i = 0; i < nkernels; i++)
		put_str(b, kernels[i]);
	put_file(b, xclbin_name, xclbin, xclbin_len);
	return done(b);
}

int aieth__amdp_enc_req_run_bytes(sbuf *b, uint64_t txn_bytes)
{
	put_str(b, "runTestHarness");
	sb_le64(b, txn_bytes);
	return done(b);
}

int aieth__amdp_enc_req_run(sbuf *b, uint8_t mode, uint32_t id, uint32_t timeout,
			    const uint64_t *cfg, uint32_t ncfg, const uint8_t *to_aie,
			    uint64_t to_aie_len, uint64_t from_aie_len)
{
	sb_u8(b, mode);
	sb_le32(b, id);
	sb_le32(b, timeout);
	sb_le64(b, ncfg);
	for (uint32_t i = 0; i < ncfg; i++)
		sb_le64(b, cfg[i]);
	sb_le64(b, to_aie_len);
	if (!to_aie && to_aie_len)
		return done(b);
	aieth__sb_put(b, to_aie, to_aie_len);
	sb_le64(b, from_aie_len);
	return done(b);
}

int aieth__amdp_enc_req_run_tail(sbuf *b, uint64_t from_aie_len)
{
	sb_le64(b, from_aie_len);
	return done(b);
}

int aieth__amdp_enc_req_query(sbuf *b, uint32_t id)
{
	put_str(b, "queryTransactionStatus");
	sb_le32(b, id);
	return done(b);
}

int aieth__amdp_enc_req_wait_th(sbuf *b, uint32_t id, uint32_t timeout_ms)
{
	put_str(b, "waitForTestHarness");
	sb_le32(b, id);
	sb_le32(b, timeout_ms);
	return done(b);
}

int aieth__amdp_enc_req_run_graph(sbuf *b, uint32_t graph, uint32_t iterations)
{
	put_str(b, "runAIEGraph");
	sb_le32(b, graph);
	sb_le32(b, iterations);
	return done(b);
}

int aieth__amdp_enc_req_wait_graph(sbuf *b, uint32_t timeout_ms)
{
	put_str(b, "waitForGraph");
	sb_le32(b, timeout_ms);
	return done(b);
}

int aieth__amdp_enc_req_set_timeout(sbuf *b, uint64_t seconds)
{
	put_str(b, "setTimeOut");
	sb_le64(b, seconds);
	return done(b);
}

int aieth__amdp_enc_req_get_timeout(sbuf *b)
{
	put_str(b, "getTimeOut");
	return done(b);
}

int aieth__amdp_enc_req_destroy(sbuf *b)
{
	put_str(b, "destroy");
	return done(b);
}

int aieth__amdp_enc_req_update_port(sbuf *b, uint32_t graph, const char *port,
				    const uint8_t raw[AMDP_RTP_RAW])
{
	put_str(b, "update port");
	sb_le32(b, graph);
	put_str(b, port);
	aieth__sb_put(b, raw, AMDP_RTP_RAW);
	return done(b);
}

int aieth__amdp_enc_req_read_port(sbuf *b, uint32_t graph, const char *port, uint32_t size)
{
	put_str(b, "read port");
	sb_le32(b, graph);
	put_str(b, port);
	sb_le32(b, size);
	return done(b);
}
