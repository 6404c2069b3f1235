/* SPDX-License-Identifier: MIT */
/*
 * upload.c - results upload (aieth/upload.h): the spool is retried oldest
 * first, then each --upload target gets its payload; what could not be
 * delivered is spooled (transient: connection, timeout, 408, 429, 5xx) or
 * kept in failed/ (any other answer), and every outcome is recorded in the
 * report's "uploads" array. Upload problems never change a run's exit code.
 *
 * The spool is the user's alone (docs/farm.md, "The spool"): opened once
 * and checked (util/trusted_dir.h), then reached only relative to its
 * descriptor; each entry is checked on its descriptor (ours, written by no
 * one else) and by its HMAC with the spool's key before it is sent with
 * credentials. An entry that fails is refused: kept, named, never sent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef AIETH_HAVE_CURL
#include <curl/curl.h>
#endif

#include "upload/upload_internal.h"
#include "util/json_build.h"
#include "util/json_strict.h"
#include "util/ca_bundle.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/path.h"
#include "util/trusted_dir.h"

#define SPOOL_DEFAULT_MAX (100ull << 20)
#define MAX_DOWN 64 /* origins found down in one pass */

typedef struct {
	const aieth__upload_opts *o;
	char spool[4096];
	struct json_object *uploads; /* NULL: flush only */
	sbuf log;
	char down[MAX_DOWN][256]; /* scheme://authority of servers down in this pass */
	int ndown;
	size_t remaining;
	unsigned seq;
	int dfd, ffd;    /* the spool and its failed/, opened once (-1: not yet) */
	uint8_t key[32]; /* the spool's key (UP_SPOOL_KEY), once dfd is open */
	char run[UP_RUN_MAX];
} up_ctx;

char *aieth__upload_default_spool(void)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	sbuf b = SB_INIT(SB_DOC_MAX);
	if (x && x[0] == '/')
		aieth__sb_printf(&b, "%s/aieth/spool", x);
	else if (home && home[0] == '/')
		aieth__sb_printf(&b, "%s/.local/state/aieth/spool", home);
	return aieth__sb_take(&b);
}

/* Open the spool (made when missing and create; AIETH_ENOTFOUND when
 * missing otherwise): the folder's rule of util/trusted_dir.h, made 0700,
 * its key read or made. */
static int spool_open(up_ctx *c, int create)
{
	char what[4200];
	struct stat st;
	int rc;
	if (c->dfd >= 0)
		return AIETH_OK;
	if ((rc = aieth__dir_open_trusted(c->spool, create, "spool", &c->dfd)))
		return rc;
	if (fstat(c->dfd, &st) || ((st.st_mode & 077) && fchmod(c->dfd, 0700))) {
		rc = aieth__fail(AIETH_EIO, "spool %s: cannot make it private (0700): %s", c->spool,
				 strerror(errno));
	} else {
		snprintf(what, sizeof what, "spool %s: its key %s", c->spool, UP_SPOOL_KEY);
		rc = aieth__dir_key(c->dfd, UP_SPOOL_KEY, what, c->key);
	}
	if (rc) {
		close(c->dfd);
		c->dfd = -1;
	}
	return rc;
}

/* The spool's failed/ (made when create): ours, written by no one else.
 * AIETH_ENOTFOUND when missing and not create. */
