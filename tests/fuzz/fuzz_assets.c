/* SPDX-License-Identifier: MIT */
/*
 * fuzz_assets.c - libFuzzer target for th_assets' readers (harness/src/
 * assets/): the lock file, cfg/assets.json, the manifest, and the archive
 * entry name / link target rules.
 *
 * The same input goes to every reader. Checked invariants: on success
 * every lock entry has a valid file name and a 64-digit lower-case hash
 * and is found by name; a cfg release has a valid file name and a hash that
 * is empty or 64 digits; a name that passes the entry rule has no ".."
 * component and is not absolute. On failure: a message, and nothing kept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "th_assets/assets_internal.h"
#include "fuzz_check.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int is_hash(const char *h)
{
	size_t i;
	for (i = 0; i < 64; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return 0;
	return h[64] == 0;
}

static void names(const char *s)
{
	if (aieth__asx_name_check(s) == 0) {
		const char *p = s;
		CHECK(s[0] != '/');
		while ((p = strstr(p, "..")) != NULL) {
			CHECK(!((p == s || p[-1] == '/') && (p[2] == 0 || p[2] == '/')));
			p += 2;
		}
	} else {
		CHECK(*aieth_error_message());
	}
	if (aieth__asx_link_check("l", s) == 0)
		CHECK(s[0] != '/' && strcmp(s, "..") && strncmp(s, "../", 3));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	asx_lock l;
	asx_release r;
	asx_manifest m;
	size_t i;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	if (aieth__asx_lock_parse("lock", text, size, &l) == 0) {
		for (i = 0; i < l.n; i++) {
			CHECK(aieth__asx_file_name_check(l.e[i].file) == 0);
			CHECK(is_hash(l.e[i].sha256));
			CHECK(aieth__asx_lock_find(&l, l.e[i].file) == &l.e[i]);
		}
		aieth__asx_lock_free(&l);
	} else {
		CHECK(*aieth_error_message());
		CHECK(l.n == 0 && l.e == NULL);
	}
	if (aieth__asx_cfg_parse("cfg", text, size, "2026.1", NULL, &r) == 0) {
		CHECK(aieth__asx_file_name_check(r.file) == 0);
		CHECK(r.sha256[0] == 0 || is_hash(r.sha256));
		CHECK(r.url && (!strncmp(r.url, "https://", 8) || !strncmp(r.url, "http://", 7)));
		aieth__asx_release_free(&r);
	} else {
		CHECK(*aieth_error_message());
		CHECK(r.url == NULL);
	}
	if (aieth__asx_manifest_parse("manifest", text, size, &m) == 0)
		CHECK(is_hash(m.sha256) && aieth__asx_release_check(m.release) == 0);
	names(text);
	free(text);
	return 0;
}
