/*
 * txn.c - transactions: validation (fixing the defects of AMD's host code,
 * research/anchor.md 8.2), encoding, pipelined submission and waiting,
 * status and per-channel result queries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results.h"
#include "core/session_internal.h"
#include "util/error.h"

#define MAX_U32 4294967295ull

static int check_args(aieth_session *s, aieth_mode mode, const aieth_channel_args *a, size_t n,
		      aieth_plio *pl)
{
	const aieth_board_info *bi = s->info;
	size_t i, j;

	if (mode != AIETH_MODE_FUNC && mode != AIETH_MODE_PERF)
		return aieth_fail(AIETH_EINVAL, "transaction: mode %d is neither FUNC (0) nor PERF (1)",
				  (int)mode);
	if (n == 0)
		return aieth_fail(AIETH_EINVAL, "transaction: no channels");
	if (n > 2u * bi->channels)
		return aieth_fail(AIETH_EINVAL,
				  "transaction: %zu channels, %s has %u per direction (%u in all)", n,
				  bi->name, bi->channels, 2 * bi->channels);
	for (i = 0; i < n; i++) {
		const aieth_channel_args *c = &a[i];
		if (!c->plio)
			return aieth_fail(AIETH_EINVAL, "transaction channel %zu: no PLIO name", i);
		if (aieth_board_plio_find(s->board, c->plio, &pl[i]) != AIETH_OK)
			return aieth_fail_prefix(AIETH_ENOTFOUND, "transaction channel %zu", i);
		for (j = 0; j < i; j++)
			if (!strcmp(pl[j].name, pl[i].name))
				return aieth_fail(AIETH_EINVAL,
						  "transaction channels %zu and %zu: %s is listed twice "
						  "(one entry per PLIO)",
						  j, i, pl[i].name);
		if (c->size == 0 || c->size % 16)
			return aieth_fail(AIETH_EINVAL,
					  "transaction channel %zu (%s): size %llu bytes is not a "
					  "positive multiple of 16 (one 128-bit beat)",
					  i, pl[i].name, (unsigned long long)c->size);
		if (c->size / 16 > MAX_U32)
			return aieth_fail(AIETH_EINVAL,
					  "transaction channel %zu (%s): size %llu bytes is %llu beats, "
					  "the PL kernel counts at most %llu",
					  i, pl[i].name, (unsigned long long)c->size,
					  (unsigned long long)(c->size / 16), MAX_U32);
		if (c->repetition == 0 || c->repetition > MAX_U32)
			return aieth_fail(AIETH_EINVAL,
					  "transaction channel %zu (%s): repetition %llu is outside "
					  "1..%llu",
					  i, pl[i].name, (unsigned long long)c->repetition, MAX_U32);
		if (mode == AIETH_MODE_FUNC && c->repetition != 1)
			return aieth_fail(AIETH_EINVAL,
					  "transaction channel %zu (%s): repetition %llu in FUNC mode; "
					  "replay is only supported in PERF mode (use 1)",
					  i, pl[i].name, (unsigned long long)c->repetition);
	}
	return AIETH_OK;
}

int aieth_txn_submit(aieth_session *s, aieth_mode mode, const aieth_channel_args *args,
		     size_t num_args, aieth_txn **out)
{
	aieth_txn *t;
	pld_arg *pa = NULL;
	size_t i;
	uint32_t N;
	char err[512];
	int rc;

	aieth_error_clear();
	if (!s || !out || (num_args && !args))
		return aieth_fail(AIETH_EINVAL, "aieth_txn_submit: NULL argument");
	*out = NULL;
	N = s->info->channels;
	t = calloc(1, sizeof *t);
	if (!t)
		return aieth_fail(AIETH_ENOMEM, "transaction: out of memory");
	t->s = s;
	t->mode = mode;
	t->n = num_args;
	t->args = calloc(num_args ? num_args : 1, sizeof *t->args);
	t->plios = calloc(num_args ? num_args : 1, sizeof *t->plios);
	t->res = calloc(num_args ? num_args : 1, sizeof *t->res);
	pa = calloc(num_args ? num_args : 1, sizeof *pa);
	t->dev.tx_moved = calloc(N, sizeof(uint64_t));
	t->dev.rx_moved = calloc(N, sizeof(uint64_t));
	t->dev.tx_since = calloc(N, sizeof(uint64_t));
	t->dev.rx_since = calloc(N, sizeof(uint64_t));
	t->dev.tx_first = calloc(N, sizeof(uint64_t));
	t->dev.tx_last = calloc(N, sizeof(uint64_t));
	t->dev.rx_first = calloc(N, sizeof(uint64_t));
	t->dev.rx_last = calloc(N, sizeof(uint64_t));
	t->dev.tx_connected = calloc(N, sizeof(int));
	t->dev.rx_connected = calloc(N, sizeof(int));
	if (!t->args || !t->plios || !t->res || !pa || !t->dev.tx_moved || !t->dev.rx_moved ||
	    !t->dev.tx_since || !t->dev.rx_since || !t->dev.tx_first || !t->dev.tx_last ||
	    !t->dev.rx_first || !t->dev.rx_last || !t->dev.tx_connected || !t->dev.rx_connected) {
		rc = aieth_fail(AIETH_ENOMEM, "transaction: out of memory");
		goto fail;
	}
	if ((rc = check_args(s, mode, args, num_args, t->plios)))
		goto fail;
	for (i = 0; i < num_args; i++) {
		t->args[i] = args[i];
		t->args[i].plio = t->plios[i].name;
		pa[i].dir = t->plios[i].dir;
		pa[i].index = t->plios[i].index;
		pa[i].size = args[i].size;
		pa[i].reps = args[i].repetition;
		pa[i].delay = args[i].delay;
		pa[i].data = args[i].data;
	}
	if (pld_txn_encode(&t->wire, N, s->info->uram_depth_words,
			   mode == AIETH_MODE_PERF ? PLD_MODE_PERF : PLD_MODE_FUNC, pa, num_args, err,
			   sizeof err)) {
		rc = aieth_fail(AIETH_EINVAL, "transaction: %s", err);
		goto fail;
	}
	free(pa);
	pa = NULL;
	if ((rc = s->ops->txn_start(s->bstate, &t->wire))) {
		pld_txn_release(&t->wire);
		goto fail;
	}
	t->status = AIETH_TXN_PENDING;
	t->prev = s->tail;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	*out = t;
	return AIETH_OK;
fail:
	free(pa);
	t->prev = t->next = NULL;
	t->s = NULL;
	aieth_txn_free(t);
	return rc;
}

int aieth_txn_wait(aieth_txn *t, uint32_t timeout_ms)
{
	aieth_txn *x;
	aieth_session *s;
	int rc;

	aieth_error_clear();
	if (!t || !t->s)
		return aieth_fail(AIETH_EINVAL, "aieth_txn_wait: NULL or freed transaction");
	s = t->s;
	/* earlier transactions complete first, in submission order */
	for (x = s->head; x; x = x->next) {
		if (x->status == AIETH_TXN_PENDING && x->prev &&
		    x->prev->status == AIETH_TXN_INTERRUPTED) {
			/* the device was stopped: what followed never runs */
			x->status = AIETH_TXN_INTERRUPTED;
			snprintf(x->msg, sizeof x->msg, "interrupted before it started");
			aieth_txn_compute_results(x);
		} else if (x->status == AIETH_TXN_PENDING) {
			rc = s->ops->txn_wait(s->bstate, &x->wire, timeout_ms, &x->dev);
			if (rc) {
				x->status = AIETH_TXN_FAILED;
				snprintf(x->msg, sizeof x->msg, "%s", aieth_error_message());
			} else {
				x->status = x->dev.status;
				snprintf(x->msg, sizeof x->msg, "%s", x->dev.msg);
			}
			aieth_txn_compute_results(x);
		}
		if (x == t)
			break;
	}
	if (t->status == AIETH_TXN_FAILED)
		return aieth_fail(AIETH_EDEVICE, "transaction failed: %s", t->msg);
	return AIETH_OK;
}

