/* SPDX-License-Identifier: MIT */
/*
 * test_sysfs.c - bounded status-file reads (util/sysfs.h) below a stand-in
 * root (AIETH_SYSFS_ROOT): a regular file, one larger than the buffer
 * (truncated flagged), a FIFO with no writer and one with a silent writer
 * (each AIETH_ETIMEOUT within its deadline, never a hang), a folder
 * (AIETH_EINVAL), a missing file (AIETH_ENOTFOUND), a ".." path; the
 * sorted, bounded folder listing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/sysfs.h"

static char root[64];

static const char *at(const char *name)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", root, name);
	return b;
}

static void setup(void)
{
	if (root[0])
		return;
	snprintf(root, sizeof root, "/tmp/aieth-sysfs-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	CU_ASSERT_EQUAL(setenv("AIETH_SYSFS_ROOT", root, 1), 0);
	tu_mkdir(root, "dev");
	tu_put(root, "dev/status", "Enable|Lock_Stall_W\n");
	tu_put(root, "dev/big", "0123456789abcdef0123456789abcdef");
	tu_put(root, "dev/b", "");
	tu_put(root, "dev/a", "");
	CU_ASSERT_EQUAL(mkfifo(at("dev/fifo"), 0600), 0);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static double secs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_root(void)
{
	setup();
	CU_ASSERT_STRING_EQUAL(aieth__sysfs_root(), root);
	setenv("AIETH_SYSFS_ROOT", "", 1);
	CU_ASSERT_STRING_EQUAL(aieth__sysfs_root(), "/sys");
	setenv("AIETH_SYSFS_ROOT", root, 1);
}

static void test_regular(void)
{
	char buf[64];
	size_t len = 99;
	int tr = 7;
	setup();
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/status", buf, sizeof buf, &len, &tr, 100), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(buf, "Enable|Lock_Stall_W\n");
	CU_ASSERT_EQUAL(len, 20);
	CU_ASSERT_EQUAL(tr, 0);
	/* exactly cap-1 bytes: not truncated */
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/status", buf, 21, &len, &tr, 100), AIETH_OK);
	CU_ASSERT_EQUAL(len, 20);
	CU_ASSERT_EQUAL(tr, 0);
}

static void test_truncated(void)
{
	char buf[9];
	size_t len = 0;
	int tr = 0;
	setup();
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/big", buf, sizeof buf, &len, &tr, 100), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(buf, "01234567");
	CU_ASSERT_EQUAL(len, 8);
	CU_ASSERT_EQUAL(tr, 1);
}

/* A FIFO: each read gives up at its deadline (200 ms asked, well under a
 * second allowed: a generous bound, not a timing measurement). */
static void fifo_times_out(void)
{
	char buf[16];
	double t0 = secs();
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/fifo", buf, sizeof buf, NULL, NULL, 200),
			AIETH_ETIMEOUT);
	CU_ASSERT(secs() - t0 < 5.0);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "dev/fifo"));
	CU_ASSERT_STRING_EQUAL(buf, "");
}

static void test_fifo(void)
{
	int w;
	setup();
	fifo_times_out(); /* no writer */
	/* a writer that never writes (held open here: O_RDWR never blocks) */
	w = open(at("dev/fifo"), O_RDWR | O_NONBLOCK);
	CU_ASSERT_FATAL(w >= 0);
	fifo_times_out();
	/* a writer that wrote and stays: what it wrote, then the deadline */
	CU_ASSERT_EQUAL(write(w, "12\n", 3), 3);
	{
		char buf[16];
		CU_ASSERT_EQUAL(aieth__sysfs_read("dev/fifo", buf, sizeof buf, NULL, NULL, 200),
				AIETH_ETIMEOUT);
		CU_ASSERT_STRING_EQUAL(buf, "12\n");
	}
	close(w);
}

static void test_refused(void)
{
	char buf[16];
	setup();
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev", buf, sizeof buf, NULL, NULL, 100), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "a folder"));
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/none", buf, sizeof buf, NULL, NULL, 100),
			AIETH_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "dev/none"));
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/../dev/status", buf, sizeof buf, NULL, NULL, 100),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__sysfs_read("/etc/passwd", buf, sizeof buf, NULL, NULL, 100),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/status", buf, 0, NULL, NULL, 100), AIETH_EINVAL);
	/* a device (through a link: no mknod without root) */
	CU_ASSERT_EQUAL(symlink("/dev/null", at("dev/null")), 0);
	CU_ASSERT_EQUAL(aieth__sysfs_read("dev/null", buf, sizeof buf, NULL, NULL, 100),
			AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "a device"));
	unlink(at("dev/null"));
}

static char listed[8][16];
static int nlisted;

static void each(void *ctx, const char *name)
{
	CU_ASSERT_PTR_EQUAL(ctx, listed);
	if (nlisted < 8)
		snprintf(listed[nlisted++], sizeof listed[0], "%s", name);
}

static void test_list(void)
{
	setup();
	nlisted = 0;
	CU_ASSERT_EQUAL(aieth__sysfs_list("dev", each, listed, 8), 5);
	CU_ASSERT_EQUAL(nlisted, 5);
	CU_ASSERT_STRING_EQUAL(listed[0], "a");
	CU_ASSERT_STRING_EQUAL(listed[1], "b");
	CU_ASSERT_STRING_EQUAL(listed[2], "big");
	CU_ASSERT_STRING_EQUAL(listed[3], "fifo");
	CU_ASSERT_STRING_EQUAL(listed[4], "status");
	nlisted = 0;
	CU_ASSERT_EQUAL(aieth__sysfs_list("dev", each, listed, 2), 2);
	CU_ASSERT_STRING_EQUAL(listed[1], "b");
	CU_ASSERT_EQUAL(aieth__sysfs_list("dev/none", each, listed, 8), AIETH_ENOTFOUND);
	CU_ASSERT_EQUAL(aieth__sysfs_list("dev/status", each, listed, 8), AIETH_EINVAL);
	teardown();
}

TU_MAIN("sysfs", {"root", test_root}, {"regular file", test_regular}, {"truncated", test_truncated},
	{"FIFO: no writer, silent writer", test_fifo}, {"folder, missing, outside", test_refused},
	{"list", test_list})
