/* SPDX-License-Identifier: MIT */
/*
 * th_server - serve one device (a board through XRT, or the emulated board)
 * over HTTP to run_test --backend remote and other clients
 * (docs/server.md, docs/http-api.md), and to AMD's own clients over their
 * TCP protocol (--amd-listen).
 *
 * Exit codes: 0 stopped by SIGTERM/SIGINT after draining, 2 usage or input
 * error (options, token file, TLS certificate), 3 cannot listen or serve.
 * SIGHUP reloads the token file.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "cli_common.h"
#include "th_server/th_server.h"

enum { EX_OK = 0, EX_USAGE = 2, EX_INFRA = 3 };

static const char *prog = "th_server";
static volatile sig_atomic_t reload_signal;

/* SIGHUP: read the token file again (an operator's reload habit must not
 * leave the board's server down) */
static void on_hup(int sig)
{
	(void)sig;
	reload_signal = 1;
}

/* th_server's options, named; the table gives each its long name and help. */
enum {
	OPT_LISTEN,
	OPT_TOKEN_FILE,
	OPT_INSECURE,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_BACKEND,
	OPT_BOARD,
	OPT_DATA_DIR,
	OPT_IDLE_TIMEOUT,
	OPT_MAX_QUEUE,
	OPT_MAX_WAIT,
	OPT_MAX_MEMORY,
	OPT_WORK_DIR,
	OPT_CACHE_DIR,
	OPT_MAX_XCLBIN,
	OPT_XCLBIN_CACHE_MIB,
	OPT_AMD_LISTEN,
	OPT_GRAPH_MODEL,
	OPT_AMD_SETUP_TIMEOUT,
	OPT_MODEL_DIR,
	OPT_RATE_LIMIT,
	OPT_CLIENT_TIMEOUT,
	OPT_HEAD_TIMEOUT,
	OPT_MAX_CONN,
	OPT_MAX_CONN_PER_ADDR,
	OPT_MAX_SESSION,
	OPT_RESET_CMD,
	OPT_RESET_TIMEOUT,
	OPT_LOG_JSON,
	OPT_HELP,
	OPT_VERSION,
};

