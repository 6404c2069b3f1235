/* SPDX-License-Identifier: MIT */
/*
 * run_results.c - a finished transaction's channel into the report:
 * counters, throughput, validity, data integrity, saved data, thresholds
 * and the channel's verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

/* ----------------------------------------------------- channel results */

static void put_integrity(jobj *ch, int checked, const char *reason,
			  const aieth_compare_result *cmp)
{
	jobj *in = aieth__rj_obj();
	aieth__rj_bool(in, "checked", checked);
	if (!checked) {
		aieth__rj_str(in, "reason", reason);
	} else {
		aieth__rj_u64(in, "elements", cmp->elements);
		aieth__rj_u64(in, "mismatches", cmp->mismatches);
		if (cmp->mismatches) {
			jobj *fm = aieth__rj_obj();
			aieth__rj_u64(fm, "offset", cmp->first_offset);
			aieth__rj_u64(fm, "index", cmp->first_index);
			aieth__rj_str(fm, "got", cmp->first_got);
			aieth__rj_str(fm, "expected", cmp->first_want);
			aieth__rj_set(in, "first_mismatch", fm);
		} else {
			aieth__rj_null(in, "first_mismatch");
		}
		aieth__rj_num(in, "max_abs_error", cmp->max_abs_error);
	}
	aieth__rj_set(ch, "integrity", in);
}

/* Save what arrived; relative paths go under the output directory, their
 * folders there never reached through a link (aieth__out_open_below). */
static int save_rx(run_ctx *c, const spec_chan *sc, const chan_run *cr, const uint8_t *data,
		   size_t len, jobj *ch)
{
	const char *base = c->o && c->o->out_dir ? c->o->out_dir : ".";
	char *path = aieth__path_join(base, sc->save.path), *text = NULL;
	size_t n;
	int rc;
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (sc->save.kind == SRC_TEXT) {
		rc = aieth__text_format(sc->save.have_type ? sc->save.type : cr->etype, data, len,
					&text, &n);
		if (rc)
			rc = aieth__fail_prefix(rc, "%s", path);
		else
			rc = aieth__write_atomic_below(base, sc->save.path, text, n);
		free(text);
	} else {
		rc = aieth__write_atomic_below(base, sc->save.path, data, len);
	}
	if (!rc)
		aieth__rj_str(ch, "saved_to", path);
	free(path);
	return rc;
}

/* Results of one channel of one run into the report; returns the exit
 * code of its data checks (the verdict says "pass" for data that passed:
 * thresholds apply to a statistic of all runs, aieth__rn_txn_summary). */
