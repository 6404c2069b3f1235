/* SPDX-License-Identifier: MIT */
/*
 * results.c - computing the per-channel results of a transaction: counters
 * from the perf words (or the emulator's progress when the kernel did not
 * complete), throughput at the board's own clock, validity. It calls
 * nothing of txn.c (txn.c calls it, and answers the queries).
 */
#include <stdio.h>
#include <string.h>

#include "core/results.h"
#include "core/session_internal.h"

static void add_reason(aieth_txn *t, const char *fmt, const char *plio, unsigned long long a,
		       unsigned long long b)
{
	size_t n = strlen(t->msg);
	if (n + 2 >= sizeof t->msg)
		return;
	if (n)
		n += (size_t)snprintf(t->msg + n, sizeof t->msg - n, "; ");
	if (n < sizeof t->msg)
		snprintf(t->msg + n, sizeof t->msg - n, fmt, plio, a, b);
}

void aieth__txn_compute_results(aieth_txn *t)
{
	const aieth_board_info *bi = t->s->info;
	uint32_t N = bi->channels;
	uint64_t uram = (uint64_t)bi->uram_depth_words * 16u;
	double clock = (double)bi->pl_clock_hz, peak = aieth_board_channel_peak_bps(t->s->board);
	uint64_t *pf = t->wire.perf;
	size_t i;
	int done = t->status == AIETH_TXN_DONE;

	t->valid = done;
	for (i = 0; i < t->n; i++) {
		aieth_channel_result *r = &t->res[i];
		const aieth_channel_args *a = &t->args[i];
		int tx = t->plios[i].dir == AIETH_DIR_TO_AIE;
		uint32_t c = t->plios[i].index;

		memset(r, 0, sizeof *r);
		r->plio = t->plios[i];
		r->size = a->size;
		r->repetition = a->repetition;
		r->delay = a->delay;
		r->bytes_expected = a->size * a->repetition;
		r->peak_mb_per_s = peak / 1e6;
		r->user_bytes = t->mode == AIETH_MODE_PERF && a->size > uram ? uram : a->size;
		r->valid = 1;
		if (done) {
			r->finished = 1;
			r->bytes_moved = r->bytes_expected;
			r->first_cycle = tx ? pf[c] : pf[2 * N + c];
			r->last_cycle = tx ? pf[N + c] : pf[3 * N + c];
		} else if (t->dev.have_progress) {
			const aieth_dev_chan *d = tx ? &t->dev.tx[c] : &t->dev.rx[c];
			r->bytes_moved = d->moved_bytes;
			r->finished = r->bytes_moved == r->bytes_expected;
			r->first_cycle = d->first_cycle;
			r->last_cycle = d->last_cycle;
			r->stalled_since = d->stalled_since;
		}
		if (r->finished && r->last_cycle > r->first_cycle) {
			r->cycles = r->last_cycle - r->first_cycle;
			r->mb_per_s = (double)r->bytes_expected * clock / (double)r->cycles / 1e6;
			r->mib_per_s = r->mb_per_s * 1e6 / 1048576.0;
			r->utilisation_pct = r->mb_per_s / r->peak_mb_per_s * 100.0;
		}
		if (t->mode == AIETH_MODE_PERF && a->size > uram) {
			r->valid = 0;
			t->valid = 0;
			if (done)
				add_reason(
					t,
					tx ? "%s: %llu bytes exceed the %llu-byte URAM; the rest "
					     "of each repetition is filler data"
					   : "%s: %llu bytes exceed the %llu-byte URAM; only the "
					     "last bytes by position are returned",
					r->plio.name, (unsigned long long)a->size,
					(unsigned long long)uram);
		}
	}
}
