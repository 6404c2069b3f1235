/* SPDX-License-Identifier: MIT */
/*
 * test_xrt.c - the xrt backend's pieces that need no process: the child
 * protocol (round trips, every truncation rejected), the function table
 * against XRT's own headers (when installed), RTP on the emulated board,
 * the library search path, the session folder of an xrt.ini (what reaches
 * XRT, what is collected).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "backends/xrt/xrt_api.h"
#include "backends/xrt/xrt_proto.h"
#include "backends/xrt/xrt_rundir.h"
#include "util/fileio.h"
#include "util/path.h"
#include "tu.h"

#if defined(__has_include)
#if __has_include(<xrt/xrt_device.h>) && __has_include(<uuid/uuid.h>)
#include <xrt/xrt_aie.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_graph.h>
#include <xrt/xrt_kernel.h>
#define HAVE_XRT_HEADERS 1
/* our prototypes are XRT's (enums as unsigned int) */
#define SAME(fn, type) _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), type), #fn)
SAME(xrtDeviceOpen, xrt_device_open_fn);
SAME(xrtDeviceClose, xrt_device_close_fn);
SAME(xrtDeviceLoadXclbinFile, xrt_device_load_xclbin_file_fn);
SAME(xrtPLKernelOpenExclusive, xrt_pl_kernel_open_fn);
SAME(xrtKernelClose, xrt_kernel_close_fn);
SAME(xrtKernelArgGroupId, xrt_kernel_arg_group_id_fn);
SAME(xrtKernelReadRegister, xrt_kernel_read_register_fn);
SAME(xrtKernelWriteRegister, xrt_kernel_write_register_fn);
SAME(xrtRunOpen, xrt_run_open_fn);
SAME(xrtRunSetArg, xrt_run_set_arg_fn);
SAME(xrtRunStart, xrt_run_start_fn);
SAME(xrtRunClose, xrt_run_close_fn);
SAME(xrtBOAlloc, xrt_bo_alloc_fn);
SAME(xrtBOFree, xrt_bo_free_fn);
SAME(xrtBOMap, xrt_bo_map_fn);
SAME(xrtGraphOpen, xrt_graph_open_fn);
SAME(xrtGraphClose, xrt_graph_close_fn);
SAME(xrtGraphReset, xrt_graph_reset_fn);
SAME(xrtGraphRun, xrt_graph_run_fn);
SAME(xrtGraphWaitDone, xrt_graph_wait_done_fn);
SAME(xrtGraphEnd, xrt_graph_end_fn);
SAME(xrtGraphUpdateRTP, xrt_graph_update_rtp_fn);
SAME(xrtGraphReadRTP, xrt_graph_read_rtp_fn);
SAME(xrtAIEDeviceOpen, xrt_aie_device_open_fn);
SAME(xrtAIEResetArray, xrt_aie_reset_array_fn);
_Static_assert(ERT_CMD_STATE_COMPLETED == AIETH_ERT_COMPLETED, "ert");
_Static_assert(ERT_CMD_STATE_TIMEOUT == AIETH_ERT_TIMEOUT, "ert");
_Static_assert(XCL_BO_SYNC_BO_FROM_DEVICE == AIETH_XCL_BO_SYNC_FROM_DEVICE, "sync");
_Static_assert(sizeof(xuid_t) == sizeof(aieth_xuid), "uuid");
#endif
#endif

static void test_open_roundtrip(void)
{
	xrtp_open_req *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	sbuf buf = SB_INIT(XRTP_MAX_PAYLOAD);
	size_t cut;
	strcpy(a->lib, "/x/libxrt_coreutil.so.2");
	strcpy(a->pl_xclbin, "pl.xclbin");
	strcpy(a->kernel, "vck190_test_harness");
	a->device = 3;
	a->ngraphs = 2;
	strcpy(a->graphs[0], "g0");
	strcpy(a->graphs[1], "g1");
	a->pl_uuid[5] = 7;
	aieth__xrtp_encode_open(&buf, a);
	CU_ASSERT_FALSE(buf.oom);
	CU_ASSERT_EQUAL(aieth__xrtp_decode_open(buf.u, buf.n, b), 0);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof *a), 0);
	for (cut = 0; cut < buf.n; cut++)
		CU_ASSERT_EQUAL(aieth__xrtp_decode_open(buf.u, cut, b), -1);
	buf.u[buf.n - 17] = 0xff; /* the uuid blob length */
	CU_ASSERT_EQUAL(aieth__xrtp_decode_open(buf.u, buf.n, b), -1);
	aieth__sb_free(&buf);
	free(a);
	free(b);
}

