/* SPDX-License-Identifier: MIT */
/*
 * fileio.c - whole-file reads, full reads and writes, streamed copies, and
 * output. One output mechanism (aieth_out) serves the whole-buffer writer
 * (aieth__write_atomic) and streamed writers: a missing or regular target
 * gets a temporary file beside it, flushed and renamed over it when
 * complete (on failure the temporary is removed and the target left as it
 * was); a symbolic link is followed to its final target, which is replaced
 * (the link stays a link); an existing device, FIFO or socket is written in
 * place, never renamed over or removed; a directory is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/path.h"

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

/* ------------------------------------------------------------- outputs */

#define MAX_LINKS 40
#define PROC_MAGIC 0x9fa0 /* procfs: /proc/self/fd/N behind /dev/stdout */

enum { T_MISSING, T_REGULAR, T_SPECIAL, T_DIR };

/* A link in procfs (/proc/self/fd/1, what /dev/stdout and /dev/fd/N lead
 * to) names an open file, not a path: it is written through, in place. */
static int in_procfs(const char *link)
{
	struct statfs sf;
	char *dir = aieth__path_dirname(link);
	int r = dir && statfs(dir, &sf) == 0 && sf.f_type == PROC_MAGIC;
	free(dir);
	return r;
}

static char *read_link(const char *path)
{
	size_t cap = 256;
	for (;;) {
		char *buf = malloc(cap);
		ssize_t n;
		if (!buf)
			return NULL;
		n = readlink(path, buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		if (cap > 65536)
			return NULL;
		cap *= 2;
	}
}

/* What writing `path` replaces: symbolic links are followed one by one to
 * the final target (which may not exist yet), so the link stays a link.
 * *final (malloc'd): the target's path; *kind: T_*; *magic: reached through
 * a procfs link (then *final is path itself, opened through the link). */
static int resolve_output(const char *path, char **final, int *kind, mode_t *mode, int *magic)
{
	char *cur = aieth__strdup(path), *t, *dir;
	struct stat sb;
	int hops;
	*final = NULL;
	*magic = 0;
	*mode = 0;
	if (!cur)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	for (hops = 0;; hops++) {
		if (lstat(cur, &sb) != 0) {
			int e = errno;
			if (e == ENOENT) {
				*kind = T_MISSING;
				break;
			}
			free(cur);
			return aieth__fail(AIETH_EIO, "%s: cannot write: %s", path, strerror(e));
		}
		if (!S_ISLNK(sb.st_mode)) {
			*mode = sb.st_mode;
			*kind = S_ISREG(sb.st_mode)   ? T_REGULAR
				: S_ISDIR(sb.st_mode) ? T_DIR
						      : T_SPECIAL;
			break;
		}
		if (hops >= MAX_LINKS) {
			free(cur);
			return aieth__fail(AIETH_EIO,
					   "%s: cannot write: more than %d symbolic links "
					   "to follow",
					   path, MAX_LINKS);
		}
		if (in_procfs(cur)) {
			free(cur);
			if (stat(path, &sb) != 0)
				return aieth__fail(AIETH_EIO, "%s: cannot write: %s", path,
						   strerror(errno));
			*mode = sb.st_mode;
			*kind = S_ISDIR(sb.st_mode) ? T_DIR : T_SPECIAL;
			*magic = 1;
			cur = aieth__strdup(path);
			break;
		}
		t = read_link(cur);
		dir = t && t[0] != '/' ? aieth__path_dirname(cur) : NULL;
		free(cur);
		if (!t || (t[0] != '/' && !dir)) {
			free(t);
			return aieth__fail(AIETH_EIO, "%s: cannot read a symbolic link on the way",
					   path);
		}
		cur = dir ? aieth__path_join(dir, t) : t;
		if (dir)
			free(t);
		free(dir);
		if (!cur)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	if (!cur)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	*final = cur;
	return AIETH_OK;
}

/* An existing device, FIFO or socket (or a procfs link): written in place,
 * never renamed over. O_NONBLOCK so a FIFO with no reader fails at once. */
static int open_in_place(aieth_out *o, const char *path, mode_t mode, int magic)
{
	struct stat sb;
	int fd, flags;
	fd = open(o->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (magic ? O_APPEND : 0));
	if (fd < 0) {
		int e = errno;
		if (e == ENXIO)
			return aieth__fail(AIETH_EIO,
					   "%s: is %s that nothing reads from: cannot write "
					   "to it",
					   path, file_kind(mode));
		return aieth__fail(AIETH_EIO, "%s: cannot open %s for writing: %s", path,
				   file_kind(mode), strerror(e));
	}
	if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode) || (S_ISREG(sb.st_mode) && !magic)) {
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: changed while it was opened; nothing written",
				   path);
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: fcntl: %s", path, strerror(e));
	}
	o->fd = fd;
	o->in_place = 1;
	return AIETH_OK;
}

