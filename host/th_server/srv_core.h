/* SPDX-License-Identifier: MIT */
/*
 * srv_core.h - th_server's device and its queue, shared by every
 * listener (HTTP: http_*.c; AMD's protocol: amd_*.c): sessions that hold
 * the one device exclusively, first come first served, idle and wait
 * limits, transactions with their images under one memory budget, the
 * counters /v1/metrics shows. Free of any wire format.
 *
 * Threads: srv->mu guards the sessions, the queue and the counters; a
 * device call runs outside it, under its session's call lock, with the
 * session referenced (refs) so that an end (client, expiry, drain) closes
 * the device only after the call. The listeners never take srv->mu: they
 * call the operations of srv_queue.h (sessions), srv_txn.h (transactions)
 * and srv_stats.h (counters and limits), which take it themselves.
 */
#ifndef AIETH_SERVER_SRV_CORE_H
#define AIETH_SERVER_SRV_CORE_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include <json-c/json.h>

#include "aieth.h"
#include "pld/protocol.h"
#include "th_server/srv_clock.h"
#include "th_server/th_server.h"
#include "th_server/srv_image.h"
#include "th_server/srv_route.h"
#include "th_server/srv_stream.h"
#include "th_server/srv_tokens.h"
#include "th_server/srv_txn.h"
#include "util/error.h"
#include "util/hash.h"
#include "wire/http_words.h"

#define SRV_ENDED_KEEP 64       /* ended sessions remembered for their status */
#define SRV_IMAGE_IDLE_MS 10000 /* an image mapping kept unused this long is unmapped */
#define SRV_NCODES 23           /* HTTP statuses counted (http_server.c) */

typedef enum { SS_QUEUED, SS_ACTIVE, SS_ENDED, SS_EXPIRED, SS_FAILED } ss_state;

extern const char *const aieth__srv_state_names[];

/* One design xclbin in the cache (srv_xclbin.c), the file cache_dir/SHA. */
typedef struct srv_xentry {
	char sha[65];
	uint64_t size;
	uint64_t used; /* the cache clock at its last use: LRU */
	unsigned pins; /* sessions that use it: never evicted */
	char **owners; /* the token names that uploaded it ("*": no
				         tokens): only they see it (HEAD, sessions) */
	unsigned nowners;
	struct srv_xentry *next;
} srv_xentry;

typedef struct srv_sess {
	char id[SRV_ID_MAX + 1];
	char owner[SRV_TOKEN_NAME_MAX + 1];
	ss_state state;
	char reason[512];
	int64_t created_ms, last_ms;
	uint64_t seq;
	srv_session_req req;
	char *xclbin;  /* the design xclbin's path, or NULL */
	char xsha[65]; /* its sha256 when from the cache, else "" */
	int xpinned;   /* holds a pin on that cache entry */
	char *xrt_ini; /* the client's xrt.ini until stored (owned) */
	size_t xrt_ini_len;
	char *artdir; /* its artifact folder (srv_artifacts.c), or NULL */
	aieth_session *dev;
	int refs; /* device calls and transfers running */
	pthread_mutex_t call;
	srv_txn *txns;                      /* in submission order */
	srv_txn *retired;                   /* results given back (AMD's protocol), images
				         freed: for run_summary.json, oldest first */
	uint32_t nretired, retired_omitted; /* kept; dropped past SRV_RETIRED_MAX */
	uint32_t next_tid;
	uint64_t mem;               /* image bytes its transactions hold */
	int opening;                /* queued, the device being opened for it
				         (outside srv->mu, by the opener thread) */
	struct aieth__server *srv;  /* for the progress hook */
	int http;                   /* opened through the HTTP API (its client
				         may collect results during a drain) */
	int64_t active_ms;          /* when it got the device (--max-session) */
	volatile sig_atomic_t intr; /* its device call's interrupt flag: set on
				         drain and when --max-session ends it */
	uint64_t sum_hash;          /* run_summary.json as last written (FNV-1a) */
	int dev_closing;            /* its device is being closed by the opener */
	int waiting;                /* threads in aieth__srv_wait_closed_locked: not pruned */
	struct srv_sess *next;
} srv_sess;

