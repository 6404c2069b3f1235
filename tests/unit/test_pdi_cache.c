/* SPDX-License-Identifier: MIT */
/*
 * test_pdi_cache.c - the PDI cache (package/pdi_cache.h): the key changes
 * with each thing bootgen reads (and only with those), hit and miss, a
 * damaged entry is a miss and is removed, least recently used eviction
 * under the bound, stamps (a hit checked once is trusted while its entry
 * is unchanged), memos bound to the folder's key and their own name, the
 * folder's choice and privacy.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/pdi_cache.h"
#include "tu.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"

static char dir[64];

static const char *at(const char *name)
{
	static char buf[16][256];
	static int slot;
	char *b = buf[slot++ % 16];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static void put_file(const char *path, const void *data, size_t n)
{
	CU_ASSERT_EQUAL_FATAL(aieth__write_atomic(path, data, n), AIETH_OK);
}

static void fresh_dir(void)
{
	char cmd[128];
	if (dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	snprintf(dir, sizeof dir, "/tmp/aieth-pdicache-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

static const char *bif_text(unsigned id, const char *c0, const char *c1)
{
	static char t[512];
	snprintf(t, sizeof t,
		 "all:\n{\n  id_code = 0x%08x\n  image\n  {\n    { type=cdo\n"
		 "      file=%s\n      file=%s\n    }\n  }\n}\n",
		 id, c0, c1);
	return t;
}

/* The key of tool, argv "-arch ARCH -image BIF -o OUT -w", the BIF and two CDOs. */
static int key_of(const char *arch, const char *bif, const char *out, const char *c0,
		  const char *c1, uint8_t k[32])
{
	const char *argv[] = {at("tool"), "-arch", arch, "-image", bif, "-o", out, "-w", NULL};
	const char *cdos[] = {c0, c1};
	return aieth__pdi_cache_key(at("tool"), argv, bif, out, cdos, 2, k);
}

static void setup_inputs(void)
{
	fresh_dir();
	put_file(at("tool"), "#!/bin/sh\n", 10);
	CU_ASSERT_EQUAL(chmod(at("tool"), 0755), 0);
	put_file(at("a.cdo"), "cdo-one-bytes", 13);
	put_file(at("b.cdo"), "cdo-two-bytes", 13);
	put_file(at("bif"), bif_text(0x14ca8093, at("a.cdo"), at("b.cdo")),
		 strlen(bif_text(0x14ca8093, at("a.cdo"), at("b.cdo"))));
}

