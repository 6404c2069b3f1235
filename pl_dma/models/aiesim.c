/* SPDX-License-Identifier: MIT */
/*
 * aiesim.c - the "aiesim" built-in model: one kernel replaying the output
 * PLIO files of an aiesimulator run. Block k of every output is iteration
 * k's output window; the block's simulated time, relative to the arrival
 * of the inputs, becomes each iteration's cycles through the ABI's
 * iteration_timing (fit "exact", aieth__aiesim_exact_schedule), or one
 * cycles_per_iteration and latency for the whole trace (fits "throughput"
 * and "latency", aieth__aiesim_fit_blocks); the engine's window rules give
 * back-pressure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "pl_dma/models/aiesim.h"
#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

#define M "aiesim"

typedef struct {
	uint32_t nout;
	uint64_t window[AIETH_MODEL_MAX_PORTS];
	uint8_t *data[AIETH_MODEL_MAX_PORTS];
	uint64_t blocks;
	int repeat;
	uint32_t *cyc; /* fit "exact": cycles of iterations 0..2*blocks-1 */
	aieth_model_kernel kernel;
} aiesim;

static void aiesim_destroy(void *ctx)
{
	aiesim *a = ctx;
	uint32_t q;
	if (!a)
		return;
	for (q = 0; q < a->nout; q++)
		free(a->data[q]);
	free(a->cyc);
	free(a);
}

/* Fit "exact": iteration i takes the cycles of its window in the first
 * pass of the trace, and those of window i mod blocks of the later passes
 * from iteration `blocks` on (timing_period = blocks); latency 0. */
static int aiesim_timing(void *ctx, uint32_t kernel, uint64_t first, uint64_t count,
			 uint64_t *cycles, uint64_t *latency)
{
	const aiesim *a = ctx;
	uint64_t j;
	if (kernel != 0)
		return -1;
	for (j = 0; j < count; j++) {
		uint64_t i = first + j;
		cycles[j] = a->cyc[i < a->blocks ? i : a->blocks + i % a->blocks];
		latency[j] = 0;
	}
	return 0;
}

/* Iteration i outputs block i of each file (i modulo the blocks when the
 * trace repeats): a pure function of the iteration index. */
static int aiesim_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			  uint8_t *const *out)
{
	const aiesim *a = ctx;
	uint64_t i;
	uint32_t q;
	(void)in;
	if (!a->repeat && (first >= a->blocks || count > a->blocks - first))
		return -1;
	for (q = 0; q < a->nout; q++)
		for (i = 0; i < count; i++)
			memcpy(out[q] + i * a->window[q],
			       a->data[q] + ((first + i) % a->blocks) * a->window[q], a->window[q]);
	return 0;
}

static int get_array(struct json_object *obj, const char *key, size_t max, struct json_object **out)
{
	struct json_object *v;
	*out = NULL;
	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_array))
		return aieth__fail(AIETH_EINVAL, M ": params.%s: must be an array of objects", key);
	if (json_object_array_length(v) > max)
		return aieth__fail(AIETH_EINVAL, M ": params.%s: %zu entries, the limit is %zu",
				   key, json_object_array_length(v), max);
	*out = v;
	return 0;
}

static int get_time(struct json_object *obj, const char *key, uint64_t *ps)
{
	const char *s = NULL;
	int rc;
	char q[100];
	if (!obj)
		return 0;
	rc = aieth__jstrict_get_string(M, "params", obj, key, 0, &s);
	if (rc || !s)
		return rc;
	if (aieth__aiesim_time_parse(s, strlen(s), ps) != 0) {
		aieth__quote_str(q, sizeof q, s);
		return aieth__fail(AIETH_EINVAL,
				   M ": params.%s: \"%s\" is not a time \"<number>"
				     " <unit>\" (unit ps, ns or us; at most 1000 s)",
				   key, q);
	}
	return 0;
}

