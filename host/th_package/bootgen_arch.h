/* SPDX-License-Identifier: MIT */
/*
 * bootgen_arch.h - which `-arch` values the bootgen in use supports, read
 * from its own `bootgen -help arch` table. Not installed.
 */
#ifndef AIETH_BOOTGEN_ARCH_H
#define AIETH_BOOTGEN_ARCH_H

#include <stddef.h>

/* Most bytes of `-help arch` output read (AMD's table is about 2 KiB). */
#define AIETH_BOOTGEN_HELP_MAX (64u * 1024u)
/* Time limit for `bootgen -help arch` in seconds. */
#define AIETH_BOOTGEN_HELP_TIMEOUT 30.0

/* The architecture names of the ARGUMENTS rows of a `-help arch` table
 * ("*zynq : Image is ...", "versal_2ve_2vm : Image is ..."), written
 * comma-separated to list (cap bytes, at least 1). Returns how many were
 * found; 0 when text has no such table. */
size_t aieth__bootgen_arch_parse(const char *text, size_t len, char *list, size_t cap);

/* 1 when `arch` is one of the comma-separated names of list. */
int aieth__bootgen_arch_listed(const char *list, const char *arch);

/* Run `tool -help arch` (stdin /dev/null, stdout and stderr captured, at
 * most AIETH_BOOTGEN_HELP_MAX bytes, killed with its process group after
 * timeout_s seconds) and parse its table into list. AIETH_OK, also when
 * the table is missing (list is then ""); AIETH_EUNSUPPORTED when the
 * program cannot be started, AIETH_ETIMEOUT past the limit. */
int aieth__bootgen_arch_query(const char *tool, double timeout_s, char *list, size_t cap);

#endif
