/* SPDX-License-Identifier: MIT */
/*
 * flaky_copy.c - test plugin: the loopback of plugin_base.h that gets one
 * iteration wrong: params {"bad_iteration": N} flip the first byte kernel
 * k0 writes in its iteration N (counted from the graph's start, so across
 * repeated runs: only the run that computes iteration N sees a wrong
 * value; tests/e2e/campaign/run_repeat.sh). Without params it copies faithfully.
 */
#include <stdio.h>

#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

static unsigned long long bad_iteration = (unsigned long long)-1;

static int flaky_copy(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
		      uint8_t *const *o)
{
	(void)ctx;
	memcpy(o[0], in[0], (size_t)count * 16);
	if (bad_iteration >= first && bad_iteration - first < count)
		o[0][(bad_iteration - first) * 16] ^= 0x5a;
	return 0;
}

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k;
	if (params && *params && strcmp(params, "{}") &&
	    sscanf(params, "{\"bad_iteration\":%llu}", &bad_iteration) != 1) {
		snprintf(env->err, env->err_size,
			 "flaky_copy: params: expected {\"bad_iteration\": N}, got %s", params);
		return -1;
	}
	if (!(k = base_model(out))) {
		snprintf(env->err, env->err_size, "flaky_copy: out of memory");
		return -1;
	}
	k[0].compute = flaky_copy;
	return 0;
}
