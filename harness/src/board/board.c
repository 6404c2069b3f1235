/* SPDX-License-Identifier: MIT */
/*
 * board.c - board facts (platforms/<name>.json) and PLIO placement
 * (cfg/<board>_aie_constraints.json, the NodeConstraints schema that
 * aiecompiler --aie.constraints accepts). Board facts are data: nothing in
 * this file knows a particular board. See docs/boards.md.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aieth.h"
#include "board/board.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/suggest.h"
#include "util/text.h"

#define BOARD_SCHEMA "aieth-board/1"
/* PLIO names carry two digits, and AMD's host API numbers the FROM_AIE
 * channels after the 36 TO_AIE ones: 36 is the most a board can have. */
#define BOARD_MAX_CHANNELS 36
#define BOARD_MAX_NAME 64
/* AIE shim tiles: 8 PL->AIE and 6 AIE->PL stream channels per column. */
#define SHIM_TO_AIE_CHANNELS 8
#define SHIM_FROM_AIE_CHANNELS 6
/* Sanity bound on aie_columns (not a device fact). */
#define BOARD_MAX_COLUMNS 1024
#define MAX_LATENCY 100000u
#define MAX_OVERHEAD 1000u /* loop visit and counter edge cycles */

struct aieth_board {
	aieth_board_info info;
	char *name, *description, *aie_generation, *base_platform, *pl_kernel;
	char *constraints_path, *system_cfg_path;
	char *device_part, *bootgen_arch; /* optional device facts for packaging */
	aieth_plio *plio[2];              /* [dir][index], info.channels entries each */
};

static const char *const dir_suffix[2] = {"TO_AIE", "FROM_AIE"};

/* ------------------------------------------------------------- helpers */

