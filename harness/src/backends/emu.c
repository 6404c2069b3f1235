/* SPDX-License-Identifier: MIT */
/*
 * emu.c - the emulated board backend: graph models bound to the
 * board's PLIOs, driving the PL DMA engine cycle model (pl_dma/engine.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aie/aie_state.h"
#include "backends/backend.h"
#include "backends/emu.h"
#include "pl_dma/engine.h"
#include "pl_dma/models/load.h"
#include "pl_dma/models/models.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/path.h"

/* RTP values: the graph models do not consume them; the emulated board
 * keeps the last bytes written per graph and port so a read returns them. */
typedef struct {
	uint32_t graph;
	char *port;
	uint8_t *data;
	size_t size;
} emu_rtp;

typedef struct {
	const aieth_dev_config *cfg; /* the session's, outlives this state */
	int reference;               /* aieth_emu_opts.reference */
	pld_engine *eng;
	aieth_model_handle *models; /* one per graph */
	size_t nmodels;
	uint32_t N;
	pld_chan_progress *tx, *rx;
	emu_rtp *rtp; /* the last value written to each port */
	size_t nrtp;
	char *state_dir;  /* aieth_emu_opts.artifacts_dir (version 2), or NULL */
	aie_state *stall; /* the last stall's or timeout's state, or NULL */
} emu_state;

static void emu_close(void *state)
{
	emu_state *st = state;
	size_t i;
	if (!st)
		return;
	aieth__pld_engine_destroy(st->eng);
	for (i = 0; i < st->nmodels; i++)
		aieth__model_close(&st->models[i]);
	free(st->models);
	free(st->tx);
	free(st->rx);
	for (i = 0; i < st->nrtp; i++) {
		free(st->rtp[i].port);
		free(st->rtp[i].data);
	}
	free(st->rtp);
	free(st->state_dir);
	free(st->stall);
	free(st);
}

/* Resolve a model port's PLIO to a channel index of the board. */
static int bind_port(const aieth_dev_config *cfg, const char *graph, const char *kernel,
		     const char *plio, aieth_dir want, uint32_t *idx)
{
	aieth_plio pl;
	if (aieth_board_plio_find(cfg->board, plio, &pl) != AIETH_OK)
		return aieth__fail_prefix(AIETH_EINVAL, "graph \"%s\" kernel \"%s\"", graph,
					  kernel);
	if (pl.dir != want)
		return aieth__fail(AIETH_EINVAL,
				   "graph \"%s\" kernel \"%s\": %s is an %s port but %s", graph,
				   kernel, plio, want == AIETH_DIR_TO_AIE ? "input" : "output",
				   want == AIETH_DIR_TO_AIE ? "carries data from the AIE"
							    : "carries data to the AIE");
	*idx = pl.index;
	return AIETH_OK;
}

