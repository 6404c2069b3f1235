/* SPDX-License-Identifier: MIT */
/* load.c - open built-in and plugin graph models and validate them. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/models/load.h"
#include "pl_dma/models/models.h"
#include "pl_dma/models/params.h"
#include "util/error.h"
#include "util/path.h"
#include "util/text.h"

static const char *const dir_word[2] = {"input", "output"};
static const char *const dir_form[2] = {"PLIO_NN_TO_AIE", "PLIO_NN_FROM_AIE"};

static int is_path(const char *spec)
{
	size_t n = strlen(spec);
	return strchr(spec, '/') != NULL || (n >= 3 && strcmp(spec + n - 3, ".so") == 0);
}

static const aieth_model_port *port_of(const aieth_model_kernel *k, int dir, uint32_t p)
{
	return dir ? &k->outputs[p] : &k->inputs[p];
}

/* The first port of the model using PLIO (dir, num), for the message about
 * the second one. */
static void first_user(const aieth_model *m, int dir, uint32_t num, uint32_t *kernel,
		       uint32_t *port)
{
	uint32_t k, p;
	for (k = 0; k < m->num_kernels; k++) {
		const aieth_model_kernel *kn = &m->kernels[k];
		uint32_t np = dir ? kn->num_outputs : kn->num_inputs;
		for (p = 0; p < np; p++) {
			int d;
			uint32_t n;
			if (aieth__mparam_plio_parse(port_of(kn, dir, p)->plio, &d, &n) == 0 &&
			    n == num) {
				*kernel = k;
				*port = p;
				return;
			}
		}
	}
	*kernel = *port = 0;
}

/* Port p of direction dir of kernel k (kq: its name, quoted). */
static int check_port(const aieth_model *m, const aieth_model_env *env, const char *spec,
		      uint32_t k, const char *kq, int dir, uint32_t p, unsigned char *used)
{
	const aieth_model_kernel *kn = &m->kernels[k];
	const aieth_model_port *port = port_of(kn, dir, p);
	uint64_t bytes = port->bytes_per_iteration;
	uint32_t num, uk, up;
	char q[300];
	int d;

#define WHERE "model \"%s\": kernel %u \"%s\": %s %u"
#define WHERE_ARGS spec, (unsigned)k, kq, dir_word[dir], (unsigned)p
	if (!memchr(port->plio, '\0', sizeof port->plio))
		return aieth__fail(AIETH_EINVAL,
				   WHERE ": PLIO name is not NUL-terminated within"
					 " its %zu bytes",
				   WHERE_ARGS, sizeof port->plio);
	if (aieth__mparam_plio_parse(port->plio, &d, &num) != 0) {
		aieth__quote_str(q, sizeof q, port->plio);
		return aieth__fail(AIETH_EINVAL,
				   WHERE ": \"%s\" is not a PLIO name (expected %s,"
					 " NN the channel number written with two digits)",
				   WHERE_ARGS, q, dir_form[dir]);
	}
	if (d != dir)
		return aieth__fail(AIETH_EINVAL,
				   WHERE ": \"%s\" has the wrong direction (an %s"
					 " must be %s)",
				   WHERE_ARGS, port->plio, dir_word[dir], dir_form[dir]);
	if (num > env->channels)
		return aieth__fail(AIETH_EINVAL,
				   WHERE ": \"%s\" is beyond the board, which has"
					 " %u channels per direction",
				   WHERE_ARGS, port->plio, (unsigned)env->channels);
	if (bytes == 0 || bytes % 16 != 0 || bytes > AIETH_MODEL_MAX_PORT_BYTES)
		return aieth__fail(AIETH_EINVAL, WHERE " (%s): bytes_per_iteration %llu %s",
				   WHERE_ARGS, port->plio, (unsigned long long)bytes,
				   bytes == 0   ? "is zero (must be a non-zero multiple of 16)"
				   : bytes % 16 ? "is not a multiple of 16 (one 128-bit PLIO beat)"
						: "is above the limit of 1 GiB (1073741824 bytes)");
	if (used[num]) {
		first_user(m, dir, num, &uk, &up);
		aieth__quote_str(q, sizeof q, m->kernels[uk].name);
		return aieth__fail(AIETH_EINVAL,
				   WHERE ": %s is already used by kernel %u \"%s\" %s"
					 " %u; a PLIO carries one port only",
				   WHERE_ARGS, port->plio, (unsigned)uk, q, dir_word[dir],
				   (unsigned)up);
	}
	used[num] = 1;
	return 0;
#undef WHERE
#undef WHERE_ARGS
}

