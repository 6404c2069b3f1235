/* SPDX-License-Identifier: MIT */
/*
 * json_strict.c - strict JSON input on top of json-c.
 *
 * json-c builds the tree and reports most syntax errors. It is lenient in a
 * few places (single-quoted strings, NaN/Infinity, "1.", raw control
 * characters in strings, integers that overflow 64 bits are clamped) and it
 * silently keeps the last of two duplicate keys. So after json-c accepted a
 * text, a small scanner of our own walks the raw text once more, checks it
 * against the RFC 8259 grammar and finds the first duplicate key in any
 * object, naming its JSON path and line:column.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/json_strict.h"
#include "util/suggest.h"
#include "util/text.h"

#define JSTRICT_MAX_DEPTH 64

/* ------------------------------------------------------------- helpers */

void aieth__jstrict_line_col(const char *text, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	size_t i;
	for (i = 0; text && i < off; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	if (line)
		*line = l;
	if (col)
		*col = c;
}

static const char *type_article(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number with a fraction or exponent";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "an unknown type";
}

/* The JSON text of a value, shortened and made printable. */
static void render_value(char *dst, size_t cap, struct json_object *v)
{
	const char *s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = s ? strlen(s) : 0, i, o = 0;
	const size_t limit = 60;
	if (cap == 0)
		return;
	for (i = 0; i < n && i < limit && o + 5 < cap; i++) {
		unsigned char ch = (unsigned char)s[i];
		dst[o++] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
	}
	if (i < n && o + 4 < cap) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

/* "<path>.<key>" or "<key>" when path is empty. */
static void field_path(char *dst, size_t cap, const char *path, const char *key)
{
	char qk[200];
	aieth__quote_str(qk, sizeof qk, key);
	if (path && *path)
		snprintf(dst, cap, "%s.%s", path, qk);
	else
		snprintf(dst, cap, "%s", qk);
}

/* "<what>: " or "<what>: <path>: " prefix. */
static void where_prefix(char *dst, size_t cap, const char *what, const char *path)
{
	if (path && *path)
		snprintf(dst, cap, "%s: %s: ", what ? what : "(input)", path);
	else
		snprintf(dst, cap, "%s: ", what ? what : "(input)");
}

/* ------------------------------------------------------------- scanner */

typedef struct {
	uint32_t frame; /* id of the object the key belongs to */
	uint32_t hash;
	size_t off, len; /* decoded key in the arena */
	size_t pos;      /* offset of the key's quote in the text */
} key_ent;

typedef struct {
	int is_obj;
	uint32_t id;
	size_t index;                     /* arrays: current element */
	size_t key_off, key_len, key_pos; /* objects: current key */
	int has_key;
} frame_t;

typedef struct {
	const char *what;
	const char *t;
	size_t len, pos;
	char *arena;
	size_t arena_len, arena_cap;
	key_ent *keys; /* open addressing; len 0 = empty slot */
	size_t nkeys, keys_cap;
	frame_t st[JSTRICT_MAX_DEPTH + 1];
	int depth; /* frames in use */
	uint32_t next_id;
	int err;
} scanner;

static int sc_fail(scanner *s, size_t off, const char *fmt, const char *a)
{
	unsigned line, col;
	char msg[512];
	aieth__jstrict_line_col(s->t, off, &line, &col);
	snprintf(msg, sizeof msg, fmt, a ? a : "");
	s->err = AIETH_EPARSE;
	return aieth__fail(AIETH_EPARSE, "%s:%u:%u: %s", s->what, line, col, msg);
}

static int sc_nomem(scanner *s)
{
	s->err = AIETH_ENOMEM;
	return aieth__fail(AIETH_ENOMEM, "%s: out of memory while checking keys", s->what);
}

static int arena_put(scanner *s, const char *p, size_t n)
{
	if (AIETH__GROW(s->arena, s->arena_cap, s->arena_len + n, 256, 0))
		return sc_nomem(s);
	memcpy(s->arena + s->arena_len, p, n);
	s->arena_len += n;
	return 0;
}

static void skip_ws(scanner *s)
{
	while (s->pos < s->len) {
		char c = s->t[s->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		s->pos++;
	}
}

/* Four hex digits at s->pos (after "\u"); -1 if malformed. */
static long read_hex4(scanner *s)
{
	long v = 0;
	int i;
	if (s->len - s->pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		int h = aieth__hexval(s->t[s->pos + (size_t)i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	s->pos += 4;
	return v;
}

static int put_utf8(scanner *s, unsigned long cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return arena_put(s, b, n);
}

/* A string at s->pos (on its opening quote). decode: append the decoded
 * bytes to the arena (keys). Leaves s->pos after the closing quote. */
static int scan_string(scanner *s, int decode)
{
	size_t start = s->pos;
	s->pos++;
	for (;;) {
		unsigned char c;
		if (s->pos >= s->len)
			return sc_fail(s, start, "unterminated string%s", NULL);
		c = (unsigned char)s->t[s->pos];
		if (c == '"') {
			s->pos++;
			return 0;
		}
		if (c < 0x20) {
			char hx[8];
			snprintf(hx, sizeof hx, "%04X", c);
			return sc_fail(s, s->pos,
				       "control character U+%s in a string must be escaped", hx);
		}
		if (c != '\\') {
			size_t run = s->pos;
			while (run < s->len && s->t[run] != '"' && s->t[run] != '\\' &&
			       (unsigned char)s->t[run] >= 0x20)
				run++;
			if (decode && arena_put(s, s->t + s->pos, run - s->pos))
				return s->err;
			s->pos = run;
			continue;
		}
		/* escape */
		{
			size_t esc = s->pos;
			char e, out = 0;
			if (s->pos + 1 >= s->len)
				return sc_fail(s, esc, "unterminated escape sequence%s", NULL);
			e = s->t[s->pos + 1];
			s->pos += 2;
			switch (e) {
			case '"': out = '"'; break;
			case '\\': out = '\\'; break;
			case '/': out = '/'; break;
			case 'b': out = '\b'; break;
			case 'f': out = '\f'; break;
			case 'n': out = '\n'; break;
			case 'r': out = '\r'; break;
			case 't': out = '\t'; break;
			case 'u': {
				long u = read_hex4(s), lo;
				unsigned long cp;
				if (u < 0)
					return sc_fail(s, esc, "malformed \\u escape%s", NULL);
				if (u >= 0xdc00 && u <= 0xdfff)
					return sc_fail(s, esc, "unpaired surrogate in \\u escape%s",
						       NULL);
				cp = (unsigned long)u;
				if (u >= 0xd800 && u <= 0xdbff) {
					if (s->len - s->pos < 2 || s->t[s->pos] != '\\' ||
					    s->t[s->pos + 1] != 'u')
						return sc_fail(s, esc,
							       "unpaired surrogate in \\u escape%s",
							       NULL);
					s->pos += 2;
					lo = read_hex4(s);
					if (lo < 0xdc00 || lo > 0xdfff)
						return sc_fail(s, esc,
							       "unpaired surrogate in \\u escape%s",
							       NULL);
					cp = 0x10000 + (((unsigned long)u - 0xd800) << 10) +
					     ((unsigned long)lo - 0xdc00);
				}
				if (decode && cp == 0)
					return sc_fail(s, esc, "a key must not contain \\u0000%s",
						       NULL);
				if (decode && put_utf8(s, cp))
					return s->err;
				continue;
			}
			default:
				return sc_fail(s, esc, "invalid escape sequence in a string%s",
					       NULL);
			}
			if (decode && arena_put(s, &out, 1))
				return s->err;
		}
	}
}

/* Does the digit string d (n digits, no leading zeros) exceed lim? */
static int digits_exceed(const char *d, size_t n, const char *lim)
{
	size_t ln = strlen(lim);
	if (n != ln)
		return n > ln;
	return memcmp(d, lim, n) > 0;
}

static int scan_number(scanner *s)
{
	size_t start = s->pos, dstart;
	int neg = 0, integer = 1;
	char tok[64];
	if (s->t[s->pos] == '-') {
		neg = 1;
		s->pos++;
	}
	dstart = s->pos;
	if (s->pos >= s->len || s->t[s->pos] < '0' || s->t[s->pos] > '9')
		return sc_fail(s, start, "malformed number%s", NULL);
	if (s->t[s->pos] == '0') {
		s->pos++;
	} else {
		while (s->pos < s->len && s->t[s->pos] >= '0' && s->t[s->pos] <= '9')
			s->pos++;
	}
	{
		size_t nd = s->pos - dstart;
		const char *d = s->t + dstart;
		if (s->pos < s->len && s->t[s->pos] == '.') {
			integer = 0;
			s->pos++;
			if (s->pos >= s->len || s->t[s->pos] < '0' || s->t[s->pos] > '9')
				return sc_fail(s, start,
					       "malformed number: digits must follow '.'%s", NULL);
			while (s->pos < s->len && s->t[s->pos] >= '0' && s->t[s->pos] <= '9')
				s->pos++;
		}
		if (s->pos < s->len && (s->t[s->pos] == 'e' || s->t[s->pos] == 'E')) {
			integer = 0;
			s->pos++;
			if (s->pos < s->len && (s->t[s->pos] == '+' || s->t[s->pos] == '-'))
				s->pos++;
			if (s->pos >= s->len || s->t[s->pos] < '0' || s->t[s->pos] > '9')
				return sc_fail(s, start, "malformed number exponent%s", NULL);
			while (s->pos < s->len && s->t[s->pos] >= '0' && s->t[s->pos] <= '9')
				s->pos++;
		}
		if (integer &&
		    digits_exceed(d, nd, neg ? "9223372036854775808" : "18446744073709551615")) {
			aieth__quote(tok, sizeof tok, s->t + start, s->pos - start);
			return sc_fail(s, start, "integer %s does not fit in 64 bits", tok);
		}
	}
	return 0;
}

static int scan_literal(scanner *s)
{
	static const char *const lits[] = {"true", "false", "null"};
	size_t i;
	for (i = 0; i < 3; i++) {
		size_t n = strlen(lits[i]);
		if (s->len - s->pos >= n && memcmp(s->t + s->pos, lits[i], n) == 0) {
			s->pos += n;
			return 0;
		}
	}
	return sc_fail(s, s->pos, "unexpected character (not a JSON value)%s", NULL);
}

static uint32_t hash_key(uint32_t frame, const char *p, size_t n)
{
	uint32_t h = 2166136261u ^ frame;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 16777619u;
	}
	return h;
}

static int keys_grow(scanner *s)
{
	size_t cap = s->keys_cap ? s->keys_cap * 2 : 64, i;
	key_ent *nk = calloc(cap, sizeof *nk);
	if (!nk)
		return sc_nomem(s);
	for (i = 0; i < s->keys_cap; i++) {
		key_ent *e = &s->keys[i];
		size_t j;
		if (!e->frame)
			continue;
		j = e->hash & (cap - 1);
		while (nk[j].frame)
			j = (j + 1) & (cap - 1);
		nk[j] = *e;
	}
	free(s->keys);
	s->keys = nk;
	s->keys_cap = cap;
	return 0;
}

/* JSON path of the current position: the keys and indices of the open
 * frames, then `last` (n bytes) as the final key. */
static void build_path(scanner *s, char *dst, size_t cap, const char *last, size_t n)
{
	size_t o = 0;
	int i;
	char part[200];
	dst[0] = '\0';
	for (i = 0; i < s->depth; i++) {
		frame_t *f = &s->st[i];
		if (i == s->depth - 1)
			break; /* the innermost frame's current key is `last` */
		if (f->is_obj && f->key_len == 0)
			snprintf(part, sizeof part, "\"\"");
		else if (f->is_obj)
			aieth__quote(part, sizeof part, s->arena + f->key_off, f->key_len);
		else
			snprintf(part, sizeof part, "[%zu]", f->index);
		if (o + strlen(part) + 2 >= cap)
			break;
		o += (size_t)snprintf(dst + o, cap - o, "%s%s", (o && f->is_obj) ? "." : "", part);
	}
	if (n == 0)
		snprintf(part, sizeof part, "\"\""); /* the empty key */
	else
		aieth__quote(part, sizeof part, last, n);
	if (o + strlen(part) + 2 < cap)
		snprintf(dst + o, cap - o, "%s%s", o ? "." : "", part);
}

/* Record key (arena[off..off+len)) of the innermost object; error if the
 * object already has it. */
static int add_key(scanner *s, size_t off, size_t len, size_t pos)
{
	frame_t *f = &s->st[s->depth - 1];
	uint32_t h = hash_key(f->id, s->arena + off, len);
	size_t j;
	if ((s->nkeys + 1) * 2 > s->keys_cap && keys_grow(s))
		return s->err;
	j = h & (s->keys_cap - 1);
	while (s->keys[j].frame) {
		key_ent *e = &s->keys[j];
		if (e->frame == f->id && e->hash == h && e->len == len &&
		    memcmp(s->arena + e->off, s->arena + off, len) == 0) {
			char path[600], msg[900];
			unsigned l0, c0, l1, c1;
			build_path(s, path, sizeof path, s->arena + off, len);
			aieth__jstrict_line_col(s->t, e->pos, &l0, &c0);
			aieth__jstrict_line_col(s->t, pos, &l1, &c1);
			snprintf(msg, sizeof msg, "%s: duplicate key (first defined at %u:%u)",
				 path, l0, c0);
			s->err = AIETH_EPARSE;
			return aieth__fail(AIETH_EPARSE, "%s:%u:%u: %s", s->what, l1, c1, msg);
		}
		j = (j + 1) & (s->keys_cap - 1);
	}
	s->keys[j].frame = f->id;
	s->keys[j].hash = h;
	s->keys[j].off = off;
	s->keys[j].len = len;
	s->keys[j].pos = pos;
	s->nkeys++;
	f->key_off = off;
	f->key_len = len;
	f->key_pos = pos;
	f->has_key = 1;
	return 0;
}

static int push(scanner *s, int is_obj)
{
	frame_t *f;
	if (s->depth >= JSTRICT_MAX_DEPTH)
		return sc_fail(s, s->pos, "nesting deeper than 64 levels%s", NULL);
	f = &s->st[s->depth++];
	memset(f, 0, sizeof *f);
	f->is_obj = is_obj;
	f->id = ++s->next_id;
	s->pos++;
	return 0;
}

enum { S_VALUE, S_AFTER, S_KEY_OR_END, S_KEY };

static int scan(scanner *s)
{
	int state = S_VALUE;
	for (;;) {
		char c;
		skip_ws(s);
		if (state == S_AFTER && s->depth == 0) {
			if (s->pos != s->len)
				return sc_fail(s, s->pos,
					       "trailing characters after the JSON value%s", NULL);
			return 0;
		}
		if (s->pos >= s->len)
			return sc_fail(s, s->pos, "unexpected end of input%s", NULL);
		c = s->t[s->pos];
		switch (state) {
		case S_VALUE:
			if (c == '{') {
				if (push(s, 1))
					return s->err;
				state = S_KEY_OR_END;
			} else if (c == '[') {
				if (push(s, 0))
					return s->err;
				skip_ws(s);
				if (s->pos < s->len && s->t[s->pos] == ']') {
					s->pos++;
					s->depth--;
					state = S_AFTER;
				}
			} else if (c == '"') {
				if (scan_string(s, 0))
					return s->err;
				state = S_AFTER;
			} else if (c == '-' || (c >= '0' && c <= '9')) {
				if (scan_number(s))
					return s->err;
				state = S_AFTER;
			} else {
				if (scan_literal(s))
					return s->err;
				state = S_AFTER;
			}
			break;
		case S_AFTER: {
			frame_t *f = &s->st[s->depth - 1];
			if (c == ',') {
				s->pos++;
				if (f->is_obj) {
					state = S_KEY;
				} else {
					f->index++;
					state = S_VALUE;
				}
			} else if ((c == '}' && f->is_obj) || (c == ']' && !f->is_obj)) {
				s->pos++;
				s->depth--;
				state = S_AFTER;
			} else {
				return sc_fail(s, s->pos, "%s",
					       f->is_obj ? "expected ',' or '}'"
							 : "expected ',' or ']'");
			}
			break;
		}
		case S_KEY_OR_END:
			if (c == '}') {
				s->pos++;
				s->depth--;
				state = S_AFTER;
				break;
			}
			/* fall through */
		case S_KEY: {
			size_t kpos = s->pos, off = s->arena_len;
			if (c != '"')
				return sc_fail(s, s->pos, "expected a key in double quotes%s",
					       NULL);
			if (scan_string(s, 1))
				return s->err;
			if (add_key(s, off, s->arena_len - off, kpos))
				return s->err;
			skip_ws(s);
			if (s->pos >= s->len || s->t[s->pos] != ':')
				return sc_fail(s, s->pos, "expected ':' after a key%s", NULL);
			s->pos++;
			state = S_VALUE;
			break;
		}
		default: return sc_fail(s, s->pos, "internal scanner state%s", NULL);
		}
	}
}

static int strict_scan(const char *what, const char *text, size_t len)
{
	scanner *s = calloc(1, sizeof *s);
	int rc;
	if (!s)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	s->what = what;
	s->t = text;
	s->len = len;
	/* Never NULL, so an empty first key still points into the arena. */
	s->arena_cap = 256;
	s->arena = malloc(s->arena_cap);
	if (!s->arena) {
		free(s);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	}
	rc = scan(s);
	free(s->arena);
	free(s->keys);
	free(s);
	return rc;
}

/* ---------------------------------------------------------------- parse */

int aieth__jstrict_parse(const char *what, const char *text, size_t len, struct json_object **out)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	int flags = JSON_TOKENER_STRICT;
	unsigned line, col;
	size_t end;
	int rc;

	*out = NULL;
	if (!what)
		what = "(input)";
	if (!text)
		len = 0;
	if (len > (size_t)INT_MAX - 1)
		return aieth__fail(AIETH_EPARSE, "%s: input of %zu bytes is too large to parse",
				   what, len);
	/* A UTF-8 byte order mark, as some Windows editors write: RFC 8259 lets
	 * a parser ignore it, and editors do not count it as a column. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	if (len == 0)
		return aieth__fail(AIETH_EPARSE, "%s:1:1: empty input (expected a JSON value)",
				   what);
	tok = json_tokener_new_ex(JSTRICT_MAX_DEPTH);
	if (!tok)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
#ifdef JSON_TOKENER_VALIDATE_UTF8
	flags |= JSON_TOKENER_VALIDATE_UTF8;
#endif
	json_tokener_set_flags(tok, flags);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!obj && jerr == json_tokener_continue) {
		/* A top-level number or literal ends only at the next character:
		 * feed the terminating NUL. Anything else is truncated input; a
		 * success without an object is the literal null. */
		obj = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		end = len;
		if (!obj && jerr == json_tokener_continue)
			jerr = json_tokener_error_parse_eof;
	}
	json_tokener_free(tok);
	if (!obj && jerr == json_tokener_success) {
		/* a JSON null: json-c represents it by no object */
		return strict_scan(what, text, len);
	}
	if (!obj) {
		if (end > len)
			end = len;
		aieth__jstrict_line_col(text, end, &line, &col);
		if (jerr == json_tokener_error_depth)
			return aieth__fail(AIETH_EPARSE, "%s:%u:%u: %s (the limit is %d levels)",
					   what, line, col, json_tokener_error_desc(jerr),
					   JSTRICT_MAX_DEPTH);
		return aieth__fail(AIETH_EPARSE, "%s:%u:%u: %s", what, line, col,
				   json_tokener_error_desc(jerr));
	}
	/* json-c accepted it: check the grammar strictly and find duplicates. */
	rc = strict_scan(what, text, len);
	if (rc) {
		json_object_put(obj);
		return rc;
	}
	*out = obj;
	return AIETH_OK;
}

/* ----------------------------------------------------------- accessors */

static int need_object(const char *what, const char *path, struct json_object *obj)
{
	char pre[600], val[100];
	if (json_object_is_type(obj, json_type_object))
		return 0;
	where_prefix(pre, sizeof pre, what, path);
	render_value(val, sizeof val, obj);
	return aieth__fail(AIETH_EPARSE, "%sexpected an object, got %s (%s)", pre,
			   type_article(obj), val);
}

int aieth__jstrict_keys(const char *what, const char *path, struct json_object *obj,
			const char *const *allowed)
{
	struct json_object_iterator it, end;
	int rc = need_object(what, path, obj);
	if (rc)
		return rc;
	it = json_object_iter_begin(obj);
	end = json_object_iter_end(obj);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		const char *const *a;
		int ok = 0;
		for (a = allowed; a && *a; a++)
			if (strcmp(*a, k) == 0) {
				ok = 1;
				break;
			}
		if (!ok) {
			char pre[600], qk[200], list[1024], hint[AIETH_QUOTE_CAP + 24];
			size_t o = 0;
			where_prefix(pre, sizeof pre, what, path);
			aieth__quote_str(qk, sizeof qk, k);
			list[0] = '\0';
			for (a = allowed; a && *a && o + 1 < sizeof list; a++)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
						      a == allowed ? "" : ", ", *a);
			if (!allowed || !*allowed)
				snprintf(list, sizeof list, "none");
			/* the suggestion last: the message before it is the same
			 * with and without one */
			aieth__suggest_list(hint, sizeof hint, k, allowed);
			return aieth__fail(AIETH_EPARSE,
					   "%skey \"%s\" is not allowed here (allowed: %s)%s", pre,
					   qk, list, hint);
		}
	}
	return 0;
}

/* Look up key in obj: 0 and *v set when present; 1 when absent and not
 * required; an error code otherwise. */
static int lookup(const char *what, const char *path, struct json_object *obj, const char *key,
		  int required, struct json_object **v)
{
	int rc = need_object(what, path, obj);
	if (rc)
		return rc;
	if (!key)
		return aieth__fail(AIETH_EINVAL, "%s: internal error: no key given", what);
	if (!json_object_object_get_ex(obj, key, v)) {
		char pre[600], qk[200];
		if (!required)
			return 1;
		where_prefix(pre, sizeof pre, what, path);
		aieth__quote_str(qk, sizeof qk, key);
		return aieth__fail(AIETH_EPARSE, "%srequired key \"%s\" is missing", pre, qk);
	}
	return 0;
}

static int wrong_type(const char *what, const char *path, const char *key, const char *expected,
		      struct json_object *v)
{
	char fp[600], val[100];
	field_path(fp, sizeof fp, path, key);
	render_value(val, sizeof val, v);
	return aieth__fail(AIETH_EPARSE, "%s: %s: expected %s, got %s (%s)",
			   what ? what : "(input)", fp, expected, type_article(v), val);
}

int aieth__jstrict_get_string(const char *what, const char *path, struct json_object *obj,
			      const char *key, int required, const char **out)
{
	struct json_object *v = NULL;
	int rc = lookup(what, path, obj, key, required, &v);
	const char *s;
	if (rc == 1)
		return 0;
	if (rc)
		return rc;
	if (!json_object_is_type(v, json_type_string))
		return wrong_type(what, path, key, "a string", v);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(s)) {
		char fp[600];
		field_path(fp, sizeof fp, path, key);
		return aieth__fail(AIETH_EPARSE,
				   "%s: %s: string contains a NUL character (\\u0000)",
				   what ? what : "(input)", fp);
	}
	if (out)
		*out = s;
	return 0;
}

