/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_xrt_status.c - XRT's own AI Engine status file into the same
 * state as the driver's sysfs files give (aie/aie_state.h).
 *
 * XRT's aie_status plugin (xrt.ini [Debug] aie_status=true) rewrites
 * aie_status_<device>_<time>.json every aie_status_interval_us
 * (Xilinx/XRT, src/runtime_src/xdp/profile/plugin/aie_status/
 * aie_status_plugin.cpp); its writer (xdp/profile/writer/aie_status/
 * aie_status_writer.cpp) puts {"schema_version", "devices": [{
 * "aie_metadata", "aie_mem_status", "aie_shim_status"}]}, the three being
 * xrt::info::device::aie, aie_mem and aie_shim as core/common/info_aie.cpp
 * builds them (graphs[].tile[] for core tiles, tiles{"tile<col>"} for the
 * others; per tile core, dma, locks, events, errors), from the driver's
 * sysfs files on an edge board (core/edge/user/aie_sys_parser.cpp). Boost's
 * JSON writer makes every value a string and an empty list "". The file is
 * rewritten in place, so one read while XRT writes can be cut short: then
 * it is a note like any other fault.
 */
#include <ctype.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "aie/aie_internal.h"
#include "aie/aie_state.h"
#include "aieth/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"

typedef struct {
	aie_state *s;
	const char *what;
	int core_row0, mem_row0;
	int added, relative; /* relative: a tile's row kept as XRT's */
} xp;

static void note(xp *x, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void note(xp *x, const char *path, const char *fmt, ...)
{
	char m[AIE_NOTE_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	aieth__aie_state_note(x->s, "%.80s: %.80s: %s", x->what, path, m);
}

/* Unknown keys of o are notes (and left alone); returns how many. */
static int keys(xp *x, const char *path, json_object *o, const char *const *allowed)
{
	int bad = 0;
	json_object_object_foreach(o, k, v)
	{
		size_t i;
		(void)v;
		for (i = 0; allowed[i] && strcmp(allowed[i], k); i++)
			;
		if (!allowed[i]) {
			note(x, path, "key '%.40s' is not in XRT's aie_status format: left out", k);
			bad++;
		}
	}
	return bad;
}

/* A child that must be an object (NULL and a note when it is another
 * type; NULL when absent). */
static json_object *obj(xp *x, const char *path, json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	if (!json_object_is_type(v, json_type_object)) {
		note(x, path, "%s is not an object: left out", key);
		return NULL;
	}
	return v;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A number as boost writes it (a string of digits, "0x..") or a JSON
 * integer: 0, else -1. */
static int num(json_object *v, uint32_t *out)
{
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);
		if (i < 0 || i > 0xffffffffll)
			return -1;
		*out = (uint32_t)i;
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return -1;
	return aieth__aie__number(json_object_get_string(v), (size_t)json_object_get_string_len(v),
				  out);
}

/* The items of a list: an array, an object's values (boost writes a
 * list whose entries have names as an object) or "" (boost's empty list).
 * At most cap; -1 and a note for anything else. */
static int items(xp *x, const char *path, json_object *v, json_object **out, int cap)
{
	int n = 0;
	if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0)
		return 0;
	if (json_object_is_type(v, json_type_array)) {
		size_t i, len = json_object_array_length(v);
		for (i = 0; i < len && n < cap; i++)
			out[n++] = json_object_array_get_idx(v, i);
		if (len > (size_t)cap)
			note(x, path, "%zu entries: the first %d read", len, cap);
		return n;
	}
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, k, e)
		{
			(void)k;
			if (n >= cap) {
				note(x, path, "more than %d entries: the first %d read", cap, cap);
				break;
			}
			out[n++] = e;
		}
		return n;
	}
	note(x, path, "not a list: left out");
	return -1;
}

/* The ", "-separated parts of XRT's joined values, each lowercased into
 * tok (XRT's reports capitalise the driver's words). */
typedef struct {
	int n;
	char tok[AIE_MAX_LOCKS][AIE_TOKEN_LEN + 8];
} parts;

static int split(const char *s, parts *p)
{
	p->n = 0;
	while (*s) {
		const char *e = strstr(s, ", ");
		size_t k = e ? (size_t)(e - s) : strlen(s), i;
		if (p->n >= AIE_MAX_LOCKS || k == 0 || k >= sizeof p->tok[0])
			return -1;
		for (i = 0; i < k; i++) {
			unsigned char c = (unsigned char)s[i];
			if (!isalnum(c) && c != '_' && c != '-')
				return -1;
			p->tok[p->n][i] = (char)tolower(c);
		}
		p->tok[p->n][k] = '\0';
		p->n++;
		s += k;
		if (e) {
			s += 2;
			if (!*s)
				return -1;
		}
	}
	return 0;
}

