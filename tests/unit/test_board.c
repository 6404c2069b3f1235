/* SPDX-License-Identifier: MIT */
/* test_board.c - board facts, PLIO lookups and NodeConstraints checking. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "board/board.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

static char *slurp(const char *rel)
{
	char *t = NULL;
	if (aieth__read_file(tu_src(rel), 1u << 20, &t, NULL))
		fprintf(stderr, "%s\n", aieth_error_message());
	return t;
}

/* text with the first `from` replaced by `to` (caller frees). */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	size_t a, b, c;
	char *r;
	if (!p) {
		fprintf(stderr, "subst: \"%s\" not found\n", from);
		exit(2);
	}
	a = (size_t)(p - text);
	b = strlen(to);
	c = strlen(p + strlen(from));
	r = malloc(a + b + c + 1);
	if (!r)
		exit(2);
	memcpy(r, text, a);
	memcpy(r + a, to, b);
	memcpy(r + a + b, p + strlen(from), c + 1);
	return r;
}

static const char *data_dir(void) { return tu_src(""); }

/* ------------------------------------------------------------ the boards */

typedef struct {
	const char *name, *gen, *base;
	uint32_t channels, depth, columns;
	/* placement of the first and last PLIO (same for both directions) */
	uint32_t first_col, first_ch, last_col, last_ch;
} board_facts;

static const board_facts facts[] = {
	{"vck190", "AIE", "xilinx_vck190_base_202610_1", 36, 4096, 50, 6, 0, 23, 4},
	{"vek280", "AIE-ML", "xilinx_vek280_base_202610_1", 16, 8192, 38, 12, 0, 27, 0},
	{"vek385", "AIE-MLv2", "vek385_base", 16, 8192, 0, 12, 0, 27, 0},
};

static void test_boards_load(void)
{
	size_t i;
	for (i = 0; i < sizeof facts / sizeof facts[0]; i++) {
		const board_facts *f = &facts[i];
		aieth_board *b = NULL;
		const aieth_board_info *in;
		char kernel[64], cons[64], sys[64];
		int rc = aieth_board_load(&b, f->name, NULL); /* $AIETH_DATA_DIR */
		if (rc)
			fprintf(stderr, "\n%s\n", aieth_error_message());
		CU_ASSERT_EQUAL_FATAL(rc, AIETH_OK);
		CU_ASSERT_STRING_EQUAL(aieth_error_message(), "");
		in = aieth_board_get_info(b);
		CU_ASSERT_PTR_NOT_NULL_FATAL(in);
		snprintf(kernel, sizeof kernel, "%s_test_harness", f->name);
		snprintf(cons, sizeof cons, "cfg/%s_aie_constraints.json", f->name);
		snprintf(sys, sizeof sys, "cfg/%s_system.cfg", f->name);
		CU_ASSERT_STRING_EQUAL(in->name, f->name);
		CU_ASSERT_STRING_EQUAL(in->aie_generation, f->gen);
		CU_ASSERT_STRING_EQUAL(in->base_platform, f->base);
		CU_ASSERT_STRING_EQUAL(in->pl_kernel, kernel);
		CU_ASSERT(strlen(in->description) > 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(in->constraints_path, cons));
		CU_ASSERT_PTR_NOT_NULL(strstr(in->system_cfg_path, sys));
		CU_ASSERT_EQUAL(in->channels, f->channels);
		CU_ASSERT_EQUAL(in->uram_depth_words, f->depth);
		CU_ASSERT_EQUAL(in->stream_width_bits, 128);
		CU_ASSERT_EQUAL(in->memory_width_bits, 128);
		CU_ASSERT_EQUAL(in->pl_clock_hz, 312500000u);
		CU_ASSERT_EQUAL(in->aie_columns, f->columns);
		CU_ASSERT_EQUAL(in->preload_latency_cycles, 64);
		CU_ASSERT_EQUAL(in->func_memory.burst_words, 16);
		CU_ASSERT_EQUAL(in->func_memory.fifo_depth_words, 32);
		CU_ASSERT_EQUAL(in->func_memory.read_latency_cycles, 64);
		CU_ASSERT_EQUAL(in->func_memory.write_latency_cycles, 64);
		CU_ASSERT_EQUAL(in->func_memory.max_outstanding, 16);
		CU_ASSERT_EQUAL(in->func_memory.loop_overhead_cycles, 3);
		CU_ASSERT_EQUAL(in->counter_edges.tx_first_cycles, 1);
		CU_ASSERT_EQUAL(in->counter_edges.tx_last_cycles, 1);
		CU_ASSERT_EQUAL(in->counter_edges.rx_first_cycles, 1);
		CU_ASSERT_EQUAL(in->counter_edges.rx_last_cycles, 1);
		/* 16 B x 312.5 MHz = 5 GB/s */
		CU_ASSERT_DOUBLE_EQUAL(aieth_board_channel_peak_bps(b), 5.0e9, 1.0);
		aieth_board_free(b);
	}
}

