/* SPDX-License-Identifier: MIT */
/*
 * test_assets.c - th_assets' rules (host/th_assets/): which archive
 * entry names and link targets may be unpacked, which file names a
 * download may have, sha256 text, the lock file, cfg/assets.json and the
 * manifest readers, and the hash rule (expected / recorded / enforced).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "th_assets/th_assets.h"
#include "th_assets/assets_internal.h"
#include "tu.h"
#include "util/error.h"

#define MSG_HAS(s)                                                                        \
	do {                                                                              \
		const char *m_ = aieth_error_message();                                   \
		if (!strstr(m_, (s)))                                                     \
			fprintf(stderr, "\n  message \"%s\"\n  lacks \"%s\"\n", m_, (s)); \
		CU_ASSERT_PTR_NOT_NULL(strstr(m_, (s)));                                  \
	} while (0)

#define H1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define H2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static void test_entry_names(void)
{
	static const char *const good[] = {"a",         "a/b", "./a", "./",    "dir/",
					   "a/b/c.xsa", "..a", "a..", "a/..b", NULL};
	static const char *const bad[] = {"",
					  "/etc/passwd",
					  "..",
					  "../a",
					  "a/../b",
					  "a/..",
					  "./../a",
					  "a/./b",
					  "a/\x01",
					  ".aieth-manifest.json",
					  "./.aieth-manifest.json",
					  NULL};
	int i;
	char longname[ASX_NAME_MAX + 2];
	for (i = 0; good[i]; i++) {
		if (aieth__asx_name_check(good[i]))
			fprintf(stderr, "\n  refused \"%s\": %s\n", good[i], aieth_error_message());
		CU_ASSERT_EQUAL(aieth__asx_name_check(good[i]), 0);
	}
	for (i = 0; bad[i]; i++) {
		if (!aieth__asx_name_check(bad[i]))
			fprintf(stderr, "\n  accepted \"%s\"\n", bad[i]);
		CU_ASSERT_EQUAL(aieth__asx_name_check(bad[i]), AIETH_EINVAL);
	}
	CU_ASSERT_EQUAL(aieth__asx_name_check("x/../y"), AIETH_EINVAL);
	MSG_HAS("\"x/../y\": a \"..\" component");
	CU_ASSERT_EQUAL(aieth__asx_name_check("/abs"), AIETH_EINVAL);
	MSG_HAS("an absolute path");
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	CU_ASSERT_EQUAL(aieth__asx_name_check(longname), AIETH_EINVAL);
	MSG_HAS("at most 1024");
}

static void test_link_targets(void)
{
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", "vck190"), 0);
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", "./a/b"), 0);
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", "."), 0);
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", "/etc"), AIETH_EINVAL);
	MSG_HAS("symbolic link \"l\" -> target \"/etc\": an absolute path");
	CU_ASSERT_EQUAL(aieth__asx_link_check("a/l", ".."), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", "a/../b"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_link_check("l", ""), AIETH_EINVAL);
}

static void test_file_names(void)
{
	char f[256];
	CU_ASSERT_EQUAL(aieth__asx_file_name_check("test_harness_xsa_sd_card_2026.1.tar.gz"), 0);
	CU_ASSERT_EQUAL(aieth__asx_file_name_check(".hidden"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_file_name_check("a/b"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_file_name_check("a b"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(
		aieth__asx_url_file_name("https://h.example/x/y.tar.gz?token=1#f", f, sizeof f), 0);
	CU_ASSERT_STRING_EQUAL(f, "y.tar.gz");
	CU_ASSERT_EQUAL(aieth__asx_url_file_name("http://127.0.0.1:80/a.zip", f, sizeof f), 0);
	CU_ASSERT_STRING_EQUAL(f, "a.zip");
	CU_ASSERT_EQUAL(aieth__asx_url_file_name("ftp://h/a.zip", f, sizeof f), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_url_file_name("https://h.example/", f, sizeof f), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_url_file_name("https://h.example", f, sizeof f), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_url_file_name("https://h/..", f, sizeof f), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__asx_release_check("2026.1"), 0);
	CU_ASSERT_EQUAL(aieth__asx_release_check("../x"), AIETH_EINVAL);
}

static void test_sha256_text(void)
{
	char h[65];
	CU_ASSERT_EQUAL(
		aieth__asx_sha256_norm(
			"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", h, "x"),
		0);
	CU_ASSERT_STRING_EQUAL(h, H1);
	CU_ASSERT_EQUAL(aieth__asx_sha256_norm(H1 "0", h, "--sha256"), AIETH_EINVAL);
	MSG_HAS("--sha256");
	CU_ASSERT_EQUAL(aieth__asx_sha256_norm("abc", h, "x"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(
		aieth__asx_sha256_norm(
			"g123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", h, "x"),
		AIETH_EINVAL);
}

static int lock_text(const char *t, asx_lock *l)
{
	return aieth__asx_lock_parse("lock", t, strlen(t), l);
}

static void test_lock_parse(void)
{
	asx_lock l;
	const asx_lock_entry *e;
	CU_ASSERT_EQUAL(lock_text("{\"lock_version\": 1, \"files\": {}}", &l), 0);
	CU_ASSERT_EQUAL(l.n, 0);
	aieth__asx_lock_free(&l);
	CU_ASSERT_EQUAL(
		lock_text("{\"lock_version\": 1, \"files\": {\"a.tar.gz\": {\"sha256\": \"" H1
			  "\", \"url\": \"https://x/a.tar.gz\", \"release\": \"r\"},"
			  " \"b.zip\": {\"sha256\": \"" H2 "\"}}}",
			  &l),
		0);
	CU_ASSERT_EQUAL(l.n, 2);
	e = aieth__asx_lock_find(&l, "b.zip");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e->sha256, H2);
	CU_ASSERT_STRING_EQUAL(e->url, "");
	CU_ASSERT_PTR_NULL(aieth__asx_lock_find(&l, "c"));
	aieth__asx_lock_free(&l);
	/* every rule broken is an error, never an empty lock */
	CU_ASSERT_EQUAL(lock_text("{\"lock_version\": 2, \"files\": {}}", &l), AIETH_EINVAL);
	CU_ASSERT_NOT_EQUAL(lock_text("{\"files\": {}}", &l), 0);
	CU_ASSERT_NOT_EQUAL(
		lock_text("{\"lock_version\": 1, \"files\": {\"a\": {\"sha256\": \"12\"}}}", &l),
		0);
	MSG_HAS("64 hex digits");
	CU_ASSERT_NOT_EQUAL(
		lock_text("{\"lock_version\": 1, \"files\": {\"../a\": {\"sha256\": \"" H1 "\"}}}",
			  &l),
		0);
	CU_ASSERT_NOT_EQUAL(lock_text("{\"lock_version\": 1, \"files\": {\"a\": {\"sha256\": \"" H1
				      "\", \"x\": 1}}}",
				      &l),
			    0);
	CU_ASSERT_NOT_EQUAL(lock_text("{\"lock_version\": 1, \"files\": {\"a\": {\"sha256\": \"" H1
				      "\"}, \"a\": {\"sha256\": \"" H1 "\"}}}",
				      &l),
			    0);
	CU_ASSERT_NOT_EQUAL(lock_text("[1]", &l), 0);
	CU_ASSERT_NOT_EQUAL(lock_text("null", &l), 0);
	CU_ASSERT_NOT_EQUAL(lock_text("{\"lock_version\": 1, \"files\": []}", &l), 0);
	CU_ASSERT_EQUAL(l.n, 0);
}

