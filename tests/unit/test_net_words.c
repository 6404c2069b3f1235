/* SPDX-License-Identifier: MIT */
/*
 * test_net_words.c - the CA bundle's precedence (util/ca_bundle.h) and a
 * failed transfer's words (util/net_words.h), a pure function: each case
 * names what failed and the fix, never libcurl's own sentence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/ca_bundle.h"
#include "util/net_words.h"

static void clear_env(void)
{
	unsetenv("AIETH_CACERT");
	unsetenv("CURL_CA_BUNDLE");
	unsetenv("SSL_CERT_FILE");
}

static void test_ca_precedence(void)
{
	const char *a = tu_tmpfile("a"), *b, *c, *p = "x";
	char sa[256], sb[256], sc[256];
	snprintf(sa, sizeof sa, "%s", a);
	b = tu_tmpfile("b");
	snprintf(sb, sizeof sb, "%s", b);
	c = tu_tmpfile("c");
	snprintf(sc, sizeof sc, "%s", c);
	clear_env();
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_PTR_NULL(p); /* the system's */
	setenv("SSL_CERT_FILE", sc, 1);
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p, sc);
	setenv("CURL_CA_BUNDLE", sb, 1);
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p, sb);
	setenv("AIETH_CACERT", "", 1); /* empty: unset */
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p, sb);
	setenv("AIETH_CACERT", sa, 1);
	CU_ASSERT_EQUAL(aieth__ca_bundle("", "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p, sa);
	CU_ASSERT_EQUAL(aieth__ca_bundle(sc, "--cacert", NULL, &p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(p, sc); /* the option wins */
	/* unreadable: the source and the path named, *path NULL */
	setenv("AIETH_CACERT", "/nonexistent/ca.pem", 1);
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", NULL, &p), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(aieth_error_message(),
			       "AIETH_CACERT=/nonexistent/ca.pem: the CA bundle cannot be read: No "
			       "such file or directory (name a readable PEM file of CA "
			       "certificates, or unset AIETH_CACERT for the system's)");
	/* a variable's is not needed by plain http: ignored there, not the option's */
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", "http://board:8443", &p), AIETH_OK);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_EQUAL(aieth__ca_bundle(NULL, "--cacert", "https://board:8443", &p), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__ca_bundle("/tmp", "--upload-cacert", "http://x/", &p), AIETH_EINVAL);
	CU_ASSERT_STRING_EQUAL(aieth_error_message(),
			       "--upload-cacert /tmp: the CA bundle cannot be read: not a regular "
			       "file (name a readable PEM file of CA certificates)");
	clear_env();
}

#ifdef AIETH_HAVE_CURL
static const char *words(CURLcode cc, const char *url, const char *ca, const char *detail,
			 long verify, long received, int tls)
{
	static char w[700];
	net_failure f = {url, ca, "--cacert", detail, verify, received, tls};
	return aieth__net_words(w, sizeof w, cc, &f);
}

static void test_words_tls(void)
{
	const char *u = "https://board.lab:8443/v1/health";
	CU_ASSERT_STRING_EQUAL(
		words(CURLE_PEER_FAILED_VERIFICATION, u, NULL, NULL, 20, -1, -1),
		"TLS: the server's certificate is not signed by a CA this client trusts (the "
		"system's CA bundle); give the lab CA's certificate with --cacert FILE or "
		"AIETH_CACERT=FILE");
	CU_ASSERT_PTR_NOT_NULL(
		strstr(words(CURLE_PEER_FAILED_VERIFICATION, u, "/etc/lab.pem", "", 19, -1, -1),
		       "(the CA bundle /etc/lab.pem)"));
	CU_ASSERT_STRING_EQUAL(
		words(CURLE_PEER_FAILED_VERIFICATION, u, NULL,
		      "SSL: no alternative certificate subject name matches target host name "
		      "'board.lab'",
		      0, -1, -1),
		"TLS: the server's certificate is not issued for board.lab, the host in the URL; "
		"use a name the certificate carries (openssl x509 -noout -ext subjectAltName -in "
		"CERT lists them) or have it reissued for this name");
	/* libcurl 7.88 over OpenSSL 3 leaves verify at 1 for its name check */
	CU_ASSERT_PTR_NOT_NULL(strstr(
		words(CURLE_PEER_FAILED_VERIFICATION, "https://[::1]:8443/", NULL, NULL, 1, -1, -1),
		"not issued for [::1], the host"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(words(CURLE_PEER_FAILED_VERIFICATION, u, NULL, NULL, 10, -1, -1),
		       "certificate has expired; its operator must issue a new one"));
	CU_ASSERT_PTR_NOT_NULL(strstr(
		words(CURLE_PEER_FAILED_VERIFICATION, u, NULL, NULL, 9, -1, -1), "not valid yet"));
	/* a verify result without words of its own: named, not guessed */
	CU_ASSERT_STRING_EQUAL(
		words(CURLE_PEER_FAILED_VERIFICATION, u, NULL,
		      "SSL certificate problem: certificate revoked", 23, -1, -1),
		"TLS: the server's certificate was refused (SSL certificate problem: "
		"certificate revoked; verify result 23)");
	CU_ASSERT_PTR_NOT_NULL(strstr(
		words(CURLE_SSL_CONNECT_ERROR, u, NULL,
		      "error:0A00010B:SSL routines::wrong version number", 0, -1, -1),
		"TLS: board.lab:8443 answers in plain http, not TLS; use http:// in the URL"));
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_SSL_CACERT_BADFILE, u, "/x.pem", NULL, 0, -1, -1),
				      "TLS: the CA bundle /x.pem holds no CA certificate"));
}