int aieth__jstrict_get_u64(const char *what, const char *path, struct json_object *obj,
			   const char *key, int required, uint64_t min, uint64_t max, uint64_t *out)
{
	struct json_object *v = NULL;
	int rc = lookup(what, path, obj, key, required, &v);
	char fp[600];
	int64_t i;
	uint64_t u;
	if (rc == 1)
		return 0;
	if (rc)
		return rc;
	if (!json_object_is_type(v, json_type_int))
		return wrong_type(what, path, key, "an integer", v);
	field_path(fp, sizeof fp, path, key);
	i = json_object_get_int64(v);
	if (i < 0)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: %s: value %lld is out of range (%llu..%llu): it must not be "
			"negative",
			what ? what : "(input)", fp, (long long)i, (unsigned long long)min,
			(unsigned long long)max);
	u = json_object_get_uint64(v);
	if (u < min || u > max)
		return aieth__fail(AIETH_EINVAL, "%s: %s: value %llu is out of range (%llu..%llu)",
				   what ? what : "(input)", fp, (unsigned long long)u,
				   (unsigned long long)min, (unsigned long long)max);
	if (out)
		*out = u;
	return 0;
}

int aieth__jstrict_get_u32(const char *what, const char *path, struct json_object *obj,
			   const char *key, int required, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	int rc = aieth__jstrict_get_u64(what, path, obj, key, required, min, max, &v);
	if (rc)
		return rc;
	/* Absent and optional: leave *out as it is. */
	if (out && json_object_object_get_ex(obj, key, NULL))
		*out = (uint32_t)v;
	return 0;
}

