/* SPDX-License-Identifier: MIT */
/*
 * xclbin_read.c - the strict xclbin reader. Only the header and the
 * section table are read at open; payloads are read on demand. Every rule
 * of the format (XRT's xclbin.h, zocl's zocl_xclbin.c) that XRT or zocl relies on is
 * checked here, because Debian's XRT checks only the magic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/path.h"
#include "util/text.h"
#include "xclbin/xclbin_format.h"
#include "xclbin/xclbin_object.h"

static void problem(aieth_xclbin *x, const char *fmt, ...) AIETH_PRINTF(2, 3);

static void problem(aieth_xclbin *x, const char *fmt, ...)
{
	char line[1024];
	char **grown;
	va_list ap;
	int n;
	if (x->nprob >= XB_MAX_PROBLEMS) {
		x->dropped++;
		return;
	}
	n = snprintf(line, sizeof line, "%s: ", x->path);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	grown = realloc(x->problems, (x->nprob + 1) * sizeof *grown);
	if (!grown)
		return; /* out of memory: the problem count is then a lower bound */
	x->problems = grown;
	x->problems[x->nprob] = aieth__strdup(line);
	if (x->problems[x->nprob])
		x->nprob++;
}

/* n bytes at off from the window, mapped there when it does not hold
 * them; -1: not from a mapping (too large a read, a mapping refused). The
 * window lies inside the file's size, which a file of ours keeps. */
static int window_read(const aieth_xclbin *x, void *buf, size_t n, uint64_t off)
{
	xb_window *w = x->win;
	long pg = sysconf(_SC_PAGESIZE);
	void *m;
	if (!n)
		return 0;
	if (w->failed || n > XB_WINDOW_BYTES / 2 || pg <= 0)
		return -1;
	if (!w->map || off < w->base || off + n > w->base + w->len) {
		if (w->map)
			munmap((void *)w->map, (size_t)w->len);
		w->map = NULL;
		w->base = off / (uint64_t)pg * (uint64_t)pg;
		w->len = x->size - w->base < XB_WINDOW_BYTES ? x->size - w->base : XB_WINDOW_BYTES;
		m = mmap(NULL, (size_t)w->len, PROT_READ, MAP_SHARED, x->fd, (off_t)w->base);
		if (m == MAP_FAILED) {
			w->failed = 1;
			return -1;
		}
		w->map = m;
	}
	memcpy(buf, w->map + (off - w->base), n);
	return 0;
}

int aieth__xb_read_at(const aieth_xclbin *x, void *buf, size_t n, uint64_t off)
{
	if (off > x->size || n > x->size - off)
		return aieth__fail(AIETH_EPARSE,
				   "%s: %zu bytes at offset %llu lie beyond the end "
				   "of the file (%llu bytes)",
				   x->path, n, (unsigned long long)off,
				   (unsigned long long)x->size);
	if (x->fd < 0) {
		memcpy(buf, x->mem + off, n);
		return AIETH_OK;
	}
	if (x->win && !window_read(x, buf, n, off))
		return AIETH_OK;
	return aieth__pread_full(x->fd, buf, n, off, x->path);
}

int aieth__xb_read_section(void *ctx, void *buf, size_t n, uint64_t off)
{
	const xb_section_reader *r = ctx;
	return aieth__xb_read_at(r->x, buf, n, r->base + off);
}

void aieth__xb_section_label(const aieth_xclbin_section *s, size_t i, char *buf, size_t cap)
{
	if (s->kind <= XB_KIND_MAX)
		snprintf(buf, cap, "section %zu (%s \"%s\")", i, s->kind_name, s->name);
	else
		snprintf(buf, cap, "section %zu (kind %u \"%s\")", i, (unsigned)s->kind, s->name);
}

/* Copy a fixed-size string field; 0 when it has no NUL. */
static int copy_field(char *dst, const uint8_t *src, size_t cap)
{
	const uint8_t *nul = memchr(src, 0, cap);
	size_t n = nul ? (size_t)(nul - src) : cap;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return nul != NULL;
}