/* In --help's order. */
static const cli_opt opts[] = {
	{OPT_LISTEN, "listen", 0, "ADDR:PORT", "Options:",
	 "address to listen on: IPv4, or [IPv6]; port 0 picks a\n"
	 "free port (printed as \"listening on ADDR:PORT\")"},
	{OPT_TOKEN_FILE, "token-file", 0, "FILE", NULL,
	 "bearer tokens, one \"NAME TOKEN\" per line, '#' comments;\n"
	 "a regular file only its owner may read (mode 0600);\n"
	 "SIGHUP reads it again. Without it every request is\n"
	 "accepted, allowed on a loopback address only"},
	{OPT_INSECURE, "insecure", 0, NULL, NULL,
	 "allow a non-loopback address without --token-file"},
	{OPT_TLS_CERT, "tls-cert", 0, "FILE", NULL,
	 "serve https with this PEM certificate (chain) ..."},
	{OPT_TLS_KEY, "tls-key", 0, "FILE", NULL,
	 "... and its PEM private key (checked to be the\n"
	 "certificate's at start)"},
	{OPT_BACKEND, "backend", 0, "emu|xrt", NULL,
	 "the device: the emulated board (default) or a board\n"
	 "through XRT"},
	{OPT_BOARD, "board", 0, "NAME", NULL,
	 "the board sessions must name (default: any board, emu)"},
	{OPT_DATA_DIR, "data-dir", 0, "DIR", NULL,
	 "board facts (platforms/, cfg/): default $AIETH_DATA_DIR\n"
	 "or next to the program"},
	{OPT_IDLE_TIMEOUT, "idle-timeout", 0, "S", NULL,
	 "end a session after S s without a request (60); the\n"
	 "device is reset before the next session"},
	{OPT_MAX_QUEUE, "max-queue", 0, "N", NULL, "sessions that may wait for the device (16)"},
	{OPT_MAX_WAIT, "max-wait", 0, "S", NULL, "longest a session may wait in the queue (600)"},
	{OPT_MAX_MEMORY, "max-memory", 0, "MIB", NULL,
	 "transaction images held at once, all sessions\n"
	 "(4096); a transaction past it is refused (413; AMD's\n"
	 "clients: accepted = 0)"},
	{OPT_WORK_DIR, "work-dir", 0, "DIR", NULL,
	 "an existing folder for the sessions' artifact folders\n"
	 "and the default --cache-dir, kept across restarts\n"
	 "(default: a private folder under $TMPDIR, removed\n"
	 "at exit)"},
	{OPT_CACHE_DIR, "cache-dir", 0, "DIR", NULL,
	 "design xclbins uploaded by clients, by sha256 (made\n"
	 "if missing, kept across restarts; default: DIR/xclbins\n"
	 "in the work folder)"},
	{OPT_MAX_XCLBIN, "max-xclbin", 0, "MIB", NULL,
	 "largest xclbin upload (1024); more is refused (413)"},
	{OPT_XCLBIN_CACHE_MIB, "xclbin-cache-mib", 0, "MIB", NULL,
	 "all cached xclbins together (2048): the least\n"
	 "recently used go first, never one a session uses"},
	{OPT_AMD_LISTEN, "amd-listen", 0, "ADDR:PORT", NULL,
	 "also serve AMD's own clients (their TCP protocol,\n"
	 "docs/server.md \"AMD's clients\"); printed as \"AMD's\n"
	 "protocol on ADDR:PORT\". That protocol has NO\n"
	 "authentication: off unless given, loopback only\n"
	 "unless --insecure"},
	{OPT_GRAPH_MODEL, "graph-model", 0, "NAME=MODEL[:JSON]", NULL,
	 "emulated board: the graph model of an AMD\n"
	 "client's graph NAME (repeatable; e.g. gr=adder or\n"
	 "'gr=adder:{\"window_bytes\":4096}'); others: the default.\n"
	 "NAME=@PRESET: a preset of AMD's examples (aie_dut=@channelizer; "
	 "the files in the data folder's cfg/graph-models/)"},
	{OPT_AMD_SETUP_TIMEOUT, "amd-setup-timeout", 0, "S", NULL,
	 "an AMD connection must send its manager (its\n"
	 "constructor: handshake, device, xclbin) within S s\n"
	 "of connecting (30); setTimeOut does not extend it"},
	{OPT_MODEL_DIR, "model-dir", 0, "DIR", NULL,
	 "emulated board: graph model plugins HTTP clients may\n"
	 "name by file name (\"scale_model\" or \"scale_model.so\",\n"
	 "never a path; repeatable, up to 16, the first folder\n"
	 "holding the name wins). Without it clients name only\n"
	 "the built-in models"},
	{OPT_RATE_LIMIT, "rate-limit", 0, "N", NULL,
	 "requests per second per token, or per address for\n"
	 "requests without a valid token (200); more get 429\n"
	 "with Retry-After"},
	{OPT_CLIENT_TIMEOUT, "client-timeout", 0, "S", NULL,
	 "close a connection idle for S s, e.g. a client that\n"
	 "never finishes its request (30)"},
	{OPT_HEAD_TIMEOUT, "head-timeout", 0, "S", NULL,
	 "close a connection whose request line and headers\n"
	 "have not all arrived S s after it opened or after\n"
	 "its previous request ended (10): the idle limit of\n"
	 "a kept-alive connection"},
	{OPT_MAX_CONN, "max-conn", 0, "N", NULL,
	 "HTTP connections open at once (64); a quarter of them\n"
	 "only for token holders' connections (a request on\n"
	 "them carried a valid token); when the others are\n"
	 "full, the oldest of the address holding the most is\n"
	 "closed to make room. A connection without a token\n"
	 "serves one request"},
	{OPT_MAX_CONN_PER_ADDR, "max-conn-per-addr", 0, "N", NULL,
	 "HTTP connections one client address may hold open\n"
	 "without a token (8); more are closed at once"},
	{OPT_MAX_SESSION, "max-session", 0, "S", NULL,
	 "a session that has held the device S s while another\n"
	 "waits is ended (state \"expired\"; a running\n"
	 "transaction is interrupted) and the next one gets\n"
	 "the device (3600; 0: no limit)"},
	{OPT_RESET_CMD, "reset-cmd", 0, "'CMD'", NULL,
	 "reset the device with /bin/sh -c CMD (e.g. 'xrt-smi\n"
	 "reset --force') after a session that expired or\n"
	 "failed and on drain, before the next session gets\n"
	 "the device; its exit status is logged, failures\n"
	 "counted in /v1/metrics (default: none; closing the\n"
	 "device is the reset)"},
	{OPT_RESET_TIMEOUT, "reset-timeout", 0, "S", NULL,
	 "kill the reset command after S s (120)"},
	{OPT_LOG_JSON, "log-json", 0, NULL, NULL, "one JSON object per log line (stdout)"},
	{OPT_HELP, "help", 0, NULL, NULL, NULL}, /* listed by help() */
	{OPT_VERSION, "version", 0, NULL, NULL, NULL},
};