static int is_board_name(const char *s)
{
	size_t i;
	if (!s || !*s)
		return 0;
	for (i = 0; s[i]; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return i <= BOARD_MAX_NAME;
}

static int is_c_ident(const char *s)
{
	size_t i;
	if (!s || !*s || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; s[i]; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return 0;
	}
	return i <= 128;
}

/* Letters, digits, '_', '-', '.' (platform names, generations). */
static int is_token(const char *s)
{
	size_t i;
	if (!s || !*s)
		return 0;
	for (i = 0; s[i]; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return i <= 128;
}

/* A non-empty path without control characters. */
static int is_path_text(const char *s)
{
	size_t i;
	if (!s || !*s)
		return 0;
	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return i <= 4096;
}

/* "PLIO_NN_TO_AIE" / "PLIO_NN_FROM_AIE" -> direction and NN (0..99).
 * Returns 0 when well formed (NN may still be 0 or too large), else -1. */
static int parse_plio_name(const char *s, aieth_dir *dir, unsigned *nn)
{
	int d;
	if (!s || strncmp(s, "PLIO_", 5) != 0)
		return -1;
	if (s[5] < '0' || s[5] > '9' || s[6] < '0' || s[6] > '9' || s[7] != '_')
		return -1;
	for (d = 0; d < 2; d++) {
		if (strcmp(s + 8, dir_suffix[d]) == 0) {
			*dir = (aieth_dir)d;
			*nn = (unsigned)(s[5] - '0') * 10u + (unsigned)(s[6] - '0');
			return 0;
		}
	}
	return -1;
}

static void plio_name(char *dst, size_t cap, aieth_dir dir, uint32_t index)
{
	snprintf(dst, cap, "PLIO_%02u_%s", (unsigned)(index + 1), dir_suffix[dir]);
}

/* Append a reason to the current message, keeping the code. */
static int add_reason(int code, const char *reason)
{
	char old[2048];
	snprintf(old, sizeof old, "%s", aieth_error_message());
	return aieth__fail(code, "%s: %s", old, reason);
}

/* ----------------------------------------------------------- constraints */

int aieth__constraints_parse(const aieth_board *board, const char *what, const char *text,
			     size_t len, aieth_plio *to_aie, aieth_plio *from_aie)
{
	static const char *const top_keys[] = {"NodeConstraints", NULL};
	static const char *const plio_keys[] = {"shim", NULL};
	static const char *const shim_keys[] = {"column", "channel", NULL};
	struct json_object *root, *nc = NULL;
	struct json_object_iterator it, end;
	uint32_t n, d, i;
	uint32_t col[2][BOARD_MAX_CHANNELS], chan[2][BOARD_MAX_CHANNELS];
	unsigned char seen[2][BOARD_MAX_CHANNELS];
	aieth_plio *outs[2];
	int rc;

	if (!what)
		what = "(constraints)";
	if (!board || (!text && len))
		return aieth__fail(AIETH_EINVAL, "%s: no board or no text given", what);
	n = board->info.channels;
	if (n < 1 || n > BOARD_MAX_CHANNELS)
		return aieth__fail(AIETH_EINVAL, "%s: board has %u channels (1..%u)", what,
				   (unsigned)n, BOARD_MAX_CHANNELS);
	if (len > AIETH_BOARD_MAX_FILE)
		return aieth__fail(AIETH_EINVAL, "%s: %zu bytes, the limit is %u bytes", what, len,
				   AIETH_BOARD_MAX_FILE);
	if ((rc = aieth__jstrict_parse(what, text, len, &root)))
		return rc;
	if (!root)
		return aieth__fail(AIETH_EPARSE,
				   "%s: the top level must be a JSON object, not null", what);
	rc = aieth__jstrict_keys(what, "", root, top_keys);
	if (!rc)
		rc = aieth__jstrict_get_object(what, "", root, "NodeConstraints", 1, &nc);
	if (rc)
		goto out;
	memset(seen, 0, sizeof seen);
	memset(col, 0, sizeof col);
	memset(chan, 0, sizeof chan);

	it = json_object_iter_begin(nc);
	end = json_object_iter_end(nc);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it), *shim = NULL;
		char path[128], spath[160], qk[200];
		aieth_dir dir;
		unsigned nn;
		uint32_t c = 0, ch = 0, colmax, chmax, j;

		aieth__quote_str(qk, sizeof qk, k);
		if (parse_plio_name(k, &dir, &nn) != 0 || nn == 0) {
			rc = aieth__fail(
				AIETH_EINVAL,
				"%s: NodeConstraints: key \"%s\" is not a PLIO name (expected "
				"PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE, NN = 01..%02u)",
				what, qk, (unsigned)n);
			goto out;
		}
		if (nn > n) {
			rc = aieth__fail(
				AIETH_EINVAL,
				"%s: NodeConstraints.%s: PLIO %02u is beyond board %s, which "
				"has %u channels per direction (PLIO_01..PLIO_%02u)",
				what, qk, nn, board->info.name ? board->info.name : "?",
				(unsigned)n, (unsigned)n);
			goto out;
		}
		snprintf(path, sizeof path, "NodeConstraints.%s", k);
		snprintf(spath, sizeof spath, "%s.shim", path);
		rc = aieth__jstrict_keys(what, path, v, plio_keys);
		if (!rc)
			rc = aieth__jstrict_get_object(what, path, v, "shim", 1, &shim);
		if (!rc)
			rc = aieth__jstrict_keys(what, spath, shim, shim_keys);
		if (rc)
			goto out;
		colmax = board->info.aie_columns ? board->info.aie_columns - 1 : UINT32_MAX;
		rc = aieth__jstrict_get_u32(what, spath, shim, "column", 1, 0, colmax, &c);
		if (rc) {
			if (rc == AIETH_EINVAL && board->info.aie_columns) {
				char why[128];
				snprintf(why, sizeof why, "board %s has %u AIE columns",
					 board->info.name, (unsigned)board->info.aie_columns);
				add_reason(rc, why);
			}
			goto out;
		}
		chmax = dir == AIETH_DIR_TO_AIE ? SHIM_TO_AIE_CHANNELS - 1
						: SHIM_FROM_AIE_CHANNELS - 1;
		rc = aieth__jstrict_get_u32(what, spath, shim, "channel", 1, 0, chmax, &ch);
		if (rc) {
			if (rc == AIETH_EINVAL)
				add_reason(rc, dir == AIETH_DIR_TO_AIE
						       ? "an AIE shim tile has 8 PL->AIE stream "
							 "channels per column"
						       : "an AIE shim tile has 6 AIE->PL stream "
							 "channels per column");
			goto out;
		}
		for (j = 0; j < n; j++) {
			if (seen[dir][j] && col[dir][j] == c && chan[dir][j] == ch) {
				char other[32];
				plio_name(other, sizeof other, dir, j);
				rc = aieth__fail(
					AIETH_EINVAL,
					"%s: NodeConstraints.%s: shim column %u channel %u is "
					"already used by %s (two PLIOs of one direction cannot "
					"share a shim channel)",
					what, k, (unsigned)c, (unsigned)ch, other);
				goto out;
			}
		}
		/* Each name appears once: aieth__jstrict_parse rejects duplicate keys. */
		seen[dir][nn - 1] = 1;
		col[dir][nn - 1] = c;
		chan[dir][nn - 1] = ch;
	}

	/* Every PLIO of the board, both directions. */
	{
		char list[1200];
		size_t o = 0;
		unsigned missing = 0, shown = 0;
		list[0] = '\0';
		for (d = 0; d < 2; d++)
			for (i = 0; i < n; i++) {
				char nm[32];
				if (seen[d][i])
					continue;
				missing++;
				if (shown >= 12)
					continue;
				plio_name(nm, sizeof nm, (aieth_dir)d, i);
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
						      shown ? ", " : "", nm);
				shown++;
			}
		if (missing) {
			if (missing > shown)
				snprintf(list + o, sizeof list - o, " and %u more",
					 missing - shown);
			rc = aieth__fail(
				AIETH_EINVAL,
				"%s: NodeConstraints: %u PLIO%s of board %s %s missing: %s "
				"(every PLIO_01..PLIO_%02u of both directions must be placed)",
				what, missing, missing == 1 ? "" : "s",
				board->info.name ? board->info.name : "?",
				missing == 1 ? "is" : "are", list, (unsigned)n);
			goto out;
		}
	}

	outs[0] = to_aie;
	outs[1] = from_aie;
	for (d = 0; d < 2; d++) {
		if (!outs[d])
			continue;
		for (i = 0; i < n; i++) {
			aieth_plio *p = &outs[d][i];
			memset(p, 0, sizeof *p);
			plio_name(p->name, sizeof p->name, (aieth_dir)d, i);
			p->dir = (aieth_dir)d;
			p->index = i;
			p->shim_column = col[d][i];
			p->shim_channel = chan[d][i];
		}
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

int aieth_constraints_check_file(const aieth_board *board, const char *path)
{
	char *text;
	size_t len = 0;
	aieth_plio *tmp;
	int rc;
	if (!board || !path || !*path)
		return aieth__fail(AIETH_EINVAL, "aieth_constraints_check_file: %s is NULL",
				   !board ? "board" : "path");
	if ((rc = aieth__read_file(path, AIETH_BOARD_MAX_FILE, &text, &len)))
		return rc;
	tmp = calloc(2u * board->info.channels, sizeof *tmp);
	if (!tmp) {
		free(text);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	rc = aieth__constraints_parse(board, path, text, len, tmp, tmp + board->info.channels);
	free(tmp);
	free(text);
	if (!rc)
		aieth__error_clear();
	return rc;
}

/* ---------------------------------------------------------------- boards */

const char *aieth_board_data_dir(const char *data_dir) { return aieth__data_dir(data_dir); }

void aieth_board_free(aieth_board *board)
{
	if (!board)
		return;
	free(board->name);
	free(board->description);
	free(board->aie_generation);
	free(board->base_platform);
	free(board->pl_kernel);
	free(board->constraints_path);
	free(board->system_cfg_path);
	free(board->device_part);
	free(board->bootgen_arch);
	free(board->plio[0]);
	free(board->plio[1]);
	free(board);
}

static int bad_value(const char *what, const char *field, const char *value, const char *rule)
{
	char q[200];
	aieth__quote_str(q, sizeof q, value);
	return aieth__fail(AIETH_EINVAL, "%s: %s: value \"%s\" %s", what, field, q, rule);
}

/* The optional device facts the packager checks an XSA and a graph
 * against (docs/boards.md): AIE generation number, part, IDCODE, bootgen
 * architecture. */
static int board_device_facts(const char *what, struct json_object *root, aieth_board_info *in,
			      const char **part, const char **idc, const char **barch)
{
	char *end;
	unsigned long v;
	int rc = aieth__jstrict_get_u32(what, "", root, "aie_hw_gen", 0, 1, 255, &in->aie_hw_gen);
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "device_part", 0, part);
	if (!rc && **part && !is_token(*part))
		rc = bad_value(what, "device_part", *part,
			       "is not a part name (letters, digits, '_', '-', '.')");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "bootgen_arch", 0, barch);
	if (!rc && **barch && !is_c_ident(*barch))
		rc = bad_value(what, "bootgen_arch", *barch,
			       "is not a bootgen architecture (e.g. \"versal\")");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "device_id_code", 0, idc);
	if (!rc && *idc) {
		errno = 0;
		v = strtoul(*idc, &end, 16);
		if (strncmp(*idc, "0x", 2) || strlen(*idc) != 10 || *end || errno ||
		    v > 0xffffffffUL)
			rc = bad_value(what, "device_id_code", *idc,
				       "is not an IDCODE (\"0x\" and 8 hex digits)");
		in->device_id_code = (uint32_t)v;
		in->has_device_id_code = 1;
	}
	return rc;
}

