/* SPDX-License-Identifier: MIT */
/* test_xclbin.c - the xclbin writer and strict reader: round trips, every
 * structural rule on corrupted files, the AIE-only rules, hashes. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../data/package/pkg_pdi.h"
#include "aieth.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "xclbin/xclbin_format.h"
#include "xclbin/xclbin_object.h"
#include "xclbin/xclbin_write.h"

/* every node XRT's edge parser reads, and a PDI the PLM would load
 * (tests/data/package/pkg_pdi.h) */
static const char meta[] = PF_META_FULL;
static uint8_t pdi[PF_PDI_BYTES];

#define PF_IDCODE_VC1902_T 0x14ca8093u /* VCK190's device (platforms/vck190.json) */

/* A fresh temporary file (8 slots, so helpers may make their own). */
static const char *tmp_path(void)
{
	static char path[8][64];
	static int slot;
	char *p = path[slot++ % 8];
	int fd;
	snprintf(p, sizeof path[0], "/tmp/aieth-xclbin-XXXXXX");
	fd = mkstemp(p);
	if (fd >= 0)
		close(fd);
	return p;
}

/* A valid AIE-only file; extra sections may be appended. */
static int write_aie(const char *p, const xb_wsection *extra, size_t nextra, const uint8_t *uuid,
		     uint8_t uuid_out[16])
{
	xb_wsection s[8];
	xb_wopts o;
	size_t n = 0, i;
	pf_pdi_build(pdi, PF_IDCODE_VC1902_T);
	memset(s, 0, sizeof s);
	s[n].kind = AIETH_XCLBIN_KIND_AIE_METADATA, s[n].name = "aie_control_config";
	s[n].data = meta, s[n++].size = strlen(meta);
	s[n].kind = AIETH_XCLBIN_KIND_PDI, s[n].name = "aie";
	s[n].data = pdi, s[n++].size = sizeof pdi;
	for (i = 0; i < nextra; i++)
		s[n++] = extra[i];
	memset(&o, 0, sizeof o);
	o.sections = s, o.num_sections = n;
	o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE;
	o.version_major = 2, o.version_minor = 23;
	o.timestamp = 1700000000;
	o.vbnv = "xilinx_vck190_base_202610_1";
	o.uuid = uuid;
	return xb_write_file(p, &o, uuid_out, NULL);
}

