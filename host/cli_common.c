/* cli_common.c - data directory lookup and output-directory checks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"

static int is_data_dir(const char *d)
{
	char p[4400];
	struct stat st;
	if (snprintf(p, sizeof p, "%s/platforms/vck190.json", d) >= (int)sizeof p)
		return 0;
	return stat(p, &st) == 0;
}

const char *cli_data_dir(const char *opt)
{
	static char buf[4200];
	char exe[4096], *slash;
	const char *env = getenv("AIETH_DATA_DIR");
	ssize_t n;
	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0'; /* <prefix>/bin or <tree>/build/bin */
	if (snprintf(buf, sizeof buf, "%s/../share/aieth", exe) < (int)sizeof buf && is_data_dir(buf))
		return buf;
	if (snprintf(buf, sizeof buf, "%s/../..", exe) < (int)sizeof buf && is_data_dir(buf))
		return buf;
	return NULL;
}

int cli_ensure_dir(const char *dir, char *err, unsigned errlen)
{
	char path[4096], probe[4200];
	size_t i, n = strlen(dir);
	FILE *f;
	if (n == 0 || n >= sizeof path) {
		snprintf(err, errlen, "output directory \"%s\": bad path", dir);
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] == '/' || path[i] == '\0') {
			char c = path[i];
			path[i] = '\0';
			if (mkdir(path, 0777) != 0 && errno != EEXIST) {
				snprintf(err, errlen, "output directory %s: cannot create %s: %s", dir,
					 path, strerror(errno));
				return -1;
			}
			path[i] = c;
		}
	}
	if (snprintf(probe, sizeof probe, "%s/.run_test_probe.%ld", dir, (long)getpid()) >=
	    (int)sizeof probe) {
		snprintf(err, errlen, "output directory %.200s...: path too long", dir);
		return -1;
	}
	f = fopen(probe, "w");
	if (!f) {
		snprintf(err, errlen, "output directory %s is not writable: %s", dir, strerror(errno));
		return -1;
	}
	fclose(f);
	unlink(probe);
	return 0;
}
