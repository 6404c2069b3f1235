/* SPDX-License-Identifier: MIT */
/*
 * test_aie_emu.c - the emulated board's part of the AI Engine state
 * (aie/aie_state.h, source "emulator"): the words of graph model ports
 * in each state (waiting for input data, for output space, for the
 * kernel; done with its PLIO short; ready and whole ones unsaid), the
 * bounds (sentences, ports, joined text never cut mid-sentence), their
 * JSON, the state an emulated session leaves at a stall, and the text
 * report's "AI Engine" block.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aie/aie_state.h"
#include "aieth.h"
#include "backends/emu.h"
#include "core/session_internal.h"
#include "tu.h"

static aie_port *port(aie_state *s, const char *kernel, const char *plio, int to_aie, int index,
		      aie_port_state st)
{
	aie_port *p = aieth__aie_state_add_port(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	snprintf(p->graph, sizeof p->graph, "gr");
	snprintf(p->kernel, sizeof p->kernel, "%s", kernel);
	snprintf(p->model, sizeof p->model, "adder");
	snprintf(p->plio, sizeof p->plio, "%s", plio);
	p->to_aie = to_aie;
	p->port = index;
	p->state = st;
	p->bytes = 1024;
	p->expected_bytes = 4096;
	p->iteration = 9;
	p->iterations = 32;
	p->bytes_per_iteration = 128;
	return p;
}

static void test_port_words(void)
{
	aie_state *s = malloc(sizeof *s);
	aie_port *p;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth__aie_state_init(s, "emulator");
	p = port(s, "k1", "PLIO_01_TO_AIE", 1, 0, AIE_PORT_WAIT_INPUT);
	p->window_bytes = 48;
	p = port(s, "k1", "PLIO_01_FROM_AIE", 0, 0, AIE_PORT_WAIT_OUTPUT);
	p->window_bytes = 128;
	p->iterations = -1; /* until ended: no "of N" */
	p = port(s, "k2", "PLIO_02_TO_AIE", 1, 0, AIE_PORT_WAIT_KERNEL);
	p->busy_until = 1000000072;
	port(s, "k2", "PLIO_02_FROM_AIE", 0, 0, AIE_PORT_WAIT_KERNEL);
	p = port(s, "k3", "PLIO_03_TO_AIE", 1, 0, AIE_PORT_DONE);
	p->iterations = 1;
	p = port(s, "k3", "PLIO_03_FROM_AIE", 0, 0, AIE_PORT_DONE);
	p->bytes = p->expected_bytes; /* done and whole: not stuck */
	port(s, "k4", "PLIO_04_TO_AIE", 1, 1, AIE_PORT_READY);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 16), 5);
	CU_ASSERT_STRING_EQUAL(tu_said[0],
			       "graph gr: k1 input 0 (PLIO_01_TO_AIE, 1024 of 4096 bytes "
			       "moved) waiting for input data: 48 of the 128 bytes of "
			       "iteration 9 of 32");
	CU_ASSERT_STRING_EQUAL(tu_said[1], "graph gr: k1 output 0 (PLIO_01_FROM_AIE, 1024 of 4096 "
					   "bytes moved) waiting for output space: 128 bytes of "
					   "iteration 9 not drained");
	/* the kernel's first port says what holds it, the next only the wait */
	CU_ASSERT_STRING_EQUAL(tu_said[2],
			       "graph gr: k2 input 0 (PLIO_02_TO_AIE, 1024 of 4096 bytes "
			       "moved) waiting for the kernel, inside iteration 9 of 32 "
			       "until cycle 1000000072 (it computes, or is stuck in its "
			       "code)");
	CU_ASSERT_STRING_EQUAL(tu_said[3], "graph gr: k2 output 0 (PLIO_02_FROM_AIE, 1024 of 4096 "
					   "bytes moved) waiting for the kernel");
	CU_ASSERT_STRING_EQUAL(tu_said[4],
			       "graph gr: k3 input 0 (PLIO_03_TO_AIE, 1024 of 4096 bytes "
			       "moved) done: the kernel ran the 1 iteration it was given");
	/* at most max sentences */
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 2), 2);
	CU_ASSERT_EQUAL(tu_nsaid, 2);
	/* tiles come first, then ports */
	s->ntiles = 1;
	memset(&s->tiles[0], 0, sizeof s->tiles[0]);
	s->tiles[0].col = 6;
	s->tiles[0].row = 1;
	s->tiles[0].kind = AIE_TILE_CORE;
	s->tiles[0].core_flags = (1u << AIE_CS_ENABLE) | (1u << AIE_CS_LOCK_STALL_S);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 16), 6);
	CU_ASSERT_STRING_EQUAL(tu_said[0], "core (6,1) stalled on lock acquire (south) (PC 0x0)");
	CU_ASSERT_PTR_NOT_NULL(strstr(tu_said[1], "k1 input 0"));
	free(s);
}

