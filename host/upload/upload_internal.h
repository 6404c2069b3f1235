/* SPDX-License-Identifier: MIT */
/*
 * upload_internal.h - the parts of results upload: target URLs, payloads
 * (SQUAD multipart, InfluxDB line protocol, the webhook's JSON), the spool's
 * entries, credentials and the one HTTP request (docs/farm.md).
 */
#ifndef AIETH_UPLOAD_INTERNAL_H
#define AIETH_UPLOAD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "upload/upload.h"
#include "util/sbuf.h"

#define UP_URL_MAX 2048          /* an --upload URL, a request URL */
#define UP_SEG_MAX 128           /* a SQUAD team/project/build/env, an InfluxDB db */
#define UP_CRED_MAX 1024         /* a token or USER:PASSWORD */
#define UP_ENTRY_MAX (64u << 20) /* one spooled payload, header included */
#define UP_RUN_MAX 128           /* a run id in a spool entry */
#define UP_SPOOL_KEY ".key"      /* the spool's secret (util/trusted_dir.h) */
#define UP_TMP_MAX_AGE 3600      /* s: a temporary older is a dead writer's */

typedef enum { UP_SQUAD = 1, UP_INFLUX, UP_WEBHOOK } up_kind;

typedef struct {
	up_kind kind;
	char url[UP_URL_MAX]; /* the request URL (http:// or https://) */
	char team[UP_SEG_MAX], project[UP_SEG_MAX], build[UP_SEG_MAX], env[UP_SEG_MAX];
	char db[UP_SEG_MAX];
} up_target;

/* Parse an --upload URL; the message names the URL and the rule broken. */
int aieth__up_parse_url(const char *url, up_target *t);
const char *aieth__up_kind_name(up_kind k);
/* The first segment of the URL path [path, path+n) (no query) that a
 * server resolves as "." or "..": itself, percent-decoded (twice: %252e),
 * or a piece of it split at '/' or '\' (%2F, %5C); NULL when none. *segn:
 * its length. */
const char *aieth__up_dot_segment(const char *path, size_t n, size_t *segn);
/* SQUAD's identifiers: [a-zA-Z0-9][a-zA-Z0-9_.-]*, 1..UP_SEG_MAX-1 bytes. */
int aieth__up_segment_ok(const char *s, size_t n);

/* Line protocol escaping (InfluxDB v1): what the element allows. */
enum { UP_LP_MEASUREMENT, UP_LP_KEY, UP_LP_STRING };
void aieth__up_lp_escape(sbuf *b, const char *s, int what);

/* Payloads from the report tree (report.json's root); ts_ms: every
 * point's time, the run's start (ms since the epoch). */
int aieth__up_payload_influx(struct json_object *root, uint64_t ts_ms, sbuf *body);
/* The SQUAD fields tests/metrics/metadata, and report.json as attachment;
 * boundary: the multipart boundary (no CR/LF, 1..69 bytes). */
int aieth__up_payload_squad(struct json_object *root, const char *report_json, const char *boundary,
			    sbuf *body);
/* The SQUAD test name part: '/', '[', ']' and control characters become '_'. */
void aieth__up_squad_name(sbuf *b, const char *s);

/* One request, as spooled (no credentials in it). */
typedef struct {
	char run[UP_RUN_MAX];    /* the run that made it (report.json's run.id) */
	char target[UP_URL_MAX]; /* the --upload URL (credentials are found by it) */
	char url[UP_URL_MAX];    /* the request URL */
	char ctype[256];         /* Content-Type */
	const char *body;        /* points into the parsed buffer or the caller's */
	size_t len;
	/* parsed: the entry's check as read, and where its line is */
	uint8_t mac[32];
	size_t mac_at, mac_end;
} up_entry;

/* Spool file name: <20-digit ns>-<pid>-<seq>.<kind>.spool (sorts oldest
 * first); 0 or -1 when buf is too small. */
int aieth__up_spool_name(char *buf, size_t n, uint64_t ns, long pid, unsigned seq,
			 const char *kind);
/* A spool file's name is ours (a temporary or foreign file is not). */
int aieth__up_spool_name_ok(const char *name);
/* Serialize / parse an entry (docs/farm.md: the spool entry format); the
 * parsed body points into data. The format holds the run id and a check:
 * the HMAC-SHA256 with the spool's key of the whole entry less the check's
 * own line. An entry of the format before (no check) is AIETH_EUNSUPPORTED,
 * the message saying what to do with it; a malformed one AIETH_EPARSE. */
int aieth__up_spool_format(const up_entry *e, const uint8_t key[32], sbuf *out);
int aieth__up_spool_parse(const char *data, size_t len, const char *what, up_entry *e);
/* The check of a parsed entry (data as parsed) verifies with key:
 * AIETH_OK; else AIETH_EINVAL, the message naming what. */
int aieth__up_spool_verify(const char *data, size_t len, const up_entry *e, const uint8_t key[32],
			   const char *what);

/* Credentials. */
typedef enum { UP_CRED_NONE = 0, UP_CRED_TOKEN, UP_CRED_BASIC } up_cred_type;
typedef struct {
	up_cred_type type;
	char value[UP_CRED_MAX];
} up_cred;
/* The credentials file's text: the line with the longest URL prefix of
 * target wins (what names the file in messages). */
int aieth__up_creds_parse(const char *text, size_t len, const char *what, const char *target,
			  up_cred *out);
/* File (may be NULL), then the environment (per kind, then AIETH_UPLOAD_TOKEN). */
int aieth__up_creds_find(const char *file, const char *target, up_kind kind, up_cred *out);

/* The outcome of one request. */
enum { UP_SENT = 0, UP_RETRY = 1, UP_PERMANENT = 2 };
/* POST e with cred; *code: the HTTP status (0: none); err: why not sent.
 * Returns UP_SENT, UP_RETRY (transport error, timeout, 408, 429, 5xx) or
 * UP_PERMANENT (any other status). */
int aieth__up_http_post(const up_entry *e, up_kind kind, const up_cred *cred,
			const aieth__upload_opts *o, long *code, char *err, size_t errn);
/* HTTP status class, as above. */
int aieth__up_http_class(long code);

#endif
