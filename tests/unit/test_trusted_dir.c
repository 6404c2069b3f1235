/* SPDX-License-Identifier: MIT */
/*
 * test_trusted_dir.c - folders only their user can change
 * (util/trusted_dir.h): a folder group or others may write is refused, so
 * is a world-writable ancestor without the sticky bit, a root-owned sticky
 * ancestor (/tmp) is accepted, a symbolic link as the folder is refused,
 * links owned by us are followed, another owner's folder is refused (as
 * root: chown to 65534), every message names the component; the checks of
 * an opened file and the folder's key; the sweep of a dead writer's
 * temporary files; HMAC-SHA256 (util/hash.h) against RFC 4231's vectors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/trusted_dir.h"

static char dir[64];

static const char *at(const char *name)
{
	static char buf[16][256];
	static int slot;
	char *b = buf[slot++ % 16];
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
	snprintf(dir, sizeof dir, "/tmp/aieth-trustdir-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

/* open_trusted's result for path; the message must hold want (NULL: OK). */
static void expect_open(const char *path, int create, int code, const char *want)
{
	int fd = -7, rc = aieth__dir_open_trusted(path, create, "test folder", &fd);
	CU_ASSERT_EQUAL(rc, code);
	if (rc != code)
		fprintf(stderr, "\n%s: rc %d: %s\n", path, rc, aieth_error_message());
	if (code == AIETH_OK) {
		CU_ASSERT(fd >= 0);
		if (fd >= 0)
			close(fd);
		return;
	}
	CU_ASSERT_EQUAL(fd, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "test folder"));
	if (want && !strstr(aieth_error_message(), want)) {
		CU_FAIL("message lacks the component");
		fprintf(stderr, "\nwanted '%s' in: %s\n", want, aieth_error_message());
	}
}

