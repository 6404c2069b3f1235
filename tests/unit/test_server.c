/* SPDX-License-Identifier: MIT */
/* test_server.c - th_server's parsing, free of HTTP: token files and the
 * constant-time check, request paths, bearer headers, JSON request bodies
 * and listen addresses (server/srv_tokens.c, server/srv_route.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "core/handles.h"
#include "pld/protocol.h"
#include "th_server/srv_core.h"
#include "th_server/srv_queue.h"
#include "th_server/srv_route.h"
#include "th_server/srv_sensors.h"
#include "th_server/srv_tokens.h"
#include "tu.h"
#include "util/error.h"

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

static int tok_parse(srv_tokens *t, const char *text)
{
	return aieth__srv_tokens_parse(t, "tokens", text, strlen(text));
}

static void test_tokens_ok(void)
{
	srv_tokens t;
	const char *text = "# lab tokens\n\n  alice   0123456789abcdef\t\r\n"
			   "bob.ci-1 ~!@$%^&*()_+{}|:<>?\n# end\n  \n";
	CU_ASSERT_EQUAL_FATAL(tok_parse(&t, text), AIETH_OK);
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT_STRING_EQUAL(t.v[0].name, "alice");
	CU_ASSERT_STRING_EQUAL(t.v[1].name, "bob.ci-1");
	CU_ASSERT_STRING_EQUAL(aieth__srv_tokens_check(&t, "0123456789abcdef", 16), "alice");
	CU_ASSERT_STRING_EQUAL(aieth__srv_tokens_check(&t, "~!@$%^&*()_+{}|:<>?", 19), "bob.ci-1");
	CU_ASSERT_PTR_NULL(aieth__srv_tokens_check(&t, "0123456789abcdeF", 16));
	CU_ASSERT_PTR_NULL(aieth__srv_tokens_check(&t, "0123456789abcdef0", 17));
	CU_ASSERT_PTR_NULL(aieth__srv_tokens_check(&t, "0123456789abcde", 15));
	CU_ASSERT_PTR_NULL(aieth__srv_tokens_check(&t, "", 0));
	CU_ASSERT_PTR_NULL(aieth__srv_tokens_check(NULL, "0123456789abcdef", 16));
	aieth__srv_tokens_free(&t);
	CU_ASSERT_EQUAL(t.n, 0);
	/* a last line without a newline */
	CU_ASSERT_EQUAL_FATAL(tok_parse(&t, "c xxxxxxxxxxxxxxxxxxxx"), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth__srv_tokens_check(&t, "xxxxxxxxxxxxxxxxxxxx", 20), "c");
	aieth__srv_tokens_free(&t);
}

static void test_tokens_bad(void)
{
	srv_tokens t;
	char big[400];
	CU_ASSERT_EQUAL(tok_parse(&t, "# only a comment\n"), AIETH_EPARSE);
	MSG_HAS("tokens: no token");
	CU_ASSERT_EQUAL(tok_parse(&t, ""), AIETH_EPARSE);
	CU_ASSERT_EQUAL(tok_parse(&t, "\nalice\n"), AIETH_EPARSE);
	MSG_HAS("tokens:2: a NAME and a TOKEN are needed");
	CU_ASSERT_EQUAL(tok_parse(&t, "alice 0123456789abcdef extra\n"), AIETH_EPARSE);
	MSG_HAS("tokens:1: more than two fields");
	CU_ASSERT_EQUAL(tok_parse(&t, "alice short\n"), AIETH_EPARSE);
	MSG_HAS("is 5 bytes, allowed 16..256");
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "short")); /* never the token */
	CU_ASSERT_EQUAL(tok_parse(&t, "al/ce 0123456789abcdef\n"), AIETH_EPARSE);
	MSG_HAS("byte 0x2f at 3");
	CU_ASSERT_EQUAL(tok_parse(&t, "a 0123456789abcdef\na 0123456789abcdeX\n"), AIETH_EPARSE);
	MSG_HAS("tokens:2: the name \"a\" is listed twice");
	CU_ASSERT_EQUAL(tok_parse(&t, "a 0123456789abcdef\nb 0123456789abcdef\n"), AIETH_EPARSE);
	MSG_HAS("\"b\" has the token of \"a\"");
	CU_ASSERT_EQUAL(aieth__srv_tokens_parse(&t, "tokens", "a 0123456789abc\0ef", 18),
			AIETH_EPARSE);
	MSG_HAS("NUL byte");
	memset(big, 'n', sizeof big);
	memcpy(big + 65, " 0123456789abcdef", 18);
	CU_ASSERT_EQUAL(tok_parse(&t, big), AIETH_EPARSE);
	MSG_HAS("the name is 65 bytes, the limit is 64");
	memset(big, 't', sizeof big);
	memcpy(big, "a ", 2);
	big[2 + 257] = '\0';
	CU_ASSERT_EQUAL(tok_parse(&t, big), AIETH_EPARSE);
	MSG_HAS("is 257 bytes, allowed 16..256");
	/* a token file that cannot be used is the operator's input error */
	CU_ASSERT_EQUAL(aieth__srv_tokens_load(&t, "/nonexistent/tokens"), AIETH_EINVAL);
	MSG_HAS("/nonexistent/tokens");
}

static void test_tokens_file(void)
{
	srv_tokens t;
	const char *p = tu_tmpfile("ci 0123456789abcdef0123456789abcdef\n");
	CU_ASSERT_EQUAL_FATAL(aieth__srv_tokens_load(&t, p), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth__srv_tokens_check(&t, "0123456789abcdef0123456789abcdef", 32),
			       "ci");
	aieth__srv_tokens_free(&t);
	/* secrets others may read: refused, the mode named */
	CU_ASSERT_EQUAL_FATAL(chmod(p, 0604), 0);
	CU_ASSERT_EQUAL(aieth__srv_tokens_load(&t, p), AIETH_EINVAL);
	MSG_HAS("group or others may use it (mode 0604)");
	CU_ASSERT_PTR_NULL(t.v);
}

