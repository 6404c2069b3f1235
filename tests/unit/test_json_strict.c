/* SPDX-License-Identifier: MIT */
/* test_json_strict.c - strict JSON reading: syntax errors with line:column,
 * duplicate keys with their JSON path, unknown keys, types and ranges. */
#include <string.h>

#include "aieth.h"
#include "tu.h"
#include "util/error.h"
#include "util/json_strict.h"

/* aieth__jstrict_parse returning the tree, or NULL (error or JSON null). */
static struct json_object *jp(const char *what, const char *text, size_t len)
{
	struct json_object *o = NULL;
	if (aieth__jstrict_parse(what, text, len, &o) != 0)
		return NULL;
	return o;
}

/* Assert that the last error message contains s. */
#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

static struct json_object *parse(const char *text) { return jp("t.json", text, strlen(text)); }

/* Parse must fail with EPARSE-style message containing s. */
static void parse_fails(const char *text, const char *s)
{
	struct json_object *o = parse(text);
	CU_ASSERT_PTR_NULL(o);
	json_object_put(o);
	MSG_HAS(s);
}

static void test_parse_ok(void)
{
	struct json_object *o =
		parse("{\"a\": 1, \"b\": {\"c\": [1, 2, {\"d\": \"x\"}]}, \"e\": null}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_TRUE(json_object_is_type(o, json_type_object));
	CU_ASSERT_EQUAL(json_object_object_length(o), 3);
	json_object_put(o);
	/* Same key in different objects is not a duplicate. */
	o = parse("[{\"k\": 1}, {\"k\": 2}, {\"a\": {\"k\": 3}, \"k\": 4}]");
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
	/* Top-level scalars, trailing whitespace, escapes, surrogate pairs. */
	o = parse("123");
	CU_ASSERT_PTR_NOT_NULL(o);
	CU_ASSERT_EQUAL(json_object_get_int64(o), 123);
	json_object_put(o);
	o = parse("{\"s\": \"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\"}\n\n  ");
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
	o = parse("[-9223372036854775808, 18446744073709551615, 1.5e3, true, false]");
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
}

static void test_parse_not_nul_terminated(void)
{
	/* Only len bytes are read: the rest of the buffer is garbage. */
	const char buf[] = "{\"a\": 12}GARBAGE";
	struct json_object *o = jp("t.json", buf, 9);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	json_object_put(o);
	o = jp("t.json", buf, 7); /* {"a": 1 - truncated */
	CU_ASSERT_PTR_NULL(o);
	json_object_put(o);
	MSG_HAS("t.json:1:8:");
}

static void test_parse_syntax_line_col(void)
{
	parse_fails("{\n  \"a\": 1,\n  \"b\" 2\n}",
		    "t.json:3:7: object property name separator ':' expected");
	parse_fails("{\"a\": 1,}", "t.json:1:9: unexpected character");
	parse_fails("{\"a\": 1} x", "t.json:1:10:");
	parse_fails("{\"a\": \n  tru}", "t.json:2:6: boolean expected");
	parse_fails("", "t.json:1:1: empty input");
	parse_fails("   \n ", "unexpected end of data");
	parse_fails("{\"a\": [1, 2", "t.json:1:12:");
	parse_fails("[\"\xff\"]", "t.json:1:3: invalid utf-8 string");
}

static void test_parse_depth(void)
{
	char buf[200];
	struct json_object *o;
	memset(buf, '[', 64);
	memset(buf + 64, ']', 64);
	o = jp("t.json", buf, 128);
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
	memset(buf, '[', 65);
	memset(buf + 65, ']', 65);
	o = jp("t.json", buf, 130);
	CU_ASSERT_PTR_NULL(o);
	json_object_put(o);
	MSG_HAS("t.json:1:65: nesting too deep (the limit is 64 levels)");
}

static void test_parse_strict_extras(void)
{
	/* Things json-c accepts but JSON does not. */
	parse_fails("{'a': 1}", "t.json:1:2: expected a key in double quotes");
	parse_fails("[NaN]", "t.json:1:2: unexpected character (not a JSON value)");
	parse_fails("[-Infinity]", "t.json:1:2: malformed number");
	parse_fails("[1.]", "digits must follow '.'");
	parse_fails("[\"a\tb\"]",
		    "t.json:1:4: control character U+0009 in a string must be escaped");
	parse_fails("[99999999999999999999]",
		    "integer 99999999999999999999 does not fit in 64 bits");
	parse_fails("[-9223372036854775809]", "does not fit in 64 bits");
	parse_fails("[\"\\ud800\"]", "unpaired surrogate");
	parse_fails("{\"a\\u0000b\": 1, \"a\": 2}", "t.json:1:4: a key must not contain \\u0000");
	{
		const char t[] = "{\"a\": 1}\0";
		struct json_object *o = jp("t.json", t, sizeof t - 1);
		CU_ASSERT_PTR_NULL(o);
		json_object_put(o);
		MSG_HAS("t.json:1:9: trailing characters");
	}
}

static void test_parse_duplicates(void)
{
	struct json_object *o;
	parse_fails("{\"a\": 1, \"b\": 2, \"a\": 3}",
		    "t.json:1:18: a: duplicate key (first defined at 1:2)");
	parse_fails(
		"{\n \"NodeConstraints\": {\n  \"PLIO_03_TO_AIE\": {},\n  \"PLIO_04_TO_AIE\": {},\n"
		"  \"PLIO_03_TO_AIE\": {}\n }\n}",
		"t.json:5:3: NodeConstraints.PLIO_03_TO_AIE: duplicate key (first defined at 3:3)");
	parse_fails("[0, {\"x\": [1, {\"k\": 1, \"k\": 2}]}]", "[1].x[1].k: duplicate key");
	/* The empty key is a key like any other. */
	o = parse("{\"\": {\"\": 1}}");
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
	parse_fails("{\"\": {\"\": 1, \"\": 1}}", "\"\".\"\": duplicate key");
	o = parse("{\"\": 1}");
	CU_ASSERT_PTR_NOT_NULL(o);
	json_object_put(o);
	parse_fails("{\"\": 1, \"\": 2}", "t.json:1:9: \"\": duplicate key (first defined at 1:2)");
	/* Escaped and literal spellings of one key are the same key. */
	parse_fails("{\"\\u0061\": 1, \"a\": 2}", "a: duplicate key");
	parse_fails("{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}", "duplicate key");
	/* Duplicates deep inside and among many keys. */
	{
		char buf[8192];
		size_t o2 = 0;
		int i;
		o2 += (size_t)snprintf(buf + o2, sizeof buf - o2, "{\"outer\": {");
		for (i = 0; i < 300; i++)
			o2 += (size_t)snprintf(buf + o2, sizeof buf - o2, "\"k%d\": %d, ", i, i);
		snprintf(buf + o2, sizeof buf - o2, "\"k150\": 0}}");
		parse_fails(buf, "outer.k150: duplicate key");
		snprintf(buf + o2, sizeof buf - o2, "\"k300\": 0}}");
		o = parse(buf);
		CU_ASSERT_PTR_NOT_NULL(o);
		json_object_put(o);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "t.json"));
}

