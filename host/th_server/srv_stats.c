/* SPDX-License-Identifier: MIT */
/*
 * srv_stats.c - th_server's counters and shared limits (srv_stats.h):
 * moved and read under srv->mu, taken here, so that a listener never
 * holds the server's lock itself.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "th_server/srv_stats.h"

/* ---- requests (HTTP) ---- */

void aieth__srv_stats_request_begin(aieth__server *s)
{
	pthread_mutex_lock(&s->mu);
	s->stats.inflight++;
	pthread_mutex_unlock(&s->mu);
}

int aieth__srv_stats_request_head(aieth__server *s)
{
	int draining;
	pthread_mutex_lock(&s->mu);
	draining = s->draining;
	s->stats.last_req_ms = srv_now_ms();
	pthread_mutex_unlock(&s->mu);
	return draining;
}

void aieth__srv_stats_request_end(aieth__server *s, uint64_t in, uint64_t out, unsigned code)
{
	pthread_mutex_lock(&s->mu);
	s->stats.inflight--;
	s->stats.bytes_in += in;
	s->stats.bytes_out += out;
	if (code < SRV_NCODES)
		s->stats.requests[code]++;
	else
		s->stats.requests_other++;
	pthread_mutex_unlock(&s->mu);
}

int aieth__srv_stats_rate(aieth__server *s, const char *key)
{
	int64_t sec = srv_now_ms() / 1000;
	size_t i, victim = 0;
	int over = 0;
	pthread_mutex_lock(&s->mu);
	for (i = 0; i < sizeof s->rate / sizeof s->rate[0]; i++) {
		if (!strcmp(s->rate[i].key, key))
			break;
		if (s->rate[i].sec < s->rate[victim].sec)
			victim = i;
	}
	if (i == sizeof s->rate / sizeof s->rate[0]) {
		i = victim;
		snprintf(s->rate[i].key, sizeof s->rate[i].key, "%s", key);
		s->rate[i].sec = sec;
		s->rate[i].n = 0;
	}
	if (s->rate[i].sec != sec) {
		s->rate[i].sec = sec;
		s->rate[i].n = 0;
	}
	if (s->rate[i].n >= s->limits.rate_limit)
		over = 1;
	else
		s->rate[i].n++;
	pthread_mutex_unlock(&s->mu);
	return over;
}

int aieth__srv_stats_body_reserve(aieth__server *s, uint64_t n)
{
	int ok;
	pthread_mutex_lock(&s->mu);
	ok = n <= s->limits.mem_max - s->stats.mem_used;
	if (ok) {
		s->stats.mem_used += n;
		s->stats.body_used += n;
	}
	pthread_mutex_unlock(&s->mu);
	return ok ? 0 : -1;
}

void aieth__srv_stats_body_release(aieth__server *s, uint64_t n)
{
	pthread_mutex_lock(&s->mu);
	s->stats.mem_used -= n;
	s->stats.body_used -= n;
	pthread_mutex_unlock(&s->mu);
}

uint64_t aieth__srv_stats_mem_used(aieth__server *s)
{
	uint64_t used;
	pthread_mutex_lock(&s->mu);
	used = s->stats.mem_used;
	pthread_mutex_unlock(&s->mu);
	return used;
}

int aieth__srv_stats_stopping(aieth__server *s)
{
	int stop;
	pthread_mutex_lock(&s->mu);
	stop = s->stop;
	pthread_mutex_unlock(&s->mu);
	return stop;
}

int aieth__srv_stats_draining(aieth__server *s)
{
	int draining;
	pthread_mutex_lock(&s->mu);
	draining = s->draining;
	pthread_mutex_unlock(&s->mu);
	return draining;
}

void aieth__srv_stats_drain(aieth__server *s, unsigned *inflight, unsigned *open, int64_t *last_ms)
{
	const srv_sess *x;
	unsigned n = 0;
	pthread_mutex_lock(&s->mu);
	for (x = s->queue.sessions; x; x = x->next)
		n += x->http && x->state == SS_ACTIVE; /* a queued one has nothing to collect */
	*inflight = s->stats.inflight;
	*open = n;
	*last_ms = s->stats.last_req_ms;
	pthread_mutex_unlock(&s->mu);
}

/* ---- snapshots ---- */

void aieth__srv_stats_health(aieth__server *s, srv_health *h)
{
	pthread_mutex_lock(&s->mu);
	h->draining = s->draining;
	h->validate_have = s->stats.validate_have;
	h->validate_exit = s->stats.validate_exit;
	h->validate_level = s->stats.validate_level;
	memcpy(h->validate_at, s->stats.validate_at, sizeof h->validate_at);
	h->validate_passed = s->stats.validate_passed;
	h->validate_failed = s->stats.validate_failed;
	h->validate_skipped = s->stats.validate_skipped;
	h->validate_warned = s->stats.validate_warned;
	pthread_mutex_unlock(&s->mu);
}

void aieth__srv_stats_metrics(aieth__server *s, srv_metrics *m)
{
	const srv_sess *p;
	memset(m, 0, sizeof *m);
	pthread_mutex_lock(&s->mu);
	/* a session whose device is being opened (the opener thread) holds
	 * it already: it no longer waits (as its queue position says); a
	 * device still being closed is held by the session that let it go
	 * (0 here means the device is free) */
	for (p = s->queue.sessions; p; p = p->next) {
		m->active += p->state == SS_ACTIVE || (p->state == SS_QUEUED && p->opening);
		m->queued += p->state == SS_QUEUED && !p->opening;
	}
	m->active += s->queue.closing != NULL;
	m->sessions_total = s->stats.sessions_total;
	m->validate_total = s->stats.validate_total;
	m->validate_have = s->stats.validate_have;
	m->validate_exit = s->stats.validate_exit;
	m->resets = s->stats.resets;
	m->reset_failures = s->reset.failures;
	m->bytes_in = s->stats.bytes_in;
	m->bytes_out = s->stats.bytes_out;
	m->mem_used = s->stats.mem_used;
	m->body_used = s->stats.body_used;
	m->xclbin_uploads = s->cache.uploads;
	m->xclbin_evictions = s->cache.evictions;
	m->cache_used = s->cache.used;
	m->cache_reserved = s->cache.reserved;
	memcpy(m->requests, s->stats.requests, sizeof m->requests);
	m->requests_other = s->stats.requests_other;
	memcpy(m->txn_status, s->stats.txn_status, sizeof m->txn_status);
	m->txn_failed = s->stats.txn_failed;
	pthread_mutex_unlock(&s->mu);
}

void aieth__srv_stats_validate(aieth__server *s, int code, unsigned level, unsigned passed,
			       unsigned failed, unsigned skipped, unsigned warned)
{
	struct tm tm;
	time_t now = time(NULL);
	pthread_mutex_lock(&s->mu);
	s->stats.validate_have = 1;
	s->stats.validate_exit = code;
	s->stats.validate_level = level;
	s->stats.validate_passed = passed;
	s->stats.validate_failed = failed;
	s->stats.validate_skipped = skipped;
	s->stats.validate_warned = warned;
	s->stats.validate_total++;
	gmtime_r(&now, &tm);
	strftime(s->stats.validate_at, sizeof s->stats.validate_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
	pthread_mutex_unlock(&s->mu);
}