aieth_txn_status aieth_txn_get_status(const aieth_txn *t)
{
	return t ? t->status : AIETH_TXN_FAILED;
}

const char *aieth_txn_status_name(aieth_txn_status st)
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

const char *aieth_txn_message(const aieth_txn *t) { return t ? t->msg : ""; }

int aieth_txn_is_valid(const aieth_txn *t) { return t && t->status == AIETH_TXN_DONE && t->valid; }

aieth_mode aieth_txn_mode(const aieth_txn *t) { return t ? t->mode : AIETH_MODE_FUNC; }

uint64_t aieth_txn_total_cycles(const aieth_txn *t) { return t ? t->dev.total_cycles : 0; }

size_t aieth_txn_num_channels(const aieth_txn *t) { return t ? t->n : 0; }

void aieth_txn_free(aieth_txn *t)
{
	aieth_session *s;
	if (!t)
		return;
	s = t->s;
	if (s) {
		/* a pending transaction still occupies the device queue: finish it */
		if (t->status == AIETH_TXN_PENDING)
			aieth_txn_wait(t, 0);
		if (t->prev)
			t->prev->next = t->next;
		else
			s->head = t->next;
		if (t->next)
			t->next->prev = t->prev;
		else
			s->tail = t->prev;
	}
	pld_txn_release(&t->wire);
	free(t->args);
	free(t->plios);
	free(t->res);
	free(t->dev.tx_moved);
	free(t->dev.rx_moved);
	free(t->dev.tx_since);
	free(t->dev.rx_since);
	free(t->dev.tx_first);
	free(t->dev.tx_last);
	free(t->dev.rx_first);
	free(t->dev.rx_last);
	free(t->dev.tx_connected);
	free(t->dev.rx_connected);
	free(t);
}

