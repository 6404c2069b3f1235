/* SPDX-License-Identifier: MIT */
/*
 * run_data.c - a channel's data for one transaction: checked before the
 * device is touched (aieth__rn_prepare), opened just before the transaction runs
 * and closed after it (memory of one transaction at a time), TX streamed
 * from files and patterns where the device asks, RX compared with golden
 * data and saved as it arrives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

/* ------------------------------------------------------- data loading */

/* golden bytes read at a time (a multiple of 16: every element whole),
 * read ahead on a worker too (4 MiB windows there were no faster in
 * make bench (c), and four times the memory) */
#define GOLD_WINDOW ((uint64_t)1 << 20)

/* A binary file's length, checked without reading it; *fd stays open when
 * fd is not NULL. */
static int bin_len(const char *path, int *fd, uint64_t *len)
{
	struct stat st;
	int f = -1, rc = aieth__open_input(path, &f, &st);
	if (rc)
		return rc;
	if (st.st_size == 0) {
		close(f);
		return aieth__fail(AIETH_EINVAL, "%s: file is empty (0 bytes of data)", path);
	}
	if ((uint64_t)st.st_size > MAX_DATA_BYTES) {
		close(f);
		return aieth__fail(AIETH_EINVAL,
				   "%s: %llu bytes, more than the %llu a channel can "
				   "carry",
				   path, (unsigned long long)st.st_size,
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
 * text files are parsed in pieces into a scratch file (*fd) that streams. */
static int open_src(run_ctx *c, const spec_src *s, const char *what, uint64_t want, aieth_src *src,
		    int *fd)
{
	int rc;
	memset(src, 0, sizeof *src);
	src->kind = AIETH_SRC_ZERO;
	src->len = want;
	switch (s->kind) {
	case SRC_BINARY:
		src->kind = AIETH_SRC_FILE;
		src->what = s->path;
		if ((rc = bin_len(s->path, fd, &src->len)))
			return aieth__fail_prefix(rc, "%s", what);
		src->fd = *fd;
		return AIETH_OK;
	case SRC_TEXT:
		/* converted once per run (run_texts.c), then read like memory or,
		 * past the cache's bounds, streamed from a scratch file */
		if ((rc = aieth__rn_texts_open(&c->texts, s->path, s->type, src, fd)))
			return aieth__fail_prefix(rc, "%s", what);
		return AIETH_OK;
	case SRC_PATTERN: {
		uint8_t one[16];
		size_t es = aieth__elem_size(s->pat.type);
		if (!want)
			return aieth__fail(AIETH_EINVAL, "%s: a pattern needs a size to fill",
					   what);
		if (want % es)
			return aieth__fail(
				AIETH_EINVAL, "%s: %llu bytes is not a whole number of %s elements",
				what, (unsigned long long)want, aieth__elem_name(s->pat.type));
		/* one element tells whether the pattern's values fit the type */
		if ((rc = aieth__pattern_fill(&s->pat, one, es)))
			return aieth__fail_prefix(rc, "%s", what);
		src->kind = AIETH_SRC_PATTERN;
		src->pat = s->pat;
		return AIETH_OK;
	}
	default: return AIETH_OK;
	}
}

static int load_src(run_ctx *c, const spec_src *s, const char *what, size_t want, uint8_t **out,
		    size_t *len)
{
	aieth_src src;
	int rc, fd = -1;
	*out = NULL;
	*len = 0;
	switch (s->kind) {
	case SRC_BINARY:
		if ((rc = aieth__bin_read(s->path, MAX_DATA_BYTES, out, len)))
			return aieth__fail_prefix(rc, "%s", what);
		return AIETH_OK;
	case SRC_TEXT:
		/* a copy of the converted bytes: tiling keeps the buffer whole */
		memset(&src, 0, sizeof src);
		if (!(rc = aieth__rn_texts_open(&c->texts, s->path, s->type, &src, &fd)) &&
		    !(*out = malloc(src.len ? (size_t)src.len : 1)))
			rc = aieth__fail(AIETH_ENOMEM, "out of memory for %llu bytes",
					 (unsigned long long)src.len);
		if (!rc && !(rc = aieth__src_read(&src, 0, *out, (size_t)src.len)))
			*len = (size_t)src.len;
		if (fd >= 0)
			close(fd);
		if (rc) {
			free(*out);
			*out = NULL;
			return aieth__fail_prefix(rc, "%s", what);
		}
		return AIETH_OK;
	case SRC_PATTERN:
		if (!want)
			return aieth__fail(AIETH_EINVAL, "%s: a pattern needs a size to fill",
					   what);
		if (want % aieth__elem_size(s->pat.type))
			return aieth__fail(AIETH_EINVAL,
					   "%s: %zu bytes is not a whole number of %s elements",
					   what, want, aieth__elem_name(s->pat.type));
		*out = malloc(want);
		if (!*out)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory for %zu bytes", what,
					   want);
		if ((rc = aieth__pattern_fill(&s->pat, *out, want))) {
			free(*out);
			*out = NULL;
			return aieth__fail_prefix(rc, "%s", what);
		}
		*len = want;
		return AIETH_OK;
	default: return AIETH_OK;
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
			cr->esize = aieth__elem_size(s[i]->type);
			return;
		}
	cr->etype = AIETH_ELEM_UINT8;
	cr->esize = 1;
}

/* Release what chan_open holds (safe on a closed channel). */
void aieth__rn_chan_close(chan_run *cr)
{
	/* the worker first: it may be reading into its buffers from gfd */
	aieth__rn_ahead_stop(cr->ahead);
	cr->ahead = NULL;
	cr->gwin = NULL;
	if (cr->fd >= 0)
		close(cr->fd);
	if (cr->gfd >= 0)
		close(cr->gfd);
	cr->fd = cr->gfd = -1;
	free(cr->mem);
	free(cr->golden);
	free(cr->scratch);
	free(cr->save_buf);
	cr->save_buf = NULL;
	cr->save_n = 0;
	cr->mem = cr->golden = cr->scratch = NULL;
	cr->scratch_cap = 0;
	cr->gwin_off = cr->gwin_len = 0;
	if (cr->saving)
		aieth__out_abort(&cr->out);
	cr->saving = 0;
	free(cr->save_path);
	cr->save_path = NULL;
}

/* Check a channel against the board and its data, and (open) set up its
 * data for the run. Without open nothing is kept: aieth__rn_prepare() checks every
 * transaction before the device is touched, then each is opened in turn,
 * so memory is that of one transaction, never of all. */
int aieth__rn_chan_open(run_ctx *c, const spec_txn *st, const spec_chan *sc, chan_run *cr, int open)
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
		return aieth__fail_prefix(rc, "%s: %s.plio", what, jp);
	tx = cr->pl.dir == AIETH_DIR_TO_AIE;
	chan_type(sc, cr);
	if (tx && (sc->golden.kind || sc->save.kind || sc->abs_tol > 0 || sc->rel_tol > 0))
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %s: %s sends data to the AIE: \"golden\", \"tolerance\" and "
			"\"save\" belong to FROM_AIE channels",
			what, jp, sc->plio);
	if (!tx && sc->data.kind)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s: %s receives data from the AIE: use \"golden\" for the "
				   "expected data, not \"data\"",
				   what, jp, sc->plio);
	if (sc->have_tiling && !cr->have_etype)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %s.tiling: the element size is unknown: give the %s a \"type\"", what,
			jp, tx ? "data" : "golden data");
	if (st->mode == AIETH_MODE_FUNC && sc->repetition != 1)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %s.repetition: %llu in FUNC mode; replay is only supported in "
			"PERF mode (use 1)",
			what, jp, (unsigned long long)sc->repetition);

	snprintf(w, sizeof w, "%s: %s.%s", what, jp, tx ? "data" : "golden");
	if (sc->have_tiling) {
		/* tiling gathers from / scatters to a whole buffer: kept in memory */
		uint64_t buf_bytes = aieth__tiling_buffer_elems(&sc->tiling) * cr->esize;
		uint64_t stream = aieth__tiling_stream_elems(&sc->tiling) * cr->esize;
		if (sc->have_size && sc->size != stream)
			return aieth__fail(
				AIETH_EINVAL,
				"%s: %s.size: %llu bytes, but the tiling moves %llu elements "
				"of %zu bytes = %llu bytes",
				what, jp, (unsigned long long)sc->size,
				(unsigned long long)(stream / cr->esize), cr->esize,
				(unsigned long long)stream);
		cr->size = stream;
		if ((rc = load_src(c, tx ? &sc->data : &sc->golden, w, (size_t)buf_bytes, &raw,
				   &len)))
			return rc;
		if (raw && len != buf_bytes) {
			free(raw);
			return aieth__fail(
				AIETH_EINVAL,
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
				return aieth__fail(AIETH_ENOMEM, "%s: out of memory", w);
			}
			if (raw)
				aieth__tiling_gather(&sc->tiling, cr->esize, raw, cr->mem);
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
				return aieth__fail(AIETH_ENOMEM, "%s: out of memory", w);
		}
	} else {
		aieth_src *src = tx ? &cr->src : &cr->gsrc;
		rc = open_src(c, tx ? &sc->data : &sc->golden, w, sc->have_size ? sc->size : 0, src,
			      tx ? &cr->fd : &cr->gfd);
		if (rc)
			return rc;
		if (!sc->have_size && src->kind == AIETH_SRC_ZERO)
			return aieth__fail(
				AIETH_EPARSE,
				"%s: %s.size: missing, and there is no %s file to take it "
				"from",
				what, jp, tx ? "data" : "golden");
		cr->size = sc->have_size ? sc->size : src->len;
		if (src->kind != AIETH_SRC_ZERO && src->len != cr->size)
			return aieth__fail(
				AIETH_EINVAL, "%s: has %llu bytes, the channel's size is %llu", w,
				(unsigned long long)src->len, (unsigned long long)cr->size);
		cr->have_golden = !tx && src->kind != AIETH_SRC_ZERO;
		cr->cmp_len = cr->size - cr->size % cr->esize;
	}
	if (cr->size == 0 || cr->size % 16)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s.size: %llu bytes is not a positive multiple of 16 (one "
				   "128-bit beat)",
				   what, jp, (unsigned long long)cr->size);
	if (sc->save.kind == SRC_TEXT && !sc->save.have_type && !cr->have_etype)
		return aieth__fail(AIETH_EINVAL, "%s: %s.save: a text file needs a \"type\"", what,
				   jp);
	/* PERF: the board returns at most the URAM's worth of a channel */
	if (!tx && st->mode == AIETH_MODE_PERF && cr->size > uram &&
	    (sc->golden.kind || sc->save.kind))
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %s.size: %llu bytes in PERF mode, but %s holds %llu bytes "
			"per channel (URAM): the board returns only the last %llu bytes by "
			"position, so \"%s\" cannot be honoured; use FUNC mode, or a size "
			"of at most %llu",
			what, jp, (unsigned long long)cr->size, bi->name, (unsigned long long)uram,
			(unsigned long long)uram, sc->golden.kind ? "golden" : "save",
			(unsigned long long)uram);
	if (!open) {
		aieth__rn_chan_close(cr);
		return AIETH_OK;
	}
	if (!tx && sc->save.kind && !sc->have_tiling && !cr->no_save) {
		cr->save_path = aieth__path_join(c->o && c->o->out_dir ? c->o->out_dir : ".",
						 sc->save.path);
		if (!cr->save_path)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		cr->save_text = sc->save.kind == SRC_TEXT;
		cr->save_type = sc->save.have_type ? sc->save.type : cr->etype;
		/* its folders below --out never through a link (a description's
		 * path: the run's own layout), --out itself as named */
		if (aieth__out_open_below(&cr->out, c->o && c->o->out_dir ? c->o->out_dir : ".",
					  sc->save.path)) {
			cr->save_failed = 1;
			snprintf(cr->save_err, sizeof cr->save_err, "%s", aieth_error_message());
		} else {
			cr->saving = 1;
		}
	}
	/* a large golden file is read windows ahead on a worker (run_ahead.c)
	 * where the RX bytes come at memory speed (a local board); through a
	 * server they come at the network's, the read on the receiving thread
	 * is a small part of its work, and the hand-overs' futex calls would
	 * be more system calls per MiB than before (make bench (e) under
	 * qemu-aarch64: 5.4 -> 5.9). Without one (a pattern, memory, a small
	 * file, no thread, a remote board) rx_take reads each window itself */
	if (cr->have_golden &&
	    (aieth_backend_flags(aieth__rj_gets(c->test, "backend")) & AIETH_BACKEND_LOCAL))
		cr->ahead = aieth__rn_ahead_start(&cr->gsrc, cr->cmp_len, (size_t)GOLD_WINDOW);
	return AIETH_OK;
}

