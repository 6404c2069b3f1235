/* SPDX-License-Identifier: MIT */
/*
 * util/fileio.h - files (not installed): whole-file reads, full reads and
 * writes, streamed copies, inputs opened without blocking, and outputs that
 * never clobber (a temporary file renamed over the output's name only when
 * complete, a link there replaced, never followed; a device or FIFO written
 * in place).
 */
#ifndef AIETH_UTIL_FILEIO_H
#define AIETH_UTIL_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "util/hash.h"

/* Copy buffer size: large enough for full disk speed, small next to the
 * payloads (a 64 MiB PDI is never held in memory). */
#define AIETH_IO_CHUNK (1u << 20)

/* Open an input file for reading without ever blocking: a FIFO, a device
 * or a directory is refused (AIETH_EIO naming what it is) before anything
 * is read. *fd_out: the descriptor (blocking, close-on-exec), -1 on
 * failure; *st_out (may be NULL) its fstat. */
int aieth__open_input(const char *path, int *fd_out, struct stat *st_out);

/* The SHA-256 of a whole input file (opened as aieth__open_input does) as
 * hex, read in AIETH_IO_CHUNK pieces (memory bounded whatever its size);
 * *size (may be NULL) gets its length. */
int aieth__file_sha256(const char *path, char hex[65], uint64_t *size);

/* A scratch file: read-write, in $TMPDIR (else /tmp), already unlinked so
 * it is gone when *fd_out is closed, whatever happens to the process. */
int aieth__open_scratch(int *fd_out);

/* Remove dir and everything in it (rm -rf of a scratch folder of ours):
 * links are removed, never followed; what cannot be removed stays. */
void aieth__remove_tree(const char *dir);

/* Read a whole file into a NUL-terminated buffer *out (caller frees).
 * Returns AIETH_OK, or AIETH_EIO / AIETH_EINVAL (larger than max_bytes) /
 * AIETH_ENOMEM with the message naming path; *out is then NULL. */
int aieth__read_file(const char *path, size_t max_bytes, char **out, size_t *len_out);

/* Output files. One mechanism for every writer. The output's folder is
 * opened once, as named (links in the folder's own path are the caller's
 * choice); its NAME is looked at without following it (fstatat with
 * AT_SYMLINK_NOFOLLOW), and what is there decides:
 * - nothing, or a regular file: a temporary file in that folder
 *   (".<name>.tmp.<pid>.<n>", O_EXCL|O_NOFOLLOW), flushed and renamed over
 *   the name on commit (renameat in the folder, which is flushed too); on
 *   failure the temporary is removed and the old file left as it was;
 * - a symbolic link: REPLACED by the new file, its target never written;
 *   except a link owned by you or by root whose target (read from that
 *   very link) is a character or block device, a FIFO or a socket, which
 *   is written in place as below (your own link to /dev/null or a FIFO);
 *   a link owned by you or root to a directory is an error as a directory;
 * - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N and
 *   /proc/thread-self/fd/N (the path as given): your own open file,
 *   written through, in place; a regular file behind one is appended to;
 * - a character or block device, a FIFO, a socket (/dev/null, a tty, a
 *   pipe): written in place, never renamed over, never removed, not
 *   flushed; a FIFO nothing reads from is an error at once (AIETH_EIO),
 *   never a wait;
 * - a directory, or a name ending in "/", "." or "..": AIETH_EINVAL
 *   naming it;
 * - an empty path: AIETH_EINVAL.
 * So a link planted at an output's name in a folder others may write never
 * makes a writer replace the file it points to. */
typedef struct {
	int fd;
	char *tmp;    /* the temporary's path (folder/name); NULL when in place */
	char *path;   /* the output as named (messages); fileio.c keeps the
		       * folder's descriptor and the name in the same block */
	int in_place; /* 1: fd is the target itself (no rename) */
	int no_flush; /* 1 (set after aieth__out_open): commit without fsync,
		       * for a file nothing needs after a crash (a scratch file) */
} aieth_out;

/* Open the output for `path` (mode 0666 less the umask when created; a
 * temporary file is opened read-write, so copies into it can be hashed
 * from its pages). */
int aieth__out_open(aieth_out *o, const char *path);
/* The same for `name` (one plain name, no '/') in the folder open on dirfd
 * (not taken: o keeps its own copy); `path` names it in messages. For a
 * writer of many files in one folder, opened once (O_NOFOLLOW where the
 * folder is the writer's own). */
int aieth__out_openat(aieth_out *o, int dirfd, const char *name, const char *path);
/* Write n bytes (a failure names the target). */
int aieth__out_write(aieth_out *o, const void *buf, size_t n);
/* Flush, close and rename over the target (in place: close); on failure the
 * temporary is removed. Always releases o. */
int aieth__out_commit(aieth_out *o);
/* Close and remove the temporary (safe to call twice or after commit). */
void aieth__out_abort(aieth_out *o);

/* Write len bytes to path through aieth_out: the target is replaced only
 * when complete, or written in place when it is a device or FIFO. */
int aieth__write_atomic(const char *path, const void *data, size_t len);
/* The same for name in the folder open on dirfd (aieth__out_openat). */
int aieth__write_atomicat(int dirfd, const char *name, const char *path, const void *data,
			  size_t len);

/* Open (creating it, 0777 less the umask) the folder `name` inside the
 * folder open on dirfd, never through a symbolic link: a link or other
 * file at the name is AIETH_EIO naming `path`. *fd_out: O_DIRECTORY,
 * close-on-exec. For a folder a writer makes itself in an output folder
 * others may write (artifacts/, charts/). */
int aieth__subdir_open(int dirfd, const char *name, const char *path, int *fd_out);
/* The same for the last component of path, in its parent folder opened as
 * named (path "OUT/artifacts": OUT as named, artifacts never a link). */
int aieth__subdir_open_path(const char *path, int *fd_out);

/* An output a test description names below the folder the run writes in
 * (a "save" file: rel below base, the output folder). base is opened as
 * named (the user's: links in its path are followed); each folder of rel
 * is then reached from it one name at a time, never through a symbolic
 * link (O_NOFOLLOW|O_DIRECTORY; created 0777 less the umask when missing):
 * a link or other file there is AIETH_EIO naming it, nothing written; a
 * ".." folder is AIETH_EINVAL (rel never leaves base). The file itself as
 * aieth__out_openat; messages name base/rel. An absolute rel (or no base)
 * is the user's own path: aieth__out_open. */
int aieth__out_open_below(aieth_out *o, const char *base, const char *rel);
/* aieth__write_atomic through aieth__out_open_below. */
int aieth__write_atomic_below(const char *base, const char *rel, const void *data, size_t len);

/* Read exactly n bytes at off; a short file is an error naming `what`. */
int aieth__pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what);
int aieth__write_full(int fd, const void *buf, size_t n, const char *what);

/* Copy n bytes from in (at offset off) to the current position of out,
 * feeding them to h when not NULL. */
int aieth__copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
		const char *what_out);

#endif /* AIETH_UTIL_FILEIO_H */
