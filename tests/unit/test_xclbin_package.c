/* SPDX-License-Identifier: MIT */
/* test_xclbin_package.c - aieth__package on synthetic XSAs and graphs
 * (tests/data/package): every input form, determinism, bad inputs with
 * their messages, bootgen failures, and that nothing partial is left. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/th_package.h"
#include "th_package/bootgen_arch.h"
#include "th_package/libadf.h"
#include "th_package/pdi.h"
#include "th_package/xsa.h"
#include "th_package/xsa_device.h"
#include "pkg_fixtures.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"

static char dir[64]; /* fixtures (one per board, all removed at the end) */
static char made[16][64];
static int nmade;
static char scratch[64]; /* TMPDIR of the packager: must end up empty */
static aieth_board *board;

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

static const char *fx(const char *name)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static size_t count_entries(const char *d)
{
	DIR *h = opendir(d);
	struct dirent *e;
	size_t n = 0;
	if (!h)
		return 0;
	while ((e = readdir(h)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(h);
	return n;
}

static size_t problems_seen;
static void count_problem(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
	problems_seen++;
}

static void opts_init(aieth__package_opts *o, const char *xsa, const char *graph, const char *out)
{
	aieth__package_opts_init(o, AIETH_PACKAGE_OPTS_VERSION);
	o->board = board;
	o->xsa = fx(xsa);
	o->graph = graph ? fx(graph) : NULL;
	o->output = out;
	o->tmp_dir = scratch;
	o->timestamp = 1700000000;
	o->id_code = o->ext_id_code = -1;
	o->report = count_problem;
	o->data_dir = tu_src("");
	/* a Gen 2 board's PDIs need a bootgen that lists its architecture */
	if (strcmp(aieth_board_get_info(board)->bootgen_arch, "versal"))
		o->bootgen = tu_src(PF_FAKE_BOOTGEN_GEN2);
}

static int setup_board(const char *name)
{
	aieth_board_free(board);
	board = NULL;
	if (aieth_board_load(&board, name, tu_src(""))) {
		fprintf(stderr, "%s\n", aieth_error_message());
		return -1;
	}
	snprintf(dir, sizeof dir, "/tmp/aieth-pkg-%s-XXXXXX", name);
	if (!mkdtemp(dir))
		return -1;
	if (nmade < 16)
		snprintf(made[nmade++], sizeof made[0], "%s", dir);
	return pf_write_standard(dir, name, tu_src("")) ? -1 : 0;
}

static char *slurp(const char *p, size_t *n)
{
	char *t = NULL;
	if (aieth__read_file(p, 1u << 28, &t, n))
		fprintf(stderr, "%s\n", aieth_error_message());
	return t;
}

/* the whole packaged file is valid and its metadata is the graph's */
static void verify(const char *out, const char *control_json, size_t nsections)
{
	aieth_xclbin *x;
	aieth_xclbin_section s;
	size_t i, n;
	void *data;
	char *want;
	uint32_t id, ext;
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, out, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_xclbin_check(x, board, NULL, NULL), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_num_sections(x), nsections);
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_get_header(x)->vbnv,
			       aieth_board_get_info(board)->base_platform);
	CU_ASSERT_EQUAL(aieth_xclbin_get_header(x)->timestamp, 1700000000u);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_AIE_METADATA, &i), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_read(x, i, 1u << 20, &data, &n), 0);
	want = slurp(control_json, NULL);
	CU_ASSERT(want && n == strlen(want) && memcmp(data, want, n) == 0); /* verbatim */
	free(want);
	free(data);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_PDI, &i), 0);
	aieth_xclbin_section_at(x, i, &s);
	CU_ASSERT_EQUAL(aieth_xclbin_section_read(x, i, 1u << 24, &data, &n), 0);
	CU_ASSERT_EQUAL(aieth__pdi_idcode(data, n, &id, &ext), 0);
	CU_ASSERT_EQUAL(id, pf_board_id_code(aieth_board_get_info(board)));
	CU_ASSERT_EQUAL(ext, 1);
	free(data);
	aieth_xclbin_close(x);
}