static int board_parse_ex(aieth_board **out, const char *what, const char *text, size_t len,
			  const char *data_dir, const char *expected_name)
{
	static const char *const keys[] = {"schema",
					   "name",
					   "description",
					   "aie_generation",
					   "base_platform",
					   "pl_kernel",
					   "channels",
					   "uram_depth_words",
					   "stream_width_bits",
					   "memory_width_bits",
					   "pl_clock_hz",
					   "aie_columns",
					   "constraints",
					   "system_cfg",
					   "preload_latency_cycles",
					   "func_memory",
					   "aie_hw_gen",
					   "device_part",
					   "device_id_code",
					   "bootgen_arch",
					   "counter_edges",
					   NULL};
	static const char *const fm_keys[] = {"burst_words",
					      "fifo_depth_words",
					      "read_latency_cycles",
					      "write_latency_cycles",
					      "max_outstanding",
					      "loop_overhead_cycles",
					      NULL};
	static const char *const ce_keys[] = {"tx_first_cycles", "tx_last_cycles",
					      "rx_first_cycles", "rx_last_cycles", NULL};
	struct json_object *root, *fm = NULL, *ce = NULL;
	const char *schema = NULL, *name = NULL, *desc = NULL, *gen = NULL, *base = NULL,
		   *kernel = NULL, *cons = NULL, *syscfg = NULL, *part = "", *idc = NULL,
		   *barch = "";
	aieth_board *b = NULL;
	aieth_board_info in;
	const char *dd;
	char *ctext = NULL;
	size_t clen = 0;
	int rc;

	if (!out)
		return aieth__fail(AIETH_EINVAL, "aieth__board_parse: out is NULL");
	*out = NULL;
	if (!what)
		what = "(board)";
	if (!text && len)
		return aieth__fail(AIETH_EINVAL, "%s: no text given", what);
	if (len > AIETH_BOARD_MAX_FILE)
		return aieth__fail(AIETH_EINVAL, "%s: %zu bytes, the limit is %u bytes", what, len,
				   AIETH_BOARD_MAX_FILE);
	if ((rc = aieth__jstrict_parse(what, text, len, &root)))
		return rc;
	if (!root)
		return aieth__fail(AIETH_EPARSE,
				   "%s: the top level must be a JSON object, not null", what);
	memset(&in, 0, sizeof in);

	rc = aieth__jstrict_keys(what, "", root, keys);
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "schema", 1, &schema);
	if (!rc && strcmp(schema, BOARD_SCHEMA) != 0)
		rc = bad_value(what, "schema", schema,
			       "is not supported (expected \"" BOARD_SCHEMA "\")");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "name", 1, &name);
	if (!rc && !is_board_name(name))
		rc = bad_value(what, "name", name,
			       "is not a board name (1..64 characters of a-z, 0-9 and _)");
	if (!rc && expected_name && strcmp(name, expected_name) != 0) {
		char want[200], got[200];
		aieth__quote_str(want, sizeof want, expected_name);
		aieth__quote_str(got, sizeof got, name);
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: name: value \"%s\" does not match the file name (expected "
				 "\"%s\")",
				 what, got, want);
	}
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "description", 1, &desc);
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "aie_generation", 1, &gen);
	if (!rc && !is_token(gen))
		rc = bad_value(what, "aie_generation", gen,
			       "is not valid (letters, digits, '_', '-', '.'; e.g. \"AIE-ML\")");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "base_platform", 1, &base);
	if (!rc && !is_token(base))
		rc = bad_value(what, "base_platform", base,
			       "is not valid (letters, digits, '_', '-', '.')");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "pl_kernel", 1, &kernel);
	if (!rc && !is_c_ident(kernel))
		rc = bad_value(what, "pl_kernel", kernel, "is not a kernel name (a C identifier)");
	if (!rc) {
		rc = aieth__jstrict_get_u32(what, "", root, "channels", 1, 1, BOARD_MAX_CHANNELS,
					    &in.channels);
		if (rc == AIETH_EINVAL)
			add_reason(rc, "PLIO names have two digits and AMD's host API numbers "
				       "the FROM_AIE channels from 36");
	}
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "", root, "uram_depth_words", 1, 1, 1u << 20,
					    &in.uram_depth_words);
	if (!rc && (in.uram_depth_words & (in.uram_depth_words - 1)) != 0)
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: uram_depth_words: value %u is not a power of two", what,
				 (unsigned)in.uram_depth_words);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "", root, "stream_width_bits", 1, 0, UINT32_MAX,
					    &in.stream_width_bits);
	if (!rc && in.stream_width_bits != 128)
		rc = aieth__fail(
			AIETH_EINVAL,
			"%s: stream_width_bits: value %u is not supported: the PL DMA engine "
			"protocol is 128-bit (must be 128)",
			what, (unsigned)in.stream_width_bits);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "", root, "memory_width_bits", 1, 0, UINT32_MAX,
					    &in.memory_width_bits);
	if (!rc && in.memory_width_bits != 128)
		rc = aieth__fail(
			AIETH_EINVAL,
			"%s: memory_width_bits: value %u is not supported: the PL DMA engine "
			"protocol is 128-bit (must be 128)",
			what, (unsigned)in.memory_width_bits);
	if (!rc)
		rc = aieth__jstrict_get_u64(what, "", root, "pl_clock_hz", 1, 1, 2000000000u,
					    &in.pl_clock_hz);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "", root, "aie_columns", 0, 0, BOARD_MAX_COLUMNS,
					    &in.aie_columns);
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "constraints", 1, &cons);
	if (!rc && !is_path_text(cons))
		rc = bad_value(what, "constraints", cons, "is not a path");
	if (!rc)
		rc = aieth__jstrict_get_string(what, "", root, "system_cfg", 1, &syscfg);
	if (!rc && !is_path_text(syscfg))
		rc = bad_value(what, "system_cfg", syscfg, "is not a path");
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "", root, "preload_latency_cycles", 1, 0,
					    MAX_LATENCY, &in.preload_latency_cycles);
	if (!rc)
		rc = board_device_facts(what, root, &in, &part, &idc, &barch);
	if (!rc)
		rc = aieth__jstrict_get_object(what, "", root, "func_memory", 1, &fm);
	if (!rc)
		rc = aieth__jstrict_keys(what, "func_memory", fm, fm_keys);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "burst_words", 1, 1, 256,
					    &in.func_memory.burst_words);
	if (!rc) {
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "fifo_depth_words", 1,
					    in.func_memory.burst_words, 65536,
					    &in.func_memory.fifo_depth_words);
		if (rc == AIETH_EINVAL)
			add_reason(rc, "the FIFO must hold at least one burst (burst_words)");
	}
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "read_latency_cycles", 1, 0,
					    MAX_LATENCY, &in.func_memory.read_latency_cycles);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "write_latency_cycles", 1, 0,
					    MAX_LATENCY, &in.func_memory.write_latency_cycles);
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "max_outstanding", 1, 1, 256,
					    &in.func_memory.max_outstanding);
	/* Optional (older board files lack them): the values derived from the
	 * kernel's structure, docs/emulator.md "How close to a board". */
	in.func_memory.loop_overhead_cycles = 3;
	if (!rc)
		rc = aieth__jstrict_get_u32(what, "func_memory", fm, "loop_overhead_cycles", 0, 1,
					    MAX_OVERHEAD, &in.func_memory.loop_overhead_cycles);
	in.counter_edges.tx_first_cycles = in.counter_edges.tx_last_cycles = 1;
	in.counter_edges.rx_first_cycles = in.counter_edges.rx_last_cycles = 1;
	if (!rc)
		rc = aieth__jstrict_get_object(what, "", root, "counter_edges", 0, &ce);
	if (!rc && ce)
		rc = aieth__jstrict_keys(what, "counter_edges", ce, ce_keys);
	if (!rc && ce)
		rc = aieth__jstrict_get_u32(what, "counter_edges", ce, "tx_first_cycles", 1, 0,
					    MAX_OVERHEAD, &in.counter_edges.tx_first_cycles);
	if (!rc && ce)
		rc = aieth__jstrict_get_u32(what, "counter_edges", ce, "tx_last_cycles", 1, 0,
					    MAX_OVERHEAD, &in.counter_edges.tx_last_cycles);
	if (!rc && ce)
		rc = aieth__jstrict_get_u32(what, "counter_edges", ce, "rx_first_cycles", 1, 0,
					    MAX_OVERHEAD, &in.counter_edges.rx_first_cycles);
	if (!rc && ce)
		rc = aieth__jstrict_get_u32(what, "counter_edges", ce, "rx_last_cycles", 1, 0,
					    MAX_OVERHEAD, &in.counter_edges.rx_last_cycles);
	if (rc)
		goto fail;

	b = calloc(1, sizeof *b);
	if (!b)
		goto nomem;
	dd = aieth__data_dir(data_dir);
	b->name = aieth__strdup(name);
	b->description = aieth__strdup(desc);
	b->aie_generation = aieth__strdup(gen);
	b->base_platform = aieth__strdup(base);
	b->pl_kernel = aieth__strdup(kernel);
	b->constraints_path = aieth__path_join(dd, cons);
	b->system_cfg_path = aieth__path_join(dd, syscfg);
	b->device_part = aieth__strdup(part);
	b->bootgen_arch = aieth__strdup(barch);
	b->plio[0] = calloc(in.channels, sizeof(aieth_plio));
	b->plio[1] = calloc(in.channels, sizeof(aieth_plio));
	if (!b->name || !b->description || !b->aie_generation || !b->base_platform ||
	    !b->pl_kernel || !b->constraints_path || !b->system_cfg_path || !b->plio[0] ||
	    !b->plio[1] || !b->device_part || !b->bootgen_arch)
		goto nomem;
	b->info = in;
	b->info.name = b->name;
	b->info.description = b->description;
	b->info.aie_generation = b->aie_generation;
	b->info.base_platform = b->base_platform;
	b->info.pl_kernel = b->pl_kernel;
	b->info.constraints_path = b->constraints_path;
	b->info.system_cfg_path = b->system_cfg_path;
	b->info.device_part = b->device_part;
	b->info.bootgen_arch = b->bootgen_arch;

	rc = aieth__read_file(b->constraints_path, AIETH_BOARD_MAX_FILE, &ctext, &clen);
	if (rc) {
		char qc[200];
		aieth__quote_str(qc, sizeof qc, cons);
		aieth__fail_prefix(rc, "%s: constraints \"%s\"", what, qc);
		goto fail;
	}
	rc = aieth__constraints_parse(b, b->constraints_path, ctext, clen, b->plio[0], b->plio[1]);
	free(ctext);
	if (rc) {
		char qc[200];
		aieth__quote_str(qc, sizeof qc, cons);
		aieth__fail_prefix(rc, "%s: constraints \"%s\"", what, qc);
		goto fail;
	}
	json_object_put(root);
	*out = b;
	return AIETH_OK;

