/* SPDX-License-Identifier: MIT */
/*
 * xrt_ini.c - the test double's xrt.ini: read from where XRT reads it, and
 * the AIE trace, status and profile files written where XRT writes them,
 * under XRT's names, so that tests see what a board run leaves behind.
 *
 * Where (Xilinx/XRT, src/runtime_src/core/common/config_reader.cpp,
 * get_ini_path): the file XRT_INI_PATH names when it exists, else xrt.ini
 * beside the executable, else xrt.ini in the working folder. (XRT 2.25 and
 * later skip XRT_INI_PATH and the working folder when euid is 0; the
 * double keeps the older rule, which tests running as root need.)
 *
 * What (config_reader.h, XRT 2.19): [Debug] aie_trace, aie_status,
 * aie_profile (booleans: "true" or 1) and [AIE_trace_settings]
 * graph_based_aie_tile_metrics (<graph|all>:<kernel|all>:<metric set>).
 *
 * Files (XRT 2.19, src/runtime_src/xdp/profile/...), all in the working
 * folder: plugin/aie_trace/aie_trace_plugin.cpp "aie_trace_<device>_<stream>.txt";
 * plugin/aie_status/aie_status_plugin.cpp "aie_status_<device name>_<time>.json";
 * plugin/aie_profile/aie_profile_plugin.cpp "aie_profile_<device name>_<time>.csv";
 * database/static_info_database.cpp "xrt.run_summary" (written when a file
 * is opened and again from its destructor). The device name of an edge
 * board is "edge" (core/edge/user/shim.cpp). The double writes trace,
 * status and profile when the device closes, and xrt.run_summary's final
 * list from the library's destructor, which runs only when the process
 * ends with exit(), as XRT's static destructors do. The contents are the
 * double's own (graphs and iterations), not XRT's formats.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xrt_ini.h"

#define MAX_FILES 8
#define MAX_GRAPHS 16

static struct {
	int loaded;
	char path[PATH_MAX]; /* the xrt.ini read, "" when none */
	int trace, status, profile;
	char metrics[512];
	char files[MAX_FILES][96];
	size_t nfiles;
	char graphs[MAX_GRAPHS][128];
	long long iterations[MAX_GRAPHS];
	size_t ngraphs;
	int written;
} I;

static int exists(const char *p) { return p && *p && access(p, F_OK) == 0; }

static void find_ini(void)
{
	const char *env = getenv("XRT_INI_PATH");
	char exe[PATH_MAX];
	ssize_t n;
	if (exists(env)) {
		snprintf(I.path, sizeof I.path, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) && (size_t)(slash - exe) + 9 < sizeof exe) {
			strcpy(slash + 1, "xrt.ini");
			if (exists(exe)) {
				snprintf(I.path, sizeof I.path, "%s", exe);
				return;
			}
		}
	}
	if (exists("xrt.ini")) {
		char cwd[PATH_MAX - 16];
		if (getcwd(cwd, sizeof cwd))
			snprintf(I.path, sizeof I.path, "%s/xrt.ini", cwd);
	}
}

static char *trim(char *s)
{
	char *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	if (e - s >= 2 && *s == '"' && e[-1] == '"') {
		e[-1] = '\0';
		s++;
	}
	return s;
}

static int is_true(const char *v) { return !strcmp(v, "true") || !strcmp(v, "1"); }

void dbl_ini_load(void)
{
	char line[1024], section[64] = "";
	FILE *f;
	if (I.loaded)
		return;
	I.loaded = 1;
	find_ini();
	if (!I.path[0] || !(f = fopen(I.path, "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		char *s = trim(line), *eq, *k, *v;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (e)
				*e = '\0';
			snprintf(section, sizeof section, "%s", s + 1);
			continue;
		}
		if (!(eq = strchr(s, '=')))
			continue;
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!strcmp(section, "Debug") && !strcmp(k, "aie_trace"))
			I.trace = is_true(v);
		else if (!strcmp(section, "Debug") && !strcmp(k, "aie_status"))
			I.status = is_true(v);
		else if (!strcmp(section, "Debug") && !strcmp(k, "aie_profile"))
			I.profile = is_true(v);
		else if (!strcmp(section, "AIE_trace_settings") &&
			 !strcmp(k, "graph_based_aie_tile_metrics"))
			snprintf(I.metrics, sizeof I.metrics, "%s", v);
	}
	fclose(f);
}

const char *dbl_ini_path(void) { return I.path; }

