/* SPDX-License-Identifier: MIT */
/*
 * runner/run_internal.h - what the runner's files share (not installed):
 * run_report.c loads a description and closes its tests; runner.c runs
 * it (the device, graphs, transactions, the report's test); sweep.c runs
 * each point of a sweep; run_ctx.c records its errors and exit code; run_data.c
 * opens, streams and checks each channel's data; run_results.c turns a
 * finished transaction's channels into report entries.
 */
#ifndef AIETH_SPEC_RUN_INTERNAL_H
#define AIETH_SPEC_RUN_INTERNAL_H

#include <json-c/json.h>

#include "aieth.h"
#include "data/data.h"
#include "runner/spec.h"
#include "sensors/sensors.h"
#include "util/fileio.h"
#include "util/stats.h"

#define DEFAULT_TIMEOUT_MS 10000u
#define MAX_DATA_BYTES ((size_t)1 << 36) /* 64 GiB: the PL kernel's own limit */

typedef struct json_object jobj;

/* Per channel, what the run needs besides the description. The data is
 * opened for one transaction at a time (chan_open / chan_close) and streams:
 * TX from a file or pattern read where the device asks (src), RX compared
 * with the golden source and saved as it arrives (rx_write). Text files are
 * converted once per run (run_texts.c) and read from memory, or past its
 * bounds from a scratch file that streams the same way; tiling keeps its
 * buffers whole (mem, golden). */
typedef struct {
	aieth_plio pl;
	uint64_t size;
	size_t esize; /* element size for tiling / comparison */
	aieth_elem etype;
	int have_etype;
	/* open for the running transaction */
	int fd, gfd;    /* binary data / golden files, -1 when none */
	aieth_src src;  /* TX data */
	aieth_src gsrc; /* RX golden (not tiling) */
	int have_golden;
	uint8_t *mem;    /* TX: whole data (text, tiling); RX: the stream (tiling) */
	uint8_t *golden; /* RX tiling: the whole golden buffer */
	size_t golden_len;
	uint64_t hwm;     /* RX: bytes taken so far */
	uint64_t cmp_len; /* RX: bytes compared with golden data */
	aieth_compare_result cmp;
	double abs_tol, rel_tol;
	uint8_t *scratch; /* RX: a window of golden bytes, read ahead */
	size_t scratch_cap;
	uint64_t gwin_off, gwin_len; /* the golden bytes gwin holds */
	const uint8_t *gwin;         /* scratch, or the read-ahead's window */
	struct rn_ahead *ahead;      /* RX: golden file read ahead, or NULL */
	int saving;                  /* RX: out is open */
	uint8_t *save_buf;           /* RX: saved bytes not written yet (save_n) */
	size_t save_n;
	aieth_out out;
	char *save_path;
	int save_text;
	aieth_elem save_type;
	int save_failed; /* the save's first error is in save_err */
	char save_err[512];
	int io_failed; /* a read of data or golden failed: io_err */
	char io_err[512];
	int no_save; /* a repeated run that is not the saved one (the last) */
} chan_run;

/* run_ahead.c: a golden file read windows ahead on a worker thread
 * (NULL when not a file, too small for it, or no thread to spare: read
 * synchronously). get returns the window [off, off+n), n as the caller
 * cuts windows (window bytes, the last shorter), valid until the next get;
 * NULL with the error set on the caller's thread. stop waits for a read
 * under way, then frees (safe on NULL). wakes: how often get woke the
 * worker (at most one in two windows in order, and one to start). */
typedef struct rn_ahead rn_ahead;
rn_ahead *aieth__rn_ahead_start(const aieth_src *src, uint64_t len, size_t window);
const uint8_t *aieth__rn_ahead_get(rn_ahead *a, uint64_t off, size_t n);
void aieth__rn_ahead_stop(rn_ahead *a);
uint64_t aieth__rn_ahead_wakes(const rn_ahead *a);

/* run_texts.c: text data converted once per description's run (a sweep's
 * points, repeats and the checks before the run read the same bytes). */
#define RN_TEXTS_MAX_BYTES ((uint64_t)64 << 20) /* held in memory in all */
#define RN_TEXTS_MAX_FILES 64
typedef struct rn_texts rn_texts;
/* The binary of the text file at path as a source: held (src MEM, *fd
 * -1), or past the bounds a scratch file (src FILE, *fd open: the caller
 * closes it). *tp is made at the first use. */
int aieth__rn_texts_open(rn_texts **tp, const char *path, aieth_elem type, aieth_src *src, int *fd);
void aieth__rn_texts_free(rn_texts *t);

typedef struct {
	aieth_report *r;
	const aieth_run_opts *o;
	aieth_spec *sp;
	jobj *test;
	int exit_code;
	const aieth_board *board;
	aieth_board *own_board;
	chan_run **cr;         /* per transaction, per channel */
	char phase[160];       /* the transaction running, for progress */
	char server_info[160]; /* backend remote: aieth_session_server() */
	/* repeats (the options' or the description's "repeat", aieth__rn_repeat_check) */
	uint32_t runs, warmup;
	aieth__stat statistic;
	/* power and temperature while the test runs (run_sensors.c) */
	sens_sampler *sampler;
	sens_set sens;
	/* backend remote: the server's sensors, read through the session */
	aieth_session *sens_session;
	aieth_sensor *sens_buf; /* AIETH_SENSORS_MAX */
	int sens_remote;        /* the set came from the server */
	rn_texts *texts;        /* text data converted (run_texts.c), freed with the run */
} run_ctx;

