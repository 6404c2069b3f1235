/* SPDX-License-Identifier: MIT */
/*
 * backend.c - the table of device backends: the one place that knows their
 * names (as aie-rt's io_backend/xaie_io.c keeps its IOBackend array). A new
 * backend is one line here; its options, their check and its operations
 * live in its own file.
 */
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "util/error.h"

static const aieth_backend_ops *const backends[] = {
	&aieth__backend_emu, /* the first is the default */
	&aieth__backend_xrt,
	&aieth__backend_remote,
};

#define NBACKENDS (sizeof backends / sizeof backends[0])

const char *aieth_backend_name(size_t i) { return i < NBACKENDS ? backends[i]->name : NULL; }

const char *aieth_backend_description(size_t i)
{
	return i < NBACKENDS ? backends[i]->description : NULL;
}

int aieth_backend_local(const char *name)
{
	const aieth_backend_ops *b = aieth__backend_find(name);
	return b ? !!(b->flags & AIETH_BACKEND_LOCAL) : AIETH_EUNSUPPORTED;
}

unsigned int aieth_backend_flags(const char *name)
{
	const aieth_backend_ops *b = aieth__backend_find(name);
	return b ? b->flags : 0;
}

const aieth_backend_ops *aieth__backend_find(const char *name)
{
	char list[128];
	size_t i, n = 0;
	if (!name)
		return backends[0];
	for (i = 0; i < NBACKENDS; i++)
		if (!strcmp(name, backends[i]->name))
			return backends[i];
	list[0] = '\0';
	for (i = 0; i < NBACKENDS && n < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "",
				      backends[i]->name);
	aieth__fail(AIETH_EUNSUPPORTED, "session: unknown backend \"%s\" (available: %s)", name,
		    list);
	return NULL;
}

int aieth__backend_check(const aieth_dev_config *cfg, const aieth_backend_ops *selected)
{
	size_t i;
	int rc;
	/* the others first: each checks its own struct's version before it
	 * reads it, and the selected one may read theirs (remote refuses the
	 * emulator's reference mode rather than ignore it) */
	for (i = 0; i < NBACKENDS; i++)
		if (backends[i] != selected && backends[i]->check &&
		    (rc = backends[i]->check(cfg, 0)))
			return rc;
	if (selected->check && (rc = selected->check(cfg, 1)))
		return rc;
	return AIETH_OK;
}
