/* SPDX-License-Identifier: MIT */
/*
 * run_texts.c - text data (aiesimulator-style TX and golden files) converted
 * once per description's run, not at every point of a sweep, every repeat
 * and every check: the binary of each file kept in memory, keyed by its
 * path, element type, device, inode, size and modification time (a file
 * changed on disk is converted again). Bounded: RN_TEXTS_MAX_BYTES and
 * RN_TEXTS_MAX_FILES in all; a file past them is converted into a scratch
 * file at each use, as without the cache.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "data/data.h"
#include "runner/run_internal.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

typedef struct {
	char *path;
	aieth_elem type;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	uint8_t *data;
	uint64_t len;
} text_entry;

struct rn_texts {
	text_entry e[RN_TEXTS_MAX_FILES];
	size_t n;
	uint64_t bytes; /* held in all */
};

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static int matches(const text_entry *e, const char *path, aieth_elem type, const struct stat *st)
{
	return e->type == type && !strcmp(e->path, path) && e->dev == st->st_dev &&
	       e->ino == st->st_ino && e->size == st->st_size &&
	       e->mtime.tv_sec == st->st_mtim.tv_sec && e->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static void drop(rn_texts *t, size_t i)
{
	t->bytes -= t->e[i].len;
	free(t->e[i].path);
	free(t->e[i].data);
	t->e[i] = t->e[--t->n];
}

/* The file as it is now, opened the way every input is (a regular file). */
static int stat_input(const char *path, struct stat *st)
{
	int fd = -1, rc = aieth__open_input(path, &fd, st);
	if (!rc)
		close(fd);
	return rc;
}

/* Keep the converted bytes of the scratch file fd (len of them) when the
 * bounds allow and the file did not change while it was converted; 1 when
 * kept (*out then points at them), 0 when not. */
static int keep(rn_texts *t, const char *path, aieth_elem type, const struct stat *before, int fd,
		uint64_t len, const uint8_t **out)
{
	struct stat after;
	text_entry *e;
	if (t->n == RN_TEXTS_MAX_FILES || len > RN_TEXTS_MAX_BYTES - t->bytes || !len ||
	    stat_input(path, &after) || !same_file(before, &after))
		return 0;
	e = &t->e[t->n];
	memset(e, 0, sizeof *e);
	if (!(e->path = aieth__strdup(path)) || !(e->data = malloc((size_t)len)) ||
	    aieth__pread_full(fd, e->data, (size_t)len, 0, path)) {
		free(e->path);
		free(e->data);
		aieth__error_clear(); /* not kept: the scratch file serves */
		return 0;
	}
	e->type = type;
	e->dev = before->st_dev;
	e->ino = before->st_ino;
	e->size = before->st_size;
	e->mtime = before->st_mtim;
	e->len = len;
	t->n++;
	t->bytes += len;
	*out = e->data;
	return 1;
}

int aieth__rn_texts_open(rn_texts **tp, const char *path, aieth_elem type, aieth_src *src, int *fd)
{
	rn_texts *t = *tp;
	struct stat st;
	const uint8_t *mem = NULL;
	uint64_t len = 0;
	size_t i;
	int rc;
	src->what = path;
	if ((rc = stat_input(path, &st)))
		return rc;
	for (i = 0; t && i < t->n; i++) {
		if (strcmp(t->e[i].path, path) || t->e[i].type != type)
			continue;
		if (matches(&t->e[i], path, type, &st)) {
			src->kind = AIETH_SRC_MEM;
			src->mem = t->e[i].data;
			src->len = t->e[i].len;
			return AIETH_OK;
		}
		drop(t, i); /* changed on disk since */
		break;
	}
	if (!t && (t = *tp = calloc(1, sizeof *t)) == NULL)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	/* parsed in chunks into a scratch file: memory stays bounded whatever
	 * the text's size, then kept whole when it fits the bounds */
	if ((rc = aieth__open_scratch(fd)) ||
	    (rc = aieth__text_convert(path, type, MAX_DATA_BYTES, *fd, &len)))
		return rc;
	if (keep(t, path, type, &st, *fd, len, &mem)) {
		close(*fd);
		*fd = -1;
		src->kind = AIETH_SRC_MEM;
		src->mem = mem;
	} else {
		src->kind = AIETH_SRC_FILE;
		src->fd = *fd;
	}
	src->len = len;
	return AIETH_OK;
}

void aieth__rn_texts_free(rn_texts *t)
{
	while (t && t->n)
		drop(t, t->n - 1);
	free(t);
}
