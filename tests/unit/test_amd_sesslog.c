/* SPDX-License-Identifier: MIT */
/*
 * test_amd_sesslog.c - the session log th_server returns to AMD's clients
 * as test_harness_session.log (server/amd/amd_sesslog.c): AMD's line form,
 * client strings quoted, one line whatever a message holds, the line and
 * byte caps with their last "... N more lines not kept" line, rewritten
 * whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th_server/amd/amd_conn_internal.h"
#include "tu.h"

static char dir[] = "/tmp/aieth-sesslog-XXXXXX";

/* A connection with a session whose artifact folder is dir. */
static amd_conn *conn_new(srv_sess *x)
{
	amd_conn *c = calloc(1, sizeof *c);
	memset(x, 0, sizeof *x);
	snprintf(x->id, sizeof x->id, "s-1-test");
	x->artdir = dir;
	c->x = x;
	c->peer = "127.0.0.1:1";
	return c;
}

/* The written log, read whole (NUL-terminated; *n its length). */
static char *read_log(size_t *n)
{
	char path[256];
	FILE *f;
	char *p;
	long len;
	snprintf(path, sizeof path, "%s/%s", dir, AMD_LOG_NAME);
	f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc((size_t)len + 1);
	CU_ASSERT_EQUAL(fread(p, 1, (size_t)len, f), (size_t)len);
	p[len] = 0;
	fclose(f);
	*n = (size_t)len;
	return p;
}

static unsigned count_lines(const char *p)
{
	unsigned n = 0;
	for (; *p; p++)
		n += *p == '\n';
	return n;
}

static const char *last_line(const char *p, size_t n)
{
	const char *e = p + n - 1; /* its newline */
	while (e > p && e[-1] != '\n')
		e--;
	return e;
}

static void test_quote(void)
{
	char q[AMD_LOG_Q], big[300];
	CU_ASSERT_STRING_EQUAL(aieth__amd_log_q("gr", q), "\"gr\"");
	CU_ASSERT_STRING_EQUAL(aieth__amd_log_q("a\"b\\c", q), "\"a\\\"b\\\\c\"");
	CU_ASSERT_STRING_EQUAL(aieth__amd_log_q("x\ny\xff", q), "\"x\\x0ay\\xff\"");
	CU_ASSERT_STRING_EQUAL(aieth__amd_log_q(NULL, q), "\"\"");
	memset(big, 'g', sizeof big - 1);
	big[sizeof big - 1] = 0;
	aieth__amd_log_q(big, q);
	CU_ASSERT(strlen(q) < AMD_LOG_Q);
	CU_ASSERT_PTR_NOT_NULL(strstr(q, "...\"")); /* util/text.c: the cut marked inside */
	/* all bytes escaped: the cut stays inside the buffer */
	memset(big, '\x01', sizeof big - 1);
	aieth__amd_log_q(big, q);
	CU_ASSERT(strlen(q) < AMD_LOG_Q);
}

static void test_form(void)
{
	srv_sess x;
	amd_conn *c = conn_new(&x);
	char *p;
	size_t n;
	int y, mo, d, h, mi, s, k = 0;
	aieth__amd_log(c, "INFO", "request getTimeOut: %d s", 60);
	aieth__amd_log(c, "WARNING", "a device said: %s", "two\nlines\x7f and \xc3\xa9");
	CU_ASSERT_EQUAL(aieth__amd_log_write(c), 0);
	p = read_log(&n);
	CU_ASSERT_EQUAL(count_lines(p), 2);
	CU_ASSERT_EQUAL(
		sscanf(p, "[%4d-%2d-%2d %2d:%2d:%2d] [INFO] %n", &y, &mo, &d, &h, &mi, &s, &k), 6);
	CU_ASSERT(k == 29 && !strncmp(p + k, "request getTimeOut: 60 s\n", 25));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "] [WARNING] a device said: two\\x0alines\\x7f and "
					 "\\xc3\\xa9\n"));
	free(p);
	/* no session folder: nothing written, no error */
	c->x = NULL;
	CU_ASSERT_EQUAL(aieth__amd_log_write(c), 0);
	aieth__amd_sesslog_free(c);
	free(c);
}

static void test_line_cap(void)
{
	srv_sess x;
	amd_conn *c = conn_new(&x);
	char *p;
	size_t n;
	unsigned i;
	for (i = 0; i < AMD_LOG_LINES_MAX + 5; i++)
		aieth__amd_log(c, "INFO", "request queryTransactionStatus: transaction %u: DONE",
			       i);
	CU_ASSERT_EQUAL(aieth__amd_log_write(c), 0);
	p = read_log(&n);
	CU_ASSERT_EQUAL(count_lines(p), AMD_LOG_LINES_MAX + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(last_line(p, n), "] [WARNING] ... 5 more lines not kept"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "transaction 9999: DONE\n"));
	CU_ASSERT_PTR_NULL(strstr(p, "transaction 10000: DONE\n"));
	free(p);
	/* written again later: whole, the count updated, one last line */
	aieth__amd_log(c, "INFO", "request destroy");
	CU_ASSERT_EQUAL(aieth__amd_log_write(c), 0);
	p = read_log(&n);
	CU_ASSERT_EQUAL(count_lines(p), AMD_LOG_LINES_MAX + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(last_line(p, n), "... 6 more lines not kept"));
	CU_ASSERT_PTR_NULL(strstr(p, "5 more lines"));
	free(p);
	aieth__amd_sesslog_free(c);
	free(c);
}

static void test_byte_cap(void)
{
	srv_sess x;
	amd_conn *c = conn_new(&x);
	char long_msg[2000], *p;
	size_t n;
	unsigned i;
	memset(long_msg, 'z', sizeof long_msg - 1);
	long_msg[sizeof long_msg - 1] = 0;
	/* each line is cut at AMD_LOG_LINE_MAX: about 1 KiB */
	for (i = 0; i < 2000; i++)
		aieth__amd_log(c, "INFO", "%s", long_msg);
	CU_ASSERT_EQUAL(aieth__amd_log_write(c), 0);
	p = read_log(&n);
	CU_ASSERT(n <= AMD_LOG_BYTES_MAX + AMD_LOG_LINE_MAX);
	CU_ASSERT(n > AMD_LOG_BYTES_MAX - AMD_LOG_LINE_MAX);
	CU_ASSERT(strlen(last_line(p, n)) < 200);
	{
		unsigned kept = count_lines(p) - 1, more = 0;
		CU_ASSERT_EQUAL(sscanf(strstr(last_line(p, n), "... "), "... %u more lines", &more),
				1);
		CU_ASSERT_EQUAL(kept + more, 2000);
		CU_ASSERT(kept < 2000);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "zzz...\n"));
	free(p);
	aieth__amd_sesslog_free(c);
	free(c);
}

static void test_setup(void) { CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir)); }

static void test_cleanup(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, AMD_LOG_NAME);
	unlink(path);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

TU_MAIN("amd_sesslog", {"setup", test_setup}, {"quote", test_quote}, {"form", test_form},
	{"line_cap", test_line_cap}, {"byte_cap", test_byte_cap}, {"cleanup", test_cleanup})
