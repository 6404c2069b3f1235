/* SPDX-License-Identifier: MIT */
/*
 * route.c - the "route" built-in model: any set of TX -> RX routes, each
 * one kernel with its element type, operation (copy, scale, add, sum,
 * const), window and timing. It stands in for graphs whose PLIO wiring is
 * not channel k -> k (AMD's examples: docs/graph-models.md, docs/server.md).
 *
 * The element types are the project's (data-formats.md); pl_dma may use
 * util/ only (docs/architecture.md), so the few facts needed here (size,
 * parts, signedness) are a table of their own rather than data/elem.c's.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/text.h"
#include "util/json_strict.h"

#define M "route"
#define MAX_LATENCY 1000000u
#define MAX_ROUTES 128u
#define MAX_SUM AIETH_MODEL_MAX_PORTS

enum { K_INT, K_UINT, K_FLOAT };
enum { OP_COPY, OP_SCALE, OP_ADD, OP_SUM, OP_CONST };

typedef struct {
	const char *name;
	unsigned part;  /* bytes of one part */
	unsigned parts; /* 1, or 2 for complex (real, imaginary) */
	int kind;
} etype;

static const etype etypes[] = {
	{"int8", 1, 1, K_INT},     {"int16", 2, 1, K_INT},   {"int32", 4, 1, K_INT},
	{"int64", 8, 1, K_INT},    {"uint8", 1, 1, K_UINT},  {"uint16", 2, 1, K_UINT},
	{"uint32", 4, 1, K_UINT},  {"uint64", 8, 1, K_UINT}, {"float", 4, 1, K_FLOAT},
	{"double", 8, 1, K_FLOAT}, {"cint16", 2, 2, K_INT},  {"cint32", 4, 2, K_INT},
	{"cfloat", 4, 2, K_FLOAT},
};
#define TYPE_LIST                                                                   \
	"int8, int16, int32, int64, uint8, uint16, uint32, uint64, float, double, " \
	"cint16, cint32, cfloat"

static const char *const op_names[] = {"copy", "scale", "add", "sum", "const"};

typedef struct {
	const etype *t;
	int op;
	uint64_t window;
	uint32_t ninputs;
	/* the constant per part (real, imaginary): integers as their
	 * two's-complement bits (arithmetic wraps), floats as doubles */
	uint64_t ival[2];
	double fval[2];
} route;

typedef struct {
	uint32_t n;
	route *routes;
	aieth_model_kernel *kernels;
} route_model;

/* ------------------------------------------------------------ arithmetic */

