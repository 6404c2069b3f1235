/* SPDX-License-Identifier: MIT */
/*
 * xrt_api.h - the subset of XRT's C API the xrt backend uses, as a table of
 * function pointers resolved at run time with dlopen (xrt_load.c). libaieth
 * never links XRT: the emulated board works where XRT is not installed, and
 * a test double exporting the same C symbols (tests/xrt_double/) can stand
 * in for libxrt_coreutil (AIETH_XRT_LIB).
 *
 * The prototypes mirror /usr/include/xrt/xrt/xrt_{device,kernel,bo,graph,
 * aie}.h of XRT 2.13 without including them (enum parameters and results
 * are unsigned int, handles void *, a uuid 16 bytes); tests/unit/
 * test_xrt_api.c checks them against the real headers at compile time.
 */
#ifndef AIETH_XRT_API_H
#define AIETH_XRT_API_H

#include <stddef.h>
#include <stdint.h>

/* ert_cmd_state values (xrt/ert.h) */
#define AIETH_ERT_NEW 1u
#define AIETH_ERT_QUEUED 2u
#define AIETH_ERT_RUNNING 3u
#define AIETH_ERT_COMPLETED 4u
#define AIETH_ERT_ERROR 5u
#define AIETH_ERT_ABORT 6u
#define AIETH_ERT_SUBMITTED 7u
#define AIETH_ERT_TIMEOUT 8u
#define AIETH_ERT_NORESPONSE 9u
/* xclBOSyncDirection (xrt.h) */
#define AIETH_XCL_BO_SYNC_TO_DEVICE 0u
#define AIETH_XCL_BO_SYNC_FROM_DEVICE 1u

typedef unsigned char aieth_xuid[16];

typedef void *(*xrt_device_open_fn)(unsigned int index);
typedef int (*xrt_device_close_fn)(void *dev);
typedef int (*xrt_device_load_xclbin_file_fn)(void *dev, const char *path);
typedef int (*xrt_device_get_xclbin_uuid_fn)(void *dev, unsigned char *out);
typedef void *(*xrt_pl_kernel_open_fn)(void *dev, const unsigned char *uuid, const char *name);
typedef int (*xrt_kernel_close_fn)(void *kernel);
typedef int (*xrt_kernel_arg_group_id_fn)(void *kernel, int argno);
typedef int (*xrt_kernel_read_register_fn)(void *kernel, uint32_t offset, uint32_t *data);
typedef int (*xrt_kernel_write_register_fn)(void *kernel, uint32_t offset, uint32_t data);
typedef void *(*xrt_run_open_fn)(void *kernel);
typedef int (*xrt_run_set_arg_fn)(void *run, int index, ...);
typedef int (*xrt_run_start_fn)(void *run);
typedef unsigned int (*xrt_run_wait_for_fn)(void *run, unsigned int timeout_ms);
typedef unsigned int (*xrt_run_state_fn)(void *run);
typedef int (*xrt_run_close_fn)(void *run);
typedef void *(*xrt_bo_alloc_fn)(void *dev, size_t size, uint64_t flags, uint32_t group);
typedef int (*xrt_bo_free_fn)(void *bo);
typedef int (*xrt_bo_sync_fn)(void *bo, unsigned int dir, size_t size, size_t offset);
typedef void *(*xrt_bo_map_fn)(void *bo);
typedef void *(*xrt_graph_open_fn)(void *dev, const unsigned char *uuid, const char *name);
typedef void (*xrt_graph_close_fn)(void *graph);
typedef int (*xrt_graph_reset_fn)(void *graph);
typedef int (*xrt_graph_run_fn)(void *graph, int iterations);
typedef int (*xrt_graph_wait_done_fn)(void *graph, int timeout_ms);
typedef int (*xrt_graph_end_fn)(void *graph, uint64_t cycle);
typedef int (*xrt_graph_update_rtp_fn)(void *graph, const char *port, const char *buf, size_t size);
typedef int (*xrt_graph_read_rtp_fn)(void *graph, const char *port, char *buf, size_t size);
typedef void *(*xrt_aie_device_open_fn)(unsigned int index);
typedef int (*xrt_aie_reset_array_fn)(void *dev);

typedef struct {
	void *dl;       /* the dlopen handle */
	char path[512]; /* the library that was loaded */
	xrt_device_open_fn device_open;
	xrt_device_close_fn device_close;
	xrt_device_load_xclbin_file_fn device_load_xclbin_file;
	xrt_device_get_xclbin_uuid_fn device_get_xclbin_uuid;
	xrt_pl_kernel_open_fn pl_kernel_open_exclusive;
	xrt_kernel_close_fn kernel_close;
	xrt_kernel_arg_group_id_fn kernel_arg_group_id;
	xrt_kernel_read_register_fn kernel_read_register;
	xrt_kernel_write_register_fn kernel_write_register;
	xrt_run_open_fn run_open;
	xrt_run_set_arg_fn run_set_arg;
	xrt_run_start_fn run_start;
	xrt_run_wait_for_fn run_wait_for;
	xrt_run_state_fn run_state;
	xrt_run_close_fn run_close;
	xrt_bo_alloc_fn bo_alloc;
	xrt_bo_free_fn bo_free;
	xrt_bo_sync_fn bo_sync;
	xrt_bo_map_fn bo_map;
	xrt_graph_open_fn graph_open;
	xrt_graph_close_fn graph_close;
	xrt_graph_reset_fn graph_reset;
	xrt_graph_run_fn graph_run;
	xrt_graph_wait_done_fn graph_wait_done;
	xrt_graph_end_fn graph_end;
	xrt_graph_update_rtp_fn graph_update_rtp;
	xrt_graph_read_rtp_fn graph_read_rtp;
	xrt_aie_device_open_fn aie_device_open;
	xrt_aie_reset_array_fn aie_reset_array;
} aieth_xrt_api;

/* The library to load: $AIETH_XRT_LIB, else $XILINX_XRT/lib/
 * libxrt_coreutil.so.2 when that file exists, else the soname
 * "libxrt_coreutil.so.2" (the dynamic loader's search path). Never NULL;
 * buf receives the path. */
const char *aieth__xrt_lib_path(char *buf, size_t size);

/* dlopen the library and resolve every function of the table. On failure
 * returns AIETH_EUNSUPPORTED (library missing) or AIETH_EDEVICE (a symbol
 * missing) with the library and symbol named. */
int aieth__xrt_api_load(aieth_xrt_api *api, const char *path);
void aieth__xrt_api_unload(aieth_xrt_api *api);

#endif
