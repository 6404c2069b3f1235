/* SPDX-License-Identifier: MIT */
/*
 * aiesim_text.c - the reader of aiesimulator's PLIO text files: "T <time>
 * <unit>" lines, "TLAST" lines, comments and data lines of one element
 * type (UG1076, "TXT File Format"; the element syntax of
 * docs/data-formats.md). Line by line, so a file is never held as text.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pl_dma/models/aiesim.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/text.h"

/* At most this many time stamps per file (24 bytes each). */
#define MAX_STAMPS (4u * 1024u * 1024u)
#define MAX_TLAST (4u * 1024u * 1024u)
#define CHUNK 65536u

typedef struct {
	const char *name;
	unsigned size;  /* bytes of one part */
	unsigned parts; /* 2 for complex */
	int kind;       /* 0 signed, 1 unsigned, 2 floating */
} type_info;

static const type_info types[] = {
	[AIESIM_INT8] = {"int8", 1, 1, 0},     [AIESIM_INT16] = {"int16", 2, 1, 0},
	[AIESIM_INT32] = {"int32", 4, 1, 0},   [AIESIM_INT64] = {"int64", 8, 1, 0},
	[AIESIM_UINT8] = {"uint8", 1, 1, 1},   [AIESIM_UINT16] = {"uint16", 2, 1, 1},
	[AIESIM_UINT32] = {"uint32", 4, 1, 1}, [AIESIM_UINT64] = {"uint64", 8, 1, 1},
	[AIESIM_FLOAT] = {"float", 4, 1, 2},   [AIESIM_DOUBLE] = {"double", 8, 1, 2},
	[AIESIM_CINT16] = {"cint16", 2, 2, 0}, [AIESIM_CINT32] = {"cint32", 4, 2, 0},
	[AIESIM_CFLOAT] = {"cfloat", 4, 2, 2},
};

int aieth__aiesim_type_parse(const char *name, aiesim_type *out)
{
	size_t i;
	for (i = 0; name && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(name, types[i].name) == 0) {
			*out = (aiesim_type)i;
			return 0;
		}
	return -1;
}

void aieth__aiesim_trace_init(aiesim_trace *tr, aiesim_type t)
{
	memset(tr, 0, sizeof *tr);
	tr->type = t;
}

void aieth__aiesim_trace_free(aiesim_trace *tr)
{
	free(tr->data);
	free(tr->stamps);
	free(tr->tlast);
	memset(tr, 0, sizeof *tr);
}

/* Grow *p (n used, *cap allocated, elements of `size` bytes) to hold
 * `need`, at most `max` elements. */
