/* SPDX-License-Identifier: MIT */
/*
 * run_sensors.c - power and temperature beside each test: the sampler
 * (sensors/) runs while the test's graphs and transactions do
 * (aieth__rn_run_point), and its figures become the test's "sensors" object
 * (docs/report-schema.md) and, past the device temperature limit, a
 * warning of the test. Which backend samples what: docs/on-board.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "runner/run_internal.h"
#include "util/sysfs.h"

static void warn(jobj *test, const char *msg)
{
	jobj *w = aieth__rj_get(test, "warnings");
	if (!w) {
		w = aieth__rj_arr();
		aieth__rj_set(test, "warnings", w);
	}
	aieth__rj_push_str(w, msg);
}

/* the options of version 4 (an older caller's struct ends before them) */
static int off(const run_ctx *c) { return c->o && c->o->version >= 4 && c->o->no_sensors; }

static uint32_t period(const run_ctx *c)
{
	return c->o && c->o->version >= 4 && c->o->sensor_period_ms ? c->o->sensor_period_ms
								    : SENS_PERIOD_DEFAULT_MS;
}

static void not_sampled(run_ctx *c, const char *status, const char *reason)
{
	jobj *o = aieth__rj_obj();
	aieth__rj_str(o, "status", status);
	aieth__rj_str(o, "reason", reason);
	aieth__rj_set(o, "sensors", aieth__rj_arr());
	aieth__rj_set(c->test, "sensors", o);
}

/* The emulated board, local or behind th_server, has no sensors: one
 * reason for both, so that a remote report equals the local one but for
 * the backend (tests/e2e/server/remote.sh). */
#define EMU_REASON                                                                       \
	"not sampled on the emulated board (backend emu, or a th_server whose board is " \
	"emulated): it has no sensors, unless AIETH_SYSFS_ROOT names a tree "            \
	"(docs/on-board.md)"

/* Where the sensors are for this test's backend: a stand-in tree
 * (AIETH_SYSFS_ROOT) on every backend, so the sampler is tested
 * everywhere; the board's own /sys on xrt; the server's board on remote
 * (1: through the session); else none (-1 and the reason). */
static int where(run_ctx *c, const char **reason)
{
	unsigned int flags = aieth_backend_flags(aieth__rj_gets(c->test, "backend"));
	const char *env = getenv("AIETH_SYSFS_ROOT");
	if ((env && *env) || (flags & AIETH_BACKEND_HOST_SYSFS))
		return 0;
	if (flags & AIETH_BACKEND_NETWORKED)
		return 1;
	*reason = EMU_REASON;
	return -1;
}

/* sens_read_all_fn for the server's sensors: one GET /v1/sensors a
 * sample, matched to the set by name (a sensor the server no longer
 * lists has no reading). */
static int remote_read_all(void *ctx, const sens_set *set, double *v, int *ok, char *why,
			   size_t cap)
{
	run_ctx *c = ctx;
	size_t n = 0, i, j, k;
	int rc =
		aieth_session_sensors(c->sens_session, c->sens_buf, AIETH_SENSORS_MAX, &n, NULL, 0);
	if (rc) {
		snprintf(why, cap, "%s", aieth_error_message());
		return rc;
	}
	if (n > AIETH_SENSORS_MAX)
		n = AIETH_SENSORS_MAX;
	for (i = 0; i < set->n; i++) {
		/* the server answers in the same order: the same index first */
		j = i < n && !strcmp(c->sens_buf[i].name, set->def[i].name) ? i : n;
		for (k = 0; j == n && k < n; k++)
			if (!strcmp(c->sens_buf[k].name, set->def[i].name))
				j = k;
		if (j < n && c->sens_buf[j].valid) {
			v[i] = c->sens_buf[j].value;
			ok[i] = 1;
		}
	}
	return 0;
}

/* The server's sensors as a set for the sampler (c->sens): 0, or -1
 * with the test's sensors written "not available". */
