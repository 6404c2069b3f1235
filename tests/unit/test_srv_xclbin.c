/* SPDX-License-Identifier: MIT */
/* test_srv_xclbin.c - th_server's design xclbin cache and session files:
 * the routes and fields that name them (server/srv_route.c), the cache
 * (server/srv_xclbin.c: uploads checked by hash, limits, LRU eviction,
 * pins, a restart), and a remote session that sends an xclbin and an
 * xrt.ini and gets its artifacts back (backends/remote/). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "th_server/srv_core.h"
#include "th_server/srv_route.h"
#include "tu.h"
#include "util/error.h"
#include "util/hash.h"

#define MSG_HAS(m, s)                                                                   \
	do {                                                                            \
		if (!strstr((m), (s)))                                                  \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", (m), (s)); \
		CU_ASSERT_PTR_NOT_NULL(strstr((m), (s)));                               \
	} while (0)

#define SHA_ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static void test_routes(void)
{
	srv_route r;
	aieth__srv_route_parse("/v1/xclbins/" SHA_ABC, &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_XCLBIN);
	CU_ASSERT_STRING_EQUAL(r.sha, SHA_ABC);
	CU_ASSERT_STRING_EQUAL(aieth__srv_route_methods(SRV_R_XCLBIN), "HEAD, PUT");
	aieth__srv_route_parse("/v1/sessions/s-1/artifacts", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_ARTIFACTS);
	CU_ASSERT_STRING_EQUAL(r.sid, "s-1");
	aieth__srv_route_parse("/v1/sessions/s-1/artifacts/run_summary.json", &r);
	CU_ASSERT_EQUAL(r.kind, SRV_R_ARTIFACT);
	CU_ASSERT_STRING_EQUAL(r.name, "run_summary.json");
	{
		static const char *const bad[] = {
			"/v1/xclbins/BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
			"/v1/xclbins/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a",
			"/v1/xclbins/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0",
			"/v1/xclbins/" SHA_ABC "/x",
			"/v1/xclbins",
			"/v1/xclbins/",
			"/v1/sessions/s-1/artifacts/",
			"/v1/sessions/s-1/artifacts/a/b",
			"/v1/sessions/s-1/artifacts/a%2fb",
			"/v1/sessions/s-1/artifacts/a b",
			NULL};
		size_t i;
		for (i = 0; bad[i]; i++) {
			aieth__srv_route_parse(bad[i], &r);
			if (r.kind != SRV_R_NONE)
				fprintf(stderr, "\n  path %s: kind %d\n", bad[i], (int)r.kind);
			CU_ASSERT_EQUAL(r.kind, SRV_R_NONE);
		}
	}
	CU_ASSERT(aieth__srv_artifact_name_ok("xrt.ini"));
	CU_ASSERT(aieth__srv_artifact_name_ok("native_trace-0.csv"));
	CU_ASSERT(!aieth__srv_artifact_name_ok(""));
	CU_ASSERT(!aieth__srv_artifact_name_ok("."));
	CU_ASSERT(!aieth__srv_artifact_name_ok(".."));
	CU_ASSERT(!aieth__srv_artifact_name_ok(".run_summary.json.tmp.1.2"));
	CU_ASSERT(!aieth__srv_artifact_name_ok("a/b"));
	CU_ASSERT(aieth__srv_sha256_text_ok(SHA_ABC));
	CU_ASSERT(!aieth__srv_sha256_text_ok("ba78"));
}

static int sreq(const char *body, srv_session_req *r)
{
	return aieth__srv_session_req_parse(body, strlen(body), r);
}

static void test_session_fields(void)
{
	srv_session_req r;
	char *big;
	size_t n;

	CU_ASSERT_EQUAL_FATAL(sreq("{\"board\":\"vck190\",\"xclbin_sha256\":\"" SHA_ABC "\","
				   "\"xrt_ini\":\"[Debug]\\nnative_xrt_trace=true\\n\"}",
				   &r),
			      AIETH_OK);
	CU_ASSERT_STRING_EQUAL(r.xclbin_sha256, SHA_ABC);
	CU_ASSERT_EQUAL(r.xrt_ini_len, 30);
	CU_ASSERT_STRING_EQUAL(r.xrt_ini, "[Debug]\nnative_xrt_trace=true\n");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_PTR_NULL(r.xrt_ini);
	/* an empty xrt.ini is none */
	CU_ASSERT_EQUAL(sreq("{\"board\":\"vck190\",\"xrt_ini\":\"\"}", &r), AIETH_OK);
	CU_ASSERT_PTR_NULL(r.xrt_ini);
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("{\"board\":\"vck190\",\"xrt_ini\":7}", &r), AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "xrt_ini: a string is needed");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("{\"board\":\"vck190\",\"xrt_ini\":\"a\\u0000b\"}", &r), AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "NUL");
	aieth__srv_session_req_free(&r);
	CU_ASSERT_EQUAL(sreq("{\"board\":\"vck190\",\"xclbin_sha256\":\"" SHA_ABC "0\"}", &r),
			AIETH_EINVAL);
	aieth__srv_session_req_free(&r);

	/* one byte over the xrt.ini limit: refused naming it; at the limit: fine */
	n = SRV_XRT_INI_MAX + 1;
	big = malloc(n + 64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memcpy(big, "{\"board\":\"vck190\",\"xrt_ini\":\"", 29);
	memset(big + 29, 'x', n);
	memcpy(big + 29 + n, "\"}", 3);
	CU_ASSERT_EQUAL(aieth__srv_session_req_parse(big, strlen(big), &r), AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "xrt_ini: 1048577 bytes, the limit is 1048576");
	aieth__srv_session_req_free(&r);
	memcpy(big + 29 + n - 1, "\"}", 3);
	CU_ASSERT_EQUAL(aieth__srv_session_req_parse(big, strlen(big), &r), AIETH_OK);
	CU_ASSERT_EQUAL(r.xrt_ini_len, SRV_XRT_INI_MAX);
	aieth__srv_session_req_free(&r);
	/* a body past the session body limit */
	CU_ASSERT_EQUAL(aieth__srv_session_req_parse(big, SRV_SESSION_BODY_MAX + 1, &r),
			AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "the limit is");
	aieth__srv_session_req_free(&r);
	free(big);
}

