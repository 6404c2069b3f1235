/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_tls.h - th_server's TLS certificate and key, checked before
 * the listener starts (libmicrohttpd only says that it could not start).
 */
#ifndef AIETH_SERVER_SRV_TLS_H
#define AIETH_SERVER_SRV_TLS_H

#include <stddef.h>

/* The PEM certificate (chain) cert[0..clen) read from cert_file and the
 * PEM private key key[0..klen) from key_file: each must parse and the key
 * must be the certificate's. AIETH_OK, or AIETH_EINVAL naming the file and
 * the problem (never a byte of the key). */
int aieth__srv_tls_check(const char *cert_file, const char *cert, size_t clen, const char *key_file,
			 const char *key, size_t klen);

/* The pin of the certificate's public key (the first certificate of the
 * PEM text cert[0..clen), the one served): "sha256//" and the base64 of the
 * SHA-256 of its SubjectPublicKeyInfo, as CURLOPT_PINNEDPUBLICKEY takes it,
 * into pin (cap bytes). For the server's requests to its own listener
 * (POST /v1/validate, as its aieth_remote_opts.pinned_key). */
int aieth__srv_tls_pin(const char *cert, size_t clen, char *pin, size_t cap);

#endif