static void poke(const char *p, uint64_t off, const void *b, size_t n)
{
	int fd = open(p, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(pwrite(fd, b, n, (off_t)off) == (ssize_t)n);
	close(fd);
}

static void poke64(const char *p, uint64_t off, uint64_t v)
{
	uint8_t b[8];
	aieth__le64_put(b, v);
	poke(p, off, b, 8);
}

static void poke32(const char *p, uint64_t off, uint32_t v)
{
	uint8_t b[4];
	aieth__le32_put(b, v);
	poke(p, off, b, 4);
}

static uint64_t fsize(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The strict open fails with `want` in its message; the lenient open lists it
 * among the problems and aieth_xclbin_check counts it. */
static void expect_problem(const char *p, const char *want)
{
	aieth_xclbin *x = NULL;
	size_t i, n;
	int found = 0;
	CU_ASSERT_EQUAL(aieth_xclbin_open(&x, p, 0), AIETH_EPARSE);
	CU_ASSERT_PTR_NULL(x);
	if (aieth_xclbin_open(&x, p, AIETH_XCLBIN_LENIENT) != AIETH_OK) {
		found = strstr(aieth_error_message(), want) != NULL;
	} else {
		n = aieth_xclbin_num_problems(x);
		for (i = 0; i < n; i++)
			found |= strstr(aieth_xclbin_problem(x, i), want) != NULL;
		CU_ASSERT(aieth_xclbin_check(x, NULL, NULL, NULL) >= 1);
		if (!found)
			for (i = 0; i < n; i++)
				fprintf(stderr, "\n  problem: %s", aieth_xclbin_problem(x, i));
		aieth_xclbin_close(x);
	}
	if (!found)
		fprintf(stderr, "\n  expected a problem with: %s (%s)\n", want,
			aieth_error_message());
	CU_ASSERT(found);
}

static void test_round_trip(void)
{
	const char *p = tmp_path();
	aieth_xclbin *x;
	const aieth_xclbin_header *h;
	aieth_xclbin_section s;
	uint8_t uuid[16], all[4096];
	void *data;
	size_t len, i;
	int fd;
	CU_ASSERT_EQUAL_FATAL(write_aie(p, NULL, 0, NULL, uuid), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, 0), AIETH_OK);
	h = aieth_xclbin_get_header(x);
	CU_ASSERT_STRING_EQUAL(h->magic, "xclbin2");
	CU_ASSERT_EQUAL(h->length, fsize(p));
	CU_ASSERT_EQUAL(h->file_size, fsize(p));
	CU_ASSERT_EQUAL(h->signature_length, -1);
	CU_ASSERT_EQUAL(h->timestamp, 1700000000u);
	CU_ASSERT_EQUAL(h->unique_id, 1700000000u);
	CU_ASSERT_EQUAL(h->version_major, 2);
	CU_ASSERT_EQUAL(h->version_minor, 23);
	CU_ASSERT_EQUAL(h->mode, 0);
	CU_ASSERT_EQUAL(h->action_mask, AIETH_XCLBIN_AM_LOAD_AIE);
	CU_ASSERT_STRING_EQUAL(h->vbnv, "xilinx_vck190_base_202610_1");
	CU_ASSERT_EQUAL(memcmp(h->uuid, uuid, 16), 0);
	CU_ASSERT_EQUAL(h->num_sections, 2);
	CU_ASSERT_EQUAL(aieth_xclbin_num_problems(x), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_num_sections(x), 2);
	CU_ASSERT_EQUAL(aieth_xclbin_section_at(x, 0, &s), 0);
	CU_ASSERT_EQUAL(s.kind, AIETH_XCLBIN_KIND_AIE_METADATA);
	CU_ASSERT_STRING_EQUAL(s.kind_name, "AIE_METADATA");
	CU_ASSERT_STRING_EQUAL(s.name, "aie_control_con"); /* 15 characters + NUL */
	CU_ASSERT_EQUAL(s.offset, 456 + 2 * 40);
	CU_ASSERT_EQUAL(s.size, strlen(meta));
	CU_ASSERT_EQUAL(aieth_xclbin_section_at(x, 1, &s), 0);
	CU_ASSERT_EQUAL(s.offset % 8, 0);
	CU_ASSERT_EQUAL(s.offset, (456 + 80 + strlen(meta) + 7) / 8 * 8);
	CU_ASSERT_EQUAL(s.offset + s.size, fsize(p));
	CU_ASSERT_EQUAL(aieth_xclbin_section_read(x, 1, 4096, &data, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof pdi);
	CU_ASSERT_EQUAL(memcmp(data, pdi, sizeof pdi), 0);
	free(data);
	CU_ASSERT_EQUAL(aieth_xclbin_section_read(x, 0, 10, &data, &len), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_xclbin_check(x, NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, 99, &i), AIETH_ENOTFOUND);
	aieth_xclbin_close(x);
	/* header fill and zero padding as xclbinutil writes them */
	fd = open(p, O_RDONLY);
	CU_ASSERT(read(fd, all, sizeof all) == (ssize_t)fsize(p));
	close(fd);
	for (i = 12; i < 296; i++)
		CU_ASSERT_EQUAL_FATAL(all[i], 0xff);
	for (i = 456 + 80 + strlen(meta); i % 8; i++)
		CU_ASSERT_EQUAL(all[i], 0);
	unlink(p);
}

static void test_uuid(void)
{
	const char *p = tmp_path();
	uint8_t a[16], b[16], c[16], fixed[16];
	xb_wsection extra = {.kind = AIETH_XCLBIN_KIND_AIE_TRACE_METADATA,
			     .name = "aie_trace_config",
			     .data = "{}",
			     .size = 2};
	aieth_xclbin *x;
	int i;
	CU_ASSERT_EQUAL(write_aie(p, NULL, 0, NULL, a), 0);
	CU_ASSERT_EQUAL(write_aie(p, NULL, 0, NULL, b), 0);
	CU_ASSERT_EQUAL(memcmp(a, b, 16), 0); /* derived from content: stable */
	CU_ASSERT_EQUAL(a[6] >> 4, 8);        /* version 8 */
	CU_ASSERT_EQUAL(a[8] >> 6, 2);        /* RFC 4122 variant */
	CU_ASSERT_EQUAL(write_aie(p, &extra, 1, NULL, c), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a, c, 16), 0);
	for (i = 0; i < 16; i++)
		fixed[i] = (uint8_t)(0xa0 + i);
	CU_ASSERT_EQUAL(write_aie(p, NULL, 0, fixed, c), 0);
	CU_ASSERT_EQUAL(memcmp(c, fixed, 16), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, 0), 0);
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_uuid_string(x), "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
	aieth_xclbin_close(x);
	unlink(p);
}