static void test_words_http(void)
{
	const char *h = "http://board.lab:8443/v1/health";
	CU_ASSERT_STRING_EQUAL(words(CURLE_GOT_NOTHING, h, NULL, NULL, 0, 0, 1),
			       "board.lab:8443 serves https, and this client spoke plain http to "
			       "it: the URL must say https://board.lab:8443 (and --cacert FILE or "
			       "AIETH_CACERT=FILE name a lab CA)");
	CU_ASSERT_STRING_EQUAL(words(CURLE_GOT_NOTHING, h, NULL, NULL, 0, 0, 0),
			       "board.lab:8443 closed the connection without a reply (the server "
			       "stopped, failed or refused this client: its log says why)");
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_GOT_NOTHING, h, NULL, NULL, 0, 0, -1),
				      "; if it serves https, the URL must say https://"));
	/* a reset before any reply is a close; after a reply's head it broke off */
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_RECV_ERROR, h, NULL, NULL, 0, 0, 0),
				      "closed the connection without a reply"));
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_RECV_ERROR, h, NULL, NULL, 0, 120, -1),
				      "the connection to board.lab:8443 broke off mid-transfer"));
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_COULDNT_CONNECT, h, NULL, NULL, 0, -1, -1),
				      "nothing answers at board.lab:8443"));
	CU_ASSERT_PTR_NOT_NULL(strstr(words(CURLE_COULDNT_RESOLVE_HOST, h, NULL, NULL, 0, -1, -1),
				      "the host name of board.lab:8443 is not known"));
	/* a short buffer: cut, terminated */
	{
		char w[8];
		net_failure f = {h, NULL, "--cacert", NULL, 0, 0, 0};
		CU_ASSERT_EQUAL(strlen(aieth__net_words(w, sizeof w, CURLE_GOT_NOTHING, &f)), 7);
	}
}
#else
static void test_words_tls(void) {}
static void test_words_http(void) {}
#endif

TU_MAIN("net_words",
	{"CA bundle: option > AIETH_CACERT > CURL_CA_BUNDLE > SSL_CERT_FILE", test_ca_precedence},
	{"words: TLS failures", test_words_tls}, {"words: HTTP failures", test_words_http})