struct aieth__server {
	pthread_mutex_t mu, logmu;
	srv_tokens tokens; /* under tokmu: a reload (SIGHUP) swaps them */
	pthread_mutex_t tokmu;
	char *token_file; /* for the reload */
	int have_tokens;
	char *backend, *board, *data_dir;
	aieth__server_log_fn log;
	void *log_ctx;
	int log_json;
	volatile sig_atomic_t stop; /* set on drain (with every session's intr) */
	int draining;
	char *work_dir;    /* sessions' artifact folders live here */
	int own_work_dir;  /* made by us (mkdtemp): removed at close */
	srv_images images; /* transaction images' memory, kept for reuse */
	/* the queue (srv_queue.c) and the opener thread (srv_core.c), under mu */
	struct {
		srv_sess *sessions; /* in arrival order */
		uint64_t next_seq, id_key;
		/* the opener thread: opens the device for the next session and
		 * runs the reset command, both outside mu (a board takes seconds) */
		pthread_t opener;
		pthread_cond_t work_cv;   /* something for the opener to do */
		pthread_cond_t opened_cv; /* an open ended (success or not) */
		int opener_started, opener_stop;
		/* a device a session let go of, closed by the opener thread
		 * outside mu (on a board the close is the device's reset: it may
		 * take seconds) */
		aieth_session *closing;
		srv_sess *closing_x; /* whose device that is (dev_closing set) */
	} queue;
	/* the limits the options set (fixed once the server runs) */
	struct {
		int64_t idle_ms, max_wait_ms;
		uint32_t idle_s, max_wait_s, max_queue;
		int64_t max_session_ms; /* --max-session (0: no limit) */
		uint32_t max_session_s;
		uint64_t mem_max; /* --max-memory: images and request bodies */
		/* HTTP: request rate per client, connections, head timeout */
		uint32_t rate_limit, client_timeout_s;
		uint32_t conn_max, conn_reserve, conn_per_addr, head_timeout_s;
	} limits;
	/* what /v1/metrics and /v1/health show (srv_stats.c), under mu */
	struct {
		uint64_t sessions_total, resets, bytes_in, bytes_out, requests_other;
		uint64_t requests[SRV_NCODES];
		uint64_t txn_status[5], txn_failed; /* by aieth_txn_status; device call failed */
		uint64_t mem_used;                  /* image bytes held by all transactions, and the
				       request bodies of body_used */
		uint64_t body_used;                 /* HTTP request bodies being read (JSON, RTP) */
		unsigned inflight;                  /* HTTP requests being handled (drain waits) */
		int64_t last_req_ms;                /* when the last HTTP request arrived (drain) */
		/* POST /v1/validate (http_validate.c): the last result, the count */
		int validate_have;
		int validate_exit; /* run_test validate's exit code */
		unsigned validate_level;
		char validate_at[32]; /* ISO 8601 UTC */
		unsigned validate_passed, validate_failed, validate_skipped, validate_warned;
		uint64_t validate_total;
	} stats;
	/* the design xclbin cache (srv_xclbin.c), under mu */
	struct {
		char *dir;
		int own_dir; /* inside our own work folder: removed at close */
		uint64_t xclbin_max, max, used, clock;
		srv_xentry *xclbins;
		uint64_t uploads, evictions;
		uint64_t reserved; /* bytes of uploads in progress (counted in the
				      limit: they are on disk already) */
		unsigned count;
		/* the owners index, written outside mu in order */
		pthread_mutex_t xidx_mu;
		uint64_t xidx_gen, xidx_written;
	} cache;
	/* the reset command (srv_reset.c), run by the opener thread */
	struct {
		char *cmd; /* --reset-cmd, or NULL */
		uint32_t timeout_s;
		int pending, running; /* due / running (under mu) */
		uint64_t failures;    /* under mu */
	} reset;
	/* request rate per client: an address or "token NAME" (http_server.c) */
	struct srv_rate {
		char key[sizeof "token " + SRV_TOKEN_NAME_MAX];
		int64_t sec;
		uint32_t n;
	} rate[256];
	/* the HTTP listener (http_server.c) */
	void *http;  /* struct MHD_Daemon */
	void *conns; /* its connections (http_conns, http_internal.h) */
	uint16_t port;
	char *tls_cert, *tls_key; /* PEM text, alive while the daemon runs */
	/* POST /v1/validate (http_validate.c): the suite runs as a session
	 * of this server's own (self_url), so it queues and holds the device
	 * as any session */
	char self_url[80];
	char self_pin[64]; /* its TLS key's "sha256//BASE64" ("": plain http) */
	/* --model-dir: the folders plugins come from (srv_names.c) */
	char **model_dirs;
	size_t nmodel_dirs;
	/* the AMD-protocol listener (amd_listen.c), or NULL */
	void *amd;
	uint16_t amd_port;
	/* GET /v1/sensors: the board's sensors, their last answer (srv_sensors.h) */
	struct srv_sensors *sensors;
};

