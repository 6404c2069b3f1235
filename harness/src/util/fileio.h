/*
 * util/fileio.h - files (not installed): whole-file reads, full reads and
 * writes, streamed copies, and atomic output (a temporary file renamed over
 * the target only when complete, so a failed write never leaves half a
 * file).
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
int aieth_open_input(const char *path, int *fd_out, struct stat *st_out);

/* Read a whole file into a NUL-terminated buffer *out (caller frees).
 * Returns AIETH_OK, or AIETH_EIO / AIETH_EINVAL (larger than max_bytes) /
 * AIETH_ENOMEM with the message naming path; *out is then NULL. */
int aieth_read_file(const char *path, size_t max_bytes, char **out, size_t *len_out);

/* Write len bytes to path atomically: "<path>.tmp.<pid>", flushed, renamed
 * over path. On failure nothing is left behind and path is unchanged. */
int aieth_write_atomic(const char *path, const void *data, size_t len);

/* Streamed atomic output. */
typedef struct {
	int fd;
	char *tmp;    /* temporary path */
	char *path;   /* final path */
} aieth_out;

/* Create the temporary file for `path` (mode 0666 less the umask). */
int aieth_out_open(aieth_out *o, const char *path);
/* Close and rename over the target; on failure the temporary is removed. */
int aieth_out_commit(aieth_out *o);
/* Close and remove the temporary (safe to call twice or after commit). */
void aieth_out_abort(aieth_out *o);

/* Read exactly n bytes at off; a short file is an error naming `what`. */
int aieth_pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what);
int aieth_write_full(int fd, const void *buf, size_t n, const char *what);
/* Copy n bytes from in (at offset off) to the current position of out,
 * feeding them to h when not NULL. */
int aieth_copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
	       const char *what_out);

#endif /* AIETH_UTIL_FILEIO_H */
