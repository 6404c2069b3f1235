/* SPDX-License-Identifier: MIT */
/*
 * aieth.h - the public API of libaieth, the open AI Engine test harness.
 * One header per concept under aieth/; this one includes them all.
 *
 * Conventions (see docs/api.md):
 *  - Handles are opaque. Names are aieth_<noun>_<verb>.
 *  - Functions that can fail return an int: AIETH_OK (0) or a negative
 *    aieth_error code. The message of the last failure on the calling thread
 *    is returned by aieth_error_message(); it names the file, field, value
 *    and limit where one applies.
 *  - The library never prints and never exits.
 *  - Ownership is stated at each function. Strings returned as const char *
 *    belong to the object they came from and live as long as it does.
 */
#ifndef AIETH_H
#define AIETH_H

#include "aieth/board.h"     /* board facts, PLIOs, placement constraints */
#include "aieth/error.h"     /* error codes, aieth_error_message() */
#include "aieth/graph.h"     /* graph run, wait, end, run-time parameters */
#include "aieth/run.h"       /* runs of descriptions, exit codes, run options */
#include "aieth/report.h"    /* the report: report.json, junit.xml, farm outputs */
#include "aieth/compare.h"   /* regression gates against a baseline report */
#include "aieth/device.h"    /* a device driven with encoded transactions */
#include "aieth/history.h"   /* the run history: trend pages, gates on the last runs */
#include "aieth/calibrate.h" /* calibration of the emulated board */
#include "aieth/session.h"   /* a device and the graphs of one design */
#include "aieth/sensor.h"    /* a board's power and temperature sensors */
#include "aieth/spec.h"      /* test descriptions */
#include "aieth/txn.h"       /* transactions and per-channel results */
#include "aieth/validate.h"  /* run_test validate: the board health suite */
#include "aieth/version.h"   /* version macros, aieth_version() */
#include "aieth/xclbin.h"    /* XCLBIN reading, AIE metadata, checks */

#endif /* AIETH_H */
