/* SPDX-License-Identifier: MIT */
/*
 * plugin_base.h - the valid two-kernel loopback model the faulty test
 * plugins start from; each then breaks one rule the loader must catch.
 */
#ifndef PLUGIN_BASE_H
#define PLUGIN_BASE_H

#include <stdlib.h>
#include <string.h>

#include "aieth_model.h"

static int base_copy(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
		     uint8_t *const *o)
{
	(void)ctx;
	(void)first;
	memcpy(o[0], in[0], (size_t)count * 16);
	return 0;
}

/* Kernels k0 (PLIO_01 -> PLIO_01) and k1 (PLIO_02 -> PLIO_02), 16 bytes per
 * iteration. Returns the kernel array (freed by out->destroy) or NULL. */
static aieth_model_kernel *base_model(aieth_model *out)
{
	aieth_model_kernel *k = calloc(2, sizeof *k);
	if (!k)
		return NULL;
	strcpy(k[0].name, "k0");
	k[0].num_inputs = k[0].num_outputs = 1;
	strcpy(k[0].inputs[0].plio, "PLIO_01_TO_AIE");
	strcpy(k[0].outputs[0].plio, "PLIO_01_FROM_AIE");
	k[0].inputs[0].bytes_per_iteration = k[0].outputs[0].bytes_per_iteration = 16;
	k[0].cycles_per_iteration = 1;
	k[0].compute = base_copy;
	k[1] = k[0];
	strcpy(k[1].name, "k1");
	strcpy(k[1].inputs[0].plio, "PLIO_02_TO_AIE");
	strcpy(k[1].outputs[0].plio, "PLIO_02_FROM_AIE");
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = 2;
	out->kernels = k;
	out->ctx = k;
	out->destroy = free;
	return k;
}

#endif