static void test_file_payload_and_dump(void)
{
	const char *p = tmp_path();
	char src[64] = "/tmp/aieth-xclbin-src-XXXXXX", dump[80], *big, *back;
	xb_wsection extra;
	aieth_xclbin *x;
	size_t idx, n = 3u << 20, got;
	int fd = mkstemp(src), i;
	CU_ASSERT_FATAL(fd >= 0);
	big = malloc(n);
	for (i = 0; i < (int)n; i++)
		big[i] = (char)(i * 7);
	CU_ASSERT(write(fd, big, n) == (ssize_t)n);
	close(fd);
	memset(&extra, 0, sizeof extra);
	extra.kind = 29, extra.name = "resources", extra.path = src; /* AIE_RESOURCES from a file */
	CU_ASSERT_EQUAL_FATAL(write_aie(p, &extra, 1, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, 0), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_section_find(x, 29, &idx), 0);
	CU_ASSERT_EQUAL(idx, 2);
	snprintf(dump, sizeof dump, "%s.dump", src);
	CU_ASSERT_EQUAL(aieth_xclbin_section_dump(x, idx, dump), 0);
	CU_ASSERT_EQUAL(aieth__read_file(dump, n, &back, &got), 0);
	CU_ASSERT_EQUAL(got, n);
	CU_ASSERT(back && memcmp(back, big, n) == 0);
	free(back);
	CU_ASSERT_EQUAL(aieth_xclbin_section_dump(x, idx, "/nonexistent/dir/x"), AIETH_EIO);
	aieth_xclbin_close(x);
	/* a missing payload file: an error naming it, and no output left */
	unlink(src);
	CU_ASSERT_EQUAL(write_aie(dump, &extra, 1, NULL, NULL), AIETH_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), src));
	unlink(dump);
	unlink(p);
	free(big);
}

static void test_sha256_and_hash(void)
{
	aieth_sha256 s;
	aieth_hash128 h;
	uint8_t d[32], a[16], b[16];
	char hex[65];
	const char *p = tmp_path();
	aieth_xclbin *x;
	int i;
	aieth__sha256_init(&s);
	aieth__sha256_update(&s, "abc", 3);
	aieth__sha256_final(&s, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	CU_ASSERT_STRING_EQUAL(hex,
			       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	aieth__sha256_init(&s);
	for (i = 0; i < 1000; i++)
		aieth__sha256_update(
			&s,
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			1000);
	aieth__sha256_final(&s, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	/* FIPS 180-2 test vector: one million 'a' */
	CU_ASSERT_STRING_EQUAL(hex,
			       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* the fast hash: chunking does not matter, a byte does */
	aieth__hash128_init(&h);
	aieth__hash128_update(&h, "hello world, this is more than thirty-two bytes", 47);
	aieth__hash128_final(&h, a);
	aieth__hash128_init(&h);
	aieth__hash128_update(&h, "hello world, this is more ", 26);
	aieth__hash128_update(&h, "than thirty-two bytes", 21);
	aieth__hash128_final(&h, b);
	CU_ASSERT_EQUAL(memcmp(a, b, 16), 0);
	aieth__hash128_init(&h);
	aieth__hash128_update(&h, "hello world, this is more than thirty-two bytez", 47);
	aieth__hash128_final(&h, b);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, 16), 0);
	/* the file's sha256 through the reader */
	CU_ASSERT_EQUAL(write_aie(p, NULL, 0, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, 0), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_sha256(x, hex), 0);
	CU_ASSERT_EQUAL(strlen(hex), 64);
	aieth_xclbin_close(x);
	unlink(p);
}

static void test_kinds(void)
{
	uint32_t k;
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_kind_name(18), "PDI");
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_kind_name(25), "AIE_METADATA");
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_kind_name(36), "DTBO");
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_kind_name(37), "UNKNOWN");
	CU_ASSERT_EQUAL(aieth_xclbin_kind_parse("MEM_TOPOLOGY", &k), 0);
	CU_ASSERT_EQUAL(k, 6);
	CU_ASSERT_EQUAL(aieth_xclbin_kind_parse("35", &k), 0);
	CU_ASSERT_EQUAL(k, 35);
	CU_ASSERT_EQUAL(aieth_xclbin_kind_parse("ASK_FLASH", &k), 0);
	CU_ASSERT_EQUAL(k, 24);
	CU_ASSERT_EQUAL(aieth_xclbin_kind_parse("NOPE", &k), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "NOPE"));
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_mode_name(0), "FLAT");
	CU_ASSERT_STRING_EQUAL(aieth_xclbin_mode_name(7), "UNKNOWN");
}

/* ------------------------------------------------------ corruptions */

static uint64_t sec_off(const char *p, unsigned i)
{
	aieth_xclbin *x;
	aieth_xclbin_section s;
	uint64_t off = 0;
	if (aieth_xclbin_open(&x, p, AIETH_XCLBIN_LENIENT) == 0) {
		if (aieth_xclbin_section_at(x, i, &s) == 0)
			off = s.offset;
		aieth_xclbin_close(x);
	}
	return off;
}

#define SH(i, field) (XB_PREFIX + (i)*XB_SECTION_HDR + (field))

static void test_truncated(void)
{
	const char *p = tmp_path();
	write_aie(p, NULL, 0, NULL, NULL);
	CU_ASSERT_EQUAL(truncate(p, 300), 0);
	expect_problem(p, "file size: expected at least 456 bytes (the xclbin header), found 300");
	write_aie(p, NULL, 0, NULL, NULL);
	CU_ASSERT_EQUAL(truncate(p, (off_t)fsize(p) - 5), 0);
	expect_problem(p, "m_length: expected");
	expect_problem(p, "section 1 (PDI \"aie\"): end");
	write_aie(p, NULL, 0, NULL, NULL);
	CU_ASSERT_EQUAL(truncate(p, 470), 0); /* inside the section table */
	expect_problem(p, "section table: expected the file to hold 2 entries");
	CU_ASSERT_EQUAL(truncate(p, 0), 0);
	expect_problem(p, "found 0");
	unlink(p);
}

