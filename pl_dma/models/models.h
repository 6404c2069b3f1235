/* SPDX-License-Identifier: MIT */
/*
 * models.h - the built-in graph models of the emulated board (not
 * installed). They use the plugin structures of aieth_model.h; see
 * docs/graph-models.md for their params.
 *
 *   "loopback"  one kernel per channel k: PLIO_kk_TO_AIE -> PLIO_kk_FROM_AIE,
 *               output = input.
 *   "adder"     one kernel: out = in0 + in1, element-wise int32 (wrapping).
 *   "route"     one kernel per route: TX PLIO(s) -> RX PLIO, copy, scale,
 *               add, sum or const on an element type (route.c).
 */
#ifndef AIETH_MODELS_H
#define AIETH_MODELS_H

#include "aieth_model.h"

/* Create the built-in model `name` for the board described by env, with
 * params a JSON object text (NULL or "" = defaults). Returns 0 and fills
 * *out (release with out->destroy(out->ctx)); 1 when name is not a built-in
 * (nothing written anywhere); -1 on error with the message in env->err
 * (when env and env->err are non-NULL) and the aieth error message set.
 * *out is zeroed unless 0 is returned. */
int aieth__builtin_model_create(const char *name, const aieth_model_env *env, const char *params,
				aieth_model *out);

/* Names of the built-in models, NULL-terminated; static storage. */
const char *const *aieth__builtin_model_names(void);

/* The create functions of each built-in (same contract as a plugin's
 * aieth_model_create). */
int aieth__model_loopback_create(const aieth_model_env *env, const char *params, aieth_model *out);
int aieth__model_adder_create(const aieth_model_env *env, const char *params, aieth_model *out);
int aieth__model_route_create(const aieth_model_env *env, const char *params, aieth_model *out);

#endif
