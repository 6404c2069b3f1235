/* SPDX-License-Identifier: MIT */
/*
 * textfile.c - aiesimulator-style text data: parse and write.
 *
 * Parsing is one pass over the text with no allocation per value: tokens are
 * the runs of bytes between whitespace; '#' starts a comment to the end of
 * the line. Integers are parsed here (decimal, or 0x hex), floats with
 * strtod on a bounded copy of the token. A text is parsed whole (into a
 * buffer that grows by doubling) or in pieces that end at line ends
 * (aieth__text_convert: any size, in bounded memory). aiesimulator output markers are skipped: a line whose first
 * token is "T" (a timestamp such as "T 1234 ns") and the token "TLAST".
 *
 * Writing formats into one buffer and hands it to the atomic writer
 * (aieth__write_atomic, util/fileio.h).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"
#include "util/le.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "util/text.h"

/* The longest token parsed as a float (a decimal can need many digits). */
#define TEXT_MAX_TOKEN 320
/* A text file may be this many times larger than the data limit. */
#define TEXT_SIZE_FACTOR 64
/* aieth__text_convert reads this much text at a time; a line may be longer,
 * up to TEXT_MAX_LINE. */
#define TEXT_CHUNK (1 << 20)
#define TEXT_MAX_LINE (64 << 20)

enum { K_SIGNED, K_UNSIGNED, K_FLOAT, K_DOUBLE };

typedef struct {
	int kind;
	unsigned psize; /* bytes per scalar part */
	unsigned bits;  /* integer types: bits per part */
} part_info;

static part_info part_of(aieth_elem t)
{
	part_info p = {K_SIGNED, 0, 0};
	switch (t) {
	case AIETH_ELEM_INT8: p.psize = 1; break;
	case AIETH_ELEM_INT16:
	case AIETH_ELEM_CINT16: p.psize = 2; break;
	case AIETH_ELEM_INT32:
	case AIETH_ELEM_CINT32: p.psize = 4; break;
	case AIETH_ELEM_INT64: p.psize = 8; break;
	case AIETH_ELEM_UINT8:
		p.kind = K_UNSIGNED;
		p.psize = 1;
		break;
	case AIETH_ELEM_UINT16:
		p.kind = K_UNSIGNED;
		p.psize = 2;
		break;
	case AIETH_ELEM_UINT32:
		p.kind = K_UNSIGNED;
		p.psize = 4;
		break;
	case AIETH_ELEM_UINT64:
		p.kind = K_UNSIGNED;
		p.psize = 8;
		break;
	case AIETH_ELEM_FLOAT:
	case AIETH_ELEM_CFLOAT:
		p.kind = K_FLOAT;
		p.psize = 4;
		break;
	case AIETH_ELEM_DOUBLE:
		p.kind = K_DOUBLE;
		p.psize = 8;
		break;
	default: break;
	}
	p.bits = 8 * p.psize;
	return p;
}

/* ---------------------------------------------------------------- scanner */

typedef struct {
	const char *p, *end;
	const char *line_start;
	unsigned long line;
	int first_on_line;
} scanner;

static inline int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline int is_delim(unsigned char c) { return is_space(c) || c == '\n' || c == '#'; }

/* Next value token [*tb, *te); 0 at the end of the text. */
static inline int next_token(scanner *s, const char **tb, const char **te)
{
	const char *p = s->p, *e = s->end, *b;
	for (;;) {
		while (p < e) {
			unsigned char c = (unsigned char)*p;
			if (c == '\n') {
				s->line++;
				s->line_start = ++p;
				s->first_on_line = 1;
			} else if (is_space(c)) {
				p++;
			} else if (c == '#') {
				const char *nl = memchr(p, '\n', (size_t)(e - p));
				p = nl ? nl : e;
			} else {
				break;
			}
		}
		if (p == e) {
			s->p = p;
			return 0;
		}
		b = p;
		while (p < e && !is_delim((unsigned char)*p))
			p++;
		if (s->first_on_line && p - b == 1 && *b == 'T') {
			/* aiesimulator timestamp line "T <time> <unit>" */
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl : e;
			continue;
		}
		s->first_on_line = 0;
		if (p - b == 5 && memcmp(b, "TLAST", 5) == 0)
			continue;
		*tb = b;
		*te = p;
		s->p = p;
		return 1;
	}
}

