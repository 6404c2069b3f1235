/* SPDX-License-Identifier: MIT */
/*
 * srv_names.c - the names th_server's clients send, looked up in tables
 * the operator controls (srv_names.h). A client's string is compared with
 * directory entries and table rows; a path is only ever built from an
 * operator's folder and the entry that matched, or from a name checked by
 * aieth__srv_file_name_ok, inside the session's own folder.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "th_server/srv_names.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

#define TRACES_DIR "traces"
#define BOARD_NAME_MAX 64 /* as board.c: [a-z0-9_], 1..64 */
#define LIST_MAX 64       /* names listed in a message */

int aieth__srv_file_name_ok(const char *name, size_t max)
{
	return aieth__name_ok(name, max) && !strstr(name, "..");
}

int aieth__srv_traces_parse(struct json_object *traces, srv_session_req *out)
{
	size_t total = 0, n;
	char q[80];

	if (!json_object_is_type(traces, json_type_object))
		return aieth__fail(AIETH_EINVAL, "request body traces: an object is needed "
						 "({\"out.txt\": \"the file's text\"})");
	n = (size_t)json_object_object_length(traces);
	if (n > SRV_TRACES_MAX)
		return aieth__fail(AIETH_EINVAL, "request body traces: %zu files, the limit is %d",
				   n, SRV_TRACES_MAX);
	json_object_object_foreach(traces, key, val)
	{
		srv_trace_req *t = &out->traces[out->ntraces];
		const char *text;
		size_t len;
		aieth__quote_str(q, sizeof q, key);
		if (!aieth__srv_file_name_ok(key, SRV_TRACE_NAME_MAX))
			return aieth__fail(
				AIETH_EINVAL,
				"request body traces: \"%s\" is not a file name "
				"([A-Za-z0-9._-], 1..%d bytes, not starting with '.'; never "
				"a path)",
				q, SRV_TRACE_NAME_MAX);
		if (!json_object_is_type(val, json_type_string))
			return aieth__fail(AIETH_EINVAL,
					   "request body traces.%s: a string is needed "
					   "(the file's text)",
					   q);
		text = json_object_get_string(val);
		len = (size_t)json_object_get_string_len(val);
		if (len > SRV_TRACES_BYTES_MAX - total)
			return aieth__fail(AIETH_EINVAL,
					   "request body traces: more than %u bytes "
					   "together (at traces.%s), the limit",
					   SRV_TRACES_BYTES_MAX, q);
		if (memchr(text, '\0', len))
			return aieth__fail(AIETH_EINVAL, "request body traces.%s: has a NUL byte",
					   q);
		total += len;
		if (!(t->text = malloc(len + 1)))
			return aieth__fail(AIETH_ENOMEM, "request body traces: out of memory");
		memcpy(t->text, text, len + 1);
		t->len = len;
		snprintf(t->name, sizeof t->name, "%s", key);
		out->ntraces++;
	}
	return AIETH_OK;
}

/* ------------------------------------------------------------- boards */

