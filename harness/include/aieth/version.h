/* SPDX-License-Identifier: MIT */
/*
 * aieth/version.h - the library's version.
 */
#ifndef AIETH_PUBLIC_VERSION_H
#define AIETH_PUBLIC_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_VERSION_MAJOR 0
#define AIETH_VERSION_MINOR 1
#define AIETH_VERSION_PATCH 0
#define AIETH_VERSION_STRING "0.1.0"

/* The library version string, e.g. "0.1.0". */
const char *aieth_version(void);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_VERSION_H */
