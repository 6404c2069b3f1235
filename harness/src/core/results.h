/* SPDX-License-Identifier: MIT */
/*
 * core/results.h - per-channel results of a finished transaction (not
 * installed).
 */
#ifndef AIETH_CORE_RESULTS_H
#define AIETH_CORE_RESULTS_H

struct aieth_txn;

/* Fill t->res and t->valid from the device result and the perf words. */
void aieth__txn_compute_results(struct aieth_txn *t);

#endif /* AIETH_CORE_RESULTS_H */