static uint64_t ld(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void st(uint8_t *p, unsigned n, uint64_t v)
{
	unsigned i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static double ldf(const uint8_t *p, unsigned n)
{
	uint64_t b = ld(p, n);
	if (n == 4) {
		uint32_t b32 = (uint32_t)b;
		float f;
		memcpy(&f, &b32, 4);
		return f;
	} else {
		double d;
		memcpy(&d, &b, 8);
		return d;
	}
}

/* A float part is rounded to its type after every operation, so a sum of
 * float inputs equals the same additions done in float. */
static void stf(uint8_t *p, unsigned n, double v)
{
	if (n == 4) {
		float f = (float)v;
		uint32_t b32;
		memcpy(&b32, &f, 4);
		st(p, 4, b32);
	} else {
		uint64_t b;
		memcpy(&b, &v, 8);
		st(p, 8, b);
	}
}

static int route_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			 uint8_t *const *out)
{
	const route *r = ctx;
	const unsigned ps = r->t->part, np = r->t->parts;
	size_t nparts, i;
	uint32_t k;

	(void)first;
	if (count > SIZE_MAX / r->window)
		return -1;
	if (r->op == OP_COPY) {
		if (count)
			memcpy(out[0], in[0], (size_t)(count * r->window));
		return 0;
	}
	nparts = (size_t)(count * r->window) / ps;
	/* byte access: any alignment, and out may be an input, part by part */
	for (i = 0; i < nparts; i++) {
		size_t o = i * ps;
		unsigned im = (unsigned)(i % np);
		if (r->t->kind == K_FLOAT) {
			double v;
			switch (r->op) {
			case OP_SCALE: v = ldf(in[0] + o, ps) * r->fval[0]; break;
			case OP_ADD: v = ldf(in[0] + o, ps) + r->fval[im]; break;
			case OP_SUM:
				v = ldf(in[0] + o, ps);
				for (k = 1; k < r->ninputs; k++) {
					v += ldf(in[k] + o, ps);
					if (ps == 4)
						v = (float)v;
				}
				break;
			default: v = r->fval[im]; break;
			}
			stf(out[0] + o, ps, v);
		} else {
			uint64_t v;
			switch (r->op) {
			case OP_SCALE: v = ld(in[0] + o, ps) * r->ival[0]; break;
			case OP_ADD: v = ld(in[0] + o, ps) + r->ival[im]; break;
			case OP_SUM:
				v = ld(in[0] + o, ps);
				for (k = 1; k < r->ninputs; k++)
					v += ld(in[k] + o, ps);
				break;
			default: v = r->ival[im]; break;
			}
			st(out[0] + o, ps, v);
		}
	}
	return 0;
}

static void route_destroy(void *ctx)
{
	route_model *m = ctx;
	if (!m)
		return;
	free(m->routes);
	free(m->kernels);
	free(m);
}

/* ------------------------------------------------------------ params */

/* One PLIO name at params.routes[i].<field> (sub >= 0: [sub] of it). */
static int read_plio(const aieth_model_env *env, const char *at, int sub, struct json_object *v,
		     int dir, char name[32], uint32_t *num)
{
	const char *want = dir == AIETH_MPARAM_PLIO_TO_AIE ? "_TO_AIE" : "_FROM_AIE";
	char where[96], q[300];
	const char *s;
	int d;

	if (sub >= 0)
		snprintf(where, sizeof where, "%s[%d]", at, sub);
	else
		snprintf(where, sizeof where, "%s", at);
	if (!json_object_is_type(v, json_type_string))
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: %.64s is not a PLIO name (a string, e.g."
				     " \"PLIO_01%s\")",
				   where, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
				   want);
	s = json_object_get_string(v);
	aieth__quote_str(q, sizeof q, s);
	if (aieth__mparam_plio_parse(s, &d, num) != 0)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: \"%s\" is not a PLIO name (expected PLIO_NN%s,"
				     " NN the channel number, e.g. PLIO_01%s)",
				   where, q, want, want);
	if (d != dir)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: \"%s\" has the wrong direction (expected "
				     "PLIO_NN%s)",
				   where, q, want);
	if (*num > env->channels)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: \"%s\" is beyond the board, which has %u "
				     "channels per direction",
				   where, q, (unsigned)env->channels);
	snprintf(name, 32, "%s", s);
	return 0;
}

/* One part of the constant: an integer in the part's range, or a finite
 * number in range for float types. */
static int read_part(route *r, const char *where, struct json_object *v, unsigned im)
{
	const char *txt = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	const unsigned bits = 8 * r->t->part;
	if (r->t->kind == K_FLOAT) {
		double d, lim = r->t->part == 4 ? FLT_MAX : DBL_MAX;
		if (!json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_double))
			return aieth__fail(AIETH_EINVAL, M ": %s: %.64s is not a number", where,
					   txt);
		d = json_object_get_double(v);
		if (!isfinite(d) || d > lim || d < -lim)
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: %.64s is out of range for %s (a finite"
					     " number, |value| <= %g)",
					   where, txt, r->t->name, lim);
		r->fval[im] = d;
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: %.64s is not an integer (the element type is"
				     " %s)",
				   where, txt, r->t->name);
	if (r->t->kind == K_INT) {
		int64_t x = json_object_get_int64(v);
		int64_t hi = bits == 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
		int64_t lo = -hi - 1;
		/* json-c keeps integers above INT64_MAX as uint64: get_int64 clamps them */
		if (x < lo || x > hi || (x == INT64_MAX && json_object_get_uint64(v) > INT64_MAX))
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: %.64s is out of range for %s (%lld..%lld)",
					   where, txt, r->t->name, (long long)lo, (long long)hi);
		r->ival[im] = (uint64_t)x;
	} else {
		uint64_t hi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1, x;
		if (json_object_get_int64(v) < 0 || (x = json_object_get_uint64(v)) > hi)
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: %.64s is out of range for %s (0..%llu)", where,
					   txt, r->t->name, (unsigned long long)hi);
		r->ival[im] = x;
	}
	return 0;
}