static void test_key(void)
{
	uint8_t k0[32], k[32];
	struct timespec ts[2] = {{1000000000, 0}, {1000000000, 0}};
	const char *t;
	setup_inputs();
	CU_ASSERT_EQUAL_FATAL(
		key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k0), AIETH_OK);
	/* the same inputs: the same key */
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_EQUAL(memcmp(k0, k, 32), 0);
	/* other scratch paths (BIF, output, CDO copies): the same key */
	put_file(at("a2.cdo"), "cdo-one-bytes", 13);
	t = bif_text(0x14ca8093, at("a2.cdo"), at("b.cdo"));
	put_file(at("bif2"), t, strlen(t));
	CU_ASSERT_EQUAL(key_of("versal", at("bif2"), at("p.pdi"), at("a2.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_EQUAL(memcmp(k0, k, 32), 0);
	/* an argument */
	CU_ASSERT_EQUAL(
		key_of("versal_2ve_2vm", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	/* the BIF text */
	t = bif_text(0x14ca8094, at("a.cdo"), at("b.cdo"));
	put_file(at("bif3"), t, strlen(t));
	CU_ASSERT_EQUAL(key_of("versal", at("bif3"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	/* the CDOs' order, a byte, a length */
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("b.cdo"), at("a.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	put_file(at("a3.cdo"), "cdo-one-bytex", 13);
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a3.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	put_file(at("a4.cdo"), "cdo-one-bytes\0", 14);
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a4.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	/* bootgen's identity: its time, then its bytes */
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, at("tool"), ts, 0), 0);
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	memcpy(k0, k, 32);
	put_file(at("tool"), "#!/bin/sh\n\n", 11);
	CU_ASSERT_EQUAL(chmod(at("tool"), 0755), 0);
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(k0, k, 32), 0);
	/* no bootgen, no CDO: no key */
	CU_ASSERT_EQUAL(unlink(at("tool")), 0);
	CU_ASSERT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("b.cdo"), k),
			AIETH_ENOTFOUND);
	setup_inputs();
	CU_ASSERT_NOT_EQUAL(key_of("versal", at("bif"), at("o.pdi"), at("a.cdo"), at("none"), k),
			    AIETH_OK);
}

static uint8_t payload[3][4000];

/* The entry of key in DIR/SUB ("<key>-<hash>-<size>.pdi", not its stamp
 * "....ok"): its path in out ("" when there is none). */
static void entry_name(char *out, size_t cap, const char *sub, const uint8_t key[32])
{
	char hex[65], d[128];
	struct dirent *de;
	DIR *dd;
	int i;
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	snprintf(d, sizeof d, "%s/%s", dir, sub);
	out[0] = '\0';
	if (!(dd = opendir(d)))
		return;
	while ((de = readdir(dd)))
		if (!strncmp(de->d_name, hex, 64) && de->d_name[64] == '-' &&
		    strlen(de->d_name) > 4 &&
		    !strcmp(de->d_name + strlen(de->d_name) - 4, ".pdi") &&
		    strlen(d) + strlen(de->d_name) + 2 <= cap)
			sprintf(out, "%s/%s", d, de->d_name);
	closedir(dd);
}

/* Put a fresh in.pdi (payload[0]) under key, as bootgen's scratch file:
 * removed after (the entry may be a hard link of it). */
static int store(const aieth_pdi_cache *c, const uint8_t key[32], int *stored)
{
	int rc;
	put_file(at("in.pdi"), payload[0], 4000);
	rc = aieth__pdi_cache_put(c, key, at("in.pdi"), stored);
	unlink(at("in.pdi"));
	return rc;
}

static int same_file(const char *path, const void *data, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	int same;
	if (aieth__read_file(path, 1 << 20, &text, &len))
		return 0;
	same = len == n && !memcmp(text, data, n);
	free(text);
	return same;
}

static void test_hit_miss_damage(void)
{
	aieth_pdi_cache c;
	uint8_t key[32], other[32];
	int hit = -1, stored = -1, fd, i;
	char entry[300], oe[300];
	struct stat st;
	fresh_dir();
	for (i = 0; i < 4000; i++)
		payload[0][i] = (uint8_t)(i * 31 + 7);
	memset(key, 0x5a, sizeof key);
	memset(other, 0xa5, sizeof other);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("c/d"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(c.max_bytes, AIETH_PDI_CACHE_MAX_DEFAULT);
	CU_ASSERT_EQUAL(stat(at("c/d"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	/* miss, store, hit with the same bytes */
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("out.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(at("out.pdi"), F_OK), -1);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(stored, 1);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("out.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT(same_file(at("out.pdi"), payload[0], 4000));
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, other, at("out2.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	/* a hit in the cache's file system is a hard link: no copy, and the
	 * bytes stay whatever happens to the entry */
	entry_name(entry, sizeof entry, "c/d", key);
	CU_ASSERT_EQUAL(stat(at("out.pdi"), &st), 0);
	CU_ASSERT_EQUAL(st.st_nlink, 2);
	CU_ASSERT_EQUAL(unlink(entry), 0);
	CU_ASSERT(same_file(at("out.pdi"), payload[0], 4000));
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "c/d", key);
	CU_ASSERT_EQUAL_FATAL(stat(entry, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 4000); /* the PDI itself: hard-linkable */
	CU_ASSERT_PTR_NOT_NULL(strstr(entry, "-4000.pdi"));
	/* a flipped byte: a miss, the entry removed */
	fd = open(entry, O_WRONLY);
	CU_ASSERT_EQUAL(pwrite(fd, "\xff", 1, 1234), 1);
	close(fd);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(at("bad.pdi"), F_OK), -1);
	CU_ASSERT_EQUAL(access(entry, F_OK), -1);
	/* truncated, grown, empty: misses */
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "c/d", key);
	CU_ASSERT_EQUAL(truncate(entry, 3999), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "c/d", key);
	CU_ASSERT_EQUAL(truncate(entry, 4001), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "c/d", key);
	CU_ASSERT_EQUAL(truncate(entry, 0), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	/* the same size, another content hash in the name */
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "c/d", key);
	snprintf(oe, sizeof oe, "%s", entry);
	oe[strlen(oe) - strlen("-4000.pdi") - 1] ^= 1; /* the hash's last digit */
	CU_ASSERT_EQUAL(rename(entry, oe), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(oe, F_OK), -1);
	/* a symbolic link or a directory under an entry's name: misses */
	CU_ASSERT_EQUAL(symlink(at("out.pdi"), oe), 0); /* sound bytes, but a link */
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	unlink(oe);
	CU_ASSERT_EQUAL(mkdir(oe, 0700), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("bad.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(at("bad.pdi"), F_OK), -1);
	rmdir(oe);
	/* the entry rebuilt: a hit again */
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("good.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT(same_file(at("good.pdi"), payload[0], 4000));
	/* taken unchecked: the caller gets the hash to check, a damaged entry
	 * comes out as it is (only its size is checked here) and drop removes
	 * it; a sound one stays after a drop of another hash */
	{
		aieth_pdi_cache_check ck;
		aieth_hash128 h;
		uint8_t sum[16];
		CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("t.pdi"), &hit, &ck), AIETH_OK);
		CU_ASSERT_EQUAL(hit, 1);
		CU_ASSERT_EQUAL(ck.pending, 1);
		CU_ASSERT_EQUAL(ck.size, 4000);
		aieth__hash128_init(&h);
		aieth__hash128_update(&h, payload[0], 4000);
		aieth__hash128_final(&h, sum);
		CU_ASSERT_EQUAL(memcmp(sum, ck.hash, 16), 0);
		entry_name(entry, sizeof entry, "c/d", key);
		fd = open(entry, O_WRONLY);
		CU_ASSERT_EQUAL(pwrite(fd, "\xff", 1, 3999), 1);
		close(fd);
		CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("t2.pdi"), &hit, &ck), AIETH_OK);
		CU_ASSERT_EQUAL(hit, 1);
		CU_ASSERT_EQUAL(ck.pending, 1);
		CU_ASSERT(!same_file(at("t2.pdi"), payload[0], 4000));
		ck.hash[0] ^= 1; /* another entry's name: not this one */
		aieth__pdi_cache_drop(&c, key, &ck);
		CU_ASSERT_EQUAL(access(entry, F_OK), 0);
		ck.hash[0] ^= 1;
		aieth__pdi_cache_drop(&c, key, &ck);
		CU_ASSERT_EQUAL(access(entry, F_OK), -1);
		CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("t3.pdi"), &hit, &ck), AIETH_OK);
		CU_ASSERT_EQUAL(hit, 0);
		CU_ASSERT_EQUAL(ck.pending, 0);
	}
	aieth__pdi_cache_close(&c);
}

static void set_used(const char *path, time_t t)
{
	struct timespec ts[2] = {{t, 0}, {t, 0}};
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static int entry_count(const char *d)
{
	char cmd[200];
	FILE *p;
	int n = -1;
	snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '\\.pdi$'", d);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void test_lru_bound(void)
{
	aieth_pdi_cache c;
	uint8_t k[4][32];
	char e[4][300];
	int i, hit, stored;
	fresh_dir();
	/* room for three entries of 4000 bytes */
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("lru"), 3 * 4000 + 100), AIETH_OK);
	for (i = 0; i < 4; i++) {
		memset(k[i], 0x10 + i, 32);
		CU_ASSERT_EQUAL(store(&c, k[i], &stored), AIETH_OK);
		CU_ASSERT_EQUAL(stored, 1);
		entry_name(e[i], sizeof e[i], "lru", k[i]);
		set_used(e[i], 1000000 + 10 * i); /* A oldest, then B, C, D */
		if (i == 2)
			break;
	}
	CU_ASSERT_EQUAL(entry_count(at("lru")), 3);
	/* a hit makes A the most recently used: B is the one to go */
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, k[0], at("o.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(store(&c, k[3], &stored), AIETH_OK);
	CU_ASSERT_EQUAL(stored, 1);
	entry_name(e[3], sizeof e[3], "lru", k[3]);
	CU_ASSERT_EQUAL(entry_count(at("lru")), 3);
	CU_ASSERT_EQUAL(access(e[0], F_OK), 0);
	CU_ASSERT_EQUAL(access(e[1], F_OK), -1);
	CU_ASSERT_EQUAL(access(e[2], F_OK), 0);
	CU_ASSERT_EQUAL(access(e[3], F_OK), 0);
	/* a smaller bound evicts the oldest first (times set: the clock the
	 * file system stamps with is coarse) */
	set_used(e[0], 2000000);
	set_used(e[2], 2000010);
	set_used(e[3], 2000020);
	CU_ASSERT_EQUAL(aieth__pdi_cache_evict(&c, 4000), AIETH_OK);
	CU_ASSERT_EQUAL(entry_count(at("lru")), 1);
	CU_ASSERT_EQUAL(access(e[3], F_OK), 0);
	/* a stale temporary (a writer that died) goes, a fresh one stays;
	 * files not named like entries are not touched */
	put_file(at("lru/.tmp.1.0.0"), "x", 1);
	set_used(at("lru/.tmp.1.0.0"), 1000000);
	put_file(at("lru/.tmp.2.0.0"), "x", 1);
	put_file(at("lru/notes.txt"), "mine", 4);
	CU_ASSERT_EQUAL(aieth__pdi_cache_evict(&c, 0), AIETH_OK);
	CU_ASSERT_EQUAL(entry_count(at("lru")), 0);
	CU_ASSERT_EQUAL(access(at("lru/.tmp.1.0.0"), F_OK), -1);
	CU_ASSERT_EQUAL(access(at("lru/.tmp.2.0.0"), F_OK), 0);
	CU_ASSERT_EQUAL(access(at("lru/notes.txt"), F_OK), 0);
	aieth__pdi_cache_close(&c);
	/* an entry larger than the bound is not kept */
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("tiny"), 1000), AIETH_OK);
	CU_ASSERT_EQUAL(store(&c, k[0], &stored), AIETH_OK);
	CU_ASSERT_EQUAL(stored, 0);
	CU_ASSERT_EQUAL(entry_count(at("tiny")), 0);
	aieth__pdi_cache_close(&c);
}

/* Until the file system's clock has moved past t (bounded): a change made
 * then shows in a file's change time (the clock is coarse: a change within
 * the same tick may not). */
static void clock_past(const struct timespec *t)
{
	struct stat st;
	long i;
	for (i = 0; i < 10000000; i++) {
		int f = open(at("tick"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
		CU_ASSERT_FATAL(f >= 0);
		CU_ASSERT_EQUAL(write(f, "x", 1), 1);
		CU_ASSERT_EQUAL(fstat(f, &st), 0);
		close(f);
		if (st.st_ctim.tv_sec > t->tv_sec ||
		    (st.st_ctim.tv_sec == t->tv_sec && st.st_ctim.tv_nsec > t->tv_nsec))
			return;
	}
	CU_FAIL("the file system's clock did not move");
}

/* Stamps (docs/packaging.md, "Entries"): a hit is read through its open
 * descriptor (a symbolic link to /proc/self/fd/N) and leaves the entry's
 * inode as it was; the caller's check, found sound, stamps an entry that
 * had not changed for 2 s; a later hit is then trusted (not hashed) while
 * the entry is unchanged, and hashed again after any write. A stamp
 * carries its entry's use; eviction removes stamps whose entry is gone. */
static void test_stamps(void)
{
	aieth_pdi_cache c;
	aieth_pdi_cache_check ck;
	uint8_t key[32], k2[32];
	char entry[300], stamp[300], e2[300], s2[300];
	struct stat st0, st;
	int hit = -1, stored = -1, fd, i;
	fresh_dir();
	for (i = 0; i < 4000; i++)
		payload[0][i] = (uint8_t)(i * 31 + 7);
	memset(key, 0x33, sizeof key);
	memset(k2, 0x44, sizeof k2);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("s"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(stored, 1);
	entry_name(entry, sizeof entry, "s", key);
	CU_ASSERT_FATAL(entry[0] != '\0');
	snprintf(stamp, sizeof stamp, "%.*s.ok", (int)(strlen(entry) - 4), entry);
	CU_ASSERT_EQUAL(stat(entry, &st0), 0);
	/* a hit: through the descriptor, unchecked, no stamp yet */
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h1.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.held, 1);
	CU_ASSERT_EQUAL(ck.pending, 1);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	CU_ASSERT_EQUAL(lstat(at("h1.pdi"), &st), 0);
	CU_ASSERT(S_ISLNK(st.st_mode));
	CU_ASSERT(same_file(at("h1.pdi"), payload[0], 4000));
	CU_ASSERT_EQUAL(stat(entry, &st), 0);
	CU_ASSERT(st.st_ctim.tv_sec == st0.st_ctim.tv_sec &&
		  st.st_ctim.tv_nsec == st0.st_ctim.tv_nsec);
	CU_ASSERT_EQUAL(st.st_nlink, st0.st_nlink);
	/* just stored: too fresh to stamp (a change in the same time stamp
	 * would not show) */
	aieth__pdi_cache_checked(&c, key, &ck);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(ck.held, 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h2.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	CU_ASSERT_EQUAL(ck.pending, 1);
	/* taken 3 s after its last change (the clock moved on, not waited
	 * for): stamped, and the next hit trusts it */
	ck.taken += 3000000000LL;
	aieth__pdi_cache_checked(&c, key, &ck);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h3.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.trusted, 1);
	CU_ASSERT_EQUAL(ck.pending, 0);
	CU_ASSERT(same_file(at("h3.pdi"), payload[0], 4000));
	CU_ASSERT_EQUAL(aieth__pdi_cache_unchanged(&ck), 1);
	/* a key without an entry: a miss, nothing held */
	{
		aieth_pdi_cache_check none;
		CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, k2, at("none.pdi"), &hit, &none),
				AIETH_OK);
		CU_ASSERT_EQUAL(hit, 0);
		CU_ASSERT_EQUAL(none.held, 0);
		CU_ASSERT_EQUAL(aieth__pdi_cache_unchanged(&none), 0);
	}
	/* a damaged byte, written once the clock has moved: the change time
	 * tells - the trusted hit still holding the entry sees it changed
	 * (the packager then takes it for damaged), and the next hit is
	 * hashed again (and the caller's hash finds it) */
	clock_past(&st0.st_ctim);
	fd = open(entry, O_WRONLY);
	CU_ASSERT_EQUAL(pwrite(fd, "\xff", 1, 3999), 1);
	close(fd);
	CU_ASSERT_EQUAL(aieth__pdi_cache_unchanged(&ck), 0);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h4.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	CU_ASSERT_EQUAL(ck.pending, 1);
	CU_ASSERT(!same_file(at("h4.pdi"), payload[0], 4000));
	aieth__pdi_cache_drop(&c, key, &ck);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(access(entry, F_OK), -1);
	CU_ASSERT_EQUAL(access(stamp, F_OK), -1);
	aieth__pdi_cache_close(&c);
	/* eviction: an entry's use is the later of its and its stamp's times;
	 * stamps whose entry is gone go too */
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("e"), 1 << 20), AIETH_OK);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(store(&c, k2, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "e", key);
	entry_name(e2, sizeof e2, "e", k2);
	snprintf(stamp, sizeof stamp, "%.*s.ok", (int)(strlen(entry) - 4), entry);
	snprintf(s2, sizeof s2, "%.*s.ok", (int)(strlen(e2) - 4), e2);
	put_file(stamp, "", 0);
	put_file(s2, "", 0);
	put_file(at("e/"
		    "0000000000000000000000000000000000000000000000000000000000000000-"
		    "00000000000000000000000000000000-4000.ok"),
		 "", 0);
	set_used(entry, 1000000); /* the older entry ... */
	set_used(e2, 1000010);
	set_used(stamp, 3000000); /* ... used last */
	set_used(s2, 1000010);
	CU_ASSERT_EQUAL(aieth__pdi_cache_evict(&c, 4000), AIETH_OK);
	CU_ASSERT_EQUAL(access(entry, F_OK), 0);
	CU_ASSERT_EQUAL(access(stamp, F_OK), 0);
	CU_ASSERT_EQUAL(access(e2, F_OK), -1);
	CU_ASSERT_EQUAL(access(s2, F_OK), -1);
	CU_ASSERT_EQUAL(
		access(at("e/"
			  "0000000000000000000000000000000000000000000000000000000000000000-"
			  "00000000000000000000000000000000-4000.ok"),
		       F_OK),
		-1);
	aieth__pdi_cache_close(&c);
}

static void test_folder(void)
{
	aieth_pdi_cache c;
	struct stat st;
	char want[300];
	fresh_dir();
	/* $AIETH_CACHE_DIR, then $XDG_CACHE_HOME/aieth, then $HOME/.cache/aieth */
	setenv("AIETH_CACHE_DIR", at("env"), 1);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, NULL, 0), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(c.dir, at("env"));
	aieth__pdi_cache_close(&c);
	unsetenv("AIETH_CACHE_DIR");
	setenv("XDG_CACHE_HOME", at("xdg"), 1);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, NULL, 0), AIETH_OK);
	snprintf(want, sizeof want, "%s/xdg/aieth", dir);
	CU_ASSERT_STRING_EQUAL(c.dir, want);
	aieth__pdi_cache_close(&c);
	setenv("XDG_CACHE_HOME", "relative", 1); /* XDG: ignored */
	setenv("HOME", at("home"), 1);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, NULL, 0), AIETH_OK);
	snprintf(want, sizeof want, "%s/home/.cache/aieth", dir);
	CU_ASSERT_STRING_EQUAL(c.dir, want);
	CU_ASSERT_EQUAL(stat(at("home/.cache"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	aieth__pdi_cache_close(&c);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	CU_ASSERT_EQUAL(aieth__pdi_cache_open(&c, NULL, 0), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "--cache-dir"));
	/* an existing public folder is made private; a file is refused */
	CU_ASSERT_EQUAL(mkdir(at("pub"), 0755), 0);
	CU_ASSERT_EQUAL(chmod(at("pub"), 0755), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("pub"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(stat(at("pub"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	aieth__pdi_cache_close(&c);
	put_file(at("file"), "x", 1);
	CU_ASSERT_NOT_EQUAL(aieth__pdi_cache_open(&c, at("file"), 0), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "file"));
	CU_ASSERT_PTR_NULL(c.dir);
}

/* Direct mode: the archive's state, board, bootgen and IDCODEs make the
 * key; a fresh archive is not yet settled; memos round-trip and go with
 * their entry. */
static void test_direct_memo(void)
{
	aieth_pdi_cache c;
	uint8_t d0[32], d[32], key[32], got[32];
	struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
	int settled = -1, found = -1, stored;
	fresh_dir();
	put_file(at("tool"), "#!/bin/sh\n", 10);
	CU_ASSERT_EQUAL(chmod(at("tool"), 0755), 0);
	put_file(at("g.a"), "!<arch>\n", 8);
	CU_ASSERT_EQUAL_FATAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 1, 1, d0, &settled),
		AIETH_OK);
	CU_ASSERT_EQUAL(settled, 0); /* written just now */
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 1, 1, d, &settled), 0);
	CU_ASSERT_EQUAL(memcmp(d0, d, 32), 0);
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vek280", at("tool"), 1, 1, d, &settled), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(d0, d, 32), 0);
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 2, 1, d, &settled), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(d0, d, 32), 0);
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 1, 2, d, &settled), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(d0, d, 32), 0);
	/* the archive touched (even back to an old time: its change time moves) */
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, at("g.a"), old, 0), 0);
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 1, 1, d, &settled), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(d0, d, 32), 0);
	CU_ASSERT_EQUAL(settled, 0); /* its change time is now */
	memcpy(d0, d, 32);
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, at("tool"), old, 0), 0);
	CU_ASSERT_EQUAL(
		aieth__pdi_cache_direct_key(at("g.a"), "vck190", at("tool"), 1, 1, d, &settled), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(d0, d, 32), 0);
	/* a directory is not an archive: no direct mode */
	CU_ASSERT_EQUAL(aieth__pdi_cache_direct_key(dir, "vck190", at("tool"), 1, 1, d, &settled),
			AIETH_ENOTFOUND);
	/* memos */
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_OK);
	memset(key, 0x42, 32);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_put(&c, d, key), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 1);
	CU_ASSERT_EQUAL(memcmp(got, key, 32), 0);
	/* its entry there: the memo stays; its entry gone: the memo goes */
	payload[0][0] = 1;
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_evict(&c, 1u << 30), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 1);
	CU_ASSERT_EQUAL(aieth__pdi_cache_evict(&c, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	aieth__pdi_cache_close(&c);
}

/* The cache on another file system than the scratch files (/dev/shm, a
 * tmpfs, when it is one): entries are copied in and out, and checked the
 * same way. */
static void test_other_file_system(void)
{
	aieth_pdi_cache c;
	uint8_t key[32];
	char shm[] = "/dev/shm/aieth-pdicache-XXXXXX", entry[300], cmd[100], hex[65];
	struct stat a, b;
	struct dirent *de;
	DIR *d;
	int hit, stored, fd, i;
	fresh_dir();
	if (!mkdtemp(shm) || stat(shm, &a) || stat(dir, &b) || a.st_dev == b.st_dev) {
		fprintf(stderr, "\n  (no second file system at /dev/shm: the copy path is "
				"not tested)\n");
		return;
	}
	memset(key, 0x77, 32);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, shm, 0), AIETH_OK);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	CU_ASSERT_EQUAL(stored, 1);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("o.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT(same_file(at("o.pdi"), payload[0], 4000));
	CU_ASSERT_EQUAL(stat(at("o.pdi"), &a), 0);
	CU_ASSERT_EQUAL(a.st_nlink, 1); /* a copy */
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	entry[0] = '\0';
	if ((d = opendir(shm))) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, hex, 64))
				snprintf(entry, sizeof entry, "%s/%.200s", shm, de->d_name);
		closedir(d);
	}
	fd = open(entry, O_WRONLY);
	CU_ASSERT(fd >= 0);
	CU_ASSERT_EQUAL(pwrite(fd, "\x01", 1, 3999), 1);
	close(fd);
	CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("o2.pdi"), &hit), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(at("o2.pdi"), F_OK), -1); /* the partial copy removed */
	CU_ASSERT_EQUAL(access(entry, F_OK), -1);
	aieth__pdi_cache_close(&c);
	snprintf(cmd, sizeof cmd, "rm -rf %s", shm);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* A stamp is trusted only with the folder's MAC (docs/packaging.md,
 * "Stamps"): one made from the facts anyone can read, without the key, or
 * one not ours, is not; an entry not ours is never used. */
