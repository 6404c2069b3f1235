/* SPDX-License-Identifier: MIT */
/*
 * copy.c - file-to-file copies in the kernel (copy.h). A copy through a
 * user-space buffer costs two CPU copies per byte plus a system call per
 * buffer; a write from a mapping one copy and a page fault per few pages;
 * copy_file_range(2) moves page-cache pages inside the kernel (and
 * reflinks them where the file system shares extents: Btrfs, XFS), so on
 * hosts where copies, faults and system calls are dear (virtual machines,
 * the boards' Cortex-A72) packaging costs what `cp` costs: cp (coreutils
 * 9) copies the same way.
 */
#define _GNU_SOURCE /* copy_file_range */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/copy.h"
#include "util/error.h"
#include "util/fileio.h"

/* One copy_file_range call and one mapping per window: few system calls
 * (one per 8 MiB, the goal is at most one per 128 KiB) and little
 * resident at once. */
#define CR_WINDOW (8u << 20)
/* The last window goes in steps of 1 MiB: what runs beside the copy (the
 * hash, a gate's reader) has only the last step left once the copy ends,
 * not a whole window (seven system calls more per copy). */
#define CR_TAIL_STEP (1u << 20)

/* The length of the window at done of n bytes (the copy and the hasher
 * step alike): windows of 8 MiB; with something beside the copy (beside),
 * the one before the last 8 MiB cut to leave exactly those, and these in
 * steps. */
static uint64_t window_len(uint64_t n, uint64_t done, int beside)
{
	uint64_t left = n - done;
	if (!beside)
		return left < CR_WINDOW ? left : CR_WINDOW;
	if (n <= CR_WINDOW)
		return left;
	if (left > CR_WINDOW)
		return left - CR_WINDOW < CR_WINDOW ? left - CR_WINDOW : CR_WINDOW;
	return left < CR_TAIL_STEP ? left : CR_TAIL_STEP;
}

static atomic_ullong n_reflinked, n_kernel, n_spliced, n_user;

void aieth__copy_stats(aieth_copy_stats *s)
{
	s->reflinked = atomic_load(&n_reflinked);
	s->kernel_copied = atomic_load(&n_kernel);
	s->spliced = atomic_load(&n_spliced);
	s->user_copied = atomic_load(&n_user);
}

/* Hash len bytes of fd at off from its pages (no copy into user memory);
 * -1 when it cannot be mapped (a write-only descriptor). The caller
 * knows the file holds them: a mapping past the end is SIGBUS. */
static int hash_mapped(int fd, uint64_t off, uint64_t len, aieth_hash128 *h)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t base, skip;
	void *m;
	if (pg <= 0)
		return -1;
	base = off / (uint64_t)pg * (uint64_t)pg;
	skip = off - base;
	m = mmap(NULL, (size_t)(skip + len), PROT_READ, MAP_SHARED | MAP_POPULATE, fd, (off_t)base);
	if (m == MAP_FAILED)
		return -1;
	aieth__hash128_update(h, (const uint8_t *)m + skip, (size_t)len);
	munmap(m, (size_t)(skip + len));
	return 0;
}

/* Where the output's offset is not the input's modulo 64 KiB (an xclbin's
 * sections sit at the offsets its header leaves: a PDI at byte 2544),
 * copy_file_range's own 64 KiB pipe writes each piece across folio
 * boundaries into small folios: 64 MiB took 35-45 ms on ext4 (Linux 6.18)
 * where offsets equal modulo 64 KiB took 22-28. Through a pipe of our own
 * of 1 MiB the writes are large (22-28 ms again), two splice calls per
 * MiB, and the input is still never mapped (one others may cut short). */
#define SP_ALIGN ((uint64_t)64 << 10)
#define SP_PIPE (1 << 20)

