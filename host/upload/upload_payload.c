/* SPDX-License-Identifier: MIT */
/*
 * upload_payload.c - what each target receives, built from the report tree
 * (report.json's root) so that a payload is one byte string that can be
 * sent, spooled and sent again unchanged:
 *  - InfluxDB line protocol (v1 write API): one point per channel, latency
 *    and test (docs/farm.md lists measurements, tags and fields);
 *  - SQUAD's submit API: multipart fields tests, metrics, metadata and
 *    report.json as an attachment (SQUAD's doc/intro.rst, "Submitting
 *    results").
 * Every key and point is unique in its payload: a name equal to an earlier
 * one of its level (tests of the run, transactions of a test) once escaped
 * becomes NAME#2, #3, ...; whatever still repeats (e.g. a latency bound
 * listed twice) gets #N on its SQUAD key and a "seq" tag on its point, so
 * that no result replaces another (a failure must never arrive as a pass).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_build.h"
#include "upload/upload_internal.h"
#include "util/error.h"

/* Line protocol (InfluxDB 1.x "line protocol reference", special
 * characters): measurements escape comma and space; tag keys, tag values
 * and field keys also '='; string field values escape '"' and '\'. A
 * newline cannot be escaped anywhere, so control characters become '_'
 * (' ' in strings); a backslash outside strings would escape the next
 * separator and becomes '_' too. */
void aieth__up_lp_escape(sbuf *b, const char *s, int what)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (what == UP_LP_STRING) {
			if (c < 0x20 || c == 0x7f)
				c = ' ';
			else if (c == '"' || c == '\\')
				sb_lit(b, "\\");
		} else {
			if (c < 0x20 || c == 0x7f || c == '\\')
				c = '_';
			else if (c == ',' || c == ' ' || (c == '=' && what == UP_LP_KEY))
				sb_lit(b, "\\");
		}
		aieth__sb_put(b, (const char *)&c, 1);
	}
}

static void lp_tag(sbuf *b, const char *key, const char *val)
{
	if (!val || !*val) /* an empty tag value is not allowed: left out */
		return;
	sb_lit(b, ",");
	aieth__up_lp_escape(b, key, UP_LP_KEY);
	sb_lit(b, "=");
	aieth__up_lp_escape(b, val, UP_LP_KEY);
}

/* Fields: the first has no leading comma (*nf counts them). */
static void lp_key(sbuf *b, int *nf, const char *key)
{
	aieth__sb_put(b, *nf ? "," : " ", 1);
	(*nf)++;
	aieth__up_lp_escape(b, key, UP_LP_KEY);
	sb_lit(b, "=");
}

static void lp_int(sbuf *b, int *nf, struct json_object *o, const char *key, const char *as)
{
	struct json_object *v = aieth__rj_get(o, key);
	if (!v || !json_object_is_type(v, json_type_int))
		return;
	lp_key(b, nf, as);
	aieth__sb_printf(b, "%lldi", (long long)json_object_get_int64(v));
}