static void test_header_fields(void)
{
	const char *p = tmp_path();
	uint8_t b[64];
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, XB_OFF_LENGTH, fsize(p) + 8);
	expect_problem(p, "m_length: expected");
	write_aie(p, NULL, 0, NULL, NULL);
	poke(p, 0, "xclbin1", 7);
	expect_problem(p, "magic: expected \"xclbin2\\x00\", found \"xclbin1\\x00\"");
	write_aie(p, NULL, 0, NULL, NULL);
	poke(p, 7, "X", 1); /* XRT accepts this one; zocl does not */
	expect_problem(p, "magic");
	write_aie(p, NULL, 0, NULL, NULL);
	b[0] = 9, b[1] = 0;
	poke(p, XB_OFF_MODE, b, 2);
	expect_problem(p, "m_mode: expected 0..6 (FLAT..HW_EMU_PR), found 9");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, XB_OFF_NUM_SECTIONS, 0);
	expect_problem(p, "m_numSections: expected 1..10000, found 0");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, XB_OFF_NUM_SECTIONS, 20000);
	expect_problem(p, "m_numSections: expected 1..10000, found 20000");
	write_aie(p, NULL, 0, NULL, NULL);
	memset(b, 'v', 64);
	poke(p, XB_OFF_VBNV, b, 64);
	expect_problem(p, "m_platformVBNV: expected a NUL");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, XB_OFF_SIGLEN, 0x7fffffff);
	expect_problem(p, "m_signature_length");
	unlink(p);
}

static void test_sections(void)
{
	const char *p = tmp_path();
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, SH(1, XB_SH_OFFSET), sec_off(p, 0));
	expect_problem(p, "the sections overlap");
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, SH(1, XB_SH_SIZE), 1u << 30);
	expect_problem(p, "section 1 (PDI \"aie\"): end (offset");
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, SH(1, XB_SH_SIZE), UINT64_MAX - 4);
	expect_problem(p, "overflows");
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, SH(1, XB_SH_OFFSET), sec_off(p, 1) - 4);
	expect_problem(p, "offset: expected a multiple of 8");
	write_aie(p, NULL, 0, NULL, NULL);
	poke64(p, SH(0, XB_SH_OFFSET), 40);
	expect_problem(p, "section 0 (AIE_METADATA \"aie_control_con\"): offset: expected 536 or "
			  "more (after the section table), found 40");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, SH(1, XB_SH_KIND), 99);
	expect_problem(p, "kind: expected 0..36 (BITSTREAM..DTBO), found 99");
	unlink(p);
}

/* An array section with a stated count and a wrong size. */
static void array_case(uint32_t kind, unsigned count_bytes, int64_t count, size_t size,
		       const char *want)
{
	const char *p = tmp_path();
	uint8_t buf[512];
	xb_wsection s;
	memset(buf, 0, sizeof buf);
	if (count_bytes == 4)
		aieth__le32_put(buf, (uint32_t)count);
	else
		aieth__le16_put(buf, (uint16_t)count);
	memset(&s, 0, sizeof s);
	s.kind = kind, s.name = "array", s.data = buf, s.size = size;
	CU_ASSERT_EQUAL(write_aie(p, &s, 1, NULL, NULL), 0);
	expect_problem(p, want);
	unlink(p);
}

static void test_array_sizes(void)
{
	const char *p;
	uint8_t buf[8 + 2 * 40];
	xb_wsection s;
	aieth_xclbin *x;
	array_case(6, 4, 2, 8 + 2 * 40 + 8,
		   "(MEM_TOPOLOGY \"array\"): size: expected 88 (8 + 2 x 40 "
		   "for m_count 2), found 96");
	array_case(26, 4, 1, 40, "size: expected 48 (8 + 1 x 40");
	array_case(7, 4, 3, 3 * 12 + 8, "(CONNECTIVITY \"array\"): size: expected 40 (4 + 3 x 12");
	array_case(27, 4, 1, 20, "size: expected 16 (4 + 1 x 12");
	array_case(8, 4, 1, 80, "(IP_LAYOUT \"array\"): size: expected 88 (8 + 1 x 80");
	array_case(9, 2, 2, 8 + 144,
		   "(DEBUG_IP_LAYOUT \"array\"): size: expected 296 (8 + 2 x 144");
	array_case(11, 2, 1, 136,
		   "(CLOCK_FREQ_TOPOLOGY \"array\"): size: expected 138 (2 + 1 x 136");
	array_case(6, 4, -1, 8, "m_count: expected a count >= 0, found -1");
	array_case(8, 4, 0, 4, "size: expected at least 8 (the m_count header), found 4");
	/* the exact size passes */
	p = tmp_path();
	memset(buf, 0, sizeof buf);
	aieth__le32_put(buf, 2);
	memset(&s, 0, sizeof s);
	s.kind = 6, s.name = "mem_topology", s.data = buf, s.size = sizeof buf;
	CU_ASSERT_EQUAL(write_aie(p, &s, 1, NULL, NULL), 0);
	CU_ASSERT_EQUAL(aieth_xclbin_open(&x, p, 0), 0);
	aieth_xclbin_close(x);
	unlink(p);
}