static void test_routes(void)
{
	srv_route r;
	aieth__srv_route_parse("/v1/health", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_HEALTH);
	aieth__srv_route_parse("/v1/metrics", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_METRICS);
	aieth__srv_route_parse("/v1/sessions", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_SESSIONS);
	aieth__srv_route_parse("/v1/sessions/s-1-ab", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_SESSION);
	CU_ASSERT_STRING_EQUAL(r.sid, "s-1-ab");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/gr.x", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH);
	CU_ASSERT_STRING_EQUAL(r.graph, "gr.x");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/gr/run", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_RUN);
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/gr/wait", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_WAIT);
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/gr/end", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_END);
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/top.gr[0]/ports", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_PORTS);
	CU_ASSERT_STRING_EQUAL(r.graph, "top.gr[0]");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/ports", &r); /* a graph named "ports" */
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH);
	CU_ASSERT_STRING_EQUAL(r.graph, "ports");
	aieth__srv_route_parse("/v1/sessions/s-1/txns", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_TXNS);
	aieth__srv_route_parse("/v1/sessions/s-1/txns/t-2", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_TXN);
	CU_ASSERT_STRING_EQUAL(r.tid, "t-2");
	aieth__srv_route_parse("/v1/sessions/s-1/txns/t-2/tx", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_TXN_TX);
	aieth__srv_route_parse("/v1/sessions/s-1/txns/t-2/wait", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_TXN_WAIT);
	aieth__srv_route_parse("/v1/sessions/s-1/txns/t-2/rx", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_TXN_RX);
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/g/rtp/g.k.in[1]", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_RTP);
	CU_ASSERT_STRING_EQUAL(r.port, "g.k.in[1]");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/g/rtp/a/b", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/g/rtp/", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
	/* graph and port names as a test description has them: the path comes
	 * percent-decoded, any byte but '/' and control bytes */
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/top.gr[0]/run", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_RUN);
	CU_ASSERT_STRING_EQUAL(r.graph, "top.gr[0]");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/my graph %2f\xc3\xa9", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH);
	CU_ASSERT_STRING_EQUAL(r.graph, "my graph %2f\xc3\xa9");
	aieth__srv_route_parse("/v1/sessions/s-1/graphs/top.gr[0]/rtp/top.gr[0].k.in[1]", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_GRAPH_RTP);
	CU_ASSERT_STRING_EQUAL(r.port, "top.gr[0].k.in[1]");
	aieth__srv_route_parse("/v1/xclbins/abc", &r); /* not a sha256 (test_srv_xclbin.c) */
	CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
	/* unknown or malformed: 404 */
	{
		static const char *const bad[] = {"",
						  "/",
						  "/v1",
						  "/v1/",
						  "/v2/health",
						  "/v1/health/",
						  "/v1/healthz",
						  "/v1//sessions",
						  "/v1/sessions/",
						  "/v1/sessions/a b",
						  "/v1/sessions/../x",
						  "/v1/sessions/s/graphs",
						  "/v1/sessions/s/graphs/g/run/x",
						  "/v1/sessions/s/graphs/g/fly",
						  "/v1/sessions/s/graphs/g/ports/",
						  "/v1/sessions/s/graphs/g/ports/x",
						  "/v1/sessions/s/graphs//ports",
						  "/v1/sessions/s/graphs/g\x01/ports",
						  "/v1/sessions/0123456789012345678901234567890123",
						  "/v1/sessions/s/grap/g",
						  "/v1/sessions/s/graphs/g\x01",
						  "/v1/sessions/s/graphs/g\x7f/run",
						  "/v1/sessions/s/graphs/g/rtp/p\x1b",
						  "/v1/sessions/s/txns/",
						  "/v1/sessions/s/txns/t/rx/x",
						  "/v1/sessions/s/txns/t/go",
						  NULL};
		size_t i;
		for (i = 0; bad[i]; i++) {
			aieth__srv_route_parse(bad[i], &r);
			if (r.kind != SRV_R_NONE)
				fprintf(stderr, "\n  path %s: kind %d\n", bad[i], (int)r.kind);
			CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
		}
	}
	aieth__srv_route_parse(NULL, &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
	CU_ASSERT_STRING_EQUAL(aieth__srv_route_methods(SRV_R_SESSION), "GET, DELETE");
	CU_ASSERT_STRING_EQUAL(aieth__srv_route_methods(SRV_R_PORTS), "GET");
	CU_ASSERT_STRING_EQUAL(aieth__srv_route_methods(SRV_R_NONE), "");
}

/* GET .../rtp/PORT?size=N: decimal digits only, 1..65536; nothing else
 * (a value that does not start with a digit was read through a pointer
 * never set) */
static void test_rtp_size(void)
{
	static const char *const bad[] = {"",     "x",  "x1",    "-1",
					  "+1",   " 1", "1 ",    "1x",
					  "0",    "00", "65537", "99999999999999999999999",
					  "0x10", NULL};
	uint32_t v = 7;
	size_t i;
	CU_ASSERT_EQUAL(aieth__srv_rtp_size_parse("1", &v), 0);
	CU_ASSERT_EQUAL(v, 1);
	CU_ASSERT_EQUAL(aieth__srv_rtp_size_parse("065536", &v), 0);
	CU_ASSERT_EQUAL(v, 65536);
	CU_ASSERT_EQUAL(aieth__srv_rtp_size_parse(NULL, &v), -1);
	for (i = 0; bad[i]; i++) {
		v = 7;
		if (aieth__srv_rtp_size_parse(bad[i], &v) != -1)
			fprintf(stderr, "\n  ?size=%s accepted\n", bad[i]);
		CU_ASSERT_EQUAL(aieth__srv_rtp_size_parse(bad[i], &v), -1);
		CU_ASSERT_EQUAL(v, 0);
	}
}

static void test_bearer(void)
{
	const char *t;
	size_t n;
	CU_ASSERT_EQUAL(aieth__srv_bearer("Bearer abc", &t, &n), 0);
	CU_ASSERT(n == 3 && !strncmp(t, "abc", 3));
	CU_ASSERT_EQUAL(aieth__srv_bearer("Bearer   abc  ", &t, &n), 0);
	CU_ASSERT(n == 3 && !strncmp(t, "abc", 3));
	CU_ASSERT_EQUAL(aieth__srv_bearer("Basic abc", &t, &n), -1);
	CU_ASSERT_EQUAL(aieth__srv_bearer("Bearer ", &t, &n), -1);
	CU_ASSERT_EQUAL(aieth__srv_bearer("Bearer", &t, &n), -1);
	CU_ASSERT_EQUAL(aieth__srv_bearer(NULL, &t, &n), -1);
}

static int sreq(const char *body, srv_session_req *r)
{
	return aieth__srv_session_req_parse(body, strlen(body), r);
}