#ifdef AIETH_HAVE_MHD /* the helpers of the tests that need the HTTP side */
static void sha_hex(const void *data, size_t n, char out[65])
{
	aieth_sha256 h;
	uint8_t d[32];
	int i;
	aieth__sha256_init(&h);
	aieth__sha256_update(&h, data, n);
	aieth__sha256_final(&h, d);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static srv_x_result put_as(aieth__server *s, const char *owner, const char *sha, const void *data,
			   size_t n, int *created, char *msg, size_t cap)
{
	srv_xupload u;
	srv_x_result r = aieth__srv_xclbin_begin(s, sha, owner, n, &u, msg, cap);
	size_t off;
	if (r)
		return r;
	/* in pieces, as a body arrives */
	for (off = 0; off < n; off += 4096)
		CU_ASSERT_EQUAL(aieth__srv_xclbin_write(&u, (const char *)data + off,
							n - off < 4096 ? n - off : 4096),
				0);
	return aieth__srv_xclbin_commit(s, &u, created, msg, cap);
}

/* without tokens: the one anonymous namespace */
static srv_x_result put(aieth__server *s, const char *sha, const void *data, size_t n, int *created,
			char *msg, size_t cap)
{
	return put_as(s, "*", sha, data, n, created, msg, cap);
}

static int files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	/* the designs and temporaries; not the owners index beside them */
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		     strcmp(e->d_name, "owners.txt");
	if (d)
		closedir(d);
	return n;
}

static aieth__server *open_cache(const char *dir, uint32_t cache_mib, uint32_t max_mib)
{
	aieth__server_opts o;
	aieth__server *s = NULL;
	aieth__server_opts_init(&o, AIETH_SERVER_OPTS_VERSION);
	o.listen = "127.0.0.1:0";
	o.cache_dir = dir;
	o.xclbin_cache_mib = cache_mib;
	o.max_xclbin_mib = max_mib;
	if (aieth__server_open(&s, &o))
		fprintf(stderr, "\n  server: %s\n", aieth_error_message());
	return s;
}
#endif

