/* SPDX-License-Identifier: MIT */
/*
 * test_fileio.c - the output and input rules of util/fileio: outputs never
 * replace what is not a regular file (devices and FIFOs written in place, a
 * symbolic link at the name replaced, never followed, unless it is the
 * user's own link to a device or FIFO; a directory refused), inputs never block
 * (a FIFO, a device, a directory refused before anything is read).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"

#define MSG_HAS(s)                                                                        \
	do {                                                                              \
		const char *m_ = aieth_error_message();                                   \
		if (!strstr(m_, (s)))                                                     \
			fprintf(stderr, "\n  message \"%s\"\n  lacks \"%s\"\n", m_, (s)); \
		CU_ASSERT_PTR_NOT_NULL(strstr(m_, (s)));                                  \
	} while (0)

static char dir[64];

static const char *at(const char *name)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static void fresh_dir(void)
{
	char cmd[128];
	if (dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	snprintf(dir, sizeof dir, "/tmp/aieth-fileio-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

/* Entries of the directory whose name contains ".tmp." (left temporaries). */
static int temporaries(void)
{
	char cmd[160];
	FILE *p;
	int n = 0, c;
	snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '\\.tmp\\.'", dir);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fscanf(p, "%d", &n) != 1)
		n = -1;
	while ((c = fgetc(p)) != EOF)
		;
	pclose(p);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;
	if (!f)
		return "(no such file)";
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static mode_t kind_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

/* A device node like /dev/null stays a device: written in place. */
static void test_device_written_in_place(void)
{
	const char *dev;
	aieth_out o;
	fresh_dir();
	if (geteuid() != 0) {
		fprintf(stderr, "\n  skipped: mknod needs root\n");
		return;
	}
	dev = at("null");
	CU_ASSERT_EQUAL_FATAL(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(dev, "report", 6), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(dev), S_IFCHR);
	/* the streamed writer follows the same rule */
	CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, dev), AIETH_OK);
	CU_ASSERT_PTR_NULL(o.tmp);
	CU_ASSERT_EQUAL(aieth__write_full(o.fd, "xclbin", 6, dev), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__out_commit(&o), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(dev), S_IFCHR);
	/* abort never removes the device */
	CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, dev), AIETH_OK);
	aieth__out_abort(&o);
	CU_ASSERT_EQUAL(kind_of(dev), S_IFCHR);
	CU_ASSERT_EQUAL(temporaries(), 0);
	/* through a symbolic link: the device is still written in place */
	CU_ASSERT_EQUAL_FATAL(symlink(dev, at("to-null")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("to-null"), "x", 1), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("to-null")), S_IFLNK);
	CU_ASSERT_EQUAL(kind_of(dev), S_IFCHR);
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* A FIFO: written in place when something reads it, an error at once (not
 * a wait) when nothing does; never replaced by a file. */
static void test_fifo(void)
{
	const char *fifo;
	char got[16] = "";
	int r;
	fresh_dir();
	fifo = at("fifo");
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0666), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(fifo, "abc", 3), AIETH_EIO);
	MSG_HAS("fifo: is a FIFO that nothing reads from");
	CU_ASSERT_EQUAL(kind_of(fifo), S_IFIFO);
	r = open(fifo, O_RDONLY | O_NONBLOCK);
	CU_ASSERT_FATAL(r >= 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(fifo, "abc", 3), AIETH_OK);
	CU_ASSERT_EQUAL(read(r, got, sizeof got - 1), 3);
	CU_ASSERT_STRING_EQUAL(got, "abc");
	close(r);
	CU_ASSERT_EQUAL(kind_of(fifo), S_IFIFO);
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* /dev/fd/N and /proc/self/fd/N (what /dev/stdout is) name an open file:
 * written through it, never renamed over what it leads to. */
