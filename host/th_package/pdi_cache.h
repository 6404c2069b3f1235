/* SPDX-License-Identifier: MIT */
/*
 * pdi_cache.h - the PDI cache (docs/packaging.md, "The PDI cache"): PDIs
 * bootgen built, kept under the SHA-256 of everything bootgen read, so the
 * same graph packaged again skips bootgen. Entries are written to a
 * temporary file and renamed into place, so a reader never sees a partial
 * entry; each carries its size and a content hash, so a damaged entry is a
 * miss (and removed), never packaged (an entry checked once in a boot and
 * unchanged since is stamped, and not hashed again); the folder is bounded
 * in bytes, the least recently used entries going first; a stamp carries
 * an HMAC with the folder's secret, so only we can make one. Not installed.
 */
#ifndef AIETH_PDI_CACHE_H
#define AIETH_PDI_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* Default bound of the cache folder (bytes of entries). */
#define AIETH_PDI_CACHE_MAX_DEFAULT (1ull << 30) /* = AIETH_PACKAGE_CACHE_MAX_DEFAULT */

typedef struct {
	char *dir;          /* the cache folder (0700), as named (messages) */
	int dfd;            /* the folder, opened once: every use is relative to it */
	uint64_t max_bytes; /* bound on the entries' total size */
	uint8_t mac[32];    /* the folder's stamp key (.stamp-key) */
	int have_mac;       /* 0: no key, no stamp trusted (every hit hashed) */
} aieth_pdi_cache;

/* The folder: dir when given, else $AIETH_CACHE_DIR, else
 * $XDG_CACHE_HOME/aieth, else $HOME/.cache/aieth. Created (with missing
 * parents) mode 0700; an existing one must be a directory of ours, and
 * is made 0700. Opened once (util/trusted_dir.h): a path with a component
 * others may write, or through a link others own, is refused
 * (AIETH_EINVAL, naming it). max_bytes 0: AIETH_PDI_CACHE_MAX_DEFAULT. */
int aieth__pdi_cache_open(aieth_pdi_cache *c, const char *dir, uint64_t max_bytes);
void aieth__pdi_cache_close(aieth_pdi_cache *c);

/* The key: SHA-256 over a format tag, bootgen's identity (its resolved
 * path, size, modification time and inode: Debian's bootgen has no version
 * option), its arguments (argv[1..], with the BIF and output paths as
 * placeholders), the BIF text (each CDO path a placeholder) and the size
 * and bytes of each CDO in BIF order. */
int aieth__pdi_cache_key(const char *tool, const char *const *argv, const char *bif_path,
			 const char *output, const char *const *cdos, size_t num_cdos,
			 uint8_t key[32]);

/* Copy the entry for key to out (created or replaced) when there is a
 * sound one: *hit 1. No entry, or a damaged one (removed): *hit 0 and
 * AIETH_OK. Other errors: writing out. A hit marks the entry recently
 * used. */
int aieth__pdi_cache_get(const aieth_pdi_cache *c, const uint8_t key[32], const char *out,
			 int *hit);
/* What a caller checks of a hit it takes unchecked (aieth__pdi_cache_take):
 * the bytes of out must hash (hash128) to hash - unless the entry's stamp
 * vouches for them (trusted). */
typedef struct {
	int pending; /* 1: not checked yet; the caller checks */
	int trusted; /* 1: the entry's stamp matches it: its bytes hashed to hash
			when it was checked, in this boot, and the file has not
			changed since (docs/packaging.md, "Entries"): not hashed */
	uint8_t hash[16];
	uint64_t size;
	/* held 1: fd is the entry, open, and out a symbolic link to it
	 * (/proc/self/fd/N): the bytes are read through it, the entry's inode
	 * untouched; aieth__pdi_cache_release closes it */
	int held, fd;
	uint64_t dev, ino;
	int64_t mtime, ctime; /* the entry's, when taken (ns since 1970) */
	int64_t taken;        /* the wall clock then (ns since 1970) */
} aieth_pdi_cache_check;
/* aieth__pdi_cache_get, but a hit is not hashed here when check is not
 * NULL: out is a symbolic link to the entry held open (else, without
 * /proc/self/fd, a hard link; across file systems a copy, checked here:
 * pending 0). check->trusted 1: its stamp vouches for the bytes; else
 * check->pending 1 and the hash its bytes must have, for the caller to
 * compare while it reads them anyway (the packager's copy into the
 * xclbin: each byte read once), then to report with
 * aieth__pdi_cache_checked. */
