/* SPDX-License-Identifier: MIT */
/*
 * package.c - aieth__package: XSA + compiled graph -> AIE-only
 * xclbin, the open replacement of `v++ -p ... --package.defer_aie_run`
 * with package.generateAiePdi=1 (AMD's cfg/package_aie_only.cfg; UG1076).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/th_package.h"
#include "th_package/bootgen_arch.h"
#include "th_package/libadf.h"
#include "th_package/pdi.h"
#include "th_package/pdi_cache.h"
#include "th_package/pdi_walk.h"
#include "th_package/spawn.h"
#include "th_package/xsa.h"
#include "th_package/xsa_device.h"
#include "util/copy.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/path.h"
#include "xclbin/xclbin_format.h"
#include "xclbin/xclbin_object.h"
#include "xclbin/xclbin_write.h"

/* The header version field holds the writing tool's XRT version; nothing
 * reads it. We write the XRT line of the 2026.1 board images. */
#define PKG_VERSION_MAJOR 2
#define PKG_VERSION_MINOR 23
#define PKG_VERSION_PATCH 0

typedef struct {
	const aieth__package_opts *o;
	aieth__package_result *r;
	char *tmp; /* our scratch directory */
	aieth_xsa_info xsa;
	aieth_graph_inputs graph;
	char *meta_text; /* --aie-metadata text, when given */
	size_t meta_len;
	aieth_aie_meta *meta;
	aieth_pdi_cache cache; /* the PDI cache (cache.dir NULL: not used) */
	char *cached_pdi;      /* a direct-mode hit: the PDI, in tmp */
	uint8_t dkey[32];      /* the direct-mode key (have_dkey) */
	int have_dkey, dkey_settled;
	/* a cache hit is checked as the writer copies it (each byte read
	 * once): its key and the content hash its bytes must have */
	int store_only; /* rebuilding after a damaged entry: no lookups */
	uint8_t hit_key[32];
	aieth_pdi_cache_check check;
	int damaged; /* the hit's bytes did not match: rebuild */
} pkg;

static void progress(const pkg *p, const char *step)
{
	if (p->o->progress)
		p->o->progress(p->o->ctx, step);
}

static int cancelled(const pkg *p) { return p->o->cancel && *p->o->cancel; }

static int interrupted(pkg *p)
{
	p->r->interrupted = 1;
	return aieth__fail(AIETH_ESTATE, "interrupted; nothing written");
}

/* Remove the scratch directory; it holds only files we made (no subdirs). */
static void remove_tmp(pkg *p)
{
	DIR *d;
	struct dirent *de;
	char *f;
	if (!p->tmp)
		return;
	d = opendir(p->tmp);
	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				f = aieth__path_join(p->tmp, de->d_name);
				if (f)
					unlink(f);
				free(f);
			}
		closedir(d);
	}
	rmdir(p->tmp);
	free(p->tmp);
	p->tmp = NULL;
}

static int make_tmp(pkg *p)
{
	const char *base = p->o->tmp_dir;
	char *t;
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base ||
	    strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789/._-+") != strlen(base))
		base = "/tmp"; /* bootgen's BIF cannot name files under other paths */
	t = aieth__path_join(base, "th_package-XXXXXX");
	if (!t)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (!mkdtemp(t)) {
		int rc = aieth__fail(AIETH_EIO, "%s: cannot create a scratch directory: %s", base,
				     strerror(errno));
		free(t);
		return rc;
	}
	p->tmp = t;
	return AIETH_OK;
}

static int lower_contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i, j;
	for (i = 0; hay[i]; i++) {
		for (j = 0; j < n && hay[i + j]; j++)
			if ((hay[i + j] | 0x20) != (needle[j] | 0x20))
				break;
		if (j == n)
			return 1;
	}
	return 0;
}

