/* SPDX-License-Identifier: MIT */
/* bad_name.c - test plugin: a port named "PLIO_1_TO_AIE" (not the canonical PLIO_01_TO_AIE). */
#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k = base_model(out);
	(void)env;
	(void)params;
	if (!k)
		return -1;
	strcpy(k[1].inputs[0].plio, "PLIO_1_TO_AIE");
	return 0;
}
