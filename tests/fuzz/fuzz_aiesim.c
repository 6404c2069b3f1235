/* SPDX-License-Identifier: MIT */
/* fuzz_aiesim.c - random aiesimulator PLIO text for the "aiesim" model's
 * reader, in each element type: it must parse or fail with a message; the
 * parsed trace must be consistent (stamps in order and within the data,
 * packet ends increasing); never crash, leak or read out of bounds. The
 * stamps of a parsed trace, as 16-byte windows, then go through fit
 * "exact"'s schedule: every iteration's cycles within 1..1e9 or a refusal
 * naming a window that exists. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/models/aiesim.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WINDOWS 4096

static void schedule(const aiesim_trace *tr, uint8_t b)
{
	static uint64_t c[MAX_WINDOWS];
	static uint32_t cyc[2 * MAX_WINDOWS];
	uint64_t beats[2] = {1 + (b & 3), 1 + (b >> 6)};
	size_t n = tr->len / 16, k, bad = SIZE_MAX;
	if (n == 0)
		return;
	if (n > MAX_WINDOWS)
		n = MAX_WINDOWS;
	for (k = 0; k < n; k++)
		c[k] = aieth__aiesim_ps_to_cycles(aieth__aiesim_trace_time_at(tr, k * 16, NULL),
						  312500000u, 1250, 1000 + (b & 0x3f));
	if (aieth__aiesim_exact_schedule(c, n, beats, 1 + (b >> 7), 1 + (b & 7), 2, 1000000000u,
					 cyc, &bad)) {
		if (bad >= n)
			abort();
		return;
	}
	for (k = 0; k < 2 * n; k++)
		if (cyc[k] < 1 || cyc[k] > 1000000000u)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aiesim_trace tr;
	aiesim_type t;
	size_t i;
	int rc;

	if (size < 1)
		return 0;
	t = (aiesim_type)(data[0] % (AIESIM_CFLOAT + 1));
	aieth__aiesim_trace_init(&tr, t);
	rc = aieth__aiesim_trace_parse(&tr, "fuzz", (const char *)data + 1, size - 1);
	if (rc != 0 && aieth_error_message()[0] == '\0')
		abort(); /* a refusal without a message */
	if (rc == 0) {
		for (i = 0; i < tr.nstamps; i++)
			if (tr.stamps[i].at > tr.len || tr.stamps[i].time_ps > AIESIM_MAX_TIME_PS ||
			    (i && (tr.stamps[i].time_ps < tr.stamps[i - 1].time_ps ||
				   tr.stamps[i].at <= tr.stamps[i - 1].at)))
				abort();
		for (i = 0; i < tr.ntlast; i++)
			if (tr.tlast[i] > tr.len || (i && tr.tlast[i] < tr.tlast[i - 1]))
				abort();
		(void)aieth__aiesim_trace_time_at(&tr, tr.len, NULL);
		schedule(&tr, data[0]);
	}
	aieth__aiesim_trace_free(&tr);
	return 0;
}