static void test_open_descriptor(void)
{
	char path[64], got[16] = "";
	int p[2], fd;
	struct stat before, after;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	snprintf(path, sizeof path, "/dev/fd/%d", p[1]);
	CU_ASSERT_EQUAL(aieth__write_atomic(path, "piped", 5), AIETH_OK);
	close(p[1]);
	CU_ASSERT_EQUAL(read(p[0], got, sizeof got - 1), 5);
	CU_ASSERT_STRING_EQUAL(got, "piped");
	close(p[0]);
	/* a regular file behind the descriptor: appended to, same inode */
	fd = open(at("log"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "A", 1), 1);
	CU_ASSERT_EQUAL(fstat(fd, &before), 0);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	CU_ASSERT_EQUAL(aieth__write_atomic(path, "B", 1), AIETH_OK);
	close(fd);
	CU_ASSERT_EQUAL(stat(at("log"), &after), 0);
	CU_ASSERT_EQUAL(before.st_ino, after.st_ino);
	CU_ASSERT_STRING_EQUAL(slurp(at("log")), "AB");
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* A symbolic link at the name is replaced by the new file, never followed:
 * its target (a victim file, a chain, a dangling or looping link) is left
 * as it was. */
static void test_symlink(void)
{
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkdir(at("sub"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("sub/victim"), "old", 3), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(symlink("sub/victim", at("link1")), 0); /* relative */
	CU_ASSERT_EQUAL_FATAL(symlink(at("link1"), at("link2")), 0);  /* a chain */
	CU_ASSERT_EQUAL(aieth__write_atomic(at("link2"), "new", 3), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("link2")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("link2")), "new");
	CU_ASSERT_EQUAL(kind_of(at("link1")), S_IFLNK);
	CU_ASSERT_STRING_EQUAL(slurp(at("sub/victim")), "old");
	CU_ASSERT_EQUAL(aieth__write_atomic(at("link1"), "new1", 4), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("link1")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("sub/victim")), "old");
	/* an absolute link, through the streamed writer */
	{
		aieth_out o;
		CU_ASSERT_EQUAL_FATAL(symlink(at("sub/victim"), at("abs")), 0);
		CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, at("abs")), AIETH_OK);
		CU_ASSERT_PTR_NOT_NULL(o.tmp);
		CU_ASSERT_EQUAL(aieth__out_write(&o, "streamed", 8), AIETH_OK);
		CU_ASSERT_EQUAL(aieth__out_commit(&o), AIETH_OK);
		CU_ASSERT_EQUAL(kind_of(at("abs")), S_IFREG);
		CU_ASSERT_STRING_EQUAL(slurp(at("abs")), "streamed");
		CU_ASSERT_STRING_EQUAL(slurp(at("sub/victim")), "old");
		/* abort leaves the link as it was */
		CU_ASSERT_EQUAL_FATAL(symlink(at("sub/victim"), at("abs2")), 0);
		CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, at("abs2")), AIETH_OK);
		aieth__out_abort(&o);
		CU_ASSERT_EQUAL(kind_of(at("abs2")), S_IFLNK);
	}
	/* a dangling link: replaced, its target never created */
	CU_ASSERT_EQUAL_FATAL(symlink("sub/later.json", at("dangling")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("dangling"), "made", 4), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("dangling")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("dangling")), "made");
	CU_ASSERT_EQUAL(access(at("sub/later.json"), F_OK), -1);
	/* a loop: replaced too, not an error nor a hang */
	CU_ASSERT_EQUAL_FATAL(symlink("loop", at("loop")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("loop"), "x", 1), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("loop")), S_IFREG);
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* A link to a device or FIFO: followed only when the link is yours (or
 * root's); another user's link is replaced, the FIFO never written. A
 * link of yours to a directory is an error; another's is replaced. */
static void test_link_owner(void)
{
	char got[16] = "";
	int r;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo"), 0666), 0);
	r = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	CU_ASSERT_FATAL(r >= 0);
	CU_ASSERT_EQUAL_FATAL(symlink("fifo", at("mine")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("mine"), "abc", 3), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("mine")), S_IFLNK);
	CU_ASSERT_EQUAL(read(r, got, sizeof got - 1), 3);
	CU_ASSERT_STRING_EQUAL(got, "abc");
	CU_ASSERT_EQUAL_FATAL(symlink("/dev/null", at("null")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("null"), "abc", 3), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("null")), S_IFLNK);
	/* a link of yours to a directory: an error naming it */
	CU_ASSERT_EQUAL_FATAL(mkdir(at("d"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("d", at("to-d")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("to-d"), "x", 1), AIETH_EINVAL);
	MSG_HAS("to-d: is a symbolic link to a directory");
	CU_ASSERT_EQUAL(kind_of(at("to-d")), S_IFLNK);
	if (geteuid() != 0) {
		fprintf(stderr, "\n  skipped another user's links: lchown needs root\n");
		close(r);
		return;
	}
	/* the same links, planted by another user: replaced, never followed */
	CU_ASSERT_EQUAL_FATAL(symlink("fifo", at("theirs")), 0);
	CU_ASSERT_EQUAL_FATAL(lchown(at("theirs"), 65534, 65534), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("theirs"), "report", 6), AIETH_OK);
	/* fatal: reading a name that still leads to the FIFO would wait */
	CU_ASSERT_EQUAL_FATAL(kind_of(at("theirs")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("theirs")), "report");
	CU_ASSERT(read(r, got, sizeof got - 1) <= 0); /* nothing came */
	CU_ASSERT_EQUAL(kind_of(at("fifo")), S_IFIFO);
	CU_ASSERT_EQUAL_FATAL(symlink("d", at("their-d")), 0);
	CU_ASSERT_EQUAL_FATAL(lchown(at("their-d"), 65534, 65534), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("their-d"), "x", 1), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("their-d")), S_IFREG);
	CU_ASSERT_EQUAL(kind_of(at("d")), S_IFDIR);
	close(r);
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* The folder is opened once: an output whose folder is renamed away and
 * replaced (by a link elsewhere) while it is written lands in the folder
 * that was opened, never in the new one. */
