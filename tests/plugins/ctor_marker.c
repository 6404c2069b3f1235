/* SPDX-License-Identifier: MIT */
/*
 * ctor_marker.c - test plugin: the valid two-kernel loopback of
 * plugin_base.h whose constructor, run by dlopen before anything else,
 * creates the file $AIETH_TEST_CTOR_MARKER: the proof that a process
 * loaded it (tests/e2e/server/server_names.sh: th_server must never load a
 * plugin a client names by path).
 */
#include <stdio.h>
#include <stdlib.h>

#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

__attribute__((constructor)) static void ctor_marker(void)
{
	const char *p = getenv("AIETH_TEST_CTOR_MARKER");
	FILE *f;
	if (p && *p && (f = fopen(p, "w")))
		fclose(f);
}

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	(void)params;
	if (!base_model(out)) {
		snprintf(env->err, env->err_size, "ctor_marker: out of memory");
		return -1;
	}
	return 0;
}
