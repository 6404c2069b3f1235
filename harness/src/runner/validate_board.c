/* SPDX-License-Identifier: MIT */
/*
 * validate_board.c - run_test validate, level 1: what pre-flight knows of
 * the board (its files, clocks, XRT, the PL kernel and loopback xclbins),
 * the AI Engine driver and array, and that the device opens. What does not
 * apply to the backend is SKIPPED with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report_model.h"
#include "runner/validate_internal.h"
#include "aie/aie_state.h"
#include "util/fileio.h"
#include "util/sysfs.h"

#define MIN_CLOCK_HZ 50000000ull /* below: not a PL clock of these kernels */
#define MAX_CLOCK_HZ 1000000000ull

static const char *not_here(const vd_ctx *c)
{
	return c->emu ? "the emulated board has no XRT, xclbin or AI Engine driver"
		      : "the device is behind th_server, which checks its own board "
			"(POST /v1/validate)";
}

void aieth__vd_board_files(vd_ctx *c)
{
	const aieth_board_info *in;
	if (aieth_board_load(&c->board, c->board_name, c->data_dir) != AIETH_OK) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "board %s: %s", c->board_name,
			       aieth_error_message());
		c->stop_exit = AIETH_EXIT_INFRA;
		snprintf(c->stop_why, sizeof c->stop_why,
			 "the board files cannot be loaded (test 1)");
		return;
	}
	c->info = in = aieth_board_get_info(c->board);
	/* the environment, as a run's: the board and backend validated */
	aieth__rj_str(c->r->env, "board", in->name);
	aieth__rj_str(c->r->env, "backend", c->backend);
	aieth__rj_num(c->r->env, "pl_clock_MHz", (double)in->pl_clock_hz / 1e6);
	aieth__rj_str(c->r->env, "pl_kernel", in->pl_kernel);
	aieth__rj_str(c->fig, "board", in->name);
	aieth__rj_str(c->fig, "aie_generation", in->aie_generation);
	aieth__rj_str(c->fig, "pl_kernel", in->pl_kernel);
	aieth__rj_str(c->fig, "constraints", in->constraints_path);
	aieth__rj_int(c->fig, "channels_per_direction", in->channels);
	aieth__rj_str(c->fig, "data_dir", aieth_board_data_dir(c->data_dir));
}

void aieth__vd_clocks(vd_ctx *c)
{
	const aieth_board_info *in = c->info;
	aieth__rj_u64(c->fig, "pl_clock_hz", in->pl_clock_hz);
	aieth__rj_int(c->fig, "stream_width_bits", in->stream_width_bits);
	aieth__rj_num(c->fig, "channel_peak_MBps", aieth_board_channel_peak_bps(c->board) / 1e6);
	if (in->pl_clock_hz < MIN_CLOCK_HZ || in->pl_clock_hz > MAX_CLOCK_HZ)
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "PL clock %llu Hz is outside %llu..%llu Hz",
			       (unsigned long long)in->pl_clock_hz, MIN_CLOCK_HZ, MAX_CLOCK_HZ);
	else if (in->stream_width_bits != 128)
		aieth__vd_fail(
			c, AIETH_EXIT_INFRA,
			"stream width %u bits: the PL kernel's channels are 128 bits (16 B/cycle)",
			(unsigned)in->stream_width_bits);
	else if (!c->emu)
		aieth__vd_warn(c,
			       "the clock is the board file's %.1f MHz: the device's own clock is "
			       "read by neither XRT's C API nor this suite",
			       in->pl_clock_hz / 1e6);
}

