/* SPDX-License-Identifier: MIT */
/*
 * aieth/version.h - the library's version.
 *
 * The one place it is written: the Makefile reads AIETH_VERSION_STRING for
 * the library's file name, its soname (libaieth.so.0.MINOR before 1.0,
 * libaieth.so.MAJOR after) and aieth.pc; reports and th_server say
 * aieth_version(); the Python package's __version__ is tested against it
 * (docs/api.md, "Stability"; CHANGELOG.md says what each version changed).
 */
#ifndef AIETH_PUBLIC_VERSION_H
#define AIETH_PUBLIC_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_VERSION_MAJOR 0
#define AIETH_VERSION_MINOR 3
#define AIETH_VERSION_PATCH 0
#define AIETH_VERSION_STRING "0.3.0"

/* The library version string, e.g. "0.3.0". */
const char *aieth_version(void);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_VERSION_H */