/* ---------------------------------------------------- AIE-only rules */

static int found_flag;
static const char *found_want;
static void find_cb(void *ctx, const char *line)
{
	(void)ctx;
	if (strstr(line, found_want))
		found_flag = 1;
}

static void expect_check(const char *p, const char *want)
{
	aieth_xclbin *x;
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, AIETH_XCLBIN_LENIENT), 0);
	found_flag = 0;
	found_want = want;
	CU_ASSERT(aieth_xclbin_check(x, NULL, find_cb, NULL) >= 1);
	if (!found_flag)
		fprintf(stderr, "\n  check lacks: %s\n", want);
	CU_ASSERT(found_flag);
	aieth_xclbin_close(x);
}

static void test_aie_rules(void)
{
	const char *p = tmp_path();
	xb_wsection s[2];
	xb_wopts o;
	uint8_t b[2];
	write_aie(p, NULL, 0, NULL, NULL);
	b[0] = 0, b[1] = 0;
	poke(p, XB_OFF_ACTION, b, 2);
	expect_check(p, "m_actionMask: expected LOAD_AIE (0x1) set in an AIE-only xclbin");
	/* LOAD_PDI alone: XRT would not take it as AIE-only */
	b[0] = 2;
	poke(p, XB_OFF_ACTION, b, 2);
	expect_check(p, "m_actionMask: expected LOAD_AIE (0x1) set in an AIE-only xclbin (XRT "
			"takes it as AIE-only from that bit alone; without it the load fails with "
			"\"No xml metadata in xclbin\"), found 0x0002");
	b[0] = 3;
	poke(p, XB_OFF_ACTION, b, 2);
	{
		aieth_xclbin *x;
		CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, 0), 0);
		CU_ASSERT_EQUAL(aieth_xclbin_check(x, NULL, NULL, NULL), 0);
		aieth_xclbin_close(x);
	}
	b[0] = 5;
	poke(p, XB_OFF_ACTION, b, 2);
	expect_check(p,
		     "m_actionMask: expected only LOAD_AIE (0x1) and LOAD_PDI (0x2), found 0x0005");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, SH(1, XB_SH_KIND), 29);
	expect_check(p, "expected a PDI section");
	write_aie(p, NULL, 0, NULL, NULL);
	poke32(p, SH(0, XB_SH_KIND), 2);
	expect_check(p, "expected an AIE_METADATA section");
	memset(s, 0, sizeof s);
	s[0].kind = 20, s[0].name = "partition", s[0].data = "x", s[0].size = 1;
	write_aie(p, s, 1, NULL, NULL);
	expect_check(p, "(PARTITION_METADATA \"partition\"): expected none in an AIE-only xclbin");
	/* AIE_METADATA that is not JSON, and one without graphs */
	memset(&o, 0, sizeof o);
	s[0].kind = 25, s[0].name = "m", s[0].data = "{\"aie_metadata\": [", s[0].size = 18;
	s[1].kind = 18, s[1].name = "aie", s[1].data = pdi, s[1].size = sizeof pdi;
	o.sections = s, o.num_sections = 2, o.action_mask = 1, o.vbnv = "v";
	CU_ASSERT_EQUAL(xb_write_file(p, &o, NULL, NULL), 0);
	expect_check(p, "AIE_METADATA");
	s[0].data = "{\"aie_metadata\": {\"graphs\": {}}}", s[0].size = 32;
	CU_ASSERT_EQUAL(xb_write_file(p, &o, NULL, NULL), 0);
	expect_check(p, "expected at least one graph");
	unlink(p);
}

static void test_writer_rules(void)
{
	xb_wopts o;
	xb_wsection s = {.kind = 25, .name = "m", .data = "{}", .size = 2};
	char long_vbnv[80];
	memset(&o, 0, sizeof o);
	o.sections = &s, o.num_sections = 0, o.vbnv = "v";
	CU_ASSERT_EQUAL(xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
	memset(long_vbnv, 'a', sizeof long_vbnv - 1);
	long_vbnv[79] = 0;
	o.num_sections = 1, o.vbnv = long_vbnv;
	CU_ASSERT_EQUAL(xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "1..63"));
	o.vbnv = "v", o.mode = 7;
	CU_ASSERT_EQUAL(xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
	CU_ASSERT_EQUAL(access("/tmp/aieth-never", F_OK), -1);
}

static void test_open_errors(void)
{
	aieth_xclbin *x;
	CU_ASSERT_EQUAL(aieth_xclbin_open(&x, "/nonexistent.xclbin", 0), AIETH_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "/nonexistent.xclbin"));
	CU_ASSERT_EQUAL(aieth_xclbin_open(&x, "/tmp", AIETH_XCLBIN_LENIENT), AIETH_EIO);
	CU_ASSERT_EQUAL(aieth__xclbin_open_mem(&x, "mem", "xclbin2", 8, 0), AIETH_EPARSE);
}

