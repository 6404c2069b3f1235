/* SPDX-License-Identifier: MIT */
/*
 * report_lava.c - the report as LAVA lava-test-shell signal lines, so a LAVA
 * test definition needs no parse pattern, and the flat case list the LAVA
 * and TAP writers share (report_farm.h, docs/farm.md).
 *
 * The format is the one lava-dispatcher's test shell matches,
 * <LAVA_SIGNAL_(\S+) ([^>]+)>, its parameters split on white space and
 * each TESTCASE parameter on '=' (lava_dispatcher/actions/test/shell.py,
 * 2023.01): ids and values therefore never hold white space, '=', '<' or
 * '>' (aieth__farm_id), and a measurement is a plain decimal number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_farm.h"
#include "util/sbuf.h"

size_t aieth__farm_id(char *dst, size_t n, const char *s)
{
	size_t k = 0;
	if (!dst || n < 2)
		return 0;
	for (; s && *s && k + 1 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
		dst[k++] = keep ? (char)ch : '_';
	}
	if (!k)
		dst[k++] = '_';
	dst[k] = '\0';
	return k;
}

/* id of the parts joined with '.' (each part sanitized alike). A sweep's
 * point (test has "sweep") whose id would be cut, or whose name holds a
 * '+' (mapped to '_' like the name's own '_'), has its name cut to fit
 * and ".p<point>" after it: ids stay unique within the sweep and the same
 * from run to run (docs/farm.md). */
static void make_id(char *dst, struct json_object *test, const char *a, const char *b,
		    const char *c, const char *d)
{
	char raw[1200], rest[1024];
	struct json_object *sw = test ? aieth__rj_get(test, "sweep") : NULL;
	int n = snprintf(rest, sizeof rest, "%s%s%s%s%s%s", b ? "." : "", b ? b : "", c ? "." : "",
			 c ? c : "", d ? "." : "", d ? d : "");
	size_t len = strlen(a) + (n > 0 ? (size_t)n : 0);
	if (sw && aieth__rj_get(sw, "point") && (len > AIETH_FARM_ID_MAX || strchr(a, '+'))) {
		char suffix[32];
		size_t budget, sl = (size_t)snprintf(suffix, sizeof suffix, ".p%lld",
						     (long long)aieth__rj_geti(sw, "point"));
		size_t rl = strlen(rest);
		budget = AIETH_FARM_ID_MAX > rl + sl + 1 ? AIETH_FARM_ID_MAX - rl - sl : 1;
		snprintf(raw, sizeof raw, "%.*s%s%s", (int)budget, a, suffix, rest);
	} else {
		snprintf(raw, sizeof raw, "%s%s", a, rest);
	}
	aieth__farm_id(dst, AIETH_FARM_ID_MAX + 1, raw);
}

/* A channel's verdict or a test's status as a LAVA result: only a pass is
 * a pass; a stopped run is unknown (nothing was measured to the end); a
 * hang, an error or a failure is a fail. */
static const char *farm_result(const char *word)
{
	if (!strcmp(word, "pass") || !strcmp(word, "skip"))
		return word;
	if (!strcmp(word, "fail") || !strcmp(word, "timeout") || !strcmp(word, "error"))
		return "fail";
	return "unknown"; /* interrupted, or a word this writer does not know */
}

static void emit(aieth_farm_fn fn, void *ctx, aieth_farm_case *c, const char *id,
		 const char *result)
{
	c->id = id;
	c->result = result;
	fn(ctx, c);
	c->has_measurement = 0;
	c->units = NULL;
	c->item = NULL;
}

static void measure(aieth_farm_case *c, double v, const char *units)
{
	if (!isfinite(v))
		return;
	c->has_measurement = 1;
	c->measurement = v;
	c->units = units;
}

