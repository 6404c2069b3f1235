/* SPDX-License-Identifier: MIT */
/*
 * th_package - the open XCLBIN packager and inspector (docs/packaging.md).
 *
 *   th_package --board B --xsa X --libadf L -o OUT    package an AIE-only xclbin
 *   th_package info FILE [--json]                     what xclbinutil --info shows
 *   th_package check [--board B] FILE...              strict check (+ PLIOs vs board)
 *   th_package dump-section KIND FILE -o OUT          extract one section
 *
 * Exit codes: 0 ok, 1 check found problems, 2 usage or input error,
 * 3 infrastructure error (bootgen missing, failing or past its time limit,
 * output not writable), 128+N interrupted by signal N (SIGINT, SIGTERM,
 * SIGHUP: bootgen killed, scratch files removed, nothing written).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "aieth.h"
#include "th_assets/th_assets.h"
#include "th_package/th_package.h"
#include "cli_common.h"

enum { EX_OK = 0, EX_PROBLEMS = 1, EX_USAGE = 2, EX_INFRA = 3 };

static const char *prog = "th_package";
static int quiet;

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s: try '%s --help'\n", prog, prog);
	return EX_USAGE;
}

/* th_package's options, named; the tables give each its long name, letter
 * and help. */
enum {
	OPT_BOARD,
	OPT_XSA,
	OPT_RELEASE,
	OPT_ASSETS_DIR,
	OPT_LIBADF,
	OPT_OUTPUT,
	OPT_PDI,
	OPT_AIE_METADATA,
	OPT_UUID,
	OPT_VBNV,
	OPT_ID_CODE,
	OPT_EXT_ID_CODE,
	OPT_ACTION_MASK,
	OPT_BOOTGEN,
	OPT_BOOTGEN_TIMEOUT,
	OPT_NO_CHECK,
	OPT_NO_CACHE,
	OPT_CACHE_DIR,
	OPT_CACHE_MAX,
	OPT_DATA_DIR,
	OPT_QUIET,
};

/* Packaging's, in --help's order. */
static const cli_opt package_opts[] = {
	{OPT_BOARD, "board", 0, "NAME|FILE",
	 "Packaging:", "board: vck190, vek280, vek385, or a board JSON file"},
	{OPT_XSA, "xsa", 0, "FILE", NULL,
	 "the precompiled test harness XSA (zip); default: the\n"
	 "board's <board>_test_harness.xsa in the release\n"
	 "th_assets unpacked (see --release, --assets-dir)"},
	{OPT_RELEASE, "release", 0, "R", NULL,
	 "take the XSA from release R (default: 2026.1 when\n"
	 "unpacked, else the newest unpacked release)"},
	{OPT_ASSETS_DIR, "assets-dir", 0, "DIR", NULL,
	 "where th_assets unpacked (its --dest; default: the\n"
	 "data directory)"},
	{OPT_LIBADF, "libadf", 0, "FILE|DIR", NULL,
	 "the compiled graph: libadf.a, or aiecompiler's Work/"},
	{OPT_OUTPUT, "output", 'o', "FILE", NULL,
	 "the xclbin to write (replaced only when complete)"},
	{OPT_PDI, "pdi", 0, "FILE", NULL, "use this PDI instead of running bootgen"},
	{OPT_AIE_METADATA, "aie-metadata", 0, "FILE", NULL,
	 "use this aie_control_config.json instead of the graph's"},
	{OPT_UUID, "uuid", 0, "UUID", NULL, "xclbin UUID (default: derived from the content)"},
	{OPT_VBNV, "vbnv", 0, "NAME", NULL,
	 "platform VBNV (default: the XSA's, else the board's\n"
	 "base platform)"},
	{OPT_ID_CODE, "id-code", 0, "HEX", NULL,
	 "device IDCODE for the PDI (default: the XSA's PDI)"},
	{OPT_EXT_ID_CODE, "ext-id-code", 0, "HEX", NULL,
	 "extended IDCODE (default: the XSA's PDI)"},
	{OPT_ACTION_MASK, "action-mask", 0, "MASK", NULL,
	 "LOAD_AIE (default) or LOAD_AIE,LOAD_PDI; LOAD_PDI alone\n"
	 "is refused (XRT takes an xclbin as AIE-only from\n"
	 "LOAD_AIE)"},
	{OPT_BOOTGEN, "bootgen", 0, "PROGRAM", NULL,
	 "bootgen to run (default: $BOOTGEN, else bootgen from\n"
	 "PATH); a board whose PDIs need another architecture\n"
	 "(VEK385: versal_2ve_2vm) needs one that lists it"},
	{OPT_BOOTGEN_TIMEOUT, "bootgen-timeout", 0, "S", NULL,
	 "stop bootgen after S seconds: exit 3 (default: 600;\n"
	 "0: no limit)"},
	{OPT_NO_CHECK, "no-check", 0, NULL, NULL, "do not check the PLIOs against the board"},
	{OPT_NO_CACHE, "no-cache", 0, NULL, NULL,
	 "always run bootgen; neither read nor fill the PDI cache"},
	{OPT_CACHE_DIR, "cache-dir", 0, "DIR", NULL,
	 "PDI cache folder (default: $AIETH_CACHE_DIR, else\n"
	 "$XDG_CACHE_HOME/aieth, else ~/.cache/aieth; made 0700)"},
	{OPT_CACHE_MAX, "cache-max", 0, "SIZE", NULL,
	 "bound of the PDI cache, bytes or with K, M, G\n"
	 "(default: 1G; least recently used entries go first)"},
	{OPT_DATA_DIR, "data-dir", 0, "DIR", NULL,
	 "board files (default: $AIETH_DATA_DIR, else next to the\n"
	 "program)"},
	{OPT_QUIET, "quiet", 'q', NULL, NULL, "print nothing but problems and errors"},
};

