/*
 * binfile.c - binary data files: read whole, write atomically.
 *
 * A write goes to "<path>.tmp.<pid>", is flushed to disk and renamed over
 * path. On any failure the temporary file is removed and an existing file at
 * path is left as it was. aieth_text_write uses the same writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "internal.h"

int aieth_bin_read(const char *path, size_t max_bytes, uint8_t **out, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	int rc;

	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!path || !out || !len)
		return aieth_fail(AIETH_EINVAL, "aieth_bin_read: NULL argument");
	rc = aieth_read_file(path, max_bytes, &buf, &n);
	if (rc != AIETH_OK)
		return rc;
	if (n == 0) {
		free(buf);
		return aieth_fail(AIETH_EINVAL, "%s: file is empty (0 bytes of data)", path);
	}
	*out = (uint8_t *)buf;
	*len = n;
	return AIETH_OK;
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

int aieth_bin_write(const char *path, const uint8_t *data, size_t len)
{
	char *tmp;
	size_t plen;
	int fd, err;
	const char *step;

	if (!path || !*path || (!data && len))
		return aieth_fail(AIETH_EINVAL, "aieth_bin_write: %s",
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
	if (write_all(fd, data, len) != 0)
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
