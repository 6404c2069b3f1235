/* SPDX-License-Identifier: MIT */
/*
 * upload_creds.c - where upload credentials come from: never the command
 * line. A credentials file (one "URL-PREFIX token TOKEN" or "URL-PREFIX
 * basic USER:PASSWORD" per line, '#' comments; the longest prefix of the
 * --upload URL wins) that others may not read, then per-kind variables
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

int up_creds_parse(const char *text, size_t len, const char *what, const char *target,
		   up_cred *out)
{
	const char *p = text, *end = text + len;
	size_t best = 0, lineno = 0;

	memset(out, 0, sizeof *out);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *pre, *type, *val, *extra, *q;
		size_t pl, tl, vl, i;
		lineno++;
		if (le > p && le[-1] == '\r')
			le--;
		for (q = p; q < le; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f)
				return aieth_fail(AIETH_EPARSE, "%s:%zu: a control character", what,
						  lineno);
		q = p;
		pl = word(&q, le, &pre);
		if (!pl || *pre == '#')
			goto next;
		tl = word(&q, le, &type);
		vl = word(&q, le, &val);
		if (word(&q, le, &extra) || !vl ||
		    !((tl == 5 && !memcmp(type, "token", 5)) || (tl == 5 && !memcmp(type, "basic", 5))))
			return aieth_fail(AIETH_EPARSE, "%s:%zu: expected 'URL-PREFIX token TOKEN' or "
					  "'URL-PREFIX basic USER:PASSWORD'", what, lineno);
		if (vl >= UP_CRED_MAX)
			return aieth_fail(AIETH_EPARSE, "%s:%zu: the credential is %zu bytes, the "
					  "limit is %d", what, lineno, vl, UP_CRED_MAX - 1);
		if (type[0] == 'b' && !memchr(val, ':', vl))
			return aieth_fail(AIETH_EPARSE, "%s:%zu: basic needs USER:PASSWORD", what,
					  lineno);
		for (i = 0; i < vl; i++)
			if ((unsigned char)val[i] > 0x7e)
				return aieth_fail(AIETH_EPARSE, "%s:%zu: the credential must be "
						  "printable ASCII", what, lineno);
		/* the longest matching prefix wins; a tie: the first line */
		if (target && pl > best && !strncmp(target, pre, pl) && strlen(target) >= pl) {
			best = pl;
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
		return aieth_fail(AIETH_EINVAL, "$%s: one token of 1..%d bytes without white space "
				  "is needed", name, UP_CRED_MAX - 1);
	out->type = UP_CRED_TOKEN;
	memcpy(out->value, v, n + 1);
	return 1;
}

int up_creds_find(const char *file, const char *target, up_kind kind, up_cred *out)
{
	static const char *per_kind[] = {NULL, "AIETH_SQUAD_TOKEN", "AIETH_INFLUX_TOKEN",
					 "AIETH_WEBHOOK_TOKEN"};
	int rc;
	memset(out, 0, sizeof *out);
	if (file) {
		struct stat st;
		char *text = NULL;
		size_t len = 0;
		if (stat(file, &st))
			return aieth_fail(AIETH_EIO, "--upload-credentials %s: cannot be read", file);
		if (st.st_mode & (S_IROTH | S_IWOTH))
			return aieth_fail(AIETH_EINVAL, "--upload-credentials %s: others may read or "
					  "write it (mode %03o): chmod 600 it", file,
					  (unsigned)(st.st_mode & 0777));
		if ((rc = aieth_read_file(file, CREDS_FILE_MAX, &text, &len)))
			return rc;
		rc = up_creds_parse(text, len, file, target, out);
		free(text);
		if (rc || out->type)
			return rc;
	}
	if (kind >= UP_SQUAD && kind <= UP_WEBHOOK && (rc = from_env(per_kind[kind], out)))
		return rc < 0 ? rc : AIETH_OK;
	rc = from_env("AIETH_UPLOAD_TOKEN", out);
	return rc < 0 ? rc : AIETH_OK;
}
