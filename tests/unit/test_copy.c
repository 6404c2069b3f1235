/* SPDX-License-Identifier: MIT */
/*
 * test_copy.c - util/copy: aieth__copy_range gives the bytes and the
 * hash128 that a copy through a buffer (aieth__copy) gives, from offsets
 * that are not page aligned, across windows (the hash then runs in a
 * thread), with the hash taken from the input, from the output or through
 * a buffer; into a pipe (no copy_file_range there); a short input is an
 * error naming it, never a SIGBUS; the kernel path moves no byte through
 * user memory where copy_file_range works, and offsets that differ modulo
 * 64 KiB go through the copy's own pipe (an O_APPEND output, which splice
 * refuses, another way). The gate: a reader in
 * another thread gets the very bytes written, each read waiting for the
 * copy to reach it; a gate on no regular file, or ended before a copy,
 * tells the reader so.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "tu.h"
#include "util/copy.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"

static char dir[64];
static uint8_t *src_bytes;
static const size_t N = (17u << 20) + 4321; /* past two 8 MiB windows */

static const char *at(const char *name)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static int make_src(void)
{
	size_t i;
	int fd;
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/aieth-copy-XXXXXX");
		if (!mkdtemp(dir))
			return -1;
	}
	if (!src_bytes) {
		src_bytes = malloc(N);
		if (!src_bytes)
			return -1;
		for (i = 0; i < N; i++)
			src_bytes[i] = (uint8_t)(i * 131 + (i >> 13));
	}
	fd = open(at("src"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && aieth__write_full(fd, src_bytes, N, "src")) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The digest of src_bytes[off, off + n). */
static void want_sum(size_t off, size_t n, uint8_t out[16])
{
	aieth_hash128 h;
	aieth__hash128_init(&h);
	aieth__hash128_update(&h, src_bytes + off, n);
	aieth__hash128_final(&h, out);
}

/* Copy [off, off + n) of in after `pre` bytes already in a fresh output
 * opened with oflags; check the bytes and the digest. */
static void check_copy(int in, size_t off, size_t n, size_t pre, int oflags, unsigned flags)
{
	uint8_t want[16], got[16], *back = malloc(pre + n);
	aieth_hash128 h;
	int out = open(at("out"), oflags | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), rd;
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_FATAL(out >= 0);
	memset(back, 0x5a, pre);
	CU_ASSERT_EQUAL(aieth__write_full(out, back, pre, "out"), AIETH_OK);
	aieth__hash128_init(&h);
	CU_ASSERT_EQUAL(aieth__copy_range(in, off, n, out, &h, flags, "src", "out"), AIETH_OK);
	aieth__hash128_final(&h, got);
	want_sum(off, n, want);
	CU_ASSERT_EQUAL(memcmp(got, want, 16), 0);
	/* the position moved past the bytes: the next write follows them */
	CU_ASSERT_EQUAL(lseek(out, 0, SEEK_CUR), (off_t)(pre + n));
	close(out);
	rd = open(at("out"), O_RDONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(rd >= 0);
	CU_ASSERT_EQUAL(lseek(rd, 0, SEEK_END), (off_t)(pre + n));
	CU_ASSERT_EQUAL(aieth__pread_full(rd, back, pre + n, 0, "out"), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(back + pre, src_bytes + off, n), 0);
	close(rd);
	free(back);
}

static void test_same_bytes_and_hash(void)
{
	int in = make_src();
	CU_ASSERT_FATAL(in >= 0);
	/* unaligned both sides, several windows: hashed in a thread */
	check_copy(in, 777, N - 777, 1234, O_RDWR, AIETH_COPY_STABLE); /* from the input */
	check_copy(in, 777, N - 777, 1234, O_RDWR, 0);                 /* from the output */
	check_copy(in, 777, N - 777, 1234, O_WRONLY, 0);               /* through a buffer */
	/* an output that splice refuses (O_APPEND: EINVAL) goes on another way */
	check_copy(in, 777, N - 777, 1234, O_RDWR | O_APPEND, 0);
	/* one window and less: hashed in this thread */
	check_copy(in, 5, 3u << 20, 3, O_RDWR, 0);
	check_copy(in, 5, 3u << 20, 3, O_WRONLY, AIETH_COPY_STABLE);
	check_copy(in, 0, 1, 0, O_RDWR, 0);
	/* the whole file into an empty one: a reflink where there are any */
	check_copy(in, 0, N, 0, O_RDWR, AIETH_COPY_STABLE);
	close(in);
}

/* Where copy_file_range works (ext4, tmpfs, Btrfs, XFS: what /tmp is on
 * Linux 5.19 and later) the bytes stay in the kernel. */
static void test_no_user_copy(void)
{
	aieth_copy_stats a, b;
	aieth_hash128 h;
	int in = make_src(), out = open(at("k"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	aieth__copy_stats(&a);
	aieth__hash128_init(&h);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 4096, N - 4096, out, &h, 0, "src", "k"), AIETH_OK);
	aieth__copy_stats(&b);
	CU_ASSERT_EQUAL(b.user_copied, a.user_copied);
	CU_ASSERT_EQUAL((b.kernel_copied - a.kernel_copied) + (b.reflinked - a.reflinked),
			(uint64_t)(N - 4096));
	close(in);
	close(out);
}

/* Offsets that differ modulo 64 KiB (a PDI at byte 2544 of an xclbin):
 * spliced through the copy's own pipe, every byte (where the kernel has
 * splice: every Linux this runs on), none through user memory. Offsets
 * equal modulo 64 KiB: no pipe (copy_file_range, or a reflink). */
static void test_spliced_where_misaligned(void)
{
	aieth_copy_stats a, b;
	int in = make_src(), out = open(at("sp"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	uint8_t head[2544];
	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	memset(head, 7, sizeof head);
	CU_ASSERT_EQUAL_FATAL(aieth__write_full(out, head, sizeof head, "sp"), AIETH_OK);
	aieth__copy_stats(&a);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 0, N, out, NULL, 0, "src", "sp"), AIETH_OK);
	aieth__copy_stats(&b);
	CU_ASSERT_EQUAL(b.spliced - a.spliced, (uint64_t)N);
	CU_ASSERT_EQUAL(b.user_copied, a.user_copied);
	close(out);
	out = open(at("sp"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(out >= 0);
	CU_ASSERT_EQUAL_FATAL(aieth__write_full(out, src_bytes, 65536 + 5, "sp"), AIETH_OK);
	aieth__copy_stats(&a);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 5, N - 5, out, NULL, 0, "src", "sp"), AIETH_OK);
	aieth__copy_stats(&b);
	CU_ASSERT_EQUAL(b.spliced, a.spliced);
	/* misaligned but within one 64 KiB piece: no pipe either */
	aieth__copy_stats(&a);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 0, 65536, out, NULL, 0, "src", "sp"), AIETH_OK);
	aieth__copy_stats(&b);
	CU_ASSERT_EQUAL(b.spliced, a.spliced);
	close(out);
	close(in);
}