static void test_txn_roundtrip(void)
{
	xrtp_txn_req *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	xrtp_txn_rep *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
	sbuf buf = SB_INIT(XRTP_MAX_PAYLOAD);
	uint32_t i;
	size_t cut;
	a->channels = 16;
	a->timeout_ms = 1000;
	a->tx_bytes = 1ull << 33;
	a->rx_bytes = 4096;
	a->ncfg = 8 * 16 + 1;
	for (i = 0; i < a->ncfg; i++)
		a->cfg[i] = (uint64_t)i * 0x0101010101010101ull;
	aieth__xrtp_encode_txn(&buf, a);
	CU_ASSERT_EQUAL(aieth__xrtp_decode_txn(buf.u, buf.n, b), 0);
	CU_ASSERT_EQUAL(b->tx_bytes, a->tx_bytes);
	CU_ASSERT_EQUAL(memcmp(a->cfg, b->cfg, a->ncfg * 8), 0);
	for (cut = 0; cut < buf.n; cut += 7)
		CU_ASSERT_EQUAL(aieth__xrtp_decode_txn(buf.u, cut, b), -1);
	aieth__sb_free(&buf);
	a->ncfg = 5; /* must be 8N+1 */
	aieth__xrtp_encode_txn(&buf, a);
	CU_ASSERT_EQUAL(aieth__xrtp_decode_txn(buf.u, buf.n, b), -1);
	aieth__sb_free(&buf);

	r->status = AIETH_TXN_TIMEOUT;
	r->run_state = AIETH_ERT_RUNNING;
	r->have_ctrl = 1;
	r->ctrl = 1;
	strcpy(r->msg, "still running");
	r->nperf = 64;
	r->perf[63] = 99;
	aieth__xrtp_encode_txn_rep(&buf, r);
	CU_ASSERT_EQUAL(aieth__xrtp_decode_txn_rep(buf.u, buf.n, s), 0);
	CU_ASSERT_EQUAL(s->perf[63], 99);
	CU_ASSERT_STRING_EQUAL(s->msg, "still running");
	CU_ASSERT_EQUAL(aieth__xrtp_decode_txn_rep(buf.u, buf.n - 1, s), -1);
	aieth__sb_free(&buf);
	r->status = 9; /* not an aieth_txn_status */
	aieth__xrtp_encode_txn_rep(&buf, r);
	CU_ASSERT_EQUAL(aieth__xrtp_decode_txn_rep(buf.u, buf.n, s), -1);
	aieth__sb_free(&buf);
	free(a);
	free(b);
	free(r);
	free(s);
}

static void test_strings(void)
{
	sbuf buf = SB_INIT(XRTP_MAX_PAYLOAD);
	xrtp_rd r;
	char small[4];
	aieth__xrtp_put_blob(&buf, "ab\0c", 4); /* a NUL inside a string */
	r = (xrtp_rd){buf.u, buf.n, 0, 0};
	aieth__xrtp_get_str(&r, small, sizeof small);
	CU_ASSERT(r.err);
	aieth__sb_free(&buf);
	aieth__xrtp_put_str(&buf, "abcd"); /* longer than the destination */
	r = (xrtp_rd){buf.u, buf.n, 0, 0};
	aieth__xrtp_get_str(&r, small, sizeof small);
	CU_ASSERT(r.err);
	CU_ASSERT_STRING_EQUAL(small, "");
	aieth__sb_free(&buf);
}

static void test_rtp_emu(void)
{
	aieth_graph_spec g = {"gr", "loopback", NULL};
	aieth_session_opts o;
	aieth_session *s;
	int32_t v = 42, back = 0;
	char big[8];
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.board = "vck190";
	o.graphs = &g;
	o.num_graphs = 1;
	CU_ASSERT_EQUAL_FATAL(aieth_session_open(&s, &o), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", &back, 4), AIETH_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "has not been written"));
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "gr.k.in[1]", &v, 4), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", &back, 4), AIETH_OK);
	CU_ASSERT_EQUAL(back, 42);
	v = 7;
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "gr.k.in[1]", &v, 4), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", &back, 4), AIETH_OK);
	CU_ASSERT_EQUAL(back, 7);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", big, 8), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "holds 4 bytes, 8 asked"));
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "nope", "p", &v, 4), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "", &v, 4), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", NULL, 4), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", &v, 65537), AIETH_EINVAL);
	/* nothing to write or read is a caller's mistake, not a no-op */
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", &v, 0), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "0 bytes, the size must be 1..65536"));
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", NULL, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", &back, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", &v, 4), AIETH_ESTATE);
	aieth_session_close(s);
}

static void test_lib_path(void)
{
	char buf[512];
	setenv("AIETH_XRT_LIB", "/opt/x/libdouble.so", 1);
	CU_ASSERT_STRING_EQUAL(aieth__xrt_lib_path(buf, sizeof buf), "/opt/x/libdouble.so");
	unsetenv("AIETH_XRT_LIB");
	setenv("XILINX_XRT", "/nonexistent", 1);
	CU_ASSERT_STRING_EQUAL(aieth__xrt_lib_path(buf, sizeof buf), "libxrt_coreutil.so.2");
	unsetenv("XILINX_XRT");
}

static void test_load_missing(void)
{
	aieth_xrt_api api;
	CU_ASSERT_EQUAL(aieth__xrt_api_load(&api, "/nonexistent/libxrt_coreutil.so.2"),
			AIETH_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "/nonexistent/libxrt_coreutil.so.2"));
	/* a library without XRT's symbols */
	CU_ASSERT_EQUAL(aieth__xrt_api_load(&api, "libm.so.6"), AIETH_EDEVICE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "does not export xrtDeviceOpen"));
}

