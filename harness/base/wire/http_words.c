/* SPDX-License-Identifier: MIT */
/*
 * http_words.c - the words of th_server's HTTP API both its ends use
 * (wire/http_words.h).
 */
#include "wire/http_words.h"

const char *const aieth__dev_txn_state[AIETH_DEV_TXN_STATES] = {"awaiting_tx", "running",
								"finished"};