static void test_stamp_mac(void)
{
	aieth_pdi_cache c;
	aieth_pdi_cache_check ck;
	uint8_t key[32];
	char entry[300], stamp[300], *text = NULL, *mac, was;
	size_t len;
	struct stat st;
	int hit = -1, stored = -1, i;
	fresh_dir();
	for (i = 0; i < 4000; i++)
		payload[0][i] = (uint8_t)(i * 13 + 1);
	memset(key, 0x55, sizeof key);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(c.have_mac, 1);
	CU_ASSERT_EQUAL(stat(at("m/.stamp-key"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
	entry_name(entry, sizeof entry, "m", key);
	CU_ASSERT_FATAL(entry[0] != '\0');
	CU_ASSERT_EQUAL(stat(entry, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	snprintf(stamp, sizeof stamp, "%.*s.ok", (int)(strlen(entry) - 4), entry);
	/* checked 3 s after its last change: stamped, and trusted */
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h1.pdi"), &hit, &ck), AIETH_OK);
	ck.taken += 3000000000LL;
	aieth__pdi_cache_checked(&c, key, &ck);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h2.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(ck.trusted, 1);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL_FATAL(aieth__read_file(stamp, 1000, &text, &len), AIETH_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mac = strstr(text, "\nmac "));
	CU_ASSERT_EQUAL(strlen(mac), 5 + 64 + 1);
	was = mac[6];
	/* the facts without the MAC, then with a wrong one: not trusted */
	put_file(stamp, text, (size_t)(mac + 1 - text));
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h3.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	CU_ASSERT_EQUAL(ck.pending, 1);
	aieth__pdi_cache_release(&ck);
	mac[6] = was == '0' ? '1' : '0';
	put_file(stamp, text, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h4.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	aieth__pdi_cache_release(&ck);
	mac[6] = was;
	put_file(stamp, text, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h5.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(ck.trusted, 1); /* the right one again */
	aieth__pdi_cache_release(&ck);
	/* a stamp writable by others: not trusted */
	CU_ASSERT_EQUAL(chmod(stamp, 0666), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h6.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	aieth__pdi_cache_release(&ck);
	CU_ASSERT_EQUAL(chmod(stamp, 0600), 0);
	/* another folder's key makes other MACs: the stamp is not trusted
	 * with a new key (the key file removed, a new one made) */
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(unlink(at("m/.stamp-key")), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h7.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 1);
	CU_ASSERT_EQUAL(ck.trusted, 0);
	aieth__pdi_cache_release(&ck);
	/* a key file others may read: no key, no stamp trusted */
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(chmod(at("m/.stamp-key"), 0644), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(c.have_mac, 0);
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(chmod(at("m/.stamp-key"), 0600), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_OK);
	/* an entry others may write: never used, removed */
	CU_ASSERT_EQUAL(chmod(entry, 0606), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_take(&c, key, at("h8.pdi"), &hit, &ck), AIETH_OK);
	CU_ASSERT_EQUAL(hit, 0);
	CU_ASSERT_EQUAL(access(entry, F_OK), -1);
	aieth__pdi_cache_release(&ck);
	/* as root: an entry of another uid, its bytes sound: never used */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(store(&c, key, &stored), AIETH_OK);
		CU_ASSERT_EQUAL(chown(entry, 65534, 65534), 0);
		CU_ASSERT_EQUAL(aieth__pdi_cache_get(&c, key, at("h9.pdi"), &hit), AIETH_OK);
		CU_ASSERT_EQUAL(hit, 0);
		CU_ASSERT_EQUAL(access(entry, F_OK), -1);
	}
	/* the folder group-writable, or reached through a folder others may
	 * write: refused, the component named */
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(chmod(at("m"), 0770), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_open(&c, at("m"), 0), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "PDI cache folder"));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "mode 0770"));
	CU_ASSERT_EQUAL(chmod(at("m"), 0700), 0);
	CU_ASSERT_EQUAL(mkdir(at("w"), 0777), 0);
	CU_ASSERT_EQUAL(chmod(at("w"), 0777), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_open(&c, at("w/cache"), 0), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), at("w")));
	CU_ASSERT_EQUAL(access(at("w/cache"), F_OK), -1);
	free(text);
}

/* The memo file of dkey in the folder sub. */
static const char *memo_path(const char *sub, const uint8_t dkey[32])
{
	static char b[2][300];
	static int slot;
	char *p = b[slot++ % 2];
	int i, n = snprintf(p, 300, "%s/%s/", dir, sub);
	for (i = 0; i < 32; i++)
		n += snprintf(p + n, 300 - (size_t)n, "%02x", dkey[i]);
	snprintf(p + n, 300 - (size_t)n, ".key");
	return p;
}

/* A memo is used only with the folder's MAC over its own name (dkey) and
 * the key it holds (docs/packaging.md, "Direct mode"): one without a mac
 * (an older aieth's, or planted), with a wrong one, edited to point at
 * another key, copied under another dkey's name, or made with another key
 * is a miss; the next put writes it anew. */
static void test_memo_mac(void)
{
	aieth_pdi_cache c;
	uint8_t d1[32], d2[32], key[32], other[32], got[32];
	char *text = NULL, *copy, h[3];
	size_t len;
	int found = -1, i;
	fresh_dir();
	memset(d1, 0x31, 32);
	memset(d2, 0x32, 32);
	memset(key, 0x42, 32);
	memset(other, 0x43, 32);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("mm"), 0), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(c.have_mac, 1);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_put(&c, d1, key), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(found, 1);
	CU_ASSERT_EQUAL(memcmp(got, key, 32), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__read_file(memo_path("mm", d1), 1000, &text, &len), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(len, 65 + 69);
	CU_ASSERT_EQUAL(memcmp(text + 64, "\nmac ", 5), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy = malloc(len));
	/* no mac: the key's line alone (the format before) */
	put_file(memo_path("mm", d1), text, 65);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	/* a wrong mac */
	memcpy(copy, text, len);
	copy[69] = text[69] == '0' ? '1' : '0';
	put_file(memo_path("mm", d1), copy, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	/* the key edited to another entry's, the mac kept */
	memcpy(copy, text, len);
	for (i = 0; i < 32; i++) {
		snprintf(h, sizeof h, "%02x", other[i]);
		memcpy(copy + 2 * i, h, 2);
	}
	put_file(memo_path("mm", d1), copy, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	/* the right one again: used */
	put_file(memo_path("mm", d1), text, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 1);
	/* copied under another archive's name: that archive's lookup misses
	 * (it would take d1's entry); d1's own still holds */
	put_file(memo_path("mm", d2), text, len);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d2, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 1);
	/* a miss is rewritten by the normal path: then it verifies */
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_put(&c, d2, other), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d2, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 1);
	CU_ASSERT_EQUAL(memcmp(got, other, 32), 0);
	/* a new folder key (the key file removed): no memo of the old verifies */
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(unlink(at("mm/.stamp-key")), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("mm"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d1, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	/* no key at all (one others may read): no memo used, none written */
	aieth__pdi_cache_close(&c);
	CU_ASSERT_EQUAL(chmod(at("mm/.stamp-key"), 0644), 0);
	CU_ASSERT_EQUAL_FATAL(aieth__pdi_cache_open(&c, at("mm"), 0), AIETH_OK);
	CU_ASSERT_EQUAL(c.have_mac, 0);
	CU_ASSERT_EQUAL(unlink(memo_path("mm", d1)), 0);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_put(&c, d1, key), AIETH_OK);
	CU_ASSERT_EQUAL(access(memo_path("mm", d1), F_OK), -1);
	CU_ASSERT_EQUAL(aieth__pdi_cache_memo_get(&c, d2, got, &found), AIETH_OK);
	CU_ASSERT_EQUAL(found, 0);
	aieth__pdi_cache_close(&c);
	free(copy);
	free(text);
}

static void test_cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

TU_MAIN("pdi_cache", {"key: what bootgen reads, nothing else", test_key},
	{"hit, miss, damaged entries", test_hit_miss_damage},
	{"least recently used eviction under the bound", test_lru_bound},
	{"stamps: a hit checked once, trusted while unchanged", test_stamps},
	{"the folder: choice and privacy", test_folder},
	{"direct mode: archive state, memos", test_direct_memo},
	{"another file system: copies, checked", test_other_file_system},
	{"stamps need the folder's MAC; entries and folders not ours", test_stamp_mac},
	{"memos need the folder's MAC over their own name", test_memo_mac},
	{"cleanup", test_cleanup})
