/* SPDX-License-Identifier: MIT */
/* loopback.c - the "loopback" built-in model: PLIO_kk_TO_AIE -> PLIO_kk_FROM_AIE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/json_strict.h"

#define M "loopback"
#define MAX_LATENCY 1000000u

typedef struct {
	uint64_t window; /* bytes per iteration on both ports */
	aieth_model_kernel *kernels;
} loopback;

static int loopback_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			    uint8_t *const *out)
{
	const loopback *lb = ctx;
	(void)first;
	if (count > SIZE_MAX / lb->window)
		return -1;
	if (count)
		memcpy(out[0], in[0], (size_t)(count * lb->window));
	return 0;
}

static void loopback_destroy(void *ctx)
{
	loopback *lb = ctx;
	if (!lb)
		return;
	free(lb->kernels);
	free(lb);
}

/* Read "channels" into sel[1..channels] (1 = selected); absent = all. */
static int read_channels(struct json_object *obj, uint32_t channels, unsigned char *sel,
			 uint32_t *count)
{
	struct json_object *arr;
	size_t i, n;

	*count = 0;
	if (!obj || !json_object_object_get_ex(obj, "channels", &arr)) {
		memset(sel + 1, 1, channels);
		*count = channels;
		return 0;
	}
	if (!json_object_is_type(arr, json_type_array))
		return aieth__fail(AIETH_EINVAL,
				   M ": params.channels: %.64s is not an array of channel numbers",
				   json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PLAIN));
	n = json_object_array_length(arr);
	if (n == 0)
		return aieth__fail(
			AIETH_EINVAL,
			M ": params.channels: [] selects no channel (give at least one of 1..%u)",
			(unsigned)channels);
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		const char *txt = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		int64_t c;
		if (!json_object_is_type(v, json_type_int))
			return aieth__fail(
				AIETH_EINVAL,
				M ": params.channels[%zu]: %.64s is not an integer channel number",
				i, txt);
		c = json_object_get_int64(v);
		if (c < 1 || (uint64_t)c > channels)
			return aieth__fail(
				AIETH_EINVAL,
				M ": params.channels[%zu]: %.64s is out of range: the board has"
				  " channels 1..%u",
				i, txt, (unsigned)channels);
		if (sel[c])
			return aieth__fail(AIETH_EINVAL,
					   M ": params.channels[%zu]: channel %lld is listed twice",
					   i, (long long)c);
		sel[c] = 1;
		(*count)++;
	}
	return 0;
}

static int create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	static const char *const keys[] = {"channels", "window_bytes", "cycles_per_iteration",
					   "latency", NULL};
	struct json_object *obj = NULL;
	unsigned char *sel = NULL;
	loopback *lb = NULL;
	uint64_t window = 16, cycles, latency = 0; /* 0: full PLIO rate (docs/emulator.md) */
	uint32_t c, k, count;
	int rc;

	rc = aieth__mparam_check_env(M, env);
	if (rc)
		return rc;
	rc = aieth__mparam_open(M, params, keys, &obj);
	if (rc)
		return rc;
	sel = calloc((size_t)env->channels + 1, 1);
	if (!sel) {
		rc = aieth__fail(AIETH_ENOMEM, M ": out of memory");
		goto out;
	}
	rc = read_channels(obj, env->channels, sel, &count);
	if (!rc)
		rc = aieth__mparam_window(M, obj, "window_bytes", &window);
	cycles = window / 16;
	if (!rc)
		rc = aieth__mparam_u64(M, obj, "cycles_per_iteration", 1, AIETH_MPARAM_MAX_CYCLES,
				       &cycles);
	if (!rc)
		rc = aieth__mparam_u64(M, obj, "latency", 0, MAX_LATENCY, &latency);
	if (rc)
		goto out;

	lb = calloc(1, sizeof *lb);
	if (lb)
		lb->kernels = calloc(count, sizeof *lb->kernels);
	if (!lb || !lb->kernels) {
		rc = aieth__fail(AIETH_ENOMEM, M ": out of memory for %u kernels", (unsigned)count);
		goto out;
	}
	lb->window = window;
	for (c = 1, k = 0; c <= env->channels; c++) {
		aieth_model_kernel *kn;
		if (!sel[c])
			continue;
		kn = &lb->kernels[k++];
		snprintf(kn->name, sizeof kn->name, M "_%02u", (unsigned)c);
		kn->num_inputs = 1;
		kn->num_outputs = 1;
		aieth__mparam_plio_format(kn->inputs[0].plio, AIETH_MPARAM_PLIO_TO_AIE, c);
		aieth__mparam_plio_format(kn->outputs[0].plio, AIETH_MPARAM_PLIO_FROM_AIE, c);
		kn->inputs[0].bytes_per_iteration = window;
		kn->outputs[0].bytes_per_iteration = window;
		kn->cycles_per_iteration = cycles;
		kn->latency = latency;
		kn->compute = loopback_compute;
		kn->ctx = lb;
	}
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = count;
	out->kernels = lb->kernels;
	out->ctx = lb;
	out->destroy = loopback_destroy;
	lb = NULL;
out:
	loopback_destroy(lb);
	free(sel);
	json_object_put(obj);
	return rc;
}

int aieth__model_loopback_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	return aieth__mparam_create(create, env, params, out);
}