static void test_cache(void)
{
#ifdef AIETH_HAVE_MHD
	char dir[] = "/tmp/aieth_xcache.XXXXXX", msg[600], ha[65], hb[65], hc[65], p[600];
	size_t n = 600u << 10;
	uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
	aieth__server *s;
	srv_sess x;
	srv_xupload u;
	int created = -1;
	FILE *f;

	CU_ASSERT_FATAL(a && b && c);
	memset(a, 'a', n);
	memset(b, 'b', n);
	memset(c, 'c', n);
	sha_hex(a, n, ha);
	sha_hex(b, n, hb);
	sha_hex(c, n, hc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	/* a broken upload of an earlier run is cleaned up at start */
	snprintf(p, sizeof p, "%s/.up-leftover", dir);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	s = open_cache(dir, 1, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(access(p, F_OK), -1);

	/* over --max-xclbin: refused from the length alone */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, ha, "*", (1u << 20) + 1, &u, msg, sizeof msg),
			SRV_X_TOO_LARGE);
	MSG_HAS(msg, "the limit is --max-xclbin 1 MiB");
	/* a body whose hash differs: 400, nothing left behind */
	CU_ASSERT_EQUAL(put(s, hb, a, n, &created, msg, sizeof msg), SRV_X_BAD);
	MSG_HAS(msg, "sha256 is");
	CU_ASSERT_EQUAL(files_in(dir), 0);
	/* a body that ends early: 400, nothing left */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, ha, "*", n, &u, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_write(&u, a, 100), 0);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_write(&u, a, n), -1); /* past the length */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_commit(s, &u, &created, msg, sizeof msg), SRV_X_BAD);
	MSG_HAS(msg, "ended after 100 of");
	CU_ASSERT_EQUAL(files_in(dir), 0);
	/* a client that vanished */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, ha, "*", n, &u, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_write(&u, a, 100), 0);
	aieth__srv_xclbin_abort(&u);
	CU_ASSERT_EQUAL(files_in(dir), 0);

	/* stored once; the same again is no new entry */
	CU_ASSERT_EQUAL(put(s, ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 1);
	CU_ASSERT_EQUAL(put(s, ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 0);
	CU_ASSERT_EQUAL(files_in(dir), 1);
	CU_ASSERT_EQUAL(s->cache.uploads, 1);

	/* the cache holds 1 MiB: b evicts a (not pinned) */
	CU_ASSERT_EQUAL(put(s, hb, b, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(s->cache.evictions, 1);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_PTR_NULL(aieth__srv_xclbin_find_locked(s, ha, "*"));
	CU_ASSERT_PTR_NOT_NULL(aieth__srv_xclbin_find_locked(s, hb, "*"));
	pthread_mutex_unlock(&s->mu);
	CU_ASSERT_EQUAL(files_in(dir), 1);

	/* b pinned by a session: c finds no room (507), b stays */
	memset(&x, 0, sizeof x);
	memcpy(x.xsha, hb, 65);
	snprintf(x.owner, sizeof x.owner, "-");
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_pin_locked(s, &x), AIETH_OK);
	pthread_mutex_unlock(&s->mu);
	CU_ASSERT(x.xclbin && strstr(x.xclbin, hb));
	CU_ASSERT_EQUAL(put(s, hc, c, n, &created, msg, sizeof msg), SRV_X_NO_ROOM);
	MSG_HAS(msg, "--xclbin-cache-mib 1 MiB");
	CU_ASSERT_EQUAL(files_in(dir), 1);
	pthread_mutex_lock(&s->mu);
	aieth__srv_xclbin_unpin_locked(s, &x);
	aieth__srv_xclbin_unpin_locked(s, &x); /* twice: once counts */
	pthread_mutex_unlock(&s->mu);
	free(x.xclbin);
	CU_ASSERT_EQUAL(put(s, hc, c, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 1);
	/* an unknown sha cannot be pinned */
	memset(&x, 0, sizeof x);
	memcpy(x.xsha, ha, 65);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_pin_locked(s, &x), AIETH_ENOTFOUND);
	pthread_mutex_unlock(&s->mu);
	MSG_HAS(aieth_error_message(), "upload it first");
	aieth__server_close(s);

	/* a --cache-dir survives a restart */
	s = open_cache(dir, 4, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_PTR_NOT_NULL(aieth__srv_xclbin_find_locked(s, hc, "*"));
	CU_ASSERT_EQUAL(s->cache.used, n);
	pthread_mutex_unlock(&s->mu);
	aieth__server_close(s);
	snprintf(p, sizeof p, "%s/%s", dir, hc);
	unlink(p);
	snprintf(p, sizeof p, "%s/owners.txt", dir);
	unlink(p);
	rmdir(dir);
	free(a);
	free(b);
	free(c);
#endif
}

/* Designs per owner (a token's name): another owner's design is answered
 * as a missing one (find, pin), stored once when both send it, and who
 * may see what survives a restart (the owners index). */
static void test_cache_owners(void)
{
#ifdef AIETH_HAVE_MHD
	char dir[] = "/tmp/aieth_xown.XXXXXX", msg[600], ha[65], p[600];
	size_t n = 1000;
	uint8_t a[1000];
	aieth__server *s;
	srv_sess x;
	int created = -1;

	memset(a, 'o', n);
	sha_hex(a, n, ha);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	s = open_cache(dir, 4, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	s->have_tokens = 1; /* as with a token file: owners are token names */
	CU_ASSERT_STRING_EQUAL(aieth__srv_xclbin_owner(s, "alice"), "alice");
	CU_ASSERT_EQUAL(put_as(s, "alice", ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 1);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_PTR_NOT_NULL(aieth__srv_xclbin_find_locked(s, ha, "alice"));
	CU_ASSERT_PTR_NULL(aieth__srv_xclbin_find_locked(s, ha, "bob"));
	pthread_mutex_unlock(&s->mu);
	/* bob's session cannot use it: the same message as a missing design */
	memset(&x, 0, sizeof x);
	memcpy(x.xsha, ha, 65);
	snprintf(x.owner, sizeof x.owner, "bob");
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_pin_locked(s, &x), AIETH_ENOTFOUND);
	pthread_mutex_unlock(&s->mu);
	MSG_HAS(aieth_error_message(), "not in the server's cache: upload it first");
	CU_ASSERT_PTR_NULL(x.xclbin);
	/* bob sends the same bytes: new for him, stored once */
	CU_ASSERT_EQUAL(put_as(s, "bob", ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 1);
	CU_ASSERT_EQUAL(put_as(s, "bob", ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 0);
	CU_ASSERT_EQUAL(files_in(dir), 1);
	CU_ASSERT_EQUAL(s->cache.used, n);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_pin_locked(s, &x), AIETH_OK);
	aieth__srv_xclbin_unpin_locked(s, &x);
	pthread_mutex_unlock(&s->mu);
	free(x.xclbin);
	aieth__server_close(s);

	/* after a restart: alice and bob still see it, carol does not; a
	 * server without tokens (the anonymous namespace) does not either */
	s = open_cache(dir, 4, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	pthread_mutex_lock(&s->mu);
	CU_ASSERT_PTR_NOT_NULL(aieth__srv_xclbin_find_locked(s, ha, "alice"));
	CU_ASSERT_PTR_NOT_NULL(aieth__srv_xclbin_find_locked(s, ha, "bob"));
	CU_ASSERT_PTR_NULL(aieth__srv_xclbin_find_locked(s, ha, "carol"));
	CU_ASSERT_PTR_NULL(aieth__srv_xclbin_find_locked(s, ha, aieth__srv_xclbin_owner(s, "-")));
	pthread_mutex_unlock(&s->mu);
	aieth__server_close(s);
	snprintf(p, sizeof p, "%s/%s", dir, ha);
	unlink(p);
	snprintf(p, sizeof p, "%s/owners.txt", dir);
	unlink(p);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
#endif
}

/* Uploads in progress hold their length in the cache limit: a second one
 * that does not fit beside them is refused (507) until the first ends. */
static void test_cache_reserved(void)
{
#ifdef AIETH_HAVE_MHD
	char dir[] = "/tmp/aieth_xres.XXXXXX", msg[600], ha[65], hb[65];
	size_t n = 600u << 10;
	uint8_t *a = malloc(n), *b = malloc(n);
	srv_xupload u1, u2;
	aieth__server *s;
	int created = -1;

	CU_ASSERT_FATAL(a && b);
	memset(a, 'A', n);
	memset(b, 'B', n);
	sha_hex(a, n, ha);
	sha_hex(b, n, hb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	s = open_cache(dir, 1, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, ha, "*", n, &u1, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_write(&u1, a, 100), 0);
	CU_ASSERT_EQUAL(s->cache.reserved, n);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, hb, "*", n, &u2, msg, sizeof msg),
			SRV_X_NO_ROOM);
	MSG_HAS(msg, "uploads in progress hold 614400 bytes");
	MSG_HAS(msg, "--xclbin-cache-mib 1 MiB");
	aieth__srv_xclbin_abort(&u1); /* the client went away */
	CU_ASSERT_EQUAL(s->cache.reserved, 0);
	CU_ASSERT_EQUAL(put(s, hb, b, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(s->cache.reserved, 0);
	/* a finished design that is not in use makes room for the next upload */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_begin(s, ha, "*", n, &u1, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(s->cache.evictions, 1);
	CU_ASSERT_EQUAL(s->cache.used + s->cache.reserved, n);
	aieth__srv_xclbin_abort(&u1);
	aieth__server_close(s);
	snprintf(msg, sizeof msg, "%s/%s", dir, hb);
	CU_ASSERT_EQUAL(unlink(msg), -1); /* evicted */
	snprintf(msg, sizeof msg, "%s/owners.txt", dir);
	unlink(msg);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
	free(a);
	free(b);
#endif
}

/* A file outside the cache (an AMD client's xclbin) counts against its
 * limit: designs not pinned make room, an upload that does not fit with it
 * is refused, and the room comes back when it is given back. */
static void test_reserve(void)
{
#ifdef AIETH_HAVE_MHD
	char dir[] = "/tmp/aieth_xres.XXXXXX", msg[600], ha[65], hb[65];
	size_t n = 600u << 10;
	uint8_t *a = malloc(n), *b = malloc(n);
	aieth__server *s;
	unsigned ev = 99;
	int created = -1;

	CU_ASSERT_FATAL(a && b);
	memset(a, 'a', n);
	memset(b, 'b', n);
	sha_hex(a, n, ha);
	sha_hex(b, n, hb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	s = open_cache(dir, 1, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(put(s, ha, a, n, &created, msg, sizeof msg), SRV_X_OK);
	/* more than the whole cache: refused, nothing evicted or counted */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_reserve(s, (1u << 20) + 1, &ev, msg, sizeof msg), -1);
	MSG_HAS(msg, "do not fit");
	MSG_HAS(msg, "--xclbin-cache-mib 1 MiB");
	CU_ASSERT_EQUAL(s->cache.used, n);
	CU_ASSERT_EQUAL(files_in(dir), 1);
	/* room made by evicting a */
	CU_ASSERT_EQUAL(aieth__srv_xclbin_reserve(s, n, &ev, msg, sizeof msg), 0);
	CU_ASSERT_EQUAL(ev, 1);
	CU_ASSERT_EQUAL(s->cache.used, 0);
	CU_ASSERT_EQUAL(s->cache.reserved, n);
	CU_ASSERT_EQUAL(files_in(dir), 0);
	/* nothing left to evict: an upload and a second reservation fail */
	CU_ASSERT_EQUAL(put(s, hb, b, n, &created, msg, sizeof msg), SRV_X_NO_ROOM);
	CU_ASSERT_EQUAL(aieth__srv_xclbin_reserve(s, n, &ev, msg, sizeof msg), -1);
	CU_ASSERT_EQUAL(s->cache.reserved, n);
	/* given back: the upload fits */
	aieth__srv_xclbin_unreserve(s, n);
	CU_ASSERT_EQUAL(s->cache.reserved, 0);
	CU_ASSERT_EQUAL(put(s, hb, b, n, &created, msg, sizeof msg), SRV_X_OK);
	CU_ASSERT_EQUAL(created, 1);
	aieth__server_close(s);
	snprintf(msg, sizeof msg, "%s/%s", dir, hb);
	unlink(msg);
	rmdir(dir);
	free(a);
	free(b);
#endif
}

#if defined(AIETH_HAVE_MHD) && defined(AIETH_HAVE_CURL)
static int nart;
static void on_artifact(void *ctx, const char *path, uint64_t bytes)
{
	(void)ctx;
	(void)bytes;
	if (strstr(path, "run_summary.json") || strstr(path, "xrt.ini"))
		nart++;
}
#endif

static void test_remote_design(void)
{
#if defined(AIETH_HAVE_MHD) && defined(AIETH_HAVE_CURL)
	aieth__server_opts so;
	aieth__server *srv = NULL;
	aieth_session_opts o;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	aieth_xrt_opts xrt = AIETH_XRT_OPTS_INIT;
	aieth_session *s = NULL;
	aieth_graph_spec g = {"gr", "adder", NULL};
	char url[64], out[] = "/tmp/aieth_art.XXXXXX", p[600];
	const char *xcl =
		tu_tmpfile("not really an xclbin, but the emulated board does not mind\n");
	const char *ini = tu_tmpfile("[Runtime]\nverbosity=4\n");
	struct stat st;
	size_t k;

	aieth__server_opts_init(&so, AIETH_SERVER_OPTS_VERSION);
	so.listen = "127.0.0.1:0";
	CU_ASSERT_EQUAL_FATAL(aieth__server_open(&srv, &so), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(out));
	snprintf(url, sizeof url, "http://127.0.0.1:%u", (unsigned)aieth__server_port(srv));
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.remote = &remote;
	o.xrt = &xrt;
	o.board = "vck190";
	o.backend = "remote";
	remote.server = url;
	o.graphs = &g;
	o.num_graphs = 1;
	o.xclbin = xcl;
	remote.xrt_ini = ini;
	remote.artifacts_dir = out;
	o.artifact = on_artifact;
	/* twice: the second session finds the design in the cache */
	for (k = 0; k < 2; k++) {
		if (aieth_session_open(&s, &o) != AIETH_OK)
			fprintf(stderr, "\n  open: %s\n", aieth_error_message());
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(aieth_graph_run(s, "gr", 1), AIETH_OK);
		aieth_session_close(s);
		s = NULL;
	}
	CU_ASSERT_EQUAL(srv->cache.uploads, 1);
	CU_ASSERT_EQUAL(nart, 4);
	snprintf(p, sizeof p, "%s/run_summary.json", out);
	CU_ASSERT_EQUAL(stat(p, &st), 0);
	unlink(p);
	snprintf(p, sizeof p, "%s/xrt.ini", out);
	CU_ASSERT_EQUAL(stat(p, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 22);
	unlink(p);
	rmdir(out);

	/* the PL kernel is the server's: refused by name */
	xrt.pl_xclbin = xcl;
	remote.artifacts_dir = NULL;
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "the server's setting");
	/* xrt_ini on the emulated board: refused */
	xrt.pl_xclbin = NULL;
	o.backend = "emu";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	MSG_HAS(aieth_error_message(), "the emulated board has no XRT to read an xrt.ini");
	aieth__server_close(srv);
#endif
}

TU_MAIN("srv_xclbin", {"routes and names", test_routes},
	{"session fields: xclbin_sha256, xrt_ini", test_session_fields},
	{"the xclbin cache", test_cache},
	{"the xclbin cache: designs per owner", test_cache_owners},
	{"the xclbin cache: uploads in progress count", test_cache_reserved},
	{"files outside the cache count against its limit", test_reserve},
	{"a remote session with a design and an xrt.ini", test_remote_design})
