/* SPDX-License-Identifier: MIT */
/* test_graph_models.c - built-in graph models, their params, plugin loading and
 * model validation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "pl_dma/models/load.h"
#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "tu.h"
#include "util/error.h"

#define ASSERT_HAS(msg, sub)                                                      \
	do {                                                                      \
		const char *m_ = (msg);                                           \
		int ok_ = m_ != NULL && strstr(m_, (sub)) != NULL;                \
		if (!ok_)                                                         \
			fprintf(stderr, "\n  message \"%s\"\n  lacks   \"%s\"\n", \
				m_ ? m_ : "(null)", (sub));                       \
		CU_ASSERT(ok_);                                                   \
	} while (0)

static char errbuf[1024];

static aieth_model_env board_env(uint32_t channels)
{
	aieth_model_env e;
	memset(&e, 0, sizeof e);
	e.abi_version = AIETH_MODEL_ABI_VERSION;
	e.board = "vck190";
	e.channels = channels;
	e.pl_clock_hz = 312500000;
	e.err = errbuf;
	e.err_size = sizeof errbuf;
	errbuf[0] = '\0';
	return e;
}

static void release(aieth_model *m)
{
	if (m->destroy)
		m->destroy(m->ctx);
	memset(m, 0, sizeof *m);
}

static int is_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;
	for (i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static const char *plugin(const char *name)
{
	static char path[8][4096];
	static int slot;
	char *p = path[slot++ % 8];
	const char *b = getenv("AIETH_BUILD");
	snprintf(p, sizeof path[0], "%s/plugins/%s", b && *b ? b : "build", name);
	return p;
}

/* ------------------------------------------------------------ PLIO names */

static void test_plio_names(void)
{
	int dir = -1;
	uint32_t num = 0;
	char buf[32];

	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_01_TO_AIE", &dir, &num), 0);
	CU_ASSERT_EQUAL(dir, AIETH_MPARAM_PLIO_TO_AIE);
	CU_ASSERT_EQUAL(num, 1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_36_FROM_AIE", &dir, &num), 0);
	CU_ASSERT_EQUAL(dir, AIETH_MPARAM_PLIO_FROM_AIE);
	CU_ASSERT_EQUAL(num, 36);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_100_TO_AIE", &dir, &num), 0);
	CU_ASSERT_EQUAL(num, 100);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_1_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_001_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_00_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO__TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_01_TO_AIEx", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_01_to_aie", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("plio_01_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_-1_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("PLIO_9999999999_TO_AIE", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse("", &dir, &num), -1);
	CU_ASSERT_EQUAL(aieth__mparam_plio_parse(NULL, &dir, &num), -1);
	aieth__mparam_plio_format(buf, AIETH_MPARAM_PLIO_FROM_AIE, 7);
	CU_ASSERT_STRING_EQUAL(buf, "PLIO_07_FROM_AIE");
	aieth__mparam_plio_format(buf, AIETH_MPARAM_PLIO_TO_AIE, 123);
	CU_ASSERT_STRING_EQUAL(buf, "PLIO_123_TO_AIE");
}

/* -------------------------------------------------------------- registry */

static void test_builtin_registry(void)
{
	const char *const *names = aieth__builtin_model_names();
	aieth_model_env env = board_env(36);
	aieth_model m;

	CU_ASSERT_STRING_EQUAL(names[0], "loopback");
	CU_ASSERT_STRING_EQUAL(names[1], "adder");
	CU_ASSERT_STRING_EQUAL(names[2], "aiesim");
	CU_ASSERT_STRING_EQUAL(names[3], "route");
	CU_ASSERT_PTR_NULL(names[4]);
	memset(&m, 0xab, sizeof m);
	CU_ASSERT_EQUAL(aieth__builtin_model_create("nope", &env, NULL, &m), 1);
	CU_ASSERT_EQUAL(errbuf[0], '\0');
	CU_ASSERT_EQUAL(aieth__builtin_model_create(NULL, &env, NULL, &m), 1);
	CU_ASSERT_EQUAL(aieth__builtin_model_create("loopback", &env, NULL, &m), 0);
	release(&m);
	CU_ASSERT_EQUAL(aieth__builtin_model_create("adder", &env, "", &m), 0);
	release(&m);
	CU_ASSERT_EQUAL(aieth__builtin_model_create("adder", &env, " \n\t ", &m), 0);
	release(&m);
}

static void test_builtin_env(void)
{
	aieth_model_env env = board_env(0);
	aieth_model m;

	CU_ASSERT_EQUAL(aieth__builtin_model_create("loopback", &env, NULL, &m), -1);
	ASSERT_HAS(errbuf, "loopback: the board has no PLIO channels");
	CU_ASSERT(is_zero(&m, sizeof m));
	env = board_env(36);
	env.abi_version = 2;
	CU_ASSERT_EQUAL(aieth__builtin_model_create("adder", &env, NULL, &m), -1);
	ASSERT_HAS(errbuf, "adder: environment has model ABI version 2, expected 1");
	CU_ASSERT_EQUAL(aieth__builtin_model_create("adder", NULL, NULL, &m), -1);
	ASSERT_HAS(aieth_error_message(), "adder: no model environment given");
	/* No err buffer: the failure is still reported through the return. */
	env = board_env(36);
	env.err = NULL;
	env.err_size = 0;
	CU_ASSERT_EQUAL(aieth__builtin_model_create("loopback", &env, "{\"x\":1}", &m), -1);
	ASSERT_HAS(aieth_error_message(), "\"x\" is not allowed");
}

/* -------------------------------------------------------------- loopback */

static void test_loopback_defaults(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;
	uint32_t k;
	char name[64], plio[32];

	CU_ASSERT_EQUAL_FATAL(aieth__builtin_model_create("loopback", &env, NULL, &m), 0);
	CU_ASSERT_EQUAL(m.abi_version, AIETH_MODEL_ABI_VERSION);
	CU_ASSERT_EQUAL_FATAL(m.num_kernels, 36);
	CU_ASSERT_PTR_NOT_NULL(m.destroy);
	for (k = 0; k < m.num_kernels; k++) {
		const aieth_model_kernel *kn = &m.kernels[k];
		snprintf(name, sizeof name, "loopback_%02u", k + 1);
		CU_ASSERT_STRING_EQUAL(kn->name, name);
		CU_ASSERT_EQUAL(kn->num_inputs, 1);
		CU_ASSERT_EQUAL(kn->num_outputs, 1);
		snprintf(plio, sizeof plio, "PLIO_%02u_TO_AIE", k + 1);
		CU_ASSERT_STRING_EQUAL(kn->inputs[0].plio, plio);
		snprintf(plio, sizeof plio, "PLIO_%02u_FROM_AIE", k + 1);
		CU_ASSERT_STRING_EQUAL(kn->outputs[0].plio, plio);
		CU_ASSERT_EQUAL(kn->inputs[0].bytes_per_iteration, 16);
		CU_ASSERT_EQUAL(kn->outputs[0].bytes_per_iteration, 16);
		CU_ASSERT_EQUAL(kn->cycles_per_iteration, 1);
		CU_ASSERT_EQUAL(kn->latency, 0); /* default: full PLIO rate */
		CU_ASSERT_PTR_NOT_NULL(kn->compute);
	}
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "loopback"), 0);
	release(&m);

	/* A smaller board: one kernel per channel of that board. */
	env = board_env(16);
	CU_ASSERT_EQUAL_FATAL(aieth__builtin_model_create("loopback", &env, "{}", &m), 0);
	CU_ASSERT_EQUAL(m.num_kernels, 16);
	CU_ASSERT_STRING_EQUAL(m.kernels[15].outputs[0].plio, "PLIO_16_FROM_AIE");
	release(&m);
}

