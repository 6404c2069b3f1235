/* SPDX-License-Identifier: MIT */
/*
 * libadf.c - the compiled graph: libadf.a (ar, via libarchive) or an
 * aiecompiler Work/ directory (v++ --aie.workdir, UG1076). CDO names follow
 * aiecompiler: aie.cdo.<stage>.bin (older: aie_cdo_<stage>.bin), and
 * sections .aie.cdo.<stage>.bin inside ELF members. Archive members are
 * streamed to files, never held whole in memory (the ELFs CDO can be tens
 * of MiB); an ELF member is read where it lies in the archive (pread, or
 * the caller's buffer) once its place is confirmed, else spooled.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/libadf.h"
#include "th_package/pdi.h"
#include "util/copy.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

#define AR_CHUNK (1u << 20)
#define AR_MAX_MEMBERS 100000u
#define CONTROL_NAME "aie_control_config.json"
#define TRACE_NAME "aie_trace_config.json"

static const char *const stage_names[AIETH_CDO_NUM_STAGES] = {
	"device.partition.reset",
	"reset",
	"clock.gating",
	"error.handling",
	"elfs",
	"init",
	"enable",
};

const char *aieth__cdo_stage_name(aieth_cdo_stage s)
{
	return (unsigned)s < AIETH_CDO_NUM_STAGES ? stage_names[s] : "?";
}

enum { NOT_CDO = 0, IS_CDO, IS_MERGED };

/* Classify a file or section name; sets *st for a CDO. An aie.cdo.X.bin
 * name with an unknown X is an error: loading CDOs in a guessed order could
 * misconfigure the array. */
static int classify(const char *what, const char *name, aieth_cdo_stage *st, int *kind)
{
	const char *b = name;
	char stage[64];
	size_t n, i;
	*kind = NOT_CDO;
	if (*b == '.')
		b++;
	if (!strcmp(b, "aie.merged.cdo.bin")) {
		*kind = IS_MERGED;
		return AIETH_OK;
	}
	if (strncmp(b, "aie.cdo.", 8) && strncmp(b, "aie_cdo_", 8))
		return AIETH_OK;
	n = strlen(b);
	if (n < 13 || strcmp(b + n - 4, ".bin") || n - 12 >= sizeof stage)
		return AIETH_OK;
	memcpy(stage, b + 8, n - 12);
	stage[n - 12] = '\0';
	for (i = 0; stage[i]; i++)
		if (stage[i] == '_')
			stage[i] = '.';
	for (i = 0; i < AIETH_CDO_NUM_STAGES; i++)
		if (!strcmp(stage, stage_names[i])) {
			*st = (aieth_cdo_stage)i;
			*kind = IS_CDO;
			return AIETH_OK;
		}
	return aieth__fail(AIETH_EPARSE,
			   "%s: %s: unknown AIE CDO stage \"%s\" (known: "
			   "device.partition.reset, reset, clock.gating, error.handling, elfs, "
			   "init, enable)",
			   what, name, stage);
}

static int add_cdo(aieth_graph_inputs *g, aieth_cdo_stage st, const char *source, const char *path,
		   uint64_t size)
{
	aieth_cdo_file *c = &g->cdo[st];
	if (c->present)
		return aieth__fail(AIETH_EPARSE, "%s: the %s CDO appears twice (also in %s)",
				   source, stage_names[st], c->source);
	c->source = aieth__strdup(source);
	c->path = path ? aieth__strdup(path) : NULL;
	if (!c->source || (path && !c->path))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
	c->present = 1;
	c->size = size;
	g->num_cdos++;
	return AIETH_OK;
}

static int set_json(aieth_graph_inputs *g, int trace, const char *source, char *text, size_t len)
{
	char **dst = trace ? &g->trace_config : &g->control_config;
	if (*dst) {
		free(text);
		return aieth__fail(AIETH_EPARSE, "%s: a second %s", source,
				   trace ? TRACE_NAME : CONTROL_NAME);
	}
	*dst = text;
	if (trace) {
		g->trace_config_len = len;
	} else {
		g->control_config_len = len;
		g->control_config_source = aieth__strdup(source);
		if (!g->control_config_source)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
	}
	return AIETH_OK;
}