/* ----------------------------------------------------------------- parser */

typedef struct {
	const char *what;
	aieth_elem t;
	part_info pi;
	scanner sc;
} parser;

static int fail_at(const parser *ps, const char *tb, int code, const char *fmt, ...)
	AIETH_PRINTF(4, 5);

static int fail_at(const parser *ps, const char *tb, int code, const char *fmt, ...)
{
	char m[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	return aieth__fail(code, "%s:%lu:%zu: %s", ps->what, ps->sc.line,
			   (size_t)(tb - ps->sc.line_start) + 1, m);
}

static void int_range(part_info pi, char *buf, size_t cap, int hex)
{
	if (pi.kind == K_UNSIGNED) {
		uint64_t max = pi.bits == 64 ? UINT64_MAX : ((uint64_t)1 << pi.bits) - 1;
		if (hex)
			snprintf(buf, cap, "0..%llu, 0x0..0x%llX", (unsigned long long)max,
				 (unsigned long long)max);
		else
			snprintf(buf, cap, "0..%llu", (unsigned long long)max);
	} else {
		uint64_t half = (uint64_t)1 << (pi.bits - 1);
		uint64_t all = pi.bits == 64 ? UINT64_MAX : ((uint64_t)1 << pi.bits) - 1;
		if (hex)
			snprintf(buf, cap, "-%llu..%llu, or 0x0..0x%llX as a bit pattern",
				 (unsigned long long)half, (unsigned long long)(half - 1),
				 (unsigned long long)all);
		else
			snprintf(buf, cap, "-%llu..%llu", (unsigned long long)half,
				 (unsigned long long)(half - 1));
	}
}

static int ieq(const char *a, size_t n, const char *lit)
{
	size_t i;
	if (strlen(lit) != n)
		return 0;
	for (i = 0; i < n; i++)
		if ((a[i] | 0x20) != lit[i])
			return 0;
	return 1;
}

/* Is [b, e) a NaN or infinity spelling strtod accepts? */
static int is_nonfinite(const char *b, const char *e)
{
	if (b < e && (*b == '+' || *b == '-'))
		b++;
	if (ieq(b, (size_t)(e - b), "inf") || ieq(b, (size_t)(e - b), "infinity") ||
	    ieq(b, (size_t)(e - b), "nan"))
		return 1;
	return e - b >= 5 && ieq(b, 4, "nan(") && e[-1] == ')';
}

/* Does [b, e) parse completely as a (finite or not) floating-point number? */
static int is_float_syntax(const char *b, const char *e)
{
	char buf[TEXT_MAX_TOKEN];
	char *end;
	size_t n = (size_t)(e - b);
	if (n >= sizeof buf)
		return 0;
	memcpy(buf, b, n);
	buf[n] = '\0';
	errno = 0;
	(void)strtod(buf, &end);
	return end == buf + n && n > 0;
}

static int parse_int(const parser *ps, const char *b, const char *e, uint64_t *out)
{
	const char *p = b;
	int neg = 0, has_sign = 0, hex = 0, over = 0;
	uint64_t mag = 0, lim;
	const char *digits;
	char sh[AIETH_QUOTE_CAP], rng[128];

	if (p < e && (*p == '+' || *p == '-')) {
		neg = *p == '-';
		has_sign = 1;
		p++;
	}
	if (e - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		hex = 1;
		p += 2;
	}
	digits = p;
	if (hex) {
		for (; p < e; p++) {
			unsigned char c = (unsigned char)*p;
			unsigned d;
			if (c >= '0' && c <= '9')
				d = c - '0';
			else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
				d = (unsigned)((c | 0x20) - 'a' + 10);
			else
				break;
			if (mag >> 60)
				over = 1;
			mag = (mag << 4) | d;
		}
	} else {
		for (; p < e; p++) {
			unsigned d = (unsigned)((unsigned char)*p - '0');
			if (d > 9)
				break;
			if (mag > (UINT64_MAX - d) / 10)
				over = 1;
			mag = mag * 10 + d;
		}
	}
	if (p != e || p == digits) {
		const char *tn = aieth__elem_name(ps->t);
		aieth__quote(sh, sizeof sh, b, (size_t)(e - b));
		if (is_nonfinite(b, e))
			return fail_at(ps, b, AIETH_EPARSE,
				       "value \"%s\": NaN and infinity are not allowed for %s", sh,
				       tn);
		if (!hex && is_float_syntax(b, e))
			return fail_at(ps, b, AIETH_EPARSE,
				       "value \"%s\" is not an integer (%s takes decimal or 0x hex "
				       "integers)",
				       sh, tn);
		if (p == digits)
			return fail_at(ps, b, AIETH_EPARSE, "\"%s\" is not a number (%s expected)",
				       sh, tn);
		{
			char junk[AIETH_QUOTE_CAP];
			aieth__quote(junk, sizeof junk, p, (size_t)(e - p));
			return fail_at(ps, b, AIETH_EPARSE,
				       "\"%s\" is not a valid %s value (trailing junk \"%s\")", sh,
				       tn, junk);
		}
	}
	if (ps->pi.kind == K_UNSIGNED) {
		lim = ps->pi.bits == 64 ? UINT64_MAX : ((uint64_t)1 << ps->pi.bits) - 1;
		if (neg && mag != 0)
			over = 1;
	} else if (neg) {
		lim = (uint64_t)1 << (ps->pi.bits - 1);
	} else if (hex && !has_sign) {
		lim = ps->pi.bits == 64 ? UINT64_MAX : ((uint64_t)1 << ps->pi.bits) - 1;
	} else {
		lim = ((uint64_t)1 << (ps->pi.bits - 1)) - 1;
	}
	if (over || mag > lim) {
		int_range(ps->pi, rng, sizeof rng, hex);
		aieth__quote(sh, sizeof sh, b, (size_t)(e - b));
		return fail_at(ps, b, AIETH_EINVAL, "value %s does not fit %s (%s%s)", sh,
			       aieth__elem_name(ps->t),
			       aieth__elem_parts(ps->t) == 2 ? "each part " : "", rng);
	}
	*out = neg ? (uint64_t)0 - mag : mag;
	return AIETH_OK;
}

/* double -> float with IEEE rounding; 1 when the value overflows float. */
static int to_float(double d, float *f)
{
	/* FLT_MAX plus half an ulp: from here on, rounding gives infinity */
	const double lim = 0x1.ffffffp+127;
	if (isfinite(d) && fabs(d) >= lim)
		return 1;
	*f = (float)d;
	return 0;
}

static int parse_float(const parser *ps, const char *b, const char *e, uint64_t *out)
{
	char buf[TEXT_MAX_TOKEN], sh[200];
	char *end;
	size_t n = (size_t)(e - b);
	double d;
	const char *tn = aieth__elem_name(ps->t);

	if (n >= sizeof buf) {
		aieth__quote(sh, sizeof sh, b, n);
		return fail_at(ps, b, AIETH_EPARSE,
			       "value \"%s\" is too long (%zu characters, the "
			       "limit is %d)",
			       sh, n, TEXT_MAX_TOKEN - 1);
	}
	memcpy(buf, b, n);
	buf[n] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (end != buf + n) {
		aieth__quote(sh, sizeof sh, b, n);
		if (end == buf)
			return fail_at(ps, b, AIETH_EPARSE, "\"%s\" is not a number (%s expected)",
				       sh, tn);
		{
			char junk[AIETH_QUOTE_CAP];
			aieth__quote(junk, sizeof junk, end, (size_t)(buf + n - end));
			return fail_at(ps, b, AIETH_EPARSE,
				       "\"%s\" is not a valid %s value (trailing junk \"%s\")", sh,
				       tn, junk);
		}
	}
	if (errno == ERANGE && isinf(d)) {
		aieth__quote(sh, sizeof sh, b, n);
		return fail_at(ps, b, AIETH_EINVAL,
			       "value %s does not fit %s (finite magnitudes up to %.17g)", sh, tn,
			       DBL_MAX);
	}
	if (ps->pi.kind == K_FLOAT) {
		float f = 0;
		uint32_t u;
		if (to_float(d, &f)) {
			aieth__quote(sh, sizeof sh, b, n);
			return fail_at(ps, b, AIETH_EINVAL,
				       "value %s does not fit %s (finite magnitudes up to %.9g)",
				       sh, tn, (double)FLT_MAX);
		}
		memcpy(&u, &f, 4);
		*out = u;
	} else {
		uint64_t u;
		memcpy(&u, &d, 8);
		*out = u;
	}
	return AIETH_OK;
}

/* A text parsed in pieces, each ending at a line end (values never span
 * lines), so a file of any size is read in chunks: line numbers carry over,
 * values go to emit as they are parsed. Past max_bytes the rest is only
 * counted, for the message. */
typedef struct {
	parser ps;
	size_t max_bytes;
	uint64_t n, scalars;
	unsigned long last_line; /* the last value's position */
	size_t last_col;
	int over; /* max_bytes passed at over_line:over_col */
	unsigned long over_line;
	size_t over_col;
	int (*emit)(void *ctx, const uint8_t *p, size_t n);
	void *ctx;
	uint8_t out[4096]; /* values not yet emitted */
	size_t fill;
} text_stream;

static void ts_init(text_stream *ts, const char *what, aieth_elem t, size_t max_bytes,
		    int (*emit)(void *, const uint8_t *, size_t), void *ctx)
{
	memset(ts, 0, sizeof *ts);
	ts->ps.what = what;
	ts->ps.t = t;
	ts->ps.pi = part_of(t);
	ts->ps.sc.line = 1;
	ts->ps.sc.first_on_line = 1;
	ts->max_bytes = max_bytes;
	ts->emit = emit;
	ts->ctx = ctx;
}

static int ts_flush(text_stream *ts)
{
	int rc = ts->fill ? ts->emit(ts->ctx, ts->out, ts->fill) : AIETH_OK;
	ts->fill = 0;
	return rc;
}

/* Parse text[0, len): whole lines (or the end of the text). */
static int ts_feed(text_stream *ts, const char *text, size_t len)
{
	parser *ps = &ts->ps;
	const char *tb, *te;
	int rc;
	ps->sc.p = text;
	ps->sc.end = text + len;
	ps->sc.line_start = text;
	ps->sc.first_on_line = 1;
	/* a UTF-8 byte order mark is not data */
	if (ps->sc.line == 1 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		ps->sc.p += 3;
	while (next_token(&ps->sc, &tb, &te)) {
		uint64_t v = 0;
		size_t col = (size_t)(tb - ps->sc.line_start) + 1;
		if (!ts->over && ts->n + ps->pi.psize > ts->max_bytes) {
			ts->over = 1;
			ts->over_line = ps->sc.line;
			ts->over_col = col;
		}
		ts->scalars++;
		if (ts->over)
			continue;
		if (ps->pi.kind == K_SIGNED || ps->pi.kind == K_UNSIGNED)
			rc = parse_int(ps, tb, te, &v);
		else
			rc = parse_float(ps, tb, te, &v);
		if (rc != AIETH_OK)
			return rc;
		if (ts->fill + ps->pi.psize > sizeof ts->out && (rc = ts_flush(ts)))
			return rc;
		aieth__le_put(ts->out + ts->fill, v, ps->pi.psize);
		ts->fill += ps->pi.psize;
		ts->n += ps->pi.psize;
		ts->last_line = ps->sc.line;
		ts->last_col = col;
	}
	return AIETH_OK;
}

/* After the last piece: the checks that need the whole text. */
static int ts_finish(text_stream *ts)
{
	const char *what = ts->ps.what;
	aieth_elem t = ts->ps.t;
	if (ts->over)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %llu bytes of %s data (%llu numbers), over the limit of %zu "
			"bytes (the value at %lu:%zu is the first past it)",
			what, (unsigned long long)(ts->scalars * ts->ps.pi.psize),
			aieth__elem_name(t), (unsigned long long)ts->scalars, ts->max_bytes,
			ts->over_line, ts->over_col);
	if (ts->scalars == 0)
		return aieth__fail(AIETH_EPARSE,
				   "%s: no values (the text is empty or holds only comments)",
				   what);
	if (aieth__elem_parts(t) == 2 && ts->scalars % 2)
		return aieth__fail(
			AIETH_EPARSE,
			"%s:%lu:%zu: %s values are pairs of numbers (real imaginary), but "
			"the text holds an odd count of numbers (%llu): this one has no "
			"imaginary part",
			what, ts->last_line, ts->last_col, aieth__elem_name(t),
			(unsigned long long)ts->scalars);
	return ts_flush(ts);
}

typedef struct {
	sbuf b; /* bounded by max_bytes (ts_init's limit ends the parse first) */
	const char *what;
} parsed;

static int grow_emit(void *ctx, const uint8_t *p, size_t n)
{
	parsed *g = ctx;
	return aieth__sb_put(&g->b, p, n) ? aieth__sb_check(&g->b, g->what) : AIETH_OK;
}

int aieth__text_parse(const char *what, const char *text, size_t text_len, aieth_elem t,
		      size_t max_bytes, uint8_t **out, size_t *len)
{
	text_stream *ts;
	parsed g = {SB_INIT(max_bytes), NULL};
	int rc;

	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!what)
		what = "text";
	if (!out || !len || (!text && text_len))
		return aieth__fail(AIETH_EINVAL, "%s: aieth__text_parse: NULL argument", what);
	if ((unsigned)t >= AIETH_ELEM_COUNT)
		return aieth__fail(AIETH_EINVAL, "%s: element type %d is not valid", what, (int)t);
	if (!(ts = malloc(sizeof *ts)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	g.what = what;
	ts_init(ts, what, t, max_bytes, grow_emit, &g);
	rc = ts_feed(ts, text ? text : "", text_len);
	if (!rc)
		rc = ts_finish(ts);
	free(ts);
	if (rc) {
		aieth__sb_free(&g.b);
		return rc;
	}
	if (g.b.n + 1 < g.b.cap) { /* give back the unused tail of the last doubling */
		uint8_t *nb = realloc(g.b.u, g.b.n + 1);
		if (nb)
			g.b.u = nb;
	}
	*out = g.b.u;
	*len = g.b.n;
	return AIETH_OK;
}

int aieth__text_read(const char *path, aieth_elem t, size_t max_bytes, uint8_t **out, size_t *len)
{
	struct stat st;
	size_t limit;
	char *text = NULL;
	size_t tlen = 0;
	int rc;

	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!path || !out || !len)
		return aieth__fail(AIETH_EINVAL, "aieth__text_read: NULL argument");
	limit = max_bytes > (SIZE_MAX - 2 - 65536) / TEXT_SIZE_FACTOR
			? SIZE_MAX - 2
			: max_bytes * TEXT_SIZE_FACTOR + 65536;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: text file is %lld bytes, larger than %d times the data limit "
			"of %zu bytes plus 64 KiB",
			path, (long long)st.st_size, TEXT_SIZE_FACTOR, max_bytes);
	rc = aieth__read_file(path, limit, &text, &tlen);
	if (rc != AIETH_OK)
		return rc;
	rc = aieth__text_parse(path, text, tlen, t, max_bytes, out, len);
	free(text);
	return rc;
}

