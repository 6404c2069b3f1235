/* SPDX-License-Identifier: MIT */
/*
 * aieth/spec.h - test descriptions (docs/test-spec.md).
 */
#ifndef AIETH_PUBLIC_SPEC_H
#define AIETH_PUBLIC_SPEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A test description (docs/test-spec.md): board, graphs, transactions,
 * channel data, golden data, thresholds. */
typedef struct aieth_spec aieth_spec;

/* Parse and check a description file; relative input paths resolve against
 * its folder. Board-dependent checks happen when it runs. */
int aieth_spec_load(aieth_spec **out, const char *path);
/* The same from text; what names it in messages, base_dir resolves paths. */
int aieth_spec_parse(aieth_spec **out, const char *what, const char *text, size_t len,
		     const char *base_dir);
void aieth_spec_free(aieth_spec *spec);
const char *aieth_spec_name(const aieth_spec *spec);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_SPEC_H */