static int remote_find(run_ctx *c, aieth_session *s)
{
	static const sens_kind kinds[] = {SENS_TEMP, SENS_VOLT, SENS_POWER, SENS_CURR};
	char notes[SENS_NOTES_MAX * 256], msg[700], *p, *nl;
	size_t n = 0, i;
	int rc;
	memset(&c->sens, 0, sizeof c->sens);
	if (!(c->sens_buf = calloc(AIETH_SENSORS_MAX, sizeof *c->sens_buf))) {
		not_sampled(c, "not available", "out of memory");
		return -1;
	}
	rc = aieth_session_sensors(s, c->sens_buf, AIETH_SENSORS_MAX, &n, notes, sizeof notes);
	if (rc == AIETH_EUNSUPPORTED) {
		not_sampled(c, "not available", EMU_REASON);
		return -1;
	}
	if (rc) {
		snprintf(msg, sizeof msg, "the server's sensors (GET /v1/sensors): %s",
			 aieth_error_message());
		not_sampled(c, "not available", msg);
		return -1;
	}
	if (n > AIETH_SENSORS_MAX)
		n = AIETH_SENSORS_MAX;
	if (n && !(c->sens.def = calloc(n, sizeof *c->sens.def))) {
		not_sampled(c, "not available", "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		sens_def *d = &c->sens.def[i];
		const aieth_sensor *x = &c->sens_buf[i];
		snprintf(d->name, sizeof d->name, "%s", x->name);
		snprintf(d->source, sizeof d->source, "%s", x->source);
		d->kind = kinds[x->kind];
		d->device_temp = aieth__sens_is_device_temp(d->name, d->source, d->kind);
	}
	c->sens.n = n;
	for (p = notes; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		aieth__sens_note(&c->sens, "%.*s", (int)(nl ? (size_t)(nl - p) : strlen(p)), p);
	}
	c->sens.read_all = remote_read_all;
	c->sens.read_ctx = c;
	c->sens_session = s;
	c->sens_remote = 1;
	return 0;
}

static void remote_free(run_ctx *c)
{
	free(c->sens_buf);
	c->sens_buf = NULL;
	c->sens_session = NULL;
	c->sens_remote = 0;
}

void aieth__rn_sensors_start(run_ctx *c, aieth_session *s)
{
	const char *reason = NULL;
	int w;
	if (c->sampler || aieth__rj_get(c->test, "sensors"))
		return; /* a sweep's point already has them */
	if (off(c)) {
		not_sampled(c, "off", "--no-sensors");
		return;
	}
	if ((w = where(c, &reason)) < 0) {
		not_sampled(c, "not available", reason);
		return;
	}
	if (w == 1) {
		if (remote_find(c, s)) {
			aieth__sens_set_free(&c->sens);
			remote_free(c);
			return;
		}
	} else if (aieth__sens_find(&c->sens)) {
		not_sampled(c, "not available", "out of memory");
		return;
	}
	if (aieth__sens_sampler_start(&c->sampler, &c->sens, period(c))) {
		aieth__sens_set_free(&c->sens);
		remote_free(c);
		not_sampled(c, "not available", "out of memory");
	}
}

/* The series of one sensor as report.json keeps it: t_s and value arrays
 * of the last samples (SENS_RING), oldest first. */
static jobj *series(const sens_series *z)
{
	jobj *o = aieth__rj_obj(), *t = aieth__rj_arr(), *v = aieth__rj_arr();
	size_t k, first = (z->head + SENS_RING - z->len) % SENS_RING;
	for (k = 0; k < z->len; k++) {
		size_t i = (first + k) % SENS_RING;
		aieth__rj_push(t, json_object_new_double((double)z->t_ms[i] / 1e3));
		aieth__rj_push(v, json_object_new_double((double)z->v[i]));
	}
	aieth__rj_set(o, "t_s", t);
	aieth__rj_set(o, "value", v);
	return o;
}

void aieth__rn_sensors_stop(run_ctx *c)
{
	const sens_set *set;
	jobj *o, *items, *notes;
	double hottest = 0;
	const char *hot_name = NULL;
	size_t i;
	if (!c->sampler)
		return;
	aieth__sens_sampler_stop(c->sampler);
	set = aieth__sens_sampler_set(c->sampler);
	o = aieth__rj_obj();
	items = aieth__rj_arr();
	notes = aieth__rj_arr();
	aieth__rj_str(o, "status", set->n ? "sampled" : "not available");
	if (!set->n)
		aieth__rj_str(o, "reason",
			      "no SysMon (IIO xlnx,versal-sysmon) or hwmon sensor could be read");
	/* the server's board: no tree of this machine, no file per sensor */
	if (!c->sens_remote)
		aieth__rj_str(o, "root", aieth__sysfs_root());
	aieth__rj_u64(o, "period_ms", aieth__sens_sampler_period(c->sampler));
	aieth__rj_u64(o, "samples_kept_max", SENS_RING);
	aieth__rj_num(o, "temperature_limit_C", SENS_TEMP_LIMIT_C);
	{
		char iso[40];
		aieth__iso8601(aieth__sens_sampler_t0(c->sampler), iso, sizeof iso);
		aieth__rj_str(o, "started", iso);
	}
	for (i = 0; i < set->n; i++) {
		const sens_def *d = &set->def[i];
		const sens_series *z = aieth__sens_sampler_series(c->sampler, i);
		jobj *s = aieth__rj_obj();
		aieth__rj_str(s, "name", d->name);
		aieth__rj_str(s, "kind", aieth__sens_kind_name(d->kind));
		aieth__rj_str(s, "unit", aieth__sens_unit(d->kind));
		aieth__rj_str(s, "source", d->source);
		if (!c->sens_remote)
			aieth__rj_str(s, "path", d->path);
		aieth__rj_u64(s, "samples", z->count);
		if (z->count) {
			aieth__rj_num(s, "min", z->min);
			aieth__rj_num(s, "max", z->max);
			aieth__rj_num(s, "mean", z->sum / (double)z->count);
		} else {
			aieth__rj_null(s, "min");
			aieth__rj_null(s, "max");
			aieth__rj_null(s, "mean");
		}
		if (z->dropped)
			aieth__rj_bool(s, "dropped", 1);
		if (d->device_temp)
			aieth__rj_bool(s, "device_temperature", 1);
		aieth__rj_set(s, "series", series(z));
		aieth__rj_push(items, s);
		if (d->device_temp && z->count && z->max > SENS_TEMP_LIMIT_C &&
		    (!hot_name || z->max > hottest)) {
			hottest = z->max;
			hot_name = d->name;
		}
	}
	for (i = 0; i < set->nnotes; i++)
		aieth__rj_push_str(notes, set->notes[i]);
	if (set->notes_dropped) {
		char n[80];
		snprintf(n, sizeof n, "%zu more notes left out", set->notes_dropped);
		aieth__rj_push_str(notes, n);
	}
	aieth__rj_set(o, "sensors", items);
	aieth__rj_set(o, "notes", notes);
	aieth__rj_set(c->test, "sensors", o);
	if (hot_name) {
		char msg[700];
		snprintf(msg, sizeof msg,
			 "sensors: device temperature %.1f \xc2\xb0"
			 "C (%s) above %.0f \xc2\xb0"
			 "C during the test: throughput may be throttled and the device "
			 "is outside its recommended operating range (docs/on-board.md)",
			 hottest, hot_name, SENS_TEMP_LIMIT_C);
		warn(c->test, msg);
	}
	aieth__sens_sampler_free(c->sampler);
	c->sampler = NULL;
	aieth__sens_set_free(&c->sens);
	remote_free(c);
}

void aieth__rn_sensors_absent(run_ctx *c)
{
	aieth__rn_sensors_stop(c);
	if (!aieth__rj_get(c->test, "sensors"))
		not_sampled(c, off(c) ? "off" : "not available",
			    off(c) ? "--no-sensors"
				   : "the test stopped before it ran on the device");
}