static void test_keys(void)
{
	static const char *const allowed[] = {"name", "channels", "depth", NULL};
	struct json_object *o = parse("{\"name\": \"x\", \"chanels\": 3, \"sub\": {\"q\": 1}}");
	struct json_object *sub = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(aieth__jstrict_keys("t.json", "", o, allowed), AIETH_EPARSE);
	MSG_HAS("t.json: key \"chanels\" is not allowed here (allowed: name, channels, depth); "
		"did you mean \"channels\"?");
	CU_ASSERT_EQUAL(aieth__jstrict_get_object("t.json", "", o, "sub", 1, &sub), 0);
	CU_ASSERT_EQUAL(aieth__jstrict_keys("t.json", "sub", sub, allowed), AIETH_EPARSE);
	MSG_HAS("t.json: sub: key \"q\" is not allowed here");
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "did you mean")); /* nothing close */
	json_object_put(o);
	o = parse("{\"name\": \"x\"}");
	CU_ASSERT_EQUAL(aieth__jstrict_keys("t.json", "", o, allowed), 0);
	json_object_put(o);
	o = parse("[1]");
	CU_ASSERT_EQUAL(aieth__jstrict_keys("t.json", "top", o, allowed), AIETH_EPARSE);
	MSG_HAS("t.json: top: expected an object, got an array");
	json_object_put(o);
}

