/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_tokens.h - th_server's bearer tokens: the token file
 * (one "NAME TOKEN" per line, '#' comments, blank lines) and the check of a
 * presented token, in constant time over every token.
 */
#ifndef AIETH_SERVER_SRV_TOKENS_H
#define AIETH_SERVER_SRV_TOKENS_H

#include <stddef.h>

#define SRV_TOKEN_NAME_MAX 64
#define SRV_TOKEN_MIN 16
#define SRV_TOKEN_MAX 256
#define SRV_TOKENS_MAX 1024
#define SRV_TOKEN_FILE_MAX ((size_t)1 << 20)

typedef struct {
	char name[SRV_TOKEN_NAME_MAX + 1];
	char token[SRV_TOKEN_MAX]; /* not NUL-terminated: tlen bytes, zero padded */
	size_t tlen;
} srv_token;

typedef struct {
	srv_token *v;
	size_t n;
} srv_tokens;

/* Parse a token file's text (what: its name in messages). Every line is
 * checked: name 1..64 of [A-Za-z0-9._-], token 16..256 printable non-space
 * bytes, no third field, no name or token twice, at most 1024 tokens, at
 * least one. Returns AIETH_OK or AIETH_EPARSE/AIETH_ENOMEM naming file,
 * line and rule (never the token). *t is empty on failure. */
int aieth__srv_tokens_parse(srv_tokens *t, const char *what, const char *text, size_t len);
/* Read and parse the file at path (at most 1 MiB). */
int aieth__srv_tokens_load(srv_tokens *t, const char *path);
void aieth__srv_tokens_free(srv_tokens *t);
/* The name of the token equal to tok[0..len), or NULL. Time depends on the
 * number of tokens only, not on where a comparison fails. */
const char *aieth__srv_tokens_check(const srv_tokens *t, const char *tok, size_t len);

#endif
