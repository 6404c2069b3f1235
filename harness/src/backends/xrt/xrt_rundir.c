/* SPDX-License-Identifier: MIT */
/*
 * xrt_rundir.c - the session folder of an xrt session with an xrt.ini.
 *
 * XRT reads its configuration from the file XRT_INI_PATH names, else from
 * xrt.ini beside the executable, else from xrt.ini in the current working
 * folder (Xilinx/XRT, src/runtime_src/core/common/config_reader.cpp,
 * get_ini_path; from XRT 2.25 a process with euid 0 skips XRT_INI_PATH and
 * the working folder). Its trace, profile and status writers open their
 * files by plain name, so in the working folder (Xilinx/XRT,
 * src/runtime_src/xdp/profile/writer/vp_base/vp_writer.cpp, unless
 * Debug.profiling_directory says otherwise). The child process therefore
 * works in a folder of its own, with XRT_INI_PATH naming the xrt.ini
 * there (xrt_proc.c), and what XRT wrote there is collected at close.
 *
 * The folder is made inside the artifacts folder, so collecting is a
 * rename (a trace can be large) and a folder left by a crash is found
 * beside the files. Its name starts with '.', which no artifact name does.
 *
 * An xrt.ini may come from a th_server client, who may use the board and
 * nothing more: only the sections and keys that configure XRT's AIE
 * trace, profile, status and debug output are passed, and no value that
 * is a path (XRT's Debug.dtrace_lib_path loads a library,
 * Debug.profiling_directory and Runtime.runtime_log name files anywhere).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/xrt/xrt_rundir.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"
#include "util/sbuf.h"

#define INI_MAX ((size_t)1 << 20) /* th_server's limit, run_test's too */
#define NAMES_MAX 4096            /* entries looked at in the folder */

/* The sections passed to XRT: config_reader.h's keys for AIE trace,
 * profile, status and debug live in [Debug] and these. */
static const char *const sections[] = {"Debug", "AIE_trace_settings", "AIE_profile_settings",
				       "AIE_debug_settings", NULL};
/* [Debug] keys whose values are paths or libraries (config_reader.h) */
static const char *const refused_keys[] = {"profiling_directory", "dtrace_lib_path",
					   "dtrace_control_file_path", NULL};

static int in_list(const char *const *list, const char *s, size_t n)
{
	size_t i;
	for (i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !memcmp(list[i], s, n))
			return 1;
	return 0;
}

static const char *trim(const char *s, const char *e, const char **end)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*end = e;
	return s;
}

/* The xrt.ini XRT reads: text's lines as they are when allowed, else as a
 * comment saying why not. */
static void filter_ini(sbuf *o, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char section[64] = "";
	int allowed = 0;

	aieth__sb_printf(o,
			 "; the session's xrt.ini as XRT reads it: only the sections %s, %s, "
			 "%s and %s, and no path (aieth, docs/on-board.md)\n",
			 sections[0], sections[1], sections[2], sections[3]);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s, *e;
		s = trim(p, le, &e);
		if (s == e || *s == ';' || *s == '#') {
			aieth__sb_printf(o, "%.*s\n", (int)(e - s), s);
		} else if (*s == '[') {
			const char *ce = memchr(s, ']', (size_t)(e - s));
			size_t n = ce ? (size_t)(ce - s - 1) : 0;
			allowed = ce && in_list(sections, s + 1, n);
			snprintf(section, sizeof section, "%.*s", (int)(n < 63 ? n : 63), s + 1);
			if (allowed)
				aieth__sb_printf(o, "[%s]\n", section);
			else
				aieth__sb_printf(o,
						 "; not passed to XRT: the section %.*s and its "
						 "keys\n",
						 (int)(e - s > 80 ? 80 : e - s), s);
		} else {
			const char *eq = memchr(s, '=', (size_t)(e - s)), *ke, *ve;
			const char *k = s, *v = eq ? eq + 1 : e;
			ke = eq ? eq : e;
			k = trim(k, ke, &ke);
			v = trim(v, e, &ve);
			if (!allowed) {
				if (section[0])
					aieth__sb_printf(o, "; not passed to XRT: %s.%.*s\n",
							 section, (int)(ke - k > 80 ? 80 : ke - k),
							 k);
				else
					aieth__sb_printf(o,
							 "; not passed to XRT: a line before any "
							 "section\n");
			} else if (!eq) {
				aieth__sb_printf(o, "; not passed to XRT: a line without '='\n");
			} else if (in_list(refused_keys, k, (size_t)(ke - k))) {
				aieth__sb_printf(o,
						 "; not passed to XRT: %s.%.*s (a path or a "
						 "library)\n",
						 section, (int)(ke - k), k);
			} else if (memchr(v, '/', (size_t)(ve - v)) ||
				   memchr(v, '\\', (size_t)(ve - v))) {
				aieth__sb_printf(o,
						 "; not passed to XRT: %s.%.*s (its value is a "
						 "path)\n",
						 section, (int)(ke - k), k);
			} else {
				aieth__sb_printf(o, "%.*s=%.*s\n", (int)(ke - k), k, (int)(ve - v),
						 v);
			}
		}
		p = nl ? nl + 1 : end;
	}
}