static int failed_open(up_ctx *c, int create)
{
	struct stat st;
	if (c->ffd >= 0)
		return AIETH_OK;
	if (create && mkdirat(c->dfd, "failed", 0700) && errno != EEXIST)
		return aieth__fail(AIETH_EIO, "spool %s: mkdir failed: %s", c->spool,
				   strerror(errno));
	c->ffd = openat(c->dfd, "failed", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->ffd < 0)
		return errno == ENOENT ? AIETH_ENOTFOUND
				       : aieth__fail(AIETH_EIO, "spool %s/failed: %s", c->spool,
						     strerror(errno));
	if (fstat(c->ffd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(c->ffd);
		c->ffd = -1;
		return aieth__fail(AIETH_EINVAL,
				   "spool %s/failed: owned by uid %u (mode %04o): not ours "
				   "alone (uid %u, written by no one else): refusing it",
				   c->spool, (unsigned)st.st_uid, (unsigned)st.st_mode & 07777,
				   (unsigned)geteuid());
	}
	return AIETH_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The spool's entries in the folder dfd (shown as dir), sorted (oldest
 * first); *bytes: their size. */
static int list_dir(int dfd, const char *dir, char ***names, size_t *count, uint64_t *bytes)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;
	if (names) {
		*names = NULL;
		*count = 0;
	}
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return aieth__fail(AIETH_EIO, "spool %s: %s", dir, strerror(e));
	}
	while ((de = readdir(d))) {
		struct stat st;
		if (!aieth__up_spool_name_ok(de->d_name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (bytes)
			*bytes += (uint64_t)st.st_size;
		if (!names)
			continue;
		if (AIETH__GROW(v, cap, n + 1, 16, 0))
			goto oom;
		if (!(v[n] = aieth__strdup(de->d_name)))
			goto oom;
		n++;
	}
	closedir(d);
	if (!names)
		return AIETH_OK;
	if (n)
		qsort(v, n, sizeof *v, cmp_str);
	*names = v;
	*count = n;
	return AIETH_OK;
oom:
	closedir(d);
	while (n)
		free(v[--n]);
	free(v);
	return aieth__fail(AIETH_ENOMEM, "spool %s: out of memory", dir);
}

static void free_names(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

static void record(up_ctx *c, const char *target, const char *kind, const char *status, long code,
		   const char *file, const char *msg, int from_spool)
{
	struct json_object *u;
	aieth__sb_printf(&c->log, "upload %s%s: %s", target, from_spool ? " (from the spool)" : "",
			 status);
	if (code)
		aieth__sb_printf(&c->log, " (HTTP %ld)", code);
	if (file)
		aieth__sb_printf(&c->log, ", %s", file);
	if (msg && *msg)
		aieth__sb_printf(&c->log, ": %s", msg);
	sb_lit(&c->log, "\n");
	if (!c->uploads)
		return;
	u = aieth__rj_obj();
	aieth__rj_str(u, "url", target);
	aieth__rj_str(u, "kind", kind);
	aieth__rj_str(u, "status", status);
	if (code)
		aieth__rj_int(u, "http_code", code);
	else
		aieth__rj_null(u, "http_code");
	if (file)
		aieth__rj_str(u, "spool_file", file);
	else
		aieth__rj_null(u, "spool_file");
	aieth__rj_str(u, "message", msg ? msg : "");
	aieth__rj_bool(u, "from_spool", from_spool);
	aieth__rj_push(c->uploads, u);
}

static void origin(const char *url, char *out, size_t n)
{
	const char *a = strstr(url, "://");
	size_t len = a ? (size_t)(a + 3 - url) + strcspn(a + 3, "/?#") : strlen(url);
	snprintf(out, n, "%.*s", (int)len, url);
}

static int is_down(up_ctx *c, const char *url)
{
	char o[256];
	int i;
	origin(url, o, sizeof o);
	for (i = 0; i < c->ndown; i++)
		if (!strcmp(c->down[i], o))
			return 1;
	return 0;
}

static void mark_down(up_ctx *c, const char *url)
{
	if (c->ndown < MAX_DOWN && !is_down(c, url))
		origin(url, c->down[c->ndown++], sizeof c->down[0]);
}

/* Write e into the spool (sub: NULL or "failed"), within the size bound;
 * path gets the file written. */
static int spool_write(up_ctx *c, const up_entry *e, const char *kind, const char *sub, char *path,
		       size_t pathn)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	char dir[4200], name[128], tmp[160];
	uint64_t used = 0, max = c->o->spool_max_bytes ? c->o->spool_max_bytes : SPOOL_DEFAULT_MAX;
	struct timespec ts;
	int rc, fd, to;

	snprintf(dir, sizeof dir, "%s/failed", c->spool);
	if ((rc = spool_open(c, 1)))
		return rc;
	if ((rc = failed_open(c, sub != NULL)) == AIETH_ENOTFOUND)
		rc = AIETH_OK;
	if (rc || (rc = list_dir(c->dfd, c->spool, NULL, NULL, &used)) ||
	    (c->ffd >= 0 && (rc = list_dir(c->ffd, dir, NULL, NULL, &used))))
		return rc;
	if ((rc = aieth__up_spool_format(e, c->key, &b)))
		goto out;
	if (used + b.n > max) {
		rc = aieth__fail(AIETH_EIO,
				 "spool %s: full (%llu bytes used, %zu more would pass "
				 "the bound of %llu)",
				 c->spool, (unsigned long long)used, b.n, (unsigned long long)max);
		goto out;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	if (aieth__up_spool_name(name, sizeof name,
				 (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec,
				 (long)getpid(), c->seq++, kind)) {
		rc = aieth__fail(AIETH_EINVAL, "spool: bad entry name");
		goto out;
	}
	snprintf(path, pathn, "%s/%s", sub ? dir : c->spool, name);
	/* a new file of ours (0600, O_EXCL), flushed, then renamed into
	 * place: a retrying reader finds the whole entry or none */
	to = sub ? c->ffd : c->dfd;
	snprintf(tmp, sizeof tmp, ".tmp.%s", name);
	fd = openat(to, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = aieth__fail(AIETH_EIO, "spool %s: cannot create %s: %s", c->spool, tmp,
				 strerror(errno));
		goto out;
	}
	rc = aieth__write_full(fd, b.p, b.n, path);
	if (!rc && fsync(fd))
		rc = aieth__fail(AIETH_EIO, "spool %s: fsync: %s", path, strerror(errno));
	if (close(fd) && !rc)
		rc = aieth__fail(AIETH_EIO, "spool %s: write error: %s", path, strerror(errno));
	if (!rc && renameat(to, tmp, to, name))
		rc = aieth__fail(AIETH_EIO, "spool %s: cannot rename %s: %s", c->spool, tmp,
				 strerror(errno));
	if (rc)
		unlinkat(to, tmp, 0);
out:
	aieth__sb_free(&b);
	return rc;
}

/* Send one entry; spooled_path NULL: a fresh one (spooled on failure);
 * else the entry name of the spool, shown as spooled_path. */
static void deliver(up_ctx *c, const up_entry *e, up_kind kind, const char *name,
		    const char *spooled_path)
{
	const char *kn = aieth__up_kind_name(kind);
	char err[1200], path[4400];
	long code = 0;
	up_cred cred;
	int cls, from_spool = spooled_path != NULL;

	if (is_down(c, e->url)) {
		cls = UP_RETRY;
		snprintf(err, sizeof err,
			 "not tried: the server did not answer earlier in this pass");
	} else if (aieth__up_creds_find(c->o->credentials, e->target, kind, &cred)) {
		cls = UP_RETRY; /* a credentials problem is fixed by the admin: keep it */
		snprintf(err, sizeof err, "%s", aieth_error_message());
	} else {
		cls = aieth__up_http_post(e, kind, &cred, c->o, &code, err, sizeof err);
		memset(&cred, 0, sizeof cred);
		if (cls == UP_RETRY && code == 0)
			mark_down(c, e->url);
	}
	if (cls == UP_SENT) {
		if (from_spool && unlinkat(c->dfd, name, 0)) {
			snprintf(err, sizeof err, "delivered, but removing it failed: %s",
				 strerror(errno));
			record(c, e->target, kn, "delivered", code, spooled_path, err, 1);
			return;
		}
		record(c, e->target, kn, "delivered", code, NULL, "", from_spool);
		return;
	}
	if (from_spool) {
		if (cls == UP_RETRY) {
			c->remaining++;
			record(c, e->target, kn, "spooled", code, spooled_path, err, 1);
			return;
		}
		/* permanent: out of the retry queue, into failed/ */
		snprintf(path, sizeof path, "%s/failed/%s", c->spool, name);
		c->remaining++;
		if (failed_open(c, 1) || renameat(c->dfd, name, c->ffd, name)) {
			record(c, e->target, kn, "spooled", code, spooled_path,
			       "rejected, and moving it to failed/ failed", 1);
			return;
		}
		record(c, e->target, kn, "failed", code, path, err, 1);
		return;
	}
	if (spool_write(c, e, kn, cls == UP_RETRY ? NULL : "failed", path, sizeof path)) {
		char m[2600];
		snprintf(m, sizeof m, "%s; not spooled: %s", err, aieth_error_message());
		record(c, e->target, kn, "lost", code, NULL, m, 0);
		return;
	}
	record(c, e->target, kn, cls == UP_RETRY ? "spooled" : "failed", code, path, err, 0);
}

/* Read the spool's entry name (shown as path): *refused 1 when it is not
 * one we may trust (not ours, writable by others, not a regular file). */
static int read_entry(up_ctx *c, const char *name, const char *path, char **data, size_t *len,
		      int *refused)
{
	struct stat st;
	int fd, rc;
	*data = NULL;
	*refused = 0;
	fd = openat(c->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return aieth__fail(errno == ELOOP ? AIETH_EINVAL : AIETH_EIO, "%s: %s", path,
				   strerror(errno));
	if ((rc = aieth__fd_trusted(fd, path))) {
		char why[1200];
		snprintf(why, sizeof why, "%s", aieth_error_message());
		close(fd);
		*refused = 1;
		return aieth__fail(rc, "%s: refused, kept, never sent; delete it", why);
	}
	if (fstat(fd, &st) || (uint64_t)st.st_size > UP_ENTRY_MAX) {
		close(fd);
		return aieth__fail(AIETH_EPARSE, "%s: larger than %u bytes", path, UP_ENTRY_MAX);
	}
	*len = (size_t)st.st_size;
	if (!(*data = malloc(*len + 1))) {
		close(fd);
		return aieth__fail(AIETH_ENOMEM, "spool: out of memory");
	}
	rc = aieth__pread_full(fd, *data, *len, 0, path);
	close(fd);
	return rc;
}

/* The temporary files (".tmp.*", spool_write's and the key's) that a
 * writer which died left in the spool and its failed/: removed when older
 * than an hour (util/trusted_dir.h), as the PDI cache removes its own. A
 * folder that cannot be listed is left for the flush to report. */
static void sweep_temps(up_ctx *c)
{
	char what[4200];
	size_t n = 0, nf = 0;
	snprintf(what, sizeof what, "spool %s", c->spool);
	aieth__dir_temp_sweep(c->dfd, UP_TMP_MAX_AGE, what, &n);
	if (failed_open(c, 0) == AIETH_OK) {
		snprintf(what, sizeof what, "spool %s/failed", c->spool);
		aieth__dir_temp_sweep(c->ffd, UP_TMP_MAX_AGE, what, &nf);
	}
	aieth__error_clear();
	if (n + nf)
		aieth__sb_printf(
			&c->log,
			"spool %s: removed %zu temporary file(s) older than %d s (left by a "
			"writer that died)\n",
			c->spool, n + nf, UP_TMP_MAX_AGE);
}

static int flush(up_ctx *c)
{
	char **names = NULL;
	size_t n = 0, i;
	int rc, fd;
	rc = spool_open(c, 0);
	if (rc == AIETH_ENOTFOUND) { /* no spool yet: nothing waits */
		aieth__error_clear();
		return AIETH_OK;
	}
	if (rc)
		return rc;
	/* one retrying process at a time, or an entry could be sent twice;
	 * another one retrying now is not waited for (its entries are its) */
	fd = openat(c->dfd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return aieth__fail(AIETH_EIO, "spool %s/.lock: %s", c->spool, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		aieth__sb_printf(&c->log,
				 "spool %s: another process is retrying it; not retried here\n",
				 c->spool);
		return AIETH_OK;
	}
	sweep_temps(c);
	if ((rc = list_dir(c->dfd, c->spool, &names, &n, NULL))) {
		close(fd);
		return rc;
	}
	for (i = 0; i < n; i++) {
		char path[4400], *data = NULL;
		size_t len = 0;
		int refused = 0;
		up_entry e;
		up_target t;
		snprintf(path, sizeof path, "%s/%s", c->spool, names[i]);
		rc = read_entry(c, names[i], path, &data, &len, &refused);
		if (!rc && (rc = aieth__up_spool_parse(data, len, path, &e)) == AIETH_EUNSUPPORTED)
			refused = 1; /* an older aieth's: it may still send it */
		if (!rc && (rc = aieth__up_spool_verify(data, len, &e, c->key, path)))
			refused = 1;
		if (!rc)
			rc = aieth__up_parse_url(e.target, &t);
		if (rc && refused) { /* kept where it is, never sent */
			c->remaining++;
			record(c, "?", "?", "refused", 0, path, aieth_error_message(), 1);
		} else if (rc) { /* unreadable (truncated, edited): out of the queue */
			char dst[4400], m[1300];
			snprintf(m, sizeof m, "%s", aieth_error_message());
			snprintf(dst, sizeof dst, "%s/failed/%s", c->spool, names[i]);
			c->remaining++;
			if (failed_open(c, 1) || renameat(c->dfd, names[i], c->ffd, names[i]))
				record(c, "?", "?", "spooled", 0, path, m, 1);
			else
				record(c, "?", "?", "failed", 0, dst, m, 1);
		} else {
			deliver(c, &e, t.kind, names[i], path);
		}
		free(data);
	}
	free_names(names, n);
	close(fd); /* the lock goes with it */
	return AIETH_OK;
}

AIETH__OPTS_INIT_FN(aieth__upload_opts, AIETH_UPLOAD_OPTS_INIT, AIETH_UPLOAD_OPTS_VERSION);

static int ctx_init(up_ctx *c, const aieth__upload_opts *o)
{
	const char *ca;
	char *def = NULL;
	int rc;
	memset(c, 0, sizeof *c);
	c->dfd = c->ffd = -1;
	aieth__sb_init(&c->log, SB_DOC_MAX);
	c->o = o;
	/* the versions of aieth__upload_opts read here (a new one: raise it) */
	if ((rc = aieth__opts_version("aieth_upload_opts", "aieth_upload_opts", o->version,
				      AIETH_UPLOAD_OPTS_VERSION)))
		return rc;
	if (!o->spool_dir && !(def = aieth__upload_default_spool()))
		return aieth__fail(AIETH_EINVAL, "no spool folder: --spool DIR, $XDG_STATE_HOME or "
						 "$HOME is needed");
	if (strlen(o->spool_dir ? o->spool_dir : def) >= 4000) {
		free(def);
		return aieth__fail(AIETH_EINVAL, "spool: the path is longer than 4000 bytes");
	}
	snprintf(c->spool, sizeof c->spool, "%s", o->spool_dir ? o->spool_dir : def);
	free(def);
	/* a CA bundle that cannot be read fails before any connection (each
	 * POST resolves the same one, aieth__up_http_post; a variable's is needed
	 * only by an https target, checked there) */
	if ((rc = aieth__ca_bundle(o->cacert, "--upload-cacert", "http://", &ca)))
		return rc;
#ifdef AIETH_HAVE_CURL
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return aieth__fail(AIETH_EDEVICE, "curl_global_init failed");
#endif
	return AIETH_OK;
}

static void ctx_done(up_ctx *c, char **log)
{
	if (c->ffd >= 0)
		close(c->ffd);
	if (c->dfd >= 0)
		close(c->dfd);
	c->ffd = c->dfd = -1;
	memset(c->key, 0, sizeof c->key);
#ifdef AIETH_HAVE_CURL
	curl_global_cleanup();
#endif
	if (log)
		*log = c->log.p;
	else
		free(c->log.p);
}

int aieth__upload_flush(const aieth__upload_opts *opts, char **log, size_t *remaining)
{
	up_ctx c;
	int rc;
	if (log)
		*log = NULL;
	if (!opts)
		return aieth__fail(AIETH_EINVAL, "aieth_upload_flush: NULL options");
	if ((rc = ctx_init(&c, opts)))
		return rc;
	rc = flush(&c);
	if (remaining)
		*remaining = c.remaining;
	ctx_done(&c, log);
	return rc;
}

int aieth__upload_report(aieth_report *r, const char *const *urls, size_t n,
			 const aieth__upload_opts *opts, char **log)
{
	up_ctx c;
	char *rep = NULL, boundary[64];
	struct json_object *root = NULL, *run;
	size_t rlen = 0, i;
	int rc;

	if (log)
		*log = NULL;
	if (!r || !opts || (n && !urls))
		return aieth__fail(AIETH_EINVAL, "aieth_upload_report: NULL argument");
	if ((rc = ctx_init(&c, opts)))
		return rc;
	/* the report as its readers get it (without an earlier upload's
	 * record), read back whole: the payloads are made of that */
	if ((rc = aieth_report_set_uploads(r, NULL, 0)) || !(rep = aieth_report_json(r))) {
		rc = rc ? rc : aieth__fail(AIETH_ENOMEM, "upload: out of memory");
		goto out;
	}
	rlen = strlen(rep);
	if ((rc = aieth__jstrict_parse("report.json", rep, rlen, &root)) ||
	    !(c.uploads = aieth__rj_arr())) {
		rc = rc ? rc : aieth__fail(AIETH_ENOMEM, "upload: out of memory");
		goto out;
	}
	run = aieth__rj_get(root, "run");
	/* the run id, as its entries carry it (a printable header value) */
	snprintf(c.run, sizeof c.run, "%s",
		 *aieth__rj_gets(run, "id") ? aieth__rj_gets(run, "id") : "-");
	for (i = 0; c.run[i]; i++)
		if ((unsigned char)c.run[i] < 0x21 || c.run[i] == 0x7f)
			c.run[i] = '_';
	/* a spool that is not ours alone is refused: not retried, and what
	 * is not delivered now is lost (not written into it) */
	if ((rc = flush(&c)))
		record(&c, "?", "?", rc == AIETH_EINVAL ? "refused" : "spooled", 0, c.spool,
		       aieth_error_message(), 1);
	rc = AIETH_OK;
	/* a boundary that the parts cannot contain: they are made of the report's
	 * strings, and the boundary's characters are never JSON-escaped */
	for (i = 0;; i++) {
		snprintf(boundary, sizeof boundary, "aieth-%.30s-%zu", aieth__rj_gets(run, "id"),
			 i);
		if (!strstr(rep, boundary))
			break;
	}
	for (i = 0; i < n; i++) {
		up_target t;
		up_entry e;
		sbuf body = SB_INIT(SB_DOC_MAX);
		int prc;
		if (aieth__up_parse_url(urls[i], &t)) {
			record(&c, "?", "?", "lost", 0, NULL, aieth_error_message(), 0);
			continue;
		}
		memset(&e, 0, sizeof e);
		snprintf(e.run, sizeof e.run, "%s", c.run);
		snprintf(e.target, sizeof e.target, "%s", urls[i]);
		snprintf(e.url, sizeof e.url, "%s", t.url);
		if (t.kind == UP_INFLUX) {
			snprintf(e.ctype, sizeof e.ctype, "text/plain; charset=utf-8");
			prc = aieth__up_payload_influx(
				root, (uint64_t)(aieth_report_started(r) * 1e3 + 0.5), &body);
		} else if (t.kind == UP_SQUAD) {
			snprintf(e.ctype, sizeof e.ctype, "multipart/form-data; boundary=%s",
				 boundary);
			prc = aieth__up_payload_squad(root, rep, boundary, &body);
		} else {
			snprintf(e.ctype, sizeof e.ctype, "application/json");
			aieth__sb_put(&body, rep, rlen);
			prc = body.oom ? aieth__fail(AIETH_ENOMEM, "upload: out of memory")
				       : AIETH_OK;
		}
		if (prc) {
			record(&c, urls[i], aieth__up_kind_name(t.kind), "lost", 0, NULL,
			       aieth_error_message(), 0);
			aieth__sb_free(&body);
			continue;
		}
		e.body = body.p ? body.p : "";
		e.len = body.n;
		deliver(&c, &e, t.kind, NULL, NULL);
		aieth__sb_free(&body);
	}
out:
	/* what happened to each target goes into the report (report.json's
	 * "uploads", written after this) */
	if (c.uploads) {
		const char *u = json_object_to_json_string_ext(c.uploads, JSON_C_TO_STRING_PLAIN);
		int src = u ? aieth_report_set_uploads(r, u, strlen(u))
			    : aieth__fail(AIETH_ENOMEM, "upload: out of memory");
		if (!rc)
			rc = src;
		json_object_put(c.uploads);
		c.uploads = NULL;
	}
	json_object_put(root);
	free(rep);
	ctx_done(&c, log);
	if (!rc && aieth__rj_oom())
		rc = aieth__fail(AIETH_ENOMEM, "upload: out of memory");
	return rc;
}
