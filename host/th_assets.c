/* SPDX-License-Identifier: MIT */
/*
 * th_assets - AMD's precompiled test harness assets, verified (docs/assets.md).
 *
 *   th_assets fetch [--release R | URL] [--sha256 HEX] [--dest DIR] [--cacert FILE]
 *   th_assets unpack [--release R] [--from FILE] [--sha256 HEX] [--dest DIR]
 *   th_assets list [--dest DIR]
 *
 * Exit codes: 0 ok, 2 usage or input error (a hash mismatch, an unsafe
 * archive, an unknown release), 3 infrastructure error (network, TLS,
 * HTTP error, a folder not writable, no libcurl in this build).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "th_assets/th_assets.h"
#include "cli_common.h"

enum { EX_OK = 0, EX_USAGE = 2, EX_INFRA = 3 };

static const char *prog = "th_assets";
static int quiet;

/* th_assets's options, named; the table gives each its long name, letter
 * and help. */
enum {
	OPT_RELEASE,
	OPT_SHA256,
	OPT_DEST,
	OPT_DATA_DIR,
	OPT_CACERT,
	OPT_STALL_TIMEOUT,
	OPT_FROM,
	OPT_MAX_ENTRY_SIZE,
	OPT_MAX_TOTAL_SIZE,
	OPT_QUIET,
	OPT_HELP,
	OPT_VERSION,
};

/* In --help's order; --help and --version are in the usage lines only. */
static const cli_opt opts[] = {
	{OPT_RELEASE, "release", 0, "R",
	 "Options:", "a release of cfg/assets.json (unpack: the folder name)"},
	{OPT_SHA256, "sha256", 0, "HEX", NULL, "the expected sha256 of the archive"},
	{OPT_DEST, "dest", 0, "DIR", NULL, "assets folder (default: the data directory)"},
	{OPT_DATA_DIR, "data-dir", 0, "DIR", NULL,
	 "where cfg/assets.json is (default $AIETH_DATA_DIR, else\n"
	 "next to the program)"},
	{OPT_CACERT, "cacert", 0, "FILE", NULL,
	 "trust this CA bundle (a private mirror; default:\n"
	 "$AIETH_CACERT, else $CURL_CA_BUNDLE, else\n"
	 "$SSL_CERT_FILE, else the system's); there is no\n"
	 "option to turn verification off"},
	{OPT_STALL_TIMEOUT, "stall-timeout", 0, "S", NULL,
	 "fetch: give up after S seconds without a byte\n(default 60)"},
	{OPT_FROM, "from", 0, "FILE", NULL, "unpack: an archive already on disk"},
	{OPT_MAX_ENTRY_SIZE, "max-entry-size", 0, "N", NULL, NULL}, /* help_of */
	{OPT_MAX_TOTAL_SIZE, "max-total-size", 0, "N", NULL, NULL},
	{OPT_QUIET, "quiet", 'q', NULL, NULL, "no progress, no notes"},
	{OPT_HELP, "help", 'h', NULL, NULL, NULL},
	{OPT_VERSION, "version", 0, NULL, NULL, NULL},
};

/* The size limits' help: their defaults are the engine's. */
static const char *help_of(int id)
{
	static char text[80];
	if (id == OPT_MAX_ENTRY_SIZE)
		snprintf(text, sizeof text, "unpack: bytes per entry (default %llu)",
			 (unsigned long long)AIETH_ASSETS_MAX_ENTRY);
	else if (id == OPT_MAX_TOTAL_SIZE)
		snprintf(text, sizeof text, "unpack: bytes in all (default %llu)",
			 (unsigned long long)AIETH_ASSETS_MAX_TOTAL);
	else
		return NULL;
	return text;
}