static void core_part(xp *x, const char *path, json_object *c, aie_tile *t)
{
	static const char *const ks[] = {"status", "program_counter", "link_register",
					 "stack_pointer", NULL};
	static const char *const regs[3] = {"program_counter", "link_register", "stack_pointer"};
	uint32_t *reg[3] = {&t->pc, &t->lr, &t->sp};
	const char *st = str(c, "status");
	parts p;
	int i;
	keys(x, path, c, ks);
	t->has_core = 1;
	t->kind = AIE_TILE_CORE;
	if (st && split(st, &p) == 0) {
		for (i = 0; i < p.n; i++) {
			int bit = aieth__aie__flag_bit(p.tok[i], strlen(p.tok[i]));
			if (!strcmp(p.tok[i], "disabled"))
				t->core_disabled = 1;
			else if (!strcmp(p.tok[i], "clock_gated"))
				t->clock_gated = 1;
			else if (bit >= 0)
				t->core_flags |= 1u << bit;
			else {
				note(x, path,
				     "status '%.40s' is not a core status flag: status left out",
				     p.tok[i]);
				t->core_flags = 0;
				break;
			}
		}
	} else if (st || json_object_object_get_ex(c, "status", NULL)) {
		note(x, path, "status is not XRT's list of flags: left out");
	}
	for (i = 0; i < 3; i++) {
		json_object *v;
		if (json_object_object_get_ex(c, regs[i], &v) && num(v, reg[i]))
			note(x, path, "%s is not a 32-bit number: left out", regs[i]);
	}
}

static void dma_part(xp *x, const char *path, json_object *d, aie_tile *t)
{
	static const char *const ks[] = {"fifo", "mm2s", "s2mm", NULL};
	static const char *const cks[] = {"id",           "channel_status", "queue_size",
					  "queue_status", "current_bd",     NULL};
	static const char *const dir[2] = {"mm2s", "s2mm"};
	int k;
	keys(x, path, d, ks);
	t->has_dma = 1;
	for (k = 0; k < 2; k++) {
		json_object *o = obj(x, path, d, dir[k]), *ch, *it[AIE_MAX_CHAN];
		aie_dma_chan *c = k ? t->s2mm : t->mm2s;
		int *nc = k ? &t->ns2mm : &t->nmm2s, n, j;
		char p2[200];
		snprintf(p2, sizeof p2, "%s.%s", path, dir[k]);
		if (!o)
			continue;
		if (!json_object_object_get_ex(o, "channel", &ch))
			continue;
		snprintf(p2, sizeof p2, "%s.%s.channel", path, dir[k]);
		if ((n = items(x, p2, ch, it, AIE_MAX_CHAN)) < 0)
			continue;
		for (j = 0; j < n; j++) {
			const char *cs, *qs;
			json_object *v;
			uint32_t id = 0, q;
			parts p;
			if (!json_object_is_type(it[j], json_type_object)) {
				note(x, p2, "entry %d is not an object: the channels left out", j);
				break;
			}
			keys(x, p2, it[j], cks);
			if (!json_object_object_get_ex(it[j], "id", &v) || num(v, &id) ||
			    id != (uint32_t)j || !(cs = str(it[j], "channel_status")) ||
			    split(cs, &p) || p.n != 1 || strlen(p.tok[0]) >= AIE_TOKEN_LEN) {
				note(x, p2,
				     "entry %d has no id %d and channel_status word: the channels "
				     "left out",
				     j, j);
				break;
			}
			memset(&c[j], 0, sizeof c[j]);
			memcpy(c[j].status, p.tok[0], strlen(p.tok[0]) + 1);
			c[j].queue_size = c[j].current_bd = -1;
			if (json_object_object_get_ex(it[j], "queue_size", &v) && num(v, &q) == 0 &&
			    q <= 1000000)
				c[j].queue_size = (int)q;
			if (json_object_object_get_ex(it[j], "current_bd", &v) && num(v, &q) == 0 &&
			    q <= 1000000)
				c[j].current_bd = (int)q;
			if ((qs = str(it[j], "queue_status")) && split(qs, &p) == 0 && p.n == 1 &&
			    strlen(p.tok[0]) < AIE_TOKEN_LEN)
				memcpy(c[j].queue_status, p.tok[0], strlen(p.tok[0]) + 1);
			*nc = j + 1;
		}
	}
}

