/* SPDX-License-Identifier: MIT */
/*
 * report_trace.c - trace.json in the Chrome trace event format (the JSON
 * object form), which Perfetto and chrome://tracing open: one process per
 * test and transaction, one track (thread) per channel, a complete event
 * ("ph":"X") per channel from its first to its last cycle, the delay before
 * its first data and each latency as events of their own. Times are
 * microseconds at the test's PL clock (ts = cycle / MHz). A test's
 * sensors (power, temperature) are counter tracks ("ph":"C") of a process
 * of their own, in microseconds of wall time since the sampling started.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/sbuf.h"

typedef struct {
	sbuf *b;
	int first;
} ev_list;

/* A JSON string of a and b one after the other, whatever their length
 * (only the document's bound applies: a line-sized buffer failed on the
 * names of a test and its transaction). */
static void json_cat(sbuf *out, const char *a, const char *b)
{
	sbuf tmp = SB_INIT(SB_DOC_MAX);
	aieth__sb_printf(&tmp, "%s%s", a, b);
	aieth__rv_json(out, tmp.p ? tmp.p : "");
	out->oom |= tmp.oom;
	out->over |= tmp.over;
	aieth__sb_free(&tmp);
}

/* Start an event: separator, phase, name, ids (the caller adds the rest
 * and the closing brace). */
static void ev(ev_list *l, const char *ph, const char *name, const char *prefix, int pid, int tid)
{
	if (l->first)
		sb_lit(l->b, "\n");
	else
		sb_lit(l->b, ",\n");
	l->first = 0;
	aieth__sb_printf(l->b, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"name\":", ph, pid, tid);
	if (prefix)
		json_cat(l->b, prefix, name);
	else
		aieth__rv_json(l->b, name);
}

static void meta(ev_list *l, const char *what, int pid, int tid, const char *name, int sort)
{
	char key[32];
	ev(l, "M", what, NULL, pid, tid);
	snprintf(key, sizeof key, "%s", sort >= 0 ? "sort_index" : "name");
	if (sort >= 0) {
		aieth__sb_printf(l->b, ",\"args\":{\"%s\":%d}}", key, sort);
	} else {
		aieth__sb_printf(l->b, ",\"args\":{\"%s\":", key);
		aieth__rv_json(l->b, name);
		sb_lit(l->b, "}}");
	}
}

/* "TEST / TRANSACTION" as the process's name, whatever their length. */
static void process_name(ev_list *l, int pid, const char *test, const char *txn)
{
	char *both;
	sbuf tmp = SB_INIT(SB_DOC_MAX);
	aieth__sb_printf(&tmp, "%s / %s", test, txn);
	both = tmp.p;
	l->b->oom |= tmp.oom;
	l->b->over |= tmp.over;
	meta(l, "process_name", pid, 0, both ? both : "", -1);
	free(both);
}

static void span(ev_list *l, double clk, long long c0, long long c1)
{
	aieth__sb_printf(l->b, ",\"ts\":%.6f,\"dur\":%.6f", (double)c0 / clk,
			 (double)(c1 - c0) / clk);
}

static void channel_events(ev_list *l, struct json_object *chs, struct json_object *ch, int pid,
			   int tid, double clk, struct json_object *lats)
{
	sbuf *b = l->b;
	rv_span sp;
	size_t k;
	aieth__rv_channel_span(ch, &sp);
	meta(l, "thread_name", pid, tid, aieth__rj_gets(ch, "plio"), -1);
	meta(l, "thread_sort_index", pid, tid, NULL, tid);
	if (sp.start > 0) {
		ev(l, "X", "delay", NULL, pid, tid);
		sb_lit(b, ",\"cat\":\"delay\"");
		span(l, clk, 0, sp.start);
		aieth__sb_printf(b, ",\"args\":{\"cycles\":%lld}}", sp.start);
	}
	ev(l, "X", aieth__rj_gets(ch, "plio"), NULL, pid, tid);
	sb_lit(b, ",\"cat\":\"channel\"");
	span(l, clk, sp.start, sp.end);
	sb_lit(b, ",\"args\":{\"direction\":");
	aieth__rv_json(b, aieth__rj_gets(ch, "direction"));
	sb_lit(b, ",\"verdict\":");
	aieth__rv_json(b, aieth__rj_gets(ch, "verdict"));
	aieth__sb_printf(b,
			 ",\"finished\":%s,\"bytes_moved\":%lld,\"bytes_expected\":%lld,"
			 "\"delay_cycles\":%lld",
			 sp.finished ? "true" : "false",
			 (long long)aieth__rj_geti(ch, "bytes_moved"),
			 (long long)aieth__rj_geti(ch, "bytes_expected"), sp.delay);
	if (sp.finished)
		aieth__sb_printf(b,
				 ",\"first_cycle\":%lld,\"last_cycle\":%lld,\"cycles\":%lld,"
				 "\"throughput_MBps\":%.3f,\"utilisation_pct\":%.3f}}",
				 sp.start, sp.end, sp.end - sp.start,
				 aieth__rj_getd(ch, "throughput_MBps"),
				 aieth__rj_getd(ch, "utilisation_pct"));
	else
		aieth__sb_printf(b, ",\"stalled_since_cycle\":%lld}}", sp.end);
	/* latencies ending at this channel: from the source's first data to
	 * this one's (inside the delay event above: the nesting stays valid) */
	for (k = 0; lats && k < json_object_array_length(lats); k++) {
		struct json_object *lat = json_object_array_get_idx(lats, k), *from = NULL;
		size_t c;
		if (strcmp(aieth__rj_gets(lat, "to"), aieth__rj_gets(ch, "plio")) || !sp.finished)
			continue;
		for (c = 0; c < json_object_array_length(chs); c++)
			if (!strcmp(aieth__rj_gets(json_object_array_get_idx(chs, c), "plio"),
				    aieth__rj_gets(lat, "from")))
				from = json_object_array_get_idx(chs, c);
		if (!from || !json_object_get_boolean(aieth__rj_get(from, "finished")) ||
		    aieth__rj_geti(from, "first_cycle") > sp.start)
			continue;
		ev(l, "X", aieth__rj_gets(lat, "from"), "latency from ", pid, tid);
		sb_lit(b, ",\"cat\":\"latency\"");
		span(l, clk, aieth__rj_geti(from, "first_cycle"), sp.start);
		aieth__sb_printf(
			b, ",\"args\":{\"cycles\":%lld,\"max_cycles\":%lld,\"passed\":%s}}",
			(long long)aieth__rj_geti(lat, "cycles"),
			(long long)aieth__rj_geti(lat, "max_cycles"),
			json_object_get_boolean(aieth__rj_get(lat, "passed")) ? "true" : "false");
	}
}