static void lp_float(sbuf *b, int *nf, struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	double d;
	if (!v ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return;
	d = json_object_get_double(v);
	if (!isfinite(d))
		return;
	lp_key(b, nf, key);
	aieth__sb_printf(b, "%.17g", d);
}

static void lp_string(sbuf *b, int *nf, const char *key, const char *val)
{
	if (!val)
		return;
	lp_key(b, nf, key);
	sb_lit(b, "\"");
	aieth__up_lp_escape(b, val, UP_LP_STRING);
	sb_lit(b, "\"");
}

static void lp_bool(sbuf *b, int *nf, struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	if (!v || !json_object_is_type(v, json_type_boolean))
		return;
	lp_key(b, nf, key);
	aieth__sb_put(b, json_object_get_boolean(v) ? "true" : "false",
		      json_object_get_boolean(v) ? 4 : 5);
}

typedef void (*up_esc_fn)(sbuf *b, const char *s);

static void lp_esc_tag(sbuf *b, const char *s) { aieth__up_lp_escape(b, s, UP_LP_KEY); }

/* For each object of arr, the number that makes its "name" unique among
 * them once escaped by esc: 0 (the name as it is) or n >= 2 (NAME#n; a
 * name that is itself "x#2" is taken into account). NULL: out of memory. */
static unsigned *unique_names(struct json_object *arr, up_esc_fn esc)
{
	size_t n = arr ? json_object_array_length(arr) : 0, i, base;
	unsigned *out = calloc(n ? n : 1, sizeof *out);
	struct json_object *seen = json_object_new_object();
	sbuf e = SB_INIT(SB_LINE_MAX);

	for (i = 0; out && seen && i < n; i++) {
		unsigned k = 0;
		e.n = 0;
		sb_lit(&e, "");
		if (e.p)
			e.p[0] = '\0';
		esc(&e, aieth__rj_gets(json_object_array_get_idx(arr, i), "name"));
		base = e.n;
		while (!e.oom && json_object_object_get_ex(seen, e.p ? e.p : "", NULL)) {
			e.n = base;
			k = k ? k + 1 : 2;
			aieth__sb_printf(&e, "#%u", k);
		}
		if (e.oom || json_object_object_add(seen, e.p ? e.p : "", NULL))
			break;
		out[i] = k;
	}
	if (i < n || !seen) {
		free(out);
		out = NULL;
	}
	aieth__sb_free(&e);
	json_object_put(seen);
	return out;
}

/* name, or name#dup (dup >= 2) in tmp */
static const char *dup_name(sbuf *tmp, const char *name, unsigned dup)
{
	if (!dup)
		return name;
	tmp->n = 0;
	aieth__sb_printf(tmp, "%s#%u", name, dup);
	return tmp->p ? tmp->p : name;
}

/* The common tags of a test's points (dup: see unique_names). */
static void lp_test_tags(sbuf *b, struct json_object *root, struct json_object *t, unsigned dup)
{
	struct json_object *env = aieth__rj_get(root, "environment");
	const char *board = aieth__rj_gets(t, "board"), *backend = aieth__rj_gets(t, "backend");
	sbuf tmp = SB_INIT(SB_LINE_MAX);
	lp_tag(b, "backend", *backend ? backend : aieth__rj_gets(env, "backend"));
	lp_tag(b, "board", *board ? board : aieth__rj_gets(env, "board"));
	lp_tag(b, "test", dup_name(&tmp, aieth__rj_gets(t, "name"), dup));
	b->oom |= tmp.oom;
	aieth__sb_free(&tmp);
}

/* The point begun at b->p[start] has its measurement and tags written:
 * the same series a second time (same timestamp: InfluxDB would keep only
 * the last) gets a "seq" tag that tells it apart. */
static void lp_series_unique(sbuf *b, size_t start, struct json_object *seen)
{
	size_t end = b->n;
	unsigned k = 1;
	if (b->oom || !b->p)
		return;
	while (json_object_object_get_ex(seen, b->p + start, NULL)) {
		b->n = end;
		aieth__sb_printf(b, ",seq=%u", ++k);
		if (b->oom)
			return;
	}
	if (json_object_object_add(seen, b->p + start, NULL))
		b->oom = 1;
}

int aieth__up_payload_influx(struct json_object *root, uint64_t ts_ms, sbuf *b)
{
	struct json_object *tests = aieth__rj_get(root, "tests"), *run = aieth__rj_get(root, "run");
	const char *version = aieth__rj_gets(run, "tool_version"),
		   *run_id = aieth__rj_gets(run, "id");
	size_t i, j, k, start;
	char ts[32];
	unsigned *tdup = unique_names(tests, lp_esc_tag), *xdup = NULL;
	struct json_object *seen = json_object_new_object();
	sbuf tmp = SB_INIT(SB_LINE_MAX);

	if (!tdup || !seen)
		b->oom = 1;
	snprintf(ts, sizeof ts, "%llu", (unsigned long long)ts_ms);
	for (i = 0; !b->oom && i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		int nf = 0;
		free(xdup);
		if (!(xdup = unique_names(txns, lp_esc_tag))) {
			b->oom = 1;
			break;
		}
		start = b->n;
		sb_lit(b, "aieth_test");
		lp_test_tags(b, root, t, tdup[i]);
		lp_tag(b, "version", version);
		lp_series_unique(b, start, seen);
		lp_string(b, &nf, "status", aieth__rj_gets(t, "status"));
		lp_int(b, &nf, t, "exit_code", "exit_code");
		lp_float(b, &nf, t, "duration_s");
		lp_string(b, &nf, "run_id", run_id);
		aieth__sb_printf(b, " %s\n", ts);
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			struct json_object *x = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(x, "channels"),
					   *lats = aieth__rj_get(x, "latencies");
			for (k = 0; chs && k < json_object_array_length(chs); k++) {
				struct json_object *c = json_object_array_get_idx(chs, k);
				nf = 0;
				start = b->n;
				sb_lit(b, "aieth_channel");
				lp_test_tags(b, root, t, tdup[i]);
				lp_tag(b, "direction", aieth__rj_gets(c, "direction"));
				lp_tag(b, "plio", aieth__rj_gets(c, "plio"));
				lp_tag(b, "transaction",
				       dup_name(&tmp, aieth__rj_gets(x, "name"), xdup[j]));
				lp_tag(b, "version", version);
				lp_series_unique(b, start, seen);
				lp_float(b, &nf, c, "throughput_MBps");
				lp_int(b, &nf, c, "first_cycle", "first");
				lp_int(b, &nf, c, "last_cycle", "last");
				lp_int(b, &nf, c, "cycles", "cycles");
				lp_int(b, &nf, c, "bytes_moved", "bytes");
				lp_float(b, &nf, c, "utilisation_pct");
				lp_string(b, &nf, "verdict", aieth__rj_gets(c, "verdict"));
				lp_string(b, &nf, "run_id", run_id);
				aieth__sb_printf(b, " %s\n", ts);
			}
			for (k = 0; lats && k < json_object_array_length(lats); k++) {
				struct json_object *l = json_object_array_get_idx(lats, k);
				nf = 0;
				start = b->n;
				sb_lit(b, "aieth_latency");
				lp_test_tags(b, root, t, tdup[i]);
				lp_tag(b, "from", aieth__rj_gets(l, "from"));
				lp_tag(b, "to", aieth__rj_gets(l, "to"));
				lp_tag(b, "transaction",
				       dup_name(&tmp, aieth__rj_gets(x, "name"), xdup[j]));
				lp_tag(b, "version", version);
				lp_series_unique(b, start, seen);
				lp_int(b, &nf, l, "cycles", "cycles");
				lp_int(b, &nf, l, "max_cycles", "max_cycles");
				lp_bool(b, &nf, l, "passed");
				lp_string(b, &nf, "run_id", run_id);
				aieth__sb_printf(b, " %s\n", ts);
			}
		}
	}
	free(tdup);
	free(xdup);
	aieth__sb_free(&tmp);
	json_object_put(seen);
	if (b->oom || tmp.oom)
		return aieth__fail(AIETH_ENOMEM, "influx payload: out of memory");
	return AIETH_OK;
}

