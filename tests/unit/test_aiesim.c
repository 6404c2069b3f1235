/* SPDX-License-Identifier: MIT */
/* test_aiesim.c - the "aiesim" model: the aiesimulator text reader (types,
 * units, TLAST, comments, refusals with file:line), times to PL cycles, the
 * fit to the window timing, and the model's params and compute; fit
 * "exact" run on the engine: each window of an irregular trace drained at
 * its trace time, equal stamps, back-pressure. The same through run_test:
 * tests/e2e/aie/aiesim.sh. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "pl_dma/models/aiesim.h"
#include "pl_dma/models/load.h"
#include "pl_dma/models/models.h"
#include "pl_dma/engine.h"
#include "pld/protocol.h"
#include "tu.h"
#include "util/error.h"

#define PL_HZ 312500000u

static char err[1024];
static aieth_model_env env = {.abi_version = AIETH_MODEL_ABI_VERSION,
			      .board = "vck190",
			      .channels = 36,
			      .pl_clock_hz = PL_HZ,
			      .err = err,
			      .err_size = sizeof err};

static const char *data_dir(void) { return tu_src("tests/data/aiesim"); }

static int tparse(const char *s, uint64_t *ps)
{
	return aieth__aiesim_time_parse(s, strlen(s), ps);
}

static void test_time_parse(void)
{
	uint64_t ps = 0;
	CU_ASSERT(tparse("1234 ns", &ps) == 0 && ps == 1234000);
	CU_ASSERT(tparse("T 103.2 ns", &ps) == 0 && ps == 103200);
	CU_ASSERT(tparse("0.5032 us", &ps) == 0 && ps == 503200);
	CU_ASSERT(tparse("T 7 ps", &ps) == 0 && ps == 7);
	CU_ASSERT(tparse("  T\t0 ps  ", &ps) == 0 && ps == 0);
	CU_ASSERT(tparse("1000000000000000 ps", &ps) == 0 && ps == AIESIM_MAX_TIME_PS);
	CU_ASSERT(tparse("1000000000000001 ps", &ps) != 0);
	CU_ASSERT(tparse("99999999999999999999999 ns", &ps) != 0);
	CU_ASSERT(tparse("5 ms", &ps) != 0);
	CU_ASSERT(tparse("1.5 ps", &ps) != 0);
	CU_ASSERT(tparse("1.0001 ns", &ps) != 0);
	CU_ASSERT(tparse("", &ps) != 0);
	CU_ASSERT(tparse("T ns", &ps) != 0);
	CU_ASSERT(tparse("3 ns x", &ps) != 0);
	CU_ASSERT(tparse("-3 ns", &ps) != 0);
}

static void test_cycles(void)
{
	/* 312.5 MHz: 3.2 ns a cycle */
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(3200, PL_HZ, 1250, 1250), 1);
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(960000, PL_HZ, 1250, 1250), 300);
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(1599, PL_HZ, 1250, 1250), 0);
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(1600, PL_HZ, 1250, 1250), 1); /* half: up */
	/* simulated at 1000 MHz, the board's AIE at 1250: 4/5 of the time */
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(960000, PL_HZ, 1000, 1250), 240);
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(AIESIM_MAX_TIME_PS, PL_HZ, 1250, 1250),
			312500000000ull); /* 1000 s */
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(AIESIM_MAX_TIME_PS, UINT64_MAX, 100000, 1),
			UINT64_MAX); /* saturates, never wraps */
	CU_ASSERT_EQUAL(aieth__aiesim_ps_to_cycles(UINT64_MAX, UINT64_MAX, UINT32_MAX, 1),
			UINT64_MAX);
}

