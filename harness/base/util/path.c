/* SPDX-License-Identifier: MIT */
/* path.c - paths, the data directory, string copies. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/path.h"

#ifndef AIETH_DATADIR
#define AIETH_DATADIR "/usr/local/share/aieth"
#endif

/* The data directory found next to the program or the library, once per
 * process ("" when neither has one). */
static char next_to[PATH_MAX + 32];
static pthread_once_t next_to_once = PTHREAD_ONCE_INIT;

/* dir/rel (resolved) holds board files: copy it into next_to. */
static int try_dir(const char *dir, const char *rel)
{
	char joined[PATH_MAX + 32], real[PATH_MAX];
	struct stat st;
	if (snprintf(joined, sizeof joined, "%s/%s", dir, rel) >= (int)sizeof joined ||
	    !realpath(joined, real) ||
	    snprintf(next_to, sizeof next_to, "%s/platforms", real) >= (int)sizeof next_to ||
	    stat(next_to, &st) != 0 || !S_ISDIR(st.st_mode)) {
		next_to[0] = '\0';
		return 0;
	}
	strcpy(next_to, real);
	return 1;
}

/* The folder of file (resolved), then <it>/../share/aieth (installed:
 * PREFIX/bin, PREFIX/lib) or <it>/../.. (a build folder of the source tree:
 * build/bin, build/lib, build/tests). */
static int try_next_to(const char *file)
{
	char real[PATH_MAX], *slash;
	if (!file || !realpath(file, real) || !(slash = strrchr(real, '/')))
		return 0;
	*slash = '\0';
	return try_dir(real, "../share/aieth") || try_dir(real, "../..");
}

static void find_next_to(void)
{
	Dl_info info;
	if (try_next_to("/proc/self/exe"))
		return;
	/* a program elsewhere using the shared library (python3, a client) */
	memset(&info, 0, sizeof info);
	if (dladdr((void *)&find_next_to, &info) && info.dli_fname && info.dli_fname[0] == '/')
		try_next_to(info.dli_fname);
}

const char *aieth__data_dir(const char *explicit_dir)
{
	const char *env;
	if (explicit_dir && *explicit_dir)
		return explicit_dir;
	env = getenv("AIETH_DATA_DIR");
	if (env && *env)
		return env;
	pthread_once(&next_to_once, find_next_to);
	return next_to[0] ? next_to : AIETH_DATADIR;
}

char *aieth__strdup(const char *s)
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

char *aieth__path_join(const char *dir, const char *rel)
{
	size_t a, b;
	char *p;
	if (!rel)
		return NULL;
	if (rel[0] == '/' || !dir || !*dir)
		return aieth__strdup(rel);
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

char *aieth__path_dirname(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *d;
	size_t n;
	if (!slash)
		return aieth__strdup(".");
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

int aieth__name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

int aieth__name_ok(const char *name, size_t max)
{
	size_t i;
	for (i = 0; name[i]; i++)
		if (i >= max || !aieth__name_char((unsigned char)name[i]))
			return 0;
	return i > 0 && name[0] != '.';
}
