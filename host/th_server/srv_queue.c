/* SPDX-License-Identifier: MIT */
/*
 * srv_queue.c - th_server's sessions in their queue (srv_queue.h): the
 * enqueue, the lookups a request makes (each under srv->mu, taken here),
 * references and their release, the ends, and the housekeeping that
 * expires and forgets sessions. The device's open and close are
 * srv_core.c's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_server/srv_queue.h"
#include "util/path.h"

/* how long POST /v1/sessions waits for its device to open before it
 * answers "queued" at position 1 (the client then polls) */
#define SRV_OPEN_WAIT_S 30

/* ---- mu held ---- */

srv_sess *aieth__srv_find_locked(aieth__server *s, const char *id)
{
	srv_sess *p;
	for (p = s->queue.sessions; p; p = p->next)
		if (!strcmp(p->id, id))
			return p;
	return NULL;
}

unsigned aieth__srv_position_locked(aieth__server *s, const srv_sess *x)
{
	const srv_sess *p;
	unsigned n = 1;
	if (x->state != SS_QUEUED)
		return 0;
	/* a session whose device is being opened is no longer waiting */
	for (p = s->queue.sessions; p && p != x; p = p->next)
		if (p->state == SS_QUEUED && !p->opening)
			n++;
	return n;
}

/* Forget the oldest finished sessions beyond SRV_ENDED_KEEP. */
static void prune_locked(aieth__server *s)
{
	srv_sess **pp;
	size_t n = 0;
	for (pp = &s->queue.sessions; *pp; pp = &(*pp)->next)
		if ((*pp)->state >= SS_ENDED && !(*pp)->dev && !(*pp)->refs && !(*pp)->opening &&
		    !(*pp)->dev_closing && !(*pp)->waiting)
			n++;
	for (pp = &s->queue.sessions; *pp && n > SRV_ENDED_KEEP;) {
		srv_sess *x = *pp;
		if (x->state >= SS_ENDED && !x->dev && !x->refs && !x->opening && !x->dev_closing &&
		    !x->waiting) {
			*pp = x->next;
			aieth__srv_free_sess(x);
			n--;
		} else {
			pp = &x->next;
		}
	}
}

static void new_id(aieth__server *s, char *id, size_t cap)
{
	uint64_t v = ++s->queue.next_seq;
	/* unguessable enough to not collide with an older server's ids in a
	 * client's retries; ownership is checked by token anyway */
	snprintf(id, cap, "s-%llu-%08llx", (unsigned long long)v,
		 (unsigned long long)((s->queue.id_key ^ (v * 0x9e3779b97f4a7c15ull)) &
				      0xffffffffull));
}

/* A request's lookup: id found, who's (with tokens), its idle clock reset,
 * its open waited for (bounded). */
static srv_l_result look_locked(aieth__server *s, const char *id, const char *who, srv_sess **out)
{
	srv_sess *x = aieth__srv_find_locked(s, id);
	*out = x;
	if (!x)
		return SRV_L_NONE;
	if (s->have_tokens && strcmp(x->owner, who))
		return SRV_L_FORBIDDEN;
	x->last_ms = srv_now_ms();
	/* its device being opened: answer once the open ended (bounded) */
	aieth__srv_wait_open_locked(s, x, SRV_LOOK_OPEN_WAIT_MS);
	return SRV_L_OK;
}

static void view_locked(aieth__server *s, const srv_sess *x, srv_sess_view *v)
{
	v->state = x->state;
	v->position = aieth__srv_position_locked(s, x);
	snprintf(v->reason, sizeof v->reason, "%s", x->reason);
}

/* A session's status, the one form POST and GET /v1/sessions give. */
static struct json_object *session_json_locked(aieth__server *s, srv_sess *x)
{
	struct json_object *o = json_object_new_object(), *g = json_object_new_array();
	size_t i;
	json_object_object_add(o, "id", json_object_new_string(x->id));
	json_object_object_add(o, "state",
			       json_object_new_string(aieth__srv_state_names[x->state]));
	json_object_object_add(o, "position",
			       json_object_new_int64(aieth__srv_position_locked(s, x)));
	json_object_object_add(o, "board", json_object_new_string(x->req.board));
	json_object_object_add(o, "backend", json_object_new_string(s->backend));
	for (i = 0; i < x->req.ngraphs; i++)
		json_object_array_add(g, json_object_new_string(x->req.graphs[i].name));
	json_object_object_add(o, "graphs", g);
	json_object_object_add(o, "idle_timeout_s", json_object_new_int64(s->limits.idle_s));
	json_object_object_add(o, "max_wait_s", json_object_new_int64(s->limits.max_wait_s));
	if (x->reason[0])
		json_object_object_add(o, "reason", json_object_new_string(x->reason));
	if (x->xsha[0])
		json_object_object_add(o, "xclbin_sha256", json_object_new_string(x->xsha));
	return o;
}

/* ---- into the queue, and out ---- */

