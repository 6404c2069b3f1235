/*
 * xclbin_io.h - file helpers of the xclbin reader, writer and packager:
 * full reads/writes, streamed copies, and atomic output (a temporary file
 * in the target's directory, renamed over the target only when complete).
 */
#ifndef AIETH_XCLBIN_IO_H
#define AIETH_XCLBIN_IO_H

#include <stddef.h>
#include <stdint.h>

#include "xclbin_hash.h"

/* Copy buffer size: large enough for full disk speed, small next to the
 * payloads (a 64 MiB PDI is never held in memory). */
#define XB_IO_CHUNK (1u << 20)

typedef struct {
	int fd;
	char *tmp;    /* temporary path */
	char *path;   /* final path */
} xb_out;

/* Create the temporary file for `path` (mode 0666 less the umask). */
int xb_out_open(xb_out *o, const char *path);
/* Close and rename over the target; on failure the temporary is removed. */
int xb_out_commit(xb_out *o);
/* Close and remove the temporary (safe to call twice or after commit). */
void xb_out_abort(xb_out *o);

/* Read exactly n bytes at off; a short file is an error naming `what`. */
int xb_pread_full(int fd, void *buf, size_t n, uint64_t off, const char *what);
int xb_write_full(int fd, const void *buf, size_t n, const char *what);
/* Copy n bytes from in (at offset off) to the current position of out,
 * feeding them to h when not NULL. */
int xb_copy(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, const char *what_in,
	    const char *what_out);

#endif
