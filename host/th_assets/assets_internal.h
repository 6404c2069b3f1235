/* SPDX-License-Identifier: MIT */
/*
 * assets_internal.h - th_assets' parts (not installed): archive
 * entry names, the lock file, cfg/assets.json, hash checks. The public
 * side is aieth/assets.h.
 */
#ifndef AIETH_ASSETS_INTERNAL_H
#define AIETH_ASSETS_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

#include "th_assets/th_assets.h"

#define ASX_LOCK_NAME "assets.lock.json"
#define ASX_MANIFEST_NAME ".aieth-manifest.json"
#define ASX_LOCK_MAX_BYTES (1u << 20)
#define ASX_LOCK_MAX_ENTRIES 4096u
#define ASX_NAME_MAX 1024u

/* --- names (assets_names.c) --- */
/* An archive entry's name: relative, no "." / ".." components past a
 * leading "./", no empty name, no control bytes, at most ASX_NAME_MAX
 * bytes, not the manifest's name. 0 or AIETH_EINVAL naming the rule. */
int aieth__asx_name_check(const char *name);
/* A symbolic link's target: relative, no ".." component (so it stays in
 * the folder it is unpacked into whatever links came before). */
int aieth__asx_link_check(const char *name, const char *target);
/* A downloaded file's name: [A-Za-z0-9._+-], not starting with '.', at
 * most 255 bytes. */
int aieth__asx_file_name_check(const char *file);
/* The last path component of an http(s) URL (query and fragment cut),
 * checked as above, into out (cap bytes). */
int aieth__asx_url_file_name(const char *url, char *out, size_t cap);
/* 64 hex digits (either case) -> lower case into out[65]. */
int aieth__asx_sha256_norm(const char *hex, char out[65], const char *what);
/* A release name: [A-Za-z0-9._-], not starting with '.', at most 64 bytes. */
int aieth__asx_release_check(const char *release);

/* --- the lock file (assets_lock.c) --- */
typedef struct {
	char *file;
	char sha256[65];
	char *url;     /* "" when unknown */
	char *release; /* "" when unknown */
} asx_lock_entry;

typedef struct {
	asx_lock_entry *e;
	size_t n, cap;
} asx_lock;

/* Parse a lock file's text (`what` names it in messages). An empty lock
 * is {"lock_version": 1, "files": {}}. */
int aieth__asx_lock_parse(const char *what, const char *text, size_t len, asx_lock *out);
/* Read path; a missing file is an empty lock. */
int aieth__asx_lock_load(const char *path, asx_lock *out);
/* Write atomically (temp + rename). */
int aieth__asx_lock_save(const char *path, const asx_lock *l);
const asx_lock_entry *aieth__asx_lock_find(const asx_lock *l, const char *file);
/* Add an entry (the file must not be there yet). */
int aieth__asx_lock_add(asx_lock *l, const char *file, const char *sha256, const char *url,
			const char *release);
void aieth__asx_lock_free(asx_lock *l);

/* --- cfg/assets.json (assets_cfg.c) --- */
typedef struct {
	char release[65];
	char *url;
	char file[256];
	char sha256[65]; /* "" when null: not known */
} asx_release;

/* Parse cfg/assets.json text; find `release` (or, release NULL, the entry
 * whose file is `file`). AIETH_ENOTFOUND when absent (naming the known
 * releases). */
int aieth__asx_cfg_parse(const char *what, const char *text, size_t len, const char *release,
			 const char *file, asx_release *out);
/* The same on <data dir>/cfg/assets.json. */
int aieth__asx_cfg_find(const char *data_dir, const char *release, const char *file,
			asx_release *out);
/* The hash a file must have before the lock file is asked: rel's (from
 * cfg/assets.json), else "" ; sha256_opt (--sha256, may be NULL) must
 * agree with it and then is the one named. *what says where it came from
 * ("" when nothing is known). */
int aieth__asx_expected_hash(const asx_release *rel, const char *sha256_opt, char expected[65],
			     const char **what);
void aieth__asx_release_free(asx_release *r);

/* --- hashes (assets_verify.c) --- */
/* The rule of every install: the file's hash `found` must equal every hash
 * known for `file` (expected: --sha256 / cfg, may be NULL or ""; and the lock
 * file at lock_path). When none is known the hash is recorded in the lock
 * (*recorded = 1; check_only: nothing written, *recorded says whether it
 * would be). A mismatch: AIETH_EINVAL naming expected and found. */
int aieth__asx_verify_and_lock(const char *lock_path, const char *file, const char *found,
			       const char *expected, const char *expected_what, const char *url,
			       const char *release, int check_only, int *recorded);
/* DEST (explicit, else the data directory) joined with rel; NULL on OOM. */
char *aieth__asx_dest_path(const char *dest, const char *rel);
/* mkdir -p (0755 less the umask); AIETH_EIO when a part is not a folder. */
int aieth__asx_mkdirs(const char *path);

/* --- the manifest of an unpacked release (assets_manifest.c) --- */
typedef struct {
	char release[65];
	char archive[256];
	char sha256[65];
	uint64_t files, bytes;
} asx_manifest;

int aieth__asx_manifest_write(const char *path, const asx_manifest *m);
int aieth__asx_manifest_parse(const char *what, const char *text, size_t len, asx_manifest *m);
int aieth__asx_manifest_read(const char *path, asx_manifest *m);

#endif