static void package_forms_on(const char *name)
{
	aieth__package_opts o;
	aieth__package_result r;
	char out[300], out2[300], pdi[300];
	size_t i;
	void *a, *b;
	size_t na, nb;
	aieth_xclbin *x;

	CU_ASSERT_EQUAL_FATAL(setup_board(name), 0);
	snprintf(out, sizeof out, "%s/out.xclbin", dir);
	snprintf(out2, sizeof out2, "%s/out2.xclbin", dir);
	snprintf(pdi, sizeof pdi, "%s/prebuilt.pdi", dir);

	opts_init(&o, "harness.xsa", "libadf.a", out);
	CU_ASSERT_EQUAL_FATAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.num_graphs, 1);
	CU_ASSERT_EQUAL(r.num_plios, 8);
	CU_ASSERT_EQUAL(r.num_cdos, 5);
	CU_ASSERT_EQUAL(r.problems, 0);
	CU_ASSERT_STRING_EQUAL(r.vbnv_source, "board file base_platform");
	CU_ASSERT_EQUAL(r.id_code, pf_board_id_code(aieth_board_get_info(board)));
	verify(out, fx("aie_control_config.json"), 2);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);

	/* the same inputs give the same bytes */
	opts_init(&o, "harness.xsa", "libadf.a", out2);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	a = slurp(out, &na);
	b = slurp(out2, &nb);
	CU_ASSERT(a && b && na == nb && memcmp(a, b, na) == 0);
	free(b);
	/* the Work/ directory gives the same file as the archive */
	opts_init(&o, "harness.xsa", "Work", out2);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	b = slurp(out2, &nb);
	CU_ASSERT(b && na == nb && memcmp(a, b, na) == 0);
	free(b);
	/* deferred AIE start: the enable CDO is left out, so the PDI is the same */
	opts_init(&o, "harness.xsa", "enable.a", out2);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.num_cdos, 5);
	b = slurp(out2, &nb);
	CU_ASSERT(b && na == nb && memcmp(a, b, na) == 0);
	free(b);
	/* another timestamp: other bytes, same UUID */
	opts_init(&o, "harness.xsa", "libadf.a", out2);
	o.timestamp = 1800000000;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	b = slurp(out2, &nb);
	CU_ASSERT(b && na == nb && memcmp(a, b, na) != 0);
	CU_ASSERT(b && memcmp((char *)a + 416, (char *)b + 416, 16) == 0);
	free(b);
	free(a);

	/* ELF sw.o with the enable CDO and a trace config: 3 sections */
	opts_init(&o, "harness.xsa", "libadf_elf.a", out2);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.num_cdos, 5);
	verify(out2, fx("aie_control_config.json"), 3);

	/* explicit UUID, VBNV from the XSA */
	{
		static const uint8_t u[16] = {1, 2,  3,  4,  5,  6,  7,  8,
					      9, 10, 11, 12, 13, 14, 15, 16};
		opts_init(&o, "vbnv.xsa", "libadf.a", out2);
		o.uuid = u;
		CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
		CU_ASSERT_STRING_EQUAL(r.uuid_string, "01020304-0506-0708-090a-0b0c0d0e0f10");
		CU_ASSERT_STRING_EQUAL(r.vbnv, "xilinx_custom_platform_1_0");
		CU_ASSERT_STRING_EQUAL(r.vbnv_source, "XSA xsa.json");
		CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, out2, 0), 0);
		CU_ASSERT_STRING_EQUAL(aieth_xclbin_uuid_string(x), r.uuid_string);
		aieth_xclbin_close(x);
	}

	/* a prebuilt PDI and an explicit aie_control_config.json, no graph */
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, out, 0), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_PDI, &i), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_dump(x, i, pdi), 0);
	aieth_xclbin_close(x);
	opts_init(&o, "harness.xsa", NULL, out2);
	o.pdi = pdi;
	o.aie_metadata = fx("aie_control_config.json");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.bootgen_seconds, 0.0);
	verify(out2, fx("aie_control_config.json"), 2);
	/* a prebuilt PDI for another device: refused */
	opts_init(&o, "harness.xsa", "libadf.a", out2);
	o.pdi = pdi;
	o.id_code = 0x12345678;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	{
		char want[100];
		snprintf(want, sizeof want,
			 "IDCODE: expected 0x12345678/0x01 (--id-code), found "
			 "0x%08x/0x01",
			 (unsigned)pf_board_id_code(aieth_board_get_info(board)));
		MSG_HAS(want);
	}
	opts_init(&o, "harness.xsa", "libadf.a", out2);
	o.pdi = fx("aie_control_config.json");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EPARSE);
	MSG_HAS("not a PDI");
	/* no device image in the XSA: --id-code is then needed */
	opts_init(&o, "no_pdi.xsa", "libadf.a", out2);
	o.id_code = pf_board_id_code(aieth_board_get_info(board));
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
}

static void test_package_vck190(void) { package_forms_on("vck190"); }
static void test_package_vek280(void) { package_forms_on("vek280"); }
static void test_package_vek385(void) { package_forms_on("vek385"); }

/* A failure: the code, the message, and the output left as it was. */
static void expect_fail(const char *xsa, const char *graph, int code, const char *want,
			size_t problems)
{
	aieth__package_opts o;
	aieth__package_result r;
	char out[300], *before, *after;
	size_t nb, na;
	snprintf(out, sizeof out, "%s/keep.xclbin", dir);
	before = slurp(out, &nb);
	opts_init(&o, xsa, graph, out);
	problems_seen = 0;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), code);
	MSG_HAS(want);
	CU_ASSERT_EQUAL(r.problems, problems);
	CU_ASSERT_EQUAL(problems_seen, problems);
	after = slurp(out, &na);
	CU_ASSERT(before && after && na == nb && memcmp(before, after, na) == 0);
	free(before);
	free(after);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
}

