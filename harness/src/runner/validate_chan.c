/* SPDX-License-Identifier: MIT */
/*
 * validate_chan.c - run_test validate, levels 2 and 3: every TX/RX channel
 * pair of the board through the loopback design (PLIO_kk_TO_AIE ->
 * PLIO_kk_FROM_AIE) in FUNC with the data checked, in PERF at full rate,
 * its counters, throughput and channel-to-channel delay; the FUNC soak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_model.h"
#include "runner/validate_internal.h"

#define TXN_TIMEOUT_MS 10000u
#define DELAY_STEP 1000u /* cycles between channels' starts (delay test) */
#define DELAY_TOL 64     /* cycles a start may differ from its delay */
#define MAX_SOAK_ROUNDS 1000000u

/* The channels tested: 1..n per direction. */
static uint32_t nchan(const vd_ctx *c)
{
	uint32_t n = c->info->channels;
	return c->o->channels && c->o->channels < n ? c->o->channels : n;
}

/* Args of every pair: TX k at i = k, RX k at i = n + k. */
static int pair_args(vd_ctx *c, aieth_channel_args *a, uint32_t n, uint64_t size, uint64_t rep)
{
	uint32_t k;
	for (k = 0; k < n; k++) {
		aieth_plio tx, rx;
		if (aieth_board_plio_at(c->board, AIETH_DIR_TO_AIE, k, &tx) != AIETH_OK ||
		    aieth_board_plio_at(c->board, AIETH_DIR_FROM_AIE, k, &rx) != AIETH_OK)
			return -1;
		/* names live in the board; the index is a channel's place */
		memset(&a[k], 0, sizeof a[k]);
		memset(&a[n + k], 0, sizeof a[n + k]);
		a[k].size = a[n + k].size = size;
		a[k].repetition = a[n + k].repetition = rep;
	}
	return 0;
}

typedef struct {
	aieth_plio pl[2];
} pair_names;

/* The names for pair_args (the args point into them). */
static pair_names *names_of(vd_ctx *c, aieth_channel_args *a, uint32_t n)
{
	pair_names *p = calloc(n, sizeof *p);
	uint32_t k;
	if (!p)
		return NULL;
	for (k = 0; k < n; k++) {
		aieth_board_plio_at(c->board, AIETH_DIR_TO_AIE, k, &p[k].pl[0]);
		aieth_board_plio_at(c->board, AIETH_DIR_FROM_AIE, k, &p[k].pl[1]);
		a[k].plio = p[k].pl[0].name;
		a[n + k].plio = p[k].pl[1].name;
	}
	return p;
}

/* Skip when there is nothing to run on; 1 then. */
static int cannot(vd_ctx *c)
{
	if (!c->s) {
		aieth__vd_skip(c, "%s",
			       c->design_why[0] ? c->design_why : "the device is not open");
		return 1;
	}
	if (c->design_why[0]) {
		aieth__vd_skip(c, "%s", c->design_why);
		return 1;
	}
	return 0;
}

/* Submit and wait; a hang or device failure is the test's verdict (and
 * stops the suite). Returns the DONE transaction or NULL. */
