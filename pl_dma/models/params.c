/* SPDX-License-Identifier: MIT */
/* params.c - code shared by the built-in models: PLIO names and strict
 * param reading (the registry of built-ins: builtin.c). */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/text.h"

static const char *const dir_suffix[2] = {"_TO_AIE", "_FROM_AIE"};

int aieth__mparam_plio_parse(const char *name, int *dir, uint32_t *num)
{
	const char *p;
	char canon[32];
	uint32_t n = 0;
	int d, digits = 0;

	if (!name || strncmp(name, "PLIO_", 5) != 0)
		return -1;
	for (p = name + 5; *p >= '0' && *p <= '9'; p++) {
		if (++digits > 9)
			return -1;
		n = n * 10u + (uint32_t)(*p - '0');
	}
	if (digits == 0 || n == 0)
		return -1;
	if (strcmp(p, dir_suffix[0]) == 0)
		d = AIETH_MPARAM_PLIO_TO_AIE;
	else if (strcmp(p, dir_suffix[1]) == 0)
		d = AIETH_MPARAM_PLIO_FROM_AIE;
	else
		return -1;
	/* Only the canonical spelling: "PLIO_1_TO_AIE" and "PLIO_001_TO_AIE"
	 * name no PLIO of any board. */
	aieth__mparam_plio_format(canon, d, n);
	if (strcmp(canon, name) != 0)
		return -1;
	if (dir)
		*dir = d;
	if (num)
		*num = n;
	return 0;
}

void aieth__mparam_plio_format(char out[32], int dir, uint32_t num)
{
	snprintf(out, 32, "PLIO_%02u%s", (unsigned)num,
		 dir_suffix[dir == AIETH_MPARAM_PLIO_FROM_AIE]);
}

static int only_space(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

int aieth__mparam_check_env(const char *model, const aieth_model_env *env)
{
	if (!env)
		return aieth__fail(AIETH_EINVAL, "%s: no model environment given", model);
	if (env->abi_version != AIETH_MODEL_ABI_VERSION)
		return aieth__fail(AIETH_EINVAL,
				   "%s: environment has model ABI version %u, expected %u", model,
				   (unsigned)env->abi_version, (unsigned)AIETH_MODEL_ABI_VERSION);
	if (env->channels == 0)
		return aieth__fail(AIETH_EINVAL, "%s: the board has no PLIO channels", model);
	return 0;
}

int aieth__mparam_open(const char *model, const char *params, const char *const *allowed,
		       struct json_object **out)
{
	struct json_object *obj;
	char what[96];
	int rc;

	*out = NULL;
	if (!params || only_space(params))
		return 0;
	snprintf(what, sizeof what, "%s: params", model);
	if ((rc = aieth__jstrict_parse(what, params, strlen(params), &obj)))
		return rc;
	if (!obj) /* json-c represents a JSON null by no object at all */
		return aieth__fail(AIETH_EPARSE, "%s: params: must be a JSON object, not null",
				   model);
	if (!json_object_is_type(obj, json_type_object)) {
		rc = aieth__fail(AIETH_EPARSE, "%s: params: must be a JSON object, not %s", model,
				 json_type_to_name(json_object_get_type(obj)));
		json_object_put(obj);
		return rc;
	}
	rc = aieth__jstrict_keys(model, "params", obj, allowed);
	if (rc) {
		json_object_put(obj);
		return rc;
	}
	*out = obj;
	return 0;
}

int aieth__mparam_u64(const char *model, struct json_object *obj, const char *key, uint64_t min,
		      uint64_t max, uint64_t *out)
{
	if (!obj)
		return 0;
	return aieth__jstrict_get_u64(model, "params", obj, key, 0, min, max, out);
}

int aieth__mparam_window(const char *model, struct json_object *obj, const char *key, uint64_t *out)
{
	int rc = aieth__mparam_u64(model, obj, key, 16, AIETH_MPARAM_MAX_WINDOW, out);
	if (rc)
		return rc;
	if (*out % 16 != 0)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: params.%s: %llu is not a multiple of 16 (one 128-bit PLIO beat)",
			model, key, (unsigned long long)*out);
	return 0;
}

int aieth__mparam_plio(const char *model, struct json_object *obj, const char *key,
		       const aieth_model_env *env, int dir, char name[32], uint32_t *num)
{
	const char *s = name;
	char q[300];
	int d, rc;
	uint32_t n;

	if (obj) {
		rc = aieth__jstrict_get_string(model, "params", obj, key, 0, &s);
		if (rc)
			return rc;
	}
	aieth__quote_str(q, sizeof q, s);
	if (aieth__mparam_plio_parse(s, &d, &n) != 0)
		return aieth__fail(AIETH_EINVAL,
				   "%s: params.%s: \"%s\" is not a PLIO name (expected PLIO_NN%s,"
				   " NN the channel number, e.g. PLIO_01%s)",
				   model, key, q, dir_suffix[dir == AIETH_MPARAM_PLIO_FROM_AIE],
				   dir_suffix[dir == AIETH_MPARAM_PLIO_FROM_AIE]);
	if (d != dir)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: params.%s: \"%s\" has the wrong direction (expected PLIO_NN%s)", model,
			key, s, dir_suffix[dir == AIETH_MPARAM_PLIO_FROM_AIE]);
	if (n > env->channels)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: params.%s: \"%s\" is beyond the board, which has %u channels"
			" per direction",
			model, key, s, (unsigned)env->channels);
	if (s != name)
		snprintf(name, 32, "%s", s);
	*num = n;
	return 0;
}

int aieth__mparam_report(const aieth_model_env *env)
{
	if (env && env->err && env->err_size > 0)
		snprintf(env->err, env->err_size, "%s", aieth_error_message());
	return -1;
}

int aieth__mparam_create(aieth_mparam_create_fn create, const aieth_model_env *env,
			 const char *params, aieth_model *out)
{
	if (!out)
		return -1;
	memset(out, 0, sizeof *out);
	if (create(env, params, out) != 0) {
		memset(out, 0, sizeof *out);
		return aieth__mparam_report(env);
	}
	return 0;
}
