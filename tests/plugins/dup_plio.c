/* SPDX-License-Identifier: MIT */
/* dup_plio.c - test plugin: two ports on the same PLIO (PLIO_01_FROM_AIE in two kernels). */
#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k = base_model(out);
	(void)env;
	(void)params;
	if (!k)
		return -1;
	strcpy(k[1].outputs[0].plio, "PLIO_01_FROM_AIE");
	return 0;
}