static int grow(void **p, size_t *cap, size_t need, size_t size, size_t max)
{
	size_t nc;
	void *np;
	if (need <= *cap)
		return 0;
	if (need > max)
		return -1;
	nc = *cap ? *cap : 64;
	while (nc < need)
		nc = nc > max / 2 ? max : nc * 2;
	np = realloc(*p, nc * size);
	if (!np)
		return -2;
	*p = np;
	*cap = nc;
	return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

int aieth__aiesim_time_parse(const char *s, size_t len, uint64_t *ps)
{
	const char *e = s + len, *u;
	uint64_t whole = 0, frac = 0, scale, fscale = 1;
	unsigned fd = 0, maxfd;
	int digits = 0;

	while (s < e && is_space(*s))
		s++;
	if (s < e && *s == 'T' && s + 1 < e && is_space(s[1]))
		for (s++; s < e && is_space(*s); s++)
			;
	for (; s < e && *s >= '0' && *s <= '9'; s++, digits++) {
		if (whole > AIESIM_MAX_TIME_PS)
			return -1;
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (s < e && *s == '.')
		for (s++; s < e && *s >= '0' && *s <= '9'; s++, digits++) {
			if (++fd > 6)
				return -1;
			frac = frac * 10 + (uint64_t)(*s - '0');
			fscale *= 10;
		}
	if (!digits)
		return -1;
	while (s < e && is_space(*s))
		s++;
	u = s;
	while (s < e && !is_space(*s))
		s++;
	if (s - u == 2 && !memcmp(u, "ps", 2))
		scale = 1, maxfd = 0;
	else if (s - u == 2 && !memcmp(u, "ns", 2))
		scale = 1000, maxfd = 3;
	else if (s - u == 2 && !memcmp(u, "us", 2))
		scale = 1000000, maxfd = 6;
	else
		return -1;
	while (s < e && is_space(*s))
		s++;
	if (s != e || fd > maxfd || whole > AIESIM_MAX_TIME_PS / scale)
		return -1;
	whole = whole * scale + frac * (scale / fscale);
	if (whole > AIESIM_MAX_TIME_PS)
		return -1;
	*ps = whole;
	return 0;
}

/* One integer token as the bit pattern of a `bytes`-byte part. */
static int parse_int(const char *t, size_t n, const type_info *ti, uint64_t *bits)
{
	uint64_t v = 0, lim, mask = ti->size == 8 ? UINT64_MAX : (1ull << (8 * ti->size)) - 1;
	int neg = 0, base = 10;
	size_t i = 0, digits = 0;

	if (i < n && (t[i] == '-' || t[i] == '+'))
		neg = t[i++] == '-';
	if (i + 1 < n && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) {
		base = 16;
		i += 2;
		if (neg)
			return -1;
	}
	for (; i < n; i++, digits++) {
		unsigned d;
		char c = t[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + d;
	}
	if (!digits)
		return -1;
	if (base == 16) { /* a bit pattern of the part's width */
		if (v > mask)
			return -1;
		*bits = v;
		return 0;
	}
	if (ti->kind == 1) {
		if (neg && v != 0)
			return -1;
		if (v > mask)
			return -1;
		*bits = v;
		return 0;
	}
	lim = mask >> 1; /* largest positive value */
	if (neg) {
		if (v > lim + 1)
			return -1;
		*bits = (0 - v) & mask;
	} else {
		if (v > lim)
			return -1;
		*bits = v;
	}
	return 0;
}

static int parse_float(const char *t, size_t n, const type_info *ti, uint64_t *bits)
{
	char buf[80];
	char *end;
	double d;

	if (n >= sizeof buf)
		return -1;
	memcpy(buf, t, n);
	buf[n] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (end != buf + n || (errno == ERANGE && isinf(d)))
		return -1;
	if (ti->size == 4) {
		float f;
		uint32_t u;
		if (isfinite(d) && fabs(d) > FLT_MAX)
			return -1;
		f = (float)d;
		memcpy(&u, &f, 4);
		*bits = u;
	} else {
		uint64_t u;
		memcpy(&u, &d, 8);
		*bits = u;
	}
	return 0;
}

static int fail_at(const char *what, uint64_t line, const char *msg, const char *tok, size_t n)
{
	char q[AIETH_QUOTE_CAP] = "";
	if (tok)
		aieth__quote(q, sizeof q, tok, n);
	return aieth__fail(AIETH_EPARSE, "%s:%llu: %s%s%s%s", what, (unsigned long long)line, msg,
			   tok ? " \"" : "", q, tok ? "\"" : "");
}

static int add_stamp(aiesim_trace *tr, const char *what, uint64_t ps)
{
	aiesim_stamp *last = tr->nstamps ? &tr->stamps[tr->nstamps - 1] : NULL;
	int g;
	if (last && ps < last->time_ps) {
		char m[160];
		snprintf(m, sizeof m, "time goes backwards: %llu ps after %llu ps (line %llu)",
			 (unsigned long long)ps, (unsigned long long)last->time_ps,
			 (unsigned long long)last->line);
		return fail_at(what, tr->line, m, NULL, 0);
	}
	if (last && last->at == tr->len) { /* no data since: the later stamp rules */
		last->time_ps = ps;
		last->line = tr->line;
		return 0;
	}
	g = grow((void **)&tr->stamps, &tr->capstamps, tr->nstamps + 1, sizeof *tr->stamps,
		 MAX_STAMPS);
	if (g == -1)
		return aieth__fail(AIETH_EINVAL,
				   "%s:%llu: more than %u time stamps with data between"
				   " them (the limit of one file)",
				   what, (unsigned long long)tr->line, MAX_STAMPS);
	if (g)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	tr->stamps[tr->nstamps].at = tr->len;
	tr->stamps[tr->nstamps].time_ps = ps;
	tr->stamps[tr->nstamps].line = tr->line;
	tr->nstamps++;
	return 0;
}

static int data_line(aiesim_trace *tr, const char *what, const char *s, const char *e)
{
	const type_info *ti = &types[tr->type];
	size_t start = tr->len, nvals = 0;
	int g;

	while (s < e) {
		const char *t;
		uint64_t bits;
		unsigned b;
		while (s < e && is_space(*s))
			s++;
		if (s == e)
			break;
		t = s;
		while (s < e && !is_space(*s))
			s++;
		if ((ti->kind == 2 ? parse_float(t, (size_t)(s - t), ti, &bits)
				   : parse_int(t, (size_t)(s - t), ti, &bits)) != 0) {
			char m[96];
			snprintf(m, sizeof m,
				 "not a%s %s value:", ti->kind == 2 ? "" : "n in-range", ti->name);
			tr->len = start;
			return fail_at(what, tr->line, m, t, (size_t)(s - t));
		}
		g = grow((void **)&tr->data, &tr->cap, tr->len + ti->size, 1,
			 AIESIM_MAX_DATA_BYTES);
		if (g) {
			tr->len = start;
			if (g == -1)
				return aieth__fail(AIETH_EINVAL,
						   "%s:%llu: more than %u bytes of data (the"
						   " limit of one file)",
						   what, (unsigned long long)tr->line,
						   AIESIM_MAX_DATA_BYTES);
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		}
		for (b = 0; b < ti->size; b++)
			tr->data[tr->len++] = (uint8_t)(bits >> (8 * b));
		nvals++;
	}
	if (nvals % ti->parts) {
		tr->len = start;
		return fail_at(
			what, tr->line,
			ti->parts == 2
				? "odd number of values for a complex type (real, imaginary pairs)"
				: "bad values",
			NULL, 0);
	}
	if (tr->pending_tlast) {
		g = grow((void **)&tr->tlast, &tr->captlast, tr->ntlast + 1, sizeof *tr->tlast,
			 MAX_TLAST);
		if (g)
			return g == -1 ? aieth__fail(AIETH_EINVAL, "%s:%llu: more than %u TLAST",
						     what, (unsigned long long)tr->line, MAX_TLAST)
				       : aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		tr->tlast[tr->ntlast++] = tr->len;
		tr->pending_tlast = 0;
	}
	return 0;
}

int aieth__aiesim_trace_line(aiesim_trace *tr, const char *what, const char *line, size_t len)
{
	const char *s = line, *e = line + len;
	uint64_t ps;

	tr->line++;
	if (memchr(line, '\0', len))
		return fail_at(what, tr->line, "NUL byte in a text file", NULL, 0);
	while (s < e && is_space(*s))
		s++;
	while (e > s && is_space(e[-1]))
		e--;
	if (s == e || *s == '#' || (e - s >= 2 && s[0] == '/' && s[1] == '/'))
		return 0;
	if (e - s == 5 && !memcmp(s, "TLAST", 5)) {
		if (tr->pending_tlast)
			return aieth__fail(AIETH_EPARSE,
					   "%s:%llu: TLAST again before the data line"
					   " of the TLAST at line %llu",
					   what, (unsigned long long)tr->line,
					   (unsigned long long)tr->tlast_line);
		tr->pending_tlast = 1;
		tr->tlast_line = tr->line;
		return 0;
	}
	if (*s == 'T') {
		if (aieth__aiesim_time_parse(s, (size_t)(e - s), &ps) != 0)
			return fail_at(what, tr->line,
				       "not a time stamp \"T <time> <unit>\" (unit ps,"
				       " ns or us; at most 1000 s; no finer than 1 ps):",
				       s, (size_t)(e - s));
		return add_stamp(tr, what, ps);
	}
	return data_line(tr, what, s, e);
}

int aieth__aiesim_trace_end(aiesim_trace *tr, const char *what)
{
	if (tr->pending_tlast)
		return aieth__fail(AIETH_EPARSE,
				   "%s:%llu: TLAST without a data line after it (the"
				   " line after TLAST is the last of its packet)",
				   what, (unsigned long long)tr->tlast_line);
	return 0;
}

int aieth__aiesim_trace_parse(aiesim_trace *tr, const char *what, const char *text, size_t len)
{
	size_t i = 0;
	int rc;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		if (n > AIESIM_MAX_LINE)
			return aieth__fail(AIETH_EPARSE, "%s:%llu: line longer than %u bytes", what,
					   (unsigned long long)tr->line + 1, AIESIM_MAX_LINE);
		if ((rc = aieth__aiesim_trace_line(tr, what, text + i, n)))
			return rc;
		i += n + 1;
	}
	return aieth__aiesim_trace_end(tr, what);
}

int aieth__aiesim_trace_read(aiesim_trace *tr, const char *path)
{
	struct stat st;
	char *buf;
	size_t have = 0;
	int fd, rc = 0;

	rc = aieth__open_input(path, &fd, &st);
	if (rc)
		return rc;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > AIESIM_MAX_FILE_BYTES) {
		close(fd);
		return S_ISREG(st.st_mode)
			       ? aieth__fail(AIETH_EINVAL,
					     "%s: %llu bytes, above the limit of %llu for"
					     " an aiesimulator file",
					     path, (unsigned long long)st.st_size,
					     (unsigned long long)AIESIM_MAX_FILE_BYTES)
			       : aieth__fail(AIETH_EIO, "%s: not a regular file", path);
	}
	buf = malloc(AIESIM_MAX_LINE + CHUNK + 1);
	if (!buf) {
		close(fd);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, CHUNK);
		size_t i = 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = aieth__fail(AIETH_EIO, "%s: read failed: %s", path, strerror(errno));
			break;
		}
		have += (size_t)n;
		/* every complete line in the buffer; the rest waits for more */
		for (;;) {
			char *nl = memchr(buf + i, '\n', have - i);
			if (!nl)
				break;
			if ((rc = aieth__aiesim_trace_line(tr, path, buf + i,
							   (size_t)(nl - (buf + i)))))
				break;
			i = (size_t)(nl - buf) + 1;
		}
		if (rc)
			break;
		memmove(buf, buf + i, have - i);
		have -= i;
		if (have > AIESIM_MAX_LINE) {
			rc = aieth__fail(AIETH_EPARSE, "%s:%llu: line longer than %u bytes", path,
					 (unsigned long long)tr->line + 1, AIESIM_MAX_LINE);
			break;
		}
		if (n == 0) {
			if (have)
				rc = aieth__aiesim_trace_line(tr, path, buf, have);
			if (!rc)
				rc = aieth__aiesim_trace_end(tr, path);
			break;
		}
	}
	free(buf);
	close(fd);
	return rc;
}

