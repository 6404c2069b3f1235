/* SPDX-License-Identifier: MIT */
/*
 * report_text.c - the human summary (one table per transaction) and the
 * stable one-line markers farms parse (RUN_TEST BEGIN / CASE / END).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "report/report_sweep.h"
#include "report/report_why.h"
#include "util/sbuf.h"
#include "util/stats.h"
#include "util/utf8.h"

static void upper(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = (char)toupper((unsigned char)s[i]);
	dst[i] = '\0';
}

/* s with control characters and bytes that are not valid UTF-8 shown as
 * \xNN (\n, \t, \r by name): a name or message can never start a line of
 * its own, forge a marker or send a terminal escape sequence. Truncated to
 * n, never inside a character. */
static const char *clean(char *dst, size_t n, const char *s)
{
	size_t k = 0, m;
	for (; s && *s && k + 5 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch >= 0x80 && (m = aieth__utf8_seq(s))) {
			if (k + m + 5 >= n)
				break;
			memcpy(dst + k, s, m);
			k += m;
			s += m - 1;
			continue;
		}
		if (ch >= 0x20 && ch < 0x7f) {
			dst[k++] = (char)ch;
			continue;
		}
		dst[k++] = '\\';
		if (ch == '\n')
			dst[k++] = 'n';
		else if (ch == '\t')
			dst[k++] = 't';
		else if (ch == '\r')
			dst[k++] = 'r';
		else
			k += (size_t)snprintf(dst + k, n - k, "x%02x", ch);
	}
	dst[k] = '\0';
	return dst;
}

static void data_cell(char *buf, size_t n, struct json_object *ch)
{
	struct json_object *in = aieth__rj_get(ch, "integrity");
	if (!in || !json_object_get_boolean(aieth__rj_get(in, "checked")))
		snprintf(buf, n, "-");
	else if (aieth__rj_geti(in, "mismatches") == 0)
		snprintf(buf, n, "ok (%lld)", (long long)aieth__rj_geti(in, "elements"));
	else
		snprintf(buf, n, "%lld BAD @%lld", (long long)aieth__rj_geti(in, "mismatches"),
			 (long long)aieth__rj_geti(aieth__rj_get(in, "first_mismatch"), "offset"));
}

/* The verdict, and for a failed one the limit and the measured value. */
static const char *verdict_cell(char *dst, size_t n, struct json_object *ch)
{
	sbuf w = SB_INIT(SB_LINE_MAX);
	aieth__sb_printf(&w, "%s", aieth__rj_gets(ch, "verdict"));
	if (!strcmp(aieth__rj_gets(ch, "verdict"), "fail")) {
		sb_lit(&w, ": ");
		aieth__rw_channel_why(&w, ch);
	}
	clean(dst, n, w.p && !w.oom ? w.p : aieth__rj_gets(ch, "verdict"));
	aieth__sb_free(&w);
	return dst;
}

/* A figure of repeated runs (its "stats" object, docs/report-schema.md):
 * 1 and its median and spread, "±" being the mad relative to the median
 * (util/stats.c); 0 for one run (no stats). */
static int spread(struct json_object *o, const char *figure, double *median, double *pct)
{
	struct json_object *s = aieth__rj_get(aieth__rj_get(o, "stats"), figure);
	aieth__stats st;
	if (!s)
		return 0;
	memset(&st, 0, sizeof st);
	st.median = aieth__rj_getd(s, "median");
	st.mad = aieth__rj_getd(s, "mad");
	*median = st.median;
	*pct = aieth__stats_spread_pct(&st);
	return 1;
}

/* The MB/s cell: the median run's value, with the spread when repeated
 * ("5000.0 ±0.2 %"); its width in bytes for w columns ("±" is 2 bytes). */
static int mbps_cell(char *dst, size_t n, struct json_object *ch, int w)
{
	double med, pct;
	if (spread(ch, "throughput_MBps", &med, &pct)) {
		snprintf(dst, n, "%.1f \xc2\xb1%.1f %%", med, pct);
		return w + 1;
	}
	snprintf(dst, n, "%.1f", aieth__rj_getd(ch, "throughput_MBps"));
	return w;
}

/* The AI Engine lines a hung test shows; the rest are in report.json. */
#define TEXT_AIE_MAX 8

/* A hang's AI Engine state in words beside the channels' table: one line
 * per sentence of aie_state.summary (a stuck tile, DMA channel or graph
 * model port), or its first notes when nothing was found stuck. */