static void test_integers(void)
{
	struct json_object *o =
		parse("{\"n\": 36, \"zero\": 0, \"neg\": -1, \"dbl\": 36.0, \"exp\": 1e2,"
		      " \"str\": \"36\", \"big\": 18446744073709551615,"
		      " \"b\": true, \"nul\": null, \"f\": {\"x\": 5}}");
	uint64_t u = 7;
	uint32_t w = 7;
	struct json_object *f = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u64("t.json", "", o, "n", 1, 1, 64, &u), 0);
	CU_ASSERT_EQUAL(u, 36);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "n", 1, 1, 64, &w), 0);
	CU_ASSERT_EQUAL(w, 36);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "zero", 1, 1, 64, &w),
			AIETH_EINVAL);
	MSG_HAS("t.json: zero: value 0 is out of range (1..64)");
	CU_ASSERT_EQUAL(w, 36);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "n", 1, 1, 35, &w), AIETH_EINVAL);
	MSG_HAS("t.json: n: value 36 is out of range (1..35)");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u64("t.json", "", o, "neg", 1, 0, 10, &u), AIETH_EINVAL);
	MSG_HAS("t.json: neg: value -1 is out of range (0..10)");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "neg", 1, 0, 10, &w), AIETH_EINVAL);
	MSG_HAS("value -1");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "dbl", 1, 0, 100, &w),
			AIETH_EPARSE);
	MSG_HAS("t.json: dbl: expected an integer, got a number with a fraction or exponent");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "exp", 1, 0, 1000, &w),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "str", 1, 0, 100, &w),
			AIETH_EPARSE);
	MSG_HAS("t.json: str: expected an integer, got a string (\"36\")");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "b", 1, 0, 100, &w), AIETH_EPARSE);
	MSG_HAS("got a boolean");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "nul", 1, 0, 100, &w),
			AIETH_EPARSE);
	MSG_HAS("got null");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u64("t.json", "", o, "big", 1, 0, UINT64_MAX, &u), 0);
	CU_ASSERT_EQUAL(u, UINT64_MAX);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "big", 1, 0, UINT32_MAX, &w),
			AIETH_EINVAL);
	MSG_HAS("value 18446744073709551615 is out of range (0..4294967295)");
	/* Missing: required is an error, optional keeps the value. */
	w = 99;
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "absent", 0, 1, 2, &w), 0);
	CU_ASSERT_EQUAL(w, 99);
	u = 98;
	CU_ASSERT_EQUAL(aieth__jstrict_get_u64("t.json", "", o, "absent", 0, 1, 2, &u), 0);
	CU_ASSERT_EQUAL(u, 98);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "", o, "absent", 1, 1, 2, &w),
			AIETH_EPARSE);
	MSG_HAS("t.json: required key \"absent\" is missing");
	/* Nested paths. */
	CU_ASSERT_EQUAL(aieth__jstrict_get_object("t.json", "", o, "f", 1, &f), 0);
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "f", f, "x", 1, 6, 9, &w), AIETH_EINVAL);
	MSG_HAS("t.json: f.x: value 5 is out of range (6..9)");
	CU_ASSERT_EQUAL(aieth__jstrict_get_u32("t.json", "f", f, "y", 1, 6, 9, &w), AIETH_EPARSE);
	MSG_HAS("t.json: f: required key \"y\" is missing");
	json_object_put(o);
}

static void test_strings_objects(void)
{
	struct json_object *o =
		parse("{\"s\": \"hello\", \"n\": 3, \"z\": \"a\\u0000b\", \"o\": {},"
		      " \"a\": [1]}");
	const char *s = NULL;
	struct json_object *sub = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "", o, "s", 1, &s), 0);
	CU_ASSERT_STRING_EQUAL(s, "hello");
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "", o, "n", 1, &s), AIETH_EPARSE);
	MSG_HAS("t.json: n: expected a string, got an integer (3)");
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "", o, "z", 1, &s), AIETH_EPARSE);
	MSG_HAS("t.json: z: string contains a NUL character");
	s = "keep";
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "", o, "absent", 0, &s), 0);
	CU_ASSERT_STRING_EQUAL(s, "keep");
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "", o, "absent", 1, &s), AIETH_EPARSE);
	MSG_HAS("required key \"absent\" is missing");
	CU_ASSERT_EQUAL(aieth__jstrict_get_object("t.json", "", o, "o", 1, &sub), 0);
	CU_ASSERT_PTR_NOT_NULL(sub);
	CU_ASSERT_EQUAL(aieth__jstrict_get_object("t.json", "", o, "a", 1, &sub), AIETH_EPARSE);
	MSG_HAS("t.json: a: expected an object, got an array ([1])");
	CU_ASSERT_EQUAL(aieth__jstrict_get_object("t.json", "", o, "absent", 1, &sub),
			AIETH_EPARSE);
	json_object_put(o);
	/* The getters check that they are given an object. */
	o = parse("[1]");
	CU_ASSERT_EQUAL(aieth__jstrict_get_string("t.json", "p", o, "s", 1, &s), AIETH_EPARSE);
	MSG_HAS("t.json: p: expected an object");
	json_object_put(o);
}

