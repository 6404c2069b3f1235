/* SPDX-License-Identifier: MIT */
/*
 * test_spec.c - test descriptions (parser, defaults, errors with JSON paths)
 * and the report model (exit-code precedence, writers).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "runner/spec.h"
#include "tu.h"

#define MSG(s)                                                                             \
	do {                                                                               \
		if (!strstr(aieth_error_message(), (s)))                                   \
			printf("\nmessage: %s\nwanted: %s\n", aieth_error_message(), (s)); \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));                \
	} while (0)

static int parse(const char *text, aieth_spec **sp)
{
	return aieth_spec_parse(sp, "t.json", text, strlen(text), "/base");
}

#define HEAD "{\"schema\": \"aieth-test/1\", \"board\": \"vck190\", "

static void test_defaults(void)
{
	aieth_spec *sp = NULL;
	CU_ASSERT_EQUAL_FATAL(
		parse(HEAD
		      "\"graphs\": [{\"name\": \"g\"}], \"transactions\": [{\"mode\": \"func\", "
		      "\"channels\": [{\"plio\": \"PLIO_01_TO_AIE\", \"size\": 32, \"data\": "
		      "{\"file\": \"a.bin\"}}]}]}",
		      &sp),
		AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth_spec_name(sp), "t"); /* from the file name */
	CU_ASSERT_EQUAL(sp->graphs[0].iterations, AIETH_ITERATIONS_FOREVER);
	CU_ASSERT_PTR_NULL(sp->graphs[0].model);
	CU_ASSERT_EQUAL(sp->txns[0].mode, AIETH_MODE_FUNC);
	CU_ASSERT_FALSE(sp->txns[0].have_timeout);
	CU_ASSERT_EQUAL(sp->txns[0].ch[0].repetition, 1);
	CU_ASSERT_EQUAL(sp->txns[0].ch[0].delay, 0);
	CU_ASSERT_EQUAL(sp->txns[0].ch[0].data.kind, SRC_BINARY);
	CU_ASSERT_STRING_EQUAL(sp->txns[0].ch[0].data.path, "/base/a.bin");
	CU_ASSERT_STRING_EQUAL(sp->txns[0].ch[0].jpath, "transactions[0].channels[0]");
	aieth_spec_free(sp);
}

static void test_name_from_folder(void)
{
	aieth_spec *sp = NULL;
	const char *t = HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": "
			     "[{\"plio\": \"PLIO_01_TO_AIE\", \"size\": 16}]}]}";
	CU_ASSERT_EQUAL_FATAL(aieth_spec_parse(&sp, "ex/adder_perf/test.json", t, strlen(t), "."),
			      AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth_spec_name(sp), "adder_perf");
	aieth_spec_free(sp);
}

static void test_sources_and_tiling(void)
{
	aieth_spec *sp = NULL;
	spec_chan *c;
	CU_ASSERT_EQUAL_FATAL(
		parse(HEAD
		      "\"transactions\": [{\"mode\": \"perf\", \"timeout_ms\": 0, \"channels\": ["
		      "{\"plio\": \"PLIO_01_TO_AIE\", \"data\": {\"file\": \"m.txt\", \"type\": "
		      "\"int16\"}, \"tiling\": {\"buffer_dimension\": [8, 4], \"tiling_dimension\": "
		      "[4, 2], \"offset\": [-1, 0], \"tile_traversal\": [{\"dimension\": 1, "
		      "\"stride\": 2, \"wrap\": 2}], \"boundary_dimension\": [8, 3]}},"
		      "{\"plio\": \"PLIO_01_FROM_AIE\", \"size\": 64, \"golden\": {\"pattern\": "
		      "\"random\", \"seed\": 9, \"type\": \"cfloat\"}, \"tolerance\": {\"abs\": 0.5}, \"save\": {\"file\": "
		      "\"o.txt\", \"type\": \"cfloat\"}, \"min_throughput_MBps\": 12.5}]}]}",
		      &sp),
		AIETH_OK);
	CU_ASSERT_TRUE(sp->txns[0].have_timeout);
	CU_ASSERT_EQUAL(sp->txns[0].timeout_ms, 0);
	c = &sp->txns[0].ch[0];
	CU_ASSERT_EQUAL(c->data.kind, SRC_TEXT);
	CU_ASSERT_EQUAL(c->data.type, AIETH_ELEM_INT16);
	CU_ASSERT_TRUE(c->have_tiling);
	CU_ASSERT_EQUAL(c->tiling.ndims, 2);
	CU_ASSERT_EQUAL(c->tiling.offset[0], -1);
	CU_ASSERT_EQUAL(c->tiling.nloops, 1);
	CU_ASSERT_EQUAL(c->tiling.tile_traversal[0].dimension, 1);
	CU_ASSERT_EQUAL(c->tiling.boundary_dimension[1], 3);
	c = &sp->txns[0].ch[1];
	CU_ASSERT_EQUAL(c->golden.kind, SRC_PATTERN);
	CU_ASSERT_EQUAL(c->golden.pat.kind, AIETH_PAT_RANDOM);
	CU_ASSERT_EQUAL(c->golden.pat.seed, 9);
	CU_ASSERT_EQUAL(c->golden.pat.type, AIETH_ELEM_CFLOAT);
	CU_ASSERT_DOUBLE_EQUAL(c->abs_tol, 0.5, 0);
	CU_ASSERT_EQUAL(c->save.kind, SRC_TEXT);
	CU_ASSERT_STRING_EQUAL(c->save.path, "o.txt"); /* outputs resolve later, under --out */
	CU_ASSERT_DOUBLE_EQUAL(c->min_mbps, 12.5, 0);
	aieth_spec_free(sp);
}

