/* SPDX-License-Identifier: MIT */
/* error.c - error codes and the per-thread message of the last failure. */
#include <stdio.h>
#include <string.h>

#include "aieth/version.h"
#include "util/error.h"

static _Thread_local char msg[2048];

const char *aieth_error_message(void) { return msg; }

void aieth__error_clear(void) { msg[0] = '\0'; }

int aieth__fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return code;
}

int aieth__fail_prefix(int code, const char *fmt, ...)
{
	char old[sizeof msg];
	size_t n;
	va_list ap;
	memcpy(old, msg, sizeof old);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* append ": <old>" within the buffer; a long message is cut, not lost */
	n = strlen(msg);
	if (old[0] && n + 2 < sizeof msg) {
		memcpy(msg + n, ": ", 2);
		n += 2;
		old[sizeof msg - 1 - n] = '\0';
		memcpy(msg + n, old, strlen(old) + 1);
	}
	return code;
}

const char *aieth_error_name(int code)
{
	switch (code) {
	case AIETH_OK: return "AIETH_OK";
	case AIETH_EINVAL: return "AIETH_EINVAL";
	case AIETH_ENOMEM: return "AIETH_ENOMEM";
	case AIETH_EIO: return "AIETH_EIO";
	case AIETH_EPARSE: return "AIETH_EPARSE";
	case AIETH_ENOTFOUND: return "AIETH_ENOTFOUND";
	case AIETH_ESTATE: return "AIETH_ESTATE";
	case AIETH_EDEVICE: return "AIETH_EDEVICE";
	case AIETH_ETIMEOUT: return "AIETH_ETIMEOUT";
	case AIETH_EUNSUPPORTED: return "AIETH_EUNSUPPORTED";
	default: return "AIETH_E?";
	}
}

const char *aieth_version(void) { return AIETH_VERSION_STRING; }
