/* SPDX-License-Identifier: MIT */
/*
 * sensors_find.c - the sensors of the sysfs tree: Versal SysMon (the IIO
 * device the xlnx,versal-sysmon driver registers) and hwmon devices such
 * as the INA226 power monitors of the evaluation boards. Every file is
 * read through util/sysfs.c (never blocks); one that cannot be read or
 * does not parse is left out with a note, never an error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth/error.h"
#include "sensors/sensors.h"
#include "util/grow.h"
#include "util/sysfs.h"

/* entries of a folder looked at: a board has a few dozen */
#define DIR_MAX 4096
#define SYSMON_NAME SENS_SYSMON_SOURCE

typedef struct {
	char (*names)[64];
	size_t n, cap;
	int oom;
} names;

static void keep_name(void *ctx, const char *name)
{
	names *l = ctx;
	if (strlen(name) >= sizeof l->names[0])
		return; /* no sensor file or device has a name this long */
	if (AIETH__GROW(l->names, l->cap, l->n + 1, 64, 0)) {
		l->oom = 1;
		return;
	}
	snprintf(l->names[l->n++], sizeof l->names[0], "%s", name);
}

/* a folder's entries (none when it is missing: no such sensors) */
static int list(const char *rel, names *l)
{
	memset(l, 0, sizeof *l);
	aieth__sysfs_list(rel, keep_name, l, DIR_MAX);
	if (l->oom) {
		free(l->names);
		memset(l, 0, sizeof *l);
		return AIETH_ENOMEM;
	}
	return 0;
}