void aieth__up_squad_name(sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		char c = *s;
		if ((unsigned char)c < 0x20 || c == 0x7f || c == '/' || c == '[' || c == ']')
			c = '_';
		aieth__sb_put(b, &c, 1);
	}
}

/* "test/transaction/leaf" for SQUAD (suite test/transaction, name leaf);
 * tdup, xdup: see unique_names. */
static const char *squad_key(sbuf *k, const char *test, unsigned tdup, const char *txn,
			     unsigned xdup, const char *leaf, const char *leaf2)
{
	k->n = 0;
	sb_lit(k, "");
	aieth__up_squad_name(k, test);
	if (tdup)
		aieth__sb_printf(k, "#%u", tdup);
	if (txn) {
		sb_lit(k, "/");
		aieth__up_squad_name(k, txn);
		if (xdup)
			aieth__sb_printf(k, "#%u", xdup);
	}
	sb_lit(k, "/");
	aieth__up_squad_name(k, leaf);
	if (leaf2)
		aieth__up_squad_name(k, leaf2);
	return k->p ? k->p : "";
}

static const char *squad_result(const char *status)
{
	if (!strcmp(status, "pass"))
		return "pass";
	if (!strcmp(status, "skip"))
		return "skip";
	return "fail";
}

/* o[key] = v, or o["key#N"] if key is taken already (never replaced). */
static void add_unique(struct json_object *o, sbuf *k, struct json_object *v)
{
	size_t base = k->n;
	unsigned n = 1;
	while (!k->oom && json_object_object_get_ex(o, k->p ? k->p : "", NULL)) {
		k->n = base;
		aieth__sb_printf(k, "#%u", ++n);
	}
	if (k->oom || json_object_object_add(o, k->p ? k->p : "", v)) {
		k->oom = 1;
		json_object_put(v);
	}
}

