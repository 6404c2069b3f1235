/* SPDX-License-Identifier: MIT */
/*
 * assets_xsa.c - the test harness XSA of a board among the releases
 * th_assets unpacked: th_package's default for --xsa. Only folders with
 * th_assets' manifest count (a folder put there by hand is not trusted to
 * be AMD's release).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "th_assets/th_assets.h"
#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/path.h"

/* Releases compare as dot-separated numbers ("2025.2" < "2026.1" <
 * "2026.10"); a part that is not a number compares as text. */
static int release_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea, b = eb;
		} else {
			if (*a != *b)
				return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
			a++, b++;
		}
	}
	return *a ? 1 : *b ? -1 : 0;
}

typedef struct {
	const char *dest, *file;
	char best[65];
	int has_default, count, failed;
} pick;

/* DEST/assets/<release>/<file>, allocated (NULL: out of memory). A release
 * passed aieth__asx_release_check (at most 64 bytes) and the file is a board's
 * name (at most 64) with a fixed suffix, so rel always fits. */
static char *xsa_path(const char *dest, const char *release, const char *file)
{
	char rel[256];
	snprintf(rel, sizeof rel, "assets/%s/%s", release, file);
	return aieth__asx_dest_path(dest, rel);
}

static int is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void consider(void *ctx, const char *release, const char *archive, const char *sha256,
		     uint64_t files, uint64_t bytes)
{
	pick *k = ctx;
	char *p;
	int h;
	(void)sha256, (void)files, (void)bytes;
	if (!*archive || strlen(release) >= sizeof k->best)
		return; /* no manifest: not unpacked by th_assets */
	if (!(p = xsa_path(k->dest, release, k->file))) {
		k->failed = 1;
		return;
	}
	h = is_regular(p);
	free(p);
	if (!h)
		return;
	k->count++;
	if (!strcmp(release, AIETH_ASSETS_DEFAULT_RELEASE))
		k->has_default = 1;
	if (!k->best[0] || release_cmp(release, k->best) > 0)
		snprintf(k->best, sizeof k->best, "%s", release);
}

int aieth__assets_find_xsa(const char *dest, const char *board, const char *release, char *path,
			   size_t path_size, char *release_out, size_t release_size)
{
	char file[128];
	char *p, *adir;
	pick k;
	int rc;

	aieth__error_clear();
	if (!board || !*board || strlen(board) > 64 || strchr(board, '/'))
		return aieth__fail(AIETH_EINVAL, "board name \"%s\": expected a board's name",
				   board ? board : "");
	snprintf(file, sizeof file, "%s_test_harness.xsa", board);
	if (release && (rc = aieth__asx_release_check(release)))
		return rc; /* its message names the release and the rule */
	memset(&k, 0, sizeof k);
	k.dest = dest;
	k.file = file;
	if (release) {
		snprintf(k.best, sizeof k.best, "%s", release);
	} else {
		if ((rc = aieth__assets_list(dest, consider, &k)))
			return rc;
		if (k.failed)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		if (!k.count) {
			adir = aieth__asx_dest_path(dest, "assets");
			rc = aieth__fail(
				AIETH_ENOTFOUND,
				"no %s in any release under %s/ (th_assets fetch && th_assets "
				"unpack put AMD's release there); pass --xsa FILE",
				file, adir ? adir : "assets");
			free(adir);
			return rc;
		}
		if (k.has_default) /* the release this version was made for wins */
			snprintf(k.best, sizeof k.best, "%s", AIETH_ASSETS_DEFAULT_RELEASE);
	}
	if (!(p = xsa_path(dest, k.best, file)))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (release && !is_regular(p)) {
		rc = aieth__fail(
			AIETH_ENOTFOUND,
			"%s: no such file; unpack release %s with 'th_assets fetch "
			"--release %s && th_assets unpack --release %s', or pass --xsa FILE",
			p, release, release, release);
		free(p);
		return rc;
	}
	if (strlen(p) >= path_size || strlen(k.best) >= release_size) {
		rc = aieth__fail(AIETH_EINVAL, "%s: path too long (limit %zu bytes)", p,
				 path_size - 1);
		free(p);
		return rc;
	}
	memcpy(path, p, strlen(p) + 1);
	memcpy(release_out, k.best, strlen(k.best) + 1);
	free(p);
	return AIETH_OK;
}
