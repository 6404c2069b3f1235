/* SPDX-License-Identifier: MIT */
/*
 * suggest.h - "did you mean" for a name that is not one of a known set
 * (not installed): the closest candidate by edit distance, when it is
 * close and the only one that close.
 */
#ifndef AIETH_UTIL_SUGGEST_H
#define AIETH_UTIL_SUGGEST_H

#include <stddef.h>

/* Longest word or candidate compared; longer ones are never suggested (a
 * typo of a name is about as long as the name). */
#define AIETH_SUGGEST_MAX 63u

typedef struct aieth_suggest {
	const char *word; /* what was given */
	char best[AIETH_SUGGEST_MAX + 1];
	unsigned dist; /* best's distance; UINT_MAX before any */
	int ties;      /* another candidate as close as best */
} aieth_suggest;

/* Start looking for the candidate closest to word. */
void aieth__suggest_init(aieth_suggest *s, const char *word);
/* Consider one candidate (copied: it may be a scratch buffer). */
void aieth__suggest_add(aieth_suggest *s, const char *cand);
/* The closest candidate when it is close (edit distance, case aside, at most
 * a third of the word's length, at least 1, at most 3; a case difference
 * alone counts as close) and no other candidate is as close; else NULL. */
const char *aieth__suggest_best(const aieth_suggest *s);
/* `; did you mean "BEST"?` (best quoted for a message) in out, or "" when
 * there is no suggestion. Returns out. */
const char *aieth__suggest_text(char *out, size_t cap, const aieth_suggest *s);
/* The same over a NULL-terminated list. */
const char *aieth__suggest_list(char *out, size_t cap, const char *word, const char *const *cands);

/* Optimal string alignment distance (insertions, deletions, substitutions
 * and swaps of adjacent characters, each 1; ASCII case ignored) of a and b;
 * UINT_MAX when either is longer than AIETH_SUGGEST_MAX. */
unsigned aieth__edit_distance(const char *a, const char *b);

#endif