static void test_line_col(void)
{
	unsigned l, c;
	const char *t = "ab\ncd\r\n\nx";
	aieth__jstrict_line_col(t, 0, &l, &c);
	CU_ASSERT(l == 1 && c == 1);
	aieth__jstrict_line_col(t, 2, &l, &c);
	CU_ASSERT(l == 1 && c == 3);
	aieth__jstrict_line_col(t, 3, &l, &c);
	CU_ASSERT(l == 2 && c == 1);
	aieth__jstrict_line_col(t, 8, &l, &c);
	CU_ASSERT(l == 4 && c == 1);
}

/* The literal null parses (json-c gives no object for it); failures carry
 * their code. */
static void test_parse_null_and_codes(void)
{
	struct json_object *o = (struct json_object *)1;
	CU_ASSERT_EQUAL(aieth__jstrict_parse("t.json", " null ", 6, &o), AIETH_OK);
	CU_ASSERT_PTR_NULL(o);
	o = (struct json_object *)1;
	CU_ASSERT_EQUAL(aieth__jstrict_parse("t.json", "nul", 3, &o), AIETH_EPARSE);
	CU_ASSERT_PTR_NULL(o);
	CU_ASSERT_EQUAL(aieth__jstrict_parse("t.json", "{\"a\":1,\"a\":2}", 15, &o), AIETH_EPARSE);
	CU_ASSERT_PTR_NULL(o);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "duplicate"));
}

static void test_parse_object(void)
{
	struct json_object *o = (struct json_object *)1;
	CU_ASSERT_EQUAL(aieth__jstrict_parse_object("t.json", "{\"a\":1}", 7, 64, &o), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT(json_object_is_type(o, json_type_object));
	json_object_put(o);
	/* the size before anything is parsed, with the limit */
	CU_ASSERT_EQUAL(aieth__jstrict_parse_object("t.json", "{\"a\":1}", 7, 6, &o), AIETH_EPARSE);
	CU_ASSERT_PTR_NULL(o);
	MSG_HAS("t.json: 7 bytes, at most 6");
	CU_ASSERT_EQUAL(aieth__jstrict_parse_object("t.json", "[1]", 3, 64, &o), AIETH_EPARSE);
	CU_ASSERT_PTR_NULL(o);
	MSG_HAS("t.json: expected an object at the top");
	/* the literal null, as the whole text (no byte after it) */
	CU_ASSERT_EQUAL(aieth__jstrict_parse("t.json", "null", 4, &o), 0);
	CU_ASSERT_PTR_NULL(o);
	CU_ASSERT_EQUAL(aieth__jstrict_parse_object("t.json", "null", 4, 64, &o), AIETH_EPARSE);
	MSG_HAS("expected an object at the top");
	CU_ASSERT_EQUAL(aieth__jstrict_parse("t.json", "nul", 3, &o), AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__jstrict_parse_object("t.json", "{", 1, 64, &o), AIETH_EPARSE);
	MSG_HAS("t.json:1:2:");
}

TU_MAIN("json_strict", {"object at the top, size first", test_parse_object},
	{"null and error codes", test_parse_null_and_codes}, {"parse ok", test_parse_ok},
	{"parse reads only len bytes", test_parse_not_nul_terminated},
	{"syntax errors carry line:col", test_parse_syntax_line_col},
	{"nesting limit 64", test_parse_depth}, {"stricter than json-c", test_parse_strict_extras},
	{"duplicate keys with JSON path", test_parse_duplicates}, {"unknown keys", test_keys},
	{"integer getters", test_integers}, {"string and object getters", test_strings_objects},
	{"line and column", test_line_col})
