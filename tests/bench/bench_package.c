/* SPDX-License-Identifier: MIT */
/*
 * bench_package.c - `make bench`: th_package on a 64 MiB graph archive.
 * Figures printed, nothing asserted.
 *
 * Inputs are generated (tests/data/package): a libadf.a whose elfs CDO
 * carries 64 MiB, as plain members and as an ELF sw.o, and an XSA. For
 * each, 5 pairs in turn (--rounds): `cp` of the same archive, then the
 * packaging (in a child process, as th_package runs); the medians of the
 * wall times, of the part bootgen took and of each pair's ratio (goal
 * without bootgen, a warm hit or --pdi: <= 1.2), and peak memory of the
 * packaging process and of bootgen. A warm PDI cache is measured twice
 * for the CDO members: right after the entry was stored (less than 2 s
 * old: each hit hashes it; on a host whose rounds outlast 2 s the later
 * ones find it stamped) and once it is stamped (checked once, unchanged
 * since: a hit does not hash it, as any later packaging finds it). A
 * prebuilt-PDI run (--pdi: no bootgen) shows the packager's own cost.
 *
 * First the hash alone: hash128 (util/hash.c, run over every packaged
 * byte) on a buffer of the same size in memory.
 *
 * Then the figures that do not depend on the host, for a warm hit and a
 * prebuilt --pdi (and cp of the same bytes, for reference): the bytes
 * that pass through user-space memory per byte packaged (the bytes of
 * read/write system calls: a read then a write of a byte counts 2, a
 * write from a mapping 1, copy_file_range or a reflink 0), system calls
 * per MiB and page faults per MiB. The system calls come from a trace of
 * one packaging run in a child process (`strace -f`, or qemu-user's
 * -strace when AIETH_RUN_WRAPPER names qemu: the aarch64 build under
 * `make CROSS=aarch64 bench`), less those of a child that only sets up;
 * the faults from getrusage around aieth__package in the child (not under
 * qemu, whose faults are the emulator's). Goals printed beside them: at
 * most 1 user-space copy per byte (0 with copy_file_range), at most one
 * system call per 128 KiB moved (8 per MiB).
 *
 * Last, each goal's figure on a line of its own ("warm hit CDO 1.14 x cp
 * (goal 1.2)").
 *
 * Options: --quick (8 MiB, one round: the smoke test), --mib N, --rounds N,
 * --only cold|cdo|elf|pdi (one case; no traced counts);
 * --one none|warm|pdi DIR is the traced child (internal).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/th_package.h"
#include "bench_median.h"
#include "pkg_fixtures.h"
#include "util/hash.h"

/* Seconds for a new cache entry to settle (its stamp needs it unchanged
 * for 2 s: package/pdi_cache.c), with a margin. */
#define PC_SETTLE_WAIT_S 2.5

/* When the bench last stored a cache entry (a fill that missed). */
static double last_store;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
	int ok;
	double wall, bootgen, cache;
	int hit, direct;
	long minflt, majflt; /* page faults of aieth__package alone */
	long self_kib, bootgen_kib;
	char msg[256];
} run_fig;

