/* SPDX-License-Identifier: MIT */
/*
 * test_session.c - the public API on the emulated board: sessions, graph
 * control, transaction validation (the anchor's defects fixed), results
 * (counters, throughput at the board's clock, validity, delays), pipelining,
 * stalls and timeouts, models and plugins.
 */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "core/session_internal.h"
#include "tu.h"

#define MSG(s) CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)))

static void test_open_errors(void)
{
	aieth_session *s = NULL;
	aieth_session_opts o;
	aieth_graph_spec g[2] = {{"a", "loopback", NULL}, {"a", "loopback", NULL}};
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("no board");
	o.board = "vck999";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_ENOTFOUND);
	MSG("vck190");
	o.board = "vck190";
	o.backend = "jtag";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EUNSUPPORTED);
	MSG("unknown backend \"jtag\"");
	o.backend = NULL;
	o.graphs = g;
	o.num_graphs = 2;
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("listed twice");
	g[1].name = "b"; /* two loopbacks claim the same PLIOs */
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("used by two kernels");
	g[1].model = "nosuchmodel";
	CU_ASSERT_NOT_EQUAL(aieth_session_open(&s, &o), AIETH_OK);
	MSG("graph \"b\"");
	CU_ASSERT_PTR_NULL(s);
}

/* Versioned structs: the session's and each backend's own, refused by the
 * one that reads it; the backend table's names. */
