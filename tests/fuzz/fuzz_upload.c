/* SPDX-License-Identifier: MIT */
/*
 * fuzz_upload.c - libFuzzer target for the parsers of host/upload:
 * the first byte picks one (% 3), the rest is its input.
 *  0: an --upload URL (aieth__up_parse_url): on success the request URL is
 *     http(s)://, has no white space or control character and no '@' in
 *     its authority, no "." or ".." path segment (also percent-encoded);
 *     SQUAD's identifiers and InfluxDB's db follow their rule.
 *  1: a credentials file (aieth__up_creds_parse), looked up for a fixed target:
 *     a credential found is printable, without white space, non-empty, and
 *     no target with a dot segment gets one.
 *  2: a spool entry (aieth__up_spool_parse): a parsed entry formatted again with
 *     a fixed key parses back to the same fields and verifies with that
 *     key (not with another); the input verifies with the key exactly when
 *     it is those bytes (the format has one spelling, the check one value).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "upload/upload_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void url_case(const char *s)
{
	up_target t;
	const char *a, *end;
	size_t i;
	if (aieth__up_parse_url(s, &t))
		return;
	CHECK(!strncmp(t.url, "http://", 7) || !strncmp(t.url, "https://", 8));
	for (i = 0; t.url[i]; i++)
		CHECK((unsigned char)t.url[i] > 0x20 && t.url[i] != 0x7f);
	a = strstr(t.url, "://") + 3;
	end = a + strcspn(a, "/?#");
	CHECK(end > a && !memchr(a, '@', (size_t)(end - a)));
	{
		size_t dn;
		CHECK(!aieth__up_dot_segment(end, strcspn(end, "?#"), &dn));
	}
	if (t.kind == UP_SQUAD)
		CHECK(aieth__up_segment_ok(t.team, strlen(t.team)) &&
		      aieth__up_segment_ok(t.project, strlen(t.project)) &&
		      aieth__up_segment_ok(t.build, strlen(t.build)) &&
		      aieth__up_segment_ok(t.env, strlen(t.env)));
	if (t.kind == UP_INFLUX)
		CHECK(aieth__up_segment_ok(t.db, strlen(t.db)));
}

static void creds_case(const char *s, size_t n)
{
	up_cred c;
	size_t i;
	if (aieth__up_creds_parse(s, n, "fuzz.creds", "squad+https://h/team/p/b/e", &c) || !c.type)
		return;
	CHECK(c.value[0]);
	for (i = 0; c.value[i]; i++)
		CHECK((unsigned char)c.value[i] > 0x20 && (unsigned char)c.value[i] < 0x7f);
	/* the same file never gives credentials to a target that leaves its path */
	CHECK(aieth__up_creds_parse(s, n, "fuzz.creds", "squad+https://h/team/../p/b/e", &c) ||
	      !c.type);
}

static void spool_case(const char *s, size_t n)
{
	static const uint8_t key[32] = {0}, other[32] = {1};
	up_entry e, back;
	sbuf b = SB_INIT(SB_DOC_MAX);
	if (aieth__up_spool_parse(s, n, "fuzz.spool", &e))
		return;
	CHECK(aieth__up_spool_format(&e, key, &b) == 0);
	CHECK(aieth__up_spool_parse(b.p, b.n, "fuzz.spool", &back) == 0);
	CHECK(!strcmp(back.run, e.run) && !strcmp(back.target, e.target) &&
	      !strcmp(back.url, e.url) && !strcmp(back.ctype, e.ctype));
	CHECK(back.len == e.len && !memcmp(back.body, e.body, e.len));
	CHECK(aieth__up_spool_verify(b.p, b.n, &back, key, "fuzz.spool") == 0);
	CHECK(aieth__up_spool_verify(b.p, b.n, &back, other, "fuzz.spool") != 0);
	CHECK((aieth__up_spool_verify(s, n, &e, key, "fuzz.spool") == 0) ==
	      (b.n == n && !memcmp(b.p, s, n)));
	free(b.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	if (size < 1 || size > (1u << 16))
		return 0;
	/* NUL-terminated copy: the URL parser takes a C string */
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0: url_case(s); break;
	case 1: creds_case(s, size - 1); break;
	default: spool_case(s, size - 1); break;
	}
	free(s);
	return 0;
}