/* check's (in the usage lines only). */
static const cli_opt check_opts[] = {
	{OPT_BOARD, "board", 0, "NAME|FILE", NULL, NULL},
	{OPT_DATA_DIR, "data-dir", 0, "DIR", NULL, NULL},
	{OPT_QUIET, "quiet", 'q', NULL, NULL, NULL},
};

static void help(void)
{
	printf("usage: th_package --board BOARD [--xsa FILE] --libadf FILE|DIR -o FILE [options]\n"
	       "       th_package info FILE [--json]\n"
	       "       th_package check [--board BOARD] FILE...\n"
	       "       th_package dump-section KIND FILE -o OUT\n"
	       "       th_package --help | --version\n"
	       "\n"
	       "Package a compiled AIE graph against the test harness XSA into an AIE-only\n"
	       "xclbin (AIE_METADATA + a bootgen PDI without the core-enable CDO, so the\n"
	       "graph starts on graph run), then check it. Replaces v++ -p with\n"
	       "--package.defer_aie_run. See docs/packaging.md.\n");
	cli_help_print(stdout, package_opts, CLI_NOPTS(package_opts), 24, 0, NULL);
	fputs("\n"
	      "info: header, sections, graphs and PLIOs (--json: one JSON object).\n"
	      "check: every structural rule, the AIE-only rules and, with --board, the\n"
	      "  graph's PLIOs against the board; one line per problem.\n"
	      "dump-section: KIND is a section kind name (PDI, AIE_METADATA, ...) or number;\n"
	      "  the first section of that kind is written to OUT.\n"
	      "\n"
	      "PDI cache: a PDI bootgen built is kept under the SHA-256 of what bootgen\n"
	      "  read (the CDOs, the BIF, bootgen's identity and arguments); packaging the\n"
	      "  same graph again takes it from there and skips bootgen (same bytes out).\n"
	      "\n"
	      "Environment: SOURCE_DATE_EPOCH (header timestamp; default: now),\n"
	      "  AIETH_DATA_DIR (board files), TMPDIR (scratch files), BOOTGEN (bootgen),\n"
	      "  AIETH_CACHE_DIR and XDG_CACHE_HOME (the PDI cache folder).\n"
	      "Output: -o and dump-section -o replace a regular file or a symbolic link\n"
	      "  (never its target) only when complete; a device or FIFO (/dev/null,\n"
	      "  /dev/stdout) is written in place; an output that is one of the inputs is\n"
	      "  refused.\n"
	      "Exit: 0 ok, 1 check found problems, 2 usage or input error,\n"
	      "  3 infrastructure error (bootgen missing, failing or past its time limit,\n"
	      "  output not writable), 128+N interrupted by signal N (SIGINT, SIGTERM,\n"
	      "  SIGHUP; scratch files removed, nothing written).\n",
	      stdout);
}