static void test_versioned_opts(void)
{
	aieth_session *s = NULL;
	aieth_session_opts o = AIETH_SESSION_OPTS_INIT;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	aieth_xrt_opts xrt = AIETH_XRT_OPTS_INIT;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	aieth_run_opts ro = AIETH_RUN_OPTS_INIT;
	aieth_report *r = NULL;
	TU_OPTS_INIT(aieth_session_opts, AIETH_SESSION_OPTS_INIT, aieth_session_opts_init,
		     AIETH_SESSION_OPTS_VERSION);
	TU_OPTS_INIT(aieth_emu_opts, AIETH_EMU_OPTS_INIT, aieth_emu_opts_init,
		     AIETH_EMU_OPTS_VERSION);
	TU_OPTS_INIT(aieth_xrt_opts, AIETH_XRT_OPTS_INIT, aieth_xrt_opts_init,
		     AIETH_XRT_OPTS_VERSION);
	TU_OPTS_INIT(aieth_remote_opts, AIETH_REMOTE_OPTS_INIT, aieth_remote_opts_init,
		     AIETH_REMOTE_OPTS_VERSION);
	TU_OPTS_INIT(aieth_run_opts, AIETH_RUN_OPTS_INIT, aieth_run_opts_init,
		     AIETH_RUN_OPTS_VERSION);
	/* version 1 ends before xclbin_warn_only (version 2): its init writes a
	 * version 1 struct's bytes only, and says version 1 */
	{
		aieth_run_opts v1;
		const unsigned char *b = (const unsigned char *)&v1;
		size_t k, end = offsetof(aieth_run_opts, xclbin_warn_only);
		memset(&v1, 0xa5, sizeof v1);
		CU_ASSERT_EQUAL(aieth_run_opts_init(&v1, 1), AIETH_OK);
		CU_ASSERT_EQUAL(v1.version, 1);
		CU_ASSERT_PTR_NULL(v1.xclbin);
		for (k = end; k < sizeof v1; k++)
			CU_ASSERT_EQUAL(b[k], 0xa5);
		CU_ASSERT_EQUAL(aieth_run_opts_init(&v1, 2), AIETH_OK);
		CU_ASSERT_EQUAL(v1.version, 2);
		CU_ASSERT_EQUAL(v1.xclbin_warn_only, 0);
		/* version 3 ends before sensor_period_ms (version 4) */
		memset(&v1, 0xa5, sizeof v1);
		CU_ASSERT_EQUAL(aieth_run_opts_init(&v1, 3), AIETH_OK);
		CU_ASSERT_EQUAL(v1.version, 3);
		CU_ASSERT_EQUAL(v1.sweep_stop_on_fail, 0);
		for (k = offsetof(aieth_run_opts, sensor_period_ms); k < sizeof v1; k++)
			CU_ASSERT_EQUAL(b[k], 0xa5);
	}
	/* aieth_remote_opts version 1 ends before concurrent_io (version 2) */
	{
		aieth_remote_opts r1;
		const unsigned char *b = (const unsigned char *)&r1;
		size_t k;
		memset(&r1, 0xa5, sizeof r1);
		CU_ASSERT_EQUAL(aieth_remote_opts_init(&r1, 1), AIETH_OK);
		CU_ASSERT_EQUAL(r1.version, 1);
		CU_ASSERT_PTR_NULL(r1.server);
		for (k = offsetof(aieth_remote_opts, concurrent_io); k < sizeof r1; k++)
			CU_ASSERT_EQUAL(b[k], 0xa5);
		CU_ASSERT_EQUAL(aieth_remote_opts_init(&r1, 2), AIETH_OK);
		CU_ASSERT_EQUAL(r1.concurrent_io, 0);
	}
	/* aieth_emu_opts version 1 ends before artifacts_dir (version 2) */
	{
		aieth_emu_opts e1;
		const unsigned char *b = (const unsigned char *)&e1;
		size_t k;
		memset(&e1, 0xa5, sizeof e1);
		CU_ASSERT_EQUAL(aieth_emu_opts_init(&e1, 1), AIETH_OK);
		CU_ASSERT_EQUAL(e1.version, 1);
		CU_ASSERT_EQUAL(e1.reference, 0);
		for (k = offsetof(aieth_emu_opts, artifacts_dir); k < sizeof e1; k++)
			CU_ASSERT_EQUAL(b[k], 0xa5);
		CU_ASSERT_EQUAL(aieth_emu_opts_init(&e1, 2), AIETH_OK);
		CU_ASSERT_PTR_NULL(e1.artifacts_dir);
	}
	o.board = "vck190";
	TU_OPTS_REFUSED(aieth_session_open(&s, &o), o.version, "aieth_session_opts",
			"AIETH_SESSION_OPTS_INIT or aieth_session_opts_init",
			AIETH_SESSION_OPTS_VERSION);
	/* every backend checks its own struct, selected or not */
	o.emu = &emu;
	o.xrt = &xrt;
	o.remote = &remote;
	TU_OPTS_REFUSED(aieth_session_open(&s, &o), emu.version, "aieth_session_opts.emu",
			"AIETH_EMU_OPTS_INIT or aieth_emu_opts_init", AIETH_EMU_OPTS_VERSION);
	TU_OPTS_REFUSED(aieth_session_open(&s, &o), xrt.version, "aieth_session_opts.xrt",
			"AIETH_XRT_OPTS_INIT or aieth_xrt_opts_init", AIETH_XRT_OPTS_VERSION);
	TU_OPTS_REFUSED(aieth_session_open(&s, &o), remote.version, "aieth_session_opts.remote",
			"AIETH_REMOTE_OPTS_INIT or aieth_remote_opts_init",
			AIETH_REMOTE_OPTS_VERSION);
	CU_ASSERT_PTR_NULL(s);
	/* an xrt.ini the emulated board cannot use is refused, not ignored,
	 * whichever backend's struct carries it */
	remote.xrt_ini = "xrt.ini";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("the emulated board has no XRT to read an xrt.ini");
	remote.xrt_ini = NULL;
	xrt.xrt_ini = "xrt.ini";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("the emulated board has no XRT to read an xrt.ini");
	xrt.xrt_ini = NULL;
	/* given for the wrong one of the two that take it: said so */
	o.backend = "xrt";
	remote.xrt_ini = "xrt.ini";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("give it as aieth_xrt_opts.xrt_ini");
	remote.xrt_ini = NULL;
	o.backend = "remote";
	remote.server = "http://127.0.0.1:1";
	xrt.xrt_ini = "xrt.ini";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("give it as aieth_remote_opts.xrt_ini");
	xrt.xrt_ini = NULL;
	/* concurrent_io (version 2) is 0 or 1, refused before any request */
	remote.concurrent_io = 2;
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG("aieth_remote_opts.concurrent_io is 2: 0 or 1 is needed");
	remote.concurrent_io = 0;
	remote.server = NULL;
	o.backend = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_session_open(&s, &o), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth_session_backend(s), "emu");
	aieth_session_close(s);
	/* the run options: refused before a test is added to the report */
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	TU_OPTS_REFUSED(aieth_report_run(r, "none.json", &ro), ro.version, "aieth_run_opts",
			"AIETH_RUN_OPTS_INIT or aieth_run_opts_init", AIETH_RUN_OPTS_VERSION);
	ro.remote = &remote;
	TU_OPTS_REFUSED(aieth_report_run(r, "none.json", &ro), remote.version,
			"aieth_run_opts.remote", "AIETH_REMOTE_OPTS_INIT or aieth_remote_opts_init",
			AIETH_REMOTE_OPTS_VERSION);
	CU_ASSERT_EQUAL(aieth_report_num_tests(r), 0);
	aieth_report_free(r);
	/* the backend table */
	CU_ASSERT_STRING_EQUAL(aieth_backend_name(0), "emu");
	CU_ASSERT_STRING_EQUAL(aieth_backend_name(1), "xrt");
	CU_ASSERT_STRING_EQUAL(aieth_backend_name(2), "remote");
	CU_ASSERT_PTR_NULL(aieth_backend_name(3));
	CU_ASSERT_PTR_NOT_NULL(aieth_backend_description(2));
	/* local devices (th_server serves them, paths are this machine's) */
	CU_ASSERT_EQUAL(aieth_backend_local(NULL), 1);
	CU_ASSERT_EQUAL(aieth_backend_local("emu"), 1);
	CU_ASSERT_EQUAL(aieth_backend_local("xrt"), 1);
	CU_ASSERT_EQUAL(aieth_backend_local("remote"), 0);
	CU_ASSERT_EQUAL(aieth_backend_local("nope"), AIETH_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "available: emu, xrt, remote"));
	/* what each backend is, so that no caller compares names */
	CU_ASSERT_EQUAL(aieth_backend_flags(NULL), AIETH_BACKEND_LOCAL | AIETH_BACKEND_EMULATED);
	CU_ASSERT_EQUAL(aieth_backend_flags("emu"), AIETH_BACKEND_LOCAL | AIETH_BACKEND_EMULATED);
	CU_ASSERT_EQUAL(aieth_backend_flags("xrt"), AIETH_BACKEND_LOCAL | AIETH_BACKEND_HOST_SYSFS);
	CU_ASSERT_EQUAL(aieth_backend_flags("remote"), AIETH_BACKEND_NETWORKED);
	CU_ASSERT_EQUAL(aieth_backend_flags("jtag"), 0u);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "unknown backend \"jtag\""));
	for (size_t i = 0; aieth_backend_name(i); i++) {
		unsigned int f = aieth_backend_flags(aieth_backend_name(i));
		/* exactly one of LOCAL and NETWORKED, and LOCAL as aieth_backend_local */
		CU_ASSERT_EQUAL(!(f & AIETH_BACKEND_LOCAL), !!(f & AIETH_BACKEND_NETWORKED));
		CU_ASSERT_EQUAL(!!(f & AIETH_BACKEND_LOCAL),
				aieth_backend_local(aieth_backend_name(i)));
	}
	CU_ASSERT_PTR_NULL(aieth_backend_description(3));
	o.backend = "jtag";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EUNSUPPORTED);
	MSG("unknown backend \"jtag\" (available: emu, xrt, remote)");
}