static void test_board_load_by_path(void)
{
	aieth_board *b = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, tu_src("platforms/vek280.json"), data_dir()), 0);
	CU_ASSERT_STRING_EQUAL(aieth_board_get_info(b)->name, "vek280");
	aieth_board_free(b);
	/* Explicit data dir, by name. */
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, "vck190", data_dir()), 0);
	CU_ASSERT_EQUAL(aieth_board_get_info(b)->channels, 36);
	aieth_board_free(b);
	/* NULL handling. */
	aieth_board_free(NULL);
	CU_ASSERT_PTR_NULL(aieth_board_get_info(NULL));
	CU_ASSERT_DOUBLE_EQUAL(aieth_board_channel_peak_bps(NULL), 0.0, 0.0);
	CU_ASSERT_EQUAL(aieth_board_load(NULL, "vck190", NULL), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_board_load(&b, "", NULL), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(b);
}

static void check_plio(const aieth_board *b, aieth_dir dir, uint32_t index, uint32_t col,
		       uint32_t ch)
{
	char name[32];
	aieth_plio p, q, r;
	snprintf(name, sizeof name, "PLIO_%02u_%s", (unsigned)index + 1,
		 dir == AIETH_DIR_TO_AIE ? "TO_AIE" : "FROM_AIE");
	/* name -> index, shim */
	CU_ASSERT_EQUAL_FATAL(aieth_board_plio_find(b, name, &p), 0);
	CU_ASSERT_STRING_EQUAL(p.name, name);
	CU_ASSERT_EQUAL(p.dir, dir);
	CU_ASSERT_EQUAL(p.index, index);
	CU_ASSERT_EQUAL(p.shim_column, col);
	CU_ASSERT_EQUAL(p.shim_channel, ch);
	/* index -> name */
	CU_ASSERT_EQUAL_FATAL(aieth_board_plio_at(b, dir, index, &q), 0);
	CU_ASSERT_STRING_EQUAL(q.name, name);
	CU_ASSERT_EQUAL(q.shim_column, col);
	/* shim -> name */
	CU_ASSERT_EQUAL_FATAL(aieth_board_plio_at_shim(b, dir, col, ch, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.name, name);
	CU_ASSERT_EQUAL(r.index, index);
}

static void test_lookups(void)
{
	size_t i;
	for (i = 0; i < sizeof facts / sizeof facts[0]; i++) {
		const board_facts *f = &facts[i];
		aieth_board *b = NULL;
		int d;
		CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, f->name, data_dir()), 0);
		for (d = 0; d < 2; d++) {
			check_plio(b, (aieth_dir)d, 0, f->first_col, f->first_ch);
			check_plio(b, (aieth_dir)d, f->channels - 1, f->last_col, f->last_ch);
		}
		aieth_board_free(b);
	}
}

static void test_lookup_vck190_pairs(void)
{
	aieth_board *b = NULL;
	aieth_plio p;
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, "vck190", data_dir()), 0);
	/* PLIO_(2k+1) on column 6+k channel 0, PLIO_(2k+2) on channel 4. */
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_02_FROM_AIE", &p), 0);
	CU_ASSERT(p.shim_column == 6 && p.shim_channel == 4 && p.index == 1);
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_17_TO_AIE", &p), 0);
	CU_ASSERT(p.shim_column == 14 && p.shim_channel == 0 && p.index == 16);
	CU_ASSERT_EQUAL(aieth_board_plio_at_shim(b, AIETH_DIR_TO_AIE, 6, 1, &p), AIETH_ENOTFOUND);
	MSG_HAS("board vck190 has no TO_AIE PLIO on shim column 6 channel 1");
	CU_ASSERT_EQUAL(aieth_board_plio_at(b, AIETH_DIR_FROM_AIE, 36, &p), AIETH_ENOTFOUND);
	MSG_HAS("board vck190 has no FROM_AIE channel index 36");
	CU_ASSERT_EQUAL(aieth_board_plio_at(b, (aieth_dir)5, 0, &p), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_00_TO_AIE", &p), AIETH_ENOTFOUND);
	MSG_HAS("is not a PLIO name");
	CU_ASSERT_PTR_NULL(
		strstr(aieth_error_message(), "did you mean")); /* 01..09, 10, 20, 30 tie */
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_1_TO_AIE", &p), AIETH_ENOTFOUND);
	MSG_HAS("NN = 01..36 on board vck190); did you mean \"PLIO_01_TO_AIE\"?");
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "plio_02_from_aie", &p), AIETH_ENOTFOUND);
	MSG_HAS("; did you mean \"PLIO_02_FROM_AIE\"?");
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_01_TO_AIEX", &p), AIETH_ENOTFOUND);
	MSG_HAS("; did you mean \"PLIO_01_TO_AIE\"?");
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_02_TO_AI", &p), AIETH_ENOTFOUND);
	MSG_HAS("; did you mean \"PLIO_02_TO_AIE\"?");
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "DataIn0", &p), AIETH_ENOTFOUND);
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "did you mean"));
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, NULL, &p), AIETH_EINVAL);
	aieth_board_free(b);
}

