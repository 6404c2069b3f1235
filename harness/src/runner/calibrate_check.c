/* SPDX-License-Identifier: MIT */
/*
 * calibrate_check.c - the description and report pairs of run_test
 * calibrate: a board report is only fitted when it is one of the same
 * description on the same board and every counter in it is final. Which
 * values are compared is decided here, once per pair.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "runner/amd_log.h"
#include "runner/calibrate_impl.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

typedef struct json_object jobj;

double aieth__cal_rel_err(double emu, double board)
{
	double d = fabs(board) > 1 ? fabs(board) : 1;
	return fabs(emu - board) / d;
}

static int is_num(jobj *v)
{
	return v &&
	       (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

static jobj *idx(jobj *arr, size_t i)
{
	return arr && json_object_is_type(arr, json_type_array) && i < json_object_array_length(arr)
		       ? json_object_array_get_idx(arr, i)
		       : NULL;
}

static size_t len(jobj *arr)
{
	return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

static double val_of(jobj *chan_or_txn, int kind)
{
	static const char *const keys[] = {"first_cycle", "last_cycle", "cycles", "total_cycles"};
	return aieth__rj_getd(chan_or_txn, keys[kind]);
}

static int add_val(aieth_calib *c, size_t pair, size_t txn, size_t chan, int kind, double board,
		   const char *test, const char *tname, const char *plio)
{
	cal_val *v;
	size_t n;
	if (c->nvals >= CAL_MAX_VALUES)
		return aieth__fail(AIETH_EINVAL, "calibrate: more than %u compared values",
				   CAL_MAX_VALUES);
	if (AIETH__GROW(c->vals, c->vcap, c->nvals + 1, 64, 0))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	v = &c->vals[c->nvals];
	memset(v, 0, sizeof *v);
	n = strlen(test) + strlen(tname) + strlen(plio) + 8;
	v->label = malloc(n);
	if (!v->label)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	snprintf(v->label, n, "%s / %s / %s", test, tname, plio);
	v->pair = pair;
	v->txn = txn;
	v->chan = chan;
	v->kind = kind;
	v->board = board;
	c->nvals++;
	return AIETH_OK;
}

/* The board report's test bt (tests[ti]) against the emulated test et. */
static int check_test(aieth_calib *c, const char *rp, size_t ti, jobj *bt, jobj *et)
{
	jobj *btx = aieth__rj_get(bt, "transactions"), *etx = aieth__rj_get(et, "transactions");
	const char *st = aieth__rj_gets(bt, "status"), *tb = aieth__rj_gets(bt, "board");
	double clk = aieth__rj_getd(bt, "pl_clock_MHz");
	char q[100], q2[100];
	size_t j, k;
	if (*tb && strcmp(tb, c->board_name)) {
		aieth__quote_str(q, sizeof q, tb);
		return aieth__fail(AIETH_EINVAL,
				   "%s: tests[%zu].board: \"%s\" is another board than "
				   "the one calibrated (\"%s\", --board)",
				   rp, ti, q, c->board_name);
	}
	if (clk > 0 && fabs(clk - c->pl_clock_MHz) > 1e-6 * c->pl_clock_MHz)
		return aieth__fail(AIETH_EINVAL,
				   "%s: tests[%zu].pl_clock_MHz: %g, the board "
				   "calibrated runs at %g",
				   rp, ti, clk, c->pl_clock_MHz);
	if (strcmp(st, "pass") && strcmp(st, "fail")) {
		aieth__quote_str(q, sizeof q, st);
		return aieth__fail(
			AIETH_EINVAL,
			"%s: tests[%zu].status: \"%s\": the test did not "
			"finish (hang, timeout, error or interrupt), its counters are not "
			"final (only \"pass\" and \"fail\" are fitted)",
			rp, ti, q);
	}
	if (len(btx) != len(etx))
		return aieth__fail(AIETH_EINVAL,
				   "%s: tests[%zu].transactions: %zu transactions, the "
				   "description has %zu",
				   rp, ti, len(btx), len(etx));
	for (j = 0; j < len(btx); j++) {
		jobj *b = idx(btx, j), *e = idx(etx, j);
		jobj *bc = aieth__rj_get(b, "channels"), *ec = aieth__rj_get(e, "channels");
		const char *fields[] = {"name", "mode", NULL};
		int f;
		for (f = 0; fields[f]; f++)
			if (strcmp(aieth__rj_gets(b, fields[f]), aieth__rj_gets(e, fields[f]))) {
				aieth__quote_str(q, sizeof q, aieth__rj_gets(b, fields[f]));
				aieth__quote_str(q2, sizeof q2, aieth__rj_gets(e, fields[f]));
				return aieth__fail(AIETH_EINVAL,
						   "%s: tests[%zu].transactions[%zu].%s: "
						   "\"%s\", the description has \"%s\"",
						   rp, ti, j, fields[f], q, q2);
			}
		if (strcmp(aieth__rj_gets(b, "status"), "done")) {
			aieth__quote_str(q, sizeof q, aieth__rj_gets(b, "status"));
			return aieth__fail(
				AIETH_EINVAL,
				"%s: tests[%zu].transactions[%zu].status: "
				"\"%s\": the transaction did not complete (hang, timeout, "
				"error or interrupt), its counters are not final",
				rp, ti, j, q);
		}
		if (len(bc) != len(ec))
			return aieth__fail(AIETH_EINVAL,
					   "%s: tests[%zu].transactions[%zu].channels: %zu "
					   "PLIOs, the description has %zu",
					   rp, ti, j, len(bc), len(ec));
		for (k = 0; k < len(bc); k++) {
			jobj *ch = idx(bc, k);
			int kind;
			if (strcmp(aieth__rj_gets(ch, "plio"),
				   aieth__rj_gets(idx(ec, k), "plio"))) {
				aieth__quote_str(q, sizeof q, aieth__rj_gets(ch, "plio"));
				aieth__quote_str(q2, sizeof q2, aieth__rj_gets(idx(ec, k), "plio"));
				return aieth__fail(
					AIETH_EINVAL,
					"%s: tests[%zu].transactions[%zu]."
					"channels[%zu].plio: \"%s\", the description has "
					"\"%s\"",
					rp, ti, j, k, q, q2);
			}
			if (aieth__rj_get(ch, "finished") &&
			    !json_object_get_boolean(aieth__rj_get(ch, "finished")))
				return aieth__fail(
					AIETH_EINVAL,
					"%s: tests[%zu].transactions[%zu]."
					"channels[%zu].finished: false: the channel did not "
					"move all its data, its counters are not final",
					rp, ti, j, k);
			for (kind = CAL_FIRST; kind <= CAL_CYCLES; kind++) {
				static const char *const keys[] = {"first_cycle", "last_cycle",
								   "cycles"};
				jobj *v = aieth__rj_get(ch, keys[kind]);
				if (!is_num(v) || json_object_get_double(v) < 0)
					return aieth__fail(AIETH_EINVAL,
							   "%s: tests[%zu].transactions"
							   "[%zu].channels[%zu].%s: %s",
							   rp, ti, j, k, keys[kind],
							   v ? "expected a number >= 0"
							     : "missing");
			}
		}
	}
	return AIETH_OK;
}

