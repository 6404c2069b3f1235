/* SPDX-License-Identifier: MIT */
/*
 * backends/emu.h - what the emulated board backend (emu.c) tells beyond
 * the operations table: the graph models' state at its last stall or
 * timeout, for the XRT test double (tests/xrt_double/), which presents
 * it as the AI Engine driver's sysfs tree a board would show.
 */
#ifndef AIETH_BACKENDS_EMU_H
#define AIETH_BACKENDS_EMU_H

#include "aie/aie_state.h"

/* The state the last transaction that stalled or timed out left (source
 * "emulator": per graph model port what it waits on), or NULL when none
 * did. state is an emu backend's (aieth__backend_emu's open); the state
 * lives until the next such transaction or the close. */
const aie_state *aieth__emu_aie_state(const void *state);

#endif /* AIETH_BACKENDS_EMU_H */
