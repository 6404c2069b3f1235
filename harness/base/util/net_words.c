/* SPDX-License-Identifier: MIT */
/*
 * net_words.c - a failed transfer in the user's words (net_words.h).
 */
#ifdef AIETH_HAVE_CURL

#include <stdio.h>
#include <string.h>

#include "util/net_words.h"

/* OpenSSL's verify results (X509_V_ERR_*, stable numbers) that libcurl
 * hands on as CURLINFO_SSL_VERIFYRESULT */
enum {
	V_UNSPECIFIED = 1,
	V_UNABLE_TO_GET_ISSUER_CERT = 2,
	V_CERT_NOT_YET_VALID = 9,
	V_CERT_HAS_EXPIRED = 10,
	V_DEPTH_ZERO_SELF_SIGNED_CERT = 18,
	V_SELF_SIGNED_CERT_IN_CHAIN = 19,
	V_UNABLE_TO_GET_ISSUER_CERT_LOCALLY = 20,
	V_UNABLE_TO_VERIFY_LEAF_SIGNATURE = 21,
	V_INVALID_CA = 24,
	V_HOSTNAME_MISMATCH = 62,
};

/* scheme://HOST[:PORT]/... : the host and port part, into out */
static const char *authority(char *out, size_t cap, const char *url)
{
	const char *p = url ? strstr(url, "://") : NULL, *end;
	size_t n;
	p = p ? p + 3 : (url ? url : "");
	end = p + strcspn(p, "/?#");
	n = (size_t)(end - p);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return out;
}

/* the host alone (an IPv6 literal keeps its brackets) */
static const char *host_of(char *out, size_t cap, const char *url)
{
	char *colon;
	authority(out, cap, url);
	colon = strrchr(out, ':');
	if (colon && !strchr(colon, ']'))
		*colon = '\0';
	return out;
}

static int has(const char *detail, const char *what) { return detail && strstr(detail, what); }

static int is_https(const char *url) { return url && !strncmp(url, "https://", 8); }

static const char *trust(char *out, size_t cap, const net_failure *f)
{
	if (f->cacert)
		snprintf(out, cap, "the CA bundle %s", f->cacert);
	else
		snprintf(out, cap, "the system's CA bundle");
	return out;
}

static const char *verify_failure(char *dst, size_t cap, const net_failure *f)
{
	char t[300], host[256];
	const char *flag = f->flag ? f->flag : "--cacert";
	switch (f->verify) {
	case V_UNABLE_TO_GET_ISSUER_CERT:
	case V_DEPTH_ZERO_SELF_SIGNED_CERT:
	case V_SELF_SIGNED_CERT_IN_CHAIN:
	case V_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
	case V_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
	case V_INVALID_CA:
		snprintf(dst, cap,
			 "TLS: the server's certificate is not signed by a CA this client trusts "
			 "(%s); give the lab CA's certificate with %s FILE or AIETH_CACERT=FILE",
			 trust(t, sizeof t, f), flag);
		return dst;
	case V_CERT_HAS_EXPIRED:
		snprintf(dst, cap,
			 "TLS: the server's certificate has expired; its operator must issue a "
			 "new one (th_server --tls-cert) and restart the server (or this host's "
			 "clock is wrong)");
		return dst;
	case V_CERT_NOT_YET_VALID:
		snprintf(dst, cap,
			 "TLS: the server's certificate is not valid yet; this host's clock or "
			 "the certificate's start date is wrong");
		return dst;
	case 0:
	case V_UNSPECIFIED:
	case V_HOSTNAME_MISMATCH:
		/* the chain verified (0, or 1 as libcurl 7.88 with OpenSSL 3
		 * leaves it): what failed is libcurl's own check of the name
		 * against the certificate, as its message says when there is one */
		if (!f->detail || !f->detail[0] || has(f->detail, "name")) {
			snprintf(dst, cap,
				 "TLS: the server's certificate is not issued for %s, the host in "
				 "the URL; use a name the certificate carries (openssl x509 -noout "
				 "-ext subjectAltName -in CERT lists them) or have it reissued "
				 "for this name",
				 host_of(host, sizeof host, f->url));
			return dst;
		}
		break;
	default: break;
	}
	snprintf(dst, cap, "TLS: the server's certificate was refused (%s%sverify result %ld)",
		 f->detail && f->detail[0] ? f->detail : "", f->detail && f->detail[0] ? "; " : "",
		 f->verify);
	return dst;
}

static void broke_off(char *dst, size_t cap, const char *hp, const char *d)
{
	snprintf(dst, cap,
		 "the connection to %s broke off mid-transfer (%s; the server stopped, or the "
		 "network failed)",
		 hp, d);
}

