/* SPDX-License-Identifier: MIT */
/*
 * amd_sesslog.c - a connection's test_harness_session.log, the session log
 * AMD's server writes into its session folder and returns after destroy
 * (AMD's src/ps/test_harness_session.cpp opens it, in
 * Xilinx/AI-Engine-Test-Harness). The lines keep AMD's form,
 * "[YYYY-MM-DD HH:MM:SS] [LEVEL] message" in local time (strftime
 * "%Y-%m-%d %X", include/ps/test_harness_logging.hpp); what they say is
 * ours: one line per request, one per transaction (when its result is
 * given back or dropped), and "session" lines for the handshake and an end
 * other than destroy.
 *
 * Bounded: the lines are kept in memory (the session's artifact folder is
 * made only with the manager) up to AMD_LOG_LINES_MAX lines and
 * AMD_LOG_BYTES_MAX bytes; later lines are counted and the file ends with
 * "... N more lines not kept". Nothing a client sent is written raw: its
 * strings go through aieth__amd_log_q (quoted, escaped, cut) and every byte of a
 * line outside printable ASCII is written as \xNN, so a line is one line.
 * Only the connection's own thread writes here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th_server/amd/amd_conn_internal.h"
#include "util/fileio.h"
#include "util/path.h"
#include "util/text.h"

const char *aieth__amd_log_q(const char *s, char out[AMD_LOG_Q])
{
	size_t n;
	out[0] = '"';
	aieth__quote_str(out + 1, AMD_LOG_Q - 2, s);
	n = strlen(out);
	out[n] = '"';
	out[n + 1] = '\0';
	return out;
}

/* "[YYYY-MM-DD HH:MM:SS] [LEVEL] " as AMD's logger writes it */
static size_t stamp(char *dst, size_t cap, const char *level)
{
	time_t now = time(NULL);
	struct tm tm;
	char ts[32];
	int n;
	if (!localtime_r(&now, &tm) || !strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(ts, sizeof ts, "%lld", (long long)now);
	n = snprintf(dst, cap, "[%s] [%s] ", ts, level);
	return n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
}

static int reserve(amd_slog *l, size_t more)
{
	size_t cap;
	char *p;
	if (l->len + more <= l->cap)
		return 0;
	cap = l->cap ? l->cap : 8192;
	while (cap < l->len + more)
		cap *= 2;
	if (cap > AMD_LOG_BYTES_MAX + AMD_LOG_LINE_MAX)
		cap = AMD_LOG_BYTES_MAX + AMD_LOG_LINE_MAX;
	if (cap < l->len + more || !(p = realloc(l->p, cap)))
		return -1;
	l->p = p;
	l->cap = cap;
	return 0;
}

void aieth__amd_log(amd_conn *c, const char *level, const char *fmt, ...)
{
	static const char hx[] = "0123456789abcdef";
	amd_slog *l = &c->log;
	char msg[AMD_LOG_LINE_MAX], line[AMD_LOG_LINE_MAX];
	size_t n, i, len = stamp(line, sizeof line, level);
	va_list ap;

	if (l->full || l->lines >= AMD_LOG_LINES_MAX) {
		l->full = 1;
		l->dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* one line whatever the message holds (a device's message, a
	 * client's name through c->why) */
	n = strlen(msg);
	for (i = 0; i < n && len + 6 < sizeof line; i++) {
		unsigned char ch = (unsigned char)msg[i];
		if (ch >= 0x20 && ch < 0x7f) {
			line[len++] = (char)ch;
		} else {
			line[len++] = '\\';
			line[len++] = 'x';
			line[len++] = hx[ch >> 4];
			line[len++] = hx[ch & 15];
		}
	}
	if (i < n) {
		memcpy(line + len, "...", 3);
		len += 3;
	}
	line[len++] = '\n';
	if (l->len + len > AMD_LOG_BYTES_MAX || reserve(l, len)) {
		l->full = 1;
		l->dropped++;
		return;
	}
	memcpy(l->p + l->len, line, len);
	l->len += len;
	l->lines++;
}

int aieth__amd_log_write(amd_conn *c)
{
	amd_slog *l = &c->log;
	char tail[AMD_LOG_LINE_MAX], *path;
	size_t n = 0;
	int rc;
	if (!c->x || !c->x->artdir)
		return 0;
	if (l->dropped) {
		n = stamp(tail, sizeof tail, "WARNING");
		snprintf(tail + n, sizeof tail - n,
			 "... %llu more lines not kept (the log keeps "
			 "%u lines and %u bytes)\n",
			 (unsigned long long)l->dropped, AMD_LOG_LINES_MAX, AMD_LOG_BYTES_MAX);
		n = strlen(tail);
	}
	/* room for the tail was kept: reserve never grows past it */
	if (reserve(l, n + 1)) {
		aieth__srv_log(c->s, "amd %s: session %s: %s: out of memory", c->peer, c->x->id,
			       AMD_LOG_NAME);
		return -1;
	}
	if (n)
		memcpy(l->p + l->len, tail, n);
	if (!(path = aieth__path_join(c->x->artdir, AMD_LOG_NAME))) {
		aieth__srv_log(c->s, "amd %s: session %s: %s: out of memory", c->peer, c->x->id,
			       AMD_LOG_NAME);
		return -1;
	}
	/* written whole each time (destroy, then the end): the tail is not
	 * kept in the buffer, so a later write adds lines after it */
	rc = aieth__write_atomic(path, l->p ? l->p : "", l->len + n);
	free(path);
	if (rc)
		aieth__srv_log(c->s, "amd %s: session %s: %s", c->peer, c->x->id,
			       aieth_error_message());
	return rc ? -1 : 0;
}

void aieth__amd_sesslog_free(amd_conn *c)
{
	free(c->log.p);
	memset(&c->log, 0, sizeof c->log);
}