/* The backend keeps the caller's hooks (aieth_dev_config.opts) for the
 * session's life, and none of the caller's other pointers past the open
 * (they are valid during aieth_session_open only): the interrupt flag set
 * after the open still stops a transaction. */
static void test_opts_hooks_kept(void)
{
	static volatile sig_atomic_t stop;
	aieth_session *s = NULL;
	aieth_session_opts o = AIETH_SESSION_OPTS_INIT;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	aieth_graph_spec g = {"gr", "loopback", NULL};
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 65536, 4000, 0, NULL},
				   {"PLIO_01_FROM_AIE", 65536, 4000, 0, NULL}};
	aieth_txn *t;
	o.board = "vck190";
	o.backend = "emu";
	o.graphs = &g;
	o.num_graphs = 1;
	o.model_base_dir = ".";
	o.emu = &emu;
	o.interrupt = &stop;
	o.artifact_ctx = &emu;
	CU_ASSERT_EQUAL_FATAL(aieth_session_open(&s, &o), AIETH_OK);
	CU_ASSERT_PTR_EQUAL(s->dev.opts.interrupt, &stop);
	CU_ASSERT_PTR_EQUAL(s->dev.opts.artifact_ctx, &emu);
	CU_ASSERT_PTR_NULL(s->dev.opts.board);
	CU_ASSERT_PTR_NULL(s->dev.opts.backend);
	CU_ASSERT_PTR_NULL(s->dev.opts.graphs);
	CU_ASSERT_EQUAL(s->dev.opts.num_graphs, 0);
	CU_ASSERT_PTR_NULL(s->dev.opts.model_base_dir);
	CU_ASSERT_PTR_NULL(s->dev.opts.emu);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	stop = 1;
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_INTERRUPTED);
	stop = 0;
	aieth_session_close(s);
}

