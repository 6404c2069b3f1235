/* SPDX-License-Identifier: MIT */
/*
 * test_util.c - the ground floor's shared pieces: the one bounded byte
 * buffer (util/sbuf.h), little-endian integers (util/le.h), the quoting of
 * untrusted bytes for messages and hex digits (util/text.h), the UUID text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/le.h"
#include "util/sbuf.h"
#include "util/text.h"

/* --------------------------------------------------------------- sbuf */

static void test_sbuf_limit(void)
{
	sbuf b = SB_INIT(10);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "0123456789", 10), 0); /* exactly the limit */
	CU_ASSERT_EQUAL(b.n, 10);
	CU_ASSERT_STRING_EQUAL(b.p, "0123456789");
	CU_ASSERT_FALSE(b.oom);
	CU_ASSERT_EQUAL(aieth__sb_check(&b, "x"), 0);
	/* one byte more fails, and keeps failing */
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "a", 1), AIETH_ENOMEM);
	CU_ASSERT_TRUE(b.oom);
	CU_ASSERT_TRUE(b.over);
	CU_ASSERT_EQUAL(b.n, 10); /* nothing of it was kept */
	CU_ASSERT_STRING_EQUAL(b.p, "0123456789");
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "", 0), AIETH_ENOMEM);
	CU_ASSERT_EQUAL(aieth__sb_printf(&b, "%d", 1), AIETH_ENOMEM);
	CU_ASSERT_EQUAL(aieth__sb_check(&b, "the reply"), AIETH_ENOMEM);
	CU_ASSERT_STRING_EQUAL(aieth_error_message(),
			       "the reply: longer than the limit of 10 bytes");
	/* a reset forgets the failure, keeps the limit */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(b.n, 0);
	CU_ASSERT_FALSE(b.oom);
	CU_ASSERT_EQUAL(b.max, 10);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "abc", 3), 0);
	CU_ASSERT_STRING_EQUAL(b.p, "abc");
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "12345678", 8), AIETH_ENOMEM); /* 11 > 10 */
	CU_ASSERT_PTR_NULL(aieth__sb_take(&b)); /* failed: nothing to take */
	CU_ASSERT_PTR_NULL(b.p);
	aieth__sb_free(&b);
}

static void test_sbuf_uninitialised(void)
{
	/* a buffer made without a limit takes nothing: a forgotten SB_INIT
	 * fails at its first append instead of growing without bound */
	sbuf z = {0};
	CU_ASSERT_EQUAL(aieth__sb_put(&z, "a", 1), AIETH_ENOMEM);
	CU_ASSERT_TRUE(z.over);
	CU_ASSERT_PTR_NULL(z.p);
	aieth__sb_free(&z);
}

static void test_sbuf_overflow_size(void)
{
	/* a length that would wrap n + len is over the limit, not a small write */
	sbuf b = SB_INIT(SIZE_MAX);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "abcd", 4), 0);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "x", SIZE_MAX - 1), AIETH_ENOMEM);
	CU_ASSERT_TRUE(b.over);
	CU_ASSERT_EQUAL(b.n, 4);
	aieth__sb_free(&b);
}

static void test_sbuf_printf(void)
{
	sbuf b = SB_INIT(3000);
	char big[2001];
	char *t;
	memset(big, 'y', 2000);
	big[2000] = '\0';
	CU_ASSERT_EQUAL(aieth__sb_printf(&b, "%s=%d;", "k", 42), 0);
	CU_ASSERT_EQUAL(aieth__sb_printf(&b, "%s", big), 0); /* past the 1024-byte fast path */
	CU_ASSERT_EQUAL(b.n, 5 + 2000);
	CU_ASSERT_EQUAL(strncmp(b.p, "k=42;yyy", 8), 0);
	/* the long path checks the limit too */
	CU_ASSERT_EQUAL(aieth__sb_printf(&b, "%s", big), AIETH_ENOMEM);
	CU_ASSERT_TRUE(b.over);
	CU_ASSERT_EQUAL(b.n, 2005);
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(sb_lit(&b, "lit"), 0);
	t = aieth__sb_take(&b);
	CU_ASSERT_STRING_EQUAL(t, "lit");
	free(t);
	CU_ASSERT_EQUAL(b.n, 0);
	CU_ASSERT_EQUAL(b.max, 3000); /* taken, the buffer may be used again */
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "again", 5), 0);
	CU_ASSERT_STRING_EQUAL(b.p, "again");
	aieth__sb_free(&b);
}

