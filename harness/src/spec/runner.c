/*
 * runner.c - run one test description and record it as a test of a report:
 * load and check the description against the board, prepare every channel's
 * data (files, patterns, tiling), open the device, run the graphs and the
 * transactions, check received data against golden data and thresholds, save
 * received data, and classify the outcome by the exit-code contract.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_internal.h"
#include "spec/spec.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

#define DEFAULT_TIMEOUT_MS 10000u
#define MAX_DATA_BYTES ((size_t)1 << 36)   /* 64 GiB: the PL kernel's own limit */

typedef struct json_object jobj;

/* Per channel, what the run needs besides the description. The data is
 * opened for one transaction at a time (chan_open / chan_close) and streams:
 * TX from a file or pattern read where the device asks (src), RX compared
 * with the golden source and saved as it arrives (rx_write). Text files and
 * tiling keep their data whole (mem, golden_mem). */
typedef struct {
	aieth_plio pl;
	uint64_t size;
	size_t esize;        /* element size for tiling / comparison */
	aieth_elem etype;
	int have_etype;
	/* open for the running transaction */
	int fd, gfd;         /* binary data / golden files, -1 when none */
	aieth_src src;       /* TX data */
	aieth_src gsrc;      /* RX golden (not tiling) */
	int have_golden;
	uint8_t *mem;        /* TX: whole data (text, tiling); RX: the stream (tiling) */
	uint8_t *golden;     /* RX tiling: the whole golden buffer */
	size_t golden_len;
	uint64_t hwm;        /* RX: bytes taken so far */
	uint64_t cmp_len;    /* RX: bytes compared with golden data */
	aieth_compare_result cmp;
	double abs_tol, rel_tol;
	uint8_t *scratch;    /* RX: golden bytes of the chunk */
	size_t scratch_cap;
	int saving;          /* RX: out is open */
	aieth_out out;
	char *save_path;
	int save_text;
	aieth_elem save_type;
	int save_failed;     /* the save's first error is in save_err */
	char save_err[512];
	int io_failed;       /* a read of data or golden failed: io_err */
	char io_err[512];
} chan_run;

typedef struct {
	aieth_report *r;
	const aieth_run_opts *o;
	aieth_spec *sp;
	jobj *test;
	int exit_code;
	const aieth_board *board;
	aieth_board *own_board;
	chan_run **cr;       /* per transaction, per channel */
	char phase[160];     /* the transaction running, for progress */
} run_ctx;

/* Record the test's error and exit code (first error wins). */
static void test_error(run_ctx *c, const char *phase, int code, const char *hint, int exit_code)
{
	if (!rj_get(c->test, "error"))
		rj_set(c->test, "error", rj_error(phase, code, aieth_error_message(), hint));
	c->exit_code = aieth_exit_worst(c->exit_code, exit_code);
}

/* The signal number the run was interrupted by, 0 when it was not. */
static int interrupted(const run_ctx *c)
{
	return c->o && c->o->interrupt ? (int)*c->o->interrupt : 0;
}

/* Record an interruption (once) and stop: exit code 128 + N. */
static int check_interrupt(run_ctx *c, const char *where)
{
	int sig = interrupted(c);
	if (!sig)
		return 0;
	if (c->exit_code < AIETH_EXIT_SIGNAL) {
		aieth_fail(AIETH_ESTATE, "interrupted by signal %d%s while %s", sig,
			   sig == 2 ? " (SIGINT)" : sig == 15 ? " (SIGTERM)" : sig == 1 ? " (SIGHUP)"
										: "",
			   where);
		if (rj_get(c->test, "error"))
			json_object_object_del(c->test, "error");
		test_error(c, "interrupted", AIETH_ESTATE,
			   "the run was stopped by a signal; results after this point are missing",
			   AIETH_EXIT_SIGNAL + (sig > 0 && sig < 128 ? sig : 0));
	}
	return 1;
}

/* Exit code for an input/device error code of the library. */
static int exit_for(int code)
{
	switch (code) {
	case AIETH_ENOMEM:
	case AIETH_EDEVICE:
		return AIETH_EXIT_INFRA;
	case AIETH_EUNSUPPORTED:
		return AIETH_EXIT_SKIP;
	case AIETH_ETIMEOUT:
		return AIETH_EXIT_TIMEOUT;
	default:
		return AIETH_EXIT_INPUT;
	}
}

/* ------------------------------------------------------- data loading */

/* A binary file's length, checked without reading it; *fd stays open when
 * fd is not NULL. */
static int bin_len(const char *path, int *fd, uint64_t *len)
{
	struct stat st;
	int f = -1, rc = aieth_open_input(path, &f, &st);
	if (rc)
		return rc;
	if (st.st_size == 0) {
		close(f);
		return aieth_fail(AIETH_EINVAL, "%s: file is empty (0 bytes of data)", path);
	}
	if ((uint64_t)st.st_size > MAX_DATA_BYTES) {
		close(f);
		return aieth_fail(AIETH_EINVAL, "%s: %llu bytes, more than the %llu a channel can "
				  "carry", path, (unsigned long long)st.st_size,
				  (unsigned long long)MAX_DATA_BYTES);
	}
	*len = (uint64_t)st.st_size;
	if (fd)
		*fd = f;
	else
		close(f);
	return AIETH_OK;
}

/* A channel's data (TX) or golden data (RX) as a source of want bytes
 * (0: take the length from the file). Binary files and patterns stream;
 * text files are parsed whole into *mem. */