static void locks_part(xp *x, const char *path, json_object *l, aie_tile *t)
{
	static const char *const ks[] = {"name", "value", NULL};
	static const char *const states[4] = {"released_for_write", "acquired_for_write",
					      "released_for_read", "acquired_for_read"};
	json_object *it[AIE_MAX_LOCKS];
	int n = items(x, path, l, it, AIE_MAX_LOCKS), j, kinds = 0;
	for (j = 0; j < n; j++) {
		json_object *v;
		const char *val;
		uint32_t id, x32;
		parts p;
		int i;
		if (!json_object_is_type(it[j], json_type_object) ||
		    !json_object_object_get_ex(it[j], "name", &v) || num(v, &id) ||
		    id != (uint32_t)j || !(val = str(it[j], "value")) || split(val, &p) ||
		    p.n != 1) {
			note(x, path, "entry %d is not {name: %d, value}: the locks left out", j,
			     j);
			t->nlocks = 0;
			return;
		}
		keys(x, path, it[j], ks);
		for (i = 0; i < 4 && strcmp(p.tok[0], states[i]); i++)
			;
		if (i < 4) {
			kinds |= 2;
			t->lock[j] = (uint8_t)i;
		} else if (!strcmp(p.tok[0], "clock_gated")) {
			t->clock_gated = 1;
			t->lock[j] = 0;
		} else if (aieth__aie__number(p.tok[0], strlen(p.tok[0]), &x32) == 0 &&
			   x32 <= 255) {
			kinds |= 1;
			t->lock[j] = (uint8_t)x32;
		} else {
			note(x, path, "lock %d: '%.40s' is neither a value nor a lock state", j,
			     p.tok[0]);
			t->nlocks = 0;
			return;
		}
		t->nlocks = j + 1;
	}
	if (kinds == 3) {
		note(x, path, "lock values and AIE lock states mixed: the locks left out");
		t->nlocks = 0;
	}
	t->lock_is_state = kinds == 2;
}

static int module_index(const char *m)
{
	int i;
	for (i = 0; i < AIE_MOD_COUNT; i++)
		if (!strcasecmp(m, aieth__aie_module_name((unsigned)i)))
			return i;
	return -1;
}

static void events_part(xp *x, const char *path, json_object *l, aie_tile *t)
{
	json_object *it[AIE_MOD_COUNT + 1];
	int n = items(x, path, l, it, AIE_MOD_COUNT + 1), j;
	for (j = 0; j < n; j++) {
		const char *mn =
			json_object_is_type(it[j], json_type_object) ? str(it[j], "name") : NULL;
		const char *val = mn ? str(it[j], "value") : NULL;
		int m = mn ? module_index(mn) : -1, last = -1, i;
		parts p;
		if (m < 0 || !val || (t->has_events & (1 << m)) || split(val, &p)) {
			note(x, path,
			     "entry %d is not {name: core|memory|pl, value: events}: left out", j);
			continue;
		}
		t->nevents[m] = 0;
		for (i = 0; i < p.n; i++) {
			uint32_t e;
			if (!strcmp(p.tok[i], "clock_gated") && p.n == 1) {
				t->events_gated = t->clock_gated = 1;
				break;
			}
			if (aieth__aie__number(p.tok[i], strlen(p.tok[i]), &e) ||
			    e >= AIE_MAX_EVENTS || (int)e <= last) {
				note(x, path,
				     "%s: '%.40s' is not an event number after %d: left out",
				     aieth__aie_module_name((unsigned)m), p.tok[i], last);
				t->nevents[m] = 0;
				break;
			}
			last = (int)e;
			t->events[m][t->nevents[m]++] = (uint8_t)e;
		}
		t->has_events |= 1 << m;
	}
}