int aieth__pdi_cache_take(const aieth_pdi_cache *c, const uint8_t key[32], const char *out,
			  int *hit, aieth_pdi_cache_check *check);
/* The caller hashed every byte of a pending hit and found check->hash,
 * and the xclbin made of them passed its check, CDO command walk included:
 * stamp the entry (a later hit then need neither hash nor walk it), when the file is
 * as it was taken and had not changed for 2 s before (a change within
 * the same time stamp would not show). A failure only loses the stamp. */
void aieth__pdi_cache_checked(const aieth_pdi_cache *c, const uint8_t key[32],
			      const aieth_pdi_cache_check *check);
/* 1 when the entry a hit holds is as it was taken (device, inode, size,
 * modification and change times): a trusted hit's bytes, once copied,
 * are the stamped ones only if nothing changed the entry meanwhile. */
int aieth__pdi_cache_unchanged(const aieth_pdi_cache_check *check);
/* Close what a hit holds (check->held); any check, any number of times. */
void aieth__pdi_cache_release(aieth_pdi_cache_check *check);
/* Remove the entry for key that check describes (and its stamp): its bytes
 * were found not to hash to check->hash (damaged). A new entry renamed in
 * meanwhile under another name stays. */
void aieth__pdi_cache_drop(const aieth_pdi_cache *c, const uint8_t key[32],
			   const aieth_pdi_cache_check *check);

/* Store pdi (a file) under key, then evict down to the bound. A PDI larger
 * than the bound is not stored (AIETH_OK, *stored 0). */
int aieth__pdi_cache_put(const aieth_pdi_cache *c, const uint8_t key[32], const char *pdi,
			 int *stored);

/* Direct mode (a shortcut past hashing the CDOs, as ccache's): the key of
 * a graph archive's state - its resolved path, device, inode, size,
 * modification and change times - with the board, bootgen's identity, the
 * IDCODEs and aieth's version. A memo maps it to the full key computed
 * from the same state. *settled 0: the archive changed within the last 2
 * s (it may change again within the same time stamp): do not remember it.
 * AIETH_ENOTFOUND: graph is not a regular file, or bootgen not found. */
int aieth__pdi_cache_direct_key(const char *graph, const char *board, const char *tool,
				uint32_t id_code, uint32_t ext_id_code, uint8_t dkey[32],
				int *settled);
/* A memo holds an HMAC-SHA256 with the folder's secret (.stamp-key) over
 * its own dkey and the key: memo_get finds (*found 1) only one that
 * verifies, a regular file of ours; any other is a miss. Without a key
 * (c->have_mac 0) no memo is trusted, and memo_put writes none. */
int aieth__pdi_cache_memo_get(const aieth_pdi_cache *c, const uint8_t dkey[32], uint8_t key[32],
			      int *found);
int aieth__pdi_cache_memo_put(const aieth_pdi_cache *c, const uint8_t dkey[32],
			      const uint8_t key[32]);

/* Remove least recently used entries until they total at most max_bytes;
 * also temporary files older than an hour (a writer that died), and memos
 * and stamps whose entry is gone. An entry's use: the later of its own
 * and its stamp's modification times. */
int aieth__pdi_cache_evict(const aieth_pdi_cache *c, uint64_t max_bytes);

#endif