static void pipe_close(const int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* A pipe of SP_PIPE bytes or more (0), or -1: none to be had (the user's
 * pipe quota, an old kernel), and copy_file_range serves. */
static int pipe_open(int p[2])
{
	if (pipe2(p, O_CLOEXEC))
		return -1;
	if (fcntl(p[1], F_SETPIPE_SZ, SP_PIPE) < SP_PIPE) {
		pipe_close(p);
		return -1;
	}
	return 0;
}

/* Up to n bytes of in at off into the pipe and on to out's position, all
 * of them out of the pipe before it returns: the bytes written (0: the
 * input's end). On an error *err is its errno and *err_out tells whether
 * the output refused them; the pipe may then hold bytes (its owner closes
 * it: they are page references, nothing is lost but the piece's retry). */
static ssize_t pipe_piece(int in, uint64_t off, const int p[2], int out, size_t n, int *err,
			  int *err_out)
{
	loff_t io = (loff_t)off;
	ssize_t r, k, w = 0;
	*err = *err_out = 0;
	do
		r = splice(in, &io, p[1], NULL, n, 0);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		*err = r < 0 ? errno : 0;
		return 0;
	}
	while (w < r) {
		do
			k = splice(p[0], NULL, out, NULL, (size_t)(r - w), 0);
		while (k < 0 && errno == EINTR);
		if (k <= 0) {
			*err = k < 0 ? errno : EIO;
			*err_out = 1;
			break;
		}
		w += k;
	}
	return w;
}

/* The read/write path for what the kernel would not copy (bounded buffer,
 * EINTR and short reads and writes handled by the full helpers). */
