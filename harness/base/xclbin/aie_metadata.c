/* SPDX-License-Identifier: MIT */
/*
 * aie_metadata.c - reading aie_control_config.json (the AIE_METADATA
 * section): graphs and PLIOs, with the keys XRT's edge parser reads
 * (XRT's core/edge/common/aie_parser.cpp). XRT reads it with boost property_tree,
 * so numbers may be written as strings and collections as objects or
 * arrays; this reader accepts the same, and names the JSON path of any
 * value it cannot use. Keys it does not know are left alone (the real file
 * has many more).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "xclbin/problems.h"
#include "xclbin/xclbin_object.h"

/* Sanity bounds: a real graph has tens of ports, not thousands. */
#define AM_MAX_GRAPHS 4096u
#define AM_MAX_PLIOS 4096u

struct aieth_aie_meta {
	struct json_object *root; /* owns every string handed out */
	uint32_t hw_gen;
	aieth_aie_graph *graphs;
	size_t ngraphs;
	aieth_aie_plio *plios;
	size_t nplios;
};

static const char *type_name(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number with a fraction";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "?";
}

/* An unsigned integer written as a JSON integer or a decimal string. */
static int get_uint(const char *what, const char *path, struct json_object *o, const char *key,
		    int required, uint32_t max, uint32_t *out)
{
	struct json_object *v;
	const char *s;
	char *end;
	unsigned long long u;
	int64_t i;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (!required)
			return AIETH_OK;
		return aieth__fail(AIETH_EPARSE, "%s: %s: required key \"%s\" is missing", what,
				   path, key);
	}
	if (json_object_is_type(v, json_type_int)) {
		i = json_object_get_int64(v);
		if (i < 0 || (uint64_t)i > max)
			return aieth__fail(AIETH_EINVAL, "%s: %s.%s: expected 0..%u, found %lld",
					   what, path, key, (unsigned)max, (long long)i);
		*out = (uint32_t)i;
		return AIETH_OK;
	}
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		errno = 0;
		u = (*s >= '0' && *s <= '9') ? strtoull(s, &end, 10) : 0;
		if (*s < '0' || *s > '9' || *end || errno || u > max)
			return aieth__fail(AIETH_EINVAL,
					   "%s: %s.%s: expected an integer 0..%u, "
					   "found \"%.40s\"",
					   what, path, key, (unsigned)max, s);
		*out = (uint32_t)u;
		return AIETH_OK;
	}
	return aieth__fail(AIETH_EPARSE, "%s: %s.%s: expected an integer, found %s", what, path,
			   key, type_name(v));
}

static int get_str(const char *what, const char *path, struct json_object *o, const char *key,
		   const char **out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return aieth__fail(AIETH_EPARSE, "%s: %s: required key \"%s\" is missing", what,
				   path, key);
	if (!json_object_is_type(v, json_type_string))
		return aieth__fail(AIETH_EPARSE, "%s: %s.%s: expected a string, found %s", what,
				   path, key, type_name(v));
	*out = json_object_get_string(v);
	return AIETH_OK;
}

/* slaveOrMaster: boost reads true/false/1/0, as a JSON value or a string. */
static int get_dir(const char *what, const char *path, struct json_object *o, aieth_dir *out)
{
	struct json_object *v;
	const char *s;
	int b = -1;
	if (!json_object_object_get_ex(o, "slaveOrMaster", &v))
		return aieth__fail(AIETH_EPARSE,
				   "%s: %s: required key \"slaveOrMaster\" is missing", what, path);
	if (json_object_is_type(v, json_type_boolean))
		b = json_object_get_boolean(v);
	else if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);
		b = i == 0 ? 0 : i == 1 ? 1 : -1;
	} else if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		b = (!strcmp(s, "0") || !strcmp(s, "false"))  ? 0
		    : (!strcmp(s, "1") || !strcmp(s, "true")) ? 1
							      : -1;
	}
	if (b < 0)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s.slaveOrMaster: expected 0/false (slave: PL "
				   "to AIE) or 1/true (master: AIE to PL), found %s %.40s",
				   what, path, type_name(v), json_object_to_json_string(v));
	*out = b ? AIETH_DIR_FROM_AIE : AIETH_DIR_TO_AIE;
	return AIETH_OK;
}

