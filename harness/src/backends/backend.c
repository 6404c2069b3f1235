/* SPDX-License-Identifier: MIT */
/*
 * backend.c - the table of device backends.
 */
#include <string.h>

#include "backends/backend.h"

const aieth_backend_ops *aieth__backend_find(const char *name)
{
	if (!name || !strcmp(name, "emu"))
		return &aieth__backend_emu;
	if (!strcmp(name, "xrt"))
		return &aieth__backend_xrt;
	if (!strcmp(name, "remote"))
		return &aieth__backend_remote;
	return NULL;
}
