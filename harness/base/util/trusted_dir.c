/* SPDX-License-Identifier: MIT */
/*
 * trusted_dir.c - folders only their user can change (trusted_dir.h).
 *
 * The path is walked one component at a time from /, each directory
 * opened O_PATH|O_NOFOLLOW relative to the one above it and checked on
 * its descriptor (fstat), never by name: a component swapped after its
 * check is not the one used, because nothing is looked up by its name
 * again. A symbolic link is read (readlinkat) and its target walked the
 * same way, so every folder the kernel would pass through is checked.
 */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/trusted_dir.h"

#define TD_DEPTH 256  /* folders deep */
#define TD_LINKS 40   /* symbolic links followed (the kernel's own bound) */
#define TD_NAME 256   /* one component */
#define TD_PATH 8192  /* the path with its links' targets spliced in */
#define TD_SHOWN 4096 /* the resolved path shown in messages */

typedef struct {
	int fd[TD_DEPTH];
	size_t mark[TD_DEPTH]; /* shown's length before each level */
	size_t n;
	char shown[TD_SHOWN]; /* the folders walked, as resolved */
	size_t len;
	const char *what, *path;
} td_walk;

static void td_pop(td_walk *w)
{
	close(w->fd[--w->n]);
	w->len = w->mark[w->n];
	w->shown[w->len] = '\0';
}

static int td_push(td_walk *w, int fd, const char *name)
{
	int n;
	if (w->n == TD_DEPTH) {
		close(fd);
		return aieth__fail(AIETH_EINVAL, "%s %s: more than %d folders deep", w->what,
				   w->path, TD_DEPTH);
	}
	w->mark[w->n] = w->len;
	w->fd[w->n++] = fd;
	n = snprintf(w->shown + w->len, sizeof w->shown - w->len, "/%s", name);
	if (n > 0 && (size_t)n < sizeof w->shown - w->len)
		w->len += (size_t)n;
	return AIETH_OK;
}

/* The folder as shown: "/" for the root. */
static const char *td_shown(const td_walk *w) { return w->len ? w->shown : "/"; }

/* An ancestor: root's or ours, and written by no one else unless it is a
 * root-owned sticky folder (in which others cannot rename or remove our
 * entries: what we find below it must then be ours or root's, as the
 * rule of the next level requires). */
static int td_check_ancestor(const td_walk *w, const struct stat *st)
{
	uid_t me = geteuid();
	unsigned mode = (unsigned)st->st_mode & 07777;
	if (st->st_uid != 0 && st->st_uid != me)
		return aieth__fail(AIETH_EINVAL,
				   "%s %s: its component %s is owned by uid %u (mode %04o), "
				   "neither by us (uid %u) nor by root: its owner could swap "
				   "what the path names; use a folder whose every component is "
				   "yours or root's",
				   w->what, w->path, td_shown(w), (unsigned)st->st_uid, mode,
				   (unsigned)me);
	if ((st->st_mode & 022) && !(st->st_uid == 0 && (st->st_mode & S_ISVTX)))
		return aieth__fail(AIETH_EINVAL,
				   "%s %s: its component %s (owner uid %u, mode %04o) may be "
				   "written by group or others and is not a root-owned sticky "
				   "folder (like /tmp): they could swap what the path names; "
				   "make it writable by its owner alone (chmod go-w %s) or "
				   "choose a folder elsewhere",
				   w->what, w->path, td_shown(w), (unsigned)st->st_uid, mode,
				   td_shown(w));
	return AIETH_OK;
}

/* The folder itself: ours, and written by no one else. */
static int td_check_final(const td_walk *w, const struct stat *st)
{
	uid_t me = geteuid();
	unsigned mode = (unsigned)st->st_mode & 07777;
	if (!S_ISDIR(st->st_mode))
		return aieth__fail(AIETH_EINVAL, "%s %s: not a directory", w->what, w->path);
	if (st->st_uid != me)
		return aieth__fail(AIETH_EINVAL,
				   "%s %s: owned by uid %u (mode %04o), not by us (uid %u): "
				   "refusing to use it; choose a folder of your own",
				   w->what, w->path, (unsigned)st->st_uid, mode, (unsigned)me);
	if (st->st_mode & 022)
		return aieth__fail(AIETH_EINVAL,
				   "%s %s: mode %04o: group or others may write it: refusing to "
				   "use it (make it yours alone: chmod go-w %s; or choose another)",
				   w->what, w->path, mode, w->path);
	return AIETH_OK;
}