/* The constant of scale (one real number: complex types scale both parts),
 * add and const (a number, or [real, imaginary] for complex types; a number
 * alone leaves the imaginary part 0 for const and add). */
static int read_value(route *r, const char *at, struct json_object *ro)
{
	struct json_object *v;
	char where[96];
	int rc;

	snprintf(where, sizeof where, "%s.value", at);
	if (!json_object_object_get_ex(ro, "value", &v))
		return aieth__fail(AIETH_EINVAL, M ": %s: missing: op \"%s\" needs a value", where,
				   op_names[r->op]);
	if (json_object_is_type(v, json_type_array)) {
		char w2[112];
		unsigned k;
		if (r->t->parts != 2 || r->op == OP_SCALE)
			return aieth__fail(
				AIETH_EINVAL,
				M ": %s: %.64s: a [real, imaginary] pair is for"
				  " op add or const on a complex type (this route: op %s, type"
				  " %s)",
				where, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
				op_names[r->op], r->t->name);
		if (json_object_array_length(v) != 2)
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: an array of %zu values, a [real, "
					     "imaginary] pair has 2",
					   where, json_object_array_length(v));
		for (k = 0; k < 2; k++) {
			snprintf(w2, sizeof w2, "%s[%u]", where, k);
			if ((rc = read_part(r, w2, json_object_array_get_idx(v, k), k)))
				return rc;
		}
		return 0;
	}
	return read_part(r, where, v, 0);
}

typedef struct {
	int used_by; /* route index + 1, 0 = free */
	char field[16];
} plio_use;

/* A PLIO is one port of one route (the model validator's rule 9): say
 * which route already has it. */
static int claim(plio_use *use, uint32_t num, const char *at, const char *name, int idx,
		 const char *field)
{
	if (use[num].used_by)
		return aieth__fail(
			AIETH_EINVAL,
			M ": %s: %s is already routes[%d].%s; a PLIO belongs"
			  " to one route (one input feeding several routes is not modelled)",
			at, name, use[num].used_by - 1, use[num].field);
	use[num].used_by = idx + 1;
	snprintf(use[num].field, sizeof use[num].field, "%s", field);
	return 0;
}

