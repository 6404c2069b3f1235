/* SPDX-License-Identifier: MIT */
/*
 * assets_unpack.c - th_assets unpack: an archive checked like a download,
 * then extracted entry by entry with libarchive into a temporary folder
 * beside the target, which is renamed into place only when complete.
 * Every entry passes assets_names.c's rules before anything is written.
 */
#include <errno.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "th_assets/th_assets.h"
#include "th_assets/assets_internal.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

typedef struct {
	const char *archive;
	const char *tmp;
	uint64_t max_entry, max_total;
	uint64_t files, bytes, entries;
} up_ctx;

static int up_entry_rules(up_ctx *c, struct archive_entry *e, const char **name_out)
{
	const char *name = archive_entry_pathname(e);
	mode_t type = archive_entry_filetype(e);
	char q[96];
	int rc;
	if (!name)
		return aieth__fail(AIETH_EINVAL, "an entry without a readable name");
	aieth__quote_str(q, sizeof q, name);
	if ((rc = aieth__asx_name_check(name)))
		return rc;
	if (++c->entries > AIETH_ASSETS_MAX_ENTRIES)
		return aieth__fail(AIETH_EINVAL, "more than %u entries", AIETH_ASSETS_MAX_ENTRIES);
	if (archive_entry_hardlink(e))
		return aieth__fail(
			AIETH_EINVAL,
			"archive entry \"%s\": a hard link (refused: AMD's archives have none)", q);
	if (type == AE_IFLNK) {
		const char *t = archive_entry_symlink(e);
		if ((rc = aieth__asx_link_check(name, t ? t : "")))
			return rc;
	} else if (type != AE_IFREG && type != AE_IFDIR) {
		return aieth__fail(
			AIETH_EINVAL,
			"archive entry \"%s\": a %s (only files, folders and links inside are unpacked)",
			q,
			type == AE_IFCHR    ? "character device"
			: type == AE_IFBLK  ? "block device"
			: type == AE_IFIFO  ? "FIFO"
			: type == AE_IFSOCK ? "socket"
					    : "special file");
	}
	if (archive_entry_size_is_set(e) && (uint64_t)archive_entry_size(e) > c->max_entry)
		return aieth__fail(
			AIETH_EINVAL, "archive entry \"%s\": %lld bytes, at most %llu per entry", q,
			(long long)archive_entry_size(e), (unsigned long long)c->max_entry);
	*name_out = name;
	return 0;
}

static int up_data(up_ctx *c, struct archive *a, struct archive *w, const char *name)
{
	const void *buf;
	size_t n;
	la_int64_t off;
	uint64_t got = 0;
	char q[96];
	int r;
	aieth__quote_str(q, sizeof q, name);
	while ((r = archive_read_data_block(a, &buf, &n, &off)) == ARCHIVE_OK) {
		got += n;
		if (got > c->max_entry)
			return aieth__fail(AIETH_EINVAL,
					   "archive entry \"%s\": more than %llu bytes per entry",
					   q, (unsigned long long)c->max_entry);
		if (c->bytes + got > c->max_total)
			return aieth__fail(AIETH_EINVAL, "archive: more than %llu bytes in all",
					   (unsigned long long)c->max_total);
		if (archive_write_data_block(w, buf, n, off) != ARCHIVE_OK)
			return aieth__fail(AIETH_EIO, "%s: %s", q, archive_error_string(w));
	}
	if (r != ARCHIVE_EOF)
		return aieth__fail(AIETH_EINVAL, "archive entry \"%s\": %s", q,
				   archive_error_string(a));
	c->bytes += got;
	return 0;
}

static int up_extract(up_ctx *c)
{
	struct archive *a = archive_read_new(), *w = archive_write_disk_new();
	struct archive_entry *e;
	int rc = 0, r;
	if (!a || !w) {
		rc = aieth__fail(AIETH_ENOMEM, "libarchive: out of memory");
		goto out;
	}
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	/* our own checks come first; these are libarchive's second line */
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
						  ARCHIVE_EXTRACT_SECURE_NODOTDOT |
						  ARCHIVE_EXTRACT_TIME);
	if (archive_read_open_filename(a, c->archive, 1 << 16) != ARCHIVE_OK) {
		rc = aieth__fail(AIETH_EINVAL, "%s", archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = NULL;
		char *full, rel[ASX_NAME_MAX + 1];
		mode_t type;
		if ((rc = up_entry_rules(c, e, &name)))
			goto out;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		if (!*name)
			continue;
		/* name lives in the entry, which the new path replaces */
		snprintf(rel, sizeof rel, "%s", name);
		name = rel;
		type = archive_entry_filetype(e);
		full = aieth__path_join(c->tmp, name);
		if (!full) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			goto out;
		}
		archive_entry_copy_pathname(e, full);
		free(full);
		/* no set-id bits, no other's write bit, whatever the archive says */
		if (type == AE_IFREG)
			archive_entry_set_perm(e, (archive_entry_perm(e) & 0111) ? 0755 : 0644);
		else if (type == AE_IFDIR)
			archive_entry_set_perm(e, 0755);
		archive_entry_set_uid(e, getuid());
		archive_entry_set_gid(e, getgid());
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			rc = aieth__fail(AIETH_EINVAL, "%s", archive_error_string(w));
			goto out;
		}
		if (type == AE_IFREG) {
			if ((rc = up_data(c, a, w, name)))
				goto out;
			c->files++;
		}
		if (archive_write_finish_entry(w) != ARCHIVE_OK) {
			rc = aieth__fail(AIETH_EIO, "%s", archive_error_string(w));
			goto out;
		}
	}
	if (r != ARCHIVE_EOF)
		rc = aieth__fail(AIETH_EINVAL, "%s", archive_error_string(a));
	else if (archive_write_close(w) != ARCHIVE_OK)
		rc = aieth__fail(AIETH_EIO, "%s", archive_error_string(w));