static void print_problem(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

static void print_progress(void *ctx, const char *step)
{
	(void)ctx;
	fprintf(stderr, "%s: %s...\n", prog, step);
}

static int parse_u32(const char *s, int64_t *out)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || v > 0xffffffffull || *s == '-')
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* "N", "NK", "NM", "NG" (binary units), N >= 1, the product below 2^63. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *s == '-' || *s == '+' || errno || end == s || v == 0)
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M' || *end == 'm')
		shift = 20, end++;
	else if (*end == 'G' || *end == 'g')
		shift = 30, end++;
	if (*end || v > (0x7fffffffffffffffull >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int load_board(aieth_board **b, const char *name, const char *data_dir)
{
	if (aieth_board_load(b, name, data_dir)) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		return EX_USAGE;
	}
	return EX_OK;
}

/* ------------------------------------------------------------ package */

static int cmd_package(int argc, char **argv)
{
	aieth__package_opts o;
	const char *release = NULL, *assets_dir = NULL;
	char xsa_path[4096], xsa_release[65];
	aieth__package_result r;
	const char *board_name = NULL, *data_dir = NULL, *sde;
	aieth_board *board = NULL;
	uint8_t uuid[16];
	cli_parser p;
	int c, rc;

	aieth__package_opts_init(&o, AIETH_PACKAGE_OPTS_VERSION); /* header fields: -1 */
	o.use_cache = 1;
	opterr = 0;
	optind = 1;
	_Static_assert(CLI_NOPTS(package_opts) <= CLI_OPTS_MAX, "th_package: too many options");
	cli_parser_init(&p, package_opts, CLI_NOPTS(package_opts), ":");
	while ((c = cli_getopt(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_BOARD: board_name = optarg; break;
		case OPT_XSA: o.xsa = optarg; break;
		case OPT_LIBADF: o.graph = optarg; break;
		case OPT_OUTPUT: o.output = optarg; break;
		case OPT_PDI: o.pdi = optarg; break;
		case OPT_AIE_METADATA: o.aie_metadata = optarg; break;
		case OPT_VBNV: o.vbnv = optarg; break;
		case OPT_BOOTGEN: o.bootgen = optarg; break;
		case OPT_BOOTGEN_TIMEOUT: {
			char *end;
			double t;
			errno = 0;
			t = strtod(optarg, &end);
			if (!*optarg || *end || errno || !isfinite(t) || t < 0 || t > 1e9)
				return usage_error("--bootgen-timeout \"%s\": expected a number of "
						   "seconds from 0 (no limit) to 1e9",
						   optarg);
			o.bootgen_timeout_s = t > 0 ? t : -1;
			break;
		}
		case OPT_NO_CHECK: o.no_check = 1; break;
		case OPT_NO_CACHE: o.use_cache = 0; break;
		case OPT_CACHE_DIR:
			if (!*optarg)
				return usage_error("%s",
						   "--cache-dir \"\": expected a folder name");
			o.cache_dir = optarg;
			break;
		case OPT_CACHE_MAX:
			if (parse_size(optarg, &o.cache_max_bytes))
				return usage_error(
					"--cache-max \"%s\": expected a size of at least 1 "
					"byte, with an optional K, M or G (e.g. 512M)",
					optarg);
			break;
		case OPT_DATA_DIR: data_dir = optarg; break;
		case OPT_RELEASE: release = optarg; break;
		case OPT_ASSETS_DIR:
			if (!*optarg)
				return usage_error("%s",
						   "--assets-dir \"\": expected a folder name");
			assets_dir = optarg;
			break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_UUID:
			if (aieth_uuid_parse(optarg, uuid))
				return usage_error("--uuid \"%s\": expected 32 hex digits "
						   "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
						   optarg);
			o.uuid = uuid;
			break;
		case OPT_ID_CODE:
			if (parse_u32(optarg, &o.id_code))
				return usage_error("--id-code \"%s\": expected a 32-bit number "
						   "(e.g. 0x14ca8093)",
						   optarg);
			break;
		case OPT_EXT_ID_CODE:
			if (parse_u32(optarg, &o.ext_id_code))
				return usage_error("--ext-id-code \"%s\": expected a 32-bit number",
						   optarg);
			break;
		case OPT_ACTION_MASK:
			if (!strcmp(optarg, "LOAD_AIE"))
				o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE;
			else if (!strcmp(optarg, "LOAD_PDI"))
				o.action_mask = AIETH_XCLBIN_AM_LOAD_PDI;
			else if (!strcmp(optarg, "LOAD_AIE,LOAD_PDI") ||
				 !strcmp(optarg, "LOAD_PDI,LOAD_AIE"))
				o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE | AIETH_XCLBIN_AM_LOAD_PDI;
			else
				return usage_error(
					"--action-mask \"%s\": expected LOAD_AIE, LOAD_PDI "
					"or LOAD_AIE,LOAD_PDI",
					optarg);
			break;
		case CLI_OPT_NOARG: return usage_error("option %s needs a value", argv[optind - 1]);
		default: return usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument \"%s\" (packaging takes only options)",
				   argv[optind]);
	if (!board_name)
		return usage_error("%s", "--board is required");
	if (o.xsa && (release || assets_dir))
		return usage_error("%s", "--release and --assets-dir choose the XSA th_assets "
					 "unpacked: not with --xsa");
	if (!o.output)
		return usage_error("%s", "-o/--output is required");
	if (!*o.output)
		return usage_error("%s", "-o/--output \"\": expected a file name");
	if (!o.graph && !(o.pdi && o.aie_metadata))
		return usage_error("%s", "--libadf is required (or both --pdi and --aie-metadata)");
	sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		long long t;
		errno = 0;
		t = strtoll(sde, &end, 10);
		if (*end || errno || t < 0)
			return usage_error("SOURCE_DATE_EPOCH=\"%s\": expected a number of seconds",
					   sde);
		o.timestamp = t;
	}
	if (!o.bootgen && getenv("BOOTGEN") && *getenv("BOOTGEN"))
		o.bootgen = getenv("BOOTGEN"); /* --bootgen wins */
	if ((rc = load_board(&board, board_name, data_dir)))
		return rc;
	if (!o.xsa) {
		/* AMD's XSA as th_assets unpacked it: the files farms already have */
		if (aieth__assets_find_xsa(assets_dir ? assets_dir : data_dir,
					   aieth_board_get_info(board)->name, release, xsa_path,
					   sizeof xsa_path, xsa_release, sizeof xsa_release)) {
			fprintf(stderr, "%s: --xsa not given: %s\n", prog, aieth_error_message());
			aieth_board_free(board);
			return EX_USAGE;
		}
		o.xsa = xsa_path;
		if (!quiet)
			fprintf(stderr, "%s: XSA %s (release %s, unpacked by th_assets)\n", prog,
				xsa_path, xsa_release);
	}
	o.board = board;
	o.data_dir = data_dir;
	o.report = print_problem;
	if (!quiet && isatty(2))
		o.progress = print_progress;
	o.cancel = &cli_signal;
	/* the first stop signal asks the packager to stop (it kills bootgen
	 * and removes its scratch files); a second one ends us (cli_common.h) */
	cli_catch_signals(1);
	rc = aieth__package(&o, &r);
	if (cli_signal) {
		int sig = cli_signal;
		fprintf(stderr, "%s: interrupted by signal %d (%s); %s\n", prog, sig,
			sig == SIGINT    ? "SIGINT"
			: sig == SIGTERM ? "SIGTERM"
					 : "SIGHUP",
			rc ? "bootgen stopped, scratch files removed, nothing written"
			   : "the output was written before the signal arrived");
		aieth_board_free(board);
		return 128 + sig;
	}
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		aieth_board_free(board);
		if (r.problems)
			return EX_PROBLEMS;
		return r.tool_failed || r.output_failed || rc == AIETH_ENOMEM ? EX_INFRA : EX_USAGE;
	}
	if (!quiet) {
		printf("%s: %" PRIu64 " bytes, UUID %s\n", o.output, r.size, r.uuid_string);
		printf("  VBNV %s (%s), IDCODE 0x%08x/0x%02x\n", r.vbnv, r.vbnv_source,
		       (unsigned)r.id_code, (unsigned)r.ext_id_code);
		printf("  %zu graph%s, %zu PLIO%s, ", r.num_graphs, r.num_graphs == 1 ? "" : "s",
		       r.num_plios, r.num_plios == 1 ? "" : "s");
		if (o.pdi)
			printf("PDI %s (prebuilt)\n", o.pdi);
		else if (r.pdi_from_cache)
			printf("%zu CDO%s: PDI from the cache (bootgen not run; %.2f s)\n",
			       r.num_cdos, r.num_cdos == 1 ? "" : "s", r.cache_seconds);
		else
			printf("%zu CDO%s through bootgen (%.2f s)\n", r.num_cdos,
			       r.num_cdos == 1 ? "" : "s", r.bootgen_seconds);
		if (!o.pdi && r.cache_dir[0])
			printf("  PDI cache %s: %s%s\n", r.cache_dir,
			       r.cache_direct     ? "hit (direct: the archive is unchanged)"
			       : r.pdi_from_cache ? "hit"
			       : r.pdi_cached     ? "miss, PDI stored"
						  : "miss, PDI not stored",
			       r.cache_damaged ? " (a damaged entry was found and removed)" : "");
		else if (!o.pdi)
			printf("  PDI cache: not used (--no-cache)\n");
		printf("  check: passed%s\n", o.no_check ? " (structure only, --no-check)" : "");
	}
	aieth_board_free(board);
	return EX_OK;
}

/* --------------------------------------------------------------- info */

static const char *mask_text(uint16_t m, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s%s%s", m & 1 ? "LOAD_AIE" : "", (m & 3) == 3 ? "," : "",
		 m & 2 ? "LOAD_PDI" : "", m & ~3u ? (m & 3 ? ",other" : "other") : "");
	if (!m)
		snprintf(buf, cap, "none");
	return buf;
}

