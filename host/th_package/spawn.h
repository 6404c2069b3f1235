/* SPDX-License-Identifier: MIT */
/*
 * spawn.h - running bootgen (pdi.c: the PDI; bootgen_arch.c: its -help
 * arch table) in a process group of its own, so that a time limit or an
 * interruption kills bootgen and whatever it started. Not installed.
 */
#ifndef AIETH_PACKAGE_SPAWN_H
#define AIETH_PACKAGE_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

/* Seconds on the monotonic clock (time limits, durations). */
double aieth__pkg_now_s(void);

/* posix_spawnp(tool, argv) with fa, in a new process group, with SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE at their defaults (the caller may catch or
 * ignore them). Returns 0 or the errno of the spawn. */
int aieth__pkg_spawn(pid_t *pid, const char *tool, char *const argv[],
		     const posix_spawn_file_actions_t *fa);

/* Kill pid's process group and reap pid. */
void aieth__pkg_kill_group(pid_t pid);

#endif
