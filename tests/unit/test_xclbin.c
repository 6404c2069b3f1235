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
#include "xclbin/pdi_format.h"
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
	return aieth__xb_write_file(p, &o, uuid_out, NULL);
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
	if (!*found_want) /* none expected: show it */
		fprintf(stderr, "\n  problem: %s\n", line);
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
	CU_ASSERT_EQUAL(aieth__xb_write_file(p, &o, NULL, NULL), 0);
	expect_check(p, "AIE_METADATA");
	s[0].data = "{\"aie_metadata\": {\"graphs\": {}}}", s[0].size = 32;
	CU_ASSERT_EQUAL(aieth__xb_write_file(p, &o, NULL, NULL), 0);
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
	CU_ASSERT_EQUAL(aieth__xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
	memset(long_vbnv, 'a', sizeof long_vbnv - 1);
	long_vbnv[79] = 0;
	o.num_sections = 1, o.vbnv = long_vbnv;
	CU_ASSERT_EQUAL(aieth__xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "1..63"));
	o.vbnv = "v", o.mode = 7;
	CU_ASSERT_EQUAL(aieth__xb_write_file("/tmp/aieth-never", &o, NULL, NULL), AIETH_EINVAL);
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

/* ------------------------------------------- what XRT refuses */

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
	CU_ASSERT_EQUAL_FATAL(aieth__xb_write_file(p, &o, NULL, NULL), 0);
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

/* ---------------------------------- values XRT cannot convert */

/* One RTP with all its keys; `cut` of it replaced by `put`. */
#define RTP_FULL                                                                                  \
	"\"RTPs\": {\"r\": {\"graph_id\": 0, \"port_id\": 1, \"alias_id\": 2, \"port_name\": "    \
	"\"g.k.in[1]\", \"alias_name\": \"g.rtp\", \"number_of_bytes\": 4, \"selector_row\": 1, " \
	"\"selector_column\": 10, \"selector_lock_id\": 0, \"selector_address\": 0, "             \
	"\"ping_buffer_row\": 1, \"ping_buffer_column\": 10, \"ping_buffer_lock_id\": 1, "        \
	"\"ping_buffer_address\": 16, \"pong_buffer_row\": 1, \"pong_buffer_column\": 10, "       \
	"\"pong_buffer_lock_id\": 2, \"pong_buffer_address\": 32, \"is_PL_RTP\": false, "         \
	"\"is_input\": true, \"is_asynchronous\": \"1\", \"is_connected\": \"false\", "           \
	"\"requires_lock\": 0}}"
#define SBUF_FULL                                                                             \
	"\"SharedBufferConfigs\": {\"b\": {\"graph_id\": 0, \"id\": 1, \"name\": \"g.buf\", " \
	"\"size\": 1024, \"column\": 10, \"row\": 1, \"num_inputs\": 1, \"num_outputs\": 1, " \
	"\"initialized\": false, \"address\": [4096], \"producer_lock_ids\": [0], "           \
	"\"consumer_lock_ids\": [\"1\"]}}, "
#define EBUF_FULL                                                                              \
	"\"ExternalBufferConfigs\": [{\"id\": 0, \"name\": \"g.ext\", \"shimPortConfigs\": "   \
	"[{\"portId\": 0, \"portName\": \"g.ext.in\", \"direction\": \"mm2s\", "               \
	"\"shim_column\": 2, \"channel_number\": 0, \"task_repetition\": 1, "                  \
	"\"enable_task_complete_token\": 0, \"shimBDInfos\": [{\"bd_id\": 0, \"buf_idx\": 0, " \
	"\"offset\": 0, \"transaction_size\": 256}]}]}], "

/* PF_META_FULL with `cut` replaced by `put`, then `cut2` of that by `put2`. */
static char *meta_edit2(const char *cut, const char *put, const char *cut2, const char *put2)
{
	static char out[8192];
	char *first = meta_edit(cut, put), *at = strstr(first, cut2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - first), first, put2, at + strlen(cut2));
	return out;
}

