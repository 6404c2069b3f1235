/* SPDX-License-Identifier: MIT */
/* test_xclbin_meta.c - aie_control_config.json (AIE_METADATA) reading and
 * the PLIO checks against the boards. */
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "tu.h"
#include "util/error.h"

static aieth_board *load(const char *name)
{
	aieth_board *b = NULL;
	if (aieth_board_load(&b, name, tu_src("")))
		fprintf(stderr, "%s\n", aieth_error_message());
	return b;
}

static aieth_aie_meta *parse(const char *text)
{
	aieth_aie_meta *m = NULL;
	if (aieth_aie_meta_parse(&m, "t.json", text, strlen(text)))
		fprintf(stderr, "\n  parse: %s\n", aieth_error_message());
	return m;
}

static void parse_fails(const char *text, const char *want)
{
	aieth_aie_meta *m = NULL;
	CU_ASSERT_NOT_EQUAL(aieth_aie_meta_parse(&m, "t.json", text, strlen(text)), 0);
	CU_ASSERT_PTR_NULL(m);
	if (!strstr(aieth_error_message(), want))
		fprintf(stderr, "\n  message: %s\n  expected: %s\n", aieth_error_message(), want);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), want));
}

static void test_parse_forms(void)
{
	aieth_aie_meta *m;
	aieth_aie_graph g;
	aieth_aie_plio p;
	/* objects of children, numbers as JSON numbers */
	m = parse(
		"{\"aie_metadata\": {\"driver_config\": {\"hw_gen\": 1}, \"graphs\": {\"graph0\": "
		"{\"id\": 0, \"name\": \"gr\"}, \"graph1\": {\"id\": 1, \"name\": \"gr2\"}}, "
		"\"PLIOs\": {\"p0\": {\"id\": 0, \"name\": \"gr.in\", \"logical_name\": "
		"\"PLIO_01_TO_AIE\", \"shim_column\": 6, \"stream_id\": 0, \"slaveOrMaster\": 0}, "
		"\"p1\": {\"id\": 1, \"name\": \"gr2.out\", \"logical_name\": \"PLIO_01_FROM_AIE\", "
		"\"shim_column\": 6, \"stream_id\": 0, \"slaveOrMaster\": true, \"width_bits\": 128}, "
		"\"p2\": {\"id\": 2, \"name\": \"top.x\", \"logical_name\": \"PLIO_02_TO_AIE\", "
		"\"shim_column\": 6, \"stream_id\": 4, \"slaveOrMaster\": false}}}}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(aieth_aie_meta_hw_gen(m), 1);
	CU_ASSERT_EQUAL(aieth_aie_meta_num_graphs(m), 2);
	CU_ASSERT_EQUAL(aieth_aie_meta_graph(m, 1, &g), 0);
	CU_ASSERT_STRING_EQUAL(g.name, "gr2");
	CU_ASSERT_EQUAL(aieth_aie_meta_num_plios(m), 3);
	aieth_aie_meta_plio(m, 0, &p);
	CU_ASSERT_EQUAL(p.dir, AIETH_DIR_TO_AIE);
	CU_ASSERT_EQUAL(p.graph, 0);
	CU_ASSERT_EQUAL(p.width_bits, 0);
	aieth_aie_meta_plio(m, 1, &p);
	CU_ASSERT_EQUAL(p.dir, AIETH_DIR_FROM_AIE);
	CU_ASSERT_EQUAL(p.graph, 1); /* "gr2.out" belongs to gr2, not gr */
	CU_ASSERT_EQUAL(p.width_bits, 128);
	aieth_aie_meta_plio(m, 2, &p);
	CU_ASSERT_EQUAL(p.graph, -1);
	CU_ASSERT_EQUAL(p.stream_id, 4);
	CU_ASSERT_EQUAL(aieth_aie_meta_plio(m, 3, &p), AIETH_EINVAL);
	aieth_aie_meta_free(m);
	/* arrays, numbers as strings (boost writes them so), "" for empty */
	m = parse("{\"aie_metadata\": {\"graphs\": [{\"id\": \"3\", \"name\": \"g\"}], \"PLIOs\": "
		  "[{\"id\": \"0\", \"name\": \"g.o\", \"logical_name\": \"PLIO_05_FROM_AIE\", "
		  "\"shim_column\": \"8\", \"stream_id\": \"4\", \"slaveOrMaster\": \"1\"}], "
		  "\"RTPs\": \"\"}}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	aieth_aie_meta_graph(m, 0, &g);
	CU_ASSERT_EQUAL(g.id, 3);
	aieth_aie_meta_plio(m, 0, &p);
	CU_ASSERT_EQUAL(p.shim_column, 8);
	CU_ASSERT_EQUAL(p.dir, AIETH_DIR_FROM_AIE);
	aieth_aie_meta_free(m);
	m = parse("{\"aie_metadata\": {\"graphs\": {\"g\": {\"id\": 0, \"name\": \"g\"}}, "
		  "\"PLIOs\": \"\"}}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(aieth_aie_meta_num_plios(m), 0);
	aieth_aie_meta_free(m);
}

static void test_parse_errors(void)
{
	parse_fails("", "t.json");
	parse_fails("[]", "t.json: expected a JSON object with key \"aie_metadata\"");
	parse_fails("{\"x\": 1}", "required key \"aie_metadata\" is missing");
	parse_fails("{\"aie_metadata\": {}}", "aie_metadata: required key \"graphs\" is missing");
	parse_fails("{\"aie_metadata\": {\"graphs\": 3}}",
		    "aie_metadata.graphs: expected an object or an array, found an integer");
	parse_fails("{\"aie_metadata\": {\"graphs\": {\"g\": {\"id\": 0}}}}",
		    "aie_metadata.graphs.g: required key \"name\" is missing");
	parse_fails("{\"aie_metadata\": {\"graphs\": {\"g\": {\"id\": -1, \"name\": \"g\"}}}}",
		    "aie_metadata.graphs.g.id: expected 0..4294967295, found -1");
	parse_fails("{\"aie_metadata\": {\"graphs\": [{\"id\": \"x1\", \"name\": \"g\"}]}}",
		    "aie_metadata.graphs[0].id: expected an integer 0..4294967295, found \"x1\"");
	parse_fails("{\"aie_metadata\": {\"graphs\": [{\"id\": 0, \"name\": \"g\"}, {\"id\": 1, "
		    "\"name\": \"g\"}]}}",
		    "graph \"g\" appears twice");
	parse_fails("{\"aie_metadata\": {\"graphs\": [{\"id\": 0, \"name\": \"g\"}], \"PLIOs\": "
		    "[{\"id\": 0, \"name\": \"g.i\", \"logical_name\": \"PLIO_01_TO_AIE\", "
		    "\"shim_column\": 6, \"stream_id\": 0, \"slaveOrMaster\": 2}]}}",
		    "aie_metadata.PLIOs[0].slaveOrMaster: expected 0/false");
	parse_fails("{\"aie_metadata\": {\"graphs\": [{\"id\": 0, \"name\": \"g\"}], \"PLIOs\": "
		    "[{\"id\": 0, \"name\": \"g.i\", \"logical_name\": 5, \"shim_column\": 6, "
		    "\"stream_id\": 0, \"slaveOrMaster\": 0}]}}",
		    "aie_metadata.PLIOs[0].logical_name: expected a string, found an integer");
	parse_fails("{\"aie_metadata\": {\"graphs\": [{\"id\": 0, \"name\": \"g\"}], \"PLIOs\": "
		    "[{\"id\": 0, \"name\": \"g.i\", \"logical_name\": \"P\", \"shim_column\": 6, "
		    "\"slaveOrMaster\": 0}]}}",
		    "aie_metadata.PLIOs[0]: required key \"stream_id\" is missing");
	parse_fails("{\"aie_metadata\": {\"graphs\": {\"a\": {\"id\": 0, \"name\": \"g\"}, "
		    "\"a\": {\"id\": 1, \"name\": \"h\"}}}}",
		    "duplicate key");
}

/* ------------------------------------------------------- the checks */

typedef struct {
	char lines[16][512];
	size_t n;
} lines;

static void collect(void *ctx, const char *line)
{
	lines *l = ctx;
	if (l->n < 16)
		snprintf(l->lines[l->n++], sizeof l->lines[0], "%s", line);
}

static int has_line(const lines *l, const char *want)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		if (strstr(l->lines[i], want))
			return 1;
	fprintf(stderr, "\n  no problem line with: %s\n", want);
	for (i = 0; i < l->n; i++)
		fprintf(stderr, "  | %s\n", l->lines[i]);
	return 0;
}

/* One graph with the given PLIO entries (JSON object members). */
static size_t check(const aieth_board *b, const char *hw_gen, const char *plios, lines *l)
{
	char text[4096];
	aieth_aie_meta *m;
	size_t n;
	snprintf(text, sizeof text,
		 "{\"aie_metadata\": {\"driver_config\": {\"hw_gen\": %s}, \"graphs\": {\"g0\": "
		 "{\"id\": 0, \"name\": \"g\"}}, \"PLIOs\": {%s}}}",
		 hw_gen, plios);
	m = parse(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memset(l, 0, sizeof *l);
	n = aieth_aie_meta_check(m, b, collect, l);
	aieth_aie_meta_free(m);
	return n;
}

#define PLIO(id, name, col, ch, som, extra)                                                     \
	"\"p" #id "\": {\"id\": " #id ", \"name\": \"g.p" #id "\", \"logical_name\": \"" name   \
	"\", \"shim_column\": " #col ", \"stream_id\": " #ch ", \"slaveOrMaster\": " #som extra \
	"}"

static void test_check_vck190(void)
{
	aieth_board *b = load("vck190");
	lines l;
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* the placement of cfg/vck190_aie_constraints.json: pairs on columns 6.. ch 0 / 4 */
	CU_ASSERT_EQUAL(check(b, "1",
			      PLIO(0, "PLIO_01_TO_AIE", 6, 0, 0, ", \"width_bits\": 128") "," PLIO(
				      1, "PLIO_02_FROM_AIE", 6, 4, 1,
				      "") "," PLIO(2, "PLIO_36_TO_AIE", 23, 4, 0, ""),
			      &l),
			0);
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "DataIn1", 6, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l, "PLIO g.p0: name: expected a predefined name PLIO_NN_TO_AIE or "
			       "PLIO_NN_FROM_AIE (NN = 01..36), found \"DataIn1\""));
	CU_ASSERT_EQUAL(
		check(b, "1", PLIO(0, "PLIO_01_TO_AIE", 6, 0, 0, ", \"width_bits\": 64"), &l), 1);
	CU_ASSERT(has_line(&l,
			   "PLIO PLIO_01_TO_AIE (g.p0): width: expected 128 bits, found 64 bits"));
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "PLIO_03_TO_AIE", 8, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l, "PLIO PLIO_03_TO_AIE (g.p0): shim column: expected 7 (the XSA's "
			       "placement), found 8"));
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "PLIO_04_FROM_AIE", 7, 0, 1, ""), &l), 1);
	CU_ASSERT(has_line(&l, "PLIO PLIO_04_FROM_AIE (g.p0): shim channel (stream_id): expected 4 "
			       "(the XSA's placement), found 0"));
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "PLIO_01_TO_AIE", 6, 0, 1, ""), &l), 1);
	CU_ASSERT(has_line(&l,
			   "direction: expected slave (PL to AIE, slaveOrMaster 0), found master"));
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "PLIO_37_TO_AIE", 6, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l,
			   "PLIO PLIO_37_TO_AIE (g.p0): channel: expected PLIO_01..PLIO_36 (board "
			   "vck190 has 36 channels per direction), found PLIO_37"));
	CU_ASSERT_EQUAL(check(b, "1",
			      PLIO(0, "PLIO_01_TO_AIE", 6, 0, 0, "") "," PLIO(1, "PLIO_01_TO_AIE",
									      6, 0, 0, ""),
			      &l),
			1);
	CU_ASSERT(has_line(&l,
			   "PLIO PLIO_01_TO_AIE: users: expected one graph port, found two (g.p0 "
			   "and g.p1)"));
	CU_ASSERT_EQUAL(check(b, "2", PLIO(0, "PLIO_01_TO_AIE", 6, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l, "driver_config.hw_gen: expected 1 (AIE, board vck190), found 2"));
	/* several problems in one PLIO: every one reported */
	CU_ASSERT_EQUAL(
		check(b, "1", PLIO(0, "PLIO_02_TO_AIE", 9, 1, 0, ", \"width_bits\": 32"), &l), 3);
	aieth_board_free(b);
}

