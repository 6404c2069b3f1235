/* SPDX-License-Identifier: MIT */
/*
 * srv_reset.c - th_server's device reset command (--reset-cmd, e.g.
 * "xrt-smi reset --force" on a board): run with /bin/sh -c after a session
 * that expired or failed, before the next session gets the device. Bounded
 * by a timeout; never run with the server's lock held (srv_core.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "th_server/srv_core.h"

extern char **environ;

int aieth__srv_reset_run(const char *cmd, uint32_t timeout_s, char *msg, size_t cap)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	char *argv[4];
	pid_t pid;
	int rc, status = 0, i;
	const int polls = (int)(timeout_s ? timeout_s : 1) * 50; /* 20 ms apart */

	argv[0] = (char *)"sh";
	argv[1] = (char *)"-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	/* its own process group: a timeout kills whatever it started too */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc) {
		snprintf(msg, cap, "could not start /bin/sh (%s)", strerror(rc));
		return -1;
	}
	for (i = 0; i < polls; i++) {
		struct timespec ts = {0, 20 * 1000000L};
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(msg, cap, "lost its process (%s)", strerror(errno));
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	if (i == polls) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(msg, cap, "killed after the reset timeout of %u s", timeout_s);
		return -1;
	}
	if (WIFEXITED(status)) {
		snprintf(msg, cap, "exited %d", WEXITSTATUS(status));
		return WEXITSTATUS(status) ? -1 : 0;
	}
	snprintf(msg, cap, "ended by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return -1;
}
