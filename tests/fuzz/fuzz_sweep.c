/* SPDX-License-Identifier: MIT */
/*
 * fuzz_sweep.c - libFuzzer target for run_test's --sweep AXIS=LIST texts
 * (runner/sweep_axes.c). The input is up to 17 lines, each one --sweep
 * item (a first line "zip" or "grid" names the mode). Any input is either
 * read into axes or refused with a message; a read sweep has at most
 * SWEEP_MAX_POINTS points or is refused with its count, each value text
 * fits its buffer, and the names of its first and last points are built
 * with the length they say.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "runner/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *items[17], *p;
	size_t n = 0, points, a, i, idx[SWEEP_MAX_AXES];
	sweep_def *d = NULL;
	int rc;
	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; n < 17;) {
		char *nl = strchr(p, '\n');
		items[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	/* the first byte picks grid or zip, the rest are the texts */
	rc = aieth__rn_sweep_parse_args((const char *const *)items, n, size && (data[0] & 1), &d);
	if (rc) {
		CHECK(!d && aieth_error_message()[0]);
		free(text);
		return 0;
	}
	CHECK(d && d->nax >= 1 && d->nax <= SWEEP_MAX_AXES);
	for (a = 0; a < d->nax; a++) {
		CHECK(d->ax[a].nv >= 1 && d->ax[a].nv <= SWEEP_MAX_POINTS);
		for (i = 0; i < d->ax[a].nv; i++)
			CHECK(strlen(d->ax[a].v[i].text) < sizeof d->ax[a].v[i].text);
	}
	if (aieth__rn_sweep_count(d, &points) == 0) {
		char name[2048];
		size_t ends[2] = {0, points - 1}, e;
		CHECK(points >= 1 && points <= SWEEP_MAX_POINTS);
		for (e = 0; e < 2; e++) {
			size_t len;
			aieth__rn_sweep_point(d, ends[e], idx);
			for (a = 0; a < d->nax; a++)
				CHECK(idx[a] < d->ax[a].nv);
			len = aieth__rn_sweep_point_name(d, idx, "t", name, sizeof name);
			CHECK(len < sizeof name ? strlen(name) == len
						: strlen(name) == sizeof name - 1);
		}
	} else {
		CHECK(strstr(aieth_error_message(), "points") ||
		      strstr(aieth_error_message(), "zip"));
	}
	aieth__rn_sweep_free(d);
	free(text);
	return 0;
}
