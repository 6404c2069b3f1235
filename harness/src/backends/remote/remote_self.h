/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_self.h - th_server's own listeners, as the remote
 * backend reaches them from inside the server's process (POST /v1/validate
 * runs the suite as a client of its own server): each base URL with the
 * pin of the TLS key the server loaded. Internal to the library; nothing a
 * user or a client sets.
 */
#ifndef AIETH_BACKENDS_REMOTE_SELF_H
#define AIETH_BACKENDS_REMOTE_SELF_H

#include <stddef.h>

/* "sha256//" and the base64 of a SHA-256 (44 bytes), with the NUL */
#define RMS_PIN_MAX 64
#define RMS_BASE_MAX 128

/* The server listening at base (https://HOST:PORT) serves the key whose
 * SubjectPublicKeyInfo's SHA-256 is pin (CURLOPT_PINNEDPUBLICKEY's
 * "sha256//BASE64"). AIETH_OK, or AIETH_EINVAL when base or pin do not fit
 * or every slot is taken. */
int rms_self_add(const char *base, const char *pin);
/* The listener at base stopped: its requests are ordinary ones again. */
void rms_self_remove(const char *base);
/* 1 with the pin in pin[RMS_PIN_MAX] when url is a registered base or a
 * path below one, else 0. */
int rms_self_pin(const char *url, char *pin);

#endif
