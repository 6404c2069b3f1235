/* SPDX-License-Identifier: MIT */
/*
 * test_run_texts.c - text data converted once per run (runner/run_texts.c):
 * a file read again is the bytes held, a file changed on disk (size or
 * modification time) or read as another type is converted again, and past
 * the bound of files a scratch file serves as without the cache.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "runner/run_internal.h"
#include "tu.h"

/* The source's first 4 bytes as a little-endian int32. */
static int32_t first(const aieth_src *s)
{
	uint8_t b[4];
	CU_ASSERT_EQUAL_FATAL(aieth__src_read(s, 0, b, 4), 0);
	return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			 (uint32_t)b[3] << 24);
}

static void rewrite(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void t_held_and_changed(void)
{
	rn_texts *t = NULL;
	aieth_src a, b;
	int fd = -1;
	const char *p = tu_tmpfile("1 2 3 4\n");
	char path[64];
	struct timespec ts[2] = {{1000, 0}, {1000, 0}};
	snprintf(path, sizeof path, "%s", p);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT32, &a, &fd), 0);
	CU_ASSERT_EQUAL(a.kind, AIETH_SRC_MEM);
	CU_ASSERT_EQUAL(fd, -1);
	CU_ASSERT_EQUAL(a.len, 16);
	CU_ASSERT_EQUAL(first(&a), 1);
	/* again: the same bytes, not converted again */
	CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT32, &b, &fd), 0);
	CU_ASSERT_PTR_EQUAL(b.mem, a.mem);
	/* another type of the same file: its own bytes */
	CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT16, &b, &fd), 0);
	CU_ASSERT_EQUAL(b.len, 8);
	CU_ASSERT_PTR_NOT_EQUAL(b.mem, a.mem);
	/* changed on disk, another size: converted again */
	rewrite(path, "7 8 9 10 11 12 13 14\n");
	CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT32, &a, &fd), 0);
	CU_ASSERT_EQUAL(a.len, 32);
	CU_ASSERT_EQUAL(first(&a), 7);
	/* the same size, another modification time: converted again */
	rewrite(path, "5 8 9 10 11 12 13 14\n");
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, ts, 0), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT32, &a, &fd), 0);
	CU_ASSERT_EQUAL(first(&a), 5);
	/* a file that no longer parses: the error, never the old bytes */
	rewrite(path, "5 x 9 10 11 12 13 14\n");
	ts[0].tv_sec = ts[1].tv_sec = 2000;
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, ts, 0), 0);
	CU_ASSERT_NOT_EQUAL(aieth__rn_texts_open(&t, path, AIETH_ELEM_INT32, &a, &fd), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), path));
	if (fd >= 0)
		close(fd);
	aieth__rn_texts_free(t);
}

/* Past RN_TEXTS_MAX_FILES: a scratch file per use, the same bytes. */
static void t_bounded(void)
{
	rn_texts *t = NULL;
	char dir[] = "/tmp/aieth-texts-XXXXXX", path[RN_TEXTS_MAX_FILES + 1][64];
	aieth_src s;
	int i, fd;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	for (i = 0; i <= RN_TEXTS_MAX_FILES; i++) {
		char text[32];
		snprintf(path[i], sizeof path[i], "%s/%d.txt", dir, i);
		snprintf(text, sizeof text, "%d 0 0 0\n", i);
		rewrite(path[i], text);
		memset(&s, 0, sizeof s);
		fd = -1;
		CU_ASSERT_EQUAL_FATAL(aieth__rn_texts_open(&t, path[i], AIETH_ELEM_INT32, &s, &fd),
				      0);
		CU_ASSERT_EQUAL(first(&s), i);
		if (i < RN_TEXTS_MAX_FILES) {
			CU_ASSERT_EQUAL(s.kind, AIETH_SRC_MEM);
		} else {
			CU_ASSERT_EQUAL(s.kind, AIETH_SRC_FILE);
			CU_ASSERT(fd >= 0);
			CU_ASSERT_EQUAL(s.len, 16);
		}
		if (fd >= 0)
			close(fd);
	}
	aieth__rn_texts_free(t);
	for (i = 0; i <= RN_TEXTS_MAX_FILES; i++)
		unlink(path[i]);
	rmdir(dir);
}

TU_MAIN("run_texts", {"held, and converted again when changed", t_held_and_changed},
	{"bounded: a scratch file past the bound", t_bounded})