static void help(void)
{
	printf("usage: th_assets fetch [--release R | URL] [--sha256 HEX] [options]\n"
	       "       th_assets unpack [--release R] [--from FILE] [--sha256 HEX] [options]\n"
	       "       th_assets list [options]\n"
	       "       th_assets --help | --version\n"
	       "\n"
	       "AMD's precompiled test harness assets (the boards' XSAs, SD card images),\n"
	       "downloaded and unpacked with their sha256 checked. See docs/assets.md.\n"
	       "\n"
	       "  fetch     download a release of cfg/assets.json (default %s) or a URL\n"
	       "            into DEST/downloads/; TLS certificates are always verified;\n"
	       "            a partial download (FILE.part) is resumed\n"
	       "  unpack    extract a fetched release (or --from FILE, offline) into\n"
	       "            DEST/assets/<release>/ (the XSAs: <board>_test_harness.xsa)\n"
	       "  list      what is unpacked (release, archive, sha256) and the lock file\n"
	       "\n"
	       "Hashes: the archive must match --sha256, the release's hash in\n"
	       "cfg/assets.json and the lock file DEST/assets.lock.json; when none is\n"
	       "known, its hash is recorded in the lock file and enforced from then on.\n",
	       AIETH_ASSETS_DEFAULT_RELEASE);
	cli_help_print(stdout, opts, CLI_NOPTS(opts), 22, 0, help_of);
	fputs("\n"
	      "Progress: a bar when stderr is a terminal, else a line per 10%.\n"
	      "Exit codes: 0 ok, 2 usage or input error (hash mismatch, unsafe archive),\n"
	      "3 infrastructure error (network, TLS, HTTP, files).\n",
	      stdout);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s: try '%s --help'\n", prog, prog);
	return EX_USAGE;
}

static int exit_for(int rc)
{
	fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
	switch (rc) {
	case AIETH_EINVAL:
	case AIETH_EPARSE:
	case AIETH_ENOTFOUND: return EX_USAGE;
	default: return EX_INFRA;
	}
}

/* --- progress --- */
typedef struct {
	int tty;
	int last; /* last tenth (pipe) or permille (tty) shown */
	uint64_t last_done;
} progress;

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	progress *p = ctx;
	if (p->tty) {
		int pm = total ? (int)(done * 1000 / total) : -1, i;
		char bar[31];
		if ((total && pm == p->last) || (!total && done - p->last_done < (1u << 20)))
			return;
		p->last = pm;
		p->last_done = done;
		if (!total) {
			fprintf(stderr, "\r%s: %.1f MiB", prog, done / 1048576.0);
			return;
		}
		for (i = 0; i < 30; i++)
			bar[i] = i < pm * 30 / 1000 ? '#' : ' ';
		bar[30] = 0;
		fprintf(stderr, "\r%s: [%s] %3d%% %.1f/%.1f MiB", prog, bar, pm / 10,
			done / 1048576.0, total / 1048576.0);
	} else if (total) {
		int tenth = (int)(done * 10 / total);
		if (tenth <= p->last)
			return;
		p->last = tenth;
		fprintf(stderr, "%s: %d%% (%" PRIu64 " of %" PRIu64 " bytes)\n", prog, tenth * 10,
			done, total);
	}
}

static void report(const char *verb, const aieth__assets_result *r)
{
	if (r->recorded)
		fprintf(stderr,
			"%s: no known hash for %s; recorded sha256 %s in %s; later downloads must match\n",
			prog, r->path, r->sha256, r->lock_path);
	if (!quiet && r->resumed)
		fprintf(stderr, "%s: resumed a partial download\n", prog);
	if (!quiet && r->restarted)
		fprintf(stderr, "%s: the server did not resume; downloaded again from the start\n",
			prog);
	printf("%s %s\nsha256 %s\n", verb, r->path, r->sha256);
}

static void on_release(void *ctx, const char *release, const char *archive, const char *sha256,
		       uint64_t files, uint64_t bytes)
{
	int *n = ctx;
	if (!(*n)++)
		printf("%-16s %-48s %-64s %6s %s\n", "RELEASE", "ARCHIVE", "SHA256", "FILES",
		       "BYTES");
	printf("%-16s %-48s %-64s %6" PRIu64 " %" PRIu64 "\n", release, *archive ? archive : "-",
	       *sha256 ? sha256 : "(no manifest: not unpacked by th_assets)", files, bytes);
}

