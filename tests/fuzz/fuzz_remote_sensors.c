/* SPDX-License-Identifier: MIT */
/*
 * fuzz_remote_sensors.c - libFuzzer target for the remote backend's reading
 * of th_server's GET /v1/sensors reply (aieth__rmr_sensors, backends/remote/
 * remote_reply.c): the bytes are the reply body (strict JSON object), the
 * first byte sets how many sensors the caller has room for (0..7) and
 * whether it wants the notes. Either the reply is refused and nothing is
 * written, or every sensor taken has a name and source of printable ASCII
 * (NUL-terminated in its buffer), a kind of the four, valid 0 or 1 and a
 * finite value (0 when not valid), names unique, at most AIETH_SENSORS_MAX
 * counted, and the notes are NUL-terminated within their buffer.
 */
#include <math.h>

#include "fuzz_remote.h"

#ifdef AIETH_HAVE_CURL
#define CAP 7
#define MARK 0xAB

static int printable(const char *s, size_t cap)
{
	size_t i;
	for (i = 0; i < cap && s[i]; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			return 0;
	return i > 0 && i < cap;
}

static void fuzz_remote_one(uint8_t first, struct json_object *o)
{
	static aieth_sensor out[CAP];
	static char notes[512];
	size_t cap = first % (CAP + 1), n = 12345, i, j;
	size_t ncap = (first >> 3) & 1 ? sizeof notes : 0;
	int rc;
	memset(out, MARK, sizeof out);
	memset(notes, MARK, sizeof notes);
	rc = aieth__rmr_sensors("http://x", o, out, cap, &n, ncap ? notes : NULL, ncap);
	if (rc) {
		unsigned char m[sizeof out];
		memset(m, MARK, sizeof m);
		CHECK(rc == AIETH_EDEVICE || rc == AIETH_EUNSUPPORTED || rc == AIETH_ENOMEM);
		CHECK(n == 12345);
		CHECK(!memcmp(out, m, sizeof out));
		CHECK((unsigned char)notes[0] == MARK);
		return;
	}
	CHECK(n <= AIETH_SENSORS_MAX);
	for (i = 0; i < n && i < cap; i++) {
		const aieth_sensor *d = &out[i];
		CHECK(printable(d->name, sizeof d->name));
		CHECK(printable(d->source, sizeof d->source));
		CHECK(d->kind >= AIETH_SENSOR_TEMPERATURE && d->kind <= AIETH_SENSOR_CURRENT);
		CHECK(d->valid == 0 || d->valid == 1);
		CHECK(isfinite(d->value) && (d->valid || d->value == 0));
		for (j = 0; j < i; j++)
			CHECK(strcmp(out[j].name, d->name));
	}
	for (; i < CAP; i++)
		CHECK((unsigned char)out[i].name[0] == MARK);
	if (ncap)
		CHECK(memchr(notes, '\0', sizeof notes) != NULL);
	else
		CHECK((unsigned char)notes[0] == MARK);
}
#endif
