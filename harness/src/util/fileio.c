/*
 * fileio.c - whole-file reads, full reads and writes, streamed copies, and
 * atomic output: a whole buffer (aieth_write_atomic: "<path>.tmp.<pid>",
 * flushed, renamed over path) or a stream (aieth_out: a temporary next to
 * the target, renamed when complete). On any failure the temporary file is
 * removed and an existing file at path is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

int aieth_out_open(aieth_out *o, const char *path)
{
	char *dir = aieth_path_dirname(path);
	const char *base = strrchr(path, '/');
	static atomic_uint counter;
	size_t n;
	int tries;

	o->fd = -1;
	o->tmp = NULL;
	o->path = aieth_strdup(path);
	base = base ? base + 1 : path;
	n = (dir ? strlen(dir) : 0) + strlen(base) + 64;
	o->tmp = malloc(n);
	if (!dir || !o->tmp || !o->path) {
		free(dir);
		aieth_out_abort(o);
		return aieth_fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	/* O_EXCL with our own unique names (not mkstemp) so the umask applies */
	for (tries = 0; tries < 100; tries++) {
		snprintf(o->tmp, n, "%s/.%s.tmp%ld.%u", dir, base, (long)getpid(),
			 (unsigned)atomic_fetch_add(&counter, 1u));
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	free(dir);
	if (o->fd < 0) {
		int e = errno;
		int rc = aieth_fail(AIETH_EIO, "%s: cannot create a temporary file next to it: %s",
				    path, strerror(e));
		free(o->tmp);
		o->tmp = NULL;
		aieth_out_abort(o);
		return rc;
	}
	return AIETH_OK;
}

int aieth_out_commit(aieth_out *o)
{
	int rc = AIETH_OK;
	if (close(o->fd) != 0)
		rc = aieth_fail(AIETH_EIO, "%s: write error: %s", o->path, strerror(errno));
	o->fd = -1;
	if (!rc && rename(o->tmp, o->path) != 0)
		rc = aieth_fail(AIETH_EIO, "%s: cannot rename %s over it: %s", o->path, o->tmp,
				strerror(errno));
	if (!rc) {
		free(o->tmp);
		o->tmp = NULL;
	}
	aieth_out_abort(o);
	return rc;
}

void aieth_out_abort(aieth_out *o)
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

int aieth_pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what)
{
	uint8_t *p = buf;
	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return aieth_fail(AIETH_EIO, "%s: read error at offset %llu: %s", what,
					  (unsigned long long)off, strerror(errno));
		if (r == 0)
			return aieth_fail(AIETH_EIO, "%s: unexpected end of file at offset %llu",
					  what, (unsigned long long)off);
		p += r, n -= (size_t)r, off += (uint64_t)r;
	}
	return AIETH_OK;
}

int aieth_write_full(int fd, const void *buf, size_t n, const char *what)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return aieth_fail(AIETH_EIO, "%s: write error: %s", what, strerror(errno));
		p += r, n -= (size_t)r;
	}
	return AIETH_OK;
}

int aieth_copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
	    const char *what_out)
{
	uint8_t *buf;
	int rc = AIETH_OK;
	if (!n)
		return AIETH_OK;
	buf = malloc(n < AIETH_IO_CHUNK ? (size_t)n : AIETH_IO_CHUNK);
	if (!buf)
		return aieth_fail(AIETH_ENOMEM, "%s: out of memory", what_out);
	while (n && !rc) {
		size_t k = n < AIETH_IO_CHUNK ? (size_t)n : AIETH_IO_CHUNK;
		rc = aieth_pread_full(in, buf, k, off, what_in);
		if (!rc && h)
			aieth_hash128_update(h, buf, k);
		if (!rc)
			rc = aieth_write_full(out, buf, k, what_out);
		off += k, n -= k;
	}
	free(buf);
	return rc;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

int aieth_open_input(const char *path, int *fd_out, struct stat *st_out)
{
	struct stat st;
	int fd, flags;

	*fd_out = -1;
	/* O_NONBLOCK: opening a FIFO without a writer must not wait for one;
	 * the type is checked before anything is read */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return aieth_fail(AIETH_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return aieth_fail(AIETH_EIO, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return aieth_fail(AIETH_EIO, "%s: is %s, not a regular file", path,
				  file_kind(st.st_mode));
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		return aieth_fail(AIETH_EIO, "%s: fcntl: %s", path, strerror(e));
	}
	if (st_out)
		*st_out = st;
	*fd_out = fd;
	return AIETH_OK;
}

int aieth_read_file(const char *path, size_t max_bytes, char **out, size_t *len_out)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n;
	int rc, fd;

	*out = NULL;
	if ((rc = aieth_open_input(path, &fd, &st)))
		return rc;
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return aieth_fail(AIETH_ENOMEM, "%s: cannot open: %s", path, strerror(errno));
	}
	if ((uint64_t)st.st_size > max_bytes) {
		rc = aieth_fail(AIETH_EINVAL, "%s: file is %lld bytes, the limit is %zu bytes", path,
				(long long)st.st_size, max_bytes);
		goto fail;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = aieth_fail(AIETH_ENOMEM, "%s: out of memory reading %lld bytes", path,
				(long long)st.st_size);
		goto fail;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	if (n != (size_t)st.st_size || ferror(f)) {
		rc = aieth_fail(AIETH_EIO, "%s: read error", path);
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

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		size_t chunk = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
		ssize_t w = write(fd, p, chunk);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int aieth_write_atomic(const char *path, const void *data, size_t len)
{
	char *tmp;
	size_t plen;
	int fd, err;
	const char *step;

	if (!path || !*path || (!data && len))
		return aieth_fail(AIETH_EINVAL, "aieth_write_atomic: %s",
				  !path || !*path ? "no path" : "NULL data");
	plen = strlen(path);
	tmp = malloc(plen + 32);
	if (!tmp)
		return aieth_fail(AIETH_ENOMEM, "%s: out of memory", path);
	snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		err = errno;
		aieth_fail(AIETH_EIO, "%s: cannot create the temporary file %s: %s%s", path, tmp,
			   strerror(err), err == ENOENT ? " (does the directory exist?)" : "");
		free(tmp);
		return AIETH_EIO;
	}
	step = "write to";
	if (write_all(fd, (const uint8_t *)data, len) != 0)
		goto fail;
	step = "flush";
	if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
		goto fail;
	step = "close";
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	step = "rename";
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return AIETH_OK;

fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	aieth_fail(AIETH_EIO, "%s: cannot %s the temporary file %s (%zu bytes; removed, %s left as it was): %s",
		   path, step, tmp, len, path, strerror(err));
	free(tmp);
	return AIETH_EIO;
}