/* ------------------------------------------- what XRT refuses (issue 24) */

/* An AIE-only file with this metadata text and PDI. */
static void write_with(const char *p, const char *m, const uint8_t *image, size_t image_len)
{
	xb_wsection s[2];
	xb_wopts o;
	memset(s, 0, sizeof s);
	memset(&o, 0, sizeof o);
	s[0].kind = 25, s[0].name = "aie_control_config", s[0].data = m, s[0].size = strlen(m);
	s[1].kind = 18, s[1].name = "aie", s[1].data = image, s[1].size = image_len;
	o.sections = s, o.num_sections = 2, o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE;
	o.vbnv = "xilinx_vck190_base_202610_1", o.timestamp = 1700000000;
	CU_ASSERT_EQUAL_FATAL(xb_write_file(p, &o, NULL, NULL), 0);
}

/* PF_META_FULL with `cut` replaced by `put`. */
static char *meta_edit(const char *cut, const char *put)
{
	static char out[4096];
	const char *at = strstr(meta, cut);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - meta), meta, put, at + strlen(cut));
	return out;
}

static size_t check_with_board(const char *p, const aieth_board *b, const char *want)
{
	aieth_xclbin *x;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(aieth_xclbin_open(&x, p, AIETH_XCLBIN_LENIENT), 0);
	found_flag = 0;
	found_want = want ? want : "";
	n = aieth_xclbin_check(x, b, find_cb, NULL);
	if (want && !found_flag)
		fprintf(stderr, "\n  check lacks: %s\n", want);
	CU_ASSERT(!want || found_flag);
	aieth_xclbin_close(x);
	return n;
}

static void meta_case(const char *cut, const char *put, const char *want)
{
	const char *p = tmp_path();
	pf_pdi_build(pdi, PF_IDCODE_VC1902_T);
	write_with(p, meta_edit(cut, put), pdi, sizeof pdi);
	expect_check(p, want);
	unlink(p);
}

static void test_xrt_metadata_nodes(void)
{
	const char *p = tmp_path();
	/* the complete metadata passes */
	pf_pdi_build(pdi, PF_IDCODE_VC1902_T);
	write_with(p, meta, pdi, sizeof pdi);
	CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	/* mem_tile_* instead of the legacy reserved_* rows is XRT's first choice */
	write_with(p,
		   meta_edit("\"reserved_row_start\": 0, \"reserved_num_rows\": 0",
			     "\"mem_tile_row_start\": 1, \"mem_tile_num_rows\": 2"),
		   pdi, sizeof pdi);
	CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	unlink(p);
	meta_case(
		"\"driver_config\": {\"hw_gen\": 1, \"base_address\": 2199023255552, "
		"\"column_shift\": 23, \"row_shift\": 18, \"num_columns\": 50, \"num_rows\": 9, "
		"\"shim_row\": 0, \"reserved_row_start\": 0, \"reserved_num_rows\": 0, "
		"\"aie_tile_row_start\": 1, \"aie_tile_num_rows\": 8}, ",
		"",
		"AIE_METADATA: aie_metadata.driver_config: expected the node (XRT aie_parser.cpp "
		"get_driver_config reads it; boost throws \"No such node\" without it), found none");
	meta_case("\"num_rows\": 9, ", "",
		  "aie_metadata.driver_config.num_rows: expected the node");
	meta_case("\"reserved_num_rows\": 0, ", "\"mem_tile_row_start\": 1, ",
		  "aie_metadata.driver_config.reserved_num_rows: expected the node (XRT "
		  "aie_parser.cpp get_driver_config (without mem_tile_row_start and "
		  "mem_tile_num_rows)");
	meta_case("\"aiecompiler_options\": {\"broadcast_enable_core\": true}, ", "",
		  "aie_metadata.aiecompiler_options: expected the node (XRT aie_parser.cpp "
		  "get_aiecompiler_options");
	meta_case("{\"broadcast_enable_core\": true}", "{}",
		  "aie_metadata.aiecompiler_options.broadcast_enable_core: expected the node");
	meta_case("\"RTPs\": {}, ", "",
		  "aie_metadata.RTPs: expected the node (XRT aie_parser.cpp "
		  "get_rtp");
	meta_case("\"GMIOs\": {}, ", "",
		  "aie_metadata.GMIOs: expected the node (XRT "
		  "aie_parser.cpp get_gmios");
	meta_case(", \"PLIOs\": {}", "",
		  "aie_metadata.PLIOs: expected the node (XRT aie_parser.cpp "
		  "get_plios");
	meta_case("\"core_columns\": [10], ", "",
		  "aie_metadata.graphs.graph0.core_columns: expected the node (XRT aie_parser.cpp "
		  "get_graph");
	meta_case("\"iteration_memory_addresses\": [6132]", "\"iteration_memory_addresses\": []",
		  "aie_metadata.graphs.graph0.iteration_memory_addresses: expected at least 1 "
		  "entries (one per core in core_columns; XRT aie_parser.cpp get_graph throws "
		  "\"iteration_memory_addresses < num_tiles\"), found 0");
	meta_case("\"core_columns\": [10]", "\"core_columns\": [10, 11]",
		  "aie_metadata.graphs.graph0.core_rows: expected at least 2 entries");
	meta_case("\"RTPs\": {}", "\"RTPs\": {\"r\": {\"graph_id\": 0}}",
		  "aie_metadata.RTPs.r.port_name: expected the node (XRT aie_parser.cpp get_rtp");
	meta_case("\"GMIOs\": {}", "\"GMIOs\": [{\"type\": 1, \"id\": 0, \"name\": \"g.gm\"}]",
		  "aie_metadata.GMIOs[0].channel_number: expected the node (XRT aie_parser.cpp "
		  "get_gmios");
	meta_case("\"PLIOs\": {}",
		  "\"PLIOs\": {\"p\": {\"id\": 0, \"name\": \"g.in\", "
		  "\"logical_name\": \"PLIO_01_TO_AIE\", \"shim_column\": 6, \"stream_id\": 0}}",
		  "aie_metadata.PLIOs.p: required key \"slaveOrMaster\" is missing");
	/* a GMIO of another type (a PL one) is skipped by XRT after its type */
	p = tmp_path();
	write_with(p, meta_edit("\"GMIOs\": {}", "\"GMIOs\": [{\"type\": 2}]"), pdi, sizeof pdi);
	CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	unlink(p);
}