static int emu_open(const aieth_dev_config *cfg, void **state)
{
	emu_state *st = calloc(1, sizeof *st);
	pld_kernel_desc *kd = NULL;
	size_t nk = 0, cap = 0, g;
	uint32_t i;
	pld_engine_params p;
	char err[512];
	int rc;

	if (!st)
		return aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
	st->cfg = cfg;
	st->reference = cfg->opts.emu ? cfg->opts.emu->reference : 0;
	if (cfg->opts.emu && cfg->opts.emu->version >= 2 && cfg->opts.emu->artifacts_dir &&
	    !(st->state_dir = aieth__strdup(cfg->opts.emu->artifacts_dir))) {
		free(st);
		return aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
	}
	st->N = cfg->info->channels;
	st->models = calloc(cfg->ngraphs ? cfg->ngraphs : 1, sizeof *st->models);
	st->tx = calloc(st->N, sizeof *st->tx);
	st->rx = calloc(st->N, sizeof *st->rx);
	if (!st->models || !st->tx || !st->rx) {
		rc = aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
		goto fail;
	}
	for (g = 0; g < cfg->ngraphs; g++) {
		const aieth_graph_state *gs = &cfg->graphs[g];
		aieth_model_env env;
		aieth_model *m;
		memset(&env, 0, sizeof env);
		env.abi_version = AIETH_MODEL_ABI_VERSION;
		env.board = cfg->info->name;
		env.channels = cfg->info->channels;
		env.pl_clock_hz = cfg->info->pl_clock_hz;
		env.err = err;
		env.err_size = sizeof err;
		env.base_dir = gs->base_dir;
		rc = aieth__model_open(&st->models[g], gs->model ? gs->model : "loopback",
				       gs->params, &env);
		if (rc != AIETH_OK) {
			aieth__fail_prefix(rc, "graph \"%s\"", gs->name);
			goto fail;
		}
		st->nmodels = g + 1;
		m = &st->models[g].model;
		for (i = 0; i < m->num_kernels; i++) {
			const aieth_model_kernel *mk = &m->kernels[i];
			pld_kernel_desc *d;
			uint32_t q;
			if (AIETH__GROW(kd, cap, nk + 1, 16, 0)) {
				rc = aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
				goto fail;
			}
			d = &kd[nk++];
			memset(d, 0, sizeof *d);
			d->graph = (uint32_t)g;
			d->n_in = mk->num_inputs;
			d->n_out = mk->num_outputs;
			for (q = 0; q < mk->num_inputs; q++) {
				rc = bind_port(cfg, gs->name, mk->name, mk->inputs[q].plio,
					       AIETH_DIR_TO_AIE, &d->in_chan[q]);
				if (rc)
					goto fail;
				d->in_beats[q] = mk->inputs[q].bytes_per_iteration / PLD_WORD_BYTES;
			}
			for (q = 0; q < mk->num_outputs; q++) {
				rc = bind_port(cfg, gs->name, mk->name, mk->outputs[q].plio,
					       AIETH_DIR_FROM_AIE, &d->out_chan[q]);
				if (rc)
					goto fail;
				d->out_beats[q] =
					mk->outputs[q].bytes_per_iteration / PLD_WORD_BYTES;
			}
			d->cpi = mk->cycles_per_iteration;
			d->latency = mk->latency;
			d->compute = mk->compute;
			d->ctx = mk->ctx;
			d->timing = m->iteration_timing; /* NULL from older plugins */
			d->timing_ctx = m->ctx;
			d->timing_kernel = (uint32_t)i;
			d->timing_period = m->timing_period;
			d->model_name = st->models[g].spec;
			d->kernel_name = mk->name;
		}
	}
	/* one PLIO feeds or drains one kernel port across all graphs */
	{
		uint8_t *used = calloc(2 * (size_t)st->N, 1);
		size_t a;
		if (!used) {
			rc = aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
			goto fail;
		}
		for (a = 0; a < nk; a++) {
			uint32_t q;
			for (q = 0; q < kd[a].n_in + kd[a].n_out; q++) {
				int out = q >= kd[a].n_in;
				uint32_t c =
					out ? kd[a].out_chan[q - kd[a].n_in] : kd[a].in_chan[q];
				if (used[out * st->N + c]++) {
					aieth_plio pl;
					aieth_board_plio_at(cfg->board, out, c, &pl);
					free(used);
					rc = aieth__fail(
						AIETH_EINVAL,
						"graph models: %s is used by two kernels (graph "
						"\"%s\" and another); each PLIO connects one port",
						pl.name, cfg->graphs[kd[a].graph].name);
					goto fail;
				}
			}
		}
		free(used);
	}
	p.channels = st->N;
	p.depth = cfg->info->uram_depth_words;
	p.burst_words = cfg->info->func_memory.burst_words;
	p.fifo_depth = cfg->info->func_memory.fifo_depth_words;
	p.read_latency = cfg->info->func_memory.read_latency_cycles;
	p.write_latency = cfg->info->func_memory.write_latency_cycles;
	p.preload_latency = cfg->info->preload_latency_cycles;
	p.loop_overhead = cfg->info->func_memory.loop_overhead_cycles;
	p.edge_tx_first = cfg->info->counter_edges.tx_first_cycles;
	p.edge_tx_last = cfg->info->counter_edges.tx_last_cycles;
	p.edge_rx_first = cfg->info->counter_edges.rx_first_cycles;
	p.edge_rx_last = cfg->info->counter_edges.rx_last_cycles;
	if (aieth__pld_engine_create(&st->eng, &p, kd, nk, (uint32_t)cfg->ngraphs, err,
				     sizeof err)) {
		rc = aieth__fail(AIETH_EDEVICE, "%s", err);
		goto fail;
	}
	aieth__pld_engine_set_hooks(st->eng, cfg->opts.interrupt, cfg->opts.progress,
				    cfg->opts.progress_ctx);
	free(kd);
	*state = st;
	return AIETH_OK;
fail:
	free(kd);
	emu_close(st);
	return rc;
}

