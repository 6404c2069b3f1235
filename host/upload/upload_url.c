/* SPDX-License-Identifier: MIT */
/*
 * upload_url.c - --upload URLs: squad+http[s]://HOST[/PREFIX]/TEAM/PROJECT/
 * BUILD/ENV, influx+http[s]://HOST[:PORT][/PREFIX]/DB and plain http[s]://
 * webhooks, checked strictly: a URL is copied into spool files and
 * requests, so a user:password@ part, white space or a control character
 * is refused rather than passed on. Credentials are matched by the URL's
 * text (upload_creds.c), so a path must reach the server as written: a
 * "." or ".." segment, which libcurl and servers resolve away, is refused.
 */
#include <stdio.h>
#include <string.h>

#include "upload/upload_internal.h"
#include "util/error.h"
#include "util/text.h"

const char *aieth__up_kind_name(up_kind k)
{
	switch (k) {
	case UP_SQUAD: return "squad";
	case UP_INFLUX: return "influx";
	case UP_WEBHOOK: return "webhook";
	}
	return "?";
}

int aieth__up_segment_ok(const char *s, size_t n)
{
	size_t i;
	if (n == 0 || n >= UP_SEG_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		int alnum =
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && (i == 0 || (c != '_' && c != '.' && c != '-')))
			return 0;
	}
	return 1;
}

const char *aieth__up_dot_segment(const char *path, size_t n, size_t *segn)
{
	const char *s = path, *e = path + n;
	while (s < e) {
		const char *se = memchr(s, '/', (size_t)(e - s)), *p = s;
		size_t len = 0;  /* of the current piece, decoded */
		int dots = 1, k; /* ... which is all dots so far */
		if (!se)
			se = e;
		/* decoded as a server does: %2e is '.', and %2F or %5C (or a
		 * raw '\') split the segment into pieces it may resolve */
		for (;;) {
			int c = -1;
			if (p < se) {
				c = (unsigned char)*p++;
				/* twice: "%252e" is "%2e" to a server, "." to one that
				 * (or whose proxy) decodes again */
				for (k = 0; k < 2 && c == '%' && se - p >= 2 &&
					    aieth__hexval(p[0]) >= 0 && aieth__hexval(p[1]) >= 0;
				     k++) {
					c = aieth__hexval(p[0]) * 16 + aieth__hexval(p[1]);
					p += 2;
				}
			}
			if (c < 0 || c == '/' || c == '\\') {
				if (dots && (len == 1 || len == 2)) {
					*segn = (size_t)(se - s);
					return s;
				}
				if (c < 0)
					break;
				len = 0, dots = 1;
				continue;
			}
			len++;
			dots &= c == '.';
		}
		s = se + 1;
	}
	return NULL;
}

/* The last path segment of [path, end): *seg, *segn; end moves before it. */
static int last_segment(const char *path, const char **end, const char **seg, size_t *segn)
{
	const char *e = *end, *p = e;
	while (p > path && p[-1] != '/')
		p--;
	if (p == path || p == e)
		return -1;
	*seg = p;
	*segn = (size_t)(e - p);
	*end = p - 1;
	return 0;
}

