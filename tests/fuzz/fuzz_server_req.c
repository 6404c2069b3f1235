/* SPDX-License-Identifier: MIT */
/*
 * fuzz_server_req.c - libFuzzer target for th_server's request parsing:
 * the input is a request path, a bearer header, a session body (with its
 * design sha256 and xrt.ini), graph bodies, an artifact name and a token
 * file at once (server/srv_route.c, srv_tokens.c).
 *
 * Invariants: every parse returns; a failure leaves a message; a parsed
 * session has at most 64 graphs with non-empty, bounded names without '/',
 * at most 16 traces with plain file names and 4 MiB together; a parsed
 * token file has 1..1024 tokens, each found by its own token.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "th_server/srv_route.h"
#include "th_server/srv_tokens.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	srv_route r;
	srv_session_req q;
	srv_tokens t;
	const char *tok;
	size_t tl, i;
	int64_t it = 0;
	uint32_t ms = 0;
	unsigned char addr[128];
	size_t alen;
	int lo;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	aieth__srv_route_parse(text, &r);
	CHECK(strlen(r.sid) <= SRV_ID_MAX && strlen(r.graph) <= SRV_NAME_MAX);
	if (r.kind == SRV_R_XCLBIN)
		CHECK(aieth__srv_sha256_text_ok(r.sha));
	if (r.kind == SRV_R_ARTIFACT)
		CHECK(strlen(r.name) <= SRV_NAME_MAX && r.name[0]);
	if (aieth__srv_artifact_name_ok(text))
		CHECK(!strchr(text, '/') && text[0] != '.' && strlen(text) <= 255);
	if (aieth__srv_file_name_ok(text, SRV_TRACE_NAME_MAX))
		CHECK(!strchr(text, '/') && text[0] != '.' && !strstr(text, "..") &&
		      strlen(text) <= SRV_TRACE_NAME_MAX);
	(void)aieth__srv_route_methods(r.kind);
	if (aieth__srv_bearer(text, &tok, &tl) == 0)
		CHECK(tl > 0 && tok >= text && tok + tl <= text + size);
	(void)aieth__srv_listen_parse(text, addr, sizeof addr, &alen, &lo);

	if (aieth__srv_session_req_parse(text, size, &q) == AIETH_OK) {
		CHECK(q.ngraphs <= SRV_GRAPHS_MAX && q.board[0]);
		size_t tb = 0;
		for (i = 0; i < q.ngraphs; i++)
			CHECK(q.graphs[i].name[0] && strlen(q.graphs[i].name) <= SRV_NAME_MAX &&
			      !strchr(q.graphs[i].name, '/'));
		CHECK(q.ntraces <= SRV_TRACES_MAX);
		for (i = 0; i < q.ntraces; i++) {
			CHECK(aieth__srv_file_name_ok(q.traces[i].name, SRV_TRACE_NAME_MAX));
			CHECK(q.traces[i].text && strlen(q.traces[i].text) == q.traces[i].len);
			tb += q.traces[i].len;
		}
		CHECK(tb <= SRV_TRACES_BYTES_MAX);
		CHECK(!q.xclbin_sha256[0] || aieth__srv_sha256_text_ok(q.xclbin_sha256));
		CHECK(!q.xrt_ini || (q.xrt_ini_len && q.xrt_ini_len <= SRV_XRT_INI_MAX &&
				     strlen(q.xrt_ini) == q.xrt_ini_len));
	} else {
		CHECK(aieth_error_message()[0]);
	}
	aieth__srv_session_req_free(&q);
	if (aieth__srv_run_req_parse(text, size, &it) == AIETH_OK)
		CHECK(it == -1 || (it >= 1 && it <= INT32_MAX));
	{
		unsigned lv = 0, sk = 0, ch = 0;
		if (aieth__srv_validate_req_parse(text, size, &lv, &sk, &ch) == AIETH_OK)
			CHECK(lv >= 1 && lv <= 3 && sk <= SRV_VALIDATE_SOAK_MAX &&
			      ch <= SRV_VALIDATE_CHANNELS_MAX);
		else
			CHECK(aieth_error_message()[0]);
	}
	if (aieth__srv_wait_req_parse(text, size, &ms) == AIETH_OK)
		CHECK(ms <= SRV_WAIT_MS_MAX);

	{
		srv_txn_req tq;
		if (aieth__srv_txn_req_parse(text, size, &tq) == AIETH_OK) {
			CHECK(tq.cfg && tq.channels >= 1 && tq.channels <= SRV_CHANNELS_MAX);
			CHECK(tq.tx_bytes % 16 == 0 && tq.rx_bytes <= SRV_IMAGE_MAX);
			CHECK(tq.stream == 0 || tq.stream == 1);
			(void)aieth__srv_txn_check(&tq);
			free(tq.cfg);
		} else {
			CHECK(tq.cfg == NULL);
		}
	}
	if (aieth__srv_tokens_parse(&t, "fuzz", (const char *)data, size) == AIETH_OK) {
		CHECK(t.n >= 1 && t.n <= SRV_TOKENS_MAX);
		for (i = 0; i < t.n; i++)
			CHECK(aieth__srv_tokens_check(&t, t.v[i].token, t.v[i].tlen) != NULL);
		aieth__srv_tokens_free(&t);
	} else {
		CHECK(aieth_error_message()[0] && t.n == 0);
	}
	free(text);
	return 0;
}
