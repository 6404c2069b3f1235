/*
 * srv_image.h - the server's transaction images (TX and RX, up to GiBs):
 * zeroed memory that the kernel backs with huge pages where it can, so that
 * touching a fresh image costs few page faults (make bench, (e)).
 */
#ifndef AIETH_SRV_IMAGE_H
#define AIETH_SRV_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* bytes of zeroed memory (0 gives a valid, empty image); NULL when out of
 * memory */
uint8_t *srv_image_alloc(size_t bytes);
/* frees an image of srv_image_alloc (NULL: nothing) */
void srv_image_free(uint8_t *p);

#endif