static int open_src(const spec_src *s, const char *what, uint64_t want, aieth_src *src, int *fd,
		    uint8_t **mem)
{
	size_t len = 0;
	int rc;
	memset(src, 0, sizeof *src);
	src->kind = AIETH_SRC_ZERO;
	src->len = want;
	switch (s->kind) {
	case SRC_BINARY:
		src->kind = AIETH_SRC_FILE;
		src->what = s->path;
		if ((rc = bin_len(s->path, fd, &src->len)))
			return aieth_fail_prefix(rc, "%s", what);
		src->fd = *fd;
		return AIETH_OK;
	case SRC_TEXT:
		if ((rc = aieth_text_read(s->path, s->type, MAX_DATA_BYTES, mem, &len)))
			return aieth_fail_prefix(rc, "%s", what);
		src->kind = AIETH_SRC_MEM;
		src->mem = *mem;
		src->len = len;
		return AIETH_OK;
	case SRC_PATTERN: {
		uint8_t one[16];
		size_t es = aieth_elem_size(s->pat.type);
		if (!want)
			return aieth_fail(AIETH_EINVAL, "%s: a pattern needs a size to fill", what);
		if (want % es)
			return aieth_fail(AIETH_EINVAL,
					  "%s: %llu bytes is not a whole number of %s elements", what,
					  (unsigned long long)want, aieth_elem_name(s->pat.type));
		/* one element tells whether the pattern's values fit the type */
		if ((rc = aieth_pattern_fill(&s->pat, one, es)))
			return aieth_fail_prefix(rc, "%s", what);
		src->kind = AIETH_SRC_PATTERN;
		src->pat = s->pat;
		return AIETH_OK;
	}
	default:
		return AIETH_OK;
	}
}

static int load_src(const spec_src *s, const char *what, size_t want, uint8_t **out, size_t *len)
{
	int rc;
	*out = NULL;
	*len = 0;
	switch (s->kind) {
	case SRC_BINARY:
		if ((rc = aieth_bin_read(s->path, MAX_DATA_BYTES, out, len)))
			return aieth_fail_prefix(rc, "%s", what);
		return AIETH_OK;
	case SRC_TEXT:
		if ((rc = aieth_text_read(s->path, s->type, MAX_DATA_BYTES, out, len)))
			return aieth_fail_prefix(rc, "%s", what);
		return AIETH_OK;
	case SRC_PATTERN:
		if (!want)
			return aieth_fail(AIETH_EINVAL, "%s: a pattern needs a size to fill", what);
		if (want % aieth_elem_size(s->pat.type))
			return aieth_fail(AIETH_EINVAL,
					  "%s: %zu bytes is not a whole number of %s elements", what,
					  want, aieth_elem_name(s->pat.type));
		*out = malloc(want);
		if (!*out)
			return aieth_fail(AIETH_ENOMEM, "%s: out of memory for %zu bytes", what, want);
		if ((rc = aieth_pattern_fill(&s->pat, *out, want))) {
			free(*out);
			*out = NULL;
			return aieth_fail_prefix(rc, "%s", what);
		}
		*len = want;
		return AIETH_OK;
	default:
		return AIETH_OK;
	}
}

/* The element type a channel's data declares (for tiling and comparison). */
static void chan_type(const spec_chan *sc, chan_run *cr)
{
	const spec_src *s[2] = {&sc->data, &sc->golden};
	int i;
	for (i = 0; i < 2; i++)
		if (s[i]->have_type) {
			cr->etype = s[i]->type;
			cr->have_etype = 1;
			cr->esize = aieth_elem_size(s[i]->type);
			return;
		}
	cr->etype = AIETH_ELEM_UINT8;
	cr->esize = 1;
}

/* Release what chan_open holds (safe on a closed channel). */
static void chan_close(chan_run *cr)
{
	if (cr->fd >= 0)
		close(cr->fd);
	if (cr->gfd >= 0)
		close(cr->gfd);
	cr->fd = cr->gfd = -1;
	free(cr->mem);
	free(cr->golden);
	free(cr->scratch);
	cr->mem = cr->golden = cr->scratch = NULL;
	cr->scratch_cap = 0;
	if (cr->saving)
		aieth_out_abort(&cr->out);
	cr->saving = 0;
	free(cr->save_path);
	cr->save_path = NULL;
}

/* Check a channel against the board and its data, and (open) set up its
 * data for the run. Without open nothing is kept: prepare() checks every
 * transaction before the device is touched, then each is opened in turn,
 * so memory is that of one transaction, never of all. */
