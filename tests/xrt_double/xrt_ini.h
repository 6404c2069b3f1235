/* SPDX-License-Identifier: MIT */
/*
 * xrt_ini.h - the test double's xrt.ini and the files XRT would write
 * (xrt_ini.c).
 */
#ifndef AIETH_XRT_DOUBLE_INI_H
#define AIETH_XRT_DOUBLE_INI_H

/* Read the xrt.ini once (XRT_INI_PATH, the executable's folder, the
 * working folder). */
void dbl_ini_load(void);
/* The file read, or "" when none. */
const char *dbl_ini_path(void);
/* A graph run of iterations (-1: forever), for the trace's contents. */
void dbl_ini_graph_run(const char *name, long long iterations);
/* The device opened: xrt.run_summary when a file will be written. */
void dbl_ini_device_open(void);
/* The device closed: the trace, status and profile files. */
void dbl_ini_device_close(void);

#endif
