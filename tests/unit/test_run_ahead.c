/* SPDX-License-Identifier: MIT */
/*
 * test_run_ahead.c - a golden file read windows ahead (runner/run_ahead.c):
 * the windows in order are the file's bytes; a file cut short fails at its
 * window with the message a read on the caller's thread gives; only large
 * files get a worker, at most a few in all; stopping with a read queued or
 * under way frees everything (ASan, TSan).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "runner/run_internal.h"
#include "util/error.h"
#include "tu.h"

#define WIN 4096u
#define NWIN 6u

static uint8_t bytes[NWIN * WIN + 48]; /* 6 windows and a short last one */

/* A file of bytes (n of them), open; *path its name (removed when the suite has run). */
static int file_of(size_t n, char *path, size_t cap)
{
	size_t i;
	int fd;
	FILE *f;
	for (i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(i * 7 + i / 251);
	snprintf(path, cap, "%s", tu_tmpfile(""));
	f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(bytes, 1, n, f), n);
	fclose(f);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	return fd;
}

static aieth_src file_src(int fd, uint64_t len)
{
	aieth_src s;
	memset(&s, 0, sizeof s);
	s.kind = AIETH_SRC_FILE;
	s.fd = fd;
	s.what = "golden.bin";
	s.len = len;
	return s;
}

static void t_in_order(void)
{
	char path[256];
	int fd = file_of(sizeof bytes, path, sizeof path);
	aieth_src s = file_src(fd, sizeof bytes);
	rn_ahead *a = aieth__rn_ahead_start(&s, sizeof bytes, WIN);
	uint64_t off;
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	for (off = 0; off < sizeof bytes; off += WIN) {
		size_t n = sizeof bytes - off < WIN ? (size_t)(sizeof bytes - off) : WIN;
		const uint8_t *w = aieth__rn_ahead_get(a, off, n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_EQUAL(memcmp(w, bytes + off, n), 0);
	}
	/* not the next window (RX never asks it): read where asked, right */
	CU_ASSERT_EQUAL(memcmp(aieth__rn_ahead_get(a, WIN, WIN), bytes + WIN, WIN), 0);
	CU_ASSERT_EQUAL(memcmp(aieth__rn_ahead_get(a, 3 * WIN, WIN), bytes + 3 * WIN, WIN), 0);
	CU_ASSERT_EQUAL(memcmp(aieth__rn_ahead_get(a, 4 * WIN, WIN), bytes + 4 * WIN, WIN), 0);
	aieth__rn_ahead_stop(a);
	close(fd);
}

/* The file holds 2.5 windows but the source says 6 (cut short after it
 * was opened): windows 0 and 1 arrive, window 2 fails with the message
 * and code of the same read on this thread. */
static void t_cut_short(void)
{
	char path[256], want[2048];
	int fd = file_of(2 * WIN + WIN / 2, path, sizeof path), rc;
	aieth_src s = file_src(fd, NWIN * WIN);
	rn_ahead *a = aieth__rn_ahead_start(&s, NWIN * WIN, WIN);
	static uint8_t buf[WIN];
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL(aieth__rn_ahead_get(a, 0, WIN));
	CU_ASSERT_PTR_NOT_NULL(aieth__rn_ahead_get(a, WIN, WIN));
	rc = aieth__src_read(&s, 2 * WIN, buf, WIN);
	CU_ASSERT_EQUAL(rc, AIETH_EIO);
	snprintf(want, sizeof want, "%s", aieth_error_message());
	aieth__error_clear();
	CU_ASSERT_PTR_NULL(aieth__rn_ahead_get(a, 2 * WIN, WIN));
	CU_ASSERT_STRING_EQUAL(aieth_error_message(), want);
	aieth__rn_ahead_stop(a);
	close(fd);
}

/* Only a file of more than two windows gets a worker; a few in all (the
 * next reads synchronously); stopping with a read queued or under way. */
static void t_bounds(void)
{
	char path[256];
	int fd = file_of(sizeof bytes, path, sizeof path), i, n = 0;
	aieth_src s = file_src(fd, sizeof bytes), m;
	rn_ahead *a[16];
	memset(&m, 0, sizeof m);
	m.kind = AIETH_SRC_MEM;
	m.mem = bytes;
	m.len = sizeof bytes;
	CU_ASSERT_PTR_NULL(aieth__rn_ahead_start(&m, sizeof bytes, WIN));
	CU_ASSERT_PTR_NULL(aieth__rn_ahead_start(&s, 2 * WIN, WIN));
	for (i = 0; i < 16; i++)
		if ((a[i] = aieth__rn_ahead_start(&s, sizeof bytes, WIN)))
			n++;
	CU_ASSERT(n >= 1 && n < 16);
	CU_ASSERT_PTR_NULL(a[15]);
	/* one with a read handed out and the next queued, the others with
	 * their first queued or under way */
	CU_ASSERT_PTR_NOT_NULL(aieth__rn_ahead_get(a[0], 0, WIN));
	for (i = 0; i < 16; i++)
		aieth__rn_ahead_stop(a[i]);
	/* the workers are free again */
	a[0] = aieth__rn_ahead_start(&s, sizeof bytes, WIN);
	CU_ASSERT_PTR_NOT_NULL(a[0]);
	aieth__rn_ahead_stop(a[0]);
	aieth__rn_ahead_stop(NULL);
	close(fd);
}

/* The caller wakes the worker at most once in two windows read in order
 * (a worker asleep on a full ring reads two at a time), whichever side is
 * faster: a bound on the futex calls, not a timing. */
static void t_wakes(void)
{
	enum { N = 64 };
	static uint8_t big[N * WIN];
	char path[256];
	FILE *f;
	int fd;
	size_t i;
	aieth_src s;
	rn_ahead *a;
	for (i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(i * 13 + i / 4093);
	snprintf(path, sizeof path, "%s", tu_tmpfile(""));
	f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(big, 1, sizeof big, f), sizeof big);
	fclose(f);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	s = file_src(fd, sizeof big);
	a = aieth__rn_ahead_start(&s, sizeof big, WIN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	for (i = 0; i < N; i++) {
		const uint8_t *w = aieth__rn_ahead_get(a, i * WIN, WIN);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_EQUAL(memcmp(w, big + i * WIN, WIN), 0);
	}
	CU_ASSERT(aieth__rn_ahead_wakes(a) <= N / 2 + 1);
	/* out of order, then in order again from there: both right */
	CU_ASSERT_EQUAL(memcmp(aieth__rn_ahead_get(a, 5 * WIN, WIN), big + 5 * WIN, WIN), 0);
	CU_ASSERT_EQUAL(memcmp(aieth__rn_ahead_get(a, 7 * WIN + 16, 32), big + 7 * WIN + 16, 32),
			0);
	aieth__rn_ahead_stop(a);
	close(fd);
}

TU_MAIN("run_ahead", {"windows in order are the file's bytes", t_in_order},
	{"a file cut short: the error of a read here", t_cut_short},
	{"bounded threads, stopped with reads under way", t_bounds},
	{"at most one wake of the worker in two windows", t_wakes})
