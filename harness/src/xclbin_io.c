/* xclbin_io.c - full reads and writes, streamed copies, atomic output. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "xclbin_io.h"

int xb_out_open(xb_out *o, const char *path)
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
		xb_out_abort(o);
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
		xb_out_abort(o);
		return rc;
	}
	return AIETH_OK;
}

int xb_out_commit(xb_out *o)
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
	xb_out_abort(o);
	return rc;
}

void xb_out_abort(xb_out *o)
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

int xb_pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what)
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

int xb_write_full(int fd, const void *buf, size_t n, const char *what)
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

int xb_copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
	    const char *what_out)
{
	uint8_t *buf;
	int rc = AIETH_OK;
	if (!n)
		return AIETH_OK;
	buf = malloc(n < XB_IO_CHUNK ? (size_t)n : XB_IO_CHUNK);
	if (!buf)
		return aieth_fail(AIETH_ENOMEM, "%s: out of memory", what_out);
	while (n && !rc) {
		size_t k = n < XB_IO_CHUNK ? (size_t)n : XB_IO_CHUNK;
		rc = xb_pread_full(in, buf, k, off, what_in);
		if (!rc && h)
			aieth_hash128_update(h, buf, k);
		if (!rc)
			rc = xb_write_full(out, buf, k, what_out);
		off += k, n -= k;
	}
	free(buf);
	return rc;
}