static void test_vek280_rejects_17(void)
{
	aieth_board *b = NULL;
	aieth_plio p;
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, "vek280", data_dir()), 0);
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_17_TO_AIE", &p), AIETH_ENOTFOUND);
	MSG_HAS("PLIO_17_TO_AIE is not a PLIO of board vek280, which has 16 channels");
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "did you mean")); /* no PLIO_17 to offer */
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_17_FROM_AIE", &p), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_36_FROM_AIE", &p), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_board_plio_at(b, AIETH_DIR_TO_AIE, 16, &p), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_board_plio_find(b, "PLIO_16_FROM_AIE", &p), 0);
	aieth_board_free(b);
}

/* ------------------------------------------------------ bad board files */

/* Parse the vck190 board text with `from` replaced by `to`; expect code
 * and a message containing msg. */
static void bad_board(const char *from, const char *to, int code, const char *msg)
{
	char *base = slurp("platforms/vck190.json"), *t;
	aieth_board *b = (aieth_board *)1;
	int rc;
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	t = subst(base, from, to);
	rc = aieth__board_parse(&b, "x.json", t, strlen(t), data_dir());
	if (rc != code)
		fprintf(stderr, "\n  replace %s -> %s: rc %d (%s)\n", from, to, rc,
			aieth_error_message());
	CU_ASSERT_EQUAL(rc, code);
	CU_ASSERT_PTR_NULL(b);
	MSG_HAS(msg);
	aieth_board_free(b == (aieth_board *)1 ? NULL : b);
	free(t);
	free(base);
}

static void test_board_parse_ok(void)
{
	char *t = slurp("platforms/vck190.json");
	aieth_board *b = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(aieth__board_parse(&b, "x.json", t, strlen(t), data_dir()), 0);
	CU_ASSERT_PTR_NOT_NULL(b);
	aieth_board_free(b);
	free(t);
}

static void test_board_malformed(void)
{
	/* line 8 is "channels"; the missing comma shows at the next key. */
	bad_board("\"channels\": 36,", "\"channels\": 36", AIETH_EPARSE,
		  "x.json:9:3: object value separator ',' expected");
	bad_board("\"channels\": 36,", "\"channels\": 36,,", AIETH_EPARSE, "x.json:8:18:");
	bad_board("\"channels\": 36,", "\"channels\": 36, \"channels\": 16,", AIETH_EPARSE,
		  "x.json:8:19: channels: duplicate key (first defined at 8:3)");
	bad_board("\"burst_words\": 16,", "\"burst_words\": 16, \"burst_words\": 8,", AIETH_EPARSE,
		  "func_memory.burst_words: duplicate key");
}

static void test_board_schema_errors(void)
{
	bad_board(
		"\"channels\"", "\"chanels\"", AIETH_EPARSE,
		"x.json: key \"chanels\" is not allowed here (allowed: schema, name, description");
	bad_board("\"max_outstanding\": 16", "\"max_outstanding\": 16, \"extra\": 1", AIETH_EPARSE,
		  "x.json: func_memory: key \"extra\" is not allowed here");
	bad_board("\"channels\": 36", "\"channels\": \"36\"", AIETH_EPARSE,
		  "x.json: channels: expected an integer, got a string (\"36\")");
	bad_board("\"channels\": 36", "\"channels\": 36.0", AIETH_EPARSE,
		  "channels: expected an integer, got a number");
	bad_board("\"name\": \"vck190\"", "\"name\": 7", AIETH_EPARSE,
		  "x.json: name: expected a string, got an integer");
	bad_board("\"func_memory\": {", "\"func_memory\": 3, \"x\": {", AIETH_EPARSE,
		  "key \"x\" is not allowed");
	bad_board("\"pl_kernel\": \"vck190_test_harness\",", "", AIETH_EPARSE,
		  "x.json: required key \"pl_kernel\" is missing");
	bad_board("\"read_latency_cycles\": 64,", "", AIETH_EPARSE,
		  "x.json: func_memory: required key \"read_latency_cycles\" is missing");
}

