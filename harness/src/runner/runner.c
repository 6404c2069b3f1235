/* SPDX-License-Identifier: MIT */
/*
 * runner.c - run one test description and record it as a test of a report,
 * in steps (run_report.c takes a description through them, sweep.c each
 * point of a sweep): check the description against the board and every
 * channel's data (run_data.c), open the device, run the graphs and the
 * transactions (each with its data opened just for it), record each
 * channel (run_results.c), and classify the outcome by the exit-code
 * contract.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/fileio.h"
#include "util/path.h"

/* The signal number the run was interrupted by, 0 when it was not. */
static int interrupted(const run_ctx *c)
{
	return c->o && c->o->interrupt ? (int)*c->o->interrupt : 0;
}

/* Record an interruption (once) and stop: exit code 128 + N. */
static int check_interrupt(run_ctx *c, const char *where)
{
	int sig = interrupted(c);
	if (!sig)
		return 0;
	if (c->exit_code < AIETH_EXIT_SIGNAL) {
		aieth__fail(AIETH_ESTATE, "interrupted by signal %d%s while %s", sig,
			    sig == 2    ? " (SIGINT)"
			    : sig == 15 ? " (SIGTERM)"
			    : sig == 1  ? " (SIGHUP)"
					: "",
			    where);
		if (aieth__rj_get(c->test, "error"))
			json_object_object_del(c->test, "error");
		aieth__rn_test_error(
			c, "interrupted", AIETH_ESTATE,
			"the run was stopped by a signal; results after this point are missing",
			AIETH_EXIT_SIGNAL + (sig > 0 && sig < 128 ? sig : 0));
	}
	return 1;
}

/* ------------------------------------------------------------ the run */

static void add_progress(run_ctx *c, const char *phase, uint64_t done, uint64_t total)
{
	if (c->o && c->o->progress)
		c->o->progress(c->o->progress_ctx, phase, done, total);
}

/* The session's progress hook: bytes moved in the running transaction. */
static void txn_progress(void *ctx, uint64_t done, uint64_t total)
{
	run_ctx *c = ctx;
	add_progress(c, c->phase, done, total);
}

/* The session's artifact hook (backend remote): each file fetched into
 * the artifacts folder is listed in the test. */
static void got_artifact(void *ctx, const char *path, uint64_t bytes)
{
	run_ctx *c = ctx;
	jobj *a = aieth__rj_get(c->test, "artifacts"), *f = aieth__rj_obj();
	const char *base = strrchr(path, '/');
	if (!a) {
		a = aieth__rj_arr();
		aieth__rj_set(c->test, "artifacts", a);
	}
	aieth__rj_str(f, "name", base ? base + 1 : path);
	aieth__rj_str(f, "path", path);
	aieth__rj_u64(f, "bytes", bytes);
	aieth__rj_push(a, f);
}

/* The session's queue hook (backend remote): the place in th_server's
 * queue becomes the phase, so a waiting run says what it waits for. */
static void queued(void *ctx, uint32_t position, uint32_t waited_s)
{
	run_ctx *c = ctx;
	char phase[sizeof c->phase + 80];
	snprintf(phase, sizeof phase, "%s: queued at position %u for %u s", c->phase, position,
		 waited_s);
	add_progress(c, phase, 0, 0);
}

/* The artifacts were not all fetched (backend remote): the test says why
 * (its run is not changed: the files are extras). */
static void artifact_error(void *ctx, const char *message)
{
	run_ctx *c = ctx;
	aieth__rj_str(c->test, "artifacts_error", message);
}

/* The server's URL as the report records it: a user:password@ part is
 * never recorded (the remote backend refuses such a URL; a report must
 * not carry it either way). */
static void put_server(jobj *env, const char *url)
{
	const char *sep = strstr(url, "://");
	const char *auth = sep ? sep + 3 : url, *at = NULL, *p;
	size_t n = strcspn(auth, "/?#");
	char buf[600];
	for (p = auth; p < auth + n; p++)
		if (*p == '@')
			at = p; /* the last '@' of the authority ends the user part */
	if (!at) {
		aieth__rj_str(env, "server", url);
		return;
	}
	snprintf(buf, sizeof buf, "%.*s%s", (int)(auth - url), url, at + 1);
	aieth__rj_str(env, "server", buf);
}

/* The description's "regression" tolerances, kept in the report for the
 * baseline comparison (report_compare.c reads them back). */