static void test_bad_inputs(void)
{
	FILE *f;
	size_t before;
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	f = fopen(fx("keep.xclbin"), "w");
	fputs("the previous output, never touched by a failed run\n", f);
	fclose(f);
	before = count_entries(dir);
	expect_fail("no_json.xsa", "libadf.a", AIETH_EPARSE,
		    "no_json.xsa: member xsa.json is missing (an XSA has xsa.json, xsa.xml and "
		    "sysdef.xml; found: xsa.xml, sysdef.xml, design.hwh, design.pdi)",
		    0);
	expect_fail("bad_json.xsa", "libadf.a", AIETH_EPARSE,
		    "bad_json.xsa: member xsa.json:1:15: name: duplicate key", 0);
	expect_fail("no_pdi.xsa", "libadf.a", AIETH_EINVAL, "give it with --id-code", 0);
	expect_fail("other_board.xsa", "libadf.a", AIETH_EINVAL,
		    "member xsa.json: board: expected vck190 (--board), found \"vek280\"", 0);
	expect_fail("libadf.a", "libadf.a", AIETH_EIO, "libadf.a: cannot open the XSA", 0);
	expect_fail("harness.xsa", "not_an_archive.a", AIETH_EIO,
		    "not_an_archive.a: cannot open the graph archive", 0);
	expect_fail("harness.xsa", "no_control.a", AIETH_EPARSE,
		    "no_control.a: no aie_control_config.json found", 0);
	expect_fail("harness.xsa", "bad_cdo.a", AIETH_EPARSE,
		    "bad_cdo.a: member aie.cdo.init.bin: CDO header checksum: expected", 0);
	expect_fail("harness.xsa", "nonexistent.a", AIETH_EIO, "nonexistent.a", 0);
	/* PLIO problems: reported one by one, nothing written */
	expect_fail("harness.xsa", "bad_name.a", AIETH_EINVAL,
		    "the graph's PLIOs do not fit board vck190 (1 problem)", 1);
	expect_fail("harness.xsa", "width64.a", AIETH_EINVAL, "(1 problem)", 1);
	expect_fail("harness.xsa", "wrong_column.a", AIETH_EINVAL, "(1 problem)", 1);
	expect_fail("harness.xsa", "wrong_channel.a", AIETH_EINVAL, "(1 problem)", 1);
	expect_fail("harness.xsa", "wrong_dir.a", AIETH_EINVAL, "(1 problem)", 1);
	expect_fail("harness.xsa", "wrong_hw_gen.a", AIETH_EINVAL, "(1 problem)", 1);
	expect_fail("harness.xsa", "too_many.a", AIETH_EINVAL, "(2 problems)", 2);
	expect_fail("harness.xsa", "dup_plio.a", AIETH_EINVAL, "(1 problem)", 1);
	CU_ASSERT_EQUAL(count_entries(dir), before); /* no temporary file left next to it */
}

static void write_script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

static void test_bootgen_failures(void)
{
	aieth__package_opts o;
	aieth__package_result r;
	char out[300], fake[300];
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	snprintf(out, sizeof out, "%s/b.xclbin", dir);
	snprintf(fake, sizeof fake, "%s/fake-bootgen", dir);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	o.bootgen = "/nonexistent/bootgen";
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EUNSUPPORTED);
	CU_ASSERT_EQUAL(r.tool_failed, 1);
	MSG_HAS("cannot run /nonexistent/bootgen");
	MSG_HAS("xilinx-bootgen");
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	/* bootgen's own error text is passed on */
	write_script(fake,
		     "echo '****** Xilinx Bootgen'; echo '[ERROR]  : a BIF problem' >&2; exit 1");
	o.bootgen = fake;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EIO);
	CU_ASSERT_EQUAL(r.tool_failed, 1);
	MSG_HAS("fake-bootgen failed (exit 1): [ERROR]  : a BIF problem");
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	/* exit 0 without a PDI is a failure too */
	write_script(fake, "echo '[INFO] : Bootimage generated successfully'; exit 0");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EIO);
	MSG_HAS("wrote no readable PDI");
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	write_script(fake, "kill -9 $$");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EIO);
	MSG_HAS("killed by signal 9");
	/* real bootgen refusing a CDO it cannot decode (the header passes our check) */
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
	/* an unwritable output: found before bootgen runs */
	opts_init(&o, "harness.xsa", "libadf.a", "/nonexistent/dir/x.xclbin");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EIO);
	CU_ASSERT_EQUAL(r.output_failed, 1);
	CU_ASSERT_EQUAL(r.bootgen_seconds, 0.0);
	MSG_HAS("/nonexistent/dir/x.xclbin: cannot create a temporary file");
	/* argument rules */
	opts_init(&o, "harness.xsa", NULL, out);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	o.action_mask = 4;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
}

/* ------------------------------------- files a board accepts */