static void test_session_body(void)
{
	srv_session_req r;
	char big[300];
	CU_ASSERT_EQUAL_FATAL(sreq("{\"board\":\"vck190\",\"graphs\":[{\"name\":\"gr\",\"model\":"
				   "\"adder\",\"params\":{\"k\":2}},{\"name\":\"g2\"}]}",
				   &r),
			      AIETH_OK);
	CU_ASSERT_STRING_EQUAL(r.board, "vck190");
	CU_ASSERT_EQUAL(r.ngraphs, 2);
	CU_ASSERT_STRING_EQUAL(r.graphs[0].model, "adder");
	CU_ASSERT_STRING_EQUAL(r.graphs[0].params, "{\"k\":2}");
	CU_ASSERT_STRING_EQUAL(r.graphs[1].model, "");
	CU_ASSERT_PTR_NULL(r.graphs[1].params);
	CU_ASSERT_STRING_EQUAL(r.xclbin_sha256, "");
	aieth__srv_session_req_free(&r);

	CU_ASSERT_EQUAL(sreq("", &r), AIETH_EPARSE);
	MSG_HAS("empty");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("{\"board\":", &r), AIETH_EPARSE);
	MSG_HAS("request body:1:");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("[1]", &r), AIETH_EPARSE);
	MSG_HAS("a JSON object is needed");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("null", &r), AIETH_EPARSE);
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{}", &r), AIETH_OK);
	MSG_HAS("board");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"color\":1}", &r), AIETH_OK);
	MSG_HAS("color");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"\"}", &r), AIETH_OK);
	MSG_HAS("board: empty");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\\u0001\"}", &r), AIETH_OK);
	MSG_HAS("control byte");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"graphs\":{}}", &r), AIETH_OK);
	MSG_HAS("graphs: an array is needed");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(
		sreq("{\"board\":\"a\",\"graphs\":[{\"name\":\"g\"},{\"name\":\"g\"}]}", &r),
		AIETH_OK);
	MSG_HAS("graphs[1].name: \"g\" is also graphs[0]");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"graphs\":[1]}", &r), AIETH_OK);
	MSG_HAS("graphs[0]: an object is needed");
	aieth__srv_session_req_free(&r);
	/* a graph name is a URL path segment: no '/' */
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"graphs\":[{\"name\":\"a/b\"}]}", &r),
			    AIETH_OK);
	MSG_HAS("graphs[0].name: \"a/b\" has a '/'");
	aieth__srv_session_req_free(&r);
	/* aiesim traces sent with the session: plain names, bounded */
	CU_ASSERT_EQUAL_FATAL(sreq("{\"board\":\"a\",\"traces\":{\"out.txt\":\"T 0 ns\\n1\\n\","
				   "\"b-2.txt\":\"\"}}",
				   &r),
			      AIETH_OK);
	CU_ASSERT_EQUAL(r.ntraces, 2);
	CU_ASSERT_STRING_EQUAL(r.traces[0].name, "out.txt");
	CU_ASSERT_STRING_EQUAL(r.traces[0].text, "T 0 ns\n1\n");
	CU_ASSERT_EQUAL(r.traces[0].len, 9);
	aieth__srv_session_req_free(&r);
	{
		static const char *const badn[] = {
			"../x", "/etc/shadow", "a/b", ".hidden", "..", "a..b", "", "x y", NULL};
		size_t i;
		for (i = 0; badn[i]; i++) {
			char b[200];
			snprintf(b, sizeof b, "{\"board\":\"a\",\"traces\":{\"%s\":\"1\"}}",
				 badn[i]);
			CU_ASSERT_NOT_EQUAL(sreq(b, &r), AIETH_OK);
			MSG_HAS("is not a file name");
			aieth__srv_session_req_free(&r);
		}
	}
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"traces\":{\"a\":1}}", &r), AIETH_OK);
	MSG_HAS("traces.a: a string is needed");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"traces\":{\"a\":\"x\\u0000y\"}}", &r),
			    AIETH_OK);
	MSG_HAS("traces.a: has a NUL byte");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"traces\":[]}", &r), AIETH_OK);
	MSG_HAS("traces: an object is needed");
	aieth__srv_session_req_free(&r);
	{
		/* 17 files: the count limit; 4 MiB + 1 byte: the size limit */
		char b[1024];
		size_t i, n = 0;
		char *huge;
		n += (size_t)snprintf(b + n, sizeof b - n, "{\"board\":\"a\",\"traces\":{");
		for (i = 0; i < 17; i++)
			n += (size_t)snprintf(b + n, sizeof b - n, "%s\"t%zu\":\"\"", i ? "," : "",
					      i);
		snprintf(b + n, sizeof b - n, "}}");
		CU_ASSERT_NOT_EQUAL(sreq(b, &r), AIETH_OK);
		MSG_HAS("17 files, the limit is 16");
		aieth__srv_session_req_free(&r);
		huge = malloc(SRV_TRACES_BYTES_MAX + 100);
		CU_ASSERT_PTR_NOT_NULL_FATAL(huge);
		n = (size_t)sprintf(huge, "{\"board\":\"a\",\"traces\":{\"a\":\"x\",\"b\":\"");
		memset(huge + n, 'y', SRV_TRACES_BYTES_MAX);
		strcpy(huge + n + SRV_TRACES_BYTES_MAX, "\"}}");
		CU_ASSERT_NOT_EQUAL(sreq(huge, &r), AIETH_OK);
		MSG_HAS("more than 4194304 bytes together (at traces.b)");
		aieth__srv_session_req_free(&r);
		free(huge);
	}
	CU_ASSERT_NOT_EQUAL(sreq("{\"board\":\"a\",\"xclbin_sha256\":\"ABC\"}", &r), AIETH_OK);
	MSG_HAS("64 lowercase hex digits");
	aieth__srv_session_req_free(&r);
	memset(big, 'b', sizeof big);
	memcpy(big, "{\"board\":\"", 10);
	memcpy(big + 280, "\"}", 3);
	CU_ASSERT_NOT_EQUAL(sreq(big, &r), AIETH_OK);
	MSG_HAS("board: 270 bytes, the limit is 256");
	aieth__srv_session_req_free(&r);
	{
		/* 65 graphs: the count limit */
		char b[2048];
		size_t i, n = 0;
		n += (size_t)snprintf(b + n, sizeof b - n, "{\"board\":\"a\",\"graphs\":[");
		for (i = 0; i < 65; i++)
			n += (size_t)snprintf(b + n, sizeof b - n, "%s{\"name\":\"g%zu\"}",
					      i ? "," : "", i);
		snprintf(b + n, sizeof b - n, "]}");
		CU_ASSERT_NOT_EQUAL(sreq(b, &r), AIETH_OK);
		MSG_HAS("65 graphs, the limit is 64");
		aieth__srv_session_req_free(&r);
	}
	/* a session body may carry an xrt.ini: its own, larger limit */
	CU_ASSERT_EQUAL(aieth__srv_session_req_parse("{}", SRV_SESSION_BODY_MAX + 1, &r),
			AIETH_EINVAL);
	MSG_HAS("the limit is 10551296");
	aieth__srv_session_req_free(&r);
}