nomem:
	rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
fail:
	aieth_board_free(b);
	json_object_put(root);
	return rc;
}

int aieth__board_parse(aieth_board **out, const char *what, const char *text, size_t len,
		       const char *data_dir)
{
	return board_parse_ex(out, what, text, len, data_dir, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* AIETH_ENOTFOUND for board `name`, listing the boards in dir. */
static int unknown_board(const char *name, const char *dir, const char *why)
{
	enum { MAXB = 64 };
	char *names[MAXB];
	size_t nn = 0, i, o = 0;
	char list[1200], qn[200], hint[AIETH_QUOTE_CAP + 24];
	DIR *dp;
	struct dirent *de;
	aieth_suggest sg;

	aieth__quote_str(qn, sizeof qn, name);
	dp = opendir(dir);
	if (!dp)
		return aieth__fail(AIETH_ENOTFOUND, "unknown board \"%s\"%s: cannot list %s: %s",
				   qn, why, dir, strerror(errno));
	while ((de = readdir(dp)) != NULL && nn < MAXB) {
		size_t l = strlen(de->d_name);
		char *base;
		if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0)
			continue;
		base = aieth__strdup(de->d_name);
		if (!base)
			break;
		base[l - 5] = '\0';
		if (!is_board_name(base)) {
			free(base);
			continue;
		}
		names[nn++] = base;
	}
	closedir(dp);
	qsort(names, nn, sizeof names[0], cmp_str);
	list[0] = '\0';
	aieth__suggest_init(&sg, name);
	for (i = 0; i < nn; i++) {
		aieth__suggest_add(&sg, names[i]);
		if (o + strlen(names[i]) + 3 < sizeof list)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
					      names[i]);
		free(names[i]);
	}
	if (nn == 0)
		return aieth__fail(AIETH_ENOTFOUND, "unknown board \"%s\"%s: no board files in %s",
				   qn, why, dir);
	return aieth__fail(AIETH_ENOTFOUND, "unknown board \"%s\"%s (known boards: %s; in %s)%s",
			   qn, why, list, dir, aieth__suggest_text(hint, sizeof hint, &sg));
}