static int board_name_ok(const char *s)
{
	size_t i;
	for (i = 0; s[i]; i++)
		if (i >= BOARD_NAME_MAX ||
		    !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return i > 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The plain names of the data folder's platforms/NAME.json, sorted, into
 * list ("a, b"; the first LIST_MAX read); *found when one is `want`. */
static void board_list(aieth__server *s, const char *want, char *list, size_t cap, int *found)
{
	char *names[LIST_MAX], *pdir = aieth__path_join(aieth__data_dir(s->data_dir), "platforms");
	size_t nn = 0, i, o = 0;
	struct dirent *de;
	DIR *d = pdir ? opendir(pdir) : NULL;

	*found = 0;
	list[0] = '\0';
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char base[BOARD_NAME_MAX + 1];
		if (l <= 5 || l - 5 > BOARD_NAME_MAX || strcmp(de->d_name + l - 5, ".json"))
			continue;
		memcpy(base, de->d_name, l - 5);
		base[l - 5] = '\0';
		if (!board_name_ok(base))
			continue;
		if (!strcmp(base, want))
			*found = 1;
		if (nn < LIST_MAX && (names[nn] = aieth__strdup(base)))
			nn++;
	}
	if (d)
		closedir(d);
	free(pdir);
	qsort(names, nn, sizeof names[0], cmp_str);
	for (i = 0; i < nn; i++) {
		if (o + strlen(names[i]) + 3 < cap)
			o += (size_t)snprintf(list + o, cap - o, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
	if (!nn)
		snprintf(list, cap, "none");
}

int aieth__srv_board_check(aieth__server *s, const char *board, char *msg, size_t cap)
{
	char q[80], list[600];
	aieth_board *b = NULL;
	int found = 0;

	aieth__quote_str(q, sizeof q, board);
	if (s->board) {
		if (!strcmp(s->board, board))
			return 0;
		snprintf(msg, cap, "board \"%s\" requested, this server's board is %s", q,
			 s->board);
		return -1;
	}
	/* compared with the table, never opened by the client's name */
	board_list(s, board, list, sizeof list, &found);
	if (!board_name_ok(board) || !found) {
		snprintf(msg, cap, "board \"%s\": not a board of this server (its boards: %s)", q,
			 list);
		return -1;
	}
	if (aieth_board_load(&b, board, s->data_dir)) {
		/* the operator's file: its problem is for the log, not the client */
		snprintf(msg, cap,
			 "board \"%s\": this server's description of it does not load "
			 "(its log says why)",
			 q);
		return -2;
	}
	aieth_board_free(b);
	return 0;
}

/* ------------------------------------------------------------- models */

int aieth__srv_model_dirs_set(aieth__server *s, const char *const *dirs, size_t n)
{
	struct stat st;
	size_t i;
	if (n > SRV_MODEL_DIRS_MAX)
		return aieth__fail(AIETH_EINVAL, "model folders: %zu given, the limit is %d", n,
				   SRV_MODEL_DIRS_MAX);
	if (n && !(s->model_dirs = calloc(n, sizeof *s->model_dirs)))
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	for (i = 0; i < n; i++) {
		if (stat(dirs[i], &st))
			return aieth__fail(AIETH_EINVAL, "model folder %s: %s", dirs[i],
					   strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return aieth__fail(AIETH_EINVAL, "model folder %s: not a folder", dirs[i]);
		if (!(s->model_dirs[i] = aieth__strdup(dirs[i])))
			return aieth__fail(AIETH_ENOMEM, "server: out of memory");
		s->nmodel_dirs = i + 1;
	}
	return AIETH_OK;
}

void aieth__srv_model_dirs_free(aieth__server *s)
{
	size_t i;
	for (i = 0; i < s->nmodel_dirs; i++)
		free(s->model_dirs[i]);
	free(s->model_dirs);
	s->model_dirs = NULL;
	s->nmodel_dirs = 0;
}

static int is_builtin(const char *model)
{
	const char *const *n;
	for (n = aieth_emu_model_names(); *n; n++)
		if (!strcmp(*n, model))
			return 1;
	return 0;
}

static int ends_so(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && !strcmp(name + n - 3, ".so");
}

/* Look file up in the model folders (first folder first): the path of the
 * regular file whose entry matched, or NULL; the plugins seen go to list. */
static char *plugin_find(aieth__server *s, const char *file, char *list, size_t cap)
{
	size_t i, o = strlen(list);
	char *path = NULL;
	for (i = 0; i < s->nmodel_dirs && !path; i++) {
		DIR *d = opendir(s->model_dirs[i]);
		struct dirent *de;
		struct stat st;
		while (d && (de = readdir(d))) {
			if (!aieth__srv_file_name_ok(de->d_name, SRV_MODEL_NAME_MAX + 3) ||
			    !ends_so(de->d_name) || fstatat(dirfd(d), de->d_name, &st, 0) ||
			    !S_ISREG(st.st_mode))
				continue;
			if (!strcmp(de->d_name, file)) {
				path = aieth__path_join(s->model_dirs[i], de->d_name);
				break;
			}
			if (o + strlen(de->d_name) + 3 < cap)
				o += (size_t)snprintf(list + o, cap - o, ", %s", de->d_name);
		}
		if (d)
			closedir(d);
	}
	return path;
}

#define PRESET_DIR "cfg/graph-models"
#define PRESET_MAX (64 * 1024)

int aieth__srv_model_preset(const char *data_dir, const char *name, char *model, size_t cap,
			    char **params)
{
	static const char *const keys[] = {"about", "source", "model", "params", NULL};
	char *dir = aieth__path_join(aieth__data_dir(data_dir), PRESET_DIR), *path = NULL;
	char q[80], file[SRV_MODEL_NAME_MAX + 8], list[600] = "";
	struct json_object *o = NULL, *p;
	const char *m = NULL, *txt;
	char *text = NULL;
	size_t len, lo = 0;
	DIR *d;
	struct dirent *de;
	int rc;

	*params = NULL;
	if (!dir)
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	aieth__quote_str(q, sizeof q, name);
	snprintf(file, sizeof file, "%s.json", name);
	/* the name is compared with the folder's entries, never joined as given */
	if ((d = opendir(dir))) {
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			if (!aieth__srv_file_name_ok(de->d_name, SRV_MODEL_NAME_MAX + 5) || n < 6 ||
			    strcmp(de->d_name + n - 5, ".json"))
				continue;
			if (aieth__srv_file_name_ok(name, SRV_MODEL_NAME_MAX) &&
			    !strcmp(de->d_name, file))
				path = aieth__path_join(dir, de->d_name);
			if (lo + n + 3 < sizeof list)
				lo += (size_t)snprintf(list + lo, sizeof list - lo, "%s%.*s",
						       lo ? ", " : "", (int)(n - 5), de->d_name);
		}
		closedir(d);
	}
	if (!path) {
		rc = aieth__fail(AIETH_ENOTFOUND,
				 "graph model preset \"%s\": not a preset of this "
				 "server (%s/: %s)",
				 q, dir, lo ? list : "none");
		goto out;
	}
	if ((rc = aieth__read_file(path, PRESET_MAX, &text, &len)) ||
	    (rc = aieth__jstrict_parse_object(path, text, len, PRESET_MAX, &o)) ||
	    (rc = aieth__jstrict_keys(path, "", o, keys)) ||
	    (rc = aieth__jstrict_get_string(path, "", o, "model", 1, &m)) ||
	    (rc = aieth__jstrict_get_object(path, "", o, "params", 1, &p)))
		goto out;
	if (!is_builtin(m) || strlen(m) >= cap) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: model \"%.64s\": a preset names a built-in model", path, m);
		goto out;
	}
	txt = json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN);
	if (strlen(txt) > SRV_PARAMS_MAX) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: params: %zu bytes as compact JSON, the limit is %d", path,
				 strlen(txt), SRV_PARAMS_MAX);
		goto out;
	}
	snprintf(model, cap, "%s", m);
	if (!(*params = aieth__strdup(txt)))
		rc = aieth__fail(AIETH_ENOMEM, "server: out of memory");
