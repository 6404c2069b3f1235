/* SPDX-License-Identifier: MIT */
/*
 * run_aie.c - a hang's AI Engine array state in the test's report: the
 * xrt backend writes OUT/artifacts/aie_state.json before it resets the
 * array (backends/xrt/xrt_backend.c), the emulated board its graph
 * models' ports at a stall (backends/emu.c); the runner puts that object
 * in the test as "aie_state" (docs/report-schema.md). Only a file written
 * during this test's wait is taken (an earlier test's hang leaves one
 * behind).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report/report_model.h"
#include "runner/run_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

/* a state of 512 tiles is well under this */
#define AIE_STATE_MAX_BYTES (8u << 20)

void aieth__rn_aie_state_mark(run_ctx *c, struct timespec *since)
{
	(void)c;
	clock_gettime(CLOCK_REALTIME, since);
	since->tv_sec -= 1; /* file systems with coarse timestamps */
}

void aieth__rn_aie_state_take(run_ctx *c, const struct timespec *since)
{
	/* the folder the backend in use was given: one file, one pickup */
	unsigned int flags = aieth_backend_flags(aieth__rj_gets(c->test, "backend"));
	const char *dir =
		!c->o ? NULL
		: flags & AIETH_BACKEND_EMULATED
			? (c->o->emu && c->o->emu->version >= 2 ? c->o->emu->artifacts_dir : NULL)
		: flags & AIETH_BACKEND_NETWORKED
			? (c->o->remote ? c->o->remote->artifacts_dir : NULL)
		: c->o->xrt ? c->o->xrt->artifacts_dir
			    : NULL;
	char *path, *text = NULL;
	struct stat st;
	json_object *j, *tiles;
	size_t len;
	if (!dir || !c->test)
		return;
	if (!(path = aieth__path_join(dir, "aie_state.json")))
		return;
	if (stat(path, &st) != 0 || st.st_mtim.tv_sec < since->tv_sec ||
	    (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec < since->tv_nsec)) {
		free(path);
		return;
	}
	if (aieth__read_file(path, AIE_STATE_MAX_BYTES, &text, &len) != AIETH_OK) {
		aieth__rj_str(c->test, "aie_state_error", aieth_error_message());
		free(path);
		return;
	}
	j = json_tokener_parse(text);
	if (!j || !json_object_is_type(j, json_type_object) ||
	    !json_object_object_get_ex(j, "tiles", &tiles) ||
	    !json_object_is_type(tiles, json_type_array)) {
		char m[600];
		snprintf(m, sizeof m, "%s: not an AI Engine state (an object with tiles)", path);
		aieth__rj_str(c->test, "aie_state_error", m);
		json_object_put(j);
	} else {
		aieth__rj_set(c->test, "aie_state", j);
	}
	free(text);
	free(path);
}