static int emu_graph_run(void *state, uint32_t graph, int64_t iterations)
{
	emu_state *st = state;
	aieth__pld_engine_graph_run(st->eng, graph,
				    iterations < 0 ? PLD_FOREVER : (uint64_t)iterations);
	return AIETH_OK;
}

static int emu_graph_status(void *state, uint32_t graph, uint64_t *done, int *complete)
{
	emu_state *st = state;
	aieth__pld_engine_graph_status(st->eng, graph, done, complete);
	return AIETH_OK;
}

static int emu_graph_wait(void *state, uint32_t graph, uint32_t timeout_ms)
{
	emu_state *st = state;
	uint64_t done;
	int complete;
	(void)timeout_ms; /* nothing more happens without transactions */
	aieth__pld_engine_graph_status(st->eng, graph, &done, &complete);
	if (complete)
		return AIETH_OK;
	return aieth__fail(AIETH_ETIMEOUT,
			   "graph \"%s\" cannot finish: %llu iterations done and its kernels wait "
			   "for data or for output space (emulated board)",
			   st->cfg->graphs[graph].name, (unsigned long long)done);
}

static int emu_graph_end(void *state, uint32_t graph)
{
	emu_state *st = state;
	aieth__pld_engine_graph_end(st->eng, graph);
	return AIETH_OK;
}

static int emu_txn_start(void *state, pld_txn *wire)
{
	(void)state;
	(void)wire; /* the emulator runs a transaction when it is waited for */
	return AIETH_OK;
}

const aie_state *aieth__emu_aie_state(const void *state)
{
	const emu_state *st = state;
	return st ? st->stall : NULL;
}

/* At a stall or timeout (board cycle now), after the run r: where each
 * graph model port stands (aie/aie_state.h, source "emulator"), kept for
 * aieth__emu_aie_state, written as aie_state.json to the artifacts folder
 * when there is one, and said in words in out ("" when nothing is stuck):
 * the same structure and words as a board's array state. */