static int read_route(const aieth_model_env *env, struct json_object *ro, int idx, route *r,
		      aieth_model_kernel *kn, plio_use *tx_use, plio_use *rx_use)
{
	static const char *const keys[] = {
		"from",    "to", "type", "op", "value", "window_bytes", "cycles_per_iteration",
		"latency", NULL};
	struct json_object *from = NULL, *to = NULL;
	const char *tname = "int32", *opname = "copy";
	char at[48], fat[64];
	uint64_t cycles, latency = 0;
	uint32_t num, k;
	size_t i, nfrom;
	int rc;

	snprintf(at, sizeof at, "params.routes[%d]", idx);
	if (!json_object_is_type(ro, json_type_object))
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: %.64s is not an object ({\"from\": ..., "
				     "\"to\": ...})",
				   at, json_object_to_json_string_ext(ro, JSON_C_TO_STRING_PLAIN));
	if ((rc = aieth__jstrict_keys(M, at, ro, keys)))
		return rc;
	if ((rc = aieth__jstrict_get_string(M, at, ro, "type", 0, &tname)) ||
	    (rc = aieth__jstrict_get_string(M, at, ro, "op", 0, &opname)))
		return rc;
	for (i = 0; i < sizeof etypes / sizeof etypes[0]; i++)
		if (!strcmp(tname, etypes[i].name))
			r->t = &etypes[i];
	if (!r->t) {
		char q[300];
		aieth__quote_str(q, sizeof q, tname);
		return aieth__fail(
			AIETH_EINVAL,
			M ": %s.type: \"%s\" is not an element type (valid: " TYPE_LIST ")", at, q);
	}
	r->op = -1;
	for (i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
		if (!strcmp(opname, op_names[i]))
			r->op = (int)i;
	if (r->op < 0) {
		char q[300];
		aieth__quote_str(q, sizeof q, opname);
		return aieth__fail(AIETH_EINVAL,
				   M ": %s.op: \"%s\" is not an operation (valid: copy,"
				     " scale, add, sum, const)",
				   at, q);
	}

	/* to: one RX PLIO */
	snprintf(fat, sizeof fat, "%s.to", at);
	if (!json_object_object_get_ex(ro, "to", &to))
		return aieth__fail(AIETH_EINVAL,
				   M ": %s: missing: every route has an RX PLIO "
				     "(\"PLIO_NN_FROM_AIE\")",
				   fat);
	if ((rc = read_plio(env, fat, -1, to, AIETH_MPARAM_PLIO_FROM_AIE, kn->outputs[0].plio,
			    &num)) ||
	    (rc = claim(rx_use, num, fat, kn->outputs[0].plio, idx, "to")))
		return rc;
	kn->num_outputs = 1;

	/* from: none for const, one PLIO for copy/scale/add, 2..16 for sum */
	snprintf(fat, sizeof fat, "%s.from", at);
	json_object_object_get_ex(ro, "from", &from);
	if (r->op == OP_CONST) {
		if (from)
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: op const takes no input (its output is "
					     "the value alone)",
					   fat);
	} else if (!from) {
		return aieth__fail(AIETH_EINVAL, M ": %s: missing: op %s needs %s", fat,
				   op_names[r->op],
				   r->op == OP_SUM ? "an array of 2..16 TX PLIOs"
						   : "a TX PLIO (\"PLIO_NN_TO_AIE\")");
	} else if (r->op == OP_SUM) {
		if (!json_object_is_type(from, json_type_array))
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: op sum needs an array of 2..%d TX "
					     "PLIOs",
					   fat, MAX_SUM);
		nfrom = json_object_array_length(from);
		if (nfrom < 2 || nfrom > MAX_SUM)
			return aieth__fail(AIETH_EINVAL, M ": %s: %zu inputs, op sum takes 2..%d",
					   fat, nfrom, MAX_SUM);
		for (i = 0; i < nfrom; i++) {
			char sub[80];
			snprintf(sub, sizeof sub, "%s[%zu]", fat, i);
			if ((rc = read_plio(env, fat, (int)i, json_object_array_get_idx(from, i),
					    AIETH_MPARAM_PLIO_TO_AIE, kn->inputs[i].plio, &num)) ||
			    (rc = claim(tx_use, num, sub, kn->inputs[i].plio, idx, "from")))
				return rc;
		}
		kn->num_inputs = (uint32_t)nfrom;
	} else {
		if (json_object_is_type(from, json_type_array))
			return aieth__fail(AIETH_EINVAL,
					   M ": %s: op %s takes one TX PLIO (a string); "
					     "an array of inputs is for op sum",
					   fat, op_names[r->op]);
		if ((rc = read_plio(env, fat, -1, from, AIETH_MPARAM_PLIO_TO_AIE,
				    kn->inputs[0].plio, &num)) ||
		    (rc = claim(tx_use, num, fat, kn->inputs[0].plio, idx, "from")))
			return rc;
		kn->num_inputs = 1;
	}
	r->ninputs = kn->num_inputs;

	if (r->op == OP_SCALE || r->op == OP_ADD || r->op == OP_CONST) {
		if ((rc = read_value(r, at, ro)))
			return rc;
	} else if (json_object_object_get_ex(ro, "value", NULL)) {
		return aieth__fail(AIETH_EINVAL, M ": %s.value: op %s takes no value", at,
				   op_names[r->op]);
	}

	r->window = 16;
	if ((rc = aieth__jstrict_get_u64(M, at, ro, "window_bytes", 0, 16, AIETH_MPARAM_MAX_WINDOW,
					 &r->window)))
		return rc;
	if (r->window % 16)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s.window_bytes: %llu is not a multiple of 16 "
				     "(one 128-bit PLIO beat)",
				   at, (unsigned long long)r->window);
	cycles = r->window / 16;
	if ((rc = aieth__jstrict_get_u64(M, at, ro, "cycles_per_iteration", 0, 1,
					 AIETH_MPARAM_MAX_CYCLES, &cycles)) ||
	    (rc = aieth__jstrict_get_u64(M, at, ro, "latency", 0, 0, MAX_LATENCY, &latency)))
		return rc;

	snprintf(kn->name, sizeof kn->name, M "_%02d", idx);
	for (k = 0; k < kn->num_inputs; k++)
		kn->inputs[k].bytes_per_iteration = r->window;
	kn->outputs[0].bytes_per_iteration = r->window;
	kn->cycles_per_iteration = cycles;
	kn->latency = latency;
	kn->compute = route_compute;
	kn->ctx = r;
	return 0;
}

