/* SPDX-License-Identifier: MIT */
/*
 * srv_xclbin.c - th_server's design xclbin cache: files named by their
 * sha256 in one folder, uploaded once (streamed to a temporary file while
 * hashed, renamed when right), bounded in total size; the least recently
 * used entries go first, never one a session uses (pinned).
 *
 * Threads: the entry list and the counters are under srv->mu; an upload
 * writes its own temporary file without it and takes it to commit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/srv_core.h"
#include "util/fileio.h"
#include "util/path.h"

#define TMP_PREFIX ".up-"

static char *entry_path(aieth_server *s, const char *sha)
{
	return aieth_path_join(s->cache_dir, sha);
}

static void drop_entry_locked(aieth_server *s, srv_xentry **pp)
{
	srv_xentry *e = *pp;
	char *p = entry_path(s, e->sha);
	if (p)
		unlink(p);
	free(p);
	*pp = e->next;
	s->cache_used -= e->size;
	free(e);
}

/* Evict unpinned entries, oldest use first, until need more bytes fit
 * (the caller logs how many went: *evicted). */
static int make_room_locked(aieth_server *s, uint64_t need, unsigned *evicted)
{
	while (s->cache_used + need > s->cache_max) {
		srv_xentry **pp, **old = NULL;
		for (pp = &s->xclbins; *pp; pp = &(*pp)->next)
			if (!(*pp)->pins && (!old || (*pp)->used < (*old)->used))
				old = pp;
		if (!old)
			return -1;
		drop_entry_locked(s, old);
		s->xclbin_evictions++;
		(*evicted)++;
	}
	return 0;
}

static srv_xentry *add_entry_locked(aieth_server *s, const char *sha, uint64_t size)
{
	srv_xentry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	memcpy(e->sha, sha, 65);
	e->size = size;
	e->used = ++s->cache_clock;
	e->next = s->xclbins;
	s->xclbins = e;
	s->cache_used += size;
	return e;
}

/* What an earlier run left: entries (oldest mtime first in use order) and
 * broken uploads' temporaries (removed). */