/* LOAD_PDI alone: refused when packaging, reported by check */
static void test_action_mask(void)
{
	aieth__package_opts o;
	aieth__package_result r;
	aieth_xclbin *x;
	char out[300];
	FILE *f;
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	snprintf(out, sizeof out, "%s/mask.xclbin", dir);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	o.action_mask = AIETH_XCLBIN_AM_LOAD_PDI;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	MSG_HAS("action mask 0x2: an AIE-only xclbin needs LOAD_AIE (0x1)");
	MSG_HAS("No xml metadata in xclbin");
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
	/* both bits are fine */
	o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE | AIETH_XCLBIN_AM_LOAD_PDI;
	CU_ASSERT_EQUAL_FATAL(aieth__package(&o, &r), AIETH_OK);
	/* an existing file with LOAD_PDI alone: one check problem */
	f = fopen(out, "r+b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 334, SEEK_SET); /* m_actionMask, little-endian u16 */
	fputc(0x02, f);
	fputc(0x00, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, out, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_xclbin_get_header(x)->action_mask, AIETH_XCLBIN_AM_LOAD_PDI);
	problems_seen = 0;
	CU_ASSERT_EQUAL(aieth_xclbin_check(x, board, count_problem, NULL), 1);
	CU_ASSERT_EQUAL(problems_seen, 1);
	aieth_xclbin_close(x);
}

/* The XSA must be the board's: its part and its device IDCODE */
static void test_xsa_device(void)
{
	static const char *const boards[] = {"vck190", "vek280", "vek385"};
	aieth__package_opts o;
	aieth__package_result r;
	char out[300];
	size_t i;
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(setup_board(boards[i]), 0);
		snprintf(out, sizeof out, "%s/dev.xclbin", dir);
		opts_init(&o, "other_part.xsa", "libadf.a", out);
		CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
		MSG_HAS("member xsa.json: part: expected ");
		MSG_HAS("the XSA is for another device");
		MSG_HAS(boards[i]);
		opts_init(&o, "other_device.xsa", "libadf.a", out);
		CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
		if (i == 0) /* vck190 states its IDCODE */
			MSG_HAS("device IDCODE: expected 0x14ca8093 (board vck190, xcvc1902; "
				"revision bits 31..28 not compared), found 0x0ffff093");
		else /* the others do not, but it is VCK190's */
			MSG_HAS("device IDCODE 0x14ca8093 (member design.pdi): expected board vek");
		if (i)
			MSG_HAS("found board vck190's (xcvc1902): the XSA is for another device");
		CU_ASSERT_EQUAL(access(out, F_OK), -1);
		CU_ASSERT_EQUAL(count_entries(scratch), 0);
	}
	/* another revision of the same device is the same device */
	{
		aieth_xsa_info xi;
		memset(&xi, 0, sizeof xi);
		CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
		xi.has_id_code = 1;
		xi.id_code = 0x24ca8093u;
		snprintf(xi.part, sizeof xi.part, "XCVC1902-vsva2197-2MP-e-S");
		CU_ASSERT_EQUAL(aieth__xsa_check_device(&xi, "x.xsa", board, tu_src("")), AIETH_OK);
		xi.id_code = 0x14ca9093u;
		CU_ASSERT_EQUAL(aieth__xsa_check_device(&xi, "x.xsa", board, tu_src("")),
				AIETH_EINVAL);
	}
}

static const char debian_table[] =
	"\n\n****** Xilinx Bootgen v2022.2\n"
	"-------------+----------------------------------------------------------------+\n"
	" OPTION      | arch                                                           |\n"
	"-------------+----------------------------------------------------------------+\n"
	" ARGUMENTS   | *zynq   : Image is targeted for ZYNQ architecture              |\n"
	"             |  zynqmp : Image is targeted for ZYNQ MP SoC architecture       |\n"
	"             |  versal : Image is targeted for VERSAL ACAP architecture       |\n"
	"             |  fpga   : Image is targeted for other FPGA architectures       |\n"
	"-------------+----------------------------------------------------------------+\n"
	" USAGE       | bootgen -arch zynq -image test.bif -o boot.bin                 |\n";

static void test_bootgen_arch(void)
{
	char list[256], small[12];
	/* the real -help arch tables: Debian's 2022.2, and AMD's current one
	 * (the test stand-in prints it in that layout) */
	CU_ASSERT_EQUAL(
		aieth__bootgen_arch_parse(debian_table, sizeof debian_table - 1, list, sizeof list),
		4);
	CU_ASSERT_STRING_EQUAL(list, "zynq,zynqmp,versal,fpga");
	CU_ASSERT(aieth__bootgen_arch_listed(list, "versal"));
	CU_ASSERT(!aieth__bootgen_arch_listed(list, "versal_2ve_2vm"));
	CU_ASSERT(!aieth__bootgen_arch_listed(list, "vers"));
	CU_ASSERT(!aieth__bootgen_arch_listed(list, ""));
	CU_ASSERT(!aieth__bootgen_arch_listed("versal_2ve_2vm", "versal"));
	CU_ASSERT_EQUAL(
		aieth__bootgen_arch_query(tu_src(PF_FAKE_BOOTGEN_GEN2), 10, list, sizeof list),
		AIETH_OK);
	CU_ASSERT_STRING_EQUAL(list, "zynq,zynqmp,versal,fpga,versal_2ve_2vm,spartanup");
	/* a list that does not fit is cut at a whole name */
	CU_ASSERT_EQUAL(aieth__bootgen_arch_parse(debian_table, sizeof debian_table - 1, small,
						  sizeof small),
			2);
	CU_ASSERT_STRING_EQUAL(small, "zynq,zynqmp");
	/* no table, garbage, nothing */
	CU_ASSERT_EQUAL(aieth__bootgen_arch_parse("usage: bootgen\n", 15, list, sizeof list), 0);
	CU_ASSERT_STRING_EQUAL(list, "");
	CU_ASSERT_EQUAL(
		aieth__bootgen_arch_parse(" ARGUMENTS | : x\n |*: y", 23, list, sizeof list), 0);
	CU_ASSERT_EQUAL(aieth__bootgen_arch_parse("", 0, list, sizeof list), 0);
	CU_ASSERT_EQUAL(aieth__bootgen_arch_query("/nonexistent/bootgen", 10, list, sizeof list),
			AIETH_EUNSUPPORTED);
}