static void put_regression(jobj *o, const spec_regression *r)
{
	jobj *g;
	if (!r->have)
		return;
	g = aieth__rj_obj();
	if (r->throughput_pct >= 0)
		aieth__rj_num(g, "throughput_pct", r->throughput_pct);
	if (r->latency_pct >= 0)
		aieth__rj_num(g, "latency_pct", r->latency_pct);
	if (r->cycles_pct >= 0)
		aieth__rj_num(g, "cycles_pct", r->cycles_pct);
	aieth__rj_set(o, "regression", g);
}

/* One run of transaction ti into tj: open its channels' data (afresh each
 * run: TX sources re-read from the start, RX comparison and save state
 * reset), run it, record status, channels and latencies (their cycles:
 * limits apply after every run, aieth__rn_txn_summary), close the data. save: this
 * is the run whose RX data is saved; label names it in messages
 * ("transactions[0]", "transactions[0] run 2 of 5"). Returns the run's
 * data-check code. */
static int run_once(run_ctx *c, aieth_session *s, size_t ti, jobj *tj, int save, const char *label,
		    int *stop)
{
	spec_txn *st = &c->sp->txns[ti];
	chan_run *cr = c->cr[ti];
	aieth_channel_args *a = calloc(st->nch, sizeof *a);
	aieth_channel_io *io = calloc(st->nch ? st->nch : 1, sizeof *io);
	jobj *chans, *lats;
	aieth_txn *t = NULL;
	uint32_t timeout = c->o && c->o->no_timeout   ? 0
			   : c->o && c->o->timeout_ms ? c->o->timeout_ms
			   : st->have_timeout         ? st->timeout_ms
						      : DEFAULT_TIMEOUT_MS;
	size_t j;
	int rc, code = AIETH_EXIT_PASS;
	aieth_txn_status status;
	struct timespec since;

	if (!a || !io) {
		free(a);
		free(io);
		aieth__fail(AIETH_ENOMEM, "out of memory");
		aieth__rj_str(tj, "status", "failed");
		aieth__rj_str(tj, "message", aieth_error_message());
		aieth__rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		*stop = 1;
		return AIETH_EXIT_INFRA;
	}
	for (j = 0; j < st->nch; j++) {
		int tx;
		/* what a run leaves behind (bytes taken, comparison, failures) is
		 * the next run's clean slate */
		aieth__rn_chan_close(&cr[j]);
		memset(&cr[j], 0, sizeof cr[j]);
		cr[j].fd = cr[j].gfd = -1;
		cr[j].no_save = !save;
		if ((rc = aieth__rn_chan_open(c, st, &st->ch[j], &cr[j], 1))) {
			free(a);
			free(io);
			aieth__rj_str(tj, "status", "failed");
			aieth__rj_str(tj, "message", aieth_error_message());
			aieth__rn_test_error(c, "prepare", rc, NULL, aieth__rn_exit_for(rc));
			*stop = 1;
			return aieth__rn_exit_for(rc);
		}
		tx = cr[j].pl.dir == AIETH_DIR_TO_AIE;
		a[j].plio = cr[j].pl.name;
		a[j].size = cr[j].size;
		a[j].repetition = st->ch[j].repetition;
		a[j].delay = st->ch[j].delay;
		io[j].ctx = &cr[j];
		if (tx && cr[j].src.kind != AIETH_SRC_ZERO)
			io[j].read = aieth__rn_tx_read;
		else if (!tx && (cr[j].mem || cr[j].have_golden || cr[j].saving))
			io[j].write = aieth__rn_rx_write;
	}
	rc = aieth_txn_submit_io(s, st->mode, a, io, st->nch, &t);
	free(a);
	free(io);
	if (rc) {
		for (j = 0; j < st->nch; j++)
			if (cr[j].io_failed) {
				aieth__fail(rc, "%s: %s", st->ch[j].jpath, cr[j].io_err);
				break;
			}
		aieth__rj_str(tj, "status", "failed");
		aieth__rj_str(tj, "message", aieth_error_message());
		aieth__rn_test_error(c, "run", rc, NULL, aieth__rn_exit_for(rc));
		*stop = 1;
		return aieth__rn_exit_for(rc);
	}
	aieth__rn_aie_state_mark(c, &since);
	rc = aieth_txn_wait(t, timeout);
	/* made only now: every return above leaves the transaction without
	 * them (they leaked there, unattached) */
	chans = aieth__rj_arr();
	lats = aieth__rj_arr();
	status = aieth_txn_get_status(t);
	aieth__rj_str(tj, "status",
		      status == AIETH_TXN_DONE          ? "done"
		      : status == AIETH_TXN_TIMEOUT     ? "timeout"
		      : status == AIETH_TXN_INTERRUPTED ? "interrupted"
							: "failed");
	aieth__rj_bool(tj, "valid", aieth_txn_is_valid(t));
	aieth__rj_str(tj, "message", aieth_txn_message(t));
	aieth__rj_u64(tj, "total_cycles", aieth_txn_total_cycles(t));
	for (j = 0; j < st->nch; j++)
		code = aieth__exit_worst(code, aieth__rn_channel_result(c, st, t, j, chans));
	aieth__rj_set(tj, "channels", chans);
	for (j = 0; j < st->nlat; j++) {
		jobj *l = aieth__rj_obj();
		int64_t d = 0;
		int ok = status == AIETH_TXN_DONE &&
			 aieth_txn_delay_between(t, st->lat[j].from, st->lat[j].to, &d) == AIETH_OK;
		aieth__rj_str(l, "from", st->lat[j].from);
		aieth__rj_str(l, "to", st->lat[j].to);
		if (ok)
			aieth__rj_int(l, "cycles", d);
		else
			aieth__rj_null(l, "cycles");
		aieth__rj_u64(l, "max_cycles", st->lat[j].max_cycles);
		aieth__rj_push(lats, l);
	}
	aieth__rj_set(tj, "latencies", lats);
	for (j = 0; j < st->nch; j++)
		if (cr[j].io_failed && status == AIETH_TXN_FAILED) {
			/* our data source or sink failed, not the device */
			aieth__fail(AIETH_EIO, "%s: %s", st->ch[j].jpath, cr[j].io_err);
			aieth__rn_test_error(c, "data", AIETH_EIO, NULL, AIETH_EXIT_INPUT);
			*stop = 1;
			rc = 0;
			status = AIETH_TXN_DONE; /* reported; skip the device error below */
			break;
		}
	if (status == AIETH_TXN_INTERRUPTED || interrupted(c)) {
		char where[200];
		/* a transaction that completed has no message: no dangling colon */
		snprintf(where, sizeof where, "%s ran%s%s", label,
			 aieth_txn_message(t)[0] ? ": " : "", aieth_txn_message(t));
		check_interrupt(c, where);
		*stop = 1;
	} else if (status == AIETH_TXN_TIMEOUT) {
		aieth__rn_aie_state_take(c, &since);
		aieth__fail(AIETH_ETIMEOUT, "%s: %s", label, aieth_txn_message(t));
		aieth__rn_test_error(
			c, "wait", AIETH_ETIMEOUT,
			"see each channel's bytes_moved and stalled_since_cycle; on a board, "
			"reset it before the next test",
			AIETH_EXIT_TIMEOUT);
		*stop = 1; /* the kernel never completed: nothing after it can run */
	} else if (status != AIETH_TXN_DONE || rc) {
		/* failed, or any status but done: never a pass */
		aieth__fail(AIETH_EDEVICE, "%s: %s", label, aieth_txn_message(t));
		aieth__rn_test_error(c, "wait", AIETH_EDEVICE, NULL, AIETH_EXIT_INFRA);
		*stop = 1;
	}
	aieth_txn_free(t);
	for (j = 0; j < st->nch; j++)
		aieth__rn_chan_close(&cr[j]);
	return code;
}

