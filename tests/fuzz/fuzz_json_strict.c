/* SPDX-License-Identifier: MIT */
/*
 * fuzz_json_strict.c - libFuzzer target for harness/src/json_strict.c.
 *
 * The input is one JSON text (not NUL-terminated). Checked invariants:
 *  - aieth__jstrict_parse either returns a tree or fails with a message that
 *    starts with the file name;
 *  - an accepted text re-serialised by json-c is accepted again (the strict
 *    reader accepts what it produced, apart from non-finite numbers);
 *  - the getters and aieth__jstrict_keys, run on every member of an accepted
 *    top-level object, return 0 exactly when type and range fit, and never
 *    write their output on failure;
 *  - aieth__jstrict_line_col stays within the text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char what[] = "fuzz.json";

static void check_message(void)
{
	CHECK(strncmp(aieth_error_message(), what, sizeof what - 1) == 0);
}

static void check_members(struct json_object *o)
{
	static const char *const allowed[] = {"a", "name", "channels", NULL};
	struct json_object_iterator it = json_object_iter_begin(o), end = json_object_iter_end(o);
	int rc = aieth__jstrict_keys(what, "", o, allowed);
	CHECK(rc == 0 || rc == AIETH_EPARSE);
	if (rc)
		check_message();
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it), *sub = NULL;
		enum json_type t = json_object_get_type(v);
		uint64_t u = 12345;
		uint32_t w = 777;
		const char *s = NULL;

		rc = aieth__jstrict_get_u64(what, "p", o, k, 1, 1, 1000, &u);
		if (t != json_type_int) {
			CHECK(rc == AIETH_EPARSE && u == 12345);
		} else {
			int64_t i = json_object_get_int64(v);
			uint64_t x = json_object_get_uint64(v);
			int in = i >= 0 && x >= 1 && x <= 1000;
			CHECK(in ? (rc == 0 && u == x) : (rc == AIETH_EINVAL && u == 12345));
		}
		rc = aieth__jstrict_get_u32(what, "p", o, k, 1, 0, UINT32_MAX, &w);
		CHECK(t == json_type_int ? (rc == 0 || rc == AIETH_EINVAL) : rc == AIETH_EPARSE);
		if (rc)
			CHECK(w == 777);
		rc = aieth__jstrict_get_string(what, "p", o, k, 1, &s);
		if (t != json_type_string) {
			CHECK(rc == AIETH_EPARSE && s == NULL);
		} else if (rc == 0) {
			CHECK(s && strlen(s) == (size_t)json_object_get_string_len(v));
		} else {
			CHECK(rc == AIETH_EPARSE && s == NULL);
		}
		rc = aieth__jstrict_get_object(what, "p", o, k, 1, &sub);
		CHECK(t == json_type_object ? (rc == 0 && sub == v) : (rc == AIETH_EPARSE && !sub));
		if (rc)
			check_message();
	}
	CHECK(aieth__jstrict_get_u64(what, "", o, "\x01no such key", 1, 0, 1, NULL) ==
	      AIETH_EPARSE);
	CHECK(aieth__jstrict_get_u64(what, "", o, "\x01no such key", 0, 0, 1, NULL) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct json_object *o;
	unsigned line, col;

	if (size > (1u << 20))
		return 0;
	aieth__jstrict_line_col(text, size, &line, &col);
	CHECK(line >= 1 && col >= 1 && line <= size + 1 && col <= size + 1);

	o = NULL;
	if (aieth__jstrict_parse(what, text, size, &o) != 0) {
		CHECK(o == NULL);
		check_message();
		return 0;
	}
	if (!o) /* the JSON literal null */
		return 0;
	{
		const char *out = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		struct json_object *again;
		CHECK(out);
		again = jp(what, out, strlen(out));
		if (!again)
			CHECK(strstr(out, "Infinity") || strstr(out, "NaN") || strstr(out, "nan") ||
			      strstr(out, "inf"));
		json_object_put(again);
	}
	if (json_object_is_type(o, json_type_object))
		check_members(o);
	json_object_put(o);
	return 0;
}
