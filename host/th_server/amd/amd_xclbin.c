/* SPDX-License-Identifier: MIT */
/*
 * amd_xclbin.c - the xclbin of an AMD client's manager (amd_conn_internal.h).
 * Its announced length is checked against --max-xclbin and counted against
 * the design cache's limit before any file exists; the bytes are written
 * with pwrite as they arrive (a full disk is an error code, never a
 * SIGBUS as with a mapped file); a failed write ends only this connection,
 * with a log line naming the folder; the file goes, and its bytes return
 * to the cache's budget, when the connection ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th_server/amd/amd_conn_internal.h"
#include "util/path.h"

int aieth__amd_xclbin_begin(amd_conn *c, uint64_t len)
{
	aieth__server *s = c->s;
	char msg[300];
	unsigned evicted = 0;

	if (c->xpath || c->xlen) {
		snprintf(c->why, sizeof c->why, "a second xclbin in one connection");
		return -1;
	}
	if (len > s->cache.xclbin_max) {
		snprintf(c->why, sizeof c->why,
			 "xclbin of %llu bytes refused: the limit is "
			 "--max-xclbin %llu MiB",
			 (unsigned long long)len, (unsigned long long)(s->cache.xclbin_max >> 20));
		return -1;
	}
	if (aieth__srv_xclbin_reserve(s, len, &evicted, msg, sizeof msg)) {
		snprintf(c->why, sizeof c->why, "xclbin of %llu bytes refused: %s",
			 (unsigned long long)len, msg);
		return -1;
	}
	c->xlen = len;
	if (evicted)
		aieth__srv_log(s,
			       "xclbin cache: %u older designs evicted to make room for an AMD "
			       "client's xclbin (the limit is --xclbin-cache-mib %llu)",
			       evicted, (unsigned long long)(s->cache.max >> 20));
	c->xpath = aieth__path_join(s->work_dir, "amd-xclbin.XXXXXX");
	if (!c->xpath || (c->xfd = mkstemp(c->xpath)) < 0) {
		snprintf(c->why, sizeof c->why, "xclbin: cannot create a scratch file in %s: %s",
			 s->work_dir, c->xpath ? strerror(errno) : "out of memory");
		free(c->xpath);
		c->xpath = NULL;
		c->xfd = -1;
		return -1;
	}
	c->xoff = 0;
	return 0;
}

uint64_t aieth__amd_xclbin_due(const amd_conn *c) { return c->xlen - c->xoff; }

/* The file removed (a write failed or the connection ended). */
static void drop_file(amd_conn *c)
{
	if (c->xfd >= 0)
		close(c->xfd);
	c->xfd = -1;
	if (c->xpath) {
		unlink(c->xpath);
		free(c->xpath);
		c->xpath = NULL;
	}
}

void aieth__amd_xclbin_take(amd_conn *c, const uint8_t *p, size_t n)
{
	size_t done = 0;
	while (!c->xerr && done < n) {
		ssize_t w = pwrite(c->xfd, p + done, n - done, (off_t)(c->xoff + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->xerr = w < 0 ? errno : ENOSPC;
			aieth__srv_log(
				c->s,
				"amd %s: xclbin: cannot write its scratch file in %s at byte "
				"%llu of %llu: %s; the connection closes after the manager request",
				c->peer, c->s->work_dir, (unsigned long long)(c->xoff + done),
				(unsigned long long)c->xlen, strerror(c->xerr));
			drop_file(c); /* its space back at once; the rest is read and dropped */
			break;
		}
		done += (size_t)w;
	}
	c->xoff += n;
	if (c->xoff == c->xlen && c->xfd >= 0) {
		close(c->xfd);
		c->xfd = -1;
	}
}

int aieth__amd_xclbin_check(amd_conn *c)
{
	if (!c->xerr)
		return 0;
	/* the client gets no reply, as when AMD's server cannot open the
	 * device: nothing about the server's folders reaches it */
	snprintf(c->why, sizeof c->why, "xclbin: cannot write its scratch file in %s: %s",
		 c->s->work_dir, strerror(c->xerr));
	return -1;
}

void aieth__amd_xclbin_end(amd_conn *c)
{
	drop_file(c);
	if (c->xlen)
		aieth__srv_xclbin_unreserve(c->s, c->xlen);
	c->xlen = 0;
}
