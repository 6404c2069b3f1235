/* SPDX-License-Identifier: MIT */
/* test_remote_pieces.c - the pieces a streamed RX download asks for
 * (aieth__rm_rx_piece_next): 8 MiB first; twice the last after a fast one,
 * half after a slow one, within 8-256 MiB; none over an eighth of what is
 * left (rounded down to 8 MiB, 8 MiB at least); never past the end. A
 * whole download in such pieces covers every byte once, in no more pieces
 * than 8 MiB ones would take, and ends in a piece of 8 MiB at most. */
#include <stdint.h>
#include <stdio.h>

#include "aieth.h"
#include "tu.h"

#ifdef AIETH_HAVE_CURL

#include "backends/remote/remote_internal.h"

#define MIB ((uint64_t)1 << 20)
#define FAST 0.001 /* seconds a piece took */
#define SLOW 1.0
#define STEADY 0.1

/* One step each: the last piece's length, what is left, how long the
 * last took; the next piece's length. */
static const struct {
	uint64_t prev, left;
	double took;
	uint64_t want;
} steps[] = {
	/* the first piece */
	{0, 256 * MIB, 0, 8 * MIB},
	{0, 4096, 0, 4096},
	{0, 8 * MIB, 0, 8 * MIB},
	/* fast: twice as long, at most 256 MiB */
	{8 * MIB, 1024 * MIB, FAST, 16 * MIB},
	{64 * MIB, 4096 * MIB, FAST, 128 * MIB},
	{256 * MIB, 16384 * MIB, FAST, 256 * MIB},
	{200 * MIB, 16384 * MIB, FAST, 256 * MIB},
	/* neither fast nor slow: the same */
	{32 * MIB, 4096 * MIB, STEADY, 32 * MIB},
	/* slow: half, 8 MiB at least */
	{64 * MIB, 4096 * MIB, SLOW, 32 * MIB},
	{8 * MIB, 4096 * MIB, SLOW, 8 * MIB},
	/* a length off the 8 MiB grid (a last piece) is taken down to it */
	{12 * MIB, 1024 * MIB, FAST, 16 * MIB},
	{5 * MIB, 1024 * MIB, STEADY, 8 * MIB},
	/* near the end: an eighth of what is left, on the 8 MiB grid */
	{64 * MIB, 256 * MIB, FAST, 32 * MIB},
	{64 * MIB, 200 * MIB, FAST, 24 * MIB},
	{64 * MIB, 100 * MIB, FAST, 8 * MIB},
	/* the end */
	{8 * MIB, 5 * MIB, FAST, 5 * MIB},
	{64 * MIB, 1, SLOW, 1},
};

static void t_steps(void)
{
	size_t i;
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		uint64_t got = aieth__rm_rx_piece_next(steps[i].prev, steps[i].left, steps[i].took);
		if (got != steps[i].want)
			fprintf(stderr, "step %zu: %llu bytes, expected %llu\n", i,
				(unsigned long long)got, (unsigned long long)steps[i].want);
		CU_ASSERT_EQUAL(got, steps[i].want);
	}
}

/* A download of size bytes, each piece taking took seconds: its pieces
 * counted, every check of the header above made on the way. */
static uint64_t download(uint64_t size, double took)
{
	uint64_t off = 0, len = 0, n = 0;
	while (off < size && n <= size / (8 * MIB) + 1) {
		len = aieth__rm_rx_piece_next(len, size - off, n ? took : 0);
		CU_ASSERT(len >= 1 && len <= size - off);
		CU_ASSERT(len <= 256 * MIB);
		CU_ASSERT(len >= 8 * MIB || off + len == size);
		off += len, n++;
	}
	CU_ASSERT_EQUAL(off, size);
	CU_ASSERT(len <= 8 * MIB); /* the last piece */
	CU_ASSERT(n <= (size + 8 * MIB - 1) / (8 * MIB));
	return n;
}

static void t_downloads(void)
{
	static const uint64_t sizes[] = {1,           4096,          8 * MIB - 1, 8 * MIB,
					 8 * MIB + 1, 256 * MIB - 4, 256 * MIB,   4096 * MIB + 3};
	size_t i;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint64_t slow = download(sizes[i], SLOW), fast = download(sizes[i], FAST);
		/* slow pieces stay 8 MiB: the count of 8 MiB pieces */
		CU_ASSERT_EQUAL(slow, (sizes[i] + 8 * MIB - 1) / (8 * MIB));
		CU_ASSERT(fast <= slow);
	}
	/* fast pieces: 256 MiB in 23 (8, 16, 24, 24, 16 ..., the last 64 MiB
	 * in 8 MiB ones), 4 GiB + 3 in 51 (up to 256 MiB, down again from
	 * 2 GiB before the end), not 513 */
	CU_ASSERT_EQUAL(download(256 * MIB, FAST), 23);
	CU_ASSERT_EQUAL(download(4096 * MIB + 3, FAST), 51);
}

TU_MAIN("remote_pieces", {"one step: first, faster, slower, bounds, near the end", t_steps},
	{"whole downloads: every byte once, no more pieces than 8 MiB ones", t_downloads})

#else

static void t_none(void)
{ /* built without libcurl: no remote backend to test */
}

TU_MAIN("remote_pieces", {"no libcurl in this build", t_none})

#endif
