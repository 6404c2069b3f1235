/* SPDX-License-Identifier: MIT */
/*
 * upload.h - results upload: a finished report sent to SQUAD, InfluxDB
 * (line protocol, v1 write API) or a JSON webhook, with a spool folder so
 * that nothing is lost while a server is down (docs/farm.md, "Results
 * upload").
 */
#ifndef AIETH_PUBLIC_UPLOAD_H
#define AIETH_PUBLIC_UPLOAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Upload options. A versioned struct (aieth/session.h, docs/api.md):
 * initialise it with AIETH_UPLOAD_OPTS_INIT or aieth__upload_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_UPLOAD_OPTS_VERSION */
	/* where: the spool and the credentials */
	/* The spool folder (created 0700 when missing); NULL: the default,
	 * aieth__upload_default_spool(). */
	const char *spool_dir;
	/* A credentials file (docs/farm.md): "URL-PREFIX token TOKEN" or
	 * "URL-PREFIX basic USER:PASSWORD" lines; NULL: none. Tokens also come
	 * from AIETH_SQUAD_TOKEN, AIETH_INFLUX_TOKEN, AIETH_WEBHOOK_TOKEN and
	 * AIETH_UPLOAD_TOKEN. */
	const char *credentials;
	const char *cacert; /* CA bundle for https (NULL: $AIETH_CACERT, else
			     * $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's) */
	/* limits */
	uint32_t connect_timeout_s; /* 0: 10 */
	uint32_t timeout_s;         /* whole request, 0: 60 */
	uint64_t spool_max_bytes;   /* the spool's size bound, 0: 100 MiB */
	/* hooks */
	/* Interruption (may be NULL): once *cancel is non-zero (a signal
	 * handler sets it), a transfer under way is aborted within about a
	 * second and nothing more is sent; what was not delivered is spooled
	 * (or stays in the spool) and recorded, as for a server that is down. */
	volatile sig_atomic_t *cancel;
} aieth__upload_opts;

#define AIETH_UPLOAD_OPTS_VERSION 1
#define AIETH_UPLOAD_OPTS_INIT                       \
	{                                            \
		.version = AIETH_UPLOAD_OPTS_VERSION \
	}
int aieth__upload_opts_init(aieth__upload_opts *opts, unsigned int version);

/* Check an --upload URL (squad+http[s]://HOST/TEAM/PROJECT/BUILD/ENV,
 * influx+http[s]://HOST[:PORT]/DB, http[s]://...) without sending
 * anything; a URL with user:password@ is refused (credentials never on
 * the command line). */
int aieth__upload_check_url(const char *url);

/* The default spool folder: $XDG_STATE_HOME/aieth/spool, else
 * $HOME/.local/state/aieth/spool (malloc'd; NULL without either). */
char *aieth__upload_default_spool(void);

/* Retry the spool (oldest first), then upload the report to each URL.
 * Every outcome becomes an entry of the report's "uploads" array; *log
 * (malloc'd, caller frees; may be NULL) gets one line per outcome for the
 * user. The report must be finished (aieth_report_finish): the webhook
 * receives it as report.json is written, without "uploads". Fails only on
 * bad arguments or out of memory: upload failures are outcomes. */
int aieth__upload_report(aieth_report *r, const char *const *urls, size_t n,
			 const aieth__upload_opts *opts, char **log);

/* Retry the spool only (oldest first). *remaining: entries still spooled
 * or moved to failed/ in this pass (may be NULL). */
int aieth__upload_flush(const aieth__upload_opts *opts, char **log, size_t *remaining);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_UPLOAD_H */