static aieth_txn *run_txn(vd_ctx *c, aieth_mode mode, const aieth_channel_args *a, size_t n)
{
	aieth_txn *t = NULL;
	aieth_txn_status st;
	size_t i, shown = 0;
	char who[600] = "";
	if (aieth_txn_submit(c->s, mode, a, n, &t) != AIETH_OK) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the transaction was refused: %s",
			       aieth_error_message());
		return NULL;
	}
	aieth_txn_wait(t, TXN_TIMEOUT_MS);
	st = aieth_txn_get_status(t);
	if (st == AIETH_TXN_DONE)
		return t;
	for (i = 0; i < aieth_txn_num_channels(t) && shown < 4; i++) {
		aieth_channel_result r;
		if (aieth_txn_channel(t, i, &r) == AIETH_OK && !r.finished) {
			size_t l = strlen(who);
			snprintf(who + l, sizeof who - l, "%s%s moved %llu of %llu bytes",
				 shown ? "; " : "", r.plio.name, (unsigned long long)r.bytes_moved,
				 (unsigned long long)r.bytes_expected);
			shown++;
		}
	}
	if (st == AIETH_TXN_TIMEOUT) {
		aieth__vd_fail(c, AIETH_EXIT_TIMEOUT, "%s %s: %s%s%s", mode ? "PERF" : "FUNC",
			       aieth_txn_status_name(st), aieth_txn_message(t), who[0] ? ": " : "",
			       who);
		c->stop_exit = AIETH_EXIT_TIMEOUT;
		snprintf(c->stop_why, sizeof c->stop_why,
			 "the board hung in test %u: reset it before testing further", c->num);
	} else if (st == AIETH_TXN_INTERRUPTED) {
		aieth__vd_fail(c, AIETH_EXIT_SIGNAL + (c->o->interrupt ? (int)*c->o->interrupt : 2),
			       "interrupted");
		c->stop_exit = AIETH_EXIT_SIGNAL;
		snprintf(c->stop_why, sizeof c->stop_why, "interrupted in test %u", c->num);
	} else {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "%s failed: %s", mode ? "PERF" : "FUNC",
			       aieth_txn_message(t));
		c->stop_exit = AIETH_EXIT_INFRA;
		snprintf(c->stop_why, sizeof c->stop_why, "the device failed in test %u", c->num);
	}
	aieth_txn_free(t);
	return NULL;
}

/* Seeded bytes of channel k (splitmix64), so each channel's data differs. */
static void fill(uint8_t *b, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t i;
	for (i = 0; i < n; i++) {
		uint64_t z;
		if (i % 8 == 0) {
			x += 0x9e3779b97f4a7c15ull;
			z = x;
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			x = z ^ (z >> 31);
		}
		b[i] = (uint8_t)(x >> (8 * (i % 8)));
	}
}

/* One FUNC pass of every pair with seeded data, checked; 0 passed. */
static int func_pass(vd_ctx *c, uint64_t size, uint64_t round, uint64_t *bytes)
{
	uint32_t n = nchan(c), k;
	aieth_channel_args *a = calloc(2 * (size_t)n, sizeof *a);
	uint8_t *buf = malloc(2 * (size_t)n * size);
	pair_names *p = NULL;
	aieth_txn *t = NULL;
	int rc = -1;
	if (!a || !buf || pair_args(c, a, n, size, 1) || !(p = names_of(c, a, n))) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "out of memory for %u channels of %llu bytes",
			       n, (unsigned long long)size);
		goto out;
	}
	for (k = 0; k < n; k++) {
		a[k].data = buf + (size_t)k * size;
		a[n + k].data = buf + (size_t)(n + k) * size;
		fill(a[k].data, size, round * 1000 + k + 1);
		memset(a[n + k].data, 0, size);
	}
	if (!(t = run_txn(c, AIETH_MODE_FUNC, a, 2 * (size_t)n)))
		goto out;
	for (k = 0; k < n; k++) {
		const uint8_t *tx = a[k].data, *rx = a[n + k].data;
		size_t i;
		if (!memcmp(tx, rx, size))
			continue;
		for (i = 0; i < size && tx[i] == rx[i]; i++)
			;
		aieth__vd_fail(c, AIETH_EXIT_FAIL,
			       "%s: data differs from %s's at byte %zu (0x%02x, sent 0x%02x)%s",
			       a[n + k].plio, a[k].plio, i, rx[i], tx[i],
			       round ? " in a soak round" : "");
		aieth__rj_str(c->fig, "failed_channel", a[n + k].plio);
		aieth__rj_u64(c->fig, "first_bad_byte", i);
		goto out;
	}
	*bytes += 2ull * n * size;
	rc = 0;
out:
	aieth_txn_free(t);
	free(p);
	free(buf);
	free(a);
	return rc;
}

