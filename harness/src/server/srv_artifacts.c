/*
 * srv_artifacts.c - a session's artifact folder on the server: the files
 * its device run produced (and the xrt.ini its client sent), returned to
 * the client at the end (HTTP: GET .../artifacts; AMD: the file return
 * after destroy). One flat folder per session under the server's work
 * folder, private (0700), removed when the session is forgotten.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/srv_core.h"
#include "util/fileio.h"
#include "util/path.h"

int srv_artifacts_open(aieth_server *s, srv_sess *x, const void *xrt_ini, size_t len)
{
	char *dir, *ini;
	int rc;
	if (x->artdir)
		return AIETH_OK;
	if (len > SRV_XRT_INI_MAX)
		return aieth_fail(AIETH_EINVAL, "xrt.ini: %zu bytes, the limit is %u", len,
				  SRV_XRT_INI_MAX);
	dir = aieth_path_join(s->work_dir, x->id);
	if (!dir)
		return aieth_fail(AIETH_ENOMEM, "artifacts: out of memory");
	if (mkdir(dir, 0700) && errno != EEXIST) {
		int e = errno;
		rc = aieth_fail(AIETH_EIO, "%s: cannot create the session's artifact folder (%s)",
				dir, strerror(e));
		free(dir);
		return rc;
	}
	x->artdir = dir;
	if (!xrt_ini || !len)
		return AIETH_OK;
	if (!(ini = aieth_path_join(dir, "xrt.ini")))
		return aieth_fail(AIETH_ENOMEM, "artifacts: out of memory");
	rc = aieth_write_atomic(ini, xrt_ini, len);
	free(ini);
	return rc;
}

void srv_artifacts_remove(srv_sess *x)
{
	DIR *d;
	struct dirent *e;
	if (!x->artdir)
		return;
	/* flat by construction: regular files only; anything else stays and
	 * so does the folder (rmdir fails), never followed */
	if ((d = opendir(x->artdir))) {
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			unlinkat(dirfd(d), e->d_name, 0);
		}
		closedir(d);
	}
	rmdir(x->artdir);
	free(x->artdir);
	x->artdir = NULL;
}
