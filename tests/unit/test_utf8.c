/* SPDX-License-Identifier: MIT */
/*
 * test_utf8.c - util/utf8.c, the one rule every report writer uses: which
 * sequences are valid UTF-8, and the \xNN repair of the bytes that are not.
 */
#include <stdlib.h>
#include <string.h>

#include "tu.h"
#include "util/utf8.h"

static void test_seq(void)
{
	CU_ASSERT_EQUAL(aieth__utf8_seq("a"), 1);
	CU_ASSERT_EQUAL(aieth__utf8_seq(""), 0);
	CU_ASSERT_EQUAL(aieth__utf8_seq(NULL), 0);
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xc3\xa9"), 2);         /* e acute */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xe2\x82\xac"), 3);     /* euro sign */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\x80"), 0);             /* continuation alone */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xff"), 0);
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xc0\xaf"), 0);         /* overlong '/' */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xe0\x80\xaf"), 0);     /* overlong, 3 bytes */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xed\xa0\x80"), 0);     /* surrogate D800 */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xf4\x90\x80\x80"), 0); /* past U+10FFFF */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xef\xbf\xbe"), 0);     /* U+FFFE: not in XML */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xc3"), 0);             /* cut by the NUL */
	CU_ASSERT_EQUAL(aieth__utf8_seq("\xe2\x82"), 0);
}

static void test_valid(void)
{
	CU_ASSERT_TRUE(aieth__utf8_valid(""));
	CU_ASSERT_TRUE(aieth__utf8_valid("plain ascii \t\n"));
	CU_ASSERT_TRUE(aieth__utf8_valid("caf\xc3\xa9 \xe2\x82\xac"));
	CU_ASSERT_FALSE(aieth__utf8_valid("caf\xe9")); /* Latin-1 */
	CU_ASSERT_FALSE(aieth__utf8_valid("ok\xc3\xa9\xff"));
}

static void check_clean(const char *in, const char *want)
{
	char *got = aieth__utf8_clean(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	CU_ASSERT_TRUE(aieth__utf8_valid(got));
	free(got);
}

static void test_clean(void)
{
	check_clean("", "");
	check_clean("abc", "abc");
	check_clean("caf\xc3\xa9", "caf\xc3\xa9");
	check_clean("caf\xe9", "caf\\xe9");
	check_clean("\xff\xfe", "\\xff\\xfe");
	/* a cut sequence: each byte on its own, the valid rest kept */
	check_clean("\xe2\x82x\xc3\xa9", "\\xe2\\x82x\xc3\xa9");
	check_clean("\xed\xa0\x80", "\\xed\\xa0\\x80");
	CU_ASSERT_PTR_NULL(aieth__utf8_clean(NULL));
}

/* every single byte and every pair of bytes: the repair is always valid */
static void test_exhaustive_pairs(void)
{
	unsigned a, b;
	char in[3], *out;
	for (a = 1; a < 256; a++)
		for (b = 0; b < 256; b++) {
			in[0] = (char)a;
			in[1] = (char)b;
			in[2] = '\0';
			out = aieth__utf8_clean(in);
			CU_ASSERT_PTR_NOT_NULL_FATAL(out);
			if (!aieth__utf8_valid(out))
				CU_FAIL("clean gave invalid UTF-8");
			if (aieth__utf8_valid(in) && strcmp(in, out))
				CU_FAIL("clean changed valid UTF-8");
			free(out);
		}
}

TU_MAIN("utf8", {"sequence lengths", test_seq}, {"valid strings", test_valid},
	{"repair as \\xNN", test_clean}, {"every byte pair", test_exhaustive_pairs})
