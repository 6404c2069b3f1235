/* SPDX-License-Identifier: MIT */
/*
 * good_source.c - test plugin: a source kernel (no input, one output).
 *
 * Kernel "source" writes to PLIO_01_FROM_AIE windows of 64 bytes: sixteen
 * little-endian uint32 counting on from one iteration to the next (word j of
 * iteration n is n * 16 + j), so the stream is 0, 1, 2, ... whatever
 * iterations the emulator computes. Params: none (NULL, "" or "{}").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth_model.h"

#define WORDS 16u

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

static int source_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			  uint8_t *const *o)
{
	uint64_t i;
	(void)ctx;
	(void)in;
	for (i = 0; i < count * WORDS; i++) {
		uint32_t v = (uint32_t)(first * WORDS + i);
		uint8_t *p = o[0] + i * 4;
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)(v >> 8);
		p[2] = (uint8_t)(v >> 16);
		p[3] = (uint8_t)(v >> 24);
	}
	return 0;
}

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	aieth_model_kernel *k;
	if (params && *params && strcmp(params, "{}") != 0) {
		snprintf(env->err, env->err_size, "good_source: takes no params");
		return -1;
	}
	k = calloc(1, sizeof *k);
	if (!k) {
		snprintf(env->err, env->err_size, "good_source: out of memory");
		return -1;
	}
	strcpy(k->name, "source");
	k->num_inputs = 0;
	k->num_outputs = 1;
	strcpy(k->outputs[0].plio, "PLIO_01_FROM_AIE");
	k->outputs[0].bytes_per_iteration = WORDS * 4;
	k->cycles_per_iteration = 4;
	k->latency = 2;
	k->compute = source_compute;
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = 1;
	out->kernels = k;
	out->ctx = k;
	out->destroy = free;
	return 0;
}