/* Transaction ti, warm-up runs and measured runs in this session; its
 * entry shows the median run (aieth__rn_txn_summary). A run that does not
 * complete ends the repeats: the entry shows that run. */
static void run_txn(run_ctx *c, aieth_session *s, size_t ti, jobj *txns, int *stop)
{
	spec_txn *st = &c->sp->txns[ti];
	uint32_t total = c->warmup + c->runs, r;
	jobj *tj = aieth__rj_obj(), *failed = aieth__rj_arr(), *broken = NULL, *last = NULL;
	rn_run **runs;
	size_t n = 0;
	int code = AIETH_EXIT_PASS;
	char phase[sizeof c->phase], label[96];
	uint32_t timeout = c->o && c->o->no_timeout   ? 0
			   : c->o && c->o->timeout_ms ? c->o->timeout_ms
			   : st->have_timeout         ? st->timeout_ms
						      : DEFAULT_TIMEOUT_MS;

	aieth__rj_int(tj, "index", (int64_t)ti);
	aieth__rj_str(tj, "name", st->name ? st->name : st->jpath);
	aieth__rj_str(tj, "mode", st->mode == AIETH_MODE_PERF ? "perf" : "func");
	aieth__rj_int(tj, "timeout_ms", timeout);
	put_regression(tj, &st->regr);
	aieth__rj_push(txns, tj);
	runs = calloc(c->runs, sizeof *runs);
	if (!runs) {
		json_object_put(failed);
		aieth__fail(AIETH_ENOMEM, "out of memory for %u runs", c->runs);
		aieth__rj_str(tj, "status", "failed");
		aieth__rj_str(tj, "message", aieth_error_message());
		aieth__rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		*stop = 1;
		return;
	}
	snprintf(phase, sizeof phase, "%s", c->phase);
	for (r = 0; r < total; r++) {
		jobj *ro;
		int rc;
		if (r && check_interrupt(c, "between runs")) {
			*stop = 1;
			break;
		}
		if (total > 1) {
			snprintf(c->phase, sizeof c->phase, "%.100s: %s %u of %u", phase,
				 r < c->warmup ? "warm-up run" : "run",
				 r < c->warmup ? r + 1 : r - c->warmup + 1,
				 r < c->warmup ? c->warmup : c->runs);
			add_progress(c, c->phase, 0, 0);
		}
		ro = aieth__rj_obj();
		if (total > 1)
			snprintf(label, sizeof label, "%s %s %u of %u", st->jpath,
				 r < c->warmup ? "warm-up run" : "run",
				 r < c->warmup ? r + 1 : r - c->warmup + 1,
				 r < c->warmup ? c->warmup : c->runs);
		else
			snprintf(label, sizeof label, "%s", st->jpath);
		rc = run_once(c, s, ti, ro, r + 1 == total, label, stop);
		code = aieth__exit_worst(code, rc);
		if (*stop || strcmp(aieth__rj_gets(ro, "status"), "done")) {
			broken = ro;
			aieth__rn_run_failures(c, st, ro, r, failed);
			break;
		}
		aieth__rn_run_failures(c, st, ro, r, failed);
		if (r < c->warmup) {
			json_object_put(ro);
			continue;
		}
		/* the figures stay, the objects of the last run only */
		if (!(runs[n] = aieth__rn_run_keep(st, ro))) {
			json_object_put(ro);
			aieth__fail(AIETH_ENOMEM, "out of memory for the figures of %u runs",
				    c->runs);
			aieth__rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
			*stop = 1;
			break;
		}
		n++;
		json_object_put(last);
		last = ro;
	}
	snprintf(c->phase, sizeof c->phase, "%s", phase);
	code = aieth__exit_worst(code,
				 aieth__rn_txn_summary(c, st, tj, runs, n, last, broken, failed));
	c->exit_code = aieth__exit_worst(c->exit_code, code);
	while (n)
		aieth__rn_run_free(runs[--n]);
	free(runs);
	json_object_put(last);
	json_object_put(broken);
}