static void test_loopback_channels(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;

	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create("loopback", &env, "{\"channels\": [36, 1, 3]}", &m), 0);
	CU_ASSERT_EQUAL_FATAL(m.num_kernels, 3);
	/* Kernels in channel order, whatever the order of the list. */
	CU_ASSERT_STRING_EQUAL(m.kernels[0].name, "loopback_01");
	CU_ASSERT_STRING_EQUAL(m.kernels[1].name, "loopback_03");
	CU_ASSERT_STRING_EQUAL(m.kernels[2].name, "loopback_36");
	CU_ASSERT_STRING_EQUAL(m.kernels[1].inputs[0].plio, "PLIO_03_TO_AIE");
	CU_ASSERT_STRING_EQUAL(m.kernels[1].outputs[0].plio, "PLIO_03_FROM_AIE");
	CU_ASSERT_STRING_EQUAL(m.kernels[2].inputs[0].plio, "PLIO_36_TO_AIE");
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "loopback"), 0);
	release(&m);
}

static void test_loopback_window(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;

	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create("loopback", &env, "{\"window_bytes\": 256}", &m), 0);
	CU_ASSERT_EQUAL(m.kernels[0].inputs[0].bytes_per_iteration, 256);
	CU_ASSERT_EQUAL(m.kernels[0].outputs[0].bytes_per_iteration, 256);
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 16); /* stream rate */
	CU_ASSERT_EQUAL(m.kernels[0].latency, 0);
	release(&m);

	CU_ASSERT_EQUAL_FATAL(aieth__builtin_model_create(
				      "loopback", &env,
				      "{\"window_bytes\": 1048576, \"cycles_per_iteration\": 1,"
				      " \"latency\": 0, \"channels\": [2]}",
				      &m),
			      0);
	CU_ASSERT_EQUAL(m.num_kernels, 1);
	CU_ASSERT_EQUAL(m.kernels[0].inputs[0].bytes_per_iteration, 1048576);
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 1);
	CU_ASSERT_EQUAL(m.kernels[0].latency, 0);
	release(&m);

	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create(
			"loopback", &env,
			"{\"cycles_per_iteration\": 1000000000, \"latency\": 1000000}", &m),
		0);
	CU_ASSERT_EQUAL(m.kernels[5].cycles_per_iteration, 1000000000u);
	CU_ASSERT_EQUAL(m.kernels[5].latency, 1000000u);
	release(&m);
}

static void test_loopback_compute(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;
	uint8_t *in = malloc(5 * 32 + 1), *out = malloc(5 * 32 + 3);
	const uint8_t *ins[1];
	uint8_t *outs[1];
	size_t i;

	CU_ASSERT_FATAL(in && out);
	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create("loopback", &env, "{\"window_bytes\": 32}", &m), 0);
	for (i = 0; i < 5 * 32; i++)
		in[1 + i] = (uint8_t)(i * 7 + 3);
	memset(out, 0xee, 5 * 32 + 3);
	ins[0] = in + 1; /* deliberately unaligned */
	outs[0] = out + 2;
	CU_ASSERT_EQUAL(m.kernels[4].compute(m.kernels[4].ctx, 1000, 5, ins, outs), 0);
	CU_ASSERT_EQUAL(memcmp(out + 2, in + 1, 5 * 32), 0);
	CU_ASSERT_EQUAL(out[0], 0xee);
	CU_ASSERT_EQUAL(out[1], 0xee);
	CU_ASSERT_EQUAL(out[2 + 5 * 32], 0xee); /* nothing beyond count windows */
	/* count 0 touches nothing */
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, 0, ins, outs), 0);
	/* A count whose byte size overflows is refused, not wrapped. */
	CU_ASSERT_NOT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, UINT64_MAX / 16, ins, outs),
			    0);
	release(&m);
	free(in);
	free(out);
}

/* ----------------------------------------------------------------- adder */

static void test_adder_defaults(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;
	const aieth_model_kernel *k;

	CU_ASSERT_EQUAL_FATAL(aieth__builtin_model_create("adder", &env, NULL, &m), 0);
	CU_ASSERT_EQUAL_FATAL(m.num_kernels, 1);
	k = &m.kernels[0];
	CU_ASSERT_STRING_EQUAL(k->name, "adder");
	CU_ASSERT_EQUAL(k->num_inputs, 2);
	CU_ASSERT_EQUAL(k->num_outputs, 1);
	CU_ASSERT_STRING_EQUAL(k->inputs[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->inputs[1].plio, "PLIO_02_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(k->inputs[0].bytes_per_iteration, 128);
	CU_ASSERT_EQUAL(k->inputs[1].bytes_per_iteration, 128);
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 128);
	CU_ASSERT_EQUAL(k->cycles_per_iteration, 8);
	CU_ASSERT_EQUAL(k->latency, 0);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "adder"), 0);
	release(&m);
}

static void test_adder_params(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;
	const aieth_model_kernel *k;

	CU_ASSERT_EQUAL_FATAL(aieth__builtin_model_create(
				      "adder", &env,
				      "{\"in0\": \"PLIO_36_TO_AIE\", \"in1\": \"PLIO_05_TO_AIE\","
				      " \"out\": \"PLIO_36_FROM_AIE\", \"window_bytes\": 64,"
				      " \"cycles_per_iteration\": 2, \"latency\": 0}",
				      &m),
			      0);
	k = &m.kernels[0];
	CU_ASSERT_STRING_EQUAL(k->inputs[0].plio, "PLIO_36_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->inputs[1].plio, "PLIO_05_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_36_FROM_AIE");
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 64);
	CU_ASSERT_EQUAL(k->cycles_per_iteration, 2);
	CU_ASSERT_EQUAL(k->latency, 0);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "adder"), 0);
	release(&m);

	/* Default cycles follow the window. */
	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create("adder", &env, "{\"window_bytes\": 16}", &m), 0);
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 1);
	release(&m);
}

static void test_adder_sum(void)
{
	static const uint32_t a[] = {1,          0x7fffffffu, 0xffffffffu, 0x80000000u,
				     123456789u, 0xfffffffeu, 0,           0x40000000u,
				     5,          6,           7,           8};
	static const uint32_t b[] = {2, 1,           0xffffffffu, 0x80000000u, 987654321u, 3,
				     0, 0x40000000u, 0xfffffffbu, 10,          20,         30};
	static const uint32_t want[] = {3, 0x80000000u, 0xfffffffeu, 0,  1111111110u, 1,
					0, 0x80000000u, 0,           16, 27,          38};
	aieth_model_env env = board_env(36);
	aieth_model m;
	uint8_t *x = malloc(48 + 1), *y = malloc(48 + 3), *z = malloc(48 + 6);
	const uint8_t *ins[2];
	uint8_t *outs[1];
	size_t i;

	CU_ASSERT_FATAL(x && y && z);
	CU_ASSERT_EQUAL_FATAL(
		aieth__builtin_model_create("adder", &env, "{\"window_bytes\": 16}", &m), 0);
	/* Three windows of four int32 each, on odd addresses. */
	for (i = 0; i < 12; i++) {
		wr32(x + 1 + 4 * i, a[i]);
		wr32(y + 3 + 4 * i, b[i]);
	}
	memset(z, 0x55, 48 + 6);
	ins[0] = x + 1;
	ins[1] = y + 3;
	outs[0] = z + 5;
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 7, 3, ins, outs), 0);
	for (i = 0; i < 12; i++)
		CU_ASSERT_EQUAL(rd32(z + 5 + 4 * i), want[i]);
	CU_ASSERT_EQUAL(z[4], 0x55);
	CU_ASSERT_EQUAL(z[5 + 48], 0x55);
	/* In place: the output may be one of the inputs. */
	outs[0] = x + 1;
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, 3, ins, outs), 0);
	for (i = 0; i < 12; i++)
		CU_ASSERT_EQUAL(rd32(x + 1 + 4 * i), want[i]);
	release(&m);
	free(x);
	free(y);
	free(z);
}

/* ------------------------------------------------------------ bad params */

typedef struct {
	const char *model, *params, *msg;
} bad_case;

