/* SPDX-License-Identifier: MIT */
/* bad_bytes.c - test plugin: a port of 24 bytes per iteration (not a multiple of 16). */
#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k = base_model(out);
	(void)env;
	(void)params;
	if (!k)
		return -1;
	k[1].outputs[0].bytes_per_iteration = 24;
	return 0;
}
