/* SPDX-License-Identifier: MIT */
/*
 * fuzz_aie.h - what the AI Engine state fuzz targets check the same way:
 * a state the parsers filled is rendered as the harness does (its words
 * and its JSON), and neither may crash or give an unbounded line.
 */
#ifndef FUZZ_AIE_H
#define FUZZ_AIE_H

#include <json-c/json.h>
#include <string.h>

#include "aie/aie_state.h"
#include "fuzz_check.h"

static void fuzz_aie_line(void *ctx, const char *line)
{
	CHECK(line && strlen(line) < AIE_NOTE_LEN);
	++*(int *)ctx;
}

/* The words (at most max lines, each one counted) and the JSON of s. */
static inline void fuzz_aie_render(const aie_state *s, int max)
{
	json_object *j;
	int lines = 0;
	CHECK(aieth__aie_state_words(s, fuzz_aie_line, &lines, max) == lines && lines <= max);
	j = aieth__aie_state_json(s);
	CHECK(j != NULL);
	CHECK(json_object_to_json_string(j) != NULL);
	json_object_put(j);
}

#endif