int aieth__up_parse_url(const char *url, up_target *t)
{
	const char *rest, *auth, *path, *end, *seg, *q;
	size_t n, segn, i;
	int https;
	const char *scheme;

	memset(t, 0, sizeof *t);
	if (!url || !*url)
		return aieth__fail(AIETH_EINVAL, "--upload: an empty URL");
	n = strlen(url);
	if (n >= UP_URL_MAX - 64)
		return aieth__fail(AIETH_EINVAL, "--upload: the URL is %zu bytes, the limit is %d",
				   n, UP_URL_MAX - 65);
	for (i = 0; i < n; i++)
		if ((unsigned char)url[i] <= 0x20 || url[i] == 0x7f)
			return aieth__fail(AIETH_EINVAL,
					   "--upload %s: white space or a control "
					   "character at byte %zu (percent-encode it)",
					   url, i);
	if (!strncmp(url, "squad+", 6)) {
		t->kind = UP_SQUAD;
		rest = url + 6;
	} else if (!strncmp(url, "influx+", 7)) {
		t->kind = UP_INFLUX;
		rest = url + 7;
	} else {
		t->kind = UP_WEBHOOK;
		rest = url;
	}
	if (!strncmp(rest, "https://", 8)) {
		https = 1;
		auth = rest + 8;
	} else if (!strncmp(rest, "http://", 7)) {
		https = 0;
		auth = rest + 7;
	} else {
		return aieth__fail(AIETH_EINVAL,
				   "--upload %s: unknown scheme (squad+https://, "
				   "squad+http://, influx+http://, influx+https://, https:// or "
				   "http://)",
				   url);
	}
	scheme = https ? "https://" : "http://";
	path = auth + strcspn(auth, "/?#");
	if (path == auth)
		return aieth__fail(AIETH_EINVAL, "--upload %s: no host", url);
	if (memchr(auth, '@', (size_t)(path - auth)))
		return aieth__fail(AIETH_EINVAL,
				   "--upload: a URL with user:password@ (not repeated "
				   "here) is refused: credentials would show in process lists and "
				   "logs; use --upload-credentials FILE or the environment "
				   "(docs/farm.md)");
	{
		const char *dot;
		size_t dn;
		if ((dot = aieth__up_dot_segment(path, strcspn(path, "?#"), &dn)))
			return aieth__fail(
				AIETH_EINVAL,
				"--upload %s: the path segment \"%.*s\" is \".\" or "
				"\"..\" (also when percent-encoded): libcurl and servers "
				"resolve it, so the request would leave the path its "
				"credentials are matched by; write the path without it",
				url, (int)dn, dot);
	}
	if (t->kind == UP_WEBHOOK) {
		if (strchr(url, '#'))
			return aieth__fail(AIETH_EINVAL, "--upload %s: a fragment (#) is not sent",
					   url);
		snprintf(t->url, sizeof t->url, "%s", url);
		return AIETH_OK;
	}
	if (*path && *path != '/')
		return aieth__fail(AIETH_EINVAL,
				   "--upload %s: no query or fragment allowed in a "
				   "%s URL",
				   url, aieth__up_kind_name(t->kind));
	end = path + strlen(path);
	if (end > path && end[-1] == '/') /* one trailing slash is fine */
		end--;
	if (strpbrk(path, "?#%"))
		return aieth__fail(AIETH_EINVAL,
				   "--upload %s: no query, fragment or "
				   "percent-encoding allowed in a %s URL",
				   url, aieth__up_kind_name(t->kind));
	if (t->kind == UP_INFLUX) {
		if (last_segment(path, &end, &seg, &segn) || !aieth__up_segment_ok(seg, segn))
			return aieth__fail(
				AIETH_EINVAL,
				"--upload %s: expected influx+http://HOST[:PORT]"
				"/DB with DB of [a-zA-Z0-9][a-zA-Z0-9_.-]* (1..%d bytes)",
				url, UP_SEG_MAX - 1);
		memcpy(t->db, seg, segn);
		/* the v1 write API: ms timestamps (two runs in one second stay apart) */
		snprintf(t->url, sizeof t->url, "%s%.*s%.*s/write?db=%s&precision=ms", scheme,
			 (int)(path - auth), auth, (int)(end - path), path, t->db);
		return AIETH_OK;
	}
	{
		char *dst[4] = {t->env, t->build, t->project, t->team};
		static const char *what[4] = {"ENV", "BUILD", "PROJECT", "TEAM"};
		for (i = 0; i < 4; i++) {
			if (last_segment(path, &end, &seg, &segn) ||
			    !aieth__up_segment_ok(seg, segn))
				return aieth__fail(
					AIETH_EINVAL,
					"--upload %s: expected squad+https://"
					"HOST/TEAM/PROJECT/BUILD/ENV; %s must match "
					"[a-zA-Z0-9][a-zA-Z0-9_.-]* (1..%d bytes, SQUAD's rule)",
					url, what[i], UP_SEG_MAX - 1);
			memcpy(dst[i], seg, segn);
		}
	}
	q = end < path ? path : end;
	snprintf(t->url, sizeof t->url, "%s%.*s%.*s/api/submit/%s/%s/%s/%s", scheme,
		 (int)(path - auth), auth, (int)(q - path), path, t->team, t->project, t->build,
		 t->env);
	return AIETH_OK;
}

int aieth__upload_check_url(const char *url)
{
	up_target t;
	int rc = aieth__up_parse_url(url, &t);
	if (!rc)
		aieth__error_clear();
	return rc;
}