/* A pipe is no file: the read/write path, the same bytes and digest. */
static void test_into_pipe(void)
{
	uint8_t want[16], got[16], back[65536];
	aieth_hash128 h;
	int in = make_src(), p[2];
	size_t n = 60000, have = 0;
	CU_ASSERT_FATAL(in >= 0);
	CU_ASSERT_FATAL(pipe(p) == 0);
	aieth__hash128_init(&h);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 99, n, p[1], &h, AIETH_COPY_STABLE, "src", "pipe"),
			AIETH_OK);
	close(p[1]);
	while (have < n) {
		ssize_t r = read(p[0], back + have, sizeof back - have);
		if (r <= 0)
			break;
		have += (size_t)r;
	}
	CU_ASSERT_EQUAL(have, n);
	CU_ASSERT_EQUAL(memcmp(back, src_bytes + 99, n), 0);
	aieth__hash128_final(&h, got);
	want_sum(99, n, want);
	CU_ASSERT_EQUAL(memcmp(got, want, 16), 0);
	close(p[0]);
	close(in);
}

/* Asking for more than the input holds: AIETH_EIO naming it, nothing
 * mapped past its end (that would be SIGBUS). */
static void test_short_input(void)
{
	aieth_hash128 h;
	int in = make_src(), out = open(at("s"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	aieth__hash128_init(&h);
	CU_ASSERT_EQUAL(aieth__copy_range(in, 777, N, out, &h, AIETH_COPY_STABLE, "src", "s"),
			AIETH_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "src"));
	CU_ASSERT_EQUAL(aieth__copy_range(in, N + 1, 1, out, NULL, 0, "src", "s"), AIETH_EIO);
	/* nothing asked: nothing done */
	CU_ASSERT_EQUAL(aieth__copy_range(in, N + 1, 0, out, NULL, 0, "src", "s"), AIETH_OK);
	close(in);
	close(out);
}

/* A reader beside a gated copy: reads of 4 bytes every 64 KiB + 3, one
 * larger than a window, and the last byte, compared with the source. */
typedef struct {
	aieth_copy_gate *g;
	size_t off; /* where the copy starts in the source */
	uint64_t size;
	int sized, mismatches, reads_failed;
} gate_reader;

static void *read_beside(void *arg)
{
	gate_reader *r = arg;
	static uint8_t big[(9u << 20) + 5];
	uint8_t b[4];
	uint64_t o;
	if (aieth__copy_gate_size(r->g, &r->size))
		return NULL;
	r->sized = 1;
	for (o = 0; o + 4 <= r->size; o += (64u << 10) + 3) {
		if (aieth__copy_gate_read(r->g, b, 4, o))
			r->reads_failed++;
		else if (memcmp(b, src_bytes + r->off + o, 4))
			r->mismatches++;
	}
	if (aieth__copy_gate_read(r->g, big, sizeof big, 1000) ||
	    aieth__copy_gate_read(r->g, b, 1, r->size - 1))
		r->reads_failed++;
	else if (memcmp(big, src_bytes + r->off + 1000, sizeof big) ||
		 b[0] != src_bytes[r->off + r->size - 1])
		r->mismatches++;
	/* past the copied range: an error, not a wait */
	if (!aieth__copy_gate_read(r->g, b, 2, r->size - 1))
		r->mismatches++;
	return NULL;
}

static void test_gate(void)
{
	gate_reader r;
	pthread_t th;
	uint64_t base, n;
	uint8_t pre[333];
	aieth_hash128 h;
	int in = make_src(), out = open(at("g"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	memset(&r, 0, sizeof r);
	memset(pre, 1, sizeof pre);
	CU_ASSERT_EQUAL(aieth__write_full(out, pre, sizeof pre, "g"), AIETH_OK);
	r.g = aieth__copy_gate_new();
	r.off = 4099;
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.g);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, read_beside, &r), 0);
	aieth__hash128_init(&h);
	CU_ASSERT_EQUAL(aieth__copy_range_gated(in, r.off, N - r.off, out, &h, 0, "src", "g", r.g),
			AIETH_OK);
	aieth__copy_gate_end(r.g);
	pthread_join(th, NULL);
	CU_ASSERT(r.sized);
	CU_ASSERT_EQUAL(r.size, (uint64_t)(N - r.off));
	CU_ASSERT_EQUAL(r.mismatches, 0);
	CU_ASSERT_EQUAL(r.reads_failed, 0);
	/* the reader's failed read past the range counts: not a whole walk */
	CU_ASSERT_NOT_EQUAL(aieth__copy_gate_result(r.g, &base, &n), 0);
	CU_ASSERT_EQUAL(base, sizeof pre);
	CU_ASSERT_EQUAL(n, (uint64_t)(N - r.off));
	aieth__copy_gate_free(r.g);
	close(out);
	close(in);
}

