/* SPDX-License-Identifier: MIT */
/*
 * assets_cfg.c - cfg/assets.json: AMD's releases of the precompiled assets.
 *
 *   {"releases": {"2026.1": {"url": "https://...", "file": "x.tar.gz",
 *                            "sha256": null | "<64 hex>"}}}
 *
 * "sha256": null says AMD publishes no hash for that release (so the hash is
 * recorded in the lock file on first download); never a guessed value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"

#define CF_MAX_BYTES (1u << 20)

static int cf_entry(const char *what, const char *name, struct json_object *o, asx_release *r)
{
	static const char *const keys[] = {"url", "file", "sha256", "note", NULL};
	char path[96], fname[256], norm[65];
	const char *url = NULL, *file = NULL, *note = NULL;
	struct json_object *sha;
	int rc;
	snprintf(path, sizeof path, "releases.%.64s", name);
	if (aieth__asx_release_check(name))
		return aieth__fail_prefix(AIETH_EPARSE, "%s: releases", what);
	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "url", 1, &url)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "file", 1, &file)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "note", 0, &note)))
		return rc;
	if (aieth__asx_url_file_name(url, fname, sizeof fname) || aieth__asx_file_name_check(file))
		return aieth__fail_prefix(AIETH_EPARSE, "%s: %s", what, path);
	if (!json_object_object_get_ex(o, "sha256", &sha))
		return aieth__fail(AIETH_EPARSE, "%s: %s.sha256: missing (null when not known)",
				   what, path);
	if (sha && !json_object_is_type(sha, json_type_string))
		return aieth__fail(AIETH_EPARSE, "%s: %s.sha256: expected a string or null", what,
				   path);
	if (sha && aieth__asx_sha256_norm(json_object_get_string(sha), norm, "sha256"))
		return aieth__fail_prefix(AIETH_EPARSE, "%s: %s", what, path);
	if (!r)
		return 0;
	memset(r, 0, sizeof *r);
	if (sha)
		memcpy(r->sha256, norm, sizeof r->sha256);
	snprintf(r->release, sizeof r->release, "%s", name);
	snprintf(r->file, sizeof r->file, "%s", file);
	r->url = aieth__strdup(url);
	return r->url ? 0 : aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
}

int aieth__asx_cfg_parse(const char *what, const char *text, size_t len, const char *release,
			 const char *file, asx_release *out)
{
	static const char *const keys[] = {"releases", "comment", NULL};
	struct json_object *root = NULL, *rels = NULL;
	const char *comment = NULL;
	char known[256] = "";
	int rc, found = 0;
	memset(out, 0, sizeof *out);
	if ((rc = aieth__jstrict_parse_object(what, text, len, CF_MAX_BYTES, &root)))
		return rc;
	if ((rc = aieth__jstrict_keys(what, "", root, keys)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "comment", 0, &comment)) ||
	    (rc = aieth__jstrict_get_object(what, "", root, "releases", 1, &rels)))
		goto out;
	/* every entry is checked, not only the one asked for */
	json_object_object_foreach(rels, k, v)
	{
		int match = release ? !strcmp(k, release) : 0;
		if ((rc = cf_entry(what, k, v, NULL)))
			goto out;
		if (!match && !release && file) {
			const char *f = NULL;
			aieth__jstrict_get_string(what, "", v, "file", 1, &f);
			match = f && !strcmp(f, file);
		}
		if (match && !found) {
			if ((rc = cf_entry(what, k, v, out)))
				goto out;
			found = 1;
		}
		if (strlen(known) + strlen(k) + 3 < sizeof known)
			snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
				 *known ? ", " : "", k);
	}
	if (!found)
		rc = release ? aieth__fail(AIETH_ENOTFOUND, "%s: no release \"%.64s\" (known: %s)",
					   what, release, known)
			     : aieth__fail(AIETH_ENOTFOUND, "%s: no release with file \"%.255s\"",
					   what, file ? file : "");
out:
	json_object_put(root);
	if (rc)
		aieth__asx_release_free(out);
	return rc;
}

int aieth__asx_cfg_find(const char *data_dir, const char *release, const char *file,
			asx_release *out)
{
	char *path = aieth__path_join(aieth__data_dir(data_dir), "cfg/assets.json"), *text = NULL;
	size_t len = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if ((rc = aieth__read_file(path, CF_MAX_BYTES, &text, &len)) == 0)
		rc = aieth__asx_cfg_parse(path, text, len, release, file, out);
	free(text);
	free(path);
	return rc;
}

void aieth__asx_release_free(asx_release *r)
{
	free(r->url);
	r->url = NULL;
}