/* VEK385: a Gen 2 PDI from a bootgen that has the architecture, else a
 * refusal that says what to do; its AIE generation number checked */
static void test_vek385_gen2(void)
{
	aieth__package_opts o;
	aieth__package_result r;
	char out[300], log[320], fake[300], *text;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(setup_board("vek385"), 0);
	snprintf(out, sizeof out, "%s/g2.xclbin", dir);
	snprintf(log, sizeof log, "%s/bootgen.args", dir);
	snprintf(fake, sizeof fake, "%.200s/old-bootgen", dir);
	/* a bootgen without versal_2ve_2vm: refused before it builds anything */
	write_script(fake, "if [ \"$1\" = -help ]; then cat <<'E'\n ARGUMENTS   | *zynq : a |\n"
			   "             |  versal : b |\n---\nE\nexit 0; fi\ntouch \"$0.ran\"; "
			   "exit 1");
	opts_init(&o, "harness.xsa", "libadf.a", out);
	o.bootgen = fake;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EUNSUPPORTED);
	CU_ASSERT_EQUAL(r.tool_failed, 1);
	MSG_HAS("board vek385 (xc2ve3858) needs PDIs of bootgen architecture versal_2ve_2vm");
	MSG_HAS("supports only zynq,versal");
	MSG_HAS("--bootgen PATH or $BOOTGEN");
	MSG_HAS("--pdi");
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	snprintf(log, sizeof log, "%s.ran", fake);
	CU_ASSERT_EQUAL(access(log, F_OK), -1);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
	/* one that lists it is asked for -arch versal_2ve_2vm */
	snprintf(log, sizeof log, "%s/bootgen.args", dir);
	setenv("FAKE_BOOTGEN_LOG", log, 1);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	unsetenv("FAKE_BOOTGEN_LOG");
	text = slurp(log, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-arch versal_2ve_2vm -image "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, " -w"));
	free(text);
	/* the AIE generation: AIE-MLv2 is hw_gen 5 */
	problems_seen = 0;
	opts_init(&o, "harness.xsa", "wrong_hw_gen.a", out);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	CU_ASSERT_EQUAL(r.problems, 1);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
	/* the first-generation boards still get -arch versal, without a query */
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	snprintf(log, sizeof log, "%s/bootgen.args", dir);
	setenv("FAKE_BOOTGEN_LOG", log, 1);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	o.bootgen = tu_src(PF_FAKE_BOOTGEN_GEN2);
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
	unsetenv("FAKE_BOOTGEN_LOG");
	text = slurp(log, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-arch versal -image "));
	CU_ASSERT_PTR_NULL(strstr(text, "2ve"));
	free(text);
}

static void test_hw_gen_check(void)
{
	aieth_aie_meta *m = NULL;
	static const char meta[] = "{\"aie_metadata\": {\"driver_config\": {\"hw_gen\": 2}, "
				   "\"graphs\": {\"g\": {\"id\": 0, \"name\": \"g\"}}}}";
	CU_ASSERT_EQUAL_FATAL(setup_board("vek385"), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_aie_meta_parse(&m, "meta", meta, sizeof meta - 1), 0);
	problems_seen = 0;
	CU_ASSERT_EQUAL(aieth_aie_meta_check(m, board, count_problem, NULL), 1);
	CU_ASSERT_EQUAL(aieth_board_get_info(board)->aie_hw_gen, 5);
	aieth_aie_meta_free(m);
}

/* ------------------------------------------------ the reader modules */

static void test_xsa_reader(void)
{
	aieth_xsa_info x;
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	CU_ASSERT_EQUAL(aieth__xsa_read(&x, fx("vbnv.xsa")), 0);
	CU_ASSERT_STRING_EQUAL(x.vbnv, "xilinx_custom_platform_1_0");
	CU_ASSERT_STRING_EQUAL(x.board, "vck190");
	CU_ASSERT_STRING_EQUAL(x.name, "vck190_test_harness");
	CU_ASSERT_EQUAL(x.has_id_code, 1);
	CU_ASSERT_EQUAL(x.id_code, PF_IDCODE_VC1902);
	CU_ASSERT_STRING_EQUAL(x.part, "xcvc1902-fixture-2MP-e-S");
	CU_ASSERT_STRING_EQUAL(x.pdi_member, "design.pdi");
	CU_ASSERT_EQUAL(x.num_members, 5);
	CU_ASSERT_EQUAL(aieth__xsa_read(&x, fx("libadf.a")), AIETH_EIO);
	CU_ASSERT_EQUAL(aieth__xsa_read_mem(&x, "mem.xsa", "PK\003\004garbage", 11), AIETH_EPARSE);
	MSG_HAS("mem.xsa");
}

static int write_ar(const char *path, const char *const *names, const char *const *texts, int n)
{
	struct archive *a = archive_write_new();
	int i, rc = 0;
	archive_write_set_format_ar_bsd(a); /* BSD long names: the other ar flavour */
	archive_write_open_filename(a, path);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_set_pathname(e, names[i]);
		archive_entry_set_size(e, (la_int64_t)strlen(texts[i]));
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    archive_write_data(a, texts[i], strlen(texts[i])) < 0)
			rc = -1;
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
	return rc;
}