static void meta_text_case(const char *m, const char *want)
{
	const char *p = tmp_path();
	pf_pdi_build(pdi, PF_IDCODE_VC1902_T);
	write_with(p, m, pdi, sizeof pdi);
	if (want) {
		expect_check(p, want);
	} else {
		CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	}
	unlink(p);
}

#define TYPE_MSG(t) "expected " t " (XRT aie_parser.cpp "

static void test_xrt_metadata_values(void)
{
	const char *rtp = "\"RTPs\": {}";
	/* what boost converts: numbers as JSON numbers or as their text, with
	 * spaces around; booleans as words or 0/1; optional collections in full */
	meta_text_case(meta_edit2("\"num_rows\": 9", "\"num_rows\": \" 9 \"",
				  "\"base_address\": "
				  "2199023255552",
				  "\"base_address\": \"2199023255552\""),
		       NULL);
	meta_text_case(meta_edit2("\"broadcast_enable_core\": true",
				  "\"broadcast_enable_core\": \"1\"", "\"id\": 0", "\"id\": \"0\""),
		       NULL);
	meta_text_case(
		meta_edit2(rtp, RTP_FULL, "\"GMIOs\": {}, ", "\"GMIOs\": {}, " SBUF_FULL EBUF_FULL),
		NULL);
	/* each type XRT converts to, with a value it cannot convert */
	meta_case(
		"\"num_rows\": 9", "\"num_rows\": \"nine\"",
		"aie_metadata.driver_config.num_rows: " TYPE_MSG(
			"uint8_t (0..255)") "get_driver_config "
					    "converts it with boost property_tree get; it throws on what does not convert), "
					    "found \"nine\"");
	meta_case("\"base_address\": 2199023255552", "\"base_address\": \"0x20000000000\"",
		  "aie_metadata.driver_config.base_address: " TYPE_MSG(
			  "uint64_t") "get_driver_config");
	meta_case("\"num_columns\": 50", "\"num_columns\": 256",
		  "aie_metadata.driver_config.num_columns: " TYPE_MSG("uint8_t (0..255)"));
	meta_case("\"column_shift\": 23", "\"column_shift\": 23.0",
		  "aie_metadata.driver_config.column_shift: " TYPE_MSG("uint8_t (0..255)"));
	meta_case("\"shim_row\": 0", "\"shim_row\": -1",
		  "aie_metadata.driver_config.shim_row: " TYPE_MSG("uint8_t (0..255)"));
	meta_case("\"aie_tile_num_rows\": 8", "\"aie_tile_num_rows\": true",
		  "aie_metadata.driver_config.aie_tile_num_rows: " TYPE_MSG("uint8_t (0..255)"));
	meta_case("\"broadcast_enable_core\": true", "\"broadcast_enable_core\": \"maybe\"",
		  "aie_metadata.aiecompiler_options.broadcast_enable_core: " TYPE_MSG(
			  "bool (true, false, 1 or 0)") "get_aiecompiler_options");
	meta_text_case(meta_edit2(rtp, RTP_FULL, "\"graph_id\": 0", "\"graph_id\": \"zero\""),
		       "aie_metadata.RTPs.r.graph_id: " TYPE_MSG("int") "get_rtp");
	meta_case("\"core_columns\": [10]", "\"core_columns\": [\"ten\"]",
		  "aie_metadata.graphs.graph0.core_columns[0]: " TYPE_MSG(
			  "an unsigned integer (std::stoul)") "get_graph");
	meta_case(
		"\"iteration_memory_addresses\": [6132]", "\"iteration_memory_addresses\": [{}]",
		"aie_metadata.graphs.graph0.iteration_memory_addresses[0]: " TYPE_MSG(
			"an unsigned integer (std::stoul)") "get_graph converts it with boost "
							    "property_tree get; it throws on what does not convert), found an object");
	meta_text_case(meta_edit(rtp, RTP_FULL), NULL);
	meta_text_case(
		meta_edit2(rtp, RTP_FULL, "\"is_input\": true", "\"is_input\": \"maybe\""),
		"aie_metadata.RTPs.r.is_input: " TYPE_MSG("bool (true, false, 1 or 0)") "get_rtp");
	meta_text_case(meta_edit2(rtp, RTP_FULL, "\"selector_row\": 1", "\"selector_row\": 40000"),
		       "aie_metadata.RTPs.r.selector_row: " TYPE_MSG("short (-32768..32767)"));
	meta_text_case(meta_edit2(rtp, RTP_FULL, "\"requires_lock\": 0",
				  "\"requires_lock\": 0, \"blocking\": 2"),
		       "aie_metadata.RTPs.r.blocking: " TYPE_MSG("bool (true, false, 1 or 0)"));
	meta_case("\"GMIOs\": {}",
		  "\"GMIOs\": [{\"type\": 0, \"id\": 0, \"name\": \"g.gm\", \"logical_name\": "
		  "\"gm\", \"shim_column\": \"six\", \"channel_number\": 0, \"stream_id\": 0, "
		  "\"burst_length_in_16byte\": 4}]",
		  "aie_metadata.GMIOs[0].shim_column: " TYPE_MSG(
			  "short (-32768..32767)") "get_gmios");
	meta_case("\"GMIOs\": {}", "\"GMIOs\": [{\"type\": \"one\"}]",
		  "aie_metadata.GMIOs[0].type: " TYPE_MSG("uint16_t (0..65535)") "get_gmios");
	meta_case("\"reserved_row_start\": 0, \"reserved_num_rows\": 0",
		  "\"mem_tile_row_start\": \"one\", \"mem_tile_num_rows\": 1",
		  "aie_metadata.driver_config.reserved_row_start: expected the node (XRT "
		  "aie_parser.cpp get_driver_config (without mem_tile_row_start and "
		  "mem_tile_num_rows)");
	/* optional collections: once there, each entry is read whole */
	meta_text_case(
		meta_edit2("\"GMIOs\": {}, ", "\"GMIOs\": {}, " SBUF_FULL, "\"size\": 1024, ", ""),
		"aie_metadata.SharedBufferConfigs.b.size: expected the node (XRT "
		"aie_parser.cpp get_shared_buffers");
	meta_text_case(meta_edit2("\"GMIOs\": {}, ", "\"GMIOs\": {}, " SBUF_FULL,
				  "\"address\": [4096]", "\"address\": [\"a\"]"),
		       "aie_metadata.SharedBufferConfigs.b.address[0]: " TYPE_MSG(
			       "uint64_t") "get_shared_buffers");
	meta_text_case(meta_edit2("\"GMIOs\": {}, ", "\"GMIOs\": {}, " SBUF_FULL,
				  "\"initialized\": false", "\"initialized\": \"no\""),
		       "aie_metadata.SharedBufferConfigs.b.initialized: " TYPE_MSG(
			       "bool (true, false, 1 or 0)"));
	meta_text_case(
		meta_edit2("\"GMIOs\": {}, ", "\"GMIOs\": {}, " EBUF_FULL, "\"shim_column\": 2",
			   "\"shim_column\": \"x\""),
		"aie_metadata.ExternalBufferConfigs[0].shimPortConfigs[0].shim_column: " TYPE_MSG(
			"int") "get_external_buffers");
	meta_text_case(meta_edit2("\"GMIOs\": {}, ", "\"GMIOs\": {}, " EBUF_FULL,
				  "\"transaction_size\": 256", "\"transaction_size\": 2.5"),
		       "shimPortConfigs[0].shimBDInfos[0].transaction_size: " TYPE_MSG("int"));
	meta_case("\"GMIOs\": {}, ",
		  "\"GMIOs\": {}, \"ExternalBufferConfigs\": [{\"id\": 1, "
		  "\"name\": \"e\"}], ",
		  "aie_metadata.ExternalBufferConfigs[0].shimPortConfigs: expected the node");
	meta_case(
		"\"GMIOs\": {}, ",
		"\"GMIOs\": {}, \"TraceGMIOs\": [{\"id\": 0, \"shim_column\": "
		"1, \"channel_number\": 0, \"stream_id\": \"s\", \"burst_length_in_16byte\": 8}], ",
		"aie_metadata.TraceGMIOs[0].stream_id: " TYPE_MSG("uint16_t (0..65535)"));
	meta_case(
		"\"GMIOs\": {}, ",
		"\"GMIOs\": {}, \"PerformanceCounter\": [{\"id\": 0, "
		"\"core_column\": 1, \"core_row\": 1, \"counterId\": 300, \"start\": 1, \"stop\": "
		"2, \"module\": \"core\", \"name\": \"c\"}], ",
		"aie_metadata.PerformanceCounter[0].counterId: " TYPE_MSG("uint8_t (0..255)"));
	meta_case(
		"\"GMIOs\": {}, ", "\"GMIOs\": {}, \"PerformanceCounter\": [], ",
		"aie_metadata.DeviceData: expected the node (XRT aie_parser.cpp get_clock_freq_mhz");
	meta_case("\"GMIOs\": {}, ",
		  "\"GMIOs\": {}, \"PerformanceCounter\": [], \"DeviceData\": "
		  "{\"AIEFrequency\": \"fast\"}, ",
		  "aie_metadata.DeviceData.AIEFrequency: " TYPE_MSG("double"));
	meta_text_case(meta_edit("\"GMIOs\": {}, ", "\"GMIOs\": {}, \"PerformanceCounter\": [], "
						    "\"DeviceData\": {\"AIEFrequency\": 1250.0}, "),
		       NULL);
}

