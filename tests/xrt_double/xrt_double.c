/* SPDX-License-Identifier: MIT */
/*
 * xrt_double.c - a test double of the subset of XRT's C API the xrt
 * backend uses, built on the emulated board: the PL DMA engine model runs
 * the kernel's four buffer arguments exactly as AMD's PL kernel receives
 * them, the graph models stand in for the AIE graphs. Loaded instead of
 * libxrt_coreutil with AIETH_XRT_LIB=<this .so>.
 *
 * Environment:
 *   AIETH_XRT_DOUBLE_SPEC   a test description: its board and graphs
 *                           (models, params) make up the emulated device
 *   AIETH_XRT_DOUBLE_BOARD  the board without a description (default vck190)
 *   AIETH_XRT_DOUBLE_LOG    append one line per interesting call to this file
 *   XRT_INI_PATH            the xrt.ini, as XRT reads it (xrt_ini.c: else the
 *                           executable's folder, else the working folder);
 *                           [Debug] aie_trace/aie_status/aie_profile write
 *                           XRT's files into the working folder
 *   AIETH_XRT_DOUBLE_FAULT  hang       xrtRunWaitFor never returns
 *                           abort      XRT aborts the process in xrtRunStart
 *                           bo_alloc   xrtBOAlloc fails
 *                           graph_open xrtGraphOpen fails (no such graph)
 *                           no_aie     xrtGraphOpen: Operation not supported
 *                           vanish     the device disappears during a run
 *                           no_device  xrtDeviceOpen fails
 *                           stuck_reset CTRL bit 8 never clears
 *                           graph_hang xrtGraphWaitDone never returns (a graph
 *                                      that never finishes on the board)
 *                           odd_files  with an xrt.ini asking for files: also
 *                                      a symbolic link, a folder and a hidden
 *                                      file in the working folder
 *   AIETH_XRT_DOUBLE_SYSFS  a folder: when a run stalls (it never completes),
 *                           the AI Engine driver's sysfs tree a board would
 *                           show is written below it (class/aie/aiepart_N_M/
 *                           <col>_<row>/core, lock, dma; xrt_sysfs.h),
 *                           derived from the stalled graph models; point
 *                           AIETH_SYSFS_ROOT at the same folder. With it
 *                           set, a run that takes more than 1 s of board
 *                           time counts as stalled too (a kernel stuck in
 *                           its code, as stall_hang's): the tree shows where
 *                           the models stood at that second
 *   AIETH_XRT_DOUBLE_TRACE_BYTES  the AIE trace file is at least this long
 *   AIETH_XRT_DOUBLE_FLUSH_MS     the device's close waits this long before
 *                           XRT's files are written (a board flushing a trace)
 *
 * Kernel semantics: arguments 0 cfg, 1 perf, 2 to_aie_mem, 3 from_aie_mem
 * in memory group 2; CTRL (offset 0) bit 8 is the soft reset and clears
 * itself; a run completes after the board time the transaction takes; a
 * run the board cannot finish (a stall) never completes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/emu.h"
#include "core/session_internal.h"
#include "runner/spec.h"
#include "xrt_ini.h"
#include "xrt_sysfs.h"

#define GROUP 2
#define MAGIC_KERNEL 0x4b65726eu
#define MAGIC_BO 0x424f424fu
#define MAGIC_RUN 0x52756e21u
#define MAGIC_GRAPH 0x47726170u

typedef struct {
	uint32_t magic;
	size_t size;
	uint32_t group;
	uint8_t *data;
} dbo;

typedef struct {
	uint32_t magic;
	dbo *arg[4];
	int started;
	int never; /* the board cannot finish it */
	int failed;
	int64_t done_at; /* ms, monotonic */
} drun;

typedef struct {
	uint32_t magic;
	uint32_t index;
} dgraph;

static struct {
	int open;
	aieth_session *s;
	unsigned char uuid[8][16];
	size_t nuuid;
	int vanished;
	uint32_t kernel_magic;
	int64_t running_until; /* CTRL busy until then (ms), -1 forever */
} D;

