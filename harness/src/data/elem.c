/* SPDX-License-Identifier: MIT */
/* elem.c - element types of channel data: names, sizes, parts. */
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"

static const struct {
	const char *name;
	unsigned char size;  /* bytes per element, both parts of a complex one */
	unsigned char parts; /* 2 for complex types */
	unsigned char is_float;
} elems[AIETH_ELEM_COUNT] = {
	[AIETH_ELEM_INT8] = {"int8", 1, 1, 0},     [AIETH_ELEM_INT16] = {"int16", 2, 1, 0},
	[AIETH_ELEM_INT32] = {"int32", 4, 1, 0},   [AIETH_ELEM_INT64] = {"int64", 8, 1, 0},
	[AIETH_ELEM_UINT8] = {"uint8", 1, 1, 0},   [AIETH_ELEM_UINT16] = {"uint16", 2, 1, 0},
	[AIETH_ELEM_UINT32] = {"uint32", 4, 1, 0}, [AIETH_ELEM_UINT64] = {"uint64", 8, 1, 0},
	[AIETH_ELEM_FLOAT] = {"float", 4, 1, 1},   [AIETH_ELEM_DOUBLE] = {"double", 8, 1, 1},
	[AIETH_ELEM_CINT16] = {"cint16", 4, 2, 0}, [AIETH_ELEM_CINT32] = {"cint32", 8, 2, 0},
	[AIETH_ELEM_CFLOAT] = {"cfloat", 8, 2, 1},
};

static int valid(aieth_elem t) { return (unsigned)t < AIETH_ELEM_COUNT; }

int aieth__elem_parse(const char *name, aieth_elem *out)
{
	unsigned i;
	for (i = 0; name && i < AIETH_ELEM_COUNT; i++) {
		if (strcmp(name, elems[i].name) == 0) {
			if (out)
				*out = (aieth_elem)i;
			return AIETH_OK;
		}
	}
	return aieth__fail(
		AIETH_EINVAL,
		"unknown element type \"%.64s\" (valid: int8, int16, int32, int64, uint8, "
		"uint16, uint32, uint64, float, double, cint16, cint32, cfloat)",
		name ? name : "(null)");
}

const char *aieth__elem_name(aieth_elem t) { return valid(t) ? elems[t].name : "?"; }

size_t aieth__elem_size(aieth_elem t) { return valid(t) ? elems[t].size : 0; }

unsigned aieth__elem_parts(aieth_elem t) { return valid(t) ? elems[t].parts : 0; }

int aieth__elem_is_float(aieth_elem t) { return valid(t) ? elems[t].is_float : 0; }
