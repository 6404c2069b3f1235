/* SPDX-License-Identifier: MIT */
/*
 * upload_spool.c - one spooled request per file: a short text header (the
 * run that made it, the --upload URL, the request URL, the content type,
 * the body's length, and a check) and the body's exact bytes. No
 * credentials: they are looked up again when the entry is sent, so an
 * entry is sent with them only when its check - an HMAC-SHA256 over the
 * whole entry with the spool's secret key - shows that we wrote it. File
 * names sort oldest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upload/upload_internal.h"
#include "util/error.h"
#include "util/hash.h"

#define SPOOL_MAGIC "aieth-spool 2\n"
#define SPOOL_MAGIC_1 "aieth-spool 1\n" /* before the check: never sent */

int aieth__up_spool_name(char *buf, size_t n, uint64_t ns, long pid, unsigned seq, const char *kind)
{
	int w;
	if (pid < 0 || !kind || strspn(kind, "abcdefghijklmnopqrstuvwxyz") != strlen(kind) ||
	    !*kind || strlen(kind) > 16)
		return -1;
	w = snprintf(buf, n, "%020llu-%ld-%u.%s.spool", (unsigned long long)ns, pid, seq, kind);
	return w > 0 && (size_t)w < n ? 0 : -1;
}

int aieth__up_spool_name_ok(const char *name)
{
	size_t n = strspn(name, "0123456789"), len = strlen(name);
	const char *p;
	if (n != 20 || name[20] != '-' || len > 80 || len < 7 || strcmp(name + len - 6, ".spool"))
		return 0;
	p = name + 21;
	if (!(n = strspn(p, "0123456789")) || p[n] != '-')
		return 0;
	p += n + 1;
	if (!(n = strspn(p, "0123456789")) || p[n] != '.')
		return 0;
	p += n + 1;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz");
	return n && p + n == name + len - 6;
}

/* The check of an entry: HMAC-SHA256 over its bytes less the check's line
 * ([at, end) of data). */
static void spool_mac(const char *data, size_t len, size_t at, size_t end, const uint8_t key[32],
		      uint8_t mac[32])
{
	aieth_hmac_sha256 h;
	aieth__hmac_sha256_init(&h, key, 32);
	aieth__hmac_sha256_update(&h, data, at);
	aieth__hmac_sha256_update(&h, data + end, len - end);
	aieth__hmac_sha256_final(&h, mac);
}

int aieth__up_spool_format(const up_entry *e, const uint8_t key[32], sbuf *out)
{
	uint8_t mac[32];
	char hx[65];
	size_t start = out->n, at;
	sb_lit(out, SPOOL_MAGIC);
	aieth__sb_printf(out, "run %s\ntarget %s\nurl %s\ncontent-type %s\nlength %zu\n", e->run,
			 e->target, e->url, e->ctype, e->len);
	at = out->n;
	sb_lit(out, "\n");
	aieth__sb_put(out, e->body, e->len);
	if (out->oom)
		return aieth__fail(AIETH_ENOMEM, "spool entry: out of memory");
	spool_mac(out->p + start, out->n - start, at - start, at - start, key, mac);
	aieth__sha256_hex(mac, hx);
	/* the check's line goes before the blank one */
	aieth__sb_printf(out, "mac %s\n", hx);
	if (out->oom)
		return aieth__fail(AIETH_ENOMEM, "spool entry: out of memory");
	memmove(out->p + at + 69, out->p + at, out->n - 69 - at);
	memcpy(out->p + at, "mac ", 4);
	memcpy(out->p + at + 4, hx, 64);
	out->p[at + 68] = '\n';
	return AIETH_OK;
}

int aieth__up_spool_verify(const char *data, size_t len, const up_entry *e, const uint8_t key[32],
			   const char *what)
{
	uint8_t mac[32];
	spool_mac(data, len, e->mac_at, e->mac_end, key, mac);
	if (!aieth__bytes_equal(mac, e->mac, 32))
		return aieth__fail(AIETH_EINVAL,
				   "%s: its check does not match this spool's key: not written "
				   "by us for run %s (planted or edited?): refused, kept, never "
				   "sent; delete it",
				   what, e->run);
	return AIETH_OK;
}