void aieth__srv_log(aieth__server *s, const char *fmt, ...) AIETH_PRINTF(2, 3);

/* ---- the device and its opener thread (srv_core.c), mu held ---- */

/* The sessions' side (the queue, its lookups, expiry) is srv_queue.h. */

/* Mark the next queued session for the opener thread when the device is
 * free; the open itself happens outside mu. */
void aieth__srv_promote_locked(aieth__server *s);
/* End x (st, reason) when queued or active: its summary written, its
 * device closed once unreferenced, the next session promoted. */
void aieth__srv_end_locked(aieth__server *s, srv_sess *x, ss_state st, const char *reason);
/* x's device, when unreferenced, handed to the opener to close (its
 * transactions freed, the reset command due after a bad end). */
void aieth__srv_close_dev_locked(aieth__server *s, srv_sess *x);
/* A session done with the device lets go of its cached design. */
void aieth__srv_unpin_done_locked(aieth__server *s, srv_sess *x);
/* The device held, being opened, closed or reset: the next session waits. */
int aieth__srv_device_busy_locked(aieth__server *s);
/* Start the opener thread once (opener_started says whether it runs). */
void aieth__srv_opener_start_locked(aieth__server *s);
/* The opener thread (started by the first enqueue): stop waits for an
 * open or a reset running and for a reset still due, then joins it. */
void aieth__srv_opener_stop(aieth__server *s);

/* A new session for owner with its request (moved in: *req is zeroed),
 * board already checked. NULL on out of memory. */
srv_sess *aieth__srv_sess_new(const char *owner, srv_session_req *req);
/* Free a session that never entered the queue (or was pruned). */
void aieth__srv_free_sess(srv_sess *x);

/* Wait (mu held, at most ms) while x's device is being opened, so that a
 * reply tells how the open ended. */
void aieth__srv_wait_open_locked(aieth__server *s, srv_sess *x, unsigned ms);
/* Wait (mu held, at most ms) until the device of x, ended, has been
 * closed: the backend's files (XRT's trace and status, backends/xrt/
 * xrt_rundir.c) are in x's artifact folder then. */
void aieth__srv_wait_closed_locked(aieth__server *s, srv_sess *x, unsigned ms);
#define SRV_CLOSE_WAIT_MS 90000u /* the xrt backend's flush (60 s) and more */

/* ---- the design xclbin cache (srv_xclbin.c) ---- */

#define SRV_XCLBIN_MAX_MIB 1024u     /* --max-xclbin default */
#define SRV_XCLBIN_CACHE_MIB 2048u   /* --xclbin-cache-mib default */
#define SRV_XCLBIN_ENTRIES_MAX 4096u /* designs in the cache (the LRU go first) */

/* Open the cache: dir (made when missing), or work_dir/xclbins; entries
 * already there are kept (a --cache-dir survives restarts), leftovers of
 * broken uploads removed, then trimmed to cache_max. */
int aieth__srv_xclbin_init(aieth__server *s, const char *dir);
void aieth__srv_xclbin_fini(aieth__server *s);
/* The owner name designs are kept under for a request's token name who
 * (without tokens every client shares one anonymous namespace). */
const char *aieth__srv_xclbin_owner(const aieth__server *s, const char *who);
/* The entry of sha that owner uploaded (mu held; owner NULL: any), or
 * NULL; a lookup counts as a use. Another owner's design is not there. */
srv_xentry *aieth__srv_xclbin_find_locked(aieth__server *s, const char *sha, const char *owner);
/* The file of sha that owner uploaded, opened read-only under mu (an
 * eviction after it leaves the open file readable; a lookup counts as a
 * use): its fd, or -1 when not cached for owner. */
int aieth__srv_xclbin_open(aieth__server *s, const char *sha, const char *owner);
/* Pin x->xsha for x (mu held), if x's owner uploaded it: x->xclbin = its
 * path. AIETH_ENOTFOUND (message naming the sha) when not cached. */
int aieth__srv_xclbin_pin_locked(aieth__server *s, srv_sess *x);
/* Drop x's pin, if any (mu held). */
void aieth__srv_xclbin_unpin_locked(aieth__server *s, srv_sess *x);

/* An upload: streamed into a temporary file in the cache folder while
 * hashed; renamed to its sha when complete and right. */
