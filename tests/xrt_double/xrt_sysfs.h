/* SPDX-License-Identifier: MIT */
/*
 * xrt_sysfs.h - the XRT test double's stand-in for the Linux AI Engine
 * driver's sysfs tree (docs/on-board.md, "The AI Engine array's state on
 * a hang"), derived from the emulated board's graph models at a stall.
 */
#ifndef XRT_DOUBLE_SYSFS_H
#define XRT_DOUBLE_SYSFS_H

#include "aie/aie_state.h"

/* Write root/class/aie/aiepart_<col>_<n>/<col>_<row>/{core,lock,dma} for
 * the stalled graph models of s (source "emulator"): per kernel a core
 * tile above the shim column of its first PLIO, its status flag from
 * what its ports wait on, and per shim column of an RX PLIO that did not
 * get its bytes a shim tile whose DMA S2MM channel is idle with 2 BDs
 * queued. aie_ml: the AIE-ML formats (lock values, memory tiles in rows
 * 1 and 2 so the cores start at row 3). Returns 0, or -1 with errno. */
int dbl_sysfs_write(const char *root, const aie_state *s, int aie_ml);

#endif