static int read_xsa(pkg *p)
{
	const aieth_board_info *in = aieth_board_get_info(p->o->board);
	int rc;
	progress(p, "reading the XSA");
	if ((rc = aieth__xsa_read(&p->xsa, p->o->xsa)))
		return rc;
	if (p->xsa.board[0] && !lower_contains(p->xsa.board, in->name))
		return aieth__fail(AIETH_EINVAL,
				   "%s: member xsa.json: board: expected %s (--board), "
				   "found \"%s\"",
				   p->o->xsa, in->name, p->xsa.board);
	if ((rc = aieth__xsa_check_device(&p->xsa, p->o->xsa, p->o->board, p->o->data_dir)))
		return rc;
	if (p->o->vbnv) {
		snprintf(p->r->vbnv, sizeof p->r->vbnv, "%s", p->o->vbnv);
		p->r->vbnv_source = "--vbnv";
	} else if (p->xsa.vbnv[0]) {
		snprintf(p->r->vbnv, sizeof p->r->vbnv, "%s", p->xsa.vbnv);
		p->r->vbnv_source = "XSA xsa.json";
	} else {
		snprintf(p->r->vbnv, sizeof p->r->vbnv, "%s", in->base_platform);
		p->r->vbnv_source = "board file base_platform";
	}
	if (strlen(p->r->vbnv) > 63 || !p->r->vbnv[0])
		return aieth__fail(AIETH_EINVAL, "VBNV \"%s\": expected 1..63 characters",
				   p->r->vbnv);
	if (p->o->id_code >= 0) {
		p->r->id_code = (uint32_t)p->o->id_code;
		p->r->ext_id_code = p->o->ext_id_code >= 0 ? (uint32_t)p->o->ext_id_code
				    : p->xsa.has_id_code   ? p->xsa.ext_id_code
							   : 0x01u;
	} else if (p->xsa.has_id_code) {
		p->r->id_code = p->xsa.id_code;
		p->r->ext_id_code =
			p->o->ext_id_code >= 0 ? (uint32_t)p->o->ext_id_code : p->xsa.ext_id_code;
	} else if (!p->o->pdi) {
		return aieth__fail(AIETH_EINVAL,
				   "%s: no device image (.pdi member with an Image "
				   "Header Table) to take the device IDCODE from; give it with "
				   "--id-code",
				   p->o->xsa);
	}
	return AIETH_OK;
}

static void report_line(void *ctx, const char *line)
{
	const aieth__package_opts *o = ctx;
	if (o->report)
		o->report(o->ctx, line);
}

/* The check of the written file reads the staged copy (a scratch name or
 * the output's temporary name): its lines name the output instead, the
 * file the user asked for. */
typedef struct {
	const aieth__package_opts *o;
	const char *read_as;
} written_ctx;

static void report_written(void *ctx, const char *line)
{
	const written_ctx *w = ctx;
	size_t n = strlen(w->read_as), len;
	char *named;
	if (!w->o->report)
		return;
	len = strlen(w->o->output) + strlen(line + n) + 1;
	if (strncmp(line, w->read_as, n) || line[n] != ':' || !(named = malloc(len))) {
		w->o->report(w->o->ctx, line);
		return;
	}
	snprintf(named, len, "%s%s", w->o->output, line + n);
	w->o->report(w->o->ctx, named);
	free(named);
}

static int read_graph(pkg *p)
{
	const char *text, *what;
	size_t len, n;
	char w[600];
	int rc;
	if (p->o->graph) {
		progress(p, "reading the graph archive");
		/* with a prebuilt PDI the CDOs are only checked, not extracted */
		if ((rc = aieth__graph_read(&p->graph, p->o->graph, p->tmp,
					    !p->o->pdi && !p->cached_pdi)))
			return rc;
	}
	if (p->o->aie_metadata) {
		if ((rc = aieth__read_file(p->o->aie_metadata, AIETH_LIBADF_MAX_JSON, &p->meta_text,
					   &p->meta_len)))
			return rc;
		text = p->meta_text, len = p->meta_len, what = p->o->aie_metadata;
	} else if (p->graph.control_config) {
		text = p->graph.control_config, len = p->graph.control_config_len;
		what = p->graph.control_config_source;
	} else {
		return aieth__fail(AIETH_EINVAL, "no aie_control_config.json: give --libadf or "
						 "--aie-metadata");
	}
	snprintf(w, sizeof w, "%s", what);
	if ((rc = aieth_aie_meta_parse(&p->meta, w, text, len)))
		return rc;
	p->r->num_graphs = aieth_aie_meta_num_graphs(p->meta);
	p->r->num_plios = aieth_aie_meta_num_plios(p->meta);
	if (!p->r->num_graphs)
		return aieth__fail(AIETH_EINVAL,
				   "%s: aie_metadata.graphs: expected at least one "
				   "graph, found none",
				   w);
	/* what XRT's edge parser refuses is refused before anything is
	 * written: the check of the written file's AIE_METADATA, on the input */
	n = aieth__aie_meta_xrt_check(p->meta, w, report_line, (void *)p->o);
	if (n) {
		p->r->problems += n;
		return aieth__fail(AIETH_EINVAL,
				   "%s: XRT's AIE-metadata parser would refuse it (%zu "
				   "problem%s); nothing written",
				   w, n, n == 1 ? "" : "s");
	}
	if (!p->o->no_check) {
		p->r->problems =
			aieth_aie_meta_check(p->meta, p->o->board, report_line, (void *)p->o);
		if (p->r->problems)
			return aieth__fail(AIETH_EINVAL,
					   "%s: the graph's PLIOs do not fit board %s "
					   "(%zu problem%s)",
					   w, aieth_board_get_info(p->o->board)->name,
					   p->r->problems, p->r->problems == 1 ? "" : "s");
	}
	return AIETH_OK;
}

