/* SPDX-License-Identifier: MIT */
/*
 * remote_self.c - th_server's own listeners and their key pins
 * (remote_self.h): a small table under a lock, read by every request's
 * setup (remote_http.c), written when a server's listener starts and stops.
 */
#include <pthread.h>
#include <string.h>

#include "backends/remote/remote_self.h"
#include "util/error.h"

#define SLOTS 8 /* servers listening at once in one process (tests open a few) */

static struct {
	char base[RMS_BASE_MAX];
	char pin[RMS_PIN_MAX];
} slot[SLOTS];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

int rms_self_add(const char *base, const char *pin)
{
	size_t i, bn = strlen(base), pn = strlen(pin);
	if (!bn || bn >= RMS_BASE_MAX || pn >= RMS_PIN_MAX || strncmp(pin, "sha256//", 8))
		return aieth__fail(AIETH_EINVAL, "server %.80s: no room for its key's pin", base);
	pthread_mutex_lock(&mu);
	for (i = 0; i < SLOTS && slot[i].base[0] && strcmp(slot[i].base, base); i++)
		;
	if (i < SLOTS) {
		memcpy(slot[i].base, base, bn + 1);
		memcpy(slot[i].pin, pin, pn + 1);
	}
	pthread_mutex_unlock(&mu);
	if (i == SLOTS)
		return aieth__fail(AIETH_EINVAL,
				   "server %.80s: more than %d TLS listeners in one process", base,
				   SLOTS);
	return AIETH_OK;
}

void rms_self_remove(const char *base)
{
	size_t i;
	pthread_mutex_lock(&mu);
	for (i = 0; i < SLOTS; i++)
		if (slot[i].base[0] && !strcmp(slot[i].base, base))
			memset(&slot[i], 0, sizeof slot[i]);
	pthread_mutex_unlock(&mu);
}

int rms_self_pin(const char *url, char *pin)
{
	size_t i, n;
	int found = 0;
	pthread_mutex_lock(&mu);
	for (i = 0; i < SLOTS && !found; i++) {
		n = strlen(slot[i].base);
		/* the base itself or a path below it: never a longer port or host */
		if (n && !strncmp(url, slot[i].base, n) && (url[n] == '\0' || url[n] == '/')) {
			memcpy(pin, slot[i].pin, RMS_PIN_MAX);
			found = 1;
		}
	}
	pthread_mutex_unlock(&mu);
	return found;
}