static int create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	static const char *const keys[] = {"board", "routes", NULL};
	struct json_object *obj = NULL, *routes;
	plio_use *tx_use = NULL, *rx_use = NULL;
	route_model *m = NULL;
	const char *board = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = aieth__mparam_check_env(M, env)) ||
	    (rc = aieth__mparam_open(M, params, keys, &obj)))
		return rc;
	if (!obj || !json_object_object_get_ex(obj, "routes", &routes)) {
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.routes: missing: give the routes, e.g. "
				   "{\"routes\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": "
				   "\"PLIO_02_FROM_AIE\"}]}");
		goto out;
	}
	if ((rc = aieth__jstrict_get_string(M, "params", obj, "board", 0, &board)))
		goto out;
	if (board && env->board && strcmp(board, env->board)) {
		char q[300];
		aieth__quote_str(q, sizeof q, board);
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.board: \"%s\", but the board is %s (these "
				   "routes are %s's PLIOs)",
				 q, env->board, q);
		goto out;
	}
	if (!json_object_is_type(routes, json_type_array) ||
	    (n = json_object_array_length(routes)) == 0 || n > MAX_ROUTES) {
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.routes: an array of 1..%u routes is needed"
				   " (given: %s of %zu)",
				 MAX_ROUTES,
				 json_object_is_type(routes, json_type_array) ? "an array"
									      : "not an array",
				 n);
		goto out;
	}
	tx_use = calloc((size_t)env->channels + 1, sizeof *tx_use);
	rx_use = calloc((size_t)env->channels + 1, sizeof *rx_use);
	m = calloc(1, sizeof *m);
	if (m) {
		m->routes = calloc(n, sizeof *m->routes);
		m->kernels = calloc(n, sizeof *m->kernels);
	}
	if (!tx_use || !rx_use || !m || !m->routes || !m->kernels) {
		rc = aieth__fail(AIETH_ENOMEM, M ": out of memory for %zu routes", n);
		goto out;
	}
	for (i = 0; i < n; i++)
		if ((rc = read_route(env, json_object_array_get_idx(routes, i), (int)i,
				     &m->routes[i], &m->kernels[i], tx_use, rx_use)))
			goto out;
	m->n = (uint32_t)n;
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = m->n;
	out->kernels = m->kernels;
	out->ctx = m;
	out->destroy = route_destroy;
	m = NULL;
out:
	route_destroy(m);
	free(tx_use);
	free(rx_use);
	json_object_put(obj);
	return rc;
}

int aieth__model_route_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	return aieth__mparam_create(create, env, params, out);
}
