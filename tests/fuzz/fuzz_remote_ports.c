/* SPDX-License-Identifier: MIT */
/*
 * fuzz_remote_ports.c - libFuzzer target for the remote backend's reading
 * of th_server's GET .../graphs/NAME/ports reply (aieth__rmr_graph_ports,
 * backends/remote/remote_reply.c): the first byte is the caller's room
 * (cap 0..63 ports), the rest the reply body as the backend parses it
 * (strict JSON object). Either the reply is refused and the ports and the
 * count are untouched, or it is taken whole: at most AIETH_GRAPH_PORTS_MAX
 * ports, the count the array's length, and each of the first cap ports a
 * NUL-terminated PLIO name of 1..31 printable bytes, a direction 0 or 1
 * and a non-zero size per iteration below 2^63; nothing past cap written.
 */
#include "fuzz_remote.h"

#ifdef AIETH_HAVE_CURL
#define CAP_MAX 64
#define MARK 0xAB

static void fuzz_remote_one(uint8_t first, struct json_object *o)
{
	static aieth_graph_port ports[CAP_MAX + 1];
	unsigned char m[sizeof ports];
	struct json_object *a;
	size_t cap = first % CAP_MAX, n = 77, i, len;
	memset(ports, MARK, sizeof ports);
	memset(m, MARK, sizeof m);
	if (aieth__rmr_graph_ports("http://x", o, cap ? ports : NULL, cap, &n)) {
		/* refused: nothing written */
		CHECK(n == 77);
		CHECK(!memcmp(ports, m, sizeof ports));
		return;
	}
	CHECK(json_object_object_get_ex(o, "ports", &a) && json_object_is_type(a, json_type_array));
	CHECK(n == json_object_array_length(a) && n <= AIETH_GRAPH_PORTS_MAX);
	for (i = 0; i < n && i < cap; i++) {
		const aieth_graph_port *p = &ports[i];
		len = strnlen(p->plio, sizeof p->plio);
		CHECK(len > 0 && len < sizeof p->plio);
		CHECK(p->to_aie == 0 || p->to_aie == 1);
		CHECK(p->bytes_per_iteration > 0 && p->bytes_per_iteration < ((uint64_t)1 << 63));
	}
	/* past the caller's room: untouched */
	CHECK(!memcmp(&ports[cap], m, (CAP_MAX + 1 - cap) * sizeof *ports));
}
#endif