/* which JSON a file or section name is: 0 none, 1 control, 2 trace */
static int json_kind(const char *name)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	if (strstr(b, "aie_control_config"))
		return 1;
	if (strstr(b, "aie_trace_config"))
		return 2;
	return 0;
}

/* ------------------------------------------------------- ar archives */

typedef struct {
	aieth_graph_inputs *g;
	const char *what;     /* the archive */
	const char *work_dir; /* NULL: write nothing */
	int extract;          /* write the CDOs to work_dir for bootgen */
	const char *member;
	/* the ELF member being read: at base in fd (the archive, or a spool
	 * file) or in mem (the archive in memory, or the member slurped) */
	int fd;
	const uint8_t *mem;
	uint64_t base;
	uint64_t size;
	uint64_t entry_size; /* the member's size as the archive records it */
	unsigned seq;
	int ar_fd;             /* the archive: a regular file, or -1 */
	const uint8_t *ar_mem; /* or in memory (aieth__graph_read_mem) */
	uint64_t ar_size;      /* its size (fstat when opened) */
	uint64_t data_pos;     /* where libarchive says the member's data begins */
} ar_ctx;

static char *stage_file(const ar_ctx *c, aieth_cdo_stage st)
{
	char name[64];
	snprintf(name, sizeof name, "aie.cdo.%s.bin", stage_names[st]);
	return aieth__path_join(c->work_dir, name);
}

static int elf_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	ar_ctx *c = ctx;
	if (off > c->size || n > c->size - off)
		return aieth__fail(AIETH_EPARSE, "%s: member %s: read beyond its end", c->what,
				   c->member);
	if (c->mem) {
		memcpy(buf, c->mem + c->base + off, n);
		return AIETH_OK;
	}
	return aieth__pread_full(c->fd, buf, n, c->base + off, c->base ? c->what : c->member);
}

static int elf_section(void *ctx, const char *name, uint64_t off, uint64_t size)
{
	ar_ctx *c = ctx;
	char source[700], *path = NULL, *text;
	uint8_t head[AIETH_CDO_HEADER_BYTES];
	aieth_cdo_stage st = AIETH_CDO_RESET;
	int kind, jk, rc, out;
	snprintf(source, sizeof source, "%s: member %s section %s", c->what, c->member, name);
	if ((rc = classify(source, name, &st, &kind)))
		return rc;
	if (kind == IS_MERGED) {
		c->g->merged_ignored = 1;
		return AIETH_OK;
	}
	if (kind == IS_CDO) {
		if (size >= AIETH_CDO_HEADER_BYTES && (rc = elf_read(c, off, head, sizeof head)))
			return rc;
		if ((rc = aieth__cdo_check_header(
			     head, size >= AIETH_CDO_HEADER_BYTES ? sizeof head : 0, size, source)))
			return rc;
		if (c->extract) {
			path = stage_file(c, st);
			if (!path)
				return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
			out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
				   0644);
			if (out < 0) {
				rc = aieth__fail(AIETH_EIO, "%s: cannot create: %s", path,
						 strerror(errno));
			} else {
				rc = c->mem ? aieth__write_full(out, c->mem + c->base + off,
								(size_t)size, path)
					    : aieth__copy_range(
						      c->fd, c->base + off, size, out, NULL, 0,
						      c->base ? c->what : c->member, path);
				if (close(out) && !rc)
					rc = aieth__fail(AIETH_EIO, "%s: write error", path);
			}
			if (!rc)
				rc = add_cdo(c->g, st, source, path, size);
			free(path);
			return rc;
		}
		return add_cdo(c->g, st, source, NULL, size);
	}
	jk = json_kind(name);
	if (!jk)
		return AIETH_OK;
	if (size > AIETH_LIBADF_MAX_JSON)
		return aieth__fail(AIETH_EINVAL, "%s: %llu bytes, the limit is %u", source,
				   (unsigned long long)size, AIETH_LIBADF_MAX_JSON);
	text = malloc((size_t)size + 1);
	if (!text)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
	if ((rc = elf_read(c, off, text, (size_t)size))) {
		free(text);
		return rc;
	}
	text[size] = '\0';
	return set_json(c->g, jk == 2, source, text, (size_t)size);
}

