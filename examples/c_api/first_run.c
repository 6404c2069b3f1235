/* SPDX-License-Identifier: MIT */
/*
 * first_run.c - the README's library example as a whole program: a
 * loopback graph on an emulated VCK190, one PERF transaction of 4 KiB
 * replayed 10 times, and the receiving channel's counters. Every call is
 * checked: a failure prints the library's message and exits 1.
 *
 *   cc -o first_run first_run.c $(pkg-config --cflags --libs aieth)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "aieth.h"

static int check(const char *what, int rc)
{
	if (rc)
		fprintf(stderr, "first_run: %s: %s (%s)\n", what, aieth_error_message(),
			aieth_error_name(rc));
	return rc;
}

int main(void)
{
	static unsigned char src[4096], dst[4096];
	aieth_graph_spec g = {"mygraph", "loopback", NULL};
	aieth_session_opts o = AIETH_SESSION_OPTS_INIT; /* version 1, the rest 0 */
	aieth_session *s;
	aieth_txn *t = NULL;
	aieth_channel_args ch[2] = {{"PLIO_01_TO_AIE", 4096, 10, 0, src},
				    {"PLIO_01_FROM_AIE", 4096, 10, 0, dst}};
	aieth_channel_result r;
	unsigned i;
	int rc;

	o.board = "vck190";
	o.graphs = &g;
	o.num_graphs = 1;
	for (i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)i;
	if (check("open", aieth_session_open(&s, &o)))
		return 1;
	rc = check("graph run", aieth_graph_run(s, "mygraph", AIETH_ITERATIONS_FOREVER)) ||
	     check("submit", aieth_txn_submit(s, AIETH_MODE_PERF, ch, 2, &t)) ||
	     check("wait", aieth_txn_wait(t, 1000)) || /* TIMEOUT is a status, not an error */
	     check("result", aieth_txn_channel(t, 1, &r));
	if (!rc && aieth_txn_get_status(t) != AIETH_TXN_DONE) {
		fprintf(stderr, "first_run: the transaction ended %s\n",
			aieth_txn_status_name(aieth_txn_get_status(t)));
		rc = 1;
	}
	if (!rc)
		printf("%s: first %" PRIu64 " last %" PRIu64 ", %.1f MB/s, data %s\n", r.plio.name,
		       r.first_cycle, r.last_cycle, r.mb_per_s,
		       memcmp(src, dst, sizeof src) ? "differs" : "ok");
	aieth_txn_free(t);
	aieth_session_close(s);
	return rc ? 1 : 0;
}
