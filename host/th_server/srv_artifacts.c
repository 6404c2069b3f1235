/* SPDX-License-Identifier: MIT */
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

#include <json-c/json.h>

#include "th_server/srv_core.h"
#include "util/fileio.h"
#include "util/path.h"

#define SUMMARY "run_summary.json"

int aieth__srv_artifacts_open(aieth__server *s, srv_sess *x, const void *xrt_ini, size_t len)
{
	char *dir, *ini;
	int rc;
	if (x->artdir)
		return AIETH_OK;
	if (len > SRV_XRT_INI_MAX)
		return aieth__fail(AIETH_EINVAL, "xrt.ini: %zu bytes, the limit is %u", len,
				   SRV_XRT_INI_MAX);
	dir = aieth__path_join(s->work_dir, x->id);
	if (!dir)
		return aieth__fail(AIETH_ENOMEM, "artifacts: out of memory");
	if (mkdir(dir, 0700) && errno != EEXIST) {
		int e = errno;
		rc = aieth__fail(AIETH_EIO, "%s: cannot create the session's artifact folder (%s)",
				 dir, strerror(e));
		free(dir);
		return rc;
	}
	x->artdir = dir;
	if (!xrt_ini || !len)
		return AIETH_OK;
	if (!(ini = aieth__path_join(dir, "xrt.ini")))
		return aieth__fail(AIETH_ENOMEM, "artifacts: out of memory");
	rc = aieth__write_atomic(ini, xrt_ini, len);
	free(ini);
	return rc;
}

void aieth__srv_artifacts_remove(srv_sess *x)
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

/* 64-bit FNV-1a, never 0 (0: nothing written yet) */
static uint64_t fnv1a(const char *t)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *t; t++)
		h = (h ^ (uint8_t)*t) * 0x100000001b3ull;
	return h ? h : 1;
}

int aieth__srv_artifacts_summary(aieth__server *s, srv_sess *x)
{
	uint64_t h = 0;
	static const char *const states[] = {"queued", "active", "ended", "expired", "failed"};
	struct json_object *o, *a;
	const srv_txn *t;
	const char *text;
	char *path;
	size_t i;
	int rc;

	if (!x->artdir)
		return AIETH_OK;
	o = json_object_new_object();
	json_object_object_add(o, "session", json_object_new_string(x->id));
	json_object_object_add(o, "owner", json_object_new_string(x->owner));
	json_object_object_add(o, "state", json_object_new_string(states[x->state]));
	if (x->reason[0])
		json_object_object_add(o, "reason", json_object_new_string(x->reason));
	json_object_object_add(o, "board", json_object_new_string(x->req.board));
	json_object_object_add(o, "backend", json_object_new_string(s->backend));
	json_object_object_add(o, "xclbin_sha256",
			       x->xsha[0] ? json_object_new_string(x->xsha) : NULL);
	a = json_object_new_array();
	for (i = 0; i < x->req.ngraphs; i++) {
		struct json_object *g = json_object_new_object();
		json_object_object_add(g, "name", json_object_new_string(x->req.graphs[i].name));
		json_object_object_add(g, "model",
				       json_object_new_string(x->req.graphs[i].model[0]
								      ? x->req.graphs[i].model
								      : "loopback"));
		json_object_array_add(a, g);
	}
	json_object_object_add(o, "graphs", a);
	a = json_object_new_array();
	/* AMD's sessions: the results already given back come first */
	for (t = x->retired; t; t = t->next)
		json_object_array_add(a, aieth__srv_txn_json_locked(x, t));
	for (t = x->txns; t; t = t->next)
		json_object_array_add(a, aieth__srv_txn_json_locked(x, t));
	json_object_object_add(o, "transactions", a);
	if (x->retired_omitted)
		json_object_object_add(o, "transactions_omitted",
				       json_object_new_uint64(x->retired_omitted));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	if (text && (h = fnv1a(text)) == x->sum_hash) {
		/* unchanged: a client listing in a loop costs no write (and no
		 * fsync under the server's lock) */
		json_object_put(o);
		return AIETH_OK;
	}
	path = aieth__path_join(x->artdir, SUMMARY);
	if (!text || !path)
		rc = aieth__fail(AIETH_ENOMEM, "artifacts: out of memory");
	else if (!(rc = aieth__write_atomic(path, text, strlen(text))))
		x->sum_hash = h;
	free(path);
	json_object_put(o);
	return rc;
}
