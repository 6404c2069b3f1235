/* SPDX-License-Identifier: MIT */
/*
 * test_handles.c - library misuse is detected (docs/api.md, "Handles and
 * threads"): calls with a freed transaction or a closed session, closing or
 * freeing twice, and a second call on a session while one is running.
 */
#include <pthread.h>
#include <string.h>

#include "aieth.h"
#include "core/handles.h"
#include "tu.h"

#define MSG(s) CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)))

static aieth_txn *submit(aieth_session *s)
{
	aieth_channel_args a[2] = {{"PLIO_01_TO_AIE", 64, 1, 0, NULL},
				   {"PLIO_01_FROM_AIE", 64, 1, 0, NULL}};
	aieth_txn *t = NULL;
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 2, &t), AIETH_OK);
	return t;
}

/* was: AIETH_OK, reading freed memory */
static void test_txn_after_free(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	aieth_txn *t, *t2;
	aieth_channel_result r;
	int64_t d;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER), AIETH_OK);
	t = submit(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	aieth_txn_free(t);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_EINVAL);
	MSG("aieth_txn_wait: not a live transaction");
	CU_ASSERT_EQUAL(aieth_txn_channel(t, 0, &r), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_txn_channel_by_name(t, "PLIO_01_TO_AIE", &r), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_txn_delay_between(t, "PLIO_01_TO_AIE", "PLIO_01_FROM_AIE", &d),
			AIETH_EINVAL);
	/* getters give their "none" value */
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_FAILED);
	CU_ASSERT_STRING_EQUAL(aieth_txn_message(t), "");
	CU_ASSERT_EQUAL(aieth_txn_is_valid(t), 0);
	CU_ASSERT_EQUAL(aieth_txn_num_channels(t), 0);
	CU_ASSERT_EQUAL(aieth_txn_total_cycles(t), 0);
	aieth_txn_free(t); /* twice: nothing happens */
	/* the session still works */
	t2 = submit(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
	CU_ASSERT_EQUAL(aieth_txn_wait(t2, 0), AIETH_OK);
	aieth_session_close(s);
	/* its transactions went with it */
	CU_ASSERT_EQUAL(aieth_txn_wait(t2, 0), AIETH_EINVAL);
	aieth_txn_free(t2);
}

/* was: a crash (submit), an abort (close twice) */
static void test_closed_session(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	aieth_channel_args a[1] = {{"PLIO_01_TO_AIE", 64, 1, 0, NULL}};
	aieth_txn *t = NULL;
	uint64_t n;
	int32_t v = 1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_session_close(s);
	CU_ASSERT_EQUAL(aieth_txn_submit(s, AIETH_MODE_PERF, a, 1, &t), AIETH_EINVAL);
	MSG("aieth_txn_submit: not a live session (closed, or never one)");
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 1), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_iterations_done(s, "gr", &n), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "p", &v, 4), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "p", &v, 4), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(aieth_session_board(s));
	CU_ASSERT_STRING_EQUAL(aieth_session_backend(s), "");
	aieth_session_close(s); /* twice: nothing happens */
	aieth_session_close(NULL);
	CU_ASSERT_EQUAL(aieth_graph_run(NULL, "gr", 1), AIETH_EINVAL);
	MSG("NULL session");
}

/* A pointer that never was a handle (here: a transaction passed where a
 * session is expected) is refused without being used as one. */
static void test_wrong_kind(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	aieth_txn *t;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	t = submit(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(aieth_graph_end((aieth_session *)(void *)t, "gr"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_txn_wait((aieth_txn *)(void *)s, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	aieth_session_close(s);
}

/* While a call runs on a session (held here as a call does), a second call
 * on it, from any thread, gets AIETH_ESTATE and changes nothing. */
static void *other_thread(void *arg)
{
	aieth_session *s = arg;
	static int rc;
	rc = aieth_graph_run(s, "gr", 5);
	return &rc;
}

static void test_in_use(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	aieth_txn *t;
	pthread_t th;
	void *ret = NULL;
	uint64_t n;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	t = submit(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(aieth__session_enter(s, "test"), AIETH_OK);
	CU_ASSERT_EQUAL(pthread_create(&th, NULL, other_thread, s), 0);
	CU_ASSERT_EQUAL(pthread_join(th, &ret), 0);
	CU_ASSERT_EQUAL(*(int *)ret, AIETH_ESTATE);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_ESTATE);
	MSG("another thread is inside a call on this session");
	CU_ASSERT_EQUAL(aieth_graph_iterations_done(s, "gr", &n), AIETH_ESTATE);
	/* close and free while in use are refused (they cannot report it) */
	aieth_txn_free(t);
	aieth_session_close(s);
	CU_ASSERT_PTR_NOT_NULL(aieth_session_board(s));
	aieth__session_leave(s);
	/* both still alive, and usable again */
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	aieth_session_close(s);
}

/* Many sessions and transactions: the table grows and forgets correctly. */
static void test_many(void)
{
	enum { NS = 40 };
	aieth_session *s[NS];
	aieth_txn *t[NS];
	int i;
	for (i = 0; i < NS; i++) {
		s[i] = tu_session("vck190", "loopback", NULL, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s[i]);
		aieth_graph_run(s[i], "gr", AIETH_ITERATIONS_FOREVER);
		t[i] = submit(s[i]);
	}
	for (i = 0; i < NS; i += 2)
		aieth_session_close(s[i]);
	for (i = 0; i < NS; i++)
		CU_ASSERT_EQUAL(aieth_txn_wait(t[i], 0), i % 2 ? AIETH_OK : AIETH_EINVAL);
	for (i = 1; i < NS; i += 2)
		aieth_session_close(s[i]);
	for (i = 0; i < NS; i++)
		CU_ASSERT_PTR_NULL(aieth_session_board(s[i]));
}

TU_MAIN("handles", {"a freed transaction is detected", test_txn_after_free},
	{"a closed session is detected", test_closed_session},
	{"a handle of the other kind is refused", test_wrong_kind},
	{"a second call on a busy session", test_in_use}, {"many handles", test_many})