int aieth_txn_channel(const aieth_txn *t, size_t i, aieth_channel_result *out)
{
	if (!t || !out)
		return aieth_fail(AIETH_EINVAL, "aieth_txn_channel: NULL argument");
	if (t->status == AIETH_TXN_PENDING)
		return aieth_fail(AIETH_ESTATE, "transaction is pending: wait for it first");
	if (i >= t->n)
		return aieth_fail(AIETH_EINVAL, "transaction has %zu channels, index %zu asked", t->n,
				  i);
	*out = t->res[i];
	return AIETH_OK;
}

static int find_chan(const aieth_txn *t, const char *plio, size_t *i)
{
	size_t j;
	for (j = 0; j < t->n; j++)
		if (!strcmp(t->plios[j].name, plio)) {
			*i = j;
			return AIETH_OK;
		}
	return aieth_fail(AIETH_ENOTFOUND, "%s is not a channel of this transaction", plio);
}

int aieth_txn_channel_by_name(const aieth_txn *t, const char *plio, aieth_channel_result *out)
{
	size_t i = 0;
	int rc;
	if (!t || !plio || !out)
		return aieth_fail(AIETH_EINVAL, "aieth_txn_channel_by_name: NULL argument");
	if ((rc = find_chan(t, plio, &i)))
		return rc;
	return aieth_txn_channel(t, i, out);
}

int aieth_txn_delay_between(const aieth_txn *t, const char *from, const char *to,
			    int64_t *cycles)
{
	size_t a = 0, b = 0;
	int rc;
	if (!t || !from || !to || !cycles)
		return aieth_fail(AIETH_EINVAL, "aieth_txn_delay_between: NULL argument");
	if (t->status != AIETH_TXN_DONE)
		return aieth_fail(AIETH_ESTATE, "transaction is %s: delays need a DONE transaction",
				  aieth_txn_status_name(t->status));
	if ((rc = find_chan(t, from, &a)) || (rc = find_chan(t, to, &b)))
		return rc;
	*cycles = (int64_t)t->res[b].first_cycle - (int64_t)t->res[a].first_cycle;
	return AIETH_OK;
}