static int member_error(struct archive *a, const ar_ctx *c)
{
	return aieth__fail(AIETH_EPARSE, "%s: member %s: cannot read: %s", c->what, c->member,
			   archive_error_string(a) ? archive_error_string(a) : "?");
}

/* Read the rest of the member into memory after the first `have` bytes. */
static int slurp_rest(struct archive *a, ar_ctx *c, uint8_t **buf, size_t have, size_t max,
		      size_t *len)
{
	size_t cap = have + AR_CHUNK;
	uint8_t *b = *buf, *g;
	la_ssize_t r;
	for (;;) {
		if (have + AR_CHUNK > cap) {
			cap = have + AR_CHUNK;
			g = realloc(b, cap + 1);
			if (!g) {
				*buf = b;
				return aieth__fail(AIETH_ENOMEM, "%s: out of memory", c->what);
			}
			b = g;
		}
		r = archive_read_data(a, b + have, AR_CHUNK);
		if (r < 0) {
			*buf = b;
			return member_error(a, c);
		}
		if (r == 0)
			break;
		have += (size_t)r;
		if (have > max) {
			*buf = b;
			return aieth__fail(AIETH_EINVAL,
					   "%s: member %s: larger than the %zu-byte "
					   "limit",
					   c->what, c->member, max);
		}
	}
	b[have] = '\0';
	*buf = b;
	*len = have;
	return AIETH_OK;
}

/* Write the member (first `have` bytes already in buf) to fd. */
static int spool(struct archive *a, ar_ctx *c, uint8_t *buf, size_t have, int fd, const char *path,
		 uint64_t *size)
{
	la_ssize_t r;
	int rc = aieth__write_full(fd, buf, have, path);
	*size = have;
	while (!rc) {
		r = archive_read_data(a, buf, AR_CHUNK);
		if (r < 0)
			return member_error(a, c);
		if (r == 0)
			break;
		*size += (uint64_t)r;
		rc = aieth__write_full(fd, buf, (size_t)r, path);
	}
	return rc;
}

static int fill_first(struct archive *a, ar_ctx *c, uint8_t *buf, size_t want, size_t *have)
{
	la_ssize_t r;
	*have = 0;
	while (*have < want) {
		r = archive_read_data(a, buf + *have, want - *have);
		if (r < 0)
			return member_error(a, c);
		if (r == 0)
			break;
		*have += (size_t)r;
	}
	return AIETH_OK;
}

/* Bytes compared to confirm a member's place in the archive. */
#define PLACE_CHECK 65536u

/* 1 when the member whose first `have` bytes libarchive gave (head) lies
 * whole at c->data_pos in the archive (its bytes there are the same), so
 * it can be read in place: no spool copy. Anything else (a size libarchive
 * does not know, a member that would pass the end, different bytes): 0,
 * and the member is spooled as before. */
static int member_in_place(ar_ctx *c, const uint8_t *head, size_t have)
{
	uint64_t pos = c->data_pos, n = have < PLACE_CHECK ? have : PLACE_CHECK;
	uint8_t *b;
	int same;
	if ((c->ar_fd < 0 && !c->ar_mem) || c->entry_size == UINT64_MAX || pos > c->ar_size ||
	    c->entry_size > c->ar_size - pos || have > c->entry_size ||
	    (have < AR_CHUNK && have != c->entry_size))
		return 0;
	if (c->ar_mem)
		return !memcmp(c->ar_mem + pos, head, (size_t)n);
	b = malloc((size_t)n + 1);
	if (!b)
		return 0;
	same = aieth__pread_full(c->ar_fd, b, (size_t)n, pos, c->what) == AIETH_OK &&
	       !memcmp(b, head, (size_t)n);
	free(b);
	aieth__error_clear();
	return same;
}