int aieth_board_load(aieth_board **out, const char *name_or_path, const char *data_dir)
{
	const char *dd;
	char *pdir = NULL, *path = NULL, *text = NULL;
	const char *expected = NULL;
	size_t len = 0, nl;
	int rc;

	if (!out)
		return aieth__fail(AIETH_EINVAL, "aieth_board_load: out is NULL");
	*out = NULL;
	if (!name_or_path || !*name_or_path)
		return aieth__fail(AIETH_EINVAL, "aieth_board_load: no board name or path given");
	dd = aieth__data_dir(data_dir);
	nl = strlen(name_or_path);
	if (strchr(name_or_path, '/') || (nl >= 5 && strcmp(name_or_path + nl - 5, ".json") == 0)) {
		path = aieth__strdup(name_or_path);
		if (!path)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
	} else {
		struct stat st;
		pdir = aieth__path_join(dd, "platforms");
		if (!pdir)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		if (!is_board_name(name_or_path)) {
			rc = unknown_board(name_or_path, pdir, " (board names use a-z, 0-9 and _)");
			free(pdir);
			return rc;
		}
		path = malloc(strlen(pdir) + nl + 7);
		if (!path) {
			free(pdir);
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		}
		sprintf(path, "%s/%s.json", pdir, name_or_path);
		if (stat(path, &st) != 0 && errno == ENOENT) {
			rc = unknown_board(name_or_path, pdir, "");
			free(pdir);
			free(path);
			return rc;
		}
		free(pdir);
		expected = name_or_path;
	}
	if ((rc = aieth__read_file(path, AIETH_BOARD_MAX_FILE, &text, &len))) {
		free(path);
		return rc;
	}
	rc = board_parse_ex(out, path, text, len, dd, expected);
	free(text);
	free(path);
	if (!rc)
		aieth__error_clear();
	return rc;
}