/* The "plio" of entry `path`, of direction dir, on the board. */
static int entry_plio(const aieth_model_env *env, struct json_object *o, const char *path, int dir,
		      char name[32])
{
	const char *s = NULL;
	char q[300];
	uint32_t num;
	int d, rc;
	if ((rc = aieth__jstrict_get_string(M, path, o, "plio", 1, &s)))
		return rc;
	aieth__quote_str(q, sizeof q, s);
	if (aieth__mparam_plio_parse(s, &d, &num) != 0 || d != dir)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s.plio: \"%s\" is not %s PLIO name (PLIO_NN%s,"
				     " NN the channel number, e.g. PLIO_01%s)",
				   path, q,
				   dir == AIETH_MPARAM_PLIO_TO_AIE ? "an input" : "an output",
				   dir == AIETH_MPARAM_PLIO_TO_AIE ? "_TO_AIE" : "_FROM_AIE",
				   dir == AIETH_MPARAM_PLIO_TO_AIE ? "_TO_AIE" : "_FROM_AIE");
	if (num > env->channels)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s.plio: \"%s\" is beyond the board, which has"
				     " %u channels per direction",
				   path, q, (unsigned)env->channels);
	snprintf(name, 32, "%s", s);
	return 0;
}

/* Read and check one output entry; fills the port, the trace and the
 * window. path: "params.outputs[q]". */
static int read_output(const aieth_model_env *env, const char *dir, struct json_object *o,
		       const char *path, aieth_model_port *port, aiesim_trace *tr, uint64_t *window)
{
	static const char *const keys[] = {"plio", "file", "type", "window_bytes", NULL};
	const char *file = NULL, *tname = "int32";
	aiesim_type t;
	char *full;
	size_t k;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EINVAL, M ": %s: must be an object", path);
	if ((rc = aieth__jstrict_keys(M, path, o, keys)))
		return rc;
	if ((rc = entry_plio(env, o, path, AIETH_MPARAM_PLIO_FROM_AIE, port->plio)))
		return rc;
	if ((rc = aieth__jstrict_get_string(M, path, o, "file", 1, &file)) ||
	    (rc = aieth__jstrict_get_string(M, path, o, "type", 0, &tname)))
		return rc;
	if (aieth__aiesim_type_parse(tname, &t) != 0) {
		char q[100];
		aieth__quote_str(q, sizeof q, tname);
		return aieth__fail(
			AIETH_EINVAL,
			M ": %s.type: \"%s\" is not an element type (int8,"
			  " int16, int32, int64, uint8..uint64, float, double, cint16, cint32,"
			  " cfloat)",
			path, q);
	}
	*window = 0;
	if (json_object_object_get_ex(o, "window_bytes", NULL)) {
		if ((rc = aieth__jstrict_get_u64(M, path, o, "window_bytes", 1, 16,
						 AIETH_MPARAM_MAX_WINDOW, window)))
			return rc;
		if (*window % 16)
			return aieth__fail(AIETH_EINVAL,
					   M ": %s.window_bytes: %llu is not a multiple"
					     " of 16 (one 128-bit PLIO beat)",
					   path, (unsigned long long)*window);
	}
	full = aieth__path_join(dir, file);
	if (!full)
		return aieth__fail(AIETH_ENOMEM, M ": out of memory");
	aieth__aiesim_trace_init(tr, t);
	rc = aieth__aiesim_trace_read(tr, full);
	if (rc) {
		rc = aieth__fail_prefix(rc, M ": %s", path);
		free(full);
		return rc;
	}
	if (!*window) /* the first packet, else the whole file */
		*window = tr->ntlast ? tr->tlast[0] : tr->len;
	rc = 0;
	if (tr->len == 0)
		rc = aieth__fail(AIETH_EINVAL, M ": %s: %s has no data", path, full);
	else if (*window % 16 || *window == 0 || *window > AIETH_MPARAM_MAX_WINDOW)
		rc = aieth__fail(AIETH_EINVAL,
				 M ": %s: %s: a window of %llu bytes (%s) is not a"
				   " non-zero multiple of 16 up to %u; set window_bytes",
				 path, full, (unsigned long long)*window,
				 tr->ntlast ? "its first TLAST packet" : "the whole file, no TLAST",
				 AIETH_MPARAM_MAX_WINDOW);
	else if (tr->len % *window)
		rc = aieth__fail(AIETH_EINVAL,
				 M ": %s: %s holds %zu bytes, not a whole number of"
				   " %llu-byte windows",
				 path, full, tr->len, (unsigned long long)*window);
	for (k = 0; !rc && k < tr->ntlast; k++)
		if (tr->tlast[k] % *window)
			rc = aieth__fail(AIETH_EINVAL,
					 M ": %s: %s: TLAST packet %zu ends at byte %llu,"
					   " not at the end of a %llu-byte window",
					 path, full, k, (unsigned long long)tr->tlast[k],
					 (unsigned long long)*window);
	port->bytes_per_iteration = *window;
	free(full);
	return rc;
}