/* libadf_elf.a's sw.o read in place: the same CDOs from the file (not
 * extracted: the warm-cache path) and from memory; the archive cut short
 * anywhere in sw.o is an error naming it, never a crash. */
static void graph_in_place_checks(void)
{
	aieth_graph_inputs g;
	char *data = NULL, cut[300];
	size_t len = 0, n, before = count_entries(scratch);
	int rc;
	CU_ASSERT_EQUAL(aieth__graph_read(&g, fx("libadf_elf.a"), scratch, 0), 0);
	CU_ASSERT_EQUAL(g.elf_in_place, 1);
	CU_ASSERT_EQUAL(g.num_cdos, 6);
	CU_ASSERT_PTR_NULL(g.cdo[AIETH_CDO_ELFS].path);
	CU_ASSERT_EQUAL(count_entries(scratch), before); /* nothing spooled or written */
	aieth__graph_free(&g);
	CU_ASSERT_EQUAL_FATAL(aieth__read_file(fx("libadf_elf.a"), 1u << 30, &data, &len), 0);
	CU_ASSERT_EQUAL(aieth__graph_read_mem(&g, "mem.a", data, len, NULL), 0);
	CU_ASSERT_EQUAL(g.elf_in_place, 1);
	CU_ASSERT_EQUAL(g.num_cdos, 6);
	aieth__graph_free(&g);
	snprintf(cut, sizeof cut, "%s/cut.a", dir);
	for (n = len - 1; n > len / 2; n -= len / 7) {
		CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(cut, data, n), 0);
		rc = aieth__graph_read(&g, cut, scratch, 0);
		CU_ASSERT_NOT_EQUAL(rc, 0);
		MSG_HAS("cut.a");
		rc = aieth__graph_read_mem(&g, "cut-mem.a", data, n, NULL);
		CU_ASSERT_NOT_EQUAL(rc, 0);
		MSG_HAS("cut-mem.a");
	}
	unlink(cut);
	free(data);
	/* BSD long names ("#1/N": the name opens the member's data) move the
	 * data offset: found and confirmed too (a fuzz corpus file) */
	CU_ASSERT_EQUAL(aieth__graph_read(&g,
					  tu_src("tests/fuzz/corpus/fuzz_xclbin_libadf/"
						 "libadf_elf_bsd.a"),
					  scratch, 0),
			0);
	CU_ASSERT_EQUAL(g.elf_in_place, 1);
	CU_ASSERT(g.cdo[AIETH_CDO_ELFS].present);
	CU_ASSERT_PTR_NOT_NULL(g.control_config);
	aieth__graph_free(&g);
}