static void test_board_range_errors(void)
{
	bad_board("\"channels\": 36", "\"channels\": 0", AIETH_EINVAL,
		  "x.json: channels: value 0 is out of range (1..36)");
	bad_board("\"channels\": 36", "\"channels\": 37", AIETH_EINVAL,
		  "value 37 is out of range (1..36): PLIO names have two digits");
	bad_board("\"channels\": 36", "\"channels\": -1", AIETH_EINVAL, "value -1 is out of range");
	bad_board(
		"\"aieth-board/1\"", "\"aieth-board/2\"", AIETH_EINVAL,
		"x.json: schema: value \"aieth-board/2\" is not supported (expected \"aieth-board/1\")");
	bad_board("\"name\": \"vck190\"", "\"name\": \"VCK-190\"", AIETH_EINVAL,
		  "x.json: name: value \"VCK-190\" is not a board name");
	bad_board("\"pl_kernel\": \"vck190_test_harness\"", "\"pl_kernel\": \"1x\"", AIETH_EINVAL,
		  "pl_kernel: value \"1x\" is not a kernel name");
	bad_board("\"uram_depth_words\": 4096", "\"uram_depth_words\": 3000", AIETH_EINVAL,
		  "x.json: uram_depth_words: value 3000 is not a power of two");
	bad_board("\"uram_depth_words\": 4096", "\"uram_depth_words\": 2097152", AIETH_EINVAL,
		  "uram_depth_words: value 2097152 is out of range (1..1048576)");
	bad_board(
		"\"stream_width_bits\": 128", "\"stream_width_bits\": 64", AIETH_EINVAL,
		"stream_width_bits: value 64 is not supported: the PL DMA engine protocol is 128-bit");
	bad_board("\"memory_width_bits\": 128", "\"memory_width_bits\": 256", AIETH_EINVAL,
		  "memory_width_bits: value 256 is not supported");
	bad_board("\"pl_clock_hz\": 312500000", "\"pl_clock_hz\": 0", AIETH_EINVAL,
		  "pl_clock_hz: value 0 is out of range (1..2000000000)");
	bad_board("\"pl_clock_hz\": 312500000", "\"pl_clock_hz\": 3000000000", AIETH_EINVAL,
		  "pl_clock_hz: value 3000000000 is out of range");
	bad_board("\"burst_words\": 16", "\"burst_words\": 257", AIETH_EINVAL,
		  "func_memory.burst_words: value 257 is out of range (1..256)");
	bad_board("\"fifo_depth_words\": 32", "\"fifo_depth_words\": 8", AIETH_EINVAL,
		  "func_memory.fifo_depth_words: value 8 is out of range (16..65536): the FIFO "
		  "must hold at least one burst");
	bad_board("\"read_latency_cycles\": 64", "\"read_latency_cycles\": 100001", AIETH_EINVAL,
		  "func_memory.read_latency_cycles: value 100001 is out of range (0..100000)");
	bad_board("\"max_outstanding\": 16", "\"max_outstanding\": 0", AIETH_EINVAL,
		  "func_memory.max_outstanding: value 0 is out of range (1..256)");
	bad_board("\"loop_overhead_cycles\": 3", "\"loop_overhead_cycles\": 0", AIETH_EINVAL,
		  "func_memory.loop_overhead_cycles: value 0 is out of range (1..1000)");
	bad_board("\"rx_last_cycles\": 1", "\"rx_last_cycles\": 1001", AIETH_EINVAL,
		  "counter_edges.rx_last_cycles: value 1001 is out of range (0..1000)");
	bad_board("\"tx_first_cycles\": 1,", "\"tx_first_cycles\": 1, \"tx_middle\": 2,",
		  AIETH_EPARSE, "x.json: counter_edges: key \"tx_middle\" is not allowed here");
	bad_board("\"tx_last_cycles\": 1,", "", AIETH_EPARSE,
		  "x.json: counter_edges: required key \"tx_last_cycles\" is missing");
	bad_board("\"preload_latency_cycles\": 64", "\"preload_latency_cycles\": 1000000",
		  AIETH_EINVAL, "preload_latency_cycles: value 1000000 is out of range");
	bad_board("\"aie_columns\": 50", "\"aie_columns\": 5000", AIETH_EINVAL,
		  "aie_columns: value 5000 is out of range");
	/* The board's own columns bound the placement: vck190 uses up to 23. */
	bad_board("\"aie_columns\": 50", "\"aie_columns\": 20", AIETH_EINVAL,
		  "shim.column: value 20 is out of range (0..19): board vck190 has 20 AIE columns");
	bad_board("\"constraints\": \"cfg/vck190_aie_constraints.json\"", "\"constraints\": \"\"",
		  AIETH_EINVAL, "constraints: value \"\" is not a path");
}