/* The next component of rest at *pos into name (""  at the end); *last 1
 * when nothing follows it. */
static int td_next(const td_walk *w, const char *rest, size_t *pos, char name[TD_NAME], int *last)
{
	size_t n;
	*pos += strspn(rest + *pos, "/");
	n = strcspn(rest + *pos, "/");
	if (n >= TD_NAME)
		return aieth__fail(AIETH_EINVAL, "%s %s: a component of %zu bytes (at most %d)",
				   w->what, w->path, n, TD_NAME - 1);
	memcpy(name, rest + *pos, n);
	name[n] = '\0';
	*pos += n;
	*last = !rest[*pos + strspn(rest + *pos, "/")];
	return AIETH_OK;
}

/* Follow the link name in the top folder: its target spliced in front of
 * what remains of *rest (from *pos). */
static int td_follow(td_walk *w, const char *name, const struct stat *lst, char **rest, size_t *pos,
		     int *links)
{
	char target[TD_PATH], *nr;
	ssize_t n;
	uid_t me = geteuid();
	size_t tail;
	if (lst->st_uid != 0 && lst->st_uid != me)
		return aieth__fail(AIETH_EINVAL,
				   "%s %s: its component %s/%s is a symbolic link owned by uid "
				   "%u, neither by us (uid %u) nor by root: its owner could point "
				   "it elsewhere; give the path it points to, or a folder of your "
				   "own",
				   w->what, w->path, w->len ? w->shown : "", name,
				   (unsigned)lst->st_uid, (unsigned)me);
	if (++*links > TD_LINKS)
		return aieth__fail(AIETH_EINVAL, "%s %s: more than %d symbolic links on the way",
				   w->what, w->path, TD_LINKS);
	n = readlinkat(w->fd[w->n - 1], name, target, sizeof target);
	if (n <= 0 || (size_t)n >= sizeof target)
		return aieth__fail(AIETH_EINVAL, "%s %s: cannot read the symbolic link %s/%s",
				   w->what, w->path, w->len ? w->shown : "", name);
	tail = strlen(*rest + *pos);
	if ((size_t)n + 1 + tail >= TD_PATH || !(nr = malloc((size_t)n + tail + 2)))
		return aieth__fail(AIETH_EINVAL, "%s %s: the path with its links is too long",
				   w->what, w->path);
	memcpy(nr, target, (size_t)n);
	nr[n] = '/';
	memcpy(nr + n + 1, *rest + *pos, tail + 1);
	free(*rest);
	*rest = nr;
	*pos = 0;
	if (target[0] == '/')
		while (w->n > 1)
			td_pop(w);
	return AIETH_OK;
}

/* Open the component name of the top folder (made when missing and
 * create): *fd a directory, O_PATH; *fd -1 and *lst its state when it is
 * a symbolic link. */
static int td_open(td_walk *w, const char *name, int create, int *fd, struct stat *lst)
{
	int top = w->fd[w->n - 1], tries;
	struct stat st;
	for (tries = 0; tries < 3; tries++) {
		*fd = openat(top, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (*fd >= 0) {
			if (fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode))
				return AIETH_OK;
			close(*fd);
			*fd = -1;
		}
		if (fstatat(top, name, lst, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISLNK(lst->st_mode))
				return AIETH_OK;
			if (!S_ISDIR(lst->st_mode))
				return aieth__fail(AIETH_EINVAL, "%s %s: %s/%s is not a directory",
						   w->what, w->path, w->len ? w->shown : "", name);
			continue; /* a folder now: open it */
		}
		if (errno != ENOENT)
			return aieth__fail(AIETH_EIO, "%s %s: %s/%s: %s", w->what, w->path,
					   w->len ? w->shown : "", name, strerror(errno));
		if (!create)
			return aieth__fail(AIETH_ENOTFOUND, "%s %s: %s/%s does not exist", w->what,
					   w->path, w->len ? w->shown : "", name);
		if (mkdirat(top, name, 0700) != 0 && errno != EEXIST)
			return aieth__fail(AIETH_EIO, "%s %s: cannot create %s/%s: %s", w->what,
					   w->path, w->len ? w->shown : "", name, strerror(errno));
	}
	return aieth__fail(AIETH_EIO, "%s %s: %s/%s keeps changing while opened", w->what, w->path,
			   w->len ? w->shown : "", name);
}