static void text_aie(sbuf *b, struct json_object *t)
{
	struct json_object *a = aieth__rj_get(t, "aie_state"), *w, *notes;
	char line[1024];
	size_t i, n, nn;
	if (!a || !json_object_is_type(a, json_type_object))
		return;
	w = aieth__rj_get(a, "summary");
	notes = aieth__rj_get(a, "notes");
	n = w && json_object_is_type(w, json_type_array) ? json_object_array_length(w) : 0;
	nn = notes && json_object_is_type(notes, json_type_array) ? json_object_array_length(notes)
								  : 0;
	aieth__sb_printf(b, "   AI Engine (%s):%s\n", clean(line, 64, aieth__rj_gets(a, "source")),
			 n ? "" : " nothing found stuck");
	for (i = 0; i < n && i < TEXT_AIE_MAX; i++)
		aieth__sb_printf(b, "     %s\n",
				 clean(line, sizeof line,
				       json_object_get_string(json_object_array_get_idx(w, i))));
	if (n > TEXT_AIE_MAX)
		aieth__sb_printf(b, "     ... %zu more in report.json (aie_state.summary)\n",
				 n - TEXT_AIE_MAX);
	for (i = 0; !n && i < nn && i < 2; i++)
		aieth__sb_printf(
			b, "     note: %s\n",
			clean(line, sizeof line,
			      json_object_get_string(json_object_array_get_idx(notes, i))));
	if (!n && nn > 2)
		aieth__sb_printf(b, "     ... %zu more notes in report.json (aie_state.notes)\n",
				 nn - 2);
}