static int check_prebuilt_pdi(pkg *p)
{
	uint32_t id, ext;
	size_t n;
	int rc = aieth__pdi_file_idcode(p->o->pdi, &id, &ext);
	if (rc && rc != AIETH_ENOTFOUND)
		return rc;
	if (rc)
		return aieth__fail(AIETH_EPARSE,
				   "%s: not a PDI (no Image Header Table in its first "
				   "%u bytes)",
				   p->o->pdi, AIETH_PDI_SCAN_BYTES);
	if ((p->o->id_code >= 0 || p->xsa.has_id_code) &&
	    (id != p->r->id_code || ext != p->r->ext_id_code))
		return aieth__fail(AIETH_EINVAL,
				   "%s: IDCODE: expected 0x%08x/0x%02x (%s), found "
				   "0x%08x/0x%02x",
				   p->o->pdi, (unsigned)p->r->id_code, (unsigned)p->r->ext_id_code,
				   p->o->id_code >= 0 ? "--id-code" : p->xsa.pdi_member,
				   (unsigned)id, (unsigned)ext);
	p->r->id_code = id;
	p->r->ext_id_code = ext;
	/* what XRT's PDI loader and the PLM refuse is refused before anything
	 * is written: the check of the written file's PDI section, on the
	 * input; its CDO command streams are walked once, on the bytes copied
	 * into the output (check_pdi_copy), before they replace anything */
	if ((rc = aieth__pdi_file_check(p->o->pdi, p->o->no_check ? NULL : p->o->board,
					AIETH_PDI_NO_WALK, report_line, (void *)p->o, &n)))
		return rc;
	if (n) {
		p->r->problems += n;
		return aieth__fail(AIETH_EINVAL,
				   "%s: the PDI (--pdi) would be refused on the board (%zu "
				   "problem%s); nothing written",
				   p->o->pdi, n, n == 1 ? "" : "s");
	}
	return AIETH_OK;
}

/* Paths bootgen cannot take in a BIF get a symlink with a plain name. */
static int bif_path(pkg *p, aieth_cdo_stage st, char **out)
{
	const char *src = p->graph.cdo[st].path;
	char name[64], *link;
	const char *c;
	for (c = src; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("/._-+", *c)))
			break;
	if (!*c && src[0] == '/') {
		*out = aieth__strdup(src);
		return *out ? AIETH_OK : aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	snprintf(name, sizeof name, "link.%s.bin", aieth__cdo_stage_name(st));
	link = aieth__path_join(p->tmp, name);
	if (!link)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (src[0] != '/') {
		char cwd[4096], *abs;
		if (!getcwd(cwd, sizeof cwd) || !(abs = aieth__path_join(cwd, src))) {
			free(link);
			return aieth__fail(AIETH_EIO, "cannot resolve %s", src);
		}
		if (symlink(abs, link) != 0) {
			free(abs);
			free(link);
			return aieth__fail(AIETH_EIO, "%s: cannot link: %s", src, strerror(errno));
		}
		free(abs);
	} else if (symlink(src, link) != 0) {
		free(link);
		return aieth__fail(AIETH_EIO, "%s: cannot link: %s", src, strerror(errno));
	}
	*out = link;
	return AIETH_OK;
}

static const char *pkg_arch(const pkg *p)
{
	const char *a = aieth_board_get_info(p->o->board)->bootgen_arch;
	return a && *a ? a : "versal";
}

/* A board whose PDIs need another bootgen architecture than versal (the
 * Gen 2 parts: versal_2ve_2vm) gets them only from a bootgen that lists it
 * in `bootgen -help arch`; a first-generation PDI would be refused by the
 * device's firmware. */