int aieth__dir_open_trusted(const char *path, int create, const char *what, int *dirfd_out)
{
	td_walk w;
	char name[TD_NAME], *rest = NULL, *cwd;
	size_t pos = 0;
	struct stat st, lst;
	int fd, last = 0, links = 0, rc;
	*dirfd_out = -1;
	memset(&w, 0, sizeof w);
	w.what = what;
	w.path = path;
	if (!path || !*path)
		return aieth__fail(AIETH_EINVAL, "%s: empty name", what);
	if (path[0] == '/') {
		rest = strdup(path);
	} else if ((cwd = getcwd(NULL, 0))) { /* relative: from the working folder */
		if ((rest = malloc(strlen(cwd) + strlen(path) + 2)))
			sprintf(rest, "%s/%s", cwd, path);
		free(cwd);
	} else {
		return aieth__fail(AIETH_EIO, "%s %s: no working folder: %s", what, path,
				   strerror(errno));
	}
	if (!rest)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		free(rest);
		return aieth__fail(AIETH_EIO, "%s %s: cannot open /: %s", what, path,
				   strerror(errno));
	}
	td_push(&w, fd, "");
	w.len = 0; /* the root shows as "/" */
	w.shown[0] = '\0';
	rc = strspn(rest, "/") == strlen(rest) || fstat(fd, &st) ? AIETH_OK
								 : td_check_ancestor(&w, &st);
	while (!rc) {
		if ((rc = td_next(&w, rest, &pos, name, &last)) || !name[0])
			break;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (w.n > 1)
				td_pop(&w);
			continue;
		}
		if ((rc = td_open(&w, name, create, &fd, &lst)))
			break;
		if (fd < 0) { /* a symbolic link */
			if (last) {
				rc = aieth__fail(AIETH_EINVAL,
						 "%s %s: a symbolic link: refusing to follow it "
						 "(give the folder it points to)",
						 what, path);
				break;
			}
			rc = td_follow(&w, name, &lst, &rest, &pos, &links);
			continue;
		}
		if ((rc = td_push(&w, fd, name)))
			break;
		if (!last && (fstat(fd, &st) || (rc = td_check_ancestor(&w, &st))))
			rc = rc ? rc : aieth__fail(AIETH_EIO, "%s %s: fstat", what, path);
	}
	if (!rc) { /* the folder itself, opened for use */
		fd = openat(w.fd[w.n - 1], ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			rc = aieth__fail(AIETH_EIO, "%s %s: cannot open: %s", what, path,
					 strerror(errno));
		else if (fstat(fd, &st) || (rc = td_check_final(&w, &st))) {
			rc = rc ? rc : aieth__fail(AIETH_EIO, "%s %s: fstat", what, path);
			close(fd);
		} else {
			*dirfd_out = fd;
		}
	}
	while (w.n)
		td_pop(&w);
	free(rest);
	return rc;
}