/* The compared values of pair p: every channel's first, last and cycles,
 * and the total cycles when the board reported them. */
static int add_vals(aieth_calib *c, size_t p, jobj *bt)
{
	jobj *btx = aieth__rj_get(bt, "transactions");
	const char *test = aieth__rj_gets(bt, "name");
	size_t j, k;
	int rc, kind;
	for (j = 0; j < len(btx); j++) {
		jobj *b = idx(btx, j), *bc = aieth__rj_get(b, "channels");
		for (k = 0; k < len(bc); k++)
			for (kind = CAL_FIRST; kind <= CAL_CYCLES; kind++)
				if ((rc = add_val(c, p, j, k, kind, val_of(idx(bc, k), kind), test,
						  aieth__rj_gets(b, "name"),
						  aieth__rj_gets(idx(bc, k), "plio"))))
					return rc;
		if (aieth__rj_getd(b, "total_cycles") > 0 &&
		    (rc = add_val(c, p, j, 0, CAL_TOTAL, aieth__rj_getd(b, "total_cycles"), test,
				  aieth__rj_gets(b, "name"), "total_cycles")))
			return rc;
	}
	return AIETH_OK;
}

int aieth__cal_read_values(aieth_calib *c, size_t pair, jobj *t)
{
	jobj *tx = aieth__rj_get(t, "transactions");
	size_t i;
	for (i = 0; i < c->nvals; i++) {
		cal_val *v = &c->vals[i];
		jobj *x;
		if (v->pair != pair)
			continue;
		x = idx(tx, v->txn);
		if (!x || strcmp(aieth__rj_gets(x, "status"), "done"))
			return -1;
		v->emu = val_of(v->kind == CAL_TOTAL ? x
						     : idx(aieth__rj_get(x, "channels"), v->chan),
				v->kind);
	}
	return 0;
}

static int add_pair(aieth_calib *c, const char *spec, const char *rp)
{
	cal_pair *np = realloc(c->pairs, (c->npairs + 1) * sizeof *np);
	if (!np)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	c->pairs = np;
	np[c->npairs].spec = aieth__strdup(spec);
	np[c->npairs].report = aieth__strdup(rp);
	c->npairs++;
	if (!np[c->npairs - 1].spec || !np[c->npairs - 1].report)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	return AIETH_OK;
}