/* emit to a file descriptor */
typedef struct {
	int fd;
	const char *what;
} fd_sink;

static int fd_emit(void *ctx, const uint8_t *p, size_t n)
{
	fd_sink *f = ctx;
	return aieth__write_full(f->fd, p, n, f->what);
}

int aieth__text_convert(const char *path, aieth_elem t, uint64_t max_bytes, int out_fd,
			uint64_t *len)
{
	text_stream *ts = NULL;
	char *buf = NULL;
	size_t cap = TEXT_CHUNK, have = 0;
	fd_sink sink = {out_fd, "the converted data"};
	int fd = -1, rc, eof = 0;

	if (len)
		*len = 0;
	if (!path || !len || (unsigned)t >= AIETH_ELEM_COUNT)
		return aieth__fail(AIETH_EINVAL, "aieth__text_convert: bad argument");
	if ((rc = aieth__open_input(path, &fd, NULL)))
		return rc;
	ts = malloc(sizeof *ts);
	buf = malloc(cap);
	if (!ts || !buf) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
		goto done;
	}
	ts_init(ts, path, t, max_bytes > SIZE_MAX ? SIZE_MAX : (size_t)max_bytes, fd_emit, &sink);
	while (!eof) {
		ssize_t r = read(fd, buf + have, cap - have);
		const char *nl;
		size_t take;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = aieth__fail(AIETH_EIO, "%s: read error: %s", path, strerror(errno));
			goto done;
		}
		have += (size_t)r;
		eof = r == 0;
		/* whole lines only, unless the text ends here */
		for (nl = buf + have; nl > buf && nl[-1] != '\n'; nl--)
			;
		take = eof ? have : (size_t)(nl - buf);
		if (!take && have == cap) {
			char *nb;
			if (cap >= TEXT_MAX_LINE) {
				rc = aieth__fail(AIETH_EINVAL,
						 "%s:%lu: a line longer than %d bytes", path,
						 ts->ps.sc.line, TEXT_MAX_LINE);
				goto done;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
				goto done;
			}
			buf = nb;
			cap *= 2;
			continue;
		}
		if (take && (rc = ts_feed(ts, buf, take)))
			goto done;
		memmove(buf, buf + take, have - take);
		have -= take;
	}
	rc = ts_finish(ts);
	if (!rc)
		*len = ts->n;