/* XRT's version from $XILINX_XRT/version.json ("BUILD_VERSION"). */
static int xrt_version(char *out, size_t n)
{
	const char *root = getenv("XILINX_XRT");
	char path[4096], *text = NULL;
	size_t len = 0;
	struct json_object *j, *v;
	if (!root || !*root)
		return -1;
	snprintf(path, sizeof path, "%s/version.json", root);
	if (aieth__read_file(path, 1 << 16, &text, &len) != AIETH_OK)
		return -1;
	j = json_tokener_parse(text);
	free(text);
	if (!j)
		return -1;
	if (json_object_object_get_ex(j, "BUILD_VERSION", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(out, n, "%s", json_object_get_string(v));
	else
		snprintf(out, n, "unknown");
	json_object_put(j);
	return 0;
}

void aieth__vd_xrt(vd_ctx *c)
{
	char ver[128];
	const char *lib = getenv("AIETH_XRT_LIB");
	if (c->emu || c->remote) {
		aieth__vd_skip(c, "%s", not_here(c));
		return;
	}
	if (xrt_version(ver, sizeof ver) == 0) {
		aieth__rj_str(c->fig, "xrt_version", ver);
		aieth__rj_str(c->fig, "xilinx_xrt", getenv("XILINX_XRT"));
		return;
	}
	if (lib && *lib) {
		aieth__rj_str(c->fig, "xrt_lib", lib);
		aieth__vd_warn(
			c,
			"XRT's version is not known: $XILINX_XRT/version.json not found (the "
			"library is AIETH_XRT_LIB=%s; test 8 opens the device with it)",
			lib);
		return;
	}
	aieth__vd_fail(c, AIETH_EXIT_INFRA,
		       "XRT not found: $XILINX_XRT is not set (source /opt/xilinx/xrt/setup.sh)");
}

static int xclbin_fig(vd_ctx *c, const char *key, const char *path)
{
	aieth_xclbin *x;
	struct json_object *o;
	if (aieth_xclbin_open(&x, path, 0) != AIETH_OK)
		return -1;
	o = aieth__rj_obj();
	aieth__rj_str(o, "path", path);
	aieth__rj_str(o, "uuid", aieth_xclbin_uuid_string(x));
	aieth__rj_set(c->fig, key, o);
	aieth_xclbin_close(x);
	return 0;
}

void aieth__vd_pl_xclbin(vd_ctx *c)
{
	char def[4096];
	const char *pl = c->o->xrt ? c->o->xrt->pl_xclbin : NULL;
	if (c->emu || c->remote) {
		aieth__vd_skip(c, "%s", not_here(c));
		return;
	}
	if (!pl) {
		snprintf(def, sizeof def, "%s/xclbin/%s.xclbin", aieth_board_data_dir(c->data_dir),
			 c->info->pl_kernel);
		pl = def;
	}
	if (xclbin_fig(c, "pl_xclbin", pl) != 0) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the PL kernel xclbin: %s",
			       aieth_error_message());
		c->stop_exit = AIETH_EXIT_INFRA;
		snprintf(c->stop_why, sizeof c->stop_why,
			 "the PL kernel xclbin cannot be read (test %u)", c->num);
	}
}

void aieth__vd_design(vd_ctx *c)
{
	struct stat st;
	if (c->emu || c->remote) {
		const char *m = c->emu && c->o->model ? c->o->model : "loopback";
		aieth__rj_str(c->fig, "model", m);
		if (c->o->model_params && c->emu)
			aieth__rj_str(c->fig, "model_params", c->o->model_params);
		return;
	}
	if (c->o->xclbin)
		snprintf(c->design, sizeof c->design, "%s", c->o->xclbin);
	else
		snprintf(c->design, sizeof c->design, "%s/assets/loopback/%s_loopback.xclbin",
			 aieth_board_data_dir(c->data_dir), c->info->name);
	if (!c->o->xclbin && stat(c->design, &st) != 0) {
		snprintf(c->design_why, sizeof c->design_why,
			 "no loopback design: give --xclbin or build %s (docs/on-board.md)",
			 c->design);
		c->design[0] = '\0';
		aieth__vd_skip(c, "%s", c->design_why);
		return;
	}
	if (xclbin_fig(c, "xclbin", c->design) != 0) {
		snprintf(c->design_why, sizeof c->design_why,
			 "the loopback design cannot be read (test %u)", c->num);
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the loopback design: %s",
			       aieth_error_message());
		c->design[0] = '\0';
	}
}

typedef struct {
	struct json_object *names;
	unsigned n;
} parts;

static void each_part(void *ctx, const char *name)
{
	parts *p = ctx;
	if (strncmp(name, "aiepart_", 8) == 0) {
		aieth__rj_push_str(p->names, name);
		p->n++;
	}
}

/* The Linux AI Engine driver: its partitions in sysfs (class/aie). */
void aieth__vd_aie_driver(vd_ctx *c)
{
	parts p;
	if (c->emu || c->remote) {
		aieth__vd_skip(c, "%s", not_here(c));
		return;
	}
	p.names = aieth__rj_arr();
	p.n = 0;
	aieth__rj_str(c->fig, "sysfs_root", aieth__sysfs_root());
	if (aieth__sysfs_list("class/aie", each_part, &p, 256) < 0) {
		json_object_put(p.names);
		aieth__vd_fail(
			c, AIETH_EXIT_INFRA,
			"no AI Engine driver: %s/class/aie cannot be listed (%s); graphs cannot run",
			aieth__sysfs_root(), aieth_error_message());
		return;
	}
	aieth__rj_set(c->fig, "partitions", p.names);
	if (!p.n)
		aieth__vd_fail(
			c, AIETH_EXIT_INFRA,
			"the AI Engine driver has no partition in %s/class/aie (no aiepart_*)",
			aieth__sysfs_root());
}