static void emu_stall_state(emu_state *st, uint64_t now, char *out, size_t size)
{
	pld_port_state ps[AIE_MAX_PORTS];
	aie_state *s = st->stall ? st->stall : malloc(sizeof *s);
	size_t n, i;
	out[0] = '\0';
	if (!s)
		return;
	st->stall = s;
	aieth__aie_state_init(s, "emulator");
	if (st->cfg->ngraphs == 1)
		snprintf(s->graph, sizeof s->graph, "%s", st->cfg->graphs[0].name);
	s->cycle = now;
	n = aieth__pld_engine_port_states(st->eng, now, ps, AIE_MAX_PORTS);
	for (i = 0; i < n; i++) {
		aie_port *p;
		aieth_plio pl;
		const pld_chan_progress *c;
		if (i >= AIE_MAX_PORTS || !(p = aieth__aie_state_add_port(s))) {
			s->ports_dropped += i >= AIE_MAX_PORTS;
			continue;
		}
		c = ps[i].out ? &st->rx[ps[i].chan] : &st->tx[ps[i].chan];
		snprintf(p->graph, sizeof p->graph, "%s", st->cfg->graphs[ps[i].graph].name);
		snprintf(p->kernel, sizeof p->kernel, "%s", ps[i].kernel_name);
		snprintf(p->model, sizeof p->model, "%s", ps[i].model_name);
		if (aieth_board_plio_at(st->cfg->board,
					ps[i].out ? AIETH_DIR_FROM_AIE : AIETH_DIR_TO_AIE,
					ps[i].chan, &pl) == AIETH_OK) {
			snprintf(p->plio, sizeof p->plio, "%s", pl.name);
			p->shim_col = (int)pl.shim_column;
			p->shim_chan = (int)pl.shim_channel;
		} else {
			snprintf(p->plio, sizeof p->plio, "%s channel %u", ps[i].out ? "RX" : "TX",
				 ps[i].chan);
		}
		p->port = (int)ps[i].port;
		p->to_aie = !ps[i].out;
		p->state = ps[i].state == PLD_PORT_WAIT_INPUT    ? AIE_PORT_WAIT_INPUT
			   : ps[i].state == PLD_PORT_WAIT_OUTPUT ? AIE_PORT_WAIT_OUTPUT
			   : ps[i].state == PLD_PORT_WAIT_KERNEL ? AIE_PORT_WAIT_KERNEL
			   : ps[i].state == PLD_PORT_DONE        ? AIE_PORT_DONE
								 : AIE_PORT_READY;
		p->bytes = c->beats_moved * PLD_WORD_BYTES;
		p->expected_bytes = c->beats_expected * PLD_WORD_BYTES;
		p->iterations = ps[i].limit == PLD_FOREVER ? -1 : (int64_t)ps[i].limit;
		/* 1-based: the iteration it is inside, or the next one it waits for */
		p->iteration = ps[i].state == PLD_PORT_WAIT_KERNEL || ps[i].state == PLD_PORT_DONE
				       ? ps[i].started
				       : ps[i].started + 1;
		if (ps[i].state == PLD_PORT_WAIT_OUTPUT && ps[i].beats_per_iteration)
			p->iteration = ps[i].started; /* the oldest output not drained */
		p->bytes_per_iteration = ps[i].beats_per_iteration * PLD_WORD_BYTES;
		p->window_bytes = ps[i].beats * PLD_WORD_BYTES;
		p->busy_until = ps[i].busy_until;
	}
	aieth__aie_state_words_join(s, out, size, 4);
	if (st->state_dir && aieth__aie_state_write(s, st->state_dir, "aie_state.json") != AIETH_OK)
		aieth__aie_words_add(out, size, "aie_state.json not written");
}