static void test_check_vek280(void)
{
	aieth_board *b = load("vek280");
	char many[8192];
	size_t n = 0, i;
	lines l;
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* VEK280: PLIO_n on column 11+n, channel 0 */
	CU_ASSERT_EQUAL(check(b, "2", PLIO(0, "PLIO_16_FROM_AIE", 27, 0, 1, ""), &l), 0);
	CU_ASSERT_EQUAL(check(b, "2", PLIO(0, "PLIO_17_TO_AIE", 28, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l, "expected PLIO_01..PLIO_16 (board vek280 has 16 channels per "
			       "direction), found PLIO_17"));
	CU_ASSERT_EQUAL(check(b, "1", PLIO(0, "PLIO_01_TO_AIE", 12, 0, 0, ""), &l), 1);
	CU_ASSERT(has_line(&l, "hw_gen: expected 2 (AIE-ML, board vek280), found 1"));
	/* 17 TO_AIE PLIOs: the extra one and the count are both reported */
	for (i = 1; i <= 17; i++)
		n += (size_t)snprintf(
			many + n, sizeof many - n,
			"%s\"p%zu\": {\"id\": %zu, \"name\": \"g.i%zu\", \"logical_name\": "
			"\"PLIO_%02zu_TO_AIE\", \"shim_column\": %zu, \"stream_id\": 0, "
			"\"slaveOrMaster\": 0}",
			i > 1 ? "," : "", i, i, i, i, 11 + i);
	CU_ASSERT_EQUAL(check(b, "2", many, &l), 2);
	CU_ASSERT(
		has_line(&l, "PLIOs TO_AIE: count: expected at most 16 (board vek280), found 17"));
	aieth_board_free(b);
}

TU_MAIN("xclbin_meta", {"parse forms", test_parse_forms}, {"parse errors", test_parse_errors},
	{"check vck190", test_check_vck190}, {"check vek280", test_check_vek280})
