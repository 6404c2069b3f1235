/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - a description's sweep (docs/test-spec.md, "sweep"): every axis
 * and value checked against the description and the board before anything
 * runs, then each point set into the description, its data checked
 * (aieth__rn_prepare) and run as one test of the report, all in one session of
 * the board unless a point changes a graph model's parameters (they are
 * given when a session opens) or the previous point left the device in
 * doubt (a timeout or a device error). report.run.sweeps records the sweep
 * and its knees (report/report_sweep.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_sweep.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "runner/sweep.h"
#include "util/error.h"
#include "util/sbuf.h"
#include "util/utf8.h"

/* What a point changes in the description, and the description as it was. */
typedef struct {
	spec_chan *base_ch, *work_ch;
	size_t base_nch;
	spec_latency *base_lat, *work_lat;
	size_t base_nlat;
	aieth_mode base_mode;
	signed char *tx; /* per base channel: 1 TO_AIE, 0 FROM_AIE, -1 unknown PLIO */
} txn_state;

typedef struct {
	run_ctx *c;
	sweep_def *d;
	size_t points;
	txn_state *ts;
	char **params;      /* per graph: this point's parameters (NULL: as written) */
	char **base_params; /* per graph: as written */
	size_t *idx;
} sweep_run;

static int is_field(const char *s)
{
	return !strcmp(s, "size") || !strcmp(s, "delay") || !strcmp(s, "replay");
}

static sweep_kind field_kind(const char *s)
{
	return !strcmp(s, "size") ? SWX_SIZE : !strcmp(s, "delay") ? SWX_DELAY : SWX_REPLAY;
}

/* A channel whose data or golden data is a file has the file's length as
 * its size (run_data.c), and tiling fixes it too: a size axis over it
 * could pass at one value at most. */
static int size_fixed(const spec_chan *ch)
{
	return ch->data.kind == SRC_BINARY || ch->data.kind == SRC_TEXT ||
	       ch->golden.kind == SRC_BINARY || ch->golden.kind == SRC_TEXT || ch->have_tiling;
}

static int plio_of(const sweep_axis *ax, const spec_chan *ch)
{
	size_t n = strcspn(ax->name, ".");
	return strlen(ch->plio) == n && !strncmp(ch->plio, ax->name, n);
}

/* Check one value of a numeric field of the channels. */
static int check_field(const sweep_def *d, const sweep_axis *ax, sweep_kind f, const sweep_val *v)
{
	const char *rule = NULL;
	if (!v->is_uint)
		rule = "a whole number >= 0";
	else if (f == SWX_SIZE && (v->u == 0 || v->u % 16))
		rule = "a size is a positive multiple of 16 bytes (one 128-bit beat)";
	else if (f == SWX_SIZE && v->u > AIETH_MAX_CHANNEL_SIZE)
		rule = "a size is at most 16 x 4294967295 bytes";
	else if (f == SWX_DELAY && v->u > AIETH_MAX_DELAY_CYCLES)
		rule = "a delay is at most 2^60 cycles";
	else if (f == SWX_REPLAY && (v->u < 1 || v->u > AIETH_MAX_REPETITION))
		rule = "a replay (repetition) is 1..4294967295";
	if (!rule)
		return 0;
	return aieth__fail(AIETH_EINVAL, "%s: axis %s: value %s: %s", d->origin, ax->name, v->text,
			   rule);
}

/* What each axis means here, and every value against its field's rules. */
static int resolve(run_ctx *c, sweep_def *d)
{
	aieth_spec *sp = c->sp;
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	size_t a, i, t, j, maxdir = 0;
	int rc;

	for (t = 0; t < sp->ntxns; t++) {
		size_t ntx = 0, nrx = 0;
		for (j = 0; j < sp->txns[t].nch; j++) {
			aieth_plio pl;
			if (aieth_board_plio_find(c->board, sp->txns[t].ch[j].plio, &pl) ==
			    AIETH_OK)
				*(pl.dir == AIETH_DIR_TO_AIE ? &ntx : &nrx) += 1;
		}
		maxdir = ntx > maxdir ? ntx : maxdir;
		maxdir = nrx > maxdir ? nrx : maxdir;
	}
	for (a = 0; a < d->nax; a++) {
		sweep_axis *ax = &d->ax[a];
		const char *dot = strchr(ax->name, '.');
		if (!dot) {
			ax->kind = !strcmp(ax->name, "size")       ? SWX_SIZE
				   : !strcmp(ax->name, "delay")    ? SWX_DELAY
				   : !strcmp(ax->name, "replay")   ? SWX_REPLAY
				   : !strcmp(ax->name, "channels") ? SWX_CHANNELS
				   : !strcmp(ax->name, "mode")     ? SWX_MODE
								   : SWX_UNRESOLVED;
			if (!ax->kind)
				return aieth__fail(AIETH_EINVAL,
						   "%s: axis %s: unknown (size, delay, replay, "
						   "channels, mode, <PLIO>.size|delay|replay, "
						   "<graph>.<param>)",
						   d->origin, ax->name);
		} else {
			char left[SWEEP_AXIS_NAME_MAX + 1];
			aieth_plio pl;
			size_t g;
			int is_plio, is_graph = 0;
			snprintf(left, sizeof left, "%.*s", (int)(dot - ax->name), ax->name);
			is_plio = aieth_board_plio_find(c->board, left, &pl) == AIETH_OK;
			for (g = 0; g < sp->ngraphs && !is_graph; g++)
				if (!strcmp(sp->graphs[g].name, left)) {
					is_graph = 1;
					ax->target = g;
				}
			if (is_plio && is_graph)
				return aieth__fail(
					AIETH_EINVAL,
					"%s: axis %s: %s is both a PLIO of board %s and a "
					"graph of the description: ambiguous",
					d->origin, ax->name, left, bi->name);
			if (is_graph) {
				ax->kind = SWX_GRAPH;
				ax->param = dot + 1;
			} else if (is_plio) {
				int found = 0;
				if (!is_field(dot + 1))
					return aieth__fail(AIETH_EINVAL,
							   "%s: axis %s: a PLIO's axis is "
							   "%s.size, %s.delay or %s.replay",
							   d->origin, ax->name, left, left, left);
				ax->kind = SWX_PLIO;
				ax->field = field_kind(dot + 1);
				for (t = 0; t < sp->ntxns && !found; t++)
					for (j = 0; j < sp->txns[t].nch; j++)
						found |= plio_of(ax, &sp->txns[t].ch[j]);
				if (!found)
					return aieth__fail(AIETH_EINVAL,
							   "%s: axis %s: %s is a PLIO of board %s "
							   "but no channel of the description",
							   d->origin, ax->name, left, bi->name);
			} else {
				return aieth__fail(AIETH_EINVAL,
						   "%s: axis %s: %s is neither a PLIO of board %s "
						   "nor a graph of the description",
						   d->origin, ax->name, left, bi->name);
			}
		}
		for (i = 0; i < ax->nv; i++) {
			const sweep_val *v = &ax->v[i];
			switch (ax->kind) {
			case SWX_SIZE:
			case SWX_DELAY:
			case SWX_REPLAY:
				if ((rc = check_field(d, ax, ax->kind, v)))
					return rc;
				break;
			case SWX_PLIO:
				if ((rc = check_field(d, ax, ax->field, v)))
					return rc;
				break;
			case SWX_CHANNELS:
				if (!v->is_uint || v->u < 1 || v->u > maxdir)
					return aieth__fail(
						AIETH_EINVAL,
						"%s: axis channels: value %s: each "
						"transaction keeps its first K channels of "
						"each direction, K 1..%zu here",
						d->origin, v->text, maxdir);
				break;
			case SWX_MODE:
				if (v->is_num ||
				    (strcmp(v->text, "perf") && strcmp(v->text, "func")))
					return aieth__fail(AIETH_EINVAL,
							   "%s: axis mode: value %s: perf or func",
							   d->origin, v->text);
				break;
			default: break; /* a graph model checks its parameters */
			}
		}
		/* a size set into a channel whose file or tiling fixes its size */
		if (ax->kind == SWX_SIZE || (ax->kind == SWX_PLIO && ax->field == SWX_SIZE))
			for (t = 0; t < sp->ntxns; t++)
				for (j = 0; j < sp->txns[t].nch; j++) {
					const spec_chan *ch = &sp->txns[t].ch[j];
					if ((ax->kind == SWX_SIZE || plio_of(ax, ch)) &&
					    size_fixed(ch) && ax->nv > 1)
						return aieth__fail(
							AIETH_EINVAL,
							"%s: axis %s: %s (%s) has its size fixed by "
							"its %s: sweep the size of channels with a "
							"pattern or no data, or sweep replay",
							d->origin, ax->name, ch->jpath, ch->plio,
							ch->have_tiling ? "tiling"
									: "data or golden file");
				}
	}
	return 0;
}

/* Every point's name within SPEC_NAME_MAX characters, before the run. */
static int check_names(sweep_run *w)
{
	const char *base = w->c->sp->name;
	size_t p, base_cp = 0, base_len = strlen(base), i;
	char name[1024];
	for (i = 0; i < base_len; i += aieth__utf8_seq(base + i) ? aieth__utf8_seq(base + i) : 1)
		base_cp++;
	for (p = 0; p < w->points; p++) {
		size_t len, cp;
		aieth__rn_sweep_point(w->d, p, w->idx);
		len = aieth__rn_sweep_point_name(w->d, w->idx, base, name, sizeof name);
		cp = base_cp + (len - base_len);
		if (cp > SPEC_NAME_MAX)
			return aieth__fail(AIETH_EINVAL,
					   "%s: point %zu's name \"%.120s...\" has %zu characters, "
					   "more than %d (the longest test name every output takes "
					   "whole): shorten the description's name, the axes or "
					   "their values",
					   w->d->origin, p, name, cp, SPEC_NAME_MAX);
	}
	return 0;
}

/* Every point is a test of the report tree, and report.json is written
 * from memory, at most SB_DOC_MAX bytes: a sweep whose report would pass
 * that is refused before it runs, with the estimate. The bytes per point
 * are an upper estimate of what the writer puts out (a test of adder_perf,
 * 3 channels and a latency bound, is 5.3 kB in report.json, estimated
 * 6.1 kB); memory is about eight times the file while it is written. */
static int check_report_size(const sweep_run *w)
{
	const aieth_spec *sp = w->c->sp;
	uint64_t per = 1536, total;
	size_t t;
	for (t = 0; t < sp->ntxns; t++)
		per += 512 + 1280 * (uint64_t)sp->txns[t].nch + 256 * (uint64_t)sp->txns[t].nlat;
	total = per * w->points;
	if (total <= SB_DOC_MAX)
		return 0;
	return aieth__fail(AIETH_EINVAL,
			   "%s: %zu points of about %" PRIu64 " bytes each in report.json make "
			   "about %" PRIu64 " MiB, more than the %zu MiB a report is written "
			   "in: at most %" PRIu64 " points of this description; split the sweep",
			   w->d->origin, w->points, per, total >> 20, SB_DOC_MAX >> 20,
			   (uint64_t)SB_DOC_MAX / per);
}

static int save_state(sweep_run *w)
{
	aieth_spec *sp = w->c->sp;
	size_t t, j;
	w->ts = calloc(sp->ntxns, sizeof *w->ts);
	w->params = calloc(sp->ngraphs ? sp->ngraphs : 1, sizeof *w->params);
	w->base_params = calloc(sp->ngraphs ? sp->ngraphs : 1, sizeof *w->base_params);
	w->idx = calloc(w->d->nax, sizeof *w->idx);
	if (!w->ts || !w->params || !w->base_params || !w->idx)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	for (t = 0; t < sp->ngraphs; t++)
		w->base_params[t] = sp->graphs[t].params;
	for (t = 0; t < sp->ntxns; t++) {
		txn_state *s = &w->ts[t];
		spec_txn *st = &sp->txns[t];
		s->base_ch = st->ch;
		s->base_nch = st->nch;
		s->base_lat = st->lat;
		s->base_nlat = st->nlat;
		s->base_mode = st->mode;
		s->work_ch = calloc(st->nch ? st->nch : 1, sizeof *s->work_ch);
		s->work_lat = calloc(st->nlat ? st->nlat : 1, sizeof *s->work_lat);
		s->tx = calloc(st->nch ? st->nch : 1, 1);
		if (!s->work_ch || !s->work_lat || !s->tx)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		for (j = 0; j < st->nch; j++) {
			aieth_plio pl;
			s->tx[j] =
				aieth_board_plio_find(w->c->board, st->ch[j].plio, &pl) != AIETH_OK
					? -1
					: pl.dir == AIETH_DIR_TO_AIE;
		}
	}
	return 0;
}

/* The description as written again (the work arrays only borrow). */
static void restore(sweep_run *w)
{
	aieth_spec *sp = w->c->sp;
	size_t t;
	if (w->ts)
		for (t = 0; t < sp->ntxns; t++) {
			txn_state *s = &w->ts[t];
			if (!s->base_ch && !s->base_nch)
				continue;
			sp->txns[t].ch = s->base_ch;
			sp->txns[t].nch = s->base_nch;
			sp->txns[t].lat = s->base_lat;
			sp->txns[t].nlat = s->base_nlat;
			sp->txns[t].mode = s->base_mode;
		}
	if (w->base_params)
		for (t = 0; t < sp->ngraphs; t++)
			sp->graphs[t].params = w->base_params[t];
}

static void free_state(sweep_run *w)
{
	size_t t;
	restore(w);
	if (w->ts)
		for (t = 0; t < w->c->sp->ntxns; t++) {
			free(w->ts[t].work_ch);
			free(w->ts[t].work_lat);
			free(w->ts[t].tx);
		}
	if (w->params)
		for (t = 0; t < w->c->sp->ngraphs; t++)
			free(w->params[t]);
	free(w->ts);
	free(w->params);
	free(w->base_params);
	free(w->idx);
}

static void set_field(spec_chan *ch, sweep_kind f, uint64_t u)
{
	if (f == SWX_SIZE) {
		ch->have_size = 1;
		ch->size = u;
	} else if (f == SWX_DELAY) {
		ch->delay = u;
	} else {
		ch->repetition = u;
	}
}

/* A graph's parameters with this point's values set (NULL: as written). */
static int graph_params(sweep_run *w, size_t g, char **out)
{
	struct json_object *o = NULL;
	const char *base = w->base_params[g];
	size_t a;
	int any = 0;
	*out = NULL;
	for (a = 0; a < w->d->nax; a++) {
		const sweep_axis *ax = &w->d->ax[a];
		const sweep_val *v = &ax->v[w->idx[a]];
		struct json_object *jv;
		if (ax->kind != SWX_GRAPH || ax->target != g)
			continue;
		if (!o) {
			o = base ? json_tokener_parse(base) : json_object_new_object();
			if (!o || !json_object_is_type(o, json_type_object)) {
				json_object_put(o);
				return aieth__fail(
					AIETH_EINVAL,
					"%s: axis %s: graphs[%zu].params is not an object",
					w->d->origin, ax->name, g);
			}
		}
		jv = v->is_uint  ? json_object_new_int64((int64_t)v->u)
		     : v->is_num ? (v->num == (double)(int64_t)v->num
					    ? json_object_new_int64((int64_t)v->num)
					    : json_object_new_double(v->num))
				 : json_object_new_string(v->text);
		if (!jv || json_object_object_add(o, ax->param, jv)) {
			json_object_put(jv);
			json_object_put(o);
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		}
		any = 1;
	}
	if (any) {
		const char *txt = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		*out = txt ? strdup(txt) : NULL;
		json_object_put(o);
		if (!*out)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	return 0;
}

/* Set point p into the description. *graphs_changed: the graphs'
 * parameters differ from the previous point's (a new session). */
static int apply(sweep_run *w, size_t p, int *graphs_changed)
{
	aieth_spec *sp = w->c->sp;
	size_t a, t, j, k = 0;
	int rc;
	aieth__rn_sweep_point(w->d, p, w->idx);
	for (t = 0; t < sp->ntxns; t++) {
		txn_state *s = &w->ts[t];
		spec_txn *st = &sp->txns[t];
		/* a transaction without latency bounds has no arrays to copy */
		if (s->base_nch)
			memcpy(s->work_ch, s->base_ch, s->base_nch * sizeof *s->work_ch);
		if (s->base_nlat)
			memcpy(s->work_lat, s->base_lat, s->base_nlat * sizeof *s->work_lat);
		st->ch = s->work_ch;
		st->nch = s->base_nch;
		st->lat = s->work_lat;
		st->nlat = s->base_nlat;
		st->mode = s->base_mode;
	}
	for (a = 0; a < w->d->nax; a++) {
		const sweep_axis *ax = &w->d->ax[a];
		const sweep_val *v = &ax->v[w->idx[a]];
		for (t = 0; t < sp->ntxns; t++) {
			spec_txn *st = &sp->txns[t];
			if (ax->kind == SWX_MODE)
				st->mode =
					strcmp(v->text, "perf") ? AIETH_MODE_FUNC : AIETH_MODE_PERF;
			for (j = 0; j < st->nch; j++) {
				if (ax->kind == SWX_SIZE || ax->kind == SWX_DELAY ||
				    ax->kind == SWX_REPLAY)
					set_field(&st->ch[j], ax->kind, v->u);
				else if (ax->kind == SWX_PLIO && plio_of(ax, &st->ch[j]))
					set_field(&st->ch[j], ax->field, v->u);
			}
		}
		if (ax->kind == SWX_CHANNELS)
			k = (size_t)v->u;
	}
	if (k)
		for (t = 0; t < sp->ntxns; t++) {
			txn_state *s = &w->ts[t];
			spec_txn *st = &sp->txns[t];
			size_t ntx = 0, nrx = 0, n = 0, l, m = 0;
			for (j = 0; j < s->base_nch; j++) {
				int keep = s->tx[j] < 0 || (s->tx[j] ? ntx++ < k : nrx++ < k);
				if (keep)
					st->ch[n++] = st->ch[j];
			}
			st->nch = n;
			/* a latency between channels no longer there is not measured */
			for (l = 0; l < st->nlat; l++) {
				int ends = 0;
				for (j = 0; j < n; j++)
					ends += !strcmp(st->ch[j].plio, st->lat[l].from) +
						!strcmp(st->ch[j].plio, st->lat[l].to);
				if (ends >= 2)
					st->lat[m++] = st->lat[l];
			}
			st->nlat = m;
		}
	*graphs_changed = 0;
	for (t = 0; t < sp->ngraphs; t++) {
		char *np;
		if ((rc = graph_params(w, t, &np)))
			return rc;
		if (!np)
			continue;
		if (!w->params[t] || strcmp(np, w->params[t]))
			*graphs_changed = 1;
		free(w->params[t]);
		w->params[t] = np;
		sp->graphs[t].params = np;
	}
	return 0;
}

static struct json_object *value_json(const sweep_val *v)
{
	if (v->is_uint)
		return json_object_new_uint64(v->u);
	if (v->is_num)
		return json_object_new_double(v->num);
	return json_object_new_string(v->text);
}

static void put_value(struct json_object *o, const char *key, const sweep_val *v)
{
	if (v->is_uint)
		aieth__rj_u64(o, key, v->u);
	else if (v->is_num)
		aieth__rj_num(o, key, v->num);
	else
		aieth__rj_str(o, key, v->text);
}

/* report.run.sweeps[] for this sweep (docs/report-schema.md). */
static struct json_object *sweep_object(sweep_run *w)
{
	struct json_object *sw = aieth__rj_get(w->c->r->run, "sweeps"), *o = aieth__rj_obj(),
			   *axes = aieth__rj_arr();
	size_t a, i;
	if (!sw) {
		sw = aieth__rj_arr();
		aieth__rj_set(w->c->r->run, "sweeps", sw);
	}
	aieth__rj_str(o, "name", w->c->sp->name);
	aieth__rj_str(o, "spec", w->c->sp->path);
	aieth__rj_str(o, "mode", w->d->zip ? "zip" : "grid");
	for (a = 0; a < w->d->nax; a++) {
		struct json_object *ax = aieth__rj_obj(), *vals = aieth__rj_arr();
		aieth__rj_str(ax, "name", w->d->ax[a].name);
		for (i = 0; i < w->d->ax[a].nv; i++)
			aieth__rj_push(vals, value_json(&w->d->ax[a].v[i]));
		aieth__rj_set(ax, "values", vals);
		aieth__rj_push(axes, ax);
	}
	aieth__rj_set(o, "axes", axes);
	aieth__rj_u64(o, "points", w->points);
	aieth__rj_u64(o, "points_run", 0);
	aieth__rj_null(o, "stopped");
	aieth__rj_set(o, "knees", aieth__rj_arr());
	aieth__rj_push(sw, o);
	return o;
}

static void progress(run_ctx *c, const char *phase)
{
	if (c->o && c->o->progress)
		c->o->progress(c->o->progress_ctx, phase, 0, 0);
}

static int interrupted(const run_ctx *c) { return c->o && c->o->interrupt && *c->o->interrupt; }

/* Run every point; the sweep object says how many ran and why it stopped. */
static void run_points(sweep_run *w, struct json_object *so)
{
	run_ctx *c = w->c;
	aieth_session *s = NULL;
	const char *stopped = NULL;
	size_t p, ran = 0, sessions = 0;
	char name[1024], phase[400];

	for (p = 0; p < w->points; p++) {
		double t0 = aieth__now();
		struct json_object *sv, *vals;
		int changed = 0, rc;
		size_t a;
		if (p) {
			c->test = aieth__rj_obj();
			c->exit_code = AIETH_EXIT_PASS;
			aieth__rj_push(c->r->tests, c->test);
			aieth__rj_str(c->test, "spec", c->sp->path);
		}
		rc = apply(w, p, &changed);
		aieth__rn_sweep_point_name(w->d, w->idx, c->sp->name, name, sizeof name);
		aieth__rj_str(c->test, "name", name);
		if (c->sp->description)
			aieth__rj_str(c->test, "description", c->sp->description);
		sv = aieth__rj_obj();
		vals = aieth__rj_obj();
		aieth__rj_str(sv, "name", c->sp->name);
		aieth__rj_u64(sv, "point", p);
		aieth__rj_u64(sv, "points", w->points);
		for (a = 0; a < w->d->nax; a++)
			put_value(vals, w->d->ax[a].name, &w->d->ax[a].v[w->idx[a]]);
		aieth__rj_set(sv, "values", vals);
		aieth__rj_set(c->test, "sweep", sv);
		if (rc) {
			aieth__rn_test_error(c, "prepare", rc, NULL, aieth__rn_exit_for(rc));
		} else if (aieth__rn_check_interrupt(c, "before this point of the sweep ran")) {
			stopped = "interrupted";
		} else {
			snprintf(phase, sizeof phase, "sweep %.40s: point %zu of %zu: %.80s",
				 c->sp->name, p + 1, w->points, name);
			progress(c, phase);
			if (!aieth__rn_test_begin(c) && !aieth__rn_prepare_test(c)) {
				if (s && changed) {
					aieth__rn_session_close(c, s);
					s = NULL;
				}
				if (s) {
					aieth__rn_run_point(c, s, 1, 1);
				} else if (!aieth__rn_session_open(c, &s)) {
					aieth__rn_run_point(c, s, 1, 0);
					sessions++;
				}
			}
		}
		aieth__rn_free_data(c);
		/* a hang (a data-size mismatch too: exit 2, but the transaction
		 * did hang) or a device error leaves the board in doubt: the next
		 * point opens a session of its own */
		if (s && (c->exit_code == AIETH_EXIT_TIMEOUT || c->exit_code == AIETH_EXIT_INFRA ||
			  aieth__rj_get(c->test, "verdict_detail"))) {
			aieth__rn_session_close(c, s);
			s = NULL;
		}
		aieth__rn_test_finish(c, t0);
		ran++;
		if (stopped)
			break;
		if (interrupted(c)) {
			stopped = "interrupted";
			break;
		}
		if (c->o && c->o->version >= 3 && c->o->sweep_stop_on_fail &&
		    c->exit_code != AIETH_EXIT_PASS) {
			stopped = "stop_on_fail";
			break;
		}
	}
	if (s)
		aieth__rn_session_close(c, s);
	restore(w);
	aieth__rj_u64(so, "points_run", ran);
	aieth__rj_u64(so, "sessions", sessions);
	if (stopped)
		aieth__rj_str(so, "stopped", stopped);
}

int aieth__rn_sweep(run_ctx *c, double t0)
{
	sweep_def *own = NULL, *d = c->sp->sweep;
	sweep_run w;
	struct json_object *so;
	size_t first;
	int rc;
	(void)t0;
	if (c->o && c->o->version >= 3 && c->o->num_sweep) {
		if (!c->o->sweep)
			rc = aieth__fail(AIETH_EINVAL,
					 "aieth_run_opts.sweep: NULL with num_sweep %zu",
					 c->o->num_sweep);
		else
			rc = aieth__rn_sweep_parse_args(c->o->sweep, c->o->num_sweep,
							c->o->sweep_zip, &own);
		if (rc) {
			aieth__rn_test_error(c, "load", rc, "see docs/user-guide.md, \"Sweeps\"",
					     rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA
								: AIETH_EXIT_INPUT);
			return 1;
		}
		d = own;
	}
	if (!d)
		return 0;
	memset(&w, 0, sizeof w);
	w.c = c;
	w.d = d;
	if ((rc = resolve(c, d)) || (rc = aieth__rn_sweep_count(d, &w.points)) ||
	    (rc = check_report_size(&w)) || (rc = save_state(&w)) || (rc = check_names(&w))) {
		aieth__rn_test_error(c, "load", rc, "see docs/test-spec.md, \"sweep\"",
				     rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA : AIETH_EXIT_INPUT);
		free_state(&w);
		aieth__rn_sweep_free(own);
		return 1;
	}
	first = json_object_array_length(c->r->tests) - 1; /* c->test: point 0 */
	so = sweep_object(&w);
	run_points(&w, so);
	aieth__sweep_knees(so, c->r->tests, first, json_object_array_length(c->r->tests) - first);
	free_state(&w);
	aieth__rn_sweep_free(own);
	return 1;
}
