/* SPDX-License-Identifier: MIT */
/*
 * srv_tls.c - the TLS certificate and key checked with GnuTLS (the library
 * libmicrohttpd serves https with), so that a wrong pair is named as such
 * instead of a listener that "cannot listen".
 */
#include "th_server/srv_tls.h"
#include "util/error.h"

#ifdef AIETH_HAVE_MHD
#include <stdint.h>
#include <stdio.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

int aieth__srv_tls_check(const char *cert_file, const char *cert, size_t clen, const char *key_file,
			 const char *key, size_t klen)
{
	gnutls_datum_t c = {(unsigned char *)(uintptr_t)cert, (unsigned)clen};
	gnutls_datum_t k = {(unsigned char *)(uintptr_t)key, (unsigned)klen};
	gnutls_x509_crt_t crt;
	gnutls_x509_privkey_t pk;
	gnutls_certificate_credentials_t cred;
	int r;

	if (clen > 0x7fffffff || klen > 0x7fffffff)
		return aieth__fail(AIETH_EINVAL, "TLS: certificate or key file too large");
	if (gnutls_x509_crt_init(&crt) < 0)
		return aieth__fail(AIETH_ENOMEM, "TLS: out of memory");
	r = gnutls_x509_crt_import(crt, &c, GNUTLS_X509_FMT_PEM);
	gnutls_x509_crt_deinit(crt);
	if (r < 0)
		return aieth__fail(AIETH_EINVAL, "TLS certificate %s: not a PEM certificate (%s)",
				   cert_file, gnutls_strerror(r));
	if (gnutls_x509_privkey_init(&pk) < 0)
		return aieth__fail(AIETH_ENOMEM, "TLS: out of memory");
	r = gnutls_x509_privkey_import2(pk, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_x509_privkey_deinit(pk);
	if (r < 0)
		return aieth__fail(AIETH_EINVAL,
				   "TLS key %s: not an unencrypted PEM private key (%s)", key_file,
				   gnutls_strerror(r));
	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return aieth__fail(AIETH_ENOMEM, "TLS: out of memory");
	/* the same call libmicrohttpd makes: what passes here, it accepts */
	r = gnutls_certificate_set_x509_key_mem2(cred, &c, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_certificate_free_credentials(cred);
	if (r == GNUTLS_E_CERTIFICATE_KEY_MISMATCH)
		return aieth__fail(AIETH_EINVAL,
				   "TLS certificate %s: the key %s is not this "
				   "certificate's key (they do not belong together)",
				   cert_file, key_file);
	if (r < 0)
		return aieth__fail(AIETH_EINVAL, "TLS certificate %s with key %s: refused (%s)",
				   cert_file, key_file, gnutls_strerror(r));
	return AIETH_OK;
}

int aieth__srv_tls_pin(const char *cert, size_t clen, char *pin, size_t cap)
{
	gnutls_datum_t c = {(unsigned char *)(uintptr_t)cert, (unsigned)clen}, raw, b64 = {0};
	gnutls_x509_crt_t crt;
	unsigned char id[32];
	size_t n = sizeof id;
	int r;
	if (clen > 0x7fffffff || gnutls_x509_crt_init(&crt) < 0)
		return aieth__fail(AIETH_ENOMEM, "TLS: out of memory");
	r = gnutls_x509_crt_import(crt, &c, GNUTLS_X509_FMT_PEM);
	if (r >= 0)
		r = gnutls_x509_crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA256, id, &n);
	gnutls_x509_crt_deinit(crt);
	raw.data = id;
	raw.size = (unsigned)n;
	if (r < 0 || n != sizeof id || gnutls_base64_encode2(&raw, &b64) < 0)
		return aieth__fail(AIETH_EINVAL, "TLS certificate: its public key's SHA-256: %s",
				   r < 0 ? gnutls_strerror(r) : "not computed");
	r = snprintf(pin, cap, "sha256//%.*s", (int)b64.size, (const char *)b64.data);
	gnutls_free(b64.data);
	if (r < 0 || (size_t)r >= cap)
		return aieth__fail(AIETH_EINVAL, "TLS certificate: the key's pin is too long");
	return AIETH_OK;
}

#else

int aieth__srv_tls_pin(const char *cert, size_t clen, char *pin, size_t cap)
{
	(void)cert, (void)clen, (void)pin, (void)cap;
	return aieth__fail(AIETH_EUNSUPPORTED, "TLS: no HTTP listener in this build");
}

int aieth__srv_tls_check(const char *cert_file, const char *cert, size_t clen, const char *key_file,
			 const char *key, size_t klen)
{
	/* no HTTP listener in this build: aieth__server_open says so */
	(void)cert_file, (void)cert, (void)clen, (void)key_file, (void)key, (void)klen;
	return AIETH_OK;
}

#endif