static void test_rule(void)
{
	struct stat st;
	char want[128];
	fresh_dir();
	/* mkdtemp's folder under /tmp (root's, sticky): accepted, made when
	 * missing with each new level 0700 */
	CU_ASSERT_EQUAL(stat("/tmp", &st), 0);
	expect_open(dir, 0, AIETH_OK, NULL);
	expect_open(at("a/b/c"), 0, AIETH_ENOTFOUND, "does not exist");
	expect_open(at("a/b/c"), 1, AIETH_OK, NULL);
	CU_ASSERT_EQUAL(stat(at("a/b"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	CU_ASSERT_EQUAL(stat(at("a/b/c"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	expect_open(at("a/./b/../b/c/"), 0, AIETH_OK, NULL);
	/* the folder itself group- or world-writable: refused */
	CU_ASSERT_EQUAL(chmod(at("a/b/c"), 0770), 0);
	expect_open(at("a/b/c"), 0, AIETH_EINVAL, "mode 0770");
	CU_ASSERT_EQUAL(chmod(at("a/b/c"), 0702), 0);
	expect_open(at("a/b/c"), 0, AIETH_EINVAL, "group or others may write it");
	CU_ASSERT_EQUAL(chmod(at("a/b/c"), 0755), 0); /* readable by others: its owner decides */
	expect_open(at("a/b/c"), 0, AIETH_OK, NULL);
	/* a world-writable ancestor without the sticky bit: refused, named */
	CU_ASSERT_EQUAL(chmod(at("a"), 0777), 0);
	snprintf(want, sizeof want, "its component %s (owner uid %u, mode 0777)", at("a"),
		 (unsigned)geteuid());
	expect_open(at("a/b/c"), 0, AIETH_EINVAL, want);
	expect_open(at("a/b/c"), 0, AIETH_EINVAL, "chmod go-w");
	/* group-writable: refused too */
	CU_ASSERT_EQUAL(chmod(at("a"), 0770), 0);
	expect_open(at("a/b/c"), 0, AIETH_EINVAL, "mode 0770");
	/* sticky but ours, not root's: the exception is for root's sticky
	 * folders alone (unless we are root) */
	CU_ASSERT_EQUAL(chmod(at("a"), 01777), 0);
	expect_open(at("a/b/c"), 0, geteuid() == 0 ? AIETH_OK : AIETH_EINVAL, at("a"));
	CU_ASSERT_EQUAL(chmod(at("a"), 0700), 0);
	expect_open(at("a/b/c"), 0, AIETH_OK, NULL);
	/* a relative path: from the working folder */
	{
		char cwd[4096];
		CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
		CU_ASSERT_EQUAL_FATAL(chdir(at("a")), 0);
		expect_open("b/c", 0, AIETH_OK, NULL);
		CU_ASSERT_EQUAL(chdir(cwd), 0);
	}
	/* a file, not a folder */
	CU_ASSERT_EQUAL(close(open(at("file"), O_WRONLY | O_CREAT, 0600)), 0);
	expect_open(at("file"), 1, AIETH_EINVAL, "not a directory");
	expect_open(at("file/x"), 1, AIETH_EINVAL, "not a directory");
}

static void test_links(void)
{
	char want[160];
	fresh_dir();
	CU_ASSERT_EQUAL(mkdir(at("real"), 0700), 0);
	CU_ASSERT_EQUAL(mkdir(at("real/cache"), 0700), 0);
	/* a link of ours on the way: followed, its target checked */
	CU_ASSERT_EQUAL(symlink(at("real"), at("abs")), 0);
	CU_ASSERT_EQUAL(symlink("real", at("rel")), 0);
	CU_ASSERT_EQUAL(symlink("../real", at("real/up")), 0);
	expect_open(at("abs/cache"), 0, AIETH_OK, NULL);
	expect_open(at("rel/cache"), 0, AIETH_OK, NULL);
	expect_open(at("rel/up/up/cache"), 0, AIETH_OK, NULL);
	/* the folder itself a link: refused (O_NOFOLLOW) */
	CU_ASSERT_EQUAL(symlink("real/cache", at("last")), 0);
	expect_open(at("last"), 0, AIETH_EINVAL, "a symbolic link");
	/* a link to a folder others may write: the target is checked */
	CU_ASSERT_EQUAL(mkdir(at("pub"), 0700), 0);
	CU_ASSERT_EQUAL(chmod(at("pub"), 0777), 0);
	CU_ASSERT_EQUAL(mkdir(at("pub/cache"), 0700), 0);
	CU_ASSERT_EQUAL(symlink(at("pub"), at("topub")), 0);
	snprintf(want, sizeof want, "its component %s (", at("pub"));
	expect_open(at("topub/cache"), 0, AIETH_EINVAL, want);
	/* a loop of links: bounded */
	CU_ASSERT_EQUAL(symlink("loop2", at("loop1")), 0);
	CU_ASSERT_EQUAL(symlink("loop1", at("loop2")), 0);
	expect_open(at("loop1/x"), 0, AIETH_EINVAL, "symbolic links on the way");
	/* a link another user owns (as root: chown it) */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(lchown(at("abs"), 65534, 65534), 0);
		snprintf(want, sizeof want,
			 "its component %s is a symbolic link owned by uid 65534", at("abs"));
		expect_open(at("abs/cache"), 0, AIETH_EINVAL, want);
	} else {
		fprintf(stderr, "\n  (not root: a link of another uid is not tried)\n");
	}
}

static void test_other_owner(void)
{
	char want[160];
	if (geteuid() != 0) {
		fprintf(stderr, "\n  SKIP: another owner's folder needs root (chown)\n");
		return;
	}
	fresh_dir();
	CU_ASSERT_EQUAL(mkdir(at("theirs"), 0700), 0);
	CU_ASSERT_EQUAL(chown(at("theirs"), 65534, 65534), 0);
	expect_open(at("theirs"), 0, AIETH_EINVAL, "owned by uid 65534 (mode 0700), not by us");
	/* an ancestor of another owner: even with no write bits, it is theirs */
	CU_ASSERT_EQUAL(mkdir(at("theirs/mine"), 0700), 0);
	snprintf(want, sizeof want, "its component %s is owned by uid 65534", at("theirs"));
	expect_open(at("theirs/mine"), 0, AIETH_EINVAL, want);
	/* in a root-owned sticky folder, a folder of another owner is refused
	 * (others cannot swap ours there, but this one is not ours) */
	CU_ASSERT_EQUAL(mkdir(at("sticky"), 0700), 0);
	CU_ASSERT_EQUAL(chmod(at("sticky"), 01777), 0);
	CU_ASSERT_EQUAL(mkdir(at("sticky/x"), 0700), 0);
	CU_ASSERT_EQUAL(chown(at("sticky/x"), 65534, 65534), 0);
	CU_ASSERT_EQUAL(mkdir(at("sticky/x/y"), 0700), 0);
	expect_open(at("sticky/x/y"), 0, AIETH_EINVAL, "owned by uid 65534");
	CU_ASSERT_EQUAL(mkdir(at("sticky/mine"), 0700), 0);
	expect_open(at("sticky/mine"), 0, AIETH_OK, NULL);
	/* but a sticky folder another user owns is no exception */
	CU_ASSERT_EQUAL(chown(at("sticky"), 65534, 65534), 0);
	expect_open(at("sticky/mine"), 0, AIETH_EINVAL, "owned by uid 65534");
}

static void test_fd_and_key(void)
{
	uint8_t k1[32], k2[32], zero[32] = {0};
	struct stat st;
	int d = -1, fd;
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(aieth__dir_open_trusted(dir, 0, "test folder", &d), AIETH_OK);
	fd = openat(d, "f", O_RDWR | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_EQUAL(aieth__fd_trusted(fd, "f"), AIETH_OK);
	CU_ASSERT_EQUAL(fchmod(fd, 0620), 0);
	CU_ASSERT_EQUAL(aieth__fd_trusted(fd, "f"), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "f: mode 0620"));
	CU_ASSERT_EQUAL(fchmod(fd, 0602), 0);
	CU_ASSERT_EQUAL(aieth__fd_trusted(fd, "f"), AIETH_EINVAL);
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(fchmod(fd, 0600), 0);
		CU_ASSERT_EQUAL(fchown(fd, 65534, 65534), 0);
		CU_ASSERT_EQUAL(aieth__fd_trusted(fd, "f"), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "owned by uid 65534"));
	}
	close(fd);
	fd = openat(d, ".", O_RDONLY);
	CU_ASSERT_EQUAL(aieth__fd_trusted(fd, "."), AIETH_EINVAL);
	close(fd);
	/* the key: made once (0600, 32 bytes), the same when read again */
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".k", "key", k1), AIETH_OK);
	CU_ASSERT(memcmp(k1, zero, 32) != 0);
	CU_ASSERT_EQUAL(fstatat(d, ".k", &st, AT_SYMLINK_NOFOLLOW), 0);
	CU_ASSERT(S_ISREG(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT_EQUAL(st.st_size, 32);
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".k", "key", k2), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(k1, k2, 32), 0);
	/* another folder's key differs */
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".k2", "key", k2), AIETH_OK);
	CU_ASSERT(memcmp(k1, k2, 32) != 0);
	/* readable by others, short, a link: refused */
	CU_ASSERT_EQUAL(fchmodat(d, ".k", 0644, 0), 0);
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".k", "key", k2), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "others may read the secret"));
	CU_ASSERT_EQUAL(fchmodat(d, ".k", 0600, 0), 0);
	CU_ASSERT_EQUAL(truncate(at(".k"), 31), 0);
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".k", "key", k2), AIETH_EINVAL);
	CU_ASSERT_EQUAL(symlinkat(".k2", d, ".kl"), 0);
	CU_ASSERT_EQUAL(aieth__dir_key(d, ".kl", "key", k2), AIETH_EINVAL);
	close(d);
}