static void test_folder_opened_once(void)
{
	aieth_out o;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkdir(at("a"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(at("elsewhere"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, at("a/f")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__out_write(&o, "kept", 4), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(rename(at("a"), at("b")), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("elsewhere", at("a")), 0);
	CU_ASSERT_EQUAL(aieth__out_commit(&o), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("b/f")), "kept");
	CU_ASSERT_EQUAL(access(at("elsewhere/f"), F_OK), -1);
}

/* Writers of many files: the folder open on a descriptor; a name with a
 * '/' refused; a folder the writer makes never reached through a link. */
static void test_openat_and_subdir(void)
{
	aieth_out o;
	int dfd, sfd = -2;
	fresh_dir();
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(dfd >= 0);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("victim"), "old", 3), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(symlink("victim", at("x.svg")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomicat(dfd, "x.svg", at("x.svg"), "<svg/>", 6), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("x.svg")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("x.svg")), "<svg/>");
	CU_ASSERT_STRING_EQUAL(slurp(at("victim")), "old");
	CU_ASSERT_EQUAL(aieth__out_openat(&o, dfd, "../x", "shown/../x"), AIETH_EINVAL);
	MSG_HAS("shown/../x: not a plain file name");
	/* made, then opened again */
	CU_ASSERT_EQUAL(aieth__subdir_open(dfd, "charts", at("charts"), &sfd), AIETH_OK);
	CU_ASSERT_FATAL(sfd >= 0);
	close(sfd);
	CU_ASSERT_EQUAL(aieth__subdir_open(dfd, "charts", at("charts"), &sfd), AIETH_OK);
	CU_ASSERT_FATAL(sfd >= 0);
	CU_ASSERT_EQUAL(aieth__write_atomicat(sfd, "a.svg", at("charts/a.svg"), "a", 1), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("charts/a.svg")), "a");
	close(sfd);
	/* a link (even to a folder) or a file at the name: refused */
	CU_ASSERT_EQUAL_FATAL(mkdir(at("elsewhere"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("elsewhere", at("artifacts")), 0);
	CU_ASSERT_EQUAL(aieth__subdir_open(dfd, "artifacts", at("artifacts"), &sfd), AIETH_EIO);
	MSG_HAS("artifacts: is a symbolic link: refusing to write through it");
	CU_ASSERT_EQUAL(sfd, -1);
	CU_ASSERT_EQUAL(aieth__subdir_open(dfd, "victim", at("victim"), &sfd), AIETH_EIO);
	MSG_HAS("victim: cannot open the folder: not a directory");
	close(dfd);
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* An output a description names below the output folder ("save"): its
 * folders there reached one at a time, made when missing, never through a
 * link; ".." refused; an absolute path and the base folder as named. */
static void test_out_below(void)
{
	char base[256], want[400];
	struct stat st;
	mode_t old;
	fresh_dir();
	snprintf(base, sizeof base, "%s", at("out"));
	CU_ASSERT_EQUAL_FATAL(mkdir(base, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(at("vdir"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("vdir/x.bin"), "victim", 6), AIETH_OK);
	/* a link planted at a folder of the path: refused, named, nothing
	 * written where it points */
	CU_ASSERT_EQUAL_FATAL(symlink("../vdir", at("out/sub")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "sub/x.bin", "new", 3), AIETH_EIO);
	snprintf(want, sizeof want, "%s/sub: is a symbolic link: refusing to write through it",
		 base);
	MSG_HAS(want);
	CU_ASSERT_STRING_EQUAL(slurp(at("vdir/x.bin")), "victim");
	CU_ASSERT_EQUAL(access(at("vdir/.x.bin.tmp"), F_OK), -1);
	/* one deeper, after a "./" and a "//" */
	CU_ASSERT_EQUAL_FATAL(mkdir(at("out/a"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("../../vdir", at("out/a/b")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "./a//b/x.bin", "new", 3), AIETH_EIO);
	MSG_HAS("out/./a//b: is a symbolic link");
	CU_ASSERT_STRING_EQUAL(slurp(at("vdir/x.bin")), "victim");
	/* a file where a folder should be */
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("out/f"), "f", 1), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "f/x.bin", "new", 3), AIETH_EIO);
	MSG_HAS("out/f: cannot open the folder: not a directory");
	/* missing folders made, 0777 less the umask */
	old = umask(027);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "n1/n2/x.bin", "made", 4), AIETH_OK);
	umask(old);
	CU_ASSERT_STRING_EQUAL(slurp(at("out/n1/n2/x.bin")), "made");
	CU_ASSERT_EQUAL_FATAL(lstat(at("out/n1"), &st), 0);
	CU_ASSERT(S_ISDIR(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0750);
	CU_ASSERT_EQUAL_FATAL(lstat(at("out/n1/n2"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0750);
	/* a link at the file's own name: replaced, as everywhere */
	CU_ASSERT_EQUAL_FATAL(symlink("../../../vdir/x.bin", at("out/n1/n2/y.bin")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "n1/n2/y.bin", "y", 1), AIETH_OK);
	CU_ASSERT_EQUAL(kind_of(at("out/n1/n2/y.bin")), S_IFREG);
	CU_ASSERT_STRING_EQUAL(slurp(at("vdir/x.bin")), "victim");
	/* ".." never leaves the base; a name ending in / is no file */
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "../esc.bin", "e", 1), AIETH_EINVAL);
	MSG_HAS("\"..\" would leave the folder");
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "n1/../../esc.bin", "e", 1), AIETH_EINVAL);
	CU_ASSERT_EQUAL(access(at("esc.bin"), F_OK), -1);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, "n1/", "e", 1), AIETH_EINVAL);
	MSG_HAS("n1/: is a directory name (it ends in /)");
	/* the base as named, links in it followed (the user's --out); an
	 * absolute path is the user's own: its folders followed too */
	CU_ASSERT_EQUAL_FATAL(symlink("out", at("outlink")), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic_below(at("outlink"), "n1/z.bin", "z", 1), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("out/n1/z.bin")), "z");
	CU_ASSERT_EQUAL(aieth__write_atomic_below(base, at("out/sub/abs.bin"), "abs", 3), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("vdir/abs.bin")), "abs");
	CU_ASSERT_EQUAL(aieth__write_atomic_below(at("missing"), "x.bin", "m", 1), AIETH_EIO);
	MSG_HAS("does the directory exist?");
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* A directory (or a name ending in /) is an error naming it; nothing is
 * created; an empty path is an error. */