/* Each bad description: the code and the JSON path with the rule. */
/* A save path: ".." only as a name of its own is refused, and only in a
 * relative path (an absolute one is the user's own). */
static void test_save_paths(void)
{
	static const char *const ok[] = {"..o.bin", "a../b..//c.bin", "./x/o.bin", "/abs/../o.bin"};
	char text[512];
	size_t i;
	for (i = 0; i < sizeof ok / sizeof *ok; i++) {
		aieth_spec *sp = NULL;
		snprintf(text, sizeof text,
			 HEAD "\"transactions\": [{\"mode\": \"func\", \"channels\": [{\"plio\": "
			      "\"P\", \"save\": {\"file\": \"%s\"}}]}]}",
			 ok[i]);
		CU_ASSERT_EQUAL(parse(text, &sp), AIETH_OK);
		if (sp)
			CU_ASSERT_STRING_EQUAL(sp->txns[0].ch[0].save.path, ok[i]);
		aieth_spec_free(sp);
	}
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} cases[] = {
		{"{\"schema\": \"aieth-test/1\"}", AIETH_EPARSE,
		 "transactions: missing (required)"},
		{"[1]", AIETH_EPARSE, "the top level must be an object"},
		{"{\"schema\": \"x\", \"transactions\": []}", AIETH_EINVAL,
		 "schema: \"x\" is not supported"},
		{HEAD "\"transactions\": []}", AIETH_EPARSE,
		 "transactions: expected a non-empty array"},
		{HEAD
		 "\"transactions\": [{\"mode\": \"fast\", \"channels\": [{\"plio\": \"p\"}]}]}",
		 AIETH_EINVAL, "transactions[0].mode: mode \"fast\" is unknown (perf, func)"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\"}]}", AIETH_EPARSE,
		 "transactions[0].channels: missing (required)"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"size\": -16}]}]}",
		 AIETH_EINVAL, "transactions[0].channels[0].size: value -16 is out of range"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"size\": \"64\"}]}]}",
		 AIETH_EPARSE, "transactions[0].channels[0].size: expected an integer"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"data\": {\"pattern\": \"ramp\"}}]}]}",
		 AIETH_EPARSE, "transactions[0].channels[0].data.type: missing"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"data\": {\"pattern\": \"sine\", \"type\": \"int8\"}}]}]}",
		 AIETH_EINVAL, "pattern \"sine\" is unknown (ramp, constant, random)"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"data\": {\"file\": \"a.txt\"}}]}]}",
		 AIETH_EPARSE, "text files need an element type"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"data\": {\"file\": \"a.bin\", \"format\": \"csv\"}}]}]}",
		 AIETH_EINVAL, "format \"csv\" is unknown (binary, text)"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"data\": {\"file\": \"a.bin\", \"type\": \"int12\"}}]}]}",
		 AIETH_EINVAL, "transactions[0].channels[0].data.type"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"tiling\": {\"buffer_dimension\": [4, 4], \"tiling_dimension\": [2]}}]}]}",
		 AIETH_EINVAL, "tiling.tiling_dimension: 1 entries, buffer_dimension has 2"},
		{HEAD "\"graphs\": [{\"name\": \"g\"}, {\"name\": \"g\"}], \"transactions\": "
		      "[{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\"}]}]}",
		 AIETH_EINVAL, "graphs[1].name: \"g\" is also graphs[0].name"},
		{HEAD "\"graphs\": [{\"name\": \"g\", \"iterations\": -2}], \"transactions\": "
		      "[{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\"}]}]}",
		 AIETH_EINVAL, "graphs[0].iterations: value -2 is out of range (-1.."},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\"}], "
		      "\"max_latency\": [{\"from\": \"A\", \"to\": \"B\"}]}]}",
		 AIETH_EPARSE, "transactions[0].max_latency[0].max_cycles: missing"},
		{HEAD "\"transactions\": [{\"mode\": \"perf\", \"channels\": [{\"plio\": \"P\", "
		      "\"tolerance\": {\"abs\": -1}}]}]}",
		 AIETH_EINVAL, "tolerance.abs: value -1 is out of range"},
		{HEAD
		 "\"board\": \"vek280\", \"transactions\": [{\"mode\": \"perf\", \"channels\": "
		 "[{\"plio\": \"P\"}]}]}",
		 AIETH_EPARSE, "duplicate"},
		{HEAD "\"transactions\": [{\"mode\": \"func\", \"channels\": [{\"plio\": \"P\", "
		      "\"save\": {\"file\": \"../o.bin\"}}]}]}",
		 AIETH_EINVAL,
		 "transactions[0].channels[0].save.file: \"../o.bin\": a relative save path "
		 "stays below the output folder (--out), \"..\" may not appear in it"},
		{HEAD "\"transactions\": [{\"mode\": \"func\", \"channels\": [{\"plio\": \"P\", "
		      "\"save\": {\"file\": \"a/../../o.bin\"}}]}]}",
		 AIETH_EINVAL, "\"a/../../o.bin\": a relative save path stays below"},
		{HEAD "\"transactions\": [{\"mode\": \"func\", \"channels\": [{\"plio\": \"P\", "
		      "\"save\": {\"file\": \"a/..\"}}]}]}",
		 AIETH_EINVAL, "\"a/..\": a relative save path stays below"},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		aieth_spec *sp = (aieth_spec *)1;
		int rc = parse(cases[i].text, &sp);
		if (rc != cases[i].code)
			printf("\ncase %zu: rc %d (%s)\n", i, rc, aieth_error_message());
		CU_ASSERT_EQUAL(rc, cases[i].code);
		CU_ASSERT_PTR_NULL(sp);
		MSG("t.json");
		MSG(cases[i].msg);
	}
}