const aieth_board_info *aieth_board_get_info(const aieth_board *board)
{
	return board ? &board->info : NULL;
}

double aieth_board_channel_peak_bps(const aieth_board *board)
{
	if (!board)
		return 0.0;
	return (double)board->info.stream_width_bits / 8.0 * (double)board->info.pl_clock_hz;
}

/* "; did you mean ..." for a name that is none of the board's PLIOs. AMD's
 * printPerf writes PLIO_1_TO_AIE and a hand may write plio_01_to_aie: a
 * number of the board in another spelling is that PLIO (the edit distance
 * alone would tie PLIO_01 with PLIO_11, 21, 31); else the closest name. */
static const char *plio_hint(char *out, size_t cap, const aieth_board *board, const char *name)
{
	aieth_suggest sg;
	unsigned d, k, nn = 0;
	char up[AIETH_SUGGEST_MAX + 1], canon[AIETH_SUGGEST_MAX + 16];
	size_t i, nd;
	const char *p;

	for (i = 0; name[i] && i < sizeof up - 1; i++)
		up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	up[i] = '\0';
	if (!strncmp(up, "PLIO_", 5)) {
		p = up + 5;
		for (nd = 0; p[nd] >= '0' && p[nd] <= '9' && nd < 4; nd++)
			nn = nn * 10 + (unsigned)(p[nd] - '0');
		p += nd;
		if (nd > 0 && nd < 4 && nn >= 1 && nn <= board->info.channels &&
		    (!strcmp(p, "_TO_AIE") || !strcmp(p, "_FROM_AIE"))) {
			snprintf(canon, sizeof canon, "PLIO_%02u%s", nn, p);
			aieth__suggest_init(&sg, name);
			aieth__suggest_add(&sg, canon);
			sg.dist = 0; /* the same PLIO, whatever the distance */
			return aieth__suggest_text(out, cap, &sg);
		}
	}
	aieth__suggest_init(&sg, name);
	for (d = 0; d < 2; d++)
		for (k = 0; k < board->info.channels; k++)
			aieth__suggest_add(&sg, board->plio[d][k].name);
	return aieth__suggest_text(out, cap, &sg);
}

