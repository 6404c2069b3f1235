/* SPDX-License-Identifier: MIT */
/* test_data.c - channel data: element types, text and binary files,
 * atomic writes, patterns and golden comparison (data/data.h). */
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "data/data.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"

/* Assert that the last error message contains s. */
#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

#define LIMIT ((size_t)1 << 20)

/* Parse text as type t; on success compare with the expected bytes. */
static void parse_ok(aieth_elem t, const char *text, const void *want, size_t want_len)
{
	uint8_t *out = NULL;
	size_t len = 0;
	int rc = aieth__text_parse("in.txt", text, strlen(text), t, LIMIT, &out, &len);
	if (rc != AIETH_OK)
		fprintf(stderr, "\n  unexpected failure: %s\n", aieth_error_message());
	CU_ASSERT_EQUAL_FATAL(rc, AIETH_OK);
	CU_ASSERT_EQUAL(len, want_len);
	if (len == want_len)
		CU_ASSERT_EQUAL(memcmp(out, want, len), 0);
	free(out);
}

/* Parse must fail with code and a message containing s. */
static void parse_fails(aieth_elem t, const char *text, int code, const char *s)
{
	uint8_t *out = (uint8_t *)1;
	size_t len = 99;
	int rc = aieth__text_parse("in.txt", text, strlen(text), t, LIMIT, &out, &len);
	CU_ASSERT_EQUAL(rc, code);
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_EQUAL(len, 0);
	MSG_HAS(s);
}

/* A fresh path in a fresh temporary directory (removed by cleanup_dir). */
static char tmpdir[64];

static const char *tmppath(const char *name)
{
	static char buf[4][128];
	static int slot;
	char *b = buf[slot++ % 4];
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof tmpdir, "/tmp/aieth-data-XXXXXX");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	snprintf(b, sizeof buf[0], "%s/%s", tmpdir, name);
	return b;
}

/* Files in the temporary directory whose name contains s. */
static int count_files(const char *s)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strstr(e->d_name, s))
			n++;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	char *t = NULL;
	size_t n;
	if (aieth__read_file(path, LIMIT, &t, &n) != AIETH_OK)
		return NULL;
	return t;
}

/* ------------------------------------------------------------ elements */

static void test_elem_names(void)
{
	static const char *const names[] = {"int8",   "int16",  "int32",  "int64", "uint8",
					    "uint16", "uint32", "uint64", "float", "double",
					    "cint16", "cint32", "cfloat"};
	static const size_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 4, 8, 8};
	unsigned i;
	aieth_elem t;
	CU_ASSERT_EQUAL(sizeof names / sizeof names[0], AIETH_ELEM_COUNT);
	for (i = 0; i < AIETH_ELEM_COUNT; i++) {
		CU_ASSERT_EQUAL(aieth__elem_parse(names[i], &t), AIETH_OK);
		CU_ASSERT_EQUAL(t, (aieth_elem)i);
		CU_ASSERT_STRING_EQUAL(aieth__elem_name(t), names[i]);
		CU_ASSERT_EQUAL(aieth__elem_size(t), sizes[i]);
		CU_ASSERT_EQUAL(aieth__elem_parts(t), i >= AIETH_ELEM_CINT16 ? 2u : 1u);
		CU_ASSERT_EQUAL(aieth__elem_is_float(t), t == AIETH_ELEM_FLOAT ||
								 t == AIETH_ELEM_DOUBLE ||
								 t == AIETH_ELEM_CFLOAT);
	}
	CU_ASSERT_EQUAL(aieth__elem_parse("int12", &t), AIETH_EINVAL);
	MSG_HAS("unknown element type \"int12\"");
	MSG_HAS("int8, int16, int32, int64, uint8, uint16, uint32, uint64, float, double, cint16, "
		"cint32, cfloat");
	CU_ASSERT_EQUAL(aieth__elem_parse("Int8", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__elem_parse(NULL, &t), AIETH_EINVAL);
	CU_ASSERT_STRING_EQUAL(aieth__elem_name(AIETH_ELEM_COUNT), "?");
	CU_ASSERT_EQUAL(aieth__elem_size(AIETH_ELEM_COUNT), 0);
}

/* ------------------------------------------------------- text parsing */

