/* SPDX-License-Identifier: MIT */
/*
 * xsa.h - reading the precompiled XSA (a zip archive) for the packager:
 * its required metadata members, the platform identity from xsa.json and
 * the device IDCODE from its device image (.pdi). Not installed.
 */
#ifndef AIETH_XSA_H
#define AIETH_XSA_H

#include <stddef.h>
#include <stdint.h>

/* Largest xsa.json read into memory. */
#define AIETH_XSA_MAX_JSON (16u << 20)

typedef struct {
	char vbnv[64];   /* "" when xsa.json does not state one */
	char name[128];  /* xsa.json "name", or "" */
	char board[128]; /* xsa.json "board"/"board_id", or "" */
	char part[128];  /* xsa.json "part"/"partName", or "" */
	int has_id_code;
	uint32_t id_code, ext_id_code;
	char pdi_member[256]; /* where the IDCODE came from */
	size_t num_members;
} aieth_xsa_info;

/* Read an XSA file. Members xsa.json, xsa.xml and sysdef.xml are required;
 * a missing or malformed member is an error naming the archive and member. */
int aieth__xsa_read(aieth_xsa_info *out, const char *path);
/* The same from memory (`what` names it in messages): the fuzz target. */
int aieth__xsa_read_mem(aieth_xsa_info *out, const char *what, const void *data, size_t len);

#endif