static void test_directory_and_bad_names(void)
{
	aieth_out o;
	char want[128];
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkdir(at("d"), 0755), 0);
	CU_ASSERT_EQUAL(aieth__write_atomic(at("d"), "x", 1), AIETH_EINVAL);
	snprintf(want, sizeof want, "%s: is a directory", at("d"));
	MSG_HAS(want);
	CU_ASSERT_EQUAL(kind_of(at("d")), S_IFDIR);
	CU_ASSERT_EQUAL(aieth__out_open(&o, at("d/")), AIETH_EINVAL);
	MSG_HAS("is a directory");
	CU_ASSERT_EQUAL(aieth__out_open(&o, at("new/")), AIETH_EINVAL);
	MSG_HAS("new/: is a directory name (it ends in /)");
	CU_ASSERT_EQUAL(aieth__out_open(&o, ""), AIETH_EINVAL);
	MSG_HAS("empty path");
	CU_ASSERT_EQUAL(aieth__write_atomic(at("nodir/x.json"), "x", 1), AIETH_EIO);
	MSG_HAS("does the directory exist?");
	CU_ASSERT_EQUAL(temporaries(), 0);
	CU_ASSERT_EQUAL(access(at("new"), F_OK), -1);
}

/* A regular file is replaced whole or not at all (streamed writer). */
static void test_regular_replaced_whole(void)
{
	aieth_out o;
	struct stat before, after;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("f"), "old", 3), AIETH_OK);
	CU_ASSERT_EQUAL(stat(at("f"), &before), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, at("f")), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL(o.tmp);
	CU_ASSERT_EQUAL(aieth__write_full(o.fd, "half", 4, "f"), AIETH_OK);
	aieth__out_abort(&o);
	CU_ASSERT_STRING_EQUAL(slurp(at("f")), "old");
	CU_ASSERT_EQUAL_FATAL(aieth__out_open(&o, at("f")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__write_full(o.fd, "whole", 5, "f"), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("f")), "old"); /* not yet */
	CU_ASSERT_EQUAL(aieth__out_commit(&o), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(slurp(at("f")), "whole");
	CU_ASSERT_EQUAL(stat(at("f"), &after), 0);
	CU_ASSERT_NOT_EQUAL(before.st_ino, after.st_ino); /* renamed over, not rewritten */
	CU_ASSERT_EQUAL(temporaries(), 0);
}

