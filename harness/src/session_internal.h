/*
 * session_internal.h - sessions and transactions (not installed).
 */
#ifndef AIETH_SESSION_INTERNAL_H
#define AIETH_SESSION_INTERNAL_H

#include "backend.h"
#include "internal.h"

typedef struct {
	char *name;
	char *model;
	char *params;
	int bounded;        /* a bounded run was started */
	int forever;        /* running until ended */
	int ended;
	int64_t iterations; /* of the last run */
} aieth_graph_state;

struct aieth_session {
	aieth_board *board;
	const aieth_board_info *info;
	const aieth_backend_ops *ops;
	void *bstate;
	char *xclbin;
	char *pl_xclbin;                 /* xrt: NULL = the board default */
	char *data_dir;                  /* as given (NULL: default) */
	int emu_reference;
	size_t ngraphs;
	aieth_graph_state *graphs;
	struct aieth_txn *head, *tail;   /* every transaction not freed, in order */
};

struct aieth_txn {
	struct aieth_session *s;
	struct aieth_txn *prev, *next;
	aieth_mode mode;
	aieth_txn_status status;
	char msg[1024];
	size_t n;
	aieth_channel_args *args;        /* copies (plio points into plios) */
	aieth_plio *plios;
	pld_txn wire;
	aieth_dev_result dev;
	aieth_channel_result *res;
	int valid;
};

/* Fill t->res and t->valid from the device result (results.c). */
void aieth_txn_compute_results(struct aieth_txn *t);

#endif
