/* SPDX-License-Identifier: MIT */
/*
 * dev_result.c - a device's transaction result: its allocation and the
 * one table of names its JSON form uses (dev_result.h).
 */
#include <stdlib.h>
#include <string.h>

#include "backends/dev_result.h"
#include "util/error.h"

const char *const aieth__dev_chan_key[2][AIETH_DEV_NFIELDS] = {
	{"tx_moved_bytes", "tx_since", "tx_first", "tx_last", "tx_connected"},
	{"rx_moved_bytes", "rx_since", "rx_first", "rx_last", "rx_connected"},
};

const char *const aieth__dev_txn_state[AIETH_DEV_TXN_STATES] = {"awaiting_tx", "running",
								"finished"};

const char *aieth__dev_status_name(aieth_txn_status st)
{
	switch (st) {
	case AIETH_TXN_PENDING: return "PENDING";
	case AIETH_TXN_DONE: return "DONE";
	case AIETH_TXN_TIMEOUT: return "TIMEOUT";
	case AIETH_TXN_FAILED: return "FAILED";
	case AIETH_TXN_INTERRUPTED: return "INTERRUPTED";
	}
	return "?";
}

int aieth__dev_result_alloc(aieth_dev_result *r, uint32_t channels)
{
	memset(r, 0, sizeof *r);
	r->tx = calloc(2u * (size_t)(channels ? channels : 1), sizeof *r->tx);
	if (!r->tx)
		return aieth__fail(AIETH_ENOMEM, "device result: out of memory for %u channels",
				   channels);
	r->rx = r->tx + channels;
	r->channels = channels;
	return AIETH_OK;
}

void aieth__dev_result_free(aieth_dev_result *r)
{
	free(r->tx);
	r->tx = r->rx = NULL;
	r->channels = 0;
}