/* Package in a child (a fresh process, like th_package) and report back. */
static run_fig package_once(const aieth_board *b, const char *xsa, const char *graph,
			    const char *pdi, const char *cache, const char *out)
{
	run_fig f;
	int fd[2], st;
	pid_t pid;
	double t0;
	memset(&f, 0, sizeof f);
	if (pipe(fd)) {
		snprintf(f.msg, sizeof f.msg, "pipe: %s", strerror(errno));
		return f;
	}
	t0 = now();
	pid = fork();
	if (pid == 0) {
		aieth__package_opts o;
		aieth__package_result r;
		struct rusage ru;
		run_fig c;
		aieth__package_opts_init(&o, AIETH_PACKAGE_OPTS_VERSION);
		memset(&c, 0, sizeof c);
		o.board = b;
		o.xsa = xsa;
		o.graph = graph;
		o.pdi = pdi;
		o.use_cache = cache != NULL;
		o.cache_dir = cache;
		o.output = out;
		o.timestamp = 0;
		o.id_code = o.ext_id_code = -1;
		getrusage(RUSAGE_SELF, &ru);
		c.minflt = -ru.ru_minflt, c.majflt = -ru.ru_majflt;
		c.ok = aieth__package(&o, &r) == AIETH_OK;
		if (!c.ok)
			snprintf(c.msg, sizeof c.msg, "%s", aieth_error_message());
		getrusage(RUSAGE_SELF, &ru);
		c.minflt += ru.ru_minflt, c.majflt += ru.ru_majflt;
		c.direct = r.cache_direct;
		c.self_kib = ru.ru_maxrss;
		c.bootgen = r.bootgen_seconds;
		c.cache = r.cache_seconds;
		c.hit = r.pdi_from_cache;
		c.bootgen_kib = r.bootgen_maxrss_kib;
		if (write(fd[1], &c, sizeof c) != (ssize_t)sizeof c)
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &f, sizeof f) != (ssize_t)sizeof f)
		snprintf(f.msg, sizeof f.msg, "child failed");
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	f.wall = now() - t0;
	return f;
}