static void decode_header(aieth_xclbin *x, const uint8_t *p)
{
	aieth_xclbin_header *h = &x->hdr;
	char esc[48];
	memcpy(h->magic, p, 8);
	h->magic[8] = '\0';
	if (memcmp(p, XB_MAGIC, 8) != 0) {
		aieth__quote(esc, sizeof esc, p, 8);
		problem(x, "magic: expected \"xclbin2\\x00\", found \"%s\"", esc);
	}
	h->signature_length = (int32_t)aieth__le32_get(p + XB_OFF_SIGLEN);
	h->unique_id = aieth__le64_get(p + XB_OFF_UNIQUE_ID);
	h->length = aieth__le64_get(p + XB_OFF_LENGTH);
	h->file_size = x->size;
	h->timestamp = aieth__le64_get(p + XB_OFF_TIMESTAMP);
	h->feature_rom_timestamp = aieth__le64_get(p + XB_OFF_FROM_TS);
	h->version_patch = aieth__le16_get(p + XB_OFF_VPATCH);
	h->version_major = p[XB_OFF_VMAJOR];
	h->version_minor = p[XB_OFF_VMINOR];
	h->mode = aieth__le16_get(p + XB_OFF_MODE);
	h->action_mask = aieth__le16_get(p + XB_OFF_ACTION);
	memcpy(h->interface_uuid, p + XB_OFF_IF_UUID, 16);
	memcpy(h->uuid, p + XB_OFF_UUID, 16);
	h->num_sections = aieth__le32_get(p + XB_OFF_NUM_SECTIONS);
	aieth_uuid_format(h->uuid, x->uuid_str);
	if (!copy_field(h->vbnv, p + XB_OFF_VBNV, 64))
		problem(x, "m_platformVBNV: expected a NUL within its 64 bytes, found none");
	if (!copy_field(h->debug_bin, p + XB_OFF_DEBUG_BIN, 16))
		problem(x, "m_debug_bin: expected a NUL within its 16 bytes, found none");

	if (h->length != x->size)
		problem(x, "m_length: expected %llu (the file size), found %llu",
			(unsigned long long)x->size, (unsigned long long)h->length);
	if (h->mode > XB_MODE_MAX)
		problem(x, "m_mode: expected 0..%u (FLAT..HW_EMU_PR), found %u", XB_MODE_MAX,
			(unsigned)h->mode);
	if (h->signature_length < -1 ||
	    (h->signature_length > 0 && (uint64_t)h->signature_length > x->size - XB_PREFIX))
		problem(x,
			"m_signature_length: expected -1 (unsigned) or a size within the file, "
			"found %ld",
			(long)h->signature_length);
	if (h->num_sections < 1 || h->num_sections > XB_MAX_SECTIONS)
		problem(x, "m_numSections: expected 1..%u, found %u", XB_MAX_SECTIONS,
			(unsigned)h->num_sections);
}

typedef struct {
	uint32_t kind;
	unsigned hdr;         /* bytes before the array */
	unsigned count_bytes; /* 2 or 4: width of the signed count (2 for debug ip: unsigned) */
	int count_signed;
	unsigned elem;
	const char *count_name;
} array_rule;

/* zocl and xclbinutil require these exact sizes (header + count x element). */
static const array_rule array_rules[] = {
	{XB_KIND_MEM_TOPOLOGY, 8, 4, 1, 40, "m_count"},
	{XB_KIND_GROUP_TOPOLOGY, 8, 4, 1, 40, "m_count"},
	{XB_KIND_CONNECTIVITY, 4, 4, 1, 12, "m_count"},
	{XB_KIND_GROUP_CONNECTIVITY, 4, 4, 1, 12, "m_count"},
	{XB_KIND_IP_LAYOUT, 8, 4, 1, 80, "m_count"},
	{XB_KIND_DEBUG_IP_LAYOUT, 8, 2, 0, 144, "m_count"},
	{XB_KIND_CLOCK_FREQ_TOPOLOGY, 2, 2, 1, 136, "m_count"},
};