out:
	if (a)
		archive_read_free(a);
	if (w)
		archive_write_free(w);
	return rc;
}

/* Release, archive path and known hash of what is unpacked. */
static int up_resolve(const aieth__assets_unpack_opts *o, asx_release *rel, char **from,
		      char *expected, const char **ewhat)
{
	int rc;
	const char *base;
	*expected = 0;
	*ewhat = "";
	memset(rel, 0, sizeof *rel);
	if (o->release && (rc = aieth__asx_release_check(o->release)))
		return rc;
	if (!o->from) {
		char *dl;
		const char *name = o->release ? o->release : AIETH_ASSETS_DEFAULT_RELEASE;
		if ((rc = aieth__asx_cfg_find(o->data_dir, name, NULL, rel)))
			return rc;
		dl = aieth__asx_dest_path(o->dest, "downloads");
		*from = dl ? aieth__path_join(dl, rel->file) : NULL;
		free(dl);
		if (!*from)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
	} else {
		base = strrchr(o->from, '/');
		base = base ? base + 1 : o->from;
		if ((rc = aieth__asx_file_name_check(base)))
			return aieth__fail_prefix(rc, "--from %s", o->from);
		/* a file named in cfg/assets.json is that release's (a missing cfg is fine offline) */
		if (aieth__asx_cfg_find(o->data_dir, NULL, base, rel) ||
		    (o->release && strcmp(o->release, rel->release))) {
			aieth__asx_release_free(rel);
			memset(rel, 0, sizeof *rel);
			snprintf(rel->file, sizeof rel->file, "%s", base);
		}
		*from = aieth__strdup(o->from);
		if (!*from)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	aieth__error_clear();
	if (o->release)
		snprintf(rel->release, sizeof rel->release, "%s", o->release);
	return aieth__asx_expected_hash(rel, o->sha256, expected, ewhat);
}

/* The release name when nothing named it: the lock's, else the file's name
 * without its archive suffix. */
static int up_release_name(const char *lock_path, asx_release *rel)
{
	static const char *const sfx[] = {".tar.gz",  ".tgz", ".tar.xz", ".tar.bz2",
					  ".tar.zst", ".tar", ".zip",    NULL};
	asx_lock l;
	const asx_lock_entry *e;
	size_t n;
	int i;
	if (*rel->release)
		return 0;
	if (aieth__asx_lock_load(lock_path, &l) == 0) {
		e = aieth__asx_lock_find(&l, rel->file);
		if (e && *e->release && !aieth__asx_release_check(e->release))
			snprintf(rel->release, sizeof rel->release, "%s", e->release);
		aieth__asx_lock_free(&l);
		if (*rel->release)
			return 0;
	}
	snprintf(rel->release, sizeof rel->release, "%.64s", rel->file);
	n = strlen(rel->release);
	for (i = 0; sfx[i]; i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && !strcmp(rel->release + n - k, sfx[i])) {
			rel->release[n - k] = 0;
			break;
		}
	}
	aieth__error_clear();
	return aieth__asx_release_check(rel->release);
}