/* Inputs: a FIFO, a device or a directory is refused before any read. */
static void test_inputs_never_block(void)
{
	int fd = -2;
	char *text = NULL;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo"), 0666), 0);
	CU_ASSERT_EQUAL(aieth__open_input(at("fifo"), &fd, NULL), AIETH_EIO);
	MSG_HAS("fifo: is a FIFO, not a regular file");
	CU_ASSERT_EQUAL(fd, -1);
	CU_ASSERT_EQUAL(aieth__read_file(at("fifo"), 100, &text, NULL), AIETH_EIO);
	CU_ASSERT_PTR_NULL(text);
	CU_ASSERT_EQUAL(aieth__open_input(dir, &fd, NULL), AIETH_EIO);
	MSG_HAS("is a directory, not a regular file");
	CU_ASSERT_EQUAL(aieth__open_input("/dev/null", &fd, NULL), AIETH_EIO);
	MSG_HAS("/dev/null: is a character device, not a regular file");
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("ok"), "fine", 4), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth__read_file(at("ok"), 100, &text, NULL), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(text, "fine");
	free(text);
}

static void test_cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_file_sha256(void)
{
	char hex[65];
	uint64_t n = 7;
	fresh_dir();
	/* FIPS 180-2's "abc"; and the empty file */
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("abc"), "abc", 3), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__file_sha256(at("abc"), hex, &n), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(hex,
			       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(at("empty"), "", 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__file_sha256(at("empty"), hex, NULL), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(hex,
			       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CU_ASSERT_NOT_EQUAL(aieth__file_sha256(at("missing"), hex, &n), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "missing"));
	CU_ASSERT_EQUAL(mkdir(at("d"), 0755), 0);
	CU_ASSERT_NOT_EQUAL(aieth__file_sha256(at("d"), hex, &n), AIETH_OK);
}

TU_MAIN("fileio", {"device written in place", test_device_written_in_place},
	{"file sha256", test_file_sha256}, {"FIFO written in place or refused at once", test_fifo},
	{"/dev/fd/N written through", test_open_descriptor},
	{"symbolic link: replaced, never followed", test_symlink},
	{"link to a FIFO, a device, a folder: by its owner", test_link_owner},
	{"the folder opened once", test_folder_opened_once},
	{"many files in one folder, folders made", test_openat_and_subdir},
	{"an output below the output folder: its folders never links", test_out_below},
	{"directory and bad names refused", test_directory_and_bad_names},
	{"regular file replaced whole", test_regular_replaced_whole},
	{"inputs never block", test_inputs_never_block}, {"cleanup", test_cleanup})
