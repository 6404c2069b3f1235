/* SPDX-License-Identifier: MIT */
/* fail_create.c - test plugin: create fails with a message quoting params. */
#include <stdio.h>

#include "aieth_model.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	(void)out;
	snprintf(env->err, env->err_size, "refusing on purpose (params: %s)",
		 params ? params : "none");
	return 7;
}
