/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_sensors.h - the server's board sensors (GET
 * /v1/sensors, aieth_session_sensors) on a connection of their own: a
 * sampling thread asks while the session's own requests run on the
 * backend's handle (libcurl handles are one thread's at a time).
 */
#ifndef AIETH_BACKENDS_REMOTE_SENSORS_H
#define AIETH_BACKENDS_REMOTE_SENSORS_H

#ifdef AIETH_HAVE_CURL

#include <pthread.h>
#include <signal.h>
#include <stddef.h>

#include <curl/curl.h>

#include "aieth.h"

/* a sensors request's overall limit (one try, no waits on the rate
 * limit): a sample, not a transfer */
#define RMS_CALL_S 10L

typedef struct {
	pthread_mutex_t mu; /* one request at a time on h */
	CURL *h;            /* made at the first request */
} rms_conn;

void aieth__rms_init(rms_conn *c);
void aieth__rms_fini(rms_conn *c);
/* GET base/v1/sensors with auth ("Authorization: Bearer ..." or ""),
 * trust (the CA bundle or the pinned key), intr (NULL: none) aborting it;
 * the reply checked by aieth__rmr_sensors into out, cap, *n and notes. */
int aieth__rms_read(rms_conn *c, const char *base, const char *auth, const rmh_trust *trust,
		    const volatile sig_atomic_t *intr, aieth_sensor *out, size_t cap, size_t *n,
		    char *notes, size_t notes_cap);

#endif
#endif