static void test_graph_reader(void)
{
	aieth_graph_inputs g;
	char w[300], link_[300];
	static const char *const names[] = {"aie_control_config.json", "aie.cdo.foo.bin"};
	static const char *const texts[] = {"{}", "xxxxxxxxxxxxxxxxxxxxxxxx"};
	static const char *const names2[] = {"aie_control_config.json", "aie.cdo.init.bin"};
	static const char *const texts2[] = {"{}", "tiny"};
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	CU_ASSERT_EQUAL(aieth__graph_read(&g, fx("libadf_elf.a"), scratch, 1), 0);
	CU_ASSERT_EQUAL(g.num_cdos, 6);
	CU_ASSERT(g.cdo[AIETH_CDO_ENABLE].present);
	CU_ASSERT(!g.cdo[AIETH_CDO_PARTITION_RESET].present);
	CU_ASSERT_PTR_NOT_NULL(strstr(g.cdo[AIETH_CDO_ELFS].source,
				      "libadf_elf.a: member sw.o section .aie.cdo.elfs.bin"));
	CU_ASSERT_PTR_NOT_NULL(g.trace_config);
	CU_ASSERT_PTR_NOT_NULL(strstr(g.control_config_source, "aie_control_config.json"));
	CU_ASSERT_EQUAL(count_entries(scratch), 6); /* the extracted CDOs, no ELF spool */
	CU_ASSERT_EQUAL(g.elf_in_place, 1);         /* sw.o read where it lies */
	aieth__graph_free(&g);
	graph_in_place_checks();
	{
		char cmd[400];
		snprintf(cmd, sizeof cmd, "rm -f %s/*", scratch);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	/* a directory that holds Work/ */
	snprintf(w, sizeof w, "%s/proj", dir);
	mkdir(w, 0755);
	snprintf(link_, sizeof link_, "%s/proj/Work", dir);
	CU_ASSERT_EQUAL(symlink(fx("Work"), link_), 0);
	CU_ASSERT_EQUAL(aieth__graph_read(&g, w, scratch, 1), 0);
	CU_ASSERT_EQUAL(g.num_cdos, 5);
	aieth__graph_free(&g);
	CU_ASSERT_EQUAL(aieth__graph_read(&g, scratch, scratch, 1), AIETH_EPARSE);
	MSG_HAS("not an aiecompiler Work directory: ps/c_rts/aie_control_config.json is missing");
	/* an unknown CDO stage is refused rather than loaded in a guessed order */
	snprintf(w, sizeof w, "%s/foo.a", dir);
	CU_ASSERT_EQUAL(write_ar(w, names, texts, 2), 0);
	CU_ASSERT_EQUAL(aieth__graph_read(&g, w, scratch, 1), AIETH_EPARSE);
	MSG_HAS("foo.a: member aie.cdo.foo.bin: aie.cdo.foo.bin: unknown AIE CDO stage \"foo\"");
	/* a CDO that is no CDO */
	CU_ASSERT_EQUAL(write_ar(w, names2, texts2, 2), 0);
	CU_ASSERT_EQUAL(aieth__graph_read(&g, w, scratch, 1), AIETH_EPARSE);
	MSG_HAS("member aie.cdo.init.bin: size: expected a CDO file of at least 20 bytes");
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
}

static void test_pdi_facts(void)
{
	uint8_t h[20];
	uint32_t w[5] = {4, 0x004f4443u, 0x200u, 3, 0};
	int i;
	w[4] = ~(w[0] + w[1] + w[2] + w[3]);
	for (i = 0; i < 5; i++)
		h[4 * i] = (uint8_t)w[i], h[4 * i + 1] = (uint8_t)(w[i] >> 8),
		      h[4 * i + 2] = (uint8_t)(w[i] >> 16), h[4 * i + 3] = (uint8_t)(w[i] >> 24);
	CU_ASSERT_EQUAL(aieth__cdo_check_header(h, 20, 32, "c.bin"), 0);
	CU_ASSERT_EQUAL(aieth__cdo_check_header(h, 20, 31, "c.bin"), AIETH_EPARSE);
	MSG_HAS("c.bin: CDO length: 3 words do not fit in the file (31 bytes)");
	h[4] = 'X';
	CU_ASSERT_EQUAL(aieth__cdo_check_header(h, 20, 32, "c.bin"), AIETH_EPARSE);
	MSG_HAS("CDO identification word: expected 0x004f4443 for version 0x200");
	h[4] = 0x43, h[0] = 5;
	CU_ASSERT_EQUAL(aieth__cdo_check_header(h, 20, 32, "c.bin"), AIETH_EPARSE);
	MSG_HAS("CDO header length word: expected 4, found 5");
	{
		uint8_t junk[300];
		uint32_t id, ext;
		memset(junk, 0, sizeof junk);
		memcpy(junk + 0x10 + 0x28, "IDPP", 4); /* an id string without a valid checksum */
		CU_ASSERT_EQUAL(aieth__pdi_idcode(junk, sizeof junk, &id, &ext), AIETH_ENOTFOUND);
	}
}

static int suite_init(void)
{
	snprintf(scratch, sizeof scratch, "/tmp/aieth-pkg-scratch-XXXXXX");
	return mkdtemp(scratch) ? 0 : -1;
}

/* What XRT refuses is refused when packaged too: metadata
 * without a node XRT's edge parser reads, a PDI with a bad CDO header or
 * cut after its headers. The inputs are checked as the written file's
 * sections would be, before anything is written; nothing is
 * written. */
static const char *seen_want, *seen_out;
static int seen;
/* the line names the input that holds the problem */
static void see_problem(void *ctx, const char *line)
{
	size_t n = strlen(seen_out);
	(void)ctx;
	problems_seen++;
	if (strstr(line, seen_want) && !strncmp(line, seen_out, n) && line[n] == ':')
		seen = 1;
	else
		fprintf(stderr, "\n  problem: %s", line);
}

/* named: the file the problem line starts with (the bad input) */
static void refuse_case(const char *pdi, const char *meta, const char *named, const char *want)
{
	aieth__package_opts o;
	aieth__package_result r;
	char out[300];
	snprintf(out, sizeof out, "%s/refused.xclbin", dir);
	opts_init(&o, "harness.xsa", NULL, out);
	o.pdi = pdi;
	o.aie_metadata = meta;
	o.report = see_problem;
	seen = 0;
	seen_want = want;
	seen_out = named;
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_EINVAL);
	CU_ASSERT(r.problems >= 1);
	if (!seen)
		fprintf(stderr, "\n  no problem with: %s (%s)\n", want, aieth_error_message());
	CU_ASSERT(seen);
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
}