static void pdi_case(const uint8_t *image, size_t len, const aieth_board *b, const char *want)
{
	const char *p = tmp_path();
	write_with(p, meta, image, len);
	CU_ASSERT(check_with_board(p, b, want) >= 1);
	unlink(p);
}

static void test_pdi_rules(void)
{
	uint8_t b[PF_PDI_BYTES], junk[512];
	aieth_board *board = NULL, *other = NULL;
	const char *p = tmp_path();
	uint32_t seed = 12345;
	size_t i;
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&board, "vck190", getenv("AIETH_DATA_DIR")), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_board_load(&other, "vek280", getenv("AIETH_DATA_DIR")), 0);
	/* the well-formed one passes, with and without the board */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	write_with(p, meta, b, sizeof b);
	CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	CU_ASSERT_EQUAL(check_with_board(p, board, NULL), 0);
	/* another revision of the same device passes (the revision nibble aside) */
	pf_pdi_build(b, 0x24ca8093u);
	write_with(p, meta, b, sizeof b);
	CU_ASSERT_EQUAL(check_with_board(p, board, NULL), 0);
	/* a wrong IDCODE with a valid checksum: refused with the board */
	pf_pdi_build(b, 0x14cd0093u);
	pdi_case(b, sizeof b, board,
		 "section 1 (PDI \"aie\"): Image Header Table IDCODE (offset "
		 "0x28): expected 0x14ca8093 (board vck190; the revision nibble aside, embeddedsw "
		 "xloader.c XLoader_IdCodeCheck), found 0x14cd0093");
	/* a board that states no IDCODE (VEK280, AIE-ML) cannot tell */
	write_with(p, meta_edit("\"hw_gen\": 1", "\"hw_gen\": 2"), b, sizeof b);
	CU_ASSERT_EQUAL(check_with_board(p, other, NULL), 0);
	/* a bad Image Header Table checksum */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	b[PF_PDI_IHT + 0x1c] ^= 0x40;
	pdi_case(b, sizeof b, NULL, "Image Header Table checksum (offset 0x8c): expected 0x");
	/* random bytes */
	for (i = 0; i < sizeof junk; i++) {
		seed = seed * 1103515245u + 12345u;
		junk[i] = (uint8_t)(seed >> 16);
	}
	pdi_case(junk, sizeof junk, NULL, "Image Header Table checksum");
	/* too short for the table */
	pdi_case(b, 0x90, NULL,
		 "size: expected more than 144 bytes (the SMAP words and the "
		 "Image Header Table; XRT load_pdi.c XPdi_Header_Validate), found 144");
	/* the id string, the counts */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	memcpy(b + PF_PDI_IHT + 0x28, "XXXX", 4);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "Image Header Table id string (offset 0x38): expected \"PPDI\"");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pf_pdi_put32(b + PF_PDI_IHT + 0x0c, 0);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "expected 1..32 images and 1..32 partitions (embeddedsw "
		 "xilpdi.c XilPdi_ValidateImgHdrTbl), found 1 and 0");
	/* image and partition header checksums */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	b[PF_PDI_IH + 0x20] ^= 1;
	pdi_case(b, sizeof b, NULL, "image header 0 at offset 0x90: checksum");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	b[PF_PDI_PH + 0x08] ^= 0x80; /* a flipped bit in the partition's length */
	pdi_case(b, sizeof b, NULL, "partition header 0 at offset 0xd0: checksum (offset 0x14c)");
	/* the same flip, resealed: the data no longer fits */
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "partition header 0 at offset 0xd0: data (offset 0x150, 544 "
		 "bytes): expected inside the PDI (368 bytes), found it cut");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pf_pdi_put32(b + PF_PDI_PH + 0x04, PF_PDI_CDO_WORDS + 1);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "lengths: expected non-zero word counts with total >= "
		 "encrypted and unencrypted (embeddedsw xilpdi.c XilPdi_ValidatePrtnHdr), found "
		 "encrypted 8, unencrypted 9, total 8");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pf_pdi_put32(b + PF_PDI_PH + 0x24, 0x00000006);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "partition type (attributes 0x00000006): expected 1..7, found 0");
	/* truncated: after the headers, and within them */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pdi_case(b, PF_PDI_CDO, NULL,
		 "data (offset 0x150, 32 bytes): expected inside the PDI (336 "
		 "bytes), found it cut");
	pdi_case(b, PF_PDI_PH + 64, NULL,
		 "partition header 0 at offset 0xd0: expected its 128 "
		 "bytes inside the PDI (272 bytes), found it cut");
	pdi_case(b, PF_PDI_IH + 8, NULL,
		 "image header 0 at offset 0x90: expected its 64 bytes "
		 "inside the PDI");
	/* a bad CDO header: checksum, identification, length */
	b[PF_PDI_CDO + 8] ^= 1;
	pdi_case(b, sizeof b, NULL,
		 "section 1 (PDI \"aie\"): partition header 0 data at offset "
		 "0x150: CDO header checksum: expected 0x");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	memcpy(b + PF_PDI_CDO + 4, "XLNX", 4);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL,
		 "CDO identification word: expected 0x004f4443 for version "
		 "0x200, found 0x584e4c58 (bootgen cdo-binary.c decode_cdo_binary");
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pf_pdi_put32(b + PF_PDI_CDO + 12, 4);
	pf_pdi_reseal(b);
	pdi_case(b, sizeof b, NULL, "CDO length: 4 words do not fit");
	/* the xclbin's section size cut by a flipped bit (368 -> 336) */
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	write_with(p, meta, b, sizeof b);
	poke64(p, XB_PREFIX + XB_SECTION_HDR + XB_SH_SIZE, sizeof b ^ 0x20);
	CU_ASSERT(check_with_board(p, NULL,
				   "data (offset 0x150, 32 bytes): expected inside the "
				   "PDI (336 bytes)") >= 1);
	unlink(p);
	aieth_board_free(board);
	aieth_board_free(other);
}

