/* SPDX-License-Identifier: MIT */
/*
 * remote_image.c - a transaction's TX and RX images as libcurl streams
 * them: the upload read from the TX image's segments, the download written
 * into the RX image in whole words.
 */
#ifdef AIETH_HAVE_CURL

#include <string.h>

#include <curl/curl.h>

#include "backends/remote/remote_internal.h"

static size_t img_read(char *buf, size_t size, size_t nmemb, void *ctx)
{
	img_io *io = ctx;
	size_t n = size * nmemb;
	if (io->off >= io->img->size)
		return 0;
	if ((uint64_t)n > io->img->size - io->off)
		n = (size_t)(io->img->size - io->off);
	aieth__pld_image_read(io->img, io->off, buf, n);
	io->off += n;
	return n;
}

/* RX: the image takes whole 16-byte words (as the device writes them, so
 * the sinks behind it see whole elements); a partial word waits in carry. */
size_t aieth__rm_img_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	img_io *io = ctx;
	size_t n = size * nmemb, left = n, whole;
	if ((uint64_t)n > io->img->size - io->off - io->ncarry)
		return 0; /* more than the image: the transfer fails */
	if (io->ncarry) {
		size_t k = PLD_WORD_BYTES - io->ncarry;
		if (k > left)
			k = left;
		memcpy(io->carry + io->ncarry, data, k);
		io->ncarry += k;
		data += k;
		left -= k;
		if (io->ncarry < PLD_WORD_BYTES)
			return n;
		aieth__pld_image_write(io->img, io->off, io->carry, PLD_WORD_BYTES);
		io->off += PLD_WORD_BYTES;
		io->ncarry = 0;
	}
	whole = left - left % PLD_WORD_BYTES;
	if (whole) {
		aieth__pld_image_write(io->img, io->off, data, whole);
		io->off += whole;
	}
	memcpy(io->carry, data + whole, left - whole);
	io->ncarry = left - whole;
	return n;
}

/* h uploads the TX image of up (PUT): read from its segments, 1 MiB reads
 * and sends, not libcurl's 64 KiB. */
void aieth__rm_up_setup(CURL *h, img_io *up)
{
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, img_read);
	curl_easy_setopt(h, CURLOPT_READDATA, up);
	curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)up->img->size);
	curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
}

#endif /* AIETH_HAVE_CURL */