static const char *fault(void)
{
	const char *f = getenv("AIETH_XRT_DOUBLE_FAULT");
	return f ? f : "";
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	const char *path = getenv("AIETH_XRT_DOUBLE_LOG");
	FILE *f;
	va_list ap;
	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static void xrt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void xrt_error(const char *fmt, ...)
{
	va_list ap;
	fputs("[XRT] ERROR: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void nap(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static int gone(void)
{
	if (D.vanished) {
		xrt_error("No such device");
		errno = ENODEV;
	}
	return D.vanished;
}

/* ------------------------------------------------------------------ device */

void *xrtDeviceOpen(unsigned int index);
void *xrtDeviceOpen(unsigned int index)
{
	const char *spec_path = getenv("AIETH_XRT_DOUBLE_SPEC");
	const char *board = getenv("AIETH_XRT_DOUBLE_BOARD");
	aieth_session_opts o;
	aieth_graph_spec *gs = NULL;
	aieth_spec *sp = NULL;
	size_t i;

	if (!strcmp(fault(), "no_device") || index != 0) {
		xrt_error("Could not open device with index '%u'", index);
		errno = ENODEV;
		return NULL;
	}
	if (D.open)
		return &D;
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.board = board && *board ? board : "vck190";
	if (spec_path && *spec_path) {
		if (aieth_spec_load(&sp, spec_path)) {
			xrt_error("double: %s", aieth_error_message());
			return NULL;
		}
		if (!(board && *board) && sp->board)
			o.board = sp->board;
		gs = calloc(sp->ngraphs ? sp->ngraphs : 1, sizeof *gs);
		for (i = 0; gs && i < sp->ngraphs; i++) {
			gs[i].name = sp->graphs[i].name;
			gs[i].model = sp->graphs[i].model;
			gs[i].model_params = sp->graphs[i].params;
		}
		o.graphs = gs;
		o.num_graphs = sp->ngraphs;
		o.model_base_dir = sp->dir;
	}
	o.backend = "emu";
	if (aieth_session_open(&D.s, &o)) {
		xrt_error("double: %s", aieth_error_message());
		free(gs);
		aieth_spec_free(sp);
		return NULL;
	}
	free(gs);
	aieth_spec_free(sp);
	D.open = 1;
	D.running_until = 0;
	logf_("device_open %u board %s graphs %zu", index, D.s->info->name, D.s->ngraphs);
	dbl_ini_device_open();
	logf_("xrt_ini %s", dbl_ini_path()[0] ? dbl_ini_path() : "(none)");
	return &D;
}

int xrtDeviceClose(void *dev);
int xrtDeviceClose(void *dev)
{
	if (dev != &D || !D.open)
		return -EINVAL;
	logf_("device_close");
	dbl_ini_device_close();
	aieth_session_close(D.s);
	D.s = NULL;
	D.open = 0;
	return 0;
}

int xrtDeviceLoadXclbinFile(void *dev, const char *path);
int xrtDeviceLoadXclbinFile(void *dev, const char *path)
{
	unsigned char head[432];
	FILE *f;
	if (dev != &D || gone())
		return -EINVAL;
	f = fopen(path, "rb");
	if (!f) {
		xrt_error("Failed to open file '%s' for reading", path);
		return -ENOENT;
	}
	if (fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "xclbin2", 7)) {
		fclose(f);
		xrt_error("Invalid xclbin");
		return -EINVAL;
	}
	fclose(f);
	if (D.nuuid < 8)
		memcpy(D.uuid[D.nuuid++], head + 416, 16);
	else
		memcpy(D.uuid[7], head + 416, 16);
	logf_("load_xclbin %s", path);
	return 0;
}

int xrtDeviceGetXclbinUUID(void *dev, unsigned char *out);
int xrtDeviceGetXclbinUUID(void *dev, unsigned char *out)
{
	if (dev != &D)
		return -EINVAL;
	if (D.nuuid)
		memcpy(out, D.uuid[D.nuuid - 1], 16);
	else
		memset(out, 0, 16); /* loaded by an earlier process */
	return 0;
}

static int uuid_loaded(const unsigned char *u)
{
	size_t i;
	static const unsigned char zero[16];
	/* nothing loaded by this process: the board keeps what an earlier
	 * process loaded (the reset after a hang runs in a fresh process) */
	if (!memcmp(u, zero, 16) || D.nuuid == 0)
		return 1;
	for (i = 0; i < D.nuuid; i++)
		if (!memcmp(D.uuid[i], u, 16))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ kernel */

void *xrtPLKernelOpenExclusive(void *dev, const unsigned char *uuid, const char *name);
void *xrtPLKernelOpenExclusive(void *dev, const unsigned char *uuid, const char *name)
{
	uint32_t *k;
	if (dev != &D || !D.open || gone())
		return NULL;
	if (!uuid_loaded(uuid)) {
		xrt_error("xclbin id mismatch: Invalid argument");
		errno = EINVAL;
		return NULL;
	}
	if (strcmp(name, D.s->info->pl_kernel)) {
		xrt_error("No such kernel '%s': Invalid argument", name);
		errno = EINVAL;
		return NULL;
	}
	k = malloc(sizeof *k);
	if (k)
		*k = MAGIC_KERNEL;
	logf_("kernel_open %s", name);
	return k;
}

int xrtKernelClose(void *k);
int xrtKernelClose(void *k)
{
	if (!k || *(uint32_t *)k != MAGIC_KERNEL)
		return -EINVAL;
	*(uint32_t *)k = 0;
	free(k);
	logf_("kernel_close");
	return 0;
}

int xrtKernelArgGroupId(void *k, int argno);
int xrtKernelArgGroupId(void *k, int argno)
{
	if (!k || *(uint32_t *)k != MAGIC_KERNEL || argno < 0 || argno > 3) {
		xrt_error("vector::_M_range_check: __n (which is %d) >= this->size() (which is 4)",
			  argno);
		return -1;
	}
	return GROUP;
}

int xrtKernelReadRegister(void *k, uint32_t offset, uint32_t *data);
int xrtKernelReadRegister(void *k, uint32_t offset, uint32_t *data)
{
	if (!k || *(uint32_t *)k != MAGIC_KERNEL || gone())
		return -EINVAL;
	if (offset == 0) {
		int busy = D.running_until < 0 || now_ms() < D.running_until;
		/* ap_start while busy, else ap_idle; bit 8 reads 0 unless stuck */
		*data = (busy ? 0x1u : 0x4u) | (!strcmp(fault(), "stuck_reset") ? 0x100u : 0u);
	} else {
		*data = 0;
	}
	return 0;
}

int xrtKernelWriteRegister(void *k, uint32_t offset, uint32_t data);
int xrtKernelWriteRegister(void *k, uint32_t offset, uint32_t data)
{
	if (!k || *(uint32_t *)k != MAGIC_KERNEL || gone())
		return -EINVAL;
	if (offset == 0 && (data & 0x100u)) {
		D.running_until = 0; /* the soft reset stops the kernel */
		logf_("soft_reset");
	}
	return 0;
}

/* ------------------------------------------------------------------ buffers */

void *xrtBOAlloc(void *dev, size_t size, uint64_t flags, uint32_t group);
void *xrtBOAlloc(void *dev, size_t size, uint64_t flags, uint32_t group)
{
	dbo *b;
	(void)flags;
	if (dev != &D || gone())
		return NULL;
	if (!strcmp(fault(), "bo_alloc")) {
		xrt_error("failed to allocate bo: Cannot allocate memory");
		errno = ENOMEM;
		return NULL;
	}
	b = calloc(1, sizeof *b);
	if (!b || !(b->data = calloc(1, size ? size : 1))) {
		free(b);
		errno = ENOMEM;
		return NULL;
	}
	b->magic = MAGIC_BO;
	b->size = size;
	b->group = group;
	logf_("bo_alloc %zu group %u", size, group);
	return b;
}

static dbo *as_bo(void *h)
{
	dbo *b = h;
	return b && b->magic == MAGIC_BO ? b : NULL;
}

int xrtBOFree(void *h);
int xrtBOFree(void *h)
{
	dbo *b = as_bo(h);
	if (!b)
		return -EINVAL;
	b->magic = 0;
	free(b->data);
	free(b);
	return 0;
}

int xrtBOSync(void *h, unsigned int dir, size_t size, size_t offset);
int xrtBOSync(void *h, unsigned int dir, size_t size, size_t offset)
{
	dbo *b = as_bo(h);
	if (!b || gone() || offset + size > b->size)
		return -EINVAL;
	logf_("bo_sync %s %zu", dir == 0 ? "to_device" : "from_device", size);
	return 0;
}

void *xrtBOMap(void *h);
void *xrtBOMap(void *h)
{
	dbo *b = as_bo(h);
	return b ? b->data : NULL;
}

/* ------------------------------------------------------------------ runs */

void *xrtRunOpen(void *k);
void *xrtRunOpen(void *k)
{
	drun *r;
	if (!k || *(uint32_t *)k != MAGIC_KERNEL || gone())
		return NULL;
	r = calloc(1, sizeof *r);
	if (r)
		r->magic = MAGIC_RUN;
	return r;
}

static drun *as_run(void *h)
{
	drun *r = h;
	return r && r->magic == MAGIC_RUN ? r : NULL;
}

int xrtRunSetArg(void *h, int index, ...);
int xrtRunSetArg(void *h, int index, ...)
{
	drun *r = as_run(h);
	va_list ap;
	void *bo;
	if (!r || index < 0 || index > 3) {
		xrt_error("vector::_M_range_check: __n (which is %d) >= this->size() (which is 4)",
			  index);
		return -1;
	}
	va_start(ap, index);
	bo = va_arg(ap, void *);
	va_end(ap);
	if (!as_bo(bo))
		return -EINVAL;
	r->arg[index] = bo;
	logf_("set_arg %d %zu", index, r->arg[index]->size);
	return 0;
}

int xrtRunStart(void *h);
int xrtRunStart(void *h)
{
	drun *r = as_run(h);
	const aieth_board_info *bi;
	aieth_dev_result res;
	pld_txn w;
	pld_seg tx, rx;
	uint32_t N, a;
	const char *sys;

	if (!r || gone())
		return -EINVAL;
	for (a = 0; a < 4; a++)
		if (!r->arg[a]) {
			xrt_error("argument %u not set", a);
			return -EINVAL;
		}
	if (!strcmp(fault(), "abort")) {
		fprintf(stderr, "terminate called after throwing an instance of "
				"'std::runtime_error'\n  what():  double: injected abort in "
				"xrtRunStart\n");
		abort();
	}
	bi = D.s->info;
	N = bi->channels;
	if (r->arg[0]->size < pld_cfg_count(N) * 8 || r->arg[1]->size < pld_perf_count(N) * 8) {
		xrt_error("double: cfg %zu / perf %zu bytes too small for %u channels",
			  r->arg[0]->size, r->arg[1]->size, N);
		return -EINVAL;
	}
	memset(&w, 0, sizeof w);
	w.channels = N;
	w.depth = bi->uram_depth_words;
	w.cfg = (uint64_t *)(void *)r->arg[0]->data;
	w.perf = (uint64_t *)(void *)r->arg[1]->data;
	tx.off = rx.off = 0;
	tx.len = w.tx.size = r->arg[2]->size;
	tx.ptr = r->arg[2]->data;
	rx.len = w.rx.size = r->arg[3]->size;
	rx.ptr = r->arg[3]->data;
	w.tx.nseg = w.rx.nseg = 1;
	w.tx.seg = &tx;
	w.rx.seg = &rx;
	if (aieth__dev_result_alloc(&res, N))
		return -ENOMEM;
	sys = getenv("AIETH_XRT_DOUBLE_SYSFS");
	if (D.s->ops->txn_wait(D.s->bstate, &w, sys && *sys ? 1000 : 0, &res)) {
		r->failed = 1;
		xrt_error("double: %s", aieth_error_message());
	} else if (res.status == AIETH_TXN_DONE) {
		r->done_at = now_ms() + (int64_t)(res.total_cycles * 1000u / bi->pl_clock_hz);
	} else if (res.status == AIETH_TXN_TIMEOUT) {
		const aie_state *as = aieth__emu_aie_state(D.s->bstate);
		r->never = 1;
		/* before this call returns: run_test reads the tree only after the
		 * run's wait times out */
		if (sys && *sys && as)
			logf_("sysfs %s: %s", sys,
			      dbl_sysfs_write(sys, as, strcmp(bi->aie_generation, "AIE") != 0)
				      ? strerror(errno)
				      : "written");
	} else {
		r->failed = 1;
	}
	aieth__dev_result_free(&res);
	r->started = 1;
	D.running_until = r->never ? -1 : r->done_at;
	logf_("run_start%s", r->never ? " (never completes)" : "");
	return 0;
}

static unsigned state_of(drun *r)
{
	if (!r->started)
		return 1; /* NEW */
	if (D.vanished || r->failed)
		return 5; /* ERROR */
	if (r->never || now_ms() < r->done_at)
		return 3; /* RUNNING */
	return 4;         /* COMPLETED */
}

unsigned int xrtRunWaitFor(void *h, unsigned int timeout_ms);
unsigned int xrtRunWaitFor(void *h, unsigned int timeout_ms)
{
	drun *r = as_run(h);
	int64_t end = now_ms() + timeout_ms;
	if (!r)
		return 6; /* ABORT, as XRT for a bad handle */
	if (!strcmp(fault(), "hang") || !r->started)
		for (;;)
			nap(50); /* XRT 2.13's noop xclExecWait spins here too */
	if (!strcmp(fault(), "vanish")) {
		D.vanished = 1;
		xrt_error("xclExecWait: No such device");
		return 5;
	}
	while (state_of(r) == 3 && (timeout_ms == 0 || now_ms() < end))
		nap(1);
	return state_of(r) == 3 ? 8u : state_of(r);
}

unsigned int xrtRunState(void *h);
unsigned int xrtRunState(void *h)
{
	drun *r = as_run(h);
	return r ? state_of(r) : 6;
}

int xrtRunClose(void *h);
int xrtRunClose(void *h)
{
	drun *r = as_run(h);
	if (!r)
		return -EINVAL;
	r->magic = 0;
	free(r);
	return 0;
}

/* ------------------------------------------------------------------ graphs */

void *xrtGraphOpen(void *dev, const unsigned char *uuid, const char *name);
void *xrtGraphOpen(void *dev, const unsigned char *uuid, const char *name)
{
	dgraph *g;
	size_t i;
	if (dev != &D || gone())
		return NULL;
	if (!strcmp(fault(), "no_aie")) {
		xrt_error("xclGraphOpen: Operation not supported");
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!uuid_loaded(uuid)) {
		xrt_error("xclbin id mismatch: Invalid argument");
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < D.s->ngraphs; i++)
		if (!strcmp(D.s->graphs[i].name, name))
			break;
	if (i == D.s->ngraphs || !strcmp(fault(), "graph_open")) {
		xrt_error("Cannot find graph '%s': Invalid argument", name);
		errno = EINVAL;
		return NULL;
	}
	g = malloc(sizeof *g);
	if (!g)
		return NULL;
	g->magic = MAGIC_GRAPH;
	g->index = (uint32_t)i;
	logf_("graph_open %s", name);
	return g;
}

static const char *gname(void *h, int *ok)
{
	dgraph *g = h;
	*ok = g && g->magic == MAGIC_GRAPH && !gone();
	if (!*ok)
		return "";
	return D.s->graphs[g->index].name;
}

void xrtGraphClose(void *h);
void xrtGraphClose(void *h)
{
	dgraph *g = h;
	if (g && g->magic == MAGIC_GRAPH) {
		g->magic = 0;
		free(g);
	}
}

int xrtGraphReset(void *h);
int xrtGraphReset(void *h)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	logf_("graph_reset %s", n);
	return 0;
}

int xrtGraphRun(void *h, int iterations);
int xrtGraphRun(void *h, int iterations)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	logf_("graph_run %s %d", n, iterations);
	if (iterations == 0)
		return 0;
	dbl_ini_graph_run(n, iterations);
	if (aieth_graph_run(D.s, n, iterations < 0 ? AIETH_ITERATIONS_FOREVER : iterations)) {
		xrt_error("%s", aieth_error_message());
		return -EINVAL;
	}
	return 0;
}

int xrtGraphWaitDone(void *h, int timeout_ms);
int xrtGraphWaitDone(void *h, int timeout_ms)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	(void)timeout_ms;
	if (!strcmp(fault(), "graph_hang"))
		for (;;)
			pause(); /* as XRT's wait on a graph that never ends */
	return aieth_graph_wait(D.s, n, 1) ? -ETIME : 0;
}