int aieth__rn_channel_result(run_ctx *c, const spec_txn *st, aieth_txn *t, size_t idx, jobj *chans)
{
	const spec_chan *sc = &st->ch[idx];
	chan_run *cr = &c->cr[st - c->sp->txns][idx];
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	aieth_channel_result res;
	jobj *ch = aieth__rj_obj(), *pl = aieth__rj_obj(), *th = aieth__rj_arr();
	aieth_txn_status status = aieth_txn_get_status(t);
	int tx = cr->pl.dir == AIETH_DIR_TO_AIE, code = AIETH_EXIT_PASS;
	const char *verdict;
	int answered;

	/* a channel the library cannot answer for is an error, never a pass
	 * (and nothing of an unfilled result reaches the report) */
	memset(&res, 0, sizeof res);
	answered = aieth_txn_channel(t, idx, &res) == AIETH_OK;
	if (!answered) {
		snprintf(res.plio.name, sizeof res.plio.name, "%s", sc->plio);
		code = AIETH_EXIT_INFRA;
	}
	aieth__rj_str(ch, "plio", res.plio.name);
	aieth__rj_str(ch, "direction", tx ? "to_aie" : "from_aie");
	aieth__rj_int(ch, "index", res.plio.index);
	aieth__rj_int(pl, "shim_column", res.plio.shim_column);
	aieth__rj_int(pl, "shim_channel", res.plio.shim_channel);
	aieth__rj_set(ch, "placement", pl);
	aieth__rj_int(ch, "width_bits", bi->stream_width_bits);
	aieth__rj_u64(ch, "size_bytes", res.size);
	aieth__rj_u64(ch, "repetition", res.repetition);
	aieth__rj_u64(ch, "delay_cycles", res.delay);
	aieth__rj_u64(ch, "bytes_expected", res.bytes_expected);
	aieth__rj_u64(ch, "bytes_moved", res.bytes_moved);
	aieth__rj_u64(ch, "beats", res.bytes_moved / 16);
	aieth__rj_u64(ch, "user_bytes", res.user_bytes);
	aieth__rj_bool(ch, "finished", res.finished);
	if (res.finished) {
		aieth__rj_u64(ch, "first_cycle", res.first_cycle);
		aieth__rj_u64(ch, "last_cycle", res.last_cycle);
		aieth__rj_u64(ch, "cycles", res.cycles);
		aieth__rj_num(ch, "duration_ns",
			      (double)res.cycles * 1e9 / (double)bi->pl_clock_hz);
		aieth__rj_num(ch, "throughput_MBps", res.mb_per_s);
		aieth__rj_num(ch, "throughput_MiBps", res.mib_per_s);
		aieth__rj_null(ch, "stalled_since_cycle");
	} else {
		aieth__rj_null(ch, "first_cycle");
		aieth__rj_null(ch, "last_cycle");
		aieth__rj_null(ch, "cycles");
		aieth__rj_null(ch, "duration_ns");
		aieth__rj_null(ch, "throughput_MBps");
		aieth__rj_null(ch, "throughput_MiBps");
		/* where the channel stood when the board stalled or was stopped */
		if (status == AIETH_TXN_TIMEOUT || status == AIETH_TXN_INTERRUPTED)
			aieth__rj_u64(ch, "stalled_since_cycle", res.stalled_since);
		else
			aieth__rj_null(ch, "stalled_since_cycle");
	}
	aieth__rj_num(ch, "theoretical_MBps", res.peak_mb_per_s);
	if (res.finished)
		aieth__rj_num(ch, "utilisation_pct", res.utilisation_pct);
	else
		aieth__rj_null(ch, "utilisation_pct");
	aieth__rj_bool(ch, "valid", res.valid);

	/* data integrity */
	if (tx) {
		put_integrity(ch, 0, "sent data is not checked", NULL);
	} else if (status != AIETH_TXN_DONE || !answered) {
		put_integrity(ch, 0, "the transaction did not complete", NULL);
	} else {
		/* what came back: PERF returns at most the URAM capacity */
		size_t got = (size_t)res.user_bytes;
		uint8_t *tiled = NULL;
		aieth_compare_result cmp;
		int saved = 0;
		memset(&cmp, 0, sizeof cmp);
		if (!cr->io_failed)
			aieth__rn_rx_zeros(cr,
					   got); /* not received: zeros, as in a zeroed buffer */
		if (sc->have_tiling) {
			/* the stream arrived whole in cr->mem: scatter, compare, save */
			size_t bb = (size_t)aieth__tiling_buffer_elems(&sc->tiling) * cr->esize;
			size_t n = bb < cr->golden_len ? bb : cr->golden_len;
			tiled = calloc(1, bb ? bb : 1);
			if (!tiled) {
				aieth__fail(AIETH_ENOMEM, "out of memory for the tiling buffer");
				aieth__rn_test_error(c, "check", AIETH_ENOMEM, NULL,
						     AIETH_EXIT_INFRA);
				code = AIETH_EXIT_INFRA;
			} else {
				aieth__tiling_scatter(&sc->tiling, cr->esize, cr->mem, tiled);
				n -= n % cr->esize;
				if (cr->golden)
					aieth__compare(tiled, cr->golden, n, cr->etype, sc->abs_tol,
						       sc->rel_tol, &cmp);
				if (sc->save.kind && !cr->no_save &&
				    save_rx(c, sc, cr, tiled, bb, ch))
					cr->save_failed = 1;
				saved = 1;
			}
		} else {
			cmp = cr->cmp;
		}
		if (cr->io_failed) {
			aieth__fail(AIETH_EIO, "%s: %s", sc->jpath, cr->io_err);
			put_integrity(ch, 0, cr->io_err, NULL);
			aieth__rn_test_error(c, "check", AIETH_EIO, NULL, AIETH_EXIT_INPUT);
			code = aieth__exit_worst(code, AIETH_EXIT_INPUT);
		} else if (!res.valid && (cr->golden || cr->have_golden)) {
			/* never a pass: the data cannot be what the description expects */
			put_integrity(ch, 0,
				      "not valid: the size exceeds the URAM, the data beyond it is "
				      "filler (TX) or wrapped (RX)",
				      NULL);
			aieth__fail(AIETH_EINVAL,
				    "%s: golden data given, but the received data is "
				    "not valid (beyond the URAM)",
				    sc->jpath);
			aieth__rn_test_error(c, "check", AIETH_EINVAL, NULL, AIETH_EXIT_INPUT);
			code = aieth__exit_worst(code, AIETH_EXIT_INPUT);
		} else if (!res.valid) {
			put_integrity(ch, 0,
				      "not valid: the size exceeds the URAM, the data beyond it is "
				      "filler (TX) or wrapped (RX)",
				      NULL);
		} else if (cr->golden || cr->have_golden) {
			put_integrity(ch, 1, NULL, &cmp);
			if (cmp.mismatches)
				code = AIETH_EXIT_FAIL;
		} else {
			put_integrity(ch, 0, "no golden data given", NULL);
		}
		if (sc->save.kind && !saved && !cr->no_save) {
			if (cr->saving && !cr->save_failed && !cr->io_failed &&
			    aieth__rn_rx_save_flush(cr) == AIETH_OK &&
			    aieth__out_commit(&cr->out) == AIETH_OK) {
				aieth__rj_str(ch, "saved_to", cr->save_path);
			} else if (!cr->save_failed) {
				cr->save_failed = 1;
				snprintf(cr->save_err, sizeof cr->save_err, "%s",
					 cr->io_failed ? "not saved: reading the data failed"
						       : aieth_error_message());
			} else {
				aieth__fail(AIETH_EIO, "%s", cr->save_err);
			}
			cr->saving = 0;
		}
		if (sc->save.kind && cr->save_failed) {
			aieth__rn_test_error(c, "save", AIETH_EIO, "check --out and the save path",
					     AIETH_EXIT_INPUT);
			code = aieth__exit_worst(code, AIETH_EXIT_INPUT);
		}
		free(tiled);
	}
	aieth__rj_set(ch, "thresholds", th); /* aieth__rn_txn_summary: after every run */
	if (status == AIETH_TXN_TIMEOUT)
		verdict = res.finished ? "pass" : "timeout";
	else if (status == AIETH_TXN_INTERRUPTED)
		verdict = "interrupted";
	else if (status != AIETH_TXN_DONE || !answered)
		verdict = "error";
	else
		verdict = code == AIETH_EXIT_PASS   ? "pass"
			  : code == AIETH_EXIT_FAIL ? "fail"
						    : "error";
	aieth__rj_str(ch, "verdict", verdict);
	aieth__rj_push(chans, ch);
	return code;
}
