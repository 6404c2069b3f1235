/* SPDX-License-Identifier: MIT */
/*
 * srv_tokens.c - th_server's token file and constant-time token check.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_server/srv_tokens.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/path.h"

static int is_blank(char c) { return c == ' ' || c == '\t'; }

void aieth__srv_tokens_free(srv_tokens *t)
{
	if (!t)
		return;
	if (t->v) {
		/* the tokens are secrets: not left in freed memory */
		volatile unsigned char *p = (volatile unsigned char *)t->v;
		size_t i, n = t->n * sizeof *t->v;
		for (i = 0; i < n; i++)
			p[i] = 0;
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* One line [p, e) (no newline): a comment, blank, or NAME TOKEN. */
static int parse_line(srv_tokens *t, size_t *cap, const char *what, unsigned line, const char *p,
		      const char *e)
{
	const char *ns, *ne, *ts, *te;
	srv_token *k;
	size_t i;

	if (e > p && e[-1] == '\r')
		e--;
	while (p < e && is_blank(*p))
		p++;
	if (p == e || *p == '#')
		return AIETH_OK;
	ns = p;
	while (p < e && !is_blank(*p))
		p++;
	ne = p;
	while (p < e && is_blank(*p))
		p++;
	ts = p;
	while (p < e && !is_blank(*p))
		p++;
	te = p;
	while (p < e && is_blank(*p))
		p++;
	if (ts == te)
		return aieth__fail(AIETH_EPARSE,
				   "%s:%u: a NAME and a TOKEN are needed, found one "
				   "field",
				   what, line);
	if (p != e)
		return aieth__fail(AIETH_EPARSE, "%s:%u: more than two fields (NAME TOKEN)", what,
				   line);
	if ((size_t)(ne - ns) > SRV_TOKEN_NAME_MAX)
		return aieth__fail(AIETH_EPARSE, "%s:%u: the name is %zu bytes, the limit is %d",
				   what, line, (size_t)(ne - ns), SRV_TOKEN_NAME_MAX);
	for (i = 0; i < (size_t)(ne - ns); i++)
		if (!aieth__name_char((unsigned char)ns[i]))
			return aieth__fail(AIETH_EPARSE,
					   "%s:%u: the name has byte 0x%02x at %zu "
					   "(allowed: A-Z a-z 0-9 . _ -)",
					   what, line, (unsigned char)ns[i], i + 1);
	if ((size_t)(te - ts) < SRV_TOKEN_MIN || (size_t)(te - ts) > SRV_TOKEN_MAX)
		return aieth__fail(AIETH_EPARSE,
				   "%s:%u: the token of \"%.*s\" is %zu bytes, "
				   "allowed %d..%d",
				   what, line, (int)(ne - ns), ns, (size_t)(te - ts), SRV_TOKEN_MIN,
				   SRV_TOKEN_MAX);
	for (i = 0; i < (size_t)(te - ts); i++)
		if ((unsigned char)ts[i] < 0x21 || (unsigned char)ts[i] > 0x7e)
			return aieth__fail(AIETH_EPARSE,
					   "%s:%u: the token of \"%.*s\" has a "
					   "non-printable byte at %zu",
					   what, line, (int)(ne - ns), ns, i + 1);
	for (i = 0; i < t->n; i++) {
		if (strlen(t->v[i].name) == (size_t)(ne - ns) &&
		    !memcmp(t->v[i].name, ns, (size_t)(ne - ns)))
			return aieth__fail(AIETH_EPARSE, "%s:%u: the name \"%.*s\" is listed twice",
					   what, line, (int)(ne - ns), ns);
		if (t->v[i].tlen == (size_t)(te - ts) && !memcmp(t->v[i].token, ts, t->v[i].tlen))
			return aieth__fail(AIETH_EPARSE,
					   "%s:%u: \"%.*s\" has the token of \"%s\" "
					   "(tokens must differ)",
					   what, line, (int)(ne - ns), ns, t->v[i].name);
	}
	if (t->n == SRV_TOKENS_MAX)
		return aieth__fail(AIETH_EPARSE, "%s:%u: more than %d tokens", what, line,
				   SRV_TOKENS_MAX);
	if (AIETH__GROW(t->v, *cap, t->n + 1, 8, SRV_TOKENS_MAX))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory for %zu tokens", what,
				   t->n + 1);
	k = &t->v[t->n++];
	memset(k, 0, sizeof *k);
	memcpy(k->name, ns, (size_t)(ne - ns));
	memcpy(k->token, ts, (size_t)(te - ts));
	k->tlen = (size_t)(te - ts);
	return AIETH_OK;
}

