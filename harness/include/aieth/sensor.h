/* SPDX-License-Identifier: MIT */
/*
 * aieth/sensor.h - a board's power and temperature sensors as a session's
 * device reads them now (docs/on-board.md, "Power and temperature").
 */
#ifndef AIETH_PUBLIC_SENSOR_H
#define AIETH_PUBLIC_SENSOR_H

#include <stddef.h>

#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a sensor measures; its value is in the kind's unit: degrees
 * Celsius, volts, watts, amperes. */
typedef enum {
	AIETH_SENSOR_TEMPERATURE = 0,
	AIETH_SENSOR_VOLTAGE = 1,
	AIETH_SENSOR_POWER = 2,
	AIETH_SENSOR_CURRENT = 3
} aieth_sensor_kind;

/* One sensor and its reading. name and source are printable ASCII. */
typedef struct {
	char name[128];  /* "sysmon@iio:device0/temp160_temp", "ina226@hwmon1/power1" */
	char source[48]; /* its driver: "xlnx,versal-sysmon", "hwmon:ina226" */
	aieth_sensor_kind kind;
	int valid;    /* 1: value is this reading; 0: the sensor gave none now */
	double value; /* in the kind's unit */
} aieth_sensor;

/* At most this many sensors, as th_server answers at most. */
#define AIETH_SENSORS_MAX 256

/* The sensors of the session's board, read now: at most cap of them into
 * out (may be NULL when cap is 0), their count in *n (even when more than
 * cap); notes (may be NULL when notes_cap is 0) gets what the device says
 * of the sensors it left out, one a line, NUL-terminated, cut to fit. Backend remote: th_server's board (GET /v1/sensors, its answer at
 * most 100 ms old), checked strictly (AIETH_EDEVICE naming the server and
 * the field for a reply outside the documented set). The emulated board
 * has no sensors: AIETH_EUNSUPPORTED, on backend emu and for a server
 * whose board is emulated (and has no AIETH_SYSFS_ROOT). Backend xrt:
 * AIETH_EUNSUPPORTED as well; the board's sensors are this machine's sysfs
 * files, which run_test samples itself. Unlike the other calls on a
 * session this one may run while another call on the same session does
 * (a sampling thread beside a transaction wait), never during or after
 * aieth_session_close. */
int aieth_session_sensors(aieth_session *session, aieth_sensor *out, size_t cap, size_t *n,
			  char *notes, size_t notes_cap);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_SENSOR_H */
