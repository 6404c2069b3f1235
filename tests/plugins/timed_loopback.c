/* SPDX-License-Identifier: MIT */
/*
 * timed_loopback.c - test plugin: the two-kernel loopback of plugin_base.h
 * with the optional per-iteration timing hook (aieth_model.iteration_timing).
 * Kernel k0's iterations take (cycles, latency) (5,0), (2,3), (1,0), (4,1),
 * then repeat that every 4 iterations (timing_period 4); k1 keeps its fixed
 * timing. params "bad_cycles": iteration 2 of k0 gets 0 cycles;
 * "bad_period": a timing_period above the limit. Used by test_graph_models.c and
 * tests/e2e/aie/model_timing.sh.
 */
#include "plugin_base.h"

static const uint64_t cyc[4] = {5, 2, 1, 4}, lat[4] = {0, 3, 0, 1};
static int bad_cycles;

static int timing(void *ctx, uint32_t kernel, uint64_t first, uint64_t count, uint64_t *cycles,
		  uint64_t *latency)
{
	const aieth_model_kernel *k = ctx;
	uint64_t j;
	if (kernel > 1)
		return -1;
	for (j = 0; j < count; j++) {
		uint64_t i = first + j;
		cycles[j] = kernel ? k[1].cycles_per_iteration : cyc[i % 4];
		latency[j] = kernel ? k[1].latency : lat[i % 4];
		if (!kernel && bad_cycles && i == 2)
			cycles[j] = 0;
	}
	return 0;
}

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	(void)env;
	if (!base_model(out))
		return -1;
	bad_cycles = params && strstr(params, "bad_cycles") != NULL;
	out->iteration_timing = timing;
	out->timing_period = params && strstr(params, "bad_period") ? 2000000000ull : 4;
	return 0;
}
