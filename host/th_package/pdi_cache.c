/* SPDX-License-Identifier: MIT */
/*
 * pdi_cache.c - the PDI cache (pdi_cache.h; docs/packaging.md).
 *
 * One file per entry, "<64 hex digits of the key>.pdi": an 80-byte header
 * (magic, format, payload size, the payload's 128-bit content hash, the
 * key) and the PDI. The recency of an entry is its modification time (a
 * hit touches it). Writers make ".tmp.*" files and rename them: renames
 * are atomic, and a reader or an evictor holding an open descriptor keeps
 * reading the old inode after an unlink, so concurrent processes never
 * see a partial entry or lose one they are reading.
 *
 * Beside an entry its stamp, "<same name>.ok": this boot's id and the
 * entry's device, inode, size, modification and change times when its
 * bytes were last found to hash to its name (and the xclbin made of them
 * passed its check, the CDO command walk included), and an HMAC-SHA256 of that
 * text with the folder's secret (".stamp-key", 32 random bytes, 0600): a
 * stamp only we can make. A hit whose entry still matches its stamp is
 * not hashed again: any write to a file changes its change time, which no
 * program can set back (docs/packaging.md, "Entries"). A hit reads the
 * entry through an open descriptor (/proc/self/fd/N), so taking it
 * changes nothing of its inode; its use is recorded on the stamp.
 *
 * A memo, "<64 hex digits of a direct key>.key", maps an archive's state
 * to an entry's key, with an HMAC-SHA256 (the same secret) over the tag,
 * its own direct key and the key it holds: one that does not verify is a
 * miss, so no one can point an archive at another archive's entry.
 *
 * The folder is opened once (util/trusted_dir.h: every component from /
 * down is root's or ours and written by no one else) and every file in it
 * is reached relative to that descriptor (openat, fstatat, linkat,
 * renameat, unlinkat), so no one can swap the folder between a check and
 * a use; each file opened from it is checked on its descriptor too
 * (aieth__fd_trusted).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/pdi_cache.h"
#include "util/copy.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/path.h"
#include "util/trusted_dir.h"

#define PC_KEY_TAG "aieth pdi cache key 1\n"
#define PC_DIRECT_TAG "aieth pdi cache direct 1\n"
#define PC_NAME_MAX 128
#define PC_SETTLE_S 2
#define PC_MAX_BIF (1u << 20)
#define PC_TMP_MAX_AGE 3600
#define PC_MAX_ENTRIES 1000000u
/* 3: a stamp is made only once the xclbin holding the entry's bytes passed
 * its check, CDO command walk included (a hit it vouches for is not
 * walked again); one of 2 vouched for the hash alone */
#define PC_STAMP_TAG "aieth pdi cache stamp 3\n"
#define PC_KEY_FILE ".stamp-key"
#define PC_BOOT_ID "/proc/sys/kernel/random/boot_id"

/* "<64 hex key>-<32 hex hash128>-<decimal size>.pdi": 1 when name has that
 * form; its hash and size (may be NULL) then. */
static int pc_entry_name(const char *name, uint8_t hash[16], uint64_t *size)
{
	const char *p = name + 98;
	char *end;
	unsigned long long v;
	int i;
	if (strlen(name) < 104 || strlen(name) >= PC_NAME_MAX ||
	    strspn(name, "0123456789abcdef") != 64 || name[64] != '-' ||
	    strspn(name + 65, "0123456789abcdef") != 32 || name[97] != '-' || *p < '0' || *p > '9')
		return 0;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno || strcmp(end, ".pdi"))
		return 0;
	for (i = 0; hash && i < 16; i++) {
		unsigned x;
		sscanf(name + 65 + 2 * i, "%2x", &x);
		hash[i] = (uint8_t)x;
	}
	if (size)
		*size = v;
	return 1;
}

/* The folder, made when missing (each new level 0700: XDG's cache base
 * directory is), opened once and checked (util/trusted_dir.h), made
 * private (0700); its stamp key. */
static int open_dir(aieth_pdi_cache *c)
{
	char what[64];
	struct stat st;
	int rc = aieth__dir_open_trusted(c->dir, 1, "PDI cache folder", &c->dfd);
	if (rc)
		return rc;
	if (fstat(c->dfd, &st) != 0 || ((st.st_mode & 077) && fchmod(c->dfd, 0700) != 0))
		return aieth__fail(AIETH_EIO,
				   "PDI cache folder %s: cannot make it private (0700): "
				   "%s",
				   c->dir, strerror(errno));
	/* no key (a key file not ours, say): no stamp is trusted, every hit
	 * is hashed */
	snprintf(what, sizeof what, "PDI cache %s", PC_KEY_FILE);
	c->have_mac = aieth__dir_key(c->dfd, PC_KEY_FILE, what, c->mac) == AIETH_OK;
	aieth__error_clear();
	return AIETH_OK;
}

