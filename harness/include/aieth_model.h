/* SPDX-License-Identifier: MIT */
/*
 * aieth_model.h - graph models for the emulated board (plugin ABI).
 *
 * A graph model tells the emulated board how an AIE graph behaves at its
 * PLIOs. It declares one or more kernels; each kernel has input ports (fed
 * by PLIO_xx_TO_AIE channels) and output ports (drained by PLIO_xx_FROM_AIE
 * channels), a fixed number of bytes per iteration on every port, the PL
 * cycles one iteration takes and a latency, and a function computing the
 * outputs of iterations from their inputs.
 *
 * A plugin is a shared object exporting
 *
 *     int aieth_model_create(const aieth_model_env *env, const char *params,
 *                            aieth_model *out);
 *
 * returning 0 and filling *out, or non-zero with a message in env->err.
 * The built-in models ("loopback", "adder") use the same structures.
 *
 * Rules the emulator relies on (docs/graph-models.md, docs/emulator.md):
 *  - compute must be a pure function of (iteration index, inputs): the
 *    emulator only computes iterations whose outputs can be observed.
 *  - bytes per iteration on every port is a non-zero multiple of 16 (one
 *    128-bit PLIO beat), at most 1 GiB; cycles_per_iteration 1..1e9;
 *    latency at most 1e9; PLIO names spelt exactly ("PLIO_01_TO_AIE").
 *  - compute buffers have no particular alignment: load and store through
 *    memcpy (or byte access), never by casting to wider pointer types.
 *  - iteration_timing (optional, appended to aieth_model after ABI 1; see
 *    there): per-iteration cycles and latency, with the same limits, a
 *    pure function of the iteration index, checked as the emulator uses
 *    them (a bad value ends the run in error naming the model, the kernel
 *    and the iteration).
 */
#ifndef AIETH_MODEL_H
#define AIETH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_MODEL_ABI_VERSION 1
#define AIETH_MODEL_MAX_PORTS 16

/* What the emulator tells a model when creating it. */
typedef struct {
	uint32_t abi_version; /* AIETH_MODEL_ABI_VERSION */
	const char *board;    /* "vck190" */
	uint32_t channels;    /* PLIOs per direction on this board */
	uint64_t pl_clock_hz;
	char *err; /* write a message here on failure */
	size_t err_size;
	/* Added after ABI 1 (read it only when not NULL): the folder relative
	 * paths in params mean, a test description's folder; NULL: the
	 * current directory. */
	const char *base_dir;
} aieth_model_env;

typedef struct {
	char plio[32]; /* "PLIO_01_TO_AIE" / "PLIO_01_FROM_AIE" */
	uint64_t bytes_per_iteration;
} aieth_model_port;

/* Compute iterations first .. first+count-1. in[p] holds count consecutive
 * input windows of port p (count * bytes_per_iteration bytes), out[q]
 * receives count output windows of port q. Return 0, non-zero on error. */
typedef int (*aieth_model_compute_fn)(void *ctx, uint64_t first, uint64_t count,
				      const uint8_t *const *in, uint8_t *const *out);

typedef struct {
	char name[64];
	uint32_t num_inputs, num_outputs;
	aieth_model_port inputs[AIETH_MODEL_MAX_PORTS];
	aieth_model_port outputs[AIETH_MODEL_MAX_PORTS];
	uint64_t cycles_per_iteration; /* PL clock cycles, >= 1 */
	uint64_t latency;              /* cycles from end of compute to output */
	aieth_model_compute_fn compute;
	void *ctx;
} aieth_model_kernel;

typedef struct {
	uint32_t abi_version; /* set to AIETH_MODEL_ABI_VERSION */
	uint32_t num_kernels;
	aieth_model_kernel *kernels; /* owned by the model */
	void *ctx;
	void (*destroy)(void *ctx); /* frees kernels and ctx; may be NULL */
	/* Added after ABI 1 (the version stays 1: the emulator zeroes the
	 * structure before create, so a plugin built before these fields
	 * leaves them NULL and 0, which means "absent").
	 *
	 * iteration_timing: when not NULL, iteration i of kernel `kernel`
	 * (its index in kernels[]) takes cycles[i - first] PL cycles (1..1e9)
	 * and its outputs come latency[i - first] cycles (0..1e9) after it
	 * ends, for i in first .. first+count-1 (count >= 1; both arrays hold
	 * count entries). It replaces that kernel's cycles_per_iteration and
	 * latency, which must still be valid. Return 0, non-zero on error
	 * (the run ends in error). Like compute it must be a pure function of
	 * (kernel, iteration index): the emulator asks in batches, in any
	 * order, possibly several times for the same iteration, and may skip
	 * ranges. A NULL hook: every iteration uses the kernel's fields.
	 *
	 * timing_period: 0 = aperiodic (the fast mode then skips no period of
	 * a steady state across an iteration start of that kernel); P >= 1
	 * (at most 1e9): for every kernel and every i >= P the timing of
	 * iteration i + P equals that of iteration i, i.e. it repeats every P
	 * iterations from iteration P on (iterations 0..P-1 may be a start-up
	 * of their own). Ignored when iteration_timing is NULL. */
	int (*iteration_timing)(void *ctx, uint32_t kernel, uint64_t first, uint64_t count,
				uint64_t *cycles, uint64_t *latency);
	uint64_t timing_period;
} aieth_model;

typedef int (*aieth_model_create_fn)(const aieth_model_env *env, const char *params,
				     aieth_model *out);

#define AIETH_MODEL_ENTRY "aieth_model_create"

/* The entry point a plugin exports (declared here so plugins built with
 * -Wmissing-prototypes need not declare it). */
int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_MODEL_H */