static const bad_case bad_params[] = {
	/* unknown keys, wrong types, malformed text */
	{"loopback", "{\"foo\": 1}",
	 "loopback: params: key \"foo\" is not allowed here (allowed: channels, window_bytes,"
	 " cycles_per_iteration, latency)"},
	{"adder", "{\"in2\": \"PLIO_03_TO_AIE\"}", "adder: params: key \"in2\" is not allowed"},
	{"loopback", "{\"window_bytes\": \"16\"}",
	 "loopback: params.window_bytes: expected an integer, got a string (\"16\")"},
	{"loopback", "{\"window_bytes\": 16.0}",
	 "loopback: params.window_bytes: expected an integer, got a number"},
	{"loopback", "{\"latency\": true}", "loopback: params.latency: expected an integer"},
	{"loopback", "{\"cycles_per_iteration\": null}",
	 "loopback: params.cycles_per_iteration: expected an integer, got null"},
	{"adder", "{\"in0\": 5}", "adder: params.in0: expected a string, got an integer (5)"},
	{"adder", "{\"out\": [\"PLIO_01_FROM_AIE\"]}", "adder: params.out: expected a string"},
	{"loopback", "[1, 2]", "loopback: params: must be a JSON object, not array"},
	{"adder", "42", "adder: params: must be a JSON object, not int"},
	{"loopback", "{", "loopback: params:1:2:"},
	{"loopback", "{\"latency\": 1} x", "loopback: params:1:"},
	{"loopback", "{\"latency\": 1, \"latency\": 2}", "duplicate key"},
	{"loopback", " null ", "loopback: params: must be a JSON object, not null"},
	/* window and timing */
	{"loopback", "{\"window_bytes\": 24}",
	 "loopback: params.window_bytes: 24 is not a multiple of 16"},
	{"adder", "{\"window_bytes\": 100}",
	 "adder: params.window_bytes: 100 is not a multiple of 16"},
	{"loopback", "{\"window_bytes\": 0}",
	 "loopback: params.window_bytes: value 0 is out of range (16..1048576)"},
	{"loopback", "{\"window_bytes\": 1048592}",
	 "loopback: params.window_bytes: value 1048592 is out of range (16..1048576)"},
	{"adder", "{\"window_bytes\": -16}",
	 "adder: params.window_bytes: value -16 is out of range"},
	{"loopback", "{\"window_bytes\": 18446744073709551615}",
	 "loopback: params.window_bytes: value 18446744073709551615 is out of range"},
	{"loopback", "{\"cycles_per_iteration\": 0}",
	 "loopback: params.cycles_per_iteration: value 0 is out of range (1..1000000000)"},
	{"adder", "{\"cycles_per_iteration\": 1000000001}",
	 "adder: params.cycles_per_iteration: value 1000000001 is out of range"},
	{"loopback", "{\"latency\": 1000001}",
	 "loopback: params.latency: value 1000001 is out of range (0..1000000)"},
	/* channels of loopback */
	{"loopback", "{\"channels\": [37]}",
	 "loopback: params.channels[0]: 37 is out of range: the board has channels 1..36"},
	{"loopback", "{\"channels\": [1, 0]}", "loopback: params.channels[1]: 0 is out of range"},
	{"loopback", "{\"channels\": [-3]}", "loopback: params.channels[0]: -3 is out of range"},
	{"loopback", "{\"channels\": [4, 2, 4]}",
	 "loopback: params.channels[2]: channel 4 is listed twice"},
	{"loopback", "{\"channels\": []}", "loopback: params.channels: [] selects no channel"},
	{"loopback", "{\"channels\": 3}",
	 "loopback: params.channels: 3 is not an array of channel numbers"},
	{"loopback", "{\"channels\": [\"1\"]}",
	 "loopback: params.channels[0]: \"1\" is not an integer channel number"},
	{"loopback", "{\"channels\": [1.5]}",
	 "loopback: params.channels[0]: 1.5 is not an integer"},
	/* PLIOs of adder */
	{"adder", "{\"in0\": \"PLIO_1_TO_AIE\"}",
	 "adder: params.in0: \"PLIO_1_TO_AIE\" is not a PLIO name (expected PLIO_NN_TO_AIE"},
	{"adder", "{\"out\": \"PLIO_01\"}",
	 "adder: params.out: \"PLIO_01\" is not a PLIO name (expected PLIO_NN_FROM_AIE"},
	{"adder", "{\"in1\": \"\"}", "adder: params.in1: \"\" is not a PLIO name"},
	{"adder", "{\"in1\": \"\\u0001\\\"x\"}",
	 "adder: params.in1: \"\\x01\\\"x\" is not a PLIO name"},
	{"adder", "{\"in0\": \"PLIO_03_FROM_AIE\"}",
	 "adder: params.in0: \"PLIO_03_FROM_AIE\" has the wrong direction (expected PLIO_NN_TO_AIE)"},
	{"adder", "{\"out\": \"PLIO_03_TO_AIE\"}",
	 "adder: params.out: \"PLIO_03_TO_AIE\" has the wrong direction (expected PLIO_NN_FROM_AIE)"},
	{"adder", "{\"in1\": \"PLIO_37_TO_AIE\"}",
	 "adder: params.in1: \"PLIO_37_TO_AIE\" is beyond the board, which has 36 channels"},
	{"adder", "{\"out\": \"PLIO_99_FROM_AIE\"}",
	 "adder: params.out: \"PLIO_99_FROM_AIE\" is beyond"},
	{"adder", "{\"in0\": \"PLIO_02_TO_AIE\", \"in1\": \"PLIO_02_TO_AIE\"}",
	 "adder: params.in1: \"PLIO_02_TO_AIE\" is also params.in0; the two inputs must be"
	 " different PLIOs"},
	{"adder", "{\"in1\": \"PLIO_01_TO_AIE\"}", "adder: params.in1: \"PLIO_01_TO_AIE\" is also"},
};

static void test_bad_params(void)
{
	size_t i;
	for (i = 0; i < sizeof bad_params / sizeof bad_params[0]; i++) {
		const bad_case *c = &bad_params[i];
		aieth_model_env env = board_env(36);
		aieth_model_handle h;
		aieth_model m;
		int rc;

		memset(&m, 0x5a, sizeof m);
		rc = aieth__builtin_model_create(c->model, &env, c->params, &m);
		if (rc != -1)
			fprintf(stderr, "\n  case %zu (%s %s): rc %d\n", i, c->model, c->params,
				rc);
		CU_ASSERT_EQUAL(rc, -1);
		ASSERT_HAS(errbuf, c->msg);
		CU_ASSERT_STRING_EQUAL(errbuf, aieth_error_message());
		CU_ASSERT(is_zero(&m, sizeof m));
		if (rc == 0)
			release(&m);

		/* Through the loader: the same message, an aieth error code. */
		rc = aieth__model_open(&h, c->model, c->params, &env);
		CU_ASSERT_EQUAL(rc, AIETH_EINVAL);
		ASSERT_HAS(aieth_error_message(), c->msg);
		CU_ASSERT(is_zero(&h, sizeof h));
		if (rc == 0)
			aieth__model_close(&h);
	}
}

/* ------------------------------------------------------------ the loader */

static void test_open_builtin(void)
{
	aieth_model_env env = board_env(36);
	aieth_model_handle h;

	env.err = NULL; /* the loader uses its own buffer */
	env.err_size = 0;
	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, "loopback", "{\"channels\": [2, 4]}", &env), 0);
	CU_ASSERT_PTR_NULL(h.dl);
	CU_ASSERT_STRING_EQUAL(h.spec, "loopback");
	CU_ASSERT_EQUAL(h.model.num_kernels, 2);
	CU_ASSERT_STRING_EQUAL(h.model.kernels[1].inputs[0].plio, "PLIO_04_TO_AIE");
	CU_ASSERT_STRING_EQUAL(aieth_error_message(), "");
	aieth__model_close(&h);
	CU_ASSERT(is_zero(&h, sizeof h));
	aieth__model_close(&h); /* twice is harmless */
	aieth__model_close(NULL);

	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, "adder", NULL, &env), 0);
	CU_ASSERT_EQUAL(h.model.num_kernels, 1);
	aieth__model_close(&h);

	/* A board with four channels: the adder's default PLIOs fit, 5 does not. */
	env = board_env(4);
	CU_ASSERT_EQUAL(aieth__model_open(&h, "adder", "{\"in1\": \"PLIO_05_TO_AIE\"}", &env),
			AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "which has 4 channels");
	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, "loopback", NULL, &env), 0);
	CU_ASSERT_EQUAL(h.model.num_kernels, 4);
	aieth__model_close(&h);
}

