/* SPDX-License-Identifier: MIT */
/* assets_names.c - which names an archive entry, a link, a download may have. */
#include <stdio.h>
#include <string.h>

#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/text.h"

/* Walk the '/'-separated components of s; rule for each. */
static int nm_components(const char *what, const char *name, const char *s, int allow_dot)
{
	char q[96];
	const char *p = s;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			aieth__quote_str(q, sizeof q, name);
			return aieth__fail(
				AIETH_EINVAL,
				"%s \"%s\": a \"..\" component (would leave the target folder)",
				what, q);
		}
		if (n == 1 && p[0] == '.' && !allow_dot) {
			aieth__quote_str(q, sizeof q, name);
			return aieth__fail(AIETH_EINVAL, "%s \"%s\": a \".\" component", what, q);
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static int nm_common(const char *what, const char *name, const char *s)
{
	char q[96];
	size_t i, n = strlen(s);
	aieth__quote_str(q, sizeof q, name);
	if (n == 0)
		return aieth__fail(AIETH_EINVAL, "%s \"%s\": empty", what, q);
	if (n > ASX_NAME_MAX)
		return aieth__fail(AIETH_EINVAL, "%s \"%s\": %zu bytes, at most %u", what, q, n,
				   ASX_NAME_MAX);
	if (s[0] == '/')
		return aieth__fail(AIETH_EINVAL, "%s \"%s\": an absolute path", what, q);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return aieth__fail(AIETH_EINVAL, "%s \"%s\": a control byte 0x%02x", what,
					   q, (unsigned char)s[i]);
	return 0;
}

int aieth__asx_name_check(const char *name)
{
	const char *s = name;
	int rc;
	char q[96];
	/* tar writes "./x" for "tar -C dir ."; the folder itself is "./" */
	while (s[0] == '.' && s[1] == '/')
		s += 2;
	if (!*s && s != name)
		return 0;
	if ((rc = nm_common("archive entry", name, s)))
		return rc;
	if ((rc = nm_components("archive entry", name, s, 0)))
		return rc;
	if (!strcmp(s, ASX_MANIFEST_NAME) ||
	    !strncmp(s, ASX_MANIFEST_NAME "/", sizeof ASX_MANIFEST_NAME)) {
		aieth__quote_str(q, sizeof q, name);
		return aieth__fail(
			AIETH_EINVAL,
			"archive entry \"%s\": the name th_assets keeps for its manifest", q);
	}
	return 0;
}

int aieth__asx_link_check(const char *name, const char *target)
{
	char q[96], w[128];
	int rc;
	aieth__quote_str(q, sizeof q, name);
	snprintf(w, sizeof w, "symbolic link \"%s\" -> target", q);
	if ((rc = nm_common(w, target, target)))
		return rc;
	return nm_components(w, target, target, 1);
}

static int nm_plain(const char *what, const char *s, size_t max)
{
	char q[96];
	size_t i, n = strlen(s);
	aieth__quote_str(q, sizeof q, s);
	if (n == 0 || n > max || s[0] == '.')
		return aieth__fail(AIETH_EINVAL, "%s \"%s\": 1 to %zu bytes, not starting with '.'",
				   what, q, max);
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-' || c == '+'))
			return aieth__fail(
				AIETH_EINVAL,
				"%s \"%s\": only letters, digits and . _ - + are allowed", what, q);
	}
	return 0;
}

int aieth__asx_file_name_check(const char *file) { return nm_plain("file name", file, 255); }

int aieth__asx_release_check(const char *release) { return nm_plain("release", release, 64); }

int aieth__asx_url_file_name(const char *url, char *out, size_t cap)
{
	char q[96];
	const char *p, *end, *slash;
	size_t n;
	aieth__quote_str(q, sizeof q, url);
	if (!strncmp(url, "https://", 8))
		p = url + 8;
	else if (!strncmp(url, "http://", 7))
		p = url + 7;
	else
		return aieth__fail(AIETH_EINVAL, "URL %s: only http:// and https:// are fetched",
				   q);
	end = p + strcspn(p, "?#");
	slash = NULL;
	for (const char *c = p; c < end; c++)
		if (*c == '/')
			slash = c;
	if (!slash || slash + 1 >= end)
		return aieth__fail(AIETH_EINVAL, "URL %s: no file name at the end of its path", q);
	n = (size_t)(end - slash - 1);
	if (n >= cap)
		return aieth__fail(AIETH_EINVAL, "URL %s: file name longer than %zu bytes", q,
				   cap - 1);
	memcpy(out, slash + 1, n);
	out[n] = 0;
	return aieth__asx_file_name_check(out);
}

int aieth__asx_sha256_norm(const char *hex, char out[65], const char *what)
{
	char q[96];
	size_t i;
	for (i = 0; i < 64; i++) {
		char c = hex[i];
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			break;
		out[i] = c;
	}
	if (i != 64 || hex[64]) {
		aieth__quote_str(q, sizeof q, hex);
		out[0] = 0;
		return aieth__fail(AIETH_EINVAL, "%s \"%s\": a sha256 is 64 hex digits", what, q);
	}
	out[64] = 0;
	return 0;
}
