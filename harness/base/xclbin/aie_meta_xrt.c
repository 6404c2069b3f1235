/* SPDX-License-Identifier: MIT */
/*
 * aie_meta_xrt.c - AIE_METADATA as XRT's edge parser reads it (XRT
 * src/runtime_src/core/edge/common/aie_parser.cpp): every node it reads,
 * and every value as the type it converts it to.
 *
 * XRT reads the section with boost property_tree's read_json, which keeps
 * every scalar as its text (a JSON 9 and a JSON "9" are both "9"; true is
 * "true"; an object or array has the text ""), then get<T> converts the
 * text with an istringstream in the classic locale (boost
 * property_tree/stream_translator.hpp): leading and trailing white space
 * is skipped, decimal digits only, and anything left over fails ("0x10",
 * "9.0", "nine"). Integers follow std::num_get: an optional sign, signed
 * types within their range, unsigned ones within theirs with "-N" taken
 * modulo (as strtoul does); uint8_t is read as an unsigned int and must be
 * at most 255 (boost's customize_stream for unsigned char); bool is 0 or
 * 1, else the word true or false. A get<T> that fails throws
 * ptree_bad_data, so the graph or the AIE array is never set up. The
 * per-tile lists of a graph go through std::stoul instead: leading space,
 * a sign, at least one digit; what follows is ignored.
 *
 * get_driver_config, get_aiecompiler_options, get_plios, get_gmios run
 * when the AIE array is set up (core/edge/user/aie/aie.cpp); get_graph,
 * get_rtp, get_shared_buffers, get_external_buffers when a graph is opened
 * (graph_object.cpp). Optional collections (SharedBufferConfigs,
 * ExternalBufferConfigs, TraceGMIOs, PerformanceCounter, DeviceData,
 * the driver's aie_partition_json partitions) are read whole once present.
 */
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "xclbin/problems.h"
#include "xclbin/xclbin_object.h"

#define XRT_SRC "XRT aie_parser.cpp"

/* The types XRT converts values to (get<T>), and the stoul of the lists. */
typedef enum {
	XT_STR,    /* std::string: any value */
	XT_U8,     /* uint8_t: unsigned int, then <= 255 */
	XT_U16,    /* uint16_t / unsigned short */
	XT_U32,    /* uint32_t */
	XT_U64,    /* uint64_t, size_t */
	XT_SHORT,  /* short */
	XT_INT,    /* int */
	XT_BOOL,   /* bool */
	XT_DOUBLE, /* double */
	XT_STOUL,  /* std::stoul (graph per-tile lists) */
} xt_type;

typedef struct {
	const char *key;
	xt_type type;
} xt_field;

static const char *const type_names[] = {
	"std::string",
	"uint8_t (0..255)",
	"uint16_t (0..65535)",
	"uint32_t",
	"uint64_t",
	"short (-32768..32767)",
	"int",
	"bool (true, false, 1 or 0)",
	"double",
	"an unsigned integer (std::stoul)",
};

/* The text boost keeps for a JSON value. */
static const char *ptree_text(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_string: return json_object_get_string(v);
	case json_type_object:
	case json_type_array: return "";
	default: return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	}
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* [ws] [+-] digits [ws] end: the magnitude (0 on overflow of 64 bits: *ovf) */
static int parse_int(const char *s, int whole, int *neg, unsigned long long *mag, int *ovf)
{
	unsigned long long v = 0;
	int digits = 0;
	*neg = 0;
	*ovf = 0;
	while (is_ws(*s))
		s++;
	if (*s == '+' || *s == '-')
		*neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (~0ull - d) / 10)
			*ovf = 1;
		else
			v = v * 10 + d;
	}
	if (!digits)
		return 0;
	if (whole) {
		while (is_ws(*s))
			s++;
		if (*s)
			return 0;
	}
	*mag = v;
	return 1;
}

/* An unsigned type of max value tmax read by num_get; then <= lim. */
static int conv_unsigned(const char *s, unsigned long long tmax, unsigned long long lim)
{
	int neg, ovf;
	unsigned long long m, v;
	if (!parse_int(s, 1, &neg, &m, &ovf) || ovf || m > tmax)
		return 0;
	v = neg && m ? tmax - m + 1 : m;
	return v <= lim;
}