static int nart;
static char art_err[1200];
static void on_art(void *ctx, const char *path, uint64_t bytes)
{
	(void)ctx;
	(void)path;
	(void)bytes;
	nart++;
}
static void on_art_err(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(art_err, sizeof art_err, "%s", msg);
}

static void put(const char *dir, const char *name, const char *text)
{
	char *p = aieth__path_join(dir, name);
	FILE *f = p ? fopen(p, "w") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static void test_rundir(void)
{
	char tmpl[] = "/tmp/aieth-rundir-XXXXXX", ini[64], art[64], *dir = NULL, *text = NULL, *p;
	aieth_dev_config cfg;
	size_t len;
	struct stat st;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpl));
	snprintf(ini, sizeof ini, "%s/in.ini", tmpl);
	snprintf(art, sizeof art, "%s/art", tmpl);
	put(tmpl, "in.ini",
	    "stray=1\n[Debug]\naie_trace = true\n dtrace_lib_path=/x/y.so\n"
	    "profiling_directory=out\nnative_xrt_trace=\"a/b\"\n; a comment\n"
	    "[Runtime]\nruntime_log=console\n[AIE_trace_settings]\n"
	    "graph_based_aie_tile_metrics=all:all:functions\nnoequals\n");
	memset(&cfg, 0, sizeof cfg);
	/* no artifacts folder: refused */
	CU_ASSERT_EQUAL(aieth__xrt_rundir_open(ini, NULL, &dir), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "artifacts_dir"));
	cfg.opts.artifact = on_art;
	cfg.opts.artifact_error = on_art_err;
	CU_ASSERT_EQUAL_FATAL(aieth__xrt_rundir_open(ini, art, &dir), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(dir, "/art/.xrt-run-"));
	/* what XRT reads: the AIE keys, nothing that is a path */
	p = aieth__path_join(dir, "xrt.ini");
	CU_ASSERT_EQUAL_FATAL(aieth__read_file(p, 1 << 20, &text, &len), AIETH_OK);
	free(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "[Debug]\naie_trace=true\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "graph_based_aie_tile_metrics=all:all:functions\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: a line before any section"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: Debug.dtrace_lib_path (a path"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: Debug.profiling_directory"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: Debug.native_xrt_trace (its "
					    "value is a path)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: the section [Runtime]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: Runtime.runtime_log"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; not passed to XRT: a line without '='"));
	CU_ASSERT_PTR_NULL(strstr(text, "/x/y.so"));
	CU_ASSERT_PTR_NULL(strstr(text, "\nruntime_log"));
	free(text);
	/* what XRT left: files, a link, a folder, a hidden file, a big one */
	put(dir, "aie_trace_0_0.txt", "trace\n");
	put(dir, "big.csv", "0123456789012345678901234567890123456789\n");
	put(dir, ".hidden", "h");
	p = aieth__path_join(dir, "link.txt");
	CU_ASSERT_EQUAL(symlink("/etc/passwd", p), 0);
	free(p);
	p = aieth__path_join(dir, "sub");
	CU_ASSERT_EQUAL(mkdir(p, 0700), 0);
	free(p);
	put(art, "xrt.ini", "the client's own\n");
	nart = 0;
	art_err[0] = '\0';
	aieth__xrt_rundir_collect(&cfg, art, 32, dir);
	CU_ASSERT_EQUAL(nart, 1);
	p = aieth__path_join(art, "aie_trace_0_0.txt");
	CU_ASSERT(stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 6);
	free(p);
	p = aieth__path_join(art, "xrt.ini"); /* not replaced */
	CU_ASSERT_EQUAL(aieth__read_file(p, 1 << 20, &text, &len), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(text, "the client's own\n");
	free(text);
	free(p);
	p = aieth__path_join(art, "link.txt");
	CU_ASSERT(lstat(p, &st) != 0);
	free(p);
	CU_ASSERT(stat(dir, &st) != 0); /* the session folder is gone */
	CU_ASSERT_PTR_NOT_NULL(strstr(art_err, "\"big.csv\" (41 bytes) is past the artifacts' "
					       "limit of 32 bytes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(art_err, "\"link.txt\" is not a regular file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(art_err, "\"sub\" is not a regular file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(art_err, "\".hidden\" is not a plain file name"));
	free(dir);
	/* a NUL byte: not an xrt.ini */
	{
		FILE *f = fopen(ini, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fwrite("[Debug]\0x", 1, 10, f);
		fclose(f);
	}
	CU_ASSERT_EQUAL(aieth__xrt_rundir_open(ini, art, &dir), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "NUL"));
	aieth__remove_tree(tmpl);
}

TU_MAIN("xrt", {"session folder: xrt.ini filter, collection", test_rundir},
	{"protocol: open round trip, truncations", test_open_roundtrip},
	{"protocol: transaction round trip", test_txn_roundtrip},
	{"protocol: strings", test_strings}, {"RTP on the emulated board", test_rtp_emu},
	{"library path", test_lib_path}, {"dlopen failures", test_load_missing})