int aieth__out_open(aieth_out *o, const char *path)
{
	static atomic_uint counter;
	char *final = NULL, *dir;
	const char *base;
	size_t n, len;
	int kind, magic, tries, rc;
	mode_t mode;

	o->fd = -1;
	o->tmp = NULL;
	o->path = NULL;
	o->in_place = 0;
	o->no_flush = 0;
	if (!path || !*path)
		return aieth__fail(AIETH_EINVAL, "no output file named (an empty path)");
	if ((rc = resolve_output(path, &final, &kind, &mode, &magic)))
		return rc;
	o->path = final;
	len = strlen(final);
	if (kind == T_DIR || (kind == T_MISSING && final[len - 1] == '/')) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: is a directory%s, not a file: name a file to write", path,
				 kind == T_DIR ? "" : " name (it ends in /)");
		aieth__out_abort(o);
		return rc;
	}
	if (kind == T_SPECIAL) {
		if ((rc = open_in_place(o, path, mode, magic)))
			aieth__out_abort(o);
		return rc;
	}
	/* a missing or regular target: a temporary file beside it, renamed over
	 * it when complete (O_EXCL with our own names, not mkstemp, so the
	 * umask applies) */
	dir = aieth__path_dirname(final);
	base = strrchr(final, '/');
	base = base ? base + 1 : final;
	n = (dir ? strlen(dir) : 0) + strlen(base) + 80;
	o->tmp = dir ? malloc(n) : NULL;
	if (!o->tmp) {
		free(dir);
		aieth__out_abort(o);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	for (tries = 0; tries < 100; tries++) {
		snprintf(o->tmp, n, "%s/.%.200s.tmp.%ld.%u", dir, base, (long)getpid(),
			 (unsigned)atomic_fetch_add(&counter, 1u));
		/* read-write: a copy into it is hashed from its own pages
		 * (util/copy.c), not through a buffer */
		o->fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	free(dir);
	if (o->fd < 0) {
		int e = errno;
		rc = aieth__fail(
			AIETH_EIO, "%s: cannot create a temporary file next to it (%s): %s%s", path,
			o->tmp, strerror(e), e == ENOENT ? " (does the directory exist?)" : "");
		free(o->tmp);
		o->tmp = NULL;
		aieth__out_abort(o);
		return rc;
	}
	return AIETH_OK;
}

int aieth__out_write(aieth_out *o, const void *buf, size_t n)
{
	return aieth__write_full(o->fd, buf, n, o->path ? o->path : "output");
}

int aieth__out_commit(aieth_out *o)
{
	const char *step = NULL;
	int e = 0, rc = AIETH_OK;
	if (!o->path || o->fd < 0)
		return aieth__fail(AIETH_EINVAL, "aieth__out_commit: no open output");
	/* a device or FIFO is not flushed: fsync would fail or block; nor is a
	 * scratch file (no_flush): nothing of it outlives a crash */
	if (!o->in_place && !o->no_flush && fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS)
		step = "flush", e = errno;
	if (close(o->fd) != 0 && !step)
		step = "close", e = errno;
	o->fd = -1;
	if (!step && !o->in_place && rename(o->tmp, o->path) != 0)
		step = "rename", e = errno;
	if (step && o->in_place)
		rc = aieth__fail(AIETH_EIO, "%s: write error: %s", o->path, strerror(e));
	else if (step)
		rc = aieth__fail(AIETH_EIO,
				 "%s: cannot %s the temporary file %s (removed; %s left "
				 "as it was): %s",
				 o->path, step, o->tmp, o->path, strerror(e));
	if (!rc) {
		free(o->tmp);
		o->tmp = NULL;
	}
	aieth__out_abort(o);
	return rc;
}

void aieth__out_abort(aieth_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = NULL;
	o->path = NULL;
}
int aieth__pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what)
{
	uint8_t *p = buf;
	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return aieth__fail(AIETH_EIO, "%s: read error at offset %llu: %s", what,
					   (unsigned long long)off, strerror(errno));
		if (r == 0)
			return aieth__fail(AIETH_EIO, "%s: unexpected end of file at offset %llu",
					   what, (unsigned long long)off);
		p += r, n -= (size_t)r, off += (uint64_t)r;
	}
	return AIETH_OK;
}

