/* SPDX-License-Identifier: MIT */
/* pkg_fixtures.c - synthetic th_package inputs (see pkg_fixtures.h). */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pkg_fixtures.h"

#define CHUNK (1u << 20)

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "pkg_fixtures: %s: %s\n", what, why);
	return -1;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
	p[3] = (uint8_t)(v >> 24);
}

/* ------------------------------------------------------------- text */

typedef struct {
	char *s;
	size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;
	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (b->s && (size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		b->cap = (b->cap + (size_t)k + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

void pf_plio_rename(pf_plio *p, const char *name)
{
	snprintf(p->name_buf, sizeof p->name_buf, "%s", name);
	p->logical = p->name_buf;
}

int pf_graph_for_board(pf_graph *g, const aieth_board *board, size_t pairs)
{
	const aieth_board_info *in = aieth_board_get_info(board);
	aieth_plio bp;
	size_t i;
	int d;
	memset(g, 0, sizeof *g);
	g->graph = "mygraph";
	g->hw_gen = in->aie_hw_gen ? in->aie_hw_gen : !strcmp(in->aie_generation, "AIE") ? 1 : 2;
	g->num_columns = in->aie_columns ? in->aie_columns : 38;
	for (i = 0; i < pairs && g->nplios + 2 <= sizeof g->plios / sizeof g->plios[0]; i++)
		for (d = 0; d < 2; d++) {
			pf_plio *p = &g->plios[g->nplios++];
			if (aieth_board_plio_at(board, d ? AIETH_DIR_FROM_AIE : AIETH_DIR_TO_AIE,
						(uint32_t)i, &bp))
				return fail("board", aieth_error_message());
			pf_plio_rename(p, bp.name);
			snprintf(p->port, sizeof p->port, "%s.%s%zu", g->graph, d ? "out" : "in",
				 i);
			p->from_aie = d;
			p->column = bp.shim_column;
			p->channel = bp.shim_channel;
			p->width = 128;
		}
	return 0;
}

char *pf_control_config(const pf_graph *g)
{
	sbuf b = {NULL, 0, 0};
	size_t i;
	sb_add(&b,
	       "{\n  \"aie_metadata\": {\n    \"driver_config\": {\"hw_gen\": %u, "
	       "\"base_address\": 2199023255552, \"column_shift\": 23, \"row_shift\": 18, "
	       "\"num_columns\": %u, \"num_rows\": 9, \"shim_row\": 0, "
	       "\"mem_tile_row_start\": 0, \"mem_tile_num_rows\": 0, "
	       "\"aie_tile_row_start\": 1, \"aie_tile_num_rows\": 8},\n",
	       g->hw_gen, g->num_columns);
	sb_add(&b, "    \"aiecompiler_options\": {\"broadcast_enable_core\": true, "
		   "\"event_trace\": \"runtime\", \"graph_iterator_event\": false},\n");
	sb_add(&b,
	       "    \"graphs\": {\n      \"graph0\": {\"id\": 0, \"name\": \"%s\", "
	       "\"core_columns\": [10], \"core_rows\": [1], \"iteration_memory_columns\": [10], "
	       "\"iteration_memory_rows\": [1], \"iteration_memory_addresses\": [6132], "
	       "\"multirate_triggers\": [false], \"pl_kernel_instance_names\": [], "
	       "\"pl_axi_lite_modes\": []}\n    },\n",
	       g->graph);
	sb_add(&b, "    \"RTPs\": {},\n    \"GMIOs\": {},\n    \"PLIOs\": {");
	for (i = 0; i < g->nplios; i++) {
		const pf_plio *p = &g->plios[i];
		sb_add(&b,
		       "%s\n      \"plio%zu\": {\"id\": %zu, \"name\": \"%s\", \"logical_name\": "
		       "\"%s\", \"shim_column\": %u, \"stream_id\": %u, \"slaveOrMaster\": %d",
		       i ? "," : "", i, i, p->port, p->logical, p->column, p->channel, p->from_aie);
		if (p->width)
			sb_add(&b, ", \"width_bits\": %u", p->width);
		sb_add(&b, "}");
	}
	sb_add(&b, "\n    }\n  }\n}\n");
	return b.s;
}

/* ------------------------------------------------------------- CDOs */
/* Binary CDO v2: a 5-word header ("CDO\0", version 0x200, length in
 * words, checksum) and commands: one write (module 1, command 3) for the
 * small stages, DMA writes (command 0x105, long form) carrying the payload
 * for the elfs stage. */

#define DMA_WORDS 4096u

typedef int (*pf_sink)(void *ctx, const void *buf, size_t n);

static uint64_t cdo_words(uint64_t payload)
{
	uint64_t data = (payload + 3) / 4, blocks = (data + DMA_WORDS - 1) / DMA_WORDS;
	return payload ? data + blocks * 4 : 3;
}

static uint64_t cdo_bytes(uint64_t payload) { return 20 + 4 * cdo_words(payload); }

typedef struct {
	uint8_t *buf;
	size_t n;
	pf_sink sink;
	void *ctx;
	int rc;
} wbuf;

static void w32(wbuf *w, uint32_t v)
{
	put32(w->buf + w->n, v);
	w->n += 4;
	if (w->n == CHUNK) {
		if (!w->rc)
			w->rc = w->sink(w->ctx, w->buf, w->n);
		w->n = 0;
	}
}

static int cdo_stream(uint64_t payload, uint32_t seed, int corrupt, pf_sink sink, void *ctx)
{
	uint64_t words = cdo_words(payload), left = (payload + 3) / 4, addr = 0x20000000000ull;
	uint32_t h[4] = {4, 0x004f4443u, 0x200u, (uint32_t)words}, i;
	wbuf w = {malloc(CHUNK), 0, sink, ctx, 0};
	if (!w.buf)
		return fail("cdo", "out of memory");
	for (i = 0; i < 4; i++)
		w32(&w, h[i]);
	w32(&w, ~(h[0] + h[1] + h[2] + h[3]) + (corrupt ? 1u : 0u));
	if (!payload) {
		w32(&w, 0x00020103u); /* write: address, value */
		w32(&w, 0xf1230000u + seed);
		w32(&w, seed);
	}
	while (left) {
		uint32_t k = left < DMA_WORDS ? (uint32_t)left : DMA_WORDS;
		w32(&w, 0x00ff0105u); /* DMA write, long form: length, address hi, lo */
		w32(&w, k + 2);
		w32(&w, (uint32_t)(addr >> 32));
		w32(&w, (uint32_t)addr);
		for (i = 0; i < k; i++)
			w32(&w, seed * 2654435761u + i);
		left -= k;
		addr += 4ull * k;
	}
	if (w.n && !w.rc)
		w.rc = sink(ctx, w.buf, w.n);
	free(w.buf);
	return w.rc;
}

static const char *const stages[] = {"reset", "clock.gating", "error.handling",
				     "elfs",  "init",         "enable"};

static uint64_t stage_payload(const pf_graph *g, size_t s)
{
	if (strcmp(stages[s], "elfs"))
		return 0;
	return g->elfs_bytes ? g->elfs_bytes : 4096;
}

static size_t num_stages(const pf_graph *g) { return g->with_enable ? 6 : 5; }

/* ------------------------------------------------------ ELF (sw.o) */
/* ELF64 relocatable: header, section payloads, .shstrtab, section table. */

typedef struct {
	char names[512];
	size_t names_len;
	uint32_t name_off[8];
	uint64_t off[8], size[8];
	size_t n;
	uint64_t shoff, total;
} elf_plan;

static void elf_plan_make(const pf_graph *g, elf_plan *p)
{
	size_t s;
	uint64_t cur = 64;
	memset(p, 0, sizeof *p);
	p->names_len = 1;
	for (s = 0; s < num_stages(g); s++) {
		p->name_off[s] = (uint32_t)p->names_len;
		p->names_len +=
			(size_t)snprintf(p->names + p->names_len, sizeof p->names - p->names_len,
					 ".aie.cdo.%s.bin", stages[s]) +
			1;
		p->off[s] = cur;
		p->size[s] = cdo_bytes(stage_payload(g, s));
		cur += p->size[s];
	}
	p->n = s;
	p->name_off[s] = (uint32_t)p->names_len;
	p->names_len += (size_t)snprintf(p->names + p->names_len, sizeof p->names - p->names_len,
					 ".shstrtab") +
			1;
	p->off[s] = cur;
	p->size[s] = p->names_len;
	cur += p->names_len;
	cur = (cur + 7) & ~7ull;
	p->shoff = cur;
	p->total = cur + 64ull * (p->n + 2);
}

static void put64(uint8_t *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b + 4, (uint32_t)(v >> 32));
}

static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8); }

static int elf_stream(const pf_graph *g, pf_sink sink, void *ctx)
{
	elf_plan p;
	uint8_t h[64], sh[64];
	static const uint8_t pad[8];
	size_t s;
	int rc;
	elf_plan_make(g, &p);
	memset(h, 0, sizeof h);
	memcpy(h, "\177ELF", 4);
	h[4] = 2, h[5] = 1, h[6] = 1;
	put16(h + 16, 1);  /* ET_REL */
	put16(h + 18, 62); /* x86-64: any machine will do */
	put32(h + 20, 1);
	put64(h + 0x28, p.shoff);
	put16(h + 0x34, 64);
	put16(h + 0x3a, 64);
	put16(h + 0x3c, (uint16_t)(p.n + 2));
	put16(h + 0x3e, (uint16_t)(p.n + 1));
	if ((rc = sink(ctx, h, 64)))
		return rc;
	for (s = 0; s < p.n; s++)
		if ((rc = cdo_stream(stage_payload(g, s), (uint32_t)s,
				     g->bad_cdo && !strcmp(stages[s], "init"), sink, ctx)))
			return rc;
	if ((rc = sink(ctx, p.names, p.names_len)))
		return rc;
	if (p.shoff > p.off[p.n] + p.size[p.n] &&
	    (rc = sink(ctx, pad, (size_t)(p.shoff - p.off[p.n] - p.size[p.n]))))
		return rc;
	memset(sh, 0, sizeof sh);
	if ((rc = sink(ctx, sh, 64)))
		return rc;
	for (s = 0; s <= p.n; s++) {
		memset(sh, 0, sizeof sh);
		put32(sh, p.name_off[s]);
		put32(sh + 4, s < p.n ? 1 : 3); /* PROGBITS / STRTAB */
		put64(sh + 0x18, p.off[s]);
		put64(sh + 0x20, p.size[s]);
		put64(sh + 0x30, 1);
		if ((rc = sink(ctx, sh, 64)))
			return rc;
	}
	return 0;
}

/* ---------------------------------------------------- archive output */

static int arc_sink(void *ctx, const void *buf, size_t n)
{
	struct archive *a = ctx;
	if (archive_write_data(a, buf, n) != (la_ssize_t)n)
		return fail("archive", archive_error_string(a));
	return 0;
}

static int arc_begin(struct archive *a, const char *name, uint64_t size)
{
	struct archive_entry *e = archive_entry_new();
	int rc;
	archive_entry_set_pathname(e, name);
	archive_entry_set_size(e, (la_int64_t)size);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_mtime(e, 1700000000, 0);
	rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : fail(name, archive_error_string(a));
	archive_entry_free(e);
	return rc;
}

static int arc_text(struct archive *a, const char *name, const char *text)
{
	size_t n = strlen(text);
	return arc_begin(a, name, n) || arc_sink(a, text, n);
}

static const char trace_json[] = "{\"aie_metadata\": {\"TraceGMIOs\": {}}}\n";

/* GNU ar keeps names longer than 15 characters in a "//" member that must
 * come first; libarchive's writer looks them up there. */
static int arc_long_names(struct archive *a, const pf_graph *g)
{
	char tab[1024];
	size_t n = 0, s;
	n += (size_t)snprintf(tab + n, sizeof tab - n,
			      "aie_control_config.json/\n"
			      "aie_trace_config.json/\n");
	for (s = 0; s < num_stages(g); s++)
		n += (size_t)snprintf(tab + n, sizeof tab - n, "aie.cdo.%s.bin/\n", stages[s]);
	return arc_begin(a, "//", n) || arc_sink(a, tab, n);
}

int pf_write_libadf(const char *path, const pf_graph *g)
{
	struct archive *a = archive_write_new();
	char name[64], *cfg = NULL;
	size_t s;
	int rc = 0;
	archive_write_set_format_ar_svr4(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK) {
		rc = fail(path, archive_error_string(a));
		goto out;
	}
	if ((rc = arc_long_names(a, g)))
		goto out;
	/* a host object and a hw.o without CDOs, as in a real libadf.a */
	if ((rc = arc_text(a, "graph.o", "not an ELF: ignored\n")))
		goto out;
	if (!g->no_control) {
		cfg = pf_control_config(g);
		if ((rc = arc_text(a, "aie_control_config.json", cfg)))
			goto out;
	}
	if (g->with_trace && (rc = arc_text(a, "aie_trace_config.json", trace_json)))
		goto out;
	if (g->elf) {
		elf_plan p;
		elf_plan_make(g, &p);
		if ((rc = arc_begin(a, "sw.o", p.total)) || (rc = elf_stream(g, arc_sink, a)))
			goto out;
	} else {
		for (s = 0; s < num_stages(g); s++) {
			snprintf(name, sizeof name, "aie.cdo.%s.bin", stages[s]);
			if ((rc = arc_begin(a, name, cdo_bytes(stage_payload(g, s)))) ||
			    (rc = cdo_stream(stage_payload(g, s), (uint32_t)s,
					     g->bad_cdo && !strcmp(stages[s], "init"), arc_sink,
					     a)))
				goto out;
		}
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		rc = fail(path, archive_error_string(a));
out:
	archive_write_free(a);
	free(cfg);
	return rc;
}

static int file_sink(void *ctx, const void *buf, size_t n)
{
	return fwrite(buf, 1, n, ctx) == n ? 0 : fail("file", strerror(errno));
}

static int write_text_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc;
	if (!f)
		return fail(path, strerror(errno));
	rc = file_sink(f, text, strlen(text));
	return fclose(f) || rc ? fail(path, "write error") : 0;
}

static int mkdirs(const char *path)
{
	char p[4096], *s;
	snprintf(p, sizeof p, "%s", path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				return fail(p, strerror(errno));
			*s = '/';
		}
	return mkdir(p, 0755) && errno != EEXIST ? fail(p, strerror(errno)) : 0;
}

int pf_write_workdir(const char *dir, const pf_graph *g)
{
	char p[4096], *cfg;
	size_t s;
	FILE *f;
	int rc;
	snprintf(p, sizeof p, "%s/ps/c_rts", dir);
	if (mkdirs(p))
		return -1;
	snprintf(p, sizeof p, "%s/ps/cdo", dir);
	if (mkdirs(p))
		return -1;
	cfg = pf_control_config(g);
	snprintf(p, sizeof p, "%s/ps/c_rts/aie_control_config.json", dir);
	rc = g->no_control ? 0 : write_text_file(p, cfg);
	free(cfg);
	snprintf(p, sizeof p, "%s/ps/c_rts/aie_trace_config.json", dir);
	if (!rc && g->with_trace)
		rc = write_text_file(p, trace_json);
	for (s = 0; s < num_stages(g) && !rc; s++) {
		snprintf(p, sizeof p, "%s/ps/cdo/aie.cdo.%s.bin", dir, stages[s]);
		f = fopen(p, "wb");
		if (!f)
			return fail(p, strerror(errno));
		rc = cdo_stream(stage_payload(g, s), (uint32_t)s,
				g->bad_cdo && !strcmp(stages[s], "init"), file_sink, f);
		if (fclose(f))
			rc = fail(p, "write error");
	}
	return rc;
}

/* ------------------------------------------------------------- XSA */

/* A partial PDI header: width detection words, then an Image Header Table
 * whose IDCODE is the device's (layout: XRT's aie-pdi-transform load_pdi.h). */
static void fake_pdi(uint8_t b[0x90], uint32_t id, uint32_t ext)
{
	uint8_t *t = b + 0x10;
	uint32_t sum = 0;
	size_t k;
	memset(b, 0, 0x90);
	put32(b, 0xdd);
	put32(b + 4, 0x11223344);
	put32(b + 8, 0x55667788);
	put32(b + 12, 0x99aabbcc);
	put32(t, 0x00040000);
	put32(t + 0x18, id);
	memcpy(t + 0x28, "IDPP", 4);
	put32(t + 0x44, ext);
	for (k = 0; k < 0x7c; k += 4)
		sum += (uint32_t)t[k] | (uint32_t)t[k + 1] << 8 | (uint32_t)t[k + 2] << 16 |
		       (uint32_t)t[k + 3] << 24;
	put32(t + 0x7c, ~sum);
}

int pf_write_xsa(const char *path, const pf_xsa *x)
{
	struct archive *a = archive_write_new();
	char json[1024];
	uint8_t pdi[0x90];
	int rc = 0;
	archive_write_set_format_zip(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK) {
		rc = fail(path, archive_error_string(a));
		goto out;
	}
	if (x->json_text)
		snprintf(json, sizeof json, "%s", x->json_text);
	else
		snprintf(
			json, sizeof json,
			"{\n  \"name\": \"%s_test_harness\",\n  \"board\": \"%s\",\n"
			"%s%s%s%s%s%s  \"platformState\": \"impl\",\n"
			"  \"files\": [{\"name\": \"%s_test_harness.hwh\", \"type\": \"TOP_BD\"}]\n}\n",
			x->board, x->board, x->vbnv ? "  \"platformVBNV\": \"" : "",
			x->vbnv ? x->vbnv : "", x->vbnv ? "\",\n" : "",
			x->part ? "  \"part\": \"" : "", x->part ? x->part : "",
			x->part ? "\",\n" : "", x->board);
	if (!(x->omit && !strcmp(x->omit, "xsa.json")) && (rc = arc_text(a, "xsa.json", json)))
		goto out;
	if (!(x->omit && !strcmp(x->omit, "xsa.xml")) &&
	    (rc = arc_text(a, "xsa.xml", "<?xml version=\"1.0\"?>\n<Xsa/>\n")))
		goto out;
	if (!(x->omit && !strcmp(x->omit, "sysdef.xml")) &&
	    (rc = arc_text(a, "sysdef.xml",
			   "<?xml version=\"1.0\"?>\n<Project>\n  <File "
			   "Type=\"HW_HANDOFF\" Name=\"design.hwh\" BD_TYPE=\"DEFAULT_BD\"/>\n"
			   "</Project>\n")))
		goto out;
	if ((rc = arc_text(a, "design.hwh", "<MODULES/>\n")))
		goto out;
	if (!x->no_pdi) {
		fake_pdi(pdi, x->id_code, x->ext_id_code);
		if ((rc = arc_begin(a, "design.pdi", sizeof pdi)) ||
		    (rc = arc_sink(a, pdi, sizeof pdi)))
			goto out;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		rc = fail(path, archive_error_string(a));
out:
	archive_write_free(a);
	return rc;
}

/* ------------------------------------------------- standard fixtures */

uint32_t pf_board_id_code(const aieth_board_info *in)
{
	return in->has_device_id_code ? in->device_id_code : PF_IDCODE_FIXTURE;
}

int pf_write_standard(const char *dir, const char *board_name, const char *data_dir)
{
	aieth_board *board;
	const aieth_board_info *in;
	pf_graph g, v;
	pf_xsa x;
	char p[4096], *cfg, part[160];
	size_t i;
	int rc = 0;
	if (aieth_board_load(&board, board_name, data_dir))
		return fail(board_name, aieth_error_message());
	in = aieth_board_get_info(board);
	if (mkdirs(dir) || pf_graph_for_board(&g, board, 4)) {
		aieth_board_free(board);
		return -1;
	}
	memset(&x, 0, sizeof x);
	x.board = in->name;
	x.id_code = pf_board_id_code(in);
	x.ext_id_code = 0x01;
	snprintf(part, sizeof part, "%s-fixture-2MP-e-S", in->device_part);
	x.part = in->device_part[0] ? part : NULL;
#define OUT(name) (snprintf(p, sizeof p, "%s/%s", dir, name), p)
	rc |= pf_write_xsa(OUT("harness.xsa"), &x);
	x.omit = "xsa.json";
	rc |= pf_write_xsa(OUT("no_json.xsa"), &x);
	x.omit = NULL;
	x.json_text = "{\"name\": \"x\", \"name\": \"y\"}";
	rc |= pf_write_xsa(OUT("bad_json.xsa"), &x);
	x.json_text = NULL;
	x.no_pdi = 1;
	rc |= pf_write_xsa(OUT("no_pdi.xsa"), &x);
	x.no_pdi = 0;
	x.board = !strcmp(in->name, "vck190") ? "vek280" : "vck190";
	rc |= pf_write_xsa(OUT("other_board.xsa"), &x);
	x.board = in->name;
	/* the board's name but another device: a part, an IDCODE */
	x.part = !strcmp(in->device_part, "xcvc1902") ? "xcve2802-vsvh1760-2MP-e-S"
						      : "xcvc1902-vsva2197-2MP-e-S";
	rc |= pf_write_xsa(OUT("other_part.xsa"), &x);
	x.part = NULL;
	x.id_code = in->has_device_id_code ? PF_IDCODE_FIXTURE : PF_IDCODE_VC1902;
	rc |= pf_write_xsa(OUT("other_device.xsa"), &x);
	x.id_code = pf_board_id_code(in);
	x.part = in->device_part[0] ? part : NULL;
	x.vbnv = "xilinx_custom_platform_1_0";
	rc |= pf_write_xsa(OUT("vbnv.xsa"), &x);

	rc |= pf_write_libadf(OUT("libadf.a"), &g);
	rc |= pf_write_workdir(OUT("Work"), &g);
	cfg = pf_control_config(&g);
	rc |= write_text_file(OUT("aie_control_config.json"), cfg);
	free(cfg);
	v = g, v.elf = 1, v.with_enable = 1, v.with_trace = 1;
	rc |= pf_write_libadf(OUT("libadf_elf.a"), &v);
	v = g, v.with_enable = 1;
	rc |= pf_write_libadf(OUT("enable.a"), &v);
	v = g, v.no_control = 1;
	rc |= pf_write_libadf(OUT("no_control.a"), &v);
	v = g, v.bad_cdo = 1;
	rc |= pf_write_libadf(OUT("bad_cdo.a"), &v);
	v = g;
	pf_plio_rename(&v.plios[0], "DataIn1");
	rc |= pf_write_libadf(OUT("bad_name.a"), &v);
	v = g, v.plios[2].width = 64;
	rc |= pf_write_libadf(OUT("width64.a"), &v);
	v = g, v.plios[1].column += 1;
	rc |= pf_write_libadf(OUT("wrong_column.a"), &v);
	v = g, v.plios[3].channel ^= 1;
	rc |= pf_write_libadf(OUT("wrong_channel.a"), &v);
	v = g, v.plios[0].from_aie = 1;
	rc |= pf_write_libadf(OUT("wrong_dir.a"), &v);
	v = g, v.hw_gen = v.hw_gen == 1 ? 2 : 1;
	rc |= pf_write_libadf(OUT("wrong_hw_gen.a"), &v);
	/* one TO_AIE PLIO more than the board has: PLIO_(N+1)_TO_AIE */
	pf_graph_for_board(&v, board, in->channels);
	{
		pf_plio *q = &v.plios[v.nplios++];
		char nm[32];
		*q = v.plios[v.nplios - 3];
		snprintf(nm, sizeof nm, "PLIO_%02u_TO_AIE", (unsigned)in->channels + 1);
		pf_plio_rename(q, nm);
		snprintf(q->port, sizeof q->port, "%s.extra", v.graph);
	}
	rc |= pf_write_libadf(OUT("too_many.a"), &v);
	/* the same PLIO used by two ports */
	v = g;
	v.plios[v.nplios] = v.plios[0];
	pf_plio_rename(&v.plios[v.nplios], v.plios[0].logical);
	snprintf(v.plios[v.nplios++].port, sizeof v.plios[0].port, "%s.dup", v.graph);
	rc |= pf_write_libadf(OUT("dup_plio.a"), &v);
	for (i = 0; i < 1; i++) {
		FILE *f = fopen(OUT("not_an_archive.a"), "w");
		if (!f || fputs("this is not an ar archive\n", f) < 0 || fclose(f))
			rc = -1;
	}
#undef OUT
	aieth_board_free(board);
	return rc ? -1 : 0;
}
