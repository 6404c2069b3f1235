/* SPDX-License-Identifier: MIT */
/*
 * sensors/sensors.h - power and temperature beside a test: which files of
 * the sysfs tree (util/sysfs.h, AIETH_SYSFS_ROOT) are sensors, what their
 * text means (sensors_parse.c), finding them (sensors_find.c) and sampling
 * them in a thread while a test runs (sensors_sample.c). docs/on-board.md,
 * "Power and temperature", names the files and their public sources.
 */
#ifndef AIETH_SENSORS_H
#define AIETH_SENSORS_H

#include <stddef.h>
#include <stdint.h>

/* Bounds (docs/on-board.md): sensors per test, samples kept per sensor
 * (the last ones: a ring; min/max/mean cover every sample), a value file's
 * bytes, the wait for one read (a FIFO or a slow driver: never longer). */
#define SENS_MAX 256
#define SENS_RING 600
#define SENS_TEXT_MAX 64
#define SENS_READ_MS 50
#define SENS_NOTES_MAX 32
/* a sensor whose reads fail this many times in a row is no longer read */
#define SENS_FAIL_MAX 3
/* the sampling period's limits and default (run_test --sensor-period) */
#define SENS_PERIOD_MIN_MS 100u
#define SENS_PERIOD_MAX_MS 60000u
#define SENS_PERIOD_DEFAULT_MS 1000u
/* the device temperature above which a test gets a warning: 100 degC,
 * the highest recommended junction temperature of the extended and
 * industrial grades of Versal devices (docs/on-board.md names the data
 * sheet) */
#define SENS_TEMP_LIMIT_C 100.0

typedef enum { SENS_TEMP, SENS_VOLT, SENS_POWER, SENS_CURR } sens_kind;

/* The unit a kind is reported in, after the driver's unit is converted. */
const char *aieth__sens_unit(sens_kind k);
const char *aieth__sens_kind_name(sens_kind k);

/* --- sensors_parse.c: the texts of the files ------------------------- */

/* A value file's text: an optional sign, digits, an optional fraction,
 * one optional trailing newline, nothing else (IIO prints "25.5" for
 * IIO_VAL_INT_PLUS_MICRO, hwmon integers). len: the bytes read. 0 or -1. */
int aieth__sens_parse_value(const char *text, size_t len, double *v);

/* What an attribute file of an IIO device is: in_tempN[_EXT]_input or
 * _raw, in_voltageN[_EXT]_input or _raw (Documentation/ABI/testing/
 * sysfs-bus-iio). stem gets the name without in_ and the suffix
 * ("temp160_temp"); *raw 1 for _raw (value = (raw + offset) * scale, the
 * scale and offset files beside it). 0: a sensor; -1: not one. */
int aieth__sens_classify_iio(const char *file, sens_kind *k, int *raw, char *stem, size_t cap);

/* What a file of a hwmon device is: powerN_input (uW), currN_input (mA),
 * inN_input (mV), tempN_input (m degC) (Documentation/hwmon/
 * sysfs-interface). stem: "power1". 0 or -1. */
int aieth__sens_classify_hwmon(const char *file, sens_kind *k, char *stem, size_t cap);

/* The factor from the driver's unit to aieth__sens_unit: IIO and hwmon report
 * milli-units (m degC, mV, mA) and hwmon power in uW. */
double aieth__sens_factor(sens_kind k);

/* --- sensors_find.c: the sensors of the tree -------------------------- */

typedef struct {
	char name[128];  /* "sysmon@iio:device0/temp160_temp", "ina226@hwmon1/power1" */
	char path[160];  /* below the root: the file read each time */
	char source[48]; /* "xlnx,versal-sysmon", "hwmon:ina226" */
	sens_kind kind;
	int device_temp;      /* a SysMon temperature of this test (the warning) */
	double scale, offset; /* value = (text + offset) * scale * factor */
	int plain;            /* aieth__sens_read's reasons name no path (th_server) */
} sens_def;

typedef struct sens_set sens_set;

/* How the sampler reads a set whose values come from elsewhere (th_server's
 * GET /v1/sensors): every sensor at once, v[i] and ok[i] per def; 0, or an
 * error code with the reason in why (every sensor failed this sample). */
typedef int (*sens_read_all_fn)(void *ctx, const sens_set *set, double *v, int *ok, char *why,
				size_t cap);

struct sens_set {
	sens_def *def; /* n of them (malloc'd) */
	size_t n;
	char notes[SENS_NOTES_MAX][256]; /* files that could not be read */
	size_t nnotes;
	size_t notes_dropped;
	int plain; /* notes name sensors and devices, never a file (th_server) */
	/* NULL: each def's file is read (aieth__sens_read); else the sampler calls
	 * this once a sample (the defs' paths are then empty) */
	sens_read_all_fn read_all;
	void *read_ctx;
};

/* Look for SysMon (IIO devices named xlnx,versal-sysmon below
 * bus/iio/devices) and hwmon devices (class/hwmon) with sensor files;
 * each is read once, and a file that does not parse or answer is left out
 * with a note. 0 (maybe no sensor: set->n 0), AIETH_ENOMEM. */
int aieth__sens_find(sens_set *set);
/* The same for th_server's reply: notes and reasons name sensors and
 * devices ("ina226@hwmon0/power1"), never a path of the server's tree. */
int aieth__sens_find_plain(sens_set *set);
/* 1 when a sensor is a SysMon temperature of the test itself (the
 * warning): not max_max / min_min, the extremes since power-on. */
int aieth__sens_is_device_temp(const char *name, const char *source, sens_kind k);
/* The sysmon driver's name, a SysMon sensor's source */
#define SENS_SYSMON_SOURCE "xlnx,versal-sysmon"
void aieth__sens_set_free(sens_set *set);
void aieth__sens_note(sens_set *set, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read one sensor now: its value in aieth__sens_unit. 0, or an error code with
 * the reason in why. */
int aieth__sens_read(const sens_def *d, double *v, char *why, size_t cap);

/* --- sensors_sample.c: the sampler ---------------------------------- */

typedef struct {
	double min, max, sum;
	uint64_t count;
	/* the last samples: t (ms since the start) and value, ring order */
	uint32_t t_ms[SENS_RING];
	double v[SENS_RING];
	size_t head, len;
	unsigned fails; /* reads failed in a row */
	int dropped;    /* no longer read (SENS_FAIL_MAX) */
} sens_series;

typedef struct sens_sampler sens_sampler;

/* Start sampling set's sensors every period_ms in a thread: a first
 * sample now. The set is the sampler's until aieth__sens_sampler_stop. 0,
 * AIETH_ENOMEM, AIETH_EIO (no thread). */
int aieth__sens_sampler_start(sens_sampler **out, sens_set *set, uint32_t period_ms);
/* Take a last sample, stop the thread; the results stay until freed. */
void aieth__sens_sampler_stop(sens_sampler *s);
/* After stop: the set (notes of failed reads added) and sensor i's series. */
const sens_set *aieth__sens_sampler_set(const sens_sampler *s);
const sens_series *aieth__sens_sampler_series(const sens_sampler *s, size_t i);
uint32_t aieth__sens_sampler_period(const sens_sampler *s);
double aieth__sens_sampler_t0(const sens_sampler *s); /* wall seconds of the start */
void aieth__sens_sampler_free(sens_sampler *s);
/* One sample of every sensor into the series (the thread's step; tests
 * call it directly). */
void aieth__sens_sample_once(sens_sampler *s);

#endif
