/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_clock.h - th_server's monotonic clock in ms, and the
 * deadline of a bounded wait on a condition variable (srv_core.c,
 * srv_stream.c, amd/amd_txn.c): inline, so that the files that tell the
 * time or wait need no call into each other.
 */
#ifndef AIETH_SERVER_SRV_CLOCK_H
#define AIETH_SERVER_SRV_CLOCK_H

#include <stdint.h>
#include <time.h>

/* ms of CLOCK_MONOTONIC: ages and idle times, never a date. */
static inline int64_t srv_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ms from now on clock: that of the condition variable whose
 * pthread_cond_timedwait it bounds (CLOCK_REALTIME unless set otherwise). */
static inline struct timespec srv_deadline(clockid_t clock, unsigned ms)
{
	struct timespec dl;
	clock_gettime(clock, &dl);
	dl.tv_sec += ms / 1000;
	dl.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	return dl;
}

#endif
