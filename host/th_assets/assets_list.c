/* SPDX-License-Identifier: MIT */
/* assets_list.c - th_assets list: the unpacked releases and the lock file. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "th_assets/th_assets.h"
#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/path.h"

static int ls_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int aieth__assets_list(const char *dest, aieth__assets_list_fn fn, void *ctx)
{
	char *adir = aieth__asx_dest_path(dest, "assets");
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	DIR *dir;
	int rc = 0;
	aieth__error_clear();
	if (!adir)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	dir = opendir(adir);
	if (!dir) {
		free(adir);
		return 0; /* nothing unpacked yet */
	}
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.' || aieth__asx_release_check(d->d_name))
			continue;
		if (AIETH__GROW(names, cap, n + 1, 16, 0)) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			break;
		}
		if (!(names[n] = aieth__strdup(d->d_name))) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(dir);
	aieth__error_clear();
	if (!rc && n)
		qsort(names, n, sizeof *names, ls_cmp);
	for (i = 0; i < n && !rc; i++) {
		char rel[320];
		char *mfp;
		asx_manifest m;
		snprintf(rel, sizeof rel, "%s/%s", names[i], ASX_MANIFEST_NAME);
		mfp = aieth__path_join(adir, rel);
		if (!mfp) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			break;
		}
		if (aieth__asx_manifest_read(mfp, &m) == 0)
			fn(ctx, m.release, m.archive, m.sha256, m.files, m.bytes);
		else
			fn(ctx, names[i], "", "", 0, 0); /* not unpacked by th_assets */
		free(mfp);
	}
	aieth__error_clear();
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(adir);
	return rc;
}

int aieth__assets_lock_list(const char *dest, aieth__assets_lock_fn fn, void *ctx)
{
	char *lp = aieth__asx_dest_path(dest, ASX_LOCK_NAME);
	asx_lock l;
	size_t i;
	int rc;
	aieth__error_clear();
	if (!lp)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	rc = aieth__asx_lock_load(lp, &l);
	free(lp);
	if (rc)
		return rc;
	for (i = 0; i < l.n; i++)
		fn(ctx, l.e[i].file, l.e[i].sha256, l.e[i].url);
	aieth__asx_lock_free(&l);
	return 0;
}
