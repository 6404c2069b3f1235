/* SPDX-License-Identifier: MIT */
/*
 * assets_verify.c - the one rule of every install: a file matches every
 * hash known for it, and a file no one knows a hash for has its hash
 * recorded in the lock file, which enforces it from then on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/path.h"

static int vf_check_record(const char *lock_path, const char *file, const char *found,
			   const char *expected, const char *url, const char *release,
			   int check_only, int *recorded);

int aieth__asx_verify_and_lock(const char *lock_path, const char *file, const char *found,
			       const char *expected, const char *expected_what, const char *url,
			       const char *release, int check_only, int *recorded)
{
	int rc;
	char *guard;
	int gfd;
	*recorded = 0;
	if (expected && *expected && strcmp(expected, found))
		return aieth__fail(AIETH_EINVAL, "%s: sha256 mismatch: expected %s (%s), found %s",
				   file, expected, expected_what, found);
	/* two th_assets at once: the read-check-write of the lock is one step */
	guard = malloc(strlen(lock_path) + 5);
	if (!guard)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	sprintf(guard, "%s.lck", lock_path);
	gfd = open(guard, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (gfd < 0 || flock(gfd, LOCK_EX) != 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot lock: %s", guard, strerror(errno));
		if (gfd >= 0)
			close(gfd);
		free(guard);
		return rc;
	}
	free(guard);
	rc = vf_check_record(lock_path, file, found, expected, url, release, check_only, recorded);
	close(gfd);
	return rc;
}

static int vf_check_record(const char *lock_path, const char *file, const char *found,
			   const char *expected, const char *url, const char *release,
			   int check_only, int *recorded)
{
	asx_lock l;
	const asx_lock_entry *e;
	int rc;
	if ((rc = aieth__asx_lock_load(lock_path, &l)))
		return rc;
	e = aieth__asx_lock_find(&l, file);
	if (e && strcmp(e->sha256, found)) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: sha256 mismatch: expected %s (recorded in %s), found %s",
				 file, e->sha256, lock_path, found);
	} else if (!e) {
		/* every install is in the lock: a known hash is kept there too */
		*recorded = !(expected && *expected);
		if (!check_only && !(rc = aieth__asx_lock_add(&l, file, found, url, release)))
			rc = aieth__asx_lock_save(lock_path, &l);
	}
	aieth__asx_lock_free(&l);
	return rc;
}

char *aieth__asx_dest_path(const char *dest, const char *rel)
{
	return aieth__path_join(aieth__data_dir(dest), rel);
}

int aieth__asx_mkdirs(const char *path)
{
	char *p = aieth__strdup(path), *s;
	struct stat st;
	int rc = 0;
	if (!p)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	for (s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != 0)
			continue;
		*s = 0;
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			rc = aieth__fail(AIETH_EIO, "%s: cannot create folder: %s", p,
					 strerror(errno));
			break;
		}
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
			rc = aieth__fail(AIETH_EIO, "%s: not a folder", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

int aieth__asx_expected_hash(const asx_release *rel, const char *sha256_opt, char expected[65],
			     const char **what)
{
	char h[65];
	int rc;
	*expected = 0;
	*what = "";
	if (*rel->sha256) {
		memcpy(expected, rel->sha256, 65);
		*what = "cfg/assets.json";
	}
	if (!sha256_opt)
		return AIETH_OK;
	if ((rc = aieth__asx_sha256_norm(sha256_opt, h, "--sha256")))
		return rc;
	if (*expected && strcmp(h, expected))
		return aieth__fail(AIETH_EINVAL,
				   "--sha256 %s: cfg/assets.json says %s for release %s", h,
				   expected, rel->release);
	memcpy(expected, h, 65);
	*what = "--sha256";
	return AIETH_OK;
}