int aieth__fd_trusted(int fd, const char *what)
{
	struct stat st;
	uid_t me = geteuid();
	if (fstat(fd, &st) != 0)
		return aieth__fail(AIETH_EIO, "%s: fstat: %s", what, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return aieth__fail(AIETH_EINVAL, "%s: not a regular file", what);
	if (st.st_uid != me)
		return aieth__fail(AIETH_EINVAL,
				   "%s: owned by uid %u, not by us (uid %u): not trusted (a file "
				   "someone else put there)",
				   what, (unsigned)st.st_uid, (unsigned)me);
	if (st.st_mode & 022)
		return aieth__fail(AIETH_EINVAL,
				   "%s: mode %04o: group or others may write it: not trusted", what,
				   (unsigned)st.st_mode & 07777);
	return AIETH_OK;
}

/* Read the 32-byte key of fd (checked: ours, 0600 or stricter). */
static int key_read(int fd, const char *what, uint8_t key[32])
{
	struct stat st;
	ssize_t n;
	int rc = aieth__fd_trusted(fd, what);
	if (rc)
		return rc;
	if (fstat(fd, &st) != 0 || (st.st_mode & 077))
		return aieth__fail(AIETH_EINVAL,
				   "%s: mode %04o: others may read the secret: refusing it "
				   "(remove it: a new one is made)",
				   what, (unsigned)st.st_mode & 07777);
	if (st.st_size != 32 || (n = pread(fd, key, 32, 0)) != 32)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %lld bytes, not the 32 of a key (remove it: a new one is "
				   "made)",
				   what, (long long)st.st_size);
	return AIETH_OK;
}

int aieth__dir_key(int dirfd, const char *name, const char *what, uint8_t key[32])
{
	char tmp[96];
	size_t got = 0;
	ssize_t n;
	int fd, tries, rc;
	for (tries = 0; tries < 3; tries++) {
		fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			rc = key_read(fd, what, key);
			close(fd);
			return rc;
		}
		if (errno != ENOENT)
			return aieth__fail(AIETH_EINVAL, "%s: cannot open: %s", what,
					   strerror(errno));
		for (got = 0; got < 32; got += (size_t)n) {
			n = getrandom(key + got, 32 - got, 0);
			if (n < 0 && errno != EINTR)
				return aieth__fail(AIETH_EIO, "%s: getrandom: %s", what,
						   strerror(errno));
			n = n < 0 ? 0 : n;
		}
		snprintf(tmp, sizeof tmp, ".tmp.key.%ld.%02x%02x%02x%02x", (long)getpid(), key[0],
			 key[1], key[2], key[3]);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return aieth__fail(AIETH_EIO, "%s: cannot create %s: %s", what, tmp,
					   strerror(errno));
		n = write(fd, key, 32);
		if (n != 32 || fsync(fd) != 0) {
			close(fd);
			unlinkat(dirfd, tmp, 0);
			return aieth__fail(AIETH_EIO, "%s: write error", what);
		}
		close(fd);
		/* linked, not renamed: a key another process made first stays */
		rc = linkat(dirfd, tmp, dirfd, name, 0);
		n = errno;
		unlinkat(dirfd, tmp, 0);
		if (rc == 0)
			return AIETH_OK;
		if (n != EEXIST)
			return aieth__fail(AIETH_EIO, "%s: cannot create: %s", what,
					   strerror((int)n));
	}
	return aieth__fail(AIETH_EIO, "%s: keeps changing while read", what);
}

int aieth__dir_temp_sweep_one(int dirfd, const char *name, const struct stat *st, time_t now,
			      time_t max_age)
{
	if (name[0] != '.' || !strstr(name, ".tmp."))
		return AIETH__TEMP_NOT;
	/* only a file of ours: in a folder only we may write, the name cannot
	 * be swapped between the fstatat and the unlinkat by anyone else */
	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid() || now - st->st_mtime <= max_age)
		return AIETH__TEMP_KEPT;
	return unlinkat(dirfd, name, 0) == 0 ? AIETH__TEMP_REMOVED : AIETH__TEMP_KEPT;
}

int aieth__dir_temp_sweep(int dfd, time_t max_age, const char *what, size_t *removed)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	struct stat st;
	time_t now = time(NULL);
	if (removed)
		*removed = 0;
	if (!d) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return aieth__fail(AIETH_EIO, "%s: cannot list: %s", what, strerror(e));
	}
	while ((de = readdir(d)))
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    aieth__dir_temp_sweep_one(dirfd(d), de->d_name, &st, now, max_age) ==
			    AIETH__TEMP_REMOVED &&
		    removed)
			(*removed)++;
	closedir(d);
	return AIETH_OK;
}
