/* SPDX-License-Identifier: MIT */
/*
 * cli_validate.c - run_test validate: options, the progress lines, and
 * report.json, junit.xml and report.html in the output folder. The suite
 * is the library's (harness/src/runner/validate*.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "cli_common.h"
#include "cli_validate.h"

static const char validate_usage[] =
	"usage: %s validate [--board B] [--backend emu|xrt|remote] [--level 1|2|3]\n"
	"           [--xclbin LOOPBACK.xclbin] [-o OUT] [--soak-s S] [options]\n"
	"\n"
	"Check a board's health: numbered tests, each PASSED, FAILED, SKIPPED (with\n"
	"the reason) or PASSED WITH WARNINGS; OUT/report.json, OUT/junit.xml and\n"
	"OUT/report.html as a run writes them. Level 1 (seconds): the board files,\n"
	"clocks, XRT, the PL kernel and loopback xclbins, the AI Engine driver and\n"
	"array, the device. Level 2: every TX/RX channel through the loopback design,\n"
	"FUNC with its data checked, PERF at full rate, counters, throughput (at\n"
	"least 95 %% of 16 B/cycle, 80..95 %% a warning) and channel-to-channel delay.\n"
	"Level 3: a FUNC soak of all channels for --soak-s seconds, and the FUNC\n"
	"path's first-beat latency per channel, written as OUT/calibration/\n"
	"latency_test.json and latency_report.json for run_test calibrate.\n"
	"\n"
	"  -b, --board NAME|FILE  the board (default vck190)\n"
	"      --backend NAME     emu (default), xrt or remote\n"
	"  -l, --level N          1, 2 or 3 (default 1)\n"
	"      --xclbin FILE      xrt: the loopback design (default: <data dir>/assets/\n"
	"                         loopback/<board>_loopback.xclbin)\n"
	"      --pl-xclbin FILE   xrt: the PL kernel's xclbin (default: the board's)\n"
	"  -o, --out DIR          output folder (default .)\n"
	"      --soak-s S         level 3's soak, 1..86400 s (default 300 on a board,\n"
	"                         2 on the emulated board)\n"
	"      --channels N       test channels 1..N of each direction (default all)\n"
	"      --model M          emu: the loopback's graph model (default loopback; a\n"
	"                         plugin .so)\n"
	"      --model-params J   emu: its params, a JSON object\n"
	"      --server URL       remote: th_server (default $AIETH_SERVER)\n"
	"      --token-file FILE  remote: the bearer token (default $AIETH_TOKEN)\n"
	"      --cacert FILE      remote: CA bundle for https (default:\n"
	"                         $AIETH_CACERT, else $CURL_CA_BUNDLE, else\n"
	"                         $SSL_CERT_FILE, else the system's)\n"
	"      --pinned-key KEY   remote: trust the https server by its public key\n"
	"                         (sha256//BASE64) instead of a CA and its name\n"
	"      --data-dir DIR     board files (default $AIETH_DATA_DIR)\n"
	"  -q, --quiet            no progress lines\n"
	"\n"
	"exit codes: 0 passed (warnings included), 1 a test failed, 2 usage, 4 the\n"
	"board or device unusable (or every test skipped), 5 a hang (reset the\n"
	"board), 128+N interrupted by signal N.\n";

static int quiet;

static void progress(void *ctx, unsigned num, unsigned total, const char *name, int verdict,
		     const char *reason)
{
	(void)ctx;
	if (quiet || verdict < 0)
		return;
	fprintf(stderr, "[%2u/%u] %-26s %s%s%s\n", num, total, name,
		aieth_validate_verdict_name((aieth_validate_verdict)verdict), reason[0] ? ": " : "",
		reason);
}

static int read_token(const char *file, char *buf, size_t cap, const char **out)
{
	FILE *f = fopen(file, "r");
	size_t n, b = 0;
	if (!f) {
		fprintf(stderr, "run_test validate: --token-file %s: %s\n", file, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && strchr("\r\n\t ", buf[n - 1]))
		buf[--n] = '\0';
	while (buf[b] == ' ' || buf[b] == '\t')
		b++;
	if (n == b || n == cap - 1 || strpbrk(buf + b, " \t\r\n")) {
		fprintf(stderr,
			"run_test validate: --token-file %s: one token of 1..256 bytes without "
			"spaces is needed\n",
			file);
		return -1;
	}
	*out = buf + b;
	return 0;
}

static int number(const char *opt, const char *s, unsigned long lo, unsigned long hi,
		  unsigned long *v)
{
	char *end;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (!*s || *end || errno || *s == '-' || *v < lo || *v > hi) {
		fprintf(stderr, "run_test validate: %s %s: give an integer %lu..%lu\n", opt, s, lo,
			hi);
		return -1;
	}
	return 0;
}

static int write_outputs(aieth_report *r, const char *out)
{
	char p[4200];
	int rc = 0;
	snprintf(p, sizeof p, "%s/report.json", out);
	if (aieth_report_write_json(r, p) != AIETH_OK)
		rc = -1;
	snprintf(p, sizeof p, "%s/junit.xml", out);
	if (!rc && aieth_report_write_junit(r, p) != AIETH_OK)
		rc = -1;
	snprintf(p, sizeof p, "%s/report.html", out);
	if (!rc && aieth_report_write_html(r, p) != AIETH_OK)
		rc = -1;
	if (rc)
		fprintf(stderr, "run_test validate: %s\n", aieth_error_message());
	return rc;
}

enum {
	OPT_BACKEND = 0x7300,
	OPT_XCLBIN,
	OPT_PL,
	OPT_SOAK,
	OPT_CHANNELS,
	OPT_MODEL,
	OPT_PARAMS,
	OPT_SERVER,
	OPT_TOKEN,
	OPT_DATA,
	OPT_CACERT,
	OPT_PINNED_KEY
};

int cli_validate_main(const char *prog, int argc, char **argv)
{
	static const struct option lo[] = {{"board", required_argument, NULL, 'b'},
					   {"backend", required_argument, NULL, OPT_BACKEND},
					   {"level", required_argument, NULL, 'l'},
					   {"xclbin", required_argument, NULL, OPT_XCLBIN},
					   {"pl-xclbin", required_argument, NULL, OPT_PL},
					   {"out", required_argument, NULL, 'o'},
					   {"soak-s", required_argument, NULL, OPT_SOAK},
					   {"channels", required_argument, NULL, OPT_CHANNELS},
					   {"model", required_argument, NULL, OPT_MODEL},
					   {"model-params", required_argument, NULL, OPT_PARAMS},
					   {"server", required_argument, NULL, OPT_SERVER},
					   {"token-file", required_argument, NULL, OPT_TOKEN},
					   {"cacert", required_argument, NULL, OPT_CACERT},
					   {"pinned-key", required_argument, NULL, OPT_PINNED_KEY},
					   {"data-dir", required_argument, NULL, OPT_DATA},
					   {"quiet", no_argument, NULL, 'q'},
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	aieth_validate_opts o = AIETH_VALIDATE_OPTS_INIT;
	aieth_xrt_opts xrt = AIETH_XRT_OPTS_INIT;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	aieth_report *r = NULL;
	const char *out = ".", *token_file = NULL;
	char err[1200], token[300];
	unsigned long v;
	int c, code;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:l:o:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'b': o.board = optarg; break;
		case OPT_BACKEND: o.backend = optarg; break;
		case 'l':
			if (number("--level", optarg, 1, 3, &v))
				return AIETH_EXIT_INPUT;
			o.level = (unsigned)v;
			break;
		case OPT_XCLBIN: o.xclbin = optarg; break;
		case OPT_PL: xrt.pl_xclbin = optarg; break;
		case 'o': out = optarg; break;
		case OPT_SOAK:
			if (number("--soak-s", optarg, 1, AIETH_VALIDATE_MAX_SOAK_S, &v))
				return AIETH_EXIT_INPUT;
			o.soak_s = (uint32_t)v;
			break;
		case OPT_CHANNELS:
			if (number("--channels", optarg, 1, 4096, &v))
				return AIETH_EXIT_INPUT;
			o.channels = (uint32_t)v;
			break;
		case OPT_MODEL: o.model = optarg; break;
		case OPT_PARAMS: o.model_params = optarg; break;
		case OPT_SERVER: remote.server = optarg; break;
		case OPT_TOKEN: token_file = optarg; break;
		case OPT_CACERT: remote.cacert = optarg; break;
		case OPT_PINNED_KEY: remote.pinned_key = optarg; break;
		case OPT_DATA: o.data_dir = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': printf(validate_usage, prog); return AIETH_EXIT_PASS;
		default: fprintf(stderr, validate_usage, prog); return AIETH_EXIT_INPUT;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "run_test validate: unexpected argument %s\n", argv[optind]);
		return AIETH_EXIT_INPUT;
	}
	if (o.backend && aieth_backend_local(o.backend) < 0) {
		fprintf(stderr, "run_test validate: --backend %s: %s\n", o.backend,
			aieth_error_message());
		return AIETH_EXIT_INPUT;
	}
	if ((o.model || o.model_params) && o.backend &&
	    !(aieth_backend_flags(o.backend) & AIETH_BACKEND_EMULATED)) {
		fprintf(stderr, "run_test validate: --model and --model-params are for the "
				"emulated board (--backend emu)\n");
		return AIETH_EXIT_INPUT;
	}
	if (!remote.server)
		remote.server = getenv("AIETH_SERVER");
	if (token_file) {
		if (read_token(token_file, token, sizeof token, &remote.token))
			return AIETH_EXIT_INPUT;
	} else {
		remote.token = getenv("AIETH_TOKEN");
	}
	o.xrt = &xrt;
	o.remote = &remote;
	o.out_dir = out;
	o.progress = progress;
	cli_catch_signals(0);
	o.interrupt = &cli_signal;
	if (cli_ensure_dir(out, err, sizeof err)) {
		fprintf(stderr, "run_test validate: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	if (cli_lock_dir(out, 0, err, sizeof err) < 0) {
		fprintf(stderr, "run_test validate: %s\n", err);
		return AIETH_EXIT_INPUT;
	}
	if (aieth_report_new(&r, "run_test validate", argc, argv) != AIETH_OK ||
	    aieth_report_validate(r, &o) != AIETH_OK) {
		fprintf(stderr, "run_test validate: %s\n", aieth_error_message());
		aieth_report_free(r);
		return AIETH_EXIT_INPUT;
	}
	aieth_report_finish(r);
	code = aieth_validate_exit_code(r);
	if (write_outputs(r, out))
		code = code ? code : AIETH_EXIT_INFRA;
	if (!quiet)
		fprintf(stderr, "validate: %s (exit %d); %s/report.json\n",
			code == 0   ? "the board passed"
			: code == 1 ? "a test failed"
			: code == 5 ? "the board hung: reset it"
			: code == 4 ? "the board or device cannot be used"
				    : "stopped",
			code, out);
	aieth_report_free(r);
	return code;
}