srv_q_result aieth__srv_sess_enqueue(aieth__server *s, srv_sess *x, char *msg, size_t cap)
{
	srv_sess **pp;
	unsigned queued = 0;

	pthread_mutex_lock(&s->mu);
	if (s->draining) {
		pthread_mutex_unlock(&s->mu);
		aieth__srv_free_sess(x);
		snprintf(msg, cap, "the server is stopping");
		return SRV_Q_DRAINING;
	}
	for (pp = &s->queue.sessions; *pp; pp = &(*pp)->next)
		queued += (*pp)->state == SS_QUEUED && !(*pp)->opening;
	if (aieth__srv_device_busy_locked(s) && queued >= s->limits.max_queue) {
		pthread_mutex_unlock(&s->mu);
		aieth__srv_free_sess(x);
		snprintf(msg, cap, "the queue holds %u sessions, the limit is --max-queue %u",
			 queued, s->limits.max_queue);
		return SRV_Q_FULL;
	}
	if (x->xsha[0] && aieth__srv_xclbin_pin_locked(s, x)) {
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap, "%s", aieth_error_message());
		aieth__srv_free_sess(x);
		return SRV_Q_NO_XCLBIN;
	}
	aieth__srv_opener_start_locked(s);
	if (!s->queue.opener_started) {
		aieth__srv_xclbin_unpin_locked(s, x);
		pthread_mutex_unlock(&s->mu);
		aieth__srv_free_sess(x);
		snprintf(msg, cap, "the server could not start its device opener thread");
		return SRV_Q_DRAINING;
	}
	new_id(s, x->id, sizeof x->id);
	/* the client's files are in place before the device opens */
	if (aieth__srv_artifacts_open(s, x, x->xrt_ini, x->xrt_ini_len)) {
		aieth__srv_xclbin_unpin_locked(s, x);
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap, "%s", aieth_error_message());
		aieth__srv_free_sess(x);
		return SRV_Q_INTERNAL;
	}
	free(x->xrt_ini);
	x->xrt_ini = NULL;
	x->seq = s->queue.next_seq;
	x->srv = s;
	x->created_ms = x->last_ms = srv_now_ms();
	x->state = SS_QUEUED;
	*pp = x;
	s->stats.sessions_total++;
	aieth__srv_promote_locked(s);
	/* the device free: answer once it is open (the opener works without
	 * mu; bounded, a slow board leaves the session queued at position 1
	 * and its client polls) */
	aieth__srv_wait_open_locked(s, x, SRV_OPEN_WAIT_S * 1000);
	if (x->state == SS_FAILED) {
		snprintf(msg, cap, "%s", x->reason);
		pthread_mutex_unlock(&s->mu);
		return SRV_Q_FAILED;
	}
	pthread_mutex_unlock(&s->mu);
	return SRV_Q_OK;
}

void aieth__srv_queue_ref(aieth__server *s, srv_sess *x)
{
	pthread_mutex_lock(&s->mu);
	x->refs++;
	pthread_mutex_unlock(&s->mu);
}

void aieth__srv_release(aieth__server *s, srv_sess *x)
{
	pthread_mutex_lock(&s->mu);
	x->refs--;
	x->last_ms = srv_now_ms();
	if (x->state != SS_ACTIVE) {
		aieth__srv_close_dev_locked(s, x);
		aieth__srv_unpin_done_locked(s, x);
		aieth__srv_promote_locked(s);
	}
	pthread_mutex_unlock(&s->mu);
}

void aieth__srv_queue_end(aieth__server *s, srv_sess *x, ss_state st, const char *reason)
{
	pthread_mutex_lock(&s->mu);
	aieth__srv_end_locked(s, x, st, reason);
	pthread_mutex_unlock(&s->mu);
}

int aieth__srv_end_close(aieth__server *s, srv_sess *x, const char *reason)
{
	int ended = 0;
	pthread_mutex_lock(&s->mu);
	/* only the caller's reference: no device call or transfer runs */
	if (x->state == SS_ACTIVE && x->dev && x->refs == 1) {
		/* the one close path, as for any end: the caller's reference set
		 * aside (mu is held throughout) so that the device goes now */
		x->refs--;
		aieth__srv_end_locked(s, x, SS_ENDED, reason);
		x->refs++;
		aieth__srv_wait_closed_locked(s, x, SRV_CLOSE_WAIT_MS);
		ended = 1;
	}
	pthread_mutex_unlock(&s->mu);
	return ended;
}

/* ---- a session as a request sees it ---- */

srv_l_result aieth__srv_queue_active(aieth__server *s, const char *id, const char *who,
				     srv_sess **x, srv_sess_view *v)
{
	srv_l_result res;
	pthread_mutex_lock(&s->mu);
	res = look_locked(s, id, who, x);
	if (res == SRV_L_OK && (*x)->state != SS_ACTIVE) {
		view_locked(s, *x, v);
		res = SRV_L_INACTIVE;
	} else if (res == SRV_L_OK) {
		(*x)->refs++;
	}
	pthread_mutex_unlock(&s->mu);
	if (res != SRV_L_OK)
		*x = NULL;
	return res;
}