/* HMAC-SHA256 (util/hash.h), the check of stamps and spool entries:
 * RFC 4231's test cases 2 (a short key) and 6 (a key longer than a
 * block), the message in two pieces; equal bytes compared. */
static void test_hmac(void)
{
	static const char *msg6 = "Test Using Larger Than Block-Size Key - Hash Key First";
	uint8_t key6[131], out[32];
	char hx[65];
	aieth_hmac_sha256 h;
	aieth__hmac_sha256_init(&h, (const uint8_t *)"Jefe", 4);
	aieth__hmac_sha256_update(&h, "what do ya want ", 16);
	aieth__hmac_sha256_update(&h, "for nothing?", 12);
	aieth__hmac_sha256_final(&h, out);
	aieth__sha256_hex(out, hx);
	CU_ASSERT_STRING_EQUAL(hx,
			       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(key6, 0xaa, sizeof key6);
	aieth__hmac_sha256_init(&h, key6, sizeof key6);
	aieth__hmac_sha256_update(&h, msg6, strlen(msg6));
	aieth__hmac_sha256_final(&h, out);
	aieth__sha256_hex(out, hx);
	CU_ASSERT_STRING_EQUAL(hx,
			       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	CU_ASSERT_EQUAL(aieth__bytes_equal("abcd", "abcd", 4), 1);
	CU_ASSERT_EQUAL(aieth__bytes_equal("abcd", "abce", 4), 0);
	CU_ASSERT_EQUAL(aieth__bytes_equal("xbcd", "abcd", 4), 0);
	CU_ASSERT_EQUAL(aieth__bytes_equal("", "", 0), 1);
}

/* A file name of dir made age seconds old (mtime). */
static void aged(const char *name, time_t age)
{
	struct timespec t[2];
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	t[0].tv_sec = t[1].tv_sec = time(NULL) - age;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, at(name), t, AT_SYMLINK_NOFOLLOW), 0);
}

