/* SPDX-License-Identifier: MIT */
/*
 * xrt_preflight.c - checks the xrt backend makes before it touches the
 * device, each with a message that says what to fix (docs/on-board.md):
 * XRT's environment (XRT aborts the process when XILINX_XRT is wrong),
 * the xclbin files (the strict reader), the graph names against the AIE
 * xclbin's AIE_METADATA, and the board against both xclbins.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/xrt/xrt_preflight.h"
#include "util/error.h"

/* XRT loads its shim from $XILINX_XRT/lib/<shim>.so.2 and aborts the
 * process (std::terminate) when that fails (XRT's core/common/module_loader.cpp). */
static int check_env(void)
{
	const char *root = getenv("XILINX_XRT"), *mode = getenv("XCL_EMULATION_MODE");
	const char *shim = "libxrt_core.so.2";
	char path[1024];

	if (getenv("AIETH_XRT_LIB") && *getenv("AIETH_XRT_LIB")) {
		const char *lib = getenv("AIETH_XRT_LIB");
		if (strchr(lib, '/') && access(lib, R_OK))
			return aieth__fail(AIETH_EDEVICE,
					   "xrt pre-flight: AIETH_XRT_LIB=%s: no such "
					   "readable file",
					   lib);
		return AIETH_OK; /* the user chose the library; XRT's rules may not apply */
	}
	if (!root || !*root)
		return aieth__fail(
			AIETH_EDEVICE,
			"xrt pre-flight: XILINX_XRT is not set; XRT aborts the process "
			"without it (on the board: export XILINX_XRT=/usr; on Debian: a "
			"folder whose lib/ links the libxrt_*.so.2 of /usr/lib/<arch>, see "
			"docs/on-board.md)");
	if (mode) {
		if (!strcmp(mode, "noop"))
			shim = "libxrt_noop.so.2";
		else if (!strcmp(mode, "sw_emu") || !strcmp(mode, "hw_emu"))
			return aieth__fail(
				AIETH_EUNSUPPORTED,
				"xrt pre-flight: XCL_EMULATION_MODE=%s needs Vitis' "
				"device models (without them XRT exits or hangs); use the "
				"emulated board (--backend emu) or noop",
				mode);
		else
			return aieth__fail(
				AIETH_EDEVICE,
				"xrt pre-flight: XCL_EMULATION_MODE=\"%s\": XRT aborts the "
				"process on it (accepted: noop, sw_emu, hw_emu, or unset for "
				"the device)",
				mode);
	}
	snprintf(path, sizeof path, "%s/lib/%s", root, shim);
	if (access(path, R_OK))
		return aieth__fail(
			AIETH_EDEVICE,
			"xrt pre-flight: XILINX_XRT=%s but %s does not exist; XRT loads its "
			"driver library from there and aborts the process without it (on "
			"Debian the libraries are in /usr/lib/<arch>: point XILINX_XRT at a "
			"folder whose lib/ links them, see docs/on-board.md)",
			root, path);
	return AIETH_OK;
}

static int check_file(const char *what, const char *path, aieth_xclbin **x)
{
	int rc;
	if (access(path, R_OK))
		return aieth__fail(AIETH_EIO, "xrt pre-flight: %s %s: cannot be read", what, path);
	rc = aieth_xclbin_open(x, path, 0);
	if (rc)
		return aieth__fail_prefix(rc == AIETH_ENOMEM ? rc : AIETH_EPARSE,
					  "xrt pre-flight: %s", what);
	return AIETH_OK;
}

/* Case-insensitive: does the VBNV name the board? */
static int vbnv_names(const char *vbnv, const char *board)
{
	size_t n = strlen(board), i, j;
	for (i = 0; vbnv[i]; i++) {
		for (j = 0; j < n && vbnv[i + j] &&
			    tolower((unsigned char)vbnv[i + j]) == tolower((unsigned char)board[j]);
		     j++)
			;
		if (j == n)
			return 1;
	}
	return 0;
}