/* The fixture PDI with its three command words replaced. */
static void cdo_case(uint32_t w0, uint32_t w1, uint32_t w2, const char *want)
{
	uint8_t b[PF_PDI_BYTES];
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	pf_pdi_put32(b + PF_PDI_CDO + 0x14, w0);
	pf_pdi_put32(b + PF_PDI_CDO + 0x18, w1);
	pf_pdi_put32(b + PF_PDI_CDO + 0x1c, w2);
	pf_pdi_reseal(b);
	if (want) {
		pdi_case(b, sizeof b, NULL, want);
	} else {
		const char *p = tmp_path();
		write_with(p, meta, b, sizeof b);
		CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
		unlink(p);
	}
}

static void test_cdo_commands(void)
{
	/* a write (module 1, command 3), a NOP with a long length, a XilPM
	 * command XRT's own CDO parser does not know, the end mark and what
	 * follows it */
	cdo_case(0x00020103u, 0xf1230000u, 0, NULL);
	cdo_case(0x00ff0111u, 1, 0xdeadbeefu, NULL);
	cdo_case(0x0002020du, 0x1822403fu, 0, NULL);
	cdo_case(0x00010111u, 0, 0x00000100u, NULL);
	cdo_case(0x00000100u, 0xffffffffu, 0xffffffffu, NULL);
	/* an unknown command of the generic module, an unknown module */
	cdo_case(0x0002017fu, 0, 0,
		 "partition header 0 data at offset 0x150: CDO command at word 5 (offset 0x164, "
		 "header 0x0002017f): command: expected one of the PLM's generic commands 0..42 "
		 "(module 1), found 127: an unknown command");
	cdo_case(0x00020903u, 0, 0,
		 "CDO command at word 5 (offset 0x164, header 0x00020903): module: expected a PLM "
		 "module");
	cdo_case(0, 0, 0, "header 0x00000000): module: expected a PLM module");
	/* a command running past the CDO; a long length word past it */
	cdo_case(0x00050103u, 0, 0,
		 "CDO command at word 5 (offset 0x164, header 0x00050103, module 1 command 3): "
		 "payload: expected at most 2 words (what is left of the CDO's 3 command words), "
		 "found 5: the command runs past the CDO");
	cdo_case(0x00ff0111u, 7, 0, "found 7: the command runs past the CDO");
	cdo_case(
		0x00010111u, 0, 0x00ff0111u,
		"CDO command at word 7 (offset 0x16c, header 0x00ff0111): expected its long length "
		"in the next word, found the end of the CDO");
	/* a length that cuts the command: a write of one word */
	cdo_case(
		0x00010103u, 0, 0x00010111u,
		"header 0x00010103): payload of write (address, value): expected at least 2 words, "
		"found 1: a length that cuts the command");
}