static void test_fit(void)
{
	uint64_t even[] = {300, 500, 700, 900}, gap[] = {300, 500, 1500, 1700}, one[] = {50};
	aiesim_fit f;
	aieth__aiesim_fit_blocks(even, 4, 4, UINT64_MAX, &f);
	CU_ASSERT_EQUAL(f.cpi, 200);
	CU_ASSERT_EQUAL(f.latency, 100);
	CU_ASSERT_EQUAL(f.max_dev, 0);
	aieth__aiesim_fit_blocks(gap, 4, 4, UINT64_MAX, &f);
	CU_ASSERT_EQUAL(f.cpi, 467); /* (1700 - 300) / 3, rounded */
	CU_ASSERT_EQUAL(f.latency, 0);
	CU_ASSERT_EQUAL(f.max_dev, 434); /* block 1: 934 vs 500 */
	CU_ASSERT_EQUAL(f.dev_at, 1);
	aieth__aiesim_fit_blocks(even, 4, 4, 50, &f); /* latency capped */
	CU_ASSERT_EQUAL(f.latency, 50);
	CU_ASSERT_EQUAL(f.max_dev, 50);
	aieth__aiesim_fit_blocks(one, 1, 8, UINT64_MAX, &f); /* one window: the stream rate */
	CU_ASSERT_EQUAL(f.cpi, 8);
	CU_ASSERT_EQUAL(f.latency, 42);
}

static int read_trace(const char *name, aiesim_type t, aiesim_trace *tr)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", data_dir(), name);
	aieth__aiesim_trace_init(tr, t);
	return aieth__aiesim_trace_read(tr, path);
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static void test_read_int16(void)
{
	aiesim_trace tr;
	uint64_t line;
	CU_ASSERT_EQUAL_FATAL(read_trace("int16_ns.txt", AIESIM_INT16, &tr), 0);
	CU_ASSERT_EQUAL(tr.len, 64);
	CU_ASSERT_EQUAL(le16(tr.data), 1);
	CU_ASSERT_EQUAL(le16(tr.data + 16), 0xffff); /* -1 */
	CU_ASSERT_EQUAL(le16(tr.data + 24), 0x7fff);
	CU_ASSERT_EQUAL(le16(tr.data + 26), 0x8000); /* -32768 */
	CU_ASSERT_EQUAL(le16(tr.data + 30), 0xffff); /* 0xFFFF: the bit pattern */
	CU_ASSERT_EQUAL(le16(tr.data + 62), 24);
	CU_ASSERT_EQUAL_FATAL(tr.ntlast, 2);
	CU_ASSERT_EQUAL(tr.tlast[0], 32);
	CU_ASSERT_EQUAL(tr.tlast[1], 64);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 0, &line), 100000);
	CU_ASSERT_EQUAL(line, 2);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 24, NULL), 109600);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 32, &line), 1100000);
	CU_ASSERT_EQUAL(line, 13);
	aieth__aiesim_trace_free(&tr);
}

static void test_read_types(void)
{
	aiesim_trace tr;
	float f;
	uint32_t u;
	CU_ASSERT_EQUAL_FATAL(read_trace("cint16_ps.txt", AIESIM_CINT16, &tr), 0);
	CU_ASSERT_EQUAL(tr.len, 64);
	CU_ASSERT_EQUAL(le16(tr.data + 2), 0xffff); /* imaginary part of 1-1i */
	CU_ASSERT_EQUAL(tr.ntlast, 2);
	CU_ASSERT_EQUAL(tr.tlast[0], 32);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 48, NULL), 9600);
	aieth__aiesim_trace_free(&tr);

	CU_ASSERT_EQUAL_FATAL(read_trace("float_us.txt", AIESIM_FLOAT, &tr), 0);
	CU_ASSERT_EQUAL(tr.len, 32);
	memcpy(&f, tr.data + 4, 4);
	CU_ASSERT(f == -2.25f);
	memcpy(&f, tr.data + 16, 4);
	CU_ASSERT(isinf(f));
	memcpy(&u, tr.data + 20, 4);
	CU_ASSERT_EQUAL(u, 0x80000000u); /* -0.0 */
	memcpy(&f, tr.data + 28, 4);
	CU_ASSERT(isnan(f));
	CU_ASSERT_EQUAL(tr.ntlast, 0);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 16, NULL), 503200);
	aieth__aiesim_trace_free(&tr);

	CU_ASSERT_EQUAL_FATAL(read_trace("int8_plain.txt", AIESIM_INT8, &tr), 0);
	CU_ASSERT_EQUAL(tr.len, 16);
	CU_ASSERT_EQUAL(tr.nstamps, 0);
	CU_ASSERT_EQUAL(aieth__aiesim_trace_time_at(&tr, 0, NULL), 0);
	aieth__aiesim_trace_free(&tr);
}