static int conv_signed(const char *s, long long min, long long max)
{
	int neg, ovf;
	unsigned long long m;
	if (!parse_int(s, 1, &neg, &m, &ovf) || ovf)
		return 0;
	return neg ? m <= (unsigned long long)-(min + 1) + 1 : m <= (unsigned long long)max;
}

static int conv_bool(const char *s)
{
	const char *e;
	int neg, ovf;
	unsigned long long m;
	if (parse_int(s, 1, &neg, &m, &ovf))
		return !ovf && m <= 1;
	while (is_ws(*s))
		s++;
	if (!strncmp(s, "true", 4))
		e = s + 4;
	else if (!strncmp(s, "false", 5))
		e = s + 5;
	else
		return 0;
	while (is_ws(*e))
		e++;
	return !*e;
}

/* [ws] [+-] (digits [. digits] | . digits) [e [+-] digits] [ws] */
static int conv_double(const char *s)
{
	int digits = 0;
	while (is_ws(*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	while (is_ws(*s))
		s++;
	return !*s;
}

static int converts(const char *text, xt_type type)
{
	int neg, ovf;
	unsigned long long m;
	switch (type) {
	case XT_STR: return 1;
	case XT_U8: return conv_unsigned(text, 0xffffffffull, 255);
	case XT_U16: return conv_unsigned(text, 0xffffull, 0xffffull);
	case XT_U32: return conv_unsigned(text, 0xffffffffull, 0xffffffffull);
	case XT_U64: return conv_unsigned(text, ~0ull, ~0ull);
	case XT_SHORT: return conv_signed(text, -32768, 32767);
	case XT_INT: return conv_signed(text, -2147483647 - 1, 2147483647);
	case XT_BOOL: return conv_bool(text);
	case XT_DOUBLE: return conv_double(text);
	case XT_STOUL: return parse_int(text, 0, &neg, &m, &ovf) && !ovf;
	}
	return 0;
}

/* The node key of o: 1 when there; a problem when not (an object without
 * it, or no object at all). */
static int need(aieth_problems *s, struct json_object *o, const char *path, const char *key,
		const char *fn)
{
	if (json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, NULL))
		return 1;
	aieth__problem(s,
		       "%s.%s: expected the node (" XRT_SRC " %s reads it; boost throws \"No such "
		       "node\" without it), found none",
		       path, key, fn);
	return 0;
}

/* A value XRT converts: present, and its text converts to the type. */
static int value_ok(aieth_problems *s, struct json_object *v, const char *path, const char *key,
		    xt_type t, const char *fn)
{
	const char *text = ptree_text(v);
	char shown[64];
	if (converts(text, t))
		return 1;
	if (json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
		snprintf(shown, sizeof shown, "%s",
			 json_object_is_type(v, json_type_object) ? "an object" : "an array");
	else
		snprintf(shown, sizeof shown, "\"%.40s\"", text);
	aieth__problem(s,
		       "%s%s%s: expected %s (" XRT_SRC " %s converts it with boost property_tree "
		       "get; it throws on what does not convert), found %s",
		       path, key ? "." : "", key ? key : "", type_names[t], fn, shown);
	return 0;
}

static int field(aieth_problems *s, struct json_object *o, const char *path, const char *key,
		 xt_type t, const char *fn)
{
	struct json_object *v;
	if (!need(s, o, path, key, fn))
		return 0;
	json_object_object_get_ex(o, key, &v);
	return value_ok(s, v, path, key, t, fn);
}

static void fields(aieth_problems *s, struct json_object *o, const char *path, const xt_field *f,
		   const char *fn)
{
	for (; f->key; f++)
		field(s, o, path, f->key, f->type, fn);
}

/* The child key of o when o is an object that has it. */
static struct json_object *child(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;
	if (json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

typedef void (*entry_fn)(aieth_problems *s, struct json_object *e, const char *path);

/* boost iterates the children of an object or of an array alike */
static void each(aieth_problems *s, struct json_object *coll, const char *path, entry_fn fn)
{
	char cp[256];
	size_t i, n;
	if (json_object_is_type(coll, json_type_object)) {
		json_object_object_foreach(coll, key, val)
		{
			snprintf(cp, sizeof cp, "%s.%s", path, key);
			fn(s, val, cp);
		}
	} else if (json_object_is_type(coll, json_type_array)) {
		n = json_object_array_length(coll);
		for (i = 0; i < n; i++) {
			snprintf(cp, sizeof cp, "%s[%zu]", path, i);
			fn(s, json_object_array_get_idx(coll, i), cp);
		}
	}
}

/* Each element of the list path.key converts to t. */
static void list_values(aieth_problems *s, struct json_object *list, const char *path,
			const char *key, xt_type t, const char *fn)
{
	char cp[256];
	size_t i, n;
	if (json_object_is_type(list, json_type_array)) {
		n = json_object_array_length(list);
		for (i = 0; i < n; i++) {
			snprintf(cp, sizeof cp, "%s.%s[%zu]", path, key, i);
			value_ok(s, json_object_array_get_idx(list, i), cp, NULL, t, fn);
		}
	} else if (json_object_is_type(list, json_type_object)) {
		json_object_object_foreach(list, k, v)
		{
			snprintf(cp, sizeof cp, "%s.%s.%s", path, key, k);
			value_ok(s, v, cp, NULL, t, fn);
		}
	}
}

static void graph(aieth_problems *s, struct json_object *g, const char *path)
{
	/* the per-tile lists; multirate_triggers is compared with "true", so
	 * any of its values reads */
	static const char *const lists[] = {"core_rows",
					    "iteration_memory_columns",
					    "iteration_memory_rows",
					    "iteration_memory_addresses",
					    "multirate_triggers",
					    NULL};
	struct json_object *c;
	size_t tiles, i, n;
	field(s, g, path, "id", XT_INT, "get_graph");
	field(s, g, path, "name", XT_STR, "get_graph");
	if (!need(s, g, path, "core_columns", "get_graph"))
		return;
	c = child(g, "core_columns");
	tiles = aieth__jstrict_count(c);
	list_values(s, c, path, "core_columns", XT_STOUL, "get_graph");
	for (i = 0; lists[i]; i++) {
		if (!need(s, g, path, lists[i], "get_graph"))
			continue;
		c = child(g, lists[i]);
		n = aieth__jstrict_count(c);
		if (n < tiles)
			aieth__problem(s,
				       "%s.%s: expected at least %zu entries (one per core in "
				       "core_columns; " XRT_SRC
				       " get_graph throws \"%s < num_tiles\"), found %zu",
				       path, lists[i], tiles, lists[i], n);
		if (strcmp(lists[i], "multirate_triggers"))
			list_values(s, c, path, lists[i], XT_STOUL, "get_graph");
	}
}

static void rtp(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"graph_id", XT_INT},
				     {"port_id", XT_INT},
				     {"alias_id", XT_INT},
				     {"port_name", XT_STR},
				     {"alias_name", XT_STR},
				     {"number_of_bytes", XT_U64},
				     {"selector_row", XT_SHORT},
				     {"selector_column", XT_SHORT},
				     {"selector_lock_id", XT_U16},
				     {"selector_address", XT_U64},
				     {"ping_buffer_row", XT_SHORT},
				     {"ping_buffer_column", XT_SHORT},
				     {"ping_buffer_lock_id", XT_U16},
				     {"ping_buffer_address", XT_U64},
				     {"pong_buffer_row", XT_SHORT},
				     {"pong_buffer_column", XT_SHORT},
				     {"pong_buffer_lock_id", XT_U16},
				     {"pong_buffer_address", XT_U64},
				     {"is_PL_RTP", XT_BOOL},
				     {"is_input", XT_BOOL},
				     {"is_asynchronous", XT_BOOL},
				     {"is_connected", XT_BOOL},
				     {"requires_lock", XT_BOOL},
				     {NULL, XT_STR}};
	struct json_object *v;
	fields(s, e, path, f, "get_rtp");
	/* optional, with a default: converted only when there */
	if (json_object_is_type(e, json_type_object) &&
	    json_object_object_get_ex(e, "blocking", &v))
		value_ok(s, v, path, "blocking", XT_BOOL, "get_rtp");
}

static void gmio(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"id", XT_INT},
				     {"name", XT_STR},
				     {"logical_name", XT_STR},
				     {"shim_column", XT_SHORT},
				     {"channel_number", XT_SHORT},
				     {"stream_id", XT_SHORT},
				     {"burst_length_in_16byte", XT_SHORT},
				     {NULL, XT_STR}};
	struct json_object *t;
	int neg, ovf;
	unsigned long long v;
	if (!field(s, e, path, "type", XT_U16, "get_gmios"))
		return;
	/* only GM to AIE (0) and AIE to GM (1) entries are read further */
	json_object_object_get_ex(e, "type", &t);
	if (parse_int(ptree_text(t), 1, &neg, &v, &ovf) && (v == 0 || (v == 1 && !neg)))
		fields(s, e, path, f, "get_gmios");
}