/* The board's side of a pair: a report.json, or a log of AMD's printPerf
 * lines, told apart by content (a JSON document starts with '{'). One read,
 * its size checked before (the larger of the two limits). */
static int load_board_side(const char *rp, aieth_report **br, aieth__amd_log *log, int *is_log)
{
	char *text = NULL;
	size_t n = 0;
	int rc;
	*is_log = 0;
	if ((rc = aieth__read_file(rp,
				   AIETH_REPORT_MAX_FILE > AMD_LOG_MAX_FILE ? AIETH_REPORT_MAX_FILE
									    : AMD_LOG_MAX_FILE,
				   &text, &n)))
		return rc;
	if (aieth__amd_log_is_json(text, n)) {
		rc = aieth_report_parse(br, rp, text, n);
	} else {
		*is_log = 1;
		rc = aieth__amd_log_parse(rp, text, n, log);
	}
	free(text);
	return rc;
}

int aieth_calib_add(aieth_calib *c, const char *spec, const char *rp, char **note)
{
	aieth_report *br = NULL, *er = NULL;
	aieth__amd_log log;
	jobj *et, *bt = NULL, *lt = NULL;
	const char *eb, *name, *est;
	char q[100];
	size_t i, ti = 0;
	int rc, is_log = 0;
	aieth__error_clear();
	memset(&log, 0, sizeof log);
	if (note)
		*note = NULL;
	if (!c || !spec || !rp)
		return aieth__fail(AIETH_EINVAL, "aieth_calib_add: NULL argument");
	if (c->npairs >= 1000)
		return aieth__fail(AIETH_EINVAL, "calibrate: more than 1000 reports");
	if ((rc = load_board_side(rp, &br, &log, &is_log)))
		return rc;
	/* The description on the base board: its test's shape and name. */
	if ((rc = aieth__cal_write_board(c, c->x0, c->tmpboard)) ||
	    (rc = aieth__cal_run(c, spec, &er)))
		goto out;
	et = json_object_array_get_idx(er->tests, 0);
	name = aieth__rj_gets(et, "name");
	est = aieth__rj_gets(et, "status");
	if (is_log) {
		/* AMD's log names neither the board nor the test: the channels,
		 * their order in transactions and their sizes are checked. */
		if ((rc = aieth__cal_log_test(rp, &log, et, &lt)))
			goto out;
		bt = lt;
		goto checked;
	}
	eb = aieth__rj_gets(br->env, "board");
	if (*eb && strcmp(eb, c->board_name)) {
		aieth__quote_str(q, sizeof q, eb);
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: environment.board: \"%s\" is another board than "
				 "the one calibrated (\"%s\", --board)",
				 rp, q, c->board_name);
		goto out;
	}
	for (i = 0; i < len(br->tests); i++)
		if (!strcmp(aieth__rj_gets(idx(br->tests, i), "name"), name)) {
			bt = idx(br->tests, i);
			ti = i;
			break;
		}
	if (!bt) {
		aieth__quote_str(q, sizeof q, name);
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: tests[].name: no test named \"%s\" (the name in "
				 "%s): the report is not one of this description",
				 rp, q, spec);
		goto out;
	}
checked:
	if ((rc = check_test(c, rp, ti, bt, et)))
		goto out;
	/* The report is fine; the description must run on the base board too. */
	if (strcmp(est, "pass") && strcmp(est, "fail")) {
		jobj *err = aieth__rj_get(et, "error");
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: the emulated board cannot run it (%s, status %s)%s%s", spec,
				 c->board_name, est, err ? ": " : "",
				 err ? aieth__rj_gets(err, "message") : "");
		goto out;
	}
	if ((rc = add_pair(c, spec, rp)) || (rc = add_vals(c, c->npairs - 1, bt)))
		goto out;
	if (note && br &&
	    ((aieth_backend_flags(aieth__rj_gets(br->env, "backend")) & AIETH_BACKEND_EMULATED) ||
	     (aieth_backend_flags(aieth__rj_gets(bt, "backend")) & AIETH_BACKEND_EMULATED))) {
		size_t n = strlen(rp) + 200;
		*note = malloc(n);
		if (*note)
			snprintf(*note, n,
				 "note: %s was made by the emulated board (backend \"emu\"), "
				 "not by a board: the fit finds the parameters it was made with",
				 rp);
	}
out:
	if (lt)
		json_object_put(lt);
	aieth__amd_log_free(&log);
	aieth_report_free(er);
	aieth_report_free(br);
	return rc;
}