static void expect_bad(const char *name, aiesim_type t, const char *msg)
{
	aiesim_trace tr;
	CU_ASSERT_NOT_EQUAL(read_trace(name, t, &tr), 0);
	if (!strstr(aieth_error_message(), msg)) {
		printf("\n%s: got \"%s\", wanted \"%s\"\n", name, aieth_error_message(), msg);
		CU_FAIL("message");
	}
	aieth__aiesim_trace_free(&tr);
}

static void test_read_bad(void)
{
	aiesim_trace tr;
	expect_bad("bad_backwards.txt", AIESIM_INT32,
		   "bad_backwards.txt:3: time goes backwards: 1000 ps after 2000 ps (line 1)");
	expect_bad("bad_range.txt", AIESIM_INT8,
		   "bad_range.txt:3: not an in-range int8 value: \"300\"");
	expect_bad("bad_tlast.txt", AIESIM_INT32, "bad_tlast.txt:3: TLAST without a data line");
	expect_bad("bad_unit.txt", AIESIM_INT32, "bad_unit.txt:1: not a time stamp");
	expect_bad("missing.txt", AIESIM_INT32, "missing.txt");
	/* a directory, a NUL byte, a TLAST twice, a line too long */
	aieth__aiesim_trace_init(&tr, AIESIM_INT32);
	CU_ASSERT_NOT_EQUAL(aieth__aiesim_trace_read(&tr, data_dir()), 0);
	CU_ASSERT_NOT_EQUAL(aieth__aiesim_trace_parse(&tr, "m", "1\n2\0003\n", 6), 0);
	CU_ASSERT(strstr(aieth_error_message(), "m:2: NUL byte") != NULL);
	aieth__aiesim_trace_free(&tr);
	aieth__aiesim_trace_init(&tr, AIESIM_CINT16);
	CU_ASSERT_NOT_EQUAL(aieth__aiesim_trace_parse(&tr, "m", "# c\n1 2 3\n", 10), 0);
	CU_ASSERT(strstr(aieth_error_message(), "m:2: odd number of values") != NULL);
	aieth__aiesim_trace_free(&tr);
	aieth__aiesim_trace_init(&tr, AIESIM_INT32);
	CU_ASSERT_NOT_EQUAL(aieth__aiesim_trace_parse(&tr, "m", "TLAST\nTLAST\n1\n", 14), 0);
	CU_ASSERT(strstr(aieth_error_message(), "m:2: TLAST again") != NULL);
	aieth__aiesim_trace_free(&tr);
	{
		size_t n = AIESIM_MAX_LINE + 10;
		char *big = malloc(n);
		CU_ASSERT_FATAL(big != NULL);
		memset(big, '1', n);
		aieth__aiesim_trace_init(&tr, AIESIM_INT32);
		CU_ASSERT_NOT_EQUAL(aieth__aiesim_trace_parse(&tr, "m", big, n), 0);
		CU_ASSERT(strstr(aieth_error_message(), "longer than") != NULL);
		aieth__aiesim_trace_free(&tr);
		free(big);
	}
}

static int create(const char *params, aieth_model *m)
{
	err[0] = '\0';
	return aieth__builtin_model_create("aiesim", &env, params, m);
}

static void expect_refused(const char *params, const char *msg)
{
	aieth_model m;
	CU_ASSERT_EQUAL(create(params, &m), -1);
	if (!strstr(err, msg)) {
		printf("\ngot \"%s\", wanted \"%s\"\n", err, msg);
		CU_FAIL("message");
	}
}