static void test_exit_precedence(void)
{
	aieth_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "t", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_INFRA); /* not finished yet */
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_INPUT); /* no test at all */
	aieth_report_free(r);

	aieth_report_new(&r, "t", 0, NULL);
	aieth_report_add_error(r, "a", "load", AIETH_EINVAL, "m", NULL, AIETH_EXIT_SKIP);
	aieth_report_finish(r);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_SKIP); /* all skipped */
	aieth_report_free(r);

	aieth_report_new(&r, "t", 0, NULL);
	aieth_report_add_error(r, "a", "load", AIETH_EINVAL, "m", NULL, AIETH_EXIT_SKIP);
	aieth_report_add_error(r, "b", "load", AIETH_OK, "m", NULL, AIETH_EXIT_PASS);
	aieth_report_finish(r);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_PASS); /* skip among passes */
	aieth_report_free(r);

	{
		static const int order[][3] = {
			{AIETH_EXIT_FAIL, AIETH_EXIT_INPUT, AIETH_EXIT_INPUT},
			{AIETH_EXIT_INPUT, AIETH_EXIT_INFRA, AIETH_EXIT_INFRA},
			{AIETH_EXIT_INFRA, AIETH_EXIT_TIMEOUT, AIETH_EXIT_TIMEOUT},
			{AIETH_EXIT_SKIP, AIETH_EXIT_FAIL, AIETH_EXIT_FAIL},
			{AIETH_EXIT_TIMEOUT, AIETH_EXIT_PASS, AIETH_EXIT_TIMEOUT},
		};
		size_t i;
		for (i = 0; i < sizeof order / sizeof *order; i++) {
			aieth_report_new(&r, "t", 0, NULL);
			aieth_report_add_error(r, "a", "run", AIETH_EINVAL, "m", NULL, order[i][0]);
			aieth_report_add_error(r, "b", "run", AIETH_EINVAL, "m", NULL, order[i][1]);
			aieth_report_finish(r);
			CU_ASSERT_EQUAL(aieth_report_exit_code(r), order[i][2]);
			aieth_report_free(r);
		}
	}
}