/* Temporaries (a dot name with ".tmp." in it) older than max_age: removed;
 * a younger one, another name, a folder, a link, another uid's: kept. */
static void test_temp_sweep(void)
{
	struct stat st;
	size_t n = 99;
	int dfd;
	fresh_dir();
	aged(".tmp.1.0.0", 7200);
	aged(".tmp.key.1.00112233", 3700);
	aged(".entry.tmp.4.2", 7200);
	aged(".tmp.2.0.0", 3500);
	aged("tmp.3.0.0", 7200);
	aged(".tmp", 7200);
	CU_ASSERT_EQUAL(mkdir(at(".tmp.dir"), 0700), 0);
	CU_ASSERT_EQUAL(symlink(".tmp.2.0.0", at(".tmp.link")), 0);
	if (geteuid() == 0) {
		aged(".tmp.theirs", 7200);
		CU_ASSERT_EQUAL(chown(at(".tmp.theirs"), 65534, 65534), 0);
	}
	CU_ASSERT_EQUAL_FATAL(aieth__dir_open_trusted(dir, 0, "test folder", &dfd), AIETH_OK);
	/* one name at a time, as the PDI cache's evictor sees them */
	CU_ASSERT_EQUAL(fstatat(dfd, "tmp.3.0.0", &st, AT_SYMLINK_NOFOLLOW), 0);
	CU_ASSERT_EQUAL(aieth__dir_temp_sweep_one(dfd, "tmp.3.0.0", &st, time(NULL), 3600),
			AIETH__TEMP_NOT);
	CU_ASSERT_EQUAL(fstatat(dfd, ".tmp.2.0.0", &st, AT_SYMLINK_NOFOLLOW), 0);
	CU_ASSERT_EQUAL(aieth__dir_temp_sweep_one(dfd, ".tmp.2.0.0", &st, time(NULL), 3600),
			AIETH__TEMP_KEPT);
	CU_ASSERT_EQUAL(aieth__dir_temp_sweep_one(dfd, ".tmp.2.0.0", &st, time(NULL) + 200, 3600),
			AIETH__TEMP_REMOVED);
	CU_ASSERT_EQUAL(access(at(".tmp.2.0.0"), F_OK), -1);
	aged(".tmp.2.0.0", 3500);
	/* the whole folder */
	CU_ASSERT_EQUAL(aieth__dir_temp_sweep(dfd, 3600, "test folder", &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(access(at(".tmp.1.0.0"), F_OK), -1);
	CU_ASSERT_EQUAL(access(at(".tmp.key.1.00112233"), F_OK), -1);
	CU_ASSERT_EQUAL(access(at(".entry.tmp.4.2"), F_OK), -1);
	CU_ASSERT_EQUAL(access(at(".tmp.2.0.0"), F_OK), 0);
	CU_ASSERT_EQUAL(access(at("tmp.3.0.0"), F_OK), 0);
	CU_ASSERT_EQUAL(access(at(".tmp"), F_OK), 0);
	CU_ASSERT_EQUAL(access(at(".tmp.dir"), F_OK), 0);
	CU_ASSERT_EQUAL(faccessat(AT_FDCWD, at(".tmp.link"), F_OK, AT_SYMLINK_NOFOLLOW), 0);
	if (geteuid() == 0)
		CU_ASSERT_EQUAL(access(at(".tmp.theirs"), F_OK), 0);
	close(dfd);
}

static void test_cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

TU_MAIN("trusted_dir", {"the rule: owner and write bits of every component", test_rule},
	{"symbolic links on the way, and as the folder", test_links},
	{"another owner's folder or ancestor (as root)", test_other_owner},
	{"an opened file's checks; the folder's key", test_fd_and_key},
	{"a dead writer's temporary files", test_temp_sweep},
	{"HMAC-SHA256: RFC 4231's vectors", test_hmac}, {"cleanup", test_cleanup})