const char *aieth__net_words(char *dst, size_t cap, CURLcode cc, const net_failure *f)
{
	char hp[256], t[300];
	const char *d = f->detail && f->detail[0] ? f->detail : curl_easy_strerror(cc);
	const char *flag = f->flag ? f->flag : "--cacert";
	if (!cap)
		return dst;
	authority(hp, sizeof hp, f->url);
	switch (cc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_ISSUER_ERROR: return verify_failure(dst, cap, f);
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
		snprintf(dst, cap,
			 "TLS: %s's public key is not the pinned one (aieth_remote_opts."
			 "pinned_key): another server answers there, or its key was replaced",
			 hp);
		break;
	case CURLE_SSL_CACERT_BADFILE:
		snprintf(dst, cap,
			 "TLS: %s holds no CA certificate this client can read (PEM is needed); "
			 "fix or replace it (%s FILE, AIETH_CACERT)",
			 trust(t, sizeof t, f), flag);
		break;
	case CURLE_SSL_CONNECT_ERROR:
		if (has(f->detail, "wrong version number") || has(f->detail, "packet length") ||
		    has(f->detail, "record"))
			snprintf(dst, cap,
				 "TLS: %s answers in plain http, not TLS; use http:// in the URL, "
				 "or the port the server serves https on",
				 hp);
		else
			snprintf(dst, cap,
				 "TLS: the handshake with %s failed (%s); if it serves plain http "
				 "there, the URL must say http://",
				 hp, d);
		break;
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		/* nothing of a reply came: the server closed (or reset) the
		 * connection, or it speaks TLS to a client speaking plain http */
		if (cc == CURLE_GOT_NOTHING || f->received == 0) {
			if (!is_https(f->url) && f->speaks_tls == 1)
				snprintf(dst, cap,
					 "%s serves https, and this client spoke plain http to it: "
					 "the URL must say https://%s (and %s FILE or "
					 "AIETH_CACERT=FILE name a lab CA)",
					 hp, hp, flag);
			else
				snprintf(dst, cap,
					 "%s closed the connection without a reply (the server "
					 "stopped, failed or refused this client: its log says "
					 "why)%s",
					 hp,
					 !is_https(f->url) && f->speaks_tls < 0
						 ? "; if it serves https, the URL must say https://"
						 : "");
			break;
		}
		broke_off(dst, cap, hp, d);
		break;
	case CURLE_PARTIAL_FILE: broke_off(dst, cap, hp, d); break;
	case CURLE_COULDNT_CONNECT:
		snprintf(dst, cap,
			 "nothing answers at %s (%s); check that the server runs and the port is "
			 "right",
			 hp, d);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		snprintf(dst, cap, "the host name of %s is not known (DNS); check the URL", hp);
		break;
	case CURLE_OPERATION_TIMEDOUT:
		snprintf(dst, cap, "no answer from %s in time (%s)", hp, d);
		break;
	case CURLE_WEIRD_SERVER_REPLY:
	case CURLE_UNSUPPORTED_PROTOCOL:
		if (!is_https(f->url) &&
		    (has(f->detail, "HTTP/0.9") || cc == CURLE_WEIRD_SERVER_REPLY))
			snprintf(
				dst, cap,
				"%s does not answer in http (%s); if it serves https, use https:// "
				"in the URL",
				hp, d);
		else
			snprintf(dst, cap, "%s: %s", hp, d);
		break;
	default: snprintf(dst, cap, "%s: %s", hp, d); break;
	}
	return dst;
}

/* Whether host:port of url answers a TLS handshake: one connection with
 * nothing sent over it (CONNECT_ONLY), so the certificate is not checked
 * here, only that TLS is spoken. */
static int speaks_tls(const char *url)
{
	char hp[256], u[300];
	CURL *p = curl_easy_init();
	CURLcode cc;
	if (!p)
		return -1;
	snprintf(u, sizeof u, "https://%s/", authority(hp, sizeof hp, url));
	curl_easy_setopt(p, CURLOPT_URL, u);
	curl_easy_setopt(p, CURLOPT_CONNECT_ONLY, 1L);
	curl_easy_setopt(p, CURLOPT_SSL_VERIFYPEER, 0L);
	curl_easy_setopt(p, CURLOPT_SSL_VERIFYHOST, 0L);
	curl_easy_setopt(p, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(p, CURLOPT_CONNECTTIMEOUT, 3L);
	curl_easy_setopt(p, CURLOPT_TIMEOUT, 5L);
	curl_easy_setopt(p, CURLOPT_PROTOCOLS_STR, "https");
	cc = curl_easy_perform(p);
	curl_easy_cleanup(p);
	return cc == CURLE_OK;
}

const char *aieth__curl_words(char *dst, size_t cap, CURL *h, CURLcode cc, net_failure *f)
{
	long v = 0;
	f->received = -1;
	f->speaks_tls = -1;
	if (h && curl_easy_getinfo(h, CURLINFO_SSL_VERIFYRESULT, &v) == CURLE_OK)
		f->verify = v;
	if (h && curl_easy_getinfo(h, CURLINFO_HEADER_SIZE, &v) == CURLE_OK)
		f->received = v;
	if (f->url && !strncmp(f->url, "http://", 7) &&
	    (cc == CURLE_GOT_NOTHING ||
	     ((cc == CURLE_RECV_ERROR || cc == CURLE_SEND_ERROR) && f->received == 0)))
		f->speaks_tls = speaks_tls(f->url);
	return aieth__net_words(dst, cap, cc, f);
}

#endif /* AIETH_HAVE_CURL */