/* One "key value\n" header line at *p into dst (printable, < cap). */
static int header(const char **p, const char *end, const char *key, char *dst, size_t cap,
		  const char *what)
{
	size_t kl = strlen(key), i;
	const char *v, *nl;
	if ((size_t)(end - *p) < kl + 1 || memcmp(*p, key, kl) || (*p)[kl] != ' ')
		return aieth__fail(AIETH_EPARSE, "%s: expected the '%s' line", what, key);
	v = *p + kl + 1;
	nl = memchr(v, '\n', (size_t)(end - v));
	if (!nl)
		return aieth__fail(AIETH_EPARSE, "%s: the '%s' line has no end", what, key);
	if ((size_t)(nl - v) >= cap || nl == v)
		return aieth__fail(AIETH_EPARSE, "%s: '%s' is %zu bytes, 1..%zu allowed", what, key,
				   (size_t)(nl - v), cap - 1);
	for (i = 0; v + i < nl; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return aieth__fail(AIETH_EPARSE, "%s: '%s' has a control character", what,
					   key);
	memcpy(dst, v, (size_t)(nl - v));
	dst[nl - v] = '\0';
	*p = nl + 1;
	return AIETH_OK;
}

int aieth__up_spool_parse(const char *data, size_t len, const char *what, up_entry *e)
{
	const char *p = data, *end = data + len;
	char num[24], hx[80];
	unsigned long long n;
	up_target t;
	int rc, i;

	memset(e, 0, sizeof *e);
	if (len >= sizeof SPOOL_MAGIC_1 - 1 &&
	    !memcmp(data, SPOOL_MAGIC_1, sizeof SPOOL_MAGIC_1 - 1))
		return aieth__fail(AIETH_EUNSUPPORTED,
				   "%s: written by an older aieth (spool format 1: no check "
				   "binding it to the run that wrote it), so it is not sent with "
				   "credentials: send it with that older version (run_test "
				   "--flush-spool) or delete it",
				   what);
	if (len < sizeof SPOOL_MAGIC - 1 || memcmp(data, SPOOL_MAGIC, sizeof SPOOL_MAGIC - 1))
		return aieth__fail(AIETH_EPARSE, "%s: not a spool entry (no '%.*s' line)", what,
				   (int)sizeof SPOOL_MAGIC - 2, SPOOL_MAGIC);
	p += sizeof SPOOL_MAGIC - 1;
	if ((rc = header(&p, end, "run", e->run, sizeof e->run, what)) ||
	    (rc = header(&p, end, "target", e->target, sizeof e->target, what)) ||
	    (rc = header(&p, end, "url", e->url, sizeof e->url, what)) ||
	    (rc = header(&p, end, "content-type", e->ctype, sizeof e->ctype, what)) ||
	    (rc = header(&p, end, "length", num, sizeof num, what)))
		return rc;
	if (strspn(num, "0123456789") != strlen(num) || strlen(num) > 19 ||
	    (num[0] == '0' && num[1]))
		return aieth__fail(AIETH_EPARSE, "%s: length '%s' is not a number", what, num);
	n = strtoull(num, NULL, 10);
	e->mac_at = (size_t)(p - data);
	if ((rc = header(&p, end, "mac", hx, sizeof hx, what)))
		return rc;
	if (strlen(hx) != 64 || strspn(hx, "0123456789abcdef") != 64)
		return aieth__fail(AIETH_EPARSE, "%s: mac is not 64 lowercase hex digits", what);
	for (i = 0; i < 32; i++) {
		unsigned x;
		sscanf(hx + 2 * i, "%2x", &x);
		e->mac[i] = (uint8_t)x;
	}
	e->mac_end = (size_t)(p - data);
	if (p >= end || *p != '\n')
		return aieth__fail(AIETH_EPARSE, "%s: no blank line after the header", what);
	p++;
	if (n != (unsigned long long)(end - p))
		return aieth__fail(AIETH_EPARSE,
				   "%s: the body is %zu bytes, the header says %llu "
				   "(a truncated file?)",
				   what, (size_t)(end - p), n);
	/* the target must still be a URL we send to, and name the same request */
	if ((rc = aieth__up_parse_url(e->target, &t)))
		return aieth__fail_prefix(rc, "%s", what);
	if (strcmp(t.url, e->url) && t.kind != UP_WEBHOOK)
		return aieth__fail(AIETH_EPARSE, "%s: url %s is not the request of target %s", what,
				   e->url, e->target);
	if (t.kind == UP_WEBHOOK && strcmp(e->url, e->target))
		return aieth__fail(AIETH_EPARSE, "%s: url %s is not target %s", what, e->url,
				   e->target);
	e->body = p;
	e->len = (size_t)n;
	return AIETH_OK;
}