/* .tmp-/.old- folders of unpacks that died (their process is gone): removed. */
static void up_sweep(const char *adir)
{
	DIR *d = opendir(adir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *dash;
		char *end, *p;
		long pid;
		if (strncmp(de->d_name, ".tmp-", 5) && strncmp(de->d_name, ".old-", 5))
			continue;
		dash = strrchr(de->d_name, '-');
		pid = strtol(dash + 1, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		p = aieth__path_join(adir, de->d_name);
		if (p)
			aieth__remove_tree(p);
		free(p);
	}
	closedir(d);
}

static int up_install(const char *tmp, const char *target, const char *old)
{
	struct stat st;
	if (lstat(target, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return aieth__fail(AIETH_EIO, "%s: exists and is not a folder", target);
		if (rename(target, old) != 0)
			return aieth__fail(AIETH_EIO, "%s: cannot move aside: %s", target,
					   strerror(errno));
	}
	if (rename(tmp, target) != 0) {
		int e = errno;
		rename(old, target);
		return aieth__fail(AIETH_EIO, "%s: cannot rename to %s: %s", tmp, target,
				   strerror(e));
	}
	aieth__remove_tree(old);
	return 0;
}

AIETH__OPTS_INIT_FN(aieth__assets_unpack_opts, AIETH_ASSETS_UNPACK_OPTS_INIT,
		    AIETH_ASSETS_UNPACK_OPTS_VERSION);

int aieth__assets_unpack(const aieth__assets_unpack_opts *o, aieth__assets_result *r)
{
	asx_release rel;
	asx_manifest m;
	up_ctx c;
	char expected[65], *from = NULL, *lock = NULL, *adir = NULL, *tmp = NULL, *target = NULL,
			   *old = NULL, *mf = NULL, *rtmp = NULL;
	const char *ewhat;
	int rc;
	if (!o || !r)
		return aieth__fail(AIETH_EINVAL, "aieth_assets_unpack: NULL argument");
	memset(r, 0, sizeof *r);
	memset(&c, 0, sizeof c);
	aieth__error_clear();
	/* the versions of aieth__assets_unpack_opts read here (a new one: raise it) */
	if ((rc = aieth__opts_version("aieth_assets_unpack_opts", "aieth_assets_unpack_opts",
				      o->version, AIETH_ASSETS_UNPACK_OPTS_VERSION)))
		return rc;
	if ((rc = up_resolve(o, &rel, &from, expected, &ewhat)))
		goto out;
	lock = aieth__asx_dest_path(o->dest, ASX_LOCK_NAME);
	adir = aieth__asx_dest_path(o->dest, "assets");
	if (!lock || !adir) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = up_release_name(lock, &rel)))
		goto out;
	tmp = malloc(strlen(adir) + 100);
	old = malloc(strlen(adir) + 100);
	target = aieth__path_join(adir, rel.release);
	if (!tmp || !old || !target) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto out;
	}
	sprintf(tmp, "%s/.tmp-%s-%ld", adir, rel.release, (long)getpid());
	sprintf(old, "%s/.old-%s-%ld", adir, rel.release, (long)getpid());
	snprintf(r->lock_path, sizeof r->lock_path, "%s", lock);
	snprintf(r->path, sizeof r->path, "%s", target);
	if ((rc = aieth__asx_mkdirs(adir)))
		goto out;
	/* the archive is checked before a byte of it is unpacked */
	if ((rc = aieth__file_sha256(from, r->sha256, &r->bytes)))
		goto out;
	/* recorded in the lock only once unpacked: a refused archive leaves no trace */
	if ((rc = aieth__asx_verify_and_lock(lock, rel.file, r->sha256, expected, ewhat,
					     rel.url ? rel.url : "", rel.release, 1, &r->recorded)))
		goto out;
	up_sweep(adir);
	aieth__remove_tree(tmp);
	if (mkdir(tmp, 0755) != 0) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot create: %s", tmp, strerror(errno));
		goto out;
	}
	/* libarchive refuses a link anywhere in an entry's path: no links in ours */
	rtmp = realpath(tmp, NULL);
	if (!rtmp) {
		rc = aieth__fail(AIETH_EIO, "%s: %s", tmp, strerror(errno));
		aieth__remove_tree(tmp);
		goto out;
	}
	c.archive = from;
	c.tmp = rtmp;
	c.max_entry = o->max_entry_bytes ? o->max_entry_bytes : AIETH_ASSETS_MAX_ENTRY;
	c.max_total = o->max_total_bytes ? o->max_total_bytes : AIETH_ASSETS_MAX_TOTAL;
	if ((rc = up_extract(&c))) {
		aieth__fail_prefix(rc, "%s: refused, nothing installed", from);
		aieth__remove_tree(tmp);
		goto out;
	}
	memset(&m, 0, sizeof m);
	snprintf(m.release, sizeof m.release, "%s", rel.release);
	snprintf(m.archive, sizeof m.archive, "%s", rel.file);
	memcpy(m.sha256, r->sha256, 65);
	m.files = c.files;
	m.bytes = c.bytes;
	mf = aieth__path_join(tmp, ASX_MANIFEST_NAME);
	if (!mf)
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
	else
		rc = aieth__asx_manifest_write(mf, &m);
	if (!rc)
		rc = aieth__asx_verify_and_lock(lock, rel.file, r->sha256, expected, ewhat,
						rel.url ? rel.url : "", rel.release, 0,
						&r->recorded);
	if (!rc)
		rc = up_install(tmp, target, old);
	if (rc)
		aieth__remove_tree(tmp);
out:
	aieth__asx_release_free(&rel);
	free(from);
	free(lock);
	free(adir);
	free(tmp);
	free(old);
	free(target);
	free(mf);
	free(rtmp);
	return rc;
}
