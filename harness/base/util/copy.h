/* SPDX-License-Identifier: MIT */
/*
 * util/copy.h - file-to-file copies that keep the bytes in the kernel (not
 * installed): a reflink where the file system shares extents (FICLONE,
 * FICLONERANGE), else copy_file_range(2), else a bounded read/write loop.
 * The hash a caller asks for is taken from the page cache through a
 * mapping, once, never from a copy in user memory.
 */
#ifndef AIETH_UTIL_COPY_H
#define AIETH_UTIL_COPY_H

#include <stdint.h>

#include "util/hash.h"

/* The input is a file nobody truncates or rewrites while it is read (ours,
 * in a scratch folder or the PDI cache): it may be mapped to be hashed. */
#define AIETH_COPY_STABLE 1u

/* Copy n bytes of in (from offset off) to the current position of out,
 * which moves past them, feeding them to h when not NULL. Regular files:
 * reflink, else (more than 64 KiB, offsets not equal modulo 64 KiB)
 * splice through a 1 MiB pipe of its own, else copy_file_range in
 * windows of 8 MiB (EINTR retried, short copies continued; EXDEV, ENOSYS, EOPNOTSUPP, EINVAL and the like fall
 * back to read/write for the rest; when a thread hashes or reads beside
 * the copy, the last 8 MiB go in steps of 1 MiB, so that it finishes soon
 * after the copy); h is fed once a window is copied,
 * from the input's pages when AIETH_COPY_STABLE, else from the output's
 * (out opened read-write; its window is ours), else through a buffer. Anything else (a pipe, a
 * device): aieth__copy. A short input is AIETH_EIO naming what_in. */
int aieth__copy_range(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, unsigned flags,
		      const char *what_in, const char *what_out);

/* A gate on one copy's output: another thread reads the bytes the copy
 * wrote, as soon as they are written (a check beside the copy, on the
 * very bytes written, not on an input that may change), waiting for
 * those not yet written. The copy posts its progress after each window;
 * the reader maps the output's windows (out opened read-write). */
typedef struct aieth_copy_gate aieth_copy_gate;

/* NULL when out of memory. */
aieth_copy_gate *aieth__copy_gate_new(void);
void aieth__copy_gate_free(aieth_copy_gate *g);

/* aieth__copy_range, posting to g (NULL: none; a gate serves one copy). */
int aieth__copy_range_gated(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h,
			    unsigned flags, const char *what_in, const char *what_out,
			    aieth_copy_gate *g);

/* No more bytes come (the writer is done, or failed before the copy):
 * a waiting reader returns. The owner calls it before it joins the
 * reader; any number of calls. */
void aieth__copy_gate_end(aieth_copy_gate *g);

/* Reader: wait until the copy started, its size in *n; -1 when it ended
 * without starting (or on an output that cannot be mapped). */
int aieth__copy_gate_size(aieth_copy_gate *g, uint64_t *n);

/* Reader: n bytes at off of the copied range, once written (an
 * aieth_pdi_read_fn, ctx the gate); non-zero (message set) when the copy
 * ended short of them or a window cannot be mapped. */
int aieth__copy_gate_read(void *g, void *buf, size_t n, uint64_t off);

/* After aieth__copy_gate_end: 0 when the copy wrote all its bytes at out
 * offset *base (its size *n) and every read of them succeeded. */
int aieth__copy_gate_result(const aieth_copy_gate *g, uint64_t *base, uint64_t *n);

/* Which way the copies of this process went, in bytes (the bench reads
 * them): shared by a reflink, copied in the kernel (copy_file_range, or
 * splice through a pipe: spliced, a part of kernel_copied), and copied
 * through a user-space buffer (read then write: counted once per byte
 * moved). */
typedef struct {
	uint64_t reflinked, kernel_copied, spliced, user_copied;
} aieth_copy_stats;

void aieth__copy_stats(aieth_copy_stats *s);

#endif /* AIETH_UTIL_COPY_H */
