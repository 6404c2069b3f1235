/* SPDX-License-Identifier: MIT */
/*
 * server.c - th_server's engine as th_server.h offers it: the
 * options checked, the device queue set up (srv_core.c), the listeners
 * started (HTTP: http_server.c; AMD's protocol: amd_listen.c), and the drain that stops them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <errno.h>
#include <unistd.h>
#include <time.h>

#include "th_server/srv_core.h"
#include "th_server/srv_queue.h"
#include "th_server/srv_names.h"
#include "th_server/srv_sensors.h"
#include "th_server/srv_tls.h"
#include "util/fileio.h"
#include "util/opts.h"
#include "util/path.h"

static void free_server(aieth__server *s)
{
	srv_sess *p, *n;
	for (p = s->queue.sessions; p; p = n) {
		n = p->next;
		if (p->dev)
			aieth_session_close(p->dev);
		aieth__srv_free_sess(p);
	}
	aieth__srv_images_fini(&s->images);
	if (s->queue.closing)
		aieth_session_close(s->queue.closing); /* the opener never got to it */
	aieth__srv_xclbin_fini(s);
	aieth__srv_tokens_free(&s->tokens);
	free(s->token_file);
	pthread_mutex_destroy(&s->tokmu);
	free(s->tls_cert);
	if (s->tls_key) {
		volatile char *k = s->tls_key;
		while (*k)
			*k++ = 0;
		free(s->tls_key);
	}
	if (s->work_dir && s->own_work_dir)
		rmdir(s->work_dir); /* the sessions' folders went with them */
	free(s->work_dir);
	free(s->reset.cmd);
	aieth__srv_model_dirs_free(s);
	free(s->backend);
	free(s->board);
	free(s->data_dir);
	aieth__srv_sensors_free(s->sensors);
	pthread_mutex_destroy(&s->mu);
	pthread_mutex_destroy(&s->logmu);
	pthread_mutex_destroy(&s->cache.xidx_mu);
	free(s);
}

/* The folder the sessions' artifact folders go in: the caller's (it must
 * be a folder), or a private one made now and removed at close. */
static int work_dir_open(aieth__server *s, const char *dir)
{
	struct stat st;
	if (dir) {
		if (stat(dir, &st))
			return aieth__fail(AIETH_EINVAL, "work folder %s: %s", dir,
					   strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return aieth__fail(AIETH_EINVAL, "work folder %s: not a folder", dir);
		s->work_dir = aieth__strdup(dir);
	} else {
		const char *tmp = getenv("TMPDIR");
		char *t = aieth__path_join(tmp && *tmp ? tmp : "/tmp", "th_server.XXXXXX");
		if (t && !mkdtemp(t)) {
			int e = errno;
			int rc = aieth__fail(AIETH_EIO, "%s: cannot create the work folder (%s)", t,
					     strerror(e));
			free(t);
			return rc;
		}
		s->work_dir = t;
		s->own_work_dir = 1;
	}
	return s->work_dir ? AIETH_OK : aieth__fail(AIETH_ENOMEM, "server: out of memory");
}

AIETH__OPTS_INIT_FN(aieth__server_opts, AIETH_SERVER_OPTS_INIT, AIETH_SERVER_OPTS_VERSION);

/* th_server serves a device on its own machine: the backends of the table
 * that are local (a remote one would make it a proxy). */
static int served_backend(const char *name)
{
	char list[128];
	const char *b;
	size_t i, n = 0;
	int local = aieth_backend_local(name);
	if (local == 1)
		return AIETH_OK;
	if (local < 0)
		return local;
	list[0] = '\0';
	for (i = 0; (b = aieth_backend_name(i)) && n < sizeof list; i++)
		if (aieth_backend_local(b) == 1)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " or " : "",
					      b);
	return aieth__fail(AIETH_EINVAL,
			   "backend \"%s\": th_server serves a device on its own "
			   "machine (%s)",
			   name, list);
}