int aieth__srv_tokens_parse(srv_tokens *t, const char *what, const char *text, size_t len)
{
	size_t cap = 0;
	unsigned line = 1;
	const char *p = text, *end = text + len;
	int rc;

	t->v = NULL;
	t->n = 0;
	if (len > SRV_TOKEN_FILE_MAX)
		return aieth__fail(AIETH_EPARSE, "%s: %zu bytes, the limit is %zu", what, len,
				   SRV_TOKEN_FILE_MAX);
	if (len && memchr(text, '\0', len))
		return aieth__fail(AIETH_EPARSE, "%s: contains a NUL byte (not a text file)", what);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		rc = parse_line(t, &cap, what, line, p, e);
		if (rc) {
			aieth__srv_tokens_free(t);
			return rc;
		}
		p = nl ? nl + 1 : end;
		line++;
	}
	if (!t->n) {
		aieth__srv_tokens_free(t);
		return aieth__fail(AIETH_EPARSE, "%s: no token (lines are NAME TOKEN)", what);
	}
	return AIETH_OK;
}

int aieth__srv_tokens_load(srv_tokens *t, const char *path)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0, got = 0;
	int rc, fd;

	t->v = NULL;
	t->n = 0;
	/* opened without blocking (a FIFO has no writer to wait for) and
	 * checked as opened (no window between a stat and the read) */
	if (aieth__open_input(path, &fd, &st))
		return aieth__fail_prefix(AIETH_EINVAL, "token file");
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return aieth__fail(AIETH_EINVAL,
				   "token file %s: group or others may use it (mode "
				   "%04o): the tokens are secrets, chmod 600 it",
				   path, (unsigned)(st.st_mode & 07777));
	}
	if ((uint64_t)st.st_size > SRV_TOKEN_FILE_MAX) {
		close(fd);
		return aieth__fail(AIETH_EPARSE, "%s: %lld bytes, the limit is %zu", path,
				   (long long)st.st_size, SRV_TOKEN_FILE_MAX);
	}
	len = (size_t)st.st_size;
	text = malloc(len + 1);
	if (!text) {
		close(fd);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory for %zu bytes", path, len);
	}
	while (got < len) {
		ssize_t r = read(fd, text + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != len) {
		memset(text, 0, got);
		free(text);
		return aieth__fail(AIETH_EINVAL,
				   "token file %s: read %zu of %zu bytes (it changed "
				   "while read)",
				   path, got, len);
	}
	rc = aieth__srv_tokens_parse(t, path, text, len);
	memset(text, 0, len);
	free(text);
	return rc;
}

const char *aieth__srv_tokens_check(const srv_tokens *t, const char *tok, size_t len)
{
	const char *found = NULL;
	size_t i, j;

	if (!t || !tok || len < SRV_TOKEN_MIN || len > SRV_TOKEN_MAX)
		return NULL;
	for (i = 0; i < t->n; i++) {
		unsigned diff = (unsigned)(t->v[i].tlen ^ len);
		for (j = 0; j < SRV_TOKEN_MAX; j++) {
			unsigned char a = t->v[i].token[j];
			unsigned char b = j < len ? (unsigned char)tok[j] : 0;
			diff |= (unsigned)(a ^ b);
		}
		/* every token is compared in full; the match is kept without a branch
		 * on the bytes */
		if (diff == 0)
			found = t->v[i].name;
	}
	return found;
}