static void test_graph_bodies(void)
{
	int64_t it = 0;
	uint32_t ms = 7;
	CU_ASSERT_EQUAL(aieth__srv_run_req_parse("{\"iterations\":5}", 16, &it), AIETH_OK);
	CU_ASSERT_EQUAL(it, 5);
	CU_ASSERT_EQUAL(aieth__srv_run_req_parse("{\"iterations\":-1}", 17, &it), AIETH_OK);
	CU_ASSERT_EQUAL(it, -1);
	CU_ASSERT_NOT_EQUAL(aieth__srv_run_req_parse("{\"iterations\":0}", 16, &it), AIETH_OK);
	CU_ASSERT_NOT_EQUAL(aieth__srv_run_req_parse("{\"iterations\":-2}", 17, &it), AIETH_OK);
	MSG_HAS("outside -1..2147483647");
	CU_ASSERT_NOT_EQUAL(aieth__srv_run_req_parse("{\"iterations\":1.5}", 18, &it), AIETH_OK);
	CU_ASSERT_NOT_EQUAL(
		aieth__srv_run_req_parse("{\"iterations\":18446744073709551615}", 35, &it),
		AIETH_OK);
	CU_ASSERT_NOT_EQUAL(aieth__srv_run_req_parse("{}", 2, &it), AIETH_OK);
	MSG_HAS("\"iterations\" is missing");
	CU_ASSERT_NOT_EQUAL(aieth__srv_run_req_parse("", 0, &it), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__srv_wait_req_parse("", 0, &ms), AIETH_OK);
	CU_ASSERT_EQUAL(ms, 0);
	CU_ASSERT_EQUAL(aieth__srv_wait_req_parse("{\"timeout_ms\":600000}", 21, &ms), AIETH_OK);
	CU_ASSERT_EQUAL(ms, 600000);
	CU_ASSERT_NOT_EQUAL(aieth__srv_wait_req_parse("{\"timeout_ms\":600001}", 21, &ms),
			    AIETH_OK);
	CU_ASSERT_NOT_EQUAL(aieth__srv_wait_req_parse("{\"timeout\":1}", 13, &ms), AIETH_OK);
	MSG_HAS("timeout");
}

static int treq(const char *body, srv_txn_req *q)
{
	return aieth__srv_txn_req_parse(body, strlen(body), q);
}

static void test_txn_body(void)
{
	srv_txn_req q;
	char b[512];
	int i, n;
	/* 1 channel: 9 cfg words */
	n = snprintf(b, sizeof b,
		     "{\"channels\":1,\"depth\":4096,\"tx_bytes\":32,\"rx_bytes\":16,"
		     "\"cfg\":[");
	for (i = 0; i < 9; i++)
		n += snprintf(b + n, sizeof b - (size_t)n, "%s\"0x%X\"", i ? "," : "", i * 0x1111);
	snprintf(b + n, sizeof b - (size_t)n, "]}");
	CU_ASSERT_EQUAL_FATAL(treq(b, &q), AIETH_OK);
	CU_ASSERT_EQUAL(q.channels, 1);
	CU_ASSERT_EQUAL(q.depth, 4096);
	CU_ASSERT_EQUAL(q.tx_bytes, 32);
	CU_ASSERT_EQUAL(q.cfg[8], 0x8888);
	CU_ASSERT_EQUAL(q.stream, 0);
	free(q.cfg);
	/* "stream": a boolean, optional */
	snprintf(b + n, sizeof b - (size_t)n, "],\"stream\":true}");
	CU_ASSERT_EQUAL_FATAL(treq(b, &q), AIETH_OK);
	CU_ASSERT_EQUAL(q.stream, 1);
	free(q.cfg);
	snprintf(b + n, sizeof b - (size_t)n, "],\"stream\":1}");
	CU_ASSERT_EQUAL(treq(b, &q), AIETH_EINVAL);
	MSG_HAS("stream: true or false is needed");
	CU_ASSERT_PTR_NULL(q.cfg);
	CU_ASSERT_EQUAL(treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":0,\"rx_bytes\":0,"
			     "\"cfg\":[\"0x1\"]}",
			     &q),
			AIETH_EINVAL);
	MSG_HAS("cfg: 1 words, 1 channels need 9");
	CU_ASSERT_PTR_NULL(q.cfg);
	CU_ASSERT_NOT_EQUAL(treq("{\"channels\":257,\"depth\":1,\"tx_bytes\":0,\"rx_bytes\":0,"
				 "\"cfg\":[]}",
				 &q),
			    AIETH_OK);
	MSG_HAS("channels");
	CU_ASSERT_NOT_EQUAL(treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":17,\"rx_bytes\":0,"
				 "\"cfg\":[]}",
				 &q),
			    AIETH_OK);
	MSG_HAS("multiples of 16");
	CU_ASSERT_NOT_EQUAL(treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":0,"
				 "\"rx_bytes\":4294967312,\"cfg\":[]}",
				 &q),
			    AIETH_OK);
	MSG_HAS("rx_bytes");
	CU_ASSERT_NOT_EQUAL(treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":0,\"rx_bytes\":0,"
				 "\"cfg\":[\"0x1\",\"0x1\",\"0x1\",\"0x1\",\"0x1\",\"0x1\",\"0x1\","
				 "\"0x1\",\"0xg\"]}",
				 &q),
			    AIETH_OK);
	MSG_HAS("cfg[8]: not a hex digit");
	CU_ASSERT_NOT_EQUAL(treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":0,\"rx_bytes\":0,"
				 "\"cfg\":[1,2,3,4,5,6,7,8,9]}",
				 &q),
			    AIETH_OK);
	MSG_HAS("cfg[0]");
	CU_ASSERT_NOT_EQUAL(
		treq("{\"channels\":1,\"depth\":1,\"tx_bytes\":0,\"rx_bytes\":0,"
		     "\"cfg\":[\"0x12345678123456781\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\","
		     "\"0\"]}",
		     &q),
		AIETH_OK);
	MSG_HAS("1..16 hex digits");
}

/* The cfg words against the images: what a board's DMA would touch. */
static void test_txn_check(void)
{
	pld_chan_cfg tx[2], rx[2];
	uint64_t words[17];
	srv_txn_req q;
	memset(tx, 0, sizeof tx);
	memset(rx, 0, sizeof rx);
	q.channels = 2;
	q.depth = 8;
	q.cfg = words;
	q.tx_bytes = 32 * 16;
	q.rx_bytes = 16 * 16;
	tx[0].frames = 16;
	tx[1].frames = 16;
	tx[1].offset = 16;
	rx[1].frames = 16;
	aieth__pld_cfg_encode(2, PLD_MODE_FUNC, tx, rx, words);
	CU_ASSERT_EQUAL(aieth__srv_txn_check(&q), AIETH_OK);
	tx[1].offset = 17;
	aieth__pld_cfg_encode(2, PLD_MODE_FUNC, tx, rx, words);
	CU_ASSERT_EQUAL(aieth__srv_txn_check(&q), AIETH_EINVAL);
	MSG_HAS("TX channel 1 reads or writes memory words 17..32, the TX image holds 32 words");
	/* PERF: a channel replays at most the URAM depth */
	tx[1].offset = 24;
	tx[1].reps = 1000;
	aieth__pld_cfg_encode(2, PLD_MODE_PERF, tx, rx, words);
	CU_ASSERT_EQUAL(aieth__srv_txn_check(&q), AIETH_OK);
	rx[0].offset = 0xffffffffu;
	rx[0].frames = 0xffffffffu;
	aieth__pld_cfg_encode(2, PLD_MODE_PERF, tx, rx, words);
	CU_ASSERT_EQUAL(aieth__srv_txn_check(&q), AIETH_EINVAL);
	MSG_HAS("RX channel 0");
	rx[0].offset = rx[0].frames = 0;
	aieth__pld_cfg_encode(2, 7, tx, rx, words);
	CU_ASSERT_EQUAL(aieth__srv_txn_check(&q), AIETH_EINVAL);
	MSG_HAS("mode 7");
}

