/* SPDX-License-Identifier: MIT */
/*
 * xrt_preflight.h - checks before the xrt backend touches the device
 * (xrt_preflight.c, docs/on-board.md "Pre-flight checks").
 */
#ifndef AIETH_XRT_PREFLIGHT_H
#define AIETH_XRT_PREFLIGHT_H

#include <stddef.h>

#include "aieth.h"
#include "util/error.h"

typedef struct {
	const aieth_board *board;
	const char *pl_xclbin;  /* required */
	const char *aie_xclbin; /* NULL: none */
	const char *const *graphs;
	size_t ngraphs;
} aieth_preflight_in;

/* AIETH_OK, or the first problem: AIETH_EINVAL (environment, mismatch),
 * AIETH_EUNSUPPORTED, AIETH_EIO / AIETH_EPARSE (xclbin files),
 * AIETH_ENOTFOUND (a graph not in AIE_METADATA). */
int aieth__xrt_preflight(const aieth_preflight_in *in);

#endif