static void text_test(sbuf *b, struct json_object *t)
{
	struct json_object *txns = aieth__rj_get(t, "transactions"),
			   *err = aieth__rj_get(t, "error");
	/* c1: a name whole up to a test description's limit (1024 bytes) */
	char st[16], c1[1024 + 16], c2[256], c3[64], c4[2048];
	size_t j, k;

	upper(st, sizeof st, aieth__rj_gets(t, "status"));
	aieth__sb_printf(
		b, "== %s (%s, %s): %s, exit %lld [%.3f s]\n",
		clean(c1, sizeof c1, aieth__rj_gets(t, "name")),
		aieth__rj_gets(t, "board")[0] ? clean(c2, sizeof c2, aieth__rj_gets(t, "board"))
					      : "no board",
		aieth__rj_gets(t, "backend")[0] ? clean(c3, sizeof c3, aieth__rj_gets(t, "backend"))
						: "-",
		st, (long long)aieth__rj_geti(t, "exit_code"), aieth__rj_getd(t, "duration_s"));
	for (j = 0; txns && j < json_object_array_length(txns); j++) {
		struct json_object *tx = json_object_array_get_idx(txns, j);
		struct json_object *chs = aieth__rj_get(tx, "channels"),
				   *lats = aieth__rj_get(tx, "latencies");
		struct json_object *fails = aieth__rj_get(tx, "runs_failed");
		char ts[16];
		int mw = 9; /* the MB/s column; wider with a spread */
		upper(ts, sizeof ts, aieth__rj_gets(tx, "status"));
		aieth__sb_printf(b, "   transaction %lld \"%s\" (%s): %s%s, ",
				 (long long)aieth__rj_geti(tx, "index"),
				 clean(c1, sizeof c1, aieth__rj_gets(tx, "name")),
				 aieth__rj_gets(tx, "mode"), ts,
				 !strcmp(aieth__rj_gets(tx, "status"), "done")
					 ? (json_object_get_boolean(aieth__rj_get(tx, "valid"))
						    ? ", valid"
						    : ", NOT VALID")
					 : "");
		/* 0: a board that does not count them (xrt, docs/on-board.md) */
		if (!aieth__rj_geti(tx, "total_cycles"))
			sb_lit(b, "board cycles not known\n");
		else
			aieth__sb_printf(b, "%lld board cycles\n",
					 (long long)aieth__rj_geti(tx, "total_cycles"));
		if (aieth__rj_gets(tx, "message")[0])
			aieth__sb_printf(b, "   note: %s\n",
					 clean(c4, sizeof c4, aieth__rj_gets(tx, "message")));
		{
			/* repeated: how many runs, which one the table shows */
			struct json_object *rp = aieth__rj_get(t, "repeat"),
					   *mr = aieth__rj_get(tx, "median_run");
			double med, pct;
			if (rp && aieth__rj_geti(rp, "runs") + aieth__rj_geti(rp, "warmup") > 1) {
				aieth__sb_printf(b, "   runs: %lld measured (%lld warm-up)",
						 (long long)aieth__rj_geti(rp, "runs"),
						 (long long)aieth__rj_geti(rp, "warmup"));
				if (mr)
					aieth__sb_printf(
						b, ", the table shows run %lld (median cycles)",
						(long long)json_object_get_int64(mr) + 1);
				if (spread(tx, "total_cycles", &med, &pct))
					aieth__sb_printf(b, "; cycles %.0f \xc2\xb1%.1f %%", med,
							 pct);
				aieth__sb_printf(b, "; thresholds on the %s\n",
						 aieth__rj_gets(rp, "statistic"));
			}
		}
		for (k = 0; chs && k < json_object_array_length(chs); k++)
			if (aieth__rj_get(json_object_array_get_idx(chs, k), "stats"))
				mw = 16;
		aieth__sb_printf(b, "   %-17s %-4s %-5s %12s %10s %10s %10s %*s %6s  %-14s %s\n",
				 "PLIO", "dir", "shim", "bytes", "first", "last", "cycles", mw,
				 "MB/s", "%peak", "data", "verdict");
		for (k = 0; chs && k < json_object_array_length(chs); k++) {
			struct json_object *ch = json_object_array_get_idx(chs, k);
			struct json_object *pl = aieth__rj_get(ch, "placement");
			char shim[16], data[40], bytes[32], vd[1024], mb[48];
			int fin = json_object_get_boolean(aieth__rj_get(ch, "finished"));
			snprintf(shim, sizeof shim, "%lld/%lld",
				 (long long)aieth__rj_geti(pl, "shim_column"),
				 (long long)aieth__rj_geti(pl, "shim_channel"));
			data_cell(data, sizeof data, ch);
			if (fin)
				snprintf(bytes, sizeof bytes, "%lld",
					 (long long)aieth__rj_geti(ch, "bytes_moved"));
			else
				snprintf(bytes, sizeof bytes, "%lld/%lld",
					 (long long)aieth__rj_geti(ch, "bytes_moved"),
					 (long long)aieth__rj_geti(ch, "bytes_expected"));
			if (fin) {
				int cw = mbps_cell(mb, sizeof mb, ch, mw);
				aieth__sb_printf(
					b,
					"   %-17s %-4s %-5s %12s %10lld %10lld %10lld %*s %6.1f  %-14s %s\n",
					aieth__rj_gets(ch, "plio"),
					strcmp(aieth__rj_gets(ch, "direction"), "to_aie") ? "from"
											  : "to",
					shim, bytes, (long long)aieth__rj_geti(ch, "first_cycle"),
					(long long)aieth__rj_geti(ch, "last_cycle"),
					(long long)aieth__rj_geti(ch, "cycles"), cw, mb,
					aieth__rj_getd(ch, "utilisation_pct"), data,
					verdict_cell(vd, sizeof vd, ch));
			} else {
				sbuf u = SB_INIT(SB_LINE_MAX);
				aieth__rw_unfinished(&u, tx, ch);
				aieth__sb_printf(
					b, "   %-17s %-4s %-5s %12s  %-46s %-14s %s\n",
					aieth__rj_gets(ch, "plio"),
					strcmp(aieth__rj_gets(ch, "direction"), "to_aie") ? "from"
											  : "to",
					shim, bytes, u.p && !u.oom ? u.p : "did not finish", data,
					aieth__rj_gets(ch, "verdict"));
				aieth__sb_free(&u);
			}
		}
		for (k = 0; lats && k < json_object_array_length(lats); k++) {
			struct json_object *l = json_object_array_get_idx(lats, k);
			sbuf w = SB_INIT(SB_LINE_MAX);
			double med, pct;
			/* not measured: said so, never "0 cycles ... FAIL" */
			if (aieth__rw_latency_unmeasured(&w, tx, l)) {
				aieth__sb_printf(b, "   latency %s -> %s: %s (max %lld): %s\n",
						 aieth__rj_gets(l, "from"), aieth__rj_gets(l, "to"),
						 w.p && !w.oom ? w.p : "not measured",
						 (long long)aieth__rj_geti(l, "max_cycles"),
						 !strcmp(aieth__rj_gets(tx, "status"), "done")
							 ? "FAIL"
							 : "not checked");
				aieth__sb_free(&w);
				continue;
			}
			aieth__sb_printf(b, "   latency %s -> %s: %lld cycles",
					 aieth__rj_gets(l, "from"), aieth__rj_gets(l, "to"),
					 (long long)aieth__rj_geti(l, "cycles"));
			if (spread(l, "cycles", &med, &pct))
				aieth__sb_printf(b, " \xc2\xb1%.1f %%", pct);
			aieth__sb_printf(
				b, " (max %lld): %s", (long long)aieth__rj_geti(l, "max_cycles"),
				json_object_get_boolean(aieth__rj_get(l, "passed")) ? "pass"
										    : "FAIL");
			if (aieth__rw_latency_why(&w, l) && w.p && !w.oom)
				aieth__sb_printf(b, " (%s)", w.p);
			aieth__sb_free(&w);
			sb_lit(b, "\n");
		}
		for (k = 0; fails && k < json_object_array_length(fails); k++)
			aieth__sb_printf(b, "   failed: %s\n",
					 clean(c4, sizeof c4,
					       aieth__rj_gets(json_object_array_get_idx(fails, k),
							      "reason")));
	}
	text_aie(b, t);
	if (err) {
		/* a message of several lines (a design xclbin's problems): each
		 * line indented, so none starts a line of the output */
		const char *m = aieth__rj_gets(err, "message"), *nl;
		char part[2048];
		nl = strchr(m, '\n');
		snprintf(part, sizeof part, "%.*s", nl ? (int)(nl - m) : (int)strlen(m), m);
		aieth__sb_printf(b, "   error (%s, %s): %s\n", aieth__rj_gets(err, "phase"),
				 aieth__rj_gets(err, "code"), clean(c4, sizeof c4, part));
		while (nl) {
			m = nl + 1;
			nl = strchr(m, '\n');
			snprintf(part, sizeof part, "%.*s", nl ? (int)(nl - m) : (int)strlen(m), m);
			aieth__sb_printf(b, "     %s\n", clean(c4, sizeof c4, part));
		}
		if (aieth__rj_gets(err, "hint")[0])
			aieth__sb_printf(b, "   hint: %s\n",
					 clean(c4, sizeof c4, aieth__rj_gets(err, "hint")));
	}
	/* a hang's cause in words: a farm resets a board for a stall only */
	if (!strcmp(aieth__rj_gets(t, "verdict_detail"), "data_size_mismatch"))
		aieth__sb_printf(
			b, "   verdict: data size mismatch (an input mistake, not a stall: fix the "
			   "sizes; the board needs no reset)\n");
	else if (!strcmp(aieth__rj_gets(t, "verdict_detail"), "stall"))
		aieth__sb_printf(
			b, "   verdict: stall (the graph stopped before its iterations were done: "
			   "a real hang; on a board, reset it)\n");
}