static void test_open_errors(void)
{
	aieth_model_env env = board_env(36);
	aieth_model_handle h;

	CU_ASSERT_EQUAL(aieth__model_open(&h, "nope", NULL, &env), AIETH_ENOTFOUND);
	ASSERT_HAS(aieth_error_message(),
		   "model \"nope\": not a built-in model (loopback, adder, aiesim, route)"
		   " nor a plugin path (one containing '/' or ending in \".so\")");
	CU_ASSERT(is_zero(&h, sizeof h));
	CU_ASSERT_EQUAL(aieth__model_open(&h, "Loopback", NULL, &env), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth__model_open(&h, "", NULL, &env), AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "no model name or plugin path given");
	CU_ASSERT_EQUAL(aieth__model_open(&h, NULL, NULL, &env), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__model_open(NULL, "loopback", NULL, &env), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__model_open(&h, "loopback", NULL, NULL), AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "model \"loopback\": no model environment given");
	env.channels = 0;
	CU_ASSERT_EQUAL(aieth__model_open(&h, "loopback", NULL, &env), AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "model \"loopback\": the board has no PLIO channels");
}

static void test_plugin_scale(void)
{
	const char *path = plugin("scale_model.so");
	aieth_model_env env = board_env(36);
	aieth_model_handle h;
	const aieth_model_kernel *k;
	static const int16_t x[] = {0,      1,     -1,     1000, -1000, 10922,  10923, -10923,
				    -10924, 32767, -32768, 7,    20000, -20000, 5,     -5};
	int16_t want[16];
	uint8_t *in = malloc(32 + 1), *out = malloc(32 + 1);
	const uint8_t *ins[1];
	uint8_t *outs[1];
	size_t i;

	CU_ASSERT_FATAL(in && out);
	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, path, NULL, &env), 0);
	CU_ASSERT_PTR_NOT_NULL(h.dl);
	CU_ASSERT_STRING_EQUAL(h.spec, path);
	k = &h.model.kernels[0];
	CU_ASSERT_STRING_EQUAL(k->name, "scale");
	CU_ASSERT_STRING_EQUAL(k->inputs[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(k->inputs[0].bytes_per_iteration, 256);
	CU_ASSERT_EQUAL(k->cycles_per_iteration, 16);
	CU_ASSERT_EQUAL(k->latency, 16);
	aieth__model_close(&h);

	CU_ASSERT_EQUAL_FATAL(
		aieth__model_open(&h, path,
				  "{ \"gain\": -3, \"in\": \"PLIO_02_TO_AIE\",\n"
				  "  \"out\": \"PLIO_05_FROM_AIE\", \"window_bytes\": 16,"
				  " \"cycles_per_iteration\": 3, \"latency\": 0 }",
				  &env),
		0);
	k = &h.model.kernels[0];
	CU_ASSERT_STRING_EQUAL(k->inputs[0].plio, "PLIO_02_TO_AIE");
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_05_FROM_AIE");
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 16);
	CU_ASSERT_EQUAL(k->cycles_per_iteration, 3);
	CU_ASSERT_EQUAL(k->latency, 0);
	for (i = 0; i < 16; i++) {
		int32_t v = x[i] * -3;
		want[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
		in[1 + 2 * i] = (uint8_t)((uint16_t)x[i] & 0xff);
		in[2 + 2 * i] = (uint8_t)((uint16_t)x[i] >> 8);
	}
	ins[0] = in + 1;
	outs[0] = out + 1;
	CU_ASSERT_EQUAL(k->compute(k->ctx, 3, 2, ins, outs), 0);
	for (i = 0; i < 16; i++) {
		uint16_t u = (uint16_t)(out[1 + 2 * i] | out[2 + 2 * i] << 8);
		int32_t got = u >= 32768 ? (int32_t)u - 65536 : (int32_t)u;
		CU_ASSERT_EQUAL(got, want[i]);
	}
	aieth__model_close(&h);
	free(in);
	free(out);
}

static void test_plugin_scale_params(void)
{
	static const struct {
		const char *params, *msg;
	} cases[] = {
		{"{\"gain\": \"x\"}", "create failed: scale: params.gain: \"x\" is not an integer"},
		{"{\"gain\": 40000}", "create failed: scale: params.gain: 40000 is out of range"
				      " -32768..32767"},
		{"{\"zz\": 1}", "create failed: scale: params.zz: unknown key"},
		{"{\"window_bytes\": 24}",
		 "scale: params.window_bytes: 24 is not a multiple of 16"},
		{"{\"gain\": 1, \"gain\": 2}", "scale: params.gain: given twice"},
		{"{\"gain\": 1} x", "scale: params: unexpected text after the closing '}'"},
		{"{\"gain\": 1.5}", "scale: params.gain: the value must be"},
		{"{\"gain\": true}", "scale: params.gain: the value must be"},
		{"{\"in\": 3}", "scale: params.in: 3 is not a string"},
		{"[]", "scale: params: not a JSON object"},
		{"{\"gain\" 1}", "scale: params.gain: expected ':'"},
		{"{\"gain\": 1 \"latency\": 2}", "scale: params: expected ',' or '}'"},
		/* accepted by the plugin, rejected by the loader's validation */
		{"{\"in\": \"PLIO_01_FROM_AIE\"}",
		 "kernel 0 \"scale\": input 0: \"PLIO_01_FROM_AIE\" has the wrong direction"},
		{"{\"out\": \"PLIO_40_FROM_AIE\"}", "\"PLIO_40_FROM_AIE\" is beyond the board"},
		{"{\"in\": \"PLIO_1_TO_AIE\"}", "\"PLIO_1_TO_AIE\" is not a PLIO name"},
	};
	const char *path = plugin("scale_model.so");
	aieth_model_env env = board_env(36);
	char prefix[4200];
	size_t i;

	snprintf(prefix, sizeof prefix, "model \"%s\": ", path);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		aieth_model_handle h;
		CU_ASSERT_EQUAL(aieth__model_open(&h, path, cases[i].params, &env), AIETH_EINVAL);
		ASSERT_HAS(aieth_error_message(), prefix);
		ASSERT_HAS(aieth_error_message(), cases[i].msg);
		CU_ASSERT(is_zero(&h, sizeof h));
	}
}

static void test_plugin_bare_name(void)
{
	/* A spec without '/' ending in ".so" is looked up in the current
	 * directory only. */
	char cwd[4096], dir[4096];
	aieth_model_env env = board_env(36);
	aieth_model_handle h;
	int rc;

	CU_ASSERT_FATAL(getcwd(cwd, sizeof cwd) != NULL);
	snprintf(dir, sizeof dir, "%s", plugin(""));
	CU_ASSERT_FATAL(chdir(dir) == 0);
	rc = aieth__model_open(&h, "scale_model.so", NULL, &env);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc == 0)
		CU_ASSERT_STRING_EQUAL(h.spec, "scale_model.so");
	aieth__model_close(&h);
	CU_ASSERT_FATAL(chdir(cwd) == 0);
	CU_ASSERT_EQUAL(aieth__model_open(&h, "scale_model.so", NULL, &env), AIETH_EIO);
	ASSERT_HAS(aieth_error_message(),
		   "model \"scale_model.so\": dlopen failed: ./scale_model.so");
}