static void test_listen(void)
{
	unsigned char a[128];
	size_t n;
	int lo = -1;
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("127.0.0.1:8443", a, sizeof a, &n, &lo), AIETH_OK);
	CU_ASSERT_EQUAL(lo, 1);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("127.1.2.3:0", a, sizeof a, &n, &lo), AIETH_OK);
	CU_ASSERT_EQUAL(lo, 1);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("0.0.0.0:8443", a, sizeof a, &n, &lo), AIETH_OK);
	CU_ASSERT_EQUAL(lo, 0);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("[::1]:80", a, sizeof a, &n, &lo), AIETH_OK);
	CU_ASSERT_EQUAL(lo, 1);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("[::]:80", a, sizeof a, &n, &lo), AIETH_OK);
	CU_ASSERT_EQUAL(lo, 0);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("127.0.0.1:65536", a, sizeof a, &n, &lo),
			AIETH_EINVAL);
	MSG_HAS("port 65536 is above 65535");
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("127.0.0.1", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("localhost:80", a, sizeof a, &n, &lo),
			AIETH_EINVAL);
	MSG_HAS("not an IPv4 address");
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("::1:80", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("[::1:80", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse(":80", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("1.2.3.4:-1", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse("", a, sizeof a, &n, &lo), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__srv_listen_parse(NULL, a, sizeof a, &n, &lo), AIETH_EINVAL);
}

/* The server refuses a public address without tokens, and a bad token file. */
static void test_server_open_refusals(void)
{
	aieth__server_opts o;
	aieth__server *s = (aieth__server *)1;
	aieth__server_opts_init(&o, AIETH_SERVER_OPTS_VERSION);
#ifndef AIETH_HAVE_MHD
	/* built without libmicrohttpd (the aarch64 cross build) */
	o.listen = "127.0.0.1:0";
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EUNSUPPORTED);
	CU_ASSERT_PTR_NULL(s);
	return;
#endif
	o.listen = "0.0.0.0:0";
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(s);
	MSG_HAS("not a loopback address and no token file");
	o.listen = "127.0.0.1:0";
	o.token_file = tu_tmpfile("x y z\n");
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EPARSE);
	MSG_HAS("more than two fields");
	o.token_file = NULL;
	o.backend = "remote";
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EINVAL);
	MSG_HAS("emu or xrt");
	o.backend = NULL;
	{
		static const char *const dirs[] = {"/nonexistent-model-dir"};
		o.model_dirs = dirs;
		o.num_model_dirs = 1;
		CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EINVAL);
		MSG_HAS("model folder /nonexistent-model-dir: No such file");
		o.model_dirs = NULL;
		o.num_model_dirs = 0;
	}
	/* the connection limits: a total of 2..1024, a share per address
	 * no larger than it */
	o.max_conn = 1025;
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EINVAL);
	MSG_HAS("max_conn 1025: HTTP connections in all must be 2..1024");
	o.max_conn = 16;
	o.max_conn_per_addr = 17;
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_EINVAL);
	MSG_HAS("max_conn_per_addr 17: more than max_conn 16");
	o.max_conn = 0;
	o.max_conn_per_addr = 9; /* the total's default, 64 */
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_OK);
	aieth__server_close(s);
	o.max_conn_per_addr = 0;
	CU_ASSERT_EQUAL(aieth__server_open(&s, &o), AIETH_OK);
	CU_ASSERT_NOT_EQUAL(aieth__server_port(s), 0);
	aieth__server_tick(s);
	aieth__server_close(s);
}

/* --max-session: a holder past the limit keeps the device while nobody
 * waits; once a session waits, the tick ends it (expired, the limit named,
 * its device call's interrupt flag set) and the waiting one gets the device. */
static void test_max_session(void)
{
#ifdef AIETH_HAVE_MHD
	static const char body[] = "{\"board\":\"vck190\"}";
	aieth__server_opts so;
	aieth__server *srv = NULL;
	srv_session_req q;
	srv_sess *a, *b;
	ss_state st = SS_QUEUED;
	char msg[600];
	int i;

	aieth__server_opts_init(&so, AIETH_SERVER_OPTS_VERSION);
	so.listen = "127.0.0.1:0";
	so.max_session_s = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__server_open(&srv, &so), AIETH_OK);
	memset(&q, 0, sizeof q);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_session_req_parse(body, strlen(body), &q), AIETH_OK);
	a = aieth__srv_sess_new("alice", &q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sess_enqueue(srv, a, msg, sizeof msg), SRV_Q_OK);
	pthread_mutex_lock(&srv->mu);
	aieth__srv_wait_open_locked(srv, a, 30000);
	CU_ASSERT_EQUAL(a->state, SS_ACTIVE);
	a->active_ms -= 5000; /* it has held the device 5 s */
	pthread_mutex_unlock(&srv->mu);
	aieth__server_tick(srv);
	pthread_mutex_lock(&srv->mu);
	CU_ASSERT_EQUAL(a->state, SS_ACTIVE); /* nobody waits */
	CU_ASSERT_EQUAL(a->intr, 0);
	pthread_mutex_unlock(&srv->mu);

	CU_ASSERT_EQUAL_FATAL(aieth__srv_session_req_parse(body, strlen(body), &q), AIETH_OK);
	b = aieth__srv_sess_new("bob", &q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sess_enqueue(srv, b, msg, sizeof msg), SRV_Q_OK);
	pthread_mutex_lock(&srv->mu);
	CU_ASSERT_EQUAL(b->state, SS_QUEUED);
	pthread_mutex_unlock(&srv->mu);
	aieth__server_tick(srv);
	pthread_mutex_lock(&srv->mu);
	CU_ASSERT_EQUAL(a->state, SS_EXPIRED);
	CU_ASSERT_EQUAL(a->intr, 1);
	if (!strstr(a->reason, "while 1 session waited, the limit is --max-session 1 s"))
		fprintf(stderr, "\n  reason: %s\n", a->reason);
	CU_ASSERT_PTR_NOT_NULL(strstr(a->reason, "while 1 session waited, the limit is "
						 "--max-session 1 s"));
	pthread_mutex_unlock(&srv->mu);
	/* a's device is closed by the opener thread, then b's opened: polled,
	 * 30 s at most */
	for (i = 0; i < 3000; i++) {
		struct timespec ts = {0, 10 * 1000000L};
		pthread_mutex_lock(&srv->mu);
		st = b->state;
		pthread_mutex_unlock(&srv->mu);
		if (st != SS_QUEUED)
			break;
		nanosleep(&ts, NULL);
	}
	CU_ASSERT_EQUAL(st, SS_ACTIVE);
	aieth__server_close(srv);
