/* SPDX-License-Identifier: MIT */
/*
 * amd_log.c - reading AMD's printPerf lines from a log (amd_log.h). A log
 * is untrusted input: every line that has the shape of a printPerf line
 * must have its exact wording, numbers are parsed by hand (no locale, no
 * overflow), and the events kept are bounded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner/amd_log.h"
#include "util/error.h"
#include "util/grow.h"

static const char TX_MID[] = "_TO_AIE send the first data at cycle[";
static const char RX_MID[] = "_FROM_AIE received the first data at cycle[";
static const char ENDS[] = "], ends at cycle[";
static const char THR[] = "], and the throughputs is ";
static const char UNIT[] = " MBps.";
static const char SHAPE[] = "first data at cycle[";
static const char W_TIMEOUT[] =
	"The performance information of this transaction is not available due to timeout.";
static const char W_UNFINISHED[] = "The performance information of this transaction is not "
				   "available due to the transaction is not finished yet.";

int aieth__amd_log_is_json(const char *text, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i < len && text[i] == '{';
}

void aieth__amd_log_free(aieth__amd_log *l)
{
	if (!l)
		return;
	free(l->ev);
	memset(l, 0, sizeof *l);
}

/* s[0..n) starts with lit */
static int starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && !memcmp(s, lit, k);
}

static int contains(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit), i;
	for (i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && !memcmp(s + i, lit, k))
			return 1;
	return 0;
}

/* AMD's logger prefix "[%Y-%m-%d %X] [LEVEL] " (test_harness_logging.hpp):
 * its length, or 0. The time is the locale's %X, so only its brackets are
 * checked. */
static size_t logger_prefix(const char *s, size_t n)
{
	static const char *const levels[] = {"INFO", "WARNING", "ERROR", "DEBUG"};
	size_t i = 1, l;
	if (!n || s[0] != '[')
		return 0;
	while (i < n && i <= 64 && s[i] != ']')
		i++;
	if (i >= n || s[i] != ']' || i == 1 || !starts(s + i, n - i, "] ["))
		return 0;
	i += 3;
	for (l = 0; l < 4; l++) {
		size_t k = strlen(levels[l]);
		if (starts(s + i, n - i, levels[l]) && starts(s + i + k, n - i - k, "] "))
			return i + k + 2;
	}
	return 0;
}

/* A uint64_t in decimal at s[*p..n): 1 to 20 digits, no sign. */
static int read_u64(const char *s, size_t n, size_t *p, uint64_t *v)
{
	size_t i = *p, start = i;
	uint64_t x = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		unsigned d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		i++;
	}
	if (i == start)
		return -1;
	*p = i;
	*v = x;
	return 0;
}

/* iostream's default output of a positive double: "inf", or digits with an
 * optional fraction and an optional exponent ("2384.19", "1.52588e+06",
 * "9.53674e-07"). No locale: the decimal point is '.', as AMD's (C++)
 * program prints it in the "C" locale it never changes. */
static int read_throughput(const char *s, size_t n, size_t *p, double *v)
{
	size_t i = *p, digits = 0;
	double m = 0;
	long frac = 0, ex = 0;
	if (starts(s + i, n - i, "inf")) {
		*v = INFINITY;
		*p = i + 3;
		return 0;
	}
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		if (digits < 30)
			m = m * 10 + (s[i] - '0');
		else
			frac--; /* beyond double's precision: scale instead */
		digits++;
		i++;
	}
	if (!digits)
		return -1;
	if (i < n && s[i] == '.') {
		size_t fd = 0;
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (digits < 30) {
				m = m * 10 + (s[i] - '0');
				frac++;
			}
			digits++;
			fd++;
			i++;
		}
		if (!fd)
			return -1;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int neg = 0;
		size_t ed = 0;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			neg = s[i++] == '-';
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (ed < 4)
				ex = ex * 10 + (s[i] - '0');
			ed++;
			i++;
		}
		if (!ed || ed > 4)
			return -1;
		if (neg)
			ex = -ex;
	}
	*v = m * pow(10.0, (double)(ex - frac));
	*p = i;
	return 0;
}

static int push(aieth__amd_log *l, size_t *cap, const amd_log_ev *e, const char *path)
{
	if (l->n >= AMD_LOG_MAX_EVENTS)
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: more than %u printPerf lines and warnings "
				   "(the limit of a log)",
				   path, e->line, AMD_LOG_MAX_EVENTS);
	if (AIETH__GROW(l->ev, *cap, l->n + 1, 64, AMD_LOG_MAX_EVENTS))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	l->ev[l->n++] = *e;
	return AIETH_OK;
}