static void test_join_and_bounds(void)
{
	aie_state *s = malloc(sizeof *s);
	char out[200], small[24];
	int i;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth__aie_state_init(s, "emulator");
	port(s, "k1", "PLIO_01_TO_AIE", 1, 0, AIE_PORT_WAIT_INPUT);
	port(s, "k1", "PLIO_02_TO_AIE", 1, 1, AIE_PORT_WAIT_INPUT);
	/* the second sentence does not fit whole: "; ..." instead */
	CU_ASSERT_EQUAL(aieth__aie_state_words_join(s, out, sizeof out, 4), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "graph gr: k1 input 0 (PLIO_01_TO_AIE"));
	CU_ASSERT_PTR_NULL(strstr(out, "PLIO_02_TO_AIE"));
	CU_ASSERT_EQUAL(strcmp(out + strlen(out) - 5, "; ..."), 0);
	/* the first is cut at the size; a note after it does not repeat "..." */
	CU_ASSERT_EQUAL(aieth__aie_state_words_join(s, small, sizeof small, 4), 2);
	CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
	strcpy(out, "a");
	aieth__aie_words_add(out, sizeof out, "b");
	CU_ASSERT_STRING_EQUAL(out, "a; b");
	aieth__aie_words_add(out, 8, "a long line");
	CU_ASSERT_STRING_EQUAL(out, "a; b");
	/* nothing stuck: nothing said, "" */
	aieth__aie_state_init(s, "emulator");
	port(s, "k1", "PLIO_01_TO_AIE", 1, 0, AIE_PORT_READY);
	CU_ASSERT_EQUAL(aieth__aie_state_words_join(s, out, sizeof out, 4), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* bounded ports: past AIE_MAX_PORTS only counted, and said in a note */
	for (i = 1; i < AIE_MAX_PORTS + 3; i++)
		if (!aieth__aie_state_add_port(s))
			break;
	CU_ASSERT_EQUAL(i, AIE_MAX_PORTS);
	CU_ASSERT_PTR_NULL(aieth__aie_state_add_port(s));
	CU_ASSERT_EQUAL(s->nports, AIE_MAX_PORTS);
	CU_ASSERT_EQUAL(s->ports_dropped, 2);
	{
		json_object *j = aieth__aie_state_json(s);
		const char *txt = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(txt, "2 more graph model ports left out (at most 128)"));
		json_object_put(j);
	}
	free(s);
}