/* run_ctx.c */
/* run_aie.c: the time before a wait (mark), and after a hang the xrt
 * backend's artifacts/aie_state.json written since then put in the test
 * as "aie_state" (take). */
struct timespec;
void aieth__rn_aie_state_mark(run_ctx *c, struct timespec *since);
void aieth__rn_aie_state_take(run_ctx *c, const struct timespec *since);
void aieth__rn_test_error(run_ctx *c, const char *phase, int code, const char *hint, int exit_code);
int aieth__rn_exit_for(int code);

/* run_data.c */
int aieth__rn_chan_open(run_ctx *c, const spec_txn *st, const spec_chan *sc, chan_run *cr,
			int open);
void aieth__rn_chan_close(chan_run *cr);
int aieth__rn_tx_read(void *ctx, uint64_t off, void *buf, size_t n);
int aieth__rn_rx_write(void *ctx, uint64_t off, const void *buf, size_t n);
/* RX bytes never received, up to upto, count as zeros (compared, saved). */
int aieth__rn_rx_zeros(chan_run *cr, uint64_t upto);
/* writes the saved bytes still batched, before the save is committed; a
 * failure fails the save (save_failed, save_err) */
int aieth__rn_rx_save_flush(chan_run *cr);
int aieth__rn_prepare(run_ctx *c);

/* run_inputs.c: the channels' sizes against the graph models' ports in the
 * open session, before anything runs (docs/test-spec.md "Sizes the graph
 * decides"): 0, or an error set (AIETH_EINVAL: an input mistake). */
int aieth__rn_inputs_check(run_ctx *c, aieth_session *s);
/* After the run, a hang's verdict_detail: "data_size_mismatch" (every
 * graph completed its bounded run, an RX channel is short or a TX channel
 * not read to its end: exit code 2, the hint names each such channel) or
 * "stall" (exit code 5 kept). */
void aieth__rn_inputs_verdict(run_ctx *c);

/* runner.c: one run in steps, so a sweep (sweep.c) runs its points in
 * one session: begin the test (-1: its error recorded), check its data,
 * open the session, run the graphs and transactions, close; finish the
 * test (once). */
int aieth__rn_test_begin(run_ctx *c);
int aieth__rn_prepare_test(run_ctx *c);
int aieth__rn_session_open(run_ctx *c, aieth_session **s);
void aieth__rn_run_point(run_ctx *c, aieth_session *s, int sweep, int again);
void aieth__rn_session_close(run_ctx *c, aieth_session *s);
void aieth__rn_test_finish(run_ctx *c, double t0);
void aieth__rn_free_data(run_ctx *c);
/* the steps in turn: one description without a sweep */
void aieth__rn_run_spec(run_ctx *c);
/* 1 when the run was interrupted (the test's error then recorded once) */
int aieth__rn_check_interrupt(run_ctx *c, const char *where);

/* sweep.c: 0 when the run has no sweep; else every point ran as a test
 * (the last one is c->test), or the sweep's error is c->test's. */
int aieth__rn_sweep(run_ctx *c, double t0);

/* run_sensors.c: start the sampler as a test's graphs start, stop it
 * and write the test's "sensors" (and the temperature warning) when
 * they end; absent: what a test that never ran says (aieth__rn_test_finish). */
void aieth__rn_sensors_start(run_ctx *c, aieth_session *s);
void aieth__rn_sensors_stop(run_ctx *c);
void aieth__rn_sensors_absent(run_ctx *c);

/* run_results.c: a channel's data checks and verdict; its thresholds
 * come after every run (aieth__rn_txn_summary) */
int aieth__rn_channel_result(run_ctx *c, const spec_txn *st, aieth_txn *t, size_t idx, jobj *chans);

/* run_repeat.c: the runs, the warm-ups and the statistic of the options
 * or the description, checked against the limits (before any run; the
 * test's error is recorded): 0 or -1. */
int aieth__rn_repeat_check(run_ctx *c);
/* A measured run's figures, kept for the summary instead of its report
 * objects (NULL: out of memory); freed by aieth__rn_run_free. */
typedef struct rn_run rn_run;
rn_run *aieth__rn_run_keep(const spec_txn *st, jobj *run);
void aieth__rn_run_free(rn_run *r);
/* One transaction's runs into its report entry tj: runs[0..n) the measured
 * runs that completed, last the object of runs[n-1] (its saved_to; it
 * becomes the median run's), broken a run that did not complete (NULL:
 * none; else it is what tj shows), failed the runs_failed entries so far.
 * Fills tj (median_run, stats, thresholds, latencies' verdicts) and
 * returns the exit code of the thresholds. */
int aieth__rn_txn_summary(run_ctx *c, const spec_txn *st, jobj *tj, rn_run **runs, size_t n,
			  jobj *last, jobj *broken, jobj *failed);
/* The runs_failed entries of a run that completed: each channel whose
 * data check did not pass. r: the run's index among all runs. */
void aieth__rn_run_failures(run_ctx *c, const spec_txn *st, jobj *run, uint32_t r, jobj *failed);

#endif /* AIETH_SPEC_RUN_INTERNAL_H */