static int scan(aieth_server *s)
{
	DIR *d = opendir(s->cache_dir);
	struct dirent *de;
	struct stat st;
	if (!d)
		return aieth_fail(AIETH_EIO, "xclbin cache %s: %s", s->cache_dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX))) {
			unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (!srv_sha256_text_ok(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (!add_entry_locked(s, de->d_name, (uint64_t)st.st_size)) {
			closedir(d);
			return aieth_fail(AIETH_ENOMEM, "xclbin cache: out of memory");
		}
		/* older files count as used longer ago */
		s->xclbins->used = (uint64_t)st.st_mtime;
		if (s->cache_clock < (uint64_t)st.st_mtime)
			s->cache_clock = (uint64_t)st.st_mtime;
	}
	closedir(d);
	{
		unsigned n = 0;
		make_room_locked(s, 0, &n);
	}
	return AIETH_OK;
}

int srv_xclbin_init(aieth_server *s, const char *dir)
{
	struct stat st;
	s->cache_dir = dir ? aieth_strdup(dir) : aieth_path_join(s->work_dir, "xclbins");
	if (!s->cache_dir)
		return aieth_fail(AIETH_ENOMEM, "server: out of memory");
	s->own_cache_dir = !dir && s->own_work_dir;
	if (mkdir(s->cache_dir, 0700) && errno != EEXIST)
		return aieth_fail(AIETH_EIO, "xclbin cache %s: cannot create the folder (%s)",
				  s->cache_dir, strerror(errno));
	if (stat(s->cache_dir, &st) || !S_ISDIR(st.st_mode))
		return aieth_fail(AIETH_EINVAL, "xclbin cache %s: not a folder", s->cache_dir);
	return scan(s);
}

void srv_xclbin_fini(aieth_server *s)
{
	while (s->xclbins) {
		if (s->own_cache_dir) {
			drop_entry_locked(s, &s->xclbins);
		} else {
			srv_xentry *e = s->xclbins;
			s->xclbins = e->next;
			free(e);
		}
	}
	if (s->cache_dir && s->own_cache_dir)
		rmdir(s->cache_dir);
	free(s->cache_dir);
	s->cache_dir = NULL;
}

srv_xentry *srv_xclbin_find_locked(aieth_server *s, const char *sha)
{
	srv_xentry *e;
	for (e = s->xclbins; e; e = e->next)
		if (!strcmp(e->sha, sha)) {
			e->used = ++s->cache_clock;
			return e;
		}
	return NULL;
}

int srv_xclbin_pin_locked(aieth_server *s, srv_sess *x)
{
	srv_xentry *e = srv_xclbin_find_locked(s, x->xsha);
	char *p;
	if (!e)
		return aieth_fail(AIETH_ENOTFOUND, "xclbin_sha256 %s: not in the server's cache: "
				  "upload it first (PUT /v1/xclbins/%s)", x->xsha, x->xsha);
	if (!(p = entry_path(s, e->sha)))
		return aieth_fail(AIETH_ENOMEM, "server: out of memory");
	free(x->xclbin);
	x->xclbin = p;
	e->pins++;
	x->xpinned = 1;
	return AIETH_OK;
}

void srv_xclbin_unpin_locked(aieth_server *s, srv_sess *x)
{
	srv_xentry *e;
	if (!x->xpinned)
		return;
	x->xpinned = 0;
	for (e = s->xclbins; e; e = e->next)
		if (!strcmp(e->sha, x->xsha) && e->pins) {
			e->pins--;
			return;
		}
}

srv_x_result srv_xclbin_begin(aieth_server *s, const char *sha, uint64_t len, srv_xupload *u,
			      char *msg, size_t cap)
{
	memset(u, 0, sizeof *u);
	u->fd = -1;
	if (len > s->xclbin_max || len > s->cache_max) {
		int cache = s->cache_max < s->xclbin_max;
		snprintf(msg, cap, "xclbin upload: Content-Length %llu bytes, the limit is %s %llu "
			 "MiB", (unsigned long long)len, cache ? "--xclbin-cache-mib" : "--max-xclbin",
			 (unsigned long long)((cache ? s->cache_max : s->xclbin_max) >> 20));
		return SRV_X_TOO_LARGE;
	}
	u->tmp = aieth_path_join(s->cache_dir, TMP_PREFIX "XXXXXX");
	if (!u->tmp) {
		snprintf(msg, cap, "xclbin upload: out of memory");
		return SRV_X_IO;
	}
	u->fd = mkstemp(u->tmp);
	if (u->fd < 0) {
		snprintf(msg, cap, "xclbin upload: cannot create a file in %s (%s)", s->cache_dir,
			 strerror(errno));
		free(u->tmp);
		u->tmp = NULL;
		return SRV_X_IO;
	}
	memcpy(u->sha, sha, 65);
	u->want = len;
	aieth_sha256_init(&u->h);
	return SRV_X_OK;
}

int srv_xclbin_write(srv_xupload *u, const void *data, size_t n)
{
	if (n > u->want - u->got)
		return -1;
	u->got += n;
	if (u->err)
		return 0;     /* keep reading to the end: the reply names the error */
	aieth_sha256_update(&u->h, data, n);
	if (aieth_write_full(u->fd, data, n, "xclbin upload")) {
		u->err = 1;
		snprintf(u->errmsg, sizeof u->errmsg, "%s", aieth_error_message());
	}
	return 0;
}

void srv_xclbin_abort(srv_xupload *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
	if (u->tmp)
		unlink(u->tmp);
	free(u->tmp);
	u->tmp = NULL;
}

srv_x_result srv_xclbin_commit(aieth_server *s, srv_xupload *u, int *created, char *msg,
			       size_t cap)
{
	uint8_t d[32];
	char got[65], *dst;
	srv_x_result res = SRV_X_OK;

	*created = 0;
	if (u->got != u->want) {
		snprintf(msg, cap, "xclbin upload: the body ended after %llu of %llu bytes",
			 (unsigned long long)u->got, (unsigned long long)u->want);
		srv_xclbin_abort(u);
		return SRV_X_BAD;
	}
	if (u->err) {
		snprintf(msg, cap, "%s", u->errmsg);
		srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	aieth_sha256_final(&u->h, d);
	aieth_sha256_hex(d, got);
	if (strcmp(got, u->sha)) {
		snprintf(msg, cap, "xclbin upload: the body's sha256 is %s, the path says %s",
			 got, u->sha);
		srv_xclbin_abort(u);
		return SRV_X_BAD;
	}
	/* on disk before it is named: a crash leaves a temporary, never a
	 * short file under a good name */
	if (fsync(u->fd) || close(u->fd)) {
		u->fd = -1;
		snprintf(msg, cap, "xclbin upload: cannot write %s (%s)", u->tmp, strerror(errno));
		srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	u->fd = -1;
	if (!(dst = entry_path(s, u->sha))) {
		snprintf(msg, cap, "xclbin upload: out of memory");
		srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	pthread_mutex_lock(&s->mu);
	if (srv_xclbin_find_locked(s, u->sha)) {
		/* the same file came twice at once: one copy is enough */
		srv_xclbin_abort(u);
	} else if (make_room_locked(s, u->want, &u->evicted)) {
		snprintf(msg, cap, "xclbin upload: %llu bytes do not fit: the cache holds %llu of "
			 "--xclbin-cache-mib %llu MiB in designs that sessions use",
			 (unsigned long long)u->want, (unsigned long long)s->cache_used,
			 (unsigned long long)(s->cache_max >> 20));
		srv_xclbin_abort(u);
		res = SRV_X_NO_ROOM;
	} else if (rename(u->tmp, dst)) {
		snprintf(msg, cap, "xclbin upload: cannot rename into %s (%s)", dst, strerror(errno));
		srv_xclbin_abort(u);
		res = SRV_X_IO;
	} else if (!add_entry_locked(s, u->sha, u->want)) {
		unlink(dst);
		snprintf(msg, cap, "xclbin upload: out of memory");
		srv_xclbin_abort(u);
		res = SRV_X_IO;
	} else {
		*created = 1;
		s->xclbin_uploads++;
		free(u->tmp);
		u->tmp = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(dst);
	return res;
}

/* ---- room for files outside the cache ---- */

int srv_xclbin_reserve(aieth_server *s, uint64_t n, unsigned *evicted, char *msg, size_t cap)
{
	int rc = 0;
	*evicted = 0;
	pthread_mutex_lock(&s->mu);
	if (n > s->cache_max || make_room_locked(s, n, evicted)) {
		snprintf(msg, cap, "%llu bytes do not fit: the design cache holds %llu of "
			 "--xclbin-cache-mib %llu MiB in designs and files that sessions use",
			 (unsigned long long)n, (unsigned long long)s->cache_used,
			 (unsigned long long)(s->cache_max >> 20));
		rc = -1;
	} else {
		s->cache_used += n;
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

void srv_xclbin_unreserve(aieth_server *s, uint64_t n)
{
	pthread_mutex_lock(&s->mu);
	s->cache_used -= n < s->cache_used ? n : s->cache_used;
	pthread_mutex_unlock(&s->mu);
}
