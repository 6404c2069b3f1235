/* SPDX-License-Identifier: MIT */
/*
 * remote_stream.c - a transaction's RX image downloaded (resumed where it
 * broke) and a streamed transaction's wait: the TX upload, the wait and
 * the RX download side by side on three connections (curl_multi, the
 * upload on a thread of its own with aieth_remote_opts.concurrent_io).
 */
#ifdef AIETH_HAVE_CURL

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "backends/remote/remote_internal.h"
#include "util/error.h"

#define RX_RESUMES 5 /* a broken RX download resumed with Range */

/* The RX download's body: into the image when the status is the one
 * expected, else (an error reply) into a small buffer. */
typedef struct {
	CURL *h;
	img_io *io;
	sbuf *err;
	long want;
} rx_sink;

static size_t rx_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	rx_sink *k = ctx;
	long status = 0;
	curl_easy_getinfo(k->h, CURLINFO_RESPONSE_CODE, &status);
	if (status == k->want)
		return aieth__rm_img_write(data, size, nmemb, k->io);
	return aieth__rmh_buf_write(data, size, nmemb, k->err);
}

/* h downloads the RX image into down through k: the body goes to the
 * image only with the status want (libcurl knows the status before the
 * first write), an error reply (JSON) to err. Reads of up to 2 MiB, not
 * libcurl's 16 KiB: run_test makes 4.5 system calls per MiB moved, 6.4
 * with 512 KiB (make bench (e), docs/server.md). */
#define RX_READ (2L << 20)
static void rx_setup(CURL *h, rx_sink *k, img_io *down, sbuf *err, long want)
{
	k->h = h;
	k->io = down;
	k->err = err;
	k->want = want;
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, rx_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, k);
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, RX_READ);
}

/* GET .../rx into img; a download that breaks (the connection drops)
 * resumes with Range from the last whole word written, RX_RESUMES times at
 * most: the download is idempotent, the image positional. */