static double cp_once(const char *src, const char *dst)
{
	double t0 = now();
	pid_t pid = fork();
	int st = 1;
	if (pid == 0) {
		execlp("cp", "cp", src, dst, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? now() - t0 : -1;
}

static void warm(const char *path)
{
	char buf[1 << 16];
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	while (fread(buf, 1, sizeof buf, f) > 0)
		;
	fclose(f);
}

/* hash128 over mib MiB in memory, best of rounds, in GB/s. */
static void bench_hash(unsigned long mib, int rounds)
{
	size_t n = (size_t)mib << 20, i;
	uint8_t *b = malloc(n), d[16];
	double best = 1e9, t;
	aieth_hash128 h;
	int r;
	if (!b) {
		fprintf(stderr, "bench_package: hash128: out of memory\n");
		return;
	}
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 2654435761u >> 13);
	for (r = 0; r < rounds; r++) {
		t = now();
		aieth__hash128_init(&h);
		aieth__hash128_update(&h, b, n);
		aieth__hash128_final(&h, d);
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("hash128: %.1f GB/s (%lu MiB in memory, best of %d; %s block loop; digest "
	       "%02x%02x...)\n",
	       (double)n / best / 1e9, mib, rounds, aieth__hash128_form(), d[0], d[1]);
	free(b);
}

/* How a warm hit finds its entry: just stored (less than 2 s old: each
 * hit hashes it), or stamped (unchanged for 2 s and checked once: a hit
 * does not hash it; docs/packaging.md, "Entries"). */
enum { HIT_FRESH, HIT_STAMPED };

#define MAX_ROUNDS 100

/* The goal lines (printed last, one a figure): label, median ratio. */
static struct {
	const char *label;
	double ratio;
} goals[8];
static int num_goals;

/* rounds pairs, cp then the packaging, each pair's ratio taken (pairing
 * keeps a ratio meaningful while the machine's speed drifts): medians.
 * With cache (a folder), one untimed run fills it first and every timed
 * run must be a hit; with HIT_STAMPED the entry is left to settle 2 s
 * after a fill that stored it, and one more untimed hit checks and stamps
 * it. *med_out / *cp_out (may be NULL) receive the median run's figures
 * (wall and bootgen: the medians) and cp's median; goal (may be NULL) names
 * the case's line among the goals. */
static int bench_one(const aieth_board *b, const char *dir, const char *xsa, const char *graph,
		     const char *label, const char *pdi, const char *cache, int hit_kind,
		     int rounds, run_fig *med_out, double *cp_out, const char *goal)
{
	char out[4096], copy[4096];
	run_fig last, f;
	double walls[MAX_ROUNDS], cps[MAX_ROUNDS], ratios[MAX_ROUNDS], bootgens[MAX_ROUNDS];
	double cpmed, ratio, wall, bootgen;
	struct stat st;
	long long size = 0;
	int i, n = 0;
	if (rounds > MAX_ROUNDS)
		rounds = MAX_ROUNDS;
	snprintf(out, sizeof out, "%s/out.xclbin", dir);
	snprintf(copy, sizeof copy, "%s/copy.a", dir);
	warm(graph);
	memset(&last, 0, sizeof last);
	if (cache) {
		f = package_once(b, xsa, graph, pdi, cache, out);
		if (f.ok && !f.hit)
			last_store = now();
		if (f.ok && hit_kind == HIT_STAMPED) {
			/* the entry unchanged for 2 s since it was stored, then
			 * checked (and stamped) by one more hit */
			double wait = last_store + PC_SETTLE_WAIT_S - now();
			struct timespec ts = {(time_t)wait,
					      (long)((wait - (double)(time_t)wait) * 1e9)};
			if (wait > 0)
				nanosleep(&ts, NULL);
			f = package_once(b, xsa, graph, pdi, cache, out);
		}
		if (!f.ok) {
			fprintf(stderr, "bench_package: %s: %s\n", label, f.msg);
			return 1;
		}
		unlink(out);
	}
	for (i = 0; i < rounds; i++) {
		double c = cp_once(graph, copy);
		f = package_once(b, xsa, graph, pdi, cache, out);
		if (!f.ok || (cache && !f.hit)) {
			fprintf(stderr, "bench_package: %s: %s\n", label,
				f.ok ? "not a cache hit" : f.msg);
			return 1;
		}
		if (c > 0) {
			walls[n] = f.wall, cps[n] = c, bootgens[n] = f.bootgen;
			ratios[n++] = f.wall / c;
		}
		if (f.self_kib > last.self_kib || !i)
			last = f; /* the peaks: the largest run's */
		if (stat(out, &st) == 0)
			size = (long long)st.st_size;
		unlink(copy); /* both start from no file each round */
		unlink(out);
	}
	if (!n) {
		fprintf(stderr, "bench_package: %s: cp failed\n", label);
		return 1;
	}
	wall = bench_median(walls, n), cpmed = bench_median(cps, n),
	ratio = bench_median(ratios, n);
	bootgen = bench_median(bootgens, n);
	last.wall = wall, last.bootgen = bootgen;
	if (med_out)
		*med_out = last;
	if (cp_out)
		*cp_out = cpmed;
	if (cache)
		printf("%-28s package %7.3f s (bootgen not run; cache lookup %6.3f s; %s)  cp "
		       "%6.3f s\n",
		       label, wall, last.cache,
		       hit_kind == HIT_STAMPED ? "the entry's stamp holds: not hashed"
					       : "the entry hashed in the copy",
		       cpmed);
	else
		printf("%-28s package %7.3f s (bootgen %6.3f s, packager %6.3f s)  cp %6.3f s\n",
		       label, wall, bootgen, wall - bootgen, cpmed);
	/* the goal (docs/packaging.md): a run without bootgen (a warm hit, --pdi) at
	 * most 1.2 x cp; a cold run is bootgen's time */
	printf("%-28s ratio package / cp: %.2f%s (median of %d pairs, min %.2f, max %.2f)   "
	       "ratio packager (without bootgen) / cp: %.1f\n",
	       "", ratio, bootgen > 0 ? "" : " (goal <= 1.2)", n, ratios[0], ratios[n - 1],
	       (wall - bootgen) / cpmed);
	printf("%-28s peak memory: packager %ld KiB, bootgen %ld KiB; xclbin %lld bytes\n", "",
	       last.self_kib, last.bootgen_kib, size);
	if (goal && num_goals < (int)(sizeof goals / sizeof goals[0])) {
		goals[num_goals].label = goal;
		goals[num_goals++].ratio = ratio;
	}
	return 0;
}

/* ------------------------------------- figures that do not depend on the host */

/* One traced run: its system calls and the bytes its read/write family
 * moved through user memory. */
typedef struct {
	int ok;
	long long calls, user_bytes;
	long long futex; /* of calls: the threads' waits, as they happen to meet */
	long minflt, majflt, hit, direct;
	long long size;
} trace_fig;

/* The read/write family: each byte they move is copied between the page
 * cache (or a socket) and user memory by the kernel. */
static int rw_call(const char *name, size_t n)
{
	static const char *const rw[] = {"read",   "write",  "pread64", "pwrite64", "readv",
					 "writev", "preadv", "pwritev", "preadv2",  "pwritev2"};
	size_t i;
	for (i = 0; i < sizeof rw / sizeof rw[0]; i++)
		if (strlen(rw[i]) == n && !strncmp(name, rw[i], n))
			return 1;
	return 0;
}

/* Lines of `strace -f -s 0` ("PID name(args) = R", "PID name(... <unfinished
 * ...>", "PID <... name resumed>...) = R") or of qemu-user's -strace ("PID
 * name(args) = R"): one system call per line that starts one. */
static int parse_trace(const char *path, trace_fig *t)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *p = line + strspn(line, "0123456789"), *name, *eq;
		size_t n;
		int resumed = 0;
		if (p == line || *p != ' ')
			continue;
		p += strspn(p, " ");
		if (!strncmp(p, "<... ", 5)) {
			resumed = 1;
			p += 5;
		}
		name = p;
		n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (!n || (resumed ? strncmp(name + n, " resumed>", 9) : name[n] != '('))
			continue;
		if (!resumed) {
			t->calls++;
			t->futex += n == 5 && !strncmp(name, "futex", 5);
		}
		/* the result follows the last " = " (-s 0: no string contents) */
		eq = strstr(p, " = ");
		if (rw_call(name, n) && eq && !strstr(p, "<unfinished")) {
			char *last;
			while ((last = strstr(eq + 1, " = ")))
				eq = last;
			if (eq[3] >= '0' && eq[3] <= '9')
				t->user_bytes += strtoll(eq + 3, NULL, 10);
		}
	}
	fclose(f);
	return 0;
}