int aieth__write_full(int fd, const void *buf, size_t n, const char *what)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return aieth__fail(AIETH_EIO, "%s: write error: %s", what, strerror(errno));
		p += r, n -= (size_t)r;
	}
	return AIETH_OK;
}

int aieth__copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
		const char *what_out)
{
	uint8_t *buf;
	int rc = AIETH_OK;
	if (!n)
		return AIETH_OK;
	buf = malloc(n < AIETH_IO_CHUNK ? (size_t)n : AIETH_IO_CHUNK);
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what_out);
	while (n && !rc) {
		size_t k = n < AIETH_IO_CHUNK ? (size_t)n : AIETH_IO_CHUNK;
		rc = aieth__pread_full(in, buf, k, off, what_in);
		if (!rc && h)
			aieth__hash128_update(h, buf, k);
		if (!rc)
			rc = aieth__write_full(out, buf, k, what_out);
		off += k, n -= k;
	}
	free(buf);
	return rc;
}

int aieth__open_input(const char *path, int *fd_out, struct stat *st_out)
{
	struct stat st;
	int fd, flags;

	*fd_out = -1;
	/* O_NONBLOCK: opening a FIFO without a writer must not wait for one;
	 * the type is checked before anything is read */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return aieth__fail(AIETH_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: is %s, not a regular file", path,
				   file_kind(st.st_mode));
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: fcntl: %s", path, strerror(e));
	}
	if (st_out)
		*st_out = st;
	*fd_out = fd;
	return AIETH_OK;
}

int aieth__read_file(const char *path, size_t max_bytes, char **out, size_t *len_out)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n;
	int rc, fd;

	*out = NULL;
	if ((rc = aieth__open_input(path, &fd, &st)))
		return rc;
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return aieth__fail(AIETH_ENOMEM, "%s: cannot open: %s", path, strerror(errno));
	}
	if ((uint64_t)st.st_size > max_bytes) {
		rc = aieth__fail(AIETH_EINVAL, "%s: file is %lld bytes, the limit is %zu bytes",
				 path, (long long)st.st_size, max_bytes);
		goto fail;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory reading %lld bytes", path,
				 (long long)st.st_size);
		goto fail;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	if (n != (size_t)st.st_size || ferror(f)) {
		rc = aieth__fail(AIETH_EIO, "%s: read error", path);
		free(buf);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	if (len_out)
		*len_out = n;
	*out = buf;
	return AIETH_OK;
fail:
	fclose(f);
	return rc;
}

int aieth__write_atomic(const char *path, const void *data, size_t len)
{
	aieth_out o;
	int rc;
	if (!path || !*path || (!data && len))
		return aieth__fail(AIETH_EINVAL, "aieth__write_atomic: %s",
				   !path || !*path ? "no path" : "NULL data");
	if ((rc = aieth__out_open(&o, path)))
		return rc;
	if ((rc = aieth__out_write(&o, data, len))) {
		aieth__out_abort(&o);
		return rc;
	}
	return aieth__out_commit(&o);
}

int aieth__open_scratch(int *fd_out)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd, e;
	*fd_out = -1;
	if (!dir || !*dir)
		dir = "/tmp";
	path = aieth__path_join(dir, "aieth-scratch.XXXXXX");
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	fd = mkstemp(path);
	e = errno;
	if (fd >= 0)
		unlink(path);
	free(path);
	if (fd < 0)
		return aieth__fail(AIETH_EIO, "cannot create a scratch file in %s: %s", dir,
				   strerror(e));
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	*fd_out = fd;
	return AIETH_OK;
}

int aieth__file_sha256(const char *path, char hex[65], uint64_t *size)
{
	aieth_sha256 h;
	uint8_t d[32];
	char *buf;
	uint64_t off = 0;
	int fd, rc;
	if ((rc = aieth__open_input(path, &fd, NULL)))
		return rc;
	if (!(buf = malloc(AIETH_IO_CHUNK))) {
		close(fd);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	aieth__sha256_init(&h);
	for (;;) {
		ssize_t n = pread(fd, buf, AIETH_IO_CHUNK, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = aieth__fail(AIETH_EIO, "%s: %s", path, strerror(errno));
			break;
		}
		if (!n)
			break;
		aieth__sha256_update(&h, buf, (size_t)n);
		off += (uint64_t)n;
	}
	free(buf);
	close(fd);
	if (rc)
		return rc;
	aieth__sha256_final(&h, d);
	aieth__sha256_hex(d, hex);
	if (size)
		*size = off;
	return AIETH_OK;
}
