/* SPDX-License-Identifier: MIT */
/*
 * fuzz_remote_sensors.c - libFuzzer target for the remote backend's reading
 * of th_server's GET /v1/sensors reply (rmr_sensors, backends/remote/
 * remote_reply.c): the bytes are the reply body (strict JSON object), the
 * first byte sets how many sensors the caller has room for (0..7) and
 * whether it wants the notes. Either the reply is refused and nothing is
 * written, or every sensor taken has a name and source of printable ASCII
 * (NUL-terminated in its buffer), a kind of the four, valid 0 or 1 and a
 * finite value (0 when not valid), names unique, at most AIETH_SENSORS_MAX
 * counted, and the notes are NUL-terminated within their buffer.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

#ifdef AIETH_HAVE_CURL
#include "backends/remote/remote_reply.h"
#include "util/json_strict.h"

#define CAP 7
#define MARK 0xAB

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int printable(const char *s, size_t cap)
{
	size_t i;
	for (i = 0; i < cap && s[i]; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			return 0;
	return i > 0 && i < cap;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static aieth_sensor out[CAP];
	static char notes[512];
	struct json_object *o = NULL;
	size_t cap, n = 12345, i, j, ncap;
	int rc;
	if (size < 1)
		return 0;
	cap = data[0] % (CAP + 1);
	ncap = (data[0] >> 3) & 1 ? sizeof notes : 0;
	if (jstrict_parse_object("reply", (const char *)data + 1, size - 1, 1u << 20, &o))
		return 0;
	memset(out, MARK, sizeof out);
	memset(notes, MARK, sizeof notes);
	rc = rmr_sensors("http://x", o, out, cap, &n, ncap ? notes : NULL, ncap);
	json_object_put(o);
	if (rc) {
		unsigned char m[sizeof out];
		memset(m, MARK, sizeof m);
		CHECK(rc == AIETH_EDEVICE || rc == AIETH_EUNSUPPORTED || rc == AIETH_ENOMEM);
		CHECK(n == 12345);
		CHECK(!memcmp(out, m, sizeof out));
		CHECK((unsigned char)notes[0] == MARK);
		return 0;
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
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
#endif