static void check_array(aieth_xclbin *x, const xb_section *s, size_t i)
{
	const array_rule *r = NULL;
	uint8_t b[4];
	int64_t count;
	uint64_t want;
	char label[96];
	size_t k;
	const char *sname;
	unsigned fixed = aieth__xb_kind_fixed_header(s->pub.kind, &sname);
	for (k = 0; k < sizeof array_rules / sizeof array_rules[0]; k++)
		if (array_rules[k].kind == s->pub.kind)
			r = &array_rules[k];
	if (fixed && s->pub.size < fixed) {
		aieth__xb_section_label(&s->pub, i, label, sizeof label);
		problem(x,
			"%s: size: expected at least %u bytes (%s in XRT's xclbin.h), found "
			"%llu",
			label, fixed, sname, (unsigned long long)s->pub.size);
	}
	if (!r)
		return;
	aieth__xb_section_label(&s->pub, i, label, sizeof label);
	if (s->pub.size < r->hdr) {
		problem(x, "%s: size: expected at least %u (the %s header), found %llu", label,
			r->hdr, r->count_name, (unsigned long long)s->pub.size);
		return;
	}
	if (aieth__xb_read_at(x, b, r->count_bytes, s->pub.offset))
		return;
	if (r->count_bytes == 4)
		count = (int32_t)aieth__le32_get(b);
	else if (r->count_signed)
		count = (int16_t)aieth__le16_get(b);
	else
		count = aieth__le16_get(b);
	if (count < 0) {
		problem(x, "%s: %s: expected a count >= 0, found %lld", label, r->count_name,
			(long long)count);
		return;
	}
	want = r->hdr + (uint64_t)count * r->elem;
	if (s->pub.size != want)
		problem(x, "%s: size: expected %llu (%u + %lld x %u for %s %lld), found %llu",
			label, (unsigned long long)want, r->hdr, (long long)count, r->elem,
			r->count_name, (long long)count, (unsigned long long)s->pub.size);
}

static int by_offset(const void *a, const void *b)
{
	const xb_section *const *x = a, *const *y = b;
	if ((*x)->pub.offset != (*y)->pub.offset)
		return (*x)->pub.offset < (*y)->pub.offset ? -1 : 1;
	return (*x)->pub.size < (*y)->pub.size ? -1 : (*x)->pub.size > (*y)->pub.size;
}

static void check_overlaps(aieth_xclbin *x)
{
	const xb_section **v;
	size_t i, n = 0;
	char la[96], lb[96];
	v = malloc((x->nsec ? x->nsec : 1) * sizeof *v);
	if (!v)
		return;
	for (i = 0; i < x->nsec; i++)
		if (x->sec[i].readable && x->sec[i].pub.size)
			v[n++] = &x->sec[i];
	qsort(v, n, sizeof *v, by_offset);
	for (i = 1; i < n; i++) {
		const xb_section *a = v[i - 1], *b = v[i];
		if (b->pub.offset < a->pub.offset + a->pub.size) {
			aieth__xb_section_label(&a->pub, (size_t)(a - x->sec), la, sizeof la);
			aieth__xb_section_label(&b->pub, (size_t)(b - x->sec), lb, sizeof lb);
			problem(x,
				"%s: offset: expected %llu or more (after %s, which ends there), "
				"found %llu: the sections overlap",
				lb, (unsigned long long)(a->pub.offset + a->pub.size), la,
				(unsigned long long)b->pub.offset);
		}
	}
	free(v);
}

