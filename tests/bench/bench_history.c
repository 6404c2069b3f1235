/* SPDX-License-Identifier: MIT */
/*
 * bench_history.c - make bench: the run history over 10,000 runs. Each run
 * is a report of adder_perf's shape (one test, a transaction, three
 * channels, a latency; the throughput moving a little from run to run)
 * recorded through the public API, one transaction per run as run_test
 * --history does; then the trend page over all of them, and one gate.
 * Prints "history: N runs add X s, html Y s, Z bytes".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *report(char *buf, size_t n, unsigned i)
{
	double mbps = 5000 - (double)(i * 7919 % 100) / 10; /* a little noise */
	snprintf(buf, n,
		 "{\"schema\": \"aieth-report/1\", \"run\": {\"id\": \"%u-1\", \"started_at\": "
		 "\"2026-%02u-%02uT%02u:%02u:%02uZ\", \"status\": \"pass\", \"exit_code\": 0, "
		 "\"argv\": [\"run_test\"]}, \"environment\": {\"hostname\": \"bench\"}, "
		 "\"tests\": [{\"name\": \"adder_perf\", \"board\": \"vck190\", \"backend\": "
		 "\"emu\", \"status\": \"pass\", \"transactions\": [{\"index\": 0, \"name\": "
		 "\"perf\", \"total_cycles\": 2000, \"channels\": [{\"plio\": \"PLIO_01_TO_AIE\", "
		 "\"throughput_MBps\": 5000, \"cycles\": 1024}, {\"plio\": \"PLIO_02_TO_AIE\", "
		 "\"throughput_MBps\": 5000, \"cycles\": 1024}, {\"plio\": \"PLIO_01_FROM_AIE\", "
		 "\"throughput_MBps\": %.1f, \"cycles\": 1024, \"thresholds\": [{\"metric\": "
		 "\"throughput_MBps\", \"min\": 4000, \"measured\": %.1f, \"passed\": true}]}], "
		 "\"latencies\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", "
		 "\"cycles\": 16, \"max_cycles\": 64}]}]}]}",
		 i, 1 + i / 2600 % 12, 1 + i / 100 % 26, i / 60 / 60 % 24, i / 60 % 60, i % 60,
		 mbps, mbps);
	return buf;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000, i;
	char dir[] = "/tmp/bench_history.XXXXXX", db[64], page[64], text[4096], cmd[128];
	aieth_history *h = NULL;
	aieth_history_gate *g = NULL;
	aieth_report *r = NULL;
	double t0, t_add, t_html;
	struct stat st;
	uint64_t runs = 0;
	int added;
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof db, "%s/h.db", dir);
	snprintf(page, sizeof page, "%s/trend.html", dir);
	if (aieth_history_open(&h, db, NULL))
		goto fail;
	t0 = now();
	for (i = 0; i < n; i++) {
		report(text, sizeof text, i);
		if (aieth_report_parse(&r, "bench.json", text, strlen(text)) ||
		    aieth_history_add_report(h, r, NULL, NULL, &added) || !added)
			goto fail;
		aieth_report_free(r);
		r = NULL;
	}
	t_add = now() - t0;
	t0 = now();
	if (aieth_history_write_html(h, page, 0))
		goto fail;
	t_html = now() - t0;
	if (stat(page, &st) || aieth_history_num_runs(h, &runs) || runs != n)
		goto fail;
	report(text, sizeof text, n);
	if (aieth_report_parse(&r, "bench.json", text, strlen(text)) ||
	    aieth_history_gate_report(&g, h, r, 0, -1))
		goto fail;
	printf("history: %u runs add %.2f s, html %.2f s, %lld bytes (the last %d runs of each "
	       "series drawn); a gate: exit %d\n",
	       n, t_add, t_html, (long long)st.st_size, AIETH_HISTORY_HTML_POINTS_DEFAULT,
	       aieth_history_gate_exit(g));
	aieth_history_gate_free(g);
	aieth_report_free(r);
	aieth_history_close(h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) != 0;
fail:
	fprintf(stderr, "bench_history: %s\n", aieth_error_message());
	aieth_report_free(r);
	aieth_history_close(h);
	return 1;
}