out:
	json_object_put(o);
	free(text);
	free(path);
	free(dir);
	return rc;
}

int aieth__srv_model_check(aieth__server *s, const char *model, char **path, char *msg, size_t cap)
{
	char q[80], file[SRV_MODEL_NAME_MAX + 4], list[600];
	const char *const *n;
	size_t o = 0;
	char *p;

	if (path)
		*path = NULL;
	if (!model[0] || is_builtin(model))
		return 0;
	aieth__quote_str(q, sizeof q, model);
	list[0] = '\0';
	for (n = aieth_emu_model_names(); *n; n++)
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", *n);
	if (!aieth__srv_file_name_ok(model, SRV_MODEL_NAME_MAX)) {
		snprintf(msg, cap,
			 "model \"%s\": a built-in (%s) or the file name of a plugin in "
			 "this server's --model-dir folders is needed: [A-Za-z0-9._-], not "
			 "starting with '.', never a path",
			 q, list);
		return -1;
	}
	snprintf(file, sizeof file, "%s%s", model, ends_so(model) ? "" : ".so");
	p = plugin_find(s, file, list, sizeof list);
	if (!p) {
		snprintf(msg, cap, "model \"%s\": not a model of this server (its models: %s%s)", q,
			 list, s->nmodel_dirs ? "" : "; it has no --model-dir for plugins");
		return -1;
	}
	if (path)
		*path = p;
	else
		free(p);
	return 0;
}

/* aiesim's params read the traces sent with the session only. */
static int aiesim_check(const srv_session_req *req, size_t g, char *msg, size_t cap)
{
	struct json_object *o = req->graphs[g].params ? json_tokener_parse(req->graphs[g].params)
						      : NULL,
			   *outs, *f;
	size_t i, j, n;
	int rc = 0;
	if (!o)
		return 0; /* no params: the model says what it needs */
	if (json_object_object_get_ex(o, "dir", NULL)) {
		snprintf(msg, cap,
			 "graphs[%zu].params.dir: names a folder of the server; over the "
			 "network the traces travel with the session (\"traces\": {NAME: TEXT}) "
			 "and outputs[].file names one of them",
			 g);
		rc = -1;
	}
	if (!rc && json_object_object_get_ex(o, "outputs", &outs) &&
	    json_object_is_type(outs, json_type_array)) {
		n = json_object_array_length(outs);
		for (i = 0; i < n && !rc; i++) {
			struct json_object *e = json_object_array_get_idx(outs, i);
			const char *file;
			char q[80];
			if (!json_object_is_type(e, json_type_object) ||
			    !json_object_object_get_ex(e, "file", &f))
				continue;
			if (!json_object_is_type(f, json_type_string)) {
				snprintf(msg, cap,
					 "graphs[%zu].params.outputs[%zu].file: a string is "
					 "needed",
					 g, i);
				rc = -1;
				break;
			}
			file = json_object_get_string(f);
			for (j = 0; j < req->ntraces && strcmp(req->traces[j].name, file); j++)
				;
			if (j == req->ntraces) {
				aieth__quote_str(q, sizeof q, file);
				snprintf(msg, cap,
					 "graphs[%zu].params.outputs[%zu].file: \"%s\" is not "
					 "one of the traces sent with the session (%zu sent)",
					 g, i, q, req->ntraces);
				rc = -1;
			}
		}
	}
	json_object_put(o);
	return rc;
}