static void test_sbuf_bytes(void)
{
	static const uint8_t want[] = {0x07, 0,    0,    0xff, 0,    0,    0x44, 0x33, 0x22,
				       0x11, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
	sbuf b = SB_INIT(64);
	size_t i;
	CU_ASSERT_EQUAL(sb_u8(&b, 7), 0);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, NULL, 2), 0); /* NULL: zeros */
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "\xff\0\0", 3), 0);
	CU_ASSERT_EQUAL(aieth__sb_put(&b, "", 0), 0);
	CU_ASSERT_EQUAL(sb_le32(&b, 0x11223344u), 0);
	CU_ASSERT_EQUAL(sb_le64(&b, 0x1122334455667788ull), 0);
	CU_ASSERT_EQUAL_FATAL(b.n, sizeof want);
	CU_ASSERT_EQUAL(memcmp(b.u, want, sizeof want), 0);
	CU_ASSERT_EQUAL(b.p[b.n], '\0'); /* terminated, not counted */
	/* growth keeps every byte: many small appends past several doublings */
	aieth__sb_free(&b);
	aieth__sb_init(&b, 100000);
	for (i = 0; i < 25000; i++)
		CU_ASSERT_EQUAL_FATAL(sb_le32(&b, (uint32_t)i), 0);
	CU_ASSERT_EQUAL(b.n, 100000);
	CU_ASSERT_TRUE(b.cap <= 100001); /* never grown past what the limit needs */
	for (i = 0; i < 25000; i++)
		if (aieth__le32_get(b.u + 4 * i) != i)
			break;
	CU_ASSERT_EQUAL(i, 25000);
	CU_ASSERT_EQUAL(sb_u8(&b, 0), AIETH_ENOMEM);
	aieth__sb_free(&b);
}

