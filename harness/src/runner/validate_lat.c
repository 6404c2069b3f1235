/* SPDX-License-Identifier: MIT */
/*
 * validate_lat.c - run_test validate, level 3: the FUNC path's memory read
 * latency per channel, from the first-beat times of FUNC transactions at
 * several sizes and delays (the way xbtest ramps its memory tests). The
 * transactions are a test description run as any other, so that its
 * description and report.json are the pair `run_test calibrate` takes
 * (DESC=REPORT) to teach the emulated board this board's latency.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report_model.h"
#include "runner/validate_internal.h"
#include "util/fileio.h"
#include "util/sbuf.h"

static const uint64_t sizes[] = {256, 4096, 65536};
/* no delay, and one past the latency of the last channel in the queue
 * (36 channels of about 82 cycles each after the first 64 on the model) */
static const uint64_t delays[] = {0, 8192};

static void json_str(sbuf *b, const char *s)
{
	struct json_object *j = json_object_new_string(s ? s : "");
	aieth__sb_printf(b, "%s", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
}

/* The description: one FUNC transaction per size and delay, every pair. */
static int describe(vd_ctx *c, sbuf *b, uint32_t n)
{
	size_t si, di;
	uint32_t k;
	sb_lit(b, "{\n  \"schema\": \"aieth-test/1\",\n  \"name\": \"validate_latency\",\n");
	sb_lit(b, "  \"description\": \"run_test validate level 3: FUNC first-beat times at "
		  "several sizes and delays, for run_test calibrate\",\n  \"board\": ");
	json_str(b, c->info->name);
	sb_lit(b, ",\n  \"graphs\": [{\"name\": \"loopback\", \"model\": ");
	json_str(b, c->emu && c->o->model ? c->o->model : "loopback");
	if (c->emu && c->o->model_params)
		aieth__sb_printf(b, ", \"params\": %s", c->o->model_params);
	sb_lit(b, "}],\n  \"transactions\": [");
	for (si = 0; si < sizeof sizes / sizeof *sizes; si++)
		for (di = 0; di < sizeof delays / sizeof *delays; di++) {
			aieth__sb_printf(b,
					 "%s\n    {\"name\": \"s%llu_d%llu\", \"mode\": \"func\", "
					 "\"channels\": [",
					 si || di ? "," : "", (unsigned long long)sizes[si],
					 (unsigned long long)delays[di]);
			for (k = 0; k < n; k++) {
				aieth_plio tx, rx;
				aieth_board_plio_at(c->board, AIETH_DIR_TO_AIE, k, &tx);
				aieth_board_plio_at(c->board, AIETH_DIR_FROM_AIE, k, &rx);
				aieth__sb_printf(
					b,
					"%s\n      {\"plio\": \"%s\", \"size\": %llu, \"delay\": "
					"%llu, \"data\": {\"pattern\": \"random\", \"seed\": %u}},"
					"\n      {\"plio\": \"%s\", \"size\": %llu, \"golden\": "
					"{\"pattern\": \"random\", \"seed\": %u}}",
					k ? "," : "", tx.name, (unsigned long long)sizes[si],
					(unsigned long long)delays[di], k + 1, rx.name,
					(unsigned long long)sizes[si], k + 1);
			}
			sb_lit(b, "]}");
		}
	sb_lit(b, "\n  ]\n}\n");
	return b->oom ? -1 : 0;
}

/* RX k's first beat (cycle) in transaction ti: channels are TX k, RX k. */
static int rx_first(struct json_object *txns, size_t ti, size_t k, int64_t *out)
{
	struct json_object *chs = aieth__rj_get(json_object_array_get_idx(txns, ti), "channels");
	struct json_object *ch = chs ? json_object_array_get_idx(chs, 2 * k + 1) : NULL;
	if (!ch || !aieth__rj_get(ch, "first_cycle") ||
	    !json_object_is_type(aieth__rj_get(ch, "first_cycle"), json_type_int))
		return -1;
	*out = aieth__rj_geti(ch, "first_cycle");
	return 0;
}

/* Per channel: with no delay the reader's first burst is on the first
 * beat's path; with a delay of D >= the latency the burst was read during
 * the delay, so RX's first beat comes D plus the stream's own cycles after
 * the start. The difference, rx_first(0) - (rx_first(D) - D), is the read
 * latency (queueing behind other channels' bursts included); the smallest
 * over the sizes is the figure. */
static void estimate(vd_ctx *c, aieth_report *sub, uint32_t n)
{
	struct json_object *t = json_object_array_get_idx(sub->tests, 0);
	struct json_object *txns = aieth__rj_get(t, "transactions"), *per = aieth__rj_obj();
	const size_t nd = sizeof delays / sizeof *delays;
	size_t si, k;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (k = 0; k < n; k++) {
		int64_t best = INT64_MAX;
		aieth_plio tx;
		for (si = 0; si < sizeof sizes / sizeof *sizes; si++) {
			int64_t f0, fd, est;
			if (rx_first(txns, si * nd, k, &f0) || rx_first(txns, si * nd + 1, k, &fd))
				continue;
			est = f0 - (fd - (int64_t)delays[1]);
			best = est < best ? est : best;
		}
		if (best == INT64_MAX ||
		    aieth_board_plio_at(c->board, AIETH_DIR_TO_AIE, (uint32_t)k, &tx) != AIETH_OK)
			continue;
		aieth__rj_int(per, tx.name, best);
		lo = best < lo ? best : lo;
		hi = best > hi ? best : hi;
	}
	aieth__rj_set(c->fig, "read_latency_cycles_per_channel", per);
	if (hi >= lo) {
		aieth__rj_int(c->fig, "read_latency_cycles_min", lo);
		aieth__rj_int(c->fig, "read_latency_cycles_max", hi);
		aieth__rj_num(c->fig, "read_latency_ns_min",
			      (double)lo * 1e9 / (double)c->info->pl_clock_hz);
		if (lo >= (int64_t)delays[1])
			aieth__vd_warn(
				c,
				"a read latency of %lld cycles is not below the %llu-cycle delay: "
				"the figure is a lower bound",
				(long long)lo, (unsigned long long)delays[1]);
	}
	aieth__rj_int(c->fig, "emulator_read_latency_cycles",
		      c->info->func_memory.read_latency_cycles);
}

void aieth__vd_latency(vd_ctx *c)
{
	aieth_run_opts ro = AIETH_RUN_OPTS_INIT;
	aieth_report *sub = NULL;
	sbuf b = SB_INIT(SB_DOC_MAX);
	char dir[4096], desc[4200], rep[4200];
	const char *out = c->o->out_dir ? c->o->out_dir : ".";
	uint32_t n = c->o->channels && c->o->channels < c->info->channels ? c->o->channels
									  : c->info->channels;
	int code;
	if (c->design_why[0] || !c->s) {
		aieth__vd_skip(c, "%s",
			       c->design_why[0] ? c->design_why : "the device is not open");
		return;
	}
	/* the description opens its own session: the suite's one lets go */
	aieth_graph_end(c->s, "loopback");
	aieth_session_close(c->s);
	c->s = NULL;
	snprintf(dir, sizeof dir, "%s/calibration", out);
	snprintf(desc, sizeof desc, "%s/latency_test.json", dir);
	snprintf(rep, sizeof rep, "%s/latency_report.json", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "%s: %s", dir, strerror(errno));
		return;
	}
	if (describe(c, &b, n) || aieth__write_atomic(desc, b.p, b.n) != AIETH_OK) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "%s: %s", desc,
			       b.oom ? "out of memory" : aieth_error_message());
		aieth__sb_free(&b);
		return;
	}
	aieth__sb_free(&b);
	ro.board = c->board_name;
	ro.data_dir = c->data_dir;
	ro.out_dir = dir;
	ro.backend = c->backend;
	ro.emu = c->o->emu;
	ro.xrt = c->o->xrt;
	ro.remote = c->o->remote;
	ro.interrupt = c->o->interrupt;
	if (!c->emu && !c->remote)
		ro.xclbin = c->design;
	if (aieth_report_new(&sub, "run_test validate", 0, NULL) != AIETH_OK ||
	    aieth_report_run(sub, desc, &ro) != AIETH_OK || aieth_report_finish(sub) != AIETH_OK ||
	    aieth_report_write_json(sub, rep) != AIETH_OK) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the latency run: %s", aieth_error_message());
		aieth_report_free(sub);
		return;
	}
	aieth__rj_str(c->fig, "description", desc);
	aieth__rj_str(c->fig, "report", rep);
	code = aieth_report_exit_code(sub);
	if (code != AIETH_EXIT_PASS) {
		struct json_object *e =
			aieth__rj_get(json_object_array_get_idx(sub->tests, 0), "error");
		aieth__vd_fail(c, code, "the latency run (%s) ended %s%s%s", rep,
			       aieth__exit_status(code), e ? ": " : "",
			       e ? aieth__rj_gets(e, "message") : "");
		if (code == AIETH_EXIT_TIMEOUT) {
			c->stop_exit = code;
			snprintf(c->stop_why, sizeof c->stop_why, "the board hung in test %u",
				 c->num);
		}
		aieth_report_free(sub);
		return;
	}
	estimate(c, sub, n);
	{
		char cmd[9000];
		snprintf(cmd, sizeof cmd, "run_test calibrate --board %s -o fitted.json %s=%s",
			 c->board_name, desc, rep);
		aieth__rj_str(c->fig, "calibrate", cmd);
	}
	aieth_report_free(sub);
}
