/* SPDX-License-Identifier: MIT */
/*
 * json_strict.h - strict reading of JSON input files on top of json-c:
 * parse errors with line and column, duplicate keys (json-c silently keeps
 * the last one), unknown keys, wrong types and ranges, each reported with the
 * file name and the JSON path of the offending value.
 */
#ifndef AIETH_JSON_STRICT_H
#define AIETH_JSON_STRICT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Parse text (len bytes) from file `what` (used in messages) into *out.
 * Rejects malformed JSON (with line:column), anything json-c accepts beyond
 * the JSON grammar, trailing garbage, duplicate keys at any depth (naming the
 * JSON path) and nesting deeper than 64. A leading UTF-8 byte order mark is
 * skipped (positions count from after it). Returns AIETH_OK, AIETH_EPARSE or
 * AIETH_ENOMEM with the aieth error set. On success *out is the tree (caller
 * json_object_put()s it), or NULL when the text is the JSON literal null. */
int aieth__jstrict_parse(const char *what, const char *text, size_t len, struct json_object **out);

/* aieth__jstrict_parse of a document whose top is an object, at most max bytes:
 * the size checked first (named with the limit), then the parse, then the
 * object. On success *out is the object (caller json_object_put()s it). */
int aieth__jstrict_parse_object(const char *what, const char *text, size_t len, size_t max,
				struct json_object **out);

/* Check that obj (at JSON path `path` in file `what`) is an object whose
 * keys are all in the NULL-terminated list `allowed`. Returns 0 or an aieth
 * error code (AIETH_EPARSE) naming the first unknown key and listing the
 * allowed ones. */
int aieth__jstrict_keys(const char *what, const char *path, struct json_object *obj,
			const char *const *allowed);

/* Typed field getters. `required` non-zero: a missing key is an error;
 * otherwise *out keeps its value. Each checks the JSON type exactly (no
 * string->number coercion) and the range, and names file, path, value and
 * rule in the error. Return 0 or an aieth error code. */
int aieth__jstrict_get_string(const char *what, const char *path, struct json_object *obj,
			      const char *key, int required, const char **out);
int aieth__jstrict_get_u64(const char *what, const char *path, struct json_object *obj,
			   const char *key, int required, uint64_t min, uint64_t max,
			   uint64_t *out);
int aieth__jstrict_get_u32(const char *what, const char *path, struct json_object *obj,
			   const char *key, int required, uint32_t min, uint32_t max,
			   uint32_t *out);
int aieth__jstrict_get_object(const char *what, const char *path, struct json_object *obj,
			      const char *key, int required, struct json_object **out);

/* The members of an object or the items of an array; 0 for anything else
 * (boost property_tree reads both as a node's children). */
size_t aieth__jstrict_count(struct json_object *c);

/* Byte offset -> 1-based line and column within text. */
void aieth__jstrict_line_col(const char *text, size_t off, unsigned *line, unsigned *col);

#endif
