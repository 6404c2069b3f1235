/* SPDX-License-Identifier: MIT */
/*
 * upload_creds.c - where upload credentials come from: never the command
 * line. A credentials file (one "URL-PREFIX token TOKEN" or "URL-PREFIX
 * basic USER:PASSWORD" per line, '#' comments; a line applies to an
 * --upload URL of the same scheme, host and port whose path starts with the
 * prefix's whole path segments, the most segments winning; neither may
 * have a "." or ".." segment, which would be resolved before it is sent)
 * that others may not read, then per-kind variables
 * (AIETH_SQUAD_TOKEN, AIETH_INFLUX_TOKEN, AIETH_WEBHOOK_TOKEN), then
 * AIETH_UPLOAD_TOKEN. Messages name the file and line, never a value.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "upload/upload_internal.h"
#include "util/error.h"
#include "util/fileio.h"

#define CREDS_FILE_MAX (1u << 20)

/* The next white-space separated word of [*p, end) on this line. */
static size_t word(const char **p, const char *end, const char **w)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	*w = *p;
	while (*p < end && **p != ' ' && **p != '\t')
		(*p)++;
	return (size_t)(*p - *w);
}

/* A URL cut into what credentials are matched by. */
typedef struct {
	const char *scheme, *host, *path;
	size_t sl, hl, pl;
	unsigned port;
} cred_url;

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int same_nocase(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i;
	if (an != bn)
		return 0;
	for (i = 0; i < an; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* Split [s, s+n) as SCHEME://HOST[:PORT][/PATH][?...]: the port defaults
 * by scheme (…https 443, …http 80), the path leaves out the query. A
 * prefix (is_prefix) may hold no query or fragment. 0, or -1 with *why. */
static int cred_url_split(const char *s, size_t n, int is_prefix, cred_url *u, const char **why)
{
	const char *e = s + n, *a = NULL, *ae, *p, *c;
	unsigned long port = 0;

	memset(u, 0, sizeof *u);
	for (p = s; p + 3 <= e; p++)
		if (p[0] == ':' && p[1] == '/' && p[2] == '/') {
			a = p + 3;
			break;
		}
	if (!a || p == s)
		return *why = "no SCHEME://", -1;
	u->scheme = s;
	u->sl = (size_t)(p - s);
	if (u->sl >= 5 && same_nocase(p - 5, 5, "https", 5))
		port = 443;
	else if (u->sl >= 4 && same_nocase(p - 4, 4, "http", 4))
		port = 80;
	else
		return *why = "the scheme is not http or https (with squad+ or influx+)", -1;
	for (ae = a; ae < e && *ae != '/' && *ae != '?' && *ae != '#'; ae++)
		if (*ae == '@')
			return *why = "a user:password@ part", -1;
	if (*a == '[') { /* an IPv6 address */
		for (c = a; c < ae && *c != ']'; c++)
			;
		if (c == ae)
			return *why = "an IPv6 address without ]", -1;
		c++;
	} else {
		for (c = a; c < ae && *c != ':'; c++)
			;
	}
	u->host = a;
	u->hl = (size_t)(c - a);
	if (!u->hl)
		return *why = "no host", -1;
	if (c < ae) {
		if (*c != ':' || c + 1 == ae)
			return *why = "a bad port", -1;
		for (port = 0, c++; c < ae; c++) {
			if (*c < '0' || *c > '9' ||
			    (port = port * 10 + (unsigned long)(*c - '0')) > 65535)
				return *why = "a bad port", -1;
		}
		if (!port)
			return *why = "a bad port", -1;
	}
	u->port = (unsigned)port;
	for (p = ae; p < e && *p != '?' && *p != '#'; p++)
		;
	if (is_prefix && p != e)
		return *why = "a query or fragment", -1;
	u->path = ae;
	u->pl = (size_t)(p - ae);
	return 0;
}

/* How well the line's prefix pre matches the target: 0 not at all, else 1
 * + the number of whole path segments of the prefix (the target's path
 * starts with them: "/team" matches "/team/p" and "/team", not "/teamX"). */
static size_t cred_url_match(const cred_url *pre, const cred_url *t)
{
	const char *pp = pre->path, *tp = t->path;
	size_t pl = pre->pl, tl = t->pl, i, segs;

	if (!same_nocase(pre->scheme, pre->sl, t->scheme, t->sl) ||
	    !same_nocase(pre->host, pre->hl, t->host, t->hl) || pre->port != t->port)
		return 0;
	if (pl && *pp == '/')
		pp++, pl--;
	if (pl && pp[pl - 1] == '/') /* one trailing slash: the same prefix */
		pl--;
	if (tl && *tp == '/')
		tp++, tl--;
	if (!pl)
		return 1;
	if (tl < pl || memcmp(pp, tp, pl) || (tl > pl && tp[pl] != '/'))
		return 0;
	for (segs = 1, i = 0; i < pl; i++)
		segs += pp[i] == '/';
	return 1 + segs;
}

/* The target's path goes to the server as matched: never one that libcurl
 * or the server resolves to another path (aieth__up_parse_url refuses such a URL
 * already; checked again here, where credentials depend on it). */
static int target_ok(const char *what, const cred_url *tu, const char *target)
{
	size_t dn;
	if (aieth__up_dot_segment(tu->path, tu->pl, &dn))
		return aieth__fail(AIETH_EINVAL,
				   "%s: no credentials for %s: its path has a \".\" or \"..\" "
				   "segment",
				   what, target);
	return AIETH_OK;
}

int aieth__up_creds_parse(const char *text, size_t len, const char *what, const char *target,
			  up_cred *out)
{
	const char *p = text, *end = text + len, *why = NULL;
	size_t best = 0, lineno = 0;
	cred_url tu;
	int have_target, rc;

	memset(out, 0, sizeof *out);
	have_target = target && !cred_url_split(target, strlen(target), 0, &tu, &why);
	if (have_target && (rc = target_ok(what, &tu, target)))
		return rc;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *pre, *type, *val, *extra, *q, *dot;
		size_t pl, tl, vl, i, score, dn;
		cred_url pu;
		lineno++;
		if (le > p && le[-1] == '\r')
			le--;
		for (q = p; q < le; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f)
				return aieth__fail(AIETH_EPARSE, "%s:%zu: a control character",
						   what, lineno);
		q = p;
		pl = word(&q, le, &pre);
		if (!pl || *pre == '#')
			goto next;
		tl = word(&q, le, &type);
		vl = word(&q, le, &val);
		if (word(&q, le, &extra) || !vl ||
		    !((tl == 5 && !memcmp(type, "token", 5)) ||
		      (tl == 5 && !memcmp(type, "basic", 5))))
			return aieth__fail(AIETH_EPARSE,
					   "%s:%zu: expected 'URL-PREFIX token TOKEN' or "
					   "'URL-PREFIX basic USER:PASSWORD'",
					   what, lineno);
		if (vl >= UP_CRED_MAX)
			return aieth__fail(AIETH_EPARSE,
					   "%s:%zu: the credential is %zu bytes, the "
					   "limit is %d",
					   what, lineno, vl, UP_CRED_MAX - 1);
		if (type[0] == 'b' && !memchr(val, ':', vl))
			return aieth__fail(AIETH_EPARSE, "%s:%zu: basic needs USER:PASSWORD", what,
					   lineno);
		for (i = 0; i < vl; i++)
			if ((unsigned char)val[i] > 0x7e)
				return aieth__fail(AIETH_EPARSE,
						   "%s:%zu: the credential must be "
						   "printable ASCII",
						   what, lineno);
		if (cred_url_split(pre, pl, 1, &pu, &why))
			return aieth__fail(AIETH_EPARSE,
					   "%s:%zu: the URL-PREFIX is not SCHEME://HOST"
					   "[:PORT][/PATH] (%s)",
					   what, lineno, why);
		/* the prefix is compared as text with a target that has no dot
		 * segment (upload_url.c): one with a dot segment names a path
		 * other than it seems to */
		if ((dot = aieth__up_dot_segment(pu.path, pu.pl, &dn)))
			return aieth__fail(AIETH_EPARSE,
					   "%s:%zu: the URL-PREFIX's path segment \"%.*s\" is "
					   "\".\" or \"..\" (also when percent-encoded): a server "
					   "resolves it; write the path without it",
					   what, lineno, (int)dn, dot);
		/* matched by scheme, host, port, then whole path segments (never
		 * by bytes: a token for http://10.0.0.1 must not go to
		 * http://10.0.0.12); the most segments win, a tie: the first line */
		score = have_target ? cred_url_match(&pu, &tu) : 0;
		if (score > best) {
			best = score;
			out->type = type[0] == 'b' ? UP_CRED_BASIC : UP_CRED_TOKEN;
			memcpy(out->value, val, vl);
			out->value[vl] = '\0';
		}
	next:
		p = nl ? nl + 1 : end;
	}
	return AIETH_OK;
}

static int from_env(const char *name, up_cred *out)
{
	const char *v = getenv(name);
	size_t n;
	if (!v || !*v)
		return 0;
	n = strlen(v);
	if (n >= UP_CRED_MAX || strpbrk(v, " \t\r\n"))
		return aieth__fail(AIETH_EINVAL,
				   "$%s: one token of 1..%d bytes without white space "
				   "is needed",
				   name, UP_CRED_MAX - 1);
	out->type = UP_CRED_TOKEN;
	memcpy(out->value, v, n + 1);
	return 1;
}

int aieth__up_creds_find(const char *file, const char *target, up_kind kind, up_cred *out)
{
	static const char *per_kind[] = {NULL, "AIETH_SQUAD_TOKEN", "AIETH_INFLUX_TOKEN",
					 "AIETH_WEBHOOK_TOKEN"};
	const char *why = NULL;
	cred_url tu;
	int rc;
	memset(out, 0, sizeof *out);
	if (target && !cred_url_split(target, strlen(target), 0, &tu, &why) &&
	    (rc = target_ok("upload credentials", &tu, target)))
		return rc;
	if (file) {
		struct stat st;
		char *text = NULL;
		size_t len = 0;
		if (stat(file, &st))
			return aieth__fail(AIETH_EIO, "--upload-credentials %s: cannot be read",
					   file);
		if (st.st_mode & (S_IROTH | S_IWOTH))
			return aieth__fail(AIETH_EINVAL,
					   "--upload-credentials %s: others may read or "
					   "write it (mode %03o): chmod 600 it",
					   file, (unsigned)(st.st_mode & 0777));
		if ((rc = aieth__read_file(file, CREDS_FILE_MAX, &text, &len)))
			return rc;
		rc = aieth__up_creds_parse(text, len, file, target, out);
		free(text);
		if (rc || out->type)
			return rc;
	}
	if (kind >= UP_SQUAD && kind <= UP_WEBHOOK && (rc = from_env(per_kind[kind], out)))
		return rc < 0 ? rc : AIETH_OK;
	rc = from_env("AIETH_UPLOAD_TOKEN", out);
	return rc < 0 ? rc : AIETH_OK;
}