#endif
}

/* An in-process server on loopback and the options of a session of
 * backend "remote" on it, for one graph (name, model): what the tests of
 * remote sessions share. max_session_s: the server's --max-session (0:
 * none). f->srv is NULL when the server did not open. */
#ifdef AIETH_HAVE_MHD
typedef struct {
	aieth__server *srv;
	aieth_session_opts o;
	aieth_remote_opts remote;
	aieth_graph_spec g;
	char url[64];
} remote_fix;

static void remote_fix_open(remote_fix *f, const char *name, const char *model,
			    uint32_t max_session_s)
{
	aieth__server_opts so;
	memset(f, 0, sizeof *f);
	aieth__server_opts_init(&so, AIETH_SERVER_OPTS_VERSION);
	so.listen = "127.0.0.1:0";
	so.max_session_s = max_session_s;
	if (aieth__server_open(&f->srv, &so) != AIETH_OK) {
		fprintf(stderr, "\n  server: %s\n", aieth_error_message());
		f->srv = NULL;
		return;
	}
	snprintf(f->url, sizeof f->url, "http://127.0.0.1:%u",
		 (unsigned)aieth__server_port(f->srv));
	aieth_remote_opts_init(&f->remote, AIETH_REMOTE_OPTS_VERSION);
	f->remote.server = f->url;
	f->g.name = name;
	f->g.model = model;
	aieth_session_opts_init(&f->o, AIETH_SESSION_OPTS_VERSION);
	f->o.remote = &f->remote;
	f->o.board = "vck190";
	f->o.backend = "remote";
	f->o.graphs = &f->g;
	f->o.num_graphs = 1;
}
#endif

/* An in-process server and a session of backend "remote" on it: graph
 * control and run-time parameters cross HTTP both ways. */
static void test_remote_session(void)
{
#ifdef AIETH_HAVE_MHD
	remote_fix f;
	aieth_session *s = NULL;
	uint8_t in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, out[12];
	uint64_t done = 99;

	remote_fix_open(&f, "gr", "adder", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.srv);
	if (aieth_session_open(&s, &f.o) != AIETH_OK)
		fprintf(stderr, "\n  open: %s\n", aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(aieth_session_backend(s), "remote");
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_session_server(s), "th_server"));
	CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, "gr", "gr.k.in[1]", in, sizeof in), AIETH_OK);
	memset(out, 0, sizeof out);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[1]", out, sizeof out), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(in, out, sizeof in), 0);
	CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, "gr", "gr.k.in[2]", out, sizeof out),
			AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 2), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_iterations_done(s, "gr", &done), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_wait(s, "gr", 10), AIETH_ETIMEOUT); /* no data: stalls */
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_OK);
	aieth_session_close(s);
	aieth__server_close(f.srv);
#endif
}

/* A session the server ended between two of the client's calls
 * (--max-session while another waits): the next call's 409 is the
 * server's doing, an infrastructure error naming the reason, not a state
 * error of the caller's (which run_test reports as an input mistake). */
static void test_remote_ended_between(void)
{
#ifdef AIETH_HAVE_MHD
	static const char body[] = "{\"board\":\"vck190\"}";
	remote_fix f;
	aieth__server *srv;
	aieth_session *s = NULL;
	srv_session_req q;
	srv_sess *a, *b;
	char msg[600];

	remote_fix_open(&f, "gr", "adder", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(srv = f.srv);
	CU_ASSERT_EQUAL_FATAL(aieth_session_open(&s, &f.o), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 2), AIETH_OK);
	/* it has held the device 5 s and another session waits: the tick
	 * ends it while the client is between calls */
	pthread_mutex_lock(&srv->mu);
	a = srv->queue.sessions;
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->state, SS_ACTIVE);
	a->active_ms -= 5000;
	pthread_mutex_unlock(&srv->mu);
	memset(&q, 0, sizeof q);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_session_req_parse(body, strlen(body), &q), AIETH_OK);
	b = aieth__srv_sess_new("bob", &q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sess_enqueue(srv, b, msg, sizeof msg), SRV_Q_OK);
	aieth__server_tick(srv);
	pthread_mutex_lock(&srv->mu);
	CU_ASSERT_EQUAL(a->state, SS_EXPIRED);
	pthread_mutex_unlock(&srv->mu);
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_EDEVICE);
	MSG_HAS("ended session");
	MSG_HAS("--max-session 1 s");
	aieth_session_close(s);
	aieth__server_close(srv);
#endif
}

/* Graph names as a test description may have them (ADF's top.gr[0], a
 * space, UTF-8, '%') cross the URLs percent-encoded; a '/' is refused when
 * the session is created. */
static void test_remote_graph_names(void)
{
#ifdef AIETH_HAVE_MHD
	static const char *const names[] = {"top.gr[0]", "my graph %2f \xc3\xa9", "..", NULL};
	remote_fix f;
	aieth_session *s = NULL;
	uint8_t in[4] = {1, 2, 3, 4}, out[4];
	char port[300];
	uint64_t done = 99;
	size_t i;

	remote_fix_open(&f, "a/b", "adder", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.srv);
	CU_ASSERT_EQUAL(aieth_session_open(&s, &f.o), AIETH_EINVAL);
	MSG_HAS("\"a/b\" has a '/'");
	for (i = 0; names[i]; i++) {
		f.g.name = names[i];
		s = NULL;
		if (aieth_session_open(&s, &f.o) != AIETH_OK)
			fprintf(stderr, "\n  open %s: %s\n", names[i], aieth_error_message());
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(aieth_graph_run(s, names[i], 2), AIETH_OK);
		CU_ASSERT_EQUAL(aieth_graph_iterations_done(s, names[i], &done), AIETH_OK);
		snprintf(port, sizeof port, "%s.k.in[1]", names[i]);
		CU_ASSERT_EQUAL(aieth_graph_update_rtp(s, names[i], port, in, sizeof in), AIETH_OK);
		memset(out, 0, sizeof out);
		CU_ASSERT_EQUAL(aieth_graph_read_rtp(s, names[i], port, out, sizeof out), AIETH_OK);
		CU_ASSERT_EQUAL(memcmp(in, out, sizeof in), 0);
		CU_ASSERT_EQUAL(aieth_graph_end(s, names[i]), AIETH_OK);
		aieth_session_close(s);
	}
	aieth__server_close(f.srv);
#endif
}

/* th_server's device calls (aieth__srv_txn_start, aieth__srv_txn_wait, the graph status)
 * go through the library's one-call-at-a-time guard: while another call is
 * inside the session (held here as a running public call holds it) each
 * fails with AIETH_ESTATE and the guard's message before the backend is
 * called; once the session is free the same calls run the transaction. */