/* One transaction's channels, latencies and its own case. */
static void walk_txn(aieth_farm_fn fn, void *ctx, aieth_farm_case *c, const char *tname)
{
	struct json_object *tx = c->txn;
	struct json_object *chs = aieth__rj_get(tx, "channels"),
			   *lats = aieth__rj_get(tx, "latencies");
	const char *xname = aieth__rj_gets(tx, "name"), *st = aieth__rj_gets(tx, "status");
	int stopped = !strcmp(st, "interrupted"), done = !strcmp(st, "done");
	int all_pass = done && json_object_get_boolean(aieth__rj_get(tx, "valid"));
	char id[AIETH_FARM_ID_MAX + 1];
	size_t k;

	for (k = 0; chs && k < json_object_array_length(chs); k++) {
		struct json_object *ch = json_object_array_get_idx(chs, k);
		const char *v = aieth__rj_gets(ch, "verdict");
		all_pass = all_pass && !strcmp(v, "pass");
		make_id(id, c->test, tname, xname, aieth__rj_gets(ch, "plio"), NULL);
		c->kind = AIETH_FARM_CHANNEL;
		c->item = ch;
		if (json_object_get_boolean(aieth__rj_get(ch, "finished")))
			measure(c, aieth__rj_getd(ch, "throughput_MBps"), "MB/s");
		emit(fn, ctx, c, id, farm_result(v));
	}
	for (k = 0; lats && k < json_object_array_length(lats); k++) {
		struct json_object *l = json_object_array_get_idx(lats, k);
		char tail[600];
		int passed = json_object_get_boolean(aieth__rj_get(l, "passed"));
		all_pass = all_pass && passed;
		snprintf(tail, sizeof tail, "%s.%s", aieth__rj_gets(l, "from"),
			 aieth__rj_gets(l, "to"));
		make_id(id, c->test, tname, xname, "latency", tail);
		c->kind = AIETH_FARM_LATENCY;
		c->item = l;
		if (json_object_get_type(aieth__rj_get(l, "cycles")) == json_type_int)
			measure(c, (double)aieth__rj_geti(l, "cycles"), "cycles");
		emit(fn, ctx, c, id, passed ? "pass" : stopped ? "unknown" : "fail");
	}
	make_id(id, c->test, tname, xname, NULL, NULL);
	c->kind = AIETH_FARM_TXN;
	if (done)
		measure(c, (double)aieth__rj_geti(tx, "total_cycles"), "cycles");
	emit(fn, ctx, c, id, all_pass ? "pass" : stopped ? "unknown" : "fail");
}

void aieth__farm_walk(const aieth_report *r, aieth_farm_fn fn, void *ctx)
{
	size_t i, j, n;
	if (!r || !fn)
		return;
	n = json_object_array_length(r->tests);
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		const char *tname = aieth__rj_gets(t, "name");
		char id[AIETH_FARM_ID_MAX + 1];
		aieth_farm_case c;

		memset(&c, 0, sizeof c);
		c.test = t;
		make_id(id, t, tname, NULL, NULL, NULL);
		c.kind = AIETH_FARM_SET_START;
		emit(fn, ctx, &c, id, NULL);
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			c.txn = json_object_array_get_idx(txns, j);
			walk_txn(fn, ctx, &c, tname);
		}
		c.txn = NULL;
		make_id(id, t, tname, NULL, NULL, NULL);
		c.kind = AIETH_FARM_TEST;
		measure(&c, aieth__rj_getd(t, "duration_s"), "s");
		emit(fn, ctx, &c, id, farm_result(aieth__rj_gets(t, "status")));
		c.kind = AIETH_FARM_SET_STOP;
		emit(fn, ctx, &c, id, NULL);
	}
}

/* Per test: TESTSET START, STARTTC (LAVA marks the log from here for the
 * test's case), the channel/latency/transaction cases, ENDTC, the test's
 * own case, TESTSET STOP: what lava-test-set and lava-test-case --shell
 * print. */
static void lava_line(void *ctx, const aieth_farm_case *c)
{
	sbuf *b = ctx;
	switch (c->kind) {
	case AIETH_FARM_SET_START:
		aieth__sb_printf(b, "<LAVA_SIGNAL_TESTSET START %s>\n<LAVA_SIGNAL_STARTTC %s>\n",
				 c->id, c->id);
		return;
	case AIETH_FARM_SET_STOP: sb_lit(b, "<LAVA_SIGNAL_TESTSET STOP>\n"); return;
	case AIETH_FARM_TEST: aieth__sb_printf(b, "<LAVA_SIGNAL_ENDTC %s>\n", c->id); break;
	default: break;
	}
	aieth__sb_printf(b, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s", c->id, c->result);
	if (c->has_measurement)
		aieth__sb_printf(b, " MEASUREMENT=%.3f UNITS=%s", c->measurement, c->units);
	sb_lit(b, ">\n");
}

char *aieth_report_lava(const aieth_report *r)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	if (!r)
		return NULL;
	aieth__farm_walk(r, lava_line, &b);
	if (!b.p)
		sb_lit(&b, "");
	return aieth__sb_take(&b);
}
