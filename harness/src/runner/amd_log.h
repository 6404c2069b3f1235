/* SPDX-License-Identifier: MIT */
/*
 * amd_log.h - the printPerf lines of AMD's AI-Engine-Test-Harness in a log
 * (run_test calibrate takes such a log where it takes a board report). The
 * wording is AMD's test_harness_transactions::printPerf
 * (include/ps/test_harness_transaction.hpp) and its logger's prefix
 * (include/ps/test_harness_logging.hpp) in github.com/Xilinx/AI-Engine-Test-Harness:
 *
 *   [2026-01-01 12:00:00] [INFO] PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[2048], and the throughputs is 2384.19 MBps.
 *   [2026-01-01 12:00:00] [INFO] PLIO_2_FROM_AIE received the first data at cycle[40], ends at cycle[2090], and the throughputs is 2379.54 MBps.
 *
 * Channel numbers are not zero-padded (PLIO_1, where our PLIO names say
 * PLIO_01); "MBps" is MiB/s: bytes x 312.5e6 / (last - first) / 2^20,
 * printed with iostream's 6 significant digits ("inf" when last == first).
 * The parser keeps the events in order; which transaction and channel each
 * belongs to is decided against a description (calibrate_log.c).
 */
#ifndef AIETH_RUNNER_AMD_LOG_H
#define AIETH_RUNNER_AMD_LOG_H

#include <stddef.h>
#include <stdint.h>

#define AMD_LOG_MAX_FILE (64u << 20) /* bytes; checked before reading */
#define AMD_LOG_MAX_EVENTS 100000u   /* printPerf lines and warnings */
#define AMD_LOG_MAX_CHANNEL 999u     /* no board has more; AMD's are <= 36 */

enum {
	AMD_EV_PERF,       /* a channel's printPerf line */
	AMD_EV_TIMEOUT,    /* "... not available due to timeout." */
	AMD_EV_UNFINISHED, /* "... not finished yet." */
};

typedef struct {
	int kind;
	size_t line;   /* 1-based */
	int rx;        /* PERF: 1 FROM_AIE ("received"), 0 TO_AIE ("send") */
	unsigned chan; /* PERF: AMD's channel number, 1-based */
	uint64_t first, last;
	double mibps; /* PERF: as printed (AMD's "MBps"); INFINITY for "inf" */
	/* The first line since the previous event that is neither blank nor
	 * carries AMD's logger prefix ("[date time] [LEVEL] "); 0: none. Such
	 * a line inside one transaction's printPerf block is an error, between
	 * blocks it is the program's own output and skipped. */
	size_t foreign_line;
} amd_log_ev;

typedef struct amd_log_s {
	amd_log_ev *ev;
	size_t n;
	size_t lines; /* lines in the file */
} aieth__amd_log;

/* Whether text is a JSON document rather than a log: its first character
 * other than white space (and a UTF-8 byte-order mark) is '{'. */
int aieth__amd_log_is_json(const char *text, size_t len);

/* Parse text (len bytes, path for messages). Refused (AIETH_EINVAL, the
 * message "path:line: ..."): more than AMD_LOG_MAX_FILE bytes, a NUL byte, a
 * line that has AMD's printPerf shape ("PLIO_" ... "first data at cycle[")
 * but not its exact wording, a zero-padded or out-of-range channel number, a
 * counter above 2^64-1, a throughput that is not a number or "inf", more
 * than AMD_LOG_MAX_EVENTS events, and a log with no event at all. On
 * success *out holds the events (free with aieth__amd_log_free); on
 * failure it is empty. */
int aieth__amd_log_parse(const char *path, const char *text, size_t len, aieth__amd_log *out);
void aieth__amd_log_free(aieth__amd_log *l);

#endif
