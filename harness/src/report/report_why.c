/* SPDX-License-Identifier: MIT */
/*
 * report_why.c - the words for a failed check (report_why.h): one text for
 * the table, junit.xml and report.html, so they never disagree.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "report/report_why.h"

void aieth__rw_pair(sbuf *b, double measured, const char *op, double limit)
{
	char m[64], l[64];
	int d;
	for (d = 1; d <= 6; d++) {
		snprintf(m, sizeof m, "%.*f", d, measured);
		snprintf(l, sizeof l, "%.*f", d, limit);
		if (strcmp(m, l))
			break;
	}
	aieth__sb_printf(b, "%s %s %s", m, op, l);
}

int aieth__rw_channel_why(sbuf *b, struct json_object *ch)
{
	struct json_object *th = aieth__rj_get(ch, "thresholds"),
			   *in = aieth__rj_get(ch, "integrity");
	size_t i;
	int n = 0;
	if (in && json_object_get_boolean(aieth__rj_get(in, "checked")) &&
	    aieth__rj_geti(in, "mismatches") > 0) {
		struct json_object *fm = aieth__rj_get(in, "first_mismatch");
		aieth__sb_printf(b, "%lld of %lld elements differ",
				 (long long)aieth__rj_geti(in, "mismatches"),
				 (long long)aieth__rj_geti(in, "elements"));
		if (fm && !json_object_is_type(fm, json_type_null)) {
			aieth__sb_printf(b, ", first at byte %lld: got ",
					 (long long)aieth__rj_geti(fm, "offset"));
			aieth__sb_printf(b, "%s, expected %s", aieth__rj_gets(fm, "got"),
					 aieth__rj_gets(fm, "expected"));
		}
		n++;
	}
	for (i = 0;
	     th && json_object_is_type(th, json_type_array) && i < json_object_array_length(th);
	     i++) {
		struct json_object *t = json_object_array_get_idx(th, i);
		struct json_object *meas = aieth__rj_get(t, "measured");
		const char *unit = strcmp(aieth__rj_gets(t, "metric"), "throughput_MBps")
					   ? aieth__rj_gets(t, "metric")
					   : "MB/s";
		if (json_object_get_boolean(aieth__rj_get(t, "passed")))
			continue;
		aieth__sb_printf(b, "%s%s ", n ? "; " : "", unit);
		if (meas && !json_object_is_type(meas, json_type_null))
			aieth__rw_pair(b, json_object_get_double(meas), "< min",
				       aieth__rj_getd(t, "min"));
		else
			aieth__sb_printf(b, "not measured (min %.1f)", aieth__rj_getd(t, "min"));
		n++;
	}
	/* repeated runs: the run shown passed, another did not */
	th = aieth__rj_get(ch, "failed_runs");
	if (!n && th && json_object_is_type(th, json_type_array) && json_object_array_length(th)) {
		sb_lit(b, "the data check failed in run");
		for (i = 0; i < json_object_array_length(th) && i < 10; i++)
			aieth__sb_printf(
				b, "%s %lld", i ? "," : "",
				(long long)json_object_get_int64(json_object_array_get_idx(th, i)) +
					1);
		aieth__sb_printf(b, "%s (runs_failed)",
				 i < json_object_array_length(th) ? ", ..." : "");
		n++;
	}
	th = aieth__rj_get(ch, "failed_warmup_runs");
	if (!n && th && json_object_is_type(th, json_type_array) && json_object_array_length(th)) {
		aieth__sb_printf(
			b, "the data check failed in warm-up run %lld%s (runs_failed)",
			(long long)json_object_get_int64(json_object_array_get_idx(th, 0)) + 1,
			json_object_array_length(th) > 1 ? ", ..." : "");
		n++;
	}
	return n;
}

int aieth__rw_latency_why(sbuf *b, struct json_object *l)
{
	struct json_object *cy = aieth__rj_get(l, "cycles");
	if (json_object_get_boolean(aieth__rj_get(l, "passed")))
		return 0;
	if (cy && !json_object_is_type(cy, json_type_null))
		aieth__sb_printf(b, "cycles %lld > max %lld", (long long)json_object_get_int64(cy),
				 (long long)aieth__rj_geti(l, "max_cycles"));
	else
		aieth__sb_printf(b, "cycles not measured (max %lld)",
				 (long long)aieth__rj_geti(l, "max_cycles"));
	return 1;
}

int aieth__rw_latency_unmeasured(sbuf *b, struct json_object *txn, struct json_object *l)
{
	struct json_object *cy = aieth__rj_get(l, "cycles");
	const char *st = aieth__rj_gets(txn, "status");
	if (cy && !json_object_is_type(cy, json_type_null))
		return 0;
	sb_lit(b, "not measured");
	if (!strcmp(st, "timeout"))
		sb_lit(b, ": the transaction timed out");
	else if (!strcmp(st, "interrupted"))
		sb_lit(b, ": the transaction was interrupted");
	else if (strcmp(st, "done"))
		sb_lit(b, ": the transaction failed");
	return 1;
}

void aieth__rw_unfinished(sbuf *b, struct json_object *txn, struct json_object *ch)
{
	struct json_object *since = aieth__rj_get(ch, "stalled_since_cycle");
	int has = since && !json_object_is_type(since, json_type_null);
	const char *st = aieth__rj_gets(txn, "status");
	if (!strcmp(st, "interrupted") && has && aieth__rj_geti(ch, "bytes_moved") > 0)
		aieth__sb_printf(b, "interrupted; its last beat ended at cycle %lld",
				 (long long)json_object_get_int64(since));
	else if (!strcmp(st, "interrupted"))
		sb_lit(b, "interrupted before its first beat");
	else if (has)
		aieth__sb_printf(b, "stalled since cycle %lld",
				 (long long)json_object_get_int64(since));
	else
		sb_lit(b, "did not finish");
}
