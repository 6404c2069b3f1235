/* SPDX-License-Identifier: MIT */
/*
 * report_junit.c - junit.xml from the report: one <testsuite> per test
 * description, one <testcase> per transaction channel and latency bound,
 * <failure> for data, threshold and latency misses (the message names the
 * limit and the measured value) and a failed regression gate, <error> for
 * hangs and infrastructure problems
 * (JUnit: failure = the test ran and failed, error = it could not run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_why.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "util/utf8.h"

/* XML text/attribute escaping; tab, newline and carriage return become
 * character references (kept as such in attributes), other control
 * characters are not allowed in XML 1.0 and become '?'; a byte that is not
 * valid UTF-8 becomes the text \xNN (util/utf8.h). */
static void sb_xml(sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		size_t n;
		if (ch >= 0x80) {
			if ((n = aieth__utf8_seq(s))) {
				aieth__sb_put(b, s, n);
				s += n - 1;
			} else {
				aieth__sb_printf(b, "\\x%02x", ch);
			}
			continue;
		}
		switch (ch) {
		case '&': sb_lit(b, "&amp;"); break;
		case '<': sb_lit(b, "&lt;"); break;
		case '>': sb_lit(b, "&gt;"); break;
		case '"': sb_lit(b, "&quot;"); break;
		case '\'': sb_lit(b, "&apos;"); break;
		case '\n': sb_lit(b, "&#10;"); break; /* kept in attributes too */
		case '\t': sb_lit(b, "&#9;"); break;
		case '\r': sb_lit(b, "&#13;"); break;
		default:
			if (ch < 0x20 || ch == 0x7f)
				sb_lit(b, "?");
			else
				aieth__sb_put(b, s, 1);
		}
	}
}

/* A case's opening, up to "TXN." in its name (the caller adds the rest
 * of the name and the time). */
static void case_open(sbuf *b, struct json_object *test, struct json_object *txn)
{
	sb_lit(b, "    <testcase classname=\"");
	sb_xml(b, aieth__rj_gets(test, "name"));
	sb_lit(b, "\" name=\"");
	sb_xml(b, aieth__rj_gets(txn, "name"));
	sb_lit(b, ".");
}

/* A failure's message element (fallback when the words could not be
 * written: out of memory). */
static void case_failure(sbuf *b, const char *type, const sbuf *w, const char *fallback)
{
	aieth__sb_printf(b, "      <failure type=\"%s\" message=\"", type);
	sb_xml(b, w->p && !w->oom ? w->p : fallback);
	sb_lit(b, "\"/>\n");
}

static void junit_case(sbuf *b, struct json_object *test, struct json_object *txn,
		       struct json_object *ch)
{
	const char *verdict = aieth__rj_gets(ch, "verdict");
	struct json_object *in = aieth__rj_get(ch, "integrity");
	case_open(b, test, txn);
	sb_xml(b, aieth__rj_gets(ch, "plio"));
	aieth__sb_printf(b, "\" time=\"%.6f\">\n", aieth__rj_getd(ch, "duration_ns") * 1e-9);
	if (!strcmp(verdict, "fail")) {
		/* the message names the limit and the measured value */
		sbuf w = SB_INIT(SB_LINE_MAX);
		aieth__rw_channel_why(&w, ch);
		case_failure(b, in && aieth__rj_geti(in, "mismatches") > 0 ? "data" : "threshold",
			     &w, "a check failed (see report.json)");
		aieth__sb_free(&w);
	} else if (!strcmp(verdict, "timeout") || !strcmp(verdict, "error") ||
		   !strcmp(verdict, "interrupted")) {
		aieth__sb_printf(b, "      <error type=\"%s\" message=\"", verdict);
		sb_xml(b, aieth__rj_gets(txn, "message"));
		sb_lit(b, "\"/>\n");
	}
	sb_lit(b, "    </testcase>\n");
}

/* A latency bound is a case of its own: <transaction>.latency.<from>-><to>. */
static void junit_latency(sbuf *b, struct json_object *test, struct json_object *txn,
			  struct json_object *l)
{
	sbuf w = SB_INIT(SB_LINE_MAX);
	case_open(b, test, txn);
	sb_lit(b, "latency.");
	sb_xml(b, aieth__rj_gets(l, "from"));
	sb_lit(b, "->");
	sb_xml(b, aieth__rj_gets(l, "to"));
	sb_lit(b, "\" time=\"0\">\n");
	/* only a completed transaction can miss a bound; else its channels
	 * carry the error and the bound, not measured, is skipped (an empty
	 * case would read as a pass) */
	if (!strcmp(aieth__rj_gets(txn, "status"), "done")) {
		if (aieth__rw_latency_why(&w, l))
			case_failure(b, "latency", &w, "the latency bound was missed");
	} else if (aieth__rw_latency_unmeasured(&w, txn, l)) {
		sb_lit(b, "      <skipped message=\"");
		sb_xml(b, w.p && !w.oom ? w.p : "not measured");
		sb_lit(b, "\"/>\n");
	}
	aieth__sb_free(&w);
	sb_lit(b, "    </testcase>\n");
}