static void test_sbuf_write_file(void)
{
	char path[256];
	sbuf b = SB_INIT(4);
	snprintf(path, sizeof path, "/tmp/aieth_test_util_%ld.txt", (long)getpid());
	unlink(path);
	sb_lit(&b, "toolong");
	CU_ASSERT_EQUAL(aieth__sb_write_file(&b, path), AIETH_ENOMEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "longer than the limit of 4 bytes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), path));
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* nothing written */
	CU_ASSERT_PTR_NULL(b.p);
	sb_lit(&b, "ok\n");
	CU_ASSERT_EQUAL(aieth__sb_write_file(&b, path), 0);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	unlink(path);
}

/* ----------------------------------------------------------------- le */

static void test_le(void)
{
	uint8_t raw[24], buf[24];
	static const uint64_t v64[] = {0, 1, 0x8000000000000000ull, 0xffffffffffffffffull,
				       0x0102030405060708ull};
	size_t i, off;
	for (i = 0; i < sizeof raw; i++)
		raw[i] = (uint8_t)(0xa0 + i);
	/* byte order, at every alignment */
	for (off = 0; off < 8; off++) {
		CU_ASSERT_EQUAL(aieth__le16_get(raw + off),
				(uint16_t)((0xa1 + off) << 8 | (0xa0 + off)));
		CU_ASSERT_EQUAL(aieth__le32_get(raw + off), (uint32_t)(0xa0 + off) |
								    (uint32_t)(0xa1 + off) << 8 |
								    (uint32_t)(0xa2 + off) << 16 |
								    (uint32_t)(0xa3 + off) << 24);
		CU_ASSERT_EQUAL(aieth__le64_get(raw + off),
				(uint64_t)aieth__le32_get(raw + off) |
					(uint64_t)aieth__le32_get(raw + off + 4) << 32);
	}
	CU_ASSERT_EQUAL(aieth__le64_get((const uint8_t *)"\x08\x07\x06\x05\x04\x03\x02\x01"),
			0x0102030405060708ull);
	/* round trips; a put writes its bytes only */
	for (i = 0; i < sizeof v64 / sizeof *v64; i++) {
		for (off = 0; off < 8; off++) {
			memset(buf, 0x5a, sizeof buf);
			aieth__le64_put(buf + off, v64[i]);
			CU_ASSERT_EQUAL(aieth__le64_get(buf + off), v64[i]);
			CU_ASSERT_EQUAL(buf[off + 8], 0x5a);
			if (off)
				CU_ASSERT_EQUAL(buf[off - 1], 0x5a);
			aieth__le32_put(buf + off, (uint32_t)v64[i]);
			CU_ASSERT_EQUAL(aieth__le32_get(buf + off), (uint32_t)v64[i]);
			aieth__le16_put(buf + off, (uint16_t)v64[i]);
			CU_ASSERT_EQUAL(aieth__le16_get(buf + off), (uint16_t)v64[i]);
		}
	}
	/* n bytes, 1 to 8 (data elements) */
	for (i = 1; i <= 8; i++) {
		uint64_t v = 0x8877665544332211ull,
			 mask = i == 8 ? UINT64_MAX : (1ull << (8 * i)) - 1;
		memset(buf, 0x5a, sizeof buf);
		aieth__le_put(buf + 1, v, (unsigned)i);
		CU_ASSERT_EQUAL(buf[0], 0x5a);
		CU_ASSERT_EQUAL(buf[1 + i], 0x5a);
		CU_ASSERT_EQUAL(buf[1], 0x11);
		CU_ASSERT_EQUAL(aieth__le_get(buf + 1, (unsigned)i), v & mask);
	}
	CU_ASSERT_EQUAL(aieth__le_get(raw, 8), aieth__le64_get(raw));
	CU_ASSERT_EQUAL(aieth__le_get(raw, 2), aieth__le16_get(raw));
	aieth__le32_put(buf, 0x11223344u);
	CU_ASSERT_EQUAL(memcmp(buf, "\x44\x33\x22\x11", 4), 0);
	aieth__le16_put(buf, 0xbeef);
	CU_ASSERT_EQUAL(memcmp(buf, "\xef\xbe", 2), 0);
}

/* -------------------------------------------------------------- quote */

static void test_quote(void)
{
	char q[AIETH_QUOTE_CAP], small[12];
	char in[200];
	size_t i;
	CU_ASSERT_STRING_EQUAL(aieth__quote(q, sizeof q, "plain name_01", 13), "plain name_01");
	/* NUL, control, DEL and high bytes as \xNN; quote and backslash as C writes them */
	CU_ASSERT_STRING_EQUAL(aieth__quote(q, sizeof q, "a\0b\n\x7f\x80\xff", 7),
			       "a\\x00b\\x0a\\x7f\\x80\\xff");
	CU_ASSERT_STRING_EQUAL(aieth__quote(q, sizeof q, "say \"hi\" \\ ok", 13),
			       "say \\\"hi\\\" \\\\ ok");
	CU_ASSERT_STRING_EQUAL(aieth__quote(q, sizeof q, "caf\xc3\xa9", 5), "caf\\xc3\\xa9");
	CU_ASSERT_STRING_EQUAL(aieth__quote(q, sizeof q, "", 0), "");
	CU_ASSERT_STRING_EQUAL(aieth__quote_str(q, sizeof q, NULL), "");
	CU_ASSERT_STRING_EQUAL(aieth__quote_str(q, sizeof q, "x\ty"), "x\\x09y");
	/* the cut: exactly AIETH_QUOTE_BYTES shown whole, one more marked */
	for (i = 0; i < sizeof in; i++)
		in[i] = (char)('a' + i % 26);
	aieth__quote(q, sizeof q, in, AIETH_QUOTE_BYTES);
	CU_ASSERT_EQUAL(strlen(q), AIETH_QUOTE_BYTES);
	CU_ASSERT_PTR_NULL(strstr(q, "..."));
	aieth__quote(q, sizeof q, in, AIETH_QUOTE_BYTES + 1);
	CU_ASSERT_EQUAL(strlen(q), AIETH_QUOTE_BYTES + 3);
	CU_ASSERT_EQUAL(strncmp(q, in, AIETH_QUOTE_BYTES), 0);
	CU_ASSERT_STRING_EQUAL(q + AIETH_QUOTE_BYTES, "...");
	/* every byte escaped, the longest output: fits AIETH_QUOTE_CAP exactly */
	memset(in, 0xee, sizeof in);
	aieth__quote(q, sizeof q, in, sizeof in);
	CU_ASSERT_EQUAL(strlen(q), 4 * AIETH_QUOTE_BYTES + 3);
	CU_ASSERT_STRING_EQUAL(q + 4 * AIETH_QUOTE_BYTES, "...");
	/* a small buffer cuts at a whole escape, keeps the marker, stays terminated */
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, sizeof small, "ab\xff\xff\xff", 5),
			       "ab\\xff...");
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, sizeof small, "abcdefghijkl", 12),
			       "abcdefgh...");
	/* what fits whole is not cut */
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, sizeof small, "abcdefghijkl", 11),
			       "abcdefghijk");
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, sizeof small, "abcdefghi\"", 10),
			       "abcdefghi\\\"");
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, 4, "abcdef", 6), "...");
	CU_ASSERT_STRING_EQUAL(aieth__quote(small, 2, "abcdef", 6), "");
	small[0] = 'z';
	aieth__quote(small, 0, "abc", 3); /* cap 0: nothing written */
	CU_ASSERT_EQUAL(small[0], 'z');
}

