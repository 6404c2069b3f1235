/* SPDX-License-Identifier: MIT */
/*
 * util/sysfs.c - bounded, non-blocking reads of kernel status files
 * (util/sysfs.h).
 */
#define _GNU_SOURCE
#include "util/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"

/* Entries of one folder held for sorting: a bound on memory whatever max
 * says (a sysfs folder of tiles holds a few hundred). */
#define SYSFS_LIST_HARD_MAX 65536u

const char *aieth__sysfs_root(void)
{
	const char *r = getenv("AIETH_SYSFS_ROOT");
	return (r && *r) ? r : "/sys";
}

/* root/rel into out; rel must be relative and free of ".." components. */
static int build_path(const char *rel, char *out, size_t cap)
{
	const char *p;
	if (!rel || !*rel || rel[0] == '/')
		return aieth__fail(AIETH_EINVAL, "sysfs: path '%s' must be relative to %s",
				   rel ? rel : "(null)", aieth__sysfs_root());
	for (p = rel; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return aieth__fail(AIETH_EINVAL, "sysfs: path '%s' has a '..' component",
					   rel);
		p += n;
		while (*p == '/')
			p++;
	}
	if ((size_t)snprintf(out, cap, "%s/%s", aieth__sysfs_root(), rel) >= cap)
		return aieth__fail(AIETH_EINVAL, "sysfs: path '%s/%s' is longer than %zu bytes",
				   aieth__sysfs_root(), rel, cap - 1);
	return AIETH_OK;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int aieth__sysfs_read(const char *rel, char *buf, size_t cap, size_t *len, int *truncated,
		      int deadline_ms)
{
	char path[PATH_MAX];
	struct stat st;
	size_t got = 0;
	int fd, rc, is_fifo;
	long long end;

	if (len)
		*len = 0;
	if (truncated)
		*truncated = 0;
	if (!buf || cap == 0)
		return aieth__fail(AIETH_EINVAL, "sysfs: no buffer to read '%s' into",
				   rel ? rel : "(null)");
	buf[0] = '\0';
	if ((rc = build_path(rel, path, sizeof path)) != AIETH_OK)
		return rc;
	if (deadline_ms < 0)
		deadline_ms = 0;
	end = now_ms() + deadline_ms;
	/* O_NONBLOCK: opening a FIFO with no writer must not wait for one. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		return aieth__fail(e == ENOENT || e == ENOTDIR ? AIETH_ENOTFOUND : AIETH_EIO,
				   "sysfs: %s: %s", path, strerror(e));
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return aieth__fail(AIETH_EIO, "sysfs: %s: %s", path, strerror(e));
	}
	is_fifo = S_ISFIFO(st.st_mode);
	if (!S_ISREG(st.st_mode) && !is_fifo) {
		close(fd);
		return aieth__fail(AIETH_EINVAL, "sysfs: %s is %s, not a status file", path,
				   S_ISDIR(st.st_mode) ? "a folder" : "a device or socket");
	}
	for (;;) {
		ssize_t n;
		char spill;
		if (got < cap - 1)
			n = read(fd, buf + got, cap - 1 - got);
		else
			n = read(fd, &spill, 1); /* is there more than fits? */
		if (n > 0) {
			if (got >= cap - 1) {
				if (truncated)
					*truncated = 1;
				break;
			}
			got += (size_t)n;
			continue;
		}
		if (n == 0) {
			/* A FIFO with no writer yet reads as end of file at
			 * once: wait (bounded) for a writer's data; a writer
			 * that came and went (POLLHUP alone) is the end. */
			if (is_fifo && got == 0) {
				struct pollfd pfd = {.fd = fd, .events = POLLIN};
				long long left = end - now_ms();
				int pr = left > 0 ? poll(&pfd, 1, (int)left) : 0;
				if (pr < 0 && errno == EINTR)
					continue;
				if (pr <= 0) {
					close(fd);
					return aieth__fail(AIETH_ETIMEOUT,
							   "sysfs: %s: a FIFO with nothing to "
							   "read within %d ms",
							   path, deadline_ms);
				}
				if (pfd.revents & POLLIN)
					continue;
			}
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = {.fd = fd, .events = POLLIN};
			long long left = end - now_ms();
			if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
				close(fd);
				buf[got] = '\0';
				return aieth__fail(AIETH_ETIMEOUT,
						   "sysfs: %s: nothing more to read after %d ms "
						   "(%zu bytes read)",
						   path, deadline_ms, got);
			}
			continue;
		}
		{
			int e = errno;
			close(fd);
			buf[got] = '\0';
			return aieth__fail(AIETH_EIO, "sysfs: %s: %s", path, strerror(e));
		}
	}
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return AIETH_OK;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int aieth__sysfs_list(const char *rel, void (*each)(void *ctx, const char *name), void *ctx,
		      size_t max)
{
	char path[PATH_MAX];
	char **names = NULL;
	size_t n = 0, room = 0, i, limit;
	struct dirent *de;
	DIR *d;
	int fd, rc;

	if (!each)
		return aieth__fail(AIETH_EINVAL, "sysfs: no callback to list '%s'",
				   rel ? rel : "(null)");
	if (rel && (!*rel || strcmp(rel, ".") == 0)) {
		if ((size_t)snprintf(path, sizeof path, "%s", aieth__sysfs_root()) >= sizeof path)
			return aieth__fail(AIETH_EINVAL, "sysfs: root is too long");
	} else if ((rc = build_path(rel, path, sizeof path)) != AIETH_OK) {
		return rc;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return aieth__fail(e == ENOENT    ? AIETH_ENOTFOUND
				   : e == ENOTDIR ? AIETH_EINVAL
						  : AIETH_EIO,
				   "sysfs: %s: %s", path,
				   e == ENOTDIR ? "not a folder" : strerror(e));
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return aieth__fail(AIETH_EIO, "sysfs: %s: %s", path, strerror(e));
	}
	/* Read every name (up to the hard bound) before sorting so that the
	 * first max in name order are reported, not the first max on disk. */
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == SYSFS_LIST_HARD_MAX)
			break;
		if (n == room) {
			size_t nr = room ? room * 2 : 64;
			char **nn = realloc(names, nr * sizeof *nn);
			if (!nn)
				goto nomem;
			names = nn;
			room = nr;
		}
		if (!(names[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	limit = n < max ? n : max;
	for (i = 0; i < limit; i++)
		each(ctx, names[i]);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return (int)limit;
nomem:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return aieth__fail(AIETH_ENOMEM, "sysfs: %s: out of memory listing it", path);
}