static void test_model(void)
{
	char p[2048];
	aieth_model m;
	const aieth_model_kernel *k;
	uint8_t out[4 * 32];
	uint8_t *outs[1] = {out};
	const uint8_t *ins[1] = {NULL};

	/* windows at 100 ns and 1100 ns: 31 and 344 cycles (rounded) */
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_02_FROM_AIE\","
		 " \"file\": \"int16_ns.txt\", \"type\": \"int16\"}]}",
		 data_dir());
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "aiesim"), 0);
	k = &m.kernels[0];
	CU_ASSERT_STRING_EQUAL(k->name, "aiesim");
	CU_ASSERT_EQUAL(k->num_inputs, 0);
	CU_ASSERT_EQUAL(k->num_outputs, 1);
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_02_FROM_AIE");
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 32); /* the first TLAST packet */
	CU_ASSERT_EQUAL(k->cycles_per_iteration, 313);
	CU_ASSERT_EQUAL(k->latency, 0);
	/* iterations 1..4: windows 1, 0, 1, 0 (the trace repeats) */
	CU_ASSERT_EQUAL_FATAL(k->compute(k->ctx, 1, 4, ins, outs), 0);
	CU_ASSERT_EQUAL(le16(out), 9);
	CU_ASSERT_EQUAL(le16(out + 32), 1);
	CU_ASSERT_EQUAL(le16(out + 64), 9);
	m.destroy(m.ctx);

	/* repeat false: beyond the trace is a model failure */
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"repeat\": false, \"inputs\": [{\"plio\":"
		 " \"PLIO_03_TO_AIE\", \"window_bytes\": 64}], \"outputs\": [{\"plio\":"
		 " \"PLIO_02_FROM_AIE\", \"file\": \"int16_ns.txt\", \"type\": \"int16\","
		 " \"window_bytes\": 16}]}",
		 data_dir());
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	k = &m.kernels[0];
	CU_ASSERT_EQUAL(k->num_inputs, 1);
	CU_ASSERT_EQUAL(k->inputs[0].bytes_per_iteration, 64);
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 16);
	CU_ASSERT_EQUAL(k->compute(k->ctx, 0, 4, ins, outs), 0);
	CU_ASSERT_NOT_EQUAL(k->compute(k->ctx, 1, 4, ins, outs), 0);
	m.destroy(m.ctx);
}

/* A latency above cpi - beats would halve the rate in the engine's window
 * model: "throughput" caps it, "latency" keeps it. */
static void test_fit_modes(void)
{
	const char *f = tu_tmpfile("T 3200 ns\n1 2 3 4\n5 6 7 8\nT 3840 ns\n1 2 3 4\n5 6 7 8\n");
	char dir[1024], p[2048];
	const char *slash = strrchr(f, '/');
	aieth_model m;

	snprintf(dir, sizeof dir, "%.*s", (int)(slash - f), f);
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"fit\": \"throughput\", \"outputs\":"
		 " [{\"plio\": \"PLIO_01_FROM_AIE\", \"file\": \"%s\", \"window_bytes\": 32}]}",
		 dir, slash + 1);
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	CU_ASSERT_PTR_NULL(m.iteration_timing);                  /* one cpi and latency */
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 200); /* 640 ns */
	CU_ASSERT_EQUAL(m.kernels[0].latency, 198);              /* 200 - 2 beats */
	m.destroy(m.ctx);
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"fit\": \"latency\", \"input_time\": \"0.64 us\","
		 " \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\", \"file\": \"%s\","
		 " \"window_bytes\": 32}]}",
		 dir, slash + 1);
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 200);
	CU_ASSERT_EQUAL(m.kernels[0].latency, 600); /* 2560 ns = 800 cycles - cpi */
	m.destroy(m.ctx);
	/* jitter: 3 windows at 0, 100 and 1000 cycles; fitted every 500 from
	 * 500: window 1 is 900 away */
	f = tu_tmpfile("T 0 ns\n1 2 3 4\nT 320 ns\n1 2 3 4\nT 3200 ns\n1 2 3 4\n");
	slash = strrchr(f, '/');
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - f), f);
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"fit\": \"throughput\", \"max_jitter_cycles\":"
		 " 10, \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\", \"file\": \"%s\","
		 " \"window_bytes\": 16}]}",
		 dir, slash + 1);
	expect_refused(p, "aiesim: params.max_jitter_cycles: window 1 (time stamp at line 3 of"
			  " outputs[0]) is 900 cycles away");
	/* fit "exact" (the default) places every window: the limit is moot */
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"max_jitter_cycles\": 10, \"outputs\": [{\"plio\":"
		 " \"PLIO_01_FROM_AIE\", \"file\": \"%s\", \"window_bytes\": 16}]}",
		 dir, slash + 1);
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	CU_ASSERT_PTR_NOT_NULL(m.iteration_timing);
	m.destroy(m.ctx);
}