static void plio(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {
		{"id", XT_U32},          {"name", XT_STR},      {"logical_name", XT_STR},
		{"shim_column", XT_U16}, {"stream_id", XT_U16}, {"slaveOrMaster", XT_BOOL},
		{NULL, XT_STR}};
	fields(s, e, path, f, "get_plios");
}

static void shared_buffer(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"graph_id", XT_INT},     {"id", XT_U16},
				     {"name", XT_STR},         {"size", XT_U64},
				     {"column", XT_U16},       {"row", XT_U16},
				     {"num_inputs", XT_U16},   {"num_outputs", XT_U16},
				     {"initialized", XT_BOOL}, {NULL, XT_STR}};
	static const char *const lists[] = {"address", "producer_lock_ids", "consumer_lock_ids",
					    NULL};
	struct json_object *c;
	size_t i;
	fields(s, e, path, f, "get_shared_buffers");
	for (i = 0; lists[i]; i++)
		if (need(s, e, path, lists[i], "get_shared_buffers")) {
			json_object_object_get_ex(e, lists[i], &c);
			list_values(s, c, path, lists[i], XT_U64, "get_shared_buffers");
		}
}

static void shim_bd(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"bd_id", XT_INT},
				     {"buf_idx", XT_INT},
				     {"offset", XT_INT},
				     {"transaction_size", XT_INT},
				     {NULL, XT_STR}};
	fields(s, e, path, f, "get_external_buffers");
}

