/* SPDX-License-Identifier: MIT */
/*
 * run_inputs.c - an input mistake is refused before the run, not reported
 * as a hang: the channels' sizes against what the graph models read and
 * write per iteration (aieth_graph_ports), where the models can say it.
 * The rule (aieth__rn_inputs_rule) is pure, for the unit tests; aieth__rn_inputs_check
 * gathers its inputs from the description and the open session.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "runner/run_inputs.h"
#include "runner/run_internal.h"
#include "util/error.h"

/* a * b, at most UINT64_MAX (more than any channel moves) */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The port of the graphs named plio in direction to_aie, or NULL. */
static const aieth_graph_port *find_port(const rn_in_graph *g, size_t ng, const char *plio,
					 int to_aie, size_t *gi)
{
	size_t i, p;
	for (i = 0; i < ng; i++)
		for (p = 0; p < g[i].nports; p++)
			if (g[i].ports[p].to_aie == to_aie && !strcmp(g[i].ports[p].plio, plio)) {
				*gi = i;
				return &g[i].ports[p];
			}
	return NULL;
}

/* The ports of graph gi's model in direction dir, as a list for a message. */
static void port_list(const rn_in_graph *g, int to_aie, char *buf, size_t cap)
{
	size_t p, len = 0;
	buf[0] = 0;
	for (p = 0; p < g->nports && len + 40 < cap; p++)
		if (g->ports[p].to_aie == to_aie)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "",
						g->ports[p].plio);
	if (!len)
		snprintf(buf, cap, "none");
}

/* Bytes the channels move on plio (direction to_aie) in one run, and the
 * first channel naming it (NULL: none). */
static uint64_t total_on(const rn_in_chan *ch, size_t nc, const char *plio, int to_aie,
			 const rn_in_chan **first, size_t *count)
{
	uint64_t t = 0;
	size_t i;
	*first = NULL;
	*count = 0;
	for (i = 0; i < nc; i++)
		if (ch[i].to_aie == to_aie && !strcmp(ch[i].plio, plio)) {
			if (!*first)
				*first = &ch[i];
			++*count;
			t = t > UINT64_MAX - ch[i].bytes ? UINT64_MAX : t + ch[i].bytes;
		}
	return t;
}

static void chan_name(const rn_in_chan *c, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s (%s%s%s%" PRIu64 " bytes", c->where,
		 c->file ? (c->to_aie ? "data " : "golden ") : "", c->file ? c->file : "",
		 c->file ? ": " : "size ", c->size);
	if (c->repetition > 1)
		snprintf(buf + strlen(buf), cap - strlen(buf), " x repetition %" PRIu64,
			 c->repetition);
	snprintf(buf + strlen(buf), cap - strlen(buf), ")");
}