static void test_parse_minmax(void)
{
	static const uint8_t i8[] = {0x80, 0x7f, 0x00, 0xff};
	static const uint8_t i16[] = {0x00, 0x80, 0xff, 0x7f};
	static const uint8_t i32[] = {0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0x7f};
	static const uint8_t i64[] = {0,    0,    0,    0,    0,    0,    0,    0x80,
				      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
	static const uint8_t u8[] = {0, 0xff};
	static const uint8_t u16[] = {0, 0, 0xff, 0xff};
	static const uint8_t u32[] = {0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
	static const uint8_t u64[] = {0,    0,    0,    0,    0,    0,    0,    0,
				      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	parse_ok(AIETH_ELEM_INT8, "-128 127 0 -1", i8, sizeof i8);
	parse_ok(AIETH_ELEM_INT16, "-32768 32767", i16, sizeof i16);
	parse_ok(AIETH_ELEM_INT32, "-2147483648 2147483647", i32, sizeof i32);
	parse_ok(AIETH_ELEM_INT64, "-9223372036854775808 9223372036854775807", i64, sizeof i64);
	parse_ok(AIETH_ELEM_UINT8, "0 255", u8, sizeof u8);
	parse_ok(AIETH_ELEM_UINT16, "0 +65535", u16, sizeof u16);
	parse_ok(AIETH_ELEM_UINT32, "-0 4294967295", u32, sizeof u32);
	parse_ok(AIETH_ELEM_UINT64, "0 18446744073709551615", u64, sizeof u64);

	parse_fails(AIETH_ELEM_INT8, "1 2\n  200", AIETH_EINVAL,
		    "in.txt:2:3: value 200 does not fit int8 (-128..127)");
	parse_fails(AIETH_ELEM_INT8, "-129", AIETH_EINVAL,
		    "in.txt:1:1: value -129 does not fit int8 (-128..127)");
	parse_fails(AIETH_ELEM_INT16, "32768", AIETH_EINVAL,
		    "value 32768 does not fit int16 (-32768..32767)");
	parse_fails(AIETH_ELEM_INT16, "-32769", AIETH_EINVAL, "value -32769 does not fit int16");
	parse_fails(AIETH_ELEM_INT32, "2147483648", AIETH_EINVAL,
		    "value 2147483648 does not fit int32 (-2147483648..2147483647)");
	parse_fails(AIETH_ELEM_INT32, "-2147483649", AIETH_EINVAL, "does not fit int32");
	parse_fails(AIETH_ELEM_INT64, "9223372036854775808", AIETH_EINVAL,
		    "value 9223372036854775808 does not fit int64 "
		    "(-9223372036854775808..9223372036854775807)");
	parse_fails(AIETH_ELEM_INT64, "-9223372036854775809", AIETH_EINVAL, "does not fit int64");
	parse_fails(AIETH_ELEM_UINT8, "256", AIETH_EINVAL, "value 256 does not fit uint8 (0..255)");
	parse_fails(AIETH_ELEM_UINT8, "-1", AIETH_EINVAL, "value -1 does not fit uint8 (0..255)");
	parse_fails(AIETH_ELEM_UINT16, "65536", AIETH_EINVAL, "does not fit uint16 (0..65535)");
	parse_fails(AIETH_ELEM_UINT32, "4294967296", AIETH_EINVAL,
		    "does not fit uint32 (0..4294967295)");
	parse_fails(AIETH_ELEM_UINT64, "18446744073709551616", AIETH_EINVAL,
		    "value 18446744073709551616 does not fit uint64 (0..18446744073709551615)");
	parse_fails(AIETH_ELEM_UINT64, "99999999999999999999999", AIETH_EINVAL,
		    "does not fit uint64");
}

static void test_parse_hex(void)
{
	static const uint8_t i8[] = {0x7f, 0xff, 0x80, 0x10, 0x80};
	static const uint8_t u16[] = {0xff, 0xff, 0xcd, 0xab};
	static const uint8_t i32[] = {0xff, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff};
	static const uint8_t u64[] = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
				      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8_t i64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	/* without a sign, hex is the bit pattern; with one, it is the value */
	parse_ok(AIETH_ELEM_INT8, "0x7f 0xFF -0x80 0X10 0x80", i8, sizeof i8);
	parse_ok(AIETH_ELEM_UINT16, "0xffff 0xABCD", u16, sizeof u16);
	parse_ok(AIETH_ELEM_INT32, "0xFFFFFFFF -0x10", i32, sizeof i32);
	parse_ok(AIETH_ELEM_UINT64, "0x0123456789abcdef 0xFFFFFFFFFFFFFFFF", u64, sizeof u64);
	parse_ok(AIETH_ELEM_INT64, "0xffffffffffffffff", i64, sizeof i64);
	parse_fails(AIETH_ELEM_INT8, "0x100", AIETH_EINVAL,
		    "in.txt:1:1: value 0x100 does not fit int8 (-128..127, or 0x0..0xFF as a bit "
		    "pattern)");
	parse_fails(AIETH_ELEM_INT8, "+0xFF", AIETH_EINVAL, "value +0xFF does not fit int8");
	parse_fails(AIETH_ELEM_INT8, "-0x81", AIETH_EINVAL, "value -0x81 does not fit int8");
	parse_fails(AIETH_ELEM_UINT8, "0x1ff", AIETH_EINVAL,
		    "value 0x1ff does not fit uint8 (0..255, 0x0..0xFF)");
	parse_fails(AIETH_ELEM_UINT64, "0x10000000000000000", AIETH_EINVAL, "does not fit uint64");
	parse_fails(AIETH_ELEM_INT16, "0x", AIETH_EPARSE,
		    "\"0x\" is not a valid int16 value (trailing junk \"x\")");
	parse_fails(AIETH_ELEM_INT16, "0xfg", AIETH_EPARSE, "trailing junk \"g\"");
}

static void test_parse_comments(void)
{
	static const uint8_t i16[] = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0xfb, 0xff};
	/* comments, CRLF, blank lines, tabs, a BOM, aiesimulator markers */
	parse_ok(AIETH_ELEM_INT16,
		 "\xEF\xBB\xBF# header line\r\n1 2 # two values\r\n\r\n\t3\t4\r\n#5\nT 1234 ns\n"
		 "TLAST\n5 -5#tail",
		 i16, sizeof i16);
	/* any number of values per line */
	parse_ok(AIETH_ELEM_INT16, "1\n2\n3 4 5\n\n\n-5\n", i16, sizeof i16);
	/* "T" only skips a line when it is the first token */
	parse_fails(AIETH_ELEM_INT16, "1 T 2", AIETH_EPARSE, "in.txt:1:3: \"T\" is not a number");
}

static void test_parse_errors(void)
{
	uint8_t *out = NULL;
	size_t len = 0;
	char big[64];
	parse_fails(AIETH_ELEM_INT16, "1 2\n3 12abc 4", AIETH_EPARSE,
		    "in.txt:2:3: \"12abc\" is not a valid int16 value (trailing junk \"abc\")");
	parse_fails(AIETH_ELEM_INT32, "abc", AIETH_EPARSE, "in.txt:1:1: \"abc\" is not a number");
	parse_fails(AIETH_ELEM_INT32, "1.5", AIETH_EPARSE,
		    "value \"1.5\" is not an integer (int32 takes decimal or 0x hex integers)");
	parse_fails(AIETH_ELEM_INT32, "1e3", AIETH_EPARSE, "is not an integer");
	parse_fails(AIETH_ELEM_INT32, "1 nan", AIETH_EPARSE,
		    "in.txt:1:3: value \"nan\": NaN and infinity are not allowed for int32");
	parse_fails(AIETH_ELEM_UINT8, "-inf", AIETH_EPARSE,
		    "NaN and infinity are not allowed for uint8");
	parse_fails(AIETH_ELEM_INT64, "Infinity", AIETH_EPARSE, "not allowed for int64");
	parse_fails(AIETH_ELEM_INT8, "", AIETH_EPARSE, "in.txt: no values");
	parse_fails(AIETH_ELEM_INT8, "# only a comment\n\n  \r\n", AIETH_EPARSE, "no values");
	parse_fails(AIETH_ELEM_FLOAT, "1.5x", AIETH_EPARSE,
		    "\"1.5x\" is not a valid float value (trailing junk \"x\")");
	parse_fails(AIETH_ELEM_DOUBLE, "--1", AIETH_EPARSE,
		    "\"--1\" is not a number (double expected)");
	parse_fails(AIETH_ELEM_INT8, "1 \x01\x7f", AIETH_EPARSE, "\"\\x01\\x7f\" is not a number");
	/* over max_bytes: how many bytes and the limit */
	CU_ASSERT_EQUAL(
		aieth__text_parse("in.txt", "1 2 3 4 5 6", 11, AIETH_ELEM_INT16, 8, &out, &len),
		AIETH_EINVAL);
	MSG_HAS("in.txt: 12 bytes of int16 data (6 numbers), over the limit of 8 bytes (the value "
		"at 1:9 is the first past it)");
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_EQUAL(aieth__text_parse("in.txt", "1 2 3 4", 7, AIETH_ELEM_INT16, 8, &out, &len),
			AIETH_OK);
	CU_ASSERT_EQUAL(len, 8);
	free(out);
	/* text that is not NUL-terminated: the length is honoured */
	memcpy(big, "12 34", 5);
	memset(big + 5, '9', sizeof big - 5);
	CU_ASSERT_EQUAL(aieth__text_parse("in.txt", big, 5, AIETH_ELEM_UINT8, 8, &out, &len),
			AIETH_OK);
	CU_ASSERT_EQUAL(len, 2);
	if (len == 2)
		CU_ASSERT(out[0] == 12 && out[1] == 34);
	free(out);
	CU_ASSERT_EQUAL(aieth__text_parse("in.txt", "1", 1, AIETH_ELEM_COUNT, 8, &out, &len),
			AIETH_EINVAL);
	/* a file: missing, and the message names it */
	CU_ASSERT_EQUAL(aieth__text_read("/nonexistent/in.txt", AIETH_ELEM_INT8, 8, &out, &len),
			AIETH_EIO);
	MSG_HAS("/nonexistent/in.txt");
}

/* aieth__text_convert (chunked, to a file) gives exactly what aieth__text_read
 * (whole) gives: the bytes, or the same error message. */
static void convert_same(const char *text, size_t n, aieth_elem t, size_t max)
{
	const char *path = tmppath("conv.txt");
	FILE *f = fopen(path, "wb");
	uint8_t *whole = NULL, *back = NULL;
	size_t wlen = 0;
	uint64_t clen = 99;
	char werr[1024];
	int fd = -1, rw, rc;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(text, 1, n, f), n);
	fclose(f);
	rw = aieth__text_read(path, t, max, &whole, &wlen);
	snprintf(werr, sizeof werr, "%s", aieth_error_message());
	CU_ASSERT_EQUAL_FATAL(aieth__open_scratch(&fd), AIETH_OK);
	rc = aieth__text_convert(path, t, max, fd, &clen);
	CU_ASSERT_EQUAL(rc, rw);
	if (rw) {
		CU_ASSERT_STRING_EQUAL(aieth_error_message(), werr);
		CU_ASSERT_EQUAL(clen, 0);
	} else if (rc == AIETH_OK) {
		CU_ASSERT_EQUAL_FATAL(clen, wlen);
		back = malloc(wlen ? wlen : 1);
		CU_ASSERT_EQUAL(pread(fd, back, wlen, 0), (ssize_t)wlen);
		CU_ASSERT_EQUAL(memcmp(back, whole, wlen), 0);
	}
	free(whole);
	free(back);
	close(fd);
}

static void test_text_convert(void)
{
	/* ~3 MiB: several 1 MiB pieces, values, comments, markers, CRLF, and a
	 * line of 1.5 MiB (longer than a piece) */
	size_t cap = 4u << 20, n = 0, i;
	char *t = malloc(cap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	n += (size_t)snprintf(t + n, cap - n, "\xEF\xBB\xBF# header\r\n");
	for (i = 0; n < (1u << 20) + 12345; i++)
		n += (size_t)snprintf(t + n, cap - n,
				      i % 97 ? "%zu -%zu 0x%zx\r\n"
					     : "T %zu ns\n%zu TLAST # c %zu\n",
				      i, i % 1000, i * 7);
	for (i = 0; n < (5u << 19) + (1u << 20); i++)
		n += (size_t)snprintf(t + n, cap - n, "%zu ", i % 30000);
	t[n++] = '\n';
	for (i = 0; n < (3u << 20); i++)
		n += (size_t)snprintf(t + n, cap - n, "%zu\n", i);
	n += (size_t)snprintf(t + n, cap - n, "42"); /* no newline at the end */
	convert_same(t, n, AIETH_ELEM_INT32, (size_t)1 << 30);
	convert_same(t, n, AIETH_ELEM_INT64, (size_t)1 << 30);
	/* the same errors: over the limit (counted to the end), a bad value
	 * far from the start, an odd count of complex parts, no values */
	convert_same(t, n, AIETH_ELEM_INT32, (size_t)1 << 20);
	MSG_HAS("over the limit of 1048576 bytes");
	convert_same(t, n, AIETH_ELEM_INT16, (size_t)1 << 30);
	MSG_HAS("int16");
	memcpy(t + (2u << 20) + 100, "zz", 2);
	convert_same(t, n, AIETH_ELEM_INT32, (size_t)1 << 30);
	MSG_HAS("is not");
	convert_same("1 2 3\n", 6, AIETH_ELEM_CINT16, 64);
	MSG_HAS("odd count of numbers (3)");
	convert_same("# nothing\n", 10, AIETH_ELEM_INT8, 64);
	MSG_HAS("no values");
	free(t);
}

static void test_parse_float(void)
{
	float f[7] = {1.5f, -0.0f, INFINITY, -INFINITY, 0, FLT_MAX, 0x1p-149f};
	double d[4] = {0.1, -DBL_MAX, 0x1.8p3, DBL_MIN};
	uint8_t *out = NULL;
	size_t len = 0;
	float g;
	parse_ok(AIETH_ELEM_FLOAT, "1.5 -0 inf -INF 0e0 3.40282347e+38 1.40129846e-45", f,
		 sizeof f);
	parse_ok(AIETH_ELEM_DOUBLE, "0.1 -1.7976931348623157e308 0x1.8p3 2.2250738585072014e-308",
		 d, sizeof d);
	/* NaN is accepted for float types */
	CU_ASSERT_EQUAL(aieth__text_parse("in.txt", "nan", 3, AIETH_ELEM_FLOAT, 8, &out, &len),
			AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(len, 4);
	memcpy(&g, out, 4);
	CU_ASSERT(isnan(g));
	free(out);
	/* 3.4028235e38 rounds to FLT_MAX, 3.4028236e38 to infinity */
	parse_ok(AIETH_ELEM_FLOAT, "3.4028235e38", &f[5], 4);
	parse_fails(AIETH_ELEM_FLOAT, "0 3.4028236e38", AIETH_EINVAL,
		    "in.txt:1:3: value 3.4028236e38 does not fit float (finite magnitudes up to "
		    "3.40282347e+38)");
	parse_fails(AIETH_ELEM_CFLOAT, "1 -1e39", AIETH_EINVAL, "value -1e39 does not fit cfloat");
	parse_fails(
		AIETH_ELEM_DOUBLE, "1e400", AIETH_EINVAL,
		"value 1e400 does not fit double (finite magnitudes up to 1.7976931348623157e+308)");
}

static void test_parse_complex(void)
{
	static const uint8_t c16[] = {1, 0, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80};
	static const uint8_t c32[] = {5, 0, 0, 0, 0xfb, 0xff, 0xff, 0xff};
	float cf[4] = {1.0f, -2.5f, 0.0f, 1e-3f};
	parse_ok(AIETH_ELEM_CINT16, "1 -2\n32767 -32768", c16, sizeof c16);
	parse_ok(AIETH_ELEM_CINT32, "5 -5", c32, sizeof c32);
	parse_ok(AIETH_ELEM_CFLOAT, "1 -2.5 0 1e-3", cf, sizeof cf);
	parse_fails(AIETH_ELEM_CINT16, "1 2\n3", AIETH_EPARSE,
		    "in.txt:2:1: cint16 values are pairs of numbers (real imaginary), but the text "
		    "holds an odd count of numbers (3)");
	parse_fails(AIETH_ELEM_CFLOAT, "1", AIETH_EPARSE, "odd count");
	parse_fails(AIETH_ELEM_CINT16, "1 40000", AIETH_EINVAL,
		    "in.txt:1:3: value 40000 does not fit cint16 (each part -32768..32767)");
	parse_fails(AIETH_ELEM_CINT32, "1 nan", AIETH_EPARSE, "not allowed for cint32");
}

/* ------------------------------------------------------- text writing */

static void test_text_format(void)
{
	static const int32_t v[5] = {1, -2, 3, 2147483647, -2147483647 - 1};
	static const uint8_t u8[17] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255, 7};
	static const int16_t c16[6] = {1, -1, 2, -2, 3, -3};
	static const double d[3] = {0.1, -0.0, 1e300};
	char *s = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(aieth__text_format(AIETH_ELEM_INT32, (const uint8_t *)v, sizeof v, &s, &n),
			AIETH_OK);
	CU_ASSERT_STRING_EQUAL(s, "1 -2 3 2147483647\n-2147483648\n");
	CU_ASSERT_EQUAL(n, strlen(s));
	free(s);
	CU_ASSERT_EQUAL(aieth__text_format(AIETH_ELEM_UINT8, u8, sizeof u8, &s, &n), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(s, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 255\n7\n");
	free(s);
	CU_ASSERT_EQUAL(
		aieth__text_format(AIETH_ELEM_CINT16, (const uint8_t *)c16, sizeof c16, &s, &n),
		AIETH_OK);
	CU_ASSERT_STRING_EQUAL(s, "1 -1 2 -2 3 -3\n");
	free(s);
	CU_ASSERT_EQUAL(aieth__text_format(AIETH_ELEM_DOUBLE, (const uint8_t *)d, sizeof d, &s, &n),
			AIETH_OK);
	CU_ASSERT_STRING_EQUAL(s, "0.10000000000000001 -0\n1.0000000000000001e+300\n");
	free(s);
	CU_ASSERT_EQUAL(aieth__text_format(AIETH_ELEM_INT32, (const uint8_t *)v, 6, &s, &n),
			AIETH_EINVAL);
	MSG_HAS("6 bytes is not a whole number of int32 elements (4 bytes each)");
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_EQUAL(aieth__text_format(AIETH_ELEM_INT32, NULL, 0, &s, &n), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
}

/* Equal, where NaN equals any NaN for float types. */
static int same_data(aieth_elem t, const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;
	if (!aieth__elem_is_float(t))
		return memcmp(a, b, len) == 0;
	for (i = 0; i < len;) {
		if (t == AIETH_ELEM_DOUBLE) {
			double x, y;
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (isnan(x) ? !isnan(y) : memcmp(&x, &y, 8) != 0)
				return 0;
			i += 8;
		} else {
			float x, y;
			memcpy(&x, a + i, 4);
			memcpy(&y, b + i, 4);
			if (isnan(x) ? !isnan(y) : memcmp(&x, &y, 4) != 0)
				return 0;
			i += 4;
		}
	}
	return 1;
}

static void test_text_roundtrip(void)
{
	unsigned ti;
	for (ti = 0; ti < AIETH_ELEM_COUNT; ti++) {
		aieth_elem t = (aieth_elem)ti;
		aieth_pattern p = {AIETH_PAT_RANDOM, t, 0, 0, 1000 + ti};
		uint8_t data[1024], *back = NULL;
		size_t len = sizeof data - 16, blen = 0;
		const char *path = tmppath("rt.txt");
		CU_ASSERT_EQUAL_FATAL(aieth__pattern_fill(&p, data, len), AIETH_OK);
		if (t == AIETH_ELEM_FLOAT || t == AIETH_ELEM_CFLOAT) {
			static const float sp[] = {NAN,  -NAN,    INFINITY, -INFINITY, -0.0f,
						   0.0f, FLT_MAX, -FLT_MIN, 0x1p-149f, 0.1f};
			memcpy(data, sp, sizeof sp);
		} else if (t == AIETH_ELEM_DOUBLE) {
			static const double sp[] = {NAN,     INFINITY, -INFINITY, -0.0,
						    DBL_MAX, DBL_MIN,  0x1p-1074, 0.1};
			memcpy(data, sp, sizeof sp);
		}
		if (aieth__text_write(path, t, data, len) != AIETH_OK)
			fprintf(stderr, "\n  %s: %s\n", aieth__elem_name(t), aieth_error_message());
		CU_ASSERT_EQUAL_FATAL(aieth__text_write(path, t, data, len), AIETH_OK);
		CU_ASSERT_EQUAL_FATAL(aieth__text_read(path, t, LIMIT, &back, &blen), AIETH_OK);
		CU_ASSERT_EQUAL(blen, len);
		if (!same_data(t, data, back, len))
			fprintf(stderr, "\n  round trip differs for %s\n", aieth__elem_name(t));
		CU_ASSERT(blen == len && same_data(t, data, back, len));
		free(back);
		/* one 128-bit beat per line */
		{
			char *text = slurp(path), *line;
			size_t lines = 0;
			unsigned per_line =
				(unsigned)(16 / (aieth__elem_size(t) / aieth__elem_parts(t)));
			CU_ASSERT_PTR_NOT_NULL_FATAL(text);
			for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
				unsigned words = 0;
				char *q;
				for (q = line; *q; q++)
					words += *q != ' ' && (q == line || q[-1] == ' ');
				CU_ASSERT_EQUAL(words, per_line);
				lines++;
			}
			CU_ASSERT_EQUAL(lines, len / 16);
			free(text);
		}
		unlink(path);
	}
	CU_ASSERT_EQUAL(count_files(".tmp."), 0);
}

/* Values at the edges of each type survive write and read. */
static void test_text_roundtrip_edges(void)
{
	static const struct {
		aieth_elem t;
		const char *text;
	} cases[] = {
		{AIETH_ELEM_INT8, "-128 127 0 -1\n"},
		{AIETH_ELEM_UINT64, "0 18446744073709551615\n"},
		{AIETH_ELEM_INT64, "-9223372036854775808 9223372036854775807\n"},
		{AIETH_ELEM_FLOAT,
		 "nan -inf inf -0\n3.40282347e+38 1.17549435e-38 1.40129846e-45 0.100000001\n"},
		{AIETH_ELEM_DOUBLE, "inf -0\n"},
		{AIETH_ELEM_CFLOAT, "-0 0 inf -inf\n"},
		{AIETH_ELEM_CINT32, "-2147483648 2147483647\n"},
	};
	unsigned i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *d = NULL;
		size_t n = 0, tn = 0;
		char *s = NULL;
		CU_ASSERT_EQUAL_FATAL(aieth__text_parse("e.txt", cases[i].text,
							strlen(cases[i].text), cases[i].t, LIMIT,
							&d, &n),
				      AIETH_OK);
		CU_ASSERT_EQUAL_FATAL(aieth__text_format(cases[i].t, d, n, &s, &tn), AIETH_OK);
		if (strcmp(s, cases[i].text) != 0)
			fprintf(stderr, "\n  got %s\n  want %s\n", s, cases[i].text);
		CU_ASSERT_STRING_EQUAL(s, cases[i].text);
		free(s);
		free(d);
	}
}

/* ------------------------------------------------------- binary files */

static void test_bin_files(void)
{
	const char *path = tmppath("data.bin");
	uint8_t data[300], *back = NULL;
	size_t n = 0, i;
	for (i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 7);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(path, data, sizeof data), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth__bin_read(path, LIMIT, &back, &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, sizeof data);
	CU_ASSERT_EQUAL(memcmp(back, data, sizeof data), 0);
	free(back);
	/* limit */
	CU_ASSERT_EQUAL(aieth__bin_read(path, 299, &back, &n), AIETH_EINVAL);
	MSG_HAS("file is 300 bytes, the limit is 299 bytes");
	CU_ASSERT_PTR_NULL(back);
	CU_ASSERT_EQUAL(n, 0);
	/* an empty file is not data */
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(path, NULL, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__bin_read(path, LIMIT, &back, &n), AIETH_EINVAL);
	MSG_HAS("file is empty");
	/* missing */
	CU_ASSERT_EQUAL(aieth__bin_read(tmppath("missing.bin"), LIMIT, &back, &n), AIETH_EIO);
	MSG_HAS("missing.bin: cannot open: No such file or directory");
	unlink(path);
	CU_ASSERT_EQUAL(count_files(".tmp."), 0);
}

static void test_atomic_write(void)
{
	char path[128], dirpath[128];
	static const uint8_t old[] = "old contents\n";
	static const int32_t v[2] = {1, 2};
	char *s;
	char expect[512];
	snprintf(path, sizeof path, "%s", tmppath("keep.txt"));
	snprintf(dirpath, sizeof dirpath, "%s", tmppath("adir"));
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(path, old, sizeof old - 1), AIETH_OK);

	/* a bad length fails before anything is written */
	CU_ASSERT_EQUAL(aieth__text_write(path, AIETH_ELEM_INT32, (const uint8_t *)v, 7),
			AIETH_EINVAL);
	MSG_HAS("keep.txt: 7 bytes is not a whole number of int32 elements");
	s = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, (const char *)old);
	free(s);

	/* a directory as the target is refused before anything is written */
	CU_ASSERT_EQUAL_FATAL(mkdir(dirpath, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(tmppath("adir/inner"), old, 3), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__text_write(dirpath, AIETH_ELEM_INT32, (const uint8_t *)v, sizeof v),
			AIETH_EINVAL);
	snprintf(expect, sizeof expect, "%s: is a directory, not a file", dirpath);
	MSG_HAS(expect);
	CU_ASSERT_EQUAL(count_files(".tmp."), 0);
	s = slurp(tmppath("adir/inner"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, "old");
	free(s);

	/* a directory that does not exist */
	CU_ASSERT_EQUAL(aieth__write_atomic(tmppath("nodir/out.bin"), old, 3), AIETH_EIO);
	MSG_HAS("nodir/out.bin: cannot create a temporary file next to it ");
	MSG_HAS("nodir/.out.bin.tmp.");
	MSG_HAS("No such file or directory (does the directory exist?)");
	CU_ASSERT_EQUAL(aieth__text_write("/nonexistent-dir/out.txt", AIETH_ELEM_INT32,
					  (const uint8_t *)v, sizeof v),
			AIETH_EIO);
	MSG_HAS("/nonexistent-dir/out.txt: cannot create a temporary file next to it "
		"(/nonexistent-dir/.out.txt.tmp.");

	/* a successful write replaces the old file */
	CU_ASSERT_EQUAL(aieth__text_write(path, AIETH_ELEM_INT32, (const uint8_t *)v, sizeof v),
			AIETH_OK);
	s = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, "1 2\n");
	free(s);
	CU_ASSERT_EQUAL(count_files(".tmp."), 0);
	unlink(tmppath("adir/inner"));
	rmdir(dirpath);
	unlink(path);
}

/* ----------------------------------------------------------- patterns */

static void test_pattern_ramp(void)
{
	aieth_pattern p = {AIETH_PAT_RAMP, AIETH_ELEM_INT8, 120, 1, 0};
	int8_t i8[12];
	uint8_t u8[4];
	int16_t c16[6];
	float f[4];
	double d[3];
	uint64_t u64[3];
	static const int8_t want_i8[12] = {120, 121, 122,  123,  124,  125,
					   126, 127, -128, -127, -126, -125};
	static const uint8_t want_u8[4] = {1, 0, 255, 254};
	static const int16_t want_c16[6] = {32766, 32766, 32767, 32767, -32768, -32768};
	static const float want_f[4] = {0.5f, 0.75f, 1.0f, 1.25f};
	static const double want_d[3] = {-1, -1.5, -2};
	static const uint64_t want_u64[3] = {UINT64_MAX - 1, 0, 2};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)i8, sizeof i8), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(i8, want_i8, sizeof i8), 0);
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_UINT8, 1, -1, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, u8, sizeof u8), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(u8, want_u8, sizeof u8), 0);
	/* complex: real = imaginary; wraps modulo 2^16 */
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_CINT16, 32766, 1, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c16, sizeof c16), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(c16, want_c16, sizeof c16), 0);
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_FLOAT, 0.5, 0.25, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)f, sizeof f), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(f, want_f, sizeof f), 0);
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_DOUBLE, -1, -0.5, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)d, sizeof d), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(d, want_d, sizeof d), 0);
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_UINT64, -2, 2, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)u64, sizeof u64), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(u64, want_u64, sizeof u64), 0);
	/* a float ramp past the float range becomes infinity */
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_FLOAT, 3e38, 3e38, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)f, 8), AIETH_OK);
	CU_ASSERT(f[0] == 3e38f && isinf(f[1]));
	/* integer ramps take integers */
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_INT16, 1.5, 1, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c16, 4), AIETH_EINVAL);
	MSG_HAS("ramp start 1.5 is not an integer");
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_INT16, 0.1, 1, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c16, 4), AIETH_EINVAL);
	MSG_HAS("ramp start 0.1 is not an integer in -2^63..2^64 (int16 ramps take integer start "
		"and step)");
	p = (aieth_pattern){AIETH_PAT_RAMP, AIETH_ELEM_INT16, 1, 0.5, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c16, 4), AIETH_EINVAL);
	MSG_HAS("ramp step 0.5 is not an integer");
	p.step = 1;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c16, 3), AIETH_EINVAL);
	MSG_HAS("pattern size 3 bytes is not a whole number of int16 elements (2 bytes each)");
}