static const char *utc_text(uint64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (t > (uint64_t)253402300799ull || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, cap, "?");
	return buf;
}

static void collect_problem(void *ctx, const char *line)
{
	json_object_array_add((struct json_object *)ctx, json_object_new_string(line));
}

static struct json_object *plio_json(const aieth_aie_plio *p)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "plio", json_object_new_string(p->logical_name));
	json_object_object_add(o, "port", json_object_new_string(p->name));
	json_object_object_add(
		o, "direction",
		json_object_new_string(p->dir == AIETH_DIR_TO_AIE ? "TO_AIE" : "FROM_AIE"));
	json_object_object_add(o, "shim_column", json_object_new_int64(p->shim_column));
	json_object_object_add(o, "shim_channel", json_object_new_int64(p->stream_id));
	json_object_object_add(o, "width_bits",
			       p->width_bits ? json_object_new_int64(p->width_bits) : NULL);
	return o;
}

static void print_plio(const aieth_aie_plio *p)
{
	char w[16] = "?";
	if (p->width_bits)
		snprintf(w, sizeof w, "%u", (unsigned)p->width_bits);
	printf("    %-18s %-8s shim column %3u channel %u  %s bit  %s\n", p->logical_name,
	       p->dir == AIETH_DIR_TO_AIE ? "TO_AIE" : "FROM_AIE", (unsigned)p->shim_column,
	       (unsigned)p->stream_id, w, p->name);
}