static void shim_port(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"portId", XT_INT},
				     {"portName", XT_STR},
				     {"direction", XT_STR},
				     {"shim_column", XT_INT},
				     {"channel_number", XT_INT},
				     {"task_repetition", XT_INT},
				     {"enable_task_complete_token", XT_INT},
				     {NULL, XT_STR}};
	struct json_object *c;
	char cp[256];
	fields(s, e, path, f, "get_external_buffers");
	if (need(s, e, path, "shimBDInfos", "get_external_buffers")) {
		json_object_object_get_ex(e, "shimBDInfos", &c);
		snprintf(cp, sizeof cp, "%s.shimBDInfos", path);
		each(s, c, cp, shim_bd);
	}
}

static void external_buffer(aieth_problems *s, struct json_object *e, const char *path)
{
	struct json_object *c;
	char cp[256];
	field(s, e, path, "id", XT_INT, "get_external_buffers");
	field(s, e, path, "name", XT_STR, "get_external_buffers");
	if (need(s, e, path, "shimPortConfigs", "get_external_buffers")) {
		json_object_object_get_ex(e, "shimPortConfigs", &c);
		snprintf(cp, sizeof cp, "%s.shimPortConfigs", path);
		each(s, c, cp, shim_port);
	}
}

static void trace_gmio(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {{"id", XT_U32},
				     {"shim_column", XT_U16},
				     {"channel_number", XT_U16},
				     {"stream_id", XT_U16},
				     {"burst_length_in_16byte", XT_U16},
				     {NULL, XT_STR}};
	fields(s, e, path, f, "get_trace_gmios");
}

static void counter(aieth_problems *s, struct json_object *e, const char *path)
{
	static const xt_field f[] = {
		{"id", XT_U32},       {"core_column", XT_U16}, {"core_row", XT_U16},
		{"counterId", XT_U8}, {"start", XT_U8},        {"stop", XT_U8},
		{"module", XT_STR},   {"name", XT_STR},        {NULL, XT_STR}};
	fields(s, e, path, f, "get_profile_counter");
}

