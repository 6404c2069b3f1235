/* SPDX-License-Identifier: MIT */
/*
 * test_sensors.c - power and temperature (harness/base/sensors/): the
 * value and file-name parsers, finding SysMon and hwmon sensors in a
 * stand-in sysfs tree (AIETH_SYSFS_ROOT) with garbage, truncated and FIFO
 * files among them (notes, never an error or a hang), and the sampler's
 * running figures and bounded ring.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "sensors/sensors.h"
#include "tu.h"

#define NEAR(a, b) CU_ASSERT_TRUE(fabs((a) - (b)) < 1e-9)

static char root[256];

static void test_value(void)
{
	static const char *bad[] = {"",    "\n", "abc", "12abc",  "1 2",  "1e3", "inf",
				    "nan", "-",  ".",   "+7\n\n", "0x10", " 5",  "5\n6"};
	char big[80];
	double v = 0;
	size_t i;
	CU_ASSERT_EQUAL(aieth__sens_parse_value("42\n", 3, &v), 0);
	NEAR(v, 42);
	CU_ASSERT_EQUAL(aieth__sens_parse_value("-3.5", 4, &v), 0);
	NEAR(v, -3.5);
	CU_ASSERT_EQUAL(aieth__sens_parse_value("+0.25\n", 6, &v), 0);
	NEAR(v, 0.25);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CU_ASSERT_EQUAL(aieth__sens_parse_value(bad[i], strlen(bad[i]), &v), -1);
	/* the length given, not a NUL, ends the text */
	CU_ASSERT_EQUAL(aieth__sens_parse_value("12\n99", 3, &v), 0);
	NEAR(v, 12);
	memset(big, '1', sizeof big);
	CU_ASSERT_EQUAL(aieth__sens_parse_value(big, sizeof big, &v),
			-1); /* longer than a reading */
}

