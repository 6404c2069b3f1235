/* SPDX-License-Identifier: MIT */
/*
 * fileio.c - whole-file reads, full reads and writes, streamed copies, and
 * output. One output mechanism (aieth_out) serves the whole-buffer writer
 * (aieth__write_atomic) and streamed writers: a missing or regular target
 * gets a temporary file beside it, flushed and renamed over it when
 * complete (on failure the temporary is removed and the target left as it
 * was); a symbolic link at the name is replaced, never followed to a file
 * (fileio.h says which links to devices are written through); an existing
 * device, FIFO or socket is written in place, never renamed over or
 * removed; a directory is an error.
 */
#define _GNU_SOURCE /* O_PATH: a link itself, to read its owner and target */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* What an open output keeps beyond aieth_out's fields (which its callers
 * initialise positionally): one block, o->path pointing at its path. */
typedef struct {
	int dirfd;       /* the folder, opened once; -1 when written in place */
	size_t tmp_name; /* offset in o->tmp of the temporary's name */
	char *name;      /* the output's name in the folder (in this block) */
	char path[];     /* the output as named */
} out_state;

static out_state *state_of(const aieth_out *o)
{
	return (out_state *)(void *)(o->path - offsetof(out_state, path));
}

/* o->path set to a new block for path and name (NULL: none). */
static int state_new(aieth_out *o, const char *path, const char *name)
{
	size_t pn = strlen(path) + 1, nn = name ? strlen(name) + 1 : 0;
	out_state *s = malloc(sizeof *s + pn + nn);
	if (!s)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	s->dirfd = -1;
	s->tmp_name = 0;
	memcpy(s->path, path, pn);
	s->name = name ? memcpy(s->path + pn, name, nn) : NULL;
	o->path = s->path;
	return AIETH_OK;
}

/* The paths that name one of the process's own open files (what a shell
 * gives for >(...) and what /dev/stdout is): written through, in place. */
static int own_descriptor(const char *path)
{
	static const char *const pre[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"};
	size_t i, n;
	if (!strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr"))
		return 1;
	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		n = strlen(pre[i]);
		if (!strncmp(path, pre[i], n) && path[n] &&
		    strspn(path + n, "0123456789") == strlen(path + n))
			return 1;
	}
	return 0;
}

/* The descriptor open on fd made blocking again (it was opened O_NONBLOCK
 * so that a FIFO without a reader fails at once). */
static int set_blocking(int fd, const char *path)
{
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
		return aieth__fail(AIETH_EIO, "%s: fcntl: %s", path, strerror(errno));
	return AIETH_OK;
}

/* fd, opened in place on the output, made blocking and taken by o (closed
 * on failure). */
static int take_in_place(aieth_out *o, int fd)
{
	if (set_blocking(fd, o->path)) {
		close(fd);
		return AIETH_EIO;
	}
	o->fd = fd;
	o->in_place = 1;
	return AIETH_OK;
}

static int open_error(const char *path, int e, mode_t mode)
{
	if (e == ENXIO)
		return aieth__fail(AIETH_EIO,
				   "%s: is %s that nothing reads from: cannot write to it", path,
				   file_kind(mode));
	return aieth__fail(AIETH_EIO, "%s: cannot open %s for writing: %s", path, file_kind(mode),
			   strerror(e));
}

/* One of the process's own descriptors: opened through, appended to. */
static int open_descriptor(aieth_out *o)
{
	struct stat sb;
	int fd = open(o->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_APPEND);
	if (fd < 0) {
		int e = errno;
		if (stat(o->path, &sb) != 0)
			return aieth__fail(AIETH_EIO, "%s: cannot write: %s", o->path, strerror(e));
		if (S_ISDIR(sb.st_mode))
			return aieth__fail(AIETH_EINVAL,
					   "%s: is a directory, not a file: name a "
					   "file to write",
					   o->path);
		return open_error(o->path, e, sb.st_mode);
	}
	if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
		close(fd);
		return aieth__fail(AIETH_EINVAL,
				   "%s: is a directory, not a file: name a file to write", o->path);
	}
	return take_in_place(o, fd);
}