/* One counter track per sensor: each sample kept in report.json, in a
 * process after the test's (pid + 1; the next free pid returned: a test
 * without sensors takes none). */
static int sensor_counters(ev_list *l, struct json_object *t, int pid)
{
	struct json_object *list = aieth__rj_get(aieth__rj_get(t, "sensors"), "sensors");
	size_t i, k, n = list ? json_object_array_length(list) : 0;
	char name[200];
	if (!n)
		return pid;
	pid++;
	snprintf(name, sizeof name, "sensors (wall clock, us since sampling began)");
	process_name(l, pid, aieth__rj_gets(t, "name"), name);
	meta(l, "process_sort_index", pid, 0, NULL, pid);
	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(list, i);
		struct json_object *ts = aieth__rj_get(aieth__rj_get(s, "series"), "t_s");
		struct json_object *vs = aieth__rj_get(aieth__rj_get(s, "series"), "value");
		size_t m = ts && vs ? json_object_array_length(ts) : 0;
		if (vs && json_object_array_length(vs) < m)
			m = json_object_array_length(vs);
		for (k = 0; k < m; k++) {
			ev(l, "C", aieth__rj_gets(s, "name"), NULL, pid, 0);
			aieth__sb_printf(l->b, ",\"cat\":\"sensor\",\"ts\":%.3f,\"args\":{",
					 json_object_get_double(json_object_array_get_idx(ts, k)) *
						 1e6);
			aieth__rv_json(l->b, aieth__rj_gets(s, "unit"));
			aieth__sb_printf(l->b, ":%.6g}}",
					 json_object_get_double(json_object_array_get_idx(vs, k)));
		}
	}
	return pid;
}

int aieth_report_write_trace(const aieth_report *r, const char *path)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	ev_list l = {&b, 1};
	size_t i, j, k, n;
	int pid = 0;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_trace: NULL argument");
	n = json_object_array_length(r->tests);
	sb_lit(&b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"run\":");
	aieth__rv_json(&b, aieth__rj_gets(r->run, "id"));
	sb_lit(&b, ",\"status\":");
	aieth__rv_json(&b, aieth__rj_gets(r->run, "status"));
	sb_lit(&b, ",\"time_unit\":\"microseconds at each test's PL clock\"},\n\"traceEvents\":[");
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		double clk = aieth__rv_clock_mhz(t);
		if (!txns || !json_object_array_length(txns) || !(clk > 0)) {
			/* nothing ran (or no clock): the test and its outcome */
			struct json_object *err = aieth__rj_get(t, "error");
			meta(&l, "process_name", ++pid, 0, aieth__rj_gets(t, "name"), -1);
			meta(&l, "process_sort_index", pid, 0, NULL, pid);
			ev(&l, "i", aieth__rj_gets(t, "status"), NULL, pid, 0);
			sb_lit(&b, ",\"s\":\"p\",\"ts\":0,\"args\":{\"message\":");
			aieth__rv_json(&b,
				       err ? aieth__rj_gets(err, "message") : "no transaction ran");
			sb_lit(&b, "}}");
			pid = sensor_counters(&l, t, pid);
			continue;
		}
		for (j = 0; j < json_object_array_length(txns); j++) {
			struct json_object *tx = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(tx, "channels");
			process_name(&l, ++pid, aieth__rj_gets(t, "name"),
				     aieth__rj_gets(tx, "name"));
			meta(&l, "process_sort_index", pid, 0, NULL, pid);
			meta(&l, "thread_name", pid, 0, "transaction", -1);
			ev(&l, "X", aieth__rj_gets(tx, "name"), NULL, pid, 0);
			sb_lit(&b, ",\"cat\":\"transaction\"");
			span(&l, clk, 0,
			     aieth__rj_geti(tx, "total_cycles") > 0
				     ? aieth__rj_geti(tx, "total_cycles")
				     : 0);
			sb_lit(&b, ",\"args\":{\"status\":");
			aieth__rv_json(&b, aieth__rj_gets(tx, "status"));
			aieth__sb_printf(&b, ",\"total_cycles\":%lld,\"pl_clock_MHz\":%.6g}}",
					 (long long)aieth__rj_geti(tx, "total_cycles"), clk);
			for (k = 0; chs && k < json_object_array_length(chs); k++)
				channel_events(&l, chs, json_object_array_get_idx(chs, k), pid,
					       (int)k + 1, clk, aieth__rj_get(tx, "latencies"));
		}
		pid = sensor_counters(&l, t, pid);
	}
	sb_lit(&b, "\n]}\n");
	return aieth__sb_write_file(&b, path);
}