static void test_names(void)
{
	char stem[64];
	sens_kind k;
	int raw = -1;
	CU_ASSERT_EQUAL(
		aieth__sens_classify_iio("in_temp160_temp_input", &k, &raw, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_TEMP);
	CU_ASSERT_EQUAL(raw, 0);
	CU_ASSERT_STRING_EQUAL(stem, "temp160_temp");
	CU_ASSERT_EQUAL(
		aieth__sens_classify_iio("in_voltage3_vccint_raw", &k, &raw, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_VOLT);
	CU_ASSERT_EQUAL(raw, 1);
	CU_ASSERT_STRING_EQUAL(stem, "voltage3_vccint");
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0_input", &k, &raw, stem, sizeof stem), 0);
	CU_ASSERT_STRING_EQUAL(stem, "temp0");
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp_scale", &k, &raw, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp_raw", &k, &raw, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_voltage4_VCC_PMC-1_input", &k, &raw, stem,
						 sizeof stem),
			0);
	CU_ASSERT_STRING_EQUAL(stem, "voltage4_VCC_PMC-1");
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0_a.b_input", &k, &raw, stem, sizeof stem),
			-1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0_a b_input", &k, &raw, stem, sizeof stem),
			-1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0__input", &k, &raw, stem, sizeof stem),
			-1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0_scale", &k, &raw, stem, sizeof stem),
			-1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("name", &k, &raw, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_iio("in_temp0_input", &k, &raw, stem, 5),
			-1); /* no cut */

	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("power1_input", &k, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_POWER);
	CU_ASSERT_STRING_EQUAL(stem, "power1");
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("curr1_input", &k, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_CURR);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("in0_input", &k, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_VOLT);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("temp1_input", &k, stem, sizeof stem), 0);
	CU_ASSERT_EQUAL(k, SENS_TEMP);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("power1_average", &k, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("in1_label", &k, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("in_temp0_input", &k, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("temp1_x_input", &k, stem, sizeof stem), -1);
	CU_ASSERT_EQUAL(aieth__sens_classify_hwmon("power_input", &k, stem, sizeof stem), -1);
	/* the units after conversion */
	NEAR(aieth__sens_factor(SENS_POWER), 1e-6);
	NEAR(aieth__sens_factor(SENS_TEMP), 1e-3);
	CU_ASSERT_STRING_EQUAL(aieth__sens_unit(SENS_POWER), "W");
}

/* A board's tree: SysMon (processed and raw channels), another IIO
 * device, an INA226, and hwmon files that are garbage, cut or a FIFO. */
static void make_tree(void)
{
	char big[200];
	tu_mkdir(root, "bus");
	tu_mkdir(root, "bus/iio");
	tu_mkdir(root, "bus/iio/devices");
	tu_mkdir(root, "bus/iio/devices/iio:device0");
	tu_put(root, "bus/iio/devices/iio:device0/name", "xlnx,versal-sysmon\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_temp160_temp_input", "45125\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_temp160_temp_raw", "5776\n"); /* _input wins */
	tu_put(root, "bus/iio/devices/iio:device0/in_temp163_min_min_input", "20000\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_voltage0_vccint_input", "800\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_voltage1_vccaux_raw", "1700\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_voltage1_vccaux_scale", "1.0\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_voltage1_vccaux_offset", "100\n");
	tu_put(root, "bus/iio/devices/iio:device0/in_voltage2_noscale_raw", "5\n");
	tu_mkdir(root, "bus/iio/devices/iio:device1");
	tu_put(root, "bus/iio/devices/iio:device1/name", "ams\n");
	tu_put(root, "bus/iio/devices/iio:device1/in_temp0_input", "30000\n");
	tu_mkdir(root, "class");
	tu_mkdir(root, "class/hwmon");
	tu_mkdir(root, "class/hwmon/hwmon0");
	tu_put(root, "class/hwmon/hwmon0/name", "ina226\n");
	tu_put(root, "class/hwmon/hwmon0/power1_input", "2500000\n");
	tu_put(root, "class/hwmon/hwmon0/curr1_input", "1234\n");
	tu_put(root, "class/hwmon/hwmon0/in1_input", "12000\n");
	tu_put(root, "class/hwmon/hwmon0/in0_input", "garbage\n");
	memset(big, '7', sizeof big - 1);
	big[sizeof big - 1] = 0;
	tu_put(root, "class/hwmon/hwmon0/temp1_input", big);
	tu_mkdir(root, "class/hwmon/hwmon1");
	tu_put(root, "class/hwmon/hwmon1/name", "slow\n");
	{
		char p[512];
		snprintf(p, sizeof p, "%s/class/hwmon/hwmon1/temp1_input", root);
		CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0644), 0);
	}
}

static const sens_def *by_name(const sens_set *s, const char *name)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->def[i].name, name))
			return &s->def[i];
	return NULL;
}

static int noted(const sens_set *s, const char *what)
{
	size_t i;
	for (i = 0; i < s->nnotes; i++)
		if (strstr(s->notes[i], what))
			return 1;
	return 0;
}

