/* SPDX-License-Identifier: MIT */
/*
 * core/session_internal.h - sessions and transactions (not installed):
 * private to core/ (scripts/check-layers.py); th_server reaches a session's
 * device through core/device.h.
 */
#ifndef AIETH_CORE_SESSION_INTERNAL_H
#define AIETH_CORE_SESSION_INTERNAL_H

#include "aieth.h"
#include <stdatomic.h>

#include "backends/backend.h"
#include "util/error.h"

struct aieth_session {
	aieth_board *board;
	const aieth_board_info *info;
	const aieth_backend_ops *ops;
	void *bstate;
	char *xclbin;
	char *data_dir;        /* as given (NULL: default) */
	char server_info[160]; /* remote: what the server says it is */
	size_t ngraphs;
	aieth_graph_state *graphs;
	struct aieth_txn *head, *tail; /* every transaction not freed, in order */
	aieth_dev_config dev;          /* what the backend was opened with */
	atomic_int busy;               /* a call is running (core/handles.c) */
};

struct aieth_txn {
	struct aieth_session *s;
	struct aieth_txn *prev, *next;
	aieth_mode mode;
	aieth_txn_status status;
	char msg[1024];
	size_t n;
	aieth_channel_args *args; /* copies (plio points into plios) */
	aieth_plio *plios;
	pld_txn wire;
	aieth_dev_result dev;
	aieth_channel_result *res;
	int valid;
	struct aieth_chan_io *io; /* per channel: streamed data (txn.c) */
};

/* Free a transaction of a session the caller holds (aieth_txn_free
 * without the handle checks; aieth_session_close frees its transactions
 * with it). */
void aieth__txn_release(struct aieth_txn *t);

#endif