static int do_member(struct archive *a, ar_ctx *c, uint8_t **bufp)
{
	const char *b = strrchr(c->member, '/');
	char source[700], *path = NULL;
	aieth_cdo_stage st = AIETH_CDO_RESET;
	size_t have, len;
	uint64_t size;
	int kind, jk, rc, fd;

	b = b ? b + 1 : c->member;
	snprintf(source, sizeof source, "%s: member %s", c->what, c->member);
	if ((rc = classify(source, b, &st, &kind)))
		return rc;
	if (kind == IS_MERGED) {
		c->g->merged_ignored = 1;
		return AIETH_OK;
	}
	jk = json_kind(b);
	/* a CDO that is not extracted needs only its header: the rest is skipped */
	if ((rc = fill_first(a, c, *bufp,
			     kind == IS_CDO && !c->extract ? AIETH_CDO_HEADER_BYTES : AR_CHUNK,
			     &have)))
		return rc;
	if (kind == IS_CDO) {
		/* ar records each member's size: the CDO length word is checked with it */
		if ((rc = aieth__cdo_check_header(*bufp, have, c->entry_size, source)))
			return rc;
		if (!c->extract)
			return add_cdo(c->g, st, source, NULL, c->entry_size);
		path = stage_file(c, st);
		if (!path)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			rc = aieth__fail(AIETH_EIO, "%s: cannot create: %s", path, strerror(errno));
		} else {
			rc = spool(a, c, *bufp, have, fd, path, &size);
			if (close(fd) && !rc)
				rc = aieth__fail(AIETH_EIO, "%s: write error", path);
		}
		if (!rc)
			rc = add_cdo(c->g, st, source, path, size);
		free(path);
		return rc;
	}
	if (jk) {
		uint8_t *text = *bufp;
		*bufp = NULL;
		rc = slurp_rest(a, c, &text, have, AIETH_LIBADF_MAX_JSON, &len);
		if (rc) {
			free(text);
			return rc;
		}
		*bufp = malloc(AR_CHUNK + 1);
		if (!*bufp) {
			free(text);
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
		}
		return set_json(c->g, jk == 2, source, (char *)text, len);
	}
	if (have < 4 || memcmp(*bufp, "\177ELF", 4))
		return AIETH_OK; /* another member (e.g. a host object): not ours */
	if (member_in_place(c, *bufp, have)) {
		c->fd = c->ar_fd;
		c->mem = c->ar_mem;
		c->base = c->data_pos;
		c->size = c->entry_size;
		c->g->elf_in_place++;
		rc = aieth__elf_sections(source, c->size, elf_read, c, elf_section, c);
		c->fd = -1;
		c->mem = NULL;
		c->base = 0;
		return rc;
	}
	if (!c->work_dir) {
		uint8_t *m = *bufp;
		*bufp = NULL;
		rc = slurp_rest(a, c, &m, have, AIETH_LIBADF_MAX_JSON, &len);
		if (!rc) {
			c->fd = -1;
			c->mem = m;
			c->size = len;
			rc = aieth__elf_sections(source, len, elf_read, c, elf_section, c);
			c->mem = NULL;
		}
		free(m);
		*bufp = malloc(AR_CHUNK + 1);
		if (!rc && !*bufp)
			rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
		return rc;
	}
	{
		char name[64];
		snprintf(name, sizeof name, "member%u.o", c->seq++);
		path = aieth__path_join(c->work_dir, name);
	}
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", source);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot create: %s", path, strerror(errno));
	} else {
		rc = spool(a, c, *bufp, have, fd, path, &size);
		if (!rc) {
			c->fd = fd;
			c->size = size;
			rc = aieth__elf_sections(source, size, elf_read, c, elf_section, c);
			c->fd = -1;
		}
		close(fd);
		unlink(path);
	}
	free(path);
	return rc;
}