int aieth__xrt_rundir_open(const char *xrt_ini, const char *artifacts_dir, char **dir)
{
	/* the client's lines and a comment for each one dropped */
	sbuf o = SB_INIT(4 * INI_MAX);
	char *text = NULL, *tmpl = NULL, *ini = NULL;
	size_t len = 0;
	int rc;

	*dir = NULL;
	if (!artifacts_dir)
		return aieth__fail(AIETH_EINVAL,
				   "xrt: xrt_ini %s: XRT's files need an artifacts "
				   "folder (artifacts_dir) to land in",
				   xrt_ini);
	if ((rc = aieth__read_file(xrt_ini, INI_MAX, &text, &len)))
		return aieth__fail_prefix(rc, "xrt_ini");
	if (memchr(text, '\0', len)) {
		free(text);
		return aieth__fail(AIETH_EINVAL, "xrt_ini %s: has a NUL byte (an xrt.ini is text)",
				   xrt_ini);
	}
	filter_ini(&o, text, len);
	free(text);
	/* made by the run in an output folder others may write: never a link
	 * (XRT's files are moved into it by name) */
	{
		int afd;
		if ((rc = aieth__subdir_open_path(artifacts_dir, &afd)))
			goto out;
		close(afd);
	}
	if (!(tmpl = aieth__path_join(artifacts_dir, ".xrt-run-XXXXXX"))) {
		rc = aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
		goto out;
	}
	if (!mkdtemp(tmpl)) {
		rc = aieth__fail(AIETH_EIO, "%s: cannot create XRT's session folder there (%s)",
				 artifacts_dir, strerror(errno));
		goto out;
	}
	if (!(ini = aieth__path_join(tmpl, "xrt.ini"))) {
		rc = aieth__fail(AIETH_ENOMEM, "xrt: out of memory");
	} else if ((rc = aieth__sb_write_file(&o, ini))) {
		;
	} else {
		*dir = tmpl;
		tmpl = NULL;
	}
	if (tmpl)
		aieth__remove_tree(tmpl);
out:
	free(ini);
	free(tmpl);
	free(aieth__sb_take(&o));
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Why files were left out, one sentence per file, bounded. */
static void note(char *why, size_t cap, const char *name, const char *reason)
{
	size_t n = strlen(why);
	if (n + 80 >= cap)
		return;
	snprintf(why + n, cap - n, "%sXRT's file \"%.80s\" %s", n ? "; " : "", name, reason);
}

void aieth__xrt_rundir_collect(const aieth_dev_config *cfg, const char *artifacts_dir,
			       uint64_t max_bytes, const char *dir)
{
	uint64_t max = max_bytes ? max_bytes : AIETH_ARTIFACTS_BYTES_DEFAULT;
	uint64_t used = 0;
	char *names[NAMES_MAX];
	char why[1024] = "";
	size_t n = 0, i, kept = 0;
	int sfd, dfd = -1;
	DIR *d;
	struct dirent *e;

	if (!dir)
		return;
	sfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd >= 0)
		dfd = open(artifacts_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd >= 0 && dfd < 0)
		snprintf(why, sizeof why,
			 "the artifacts folder %.200s cannot be opened (%s; a symbolic link "
			 "there is never followed): XRT's files not kept",
			 artifacts_dir, strerror(errno));
	d = sfd >= 0 ? fdopendir(dup(sfd)) : NULL;
	while (d && n < NAMES_MAX && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!(names[n] = aieth__strdup(e->d_name)))
			break;
		n++;
	}
	if (d)
		closedir(d);
	/* the same files kept whatever order the folder lists them in */
	qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n && dfd >= 0; i++) {
		const char *name = names[i];
		struct stat st, dst;
		char *path;
		if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (!S_ISREG(st.st_mode)) {
			note(why, sizeof why, name, "is not a regular file: not kept");
			continue;
		}
		if (!aieth__name_ok(name, 255)) {
			note(why, sizeof why, name, "is not a plain file name: not kept");
			continue;
		}
		/* the xrt.ini XRT read: the session's own xrt.ini stays (th_server
		 * keeps the client's; a local run gets this copy) */
		if ((!strcmp(name, "xrt.ini") || !strcmp(name, "run_summary.json")) &&
		    !fstatat(dfd, name, &dst, AT_SYMLINK_NOFOLLOW))
			continue;
		if (kept >= AIETH_ARTIFACTS_FILES_MAX) {
			note(why, sizeof why, name, "is past the limit of files: not kept");
			continue;
		}
		if ((uint64_t)st.st_size > max - used) {
			char r[160];
			snprintf(r, sizeof r,
				 "(%llu bytes) is past the artifacts' limit of %llu bytes "
				 "in all: not kept",
				 (unsigned long long)st.st_size, (unsigned long long)max);
			note(why, sizeof why, name, r);
			continue;
		}
		if (renameat(sfd, name, dfd, name)) {
			char r[160];
			snprintf(r, sizeof r, "could not be moved into %.60s (%s)", artifacts_dir,
				 strerror(errno));
			note(why, sizeof why, name, r);
			continue;
		}
		used += (uint64_t)st.st_size;
		kept++;
		path = aieth__path_join(artifacts_dir, name);
		if (path && cfg->opts.artifact)
			cfg->opts.artifact(cfg->opts.artifact_ctx, path, (uint64_t)st.st_size);
		free(path);
	}
	if (n == NAMES_MAX)
		note(why, sizeof why, "...", "and more: the folder holds too many entries");
	for (i = 0; i < n; i++)
		free(names[i]);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	aieth__remove_tree(dir);
	if (why[0] && cfg->opts.artifact_error)
		cfg->opts.artifact_error(cfg->opts.artifact_ctx, why);
}