void aieth__vd_func(vd_ctx *c)
{
	uint64_t size = c->emu ? 4096 : 262144, bytes = 0;
	if (cannot(c))
		return;
	aieth__rj_int(c->fig, "channels", nchan(c));
	aieth__rj_u64(c->fig, "bytes_per_channel", size);
	if (func_pass(c, size, 0, &bytes) == 0)
		aieth__rj_u64(c->fig, "bytes_checked", bytes);
}

void aieth__vd_perf(vd_ctx *c)
{
	uint32_t n = nchan(c), k;
	uint64_t uram = (uint64_t)c->info->uram_depth_words * 16;
	uint64_t size = uram < 65536 ? uram : 65536, rep = c->emu ? 16 : 100;
	aieth_channel_args *a = calloc(2 * (size_t)n, sizeof *a);
	pair_names *p = NULL;
	aieth_txn *t = NULL;
	if (cannot(c))
		goto out;
	if (!a || pair_args(c, a, n, size, rep) || !(p = names_of(c, a, n))) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "out of memory for %u channels", n);
		goto out;
	}
	aieth__rj_u64(c->fig, "bytes_per_repetition", size);
	aieth__rj_u64(c->fig, "repetition", rep);
	if (!(t = run_txn(c, AIETH_MODE_PERF, a, 2 * (size_t)n)))
		goto out;
	free(c->perf);
	c->nperf = 0;
	if (!(c->perf = calloc(2 * (size_t)n, sizeof *c->perf))) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "out of memory");
		goto out;
	}
	for (k = 0; k < 2 * n; k++)
		aieth_txn_channel(t, k, &c->perf[k]);
	c->nperf = 2 * (size_t)n;
	c->perf_total = aieth_txn_total_cycles(t);
	aieth__rj_u64(c->fig, "total_cycles", c->perf_total);
out:
	aieth_txn_free(t);
	free(p);
	free(a);
}

static int need_perf(vd_ctx *c)
{
	if (cannot(c))
		return 1;
	if (!c->nperf) {
		aieth__vd_skip(c, "the PERF run (test %u) gave no counters", c->num - 1);
		return 1;
	}
	return 0;
}

void aieth__vd_counters(vd_ctx *c)
{
	size_t i, n;
	if (need_perf(c))
		return;
	n = c->nperf / 2;
	for (i = 0; i < c->nperf; i++) {
		const aieth_channel_result *r = &c->perf[i];
		if (!r->finished || r->first_cycle >= r->last_cycle) {
			aieth__vd_fail(c, AIETH_EXIT_FAIL,
				       "%s: first_cycle %llu is not before last_cycle %llu",
				       r->plio.name, (unsigned long long)r->first_cycle,
				       (unsigned long long)r->last_cycle);
			return;
		}
		/* one time base: every counter counts from the kernel's start */
		if (c->perf_total && r->last_cycle > c->perf_total) {
			aieth__vd_fail(
				c, AIETH_EXIT_FAIL,
				"%s: last_cycle %llu is past the kernel's total of %llu cycles: the "
				"counters do not share one time base",
				r->plio.name, (unsigned long long)r->last_cycle,
				(unsigned long long)c->perf_total);
			return;
		}
		if (i >= n && r->first_cycle < c->perf[i - n].first_cycle) {
			aieth__vd_fail(
				c, AIETH_EXIT_FAIL,
				"%s: its first beat (cycle %llu) came before %s sent its first "
				"(cycle %llu) through a loopback: the counters do not share one "
				"time base",
				r->plio.name, (unsigned long long)r->first_cycle,
				c->perf[i - n].plio.name,
				(unsigned long long)c->perf[i - n].first_cycle);
			return;
		}
	}
	aieth__rj_int(c->fig, "channels_checked", (int64_t)c->nperf);
}

