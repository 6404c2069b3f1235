/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_names.h - the names th_server's clients send, looked up in
 * tables the operator controls and never used as paths (docs/server.md,
 * "What a client may name"):
 *  - boards: plain names of the data folder's platforms/ files;
 *  - graph models: the built-ins, or plugins by file name from the
 *    operator's --model-dir folders, resolved by listing them;
 *  - aiesim traces: the files sent with the session, stored in its own
 *    folder and read from there only.
 * Messages for a client name the client's value and the server's choices,
 * never a server path or a byte of a server file.
 */
#ifndef AIETH_SERVER_SRV_NAMES_H
#define AIETH_SERVER_SRV_NAMES_H

#include "th_server/srv_core.h"

#define SRV_MODEL_DIRS_MAX 16  /* --model-dir folders */
#define SRV_MODEL_NAME_MAX 128 /* a plugin's file name */

/* The operator's --model-dir folders into s (each must be a folder). */
int aieth__srv_model_dirs_set(aieth__server *s, const char *const *dirs, size_t n);
void aieth__srv_model_dirs_free(aieth__server *s);

/* A board a client names (HTTP "board", AMD's device name): s->board when
 * the operator set one, else a plain board name found among the data
 * folder's platforms/ files, and loading. 0, or -1 with msg set for the
 * client (its value and the boards this server has); -2 when the board's
 * file does not load: msg for the client, the details for the operator's
 * log in the aieth error message. */
int aieth__srv_board_check(aieth__server *s, const char *board, char *msg, size_t cap);

/* A graph model a client names: "" (the default), a built-in, or a plugin
 * NAME or NAME.so found in a --model-dir folder. *path (when path is not
 * NULL) gets the plugin's path, built from the folder and the directory
 * entry that matched (owned; NULL for a built-in). 0, or -1 with msg. */
int aieth__srv_model_check(aieth__server *s, const char *model, char **path, char *msg, size_t cap);

/* The operator's preset NAME (--graph-model GRAPH=@NAME): the file
 * NAME.json in the data folder's cfg/graph-models/, found among its entries
 * (docs/server.md), a JSON object {"model": a built-in, "params": {...}}
 * (and free "about" and "source" texts). *model (cap bytes) gets the model,
 * *params (owned) the params as compact JSON text. 0, or an aieth error
 * naming the preset, the file and the rule (the presets there listed). */
int aieth__srv_model_preset(const char *data_dir, const char *name, char *model, size_t cap,
			    char **params);

/* Everything an HTTP session request names, before it is queued: models
 * (aieth__srv_model_check), and aiesim params that read only the traces sent
 * with it (no "dir"; each outputs[].file one of req->traces). 0, or -1
 * with msg set for the client. */
int aieth__srv_session_names_check(aieth__server *s, const srv_session_req *req, char *msg,
				   size_t cap);

/* Called by the opener thread for an HTTP session, before its device
 * opens: its traces written into ARTDIR/traces (then freed from memory),
 * plugin paths resolved. g[i].model points into own[i] for a plugin;
 * *base_dir is the traces folder the models' relative files mean. Free
 * with aieth__srv_session_names_release. AIETH_OK or an aieth error. */
int aieth__srv_session_names_prepare(aieth__server *s, srv_sess *x, aieth_graph_spec *g, char **own,
				     char **base_dir);
void aieth__srv_session_names_release(srv_sess *x, char **own, char *base_dir);
/* A message of a failed open, for the client: the plugin paths and the
 * traces folder prepare made replaced by the client's names. */
void aieth__srv_session_names_scrub(const srv_sess *x, char **own, const char *base_dir, char *msg,
				    size_t cap);

/* The session's traces folder and its files, removed (aieth__srv_free_sess). */
void aieth__srv_traces_remove(srv_sess *x);

#endif