/* No bytes for the reader: a pipe (never mapped), a copy refused before
 * it started (a short input), a gate ended with no copy at all. */
static void test_gate_without_copy(void)
{
	aieth_copy_gate *g;
	uint64_t size = 7, base;
	uint8_t b[4];
	int in = make_src(), out = open(at("w"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600),
	    p[2];
	CU_ASSERT_FATAL(in >= 0 && out >= 0 && pipe(p) == 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g = aieth__copy_gate_new());
	CU_ASSERT_EQUAL(aieth__copy_range_gated(in, 0, 1000, p[1], NULL, 0, "src", "pipe", g),
			AIETH_OK);
	CU_ASSERT_EQUAL(aieth__copy_gate_size(g, &size), -1);
	CU_ASSERT_NOT_EQUAL(aieth__copy_gate_result(g, &base, &size), 0);
	aieth__copy_gate_free(g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g = aieth__copy_gate_new());
	CU_ASSERT_EQUAL(aieth__copy_range_gated(in, 1, N, out, NULL, 0, "src", "w", g), AIETH_EIO);
	CU_ASSERT_EQUAL(aieth__copy_gate_size(g, &size), -1);
	aieth__copy_gate_free(g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g = aieth__copy_gate_new());
	aieth__copy_gate_end(g);
	aieth__copy_gate_end(g);
	CU_ASSERT_EQUAL(aieth__copy_gate_size(g, &size), -1);
	aieth__copy_gate_free(g);
	/* one page, in a single window: read back, every read held */
	CU_ASSERT_PTR_NOT_NULL_FATAL(g = aieth__copy_gate_new());
	CU_ASSERT_EQUAL(aieth__copy_range_gated(in, 0, 4096, out, NULL, 0, "src", "w", g),
			AIETH_OK);
	CU_ASSERT_EQUAL(aieth__copy_gate_size(g, &size), 0);
	CU_ASSERT_EQUAL(size, 4096u);
	CU_ASSERT_EQUAL(aieth__copy_gate_read(g, b, 4, 4092), 0);
	CU_ASSERT_EQUAL(memcmp(b, src_bytes + 4092, 4), 0);
	CU_ASSERT_EQUAL(aieth__copy_gate_result(g, &base, &size), 0);
	aieth__copy_gate_free(g);
	close(p[0]);
	close(p[1]);
	close(out);
	close(in);
}

static void test_cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	free(src_bytes);
	src_bytes = NULL;
}

TU_MAIN("copy", {"same bytes and hash128 as a buffered copy", test_same_bytes_and_hash},
	{"no byte through user memory", test_no_user_copy},
	{"spliced where the offsets differ", test_spliced_where_misaligned},
	{"into a pipe", test_into_pipe}, {"short input", test_short_input},
	{"a reader beside the copy (gate)", test_gate},
	{"a gate with no bytes to read", test_gate_without_copy}, {"cleanup", test_cleanup})
