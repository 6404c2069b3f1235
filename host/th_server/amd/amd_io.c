/* SPDX-License-Identifier: MIT */
/*
 * amd_io.c - the socket side of a connection of AMD's protocol
 * (amd_conn_internal.h): replies sent with one sendmsg each (MSG_NOSIGNAL;
 * TCP_NODELAY is set by amd_conn.c), TCP_QUICKACK re-armed after each read,
 * bulk payloads received straight into place, every wait for input bounded
 * by the watchdog, the stop flag and the session's state.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "th_server/amd/amd_conn_internal.h"

int aieth__amd_io_dying(amd_conn *c) { return c->sh->stop || aieth__srv_stats_draining(c->s); }

/* Send b (and an image after it, and a tail) with one sendmsg per try. */
int aieth__amd_io_send(amd_conn *c, const uint8_t *a, size_t an, const uint8_t *img, size_t imgn,
		       const uint8_t *t, size_t tn)
{
	struct iovec v[3] = {{(void *)a, an}, {(void *)img, imgn}, {(void *)t, tn}};
	int i = 0;
	while (i < 3) {
		struct msghdr m;
		ssize_t n;
		if (v[i].iov_len == 0) {
			i++;
			continue;
		}
		memset(&m, 0, sizeof m);
		m.msg_iov = v + i;
		m.msg_iovlen = (size_t)(3 - i);
		n = sendmsg(c->fd, &m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(c->why, sizeof c->why, "sending a reply: %s", strerror(errno));
			return -1;
		}
		while (n > 0 && i < 3) {
			size_t k = (size_t)n < v[i].iov_len ? (size_t)n : v[i].iov_len;
			v[i].iov_base = (uint8_t *)v[i].iov_base + k;
			v[i].iov_len -= k;
			n -= (ssize_t)k;
			if (v[i].iov_len == 0)
				i++;
		}
	}
	return 0;
}

int aieth__amd_io_flush(amd_conn *c)
{
	int rc;
	if (c->out.oom) {
		snprintf(c->why, sizeof c->why, "out of memory building a reply");
		return -1;
	}
	rc = aieth__amd_io_send(c, c->out.u, c->out.n, NULL, 0, NULL, 0);
	aieth__sb_reset(&c->out);
	return rc;
}

/* Before its manager, a connection has a fixed deadline from its accept:
 * bytes trickling in or setTimeOut never extend it. */
static int setup_over(amd_conn *c, int64_t now)
{
	if (c->x || now < c->setup_end_ms)
		return 0;
	snprintf(c->why, sizeof c->why,
		 "no test_harness_mgr within %u s of connecting (the "
		 "limit is --amd-setup-timeout %u s)",
		 c->sh->setup_s, c->sh->setup_s);
	return 1;
}

/* Wait until fd is readable, checking the watchdog, the stop flag and the
 * session every 200 ms. 1 readable, -1 the connection ends (c->why). */
static int wait_readable(amd_conn *c)
{
	for (;;) {
		struct pollfd p = {c->fd, POLLIN, 0};
		int r, ms = 200;
		int64_t now = srv_now_ms();
		if (setup_over(c, now))
			return -1;
		if (!c->x && c->setup_end_ms - now < ms)
			ms = (int)(c->setup_end_ms - now) + 1;
		r = poll(&p, 1, ms);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR) {
			snprintf(c->why, sizeof c->why, "poll: %s", strerror(errno));
			return -1;
		}
		if (aieth__amd_io_dying(c)) {
			snprintf(c->why, sizeof c->why, "the server stopped");
			return -1;
		}
		if (srv_now_ms() - c->last_ms > (int64_t)c->timeout_s * 1000) {
			snprintf(c->why, sizeof c->why,
				 "no request for %llu s, the watchdog "
				 "(getTimeOut/setTimeOut, --idle-timeout) is %llu s",
				 (unsigned long long)((srv_now_ms() - c->last_ms) / 1000),
				 (unsigned long long)c->timeout_s);
			return -1;
		}
		if (c->x) {
			srv_sess_view v;
			if (aieth__srv_queue_state(c->s, c->x, 0, &v) != SS_ACTIVE) {
				snprintf(c->why, sizeof c->why, "its session %s %s%s%s", c->x->id,
					 aieth__srv_state_names[v.state], v.reason[0] ? ": " : "",
					 v.reason);
				return -1;
			}
		}
	}
}

static void quickack(amd_conn *c)
{
#ifdef TCP_QUICKACK
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#else
	(void)c;
#endif
}

/* Read more: straight into a bulk payload's place when one is due and
 * nothing is buffered, else into c->in. 0, or -1 at the end (c->why). */
static int read_more(amd_conn *c, int *ev)
{
	uint64_t room;
	uint8_t *dst;
	ssize_t n;
	*ev = AMDP_EV_MORE;
	if (wait_readable(c) < 0)
		return -1;
	dst = aieth__amdp_dec_room(&c->dec, &room);
	if (dst && c->in_pos == c->in_len) {
		n = recv(c->fd, dst, room > (1u << 30) ? (1u << 30) : (size_t)room, 0);
		if (n > 0) {
			quickack(c);
			*ev = aieth__amdp_dec_advance(&c->dec, (uint64_t)n);
			if (*ev < 0) {
				snprintf(c->why, sizeof c->why, "%s", aieth_error_message());
				return -1;
			}
			return 0;
		}
	} else {
		c->in_pos = c->in_len = 0;
		n = recv(c->fd, c->in, sizeof c->in, 0);
		if (n > 0) {
			quickack(c);
			c->in_len = (size_t)n;
			return 0;
		}
	}
	if (aieth__amd_io_dying(c))
		snprintf(c->why, sizeof c->why, "the server stopped");
	else if (n == 0)
		snprintf(c->why, sizeof c->why, "the client closed the connection%s",
			 aieth__amdp_dec_at_boundary(&c->dec) ? "" : " in the middle of a message");
	else if (errno == EINTR || errno == EAGAIN)
		return 0;
	else
		snprintf(c->why, sizeof c->why, "receiving: %s", strerror(errno));
	return -1;
}

/* The next decoder event (AMDP_EV_BULK or AMDP_EV_MSG); -1 at the end. */
int aieth__amd_io_next_event(amd_conn *c)
{
	for (;;) {
		int ev = AMDP_EV_MORE;
		if (c->in_pos < c->in_len) {
			size_t used = 0, avail = c->in_len - c->in_pos;
			uint64_t due = aieth__amd_xclbin_due(c);
			/* the xclbin's bytes come first in what is buffered: to its
			 * file, then to the decoder, which drops them */
			if (due)
				aieth__amd_xclbin_take(c, c->in + c->in_pos,
						       due < avail ? (size_t)due : avail);
			ev = aieth__amdp_dec_feed(&c->dec, c->in + c->in_pos, c->in_len - c->in_pos,
						  &used);
			c->in_pos += used;
		} else if (read_more(c, &ev) < 0) {
			return -1;
		}
		if (ev < 0) {
			snprintf(c->why, sizeof c->why, "malformed: %s", aieth_error_message());
			return -1;
		}
		if (ev != AMDP_EV_MORE)
			return ev;
	}
}