static int ar_scan(aieth_graph_inputs *g, const char *what, struct archive *a, const char *work_dir,
		   int extract, int ar_fd, const uint8_t *ar_mem, uint64_t ar_size)
{
	struct archive_entry *e;
	ar_ctx c;
	uint8_t *buf = malloc(AR_CHUNK + 1);
	unsigned n = 0;
	int r, rc = AIETH_OK;
	memset(&c, 0, sizeof c);
	c.g = g;
	c.what = what;
	c.work_dir = work_dir;
	c.extract = work_dir && extract;
	c.fd = -1;
	c.ar_fd = ar_fd;
	c.ar_mem = ar_mem;
	c.ar_size = ar_size;
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	for (;;) {
		r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			rc = aieth__fail(AIETH_EPARSE,
					 "%s: cannot read as an ar archive (libadf.a): "
					 "%s",
					 what,
					 archive_error_string(a) ? archive_error_string(a) : "?");
			break;
		}
		if (++n > AR_MAX_MEMBERS) {
			rc = aieth__fail(AIETH_EINVAL, "%s: more than %u members", what,
					 AR_MAX_MEMBERS);
			break;
		}
		/* the bytes libarchive consumed so far: the header (and a BSD
		 * long name), so where the data begins; confirmed before use */
		c.data_pos = archive_filter_bytes(a, 0) >= 0 ? (uint64_t)archive_filter_bytes(a, 0)
							     : UINT64_MAX;
		c.member = archive_entry_pathname(e);
		if (!c.member || !*c.member)
			continue;
		c.entry_size = archive_entry_size_is_set(e) && archive_entry_size(e) >= 0
				       ? (uint64_t)archive_entry_size(e)
				       : UINT64_MAX;
		if ((rc = do_member(a, &c, &buf)))
			break;
	}
	free(buf);
	if (!rc && !n)
		rc = aieth__fail(AIETH_EPARSE, "%s: an empty archive", what);
	return rc;
}

/* ------------------------------------------------------ Work/ dirs */

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int work_cdo(aieth_graph_inputs *g, const char *root, const char *dirname_, const char *name)
{
	char *path = aieth__path_join(dirname_, name), source[1200];
	uint8_t head[AIETH_CDO_HEADER_BYTES];
	aieth_cdo_stage st = AIETH_CDO_RESET;
	struct stat sb;
	int kind, rc, fd;
	ssize_t got;
	(void)root;
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	snprintf(source, sizeof source, "%s", path);
	rc = classify(source, name, &st, &kind);
	if (rc || kind == NOT_CDO) {
		free(path);
		return rc;
	}
	if (kind == IS_MERGED) {
		g->merged_ignored = 1;
		free(path);
		return AIETH_OK;
	}
	/* a FIFO or a device among the CDOs is refused, never waited on */
	if (aieth__open_input(path, &fd, &sb) != AIETH_OK) {
		rc = aieth__fail_prefix(AIETH_EIO, "the graph's CDO files");
	} else {
		got = read(fd, head, sizeof head);
		rc = aieth__cdo_check_header(head, got > 0 ? (size_t)got : 0, (uint64_t)sb.st_size,
					     source);
	}
	if (fd >= 0)
		close(fd);
	if (!rc)
		rc = add_cdo(g, st, source, path, (uint64_t)sb.st_size);
	free(path);
	return rc;
}