static int check_kernel(const aieth_model *m, const aieth_model_env *env, const char *spec,
			uint32_t k, unsigned char *used[2])
{
	const aieth_model_kernel *kn = &m->kernels[k];
	uint32_t j, p;
	char kq[300];
	int dir, rc;

	if (!memchr(kn->name, '\0', sizeof kn->name))
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": kernel %u: name is not"
				   " NUL-terminated within its %zu bytes",
				   spec, (unsigned)k, sizeof kn->name);
	if (!kn->name[0])
		return aieth__fail(AIETH_EINVAL, "model \"%s\": kernel %u: name is empty", spec,
				   (unsigned)k);
	aieth__quote_str(kq, sizeof kq, kn->name);
	for (j = 0; j < k; j++)
		if (strcmp(m->kernels[j].name, kn->name) == 0)
			return aieth__fail(AIETH_EINVAL,
					   "model \"%s\": kernel %u: name \"%s\" is"
					   " also the name of kernel %u",
					   spec, (unsigned)k, kq, (unsigned)j);
	if (!kn->compute)
		return aieth__fail(AIETH_EINVAL, "model \"%s\": kernel %u \"%s\": compute is NULL",
				   spec, (unsigned)k, kq);
	if (kn->num_inputs > AIETH_MODEL_MAX_PORTS || kn->num_outputs > AIETH_MODEL_MAX_PORTS)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": kernel %u \"%s\": %u inputs and %u"
				   " outputs, the limit is %u of each",
				   spec, (unsigned)k, kq, (unsigned)kn->num_inputs,
				   (unsigned)kn->num_outputs, (unsigned)AIETH_MODEL_MAX_PORTS);
	if (kn->num_inputs + kn->num_outputs == 0)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": kernel %u \"%s\": has no port (a"
				   " kernel needs at least one input or output)",
				   spec, (unsigned)k, kq);
	for (dir = 0; dir < 2; dir++) {
		uint32_t np = dir ? kn->num_outputs : kn->num_inputs;
		for (p = 0; p < np; p++) {
			rc = check_port(m, env, spec, k, kq, dir, p, used[dir]);
			if (rc)
				return rc;
		}
	}
	if (kn->cycles_per_iteration < 1 || kn->cycles_per_iteration > AIETH_MODEL_MAX_CYCLES)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": kernel %u \"%s\":"
				   " cycles_per_iteration %llu is out of range 1..%llu",
				   spec, (unsigned)k, kq,
				   (unsigned long long)kn->cycles_per_iteration,
				   (unsigned long long)AIETH_MODEL_MAX_CYCLES);
	if (kn->latency > AIETH_MODEL_MAX_LATENCY)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": kernel %u \"%s\": latency %llu is"
				   " above the limit of %llu cycles",
				   spec, (unsigned)k, kq, (unsigned long long)kn->latency,
				   (unsigned long long)AIETH_MODEL_MAX_LATENCY);
	return 0;
}

int aieth__model_validate(const aieth_model *m, const aieth_model_env *env, const char *spec)
{
	unsigned char *used[2];
	uint32_t k;
	int rc = 0;

	if (!spec)
		spec = "?";
	if (!m || !env)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": no model or environment to validate", spec);
	if (env->channels == 0)
		return aieth__fail(AIETH_EINVAL, "model \"%s\": the board has no PLIO channels",
				   spec);
	if (m->abi_version != AIETH_MODEL_ABI_VERSION)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": ABI version %u, expected %u (rebuild"
				   " the model against this aieth_model.h)",
				   spec, (unsigned)m->abi_version,
				   (unsigned)AIETH_MODEL_ABI_VERSION);
	if (m->num_kernels == 0 || !m->kernels)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": declares no kernel (num_kernels %u,"
				   " kernels %s)",
				   spec, (unsigned)m->num_kernels, m->kernels ? "set" : "NULL");
	/* Every kernel has a port and no PLIO serves two ports. */
	if ((uint64_t)m->num_kernels > 2ull * env->channels)
		return aieth__fail(AIETH_EINVAL,
				   "model \"%s\": %u kernels, more than the board's"
				   " %u PLIOs can serve",
				   spec, (unsigned)m->num_kernels, (unsigned)(2u * env->channels));
	used[0] = calloc((size_t)env->channels + 1, 1);
	used[1] = calloc((size_t)env->channels + 1, 1);
	if (!used[0] || !used[1])
		rc = aieth__fail(AIETH_ENOMEM, "model \"%s\": out of memory", spec);
	for (k = 0; !rc && k < m->num_kernels; k++)
		rc = check_kernel(m, env, spec, k, used);
	/* the per-iteration values are checked as the emulator uses them */
	if (!rc && m->iteration_timing && m->timing_period > AIETH_MODEL_MAX_CYCLES)
		rc = aieth__fail(AIETH_EINVAL,
				 "model \"%s\": timing_period %llu is above the limit"
				 " of %llu iterations (0 = aperiodic)",
				 spec, (unsigned long long)m->timing_period,
				 (unsigned long long)AIETH_MODEL_MAX_CYCLES);
	free(used[0]);
	free(used[1]);
	return rc;
}