/* One printPerf line, msg[0..n) after the logger's prefix. */
static int perf_line(const char *path, size_t line, const char *m, size_t n, amd_log_ev *e)
{
	static const char expect[] = "expected AMD's printPerf wording, \"PLIO_<n>_TO_AIE send the "
				     "first data at cycle[<c>], ends at cycle[<c>], and the "
				     "throughputs is <x> MBps.\" or \"PLIO_<n>_FROM_AIE received "
				     "the first data at ...\"";
	size_t p = 5, d0;
	uint64_t ch;
	d0 = p;
	while (p < n && m[p] >= '0' && m[p] <= '9')
		p++;
	if (p == d0)
		return aieth__fail(AIETH_EINVAL, "%s:%zu: no channel number after PLIO_: %s", path,
				   line, expect);
	if (m[d0] == '0')
		return aieth__fail(
			AIETH_EINVAL,
			"%s:%zu: channel number with a leading zero: AMD's "
			"printPerf prints channel numbers unpadded (PLIO_1_TO_AIE, where "
			"PLIO names say PLIO_01_TO_AIE); this line is not AMD's",
			path, line);
	if (p - d0 > 3)
		return aieth__fail(AIETH_EINVAL, "%s:%zu: channel number above %u", path, line,
				   AMD_LOG_MAX_CHANNEL);
	if (read_u64(m, n, &d0, &ch) || ch < 1 || ch > AMD_LOG_MAX_CHANNEL)
		return aieth__fail(AIETH_EINVAL, "%s:%zu: channel number out of 1..%u", path, line,
				   AMD_LOG_MAX_CHANNEL);
	e->chan = (unsigned)ch;
	if (starts(m + p, n - p, TX_MID)) {
		e->rx = 0;
		p += strlen(TX_MID);
	} else if (starts(m + p, n - p, RX_MID)) {
		e->rx = 1;
		p += strlen(RX_MID);
	} else {
		return aieth__fail(AIETH_EINVAL, "%s:%zu: %s", path, line, expect);
	}
	if (read_u64(m, n, &p, &e->first))
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: the first cycle: expected a count of 0 to "
				   "2^64-1 in cycle[...]",
				   path, line);
	if (!starts(m + p, n - p, ENDS))
		return aieth__fail(AIETH_EINVAL, "%s:%zu: %s", path, line, expect);
	p += strlen(ENDS);
	if (read_u64(m, n, &p, &e->last))
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: the last cycle: expected a count of 0 to "
				   "2^64-1 in cycle[...]",
				   path, line);
	if (!starts(m + p, n - p, THR))
		return aieth__fail(AIETH_EINVAL, "%s:%zu: %s", path, line, expect);
	p += strlen(THR);
	if (read_throughput(m, n, &p, &e->mibps))
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: the throughput: expected a number as "
				   "iostream prints it (2384.19, 1.52588e+06) or inf",
				   path, line);
	if (!starts(m + p, n - p, UNIT))
		return aieth__fail(AIETH_EINVAL, "%s:%zu: %s", path, line, expect);
	p += strlen(UNIT);
	while (p < n && (m[p] == ' ' || m[p] == '\t'))
		p++;
	if (p != n)
		return aieth__fail(AIETH_EINVAL, "%s:%zu: text after \"MBps.\": %s", path, line,
				   expect);
	e->kind = AMD_EV_PERF;
	return AIETH_OK;
}

int aieth__amd_log_parse(const char *path, const char *text, size_t len, aieth__amd_log *out)
{
	size_t pos = 0, line = 0, cap = 0, foreign = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if (len > AMD_LOG_MAX_FILE)
		return aieth__fail(AIETH_EINVAL, "%s: %zu bytes, the limit of a log is %u bytes",
				   path, len, AMD_LOG_MAX_FILE);
	if (memchr(text, '\0', len)) {
		const char *z = memchr(text, '\0', len);
		size_t i, l = 1;
		for (i = 0; text + i < z; i++)
			l += text[i] == '\n';
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: a NUL byte: neither a report.json nor a "
				   "text log of AMD's printPerf lines",
				   path, l);
	}
	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos, pre, mn;
		const char *m;
		amd_log_ev e;
		pos += n + (nl ? 1 : 0);
		line++;
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (!n)
			continue;
		pre = logger_prefix(s, n);
		m = s + pre;
		mn = n - pre;
		memset(&e, 0, sizeof e);
		e.line = line;
		if (starts(m, mn, "PLIO_") && contains(m, mn, SHAPE)) {
			if ((rc = perf_line(path, line, m, mn, &e)))
				goto fail;
		} else if (mn == strlen(W_TIMEOUT) && !memcmp(m, W_TIMEOUT, mn)) {
			e.kind = AMD_EV_TIMEOUT;
		} else if (mn == strlen(W_UNFINISHED) && !memcmp(m, W_UNFINISHED, mn)) {
			e.kind = AMD_EV_UNFINISHED;
		} else {
			if (!pre && !foreign)
				foreign = line;
			continue;
		}
		e.foreign_line = foreign;
		foreign = 0;
		if ((rc = push(out, &cap, &e, path)))
			goto fail;
	}
	out->lines = line;
	if (!out->n) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: neither a report.json (its first character is not "
				 "'{') nor a log of AMD's printPerf lines (no line like "
				 "\"PLIO_1_TO_AIE send the first data at cycle[0], ends at "
				 "cycle[2048], and the throughputs is 2384.19 MBps.\")",
				 path);
		goto fail;
	}
	return AIETH_OK;
fail:
	aieth__amd_log_free(out);
	return rc;
}
