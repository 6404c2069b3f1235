/* SPDX-License-Identifier: MIT */
/*
 * report_esc.c - what every visual writer shares and calls, a leaf of the
 * others (report_html.c, report_svg.c, report_dist.c, report_curve.c,
 * report_sweep_html.c, report_trace.c): escaping for HTML/XML and JSON,
 * file-name parts, the status badge.
 */
#include <stdio.h>
#include <string.h>

#include "report/report_model.h"
#include "report/report_visual.h"
#include "util/utf8.h"

/* The valid UTF-8 character at s (2..4 bytes), or 0 (util/utf8.h). */
static size_t utf8_seq(const unsigned char *s) { return aieth__utf8_seq((const char *)s); }

void aieth__rv_esc(sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (p && *p) {
		size_t n;
		switch (*p) {
		case '&': sb_lit(b, "&amp;"); break;
		case '<': sb_lit(b, "&lt;"); break;
		case '>': sb_lit(b, "&gt;"); break;
		case '"': sb_lit(b, "&quot;"); break;
		case '\'': sb_lit(b, "&#39;"); break;
		default:
			if (*p >= 0x80 && (n = utf8_seq(p)) > 0) {
				aieth__sb_put(b, (const char *)p, n);
				p += n;
				continue;
			}
			if (*p < 0x20 || *p >= 0x7f)
				sb_lit(b, "?");
			else
				aieth__sb_put(b, (const char *)p, 1);
		}
		p++;
	}
}

void aieth__rv_json(sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	sb_lit(b, "\"");
	while (p && *p) {
		size_t n;
		if (*p == '"' || *p == '\\') {
			sb_lit(b, "\\");
			aieth__sb_put(b, (const char *)p, 1);
		} else if (*p < 0x20 || *p == 0x7f) {
			aieth__sb_printf(b, "\\u%04x", *p);
		} else if (*p >= 0x80) {
			if ((n = utf8_seq(p)) > 0) {
				aieth__sb_put(b, (const char *)p, n);
				p += n;
				continue;
			}
			sb_lit(b, "?");
		} else {
			aieth__sb_put(b, (const char *)p, 1);
		}
		p++;
	}
	sb_lit(b, "\"");
}

/* s escaped, cut to at most max bytes on a character boundary ("..."
 * marks the cut): long names keep the chart's layout. */
void aieth__rv_esc_cut(sbuf *b, const char *s, size_t max)
{
	char tmp[256];
	size_t n = strlen(s);
	if (max >= sizeof tmp)
		max = sizeof tmp - 1;
	if (n <= max) {
		aieth__rv_esc(b, s);
		return;
	}
	n = max - 3;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(tmp, s, n);
	memcpy(tmp + n, "...", 4);
	aieth__rv_esc(b, tmp);
}

void aieth__rv_file_part(char *dst, size_t n, const char *s)
{
	size_t i = 0;
	if (!n)
		return;
	for (; s && *s && i + 1 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || (ch == '.' && i);
		dst[i++] = keep ? (char)ch : '_';
	}
	if (!i && n > 1)
		dst[i++] = '_';
	dst[i] = '\0';
}

/* A class for a status word (the report's words only; anything else is
 * "error"): the page never puts a report string in an attribute raw. */
static const char *st_class(const char *s)
{
	static const char *const known[] = {"pass", "fail", "timeout", "skip", "interrupted"};
	size_t i;
	for (i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(s, known[i]))
			return known[i];
	if (!strcmp(s, "done"))
		return "pass";
	return "error";
}

void aieth__rv_badge(sbuf *b, const char *status)
{
	aieth__sb_printf(b, "<span class=\"b %s\">", st_class(status));
	aieth__rv_esc(b, status);
	sb_lit(b, "</span>");
}

void aieth__rv_more_row(sbuf *b, int cols, size_t more, const char *what, const char *where)
{
	aieth__sb_printf(b,
			 "<tr><td class=\"l note\" colspan=\"%d\">%zu more %s: see %s</td></tr>\n",
			 cols, more, what, where);
}

void aieth__rv_test_row(sbuf *b, const char *first, struct json_object *test, size_t i, int linked)
{
	sb_lit(b, "<tr>");
	if (first)
		aieth__sb_printf(b, "<td>%s</td>", first);
	sb_lit(b, "<td class=\"l\">");
	if (linked)
		aieth__sb_printf(b, "<a href=\"#t%zu\">", i);
	aieth__rv_esc(b, aieth__rj_gets(test, "name"));
	aieth__sb_printf(b, "%s</td><td>", linked ? "</a>" : "");
	aieth__rv_badge(b, aieth__rj_gets(test, "status"));
	sb_lit(b, "</td>");
}