static void test_lock_roundtrip_and_rule(void)
{
	char dir[] = "/tmp/aieth-assets-XXXXXX", path[64], cmd[96];
	asx_lock l;
	int rec = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/assets.lock.json", dir);
	/* no hash known: would be recorded (check only writes nothing) */
	CU_ASSERT_EQUAL(aieth__asx_verify_and_lock(path, "a.tgz", H1, NULL, "", "http://h/a.tgz",
						   "r1", 1, &rec),
			0);
	CU_ASSERT_EQUAL(rec, 1);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	CU_ASSERT_EQUAL(aieth__asx_verify_and_lock(path, "a.tgz", H1, NULL, "", "http://h/a.tgz",
						   "r1", 0, &rec),
			0);
	CU_ASSERT_EQUAL(rec, 1);
	CU_ASSERT_EQUAL(aieth__asx_lock_load(path, &l), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 1);
	CU_ASSERT_STRING_EQUAL(l.e[0].sha256, H1);
	CU_ASSERT_STRING_EQUAL(l.e[0].release, "r1");
	aieth__asx_lock_free(&l);
	/* enforced from then on */
	CU_ASSERT_EQUAL(aieth__asx_verify_and_lock(path, "a.tgz", H2, NULL, "", "", "", 0, &rec),
			AIETH_EINVAL);
	MSG_HAS("expected " H1 " (recorded in");
	MSG_HAS("found " H2);
	CU_ASSERT_EQUAL(aieth__asx_verify_and_lock(path, "a.tgz", H1, NULL, "", "", "", 0, &rec),
			0);
	CU_ASSERT_EQUAL(rec, 0);
	/* an expected hash: checked first, and then kept in the lock (not "recorded") */
	CU_ASSERT_EQUAL(
		aieth__asx_verify_and_lock(path, "b.tgz", H1, H2, "--sha256", "", "", 0, &rec),
		AIETH_EINVAL);
	MSG_HAS("expected " H2 " (--sha256), found " H1);
	CU_ASSERT_EQUAL(
		aieth__asx_verify_and_lock(path, "b.tgz", H2, H2, "--sha256", "", "", 0, &rec), 0);
	CU_ASSERT_EQUAL(rec, 0);
	CU_ASSERT_EQUAL(aieth__asx_lock_load(path, &l), 0);
	CU_ASSERT_EQUAL(l.n, 2);
	aieth__asx_lock_free(&l);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_cfg(void)
{
	static const char t[] =
		"{\"releases\": {"
		"\"r1\": {\"url\": \"https://h/x/a.tar.gz\", \"file\": \"a.tar.gz\", \"sha256\": null},"
		"\"r2\": {\"url\": \"https://h/b.tar.gz\", \"file\": \"b.tar.gz\", \"sha256\": \"" H1
		"\"}}}";
	static const char nosha[] =
		"{\"releases\": {\"r\": {\"url\": \"https://h/a\", \"file\": \"a\"}}}";
	asx_release r;
	CU_ASSERT_EQUAL(aieth__asx_cfg_parse("cfg", t, strlen(t), "r1", NULL, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.file, "a.tar.gz");
	CU_ASSERT_STRING_EQUAL(r.sha256, "");
	aieth__asx_release_free(&r);
	CU_ASSERT_EQUAL(aieth__asx_cfg_parse("cfg", t, strlen(t), NULL, "b.tar.gz", &r), 0);
	CU_ASSERT_STRING_EQUAL(r.release, "r2");
	CU_ASSERT_STRING_EQUAL(r.sha256, H1);
	aieth__asx_release_free(&r);
	CU_ASSERT_EQUAL(aieth__asx_cfg_parse("cfg", t, strlen(t), "r3", NULL, &r), AIETH_ENOTFOUND);
	MSG_HAS("known: r1, r2");
	CU_ASSERT_EQUAL(aieth__asx_cfg_parse("cfg", nosha, strlen(nosha), "r", NULL, &r),
			AIETH_EPARSE);
	MSG_HAS("null when not known");
	/* the data tree's own file: AMD publishes no hashes, so none is there */
	CU_ASSERT_EQUAL(aieth__asx_cfg_find(tu_src(""), "2026.1", NULL, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.file, "test_harness_xsa_sd_card_2026.1.tar.gz");
	CU_ASSERT_STRING_EQUAL(r.sha256, "");
	aieth__asx_release_free(&r);
}

static void test_manifest(void)
{
	static const char t[] =
		"{\"manifest_version\": 1, \"release\": \"r\", \"archive\": \"a.tgz\", \"sha256\": \"" H1
		"\", \"files\": 3, \"bytes\": 10}";
	asx_manifest m;
	CU_ASSERT_EQUAL(aieth__asx_manifest_parse("m", t, strlen(t), &m), 0);
	CU_ASSERT_EQUAL(m.files, 3);
	CU_ASSERT_STRING_EQUAL(m.sha256, H1);
	CU_ASSERT_NOT_EQUAL(aieth__asx_manifest_parse("m", "{\"manifest_version\": 1}", 23, &m), 0);
}

/* The fetch and unpack options are versioned: refused before any file is
 * looked at. */
static void test_opts_version(void)
{
	aieth__assets_fetch_opts f = AIETH_ASSETS_FETCH_OPTS_INIT;
	aieth__assets_unpack_opts u = AIETH_ASSETS_UNPACK_OPTS_INIT;
	aieth__assets_result r;
	TU_OPTS_INIT(aieth__assets_fetch_opts, AIETH_ASSETS_FETCH_OPTS_INIT,
		     aieth__assets_fetch_opts_init, AIETH_ASSETS_FETCH_OPTS_VERSION);
	TU_OPTS_INIT(aieth__assets_unpack_opts, AIETH_ASSETS_UNPACK_OPTS_INIT,
		     aieth__assets_unpack_opts_init, AIETH_ASSETS_UNPACK_OPTS_VERSION);
	/* a folder nobody can create, root included: nothing may be written */
	f.dest = u.dest = "/dev/null/aieth-assets";
	TU_OPTS_REFUSED(aieth__assets_fetch(&f, &r), f.version, "aieth_assets_fetch_opts",
			"AIETH_ASSETS_FETCH_OPTS_INIT or aieth_assets_fetch_opts_init",
			AIETH_ASSETS_FETCH_OPTS_VERSION);
	TU_OPTS_REFUSED(aieth__assets_unpack(&u, &r), u.version, "aieth_assets_unpack_opts",
			"AIETH_ASSETS_UNPACK_OPTS_INIT or aieth_assets_unpack_opts_init",
			AIETH_ASSETS_UNPACK_OPTS_VERSION);
	CU_ASSERT_EQUAL(aieth__assets_fetch(NULL, &r), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__assets_unpack(&u, NULL), AIETH_EINVAL);
}

TU_MAIN("assets", {"options version", test_opts_version}, {"entry names", test_entry_names},
	{"link targets", test_link_targets}, {"file names", test_file_names},
	{"sha256 text", test_sha256_text}, {"lock parse", test_lock_parse},
	{"lock rule", test_lock_roundtrip_and_rule}, {"cfg/assets.json", test_cfg},
	{"manifest", test_manifest})
