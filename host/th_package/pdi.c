/* SPDX-License-Identifier: MIT */
/*
 * pdi.c - PDI facts and the bootgen step (UG1076, UG1283 bootgen: the AIE
 * PDI is a bootgen image of the aiecompiler's CDOs; with deferred AIE
 * start the core-enable CDO is left out by the caller). The rules a PDI
 * and a CDO header must meet live in xclbin/xclbin_pdi.c, where th_package
 * check applies them to the PDI section; the packager's inputs and output
 * go through the same code.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "th_package/pdi.h"
#include "th_package/spawn.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"
#include "xclbin/xclbin_format.h"

#define IHT_BYTES 128u
#define IHT_IDCODE 0x18u
#define IHT_EXT_IDCODE 0x44u
#define IHT_ID_STRING 0x28u
#define IHT_CHECKSUM 0x7cu

int aieth__pdi_idcode(const uint8_t *buf, size_t len, uint32_t *id_code, uint32_t *ext_id_code)
{
	size_t off, k;
	uint32_t sum;
	for (off = 0; off + IHT_BYTES <= len; off += 4) {
		const uint8_t *t = buf + off;
		/* the id string reads "IDP?" in file order ("PPDI"/"FPDI" as a word) */
		if (t[IHT_ID_STRING] != 'I' || t[IHT_ID_STRING + 1] != 'D' ||
		    t[IHT_ID_STRING + 2] != 'P')
			continue;
		for (sum = 0, k = 0; k < IHT_CHECKSUM; k += 4)
			sum += aieth__le32_get(t + k);
		if (~sum != aieth__le32_get(t + IHT_CHECKSUM))
			continue;
		*id_code = aieth__le32_get(t + IHT_IDCODE);
		*ext_id_code = aieth__le32_get(t + IHT_EXT_IDCODE);
		return AIETH_OK;
	}
	return AIETH_ENOTFOUND;
}

int aieth__pdi_file_idcode(const char *path, uint32_t *id_code, uint32_t *ext_id_code)
{
	uint8_t head[AIETH_PDI_SCAN_BYTES];
	ssize_t got;
	int fd, rc;
	if ((rc = aieth__open_input(path, &fd, NULL)))
		return rc;
	got = read(fd, head, sizeof head);
	close(fd);
	if (got <= 0)
		return AIETH_ENOTFOUND;
	return aieth__pdi_idcode(head, (size_t)got, id_code, ext_id_code);
}

typedef struct {
	int fd;
	const char *path;
} pdi_file;

static int read_pdi_file(void *ctx, void *buf, size_t n, uint64_t off)
{
	const pdi_file *f = ctx;
	return aieth__pread_full(f->fd, buf, n, off, f->path);
}

int aieth__pdi_file_check(const char *path, const aieth_board *board, unsigned flags,
			  aieth_problem_fn report, void *ctx, size_t *problems)
{
	pdi_file f = {-1, path};
	struct stat st;
	int rc;
	*problems = 0;
	if ((rc = aieth__open_input(path, &f.fd, &st)))
		return rc;
	*problems = aieth__pdi_check(read_pdi_file, &f, (uint64_t)st.st_size, path, board, report,
				     ctx, flags);
	close(f.fd);
	return AIETH_OK;
}

/* bootgen's messages without its banner, joined with "; ". */
static void log_summary(const char *log_path, char *out, size_t cap)
{
	FILE *f = fopen(log_path, "r");
	char line[512];
	size_t n = 0;
	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof line, f) && n + 4 < cap) {
		char *s = line, *e;
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
			*--e = '\0';
		if (!*s || *s == '*' || !strncmp(s, "[INFO]", 6))
			continue;
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "; " : "", s);
	}
	fclose(f);
	if (n >= cap)
		out[cap - 1] = '\0';
}

/* Paths go into the BIF unquoted: refuse characters its grammar would split. */
static int bif_safe(const char *p)
{
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("/._-+", *p)))
			return 0;
	return 1;
}

