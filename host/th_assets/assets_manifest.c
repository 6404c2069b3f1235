/* SPDX-License-Identifier: MIT */
/*
 * assets_manifest.c - the manifest an unpacked release keeps beside its
 * files (.aieth-manifest.json): where it came from and its hash, for
 * th_assets list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"

#define MF_MAX_BYTES (64u << 10)

int aieth__asx_manifest_write(const char *path, const asx_manifest *m)
{
	struct json_object *o = json_object_new_object();
	const char *s;
	int rc;
	if (!o)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	json_object_object_add(o, "manifest_version", json_object_new_int(1));
	json_object_object_add(o, "release", json_object_new_string(m->release));
	json_object_object_add(o, "archive", json_object_new_string(m->archive));
	json_object_object_add(o, "sha256", json_object_new_string(m->sha256));
	json_object_object_add(o, "files", json_object_new_int64((int64_t)m->files));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)m->bytes));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = s ? aieth__write_atomic(path, s, strlen(s))
	       : aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	json_object_put(o);
	return rc;
}

int aieth__asx_manifest_parse(const char *what, const char *text, size_t len, asx_manifest *m)
{
	static const char *const keys[] = {
		"manifest_version", "release", "archive", "sha256", "files", "bytes", NULL};
	struct json_object *root = NULL;
	const char *rel = NULL, *arc = NULL, *sha = NULL;
	uint32_t ver;
	int rc;
	memset(m, 0, sizeof *m);
	if ((rc = aieth__jstrict_parse_object(what, text, len, MF_MAX_BYTES, &root)))
		return rc;
	if ((rc = aieth__jstrict_keys(what, "", root, keys)) ||
	    (rc = aieth__jstrict_get_u32(what, "", root, "manifest_version", 1, 1, 1, &ver)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "release", 1, &rel)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "archive", 1, &arc)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "sha256", 1, &sha)) ||
	    (rc = aieth__jstrict_get_u64(what, "", root, "files", 1, 0, AIETH_ASSETS_MAX_ENTRIES,
					 &m->files)) ||
	    (rc = aieth__jstrict_get_u64(what, "", root, "bytes", 1, 0, AIETH_ASSETS_MAX_TOTAL,
					 &m->bytes)))
		goto out;
	if (aieth__asx_release_check(rel) || aieth__asx_file_name_check(arc) ||
	    aieth__asx_sha256_norm(sha, m->sha256, "sha256")) {
		rc = aieth__fail_prefix(AIETH_EPARSE, "%s", what);
		goto out;
	}
	snprintf(m->release, sizeof m->release, "%s", rel);
	snprintf(m->archive, sizeof m->archive, "%s", arc);
out:
	json_object_put(root);
	return rc;
}

int aieth__asx_manifest_read(const char *path, asx_manifest *m)
{
	char *text = NULL;
	size_t len = 0;
	int rc = aieth__read_file(path, MF_MAX_BYTES, &text, &len);
	if (!rc)
		rc = aieth__asx_manifest_parse(path, text, len, m);
	free(text);
	return rc;
}
