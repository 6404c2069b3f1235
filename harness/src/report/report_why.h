/* SPDX-License-Identifier: MIT */
/*
 * report_why.h - why a check failed, in words every writer shows (the text
 * table, junit.xml, report.html): the limit and the measured value.
 */
#ifndef AIETH_REPORT_WHY_H
#define AIETH_REPORT_WHY_H

#include "report/report_model.h"
#include "util/sbuf.h"

/* A channel's failed checks, "; " between them, unescaped (the caller
 * escapes for its format): "MB/s 963.9 < min 5000.0", "3 of 1024 elements
 * differ, first at byte 16: got 5, expected 6". Appends nothing when no
 * check failed; returns how many failed. */
int aieth__rw_channel_why(sbuf *b, struct json_object *ch);

/* A failed latency bound: "cycles 500 > max 64" or "cycles not measured
 * (max 64)"; nothing when it passed. Returns 1 when it failed. */
int aieth__rw_latency_why(sbuf *b, struct json_object *lat);

/* A latency bound whose cycles were not measured (a channel did not finish,
 * the board gave no first cycles): 1 and "not measured", with the reason
 * when the transaction did not complete ("not measured: the transaction
 * timed out"); 0 and nothing when it was measured. Every writer says so in
 * these words instead of showing 0 cycles. */
int aieth__rw_latency_unmeasured(sbuf *b, struct json_object *txn, struct json_object *lat);

/* An unfinished channel's state, for the cells of the counters: "stalled
 * since cycle N" (timeout), "interrupted; its last beat ended at cycle N"
 * or "interrupted before its first beat" (a signal stopped the board),
 * "did not finish" (anything else). */
void aieth__rw_unfinished(sbuf *b, struct json_object *txn, struct json_object *ch);

/* "a OP b" (OP: "< min") with the fewest decimals (1..6) that tell them apart. */
void aieth__rw_pair(sbuf *b, double measured, const char *op, double limit);

#endif
