/* SPDX-License-Identifier: MIT */
/*
 * util/opts.h - the version check of a caller-filled struct (not installed).
 * Every public options struct starts with `unsigned int version`
 * (docs/api.md, "Versioned structs"); a call refuses a version it does not
 * know instead of reading past the caller's struct.
 */
#ifndef AIETH_UTIL_OPTS_H
#define AIETH_UTIL_OPTS_H

#include <stddef.h>

/* AIETH_OK when 1 <= version <= newest (every version up to the newest is
 * accepted: that is the promise), else AIETH_EINVAL with a message naming
 * where ("aieth_session_opts" or "aieth_session_opts.remote"), the value,
 * the versions known and how to initialise a struct of type (its INIT macro
 * and init function are named after it: aieth_remote_opts ->
 * AIETH_REMOTE_OPTS_INIT, aieth_remote_opts_init). */
int aieth__opts_version(const char *where, const char *type, unsigned int version,
			unsigned int newest);

/* Every aieth_*_opts_init: opts non-NULL and version known (else
 * AIETH_EINVAL naming fn), then *opts = *init, size bytes: the INIT
 * value's padding too, so INIT and init give the same bytes. */
int aieth__opts_init(const char *fn, void *opts, const void *init, size_t size,
		     unsigned int version, unsigned int newest);

/* Defines type##_init (declared in the public header) over aieth__opts_init.
 * It ends in that function's declaration, so a use is written as a
 * statement, `AIETH__OPTS_INIT_FN(...);`, and ctags-style tools (which do
 * not expand macros) still see the definition that follows it. */
#define AIETH__OPTS_INIT_FN(type, init_value, newest)                                              \
	int type##_init(type *opts, unsigned int version)                                          \
	{                                                                                          \
		static const type init = init_value;                                               \
		return aieth__opts_init(#type "_init", opts, &init, sizeof init, version, newest); \
	}                                                                                          \
	int type##_init(type *opts, unsigned int version)

#endif