static int read_table(aieth_xclbin *x)
{
	uint64_t n = x->hdr.num_sections, fit, table_end, end;
	uint8_t *t;
	size_t i;
	char label[96];

	fit = (x->size - XB_PREFIX) / XB_SECTION_HDR;
	if (n > fit) {
		problem(x,
			"section table: expected the file to hold %llu entries (%llu bytes), "
			"found room for %llu (file size %llu)",
			(unsigned long long)n, (unsigned long long)(XB_PREFIX + n * XB_SECTION_HDR),
			(unsigned long long)fit, (unsigned long long)x->size);
		n = fit;
	} else if (n && XB_AXLF_STRUCT + n * XB_SECTION_HDR > x->size) {
		/* zocl and XRT compute with sizeof(struct axlf) = 496 */
		problem(x,
			"section table: expected the file to be at least %llu bytes "
			"(496 + 40 x %llu, as XRT and zocl compute it), found %llu",
			(unsigned long long)(XB_AXLF_STRUCT + n * XB_SECTION_HDR),
			(unsigned long long)n, (unsigned long long)x->size);
	}
	if (n > XB_MAX_SECTIONS)
		n = XB_MAX_SECTIONS;
	table_end = XB_PREFIX + n * XB_SECTION_HDR;
	if (!n)
		return AIETH_OK;
	t = malloc((size_t)n * XB_SECTION_HDR);
	x->sec = calloc((size_t)n, sizeof *x->sec);
	if (!t || !x->sec) {
		free(t);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", x->path);
	}
	if (aieth__xb_read_at(x, t, (size_t)n * XB_SECTION_HDR, XB_PREFIX)) {
		free(t);
		return AIETH_EIO;
	}
	x->nsec = (size_t)n;
	for (i = 0; i < x->nsec; i++) {
		xb_section *s = &x->sec[i];
		const uint8_t *h = t + i * XB_SECTION_HDR;
		s->pub.kind = aieth__le32_get(h + XB_SH_KIND);
		s->pub.kind_name = aieth_xclbin_kind_name(s->pub.kind);
		copy_field(s->pub.name, h + XB_SH_NAME, 16);
		s->pub.offset = aieth__le64_get(h + XB_SH_OFFSET);
		s->pub.size = aieth__le64_get(h + XB_SH_SIZE);
		aieth__xb_section_label(&s->pub, i, label, sizeof label);
		if (s->pub.kind > XB_KIND_MAX)
			problem(x, "%s: kind: expected 0..%u (BITSTREAM..DTBO), found %u", label,
				XB_KIND_MAX, (unsigned)s->pub.kind);
		if (s->pub.offset == 0 && s->pub.size == 0) {
			s->readable = 1; /* the "empty section" convention */
			continue;
		}
		end = s->pub.offset + s->pub.size;
		if (s->pub.offset % XB_ALIGN)
			problem(x, "%s: offset: expected a multiple of 8, found %llu", label,
				(unsigned long long)s->pub.offset);
		if (s->pub.offset < table_end)
			problem(x,
				"%s: offset: expected %llu or more (after the section table), "
				"found %llu",
				label, (unsigned long long)table_end,
				(unsigned long long)s->pub.offset);
		if (end < s->pub.offset) {
			problem(x,
				"%s: end: offset %llu + size %llu overflows 64 bits (expected at "
				"most the file size, %llu)",
				label, (unsigned long long)s->pub.offset,
				(unsigned long long)s->pub.size, (unsigned long long)x->size);
			continue;
		}
		if (end > x->size) {
			problem(x,
				"%s: end (offset %llu + size %llu): expected at most %llu (the "
				"file size), found %llu",
				label, (unsigned long long)s->pub.offset,
				(unsigned long long)s->pub.size, (unsigned long long)x->size,
				(unsigned long long)end);
			continue;
		}
		s->readable = s->pub.offset >= table_end;
		if (s->readable)
			check_array(x, s, i);
	}
	free(t);
	check_overlaps(x);
	return AIETH_OK;
}

