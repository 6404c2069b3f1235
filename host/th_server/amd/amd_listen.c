/* SPDX-License-Identifier: MIT */
/*
 * amd_listen.c - th_server's second listener: AMD's TCP protocol
 * (docs/server.md "AMD's clients", docs/amd-protocol.md). The accept
 * loop runs in its own thread and polls so that a stop is noticed; each
 * connection gets a thread (amd_conn.c), at most AMD_CONNS_MAX at once.
 * The protocol has no authentication: an address that is not loopback
 * needs the insecure option.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "th_server/amd/amd_conn.h"
#include "th_server/srv_core.h"
#include "th_server/srv_names.h"
#include "util/path.h"

typedef struct {
	pthread_t th;
	int used;          /* a thread was started in this slot */
	volatile int done; /* its connection ended: join it */
	int fd;
	char peer[64];
	struct amd_listener *L;
} amd_slot;

typedef struct amd_listener {
	amd_shared sh;
	int fd;
	pthread_t th;
	pthread_mutex_t mu; /* the slots */
	amd_slot slot[AMD_CONNS_MAX];
} amd_listener;

static void *conn_main(void *arg)
{
	amd_slot *sl = arg;
	aieth__amd_conn_serve(&sl->L->sh, sl->fd, sl->peer);
	pthread_mutex_lock(&sl->L->mu);
	/* done before the close: a client that saw its connection end finds
	 * the slot free (accept_main reaps before it looks) */
	sl->done = 1;
	close(sl->fd);
	pthread_mutex_unlock(&sl->L->mu);
	return NULL;
}

static void reap(amd_listener *L, int all)
{
	size_t i;
	for (i = 0; i < AMD_CONNS_MAX; i++) {
		amd_slot *sl = &L->slot[i];
		int over;
		/* done is written under mu by the connection's thread; the join
		 * waits outside it (that thread takes mu on its way out) */
		pthread_mutex_lock(&L->mu);
		over = sl->used && (all || sl->done);
		pthread_mutex_unlock(&L->mu);
		if (over) {
			pthread_join(sl->th, NULL);
			pthread_mutex_lock(&L->mu);
			sl->used = 0;
			sl->done = 0;
			pthread_mutex_unlock(&L->mu);
		}
	}
}

static void peer_name(const struct sockaddr_storage *a, char *out, size_t cap)
{
	char h[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *v4 = (const void *)a;
		inet_ntop(AF_INET, &v4->sin_addr, h, sizeof h);
		port = ntohs(v4->sin_port);
	} else if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *v6 = (const void *)a;
		inet_ntop(AF_INET6, &v6->sin6_addr, h, sizeof h);
		port = ntohs(v6->sin6_port);
	}
	snprintf(out, cap, "%s:%u", h, port);
}

static void *accept_main(void *arg)
{
	amd_listener *L = arg;
	while (!L->sh.stop) {
		struct pollfd p = {L->fd, POLLIN, 0};
		struct sockaddr_storage a;
		socklen_t alen = sizeof a;
		char peer[64];
		size_t i;
		int fd;

		reap(L, 0);
		if (poll(&p, 1, 200) <= 0)
			continue;
		fd = accept(L->fd, (struct sockaddr *)&a, &alen);
		if (fd < 0)
			continue;
		reap(L, 0); /* connections that ended during the poll */
		peer_name(&a, peer, sizeof peer);
		pthread_mutex_lock(&L->mu);
		for (i = 0; i < AMD_CONNS_MAX && L->slot[i].used; i++)
			;
		if (i < AMD_CONNS_MAX) {
			amd_slot *sl = &L->slot[i];
			sl->used = 1;
			sl->done = 0;
			sl->fd = fd;
			sl->L = L;
			snprintf(sl->peer, sizeof sl->peer, "%s", peer);
			if (pthread_create(&sl->th, NULL, conn_main, sl)) {
				sl->used = 0;
				i = AMD_CONNS_MAX;
			}
		}
		pthread_mutex_unlock(&L->mu);
		if (i == AMD_CONNS_MAX) {
			/* closing before the handshake: AMD's client reports a
			 * creation failure, nothing else is touched */
			aieth__srv_log(L->sh.s,
				       "amd %s: refused: %d connections are open, the limit", peer,
				       AMD_CONNS_MAX);
			close(fd);
		}
	}
	return NULL;
}

/* "NAME=MODEL[:JSON]" into m. */
/* NAME=MODEL[:JSON] or NAME=@PRESET (the operator's preset file,
 * aieth__srv_model_preset, read once here). */