static int check_bootgen_arch(pkg *p)
{
	const aieth_board_info *in = aieth_board_get_info(p->o->board);
	const char *tool = p->o->bootgen && *p->o->bootgen ? p->o->bootgen : "bootgen";
	const char *arch = pkg_arch(p);
	char list[512];
	int rc;
	if (!strcmp(arch, "versal"))
		return AIETH_OK;
	progress(p, "asking bootgen for its architectures");
	rc = aieth__bootgen_arch_query(tool, AIETH_BOOTGEN_HELP_TIMEOUT, list, sizeof list);
	if (!rc && aieth__bootgen_arch_listed(list, arch))
		return AIETH_OK;
	p->r->tool_failed = 1;
	if (rc)
		return aieth__fail_prefix(rc, "board %s needs a bootgen with -arch %s", in->name,
					  arch);
	return aieth__fail(
		AIETH_EUNSUPPORTED,
		"board %s (%s) needs PDIs of bootgen architecture %s "
		"(bootgen_arch of its board file), but %s supports only %s (its -help "
		"arch): install AMD's current bootgen (https://github.com/Xilinx/bootgen or "
		"Vitis; Debian's xilinx-bootgen 2022.2 lacks it) and name it with --bootgen "
		"PATH or $BOOTGEN, or give a PDI built for the device with --pdi",
		in->name,
		in->device_part && *in->device_part ? in->device_part : in->aie_generation, arch,
		tool, list[0] ? list : "(none listed)");
}

/* Open the PDI cache; in direct mode (pdi_cache.h) an archive in the state
 * a memo remembers gives its PDI before the graph is read: its CDOs are
 * then neither extracted nor hashed. A memo or entry that does not hold
 * up is a miss, never an error. */
static int cache_direct(pkg *p)
{
	const char *tool = p->o->bootgen && *p->o->bootgen ? p->o->bootgen : "bootgen";
	uint8_t key[32];
	char board[160];
	uint32_t id, ext;
	int found = 0, hit = 0, rc;
	double t0;
	if (!p->o->use_cache || p->o->pdi || !p->o->graph)
		return AIETH_OK;
	if ((rc = aieth__pdi_cache_open(&p->cache, p->o->cache_dir, p->o->cache_max_bytes)))
		return rc;
	snprintf(p->r->cache_dir, sizeof p->r->cache_dir, "%s", p->cache.dir);
	if (p->store_only)
		return AIETH_OK;
	t0 = aieth__pkg_now_s();
	/* the board and the bootgen architecture its file names (bootgen's
	 * -arch, in the full key too) */
	snprintf(board, sizeof board, "%s/%s", aieth_board_get_info(p->o->board)->name,
		 pkg_arch(p));
	p->have_dkey = aieth__pdi_cache_direct_key(p->o->graph, board, tool, p->r->id_code,
						   p->r->ext_id_code, p->dkey,
						   &p->dkey_settled) == AIETH_OK;
	if (p->have_dkey && !aieth__pdi_cache_memo_get(&p->cache, p->dkey, key, &found) && found &&
	    (p->cached_pdi = aieth__path_join(p->tmp, "aie.pdi")) &&
	    (rc = aieth__pdi_cache_take(&p->cache, key, p->cached_pdi, &hit, &p->check)))
		return rc;
	memcpy(p->hit_key, key, 32);
	/* the same read-back check as a PDI bootgen just wrote; an entry that
	 * fails it is damaged (removed) */
	if (hit && (aieth__pdi_file_idcode(p->cached_pdi, &id, &ext) || id != p->r->id_code ||
		    ext != p->r->ext_id_code)) {
		aieth__pdi_cache_drop(&p->cache, key, &p->check);
		hit = 0;
	}
	if (!hit && p->cached_pdi) {
		aieth__pdi_cache_release(&p->check);
		p->check.pending = p->check.trusted = 0;
		unlink(p->cached_pdi);
		free(p->cached_pdi);
		p->cached_pdi = NULL;
	}
	p->r->pdi_from_cache = p->r->cache_direct = hit;
	p->r->cache_seconds = aieth__pkg_now_s() - t0;
	aieth__error_clear();
	return AIETH_OK;
}