/* The knee lines a sweep's summary shows; the rest are in report.json. */
#define TEXT_KNEES_MAX 16

/* A sweep's summary after its last point: how many points ran and passed,
 * why it stopped, and its knees (docs/report-schema.md, "Sweeps"). */
static void text_sweep(sbuf *b, struct json_object *sw, struct json_object *tests, size_t first,
		       size_t count)
{
	struct json_object *knees = aieth__rj_get(sw, "knees"), *axes = aieth__rj_get(sw, "axes");
	char c1[1024 + 16], c2[600], c3[128];
	size_t i, passed = 0, nk, shown = 0;
	for (i = first; i < first + count; i++)
		passed += !strcmp(aieth__rj_gets(json_object_array_get_idx(tests, i), "status"),
				  "pass");
	aieth__sb_printf(b, "== sweep \"%s\" (%s): %lld of %lld points ran, %zu passed",
			 clean(c1, sizeof c1, aieth__rj_gets(sw, "name")),
			 clean(c3, sizeof c3, aieth__rj_gets(sw, "mode")),
			 (long long)aieth__rj_geti(sw, "points_run"),
			 (long long)aieth__rj_geti(sw, "points"), passed);
	if (aieth__rj_gets(sw, "stopped")[0])
		aieth__sb_printf(b, ", stopped: %s",
				 clean(c3, sizeof c3, aieth__rj_gets(sw, "stopped")));
	aieth__sb_printf(b, "; axes:");
	for (i = 0; axes && json_object_is_type(axes, json_type_array) &&
		    i < json_object_array_length(axes);
	     i++)
		aieth__sb_printf(b, "%s %s", i ? "," : "",
				 clean(c3, sizeof c3,
				       aieth__rj_gets(json_object_array_get_idx(axes, i), "name")));
	sb_lit(b, "\n");
	nk = knees && json_object_is_type(knees, json_type_array) ? json_object_array_length(knees)
								  : 0;
	for (i = 0; i < nk && shown < TEXT_KNEES_MAX; i++) {
		struct json_object *k = json_object_array_get_idx(knees, i),
				   *at = aieth__rj_get(k, "at");
		const char *ats =
			at && json_object_object_length(at)
				? json_object_to_json_string_ext(at, JSON_C_TO_STRING_PLAIN)
				: NULL;
		shown++;
		aieth__sb_printf(b, "   knee of %s along %s",
				 clean(c3, sizeof c3, aieth__rj_gets(k, "plio")),
				 clean(c1, sizeof c1, aieth__rj_gets(k, "axis")));
		if (ats)
			aieth__sb_printf(b, " at %s", clean(c2, sizeof c2, ats));
		if (aieth__rj_get(k, "value") &&
		    !json_object_is_type(aieth__rj_get(k, "value"), json_type_null))
			aieth__sb_printf(b, ": %s (95 %% of the plateau, %.1f MB/s)\n",
					 json_object_get_string(aieth__rj_get(k, "value")),
					 aieth__rj_getd(k, "plateau_MBps"));
		else
			aieth__sb_printf(b, ": none, %s\n",
					 clean(c2, sizeof c2, aieth__rj_gets(k, "reason")));
	}
	if (nk > shown)
		aieth__sb_printf(b, "   ... %zu more knees in report.json (run.sweeps[].knees)\n",
				 nk - shown);
}

