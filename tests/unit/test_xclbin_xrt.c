/* SPDX-License-Identifier: MIT */
/*
 * test_xclbin_xrt.c - XRT's own xclbin parser (Debian libxrt_coreutil, the
 * C API xrtXclbinAllocFilename / xrtXclbinGetUUID / xrtXclbinGetXSAName)
 * must accept every file th_package writes and read back our UUID and
 * VBNV. Debian's XRT aborts the process when it logs anything without
 * XILINX_XRT pointing at a directory whose lib/ holds its shim
 * (XRT's core/common/module_loader.cpp): the test builds that directory and also turns
 * XRT's log off.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <experimental/xrt_ini.h>
#include <experimental/xrt_xclbin.h>

#include "aieth.h"
#include "th_package/th_package.h"
#include "pkg_fixtures.h"
#include "tu.h"
#include "util/error.h"
#include "xclbin/xclbin_write.h"

/* XRT keeps static objects alive to the end: not our leaks. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libxrt_coreutil\nleak:libboost\n"; }

static char xrt_root[64];
static char dir[64];
static int checked;

static void setup_xrt(void)
{
	static const char *const libdirs[] = {"/usr/lib/x86_64-linux-gnu",
					      "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
					      "/usr/lib", NULL};
	static const char *const shims[] = {"libxrt_noop.so.2", "libxrt_core.so.2"};
	char src[256], dst[256], lib[128];
	int i, k;
	snprintf(xrt_root, sizeof xrt_root, "/tmp/aieth-xrt-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(xrt_root));
	snprintf(lib, sizeof lib, "%s/lib", xrt_root);
	CU_ASSERT_EQUAL(mkdir(lib, 0755), 0);
	for (k = 0; k < 2; k++)
		for (i = 0; libdirs[i]; i++) {
			snprintf(src, sizeof src, "%s/%s", libdirs[i], shims[k]);
			if (access(src, F_OK) == 0) {
				snprintf(dst, sizeof dst, "%s/%s", lib, shims[k]);
				CU_ASSERT_EQUAL(symlink(src, dst), 0);
				break;
			}
		}
	setenv("XILINX_XRT", xrt_root, 1);
	setenv("XCL_EMULATION_MODE", "noop", 1);
	CU_ASSERT_EQUAL(xrtIniStringSet("Runtime.runtime_log", "null"), 0);
}

/* XRT accepts the file, and its UUID and XSA name are ours. */
static void xrt_accepts(const char *path)
{
	aieth_xclbin *x = NULL;
	xrtXclbinHandle h;
	xuid_t u;
	char name[128];
	int n = 0;
	if (aieth_xclbin_open(&x, path, 0))
		fprintf(stderr, "\n  %s\n", aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	h = xrtXclbinAllocFilename(path);
	if (!h)
		fprintf(stderr, "\n  XRT rejected %s\n", path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(xrtXclbinGetUUID(h, u), 0);
	CU_ASSERT_EQUAL(memcmp(u, aieth_xclbin_get_header(x)->uuid, 16), 0);
	memset(name, 0, sizeof name);
	CU_ASSERT_EQUAL(xrtXclbinGetXSAName(h, name, sizeof name, &n), 0);
	CU_ASSERT_STRING_EQUAL(name, aieth_xclbin_get_header(x)->vbnv);
	CU_ASSERT_EQUAL(xrtXclbinFreeHandle(h), 0);
	aieth_xclbin_close(x);
	checked++;
}

static void test_setup(void)
{
	setup_xrt();
	snprintf(dir, sizeof dir, "/tmp/aieth-xrt-pkg-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL(mkdtemp(dir));
}

static void package_all(const char *board_name)
{
	static const char *const graphs[] = {"libadf.a", "libadf_elf.a", "Work", "enable.a"};
	static const char *const xsas[] = {"harness.xsa", "vbnv.xsa"};
	char fxdir[200], in[300], xsa[300], out[300];
	aieth_board *b;
	aieth__package_opts o;
	aieth__package_result r;
	size_t g, k;
	uint8_t uuid[16];
	snprintf(fxdir, sizeof fxdir, "%s/%s", dir, board_name);
	CU_ASSERT_EQUAL_FATAL(pf_write_standard(fxdir, board_name, tu_src("")), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&b, board_name, tu_src("")), 0);
	for (g = 0; g < 4; g++)
		for (k = 0; k < 2; k++) {
			snprintf(in, sizeof in, "%s/%s", fxdir, graphs[g]);
			snprintf(xsa, sizeof xsa, "%s/%s", fxdir, xsas[k]);
			snprintf(out, sizeof out, "%s/out-%zu-%zu.xclbin", fxdir, g, k);
			aieth__package_opts_init(&o, AIETH_PACKAGE_OPTS_VERSION);
			o.board = b, o.xsa = xsa, o.graph = in, o.output = out;
			o.timestamp = -1, o.id_code = o.ext_id_code = -1;
			o.data_dir = tu_src("");
			/* Debian's bootgen has no Gen 2 architecture (VEK385) */
			if (strcmp(aieth_board_get_info(b)->bootgen_arch, "versal"))
				o.bootgen = tu_src(PF_FAKE_BOOTGEN_GEN2);
			if (g == 3) { /* a given UUID and both action bits */
				memset(uuid, 0x5a, sizeof uuid);
				o.uuid = uuid;
				o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE | AIETH_XCLBIN_AM_LOAD_PDI;
			}
			CU_ASSERT_EQUAL_FATAL(aieth__package(&o, &r), 0);
			xrt_accepts(out);
		}
	aieth_board_free(b);
}

static void test_packaged_vck190(void) { package_all("vck190"); }
static void test_packaged_vek280(void) { package_all("vek280"); }
static void test_packaged_vek385(void) { package_all("vek385"); }

/* Files from the writer with the other metadata sections XRT parses. */
static void test_writer_files(void)
{
	uint8_t mem[8 + 40], ip[8 + 80], conn[4 + 12], clk[2 + 136];
	xb_wsection s[7] = {
		{.kind = 25,
		 .name = "aie_control_config",
		 .data = "{\"aie_metadata\": {\"graphs\": {}}}",
		 .size = 32},
		{.kind = 18, .name = "aie", .data = "PDI bytes", .size = 9},
		{.kind = 6, .name = "mem_topology", .data = mem, .size = sizeof mem},
		{.kind = 8, .name = "ip_layout", .data = ip, .size = sizeof ip},
		{.kind = 7, .name = "connectivity", .data = conn, .size = sizeof conn},
		{.kind = 11, .name = "clock_freq", .data = clk, .size = sizeof clk},
		{.kind = 14,
		 .name = "build_metadata",
		 .data = "{\"build_metadata\": {}}",
		 .size = 22},
	};
	xb_wopts o;
	char out[300];
	size_t n;
	memset(mem, 0, sizeof mem);
	memset(ip, 0, sizeof ip);
	memset(conn, 0, sizeof conn);
	memset(clk, 0, sizeof clk);
	mem[0] = 1, mem[8 + 1] = 1; /* one DDR bank, used */
	ip[0] = 1, ip[8] = 0;       /* one IP_KERNEL entry */
	memcpy(ip + 8 + 16, "k:k_1", 5);
	conn[0] = 1;
	clk[0] = 1, clk[2] = 300 & 0xff, clk[3] = 300 >> 8;
	for (n = 1; n <= 7; n++) {
		memset(&o, 0, sizeof o);
		o.sections = s, o.num_sections = n;
		o.action_mask = 1, o.vbnv = "xilinx_vek280_base_202610_1", o.timestamp = 1;
		snprintf(out, sizeof out, "%s/w%zu.xclbin", dir, n);
		CU_ASSERT_EQUAL_FATAL(aieth__xb_write_file(out, &o, NULL, NULL), 0);
		xrt_accepts(out);
	}
}

/* The cross-check means something: XRT does reject a bad magic. */
static void test_xrt_rejects(void)
{
	char out[300];
	FILE *f;
	snprintf(out, sizeof out, "%s/bad.xclbin", dir);
	f = fopen(out, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("xclbin1", f);
	for (int i = 0; i < 600; i++)
		fputc(0, f);
	fclose(f);
	CU_ASSERT_PTR_NULL(xrtXclbinAllocFilename(out));
}

static void test_cleanup(void)
{
	char cmd[300];
	fprintf(stderr, "\n  XRT accepted %d files\n", checked);
	CU_ASSERT(checked >= 3 * 8 + 7);
	snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, xrt_root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

TU_MAIN("xclbin_xrt", {"setup", test_setup}, {"packaged vck190", test_packaged_vck190},
	{"packaged vek280", test_packaged_vek280}, {"packaged vek385", test_packaged_vek385},
	{"writer files", test_writer_files}, {"XRT rejects a bad magic", test_xrt_rejects},
	{"cleanup", test_cleanup})