static void test_json(void)
{
	aie_state *s = malloc(sizeof *s);
	json_object *j, *ports, *p0, *v;
	aie_port *p;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth__aie_state_init(s, "emulator");
	snprintf(s->graph, sizeof s->graph, "gr");
	s->cycle = 625000000;
	p = port(s, "adder", "PLIO_01_TO_AIE", 1, 0, AIE_PORT_WAIT_KERNEL);
	p->busy_until = 77;
	p->shim_col = 6;
	p->shim_chan = 4;
	p = port(s, "adder", "PLIO_01_FROM_AIE", 0, 0, AIE_PORT_READY);
	p->iterations = -1;
	j = aieth__aie_state_json(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_object_object_get_ex(j, "tiles", &v) && json_object_array_length(v) == 0);
	CU_ASSERT(json_object_object_get_ex(j, "cycle", &v) &&
		  json_object_get_int64(v) == 625000000);
	CU_ASSERT_FATAL(json_object_object_get_ex(j, "ports", &ports));
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(ports), 2);
	p0 = json_object_array_get_idx(ports, 0);
	CU_ASSERT(json_object_object_get_ex(p0, "state", &v) &&
		  !strcmp(json_object_get_string(v), "waiting for the kernel"));
	CU_ASSERT(json_object_object_get_ex(p0, "direction", &v) &&
		  !strcmp(json_object_get_string(v), "to_aie"));
	CU_ASSERT(json_object_object_get_ex(p0, "stuck", &v) && json_object_get_boolean(v));
	CU_ASSERT(json_object_object_get_ex(p0, "busy_until_cycle", &v) &&
		  json_object_get_int64(v) == 77);
	CU_ASSERT(json_object_object_get_ex(p0, "shim_channel", &v) && json_object_get_int(v) == 4);
	CU_ASSERT(!json_object_object_get_ex(p0, "window_bytes", NULL));
	p0 = json_object_array_get_idx(ports, 1);
	CU_ASSERT(json_object_object_get_ex(p0, "iterations", &v) && v == NULL);
	CU_ASSERT(json_object_object_get_ex(p0, "stuck", &v) && !json_object_get_boolean(v));
	CU_ASSERT(!json_object_object_get_ex(p0, "shim_column", NULL));
	CU_ASSERT(json_object_object_get_ex(j, "summary", &v) && json_object_array_length(v) == 1);
	json_object_put(j);
	/* from sysfs: the same shape, no ports, no cycle */
	aieth__aie_state_init(s, "sysfs");
	j = aieth__aie_state_json(s);
	CU_ASSERT(json_object_object_get_ex(j, "ports", &v) && json_object_array_length(v) == 0);
	CU_ASSERT(!json_object_object_get_ex(j, "cycle", NULL));
	json_object_put(j);
	free(s);
}

/* One transaction on an emulated loopback of 64-byte windows: TX and RX
 * sizes given, the graph's iterations given; returns its status. */
static int run(aieth_session *s, int64_t iterations, uint64_t tx, uint64_t rx)
{
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", tx, 1, 0, NULL},
				   {"PLIO_01_FROM_AIE", rx, 1, 0, NULL}};
	aieth_txn *t = NULL;
	int st;
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", iterations), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	st = aieth_txn_get_status(t);
	aieth_txn_free(t);
	return st;
}

