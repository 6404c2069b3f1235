/* SPDX-License-Identifier: MIT */
/*
 * run_sensors.c - power and temperature beside each test: the sampler
 * (sensors/) runs while the test's graphs and transactions do
 * (rn_run_point), and its figures become the test's "sensors" object
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
	jobj *w = rj_get(test, "warnings");
	if (!w) {
		w = rj_arr();
		rj_set(test, "warnings", w);
	}
	rj_push_str(w, msg);
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
	jobj *o = rj_obj();
	rj_str(o, "status", status);
	rj_str(o, "reason", reason);
	rj_set(o, "sensors", rj_arr());
	rj_set(c->test, "sensors", o);
}

/* Where the sensors are for this test's backend: the board's own /sys on
 * xrt; a stand-in tree (AIETH_SYSFS_ROOT) on every backend, so the
 * sampler is tested everywhere; else none (NULL and the reason). */
static const char *where(run_ctx *c, const char **reason)
{
	const char *backend = rj_gets(c->test, "backend");
	const char *env = getenv("AIETH_SYSFS_ROOT");
	if (env && *env)
		return aieth__sysfs_root();
	if (!strcmp(backend, "xrt"))
		return aieth__sysfs_root();
	/* one reason for both: a remote report equals the local one but for
	 * the backend (th_server does not return the board's sensors) */
	*reason = "not sampled on backends emu and remote (the emulated board has no sensors, "
		  "th_server does not return a board's) unless AIETH_SYSFS_ROOT names a tree "
		  "(docs/on-board.md)";
	return NULL;
}

void rn_sensors_start(run_ctx *c)
{
	const char *reason = NULL, *root;
	if (c->sampler || rj_get(c->test, "sensors"))
		return; /* a sweep's point already has them */
	if (off(c)) {
		not_sampled(c, "off", "--no-sensors");
		return;
	}
	if (!(root = where(c, &reason))) {
		not_sampled(c, "not available", reason);
		return;
	}
	if (sens_find(&c->sens)) {
		not_sampled(c, "not available", "out of memory");
		return;
	}
	if (sens_sampler_start(&c->sampler, &c->sens, period(c))) {
		sens_set_free(&c->sens);
		not_sampled(c, "not available", "out of memory");
	}
}

/* The series of one sensor as report.json keeps it: t_s and value arrays
 * of the last samples (SENS_RING), oldest first. */
static jobj *series(const sens_series *z)
{
	jobj *o = rj_obj(), *t = rj_arr(), *v = rj_arr();
	size_t k, first = (z->head + SENS_RING - z->len) % SENS_RING;
	for (k = 0; k < z->len; k++) {
		size_t i = (first + k) % SENS_RING;
		rj_push(t, json_object_new_double((double)z->t_ms[i] / 1e3));
		rj_push(v, json_object_new_double((double)z->v[i]));
	}
	rj_set(o, "t_s", t);
	rj_set(o, "value", v);
	return o;
}

void rn_sensors_stop(run_ctx *c)
{
	const sens_set *set;
	jobj *o, *items, *notes;
	double hottest = 0;
	const char *hot_name = NULL;
	size_t i;
	if (!c->sampler)
		return;
	sens_sampler_stop(c->sampler);
	set = sens_sampler_set(c->sampler);
	o = rj_obj();
	items = rj_arr();
	notes = rj_arr();
	rj_str(o, "status", set->n ? "sampled" : "not available");
	if (!set->n)
		rj_str(o, "reason",
		       "no SysMon (IIO xlnx,versal-sysmon) or hwmon sensor could be read");
	rj_str(o, "root", aieth__sysfs_root());
	rj_u64(o, "period_ms", sens_sampler_period(c->sampler));
	rj_u64(o, "samples_kept_max", SENS_RING);
	rj_num(o, "temperature_limit_C", SENS_TEMP_LIMIT_C);
	{
		char iso[40];
		aieth__iso8601(sens_sampler_t0(c->sampler), iso, sizeof iso);
		rj_str(o, "started", iso);
	}
	for (i = 0; i < set->n; i++) {
		const sens_def *d = &set->def[i];
		const sens_series *z = sens_sampler_series(c->sampler, i);
		jobj *s = rj_obj();
		rj_str(s, "name", d->name);
		rj_str(s, "kind", sens_kind_name(d->kind));
		rj_str(s, "unit", sens_unit(d->kind));
		rj_str(s, "source", d->source);
		rj_str(s, "path", d->path);
		rj_u64(s, "samples", z->count);
		if (z->count) {
			rj_num(s, "min", z->min);
			rj_num(s, "max", z->max);
			rj_num(s, "mean", z->sum / (double)z->count);
		} else {
			rj_null(s, "min");
			rj_null(s, "max");
			rj_null(s, "mean");
		}
		if (z->dropped)
			rj_bool(s, "dropped", 1);
		if (d->device_temp)
			rj_bool(s, "device_temperature", 1);
		rj_set(s, "series", series(z));
		rj_push(items, s);
		if (d->device_temp && z->count && z->max > SENS_TEMP_LIMIT_C &&
		    (!hot_name || z->max > hottest)) {
			hottest = z->max;
			hot_name = d->name;
		}
	}
	for (i = 0; i < set->nnotes; i++)
		rj_push_str(notes, set->notes[i]);
	if (set->notes_dropped) {
		char n[80];
		snprintf(n, sizeof n, "%zu more notes left out", set->notes_dropped);
		rj_push_str(notes, n);
	}
	rj_set(o, "sensors", items);
	rj_set(o, "notes", notes);
	rj_set(c->test, "sensors", o);
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
	sens_sampler_free(c->sampler);
	c->sampler = NULL;
	sens_set_free(&c->sens);
}

void rn_sensors_absent(run_ctx *c)
{
	rn_sensors_stop(c);
	if (!rj_get(c->test, "sensors"))
		not_sampled(c, off(c) ? "off" : "not available",
			    off(c) ? "--no-sensors"
				   : "the test stopped before it ran on the device");
}