static void test_pattern_constant(void)
{
	aieth_pattern p = {AIETH_PAT_CONSTANT, AIETH_ELEM_INT16, -5, 0, 0};
	int16_t i16[5];
	int32_t c32[4];
	float cf[6];
	uint8_t u8[3] = {9, 9, 9};
	unsigned i;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)i16, sizeof i16), AIETH_OK);
	for (i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(i16[i], -5);
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_CINT32, -2147483648.0, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c32, sizeof c32), AIETH_OK);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(c32[i], INT32_MIN);
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_CFLOAT, 0.1, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)cf, sizeof cf), AIETH_OK);
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(cf[i], 0.1f);
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_UINT8, 255, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, u8, 0), AIETH_OK);
	CU_ASSERT_EQUAL(u8[0], 9);
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, u8, 3), AIETH_OK);
	CU_ASSERT(u8[0] == 255 && u8[2] == 255);

	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_INT8, 200, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, u8, 3), AIETH_EINVAL);
	MSG_HAS("constant 200 does not fit int8 (-128..127)");
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_UINT16, -1, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)i16, 2), AIETH_EINVAL);
	MSG_HAS("constant -1 does not fit uint16 (0..65535)");
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_CINT16, 32768, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)i16, 4), AIETH_EINVAL);
	MSG_HAS("constant 32768 does not fit cint16 (each part -32768..32767)");
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_UINT64, 18446744073709551616.0, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c32, 8), AIETH_EINVAL);
	MSG_HAS("constant 1.8446744073709552e+19 does not fit uint64 (0..18446744073709551615)");
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_INT32, 0.5, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)c32, 4), AIETH_EINVAL);
	MSG_HAS("constant 0.5 is not an integer (int32 takes -2147483648..2147483647)");
	p = (aieth_pattern){AIETH_PAT_CONSTANT, AIETH_ELEM_FLOAT, 1e39, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)cf, 4), AIETH_EINVAL);
	MSG_HAS("constant 1e+39 does not fit float (finite magnitudes up to 3.40282347e+38)");
	p = (aieth_pattern){(aieth_pattern_kind)7, AIETH_ELEM_FLOAT, 0, 0, 0};
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, (uint8_t *)cf, 4), AIETH_EINVAL);
	MSG_HAS("pattern kind 7 is not valid");
}

