/* SPDX-License-Identifier: MIT */
/*
 * fuzz_aie_xrt_status.c - libFuzzer target for XRT's aie_status JSON
 * parser (harness/src/aie/aie_xrt_status.c).
 *
 * Input: the file's text. Checked invariants:
 *  - the result is -1 (with a note) or the tiles added, within
 *    AIE_MAX_TILES; the notes within AIE_MAX_NOTES, each NUL-terminated;
 *  - every tile's counts within their bounds (locks, channels, events,
 *    errors), channel fields NUL-terminated;
 *  - the words and the JSON of the state never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_aie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static aie_state s;
	int n, i, k;
	aieth__aie_state_init(&s, "xrt-aie-status");
	n = aieth__aie_state_from_xrt_status(&s, "fuzz.json", (const char *)data, size, 1, 0);
	CHECK(n >= -1 && n <= AIE_MAX_TILES && s.ntiles == (n < 0 ? 0 : n));
	if (n < 0)
		CHECK(s.nnotes > 0);
	CHECK(s.nnotes >= 0 && s.nnotes <= AIE_MAX_NOTES);
	for (i = 0; i < s.nnotes; i++)
		CHECK(memchr(s.notes[i], '\0', AIE_NOTE_LEN));
	for (i = 0; i < s.ntiles; i++) {
		const aie_tile *t = &s.tiles[i];
		CHECK(t->nlocks >= 0 && t->nlocks <= AIE_MAX_LOCKS);
		CHECK(t->nmm2s >= 0 && t->nmm2s <= AIE_MAX_CHAN);
		CHECK(t->ns2mm >= 0 && t->ns2mm <= AIE_MAX_CHAN);
		for (k = 0; k < t->nmm2s; k++)
			CHECK(memchr(t->mm2s[k].status, '\0', AIE_TOKEN_LEN));
		for (k = 0; k < t->ns2mm; k++)
			CHECK(memchr(t->s2mm[k].queue_status, '\0', AIE_TOKEN_LEN));
		for (k = 0; k < AIE_MOD_COUNT; k++)
			CHECK(t->nevents[k] <= AIE_MAX_EVENTS);
		CHECK(t->nerrors >= 0 && t->nerrors <= AIE_MAX_ERRORS);
	}
	fuzz_aie_render(&s, 8);
	return 0;
}
