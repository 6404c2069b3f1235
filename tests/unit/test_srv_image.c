/* SPDX-License-Identifier: MIT */
/*
 * test_srv_image.c - th_server's transaction images (server/srv_image.c):
 * zeroed when asked, writable to the last byte, freed with the pointer
 * alone, on both sides of the size where they become mappings; large ones
 * kept for reuse within the budget, zero again when reused as RX images,
 * trimmed when idle; an impossible size is NULL.
 */
#include <stdint.h>
#include <string.h>

#include "th_server/srv_image.h"
#include "tu.h"

#define MIB ((size_t)1 << 20)

/* every byte of p[0..n) is zero */
static int all_zero(const uint8_t *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_sizes(void)
{
	static const size_t sizes[] = {0, 1, 4096, 4 * MIB - 1, 4 * MIB, 8 * MIB + 17};
	srv_images im;
	size_t k;
	aieth__srv_images_init(&im, 1024 * MIB);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t n = sizes[k];
		uint8_t *p = aieth__srv_image_alloc(&im, n, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL((uintptr_t)p % 16, 0);
		CU_ASSERT(all_zero(p, n));
		if (n) {
			memset(p, 0xa5, n);
			CU_ASSERT_EQUAL(p[n - 1], 0xa5);
		}
		aieth__srv_image_free(&im, p, 0);
	}
	aieth__srv_images_fini(&im);
}

static void test_reuse_zeroes(void)
{
	/* an RX image freed dirty is reused (no new mapping) and reads zero:
	 * another client's data never shows through */
	size_t n = 6 * MIB;
	srv_images im;
	uint8_t *p, *q;
	aieth__srv_images_init(&im, 1024 * MIB);
	p = aieth__srv_image_alloc(&im, n, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memset(p, 0xff, n);
	aieth__srv_image_free(&im, p, 100);
	CU_ASSERT(aieth__srv_images_kept(&im) >= n);
	q = aieth__srv_image_alloc(&im, n, 1);
	CU_ASSERT_PTR_EQUAL(q, p);
	CU_ASSERT_EQUAL(aieth__srv_images_kept(&im), 0);
	CU_ASSERT(all_zero(q, n));
	/* a TX image may come back as it was: its upload writes every byte */
	memset(q, 0x3c, n);
	aieth__srv_image_free(&im, q, 200);
	p = aieth__srv_image_alloc(&im, n - 4096, 0);
	CU_ASSERT_PTR_EQUAL(p, q);
	aieth__srv_image_free(&im, p, 300);
	aieth__srv_images_fini(&im);
}

static void test_take_dirty(void)
{
	/* aieth__srv_image_take clears nothing and says whether old bytes
	 * may show: fresh memory (a new mapping, calloc) no, a kept one yes */
	size_t n = 6 * MIB;
	srv_images im;
	uint8_t *p, *q;
	int dirty = -1;
	aieth__srv_images_init(&im, 1024 * MIB);
	p = aieth__srv_image_take(&im, n, &dirty);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(dirty, 0);
	CU_ASSERT(all_zero(p, n));
	memset(p, 0xa5, n);
	aieth__srv_image_free(&im, p, 100);
	q = aieth__srv_image_take(&im, n, &dirty);
	CU_ASSERT_PTR_EQUAL(q, p);
	CU_ASSERT_EQUAL(dirty, 1);
	CU_ASSERT_EQUAL(q[n - 1], 0xa5); /* as it was: the caller clears */
	aieth__srv_image_free(&im, q, 200);
	dirty = -1;
	p = aieth__srv_image_take(&im, 4096, &dirty); /* small: calloc */
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(dirty, 0);
	CU_ASSERT(all_zero(p, 4096));
	aieth__srv_image_free(&im, p, 300);
	aieth__srv_images_fini(&im);
}

static void test_fit(void)
{
	/* a kept mapping is reused only for an image it holds, at most a
	 * quarter smaller: the budget counts the image's own bytes */
	srv_images im;
	uint8_t *big, *p;
	aieth__srv_images_init(&im, 1024 * MIB);
	big = aieth__srv_image_alloc(&im, 64 * MIB, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	aieth__srv_image_free(&im, big, 0);
	p = aieth__srv_image_alloc(&im, 8 * MIB, 1);
	CU_ASSERT_PTR_NOT_EQUAL(p, big);
	CU_ASSERT(aieth__srv_images_kept(&im) >= 64 * MIB);
	aieth__srv_image_free(&im, p, 0);
	p = aieth__srv_image_alloc(&im, 65 * MIB, 1);
	CU_ASSERT_PTR_NOT_EQUAL(p, big);
	aieth__srv_image_free(&im, p, 0);
	p = aieth__srv_image_alloc(&im, 56 * MIB, 1);
	CU_ASSERT_PTR_EQUAL(p, big);
	aieth__srv_image_free(&im, p, 0);
	aieth__srv_images_fini(&im);
}

static void test_budget(void)
{
	/* in use and kept together stay within the cap: a freed image that
	 * would pass it is unmapped; a new mapping that needs room takes it
	 * from the kept ones */
	srv_images im;
	uint8_t *a, *b, *c;
	aieth__srv_images_init(&im, 40 * MIB);
	a = aieth__srv_image_alloc(&im, 16 * MIB, 1);
	b = aieth__srv_image_alloc(&im, 16 * MIB, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	aieth__srv_image_free(&im, a, 0);
	CU_ASSERT(aieth__srv_images_kept(&im) > 16 * MIB);
	c = aieth__srv_image_alloc(&im, 30 * MIB, 1); /* no fit: a's room is given back */
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(aieth__srv_images_kept(&im), 0);
	aieth__srv_image_free(&im, b, 0); /* 16 + 30 > 40: not kept */
	CU_ASSERT_EQUAL(aieth__srv_images_kept(&im), 0);
	aieth__srv_image_free(&im, c, 0);
	CU_ASSERT(aieth__srv_images_kept(&im) > 30 * MIB);
	aieth__srv_images_fini(&im);
}

static void test_trim(void)
{
	/* at most SRV_IMAGE_KEEP kept; trim gives back those idle long enough */
	srv_images im;
	uint8_t *p[SRV_IMAGE_KEEP + 1];
	size_t i;
	aieth__srv_images_init(&im, 1024 * MIB);
	for (i = 0; i <= SRV_IMAGE_KEEP; i++) {
		p[i] = aieth__srv_image_alloc(&im, 4 * MIB, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p[i]);
	}
	for (i = 0; i <= SRV_IMAGE_KEEP; i++)
		aieth__srv_image_free(&im, p[i], (int64_t)i * 1000);
	CU_ASSERT(aieth__srv_images_kept(&im) >= SRV_IMAGE_KEEP * 4 * MIB);
	CU_ASSERT(aieth__srv_images_kept(&im) < (SRV_IMAGE_KEEP + 1) * 4 * MIB);
	aieth__srv_images_trim(&im, 2500, 1000); /* freed at 0 and 1000: gone */
	CU_ASSERT(aieth__srv_images_kept(&im) >= (SRV_IMAGE_KEEP - 2) * 4 * MIB);
	CU_ASSERT(aieth__srv_images_kept(&im) < (SRV_IMAGE_KEEP - 1) * 4 * MIB);
	aieth__srv_images_trim(&im, 100000, 1000);
	CU_ASSERT_EQUAL(aieth__srv_images_kept(&im), 0);
	aieth__srv_images_fini(&im);
}

static void test_refusals(void)
{
	srv_images im;
	aieth__srv_images_init(&im, 1024 * MIB);
	CU_ASSERT_PTR_NULL(aieth__srv_image_alloc(&im, SIZE_MAX, 1));
	CU_ASSERT_PTR_NULL(aieth__srv_image_alloc(&im, SIZE_MAX - 63, 1));
	aieth__srv_image_free(&im, NULL, 0);
	aieth__srv_images_fini(&im);
}

TU_MAIN("srv_image", {"sizes", test_sizes}, {"reuse_zeroes", test_reuse_zeroes},
	{"take_dirty", test_take_dirty}, {"fit", test_fit}, {"budget", test_budget},
	{"trim", test_trim}, {"refusals", test_refusals})
