/*
 * srv_image.c - transaction images: small ones from calloc, large ones
 * mapped directly and advised to use transparent huge pages. A fresh 256 MiB
 * image in 4 KiB pages costs 65536 page faults on first touch (the upload,
 * the device's RX writes): most of a loopback transfer's time. In 2 MiB
 * pages it costs 128. A header before the image holds its size, so that
 * freeing needs only the pointer.
 */
#include "server/srv_image.h"

#include <stdlib.h>
#include <sys/mman.h>

/* below this, calloc (its own pool, no system call per image) */
#define SRV_IMAGE_MAP_MIN ((size_t)4 << 20)
/* the header: the mapped size (0: from calloc); keeps 64-byte alignment */
#define SRV_IMAGE_HDR ((size_t)64)

uint8_t *srv_image_alloc(size_t bytes)
{
	uint8_t *p;
	size_t total;
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
	p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* advice only: without THP the image works the same, in small pages */
	(void)madvise(p, total, MADV_HUGEPAGE);
#endif
	*(size_t *)p = total;
	return p + SRV_IMAGE_HDR;
}

void srv_image_free(uint8_t *p)
{
	size_t total;
	if (!p)
		return;
	p -= SRV_IMAGE_HDR;
	total = *(size_t *)p;
	if (total)
		munmap(p, total);
	else
		free(p);
}
