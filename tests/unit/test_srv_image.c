/*
 * test_srv_image.c - th_server's transaction images (server/srv_image.c):
 * zeroed, writable to the last byte, freed with the pointer alone, on both
 * sides of the size where they become mappings; an impossible size is NULL.
 */
#include <stdint.h>
#include <string.h>

#include "server/srv_image.h"
#include "tu.h"

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
	static const size_t sizes[] = {0, 1, 4096, (4u << 20) - 1, 4u << 20, (8u << 20) + 17};
	size_t k;
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t n = sizes[k];
		uint8_t *p = srv_image_alloc(n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL((uintptr_t)p % 16, 0);
		CU_ASSERT(all_zero(p, n));
		if (n) {
			memset(p, 0xa5, n);
			CU_ASSERT_EQUAL(p[n - 1], 0xa5);
		}
		srv_image_free(p);
	}
}

static void test_fresh_after_reuse(void)
{
	/* an image freed dirty: the next one is zero again (another client's
	 * data never shows through) */
	size_t n = 6u << 20;
	uint8_t *p = srv_image_alloc(n), *q;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memset(p, 0xff, n);
	srv_image_free(p);
	q = srv_image_alloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT(all_zero(q, n));
	srv_image_free(q);
}

static void test_refusals(void)
{
	CU_ASSERT_PTR_NULL(srv_image_alloc(SIZE_MAX));
	CU_ASSERT_PTR_NULL(srv_image_alloc(SIZE_MAX - 63));
	srv_image_free(NULL);
}

TU_MAIN("srv_image", {"sizes", test_sizes}, {"fresh_after_reuse", test_fresh_after_reuse},
	{"refusals", test_refusals})
