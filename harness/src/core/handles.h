/* SPDX-License-Identifier: MIT */
/*
 * core/handles.h - which sessions and transactions are alive, and who is
 * inside a call on a session (not installed). A call with a closed session,
 * a freed transaction or a pointer that never was one is detected before
 * anything is read through it; two threads inside calls on one session are
 * detected with an atomic in-use flag. (A handle whose memory was reused
 * for a new handle of the same kind cannot be told apart: docs/api.md.)
 */
#ifndef AIETH_CORE_HANDLES_H
#define AIETH_CORE_HANDLES_H

struct aieth_session;
struct aieth_txn;

typedef enum {
	AIETH_HANDLE_SESSION = 1,
	AIETH_HANDLE_TXN = 2,
	AIETH_HANDLE_DEV_TXN = 3 /* aieth/device.h's encoded transactions */
} aieth_handle_kind;

/* Register a new handle (AIETH_ENOMEM when the table cannot grow). */
int aieth__handle_add(const void *p, aieth_handle_kind kind);
/* Forget it (before it is freed). */
void aieth__handle_remove(const void *p);
/* 1 when p is a live handle of that kind. */
int aieth__handle_live(const void *p, aieth_handle_kind kind);

/* Enter a call named fn on session s (or on the session of transaction t):
 * AIETH_EINVAL when it is not live, AIETH_ESTATE when another call on the
 * session is running. On AIETH_OK the caller must leave. */
int aieth__session_enter(struct aieth_session *s, const char *fn);
int aieth__txn_enter(const struct aieth_txn *t, const char *fn);
void aieth__session_leave(struct aieth_session *s);

#endif /* AIETH_CORE_HANDLES_H */