static void test_submit_validation(void)
{
	aieth_session *s = tu_session("vek280", "loopback", NULL, 0);
	aieth_txn *t = NULL;
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 64, 1, 0, NULL},
				   {"PLIO_01_FROM_AIE", 64, 1, 0, NULL}};
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 0, &t), AIETH_EINVAL);
	MSG("no channels");
	a[0].plio = "PLIO_17_TO_AIE"; /* exists on VCK190, not on VEK280 */
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_ENOTFOUND);
	MSG("transaction channel 0");
	MSG("PLIO_17_TO_AIE");
	a[0].plio = "PLIO_01_FROM_AIE";
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	MSG("listed twice");
	a[0].plio = "PLIO_01_TO_AIE";
	a[0].size = 40;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	MSG("size 40 bytes is not a positive multiple of 16");
	a[0].size = 0;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	a[0].size = 64;
	a[0].repetition = 2;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_FUNC, a, 2, &t), AIETH_EINVAL);
	MSG("replay is only supported in PERF mode");
	a[0].repetition = 0;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	a[0].repetition = 1;
	a[0].size = 16ull << 34; /* 2^34 beats: beyond the PL kernel's 32-bit count */
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	MSG("counts at most 4294967295");
	/* size x repetition beyond 64-bit byte and cycle counts */
	a[0].size = AIETH_MAX_CHANNEL_SIZE;
	a[0].repetition = AIETH_MAX_REPETITION;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	MSG("x repetition 4294967295 is more than 1152921504606846976 bytes");
	a[0].size = 64;
	a[0].repetition = 1;
	/* a delay the cycle counters cannot add to (was DONE with first > last) */
	a[0].delay = UINT64_MAX;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_EINVAL);
	MSG("delay 18446744073709551615 cycles is more than 1152921504606846976");
	a[0].delay = 0;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, (aieth_mode)7, a, 2, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(t);
	aieth_session_close(s);
}