/* ------------------------------------------------------- data streaming */

int aieth__rn_tx_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	chan_run *cr = ctx;
	if (aieth__src_read(&cr->src, off, buf, n)) {
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
	aieth__out_abort(&cr->out);
	cr->saving = 0;
}

/* Saved bytes go out SAVE_BATCH at a time: a remote device hands 16 KiB
 * pieces, and a write per piece was 64 system calls per MiB moved (one
 * copy into the batch instead; a piece of a batch or more is written from
 * where it lies). */
#define SAVE_BATCH ((size_t)1 << 20)

static int save_write(chan_run *cr)
{
	size_t n = cr->save_n;
	cr->save_n = 0;
	return n ? aieth__write_full(cr->out.fd, cr->save_buf, n, cr->save_path) : AIETH_OK;
}

int aieth__rn_rx_save_flush(chan_run *cr)
{
	if (cr->saving && save_write(cr)) {
		save_fail(cr);
		return -1;
	}
	return AIETH_OK;
}

static int save_put(chan_run *cr, const uint8_t *p, size_t n)
{
	if (cr->save_n + n > SAVE_BATCH && save_write(cr))
		return -1;
	if (n >= SAVE_BATCH)
		return aieth__write_full(cr->out.fd, p, n, cr->save_path) ? -1 : 0;
	if (!cr->save_buf && !(cr->save_buf = malloc(SAVE_BATCH))) {
		aieth__fail(AIETH_ENOMEM, "%s: out of memory for %zu bytes", cr->save_path,
			    SAVE_BATCH);
		return -1;
	}
	memcpy(cr->save_buf + cr->save_n, p, n);
	cr->save_n += n;
	return 0;
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
		size_t m = cr->cmp_len - off < n ? (size_t)(cr->cmp_len - off) : n, done = 0;
		while (done < m) {
			uint64_t o = off + done;
			size_t k;
			if (o < cr->gwin_off || o >= cr->gwin_off + cr->gwin_len) {
				/* golden data is read ahead a window at a time: a remote
				 * device hands 16 KiB pieces, and a read per piece was
				 * 128 system calls per MiB (docs/server.md) */
				uint64_t w = cr->cmp_len - o < GOLD_WINDOW ? cr->cmp_len - o
									   : GOLD_WINDOW;
				cr->gwin_off = o;
				cr->gwin_len = 0;
				if (cr->ahead) {
					/* read by the worker while the last was compared */
					cr->gwin = aieth__rn_ahead_get(cr->ahead, o, (size_t)w);
					if (!cr->gwin)
						goto io_fail;
				} else {
					if (!cr->scratch) {
						cr->scratch = malloc(GOLD_WINDOW);
						if (!cr->scratch) {
							aieth__fail(AIETH_ENOMEM,
								    "out of memory for %zu bytes "
								    "of golden data",
								    (size_t)GOLD_WINDOW);
							goto io_fail;
						}
						cr->scratch_cap = GOLD_WINDOW;
					}
					cr->gwin = cr->scratch;
					if (aieth__src_read(&cr->gsrc, o, cr->scratch, (size_t)w))
						goto io_fail;
				}
				cr->gwin_len = w;
			}
			k = m - done;
			if (k > cr->gwin_off + cr->gwin_len - o)
				k = (size_t)(cr->gwin_off + cr->gwin_len - o);
			aieth__compare_more(buf + done, cr->gwin + (o - cr->gwin_off), k, o,
					    cr->etype, cr->abs_tol, cr->rel_tol, &cr->cmp);
			done += k;
		}
	}
	if (cr->saving) {
		if (cr->save_text) {
			char *text = NULL;
			size_t tl = 0;
			if (aieth__text_format(cr->save_type, buf, n, &text, &tl) ||
			    save_put(cr, (const uint8_t *)text, tl))
				save_fail(cr);
			free(text);
		} else if (save_put(cr, buf, n)) {
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
int aieth__rn_rx_zeros(chan_run *cr, uint64_t upto)
{
	static const uint8_t zeros[65536];
	while (cr->hwm < upto) {
		size_t n = upto - cr->hwm < sizeof zeros ? (size_t)(upto - cr->hwm) : sizeof zeros;
		if (rx_take(cr, zeros, n))
			return -1;
	}
	return 0;
}

int aieth__rn_rx_write(void *ctx, uint64_t off, const void *buf, size_t n)
{
	chan_run *cr = ctx;
	if (off < cr->hwm) {
		aieth__fail(AIETH_EINVAL, "received data out of order: byte %llu after byte %llu",
			    (unsigned long long)off, (unsigned long long)cr->hwm);
		cr->io_failed = 1;
		snprintf(cr->io_err, sizeof cr->io_err, "%s", aieth_error_message());
		return -1;
	}
	if (aieth__rn_rx_zeros(cr, off))
		return -1;
	return rx_take(cr, buf, n);
}

/* Check everything that needs the board before the device is touched. */
int aieth__rn_prepare(run_ctx *c)
{
	size_t i, j, k;
	int rc;
	c->cr = calloc(c->sp->ntxns, sizeof *c->cr);
	if (!c->cr)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	for (i = 0; i < c->sp->ntxns; i++) {
		spec_txn *st = &c->sp->txns[i];
		c->cr[i] = calloc(st->nch, sizeof **c->cr);
		if (!c->cr[i])
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		for (j = 0; j < st->nch; j++)
			c->cr[i][j].fd = c->cr[i][j].gfd = -1;
		for (j = 0; j < st->nch; j++) {
			if ((rc = aieth__rn_chan_open(c, st, &st->ch[j], &c->cr[i][j], 0)))
				return rc;
			for (k = 0; k < j; k++)
				if (!strcmp(c->cr[i][k].pl.name, c->cr[i][j].pl.name))
					return aieth__fail(
						AIETH_EINVAL,
						"%s: %s.plio: %s is also %s.plio (one entry "
						"per PLIO)",
						c->sp->path, st->ch[j].jpath, c->cr[i][j].pl.name,
						st->ch[k].jpath);
		}
		for (j = 0; j < st->nlat; j++) {
			const char *ends[2] = {st->lat[j].from, st->lat[j].to};
			int e;
			for (e = 0; e < 2; e++) {
				for (k = 0; k < st->nch; k++)
					if (!strcmp(c->cr[i][k].pl.name, ends[e]))
						break;
				if (k == st->nch)
					return aieth__fail(
						AIETH_EINVAL,
						"%s: %s.max_latency[%zu].%s: %s is not a "
						"channel of this transaction",
						c->sp->path, st->jpath, j, e ? "to" : "from",
						ends[e]);
			}
		}
	}
	return AIETH_OK;
}