static void test_board_optional_columns(void)
{
	char *base = slurp("platforms/vck190.json"), *t;
	aieth_board *b = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	t = subst(base, "\"aie_columns\": 50,", "");
	CU_ASSERT_EQUAL(aieth__board_parse(&b, "x.json", t, strlen(t), data_dir()), 0);
	CU_ASSERT_EQUAL(aieth_board_get_info(b)->aie_columns, 0);
	aieth_board_free(b);
	free(t);
	free(base);
}

static void test_board_missing_constraints(void)
{
	bad_board("\"cfg/vck190_aie_constraints.json\"", "\"cfg/nope_aie_constraints.json\"",
		  AIETH_EIO, "x.json: constraints \"cfg/nope_aie_constraints.json\": ");
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "cannot open"));
	/* A constraints file for another board: vek280 has no PLIO_17..36. */
	bad_board("\"cfg/vck190_aie_constraints.json\"", "\"cfg/vek280_aie_constraints.json\"",
		  AIETH_EINVAL, "40 PLIOs of board vck190 are missing: PLIO_17_TO_AIE");
}

static void test_board_file_errors(void)
{
	aieth_board *b = NULL;
	const char *tmp = getenv("TMPDIR");
	char dir[512], pdir[600], path[700];
	char *base, *t;
	FILE *f;
	/* Unknown names list the boards of the data directory. */
	CU_ASSERT_EQUAL(aieth_board_load(&b, "vck191", data_dir()), AIETH_ENOTFOUND);
	MSG_HAS("unknown board \"vck191\" (known boards: ");
	MSG_HAS("vck190");
	MSG_HAS("vek280");
	MSG_HAS("vek385");
	MSG_HAS("); did you mean \"vck190\"?");
	CU_ASSERT_PTR_NULL(b);
	CU_ASSERT_EQUAL(aieth_board_load(&b, "VCK190", data_dir()), AIETH_ENOTFOUND);
	MSG_HAS("unknown board \"VCK190\" (board names use a-z, 0-9 and _)");
	MSG_HAS("vek280");
	/* A path that does not exist. */
	CU_ASSERT_EQUAL(aieth_board_load(&b, "/nonexistent/board.json", data_dir()), AIETH_EIO);
	MSG_HAS("/nonexistent/board.json: cannot open");

	/* A data directory of our own: name must match the file name. */
	/* in $TMPDIR, as other tests' scratch: a sandbox may give one and
	 * no writable /tmp */
	snprintf(dir, sizeof dir, "%s/aieth-board-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(pdir, sizeof pdir, "%s/platforms", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(pdir, 0700), 0);
	base = slurp("platforms/vck190.json");
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	{
		char abs[4200];
		snprintf(abs, sizeof abs, "\"%s\"", tu_src("cfg/vck190_aie_constraints.json"));
		t = subst(base, "\"cfg/vck190_aie_constraints.json\"", abs);
	}
	snprintf(path, sizeof path, "%s/other.json", pdir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(t, f);
	fclose(f);
	CU_ASSERT_EQUAL(aieth_board_load(&b, "other", dir), AIETH_EINVAL);
	MSG_HAS("other.json: name: value \"vck190\" does not match the file name (expected \"other\")");
	/* By path there is no such rule; the absolute constraints path works
	 * from any data directory. */
	CU_ASSERT_EQUAL(aieth_board_load(&b, path, dir), 0);
	aieth_board_free(b);
	b = NULL;
	CU_ASSERT_EQUAL(aieth_board_load(&b, "nothere", dir), AIETH_ENOTFOUND);
	MSG_HAS("(known boards: other; in ");
	/* Files over 1 MiB are refused. */
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	{
		size_t i;
		for (i = 0; i < (1u << 20); i += 64)
			fputs("                                                               \n",
			      f);
		fputs(t, f);
	}
	fclose(f);
	CU_ASSERT_EQUAL(aieth_board_load(&b, path, dir), AIETH_EINVAL);
	MSG_HAS("the limit is 1048576 bytes");
	unlink(path);
	rmdir(pdir);
	CU_ASSERT_EQUAL(aieth_board_load(&b, "vck190", dir), AIETH_ENOTFOUND);
	MSG_HAS("unknown board \"vck190\": cannot list");
	rmdir(dir);
	free(t);
	free(base);
}

/* ------------------------------------------------------ constraints */

typedef struct {
	char name[40];
	long col, ch;
	const char *extra; /* appended inside the PLIO object, or NULL */
	int skip;
} centry;

/* Placement of a board built like the real files: vck190-style pairs when
 * pairs != 0, else one PLIO per column from column 12. */
static size_t make_entries(centry *e, unsigned n, int pairs)
{
	size_t k = 0;
	int d;
	unsigned i;
	for (d = 0; d < 2; d++)
		for (i = 0; i < n; i++, k++) {
			memset(&e[k], 0, sizeof e[k]);
			snprintf(e[k].name, sizeof e[k].name, "PLIO_%02u_%s", i + 1,
				 d ? "FROM_AIE" : "TO_AIE");
			e[k].col = pairs ? 6 + i / 2 : 12 + i;
			e[k].ch = pairs ? (i % 2) * 4 : 0;
		}
	return k;
}

static char *render(const centry *e, size_t n)
{
	size_t cap = 256 + n * 160, o = 0, i;
	char *t = malloc(cap);
	if (!t)
		exit(2);
	o += (size_t)snprintf(t + o, cap - o, "{\"NodeConstraints\": {\n");
	for (i = 0; i < n; i++) {
		if (e[i].skip)
			continue;
		o += (size_t)snprintf(
			t + o, cap - o,
			"%s  \"%s\": {\"shim\": {\"column\": %ld, \"channel\": %ld}%s%s}",
			o > 30 ? ",\n" : "", e[i].name, e[i].col, e[i].ch, e[i].extra ? ", " : "",
			e[i].extra ? e[i].extra : "");
	}
	snprintf(t + o, cap - o, "\n}}\n");
	return t;
}

static aieth_board *vck190, *vek280;

static int cons(aieth_board *b, const centry *e, size_t n, aieth_plio *to, aieth_plio *from)
{
	char *t = render(e, n);
	int rc = aieth__constraints_parse(b, "c.json", t, strlen(t), to, from);
	free(t);
	return rc;
}

static void load_two(void)
{
	if (!vck190)
		CU_ASSERT_EQUAL_FATAL(aieth_board_load(&vck190, "vck190", data_dir()), 0);
	if (!vek280)
		CU_ASSERT_EQUAL_FATAL(aieth_board_load(&vek280, "vek280", data_dir()), 0);
}

static void test_constraints_ok(void)
{
	centry e[72];
	aieth_plio to[36], from[36];
	size_t n;
	load_two();
	n = make_entries(e, 36, 1);
	CU_ASSERT_EQUAL(cons(vck190, e, n, to, from), 0);
	CU_ASSERT_STRING_EQUAL(to[35].name, "PLIO_36_TO_AIE");
	CU_ASSERT(to[35].shim_column == 23 && to[35].shim_channel == 4 && to[35].index == 35);
	CU_ASSERT_STRING_EQUAL(from[0].name, "PLIO_01_FROM_AIE");
	CU_ASSERT(from[0].dir == AIETH_DIR_FROM_AIE);
	/* Order of the keys does not matter; NULL output arrays are fine. */
	{
		centry r[72];
		size_t i;
		for (i = 0; i < n; i++)
			r[i] = e[n - 1 - i];
		CU_ASSERT_EQUAL(cons(vck190, r, n, NULL, NULL), 0);
	}
	n = make_entries(e, 16, 0);
	CU_ASSERT_EQUAL(cons(vek280, e, n, to, from), 0);
	CU_ASSERT(from[15].shim_column == 27);
	/* The shipped files, through the public checker. */
	CU_ASSERT_EQUAL(
		aieth_constraints_check_file(vck190, tu_src("cfg/vck190_aie_constraints.json")), 0);
	CU_ASSERT_EQUAL(
		aieth_constraints_check_file(vek280, tu_src("cfg/vek385_aie_constraints.json")), 0);
}

static void test_constraints_missing(void)
{
	centry e[72];
	size_t n;
	load_two();
	n = make_entries(e, 16, 0);
	e[4].skip = 1;
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("c.json: NodeConstraints: 1 PLIO of board vek280 is missing: PLIO_05_TO_AIE");
	e[16 + 6].skip = 1;
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("2 PLIOs of board vek280 are missing: PLIO_05_TO_AIE, PLIO_07_FROM_AIE");
	/* Empty: everything missing, the list is cut. */
	CU_ASSERT_EQUAL(cons(vck190, e, 0, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("72 PLIOs of board vck190 are missing: PLIO_01_TO_AIE, PLIO_02_TO_AIE");
	MSG_HAS("and 60 more");
	CU_ASSERT_EQUAL(
		aieth_constraints_check_file(vck190, tu_src("cfg/vek280_aie_constraints.json")),
		AIETH_EINVAL);
	MSG_HAS("40 PLIOs of board vck190 are missing: PLIO_17_TO_AIE");
	CU_ASSERT_EQUAL(aieth_constraints_check_file(vck190, "/nonexistent/c.json"), AIETH_EIO);
	MSG_HAS("/nonexistent/c.json: cannot open");
	CU_ASSERT_EQUAL(aieth_constraints_check_file(NULL, "x"), AIETH_EINVAL);
}

static void test_constraints_duplicate_shim(void)
{
	centry e[72];
	size_t n;
	load_two();
	n = make_entries(e, 36, 1);
	/* PLIO_05_TO_AIE onto PLIO_03_TO_AIE's place (column 7, channel 0) */
	e[4].col = 7;
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("c.json: NodeConstraints.PLIO_05_TO_AIE: shim column 7 channel 0 is already used "
		"by PLIO_03_TO_AIE");
	/* The two directions may share a place (the real files do). */
	n = make_entries(e, 16, 0);
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), 0);
	/* A duplicate PLIO key is a duplicate JSON key. */
	{
		char *t = render(e, n), *t2;
		t2 = subst(t, "\"PLIO_02_TO_AIE\"", "\"PLIO_01_TO_AIE\"");
		CU_ASSERT_EQUAL(
			aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
		MSG_HAS("c.json:3:3: NodeConstraints.PLIO_01_TO_AIE: duplicate key (first defined at 2:3)");
		free(t2);
		free(t);
	}
}

static void test_constraints_bad_names(void)
{
	centry e[72];
	size_t n;
	load_two();
	n = make_entries(e, 16, 0);
	snprintf(e[3].name, sizeof e[3].name, "PLIO_4_TO_AIE");
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("c.json: NodeConstraints: key \"PLIO_4_TO_AIE\" is not a PLIO name (expected "
		"PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE, NN = 01..16)");
	snprintf(e[3].name, sizeof e[3].name, "PLIO_00_TO_AIE");
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("key \"PLIO_00_TO_AIE\" is not a PLIO name");
	snprintf(e[3].name, sizeof e[3].name, "plio_04_to_aie");
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("key \"plio_04_to_aie\" is not a PLIO name");
	snprintf(e[3].name, sizeof e[3].name, "PLIO_04_TO_AIE_");
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	/* Beyond the board: its own message. */
	n = make_entries(e, 16, 0);
	snprintf(e[20].name, sizeof e[20].name, "PLIO_17_FROM_AIE");
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("c.json: NodeConstraints.PLIO_17_FROM_AIE: PLIO 17 is beyond board vek280, which has "
		"16 channels per direction (PLIO_01..PLIO_16)");
	CU_ASSERT_EQUAL(
		aieth_constraints_check_file(vek280, tu_src("cfg/vck190_aie_constraints.json")),
		AIETH_EINVAL);
	MSG_HAS("PLIO_17_TO_AIE: PLIO 17 is beyond board vek280");
}

static void test_constraints_ranges(void)
{
	centry e[72];
	size_t n;
	load_two();
	n = make_entries(e, 36, 1);
	e[36].ch = 6; /* PLIO_01_FROM_AIE */
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("c.json: NodeConstraints.PLIO_01_FROM_AIE.shim.channel: value 6 is out of range "
		"(0..5): an AIE shim tile has 6 AIE->PL stream channels per column");
	n = make_entries(e, 36, 1);
	e[0].ch = 8;
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("PLIO_01_TO_AIE.shim.channel: value 8 is out of range (0..7): an AIE shim tile has 8");
	n = make_entries(e, 36, 1);
	e[0].ch = 7; /* TO_AIE 7 is fine if unique */
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), 0);
	e[1].col = 50;
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("PLIO_02_TO_AIE.shim.column: value 50 is out of range (0..49): board vck190 has 50 "
		"AIE columns");
	e[1].col = -1;
	CU_ASSERT_EQUAL(cons(vck190, e, n, NULL, NULL), AIETH_EINVAL);
	MSG_HAS("shim.column: value -1 is out of range");
}

static void test_constraints_schema(void)
{
	centry e[72];
	size_t n;
	char *t, *t2;
	load_two();
	n = make_entries(e, 16, 0);
	e[2].extra = "\"pl\": 1";
	CU_ASSERT_EQUAL(cons(vek280, e, n, NULL, NULL), AIETH_EPARSE);
	MSG_HAS("c.json: NodeConstraints.PLIO_03_TO_AIE: key \"pl\" is not allowed here (allowed: shim)");
	e[2].extra = NULL;
	t = render(e, n);
	t2 = subst(t, "\"channel\": 0}", "\"channel\": 0, \"port\": 2}");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("NodeConstraints.PLIO_01_TO_AIE.shim: key \"port\" is not allowed here (allowed: "
		"column, channel)");
	free(t2);
	t2 = subst(t, ", \"channel\": 0}", "}");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("NodeConstraints.PLIO_01_TO_AIE.shim: required key \"channel\" is missing");
	free(t2);
	t2 = subst(t, "\"channel\": 0}", "\"channel\": \"0\"}");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("PLIO_01_TO_AIE.shim.channel: expected an integer, got a string");
	free(t2);
	t2 = subst(t, "{\"NodeConstraints\"", "{\"Extra\": 1, \"NodeConstraints\"");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("c.json: key \"Extra\" is not allowed here (allowed: NodeConstraints)");
	free(t2);
	t2 = subst(t, "{\"NodeConstraints\"", "{\"NodeConstraintz\"");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	free(t2);
	t2 = subst(t, "}}\n", "}");
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", t2, strlen(t2), NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("c.json:34:");
	free(t2);
	CU_ASSERT_EQUAL(aieth__constraints_parse(vek280, "c.json", "[]", 2, NULL, NULL),
			AIETH_EPARSE);
	MSG_HAS("c.json: expected an object, got an array");
	free(t);
	CU_ASSERT_EQUAL(aieth__constraints_parse(NULL, "c.json", "{}", 2, NULL, NULL),
			AIETH_EINVAL);
}

/* ------------------------------------------------------ system.cfg */

static void test_system_cfg(void)
{
	size_t i;
	for (i = 0; i < sizeof facts / sizeof facts[0]; i++) {
		aieth_board *b = NULL;
		const aieth_board_info *in;
		char *text, *line, *save = NULL, nk[128];
		unsigned n_to = 0, n_from = 0, n_stream = 0, n_nk = 0, k;
		unsigned char seen[2][36];
		CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, facts[i].name, data_dir()), 0);
		in = aieth_board_get_info(b);
		CU_ASSERT_EQUAL_FATAL(aieth__read_file(in->system_cfg_path, 1u << 20, &text, NULL),
				      0);
		memset(seen, 0, sizeof seen);
		snprintf(nk, sizeof nk, "nk=%s:1:%s", in->pl_kernel, in->pl_kernel);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "[connectivity]\n"));
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char kern[64], plio[64], want[200];
			aieth_plio p;
			if (strcmp(line, nk) == 0)
				n_nk++;
			if (strncmp(line, "stream_connect=", 15) != 0)
				continue;
			n_stream++;
			snprintf(want, sizeof want, "stream_connect=%s.to_aie_strm", in->pl_kernel);
			if (strncmp(line, want, strlen(want)) == 0 &&
			    sscanf(line + strlen(want), "%u:ai_engine_0.%63s", &k, plio) == 2) {
				CU_ASSERT_EQUAL_FATAL(
					aieth_board_plio_at(b, AIETH_DIR_TO_AIE, k, &p), 0);
				CU_ASSERT_STRING_EQUAL(plio, p.name);
				CU_ASSERT_FALSE(seen[0][k]);
				seen[0][k] = 1;
				n_to++;
			} else if (
				sscanf(line,
				       "stream_connect=ai_engine_0.%63[^:]:%63[^.].from_aie_strm%u",
				       plio, kern, &k) == 3) {
				CU_ASSERT_STRING_EQUAL(kern, in->pl_kernel);
				CU_ASSERT_EQUAL_FATAL(
					aieth_board_plio_at(b, AIETH_DIR_FROM_AIE, k, &p), 0);
				CU_ASSERT_STRING_EQUAL(plio, p.name);
				CU_ASSERT_FALSE(seen[1][k]);
				seen[1][k] = 1;
				n_from++;
			} else {
				fprintf(stderr, "\n  unexpected line: %s\n", line);
				CU_FAIL("stream_connect line not understood");
			}
		}
		CU_ASSERT_EQUAL(n_nk, 1);
		CU_ASSERT_EQUAL(n_stream, 2 * in->channels);
		CU_ASSERT_EQUAL(n_to, in->channels);
		CU_ASSERT_EQUAL(n_from, in->channels);
		free(text);
		aieth_board_free(b);
	}
}