static void test_perf_results_full_rate(void)
{
	aieth_session *s = tu_session("vck190", "loopback", "{\"latency\": 0}", 0);
	static uint8_t src[4096], dst[4096];
	aieth_channel_args a[2] = {{"PLIO_03_TO_AIE", sizeof src, 10, 20, src},
				   {"PLIO_03_FROM_AIE", sizeof dst, 10, 0, dst}};
	aieth_channel_result r;
	aieth_txn *t;
	int64_t d;
	size_t i;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(i * 3 + 1);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_channel(t, 0, &r), AIETH_ESTATE); /* pending */
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 1000), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	CU_ASSERT_TRUE(aieth_txn_is_valid(t));
	CU_ASSERT_EQUAL(memcmp(src, dst, sizeof src), 0);
	CU_ASSERT_EQUAL(aieth_txn_channel_by_name(t, "PLIO_03_TO_AIE", &r), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(r.plio.name, "PLIO_03_TO_AIE");
	CU_ASSERT_EQUAL(r.plio.shim_column, 7); /* hw_features.rst placement */
	CU_ASSERT_EQUAL(r.plio.shim_channel, 0);
	/* right after its delay (20), read one cycle later (counter_edges) */
	CU_ASSERT_EQUAL(r.first_cycle, 21);
	CU_ASSERT_EQUAL(r.cycles, 2560); /* 40960 bytes, one beat a cycle */
	CU_ASSERT_EQUAL(r.bytes_moved, 40960);
	CU_ASSERT_DOUBLE_EQUAL(r.mb_per_s, 5000.0, 1e-6); /* 16 B x 312.5 MHz */
	CU_ASSERT_DOUBLE_EQUAL(r.mib_per_s, 5000e6 / 1048576.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(r.utilisation_pct, 100.0, 1e-9);
	CU_ASSERT_EQUAL(aieth_txn_channel_by_name(t, "PLIO_03_FROM_AIE", &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.first_cycle, 23); /* window done 21, output at 22, +1 edge */
	CU_ASSERT_EQUAL(aieth_txn_delay_between(t, "PLIO_03_TO_AIE", "PLIO_03_FROM_AIE", &d),
			AIETH_OK);
	CU_ASSERT_EQUAL(d, 2);
	CU_ASSERT_EQUAL(aieth_txn_delay_between(t, "PLIO_03_TO_AIE", "PLIO_04_FROM_AIE", &d),
			AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_txn_channel(t, 2, &r), AIETH_EINVAL);
	aieth_session_close(s);
}

/* Throughput follows the board file's clock, not a constant. */
static void test_board_clock_used(void)
{
	aieth_session *s =
		tu_session(tu_src("tests/data/slow_board.json"), "loopback", "{\"latency\": 0}", 0);
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 1024, 1, 0, NULL},
				   {"PLIO_01_FROM_AIE", 1024, 1, 0, NULL}};
	aieth_channel_result r;
	aieth_txn *t;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	aieth_txn_channel(t, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.peak_mb_per_s, 4000.0, 1e-9); /* 16 B x 250 MHz */
	CU_ASSERT_DOUBLE_EQUAL(r.mb_per_s, 4000.0, 1e-6);
	aieth_session_close(s);
}

static void test_perf_beyond_uram_invalid(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	uint64_t n = 72 * 1024; /* 64 KiB URAM on VCK190 */
	uint8_t *src = malloc(n), *dst = malloc(n);
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", n, 1, 0, src},
				   {"PLIO_01_FROM_AIE", 1024, 72, 0, dst}};
	aieth_channel_result r;
	aieth_txn *t;
	uint64_t i;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < n; i++)
		src[i] = (uint8_t)(i / 16);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	CU_ASSERT_FALSE(aieth_txn_is_valid(t));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t), "exceed the 65536-byte URAM"));
	aieth_txn_channel(t, 0, &r);
	CU_ASSERT_FALSE(r.valid);
	CU_ASSERT_EQUAL(r.user_bytes, 65536);
	/* the RX channel (1 KiB x 72) holds the last kilobyte sent: stream
	 * bytes 71 KiB.. = URAM word (71*64 + k) mod 4096 XOR the block-1 mask */
	for (i = 0; i < 1024; i += 16) {
		uint64_t word = (71 * 64 + i / 16) % 4096;
		CU_ASSERT_EQUAL(dst[i], (uint8_t)(src[word * 16] ^ 0x01));
		CU_ASSERT_EQUAL(dst[i + 2], (uint8_t)(src[word * 16 + 2] ^ 0x02));
	}
	aieth_txn_free(t);
	/* RX larger than the URAM wraps: also invalid (AMD's harness misses it) */
	a[0].size = 1024;
	a[0].repetition = 80;
	a[1].size = 80 * 1024;
	a[1].repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	CU_ASSERT_FALSE(aieth_txn_is_valid(t));
	aieth_session_close(s);
	free(src);
	free(dst);
}

