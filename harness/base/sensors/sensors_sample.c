/* SPDX-License-Identifier: MIT */
/*
 * sensors_sample.c - the sampler: a thread reads every sensor once a
 * period while a test runs, keeping per sensor the running min/max/mean
 * and a ring of the last SENS_RING samples (memory stays bounded however
 * long the test). Each read waits at most SENS_READ_MS, so a slow file
 * delays one sample, never the test; a sensor failing SENS_FAIL_MAX times
 * in a row is dropped with a note.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aieth/error.h"
#include "sensors/sensors.h"
#include "util/error.h"

struct sens_sampler {
	sens_set *set;
	sens_series *series; /* set->n */
	double *v;           /* set->read_all's values and flags (set->n) */
	int *ok;
	uint32_t period_ms;
	double t0;             /* wall seconds at the start (the report's time) */
	struct timespec start; /* CLOCK_MONOTONIC at the start: the series' t */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, running, stopped;
	pthread_t thread;
};

static double ms_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

/* One sensor's reading now: its file, or the set's read_all of this
 * sample (all_rc its result, all_why its reason). */
static int read_one(sens_sampler *s, size_t i, int all_rc, const char *all_why, double *v,
		    char *why, size_t cap)
{
	if (!s->set->read_all)
		return aieth__sens_read(&s->set->def[i], v, why, cap);
	if (all_rc || !s->ok[i]) {
		snprintf(why, cap, "%s", all_rc ? all_why : "no reading in the reply");
		return all_rc ? all_rc : AIETH_EIO;
	}
	*v = s->v[i];
	return 0;
}

void aieth__sens_sample_once(sens_sampler *s)
{
	size_t i;
	double t = ms_since(&s->start);
	uint32_t t_ms = t < 0 ? 0 : t > 4e9 ? 4000000000u : (uint32_t)t;
	char all_why[200] = "";
	int all_rc = 0;
	if (s->set->read_all && s->set->n) {
		memset(s->ok, 0, s->set->n * sizeof *s->ok);
		all_rc = s->set->read_all(s->set->read_ctx, s->set, s->v, s->ok, all_why,
					  sizeof all_why);
	}
	for (i = 0; i < s->set->n; i++) {
		sens_series *z = &s->series[i];
		const sens_def *d = &s->set->def[i];
		char why[200];
		double v;
		if (z->dropped)
			continue;
		if (read_one(s, i, all_rc, all_why, &v, why, sizeof why)) {
			if (++z->fails >= SENS_FAIL_MAX) {
				z->dropped = 1;
				aieth__sens_note(s->set,
						 "%s: %s (%u times in a row): no longer sampled",
						 d->path[0] && !s->set->plain ? d->path : d->name,
						 why, z->fails);
			}
			continue;
		}
		z->fails = 0;
		if (!z->count || v < z->min)
			z->min = v;
		if (!z->count || v > z->max)
			z->max = v;
		z->sum += v;
		z->count++;
		z->t_ms[z->head] = t_ms;
		z->v[z->head] = v;
		z->head = (z->head + 1) % SENS_RING;
		if (z->len < SENS_RING)
			z->len++;
	}
}

static void *loop(void *arg)
{
	sens_sampler *s = arg;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		int rc = 0;
		next.tv_sec += s->period_ms / 1000;
		next.tv_nsec += (long)(s->period_ms % 1000) * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while (!s->stop && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&s->cv, &s->mu, &next);
		if (s->stop)
			break;
		/* reads under the lock: stop waits for at most one sample */
		aieth__sens_sample_once(s);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int aieth__sens_sampler_start(sens_sampler **out, sens_set *set, uint32_t period_ms)
{
	sens_sampler *s = calloc(1, sizeof *s);
	pthread_condattr_t ca;
	*out = NULL;
	if (!s || !(s->series = calloc(set->n ? set->n : 1, sizeof *s->series)) ||
	    !(s->v = calloc(set->n ? set->n : 1, sizeof *s->v)) ||
	    !(s->ok = calloc(set->n ? set->n : 1, sizeof *s->ok))) {
		if (s) {
			free(s->series);
			free(s->v);
		}
		free(s);
		return aieth__fail(AIETH_ENOMEM, "sensors: out of memory");
	}
	s->set = set;
	s->period_ms = period_ms;
	{
		struct timespec w;
		clock_gettime(CLOCK_REALTIME, &w);
		s->t0 = (double)w.tv_sec + (double)w.tv_nsec / 1e9;
	}
	clock_gettime(CLOCK_MONOTONIC, &s->start);
	pthread_mutex_init(&s->mu, NULL);
	/* the period's deadlines are on the monotonic clock: a change of the
	 * wall clock does not stretch or squeeze it */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	aieth__sens_sample_once(s);
	*out = s;
	if (!set->n)
		return 0; /* nothing to sample: no thread */
	/* the thread blocks every signal: a Ctrl-C or a TERM goes to the
	 * run's own threads, whose waits it interrupts (the runner's interrupt
	 * path), never to the sampler */
	{
		sigset_t all, old;
		int rc;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = pthread_create(&s->thread, NULL, loop, s);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc) {
			aieth__sens_note(
				set,
				"sensors: no sampling thread: the first and last samples only");
			return 0;
		}
	}
	s->running = 1;
	return 0;
}

void aieth__sens_sampler_stop(sens_sampler *s)
{
	if (!s || s->stopped)
		return;
	s->stopped = 1;
	if (s->running) {
		pthread_mutex_lock(&s->mu);
		s->stop = 1;
		pthread_cond_signal(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->thread, NULL);
		s->running = 0;
	}
	if (s->set->n)
		aieth__sens_sample_once(s); /* the test's last state */
}

const sens_set *aieth__sens_sampler_set(const sens_sampler *s) { return s->set; }
const sens_series *aieth__sens_sampler_series(const sens_sampler *s, size_t i)
{
	return &s->series[i];
}
uint32_t aieth__sens_sampler_period(const sens_sampler *s) { return s->period_ms; }
double aieth__sens_sampler_t0(const sens_sampler *s) { return s->t0; }

void aieth__sens_sampler_free(sens_sampler *s)
{
	if (!s)
		return;
	aieth__sens_sampler_stop(s);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s->series);
	free(s->v);
	free(s->ok);
	free(s);
}
