/* SPDX-License-Identifier: MIT */
/*
 * sensors_parse.c - what the sensor files of IIO and hwmon say: their
 * names (which file is which sensor) and their one number of text.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/sensors.h"

const char *aieth__sens_unit(sens_kind k)
{
	switch (k) {
	case SENS_TEMP:
		return "\xc2\xb0"
		       "C";
	case SENS_VOLT: return "V";
	case SENS_POWER: return "W";
	default: return "A";
	}
}

const char *aieth__sens_kind_name(sens_kind k)
{
	switch (k) {
	case SENS_TEMP: return "temperature";
	case SENS_VOLT: return "voltage";
	case SENS_POWER: return "power";
	default: return "current";
	}
}

double aieth__sens_factor(sens_kind k) { return k == SENS_POWER ? 1e-6 : 1e-3; }

int aieth__sens_parse_value(const char *text, size_t len, double *v)
{
	char buf[SENS_TEXT_MAX];
	size_t i = 0, digits = 0;
	char *end;
	/* the kernel ends the number with one newline; a file of another
	 * shape (garbage, a cut write, two numbers) is not a reading */
	if (len && text[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = 0;
	if (buf[i] == '-' || buf[i] == '+')
		i++;
	for (; isdigit((unsigned char)buf[i]); i++)
		digits++;
	if (buf[i] == '.')
		for (i++; isdigit((unsigned char)buf[i]); i++)
			digits++;
	if (!digits || i != len)
		return -1;
	*v = strtod(buf, &end);
	return end == buf + len && isfinite(*v) ? 0 : -1;
}

/* "N[_EXT]" followed by suffix, N digits, EXT [A-Za-z0-9_-] (a SysMon
 * supply's name comes from the device tree): the rest of an IIO or hwmon
 * channel name after its type. */
static int channel_rest(const char *s, const char *suffix, size_t *stem_len)
{
	size_t n = strlen(s), sl = strlen(suffix), i = 0;
	if (n <= sl || strcmp(s + n - sl, suffix))
		return -1;
	n -= sl;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (!i)
		return -1;
	if (i < n) {
		if (s[i] != '_' || i + 1 == n)
			return -1;
		for (i++; i < n; i++)
			if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
				return -1;
	}
	*stem_len = n;
	return 0;
}

static int put_stem(char *stem, size_t cap, const char *type, const char *rest, size_t n)
{
	int w = snprintf(stem, cap, "%s%.*s", type, (int)n, rest);
	return w < 0 || (size_t)w >= cap ? -1 : 0;
}

int aieth__sens_classify_iio(const char *file, sens_kind *k, int *raw, char *stem, size_t cap)
{
	static const struct {
		const char *prefix, *type;
		sens_kind kind;
	} types[] = {{"in_temp", "temp", SENS_TEMP},
		     {"in_voltage", "voltage", SENS_VOLT},
		     {"in_power", "power", SENS_POWER},
		     {"in_current", "current", SENS_CURR}};
	size_t i, n;
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		size_t pl = strlen(types[i].prefix);
		const char *rest = file + pl;
		if (strncmp(file, types[i].prefix, pl))
			continue;
		/* IIO's processed value is "_input" (milli-units); "_raw" needs
		 * the channel's scale (and offset) */
		if (!channel_rest(rest, "_input", &n))
			*raw = 0;
		else if (!channel_rest(rest, "_raw", &n))
			*raw = 1;
		else
			return -1;
		*k = types[i].kind;
		return put_stem(stem, cap, types[i].type, rest, n);
	}
	return -1;
}

int aieth__sens_classify_hwmon(const char *file, sens_kind *k, char *stem, size_t cap)
{
	static const struct {
		const char *prefix;
		sens_kind kind;
	} types[] = {
		{"power", SENS_POWER}, {"curr", SENS_CURR}, {"in", SENS_VOLT}, {"temp", SENS_TEMP}};
	size_t i, n;
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		size_t pl = strlen(types[i].prefix), j;
		const char *rest = file + pl;
		if (strncmp(file, types[i].prefix, pl) || channel_rest(rest, "_input", &n))
			continue;
		for (j = 0; j < n; j++) /* hwmon channels are numbered only */
			if (!isdigit((unsigned char)rest[j]))
				return -1;
		*k = types[i].kind;
		return put_stem(stem, cap, types[i].prefix, rest, n);
	}
	return -1;
}
