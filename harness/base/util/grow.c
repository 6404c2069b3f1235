/* SPDX-License-Identifier: MIT */
/*
 * util/grow.c - room for one more element of a growable array (util/grow.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int aieth__grow(void *pp, size_t *cap, size_t need, size_t elem, size_t first, size_t max)
{
	void *p, *np;
	size_t c = *cap ? *cap : (first ? first : 1);
	if (need <= *cap)
		return 0;
	if (max && need > max)
		return -1;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (max && c > max)
		c = max;
	if (!elem || c > SIZE_MAX / elem)
		return -1;
	/* the pointer is read and written through memcpy: pp may point to any
	 * object pointer type, which has void *'s representation */
	memcpy(&p, pp, sizeof p);
	if (!(np = realloc(p, c * elem)))
		return -1;
	memcpy(pp, &np, sizeof np);
	*cap = c;
	return 0;
}
