/* SPDX-License-Identifier: MIT */
/*
 * assets_lock.c - the lock file: the sha256 of every archive th_assets has
 * installed, so a hash recorded once is enforced from then on.
 *
 *   {"lock_version": 1,
 *    "files": {"<file>": {"sha256": "<64 hex>", "url": "...", "release": "..."}}}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/json_strict.h"
#include "util/path.h"

static int lk_entry(const char *what, asx_lock *l, const char *file, struct json_object *o)
{
	static const char *const keys[] = {"sha256", "url", "release", NULL};
	char path[320];
	const char *sha = NULL, *url = "", *rel = "";
	char norm[65];
	int rc;
	snprintf(path, sizeof path, "files.%.255s", file);
	if ((rc = aieth__asx_file_name_check(file)))
		return aieth__fail_prefix(AIETH_EPARSE, "%s: files", what);
	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "sha256", 1, &sha)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "url", 0, &url)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "release", 0, &rel)))
		return rc;
	if (aieth__asx_sha256_norm(sha, norm, "sha256"))
		return aieth__fail_prefix(AIETH_EPARSE, "%s: %s", what, path);
	if (aieth__asx_lock_find(l, file))
		return aieth__fail(AIETH_EPARSE, "%s: %s: listed twice", what, path);
	return aieth__asx_lock_add(l, file, norm, url, rel);
}

int aieth__asx_lock_parse(const char *what, const char *text, size_t len, asx_lock *out)
{
	static const char *const keys[] = {"lock_version", "files", NULL};
	struct json_object *root = NULL, *files = NULL;
	uint32_t ver = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if ((rc = aieth__jstrict_parse_object(what, text, len, ASX_LOCK_MAX_BYTES, &root)))
		return rc;
	if ((rc = aieth__jstrict_keys(what, "", root, keys)) ||
	    (rc = aieth__jstrict_get_u32(what, "", root, "lock_version", 1, 1, 1, &ver)) ||
	    (rc = aieth__jstrict_get_object(what, "", root, "files", 1, &files)))
		goto out;
	if (json_object_object_length(files) > (int)ASX_LOCK_MAX_ENTRIES) {
		rc = aieth__fail(AIETH_EPARSE, "%s: files: %d entries, at most %u", what,
				 json_object_object_length(files), ASX_LOCK_MAX_ENTRIES);
		goto out;
	}
	json_object_object_foreach(files, k, v)
	{
		if ((rc = lk_entry(what, out, k, v)))
			goto out;
	}
out:
	json_object_put(root);
	if (rc)
		aieth__asx_lock_free(out);
	return rc;
}

int aieth__asx_lock_load(const char *path, asx_lock *out)
{
	char *text = NULL;
	size_t len = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if (access(path, F_OK) != 0)
		return 0;
	if ((rc = aieth__read_file(path, ASX_LOCK_MAX_BYTES, &text, &len)))
		return rc;
	rc = aieth__asx_lock_parse(path, text, len, out);
	free(text);
	return rc;
}

int aieth__asx_lock_save(const char *path, const asx_lock *l)
{
	struct json_object *root = json_object_new_object(), *files = json_object_new_object();
	const char *s;
	size_t i;
	int rc;
	if (!root || !files) {
		json_object_put(root);
		json_object_put(files);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	json_object_object_add(root, "lock_version", json_object_new_int(1));
	json_object_object_add(root, "files", files);
	for (i = 0; i < l->n; i++) {
		struct json_object *e = json_object_new_object();
		if (!e)
			break;
		json_object_object_add(e, "sha256", json_object_new_string(l->e[i].sha256));
		json_object_object_add(e, "url", json_object_new_string(l->e[i].url));
		json_object_object_add(e, "release", json_object_new_string(l->e[i].release));
		json_object_object_add(files, l->e[i].file, e);
	}
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (i < l->n || !s) {
		json_object_put(root);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	{
		size_t n = strlen(s);
		char *buf = malloc(n + 2);
		if (!buf) {
			json_object_put(root);
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
		}
		memcpy(buf, s, n);
		buf[n] = '\n';
		rc = aieth__write_atomic(path, buf, n + 1);
		free(buf);
	}
	json_object_put(root);
	return rc;
}

const asx_lock_entry *aieth__asx_lock_find(const asx_lock *l, const char *file)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].file, file))
			return &l->e[i];
	return NULL;
}

int aieth__asx_lock_add(asx_lock *l, const char *file, const char *sha256, const char *url,
			const char *release)
{
	asx_lock_entry *e;
	if (l->n >= ASX_LOCK_MAX_ENTRIES)
		return aieth__fail(AIETH_EINVAL, "lock file: %u entries at most",
				   ASX_LOCK_MAX_ENTRIES);
	if (AIETH__GROW(l->e, l->cap, l->n + 1, 8, 0))
		return aieth__fail(AIETH_ENOMEM, "lock file: out of memory");
	e = &l->e[l->n];
	memset(e, 0, sizeof *e);
	e->file = aieth__strdup(file);
	e->url = aieth__strdup(url ? url : "");
	e->release = aieth__strdup(release ? release : "");
	snprintf(e->sha256, sizeof e->sha256, "%s", sha256);
	if (!e->file || !e->url || !e->release) {
		free(e->file);
		free(e->url);
		free(e->release);
		return aieth__fail(AIETH_ENOMEM, "lock file: out of memory");
	}
	l->n++;
	return 0;
}

void aieth__asx_lock_free(asx_lock *l)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		free(l->e[i].file);
		free(l->e[i].url);
		free(l->e[i].release);
	}
	free(l->e);
	memset(l, 0, sizeof *l);
}