/* An existing device, FIFO or socket at the name: written in place, never
 * renamed over. The name is opened without following it. */
static int open_special(aieth_out *o, mode_t mode)
{
	struct stat sb;
	int fd = openat(state_of(o)->dirfd, state_of(o)->name,
			O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return open_error(o->path, errno, mode);
	if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode) || S_ISREG(sb.st_mode)) {
		close(fd);
		return aieth__fail(AIETH_EIO, "%s: changed while it was opened; nothing written",
				   o->path);
	}
	return take_in_place(o, fd);
}

/* The target text of the link open (O_PATH|O_NOFOLLOW) on lfd: that very
 * link, whatever the name holds now. NULL on failure. */
static char *read_link_fd(int lfd)
{
	size_t cap = 256;
	for (;;) {
		char *buf = malloc(cap);
		ssize_t n;
		if (!buf)
			return NULL;
		n = readlinkat(lfd, "", buf, cap);
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

/* A symbolic link at the name. Followed only when the link itself (not
 * what the name holds by the time it is opened: its own descriptor) is
 * yours or root's and leads to a device, FIFO or socket; then written in
 * place (*done 1). A link to a directory of yours is an error. Every other
 * link is replaced (*done 0): a temporary renamed over it, its target
 * never opened for writing. */
static int open_through_link(aieth_out *o, int *done)
{
	const out_state *st = state_of(o);
	struct stat ls, ts;
	char *target;
	int lfd, fd;
	*done = 0;
	lfd = openat(st->dirfd, st->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0)
		return AIETH_OK; /* gone or changed: replaced */
	if (fstat(lfd, &ls) != 0 || !S_ISLNK(ls.st_mode) ||
	    (ls.st_uid != 0 && ls.st_uid != geteuid())) {
		close(lfd);
		return AIETH_OK;
	}
	target = read_link_fd(lfd);
	close(lfd);
	if (!target)
		return AIETH_OK;
	/* the target as this link gives it: relative to the link's folder */
	if (fstatat(st->dirfd, target, &ts, 0) != 0 || S_ISREG(ts.st_mode)) {
		free(target);
		return AIETH_OK;
	}
	if (S_ISDIR(ts.st_mode)) {
		free(target);
		return aieth__fail(AIETH_EINVAL,
				   "%s: is a symbolic link to a directory, not a file: name a "
				   "file to write",
				   o->path);
	}
	fd = openat(st->dirfd, target, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	free(target);
	if (fd < 0)
		return open_error(o->path, errno, ts.st_mode);
	/* what was opened decides: a regular file now (the target changed) is
	 * not written (opening it changed nothing): the link is replaced */
	if (fstat(fd, &ts) != 0 || S_ISREG(ts.st_mode) || S_ISDIR(ts.st_mode)) {
		close(fd);
		return AIETH_OK;
	}
	if (take_in_place(o, fd))
		return AIETH_EIO;
	*done = 1;
	return AIETH_OK;
}

/* A temporary file in the folder, renamed over the name when complete (O_EXCL
 * with our own names, not mkstemp, so the umask applies; O_NOFOLLOW: never
 * through a link someone made at a name like ours). */
static int open_temporary(aieth_out *o)
{
	static atomic_uint counter;
	out_state *st = state_of(o);
	const char *dir = o->path;
	size_t dlen, n;
	int tries;
	const char *slash = strrchr(o->path, '/');
	/* the temporary's path for readers by path (the packager's check)
	 * and messages: beside the name as the caller spelled it */
	dlen = slash ? (size_t)(slash - o->path) + 1 : 0;
	n = dlen + strlen(st->name) + 80;
	o->tmp = malloc(n);
	if (!o->tmp)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", o->path);
	memcpy(o->tmp, dir, dlen);
	st->tmp_name = dlen;
	for (tries = 0; tries < 100; tries++) {
		snprintf(o->tmp + dlen, n - dlen, ".%.200s.tmp.%ld.%u", st->name, (long)getpid(),
			 (unsigned)atomic_fetch_add(&counter, 1u));
		/* read-write: a copy into it is hashed from its own pages
		 * (util/copy.c), not through a buffer */
		o->fd = openat(st->dirfd, o->tmp + dlen,
			       O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		int e = errno;
		int rc = aieth__fail(AIETH_EIO,
				     "%s: cannot create a temporary file next to it (%s): %s",
				     o->path, o->tmp, strerror(e));
		free(o->tmp);
		o->tmp = NULL;
		return rc;
	}
	return AIETH_OK;
}

static void out_reset(aieth_out *o)
{
	o->fd = -1;
	o->tmp = NULL;
	o->path = NULL;
	o->in_place = 0;
	o->no_flush = 0;
}

/* o's folder and name set: what is at the name decides. */
static int out_open_name(aieth_out *o)
{
	const out_state *st = state_of(o);
	struct stat sb;
	int done, rc;
	if (!strcmp(st->name, ".") || !strcmp(st->name, ".."))
		return aieth__fail(AIETH_EINVAL,
				   "%s: is a directory, not a file: name a file to write", o->path);
	if (fstatat(st->dirfd, st->name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			return aieth__fail(AIETH_EIO, "%s: cannot write: %s", o->path,
					   strerror(errno));
		return open_temporary(o);
	}
	if (S_ISDIR(sb.st_mode))
		return aieth__fail(AIETH_EINVAL,
				   "%s: is a directory, not a file: name a file to write", o->path);
	if (S_ISLNK(sb.st_mode)) {
		if ((rc = open_through_link(o, &done)) || done)
			return rc;
	} else if (!S_ISREG(sb.st_mode)) {
		return open_special(o, sb.st_mode);
	}
	return open_temporary(o);
}

int aieth__out_open(aieth_out *o, const char *path)
{
	char *dir;
	const char *base;
	size_t len;
	int rc;

	out_reset(o);
	if (!path || !*path)
		return aieth__fail(AIETH_EINVAL, "no output file named (an empty path)");
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if ((rc = state_new(o, path, base)))
		return rc;
	if (own_descriptor(path)) {
		if ((rc = open_descriptor(o)))
			aieth__out_abort(o);
		return rc;
	}
	len = strlen(path);
	if (path[len - 1] == '/') {
		struct stat sb;
		int is_dir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: is a directory%s, not a file: name a file to write", path,
				 is_dir ? "" : " name (it ends in /)");
		aieth__out_abort(o);
		return rc;
	}
	dir = aieth__path_dirname(path);
	if (!dir) {
		aieth__out_abort(o);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	/* the folder as named (its own path may hold links: the caller's
	 * choice), opened once: every step after is relative to it */
	state_of(o)->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (state_of(o)->dirfd < 0) {
		int e = errno;
		/* worded as a temporary that could not be made (as before the
		 * folder was opened first) */
		rc = aieth__fail(AIETH_EIO,
				 "%s: cannot create a temporary file next to it "
				 "(%.*s.%.200s.tmp.%ld): %s%s",
				 path, (int)(base - path), path, base, (long)getpid(), strerror(e),
				 e == ENOENT ? " (does the directory exist?)" : "");
		free(dir);
		aieth__out_abort(o);
		return rc;
	}
	free(dir);
	if ((rc = out_open_name(o)))
		aieth__out_abort(o);
	return rc;
}

int aieth__out_openat(aieth_out *o, int dirfd, const char *name, const char *path)
{
	int rc;
	out_reset(o);
	if (!name || !*name || strchr(name, '/') || !path || !*path)
		return aieth__fail(AIETH_EINVAL, "%s: not a plain file name",
				   path && *path ? path : "(no name)");
	if ((rc = state_new(o, path, name)))
		return rc;
	if ((state_of(o)->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0)) < 0) {
		rc = aieth__fail(AIETH_EIO, "%s: its folder: %s", path, strerror(errno));
		aieth__out_abort(o);
		return rc;
	}
	if ((rc = out_open_name(o)))
		aieth__out_abort(o);
	return rc;
}

int aieth__out_write(aieth_out *o, const void *buf, size_t n)
{
	return aieth__write_full(o->fd, buf, n, o->path ? o->path : "output");
}

int aieth__out_commit(aieth_out *o)
{
	const char *step = NULL;
	const out_state *st;
	int e = 0, rc = AIETH_OK;
	if (!o->path || o->fd < 0)
		return aieth__fail(AIETH_EINVAL, "aieth__out_commit: no open output");
	st = state_of(o);
	/* a device or FIFO is not flushed: fsync would fail or block; nor is a
	 * scratch file (no_flush): nothing of it outlives a crash */
	if (!o->in_place && !o->no_flush && fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS)
		step = "flush", e = errno;
	if (close(o->fd) != 0 && !step)
		step = "close", e = errno;
	o->fd = -1;
	/* over the name, in the folder opened at the start: a link there is
	 * replaced, never followed */
	if (!step && !o->in_place &&
	    renameat(st->dirfd, o->tmp + st->tmp_name, st->dirfd, st->name) != 0)
		step = "rename", e = errno;
	if (step && o->in_place)
		rc = aieth__fail(AIETH_EIO, "%s: write error: %s", o->path, strerror(e));
	else if (step)
		rc = aieth__fail(AIETH_EIO,
				 "%s: cannot %s the temporary file %s (removed; %s left "
				 "as it was): %s",
				 o->path, step, o->tmp, o->path, strerror(e));
	if (!rc && !o->in_place) {
		free(o->tmp);
		o->tmp = NULL;
		/* the rename itself made durable, as the file's bytes were */
		if (!o->no_flush && fsync(st->dirfd) != 0 && errno != EINVAL && errno != EROFS &&
		    errno != EBADF)
			rc = aieth__fail(AIETH_EIO,
					 "%s: written, but its folder cannot be flushed: %s",
					 o->path, strerror(errno));
	}
	aieth__out_abort(o);
	return rc;
}

void aieth__out_abort(aieth_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	/* the folder and names exist only once path is set (an initialiser
	 * leaves dirfd 0: never closed then) */
	if (o->path) {
		out_state *st = state_of(o);
		if (o->tmp && st->dirfd >= 0)
			unlinkat(st->dirfd, o->tmp + st->tmp_name, 0);
		if (st->dirfd >= 0)
			close(st->dirfd);
		free(st);
	}
	free(o->tmp);
	out_reset(o);
}

int aieth__subdir_open(int dirfd, const char *name, const char *path, int *fd_out)
{
	struct stat sb;
	int fd;
	*fd_out = -1;
	if (mkdirat(dirfd, name, 0777) != 0 && errno != EEXIST)
		return aieth__fail(AIETH_EIO, "%s: cannot create the folder: %s", path,
				   strerror(errno));
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
			return aieth__fail(AIETH_EIO,
					   "%s: is a symbolic link: refusing to write through it "
					   "(remove it; the folder is made by the run)",
					   path);
		return aieth__fail(AIETH_EIO, "%s: cannot open the folder: %s", path,
				   e == ENOTDIR ? "not a directory" : strerror(e));
	}
	*fd_out = fd;
	return AIETH_OK;
}

int aieth__subdir_open_path(const char *path, int *fd_out)
{
	char *parent;
	const char *base;
	size_t n = path ? strlen(path) : 0;
	int pfd, rc;
	*fd_out = -1;
	if (!n || path[n - 1] == '/')
		return aieth__fail(AIETH_EINVAL, "\"%s\": not a folder name", path ? path : "");
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!(parent = aieth__path_dirname(path)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot create the folder: %s: %s", path, parent,
				 strerror(errno));
		free(parent);
		return rc;
	}
	free(parent);
	rc = aieth__subdir_open(pfd, base, path, fd_out);
	close(pfd);
	return rc;
}

/* The folder holding rel's last name, reached from basefd one folder at a
 * time (aieth__subdir_open: created when missing, never a link); full is
 * base/rel as messages name it (rel its tail). *last: rel's last name. */
static int walk_below(int basefd, const char *full, const char *rel, int *fd_out, const char **last)
{
	size_t off = strlen(full) - strlen(rel);
	const char *s = rel, *slash;
	char *buf;
	int fd, rc = AIETH_OK;
	*fd_out = -1;
	/* room for the path up to a folder and, after it, the folder's name */
	if (!(buf = malloc(2 * strlen(full) + 2)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", full);
	if ((fd = fcntl(basefd, F_DUPFD_CLOEXEC, 0)) < 0) {
		rc = aieth__fail(AIETH_EIO, "%s: its folder: %s", full, strerror(errno));
		free(buf);
		return rc;
	}
	while ((slash = strchr(s, '/'))) {
		size_t n = (size_t)(slash - s);
		int nfd;
		/* "a//b" and "./a": no folder of their own */
		if (n == 0 || (n == 1 && s[0] == '.')) {
			s = slash + 1;
			continue;
		}
		/* buf: the path up to this folder (messages); its name after it */
		memcpy(buf, full, off + (size_t)(slash - rel));
		buf[off + (size_t)(slash - rel)] = '\0';
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			rc = aieth__fail(
				AIETH_EINVAL,
				"%s: \"..\" would leave the folder %.*s: a relative output "
				"path stays below it (name an absolute path to write "
				"elsewhere)",
				full, (int)(off ? off - 1 : 0), full);
			break;
		}
		{
			char *name = buf + off + (size_t)(slash - rel) + 1;
			memcpy(name, s, n);
			name[n] = '\0';
			rc = aieth__subdir_open(fd, name, buf, &nfd);
		}
		close(fd);
		fd = nfd;
		if (rc)
			break;
		s = slash + 1;
	}
	free(buf);
	if (rc) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	*last = s;
	*fd_out = fd;
	return AIETH_OK;
}

int aieth__out_open_below(aieth_out *o, const char *base, const char *rel)
{
	char *full;
	const char *last = NULL;
	size_t n;
	int bfd, dfd, rc;
	out_reset(o);
	if (!rel || !*rel)
		return aieth__fail(AIETH_EINVAL, "no output file named (an empty path)");
	/* absolute: the user's own path, its folders followed as named */
	if (rel[0] == '/' || !base || !*base)
		return aieth__out_open(o, rel);
	if (!(full = aieth__path_join(base, rel)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", rel);
	n = strlen(rel);
	if (rel[n - 1] == '/') {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: is a directory name (it ends in /), not a file: name a file "
				 "to write",
				 full);
		free(full);
		return rc;
	}
	/* the base folder as named (the user's: --out), opened once */
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot open its folder %s: %s%s", full, base,
				 strerror(errno),
				 errno == ENOENT ? " (does the directory exist?)" : "");
		free(full);
		return rc;
	}
	rc = walk_below(bfd, full, rel, &dfd, &last);
	close(bfd);
	if (!rc) {
		rc = aieth__out_openat(o, dfd, last, full);
		close(dfd);
	}
	free(full);
	return rc;
}

int aieth__write_atomic_below(const char *base, const char *rel, const void *data, size_t len)
{
	aieth_out o;
	int rc;
	if (!data && len)
		return aieth__fail(AIETH_EINVAL, "aieth__write_atomic_below: NULL data");
	if ((rc = aieth__out_open_below(&o, base, rel)))
		return rc;
	if ((rc = aieth__out_write(&o, data, len))) {
		aieth__out_abort(&o);
		return rc;
	}
	return aieth__out_commit(&o);
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

int aieth__write_atomicat(int dirfd, const char *name, const char *path, const void *data,
			  size_t len)
{
	aieth_out o;
	int rc;
	if (!data && len)
		return aieth__fail(AIETH_EINVAL, "aieth__write_atomicat: NULL data");
	if ((rc = aieth__out_openat(&o, dirfd, name, path)))
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