static int emu_txn_wait(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res)
{
	emu_state *st = state;
	pld_run_result r;
	uint64_t clock = st->cfg->info->pl_clock_hz, limit = 0, total;
	uint32_t i;

	memset(&r, 0, sizeof r);
	r.tx = st->tx;
	r.rx = st->rx;
	if (timeout_ms)
		limit = (uint64_t)timeout_ms * clock / 1000u;
	if (aieth__pld_engine_run(st->eng, wire, st->reference, limit, &r))
		return aieth__fail(AIETH_EDEVICE, "emulator: %s", r.msg);
	total = r.preload_cycles + r.end_cycle + r.drain_cycles;
	res->total_cycles = total;
	res->have_progress = 1;
	for (i = 0; i < st->N; i++) {
		const pld_chan_progress *c[2] = {&st->tx[i], &st->rx[i]};
		aieth_dev_chan *d[2] = {&res->tx[i], &res->rx[i]};
		int k;
		for (k = 0; k < 2; k++) {
			d[k]->moved_bytes = c[k]->beats_moved * PLD_WORD_BYTES;
			d[k]->stalled_since = c[k]->stalled_since;
			d[k]->first_cycle = c[k]->first;
			d[k]->last_cycle = c[k]->last;
			d[k]->connected = c[k]->connected;
		}
	}
	switch (r.status) {
	case PLD_RUN_DONE:
		if (limit && total > limit) {
			res->status = AIETH_TXN_TIMEOUT;
			snprintf(res->msg, sizeof res->msg,
				 "the transaction takes %llu cycles (%.3f ms) on the board, more "
				 "than the %u ms timeout",
				 (unsigned long long)total, (double)total * 1e3 / (double)clock,
				 timeout_ms);
		} else {
			res->status = AIETH_TXN_DONE;
		}
		break;
	case PLD_RUN_STALLED: {
		char why[300];
		res->status = AIETH_TXN_TIMEOUT;
		emu_stall_state(st, r.end_cycle, why, sizeof why);
		snprintf(res->msg, sizeof res->msg,
			 "the board stalled at cycle %llu: no channel can move data any more "
			 "(a graph that consumes or produces less than the channels expect, a "
			 "graph not running, or a PLIO no graph port uses)%s%.300s",
			 (unsigned long long)r.end_cycle, why[0] ? "; AI Engine: " : "", why);
		break;
	}
	case PLD_RUN_INTERRUPTED:
		res->status = AIETH_TXN_INTERRUPTED;
		if (r.msg[0]) /* in the data phase: the engine says where */
			snprintf(res->msg, sizeof res->msg,
				 "%.400s; the emulated board was stopped", r.msg);
		else
			snprintf(res->msg, sizeof res->msg,
				 "interrupted at board cycle %llu; the emulated board was stopped",
				 (unsigned long long)r.end_cycle);
		break;
	case PLD_RUN_TIMEOUT: {
		/* where the graph models stand at the timeout, as for a stall */
		char why[300];
		res->status = AIETH_TXN_TIMEOUT;
		emu_stall_state(st, limit, why, sizeof why);
		snprintf(res->msg, sizeof res->msg,
			 "still running after %llu cycles, the %u ms timeout%s%.300s",
			 (unsigned long long)limit, timeout_ms,
			 why[0] ? "; AI Engine at the timeout: " : "", why);
		break;
	}
	default:
		res->status = AIETH_TXN_FAILED;
		snprintf(res->msg, sizeof res->msg, "%s", r.msg);
		break;
	}
	return AIETH_OK;
}

static emu_rtp *rtp_find(emu_state *st, uint32_t graph, const char *port)
{
	size_t i;
	for (i = 0; i < st->nrtp; i++)
		if (st->rtp[i].graph == graph && !strcmp(st->rtp[i].port, port))
			return &st->rtp[i];
	return NULL;
}

static int emu_graph_update_rtp(void *state, uint32_t graph, const char *port, const void *data,
				size_t size)
{
	emu_state *st = state;
	emu_rtp *r = rtp_find(st, graph, port);
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
	memcpy(copy, data, size);
	if (!r) {
		emu_rtp *n = realloc(st->rtp, (st->nrtp + 1) * sizeof *n);
		char *name = aieth__strdup(port);
		if (!n || !name) {
			free(copy);
			free(name);
			if (n)
				st->rtp = n;
			return aieth__fail(AIETH_ENOMEM, "emulator: out of memory");
		}
		st->rtp = n;
		r = &st->rtp[st->nrtp++];
		r->graph = graph;
		r->port = name;
		r->data = NULL;
	}
	free(r->data);
	r->data = copy;
	r->size = size;
	return AIETH_OK;
}

