/* SPDX-License-Identifier: MIT */
/*
 * util/sysfs.h - reading kernel status files (not installed): the AI Engine
 * driver's tile status, SysMon and hwmon sensors. A status file may be
 * slow, huge or not what it claims (a FIFO in a test tree, a driver that
 * blocks), so every read is bounded in time and size and never blocks.
 */
#ifndef AIETH_UTIL_SYSFS_H
#define AIETH_UTIL_SYSFS_H

#include <stddef.h>

/* The folder standing in for /sys: $AIETH_SYSFS_ROOT when set and not
 * empty (tests), else "/sys". Never NULL. */
const char *aieth__sysfs_root(void);

/* Read root/rel into buf (cap >= 1 bytes, NUL-terminated; *len the bytes
 * read, *truncated 1 when the file holds more than cap-1 bytes; len and
 * truncated may be NULL). rel is relative ("bus/iio/devices/..."), no
 * ".." component. Opened O_RDONLY|O_NONBLOCK|O_CLOEXEC: a FIFO or a slow
 * file is waited for with poll() at most deadline_ms in all (then
 * AIETH_ETIMEOUT); a file that is neither regular nor a FIFO (a folder, a
 * device): AIETH_EINVAL; missing: AIETH_ENOTFOUND; other failures
 * AIETH_EIO. Messages name the path. */
int aieth__sysfs_read(const char *rel, char *buf, size_t cap, size_t *len, int *truncated,
		      int deadline_ms);

/* Call each(ctx, name) for the entries of the folder root/rel ("." and
 * ".." left out), sorted by name, at most max of them. Returns the number
 * of entries reported (>= 0), or AIETH_ENOTFOUND / AIETH_EINVAL (not a
 * folder) / AIETH_EIO / AIETH_ENOMEM naming the path. */
int aieth__sysfs_list(const char *rel, void (*each)(void *ctx, const char *name), void *ctx,
		      size_t max);

#endif /* AIETH_UTIL_SYSFS_H */
