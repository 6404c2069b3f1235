/* SPDX-License-Identifier: MIT */
/*
 * bootgen_arch.c - the architectures a bootgen supports. AMD's bootgen
 * prints them as the ARGUMENTS rows of `bootgen -help arch` (its
 * common/include/help.h, ARCHHELP): Debian's 2022.2 lists zynq, zynqmp,
 * versal and fpga; current AMD bootgen adds versal_2ve_2vm (Versal AI Edge
 * and Prime Gen 2) and spartanup. Reading the table rather than a version
 * number also works for builds from git.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/bootgen_arch.h"
#include "th_package/spawn.h"
#include "util/error.h"

static int ba_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* One row "... | [*]name : text |": the name, or 0 when the row has none. */
static size_t ba_row_name(const char *line, size_t n, const char **name)
{
	const char *bar = memchr(line, '|', n), *e = line + n, *s, *t;
	if (!bar)
		return 0;
	for (s = bar + 1; s < e && (*s == ' ' || *s == '*'); s++)
		;
	for (t = s; t < e && ba_name_char(*t); t++)
		;
	if (t == s)
		return 0;
	*name = s;
	n = (size_t)(t - s);
	while (t < e && *t == ' ')
		t++;
	return t < e && *t == ':' ? n : 0;
}

size_t aieth__bootgen_arch_parse(const char *text, size_t len, char *list, size_t cap)
{
	const char *p = text, *e = text + len, *nl, *name;
	size_t found = 0, used = 0, n;
	int in_args = 0, full = 0;
	list[0] = '\0';
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		n = (size_t)(nl - p);
		if (n >= 10 && !strncmp(p, " ARGUMENTS", 10))
			in_args = 1;
		else if (in_args && n && p[0] == '-')
			in_args = 0; /* the table's next separator ends the rows */
		if (in_args && !full && (n = ba_row_name(p, n, &name))) {
			/* a list that is full stops at a whole name */
			if (used + (used ? 1 : 0) + n + 1 > cap) {
				full = 1;
			} else {
				if (used)
					list[used++] = ',';
				memcpy(list + used, name, n);
				used += n;
				list[used] = '\0';
				found++;
			}
		}
		if (nl == e)
			break;
	}
	return found;
}

int aieth__bootgen_arch_listed(const char *list, const char *arch)
{
	size_t n = strlen(arch);
	const char *p = list;
	if (!n)
		return 0;
	while ((p = strstr(p, arch))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

int aieth__bootgen_arch_query(const char *tool, double timeout_s, char *list, size_t cap)
{
	char *argv[] = {(char *)tool, "-help", "arch", NULL};
	posix_spawn_file_actions_t fa;
	char *buf;
	size_t got = 0;
	int fds[2], e, st = 0, rc = AIETH_OK, open_end = 1;
	pid_t pid;
	double t0 = aieth__pkg_now_s();

	list[0] = '\0';
	buf = malloc(AIETH_BOOTGEN_HELP_MAX);
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (pipe(fds) != 0) {
		free(buf);
		return aieth__fail(AIETH_EIO, "pipe: %s", strerror(errno));
	}
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	/* a group of its own, so a time limit kills whatever it started */
	e = aieth__pkg_spawn(&pid, tool, argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (e) {
		close(fds[0]);
		free(buf);
		return aieth__fail(AIETH_EUNSUPPORTED, "cannot run %s: %s", tool, strerror(e));
	}
	while (open_end) {
		struct pollfd pf = {fds[0], POLLIN, 0};
		double left = timeout_s - (aieth__pkg_now_s() - t0);
		ssize_t r;
		char sink[4096];
		if (left <= 0) {
			rc = aieth__fail(AIETH_ETIMEOUT,
					 "%s -help arch still running after %g s: "
					 "killed it",
					 tool, timeout_s);
			break;
		}
		if (poll(&pf, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR) {
			rc = aieth__fail(AIETH_EIO, "%s -help arch: poll: %s", tool,
					 strerror(errno));
			break;
		}
		if (!pf.revents)
			continue;
		/* past the limit the rest is read and dropped: no short table */
		if (got < AIETH_BOOTGEN_HELP_MAX)
			r = read(fds[0], buf + got, AIETH_BOOTGEN_HELP_MAX - got);
		else
			r = read(fds[0], sink, sizeof sink);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			open_end = 0;
		else if (got < AIETH_BOOTGEN_HELP_MAX)
			got += (size_t)r;
	}
	close(fds[0]);
	/* it closed its output; it still has until the limit to exit */
	while (!rc) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w != 0 && !(w < 0 && errno == EINTR))
			break;
		struct timespec nap = {0, 5 * 1000 * 1000};
		if (aieth__pkg_now_s() - t0 >= timeout_s)
			rc = aieth__fail(AIETH_ETIMEOUT,
					 "%s -help arch still running after %g s: "
					 "killed it",
					 tool, timeout_s);
		else
			nanosleep(&nap, NULL);
	}
	if (rc)
		aieth__pkg_kill_group(pid);
	/* posix_spawnp can succeed for a program that is not there (under
	 * qemu-user, or a spawn without an exec error pipe): the child then
	 * exits 127, as a shell's "not found" */
	if (!rc && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		rc = aieth__fail(AIETH_EUNSUPPORTED, "cannot run %s (exit 127: not found)", tool);
	if (!rc)
		aieth__bootgen_arch_parse(buf, got, list, cap);
	free(buf);
	return rc;
}