static void test_stall_reports_progress(void)
{
	aieth_session *s =
		tu_session("vck190", "loopback", "{\"window_bytes\": 256, \"channels\": [1]}", 0);
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 4096, 1, 0, NULL},
				   {"PLIO_01_FROM_AIE", 4096, 1, 0, NULL}};
	aieth_channel_result r;
	aieth_txn *t;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* 4 iterations of 256 bytes: 1 KiB of the expected 4 KiB come back */
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 4), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_FUNC, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 5000), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_TIMEOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t), "stalled"));
	CU_ASSERT_FALSE(aieth_txn_is_valid(t));
	aieth_txn_channel_by_name(t, "PLIO_01_FROM_AIE", &r);
	CU_ASSERT_FALSE(r.finished);
	CU_ASSERT_EQUAL(r.bytes_moved, 1024);
	CU_ASSERT_EQUAL(r.bytes_expected, 4096);
	CU_ASSERT(r.stalled_since > 0);
	aieth_txn_channel_by_name(t, "PLIO_01_TO_AIE", &r);
	CU_ASSERT_EQUAL(r.bytes_moved, 1536); /* 4 consumed + 2 windows buffered */
	/* the graph itself completed its 4 iterations */
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 100), AIETH_OK);
	aieth_session_close(s);
}

static void test_timeout_applies(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 65536, 4000, 0, NULL},
				   {"PLIO_01_FROM_AIE", 65536, 4000, 0, NULL}};
	aieth_txn *t;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	/* 16M beats take > 50 ms of board time: a 10 ms timeout expires */
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 10), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_TIMEOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t), "10 ms timeout"));
	aieth_txn_free(t);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK); /* 0 = no limit */
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	aieth_session_close(s);
}

static void test_pipelined_and_adder(void)
{
	/* adder with 128-byte windows; each transaction sends 80 bytes per
	 * input, so iterations straddle transactions and inputs carry. A
	 * transaction receives exactly the outputs of the iterations its input
	 * completes (more would hang, as on a board). */
	aieth_session *s = tu_session("vek280", "adder", NULL, 0);
	enum { T = 8, B = 80, W = 128 };
	static int32_t in0[T * B / 4], in1[T * B / 4], out[T * B / 4];
	aieth_txn *t[T];
	int i, j, bad = 0;
	uint64_t got = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (j = 0; j < T * B / 4; j++) {
		in0[j] = j * 1000 + 3;
		in1[j] = -7 * j + 2147483000; /* sums wrap around */
	}
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 5), AIETH_OK);
	/* second bounded run while the first is not finished: refused */
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 1), AIETH_ESTATE);
	MSG("still running");
	for (i = 0; i < T; i++) {
		uint64_t ready = (uint64_t)(i + 1) * B / W * W, rx = ready - got;
		aieth_channel_args a[3] = {
			{"PLIO_01_TO_AIE", B, 1, 0, (uint8_t *)in0 + i * B},
			{"PLIO_02_TO_AIE", B, 1, (uint64_t)i, (uint8_t *)in1 + i * B},
			{"PLIO_01_FROM_AIE", rx, 1, 0, (uint8_t *)out + got}};
		CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_FUNC, a, rx ? 3 : 2, &t[i]),
				      AIETH_OK);
		got = ready;
	}
	/* waiting for the last one runs all of them, in order; 5 iterations of
	 * 128 bytes = 640 bytes = exactly 8 transactions of 80 bytes */
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t[T - 1], 0), AIETH_OK);
	for (i = 0; i < T; i++)
		CU_ASSERT_EQUAL(aieth_txn_get_status(t[i]), AIETH_TXN_DONE);
	CU_ASSERT_EQUAL(got, T * B);
	for (j = 0; j < T * B / 4; j++)
		bad += out[j] != (int32_t)((uint32_t)in0[j] + (uint32_t)in1[j]);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 1), AIETH_ESTATE);
	MSG("ended");
	CU_ASSERT_EQUAL(aieth_graph_run(s, "nope", 1), AIETH_ENOTFOUND);
	MSG("graphs: \"gr\"");
	aieth_session_close(s);
}

static void test_graph_wait_states(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	uint64_t done = 99;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 3), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 10), AIETH_ETIMEOUT); /* no data */
	MSG("cannot finish");
	CU_ASSERT_EQUAL(aieth_graph_iterations_done(s, "gr", &done), AIETH_OK);
	CU_ASSERT_EQUAL(done, 0);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", -5), AIETH_EINVAL);
	aieth_session_close(s);
	s = tu_session("vck190", "loopback", NULL, 0);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 10), AIETH_ETIMEOUT);
	MSG("runs until ended");
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 1), AIETH_ESTATE);
	aieth_session_close(s);
}