int aieth__rn_inputs_rule(const rn_in_graph *g, size_t ng, const rn_in_chan *ch, size_t nc,
			  char *msg, size_t cap)
{
	size_t i, p, q, gi = 0, n, n2;
	int pass;
	char name[400], list[300];
	for (i = 0; i < ng; i++)
		if (!g[i].known)
			return 0; /* a port may be that graph's: nothing is certain */
	/* every channel's PLIO is a port of some graph model */
	for (i = 0; i < nc; i++) {
		if (find_port(g, ng, ch[i].plio, ch[i].to_aie, &gi))
			continue;
		chan_name(&ch[i], name, sizeof name);
		list[0] = 0;
		for (q = 0; q < ng; q++) {
			char one[200];
			port_list(&g[q], ch[i].to_aie, one, sizeof one);
			snprintf(list + strlen(list), sizeof list - strlen(list),
				 "%sgraph \"%s\" (model %s) %s %s", q ? "; " : "", g[q].name,
				 g[q].model, ch[i].to_aie ? "reads" : "writes", one);
		}
		snprintf(msg, cap,
			 "%s: %s: %s %s %" PRIu64 " bytes, but no graph model %s it (%s): the "
			 "channel would %s (rule: every %s PLIO is %s by a graph model)",
			 ch[i].file_desc, name, ch[i].plio, ch[i].to_aie ? "sends" : "expects",
			 ch[i].bytes, ch[i].to_aie ? "consumes" : "drives", ng ? list : "no graphs",
			 ch[i].to_aie ? "wait for a reader forever"
				      : "wait for data that never comes",
			 ch[i].to_aie ? "TX" : "RX", ch[i].to_aie ? "read" : "written");
		return 1;
	}
	/* per port: an RX port whole iterations (pass 0), a bounded graph's iterations
	 * exactly on RX ports (pass 1, where a golden file's size is the usual
	 * mistake), at least on TX ports (pass 2), an RX port no more than each input of its
	 * kernel (pass 3; a TX port with more than the graph takes may be
	 * absorbed by the streams' buffers: not certain, not refused) */
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < ng; i++) {
			for (p = 0; p < g[i].nports; p++) {
				const aieth_graph_port *a = &g[i].ports[p];
				if ((pass == 1 && a->to_aie) || (pass == 2 && !a->to_aie))
					continue;
				const rn_in_chan *fa;
				uint64_t ta = total_on(ch, nc, a->plio, a->to_aie, &fa, &n);
				const char *what = a->to_aie ? "sends" : "expects";
				if (!fa)
					continue;
				chan_name(fa, name, sizeof name);
				if (pass == 0 && !a->to_aie && ta % a->bytes_per_iteration) {
					snprintf(
						msg, cap,
						"%s: %s: %s %s %" PRIu64
						" bytes%s, not a whole number of "
						"iterations of graph \"%s\": model %s %s %" PRIu64
						" bytes per iteration there (rule: a channel's size times its "
						"repetition is a multiple of the bytes per iteration)",
						fa->file_desc, name, a->plio, what, ta,
						n > 1 ? " over its transactions" : "", g[i].name,
						g[i].model, a->to_aie ? "reads" : "writes",
						a->bytes_per_iteration);
					return 1;
				}
				if (pass == 0)
					continue;
				if ((pass == 1 || pass == 2) && g[i].iterations >= 0 &&
				    (pass == 1 || ta < sat_mul((uint64_t)g[i].iterations,
							       a->bytes_per_iteration)) &&
				    ta != sat_mul((uint64_t)g[i].iterations,
						  a->bytes_per_iteration)) {
					snprintf(
						msg, cap,
						"%s: %s: %s %s %" PRIu64 " bytes%s (%" PRIu64
						" iterations), but graph \"%s\" runs %" PRId64
						" iterations of %" PRIu64
						" bytes there (model %s): %" PRIu64
						" bytes (rule: a bounded graph's RX channels carry exactly "
						"its iterations' bytes, its TX channels at least; fix the "
						"size, the repetition or the graph's iterations)",
						fa->file_desc, name, a->plio, what, ta,
						n > 1 ? " over its transactions" : "",
						ta / a->bytes_per_iteration, g[i].name,
						g[i].iterations, a->bytes_per_iteration, g[i].model,
						sat_mul((uint64_t)g[i].iterations,
							a->bytes_per_iteration));
					return 1;
				}
				if (pass != 3 || a->to_aie)
					continue;
				/* an RX port: every input of its kernel gives its iterations */
				for (q = 0; q < g[i].nports; q++) {
					const aieth_graph_port *b = &g[i].ports[q];
					const rn_in_chan *fb;
					uint64_t tb;
					char bname[400];
					if (!b->to_aie || b->kernel != a->kernel)
						continue;
					tb = total_on(ch, nc, b->plio, b->to_aie, &fb, &n2);
					if (tb / b->bytes_per_iteration >=
					    ta / a->bytes_per_iteration)
						continue;
					if (fb) {
						char sent[160];
						chan_name(fb, bname, sizeof bname);
						snprintf(sent, sizeof sent,
							 "sends %" PRIu64 " bytes (%" PRIu64
							 " iterations)",
							 tb, tb / b->bytes_per_iteration);
						snprintf(bname + strlen(bname),
							 sizeof bname - strlen(bname), " %s", sent);
					} else {
						snprintf(bname, sizeof bname,
							 "no channel sends data (0 iterations)");
					}
					snprintf(
						msg, cap,
						"%s: %s: %s expects %" PRIu64 " bytes (%" PRIu64
						" iterations of %" PRIu64
						" bytes), but %s to %s, an input of the same "
						"kernel of graph \"%s\" (model %s) (rule: a kernel writes no "
						"more iterations than each of its inputs is given)",
						fa->file_desc, name, a->plio, ta,
						ta / a->bytes_per_iteration, a->bytes_per_iteration,
						bname, b->plio, g[i].name, g[i].model);
					return 1;
				}
			}
		}
	return 0;
}