static int cmd_info(int argc, char **argv)
{
	const char *file = NULL;
	int json = 0, i, rc = EX_OK;
	aieth_xclbin *x;
	const aieth_xclbin_header *h;
	aieth_xclbin_section s;
	aieth_aie_meta *m = NULL;
	aieth_aie_graph g;
	aieth_aie_plio p;
	char ifu[37], sha[65] = "", mask[64], utc[32], ver[32];
	size_t k, j, np;
	struct json_object *root = NULL, *hj, *arr, *probs;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("info: unknown option %s", argv[i]);
		else if (file)
			return usage_error("info: one file at a time (also got \"%s\")", argv[i]);
		else
			file = argv[i];
	}
	if (!file)
		return usage_error("%s", "info: which xclbin?");
	if (aieth_xclbin_open(&x, file, AIETH_XCLBIN_LENIENT)) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		return EX_USAGE;
	}
	h = aieth_xclbin_get_header(x);
	aieth_uuid_format(h->interface_uuid, ifu);
	if (aieth_xclbin_sha256(x, sha))
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
	snprintf(ver, sizeof ver, "%u.%u.%u", h->version_major, h->version_minor, h->version_patch);
	mask_text(h->action_mask, mask, sizeof mask);
	utc_text(h->timestamp, utc, sizeof utc);
	if (aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_AIE_METADATA, &k) == AIETH_OK &&
	    aieth_xclbin_aie_meta(x, &m))
		m = NULL; /* reported as a problem below */
	probs = json_object_new_array();
	np = aieth_xclbin_check(x, NULL, collect_problem, probs);

	if (json) {
		root = json_object_new_object();
		json_object_object_add(root, "file", json_object_new_string(file));
		json_object_object_add(root, "size", json_object_new_int64((int64_t)h->file_size));
		json_object_object_add(root, "sha256", json_object_new_string(sha));
		hj = json_object_new_object();
		json_object_object_add(hj, "magic", json_object_new_string(h->magic));
		json_object_object_add(hj, "length", json_object_new_int64((int64_t)h->length));
		json_object_object_add(hj, "version", json_object_new_string(ver));
		json_object_object_add(hj, "mode", json_object_new_int(h->mode));
		json_object_object_add(hj, "mode_name",
				       json_object_new_string(aieth_xclbin_mode_name(h->mode)));
		json_object_object_add(hj, "action_mask", json_object_new_int(h->action_mask));
		json_object_object_add(hj, "action_mask_names", json_object_new_string(mask));
		json_object_object_add(hj, "vbnv", json_object_new_string(h->vbnv));
		json_object_object_add(hj, "interface_uuid", json_object_new_string(ifu));
		json_object_object_add(hj, "uuid",
				       json_object_new_string(aieth_xclbin_uuid_string(x)));
		json_object_object_add(hj, "timestamp",
				       json_object_new_int64((int64_t)h->timestamp));
		json_object_object_add(hj, "timestamp_utc", json_object_new_string(utc));
		json_object_object_add(hj, "feature_rom_timestamp",
				       json_object_new_int64((int64_t)h->feature_rom_timestamp));
		json_object_object_add(hj, "signature_length",
				       json_object_new_int(h->signature_length));
		json_object_object_add(hj, "num_sections", json_object_new_int64(h->num_sections));
		json_object_object_add(root, "header", hj);
		arr = json_object_new_array();
		for (k = 0; k < aieth_xclbin_num_sections(x); k++) {
			struct json_object *so = json_object_new_object();
			aieth_xclbin_section_at(x, k, &s);
			json_object_object_add(so, "index", json_object_new_int64((int64_t)k));
			json_object_object_add(so, "kind", json_object_new_int64(s.kind));
			json_object_object_add(so, "kind_name",
					       json_object_new_string(s.kind_name));
			json_object_object_add(so, "name", json_object_new_string(s.name));
			json_object_object_add(so, "offset",
					       json_object_new_int64((int64_t)s.offset));
			json_object_object_add(so, "size", json_object_new_int64((int64_t)s.size));
			json_object_array_add(arr, so);
		}
		json_object_object_add(root, "sections", arr);
		arr = json_object_new_array();
		for (k = 0; m && k < aieth_aie_meta_num_graphs(m); k++) {
			struct json_object *go = json_object_new_object(),
					   *pa = json_object_new_array();
			aieth_aie_meta_graph(m, k, &g);
			json_object_object_add(go, "id", json_object_new_int64(g.id));
			json_object_object_add(go, "name", json_object_new_string(g.name));
			for (j = 0; j < aieth_aie_meta_num_plios(m); j++) {
				aieth_aie_meta_plio(m, j, &p);
				if (p.graph == (int)k)
					json_object_array_add(pa, plio_json(&p));
			}
			json_object_object_add(go, "plios", pa);
			json_object_array_add(arr, go);
		}
		json_object_object_add(root, "graphs", arr);
		arr = json_object_new_array();
		for (j = 0; m && j < aieth_aie_meta_num_plios(m); j++) {
			aieth_aie_meta_plio(m, j, &p);
			if (p.graph < 0)
				json_object_array_add(arr, plio_json(&p));
		}
		json_object_object_add(root, "other_plios", arr);
		json_object_object_add(root, "problems", json_object_get(probs));
		printf("%s\n", json_object_to_json_string_ext(
				       root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		printf("%s\n", file);
		printf("  magic           %s\n", h->magic);
		printf("  length          %" PRIu64 " bytes (file %" PRIu64 ")\n", h->length,
		       h->file_size);
		printf("  version         %s\n", ver);
		printf("  mode            %u (%s)\n", (unsigned)h->mode,
		       aieth_xclbin_mode_name(h->mode));
		printf("  action mask     0x%04x (%s)\n", (unsigned)h->action_mask, mask);
		printf("  VBNV            %s\n", h->vbnv);
		printf("  interface UUID  %s\n", ifu);
		printf("  xclbin UUID     %s\n", aieth_xclbin_uuid_string(x));
		printf("  timestamp       %" PRIu64 " (%s)\n", h->timestamp, utc);
		printf("  sha256          %s\n", sha);
		printf("Sections (%zu):\n", aieth_xclbin_num_sections(x));
		printf("  %3s  %-22s %-16s %12s %12s\n", "#", "kind", "name", "offset", "size");
		for (k = 0; k < aieth_xclbin_num_sections(x); k++) {
			char kind[40];
			aieth_xclbin_section_at(x, k, &s);
			snprintf(kind, sizeof kind, "%s (%u)", s.kind_name, (unsigned)s.kind);
			printf("  %3zu  %-22s %-16s %12" PRIu64 " %12" PRIu64 "\n", k, kind, s.name,
			       s.offset, s.size);
		}
		if (m) {
			printf("Graphs (%zu):\n", aieth_aie_meta_num_graphs(m));
			for (k = 0; k < aieth_aie_meta_num_graphs(m); k++) {
				aieth_aie_meta_graph(m, k, &g);
				printf("  %s (id %u)\n", g.name, (unsigned)g.id);
				for (j = 0; j < aieth_aie_meta_num_plios(m); j++) {
					aieth_aie_meta_plio(m, j, &p);
					if (p.graph == (int)k)
						print_plio(&p);
				}
			}
			for (j = 0, i = 0; j < aieth_aie_meta_num_plios(m); j++) {
				aieth_aie_meta_plio(m, j, &p);
				if (p.graph >= 0)
					continue;
				if (!i++)
					printf("  PLIOs of no graph above:\n");
				print_plio(&p);
			}
		}
		if (np) {
			printf("Problems (%zu):\n", np);
			for (k = 0; k < json_object_array_length(probs); k++)
				printf("  %s\n",
				       json_object_get_string(json_object_array_get_idx(probs, k)));
		}
	}
	if (np)
		rc = EX_PROBLEMS;
	json_object_put(probs);
	aieth_aie_meta_free(m);
	aieth_xclbin_close(x);
	return rc;
}

/* -------------------------------------------------------------- check */

static int cmd_check(int argc, char **argv)
{
	const char *board_name = NULL, *data_dir = NULL;
	aieth_board *board = NULL;
	aieth_xclbin *x;
	int c, rc = EX_OK, i;
	size_t n;
	cli_parser p;
	opterr = 0;
	optind = 1;
	cli_parser_init(&p, check_opts, CLI_NOPTS(check_opts), ":");
	while ((c = cli_getopt(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_BOARD: board_name = optarg; break;
		case OPT_DATA_DIR: data_dir = optarg; break;
		case OPT_QUIET: quiet = 1; break;
		case CLI_OPT_NOARG:
			return usage_error("check: option %s needs a value", argv[optind - 1]);
		default: return usage_error("check: unknown option %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("%s", "check: which xclbin?");
	if (board_name && (rc = load_board(&board, board_name, data_dir)))
		return rc;
	for (i = optind; i < argc; i++) {
		int orc = aieth_xclbin_open(&x, argv[i], AIETH_XCLBIN_LENIENT);
		if (orc) {
			/* too short for a header: a check problem; unreadable: an input error */
			fprintf(stderr, "%s\n", aieth_error_message());
			if (orc == AIETH_EPARSE) {
				fprintf(stderr, "%s: 1 problem\n", argv[i]);
				if (rc < EX_PROBLEMS)
					rc = EX_PROBLEMS;
			} else {
				rc = EX_USAGE;
			}
			continue;
		}
		n = aieth_xclbin_check(x, board, print_problem, NULL);
		if (n) {
			fprintf(stderr, "%s: %zu problem%s\n", argv[i], n, n == 1 ? "" : "s");
			if (rc < EX_PROBLEMS)
				rc = EX_PROBLEMS;
		} else if (!quiet) {
			printf("%s: OK (UUID %s, %zu sections%s%s)\n", argv[i],
			       aieth_xclbin_uuid_string(x), aieth_xclbin_num_sections(x),
			       board ? ", PLIOs fit board " : "",
			       board ? aieth_board_get_info(board)->name : "");
		}
		aieth_xclbin_close(x);
	}
	aieth_board_free(board);
	return rc;
}

/* ------------------------------------------------------- dump-section */

static int cmd_dump(int argc, char **argv)
{
	const char *kind_s = NULL, *file = NULL, *out = NULL;
	aieth_xclbin *x;
	uint32_t kind;
	size_t idx;
	int i, rc = EX_OK;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (++i >= argc)
				return usage_error("dump-section: option %s needs a value",
						   argv[i - 1]);
			out = argv[i];
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("dump-section: unknown option %s", argv[i]);
		} else if (!kind_s) {
			kind_s = argv[i];
		} else if (!file) {
			file = argv[i];
		} else {
			return usage_error("dump-section: unexpected argument \"%s\"", argv[i]);
		}
	}
	if (!kind_s || !file || !out)
		return usage_error("%s",
				   "dump-section: usage: th_package dump-section KIND FILE -o OUT");
	if (!*out)
		return usage_error("%s", "dump-section: -o \"\": expected a file name");
	if (aieth_xclbin_kind_parse(kind_s, &kind))
		return usage_error("dump-section: %s", aieth_error_message());
	if (aieth_xclbin_open(&x, file, AIETH_XCLBIN_LENIENT)) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		return EX_USAGE;
	}
	if (aieth_xclbin_section_find(x, kind, &idx)) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		rc = EX_USAGE;
	} else if ((rc = aieth_xclbin_section_dump(x, idx, out))) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		/* a folder or an input as the output: a usage error; unwritable: 3 */
		rc = rc != AIETH_EINVAL && strstr(aieth_error_message(), out) ? EX_INFRA : EX_USAGE;
	} else if (!quiet) {
		aieth_xclbin_section s;
		aieth_xclbin_section_at(x, idx, &s);
		printf("%s: section %zu (%s \"%s\"), %" PRIu64 " bytes\n", out, idx, s.kind_name,
		       s.name, s.size);
	}
	aieth_xclbin_close(x);
	return rc;
}

int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return EX_OK;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("th_package (aieth) %s\n", aieth_version());
			return EX_OK;
		}
	}
	if (argc < 2)
		return usage_error("%s", "nothing to do (package with --board/--xsa/--libadf/-o, "
					 "or use info, check, dump-section)");
	if (!strcmp(argv[1], "info"))
		return cmd_info(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump-section"))
		return cmd_dump(argc - 1, argv + 1);
	if (argv[1][0] != '-')
		return usage_error("unknown command \"%s\" (info, check, dump-section, or "
				   "packaging options)",
				   argv[1]);
	return cmd_package(argc, argv);
}