int aieth__server_open(aieth__server **out, const aieth__server_opts *o)
{
	aieth__server *s;
	struct sockaddr_storage addr, amd_addr;
	size_t alen = 0, amd_alen = 0;
	int loopback = 0, rc;

	aieth__error_clear();
	if (!out || !o)
		return aieth__fail(AIETH_EINVAL, "aieth_server_open: NULL argument");
	*out = NULL;
	/* the versions of aieth__server_opts read here (a new one: raise it) */
	if ((rc = aieth__opts_version("aieth_server_opts", "aieth_server_opts", o->version,
				      AIETH_SERVER_OPTS_VERSION)))
		return rc;
	if (!o->listen && !o->amd_listen)
		return aieth__fail(AIETH_EINVAL, "server: a listen address is needed (HTTP listen, "
						 "AMD's protocol amd_listen, or both)");
	if (o->amd_listen && (rc = aieth__srv_listen_parse(o->amd_listen, &amd_addr,
							   sizeof amd_addr, &amd_alen, &loopback)))
		return rc;
	loopback = 1;
	if (o->listen &&
	    (rc = aieth__srv_listen_parse(o->listen, &addr, sizeof addr, &alen, &loopback)))
		return rc;
	if ((rc = served_backend(o->backend)))
		return rc;
	if (!o->tls_cert != !o->tls_key)
		return aieth__fail(AIETH_EINVAL,
				   "TLS: a certificate and its key are needed together "
				   "(got only the %s)",
				   o->tls_cert ? "certificate" : "key");
	if (!o->token_file && !loopback && !o->insecure)
		return aieth__fail(AIETH_EINVAL,
				   "listen address %s is not a loopback address and no "
				   "token file is given: anyone who reaches it could use the board "
				   "(give --token-file, or --insecure to allow it)",
				   o->listen);
	s = calloc(1, sizeof *s);
	if (!s)
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	pthread_mutex_init(&s->mu, NULL);
	pthread_mutex_init(&s->logmu, NULL);
	pthread_mutex_init(&s->tokmu, NULL);
	pthread_mutex_init(&s->cache.xidx_mu, NULL);
	s->log = o->log;
	s->log_ctx = o->log_ctx;
	s->log_json = o->log_json;
	s->limits.idle_s = o->idle_timeout_s ? o->idle_timeout_s : 60;
	s->limits.max_queue = o->max_queue ? o->max_queue : 16;
	s->limits.max_wait_s = o->max_wait_s ? o->max_wait_s : 600;
	s->limits.idle_ms = (int64_t)s->limits.idle_s * 1000;
	s->limits.mem_max = (uint64_t)(o->max_memory_mib ? o->max_memory_mib : 4096) << 20;
	aieth__srv_images_init(&s->images, s->limits.mem_max);
	s->limits.max_wait_ms = (int64_t)s->limits.max_wait_s * 1000;
	s->limits.rate_limit = o->rate_limit ? o->rate_limit : 200;
	s->limits.client_timeout_s = o->client_timeout_s ? o->client_timeout_s : 30;
	s->reset.timeout_s = o->reset_timeout_s ? o->reset_timeout_s : 120;
	s->limits.conn_max = o->max_conn ? o->max_conn : 64;
	/* a quarter kept for authenticated connections (at least one) */
	s->limits.conn_reserve = s->limits.conn_max / 4 ? s->limits.conn_max / 4 : 1;
	s->limits.conn_per_addr = o->max_conn_per_addr ? o->max_conn_per_addr : 8;
	s->limits.head_timeout_s = o->head_timeout_s ? o->head_timeout_s : 10;
	s->limits.max_session_s = o->max_session_s ? o->max_session_s : 3600;
	s->limits.max_session_ms = s->limits.max_session_s == AIETH_SERVER_NO_LIMIT
					   ? 0
					   : (int64_t)s->limits.max_session_s * 1000;
	if (s->limits.conn_max < 2 || s->limits.conn_max > 1024 ||
	    s->limits.conn_per_addr > s->limits.conn_max) {
		unsigned m = s->limits.conn_max, pa = s->limits.conn_per_addr;
		free_server(s);
		if (m < 2 || m > 1024)
			return aieth__fail(AIETH_EINVAL,
					   "max_conn %u: HTTP connections in all must be 2..1024",
					   m);
		return aieth__fail(AIETH_EINVAL,
				   "max_conn_per_addr %u: more than max_conn %u, the "
				   "connections in all",
				   pa, m);
	}
	if (o->reset_cmd && !*o->reset_cmd) {
		free_server(s);
		return aieth__fail(AIETH_EINVAL, "reset command: empty");
	}
	s->reset.cmd = o->reset_cmd ? aieth__strdup(o->reset_cmd) : NULL;
	s->backend = aieth__strdup(o->backend ? o->backend : "emu");
	s->board = o->board ? aieth__strdup(o->board) : NULL;
	s->data_dir = o->data_dir ? aieth__strdup(o->data_dir) : NULL;
	s->sensors = s->backend ? aieth__srv_sensors_new(s->backend) : NULL;
	if (!s->backend || !s->sensors || (o->reset_cmd && !s->reset.cmd) ||
	    (o->board && !s->board) || (o->data_dir && !s->data_dir)) {
		free_server(s);
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	}
	if ((rc = aieth__srv_model_dirs_set(s, o->model_dirs, o->num_model_dirs)) ||
	    (rc = work_dir_open(s, o->work_dir))) {
		free_server(s);
		return rc;
	}
	s->cache.xclbin_max = (uint64_t)(o->max_xclbin_mib ? o->max_xclbin_mib : SRV_XCLBIN_MAX_MIB)
			      << 20;
	s->cache.max = (uint64_t)(o->xclbin_cache_mib ? o->xclbin_cache_mib : SRV_XCLBIN_CACHE_MIB)
		       << 20;
	if ((rc = aieth__srv_xclbin_init(s, o->cache_dir))) {
		free_server(s);
		return rc;
	}
	if (getrandom(&s->queue.id_key, sizeof s->queue.id_key, GRND_NONBLOCK) !=
	    (ssize_t)sizeof s->queue.id_key)
		s->queue.id_key = (uint64_t)time(NULL) * 0x2545f4914f6cdd1dull;
	if (o->token_file) {
		rc = aieth__srv_tokens_load(&s->tokens, o->token_file);
		if (rc) {
			free_server(s);
			return rc;
		}
		s->have_tokens = 1;
		if (!(s->token_file = aieth__strdup(o->token_file))) {
			free_server(s);
			return aieth__fail(AIETH_ENOMEM, "server: out of memory");
		}
	}
	if (s->board) {
		aieth_board *b = NULL;
		rc = aieth_board_load(&b, s->board, s->data_dir);
		aieth_board_free(b);
		if (rc) {
			free_server(s);
			return rc;
		}
	}
	if (o->tls_cert) {
		size_t cn, kn;
		/* unreadable or a wrong pair: the operator's input (exit 2) */
		if ((rc = aieth__read_file(o->tls_cert, (size_t)1 << 20, &s->tls_cert, &cn)) ||
		    (rc = aieth__read_file(o->tls_key, (size_t)1 << 20, &s->tls_key, &kn))) {
			free_server(s);
			return rc == AIETH_ENOMEM ? rc : aieth__fail_prefix(AIETH_EINVAL, "TLS");
		}
		if ((rc = aieth__srv_tls_check(o->tls_cert, s->tls_cert, cn, o->tls_key, s->tls_key,
					       kn))) {
			free_server(s);
			return rc;
		}
	}
	if (o->listen && (rc = aieth__srv_http_start(s, o, &addr))) {
		free_server(s);
		return rc;
	}
	if (o->amd_listen && (rc = aieth__srv_amd_start(s, o, &amd_addr, amd_alen))) {
		aieth__srv_http_stop(s);
		free_server(s);
		return rc;
	}
	*out = s;
	return AIETH_OK;
}