static int copy_buffered(int in, uint64_t off, uint64_t n, int out, uint8_t **buf,
			 const char *what_in, const char *what_out)
{
	int rc = AIETH_OK;
	if (!*buf && !(*buf = malloc(AIETH_IO_CHUNK)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what_out);
	while (n && !rc) {
		size_t k = n < AIETH_IO_CHUNK ? (size_t)n : AIETH_IO_CHUNK;
		rc = aieth__pread_full(in, *buf, k, off, what_in);
		if (!rc)
			rc = aieth__write_full(out, *buf, k, what_out);
		atomic_fetch_add(&n_user, (unsigned long long)k);
		off += k, n -= k;
	}
	return rc;
}

/* A window's hash: from the stable input's pages (clean page cache, mapped
 * in large folios: few faults), else the output's (just written: in the
 * page cache, and ours), else read through the buffer. An input others
 * may change is never mapped: cut short under the reader it would be
 * SIGBUS, not an error. */
static int hash_window(int in, uint64_t in_off, int out, uint64_t out_off, uint64_t len,
		       unsigned flags, aieth_hash128 *h, uint8_t **buf, const char *what_in)
{
	int rc = AIETH_OK;
	if ((flags & AIETH_COPY_STABLE) && !hash_mapped(in, in_off, len, h))
		return AIETH_OK;
	if (!hash_mapped(out, out_off, len, h))
		return AIETH_OK;
	if (!*buf && !(*buf = malloc(AIETH_IO_CHUNK)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what_in);
	while (len && !rc) {
		size_t k = len < AIETH_IO_CHUNK ? (size_t)len : AIETH_IO_CHUNK;
		rc = aieth__pread_full(in, *buf, k, in_off, what_in);
		if (!rc)
			aieth__hash128_update(h, *buf, k);
		atomic_fetch_add(&n_user, (unsigned long long)k);
		in_off += k, len -= k;
	}
	return rc;
}

/* The hash runs beside the copy, in a thread: the kernel copies window
 * i + 1 while window i is hashed from the page cache (a stable input's
 * windows are all there at once). On two cores a warm hit then costs the
 * copy, not the copy plus the hash. */
typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t ready;  /* bytes copied so far (the stable input: all) */
	int stop;        /* the copy failed: leave */
	int failed;      /* a window could not be mapped: the caller hashes */
	int fd;          /* what is hashed: the input, or the output */
	uint64_t fd_off; /* where the range starts in fd */
	uint64_t n;
	aieth_hash128 h; /* the caller's state, updated here */
} hasher;

static void *hash_thread(void *arg)
{
	hasher *t = arg;
	uint64_t done = 0;
	int stop;
	while (done < t->n) {
		uint64_t len = window_len(t->n, done, 1);
		pthread_mutex_lock(&t->mu);
		while (!t->stop && t->ready < done + len)
			pthread_cond_wait(&t->cv, &t->mu);
		stop = t->stop;
		pthread_mutex_unlock(&t->mu);
		if (stop)
			return NULL;
		if (hash_mapped(t->fd, t->fd_off + done, len, &t->h)) {
			t->failed = 1;
			return NULL;
		}
		done += len;
	}
	return NULL;
}

static void hasher_post(hasher *t, uint64_t ready, int stop)
{
	pthread_mutex_lock(&t->mu);
	t->ready = ready;
	t->stop |= stop;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

/* Start the hasher (0), with every signal blocked in it: signals stay
 * with the caller's thread. */
static int hasher_start(hasher *t, pthread_t *th, int fd, uint64_t fd_off, uint64_t n,
			uint64_t ready, const aieth_hash128 *h)
{
	sigset_t all, old;
	int rc;
	memset(t, 0, sizeof *t);
	t->fd = fd, t->fd_off = fd_off, t->n = n, t->ready = ready, t->h = *h;
	if (pthread_mutex_init(&t->mu, NULL))
		return -1;
	if (pthread_cond_init(&t->cv, NULL)) {
		pthread_mutex_destroy(&t->mu);
		return -1;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(th, NULL, hash_thread, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
		return -1;
	}
	return 0;
}

/* Wait for the hasher; 0 when it hashed every byte into *h. */
static int hasher_join(hasher *t, pthread_t th, aieth_hash128 *h)
{
	int ok;
	pthread_join(th, NULL);
	ok = !t->stop && !t->failed;
	if (ok)
		*h = t->h;
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	return ok ? 0 : -1;
}

/* The gate (copy.h): the copy's progress under a lock, and the reader's
 * window of the output, mapped from the reader's thread alone. */
struct aieth_copy_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int started, ended; /* under mu */
	int fd;             /* the output, set before started */
	uint64_t base, n;   /* the range in fd, set before started */
	uint64_t ready;     /* bytes of it written (under mu) */
	/* the reader's: its window of fd [mbase, mbase + mlen), and whether a
	 * read failed (read by the owner after the join) */
	const uint8_t *map;
	uint64_t mbase, mlen;
	int read_failed;
};

aieth_copy_gate *aieth__copy_gate_new(void)
{
	aieth_copy_gate *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	if (pthread_mutex_init(&g->mu, NULL)) {
		free(g);
		return NULL;
	}
	if (pthread_cond_init(&g->cv, NULL)) {
		pthread_mutex_destroy(&g->mu);
		free(g);
		return NULL;
	}
	g->fd = -1;
	return g;
}

void aieth__copy_gate_free(aieth_copy_gate *g)
{
	if (!g)
		return;
	if (g->map)
		munmap((void *)g->map, (size_t)g->mlen);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

/* 0 when this copy starts the gate (a gate serves one copy). */
static int gate_start(aieth_copy_gate *g, int fd, uint64_t base, uint64_t n)
{
	int mine;
	pthread_mutex_lock(&g->mu);
	mine = !g->started && !g->ended;
	if (mine) {
		g->fd = fd, g->base = base, g->n = n;
		g->started = 1;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
	return mine ? 0 : -1;
}

static void gate_post(aieth_copy_gate *g, uint64_t ready)
{
	pthread_mutex_lock(&g->mu);
	g->ready = ready;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

void aieth__copy_gate_end(aieth_copy_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->ended = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

int aieth__copy_gate_size(aieth_copy_gate *g, uint64_t *n)
{
	int ok;
	pthread_mutex_lock(&g->mu);
	while (!g->started && !g->ended)
		pthread_cond_wait(&g->cv, &g->mu);
	ok = g->started;
	*n = g->n;
	pthread_mutex_unlock(&g->mu);
	return ok ? 0 : -1;
}

int aieth__copy_gate_read(void *ctx, void *buf, size_t n, uint64_t off)
{
	aieth_copy_gate *g = ctx;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t ready, at;
	void *m;
	if (off > g->n || n > g->n - off) {
		g->read_failed = 1;
		return aieth__fail(AIETH_EINVAL, "%zu bytes at offset %llu: beyond the copy", n,
				   (unsigned long long)off);
	}
	pthread_mutex_lock(&g->mu);
	while (!g->ended && g->ready < off + n)
		pthread_cond_wait(&g->cv, &g->mu);
	ready = g->ready;
	pthread_mutex_unlock(&g->mu);
	if (ready < off + n || pg <= 0) {
		g->read_failed = 1;
		return aieth__fail(AIETH_EIO, "the copy ended at byte %llu, before byte %llu",
				   (unsigned long long)ready, (unsigned long long)(off + n));
	}
	at = g->base + off;
	if (!g->map || at < g->mbase || at + n > g->mbase + g->mlen) {
		if (g->map)
			munmap((void *)g->map, (size_t)g->mlen);
		g->map = NULL;
		/* only written bytes are mapped (a page past the file's end
		 * would be SIGBUS); not populated: a reader such as the CDO
		 * walk touches only some pages, and the hasher populates its
		 * own mapping of the same pages already */
		g->mbase = at / (uint64_t)pg * (uint64_t)pg;
		g->mlen = g->base + ready - g->mbase < CR_WINDOW ? g->base + ready - g->mbase
								 : CR_WINDOW;
		if (at + n > g->mbase + g->mlen) { /* larger than a window */
			g->read_failed = aieth__pread_full(g->fd, buf, n, at, "the copy's output");
			return g->read_failed;
		}
		m = mmap(NULL, (size_t)g->mlen, PROT_READ, MAP_SHARED, g->fd, (off_t)g->mbase);
		if (m == MAP_FAILED) {
			g->read_failed = 1;
			return aieth__fail(AIETH_EIO, "the copy's output: cannot map: %s",
					   strerror(errno));
		}
		g->map = m;
	}
	memcpy(buf, g->map + (at - g->mbase), n);
	return 0;
}

int aieth__copy_gate_result(const aieth_copy_gate *g, uint64_t *base, uint64_t *n)
{
	*base = g->base;
	*n = g->n;
	return g->started && g->ready == g->n && !g->read_failed ? 0 : -1;
}

/* A reflink of the range when both offsets are on block boundaries and
 * the length is too or reaches the input's end (the file systems'
 * rule); 0 when done. Any refusal (ext4, another file system, unaligned)
 * just means a copy. */
static int try_clone(int in, uint64_t off, uint64_t n, int out, uint64_t pos, const struct stat *si,
		     const struct stat *so)
{
	uint64_t bs = so->st_blksize > 0 ? (uint64_t)so->st_blksize : 4096;
	struct file_clone_range r;
	if (off % bs || pos % bs || (n % bs && off + n != (uint64_t)si->st_size))
		return -1;
	if (!off && !pos && !so->st_size && n == (uint64_t)si->st_size)
		return ioctl(out, FICLONE, in) == 0 ? 0 : -1;
	memset(&r, 0, sizeof r);
	r.src_fd = in;
	r.src_offset = off;
	r.src_length = n;
	r.dest_offset = pos;
	return ioctl(out, FICLONERANGE, &r) == 0 ? 0 : -1;
}

/* copy_file_range cannot serve these descriptors (another file system
 * before Linux 5.19, a kernel or file system without it, an O_APPEND
 * output): the read/write path copies, and reports any real error. */
static int falls_back(int e)
{
	return e == EXDEV || e == ENOSYS || e == EOPNOTSUPP || e == ENOTSUP || e == EINVAL ||
	       e == EBADF || e == EPERM || e == ETXTBSY;
}

static int copy_range(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, unsigned flags,
		      const char *what_in, const char *what_out, aieth_copy_gate *g)
{
	struct stat si, so;
	off_t pos;
	uint64_t done = 0;
	uint8_t *buf = NULL;
	int kernel = 1, cloned = 0, threaded = 0, rc = AIETH_OK, pfd[2] = {-1, -1};
	int piped = 0;
	hasher ht;
	pthread_t th;
	if (!n)
		return AIETH_OK;
	/* an output that is no regular file cannot be mapped: the gate is not
	 * started (its reader is told when the owner ends it) */
	if (fstat(in, &si) != 0 || fstat(out, &so) != 0 || !S_ISREG(si.st_mode) ||
	    !S_ISREG(so.st_mode) || (pos = lseek(out, 0, SEEK_CUR)) < 0) {
		atomic_fetch_add(&n_user, (unsigned long long)n);
		return aieth__copy(in, off, n, out, h, what_in, what_out);
	}
	/* a short input is an error before anything is mapped (SIGBUS) */
	if ((uint64_t)si.st_size < off || (uint64_t)si.st_size - off < n)
		return aieth__fail(AIETH_EIO, "%s: %llu bytes, expected at least %llu", what_in,
				   (unsigned long long)si.st_size, (unsigned long long)(off + n));
	if (g && gate_start(g, out, (uint64_t)pos, n))
		g = NULL;
	if (!try_clone(in, off, n, out, (uint64_t)pos, &si, &so)) {
		if (lseek(out, pos + (off_t)n, SEEK_SET) < 0)
			return aieth__fail(AIETH_EIO, "%s: seek error: %s", what_out,
					   strerror(errno));
		atomic_fetch_add(&n_reflinked, (unsigned long long)n);
		cloned = 1;
	}
	/* (a copy within one of copy_file_range's 64 KiB pieces gains nothing
	 * from a pipe of its own: three system calls more) */
	if (!cloned && n > SP_ALIGN && (uint64_t)pos % SP_ALIGN != off % SP_ALIGN)
		piped = !pipe_open(pfd);
	/* more than one window: hashed beside the copy (a thread that cannot
	 * start, or a window it cannot map, leaves it to this thread) */
	if (h && n > CR_WINDOW)
		threaded = !hasher_start(&ht, &th, (flags & AIETH_COPY_STABLE) ? in : out,
					 (flags & AIETH_COPY_STABLE) ? off : (uint64_t)pos, n,
					 (flags & AIETH_COPY_STABLE) ? n : 0, h);
	while (done < n && !rc) {
		uint64_t len = window_len(n, done, threaded || g), got = cloned ? len : 0;
		while (got < len && piped) {
			int e, e_out;
			ssize_t r = pipe_piece(in, off + done + got, pfd, out,
					       len - got < SP_PIPE ? (size_t)(len - got) : SP_PIPE,
					       &e, &e_out);
			got += (uint64_t)r;
			atomic_fetch_add(&n_kernel, (unsigned long long)r);
			atomic_fetch_add(&n_spliced, (unsigned long long)r);
			if (!e && r)
				continue;
			if (e) { /* copy_file_range or the read path goes on */
				pipe_close(pfd);
				piped = 0;
				if (!falls_back(e))
					rc = aieth__fail(AIETH_EIO, "%s: %s error: %s",
							 e_out ? what_out : what_in,
							 e_out ? "write" : "read", strerror(e));
			}
			break; /* (no error: the input's end, the read path tells) */
		}
		while (!rc && got < len && kernel) {
			loff_t io = (loff_t)(off + done + got);
			ssize_t r = copy_file_range(in, &io, out, NULL, (size_t)(len - got), 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && falls_back(errno)) {
				kernel = 0;
				break;
			}
			if (r < 0) {
				rc = aieth__fail(AIETH_EIO, "%s: write error: %s", what_out,
						 strerror(errno));
				break;
			}
			if (r == 0) /* the input's end, or a file system that copies
				     * nothing: the read path tells which */
				break;
			got += (uint64_t)r;
			atomic_fetch_add(&n_kernel, (unsigned long long)r);
		}
		if (!rc && got < len)
			rc = copy_buffered(in, off + done + got, len - got, out, &buf, what_in,
					   what_out);
		if (!rc && h && !threaded)
			rc = hash_window(in, off + done, out, (uint64_t)pos + done, len, flags, h,
					 &buf, what_in);
		done += len;
		if (threaded)
			hasher_post(&ht, done, rc != AIETH_OK); /* on an error: stop */
		if (g && !rc)
			gate_post(g, done);
	}
	if (threaded && hasher_join(&ht, th, h) && !rc)
		for (done = 0; done < n && !rc; done += CR_WINDOW)
			rc = hash_window(in, off + done, out, (uint64_t)pos + done,
					 n - done < CR_WINDOW ? n - done : CR_WINDOW, flags, h,
					 &buf, what_in);
	if (piped)
		pipe_close(pfd);
	free(buf);
	return rc;
}

int aieth__copy_range_gated(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h,
			    unsigned flags, const char *what_in, const char *what_out,
			    aieth_copy_gate *g)
{
	int rc = copy_range(in, off, n, out, h, flags, what_in, what_out, g);
	if (g) /* done, or failed: a waiting reader returns */
		aieth__copy_gate_end(g);
	return rc;
}

int aieth__copy_range(int in, uint64_t off, uint64_t n, int out, aieth_hash128 *h, unsigned flags,
		      const char *what_in, const char *what_out)
{
	return copy_range(in, off, n, out, h, flags, what_in, what_out, NULL);
}