static void errors_part(xp *x, const char *path, json_object *l, aie_tile *t)
{
	json_object *it[AIE_MOD_COUNT + 1];
	int n = items(x, path, l, it, AIE_MOD_COUNT + 1), j;
	if (n < 0)
		return;
	t->has_errors = 1;
	for (j = 0; j < n; j++) {
		const char *mn =
			json_object_is_type(it[j], json_type_object) ? str(it[j], "module") : NULL;
		json_object *el, *cat[16];
		int m = mn ? module_index(mn) : -1, nc, c;
		if (m < 0 || !json_object_object_get_ex(it[j], "error", &el) ||
		    (nc = items(x, path, el, cat, 16)) < 0) {
			note(x, path,
			     "entry %d is not {module: core|memory|pl, error: [...]}: left out", j);
			continue;
		}
		for (c = 0; c < nc; c++) {
			const char *cn = json_object_is_type(cat[c], json_type_object)
						 ? str(cat[c], "name")
						 : NULL;
			const char *val = cn ? str(cat[c], "value") : NULL;
			int ci = cn ? aieth__aie__error_category(cn, strlen(cn)) : -1, i;
			parts p;
			if (ci < 0 || !val || split(val, &p)) {
				note(x, path, "%s: error entry %d is not {name: a category, value}",
				     aieth__aie_module_name((unsigned)m), c);
				continue;
			}
			for (i = 0; i < p.n; i++) {
				int e = aieth__aie__error_index(p.tok[i], strlen(p.tok[i]));
				if (e < 0)
					note(x, path,
					     "%s: error '%.40s' is not in the driver's tables",
					     aieth__aie_module_name((unsigned)m), p.tok[i]);
				else
					aieth__aie__tile_add_error(t, m, ci, e);
			}
		}
	}
}

static void tile(xp *x, const char *path, json_object *o, aie_tile_kind kind)
{
	static const char *const ks[] = {"column",         "row",    "memory_column", "memory_row",
					 "memory_address", "core",   "dma",           "errors",
					 "locks",          "events", "error_msg",     NULL};
	json_object *v, *c;
	uint32_t col, row;
	aie_tile *t;
	const char *msg;
	int i, row0 = kind == AIE_TILE_CORE ? x->core_row0 : kind == AIE_TILE_MEM ? x->mem_row0 : 0;
	char p2[200];
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "column", &v) || num(v, &col) || col > 255 ||
	    !json_object_object_get_ex(o, "row", &v) || num(v, &row) || row > 255) {
		note(x, path, "a tile without a column and a row (0..255): left out");
		return;
	}
	if (row0 > 0)
		row += (uint32_t)row0;
	else if (row0 < 0)
		x->relative = 1;
	/* a core in two graphs: once (the kind too: with rows left as XRT's,
	 * a core's row 0 is not the shim's) */
	for (i = 0; i < x->s->ntiles; i++)
		if (x->s->tiles[i].col == (int)col && x->s->tiles[i].row == (int)row &&
		    x->s->tiles[i].kind == kind)
			return;
	if (x->s->ntiles >= AIE_MAX_TILES) {
		note(x, path, "more than %d tiles: the rest left out", AIE_MAX_TILES);
		return;
	}
	snprintf(p2, sizeof p2, "%s(%u,%u)", path, col, row);
	keys(x, p2, o, ks);
	t = &x->s->tiles[x->s->ntiles];
	memset(t, 0, sizeof *t);
	t->col = (int)col;
	t->row = (int)row;
	t->kind = kind;
	if ((msg = str(o, "error_msg")))
		note(x, p2, "XRT: %.120s", msg);
	if ((c = obj(x, p2, o, "core")))
		core_part(x, p2, c, t);
	if ((c = obj(x, p2, o, "dma")))
		dma_part(x, p2, c, t);
	if (json_object_object_get_ex(o, "locks", &c))
		locks_part(x, p2, c, t);
	if (json_object_object_get_ex(o, "events", &c))
		events_part(x, p2, c, t);
	if (json_object_object_get_ex(o, "errors", &c))
		errors_part(x, p2, c, t);
	x->s->ntiles++;
	x->added++;
}

static void tiles(xp *x, const char *path, json_object *list, aie_tile_kind kind)
{
	json_object **it = malloc(AIE_MAX_TILES * sizeof *it);
	int n, j;
	if (!it) {
		note(x, path, "out of memory");
		return;
	}
	n = items(x, path, list, it, AIE_MAX_TILES);
	for (j = 0; j < n; j++)
		tile(x, path, it[j], kind);
	free(it);
}

static void graphs(xp *x, json_object *md)
{
	static const char *const gks[] = {"id", "name", "status", "tile", "pl_kernel", NULL};
	json_object *gl, *g[64], *tl;
	int n, j;
	if (!json_object_object_get_ex(md, "graphs", &gl))
		return;
	n = items(x, "aie_metadata.graphs", gl, g, 64);
	for (j = 0; j < n; j++) {
		char p[120];
		const char *name;
		if (!json_object_is_type(g[j], json_type_object)) {
			note(x, "aie_metadata.graphs", "entry %d is not an object: left out", j);
			continue;
		}
		name = str(g[j], "name");
		snprintf(p, sizeof p, "aie_metadata.graphs[%.40s].tile", name ? name : "?");
		keys(x, p, g[j], gks);
		if (json_object_object_get_ex(g[j], "tile", &tl))
			tiles(x, p, tl, AIE_TILE_CORE);
	}
}