/* A warning of the test: the run went on, the caller shows it. */
static void add_warning(jobj *test, const char *msg)
{
	jobj *w = aieth__rj_get(test, "warnings");
	if (!w) {
		w = aieth__rj_arr();
		aieth__rj_set(test, "warnings", w);
	}
	aieth__rj_push_str(w, msg);
}

/* The check's problem lines, counted, the first ones kept for the message. */
typedef struct {
	char text[1700];
	size_t n, count, kept;
} xclbin_problems;

static void keep_problem(void *ctx, const char *line)
{
	xclbin_problems *p = ctx;
	size_t len = strlen(line);
	p->count++;
	if (p->n + len + 4 < sizeof p->text - 40) {
		p->n += (size_t)snprintf(p->text + p->n, sizeof p->text - p->n, "\n  %s", line);
		p->kept++;
	}
}

/* The design xclbin in the report: path, and when it reads, its UUID,
 * SHA-256 and platform, and the problems th_package check finds in it
 * (aieth_xclbin_check, no board: the PLIO placement is the packager's and
 * th_package check --board's). One that cannot be read or has problems is
 * an input error (exit 2) on every backend, so an emulator stage of a CI
 * catches a broken packaging artifact before a board does: the problems
 * are listed in the error, one per line, each naming the file. With
 * xclbin_warn_only it is a warning and the run goes on (the emulated board
 * never loads the file; the report then cannot vouch for the design that
 * ran). 0: go on; -1: the test's error is recorded. */