static int check_vbnv(const char *what, const aieth_xclbin *x, const aieth_board_info *bi)
{
	const char *vbnv = aieth_xclbin_get_header(x)->vbnv;
	if (*vbnv && !vbnv_names(vbnv, bi->name))
		return aieth__fail(
			AIETH_EINVAL,
			"xrt pre-flight: %s %s was built for platform \"%s\", not for the "
			"%s (board file platform \"%s\")",
			what, aieth_xclbin_path(x), vbnv, bi->name, bi->base_platform);
	return AIETH_OK;
}

typedef struct {
	char text[1024];
	size_t n, count;
} problems;

static void add_problem(void *ctx, const char *line)
{
	problems *p = ctx;
	if (p->count++ < 3 && p->n < sizeof p->text)
		p->n += (size_t)snprintf(p->text + p->n, sizeof p->text - p->n, "%s%s",
					 p->n ? "; " : "", line);
}

static int check_graphs(const aieth_preflight_in *in, const aieth_xclbin *x)
{
	aieth_aie_meta *m = NULL;
	problems pr;
	size_t i, j, ng;
	int rc = aieth_xclbin_aie_meta(x, &m);

	if (rc)
		return aieth__fail_prefix(rc == AIETH_ENOMEM ? rc : AIETH_EPARSE,
					  "xrt pre-flight: AIE xclbin %s: no usable AIE_METADATA",
					  in->aie_xclbin);
	ng = aieth_aie_meta_num_graphs(m);
	for (i = 0; i < in->ngraphs; i++) {
		aieth_aie_graph g;
		int found = 0;
		for (j = 0; j < ng && !found; j++)
			found = aieth_aie_meta_graph(m, j, &g) == AIETH_OK &&
				!strcmp(g.name, in->graphs[i]);
		if (!found) {
			char list[512];
			size_t n = 0;
			list[0] = '\0';
			for (j = 0; j < ng && n + 1 < sizeof list; j++)
				if (aieth_aie_meta_graph(m, j, &g) == AIETH_OK)
					n += (size_t)snprintf(list + n, sizeof list - n, "%s\"%s\"",
							      n ? ", " : "", g.name);
			aieth_aie_meta_free(m);
			return aieth__fail(
				AIETH_ENOTFOUND,
				"xrt pre-flight: graph \"%s\" is not in the AIE_METADATA "
				"of %s (graphs found: %s)",
				in->graphs[i], in->aie_xclbin, ng ? list : "none");
		}
	}
	memset(&pr, 0, sizeof pr);
	if (aieth_aie_meta_check(m, in->board, add_problem, &pr)) {
		aieth_aie_meta_free(m);
		return aieth__fail(AIETH_EINVAL,
				   "xrt pre-flight: AIE xclbin %s does not match the %s: %s%s",
				   in->aie_xclbin, aieth_board_get_info(in->board)->name, pr.text,
				   pr.count > 3 ? " (and more: th_package check lists them)" : "");
	}
	aieth_aie_meta_free(m);
	return AIETH_OK;
}

int aieth__xrt_preflight(const aieth_preflight_in *in)
{
	const aieth_board_info *bi = aieth_board_get_info(in->board);
	aieth_xclbin *x = NULL;
	int rc;

	if ((rc = check_env()))
		return rc;
	if ((rc = check_file("PL xclbin", in->pl_xclbin, &x)))
		return rc;
	rc = check_vbnv("PL xclbin", x, bi);
	aieth_xclbin_close(x);
	if (rc)
		return rc;
	if (!in->aie_xclbin) {
		if (in->ngraphs)
			return aieth__fail(AIETH_EINVAL,
					   "xrt pre-flight: the test has graphs but no AIE xclbin "
					   "(\"xclbin\" in the description, th_package builds it)");
		return AIETH_OK;
	}
	if ((rc = check_file("AIE xclbin", in->aie_xclbin, &x)))
		return rc;
	rc = check_vbnv("AIE xclbin", x, bi);
	if (!rc)
		rc = check_graphs(in, x);
	aieth_xclbin_close(x);
	return rc;
}
