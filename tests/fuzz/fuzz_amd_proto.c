/* SPDX-License-Identifier: MIT */
/*
 * fuzz_amd_proto.c - the decoder of AMD's client/server protocol
 * (server/amd/amd_proto.c): every byte from a client (server side) or a server
 * (client side) is untrusted input.
 *
 * Input: byte 0 picks the side, the board (VCK190 or VEK280), the reply
 * sequence of a client and how bulk payloads are taken (feed or
 * room/advance, bit 6); byte 1 is the piece size (0: all at once). The rest is the
 * stream. Invariants: the decoder never takes more than it is given,
 * decoded runTestHarness requests add up to their announced bytes, names
 * are bounded and returned file names are plain; small requests decoded
 * are encoded again and must decode to the same message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "th_server/amd/amd_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const amdp_kind REPLIES[] = {AMDP_R_AVAILABLE, AMDP_R_MGR_DEVICE, AMDP_R_MAX_MEM,
				    AMDP_R_ACCEPTED,  AMDP_R_STATUS,     AMDP_R_WAIT_TH,
				    AMDP_R_GRAPHS,    AMDP_R_TIMEOUT,    AMDP_R_FILES};

/* Encode a small request again, decode it behind an empty handshake and
 * compare. */
static void roundtrip(const amdp_geom *g, const amdp_msg *m)
{
	static amdp_dec d2;
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	int r = 0;
	switch (m->kind) {
	case AMDP_Q_QUERY: r = aieth__amdp_enc_req_query(&b, m->id); break;
	case AMDP_Q_WAIT_TH: r = aieth__amdp_enc_req_wait_th(&b, m->id, m->timeout); break;
	case AMDP_Q_RUN_GRAPH:
		r = aieth__amdp_enc_req_run_graph(&b, m->graph_index, m->iterations);
		break;
	case AMDP_Q_WAIT_GRAPH: r = aieth__amdp_enc_req_wait_graph(&b, m->timeout); break;
	case AMDP_Q_SET_TIMEOUT: r = aieth__amdp_enc_req_set_timeout(&b, m->value); break;
	case AMDP_Q_UPDATE_PORT:
		r = aieth__amdp_enc_req_update_port(&b, m->graph_index, m->port, m->rtp_raw);
		break;
	case AMDP_Q_READ_PORT:
		r = aieth__amdp_enc_req_read_port(&b, m->graph_index, m->port, m->rtp_size);
		break;
	default: return;
	}
	CHECK(r == 0);
	static const uint8_t hello[9] = {1};
	size_t used;
	CHECK(aieth__amdp_dec_init(&d2, AMDP_SERVER, g) == 0);
	CHECK(aieth__amdp_dec_feed(&d2, hello, 9, &used) == AMDP_EV_MSG && used == 9);
	CHECK(aieth__amdp_dec_feed(&d2, b.u, b.n, &used) == AMDP_EV_MSG && used == b.n);
	CHECK(memcmp(&d2.msg, m, sizeof *m) == 0);
	aieth__sb_free(&b);
}

static void check_msg(const amdp_dec *d)
{
	const amdp_msg *m = &d->msg;
	CHECK(strlen(m->device) <= AMDP_MAX_NAME && strlen(m->port) <= AMDP_MAX_NAME);
	CHECK(m->nfiles <= AMDP_MAX_FILES && m->ngraphs <= AMDP_MAX_GRAPHS);
	for (uint32_t i = 0; i < m->nfiles; i++)
		CHECK(strlen(m->file[i]) <= AMDP_MAX_NAME);
	if (m->kind == AMDP_Q_RUN) {
		CHECK(m->ncfg == 8 * d->geom.n + 1);
		CHECK(aieth__amdp_txn_bytes(d->geom.n, m->to_aie_len, m->from_aie_len) ==
		      m->txn_bytes);
		(void)aieth__amdp_txn_check(&d->geom, m);
	}
	if (m->kind == AMDP_R_FILES || m->kind == AMDP_Q_MGR)
		for (uint32_t i = 0; i < m->nfiles; i++)
			CHECK(aieth__amdp_check_name("f", m->file[i], strlen(m->file[i])) == 0);
	if (m->kind == AMDP_R_WAIT_TH)
		CHECK(m->nperf == 4 * d->geom.n);
	if (d->side == AMDP_SERVER)
		roundtrip(&d->geom, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static amdp_dec d;
	static uint8_t sink[1 << 16];
	static const amdp_geom g36 = {36, 16, 4096, 16}, g16 = {16, 16, 8192, 16};
	if (size < 2)
		return 0;
	uint8_t ctl = data[0];
	size_t step = data[1];
	data += 2;
	size -= 2;
	amdp_side side = (ctl & 1) ? AMDP_CLIENT : AMDP_SERVER;
	int use_room = (ctl >> 6) & 1;
	unsigned nexp = (ctl >> 2) & 15;
	unsigned nmsg = 0;
	CHECK(aieth__amdp_dec_init(&d, side, (ctl & 2) ? &g16 : &g36) == 0);
	if (side == AMDP_CLIENT) {
		amdp_kind k = REPLIES[nexp++ % 9];
		CHECK(aieth__amdp_dec_expect(&d, k == AMDP_R_WAIT_TH ? AMDP_R_MGR_DEVICE : k) == 0);
	}
	size_t pos = 0;
	while (pos < size) {
		size_t n = step ? step : size;
		if (n > size - pos)
			n = size - pos;
		size_t used = 0;
		int r = aieth__amdp_dec_feed(&d, data + pos, n, &used);
		CHECK(used <= n);
		pos += used;
		if (r < 0)
			return 0;
		if (r == AMDP_EV_MORE) {
			CHECK(used == n);
		} else if (r == AMDP_EV_BULK) {
			uint64_t len = d.bulk_len;
			aieth__amdp_dec_sink(&d, len <= sizeof sink ? sink : NULL);
			if (use_room && len <= sizeof sink) {
				uint64_t room;
				uint8_t *p = aieth__amdp_dec_room(&d, &room);
				CHECK(p == sink && room == len);
				uint64_t k = room < size - pos ? room : size - pos;
				memcpy(p, data + pos, k);
				pos += k;
				r = aieth__amdp_dec_advance(&d, k);
				if (r < 0)
					return 0;
				if (r == AMDP_EV_MSG)
					goto msg;
			}
		} else {
		msg:
			CHECK(r == AMDP_EV_MSG);
			check_msg(&d);
			nmsg++;
			if (d.msg.kind == AMDP_Q_MGR_DEVICE || d.msg.kind == AMDP_Q_RUN_BYTES)
				aieth__amdp_dec_continue(&d, (nmsg & 1) || !(ctl & 0x80));
			if (side == AMDP_CLIENT) {
				amdp_kind k = REPLIES[nexp++ % 9];
				if (k == AMDP_R_WAIT_TH && d.geom.n == 0)
					k = AMDP_R_MGR_DEVICE;
				CHECK(aieth__amdp_dec_expect(&d, k) == 0);
			}
		}
	}
	return 0;
}
