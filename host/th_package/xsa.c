/* SPDX-License-Identifier: MIT */
/*
 * xsa.c - the XSA (zip) reader. An XSA always holds xsa.json, xsa.xml and
 * sysdef.xml (UG1400; PYNQ reads the same); a Versal XSA also holds the device
 * image (.pdi) whose Image Header Table carries the device IDCODE that the
 * AIE PDI must repeat. Only what the packager needs is read; other members
 * are skipped without being decompressed.
 */
#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/pdi.h"
#include "th_package/xsa.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"

#define XSA_MAX_MEMBERS 100000u
#define XSA_CHUNK (1u << 20)

static int ends_with_ci(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

static int member_error(struct archive *a, const char *what, const char *member)
{
	return aieth__fail(AIETH_EPARSE, "%s: member %s: cannot read: %s", what, member,
			   archive_error_string(a) ? archive_error_string(a) : "unknown error");
}

/* Read the current member (at most max bytes) into a NUL-terminated buffer. */
static int read_member(struct archive *a, const char *what, const char *member, size_t max,
		       char **out, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1), *g;
	la_ssize_t r;
	*out = NULL;
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	for (;;) {
		if (n == cap) {
			if (cap >= max) {
				free(buf);
				return aieth__fail(AIETH_EINVAL,
						   "%s: member %s: larger than the "
						   "%zu-byte limit",
						   what, member, max);
			}
			cap = cap * 2 > max ? max : cap * 2;
			g = realloc(buf, cap + 1);
			if (!g) {
				free(buf);
				return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
			}
			buf = g;
		}
		r = archive_read_data(a, buf + n, cap - n);
		if (r < 0) {
			free(buf);
			return member_error(a, what, member);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return AIETH_OK;
}

/* Look for the IDCODE in a .pdi member, streaming through a window. */
static int scan_pdi(struct archive *a, const char *what, const char *member, aieth_xsa_info *o)
{
	uint8_t *buf = malloc(XSA_CHUNK + 128);
	size_t len = 0, total = 0, consumed;
	la_ssize_t r;
	int rc = AIETH_OK;
	if (!buf)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	while (total < AIETH_PDI_SCAN_BOOT) {
		r = archive_read_data(a, buf + len, XSA_CHUNK + 128 - len);
		if (r < 0) {
			rc = member_error(a, what, member);
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		total += (size_t)r;
		if (aieth__pdi_idcode(buf, len, &o->id_code, &o->ext_id_code) == AIETH_OK) {
			o->has_id_code = 1;
			snprintf(o->pdi_member, sizeof o->pdi_member, "%s", member);
			break;
		}
		/* keep the tail that may hold the start of a table, 4-byte aligned */
		if (len >= 128) {
			consumed = ((len - 128) / 4 + 1) * 4;
			memmove(buf, buf + consumed, len - consumed);
			len -= consumed;
		}
	}
	free(buf);
	return rc;
}

/* A string value under one of the keys, at the top level or one level
 * down (AMD does not document the layout of xsa.json). */
static const char *pick(struct json_object *root, const char *const *keys)
{
	struct json_object *v;
	const char *const *k;
	for (k = keys; *k; k++)
		if (json_object_object_get_ex(root, *k, &v) &&
		    json_object_is_type(v, json_type_string))
			return json_object_get_string(v);
	json_object_object_foreach(root, key, child)
	{
		(void)key;
		if (!json_object_is_type(child, json_type_object))
			continue;
		for (k = keys; *k; k++)
			if (json_object_object_get_ex(child, *k, &v) &&
			    json_object_is_type(v, json_type_string))
				return json_object_get_string(v);
	}
	return NULL;
}

static int parse_xsa_json(aieth_xsa_info *o, const char *what, const char *text, size_t len)
{
	static const char *const vbnv_keys[] = {"platformVBNV", "PlatformVBNV", "vbnv", "VBNV",
						NULL};
	static const char *const name_keys[] = {"name", "Name", NULL};
	static const char *const board_keys[] = {"board", "Board", "board_id", "boardId", NULL};
	static const char *const part_keys[] = {"part", "Part", "partName", "part_name", NULL};
	char w[600];
	struct json_object *root = NULL;
	const char *v;
	size_t i;
	int rc;
	snprintf(w, sizeof w, "%s: member xsa.json", what);
	rc = aieth__jstrict_parse(w, text, len, &root);
	if (rc)
		return rc;
	if (!root || !json_object_is_type(root, json_type_object)) {
		if (root)
			json_object_put(root);
		return aieth__fail(AIETH_EPARSE, "%s: expected a JSON object", w);
	}
	if ((v = pick(root, vbnv_keys))) {
		if (!*v || strlen(v) > 63)
			rc = aieth__fail(AIETH_EINVAL,
					 "%s: platform VBNV \"%.80s\": expected 1..63 "
					 "characters",
					 w, v);
		for (i = 0; !rc && v[i]; i++)
			if (!isalnum((unsigned char)v[i]) && !strchr("_.:-", v[i]))
				rc = aieth__fail(AIETH_EINVAL,
						 "%s: platform VBNV \"%.80s\": character "
						 "%zu is not a letter, digit, _ . : or -",
						 w, v, i + 1);
		if (!rc)
			snprintf(o->vbnv, sizeof o->vbnv, "%s", v);
	}
	if ((v = pick(root, name_keys)))
		snprintf(o->name, sizeof o->name, "%s", v);
	if ((v = pick(root, board_keys)))
		snprintf(o->board, sizeof o->board, "%s", v);
	if (!rc && (v = pick(root, part_keys))) {
		if (strlen(v) >= sizeof o->part)
			rc = aieth__fail(AIETH_EINVAL,
					 "%s: part \"%.80s...\": expected at most %zu "
					 "characters",
					 w, v, sizeof o->part - 1);
		else
			snprintf(o->part, sizeof o->part, "%s", v);
	}
	json_object_put(root);
	return rc;
}

static int xsa_scan(aieth_xsa_info *o, const char *what, struct archive *a)
{
	struct archive_entry *e;
	static const char *const required[] = {"xsa.json", "xsa.xml", "sysdef.xml"};
	int have[3] = {0, 0, 0}, pdi_seen = 0, r, rc = AIETH_OK;
	char *json = NULL, names[256] = "";
	size_t json_len = 0, i, nl = 0;
	const char *name;

	for (;;) {
		r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			rc = aieth__fail(AIETH_EPARSE,
					 "%s: cannot read as a zip archive (an XSA is a "
					 "zip): %s",
					 what,
					 archive_error_string(a) ? archive_error_string(a) : "?");
			goto out;
		}
		name = archive_entry_pathname(e);
		if (!name)
			continue;
		if (++o->num_members > XSA_MAX_MEMBERS) {
			rc = aieth__fail(AIETH_EINVAL, "%s: more than %u members", what,
					 XSA_MAX_MEMBERS);
			goto out;
		}
		if (nl + strlen(name) + 3 < sizeof names)
			nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s%s",
					       nl ? ", " : "", name);
		for (i = 0; i < 3; i++)
			if (!strcmp(name, required[i])) {
				if (have[i]) {
					rc = aieth__fail(AIETH_EPARSE,
							 "%s: member %s appears twice", what, name);
					goto out;
				}
				have[i] = 1;
			}
		if (!strcmp(name, "xsa.json")) {
			if ((rc = read_member(a, what, name, AIETH_XSA_MAX_JSON, &json, &json_len)))
				goto out;
		} else if (ends_with_ci(name, ".pdi") && !pdi_seen) {
			pdi_seen = 1;
			if ((rc = scan_pdi(a, what, name, o)))
				goto out;
		}
	}
	for (i = 0; i < 3; i++)
		if (!have[i]) {
			rc = aieth__fail(AIETH_EPARSE,
					 "%s: member %s is missing (an XSA has xsa.json, "
					 "xsa.xml and sysdef.xml; found: %s)",
					 what, required[i], o->num_members ? names : "no members");
			goto out;
		}
	rc = parse_xsa_json(o, what, json, json_len);
out:
	free(json);
	return rc;
}

static struct archive *new_reader(void)
{
	struct archive *a = archive_read_new();
	if (a)
		archive_read_support_format_zip(a);
	return a;
}

int aieth__xsa_read(aieth_xsa_info *out, const char *path)
{
	struct archive *a;
	int rc, fd = -1;
	memset(out, 0, sizeof *out);
	a = new_reader();
	if (!a)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	/* opened by us without blocking: a FIFO is refused before libarchive reads */
	if ((rc = aieth__open_input(path, &fd, NULL)))
		rc = aieth__fail_prefix(rc, "the XSA");
	else if (archive_read_open_fd(a, fd, XSA_CHUNK) != ARCHIVE_OK)
		rc = aieth__fail(AIETH_EIO, "%s: cannot open the XSA: %s", path,
				 archive_error_string(a) ? archive_error_string(a) : "?");
	else
		rc = xsa_scan(out, path, a);
	archive_read_free(a);
	if (fd >= 0)
		close(fd);
	return rc;
}

int aieth__xsa_read_mem(aieth_xsa_info *out, const char *what, const void *data, size_t len)
{
	struct archive *a;
	int rc;
	memset(out, 0, sizeof *out);
	a = new_reader();
	if (!a)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK)
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: cannot read as a zip archive (an XSA is a zip): %s", what,
				 archive_error_string(a) ? archive_error_string(a) : "?");
	else
		rc = xsa_scan(out, what, a);
	archive_read_free(a);
	return rc;
}
