/* SPDX-License-Identifier: MIT */
/*
 * xclbin_text.c - the text sections XRT's tools parse: EMBEDDED_METADATA
 * is XML (xclbinutil SectionEmbeddedMetadata.cxx marshalToJSON and the
 * runtime's core/common/xclbin_parser.cpp read it with boost
 * property_tree read_xml, a rapidxml parser that does not validate
 * closing tag names), BUILD_METADATA is JSON with a "build_metadata" root
 * (xclbinutil SectionBuildMetadata.cxx marshalToJSON: read_json, then
 * get_child("build_metadata"); it reads up to the first NUL byte).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "aieth.h"
#include "xclbin/xclbin_text.h"

static int xml_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* rapidxml's name characters: anything but white space and the markup
 * that ends a name. */
static int xml_name_char(char c) { return c && !xml_ws(c) && !strchr("/>?=!<'\"", c); }

typedef struct {
	const char *p, *end, *start;
	char why[160];
} xml_in;

static int xml_err(xml_in *x, const char *what)
{
	snprintf(x->why, sizeof x->why, "%s at byte %zu", what, (size_t)(x->p - x->start));
	return -1;
}

/* Skip past the text `until`; -1 at the end of the data. */
static int xml_skip_to(xml_in *x, const char *until)
{
	size_t n = strlen(until);
	for (; x->p + n <= x->end; x->p++)
		if (!memcmp(x->p, until, n)) {
			x->p += n;
			return 0;
		}
	x->p = x->end;
	return xml_err(x, "unexpected end of data");
}

static void xml_skip_ws(xml_in *x)
{
	while (x->p < x->end && xml_ws(*x->p))
		x->p++;
}

/* After "<!": a comment, CDATA, DOCTYPE (with an internal subset) or
 * another declaration rapidxml skips to its '>'. */
static int xml_bang(xml_in *x)
{
	int depth = 0;
	if (x->end - x->p >= 2 && !memcmp(x->p, "--", 2)) {
		x->p += 2;
		return xml_skip_to(x, "-->");
	}
	if (x->end - x->p >= 7 && !memcmp(x->p, "[CDATA[", 7)) {
		x->p += 7;
		return xml_skip_to(x, "]]>");
	}
	for (; x->p < x->end; x->p++) {
		if (*x->p == '[')
			depth++;
		else if (*x->p == ']')
			depth--;
		else if (*x->p == '>' && depth <= 0) {
			x->p++;
			return 0;
		}
	}
	return xml_err(x, "unexpected end of data");
}

/* One element from its '<' (x->p after it), nested ones included. Depth
 * bounded so that hostile input cannot exhaust the stack. */
static int xml_element(xml_in *x, unsigned depth)
{
	char q;
	if (depth > 256)
		return xml_err(x, "elements nested more than 256 deep");
	if (x->p >= x->end || !xml_name_char(*x->p))
		return xml_err(x, "expected element name");
	while (x->p < x->end && xml_name_char(*x->p))
		x->p++;
	for (;;) { /* attributes */
		xml_skip_ws(x);
		if (x->p >= x->end)
			return xml_err(x, "unexpected end of data");
		if (*x->p == '/') {
			if (x->p + 1 >= x->end || x->p[1] != '>')
				return xml_err(x, "expected >");
			x->p += 2;
			return 0;
		}
		if (*x->p == '>') {
			x->p++;
			break;
		}
		if (!xml_name_char(*x->p))
			return xml_err(x, "expected attribute name");
		while (x->p < x->end && xml_name_char(*x->p))
			x->p++;
		xml_skip_ws(x);
		if (x->p >= x->end || *x->p != '=')
			return xml_err(x, "expected =");
		x->p++;
		xml_skip_ws(x);
		if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
			return xml_err(x, "expected ' or \"");
		q = *x->p++;
		while (x->p < x->end && *x->p != q)
			x->p++;
		if (x->p >= x->end)
			return xml_err(x, "unexpected end of data");
		x->p++;
	}
	for (;;) { /* contents, up to the closing tag (its name is not compared) */
		while (x->p < x->end && *x->p != '<')
			x->p++;
		if (x->p >= x->end)
			return xml_err(x, "unexpected end of data");
		x->p++;
		if (x->p < x->end && *x->p == '/') {
			x->p++;
			while (x->p < x->end && xml_name_char(*x->p))
				x->p++;
			xml_skip_ws(x);
			if (x->p >= x->end || *x->p != '>')
				return xml_err(x, "expected >");
			x->p++;
			return 0;
		}
		if (x->p < x->end && *x->p == '?') {
			if (xml_skip_to(x, "?>"))
				return -1;
		} else if (x->p < x->end && *x->p == '!') {
			x->p++;
			if (xml_bang(x))
				return -1;
		} else if (xml_element(x, depth + 1)) {
			return -1;
		}
	}
}

int aieth__xml_check(const char *text, size_t len, char *why, size_t cap)
{
	xml_in x;
	const char *nul = memchr(text, 0, len);
	int elements = 0;
	x.start = x.p = text;
	x.end = nul ? nul : text + len; /* rapidxml stops at a NUL */
	x.why[0] = '\0';
	if (x.end - x.p >= 3 && !memcmp(x.p, "\xef\xbb\xbf", 3))
		x.p += 3;
	for (;;) {
		xml_skip_ws(&x);
		if (x.p >= x.end)
			break;
		if (*x.p != '<') {
			xml_err(&x, "expected <");
			goto bad;
		}
		x.p++;
		if (x.p < x.end && *x.p == '?') {
			if (xml_skip_to(&x, "?>"))
				goto bad;
		} else if (x.p < x.end && *x.p == '!') {
			x.p++;
			if (xml_bang(&x))
				goto bad;
		} else {
			if (xml_element(&x, 0))
				goto bad;
			elements++;
		}
	}
	if (!elements) {
		snprintf(why, cap, "no element");
		return -1;
	}
	return 0;
bad:
	snprintf(why, cap, "%s", x.why);
	return -1;
}

int aieth__build_metadata_check(const char *text, size_t len, char *why, size_t cap)
{
	struct json_tokener *tok;
	struct json_object *root, *bm;
	const char *nul = memchr(text, 0, len);
	size_t n = nul ? (size_t)(nul - text) : len, at;
	int rc = -1;
	if (n > 0x7fffffffu) {
		snprintf(why, cap, "more than 2 GiB of JSON");
		return -1;
	}
	tok = json_tokener_new_ex(512);
	if (!tok) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)n);
	at = json_tokener_get_parse_end(tok);
	if (!root && json_tokener_get_error(tok) == json_tokener_continue) {
		snprintf(why, cap, "not JSON (it ends inside a value at byte %zu)", n);
	} else if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		snprintf(why, cap, "not JSON (%s at byte %zu)",
			 json_tokener_error_desc(json_tokener_get_error(tok)), at);
	} else {
		while (at < n && strchr(" \t\r\n", text[at]))
			at++;
		if (at < n)
			snprintf(why, cap, "not JSON (data after the value at byte %zu)", at);
		else if (!json_object_is_type(root, json_type_object) ||
			 !json_object_object_get_ex(root, "build_metadata", &bm))
			snprintf(why, cap, "no \"build_metadata\" root");
		else
			rc = 0;
	}
	json_object_put(root);
	json_tokener_free(tok);
	return rc;
}