srv_l_result aieth__srv_queue_session(aieth__server *s, const char *id, const char *who, int end,
				      struct json_object **o)
{
	srv_l_result res;
	srv_sess *x;
	*o = NULL;
	pthread_mutex_lock(&s->mu);
	res = look_locked(s, id, who, &x);
	if (res == SRV_L_OK && end) {
		if (x->state == SS_QUEUED || x->state == SS_ACTIVE)
			aieth__srv_log(s, "session %s (%s): ended by its client", x->id, x->owner);
		aieth__srv_end_locked(s, x, SS_ENDED, NULL);
	} else if (res == SRV_L_OK) {
		*o = session_json_locked(s, x);
	}
	pthread_mutex_unlock(&s->mu);
	return res;
}

struct json_object *aieth__srv_queue_describe(aieth__server *s, srv_sess *x, char *id, size_t cap,
					      char **xclbin)
{
	struct json_object *o;
	pthread_mutex_lock(&s->mu);
	snprintf(id, cap, "%s", x->id);
	o = session_json_locked(s, x);
	*xclbin = x->xclbin ? aieth__strdup(x->xclbin) : NULL;
	pthread_mutex_unlock(&s->mu);
	return o;
}

srv_l_result aieth__srv_queue_artifacts(aieth__server *s, const char *id, const char *who, int *dfd)
{
	srv_l_result res;
	srv_sess *x;
	*dfd = -1;
	pthread_mutex_lock(&s->mu);
	res = look_locked(s, id, who, &x);
	if (res == SRV_L_OK) {
		/* an ended session's files are final once its device has closed
		 * (XRT writes its trace and status files then) */
		aieth__srv_wait_closed_locked(s, x, SRV_CLOSE_WAIT_MS);
		/* a running session's summary as it stands now */
		if (x->state == SS_ACTIVE && !x->refs)
			aieth__srv_artifacts_summary(s, x);
		/* opened under the lock: the folder goes only when the session is
		 * forgotten (aieth__srv_free_sess, under the same lock) */
		if (x->artdir)
			*dfd = open(x->artdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	pthread_mutex_unlock(&s->mu);
	return res;
}

ss_state aieth__srv_queue_state(aieth__server *s, srv_sess *x, int touch, srv_sess_view *v)
{
	pthread_mutex_lock(&s->mu);
	if (touch && x->state == SS_QUEUED)
		x->last_ms = srv_now_ms(); /* alive and waiting */
	view_locked(s, x, v);
	pthread_mutex_unlock(&s->mu);
	return v->state;
}

int aieth__srv_queue_summary(aieth__server *s, srv_sess *x)
{
	int rc;
	pthread_mutex_lock(&s->mu);
	rc = aieth__srv_artifacts_summary(s, x);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* ---- housekeeping ---- */

void aieth__srv_tick(aieth__server *s)
{
	srv_sess *p;
	int64_t t = srv_now_ms();
	char why[256];
	unsigned waiting = 0;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	for (p = s->queue.sessions; p; p = p->next)
		waiting += p->state == SS_QUEUED && !p->opening;
	for (p = s->queue.sessions; p; p = p->next) {
		if (p->opening)
			continue; /* it gets the device now; judged once open */
		if (p->state == SS_QUEUED && t - p->created_ms > s->limits.max_wait_ms) {
			snprintf(why, sizeof why,
				 "waited %lld s in the queue, the limit is "
				 "--max-wait %u s",
				 (long long)((t - p->created_ms) / 1000), s->limits.max_wait_s);
			aieth__srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			aieth__srv_end_locked(s, p, SS_EXPIRED, why);
		} else if ((p->state == SS_QUEUED || p->state == SS_ACTIVE) && !p->refs &&
			   t - p->last_ms > s->limits.idle_ms) {
			snprintf(why, sizeof why,
				 "no request for %lld s, the limit is "
				 "--idle-timeout %u s",
				 (long long)((t - p->last_ms) / 1000), s->limits.idle_s);
			aieth__srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			aieth__srv_end_locked(s, p, SS_EXPIRED, why);
		} else if (p->state == SS_ACTIVE && waiting && s->limits.max_session_ms &&
			   t - p->active_ms > s->limits.max_session_ms) {
			/* others wait: the holder's running call is interrupted and
			 * the device goes to the next session */
			snprintf(why, sizeof why,
				 "held the device for %lld s while %u session%s "
				 "waited, the limit is --max-session %u s",
				 (long long)((t - p->active_ms) / 1000), waiting,
				 waiting == 1 ? "" : "s", s->limits.max_session_s);
			aieth__srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			p->intr = 1;
			aieth__srv_end_locked(s, p, SS_EXPIRED, why);
		}
	}
	prune_locked(s);
	aieth__srv_promote_locked(s);
	pthread_mutex_unlock(&s->mu);
	/* images kept for reuse go back to the system when unused a while */
	aieth__srv_images_trim(&s->images, t, SRV_IMAGE_IDLE_MS);
}
