/* SPDX-License-Identifier: MIT */
/*
 * util/path.h - paths, the data directory, string copies (not installed).
 */
#ifndef AIETH_UTIL_PATH_H
#define AIETH_UTIL_PATH_H

#include <stddef.h>

/* The data directory, the one rule of every program and of the library:
 * explicit, else $AIETH_DATA_DIR, else next to the running program, else
 * next to the shared library (<dir>/../share/aieth when installed, the
 * source tree for build/bin, build/lib, build/tests: the first with a
 * platforms/ folder), else the built-in AIETH_DATADIR. Never NULL. */
const char *aieth__data_dir(const char *explicit_dir);

/* Join dir and rel into a newly allocated path; rel absolute is returned as
 * a copy. NULL on allocation failure. */
char *aieth__path_join(const char *dir, const char *rel);
/* Directory part of path (newly allocated; "." when there is none). */
char *aieth__path_dirname(const char *path);

/* The bytes of a plain name (a file, token or board-side name): A-Z a-z
 * 0-9 . _ - */
int aieth__name_char(unsigned char c);
/* name is 1..max plain-name bytes and does not start with '.' (not ".",
 * "..", nor a hidden or temporary file): never a path. */
int aieth__name_ok(const char *name, size_t max);

/* A malloc'd copy of s (NULL for NULL or on allocation failure). */
char *aieth__strdup(const char *s);

#endif /* AIETH_UTIL_PATH_H */