static int build_pdi(pkg *p, char **pdi_path)
{
	char *cdos[AIETH_CDO_NUM_STAGES];
	aieth_pdi_build_opts bo;
	aieth_pdi_build_result br;
	size_t n = 0, i;
	int rc = AIETH_OK;
	*pdi_path = NULL;
	if (p->o->pdi) {
		*pdi_path = aieth__strdup(p->o->pdi);
		return *pdi_path ? check_prebuilt_pdi(p)
				 : aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	if (!p->o->graph)
		return aieth__fail(AIETH_EINVAL,
				   "no CDO files: give --libadf, or a prebuilt --pdi");
	if (p->cached_pdi) { /* a direct-mode hit (cache_direct) */
		for (i = 0; i < AIETH_CDO_ENABLE; i++)
			p->r->num_cdos += p->graph.cdo[i].present ? 1u : 0u;
		*pdi_path = p->cached_pdi;
		p->cached_pdi = NULL;
		return AIETH_OK;
	}
	/* deferred AIE start: every stage but the core enable, in load order */
	for (i = 0; i < AIETH_CDO_ENABLE && !rc; i++)
		if (p->graph.cdo[i].present)
			rc = bif_path(p, (aieth_cdo_stage)i, &cdos[n++]);
	p->r->num_cdos = n;
	if (!rc) {
		*pdi_path = aieth__path_join(p->tmp, "aie.pdi");
		if (!*pdi_path)
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = check_bootgen_arch(p);
	if (!rc) {
		progress(p, p->cache.dir ? "running bootgen (or taking the PDI from the cache)"
					 : "running bootgen");
		memset(&bo, 0, sizeof bo);
		bo.arch = pkg_arch(p);
		bo.bootgen = p->o->bootgen;
		bo.work_dir = p->tmp;
		bo.cdos = (const char *const *)cdos;
		bo.num_cdos = n;
		bo.id_code = p->r->id_code;
		bo.ext_id_code = p->r->ext_id_code;
		bo.output = *pdi_path;
		bo.timeout_s = p->o->bootgen_timeout_s == 0 ? AIETH_BOOTGEN_TIMEOUT_DEFAULT
							    : p->o->bootgen_timeout_s;
		bo.cancel = p->o->cancel;
		bo.cache = p->cache.dir ? &p->cache : NULL;
		bo.cache_store_only = p->store_only;
		bo.defer_check = 1;
		rc = aieth__pdi_build(&bo, &br);
		if (!rc && br.from_cache) {
			p->check = br.cache_check;
			memcpy(p->hit_key, br.cache_key, 32);
		}
		p->r->pdi_from_cache = br.from_cache;
		p->r->pdi_cached = br.cache_stored;
		p->r->cache_seconds += br.cache_seconds;
		/* remember the archive's state -> this key (direct mode) */
		if (!rc && br.have_key && p->have_dkey && p->dkey_settled &&
		    aieth__pdi_cache_memo_put(&p->cache, p->dkey, br.cache_key))
			aieth__error_clear(); /* only a shortcut is lost */
		p->r->tool_failed = br.tool_failed;
		p->r->interrupted = br.interrupted;
		p->r->bootgen_seconds = br.seconds;
		p->r->bootgen_maxrss_kib = br.maxrss_kib;
	}
	for (i = 0; i < n; i++)
		free(cdos[i]);
	return rc;
}

static const char *stem(const char *path, char *buf, size_t cap)
{
	const char *b = strrchr(path, '/'), *dot;
	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	snprintf(buf, cap, "%.*s", (int)(dot && dot > b ? (size_t)(dot - b) : strlen(b)), b);
	return buf;
}

/* The cache hit's entry proved damaged (what): removed, so that the
 * package is built again without it; AIETH_EIO naming the cache. */
static int cache_damaged(pkg *p, const char *what)
{
	p->damaged = 1;
	aieth__pdi_cache_drop(&p->cache, p->hit_key, &p->check);
	return aieth__fail(AIETH_EIO, "PDI cache %s: %s: removed", p->cache.dir, what);
}

/* A --pdi input's CDO command streams, walked on its bytes as copied into
 * the written file x (the input was checked without them: check_prebuilt_pdi),
 * each problem naming the input: by the walker beside the copy (wk, when
 * not NULL) if it walked the very range x's table names, else here. */
static int check_pdi_copy(pkg *p, const aieth_xclbin *x, const aieth_pdi_walker *wk)
{
	xb_section_reader r = {x, 0};
	size_t idx, n;
	if (aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_PDI, &idx) || !x->sec[idx].readable)
		return AIETH_OK; /* the check of the written file says so */
	r.base = x->sec[idx].pub.offset;
	if (wk && !aieth__pdi_walk_result(wk, r.base, x->sec[idx].pub.size, &n))
		aieth__pdi_walk_replay(wk, report_line, (void *)p->o);
	else
		n = aieth__pdi_check(aieth__xb_read_section, &r, x->sec[idx].pub.size, p->o->pdi,
				     p->o->no_check ? NULL : p->o->board, report_line, (void *)p->o,
				     x->fd < 0 || x->win ? AIETH_PDI_READ_MEM : 0u);
	if (!n)
		return AIETH_OK;
	p->r->problems += n;
	return aieth__fail(AIETH_EINVAL,
			   "%s: the PDI (--pdi) would be refused on the board (%zu "
			   "problem%s); nothing written",
			   p->o->pdi, n, n == 1 ? "" : "s");
}

static int write_xclbin(pkg *p, aieth_out *out, const char *pdi_path)
{
	const aieth__package_opts *o = p->o;
	xb_wsection s[3];
	xb_wopts w;
	aieth_xclbin *x = NULL;
	aieth_out stage = {-1, NULL, NULL, 0, 0};
	aieth_pdi_walker wk;
	size_t n = 0, problems, pdi_sec;
	char pdi_name[64], *staged = NULL;
	uint8_t pdi_sum[16];
	int rc, beside = 0;

	memset(s, 0, sizeof s);
	s[n].kind = AIETH_XCLBIN_KIND_AIE_METADATA;
	s[n].name = "aie_control_config";
	s[n].data = p->meta_text ? p->meta_text : p->graph.control_config;
	s[n++].size = p->meta_text ? p->meta_len : p->graph.control_config_len;
	s[n].kind = AIETH_XCLBIN_KIND_PDI;
	s[n].name = stem(pdi_path, pdi_name, sizeof pdi_name);
	/* a PDI in our scratch folder (bootgen's, or a cache entry: a link to
	 * it) changes under nobody: mapped; a --pdi file is read */
	s[n].stable = !o->pdi;
	s[n].hash_out = pdi_sum;
	/* a hit its stamp vouches for: the hash its name gives, not hashed */
	s[n].hash_in = p->check.trusted ? p->check.hash : NULL;
	pdi_sec = n;
	s[n++].path = pdi_path;
	if (p->graph.trace_config) {
		s[n].kind = AIETH_XCLBIN_KIND_AIE_TRACE_METADATA;
		s[n].name = "aie_trace_config";
		s[n].data = p->graph.trace_config;
		s[n++].size = p->graph.trace_config_len;
	}
	memset(&w, 0, sizeof w);
	w.sections = s;
	w.num_sections = n;
	w.mode = 0; /* FLAT: the harness platforms are flat */
	w.action_mask = o->action_mask ? o->action_mask : AIETH_XCLBIN_AM_LOAD_AIE;
	w.version_major = PKG_VERSION_MAJOR;
	w.version_minor = PKG_VERSION_MINOR;
	w.version_patch = PKG_VERSION_PATCH;
	w.timestamp = o->timestamp >= 0 ? (uint64_t)o->timestamp : (uint64_t)time(NULL);
	w.vbnv = p->r->vbnv;
	w.uuid = o->uuid;

	progress(p, "writing the xclbin");
	/* the writer seeks (the UUID is written last) and the bytes are checked
	 * before they go out: an output written in place (a device, a FIFO) is
	 * staged in the scratch directory and copied to it once checked */
	if (out->in_place) {
		staged = aieth__path_join(p->tmp, "output.xclbin");
		if (!staged)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		if ((rc = aieth__out_open(&stage, staged))) {
			free(staged);
			return rc;
		}
		stage.no_flush = 1; /* a scratch file: only the output is flushed */
	}
	/* a --pdi input's CDO commands are walked beside the copy, on the
	 * output's bytes as they are written (pdi_walk.h); a walker that
	 * cannot start leaves the walk to check_pdi_copy, after the copy */
	if (o->pdi && !aieth__pdi_walk_start(&wk, o->pdi, o->no_check ? NULL : o->board)) {
		beside = 1;
		s[pdi_sec].gate = wk.gate;
	}
	rc = aieth__xb_write_fd(out->in_place ? stage.fd : out->fd, o->output, &w, p->r->uuid,
				&p->r->size);
	if (beside)
		aieth__pdi_walk_join(&wk);
	/* a cache hit's check, on the bytes just copied; one that holds is
	 * stamped on the entry once the written file passed its check, CDO
	 * command walk included (a later hit need neither hash nor walk it) */
	if (!rc && p->check.pending && memcmp(pdi_sum, p->check.hash, 16))
		rc = cache_damaged(p, "a damaged entry (content hash mismatch)");
	/* a stamped hit, not hashed: its bytes are the checked ones only if
	 * nothing changed the entry while it was copied; one that changed is
	 * taken for damaged (removed, rebuilt) */
	if (!rc && p->check.trusted && !aieth__pdi_cache_unchanged(&p->check))
		rc = cache_damaged(p, "an entry changed while it was read");
	if (!rc && out->in_place)
		rc = aieth__out_commit(&stage);
	if (rc)
		p->r->output_failed = 1;
	if (!rc) {
		/* check the very bytes written, before they replace the target.
		 * Their CDO command streams are walked once: not again for a
		 * --pdi input's (check_pdi_copy walked them, naming the input),
		 * nor for a cache hit its stamp vouches for (walked before the
		 * entry was stamped; docs/packaging.md, "What is checked") */
		written_ctx wc = {o, out->in_place ? staged : out->tmp};
		unsigned walk = o->pdi || p->check.trusted ? AIETH_PDI_NO_WALK : 0u;
		rc = aieth__xclbin_open_own(&x, wc.read_as, AIETH_XCLBIN_LENIENT);
		if (!rc && o->pdi)
			rc = check_pdi_copy(p, x, beside ? &wk : NULL);
		if (!rc) {
			problems = aieth__xclbin_check_flags(x, o->no_check ? NULL : o->board,
							     report_written, &wc, walk);
			p->r->problems += problems;
			if (problems)
				rc = aieth__fail(AIETH_EINVAL,
						 "%s: the written file failed its check "
						 "(%zu problem%s); nothing written",
						 o->output, problems, problems == 1 ? "" : "s");
			if (!rc && p->check.pending)
				aieth__pdi_cache_checked(&p->cache, p->hit_key, &p->check);
			if (!rc && out->in_place &&
			    (rc = aieth__copy_range(x->fd, 0, p->r->size, out->fd, NULL, 0, staged,
						    o->output)))
				p->r->output_failed = 1;
		}
		aieth_xclbin_close(x);
	}
	aieth__out_abort(&stage);
	free(staged);
	if (beside)
		aieth__pdi_walk_free(&wk);
	if (!rc && cancelled(p))
		rc = interrupted(p);
	if (rc)
		return rc;
	aieth_uuid_format(p->r->uuid, p->r->uuid_string);
	rc = aieth__out_commit(out);
	if (rc)
		p->r->output_failed = 1;
	return rc;
}

/* 1 when dir (an existing directory) holds path, at any depth. */
static int dir_holds(const char *dir, const char *path)
{
	char *d = realpath(dir, NULL), *parent = aieth__path_dirname(path), *f = NULL;
	size_t n;
	int in = 0;
	if (d && parent)
		f = realpath(parent, NULL);
	if (d && f) {
		n = strlen(d);
		in = !strncmp(f, d, n) && (f[n] == '/' || f[n] == '\0' || (n == 1 && d[0] == '/'));
	}
	free(d);
	free(parent);
	free(f);
	return in;
}

/* The output must not be one of the inputs: it would replace what it is
 * made from. Compared by device and inode, so hard and symbolic links and
 * other spellings of the same file are caught. */
static int refuse_input_as_output(const aieth__package_opts *o)
{
	const struct {
		const char *path, *what;
	} in[] = {{o->xsa, "the XSA (--xsa)"},
		  {o->graph, "the graph (--libadf)"},
		  {o->pdi, "the PDI (--pdi)"},
		  {o->aie_metadata, "the metadata (--aie-metadata)"}};
	struct stat so, si;
	size_t i;
	if (stat(o->output, &so) != 0)
		return AIETH_OK; /* a new file is no input */
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		if (!in[i].path || stat(in[i].path, &si) != 0)
			continue;
		if (si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			return aieth__fail(AIETH_EINVAL,
					   "output %s is %s %s: refusing to write over "
					   "an input",
					   o->output, in[i].what, in[i].path);
		if (S_ISDIR(si.st_mode) && S_ISREG(so.st_mode) && dir_holds(in[i].path, o->output))
			return aieth__fail(AIETH_EINVAL,
					   "output %s is inside %s %s: refusing to "
					   "write over an input",
					   o->output, in[i].what, in[i].path);
	}
	return AIETH_OK;
}

/* One packaging run; *damaged 1 when a cache hit's bytes turned out not
 * to match their content hash (the entry is removed, nothing written). */
static int package_once(const aieth__package_opts *o, aieth__package_result *r, int store_only,
			int *damaged)
{
	pkg p;
	aieth_out out = {-1, NULL, NULL, 0, 0};
	char *pdi_path = NULL;
	int rc;
	memset(&p, 0, sizeof p);
	p.o = o;
	p.r = r;
	p.store_only = store_only;
	rc = refuse_input_as_output(o);
	if (!rc)
		rc = read_xsa(&p);
	/* the output's directory is tried first: no bootgen run for nothing */
	if (!rc && (rc = aieth__out_open(&out, o->output)) && rc != AIETH_EINVAL)
		r->output_failed = 1;
	/* fsync before the rename only where durability needs it: when the
	 * xclbin replaces a file, which must not be lost to a crash before the
	 * new one is on disk. A new output is not flushed, as cp, ld and the
	 * compilers leave theirs (a crash may lose it; the build reruns);
	 * scratch files and PDI cache entries never are (docs/packaging.md) */
	if (!rc && !out.in_place && access(out.path, F_OK) != 0 && errno == ENOENT)
		out.no_flush = 1;
	if (!rc)
		rc = make_tmp(&p);
	if (!rc && cancelled(&p))
		rc = interrupted(&p);
	if (!rc)
		rc = cache_direct(&p);
	if (!rc)
		rc = read_graph(&p);
	if (!rc && cancelled(&p))
		rc = interrupted(&p);
	if (!rc)
		rc = build_pdi(&p, &pdi_path);
	if (!rc && cancelled(&p))
		rc = interrupted(&p);
	if (!rc)
		rc = write_xclbin(&p, &out, pdi_path);
	if (rc && cancelled(&p))
		r->interrupted = 1;
	aieth__out_abort(&out);
	free(pdi_path);
	free(p.cached_pdi);
	aieth__pdi_cache_release(&p.check);
	aieth__pdi_cache_close(&p.cache);
	remove_tmp(&p);
	aieth__graph_free(&p.graph);
	aieth_aie_meta_free(p.meta);
	free(p.meta_text);
	*damaged = p.damaged;
	if (!rc)
		aieth__error_clear();
	return rc;
}

AIETH__OPTS_INIT_FN(aieth__package_opts, AIETH_PACKAGE_OPTS_INIT, AIETH_PACKAGE_OPTS_VERSION);

int aieth__package(const aieth__package_opts *o, aieth__package_result *r)
{
	int rc, damaged = 0;
	if (!o || !r)
		return aieth__fail(AIETH_EINVAL, "aieth_package: NULL argument");
	memset(r, 0, sizeof *r);
	r->vbnv_source = "";
	/* the versions of aieth__package_opts read here (a new one: raise it) */
	if ((rc = aieth__opts_version("aieth_package_opts", "aieth_package_opts", o->version,
				      AIETH_PACKAGE_OPTS_VERSION)))
		return rc;
	if (!o->board || !o->xsa || !o->output)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_package: board, xsa and output are required");
	if (!o->graph && !(o->pdi && o->aie_metadata))
		return aieth__fail(AIETH_EINVAL,
				   "aieth_package: a graph (libadf.a or Work "
				   "directory) is required, unless both --pdi and --aie-metadata "
				   "are given");
	if (o->action_mask & ~(AIETH_XCLBIN_AM_LOAD_AIE | AIETH_XCLBIN_AM_LOAD_PDI))
		return aieth__fail(AIETH_EINVAL,
				   "action mask 0x%x: expected LOAD_AIE (0x1) and/or "
				   "LOAD_PDI (0x2)",
				   (unsigned)o->action_mask);
	/* XRT takes an xclbin as AIE-only from the LOAD_AIE bit alone (its
	 * xclbin_parser is_aie_only); without it the load goes on to scheduler
	 * set-up and fails ("No xml metadata in xclbin") */
	if (o->action_mask && !(o->action_mask & AIETH_XCLBIN_AM_LOAD_AIE))
		return aieth__fail(AIETH_EINVAL,
				   "action mask 0x%x: an AIE-only xclbin needs LOAD_AIE "
				   "(0x1): XRT takes an xclbin as AIE-only from that bit alone, "
				   "without it the board's load fails (\"No xml metadata in "
				   "xclbin\"); use LOAD_AIE or LOAD_AIE,LOAD_PDI",
				   (unsigned)o->action_mask);
	rc = package_once(o, r, 0, &damaged);
	if (damaged && !r->interrupted) {
		/* the bytes are rebuilt by bootgen, and stored anew */
		memset(r, 0, sizeof *r);
		r->vbnv_source = "";
		rc = package_once(o, r, 1, &damaged);
		r->cache_damaged = 1;
	}
	return rc;
}