static int write_bif(const aieth_pdi_build_opts *o, const char *bif)
{
	FILE *f;
	size_t i;
	for (i = 0; i < o->num_cdos; i++)
		if (!bif_safe(o->cdos[i]))
			return aieth__fail(AIETH_EINVAL,
					   "CDO path \"%s\": bootgen's BIF cannot hold "
					   "it (allowed: letters, digits, / . _ - +)",
					   o->cdos[i]);
	/* in a scratch folder, yet never through a link at the name */
	{
		int fd = open(bif, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return aieth__fail(AIETH_EIO, "%s: cannot create: %s", bif, strerror(e));
		}
	}
	fprintf(f,
		"all:\n{\n  id_code = 0x%08x\n  extended_id_code = 0x%02x\n  image\n  {\n"
		"    name=aie_image, id=0x1c000000\n    { type=cdo\n",
		(unsigned)o->id_code, (unsigned)o->ext_id_code);
	for (i = 0; i < o->num_cdos; i++)
		fprintf(f, "      file=%s\n", o->cdos[i]);
	fprintf(f, "    }\n  }\n}\n");
	if (fclose(f) != 0)
		return aieth__fail(AIETH_EIO, "%s: write error", bif);
	return AIETH_OK;
}

int aieth__pdi_build(const aieth_pdi_build_opts *o, aieth_pdi_build_result *r)
{
	const char *tool = o->bootgen && *o->bootgen ? o->bootgen : "bootgen";
	char *bif = NULL, *log = NULL, msg[1200];
	char *argv[9];
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int rc, st = 0, e;
	uint32_t id, ext;
	int have_key = 0;
	uint8_t *key = r->cache_key;
	double t0;

	memset(r, 0, sizeof *r);
	if (!o->num_cdos)
		return aieth__fail(AIETH_EINVAL, "bootgen: no CDO files to put in the PDI");
	if (!bif_safe(o->output) || !bif_safe(o->work_dir))
		return aieth__fail(AIETH_EINVAL,
				   "bootgen: work directory \"%s\" or output \"%s\" "
				   "has characters a BIF cannot hold",
				   o->work_dir, o->output);
	bif = aieth__path_join(o->work_dir, "aie.bif");
	log = aieth__path_join(o->work_dir, "bootgen.log");
	if (!bif || !log) {
		rc = aieth__fail(AIETH_ENOMEM, "bootgen: out of memory");
		goto out;
	}
	if ((rc = write_bif(o, bif)))
		goto out;
	argv[0] = (char *)tool;
	argv[1] = "-arch";
	argv[2] = (char *)(o->arch && *o->arch ? o->arch : "versal");
	argv[3] = "-image";
	argv[4] = bif;
	argv[5] = "-o";
	argv[6] = (char *)o->output;
	argv[7] = "-w";
	argv[8] = NULL;
	/* the PDI cache (pdi_cache.h): a hit skips bootgen; no key (bootgen not
	 * found) leaves bootgen to report that */
	if (o->cache) {
		t0 = aieth__pkg_now_s();
		have_key = aieth__pdi_cache_key(tool, (const char *const *)argv, bif, o->output,
						o->cdos, o->num_cdos, key) == AIETH_OK;
		if (have_key && !o->cache_store_only &&
		    (rc = aieth__pdi_cache_take(o->cache, key, o->output, &r->from_cache,
						o->defer_check ? &r->cache_check : NULL)))
			goto out;
		r->cache_seconds = aieth__pkg_now_s() - t0;
		r->have_key = have_key;
		aieth__error_clear();
		/* a hit must read back as bootgen's PDI must; one that does not
		 * is a damaged entry (its content hash, when the caller checks
		 * it, could not have matched; its stamp, when it has one, was
		 * made of other bytes): removed, and bootgen runs */
		if (r->from_cache && !aieth__pdi_file_idcode(o->output, &id, &ext) &&
		    id == o->id_code && ext == o->ext_id_code) {
			rc = AIETH_OK;
			goto out;
		}
		if (r->from_cache) {
			aieth__pdi_cache_drop(o->cache, key, &r->cache_check);
			aieth__pdi_cache_release(&r->cache_check);
			memset(&r->cache_check, 0, sizeof r->cache_check);
			r->cache_check.fd = -1;
			r->from_cache = 0;
			unlink(o->output);
			aieth__error_clear();
		}
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
					 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	t0 = aieth__pkg_now_s();
	e = aieth__pkg_spawn(&pid, tool, argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	if (e) {
		r->tool_failed = 1;
		rc = aieth__fail(AIETH_EUNSUPPORTED,
				 "cannot run %s: %s (install the Debian package "
				 "xilinx-bootgen, or name the program with --bootgen)",
				 tool, strerror(e));
		goto out;
	}
	for (;;) {
		pid_t w = wait4(pid, &st, WNOHANG, &ru);
		struct timespec nap = {0, 20 * 1000 * 1000};
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			r->tool_failed = 1;
			rc = aieth__fail(AIETH_EIO, "%s: wait failed: %s", tool, strerror(errno));
			aieth__pkg_kill_group(pid);
			goto out;
		}
		if (o->cancel && *o->cancel) {
			aieth__pkg_kill_group(pid);
			r->interrupted = 1;
			rc = aieth__fail(AIETH_ESTATE, "interrupted while %s ran (stopped it)",
					 tool);
			goto out;
		}
		if (o->timeout_s > 0 && aieth__pkg_now_s() - t0 >= o->timeout_s) {
			aieth__pkg_kill_group(pid);
			r->tool_failed = 1;
			r->timed_out = 1;
			r->seconds = aieth__pkg_now_s() - t0;
			rc = aieth__fail(AIETH_ETIMEOUT,
					 "%s still running after its time limit of %g s "
					 "(--bootgen-timeout): killed it",
					 tool, o->timeout_s);
			goto out;
		}
		nanosleep(&nap, NULL);
	}
	r->seconds = aieth__pkg_now_s() - t0;
	r->maxrss_kib = ru.ru_maxrss;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		r->tool_failed = 1;
		log_summary(log, msg, sizeof msg);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			rc = aieth__fail(AIETH_EUNSUPPORTED,
					 "cannot run %s (exit 127: not found; "
					 "install the Debian package xilinx-bootgen): %s",
					 tool, msg);
		else if (WIFEXITED(st))
			rc = aieth__fail(AIETH_EIO, "%s failed (exit %d): %s", tool,
					 WEXITSTATUS(st), msg[0] ? msg : "no message");
		else
			rc = aieth__fail(AIETH_EIO, "%s was killed by signal %d", tool,
					 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		goto out;
	}
	/* bootgen exits 0 after some errors: trust only a PDI that reads back */
	if (aieth__pdi_file_idcode(o->output, &id, &ext) != AIETH_OK) {
		r->tool_failed = 1;
		log_summary(log, msg, sizeof msg);
		rc = aieth__fail(AIETH_EIO, "%s wrote no readable PDI %s: %s", tool, o->output,
				 msg[0] ? msg : "no message");
		goto out;
	}
	if (id != o->id_code || ext != o->ext_id_code) {
		r->tool_failed = 1;
		rc = aieth__fail(AIETH_EIO,
				 "%s: the PDI has IDCODE 0x%08x/0x%02x, expected "
				 "0x%08x/0x%02x",
				 tool, (unsigned)id, (unsigned)ext, (unsigned)o->id_code,
				 (unsigned)o->ext_id_code);
		goto out;
	}
	if (have_key && !r->from_cache) {
		t0 = aieth__pkg_now_s();
		if (aieth__pdi_cache_put(o->cache, key, o->output, &r->cache_stored))
			aieth__error_clear(); /* the PDI is good; only the cache missed it */
		r->cache_seconds += aieth__pkg_now_s() - t0;
	}
	rc = AIETH_OK;
out:
	free(bif);
	free(log);
	return rc;
}