static void test_pattern_random(void)
{
	/* splitmix64, state = seed = 1: outputs 0x910a2dec89025cc1,
	 * 0xbeeb8da1658eec67, 0xf893a2eefb32555e, little-endian bytes */
	static const uint8_t want[24] = {0xc1, 0x5c, 0x02, 0x89, 0xec, 0x2d, 0x0a, 0x91,
					 0x67, 0xec, 0x8e, 0x65, 0xa1, 0x8d, 0xeb, 0xbe,
					 0x5e, 0x55, 0x32, 0xfb, 0xee, 0xa2, 0x93, 0xf8};
	/* seed 0: the first output is 0xe220a8397b1dcdaf */
	static const uint8_t want0[8] = {0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2};
	aieth_pattern p = {AIETH_PAT_RANDOM, AIETH_ELEM_UINT8, 0, 0, 1};
	uint8_t a[24], b[24];
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, a, sizeof a), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(a, want, sizeof want), 0);
	/* the last word is truncated; the type does not change the bytes */
	memset(b, 0, sizeof b);
	p.type = AIETH_ELEM_INT32;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, b, 12), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(b, want, 12), 0);
	CU_ASSERT_EQUAL(b[12], 0);
	p.type = AIETH_ELEM_CFLOAT;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, b, 24), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(b, want, 24), 0);
	p.seed = 0;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, b, 8), AIETH_OK);
	CU_ASSERT_EQUAL(memcmp(b, want0, 8), 0);
	p.seed = 2;
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, b, 24), AIETH_OK);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, 24), 0);
	CU_ASSERT_EQUAL(aieth__pattern_fill(&p, b, 20), AIETH_EINVAL);
}