static int read_input(const aieth_model_env *env, struct json_object *o, const char *path,
		      aieth_model_port *port)
{
	static const char *const keys[] = {"plio", "window_bytes", NULL};
	uint64_t w = 0;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EINVAL, M ": %s: must be an object", path);
	if ((rc = aieth__jstrict_keys(M, path, o, keys)) ||
	    (rc = aieth__jstrict_get_u64(M, path, o, "window_bytes", 1, 16, AIETH_MPARAM_MAX_WINDOW,
					 &w)))
		return rc;
	if (w % 16)
		return aieth__fail(AIETH_EINVAL,
				   M ": %s.window_bytes: %llu is not a multiple of 16"
				     " (one 128-bit PLIO beat)",
				   path, (unsigned long long)w);
	if ((rc = entry_plio(env, o, path, AIETH_MPARAM_PLIO_TO_AIE, port->plio)))
		return rc;
	port->bytes_per_iteration = w;
	return 0;
}

static int create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	static const char *const keys[] = {"dir",
					   "outputs",
					   "inputs",
					   "aie_clock_mhz",
					   "board_aie_clock_mhz",
					   "input_time",
					   "repeat",
					   "max_jitter_cycles",
					   "fit",
					   NULL};
	struct json_object *obj = NULL, *outs = NULL, *ins = NULL, *rep;
	aiesim_trace tr[AIETH_MODEL_MAX_PORTS];
	const char *dir = ".", *given, *fitmode = "exact";
	char *dirbuf = NULL;
	uint64_t maxlat = UINT64_MAX;
	uint64_t sim_mhz = 1250, board_mhz = 0, t0 = 0, jitter = UINT64_MAX, fallback = 1;
	uint64_t *cyc = NULL;
	aiesim_fit fit;
	aieth_model_kernel *k;
	aiesim *a;
	struct stat st;
	size_t n, i, b;
	uint32_t q;
	int rc;

	memset(tr, 0, sizeof tr);
	if ((rc = aieth__mparam_check_env(M, env)) ||
	    (rc = aieth__mparam_open(M, params, keys, &obj)))
		return rc;
	a = calloc(1, sizeof *a);
	if (!a) {
		json_object_put(obj);
		return aieth__fail(AIETH_ENOMEM, M ": out of memory");
	}
	a->repeat = 1;
	k = &a->kernel;
	if (obj && (rc = aieth__jstrict_get_string(M, "params", obj, "dir", 0, &dir)))
		goto done;
	/* a relative folder is the description's (env->base_dir), as its data
	 * files are; without one, the current directory */
	given = dir;
	if (dir[0] != '/' && env->base_dir && env->base_dir[0]) {
		if (!(dirbuf = aieth__path_join(env->base_dir, dir))) {
			rc = aieth__fail(AIETH_ENOMEM, M ": out of memory");
			goto done;
		}
		dir = dirbuf;
	}
	if ((rc = aieth__mparam_u64(M, obj, "aie_clock_mhz", 1, 100000, &sim_mhz)))
		goto done;
	board_mhz = sim_mhz;
	if ((rc = aieth__mparam_u64(M, obj, "board_aie_clock_mhz", 1, 100000, &board_mhz)) ||
	    (rc = get_time(obj, "input_time", &t0)) ||
	    (rc = aieth__mparam_u64(M, obj, "max_jitter_cycles", 0, AIETH_MPARAM_MAX_CYCLES,
				    &jitter)))
		goto done;
	if (obj && (rc = aieth__jstrict_get_string(M, "params", obj, "fit", 0, &fitmode)))
		goto done;
	if (strcmp(fitmode, "exact") != 0 && strcmp(fitmode, "throughput") != 0 &&
	    strcmp(fitmode, "latency") != 0) {
		char qf[100];
		aieth__quote_str(qf, sizeof qf, fitmode);
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.fit: \"%s\" is not \"exact\","
				   " \"throughput\" nor \"latency\"",
				 qf);
		goto done;
	}
	if (obj && json_object_object_get_ex(obj, "repeat", &rep)) {
		if (!json_object_is_type(rep, json_type_boolean)) {
			rc = aieth__fail(AIETH_EINVAL, M ": params.repeat: must be true or false");
			goto done;
		}
		a->repeat = json_object_get_boolean(rep);
	}
	if ((rc = get_array(obj, "outputs", AIETH_MODEL_MAX_PORTS, &outs)) ||
	    (rc = get_array(obj, "inputs", AIETH_MODEL_MAX_PORTS, &ins)))
		goto done;
	if (!outs || json_object_array_length(outs) == 0) {
		rc = aieth__fail(AIETH_EINVAL, M
				 ": params.outputs: required, one entry per output"
				 " PLIO ({\"plio\": \"PLIO_01_FROM_AIE\", \"file\": \"out.txt\"})");
		goto done;
	}
	{
		int bad = stat(dir, &st) != 0 ? errno : 0;
		if (bad || !S_ISDIR(st.st_mode)) {
			char qd[100];
			aieth__quote_str(qd, sizeof qd, given);
			rc = aieth__fail(AIETH_EIO,
					 M ": params.dir: \"%s\": %s (the aiesimulator"
					   " output folder, relative to the description's folder)",
					 qd, bad ? strerror(bad) : "not a directory");
			goto done;
		}
	}
	n = json_object_array_length(outs);
	for (i = 0; i < n; i++) {
		char path[48];
		snprintf(path, sizeof path, "params.outputs[%zu]", i);
		rc = read_output(env, dir, json_object_array_get_idx(outs, i), path, &k->outputs[i],
				 &tr[i], &a->window[i]);
		a->nout = (uint32_t)i + 1; /* tr[i] is to be freed */
		if (rc)
			goto done;
		if (a->window[i] / 16 > fallback)
			fallback = a->window[i] / 16;
		if (i == 0)
			a->blocks = tr[0].len / a->window[0];
		else if (tr[i].len / a->window[i] != a->blocks) {
			rc = aieth__fail(AIETH_EINVAL,
					 M ": params.outputs[%zu]: %zu windows, but"
					   " outputs[0] has %llu; every output gives one window per"
					   " iteration",
					 i, (size_t)(tr[i].len / a->window[i]),
					 (unsigned long long)a->blocks);
			goto done;
		}
	}
	for (i = 0; ins && i < json_object_array_length(ins); i++) {
		char path[48];
		snprintf(path, sizeof path, "params.inputs[%zu]", i);
		if ((rc = read_input(env, json_object_array_get_idx(ins, i), path, &k->inputs[i])))
			goto done;
		k->num_inputs = (uint32_t)i + 1;
		if (k->inputs[i].bytes_per_iteration / 16 > fallback)
			fallback = k->inputs[i].bytes_per_iteration / 16;
	}
	/* Block k is released when every output has it: the latest of them. */
	cyc = calloc(a->blocks, sizeof *cyc);
	if (!cyc) {
		rc = aieth__fail(AIETH_ENOMEM, M ": out of memory");
		goto done;
	}
	for (q = 0; q < a->nout; q++)
		for (b = 0; b < a->blocks; b++) {
			uint64_t ps = aieth__aiesim_trace_time_at(&tr[q], b * a->window[q], NULL);
			uint64_t c =
				aieth__aiesim_ps_to_cycles(ps > t0 ? ps - t0 : 0, env->pl_clock_hz,
							   (uint32_t)sim_mhz, (uint32_t)board_mhz);
			if (c > cyc[b])
				cyc[b] = c;
		}
	/* A window's output buffer is busy from its iteration's start until
	 * drained (docs/emulator.md), so a latency above cpi - beats halves
	 * the rate: "throughput" keeps the trace's rate, "latency" its first
	 * window. */
	if (!strcmp(fitmode, "throughput")) {
		uint64_t beats = 0, c0 = 0;
		for (q = 0; q < a->nout; q++)
			if (a->window[q] / 16 > beats)
				beats = a->window[q] / 16;
		aieth__aiesim_fit_blocks(cyc, a->blocks, fallback, UINT64_MAX, &fit);
		c0 = fit.cpi;
		maxlat = c0 > beats ? c0 - beats : 0;
	}
	aieth__aiesim_fit_blocks(cyc, a->blocks, fallback, maxlat, &fit);
	if (!strcmp(fitmode, "exact")) {
		uint64_t beats[AIETH_MODEL_MAX_PORTS];
		size_t bad = 0;
		for (q = 0; q < a->nout; q++)
			beats[q] = a->window[q] / 16;
		/* two passes: the trace, then every later pass (repeat) */
		a->cyc = a->blocks <= SIZE_MAX / 2 / sizeof *a->cyc
				 ? malloc(2 * a->blocks * sizeof *a->cyc)
				 : NULL;
		if (!a->cyc) {
			rc = aieth__fail(AIETH_ENOMEM, M ": out of memory");
			goto done;
		}
		if (aieth__aiesim_exact_schedule(cyc, a->blocks, beats, a->nout, fit.cpi, 2,
						 AIETH_MPARAM_MAX_CYCLES, a->cyc, &bad)) {
			uint64_t line = 0;
			aieth__aiesim_trace_time_at(&tr[0], bad * a->window[0], &line);
			rc = aieth__fail(
				AIETH_EINVAL,
				M ": window %zu (time stamp at line %llu of"
				  " outputs[0]) comes more than 1e9 cycles after the one before"
				  " (the model limit)",
				bad, (unsigned long long)line);
			goto done;
		}
		/* the fixed fields must stay valid; the hook replaces them */
		fit.latency = 0;
		fit.max_dev = 0;
		if (fit.cpi > AIETH_MPARAM_MAX_CYCLES)
			fit.cpi = AIETH_MPARAM_MAX_CYCLES;
	}
	if (fit.cpi > AIETH_MPARAM_MAX_CYCLES || fit.latency > 1000000000u) {
		rc = aieth__fail(AIETH_EINVAL,
				 M ": the trace's timing (%llu cycles per window, latency"
				   " %llu) is beyond the model limits (1e9 each)",
				 (unsigned long long)fit.cpi, (unsigned long long)fit.latency);
		goto done;
	}
	if (fit.max_dev > jitter) {
		uint64_t line = 0;
		aieth__aiesim_trace_time_at(&tr[0], fit.dev_at * a->window[0], &line);
		rc = aieth__fail(AIETH_EINVAL,
				 M ": params.max_jitter_cycles: window %zu (time stamp at"
				   " line %llu of outputs[0]) is %llu cycles away from the fitted"
				   " schedule (every %llu cycles after latency %llu), above %llu",
				 fit.dev_at, (unsigned long long)line,
				 (unsigned long long)fit.max_dev, (unsigned long long)fit.cpi,
				 (unsigned long long)fit.latency, (unsigned long long)jitter);
		goto done;
	}
	for (q = 0; q < a->nout; q++) { /* keep only the data */
		a->data[q] = tr[q].data;
		tr[q].data = NULL;
	}
	snprintf(k->name, sizeof k->name, "%s", M);
	k->num_outputs = a->nout;
	k->cycles_per_iteration = fit.cpi;
	k->latency = fit.latency;
	k->compute = aiesim_compute;
	k->ctx = a;
	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = 1;
	out->kernels = k;
	out->ctx = a;
	out->destroy = aiesim_destroy;
	if (a->cyc) {
		out->iteration_timing = aiesim_timing;
		out->timing_period = a->blocks;
	}
done:
	for (q = 0; q < AIETH_MODEL_MAX_PORTS; q++)
		aieth__aiesim_trace_free(&tr[q]);
	free(cyc);
	free(dirbuf);
	json_object_put(obj);
	if (rc)
		aiesim_destroy(a);
	return rc;
}

int aieth__model_aiesim_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	return aieth__mparam_create(create, env, params, out);
}
