/* SPDX-License-Identifier: MIT */
/*
 * board.h - in-memory entry points of the board module (board.c),
 * for the fuzz targets and unit tests. Not installed.
 */
#ifndef AIETH_BOARD_INTERNAL_H
#define AIETH_BOARD_INTERNAL_H

#include <stddef.h>

#include "aieth.h"

/* Largest board or constraints file accepted (bytes). */
#define AIETH_BOARD_MAX_FILE (1024u * 1024u)

/* Parse a board JSON text (len bytes; need not be NUL-terminated) named
 * `what` in messages, then load and check its constraints file, resolved
 * against data_dir (NULL: $AIETH_DATA_DIR, then the installed data). The
 * name is not compared with a file name. On success *out is owned by the
 * caller (aieth_board_free). */
int aieth__board_parse(aieth_board **out, const char *what, const char *text, size_t len,
		       const char *data_dir);

/* Validate a NodeConstraints text (len bytes) named `what` against board.
 * On success fills to_aie[i] and from_aie[i] for i < channels of the board
 * (index order: PLIO_NN is index NN-1). Either array may be NULL. On failure
 * the arrays may be partly written. */
int aieth__constraints_parse(const aieth_board *board, const char *what, const char *text,
			     size_t len, aieth_plio *to_aie, aieth_plio *from_aie);

#endif