static void test_cleanup(void)
{
	aieth_board_free(vck190);
	aieth_board_free(vek280);
	vck190 = vek280 = NULL;
}

TU_MAIN("board", {"the three boards load with their facts", test_boards_load},
	{"load by path and explicit data dir", test_board_load_by_path},
	{"lookups name <-> index <-> shim", test_lookups},
	{"vck190 pairs and lookup errors", test_lookup_vck190_pairs},
	{"vek280 rejects PLIO_17", test_vek280_rejects_17},
	{"board text parses", test_board_parse_ok}, {"malformed board JSON", test_board_malformed},
	{"board schema errors", test_board_schema_errors},
	{"board range errors", test_board_range_errors},
	{"aie_columns is optional", test_board_optional_columns},
	{"missing or wrong constraints file", test_board_missing_constraints},
	{"board file lookup errors", test_board_file_errors},
	{"constraints accepted", test_constraints_ok},
	{"constraints: missing PLIOs", test_constraints_missing},
	{"constraints: duplicate shim placement", test_constraints_duplicate_shim},
	{"constraints: bad names", test_constraints_bad_names},
	{"constraints: channel and column ranges", test_constraints_ranges},
	{"constraints: schema", test_constraints_schema},
	{"system.cfg matches the constraints", test_system_cfg}, {"cleanup", test_cleanup})