static int work_read(aieth_graph_inputs *g, const char *path)
{
	char *root = NULL, *cfg = NULL, *trace = NULL, *cdodir = NULL, *p = NULL;
	DIR *d = NULL;
	struct dirent *de;
	int rc = AIETH_OK;

	p = aieth__path_join(path, "ps/c_rts/" CONTROL_NAME);
	if (p && access(p, F_OK) == 0) {
		root = aieth__strdup(path);
	} else {
		free(p);
		p = aieth__path_join(path, "Work/ps/c_rts/" CONTROL_NAME);
		if (p && access(p, F_OK) == 0)
			root = aieth__path_join(path, "Work");
		else if (p) {
			rc = aieth__fail(AIETH_EPARSE,
					 "%s: not an aiecompiler Work directory: "
					 "ps/c_rts/" CONTROL_NAME " is missing (also under Work/)",
					 path);
			goto out;
		}
	}
	if (!root) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
		goto out;
	}
	cfg = aieth__path_join(root, "ps/c_rts/" CONTROL_NAME);
	trace = aieth__path_join(root, "ps/c_rts/" TRACE_NAME);
	cdodir = aieth__path_join(root, "ps/cdo");
	if (!cfg || !trace || !cdodir) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
		goto out;
	}
	rc = aieth__read_file(cfg, AIETH_LIBADF_MAX_JSON, &g->control_config,
			      &g->control_config_len);
	if (rc)
		goto out;
	g->control_config_source = aieth__strdup(cfg);
	if (access(trace, F_OK) == 0 &&
	    (rc = aieth__read_file(trace, AIETH_LIBADF_MAX_JSON, &g->trace_config,
				   &g->trace_config_len)))
		goto out;
	if (!is_dir(cdodir)) {
		rc = aieth__fail(AIETH_EPARSE, "%s: the CDO directory ps/cdo is missing", root);
		goto out;
	}
	d = opendir(cdodir);
	if (!d) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot read: %s", cdodir, strerror(errno));
		goto out;
	}
	while (!rc && (de = readdir(d)))
		if (de->d_name[0] != '.')
			rc = work_cdo(g, root, cdodir, de->d_name);
out:
	if (d)
		closedir(d);
	free(root);
	free(cfg);
	free(trace);
	free(cdodir);
	free(p);
	return rc;
}

/* ------------------------------------------------------------ entry */

static int finish(aieth_graph_inputs *g, const char *what, int rc)
{
	if (!rc && !g->control_config)
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: no " CONTROL_NAME " found (a member or an ELF "
				 "section; give it with --aie-metadata, or package from the Work "
				 "directory)",
				 what);
	if (!rc && g->num_cdos - (g->cdo[AIETH_CDO_ENABLE].present ? 1u : 0u) == 0)
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: no AIE CDO files found (aie.cdo.<stage>.bin "
				 "members, or .aie.cdo.<stage>.bin sections of an ELF member)",
				 what);
	if (rc)
		aieth__graph_free(g);
	return rc;
}

int aieth__graph_read(aieth_graph_inputs *g, const char *path, const char *work_dir, int extract)
{
	struct archive *a;
	struct stat st;
	int rc, fd = -1;
	memset(g, 0, sizeof *g);
	if (is_dir(path))
		return finish(g, path, work_read(g, path));
	a = archive_read_new();
	if (!a)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	archive_read_support_format_ar(a);
	/* opened by us without blocking: a FIFO is refused before libarchive reads */
	if ((rc = aieth__open_input(path, &fd, &st)))
		rc = aieth__fail_prefix(rc, "the graph archive");
	else if (archive_read_open_fd(a, fd, AR_CHUNK) != ARCHIVE_OK)
		rc = aieth__fail(AIETH_EIO, "%s: cannot open the graph archive: %s", path,
				 archive_error_string(a) ? archive_error_string(a) : "?");
	else
		rc = ar_scan(g, path, a, work_dir, extract, fd, NULL, (uint64_t)st.st_size);
	archive_read_free(a);
	if (fd >= 0)
		close(fd);
	return finish(g, path, rc);
}

int aieth__graph_read_mem(aieth_graph_inputs *g, const char *what, const void *data, size_t len,
			  const char *work_dir)
{
	struct archive *a;
	int rc;
	memset(g, 0, sizeof *g);
	a = archive_read_new();
	if (!a)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	archive_read_support_format_ar(a);
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK)
		rc = aieth__fail(AIETH_EPARSE, "%s: cannot read as an ar archive (libadf.a): %s",
				 what, archive_error_string(a) ? archive_error_string(a) : "?");
	else
		rc = ar_scan(g, what, a, work_dir, 1, -1, data, len);
	archive_read_free(a);
	return finish(g, what, rc);
}

void aieth__graph_free(aieth_graph_inputs *g)
{
	size_t i;
	free(g->control_config);
	free(g->control_config_source);
	free(g->trace_config);
	for (i = 0; i < AIETH_CDO_NUM_STAGES; i++) {
		free(g->cdo[i].path);
		free(g->cdo[i].source);
	}
	memset(g, 0, sizeof *g);
}
