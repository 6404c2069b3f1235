/* SPDX-License-Identifier: MIT */
/* no_entry.c - test plugin: a shared object that does not export
 * aieth_model_create (only a look-alike name). */
#include "aieth_model.h"

int aieth_model_create_v0(const aieth_model_env *env, const char *params, aieth_model *out);

int aieth_model_create_v0(const aieth_model_env *env, const char *params, aieth_model *out)
{
	(void)env;
	(void)params;
	(void)out;
	return -1;
}