/* Visit the children of an object (in file order) or an array. */
typedef int (*child_fn)(aieth_aie_meta *m, const char *what, const char *path,
			struct json_object *v);

static int each_child(aieth_aie_meta *m, const char *what, const char *path,
		      struct json_object *coll, size_t max, child_fn fn)
{
	char cp[256];
	size_t n = 0, i;
	int rc;
	if (json_object_is_type(coll, json_type_object)) {
		json_object_object_foreach(coll, key, val)
		{
			if (++n > max)
				return aieth__fail(AIETH_EINVAL, "%s: %s: more than %zu entries",
						   what, path, max);
			snprintf(cp, sizeof cp, "%s.%s", path, key);
			if ((rc = fn(m, what, cp, val)))
				return rc;
		}
		return AIETH_OK;
	}
	if (json_object_is_type(coll, json_type_array)) {
		n = json_object_array_length(coll);
		if (n > max)
			return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, the limit is %zu",
					   what, path, n, max);
		for (i = 0; i < n; i++) {
			snprintf(cp, sizeof cp, "%s[%zu]", path, i);
			if ((rc = fn(m, what, cp, json_object_array_get_idx(coll, i))))
				return rc;
		}
		return AIETH_OK;
	}
	/* boost writes an empty collection as "" */
	if (json_object_is_type(coll, json_type_string) && !*json_object_get_string(coll))
		return AIETH_OK;
	return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object or an array, found %s", what,
			   path, type_name(coll));
}