static int model_parse(const char *text, const char *data_dir, amd_model *m)
{
	const char *eq = strchr(text, '='), *colon;
	size_t nl, ml;
	if (!eq || eq == text)
		return aieth__fail(AIETH_EINVAL,
				   "graph model \"%.80s\": NAME=MODEL[:JSON-params] "
				   "is needed",
				   text);
	colon = strchr(eq + 1, ':');
	nl = (size_t)(eq - text);
	ml = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
	if (nl > SRV_NAME_MAX || ml == 0 || ml > SRV_NAME_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "graph model \"%.80s\": the name and the model are "
				   "1..%d characters",
				   text, SRV_NAME_MAX);
	if (colon && strlen(colon + 1) > SRV_PARAMS_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "graph model \"%.40s...\": params of %zu bytes, the "
				   "limit is %d",
				   text, strlen(colon + 1), SRV_PARAMS_MAX);
	memcpy(m->name, text, nl);
	m->name[nl] = 0;
	if (eq[1] == '@') {
		if (colon)
			return aieth__fail(AIETH_EINVAL,
					   "graph model \"%.80s\": a preset (@NAME) "
					   "brings its params, give no :JSON",
					   text);
		return aieth__srv_model_preset(data_dir, eq + 2, m->model, sizeof m->model,
					       &m->params);
	}
	memcpy(m->model, eq + 1, ml);
	m->model[ml] = 0;
	m->params = colon ? aieth__strdup(colon + 1) : NULL;
	if (colon && !m->params)
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	return AIETH_OK;
}

static void listener_free(amd_listener *L)
{
	size_t i;
	for (i = 0; i < L->sh.nmodels; i++)
		free(L->sh.models[i].params);
	if (L->fd >= 0)
		close(L->fd);
	pthread_mutex_destroy(&L->mu);
	free(L);
}

int aieth__srv_amd_start(aieth__server *s, const aieth__server_opts *o, const void *addr,
			 size_t alen)
{
	struct sockaddr_storage a, bound;
	socklen_t blen = sizeof bound;
	amd_listener *L;
	size_t len, i;
	int loopback = 0, one = 1, rc;

	if ((rc = aieth__srv_listen_parse(o->amd_listen, &a, sizeof a, &len, &loopback)))
		return rc;
	if (!loopback && !o->insecure)
		return aieth__fail(
			AIETH_EINVAL,
			"AMD listen address %s is not a loopback address: "
			"AMD's protocol has no authentication, anyone who reaches it could "
			"use the board (give --insecure to allow it)",
			o->amd_listen);
	if (o->num_graph_models > AMD_MODELS_MAX)
		return aieth__fail(AIETH_EINVAL, "%zu graph models, the limit is %d",
				   o->num_graph_models, AMD_MODELS_MAX);
	if (!(L = calloc(1, sizeof *L)))
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	L->fd = -1;
	L->sh.s = s;
	L->sh.setup_s = o->amd_setup_timeout_s ? o->amd_setup_timeout_s : AMD_SETUP_S;
	pthread_mutex_init(&L->mu, NULL);
	for (i = 0; i < o->num_graph_models; i++) {
		size_t j;
		if ((rc = model_parse(o->graph_models[i], s->data_dir, &L->sh.models[i]))) {
			listener_free(L);
			return rc;
		}
		L->sh.nmodels = i + 1;
		for (j = 0; j < i; j++)
			if (!strcmp(L->sh.models[j].name, L->sh.models[i].name)) {
				rc = aieth__fail(AIETH_EINVAL, "graph model for \"%s\" given twice",
						 L->sh.models[i].name);
				listener_free(L);
				return rc;
			}
	}
	L->fd = socket(((const struct sockaddr *)addr)->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (L->fd < 0 || setsockopt(L->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(L->fd, addr, (socklen_t)alen) || listen(L->fd, AMD_CONNS_MAX) ||
	    getsockname(L->fd, (struct sockaddr *)&bound, &blen)) {
		int e = errno;
		listener_free(L);
		return aieth__fail(AIETH_EIO, "AMD listen address %s: %s", o->amd_listen,
				   strerror(e));
	}
	s->amd_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
							: ((struct sockaddr_in *)&bound)->sin_port);
	if (pthread_create(&L->th, NULL, accept_main, L)) {
		listener_free(L);
		return aieth__fail(AIETH_EIO, "AMD listener: cannot start its thread");
	}
	s->amd = L;
	return AIETH_OK;
}

void aieth__srv_amd_stop(aieth__server *s)
{
	amd_listener *L = s->amd;
	size_t i;
	if (!L)
		return;
	L->sh.stop = 1;
	pthread_join(L->th, NULL);
	/* wake connections blocked in a read or a send */
	pthread_mutex_lock(&L->mu);
	for (i = 0; i < AMD_CONNS_MAX; i++)
		if (L->slot[i].used && !L->slot[i].done)
			shutdown(L->slot[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&L->mu);
	reap(L, 1);
	listener_free(L);
	s->amd = NULL;
}