static void test_plugin_bad(void)
{
	static const struct {
		const char *so, *params;
		int code;
		const char *msg;
	} cases[] = {
		{"bad_abi.so", NULL, AIETH_EINVAL,
		 "ABI version 99, expected 1 (rebuild the model against this aieth_model.h)"},
		{"bad_bytes.so", NULL, AIETH_EINVAL,
		 "kernel 1 \"k1\": output 0 (PLIO_02_FROM_AIE): bytes_per_iteration 24 is not a"
		 " multiple of 16"},
		{"bad_name.so", NULL, AIETH_EINVAL,
		 "kernel 1 \"k1\": input 0: \"PLIO_1_TO_AIE\" is not a PLIO name (expected"
		 " PLIO_NN_TO_AIE"},
		{"dup_plio.so", NULL, AIETH_EINVAL,
		 "kernel 1 \"k1\": output 0: PLIO_01_FROM_AIE is already used by kernel 0 \"k0\""
		 " output 0"},
		{"fail_create.so", "{\"x\": 1}", AIETH_EINVAL,
		 "create failed: refusing on purpose (params: {\"x\": 1})"},
		{"no_entry.so", NULL, AIETH_EINVAL, "does not export aieth_model_create"},
		{"missing.so", NULL, AIETH_EIO, "dlopen failed: "},
		{"timed_loopback.so", "bad_period", AIETH_EINVAL,
		 "timing_period 2000000000 is above the limit of 1000000000 iterations"},
	};
	aieth_model_env env = board_env(36);
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *path = plugin(cases[i].so);
		char prefix[4200];
		aieth_model_handle h;
		int rc = aieth__model_open(&h, path, cases[i].params, &env);
		if (rc != cases[i].code)
			fprintf(stderr, "\n  %s: rc %d: %s\n", cases[i].so, rc,
				aieth_error_message());
		CU_ASSERT_EQUAL(rc, cases[i].code);
		snprintf(prefix, sizeof prefix, "model \"%s\": ", path);
		ASSERT_HAS(aieth_error_message(), prefix);
		ASSERT_HAS(aieth_error_message(), cases[i].msg);
		CU_ASSERT(is_zero(&h, sizeof h));
	}
	/* The dlopen message names the file. */
	{
		aieth_model_handle h;
		aieth__model_open(&h, plugin("missing.so"), NULL, &env);
		ASSERT_HAS(aieth_error_message(), "missing.so: cannot open shared object file");
	}
}

static void test_plugin_source(void)
{
	aieth_model_env env = board_env(36);
	aieth_model_handle h;
	const aieth_model_kernel *k;
	uint8_t out[128 + 1];
	uint8_t *outs[1] = {out + 1};
	size_t i;

	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, plugin("good_source.so"), NULL, &env), 0);
	k = &h.model.kernels[0];
	CU_ASSERT_EQUAL(k->num_inputs, 0);
	CU_ASSERT_EQUAL(k->num_outputs, 1);
	CU_ASSERT_STRING_EQUAL(k->outputs[0].plio, "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(k->outputs[0].bytes_per_iteration, 64);
	CU_ASSERT_EQUAL(k->compute(k->ctx, 5, 2, NULL, outs), 0);
	for (i = 0; i < 32; i++)
		CU_ASSERT_EQUAL(rd32(out + 1 + 4 * i), 80 + i);
	aieth__model_close(&h);
	CU_ASSERT_EQUAL(aieth__model_open(&h, plugin("good_source.so"), "{\"a\":1}", &env),
			AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "create failed: good_source: takes no params");
}

/* ------------------------------------------------------------ validation */

static int nop_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
		       uint8_t *const *out)
{
	(void)ctx;
	(void)first;
	(void)count;
	(void)in;
	(void)out;
	return 0;
}

/* A valid two-kernel model in caller storage. */
static void sample(aieth_model *m, aieth_model_kernel k[2])
{
	memset(k, 0, 2 * sizeof *k);
	strcpy(k[0].name, "a");
	k[0].num_inputs = 2;
	k[0].num_outputs = 1;
	strcpy(k[0].inputs[0].plio, "PLIO_01_TO_AIE");
	strcpy(k[0].inputs[1].plio, "PLIO_02_TO_AIE");
	strcpy(k[0].outputs[0].plio, "PLIO_01_FROM_AIE");
	k[0].inputs[0].bytes_per_iteration = 16;
	k[0].inputs[1].bytes_per_iteration = 32;
	k[0].outputs[0].bytes_per_iteration = 1ull << 30;
	k[0].cycles_per_iteration = 1;
	k[0].latency = 1000000000ull;
	k[0].compute = nop_compute;
	k[1] = k[0];
	strcpy(k[1].name, "b");
	k[1].num_inputs = 0;
	k[1].num_outputs = 1;
	strcpy(k[1].outputs[0].plio, "PLIO_36_FROM_AIE");
	k[1].cycles_per_iteration = 1000000000ull;
	memset(m, 0, sizeof *m);
	m->abi_version = AIETH_MODEL_ABI_VERSION;
	m->num_kernels = 2;
	m->kernels = k;
}

static void expect_invalid(const aieth_model *m, const char *msg)
{
	aieth_model_env env = board_env(36);
	CU_ASSERT_EQUAL(aieth__model_validate(m, &env, "t"), AIETH_EINVAL);
	ASSERT_HAS(aieth_error_message(), "model \"t\": ");
	ASSERT_HAS(aieth_error_message(), msg);
}

