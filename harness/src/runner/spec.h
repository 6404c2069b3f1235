/* SPDX-License-Identifier: MIT */
/*
 * spec.h - a parsed test description (docs/test-spec.md), not installed.
 * Everything here has been checked against the schema; board-dependent
 * checks (PLIO names, sizes) happen in the runner, which knows the board.
 */
#ifndef AIETH_SPEC_H
#define AIETH_SPEC_H

#include <stdint.h>

#include "aieth.h"
#include "data/data.h"
#include "util/stats.h"

/* The longest name of a test, graph or transaction, in characters (UTF-8
 * code points, as JSON Schema's maxLength counts): SQUAD's limit for its
 * suite and test names (Django CharField max_length=256; th_server takes
 * graph names of SRV_NAME_MAX = 256 bytes); every writer takes a name this
 * long whole. */
#define SPEC_NAME_MAX 256

typedef enum { SRC_NONE, SRC_BINARY, SRC_TEXT, SRC_PATTERN } spec_src_kind;

/* Where a channel's bytes come from or go to. */
typedef struct {
	spec_src_kind kind;
	char *path;  /* resolved file path (SRC_BINARY / SRC_TEXT) */
	char *given; /* the path as written in the description */
	int have_type;
	aieth_elem type;   /* text files, patterns; optional for binary */
	aieth_pattern pat; /* SRC_PATTERN */
} spec_src;

typedef struct {
	char jpath[96]; /* "transactions[0].channels[3]" */
	char plio[32];
	int have_size;
	uint64_t size;
	uint64_t repetition;
	uint64_t delay;
	spec_src data;   /* TO_AIE: what to send */
	spec_src golden; /* FROM_AIE: what to expect */
	double abs_tol, rel_tol;
	spec_src save; /* FROM_AIE: where to write what arrived */
	int have_tiling;
	aieth_tiling tiling;
	int have_min_mbps;
	double min_mbps; /* threshold: minimum throughput, MB/s */
} spec_chan;

typedef struct {
	char from[32], to[32];
	uint64_t max_cycles;
} spec_latency;

/* "regression": tolerances of the baseline comparison in percent
 * (docs/farm.md); a negative value is "not given" (the default applies). */
typedef struct {
	int have;
	double throughput_pct, latency_pct, cycles_pct;
} spec_regression;

/* "repeat": each transaction runs warmup + runs times in the session, the
 * statistic (default median) is the one thresholds and baselines use. At
 * most SPEC_REPEAT_MAX runs in all (runs + warmup): every run's figures
 * are kept in the report. */
#define SPEC_REPEAT_MAX 100000u
typedef struct {
	int have;
	uint32_t runs, warmup;
	aieth__stat statistic;
} spec_repeat;

typedef struct {
	char jpath[48];
	char *name;
	aieth_mode mode;
	int have_timeout;
	uint32_t timeout_ms;
	spec_chan *ch;
	size_t nch;
	spec_latency *lat;
	size_t nlat;
	spec_regression regr; /* overrides the test's */
} spec_txn;

typedef struct {
	char *name;
	int64_t iterations; /* AIETH_ITERATIONS_FOREVER or >= 0 */
	char *model;        /* NULL: backend default */
	char *params;       /* JSON object text or NULL */
} spec_graph;

struct aieth_spec {
	char *path; /* as given */
	char *dir;  /* its folder: relative inputs resolve here */
	char *name;
	char *description;
	char *board;
	char *backend;   /* NULL: emu */
	char *xclbin;    /* resolved path or NULL */
	char *pl_xclbin; /* xrt: the PL kernel's xclbin (NULL: board default) */
	spec_graph *graphs;
	size_t ngraphs;
	spec_txn *txns;
	size_t ntxns;
	spec_regression regr;
	struct sweep_def_s *sweep; /* "sweep" (runner/sweep.h) or NULL */
	spec_repeat repeat;        /* runs 1, warmup 0, median when not given */
};

#endif
