/* SPDX-License-Identifier: MIT */
/*
 * wire/http_words.h - words of th_server's HTTP API that both of its ends
 * use (not installed): th_server writes them, the remote backend reads
 * them back, so what is written is what is read (docs/http-api.md).
 */
#ifndef AIETH_WIRE_HTTP_WORDS_H
#define AIETH_WIRE_HTTP_WORDS_H

/* A transaction's states, one set for the HTTP API and run_summary.json:
 * "awaiting_tx", "running", "finished". */
#define AIETH_DEV_TXN_STATES 3
extern const char *const aieth__dev_txn_state[AIETH_DEV_TXN_STATES];

#endif /* AIETH_WIRE_HTTP_WORDS_H */
