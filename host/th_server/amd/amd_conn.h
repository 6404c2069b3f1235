/* SPDX-License-Identifier: MIT */
/*
 * th_server/amd/amd_conn.h - one connection of AMD's protocol (amd_conn.c), as
 * the listener (amd_listen.c) starts it: the handshake, the manager that
 * becomes a session in the shared queue (srv_core.c), transactions run back
 * to back by a runner thread, graph calls, the file return, the end.
 */
#ifndef AIETH_SERVER_AMD_CONN_H
#define AIETH_SERVER_AMD_CONN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "th_server/srv_core.h"
#include "th_server/srv_queue.h"
#include "th_server/srv_stats.h"

#define AMD_CONNS_MAX 16  /* connections at once; more are closed at accept */
#define AMD_MODELS_MAX 64 /* --graph-model entries */
#define AMD_SETUP_S 30    /* --amd-setup-timeout default */

/* A graph name's model (--graph-model NAME=MODEL[:JSON]). */
typedef struct {
	char name[SRV_NAME_MAX + 1];
	char model[SRV_NAME_MAX + 1];
	char *params; /* JSON text or NULL (owned) */
} amd_model;

/* What every connection reads: the listener's settings. */
typedef struct {
	aieth__server *s;
	atomic_int stop;  /* set by aieth__srv_amd_stop, read by every connection */
	uint32_t setup_s; /* a connection's manager must be in within this
				        (--amd-setup-timeout); setTimeOut cannot extend it */
	size_t nmodels;
	amd_model models[AMD_MODELS_MAX];
} amd_shared;

/* Serve one accepted socket to its end (the caller closes fd). peer is
 * "ADDR:PORT". */
void aieth__amd_conn_serve(amd_shared *sh, int fd, const char *peer);

#endif