int aieth__srv_session_names_check(aieth__server *s, const srv_session_req *req, char *msg,
				   size_t cap)
{
	size_t i;
	for (i = 0; i < req->ngraphs; i++) {
		char m[800];
		if (aieth__srv_model_check(s, req->graphs[i].model, NULL, m, sizeof m)) {
			snprintf(msg, cap, "graphs[%zu]: %s", i, m);
			return -1;
		}
		if (!strcmp(req->graphs[i].model, "aiesim") && aiesim_check(req, i, msg, cap))
			return -1;
	}
	return 0;
}

/* ------------------------------------------------ the session's files */

int aieth__srv_session_names_prepare(aieth__server *s, srv_sess *x, aieth_graph_spec *g, char **own,
				     char **base_dir)
{
	char msg[800];
	size_t i;
	int rc;

	*base_dir = NULL;
	for (i = 0; i < x->req.ngraphs; i++)
		own[i] = NULL;
	if (!x->artdir)
		return aieth__fail(AIETH_EINVAL, "session %s: no folder for its files", x->id);
	if (!(*base_dir = aieth__path_join(x->artdir, TRACES_DIR)))
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	if (mkdir(*base_dir, 0700) && errno != EEXIST)
		return aieth__fail(AIETH_EIO, "session %s: cannot create its traces folder (%s)",
				   x->id, strerror(errno));
	for (i = 0; i < x->req.ntraces; i++) {
		srv_trace_req *t = &x->req.traces[i];
		char *p;
		if (!t->text)
			continue;
		if (!aieth__srv_file_name_ok(t->name, SRV_TRACE_NAME_MAX))
			return aieth__fail(AIETH_EINVAL, "trace \"%s\": not a file name", t->name);
		if (!(p = aieth__path_join(*base_dir, t->name)))
			return aieth__fail(AIETH_ENOMEM, "server: out of memory");
		rc = aieth__write_atomic(p, t->text, t->len);
		free(p);
		if (rc)
			return aieth__fail(rc, "session %s: trace %s could not be stored", x->id,
					   t->name);
		free(t->text); /* on disk now: not held in memory while it runs */
		t->text = NULL;
	}
	for (i = 0; i < x->req.ngraphs; i++) {
		if (aieth__srv_model_check(s, x->req.graphs[i].model, &own[i], msg, sizeof msg))
			return aieth__fail(AIETH_ENOTFOUND, "graph \"%s\": %s",
					   x->req.graphs[i].name, msg);
		if (own[i])
			g[i].model = own[i];
	}
	return AIETH_OK;
}

void aieth__srv_session_names_release(srv_sess *x, char **own, char *base_dir)
{
	size_t i;
	for (i = 0; i < x->req.ngraphs; i++) {
		free(own[i]);
		own[i] = NULL;
	}
	free(base_dir);
}

/* Every `from` in msg replaced by `to` (truncated at cap). */
static void replace_all(char *msg, size_t cap, const char *from, const char *to)
{
	char out[2048];
	size_t fl = strlen(from), o = 0;
	const char *p = msg, *hit;
	if (!fl || !strstr(msg, from))
		return;
	while ((hit = strstr(p, from)) && o < sizeof out - 1) {
		o += (size_t)snprintf(out + o, sizeof out - o, "%.*s%s", (int)(hit - p), p, to);
		p = hit + fl;
	}
	if (o < sizeof out - 1)
		snprintf(out + o, sizeof out - o, "%s", p);
	snprintf(msg, cap, "%s", out);
}

void aieth__srv_session_names_scrub(const srv_sess *x, char **own, const char *base_dir, char *msg,
				    size_t cap)
{
	size_t i;
	for (i = 0; i < x->req.ngraphs; i++)
		if (own[i])
			replace_all(msg, cap, own[i], x->req.graphs[i].model);
	if (base_dir) {
		char slash[4096];
		snprintf(slash, sizeof slash, "%s/", base_dir);
		replace_all(msg, cap, slash, "");
		replace_all(msg, cap, base_dir, ".");
	}
	if (x->artdir)
		replace_all(msg, cap, x->artdir, "(the session's folder)");
}

void aieth__srv_traces_remove(srv_sess *x)
{
	char *dir;
	DIR *d;
	struct dirent *e;
	if (!x->artdir || !(dir = aieth__path_join(x->artdir, TRACES_DIR)))
		return;
	/* flat, made by us: regular files only, never followed */
	if ((d = opendir(dir))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
	free(dir);
}
