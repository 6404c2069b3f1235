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

static void help(void)
{
	printf("usage: th_server --listen ADDR:PORT [--amd-listen ADDR:PORT] [options]\n"
	       "       th_server --amd-listen ADDR:PORT [options]\n"
	       "       th_server --help | --version\n"
	       "\n"
	       "Serve one device over HTTP (API: docs/http-api.md): sessions hold it one at\n"
	       "a time, others queue first come, first served. Clients: run_test --backend\n"
	       "remote, curl; with --amd-listen also AMD's own clients, in the same queue.\n"
	       "See docs/server.md.\n"
	       "\n"
	       "Options:\n"
	       "  --listen ADDR:PORT   address to listen on: IPv4, or [IPv6]; port 0 picks a\n"
	       "                       free port (printed as \"listening on ADDR:PORT\")\n"
	       "  --token-file FILE    bearer tokens, one \"NAME TOKEN\" per line, '#' comments;\n"
	       "                       a regular file only its owner may read (mode 0600);\n"
	       "                       SIGHUP reads it again. Without it every request is\n"
	       "                       accepted, allowed on a loopback address only\n"
	       "  --insecure           allow a non-loopback address without --token-file\n"
	       "  --tls-cert FILE      serve https with this PEM certificate (chain) ...\n"
	       "  --tls-key FILE       ... and its PEM private key (checked to be the\n"
	       "                       certificate's at start)\n"
	       "  --backend emu|xrt    the device: the emulated board (default) or a board\n"
	       "                       through XRT\n"
	       "  --board NAME         the board sessions must name (default: any board, emu)\n"
	       "  --data-dir DIR       board facts (platforms/, cfg/): default $AIETH_DATA_DIR\n"
	       "                       or next to the program\n"
	       "  --idle-timeout S     end a session after S s without a request (60); the\n"
	       "                       device is reset before the next session\n"
	       "  --max-queue N        sessions that may wait for the device (16)\n"
	       "  --max-wait S         longest a session may wait in the queue (600)\n"
	       "  --max-memory MIB     transaction images held at once, all sessions\n"
	       "                       (4096); a transaction past it is refused (413; AMD's\n"
	       "                       clients: accepted = 0)\n"
	       "  --work-dir DIR       an existing folder for the sessions' artifact folders\n"
	       "                       and the default --cache-dir, kept across restarts\n"
	       "                       (default: a private folder under $TMPDIR, removed\n"
	       "                       at exit)\n"
	       "  --cache-dir DIR      design xclbins uploaded by clients, by sha256 (made\n"
	       "                       if missing, kept across restarts; default: DIR/xclbins\n"
	       "                       in the work folder)\n"
	       "  --max-xclbin MIB     largest xclbin upload (1024); more is refused (413)\n"
	       "  --xclbin-cache-mib MIB  all cached xclbins together (2048): the least\n"
	       "                       recently used go first, never one a session uses\n"
	       "  --amd-listen ADDR:PORT  also serve AMD's own clients (their TCP protocol,\n"
	       "                       docs/server.md \"AMD's clients\"); printed as \"AMD's\n"
	       "                       protocol on ADDR:PORT\". That protocol has NO\n"
	       "                       authentication: off unless given, loopback only\n"
	       "                       unless --insecure\n"
	       "  --graph-model NAME=MODEL[:JSON]  emulated board: the graph model of an AMD\n"
	       "                       client's graph NAME (repeatable; e.g. gr=adder or\n"
	       "                       'gr=adder:{\"window_bytes\":4096}'); others: the default.\n"
	       "                       NAME=@PRESET: a preset of AMD's examples (aie_dut=@channelizer;\n"
	       "                       the files in the data folder's cfg/graph-models/)\n"
	       "  --amd-setup-timeout S  an AMD connection must send its manager (its\n"
	       "                       constructor: handshake, device, xclbin) within S s\n"
	       "                       of connecting (30); setTimeOut does not extend it\n"
	       "  --model-dir DIR      emulated board: graph model plugins HTTP clients may\n"
	       "                       name by file name (\"scale_model\" or \"scale_model.so\",\n"
	       "                       never a path; repeatable, up to 16, the first folder\n"
	       "                       holding the name wins). Without it clients name only\n"
	       "                       the built-in models\n"
	       "  --rate-limit N       requests per second per token, or per address for\n"
	       "                       requests without a valid token (200); more get 429\n"
	       "                       with Retry-After\n"
	       "  --client-timeout S   close a connection idle for S s, e.g. a client that\n"
	       "                       never finishes its request (30)\n"
	       "  --head-timeout S     close a connection whose request line and headers\n"
	       "                       have not all arrived S s after it opened or after\n"
	       "                       its previous request ended (10): the idle limit of\n"
	       "                       a kept-alive connection\n"
	       "  --max-conn N         HTTP connections open at once (64); a quarter of them\n"
	       "                       only for token holders' connections (a request on\n"
	       "                       them carried a valid token); when the others are\n"
	       "                       full, the oldest of the address holding the most is\n"
	       "                       closed to make room. A connection without a token\n"
	       "                       serves one request\n"
	       "  --max-conn-per-addr N  HTTP connections one client address may hold open\n"
	       "                       without a token (8); more are closed at once\n"
	       "  --max-session S      a session that has held the device S s while another\n"
	       "                       waits is ended (state \"expired\"; a running\n"
	       "                       transaction is interrupted) and the next one gets\n"
	       "                       the device (3600; 0: no limit)\n"
	       "  --reset-cmd 'CMD'    reset the device with /bin/sh -c CMD (e.g. 'xrt-smi\n"
	       "                       reset --force') after a session that expired or\n"
	       "                       failed and on drain, before the next session gets\n"
	       "                       the device; its exit status is logged, failures\n"
	       "                       counted in /v1/metrics (default: none; closing the\n"
	       "                       device is the reset)\n"
	       "  --reset-timeout S    kill the reset command after S s (120)\n"
	       "  --log-json           one JSON object per log line (stdout)\n"
	       "  --help, --version\n"
	       "\n"
	       "One log line per request on stdout: time, client, token name, method, path,\n"
	       "status, bytes in and out, duration. SIGHUP reads the token file again\n"
	       "(a bad file keeps the tokens in use; both are logged). SIGTERM or SIGINT\n"
	       "drain: new requests get 503, a running transaction is interrupted (its\n"
	       "client is told the server stopped), running requests get their replies\n"
	       "out, every session ends and the device is reset (closed; then the reset\n"
	       "command), then th_server exits 0.\n"
	       "Exit codes: 0 stopped by a signal, 2 usage or input error, 3 cannot listen.\n");
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
	enum {
		O_LISTEN = 256,
		O_TOKENS,
		O_INSECURE,
		O_BACKEND,
		O_BOARD,
		O_DATA,
		O_IDLE,
		O_QUEUE,
		O_WAIT,
		O_JSON,
		O_HELP,
		O_VERSION,
		O_CERT,
		O_KEY,
		O_MEM,
		O_CACHE,
		O_MAXX,
		O_XCACHE,
		O_AMD,
		O_MODEL,
		O_RATE,
		O_CTIMEOUT,
		O_RESET,
		O_RESET_TO,
		O_WORK,
		O_AMD_SETUP,
		O_MODEL_DIR,
		O_HTIMEOUT,
		O_PERADDR,
		O_MAXCONN,
		O_MAXSESS
	};
	static const struct option longopts[] = {
		{"listen", required_argument, NULL, O_LISTEN},
		{"token-file", required_argument, NULL, O_TOKENS},
		{"insecure", no_argument, NULL, O_INSECURE},
		{"backend", required_argument, NULL, O_BACKEND},
		{"board", required_argument, NULL, O_BOARD},
		{"data-dir", required_argument, NULL, O_DATA},
		{"idle-timeout", required_argument, NULL, O_IDLE},
		{"max-queue", required_argument, NULL, O_QUEUE},
		{"max-wait", required_argument, NULL, O_WAIT},
		{"log-json", no_argument, NULL, O_JSON},
		{"tls-cert", required_argument, NULL, O_CERT},
		{"tls-key", required_argument, NULL, O_KEY},
		{"max-memory", required_argument, NULL, O_MEM},
		{"cache-dir", required_argument, NULL, O_CACHE},
		{"work-dir", required_argument, NULL, O_WORK},
		{"max-xclbin", required_argument, NULL, O_MAXX},
		{"xclbin-cache-mib", required_argument, NULL, O_XCACHE},
		{"amd-listen", required_argument, NULL, O_AMD},
		{"graph-model", required_argument, NULL, O_MODEL},
		{"amd-setup-timeout", required_argument, NULL, O_AMD_SETUP},
		{"model-dir", required_argument, NULL, O_MODEL_DIR},
		{"rate-limit", required_argument, NULL, O_RATE},
		{"client-timeout", required_argument, NULL, O_CTIMEOUT},
		{"reset-cmd", required_argument, NULL, O_RESET},
		{"reset-timeout", required_argument, NULL, O_RESET_TO},
		{"head-timeout", required_argument, NULL, O_HTIMEOUT},
		{"max-conn-per-addr", required_argument, NULL, O_PERADDR},
		{"max-conn", required_argument, NULL, O_MAXCONN},
		{"max-session", required_argument, NULL, O_MAXSESS},
		{"help", no_argument, NULL, O_HELP},
		{"version", no_argument, NULL, O_VERSION},
		{NULL, 0, NULL, 0},
	};
	aieth_server_opts o;
	aieth_server *srv = NULL;
	const char *models[64], *model_dirs[16];
	size_t nmodels = 0, nmodel_dirs = 0;
	const char *data_opt = NULL;
	struct sigaction sa;
	int c, rc;

	aieth_server_opts_init(&o, AIETH_SERVER_OPTS_VERSION);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_LISTEN: o.listen = optarg; break;
		case O_TOKENS: o.token_file = optarg; break;
		case O_INSECURE: o.insecure = 1; break;
		case O_BACKEND:
			/* a device on this machine: the library's table says which */
			if (aieth_backend_local(optarg) != 1)
				return usage_error("--backend %s: emu or xrt", optarg);
			o.backend = optarg;
			break;
		case O_BOARD: o.board = optarg; break;
		case O_DATA: data_opt = optarg; break;
		case O_IDLE:
			if (parse_u32("--idle-timeout", optarg, 1, 86400, &o.idle_timeout_s))
				return EX_USAGE;
			break;
		case O_QUEUE:
			if (parse_u32("--max-queue", optarg, 1, 1024, &o.max_queue))
				return EX_USAGE;
			break;
		case O_WAIT:
			if (parse_u32("--max-wait", optarg, 1, 86400, &o.max_wait_s))
				return EX_USAGE;
			break;
		case O_JSON: o.log_json = 1; break;
		case O_CERT: o.tls_cert = optarg; break;
		case O_KEY: o.tls_key = optarg; break;
		case O_MEM:
			if (parse_u32("--max-memory", optarg, 1, 1u << 20, &o.max_memory_mib))
				return EX_USAGE;
			break;
		case O_CACHE: o.cache_dir = optarg; break;
		case O_WORK: o.work_dir = optarg; break;
		case O_MAXX:
			if (parse_u32("--max-xclbin", optarg, 1, 1u << 20, &o.max_xclbin_mib))
				return EX_USAGE;
			break;
		case O_XCACHE:
			if (parse_u32("--xclbin-cache-mib", optarg, 1, 1u << 24,
				      &o.xclbin_cache_mib))
				return EX_USAGE;
			break;
		case O_AMD: o.amd_listen = optarg; break;
		case O_MODEL:
			if (nmodels == sizeof models / sizeof models[0])
				return usage_error("--graph-model %s: at most 64 are allowed",
						   optarg);
			models[nmodels++] = optarg;
			break;
		case O_AMD_SETUP:
			if (parse_u32("--amd-setup-timeout", optarg, 1, 3600,
				      &o.amd_setup_timeout_s))
				return EX_USAGE;
			break;
		case O_MODEL_DIR:
			if (nmodel_dirs == sizeof model_dirs / sizeof model_dirs[0])
				return usage_error("--model-dir %s: at most 16 are allowed",
						   optarg);
			model_dirs[nmodel_dirs++] = optarg;
			break;
		case O_RATE:
			if (parse_u32("--rate-limit", optarg, 1, 1000000, &o.rate_limit))
				return EX_USAGE;
			break;
		case O_CTIMEOUT:
			if (parse_u32("--client-timeout", optarg, 1, 3600, &o.client_timeout_s))
				return EX_USAGE;
			break;
		case O_RESET:
			if (!*optarg)
				return usage_error("%s", "--reset-cmd: an empty command");
			o.reset_cmd = optarg;
			break;
		case O_RESET_TO:
			if (parse_u32("--reset-timeout", optarg, 1, 3600, &o.reset_timeout_s))
				return EX_USAGE;
			break;
		case O_HTIMEOUT:
			if (parse_u32("--head-timeout", optarg, 1, 3600, &o.head_timeout_s))
				return EX_USAGE;
			break;
		case O_PERADDR:
			if (parse_u32("--max-conn-per-addr", optarg, 1, 1024, &o.max_conn_per_addr))
				return EX_USAGE;
			break;
		case O_MAXCONN:
			if (parse_u32("--max-conn", optarg, 2, 1024, &o.max_conn))
				return EX_USAGE;
			break;
		case O_MAXSESS:
			if (parse_u32("--max-session", optarg, 0, 7 * 86400, &o.max_session_s))
				return EX_USAGE;
			if (!o.max_session_s)
				o.max_session_s = AIETH_SERVER_NO_LIMIT;
			break;
		case O_HELP: help(); return EX_OK;
		case O_VERSION: printf("th_server %s\n", aieth_version()); return EX_OK;
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

	rc = aieth_server_open(&srv, &o);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, aieth_error_message());
		return rc == AIETH_EINVAL || rc == AIETH_EPARSE || rc == AIETH_ENOTFOUND ? EX_USAGE
											 : EX_INFRA;
	}
	if (o.listen) {
		/* the address as given, the port as bound (for --listen ...:0) */
		const char *colon = strrchr(o.listen, ':');
		printf("th_server %s: listening on %.*s:%u (%s, backend %s%s%s)\n", aieth_version(),
		       (int)(colon - o.listen), o.listen, (unsigned)aieth_server_port(srv),
		       o.tls_cert ? "https" : "http", o.backend ? o.backend : "emu",
		       o.token_file ? ", tokens from " : ", no tokens",
		       o.token_file ? o.token_file : "");
		fflush(stdout);
	}
	if (o.amd_listen) {
		const char *colon = strrchr(o.amd_listen, ':');
		printf("th_server %s: AMD's protocol on %.*s:%u (backend %s, no authentication)\n",
		       aieth_version(), (int)(colon - o.amd_listen), o.amd_listen,
		       (unsigned)aieth_server_amd_port(srv), o.backend ? o.backend : "emu");
		fflush(stdout);
	}
	while (!cli_signal) {
		struct timespec ts = {0, 200 * 1000000L};
		nanosleep(&ts, NULL);
		if (reload_signal) {
			size_t n = 0;
			reload_signal = 0;
			if (aieth_server_reload_tokens(srv, &n))
				printf("th_server: SIGHUP: token file not reloaded, the tokens in "
				       "use stay: %s\n",
				       aieth_error_message());
			else
				printf("th_server: SIGHUP: token file %s reloaded: %zu tokens\n",
				       o.token_file, n);
			fflush(stdout);
		}
		aieth_server_tick(srv);
	}
	printf("th_server: signal %d: draining\n", (int)cli_signal);
	fflush(stdout);
	aieth_server_close(srv);
	printf("th_server: stopped\n");
	return EX_OK;
}
