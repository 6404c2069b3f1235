/* SPDX-License-Identifier: MIT */
/*
 * fuzz_constraints.c - libFuzzer target for the NodeConstraints checker
 * (aieth__constraints_parse in board.c).
 *
 * The vck190 board is loaded once from $AIETH_DATA_DIR; each input is a
 * constraints text checked against it. Checked invariants on success:
 * every PLIO of both directions is filled in index order with a well-formed
 * name, shim channels are within the shim's stream counts, columns within
 * the board, and no two PLIOs of one direction share a place. On failure: a
 * message naming the file.
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

static aieth_board *board;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_plio pl[2][36];
	const aieth_board_info *in;
	uint32_t i, j;
	int d, rc;

	if (!board) {
		if (aieth_board_load(&board, "vck190", getenv("AIETH_DATA_DIR")) != 0) {
			fprintf(stderr, "fuzz_constraints: %s\n", aieth_error_message());
			abort();
		}
	}
	in = aieth_board_get_info(board);
	memset(pl, 0xa5, sizeof pl);
	rc = aieth__constraints_parse(board, "fuzz.json", (const char *)data, size, pl[0], pl[1]);
	if (rc) {
		CHECK(rc < 0);
		CHECK(strstr(aieth_error_message(), "fuzz.json") != NULL);
		return 0;
	}
	for (d = 0; d < 2; d++)
		for (i = 0; i < in->channels; i++) {
			const aieth_plio *p = &pl[d][i];
			char want[32];
			snprintf(want, sizeof want, "PLIO_%02u_%s", (unsigned)i + 1,
				 d ? "FROM_AIE" : "TO_AIE");
			CHECK(strcmp(p->name, want) == 0);
			CHECK(p->dir == (aieth_dir)d && p->index == i);
			CHECK(p->shim_channel < (d ? 6u : 8u));
			CHECK(p->shim_column < in->aie_columns);
			for (j = 0; j < i; j++)
				CHECK(pl[d][j].shim_column != p->shim_column ||
				      pl[d][j].shim_channel != p->shim_channel);
		}
	return 0;
}