int aieth__jstrict_get_object(const char *what, const char *path, struct json_object *obj,
			      const char *key, int required, struct json_object **out)
{
	struct json_object *v = NULL;
	int rc = lookup(what, path, obj, key, required, &v);
	if (rc == 1)
		return 0;
	if (rc)
		return rc;
	if (!json_object_is_type(v, json_type_object))
		return wrong_type(what, path, key, "an object", v);
	if (out)
		*out = v;
	return 0;
}

int aieth__jstrict_parse_object(const char *what, const char *text, size_t len, size_t max,
				struct json_object **out)
{
	int rc;
	*out = NULL;
	if (len > max)
		return aieth__fail(AIETH_EPARSE, "%s: %zu bytes, at most %zu", what, len, max);
	if ((rc = aieth__jstrict_parse(what, text, len, out)))
		return rc;
	if (!*out || !json_object_is_type(*out, json_type_object)) {
		json_object_put(*out);
		*out = NULL;
		return aieth__fail(AIETH_EPARSE, "%s: expected an object at the top", what);
	}
	return AIETH_OK;
}

size_t aieth__jstrict_count(struct json_object *c)
{
	if (json_object_is_type(c, json_type_object))
		return (size_t)json_object_object_length(c);
	if (json_object_is_type(c, json_type_array))
		return json_object_array_length(c);
	return 0;
}
