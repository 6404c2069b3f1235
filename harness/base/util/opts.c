/* SPDX-License-Identifier: MIT */
/*
 * opts.c - the version check of caller-filled structs (util/opts.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/opts.h"

/* "aieth_remote_opts" -> "AIETH_REMOTE_OPTS_INIT" */
static void init_macro(const char *type, char *out, size_t size)
{
	size_t i;
	for (i = 0; type[i] && i + 6 < size; i++)
		out[i] = (char)toupper((unsigned char)type[i]);
	snprintf(out + i, size - i, "_INIT");
}

static void known(unsigned int newest, char *out, size_t size)
{
	if (newest == 1)
		snprintf(out, size, "version 1");
	else
		snprintf(out, size, "versions 1 to %u", newest);
}

int aieth__opts_version(const char *where, const char *type, unsigned int version,
			unsigned int newest)
{
	char mac[96], kn[48];
	if (version >= 1 && version <= newest)
		return AIETH_OK;
	init_macro(type, mac, sizeof mac);
	known(newest, kn, sizeof kn);
	if (!version)
		return aieth__fail(AIETH_EINVAL,
				   "%s.version is 0: initialise it with %s or %s_init "
				   "(this library knows %s)",
				   where, mac, type, kn);
	return aieth__fail(AIETH_EINVAL,
			   "%s.version is %u: this library knows %s of %s (a "
			   "newer library's struct? initialise it with %s or %s_init)",
			   where, version, kn, type, mac, type);
}

int aieth__opts_init(const char *fn, void *opts, const void *init, size_t size,
		     unsigned int version, unsigned int newest)
{
	char kn[48];
	if (!opts)
		return aieth__fail(AIETH_EINVAL, "%s: NULL options", fn);
	if (version < 1 || version > newest) {
		known(newest, kn, sizeof kn);
		return aieth__fail(AIETH_EINVAL,
				   "%s: version %u is unknown (this library knows %s)", fn, version,
				   kn);
	}
	memcpy(opts, init, size);
	return AIETH_OK;
}
