/* SPDX-License-Identifier: MIT */
/*
 * fuzz_xrt_proto.c - the decoders of the xrt backend's parent/child
 * protocol (xrt_proto.c): every reply from the child is untrusted input.
 * The first byte picks the decoder; a decoded message is encoded again and
 * must decode to the same message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/xrt/xrt_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static xrtp_open_req o1, o2;
	static xrtp_open_rep r1, r2;
	static xrtp_txn_req t1, t2;
	static xrtp_txn_rep p1, p2;
	sbuf b = SB_INIT(XRTP_MAX_PAYLOAD);
	if (size < 1)
		return 0;
	switch (data[0] % 4) {
	case 0:
		if (aieth__xrtp_decode_open(data + 1, size - 1, &o1) == 0) {
			aieth__xrtp_encode_open(&b, &o1);
			if (b.oom || aieth__xrtp_decode_open(b.u, b.n, &o2) ||
			    memcmp(&o1, &o2, sizeof o1))
				abort();
		}
		break;
	case 1:
		if (aieth__xrtp_decode_open_rep(data + 1, size - 1, &r1) == 0) {
			aieth__xrtp_encode_open_rep(&b, &r1);
			if (b.oom || aieth__xrtp_decode_open_rep(b.u, b.n, &r2) ||
			    memcmp(&r1, &r2, sizeof r1))
				abort();
		}
		break;
	case 2:
		if (aieth__xrtp_decode_txn(data + 1, size - 1, &t1) == 0) {
			aieth__xrtp_encode_txn(&b, &t1);
			if (b.oom || aieth__xrtp_decode_txn(b.u, b.n, &t2) ||
			    memcmp(t1.cfg, t2.cfg, t1.ncfg * sizeof t1.cfg[0]))
				abort();
		}
		break;
	default:
		if (aieth__xrtp_decode_txn_rep(data + 1, size - 1, &p1) == 0) {
			aieth__xrtp_encode_txn_rep(&b, &p1);
			if (b.oom || aieth__xrtp_decode_txn_rep(b.u, b.n, &p2) ||
			    memcmp(p1.perf, p2.perf, p1.nperf * sizeof p1.perf[0]))
				abort();
		}
		break;
	}
	aieth__sb_free(&b);
	return 0;
}
