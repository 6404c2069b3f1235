/* SPDX-License-Identifier: MIT */
/*
 * slow_loopback.c - test plugin: the two-kernel loopback of plugin_base.h
 * (PLIO_01 and PLIO_02, 16-byte windows) whose compute takes 1.5 s of wall
 * time per call, so that a transaction is still running when a client's
 * wait of a few hundred milliseconds ends (tests/e2e/amd/amd_listen.sh). The
 * output stays a pure function of the input.
 */
#include <time.h>

#include "plugin_base.h"

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

static int slow_copy(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
		     uint8_t *const *o)
{
	struct timespec ts = {1, 500000000L};
	nanosleep(&ts, NULL);
	return base_copy(ctx, first, count, in, o);
}

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k;
	(void)env;
	(void)params;
	if (!(k = base_model(out)))
		return -1;
	k[0].compute = k[1].compute = slow_copy;
	return 0;
}
