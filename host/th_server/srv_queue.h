/* SPDX-License-Identifier: MIT */
/*
 * srv_queue.h - th_server's sessions in their first-come first-served
 * queue, as the listeners (http/, amd/) see them: a session enqueued,
 * found by id for its client, referenced for device calls and released,
 * its state read, ended; the housekeeping that expires and forgets them.
 * The device's open and close behind it are srv_core.c's.
 *
 * Locks: every operation takes srv->mu itself and returns with it
 * released, except those named _locked (for the core's own files, called
 * with mu held). None makes a device call with mu held: the opener thread
 * opens and closes the device outside it (srv_core.c). A session pointer
 * stays valid while referenced (aieth__srv_queue_active, aieth__srv_queue_ref) until
 * aieth__srv_release.
 */
#ifndef AIETH_SERVER_SRV_QUEUE_H
#define AIETH_SERVER_SRV_QUEUE_H

#include <stddef.h>

#include <json-c/json.h>

#include "th_server/srv_core.h"

/* how long a request about a session waits for its device to open
 * before it answers (the session is queued at position 1 meanwhile) */
#define SRV_LOOK_OPEN_WAIT_MS 5000u

/* ---- into the queue, and out ---- */

typedef enum {
	SRV_Q_OK = 0,    /* queued or active: *x is in the queue */
	SRV_Q_DRAINING,  /* the server is stopping */
	SRV_Q_FULL,      /* the queue is at --max-queue */
	SRV_Q_FAILED,    /* the device could not be opened: x->reason */
	SRV_Q_NO_XCLBIN, /* x->xsha is not in the cache (x freed) */
	SRV_Q_INTERNAL   /* its artifact folder could not be made (x freed) */
} srv_q_result;

/* Put x in the queue; promotes it when the device is free. A design
 * named by x->xsha is pinned in the cache (x->xclbin its path) and x's
 * artifact folder made with x->xrt_ini, both before the device opens. On
 * SRV_Q_DRAINING/FULL/NO_XCLBIN/INTERNAL x was freed and msg says why; on
 * SRV_Q_FAILED x stays in the list (ended) and msg holds its reason. */
srv_q_result aieth__srv_sess_enqueue(aieth__server *s, srv_sess *x, char *msg, size_t cap);

/* A reference for device calls and transfers on x (AMD's connection
 * holds one for its whole life). */
void aieth__srv_queue_ref(aieth__server *s, srv_sess *x);
/* Drop a reference taken for a device call or a transfer; the device
 * closes when the session ended meanwhile. */
void aieth__srv_release(aieth__server *s, srv_sess *x);

/* End x (st, reason) when queued or active; its device closes once no
 * reference is left. */
void aieth__srv_queue_end(aieth__server *s, srv_sess *x, ss_state st, const char *reason);
/* End x (reason) when the caller holds the only reference to an active x
 * (AMD's destroy): its device closes at once, as for any end, and this
 * waits for the close (aieth__srv_wait_closed_locked, SRV_CLOSE_WAIT_MS): what the
 * device writes as it closes (the xrt backend's child exits, XRT writes
 * its run summary) is in x's artifact folder when this returns, and
 * run_summary.json was written just before. x stays referenced. 1 when
 * ended here, 0 when not (x not active, or other references). */
int aieth__srv_end_close(aieth__server *s, srv_sess *x, const char *reason);

/* ---- a session as a request sees it ---- */

/* What a reply tells of a session not active. */
typedef struct {
	ss_state state;
	unsigned position; /* in the queue, 1-based; 0 when not queued */
	char reason[512];
} srv_sess_view;

typedef enum {
	SRV_L_OK = 0,
	SRV_L_NONE,      /* no such session (or forgotten) */
	SRV_L_FORBIDDEN, /* it belongs to another token */
	SRV_L_INACTIVE   /* not active: *v says how */
} srv_l_result;

/* The session id for the client who (a token's name): found, its idle
 * clock reset, its open waited for (SRV_LOOK_OPEN_WAIT_MS), then, when
 * active, referenced into *x (aieth__srv_release after the call). */
srv_l_result aieth__srv_queue_active(aieth__server *s, const char *id, const char *who,
				     srv_sess **x, srv_sess_view *v);
/* The same lookup; the session's status as JSON into *o, or (end) the
 * session ended by its client (logged). */
srv_l_result aieth__srv_queue_session(aieth__server *s, const char *id, const char *who, int end,
				      struct json_object **o);
/* The status of x just enqueued as JSON, with its id and a copy of its
 * design's path (NULL when none; freed by the caller). */
struct json_object *aieth__srv_queue_describe(aieth__server *s, srv_sess *x, char *id, size_t cap,
					      char **xclbin);
/* The same lookup for the artifacts: an ended session's device closed
 * first (its files final, SRV_CLOSE_WAIT_MS), a running session's
 * run_summary.json written as it stands; *dfd its artifact folder opened
 * (O_DIRECTORY) under the lock, or -1. */
srv_l_result aieth__srv_queue_artifacts(aieth__server *s, const char *id, const char *who,
					int *dfd);
/* x's state into *v (its reason, its place); a queued x's idle clock
 * reset when touch (a client alive and waiting). */
ss_state aieth__srv_queue_state(aieth__server *s, srv_sess *x, int touch, srv_sess_view *v);
/* x's run_summary.json written as it stands. */
int aieth__srv_queue_summary(aieth__server *s, srv_sess *x);

/* ---- housekeeping ---- */

/* aieth__server_tick's part for the sessions: idle, queue-wait and
 * --max-session expiry, pruning, promotion. */
void aieth__srv_tick(aieth__server *s);

/* ---- for the core's files (mu held) ---- */

srv_sess *aieth__srv_find_locked(aieth__server *s, const char *id);
/* 1-based place among the queued sessions; 0 when not queued. */
unsigned aieth__srv_position_locked(aieth__server *s, const srv_sess *x);

#endif