static int put_xclbin(run_ctx *c, jobj *test, const char *path)
{
	aieth_xclbin *x = NULL;
	xclbin_problems pr;
	jobj *xo;
	char hex[65], msg[1900];
	int warn_only = c->o && c->o->version >= 2 && c->o->xclbin_warn_only;
	if (!path) {
		aieth__rj_null(test, "xclbin");
		return 0;
	}
	memset(&pr, 0, sizeof pr);
	xo = aieth__rj_obj();
	aieth__rj_str(xo, "path", path);
	if (aieth_xclbin_open(&x, path, AIETH_XCLBIN_LENIENT) == AIETH_OK) {
		aieth__rj_str(xo, "uuid", aieth_xclbin_uuid_string(x));
		aieth__rj_str(xo, "vbnv", aieth_xclbin_get_header(x)->vbnv);
		if (aieth_xclbin_sha256(x, hex) == AIETH_OK)
			aieth__rj_str(xo, "sha256", hex);
		aieth_xclbin_check(x, NULL, keep_problem, &pr);
		aieth__rj_int(xo, "problems", (int64_t)pr.count);
		aieth_xclbin_close(x);
		aieth__rj_set(test, "xclbin", xo);
		if (!pr.count)
			return 0;
		if (warn_only) {
			snprintf(msg, sizeof msg,
				 "the design xclbin %s has %zu problem%s th_package check "
				 "reports (--xclbin-warn-only), the first: %s",
				 path, pr.count, pr.count == 1 ? "" : "s", pr.text + 3);
			add_warning(test, msg);
			return 0;
		}
		aieth__fail(AIETH_EINVAL,
			    "the design xclbin %s fails th_package check (%zu problem%s; it would "
			    "not load on a board, so it fails on every backend; --xclbin-warn-only "
			    "runs it anyway):%s%s",
			    path, pr.count, pr.count == 1 ? "" : "s", pr.text,
			    pr.kept < pr.count ? "\n  ..." : "");
		aieth__rn_test_error(c, "load", AIETH_EINVAL,
				     "th_package check FILE lists them all", AIETH_EXIT_INPUT);
		return -1;
	}
	snprintf(msg, sizeof msg, "%s", aieth_error_message());
	aieth__rj_str(xo, "error", msg);
	aieth__rj_set(test, "xclbin", xo);
	if (warn_only) {
		char w[2100];
		snprintf(w, sizeof w,
			 "the design xclbin cannot be read, the report has no UUID for it: %s",
			 msg);
		add_warning(test, w);
		return 0;
	}
	aieth__fail(AIETH_EINVAL,
		    "the design xclbin cannot be read (--xclbin-warn-only runs without it):\n  %s",
		    msg);
	aieth__rn_test_error(c, "load", AIETH_EINVAL, NULL, AIETH_EXIT_INPUT);
	return -1;
}

/* A plugin model given by a relative path ("models/mine.so", "mine.so") is
 * relative to the description's folder, as its data, golden and aiesim
 * files are, so the test runs the same from any folder. Built-in names stay
 * as they are, and so does every name sent to th_server (backend remote:
 * the server looks it up in its own --model-dir). 0 on out of memory. */
static int model_path(const run_ctx *c, const char **model)
{
	const char *m = *model, *backend = aieth__rj_gets(c->test, "backend");
	size_t n = m ? strlen(m) : 0;
	if (!m || m[0] == '/' || aieth_backend_local(backend) != 1 ||
	    !(strchr(m, '/') || (n >= 3 && !strcmp(m + n - 3, ".so"))))
		return 1;
	return (*model = aieth__path_join(c->sp->dir, m)) != NULL;
}

/* Free what model_path allocated for graphs [0, n). */
static void free_models(const run_ctx *c, aieth_graph_spec *gs, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (gs[i].model != c->sp->graphs[i].model)
			free((char *)gs[i].model);
}

/* The test's fields before anything runs: board, backend, clock, the
 * tolerances and the design xclbin (-1: its error is recorded). */
int aieth__rn_test_begin(run_ctx *c)
{
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	aieth__rj_set(c->test, "graphs", aieth__rj_arr());
	aieth__rj_set(c->test, "transactions", aieth__rj_arr());
	aieth__rj_str(c->test, "board", bi->name);
	aieth__rj_str(c->test, "backend",
		      c->o && c->o->backend ? c->o->backend
		      : c->sp->backend      ? c->sp->backend
					    : "emu");
	aieth__rj_num(c->test, "pl_clock_MHz", (double)bi->pl_clock_hz / 1e6);
	put_regression(c->test, &c->sp->regr);
	return put_xclbin(c, c->test, c->o && c->o->xclbin ? c->o->xclbin : c->sp->xclbin);
}

/* Open the device with the description's graphs (their models and
 * parameters are given here: a change of them needs a new session). 0, or
 * the error is recorded in the test. */
