/* SPDX-License-Identifier: MIT */
/*
 * srv_sensors.c - the server's board sensors for GET /v1/sensors
 * (srv_sensors.h): aieth__sens_find_plain once, aieth__sens_read at most every
 * SRV_SENSORS_MIN_MS, the answer's text kept for the requests between.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "aieth.h"
#include "sensors/sensors.h"
#include "th_server/srv_sensors.h"
#include "util/error.h"
#include "util/path.h"

struct srv_sensors {
	pthread_mutex_t mu;
	int available; /* a tree to read: AIETH_SYSFS_ROOT, or /sys on xrt */
	int found;     /* set holds the sensors (found at the first request) */
	sens_set set;
	unsigned *fails; /* reads failed in a row, per sensor (SENS_FAIL_MAX: dropped) */
	int64_t at_ms;   /* when text was made */
	char *text;
	size_t len;
};

srv_sensors *aieth__srv_sensors_new(const char *backend)
{
	srv_sensors *z = calloc(1, sizeof *z);
	const char *env = getenv("AIETH_SYSFS_ROOT");
	if (!z)
		return NULL;
	pthread_mutex_init(&z->mu, NULL);
	/* as run_test decides locally (runner/run_sensors.c) */
	z->available = (env && *env) || (aieth_backend_flags(backend) & AIETH_BACKEND_HOST_SYSFS);
	return z;
}

void aieth__srv_sensors_free(srv_sensors *z)
{
	if (!z)
		return;
	aieth__sens_set_free(&z->set);
	free(z->fails);
	free(z->text);
	pthread_mutex_destroy(&z->mu);
	free(z);
}

static int64_t mono_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Printable ASCII only (a hostile tree's names and texts go to clients). */
static struct json_object *ascii(const char *s)
{
	char buf[300];
	size_t i;
	for (i = 0; s[i] && i + 1 < sizeof buf; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return json_object_new_string(buf);
}

/* One sensor now: its value, or null after a failed read (SENS_FAIL_MAX
 * in a row: no longer read, a note says so). late: past the read budget. */
static struct json_object *value(srv_sensors *z, size_t i, int late)
{
	const sens_def *d = &z->set.def[i];
	char why[200];
	double v;
	if (late || z->fails[i] >= SENS_FAIL_MAX)
		return NULL;
	if (!aieth__sens_read(d, &v, why, sizeof why)) {
		z->fails[i] = 0;
		return json_object_new_double(v);
	}
	if (++z->fails[i] == SENS_FAIL_MAX)
		aieth__sens_note(&z->set, "%s: %s (%u times in a row): no longer read", d->name,
				 why, z->fails[i]);
	return NULL;
}

/* mu held: the answer as of now. */
static int refresh(srv_sensors *z)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array(),
			   *notes = json_object_new_array();
	const char *t;
	int64_t t0;
	size_t i;
	if (z->available && !z->found) {
		if (aieth__sens_find_plain(&z->set) ||
		    !(z->fails = calloc(z->set.n ? z->set.n : 1, sizeof *z->fails))) {
			aieth__sens_set_free(&z->set);
			json_object_put(o);
			json_object_put(a);
			json_object_put(notes);
			return aieth__fail(AIETH_ENOMEM, "sensors: out of memory");
		}
		z->found = 1;
	}
	t0 = mono_ms();
	json_object_object_add(o, "available", json_object_new_boolean(z->available));
	for (i = 0; z->found && i < z->set.n; i++) {
		const sens_def *d = &z->set.def[i];
		struct json_object *e = json_object_new_object();
		json_object_object_add(e, "name", ascii(d->name));
		json_object_object_add(e, "source", ascii(d->source));
		json_object_object_add(e, "kind",
				       json_object_new_string(aieth__sens_kind_name(d->kind)));
		json_object_object_add(e, "unit",
				       json_object_new_string(aieth__sens_unit(d->kind)));
		json_object_object_add(e, "value",
				       value(z, i, mono_ms() - t0 > SRV_SENSORS_READ_MS));
		json_object_array_add(a, e);
	}
	for (i = 0; z->found && i < z->set.nnotes; i++)
		json_object_array_add(notes, ascii(z->set.notes[i]));
	if (z->found && z->set.notes_dropped) {
		char n[80];
		snprintf(n, sizeof n, "%zu more notes left out", z->set.notes_dropped);
		json_object_array_add(notes, json_object_new_string(n));
	}
	json_object_object_add(o, "sensors", a);
	json_object_object_add(o, "notes", notes);
	t = json_object_to_json_string_ext(o,
					   JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	free(z->text);
	z->text = t ? aieth__strdup(t) : NULL;
	z->len = z->text ? strlen(z->text) : 0;
	json_object_put(o);
	return z->text ? AIETH_OK : aieth__fail(AIETH_ENOMEM, "sensors: out of memory");
}

int aieth__srv_sensors_reply(srv_sensors *z, int64_t now_ms, char **text, size_t *len)
{
	int rc = AIETH_OK;
	*text = NULL;
	*len = 0;
	pthread_mutex_lock(&z->mu);
	if (!z->text || now_ms - z->at_ms >= SRV_SENSORS_MIN_MS || now_ms < z->at_ms) {
		rc = refresh(z);
		z->at_ms = now_ms;
	}
	if (!rc && !(*text = malloc(z->len + 1)))
		rc = aieth__fail(AIETH_ENOMEM, "sensors: out of memory");
	if (!rc) {
		memcpy(*text, z->text, z->len + 1);
		*len = z->len;
	}
	pthread_mutex_unlock(&z->mu);
	return rc;
}
