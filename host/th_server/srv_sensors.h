/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_sensors.h - GET /v1/sensors (docs/http-api.md): the server's
 * own board sensors, found once in its sysfs tree ($AIETH_SYSFS_ROOT, or
 * /sys on backend xrt; the emulated board has none) and read at most once
 * per SRV_SENSORS_MIN_MS whatever the request rate: requests share the
 * last answer under a mutex. The answer names sensors, never a file.
 */
#ifndef AIETH_SERVER_SRV_SENSORS_H
#define AIETH_SERVER_SRV_SENSORS_H

#include <stddef.h>
#include <stdint.h>

#define SRV_SENSORS_MIN_MS 100  /* the answer's age before a new read */
#define SRV_SENSORS_READ_MS 500 /* one read of all sensors at most; the rest null */

typedef struct srv_sensors srv_sensors;

/* backend: the server's ("xrt" reads /sys). NULL on out of memory. */
srv_sensors *aieth__srv_sensors_new(const char *backend);
void aieth__srv_sensors_free(srv_sensors *z);
/* The answer's JSON text (malloc'd, *len bytes) as of now_ms (a monotonic
 * clock's milliseconds). AIETH_OK or AIETH_ENOMEM. */
int aieth__srv_sensors_reply(srv_sensors *z, int64_t now_ms, char **text, size_t *len);

#endif
