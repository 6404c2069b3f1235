/* SPDX-License-Identifier: MIT */
/*
 * handles.c - the live sessions and transactions (an open-addressing set
 * of pointers under one mutex) and the per-session in-use flag. Checking
 * and entering happen under the mutex, and closing or freeing needs the
 * flag, so a handle cannot disappear between the check and the call.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/handles.h"
#include "core/session_internal.h"
#include "util/error.h"

typedef struct {
	const void *p; /* NULL: empty; TOMB: removed */
	int kind;
} slot;

static const char tomb_byte;
#define TOMB ((const void *)&tomb_byte)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static slot *tab;
static size_t cap, used; /* used counts live and removed slots */

static size_t hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

/* The slot holding p, or NULL (mu held). */
static slot *find(const void *p)
{
	size_t i, n;
	if (!cap || !p)
		return NULL;
	for (i = hash(p) & (cap - 1), n = 0; n < cap; i = (i + 1) & (cap - 1), n++) {
		if (tab[i].p == p)
			return &tab[i];
		if (!tab[i].p)
			return NULL;
	}
	return NULL;
}

static int grow(void)
{
	size_t ncap = cap ? cap * 2 : 64, i, j;
	slot *nt = calloc(ncap, sizeof *nt);
	if (!nt)
		return -1;
	used = 0;
	for (i = 0; i < cap; i++) {
		if (!tab[i].p || tab[i].p == TOMB)
			continue;
		for (j = hash(tab[i].p) & (ncap - 1); nt[j].p; j = (j + 1) & (ncap - 1))
			;
		nt[j] = tab[i];
		used++;
	}
	free(tab);
	tab = nt;
	cap = ncap;
	return 0;
}

int aieth__handle_add(const void *p, aieth_handle_kind kind)
{
	size_t i;
	pthread_mutex_lock(&mu);
	if ((used + 1) * 2 > cap && grow()) {
		pthread_mutex_unlock(&mu);
		return aieth__fail(AIETH_ENOMEM, "out of memory registering a handle");
	}
	for (i = hash(p) & (cap - 1); tab[i].p && tab[i].p != TOMB; i = (i + 1) & (cap - 1))
		;
	if (!tab[i].p)
		used++;
	tab[i].p = p;
	tab[i].kind = (int)kind;
	pthread_mutex_unlock(&mu);
	return AIETH_OK;
}

void aieth__handle_remove(const void *p)
{
	slot *s;
	pthread_mutex_lock(&mu);
	if ((s = find(p)))
		s->p = TOMB;
	pthread_mutex_unlock(&mu);
}

int aieth__handle_live(const void *p, aieth_handle_kind kind)
{
	slot *s;
	int live;
	pthread_mutex_lock(&mu);
	s = find(p);
	live = s && s->kind == (int)kind;
	pthread_mutex_unlock(&mu);
	return live;
}

/* Check h (a session, or a transaction and then its session) and set the
 * session's in-use flag, all under mu: a handle is removed under mu before
 * it is freed, so what is found here stays readable until mu is released. */
static int enter(const void *h, aieth_handle_kind kind, const char *fn, struct aieth_session **sp)
{
	const char *what = kind == AIETH_HANDLE_TXN ? "transaction" : "session";
	struct aieth_session *s;
	slot *e;
	int rc = AIETH_OK;
	pthread_mutex_lock(&mu);
	e = find(h);
	if (!h) {
		rc = aieth__fail(AIETH_EINVAL, "%s: NULL %s", fn, what);
	} else if (!e || e->kind != (int)kind) {
		rc = aieth__fail(AIETH_EINVAL, "%s: not a live %s (%s, or never one)", fn, what,
				 kind == AIETH_HANDLE_TXN ? "freed or its session closed"
							  : "closed");
	} else {
		s = kind == AIETH_HANDLE_TXN ? ((const struct aieth_txn *)h)->s
					     : (struct aieth_session *)(uintptr_t)h;
		if (atomic_exchange(&s->busy, 1))
			rc = aieth__fail(AIETH_ESTATE,
					 "%s: another thread is inside a call on this session (a "
					 "session and its transactions are used by one thread at a "
					 "time)",
					 fn);
		else
			*sp = s;
	}
	pthread_mutex_unlock(&mu);
	return rc;
}

int aieth__session_enter(struct aieth_session *s, const char *fn)
{
	struct aieth_session *got;
	return enter(s, AIETH_HANDLE_SESSION, fn, &got);
}

int aieth__txn_enter(const struct aieth_txn *t, const char *fn)
{
	struct aieth_session *got;
	return enter(t, AIETH_HANDLE_TXN, fn, &got);
}

void aieth__session_leave(struct aieth_session *s) { atomic_store(&s->busy, 0); }