static void section(xp *x, json_object *dev, const char *key, aie_tile_kind kind)
{
	static const char *const ks[] = {"description", "tiles", "error_msg", NULL};
	json_object *o = obj(x, "devices[0]", dev, key), *tl;
	const char *msg;
	char p[64];
	if (!o)
		return;
	keys(x, key, o, ks);
	if ((msg = str(o, "error_msg")))
		note(x, key, "XRT: %.120s", msg);
	snprintf(p, sizeof p, "%s.tiles", key);
	if (json_object_object_get_ex(o, "tiles", &tl))
		tiles(x, p, tl, kind);
}

int aieth__aie_state_from_xrt_status(aie_state *s, const char *what, const char *text, size_t len,
				     int core_row0, int mem_row0)
{
	static const char *const top[] = {"schema_version", "devices", NULL};
	static const char *const dks[] = {"aie_metadata", "aie_mem_status", "aie_shim_status",
					  NULL};
	static const char *const mks[] = {"description", "schema_version", "graphs", "rtps",
					  "gmios",       "error_msg",      NULL};
	xp x = {s, what, core_row0, mem_row0, 0, 0};
	json_object *root, *devs, *dev, *md;
	const char *msg;
	size_t nd;
	if (aieth__jstrict_parse_object(what, text, len, AIE_XRT_STATUS_MAX, &root) != AIETH_OK) {
		aieth__aie_state_note(s,
				      "%s (XRT rewrites the file as it runs: a read can catch it "
				      "cut short)",
				      aieth_error_message());
		return -1;
	}
	if (!json_object_object_get_ex(root, "devices", &devs) ||
	    !json_object_is_type(devs, json_type_array) ||
	    (nd = json_object_array_length(devs)) == 0 ||
	    !json_object_is_type((dev = json_object_array_get_idx(devs, 0)), json_type_object)) {
		aieth__aie_state_note(
			s, "%.80s: no devices[] of objects: not XRT's aie_status format", what);
		json_object_put(root);
		return -1;
	}
	keys(&x, "(top)", root, top);
	if (nd > 1)
		note(&x, "devices", "%zu devices: the first read (XRT writes one)", nd);
	keys(&x, "devices[0]", dev, dks);
	if ((md = obj(&x, "devices[0]", dev, "aie_metadata"))) {
		keys(&x, "aie_metadata", md, mks);
		if ((msg = str(md, "error_msg")))
			note(&x, "aie_metadata", "XRT: %.120s", msg);
		graphs(&x, md);
	}
	section(&x, dev, "aie_mem_status", AIE_TILE_MEM);
	section(&x, dev, "aie_shim_status", AIE_TILE_SHIM);
	if (x.relative)
		aieth__aie_state_note(
			s,
			"%.80s: core and memory tile rows as XRT numbers them, from the "
			"first row of their kind (where that is on this board is not known)",
			what);
	json_object_put(root);
	return x.added;
}

int aieth__aie_state_read_xrt_status(aie_state *s, const char *path, int core_row0, int mem_row0)
{
	char *text = NULL;
	size_t len = 0;
	int n;
	if (aieth__read_file(path, AIE_XRT_STATUS_MAX, &text, &len) != AIETH_OK) {
		aieth__aie_state_note(s, "%s", aieth_error_message());
		return -1;
	}
	n = aieth__aie_state_from_xrt_status(s, path, text, len, core_row0, mem_row0);
	free(text);
	return n;
}

int aieth__aie_xrt_status_find(const char *dir, long long since, char *name, size_t cap)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	long long best = -1;
	int seen = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) && seen++ < 4096) {
		size_t n = strlen(e->d_name);
		struct stat st;
		char path[4096];
		long long t;
		if (n < 17 || strncmp(e->d_name, "aie_status_", 11) ||
		    strcmp(e->d_name + n - 5, ".json") || n >= cap)
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
		    lstat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		t = (long long)st.st_mtim.tv_sec;
		if (t < since || t < best || (t == best && strcmp(e->d_name, name) < 0))
			continue;
		best = t;
		memcpy(name, e->d_name, n + 1);
	}
	closedir(d);
	return best < 0 ? -1 : 0;
}
