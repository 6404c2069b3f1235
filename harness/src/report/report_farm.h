/* SPDX-License-Identifier: MIT */
/*
 * report_farm.h - the report as a flat list of farm result cases (one per
 * channel, transaction, latency check and test), shared by the LAVA signal
 * and TAP writers so both say the same thing (docs/farm.md).
 */
#ifndef AIETH_REPORT_FARM_H
#define AIETH_REPORT_FARM_H

#include <stddef.h>

#include "report/report_model.h"

/* Longest test case id written (longer ones are cut): LAVA keeps ids as
 * database names; 128 leaves room in every known limit. */
#define AIETH_FARM_ID_MAX 128

typedef enum {
	AIETH_FARM_SET_START, /* a test begins: id is the test's name */
	AIETH_FARM_CHANNEL,   /* <test>.<transaction>.<PLIO>, throughput */
	AIETH_FARM_LATENCY,   /* <test>.<transaction>.latency.<from>.<to>, cycles */
	AIETH_FARM_TXN,       /* <test>.<transaction>, total cycles */
	AIETH_FARM_TEST,      /* <test>, duration */
	AIETH_FARM_SET_STOP   /* the test's cases are done */
} aieth_farm_kind;

typedef struct {
	aieth_farm_kind kind;
	const char *id;      /* sanitized (aieth__farm_id) */
	const char *result;  /* pass, fail, skip, unknown (LAVA's words) */
	int has_measurement; /* measurement and units are set */
	double measurement;
	const char *units;
	struct json_object *test, *txn, *item; /* item: channel, latency or NULL */
} aieth_farm_case;

typedef void (*aieth_farm_fn)(void *ctx, const aieth_farm_case *c);

/* Every case of every test, in report order, set start/stop around each
 * test's cases. */
void aieth__farm_walk(const aieth_report *r, aieth_farm_fn fn, void *ctx);

/* A LAVA test case id from any text: bytes A-Z a-z 0-9 . _ - are kept,
 * every other byte (white space, '=', '<', '>', '/', '#', control and
 * non-ASCII bytes) becomes '_', an empty text is "_"; at most n-1 bytes
 * (n > 1). Returns the length written. */
size_t aieth__farm_id(char *dst, size_t n, const char *s);

#endif
