/* SPDX-License-Identifier: MIT */
/*
 * xclbin_text.h - the XML and JSON text sections as XRT's tools read them
 * (xclbin_text.c). Not installed.
 */
#ifndef AIETH_XCLBIN_TEXT_H
#define AIETH_XCLBIN_TEXT_H

#include <stddef.h>

/* 0 when len bytes of text (up to a NUL) read as XML the way boost
 * property_tree's read_xml does (at least one element, every element
 * closed, attributes quoted; closing names are not compared); else -1
 * with why (cap bytes) saying what and where. */
int aieth__xml_check(const char *text, size_t len, char *why, size_t cap);

/* 0 when the text (up to a NUL) is one JSON object with a key
 * "build_metadata"; else -1 with why. */
int aieth__build_metadata_check(const char *text, size_t len, char *why, size_t cap);

#endif
