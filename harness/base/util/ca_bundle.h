/* SPDX-License-Identifier: MIT */
/*
 * ca_bundle.h - which CA bundle an https client of the library trusts (not
 * installed): one rule for the remote backend, uploads and th_assets, so
 * that run_test, the Python package and any program linking libaieth trust
 * the same lab CA from the same setting.
 */
#ifndef AIETH_UTIL_CA_BUNDLE_H
#define AIETH_UTIL_CA_BUNDLE_H

/* The variables read, strongest first, after the caller's own option:
 * AIETH_CACERT (the harness's own), then CURL_CA_BUNDLE and SSL_CERT_FILE
 * in the order the curl tool reads them. An empty value counts as unset. */
#define AIETH_CA_ENV_NAMES "AIETH_CACERT, CURL_CA_BUNDLE, SSL_CERT_FILE"

/* The CA bundle to trust: given (the caller's option, e.g. run_test
 * --cacert; NULL or "": not given), else the first variable of
 * AIETH_CA_ENV_NAMES that is set, else none (*path NULL: the system's
 * bundle, libcurl's default). A bundle that cannot be read fails here,
 * before any connection, naming where it came from (flag, the option's
 * name for the message, e.g. "--cacert", or the variable) and the path:
 * AIETH_EINVAL; except a variable's when url (the URL to be asked; NULL:
 * not known yet) is plain http://: that transfer needs no CA, and a stale
 * machine-wide SSL_CERT_FILE must not stop it (*path NULL then). *path
 * points into given or the environment. */
int aieth__ca_bundle(const char *given, const char *flag, const char *url, const char **path);

#endif
