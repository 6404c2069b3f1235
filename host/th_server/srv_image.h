/* SPDX-License-Identifier: MIT */
/*
 * srv_image.h - the server's transaction images (TX and RX, up to GiBs):
 * memory the kernel backs with huge pages where it can, and large images
 * kept mapped after their transaction for the next one, so that a fresh
 * image costs neither page faults nor the kernel's clearing of its pages
 * (make bench, (e)). Thread-safe.
 */
#ifndef AIETH_SRV_IMAGE_H
#define AIETH_SRV_IMAGE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define SRV_IMAGE_KEEP 4 /* mappings kept for reuse, at most */

typedef struct {
	pthread_mutex_t mu;
	uint64_t cap;        /* mapped bytes, in use and kept, at most */
	uint64_t live, kept; /* mapped bytes in use; kept for reuse */
	unsigned n;
	struct srv_kept {
		uint8_t *map;
		size_t total;
		int64_t since_ms;
	} e[SRV_IMAGE_KEEP];
	/* bytes the HTTP API moved through images ([0] TX uploads in, [1] RX
	 * images out) and the part it copied in user space on the way: the
	 * figures make bench prints (docs/server.md) */
	uint64_t moved[2], copied[2];
} srv_images;

/* cap: the server's image budget (--max-memory): mappings are kept only
 * while those in use and those kept fit in it */
void aieth__srv_images_init(srv_images *im, uint64_t cap);
/* unmaps what is kept (every image must have been freed) */
void aieth__srv_images_fini(srv_images *im);
/* drops the mappings kept since before now_ms - idle_ms */
void aieth__srv_images_trim(srv_images *im, int64_t now_ms, int64_t idle_ms);
/* bytes kept for reuse, not in use */
uint64_t aieth__srv_images_kept(srv_images *im);

/* counts bytes moved through an image in direction dir (0 TX, 1 RX), of
 * which copied were copied in user space */
void aieth__srv_images_count(srv_images *im, int dir, uint64_t moved, uint64_t copied);
/* the counts so far */
void aieth__srv_images_counts(srv_images *im, uint64_t moved[2], uint64_t copied[2]);

/* An image of bytes (0 gives a valid, empty image); NULL when out of
 * memory. zero: its bytes read as 0 (an RX image: what the device does
 * not write must not show another transaction's data); else its content
 * is undefined and the caller writes every byte before anything reads it
 * (a TX image, filled by the upload before the device runs). */
uint8_t *aieth__srv_image_alloc(srv_images *im, size_t bytes, int zero);
/* aieth__srv_image_alloc without the clearing: *dirty 1 when the image is
 * a reused one whose bytes may be another transaction's (the caller
 * clears what anything may read before the device writes it), 0 when
 * its bytes read as 0 already (fresh memory) */
uint8_t *aieth__srv_image_take(srv_images *im, size_t bytes, int *dirty);
/* frees an image of aieth__srv_image_alloc (NULL: nothing), now_ms the time */
void aieth__srv_image_free(srv_images *im, uint8_t *p, int64_t now_ms);

#endif