int aieth_board_plio_find(const aieth_board *board, const char *name, aieth_plio *out)
{
	aieth_dir dir;
	unsigned nn;
	char q[200], hint[AIETH_QUOTE_CAP + 24];
	if (!board || !name || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_board_plio_find: %s is NULL",
				   !board  ? "board"
				   : !name ? "name"
					   : "out");
	aieth__quote_str(q, sizeof q, name);
	if (parse_plio_name(name, &dir, &nn) != 0 || nn == 0)
		return aieth__fail(AIETH_ENOTFOUND,
				   "\"%s\" is not a PLIO name (expected PLIO_NN_TO_AIE or "
				   "PLIO_NN_FROM_AIE, NN = 01..%02u on board %s)%s",
				   q, (unsigned)board->info.channels, board->info.name,
				   plio_hint(hint, sizeof hint, board, name));
	if (nn > board->info.channels)
		return aieth__fail(AIETH_ENOTFOUND,
				   "%s is not a PLIO of board %s, which has %u channels per "
				   "direction (PLIO_01..PLIO_%02u)%s",
				   q, board->info.name, (unsigned)board->info.channels,
				   (unsigned)board->info.channels,
				   plio_hint(hint, sizeof hint, board, name));
	*out = board->plio[dir][nn - 1];
	aieth__error_clear();
	return AIETH_OK;
}

