/* SPDX-License-Identifier: MIT */
/*
 * xrt_rundir.h - the session folder XRT runs in when the session carries an
 * xrt.ini (xrt_rundir.c): the child process works there, XRT reads the
 * xrt.ini there and writes its trace and status files there, and at close
 * those files become the session's artifacts.
 */
#ifndef AIETH_XRT_RUNDIR_H
#define AIETH_XRT_RUNDIR_H

#include "backends/backend.h"

/* Create the session folder inside artifacts_dir (made when missing)
 * and write the xrt.ini XRT will read there: xrt_ini with only the
 * keys that configure XRT's trace, profile and status (the others are
 * kept as comments saying why). *dir: malloc'd path (caller frees). */
int aieth__xrt_rundir_open(const char *xrt_ini, const char *artifacts_dir, char **dir);

/* After the child has exited: move every regular file of dir into
 * artifacts_dir (no link followed, plain names only, within the
 * artifact limits of backend.h), tell cfg->opts.artifact of each, tell
 * cfg->opts.artifact_error why a file was left out, and remove dir. */
void aieth__xrt_rundir_collect(const aieth_dev_config *cfg, const char *artifacts_dir,
			       uint64_t max_bytes, const char *dir);

#endif