static void help(void)
{
	printf("usage: th_server --listen ADDR:PORT [--amd-listen ADDR:PORT] [options]\n"
	       "       th_server --amd-listen ADDR:PORT [options]\n"
	       "       th_server --help | --version\n"
	       "\n"
	       "Serve one device over HTTP (API: docs/http-api.md): sessions hold it one at\n"
	       "a time, others queue first come, first served. Clients: run_test --backend\n"
	       "remote, curl; with --amd-listen also AMD's own clients, in the same queue.\n"
	       "See docs/server.md.\n");
	cli_help_print(stdout, opts, CLI_NOPTS(opts), 23, 0, NULL);
	/* --help and --version: one line, not the table's */
	fputs("  --help, --version\n"
	      "\n"
	      "One log line per request on stdout: time, client, token name, method, path,\n"
	      "status, bytes in and out, duration. SIGHUP reads the token file again\n"
	      "(a bad file keeps the tokens in use; both are logged). SIGTERM or SIGINT\n"
	      "drain: new requests get 503, a running transaction is interrupted (its\n"
	      "client is told the server stopped), running requests get their replies\n"
	      "out, every session ends and the device is reset (closed; then the reset\n"
	      "command), then th_server exits 0.\n"
	      "Exit codes: 0 stopped by a signal, 2 usage or input error, 3 cannot listen.\n",
	      stdout);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s: try '%s --help'\n", prog, prog);
	return EX_USAGE;
}

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
	fflush(stdout);
}