static void fixed_case(uint32_t kind, size_t size, const char *want)
{
	const char *p = tmp_path();
	uint8_t buf[256];
	xb_wsection s;
	aieth_xclbin *x;
	memset(buf, 0, sizeof buf);
	memset(&s, 0, sizeof s);
	s.kind = kind, s.name = "fixed", s.data = buf, s.size = size;
	CU_ASSERT_EQUAL(write_aie(p, &s, 1, NULL, NULL), 0);
	if (want) {
		expect_problem(p, want);
	} else {
		CU_ASSERT_EQUAL(aieth_xclbin_open(&x, p, 0), 0);
		aieth_xclbin_close(x);
	}
	unlink(p);
}

static void test_fixed_headers(void)
{
	fixed_case(23, 79,
		   "section 2 (SOFT_KERNEL \"fixed\"): size: expected at least 80 bytes "
		   "(struct soft_kernel in XRT's xclbin.h), found 79");
	fixed_case(24, 8, "(FLASH \"fixed\"): size: expected at least 72 bytes (struct flash");
	fixed_case(31, 47, "(VENDER_METADATA \"fixed\"): size: expected at least 48 bytes");
	fixed_case(32, 183,
		   "(AIE_PARTITION \"fixed\"): size: expected at least 184 bytes (struct "
		   "aie_partition");
	fixed_case(34, 1, "(AIE_RESOURCES_BIN \"fixed\"): size: expected at least 76 bytes");
	/* the struct alone is enough */
	fixed_case(23, 80, NULL);
	fixed_case(32, 184, NULL);
	fixed_case(34, 76, NULL);
}

TU_MAIN("xclbin", {"round trip", test_round_trip}, {"uuid", test_uuid},
	{"file payloads, dump", test_file_payload_and_dump}, {"hashes", test_sha256_and_hash},
	{"kinds", test_kinds}, {"truncated", test_truncated}, {"header fields", test_header_fields},
	{"sections", test_sections}, {"array sizes", test_array_sizes},
	{"AIE-only rules", test_aie_rules}, {"writer rules", test_writer_rules},
	{"open errors", test_open_errors}, {"XRT's metadata nodes", test_xrt_metadata_nodes},
	{"PDI rules", test_pdi_rules}, {"fixed section headers", test_fixed_headers})