int aieth__pdi_cache_open(aieth_pdi_cache *c, const char *dir, uint64_t max_bytes)
{
	const char *env;
	int rc;
	memset(c, 0, sizeof c[0]);
	c->dfd = -1;
	c->max_bytes = max_bytes ? max_bytes : AIETH_PDI_CACHE_MAX_DEFAULT;
	if (dir && *dir)
		c->dir = aieth__strdup(dir);
	else if ((env = getenv("AIETH_CACHE_DIR")) && *env)
		c->dir = aieth__strdup(env);
	else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') /* XDG: relative is ignored */
		c->dir = aieth__path_join(env, "aieth");
	else if ((env = getenv("HOME")) && env[0] == '/')
		c->dir = aieth__path_join(env, ".cache/aieth");
	else
		return aieth__fail(AIETH_EINVAL,
				   "PDI cache: no folder (neither $XDG_CACHE_HOME nor "
				   "$HOME is an absolute path): give --cache-dir, or --no-cache");
	if (!c->dir)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (!c->dir[0] || (rc = open_dir(c))) {
		rc = c->dir[0] ? rc : aieth__fail(AIETH_EINVAL, "PDI cache folder: empty name");
		aieth__pdi_cache_close(c);
		return rc;
	}
	return AIETH_OK;
}

void aieth__pdi_cache_close(aieth_pdi_cache *c)
{
	if (c->dfd >= 0)
		close(c->dfd);
	c->dfd = -1;
	free(c->dir);
	c->dir = NULL;
	memset(c->mac, 0, sizeof c->mac);
	c->have_mac = 0;
}

/* ------------------------------------------------------------------ key */

/* The program posix_spawnp would run: tool itself when it has a '/', else
 * the first executable of that name in $PATH. */
static char *resolve_tool(const char *tool)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];
	if (strchr(tool, '/'))
		return realpath(tool, NULL);
	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if ((size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)(e - p), e > p ? p : ".",
				     tool) < sizeof buf &&
		    access(buf, X_OK) == 0)
			return realpath(buf, NULL);
	}
	return NULL;
}

static void feed_str(aieth_sha256 *s, const char *t)
{
	aieth__sha256_update(s, t, strlen(t) + 1); /* the NUL separates fields */
}

/* The BIF with each "file=PATH" value left out: the CDOs' bytes follow. */
static int feed_bif(aieth_sha256 *s, const char *bif_path)
{
	char *text = NULL, *line, *next;
	size_t len;
	int rc = aieth__read_file(bif_path, PC_MAX_BIF, &text, &len);
	if (rc)
		return rc;
	for (line = text; line && *line; line = next) {
		const char *v = line + strspn(line, " \t");
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		feed_str(s, strncmp(v, "file=", 5) ? line : "file=<CDO>");
	}
	free(text);
	return AIETH_OK;
}

static int feed_file(aieth_sha256 *s, const char *path, size_t k, uint8_t *buf)
{
	struct stat st;
	char head[64];
	ssize_t got;
	uint64_t total = 0;
	int fd, rc = aieth__open_input(path, &fd, &st);
	if (rc)
		return rc;
	snprintf(head, sizeof head, "cdo %zu %llu", k, (unsigned long long)st.st_size);
	feed_str(s, head);
	while ((got = read(fd, buf, AIETH_IO_CHUNK)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = aieth__fail(AIETH_EIO, "%s: read error: %s", path, strerror(errno));
			break;
		}
		aieth__sha256_update(s, buf, (size_t)got);
		total += (uint64_t)got;
	}
	close(fd);
	if (!rc && total != (uint64_t)st.st_size)
		rc = aieth__fail(AIETH_EIO, "%s: changed while read (%llu bytes, expected %llu)",
				 path, (unsigned long long)total, (unsigned long long)st.st_size);
	return rc;
}

