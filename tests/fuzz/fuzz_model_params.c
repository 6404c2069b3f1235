/* SPDX-License-Identifier: MIT */
/* fuzz_model_params.c - random params text for the built-in models: create
 * must either succeed with a model that passes validation and computes, or
 * fail with a message; never crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "pl_dma/models/load.h"
#include "pl_dma/models/models.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run every kernel on two iterations of patterned input when its windows
 * are small enough to keep the fuzzer fast. */
static void exercise(const aieth_model *m)
{
	uint32_t k, p;
	for (k = 0; k < m->num_kernels; k++) {
		const aieth_model_kernel *kn = &m->kernels[k];
		const uint8_t *in[AIETH_MODEL_MAX_PORTS];
		uint8_t *out[AIETH_MODEL_MAX_PORTS];
		uint8_t *bufs[2 * AIETH_MODEL_MAX_PORTS];
		size_t nb = 0, i;
		int ok = 1;
		for (p = 0; p < kn->num_inputs + kn->num_outputs; p++) {
			const aieth_model_port *port = p < kn->num_inputs
							       ? &kn->inputs[p]
							       : &kn->outputs[p - kn->num_inputs];
			uint8_t *b;
			if (port->bytes_per_iteration > 4096) {
				ok = 0;
				break;
			}
			b = malloc((size_t)port->bytes_per_iteration * 2);
			if (!b) {
				ok = 0;
				break;
			}
			bufs[nb++] = b;
			for (i = 0; i < port->bytes_per_iteration * 2; i++)
				b[i] = (uint8_t)(i * 131 + p);
			if (p < kn->num_inputs)
				in[p] = b;
			else
				out[p - kn->num_inputs] = b;
		}
		if (ok && kn->compute(kn->ctx, 3, 2, in, out) != 0)
			abort();
		for (i = 0; i < nb; i++)
			free(bufs[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const models[] = {"loopback", "adder", "route"};
	char err[1024];
	aieth_model_env env = {.abi_version = AIETH_MODEL_ABI_VERSION,
			       .board = "vck190",
			       .channels = 36,
			       .pl_clock_hz = 312500000,
			       .err = err,
			       .err_size = sizeof err};
	char *text = malloc(size + 1);
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (i = 0; i < sizeof models / sizeof models[0]; i++) {
		aieth_model m;
		aieth_model_handle h;
		int rc;

		err[0] = '\0';
		rc = aieth__builtin_model_create(models[i], &env, text, &m);
		if (rc == 0) {
			if (aieth__model_validate(&m, &env, models[i]) != 0)
				abort(); /* a built-in produced an invalid model */
			exercise(&m);
			m.destroy(m.ctx);
		} else if (rc != -1 || err[0] == '\0') {
			abort(); /* a failure without a message */
		}
		/* The loader agrees with the built-in. */
		if (aieth__model_open(&h, models[i], text, &env) != (rc == 0 ? 0 : AIETH_EINVAL))
			abort();
		aieth__model_close(&h);
	}
	free(text);
	return 0;
}
