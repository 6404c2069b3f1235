/* SPDX-License-Identifier: MIT */
/*
 * net_words.h - a failed https/http transfer in the user's words (not
 * installed): what failed and the fix, for every libcurl client of the
 * library (the remote backend, uploads, th_assets), instead of libcurl's
 * own ("SSL peer certificate or SSH remote key was not OK").
 */
#ifndef AIETH_UTIL_NET_WORDS_H
#define AIETH_UTIL_NET_WORDS_H

#include <stddef.h>

/* What the words need to know of the transfer. */
typedef struct {
	const char *url;    /* the URL asked (its scheme, host and port are named) */
	const char *cacert; /* the CA bundle trusted (NULL: the system's) */
	const char *flag;   /* the caller's option naming one, e.g. "--cacert" */
	const char *detail; /* libcurl's error buffer (NULL or "": none) */
	long verify;        /* CURLINFO_SSL_VERIFYRESULT (an X509_V_ERR_*; 0: none) */
	long received;      /* bytes of a reply's head received (0: none; -1: unknown) */
	int speaks_tls;     /* for an http:// URL: the port answered a TLS handshake
			     * (1), did not (0), not asked (-1) */
} net_failure;

#ifdef AIETH_HAVE_CURL
#include <curl/curl.h>

/* The sentence for cc (not CURLE_OK) into dst (always terminated when cap
 * > 0): the failure (an unknown CA, a certificate for another name, an
 * expired one, plain http to a TLS port or TLS to a plain one, a closed
 * connection, nothing listening, an unknown host, ...) and what to change.
 * It does not repeat the server's URL except where it is the fix. A pure
 * function (unit tested). Returns dst. */
const char *aieth__net_words(char *dst, size_t cap, CURLcode cc, const net_failure *f);

/* The same with verify and received read from the handle h that failed
 * and, when an http:// URL's server closed the connection without a reply,
 * speaks_tls probed (one TLS handshake to the same host and port, nothing
 * sent: whether the URL should say https://). */
const char *aieth__curl_words(char *dst, size_t cap, CURL *h, CURLcode cc, net_failure *f);
#endif

#endif
