/* SPDX-License-Identifier: MIT */
/*
 * srv_stats.h - th_server's counters and the limits its listeners share
 * (the stats and limits parts of struct aieth__server): what /v1/metrics
 * and /v1/health show, as snapshots taken at once; the request bodies'
 * share of the memory budget; the request rate per client; what a drain
 * waits for; the last POST /v1/validate.
 *
 * Locks: every operation takes srv->mu itself, briefly, and returns with
 * it released; none makes a device call.
 */
#ifndef AIETH_SERVER_SRV_STATS_H
#define AIETH_SERVER_SRV_STATS_H

#include <stdint.h>

#include "th_server/srv_core.h"

/* ---- requests (HTTP) ---- */

/* A request counted in (drain waits for it); its head arrived: the time
 * noted, 1 returned while the server drains. */
void aieth__srv_stats_request_begin(aieth__server *s);
int aieth__srv_stats_request_head(aieth__server *s);
/* A request done: its body bytes in and out, its status's index in
 * aieth__srv_metric_codes (SRV_NCODES: another status). */
void aieth__srv_stats_request_end(aieth__server *s, uint64_t in, uint64_t out, unsigned code);
/* The request rate per client: a fixed one-second window per key in a
 * small table (the least recently seen key gives its place). The key is
 * the token's name when the request carries a valid token (clients on one
 * host or behind one NAT each have their own budget), else the address
 * (requests without a valid token, token guessing included, share it).
 * 1 when this request is past --rate-limit; else it is counted. */
int aieth__srv_stats_rate(aieth__server *s, const char *key);

/* A request body of n bytes against --max-memory: 0 reserved, -1 no room. */
int aieth__srv_stats_body_reserve(aieth__server *s, uint64_t n);
void aieth__srv_stats_body_release(aieth__server *s, uint64_t n);
/* The bytes of the memory budget in use (images and request bodies). */
uint64_t aieth__srv_stats_mem_used(aieth__server *s);

/* The server is stopping (a drain: SIGTERM or SIGINT): its stop flag, and
 * whether it drains (both set together, read under the lock). */
int aieth__srv_stats_stopping(aieth__server *s);
int aieth__srv_stats_draining(aieth__server *s);
/* What a drain waits for: requests being handled, HTTP sessions active
 * (their clients may collect results), when the last request came. */
void aieth__srv_stats_drain(aieth__server *s, unsigned *inflight, unsigned *open, int64_t *last_ms);

/* ---- snapshots ---- */

typedef struct {
	int draining;
	int validate_have, validate_exit;
	unsigned validate_level;
	char validate_at[32];
	unsigned validate_passed, validate_failed, validate_skipped, validate_warned;
} srv_health;
void aieth__srv_stats_health(aieth__server *s, srv_health *h);

typedef struct {
	unsigned active, queued; /* the device held (opened, closed); waiting */
	uint64_t sessions_total, validate_total;
	int validate_have, validate_exit;
	uint64_t resets, reset_failures, bytes_in, bytes_out;
	uint64_t mem_used, body_used;
	uint64_t xclbin_uploads, xclbin_evictions, cache_used, cache_reserved;
	uint64_t requests[SRV_NCODES], requests_other;
	uint64_t txn_status[5], txn_failed;
} srv_metrics;
void aieth__srv_stats_metrics(aieth__server *s, srv_metrics *m);

/* POST /v1/validate's result: run_test validate's exit code, the level,
 * the counts of its report; stamped now (UTC). */
void aieth__srv_stats_validate(aieth__server *s, int code, unsigned level, unsigned passed,
			       unsigned failed, unsigned skipped, unsigned warned);

#endif