uint64_t aieth__aiesim_trace_time_at(const aiesim_trace *tr, uint64_t at, uint64_t *line)
{
	size_t lo = 0, hi = tr->nstamps;
	/* the last stamp with stamps[].at <= at */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->stamps[mid].at <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (line)
		*line = lo ? tr->stamps[lo - 1].line : 0;
	return lo ? tr->stamps[lo - 1].time_ps : 0;
}

uint64_t aieth__aiesim_ps_to_cycles(uint64_t ps, uint64_t pl_hz, uint32_t sim_mhz,
				    uint32_t board_mhz)
{
	unsigned __int128 num = (unsigned __int128)ps * pl_hz; /* fits: 64 x 64 bits */
	unsigned __int128 den = (unsigned __int128)1000000000000ull * (board_mhz ? board_mhz : 1);
	unsigned __int128 q;
	if (sim_mhz && num > ~(unsigned __int128)0 / sim_mhz)
		return UINT64_MAX;
	num *= sim_mhz;
	q = num / den + (num % den >= den - den / 2); /* to the nearest, half up */
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

void aieth__aiesim_fit_blocks(const uint64_t *c, size_t n, uint64_t fallback, uint64_t max_latency,
			      aiesim_fit *out)
{
	uint64_t cpi = fallback ? fallback : 1, first;
	size_t k;

	memset(out, 0, sizeof *out);
	if (n > 1 && c[n - 1] > c[0])
		cpi = (c[n - 1] - c[0] + (n - 1) / 2) / (n - 1);
	else if (n > 1)
		cpi = 1; /* every block at once: as fast as the windows go */
	if (cpi < 1)
		cpi = 1;
	out->cpi = cpi;
	out->latency = n && c[0] > cpi ? c[0] - cpi : 0;
	if (out->latency > max_latency)
		out->latency = max_latency;
	first = out->cpi + out->latency;
	for (k = 0; k < n; k++) {
		uint64_t want = first + cpi * k;
		uint64_t d = c[k] > want ? c[k] - want : want - c[k];
		if (d > out->max_dev) {
			out->max_dev = d;
			out->dev_at = k;
		}
	}
}

int aieth__aiesim_exact_schedule(const uint64_t *c, size_t n, const uint64_t *beats, uint32_t nout,
				 uint64_t gap, int passes, uint64_t max, uint32_t *cyc, size_t *bad)
{
	uint64_t drained[AIETH_MODEL_MAX_PORTS] = {0}, hist[2] = {0, 0}, end = 0;
	size_t k, total = n * (size_t)passes;
	uint32_t q;

	for (k = 0; k < total; k++) {
		size_t b = k % n;
		/* pass 2 follows the last window by `gap`; saturate, never wrap */
		uint64_t want = c[b], s = end, o, d = 0;
		if (k >= n) {
			uint64_t shift = c[n - 1] - c[0];
			want = shift > UINT64_MAX / 4 || gap > UINT64_MAX / 4 ||
					       want > UINT64_MAX / 4
				       ? UINT64_MAX / 2
				       : want + shift + gap;
		}
		if (k >= 2 && hist[0] > s)
			s = hist[0]; /* output window k-2 must be drained */
		o = want > s ? want : s + 1;
		if (o - s > max) {
			*bad = b;
			return -1;
		}
		cyc[k] = (uint32_t)(o - s);
		end = o;
		for (q = 0; q < nout; q++) {
			uint64_t st = o > drained[q] ? o : drained[q];
			drained[q] = st + beats[q];
			if (drained[q] > d)
				d = drained[q];
		}
		hist[0] = hist[1];
		hist[1] = d;
	}
	return 0;
}