static int chan_open(run_ctx *c, const spec_txn *st, const spec_chan *sc, chan_run *cr, int open)
{
	const char *what = c->sp->path, *jp = sc->jpath;
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	uint64_t uram = (uint64_t)bi->uram_depth_words * 16u;
	int tx, rc;
	uint8_t *raw = NULL;
	size_t len = 0;
	char w[256];

	cr->fd = cr->gfd = -1;
	cr->abs_tol = sc->abs_tol;
	cr->rel_tol = sc->rel_tol;
	if ((rc = aieth_board_plio_find(c->board, sc->plio, &cr->pl)))
		return aieth_fail_prefix(rc, "%s: %s.plio", what, jp);
	tx = cr->pl.dir == AIETH_DIR_TO_AIE;
	chan_type(sc, cr);
	if (tx && (sc->golden.kind || sc->save.kind || sc->abs_tol > 0 || sc->rel_tol > 0))
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s: %s sends data to the AIE: \"golden\", \"tolerance\" and "
				  "\"save\" belong to FROM_AIE channels",
				  what, jp, sc->plio);
	if (!tx && sc->data.kind)
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s: %s receives data from the AIE: use \"golden\" for the "
				  "expected data, not \"data\"",
				  what, jp, sc->plio);
	if (sc->have_tiling && !cr->have_etype)
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s.tiling: the element size is unknown: give the %s a \"type\"",
				  what, jp, tx ? "data" : "golden data");
	if (st->mode == AIETH_MODE_FUNC && sc->repetition != 1)
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s.repetition: %llu in FUNC mode; replay is only supported in "
				  "PERF mode (use 1)",
				  what, jp, (unsigned long long)sc->repetition);

	snprintf(w, sizeof w, "%s: %s.%s", what, jp, tx ? "data" : "golden");
	if (sc->have_tiling) {
		/* tiling gathers from / scatters to a whole buffer: kept in memory */
		uint64_t buf_bytes = aieth_tiling_buffer_elems(&sc->tiling) * cr->esize;
		uint64_t stream = aieth_tiling_stream_elems(&sc->tiling) * cr->esize;
		if (sc->have_size && sc->size != stream)
			return aieth_fail(AIETH_EINVAL,
					  "%s: %s.size: %llu bytes, but the tiling moves %llu elements "
					  "of %zu bytes = %llu bytes",
					  what, jp, (unsigned long long)sc->size,
					  (unsigned long long)(stream / cr->esize), cr->esize,
					  (unsigned long long)stream);
		cr->size = stream;
		if ((rc = load_src(tx ? &sc->data : &sc->golden, w, (size_t)buf_bytes, &raw, &len)))
			return rc;
		if (raw && len != buf_bytes) {
			free(raw);
			return aieth_fail(AIETH_EINVAL,
					  "%s: has %zu bytes, the tiling buffer (buffer_dimension) holds "
					  "%llu bytes",
					  w, len, (unsigned long long)buf_bytes);
		}
		if (!open) {
			free(raw);
		} else if (tx) {
			cr->mem = malloc(stream ? stream : 1);
			if (!cr->mem) {
				free(raw);
				return aieth_fail(AIETH_ENOMEM, "%s: out of memory", w);
			}
			if (raw)
				aieth_tiling_gather(&sc->tiling, cr->esize, raw, cr->mem);
			else
				memset(cr->mem, 0, stream);
			free(raw);
			cr->src.kind = AIETH_SRC_MEM;
			cr->src.mem = cr->mem;
			cr->src.len = stream;
		} else {
			cr->golden = raw;
			cr->golden_len = len;
			cr->mem = calloc(1, stream ? stream : 1);
			if (!cr->mem)
				return aieth_fail(AIETH_ENOMEM, "%s: out of memory", w);
		}
	} else {
		aieth_src *src = tx ? &cr->src : &cr->gsrc;
		rc = open_src(tx ? &sc->data : &sc->golden, w, sc->have_size ? sc->size : 0, src,
			      tx ? &cr->fd : &cr->gfd, tx ? &cr->mem : &cr->golden);
		if (rc)
			return rc;
		if (!sc->have_size && src->kind == AIETH_SRC_ZERO)
			return aieth_fail(AIETH_EPARSE,
					  "%s: %s.size: missing, and there is no %s file to take it "
					  "from",
					  what, jp, tx ? "data" : "golden");
		cr->size = sc->have_size ? sc->size : src->len;
		if (src->kind != AIETH_SRC_ZERO && src->len != cr->size)
			return aieth_fail(AIETH_EINVAL, "%s: has %llu bytes, the channel's size is %llu",
					  w, (unsigned long long)src->len,
					  (unsigned long long)cr->size);
		cr->have_golden = !tx && src->kind != AIETH_SRC_ZERO;
		cr->cmp_len = cr->size - cr->size % cr->esize;
	}
	if (cr->size == 0 || cr->size % 16)
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s.size: %llu bytes is not a positive multiple of 16 (one "
				  "128-bit beat)",
				  what, jp, (unsigned long long)cr->size);
	if (sc->save.kind == SRC_TEXT && !sc->save.have_type && !cr->have_etype)
		return aieth_fail(AIETH_EINVAL, "%s: %s.save: a text file needs a \"type\"", what, jp);
	/* PERF: the board returns at most the URAM's worth of a channel */
	if (!tx && st->mode == AIETH_MODE_PERF && cr->size > uram &&
	    (sc->golden.kind || sc->save.kind))
		return aieth_fail(AIETH_EINVAL,
				  "%s: %s.size: %llu bytes in PERF mode, but %s holds %llu bytes "
				  "per channel (URAM): the board returns only the last %llu bytes by "
				  "position, so \"%s\" cannot be honoured; use FUNC mode, or a size "
				  "of at most %llu",
				  what, jp, (unsigned long long)cr->size, bi->name,
				  (unsigned long long)uram, (unsigned long long)uram,
				  sc->golden.kind ? "golden" : "save", (unsigned long long)uram);
	if (!open) {
		chan_close(cr);
		return AIETH_OK;
	}
	if (!tx && sc->save.kind && !sc->have_tiling) {
		cr->save_path = aieth_path_join(c->o && c->o->out_dir ? c->o->out_dir : ".",
						sc->save.path);
		if (!cr->save_path)
			return aieth_fail(AIETH_ENOMEM, "out of memory");
		cr->save_text = sc->save.kind == SRC_TEXT;
		cr->save_type = sc->save.have_type ? sc->save.type : cr->etype;
		if (aieth_out_open(&cr->out, cr->save_path)) {
			cr->save_failed = 1;
			snprintf(cr->save_err, sizeof cr->save_err, "%s", aieth_error_message());
		} else {
			cr->saving = 1;
		}
	}
	return AIETH_OK;
}

/* ------------------------------------------------------- data streaming */

static int tx_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	chan_run *cr = ctx;
	if (aieth_src_read(&cr->src, off, buf, n)) {
		cr->io_failed = 1;
		snprintf(cr->io_err, sizeof cr->io_err, "%s", aieth_error_message());
		return -1;
	}
	return 0;
}

static void save_fail(chan_run *cr)
{
	cr->save_failed = 1;
	snprintf(cr->save_err, sizeof cr->save_err, "%s", aieth_error_message());
	aieth_out_abort(&cr->out);
	cr->saving = 0;
}

/* Received bytes [hwm, hwm+n): into the tiling stream, or compared with
 * the golden data and saved, chunk by chunk. */
static int rx_take(chan_run *cr, const uint8_t *buf, size_t n)
{
	uint64_t off = cr->hwm;
	cr->hwm += n;
	if (cr->mem) {
		memcpy(cr->mem + off, buf, n);
		return 0;
	}
	if (cr->have_golden && off < cr->cmp_len) {
		size_t m = cr->cmp_len - off < n ? (size_t)(cr->cmp_len - off) : n;
		if (m > cr->scratch_cap) {
			uint8_t *p = realloc(cr->scratch, m);
			if (!p) {
				aieth_fail(AIETH_ENOMEM, "out of memory for %zu bytes of golden data", m);
				goto io_fail;
			}
			cr->scratch = p;
			cr->scratch_cap = m;
		}
		if (aieth_src_read(&cr->gsrc, off, cr->scratch, m))
			goto io_fail;
		aieth_compare_more(buf, cr->scratch, m, off, cr->etype, cr->abs_tol, cr->rel_tol,
				   &cr->cmp);
	}
	if (cr->saving) {
		if (cr->save_text) {
			char *text = NULL;
			size_t tl = 0;
			if (aieth_text_format(cr->save_type, buf, n, &text, &tl) ||
			    aieth_write_full(cr->out.fd, text, tl, cr->save_path))
				save_fail(cr);
			free(text);
		} else if (aieth_write_full(cr->out.fd, buf, n, cr->save_path)) {
			save_fail(cr);
		}
	}
	return 0;
io_fail:
	cr->io_failed = 1;
	snprintf(cr->io_err, sizeof cr->io_err, "%s", aieth_error_message());
	return -1;
}