/* Gather the graphs' ports and the channels' sizes, apply the rule. */
int aieth__rn_inputs_check(run_ctx *c, aieth_session *s)
{
	rn_in_graph *g = NULL;
	aieth_graph_port *all = NULL; /* one ask's room */
	rn_in_chan *ch = NULL;
	size_t i, j, nc = 0, tot = 0;
	char msg[2048];
	int rc = 0;

	/* a board runs the design's real graph, no model: it may read and write
	 * what the description does not list (docs/user-guide.md, "An input
	 * mistake is not a hang"). Through th_server the server's models answer
	 * (a server on a board answers "not known": AIETH_EUNSUPPORTED) */
	unsigned int flags = aieth_backend_flags(aieth__rj_gets(c->test, "backend"));
	if ((flags & AIETH_BACKEND_LOCAL) && !(flags & AIETH_BACKEND_EMULATED))
		return 0;
	for (i = 0; i < c->sp->ntxns; i++)
		tot += c->sp->txns[i].nch;
	g = calloc(c->sp->ngraphs ? c->sp->ngraphs : 1, sizeof *g);
	ch = calloc(tot ? tot : 1, sizeof *ch);
	if (!g || !ch) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < c->sp->ngraphs; i++) {
		size_t n = 0;
		g[i].name = c->sp->graphs[i].name;
		g[i].model = c->sp->graphs[i].model ? c->sp->graphs[i].model : "loopback";
		g[i].iterations = c->sp->graphs[i].iterations;
		/* asked once, into room for the most a model has (a remote
		 * session's ask is a round trip; 192 KiB, touched as filled),
		 * then kept at its size */
		if (!all && !(all = calloc(AIETH_GRAPH_PORTS_MAX, sizeof *all))) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			goto out;
		}
		rc = aieth_graph_ports(s, g[i].name, all, AIETH_GRAPH_PORTS_MAX, &n);
		if (rc == AIETH_EUNSUPPORTED || (!rc && (!n || n > AIETH_GRAPH_PORTS_MAX))) {
			rc = 0;
			continue; /* not modelled (a server on a board): not known */
		}
		if (rc) /* a server's reply out of the documented set: never a pass */
			goto out;
		g[i].ports = malloc(n * sizeof *g[i].ports);
		if (!g[i].ports) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			goto out;
		}
		memcpy((void *)g[i].ports, all, n * sizeof *g[i].ports);
		g[i].nports = n;
		g[i].known = 1;
	}
	for (i = 0; i < c->sp->ntxns; i++)
		for (j = 0; j < c->sp->txns[i].nch; j++) {
			const spec_chan *sc = &c->sp->txns[i].ch[j];
			const chan_run *cr = &c->cr[i][j];
			rn_in_chan *x = &ch[nc++];
			x->plio = cr->pl.name;
			x->to_aie = cr->pl.dir == AIETH_DIR_TO_AIE;
			x->size = cr->size;
			x->repetition = sc->repetition ? sc->repetition : 1;
			x->bytes = sat_mul(cr->size, x->repetition);
			x->where = sc->jpath;
			x->file = x->to_aie ? sc->data.given : sc->golden.given;
			x->file_desc = c->sp->path;
		}
	if (aieth__rn_inputs_rule(g, c->sp->ngraphs, ch, nc, msg, sizeof msg))
		rc = aieth__fail(AIETH_EINVAL, "%s", msg);
out:
	free(all);
	if (g)
		for (i = 0; i < c->sp->ngraphs; i++)
			free((void *)g[i].ports);
	free(g);
	free(ch);
	return rc;
}

/* After a hang: a data-size mismatch when every graph ran a bounded run
 * and completed its iterations (the graphs did all they were asked, so
 * what is missing was never going to come, and what is left was never
 * going to be read), else a stall. Each short RX channel is named with
 * what the graph wrote, each TX channel not read to its end with what the
 * graph read (more than a bounded graph takes, beyond what the streams
 * absorb: the before-run rule cannot refuse it, only the run tells). */
void aieth__rn_inputs_verdict(run_ctx *c)
{
	jobj *graphs = aieth__rj_get(c->test, "graphs"),
	     *txns = aieth__rj_get(c->test, "transactions");
	jobj *err = aieth__rj_get(c->test, "error");
	size_t i, j, ng = graphs ? json_object_array_length(graphs) : 0;
	int done = ng > 0;
	char words[1536];
	size_t len = 0;

	if (c->exit_code != AIETH_EXIT_TIMEOUT || aieth__rj_get(c->test, "verdict_detail"))
		return;
	for (i = 0; i < ng; i++) {
		jobj *g = json_object_array_get_idx(graphs, i);
		int64_t it = aieth__rj_geti(g, "iterations");
		if (it < 0 || !aieth__rj_get(g, "iterations_done") ||
		    aieth__rj_geti(g, "iterations_done") < it)
			done = 0;
	}
	words[0] = 0;
	for (i = 0; done && txns && i < json_object_array_length(txns); i++) {
		jobj *chans = aieth__rj_get(json_object_array_get_idx(txns, i), "channels");
		for (j = 0; chans && j < json_object_array_length(chans); j++) {
			jobj *ch = json_object_array_get_idx(chans, j);
			int64_t moved = aieth__rj_geti(ch, "bytes_moved"),
				want = aieth__rj_geti(ch, "bytes_expected");
			const char *plio = aieth__rj_gets(ch, "plio");
			int rx = strstr(plio, "FROM_AIE") != NULL;
			if (moved >= want || len + 200 > sizeof words)
				continue;
			len += (size_t)snprintf(words + len, sizeof words - len,
						rx ? "%s%s: the graph wrote %" PRId64 " of %" PRId64
						     " bytes: the expected size may be wrong"
						   : "%s%s: %" PRId64 " of %" PRId64
						     " bytes went in, the graph took no more: the "
						     "data is longer than its iterations take",
						len ? "; " : "", plio, moved, want);
		}
	}
	if (!done || !len) {
		aieth__rj_str(c->test, "verdict_detail", "stall");
		return;
	}
	aieth__rj_str(c->test, "verdict_detail", "data_size_mismatch");
	/* not a board's hang: the input exit code, no reset asked */
	c->exit_code = AIETH_EXIT_INPUT;
	if (err) {
		char hint[2048];
		snprintf(hint, sizeof hint,
			 "%s (every graph completed its iterations: a data-size mismatch of the "
			 "description, not a stall; the board needs no reset)",
			 words);
		aieth__rj_str(err, "hint", hint);
	}
}