typedef struct {
	int fd;
	char *tmp;
	char sha[65];
	char owner[SRV_TOKEN_NAME_MAX + 1];
	aieth__server *s;
	int reserved; /* want bytes counted in s->cache.reserved */
	int pinned;   /* the file is cached already: the body is only
				     hashed, the entry pinned until the end */
	uint64_t want, got;
	aieth_sha256 h;
	unsigned evicted; /* commit: entries evicted to make room */
	int err;          /* a write failed: errmsg */
	int index_failed; /* commit: stored, but the owners index could
				     not be written (errmsg): to be logged */
	char errmsg[256];
} srv_xupload;

typedef enum {
	SRV_X_OK = 0,
	SRV_X_TOO_LARGE, /* over --max-xclbin or the cache size: 413 */
	SRV_X_BAD,       /* short body, or the hash differs: 400 */
	SRV_X_NO_ROOM,   /* pinned entries and uploads in progress leave
				     no room: 507 */
	SRV_X_IO         /* a file could not be written: 500 */
} srv_x_result;

/* Begin an upload of len bytes by owner (checked against the limits
 * first): room for len is made and reserved until commit or abort, so
 * that unfinished uploads count against the cache limit. */
srv_x_result aieth__srv_xclbin_begin(aieth__server *s, const char *sha, const char *owner,
				     uint64_t len, srv_xupload *u, char *msg, size_t cap);
/* More body: 0, or -1 when it goes past the length (the upload fails). */
int aieth__srv_xclbin_write(srv_xupload *u, const void *data, size_t n);
/* The end of the body: checked, stored (*created: 1 new for its owner, 0
 * the owner had it already, e.g. a concurrent upload of the same file; a
 * file another owner uploaded is shared, not stored twice), room made by
 * evicting the least recently used entries not pinned. u is released. */
srv_x_result aieth__srv_xclbin_commit(aieth__server *s, srv_xupload *u, int *created, char *msg,
				      size_t cap);
/* A broken upload: the temporary file removed (safe after commit). */
void aieth__srv_xclbin_abort(srv_xupload *u);
/* Count n bytes of a file kept outside the cache (an AMD client's xclbin
 * scratch file) against --xclbin-cache-mib, evicting the least recently
 * used designs not pinned to make room (*evicted: how many). 0, or -1
 * with msg saying why (nothing reserved). unreserve gives them back. */
int aieth__srv_xclbin_reserve(aieth__server *s, uint64_t n, unsigned *evicted, char *msg,
			      size_t cap);
void aieth__srv_xclbin_unreserve(aieth__server *s, uint64_t n);

/* ---- artifacts (srv_artifacts.c) ---- */

/* Create x's artifact folder (work_dir/ID, 0700) once; write the client's
 * xrt.ini there when given (len 0: none). x->artdir is set on success. */
int aieth__srv_artifacts_open(aieth__server *s, srv_sess *x, const void *xrt_ini, size_t len);
/* Remove the folder's files and the folder (when the session is freed). */
void aieth__srv_artifacts_remove(srv_sess *x);
/* Write x's run_summary.json (graphs, transactions with state, status,
 * cycles, bytes; the session's state) into its folder when it differs
 * from what was written last; mu held. Called when the device closes and
 * when a client lists the artifacts. */
int aieth__srv_artifacts_summary(aieth__server *s, srv_sess *x);

/* ---- the reset command (srv_reset.c) ---- */

/* Run cmd with /bin/sh -c (stdin, stdout, stderr on /dev/null, its own
 * process group), killed after timeout_s: 0 when it exited 0, else -1 with
 * what happened in msg. */
int aieth__srv_reset_run(const char *cmd, uint32_t timeout_s, char *msg, size_t cap);

/* ---- listeners ---- */

/* HTTP (http_server.c): start on addr, or AIETH_EUNSUPPORTED where built
 * without libmicrohttpd. stop joins its threads. */
int aieth__srv_http_start(aieth__server *s, const aieth__server_opts *o, const void *addr);
void aieth__srv_http_stop(aieth__server *s);
/* Housekeeping (aieth__server_tick): connections whose request head did not
 * arrive within --head-timeout are shut down. */
void aieth__srv_http_tick(aieth__server *s);

/* AMD's protocol (amd_listen.c): start on o->amd_listen (addr parsed by
 * the caller); stop ends its connections and their sessions, joins all. */
int aieth__srv_amd_start(aieth__server *s, const aieth__server_opts *o, const void *addr,
			 size_t alen);
void aieth__srv_amd_stop(aieth__server *s);

#endif