static void test_model_refused(void)
{
	char p[2048];
	const char *d = data_dir();
	expect_refused(NULL, "aiesim: params.outputs: required");
	expect_refused("{\"dir\": \"/nonexistent/aiesim\", \"outputs\": [{\"plio\":"
		       " \"PLIO_01_FROM_AIE\", \"file\": \"x.txt\"}]}",
		       "aiesim: params.dir: \"/nonexistent/aiesim\": No such file or directory");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_TO_AIE\","
		 " \"file\": \"int16_ns.txt\"}]}",
		 d);
	expect_refused(p, "aiesim: params.outputs[0].plio: \"PLIO_01_TO_AIE\" is not an output");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_37_FROM_AIE\","
		 " \"file\": \"int16_ns.txt\"}]}",
		 d);
	expect_refused(p, "is beyond the board, which has 36 channels");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"bad_range.txt\", \"type\": \"int8\"}]}",
		 d);
	expect_refused(p, "bad_range.txt:3: not an in-range int8 value: \"300\"");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"bad_window.txt\"}]}",
		 d);
	expect_refused(p, "a window of 12 bytes (the whole file, no TLAST) is not a non-zero"
			  " multiple of 16");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"int16_ns.txt\", \"type\": \"int16\", \"window_bytes\": 48}]}",
		 d);
	expect_refused(p, "holds 64 bytes, not a whole number of 48-byte windows");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"cint16_ps.txt\", \"type\": \"cint16\", \"window_bytes\": 64}]}",
		 d);
	expect_refused(p, "TLAST packet 0 ends at byte 32, not at the end of a 64-byte window");
	snprintf(
		p, sizeof p,
		"{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		" \"file\": \"int16_ns.txt\", \"type\": \"int16\"}, {\"plio\": \"PLIO_02_FROM_AIE\","
		" \"file\": \"float_us.txt\", \"type\": \"float\"}]}",
		d);
	expect_refused(p, "aiesim: params.outputs[1]: 1 windows, but outputs[0] has 2");
	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"int16_ns.txt\", \"type\": \"int12\"}]}",
		 d);
	expect_refused(p, "params.outputs[0].type: \"int12\" is not an element type");
	expect_refused("{\"fit\": \"fast\"}", "params.fit: \"fast\" is not \"exact\",");
	expect_refused("{\"input_time\": \"3 s\"}", "params.input_time: \"3 s\" is not a time");
	expect_refused("{\"repeat\": 1}", "params.repeat: must be true or false");
	expect_refused("{\"outputs\": {}}", "params.outputs: must be an array");
	expect_refused("{\"color\": 1}", "color");
}

/* ------------------------------------------- fit "exact" on the engine */

/* An irregular trace of six 32-byte windows (2 beats) at 100, 130, 400,
 * 400 (the same stamp), 405 and 1000 cycles (3.2 ns a cycle). */
static const char *irregular_trace(char *dir, size_t dn)
{
	/* TLAST ends window 0 (one packet per window); windows 2 and 3
	 * share the stamp 1280 ns */
	const char *f = tu_tmpfile("T 320 ns\n1 2 3 4\nTLAST\n5 6 7 8\n"
				   "T 416 ns\n1 1 1 1\n2 2 2 2\n"
				   "T 1280 ns\n3 3 3 3\n4 4 4 4\n5 5 5 5\n6 6 6 6\n"
				   "T 1296 ns\n7 7 7 7\n8 8 8 8\nT 3200 ns\n9 9 9 9\n0 1 0 1\n");
	const char *slash = strrchr(f, '/');
	snprintf(dir, dn, "%.*s", (int)(slash - f), f);
	return slash + 1;
}