int aieth__rm_rx_download(rm_state *st, const char *path, img_io *downp)
{
	char url[768], range[64], msg[600];
	img_io down = *downp; /* from where a streamed download stopped, or 0 */
	pld_image *img = down.img;
	rx_sink sink;
	int attempt;
	CURLcode cc = CURLE_OK;
	long status = 0;

	snprintf(url, sizeof url, "%s%s", st->base, path);
	for (attempt = 0; attempt <= RX_RESUMES; attempt++) {
		struct curl_slist *hdrs;
		sbuf err = SB_INIT(RMH_BODY_MAX);
		uint64_t from = down.off;
		CURL *h = st->h;
		down.ncarry = 0; /* a partial word is fetched again */
		/* no overall limit: an image of any size (the stall limit holds) */
		hdrs = aieth__rm_setup(st, url, NULL, 0);
		if (from) {
			snprintf(range, sizeof range, "%llu-", (unsigned long long)from);
			curl_easy_setopt(h, CURLOPT_RANGE, range);
		}
		rx_setup(h, &sink, &down, &err, from ? 206 : 200);
		/* a refused request wrote its JSON to err only */
		cc = aieth__rmh_perform(h, &st->xfer, aieth__rmh_buf_clear, &err);
		curl_slist_free_all(hdrs);
		status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		if (cc == CURLE_OK && status == (from ? 206 : 200)) {
			aieth__sb_free(&err);
			if (down.off + down.ncarry != img->size)
				return aieth__fail(AIETH_EDEVICE,
						   "server %s: RX image download: %llu of "
						   "%llu bytes",
						   st->base,
						   (unsigned long long)(down.off + down.ncarry),
						   (unsigned long long)img->size);
			return AIETH_OK;
		}
		if (cc == CURLE_OK || status >= 300) {
			aieth__rmh_reply_message(&err, msg, sizeof msg);
			aieth__sb_free(&err);
			return aieth__fail(AIETH_EDEVICE,
					   "server %s: RX image download%s: status %ld: %s",
					   st->base, from ? " (resumed)" : "", status, msg);
		}
		aieth__sb_free(&err);
		if (cc != CURLE_PARTIAL_FILE && cc != CURLE_RECV_ERROR && cc != CURLE_GOT_NOTHING &&
		    cc != CURLE_COULDNT_CONNECT && cc != CURLE_SEND_ERROR)
			break;
		if (attempt < RX_RESUMES) {
			struct timespec ts = {0, 200 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return aieth__fail(AIETH_EDEVICE, "server %s: RX image download: interrupted",
				   st->base);
	return aieth__fail(cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
			   "server %s: RX image download: %s after %llu of %llu bytes (%d resumes "
			   "at most)",
			   st->base, aieth__rmh_words(st->h, cc, st->cacert),
			   (unsigned long long)down.off, (unsigned long long)img->size, RX_RESUMES);
}

/* A streamed transaction's wait (docs/http-api.md, "Streamed
 * transactions"): the TX upload (PUT), the wait (POST, body) and the RX
 * download (GET, into down) run at once on three connections, so that the
 * server's device works while the bytes cross: the time is about the
 * longest of the three, not their sum. *out gets the wait's result;
 * *rx_whole tells whether the download got every byte (else the caller
 * resumes it from down). An upload that failed leaves its reason in
 * up_err (the server then fails the transaction). The upload has no
 * overall limit (an image of any size) but the stall limit; the download
 * none but the wait's: the server sends RX bytes as the device makes
 * them, and ends the download when the session or the device stops. */
enum { LEG_UP, LEG_WAIT, LEG_RX, LEGS };

/* One leg of a streamed transaction: its handle and headers, and what
 * the multi loop learns of it (curl's code, the HTTP status, whether it
 * ended, was added, how often it was retried and when it last started). */
typedef struct {
	char url[768];
	struct curl_slist *hdrs;
	CURL *h;
	CURLcode cc;
	long status;
	int done, added, tries;
	double retry_at; /* > 0: (re)started at that time */
} rm_leg;

/* The upload leg on a thread of its own (aieth_remote_opts.concurrent_io):
 * the TX sources are read there while the RX sinks take the download on
 * the waiting thread, so on two cores neither waits for the other. The
 * thread touches only its handle, up, reply and its own fields; the
 * waiting thread reads them after the join. */
typedef struct {
	CURL *h;
	const rmh_xfer *x; /* its stop flag: raised when the wait ended early */
	img_io *up;
	sbuf *reply;
	CURLcode cc;
	long status;
} up_thread;

static void up_again(void *ctx)
{
	up_thread *u = ctx;
	u->up->off = 0;
	aieth__rmh_buf_clear(u->reply);
}

static void *up_run(void *arg)
{
	up_thread *u = arg;
	u->cc = aieth__rmh_perform(u->h, u->x, up_again, u);
	curl_easy_getinfo(u->h, CURLINFO_RESPONSE_CODE, &u->status);
	return NULL;
}

/* A streamed download comes in pieces (GET with Range A-B, one after the
 * other on one connection): th_server answers each once its bytes are
 * final and sends it straight from the image, where one open-ended
 * download would be copied through libmicrohttpd's buffer as it grows.
 * Each piece is a request, and th_server counts requests against its
 * --rate-limit (200 a second by default, per token or address): pieces of
 * 8 MiB at 1.6 GB/s of RX would take that whole budget, and a 429 stops
 * the download for a second. So a piece answered within RX_FAST is
 * followed by one twice its size, one that took over RX_SLOW by one half
 * its size (the device is slow: bytes come when final, whatever the
 * piece), between RX_PIECE_MIN (the server makes bytes final 8 MiB at a
 * time) and RX_PIECE_MAX; and none is over an eighth of what is left,
 * so the last ones, whose wait nothing overlaps, stay small (with a half,
 * the download lagged the device more at its end: 2 % slower here,
 * docs/server.md). */
#define RX_PIECE_MIN ((uint64_t)8 << 20)
#define RX_PIECE_MAX ((uint64_t)256 << 20)
#define RX_FAST 0.025
#define RX_SLOW 0.4

uint64_t aieth__rm_rx_piece_next(uint64_t prev, uint64_t left, double took_s)
{
	uint64_t n = prev ? prev / RX_PIECE_MIN * RX_PIECE_MIN : RX_PIECE_MIN, eighth;
	if (prev && took_s < RX_FAST)
		n *= 2;
	else if (prev && took_s > RX_SLOW)
		n = n / 2 / RX_PIECE_MIN * RX_PIECE_MIN;
	if (n < RX_PIECE_MIN)
		n = RX_PIECE_MIN;
	if (n > RX_PIECE_MAX)
		n = RX_PIECE_MAX;
	eighth = left / 8 / RX_PIECE_MIN * RX_PIECE_MIN;
	if (n > eighth)
		n = eighth > RX_PIECE_MIN ? eighth : RX_PIECE_MIN;
	return n < left ? n : left;
}

/* h set up for down's next piece, [down->off, *end), through k: *len the
 * last piece's length (0 for the first), took_s how long it took; its
 * header list returned (the caller frees it after the transfer). */
static struct curl_slist *rx_piece(rm_state *st, CURL *h, const char *url, rx_sink *k, img_io *down,
				   sbuf *err, uint64_t *end, uint64_t *len, double took_s)
{
	char range[64];
	uint64_t size = down->img->size;
	struct curl_slist *hdrs =
		aieth__rmh_setup(h, url, st->auth, &st->trust, NULL, 0, &st->xfer_wait);
	*len = aieth__rm_rx_piece_next(*len, size - down->off, took_s);
	*end = down->off + *len;
	snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)down->off,
		 (unsigned long long)(*end - 1));
	curl_easy_setopt(h, CURLOPT_RANGE, range); /* (libcurl keeps a copy) */
	rx_setup(h, k, down, err, 206);
	return hdrs;
}

int aieth__rm_txn_stream(rm_state *st, const char *tid, pld_txn *wire, const char *body,
			 long wait_s, struct json_object **out, img_io *down, int *rx_whole,
			 char *up_err, size_t cap)
{
	static const char *const leg_path[LEGS] = {"tx", "wait", "rx"};
	char path[256];
	rm_leg L[LEGS];
	int running = 0, i, rc;
	double rx_t = 0, wait_t = 0;     /* the download's last byte; the wait's end */
	uint64_t rx_off = 0, rx_end = 0; /* rx_end: the end of the piece asked for */
	uint64_t rx_len = 0;             /* its length */
	double rx_asked = 0;             /* when it was (last) sent */
	CURLMcode mc = CURLM_OK;
	sbuf up_reply = SB_INIT(RMH_BODY_MAX), wait_reply = SB_INIT(RMH_BODY_MAX);
	sbuf rx_err = SB_INIT(RMH_BODY_MAX);
	img_io up;
	rx_sink sink;
	rmh_xfer up_x = st->xfer; /* the upload's: st->xfer's and a stop flag */
	atomic_int up_stop;
	up_thread ut;
	pthread_t up_th;
	int threaded = 0, early = 1; /* early: the loop ended before the legs */

	memset(L, 0, sizeof L); /* cc CURLE_OK (0), nothing added or done */
	*out = NULL;
	*rx_whole = 0;
	atomic_init(&up_stop, 0);
	up_x.stop = &up_stop;
	if (!st->multi)
		st->multi = curl_multi_init();
	if (wire->tx.size && !st->h_up)
		st->h_up = curl_easy_init();
	if (wire->rx.size && !st->h_rx)
		st->h_rx = curl_easy_init();
	if (!st->multi || (wire->tx.size && !st->h_up) || (wire->rx.size && !st->h_rx))
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	L[LEG_UP].h = wire->tx.size ? st->h_up : NULL;
	L[LEG_WAIT].h = st->h;
	L[LEG_RX].h = wire->rx.size ? st->h_rx : NULL;
	for (i = 0; i < LEGS; i++)
		snprintf(L[i].url, sizeof L[i].url, "%s/v1/sessions/%s/txns/%s/%s", st->base,
			 st->sid, tid, leg_path[i]);
	st->xfer_wait = st->xfer;
	st->xfer_wait.stall_s = -1;
	if (L[LEG_UP].h) {
		memset(&up, 0, sizeof up);
		up.img = &wire->tx;
		L[LEG_UP].hdrs =
			aieth__rmh_setup(L[LEG_UP].h, L[LEG_UP].url, st->auth, &st->trust,
					 "Content-Type: application/octet-stream", 0, &up_x);
		aieth__rm_up_setup(L[LEG_UP].h, &up);
		curl_easy_setopt(L[LEG_UP].h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
		curl_easy_setopt(L[LEG_UP].h, CURLOPT_WRITEDATA, &up_reply);
	}
	L[LEG_WAIT].hdrs =
		aieth__rmh_setup(L[LEG_WAIT].h, L[LEG_WAIT].url, st->auth, &st->trust,
				 "Content-Type: application/json", wait_s, &st->xfer_wait);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_WRITEDATA, &wait_reply);
	if (L[LEG_RX].h)
		L[LEG_RX].hdrs = rx_piece(st, L[LEG_RX].h, L[LEG_RX].url, &sink, down, &rx_err,
					  &rx_end, &rx_len, 0);
	for (i = 0; i < LEGS; i++)
		if (L[i].h)
			L[i].retry_at = 1e-9; /* due now */
	if (st->concurrent_io && L[LEG_UP].h) {
		memset(&ut, 0, sizeof ut);
		ut.h = L[LEG_UP].h;
		ut.x = &up_x;
		ut.up = &up;
		ut.reply = &up_reply;
		/* no thread to be had: the upload joins the others below */
		if (!pthread_create(&up_th, NULL, up_run, &ut)) {
			threaded = 1;
			L[LEG_UP].retry_at = 0;
		}
	}
	for (;;) {
		CURLMsg *m;
		int left, pending = 0, due = 0;
		double now = aieth__rm_mono_s();
		for (i = 0; i < LEGS; i++)
			if (L[i].retry_at > 0 && now >= L[i].retry_at) {
				L[i].retry_at = 0;
				if (curl_multi_add_handle(st->multi, L[i].h) == CURLM_OK) {
					L[i].added = 1;
					if (i == LEG_RX)
						rx_asked = now;
				} else {
					L[i].done = 1;
					L[i].cc = CURLE_FAILED_INIT;
				}
			}
		mc = curl_multi_perform(st->multi, &running);
		if (mc != CURLM_OK)
			break;
		while ((m = curl_multi_info_read(st->multi, &left)))
			for (i = 0; i < LEGS; i++) {
				long wait;
				if (m->msg != CURLMSG_DONE || m->easy_handle != L[i].h)
					continue;
				L[i].cc = m->data.result;
				curl_easy_getinfo(L[i].h, CURLINFO_RESPONSE_CODE, &L[i].status);
				if (L[i].cc == CURLE_OK &&
				    (wait = aieth__rmh_rate_wait_s(L[i].h, L[i].tries))) {
					/* the rate limit refused it from its head: nothing
					 * of it was done; again after the wait it names */
					curl_multi_remove_handle(st->multi, L[i].h);
					L[i].added = 0;
					L[i].tries++;
					L[i].retry_at = aieth__rm_mono_s() + (double)wait;
					if (i == LEG_UP) {
						up.off = 0;
						aieth__rmh_buf_clear(&up_reply);
					}
					aieth__rmh_buf_clear(i == LEG_WAIT ? &wait_reply : &rx_err);
					break;
				}
				if (i == LEG_RX && L[i].cc == CURLE_OK && L[i].status == 206 &&
				    !down->ncarry && down->off == rx_end &&
				    rx_end < wire->rx.size) {
					/* a piece whole: the next one, at once */
					curl_multi_remove_handle(st->multi, L[i].h);
					L[i].added = 0;
					curl_slist_free_all(L[i].hdrs);
					L[i].hdrs = rx_piece(st, L[i].h, L[i].url, &sink, down,
							     &rx_err, &rx_end, &rx_len,
							     aieth__rm_mono_s() - rx_asked);
					L[i].retry_at = 1e-9;
					break;
				}
				L[i].done = 1;
			}
		/* a wait without a result: the rest would only wait on it */
		if (L[LEG_WAIT].done && (L[LEG_WAIT].cc != CURLE_OK || L[LEG_WAIT].status != 200))
			break;
		/* once the device is done every RX byte is final: the download
		 * has the stall limit again (the rest resumes, aieth__rm_rx_download) */
		if (down->off != rx_off) {
			rx_off = down->off;
			rx_t = now;
		}
		if (L[LEG_WAIT].done && !wait_t)
			wait_t = now;
		if (wait_t && L[LEG_RX].h && !L[LEG_RX].done &&
		    now - (rx_t > wait_t ? rx_t : wait_t) > (double)st->xfer.stall_s)
			break;
		for (i = 0; i < LEGS; i++) {
			pending |= L[i].retry_at > 0;
			due |= L[i].retry_at > 0 && L[i].retry_at <= now;
		}
		if (!running && !pending) {
			early = 0;
			break;
		}
		if (st->xfer.interrupt && *st->xfer.interrupt)
			break;
		if (due) /* (a leg to start again now: no wait for a socket) */
			continue;
		mc = curl_multi_poll(st->multi, NULL, 0, pending ? 100 : 1000, NULL);
		if (mc != CURLM_OK)
			break;
	}
	if (threaded) {
		/* the wait ended: an upload still running has no use (its
		 * transfer sees the flag within a second: its progress calls);
		 * else it ends as it would in the loop */
		if (early)
			atomic_store(&up_stop, 1);
		pthread_join(up_th, NULL);
		L[LEG_UP].cc = ut.cc;
		L[LEG_UP].status = ut.status;
		L[LEG_UP].done = !(atomic_load(&up_stop) && ut.cc == CURLE_ABORTED_BY_CALLBACK);
	}
	for (i = 0; i < LEGS; i++) {
		if (L[i].added)
			curl_multi_remove_handle(st->multi, L[i].h);
		curl_slist_free_all(L[i].hdrs);
	}
	if (L[LEG_UP].h &&
	    !(L[LEG_UP].done && L[LEG_UP].cc == CURLE_OK && L[LEG_UP].status == 202)) {
		char msg[600] = "";
		if (L[LEG_UP].done && L[LEG_UP].cc == CURLE_OK)
			aieth__rmh_reply_message(&up_reply, msg, sizeof msg);
		snprintf(up_err, cap, "server %s: TX image upload: %s%s%s", st->base,
			 !L[LEG_UP].done ? "did not end"
			 : L[LEG_UP].cc != CURLE_OK
				 ? aieth__rmh_words(L[LEG_UP].h, L[LEG_UP].cc, st->cacert)
				 : "refused",
			 msg[0] ? ": " : "", msg);
	}
	*rx_whole = L[LEG_RX].h && L[LEG_RX].done && L[LEG_RX].cc == CURLE_OK &&
		    L[LEG_RX].status == 206 && down->off + down->ncarry == wire->rx.size;
	/* what did not come (an error reply writes nothing to down) is fetched
	 * by the caller from down->off on */
	aieth__sb_free(&up_reply);
	aieth__sb_free(&rx_err);
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/wait", st->sid, tid);
	if (mc != CURLM_OK) {
		aieth__sb_free(&wait_reply);
		return aieth__fail(AIETH_EDEVICE, "server %s: POST %s: %s", st->base, path,
				   curl_multi_strerror(mc));
	}
	if (!L[LEG_WAIT].done || L[LEG_WAIT].cc != CURLE_OK) {
		aieth__sb_free(&wait_reply);
		if (!L[LEG_WAIT].done || L[LEG_WAIT].cc == CURLE_ABORTED_BY_CALLBACK)
			return aieth__fail(AIETH_EDEVICE, "server %s: POST %s: interrupted",
					   st->base, path);
		return aieth__fail(
			L[LEG_WAIT].cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
			"server %s: POST %s: %s%s", st->base, path,
			aieth__rmh_words(L[LEG_WAIT].h, L[LEG_WAIT].cc, st->cacert),
			L[LEG_WAIT].cc == CURLE_OPERATION_TIMEDOUT ? " (the wait's limit)" : "");
	}
	rc = aieth__rm_reply(st, "POST", path, L[LEG_WAIT].status, 200, &wait_reply, out);
	return rc;
}

#endif /* AIETH_HAVE_CURL */
