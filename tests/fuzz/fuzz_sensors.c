/* SPDX-License-Identifier: MIT */
/*
 * fuzz_sensors.c - libFuzzer target for the sensor parsers
 * (harness/base/sensors/sensors_parse.c).
 *
 * Input: the bytes are a value file's text (aieth__sens_parse_value) and, up to
 * the first NUL, a file name of an IIO and of a hwmon device
 * (aieth__sens_classify_iio, aieth__sens_classify_hwmon). Checked invariants:
 *  - a value parsed is finite and its text is only a sign, digits, one
 *    dot and one final newline;
 *  - a name classified gives a stem that fits, is not empty, and comes
 *    from a name ending in _input (or _raw for IIO, *raw 1).
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "sensors/sensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	char name[128], stem[64];
	double v;
	size_t i, n;
	sens_kind k;
	int raw = -1;
	if (!aieth__sens_parse_value(t, size, &v)) {
		int dots = 0;
		CHECK(isfinite(v));
		CHECK(size > 0 && size < SENS_TEXT_MAX + 1);
		for (i = 0; i < size; i++) {
			char c = t[i];
			dots += c == '.';
			CHECK(isdigit((unsigned char)c) || c == '.' ||
			      ((c == '-' || c == '+') && i == 0) || (c == '\n' && i == size - 1));
		}
		CHECK(dots <= 1);
	}
	n = strnlen(t, size < sizeof name - 1 ? size : sizeof name - 1);
	memcpy(name, t, n);
	name[n] = 0;
	if (!aieth__sens_classify_iio(name, &k, &raw, stem, sizeof stem)) {
		CHECK(strlen(stem) > 0 && strlen(stem) < sizeof stem);
		CHECK(raw ? ends(name, "_raw") : ends(name, "_input"));
		CHECK(!strncmp(name, "in_", 3));
		CHECK(strstr(name, stem) != NULL);
	}
	if (!aieth__sens_classify_hwmon(name, &k, stem, sizeof stem)) {
		CHECK(ends(name, "_input"));
		CHECK(strlen(stem) + strlen("_input") == strlen(name));
		CHECK(!strncmp(name, stem, strlen(stem)));
		CHECK(aieth__sens_factor(k) > 0);
	}
	return 0;
}
