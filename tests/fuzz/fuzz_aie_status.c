/* SPDX-License-Identifier: MIT */
/*
 * fuzz_aie_status.c - libFuzzer target for the AI Engine driver's sysfs
 * file parsers (harness/src/aie/aie_parse.c).
 *
 * Input: the first byte picks the parser (byte % 3: core, lock, dma); the
 * rest is the file's text (not NUL-terminated). Checked invariants:
 *  - the result is 0 or -1; on -1 the note is a non-empty string;
 *  - counts stay within their bounds (locks, channels), channel fields
 *    are NUL-terminated words, a queue size / BD is -1 or a count;
 *  - the words and the JSON of a state holding the tile never crash, and
 *    the words never exceed the asked maximum.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_aie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_chans(const aie_dma_chan *c, int n)
{
	int j;
	CHECK(n >= 0 && n <= AIE_MAX_CHAN);
	for (j = 0; j < n; j++) {
		CHECK(memchr(c[j].status, '\0', AIE_TOKEN_LEN));
		CHECK(memchr(c[j].queue_status, '\0', AIE_TOKEN_LEN));
		CHECK(c[j].queue_size >= -1 && c[j].current_bd >= -1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static aie_state s;
	char note[AIE_NOTE_LEN];
	aie_tile *t;
	int rc;
	if (size < 1)
		return 0;
	aieth__aie_state_init(&s, "fuzz");
	t = &s.tiles[0];
	memset(note, 0, sizeof note);
	switch (data[0] % 3) {
	case 0:
		rc = aieth__aie_parse_core((const char *)data + 1, size - 1, t, note, sizeof note);
		break;
	case 1:
		rc = aieth__aie_parse_lock((const char *)data + 1, size - 1, t, note, sizeof note);
		break;
	default:
		rc = aieth__aie_parse_dma((const char *)data + 1, size - 1, t, note, sizeof note);
		break;
	}
	CHECK(rc == 0 || rc == -1);
	if (rc)
		CHECK(note[0] != '\0' && memchr(note, '\0', sizeof note));
	CHECK(t->nlocks >= 0 && t->nlocks <= AIE_MAX_LOCKS);
	check_chans(t->mm2s, t->nmm2s);
	check_chans(t->s2mm, t->ns2mm);
	s.ntiles = 1;
	fuzz_aie_render(&s, 3);
	return 0;
}
