/* util.c - files, paths and the data directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#ifndef AIETH_DATADIR
#define AIETH_DATADIR "/usr/local/share/aieth"
#endif

const char *aieth_data_dir(const char *explicit_dir)
{
	const char *env;
	if (explicit_dir && *explicit_dir)
		return explicit_dir;
	env = getenv("AIETH_DATA_DIR");
	if (env && *env)
		return env;
	return AIETH_DATADIR;
}

char *aieth_strdup(const char *s)
{
	size_t n;
	char *d;
	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

int aieth_read_file(const char *path, size_t max_bytes, char **out, size_t *len_out)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n;
	int rc;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f)
		return aieth_fail(AIETH_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = aieth_fail(AIETH_EIO, "%s: not a regular file", path);
		goto fail;
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

char *aieth_path_join(const char *dir, const char *rel)
{
	size_t a, b;
	char *p;
	if (!rel)
		return NULL;
	if (rel[0] == '/' || !dir || !*dir)
		return aieth_strdup(rel);
	a = strlen(dir);
	b = strlen(rel);
	p = malloc(a + b + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, a);
	if (a && dir[a - 1] != '/')
		p[a++] = '/';
	memcpy(p + a, rel, b + 1);
	return p;
}

char *aieth_path_dirname(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *d;
	size_t n;
	if (!slash)
		return aieth_strdup(".");
	n = (size_t)(slash - path);
	if (n == 0)
		n = 1; /* "/file" -> "/" */
	d = malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}
