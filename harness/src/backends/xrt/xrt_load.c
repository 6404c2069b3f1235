/* SPDX-License-Identifier: MIT */
/*
 * xrt_load.c - load XRT's C API (libxrt_coreutil, or a stand-in) with
 * dlopen and resolve the functions the xrt backend uses.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "backends/xrt/xrt_api.h"
#include "util/error.h"

const char *aieth__xrt_lib_path(char *buf, size_t size)
{
	const char *env = getenv("AIETH_XRT_LIB"), *root = getenv("XILINX_XRT");
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return buf;
	}
	if (root && *root) {
		snprintf(buf, size, "%s/lib/libxrt_coreutil.so.2", root);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	snprintf(buf, size, "libxrt_coreutil.so.2");
	return buf;
}

#define SYM(field, name)                             \
	{                                            \
		offsetof(aieth_xrt_api, field), name \
	}

static const struct {
	size_t off;
	const char *name;
} syms[] = {
	SYM(device_open, "xrtDeviceOpen"),
	SYM(device_close, "xrtDeviceClose"),
	SYM(device_load_xclbin_file, "xrtDeviceLoadXclbinFile"),
	SYM(device_get_xclbin_uuid, "xrtDeviceGetXclbinUUID"),
	SYM(pl_kernel_open_exclusive, "xrtPLKernelOpenExclusive"),
	SYM(kernel_close, "xrtKernelClose"),
	SYM(kernel_arg_group_id, "xrtKernelArgGroupId"),
	SYM(kernel_read_register, "xrtKernelReadRegister"),
	SYM(kernel_write_register, "xrtKernelWriteRegister"),
	SYM(run_open, "xrtRunOpen"),
	SYM(run_set_arg, "xrtRunSetArg"),
	SYM(run_start, "xrtRunStart"),
	SYM(run_wait_for, "xrtRunWaitFor"),
	SYM(run_state, "xrtRunState"),
	SYM(run_close, "xrtRunClose"),
	SYM(bo_alloc, "xrtBOAlloc"),
	SYM(bo_free, "xrtBOFree"),
	SYM(bo_sync, "xrtBOSync"),
	SYM(bo_map, "xrtBOMap"),
	SYM(graph_open, "xrtGraphOpen"),
	SYM(graph_close, "xrtGraphClose"),
	SYM(graph_reset, "xrtGraphReset"),
	SYM(graph_run, "xrtGraphRun"),
	SYM(graph_wait_done, "xrtGraphWaitDone"),
	SYM(graph_end, "xrtGraphEnd"),
	SYM(graph_update_rtp, "xrtGraphUpdateRTP"),
	SYM(graph_read_rtp, "xrtGraphReadRTP"),
	SYM(aie_device_open, "xrtAIEDeviceOpen"),
	SYM(aie_reset_array, "xrtAIEResetArray"),
};

int aieth__xrt_api_load(aieth_xrt_api *api, const char *path)
{
	size_t i;
	memset(api, 0, sizeof *api);
	snprintf(api->path, sizeof api->path, "%s", path);
	dlerror();
	api->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!api->dl) {
		const char *e = dlerror();
		return aieth__fail(AIETH_EUNSUPPORTED,
				   "xrt: cannot load XRT's C API from %s: %s (install XRT, or set "
				   "AIETH_XRT_LIB or XILINX_XRT; see docs/on-board.md)",
				   path, e ? e : "unknown error");
	}
	for (i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *f = dlsym(api->dl, syms[i].name);
		if (!f) {
			aieth__xrt_api_unload(api);
			return aieth__fail(AIETH_EDEVICE,
					   "xrt: %s does not export %s (XRT 2.13 or newer is "
					   "needed)",
					   path, syms[i].name);
		}
		/* function pointers share the object pointer representation on
		 * every platform dlsym supports (POSIX) */
		memcpy((char *)api + syms[i].off, &f, sizeof f);
	}
	return AIETH_OK;
}

void aieth__xrt_api_unload(aieth_xrt_api *api)
{
	if (api->dl)
		dlclose(api->dl);
	api->dl = NULL;
}