static void test_writers_escape(void)
{
	aieth_report *r = NULL;
	char path[] = "/tmp/aieth-junit-XXXXXX";
	char *text = NULL, *m;
	size_t len;
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	aieth_report_new(&r, "t", 0, NULL);
	aieth_report_add_error(r, "a<b>&\"c\"", "load", AIETH_EPARSE, "bad <x> & \x01 'y'", "h",
			       AIETH_EXIT_INPUT);
	aieth_report_finish(r);
	CU_ASSERT_EQUAL(aieth_report_write_junit(r, path), AIETH_OK);
	text = NULL;
	{
		FILE *f = fopen(path, "rb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		text = calloc(1, 65536);
		len = fread(text, 1, 65535, f);
		fclose(f);
		(void)len;
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "name=\"a&lt;b&gt;&amp;&quot;c&quot;\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "bad &lt;x&gt; &amp; ? &apos;y&apos;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "errors=\"1\""));
	free(text);
	m = aieth_report_markers(r);
	/* < and > become _ in markers: no LAVA signal can start in one */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "RUN_TEST CASE name=a_b_&\"c\" result=error"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "status=error exit=2"));
	free(m);
	unlink(path);
	aieth_report_free(r);
}

/* A description with names of n copies of unit (key: "name" of the test,
 * "graph" or "txn"); the caller frees it. */
static char *with_name(const char *key, const char *unit, size_t n)
{
	size_t u = strlen(unit), len = 512 + n * u, i;
	char *name = malloc(n * u + 1), *t = malloc(len);
	if (!name || !t)
		abort();
	for (i = 0; i < n; i++)
		memcpy(name + i * u, unit, u);
	name[n * u] = '\0';
	snprintf(t, len,
		 HEAD "\"name\": \"%s\", \"graphs\": [{\"name\": \"%s\"}], \"transactions\": "
		      "[{\"name\": \"%s\", \"mode\": \"func\", \"channels\": [{\"plio\": "
		      "\"PLIO_01_TO_AIE\", \"size\": 32}]}]}",
		 !strcmp(key, "name") ? name : "t", !strcmp(key, "graph") ? name : "g",
		 !strcmp(key, "txn") ? name : "x");
	free(name);
	return t;
}

/* Names: at most SPEC_NAME_MAX (256) characters, counted as code points
 * (as JSON Schema's maxLength); longer is an input error naming the file,
 * the field, the length and the limit (a 100000-byte name
 * passed the run, then failed writing trace.json). */
static void test_name_limits(void)
{
	static const char *const keys[] = {"name", "graph", "txn"};
	static const char *const fields[] = {
		"t.json: name: ", "t.json: graphs[0].name: ", "t.json: transactions[0].name: "};
	aieth_spec *sp = NULL;
	size_t k;
	char *t;
	for (k = 0; k < 3; k++) {
		t = with_name(keys[k], "a", 256);
		CU_ASSERT_EQUAL(parse(t, &sp), AIETH_OK);
		aieth_spec_free(sp);
		sp = NULL;
		free(t);
		t = with_name(keys[k], "\xc3\xa9", 256); /* 512 bytes, 256 characters */
		CU_ASSERT_EQUAL(parse(t, &sp), AIETH_OK);
		aieth_spec_free(sp);
		sp = NULL;
		free(t);
		t = with_name(keys[k], "\xf0\x9f\x98\x80", 256); /* 1024 bytes */
		CU_ASSERT_EQUAL(parse(t, &sp), AIETH_OK);
		aieth_spec_free(sp);
		sp = NULL;
		free(t);
		t = with_name(keys[k], "a", 257);
		CU_ASSERT_EQUAL(parse(t, &sp), AIETH_EINVAL);
		CU_ASSERT_PTR_NULL(sp);
		MSG(fields[k]);
		MSG("257 characters (257 bytes), the limit is 256 characters");
		free(t);
		t = with_name(keys[k], "\xc3\xa9", 257);
		CU_ASSERT_EQUAL(parse(t, &sp), AIETH_EINVAL);
		MSG("257 characters (514 bytes), the limit is 256 characters");
		free(t);
	}
	t = with_name("name", "n", 100000);
	CU_ASSERT_EQUAL(parse(t, &sp), AIETH_EINVAL);
	MSG("t.json: name: 100000 characters (100000 bytes), the limit is 256 characters");
	free(t);
}

