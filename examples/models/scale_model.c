/* SPDX-License-Identifier: MIT */
/*
 * scale_model.c - an example graph model plugin, and the template to copy
 * when writing your own (docs/graph-models.md).
 *
 * One kernel, "scale": reads int16 samples (little-endian) from one input
 * PLIO, multiplies each by an integer gain, saturates the product to the
 * int16 range and writes it to one output PLIO.
 *
 * Params (a JSON object, every key optional):
 *   "in"                    input PLIO        (default "PLIO_01_TO_AIE")
 *   "out"                   output PLIO       (default "PLIO_01_FROM_AIE")
 *   "gain"                  -32768..32767     (default 1)
 *   "window_bytes"          bytes per iteration on both ports, a multiple
 *                           of 16, 16..1048576 (default 256)
 *   "cycles_per_iteration"  PL cycles per iteration, 1..1e9
 *                           (default window_bytes / 16, the stream rate)
 *   "latency"               PL cycles, 0..1e9 (default 16)
 *
 * Build and use:
 *   cc -shared -fPIC -I<prefix>/include -o scale_model.so scale_model.c
 *   run_test ... with the graph's model set to ./scale_model.so
 *
 * A plugin is not linked against libaieth or any JSON library, so the
 * params are read by the small scanner below: a flat JSON object whose
 * values are strings (without escapes) or integers. Anything else is
 * rejected with a message. The emulator validates the returned model
 * (PLIO names, directions, channels, sizes) after create, so the plugin
 * only checks what it needs to compute correctly.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth_model.h"

/* The one symbol the emulator looks up (AIETH_MODEL_ENTRY). */
int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out);

typedef struct {
	int32_t gain;
	uint64_t window; /* bytes per iteration */
	aieth_model_kernel kernel;
} scale_model;

/* ------------------------------------------------------------- compute */

/* Iterations first .. first+count-1: in[0] and out[0] hold count windows.
 * The result depends on the input bytes only (never on earlier calls or
 * on first): the emulator skips iterations nobody observes, so a model
 * must be a pure function of (iteration index, inputs). */
static int scale_compute(void *ctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			 uint8_t *const *out)
{
	const scale_model *s = ctx;
	const uint8_t *src = in[0];
	uint8_t *dst = out[0];
	uint64_t i, n;

	(void)first;
	if (count > UINT64_MAX / s->window)
		return -1;
	n = count * s->window;
	for (i = 0; i < n; i += 2) {
		/* Byte access: any alignment and either endianness of the host. */
		int32_t x = (int32_t)((uint32_t)src[i] | (uint32_t)src[i + 1] << 8);
		int32_t y;
		if (x >= 32768)
			x -= 65536;
		y = x * s->gain; /* |x * gain| <= 2^30: no overflow */
		if (y > 32767)
			y = 32767;
		if (y < -32768)
			y = -32768;
		dst[i] = (uint8_t)((uint32_t)y & 0xff);
		dst[i + 1] = (uint8_t)(((uint32_t)y >> 8) & 0xff);
	}
	return 0;
}

static void scale_destroy(void *ctx) { free(ctx); }

/* ------------------------------------------------------------- params */

static int fail(const aieth_model_env *env, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(env->err, env->err_size, "scale: ");
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < env->err_size)
		vsnprintf(env->err + n, env->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A string without escapes into buf; returns the text after it or NULL. */
static const char *scan_string(const char *p, char *buf, size_t size)
{
	size_t n = 0;
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if (*p == '\0' || *p == '\\' || (unsigned char)*p < 0x20 || n + 1 >= size)
			return NULL;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return p + 1;
}

/* A JSON integer (no fraction, no exponent, no leading zero) within
 * [-1e15, 1e15]; returns the text after it or NULL. */
static const char *scan_int(const char *p, long long *v)
{
	int neg = *p == '-';
	long long x = 0;
	p += neg;
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (*p - '0');
		if (x > 1000000000000000LL)
			return NULL;
	}
	if (*p == '.' || *p == 'e' || *p == 'E')
		return NULL;
	*v = neg ? -x : x;
	return p;
}

typedef struct {
	char in[32], out[32];
	long long gain, window, cycles, latency; /* cycles -1: stream rate */
} settings;

/* The keys: two PLIO names, then four integers with their ranges. */
static const struct {
	const char *key;
	long long min, max;
} keys[] = {{"in", 0, 0},
	    {"out", 0, 0},
	    {"gain", -32768, 32767},
	    {"window_bytes", 16, 1048576},
	    {"cycles_per_iteration", 1, 1000000000},
	    {"latency", 0, 1000000000}};

