/* SPDX-License-Identifier: MIT */
/*
 * builtin.c - the built-in graph models by name (the registry that
 * load.c asks before it tries a plugin).
 */
#include <string.h>

#include "pl_dma/models/aiesim.h"
#include "pl_dma/models/models.h"

typedef struct {
	const char *name;
	aieth_model_create_fn create;
} builtin;

static const builtin builtins[] = {
	{"loopback", aieth__model_loopback_create},
	{"adder", aieth__model_adder_create},
	{"aiesim", aieth__model_aiesim_create},
	{"route", aieth__model_route_create},
};

static const char *const builtin_names[] = {"loopback", "adder", "aiesim", "route", NULL};

const char *const *aieth__builtin_model_names(void) { return builtin_names; }

int aieth__builtin_model_create(const char *name, const aieth_model_env *env, const char *params,
				aieth_model *out)
{
	size_t i;
	if (!name)
		return 1;
	for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(name, builtins[i].name) == 0)
			return builtins[i].create(env, params, out) == 0 ? 0 : -1;
	return 1;
}