static uint64_t moved(const aieth_dev_txn *d, const char *key, uint32_t i)
{
	char *text = aieth_dev_txn_result_json(d);
	struct json_object *o = text ? json_tokener_parse(text) : NULL, *a;
	uint64_t v = UINT64_MAX;
	if (o && json_object_object_get_ex(o, key, &a))
		v = json_object_get_uint64(json_object_array_get_idx(a, (int)i));
	json_object_put(o);
	free(text);
	return v;
}

static void test_device_guard(void)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	const aieth_board_info *bi;
	aieth_plio pl[2];
	pld_arg pa[2];
	pld_txn w;
	uint8_t in[64], out[64];
	char err[256];
	aieth__server srv;
	srv_sess x;
	srv_txn t;
	aieth_dev_txn *dev;
	uint64_t done = 7;
	int complete = 7, i, busy;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER), AIETH_OK);
	bi = aieth_board_get_info(aieth_session_board(s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(bi);
	CU_ASSERT_EQUAL_FATAL(
		aieth_board_plio_find(aieth_session_board(s), "PLIO_01_TO_AIE", &pl[0]), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(
		aieth_board_plio_find(aieth_session_board(s), "PLIO_01_FROM_AIE", &pl[1]),
		AIETH_OK);
	for (i = 0; i < 64; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	memset(out, 0, sizeof out);
	memset(pa, 0, sizeof pa);
	for (i = 0; i < 2; i++) {
		pa[i].dir = pl[i].dir == AIETH_DIR_TO_AIE ? 0 : 1;
		pa[i].index = pl[i].index;
		pa[i].size = 64;
		pa[i].reps = 1;
	}
	memset(&srv, 0, sizeof srv);
	pthread_mutex_init(&srv.mu, NULL);
	memset(&x, 0, sizeof x);
	pthread_mutex_init(&x.call, NULL);
	x.dev = s;
	/* the cfg words of a FUNC transaction of one 64-byte channel each way:
	 * the images are those 64 bytes (pld/protocol.h) */
	CU_ASSERT_EQUAL_FATAL(aieth__pld_txn_encode(&w, bi->channels, bi->uram_depth_words,
						    PLD_MODE_FUNC, pa, 2, err, sizeof err),
			      0);
	CU_ASSERT_EQUAL_FATAL(w.tx.size, 64);
	CU_ASSERT_EQUAL_FATAL(w.rx.size, 64);
	memset(&t, 0, sizeof t);
	t.channels = bi->channels;
	t.depth = bi->uram_depth_words;
	t.cfg = malloc(pld_cfg_count(t.channels) * sizeof *t.cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t.cfg);
	memcpy(t.cfg, w.cfg, pld_cfg_count(t.channels) * sizeof *t.cfg);
	aieth__pld_txn_release(&w);
	t.txbuf = in;
	t.rxbuf = out;
	t.tx_size = t.rx_size = 64;

	/* another call is inside the session */
	CU_ASSERT_EQUAL_FATAL(aieth__session_enter(s, "another call"), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__srv_txn_start(&srv, &x, &t), AIETH_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "another thread is inside a call"));
	CU_ASSERT_PTR_NULL(t.dev);
	CU_ASSERT_EQUAL(aieth_graph_status(s, "gr", &done, &complete), AIETH_ESTATE);
	CU_ASSERT_EQUAL(done, 7);
	CU_ASSERT_EQUAL(complete, 7);
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_ESTATE); /* as the public API */
	aieth__session_leave(s);

	/* free: it starts; its wait meets the guard too, then runs it (the RX
	 * image is the TX data) */
	CU_ASSERT_EQUAL(aieth__srv_txn_start(&srv, &x, &t), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t.dev);
	CU_ASSERT_EQUAL_FATAL(aieth__session_enter(s, "another call"), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_txn_wait(t.dev, 0), AIETH_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "another thread is inside a call"));
	aieth__session_leave(s);
	CU_ASSERT_EQUAL(aieth__srv_txn_wait(&srv, &x, &t, 0, &busy), AIETH_OK);
	CU_ASSERT_EQUAL(busy, 0);
	CU_ASSERT_EQUAL(t.state, ST_FINISHED);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t.dev), AIETH_TXN_DONE);
	CU_ASSERT_EQUAL(moved(t.dev, "tx_moved_bytes", pl[0].index), 64);
	CU_ASSERT_EQUAL(moved(t.dev, "rx_moved_bytes", pl[1].index), 64);
	CU_ASSERT_EQUAL(memcmp(in, out, sizeof in), 0);
	CU_ASSERT_EQUAL(srv.stats.txn_status[AIETH_TXN_DONE], 1);
	/* waited once: a second wait is refused */
	CU_ASSERT_EQUAL(aieth_dev_txn_wait(t.dev, 0), AIETH_ESTATE);
	CU_ASSERT_EQUAL(aieth_graph_status(s, "gr", &done, &complete), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_graph_status(s, "nope", &done, &complete), AIETH_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "\"gr\""));
	/* cfg words of another geometry are refused before the backend; the
	 * started transaction stays t's */
	dev = t.dev;
	t.channels++;
	CU_ASSERT_EQUAL(aieth__srv_txn_start(&srv, &x, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "cfg words"));
	CU_ASSERT_PTR_EQUAL(t.dev, dev);
	t.channels--;
	t.depth++;
	CU_ASSERT_EQUAL(aieth__srv_txn_start(&srv, &x, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "depth"));
	t.depth--;
	CU_ASSERT_EQUAL(aieth_graph_end(s, "gr"), AIETH_OK);
	aieth_session_close(s);
	/* a closed session: no device, the result still there */
	CU_ASSERT_PTR_NULL(aieth_session_board(s));
	CU_ASSERT_EQUAL(aieth_dev_streams(s), 0);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t.dev), AIETH_TXN_DONE);
	aieth_dev_txn_free(t.dev);
	free(t.cfg);
	pthread_mutex_destroy(&x.call);
	pthread_mutex_destroy(&srv.mu);
}

/* aieth__server_opts is versioned: refused before anything binds. */
static void test_server_opts_version(void)
{
	aieth__server *srv = NULL;
	aieth__server_opts o = AIETH_SERVER_OPTS_INIT;
	TU_OPTS_INIT(aieth__server_opts, AIETH_SERVER_OPTS_INIT, aieth__server_opts_init,
		     AIETH_SERVER_OPTS_VERSION);
	o.listen = "127.0.0.1:0";
	TU_OPTS_REFUSED(aieth__server_open(&srv, &o), o.version, "aieth_server_opts",
			"AIETH_SERVER_OPTS_INIT or aieth_server_opts_init",
			AIETH_SERVER_OPTS_VERSION);
	CU_ASSERT_PTR_NULL(srv);
}