/* Test i's text, and a sweep's summary when i is its last point. */
static void text_test_at(sbuf *b, const aieth_report *r, size_t i)
{
	struct json_object *sweeps = aieth__rj_get(r->run, "sweeps");
	size_t k, n, first, count;
	text_test(b, json_object_array_get_idx(r->tests, i));
	n = sweeps && json_object_is_type(sweeps, json_type_array)
		    ? json_object_array_length(sweeps)
		    : 0;
	for (k = 0; k < n; k++)
		if (!aieth__sweep_tests(r->tests, k, &first, &count) && count &&
		    i == first + count - 1)
			text_sweep(b, json_object_array_get_idx(sweeps, k), r->tests, first, count);
}

char *aieth_report_text(const aieth_report *r, int index)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, n;
	if (!r)
		return NULL;
	n = json_object_array_length(r->tests);
	if (index >= 0) {
		if ((size_t)index < n)
			text_test_at(&b, r, (size_t)index);
	} else {
		for (i = 0; i < n; i++)
			text_test_at(&b, r, i);
	}
	if (!b.p)
		sb_lit(&b, "");
	return aieth__sb_take(&b);
}

/* Marker names may not contain whitespace (LAVA test case ids) nor control
 * characters (a newline would start a forged marker line), nor < and >: on
 * a console LAVA reads for "<LAVA_SIGNAL_...>", a name holding them could
 * start a forged signal or swallow the next real one (run_test --lava). */
static void token(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = isspace((unsigned char)s[i]) || iscntrl((unsigned char)s[i]) ||
					 s[i] == '=' || s[i] == '<' || s[i] == '>'
				 ? '_'
				 : s[i];
	dst[i] = '\0';
}

char *aieth_report_markers(const aieth_report *r)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, j, k, n;
	/* names whole up to a test description's limit (256 characters, at
	 * most 1024 bytes: docs/test-spec.md), with a PLIO name */
	char id[80], name[2 * 1025 + 160], tn[1025], xn[1025];
	if (!r)
		return NULL;
	token(id, sizeof id, aieth__rj_gets(r->run, "id"));
	aieth__sb_printf(&b, "RUN_TEST BEGIN run=%s\n", id);
	n = json_object_array_length(r->tests);
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions");
		token(tn, sizeof tn, aieth__rj_gets(t, "name"));
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			struct json_object *tx = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(tx, "channels");
			token(xn, sizeof xn, aieth__rj_gets(tx, "name"));
			for (k = 0; chs && k < json_object_array_length(chs); k++) {
				struct json_object *ch = json_object_array_get_idx(chs, k);
				snprintf(name, sizeof name, "%s.%s.%s", tn, xn,
					 aieth__rj_gets(ch, "plio"));
				if (json_object_get_boolean(aieth__rj_get(ch, "finished")))
					aieth__sb_printf(
						&b,
						"RUN_TEST CASE name=%s result=%s measurement=%.3f "
						"units=MBps\n",
						name, aieth__rj_gets(ch, "verdict"),
						aieth__rj_getd(ch, "throughput_MBps"));
				else
					aieth__sb_printf(&b, "RUN_TEST CASE name=%s result=%s\n",
							 name, aieth__rj_gets(ch, "verdict"));
			}
		}
		aieth__sb_printf(&b, "RUN_TEST CASE name=%s result=%s\n", tn,
				 aieth__rj_gets(t, "status"));
	}
	aieth__sb_printf(&b, "RUN_TEST END run=%s status=%s exit=%lld\n", id,
			 aieth__rj_gets(r->run, "status"),
			 (long long)aieth__rj_geti(r->run, "exit_code"));
	return aieth__sb_take(&b);
}
