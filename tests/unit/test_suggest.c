/* SPDX-License-Identifier: MIT */
/*
 * test_suggest.c - "did you mean" (util/suggest.h): the edit distance
 * (swaps, case, lengths, the length bound), the closeness rule, ties give
 * no suggestion, the message text quoted, and the NULL-terminated list form.
 */
#include <limits.h>
#include <string.h>

#include "tu.h"
#include "util/suggest.h"

static void test_distance(void)
{
	char longw[AIETH_SUGGEST_MAX + 2];
	CU_ASSERT_EQUAL(aieth__edit_distance("", ""), 0);
	CU_ASSERT_EQUAL(aieth__edit_distance("abc", ""), 3);
	CU_ASSERT_EQUAL(aieth__edit_distance("", "abc"), 3);
	CU_ASSERT_EQUAL(aieth__edit_distance("kitten", "sitting"), 3);
	CU_ASSERT_EQUAL(aieth__edit_distance("chanels", "channels"), 1);
	CU_ASSERT_EQUAL(aieth__edit_distance("chanenls", "channels"), 1); /* a swap */
	CU_ASSERT_EQUAL(aieth__edit_distance("VCK190", "vck190"), 0);     /* case aside */
	CU_ASSERT_EQUAL(aieth__edit_distance("PLIO_1_TO_AIE", "PLIO_01_TO_AIE"), 1);
	memset(longw, 'a', sizeof longw - 1);
	longw[sizeof longw - 1] = '\0';
	CU_ASSERT_EQUAL(aieth__edit_distance(longw, "a"), UINT_MAX);
	longw[AIETH_SUGGEST_MAX] = '\0'; /* exactly the bound */
	CU_ASSERT_EQUAL(aieth__edit_distance(longw, "a"), AIETH_SUGGEST_MAX - 1);
}

static void test_best(void)
{
	aieth_suggest s;
	static const char *const boards[] = {"vck190", "vek280", "vek385", NULL};
	aieth__suggest_init(&s, "vck191");
	for (int i = 0; boards[i]; i++)
		aieth__suggest_add(&s, boards[i]);
	CU_ASSERT_STRING_EQUAL(aieth__suggest_best(&s), "vck190");
	/* too far: nothing */
	aieth__suggest_init(&s, "zynq");
	for (int i = 0; boards[i]; i++)
		aieth__suggest_add(&s, boards[i]);
	CU_ASSERT_PTR_NULL(aieth__suggest_best(&s));
	/* two as close: no guess */
	aieth__suggest_init(&s, "vek");
	aieth__suggest_add(&s, "vek2");
	aieth__suggest_add(&s, "vek3");
	CU_ASSERT_PTR_NULL(aieth__suggest_best(&s));
	/* a case difference alone is suggested */
	aieth__suggest_init(&s, "VEK280");
	for (int i = 0; boards[i]; i++)
		aieth__suggest_add(&s, boards[i]);
	CU_ASSERT_STRING_EQUAL(aieth__suggest_best(&s), "vek280");
	/* a short word: one edit at most */
	aieth__suggest_init(&s, "ab");
	aieth__suggest_add(&s, "xy");
	CU_ASSERT_PTR_NULL(aieth__suggest_best(&s));
	aieth__suggest_add(&s, "abc");
	CU_ASSERT_STRING_EQUAL(aieth__suggest_best(&s), "abc");
	/* no candidate */
	aieth__suggest_init(&s, "x");
	CU_ASSERT_PTR_NULL(aieth__suggest_best(&s));
	/* the same candidate twice is not a tie */
	aieth__suggest_init(&s, "chanels");
	aieth__suggest_add(&s, "channels");
	aieth__suggest_add(&s, "channels");
	CU_ASSERT_STRING_EQUAL(aieth__suggest_best(&s), "channels");
}

static void test_text(void)
{
	static const char *const keys[] = {"name", "channels", "depth", NULL};
	char out[128];
	CU_ASSERT_STRING_EQUAL(aieth__suggest_list(out, sizeof out, "chanels", keys),
			       "; did you mean \"channels\"?");
	CU_ASSERT_STRING_EQUAL(aieth__suggest_list(out, sizeof out, "q", keys), "");
	CU_ASSERT_STRING_EQUAL(aieth__suggest_list(out, sizeof out, "x", NULL), "");
	/* a candidate is quoted as every name in a message is */
	{
		static const char *const odd[] = {"a\"b", NULL};
		CU_ASSERT_STRING_EQUAL(aieth__suggest_list(out, sizeof out, "a\"c", odd),
				       "; did you mean \"a\\\"b\"?");
	}
	/* a small buffer is cut, still terminated */
	aieth__suggest_list(out, 8, "chanels", keys);
	CU_ASSERT_EQUAL(strlen(out), 7);
}

TU_MAIN("suggest", {"edit distance", test_distance}, {"closest, close and alone", test_best},
	{"the message text", test_text})