/* bootgen's identity: its resolved path, size, modification time, inode. */
static int tool_identity(const char *tool, char *out, size_t cap)
{
	struct stat st;
	char *exe = resolve_tool(tool);
	if (!exe || stat(exe, &st) != 0) {
		free(exe);
		return aieth__fail(AIETH_ENOTFOUND, "PDI cache: cannot find %s to identify it",
				   tool);
	}
	snprintf(out, cap, "bootgen %s size %llu mtime %lld.%09ld ino %llu", exe,
		 (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
	free(exe);
	return AIETH_OK;
}

int aieth__pdi_cache_key(const char *tool, const char *const *argv, const char *bif_path,
			 const char *output, const char *const *cdos, size_t num_cdos,
			 uint8_t key[32])
{
	aieth_sha256 s;
	char id[4200];
	uint8_t *buf;
	size_t i;
	int rc;
	if ((rc = tool_identity(tool, id, sizeof id)))
		return rc;
	aieth__sha256_init(&s);
	feed_str(&s, PC_KEY_TAG);
	feed_str(&s, id);
	for (i = 1; argv[i]; i++)
		feed_str(&s, !strcmp(argv[i], bif_path) ? "<BIF>"
			     : !strcmp(argv[i], output) ? "<OUT>"
							: argv[i]);
	feed_str(&s, "<END ARGS>");
	if ((rc = feed_bif(&s, bif_path)))
		return rc;
	if (!(buf = malloc(AIETH_IO_CHUNK)))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	for (i = 0; i < num_cdos && !rc; i++)
		rc = feed_file(&s, cdos[i], i, buf);
	free(buf);
	if (!rc)
		aieth__sha256_final(&s, key);
	return rc;
}

int aieth__pdi_cache_direct_key(const char *graph, const char *board, const char *tool,
				uint32_t id_code, uint32_t ext_id_code, uint8_t dkey[32],
				int *settled)
{
	aieth_sha256 s;
	struct stat st;
	char id[4200], line[600], *real;
	time_t now = time(NULL);
	int rc;
	*settled = 0;
	if (stat(graph, &st) != 0 || !S_ISREG(st.st_mode) || !(real = realpath(graph, NULL)))
		return aieth__fail(AIETH_ENOTFOUND, "PDI cache: %s is not an archive", graph);
	if ((rc = tool_identity(tool, id, sizeof id))) {
		free(real);
		return rc;
	}
	aieth__sha256_init(&s);
	feed_str(&s, PC_DIRECT_TAG);
	snprintf(line, sizeof line, "aieth %d.%d.%d board %s idcode 0x%08x/0x%02x",
		 AIETH_VERSION_MAJOR, AIETH_VERSION_MINOR, AIETH_VERSION_PATCH, board,
		 (unsigned)id_code, (unsigned)ext_id_code);
	feed_str(&s, line);
	feed_str(&s, id);
	feed_str(&s, real);
	free(real);
	snprintf(line, sizeof line, "dev %llu ino %llu size %llu mtime %lld.%09ld ctime %lld.%09ld",
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		 (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 (long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec);
	feed_str(&s, line);
	aieth__sha256_final(&s, dkey);
	/* a file changed within the last seconds may change again within the
	 * same time stamp: not remembered until it has settled */
	*settled = now - st.st_mtim.tv_sec >= PC_SETTLE_S && now - st.st_ctim.tv_sec >= PC_SETTLE_S;
	return AIETH_OK;
}

/* -------------------------------------------------------------- entries */

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;
	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The name of a sound entry for key in the folder ("" when none): the
 * first "<key>-" name with a well-formed rest. */
/* A listing of the folder: a new open of the folder's descriptor itself
 * ("." of it), never of its path. */
static DIR *open_list(const aieth_pdi_cache *c)
{
	int fd = openat(c->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Open the file name of the folder to read it (O_NOFOLLOW), -1 when it is
 * missing or not one we trust (ours, a regular file, written by no one
 * else): a file someone else put there is never read. */
static int open_trusted(const aieth_pdi_cache *c, const char *name)
{
	int fd = openat(c->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && aieth__fd_trusted(fd, name)) {
		close(fd);
		aieth__error_clear();
		return -1;
	}
	return fd;
}

/* Write data as the file name of the folder: a temporary file made there
 * (O_EXCL, 0600) and renamed over name, both relative to the folder. Not
 * flushed: what the callers write is worth one more check at most. */
static int write_at(const aieth_pdi_cache *c, const char *name, const void *data, size_t len)
{
	static unsigned seq;
	char tmp[PC_NAME_MAX];
	ssize_t n;
	int fd;
	snprintf(tmp, sizeof tmp, ".tmp.%ld.%u.%ld", (long)getpid(), seq++, (long)time(NULL));
	fd = openat(c->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return aieth__fail(AIETH_EIO, "%s/%s: cannot create: %s", c->dir, tmp,
				   strerror(errno));
	n = write(fd, data, len);
	if (close(fd) != 0 || n < 0 || (size_t)n != len) {
		unlinkat(c->dfd, tmp, 0);
		return aieth__fail(AIETH_EIO, "%s/%s: write error", c->dir, tmp);
	}
	if (renameat(c->dfd, tmp, c->dfd, name) != 0) {
		int e = errno;
		unlinkat(c->dfd, tmp, 0);
		return aieth__fail(AIETH_EIO, "%s/%s: cannot rename to %s: %s", c->dir, tmp, name,
				   strerror(e));
	}
	return AIETH_OK;
}

static int find_entry(const aieth_pdi_cache *c, const uint8_t key[32], char name[PC_NAME_MAX])
{
	DIR *d = open_list(c);
	struct dirent *de;
	char k[65];
	name[0] = '\0';
	if (!d)
		return aieth__fail(AIETH_EIO, "%s: cannot list: %s", c->dir, strerror(errno));
	hex(key, 32, k);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, k, 64) && pc_entry_name(de->d_name, NULL, NULL)) {
			memcpy(name, de->d_name, strlen(de->d_name) + 1); /* < PC_NAME_MAX */
			break;
		}
	closedir(d);
	return AIETH_OK;
}

/* The hash128 of fd's first n bytes (a short file: -1). Mapped in windows,
 * not read: no copy out of the page cache, and little resident at once. */
#define PC_WINDOW (8u << 20)
static int hash_fd(int fd, uint64_t n, uint8_t out[16])
{
	aieth_hash128 h;
	struct stat st;
	uint64_t off;
	void *m;
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < n)
		return -1;
	aieth__hash128_init(&h);
	for (off = 0; off < n; off += PC_WINDOW) {
		size_t len = n - off < PC_WINDOW ? (size_t)(n - off) : PC_WINDOW;
		m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, (off_t)off);
		if (m == MAP_FAILED)
			return -1;
		aieth__hash128_update(&h, m, len);
		munmap(m, len);
	}
	aieth__hash128_final(&h, out);
	return 0;
}

/* Remove a damaged entry, unless another process renamed a new one in. */
static void drop_entry(const aieth_pdi_cache *c, const char *name, const struct stat *was)
{
	struct stat now;
	if (fstatat(c->dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == was->st_dev &&
	    now.st_ino == was->st_ino)
		unlinkat(c->dfd, name, 0);
}

int aieth__pdi_cache_get(const aieth_pdi_cache *c, const uint8_t key[32], const char *out, int *hit)
{
	return aieth__pdi_cache_take(c, key, out, hit, NULL);
}

/* The name of the entry for key with this hash and size (ext ".pdi"), or
 * of its stamp (".ok"), in the folder. */
static void entry_file(const uint8_t key[32], const uint8_t hash[16], uint64_t size,
		       const char *ext, char name[PC_NAME_MAX])
{
	char k[65], hh[33];
	hex(key, 32, k);
	hex(hash, 16, hh);
	snprintf(name, PC_NAME_MAX, "%s-%s-%llu%s", k, hh, (unsigned long long)size, ext);
}

void aieth__pdi_cache_drop(const aieth_pdi_cache *c, const uint8_t key[32],
			   const aieth_pdi_cache_check *check)
{
	char name[PC_NAME_MAX];
	entry_file(key, check->hash, check->size, ".pdi", name);
	unlinkat(c->dfd, name, 0);
	entry_file(key, check->hash, check->size, ".ok", name);
	unlinkat(c->dfd, name, 0);
}

void aieth__pdi_cache_release(aieth_pdi_cache_check *check)
{
	if (check->held)
		close(check->fd);
	check->held = 0;
	check->fd = -1;
}

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The stamp's text for the entry in the state check recorded, in this
 * boot (the kernel's random boot id: a stamp of another boot, before a
 * crash that may have lost bytes the page cache held, is not trusted).
 * -1: no boot id, no stamps. */
static int stamp_text(const aieth_pdi_cache *c, const aieth_pdi_cache_check *ck, char *out,
		      size_t cap)
{
	char boot[64], hh[33], mh[65];
	uint8_t mac[32];
	aieth_hmac_sha256 h;
	size_t len;
	ssize_t n;
	int fd;
	if (!c->have_mac) /* no key: no stamp is made or trusted */
		return -1;
	fd = open(PC_BOOT_ID, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, boot, sizeof boot - 1);
	close(fd);
	if (n < 36)
		return -1;
	boot[n] = '\0';
	if (strspn(boot, "0123456789abcdef-") != 36)
		return -1;
	boot[36] = '\0';
	hex(ck->hash, 16, hh);
	snprintf(out, cap,
		 PC_STAMP_TAG
		 "boot %s\nhash %s size %llu\ndev %llu ino %llu mtime %lld ctime %lld\n",
		 boot, hh, (unsigned long long)ck->size, (unsigned long long)ck->dev,
		 (unsigned long long)ck->ino, (long long)ck->mtime, (long long)ck->ctime);
	/* the facts above anyone on the machine can read (boot id, stat):
	 * the MAC with our secret is what a forger cannot make */
	len = strlen(out);
	aieth__hmac_sha256_init(&h, c->mac, sizeof c->mac);
	aieth__hmac_sha256_update(&h, out, len);
	aieth__hmac_sha256_final(&h, mac);
	hex(mac, 32, mh);
	snprintf(out + len, cap - len, "mac %s\n", mh);
	return 0;
}

/* 1 when the entry's stamp matches the state check recorded (a use of
 * the entry: the stamp is touched). */
static int stamp_matches(const aieth_pdi_cache *c, const uint8_t key[32],
			 const aieth_pdi_cache_check *ck)
{
	char want[480], got[480], name[PC_NAME_MAX];
	ssize_t n = -1;
	int fd, ok = 0;
	if (stamp_text(c, ck, want, sizeof want))
		return 0;
	entry_file(key, ck->hash, ck->size, ".ok", name);
	if ((fd = open_trusted(c, name)) < 0)
		return 0;
	n = read(fd, got, sizeof got - 1);
	if (n > 0) {
		got[n] = '\0';
		ok = (size_t)n == strlen(want) && aieth__bytes_equal(got, want, (size_t)n);
	}
	if (ok)
		futimens(fd, NULL); /* recently used */
	close(fd);
	return ok;
}

/* A use of an entry its stamp does not vouch for: the stamp's time, the
 * stamp made (empty: it matches nothing) when there is none; the entry
 * itself is not touched. */
static void stamp_touch(const aieth_pdi_cache *c, const uint8_t key[32],
			const aieth_pdi_cache_check *ck)
{
	char name[PC_NAME_MAX];
	int fd;
	entry_file(key, ck->hash, ck->size, ".ok", name);
	fd = openat(c->dfd, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (!aieth__fd_trusted(fd, name))
			futimens(fd, NULL);
		close(fd);
	}
	aieth__error_clear();
}

int aieth__pdi_cache_unchanged(const aieth_pdi_cache_check *check)
{
	struct stat st;
	return check->held && fstat(check->fd, &st) == 0 && (uint64_t)st.st_dev == check->dev &&
	       (uint64_t)st.st_ino == check->ino && (uint64_t)st.st_size == check->size &&
	       ns_of(&st.st_mtim) == check->mtime && ns_of(&st.st_ctim) == check->ctime;
}

void aieth__pdi_cache_checked(const aieth_pdi_cache *c, const uint8_t key[32],
			      const aieth_pdi_cache_check *check)
{
	char text[480], name[PC_NAME_MAX];
	/* as taken, and unchanged for 2 s before: a change at or after the
	 * take would have moved the change time past the recorded one */
	if (!aieth__pdi_cache_unchanged(check) ||
	    check->taken - check->ctime < (int64_t)PC_SETTLE_S * 1000000000 ||
	    check->taken - check->mtime < (int64_t)PC_SETTLE_S * 1000000000 ||
	    stamp_text(c, check, text, sizeof text))
		return;
	/* not flushed: a stamp a crash loses means one more check; one that
	 * outlives its entry's bytes names another boot */
	entry_file(key, check->hash, check->size, ".ok", name);
	write_at(c, name, text, strlen(text));
	aieth__error_clear();
}

/* Read the entry through fd: out a symbolic link to /proc/self/fd/N, which
 * opens the entry's inode even after an evictor unlinked its name, and
 * changes nothing of it (a hard link would change its change time).
 * 0: done; -1: no /proc here (out removed). */
static int hold(int fd, const struct stat *st, const char *out)
{
	char via[48];
	struct stat os;
	snprintf(via, sizeof via, "/proc/self/fd/%d", fd);
	unlink(out);
	if (symlink(via, out) == 0 && stat(out, &os) == 0 && os.st_dev == st->st_dev &&
	    os.st_ino == st->st_ino)
		return 0;
	unlink(out);
	return -1;
}

int aieth__pdi_cache_take(const aieth_pdi_cache *c, const uint8_t key[32], const char *out,
			  int *hit, aieth_pdi_cache_check *check)
{
	char name[PC_NAME_MAX], *path = NULL;
	uint8_t want[16], sum[16];
	aieth_hash128 hs;
	aieth_out o = {-1, NULL, NULL, 0, 0};
	struct stat st, lst;
	uint64_t size;
	int fd = -1, lfd = -1, rc;
	struct timespec now;
	*hit = 0;
	memset(&st, 0, sizeof st);
	if (check) {
		memset(check, 0, sizeof *check);
		check->fd = -1;
	}
	if ((rc = find_entry(c, key, name)) || !name[0])
		return rc; /* a miss */
	pc_entry_name(name, want, &size);
	if (!(path = aieth__path_join(c->dir, name)))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	clock_gettime(CLOCK_REALTIME, &now); /* before the state is read */
	fd = openat(c->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto miss; /* evicted meanwhile, or not a file */
	/* not ours, or others may write it: never packaged (removed) */
	if (fstat(fd, &st) != 0 || aieth__fd_trusted(fd, path) || (uint64_t)st.st_size != size)
		goto damaged;
	if (check && !hold(fd, &st, out)) {
		check->held = 1;
		check->fd = fd;
		fd = -1;
		memcpy(check->hash, want, 16);
		check->size = size;
		check->dev = (uint64_t)st.st_dev;
		check->ino = (uint64_t)st.st_ino;
		check->mtime = ns_of(&st.st_mtim);
		check->ctime = ns_of(&st.st_ctim);
		check->taken = ns_of(&now);
		/* stamped: checked before, unchanged since; else the caller
		 * hashes the bytes as it copies them */
		check->trusted = stamp_matches(c, key, check);
		check->pending = !check->trusted;
		if (!check->trusted)
			stamp_touch(c, key, check);
		*hit = 1;
		goto miss;
	}
	/* the same folder as out: a hard link, no copy; it keeps the bytes
	 * readable whatever an evictor does to the entry's name */
	unlink(out);
	if (linkat(c->dfd, name, AT_FDCWD, out, 0) == 0) {
		lfd = open(out, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (lfd < 0 || fstat(lfd, &lst) != 0 || lst.st_ino != st.st_ino ||
		    lst.st_dev != st.st_dev ||
		    (!check && (hash_fd(lfd, size, sum) || memcmp(sum, want, 16)))) {
			unlink(out);
			goto damaged;
		}
		close(lfd);
		lfd = -1;
		if (check) /* the caller hashes the bytes as it copies them */
			check->pending = 1;
	} else {
		if ((rc = aieth__out_open(&o, out)))
			goto fail;
		o.no_flush = 1; /* a scratch file: no fsync */
		aieth__hash128_init(&hs);
		if ((rc = aieth__copy_range(fd, 0, size, o.fd, &hs, AIETH_COPY_STABLE, path, out)))
			goto fail;
		aieth__hash128_final(&hs, sum);
		if (memcmp(sum, want, 16))
			goto damaged;
		if ((rc = aieth__out_commit(&o)))
			goto fail;
	}
	futimens(fd, NULL); /* recently used */
	*hit = 1;
	if (check) { /* which entry this is (aieth__pdi_cache_drop) */
		memcpy(check->hash, want, 16);
		check->size = size;
	}
	goto miss;
damaged:
	aieth__out_abort(&o);
	drop_entry(c, name, &st);
miss:
	if (lfd >= 0)
		close(lfd);
	if (fd >= 0)
		close(fd);
	free(path);
	aieth__error_clear();
	return AIETH_OK;
fail:
	aieth__out_abort(&o);
	close(fd);
	free(path);
	return rc;
}

int aieth__pdi_cache_put(const aieth_pdi_cache *c, const uint8_t key[32], const char *pdi,
			 int *stored)
{
	static unsigned seq;
	char name[PC_NAME_MAX], ename[PC_NAME_MAX], *path = NULL, *tmp = NULL;
	uint8_t sum[16];
	struct stat st;
	int in = -1, fd = -1, rc;
	*stored = 0;
	if ((rc = aieth__open_input(pdi, &in, &st)))
		return rc;
	if ((uint64_t)st.st_size > c->max_bytes)
		goto out; /* larger than the whole cache: not kept */
	if (hash_fd(in, (uint64_t)st.st_size, sum)) {
		rc = aieth__fail(AIETH_EIO, "%s: read error", pdi);
		goto out;
	}
	entry_file(key, sum, (uint64_t)st.st_size, ".pdi", ename);
	snprintf(name, sizeof name, ".tmp.%ld.%u.%ld", (long)getpid(), seq++, (long)time(NULL));
	path = aieth__path_join(c->dir, ename);
	tmp = aieth__path_join(c->dir, name);
	if (!path || !tmp) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto out;
	}
	/* the same file system: a hard link of bootgen's file; else a copy
	 * (a reflink where the file system has them). Neither is flushed: an
	 * entry is published by the rename alone, and every hit checks the
	 * bytes against the content hash in the entry's name, so an entry a
	 * crash left short or empty is a miss (removed), never a wrong PDI */
	if (linkat(AT_FDCWD, pdi, c->dfd, name, 0) == 0) {
		/* the entry is bootgen's file: ours; others may not write it
		 * (aieth__fd_trusted refuses such an entry) */
		if ((st.st_mode & 077) && fchmod(in, st.st_mode & 0700) != 0) {
			rc = aieth__fail(AIETH_EIO, "%s: cannot make it private: %s", tmp,
					 strerror(errno));
			goto out;
		}
	} else {
		fd = openat(c->dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd < 0) {
			rc = aieth__fail(AIETH_EIO, "%s: cannot create: %s", tmp, strerror(errno));
			goto out;
		}
		if ((rc = aieth__copy_range(in, 0, (uint64_t)st.st_size, fd, NULL,
					    AIETH_COPY_STABLE, pdi, tmp)))
			goto out;
		if (close(fd) != 0) {
			fd = -1;
			rc = aieth__fail(AIETH_EIO, "%s: write error: %s", tmp, strerror(errno));
			goto out;
		}
		fd = -1;
	}
	if (renameat(c->dfd, name, c->dfd, ename) != 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot rename to %s: %s", tmp, path,
				 strerror(errno));
		goto out;
	}
	*stored = 1;
	rc = aieth__pdi_cache_evict(c, c->max_bytes);
out:
	close(in);
	if (fd >= 0)
		close(fd);
	if (tmp && !*stored)
		unlinkat(c->dfd, name, 0);
	free(tmp);
	free(path);
	return rc;
}

/* ---------------------------------------------------------------- memos */

static void memo_name(const uint8_t dkey[32], char name[80])
{
	hex(dkey, 32, name);
	snprintf(name + 64, 80 - 64, ".key");
}

static int parse_key(const char *t, uint8_t key[32])
{
	int i;
	unsigned x;
	if (strspn(t, "0123456789abcdef") != 64 || (t[64] && t[64] != '\n'))
		return -1;
	for (i = 0; i < 32; i++) {
		if (sscanf(t + 2 * i, "%2x", &x) != 1)
			return -1;
		key[i] = (uint8_t)x;
	}
	return 0;
}

/* A memo's text for dkey -> key: the key's 64 hex digits (first: the
 * evictor reads them), then a "mac" line, the HMAC-SHA256 with the
 * folder's secret of a tag, the memo's own dkey and the key. A memo only
 * we can make, and only for its own name: one planted, edited, or copied
 * to another dkey's name (to point that archive at this entry) does not
 * verify. -1: no key, no memo made or trusted. */
#define PC_MEMO_TAG "aieth pdi cache memo 2\n"
#define PC_MEMO_LEN (65 + 4 + 64 + 1)
static int memo_text(const aieth_pdi_cache *c, const uint8_t dkey[32], const uint8_t key[32],
		     char out[PC_MEMO_LEN + 1])
{
	aieth_hmac_sha256 h;
	uint8_t mac[32];
	char dk[65];
	if (!c->have_mac)
		return -1;
	hex(dkey, 32, dk);
	hex(key, 32, out);
	aieth__hmac_sha256_init(&h, c->mac, sizeof c->mac);
	aieth__hmac_sha256_update(&h, PC_MEMO_TAG, strlen(PC_MEMO_TAG));
	aieth__hmac_sha256_update(&h, "dkey ", 5);
	aieth__hmac_sha256_update(&h, dk, 64);
	aieth__hmac_sha256_update(&h, "\nkey ", 6);
	aieth__hmac_sha256_update(&h, out, 64);
	aieth__hmac_sha256_update(&h, "\n", 1);
	aieth__hmac_sha256_final(&h, mac);
	memcpy(out + 64, "\nmac ", 5);
	hex(mac, 32, out + 69);
	out[133] = '\n';
	out[134] = '\0';
	return 0;
}

int aieth__pdi_cache_memo_get(const aieth_pdi_cache *c, const uint8_t dkey[32], uint8_t key[32],
			      int *found)
{
	char name[80], text[PC_MEMO_LEN + 2], want[PC_MEMO_LEN + 1];
	uint8_t k[32];
	ssize_t n;
	int fd;
	*found = 0;
	memo_name(dkey, name);
	if (!c->have_mac || (fd = open_trusted(c, name)) < 0)
		return AIETH_OK;
	n = read(fd, text, sizeof text - 1);
	close(fd);
	/* one that does not verify (no mac: an older aieth's; a wrong one; one
	 * of another name) is a miss: the full key is computed, the memo
	 * written anew */
	if (n != PC_MEMO_LEN)
		return AIETH_OK;
	text[n] = '\0';
	if (parse_key(text, k) || memo_text(c, dkey, k, want) ||
	    !aieth__bytes_equal(text, want, PC_MEMO_LEN))
		return AIETH_OK;
	memcpy(key, k, 32);
	*found = 1;
	return AIETH_OK;
}

int aieth__pdi_cache_memo_put(const aieth_pdi_cache *c, const uint8_t dkey[32],
			      const uint8_t key[32])
{
	char name[80], text[PC_MEMO_LEN + 1];
	memo_name(dkey, name);
	if (memo_text(c, dkey, key, text))
		return AIETH_OK; /* no key: direct mode is off */
	return write_at(c, name, text, PC_MEMO_LEN);
}

/* ------------------------------------------------------------- eviction */

typedef struct {
	char name[PC_NAME_MAX];
	uint64_t size;
	struct timespec used;
	int gone;
} pc_ent;

static int older_first(const void *a, const void *b)
{
	const pc_ent *x = a, *y = b;
	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int add_ent(pc_ent **v, size_t *n, size_t *cap, const char *name, const struct stat *st)
{
	if (*n == *cap && *cap >= PC_MAX_ENTRIES)
		return aieth__fail(AIETH_EINVAL, "PDI cache: more than %u files", PC_MAX_ENTRIES);
	if (AIETH__GROW(*v, *cap, *n + 1, 64, 0))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	memcpy((*v)[*n].name, name, strlen(name) + 1); /* checked < PC_NAME_MAX */
	(*v)[*n].size = (uint64_t)st->st_size;
	(*v)[*n].used = st->st_mtim;
	(*v)[*n].gone = 0;
	(*n)++;
	return AIETH_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const pc_ent *)a)->name, ((const pc_ent *)b)->name);
}

/* "<entry name less .pdi>.ok": 1 when name is a stamp's; its entry's name
 * into entry. */
static int pc_stamp_name(const char *name, char entry[PC_NAME_MAX])
{
	size_t n = strlen(name);
	if (n < 4 || n + 1 >= PC_NAME_MAX || strcmp(name + n - 3, ".ok"))
		return 0;
	memcpy(entry, name, n - 3);
	memcpy(entry + n - 3, ".pdi", 5);
	return pc_entry_name(entry, NULL, NULL);
}

/* 1 when a remaining entry has key text k (64 hex digits). */
static int has_entry(const pc_ent *v, size_t n, const char *k)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!v[i].gone && !strncmp(v[i].name, k, 64))
			return 1;
	return 0;
}

