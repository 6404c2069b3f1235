/* SPDX-License-Identifier: MIT */
/* cli_common.c - output checks, the output folder's lock, the stop signals,
 * the option tables (getopt_long's and --help's from one table). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"

int cli_ensure_dir(const char *dir, char *err, unsigned errlen)
{
	char path[4096], probe[4200];
	size_t i, n = strlen(dir);
	int fd;
	if (n == 0 || n >= sizeof path) {
		snprintf(err, errlen, "output directory \"%s\": bad path", dir);
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] == '/' || path[i] == '\0') {
			char c = path[i];
			path[i] = '\0';
			if (mkdir(path, 0777) != 0 && errno != EEXIST) {
				snprintf(err, errlen, "output directory %s: cannot create %s: %s",
					 dir, path, strerror(errno));
				return -1;
			}
			path[i] = c;
		}
	}
	if (snprintf(probe, sizeof probe, "%s/.run_test_probe.%ld", dir, (long)getpid()) >=
	    (int)sizeof probe) {
		snprintf(err, errlen, "output directory %.200s...: path too long", dir);
		return -1;
	}
	/* O_EXCL: never through a link planted at the probe's name */
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "output directory %s is not writable: %s", dir,
			 strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* Can a file be created and written in the folder of path? */
static int check_folder(const char *what, const char *path, char *err, unsigned errlen)
{
	struct stat st;
	char dir[4200], probe[4300];
	const char *slash = strrchr(path, '/');
	int fd, e;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else if ((size_t)(slash - path) >= sizeof dir) {
		snprintf(err, errlen, "%s %.200s...: path too long", what, path);
		return -1;
	} else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) != 0) {
		snprintf(err, errlen, "%s %s: the folder %s: %s", what, path, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: %s is not a folder", what, path, dir);
		return -1;
	}
	snprintf(probe, sizeof probe, "%s/.run_test_probe.%ld", dir, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s %s: cannot create a file in %s: %s", what, path, dir,
			 strerror(errno));
		return -1;
	}
	e = write(fd, "", 1) == 1 ? 0 : errno ? errno : EIO;
	if (close(fd) != 0 && !e)
		e = errno;
	unlink(probe);
	if (e) {
		snprintf(err, errlen, "%s %s: cannot write in %s: %s", what, path, dir,
			 strerror(e));
		return -1;
	}
	return 0;
}