int aieth_board_plio_at(const aieth_board *board, aieth_dir dir, uint32_t index, aieth_plio *out)
{
	if (!board || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_board_plio_at: %s is NULL",
				   !board ? "board" : "out");
	if (dir != AIETH_DIR_TO_AIE && dir != AIETH_DIR_FROM_AIE)
		return aieth__fail(AIETH_EINVAL, "aieth_board_plio_at: direction %d is not valid",
				   (int)dir);
	if (index >= board->info.channels)
		return aieth__fail(
			AIETH_ENOTFOUND, "board %s has no %s channel index %u (it has %u: 0..%u)",
			board->info.name, dir_suffix[dir], (unsigned)index,
			(unsigned)board->info.channels, (unsigned)board->info.channels - 1);
	*out = board->plio[dir][index];
	aieth__error_clear();
	return AIETH_OK;
}

int aieth_board_plio_at_shim(const aieth_board *board, aieth_dir dir, uint32_t column,
			     uint32_t channel, aieth_plio *out)
{
	uint32_t i;
	if (!board || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_board_plio_at_shim: %s is NULL",
				   !board ? "board" : "out");
	if (dir != AIETH_DIR_TO_AIE && dir != AIETH_DIR_FROM_AIE)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_board_plio_at_shim: direction %d is not valid", (int)dir);
	for (i = 0; i < board->info.channels; i++) {
		const aieth_plio *p = &board->plio[dir][i];
		if (p->shim_column == column && p->shim_channel == channel) {
			*out = *p;
			aieth__error_clear();
			return AIETH_OK;
		}
	}
	return aieth__fail(AIETH_ENOTFOUND, "board %s has no %s PLIO on shim column %u channel %u",
			   board->info.name, dir_suffix[dir], (unsigned)column, (unsigned)channel);
}
