/* SPDX-License-Identifier: MIT */
/*
 * util/opts.h - the version check of a caller-filled struct (not installed).
 * Every public options struct starts with `unsigned int version`
 * (docs/api.md, "Versioned structs"); a call refuses a version it does not
 * know instead of reading past the caller's struct.
 */
#ifndef AIETH_UTIL_OPTS_H
#define AIETH_UTIL_OPTS_H

/* AIETH_OK when 1 <= version <= newest (every version up to the newest is
 * accepted: that is the promise), else AIETH_EINVAL with a message naming
 * where ("aieth_session_opts" or "aieth_session_opts.remote"), the value,
 * the versions known and how to initialise a struct of type (its INIT macro
 * and init function are named after it: aieth_remote_opts ->
 * AIETH_REMOTE_OPTS_INIT, aieth_remote_opts_init). */
int aieth__opts_version(const char *where, const char *type, unsigned int version,
			unsigned int newest);

/* The init functions' common part: opts non-NULL, version known (else
 * AIETH_EINVAL naming fn); the caller then copies its INIT value. */
int aieth__opts_init_check(const char *fn, const void *opts, unsigned int version,
			   unsigned int newest);

#endif
