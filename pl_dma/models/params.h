/* SPDX-License-Identifier: MIT */
/*
 * params.h - helpers shared by the built-in graph models (not installed):
 * PLIO names and the reading of a model's JSON params with the strict JSON
 * helpers, every message naming the model, the parameter, the value and the
 * rule ("loopback: params.window_bytes: 24 is not a multiple of 16").
 *
 * The helpers returning int return 0 or an aieth error code and set the
 * aieth error message (aieth__fail); aieth__mparam_report copies that message
 * into the model environment's err buffer.
 */
#ifndef AIETH_MODELS_PARAMS_H
#define AIETH_MODELS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "aieth_model.h"

struct json_object;

#define AIETH_MPARAM_PLIO_TO_AIE 0
#define AIETH_MPARAM_PLIO_FROM_AIE 1

/* Largest window (bytes per iteration) a built-in model accepts. */
#define AIETH_MPARAM_MAX_WINDOW (1024u * 1024u)
/* Largest cycles_per_iteration a built-in model accepts. */
#define AIETH_MPARAM_MAX_CYCLES 1000000000u

/* Parse a PLIO name in its canonical form: "PLIO_" then the channel number
 * written with at least two digits ("%02u", no extra leading zero), then
 * "_TO_AIE" or "_FROM_AIE". Returns 0 with *dir (AIETH_MPARAM_PLIO_*) and
 * *num (>= 1, 1-based), or -1 when the name is not of that form. Does not
 * set the aieth error. */
int aieth__mparam_plio_parse(const char *name, int *dir, uint32_t *num);
/* Write the canonical name of channel num (1-based) of direction dir into
 * out (32 bytes, as aieth_model_port.plio). */
void aieth__mparam_plio_format(char out[32], int dir, uint32_t num);

/* Check the environment handed to a built-in model (non-NULL, known ABI,
 * at least one channel). */
int aieth__mparam_check_env(const char *model, const aieth_model_env *env);

/* Parse params (NULL, "" or only white space means no params: *out = NULL) as a JSON object
 * whose keys are all in `allowed`. On success the caller json_object_put()s
 * *out (json_object_put(NULL) is a no-op). */
int aieth__mparam_open(const char *model, const char *params, const char *const *allowed,
		       struct json_object **out);

/* Optional unsigned integer param key of obj (obj may be NULL) in
 * [min, max]; *out keeps its value when the key is absent. */
int aieth__mparam_u64(const char *model, struct json_object *obj, const char *key, uint64_t min,
		      uint64_t max, uint64_t *out);
/* Optional window size param: 16 .. AIETH_MPARAM_MAX_WINDOW, a multiple of
 * 16 bytes (one PLIO beat). */
int aieth__mparam_window(const char *model, struct json_object *obj, const char *key,
			 uint64_t *out);
/* Optional PLIO name param of direction dir, within env->channels. *name
 * (32 bytes) holds the default on entry and the value on return; *num
 * receives its channel number. */
int aieth__mparam_plio(const char *model, struct json_object *obj, const char *key,
		       const aieth_model_env *env, int dir, char name[32], uint32_t *num);

/* Copy the current aieth error message into env->err (when there is one)
 * and return -1, the built-in models' failure value. */
int aieth__mparam_report(const aieth_model_env *env);

/* A built-in model's create entry: out cleared, create() run, and on its
 * failure out cleared again and the message reported (-1). */
typedef int (*aieth_mparam_create_fn)(const aieth_model_env *env, const char *params,
				      aieth_model *out);
int aieth__mparam_create(aieth_mparam_create_fn create, const aieth_model_env *env,
			 const char *params, aieth_model *out);

#endif