static void test_emulated_stall(void)
{
	const char *params = "{\"channels\": [1], \"window_bytes\": 64}";
	aieth_session *s = tu_session("vck190", "loopback", params, 0);
	const aie_state *as;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NULL(aieth__emu_aie_state(s->bstate)); /* no stall yet */
	/* one iteration given, four windows sent: the kernel is done and its
	 * PLIOs short */
	CU_ASSERT_EQUAL(run(s, 1, 256, 256), AIETH_TXN_TIMEOUT);
	as = aieth__emu_aie_state(s->bstate);
	CU_ASSERT_PTR_NOT_NULL_FATAL(as);
	CU_ASSERT_STRING_EQUAL(as->source, "emulator");
	CU_ASSERT_STRING_EQUAL(as->graph, "gr");
	CU_ASSERT_EQUAL(as->ntiles, 0);
	CU_ASSERT_EQUAL_FATAL(as->nports, 2);
	CU_ASSERT_EQUAL(as->ports[0].state, AIE_PORT_DONE);
	CU_ASSERT_STRING_EQUAL(as->ports[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_EQUAL(as->ports[0].iterations, 1);
	CU_ASSERT_EQUAL(as->ports[1].state, AIE_PORT_DONE);
	CU_ASSERT_EQUAL(as->ports[1].to_aie, 0);
	CU_ASSERT_EQUAL(as->ports[1].bytes, 64);
	CU_ASSERT_EQUAL(as->ports[1].expected_bytes, 256);
	CU_ASSERT(as->ports[1].shim_col >= 0);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(as, tu_say, NULL, 8), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(tu_said[1],
				      "output 0 (PLIO_01_FROM_AIE, 64 of 256 bytes "
				      "moved) done: the kernel ran the 1 iteration it was "
				      "given"));
	aieth_session_close(s);
	/* running until ended, one window sent, four expected: the input
	 * waits for the next iteration's data; the output, drained, is not
	 * what holds it */
	s = tu_session("vck190", "loopback", params, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(run(s, AIETH_ITERATIONS_FOREVER, 64, 256), AIETH_TXN_TIMEOUT);
	as = aieth__emu_aie_state(s->bstate);
	CU_ASSERT_PTR_NOT_NULL_FATAL(as);
	CU_ASSERT_EQUAL_FATAL(as->nports, 2);
	CU_ASSERT_EQUAL(as->ports[0].state, AIE_PORT_WAIT_INPUT);
	CU_ASSERT_EQUAL(as->ports[0].iteration, 2);
	CU_ASSERT_EQUAL(as->ports[0].window_bytes, 0);
	CU_ASSERT_EQUAL(as->ports[0].bytes_per_iteration, 64);
	CU_ASSERT_EQUAL(as->ports[0].iterations, -1);
	CU_ASSERT_EQUAL(as->ports[1].state, AIE_PORT_READY);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(as, tu_say, NULL, 8), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(tu_said[0], "input 0 (PLIO_01_TO_AIE, 64 of 64 bytes moved) "
						  "waiting for input data: 0 of the 64 bytes of "
						  "iteration 2"));
	aieth_session_close(s);
}

/* The text report's "AI Engine" block: stall_hang run through the
 * library (aie_state from OUT/artifacts), then its summary grown past the
 * block's 8 lines (the rest said to be in report.json), then emptied
 * (its notes instead). The same block for a board's sysfs state is in
 * tests/e2e/aie/aie_state.sh. */
static void test_text_block(void)
{
	char dir[] = "/tmp/aie_words_XXXXXX", art[64], path[96];
	aieth_report *r = NULL, *back = NULL;
	aieth_run_opts o = AIETH_RUN_OPTS_INIT;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT;
	json_object *j, *t, *a, *w;
	char *txt;
	int i;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(art, sizeof art, "%s/artifacts", dir);
	emu.artifacts_dir = art;
	o.emu = &emu;
	o.out_dir = dir;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_run(r, tu_src("examples/stall_hang/test.json"), &o), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), 5);
	txt = aieth_report_text(r, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt,
				      "\n   AI Engine (emulator):\n     graph gr: adder input 0 "
				      "(PLIO_01_TO_AIE, 1280 of 4096 bytes moved) waiting for "
				      "the kernel, inside iteration 9 of 32"));
	/* beside the channels' table: after it, before the error */
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "stalled since cycle 80"));
	CU_ASSERT(strstr(txt, "AI Engine (emulator)") > strstr(txt, "PLIO_01_FROM_AIE  from"));
	CU_ASSERT(strstr(txt, "AI Engine (emulator)") < strstr(txt, "error (wait"));
	free(txt);
	snprintf(path, sizeof path, "%s/report.json", dir);
	CU_ASSERT_EQUAL_FATAL(aieth_report_write_json(r, path), AIETH_OK);
	j = json_object_from_file(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	t = json_object_array_get_idx(json_object_object_get(j, "tests"), 0);
	a = json_object_object_get(t, "aie_state");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	w = json_object_object_get(a, "summary");
	for (i = 0; i < 8; i++)
		json_object_array_add(w, json_object_new_string("another stuck port"));
	CU_ASSERT_EQUAL_FATAL(json_object_to_file(path, j), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_report_load(&back, path), AIETH_OK);
	txt = aieth_report_text(back, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "     ... 3 more in report.json (aie_state.summary)\n"));
	free(txt);
	aieth_report_free(back);
	back = NULL;
	/* nothing stuck: said so, and the first notes */
	json_object_object_add(a, "summary", json_object_new_array());
	w = json_object_new_array();
	for (i = 0; i < 3; i++)
		json_object_array_add(w, json_object_new_string("a file not read"));
	json_object_object_add(a, "notes", w);
	CU_ASSERT_EQUAL_FATAL(json_object_to_file(path, j), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_report_load(&back, path), AIETH_OK);
	txt = aieth_report_text(back, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt,
				      "   AI Engine (emulator): nothing found stuck\n     note: "
				      "a file not read\n     note: a file not read\n     ... 1 "
				      "more notes in report.json (aie_state.notes)\n"));
	free(txt);
	aieth_report_free(back);
	json_object_put(j);
	aieth_report_free(r);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(path), 0);
}

TU_MAIN("aie_emu", {"graph model ports in words", test_port_words},
	{"joined words and bounds", test_join_and_bounds}, {"ports in JSON", test_json},
	{"an emulated session's stall", test_emulated_stall},
	{"the text report's AI Engine block", test_text_block})
