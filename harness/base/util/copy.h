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
 * reflink, else copy_file_range in windows of 8 MiB (EINTR retried, short
 * copies continued; EXDEV, ENOSYS, EOPNOTSUPP, EINVAL and the like fall
 * back to read/write for the rest); h is fed once a window is copied,
 * from the input's pages when AIETH_COPY_STABLE, else from the output's
 * (out opened read-write; its window is ours), else through a buffer. Anything else (a pipe, a
 * device): aieth__copy. A short input is AIETH_EIO naming what_in. */
int aieth__copy_range(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, unsigned flags,
		      const char *what_in, const char *what_out);

/* Which way the copies of this process went, in bytes (the bench reads
 * them): shared by a reflink, copied by copy_file_range in the kernel,
 * and copied through a user-space buffer (read then write: counted once
 * per byte moved). */
typedef struct {
	uint64_t reflinked, kernel_copied, user_copied;
} aieth_copy_stats;

void aieth__copy_stats(aieth_copy_stats *s);

#endif /* AIETH_UTIL_COPY_H */
