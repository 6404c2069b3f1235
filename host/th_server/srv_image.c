/* SPDX-License-Identifier: MIT */
/*
 * srv_image.c - transaction images: small ones from calloc, large ones
 * mapped directly and advised to use transparent huge pages. A fresh 256 MiB
 * image in 4 KiB pages costs 65536 page faults on first touch (the upload,
 * the device's RX writes); in 2 MiB pages 128, but the kernel still clears
 * every page and may compact memory to find huge ones. So a freed large
 * image stays mapped (within the budget) for the next transaction: a TX
 * image is overwritten by its upload anyway, an RX image is cleared with
 * memset (no faults), all of it or, for a streamed one, only the bytes
 * the device does not write (srv_stream.c). A header before the image
 * holds its mapping's size, so that freeing needs only the pointer.
 */
#include "th_server/srv_image.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* below this, calloc (its own pool, no system call per image) */
#define SRV_IMAGE_MAP_MIN ((size_t)4 << 20)
/* the header: the mapped size (0: from calloc); keeps 64-byte alignment */
#define SRV_IMAGE_HDR ((size_t)64)

void aieth__srv_images_init(srv_images *im, uint64_t cap)
{
	memset(im, 0, sizeof *im);
	pthread_mutex_init(&im->mu, NULL);
	im->cap = cap;
}

/* removes kept entry i (under mu); returns its mapping */
static struct srv_kept take_locked(srv_images *im, unsigned i)
{
	struct srv_kept k = im->e[i];
	im->e[i] = im->e[--im->n];
	im->kept -= k.total;
	return k;
}

void aieth__srv_images_trim(srv_images *im, int64_t now_ms, int64_t idle_ms)
{
	struct srv_kept drop[SRV_IMAGE_KEEP];
	unsigned i = 0, nd = 0;
	pthread_mutex_lock(&im->mu);
	while (i < im->n) {
		if (now_ms - im->e[i].since_ms >= idle_ms)
			drop[nd++] = take_locked(im, i);
		else
			i++;
	}
	pthread_mutex_unlock(&im->mu);
	/* unmapped outside the lock: a GiB takes a while */
	for (i = 0; i < nd; i++)
		munmap(drop[i].map, drop[i].total);
}

void aieth__srv_images_fini(srv_images *im)
{
	aieth__srv_images_trim(im, 0, INT64_MIN);
	pthread_mutex_destroy(&im->mu);
}

uint64_t aieth__srv_images_kept(srv_images *im)
{
	uint64_t k;
	pthread_mutex_lock(&im->mu);
	k = im->kept;
	pthread_mutex_unlock(&im->mu);
	return k;
}

void aieth__srv_images_count(srv_images *im, int dir, uint64_t moved, uint64_t copied)
{
	pthread_mutex_lock(&im->mu);
	im->moved[dir != 0] += moved;
	im->copied[dir != 0] += copied;
	pthread_mutex_unlock(&im->mu);
}

void aieth__srv_images_counts(srv_images *im, uint64_t moved[2], uint64_t copied[2])
{
	pthread_mutex_lock(&im->mu);
	memcpy(moved, im->moved, sizeof im->moved);
	memcpy(copied, im->copied, sizeof im->copied);
	pthread_mutex_unlock(&im->mu);
}

/* A kept mapping of total bytes at least (the smallest that fits), else
 * NULL; kept mappings that would leave no room in the budget for a new
 * one go to *drop (unmapped by the caller). */
static uint8_t *reuse(srv_images *im, size_t total, struct srv_kept *drop, unsigned *nd)
{
	struct srv_kept k;
	unsigned i, best = SRV_IMAGE_KEEP;
	uint8_t *p = NULL;
	pthread_mutex_lock(&im->mu);
	/* at most a quarter larger: the budget counts the image's bytes, a
	 * much larger mapping would hold more than it says */
	for (i = 0; i < im->n; i++)
		if (im->e[i].total >= total && im->e[i].total - total <= total / 4 &&
		    (best == SRV_IMAGE_KEEP || im->e[i].total < im->e[best].total))
			best = i;
	if (best < SRV_IMAGE_KEEP) {
		k = take_locked(im, best);
		im->live += k.total;
		p = k.map;
	} else {
		/* a new mapping: the oldest kept ones give their room */
		while (im->n && im->live + im->kept + total > im->cap) {
			unsigned old = 0;
			for (i = 1; i < im->n; i++)
				if (im->e[i].since_ms < im->e[old].since_ms)
					old = i;
			drop[(*nd)++] = take_locked(im, old);
		}
	}
	pthread_mutex_unlock(&im->mu);
	return p;
}

uint8_t *aieth__srv_image_alloc(srv_images *im, size_t bytes, int zero)
{
	int dirty = 0;
	uint8_t *p = aieth__srv_image_take(im, bytes, &dirty);
	if (p && zero && dirty)
		memset(p, 0, bytes);
	return p;
}

uint8_t *aieth__srv_image_take(srv_images *im, size_t bytes, int *dirty)
{
	struct srv_kept drop[SRV_IMAGE_KEEP];
	unsigned i, nd = 0;
	uint8_t *p;
	size_t total;
	*dirty = 0;
	if (bytes > SIZE_MAX - SRV_IMAGE_HDR)
		return NULL;
	total = bytes + SRV_IMAGE_HDR;
	if (bytes < SRV_IMAGE_MAP_MIN) {
		p = calloc(1, total);
		if (!p)
			return NULL;
		*(size_t *)p = 0;
		return p + SRV_IMAGE_HDR;
	}
	p = reuse(im, total, drop, &nd);
	for (i = 0; i < nd; i++)
		munmap(drop[i].map, drop[i].total);
	if (p) {
		*dirty = 1;
		return p + SRV_IMAGE_HDR;
	}
	p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* advice only: without THP the image works the same, in small pages */
	(void)madvise(p, total, MADV_HUGEPAGE);
#endif
	*(size_t *)p = total;
	pthread_mutex_lock(&im->mu);
	im->live += total;
	pthread_mutex_unlock(&im->mu);
	return p + SRV_IMAGE_HDR;
}

void aieth__srv_image_free(srv_images *im, uint8_t *p, int64_t now_ms)
{
	size_t total;
	int keep = 0;
	if (!p)
		return;
	p -= SRV_IMAGE_HDR;
	total = *(size_t *)p;
	if (!total) {
		free(p);
		return;
	}
	pthread_mutex_lock(&im->mu);
	im->live -= total;
	if (im->n < SRV_IMAGE_KEEP && im->live + im->kept + total <= im->cap) {
		im->e[im->n].map = p;
		im->e[im->n].total = total;
		im->e[im->n].since_ms = now_ms;
		im->n++;
		im->kept += total;
		keep = 1;
	}
	pthread_mutex_unlock(&im->mu);
	if (!keep)
		munmap(p, total);
}
