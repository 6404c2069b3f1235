/* SPDX-License-Identifier: MIT */
/*
 * report_tap.c - the report as TAP version 13 (testanything.org): one test
 * point per farm case (report_farm.h: channel, latency check, transaction,
 * test; the same ids as the LAVA signals), "ok" only for a pass or a skip,
 * and a YAML diagnostics block with the measurement and, for what did not
 * pass, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_farm.h"
#include "report/report_why.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/sbuf.h"

typedef struct {
	sbuf body;
	size_t n;
} tap_state;

/* A YAML double-quoted scalar: '"' and '\' escaped, control characters and
 * non-ASCII bytes as \xNN (always valid YAML, whatever the input bytes). */
static void sb_yaml_str(sbuf *b, const char *s)
{
	sb_lit(b, "\"");
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			aieth__sb_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			aieth__sb_printf(b, "\\x%02x", ch);
		else
			aieth__sb_put(b, s, 1);
	}
	sb_lit(b, "\"");
}

static void yaml_kv(sbuf *b, const char *key, const char *val)
{
	aieth__sb_printf(b, "  %s: ", key);
	sb_yaml_str(b, val);
	sb_lit(b, "\n");
}

/* "failed": the limit and the measured value, as in the table. */
static void failed_check(sbuf *b, struct json_object *o, int (*why)(sbuf *, struct json_object *))
{
	sbuf w = SB_INIT(SB_LINE_MAX);
	if (why(&w, o) && w.p && !w.oom)
		yaml_kv(b, "failed", w.p);
	aieth__sb_free(&w);
}

/* Why a case did not pass, from the report's own words. */
static void why(sbuf *b, const aieth_farm_case *c)
{
	struct json_object *err = aieth__rj_get(c->test, "error");
	if (c->kind == AIETH_FARM_CHANNEL) {
		struct json_object *in = aieth__rj_get(c->item, "integrity");
		yaml_kv(b, "verdict", aieth__rj_gets(c->item, "verdict"));
		if (in && aieth__rj_geti(in, "mismatches") > 0) {
			struct json_object *fm = aieth__rj_get(in, "first_mismatch");
			aieth__sb_printf(b,
					 "  mismatches: %lld\n  elements: %lld\n"
					 "  first_mismatch_offset: %lld\n",
					 (long long)aieth__rj_geti(in, "mismatches"),
					 (long long)aieth__rj_geti(in, "elements"),
					 (long long)aieth__rj_geti(fm, "offset"));
			yaml_kv(b, "got", aieth__rj_gets(fm, "got"));
			yaml_kv(b, "expected", aieth__rj_gets(fm, "expected"));
		}
		if (!json_object_get_boolean(aieth__rj_get(c->item, "finished")))
			aieth__sb_printf(b, "  bytes_moved: %lld\n  bytes_expected: %lld\n",
					 (long long)aieth__rj_geti(c->item, "bytes_moved"),
					 (long long)aieth__rj_geti(c->item, "bytes_expected"));
		if (!strcmp(aieth__rj_gets(c->item, "verdict"), "fail"))
			failed_check(b, c->item, aieth__rw_channel_why);
	} else if (c->kind == AIETH_FARM_LATENCY) {
		aieth__sb_printf(b, "  max_cycles: %lld\n",
				 (long long)aieth__rj_geti(c->item, "max_cycles"));
		if (c->txn && !strcmp(aieth__rj_gets(c->txn, "status"), "done"))
			failed_check(b, c->item, aieth__rw_latency_why);
	}
	if (c->txn) {
		yaml_kv(b, "transaction_status", aieth__rj_gets(c->txn, "status"));
		if (aieth__rj_gets(c->txn, "message")[0])
			yaml_kv(b, "message", aieth__rj_gets(c->txn, "message"));
	} else {
		yaml_kv(b, "status", aieth__rj_gets(c->test, "status"));
		aieth__sb_printf(b, "  exit_code: %lld\n",
				 (long long)aieth__rj_geti(c->test, "exit_code"));
		if (err) {
			yaml_kv(b, "error_phase", aieth__rj_gets(err, "phase"));
			yaml_kv(b, "error_code", aieth__rj_gets(err, "code"));
			yaml_kv(b, "message", aieth__rj_gets(err, "message"));
		}
	}
}

static void tap_point(void *ctx, const aieth_farm_case *c)
{
	tap_state *s = ctx;
	sbuf *b = &s->body;
	int pass, skip;
	if (c->kind == AIETH_FARM_SET_START) {
		aieth__sb_printf(b, "# test %s\n", c->id);
		return;
	}
	if (c->kind == AIETH_FARM_SET_STOP)
		return;
	pass = !strcmp(c->result, "pass");
	skip = !strcmp(c->result, "skip");
	s->n++;
	aieth__sb_printf(b, "%s %zu - %s%s\n", pass || skip ? "ok" : "not ok", s->n, c->id,
			 skip ? " # SKIP" : "");
	if (!c->has_measurement && pass)
		return;
	sb_lit(b, "  ---\n");
	yaml_kv(b, "result", c->result);
	if (c->has_measurement)
		aieth__sb_printf(b, "  measurement: %.3f\n  units: \"%s\"\n", c->measurement,
				 c->units);
	if (!pass)
		why(b, c);
	sb_lit(b, "  ...\n");
}

char *aieth_report_tap(const aieth_report *r)
{
	tap_state s;
	sbuf out = SB_INIT(SB_DOC_MAX);
	if (!r)
		return NULL;
	memset(&s, 0, sizeof s);
	aieth__sb_init(&s.body, SB_DOC_MAX);
	aieth__farm_walk(r, tap_point, &s);
	/* the plan first: the number of points is known once they are made */
	aieth__sb_printf(&out, "TAP version 13\n1..%zu\n", s.n);
	if (s.body.p)
		aieth__sb_put(&out, s.body.p, s.body.n);
	aieth__sb_printf(&out, "# run_test status %s, exit %lld\n",
			 aieth__rj_gets(r->run, "status"),
			 (long long)aieth__rj_geti(r->run, "exit_code"));
	if (out.oom || s.body.oom) {
		aieth__sb_free(&out);
		free(s.body.p);
		return NULL;
	}
	free(s.body.p);
	return out.p;
}

int aieth_report_write_tap(const aieth_report *r, const char *path)
{
	char *t;
	int rc;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_tap: NULL argument");
	t = aieth_report_tap(r);
	if (!t)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	rc = aieth__write_atomic(path, t, strlen(t));
	free(t);
	return rc;
}