/* Store one key/value pair; is_str tells which of str/num holds it. */
static int set(const aieth_model_env *env, settings *st, unsigned *seen, const char *key,
	       int is_str, const char *str, long long num)
{
	long long *ints[] = {NULL, NULL, &st->gain, &st->window, &st->cycles, &st->latency};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0] && strcmp(key, keys[i].key) != 0; i++)
		;
	if (i == sizeof keys / sizeof keys[0])
		return fail(env,
			    "params.%s: unknown key (known: in, out, gain, window_bytes,"
			    " cycles_per_iteration, latency)",
			    key);
	if (*seen & (1u << i)) /* not "the last one wins" */
		return fail(env, "params.%s: given twice", key);
	*seen |= 1u << i;
	if (i < 2) {
		if (!is_str)
			return fail(env, "params.%s: %lld is not a string (a PLIO name)", key, num);
		snprintf(i == 0 ? st->in : st->out, 32, "%s", str);
		return 0;
	}
	if (is_str)
		return fail(env, "params.%s: \"%s\" is not an integer", key, str);
	if (num < keys[i].min || num > keys[i].max)
		return fail(env, "params.%s: %lld is out of range %lld..%lld", key, num,
			    keys[i].min, keys[i].max);
	*ints[i] = num;
	return 0;
}

/* Read params into st: NULL, "" or a flat JSON object. */
static int read_params(const aieth_model_env *env, const char *params, settings *st)
{
	char key[32], str[32];
	unsigned seen = 0;
	const char *p = skip_ws(params ? params : "");

	if (*p == '\0')
		return 0;
	if (*p++ != '{')
		return fail(env, "params: not a JSON object");
	p = skip_ws(p);
	if (*p == '}')
		p++;
	else
		for (;;) {
			long long num = 0;
			int is_str;
			p = scan_string(p, key, sizeof key);
			if (!p)
				return fail(env, "params: expected a key (a short string without"
						 " escapes)");
			p = skip_ws(p);
			if (*p++ != ':')
				return fail(env, "params.%s: expected ':' after the key", key);
			p = skip_ws(p);
			is_str = *p == '"';
			p = is_str ? scan_string(p, str, sizeof str) : scan_int(p, &num);
			if (!p)
				return fail(env,
					    "params.%s: the value must be a short string without"
					    " escapes or an integer",
					    key);
			if (set(env, st, &seen, key, is_str, str, num))
				return -1;
			p = skip_ws(p);
			if (*p == '}') {
				p++;
				break;
			}
			if (*p++ != ',')
				return fail(env, "params: expected ',' or '}' after params.%s",
					    key);
			p = skip_ws(p);
		}
	if (*skip_ws(p) != '\0')
		return fail(env, "params: unexpected text after the closing '}'");
	return 0;
}

/* --------------------------------------------------------------- create */

int aieth_model_create(const aieth_model_env *env, const char *params, aieth_model *out)
{
	settings st = {"PLIO_01_TO_AIE", "PLIO_01_FROM_AIE", 1, 256, -1, 16};
	aieth_model_kernel *k;
	scale_model *s;

	if (env->abi_version != AIETH_MODEL_ABI_VERSION)
		return fail(env, "built for model ABI %d, the emulator has %u",
			    AIETH_MODEL_ABI_VERSION, (unsigned)env->abi_version);
	if (read_params(env, params, &st))
		return -1;
	if (st.window % 16 != 0)
		return fail(env, "params.window_bytes: %lld is not a multiple of 16", st.window);

	s = calloc(1, sizeof *s);
	if (!s)
		return fail(env, "out of memory");
	s->gain = (int32_t)st.gain;
	s->window = (uint64_t)st.window;
	k = &s->kernel;
	snprintf(k->name, sizeof k->name, "scale");
	k->num_inputs = 1;
	k->num_outputs = 1;
	memcpy(k->inputs[0].plio, st.in, sizeof st.in);
	memcpy(k->outputs[0].plio, st.out, sizeof st.out);
	k->inputs[0].bytes_per_iteration = s->window;
	k->outputs[0].bytes_per_iteration = s->window;
	k->cycles_per_iteration = st.cycles < 0 ? s->window / 16 : (uint64_t)st.cycles;
	k->latency = (uint64_t)st.latency;
	k->compute = scale_compute;
	k->ctx = s;

	out->abi_version = AIETH_MODEL_ABI_VERSION;
	out->num_kernels = 1;
	out->kernels = k;
	out->ctx = s;
	out->destroy = scale_destroy;
	return 0;
}