/* --------------------------------------------------------- comparison */

static void test_compare_int(void)
{
	static const int16_t want[6] = {1, 2, 3, 4, 5, 6};
	int16_t got[6] = {1, 2, 3, 4, 5, 6};
	aieth_compare_result r;
	aieth__compare((const uint8_t *)got, (const uint8_t *)want, sizeof got, AIETH_ELEM_INT16, 0,
		       0, &r);
	CU_ASSERT_EQUAL(r.elements, 6);
	CU_ASSERT_EQUAL(r.mismatches, 0);
	got[2] = -3;
	got[5] = 7;
	/* tolerances do not apply to integers */
	aieth__compare((const uint8_t *)got, (const uint8_t *)want, sizeof got, AIETH_ELEM_INT16,
		       100, 1, &r);
	CU_ASSERT_EQUAL(r.elements, 6);
	CU_ASSERT_EQUAL(r.mismatches, 2);
	CU_ASSERT_EQUAL(r.first_index, 2);
	CU_ASSERT_EQUAL(r.first_offset, 4);
	CU_ASSERT_STRING_EQUAL(r.first_got, "-3");
	CU_ASSERT_STRING_EQUAL(r.first_want, "3");
	/* by how much: the largest |got - want| (-3 for 3; 7 for 6), not 0 */
	CU_ASSERT_DOUBLE_EQUAL(r.max_abs_error, 6, 1e-9);
	{
		uint64_t g = UINT64_MAX, w = 0;
		int16_t cg[4] = {1, -2, 3, 4}, cw[4] = {1, 2, 3, 4};
		aieth__compare((const uint8_t *)&g, (const uint8_t *)&w, 8, AIETH_ELEM_UINT64, 0, 0,
			       &r);
		CU_ASSERT_STRING_EQUAL(r.first_got, "18446744073709551615");
		CU_ASSERT_DOUBLE_EQUAL(r.max_abs_error, 18446744073709551615.0, 1e4);
		aieth__compare((const uint8_t *)&g, (const uint8_t *)&w, 8, AIETH_ELEM_INT64, 0, 0,
			       &r);
		CU_ASSERT_STRING_EQUAL(r.first_got, "-1");
		CU_ASSERT_STRING_EQUAL(r.first_want, "0");
		CU_ASSERT_DOUBLE_EQUAL(r.max_abs_error, 1, 1e-9);
		/* a complex integer: per part (the imaginary -2 for 2) */
		aieth__compare((const uint8_t *)cg, (const uint8_t *)cw, sizeof cg,
			       AIETH_ELEM_CINT16, 0, 0, &r);
		CU_ASSERT_EQUAL(r.mismatches, 1);
		CU_ASSERT_STRING_EQUAL(r.first_got, "(1, -2)");
		CU_ASSERT_DOUBLE_EQUAL(r.max_abs_error, 4, 1e-9);
	}
}