static int parse_u32(const char *opt, const char *v, uint32_t min, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long x;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (!*v || *end || errno || x < min || x > max || *v == '-') {
		fprintf(stderr, "%s: %s %s: a number %u..%u is needed\n", prog, opt, v, min, max);
		return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

int main(int argc, char **argv)
{
	aieth__server_opts o;
	aieth__server *srv = NULL;
	const char *models[64], *model_dirs[16];
	size_t nmodels = 0, nmodel_dirs = 0;
	const char *data_opt = NULL;
	struct sigaction sa;
	cli_parser p;
	int c, rc;

	aieth__server_opts_init(&o, AIETH_SERVER_OPTS_VERSION);
	opterr = 0;
	_Static_assert(CLI_NOPTS(opts) <= CLI_OPTS_MAX, "th_server: too many options");
	cli_parser_init(&p, opts, CLI_NOPTS(opts), "");
	while ((c = cli_getopt(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_LISTEN: o.listen = optarg; break;
		case OPT_TOKEN_FILE: o.token_file = optarg; break;
		case OPT_INSECURE: o.insecure = 1; break;
		case OPT_BACKEND:
			/* a device on this machine: the library's table says which */
			if (aieth_backend_local(optarg) != 1)
				return usage_error("--backend %s: emu or xrt", optarg);
			o.backend = optarg;
			break;
		case OPT_BOARD: o.board = optarg; break;
		case OPT_DATA_DIR: data_opt = optarg; break;
		case OPT_IDLE_TIMEOUT:
			if (parse_u32("--idle-timeout", optarg, 1, 86400, &o.idle_timeout_s))
				return EX_USAGE;
			break;
		case OPT_MAX_QUEUE:
			if (parse_u32("--max-queue", optarg, 1, 1024, &o.max_queue))
				return EX_USAGE;
			break;
		case OPT_MAX_WAIT:
			if (parse_u32("--max-wait", optarg, 1, 86400, &o.max_wait_s))
				return EX_USAGE;
			break;
		case OPT_LOG_JSON: o.log_json = 1; break;
		case OPT_TLS_CERT: o.tls_cert = optarg; break;
		case OPT_TLS_KEY: o.tls_key = optarg; break;
		case OPT_MAX_MEMORY:
			if (parse_u32("--max-memory", optarg, 1, 1u << 20, &o.max_memory_mib))
				return EX_USAGE;
			break;
		case OPT_CACHE_DIR: o.cache_dir = optarg; break;
		case OPT_WORK_DIR: o.work_dir = optarg; break;
		case OPT_MAX_XCLBIN:
			if (parse_u32("--max-xclbin", optarg, 1, 1u << 20, &o.max_xclbin_mib))
				return EX_USAGE;
			break;
		case OPT_XCLBIN_CACHE_MIB:
			if (parse_u32("--xclbin-cache-mib", optarg, 1, 1u << 24,
				      &o.xclbin_cache_mib))
				return EX_USAGE;
			break;
		case OPT_AMD_LISTEN: o.amd_listen = optarg; break;
		case OPT_GRAPH_MODEL:
			if (nmodels == sizeof models / sizeof models[0])
				return usage_error("--graph-model %s: at most 64 are allowed",
						   optarg);
			models[nmodels++] = optarg;
			break;
		case OPT_AMD_SETUP_TIMEOUT:
			if (parse_u32("--amd-setup-timeout", optarg, 1, 3600,
				      &o.amd_setup_timeout_s))
				return EX_USAGE;
			break;
		case OPT_MODEL_DIR:
			if (nmodel_dirs == sizeof model_dirs / sizeof model_dirs[0])
				return usage_error("--model-dir %s: at most 16 are allowed",
						   optarg);
			model_dirs[nmodel_dirs++] = optarg;
			break;
		case OPT_RATE_LIMIT:
			if (parse_u32("--rate-limit", optarg, 1, 1000000, &o.rate_limit))
				return EX_USAGE;
			break;
		case OPT_CLIENT_TIMEOUT:
			if (parse_u32("--client-timeout", optarg, 1, 3600, &o.client_timeout_s))
				return EX_USAGE;
			break;
		case OPT_RESET_CMD:
			if (!*optarg)
				return usage_error("%s", "--reset-cmd: an empty command");
			o.reset_cmd = optarg;
			break;
		case OPT_RESET_TIMEOUT:
			if (parse_u32("--reset-timeout", optarg, 1, 3600, &o.reset_timeout_s))
				return EX_USAGE;
			break;
		case OPT_HEAD_TIMEOUT:
			if (parse_u32("--head-timeout", optarg, 1, 3600, &o.head_timeout_s))
				return EX_USAGE;
			break;
		case OPT_MAX_CONN_PER_ADDR:
			if (parse_u32("--max-conn-per-addr", optarg, 1, 1024, &o.max_conn_per_addr))
				return EX_USAGE;
			break;
		case OPT_MAX_CONN:
			if (parse_u32("--max-conn", optarg, 2, 1024, &o.max_conn))
				return EX_USAGE;
			break;
		case OPT_MAX_SESSION:
			if (parse_u32("--max-session", optarg, 0, 7 * 86400, &o.max_session_s))
				return EX_USAGE;
			if (!o.max_session_s)
				o.max_session_s = AIETH_SERVER_NO_LIMIT;
			break;
		case OPT_HELP: help(); return EX_OK;
		case OPT_VERSION: printf("th_server %s\n", aieth_version()); return EX_OK;
		default:
			return usage_error("unknown option or missing value: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument: %s", argv[optind]);
	if (o.max_conn_per_addr > (o.max_conn ? o.max_conn : 64)) {
		fprintf(stderr,
			"%s: --max-conn-per-addr %u: more than --max-conn %u, the connections in "
			"all\n",
			prog, o.max_conn_per_addr, o.max_conn ? o.max_conn : 64);
		return EX_USAGE;
	}
	if (!o.listen && !o.amd_listen)
		return usage_error("%s", "--listen ADDR:PORT is needed (e.g. 127.0.0.1:8443), or "
					 "--amd-listen ADDR:PORT");
	o.graph_models = models;
	o.num_graph_models = nmodels;
	o.model_dirs = model_dirs;
	o.num_model_dirs = nmodel_dirs;
	o.data_dir = data_opt;
	o.log = log_line;

	/* SIGPIPE never kills the server: a client that vanishes costs its session */
	signal(SIGPIPE, SIG_IGN);
	/* SIGINT, SIGTERM: drain, a second one stops at once (cli_common.h) */
	cli_catch_signals(0);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);

	rc = aieth__server_open(&srv, &o);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		return rc == AIETH_EINVAL || rc == AIETH_EPARSE || rc == AIETH_ENOTFOUND ? EX_USAGE
											 : EX_INFRA;
	}
	if (o.listen) {
		/* the address as given, the port as bound (for --listen ...:0) */
		const char *colon = strrchr(o.listen, ':');
		printf("th_server %s: listening on %.*s:%u (%s, backend %s%s%s)\n", aieth_version(),
		       (int)(colon - o.listen), o.listen, (unsigned)aieth__server_port(srv),
		       o.tls_cert ? "https" : "http", o.backend ? o.backend : "emu",
		       o.token_file ? ", tokens from " : ", no tokens",
		       o.token_file ? o.token_file : "");
		fflush(stdout);
	}
	if (o.amd_listen) {
		const char *colon = strrchr(o.amd_listen, ':');
		printf("th_server %s: AMD's protocol on %.*s:%u (backend %s, no authentication)\n",
		       aieth_version(), (int)(colon - o.amd_listen), o.amd_listen,
		       (unsigned)aieth__server_amd_port(srv), o.backend ? o.backend : "emu");
		fflush(stdout);
	}
	while (!cli_signal) {
		struct timespec ts = {0, 200 * 1000000L};
		nanosleep(&ts, NULL);
		if (reload_signal) {
			size_t n = 0;
			reload_signal = 0;
			if (aieth__server_reload_tokens(srv, &n))
				printf("th_server: SIGHUP: token file not reloaded, the tokens in "
				       "use stay: %s\n",
				       aieth_error_message());
			else
				printf("th_server: SIGHUP: token file %s reloaded: %zu tokens\n",
				       o.token_file, n);
			fflush(stdout);
		}
		aieth__server_tick(srv);
	}
	printf("th_server: signal %d: draining\n", (int)cli_signal);
	fflush(stdout);
	aieth__server_close(srv);
	printf("th_server: stopped\n");
	return EX_OK;
}