static int emu_graph_read_rtp(void *state, uint32_t graph, const char *port, void *data,
			      size_t size)
{
	emu_state *st = state;
	emu_rtp *r = rtp_find(st, graph, port);
	if (!r)
		return aieth__fail(AIETH_ENOTFOUND,
				   "graph \"%s\": RTP port \"%s\" has not been written in this "
				   "session (the emulated board returns the last value written)",
				   st->cfg->graphs[graph].name, port);
	if (r->size != size)
		return aieth__fail(AIETH_EINVAL,
				   "graph \"%s\": RTP port \"%s\" holds %zu bytes, %zu asked",
				   st->cfg->graphs[graph].name, port, r->size, size);
	memcpy(data, r->data, size);
	return AIETH_OK;
}

/* Every kernel's ports of the graph's model, as it declared them. */
static int emu_graph_ports(void *state, uint32_t graph, aieth_graph_port *ports, size_t cap,
			   size_t *n)
{
	emu_state *st = state;
	const aieth_model *m = &st->models[graph].model;
	uint32_t k, q;
	size_t c = 0;
	for (k = 0; k < m->num_kernels; k++) {
		const aieth_model_kernel *mk = &m->kernels[k];
		for (q = 0; q < mk->num_inputs + mk->num_outputs; q++, c++) {
			int in = q < mk->num_inputs;
			const aieth_model_port *mp =
				in ? &mk->inputs[q] : &mk->outputs[q - mk->num_inputs];
			if (c >= cap)
				continue;
			snprintf(ports[c].plio, sizeof ports[c].plio, "%s", mp->plio);
			ports[c].to_aie = in;
			ports[c].kernel = k;
			ports[c].bytes_per_iteration = mp->bytes_per_iteration;
		}
	}
	*n = c;
	return AIETH_OK;
}

/* Version 1 ends before artifacts_dir: a caller of version 1 gets the
 * bytes of its struct only. */
int aieth_emu_opts_init(aieth_emu_opts *opts, unsigned int version)
{
	static const aieth_emu_opts init = AIETH_EMU_OPTS_INIT;
	size_t size = version == 1 ? offsetof(aieth_emu_opts, artifacts_dir) : sizeof init;
	int rc = aieth__opts_init("aieth_emu_opts_init", opts, &init, size, version,
				  AIETH_EMU_OPTS_VERSION);
	if (!rc)
		opts->version = version;
	return rc;
}

const char *const *aieth_emu_model_names(void) { return aieth__builtin_model_names(); }

/* The versions of aieth_emu_opts this backend reads; its fields need no
 * check (reference is a flag). */
static int emu_check(const aieth_dev_config *cfg, int selected)
{
	const aieth_session_opts *o = &cfg->opts;
	const char *ini = o->xrt && o->xrt->xrt_ini         ? o->xrt->xrt_ini
			  : o->remote && o->remote->xrt_ini ? o->remote->xrt_ini
							    : NULL;
	/* refused, not ignored: the user expects XRT's trace files */
	if (selected && ini)
		return aieth__fail(AIETH_EINVAL,
				   "session: xrt_ini %s: the emulated board has no "
				   "XRT to read an xrt.ini (the xrt backend reads one on a board, "
				   "the remote backend sends one to th_server)",
				   ini);
	if (!o->emu)
		return AIETH_OK; /* the defaults */
	return aieth__opts_version("aieth_session_opts.emu", "aieth_emu_opts", o->emu->version,
				   AIETH_EMU_OPTS_VERSION);
}

const aieth_backend_ops aieth__backend_emu = {
	.name = "emu",
	.flags = AIETH_BACKEND_LOCAL | AIETH_BACKEND_EMULATED,
	.description = "the emulated board",
	.graph_ports = emu_graph_ports,
	.streams = 1,
	.check = emu_check,
	.open = emu_open,
	.close = emu_close,
	.graph_run = emu_graph_run,
	.graph_wait = emu_graph_wait,
	.graph_end = emu_graph_end,
	.graph_status = emu_graph_status,
	.txn_start = emu_txn_start,
	.txn_wait = emu_txn_wait,
	.graph_update_rtp = emu_graph_update_rtp,
	.graph_read_rtp = emu_graph_read_rtp,
};