/* A PDI whose CDO holds 3000 writes, a DMA write of 20000 words, and then
 * `last`: the walk reads across its windows and skips the long payload. */
static void big_cdo_case(uint32_t last, const char *want)
{
	enum { WRITES = 3000, DMA = 20000 };
	size_t words = 5 + 3 * WRITES + 4 + DMA + 3, i, k;
	size_t len = PF_PDI_CDO + 4 * words;
	uint8_t *b = calloc(1, len);
	const char *p = tmp_path();
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	for (k = 0; k < 3; k++)
		pf_pdi_put32(b + PF_PDI_PH + 4 * k, (uint32_t)words);
	pf_pdi_put32(b + PF_PDI_CDO + 12, (uint32_t)(words - 5));
	for (i = 0, k = PF_PDI_CDO + 20; i < WRITES; i++, k += 12) {
		pf_pdi_put32(b + k, 0x00020103u);
		pf_pdi_put32(b + k + 4, 0xf1230000u + 4 * (uint32_t)i);
		pf_pdi_put32(b + k + 8, (uint32_t)i);
	}
	pf_pdi_put32(b + k, 0x00ff0105u); /* dma_write, long form */
	pf_pdi_put32(b + k + 4, DMA + 2);
	k += 16 + 4 * DMA;
	pf_pdi_put32(b + k, last);
	pf_pdi_reseal(b);
	write_with(p, meta, b, len);
	if (want) {
		CU_ASSERT(check_with_board(p, NULL, want) >= 1);
	} else {
		CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	}
	unlink(p);
	free(b);
}