/* Run the model's kernel on a board slice: TX channel 0 gives `windows`
 * 1-beat input windows from cycle 0 (input 0 is complete at cycle 1: the
 * trace's times count from there), RX channel 0 takes `windows` 2-beat
 * windows from cycle `delay`; both engine modes, which must agree. (A
 * kernel without inputs would start two iterations before the transaction,
 * as time passes between transactions.) */
static void run_engine(const aieth_model *m, uint64_t windows, uint64_t delay, uint64_t *first,
		       uint64_t *last)
{
	pld_engine_params p;
	pld_kernel_desc d;
	static uint8_t dst[2][8 * 32], src[8 * 16];
	int ref;
	memset(&p, 0, sizeof p);
	p.channels = 4;
	p.depth = 64;
	p.burst_words = 4;
	p.fifo_depth = 8;
	p.loop_overhead = 1;
	memset(&d, 0, sizeof d);
	d.n_in = 1;
	d.in_beats[0] = 1;
	d.n_out = 1;
	d.out_beats[0] = 2;
	d.cpi = m->kernels[0].cycles_per_iteration;
	d.latency = m->kernels[0].latency;
	d.compute = m->kernels[0].compute;
	d.ctx = m->kernels[0].ctx;
	d.timing = m->iteration_timing;
	d.timing_ctx = m->ctx;
	d.timing_period = m->timing_period;
	for (ref = 0; ref < 2; ref++) {
		pld_engine *e = NULL;
		pld_txn t;
		pld_chan_progress tx[4], rx[4];
		pld_run_result r;
		pld_arg a[2] = {{0, 0, windows * 16, 1, 0, src, NULL},
				{1, 0, windows * 32, 1, delay, dst[ref], NULL}};
		char e2[256];
		memset(&r, 0, sizeof r);
		r.tx = tx;
		r.rx = rx;
		CU_ASSERT_EQUAL_FATAL(aieth__pld_engine_create(&e, &p, &d, 1, 1, e2, sizeof e2), 0);
		aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
		CU_ASSERT_EQUAL_FATAL(
			aieth__pld_txn_encode(&t, 4, 64, PLD_MODE_PERF, a, 2, e2, sizeof e2), 0);
		CU_ASSERT_EQUAL_FATAL(aieth__pld_engine_run(e, &t, ref, 0, &r), 0);
		CU_ASSERT_EQUAL(r.status, PLD_RUN_DONE);
		if (ref && (rx[0].first != first[0] || rx[0].last != last[0])) {
			printf("\nreference %llu..%llu, fast %llu..%llu\n",
			       (unsigned long long)rx[0].first, (unsigned long long)rx[0].last,
			       (unsigned long long)first[0], (unsigned long long)last[0]);
			CU_FAIL("fast != reference");
		}
		first[0] = rx[0].first;
		last[0] = rx[0].last;
		aieth__pld_txn_release(&t);
		aieth__pld_engine_destroy(e);
	}
	CU_ASSERT_EQUAL(memcmp(dst[0], dst[1], windows * 32), 0);
}

/* Window k is drained from its trace time when the RX takes it: the
 * schedule (aieth__aiesim_exact_schedule) starts iteration k when k-1 ends and
 * window k-2 is drained, and ends it at max(stamp, start + 1); cycles
 * after iteration 0's start (its input complete at cycle 1: add 1):
 *   k  stamp  start  out  RX beats   cycles
 *   0   100     0    100  100..101   100
 *   1   130   100    130  130..131    30
 *   2   400   130    400  400..401   270
 *   3   400   400    401  402..403     1  (the same stamp: right after 2)
 *   4   405   402    405  405..406     3  (on time again: no drift)
 *   5  1000   405   1000 1000..1001  595
 * so the RX "last" (the cycle after the last beat) after window k is
 * 1 + 102, 132, 402, 404, 407, 1002; "first" is 1 + 100. */
