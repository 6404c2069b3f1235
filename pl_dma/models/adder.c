/* SPDX-License-Identifier: MIT */
/* adder.c - the "adder" built-in model: out = in0 + in1 (int32, wrapping). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/le.h"

#define M "adder"
#define MAX_LATENCY 1000000u

typedef struct {
	uint64_t window;
	uint64_t stall_at; /* 0: never; else iterations stall_at.. stall */
	uint64_t cycles, latency;
	aieth_model_kernel kernel;
} adder;

/* A kernel that stalls, as a deadlocked AIE kernel does (params.stall_after):
 * from that iteration on each takes the most cycles a model may give, so
 * the graph stops producing while its inputs are there: a real stall of
 * the emulated board, not a data-size mistake (docs/graph-models.md). */
static int adder_timing(void *ctx, uint32_t kernel, uint64_t first, uint64_t count,
			uint64_t *cycles, uint64_t *latency)
{
	const adder *a = ctx;
	uint64_t i;
	(void)kernel;
	for (i = 0; i < count; i++) {
		int stuck = a->stall_at && first + i >= a->stall_at;
		cycles[i] = stuck ? AIETH_MPARAM_MAX_CYCLES : a->cycles;
		latency[i] = a->latency;
	}
	return 0;
}

/* Element-wise sum of little-endian int32 values. Unsigned arithmetic wraps
 * exactly like two's complement int32 addition, without undefined
 * behaviour; byte access makes any buffer alignment (and overlap of out
 * with an input, element by element) fine. */
static int adder_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			 uint8_t *const *out)
{
	const adder *a = ctx;
	const uint8_t *x = in[0], *y = in[1];
	uint8_t *z = out[0];
	size_t i, n;

	(void)first;
	if (count > SIZE_MAX / a->window)
		return -1;
	n = (size_t)(count * a->window);
	for (i = 0; i < n; i += 4)
		aieth__le32_put(z + i, aieth__le32_get(x + i) + aieth__le32_get(y + i));
	return 0;
}

static void adder_destroy(void *ctx) { free(ctx); }

static int create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	static const char *const keys[] = {
		"in0",     "in1",         "out", "window_bytes", "cycles_per_iteration",
		"latency", "stall_after", NULL};
	struct json_object *obj = NULL;
	char in0[32], in1[32], outp[32];
	uint32_t n0, n1, no;
	uint64_t window = 128, cycles, latency = 0, stall_at = 0; /* 0: full PLIO rate */
	aieth_model_kernel *k;
	adder *a;
	int rc;

	rc = aieth__mparam_check_env(M, env);
	if (rc)
		return rc;
	rc = aieth__mparam_open(M, params, keys, &obj);
	if (rc)
		return rc;
	aieth__mparam_plio_format(in0, AIETH_MPARAM_PLIO_TO_AIE, 1);
	aieth__mparam_plio_format(in1, AIETH_MPARAM_PLIO_TO_AIE, 2);
	aieth__mparam_plio_format(outp, AIETH_MPARAM_PLIO_FROM_AIE, 1);
	rc = aieth__mparam_plio(M, obj, "in0", env, AIETH_MPARAM_PLIO_TO_AIE, in0, &n0);
	if (!rc)
		rc = aieth__mparam_plio(M, obj, "in1", env, AIETH_MPARAM_PLIO_TO_AIE, in1, &n1);
	if (!rc)
		rc = aieth__mparam_plio(M, obj, "out", env, AIETH_MPARAM_PLIO_FROM_AIE, outp, &no);
	if (!rc && n0 == n1)
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.in1: \"%s\" is also params.in0; the two inputs must be"
				   " different PLIOs",
				 in1);
	if (!rc)
		rc = aieth__mparam_window(M, obj, "window_bytes", &window);
	cycles = window / 16;
	if (!rc)
		rc = aieth__mparam_u64(M, obj, "cycles_per_iteration", 1, AIETH_MPARAM_MAX_CYCLES,
				       &cycles);
	if (!rc)
		rc = aieth__mparam_u64(M, obj, "latency", 0, MAX_LATENCY, &latency);
	if (!rc)
		rc = aieth__mparam_u64(M, obj, "stall_after", 1, AIETH_MPARAM_MAX_CYCLES,
				       &stall_at);
	json_object_put(obj);
	if (rc)
		return rc;

	a = calloc(1, sizeof *a);
	if (!a)
		return aieth__fail(AIETH_ENOMEM, M ": out of memory");
	a->window = window;
	a->stall_at = stall_at;
	a->cycles = cycles;
	a->latency = latency;
	k = &a->kernel;
	snprintf(k->name, sizeof k->name, "%s", M);
	k->num_inputs = 2;
	k->num_outputs = 1;
	memcpy(k->inputs[0].plio, in0, sizeof in0);
	memcpy(k->inputs[1].plio, in1, sizeof in1);
	memcpy(k->outputs[0].plio, outp, sizeof outp);
	k->inputs[0].bytes_per_iteration = window;
	k->inputs[1].bytes_per_iteration = window;
	k->outputs[0].bytes_per_iteration = window;
	k->cycles_per_iteration = cycles;
	k->latency = latency;
	k->compute = adder_compute;
	k->ctx = a;
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = 1;
	out->kernels = k;
	out->ctx = a;
	out->destroy = adder_destroy;
	if (stall_at) { /* iterations stall_at.. alike: period stall_at */
		out->iteration_timing = adder_timing;
		out->timing_period = stall_at;
	}
	return 0;
}

int aieth__model_adder_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	return aieth__mparam_create(create, env, params, out);
}