void aieth__vd_rate(vd_ctx *c)
{
	size_t i, worst = 0;
	double min = 2, sum = 0;
	struct json_object *per;
	if (need_perf(c))
		return;
	per = aieth__rj_obj();
	for (i = 0; i < c->nperf; i++) {
		const aieth_channel_result *r = &c->perf[i];
		double f = r->cycles ? (double)r->bytes_moved / (double)r->cycles / 16.0 : 0;
		aieth__rj_num(per, r->plio.name, f);
		sum += f;
		if (f < min) {
			min = f;
			worst = i;
		}
	}
	aieth__rj_set(c->fig, "fraction_of_16B_per_cycle", per);
	aieth__rj_num(c->fig, "min_fraction", min);
	aieth__rj_num(c->fig, "mean_fraction", sum / (double)c->nperf);
	aieth__rj_num(c->fig, "pass_fraction", VD_RATE_PASS);
	aieth__rj_num(c->fig, "warn_fraction", VD_RATE_WARN);
	if (min < VD_RATE_WARN)
		aieth__vd_fail(
			c, AIETH_EXIT_FAIL,
			"%s moved %.1f %% of 16 B/cycle, below the %.0f %% a channel must reach",
			c->perf[worst].plio.name, min * 100, VD_RATE_WARN * 100);
	else if (min < VD_RATE_PASS)
		aieth__vd_warn(c, "%s moved %.1f %% of 16 B/cycle, below the expected %.0f %%",
			       c->perf[worst].plio.name, min * 100, VD_RATE_PASS * 100);
}

void aieth__vd_delay(vd_ctx *c)
{
	uint32_t n = nchan(c), k;
	aieth_channel_args *a = calloc(2 * (size_t)n, sizeof *a);
	pair_names *p = NULL;
	aieth_txn *t = NULL;
	int64_t worst = 0;
	if (cannot(c))
		goto out;
	if (!a || pair_args(c, a, n, 4096, 1) || !(p = names_of(c, a, n))) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "out of memory for %u channels", n);
		goto out;
	}
	for (k = 0; k < n; k++)
		a[k].delay = (uint64_t)k * DELAY_STEP;
	if (!(t = run_txn(c, AIETH_MODE_PERF, a, 2 * (size_t)n)))
		goto out;
	aieth__rj_int(c->fig, "step_cycles", DELAY_STEP);
	aieth__rj_int(c->fig, "tolerance_cycles", DELAY_TOL);
	for (k = 1; k < n; k++) {
		int64_t d = 0, want = (int64_t)k * DELAY_STEP, e;
		if (aieth_txn_delay_between(t, a[0].plio, a[k].plio, &d) != AIETH_OK) {
			aieth__vd_fail(c, AIETH_EXIT_INFRA, "%s", aieth_error_message());
			goto out;
		}
		e = d - want;
		if (e < 0)
			e = -e;
		if (e > worst)
			worst = e;
		if (e > DELAY_TOL) {
			aieth__vd_fail(
				c, AIETH_EXIT_FAIL,
				"%s started %lld cycles after %s for a delay of %lld (%lld off, more "
				"than %d)",
				a[k].plio, (long long)d, a[0].plio, (long long)want, (long long)e,
				DELAY_TOL);
			goto out;
		}
	}
	aieth__rj_int(c->fig, "worst_error_cycles", worst);
out:
	aieth_txn_free(t);
	free(p);
	free(a);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void aieth__vd_soak(vd_ctx *c)
{
	uint64_t size = c->emu ? 4096 : 1048576, bytes = 0, round;
	double t0 = mono_s(), until = t0 + c->soak_s;
	if (cannot(c))
		return;
	aieth__rj_int(c->fig, "soak_s", c->soak_s);
	aieth__rj_u64(c->fig, "bytes_per_channel", size);
	/* at least one round; then until the time is up (bounded) */
	for (round = 1; round <= MAX_SOAK_ROUNDS; round++) {
		if (func_pass(c, size, round, &bytes) != 0)
			break;
		if (mono_s() >= until || (c->o->interrupt && *c->o->interrupt))
			break;
	}
	aieth__rj_u64(c->fig, "rounds", round > MAX_SOAK_ROUNDS ? MAX_SOAK_ROUNDS : round);
	aieth__rj_u64(c->fig, "bytes_checked", bytes);
	aieth__rj_num(c->fig, "seconds", mono_s() - t0);
}