static void test_validate(void)
{
	aieth_model_env env = board_env(36);
	aieth_model m;
	aieth_model_kernel k[2], many[73];
	uint32_t i;

	sample(&m, k);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "t"), 0);

	sample(&m, k);
	m.abi_version = 0;
	expect_invalid(&m, "ABI version 0, expected 1");
	sample(&m, k);
	m.num_kernels = 0;
	expect_invalid(&m, "declares no kernel (num_kernels 0, kernels set)");
	sample(&m, k);
	m.kernels = NULL;
	expect_invalid(&m, "declares no kernel (num_kernels 2, kernels NULL)");
	memset(many, 0, sizeof many);
	m.kernels = many;
	m.num_kernels = 73;
	expect_invalid(&m, "73 kernels, more than the board's 72 PLIOs can serve");

	sample(&m, k);
	memset(k[1].name, 'x', sizeof k[1].name);
	expect_invalid(&m, "kernel 1: name is not NUL-terminated within its 64 bytes");
	sample(&m, k);
	k[0].name[0] = '\0';
	expect_invalid(&m, "kernel 0: name is empty");
	sample(&m, k);
	strcpy(k[1].name, "a");
	expect_invalid(&m, "kernel 1: name \"a\" is also the name of kernel 0");
	sample(&m, k);
	k[1].compute = NULL;
	expect_invalid(&m, "kernel 1 \"b\": compute is NULL");
	strcpy(k[1].name, "\x01\""); /* names are quoted in messages */
	expect_invalid(&m, "kernel 1 \"\\x01\\\"\": compute is NULL");
	sample(&m, k);
	k[0].num_inputs = 17;
	expect_invalid(&m, "kernel 0 \"a\": 17 inputs and 1 outputs, the limit is 16 of each");
	sample(&m, k);
	k[1].num_outputs = 0xffffffffu;
	expect_invalid(&m, "kernel 1 \"b\": 0 inputs and 4294967295 outputs");
	sample(&m, k);
	k[1].num_outputs = 0;
	expect_invalid(&m, "kernel 1 \"b\": has no port");

	sample(&m, k);
	memset(k[0].inputs[1].plio, 'P', sizeof k[0].inputs[1].plio);
	expect_invalid(&m, "kernel 0 \"a\": input 1: PLIO name is not NUL-terminated");
	sample(&m, k);
	strcpy(k[0].outputs[0].plio, "PLIO_01_TO_AIE");
	expect_invalid(&m, "kernel 0 \"a\": output 0: \"PLIO_01_TO_AIE\" has the wrong direction"
			   " (an output must be PLIO_NN_FROM_AIE)");
	sample(&m, k);
	strcpy(k[0].inputs[0].plio, "PLIO_05_FROM_AIE");
	expect_invalid(&m, "input 0: \"PLIO_05_FROM_AIE\" has the wrong direction (an input must"
			   " be PLIO_NN_TO_AIE)");
	sample(&m, k);
	strcpy(k[0].inputs[0].plio, "PLIO_37_TO_AIE");
	expect_invalid(&m,
		       "input 0: \"PLIO_37_TO_AIE\" is beyond the board, which has 36 channels");
	sample(&m, k);
	strcpy(k[0].inputs[0].plio, "PLIO_01_TO_AIE ");
	expect_invalid(&m, "input 0: \"PLIO_01_TO_AIE \" is not a PLIO name");
	sample(&m, k);
	k[0].inputs[0].bytes_per_iteration = 0;
	expect_invalid(&m, "input 0 (PLIO_01_TO_AIE): bytes_per_iteration 0 is zero");
	sample(&m, k);
	k[0].inputs[1].bytes_per_iteration = 8;
	expect_invalid(&m,
		       "input 1 (PLIO_02_TO_AIE): bytes_per_iteration 8 is not a multiple of 16");
	sample(&m, k);
	k[0].outputs[0].bytes_per_iteration = (1ull << 30) + 16;
	expect_invalid(&m, "bytes_per_iteration 1073741840 is above the limit of 1 GiB");
	sample(&m, k);
	k[1].cycles_per_iteration = 0;
	expect_invalid(&m, "kernel 1 \"b\": cycles_per_iteration 0 is out of range 1..1000000000");
	sample(&m, k);
	k[1].cycles_per_iteration = 1000000001ull;
	expect_invalid(&m, "cycles_per_iteration 1000000001 is out of range");
	sample(&m, k);
	k[0].latency = 1000000001ull;
	expect_invalid(&m, "kernel 0 \"a\": latency 1000000001 is above the limit of 1000000000");

	/* One PLIO, two ports: within a kernel and across kernels. */
	sample(&m, k);
	strcpy(k[0].inputs[1].plio, "PLIO_01_TO_AIE");
	expect_invalid(&m, "kernel 0 \"a\": input 1: PLIO_01_TO_AIE is already used by kernel 0"
			   " \"a\" input 0; a PLIO carries one port only");
	sample(&m, k);
	strcpy(k[1].outputs[0].plio, "PLIO_01_FROM_AIE");
	expect_invalid(&m, "kernel 1 \"b\": output 0: PLIO_01_FROM_AIE is already used by kernel 0"
			   " \"a\" output 0");
	/* The same channel number in both directions is two PLIOs. */
	sample(&m, k);
	strcpy(k[1].outputs[0].plio, "PLIO_02_FROM_AIE");
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "t"), 0);

	/* Every PLIO of the board used once: the largest valid model. */
	memset(many, 0, sizeof many);
	for (i = 0; i < 72; i++) {
		snprintf(many[i].name, sizeof many[i].name, "k%u", i);
		if (i < 36) {
			many[i].num_inputs = 1;
			aieth__mparam_plio_format(many[i].inputs[0].plio, 0, i + 1);
			many[i].inputs[0].bytes_per_iteration = 16;
		} else {
			many[i].num_outputs = 1;
			aieth__mparam_plio_format(many[i].outputs[0].plio, 1, i - 35);
			many[i].outputs[0].bytes_per_iteration = 16;
		}
		many[i].cycles_per_iteration = 1;
		many[i].compute = nop_compute;
	}
	m.kernels = many;
	m.num_kernels = 72;
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "t"), 0);

	CU_ASSERT_EQUAL(aieth__model_validate(NULL, &env, "t"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__model_validate(&m, NULL, "t"), AIETH_EINVAL);
}

/* The optional per-iteration timing hook: a plugin setting it gets it
 * through; plugins built before it (the other test plugins, the example)
 * leave it NULL and 0, which the emulator reads as absent. */
static void test_plugin_timing(void)
{
	static const char *const old[] = {"good_source.so", "slow_loopback.so", "scale_model.so"};
	aieth_model_env env = board_env(36);
	aieth_model_handle h;
	uint64_t cyc[6], lat[6];
	size_t i;

	CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, plugin("timed_loopback.so"), NULL, &env), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h.model.iteration_timing);
	CU_ASSERT_EQUAL(h.model.timing_period, 4);
	CU_ASSERT_EQUAL(h.model.iteration_timing(h.model.ctx, 0, 3, 6, cyc, lat), 0);
	CU_ASSERT(cyc[0] == 4 && lat[0] == 1 && cyc[1] == 5 && lat[1] == 0 && cyc[5] == 5);
	aieth__model_close(&h);
	for (i = 0; i < sizeof old / sizeof old[0]; i++) {
		CU_ASSERT_EQUAL_FATAL(aieth__model_open(&h, plugin(old[i]), NULL, &env), 0);
		CU_ASSERT_PTR_NULL(h.model.iteration_timing);
		CU_ASSERT_EQUAL(h.model.timing_period, 0);
		aieth__model_close(&h);
	}
}

/* ----------------------------------------------------------------- route */