static void partition(aieth_problems *s, struct json_object *e, const char *path)
{
	field(s, e, path, "startColumn", XT_U32, "get_partition_info");
	field(s, e, path, "numColumns", XT_U32, "get_partition_info");
}

static void driver_config(aieth_problems *s, struct json_object *c)
{
	static const xt_field f[] = {
		{"hw_gen", XT_U8},    {"base_address", XT_U64},      {"column_shift", XT_U8},
		{"row_shift", XT_U8}, {"num_columns", XT_U8},        {"num_rows", XT_U8},
		{"shim_row", XT_U8},  {"aie_tile_row_start", XT_U8}, {"aie_tile_num_rows", XT_U8},
		{NULL, XT_STR}};
	static const char *const path = "aie_metadata.driver_config";
	/* without both mem_tile_* as uint8_t (get_optional): the legacy keys */
	static const char *const legacy = "get_driver_config (without mem_tile_row_start and "
					  "mem_tile_num_rows)";
	struct json_object *a = child(c, "mem_tile_row_start"), *b = child(c, "mem_tile_num_rows"),
			   *p;
	fields(s, c, path, f, "get_driver_config");
	/* get_optional<uint8_t> of both, else the legacy reserved_* */
	if (!(a && b && converts(ptree_text(a), XT_U8) && converts(ptree_text(b), XT_U8))) {
		field(s, c, path, "reserved_row_start", XT_U8, legacy);
		field(s, c, path, "reserved_num_rows", XT_U8, legacy);
	}
	p = child(child(child(child(c, "aie_partition_json"), "AIE"), "ai_engine_0"), "partitions");
	if (p)
		each(s, p,
		     "aie_metadata.driver_config.aie_partition_json.AIE.ai_engine_0.partitions",
		     partition);
}

size_t aieth__aie_meta_xrt_check(const aieth_aie_meta *m, const char *what, aieth_problem_fn report,
				 void *ctx)
{
	aieth_problems s = {what, report, ctx, 0};
	struct json_object *am, *c;
	const char *p = "aie_metadata";

	if (!json_object_object_get_ex(aieth__aie_meta_root(m), "aie_metadata", &am))
		return 0; /* the parser refused it already */
	if (need(&s, am, p, "driver_config", "get_driver_config"))
		driver_config(&s, child(am, "driver_config"));
	if (need(&s, am, p, "aiecompiler_options", "get_aiecompiler_options"))
		field(&s, child(am, "aiecompiler_options"), "aie_metadata.aiecompiler_options",
		      "broadcast_enable_core", XT_BOOL, "get_aiecompiler_options");
	if ((c = child(am, "graphs")))
		each(&s, c, "aie_metadata.graphs", graph);
	if (need(&s, am, p, "RTPs", "get_rtp"))
		each(&s, child(am, "RTPs"), "aie_metadata.RTPs", rtp);
	if (need(&s, am, p, "GMIOs", "get_gmios"))
		each(&s, child(am, "GMIOs"), "aie_metadata.GMIOs", gmio);
	if (need(&s, am, p, "PLIOs", "get_plios"))
		each(&s, child(am, "PLIOs"), "aie_metadata.PLIOs", plio);
	/* optional collections: read whole once present */
	if ((c = child(am, "SharedBufferConfigs")))
		each(&s, c, "aie_metadata.SharedBufferConfigs", shared_buffer);
	if ((c = child(am, "ExternalBufferConfigs")))
		each(&s, c, "aie_metadata.ExternalBufferConfigs", external_buffer);
	if ((c = child(am, "TraceGMIOs")))
		each(&s, c, "aie_metadata.TraceGMIOs", trace_gmio);
	if ((c = child(am, "PerformanceCounter"))) {
		each(&s, c, "aie_metadata.PerformanceCounter", counter);
		/* get_profile_counter reads the clock first */
		if (need(&s, am, p, "DeviceData", "get_clock_freq_mhz"))
			field(&s, child(am, "DeviceData"), "aie_metadata.DeviceData",
			      "AIEFrequency", XT_DOUBLE, "get_clock_freq_mhz");
	}
	return s.count;
}
