/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_state.c - reading the array from sysfs under one deadline, the
 * state in words, and its JSON (aie/aie_state.h).
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aie/aie_state.h"
#include "aieth/error.h"
#include "util/sysfs.h"

void aieth__aie_state_init(aie_state *s, const char *source)
{
	memset(s, 0, sizeof *s);
	snprintf(s->source, sizeof s->source, "%s", source ? source : "");
}

void aieth__aie_state_note(aie_state *s, const char *fmt, ...)
{
	va_list ap;
	if (s->nnotes >= AIE_MAX_NOTES) {
		s->notes_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(s->notes[s->nnotes++], AIE_NOTE_LEN, fmt, ap);
	va_end(ap);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Names collected by aieth__sysfs_list. */
typedef struct {
	int n;
	char name[AIE_MAX_TILES][24];
} names;

static void collect(void *ctx, const char *name)
{
	names *ns = ctx;
	if (ns->n < AIE_MAX_TILES && strlen(name) < sizeof ns->name[0])
		snprintf(ns->name[ns->n++], sizeof ns->name[0], "%s", name);
}

static int tile_name(const char *name, int *col, int *row)
{
	char tail;
	return sscanf(name, "%3d_%3d%c", col, row, &tail) == 2 && *col >= 0 && *row >= 0;
}

typedef int (*parser)(const char *, size_t, aie_tile *, char *, size_t);

/* One file of a tile: read within what is left, parse, note a failure. */
static int tile_file(aie_state *s, const char *dir, const char *file, aie_tile *t, parser p,
		     long long end)
{
	char rel[160], buf[AIE_FILE_MAX + 1], note[AIE_NOTE_LEN / 2];
	size_t len = 0;
	int tr = 0, rc;
	long long left = end - now_ms();
	if (left <= 0)
		return 0;
	snprintf(rel, sizeof rel, "%s/%s", dir, file);
	rc = aieth__sysfs_read(rel, buf, sizeof buf, &len, &tr, (int)left);
	if (rc == AIETH_ENOTFOUND)
		return 0; /* the driver has no such file for this kind of tile */
	if (rc == AIETH_ETIMEOUT) {
		aieth__aie_state_note(
			s, "%s: no answer within the deadline (%lld ms left): skipped", rel, left);
		return 0;
	}
	if (rc != AIETH_OK) {
		aieth__aie_state_note(s, "%s: %s", rel, aieth_error_message());
		return 0;
	}
	if (tr) {
		aieth__aie_state_note(s,
				      "%s: larger than %d bytes: not the driver's format, skipped",
				      rel, AIE_FILE_MAX);
		return 0;
	}
	if (p(buf, len, t, note, sizeof note)) {
		aieth__aie_state_note(s, "%s: %s", rel, note);
		return 0;
	}
	return 1;
}

int aieth__aie_state_read_sysfs(aie_state *s, int deadline_ms)
{
	names *parts = calloc(1, sizeof *parts), *tiles = calloc(1, sizeof *tiles);
	long long end = now_ms() + (deadline_ms > 0 ? deadline_ms : 0);
	int i, j, rc;
	if (!parts || !tiles) {
		aieth__aie_state_note(s, "out of memory reading the array's state");
		goto out;
	}
	rc = aieth__sysfs_list("class/aie", collect, parts, AIE_MAX_TILES);
	if (rc < 0) {
		aieth__aie_state_note(s, "%s/class/aie: %s (no AI Engine driver, or not loaded)",
				      aieth__sysfs_root(),
				      rc == AIETH_ENOTFOUND ? "not there" : aieth_error_message());
		goto out;
	}
	for (i = 0; i < parts->n; i++) {
		char dir[96];
		if (strncmp(parts->name[i], "aiepart_", 8) != 0)
			continue;
		snprintf(dir, sizeof dir, "class/aie/%s", parts->name[i]);
		tiles->n = 0;
		if (aieth__sysfs_list(dir, collect, tiles, AIE_MAX_TILES) < 0) {
			aieth__aie_state_note(s, "%s: %s", dir, aieth_error_message());
			continue;
		}
		for (j = 0; j < tiles->n; j++) {
			char tdir[128];
			aie_tile *t;
			int col, row, ok;
			if (!tile_name(tiles->name[j], &col, &row))
				continue;
			if (now_ms() >= end) {
				aieth__aie_state_note(
					s,
					"deadline of %d ms reached after %d tiles: the rest "
					"not read",
					deadline_ms, s->ntiles);
				goto out;
			}
			if (s->ntiles >= AIE_MAX_TILES) {
				aieth__aie_state_note(s, "more than %d tiles: the rest not read",
						      AIE_MAX_TILES);
				goto out;
			}
			t = &s->tiles[s->ntiles];
			memset(t, 0, sizeof *t);
			t->col = col;
			t->row = row;
			t->kind = row == 0 ? AIE_TILE_SHIM : AIE_TILE_MEM;
			snprintf(tdir, sizeof tdir, "%s/%s", dir, tiles->name[j]);
			/* a tile is kept when one of its files parsed; a file
			 * refused leaves its part of the tile empty */
			ok = tile_file(s, tdir, "core", t, aieth__aie_parse_core, end);
			if (!ok)
				t->has_core = 0, t->core_flags = 0,
				t->kind = row == 0 ? AIE_TILE_SHIM : AIE_TILE_MEM;
			if (!tile_file(s, tdir, "lock", t, aieth__aie_parse_lock, end))
				t->nlocks = 0;
			else
				ok = 1;
			if (!tile_file(s, tdir, "dma", t, aieth__aie_parse_dma, end))
				t->has_dma = 0, t->nmm2s = t->ns2mm = 0;
			else
				ok = 1;
			if (!tile_file(s, tdir, "event", t, aieth__aie_parse_event, end))
				t->has_events = 0, memset(t->nevents, 0, sizeof t->nevents);
			else
				ok = 1;
			if (!tile_file(s, tdir, "error", t, aieth__aie_parse_error, end))
				t->has_errors = 0, t->nerrors = t->errors_dropped = 0;
			else
				ok = 1;
			if (ok)
				s->ntiles++;
		}
	}
out:
	free(parts);
	free(tiles);
	return s->ntiles;
}

static const char *kind_name(aie_tile_kind k)
{
	return k == AIE_TILE_CORE ? "core" : k == AIE_TILE_MEM ? "mem" : "shim";
}

static int chan_stuck(const aie_dma_chan *c)
{
	return strncmp(c->status, "stalled", 7) == 0 ||
	       (strcmp(c->status, "idle") == 0 && c->queue_size > 0);
}

int aieth__aie_tile_stuck(const aie_tile *t)
{
	const uint32_t stalls =
		~((1u << AIE_CS_ENABLE) | (1u << AIE_CS_RESET) | (1u << AIE_CS_CORE_DONE));
	int j;
	if (t->core_flags & stalls)
		return 1;
	for (j = 0; j < t->nmm2s; j++)
		if (chan_stuck(&t->mm2s[j]))
			return 1;
	for (j = 0; j < t->ns2mm; j++)
		if (chan_stuck(&t->s2mm[j]))
			return 1;
	return 0;
}

/* "lock acquire (west)" for the first stall flag of a core. */
static void stall_words(uint32_t f, char *out, size_t cap)
{
	static const char *const side[4] = {"south", "west", "north", "east"};
	int b;
	for (b = AIE_CS_MEM_STALL_S; b < AIE_CS_COUNT; b++) {
		if (!(f & (1u << b)) || b == AIE_CS_CORE_DONE)
			continue;
		if (b <= AIE_CS_MEM_STALL_E)
			snprintf(out, cap, "memory access (%s)", side[b - AIE_CS_MEM_STALL_S]);
		else if (b <= AIE_CS_LOCK_STALL_E)
			snprintf(out, cap, "lock acquire (%s)", side[b - AIE_CS_LOCK_STALL_S]);
		else if (b <= AIE_CS_STREAM_STALL_SS1)
			snprintf(out, cap, "stream input (SS%d)", b - AIE_CS_STREAM_STALL_SS0);
		else if (b <= AIE_CS_STREAM_STALL_MS1)
			snprintf(out, cap, "stream output (MS%d)", b - AIE_CS_STREAM_STALL_MS0);
		else if (b == AIE_CS_CASCADE_STALL_SCD)
			snprintf(out, cap, "cascade input");
		else if (b == AIE_CS_CASCADE_STALL_MCD)
			snprintf(out, cap, "cascade output");
		else
			snprintf(out, cap, "%s", aieth__aie_core_flag_name((unsigned)b));
		return;
	}
	out[0] = '\0';
}

static int words_ports(const aie_state *s, void (*each)(void *ctx, const char *line), void *ctx,
		       int n, int max);
/* ", errors: core bus axi_mm_slave_error; ..." appended to line */
static void error_words(const aie_tile *t, char *line, size_t cap)
{
	size_t l = strlen(line);
	int e;
	for (e = 0; e < t->nerrors && l + 1 < cap; e++) {
		snprintf(line + l, cap - l, "%s%s %s %s",
			 e ? "; " : ", errors: ", aieth__aie_module_name(t->errors[e].module),
			 aieth__aie_error_category_name(t->errors[e].category),
			 aieth__aie_error_name(t->errors[e].name));
		l = strlen(line);
	}
	if (t->errors_dropped && l + 1 < cap)
		snprintf(line + l, cap - l, "; %d more", t->errors_dropped);
}

int aieth__aie_state_words(const aie_state *s, void (*each)(void *ctx, const char *line), void *ctx,
			   int max)
{
	char line[AIE_NOTE_LEN], what[64];
	int i, j, k, n = 0;
	for (i = 0; i < s->ntiles && n < max; i++) {
		const aie_tile *t = &s->tiles[i];
		stall_words(t->core_flags, what, sizeof what);
		if (what[0]) {
			snprintf(line, sizeof line, "%s%s%score (%d,%d) %s on %s (PC 0x%x)",
				 s->graph[0] ? "graph " : "", s->graph, s->graph[0] ? ": " : "",
				 t->col, t->row,
				 (t->core_flags &
				  ((1u << AIE_CS_DEBUG_HALT) | (1u << AIE_CS_ERROR_HALT)))
					 ? "halted"
					 : "stalled",
				 what, t->pc);
			error_words(t, line, sizeof line);
			each(ctx, line);
			n++;
		} else if (t->nerrors) {
			/* errors in a tile that is not stalled are said too */
			snprintf(line, sizeof line, "%s (%d,%d)", kind_name(t->kind), t->col,
				 t->row);
			error_words(t, line, sizeof line);
			each(ctx, line);
			n++;
		}
		for (k = 0; k < 2; k++) {
			const aie_dma_chan *c = k ? t->s2mm : t->mm2s;
			int nc = k ? t->ns2mm : t->nmm2s;
			for (j = 0; j < nc && n < max; j++) {
				if (!chan_stuck(&c[j]))
					continue;
				snprintf(line, sizeof line, "DMA %s %d of %s (%d,%d) %s",
					 k ? "S2MM" : "MM2S", j, kind_name(t->kind), t->col, t->row,
					 c[j].status);
				if (c[j].queue_size > 0) {
					size_t l = strlen(line);
					snprintf(line + l, sizeof line - l, " with %d BD%s queued",
						 c[j].queue_size, c[j].queue_size == 1 ? "" : "s");
				}
				if (c[j].current_bd >= 0) {
					size_t l = strlen(line);
					snprintf(line + l, sizeof line - l, " (current BD %d)",
						 c[j].current_bd);
				}
				each(ctx, line);
				n++;
			}
		}
	}
	return words_ports(s, each, ctx, n, max);
}

const char *aieth__aie_port_state_name(aie_port_state st)
{
	switch (st) {
	case AIE_PORT_WAIT_INPUT: return "waiting for input data";
	case AIE_PORT_WAIT_OUTPUT: return "waiting for output space";
	case AIE_PORT_WAIT_KERNEL: return "waiting for the kernel";
	case AIE_PORT_DONE: return "done";
	case AIE_PORT_READY: break;
	}
	return "ready";
}

aie_port *aieth__aie_state_add_port(aie_state *s)
{
	aie_port *p;
	if (s->nports >= AIE_MAX_PORTS) {
		s->ports_dropped++;
		return NULL;
	}
	p = &s->ports[s->nports++];
	memset(p, 0, sizeof *p);
	p->iterations = -1;
	p->shim_col = p->shim_chan = -1;
	return p;
}

static int port_stuck(const aie_port *p)
{
	return p->state == AIE_PORT_WAIT_INPUT || p->state == AIE_PORT_WAIT_OUTPUT ||
	       p->state == AIE_PORT_WAIT_KERNEL ||
	       (p->state == AIE_PORT_DONE && p->bytes < p->expected_bytes);
}

/* One stuck port in words; first: the first of its kernel said (it says
 * what holds the kernel). */
static void port_words(const aie_port *p, int first, char *line, size_t cap)
{
	char it[48] = "";
	size_t l;
	if (p->iterations >= 0)
		snprintf(it, sizeof it, " of %lld", (long long)p->iterations);
	l = (size_t)snprintf(line, cap, "graph %s: %s %s %d (%s, %llu of %llu bytes moved) %s",
			     p->graph, p->kernel, p->to_aie ? "input" : "output", p->port, p->plio,
			     (unsigned long long)p->bytes, (unsigned long long)p->expected_bytes,
			     aieth__aie_port_state_name(p->state));
	if (l >= cap)
		return;
	switch (p->state) {
	case AIE_PORT_WAIT_INPUT:
		snprintf(line + l, cap - l, ": %llu of the %llu bytes of iteration %llu%s",
			 (unsigned long long)p->window_bytes,
			 (unsigned long long)p->bytes_per_iteration,
			 (unsigned long long)p->iteration, it);
		break;
	case AIE_PORT_WAIT_OUTPUT:
		snprintf(line + l, cap - l, ": %llu bytes of iteration %llu%s not drained",
			 (unsigned long long)p->window_bytes, (unsigned long long)p->iteration, it);
		break;
	case AIE_PORT_WAIT_KERNEL:
		if (first)
			snprintf(line + l, cap - l,
				 ", inside iteration %llu%s until cycle %llu (it computes, or "
				 "is stuck in its code)",
				 (unsigned long long)p->iteration, it,
				 (unsigned long long)p->busy_until);
		break;
	case AIE_PORT_DONE:
		snprintf(line + l, cap - l, ": the kernel ran the %lld iteration%s it was given",
			 (long long)p->iterations, p->iterations == 1 ? "" : "s");
		break;
	case AIE_PORT_READY: break;
	}
}

static int words_ports(const aie_state *s, void (*each)(void *ctx, const char *line), void *ctx,
		       int n, int max)
{
	char line[AIE_NOTE_LEN];
	int i;
	for (i = 0; i < s->nports && i < AIE_MAX_PORTS && n < max; i++) {
		const aie_port *p = &s->ports[i];
		int first = i == 0 || strcmp(p->graph, s->ports[i - 1].graph) ||
			    strcmp(p->kernel, s->ports[i - 1].kernel);
		if (!port_stuck(p))
			continue;
		port_words(p, first, line, sizeof line);
		each(ctx, line);
		n++;
	}
	return n;
}

void aieth__aie_words_add(char *out, size_t size, const char *line)
{
	size_t n = strnlen(out, size), need = (n ? 2 : 0) + strlen(line);
	if (n + 1 >= size)
		return;
	if (n + need < size || !n) { /* whole, or the first cut at size */
		snprintf(out + n, size - n, "%s%s", n ? "; " : "", line);
		return;
	}
	/* never part of a sentence: what does not fit is said to be left out */
	if (n + 5 < size && (n < 3 || strcmp(out + n - 3, "...") != 0))
		snprintf(out + n, size - n, "; ...");
}

typedef struct {
	char *out;
	size_t size;
} words_buf;

static void join_word(void *ctx, const char *line)
{
	words_buf *w = ctx;
	aieth__aie_words_add(w->out, w->size, line);
}

int aieth__aie_state_words_join(const aie_state *s, char *out, size_t size, int max)
{
	words_buf w = {out, size};
	if (!size)
		return 0;
	out[0] = '\0';
	return aieth__aie_state_words(s, join_word, &w, max);
}

static void add_words(void *ctx, const char *line)
{
	json_object_array_add(ctx, json_object_new_string(line));
}

static json_object *chans(const aie_dma_chan *c, int n)
{
	json_object *a = json_object_new_array();
	int j;
	for (j = 0; a && j < n; j++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "channel", json_object_new_int(j));
		json_object_object_add(o, "status", json_object_new_string(c[j].status));
		if (c[j].queue_size >= 0)
			json_object_object_add(o, "queue_size",
					       json_object_new_int(c[j].queue_size));
		if (c[j].queue_status[0])
			json_object_object_add(o, "queue_status",
					       json_object_new_string(c[j].queue_status));
		if (c[j].current_bd >= 0)
			json_object_object_add(o, "current_bd",
					       json_object_new_int(c[j].current_bd));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *u64(uint64_t v) { return json_object_new_int64((int64_t)v); }

/* The graph models' ports (the emulated board; none from sysfs). */
static json_object *ports_json(const aie_state *s)
{
	json_object *a = json_object_new_array();
	int i;
	for (i = 0; a && i < s->nports && i < AIE_MAX_PORTS; i++) {
		const aie_port *p = &s->ports[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "graph", json_object_new_string(p->graph));
		json_object_object_add(o, "kernel", json_object_new_string(p->kernel));
		json_object_object_add(o, "model", json_object_new_string(p->model));
		json_object_object_add(o, "port", json_object_new_int(p->port));
		json_object_object_add(o, "plio", json_object_new_string(p->plio));
		json_object_object_add(o, "direction",
				       json_object_new_string(p->to_aie ? "to_aie" : "from_aie"));
		json_object_object_add(
			o, "state", json_object_new_string(aieth__aie_port_state_name(p->state)));
		json_object_object_add(o, "stuck", json_object_new_boolean(port_stuck(p)));
		json_object_object_add(o, "bytes", u64(p->bytes));
		json_object_object_add(o, "expected_bytes", u64(p->expected_bytes));
		json_object_object_add(o, "iteration", u64(p->iteration));
		json_object_object_add(o, "iterations",
				       p->iterations >= 0 ? json_object_new_int64(p->iterations)
							  : NULL);
		json_object_object_add(o, "bytes_per_iteration", u64(p->bytes_per_iteration));
		if (p->state == AIE_PORT_WAIT_INPUT || p->state == AIE_PORT_WAIT_OUTPUT)
			json_object_object_add(o, "window_bytes", u64(p->window_bytes));
		if (p->state == AIE_PORT_WAIT_KERNEL)
			json_object_object_add(o, "busy_until_cycle", u64(p->busy_until));
		if (p->shim_col >= 0) {
			json_object_object_add(o, "shim_column", json_object_new_int(p->shim_col));
			json_object_object_add(o, "shim_channel",
					       json_object_new_int(p->shim_chan));
		}
		json_object_array_add(a, o);
	}
	return a;
}

json_object *aieth__aie_state_json(const aie_state *s)
{
	static const char *const lock_states[4] = {"released_for_write", "acquired_for_write",
						   "released_for_read", "acquired_for_read"};
	json_object *o = json_object_new_object(), *tiles, *notes, *words;
	int i, j;
	if (!o)
		return NULL;
	json_object_object_add(o, "source", json_object_new_string(s->source));
	if (s->graph[0])
		json_object_object_add(o, "graph", json_object_new_string(s->graph));
	tiles = json_object_new_array();
	for (i = 0; i < s->ntiles; i++) {
		const aie_tile *t = &s->tiles[i];
		json_object *to = json_object_new_object(), *fl, *lk;
		char pc[16];
		json_object_object_add(to, "col", json_object_new_int(t->col));
		json_object_object_add(to, "row", json_object_new_int(t->row));
		json_object_object_add(to, "kind", json_object_new_string(kind_name(t->kind)));
		json_object_object_add(to, "stuck",
				       json_object_new_boolean(aieth__aie_tile_stuck(t)));
		if (t->clock_gated)
			json_object_object_add(to, "clock_gated", json_object_new_boolean(1));
		if (t->has_core) {
			fl = json_object_new_array();
			if (t->core_disabled)
				json_object_array_add(fl, json_object_new_string("Disabled"));
			for (j = 0; j < AIE_CS_COUNT; j++)
				if (t->core_flags & (1u << j))
					json_object_array_add(fl, json_object_new_string(
									  aieth__aie_core_flag_name(
										  (unsigned)j)));
			json_object_object_add(to, "status", fl);
			snprintf(pc, sizeof pc, "0x%08x", t->pc);
			json_object_object_add(to, "pc", json_object_new_string(pc));
		}
		if (t->nlocks) {
			lk = json_object_new_array();
			for (j = 0; j < t->nlocks; j++)
				json_object_array_add(
					lk, t->lock_is_state ? json_object_new_string(
								       lock_states[t->lock[j] & 3])
							     : json_object_new_int(t->lock[j]));
			json_object_object_add(to, "locks", lk);
		}
		if (t->has_dma) {
			json_object *d = json_object_new_object();
			json_object_object_add(d, "mm2s", chans(t->mm2s, t->nmm2s));
			json_object_object_add(d, "s2mm", chans(t->s2mm, t->ns2mm));
			json_object_object_add(to, "dma", d);
		}
		if (t->has_events && !t->events_gated) {
			json_object *ev = json_object_new_object();
			int m;
			for (m = 0; m < AIE_MOD_COUNT; m++) {
				json_object *a;
				if (!(t->has_events & (1 << m)))
					continue;
				a = json_object_new_array();
				for (j = 0; j < t->nevents[m]; j++)
					json_object_array_add(a,
							      json_object_new_int(t->events[m][j]));
				json_object_object_add(ev, aieth__aie_module_name((unsigned)m), a);
			}
			json_object_object_add(to, "events", ev);
		}
		if (t->has_errors) {
			json_object *ea = json_object_new_array();
			for (j = 0; j < t->nerrors; j++) {
				json_object *e = json_object_new_object();
				json_object_object_add(
					e, "module",
					json_object_new_string(
						aieth__aie_module_name(t->errors[j].module)));
				json_object_object_add(
					e, "category",
					json_object_new_string(aieth__aie_error_category_name(
						t->errors[j].category)));
				json_object_object_add(e, "name",
						       json_object_new_string(aieth__aie_error_name(
							       t->errors[j].name)));
				json_object_array_add(ea, e);
			}
			json_object_object_add(to, "errors", ea);
			if (t->errors_dropped)
				json_object_object_add(to, "errors_dropped",
						       json_object_new_int(t->errors_dropped));
		}
		json_object_array_add(tiles, to);
	}
	json_object_object_add(o, "tiles", tiles);
	json_object_object_add(o, "ports", ports_json(s));
	if (!strcmp(s->source, "emulator"))
		json_object_object_add(o, "cycle", json_object_new_int64((int64_t)s->cycle));
	words = json_object_new_array();
	aieth__aie_state_words(s, add_words, words, 64);
	json_object_object_add(o, "summary", words);
	notes = json_object_new_array();
	for (i = 0; i < s->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(s->notes[i]));
	if (s->ports_dropped) {
		char m[96];
		snprintf(m, sizeof m, "%d more graph model ports left out (at most %d)",
			 s->ports_dropped, AIE_MAX_PORTS);
		json_object_array_add(notes, json_object_new_string(m));
	}
	if (s->notes_dropped) {
		char m[64];
		snprintf(m, sizeof m, "%d more notes left out", s->notes_dropped);
		json_object_array_add(notes, json_object_new_string(m));
	}
	json_object_object_add(o, "notes", notes);
	return o;
}
