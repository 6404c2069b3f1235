/* fuzz_aiesim.c - random aiesimulator PLIO text for the "aiesim" model's
 * reader, in each element type: it must parse or fail with a message; the
 * parsed trace must be consistent (stamps in order and within the data,
 * packet ends increasing); never crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/models/aiesim.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aiesim_trace tr;
	aiesim_type t;
	size_t i;
	int rc;

	if (size < 1)
		return 0;
	t = (aiesim_type)(data[0] % (AIESIM_CFLOAT + 1));
	aiesim_trace_init(&tr, t);
	rc = aiesim_trace_parse(&tr, "fuzz", (const char *)data + 1, size - 1);
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
		(void)aiesim_trace_time_at(&tr, tr.len, NULL);
	}
	aiesim_trace_free(&tr);
	return 0;
}