static void test_exact_schedule(void)
{
	static const uint64_t want_last[6] = {103, 133, 403, 405, 408, 1003};
	static const uint64_t pass1[6] = {100, 30, 270, 1, 3, 595};
	/* pass 2 aims at stamp + 900 + 180 (the mean spacing after the last):
	 * 1180, 1210, 1480, 1480, 1485, 2080 -> the same cycles but the first */
	static const uint64_t pass2[6] = {180, 30, 270, 1, 3, 595};
	char dir[1024], p[2048];
	const char *file = irregular_trace(dir, sizeof dir);
	uint64_t cyc[14], lat[14], first, last;
	aieth_model m;
	int k;

	snprintf(p, sizeof p,
		 "{\"dir\": \"%s\", \"outputs\": [{\"plio\": \"PLIO_01_FROM_AIE\","
		 " \"file\": \"%s\", \"window_bytes\": 32}]}",
		 dir, file);
	CU_ASSERT_EQUAL_FATAL(create(p, &m), 0);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "aiesim"), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.iteration_timing);
	CU_ASSERT_EQUAL(m.timing_period, 6);
	CU_ASSERT_EQUAL_FATAL(m.iteration_timing(m.ctx, 0, 0, 14, cyc, lat), 0);
	for (k = 0; k < 14; k++) {
		CU_ASSERT_EQUAL(cyc[k], k < 6 ? pass1[k] : pass2[(k - 6) % 6]);
		CU_ASSERT_EQUAL(lat[k], 0);
	}
	for (k = 0; k < 6; k++) {
		run_engine(&m, (uint64_t)k + 1, 0, &first, &last);
		CU_ASSERT_EQUAL(first, 101);
		if (last != want_last[k]) {
			printf("\nwindow %d: last %llu, want %llu\n", k, (unsigned long long)last,
			       (unsigned long long)want_last[k]);
			CU_FAIL("window cycle");
		}
	}
	/* repeat: window 6 (pass 2's first) at 1 + 1000 + 180 -> last 1183 */
	run_engine(&m, 7, 0, &first, &last);
	CU_ASSERT_EQUAL(last, 1183);

	/* Back-pressure: RX from cycle 300. Windows 0, 1 (out at 101, 131)
	 * wait (300..303);
	 * iteration 2 starts when window 0 is drained (302) and takes its 270
	 * cycles: out 572 (572..573); 3: start 572, out 573, RX 574..575;
	 * 4: start 574 (window 2 drained), out 577 (577..578); 5: start 577,
	 * out 577 + 595 = 1172, last 1174: later windows keep their spacing
	 * from when they could go. */
	run_engine(&m, 6, 300, &first, &last);
	CU_ASSERT_EQUAL(first, 300);
	CU_ASSERT_EQUAL(last, 1174);
	m.destroy(m.ctx);

	/* the bad-value path: a stamp more than 1e9 cycles after the one
	 * before is refused at create, naming the window and its line */
	{
		const char *f = tu_tmpfile("T 0 ns\n1 2 3 4\nT 3300000 us\n1 2 3 4\n");
		const char *slash = strrchr(f, '/');
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - f), f);
		snprintf(p, sizeof p,
			 "{\"dir\": \"%s\", \"outputs\": [{\"plio\":"
			 " \"PLIO_01_FROM_AIE\", \"file\": \"%s\", \"window_bytes\": 16}]}",
			 dir, slash + 1);
		expect_refused(p, "aiesim: window 1 (time stamp at line 3 of outputs[0]) comes more"
				  " than 1e9 cycles after the one before");
	}
}

TU_MAIN("aiesim", {"time_parse", test_time_parse}, {"cycles", test_cycles}, {"fit", test_fit},
	{"read_int16", test_read_int16}, {"read_types", test_read_types},
	{"read_bad", test_read_bad}, {"model", test_model}, {"fit_modes", test_fit_modes},
	{"model_refused", test_model_refused}, {"exact_schedule", test_exact_schedule})