int aieth__rn_session_open(run_ctx *c, aieth_session **sp)
{
	aieth_session_opts so;
	aieth_xrt_opts xrt[1] = {AIETH_XRT_OPTS_INIT};
	aieth_graph_spec *gs = NULL;
	aieth_session *s = NULL;
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	size_t i;
	int rc;

	*sp = NULL;
	gs = calloc(c->sp->ngraphs ? c->sp->ngraphs : 1, sizeof *gs);
	if (!gs) {
		aieth__fail(AIETH_ENOMEM, "out of memory");
		aieth__rn_test_error(c, "open", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		return AIETH_ENOMEM;
	}
	for (i = 0; i < c->sp->ngraphs; i++) {
		gs[i].name = c->sp->graphs[i].name;
		gs[i].model = c->sp->graphs[i].model;
		gs[i].model_params = c->sp->graphs[i].params;
		if (!model_path(c, &gs[i].model)) {
			aieth__fail(AIETH_ENOMEM, "out of memory");
			aieth__rn_test_error(c, "open", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
			free_models(c, gs, i);
			free(gs);
			return AIETH_ENOMEM;
		}
	}
	aieth_session_opts_init(&so, AIETH_SESSION_OPTS_VERSION);
	so.board = bi->name;
	so.data_dir = c->o ? c->o->data_dir : NULL;
	so.backend = aieth__rj_gets(c->test, "backend");
	so.xclbin = c->o && c->o->xclbin ? c->o->xclbin : c->sp->xclbin;
	so.graphs = gs;
	so.num_graphs = c->sp->ngraphs;
	so.model_base_dir = c->sp->dir; /* relative model paths: the description's folder */
	/* each backend's options as the caller gave them (checked: a version
	 * run_opts_check knows), but for the description's PL xclbin */
	if (c->o) {
		so.emu = c->o->emu;
		so.xrt = c->o->xrt;
		so.remote = c->o->remote;
	}
	if (!so.xrt || !so.xrt->pl_xclbin) {
		if (so.xrt)
			*xrt = *so.xrt;
		xrt->pl_xclbin = c->sp->pl_xclbin;
		so.xrt = xrt;
	}
	so.interrupt = c->o ? c->o->interrupt : NULL;
	so.progress = txn_progress;
	so.progress_ctx = c;
	so.queued = queued;
	so.artifact = got_artifact;
	so.artifact_error = artifact_error;
	so.artifact_ctx = c;
	/* a board given by path must be opened by the same path */
	if (c->own_board && (strchr(c->o && c->o->board ? c->o->board : c->sp->board, '/')))
		so.board = c->o && c->o->board ? c->o->board : c->sp->board;
	if (check_interrupt(c, "preparing the data")) {
		free_models(c, gs, c->sp->ngraphs);
		free(gs);
		return AIETH_ESTATE;
	}
	snprintf(c->phase, sizeof c->phase, "open: %s board %s", so.backend, so.board);
	add_progress(c, c->phase, 0, 0);
	rc = aieth_session_open(&s, &so);
	free_models(c, gs, c->sp->ngraphs);
	free(gs);
	if (rc) {
		aieth__rn_test_error(c, "open", rc,
				     rc == AIETH_EUNSUPPORTED
					     ? "not available here: the emulated board "
					       "(backend \"emu\") runs everywhere; a board "
					       "needs XRT (docs/on-board.md)"
					     : NULL,
				     aieth__rn_exit_for(rc));
		return rc;
	}
	snprintf(c->server_info, sizeof c->server_info, "%s", aieth_session_server(s));
	*sp = s;
	return 0;
}

/* Run the graphs and the transactions of the description (as a sweep's
 * point has set it) in an open session, then wait for the graphs and end
 * them. A sweep's point (sweep 1) leaves them for the next point (a graph
 * ended cannot run again in its session): bounded graphs run again, a
 * graph running until ended is started by the session's first point
 * (again 0) only. */
void aieth__rn_run_point(run_ctx *c, aieth_session *s, int sweep, int again)
{
	jobj *graphs = aieth__rj_get(c->test, "graphs"),
	     *txns = aieth__rj_get(c->test, "transactions");
	size_t i;
	int rc, stop = 0;

	/* an input mistake the graph models decide: refused before anything
	 * runs, never left to hang */
	if ((rc = aieth__rn_inputs_check(c, s))) {
		aieth__rn_test_error(c, "inputs", rc,
				     rc == AIETH_EINVAL ? "an input mistake, not a hang: fix the "
							  "description (nothing ran)"
							: NULL,
				     rc == AIETH_EINVAL ? AIETH_EXIT_INPUT : AIETH_EXIT_INFRA);
		return;
	}
	aieth__rn_sensors_start(c, s);
	for (i = 0; i < c->sp->ngraphs && !stop; i++) {
		jobj *g = aieth__rj_obj();
		/* one graph run for every run of the transactions: a bounded
		 * graph runs its iterations once per run (aieth__rn_repeat_check kept
		 * the product in range), an unbounded one runs on */
		int64_t it = c->sp->graphs[i].iterations;
		if (it > 0)
			it *= (int64_t)(c->warmup + c->runs);
		aieth__rj_str(g, "name", c->sp->graphs[i].name);
		aieth__rj_int(g, "iterations", it);
		if (it > 0 && c->warmup + c->runs > 1)
			aieth__rj_int(g, "iterations_per_run", c->sp->graphs[i].iterations);
		aieth__rj_str(g, "model",
			      c->sp->graphs[i].model ? c->sp->graphs[i].model : "loopback");
		aieth__rj_push(graphs, g);
		snprintf(c->phase, sizeof c->phase, "graph \"%s\": run", c->sp->graphs[i].name);
		add_progress(c, c->phase, 0, 0);
		if (sweep) {
			/* the session counts every point's iterations: this point's
			 * are those after the count it starts with */
			uint64_t before = 0;
			aieth_graph_iterations_done(s, c->sp->graphs[i].name, &before);
			aieth__rj_u64(g, "iterations_before", before);
		}
		if (again && c->sp->graphs[i].iterations < 0)
			continue; /* still running from the session's first point */
		if ((rc = aieth_graph_run(s, c->sp->graphs[i].name, it))) {
			aieth__rn_test_error(c, "run", rc, NULL,
					     aieth__rn_exit_for(rc) == AIETH_EXIT_INPUT
						     ? AIETH_EXIT_INFRA
						     : aieth__rn_exit_for(rc));
			stop = 1;
		}
	}
	for (i = 0; i < c->sp->ntxns && !stop; i++) {
		if (check_interrupt(c, "between transactions")) {
			stop = 1;
			break;
		}
		snprintf(c->phase, sizeof c->phase, "transaction %zu/%zu \"%s\"", i + 1,
			 c->sp->ntxns,
			 c->sp->txns[i].name ? c->sp->txns[i].name : c->sp->txns[i].jpath);
		add_progress(c, c->phase, 0, 0);
		run_txn(c, s, i, txns, &stop);
	}
	/* graphs with a bounded run must have completed it */
	for (i = 0; i < c->sp->ngraphs && i < json_object_array_length(graphs); i++) {
		jobj *g = json_object_array_get_idx(graphs, i);
		uint64_t done = 0; /* asked once, below: a remote ask is a round trip */
		if (!stop && c->sp->graphs[i].iterations >= 0) {
			snprintf(c->phase, sizeof c->phase, "graph \"%s\": wait",
				 c->sp->graphs[i].name);
			add_progress(c, c->phase, 0, 0);
			struct timespec since;
			aieth__rn_aie_state_mark(c, &since);
			rc = aieth_graph_wait(s, c->sp->graphs[i].name, DEFAULT_TIMEOUT_MS);
			aieth__rj_str(g, "status", rc ? "incomplete" : "complete");
			if (rc == AIETH_ETIMEOUT) {
				aieth__rn_aie_state_take(c, &since);
				aieth__rn_test_error(
					c, "graph wait", rc,
					"the graph did not finish its iterations: check the "
					"iterations against the data the transactions send",
					AIETH_EXIT_TIMEOUT);
			} else if (rc) {
				/* the device or the server failed the wait: not a hang */
				aieth__rn_test_error(c, "graph wait", rc, NULL, AIETH_EXIT_INFRA);
			}
		} else {
			aieth__rj_str(g, "status",
				      c->sp->graphs[i].iterations < 0 ? "running" : "stopped");
		}
		/* what the report says the graph did: an unanswered question is an
		 * error, not a count of 0 */
		if ((rc = aieth_graph_iterations_done(s, c->sp->graphs[i].name, &done)) && !stop) {
			aieth__rn_test_error(c, "graph status", rc, NULL, AIETH_EXIT_INFRA);
			stop = 1;
		}
		if (sweep) {
			uint64_t before = (uint64_t)aieth__rj_geti(g, "iterations_before");
			json_object_object_del(g, "iterations_before");
			done = done >= before ? done - before : 0;
		}
		aieth__rj_u64(g, "iterations_done", done);
		if (!sweep)
			aieth_graph_end(s, c->sp->graphs[i].name);
	}
	aieth__rn_inputs_verdict(c);
	aieth__rn_sensors_stop(c);
}

void aieth__rn_session_close(run_ctx *c, aieth_session *s)
{
	add_progress(c, "close the session", 0, 0);
	aieth_session_close(s);
}

/* Check the data before the device is touched (-1: the error is recorded). */
int aieth__rn_prepare_test(run_ctx *c)
{
	int rc;
	add_progress(c, "prepare: load and check the data", 0, 0);
	if ((rc = aieth__rn_prepare(c))) {
		aieth__rn_test_error(c, "prepare", rc, NULL,
				     aieth__rn_exit_for(rc) == AIETH_EXIT_INFRA ? AIETH_EXIT_INFRA
										: AIETH_EXIT_INPUT);
		return -1;
	}
	return aieth__rn_repeat_check(c);
}

int aieth__rn_check_interrupt(run_ctx *c, const char *where) { return check_interrupt(c, where); }

void aieth__rn_run_spec(run_ctx *c)
{
	aieth_session *s = NULL;
	if (aieth__rn_test_begin(c) || check_interrupt(c, "loading") || aieth__rn_prepare_test(c) ||
	    aieth__rn_session_open(c, &s))
		return;
	aieth__rn_run_point(c, s, 0, 0);
	aieth__rn_session_close(c, s);
}

/* The channels' data of the description's transactions (aieth__rn_prepare). */
void aieth__rn_free_data(run_ctx *c)
{
	size_t i, j;
	if (c->cr && c->sp) {
		for (i = 0; i < c->sp->ntxns; i++) {
			if (!c->cr[i])
				continue;
			for (j = 0; j < c->sp->txns[i].nch; j++)
				aieth__rn_chan_close(&c->cr[i][j]);
			free(c->cr[i]);
		}
	}
	free(c->cr);
	c->cr = NULL;
}

/* The test's closing fields, once (a sweep finishes each point's), and
 * the report's environment from the first test's board. */
void aieth__rn_test_finish(run_ctx *c, double t0)
{
	const aieth_run_opts *o = c->o;
	aieth_report *r = c->r;
	if (aieth__rj_get(c->test, "exit_code"))
		return;
	if (!aieth__rj_get(c->test, "error"))
		aieth__rj_null(c->test, "error");
	if (!aieth__rj_get(c->test, "transactions"))
		aieth__rj_set(c->test, "transactions", aieth__rj_arr());
	if (!aieth__rj_get(c->test, "graphs"))
		aieth__rj_set(c->test, "graphs", aieth__rj_arr());
	aieth__rn_sensors_absent(c);
	if (!aieth__rj_get(c->test, "repeat")) {
		/* /2: always there; what the description says when the run did
		 * not get as far as checking the repeats */
		jobj *rp = aieth__rj_obj();
		aieth__rj_u64(rp, "runs", c->sp && c->sp->repeat.have ? c->sp->repeat.runs : 1);
		aieth__rj_u64(rp, "warmup", c->sp && c->sp->repeat.have ? c->sp->repeat.warmup : 0);
		aieth__rj_str(
			rp, "statistic",
			aieth__stats_name(c->sp ? c->sp->repeat.statistic : AIETH__STAT_MEDIAN));
		aieth__rj_set(c->test, "repeat", rp);
	}
	aieth__rj_str(c->test, "status", aieth__exit_status(c->exit_code));
	aieth__rj_int(c->test, "exit_code", c->exit_code);
	aieth__rj_num(c->test, "duration_s", aieth__now() - t0);
	/* the environment reflects the first test's board */
	if (c->board && !aieth__rj_get(r->env, "board")) {
		const aieth_board_info *bi = aieth_board_get_info(c->board);
		aieth__rj_str(r->env, "board", bi->name);
		aieth__rj_str(r->env, "backend", aieth__rj_gets(c->test, "backend"));
		aieth__rj_num(r->env, "pl_clock_MHz", (double)bi->pl_clock_hz / 1e6);
		aieth__rj_str(r->env, "pl_kernel", bi->pl_kernel);
		aieth__rj_str(r->env, "emulator_mode",
			      o && o->emu && o->emu->reference ? "reference" : "fast");
		if (o && o->remote && o->remote->server &&
		    aieth_backend_local(aieth__rj_gets(c->test, "backend")) == 0) {
			put_server(r->env, o->remote->server);
			if (c->server_info[0])
				aieth__rj_str(r->env, "server_version", c->server_info);
		}
	}
}
