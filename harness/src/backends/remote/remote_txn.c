/* SPDX-License-Identifier: MIT */
/*
 * remote_txn.c - the remote backend's transactions: started on th_server
 * (the TX image uploaded then, or streamed in the wait), waited for, and
 * the RX image brought back into its destinations.
 */
#ifdef AIETH_HAVE_CURL

#include <stdio.h>
#include <string.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "backends/remote/remote_internal.h"
#include "backends/remote/remote_reply.h"
#include "util/error.h"

int aieth__rm_txn_start(void *state, pld_txn *wire)
{
	rm_state *st = state;
	struct json_object *req, *cfg, *o = NULL;
	char path[256], w[24];
	img_io up;
	long status = 0;
	sbuf b = SB_INIT(RMH_BODY_MAX);
	size_t i, slot;
	int rc;

	if (st->nt == TXNS_MAX)
		return aieth__fail(AIETH_ESTATE,
				   "backend remote: %d transactions are started and not "
				   "waited for, the limit",
				   TXNS_MAX);
	req = json_object_new_object();
	cfg = json_object_new_array();
	json_object_object_add(req, "channels", json_object_new_int64(wire->channels));
	json_object_object_add(req, "depth", json_object_new_int64(wire->depth));
	for (i = 0; i < pld_cfg_count(wire->channels); i++) {
		snprintf(w, sizeof w, "0x%llx", (unsigned long long)wire->cfg[i]);
		json_object_array_add(cfg, json_object_new_string(w));
	}
	json_object_object_add(req, "cfg", cfg);
	json_object_object_add(req, "tx_bytes", json_object_new_uint64(wire->tx.size));
	json_object_object_add(req, "rx_bytes", json_object_new_uint64(wire->rx.size));
	/* streamed where the server's device can: the upload, the device and
	 * the download overlap (aieth__rm_txn_stream) */
	json_object_object_add(req, "stream", json_object_new_boolean(!st->serial));
	snprintf(path, sizeof path, "/v1/sessions/%s/txns", st->sid);
	rc = aieth__rm_json(st, "POST", path,
			    json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN), 201,
			    CALL_S, &o);
	json_object_put(req);
	if (rc)
		return rc;
	slot = (st->head + st->nt) % TXNS_MAX;
	/* every field as documented: the transaction as submitted */
	rc = aieth__rmr_txn_created(st->base, o, wire, !st->serial, st->tids[slot],
				    sizeof st->tids[slot], &st->streamed[slot]);
	json_object_put(o);
	if (rc)
		return rc;
	if (st->streamed[slot]) {
		/* uploaded during the wait, beside the device's work */
		st->wires[slot] = wire;
		st->nt++;
		return AIETH_OK;
	}
	/* the TX image, streamed from the transaction's segments */
	up.img = &wire->tx;
	up.off = 0;
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/tx", st->sid, st->tids[slot]);
	rc = aieth__rm_req(st, "PUT", path, NULL, &up, 0, &status, &b);
	if (!rc && status != 202) {
		char msg[600];
		aieth__rmh_reply_message(&b, msg, sizeof msg);
		rc = aieth__fail(AIETH_EDEVICE, "server %s: TX image upload: status %ld: %s",
				 st->base, status, msg);
	}
	aieth__sb_free(&b);
	if (rc)
		return rc;
	st->wires[slot] = wire;
	st->nt++;
	return AIETH_OK;
}

/* A transaction the server interrupted, not this client: the session's
 * own reason when the server ended it (--max-session, an idle limit),
 * else the server was stopped (drained) during the run. */
static int rm_interrupted_by_server(rm_state *st, const char *tid, const char *why)
{
	char reason[300];
	if (aieth__rm_session_ended(st, reason, sizeof reason))
		return aieth__fail(AIETH_EDEVICE,
				   "server %s ended session %s while it ran "
				   "transaction %s: %s (the transaction was interrupted: %s)",
				   st->base, st->sid, tid, reason, why);
	return aieth__fail(AIETH_EDEVICE,
			   "server %s stopped while it ran transaction %s: "
			   "the transaction was interrupted and the device reset (%s); run "
			   "again when the server is back",
			   st->base, tid, why);
}

int aieth__rm_txn_wait(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[256], body[64], up_err[700] = "";
	const char *tid;
	int rc, failed = 0, streamed, rx_whole = 0;
	img_io down;

	if (!st->nt || st->wires[st->head] != wire)
		return aieth__fail(AIETH_ESTATE,
				   "backend remote: wait for a transaction that is not "
				   "the oldest started one");
	tid = st->tids[st->head];
	streamed = st->streamed[st->head];
	st->head = (st->head + 1) % TXNS_MAX;
	st->nt--;
	memset(&down, 0, sizeof down);
	down.img = &wire->rx;
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/wait", st->sid, tid);
	snprintf(body, sizeof body, "{\"timeout_ms\":%u}",
		 timeout_ms > WAIT_MAX_MS ? WAIT_MAX_MS : timeout_ms);
	/* bounded by the transaction's own timeout and a margin, never by the
	 * stall limit: the server answers when the device is done (0: no
	 * limit asked, none here either; TCP keep-alive finds a lost host) */
	st->device_wait = 1;
	if (streamed)
		rc = aieth__rm_txn_stream(st, tid, wire, body,
					  timeout_ms ? CALL_S + (long)(timeout_ms / 1000) : 0, &o,
					  &down, &rx_whole, up_err, sizeof up_err);
	else
		rc = aieth__rm_json(st, "POST", path, body, 200,
				    timeout_ms ? CALL_S + (long)(timeout_ms / 1000) : 0, &o);
	st->device_wait = 0;
	if (rc) {
		if (st->cfg->opts.interrupt && *st->cfg->opts.interrupt) {
			res->status = AIETH_TXN_INTERRUPTED;
			snprintf(res->msg, sizeof res->msg,
				 "interrupted while the server ran the "
				 "transaction; the session ends and the server resets the device");
			return AIETH_OK;
		}
		if (rc == AIETH_ETIMEOUT) {
			/* the server hangs: as a device that hangs (exit 5) */
			res->status = AIETH_TXN_TIMEOUT;
			snprintf(res->msg, sizeof res->msg, "%s", aieth_error_message());
			return AIETH_OK;
		}
		return rc;
	}
	rc = aieth__rmr_txn_result(st->base, tid, o, wire, res, &failed);
	json_object_put(o);
	if (rc)
		return rc;
	if (res->status == AIETH_TXN_TIMEOUT)
		aieth__rm_fetch_aie_state(st);
	if (failed && up_err[0]) /* why the server's device ran on zeros */
		return aieth__fail(AIETH_EDEVICE, "%s", up_err);
	if (failed)
		return aieth__fail(AIETH_EDEVICE, "server %s: %s", st->base, res->msg);
	if (res->status == AIETH_TXN_INTERRUPTED &&
	    !(st->cfg->opts.interrupt && *st->cfg->opts.interrupt))
		return rm_interrupted_by_server(st, tid, res->msg);
	if (!wire->rx.size || rx_whole)
		return AIETH_OK;
	/* the RX image, streamed into its destinations (after a streamed
	 * download that broke: from where it broke) */
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/rx", st->sid, tid);
	return aieth__rm_rx_download(st, path, &down);
}

#endif /* AIETH_HAVE_CURL */