static void test_cdo_long_stream(void)
{
	big_cdo_case(0x00020111u, NULL); /* a nop with 2 words */
	big_cdo_case(0x0002017fu,
		     "CDO command at word 29009 (offset 0x1c694, header 0x0002017f): command: "
		     "expected one of the PLM's generic commands 0..42");
	big_cdo_case(0x00030103u, "found 3: the command runs past the CDO");
}

/* A PDI in memory read through a reader that counts its calls and bytes
 * (each call of a file's reader is one pread). */
typedef struct {
	const uint8_t *b;
	size_t len, calls, bytes;
} counted;

static int counted_read(void *ctx, void *buf, size_t n, uint64_t off)
{
	counted *c = ctx;
	if (off > c->len || n > c->len - off) {
		CU_FAIL("a read past the PDI");
		return aieth__fail(AIETH_EINVAL, "read past the PDI");
	}
	memcpy(buf, c->b + off, n);
	c->calls++, c->bytes += n;
	return 0;
}

/* A PDI whose CDO holds `writes` writes (3 words each), then `dmas` DMA
 * writes of dma_words words each, then a nop; *len gets its size. */
static uint8_t *walk_pdi(size_t writes, size_t dmas, size_t dma_words, size_t *len)
{
	size_t words = 5 + 3 * writes + dmas * (4 + dma_words) + 3, i, k;
	uint8_t *b;
	*len = PF_PDI_CDO + 4 * words;
	b = calloc(1, *len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	pf_pdi_build(b, PF_IDCODE_VC1902_T);
	for (k = 0; k < 3; k++)
		pf_pdi_put32(b + PF_PDI_PH + 4 * k, (uint32_t)words);
	pf_pdi_put32(b + PF_PDI_CDO + 12, (uint32_t)(words - 5));
	for (i = 0, k = PF_PDI_CDO + 20; i < writes; i++, k += 12) {
		pf_pdi_put32(b + k, 0x00020103u);
		pf_pdi_put32(b + k + 4, 0xf1230000u + 4 * (uint32_t)i);
		pf_pdi_put32(b + k + 8, (uint32_t)i);
	}
	for (i = 0; i < dmas; i++, k += 16 + 4 * dma_words) {
		pf_pdi_put32(b + k, 0x00ff0105u); /* dma_write, long form */
		pf_pdi_put32(b + k + 4, (uint32_t)dma_words + 2);
	}
	pf_pdi_put32(b + k, 0x00020111u); /* a nop with 2 words */
	pf_pdi_reseal(b);
	return b;
}

static size_t walk_counted(const uint8_t *b, size_t len, unsigned flags, counted *c)
{
	c->b = b, c->len = len, c->calls = 0, c->bytes = 0;
	return aieth__pdi_check(counted_read, c, len, "walk.pdi", NULL, NULL, NULL, flags);
}

/* The walk's reads: a file (each read a system call) in windows of
 * AIETH_IO_CHUNK holding every command header they reach, about one read
 * per MiB whatever the commands' sizes, a payload longer than a window
 * skipped, not read; memory in small reads of the command words only. */
static void test_cdo_walk_reads(void)
{
	size_t len, mib;
	counted c;
	uint8_t *b;
	/* 700000 writes (8 MiB of 12-byte commands): the headers' own reads
	 * and one per MiB; the old walk read 4 KiB at a time (2050 reads) */
	b = walk_pdi(700000, 0, 0, &len);
	mib = len >> 20;
	CU_ASSERT_EQUAL(walk_counted(b, len, 0, &c), 0);
	CU_ASSERT(c.calls <= 8 + mib + 1);
	CU_ASSERT(c.bytes <= len + 4096);
	/* memory: the same walk, in small reads, and nothing read twice */
	CU_ASSERT_EQUAL(walk_counted(b, len, AIETH_PDI_READ_MEM, &c), 0);
	CU_ASSERT(c.bytes <= len + 4096);
	/* the walk skipped: the headers alone */
	CU_ASSERT_EQUAL(walk_counted(b, len, AIETH_PDI_NO_WALK, &c), 0);
	CU_ASSERT(c.calls <= 8 && c.bytes <= 1024);
	free(b);
	/* 512 DMA writes of 16 KiB (the bench's elfs CDO, 8 MiB): one read
	 * per MiB (the old walk: one per command, 512) */
	b = walk_pdi(10, 512, 4096, &len);
	mib = len >> 20;
	CU_ASSERT_EQUAL(walk_counted(b, len, 0, &c), 0);
	CU_ASSERT(c.calls <= 8 + mib + 1);
	/* memory: the command words only, not the payloads */
	CU_ASSERT_EQUAL(walk_counted(b, len, AIETH_PDI_READ_MEM, &c), 0);
	CU_ASSERT(c.bytes <= 1024 + 513 * 64);
	free(b);
	/* 4 DMA writes of 3 MiB: a payload longer than the window is skipped
	 * by offset, one read per command */
	b = walk_pdi(1, 4, 3u << 18, &len);
	CU_ASSERT_EQUAL(walk_counted(b, len, 0, &c), 0);
	CU_ASSERT(c.calls <= 8 + 6);
	CU_ASSERT(c.bytes <= 8 * AIETH_IO_CHUNK && c.bytes < len / 2);
	free(b);
	/* a problem after the windows is still found, at its word */
	b = walk_pdi(700000, 0, 0, &len);
	pf_pdi_put32(b + len - 12, 0x0002017fu);
	CU_ASSERT_EQUAL(walk_counted(b, len, 0, &c), 1);
	CU_ASSERT_EQUAL(walk_counted(b, len, AIETH_PDI_READ_MEM, &c), 1);
	CU_ASSERT_EQUAL(walk_counted(b, len, AIETH_PDI_NO_WALK, &c), 0);
	free(b);
}

/* A text section: EMBEDDED_METADATA (2) or BUILD_METADATA (14). */
static void text_case(uint32_t kind, const char *text, const char *want)
{
	const char *p = tmp_path();
	xb_wsection s;
	memset(&s, 0, sizeof s);
	s.kind = kind, s.name = "text", s.data = text, s.size = strlen(text);
	CU_ASSERT_EQUAL(write_aie(p, &s, 1, NULL, NULL), 0);
	if (want) {
		expect_check(p, want);
	} else {
		CU_ASSERT_EQUAL(check_with_board(p, NULL, NULL), 0);
	}
	unlink(p);
}

static void test_text_sections(void)
{
	/* boost's read_xml does not compare closing names; a NUL ends the text */
	text_case(2, "<?xml version=\"1.0\"?>\n<project name='p'><platform/></projecX>\n", NULL);
	text_case(2, "<!-- c --><project><![CDATA[<x>]]></project>\0junk", NULL);
	text_case(
		2, "kernel vadd",
		"section 2 (EMBEDDED_METADATA \"text\"): expected XML (XRT xclbinutil "
		"SectionEmbeddedMetadata.cxx and core/common/xclbin_parser.cpp read it with boost "
		"read_xml), found expected < at byte 0");
	text_case(2, "<project><platform></project>",
		  "expected XML (XRT xclbinutil SectionEmbeddedMetadata.cxx and core/common/"
		  "xclbin_parser.cpp read it with boost read_xml), found unexpected end of data");
	text_case(2, "<project name=p/>", "found expected ' or \" at byte 14");
	text_case(2, "<?xml version=\"1.0\"?>", "found no element");
	text_case(14, "{\"build_metadata\": {\"xclbin\": {}}}", NULL);
	text_case(
		14, "{\"xclbin\": {}}",
		"section 2 (BUILD_METADATA \"text\"): expected JSON with a \"build_metadata\" root "
		"(XRT xclbinutil SectionBuildMetadata.cxx: read_json, then "
		"get_child(\"build_metadata\")), found no \"build_metadata\" root");
	text_case(14, "{\"build_metadata\": {}", "found not JSON (it ends inside a value");
	text_case(14, "<build_metadata/>", "found not JSON (");
	text_case(14, "{\"build_metadata\": {}} x",
		  "found not JSON (unexpected character at byte 23)");
}

TU_MAIN("xclbin", {"round trip", test_round_trip}, {"uuid", test_uuid},
	{"file payloads, dump", test_file_payload_and_dump}, {"hashes", test_sha256_and_hash},
	{"kinds", test_kinds}, {"truncated", test_truncated}, {"header fields", test_header_fields},
	{"sections", test_sections}, {"array sizes", test_array_sizes},
	{"AIE-only rules", test_aie_rules}, {"writer rules", test_writer_rules},
	{"open errors", test_open_errors}, {"XRT's metadata nodes", test_xrt_metadata_nodes},
	{"PDI rules", test_pdi_rules}, {"fixed section headers", test_fixed_headers},
	{"XRT's metadata values", test_xrt_metadata_values},
	{"CDO command stream", test_cdo_commands},
	{"a long CDO command stream", test_cdo_long_stream},
	{"the CDO walk's reads", test_cdo_walk_reads}, {"text sections", test_text_sections})