int xrtGraphEnd(void *h, uint64_t cycle);
int xrtGraphEnd(void *h, uint64_t cycle)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	logf_("graph_end %s %llu", n, (unsigned long long)cycle);
	return aieth_graph_end(D.s, n) ? -EINVAL : 0;
}

int xrtGraphUpdateRTP(void *h, const char *port, const char *buf, size_t size);
int xrtGraphUpdateRTP(void *h, const char *port, const char *buf, size_t size)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	logf_("rtp_update %s %s %zu", n, port, size);
	if (aieth_graph_update_rtp(D.s, n, port, buf, size)) {
		xrt_error("%s", aieth_error_message());
		return -EINVAL;
	}
	return 0;
}

int xrtGraphReadRTP(void *h, const char *port, char *buf, size_t size);
int xrtGraphReadRTP(void *h, const char *port, char *buf, size_t size)
{
	int ok;
	const char *n = gname(h, &ok);
	if (!ok)
		return -EINVAL;
	if (aieth_graph_read_rtp(D.s, n, port, buf, size)) {
		xrt_error("%s", aieth_error_message());
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------ AIE */

void *xrtAIEDeviceOpen(unsigned int index);
void *xrtAIEDeviceOpen(unsigned int index) { return xrtDeviceOpen(index); }

int xrtAIEResetArray(void *dev);
int xrtAIEResetArray(void *dev)
{
	if (dev != &D)
		return -EINVAL;
	logf_("aie_reset_array");
	return 0;
}