/* Bytes never written (not received) count as zeros, as in a zeroed
 * destination buffer. */
static int rx_zeros(chan_run *cr, uint64_t upto)
{
	static const uint8_t zeros[65536];
	while (cr->hwm < upto) {
		size_t n = upto - cr->hwm < sizeof zeros ? (size_t)(upto - cr->hwm) : sizeof zeros;
		if (rx_take(cr, zeros, n))
			return -1;
	}
	return 0;
}

static int rx_write(void *ctx, uint64_t off, const void *buf, size_t n)
{
	chan_run *cr = ctx;
	if (off < cr->hwm) {
		aieth_fail(AIETH_EINVAL, "received data out of order: byte %llu after byte %llu",
			   (unsigned long long)off, (unsigned long long)cr->hwm);
		cr->io_failed = 1;
		snprintf(cr->io_err, sizeof cr->io_err, "%s", aieth_error_message());
		return -1;
	}
	if (rx_zeros(cr, off))
		return -1;
	return rx_take(cr, buf, n);
}

/* Check everything that needs the board before the device is touched. */
static int prepare(run_ctx *c)
{
	size_t i, j, k;
	int rc;
	c->cr = calloc(c->sp->ntxns, sizeof *c->cr);
	if (!c->cr)
		return aieth_fail(AIETH_ENOMEM, "out of memory");
	for (i = 0; i < c->sp->ntxns; i++) {
		spec_txn *st = &c->sp->txns[i];
		c->cr[i] = calloc(st->nch, sizeof **c->cr);
		if (!c->cr[i])
			return aieth_fail(AIETH_ENOMEM, "out of memory");
		for (j = 0; j < st->nch; j++)
			c->cr[i][j].fd = c->cr[i][j].gfd = -1;
		for (j = 0; j < st->nch; j++) {
			if ((rc = chan_open(c, st, &st->ch[j], &c->cr[i][j], 0)))
				return rc;
			for (k = 0; k < j; k++)
				if (!strcmp(c->cr[i][k].pl.name, c->cr[i][j].pl.name))
					return aieth_fail(AIETH_EINVAL,
							  "%s: %s.plio: %s is also %s.plio (one entry "
							  "per PLIO)",
							  c->sp->path, st->ch[j].jpath,
							  c->cr[i][j].pl.name, st->ch[k].jpath);
		}
		for (j = 0; j < st->nlat; j++) {
			const char *ends[2] = {st->lat[j].from, st->lat[j].to};
			int e;
			for (e = 0; e < 2; e++) {
				for (k = 0; k < st->nch; k++)
					if (!strcmp(c->cr[i][k].pl.name, ends[e]))
						break;
				if (k == st->nch)
					return aieth_fail(AIETH_EINVAL,
							  "%s: %s.max_latency[%zu].%s: %s is not a "
							  "channel of this transaction",
							  c->sp->path, st->jpath, j, e ? "to" : "from",
							  ends[e]);
			}
		}
	}
	return AIETH_OK;
}

/* ----------------------------------------------------- channel results */

static void put_integrity(jobj *ch, int checked, const char *reason, const aieth_compare_result *cmp)
{
	jobj *in = rj_obj();
	rj_bool(in, "checked", checked);
	if (!checked) {
		rj_str(in, "reason", reason);
	} else {
		rj_u64(in, "elements", cmp->elements);
		rj_u64(in, "mismatches", cmp->mismatches);
		if (cmp->mismatches) {
			jobj *fm = rj_obj();
			rj_u64(fm, "offset", cmp->first_offset);
			rj_u64(fm, "index", cmp->first_index);
			rj_str(fm, "got", cmp->first_got);
			rj_str(fm, "expected", cmp->first_want);
			rj_set(in, "first_mismatch", fm);
		} else {
			rj_null(in, "first_mismatch");
		}
		rj_num(in, "max_abs_error", cmp->max_abs_error);
	}
	rj_set(ch, "integrity", in);
}

/* Save what arrived; relative paths go under the output directory. */
static int save_rx(run_ctx *c, const spec_chan *sc, const chan_run *cr, const uint8_t *data,
		   size_t len, jobj *ch)
{
	char *path = aieth_path_join(c->o && c->o->out_dir ? c->o->out_dir : ".", sc->save.path);
	int rc;
	if (!path)
		return aieth_fail(AIETH_ENOMEM, "out of memory");
	if (sc->save.kind == SRC_TEXT)
		rc = aieth_text_write(path, sc->save.have_type ? sc->save.type : cr->etype, data, len);
	else
		rc = aieth_write_atomic(path, data, len);
	if (!rc)
		rj_str(ch, "saved_to", path);
	free(path);
	return rc;
}

