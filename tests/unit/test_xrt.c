/* SPDX-License-Identifier: MIT */
/*
 * test_xrt.c - the xrt backend's pieces that need no process: the child
 * protocol (round trips, every truncation rejected), the function table
 * against XRT's own headers (when installed), RTP on the emulated board,
 * the library search path.
 */
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "backends/xrt/xrt_api.h"
#include "backends/xrt/xrt_proto.h"
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
	xrtp_encode_open(&buf, a);
	CU_ASSERT_FALSE(buf.oom);
	CU_ASSERT_EQUAL(xrtp_decode_open(buf.u, buf.n, b), 0);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof *a), 0);
	for (cut = 0; cut < buf.n; cut++)
		CU_ASSERT_EQUAL(xrtp_decode_open(buf.u, cut, b), -1);
	buf.u[buf.n - 17] = 0xff; /* the uuid blob length */
	CU_ASSERT_EQUAL(xrtp_decode_open(buf.u, buf.n, b), -1);
	sb_free(&buf);
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
	xrtp_encode_txn(&buf, a);
	CU_ASSERT_EQUAL(xrtp_decode_txn(buf.u, buf.n, b), 0);
	CU_ASSERT_EQUAL(b->tx_bytes, a->tx_bytes);
	CU_ASSERT_EQUAL(memcmp(a->cfg, b->cfg, a->ncfg * 8), 0);
	for (cut = 0; cut < buf.n; cut += 7)
		CU_ASSERT_EQUAL(xrtp_decode_txn(buf.u, cut, b), -1);
	sb_free(&buf);
	a->ncfg = 5; /* must be 8N+1 */
	xrtp_encode_txn(&buf, a);
	CU_ASSERT_EQUAL(xrtp_decode_txn(buf.u, buf.n, b), -1);
	sb_free(&buf);

	r->status = AIETH_TXN_TIMEOUT;
	r->run_state = AIETH_ERT_RUNNING;
	r->have_ctrl = 1;
	r->ctrl = 1;
	strcpy(r->msg, "still running");
	r->nperf = 64;
	r->perf[63] = 99;
	xrtp_encode_txn_rep(&buf, r);
	CU_ASSERT_EQUAL(xrtp_decode_txn_rep(buf.u, buf.n, s), 0);
	CU_ASSERT_EQUAL(s->perf[63], 99);
	CU_ASSERT_STRING_EQUAL(s->msg, "still running");
	CU_ASSERT_EQUAL(xrtp_decode_txn_rep(buf.u, buf.n - 1, s), -1);
	sb_free(&buf);
	r->status = 9; /* not an aieth_txn_status */
	xrtp_encode_txn_rep(&buf, r);
	CU_ASSERT_EQUAL(xrtp_decode_txn_rep(buf.u, buf.n, s), -1);
	sb_free(&buf);
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
	xrtp_put_blob(&buf, "ab\0c", 4); /* a NUL inside a string */
	r = (xrtp_rd){buf.u, buf.n, 0, 0};
	xrtp_get_str(&r, small, sizeof small);
	CU_ASSERT(r.err);
	sb_free(&buf);
	xrtp_put_str(&buf, "abcd"); /* longer than the destination */
	r = (xrtp_rd){buf.u, buf.n, 0, 0};
	xrtp_get_str(&r, small, sizeof small);
	CU_ASSERT(r.err);
	CU_ASSERT_STRING_EQUAL(small, "");
	sb_free(&buf);
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

TU_MAIN("xrt", {"protocol: open round trip, truncations", test_open_roundtrip},
	{"protocol: transaction round trip", test_txn_roundtrip},
	{"protocol: strings", test_strings}, {"RTP on the emulated board", test_rtp_emu},
	{"library path", test_lib_path}, {"dlopen failures", test_load_missing})
