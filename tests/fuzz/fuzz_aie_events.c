/* SPDX-License-Identifier: MIT */
/*
 * fuzz_aie_events.c - libFuzzer target for the AI Engine driver's event
 * and error file parsers (harness/src/aie/aie_parse_ev.c).
 *
 * Input: the first byte picks the parser (even: event, odd: error); the
 * rest is the file's text (not NUL-terminated). Checked invariants:
 *  - the result is 0 or -1; on -1 the note is a non-empty string;
 *  - event counts within AIE_MAX_EVENTS, each event below it and
 *    ascending; errors within AIE_MAX_ERRORS, each naming a module, a
 *    category and a name of the tables;
 *  - the words and the JSON of a state holding the tile never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_aie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static aie_state s;
	char note[AIE_NOTE_LEN];
	aie_tile *t;
	int rc, m, k;
	if (size < 1)
		return 0;
	aieth__aie_state_init(&s, "fuzz");
	t = &s.tiles[0];
	t->kind = data[0] & 2 ? AIE_TILE_SHIM : AIE_TILE_CORE;
	memset(note, 0, sizeof note);
	if (data[0] & 1)
		rc = aieth__aie_parse_error((const char *)data + 1, size - 1, t, note, sizeof note);
	else
		rc = aieth__aie_parse_event((const char *)data + 1, size - 1, t, note, sizeof note);
	CHECK(rc == 0 || rc == -1);
	if (rc)
		CHECK(note[0] != '\0' && memchr(note, '\0', sizeof note));
	for (m = 0; m < AIE_MOD_COUNT; m++) {
		CHECK(t->nevents[m] <= AIE_MAX_EVENTS);
		for (k = 0; k < t->nevents[m]; k++) {
			CHECK(t->events[m][k] < AIE_MAX_EVENTS);
			CHECK(k == 0 || t->events[m][k] > t->events[m][k - 1]);
		}
	}
	CHECK(t->nerrors >= 0 && t->nerrors <= AIE_MAX_ERRORS);
	for (k = 0; k < t->nerrors; k++) {
		CHECK(strcmp(aieth__aie_module_name(t->errors[k].module), "?"));
		CHECK(strcmp(aieth__aie_error_category_name(t->errors[k].category), "?"));
		CHECK(strcmp(aieth__aie_error_name(t->errors[k].name), "?"));
	}
	s.ntiles = 1;
	fuzz_aie_render(&s, 3);
	return 0;
}