static int finish_open(aieth_xclbin *x, unsigned flags, aieth_xclbin **out)
{
	uint8_t p[XB_PREFIX];
	int rc;
	if (x->size < XB_PREFIX) {
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: file size: expected at least %u bytes (the "
				 "xclbin header), found %llu",
				 x->path, XB_PREFIX, (unsigned long long)x->size);
		aieth_xclbin_close(x);
		return rc;
	}
	rc = aieth__xb_read_at(x, p, XB_PREFIX, 0);
	if (!rc) {
		decode_header(x, p);
		rc = read_table(x);
	}
	if (!rc && x->nprob && !(flags & AIETH_XCLBIN_LENIENT))
		rc = aieth__fail(AIETH_EPARSE, "%s", x->problems[0]);
	if (rc) {
		aieth_xclbin_close(x);
		return rc;
	}
	aieth__error_clear();
	*out = x;
	return AIETH_OK;
}

int aieth_xclbin_open(aieth_xclbin **out, const char *path, unsigned flags)
{
	aieth_xclbin *x;
	struct stat st;
	if (!out || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_xclbin_open: NULL argument");
	*out = NULL;
	x = calloc(1, sizeof *x);
	if (!x || !(x->path = aieth__strdup(path))) {
		free(x);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	{
		/* a FIFO or a device is refused before anything is read */
		int rc = aieth__open_input(path, &x->fd, &st);
		if (rc) {
			aieth_xclbin_close(x);
			return rc;
		}
	}
	x->size = (uint64_t)st.st_size;
	return finish_open(x, flags, out);
}

int aieth__xclbin_open_own(aieth_xclbin **out, const char *path, unsigned flags)
{
	int rc = aieth_xclbin_open(out, path, flags);
	if (!rc)
		(*out)->win = calloc(1, sizeof *(*out)->win); /* none: pread */
	return rc;
}

int aieth__xclbin_open_mem(aieth_xclbin **out, const char *what, const void *data, size_t len,
			   unsigned flags)
{
	aieth_xclbin *x;
	*out = NULL;
	x = calloc(1, sizeof *x);
	if (!x || !(x->path = aieth__strdup(what))) {
		free(x);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	}
	x->fd = -1;
	x->mem = data;
	x->size = len;
	return finish_open(x, flags, out);
}

void aieth_xclbin_close(aieth_xclbin *x)
{
	size_t i;
	if (!x)
		return;
	if (x->win && x->win->map)
		munmap((void *)x->win->map, (size_t)x->win->len);
	free(x->win);
	if (x->fd >= 0)
		close(x->fd);
	for (i = 0; i < x->nprob; i++)
		free(x->problems[i]);
	free(x->problems);
	free(x->sec);
	free(x->path);
	free(x);
}

const char *aieth_xclbin_path(const aieth_xclbin *x) { return x ? x->path : ""; }
const aieth_xclbin_header *aieth_xclbin_get_header(const aieth_xclbin *x) { return &x->hdr; }
const char *aieth_xclbin_uuid_string(const aieth_xclbin *x) { return x->uuid_str; }
size_t aieth_xclbin_num_problems(const aieth_xclbin *x) { return x->nprob + x->dropped; }

const char *aieth_xclbin_problem(const aieth_xclbin *x, size_t i)
{
	static _Thread_local char more[128];
	if (i < x->nprob)
		return x->problems[i];
	if (i < x->nprob + x->dropped) {
		snprintf(more, sizeof more, "%s: ... and %zu more problems not kept", x->path,
			 x->dropped);
		return more;
	}
	return "";
}

size_t aieth_xclbin_num_sections(const aieth_xclbin *x) { return x->nsec; }

int aieth_xclbin_section_at(const aieth_xclbin *x, size_t i, aieth_xclbin_section *out)
{
	if (i >= x->nsec)
		return aieth__fail(AIETH_EINVAL, "%s: section %zu: out of range (%zu sections)",
				   x->path, i, x->nsec);
	*out = x->sec[i].pub;
	return AIETH_OK;
}

int aieth_xclbin_section_find(const aieth_xclbin *x, uint32_t kind, size_t *index)
{
	size_t i;
	for (i = 0; i < x->nsec; i++)
		if (x->sec[i].pub.kind == kind) {
			*index = i;
			return AIETH_OK;
		}
	return aieth__fail(AIETH_ENOTFOUND, "%s: no %s section", x->path,
			   aieth_xclbin_kind_name(kind));
}

static int readable(const aieth_xclbin *x, size_t i)
{
	char label[96];
	if (i >= x->nsec)
		return aieth__fail(AIETH_EINVAL, "%s: section %zu: out of range (%zu sections)",
				   x->path, i, x->nsec);
	if (!x->sec[i].readable) {
		aieth__xb_section_label(&x->sec[i].pub, i, label, sizeof label);
		return aieth__fail(AIETH_EPARSE, "%s: %s lies outside the file's payload area",
				   x->path, label);
	}
	return AIETH_OK;
}

int aieth_xclbin_section_read(const aieth_xclbin *x, size_t i, size_t max_bytes, void **data,
			      size_t *len)
{
	const aieth_xclbin_section *s;
	char *buf;
	int rc = readable(x, i);
	*data = NULL;
	if (rc)
		return rc;
	s = &x->sec[i].pub;
	if (s->size > max_bytes)
		return aieth__fail(AIETH_EINVAL, "%s: %s section is %llu bytes, the limit is %zu",
				   x->path, s->kind_name, (unsigned long long)s->size, max_bytes);
	buf = malloc((size_t)s->size + 1);
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", x->path);
	rc = aieth__xb_read_at(x, buf, (size_t)s->size, s->offset);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[s->size] = '\0';
	*data = buf;
	if (len)
		*len = (size_t)s->size;
	return AIETH_OK;
}

int aieth_xclbin_section_dump(const aieth_xclbin *x, size_t i, const char *path)
{
	const aieth_xclbin_section *s;
	struct stat in, out;
	aieth_out o;
	int rc = readable(x, i);
	if (rc)
		return rc;
	s = &x->sec[i].pub;
	if (x->fd >= 0 && fstat(x->fd, &in) == 0 && stat(path, &out) == 0 &&
	    in.st_dev == out.st_dev && in.st_ino == out.st_ino)
		return aieth__fail(AIETH_EINVAL,
				   "%s: is the xclbin the section is read from: "
				   "refusing to write over it",
				   path);
	rc = aieth__out_open(&o, path);
	if (rc)
		return rc;
	if (x->fd >= 0)
		rc = aieth__copy(x->fd, s->offset, s->size, o.fd, NULL, x->path, path);
	else
		rc = aieth__write_full(o.fd, x->mem + s->offset, (size_t)s->size, path);
	if (rc) {
		aieth__out_abort(&o);
		return rc;
	}
	return aieth__out_commit(&o);
}

int aieth_xclbin_sha256(const aieth_xclbin *x, char hex[65])
{
	aieth_sha256 h;
	uint8_t d[32], *buf;
	uint64_t off = 0;
	int i, rc = AIETH_OK;
	aieth__sha256_init(&h);
	if (x->fd < 0) {
		aieth__sha256_update(&h, x->mem, (size_t)x->size);
	} else {
		buf = malloc(AIETH_IO_CHUNK);
		if (!buf)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", x->path);
		while (off < x->size && !rc) {
			size_t k = x->size - off < AIETH_IO_CHUNK ? (size_t)(x->size - off)
								  : AIETH_IO_CHUNK;
			rc = aieth__pread_full(x->fd, buf, k, off, x->path);
			aieth__sha256_update(&h, buf, k);
			off += k;
		}
		free(buf);
		if (rc)
			return rc;
	}
	aieth__sha256_final(&h, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return AIETH_OK;
}