static void each_word(void *ctx, const char *line) { aieth__rj_push_str(ctx, line); }

/* The array's state: tiles read from the driver's status files, and any
 * tile that looks stuck before a test ran (a warning: reset the array). */
void aieth__vd_aie_array(vd_ctx *c)
{
	aie_state *st;
	struct json_object *words;
	int n, i, stuck = 0;
	if (c->emu) {
		aieth__vd_skip(c,
			       "the emulated board's array is its graph models: nothing to read");
		return;
	}
	if (c->remote) {
		aieth__vd_skip(c, "%s", not_here(c));
		return;
	}
	if (!(st = malloc(sizeof *st))) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "out of memory for the array's state");
		return;
	}
	aieth__aie_state_init(st, "sysfs");
	n = aieth__aie_state_read_sysfs(st, 2000);
	aieth__rj_int(c->fig, "tiles_read", n < 0 ? 0 : n);
	for (i = 0; i < st->ntiles; i++)
		stuck += aieth__aie_tile_stuck(&st->tiles[i]);
	aieth__rj_int(c->fig, "tiles_stuck", stuck);
	words = aieth__rj_arr();
	aieth__aie_state_words(st, each_word, words, 8);
	aieth__rj_set(c->fig, "stuck", words);
	if (st->nnotes) {
		struct json_object *notes = aieth__rj_arr();
		for (i = 0; i < st->nnotes; i++)
			aieth__rj_push_str(notes, st->notes[i]);
		aieth__rj_set(c->fig, "notes", notes);
	}
	if (n <= 0)
		aieth__vd_skip(c, "no tile status files could be read below %s/class/aie%s%s",
			       aieth__sysfs_root(), st->nnotes ? ": " : "",
			       st->nnotes ? st->notes[0] : "");
	else if (stuck)
		aieth__vd_warn(c, "%d tile(s) look stuck before any test ran (%s): reset the array",
			       stuck,
			       json_object_array_length(words)
				       ? json_object_get_string(json_object_array_get_idx(words, 0))
				       : "see figures");
	else if (st->nnotes)
		aieth__vd_warn(c, "%s", st->notes[0]);
	free(st);
}

void aieth__vd_device(vd_ctx *c)
{
	aieth_session_opts so = AIETH_SESSION_OPTS_INIT;
	aieth_graph_spec g = {"loopback", "loopback", NULL};
	so.board = c->board_name;
	so.data_dir = c->data_dir;
	so.backend = c->backend;
	so.emu = c->o->emu;
	so.xrt = c->o->xrt;
	so.remote = c->o->remote;
	so.interrupt = c->o->interrupt;
	if (c->emu) {
		if (c->o->model)
			g.model = c->o->model;
		g.model_params = c->o->model_params;
	}
	if (!c->emu && !c->remote && c->design[0])
		so.xclbin = c->design;
	if (c->emu || c->remote || c->design[0]) {
		so.graphs = &g;
		so.num_graphs = 1;
	}
	if (aieth_session_open(&c->s, &so) != AIETH_OK) {
		c->s = NULL;
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the device cannot be opened: %s",
			       aieth_error_message());
		c->stop_exit = AIETH_EXIT_INFRA;
		snprintf(c->stop_why, sizeof c->stop_why, "the device cannot be opened (test %u)",
			 c->num);
		return;
	}
	if (so.num_graphs &&
	    aieth_graph_run(c->s, "loopback", AIETH_ITERATIONS_FOREVER) != AIETH_OK) {
		aieth__vd_fail(c, AIETH_EXIT_INFRA, "the loopback graph does not run: %s",
			       aieth_error_message());
		aieth_session_close(c->s);
		c->s = NULL;
		c->stop_exit = AIETH_EXIT_INFRA;
		snprintf(c->stop_why, sizeof c->stop_why,
			 "the loopback graph does not run (test %u)", c->num);
		return;
	}
	aieth__rj_str(c->fig, "backend", aieth_session_backend(c->s));
	if (c->remote)
		aieth__rj_str(c->fig, "server", aieth_session_server(c->s));
	if (!so.num_graphs)
		snprintf(c->design_why, sizeof c->design_why, "%s",
			 "no loopback design (test 5): the channels are not tested");
}