/* "repeat": defaults, values, limits (each error names file, field, value
 * and limit) */
static void test_repeat(void)
{
#define TXN                                                                  \
	"\"transactions\": [{\"mode\": \"func\", \"channels\": [{\"plio\": " \
	"\"PLIO_01_TO_AIE\", \"size\": 32}]}]"
	static const struct {
		const char *repeat;
		int code;
		const char *msg;
	} bad[] = {
		{"[5]", AIETH_EPARSE, "t.json: repeat: expected an object"},
		{"{}", AIETH_EPARSE, "t.json: repeat.runs: missing (required)"},
		{"{\"runs\": 0}", AIETH_EINVAL,
		 "t.json: repeat.runs: value 0 is out of range (1..100000)"},
		{"{\"runs\": 100001}", AIETH_EINVAL,
		 "t.json: repeat.runs: value 100001 is out of range (1..100000)"},
		{"{\"runs\": 18446744073709551615}", AIETH_EINVAL,
		 "repeat.runs: value 18446744073709551615 is out of range (1..100000)"},
		{"{\"runs\": 2.5}", AIETH_EPARSE, "t.json: repeat.runs: expected an integer"},
		{"{\"runs\": 5, \"warmup\": -1}", AIETH_EINVAL,
		 "t.json: repeat.warmup: value -1 is out of range (0..99999)"},
		{"{\"runs\": 60000, \"warmup\": 40001}", AIETH_EINVAL,
		 "t.json: repeat.warmup: value 40001 with 60000 runs is 100001 runs in all, more "
		 "than the limit of 100000"},
		{"{\"runs\": 5, \"statistic\": \"p99\"}", AIETH_EINVAL,
		 "t.json: repeat.statistic: \"p99\" is not one of median, min, max, mean"},
		{"{\"runs\": 5, \"statistic\": 3}", AIETH_EPARSE, "repeat.statistic"},
		{"{\"runs\": 5, \"times\": 3}", AIETH_EPARSE, "repeat"},
	};
	char text[600];
	aieth_spec *sp = NULL;
	size_t i;
	CU_ASSERT_EQUAL_FATAL(parse(HEAD TXN "}", &sp), AIETH_OK);
	CU_ASSERT_FALSE(sp->repeat.have);
	CU_ASSERT_EQUAL(sp->repeat.runs, 1);
	CU_ASSERT_EQUAL(sp->repeat.warmup, 0);
	CU_ASSERT_EQUAL(sp->repeat.statistic, AIETH__STAT_MEDIAN);
	aieth_spec_free(sp);
	CU_ASSERT_EQUAL_FATAL(parse(HEAD TXN ", \"repeat\": {\"runs\": 10, \"warmup\": 2, "
					     "\"statistic\": \"min\"}}",
				    &sp),
			      AIETH_OK);
	CU_ASSERT_TRUE(sp->repeat.have);
	CU_ASSERT_EQUAL(sp->repeat.runs, 10);
	CU_ASSERT_EQUAL(sp->repeat.warmup, 2);
	CU_ASSERT_EQUAL(sp->repeat.statistic, AIETH__STAT_MIN);
	aieth_spec_free(sp);
	CU_ASSERT_EQUAL_FATAL(
		parse(HEAD TXN ", \"repeat\": {\"runs\": 99999, \"warmup\": 1}}", &sp),
		AIETH_OK); /* the limit itself */
	CU_ASSERT_EQUAL(sp->repeat.statistic, AIETH__STAT_MEDIAN);
	aieth_spec_free(sp);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(text, sizeof text, HEAD TXN ", \"repeat\": %s}", bad[i].repeat);
		sp = NULL;
		CU_ASSERT_EQUAL(parse(text, &sp), bad[i].code);
		CU_ASSERT_PTR_NULL(sp);
		MSG(bad[i].msg);
	}
#undef TXN
}

TU_MAIN("spec and report", {"defaults", test_defaults},
	{"repeat: runs, warm-up, statistic and their limits", test_repeat},
	{"name from the folder of test.json", test_name_from_folder},
	{"sources and tiling", test_sources_and_tiling},
	{"errors name file, JSON path and rule", test_errors},
	{"save paths: \"..\" refused when relative", test_save_paths},
	{"exit-code precedence", test_exit_precedence}, {"writers escape", test_writers_escape},
	{"names have a limit", test_name_limits})
