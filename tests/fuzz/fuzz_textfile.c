/* SPDX-License-Identifier: MIT */
/*
 * fuzz_textfile.c - libFuzzer target for harness/src/textfile.c.
 *
 * Input: the first byte picks the element type (byte % 13) and the data
 * limit (byte / 13 odd: 40 bytes, else 1 MiB); the rest is the text (not
 * NUL-terminated). Checked invariants:
 *  - a failure returns NULL/0 and a message starting with the file name;
 *  - a success returns 0 < len <= limit, a multiple of the element size;
 *  - the data formatted as text (aieth__text_format) parses back to the same
 *    bytes (integers exactly; floats exactly, NaN to some NaN), and
 *    formatting that again gives the same text.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "fuzz_check.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char what[] = "fuzz.txt";

/* Same bytes, where a NaN equals any NaN of the same width. */
static int same_data(aieth_elem t, const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i, w;
	if (!aieth__elem_is_float(t))
		return memcmp(a, b, len) == 0;
	w = t == AIETH_ELEM_DOUBLE ? 8 : 4;
	for (i = 0; i < len; i += w) {
		int na, nb;
		if (w == 8) {
			double x, y;
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			na = isnan(x);
			nb = isnan(y);
		} else {
			float x, y;
			memcpy(&x, a + i, 4);
			memcpy(&y, b + i, 4);
			na = isnan(x);
			nb = isnan(y);
		}
		if (na != nb || (!na && memcmp(a + i, b + i, w) != 0))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_elem t;
	size_t limit, len = 99, len2 = 0, tlen = 0, tlen2 = 0;
	uint8_t *out = (uint8_t *)&limit, *out2 = NULL;
	char *text = NULL, *text2 = NULL;
	int rc;

	if (size < 1 || size > (1u << 20))
		return 0;
	t = (aieth_elem)(data[0] % AIETH_ELEM_COUNT);
	limit = (data[0] / AIETH_ELEM_COUNT) % 2 ? 40 : (1u << 20);

	rc = aieth__text_parse(what, (const char *)data + 1, size - 1, t, limit, &out, &len);
	if (rc != AIETH_OK) {
		CHECK(rc == AIETH_EPARSE || rc == AIETH_EINVAL || rc == AIETH_ENOMEM);
		CHECK(out == NULL && len == 0);
		CHECK(strncmp(aieth_error_message(), what, sizeof what - 1) == 0);
		return 0;
	}
	CHECK(out != NULL);
	CHECK(len > 0 && len <= limit && len % aieth__elem_size(t) == 0);

	CHECK(aieth__text_format(t, out, len, &text, &tlen) == AIETH_OK);
	CHECK(text && strlen(text) == tlen);
	rc = aieth__text_parse(what, text, tlen, t, limit, &out2, &len2);
	if (rc != AIETH_OK)
		fprintf(stderr, "re-parse failed: %s\n", aieth_error_message());
	CHECK(rc == AIETH_OK);
	CHECK(len2 == len);
	CHECK(same_data(t, out, out2, len));
	CHECK(aieth__text_format(t, out2, len2, &text2, &tlen2) == AIETH_OK);
	CHECK(tlen2 == tlen && memcmp(text, text2, tlen) == 0);

	free(out);
	free(out2);
	free(text);
	free(text2);
	return 0;
}
