/* SPDX-License-Identifier: MIT */
/*
 * util/trusted_dir.h - folders only their user can change (the PDI cache,
 * the upload spool): opened once, checked on the descriptor, then used
 * only through the *at() calls relative to it, so a check and its use are
 * the same object (OpenSSH's StrictModes, git's safe.directory).
 *
 * The rule, for every directory from / down to the folder: owned by root
 * or by us (the effective uid; root is uid 0) and writable by neither
 * group nor others - except that a root-owned sticky folder (/tmp, 1777)
 * is accepted as an ancestor, because in it others can neither rename nor
 * remove what is ours. A symbolic link on the way is followed only when
 * the link itself is root's or ours (its folder passed the rule); the
 * folder itself is ours, writable by group and others neither, and not a
 * symbolic link.
 */
#ifndef AIETH_UTIL_TRUSTED_DIR_H
#define AIETH_UTIL_TRUSTED_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/* Open path (absolute, or from the working folder) as a folder that keeps
 * the rule; *dirfd_out its descriptor (O_RDONLY, close-on-exec). create 1:
 * the missing components are made (mode 0700), each then checked like
 * the others. A component that breaks the rule: AIETH_EINVAL, the message
 * "<what> <path>: ..." naming the component, its owner uid and mode, and
 * what to do; a missing one (create 0): AIETH_ENOTFOUND. */
int aieth__dir_open_trusted(const char *path, int create, const char *what, int *dirfd_out);

/* A file opened from such a folder (O_NOFOLLOW) is one we may trust: a
 * regular file, ours, writable by group and others neither. AIETH_EINVAL
 * with "<what>: ..." otherwise. */
int aieth__fd_trusted(int fd, const char *what);

/* The folder's secret: 32 random bytes (getrandom) in the file name of
 * dirfd, mode 0600, made once (a temporary file created O_EXCL, linked
 * into place: a concurrent maker's key wins, and both use it). A key file
 * that is not ours, is readable or writable by others, or is not 32 bytes
 * is refused (AIETH_EINVAL, naming what). */
int aieth__dir_key(int dirfd, const char *name, const char *what, uint8_t key[32]);

/* Temporary files: a writer in such a folder makes a dot name with
 * ".tmp." in it (O_EXCL, 0600) and renames it into place; one whose writer
 * died stays. The file name of dirfd, as fstatat(AT_SYMLINK_NOFOLLOW) saw
 * it (*st), is removed (unlinkat) when it is such a temporary, a regular
 * file, ours, and not modified for more than max_age seconds before now
 * (a live writer's is younger). AIETH__TEMP_NOT: not a temporary's name;
 * AIETH__TEMP_KEPT: one, kept; AIETH__TEMP_REMOVED: one, removed. */
enum { AIETH__TEMP_NOT = 0, AIETH__TEMP_KEPT, AIETH__TEMP_REMOVED };
int aieth__dir_temp_sweep_one(int dirfd, const char *name, const struct stat *st, time_t now,
			      time_t max_age);

/* The same for every file of the folder dfd (listed through a new open
 * of the descriptor, never its path); *removed (may be NULL): how many.
 * AIETH_EIO when it cannot be listed ("<what>: ..."). */
int aieth__dir_temp_sweep(int dfd, time_t max_age, const char *what, size_t *removed);

#endif