static void test_hexval(void)
{
	const char *d = "0123456789abcdef";
	int i;
	for (i = 0; i < 16; i++) {
		CU_ASSERT_EQUAL(aieth__hexval(d[i]), i);
		if (i >= 10)
			CU_ASSERT_EQUAL(aieth__hexval((char)(d[i] - 'a' + 'A')), i);
	}
	CU_ASSERT_EQUAL(aieth__hexval('g'), -1);
	CU_ASSERT_EQUAL(aieth__hexval('G'), -1);
	CU_ASSERT_EQUAL(aieth__hexval('/'), -1);
	CU_ASSERT_EQUAL(aieth__hexval(':'), -1);
	CU_ASSERT_EQUAL(aieth__hexval('\0'), -1);
	CU_ASSERT_EQUAL(aieth__hexval((char)0xb0), -1);
}

static void test_uuid(void)
{
	uint8_t u[16], back[16];
	char text[37];
	int i;
	for (i = 0; i < 16; i++)
		u[i] = (uint8_t)(0xa0 + i * 3);
	aieth_uuid_format(u, text);
	CU_ASSERT_STRING_EQUAL(text, "a0a3a6a9-acaf-b2b5-b8bb-bec1c4c7cacd");
	CU_ASSERT_EQUAL(aieth_uuid_parse(text, back), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(u, back, 16), 0);
	CU_ASSERT_EQUAL(aieth_uuid_parse("A0A3A6A9ACAFB2B5B8BBBEC1C4C7CACD", back), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(u, back, 16), 0);
	CU_ASSERT_EQUAL(aieth_uuid_parse("a0a3a6a9-acaf-b2b5-b8bb-bec1c4c7cacg", back),
			AIETH_EINVAL);
}

/* util/grow.h: room made by doubling from the first capacity, never past
 * the limit; a need over the limit or a size that wraps refused with the
 * array untouched. */
static void test_grow(void)
{
	uint32_t *a = NULL, *before;
	size_t cap = 0, i;
	for (i = 0; i < 100; i++) {
		CU_ASSERT_EQUAL_FATAL(AIETH__GROW(a, cap, i + 1, 8, 0), 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		a[i] = (uint32_t)i;
	}
	CU_ASSERT_EQUAL(cap, 128); /* 8, 16, 32, 64, 128 */
	for (i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(a[i], i);
	before = a;
	CU_ASSERT_EQUAL(AIETH__GROW(a, cap, 128, 8, 0), 0); /* has room: no realloc */
	CU_ASSERT_PTR_EQUAL(a, before);
	CU_ASSERT_EQUAL(AIETH__GROW(a, cap, 129, 8, 150), 0); /* 256 cut to the limit */
	CU_ASSERT_EQUAL(cap, 150);
	CU_ASSERT_EQUAL(AIETH__GROW(a, cap, 151, 8, 150), -1);
	CU_ASSERT_EQUAL(cap, 150);
	CU_ASSERT_EQUAL(aieth__grow(&a, &cap, SIZE_MAX / 2, sizeof *a, 8, 0), -1);
	CU_ASSERT_EQUAL(aieth__grow(&a, &cap, SIZE_MAX, sizeof *a, 8, 0), -1);
	CU_ASSERT_EQUAL(cap, 150);
	CU_ASSERT_EQUAL(a[99], 99);
	free(a);
}

TU_MAIN("util", {"sbuf: the limit and its error", test_sbuf_limit},
	{"sbuf: made without a limit takes nothing", test_sbuf_uninitialised},
	{"sbuf: a length that wraps", test_sbuf_overflow_size},
	{"sbuf: printf, take, reuse", test_sbuf_printf},
	{"sbuf: bytes, LE, growth", test_sbuf_bytes}, {"sbuf: write_file", test_sbuf_write_file},
	{"le: byte order, round trips", test_le}, {"quote: escapes and the cut", test_quote},
	{"hexval", test_hexval}, {"uuid: format and parse", test_uuid},
	{"grow: doubling, the limit, a size that wraps", test_grow})
