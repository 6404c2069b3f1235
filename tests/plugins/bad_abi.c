/* SPDX-License-Identifier: MIT */
/* bad_abi.c - test plugin: a model of ABI version 99 (the loader must reject it). */
#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k = base_model(out);
	(void)env;
	(void)params;
	if (!k)
		return -1;
	out->abi_version = 99;
	return 0;
}