static void test_compare_cint16(void)
{
	static const int16_t want[6] = {1, 2, 3, 4, 5, 6};
	int16_t got[6] = {1, 2, 3, -4, 5, 6};
	aieth_compare_result r;
	aieth__compare((const uint8_t *)got, (const uint8_t *)want, sizeof got, AIETH_ELEM_CINT16,
		       0, 0, &r);
	CU_ASSERT_EQUAL(r.elements, 3);
	CU_ASSERT_EQUAL(r.mismatches, 1);
	CU_ASSERT_EQUAL(r.first_index, 1);
	CU_ASSERT_EQUAL(r.first_offset, 4);
	CU_ASSERT_STRING_EQUAL(r.first_got, "(3, -4)");
	CU_ASSERT_STRING_EQUAL(r.first_want, "(3, 4)");
}

static void test_compare_float(void)
{
	static const float want[4] = {1.0f, 100.0f, -2.0f, 0.0f};
	float got[4] = {1.001f, 100.5f, -2.0f, -0.0f};
	aieth_compare_result r;
	const uint8_t *g = (const uint8_t *)got, *w = (const uint8_t *)want;
	/* exact: -0 equals 0 */
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0, 0, &r);
	CU_ASSERT_EQUAL(r.elements, 4);
	CU_ASSERT_EQUAL(r.mismatches, 2);
	CU_ASSERT_EQUAL(r.first_index, 0);
	CU_ASSERT_STRING_EQUAL(r.first_got, "1.00100005");
	CU_ASSERT_STRING_EQUAL(r.first_want, "1");
	CU_ASSERT_DOUBLE_EQUAL(r.max_abs_error, 0.5, 1e-9);
	/* absolute tolerance: 0.5 covers both */
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0.5, 0, &r);
	CU_ASSERT_EQUAL(r.mismatches, 0);
	/* 0.01 covers the first only */
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0.01, 0, &r);
	CU_ASSERT_EQUAL(r.mismatches, 1);
	CU_ASSERT_EQUAL(r.first_index, 1);
	CU_ASSERT_EQUAL(r.first_offset, 4);
	CU_ASSERT_STRING_EQUAL(r.first_got, "100.5");
	CU_ASSERT_STRING_EQUAL(r.first_want, "100");
	/* relative: 1% of |want| covers 100.5 vs 100 but not 1.001 vs 1 at 0.01% */
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0, 0.01, &r);
	CU_ASSERT_EQUAL(r.mismatches, 0);
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0, 0.0001, &r);
	CU_ASSERT_EQUAL(r.mismatches, 2);
	/* abs + rel add up: 0.0015 + 0.004 * 100 = 0.4015 < 0.5 */
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0.0015, 0.004, &r);
	CU_ASSERT_EQUAL(r.mismatches, 1);
	CU_ASSERT_EQUAL(r.first_index, 1);
	aieth__compare(g, w, sizeof got, AIETH_ELEM_FLOAT, 0.1005, 0.004, &r);
	CU_ASSERT_EQUAL(r.mismatches, 0);
}

