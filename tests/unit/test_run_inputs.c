/* SPDX-License-Identifier: MIT */
/* test_run_inputs.c - the input-mistake rule (runner/run_inputs.c): each
 * rule refuses with the file, the PLIO, the sizes and the rule named; what
 * is consistent, or not certain, passes. */
#include <stdint.h>

#include "aieth.h"
#include "runner/run_inputs.h"
#include "tu.h"

/* the adder: PLIO_01/02_TO_AIE -> PLIO_01_FROM_AIE, 128 bytes each, one kernel */
static const aieth_graph_port adder[] = {{"PLIO_01_TO_AIE", 1, 0, 128},
					 {"PLIO_02_TO_AIE", 1, 0, 128},
					 {"PLIO_01_FROM_AIE", 0, 0, 128}};

static rn_in_graph graph(int64_t iterations)
{
	rn_in_graph g = {"gr", "adder", iterations, 1, adder, 3};
	return g;
}

static rn_in_chan chan(const char *plio, int to_aie, uint64_t size, uint64_t rep, const char *file)
{
	rn_in_chan c = {
		plio, to_aie, size * rep, size, rep, "t.json", "transactions[0].channels[0]", file};
	return c;
}

static char msg[2048];

static int rule(rn_in_graph g, const rn_in_chan *ch, size_t n)
{
	msg[0] = 0;
	return aieth__rn_inputs_rule(&g, 1, ch, n, msg, sizeof msg);
}

