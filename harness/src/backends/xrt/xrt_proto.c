/* SPDX-License-Identifier: MIT */
/*
 * xrt_proto.c - encoding, decoding and frame I/O of the xrt backend's
 * parent/child protocol (xrt_proto.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "backends/xrt/xrt_proto.h"

/* ---------------------------------------------------------------- writing */

void aieth__xrtp_put_blob(sbuf *b, const void *data, size_t len)
{
	sb_le32(b, (uint32_t)len);
	aieth__sb_put(b, data, len);
}

void aieth__xrtp_put_str(sbuf *b, const char *s)
{
	size_t n = s ? strnlen(s, XRTP_MAX_STR) : 0;
	aieth__xrtp_put_blob(b, s, n);
}

/* ---------------------------------------------------------------- reading */

static const uint8_t *take(xrtp_rd *r, size_t n)
{
	const uint8_t *p;
	if (r->err || n > r->len - r->off) {
		r->err = 1;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

/* Little-endian integers; 0 once the reader has failed. */
uint32_t aieth__xrtp_get_u32(xrtp_rd *r)
{
	const uint8_t *p = take(r, 4);
	return p ? aieth__le32_get(p) : 0;
}

uint64_t aieth__xrtp_get_u64(xrtp_rd *r)
{
	const uint8_t *p = take(r, 8);
	return p ? aieth__le64_get(p) : 0;
}

const uint8_t *aieth__xrtp_get_blob(xrtp_rd *r, size_t max, size_t *len)
{
	uint32_t n = aieth__xrtp_get_u32(r);
	const uint8_t *p;
	*len = 0;
	if (r->err)
		return NULL;
	if (n > max) {
		r->err = 1;
		return NULL;
	}
	p = take(r, n);
	if (p)
		*len = n;
	return p;
}

void aieth__xrtp_get_str(xrtp_rd *r, char *dst, size_t dst_size)
{
	size_t n;
	const uint8_t *p = aieth__xrtp_get_blob(r, XRTP_MAX_STR, &n);
	dst[0] = '\0';
	if (!p)
		return;
	if (n >= dst_size || memchr(p, '\0', n)) {
		r->err = 1;
		return;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static void rd_init(xrtp_rd *r, const uint8_t *p, size_t len)
{
	r->p = p;
	r->len = p ? len : 0;
	r->off = 0;
	r->err = 0;
}

/* A message is well formed when every field was present and nothing is
 * left over. */
static int rd_end(const xrtp_rd *r) { return r->err || r->off != r->len ? -1 : 0; }

/* ---------------------------------------------------------------- messages */

void aieth__xrtp_encode_open(sbuf *b, const xrtp_open_req *o)
{
	uint32_t i;
	aieth__xrtp_put_str(b, o->lib);
	aieth__xrtp_put_str(b, o->pl_xclbin);
	aieth__xrtp_put_str(b, o->aie_xclbin);
	aieth__xrtp_put_str(b, o->kernel);
	sb_le32(b, o->device);
	sb_le32(b, o->ngraphs);
	for (i = 0; i < o->ngraphs && i < XRTP_MAX_GRAPHS; i++)
		aieth__xrtp_put_str(b, o->graphs[i]);
	aieth__xrtp_put_blob(b, o->pl_uuid, 16);
}

int aieth__xrtp_decode_open(const uint8_t *p, size_t len, xrtp_open_req *o)
{
	xrtp_rd r;
	uint32_t i;
	size_t n;
	const uint8_t *u;
	rd_init(&r, p, len);
	memset(o, 0, sizeof *o);
	aieth__xrtp_get_str(&r, o->lib, sizeof o->lib);
	aieth__xrtp_get_str(&r, o->pl_xclbin, sizeof o->pl_xclbin);
	aieth__xrtp_get_str(&r, o->aie_xclbin, sizeof o->aie_xclbin);
	aieth__xrtp_get_str(&r, o->kernel, sizeof o->kernel);
	o->device = aieth__xrtp_get_u32(&r);
	o->ngraphs = aieth__xrtp_get_u32(&r);
	if (o->ngraphs > XRTP_MAX_GRAPHS)
		return -1;
	for (i = 0; i < o->ngraphs && !r.err; i++)
		aieth__xrtp_get_str(&r, o->graphs[i], sizeof o->graphs[i]);
	u = aieth__xrtp_get_blob(&r, 16, &n);
	if (u && n == 16)
		memcpy(o->pl_uuid, u, 16);
	else
		r.err = 1;
	return rd_end(&r);
}

void aieth__xrtp_encode_open_rep(sbuf *b, const xrtp_open_rep *o)
{
	int i;
	aieth__xrtp_put_str(b, o->msg);
	aieth__xrtp_put_blob(b, o->pl_uuid, 16);
	aieth__xrtp_put_blob(b, o->aie_uuid, 16);
	for (i = 0; i < 4; i++)
		sb_le32(b, (uint32_t)o->group[i]);
	sb_le32(b, o->soft_reset);
}

int aieth__xrtp_decode_open_rep(const uint8_t *p, size_t len, xrtp_open_rep *o)
{
	xrtp_rd r;
	size_t n1 = 0, n2 = 0;
	const uint8_t *u1, *u2;
	int i;
	rd_init(&r, p, len);
	memset(o, 0, sizeof *o);
	aieth__xrtp_get_str(&r, o->msg, sizeof o->msg);
	u1 = aieth__xrtp_get_blob(&r, 16, &n1);
	u2 = aieth__xrtp_get_blob(&r, 16, &n2);
	for (i = 0; i < 4; i++)
		o->group[i] = (int32_t)aieth__xrtp_get_u32(&r);
	o->soft_reset = aieth__xrtp_get_u32(&r);
	if (!u1 || !u2 || n1 != 16 || n2 != 16)
		return -1;
	memcpy(o->pl_uuid, u1, 16);
	memcpy(o->aie_uuid, u2, 16);
	return rd_end(&r);
}

void aieth__xrtp_encode_txn(sbuf *b, const xrtp_txn_req *t)
{
	uint32_t i;
	sb_le32(b, t->channels);
	sb_le32(b, t->timeout_ms);
	sb_le64(b, t->tx_bytes);
	sb_le64(b, t->rx_bytes);
	sb_le32(b, t->ncfg);
	for (i = 0; i < t->ncfg; i++)
		sb_le64(b, t->cfg[i]);
}

int aieth__xrtp_decode_txn(const uint8_t *p, size_t len, xrtp_txn_req *t)
{
	xrtp_rd r;
	uint32_t i;
	rd_init(&r, p, len);
	t->channels = aieth__xrtp_get_u32(&r);
	t->timeout_ms = aieth__xrtp_get_u32(&r);
	t->tx_bytes = aieth__xrtp_get_u64(&r);
	t->rx_bytes = aieth__xrtp_get_u64(&r);
	t->ncfg = aieth__xrtp_get_u32(&r);
	if (r.err || t->channels == 0 || t->channels > XRTP_MAX_CHANNELS ||
	    t->ncfg != 8u * t->channels + 1u || t->tx_bytes > XRTP_MAX_IMAGE ||
	    t->rx_bytes > XRTP_MAX_IMAGE)
		return -1;
	for (i = 0; i < t->ncfg && !r.err; i++)
		t->cfg[i] = aieth__xrtp_get_u64(&r);
	return rd_end(&r);
}

void aieth__xrtp_encode_txn_rep(sbuf *b, const xrtp_txn_rep *t)
{
	uint32_t i;
	sb_le32(b, t->status);
	sb_le32(b, t->run_state);
	sb_le32(b, t->have_ctrl);
	sb_le32(b, t->ctrl);
	aieth__xrtp_put_str(b, t->msg);
	sb_le32(b, t->nperf);
	for (i = 0; i < t->nperf && i < 4 * XRTP_MAX_CHANNELS; i++)
		sb_le64(b, t->perf[i]);
	sb_le64(b, t->rx_bytes);
}

int aieth__xrtp_decode_txn_rep(const uint8_t *p, size_t len, xrtp_txn_rep *t)
{
	xrtp_rd r;
	uint32_t i;
	rd_init(&r, p, len);
	t->status = aieth__xrtp_get_u32(&r);
	t->run_state = aieth__xrtp_get_u32(&r);
	t->have_ctrl = aieth__xrtp_get_u32(&r);
	t->ctrl = aieth__xrtp_get_u32(&r);
	aieth__xrtp_get_str(&r, t->msg, sizeof t->msg);
	t->nperf = aieth__xrtp_get_u32(&r);
	if (r.err || t->nperf > 4 * XRTP_MAX_CHANNELS || t->status > 3)
		return -1;
	for (i = 0; i < t->nperf && !r.err; i++)
		t->perf[i] = aieth__xrtp_get_u64(&r);
	t->rx_bytes = aieth__xrtp_get_u64(&r);
	if (t->rx_bytes > XRTP_MAX_IMAGE)
		return -1;
	return rd_end(&r);
}

/* ---------------------------------------------------------------- frame I/O */

int64_t aieth__xrtp_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until fd is ready for events, draining the side channel meanwhile. */
static int wait_fd(xrtp_chan *c, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd pf[2];
		int n = 1, rc, ms = -1;
		if (c->intr && *c->intr) {
			errno = EINTR;
			return -1;
		}
		pf[0].fd = c->fd;
		pf[0].events = events;
		pf[0].revents = 0;
		if (c->side_fd >= 0) {
			pf[1].fd = c->side_fd;
			pf[1].events = POLLIN;
			pf[1].revents = 0;
			n = 2;
		}
		if (deadline >= 0) {
			int64_t left = deadline - aieth__xrtp_now_ms();
			if (left <= 0) {
				errno = ETIMEDOUT;
				return -1;
			}
			ms = left > 60000 ? 60000 : (int)left;
		}
		if (c->intr && (ms < 0 || ms > 100))
			ms = 100; /* a signal between the check and poll() */
		rc = poll(pf, (nfds_t)n, ms);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 2 && (pf[1].revents & (POLLIN | POLLHUP))) {
			char tmp[4096];
			ssize_t k = read(c->side_fd, tmp, sizeof tmp);
			if (k > 0 && c->side)
				c->side(c->side_ctx, tmp, (size_t)k);
			else if (k <= 0)
				c->side_fd = -1; /* the writer is gone */
		}
		if (pf[0].revents & (events | POLLHUP | POLLERR))
			return 0;
	}
}

int aieth__xrtp_send_raw(xrtp_chan *c, const void *data, size_t len, int64_t deadline_ms)
{
	const uint8_t *p = data;
	while (len) {
		ssize_t k;
		if (wait_fd(c, POLLOUT, deadline_ms))
			return -1;
		k = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

int aieth__xrtp_recv_raw(xrtp_chan *c, void *data, size_t len, int64_t deadline_ms)
{
	uint8_t *p = data;
	while (len) {
		ssize_t k;
		if (wait_fd(c, POLLIN, deadline_ms))
			return -1;
		k = recv(c->fd, p, len, MSG_DONTWAIT);
		if (k < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0) {
			errno = ECONNRESET;
			return -1;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

int aieth__xrtp_send(xrtp_chan *c, uint32_t type, int32_t code, const void *payload, size_t len,
		     int64_t deadline_ms)
{
	sbuf b = SB_INIT(16 + XRTP_MAX_PAYLOAD);
	int rc;
	sb_le32(&b, type);
	sb_le32(&b, (uint32_t)code);
	sb_le64(&b, len);
	aieth__sb_put(&b, payload, len);
	if (b.oom) {
		errno = b.over ? EMSGSIZE : ENOMEM;
		aieth__sb_free(&b);
		return -1;
	}
	rc = aieth__xrtp_send_raw(c, b.p, b.n, deadline_ms);
	aieth__sb_free(&b);
	return rc;
}

int aieth__xrtp_recv(xrtp_chan *c, xrtp_hdr *h, uint8_t **payload, int64_t deadline_ms)
{
	uint8_t raw[16];
	xrtp_rd r;
	*payload = NULL;
	if (aieth__xrtp_recv_raw(c, raw, sizeof raw, deadline_ms))
		return -1;
	rd_init(&r, raw, sizeof raw);
	h->type = aieth__xrtp_get_u32(&r);
	h->code = (int32_t)aieth__xrtp_get_u32(&r);
	h->len = aieth__xrtp_get_u64(&r);
	if (h->len > XRTP_MAX_PAYLOAD) {
		errno = EPROTO;
		return -1;
	}
	if (h->len) {
		*payload = malloc((size_t)h->len);
		if (!*payload) {
			errno = ENOMEM;
			return -1;
		}
		if (aieth__xrtp_recv_raw(c, *payload, (size_t)h->len, deadline_ms)) {
			free(*payload);
			*payload = NULL;
			return -1;
		}
	}
	return 0;
}