static void test_compare_nan(void)
{
	double want[4] = {NAN, 1.0, INFINITY, 2.0};
	double got[4] = {NAN, NAN, INFINITY, INFINITY};
	float cw[4] = {1, 2, 3, NAN}, cg[4] = {1, 2, 3, NAN};
	aieth_compare_result r;
	aieth__compare((const uint8_t *)got, (const uint8_t *)want, sizeof got, AIETH_ELEM_DOUBLE,
		       1e9, 1e9, &r);
	/* NaN = NaN; NaN != 1; inf = inf; inf is never within a tolerance of 2 */
	CU_ASSERT_EQUAL(r.mismatches, 2);
	CU_ASSERT_EQUAL(r.first_index, 1);
	CU_ASSERT_EQUAL(r.first_offset, 8);
	CU_ASSERT_STRING_EQUAL(r.first_got, "nan");
	CU_ASSERT_STRING_EQUAL(r.first_want, "1");
	CU_ASSERT(isinf(r.max_abs_error));
	aieth__compare((const uint8_t *)cg, (const uint8_t *)cw, sizeof cg, AIETH_ELEM_CFLOAT, 0, 0,
		       &r);
	CU_ASSERT_EQUAL(r.elements, 2);
	CU_ASSERT_EQUAL(r.mismatches, 0);
	cg[3] = 4;
	aieth__compare((const uint8_t *)cg, (const uint8_t *)cw, sizeof cg, AIETH_ELEM_CFLOAT, 0, 0,
		       &r);
	CU_ASSERT_EQUAL(r.mismatches, 1);
	CU_ASSERT_EQUAL(r.first_index, 1);
	CU_ASSERT_STRING_EQUAL(r.first_got, "(3, 4)");
	CU_ASSERT_STRING_EQUAL(r.first_want, "(3, nan)");
	CU_ASSERT_EQUAL(r.max_abs_error, 0);
}