static void add_num(struct json_object *o, sbuf *k, struct json_object *v)
{
	if (v &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		add_unique(o, k, json_object_get(v));
}

/* One multipart part (RFC 7578: name, filename, its type). */
static void part(sbuf *b, const char *boundary, const char *name, const char *filename,
		 const char *data)
{
	aieth__sb_printf(b,
			 "--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\n"
			 "Content-Type: application/json\r\n\r\n%s\r\n",
			 boundary, name, filename, data);
}

int aieth__up_payload_squad(struct json_object *root, const char *report_json, const char *boundary,
			    sbuf *b)
{
	struct json_object *tests = aieth__rj_get(root, "tests"), *run = aieth__rj_get(root, "run");
	struct json_object *env = aieth__rj_get(root, "environment");
	struct json_object *jt = json_object_new_object(), *jm = json_object_new_object();
	struct json_object *md = json_object_new_object(), *units = json_object_new_object();
	sbuf k = SB_INIT(SB_LINE_MAX);
	size_t i, j, c;
	int rc = AIETH_OK;
	unsigned *tdup = unique_names(tests, aieth__up_squad_name), *xdup = NULL;
	static const int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

	if (!jt || !jm || !md || !units || !tdup)
		goto oom;
	for (i = 0; i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		const char *tn = aieth__rj_gets(t, "name");
		unsigned td = tdup[i];
		free(xdup);
		if (!(xdup = unique_names(txns, aieth__up_squad_name)))
			goto oom;
		squad_key(&k, tn, td, NULL, 0, "result", NULL);
		add_unique(jt, &k,
			   json_object_new_string(squad_result(aieth__rj_gets(t, "status"))));
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			struct json_object *x = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(x, "channels"),
					   *lats = aieth__rj_get(x, "latencies");
			const char *xn = aieth__rj_gets(x, "name");
			unsigned xd = xdup[j];
			for (c = 0; chs && c < json_object_array_length(chs); c++) {
				struct json_object *ch = json_object_array_get_idx(chs, c);
				const char *plio = aieth__rj_gets(ch, "plio"),
					   *v = aieth__rj_gets(ch, "verdict");
				squad_key(&k, tn, td, xn, xd, plio, NULL);
				add_unique(jt, &k, json_object_new_string(squad_result(v)));
				squad_key(&k, tn, td, xn, xd, plio, ".throughput_MBps");
				add_num(jm, &k, aieth__rj_get(ch, "throughput_MBps"));
				squad_key(&k, tn, td, xn, xd, plio, ".cycles");
				add_num(jm, &k, aieth__rj_get(ch, "cycles"));
			}
			for (c = 0; lats && c < json_object_array_length(lats); c++) {
				struct json_object *l = json_object_array_get_idx(lats, c);
				sbuf leaf = SB_INIT(SB_LINE_MAX);
				aieth__sb_printf(&leaf, "latency.%s.%s", aieth__rj_gets(l, "from"),
						 aieth__rj_gets(l, "to"));
				squad_key(&k, tn, td, xn, xd, leaf.p ? leaf.p : "", ".cycles");
				add_num(jm, &k, aieth__rj_get(l, "cycles"));
				k.oom |= leaf.oom;
				aieth__sb_free(&leaf);
			}
		}
	}
	/* metadata: SQUAD's recognised keys (strings), then ours */
	json_object_object_add(md, "job_id", json_object_new_string(aieth__rj_gets(run, "id")));
	json_object_object_add(md, "datetime",
			       json_object_new_string(aieth__rj_gets(run, "started_at")));
	json_object_object_add(md, "job_status",
			       json_object_new_string(aieth__rj_gets(run, "status")));
	json_object_object_add(md, "board", json_object_new_string(aieth__rj_gets(env, "board")));
	json_object_object_add(md, "backend",
			       json_object_new_string(aieth__rj_gets(env, "backend")));
	json_object_object_add(md, "hostname",
			       json_object_new_string(aieth__rj_gets(env, "hostname")));
	json_object_object_add(md, "tool", json_object_new_string(aieth__rj_gets(run, "tool")));
	json_object_object_add(md, "tool_version",
			       json_object_new_string(aieth__rj_gets(run, "tool_version")));
	json_object_object_add(units, "throughput_MBps",
			       json_object_new_string("MB/s (10^6 bytes/s)"));
	json_object_object_add(units, "cycles", json_object_new_string("PL clock cycles"));
	json_object_object_add(md, "metric_units", units);
	units = NULL;
	if (k.oom)
		goto oom;
	part(b, boundary, "tests", "tests.json", json_object_to_json_string_ext(jt, flags));
	part(b, boundary, "metrics", "metrics.json", json_object_to_json_string_ext(jm, flags));
	part(b, boundary, "metadata", "metadata.json", json_object_to_json_string_ext(md, flags));
	part(b, boundary, "attachment", "report.json", report_json);
	aieth__sb_printf(b, "--%s--\r\n", boundary);
	if (b->oom)
		goto oom;
	goto done;
oom:
	rc = aieth__fail(AIETH_ENOMEM, "squad payload: out of memory");
done:
	free(tdup);
	free(xdup);
	aieth__sb_free(&k);
	json_object_put(jt);
	json_object_put(jm);
	json_object_put(md);
	json_object_put(units);
	return rc;
}
