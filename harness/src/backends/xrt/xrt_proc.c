/* SPDX-License-Identifier: MIT */
/*
 * xrt_proc.c - the xrt backend's child process under watchdog: fork, a
 * socketpair for requests, a pipe that collects what XRT prints, bounded
 * calls, kill with grace, and a description of how the child ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "backends/xrt/xrt_child.h"
#include "util/error.h"

static void keep_output(void *ctx, const char *bytes, size_t n)
{
	aieth_xrt_proc *p = ctx;
	if (n >= sizeof p->out) {
		bytes += n - (sizeof p->out - 1);
		n = sizeof p->out - 1;
	}
	if (p->outlen + n >= sizeof p->out) {
		size_t drop = p->outlen + n - (sizeof p->out - 1);
		memmove(p->out, p->out + drop, p->outlen - drop);
		p->outlen -= drop;
	}
	memcpy(p->out + p->outlen, bytes, n);
	p->outlen += n;
	p->out[p->outlen] = '\0';
}

int aieth__xrt_proc_start(aieth_xrt_proc *p, const char *run_dir)
{
	char ini[4200];
	int sv[2], pp[2];
	pid_t pid;

	memset(p, 0, sizeof *p);
	p->ch.fd = p->ch.side_fd = -1;
	if (run_dir && (size_t)snprintf(ini, sizeof ini, "%s/xrt.ini", run_dir) >= sizeof ini)
		return aieth__fail(AIETH_EINVAL, "xrt: session folder %s: path too long", run_dir);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return aieth__fail(AIETH_EDEVICE, "xrt: socketpair: %s", strerror(errno));
	if (pipe(pp)) {
		close(sv[0]);
		close(sv[1]);
		return aieth__fail(AIETH_EDEVICE, "xrt: pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		close(pp[0]);
		close(pp[1]);
		return aieth__fail(AIETH_EDEVICE, "xrt: fork: %s", strerror(e));
	}
	if (pid == 0) {
		/* the child: what XRT prints goes to the parent, never to the
		 * caller's stdout */
		close(sv[0]);
		close(pp[0]);
		dup2(pp[1], 1);
		dup2(pp[1], 2);
		close(pp[1]);
		signal(SIGPIPE, SIG_IGN);
		/* the parent decides what an interruption does to the board:
		 * a terminal's SIGINT/SIGHUP to the process group is not for
		 * the child; SIGTERM ends it (aieth__xrt_proc_kill) */
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		/* XRT reads XRT_INI_PATH first and writes its files into the
		 * working folder (xrt_rundir.c); before XRT is loaded */
		if (run_dir && (chdir(run_dir) || setenv("XRT_INI_PATH", ini, 1))) {
			fprintf(stderr, "ERROR: cannot work in the session folder %s: %s\n",
				run_dir, strerror(errno));
			_exit(3);
		}
		aieth__xrt_child_main(sv[1], run_dir != NULL);
	}
	close(sv[1]);
	close(pp[1]);
	fcntl(pp[0], F_SETFD, FD_CLOEXEC);
	p->pid = pid;
	p->ch.fd = sv[0];
	p->ch.side_fd = pp[0];
	p->ch.side = keep_output;
	p->ch.side_ctx = p;
	return AIETH_OK;
}

int aieth__xrt_proc_call(aieth_xrt_proc *p, uint32_t type, const void *req, size_t len,
			 int64_t deadline_ms, xrtp_hdr *h, uint8_t **payload)
{
	*payload = NULL;
	if (!p->pid || p->reaped) {
		errno = ECONNRESET;
		return -1;
	}
	if (aieth__xrtp_send(&p->ch, type, 0, req, len, deadline_ms))
		return -1;
	if (aieth__xrtp_recv(&p->ch, h, payload, deadline_ms))
		return -1;
	if (h->type != XRTP_REPLY) {
		free(*payload);
		*payload = NULL;
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static void drain(aieth_xrt_proc *p)
{
	char tmp[4096];
	ssize_t k;
	if (p->ch.side_fd < 0)
		return;
	fcntl(p->ch.side_fd, F_SETFL, O_NONBLOCK);
	while ((k = read(p->ch.side_fd, tmp, sizeof tmp)) > 0)
		keep_output(p, tmp, (size_t)k);
}

int aieth__xrt_proc_reap(aieth_xrt_proc *p, int ms)
{
	int64_t end = aieth__xrtp_now_ms() + ms;
	if (!p->pid)
		return 1;
	while (!p->reaped) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);
		if (r == p->pid || (r < 0 && errno == ECHILD)) {
			p->reaped = 1;
			break;
		}
		if (aieth__xrtp_now_ms() >= end)
			return 0;
		{
			struct timespec ts = {0, 5000000L};
			nanosleep(&ts, NULL);
		}
	}
	drain(p);
	if (p->ch.fd >= 0)
		close(p->ch.fd);
	if (p->ch.side_fd >= 0)
		close(p->ch.side_fd);
	p->ch.fd = p->ch.side_fd = -1;
	return 1;
}

void aieth__xrt_proc_kill(aieth_xrt_proc *p, int grace_ms)
{
	if (!p->pid || p->reaped)
		return;
	if (p->ch.fd >= 0) {
		close(p->ch.fd); /* a child blocked on the socket ends at once */
		p->ch.fd = -1;
	}
	kill(p->pid, SIGTERM);
	if (!aieth__xrt_proc_reap(p, grace_ms)) {
		kill(p->pid, SIGKILL);
		aieth__xrt_proc_reap(p, 60000);
	}
}

void aieth__xrt_proc_describe(aieth_xrt_proc *p, char *buf, size_t size)
{
	size_t n;
	if (p->reaped && WIFSIGNALED(p->status))
		n = (size_t)snprintf(buf, size, "the XRT process was killed by signal %d (%s)",
				     WTERMSIG(p->status), strsignal(WTERMSIG(p->status)));
	else if (p->reaped && WIFEXITED(p->status))
		n = (size_t)snprintf(buf, size, "the XRT process exited with status %d",
				     WEXITSTATUS(p->status));
	else
		n = (size_t)snprintf(buf, size, "the XRT process stopped answering");
	if (n >= size)
		return;
	aieth__xrt_proc_said(p, buf + n, size - n);
}

/* Is this line worth repeating: an error, a warning, an abort? (XRT's
 * 9-line banner before its first message is not.) */
static int telling(const char *l, size_t len)
{
	static const char *const keys[] = {
		"ERROR", "WARNING", "what():", "terminate", "rror:", NULL};
	size_t i, k;
	for (i = 0; keys[i]; i++) {
		size_t kl = strlen(keys[i]);
		for (k = 0; k + kl <= len; k++)
			if (!memcmp(l + k, keys[i], kl))
				return 1;
	}
	return 0;
}

void aieth__xrt_proc_said(const aieth_xrt_proc *p, char *buf, size_t size)
{
	const char *l = p->out, *e;
	size_t n = 0;
	if (!size)
		return;
	buf[0] = '\0';
	for (; *l; l = *e ? e + 1 : e) {
		size_t len;
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		len = (size_t)(e - l);
		if (!len || !telling(l, len))
			continue;
		if (n + 3 + len >= size)
			n = 0; /* keep the last lines that fit */
		n += (size_t)snprintf(buf + n, size - n, "%s%.*s",
				      n ? " | " : "; XRT printed: ", (int)len, l);
	}
}