int aieth__pdi_cache_evict(const aieth_pdi_cache *c, uint64_t max_bytes)
{
	DIR *d = open_list(c);
	struct dirent *de;
	struct stat st;
	pc_ent *v = NULL, *m = NULL, *sv = NULL, *hit;
	size_t n = 0, cap = 0, nm = 0, capm = 0, ns = 0, caps = 0, i;
	uint64_t total = 0;
	int dfd, rc = AIETH_OK;
	time_t now = time(NULL);
	char text[80], ename[PC_NAME_MAX];
	if (!d)
		return aieth__fail(AIETH_EIO, "%s: cannot list: %s", c->dir, strerror(errno));
	dfd = dirfd(d);
	while (!rc && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue; /* gone meanwhile, or not ours */
		if (aieth__dir_temp_sweep_one(dfd, de->d_name, &st, now, PC_TMP_MAX_AGE)) {
			/* a temporary file: removed when its writer died */
		} else if (pc_entry_name(de->d_name, NULL, NULL)) {
			rc = add_ent(&v, &n, &cap, de->d_name, &st);
			total += (uint64_t)st.st_size;
		} else if (len == 68 && strspn(de->d_name, "0123456789abcdef") == 64 &&
			   !strcmp(de->d_name + 64, ".key")) {
			rc = add_ent(&m, &nm, &capm, de->d_name, &st);
		} else if (pc_stamp_name(de->d_name, ename)) {
			rc = add_ent(&sv, &ns, &caps, ename, &st); /* under its entry's name */
		}
	}
	/* an entry's use: the later of its own and its stamp's (a hit touches
	 * the stamp, not the entry, whose inode it leaves as it was) */
	if (ns)
		qsort(sv, ns, sizeof *sv, by_name);
	for (i = 0; !rc && ns && i < n; i++)
		if ((hit = bsearch(&v[i], sv, ns, sizeof *sv, by_name)) &&
		    (hit->used.tv_sec > v[i].used.tv_sec ||
		     (hit->used.tv_sec == v[i].used.tv_sec &&
		      hit->used.tv_nsec > v[i].used.tv_nsec)))
			v[i].used = hit->used;
	if (!rc && total > max_bytes) {
		qsort(v, n, sizeof *v, older_first);
		/* an unlink under a reader's open descriptor or hard link leaves
		 * it reading the same bytes */
		for (i = 0; i < n && total > max_bytes; i++)
			if (unlinkat(dfd, v[i].name, 0) == 0 || errno == ENOENT) {
				total -= v[i].size;
				v[i].gone = 1;
			}
	}
	/* memos whose entry is gone */
	for (i = 0; !rc && i < nm; i++) {
		int f = openat(dfd, m[i].name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		ssize_t got = f >= 0 ? read(f, text, sizeof text - 1) : -1;
		if (f >= 0)
			close(f);
		if (got >= 64 && (text[64] = '\0', has_entry(v, n, text)))
			continue;
		if (got >= 0 || errno != ENOENT)
			unlinkat(dfd, m[i].name, 0);
	}
	/* stamps whose entry is gone */
	if (n)
		qsort(v, n, sizeof *v, by_name);
	for (i = 0; !rc && i < ns; i++) {
		size_t len = strlen(sv[i].name);
		if ((hit = n ? bsearch(&sv[i], v, n, sizeof *v, by_name) : NULL) && !hit->gone)
			continue;
		memcpy(sv[i].name + len - 4, ".ok", 4);
		unlinkat(dfd, sv[i].name, 0);
	}
	closedir(d);
	free(v);
	free(m);
	free(sv);
	return rc;
}