static int open_plugin(aieth_model_handle *h, const char *spec, const char *params,
		       aieth_model_env *env)
{
	aieth_model_create_fn create;
	char *path = NULL;
	void *sym;
	int rc;

	if (!strchr(spec, '/')) {
		path = aieth__path_join(".", spec);
		if (!path)
			return aieth__fail(AIETH_ENOMEM, "model \"%s\": out of memory", spec);
	}
	dlerror();
	h->dl = dlopen(path ? path : spec, RTLD_NOW | RTLD_LOCAL);
	free(path);
	if (!h->dl) {
		const char *e = dlerror();
		return aieth__fail(AIETH_EIO, "model \"%s\": dlopen failed: %s", spec,
				   e ? e : "unknown error");
	}
	dlerror();
	sym = dlsym(h->dl, AIETH_MODEL_ENTRY);
	if (!sym) {
		rc = aieth__fail(AIETH_EINVAL,
				 "model \"%s\": does not export %s (see aieth_model.h)", spec,
				 AIETH_MODEL_ENTRY);
		goto fail;
	}
	/* POSIX guarantees a data pointer from dlsym converts to a function pointer. */
	_Static_assert(sizeof create == sizeof sym, "function and data pointers differ in size");
	memcpy(&create, &sym, sizeof create);
	rc = create(env, params, &h->model);
	if (rc != 0) {
		env->err[env->err_size - 1] = '\0';
		if (env->err[0])
			rc = aieth__fail(AIETH_EINVAL, "model \"%s\": create failed: %s", spec,
					 env->err);
		else
			rc = aieth__fail(AIETH_EINVAL,
					 "model \"%s\": create failed (returned %d)"
					 " without a message",
					 spec, rc);
		memset(&h->model, 0, sizeof h->model);
		goto fail;
	}
	return 0;
fail:
	dlclose(h->dl);
	h->dl = NULL;
	return rc;
}

static int open_builtin(aieth_model_handle *h, const char *spec, const char *params,
			aieth_model_env *env)
{
	const char *const *names = aieth__builtin_model_names();
	char list[256];
	size_t used = 0;
	int rc = aieth__builtin_model_create(spec, env, params, &h->model);

	if (rc == 0)
		return 0;
	if (rc < 0) {
		env->err[env->err_size - 1] = '\0';
		/* The message of a built-in names the model already. */
		return aieth__fail(AIETH_EINVAL, "%s", env->err[0] ? env->err : "create failed");
	}
	list[0] = '\0';
	for (; *names && used < sizeof list; names++) {
		int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *names);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return aieth__fail(AIETH_ENOTFOUND,
			   "model \"%s\": not a built-in model (%s) nor a plugin"
			   " path (one containing '/' or ending in \".so\")",
			   spec, list);
}

int aieth__model_open(aieth_model_handle *h, const char *spec, const char *params,
		      const aieth_model_env *env)
{
	char err[1024];
	aieth_model_env e;
	int rc;

	if (!h)
		return aieth__fail(AIETH_EINVAL, "aieth__model_open: no handle given");
	memset(h, 0, sizeof *h);
	if (!spec || !*spec)
		return aieth__fail(AIETH_EINVAL, "model: no model name or plugin path given");
	if (!env)
		return aieth__fail(AIETH_EINVAL, "model \"%s\": no model environment given", spec);
	if (env->channels == 0)
		return aieth__fail(AIETH_EINVAL, "model \"%s\": the board has no PLIO channels",
				   spec);
	/* The model writes its messages into our buffer, whatever the caller's. */
	e = *env;
	e.abi_version = AIETH_MODEL_ABI_VERSION;
	err[0] = '\0';
	e.err = err;
	e.err_size = sizeof err;

	rc = is_path(spec) ? open_plugin(h, spec, params, &e) : open_builtin(h, spec, params, &e);
	if (rc)
		return rc;
	rc = aieth__model_validate(&h->model, &e, spec);
	if (!rc) {
		h->spec = aieth__strdup(spec);
		if (!h->spec)
			rc = aieth__fail(AIETH_ENOMEM, "model \"%s\": out of memory", spec);
	}
	if (rc) {
		aieth__model_close(h);
		return rc;
	}
	aieth__error_clear();
	return 0;
}

void aieth__model_close(aieth_model_handle *h)
{
	if (!h)
		return;
	if (h->model.destroy)
		h->model.destroy(h->model.ctx);
	if (h->dl)
		dlclose(h->dl);
	free(h->spec);
	memset(h, 0, sizeof *h);
}