static void test_compare_edges(void)
{
	static const uint8_t a[7] = {1, 2, 3, 4, 5, 6, 7}, b[7] = {1, 2, 3, 4, 5, 6, 8};
	aieth_compare_result r;
	/* a partial element at the end is compared byte by byte */
	aieth__compare(a, b, 7, AIETH_ELEM_INT32, 0, 0, &r);
	CU_ASSERT_EQUAL(r.elements, 2);
	CU_ASSERT_EQUAL(r.mismatches, 1);
	CU_ASSERT_EQUAL(r.first_index, 1);
	CU_ASSERT_EQUAL(r.first_offset, 4);
	CU_ASSERT_STRING_EQUAL(r.first_got, "bytes 05 06 07");
	CU_ASSERT_STRING_EQUAL(r.first_want, "bytes 05 06 08");
	aieth__compare(a, b, 0, AIETH_ELEM_INT32, 0, 0, &r);
	CU_ASSERT_EQUAL(r.elements, 0);
	CU_ASSERT_EQUAL(r.mismatches, 0);
	CU_ASSERT_STRING_EQUAL(r.first_got, "");
}

static void cleanup_dir(void)
{
	if (tmpdir[0])
		rmdir(tmpdir);
}

static void test_cleanup(void)
{
	cleanup_dir();
	CU_PASS("cleaned up");
}

TU_MAIN("data", {"elem_names", test_elem_names}, {"parse_minmax", test_parse_minmax},
	{"parse_hex", test_parse_hex}, {"parse_comments", test_parse_comments},
	{"parse_errors", test_parse_errors}, {"text_convert", test_text_convert},
	{"parse_float", test_parse_float}, {"parse_complex", test_parse_complex},
	{"text_format", test_text_format}, {"text_roundtrip", test_text_roundtrip},
	{"text_roundtrip_edges", test_text_roundtrip_edges}, {"bin_files", test_bin_files},
	{"atomic_write", test_atomic_write}, {"pattern_ramp", test_pattern_ramp},
	{"pattern_constant", test_pattern_constant}, {"pattern_random", test_pattern_random},
	{"compare_int", test_compare_int}, {"compare_cint16", test_compare_cint16},
	{"compare_float", test_compare_float}, {"compare_nan", test_compare_nan},
	{"compare_edges", test_compare_edges}, {"cleanup", test_cleanup})
