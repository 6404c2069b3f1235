/* SPDX-License-Identifier: MIT */
/*
 * suggest.c - "did you mean": the closest known name to a mistyped one.
 */
#include "util/suggest.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

unsigned aieth__edit_distance(const char *a, const char *b)
{
	/* three rows of the dynamic programme: two back for the swaps */
	unsigned r0[AIETH_SUGGEST_MAX + 1], r1[AIETH_SUGGEST_MAX + 1], r2[AIETH_SUGGEST_MAX + 1];
	unsigned *pp = r0, *p = r1, *c = r2, *t;
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > AIETH_SUGGEST_MAX || lb > AIETH_SUGGEST_MAX)
		return UINT_MAX;
	for (j = 0; j <= lb; j++)
		p[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		c[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned cost =
				lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
			unsigned v = p[j - 1] + cost;
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    lower((unsigned char)a[i - 1]) == lower((unsigned char)b[j - 2]) &&
			    lower((unsigned char)a[i - 2]) == lower((unsigned char)b[j - 1]) &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

void aieth__suggest_init(aieth_suggest *s, const char *word)
{
	s->word = word ? word : "";
	s->best[0] = '\0';
	s->dist = UINT_MAX;
	s->ties = 0;
}

void aieth__suggest_add(aieth_suggest *s, const char *cand)
{
	unsigned d;
	if (!cand || !strcmp(cand, s->word) || !strcmp(cand, s->best))
		return;
	d = aieth__edit_distance(s->word, cand);
	if (d == UINT_MAX)
		return;
	if (d < s->dist) {
		s->dist = d;
		s->ties = 0;
		snprintf(s->best, sizeof s->best, "%s", cand);
	} else if (d == s->dist) {
		s->ties = 1;
	}
}

const char *aieth__suggest_best(const aieth_suggest *s)
{
	size_t len = strlen(s->word);
	unsigned lim = (unsigned)(len / 3);
	if (lim < 1)
		lim = 1;
	if (lim > 3)
		lim = 3;
	if (s->dist == UINT_MAX || s->ties || s->dist > lim)
		return NULL;
	return s->best;
}

const char *aieth__suggest_text(char *out, size_t cap, const aieth_suggest *s)
{
	const char *b = aieth__suggest_best(s);
	char q[AIETH_QUOTE_CAP];
	if (cap == 0)
		return out;
	out[0] = '\0';
	if (b)
		snprintf(out, cap, "; did you mean \"%s\"?", aieth__quote_str(q, sizeof q, b));
	return out;
}

const char *aieth__suggest_list(char *out, size_t cap, const char *word, const char *const *cands)
{
	aieth_suggest s;
	aieth__suggest_init(&s, word);
	for (; cands && *cands; cands++)
		aieth__suggest_add(&s, *cands);
	return aieth__suggest_text(out, cap, &s);
}