static void has(const char *want)
{
	if (!strstr(msg, want))
		fprintf(stderr, "\nmessage lacks \"%s\": %s\n", want, msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
}

static void test_consistent(void)
{
	rn_in_chan ch[3] = {chan("PLIO_01_TO_AIE", 1, 4096, 4, "in0.txt"),
			    chan("PLIO_02_TO_AIE", 1, 4096, 4, "in1.txt"),
			    chan("PLIO_01_FROM_AIE", 0, 4096, 4, "golden.txt")};
	CU_ASSERT_EQUAL(rule(graph(128), ch, 3), 0);
	CU_ASSERT_EQUAL(rule(graph(-1), ch, 3), 0);
	/* a TX excess on a graph running until ended: not certain */
	ch[0] = chan("PLIO_01_TO_AIE", 1, 8192, 4, NULL);
	CU_ASSERT_EQUAL(rule(graph(-1), ch, 3), 0);
	/* a graph whose model cannot say: nothing refused */
	{
		rn_in_graph g = graph(128);
		rn_in_chan bad = chan("PLIO_09_FROM_AIE", 0, 16, 1, NULL);
		g.known = 0;
		CU_ASSERT_EQUAL(aieth__rn_inputs_rule(&g, 1, &bad, 1, msg, sizeof msg), 0);
	}
}

static void test_no_port(void)
{
	rn_in_chan rx = chan("PLIO_02_FROM_AIE", 0, 4096, 1, "golden.txt");
	rn_in_chan tx = chan("PLIO_03_TO_AIE", 1, 4096, 2, "in.txt");
	CU_ASSERT_EQUAL(rule(graph(-1), &rx, 1), 1);
	has("t.json: transactions[0].channels[0] (golden golden.txt: 4096 bytes)");
	has("PLIO_02_FROM_AIE expects 4096 bytes, but no graph model drives it");
	has("writes PLIO_01_FROM_AIE");
	has("rule: every RX PLIO is written by a graph model");
	CU_ASSERT_EQUAL(rule(graph(-1), &tx, 1), 1);
	has("(data in.txt: 4096 bytes x repetition 2)");
	has("PLIO_03_TO_AIE sends 8192 bytes, but no graph model consumes it");
	has("reads PLIO_01_TO_AIE, PLIO_02_TO_AIE");
	has("rule: every TX PLIO is read by a graph model");
}

static void test_bounded(void)
{
	rn_in_chan ch[3] = {chan("PLIO_01_TO_AIE", 1, 4096, 8, NULL),
			    chan("PLIO_02_TO_AIE", 1, 4096, 8, NULL),
			    chan("PLIO_01_FROM_AIE", 0, 4096, 8, "golden.txt")};
	/* replay=8 against 128 iterations: the RX channel is named first */
	CU_ASSERT_EQUAL(rule(graph(128), ch, 3), 1);
	has("(golden golden.txt: 4096 bytes x repetition 8)");
	has("PLIO_01_FROM_AIE expects 32768 bytes (256 iterations), but graph \"gr\" runs 128 "
	    "iterations of 128 bytes there (model adder): 16384 bytes");
	has("rule: a bounded graph's RX channels carry exactly");
	/* a golden file shorter than the graph writes */
	ch[0] = chan("PLIO_01_TO_AIE", 1, 4096, 4, NULL);
	ch[1] = chan("PLIO_02_TO_AIE", 1, 4096, 4, NULL);
	ch[2] = chan("PLIO_01_FROM_AIE", 0, 3200, 4, "g.txt");
	CU_ASSERT_EQUAL(rule(graph(128), ch, 3), 1);
	has("expects 12800 bytes (100 iterations)");
	/* TX short of the iterations; TX more is not refused */
	ch[2] = chan("PLIO_01_FROM_AIE", 0, 4096, 4, "g.txt");
	ch[1] = chan("PLIO_02_TO_AIE", 1, 2048, 4, NULL);
	CU_ASSERT_EQUAL(rule(graph(128), ch, 3), 1);
	has("PLIO_02_TO_AIE sends 8192 bytes (64 iterations)");
	has("its TX channels at least");
	ch[1] = chan("PLIO_02_TO_AIE", 1, 4096 + 256, 4, NULL);
	CU_ASSERT_EQUAL(rule(graph(128), ch, 3), 0);
	/* sizes over two transactions add up */
	{
		rn_in_chan two[6] = {ch[0], chan("PLIO_02_TO_AIE", 1, 4096, 4, NULL), ch[2],
				     ch[0], chan("PLIO_02_TO_AIE", 1, 4096, 4, NULL), ch[2]};
		CU_ASSERT_EQUAL(rule(graph(256), two, 6), 0);
		CU_ASSERT_EQUAL(rule(graph(128), two, 6), 1);
		has("over its transactions");
	}
	/* a size beyond any product: no overflow, refused */
	{
		rn_in_chan big =
			chan("PLIO_01_FROM_AIE", 0, UINT64_C(1) << 36, UINT64_C(1) << 40, NULL);
		CU_ASSERT_EQUAL(rule(graph(INT64_MAX), &big, 1), 1);
	}
}

static void test_kernel(void)
{
	rn_in_chan ch[3] = {chan("PLIO_01_TO_AIE", 1, 4096, 1, NULL),
			    chan("PLIO_01_FROM_AIE", 0, 4096, 1, NULL),
			    chan("PLIO_02_TO_AIE", 1, 1024, 1, "in1.txt")};
	/* an input without data */
	CU_ASSERT_EQUAL(rule(graph(-1), ch, 2), 1);
	has("PLIO_01_FROM_AIE expects 4096 bytes (32 iterations of 128 bytes), but no channel "
	    "sends data (0 iterations) to PLIO_02_TO_AIE");
	has("rule: a kernel writes no more iterations than each of its inputs is given");
	/* a short input */
	CU_ASSERT_EQUAL(rule(graph(-1), ch, 3), 1);
	has("(data in1.txt: 1024 bytes) sends 1024 bytes (8 iterations) to PLIO_02_TO_AIE");
	/* an RX size cutting an iteration */
	ch[1] = chan("PLIO_01_FROM_AIE", 0, 4112, 1, NULL);
	ch[2] = chan("PLIO_02_TO_AIE", 1, 4096, 1, NULL);
	CU_ASSERT_EQUAL(rule(graph(-1), ch, 3), 1);
	has("(size 4112 bytes): PLIO_01_FROM_AIE expects 4112 bytes, not a whole number of "
	    "iterations");
	has("rule: a channel's size times its repetition is a multiple of the bytes per "
	    "iteration");
}

/* what the rule is given: the emulated board's model ports */
static void test_graph_ports(void)
{
	aieth_session *s = tu_session("vck190", "adder", "{\"window_bytes\": 256}", 0);
	aieth_graph_port p[3];
	size_t n = 99;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_graph_ports(s, "gr", NULL, 0, &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(aieth_graph_ports(s, "gr", p, 1, &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, 3); /* the count, more than cap */
	CU_ASSERT_STRING_EQUAL(p[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_EQUAL(aieth_graph_ports(s, "gr", p, 3, &n), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p[2].plio, "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(p[2].to_aie, 0);
	CU_ASSERT_EQUAL(p[1].to_aie, 1);
	CU_ASSERT_EQUAL(p[2].kernel, 0);
	CU_ASSERT_EQUAL(p[2].bytes_per_iteration, 256);
	CU_ASSERT_NOT_EQUAL(aieth_graph_ports(s, "nope", p, 3, &n), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_ports(s, "gr", p, 3, NULL), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_ports(s, "gr", NULL, 3, &n), AIETH_EINVAL);
	aieth_session_close(s);
	/* the adder's stall_after: 1..1e9 */
	CU_ASSERT_PTR_NULL(tu_session("vck190", "adder", "{\"stall_after\": 0}", 0));
	s = tu_session("vck190", "adder", "{\"stall_after\": 8}", 0);
	CU_ASSERT_PTR_NOT_NULL(s);
	aieth_session_close(s);
}

TU_MAIN("run_inputs", {"aieth_graph_ports on the emulated board", test_graph_ports},
	{"consistent sizes pass, an unknown graph refuses nothing", test_consistent},
	{"a PLIO no model drives or reads", test_no_port},
	{"a bounded graph's iterations against the sizes", test_bounded},
	{"a kernel's inputs against its output", test_kernel})