static void test_xrt_refusals(void)
{
	aieth__package_opts o;
	aieth__package_result r;
	aieth_xclbin *x;
	char out[300], pdi[300], bad[300], meta[300], *text, *at;
	const char *rtps = "\"RTPs\": {},";
	uint8_t *b;
	size_t n, i, k;
	FILE *f;
	pf_graph g;
	CU_ASSERT_EQUAL_FATAL(setup_board("vck190"), 0);
	snprintf(out, sizeof out, "%s/good.xclbin", dir);
	snprintf(pdi, sizeof pdi, "%s/good.pdi", dir);
	snprintf(bad, sizeof bad, "%s/bad.pdi", dir);
	snprintf(meta, sizeof meta, "%s/no_rtps.json", dir);
	opts_init(&o, "harness.xsa", "libadf.a", out);
	CU_ASSERT_EQUAL_FATAL(aieth__package(&o, &r), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, out, 0), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_PDI, &i), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_section_dump(x, i, pdi), 0);
	aieth_xclbin_close(x);
	/* the metadata without RTPs */
	CU_ASSERT_EQUAL_FATAL(pf_graph_for_board(&g, board, 4), 0);
	text = pf_control_config(&g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n = strlen(text);
	at = strstr(text, rtps);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	k = (size_t)(at - text);
	memmove(text + k, text + k + strlen(rtps), n - k - strlen(rtps) + 1);
	f = fopen(meta, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	free(text);
	refuse_case(pdi, meta, meta,
		    "aie_metadata.RTPs: expected the node (XRT "
		    "aie_parser.cpp get_rtp reads it");
	/* bootgen's PDI: its CDO starts at 0x150 (header checksum in word 4) */
	b = (uint8_t *)slurp(pdi, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_FATAL(n > 0x170 && !memcmp(b + 0x154, "CDO", 4));
	b[0x150 + 16] ^= 1;
	f = fopen(bad, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(b, 1, n, f);
	fclose(f);
	refuse_case(bad, fx("aie_control_config.json"), bad,
		    "partition header 0 data at offset 0x150: "
		    "CDO header checksum");
	b[0x150 + 16] ^= 1;
	/* cut after its headers */
	f = fopen(bad, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(b, 1, 0x150, f);
	fclose(f);
	refuse_case(bad, fx("aie_control_config.json"), bad,
		    "partition header 0 at offset 0xd0: data "
		    "(offset 0x150");
	free(b);
	/* the intact ones still package */
	opts_init(&o, "harness.xsa", NULL, out);
	o.pdi = pdi;
	o.aie_metadata = fx("aie_control_config.json");
	CU_ASSERT_EQUAL(aieth__package(&o, &r), AIETH_OK);
}

static void test_cleanup(void)
{
	char cmd[300];
	aieth_board_free(board);
	board = NULL;
	CU_ASSERT_EQUAL(count_entries(scratch), 0);
	snprintf(cmd, sizeof cmd, "rm -rf %s", scratch);
	CU_ASSERT_EQUAL(system(cmd), 0);
	while (nmade > 0) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", made[--nmade]);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

static void test_setup(void) { CU_ASSERT_EQUAL(suite_init(), 0); }

/* aieth__package_opts is versioned; its INIT sets the header fields to -1
 * (from the clock and the XSA), as th_package did by hand. */
static void test_package_opts_version(void)
{
	aieth__package_opts o = AIETH_PACKAGE_OPTS_INIT;
	aieth__package_result r;
	TU_OPTS_INIT(aieth__package_opts, AIETH_PACKAGE_OPTS_INIT, aieth__package_opts_init,
		     AIETH_PACKAGE_OPTS_VERSION);
	CU_ASSERT(o.timestamp == -1 && o.id_code == -1 && o.ext_id_code == -1);
	TU_OPTS_REFUSED(aieth__package(&o, &r), o.version, "aieth_package_opts",
			"AIETH_PACKAGE_OPTS_INIT or aieth_package_opts_init",
			AIETH_PACKAGE_OPTS_VERSION);
}

TU_MAIN("xclbin_package", {"options version", test_package_opts_version}, {"setup", test_setup},
	{"package vck190", test_package_vck190}, {"package vek280", test_package_vek280},
	{"package vek385", test_package_vek385}, {"bad inputs", test_bad_inputs},
	{"bootgen failures", test_bootgen_failures}, {"action mask", test_action_mask},
	{"XSA device", test_xsa_device}, {"bootgen architectures", test_bootgen_arch},
	{"VEK385 Gen 2", test_vek385_gen2}, {"hw_gen check", test_hw_gen_check},
	{"XSA reader", test_xsa_reader}, {"graph reader", test_graph_reader},
	{"PDI and CDO facts", test_pdi_facts}, {"what XRT refuses", test_xrt_refusals},
	{"cleanup", test_cleanup})