/* The same transactions in reference and fast mode give the same results. */
static void test_reference_mode_matches(void)
{
	static uint8_t src[2][3000], dst[2][2][3000];
	aieth_channel_result r[2];
	int m, i;
	uint64_t first[2][4], last[2][4];
	for (i = 0; i < 3000; i++)
		src[0][i] = (uint8_t)i, src[1][i] = (uint8_t)(i * 7);
	for (m = 0; m < 2; m++) {
		aieth_session *s = tu_session("vck190", "loopback",
					      "{\"window_bytes\": 48, "
					      "\"latency\": 3}",
					      m);
		aieth_channel_args a[4] = {{"PLIO_05_TO_AIE", 2880, 3, 5, src[0]},
					   {"PLIO_06_TO_AIE", 2880, 3, 0, src[1]},
					   {"PLIO_05_FROM_AIE", 2880, 3, 9, dst[m][0]},
					   {"PLIO_06_FROM_AIE", 2880, 3, 0, dst[m][1]}};
		aieth_txn *t;
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
		CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 4, &t), AIETH_OK);
		CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
		for (i = 0; i < 4; i++) {
			aieth_txn_channel(t, (size_t)i, &r[0]);
			first[m][i] = r[0].first_cycle;
			last[m][i] = r[0].last_cycle;
		}
		aieth_session_close(s);
	}
	CU_ASSERT_EQUAL(memcmp(first[0], first[1], sizeof first[0]), 0);
	CU_ASSERT_EQUAL(memcmp(last[0], last[1], sizeof last[0]), 0);
	CU_ASSERT_EQUAL(memcmp(dst[0], dst[1], sizeof dst[0]), 0);
	CU_ASSERT_EQUAL(memcmp(dst[0][0], src[0], 2880), 0);
}

static void test_plugin_model(void)
{
	char params[512];
	aieth_session *s;
	int16_t in[64], out[64];
	aieth_channel_args a[2] = {{"PLIO_02_TO_AIE", sizeof in, 1, 0, in},
				   {"PLIO_04_FROM_AIE", sizeof out, 1, 0, out}};
	aieth_txn *t;
	int i, bad = 0;
	snprintf(params, sizeof params,
		 "{\"in\": \"PLIO_02_TO_AIE\", \"out\": \"PLIO_04_FROM_AIE\", \"gain\": 3, "
		 "\"window_bytes\": 32}");
	s = tu_session("vck190", tu_build("plugins/scale_model.so"), params, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < 64; i++)
		in[i] = (int16_t)(i * 1000 - 30000);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	for (i = 0; i < 64; i++) {
		long v = (long)in[i] * 3;
		v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
		bad += out[i] != v;
	}
	CU_ASSERT_EQUAL(bad, 0);
	aieth_session_close(s);
}

static void test_unconnected_plio(void)
{
	aieth_session *s = tu_session("vck190", "adder", NULL, 0);
	aieth_channel_args a[1] = {{"PLIO_09_TO_AIE", 256, 1, 3, NULL}};
	aieth_channel_result r;
	aieth_txn *t;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 1, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_TIMEOUT);
	aieth_txn_channel(t, 0, &r);
	CU_ASSERT_EQUAL(r.bytes_moved, 0);
	CU_ASSERT_EQUAL(r.stalled_since, 3);
	aieth_session_close(s);
}

TU_MAIN("session", {"open errors", test_open_errors}, {"versioned options", test_versioned_opts},
	{"the caller's hooks kept past the open", test_opts_hooks_kept},
	{"submit validation", test_submit_validation},
	{"PERF results at full rate", test_perf_results_full_rate},
	{"throughput uses the board clock", test_board_clock_used},
	{"PERF beyond the URAM is invalid", test_perf_beyond_uram_invalid},
	{"stall reports per-channel progress", test_stall_reports_progress},
	{"timeouts apply", test_timeout_applies},
	{"pipelined transactions, adder, graph states", test_pipelined_and_adder},
	{"graph wait states", test_graph_wait_states},
	{"reference mode matches fast mode", test_reference_mode_matches},
	{"plugin model", test_plugin_model}, {"unconnected PLIO stalls", test_unconnected_plio})