static void wr(uint8_t *p, unsigned n, uint64_t v)
{
	unsigned i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t rdn(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Create route with params; 0 on success (m filled). */
static int route_make(aieth_model *m, uint32_t channels, const char *params)
{
	aieth_model_env env = board_env(channels);
	return aieth__builtin_model_create("route", &env, params, m);
}

/* The layout of AMD's channelizer (odd TX channels feed the even RX ones)
 * and of dmafifo (int32 doubled), and each kernel's ports and timing. */
static void test_route_layout(void)
{
	aieth_model m;
	aieth_model_env env = board_env(36);

	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 36,
			"{\"board\": \"vck190\", \"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_02_FROM_AIE\", \"type\": \"cint16\","
			" \"window_bytes\": 32768},"
			"{\"from\": \"PLIO_03_TO_AIE\", \"to\": \"PLIO_04_FROM_AIE\", \"op\": \"scale\","
			" \"value\": 2, \"window_bytes\": 4096, \"cycles_per_iteration\": 300, \"latency\": 7},"
			"{\"op\": \"const\", \"value\": 0, \"to\": \"PLIO_05_FROM_AIE\"},"
			"{\"op\": \"sum\", \"from\": [\"PLIO_05_TO_AIE\", \"PLIO_06_TO_AIE\", \"PLIO_07_TO_AIE\"],"
			" \"to\": \"PLIO_36_FROM_AIE\", \"type\": \"int16\"}]}"),
		0);
	CU_ASSERT_EQUAL(m.num_kernels, 4);
	CU_ASSERT_STRING_EQUAL(m.kernels[0].name, "route_00");
	CU_ASSERT_STRING_EQUAL(m.kernels[0].inputs[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_STRING_EQUAL(m.kernels[0].outputs[0].plio, "PLIO_02_FROM_AIE");
	CU_ASSERT_EQUAL(m.kernels[0].inputs[0].bytes_per_iteration, 32768);
	CU_ASSERT_EQUAL(m.kernels[0].cycles_per_iteration, 32768 / 16);
	CU_ASSERT_EQUAL(m.kernels[0].latency, 0);
	CU_ASSERT_EQUAL(m.kernels[1].cycles_per_iteration, 300);
	CU_ASSERT_EQUAL(m.kernels[1].latency, 7);
	CU_ASSERT_EQUAL(m.kernels[2].num_inputs, 0);
	CU_ASSERT_EQUAL(m.kernels[2].num_outputs, 1);
	CU_ASSERT_EQUAL(m.kernels[2].outputs[0].bytes_per_iteration, 16);
	CU_ASSERT_EQUAL(m.kernels[3].num_inputs, 3);
	CU_ASSERT_STRING_EQUAL(m.kernels[3].inputs[2].plio, "PLIO_07_TO_AIE");
	CU_ASSERT_STRING_EQUAL(m.kernels[3].outputs[0].plio, "PLIO_36_FROM_AIE");
	/* the emulator's own rules accept what route builds */
	CU_ASSERT_EQUAL(aieth__model_validate(&m, &env, "route"), 0);
	release(&m);
}

/* Every operation on every kind of element: wrapping integers, floats
 * rounded to their type, complex parts, unaligned buffers, out == in. */
static void test_route_compute(void)
{
	aieth_model m;
	uint8_t a[64 + 1], b[64 + 1], c[64 + 1], o[64 + 3];
	const uint8_t *ins[3];
	uint8_t *outs[1];
	unsigned i;
	float f;
	double d;
	uint32_t u32;
	uint64_t u64;

	for (i = 0; i < 64; i++) {
		a[1 + i] = (uint8_t)(i * 37 + 11);
		b[1 + i] = (uint8_t)(i * 91 + 5);
		c[1 + i] = (uint8_t)(i * 13 + 250);
	}
	memset(o, 0, sizeof o);
	ins[0] = a + 1;
	ins[1] = b + 1;
	ins[2] = c + 1;
	outs[0] = o + 2;

	/* int32 doubled (dmafifo), wrapping: 0x7fffffff * 2 = -2 */
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 4,
			"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\","
			" \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"scale\", \"value\": 2, \"window_bytes\": 32}]}"),
		0);
	wr(a + 1, 4, 0x7fffffffu);
	wr(a + 5, 4, (uint32_t)-50);
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 9, 2, ins, outs), 0);
	CU_ASSERT_EQUAL(rdn(o + 2, 4), 0xfffffffeu);
	CU_ASSERT_EQUAL(rdn(o + 6, 4), (uint32_t)-100);
	for (i = 2; i < 16; i++)
		CU_ASSERT_EQUAL((uint32_t)rdn(o + 2 + 4 * i, 4),
				(uint32_t)(rdn(a + 1 + 4 * i, 4) * 2u));
	/* in place: out is the input buffer */
	memcpy(o + 2, a + 1, 64);
	ins[0] = o + 2;
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, 2, ins, outs), 0);
	CU_ASSERT_EQUAL(rdn(o + 6, 4), (uint32_t)-100);
	ins[0] = a + 1;
	release(&m);

	/* int8 add -3 wraps; uint16 sum of three wraps; int64 const */
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 4,
			"{\"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"int8\", \"op\": \"add\", \"value\": -3},"
			"{\"from\": [\"PLIO_02_TO_AIE\", \"PLIO_03_TO_AIE\", \"PLIO_04_TO_AIE\"], \"to\": \"PLIO_02_FROM_AIE\","
			" \"type\": \"uint16\", \"op\": \"sum\"},"
			"{\"to\": \"PLIO_03_FROM_AIE\", \"type\": \"int64\", \"op\": \"const\", \"value\": -9000000000000}]}"),
		0);
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(o[2 + i], (uint8_t)(a[1 + i] - 3));
	CU_ASSERT_EQUAL(m.kernels[1].compute(m.kernels[1].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 32; i++)
		CU_ASSERT_EQUAL(rdn(o + 2 + 2 * i, 2),
				(uint16_t)(rdn(a + 1 + 2 * i, 2) + rdn(b + 1 + 2 * i, 2) +
					   rdn(c + 1 + 2 * i, 2)));
	CU_ASSERT_EQUAL(m.kernels[2].compute(m.kernels[2].ctx, 5, 4, NULL, outs), 0);
	for (i = 0; i < 8; i++)
		CU_ASSERT_EQUAL(rdn(o + 2 + 8 * i, 8), (uint64_t)(int64_t)-9000000000000);
	CU_ASSERT(o[0] == 0 && o[1] == 0); /* nothing before the output */
	release(&m);

	/* float scale rounded to float, cfloat add [re, im], cint16 scale
	 * (both parts), double sum */
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 4,
			"{\"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"float\", \"op\": \"scale\", \"value\": 0.1},"
			"{\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_02_FROM_AIE\", \"type\": \"cfloat\", \"op\": \"add\", \"value\": [1.5, -2]},"
			"{\"from\": \"PLIO_03_TO_AIE\", \"to\": \"PLIO_03_FROM_AIE\", \"type\": \"cint16\", \"op\": \"scale\", \"value\": -1},"
			"{\"from\": [\"PLIO_04_TO_AIE\", \"PLIO_01_FROM_AIE\"], \"to\": \"PLIO_04_FROM_AIE\", \"op\": \"sum\"}]}"),
		-1);
	ASSERT_HAS(errbuf,
		   "route: params.routes[3].from[1]: \"PLIO_01_FROM_AIE\" has the wrong direction");
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 4,
			"{\"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"float\", \"op\": \"scale\", \"value\": 0.1},"
			"{\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_02_FROM_AIE\", \"type\": \"cfloat\", \"op\": \"add\", \"value\": [1.5, -2]},"
			"{\"from\": \"PLIO_03_TO_AIE\", \"to\": \"PLIO_03_FROM_AIE\", \"type\": \"cint16\", \"op\": \"scale\", \"value\": -1},"
			"{\"from\": [\"PLIO_04_TO_AIE\", \"PLIO_02_TO_AIE\"], \"to\": \"PLIO_04_FROM_AIE\", \"type\": \"double\", \"op\": \"sum\"}]}"),
		-1);
	ASSERT_HAS(errbuf,
		   "route: params.routes[3].from[1]: PLIO_02_TO_AIE is already routes[1].from");
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 4,
			"{\"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"float\", \"op\": \"scale\", \"value\": 0.1},"
			"{\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_02_FROM_AIE\", \"type\": \"cfloat\", \"op\": \"add\", \"value\": [1.5, -2]},"
			"{\"from\": \"PLIO_03_TO_AIE\", \"to\": \"PLIO_03_FROM_AIE\", \"type\": \"cint16\", \"op\": \"scale\", \"value\": -1},"
			"{\"from\": [\"PLIO_04_TO_AIE\", \"PLIO_03_TO_AIE\"], \"to\": \"PLIO_04_FROM_AIE\", \"type\": \"double\", \"op\": \"sum\"}]}"),
		-1);
	ASSERT_HAS(errbuf, "PLIO_03_TO_AIE is already routes[2].from");
	CU_ASSERT_EQUAL_FATAL(
		route_make(
			&m, 8,
			"{\"routes\": ["
			"{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"float\", \"op\": \"scale\", \"value\": 0.1},"
			"{\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_02_FROM_AIE\", \"type\": \"cfloat\", \"op\": \"add\", \"value\": [1.5, -2]},"
			"{\"from\": \"PLIO_03_TO_AIE\", \"to\": \"PLIO_03_FROM_AIE\", \"type\": \"cint16\", \"op\": \"scale\", \"value\": -1},"
			"{\"from\": [\"PLIO_04_TO_AIE\", \"PLIO_05_TO_AIE\"], \"to\": \"PLIO_04_FROM_AIE\", \"type\": \"double\", \"op\": \"sum\"}]}"),
		0);
	for (i = 0; i < 16; i++) {
		f = (float)(i * 1.25 - 3);
		memcpy(&u32, &f, 4);
		wr(a + 1 + 4 * i, 4, u32);
		wr(c + 1 + 4 * i, 4,
		   (uint32_t)(uint16_t)(i * 1000 - 7000) | (uint32_t)(uint16_t)(i + 1) << 16);
	}
	for (i = 0; i < 8; i++) {
		d = i * 0.5 + 1e-3;
		memcpy(&u64, &d, 8);
		wr(b + 1 + 8 * i, 8, u64);
	}
	CU_ASSERT_EQUAL(m.kernels[0].compute(m.kernels[0].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 16; i++) {
		float want = (float)((double)(float)(i * 1.25 - 3) * 0.1);
		u32 = (uint32_t)rdn(o + 2 + 4 * i, 4);
		memcpy(&f, &u32, 4);
		CU_ASSERT_EQUAL(memcmp(&f, &want, 4), 0);
	}
	/* cfloat: b's bytes as float pairs, real + 1.5, imaginary - 2 */
	ins[0] = b + 1;
	CU_ASSERT_EQUAL(m.kernels[1].compute(m.kernels[1].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 16; i++) {
		float x, want;
		u32 = (uint32_t)rdn(b + 1 + 4 * i, 4);
		memcpy(&x, &u32, 4);
		want = (float)((double)x + (i % 2 ? -2.0 : 1.5));
		u32 = (uint32_t)rdn(o + 2 + 4 * i, 4);
		memcpy(&f, &u32, 4);
		if (x == x) /* NaN bytes stay NaN: not compared */
			CU_ASSERT_EQUAL(memcmp(&f, &want, 4), 0);
	}
	ins[0] = c + 1;
	ins[2] = NULL;
	CU_ASSERT_EQUAL(m.kernels[2].compute(m.kernels[2].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 16; i++) {
		CU_ASSERT_EQUAL(rdn(o + 2 + 4 * i, 2), (uint16_t) - (int16_t)(i * 1000 - 7000));
		CU_ASSERT_EQUAL(rdn(o + 4 + 4 * i, 2), (uint16_t) - (int16_t)(i + 1));
	}
	ins[0] = b + 1;
	ins[1] = b + 1;
	CU_ASSERT_EQUAL(m.kernels[3].compute(m.kernels[3].ctx, 0, 4, ins, outs), 0);
	for (i = 0; i < 8; i++) {
		double want = 2 * (i * 0.5 + 1e-3);
		u64 = rdn(o + 2 + 8 * i, 8);
		memcpy(&d, &u64, 8);
		CU_ASSERT_EQUAL(d, want);
	}
	CU_ASSERT_NOT_EQUAL(m.kernels[3].compute(m.kernels[3].ctx, 0, UINT64_MAX / 8, ins, outs),
			    0);
	release(&m);
}

/* Each refusal names the route, its field, the value and the rule. */
static void test_route_errors(void)
{
	static const struct {
		const char *params, *msg;
	} bad[] = {
		{NULL, "route: params.routes: missing: give the routes"},
		{"{}", "route: params.routes: missing"},
		{"{\"routes\": []}", "route: params.routes: an array of 1..128 routes is needed"},
		{"{\"routes\": {}}", "given: not an array"},
		{"{\"routes\": [1]}", "route: params.routes[0]: 1 is not an object"},
		{"{\"routz\": []}", "routz"},
		{"{\"board\": \"vek280\", \"routes\": [{\"to\": \"PLIO_01_FROM_AIE\", \"op\": \"const\", \"value\": 1}]}",
		 "route: params.board: \"vek280\", but the board is vck190"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\"}]}",
		 "route: params.routes[0].to: missing: every route has an RX PLIO"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\"},"
		 " {\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_37_FROM_AIE\"}]}",
		 "route: params.routes[1].to: \"PLIO_37_FROM_AIE\" is beyond the board, which has 36 channels per direction"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\"},"
		 " {\"from\": \"PLIO_02_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\"}]}",
		 "route: params.routes[1].to: PLIO_01_FROM_AIE is already routes[0].to; a PLIO belongs to one route"},
		{"{\"routes\": [{\"from\": \"PLIO_1_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\"}]}",
		 "route: params.routes[0].from: \"PLIO_1_TO_AIE\" is not a PLIO name (expected PLIO_NN_TO_AIE"},
		{"{\"routes\": [{\"from\": 3, \"to\": \"PLIO_01_FROM_AIE\"}]}",
		 "route: params.routes[0].from: 3 is not a PLIO name"},
		{"{\"routes\": [{\"to\": \"PLIO_01_FROM_AIE\"}]}",
		 "route: params.routes[0].from: missing: op copy needs a TX PLIO"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"mul\"}]}",
		 "route: params.routes[0].op: \"mul\" is not an operation (valid: copy, scale, add, sum, const)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"bfloat16\"}]}",
		 "route: params.routes[0].type: \"bfloat16\" is not an element type (valid: int8,"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"scale\"}]}",
		 "route: params.routes[0].value: missing: op \"scale\" needs a value"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"value\": 1}]}",
		 "route: params.routes[0].value: op copy takes no value"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"scale\", \"value\": 1.5}]}",
		 "route: params.routes[0].value: 1.5 is not an integer (the element type is int32)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"int8\", \"op\": \"add\", \"value\": 128}]}",
		 "route: params.routes[0].value: 128 is out of range for int8 (-128..127)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"uint64\", \"op\": \"add\", \"value\": -1}]}",
		 "route: params.routes[0].value: -1 is out of range for uint64 (0..18446744073709551615)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"int64\", \"op\": \"add\", \"value\": 9223372036854775808}]}",
		 "route: params.routes[0].value: 9223372036854775808 is out of range for int64"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"float\", \"op\": \"add\", \"value\": 1e39}]}",
		 "is out of range for float (a finite number"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"type\": \"cint16\", \"op\": \"scale\", \"value\": [1, 2]}]}",
		 "a [real, imaginary] pair is for op add or const on a complex type (this route: op scale, type cint16)"},
		{"{\"routes\": [{\"to\": \"PLIO_01_FROM_AIE\", \"type\": \"cint32\", \"op\": \"const\", \"value\": [1]}]}",
		 "route: params.routes[0].value: an array of 1 values, a [real, imaginary] pair has 2"},
		{"{\"routes\": [{\"to\": \"PLIO_01_FROM_AIE\", \"type\": \"cint16\", \"op\": \"const\", \"value\": [1, 40000]}]}",
		 "route: params.routes[0].value[1]: 40000 is out of range for cint16 (-32768..32767)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"const\", \"value\": 0}]}",
		 "route: params.routes[0].from: op const takes no input"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"sum\"}]}",
		 "route: params.routes[0].from: op sum needs an array of 2..16 TX PLIOs"},
		{"{\"routes\": [{\"from\": [\"PLIO_01_TO_AIE\"], \"to\": \"PLIO_01_FROM_AIE\", \"op\": \"sum\"}]}",
		 "route: params.routes[0].from: 1 inputs, op sum takes 2..16"},
		{"{\"routes\": [{\"from\": [\"PLIO_01_TO_AIE\", \"PLIO_02_TO_AIE\"], \"to\": \"PLIO_01_FROM_AIE\"}]}",
		 "route: params.routes[0].from: op copy takes one TX PLIO (a string)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"window_bytes\": 24}]}",
		 "route: params.routes[0].window_bytes: 24 is not a multiple of 16"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"window_bytes\": 2097152}]}",
		 "route: params.routes[0].window_bytes: value 2097152 is out of range (16..1048576)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"latency\": 1000001}]}",
		 "route: params.routes[0].latency: value 1000001 is out of range (0..1000000)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"cycles_per_iteration\": 0}]}",
		 "route: params.routes[0].cycles_per_iteration: value 0 is out of range (1..1000000000)"},
		{"{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"colour\": 1}]}",
		 "colour"},
	};
	aieth_model m;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&m, 0xab, sizeof m);
		CU_ASSERT_EQUAL(route_make(&m, 36, bad[i].params), -1);
		ASSERT_HAS(errbuf, bad[i].msg);
		CU_ASSERT(is_zero(&m, sizeof m));
	}
}

TU_MAIN("graph_models", {"plio_names", test_plio_names},
	{"builtin_registry", test_builtin_registry}, {"builtin_env", test_builtin_env},
	{"loopback_defaults", test_loopback_defaults},
	{"loopback_channels", test_loopback_channels}, {"loopback_window", test_loopback_window},
	{"loopback_compute", test_loopback_compute}, {"adder_defaults", test_adder_defaults},
	{"adder_params", test_adder_params}, {"adder_sum", test_adder_sum},
	{"bad_params", test_bad_params}, {"open_builtin", test_open_builtin},
	{"open_errors", test_open_errors}, {"plugin_scale", test_plugin_scale},
	{"plugin_scale_params", test_plugin_scale_params},
	{"plugin_bare_name", test_plugin_bare_name}, {"plugin_bad", test_plugin_bad},
	{"plugin_source", test_plugin_source}, {"plugin_timing", test_plugin_timing},
	{"validate", test_validate}, {"route_layout", test_route_layout},
	{"route_compute", test_route_compute}, {"route_errors", test_route_errors})