int aieth_report_write_junit(const aieth_report *r, const char *path)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, j, k, n;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_junit: NULL argument");
	n = json_object_array_length(r->tests);
	aieth__sb_printf(
		&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"run_test\">\n");
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(r->tests, i);
		struct json_object *txns = aieth__rj_get(t, "transactions"),
				   *err = aieth__rj_get(t, "error"), *vd;
		size_t cases = 0, failures = 0, errors = 0, skipped = 0;
		int err_failed;
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			struct json_object *tx = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(tx, "channels"),
					   *lats = aieth__rj_get(tx, "latencies");
			for (k = 0; lats && k < json_object_array_length(lats); k++) {
				struct json_object *l = json_object_array_get_idx(lats, k),
						   *cy = aieth__rj_get(l, "cycles");
				int done = !strcmp(aieth__rj_gets(tx, "status"), "done");
				cases++;
				failures += done &&
					    !json_object_get_boolean(aieth__rj_get(l, "passed"));
				skipped +=
					!done && (!cy || json_object_is_type(cy, json_type_null));
			}
			for (k = 0; chs && k < json_object_array_length(chs); k++) {
				const char *v = aieth__rj_gets(json_object_array_get_idx(chs, k),
							       "verdict");
				cases++;
				failures += !strcmp(v, "fail");
				errors += !strcmp(v, "timeout") || !strcmp(v, "error") ||
					  !strcmp(v, "interrupted");
			}
		}
		/* the test-level error is a case of its own: a failure when the
		 * test ran and failed (a regression gate), else an error */
		err_failed = err && !strcmp(aieth__rj_gets(t, "status"), "fail");
		if (err) {
			cases++;
			failures += err_failed;
			errors += !err_failed;
		}
		/* a validate test without an error is one case: passed or skipped */
		vd = err ? NULL : aieth__rj_get(t, "validate");
		cases += vd != NULL;
		sb_lit(&b, "  <testsuite name=\"");
		sb_xml(&b, aieth__rj_gets(t, "name"));
		aieth__sb_printf(&b,
				 "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
				 "time=\"%.3f\">\n",
				 cases, failures, errors,
				 skipped + (aieth__rj_geti(t, "exit_code") == AIETH_EXIT_SKIP),
				 aieth__rj_getd(t, "duration_s"));
		sb_lit(&b, "    <properties>\n");
		{
			const char *props[] = {"board", "backend", "spec", "status"};
			struct json_object *xo = aieth__rj_get(t, "xclbin");
			size_t p;
			for (p = 0; p < sizeof props / sizeof *props; p++) {
				aieth__sb_printf(&b, "      <property name=\"%s\" value=\"",
						 props[p]);
				sb_xml(&b, aieth__rj_gets(t, props[p]));
				sb_lit(&b, "\"/>\n");
			}
			if (xo) {
				sb_lit(&b, "      <property name=\"xclbin\" value=\"");
				sb_xml(&b, aieth__rj_gets(xo, "path"));
				sb_lit(&b, "\"/>\n      <property name=\"xclbin_uuid\" value=\"");
				sb_xml(&b, aieth__rj_gets(xo, "uuid"));
				sb_lit(&b, "\"/>\n");
			}
		}
		sb_lit(&b, "    </properties>\n");
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			struct json_object *tx = json_object_array_get_idx(txns, j);
			struct json_object *chs = aieth__rj_get(tx, "channels"),
					   *lats = aieth__rj_get(tx, "latencies");
			for (k = 0; chs && k < json_object_array_length(chs); k++)
				junit_case(&b, t, tx, json_object_array_get_idx(chs, k));
			for (k = 0; lats && k < json_object_array_length(lats); k++)
				junit_latency(&b, t, tx, json_object_array_get_idx(lats, k));
		}
		if (vd) {
			sb_lit(&b, "    <testcase classname=\"");
			sb_xml(&b, aieth__rj_gets(t, "name"));
			sb_lit(&b, "\" name=\"");
			sb_xml(&b, aieth__rj_gets(vd, "test"));
			aieth__sb_printf(&b, "\" time=\"%.3f\">", aieth__rj_getd(t, "duration_s"));
			if (!strcmp(aieth__rj_gets(vd, "verdict"), "SKIPPED")) {
				sb_lit(&b, "<skipped message=\"");
				sb_xml(&b, aieth__rj_gets(vd, "reason"));
				sb_lit(&b, "\"/>");
			}
			sb_lit(&b, "</testcase>\n");
		}
		if (err) {
			sb_lit(&b, "    <testcase classname=\"");
			sb_xml(&b, aieth__rj_gets(t, "name"));
			sb_lit(&b, "\" name=\"");
			sb_xml(&b, aieth__rj_gets(err, "phase"));
			aieth__sb_printf(&b, "\" time=\"0\">\n      <%s type=\"",
					 err_failed ? "failure" : "error");
			sb_xml(&b, aieth__rj_gets(err, err_failed ? "phase" : "code"));
			sb_lit(&b, "\" message=\"");
			sb_xml(&b, aieth__rj_gets(err, "message"));
			sb_lit(&b, "\"/>\n    </testcase>\n");
		}
		sb_lit(&b, "  </testsuite>\n");
	}
	sb_lit(&b, "</testsuites>\n");
	return aieth__sb_write_file(&b, path);
}