void aieth__sens_note(sens_set *set, const char *fmt, ...)
{
	va_list ap;
	if (set->nnotes == SENS_NOTES_MAX) {
		set->notes_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(set->notes[set->nnotes++], sizeof set->notes[0], fmt, ap);
	va_end(ap);
}

/* Why a file could not be read: the message (it names the file), or,
 * plain, what happened without the path (th_server's reply). */
static void read_why(int rc, int plain, char *why, size_t wcap)
{
	if (!plain)
		snprintf(why, wcap, "%s", aieth_error_message());
	else
		snprintf(why, wcap, "%s",
			 rc == AIETH_ETIMEOUT    ? "no answer within the read's time limit"
			 : rc == AIETH_ENOTFOUND ? "missing"
			 : rc == AIETH_EINVAL    ? "not a status file"
						 : "cannot be read");
}

/* A small text file (a name, a scale): 0 and the text without its
 * newline, or -1 and the reason in why. */
static int read_text(const char *rel, char *buf, size_t cap, char *why, size_t wcap, int plain)
{
	size_t len = 0;
	int trunc = 0, rc = aieth__sysfs_read(rel, buf, cap, &len, &trunc, SENS_READ_MS);
	if (rc) {
		read_why(rc, plain, why, wcap);
		return -1;
	}
	if (trunc) {
		snprintf(why, wcap, "more than %zu bytes", cap - 1);
		return -1;
	}
	if (len && buf[len - 1] == '\n')
		buf[--len] = 0;
	return 0;
}

static int read_number(const char *rel, double *v, char *why, size_t wcap, int plain)
{
	char buf[SENS_TEXT_MAX];
	size_t len = 0;
	int trunc = 0, rc = aieth__sysfs_read(rel, buf, sizeof buf, &len, &trunc, SENS_READ_MS);
	if (rc) {
		read_why(rc, plain, why, wcap);
		return rc;
	}
	if (trunc) {
		snprintf(why, wcap, "more than %d bytes: not a reading", SENS_TEXT_MAX - 1);
		return AIETH_EPARSE;
	}
	if (aieth__sens_parse_value(buf, len, v)) {
		/* the text as read, its newline off (a note is one line) */
		int shown = (int)(len && buf[len - 1] == '\n' ? len - 1 : len);
		snprintf(why, wcap, "not a number: \"%.*s\"", shown < 40 ? shown : 40, buf);
		return AIETH_EPARSE;
	}
	return 0;
}

int aieth__sens_read(const sens_def *d, double *v, char *why, size_t cap)
{
	double raw;
	int rc = read_number(d->path, &raw, why, cap, d->plain);
	if (!rc)
		*v = (raw + d->offset) * d->scale * aieth__sens_factor(d->kind);
	return rc;
}

/* What a note names: the file, or (plain) the sensor. */
static const char *label(const sens_set *set, const sens_def *d)
{
	return set->plain ? d->name : d->path;
}

static int add(sens_set *set, sens_def *d)
{
	double v;
	char why[200];
	void *p;
	d->plain = set->plain;
	if (aieth__sens_read(d, &v, why, sizeof why)) {
		aieth__sens_note(set, "%s: %s: not sampled", label(set, d), why);
		return 0;
	}
	if (set->n == SENS_MAX) {
		aieth__sens_note(set, "%s: more than %d sensors: not sampled", label(set, d),
				 SENS_MAX);
		return 0;
	}
	if (!(p = realloc(set->def, (set->n + 1) * sizeof *set->def)))
		return AIETH_ENOMEM;
	set->def = p;
	set->def[set->n++] = *d;
	return 0;
}

/* The scale and offset of an IIO _raw channel: "in_temp0_raw" reads
 * in_temp0_scale (else the type's in_temp_scale) and in_temp0_offset. */
static int iio_scale(sens_set *set, const char *dir, const char *file, sens_def *d)
{
	char rel[256], why[200];
	size_t base = strlen(file) - strlen("_raw");
	const char *kinds[2] = {"scale", "offset"};
	double *out[2] = {&d->scale, &d->offset};
	int i;
	for (i = 0; i < 2; i++) {
		snprintf(rel, sizeof rel, "%s/%.*s_%s", dir, (int)base, file, kinds[i]);
		if (!read_number(rel, out[i], why, sizeof why, set->plain))
			continue;
		if (i == 1) { /* no offset: 0 */
			d->offset = 0;
			continue;
		}
		if (set->plain)
			aieth__sens_note(set, "%s: no %s (%s): not sampled", d->name, kinds[i],
					 why);
		else
			aieth__sens_note(set, "%s/%s: no %s (%s): not sampled", dir, file, kinds[i],
					 why);
		return -1;
	}
	return 0;
}

static int sysmon(sens_set *set, const char *dev)
{
	char dir[128], rel[256], why[200], name[64];
	names l;
	size_t i;
	int rc = 0;
	snprintf(dir, sizeof dir, "bus/iio/devices/%s", dev);
	snprintf(rel, sizeof rel, "%s/name", dir);
	if (read_text(rel, name, sizeof name, why, sizeof why, set->plain) ||
	    strcmp(name, SYSMON_NAME))
		return 0; /* another IIO device (or none readable): not SysMon */
	if ((rc = list(dir, &l)))
		return rc;
	for (i = 0; i < l.n && !rc; i++) {
		sens_def d;
		char stem[64];
		int raw = 0;
		memset(&d, 0, sizeof d);
		if (aieth__sens_classify_iio(l.names[i], &d.kind, &raw, stem, sizeof stem))
			continue;
		d.scale = 1;
		snprintf(d.name, sizeof d.name, "sysmon@%s/%s", dev, stem);
		if (raw && iio_scale(set, dir, l.names[i], &d))
			continue;
		/* a channel with a processed value is read as such (_input) */
		if (raw) {
			size_t j, base = strlen(l.names[i]) - 4;
			int have_input = 0;
			for (j = 0; j < l.n; j++)
				have_input |= !strncmp(l.names[j], l.names[i], base) &&
					      !strcmp(l.names[j] + base, "_input");
			if (have_input)
				continue;
		}
		snprintf(d.path, sizeof d.path, "%s/%s", dir, l.names[i]);
		snprintf(d.source, sizeof d.source, "%s", SYSMON_NAME);
		d.device_temp = aieth__sens_is_device_temp(d.name, d.source, d.kind);
		rc = add(set, &d);
	}
	free(l.names);
	return rc;
}

static int hwmon(sens_set *set, const char *dev)
{
	char dir[128], rel[256], why[200], name[32];
	names l;
	size_t i;
	int rc;
	snprintf(dir, sizeof dir, "class/hwmon/%s", dev);
	snprintf(rel, sizeof rel, "%s/name", dir);
	if (read_text(rel, name, sizeof name, why, sizeof why, set->plain)) {
		if (set->plain)
			aieth__sens_note(set, "hwmon device %s: no name (%s): device left out", dev,
					 why);
		else
			aieth__sens_note(set, "%s: %s: device left out", rel, why);
		return 0;
	}
	for (i = 0; name[i]; i++) /* the name goes into sensor names */
		if (name[i] <= ' ' || name[i] == '/' || name[i] > '~')
			name[i] = '_';
	if ((rc = list(dir, &l)))
		return rc;
	for (i = 0; i < l.n && !rc; i++) {
		sens_def d;
		char stem[64];
		memset(&d, 0, sizeof d);
		if (aieth__sens_classify_hwmon(l.names[i], &d.kind, stem, sizeof stem))
			continue;
		d.scale = 1;
		snprintf(d.name, sizeof d.name, "%s@%s/%s", name, dev, stem);
		snprintf(d.path, sizeof d.path, "%s/%s", dir, l.names[i]);
		snprintf(d.source, sizeof d.source, "hwmon:%s", name);
		rc = add(set, &d);
	}
	free(l.names);
	return rc;
}

int aieth__sens_is_device_temp(const char *name, const char *source, sens_kind k)
{
	/* max_max / min_min hold the extremes since the device started: not
	 * this test's temperature */
	return k == SENS_TEMP && !strcmp(source, SYSMON_NAME) && !strstr(name, "max_max") &&
	       !strstr(name, "min_min");
}

static int find(sens_set *set, int plain)
{
	names l;
	size_t i;
	int rc;
	memset(set, 0, sizeof *set);
	set->plain = plain;
	if ((rc = list("bus/iio/devices", &l)))
		return rc;
	for (i = 0; i < l.n && !rc; i++)
		if (!strncmp(l.names[i], "iio:device", 10))
			rc = sysmon(set, l.names[i]);
	free(l.names);
	if (rc || (rc = list("class/hwmon", &l)))
		goto fail;
	for (i = 0; i < l.n && !rc; i++)
		if (!strncmp(l.names[i], "hwmon", 5))
			rc = hwmon(set, l.names[i]);
	free(l.names);
	if (!rc)
		return 0;
fail:
	aieth__sens_set_free(set);
	return rc;
}

int aieth__sens_find(sens_set *set) { return find(set, 0); }
int aieth__sens_find_plain(sens_set *set) { return find(set, 1); }

void aieth__sens_set_free(sens_set *set)
{
	free(set->def);
	set->def = NULL;
	set->n = 0;
}
