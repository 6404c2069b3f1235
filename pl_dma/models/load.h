/* SPDX-License-Identifier: MIT */
/*
 * load.h - open a graph model for the emulated board (not installed):
 * a built-in by name or a plugin shared object by path, validated strictly
 * against the plugin ABI and the board before the emulator uses it.
 */
#ifndef AIETH_MODEL_LOAD_H
#define AIETH_MODEL_LOAD_H

#include "aieth_model.h"

typedef struct {
	aieth_model model; /* valid after a successful open */
	void *dl;          /* dlopen handle of a plugin; NULL for a built-in */
	char *spec;        /* the spec as given (owned copy) */
} aieth_model_handle;

/* Open the model `spec` with params (a JSON object text, or NULL for the
 * model's defaults) for the board described by env (abi_version, board,
 * channels and pl_clock_hz are used; env->err is ignored: messages go to
 * the aieth error).
 *
 * spec is a built-in name ("loopback", "adder"), or a path to a plugin
 * shared object when it contains a '/' or ends in ".so" (a bare "x.so" is
 * looked up in the current directory, never in the library search path).
 * The plugin is loaded with dlopen(RTLD_NOW | RTLD_LOCAL) and its
 * aieth_model_create is called. The model is then checked with
 * aieth__model_validate. On success *h owns the model: release it with
 * aieth__model_close. On failure *h is zeroed, nothing stays loaded, and an
 * aieth error code is returned with the message set (each naming the model:
 * `model "x.so": dlopen failed: ...`, `model "x.so": does not export
 * aieth_model_create`, `model "x.so": create failed: ...`, an unknown name
 * gives AIETH_ENOTFOUND listing the built-ins). */
int aieth__model_open(aieth_model_handle *h, const char *spec, const char *params,
		      const aieth_model_env *env);

/* Destroy the model, unload its plugin, free the spec; zeroes *h. Safe on a
 * zeroed handle and on NULL. */
void aieth__model_close(aieth_model_handle *h);

/* Check a model against the ABI and the board (env->channels); spec names it
 * in messages. Rules: abi_version == AIETH_MODEL_ABI_VERSION; 1 ..
 * 2 * env->channels kernels and kernels != NULL; per kernel: a non-empty
 * name NUL-terminated within its array and unique in the model, compute !=
 * NULL, at most AIETH_MODEL_MAX_PORTS inputs and outputs and at least one
 * port, every port name NUL-terminated within its array and a canonical
 * PLIO name of the right direction (inputs PLIO_NN_TO_AIE, outputs
 * PLIO_NN_FROM_AIE) with NN in 1..env->channels, bytes_per_iteration a
 * non-zero multiple of 16 and at most 1 GiB; cycles_per_iteration in
 * 1..1e9; latency at most 1e9; no PLIO used by two ports of the model.
 * Returns 0, or AIETH_EINVAL with the message set. */
int aieth__model_validate(const aieth_model *m, const aieth_model_env *env, const char *spec);

#define AIETH_MODEL_MAX_PORT_BYTES (1ull << 30)
#define AIETH_MODEL_MAX_CYCLES 1000000000ull
#define AIETH_MODEL_MAX_LATENCY 1000000000ull

#endif