static void test_find(void)
{
	sens_set s;
	const sens_def *d;
	double v;
	char why[200];
	make_tree();
	CU_ASSERT_EQUAL_FATAL(aieth__sens_find(&s), 0);
	CU_ASSERT_EQUAL(s.n, 7);
	d = by_name(&s, "sysmon@iio:device0/temp160_temp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_TRUE(d->device_temp);
	CU_ASSERT_STRING_EQUAL(d->source, "xlnx,versal-sysmon");
	CU_ASSERT_STRING_EQUAL(d->path, "bus/iio/devices/iio:device0/in_temp160_temp_input");
	CU_ASSERT_EQUAL(aieth__sens_read(d, &v, why, sizeof why), 0);
	NEAR(v, 45.125);
	d = by_name(&s, "sysmon@iio:device0/temp163_min_min");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_FALSE(d->device_temp); /* since power-on, not this test */
	d = by_name(&s, "sysmon@iio:device0/voltage1_vccaux");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(aieth__sens_read(d, &v, why, sizeof why), 0);
	NEAR(v, 1.8); /* (1700 + 100) * 1.0 mV */
	d = by_name(&s, "ina226@hwmon0/power1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->source, "hwmon:ina226");
	CU_ASSERT_EQUAL(aieth__sens_read(d, &v, why, sizeof why), 0);
	NEAR(v, 2.5);
	CU_ASSERT_PTR_NOT_NULL(by_name(&s, "ina226@hwmon0/curr1"));
	CU_ASSERT_PTR_NOT_NULL(by_name(&s, "ina226@hwmon0/in1"));
	CU_ASSERT_PTR_NOT_NULL(by_name(&s, "sysmon@iio:device0/voltage0_vccint"));
	/* not SysMon: left alone, no note */
	CU_ASSERT_PTR_NULL(by_name(&s, "sysmon@iio:device1/temp0"));
	/* the bad files: a note naming each, no sensor */
	CU_ASSERT_TRUE(noted(&s, "hwmon0/in0_input: not a number"));
	CU_ASSERT_TRUE(noted(&s, "hwmon0/temp1_input: more than 63 bytes"));
	CU_ASSERT_TRUE(noted(&s, "hwmon1/temp1_input"));
	CU_ASSERT_TRUE(noted(&s, "voltage2_noscale_raw: no scale"));
	CU_ASSERT_PTR_NULL(by_name(&s, "slow@hwmon1/temp1"));
	aieth__sens_set_free(&s);
}

static void test_sampler(void)
{
	sens_set s;
	sens_sampler *sm = NULL;
	const sens_series *z;
	size_t i, pw = 0;
	CU_ASSERT_EQUAL_FATAL(aieth__sens_find(&s), 0); /* the tree of test_find */
	for (i = 0; i < s.n; i++)
		if (!strcmp(s.def[i].name, "ina226@hwmon0/power1"))
			pw = i;
	/* a long period: the thread does not sample during the test; the
	 * samples are taken here, one by one */
	CU_ASSERT_EQUAL_FATAL(aieth__sens_sampler_start(&sm, &s, 60000), 0);
	tu_put(root, "class/hwmon/hwmon0/power1_input", "1000000\n");
	aieth__sens_sample_once(sm);
	tu_put(root, "class/hwmon/hwmon0/power1_input", "4000000\n");
	aieth__sens_sample_once(sm);
	z = aieth__sens_sampler_series(sm, pw);
	CU_ASSERT_EQUAL(z->count, 3);
	NEAR(z->min, 1.0);
	NEAR(z->max, 4.0);
	NEAR(z->sum / (double)z->count, 2.5);
	/* the ring keeps the last SENS_RING samples, the figures cover all */
	for (i = 0; i < SENS_RING + 7; i++)
		aieth__sens_sample_once(sm);
	CU_ASSERT_EQUAL(z->len, SENS_RING);
	CU_ASSERT_EQUAL(z->count, SENS_RING + 10);
	/* a file going bad is dropped after SENS_FAIL_MAX reads, with a note */
	tu_put(root, "class/hwmon/hwmon0/power1_input", "oops\n");
	for (i = 0; i < SENS_FAIL_MAX + 2; i++)
		aieth__sens_sample_once(sm);
	CU_ASSERT_TRUE(z->dropped);
	CU_ASSERT_EQUAL(z->count, SENS_RING + 10);
	CU_ASSERT_TRUE(noted(&s, "power1_input: not a number"));
	aieth__sens_sampler_stop(sm);
	CU_ASSERT_EQUAL(aieth__sens_sampler_period(sm), 60000);
	aieth__sens_sampler_free(sm);
	aieth__sens_set_free(&s);
}

/* No tree at all: no sensor, no error. */
static void test_missing(void)
{
	sens_set s;
	setenv("AIETH_SYSFS_ROOT", "/nonexistent/aieth-sysfs", 1);
	CU_ASSERT_EQUAL_FATAL(aieth__sens_find(&s), 0);
	CU_ASSERT_EQUAL(s.n, 0);
	aieth__sens_set_free(&s);
	setenv("AIETH_SYSFS_ROOT", root, 1);
}

/* A set sampled through read_all (th_server's reply): one call a sample,
 * the same series and min/max/mean; a sensor without a reading fails, and
 * a hook failing 3 times in a row drops every sensor with a note naming
 * it (never a path: these sensors have none). */
static int hook_calls, hook_fail;
static int hook(void *ctx, const sens_set *set, double *v, int *ok, char *why, size_t cap)
{
	(void)ctx;
	(void)set;
	hook_calls++;
	if (hook_fail) {
		snprintf(why, cap, "server x: no answer");
		return AIETH_EDEVICE;
	}
	v[0] = 40 + hook_calls;
	ok[0] = 1; /* sensor 1: no reading */
	return 0;
}

static void test_read_all(void)
{
	sens_set s;
	sens_sampler *sm;
	const sens_series *z;
	int i;
	memset(&s, 0, sizeof s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.def = calloc(2, sizeof *s.def));
	s.n = 2;
	snprintf(s.def[0].name, sizeof s.def[0].name, "sysmon@iio:device0/temp0");
	snprintf(s.def[1].name, sizeof s.def[1].name, "ina226@hwmon0/power1");
	s.def[1].kind = SENS_POWER;
	s.read_all = hook;
	hook_calls = hook_fail = 0;
	CU_ASSERT_EQUAL_FATAL(aieth__sens_sampler_start(&sm, &s, 60000), 0);
	aieth__sens_sample_once(sm);
	CU_ASSERT_EQUAL(hook_calls, 2); /* once a sample, for all sensors */
	z = aieth__sens_sampler_series(sm, 0);
	CU_ASSERT_EQUAL(z->count, 2);
	CU_ASSERT_DOUBLE_EQUAL(z->min, 41, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(z->max, 42, 1e-9);
	CU_ASSERT_EQUAL(aieth__sens_sampler_series(sm, 1)->count, 0);
	CU_ASSERT_EQUAL(aieth__sens_sampler_series(sm, 1)->fails, 2);
	aieth__sens_sample_once(sm);
	CU_ASSERT_TRUE(aieth__sens_sampler_series(sm, 1)->dropped);
	CU_ASSERT_FALSE(z->dropped);
	CU_ASSERT_EQUAL(z->count, 3);
	hook_fail = 1;
	for (i = 0; i < 3; i++)
		aieth__sens_sample_once(sm);
	CU_ASSERT_TRUE(z->dropped);
	CU_ASSERT_TRUE(aieth__sens_sampler_series(sm, 1)->dropped);
	CU_ASSERT_TRUE(
		noted(&s, "sysmon@iio:device0/temp0: server x: no answer (3 times in a row)"));
	CU_ASSERT_TRUE(
		noted(&s, "ina226@hwmon0/power1: no reading in the reply (3 times in a row)"));
	aieth__sens_sampler_free(sm);
	aieth__sens_set_free(&s);
}

/* th_server's find: notes name sensors and devices, never a file. */
static void test_plain(void)
{
	sens_set s;
	size_t i;
	CU_ASSERT_EQUAL_FATAL(aieth__sens_find_plain(&s), 0); /* the tree of test_find */
	CU_ASSERT_TRUE(s.nnotes > 0);
	for (i = 0; i < s.nnotes; i++) {
		CU_ASSERT_PTR_NULL(strstr(s.notes[i], root));
		CU_ASSERT_PTR_NULL(strstr(s.notes[i], "class/hwmon"));
		CU_ASSERT_PTR_NULL(strstr(s.notes[i], "bus/iio"));
		CU_ASSERT_PTR_NULL(strstr(s.notes[i], "_input"));
	}
	aieth__sens_set_free(&s);
}

static void setup(void)
{
	snprintf(root, sizeof root, "%s/aieth-sensors-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	setenv("AIETH_SYSFS_ROOT", root, 1);
}

static void test_all(void)
{
	char cmd[600];
	setup();
	test_find();
	test_plain();
	test_sampler();
	test_missing();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

TU_MAIN("sensors", {"value texts", test_value}, {"file names and units", test_names},
	{"a stand-in tree: find, sample, nothing there", test_all},
	{"a set sampled through read_all", test_read_all})