void dbl_ini_graph_run(const char *name, long long iterations)
{
	size_t i;
	for (i = 0; i < I.ngraphs; i++)
		if (!strcmp(I.graphs[i], name))
			break;
	if (i == I.ngraphs) {
		if (I.ngraphs == MAX_GRAPHS)
			return;
		snprintf(I.graphs[I.ngraphs++], sizeof I.graphs[0], "%s", name);
		I.iterations[i] = 0;
	}
	I.iterations[i] += iterations;
}

static void add_file(const char *name)
{
	if (I.nfiles < MAX_FILES)
		snprintf(I.files[I.nfiles++], sizeof I.files[0], "%s", name);
}

static void write_summary(int final)
{
	FILE *f = fopen("xrt.run_summary", "w");
	size_t i;
	if (!f)
		return;
	fprintf(f,
		"{\"writer\": \"aieth xrt_double\", \"final\": %s, \"xrt_ini\": \"%s\", "
		"\"files\": [",
		final ? "true" : "false", I.path);
	for (i = 0; i < I.nfiles; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", I.files[i]);
	fprintf(f, "]}\n");
	fclose(f);
}

void dbl_ini_device_open(void)
{
	dbl_ini_load();
	if ((I.trace || I.status || I.profile) && !I.nfiles)
		write_summary(0);
}

void dbl_ini_device_close(void)
{
	char stamp[40] = "0000_00_00_0000", name[96];
	time_t t = time(NULL);
	struct tm tm;
	size_t i;
	FILE *f;

	if (I.written || !(I.trace || I.status || I.profile))
		return;
	I.written = 1;
	{
		/* a board's XRT takes its time to flush a trace when the device
		 * closes: the files appear late */
		const char *ms = getenv("AIETH_XRT_DOUBLE_FLUSH_MS");
		long v = ms ? atol(ms) : 0;
		struct timespec ts = {v / 1000, (v % 1000) * 1000000L};
		if (v > 0)
			nanosleep(&ts, NULL);
	}
	if (localtime_r(&t, &tm))
		strftime(stamp, sizeof stamp, "%Y_%m_%d_%H%M%S", &tm);
	if (I.trace && (f = fopen("aie_trace_0_0.txt", "w"))) {
		const char *pad = getenv("AIETH_XRT_DOUBLE_TRACE_BYTES");
		long long n = pad ? atoll(pad) : 0;
		fprintf(f, "# aieth xrt_double: AIE trace of device 0, stream 0\n");
		fprintf(f, "# graph_based_aie_tile_metrics=%s\n",
			I.metrics[0] ? I.metrics : "(none)");
		for (i = 0; i < I.ngraphs; i++)
			fprintf(f, "graph %s iterations %lld\n", I.graphs[i], I.iterations[i]);
		/* a long trace, as a board's can be */
		for (; n > 0 && ftell(f) < n;)
			fputs("0000000000000000000000000000000000000000000000000000000000000000\n",
			      f);
		fclose(f);
		add_file("aie_trace_0_0.txt");
	}
	snprintf(name, sizeof name, "aie_status_edge_%s.json", stamp);
	if (I.status && (f = fopen(name, "w"))) {
		fprintf(f, "{\"writer\": \"aieth xrt_double\", \"graphs\": [");
		for (i = 0; i < I.ngraphs; i++)
			fprintf(f, "%s{\"name\": \"%s\", \"iterations\": %lld}", i ? ", " : "",
				I.graphs[i], I.iterations[i]);
		fprintf(f, "]}\n");
		fclose(f);
		add_file(name);
	}
	{
		/* what a collector must not take: a link, a folder, a hidden file */
		const char *fault = getenv("AIETH_XRT_DOUBLE_FAULT");
		if (fault && !strcmp(fault, "odd_files")) {
			if (symlink("/etc/passwd", "aie_link.txt") || mkdir("aie_dir", 0700))
				fprintf(stderr,
					"[XRT] ERROR: double: odd_files: cannot create them\n");
			if ((f = fopen("aie_dir/inner.txt", "w")))
				fclose(f);
			if ((f = fopen(".hidden", "w")))
				fclose(f);
		}
	}
	snprintf(name, sizeof name, "aie_profile_edge_%s.csv", stamp);
	if (I.profile && (f = fopen(name, "w"))) {
		fprintf(f, "graph,iterations\n");
		for (i = 0; i < I.ngraphs; i++)
			fprintf(f, "%s,%lld\n", I.graphs[i], I.iterations[i]);
		fclose(f);
		add_file(name);
	}
}

/* as XRT's static database writes xrt.run_summary from its destructor:
 * only at exit(), never at _exit() */
__attribute__((destructor)) static void dbl_ini_fini(void)
{
	if (I.nfiles)
		write_summary(1);
}