done:
	free(ts);
	free(buf);
	close(fd);
	return rc;
}

/* ----------------------------------------------------------------- writer */

/* Decimal digits of v at the end of a 24-byte scratch; returns the start. */
static char *u64_dec(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* Longest text of one number: "-2.2250738585072014e-308" is 24 characters. */
#define TEXT_MAX_NUMBER 25

static size_t format_part(part_info pi, const uint8_t *s, char *d)
{
	uint64_t v = aieth__le_get(s, pi.psize);
	char tmp[32], *b, *e = tmp + sizeof tmp;
	int neg = 0;
	size_t k;
	switch (pi.kind) {
	case K_FLOAT: {
		uint32_t u = (uint32_t)v;
		float f;
		memcpy(&f, &u, 4);
		return (size_t)snprintf(d, TEXT_MAX_NUMBER, "%.9g", (double)f);
	}
	case K_DOUBLE: {
		double x;
		memcpy(&x, &v, 8);
		return (size_t)snprintf(d, TEXT_MAX_NUMBER, "%.17g", x);
	}
	case K_SIGNED:
		if (pi.bits < 64 && (v >> (pi.bits - 1)) & 1)
			v |= ~(uint64_t)0 << pi.bits; /* sign-extend */
		if (v >> 63) {
			neg = 1;
			v = (uint64_t)0 - v;
		}
		break;
	default: break;
	}
	b = u64_dec(e, v);
	if (neg)
		*--b = '-';
	k = (size_t)(e - b);
	memcpy(d, b, k);
	return k;
}

int aieth__text_format(aieth_elem t, const uint8_t *data, size_t len, char **out, size_t *out_len)
{
	part_info pi;
	size_t esize, scalars, per_line, cap, o = 0, i;
	char *buf;

	if (out)
		*out = NULL;
	if (out_len)
		*out_len = 0;
	if (!out || !out_len || (!data && len))
		return aieth__fail(AIETH_EINVAL, "aieth__text_format: NULL argument");
	esize = aieth__elem_size(t);
	if (!esize)
		return aieth__fail(AIETH_EINVAL, "element type %d is not valid", (int)t);
	if (len % esize)
		return aieth__fail(
			AIETH_EINVAL,
			"%zu bytes is not a whole number of %s elements (%zu bytes each)", len,
			aieth__elem_name(t), esize);
	pi = part_of(t);
	scalars = len / pi.psize;
	if (scalars > (SIZE_MAX - 1) / TEXT_MAX_NUMBER)
		return aieth__fail(AIETH_ENOMEM, "%zu bytes of data are too many to format as text",
				   len);
	cap = scalars * TEXT_MAX_NUMBER + 1;
	buf = malloc(cap);
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "out of memory formatting %zu bytes of %s as text",
				   len, aieth__elem_name(t));
	per_line = 16 / pi.psize;
	for (i = 0; i < scalars; i++) {
		o += format_part(pi, data + i * pi.psize, buf + o);
		buf[o++] = (i + 1) % per_line == 0 || i + 1 == scalars ? '\n' : ' ';
	}
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return AIETH_OK;
}

int aieth__text_write(const char *path, aieth_elem t, const uint8_t *data, size_t len)
{
	char *text;
	size_t n;
	int rc;
	if (!path)
		return aieth__fail(AIETH_EINVAL, "aieth__text_write: no path");
	rc = aieth__text_format(t, data, len, &text, &n);
	if (rc != AIETH_OK)
		return aieth__fail_prefix(rc, "%s", path);
	rc = aieth__write_atomic(path, text, n);
	free(text);
	return rc;
}
