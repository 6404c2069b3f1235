/* SPDX-License-Identifier: MIT */
/*
 * fuzz_board.c - libFuzzer target for the board file reader (board.c).
 *
 * The input is a board JSON text, parsed with aieth__board_parse; its
 * constraints file is loaded from $AIETH_DATA_DIR (make fuzz sets it to the
 * source tree). Checked invariants on success: the facts are within the
 * documented ranges, and the PLIO lookups agree in every direction (index
 * -> name -> index, index -> shim -> index). On failure: a message that
 * names the file, and no board.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "board/board.h"
#include "fuzz_check.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_board(const aieth_board *b)
{
	const aieth_board_info *in = aieth_board_get_info(b);
	uint32_t i;
	int d;
	CHECK(in && in->name && in->pl_kernel && in->constraints_path && in->system_cfg_path);
	CHECK(in->channels >= 1 && in->channels <= 36);
	CHECK(in->stream_width_bits == 128 && in->memory_width_bits == 128);
	CHECK(in->uram_depth_words && !(in->uram_depth_words & (in->uram_depth_words - 1)));
	CHECK(in->pl_clock_hz >= 1 && in->pl_clock_hz <= 2000000000u);
	CHECK(in->func_memory.fifo_depth_words >= in->func_memory.burst_words);
	CHECK(aieth_board_channel_peak_bps(b) > 0.0);
	for (d = 0; d < 2; d++) {
		for (i = 0; i < in->channels; i++) {
			aieth_plio p, q, r;
			CHECK(aieth_board_plio_at(b, (aieth_dir)d, i, &p) == 0);
			CHECK(p.index == i && p.dir == (aieth_dir)d);
			CHECK(p.shim_channel < (d ? 6u : 8u));
			CHECK(!in->aie_columns || p.shim_column < in->aie_columns);
			CHECK(aieth_board_plio_find(b, p.name, &q) == 0);
			CHECK(q.index == i && q.dir == p.dir);
			CHECK(aieth_board_plio_at_shim(b, (aieth_dir)d, p.shim_column,
						       p.shim_channel, &r) == 0);
			CHECK(r.index == i);
		}
		{
			aieth_plio p;
			CHECK(aieth_board_plio_at(b, (aieth_dir)d, in->channels, &p) ==
			      AIETH_ENOTFOUND);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_board *b = (aieth_board *)&b;
	int rc = aieth__board_parse(&b, "fuzz.json", (const char *)data, size,
				    getenv("AIETH_DATA_DIR"));
	if (rc) {
		CHECK(b == NULL);
		CHECK(rc < 0);
		CHECK(strstr(aieth_error_message(), "fuzz.json") != NULL);
		return 0;
	}
	check_board(b);
	aieth_board_free(b);
	return 0;
}
