/* SPDX-License-Identifier: MIT */
/*
 * xrt_child.h - the child process of the xrt backend (xrt_child.c) and the
 * process that runs it under the parent's watchdog (xrt_proc.c).
 */
#ifndef AIETH_XRT_CHILD_H
#define AIETH_XRT_CHILD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/xrt/xrt_proto.h"

#if defined(__GNUC__)
#define AIETH_CHILD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define AIETH_NORETURN __attribute__((noreturn))
#else
#define AIETH_CHILD_PRINTF(f, a)
#define AIETH_NORETURN
#endif

/* Serve requests on fd until CLOSE or until the parent goes away; never
 * returns. The process ends with _exit, or after CLOSE with exit when
 * clean_exit is set: XRT's profiling plugins write their last files from
 * their static destructors (Xilinx/XRT, xdp/profile/plugin/aie_trace/
 * aie_trace_plugin.cpp; xdp/profile/database/static_info_database.cpp
 * writes xrt.run_summary there), as at the end of AMD's host program. */
void aieth__xrt_child_main(int fd, int clean_exit) AIETH_NORETURN;

/* A child process under watchdog. */
typedef struct {
	pid_t pid;      /* 0: none */
	xrtp_chan ch;   /* socket + the child's stdout/stderr pipe */
	char out[4096]; /* the tail of what the child printed (XRT) */
	size_t outlen;
	int status; /* waitpid status once reaped */
	int reaped;
} aieth_xrt_proc;

/* Fork the child. run_dir (may be NULL): the folder it works in, with
 * XRT_INI_PATH naming run_dir/xrt.ini (xrt_rundir.c); it then ends with
 * exit after CLOSE. AIETH_OK or AIETH_EDEVICE. */
int aieth__xrt_proc_start(aieth_xrt_proc *p, const char *run_dir);
/* Send a request and receive its reply before deadline_ms (aieth__xrtp_now_ms
 * time, < 0 none). 0, or -1 with errno ETIMEDOUT (no reply in time) or
 * ECONNRESET/EPIPE (the child is gone). *payload: caller frees. */
int aieth__xrt_proc_call(aieth_xrt_proc *p, uint32_t type, const void *req, size_t len,
			 int64_t deadline_ms, xrtp_hdr *h, uint8_t **payload);
/* End the child: SIGTERM, then SIGKILL after grace_ms; reaps it. */
void aieth__xrt_proc_kill(aieth_xrt_proc *p, int grace_ms);
/* Wait up to ms for the child to exit by itself (after CLOSE or a crash);
 * 1 when it has been reaped. */
int aieth__xrt_proc_reap(aieth_xrt_proc *p, int ms);
/* The error, warning and abort lines the child printed, on one line
 * ("; XRT printed: ..."), or "" when none. */
void aieth__xrt_proc_said(const aieth_xrt_proc *p, char *buf, size_t size);
/* How the child ended ("killed by signal 6 (Aborted)", "exited with status
 * 1"), plus the last lines it printed, into buf. */
void aieth__xrt_proc_describe(aieth_xrt_proc *p, char *buf, size_t size);

#endif