static void on_lock(void *ctx, const char *file, const char *sha256, const char *url)
{
	int *n = ctx;
	if (!(*n)++)
		printf("\nlock file entries (FILE SHA256 URL):\n");
	printf("%s %s %s\n", file, sha256, *url ? url : "-");
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!*s || *s == '-')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end || v == 0)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *release = NULL, *sha = NULL, *dest = NULL, *data_opt = NULL, *cacert = NULL,
		   *from = NULL, *url = NULL, *cmd, *data_dir;
	uint64_t maxe = 0, maxt = 0, stall = 0;
	aieth__assets_result r;
	progress pg = {0, -1, 0};
	cli_parser p;
	int c, rc;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		help();
		return EX_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("th_assets %s\n", aieth_version());
		return EX_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return usage_error("%s", "expected a command: fetch, unpack or list");
	cmd = argv[1];
	if (strcmp(cmd, "fetch") && strcmp(cmd, "unpack") && strcmp(cmd, "list"))
		return usage_error("unknown command '%s' (fetch, unpack, list)", cmd);
	optind = 2;
	_Static_assert(CLI_NOPTS(opts) <= CLI_OPTS_MAX, "th_assets: too many options");
	cli_parser_init(&p, opts, CLI_NOPTS(opts), "");
	while ((c = cli_getopt(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_RELEASE: release = optarg; break;
		case OPT_SHA256: sha = optarg; break;
		case OPT_DEST: dest = optarg; break;
		case OPT_DATA_DIR: data_opt = optarg; break;
		case OPT_CACERT: cacert = optarg; break;
		case OPT_FROM: from = optarg; break;
		case OPT_MAX_ENTRY_SIZE:
			if (parse_size(optarg, &maxe))
				return usage_error(
					"--max-entry-size %s: a positive number of bytes", optarg);
			break;
		case OPT_MAX_TOTAL_SIZE:
			if (parse_size(optarg, &maxt))
				return usage_error(
					"--max-total-size %s: a positive number of bytes", optarg);
			break;
		case OPT_STALL_TIMEOUT:
			if (parse_size(optarg, &stall) || stall > 86400)
				return usage_error("--stall-timeout %s: 1 to 86400 seconds",
						   optarg);
			break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_HELP: help(); return EX_OK;
		default: /* --version too: it comes before the command */
			return usage_error("%s", "unknown option");
		}
	}
	if (optind < argc) {
		if (strcmp(cmd, "fetch") || optind + 1 < argc)
			return usage_error("unexpected argument '%s'",
					   argv[optind + (strcmp(cmd, "fetch") ? 0 : 1)]);
		url = argv[optind];
		if (release && url)
			return usage_error("%s", "fetch: --release or a URL, not both");
	}
	if (strcmp(cmd, "fetch") && (cacert || stall))
		return usage_error("%s: --cacert and --stall-timeout are fetch options", cmd);
	if (strcmp(cmd, "unpack") && (from || maxe || maxt))
		return usage_error("%s: --from and the size limits are unpack options", cmd);
	if (!strcmp(cmd, "list") && (release || sha))
		return usage_error("%s", "list: takes --dest and --data-dir only");
	data_dir = aieth_board_data_dir(data_opt);
	if (!dest)
		dest = data_dir;

	if (!strcmp(cmd, "fetch")) {
		aieth__assets_fetch_opts o;
		aieth__assets_fetch_opts_init(&o, AIETH_ASSETS_FETCH_OPTS_VERSION);
		o.release = release;
		o.url = url;
		o.sha256 = sha;
		o.dest = dest;
		o.data_dir = data_dir;
		o.cacert = cacert;
		o.stall_seconds = (unsigned)stall;
		pg.tty = isatty(STDERR_FILENO);
		if (!quiet) {
			o.progress = on_progress;
			o.progress_ctx = &pg;
		}
		rc = aieth__assets_fetch(&o, &r);
		if (pg.tty && pg.last != -1)
			fputc('\n', stderr);
		if (rc)
			return exit_for(rc);
		report("fetched", &r);
		return EX_OK;
	}
	if (!strcmp(cmd, "unpack")) {
		aieth__assets_unpack_opts o;
		aieth__assets_unpack_opts_init(&o, AIETH_ASSETS_UNPACK_OPTS_VERSION);
		o.release = release;
		o.from = from;
		o.sha256 = sha;
		o.dest = dest;
		o.data_dir = data_dir;
		o.max_entry_bytes = maxe;
		o.max_total_bytes = maxt;
		if ((rc = aieth__assets_unpack(&o, &r)))
			return exit_for(rc);
		report("unpacked", &r);
		return EX_OK;
	}
	{
		int n = 0, k = 0;
		if ((rc = aieth__assets_list(dest, on_release, &n)))
			return exit_for(rc);
		if (!n)
			printf("no release unpacked in %s/assets\n", dest);
		if ((rc = aieth__assets_lock_list(dest, on_lock, &k)))
			return exit_for(rc);
	}
	return EX_OK;
}
