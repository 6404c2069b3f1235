/* SPDX-License-Identifier: MIT */
/*
 * bench.c - `make bench`: figures printed, nothing asserted.
 *
 *  memcpy   this machine's memcpy bandwidth (best of several 256 MiB copies)
 *  (a)      VCK190 PERF, 36 TX + 36 RX loopback channels, 64 KiB each,
 *           replay 1000: emulator wall time, simulated bytes per wall second,
 *           simulated board time / wall time (goal >= 20), for the first
 *           transaction of a session (the median over 5 fresh sessions)
 *           and the median of 5 more in the last one; and counts
 *           that do not depend on the host's speed: page faults (getrusage)
 *           and system calls (strace, when installed) of the first
 *           transaction, per MiB simulated
 *  (b)      FUNC, 1 GiB through one loopback channel pair: wall time, data
 *           rate, against memcpy of the same bytes (goal >= 0.9), the
 *           median of 5 pairs in turn
 *  (c)      run_test, FUNC loopback, 4 GiB per channel from a binary data
 *           file with a golden file: peak RSS (goal < 64 MiB) and data rate
 *           (file bytes per second) against `cat` of the same files to
 *           /dev/null (goal >= 0.8), the median of 5 pairs in turn
 *  Last, each figure with its goal, one line each.
 *  (d)      run_test, VCK190 PERF 36+36 x 64 MiB (random patterns): peak RSS
 *
 * Options: --quick (smaller sizes, for a smoke run), --only a|b|c|d|memcpy,
 * --reps N (replays of (a), default 1000).
 * --mark (internal: the strace count of (a) runs bench --only a --mark,
 * which brackets the first transaction with two failing access() calls).
 * (c) and (d) run build/bin/run_test (or $AIETH_RUN_TEST) with their files in
 * a temporary folder under $TMPDIR (default /tmp), removed afterwards.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "bench_median.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, aieth_error_message());
	return 1;
}

static double bench_memcpy(size_t bytes)
{
	char *a = malloc(bytes), *b = malloc(bytes);
	double best = 0;
	int i;
	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, bytes);
	memset(b, 2, bytes); /* fault the pages in before timing */
	for (i = 0; i < 5; i++) {
		double t0 = now(), dt;
		memcpy(b, a, bytes);
		dt = now() - t0;
		if ((double)bytes / dt > best)
			best = (double)bytes / dt;
		a[i] = b[bytes - 1 - (size_t)i]; /* keep the copies observable */
	}
	free(a);
	free(b);
	return best;
}

static aieth_session *open_loopback(const char *board)
{
	aieth_graph_spec g = {"gr", "loopback", NULL};
	aieth_session_opts o;
	aieth_session *s = NULL;
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.board = board;
	o.graphs = &g;
	o.num_graphs = 1;
	if (aieth_session_open(&s, &o) || aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER)) {
		die("open");
		aieth_session_close(s);
		return NULL;
	}
	return s;
}

static long page_faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

#define MARK_BEGIN "/aieth-bench-mark/begin"
#define MARK_END "/aieth-bench-mark/end"
static int mark; /* --mark: bracket the first transaction of (a) for strace */

/* System calls of (a)'s first transaction: this program again under
 * `strace -f`, counting the calls between the two marks. -1 when strace
 * is missing or fails (ptrace refused, as in some containers). */
