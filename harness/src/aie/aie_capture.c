/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_capture.c - the array's state read in a process of its own. The
 * driver's status files take the partition's mutex in the kernel: while a
 * hung XRT call holds it, read() blocks whatever O_NONBLOCK says. So the
 * files are read by a forked child that hands the state back over a pipe;
 * past the deadline the child is killed (SIGKILL ends a wait on that
 * mutex) and the state says so. A status read never hangs the tool.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aie/aie_state.h"
#include "aieth/error.h"
#include "util/fileio.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int aieth__aie_state_capture(aie_state *s, int deadline_ms)
{
	int fds[2];
	pid_t pid;
	size_t got = 0;
	long long end;
	char graph[sizeof s->graph];
	int status;

	memcpy(graph, s->graph, sizeof graph);
	if (deadline_ms < 1)
		deadline_ms = 1;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		aieth__aie_state_note(s, "the array's state was not read: pipe: %s",
				      strerror(errno));
		return 0;
	}
	pid = fork();
	if (pid < 0) {
		aieth__aie_state_note(s, "the array's state was not read: fork: %s",
				      strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		const char *p = (const char *)s;
		size_t n = sizeof *s, off = 0;
		close(fds[0]);
		/* the child keeps a margin for handing the state back */
		aieth__aie_state_read_sysfs(s, deadline_ms > 50 ? deadline_ms - 25 : deadline_ms);
		while (off < n) {
			ssize_t w = write(fds[1], p + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	end = now_ms() + deadline_ms + 250; /* the child's own deadline comes first */
	{
		char *p = (char *)s;
		while (got < sizeof *s) {
			struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
			long long left = end - now_ms();
			ssize_t r;
			if (left <= 0 || poll(&pfd, 1, (int)left) == 0)
				break;
			r = read(fds[0], p + got, sizeof *s - got);
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
	}
	close(fds[0]);
	kill(pid, SIGKILL); /* gone already, or stuck in the driver */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof *s) {
		/* a part-copied state is not used: start again, with the note */
		char source[sizeof s->source];
		memcpy(source, s->source, sizeof source);
		aieth__aie_state_init(s, source);
		memcpy(s->graph, graph, sizeof graph);
		aieth__aie_state_note(
			s,
			"the AI Engine driver's files did not answer within %d ms (a read "
			"blocked in the driver): the array's state was not read",
			deadline_ms);
		return 0;
	}
	/* the counts came from another process: keep them in bounds */
	if (s->ntiles < 0 || s->ntiles > AIE_MAX_TILES)
		s->ntiles = 0;
	if (s->nnotes < 0 || s->nnotes > AIE_MAX_NOTES)
		s->nnotes = 0;
	if (s->nports < 0 || s->nports > AIE_MAX_PORTS)
		s->nports = 0;
	return s->ntiles;
}

int aieth__aie_state_write(const aie_state *s, const char *dir, const char *name)
{
	json_object *j = aieth__aie_state_json(s);
	const char *txt;
	int rc;
	if (!j)
		return AIETH_ENOMEM;
	/* the artifacts folder (OUT/artifacts) may not exist before a hang */
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		json_object_put(j);
		return AIETH_EIO;
	}
	txt = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = txt ? aieth__write_atomic_below(dir, name, txt, strlen(txt)) : AIETH_ENOMEM;
	json_object_put(j);
	return rc;
}