/* The run-wrapper (qemu-user) of this bench, split into words; 0 when none. */
static int wrapper_words(char *buf, size_t cap, char **w, int max)
{
	const char *env = getenv("AIETH_RUN_WRAPPER");
	int n = 0;
	char *tok;
	if (!env || !*env || strlen(env) >= cap)
		return 0;
	strcpy(buf, env);
	for (tok = strtok(buf, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	return n;
}

/* Run cmd (NULL-terminated) traced; the trace's figures into *t. */
static int trace_run(const char *dir, char *const *cmd, trace_fig *t)
{
	char trace[300], wbuf[512], *argv[64];
	int n = 0, i, st = 1;
	pid_t pid;
	char *w[16];
	int nw = wrapper_words(wbuf, sizeof wbuf, w, 16);
	memset(t, 0, sizeof *t);
	snprintf(trace, sizeof trace, "%s/trace.txt", dir);
	if (nw) {
		for (i = 0; i < nw; i++)
			argv[n++] = w[i];
		argv[n++] = "-D", argv[n++] = trace, argv[n++] = "-strace";
	} else {
		argv[n++] = "strace", argv[n++] = "-f", argv[n++] = "-s", argv[n++] = "0";
		argv[n++] = "-o", argv[n++] = trace;
	}
	for (i = 0; cmd[i] && n < 63; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);
		if (nul >= 0)
			dup2(nul, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || parse_trace(trace, t) || !t->calls) {
		unlink(trace);
		return -1;
	}
	unlink(trace);
	t->ok = 1;
	return 0;
}

/* --one KIND DIR: the traced child. Sets up as the bench does, then (KIND
 * warm or pdi) packages once; its figures go to DIR/one.txt. */
static int one_run(const char *kind, const char *dir)
{
	aieth_board *b;
	aieth__package_opts o;
	aieth__package_result r;
	struct rusage r0, r1;
	struct stat st;
	char xsa[300], graph[300], pdi[300], cache[300], out[300], res[300];
	FILE *f;
	int ok;
	if (aieth_board_load(&b, "vck190", NULL))
		return 1;
	if (!strcmp(kind, "none")) {
		aieth_board_free(b);
		return 0;
	}
	snprintf(xsa, sizeof xsa, "%s/h.xsa", dir);
	snprintf(graph, sizeof graph, "%s/libadf.a", dir);
	snprintf(pdi, sizeof pdi, "%s/aie.pdi", dir);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	snprintf(out, sizeof out, "%s/one.xclbin", dir);
	snprintf(res, sizeof res, "%s/one.txt", dir);
	aieth__package_opts_init(&o, AIETH_PACKAGE_OPTS_VERSION);
	o.board = b, o.xsa = xsa, o.graph = graph, o.output = out;
	o.timestamp = 0, o.id_code = o.ext_id_code = -1;
	if (!strcmp(kind, "pdi"))
		o.pdi = pdi;
	else
		o.use_cache = 1, o.cache_dir = cache;
	getrusage(RUSAGE_SELF, &r0);
	ok = aieth__package(&o, &r) == AIETH_OK;
	getrusage(RUSAGE_SELF, &r1);
	if (!ok)
		fprintf(stderr, "bench_package --one %s: %s\n", kind, aieth_error_message());
	f = fopen(res, "w");
	if (f) {
		fprintf(f, "%ld %ld %d %d %lld\n", r1.ru_minflt - r0.ru_minflt,
			r1.ru_majflt - r0.ru_majflt, r.pdi_from_cache, r.cache_direct,
			stat(out, &st) == 0 ? (long long)st.st_size : 0LL);
		fclose(f);
	}
	aieth_board_free(b);
	return ok ? 0 : 1;
}

/* The host: CPU model, cores, virtualised (the cpuinfo hypervisor flag). */
static void print_host(void)
{
	char line[512], model[256] = "unknown";
	int hyp = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	struct utsname u;
	while (f && fgets(line, sizeof line, f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		if (!strncmp(line, "model name", 10) && !strcmp(model, "unknown"))
			snprintf(model, sizeof model, "%s", v + 1 + strspn(v + 1, " \t"));
		if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			hyp = 1;
	}
	if (f)
		fclose(f);
	model[strcspn(model, "\n")] = '\0';
	if (uname(&u) != 0)
		snprintf(u.machine, sizeof u.machine, "?");
	printf("host: %s, %s, %ld cores, %s%s\n", u.machine, model, sysconf(_SC_NPROCESSORS_ONLN),
	       hyp ? "virtualised (hypervisor flag)" : "no hypervisor flag",
	       getenv("AIETH_RUN_WRAPPER") && *getenv("AIETH_RUN_WRAPPER")
		       ? "; under qemu-user (system calls and copies are the guest's)"
		       : "");
}

static void print_counts(const char *label, const trace_fig *t, const trace_fig *base,
			 long long bytes, int faults)
{
	double mib = (double)bytes / (1 << 20);
	long long calls = t->calls - (base ? base->calls : 0);
	long long futex = t->futex - (base ? base->futex : 0);
	long long ub = t->user_bytes - (base ? base->user_bytes : 0);
	printf("%-28s user-space copies %.3f per byte (%lld bytes through read/write; goal <= 1, "
	       "0 with copy_file_range)\n",
	       label, (double)ub / (double)bytes, ub);
	printf("%-28s system calls %.2f per MiB (%lld; goal <= 8, one per 128 KiB)\n", "",
	       (double)calls / mib, calls);
	/* a futex call is a wait that found the other thread behind (or its
	 * wake): how many depends on the schedule, the rest on the bytes */
	printf("%-28s of them futex %lld; without futex %.2f per MiB\n", "", futex,
	       (double)(calls - futex) / mib);
	if (faults)
		printf("%-28s page faults %.1f per MiB (minor %ld, major %ld)\n", "",
		       (double)(t->minflt + t->majflt) / mib, t->minflt, t->majflt);
}

/* The figures of a warm hit, a prebuilt --pdi and cp of the PDI. */
static int bench_counts(const char *dir, const char *pdi)
{
	char self[4096], copy[300], res[300], out[300];
	const char *kinds[] = {"warm", "pdi"};
	const char *labels[] = {"CDO members, warm PDI cache", "prebuilt --pdi (no bootgen)"};
	trace_fig base, t;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int under_qemu = getenv("AIETH_RUN_WRAPPER") && *getenv("AIETH_RUN_WRAPPER"), i;
	struct stat st;
	if (n <= 0)
		return 1;
	self[n] = '\0';
	print_host();
	{
		char *cmd[] = {self, "--one", "none", (char *)dir, NULL};
		if (trace_run(dir, cmd, &base)) {
			printf("figures that do not depend on the host: not measured (%s could not "
			       "trace a run)\n",
			       under_qemu ? "qemu-user -strace" : "strace -f");
			return 0;
		}
	}
	printf("figures that do not depend on the host (%s; setup subtracted: %lld system "
	       "calls):\n",
	       under_qemu ? "qemu-user -strace" : "strace -f -s 0", base.calls);
	snprintf(res, sizeof res, "%s/one.txt", dir);
	snprintf(out, sizeof out, "%s/one.xclbin", dir);
	for (i = 0; i < 2; i++) {
		char *cmd[] = {self, "--one", (char *)kinds[i], (char *)dir, NULL};
		FILE *f;
		if (trace_run(dir, cmd, &t) || !(f = fopen(res, "r"))) {
			fprintf(stderr, "bench_package: %s: the traced run failed\n", labels[i]);
			return 1;
		}
		if (fscanf(f, "%ld %ld %ld %ld %lld", &t.minflt, &t.majflt, &t.hit, &t.direct,
			   &t.size) != 5 ||
		    !t.size || (i == 0 && !t.hit)) {
			fclose(f);
			fprintf(stderr, "bench_package: %s: %s\n", labels[i],
				i == 0 ? "not a cache hit" : "no output");
			return 1;
		}
		fclose(f);
		unlink(res);
		unlink(out);
		print_counts(i == 0 ? (t.direct ? "warm PDI cache (direct hit)" : labels[0])
				    : labels[1],
			     &t, &base, t.size, !under_qemu);
	}
	/* the yardstick: cp of the PDI, the same bytes (not under qemu: cp is
	 * the host's program) */
	if (!under_qemu && stat(pdi, &st) == 0) {
		char *cmd[] = {"cp", (char *)pdi, copy, NULL};
		snprintf(copy, sizeof copy, "%s/copy.pdi", dir);
		if (!trace_run(dir, cmd, &t))
			print_counts("cp of the PDI (whole process)", &t, NULL,
				     (long long)st.st_size, 0);
		unlink(copy);
	}
	return 0;
}

int main(int argc, char **argv)
{
	aieth_board *b;
	pf_graph g;
	pf_xsa x;
	char dir[] = "/tmp/aieth-bench-package-XXXXXX", xsa[256], plain[256], elf[256], pdi[256];
	char cache[256];
	run_fig cold;
	double cold_cp;
	unsigned long mib = 64;
	const char *only = NULL;
	int rounds = 5, i, rc = 0;
	if (argc == 4 && !strcmp(argv[1], "--one"))
		return one_run(argv[2], argv[3]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			mib = 8, rounds = 1;
		else if (!strcmp(argv[i], "--mib") && i + 1 < argc)
			mib = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc && atoi(argv[i + 1]) > 0)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc &&
			 strstr(" cold cdo elf pdi ", argv[i + 1]) && strlen(argv[i + 1]) == 3)
			only = argv[++i];
		else {
			fprintf(stderr, "usage: bench_package [--quick] [--mib N] [--rounds N] "
					"[--only cold|cdo|elf|pdi]\n");
			return 2;
		}
	}
	if (aieth_board_load(&b, "vck190", NULL)) {
		fprintf(stderr, "bench_package: %s\n", aieth_error_message());
		return 1;
	}
	if (!mkdtemp(dir)) {
		perror("bench_package: mkdtemp");
		return 1;
	}
	snprintf(xsa, sizeof xsa, "%s/h.xsa", dir);
	snprintf(plain, sizeof plain, "%s/libadf.a", dir);
	snprintf(elf, sizeof elf, "%s/libadf_elf.a", dir);
	snprintf(pdi, sizeof pdi, "%s/aie.pdi", dir);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	memset(&x, 0, sizeof x);
	x.board = "vck190";
	x.id_code = PF_IDCODE_VC1902;
	x.ext_id_code = 1;
	pf_graph_for_board(&g, b, 4);
	g.elfs_bytes = (uint64_t)mib << 20;
	if (pf_write_xsa(xsa, &x) || pf_write_libadf(plain, &g)) {
		rc = 1;
		goto out;
	}
	g.elf = 1;
	if (pf_write_libadf(elf, &g)) {
		rc = 1;
		goto out;
	}
	bench_hash(mib, rounds < 3 ? 3 : rounds);
	printf("th_package on a %lu MiB graph archive (medians of %d pairs with cp; memory: "
	       "peak RSS)\n",
	       mib, rounds);
#define CASE(k) (!only || !strcmp(only, k))
	if (CASE("cold"))
		rc |= bench_one(b, dir, xsa, plain, "libadf.a, CDO members", NULL, NULL, 0, rounds,
				&cold, &cold_cp, NULL);
	/* th_package's own part of a cold run: all but bootgen */
	if (!rc && CASE("cold"))
		printf("%-28s th_package's own part of the cold run: %.3f s (cold %.3f s - bootgen "
		       "%.3f s), ratio / cp: %.1f\n",
		       "", cold.wall - cold.bootgen, cold.wall, cold.bootgen,
		       (cold.wall - cold.bootgen) / cold_cp);
	/* the same graph again with the PDI cache warm (docs/packaging.md) */
	if (CASE("cdo")) {
		rc |= bench_one(b, dir, xsa, plain, "CDO, warm, entry < 2 s old", NULL, cache,
				HIT_FRESH, rounds, NULL, NULL, NULL);
		rc |= bench_one(b, dir, xsa, plain, "CDO members, warm PDI cache", NULL, cache,
				HIT_STAMPED, rounds, NULL, NULL, "warm hit CDO");
	}
	if (CASE("cold"))
		rc |= bench_one(b, dir, xsa, elf, "libadf.a, ELF sw.o", NULL, NULL, 0, rounds, NULL,
				NULL, NULL);
	if (CASE("elf"))
		rc |= bench_one(b, dir, xsa, elf, "ELF sw.o, warm PDI cache", NULL, cache,
				HIT_STAMPED, rounds, NULL, NULL, "warm hit ELF");
	/* the packager alone: a PDI prebuilt by the first run */
	{
		aieth__package_opts o;
		aieth__package_result r;
		aieth_xclbin *xb;
		size_t idx;
		char out[300];
		snprintf(out, sizeof out, "%s/pdi.xclbin", dir);
		aieth__package_opts_init(&o, AIETH_PACKAGE_OPTS_VERSION);
		o.board = b, o.xsa = xsa, o.graph = plain, o.output = out;
		o.timestamp = 0, o.id_code = o.ext_id_code = -1;
		if (aieth__package(&o, &r) || aieth_xclbin_open(&xb, out, 0) ||
		    aieth_xclbin_section_find(xb, AIETH_XCLBIN_KIND_PDI, &idx) ||
		    aieth_xclbin_section_dump(xb, idx, pdi)) {
			fprintf(stderr, "bench_package: %s\n", aieth_error_message());
			rc = 1;
			goto out;
		}
		aieth_xclbin_close(xb);
		unlink(out);
	}
	if (CASE("pdi"))
		rc |= bench_one(b, dir, xsa, plain, "prebuilt --pdi (no bootgen)", pdi, NULL, 0,
				rounds, NULL, NULL, "prebuilt --pdi");
	if (!rc && !only)
		rc = bench_counts(dir, pdi);
	/* each figure with its goal, one line each */
	if (!rc && num_goals) {
		printf("goals (the package in a forked child against cp of the archive, medians of "
		       "%d pairs in this run):\n",
		       rounds);
		for (i = 0; i < num_goals; i++)
			printf("%s %.2f x cp (goal 1.2)\n", goals[i].label, goals[i].ratio);
	}
out:
	unlink(xsa);
	unlink(plain);
	unlink(elf);
	unlink(pdi);
	{
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
		if (system(cmd) != 0)
			fprintf(stderr, "bench_package: could not remove %s\n", cache);
	}
	rmdir(dir);
	aieth_board_free(b);
	return rc;
}