static long count_syscalls_a(uint64_t reps)
{
	char self[4096], log[4200], r[32], line[4096];
	const char *tmp = getenv("TMPDIR");
	char *argv[] = {"strace", "-f", "-qq",    "-o",     log, self,
			"--only", "a",  "--mark", "--reps", r,   NULL};
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	long count = -1;
	int in = 0, fd, st;
	pid_t pid;
	FILE *f;
	if (n <= 0 || system("command -v strace >/dev/null 2>&1") != 0)
		return -1;
	self[n] = '\0';
	snprintf(r, sizeof r, "%llu", (unsigned long long)reps);
	snprintf(log, sizeof log, "%s/aieth-bench-strace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(log);
	if (fd < 0)
		return -1;
	close(fd);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);
		if (nul >= 0) {
			dup2(nul, 1);
			dup2(nul, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		unlink(log);
		return -1;
	}
	f = fopen(log, "r");
	while (f && fgets(line, sizeof line, f)) {
		if (strstr(line, MARK_BEGIN)) {
			in = 1;
			count = 0;
		} else if (strstr(line, MARK_END)) {
			break;
		} else if (in && !strstr(line, "<... ") && !strstr(line, "--- ") &&
			   !strstr(line, "+++ ")) {
			count++; /* a resumed call was counted where it started */
		}
	}
	if (f)
		fclose(f);
	unlink(log);
	return count;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

#define A_SESSIONS 5 /* fresh sessions whose first transaction is timed */

static int bench_a(uint64_t reps)
{
	aieth_session *s = NULL;
	aieth_channel_args a[72];
	char names[72][32];
	static uint8_t buf[72][65536];
	aieth_txn *t;
	double t0, wall, board, bytes, more[5], firsts[A_SESSIONS], mib;
	uint64_t cycles = 0;
	long faults = 0, f0;
	int i, k;

	for (i = 0; i < 72; i++) {
		snprintf(names[i], sizeof names[i], "PLIO_%02d_%s_AIE", i % 36 + 1,
			 i < 36 ? "TO" : "FROM");
		a[i].plio = names[i];
		a[i].size = sizeof buf[i];
		a[i].repetition = reps;
		a[i].delay = 0;
		a[i].data = buf[i];
		memset(buf[i], i, sizeof buf[i]);
	}
	/* the first transaction of a session pays for the session's first
	 * allocations; a sub-millisecond run is at the mercy of a busy
	 * machine: the first transactions of A_SESSIONS fresh sessions, their
	 * median the figure (page faults: the first session's) */
	for (k = 0; k < (mark ? 1 : A_SESSIONS); k++) {
		if (s)
			aieth_session_close(s);
		if (!(s = open_loopback("vck190")))
			return 1;
		f0 = page_faults();
		if (mark && access(MARK_BEGIN, F_OK) == 0)
			return 1;
		t0 = now();
		if (aieth_txn_submit(s, AIETH_MODE_PERF, a, 72, &t) || aieth_txn_wait(t, 0))
			return die("(a) transaction");
		firsts[k] = now() - t0;
		if (mark && access(MARK_END, F_OK) == 0)
			return 1;
		if (!k)
			faults = page_faults() - f0;
		if (aieth_txn_get_status(t) != AIETH_TXN_DONE) {
			fprintf(stderr, "bench: (a) %s: %s\n",
				aieth_txn_status_name(aieth_txn_get_status(t)),
				aieth_txn_message(t));
			return 1;
		}
		if (k && aieth_txn_total_cycles(t) != cycles)
			return fprintf(stderr,
				       "bench: (a) a fresh session's transaction differs\n"),
			       1;
		cycles = aieth_txn_total_cycles(t);
		aieth_txn_free(t);
	}
	if (mark) {
		aieth_session_close(s);
		return 0;
	}
	qsort(firsts, A_SESSIONS, sizeof *firsts, cmp_double);
	wall = firsts[A_SESSIONS / 2];
	/* the same transaction again in the same session: the first pays for
	 * the session's first allocations, and one sub-millisecond run is at
	 * the mercy of a busy machine */
	for (i = 0; i < 5; i++) {
		double t1 = now();
		if (aieth_txn_submit(s, AIETH_MODE_PERF, a, 72, &t) || aieth_txn_wait(t, 0))
			return die("(a) transaction");
		more[i] = now() - t1;
		if (aieth_txn_get_status(t) != AIETH_TXN_DONE ||
		    aieth_txn_total_cycles(t) != cycles)
			return fprintf(stderr, "bench: (a) a repeated transaction differs\n"), 1;
		aieth_txn_free(t);
	}
	qsort(more, 5, sizeof *more, cmp_double);
	board = (double)cycles / 312.5e6;
	bytes = 72.0 * 65536.0 * (double)reps;
	mib = bytes / 1048576.0;
	printf("(a) VCK190 PERF 36+36 loopback, 64 KiB x %llu replays: %.0f MB moved\n",
	       (unsigned long long)reps, bytes / 1e6);
	printf("    board time %.3f ms (%llu cycles); emulator wall time of a session's first "
	       "transaction, %d fresh sessions: min %.3f / median %.3f / max %.3f ms\n",
	       board * 1e3, (unsigned long long)cycles, A_SESSIONS, firsts[0] * 1e3, wall * 1e3,
	       firsts[A_SESSIONS - 1] * 1e3);
	printf("    simulated bytes per wall second: %.1f GB/s (at the median)\n",
	       bytes / wall / 1e9);
	printf("    ratio board time / wall time: %.1f at the median (goal >= 20; %.1f at the "
	       "slowest, %.1f at the fastest)\n",
	       board / wall, board / firsts[A_SESSIONS - 1], board / firsts[0]);
	printf("    5 more in the same session: wall time min %.3f / median %.3f / max %.3f ms, "
	       "ratio at the median %.1f\n",
	       more[0] * 1e3, more[2] * 1e3, more[4] * 1e3, board / more[2]);
	{
		long sc = count_syscalls_a(reps);
		char scs[96] = "system calls not counted (strace missing or refused)";
		if (sc >= 0)
			snprintf(scs, sizeof scs,
				 "system calls %ld (%.4f per MiB simulated, strace)", sc,
				 (double)sc / mib);
		printf("    first transaction, host-independent: page faults %ld (%.4f per MiB "
		       "simulated); %s\n",
		       faults, (double)faults / mib, scs);
	}
	aieth_session_close(s);
	return 0;
}

#define PAIRS 5

/* The goal lines, printed last (one a figure). */
static char goal_lines[8][160];
static int num_goal_lines;

static void goal_line(const char *fmt, double v, double goal)
{
	if (num_goal_lines < 8)
		snprintf(goal_lines[num_goal_lines++], sizeof goal_lines[0], fmt, v, goal);
}

/* FUNC through one loopback pair against memcpy of the same bytes (tx to
 * a buffer of its own), PAIRS pairs in turn: each pair's ratio, the
 * median printed (pairing keeps a ratio meaningful while a shared
 * machine's speed drifts). */
static int bench_b(uint64_t bytes, double memcpy_bps)
{
	aieth_session *s = open_loopback("vck190");
	uint8_t *tx = malloc(bytes), *rx = malloc(bytes), *cp = malloc(bytes);
	aieth_channel_args a[2];
	aieth_txn *t = NULL;
	double walls[PAIRS], cps[PAIRS], ratios[PAIRS], wall, rate, cpw, ratio;
	uint64_t i;
	int bad = 0;

	if (!s || !tx || !rx || !cp) {
		fprintf(stderr, "bench: (b) out of memory\n");
		return 1;
	}
	for (i = 0; i < bytes; i += 4096)
		tx[i] = (uint8_t)(i >> 12);
	/* fault the pages in outside the timing (non-zero: malloc+memset(0)
	 * may become calloc, which touches nothing) */
	memset(rx, 0xA5, bytes);
	memset(cp, 0x5A, bytes);
	a[0] = (aieth_channel_args){"PLIO_01_TO_AIE", bytes, 1, 0, tx};
	a[1] = (aieth_channel_args){"PLIO_01_FROM_AIE", bytes, 1, 0, rx};
	for (int rep = 0; rep < PAIRS; rep++) {
		double t0 = now();
		memcpy(cp, tx, bytes);
		cps[rep] = now() - t0;
		cp[rep] ^= rx[rep]; /* keep the copy observable */
		t0 = now();
		if (aieth_txn_submit(s, AIETH_MODE_FUNC, a, 2, &t) || aieth_txn_wait(t, 0))
			return die("(b) transaction");
		walls[rep] = now() - t0;
		ratios[rep] = cps[rep] / walls[rep];
		bad |= aieth_txn_get_status(t) != AIETH_TXN_DONE || memcmp(tx, rx, bytes) != 0;
		if (rep < PAIRS - 1) {
			aieth_txn_free(t);
			memset(rx, 0xA5, 4096); /* the first page of each run's checked afresh */
		}
	}
	wall = bench_median(walls, PAIRS), cpw = bench_median(cps, PAIRS),
	ratio = bench_median(ratios, PAIRS);
	rate = (double)bytes / wall;
	printf("(b) FUNC %.0f MiB through one loopback pair: wall time %.3f s (median of %d), "
	       "board time %.3f s\n",
	       (double)bytes / 1048576.0, wall, PAIRS, (double)aieth_txn_total_cycles(t) / 312.5e6);
	printf("    data rate %.2f GB/s; ratio data rate / memcpy: %.2f (goal >= 0.9; memcpy of "
	       "the same bytes %.3f s, median of %d pairs, min %.2f, max %.2f; memcpy bandwidth "
	       "%.2f GB/s)%s\n",
	       rate / 1e9, ratio, cpw, PAIRS, ratios[0], ratios[PAIRS - 1], memcpy_bps / 1e9,
	       bad ? "  [DATA MISMATCH]" : "");
	goal_line("FUNC engine %.2f x memcpy (goal %.1f)", ratio, 0.9);
	aieth_txn_free(t);
	aieth_session_close(s);
	free(tx);
	free(rx);
	free(cp);
	return bad;
}

/* ------------------------------------------------ run_test as a process */

static char run_test_path[4096];

/* Run argv; wall time and the child's peak RSS (KiB, from wait4). */
static int run_child(char *const argv[], const char *out, double *wall, long *maxrss_kib)
{
	struct rusage ru;
	double t0 = now();
	int st = 0;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			close(fd);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	*wall = now() - t0;
	*maxrss_kib = ru.ru_maxrss;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A file of bytes bytes of pseudo-random data (the same for a given seed). */
static int make_file(const char *path, uint64_t bytes, uint64_t seed)
{
	size_t cap = 1u << 20, i;
	uint64_t *buf = malloc(cap), x = seed | 1, done = 0;
	FILE *f = fopen(path, "wb");
	int rc = 0;
	if (!buf || !f) {
		free(buf);
		if (f)
			fclose(f);
		return -1;
	}
	while (done < bytes && !rc) {
		size_t n = bytes - done < cap ? (size_t)(bytes - done) : cap;
		for (i = 0; i < cap / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		rc = fwrite(buf, 1, n, f) != n;
		done += n;
	}
	free(buf);
	if (fclose(f))
		rc = 1;
	return rc ? -1 : 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc;
	if (!f)
		return -1;
	rc = fputs(text, f) < 0;
	return fclose(f) || rc ? -1 : 0;
}

static int bench_c(uint64_t bytes, const char *dir)
{
	char d[4200], g[4200], spec[4200], out[4200], text[2048];
	char *cat[] = {"cat", d, g, NULL};
	char *rt[] = {run_test_path, "-q", "-o", out, spec, NULL};
	double wall_cat, wall_rt, w, cats[PAIRS], rts[PAIRS], ratios[PAIRS], ratio;
	long rss_cat = 0, rss = 0, r = 0;
	int rc, k;

	snprintf(d, sizeof d, "%s/data.bin", dir);
	snprintf(g, sizeof g, "%s/golden.bin", dir);
	snprintf(spec, sizeof spec, "%s/func.json", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(
		text, sizeof text,
		"{\"schema\": \"aieth-test/1\", \"name\": \"bench_func\", \"board\": \"vck190\",\n"
		" \"graphs\": [{\"name\": \"gr\", \"model\": \"loopback\"}],\n"
		" \"transactions\": [{\"name\": \"t\", \"mode\": \"func\", \"timeout_ms\": 0,\n"
		"  \"channels\": [{\"plio\": \"PLIO_01_TO_AIE\", \"data\": {\"file\": \"data.bin\"}},\n"
		"   {\"plio\": \"PLIO_01_FROM_AIE\", \"golden\": {\"file\": \"golden.bin\"}}]}]}\n");
	if (make_file(d, bytes, 7) || make_file(g, bytes, 7) || write_text(spec, text)) {
		fprintf(stderr, "bench: (c) cannot write the files in %s\n", dir);
		return 1;
	}
	/* PAIRS pairs, cat then run_test: each pair's ratio (the files stay in
	 * the page cache), the median printed */
	for (k = 0; k < PAIRS; k++) {
		if (run_child(cat, NULL, &w, &rss_cat) != 0)
			return fprintf(stderr, "bench: (c) cat failed\n"), 1;
		cats[k] = w;
		rc = run_child(rt, NULL, &w, &r);
		if (rc != 0) {
			fprintf(stderr, "bench: (c) %s exited %d (report in %s)\n", run_test_path,
				rc, out);
			return 1;
		}
		rts[k] = w;
		ratios[k] = cats[k] / rts[k];
		if (r > rss)
			rss = r;
	}
	wall_cat = bench_median(cats, PAIRS), wall_rt = bench_median(rts, PAIRS);
	ratio = bench_median(ratios, PAIRS);
	printf("(c) run_test FUNC loopback, %.0f MiB per channel from a data file, checked "
	       "against a golden file\n",
	       (double)bytes / 1048576.0);
	printf("    peak RSS %.1f MiB (goal < 64 MiB; the largest of %d runs); wall time %.3f s "
	       "(median of %d)\n",
	       (double)rss / 1024.0, PAIRS, wall_rt, PAIRS);
	printf("    data rate %.2f GB/s, cat of the same files %.2f GB/s: ratio %.2f (goal >= "
	       "0.8; median of %d pairs, min %.2f, max %.2f)\n",
	       2.0 * (double)bytes / wall_rt / 1e9, 2.0 * (double)bytes / wall_cat / 1e9, ratio,
	       PAIRS, ratios[0], ratios[PAIRS - 1]);
	goal_line("run_test FUNC from files %.2f x cat (goal %.1f)", ratio, 0.8);
	goal_line("run_test FUNC peak RSS %.1f MiB (goal < %.0f MiB)", (double)rss / 1024.0, 64);
	return 0;
}

static int bench_d(uint64_t bytes, const char *dir)
{
	char spec[4200], out[4200], *text, *p;
	char *rt[] = {run_test_path, "-q", "-o", out, spec, NULL};
	size_t cap = 72 * 200 + 1024;
	double wall = 0;
	long rss = 0;
	int i, rc;

	snprintf(spec, sizeof spec, "%s/perf.json", dir);
	snprintf(out, sizeof out, "%s/out_perf", dir);
	text = malloc(cap);
	if (!text)
		return 1;
	p = text + sprintf(text,
			   "{\"schema\": \"aieth-test/1\", \"name\": \"bench_perf\", "
			   "\"board\": \"vck190\",\n \"graphs\": [{\"name\": \"gr\", "
			   "\"model\": \"loopback\"}],\n \"transactions\": [{\"name\": \"t\", "
			   "\"mode\": \"perf\", \"timeout_ms\": 0, \"channels\": [\n");
	for (i = 0; i < 72; i++)
		p += sprintf(p, "  {\"plio\": \"PLIO_%02d_%s_AIE\", \"size\": %llu%s}%s\n",
			     i % 36 + 1, i < 36 ? "TO" : "FROM", (unsigned long long)bytes,
			     i < 36 ? ", \"data\": {\"pattern\": \"random\", \"seed\": 1}" : "",
			     i < 71 ? "," : "]}]}");
	rc = write_text(spec, text);
	free(text);
	if (rc)
		return 1;
	rc = run_child(rt, NULL, &wall, &rss);
	if (rc != 0) {
		fprintf(stderr, "bench: (d) %s exited %d (report in %s)\n", run_test_path, rc, out);
		return 1;
	}
	printf("(d) run_test VCK190 PERF 36+36 x %.0f MiB: peak RSS %.1f MiB, wall time %.3f s\n",
	       (double)bytes / 1048576.0, (double)rss / 1024.0, wall);
	return 0;
}

/* (c) and (d) in a temporary folder, removed afterwards. */
static int bench_cd(const char *argv0, int quick, const char *only)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], cmd[4200];
	int rc = 0;
	if (getenv("AIETH_RUN_TEST")) {
		snprintf(run_test_path, sizeof run_test_path, "%s", getenv("AIETH_RUN_TEST"));
	} else {
		const char *sl = strrchr(argv0, '/');
		snprintf(run_test_path, sizeof run_test_path, "%.*s/../bin/run_test",
			 sl ? (int)(sl - argv0) : 1, sl ? argv0 : ".");
	}
	snprintf(dir, sizeof dir, "%s/aieth-bench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("bench: mkdtemp");
		return 1;
	}
	if (!only || !strcmp(only, "c"))
		rc |= bench_c(quick ? (64ull << 20) : (4ull << 30), dir);
	if (!only || !strcmp(only, "d"))
		rc |= bench_d(quick ? (1ull << 20) : (64ull << 20), dir);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: could not remove %s\n", dir);
	return rc;
}

int main(int argc, char **argv)
{
	int quick = 0, rc = 0, i;
	const char *only = NULL;
	uint64_t reps_a = 0;
	double mc = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--mark"))
			mark = 1;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps_a = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr,
				"usage: bench [--quick] [--only memcpy|a|b|c|d] [--reps N]\n");
			return 2;
		}
	}
	if (mark) /* the strace count's run: (a)'s first transaction only */
		return bench_a(reps_a ? reps_a : 1000);
	printf("aieth %s benchmark%s\n", aieth_version(), quick ? " (quick)" : "");
	if (!only || !strcmp(only, "memcpy") || !strcmp(only, "b")) {
		mc = bench_memcpy(quick ? (16u << 20) : (256u << 20));
		printf("memcpy bandwidth: %.2f GB/s (best of 5 x %u MiB)\n", mc / 1e9,
		       quick ? 16u : 256u);
	}
	if (!only || !strcmp(only, "a"))
		rc |= bench_a(reps_a ? reps_a : quick ? 10 : 1000);
	if (!only || !strcmp(only, "b"))
		rc |= bench_b(quick ? (64ull << 20) : (1ull << 30), mc);
	if (!only || !strcmp(only, "c") || !strcmp(only, "d"))
		rc |= bench_cd(argv[0], quick, only);
	/* each figure with its goal, one line each */
	if (num_goal_lines)
		printf("goals (medians of %d pairs in this run):\n", PAIRS);
	for (i = 0; i < num_goal_lines; i++)
		printf("%s\n", goal_lines[i]);
	return rc;
}
