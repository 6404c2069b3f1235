/* SPDX-License-Identifier: MIT */
/*
 * ca_bundle.c - which CA bundle an https client trusts (ca_bundle.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/ca_bundle.h"
#include "util/error.h"

static const char *const env_names[] = {"AIETH_CACERT", "CURL_CA_BUNDLE", "SSL_CERT_FILE"};

int aieth__ca_bundle(const char *given, const char *flag, const char *url, const char **path)
{
	const char *from = flag, *p = given && *given ? given : NULL, *why = NULL;
	struct stat st;
	size_t i;
	int fd;
	for (i = 0; !p && i < sizeof env_names / sizeof env_names[0]; i++) {
		const char *v = getenv(env_names[i]);
		if (v && *v) {
			p = v;
			from = env_names[i];
		}
	}
	*path = p;
	if (!p)
		return AIETH_OK;
	/* opened, not access(2)ed: the check is the one libcurl meets later
	 * (a folder opens but is no bundle) */
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	if (why) {
		if (fd >= 0)
			close(fd);
		*path = NULL;
		if (from != flag && url && !strncmp(url, "http://", 7))
			return AIETH_OK;
		return aieth__fail(AIETH_EINVAL,
				   "%s%s%s: the CA bundle cannot be read: %s (name a readable "
				   "PEM file of CA certificates%s%s%s)",
				   from, from == flag ? " " : "=", p, why,
				   from == flag ? "" : ", or unset ", from == flag ? "" : from,
				   from == flag ? "" : " for the system's");
	}
	close(fd);
	return AIETH_OK;
}