static int need_object(const char *what, const char *path, struct json_object *v)
{
	if (!json_object_is_type(v, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object, found %s", what, path,
				   type_name(v));
	return AIETH_OK;
}

static int add_graph(aieth_aie_meta *m, const char *what, const char *path, struct json_object *v)
{
	aieth_aie_graph *g = &m->graphs[m->ngraphs];
	int rc;
	size_t i;
	if ((rc = need_object(what, path, v)) ||
	    (rc = get_uint(what, path, v, "id", 1, UINT32_MAX, &g->id)) ||
	    (rc = get_str(what, path, v, "name", &g->name)))
		return rc;
	if (!*g->name)
		return aieth__fail(AIETH_EINVAL, "%s: %s.name: expected a graph name, found \"\"",
				   what, path);
	for (i = 0; i < m->ngraphs; i++)
		if (!strcmp(m->graphs[i].name, g->name))
			return aieth__fail(AIETH_EINVAL, "%s: %s.name: graph \"%s\" appears twice",
					   what, path, g->name);
	m->ngraphs++;
	return AIETH_OK;
}

static int add_plio(aieth_aie_meta *m, const char *what, const char *path, struct json_object *v)
{
	aieth_aie_plio *p = &m->plios[m->nplios];
	int rc;
	memset(p, 0, sizeof *p);
	if ((rc = need_object(what, path, v)) ||
	    (rc = get_uint(what, path, v, "id", 1, UINT32_MAX, &p->id)) ||
	    (rc = get_str(what, path, v, "name", &p->name)) ||
	    (rc = get_str(what, path, v, "logical_name", &p->logical_name)) ||
	    (rc = get_uint(what, path, v, "shim_column", 1, 65535, &p->shim_column)) ||
	    (rc = get_uint(what, path, v, "stream_id", 1, 65535, &p->stream_id)) ||
	    (rc = get_dir(what, path, v, &p->dir)) ||
	    (rc = get_uint(what, path, v, "width_bits", 0, 4096, &p->width_bits)))
		return rc;
	p->graph = -1;
	m->nplios++;
	return AIETH_OK;
}

/* A port belongs to the graph whose name prefixes it ("g.in" -> g). */
static void attach_plios(aieth_aie_meta *m)
{
	size_t i, j, best;
	for (i = 0; i < m->nplios; i++) {
		best = 0;
		for (j = 0; j < m->ngraphs; j++) {
			size_t n = strlen(m->graphs[j].name);
			if (n > best && !strncmp(m->plios[i].name, m->graphs[j].name, n) &&
			    m->plios[i].name[n] == '.') {
				best = n;
				m->plios[i].graph = (int)j;
			}
		}
	}
}

int aieth_aie_meta_parse(aieth_aie_meta **out, const char *what, const char *text, size_t len)
{
	aieth_aie_meta *m;
	struct json_object *am, *c;
	size_t n;
	int rc;

	*out = NULL;
	m = calloc(1, sizeof *m);
	if (!m)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	rc = aieth__jstrict_parse(what, text, len, &m->root);
	if (rc)
		goto fail;
	if (!m->root || !json_object_is_type(m->root, json_type_object)) {
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: expected a JSON object with key \"aie_metadata\"", what);
		goto fail;
	}
	if (!json_object_object_get_ex(m->root, "aie_metadata", &am)) {
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: required key \"aie_metadata\" is missing (is "
				 "this aie_control_config.json?)",
				 what);
		goto fail;
	}
	if ((rc = need_object(what, "aie_metadata", am)))
		goto fail;
	if (json_object_object_get_ex(am, "driver_config", &c)) {
		if ((rc = need_object(what, "aie_metadata.driver_config", c)) ||
		    (rc = get_uint(what, "aie_metadata.driver_config", c, "hw_gen", 0, 255,
				   &m->hw_gen)))
			goto fail;
	}
	if (!json_object_object_get_ex(am, "graphs", &c)) {
		rc = aieth__fail(AIETH_EPARSE,
				 "%s: aie_metadata: required key \"graphs\" is missing", what);
		goto fail;
	}
	n = aieth__jstrict_count(c);
	m->graphs = calloc(n < AM_MAX_GRAPHS ? n + 1 : AM_MAX_GRAPHS + 1, sizeof *m->graphs);
	if (!m->graphs) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	if ((rc = each_child(m, what, "aie_metadata.graphs", c, AM_MAX_GRAPHS, add_graph)))
		goto fail;
	if (json_object_object_get_ex(am, "PLIOs", &c)) {
		n = aieth__jstrict_count(c);
		m->plios = calloc(n < AM_MAX_PLIOS ? n + 1 : AM_MAX_PLIOS + 1, sizeof *m->plios);
		if (!m->plios) {
			rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
			goto fail;
		}
		if ((rc = each_child(m, what, "aie_metadata.PLIOs", c, AM_MAX_PLIOS, add_plio)))
			goto fail;
	}
	attach_plios(m);
	*out = m;
	return AIETH_OK;
fail:
	aieth_aie_meta_free(m);
	return rc;
}

void aieth_aie_meta_free(aieth_aie_meta *m)
{
	if (!m)
		return;
	if (m->root)
		json_object_put(m->root);
	free(m->graphs);
	free(m->plios);
	free(m);
}

uint32_t aieth_aie_meta_hw_gen(const aieth_aie_meta *m) { return m->hw_gen; }
size_t aieth_aie_meta_num_graphs(const aieth_aie_meta *m) { return m->ngraphs; }
size_t aieth_aie_meta_num_plios(const aieth_aie_meta *m) { return m->nplios; }

int aieth_aie_meta_graph(const aieth_aie_meta *m, size_t i, aieth_aie_graph *out)
{
	if (i >= m->ngraphs)
		return aieth__fail(AIETH_EINVAL, "graph %zu: out of range (%zu graphs)", i,
				   m->ngraphs);
	*out = m->graphs[i];
	return AIETH_OK;
}

int aieth_aie_meta_plio(const aieth_aie_meta *m, size_t i, aieth_aie_plio *out)
{
	if (i >= m->nplios)
		return aieth__fail(AIETH_EINVAL, "PLIO %zu: out of range (%zu PLIOs)", i,
				   m->nplios);
	*out = m->plios[i];
	return AIETH_OK;
}

struct json_object *aieth__aie_meta_root(const aieth_aie_meta *m) { return m->root; }