/* The paths util/fileio.c writes through as the process's own open files. */
static int own_descriptor(const char *path)
{
	static const char *const pre[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"};
	size_t i, n;
	if (!strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr"))
		return 1;
	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		n = strlen(pre[i]);
		if (!strncmp(path, pre[i], n) && path[n] &&
		    strspn(path + n, "0123456789") == strlen(path + n))
			return 1;
	}
	return 0;
}

/* The checks before a run, by the rule util/fileio.h states for the write:
 * what is at the name itself decides; a link there is replaced (its own
 * folder is checked) unless it is yours or root's and leads to a device, a
 * FIFO or a socket, or to a directory (refused). */
int cli_check_output(const char *what, const char *path, char *err, unsigned errlen)
{
	struct stat st, lst;
	int followed;
	if (!*path) {
		snprintf(err, errlen, "%s: empty file name", what);
		return -1;
	}
	if (lstat(path, &lst) != 0)
		return check_folder(what, path, err, errlen);
	followed = own_descriptor(path) ||
		   (S_ISLNK(lst.st_mode) && (lst.st_uid == 0 || lst.st_uid == geteuid()));
	if (S_ISLNK(lst.st_mode) && (!followed || stat(path, &st) != 0 || S_ISREG(st.st_mode)))
		return check_folder(what, path, err, errlen); /* replaced */
	if (!S_ISLNK(lst.st_mode))
		st = lst;
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: is a directory (name a file)", what, path);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || own_descriptor(path)) { /* written in place */
		if (access(path, W_OK) != 0) {
			snprintf(err, errlen, "%s %s: cannot be written: %s", what, path,
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	return check_folder(what, path, err, errlen);
}

int cli_lock_dir(const char *dir, int wait, char *err, unsigned errlen)
{
	char path[4300], buf[32];
	int fd;
	ssize_t n;
	snprintf(path, sizeof path, "%s/.run_test.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "output directory %s: cannot open the lock %s: %s", dir, path,
			 strerror(errno));
		return -1;
	}
	/* the lock is truncated and written below: never a FIFO or device, nor
	 * another name of someone's file (a hard link planted at its name) */
	{
		struct stat st;
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
			snprintf(err, errlen,
				 "output directory %s: the lock %s is not a plain file of "
				 "its own (a link or special file there?): remove it",
				 dir, path);
			close(fd);
			return -1;
		}
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK) {
			snprintf(err, errlen, "output directory %s: cannot lock %s: %s", dir, path,
				 strerror(errno));
			close(fd);
			return -1;
		}
		if (!wait) {
			n = pread(fd, buf, sizeof buf - 1, 0);
			buf[n > 0 ? n : 0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(err, errlen,
				 "output directory %s is in use by another run (PID %s, lock %s): "
				 "give another --out, or --wait-lock to wait for it",
				 dir, buf[0] ? buf : "unknown", path);
			close(fd);
			return -1;
		}
		if (flock(fd, LOCK_EX) != 0) {
			int e = errno;
			snprintf(err, errlen, "output directory %s: waiting for the lock %s: %s",
				 dir, path, strerror(e));
			close(fd);
			errno = e;
			return -1;
		}
	}
	n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
		snprintf(err, errlen, "output directory %s: cannot write the lock %s: %s", dir,
			 path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

volatile sig_atomic_t cli_signal, cli_cancel_armed, cli_cancel;
static struct timespec first_signal;

static void on_stop_signal(int sig)
{
	struct timespec now;
	struct sigaction sa;
	int e = errno;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!cli_signal) {
		first_signal = now;
		cli_signal = sig;
		if (cli_cancel_armed)
			cli_cancel = sig;
	} else if (now.tv_sec - first_signal.tv_sec > 1 ||
		   (now.tv_sec - first_signal.tv_sec == 1 && now.tv_nsec >= first_signal.tv_nsec)) {
		if (cli_cancel_armed && !cli_cancel) {
			cli_cancel = sig;
			first_signal = now; /* its twin to the process group is not a third */
			errno = e;
			return;
		}
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigemptyset(&sa.sa_mask);
		sigaction(sig, &sa, NULL);
		raise(sig); /* delivered when this handler returns */
	}
	errno = e;
}

void cli_catch_signals(int with_hup)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	size_t i, n = with_hup ? 3 : 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: blocking waits return */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* getopt_long's value of opts[i]: its row, past every letter's value. */
#define ROW_VAL(i) (256 + (int)(i))

int cli_parser_init(cli_parser *p, const cli_opt *opts, size_t n, const char *prefix)
{
	size_t i, k;
	if (n > CLI_OPTS_MAX || strlen(prefix) > 2)
		return -1;
	memset(p, 0, sizeof *p);
	p->opts = opts;
	p->n = n;
	k = (size_t)snprintf(p->shortopts, sizeof p->shortopts, "%s", prefix);
	for (i = 0; i < n; i++) {
		p->longopts[i].name = opts[i].name;
		p->longopts[i].has_arg = opts[i].arg ? required_argument : no_argument;
		p->longopts[i].val = ROW_VAL(i);
		if (opts[i].letter) {
			p->shortopts[k++] = opts[i].letter;
			if (opts[i].arg)
				p->shortopts[k++] = ':';
		}
	}
	p->shortopts[k] = '\0';
	return 0;
}

int cli_getopt(const cli_parser *p, int argc, char **argv)
{
	size_t i;
	int c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
	if (c == -1)
		return -1;
	if (c >= ROW_VAL(0) && c < ROW_VAL(p->n))
		return p->opts[c - ROW_VAL(0)].id;
	if (c == ':')
		return CLI_OPT_NOARG;
	for (i = 0; c != '?' && i < p->n; i++)
		if (p->opts[i].letter == c)
			return p->opts[i].id;
	return CLI_OPT_UNKNOWN;
}

/* One option's text from column col, words wrapped at 79 columns; at is
 * the column the text starts at (its first word goes there whatever its
 * length). */
static void help_text(FILE *f, const char *text, int col, int at)
{
	int first = 1;
	while (*text) {
		size_t w = strcspn(text, " \n");
		if (*text == '\n') {
			fprintf(f, "\n%*s", col, "");
			at = col;
			first = 1;
			text++;
			continue;
		}
		if (*text == ' ') {
			text++;
			continue;
		}
		if (!first && at + 1 + (int)w > 79) {
			fprintf(f, "\n%*s", col, "");
			at = col;
			first = 1;
		}
		fprintf(f, "%s%.*s", first ? "" : " ", (int)w, text);
		at += (first ? 0 : 1) + (int)w;
		first = 0;
		text += w;
	}
	fputc('\n', f);
}

void cli_help_print(FILE *f, const cli_opt *opts, size_t n, int col, int align_long,
		    const char *(*help_of)(int id))
{
	const char *group = NULL, *text;
	size_t i;
	int len;
	for (i = 0; i < n; i++) {
		const cli_opt *o = &opts[i];
		text = o->help ? o->help : help_of ? help_of(o->id) : NULL;
		if (!text)
			continue; /* not listed (the usage lines name it) */
		if (o->group && (!group || strcmp(o->group, group))) {
			group = o->group;
			fprintf(f, "\n%s\n", group);
		}
		if (o->letter)
			len = fprintf(f, "  -%c, --%s", o->letter, o->name);
		else
			len = fprintf(f, "  %s--%s", align_long ? "    " : "", o->name);
		if (o->arg)
			len += fprintf(f, " %s", o->arg);
		len += fprintf(f, "%*s", len < col ? col - len : 2, "");
		help_text(f, text, col, len);
	}
}