int aieth__server_reload_tokens(aieth__server *s, size_t *count)
{
	srv_tokens fresh, old;
	int rc;

	aieth__error_clear();
	if (count)
		*count = 0;
	if (!s)
		return aieth__fail(AIETH_EINVAL, "aieth_server_reload_tokens: NULL argument");
	if (!s->token_file)
		return aieth__fail(AIETH_EINVAL, "no token file was given at start: nothing to "
						 "reload");
	/* read and checked in full first: a bad file leaves the old tokens */
	if ((rc = aieth__srv_tokens_load(&fresh, s->token_file)))
		return rc;
	pthread_mutex_lock(&s->tokmu);
	old = s->tokens;
	s->tokens = fresh;
	pthread_mutex_unlock(&s->tokmu);
	if (count)
		*count = fresh.n;
	aieth__srv_tokens_free(&old);
	return AIETH_OK;
}

void aieth__server_tick(aieth__server *s)
{
	if (!s)
		return;
	aieth__srv_http_tick(s); /* request heads past --head-timeout */
	aieth__srv_tick(s);
}

uint16_t aieth__server_port(const aieth__server *s) { return s ? s->port : 0; }

uint16_t aieth__server_amd_port(const aieth__server *s) { return s ? s->amd_port : 0; }

void aieth__server_close(aieth__server *s)
{
	srv_sess *p;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->draining = 1;
	s->stop = 1;
	for (p = s->queue.sessions; p; p = p->next)
		p->intr = 1; /* a device call running ends */
	pthread_mutex_unlock(&s->mu);
	/* running requests finish (a device wait sees the interrupt flag);
	 * the listeners' threads are joined */
	aieth__srv_http_stop(s);
	aieth__srv_amd_stop(s);
	pthread_mutex_lock(&s->mu);
	for (p = s->queue.sessions; p; p = p->next)
		aieth__srv_end_locked(s, p, SS_ENDED, "the server stopped");
	pthread_mutex_unlock(&s->mu);
	/* an open still running ends (its device closed), a reset due runs */
	aieth__srv_opener_stop(s);
	free_server(s);
}