/* aieth_session_sensors: the emulated board has none; a remote session
 * reads its server's tree (the server's AIETH_SYSFS_ROOT, root). */
static void sensors_session(const char *root)
{
	aieth_sensor out[4];
	char notes[512];
	size_t n = 99;
	aieth_session *s = tu_session("vck190", "loopback", NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth_session_sensors(s, out, 4, NULL, NULL, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_session_sensors(s, NULL, 4, &n, NULL, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_session_sensors(s, out, 4, &n, NULL, 0), AIETH_EUNSUPPORTED);
	MSG_HAS("backend emu: the emulated board has no sensors");
	CU_ASSERT_EQUAL(n, 0);
	aieth_session_close(s);
	CU_ASSERT_EQUAL(aieth_session_sensors(s, out, 4, &n, NULL, 0), AIETH_EINVAL);
#if defined(AIETH_HAVE_MHD) && defined(AIETH_HAVE_CURL)
	{
		remote_fix f;
		remote_fix_open(&f, "gr", "loopback", 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f.srv);
		s = NULL;
		CU_ASSERT_EQUAL_FATAL(aieth_session_open(&s, &f.o), AIETH_OK);
		CU_ASSERT_EQUAL_FATAL(aieth_session_sensors(s, out, 4, &n, notes, sizeof notes),
				      AIETH_OK);
		CU_ASSERT_EQUAL(n, 1);
		CU_ASSERT_STRING_EQUAL(out[0].name, "ina226@hwmon0/power1");
		CU_ASSERT_EQUAL(out[0].kind, AIETH_SENSOR_POWER);
		CU_ASSERT_EQUAL(out[0].valid, 1);
		CU_ASSERT_DOUBLE_EQUAL(out[0].value, 3.0, 1e-9);
		CU_ASSERT_PTR_NOT_NULL(strstr(notes, "slow@hwmon1/temp1: "));
		CU_ASSERT_PTR_NULL(strstr(notes, root));
		aieth_session_close(s);
		aieth__server_close(f.srv);
	}
#else
	(void)notes;
	(void)root;
#endif
}

/* GET /v1/sensors (srv_sensors.c): the route; a tree's sensors read at
 * most once per SRV_SENSORS_MIN_MS (the answer between is the same text),
 * names only (no path of the tree, a FIFO left out with a note naming the
 * sensor); no tree on the emulated board: "available" false. */
static void test_sensors_reply(void)
{
	char root[] = "/tmp/aieth-srv-sensors-XXXXXX", p[300], cmd[400];
	char *t = NULL, *t2 = NULL;
	size_t len = 0;
	srv_sensors *z;
	srv_route r;
	aieth__srv_route_parse("/v1/sensors", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_SENSORS);
	CU_ASSERT_STRING_EQUAL(aieth__srv_route_methods(SRV_R_SENSORS), "GET");
	aieth__srv_route_parse("/v1/sensors/x", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	tu_mkdir(root, "class");
	tu_mkdir(root, "class/hwmon");
	tu_mkdir(root, "class/hwmon/hwmon0");
	tu_mkdir(root, "class/hwmon/hwmon1");
	tu_put(root, "class/hwmon/hwmon0/name", "ina226\n");
	tu_put(root, "class/hwmon/hwmon0/power1_input", "2500000\n");
	tu_put(root, "class/hwmon/hwmon1/name", "slow\n");
	snprintf(p, sizeof p, "%s/class/hwmon/hwmon1/temp1_input", root);
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0600), 0);
	setenv("AIETH_SYSFS_ROOT", root, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(z = aieth__srv_sensors_new("emu"));
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sensors_reply(z, 1000, &t, &len), AIETH_OK);
	CU_ASSERT_EQUAL(len, strlen(t));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"available\":true"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t,
				      "{\"name\":\"ina226@hwmon0/power1\",\"source\":\"hwmon:"
				      "ina226\",\"kind\":\"power\",\"unit\":\"W\",\"value\":2.5}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"slow@hwmon1/temp1: "));
	CU_ASSERT_PTR_NULL(strstr(t, root));
	CU_ASSERT_PTR_NULL(strstr(t, "class/hwmon"));
	CU_ASSERT_PTR_NULL(strstr(t, "\"path\""));
	/* a new value within 100 ms: the same answer; then read again */
	tu_put(root, "class/hwmon/hwmon0/power1_input", "3000000\n");
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sensors_reply(z, 1000 + SRV_SENSORS_MIN_MS - 1, &t2, &len),
			      AIETH_OK);
	CU_ASSERT_STRING_EQUAL(t2, t);
	free(t2);
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sensors_reply(z, 1000 + SRV_SENSORS_MIN_MS, &t2, &len),
			      AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(t2, "\"value\":3.0}"));
	free(t2);
	free(t);
	sensors_session(root);
	/* a sensor gone: null, then (3 times in a row) a note, never an error */
	snprintf(p, sizeof p, "%s/class/hwmon/hwmon0/power1_input", root);
	CU_ASSERT_EQUAL(unlink(p), 0);
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(
			aieth__srv_sensors_reply(z, 2000 + i * SRV_SENSORS_MIN_MS, &t, &len),
			AIETH_OK);
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"value\":null}"));
		if (i < 2)
			free(t);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "ina226@hwmon0/power1: missing (3 times in a row): no "
					 "longer read"));
	CU_ASSERT_PTR_NULL(strstr(t, root));
	free(t);
	aieth__srv_sensors_free(z);
	/* no tree: the emulated board has no sensors; xrt reads /sys */
	unsetenv("AIETH_SYSFS_ROOT");
	CU_ASSERT_PTR_NOT_NULL_FATAL(z = aieth__srv_sensors_new("emu"));
	CU_ASSERT_EQUAL_FATAL(aieth__srv_sensors_reply(z, 1000, &t, &len), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(t, "{\"available\":false,\"sensors\":[],\"notes\":[]}");
	free(t);
	aieth__srv_sensors_free(z);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

TU_MAIN("server", {"options version", test_server_opts_version},
	{"th_server's device calls go through core's guard", test_device_guard},
	{"token file", test_tokens_ok}, {"token file refusals", test_tokens_bad},
	{"token file from disk", test_tokens_file}, {"routes", test_routes},
	{"RTP read size", test_rtp_size}, {"bearer header", test_bearer},
	{"session request body", test_session_body}, {"graph request bodies", test_graph_bodies},
	{"transaction request body", test_txn_body},
	{"transaction cfg words against the images", test_txn_check},
	{"listen address", test_listen}, {"server open refusals", test_server_open_refusals},
	{"--max-session ends a holder when another waits", test_max_session},
	{"a remote session on an in-process server", test_remote_session},
	{"a remote session the server ended between calls", test_remote_ended_between},
	{"graph names remotely", test_remote_graph_names},
	{"GET /v1/sensors: bounded reads, names only", test_sensors_reply})