/* Results of one channel into the report; returns its exit code. */
static int channel_result(run_ctx *c, const spec_txn *st, aieth_txn *t, size_t idx, jobj *chans)
{
	const spec_chan *sc = &st->ch[idx];
	chan_run *cr = &c->cr[st - c->sp->txns][idx];
	const aieth_board_info *bi = aieth_board_get_info(c->board);
	aieth_channel_result res;
	jobj *ch = rj_obj(), *pl = rj_obj(), *th = rj_arr();
	aieth_txn_status status = aieth_txn_get_status(t);
	int tx = cr->pl.dir == AIETH_DIR_TO_AIE, code = AIETH_EXIT_PASS;
	const char *verdict;

	aieth_txn_channel(t, idx, &res);
	rj_str(ch, "plio", res.plio.name);
	rj_str(ch, "direction", tx ? "to_aie" : "from_aie");
	rj_int(ch, "index", res.plio.index);
	rj_int(pl, "shim_column", res.plio.shim_column);
	rj_int(pl, "shim_channel", res.plio.shim_channel);
	rj_set(ch, "placement", pl);
	rj_int(ch, "width_bits", bi->stream_width_bits);
	rj_u64(ch, "size_bytes", res.size);
	rj_u64(ch, "repetition", res.repetition);
	rj_u64(ch, "delay_cycles", res.delay);
	rj_u64(ch, "bytes_expected", res.bytes_expected);
	rj_u64(ch, "bytes_moved", res.bytes_moved);
	rj_u64(ch, "beats", res.bytes_moved / 16);
	rj_u64(ch, "user_bytes", res.user_bytes);
	rj_bool(ch, "finished", res.finished);
	if (res.finished) {
		rj_u64(ch, "first_cycle", res.first_cycle);
		rj_u64(ch, "last_cycle", res.last_cycle);
		rj_u64(ch, "cycles", res.cycles);
		rj_num(ch, "duration_ns", (double)res.cycles * 1e9 / (double)bi->pl_clock_hz);
		rj_num(ch, "throughput_MBps", res.mb_per_s);
		rj_num(ch, "throughput_MiBps", res.mib_per_s);
		rj_null(ch, "stalled_since_cycle");
	} else {
		rj_null(ch, "first_cycle");
		rj_null(ch, "last_cycle");
		rj_null(ch, "cycles");
		rj_null(ch, "duration_ns");
		rj_null(ch, "throughput_MBps");
		rj_null(ch, "throughput_MiBps");
		if (status == AIETH_TXN_TIMEOUT)
			rj_u64(ch, "stalled_since_cycle", res.stalled_since);
		else
			rj_null(ch, "stalled_since_cycle");
	}
	rj_num(ch, "theoretical_MBps", res.peak_mb_per_s);
	if (res.finished)
		rj_num(ch, "utilisation_pct", res.utilisation_pct);
	else
		rj_null(ch, "utilisation_pct");
	rj_bool(ch, "valid", res.valid);

	/* data integrity */
	if (tx) {
		put_integrity(ch, 0, "sent data is not checked", NULL);
	} else if (status != AIETH_TXN_DONE) {
		put_integrity(ch, 0, "the transaction did not complete", NULL);
	} else {
		/* what came back: PERF returns at most the URAM capacity */
		size_t got = (size_t)res.user_bytes;
		uint8_t *tiled = NULL;
		aieth_compare_result cmp;
		int saved = 0;
		memset(&cmp, 0, sizeof cmp);
		if (!cr->io_failed)
			rx_zeros(cr, got); /* not received: zeros, as in a zeroed buffer */
		if (sc->have_tiling) {
			/* the stream arrived whole in cr->mem: scatter, compare, save */
			size_t bb = (size_t)aieth_tiling_buffer_elems(&sc->tiling) * cr->esize;
			size_t n = bb < cr->golden_len ? bb : cr->golden_len;
			tiled = calloc(1, bb ? bb : 1);
			if (!tiled) {
				aieth_fail(AIETH_ENOMEM, "out of memory for the tiling buffer");
				test_error(c, "check", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
				code = AIETH_EXIT_INFRA;
			} else {
				aieth_tiling_scatter(&sc->tiling, cr->esize, cr->mem, tiled);
				n -= n % cr->esize;
				if (cr->golden)
					aieth_compare(tiled, cr->golden, n, cr->etype, sc->abs_tol,
						      sc->rel_tol, &cmp);
				if (sc->save.kind && save_rx(c, sc, cr, tiled, bb, ch))
					cr->save_failed = 1;
				saved = 1;
			}
		} else {
			cmp = cr->cmp;
		}
		if (cr->io_failed) {
			aieth_fail(AIETH_EIO, "%s: %s", sc->jpath, cr->io_err);
			put_integrity(ch, 0, cr->io_err, NULL);
			test_error(c, "check", AIETH_EIO, NULL, AIETH_EXIT_INPUT);
			code = aieth_exit_worst(code, AIETH_EXIT_INPUT);
		} else if (!res.valid && (cr->golden || cr->have_golden)) {
			/* never a pass: the data cannot be what the description expects */
			put_integrity(ch, 0,
				      "not valid: the size exceeds the URAM, the data beyond it is "
				      "filler (TX) or wrapped (RX)",
				      NULL);
			aieth_fail(AIETH_EINVAL, "%s: golden data given, but the received data is "
				   "not valid (beyond the URAM)", sc->jpath);
			test_error(c, "check", AIETH_EINVAL, NULL, AIETH_EXIT_INPUT);
			code = aieth_exit_worst(code, AIETH_EXIT_INPUT);
		} else if (!res.valid) {
			put_integrity(ch, 0,
				      "not valid: the size exceeds the URAM, the data beyond it is "
				      "filler (TX) or wrapped (RX)",
				      NULL);
		} else if (cr->golden || cr->have_golden) {
			put_integrity(ch, 1, NULL, &cmp);
			if (cmp.mismatches)
				code = AIETH_EXIT_FAIL;
		} else {
			put_integrity(ch, 0, "no golden data given", NULL);
		}
		if (sc->save.kind && !saved) {
			if (cr->saving && !cr->save_failed && !cr->io_failed &&
			    aieth_out_commit(&cr->out) == AIETH_OK) {
				rj_str(ch, "saved_to", cr->save_path);
			} else if (!cr->save_failed) {
				cr->save_failed = 1;
				snprintf(cr->save_err, sizeof cr->save_err, "%s",
					 cr->io_failed ? "not saved: reading the data failed"
						       : aieth_error_message());
			} else {
				aieth_fail(AIETH_EIO, "%s", cr->save_err);
			}
			cr->saving = 0;
		}
		if (sc->save.kind && cr->save_failed) {
			test_error(c, "save", AIETH_EIO, "check --out and the save path",
				   AIETH_EXIT_INPUT);
			code = aieth_exit_worst(code, AIETH_EXIT_INPUT);
		}
		free(tiled);
	}
	/* thresholds */
	if (sc->have_min_mbps) {
		jobj *t1 = rj_obj();
		int ok = res.finished && res.mb_per_s >= sc->min_mbps;
		rj_str(t1, "metric", "throughput_MBps");
		rj_num(t1, "min", sc->min_mbps);
		if (res.finished)
			rj_num(t1, "measured", res.mb_per_s);
		else
			rj_null(t1, "measured");
		rj_bool(t1, "passed", ok);
		rj_push(th, t1);
		if (!ok && status == AIETH_TXN_DONE)
			code = aieth_exit_worst(code, AIETH_EXIT_FAIL);
	}
	rj_set(ch, "thresholds", th);
	if (status == AIETH_TXN_TIMEOUT)
		verdict = res.finished ? "pass" : "timeout";
	else if (status == AIETH_TXN_INTERRUPTED)
		verdict = "interrupted";
	else if (status != AIETH_TXN_DONE)
		verdict = "error";
	else
		verdict = code == AIETH_EXIT_PASS ? "pass" : code == AIETH_EXIT_FAIL ? "fail" : "error";
	rj_str(ch, "verdict", verdict);
	rj_push(chans, ch);
	return code;
}

/* ------------------------------------------------------------ the run */

static void add_progress(run_ctx *c, const char *phase, uint64_t done, uint64_t total)
{
	if (c->o && c->o->progress)
		c->o->progress(c->o->progress_ctx, phase, done, total);
}

/* The session's progress hook: bytes moved in the running transaction. */
static void txn_progress(void *ctx, uint64_t done, uint64_t total)
{
	run_ctx *c = ctx;
	add_progress(c, c->phase, done, total);
}

static void run_txn(run_ctx *c, aieth_session *s, size_t ti, jobj *txns, int *stop)
{
	spec_txn *st = &c->sp->txns[ti];
	chan_run *cr = c->cr[ti];
	aieth_channel_args *a = calloc(st->nch, sizeof *a);
	aieth_channel_io *io = calloc(st->nch ? st->nch : 1, sizeof *io);
	jobj *tj = rj_obj(), *chans = rj_arr(), *lats = rj_arr();
	aieth_txn *t = NULL;
	uint32_t timeout = c->o && c->o->no_timeout  ? 0
			   : c->o && c->o->timeout_ms ? c->o->timeout_ms
			   : st->have_timeout	      ? st->timeout_ms
						      : DEFAULT_TIMEOUT_MS;
	size_t j;
	int rc, code = AIETH_EXIT_PASS;
	aieth_txn_status status;

	rj_int(tj, "index", (int64_t)ti);
	rj_str(tj, "name", st->name ? st->name : st->jpath);
	rj_str(tj, "mode", st->mode == AIETH_MODE_PERF ? "perf" : "func");
	rj_int(tj, "timeout_ms", timeout);
	rj_push(txns, tj);
	if (!a || !io) {
		free(a);
		free(io);
		aieth_fail(AIETH_ENOMEM, "out of memory");
		test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		*stop = 1;
		return;
	}
	for (j = 0; j < st->nch; j++) {
		int tx = cr[j].pl.dir == AIETH_DIR_TO_AIE;
		if ((rc = chan_open(c, st, &st->ch[j], &cr[j], 1))) {
			free(a);
			free(io);
			rj_str(tj, "status", "failed");
			rj_str(tj, "message", aieth_error_message());
			test_error(c, "prepare", rc, NULL, exit_for(rc));
			*stop = 1;
			return;
		}
		a[j].plio = cr[j].pl.name;
		a[j].size = cr[j].size;
		a[j].repetition = st->ch[j].repetition;
		a[j].delay = st->ch[j].delay;
		io[j].ctx = &cr[j];
		if (tx && cr[j].src.kind != AIETH_SRC_ZERO)
			io[j].read = tx_read;
		else if (!tx && (cr[j].mem || cr[j].have_golden || cr[j].saving))
			io[j].write = rx_write;
	}
	rc = aieth_txn_submit_io(s, st->mode, a, io, st->nch, &t);
	free(a);
	free(io);
	if (rc) {
		for (j = 0; j < st->nch; j++)
			if (cr[j].io_failed) {
				aieth_fail(rc, "%s: %s", st->ch[j].jpath, cr[j].io_err);
				break;
			}
		rj_str(tj, "status", "failed");
		rj_str(tj, "message", aieth_error_message());
		test_error(c, "run", rc, NULL, exit_for(rc));
		*stop = 1;
		return;
	}
	rc = aieth_txn_wait(t, timeout);
	status = aieth_txn_get_status(t);
	rj_str(tj, "status", status == AIETH_TXN_DONE	       ? "done"
			     : status == AIETH_TXN_TIMEOUT     ? "timeout"
			     : status == AIETH_TXN_INTERRUPTED ? "interrupted"
							       : "failed");
	rj_bool(tj, "valid", aieth_txn_is_valid(t));
	rj_str(tj, "message", aieth_txn_message(t));
	rj_u64(tj, "total_cycles", aieth_txn_total_cycles(t));
	for (j = 0; j < st->nch; j++)
		code = aieth_exit_worst(code, channel_result(c, st, t, j, chans));
	rj_set(tj, "channels", chans);
	for (j = 0; j < st->nlat; j++) {
		jobj *l = rj_obj();
		int64_t d = 0;
		int ok = status == AIETH_TXN_DONE &&
			 aieth_txn_delay_between(t, st->lat[j].from, st->lat[j].to, &d) == AIETH_OK;
		rj_str(l, "from", st->lat[j].from);
		rj_str(l, "to", st->lat[j].to);
		if (ok)
			rj_int(l, "cycles", d);
		else
			rj_null(l, "cycles");
		rj_u64(l, "max_cycles", st->lat[j].max_cycles);
		ok = ok && d <= (int64_t)st->lat[j].max_cycles;
		rj_bool(l, "passed", ok);
		rj_push(lats, l);
		if (!ok && status == AIETH_TXN_DONE)
			code = aieth_exit_worst(code, AIETH_EXIT_FAIL);
	}
	rj_set(tj, "latencies", lats);
	for (j = 0; j < st->nch; j++)
		if (cr[j].io_failed && status == AIETH_TXN_FAILED) {
			/* our data source or sink failed, not the device */
			aieth_fail(AIETH_EIO, "%s: %s", st->ch[j].jpath, cr[j].io_err);
			test_error(c, "data", AIETH_EIO, NULL, AIETH_EXIT_INPUT);
			*stop = 1;
			rc = 0;
			status = AIETH_TXN_DONE; /* reported; skip the device error below */
			break;
		}
	if (status == AIETH_TXN_INTERRUPTED || interrupted(c)) {
		char where[200];
		snprintf(where, sizeof where, "%s ran: %s", st->jpath, aieth_txn_message(t));
		check_interrupt(c, where);
		*stop = 1;
	} else if (status == AIETH_TXN_TIMEOUT) {
		aieth_fail(AIETH_ETIMEOUT, "%s: %s", st->jpath, aieth_txn_message(t));
		test_error(c, "wait", AIETH_ETIMEOUT,
			   "see each channel's bytes_moved and stalled_since_cycle; on a board, "
			   "reset it before the next test",
			   AIETH_EXIT_TIMEOUT);
		*stop = 1; /* the kernel never completed: nothing after it can run */
	} else if (status == AIETH_TXN_FAILED || rc) {
		aieth_fail(AIETH_EDEVICE, "%s: %s", st->jpath, aieth_txn_message(t));
		test_error(c, "wait", AIETH_EDEVICE, NULL, AIETH_EXIT_INFRA);
		*stop = 1;
	}
	c->exit_code = aieth_exit_worst(c->exit_code, code);
	aieth_txn_free(t);
	for (j = 0; j < st->nch; j++)
		chan_close(&cr[j]);
}

/* The design xclbin in the report: path, and when it reads, its UUID,
 * SHA-256 and platform (the device phase checks it strictly). */
static void put_xclbin(jobj *test, const char *path)
{
	aieth_xclbin *x = NULL;
	jobj *xo;
	char hex[65];
	if (!path) {
		rj_null(test, "xclbin");
		return;
	}
	xo = rj_obj();
	rj_str(xo, "path", path);
	if (aieth_xclbin_open(&x, path, AIETH_XCLBIN_LENIENT) == AIETH_OK) {
		rj_str(xo, "uuid", aieth_xclbin_uuid_string(x));
		rj_str(xo, "vbnv", aieth_xclbin_get_header(x)->vbnv);
		if (aieth_xclbin_sha256(x, hex) == AIETH_OK)
			rj_str(xo, "sha256", hex);
		rj_int(xo, "problems", (int64_t)aieth_xclbin_num_problems(x));
		aieth_xclbin_close(x);
	} else {
		rj_str(xo, "error", aieth_error_message());
	}
	rj_set(test, "xclbin", xo);
}

static void run_spec(run_ctx *c)
{
	aieth_session_opts so;
	aieth_graph_spec *gs = NULL;
	aieth_session *s = NULL;
	jobj *graphs = rj_arr(), *txns = rj_arr();
	const aieth_board_info *bi;
	size_t i;
	int rc, stop = 0;

	rj_set(c->test, "graphs", graphs);
	rj_set(c->test, "transactions", txns);
	bi = aieth_board_get_info(c->board);
	rj_str(c->test, "board", bi->name);
	rj_str(c->test, "backend", c->o && c->o->backend ? c->o->backend
				   : c->sp->backend	     ? c->sp->backend
							     : "emu");
	rj_num(c->test, "pl_clock_MHz", (double)bi->pl_clock_hz / 1e6);
	put_xclbin(c->test, c->o && c->o->xclbin ? c->o->xclbin : c->sp->xclbin);

	if (check_interrupt(c, "loading"))
		return;
	add_progress(c, "prepare: load and check the data", 0, 0);
	if ((rc = prepare(c))) {
		test_error(c, "prepare", rc, NULL, exit_for(rc) == AIETH_EXIT_INFRA ? AIETH_EXIT_INFRA
											: AIETH_EXIT_INPUT);
		return;
	}
	gs = calloc(c->sp->ngraphs ? c->sp->ngraphs : 1, sizeof *gs);
	if (!gs) {
		aieth_fail(AIETH_ENOMEM, "out of memory");
		test_error(c, "open", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		return;
	}
	for (i = 0; i < c->sp->ngraphs; i++) {
		gs[i].name = c->sp->graphs[i].name;
		gs[i].model = c->sp->graphs[i].model;
		gs[i].model_params = c->sp->graphs[i].params;
	}
	memset(&so, 0, sizeof so);
	so.board = bi->name;
	so.data_dir = c->o ? c->o->data_dir : NULL;
	so.backend = rj_gets(c->test, "backend");
	so.xclbin = c->o && c->o->xclbin ? c->o->xclbin : c->sp->xclbin;
	so.pl_xclbin = c->o && c->o->pl_xclbin ? c->o->pl_xclbin : c->sp->pl_xclbin;
	so.graphs = gs;
	so.num_graphs = c->sp->ngraphs;
	so.emu_reference = c->o ? c->o->emu_reference : 0;
	so.interrupt = c->o ? c->o->interrupt : NULL;
	so.progress = txn_progress;
	so.progress_ctx = c;
	/* a board given by path must be opened by the same path */
	if (c->own_board && (strchr(c->o && c->o->board ? c->o->board : c->sp->board, '/')))
		so.board = c->o && c->o->board ? c->o->board : c->sp->board;
	if (check_interrupt(c, "preparing the data")) {
		free(gs);
		return;
	}
	snprintf(c->phase, sizeof c->phase, "open: %s board %s", so.backend, so.board);
	add_progress(c, c->phase, 0, 0);
	rc = aieth_session_open(&s, &so);
	free(gs);
	if (rc) {
		test_error(c, "open", rc,
			   rc == AIETH_EUNSUPPORTED ? "not available here: the emulated board "
						      "(backend \"emu\") runs everywhere; a board "
						      "needs XRT (docs/on-board.md)"
						    : NULL,
			   exit_for(rc));
		return;
	}
	for (i = 0; i < c->sp->ngraphs && !stop; i++) {
		jobj *g = rj_obj();
		rj_str(g, "name", c->sp->graphs[i].name);
		rj_int(g, "iterations", c->sp->graphs[i].iterations);
		rj_str(g, "model", c->sp->graphs[i].model ? c->sp->graphs[i].model : "loopback");
		rj_push(graphs, g);
		snprintf(c->phase, sizeof c->phase, "graph \"%s\": run", c->sp->graphs[i].name);
		add_progress(c, c->phase, 0, 0);
		if ((rc = aieth_graph_run(s, c->sp->graphs[i].name, c->sp->graphs[i].iterations))) {
			test_error(c, "run", rc, NULL, exit_for(rc) == AIETH_EXIT_INPUT
								? AIETH_EXIT_INFRA
								: exit_for(rc));
			stop = 1;
		}
	}
	for (i = 0; i < c->sp->ntxns && !stop; i++) {
		if (check_interrupt(c, "between transactions")) {
			stop = 1;
			break;
		}
		snprintf(c->phase, sizeof c->phase, "transaction %zu/%zu \"%s\"", i + 1,
			 c->sp->ntxns, c->sp->txns[i].name ? c->sp->txns[i].name : c->sp->txns[i].jpath);
		add_progress(c, c->phase, 0, 0);
		run_txn(c, s, i, txns, &stop);
	}
	/* graphs with a bounded run must have completed it */
	for (i = 0; i < c->sp->ngraphs && i < json_object_array_length(graphs); i++) {
		jobj *g = json_object_array_get_idx(graphs, i);
		uint64_t done = 0;
		aieth_graph_iterations_done(s, c->sp->graphs[i].name, &done);
		if (!stop && c->sp->graphs[i].iterations >= 0) {
			snprintf(c->phase, sizeof c->phase, "graph \"%s\": wait",
				 c->sp->graphs[i].name);
			add_progress(c, c->phase, 0, 0);
			rc = aieth_graph_wait(s, c->sp->graphs[i].name, DEFAULT_TIMEOUT_MS);
			rj_str(g, "status", rc ? "incomplete" : "complete");
			if (rc) {
				test_error(c, "graph wait", rc,
					   "the graph did not finish its iterations: check the "
					   "iterations against the data the transactions send",
					   AIETH_EXIT_TIMEOUT);
			}
		} else {
			rj_str(g, "status", c->sp->graphs[i].iterations < 0 ? "running" : "stopped");
		}
		aieth_graph_iterations_done(s, c->sp->graphs[i].name, &done);
		rj_u64(g, "iterations_done", done);
		aieth_graph_end(s, c->sp->graphs[i].name);
	}
	add_progress(c, "close the session", 0, 0);
	aieth_session_close(s);
}

static void free_ctx(run_ctx *c)
{
	size_t i, j;
	if (c->cr && c->sp) {
		for (i = 0; i < c->sp->ntxns; i++) {
			if (!c->cr[i])
				continue;
			for (j = 0; j < c->sp->txns[i].nch; j++)
				chan_close(&c->cr[i][j]);
			free(c->cr[i]);
		}
	}
	free(c->cr);
	aieth_spec_free(c->sp);
	aieth_board_free(c->own_board);
}

int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *o)
{
	run_ctx c;
	double t0 = aieth_now();
	const char *board;
	int rc;

	if (!r || !spec_path)
		return aieth_fail(AIETH_EINVAL, "aieth_report_run: NULL argument");
	memset(&c, 0, sizeof c);
	c.r = r;
	c.o = o;
	c.test = rj_obj();
	c.exit_code = AIETH_EXIT_PASS;
	rj_push(r->tests, c.test);
	rj_str(c.test, "spec", spec_path);
	rj_str(c.test, "name", spec_path);

	add_progress(&c, "load the description", 0, 0);
	rc = aieth_spec_load(&c.sp, spec_path);
	if (rc) {
		test_error(&c, "load", rc, "see docs/test-spec.md",
			   rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA : AIETH_EXIT_INPUT);
		goto done;
	}
	rj_str(c.test, "name", c.sp->name);
	if (c.sp->description)
		rj_str(c.test, "description", c.sp->description);
	board = o && o->board ? o->board : c.sp->board;
	if (!board) {
		aieth_fail(AIETH_EINVAL, "%s: board: missing: name the board in the description or "
					 "give --board",
			   spec_path);
		test_error(&c, "load", AIETH_EINVAL, NULL, AIETH_EXIT_INPUT);
		goto done;
	}
	rc = aieth_board_load(&c.own_board, board, o ? o->data_dir : NULL);
	if (rc) {
		test_error(&c, "load", rc, "boards: vck190, vek280, vek385 (platforms/*.json)",
			   rc == AIETH_ENOMEM ? AIETH_EXIT_INFRA : AIETH_EXIT_INPUT);
		goto done;
	}
	c.board = c.own_board;
	run_spec(&c);
done:
	if (!rj_get(c.test, "error"))
		rj_null(c.test, "error");
	if (!rj_get(c.test, "transactions"))
		rj_set(c.test, "transactions", rj_arr());
	if (!rj_get(c.test, "graphs"))
		rj_set(c.test, "graphs", rj_arr());
	rj_str(c.test, "status", aieth_exit_status(c.exit_code));
	rj_int(c.test, "exit_code", c.exit_code);
	rj_num(c.test, "duration_s", aieth_now() - t0);
	/* the environment reflects the first test's board */
	if (c.board && !rj_get(r->env, "board")) {
		const aieth_board_info *bi = aieth_board_get_info(c.board);
		rj_str(r->env, "board", bi->name);
		rj_str(r->env, "backend", rj_gets(c.test, "backend"));
		rj_num(r->env, "pl_clock_MHz", (double)bi->pl_clock_hz / 1e6);
		rj_str(r->env, "pl_kernel", bi->pl_kernel);
		rj_str(r->env, "emulator_mode", o && o->emu_reference ? "reference" : "fast");
	}
	free_ctx(&c);
	return rj_oom() ? aieth_fail(AIETH_ENOMEM, "report: out of memory") : AIETH_OK;
}
