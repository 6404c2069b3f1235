/* SPDX-License-Identifier: MIT */
/*
 * remote_traces.c - the remote backend's aiesim traces sent with the
 * session, and graph names escaped for URL paths (remote_traces.h).
 */
#ifdef AIETH_HAVE_CURL

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/remote/remote_traces.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

#define NAME_MAX_ 128 /* a trace's name on the server (SRV_TRACE_NAME_MAX) */

const char *aieth__rmt_path_seg(const char *name, char out[RMT_SEG_MAX])
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	for (; *name && o + 4 <= RMT_SEG_MAX; name++) {
		unsigned char c = (unsigned char)*name;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-') {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
	return out;
}

/* The file's base name as the server takes it: [A-Za-z0-9._-], no leading
 * dot, at most NAME_MAX_ bytes; where that name is taken already,
 * "gG-oO-name", then "gG-oO-K-name": every candidate is checked, so that no
 * trace replaces another's (a file of graph 0 may be named "g1-o0-out.txt").
 * Fewer than RMT_TRACES_MAX names are taken (add_one checks), so one of the
 * RMT_TRACES_MAX + 1 distinct candidates is free. */
static int upload_name(const char *file, size_t g, size_t o, struct json_object *traces, char *out,
		       size_t cap)
{
	const char *base = strrchr(file, '/');
	char clean[NAME_MAX_ - 48];
	size_t i, n = 0;
	unsigned k;
	base = base ? base + 1 : file;
	for (i = 0; base[i] && n < sizeof clean - 1; i++) {
		char c = base[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '-' ||
			 (c == '.' && n > 0 && clean[n - 1] != '.');
		if (ok || n > 0)
			clean[n++] = ok ? c : '_';
	}
	clean[n] = '\0';
	if (!n)
		snprintf(clean, sizeof clean, "trace");
	for (k = 0; k <= RMT_TRACES_MAX; k++) {
		int w = k == 0   ? snprintf(out, cap, "%s", clean)
			: k == 1 ? snprintf(out, cap, "g%zu-o%zu-%s", g, o, clean)
				 : snprintf(out, cap, "g%zu-o%zu-%u-%s", g, o, k, clean);
		if (w < 0 || (size_t)w >= cap)
			break;
		if (!json_object_object_get_ex(traces, out, NULL))
			return AIETH_OK;
	}
	return aieth__fail(AIETH_EINVAL,
			   "aiesim trace %s: no free name for it among the session's traces", file);
}

/* One outputs[] entry of graph g: its file read and sent as a trace. */
static int add_one(const aieth_graph_state *gs, size_t g, size_t o, const char *dir,
		   struct json_object *entry, struct json_object *traces, size_t *total)
{
	struct json_object *f;
	char name[NAME_MAX_ + 1];
	const char *file;
	char *path, *text = NULL;
	struct stat st;
	size_t len = 0;
	int rc;

	if (!json_object_is_type(entry, json_type_object) ||
	    !json_object_object_get_ex(entry, "file", &f) ||
	    !json_object_is_type(f, json_type_string))
		return AIETH_OK; /* the model's own checks name it */
	file = json_object_get_string(f);
	path = file[0] == '/' ? aieth__strdup(file) : aieth__path_join(dir, file);
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	if ((size_t)json_object_object_length(traces) >= RMT_TRACES_MAX) {
		rc = aieth__fail(AIETH_EINVAL,
				 "graph \"%s\": aiesim trace %s: more than %d trace "
				 "files in one session, the server's limit",
				 gs->name, path, RMT_TRACES_MAX);
		goto out;
	}
	if (stat(path, &st)) {
		rc = aieth__fail(AIETH_EIO, "graph \"%s\": aiesim trace %s: %s", gs->name, path,
				 strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > RMT_TRACES_BYTES_MAX - *total) {
		rc = aieth__fail(
			AIETH_EINVAL, "graph \"%s\": aiesim trace %s: %s", gs->name, path,
			!S_ISREG(st.st_mode)
				? "not a regular file"
				: "the traces of a session are sent with it, at most 4 MiB "
				  "together (4194304 bytes), the server's limit");
		goto out;
	}
	if ((rc = aieth__read_file(path, RMT_TRACES_BYTES_MAX - *total, &text, &len)))
		goto out;
	if (memchr(text, '\0', len)) {
		rc = aieth__fail(AIETH_EINVAL,
				 "graph \"%s\": aiesim trace %s: has a NUL byte (a "
				 "text file is needed)",
				 gs->name, path);
		goto out;
	}
	if ((rc = upload_name(file, g, o, traces, name, sizeof name)))
		goto out;
	*total += len;
	json_object_object_add(traces, name, json_object_new_string_len(text, (int)len));
	json_object_object_add(entry, "file", json_object_new_string(name));
out:
	free(text);
	free(path);
	return rc;
}

int aieth__rmt_traces_add(const aieth_dev_config *cfg, struct json_object *req)
{
	struct json_object *graphs, *traces = NULL;
	size_t g, o, total = 0;
	int rc = AIETH_OK;

	if (!json_object_object_get_ex(req, "graphs", &graphs))
		return AIETH_OK;
	for (g = 0; g < cfg->ngraphs && g < json_object_array_length(graphs) && !rc; g++) {
		const aieth_graph_state *gs = &cfg->graphs[g];
		struct json_object *p, *d, *outs;
		char *dir;
		if (!gs->model || strcmp(gs->model, "aiesim") ||
		    !json_object_object_get_ex(json_object_array_get_idx(graphs, g), "params",
					       &p) ||
		    !json_object_object_get_ex(p, "outputs", &outs) ||
		    !json_object_is_type(outs, json_type_array))
			continue;
		/* the folder as the local emulator takes it (pl_dma/models/aiesim.c) */
		d = NULL;
		json_object_object_get_ex(p, "dir", &d);
		{
			const char *dd = d && json_object_is_type(d, json_type_string)
						 ? json_object_get_string(d)
						 : ".";
			dir = dd[0] != '/' && gs->base_dir && gs->base_dir[0]
				      ? aieth__path_join(gs->base_dir, dd)
				      : aieth__strdup(dd);
		}
		if (!dir)
			return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
		if (!traces && !(traces = json_object_new_object())) {
			free(dir);
			return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
		}
		for (o = 0; o < json_object_array_length(outs) && !rc; o++)
			rc = add_one(gs, g, o, dir, json_object_array_get_idx(outs, o), traces,
				     &total);
		free(dir);
		/* the server reads the traces sent, in the session's own folder */
		json_object_object_del(p, "dir");
	}
	if (traces && !rc)
		json_object_object_add(req, "traces", traces);
	else
		json_object_put(traces);
	return rc;
}

#endif
