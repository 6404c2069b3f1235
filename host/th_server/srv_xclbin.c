/* SPDX-License-Identifier: MIT */
/*
 * srv_xclbin.c - th_server's design xclbin cache: files named by their
 * sha256 in one folder, uploaded once (streamed to a temporary file while
 * hashed, renamed when right), bounded in total size; the least recently
 * used entries go first, never one a session uses (pinned). Uploads in
 * progress reserve their length: what is on disk stays within the limit.
 *
 * Designs are per owner (a token's name; one anonymous namespace without
 * tokens): a file is stored once, and the names that uploaded it are
 * listed in the index file OWNERS beside it ("SHA NAME" lines); another
 * owner's design looks exactly like a missing one.
 *
 * Threads: the entry list and the counters are under srv->mu; an upload
 * writes its own temporary file without it and takes it to commit; the
 * index is written outside mu, under xidx_mu, newest text last.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_server/srv_core.h"
#include "util/fileio.h"
#include "util/path.h"

#define TMP_PREFIX ".up-"
#define OWNERS "owners.txt"
#define OWNERS_MAX ((size_t)8 << 20) /* the index read at start */
#define ANON "*"                     /* no tokens: not a token name */

/* A name as the index may hold it: a token name or the anonymous one. */
static int owner_ok(const char *n)
{
	size_t i, len = strlen(n);
	if (!strcmp(n, ANON))
		return 1;
	if (!len || len > SRV_TOKEN_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if (!aieth__name_char((unsigned char)n[i]))
			return 0;
	return 1;
}

const char *aieth__srv_xclbin_owner(const aieth__server *s, const char *who)
{
	return s->have_tokens && who && *who ? who : ANON;
}

static char *entry_path(aieth__server *s, const char *sha)
{
	return aieth__path_join(s->cache.dir, sha);
}

static void free_entry(srv_xentry *e)
{
	unsigned i;
	for (i = 0; i < e->nowners; i++)
		free(e->owners[i]);
	free(e->owners);
	free(e);
}

static int owned_by(const srv_xentry *e, const char *owner)
{
	unsigned i;
	for (i = 0; i < e->nowners; i++)
		if (!strcmp(e->owners[i], owner))
			return 1;
	return 0;
}

static int add_owner(srv_xentry *e, const char *owner)
{
	char **v, *n;
	if (owned_by(e, owner))
		return 0;
	if (!(n = aieth__strdup(owner)))
		return -1;
	if (!(v = realloc(e->owners, (e->nowners + 1) * sizeof *v))) {
		free(n);
		return -1;
	}
	e->owners = v;
	e->owners[e->nowners++] = n;
	return 0;
}

static void drop_entry_locked(aieth__server *s, srv_xentry **pp)
{
	srv_xentry *e = *pp;
	char *p = entry_path(s, e->sha);
	if (p)
		unlink(p);
	free(p);
	*pp = e->next;
	s->cache.used -= e->size;
	s->cache.count--;
	free_entry(e);
}

/* Evict unpinned entries, oldest use first, until need more bytes (and
 * one more entry when adding) fit beside the uploads in progress (the
 * caller logs how many went: *evicted). */
static int make_room_locked(aieth__server *s, uint64_t need, int adding, unsigned *evicted)
{
	while (s->cache.used + s->cache.reserved + need > s->cache.max ||
	       s->cache.count + (adding ? 1u : 0u) > SRV_XCLBIN_ENTRIES_MAX) {
		srv_xentry **pp, **old = NULL;
		for (pp = &s->cache.xclbins; *pp; pp = &(*pp)->next)
			if (!(*pp)->pins && (!old || (*pp)->used < (*old)->used))
				old = pp;
		if (!old)
			return -1;
		drop_entry_locked(s, old);
		s->cache.evictions++;
		(*evicted)++;
	}
	return 0;
}

static srv_xentry *add_entry_locked(aieth__server *s, const char *sha, uint64_t size)
{
	srv_xentry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	memcpy(e->sha, sha, 65);
	e->size = size;
	e->used = ++s->cache.clock;
	e->next = s->cache.xclbins;
	s->cache.xclbins = e;
	s->cache.used += size;
	s->cache.count++;
	return e;
}

/* The owners of the entries found at start, from the index an earlier
 * run wrote; an entry it does not list (or a bad line) is nobody's, so
 * visible to no client, until its owner uploads it again. */
static void read_owners(aieth__server *s)
{
	char *path = aieth__path_join(s->cache.dir, OWNERS), *text = NULL, *line, *next;
	size_t len = 0;
	if (!path || aieth__read_file(path, OWNERS_MAX, &text, &len)) {
		aieth__error_clear();
		free(path);
		return;
	}
	free(path);
	for (line = text; line && *line; line = next) {
		char *sp, *nl = strchr(line, '\n');
		srv_xentry *e;
		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		if (!(sp = strchr(line, ' ')))
			continue;
		*sp = '\0';
		if (!aieth__srv_sha256_text_ok(line) || !owner_ok(sp + 1))
			continue;
		for (e = s->cache.xclbins; e && strcmp(e->sha, line); e = e->next)
			;
		if (e && add_owner(e, sp + 1))
			break;
	}
	free(text);
}

/* What an earlier run left: entries (oldest mtime first in use order) and
 * broken uploads' temporaries (removed). */
static int scan(aieth__server *s)
{
	DIR *d = opendir(s->cache.dir);
	struct dirent *de;
	struct stat st;
	if (!d)
		return aieth__fail(AIETH_EIO, "xclbin cache %s: %s", s->cache.dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX))) {
			unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (!aieth__srv_sha256_text_ok(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (!add_entry_locked(s, de->d_name, (uint64_t)st.st_size)) {
			closedir(d);
			return aieth__fail(AIETH_ENOMEM, "xclbin cache: out of memory");
		}
		/* older files count as used longer ago */
		s->cache.xclbins->used = (uint64_t)st.st_mtime;
		if (s->cache.clock < (uint64_t)st.st_mtime)
			s->cache.clock = (uint64_t)st.st_mtime;
	}
	closedir(d);
	read_owners(s);
	{
		unsigned n = 0;
		make_room_locked(s, 0, 0, &n);
	}
	return AIETH_OK;
}

int aieth__srv_xclbin_init(aieth__server *s, const char *dir)
{
	struct stat st;
	s->cache.dir = dir ? aieth__strdup(dir) : aieth__path_join(s->work_dir, "xclbins");
	if (!s->cache.dir)
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	s->cache.own_dir = !dir && s->own_work_dir;
	if (mkdir(s->cache.dir, 0700) && errno != EEXIST)
		return aieth__fail(AIETH_EIO, "xclbin cache %s: cannot create the folder (%s)",
				   s->cache.dir, strerror(errno));
	if (stat(s->cache.dir, &st) || !S_ISDIR(st.st_mode))
		return aieth__fail(AIETH_EINVAL, "xclbin cache %s: not a folder", s->cache.dir);
	return scan(s);
}

void aieth__srv_xclbin_fini(aieth__server *s)
{
	while (s->cache.xclbins) {
		if (s->cache.own_dir) {
			drop_entry_locked(s, &s->cache.xclbins);
		} else {
			srv_xentry *e = s->cache.xclbins;
			s->cache.xclbins = e->next;
			free_entry(e);
		}
	}
	if (s->cache.dir && s->cache.own_dir) {
		char *p = aieth__path_join(s->cache.dir, OWNERS);
		if (p)
			unlink(p);
		free(p);
		rmdir(s->cache.dir);
	}
	free(s->cache.dir);
	s->cache.dir = NULL;
}

srv_xentry *aieth__srv_xclbin_find_locked(aieth__server *s, const char *sha, const char *owner)
{
	srv_xentry *e;
	for (e = s->cache.xclbins; e; e = e->next)
		if (!strcmp(e->sha, sha)) {
			if (owner && !owned_by(e, owner))
				return NULL;
			e->used = ++s->cache.clock;
			return e;
		}
	return NULL;
}

int aieth__srv_xclbin_open(aieth__server *s, const char *sha, const char *owner)
{
	srv_xentry *e;
	char *path;
	int fd;
	pthread_mutex_lock(&s->mu);
	e = aieth__srv_xclbin_find_locked(s, sha, owner);
	path = e ? aieth__path_join(s->cache.dir, e->sha) : NULL;
	/* opened under the lock: an eviction after it leaves the open file
	 * readable */
	fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	pthread_mutex_unlock(&s->mu);
	free(path);
	return fd;
}

/* The index as it stands (mu held): malloc'ed text, its generation. */
static char *owners_text_locked(aieth__server *s, size_t *len, uint64_t *gen)
{
	const srv_xentry *e;
	size_t n = 0, k = 0;
	unsigned i;
	char *t;
	for (e = s->cache.xclbins; e; e = e->next)
		for (i = 0; i < e->nowners; i++)
			n += 66 + strlen(e->owners[i]);
	if (!(t = malloc(n + 1)))
		return NULL;
	for (e = s->cache.xclbins; e; e = e->next)
		for (i = 0; i < e->nowners; i++)
			k += (size_t)snprintf(t + k, n + 1 - k, "%s %s\n", e->sha, e->owners[i]);
	*len = k;
	*gen = ++s->cache.xidx_gen;
	return t;
}

/* Write the index text of generation gen, unless a newer one was written
 * meanwhile (mu not held: an fsync takes a while). */
static int owners_write(aieth__server *s, const char *text, size_t len, uint64_t gen)
{
	char *path = aieth__path_join(s->cache.dir, OWNERS);
	int rc = 0;
	if (!path)
		return -1;
	pthread_mutex_lock(&s->cache.xidx_mu);
	if (gen > s->cache.xidx_written) {
		rc = aieth__write_atomic(path, text, len);
		if (!rc)
			s->cache.xidx_written = gen;
	}
	pthread_mutex_unlock(&s->cache.xidx_mu);
	free(path);
	return rc;
}

int aieth__srv_xclbin_pin_locked(aieth__server *s, srv_sess *x)
{
	srv_xentry *e =
		aieth__srv_xclbin_find_locked(s, x->xsha, aieth__srv_xclbin_owner(s, x->owner));
	char *p;
	if (!e)
		return aieth__fail(AIETH_ENOTFOUND,
				   "xclbin_sha256 %s: not in the server's cache: "
				   "upload it first (PUT /v1/xclbins/%s)",
				   x->xsha, x->xsha);
	if (!(p = entry_path(s, e->sha)))
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	free(x->xclbin);
	x->xclbin = p;
	e->pins++;
	x->xpinned = 1;
	return AIETH_OK;
}

void aieth__srv_xclbin_unpin_locked(aieth__server *s, srv_sess *x)
{
	srv_xentry *e;
	if (!x->xpinned)
		return;
	x->xpinned = 0;
	for (e = s->cache.xclbins; e; e = e->next)
		if (!strcmp(e->sha, x->xsha) && e->pins) {
			e->pins--;
			return;
		}
}

srv_x_result aieth__srv_xclbin_begin(aieth__server *s, const char *sha, const char *owner,
				     uint64_t len, srv_xupload *u, char *msg, size_t cap)
{
	unsigned evicted = 0;
	srv_xentry *e;
	memset(u, 0, sizeof *u);
	u->fd = -1;
	u->s = s;
	if (len > s->cache.xclbin_max || len > s->cache.max) {
		int cache = s->cache.max < s->cache.xclbin_max;
		snprintf(msg, cap,
			 "xclbin upload: Content-Length %llu bytes, the limit is %s %llu "
			 "MiB",
			 (unsigned long long)len, cache ? "--xclbin-cache-mib" : "--max-xclbin",
			 (unsigned long long)((cache ? s->cache.max : s->cache.xclbin_max) >> 20));
		return SRV_X_TOO_LARGE;
	}
	memcpy(u->sha, sha, 65);
	snprintf(u->owner, sizeof u->owner, "%s", owner);
	u->want = len;
	aieth__sha256_init(&u->h);
	pthread_mutex_lock(&s->mu);
	if ((e = aieth__srv_xclbin_find_locked(s, sha, NULL))) {
		/* the file is here (maybe another owner's): the body is only
		 * hashed, to show the client has those bytes; the entry is
		 * pinned meanwhile so that it is still here at the end */
		e->pins++;
		u->pinned = 1;
		pthread_mutex_unlock(&s->mu);
		return SRV_X_OK;
	}
	/* the bytes are reserved before the first one arrives: a client that
	 * stalls holds its share of the limit, no more */
	if (make_room_locked(s, len, 0, &evicted)) {
		snprintf(
			msg, cap,
			"xclbin upload: %llu bytes do not fit: uploads in progress hold "
			"%llu bytes and designs that sessions use %llu bytes of --xclbin-cache-mib "
			"%llu MiB",
			(unsigned long long)len, (unsigned long long)s->cache.reserved,
			(unsigned long long)s->cache.used,
			(unsigned long long)(s->cache.max >> 20));
		pthread_mutex_unlock(&s->mu);
		return SRV_X_NO_ROOM;
	}
	s->cache.reserved += len;
	u->reserved = 1;
	pthread_mutex_unlock(&s->mu);
	u->evicted = evicted;
	u->tmp = aieth__path_join(s->cache.dir, TMP_PREFIX "XXXXXX");
	if (!u->tmp) {
		snprintf(msg, cap, "xclbin upload: out of memory");
		aieth__srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	u->fd = mkstemp(u->tmp);
	if (u->fd < 0) {
		snprintf(msg, cap, "xclbin upload: cannot create a file in %s (%s)", s->cache.dir,
			 strerror(errno));
		free(u->tmp);
		u->tmp = NULL;
		aieth__srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	return SRV_X_OK;
}

int aieth__srv_xclbin_write(srv_xupload *u, const void *data, size_t n)
{
	if (n > u->want - u->got)
		return -1;
	u->got += n;
	if (u->err)
		return 0; /* keep reading to the end: the reply names the error */
	aieth__sha256_update(&u->h, data, n);
	if (u->fd >= 0 && aieth__write_full(u->fd, data, n, "xclbin upload")) {
		u->err = 1;
		snprintf(u->errmsg, sizeof u->errmsg, "%s", aieth_error_message());
	}
	return 0;
}

/* The upload's reservation or pin goes back (mu held). */
static void unreserve_locked(srv_xupload *u)
{
	srv_xentry *e;
	if (u->reserved) {
		u->s->cache.reserved -= u->want;
		u->reserved = 0;
	}
	if (u->pinned) {
		u->pinned = 0;
		for (e = u->s->cache.xclbins; e; e = e->next)
			if (!strcmp(e->sha, u->sha) && e->pins) {
				e->pins--;
				break;
			}
	}
}

void aieth__srv_xclbin_abort(srv_xupload *u)
{
	if (u->reserved || u->pinned) {
		pthread_mutex_lock(&u->s->mu);
		unreserve_locked(u);
		pthread_mutex_unlock(&u->s->mu);
	}
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
	if (u->tmp)
		unlink(u->tmp);
	free(u->tmp);
	u->tmp = NULL;
}

srv_x_result aieth__srv_xclbin_commit(aieth__server *s, srv_xupload *u, int *created, char *msg,
				      size_t cap)
{
	uint8_t d[32];
	char got[65], *dst, *idx = NULL;
	size_t idx_len = 0;
	uint64_t gen = 0;
	srv_xentry *e;
	srv_x_result res = SRV_X_OK;

	*created = 0;
	if (u->got != u->want) {
		snprintf(msg, cap, "xclbin upload: the body ended after %llu of %llu bytes",
			 (unsigned long long)u->got, (unsigned long long)u->want);
		aieth__srv_xclbin_abort(u);
		return SRV_X_BAD;
	}
	if (u->err) {
		snprintf(msg, cap, "%s", u->errmsg);
		aieth__srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	aieth__sha256_final(&u->h, d);
	aieth__sha256_hex(d, got);
	if (strcmp(got, u->sha)) {
		snprintf(msg, cap, "xclbin upload: the body's sha256 is %s, the path says %s", got,
			 u->sha);
		aieth__srv_xclbin_abort(u);
		return SRV_X_BAD;
	}
	/* on disk before it is named: a crash leaves a temporary, never a
	 * short file under a good name */
	if (u->fd >= 0 && (fsync(u->fd) || close(u->fd))) {
		u->fd = -1;
		snprintf(msg, cap, "xclbin upload: cannot write %s (%s)", u->tmp, strerror(errno));
		aieth__srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	u->fd = -1;
	if (!(dst = entry_path(s, u->sha))) {
		snprintf(msg, cap, "xclbin upload: out of memory");
		aieth__srv_xclbin_abort(u);
		return SRV_X_IO;
	}
	pthread_mutex_lock(&s->mu);
	unreserve_locked(u); /* room was made at begin: it becomes the entry */
	if ((e = aieth__srv_xclbin_find_locked(s, u->sha, NULL))) { /* pinned till now */
		/* the same file came twice at once, or from another owner: one
		 * copy is enough, and the owner who sent it may use it */
		aieth__srv_xclbin_abort(u);
		if (!owned_by(e, u->owner)) {
			if (add_owner(e, u->owner)) {
				snprintf(msg, cap, "xclbin upload: out of memory");
				res = SRV_X_IO;
			} else {
				*created = 1;
				s->cache.uploads++;
				idx = owners_text_locked(s, &idx_len, &gen);
			}
		}
	} else if (make_room_locked(s, u->want, 1, &u->evicted)) {
		snprintf(msg, cap,
			 "xclbin upload: %llu bytes do not fit: the cache holds %llu of "
			 "--xclbin-cache-mib %llu MiB in designs that sessions use",
			 (unsigned long long)u->want, (unsigned long long)s->cache.used,
			 (unsigned long long)(s->cache.max >> 20));
		aieth__srv_xclbin_abort(u);
		res = SRV_X_NO_ROOM;
	} else if (rename(u->tmp, dst)) {
		snprintf(msg, cap, "xclbin upload: cannot rename into %s (%s)", dst,
			 strerror(errno));
		aieth__srv_xclbin_abort(u);
		res = SRV_X_IO;
	} else if (!(e = add_entry_locked(s, u->sha, u->want)) || add_owner(e, u->owner)) {
		if (e)
			drop_entry_locked(s, &s->cache.xclbins); /* just added: the head */
		else
			unlink(dst);
		snprintf(msg, cap, "xclbin upload: out of memory");
		aieth__srv_xclbin_abort(u);
		res = SRV_X_IO;
	} else {
		*created = 1;
		s->cache.uploads++;
		free(u->tmp);
		u->tmp = NULL;
		idx = owners_text_locked(s, &idx_len, &gen);
	}
	pthread_mutex_unlock(&s->mu);
	free(dst);
	/* a restart keeps who may see what; without the index line the design
	 * is only nobody's (safe), so a failed write is logged (by the
	 * caller), not refused */
	if (idx && owners_write(s, idx, idx_len, gen)) {
		u->index_failed = 1;
		snprintf(u->errmsg, sizeof u->errmsg, "%s", aieth_error_message());
	}
	free(idx);
	return res;
}

/* ---- room for files outside the cache ---- */

int aieth__srv_xclbin_reserve(aieth__server *s, uint64_t n, unsigned *evicted, char *msg,
			      size_t cap)
{
	int rc = 0;
	*evicted = 0;
	pthread_mutex_lock(&s->mu);
	/* held like an upload in progress: every reservation is seen by every
	 * other (HTTP uploads, AMD scratch files) before eviction decides */
	if (n > s->cache.max || make_room_locked(s, n, 0, evicted)) {
		snprintf(msg, cap,
			 "%llu bytes do not fit: the design cache holds %llu of "
			 "--xclbin-cache-mib %llu MiB in designs, uploads in progress and "
			 "files that sessions use",
			 (unsigned long long)n,
			 (unsigned long long)(s->cache.used + s->cache.reserved),
			 (unsigned long long)(s->cache.max >> 20));
		rc = -1;
	} else {
		s->cache.reserved += n;
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

void aieth__srv_xclbin_unreserve(aieth__server *s, uint64_t n)
{
	pthread_mutex_lock(&s->mu);
	s->cache.reserved -= n < s->cache.reserved ? n : s->cache.reserved;
	pthread_mutex_unlock(&s->mu);
}
