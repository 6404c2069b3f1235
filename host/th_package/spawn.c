/* SPDX-License-Identifier: MIT */
/*
 * spawn.c - bootgen in a process group of its own (spawn.h).
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "th_package/spawn.h"

extern char **environ;

double aieth__pkg_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int aieth__pkg_spawn(pid_t *pid, const char *tool, char *const argv[],
		     const posix_spawn_file_actions_t *fa)
{
	posix_spawnattr_t sa;
	sigset_t defs;
	int e;
	posix_spawnattr_init(&sa);
	sigemptyset(&defs);
	sigaddset(&defs, SIGINT);
	sigaddset(&defs, SIGTERM);
	sigaddset(&defs, SIGHUP);
	sigaddset(&defs, SIGPIPE);
	posix_spawnattr_setsigdefault(&sa, &defs);
	posix_spawnattr_setpgroup(&sa, 0);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	e = posix_spawnp(pid, tool, fa, &sa, argv, environ);
	posix_spawnattr_destroy(&sa);
	return e;
}

void aieth__pkg_kill_group(pid_t pid)
{
	int st;
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}
