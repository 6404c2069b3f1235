/* SPDX-License-Identifier: MIT */
/* path.c - paths, the data directory, string copies. */
#include <stdlib.h>
#include <string.h>

#include "util/path.h"

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
